/// strata::Tensor: a shared buffer plus a Dimensions; views, element access, copies.
#pragma once

#include "strata/buffer/any_buffer.hpp"
#include "strata/buffer/dense_buffer.hpp"
#include "strata/core/checked.hpp"
#include "strata/core/error.hpp"
#include "strata/layout/dimensions.hpp"
#include "strata/layout/odometer.hpp"
#include "strata/parallel/policy.hpp"
#include "strata/tensor/copy_kernels.hpp"

#include <concepts>
#include <initializer_list>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

template <class T>
class Tensor;

/// NumPy's broadcasting of two shapes: aligned on the right, each pair equal or one of them 1.
/// @param a, b the shapes
/// @param operation the operation to name in the error
/// @return the broadcast shape
/// @throws BroadcastError when an aligned pair differs and neither is 1
inline Index broadcast_shapes(IndexSpan a, IndexSpan b, std::string_view operation) {
  const std::size_t rank = std::max(a.size(), b.size());
  Index out(rank);
  for (std::size_t k = 0; k < rank; ++k) {
    const index_t ea = k < rank - a.size() ? 1 : a[k - (rank - a.size())];
    const index_t eb = k < rank - b.size() ? 1 : b[k - (rank - b.size())];
    if (ea != eb && ea != 1 && eb != 1) {
      detail::fail<BroadcastError>(operation, "shapes ", to_string(a), " and ", to_string(b),
                                   " do not broadcast (axis ", k, " of the result: ", ea, " vs ",
                                   eb, ")");
    }
    out[k] = ea == 1 ? eb : ea;
  }
  return out;
}

/// A reference to one element of a Tensor: reads convert to `T`, assignment writes.
template <class T>
class ElementRef {
 public:
  /// Refers to the element at @p address of @p buffer.
  /// @param buffer the storage
  /// @param address the element's address
  /// @param aliased whether the tensor is a broadcast view (writes are rejected)
  ElementRef(const AnyBuffer<T>& buffer, index_t address, bool aliased)
      : buffer_(&buffer), address_(address), aliased_(aliased) {}
  /// Reads the element.
  /// @return its value
  // NOLINTNEXTLINE(google-explicit-constructor): a reference reads as its value.
  operator T() const { return buffer_->read(address_); }
  /// Writes the element.
  /// @param value the new value
  /// @return this reference
  /// @throws LayoutError for a broadcast view or a read-only buffer
  ElementRef& operator=(const T& value) {
    if (aliased_) {
      detail::fail<LayoutError>("write", "the tensor is a broadcast view: several indices share ",
                                "address ", address_);
    }
    if (!buffer_->writable()) {
      detail::fail<LayoutError>("write", "the buffer is read-only (a generator?)");
    }
    buffer_->write(address_, value);
    return *this;
  }
  /// Copies the value of another element.
  /// @param other the element to read
  /// @return this reference
  ElementRef& operator=(const ElementRef& other) { return *this = static_cast<T>(other); }
  /// Refers to the same element as @p other.
  /// @param other a reference
  ElementRef(const ElementRef& other) = default;
  /// Refers to the same element as @p other.
  /// @param other a reference
  ElementRef(ElementRef&& other) noexcept = default;
  ElementRef& operator=(ElementRef&&) = delete;
  ~ElementRef() = default;

 private:
  const AnyBuffer<T>* buffer_;
  index_t address_;
  bool aliased_;
};

/// An N-dimensional array: a shared buffer of `T` plus a Dimensions that addresses it.
///
/// A Tensor is a handle: copying one shares the buffer, and every view operation (select,
/// transpose, broadcast, rotate, reverse, squeeze, unsqueeze, reshape) returns a tensor that
/// shares it too. copy() makes a dense, row-major copy. Writes through a broadcast view, or into
/// a read-only buffer (a generator), throw LayoutError.
///
/// @code
/// strata::Tensor<float> t{{0, 1, 2}, {3, 4, 5}};    // 2x3, like np.array
/// auto col = t.select({strata::all, 1});             // [1 4], shares t's buffer
/// col.assign(strata::Tensor<float>{7});              // broadcast 7 into the column
/// t(1, 1);                                           // 7
/// @endcode
///
/// Note: `Tensor<float>({2, 3})` is the vector [2 3], as `np.array([2, 3])`; a tensor of zeros
/// of shape 2x3 is `Tensor<float>(strata::Index{2, 3})`. Nested lists whose innermost lists have
/// one element (`{{1}, {2}}`) are ambiguous in C++; write `Tensor<int>{1, 2}.unsqueeze(1)`.
template <class T>
class Tensor {
 public:
  /// The element type.
  using value_type = T;

  /// A rank-0 tensor holding one value-initialised element.
  Tensor() : Tensor(Index{}) {}

