/// @file
/// Per-row indexing of jagged tensors, as awkward-array indexes ragged arrays: `take_each`
/// (awkward's `array[indices]` with a ragged or regular integer index, NumPy's
/// `take_along_axis` along the ragged axis: the argmax-then-index idiom) and `filter_each`
/// (awkward's `array[mask]` with a ragged boolean mask: each row keeps the elements its mask
/// marks, the ragged structure stays).
#pragma once

#include "strata/core/error.hpp"
#include "strata/expr/jagged.hpp"
#include "strata/parallel/policy.hpp"
#include "strata/tensor/jagged_tensor.hpp"

#include <concepts>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

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
  JaggedTensor<T> out(Jagged::from_extents(t.shape().outer_extents(), 1, lengths));
  T* const o = out.values().data();
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
  const T* const in = t.values().data();
  const I* const at = indices.values().data();
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
  const T* const in = t.values().data();
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
  const bool* const keep = mask.values().data();
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
  const T* const in = t.values().data();
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

}  // namespace strata
