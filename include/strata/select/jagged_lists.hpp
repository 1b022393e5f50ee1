/// @file
/// Reductions inside the rows of a tensor whose rows are lists of lists (awkward-array's
/// `n * var * var`: events of jets of constituents, documents of sentences of tokens), whose
/// results are jagged themselves: along each list (`ListAxis{-1}`, awkward's `axis=-1`: one
/// value per list, row r of the result as long as row r has lists) or across the lists of each
/// row (`ListAxis{-2}`, awkward's `axis=-2`: element k of the result's row r combines element k
/// of every list of row r that has one, so the row is as long as its longest list). Each is the
/// per-row `n * var` reduction of strata/expr/jagged.hpp (rows split between threads): along -1
/// applied to the lists themselves (a view of the values), along -2 to the columns of each row
/// (copied: column k of row r holds element k of every list of r that has one, in list order),
/// so NaN, empty lists and identities behave as there, values combine in the order a row's do
/// (one after another below 16, in 8 lanes from 16 on), and argmin / argmax along -2 give the
/// number of the list in its row.
///
/// @code
/// strata::JaggedTensor<int> events(std::vector<std::vector<std::vector<int>>>{
///     {{1, 2, 3}, {4}}, {}, {{5, 6}, {}, {7, 8, 9}}});
/// strata::sum(events, strata::ListAxis{-1});  // [[6, 4], [], [11, 0, 24]]
/// strata::sum(events, strata::ListAxis{-2});  // [[5, 2, 3], [], [12, 14, 9]]
/// strata::sum(events, {1, 2});                // [10 0 35]: each row whole, a dense tensor
/// @endcode
#pragma once

#include "strata/core/error.hpp"
#include "strata/expr/jagged.hpp"
#include "strata/expr/jagged_reductions.hpp"
#include "strata/select/jagged_join.hpp"
#include "strata/tensor/jagged_tensor.hpp"

#include <algorithm>
#include <span>
#include <string_view>
#include <vector>

namespace strata {

/// An axis inside the rows of a `n * var * var` tensor for a reduction whose result is jagged:
/// `-1` (or 2) along each list, `-2` (or 1) across the lists of each row, as awkward-array's
/// `axis=-1` and `axis=-2`. `strata::max(events, strata::ListAxis{-1})`. (A reduction given the
/// plain axes `{1, 2}` reduces each row whole, to a dense tensor.)
struct ListAxis {
  index_t axis;  ///< -1 or 2: along each list; -2 or 1: across the lists of a row
};

namespace detail {

/// A reduction inside the rows of a `n * var * var` tensor by the `n * var` reduction
/// `reduce(x)` of each row of a tensor x: along the lists (-1) x is the tensor whose rows are
/// @p t's lists (a view); across them (-2) x's rows are the columns of @p t's rows (a copy: row
/// r's column k holds element k of every list of row r that has one, in list order), and a
/// position the reduction gives (@p positions: argmin ...) becomes the list's number in its row.
template <class R, class T, class Reduce>
JaggedTensor<R> list_reduction(std::string_view operation, const JaggedTensor<T>& t, ListAxis axis,
                               bool positions, Reduce reduce) {
  const Jagged& shape = t.shape();
  if (shape.rank() == 3 && (axis.axis < -3 || axis.axis > 2)) {
    fail<IndexError>(operation, "ListAxis{", axis.axis, "} does not exist (rank 3, shape ",
                     shape.to_string(), ")");
  }
  if (shape.outer_rank() != 1 || shape.inner_rank() != 2) {
    fail<ShapeError>(operation, "ListAxis{", axis.axis,
                     "} takes a tensor of rows of lists (n * var * var), not ", shape.to_string());
  }
  const index_t a = axis.axis < 0 ? axis.axis + 3 : axis.axis;
  if (a == 0) {
    fail<ShapeError>(operation, "ListAxis{", axis.axis, "} is the outer axis of ",
                     shape.to_string(),
                     ", not an axis inside the rows (-1: along each list, -2: "
                     "across the lists of each row)");
  }
  // The lists from the tensor's smooth pieces: a jagged row's lists are pieces of rank 1, a row
  // whose lists have one length is one piece of rank 2.
  // counts: the number of lists of each row; lengths: every list's length, in storage order.
  std::vector<index_t> counts(static_cast<std::size_t>(shape.n_rows()), 0);
  std::vector<index_t> lengths;
  lengths.reserve(static_cast<std::size_t>(t.n_pieces()));
  for (index_t p = 0; p < t.n_pieces(); ++p) {
    const std::span<const index_t> e = t.piece_extents(p);
    const auto r = static_cast<std::size_t>(t.piece_row(p));
    if (e.size() == 1) {
      lengths.push_back(e[0]);
      ++counts[r];
    } else {
      lengths.insert(lengths.end(), static_cast<std::size_t>(e[0]), e[1]);
      counts[r] += e[0];
    }
  }
  if (a == 2) {
    const JaggedTensor<T> lists = t.reshape(Jagged::from_lengths(lengths));  // a view
    const Tensor<R> per_list = reduce(lists);
    auto out = JaggedTensor<R>::for_overwrite(Jagged::from_lengths(counts));
    std::copy_n(per_list.data(), per_list.size(), out.data());
    return out;
  }
  // Across the lists: each row's columns, their lengths first.
  std::vector<index_t> widths(counts.size(), 0);  // the longest list of each row
  std::vector<index_t> heights;                   // the number of lists reaching each column
  std::size_t first = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    const auto m = static_cast<std::size_t>(counts[r]);
    for (std::size_t j = first; j < first + m; ++j) {
      widths[r] = std::max(widths[r], lengths[j]);
    }
    const std::size_t base = heights.size();
    heights.resize(base + static_cast<std::size_t>(widths[r]), 0);
    for (std::size_t j = first; j < first + m; ++j) {
      for (index_t k = 0; k < lengths[j]; ++k) {
        ++heights[base + static_cast<std::size_t>(k)];
      }
    }
    first += m;
  }
  auto columns = JaggedTensor<T>::for_overwrite(Jagged::from_lengths(heights));
  std::vector<index_t> owners(positions ? static_cast<std::size_t>(columns.size()) : 0);
  const T* const x = t.data();
  T* const c = columns.data();
  const std::span<const index_t> column_starts = columns.offsets();
  std::vector<index_t> next;  // where each column of the row takes its next value
  std::size_t list = 0;
  std::size_t column = 0;
  index_t value = 0;  // the first value of the list
  for (std::size_t r = 0; r < counts.size(); ++r) {
    const auto w = static_cast<std::size_t>(widths[r]);
    next.assign(column_starts.begin() + static_cast<std::ptrdiff_t>(column),
                column_starts.begin() + static_cast<std::ptrdiff_t>(column + w));
    for (index_t j = 0; j < counts[r]; ++j, ++list) {
      for (index_t k = 0; k < lengths[list]; ++k) {
        const index_t at = next[static_cast<std::size_t>(k)]++;
        c[at] = x[value + k];
        if (positions) {
          owners[static_cast<std::size_t>(at)] = j;
        }
      }
      value += lengths[list];
    }
    column += w;
  }
  Tensor<R> per_column = reduce(columns);
  auto out = JaggedTensor<R>::for_overwrite(Jagged::from_lengths(widths));
  R* const o = out.data();
  for (index_t k = 0; k < per_column.size(); ++k) {
    const R v = per_column.data()[k];
    if constexpr (std::is_same_v<R, index_t>) {
      o[k] = positions && v >= 0
                 ? owners[static_cast<std::size_t>(column_starts[static_cast<std::size_t>(k)] + v)]
                 : v;
    } else {
      o[k] = v;
    }
  }
  return out;
}

}  // namespace detail