  /// A dense, row-major tensor of value-initialised elements (zeros).
  /// @param shape the extents
  /// @throws ShapeError for a negative extent or a size that overflows
  explicit Tensor(const Index& shape) : Tensor(IndexSpan(shape)) {}

  /// A dense, row-major tensor of value-initialised elements (zeros).
  /// @param shape the extents
  /// @throws ShapeError for a negative extent or a size that overflows
  explicit Tensor(IndexSpan shape)
      : dims_(shape), buffer_(DenseBuffer<T>(checked_size(shape, "Tensor"))) {}

  /// A vector from a list, as `np.array([...])`.
  /// @param values the elements
  Tensor(std::initializer_list<T> values)
      : Tensor(from_vector(std::vector<T>(values), {static_cast<index_t>(values.size())})) {}

  /// A matrix from nested lists, as `np.array([[...], ...])`.
  /// @param rows the rows, all of one length
  /// @throws ShapeError for ragged rows
  Tensor(std::initializer_list<std::initializer_list<T>> rows) : Tensor(nested(rows)) {}

  /// A rank-3 tensor from nested lists.
  /// @param planes the planes, all of one shape
  /// @throws ShapeError for ragged lists
  Tensor(std::initializer_list<std::initializer_list<std::initializer_list<T>>> planes)
      : Tensor(nested(planes)) {}

  /// A tensor over any buffer through any map.
  /// @param buffer the storage (shared)
  /// @param dims the map; every address it reads must be in [0, buffer.size())
  /// @throws IndexError when the map reads outside the buffer
  Tensor(AnyBuffer<T> buffer, Dimensions dims)
      : dims_(std::move(dims)), buffer_(std::move(buffer)) {
    check_fits("Tensor");
  }

  /// A dense row-major tensor that takes the values of a vector.
  /// @param values the elements in row-major order
  /// @param shape the extents; their product must be values.size()
  /// @return the tensor
  /// @throws ShapeError when the sizes differ
  static Tensor from_vector(std::vector<T> values, IndexSpan shape) {
    const index_t size = checked_size(shape, "from_vector");
    if (size != static_cast<index_t>(values.size())) {
      detail::fail<ShapeError>("from_vector", "shape ", to_string(shape), " holds ", size,
                               " elements but the vector has ", values.size());
    }
    return Tensor(AnyBuffer<T>(DenseBuffer<T>(values)), Dimensions(shape));
  }

  /// A row-major tensor over memory the caller owns and keeps alive; nothing is copied.
  /// @param data the first element
  /// @param shape the extents
  /// @return the tensor
  /// @throws Error when @p data is null and the shape is not empty
  static Tensor wrap(T* data, IndexSpan shape) {
    const index_t size = checked_size(shape, "wrap");
    return Tensor(AnyBuffer<T>(DenseBuffer<T>::wrap(data, size)), Dimensions(shape));
  }

  // ---- what it is ----------------------------------------------------------------------------

