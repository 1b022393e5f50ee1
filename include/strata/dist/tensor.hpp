/// @file
/// Distributed tiled tensors on MPI: tiles owned by ranks, one-sided get / put / accumulate of
/// any box or view (Region) of the global index space, collectives (gather, scatter,
/// redistribute, assign, sums and reductions along axes), ghost regions.
///
/// Part of the optional target strata::mpi (built when MPI is found); the only headers of
/// strata that include `<mpi.h>` live in this folder.
#pragma once

#include "strata/core/error.hpp"
#include "strata/dist/region.hpp"
#include "strata/dist/tiling.hpp"
#include "strata/projection/zprojection.hpp"
#include "strata/tensor/tensor.hpp"

#include <mpi.h>

#include <array>
#include <complex>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace strata::dist {

/// A collective operation whose ranks disagree: called with different arguments (compared by
/// digest) or failing on some ranks only. Thrown on every rank, so no rank is left waiting.
class CollectiveError : public Error {
 public:
  using Error::Error;
};

/// How accumulate() combines an incoming value `v` with the stored `x`.
enum class Op {
  sum,      ///< x + v
  product,  ///< x * v
  min,      ///< the smaller
  max,      ///< the larger
  replace,  ///< v (as put, but element-wise atomic with other accumulates)
};

/// Ghost (halo) widths around every tile: `lower[k]` cells before and `upper[k]` after the
/// tile along axis k, and what lies beyond the global shape.
struct Ghosts {
  Index lower;            ///< cells before each tile, per axis
  Index upper;            ///< cells after each tile, per axis
  bool periodic = false;  ///< beyond the shape: wrap around (true) or zeros (false)

  /// The ghosts a tile needs when it is read through @p reads: how far the region the
  /// projection gives for a block reaches beyond the block (a 3 x 3 convolution window with
  /// padding 1 gives 1 cell on every side).
  /// @param reads a projection from the tile's index space to the tensor it reads (index rank =
  ///        tensor rank)
  /// @param block a block's extents (any block: the widths of a linear projection do not
  ///        depend on where the block sits)
  /// @param periodic what lies beyond the shape
  /// @return the widths
  /// @throws ShapeError for a projection of other ranks or one whose region does not contain
  ///         the block
  static Ghosts of(const ZProjection& reads, IndexSpan block, bool periodic = false);
};

namespace detail {

/// The predefined MPI datatype of an element type.
template <class T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, float>) {
    return MPI_FLOAT;
  } else if constexpr (std::is_same_v<T, double>) {
    return MPI_DOUBLE;
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    return MPI_INT32_T;
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return MPI_INT64_T;
  } else if constexpr (std::is_same_v<T, std::uint32_t>) {
    return MPI_UINT32_T;
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    return MPI_UINT64_T;
  } else if constexpr (std::is_same_v<T, std::complex<float>>) {
    return MPI_CXX_FLOAT_COMPLEX;
  } else if constexpr (std::is_same_v<T, std::complex<double>>) {
    return MPI_CXX_DOUBLE_COMPLEX;
  } else {
    static_assert(sizeof(T) == 0,
                  "strata::dist: element types are float, double, (u)int32/64 and complex");
  }
}

/// The MPI operation of an Op.
MPI_Op mpi_op(Op op);

/// The cores a rank of @p comm may use for its own copies, at least 1: the cores of all the
/// ranks of @p comm on this node (the union of their affinity masks) divided among them, and
/// at most this process's own (a rank bound to one core gets 1; unbound ranks share the node).
/// Collective over @p comm (`MPI_Comm_split_type`, `MPI_Allreduce`).
/// @param comm the communicator
/// @return the cores per rank
int cores_per_rank(MPI_Comm comm);

