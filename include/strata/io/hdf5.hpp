/// @file
/// HDF5 files: tensors, views of datasets (hyperslabs), chunked tiles, ragged and sparse data.
///
/// A Dataset is a tensor whose buffer is a file: it carries a Dimensions over the stored
/// elements (row-major, as HDF5 stores them), and select(), transpose() and reverse() narrow it
/// without touching the file, as a Tensor's views do. read() then transfers only what the view
/// reads: a view that steps along the file's axes becomes one HDF5 hyperslab (start, stride,
/// count), any other (an index array, a roll, a reshape across rows) a list of elements. Writes
/// go through the same selections. `docs/files.md` is the design page.
///
/// @code
/// strata::io::File f("run.h5", strata::io::Mode::truncate);
/// f.write("u", u);                                           // any Tensor or view
/// auto rows = f.dataset("u").select({strata::Range{{}, {}, 2}}).read<double>();  // u[::2]
/// f.attrs().set("step", 42);
/// @endcode
///
/// Only src/io/hdf5.cpp includes `<hdf5.h>`: programs using this header link the optional
/// target `strata::hdf5` and never see HDF5's declarations.
#pragma once

#include "strata/core/error.hpp"
#include "strata/core/index.hpp"
#include "strata/layout/dimensions.hpp"
#include "strata/layout/layout.hpp"
#include "strata/tensor/jagged_tensor.hpp"
#include "strata/tensor/layout_tensor.hpp"
#include "strata/tensor/sparse.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>
#include <complex>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata::dist {
template <class T>
class DistTensor;
}  // namespace strata::dist

/// Files: HDF5 datasets as tensors, views as hyperslabs, chunks as tiles (strata::hdf5).
namespace strata::io {

/// The element types a dataset or attribute can hold, as strata names them (NumPy's names).
/// Booleans are stored as h5py stores them (an 8-bit enum FALSE = 0, TRUE = 1), complex numbers
/// as h5py does (a compound of two floats named `r` and `i`).
enum class DType : std::uint8_t {
  boolean,     ///< bool (h5py's enum)
  int8,        ///< std::int8_t
  int16,       ///< std::int16_t
  int32,       ///< std::int32_t
  int64,       ///< std::int64_t
  uint8,       ///< std::uint8_t
  uint16,      ///< std::uint16_t
  uint32,      ///< std::uint32_t
  uint64,      ///< std::uint64_t
  float32,     ///< float
  float64,     ///< double
  complex64,   ///< std::complex<float>
  complex128,  ///< std::complex<double>
  string,      ///< text (attributes, or a dataset of strings strata reads only as a type name)
  other        ///< anything else HDF5 holds (float16, references, opaque...): not readable
};

/// The NumPy name of a DType (`float64`, `bool`, ...).
/// @param type the type
/// @return the name
[[nodiscard]] std::string_view to_string(DType type) noexcept;

/// The DType of a C++ element type.
/// @tparam T bool, (u)int8..64_t, float, double, std::complex<float> or std::complex<double>
/// @return the DType
template <class T>
[[nodiscard]] constexpr DType dtype_of() noexcept {
  using V = std::remove_cv_t<T>;
  static_assert(std::is_arithmetic_v<V> || std::is_same_v<V, std::complex<float>> ||
                    std::is_same_v<V, std::complex<double>>,
                "strata::io: element types are bool, integers, float, double and std::complex");
  if constexpr (std::is_same_v<V, bool>) {
    return DType::boolean;
  } else if constexpr (std::is_same_v<V, float>) {
    return DType::float32;
  } else if constexpr (std::is_same_v<V, double>) {
    return DType::float64;
  } else if constexpr (std::is_same_v<V, std::complex<float>>) {
    return DType::complex64;
  } else if constexpr (std::is_same_v<V, std::complex<double>>) {
    return DType::complex128;
  } else {
    static_assert(std::is_integral_v<V> && sizeof(V) <= 8, "strata::io: unsupported element type");
    constexpr int log = sizeof(V) == 1 ? 0 : sizeof(V) == 2 ? 1 : sizeof(V) == 4 ? 2 : 3;
    if constexpr (std::is_signed_v<V>) {
      return static_cast<DType>(static_cast<int>(DType::int8) + log);
    } else {
      return static_cast<DType>(static_cast<int>(DType::uint8) + log);
    }
  }
}

/// How a File is opened; the letters are h5py's.
enum class Mode : std::uint8_t {
  read,        ///< `r`: an existing file, read-only
  read_write,  ///< `r+`: an existing file, read and write
  truncate,    ///< `w`: create, or empty an existing file
  exclusive,   ///< `x`: create; an existing file is an IOError
  append       ///< `a`: read and write an existing file, or create it
};

/// How a dataset is written.
struct WriteOptions {
  /// The chunk shape (HDF5's chunked layout; one chunk is read or written whole). Empty: a
  /// contiguous dataset, unless compression asks for chunks (then one chunk per ~1 MiB of rows).
  Index chunks{};
  /// The deflate (gzip) level, 1 (fast) to 9 (small); 0 leaves the data uncompressed.
  int deflate = 0;
  /// Shuffle the bytes of each chunk before deflating (groups the bytes of equal significance:
  /// smoother numbers compress better).
  bool shuffle = false;
  /// Replace an object that exists under the name (otherwise that is an IOError).
  bool overwrite = false;
};

namespace detail {

/// An HDF5 identifier (hid_t) owned by reference count: copies share it, the last one closes it.
class Handle {
 public:
  /// No object.
  Handle() noexcept = default;
  /// Takes ownership of one reference to @p id (a negative id is no object).
  /// @param id an HDF5 identifier
  explicit Handle(std::int64_t id) noexcept : id_(id) {}
  /// Another reference to the same object.
  /// @param other a handle
  Handle(const Handle& other) noexcept;
  /// Takes @p other's reference.
  /// @param other a handle, left empty
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, -1)) {}
  /// Shares @p other's object, releasing this one's.
  /// @param other a handle
  /// @return this handle
  Handle& operator=(const Handle& other) noexcept;
  /// Takes @p other's reference, releasing this one's.
  /// @param other a handle, left empty
  /// @return this handle
  Handle& operator=(Handle&& other) noexcept;
  /// Releases the reference (closing the object when it was the last).
  ~Handle();
  /// The identifier.
  /// @return the hid_t, negative when empty
  [[nodiscard]] std::int64_t id() const noexcept { return id_; }

