/// @file
/// Per-row indexing of jagged tensors, as awkward-array indexes ragged arrays: `take_each`
/// (awkward's `array[indices]` with a ragged or regular integer index, NumPy's
/// `take_along_axis` along the ragged axis: the argmax-then-index idiom) and `filter_each`
/// (awkward's `array[mask]` with a ragged boolean mask: each row keeps the elements its mask
/// marks, the ragged structure stays), rows chosen along the outer axis (`take_rows`,
/// `filter_rows`: awkward's `array[[2, 0]]` and `array[mask]` with a 1-D mask), each element's
/// index in its list (`local_index`) and the counts along an axis (`num`).
#pragma once

#include "strata/core/error.hpp"
#include "strata/expr/jagged.hpp"
#include "strata/parallel/policy.hpp"
#include "strata/tensor/jagged_tensor.hpp"

#include <algorithm>
#include <concepts>
#include <initializer_list>
#include <numeric>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

namespace detail {

/// Checks that @p t has 1-D rows (a `n * var` tensor, or several outer modes over 1-D rows).
template <class T>
void check_flat_rows_of(std::string_view operation, const JaggedTensor<T>& t,
                        std::string_view what) {
  if (!t.shape().smooth_rows() || t.shape().inner_rank() != 1) {
    fail<ShapeError>(operation, what, " ", t.shape().to_string(),
                     " does not have 1-D rows (it indexes each row of a n * var tensor)");
  }
}

/// Gathers the rows of a new tensor of @p lengths over @p t's outer modes: `pick(r, out, n)`
/// writes row r's n values, in parallel over rows balanced by their sizes (an exception
/// thrown by the first row that fails in row order reaches the caller).
template <class T, class Pick>
JaggedTensor<T> gather_rows(const JaggedTensor<T>& t, const Index& lengths, Pick pick) {
  auto out =
      JaggedTensor<T>::for_overwrite(Jagged::from_extents(t.shape().outer_extents(), 1, lengths));
  T* const o = out.data();
  const std::span<const index_t> starts = out.offsets();
  parallel::for_each_weighted_part(par, starts, [&](index_t lo, index_t hi) {
    for (index_t r = lo; r < hi; ++r) {
      const auto u = static_cast<std::size_t>(r);
      pick(r, o + starts[u], starts[u + 1] - starts[u]);
    }
  });
  return out;
}

/// Row r's element @p index (negative from the end), or an IndexError naming the row (its
/// absolute number) and the index.
template <class T, std::integral I>
const T& element_of_row(std::string_view operation, const T* row, index_t length, I index,
                        index_t row_number) {
  const auto i = static_cast<index_t>(index);
  const index_t k = i < 0 ? i + length : i;
  if (!std::in_range<index_t>(index) || k < 0 || k >= length) {
    fail<IndexError>(operation, "index ", index, " is outside row ", row_number, " of length ",
                     length);
  }
  return row[k];
}

}  // namespace detail

/// Picks elements of each row by a ragged index (awkward's `array[indices]`; NumPy's
/// `take_along_axis` along the ragged axis): row r of the result holds `t[r][indices[r][j]]`
/// for each j, negative indices counting from the row's end.
///
/// @code
/// JaggedTensor t(vector<vector<double>>{{0, 1.1, 2.2}, {}, {3.3, 4.4}});
/// take_each(t, JaggedTensor(vector<vector<int>>{{2, 0}, {}, {-1, -1, 0}}));
/// // [[2.2, 0], [], [4.4, 4.4, 3.3]]
/// @endcode
/// @param t a tensor with 1-D rows
/// @param indices a tensor of integers with 1-D rows over the same outer modes (any lengths)
/// @return a new tensor with the rows of @p indices' lengths
/// @throws ShapeError when either has rows that are not 1-D or their outer extents differ
///         (naming both shapes); IndexError naming the row and the index when an index is
///         outside its row (nothing is returned)
template <class T, std::integral I>
JaggedTensor<T> take_each(const JaggedTensor<T>& t, const JaggedTensor<I>& indices) {
  detail::check_flat_rows_of("take_each", t, "a tensor");
  detail::check_flat_rows_of("take_each", indices, "an index");
  if (!std::ranges::equal(t.shape().outer_extents(), indices.shape().outer_extents())) {
    detail::fail<ShapeError>("take_each", "an index of shape ", indices.shape().to_string(),
                             " for a tensor of shape ", t.shape().to_string(),
                             ": the outer extents differ");
  }
  const std::span<const index_t> from = t.offsets();
  const std::span<const index_t> picks = indices.offsets();
  Index lengths(picks.size() - 1, 0);
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    lengths[r] = picks[r + 1] - picks[r];
  }
  const T* const in = t.data();
  const I* const at = indices.data();
  return detail::gather_rows(t, lengths, [&](index_t r, T* out, index_t n) {
    const auto u = static_cast<std::size_t>(r);
    const T* const row = in + from[u];
    const index_t length = from[u + 1] - from[u];
    for (index_t j = 0; j < n; ++j) {
      out[j] =
          detail::element_of_row("take_each", row, length, at[picks[u] + j], t.first_row() + r);
    }
  });
}