/// An MPI derived datatype, freed with its owner.
class Datatype {
 public:
  /// The type of a strided block: `sizes[k]` elements along axis k, `strides[k]` elements
  /// apart (any sign), nested hvectors of @p base from the last axis out.
  Datatype(IndexSpan sizes, IndexSpan strides, MPI_Datatype base);
  Datatype(const Datatype&) = delete;
  Datatype& operator=(const Datatype&) = delete;
  Datatype(Datatype&& other) noexcept : type_(std::exchange(other.type_, MPI_DATATYPE_NULL)) {}
  Datatype& operator=(Datatype&& other) noexcept {
    std::swap(type_, other.type_);
    return *this;
  }
  ~Datatype();
  [[nodiscard]] MPI_Datatype get() const noexcept { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

/// One message of a ghost update: a part of a block, to or from another rank.
struct GhostMessage {
  int peer;        ///< the other rank
  index_t offset;  ///< the part's first element in this rank's window array
  Datatype type;   ///< the part's elements from there
};

/// A ghost part that a rank holds itself: copied from one of its tiles into its block around
/// another (periodic wrap-around, or neighbouring tiles of one owner).
template <class T>
struct GhostCopy {
  const T* from;       ///< the part's first element in the source tile
  Index from_strides;  ///< the source block's strides
  T* to;               ///< the part's first element in the receiving block
  Index to_strides;    ///< the receiving block's strides
  Index sizes;         ///< the part's extents (each >= 1)
};

/// A window for a DistTensor: from the cache of windows that tensors over all processes left
/// behind when one fits exactly (the same bytes on every rank, the same unit), else a new one,
/// locked with `MPI_Win_lock_all`: an MPI-3 shared-memory window
/// (`MPI_Win_allocate_shared`) when every rank of @p comm is on one node and the node's
/// /dev/shm has room for it, `MPI_Win_allocate` otherwise. Collective over @p comm. On a cache
/// hit, @p comm (the tensor's private duplicate) is freed and replaced by the one the window
/// was made over (congruent with it).
/// @param comm the tensor's communicator (may be replaced)
/// @param bytes the window's bytes on each rank (the same vector on every rank)
/// @param unit the displacement unit (sizeof(T))
/// @param window the window
/// @return this rank's part of the window
void* acquire_window(MPI_Comm& comm, const std::vector<MPI_Aint>& bytes, int unit, MPI_Win& window);
/// Where every rank's part of a shared-memory window sits in this process's address space
/// (`MPI_Win_shared_query`), so that gets and puts are plain copies.
/// @param window the window
/// @param n_ranks the number of ranks of its communicator
/// @return one address per rank, or nothing when the window is not a shared-memory one
std::vector<void*> shared_bases(MPI_Win window, int n_ranks);
/// Gives a window back (collective over @p comm, after a barrier: every rank is done with it):
/// kept in the cache with @p comm when @p comm spans all processes, freed with it otherwise.
/// @param comm the tensor's communicator (consumed)
/// @param bytes the window's bytes on each rank, as given to acquire_window
/// @param unit the displacement unit
/// @param window the window (consumed)
void release_window(MPI_Comm& comm, const std::vector<MPI_Aint>& bytes, int unit,
                    MPI_Win& window) noexcept;

/// Throws CollectiveError on every rank of @p comm unless all passed the same @p digest.
void agree(MPI_Comm comm, std::string_view operation, std::uint64_t digest);

/// The communicator on which the distributed tensors made over @p comm check their collective
/// calls: one duplicate of @p comm, cached on it as an MPI attribute (freed with @p comm), shared
/// by all of them. Each tensor moves data on a duplicate of its own, so a call on different
/// tensors on different ranks would wait forever there; on this shared one the check meets and
/// throws CollectiveError. Collective over @p comm the first time.
/// @param comm the user's communicator
/// @return the shared communicator (freed when @p comm is and its last tensor is gone)
std::shared_ptr<const MPI_Comm> checks_comm(MPI_Comm comm);

/// An identity for a new tensor, the same on every rank of @p checks (collective over it) and
/// different from every other tensor's this process has made: the largest of the ranks' counts.
/// @param checks the shared communicator (checks_comm)
/// @return the identity
std::uint64_t agree_on_identity(MPI_Comm checks);

/// Runs @p f on every rank; when it throws on some ranks, those rethrow their exception and
/// the others throw CollectiveError, so that a check that fails on one rank fails everywhere.
template <class F>
void collectively(MPI_Comm comm, std::string_view operation, F&& f);

/// Checks a box `[lo, hi)` against @p shape (IndexError naming @p operation).
void check_box(std::string_view operation, IndexSpan lo, IndexSpan hi, IndexSpan shape);

/// Mixes two digests.
[[nodiscard]] inline std::uint64_t mix(std::uint64_t a, std::uint64_t b) noexcept {
  return a ^ (b + 0x9E3779B97F4A7C15ULL + (a << 6U) + (a >> 2U));
}

}  // namespace detail

/// Frees the windows that destroyed distributed tensors left for reuse.
///
/// Making a window costs more than filling it (`MPI_Win_allocate` registers the memory), so
/// when a DistTensor over all processes (a communicator congruent with `MPI_COMM_WORLD`) is
/// destroyed, its window is kept, up to two of them, and the next tensor whose every rank
/// needs exactly the same bytes takes it (zeroed) instead of making one: a loop that makes
/// a tensor of the same layout each step (`b = a.redistribute(...)`) pays for one window.
/// `MPI_Finalize` frees what is kept; this frees it earlier, to give the memory back.
/// Collective over `MPI_COMM_WORLD` (every process calls it).
void release_cached_windows();

/// A tensor whose tiles live on the ranks of an MPI communicator.
///
/// The global index space `[0, shape)` is cut by a Tiling; a Distribution gives each tile an
/// owner; each rank stores its tiles, row-major, one after another in one array that MPI
/// allocates as the tensor's window (`MPI_Win_allocate_shared` when all ranks are on one node,
/// `MPI_Win_allocate` otherwise, or a window that a destroyed tensor of the same sizes left:
/// release_cached_windows). `tile(t)` is an ordinary strata::Tensor view of
/// a local tile whose absolute indices are the global ones (`origin()` is the tile's first global
/// index), so for_each_indexed, expressions and reductions work on it unchanged.
///
/// Any rank reads or writes any box of the global index space without the owners taking part
/// (Global Arrays' model): `get`, `put` and `accumulate` split the box by the tiles it
/// crosses and issue one MPI_Get / MPI_Put / MPI_Accumulate per tile, each described by
/// derived datatypes built from the strides of both sides (nothing is packed by hand). On a
/// shared-memory window (shares_memory()) a get or put of a tile's part is instead a copy by
/// strata's copy kernel between the caller's memory and the owner's, which MPI-3 allows for
/// such windows under the same synchronisation. A
/// Region (`region().select(...).transpose()`...) names any strided, flipped, transposed,
/// rolled or index-array view of the space; it moves as a few such strided boxes.
///
/// **Synchronisation** (MPI-3 passive target): the window is locked for the tensor's lifetime
/// (`MPI_Win_lock_all`); each get, put and accumulate is complete when it returns
/// (`MPI_Win_flush` on the owners), so a get returns the data and a put has reached the owner's
/// memory (on a shared-memory window: the copy has finished). What other ranks wrote becomes
/// visible to a rank's own loads and what it wrote locally (through tile()) becomes visible to
/// other ranks' gets after `sync()`, a collective (flush, `MPI_Win_sync`, barrier, `MPI_Win_sync`),
/// as `GA_Sync`. Between two syncs, puts from different ranks to the same element leave one of the
/// values; accumulates are element-wise atomic.
///
/// Construction, destruction, sync(), gather(), scatter(), redistribute(), assign(), the ghost
/// calls and the reductions are collective: every rank of the communicator calls them, in the
/// same order, on the same tensor, with the same arguments. The ranks check that they do: each
/// tensor has an identity agreed at construction, and a collective call compares a digest of
/// the tensor's identity and the arguments (a source tensor's identity too) on a communicator
/// that all tensors over one user communicator share, so that `(me == 0 ? b : a).sum()` or
/// `c.assign(me == 0 ? b : a)` throws CollectiveError on every rank instead of waiting forever.
/// Destroy distributed tensors before `MPI_Finalize`.
///
/// @code
/// using namespace strata::dist;
/// DistTensor<double> a(MPI_COMM_WORLD, Tiling::regular(strata::Index{1000, 1000},
///                                                      strata::Index{256, 256}),
///                      Distribution::block_cyclic(strata::Index{2, 2}));
/// for (strata::index_t t : a.local_tiles()) {
///   strata::for_each_indexed(strata::par, a.tile(t),
///                            [](strata::index_t i, strata::index_t j, double& x) { x = i - j; });
/// }
/// a.sync();
/// strata::Tensor<double> patch = a.get(strata::Index{250, 250}, strata::Index{262, 270});
/// @endcode
/// @tparam T float, double, (u)int32_t, (u)int64_t, std::complex<float> or std::complex<double>
template <class T>
class DistTensor {
 public:
  /// The element type.
  using value_type = T;

