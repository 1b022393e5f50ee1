/// @file
/// Distributed jagged tensors: the rows of a JaggedTensor (its first outer mode) cut into
/// blocks owned by MPI ranks, each row's values kept together. Part of strata::mpi.
#pragma once

#include "strata/dist/tensor.hpp"
#include "strata/shape/jagged.hpp"
#include "strata/tensor/jagged_tensor.hpp"

#include <optional>
#include <utility>
#include <vector>

namespace strata::dist {

/// A jagged tensor whose rows live on the ranks of an MPI communicator: the first outer mode
/// (the rows) is cut by a rank-1 Tiling into row blocks, a Distribution gives each block an
/// owner, and each row's values stay together (rows of 0 to millions of values, as a
/// distributed ragged array of particles per cell or neighbours per atom).
///
/// One general mechanism underneath: the values, row after row, are a 1-D DistTensor (values())
/// tiled where the row blocks start, so one-sided transfers, synchronisation, collectives and
/// the fixed order of sums are those of DistTensor. `tile(t)` is an ordinary JaggedTensor over
/// a local block whose row numbers are the global ones (`first_row()` is the block's first
/// row), so for_each_row and for_each_indexed run on it unchanged; `get_rows(lo, hi)` reads rows
/// from wherever they live.
///
/// @code
/// using namespace strata::dist;
/// const strata::Jagged cells = strata::Jagged::from_lengths(particles_per_cell);
/// DistJaggedTensor<double> x(MPI_COMM_WORLD, cells, Tiling::regular(strata::Index{n_cells},
///                                                                   strata::Index{64}),
///                            Distribution::cyclic());
/// for (strata::index_t t : x.local_tiles()) {
///   x.tile(t).for_each_row(strata::par, [](strata::index_t cell, std::span<double> v) {
///     for (double& p : v) p = static_cast<double>(cell);       // global cell numbers
///   });
/// }
/// x.sync();
/// strata::JaggedTensor<double> some = x.get_rows(10, 20);     // any rows, any owner
/// @endcode
/// @tparam T as DistTensor
template <class T>
class DistJaggedTensor {
 public:
  /// The element type.
  using value_type = T;

  /// Creates a zero tensor over @p comm (collective).
  /// @param comm the communicator (duplicated)
  /// @param shape the jagged shape (one or more outer modes; the first is cut into blocks)
  /// @param rows a rank-1 tiling of the first outer mode's extent: the row blocks
  /// @param distribution who owns which block
  /// @throws ShapeError when @p rows is not a rank-1 tiling of the rows; CollectiveError when
  ///         ranks pass different arguments; the errors of Distribution::owners on every rank
  DistJaggedTensor(MPI_Comm comm, Jagged shape, Tiling rows, Distribution distribution)
      : shape_(std::move(shape)),
        rows_(std::move(rows)),
        distribution_(std::move(distribution)),
        values_(make_values(comm, shape_, rows_, distribution_, block_of_)) {}

  /// The jagged shape (all rows).
  /// @return the shape
  [[nodiscard]] const Jagged& shape() const noexcept { return shape_; }
  /// The row blocks.
  /// @return the rank-1 tiling of the first outer mode
  [[nodiscard]] const Tiling& row_tiling() const noexcept { return rows_; }
  /// The distribution of the row blocks.
  /// @return the distribution
  [[nodiscard]] const Distribution& distribution() const noexcept { return distribution_; }
  /// The values, row after row, as a 1-D distributed tensor tiled at the non-empty row blocks
  /// (a row block with no values has no tile there).
  /// @return the tensor
  [[nodiscard]] const DistTensor<T>& values() const noexcept { return values_; }
  /// The communicator (the values' own duplicate).
  /// @return the communicator
  [[nodiscard]] MPI_Comm comm() const noexcept { return values_.comm(); }
  /// This process's rank.
  /// @return the rank
  [[nodiscard]] int rank() const noexcept { return values_.rank(); }
  /// The number of ranks.
  /// @return the size of comm()
  [[nodiscard]] int n_ranks() const noexcept { return values_.n_ranks(); }
  /// The owner of a row block.
  /// @param t a block number
  /// @return its rank
  /// @throws IndexError for a block that does not exist
  [[nodiscard]] int owner(index_t t) const {
    if (t < 0 || t >= rows_.n_tiles()) {
      strata::detail::fail<IndexError>("DistJaggedTensor::owner", "row block ", t, " of ",
                                       rows_.n_tiles(), " blocks");
    }
    return owners_[static_cast<std::size_t>(t)];
  }
  /// The row blocks this rank owns, in increasing order (possibly none).
  /// @return the block numbers
  [[nodiscard]] const std::vector<index_t>& local_tiles() const noexcept { return local_; }