/// Picks the same number of elements from each row by a dense index whose leading extents are
/// the outer extents (`[n, k]` for `n * var`: row r of the result is `t[r][indices(r, j)]`);
/// `take_each(t, argmax(t, 1, true))` is each row's maximum as a one-element row.
/// @param t a tensor with 1-D rows
/// @param indices integers of shape `outer extents + [k]`
/// @return a new tensor whose rows all have k elements
/// @throws ShapeError when the rows are not 1-D or the index has another shape; IndexError
///         naming the row and the index when an index is outside its row (an empty row has
///         none: awkward gives None there, strata has no missing values yet)
template <class T, std::integral I>
JaggedTensor<T> take_each(const JaggedTensor<T>& t, const Tensor<I>& indices) {
  detail::check_flat_rows_of("take_each", t, "a tensor");
  const IndexSpan outer = t.shape().outer_extents();
  const Index shape = indices.shape();
  if (shape.size() != outer.size() + 1 ||
      !std::ranges::equal(outer, IndexSpan(shape).first(outer.size()))) {
    detail::fail<ShapeError>("take_each", "an index of shape ", to_string(shape),
                             " for a tensor of shape ", t.shape().to_string(),
                             ": it must be the outer extents and one more");
  }
  const Tensor<const I> dense =
      indices.is_contiguous() ? Tensor<const I>(indices) : Tensor<const I>(indices.copy());
  const index_t k = shape.back();
  const std::span<const index_t> from = t.offsets();
  const T* const in = t.data();
  const I* const at = dense.data();
  return detail::gather_rows(t, Index(from.size() - 1, k), [&](index_t r, T* out, index_t n) {
    const auto u = static_cast<std::size_t>(r);
    for (index_t j = 0; j < n; ++j) {
      out[j] = detail::element_of_row("take_each", in + from[u], from[u + 1] - from[u],
                                      at[r * k + j], t.first_row() + r);
    }
  });
}