  /// The address map.
  /// @return the Dimensions
  [[nodiscard]] const Dimensions& dims() const noexcept { return dims_; }
  /// The storage.
  /// @return the shared buffer handle
  [[nodiscard]] const AnyBuffer<T>& buffer() const noexcept { return buffer_; }
  /// The extents.
  /// @return the shape
  [[nodiscard]] Index shape() const { return dims_.shape(); }
  /// The number of axes.
  /// @return the rank
  [[nodiscard]] int rank() const noexcept { return dims_.rank(); }
  /// The number of elements.
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return dims_.size(); }

  // ---- views (share the buffer) --------------------------------------------------------------

  /// @copydoc Dimensions::select(std::initializer_list<Selector>) const
  [[nodiscard]] Tensor select(std::initializer_list<Selector> selectors) const {
    return view(dims_.select(selectors));
  }
  /// @copydoc Dimensions::select(std::span<const Selector>) const
  [[nodiscard]] Tensor select(std::span<const Selector> selectors) const {
    return view(dims_.select(selectors));
  }
  /// @copydoc Dimensions::transpose(IndexSpan) const
  [[nodiscard]] Tensor transpose(IndexSpan permutation) const {
    return view(dims_.transpose(permutation));
  }
  /// @copydoc Dimensions::transpose() const
  [[nodiscard]] Tensor transpose() const { return view(dims_.transpose()); }
  /// @copydoc Dimensions::broadcast(IndexSpan) const
  [[nodiscard]] Tensor broadcast(IndexSpan shape) const { return view(dims_.broadcast(shape)); }
  /// @copydoc Dimensions::rotate(IndexSpan) const
  [[nodiscard]] Tensor rotate(IndexSpan shifts) const { return view(dims_.rotate(shifts)); }
  /// @copydoc Dimensions::rotate(index_t, index_t) const
  [[nodiscard]] Tensor rotate(index_t shift, index_t axis) const {
    return view(dims_.rotate(shift, axis));
  }
  /// @copydoc Dimensions::reverse(IndexSpan) const
  [[nodiscard]] Tensor reverse(IndexSpan axes) const { return view(dims_.reverse(axes)); }
  /// @copydoc Dimensions::reverse() const
  [[nodiscard]] Tensor reverse() const { return view(dims_.reverse()); }
  /// @copydoc Dimensions::squeeze(IndexSpan) const
  [[nodiscard]] Tensor squeeze(IndexSpan axes) const { return view(dims_.squeeze(axes)); }
  /// @copydoc Dimensions::squeeze() const
  [[nodiscard]] Tensor squeeze() const { return view(dims_.squeeze()); }
  /// @copydoc Dimensions::unsqueeze(index_t) const
  [[nodiscard]] Tensor unsqueeze(index_t axis) const { return view(dims_.unsqueeze(axis)); }
  /// @copydoc Dimensions::reshape(IndexSpan) const
  [[nodiscard]] Tensor reshape(IndexSpan shape) const { return view(dims_.reshape(shape)); }

  // ---- elements ------------------------------------------------------------------------------

  /// Reads an element (unchecked): `t(i, j)`.
  /// @param indices one index per axis, each in [0, extent)
  /// @return the element
  template <std::integral... I>
  [[nodiscard]] T operator()(I... indices) const {
    const std::array<index_t, sizeof...(I)> g{static_cast<index_t>(indices)...};
    return read(dims_.global_to_local(IndexSpan(std::span<const index_t>(g))));
  }

  /// A writable reference to an element (unchecked indices): `t(i, j) = v`.
  /// @param indices one index per axis, each in [0, extent)
  /// @return the reference
  template <std::integral... I>
  [[nodiscard]] ElementRef<T> operator()(I... indices) {
    const std::array<index_t, sizeof...(I)> g{static_cast<index_t>(indices)...};
    return {buffer_, dims_.global_to_local(IndexSpan(std::span<const index_t>(g))),
            dims_.is_broadcast()};
  }

  /// Reads an element, checked; negative indices count from the end as in NumPy.
  /// @param index one index per axis, in [-extent, extent)
  /// @return the element
  /// @throws IndexError for a wrong number of indices or one out of bounds
  [[nodiscard]] T at(IndexSpan index) const { return read(checked_address(index)); }

  /// A writable reference to an element, checked; negative indices count from the end.
  /// @param index one index per axis, in [-extent, extent)
  /// @return the reference
  /// @throws IndexError for a wrong number of indices or one out of bounds
  [[nodiscard]] ElementRef<T> at(IndexSpan index) {
    return {buffer_, checked_address(index), dims_.is_broadcast()};
  }

  // ---- copies --------------------------------------------------------------------------------

  /// A dense, row-major copy (a new buffer).
  /// @param policy seq or par
  /// @return the copy
  template <ExecutionPolicy P = Parallel>
  [[nodiscard]] Tensor copy(const P& policy = P{}) const {
    Tensor out(shape());
    copy_buffers(policy, out.buffer_, out.dims_, buffer_, dims_);
    return out;
  }

  /// Writes @p src into this view, broadcasting it (NumPy rules) to this shape.
  ///
  /// When @p src shares this buffer it is copied first, so overlapping views assign as NumPy
  /// does.
  /// @param src the values
  /// @param policy seq or par
  /// @return this tensor
  /// @throws BroadcastError when src's shape does not broadcast to this shape; LayoutError when
  ///         this is a broadcast view or the buffer is read-only. Nothing is written then.
  template <ExecutionPolicy P = Parallel>
  Tensor& assign(const Tensor& src, const P& policy = P{}) {
    check_writable("assign");
    const Index target = broadcast_shapes(src.shape(), shape(), "assign");
    if (target != shape()) {
      detail::fail<BroadcastError>("assign", "source shape ", to_string(src.shape()),
                                   " does not broadcast to the view's shape ", to_string(shape()));
    }
    const Tensor source = src.buffer_.same_storage(buffer_) ? src.copy(policy) : src;
    copy_buffers(policy, buffer_, dims_, source.buffer_, source.dims_.broadcast(shape()));
    return *this;
  }

  /// Sets every element of this view to @p value.
  /// @param value the value
  /// @param policy seq or par
  /// @return this tensor
  /// @throws LayoutError for a broadcast view or a read-only buffer
  template <ExecutionPolicy P = Parallel>
  Tensor& fill(const T& value, const P& policy = P{}) {
    check_writable("fill");
    const Dimensions r = dims_.reduced();
    if (T* data = buffer_.data()) {
      parallel::for_each_part(policy, r.size(), [&](index_t begin, index_t end) {
        detail::walk_rows<1>({&r}, begin, end,
                             [&](const std::array<index_t, 1>& at,
                                 const std::array<index_t, 1>& stride, index_t count) {
                               T* out = data + at[0];
                               if (stride[0] == 1) {
                                 std::fill_n(out, count, value);
                               } else {
                                 for (index_t t = 0; t < count; ++t) {
                                   out[t * stride[0]] = value;
                                 }
                               }
                             });
      });
    } else {
      for_each_address(r, 0, r.size(), [&](index_t a) { buffer_.write(a, value); });
    }
    return *this;
  }

  /// The elements in row-major order.
  /// @return a vector of size()
  [[nodiscard]] std::vector<T> to_vector() const {
    std::vector<T> out;
    out.reserve(static_cast<std::size_t>(size()));
    if (const T* data = buffer_.data()) {
      for_each_address(dims_, 0, size(), [&](index_t a) { out.push_back(data[a]); });
    } else {
      for_each_address(dims_, 0, size(), [&](index_t a) { out.push_back(buffer_.read(a)); });
    }
    return out;
  }

  /// Equal shapes and equal elements.
  /// @param a, b tensors
  /// @return true when equal
  friend bool operator==(const Tensor& a, const Tensor& b) {
    return a.shape() == b.shape() && a.to_vector() == b.to_vector();
  }

 private:
  template <class U>
  friend class Tensor;

  [[nodiscard]] Tensor view(Dimensions dims) const {
    Tensor out = *this;
    out.dims_ = std::move(dims);
    return out;
  }

  [[nodiscard]] T read(index_t address) const {
    const T* data = buffer_.data();
    return data != nullptr ? data[address] : buffer_.read(address);
  }

  [[nodiscard]] index_t checked_address(IndexSpan index) const {
    if (std::cmp_not_equal(index.size(), rank())) {
      detail::fail<IndexError>("at", "index ", to_string(index), " has ", index.size(),
                               " entries for a tensor of rank ", rank(), " (shape ",
                               to_string(shape()), ")");
    }
    Index g(index);
    const Index extents = shape();
    for (std::size_t k = 0; k < g.size(); ++k) {
      if (g[k] < -extents[k] || g[k] >= extents[k]) {
        detail::fail<IndexError>("at", "index ", to_string(index), " is out of bounds on axis ", k,
                                 " (shape ", to_string(extents), ")");
      }
      g[k] = g[k] < 0 ? g[k] + extents[k] : g[k];
    }
    return dims_.global_to_local(g);
  }

  void check_writable(std::string_view operation) const {
    if (dims_.is_broadcast()) {
      detail::fail<LayoutError>(operation, "cannot write through a broadcast view ", dims_,
                                " (several indices share one address)");
    }
    if (!buffer_.writable()) {
      detail::fail<LayoutError>(operation, "the buffer is read-only (a generator?)");
    }
  }

  void check_fits(std::string_view operation) const {
    if (size() == 0) {
      return;
    }
    // The extreme addresses: per axis the smallest and largest contribution.
    index_t lo = dims_.offset();
    index_t hi = dims_.offset();
    for (const Axis& a : dims_.axes()) {
      const index_t vmin = a.indices ? a.indices->min() : 0;
      const index_t vmax = a.indices ? a.indices->max() : a.cycle - 1;
      lo += std::min(vmin * a.stride, vmax * a.stride);
      hi += std::max(vmin * a.stride, vmax * a.stride);
    }
    if (lo < 0 || hi >= buffer_.size()) {
      detail::fail<IndexError>(operation, "the map ", dims_, " reads addresses [", lo, ", ", hi,
                               "] outside the buffer of size ", buffer_.size());
    }
  }

  template <class List>
  static void shape_of(const List& list, Index& shape, std::size_t depth) {
    const auto n = static_cast<index_t>(list.size());
    if (shape.size() <= depth) {
      shape.push_back(n);
    } else if (shape[depth] != n) {
      detail::fail<ShapeError>("Tensor", "ragged nested list: depth ", depth, " has lengths ",
                               shape[depth], " and ", n);
    }
    if constexpr (!std::is_same_v<typename List::value_type, T>) {
      if (list.size() == 0 && shape.size() <= depth + 1) {
        shape.push_back(0);
      }
      for (const auto& inner : list) {
        shape_of(inner, shape, depth + 1);
      }
    }
  }

  template <class List>
  static void flatten(const List& list, std::vector<T>& out) {
    if constexpr (std::is_same_v<typename List::value_type, T>) {
      out.insert(out.end(), list.begin(), list.end());
    } else {
      for (const auto& inner : list) {
        flatten(inner, out);
      }
    }
  }

  template <class List>
  static Tensor nested(const List& list) {
    Index shape;
    shape_of(list, shape, 0);
    std::vector<T> values;
    flatten(list, values);
    return from_vector(std::move(values), shape);
  }

  Dimensions dims_;
  AnyBuffer<T> buffer_;
};

}  // namespace strata