  /// A local row block as a JaggedTensor over the window, its rows numbered globally
  /// (`first_row()` is the block's first row; valid while this tensor lives).
  /// @param t a block this rank owns
  /// @return the rows
  /// @throws IndexError for a block owned by another rank
  [[nodiscard]] JaggedTensor<T> tile(index_t t) {
    if (owner(t) != rank()) {
      strata::detail::fail<IndexError>("DistJaggedTensor::tile", "row block ", t,
                                       " is owned by rank ", owner(t), ", not by rank ", rank());
    }
    const index_t lo = rows_.tile_lo(t)[0];
    const index_t hi = rows_.tile_hi(t)[0];
    const index_t block = block_of_[static_cast<std::size_t>(t)];
    T* data = block < 0 ? nullptr : values_.tile(block).data();
    return JaggedTensor<T>::wrap(data, rows_shape(lo, hi)).with_first_row(lo);
  }
  /// A local row block, read-only.
  /// @param t a block this rank owns
  /// @return the rows
  /// @throws IndexError for a block owned by another rank
  [[nodiscard]] const JaggedTensor<T> tile(index_t t) const {
    return const_cast<DistJaggedTensor*>(this)->tile(t);
  }

  /// Reads rows `[lo, hi)` of the first outer mode, wherever they live (one-sided).
  /// @param lo the first row
  /// @param hi one past the last
  /// @return a jagged tensor of those rows, numbered from @p lo (`first_row()`)
  /// @throws IndexError for rows outside the shape (nothing transferred)
  [[nodiscard]] JaggedTensor<T> get_rows(index_t lo, index_t hi) const {
    check_rows("DistJaggedTensor::get_rows", lo, hi);
    JaggedTensor<T> out(rows_shape(lo, hi));
    Tensor<T> into = out.values();
    values_.get(Index{value_start(lo)}, Index{value_start(hi)}, into);
    return out.with_first_row(lo);
  }
  /// Writes rows `[lo, lo + n)` from @p rows, a jagged tensor of the same row shapes (one-sided).
  /// @param lo the first row written
  /// @param rows the values (any jagged tensor or row slice of the same shapes)
  /// @throws IndexError for rows outside the shape; ShapeError for rows of other shapes
  ///         (nothing transferred)
  void put_rows(index_t lo, const JaggedTensor<T>& rows) {
    const index_t hi = check_shapes("DistJaggedTensor::put_rows", lo, rows);
    values_.put(Index{value_start(lo)}, Index{value_start(hi)}, rows.values());
  }
  /// Combines @p rows into rows `[lo, lo + n)` element by element (one-sided, atomic per
  /// element with other accumulates).
  /// @param lo the first row
  /// @param rows the values (of the same row shapes)
  /// @param op how to combine (sum by default)
  /// @throws IndexError for rows outside the shape; ShapeError for rows of other shapes;
  ///         TypeError for Op::min or Op::max on complex elements (nothing transferred)
  void accumulate_rows(index_t lo, const JaggedTensor<T>& rows, Op op = Op::sum) {
    detail::check_op<T>("DistJaggedTensor::accumulate_rows", op);
    const index_t hi = check_shapes("DistJaggedTensor::accumulate_rows", lo, rows);
    values_.accumulate(Index{value_start(lo)}, Index{value_start(hi)}, rows.values(), op);
  }