 private:
  std::int64_t id_ = -1;
};

/// How a view of a dataset is transferred: the file selection, and where each element of the
/// view lands in the block HDF5 fills (or empties) in memory.
struct Transfer {
  /// True for one hyperslab (start/step/count per file axis), false for a list of elements.
  bool hyperslab = true;
  /// Hyperslab: the first coordinate, the step and the count along each file axis.
  Index start, step, count;
  /// Element list: the row-major file addresses, ascending and distinct.
  std::vector<index_t> points;
  /// The shape of the block in memory (the counts, or the number of points).
  Index block;
  /// Hyperslab: the view's elements as a map over the block (a permutation, flips, broadcasts).
  Dimensions memory;
  /// Element list: view element i (row-major) is block element gather[i].
  std::vector<index_t> gather;
  /// Whether the block in memory is the view's elements in row-major order already.
  bool direct = false;
};

/// Plans the transfer of @p view, a map over a dataset of @p shape's row-major addresses.
/// @param shape the dataset's extents
/// @param view the view
/// @return the plan
[[nodiscard]] Transfer plan_transfer(IndexSpan shape, const Dimensions& view);

/// Reads the selection of @p transfer into @p block (of transfer.block's shape) as @p type.
void read_block(const Handle& dataset, const std::string& where, const Transfer& transfer,
                DType type, void* block);
/// Writes @p block (of transfer.block's shape, elements of @p type) to the selection.
void write_block(const Handle& dataset, const std::string& where, const Transfer& transfer,
                 DType type, const void* block);

}  // namespace detail

class Group;

namespace detail {
/// Where a write is staged: its parent group, its final leaf name and its temporary one.
struct Staging {
  Handle parent;            ///< the group the object goes into
  std::string parent_path;  ///< its path
  std::string leaf;         ///< the object's name there
  std::string temporary;    ///< the name it is written under until complete
  bool replace = false;     ///< whether an object named leaf is replaced at the end
};
}  // namespace detail

/// The attributes of a file, group or dataset: small named values (numbers, text, short
/// arrays), as h5py's `obj.attrs`.
///
/// @code
/// f.attrs().set("units", "m/s");
/// f.attrs().set("origin", std::vector<double>{0.0, 1.5});
/// double dt = ds.attrs().get<double>("dt");
/// @endcode
class Attributes {
 public:
  /// Whether an attribute of that name exists.
  /// @param name the attribute's name
  /// @return true when it exists
  [[nodiscard]] bool contains(const std::string& name) const;
  /// The attributes' names, in HDF5's name order.
  /// @return the names
  [[nodiscard]] std::vector<std::string> names() const;
  /// The stored type of an attribute.
  /// @param name the attribute's name
  /// @return its DType
  /// @throws IOError when it does not exist
  [[nodiscard]] DType dtype(const std::string& name) const;

  /// Sets a number (replacing an attribute of that name, as h5py does).
  /// @param name the attribute's name
  /// @param value a number or bool
  /// @throws IOError when the file is read-only
  template <class T>
  requires(std::is_arithmetic_v<T>) void set(const std::string& name, const T& value) {
    set_array(name, dtype_of<T>(), &value, 0);
  }
  /// Sets a one-dimensional array of numbers.
  /// @param name the attribute's name
  /// @param values the numbers
  /// @throws IOError when the file is read-only
  template <class T>
  void set(const std::string& name, const std::vector<T>& values) {
    set_array(name, dtype_of<T>(), values.data(), static_cast<index_t>(values.size()));
  }
  /// Sets text (stored as h5py stores `str`: variable-length UTF-8).
  /// @param name the attribute's name
  /// @param text the text
  /// @throws IOError when the file is read-only
  void set(const std::string& name, std::string_view text);
  /// Sets text from a C string.
  /// @param name the attribute's name
  /// @param text the text
  /// @throws IOError when the file is read-only
  void set(const std::string& name, const char* text) { set(name, std::string_view(text)); }