  /// Creates a zero tensor over @p comm (collective).
  /// @param comm the communicator (duplicated: the tensor's traffic never mixes with yours)
  /// @param tiling the tiles of the global index space
  /// @param distribution who owns which tile
  /// @throws CollectiveError when ranks pass different tilings or distributions; the errors of
  ///         Distribution::owners on every rank
  DistTensor(MPI_Comm comm, Tiling tiling, Distribution distribution);
  /// Creates a zero tensor whose local tiles have ghost regions from the start (collective): as
  /// a tensor followed by set_ghosts(), without the second window set_ghosts() makes.
  /// @param comm the communicator (duplicated)
  /// @param tiling the tiles of the global index space
  /// @param distribution who owns which tile
  /// @param ghosts the widths, as set_ghosts() takes them
  /// @throws ShapeError for widths set_ghosts() rejects; CollectiveError as the other
  ///         constructor, or for different widths on different ranks
  DistTensor(MPI_Comm comm, Tiling tiling, Distribution distribution, Ghosts ghosts);
  /// Frees the window and the duplicated communicator (collective).
  ~DistTensor();
  /// Not copyable: a tensor is one window (move it, or redistribute() for a copy).
  DistTensor(const DistTensor&) = delete;
  /// Not copyable (see the copy constructor).
  /// @return nothing: deleted
  DistTensor& operator=(const DistTensor&) = delete;
  /// Takes over @p other's tiles and window (@p other is left empty).
  /// @param other a tensor
  DistTensor(DistTensor&& other) noexcept;
  /// Frees this tensor's window (collective) and takes over @p other's.
  /// @param other a tensor
  /// @return this tensor
  DistTensor& operator=(DistTensor&& other) noexcept;