/// Keeps, in each row, the elements a ragged boolean mask of the same structure marks
/// (awkward's `array[mask]`): the rows keep their order and may become empty.
///
/// @code
/// filter_each(t, t > 3.0)   // [[0, 1.1, 2.2], [], [3.3, 4.4]] -> [[], [], [3.3, 4.4]]
/// @endcode
/// @param t a tensor with 1-D rows
/// @param mask booleans of t's jagged shape
/// @return a new tensor over the same outer modes
/// @throws ShapeError when the rows are not 1-D or the mask has another structure (naming
///         the first row whose length differs)
template <class T>
JaggedTensor<T> filter_each(const JaggedTensor<T>& t, const JaggedTensor<bool>& mask) {
  detail::check_flat_rows_of("filter_each", t, "a tensor");
  const std::span<const index_t> from = t.offsets();
  const std::span<const index_t> marks = mask.offsets();
  if (!std::ranges::equal(t.shape().outer_extents(), mask.shape().outer_extents()) ||
      mask.shape().rank() != t.shape().rank()) {
    detail::fail<ShapeError>("filter_each", "a mask of shape ", mask.shape().to_string(),
                             " for a tensor of shape ", t.shape().to_string());
  }
  const bool* const keep = mask.data();
  Index lengths(from.size() - 1, 0);
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    if (marks[r + 1] - marks[r] != from[r + 1] - from[r]) {
      detail::fail<ShapeError>("filter_each", "row ", t.first_row() + static_cast<index_t>(r),
                               " has ", from[r + 1] - from[r], " elements and its mask ",
                               marks[r + 1] - marks[r]);
    }
    for (index_t k = marks[r]; k < marks[r + 1]; ++k) {
      lengths[r] += keep[k] ? 1 : 0;
    }
  }
  const T* const in = t.data();
  return detail::gather_rows(t, lengths, [&](index_t r, T* out, index_t /*n*/) {
    const auto u = static_cast<std::size_t>(r);
    const index_t length = from[u + 1] - from[u];
    const T* const row = in + from[u];
    const bool* const row_keep = keep + marks[u];
    index_t j = 0;
    for (index_t k = 0; k < length; ++k) {
      if (row_keep[k]) {
        out[j++] = row[k];
      }
    }
  });
}

/// filter_each() with a mask given as a jagged expression (`filter_each(t, t > 3.0)`),
/// evaluated first.
/// @param t a tensor with 1-D rows
/// @param mask a jagged expression of booleans of t's jagged shape
/// @return a new tensor over the same outer modes
/// @throws ShapeError as the JaggedTensor overload
template <class T, JaggedExpression M>
JaggedTensor<T> filter_each(const JaggedTensor<T>& t, const M& mask) {
  return filter_each(t, evaluate_jagged<bool>(mask));
}

namespace detail {

/// Consecutive rows [first, first + count) of a source tensor.
template <class T>
struct RowBlock {
  const JaggedTensor<T>* source;  ///< the tensor
  index_t first;                  ///< its first row (linear, from 0)
  index_t count;                  ///< the number of rows
};

/// A new tensor whose rows are the blocks' rows in order, over the outer extents @p outer:
/// the row shapes are copied (an extents table when every source has smooth rows), then the
/// values, one contiguous range per block.
template <class T>
JaggedTensor<T> gather_row_blocks(const std::vector<RowBlock<T>>& blocks, const Index& outer,
                                  int inner_rank) {
  bool smooth = true;
  index_t rows = 0;
  for (const RowBlock<T>& b : blocks) {
    smooth = smooth && b.source->shape().smooth_rows();
    rows += b.count;
  }
  Jagged picked;
  if (smooth || rows == 0) {  // (no rows: their rank is all there is to keep)
    Index extents;
    extents.reserve(static_cast<std::size_t>(rows * inner_rank));
    for (const RowBlock<T>& b : blocks) {
      for (index_t r = b.first; r < b.first + b.count; ++r) {
        const std::span<const index_t> e = b.source->piece_extents(r);
        extents.insert(extents.end(), e.begin(), e.end());
      }
    }
    picked = Jagged::from_extents(outer, inner_rank, extents);
  } else {
    std::vector<Shape> shapes;
    shapes.reserve(static_cast<std::size_t>(rows));
    for (const RowBlock<T>& b : blocks) {
      for (index_t r = b.first; r < b.first + b.count; ++r) {
        shapes.push_back(b.source->shape().row(r));
      }
    }
    picked = Jagged(outer, std::move(shapes));
  }
  auto out = JaggedTensor<T>::for_overwrite(std::move(picked));
  T* at = out.data();
  const JaggedTensor<T>* source = nullptr;  // the pointers of the last block's source
  std::span<const index_t> starts;
  const T* in = nullptr;
  for (const RowBlock<T>& b : blocks) {
    if (b.source != source) {
      source = b.source;
      starts = source->offsets();
      in = source->values().data();
    }
    at = std::copy(in + starts[static_cast<std::size_t>(b.first)],
                   in + starts[static_cast<std::size_t>(b.first + b.count)], at);
  }
  return out;
}

/// Calls `f(begin, count)` for every run along the last axis of every smooth piece (each row
/// of a `n * var` tensor, each list of a `n * var * var` one), begin counted in values(), in
/// parallel over pieces balanced by their sizes.
template <class T, class F>
void for_each_last_axis_run(const JaggedTensor<T>& t, F f) {
  const std::span<const index_t> starts = t.piece_offsets();
  parallel::for_each_weighted_part(par, starts, [&](index_t lo, index_t hi) {
    for (index_t p = lo; p < hi; ++p) {
      const index_t begin = starts[static_cast<std::size_t>(p)];
      const index_t size = starts[static_cast<std::size_t>(p) + 1] - begin;
      if (size == 0) {
        continue;
      }
      const index_t last = t.piece_extents(p).back();
      for (index_t k = 0; k < size; k += last) {
        f(begin + k, last);
      }
    }
  });
}

/// The number of rows under one index of the first outer mode (the product of the others).
inline index_t rows_per_outer_index(const Jagged& shape) {
  index_t below = 1;
  const IndexSpan outer = shape.outer_extents();
  for (std::size_t k = 1; k < outer.size(); ++k) {
    below *= outer[k];
  }
  return below;
}

}  // namespace detail