  /// Reads an attribute: a number, `std::string`, or `std::vector` of numbers. Numbers convert
  /// as datasets' elements do (HDF5's conversions).
  /// @tparam T the type asked for
  /// @param name the attribute's name
  /// @return the value
  /// @throws IOError when it does not exist
  /// @throws TypeError when it holds text and a number is asked for, numbers and text is asked
  ///         for, or several numbers and one is asked for
  template <class T>
  [[nodiscard]] T get(const std::string& name) const {
    if constexpr (std::is_same_v<T, std::string>) {
      return get_string(name);
    } else if constexpr (std::is_arithmetic_v<T>) {
      T value{};
      get_array(name, dtype_of<T>(), &value, 1);
      return value;
    } else {
      using V = typename T::value_type;
      std::vector<V> values(static_cast<std::size_t>(element_count(name)));
      get_array(name, dtype_of<V>(), values.data(), -1);
      return values;
    }
  }
  /// Removes an attribute.
  /// @param name the attribute's name
  /// @throws IOError when it does not exist or the file is read-only
  void remove(const std::string& name);

 private:
  friend class Group;
  friend class Dataset;
  Attributes(detail::Handle object, std::string where)
      : object_(std::move(object)), where_(std::move(where)) {}
  void set_array(const std::string& name, DType type, const void* values, index_t count);
  void get_array(const std::string& name, DType type, void* values, index_t expected) const;
  [[nodiscard]] index_t element_count(const std::string& name) const;
  [[nodiscard]] std::string get_string(const std::string& name) const;

  detail::Handle object_;
  std::string where_;  // "file.h5:/group/name", for messages
};

template <class T>
class DatasetBuffer;