/// Sum inside the rows of a `n * var * var` tensor, along each list (`ListAxis{-1}`: 0 for an
/// empty list) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return the sums, a jagged tensor `n * var`
/// @throws ShapeError when t is not `n * var * var` (one outer axis, rows of 1-D lists) or the
///         axis is the outer one; IndexError when the axis does not exist
template <class T>
JaggedTensor<T> sum(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>(
      "sum", t, axis, false, [&](const JaggedTensor<T>& rows) { return sum(rows, Index{1}); });
}
/// Product inside the rows of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return the products, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<T> prod(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>(
      "prod", t, axis, false, [&](const JaggedTensor<T>& rows) { return prod(rows, Index{1}); });
}
/// Mean (in double for integers) inside the rows of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return the means, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<detail::jagged_mean_t<T>> mean(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<detail::jagged_mean_t<T>>(
      "mean", t, axis, false, [&](const JaggedTensor<T>& rows) { return mean(rows, Index{1}); });
}
/// Minimum (NaN propagates, +infinity where nothing is combined) inside the rows of a `n * var *
/// var` tensor, along each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return the minima, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<T> min(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>(
      "min", t, axis, false, [&](const JaggedTensor<T>& rows) { return min(rows, Index{1}); });
}
/// Maximum (NaN propagates, -infinity where nothing is combined) inside the rows of a `n * var *
/// var` tensor, along each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return the maxima, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<T> max(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>(
      "max", t, axis, false, [&](const JaggedTensor<T>& rows) { return max(rows, Index{1}); });
}
/// Position of the minimum (along -2: the list's number in its row; -1 where nothing is combined)
/// inside the rows of a `n * var * var` tensor, along each list (`ListAxis{-1}`) or across the
/// lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return int64 positions, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<index_t> argmin(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<index_t>(
      "argmin", t, axis, true, [&](const JaggedTensor<T>& rows) { return argmin(rows, Index{1}); });
}
/// Position of the maximum (along -2: the list's number in its row) inside the rows of a `n * var *
/// var` tensor, along each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return int64 positions, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<index_t> argmax(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<index_t>(
      "argmax", t, axis, true, [&](const JaggedTensor<T>& rows) { return argmax(rows, Index{1}); });
}
/// Variance inside the rows of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @param ddof delta degrees of freedom
/// @return the variances, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<detail::jagged_mean_t<T>> var(const JaggedTensor<T>& t, ListAxis axis,
                                           Ddof ddof = {}) {
  return detail::list_reduction<detail::jagged_mean_t<T>>(
      "var", t, axis, false,
      [&](const JaggedTensor<T>& rows) { return var(rows, Index{1}, ddof); });
}
/// Standard deviation inside the rows of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @param ddof delta degrees of freedom
/// @return the standard deviations, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<detail::jagged_mean_t<T>> std(const JaggedTensor<T>& t, ListAxis axis,
                                           Ddof ddof = {}) {
  return detail::list_reduction<detail::jagged_mean_t<T>>(
      "std", t, axis, false,
      [&](const JaggedTensor<T>& rows) { return std(rows, Index{1}, ddof); });
}
/// Peak to peak (max - min) inside the rows of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return the ranges, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<T> ptp(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>(
      "ptp", t, axis, false, [&](const JaggedTensor<T>& rows) { return ptp(rows, Index{1}); });
}
/// Number of elements inside the rows of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return int64 counts, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<index_t> count(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<index_t>(
      "count", t, axis, false, [&](const JaggedTensor<T>& rows) { return count(rows, Index{1}); });
}
/// Number of non-zero elements inside the rows of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return int64 counts, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<index_t> count_nonzero(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<index_t>(
      "count_nonzero", t, axis, false,
      [&](const JaggedTensor<T>& rows) { return count_nonzero(rows, Index{1}); });
}
/// Whether any element is non-zero inside the rows of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return the answers, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<bool> any(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<bool>(
      "any", t, axis, false, [&](const JaggedTensor<T>& rows) { return any(rows, Index{1}); });
}
/// Whether every element is non-zero (`strata::all(jt, ListAxis{-1})`) inside the rows of a `n *
/// var * var` tensor, along each list (`ListAxis{-1}`) or across the lists of each row
/// (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return the answers, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<bool> all_of(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<bool>(
      "all", t, axis, false, [&](const JaggedTensor<T>& rows) { return all_of(rows, Index{1}); });
}
/// Sum of the values that are not NaN inside the rows of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return the sums, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<T> nansum(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>("nansum", t, axis, false, [&](const JaggedTensor<T>& rows) {
    return nansum(rows, Index{1});
  });
}
/// Product of the values that are not NaN inside the rows of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return the products, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<T> nanprod(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>("nanprod", t, axis, false, [&](const JaggedTensor<T>& rows) {
    return nanprod(rows, Index{1});
  });
}
/// Mean of the values that are not NaN inside the rows of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return the means, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<detail::jagged_mean_t<T>> nanmean(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<detail::jagged_mean_t<T>>(
      "nanmean", t, axis, false,
      [&](const JaggedTensor<T>& rows) { return nanmean(rows, Index{1}); });
}
/// Variance of the values that are not NaN inside the rows of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @param ddof delta degrees of freedom
/// @return the variances, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<detail::jagged_mean_t<T>> nanvar(const JaggedTensor<T>& t, ListAxis axis,
                                              Ddof ddof = {}) {
  return detail::list_reduction<detail::jagged_mean_t<T>>(
      "nanvar", t, axis, false,
      [&](const JaggedTensor<T>& rows) { return nanvar(rows, Index{1}, ddof); });
}
/// Standard deviation of the values that are not NaN inside the rows of a `n * var * var` tensor,
/// along each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @param ddof delta degrees of freedom
/// @return the standard deviations, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<detail::jagged_mean_t<T>> nanstd(const JaggedTensor<T>& t, ListAxis axis,
                                              Ddof ddof = {}) {
  return detail::list_reduction<detail::jagged_mean_t<T>>(
      "nanstd", t, axis, false,
      [&](const JaggedTensor<T>& rows) { return nanstd(rows, Index{1}, ddof); });
}
/// Minimum of the values that are not NaN inside the rows of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return the minima, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<T> nanmin(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>("nanmin", t, axis, false, [&](const JaggedTensor<T>& rows) {
    return nanmin(rows, Index{1});
  });
}
/// Maximum of the values that are not NaN inside the rows of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return the maxima, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<T> nanmax(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>("nanmax", t, axis, false, [&](const JaggedTensor<T>& rows) {
    return nanmax(rows, Index{1});
  });
}
/// Position of the minimum of the values that are not NaN inside the rows of a `n * var * var`
/// tensor, along each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return int64 positions, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<index_t> nanargmin(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<index_t>(
      "nanargmin", t, axis, true,
      [&](const JaggedTensor<T>& rows) { return nanargmin(rows, Index{1}); });
}
/// Position of the maximum of the values that are not NaN inside the rows of a `n * var * var`
/// tensor, along each list (`ListAxis{-1}`) or across the lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the axis inside the rows
/// @return int64 positions, a jagged tensor `n * var`
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<index_t> nanargmax(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<index_t>(
      "nanargmax", t, axis, true,
      [&](const JaggedTensor<T>& rows) { return nanargmax(rows, Index{1}); });
}

}  // namespace strata