/// Rows chosen by an integer array along the first outer mode (awkward's `array[[2, 0, 0]]`,
/// NumPy's `take(a, indices, axis=0)`): the result's outer extents are the index's shape
/// followed by the other outer extents; negative indices count from the end. Any row shape
/// (1-D, smooth, jagged); the values are copied.
/// @code
/// JaggedTensor t(vector<vector<double>>{{0, 1.1, 2.2}, {}, {3.3, 4.4}});
/// take_rows(t, Tensor<int>::of({2, 0, -1}));  // [[3.3, 4.4], [0, 1.1, 2.2], [3.3, 4.4]]
/// @endcode
/// @param t a jagged tensor (rows numbered from 0 in it, also when it is a slice of rows)
/// @param indices integers of any shape
/// @return a new tensor
/// @throws IndexError naming the index and the extent when an index is outside the first
///         outer mode (nothing is returned)
template <class T, std::integral I>
JaggedTensor<T> take_rows(const JaggedTensor<T>& t, const Tensor<I>& indices) {
  const IndexSpan outer = t.shape().outer_extents();
  const index_t n = outer[0];
  const index_t below = detail::rows_per_outer_index(t.shape());
  const Tensor<I> index = indices.copy(seq);
  const I* const at = index.data();
  std::vector<detail::RowBlock<T>> blocks(static_cast<std::size_t>(index.size()));
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const I i = at[k];
    const index_t j = std::in_range<index_t>(i) ? static_cast<index_t>(i) : n;
    const index_t row = j < 0 ? j + n : j;
    if (!std::in_range<index_t>(i) || row < 0 || row >= n) {
      detail::fail<IndexError>("take_rows", "index ", i, " is outside the ", n, " rows of ",
                               t.shape().to_string());
    }
    blocks[k] = {&t, row * below, below};
  }
  Index result_outer = index.shape();
  result_outer.insert(result_outer.end(), outer.begin() + 1, outer.end());
  return detail::gather_row_blocks(blocks, result_outer, t.shape().inner_rank());
}
/// take_rows() with the indices in braces or a std::vector: `take_rows(t, {2, 0})`.
/// @param t a jagged tensor
/// @param indices the row indices along the first outer mode
/// @return a new tensor
/// @throws IndexError as the Tensor overload
template <class T, std::integral I>
JaggedTensor<T> take_rows(const JaggedTensor<T>& t, const std::vector<I>& indices) {
  Tensor<I> index(Index{static_cast<index_t>(indices.size())});
  std::copy(indices.begin(), indices.end(), index.data());
  return take_rows(t, index);
}
/// take_rows() with the indices in braces.
/// @param t a jagged tensor
/// @param indices the row indices along the first outer mode
/// @return a new tensor
/// @throws IndexError as the Tensor overload
template <class T, std::integral I>
JaggedTensor<T> take_rows(const JaggedTensor<T>& t, std::initializer_list<I> indices) {
  return take_rows(t, std::vector<I>(indices));
}