/// A dataset, or a view of one: a tensor whose elements are in a file.
///
/// A Dataset holds the dataset's handle and a Dimensions over its row-major addresses; select(),
/// transpose() and reverse() return narrower views, reading nothing. read() transfers only
/// the view's elements; write() writes only them. The file stays open while a Dataset of it
/// lives.
///
/// @code
/// auto ds = f.dataset("field");                                // [1000 1000 100], nothing read
/// auto crop = ds.select({strata::Range{10, 20}, strata::Range{0, 1000, 10}, 5});
/// strata::Tensor<float> c = crop.read<float>();                // 10 x 100 elements read
/// ds.select({0}).write(strata::Tensor<float>({1000, 100}));    // one plane written
/// @endcode
class Dataset {
 public:
  /// The view's extents.
  /// @return the shape (the dataset's own for a whole dataset)
  [[nodiscard]] Index shape() const { return view_.shape(); }
  /// The view's rank.
  /// @return the rank
  [[nodiscard]] int rank() const noexcept { return view_.rank(); }
  /// The view's number of elements.
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return view_.size(); }
  /// The stored dataset's extents, whatever the view.
  /// @return the file's shape
  [[nodiscard]] const Index& file_shape() const noexcept { return file_shape_; }
  /// The view: a map over the dataset's row-major addresses.
  /// @return the Dimensions
  [[nodiscard]] const Dimensions& dims() const noexcept { return view_; }
  /// The stored element type.
  /// @return the DType
  [[nodiscard]] DType dtype() const noexcept { return dtype_; }
  /// The chunk shape of a chunked dataset.
  /// @return the chunk extents, empty for a contiguous dataset
  [[nodiscard]] Index chunks() const;
  /// The dataset's path in its file (`/group/name`).
  /// @return the path
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  /// The dataset's attributes.
  /// @return the attributes
  [[nodiscard]] Attributes attrs() const { return {handle_, where()}; }

  /// A view through selectors, as Tensor::select (`ds[1:, ::2, 3]`).
  /// @param selectors one per axis (missing trailing axes are taken whole)
  /// @return the narrower view
  /// @throws IndexError for a selector outside the view
  [[nodiscard]] Dataset select(std::initializer_list<Selector> selectors) const {
    return with(view_.select(selectors));
  }
  /// A view through selectors given as a span.
  /// @param selectors one per axis
  /// @return the narrower view
  /// @throws IndexError for a selector outside the view
  [[nodiscard]] Dataset select(std::span<const Selector> selectors) const {
    return with(view_.select(selectors));
  }
  /// The axes permuted, as Tensor::transpose.
  /// @param permutation the new order of the axes
  /// @return the view
  /// @throws ShapeError for an invalid permutation
  [[nodiscard]] Dataset transpose(IndexSpan permutation) const {
    return with(view_.transpose(permutation));
  }
  /// The axes reversed in order.
  /// @return the view
  [[nodiscard]] Dataset transpose() const { return with(view_.transpose()); }
  /// Axes flipped, as `np.flip`.
  /// @param axes the axes to flip
  /// @return the view
  /// @throws IndexError for an axis outside the rank
  [[nodiscard]] Dataset reverse(IndexSpan axes) const { return with(view_.reverse(axes)); }
  /// Any map over the dataset's row-major addresses (Dimensions(file_shape()) and its views).
  /// @param dims the map
  /// @return the view
  /// @throws IndexError when the map reads outside the dataset
  [[nodiscard]] Dataset view(Dimensions dims) const;

  /// Reads the view into a new row-major tensor, converting the stored elements to @p T as HDF5
  /// converts (docs/files.md).
  /// @tparam T the element type asked for
  /// @return the elements
  /// @throws TypeError when HDF5 cannot convert the stored type to @p T
  /// @throws IOError when HDF5 fails to read (a damaged file)
  template <class T>
  [[nodiscard]] Tensor<T> read() const {
    const detail::Transfer transfer = detail::plan_transfer(file_shape_, view_);
    auto out = Tensor<T>::for_overwrite(view_.shape());
    if (out.size() == 0) {
      return out;
    }
    if (transfer.direct) {
      detail::read_block(handle_, where(), transfer, dtype_of<T>(), out.data());
      return out;
    }
    auto block = Tensor<T>::for_overwrite(transfer.block);
    detail::read_block(handle_, where(), transfer, dtype_of<T>(), block.data());
    if (transfer.hyperslab) {
      out.assign(Tensor<const T>(block.buffer(), transfer.memory));
    } else {
      T* o = out.data();
      const T* b = block.data();
      for (std::size_t i = 0; i < transfer.gather.size(); ++i) {
        o[i] = b[transfer.gather[i]];
      }
    }
    return out;
  }

  /// Reads the view into an existing tensor or view of the same shape (`dest[...] = ds[...]`).
  /// @param dest the destination, writable
  /// @throws ShapeError when the shapes differ (naming both)
  /// @throws LayoutError when @p dest is not writable
  /// @throws TypeError when HDF5 cannot convert the stored type
  template <class T>
  void read_into(Tensor<T> dest) const {
    static_assert(!std::is_const_v<T>, "read_into: the destination must be writable");
    check_destination(dest.shape(), dest.is_writable());
    if (dest.size() == 0) {
      return;
    }
    const detail::Transfer transfer = detail::plan_transfer(file_shape_, view_);
    if (transfer.direct && dest.is_contiguous()) {
      detail::read_block(handle_, where(), transfer, dtype_of<T>(), dest.data());
      return;
    }
    dest.assign(read<T>());
  }

  /// Writes a tensor (or view) into the view, broadcasting it to the view's shape as NumPy's
  /// `ds[...] = src` does. Elements convert to the stored type as HDF5 converts.
  /// @param src the elements
  /// @throws IOError when the file is read-only
  /// @throws BroadcastError when @p src does not broadcast to the view's shape
  /// @throws LayoutError when the view repeats a stored element (a broadcast, a repeated index)
  template <class T>
  void write(const Tensor<const T>& src) const {
    check_writable();
    const Tensor<const T> from = src.shape() == view_.shape() ? src : src.broadcast(view_.shape());
    if (from.size() == 0) {
      return;
    }
    const detail::Transfer transfer = detail::plan_transfer(file_shape_, view_);
    if (transfer.direct && from.is_contiguous()) {
      detail::write_block(handle_, where(), transfer, dtype_of<T>(), from.data());
      return;
    }
    auto block = Tensor<std::remove_const_t<T>>::for_overwrite(transfer.block);
    if (transfer.hyperslab) {
      Tensor<std::remove_const_t<T>>(block.buffer(), transfer.memory).assign(from);
    } else {
      const auto ordered = from.copy();
      const T* f = ordered.data();
      auto* b = block.data();
      for (std::size_t i = 0; i < transfer.gather.size(); ++i) {
        b[transfer.gather[i]] = f[i];
      }
    }
    detail::write_block(handle_, where(), transfer, dtype_of<T>(), block.data());
  }
  /// Writes a mutable tensor (see the const overload).
  /// @param src the elements
  template <class T>
  requires(!std::is_const_v<T>) void write(const Tensor<T>& src) const {
    write(Tensor<const T>(src));
  }
  /// Writes one value into every element of the view (`ds[...] = value`).
  /// @param value the value
  template <class T>
  requires(std::is_arithmetic_v<T>) void fill(const T& value) const {
    Tensor<T> one;
    one.fill(value);
    write(Tensor<const T>(one).broadcast(view_.shape()));
  }

  /// The view as a read-only Tensor whose buffer is the file: elements are read when strata
  /// reads them, a block at a time (the dataset's chunks, or rows of about 1 MiB for a
  /// contiguous dataset), and the last @p cache_blocks blocks are kept. Every view, expression
  /// and reduction of strata works on it before anything is loaded; a few elements of a large
  /// file cost a few blocks. For reading a whole view, read() is the fast path (one transfer).
  /// @tparam T the element type asked for (converted as read() converts)
  /// @param cache_blocks how many blocks to keep, >= 1
  /// @return the tensor (it keeps the file open)
  /// @throws TypeError when the stored type does not convert to @p T
  /// @throws ShapeError when @p cache_blocks is below 1
  template <class T>
  [[nodiscard]] Tensor<const T> lazy(index_t cache_blocks = 32) const;

  /// Reads the whole dataset into a tiled tensor whose tiles are @p tile (by default the file's
  /// chunks), each tile read as one hyperslab.
  /// @param tile the tile extents; empty for the dataset's chunk shape
  /// @return the tiled tensor
  /// @throws ShapeError when the dataset is not chunked and no tile is given
  template <class T>
  [[nodiscard]] LayoutTensor<T> read_tiled(IndexSpan tile = {}) const {
    const Index chosen = tile_for_read(tile);
    LayoutTensor<T> out(Layout::tiled(Smooth(view_.shape()), chosen));
    for (index_t p = 0; p < out.n_pieces(); ++p) {
      select_region(out.piece_region(p)).read_into(out.piece(p));
    }
    return out;
  }

  /// Reads the view into a distributed tensor of its shape, collectively: every rank reads its
  /// own tiles as hyperslabs in one collective MPI-IO transfer per round, whatever tiling
  /// wrote the file (strata/io/parallel.hpp, target strata::hdf5_mpi; the file opened with
  /// open_collective()).
  /// @param a the distributed tensor (its tiling and distribution are kept)
  /// @throws ShapeError when the shapes differ (on every rank)
  template <class T>
  void read_into(dist::DistTensor<T>& a) const;

 private:
  friend class Group;
  Dataset(detail::Handle handle, std::string file, std::string path, Index shape, DType dtype,
          bool writable);
  [[nodiscard]] Dataset with(Dimensions view) const {
    Dataset d = *this;
    d.view_ = std::move(view);
    return d;
  }
  [[nodiscard]] std::string where() const { return file_ + ":" + path_; }
  [[nodiscard]] Dataset select_region(const SmoothView& region) const;
  [[nodiscard]] Index tile_for_read(IndexSpan tile) const;
  [[nodiscard]] Index cache_block(index_t cache_blocks) const;
  void check_readable(DType asked) const;
  template <class T>
  friend class DatasetBuffer;
  void check_destination(IndexSpan shape, bool writable) const;
  void check_writable() const;

  detail::Handle handle_;
  std::string file_, path_;
  Index file_shape_;
  Dimensions view_;
  DType dtype_ = DType::other;
  bool writable_ = false;
};