  /// The communicator the tensor lives on (its own duplicate).
  /// @return the communicator
  [[nodiscard]] MPI_Comm comm() const noexcept { return comm_; }
  /// This process's rank in comm().
  /// @return the rank
  [[nodiscard]] int rank() const noexcept { return rank_; }
  /// The number of ranks.
  /// @return the size of comm()
  [[nodiscard]] int n_ranks() const noexcept { return n_ranks_; }
  /// Whether the window is MPI-3 shared memory (every rank on one node, room in /dev/shm, and
  /// `STRATA_SHARED_WINDOWS` not `0` in rank 0's environment when it was made): gets and puts
  /// are then plain copies between this process's memory and the owners' (accumulates stay
  /// `MPI_Accumulate`, atomic per element); otherwise they are `MPI_Get` / `MPI_Put`. The
  /// results are the same either way.
  /// @return true when the ranks share the window's memory
  [[nodiscard]] bool shares_memory() const noexcept { return !peers_.empty(); }
  /// The tiling.
  /// @return the tiling
  [[nodiscard]] const Tiling& tiling() const noexcept { return tiling_; }
  /// The distribution.
  /// @return the distribution
  [[nodiscard]] const Distribution& distribution() const noexcept { return distribution_; }
  /// The global extents.
  /// @return one extent per axis
  [[nodiscard]] Index shape() const { return tiling_.shape(); }
  /// The owner of a tile.
  /// @param t a tile number
  /// @return its rank
  /// @throws IndexError for a tile that does not exist
  [[nodiscard]] int owner(index_t t) const;
  /// The tiles this rank owns, in increasing order (possibly none).
  /// @return the tile numbers
  [[nodiscard]] const std::vector<index_t>& local_tiles() const noexcept { return local_; }

