/// @file
/// ZProjection: an integer affine map from an operation's index space to regions of a tensor.
#pragma once

#include "strata/core/index.hpp"
#include "strata/projection/zrange.hpp"

#include <iosfwd>
#include <vector>

namespace strata {

/// Maps a point c of an index space to the tensor region `[P^T c + offset, ... + shape)`.
///
/// `matrix` has one row per index axis and one column per tensor axis: row i is the step in
/// tensor space when index coordinate i grows by one (marginal_strides()). Coefficients may be
/// negative (a block further along an index axis may map before the previous one). Being
/// linear, neighbouring index points map to coherent blocks, so a box of index space maps into the
/// bounding box of its corners' regions.
///
/// @code
/// // C[i, j] += A[i, k] * B[k, j] over index space (i, j, k): A's region of a point.
/// strata::ZProjection a({{1, 0}, {0, 0}, {0, 1}}, {0, 0}, {1, 1});
/// a.apply(strata::ZRange({0, 0, 0}, {4, 8, 16}));   // [0:4, 0:16]
/// @endcode
class ZProjection {
 public:
  /// Builds the projection.
  /// @param matrix one row per index axis, each with one entry per tensor axis
  /// @param offset the tensor-space offset of the region's start
  /// @param shape the region's extents (>= 0), one per tensor axis
  /// @throws ShapeError when a row, the offset and the shape differ in length, or an extent is
  ///         negative
  ZProjection(std::vector<Index> matrix, IndexSpan offset, IndexSpan shape);

  /// The number of index axes (rows).
  /// @return the index rank
  [[nodiscard]] int index_rank() const noexcept { return static_cast<int>(matrix_.size()); }
  /// The number of tensor axes (columns).
  /// @return the tensor rank
  [[nodiscard]] int tensor_rank() const noexcept { return static_cast<int>(offset_.size()); }
  /// The matrix, one row per index axis.
  /// @return the rows
  [[nodiscard]] const std::vector<Index>& matrix() const noexcept { return matrix_; }
  /// The offset.
  /// @return the offset
  [[nodiscard]] const Index& offset() const noexcept { return offset_; }
  /// The region shape.
  /// @return the shape
  [[nodiscard]] const Index& shape() const noexcept { return shape_; }

  /// The region of one index point.
  /// @param point an index point
  /// @return `[P^T point + offset, ... + shape)`
  /// @throws ShapeError when the point's rank is not index_rank()
  [[nodiscard]] ZRange apply(IndexSpan point) const;

  /// The exact bounding region of the regions of every point of an index box.
  ///
  /// Per tensor axis, each index axis contributes its smallest and largest step over the box
  /// (the two ends, whichever sign the coefficient has), so negative and mixed coefficients are
  /// bounded exactly. An empty index box, or a region shape with a zero extent, gives an empty
  /// region (at the first point's start, or at the offset when that start does not fit in
  /// int64).
  /// @param range an index box
  /// @return the bounding region
  /// @throws ShapeError when the box's rank is not index_rank(), or when a coordinate of the
  ///         region overflows int64
  [[nodiscard]] ZRange apply(const ZRange& range) const;

  /// apply() with @p batch leading coordinates passed through unchanged: the first `batch`
  /// coordinates of the point are tensor coordinates (extent 1 each), the rest go through the
  /// projection.
  /// @param point `batch + index_rank()` coordinates
  /// @param batch the number of leading batch coordinates
  /// @return a region of rank `batch + tensor_rank()`
  /// @throws ShapeError when the point's rank is not batch + index_rank()
  [[nodiscard]] ZRange broadcast_apply(IndexSpan point, index_t batch) const;
  /// apply(range) with @p batch leading coordinates passed through unchanged.
  /// @param range a box of `batch + index_rank()` coordinates
  /// @param batch the number of leading batch coordinates
  /// @return a region of rank `batch + tensor_rank()`
  /// @throws ShapeError when the box's rank is not batch + index_rank()
  [[nodiscard]] ZRange broadcast_apply(const ZRange& range, index_t batch) const;

  /// The same projection moved by @p delta in tensor space.
  /// @param delta one shift per tensor axis
  /// @return the moved projection
  /// @throws ShapeError when the length is not tensor_rank()
  [[nodiscard]] ZProjection translate(IndexSpan delta) const;

  /// The constant tensor-space step per index axis (the rows of the matrix).
  /// @return one step vector per index axis
  [[nodiscard]] const std::vector<Index>& marginal_strides() const noexcept { return matrix_; }

  /// The cells two neighbouring blocks share along one index axis.
  ///
  /// Block 0 spans [0, block) along @p axis and one point along every other index axis; block 1
  /// is the next [block, 2 * block). The overlap is the intersection of their regions; by
  /// linearity its shape is the same wherever the pair sits, so `overlap(...).size()` is the
  /// data a neighbouring shard re-reads. Fixed views overlap totally, elementwise maps not at
  /// all, convolution windows partly.
  /// @param axis the index axis; negative counts from the end
  /// @param block the block length along it, > 0
  /// @return the shared region for the blocks at the origin
  /// @throws IndexError for an axis that does not exist; ShapeError for block <= 0
  [[nodiscard]] ZRange overlap(index_t axis, index_t block) const;

  /// Equal matrices, offsets and shapes.
  /// @param a, b projections
  /// @return true when equal
  friend bool operator==(const ZProjection& a, const ZProjection& b) = default;

  /// Prints `{matrix [[1 0] [0 1]] offset [0 0] shape [1 1]}`.
  /// @param out the stream
  /// @param p the projection
  /// @return @p out
  friend std::ostream& operator<<(std::ostream& out, const ZProjection& p);

 private:
  std::vector<Index> matrix_;
  Index offset_;
  Index shape_;
};

/// A cost model of a block of index space (per-point and per-axis factors).
///
/// `estimate(range) = per_point * points + sum_i per_axis[i] * extent_i`: the first term scales
/// with the work (for example flops or intermediate bytes per index point), the second with the
/// block's length along each index axis (for example a halo or setup cost paid per row).
struct ZCost {
  double per_point = 1.0;        ///< cost of each index point
  std::vector<double> per_axis;  ///< cost per unit of block length along each index axis

  /// The estimated cost of a block.
  /// @param range an index box whose rank matches per_axis (or per_axis empty)
  /// @return the estimate; 0 for an empty box
  /// @throws ShapeError when per_axis is not empty and its length is not the box's rank
  [[nodiscard]] double estimate(const ZRange& range) const;
};

}  // namespace strata