namespace detail {

/// The blocks of a dataset that a DatasetBuffer has read, most recently used kept.
template <class T>
struct DatasetCache {
  /// One block read.
  struct Entry {
    index_t id = -1;
    index_t used = 0;
    Index lo, extents;
    Tensor<T> values;
  };
  DatasetCache(Dataset d, Index b, index_t capacity_)
      : dataset(std::move(d)),
        shape(dataset.file_shape()),
        block(std::move(b)),
        capacity(static_cast<std::size_t>(capacity_)) {
    size = 1;
    for (const index_t e : shape) {
      size *= e;
    }
    strides = Index(shape.size(), 1);
    grid = Index(shape.size(), 1);
    for (std::size_t k = shape.size(); k-- > 0;) {
      if (k + 1 < shape.size()) {
        strides[k] = strides[k + 1] * shape[k + 1];
      }
      grid[k] = std::max<index_t>(1, (shape[k] + block[k] - 1) / block[k]);
    }
  }
  T read(index_t address) {
    Index c(shape.size());
    index_t id = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      c[k] = (address / strides[k]) % shape[k];
      id = id * grid[k] + c[k] / block[k];
    }
    Entry& e = find(id, c);
    index_t at = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      at = at * e.extents[k] + (c[k] - e.lo[k]);
    }
    return e.values.data()[at];
  }
  Entry& find(index_t id, const Index& c) {
    ++clock;
    Entry* oldest = nullptr;
    for (Entry& e : entries) {
      if (e.id == id) {
        e.used = clock;
        return e;
      }
      if (oldest == nullptr || e.used < oldest->used) {
        oldest = &e;
      }
    }
    if (entries.size() < capacity) {
      oldest = &entries.emplace_back();
    }
    Entry& e = *oldest;
    e.lo = Index(shape.size());
    e.extents = Index(shape.size());
    std::vector<Selector> box;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      e.lo[k] = c[k] / block[k] * block[k];
      e.extents[k] = std::min(block[k], shape[k] - e.lo[k]);
      box.emplace_back(Range{e.lo[k], e.lo[k] + e.extents[k]});
    }
    e.id = -1;  // unusable until read
    e.values.rebind(dataset.select(std::span<const Selector>(box)).template read<T>());
    e.id = id;
    e.used = clock;
    ++blocks_read;
    return e;
  }
  Dataset dataset;
  Index shape, block, strides, grid;
  std::size_t capacity;
  index_t size = 0;
  index_t clock = 0;
  index_t blocks_read = 0;
  std::vector<Entry> entries;
};

}  // namespace detail

/// A read-only strata buffer over a stored dataset (Dataset::lazy): an element is read when
/// strata reads it, with the block of the dataset that holds it (a chunk, or rows of about
/// 1 MiB), and the most recently used blocks are kept. Copies share one cache. Reads are not
/// concurrent (HDF5's serial library): strata reads such a buffer on one thread.
/// @tparam T the element type
template <class T>
class DatasetBuffer {
 public:
  /// The element type.
  using value_type = T;

  /// A buffer over the whole of @p dataset's stored elements.
  /// @param dataset the dataset (its view is ignored: the buffer is the stored elements)
  /// @param block the extents of the blocks read at once
  /// @param cache_blocks how many blocks to keep, >= 1
  DatasetBuffer(const Dataset& dataset, Index block, index_t cache_blocks)
      : state_(std::make_shared<detail::DatasetCache<T>>(
            dataset.view(Dimensions(dataset.file_shape())), std::move(block), cache_blocks)) {}

  /// The number of stored elements.
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return state_->size; }
  /// Stored element @p address (row-major), reading its block when it is not cached.
  /// @param address in [0, size())
  /// @return the element
  /// @throws IOError when HDF5 fails to read
  [[nodiscard]] T read(index_t address) const { return state_->read(address); }
  /// How many blocks were read from the file so far (by this buffer and its copies).
  /// @return the count
  [[nodiscard]] index_t blocks_read() const noexcept { return state_->blocks_read; }

 private:
  std::shared_ptr<detail::DatasetCache<T>> state_;
};