  /// A local element by its global index, with no communication (Global Arrays'
  /// `NGA_Access` for one element): the loop over a tile written with the indices of the whole
  /// tensor. For whole tiles, `tile(t)` and its span are faster.
  /// @param index one global index per axis
  /// @return the element, in this rank's memory (valid as tile(t)'s elements are)
  /// @throws IndexError for an index outside the shape or one whose tile another rank owns
  ///         (naming that rank: get() reads it)
  [[nodiscard]] T& at_global(IndexSpan index);
  /// A local element by its global index (read-only).
  /// @param index one global index per axis
  /// @return the element
  /// @throws IndexError as the writable overload
  [[nodiscard]] const T& at_global(IndexSpan index) const;
  /// A local element by its global indices: `a.at_global(i, j)`.
  /// @param i one global index per axis
  /// @return the element
  /// @throws IndexError as at_global(IndexSpan)
  template <std::integral... I>
  [[nodiscard]] T& at_global(I... i) {
    const std::array<index_t, sizeof...(I)> index{static_cast<index_t>(i)...};
    return at_global(IndexSpan(std::span<const index_t>(index)));
  }
  /// A local element by its global indices (read-only).
  /// @param i one global index per axis
  /// @return the element
  /// @throws IndexError as at_global(IndexSpan)
  template <std::integral... I>
  [[nodiscard]] const T& at_global(I... i) const {
    const std::array<index_t, sizeof...(I)> index{static_cast<index_t>(i)...};
    return at_global(IndexSpan(std::span<const index_t>(index)));
  }

  /// A local tile as a Tensor view with global absolute indices (valid until set_ghosts() or
  /// the tensor's end; row-major, contiguous without ghosts, rows of the ghosted block with
  /// them: `data()` and `strides()` give it to any kernel).
  /// @param t a tile this rank owns
  /// @return the view
  /// @throws IndexError for a tile owned by another rank
  [[nodiscard]] Tensor<T> tile(index_t t);
  /// A local tile, read-only.
  /// @param t a tile this rank owns
  /// @return the view
  /// @throws IndexError for a tile owned by another rank
  [[nodiscard]] Tensor<const T> tile(index_t t) const;

  /// Reads the box `[lo, hi)` of the global index space, wherever its tiles live (one-sided).
  /// @param lo the first global index
  /// @param hi one past the last
  /// @return a dense row-major tensor of extents `hi - lo` with absolute indices from @p lo
  /// @throws IndexError for a box outside the shape (nothing transferred)
  [[nodiscard]] Tensor<T> get(IndexSpan lo, IndexSpan hi) const;
  /// Reads the box `[lo, hi)` into an existing tensor or view (one-sided, as GA's `NGA_Get`
  /// into the caller's buffer: no allocation; any strided view, a slice of a larger array or a
  /// transposed view included).
  /// @param lo the first global index
  /// @param hi one past the last
  /// @param into a writable tensor of extents `hi - lo` (written through: a view's parent sees
  ///        the values)
  /// @throws IndexError for a box outside the shape; ShapeError for @p into of other extents;
  ///         LayoutError for a view whose indices share addresses (nothing transferred)
  void get(IndexSpan lo, IndexSpan hi, Tensor<T> into) const;
  /// Writes @p values into the box `[lo, hi)` (one-sided; any strided view of values).
  /// @param lo the first global index
  /// @param hi one past the last
  /// @param values a tensor of extents `hi - lo`
  /// @throws IndexError for a box outside the shape; ShapeError for values of other extents
  ///         (nothing transferred)
  void put(IndexSpan lo, IndexSpan hi, const Tensor<const T>& values);
  /// Combines @p values into the box `[lo, hi)` element by element (one-sided, atomic per
  /// element with other accumulates).
  /// @param lo the first global index
  /// @param hi one past the last
  /// @param values a tensor of extents `hi - lo`
  /// @param op how to combine (sum by default)
  /// @throws IndexError for a box outside the shape; ShapeError for values of other extents;
  ///         TypeError for Op::min or Op::max on complex elements (nothing transferred)
  void accumulate(IndexSpan lo, IndexSpan hi, const Tensor<const T>& values, Op op = Op::sum);

