// Ready-made projections: fixed view, elementwise, matmul, axial reduce, convolution window.
#include "strata/projection/projections.hpp"

#include "strata/core/error.hpp"

namespace strata {

ZProjection fixed_view_projection(index_t index_rank, IndexSpan start, IndexSpan shape) {
  if (index_rank < 0) {
    detail::fail<ShapeError>("fixed_view_projection", "index rank ", index_rank, " is negative");
  }
  return {std::vector<Index>(static_cast<std::size_t>(index_rank), Index(start.size(), 0)), start,
          shape};
}

ZProjection elementwise_projection(index_t rank) {
  if (rank < 0) {
    detail::fail<ShapeError>("elementwise_projection", "rank ", rank, " is negative");
  }
  const auto r = static_cast<std::size_t>(rank);
  std::vector<Index> identity(r, Index(r, 0));
  for (std::size_t i = 0; i < r; ++i) {
    identity[i][i] = 1;
  }
  return {identity, Index(r, 0), Index(r, 1)};
}

MatmulProjections matmul_projections() {
  // Index space (i, j, k); each row is the step of one index coordinate.
  return {ZProjection({{1, 0}, {0, 0}, {0, 1}}, {0, 0}, {1, 1}),
          ZProjection({{0, 0}, {0, 1}, {1, 0}}, {0, 0}, {1, 1}),
          ZProjection({{1, 0}, {0, 1}, {0, 0}}, {0, 0}, {1, 1})};
}

ZProjection axial_reduce_projection(index_t tensor_rank, index_t axis, index_t extent) {
  if (axis < -tensor_rank || axis >= tensor_rank) {
    detail::fail<IndexError>("axial_reduce_projection", "axis ", axis, " does not exist (rank ",
                             tensor_rank, ")");
  }
  if (extent < 0) {
    detail::fail<ShapeError>("axial_reduce_projection", "extent ", extent, " is negative");
  }
  const auto m = static_cast<std::size_t>(tensor_rank);
  const auto a = static_cast<std::size_t>(axis < 0 ? axis + tensor_rank : axis);
  std::vector<Index> matrix(m - 1, Index(m, 0));
  for (std::size_t i = 0; i + 1 < m; ++i) {
    matrix[i][i < a ? i : i + 1] = 1;
  }
  Index shape(m, 1);
  shape[a] = extent;
  return {matrix, Index(m, 0), shape};
}

ZProjection conv_window_projection(IndexSpan kernel, IndexSpan stride, IndexSpan dilation,
                                   IndexSpan padding) {
  constexpr std::string_view op = "conv_window_projection";
  const std::size_t s = kernel.size();
  if (stride.size() != s || dilation.size() != s || padding.size() != s) {
    detail::fail<ShapeError>(op, "kernel ", to_string(kernel), ", stride ", to_string(stride),
                             ", dilation ", to_string(dilation), " and padding ",
                             to_string(padding), " must have one entry per spatial axis");
  }
  std::vector<Index> matrix(s, Index(s, 0));
  Index offset(s);
  Index shape(s);
  for (std::size_t k = 0; k < s; ++k) {
    if (kernel[k] < 1 || stride[k] < 1 || dilation[k] < 1 || padding[k] < 0) {
      detail::fail<ShapeError>(op, "axis ", k, ": kernel ", kernel[k], ", stride ", stride[k],
                               ", dilation ", dilation[k], ", padding ", padding[k],
                               " (kernel, stride and dilation must be >= 1, padding >= 0)");
    }
    matrix[k][k] = stride[k];
    offset[k] = -padding[k];
    // The window's extent, dilation * (kernel - 1) + 1, must fit in int64.
    index_t span = 0;
    if (__builtin_mul_overflow(dilation[k], kernel[k] - 1, &span) ||
        __builtin_add_overflow(span, index_t{1}, &shape[k])) {
      detail::fail<ShapeError>(
          op, "axis ", k, ": the window of kernel ", kernel[k], " with dilation ", dilation[k],
          " spans dilation * (kernel - 1) + 1 positions, more than int64 holds");
    }
  }
  return {matrix, offset, shape};
}

}  // namespace strata