template <class T>
Tensor<const T> Dataset::lazy(index_t cache_blocks) const {
  Index block = cache_block(cache_blocks);
  check_readable(dtype_of<T>());  // once here, not at the first read
  return Tensor<const T>(AnyBuffer<T>(DatasetBuffer<T>(*this, std::move(block), cache_blocks)),
                         view_);
}

/// A group: a folder of datasets, groups and attributes (the File is its root group). Paths
/// may have several parts (`"run/step_3/u"`).
class Group {
 public:
  /// The group's path in its file (`/` for the root).
  /// @return the path
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  /// The file's name, as given when it was opened.
  /// @return the file name
  [[nodiscard]] const std::string& filename() const noexcept { return file_; }
  /// Whether an object (group or dataset) exists at a path below this group.
  /// @param name a relative path
  /// @return true when it exists
  [[nodiscard]] bool contains(const std::string& name) const;
  /// The names of the objects directly in this group, in name order.
  /// @return the names
  [[nodiscard]] std::vector<std::string> names() const;
  /// Whether the object at @p name is a group (false for a dataset).
  /// @param name a relative path
  /// @return true for a group
  /// @throws IOError when nothing exists there
  [[nodiscard]] bool is_group(const std::string& name) const;
  /// Opens a group.
  /// @param name a relative path
  /// @return the group
  /// @throws IOError when it does not exist or is a dataset
  [[nodiscard]] Group group(const std::string& name) const;
  /// Creates a group (and the groups on its path).
  /// @param name a relative path
  /// @return the group
  /// @throws IOError when the name exists or the file is read-only
  Group create_group(const std::string& name) const;
  /// Opens a group, creating it when missing (h5py's `require_group`).
  /// @param name a relative path
  /// @return the group
  /// @throws IOError when a dataset has that name or the file is read-only
  Group require_group(const std::string& name) const;
  /// Opens a dataset (reads nothing but its description).
  /// @param name a relative path
  /// @return the dataset, whole
  /// @throws IOError when it does not exist or is a group
  [[nodiscard]] Dataset dataset(const std::string& name) const;
  /// Removes an object (its space is reused by HDF5 only after `h5repack`).
  /// @param name a relative path
  /// @throws IOError when it does not exist or the file is read-only
  void remove(const std::string& name) const;
  /// The group's attributes.
  /// @return the attributes
  [[nodiscard]] Attributes attrs() const { return {handle_, file_ + ":" + path_}; }

  /// Creates a dataset of a shape and element type, filled with zeros, to be written in parts
  /// through Dataset views.
  /// @param name a relative path
  /// @param shape the extents
  /// @param type the stored element type
  /// @param options chunks, compression, overwrite
  /// @return the dataset
  /// @throws IOError when the name exists (and overwrite was not asked) or the file is read-only
  /// @throws ShapeError for a negative extent, or chunks of another rank or with a zero extent
  Dataset create_dataset(const std::string& name, IndexSpan shape, DType type,
                         const WriteOptions& options = {}) const;

  /// Writes a tensor or view as a new dataset of its shape and element type. The dataset
  /// appears under its name only once every element is written (docs/files.md: interrupted
  /// writes).
  /// @param name a relative path
  /// @param t the elements (any view: strided, flipped, rolled, broadcast, computed)
  /// @param options chunks, compression, overwrite
  /// @return the dataset
  /// @throws IOError when the name exists (and overwrite was not asked) or the file is read-only
  template <class T>
  Dataset write(const std::string& name, const Tensor<const T>& t,
                const WriteOptions& options = {}) const {
    return publish(name, options, [&](const Group& parent, const std::string& leaf) {
      Dataset d = parent.create_dataset(leaf, t.shape(), dtype_of<T>(), unlinked(options));
      d.write(t);
      return d;
    });
  }
  /// Writes a mutable tensor (see the const overload).
  /// @param name a relative path
  /// @param t the elements
  /// @param options chunks, compression, overwrite
  /// @return the dataset
  template <class T>
  requires(!std::is_const_v<T>) Dataset
      write(const std::string& name, const Tensor<T>& t, const WriteOptions& options = {})
  const { return write(name, Tensor<const T>(t), options); }
  /// Writes a tiled tensor as a chunked dataset whose chunk is the tile (compression from
  /// @p options; its chunks are ignored), one tile per hyperslab write.
  /// @param name a relative path
  /// @param t the tiled tensor
  /// @param options compression, overwrite
  /// @return the dataset
  template <class T>
  Dataset write(const std::string& name, const LayoutTensor<T>& t,
                const WriteOptions& options = {}) const {
    WriteOptions chunked = options;
    if (t.layout().kind() == Layout::Kind::tiled) {
      chunked.chunks = Index(t.layout().tile().begin(), t.layout().tile().end());
    }
    return publish(name, options, [&](const Group& parent, const std::string& leaf) {
      Dataset d = parent.create_dataset(leaf, t.shape(), dtype_of<T>(), unlinked(chunked));
      for (index_t p = 0; p < t.n_pieces(); ++p) {
        d.select_region(t.piece_region(p)).write(t.piece(p));
      }
      return d;
    });
  }
  /// Writes a distributed tensor as one dataset, collectively: every rank writes its own tiles
  /// as hyperslabs in collective MPI-IO transfers (strata/io/parallel.hpp, target
  /// strata::hdf5_mpi; the file opened with open_collective()). Staged like every write.
  /// @param name a relative path
  /// @param a the distributed tensor
  /// @param options chunks, compression, overwrite (the same on every rank)
  /// @return the dataset
  template <class T>
  Dataset write(const std::string& name, const dist::DistTensor<T>& a,
                const WriteOptions& options = {}) const;