  /// The whole global index space as a Region, to take views of: `a.region().select(...)
  /// .transpose()` names a transposed, strided, flipped, rolled or index-array region, which
  /// get, put and accumulate move as that view.
  /// @return Region(shape())
  [[nodiscard]] Region region() const { return Region(shape()); }
  /// Reads a region given as a view of the global index space (one-sided): element i of the
  /// result is the element at `region.global(i)`, as `a_whole.select(...).transpose()...`
  /// would be on one process. Each product of runs moves as a strided box per tile (MPI
  /// datatypes on both sides, no packing).
  /// @param region a view of the space shape()
  /// @return a dense row-major tensor of region.shape()
  /// @throws ShapeError for a region of another space (nothing transferred)
  [[nodiscard]] Tensor<T> get(const Region& region) const;
  /// Reads a region into an existing tensor or view of region.shape() (one-sided).
  /// @param region a view of the space shape()
  /// @param into a writable tensor of region.shape()
  /// @throws ShapeError for a region of another space or @p into of other extents;
  ///         LayoutError for a view whose indices share addresses (nothing transferred)
  void get(const Region& region, Tensor<T> into) const;
  /// Writes @p values through a region (one-sided): the element at `region.global(i)` becomes
  /// `values(i)` (an index array that repeats an index writes it in order, the last wins).
  /// @param region a view of the space shape()
  /// @param values a tensor of region.shape() (any view)
  /// @throws ShapeError for a region of another space or values of other extents (nothing
  ///         transferred)
  void put(const Region& region, const Tensor<const T>& values);
  /// Combines @p values into a region element by element (one-sided; an index repeated by an
  /// index array combines every value given for it, as `np.add.at`).
  /// @param region a view of the space shape()
  /// @param values a tensor of region.shape()
  /// @param op how to combine (sum by default)
  /// @throws ShapeError for a region of another space or values of other extents; TypeError
  ///         for Op::min or Op::max on complex elements (nothing transferred)
  void accumulate(const Region& region, const Tensor<const T>& values, Op op = Op::sum);

  /// Makes every completed transfer and local write visible everywhere (collective).
  void sync();
  /// Sets every element this rank owns to @p value (local; sync() before others read).
  /// @param value the value
  void fill_local(const T& value);