  /// Makes every completed transfer and local write visible everywhere (collective).
  void sync() { values_.sync(); }
  /// Sets every value this rank owns to @p value (local).
  /// @param value the value
  void fill_local(const T& value) { values_.fill_local(value); }
  /// The whole tensor on @p root (collective).
  /// @param root the rank that receives it
  /// @return the tensor on @p root, nothing elsewhere
  /// @throws IndexError for a root that does not exist; CollectiveError for different roots
  [[nodiscard]] std::optional<JaggedTensor<T>> gather(int root) const {
    std::optional<Tensor<T>> flat = values_.gather(root);
    if (!flat) {
      return std::nullopt;
    }
    return JaggedTensor<T>::from_values(flat->to_vector(), shape_);
  }
  /// Sets the whole tensor from @p whole, read on @p root only (collective).
  /// @param root the rank whose argument is read
  /// @param whole a jagged tensor of the same shape (ignored on other ranks)
  /// @throws ShapeError (on every rank) when @p whole on root has another shape;
  ///         CollectiveError for different roots
  void scatter(int root, const JaggedTensor<T>& whole) {
    std::optional<Tensor<T>> flat;
    detail::collectively(values_.comm(), "DistJaggedTensor::scatter", [&] {
      if (rank() == root && !whole.shape().same_as(shape_)) {
        strata::detail::fail<ShapeError>("DistJaggedTensor::scatter", "a tensor of shape ",
                                         whole.shape().to_string(), " for ", shape_.to_string());
      }
    });
    values_.scatter(root, rank() == root ? whole.values() : Tensor<T>(Index{0}));
  }
  /// The same values on other row blocks and owners (collective).
  /// @param rows the new row blocks (a rank-1 tiling of the rows)
  /// @param distribution the new owners
  /// @return the new tensor
  /// @throws ShapeError for a tiling of other rows; CollectiveError for different arguments
  [[nodiscard]] DistJaggedTensor redistribute(Tiling rows, Distribution distribution) const {
    DistJaggedTensor out(values_.comm(), shape_, std::move(rows), std::move(distribution));
    out.values_.assign(values_);
    return out;
  }
  /// The sum of all values, the same on every rank and for every number of ranks (each row
  /// block summed in order, the blocks added in block order; collective).
  /// @return the sum
  [[nodiscard]] T sum() const { return values_.sum(); }
  /// The sum of each row along the first outer mode (a reduction along the ragged modes: a
  /// dense tensor of the outer extents, on every rank; each row summed in order; collective).
  /// @return one sum per row (outer extents)
  [[nodiscard]] Tensor<T> row_sums() const {
    const Index outer(shape_.outer_extents().begin(), shape_.outer_extents().end());
    Tensor<T> out(outer);
    T* const dst = out.data();
    for (const index_t t : local_) {
      // for_each_row gives each row's absolute linear number (over every outer mode).
      tile(t).for_each_row(strata::par, [&](index_t r, std::span<const T> v) {
        T s{};
        for (const T& x : v) {
          s += x;
        }
        dst[r] = s;
      });
    }
    // Every row's sum is computed by its owner alone: adding the zeros of the others is exact.
    MPI_Allreduce(MPI_IN_PLACE, dst, static_cast<int>(out.size()), detail::mpi_type<T>(), MPI_SUM,
                  values_.comm());
    return out;
  }