  /// Writes a jagged tensor as a group holding `values` (the elements, one-dimensional) and
  /// `offsets` (int64, rows + 1: row r is values[offsets[r]:offsets[r+1]]), the convention of
  /// awkward-array, Arrow and ROOT; the group's attribute `strata:type` is `"jagged"`. Rows of
  /// lists (`n * var * var`) are awkward's two nested ListOffsetArrays: `offsets` (rows + 1)
  /// then says which lists each row holds, and `list_offsets` (lists + 1) where each list's
  /// values are.
  /// @param name a relative path
  /// @param t the jagged tensor: rows of varying length (rank 2) or rows of lists (rank 3, one
  ///          outer axis)
  /// @param options compression and overwrite (for every dataset)
  /// @return the group
  /// @throws ShapeError for a jagged tensor of another form
  template <class T>
  Group write(const std::string& name, const JaggedTensor<T>& t,
              const WriteOptions& options = {}) const {
    check_jagged_rank(name, t.shape().rank(), t.shape().outer_rank());
    if (t.shape().rank() == 3) {
      const auto lists = t.list_index();
      const auto as_tensor = [](std::span<const index_t> o) {
        return Tensor<index_t>::from_vector({o.begin(), o.end()}, {static_cast<index_t>(o.size())});
      };
      return publish_group(name, options, "jagged", [&](const Group& g) {
        g.write("values", t.values(), unlinked(options));
        g.write("offsets", as_tensor(lists->first), unlinked(options));
        g.write("list_offsets", as_tensor(lists->lists.row_starts()), unlinked(options));
      });
    }
    const auto offsets = t.offsets();
    const auto first = offsets.empty() ? index_t{0} : offsets.front();
    std::vector<index_t> zero_based(offsets.begin(), offsets.end());
    for (auto& o : zero_based) {
      o -= first;
    }
    return publish_group(name, options, "jagged", [&](const Group& g) {
      g.write("values", t.values(), unlinked(options));
      g.write("offsets",
              Tensor<index_t>::from_vector(std::move(zero_based), {t.shape().n_rows() + 1}),
              unlinked(options));
    });
  }
  /// Writes a two-dimensional sparse tensor as scipy's CSR arrays in a group (anndata's
  /// convention): datasets `data`, `indices`, `indptr` (int64), attributes `shape` and
  /// `encoding-type = "csr_matrix"`. Only the stored entries are written.
  /// @param name a relative path
  /// @param t a sparse tensor of rank 2
  /// @param options compression and overwrite
  /// @return the group
  /// @throws ShapeError for another rank
  template <class T>
  Group write_sparse(const std::string& name, const Tensor<const T>& t,
                     const WriteOptions& options = {}) const {
    const auto a = csr(t);
    return publish_group(name, options, "csr_matrix", [&](const Group& g) {
      using V = std::remove_const_t<T>;
      const auto n = [](std::size_t k) { return Index{static_cast<index_t>(k)}; };
      g.write("data",
              Tensor<V>::from_vector({a.values.begin(), a.values.end()}, n(a.values.size())),
              unlinked(options));
      g.write("indices", Tensor<index_t>::from_vector(a.indices, n(a.indices.size())),
              unlinked(options));
      g.write("indptr", Tensor<index_t>::from_vector(a.offsets, n(a.offsets.size())),
              unlinked(options));
      g.attrs().set("shape", std::vector<index_t>{a.rows, a.cols});
    });
  }

  /// Writes a mutable sparse tensor (see the const overload).
  /// @param name a relative path
  /// @param t a sparse tensor of rank 2
  /// @param options compression and overwrite
  /// @return the group
  template <class T>
  requires(!std::is_const_v<T>) Group
      write_sparse(const std::string& name, const Tensor<T>& t, const WriteOptions& options = {})
  const { return write_sparse(name, Tensor<const T>(t), options); }

  /// Reads a whole dataset (`f.read<double>("u")` is `f.dataset("u").read<double>()`).
  /// @param name a relative path
  /// @return the elements
  template <class T>
  [[nodiscard]] Tensor<T> read(const std::string& name) const {
    return dataset(name).read<T>();
  }
  /// Reads a jagged tensor written by write() or by any writer of values + offsets: rows of
  /// lists when the group also holds `list_offsets`.
  /// @param name a relative path to a group with `values` and `offsets` (and `list_offsets`)
  /// @return the jagged tensor
  /// @throws IOError when a part is missing
  /// @throws ShapeError when the offsets do not describe the values (or the lists): not rising,
  ///         not from 0, wrong end
  template <class T>
  [[nodiscard]] JaggedTensor<T> read_jagged(const std::string& name) const {
    const Group g = group(name);
    auto values = g.read<T>("values");
    std::vector<index_t> offsets = g.read<index_t>("offsets").to_vector();
    if (g.contains("list_offsets")) {  // rows of lists
      std::vector<index_t> lists = g.read<index_t>("list_offsets").to_vector();
      (void)checked_lengths(name, lists, values.size(), "list offsets", "values");
      (void)checked_lengths(name, offsets, static_cast<index_t>(lists.size()) - 1, "offsets",
                            "lists");
      return JaggedTensor<T>::from_values(
          values.to_vector(), Jagged::from_offsets(std::move(offsets), std::move(lists)));
    }
    const auto lengths = checked_lengths(name, offsets, values.size(), "offsets", "values");
    return JaggedTensor<T>::from_lengths(lengths, values.to_vector());
  }
  /// Reads a CSR group (write_sparse(), scipy/anndata's layout) into a sparse tensor.
  /// @param name a relative path
  /// @return the sparse tensor
  /// @throws IOError when a part is missing
  /// @throws ShapeError when the arrays do not describe a matrix of the stored shape
  template <class T>
  [[nodiscard]] Tensor<T> read_sparse(const std::string& name) const {
    const Group g = group(name);
    const auto shape = g.attrs().get<std::vector<index_t>>("shape");
    const auto data = g.read<T>("data").to_vector();
    const auto indices = g.read<index_t>("indices").to_vector();
    const auto indptr = g.read<index_t>("indptr").to_vector();
    const auto rows = checked_csr(name, shape, indptr, indices, data.size());
    return sparse_from_coo(shape, {rows, indices}, data);
  }