  /// The whole tensor on @p root (collective).
  /// @param root the rank that receives it
  /// @return the tensor on @p root, nothing elsewhere
  /// @throws IndexError for a root that does not exist; CollectiveError for different roots
  [[nodiscard]] std::optional<Tensor<T>> gather(int root) const;
  /// Sets the whole tensor from @p whole, read on @p root only (collective).
  /// @param root the rank whose argument is read
  /// @param whole a tensor of the global shape (ignored on other ranks)
  /// @throws ShapeError (on every rank) when @p whole on root has another shape;
  ///         CollectiveError for different roots
  void scatter(int root, const Tensor<const T>& whole);
  /// The same values on another tiling and distribution (collective): row blocks to column
  /// blocks is a distributed transpose of the data layout.
  /// @param tiling the new tiling (of the same shape)
  /// @param distribution the new owners
  /// @return the new tensor
  /// @throws ShapeError for a tiling of another shape; CollectiveError for different arguments
  [[nodiscard]] DistTensor redistribute(Tiling tiling, Distribution distribution) const;
  /// Copies the values of @p source, a tensor of the same shape on any tiling and distribution
  /// over the same ranks, into this one (collective; each rank gets its tiles straight from
  /// the owners of @p source: redistribute() into a tensor that already exists, as
  /// Global Arrays' GA_Copy).
  /// @param source the values
  /// @throws ShapeError for a source of another shape; CollectiveError for a source on another
  ///         group of ranks or different sources on different ranks (nothing written)
  void assign(const DistTensor& source);
  /// Gives every local tile a ghost region (collective: the same widths on every rank); the
  /// ghosts hold zeros until update_ghosts(). The tiles move, with their values, into a new
  /// window whose blocks hold each tile inside its ghosts (as Global Arrays stores them), so
  /// views from tile() taken before are no longer valid.
  /// @param ghosts the widths, each at most the smallest tile extent along its axis
  /// @throws ShapeError for widths of the wrong rank, negative, or wider than a tile;
  ///         CollectiveError for different widths on different ranks
  void set_ghosts(Ghosts ghosts);
  /// Fills every local tile's ghost region from the tiles around it (collective): the ghost
  /// cells only travel, in messages between neighbours straight from and into the window
  /// (derived datatypes, no packing, no barrier), as a hand-written halo exchange, on a
  /// shared-memory window too (copies by the receivers measured slower: they need two barriers,
  /// and one process does both sides of every strided part). Values
  /// written through tile() before the call are seen; call sync() first when other ranks have
  /// put() into this tensor.
  /// @throws LayoutError when set_ghosts() was not called
  void update_ghosts();
  /// A local tile with its ghost region, read-only, with global absolute indices (`origin()` is
  /// the tile's first index minus the lower widths: -1 for the first tile under width 1).
  /// @param t a tile this rank owns
  /// @return the view of the tile's block in the window (valid until the next set_ghosts() or
  ///         the tensor's end)
  /// @throws IndexError for a tile owned by another rank; LayoutError when set_ghosts() was not
  ///         called
  [[nodiscard]] Tensor<const T> ghosted(index_t t) const;
  /// The ghost widths (empty lists when none were set).
  /// @return the widths
  [[nodiscard]] const Ghosts& ghosts() const noexcept { return ghosts_; }

  /// The sum of all elements, the same on every rank and for every number of ranks: each
  /// tile is summed row-major, then the tiles' sums are added in tile order (collective: syncs
  /// first, so every completed put is counted).
  /// @return the sum
  [[nodiscard]] T sum() const;

  /// Sums along @p axes (`np.sum(a, axis=axes)`), the result on every rank (collective, as
  /// `MPI_Allreduce`; syncs first). Independent of the number of ranks and of the distribution:
  /// each tile
  /// is reduced on its own (strata::sum of the tile), then, for every output element, the tiles
  /// it spans along @p axes are combined in tile order, the same on every rank.
  /// @param axes the axes to reduce (negative counts from the end); empty reduces nothing
  /// @param keepdims keep reduced axes with extent 1, as NumPy's keepdims
  /// @return the sums, a dense row-major tensor (replicated)
  /// @throws IndexError for an axis that does not exist or one named twice (on
  ///         every rank); CollectiveError when ranks pass different axes
  [[nodiscard]] Tensor<T> sum(IndexSpan axes, bool keepdims = false) const;
  /// Products along @p axes (`np.prod`); the same order and guarantees as sum(axes).
  /// @param axes the axes to reduce
  /// @param keepdims keep reduced axes with extent 1
  /// @return the products (replicated)
  /// @throws IndexError, ShapeError, CollectiveError as sum(axes)
  [[nodiscard]] Tensor<T> prod(IndexSpan axes, bool keepdims = false) const;
  /// Minima along @p axes (`np.min`; an empty reduction gives the largest value of T).
  /// @param axes the axes to reduce
  /// @param keepdims keep reduced axes with extent 1
  /// @return the minima (replicated)
  /// @throws IndexError, ShapeError, CollectiveError as sum(axes)
  [[nodiscard]] Tensor<T> min(IndexSpan axes,
                              bool keepdims = false) const requires std::totally_ordered<T>;
  /// Maxima along @p axes (`np.max`; an empty reduction gives the lowest value of T).
  /// @param axes the axes to reduce
  /// @param keepdims keep reduced axes with extent 1
  /// @return the maxima (replicated)
  /// @throws IndexError, ShapeError, CollectiveError as sum(axes)
  [[nodiscard]] Tensor<T> max(IndexSpan axes,
                              bool keepdims = false) const requires std::totally_ordered<T>;

