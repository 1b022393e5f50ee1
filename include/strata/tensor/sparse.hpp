/// Tensors over a SparseBuffer: construction, stored entries in tensor coordinates, conversion.
#pragma once

#include "strata/buffer/sparse_buffer.hpp"
#include "strata/core/checked.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

namespace strata {

/// A writable row-major tensor over a SparseBuffer: every element is @p fill until written.
/// @param shape the extents
/// @param fill the value of elements not stored
/// @return the tensor (views of it stay sparse)
/// @throws ShapeError for a negative extent or a size that overflows
template <class T>
Tensor<T> sparse(IndexSpan shape, T fill = T{}) {
  const index_t size = checked_size(shape, "sparse");
  return Tensor<T>(AnyBuffer<T>::shared(std::make_shared<SparseBuffer<T>>(size, fill)),
                   Dimensions(shape));
}

/// The stored entries of a sparse tensor (or view) as (global index, value) pairs, row-major.
///
/// Each stored address is mapped through Dimensions::local_to_global, so a view lists the
/// indices at which it reads stored entries (several under broadcasting, none when the view
/// skips the address). Cost: O(nnz * local_to_global) plus sorting the answer.
/// @param t a tensor over a SparseBuffer
/// @return the pairs in row-major order of the global index
/// @throws LayoutError when the tensor's buffer is not a SparseBuffer
template <class T>
std::vector<std::pair<Index, T>> nonzeros(const Tensor<T>& t) {
  const SparseBuffer<T>* s = t.buffer().template get<SparseBuffer<T>>();
  if (s == nullptr) {
    detail::fail<LayoutError>("nonzeros", "the tensor's buffer is not a SparseBuffer");
  }
  std::vector<std::pair<Index, T>> out;
  s->for_each_stored([&](index_t address, const T& value) {
    for (Index& g : t.dims().local_to_global(address)) {
      out.emplace_back(std::move(g), value);
    }
  });
  std::vector<std::size_t> order(out.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::sort(order.begin(), order.end(), [&out](std::size_t a, std::size_t b) {
    return std::lexicographical_compare(out[a].first.begin(), out[a].first.end(),
                                        out[b].first.begin(), out[b].first.end());
  });
  std::vector<std::pair<Index, T>> sorted;
  sorted.reserve(out.size());
  for (const std::size_t i : order) {
    sorted.push_back(out[i]);
  }
  return sorted;
}

/// A sparse row-major copy of any tensor: elements equal to @p fill are not stored.
/// @param t the tensor
/// @param fill the value left unstored
/// @return the sparse tensor
template <class T>
Tensor<T> to_sparse(const Tensor<T>& t, T fill = T{}) {
  auto buffer = std::make_shared<SparseBuffer<T>>(t.size(), fill);
  index_t address = 0;
  for (const T& v : t.to_vector()) {
    if (!(v == fill)) {
      buffer->write(address, v);
    }
    ++address;
  }
  return Tensor<T>(AnyBuffer<T>::shared(std::move(buffer)), Dimensions(t.shape()));
}

}  // namespace strata