 protected:
  /// The group of @p handle at @p path in @p file.
  /// @param handle the group's HDF5 identifier
  /// @param file the file's name
  /// @param path the group's path
  /// @param writable whether the file was opened for writing
  Group(detail::Handle handle, std::string file, std::string path, bool writable)
      : handle_(std::move(handle)),
        file_(std::move(file)),
        path_(std::move(path)),
        writable_(writable) {}

  /// The handle.
  detail::Handle handle_;  // NOLINT(*-non-private-member-variables-in-classes)
  /// The file's name, for messages.
  std::string file_;  // NOLINT(*-non-private-member-variables-in-classes)
  /// This group's path in the file.
  std::string path_;  // NOLINT(*-non-private-member-variables-in-classes)
  /// Whether the file was opened for writing.
  bool writable_ = false;  // NOLINT(*-non-private-member-variables-in-classes)

 private:
  friend class Dataset;
  static WriteOptions unlinked(WriteOptions options) {
    options.overwrite = false;
    return options;
  }
  template <class F>
  Dataset publish(const std::string& name, const WriteOptions& options, F&& create) const {
    const Staging s = stage(name, options);
    try {
      static_cast<void>(create(parent_of(s), s.temporary));
      return commit_dataset(s);
    } catch (...) {
      abandon(s);
      throw;
    }
  }
  template <class F>
  Group publish_group(const std::string& name, const WriteOptions& options, const char* type,
                      F&& fill) const {
    const Staging s = stage(name, options);
    try {
      const Group g = parent_of(s).create_group(s.temporary);
      g.attrs().set("strata:type", type);
      if (std::string_view(type) == "csr_matrix") {
        g.attrs().set("encoding-type", type);
        g.attrs().set("encoding-version", "0.1.0");
      }
      fill(g);
      return commit_group(s);
    } catch (...) {
      abandon(s);
      throw;
    }
  }
  using Staging = detail::Staging;
  [[nodiscard]] Group parent_of(const Staging& s) const {
    return {s.parent, file_, s.parent_path, writable_};
  }
  [[nodiscard]] Staging stage(const std::string& name, const WriteOptions& options) const;
  void link_complete(const Staging& s) const;
  [[nodiscard]] Dataset commit_dataset(const Staging& s) const;
  [[nodiscard]] Group commit_group(const Staging& s) const;
  void abandon(const Staging& s) const noexcept;
  void check_jagged_rank(const std::string& name, int rank, int outer_rank) const;
  // The lengths the offsets give when they run from 0 to the number of entries below them
  // without falling (an error names them @p what and the entries @p below).
  [[nodiscard]] std::vector<index_t> checked_lengths(const std::string& name,
                                                     const std::vector<index_t>& offsets,
                                                     index_t n_values, std::string_view what,
                                                     std::string_view below) const;
  [[nodiscard]] std::vector<index_t> checked_csr(const std::string& name, IndexSpan shape,
                                                 const std::vector<index_t>& indptr,
                                                 const std::vector<index_t>& indices,
                                                 std::size_t n_data) const;
};

class File;

namespace detail {
/// The File of an opened root group (open_collective() opens files its own way).
File file_from_handle(const std::string& filename, Mode mode, Handle root);
}  // namespace detail

/// An HDF5 file, open while any File, Group or Dataset of it lives; the root group.
///
/// @code
/// strata::io::File f("out.h5", strata::io::Mode::truncate);
/// f.write("grid/u", u, {.chunks = {64, 64}, .deflate = 4});
/// @endcode
class File : public Group {
 public:
  /// Opens or creates a file.
  /// @param filename the path
  /// @param mode how (h5py's letters: Mode::read is `r`)
  /// @throws IOError when the file is missing (read, read_write), exists (exclusive), is not
  ///         an HDF5 file, is damaged, or cannot be created
  explicit File(const std::string& filename, Mode mode = Mode::read);
  /// The mode it was opened with.
  /// @return the mode
  [[nodiscard]] Mode mode() const noexcept { return mode_; }
  /// Writes HDF5's buffers to the disk (H5Fflush).
  /// @throws IOError when HDF5 fails
  void flush() const;

 private:
  friend File detail::file_from_handle(const std::string& filename, Mode mode, detail::Handle root);
  File(const std::string& filename, Mode mode, detail::Handle handle);
  Mode mode_;
};

}  // namespace strata::io