 private:
  template <class F>
  [[nodiscard]] Tensor<T> reduce_axes(const char* operation, Op op, IndexSpan axes, bool keepdims,
                                      T init, F combine) const;
  enum class Kind { get, put, accumulate };
  void transfer(Kind kind, IndexSpan lo, IndexSpan step, IndexSpan count, const Tensor<const T>* in,
                Tensor<T>* out, Op op) const;
  template <class V, class F>
  void for_each_piece(const Region& region, V side, F&& move) const;
  void check_region(const char* operation, const Region& region, const Index& side) const;
  void transfer(Kind kind, IndexSpan lo, IndexSpan hi, const Tensor<const T>* in, Tensor<T>* out,
                Op op) const;
  void release() noexcept;
  void allocate();  // the window for the current tiling, owners and ghosts (zeros)
  [[nodiscard]] Index block_extents(index_t t) const;  // a tile with its ghosts
  [[nodiscard]] index_t interior(
      index_t t) const;                      // the tile's first element in its owner's window
  [[nodiscard]] Tensor<T> block(index_t t);  // a local tile with its ghosts, global indices
  void plan_ghosts();                        // the messages and copies of update_ghosts()
  void get_into(IndexSpan lo, IndexSpan hi, Tensor<T>& out) const;
  [[nodiscard]] std::size_t local_position(std::string_view operation, index_t t) const;

  // Throws CollectiveError on every rank unless all called @p operation on this tensor with
  // the same @p digest (on checks_, shared by the tensors over one communicator).
  void check_call(std::string_view operation, std::uint64_t digest) const;
  // Checks ghost widths (collectively, then against the tiling): ShapeError naming operation.
  void check_ghosts(std::string_view operation, const Ghosts& ghosts) const;
  void sync(std::string_view operation);  // sync(), its check named after the caller

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::shared_ptr<const MPI_Comm> checks_;  // detail::checks_comm, shared with its other tensors
  std::uint64_t identity_ = 0;              // agreed at construction: which tensor a call is on
  int rank_ = 0;
  int n_ranks_ = 1;
  Tiling tiling_;
  Distribution distribution_;
  std::vector<int> owners_;            // per tile
  std::vector<index_t> displacement_;  // per tile: its block's first element in its owner's array
  std::vector<index_t> local_;         // the tiles this rank owns
  T* storage_ = nullptr;  // this rank's blocks (tiles with ghosts), one after another: the window
  index_t local_size_ = 0;
  std::vector<MPI_Aint> window_bytes_;  // every rank's window size (the window cache's key)
  MPI_Win window_ = MPI_WIN_NULL;
  std::vector<T*> peers_;  // every rank's storage_ when the window is shared memory, else empty
  // With peers_: where every rank's lock words start (one per tile it owns, kLockBytes apart,
  // after its blocks in its part of the window); lock_slot_[t] is tile t's among its owner's.
  std::vector<std::byte*> locks_;
  std::vector<index_t> lock_slot_;
  static constexpr index_t kLockBytes = 64;  // a cache line
  // The copies of gets, puts, accumulates and ghost updates on this rank: OpenMP threads up
  // to the rank's share of the node's cores (capped by OMP_NUM_THREADS), not one per core in
  // every rank (16 ranks on 16 cores would each start 16 threads).
  Parallel copies_;
  Ghosts ghosts_;
  // update_ghosts(): ghost parts from other ranks (received into this rank's blocks), parts of
  // this rank's tiles that other ranks need (sent from them), in one order on both sides (tile,
  // then part), so that one tag matches them; parts a rank holds itself are copied.
  std::vector<detail::GhostMessage> ghost_receives_;
  std::vector<detail::GhostMessage> ghost_sends_;
  std::vector<detail::GhostCopy<T>> ghost_copies_;  // parts this rank holds itself
};

}  // namespace strata::dist

#include "strata/dist/tensor_impl.hpp"
