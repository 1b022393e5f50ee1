/// @file
/// Umbrella header: includes every public strata header.
#pragma once

#include "strata/buffer/any_buffer.hpp"
#include "strata/buffer/buffer.hpp"
#include "strata/buffer/dense_buffer.hpp"
#include "strata/buffer/generators.hpp"
#include "strata/buffer/sparse_buffer.hpp"
#include "strata/core/checked.hpp"
#include "strata/core/divisor.hpp"
#include "strata/core/error.hpp"
#include "strata/core/index.hpp"
#include "strata/core/indexed.hpp"
#include "strata/contract/contract.hpp"
#include "strata/draw/svg.hpp"
#include "strata/expr/expr.hpp"
#include "strata/layout/address_kernels.hpp"
#include "strata/layout/axis.hpp"
#include "strata/layout/dimensions.hpp"
#include "strata/layout/layout.hpp"
#include "strata/layout/odometer.hpp"
#include "strata/layout/reduce_jointly.hpp"
#include "strata/layout/selector.hpp"
#include "strata/layout/signature.hpp"
#include "strata/parallel/for_each.hpp"
#include "strata/parallel/policy.hpp"
#include "strata/projection/projections.hpp"
#include "strata/projection/region_view.hpp"
#include "strata/projection/zprojection.hpp"
#include "strata/projection/zrange.hpp"
#include "strata/select/concat.hpp"
#include "strata/select/jagged.hpp"
#include "strata/select/jagged_join.hpp"
#include "strata/select/jagged_lists.hpp"
#include "strata/select/missing.hpp"
#include "strata/select/pad.hpp"
#include "strata/select/repeat.hpp"
#include "strata/select/selection.hpp"
#include "strata/select/where.hpp"
#include "strata/shape/combine.hpp"
#include "strata/shape/index_range.hpp"
#include "strata/shape/jagged.hpp"
#include "strata/shape/nested.hpp"
#include "strata/shape/shape.hpp"
#include "strata/shape/shape_api.hpp"
#include "strata/shape/shape_fwd.hpp"
#include "strata/shape/shapes.hpp"
#include "strata/shape/smooth.hpp"
#include "strata/tensor/algorithms.hpp"
#include "strata/tensor/block_sparse.hpp"
#include "strata/tensor/copy_kernels.hpp"
#include "strata/tensor/for_each_indexed.hpp"
#include "strata/tensor/generators.hpp"
#include "strata/tensor/jagged_tensor.hpp"
#include "strata/tensor/layout_tensor.hpp"
#include "strata/tensor/list_array.hpp"
#include "strata/tensor/print.hpp"
#include "strata/tensor/sparse.hpp"
#include "strata/tensor/tensor.hpp"

/// strata: N-dimensional shapes, layouts and zero-copy views. Tensors over any storage
/// (strata::Tensor, strata::JaggedTensor, strata::LayoutTensor, sparse and generated buffers),
/// views without copies (strata::Dimensions), lazy expressions and NumPy's reductions
/// (strata/expr/), composite selections (strata::concat, strata::pad, ...), index projections,
/// parallel iteration with absolute or relative indices (strata::for_each_indexed), and
/// pictures (strata::draw). The free functions are listed on this page; the design pages
/// (@ref design_pages) explain the ideas.
namespace strata {}
