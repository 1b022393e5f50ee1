/// @file
/// Ready-made ZProjections for common operations: fixed views, elementwise maps, matmul,
/// axial reductions, convolution windows.
#pragma once

#include "strata/projection/zprojection.hpp"

namespace strata {

/// Every index point reads the same region (a weight, a bias): a zero matrix.
/// @param index_rank the number of index axes
/// @param start the region's first cell
/// @param shape the region's extents
/// @return the projection
/// @throws ShapeError when start and shape differ in length or an extent is negative
ZProjection fixed_view_projection(index_t index_rank, IndexSpan start, IndexSpan shape);

/// Index point c reads tensor cell c: the identity matrix, one-cell regions.
/// @param rank the rank of both spaces
/// @return the projection
ZProjection elementwise_projection(index_t rank);

/// The three projections of `C[i, j] += A[i, k] * B[k, j]` over the index space (i, j, k).
struct MatmulProjections {
  ZProjection lhs;     ///< A[i, k]
  ZProjection rhs;     ///< B[k, j]
  ZProjection result;  ///< C[i, j]
};

/// The projections of a matrix product over the index space (i, j, k).
/// @return lhs, rhs and result projections with one-cell regions
MatmulProjections matmul_projections();

/// A reduction along one axis: each output point (the tensor's other axes) reads a whole row
/// along @p axis.
/// @param tensor_rank the input's rank (the index space has one axis fewer)
/// @param axis the reduced axis; negative counts from the end
/// @param extent the input's extent along it
/// @return the projection
/// @throws IndexError when the axis does not exist; ShapeError for a negative extent
ZProjection axial_reduce_projection(index_t tensor_rank, index_t axis, index_t extent);

/// A convolution's input window per output position, over the spatial axes: output o reads
/// `[o * stride - padding, ... + dilation * (kernel - 1) + 1)` per axis (the dilated window's
/// bounding box; a dilated window skips cells inside it, a sparse but coherent block).
/// @param kernel the kernel extents, >= 1
/// @param stride the strides, >= 1
/// @param dilation the dilations, >= 1
/// @param padding the paddings before each axis, >= 0
/// @return the projection (index rank = tensor rank = number of spatial axes)
/// @throws ShapeError when the lists differ in length or a value is out of range
ZProjection conv_window_projection(IndexSpan kernel, IndexSpan stride, IndexSpan dilation,
                                   IndexSpan padding);

}  // namespace strata