 private:
  /// Rows per index of the first outer mode (the product of the other outer extents).
  [[nodiscard]] index_t step() const {
    index_t below = 1;
    const IndexSpan outer = shape_.outer_extents();
    for (std::size_t k = 1; k < outer.size(); ++k) {
      below *= outer[k];
    }
    return below;
  }
  /// The first value of row @p r of the first outer mode (r may be the extent: the end).
  [[nodiscard]] index_t value_start(index_t r) const {
    return shape_.row_starts()[static_cast<std::size_t>(r * step())];
  }
  /// The shape of rows [lo, hi) of the first outer mode.
  [[nodiscard]] Jagged rows_shape(index_t lo, index_t hi) const {
    const IndexSpan outer = shape_.outer_extents();
    Index from(outer.size(), 0);
    Index to(outer.begin(), outer.end());
    from[0] = lo;
    to[0] = hi;
    return shape_.slice(from, to).shape();
  }
  void check_rows(const char* operation, index_t lo, index_t hi) const {
    const index_t n = shape_.outer_extents()[0];
    if (lo < 0 || hi < lo || hi > n) {
      strata::detail::fail<IndexError>(operation, "rows [", lo, ", ", hi, ") are not inside [0, ",
                                       n, ") of ", shape_.to_string());
    }
  }
  index_t check_shapes(const char* operation, index_t lo, const JaggedTensor<T>& rows) const {
    const IndexSpan outer = rows.shape().outer_extents();
    const index_t hi = lo + (outer.empty() ? 0 : outer[0]);
    check_rows(operation, lo, hi);
    if (!rows.shape().same_as(rows_shape(lo, hi))) {
      strata::detail::fail<ShapeError>(operation, "rows of shape ", rows.shape().to_string(),
                                       " for rows [", lo, ", ", hi, ") of shape ",
                                       rows_shape(lo, hi).to_string());
    }
    return hi;
  }

  /// The values' tensor: a 1-D tiling cut where the non-empty row blocks start, each tile
  /// owned by its row block's owner. Also fills owners_, local_ and @p block_of.
  DistTensor<T> make_values(MPI_Comm comm, const Jagged& shape, const Tiling& rows,
                            const Distribution& distribution, std::vector<index_t>& block_of) {
    const IndexSpan outer = shape.outer_extents();
    if (rows.rank() != 1 || outer.empty() || rows.shape()[0] != outer[0]) {
      strata::detail::fail<ShapeError>("DistJaggedTensor", rows.to_string(),
                                       " is not a rank-1 tiling of the ", shape.to_string(),
                                       " rows");
    }
    int n_ranks = 1;
    int me = 0;
    MPI_Comm_size(comm, &n_ranks);
    MPI_Comm_rank(comm, &me);
    // Every rank computes the owners: a mismatch shows up in DistTensor's agreement below.
    owners_ = distribution.owners(rows, n_ranks);
    std::vector<index_t> cuts{0};
    std::vector<int> block_owner;
    for (index_t t = 0; t < rows.n_tiles(); ++t) {
      const index_t end = shape.row_starts()[static_cast<std::size_t>(rows.tile_hi(t)[0] * step())];
      if (std::cmp_equal(owners_[static_cast<std::size_t>(t)], me)) {
        local_.push_back(t);
      }
      if (end > cuts.back()) {
        block_of.push_back(static_cast<index_t>(block_owner.size()));
        block_owner.push_back(owners_[static_cast<std::size_t>(t)]);
        cuts.push_back(end);
      } else {
        block_of.push_back(-1);  // no values: no tile
      }
    }
    return DistTensor<T>(
        comm, Tiling({cuts}),
        Distribution::by(
            [block_owner](IndexSpan c) { return block_owner[static_cast<std::size_t>(c[0])]; },
            "the owners of the row blocks (" + distribution.to_string() + ")"));
  }

  Jagged shape_;
  Tiling rows_;
  Distribution distribution_;
  std::vector<int> owners_;        // per row block
  std::vector<index_t> local_;     // the row blocks this rank owns
  std::vector<index_t> block_of_;  // per row block: its tile of values_, or -1 (no values)
  DistTensor<T> values_;
};

}  // namespace strata::dist