/// The rows where a boolean array along the first outer mode is true (awkward's
/// `array[mask]` with a 1-D mask, NumPy's `compress(mask, a, axis=0)`), in order.
/// @param t a jagged tensor
/// @param mask one boolean per index of the first outer mode
/// @return a new tensor
/// @throws ShapeError naming both when the mask is not 1-D of the first outer extent
template <class T>
JaggedTensor<T> filter_rows(const JaggedTensor<T>& t, const Tensor<const bool>& mask) {
  const IndexSpan outer = t.shape().outer_extents();
  if (mask.rank() != 1 || mask.shape()[0] != outer[0]) {
    detail::fail<ShapeError>("filter_rows", "a mask of shape ", to_string(mask.shape()),
                             " for the rows of ", t.shape().to_string(), " (it needs shape [",
                             outer[0], "])");
  }
  const index_t below = detail::rows_per_outer_index(t.shape());
  std::vector<detail::RowBlock<T>> blocks;
  for (index_t i = 0; i < outer[0]; ++i) {
    if (mask(i)) {
      blocks.push_back({&t, i * below, below});
    }
  }
  Index result_outer(outer.begin(), outer.end());
  result_outer[0] = static_cast<index_t>(blocks.size());
  return detail::gather_row_blocks(blocks, result_outer, t.shape().inner_rank());
}

/// Each element's index inside its innermost list (awkward's `ak.local_index(array)`, axis
/// -1): `[[0, 1, 2], [], [0, 1]]` for a tensor with rows of lengths 3, 0, 2. For rows of higher
/// rank, the index along the last axis. The result has t's shape.
/// @param t a jagged tensor
/// @return an int64 tensor of t's shape
template <class T>
JaggedTensor<index_t> local_index(const JaggedTensor<T>& t) {
  auto out = JaggedTensor<index_t>::for_overwrite(t.shape());
  index_t* const o = out.data();
  detail::for_each_last_axis_run(out, [o](index_t begin, index_t count) {
    std::iota(o + begin, o + begin + count, index_t{0});
  });
  return out;
}

/// The number of elements along an axis (awkward's `ak.num(array, axis)`): along an outer
/// axis k, its extent for each index of the outer axes before it (a tensor of shape
/// `outer[0:k]`: rank 0 for axis 0); along the first inner axis, each row's extent there (a
/// tensor of the outer extents: the row lengths of a `n * var` tensor, lengths()). Negative
/// axes count from the end.
/// @param t a jagged tensor
/// @param axis an outer axis or the first inner axis
/// @return an int64 tensor
/// @throws IndexError for an axis beyond the rank; ShapeError for an axis inside the rows
///         below the first (its counts are themselves jagged: `num(t, ListAxis{-1})` of
///         strata/select/jagged_lists.hpp for rows of lists, num() of flatten(t, axis - 1))
template <class T>
Tensor<index_t> num(const JaggedTensor<T>& t, index_t axis) {
  const Jagged& shape = t.shape();
  const index_t rank = shape.rank();
  const index_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) {
    detail::fail<IndexError>("num", "axis ", axis, " is outside the ", rank, " axes of ",
                             shape.to_string());
  }
  const IndexSpan outer = shape.outer_extents();
  const auto o = static_cast<index_t>(outer.size());
  if (a < o) {
    Tensor<index_t> out(Index(outer.begin(), outer.begin() + a));
    out.fill(outer[static_cast<std::size_t>(a)]);
    return out;
  }
  if (a > o) {
    detail::fail<ShapeError>("num", "axis ", axis, " of ", shape.to_string(),
                             " is inside the rows below their first axis (its counts are jagged: "
                             "num(t, ListAxis{-1}) of rows of lists, or num of flatten(t, ",
                             a - 1, "))");
  }
  Tensor<index_t> out((Index(outer.begin(), outer.end())));
  index_t* const at = out.data();
  for (index_t r = 0; r < shape.n_rows(); ++r) {
    at[r] = shape.smooth_rows() ? t.piece_extents(r)[0] : shape.row(r).uniform_extent(0);
  }
  return out;
}

}  // namespace strata
