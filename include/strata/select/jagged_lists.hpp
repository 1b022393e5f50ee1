/// @file
/// Reductions of a tensor whose rows are lists of lists (awkward-array's `n * var * var`: events
/// of jets of constituents, documents of sentences of tokens) whose results are jagged
/// themselves: along each list (`ListAxis{-1}`, awkward's `axis=-1`: one value per list, row r
/// of the result as long as row r has lists), across the lists of each row (`ListAxis{-2}`,
/// awkward's `axis=-2`: element k of the result's row r combines element k of every list of row
/// r that has one, so the row is as long as its longest list), or across the rows
/// (`ListAxis{0}`, awkward's `axis=0`: a `var * var` result whose row i combines list i of
/// every row that has one, element by element, so element k of row i combines element k of
/// every such list that has one); deeper rows take every axis too (see ListAxis). Along -1 each is
/// the per-row `n * var` reduction of strata/expr/jagged.hpp applied to the lists themselves (a
/// view of the values, rows split between threads), so NaN, empty lists and identities behave as
/// there and a list's values combine in the order a row's do (one after another below 16, in 8
/// lanes from 16 on). Across lists or rows every reduction folds the lists into their output row as
/// they come, in list order (rows in parallel across lists; awkward's order, and the hand loop's
/// speed), with nothing copied: the lists make columns (column k of output row o holds element k of
/// every list that meets there), and the column reductions that reduce `n * var` along its outer
/// axis run over them (detail::ListColumns beside detail::OuterColumns): one pass for sum,
/// min, count and the others that take one value at a time, sums then counts for mean, NumPy's
/// two passes after the counts for var and std, a (value, owner) fold for argmin / argmax,
/// which give the number of the list in its row (-2) or the row (0).
///
/// @code
/// strata::JaggedTensor<int> events(std::vector<std::vector<std::vector<int>>>{
///     {{1, 2, 3}, {4}}, {}, {{5, 6}, {}, {7, 8, 9}}});
/// strata::sum(events, strata::ListAxis{-1});  // [[6, 4], [], [11, 0, 24]]
/// strata::sum(events, strata::ListAxis{-2});  // [[5, 2, 3], [], [12, 14, 9]]
/// strata::sum(events, strata::ListAxis{0});   // [[6, 8, 3], [4], [7, 8, 9]]: list i of each row
/// strata::sum(events, {1, 2});                // [10 0 35]: each row whole, a dense tensor
/// @endcode
#pragma once

#include "strata/core/error.hpp"
#include "strata/expr/jagged.hpp"
#include "strata/expr/jagged_reductions.hpp"
#include "strata/select/jagged_join.hpp"
#include "strata/tensor/jagged_tensor.hpp"

#include <algorithm>
#include <numeric>
#include <span>
#include <string_view>
#include <vector>

namespace strata {

/// An axis of a `n * var * var` tensor for a reduction whose result is jagged: `-1` (or 2)
/// along each list, `-2` (or 1) across the lists of each row, `0` (or -3) across the rows, as
/// awkward-array's `axis=-1`, `axis=-2` and `axis=0`. `strata::max(events,
/// strata::ListAxis{-1})`. (A reduction given the plain axes `{1, 2}` reduces each row whole,
/// to a dense tensor.) Deeper rows (`n * var * var * var` and on, one outer axis) take every
/// axis as awkward does, the result one level less deep: `-1` along each innermost list, `-2`
/// across the innermost lists of each list above them, and an axis higher up (`-3`, ..., `0`
/// across the rows) merges the entries of that level under each parent position by position
/// (value `[r, i, j, k]` of `sum(t, ListAxis{-3})` goes to `[r, j, k]`).
struct ListAxis {
  index_t axis;  ///< -1 or 2: along each list; -2 or 1: across the lists of a row; 0 or -3:
                 ///< across the rows (list i of every row, element by element)
};

namespace detail {

/// The columns that the lists of a `n * var * var` tensor make, as the column reductions of
/// strata/expr/jagged.hpp take them (OuterColumns is the other kind): across the lists of each
/// row (@p across_rows false) column (r, k) holds element k of every list of row r that has
/// one, owned by the list's number in its row; across the rows, column (i, k) holds element k
/// of list i of every row that has one, owned by the row. `columns(init, add)` starts each
/// column's accumulator at @p init and adds every value into it as the lists come, in list (or
/// row) order, as a hand loop over the offsets would: rows in parallel across lists, balanced
/// by their sizes; one pass in storage order across rows. Nothing is copied.
template <class T>
struct ListColumns {
  using value_type = T;                ///< the values folded
  const JaggedTensor<T>& t;            ///< the `n * var * var` tensor
  const ListIndex& index;              ///< its rows' numbers of lists and where each list starts
  const std::vector<index_t>& widths;  ///< the longest list of each output row
  bool across_rows;                    ///< across the rows (ListAxis{0}), or across lists

  /// The number of columns: the widths' sum.
  index_t size() const {
    index_t n = 0;
    for (const index_t w : widths) {
      n += w;
    }
    return n;
  }

  /// The accumulators of the columns, output row after output row: `add(acc, x, owner, k)`
  /// for every value x of column k.
  template <class Acc, class Add>
  Tensor<Acc> operator()(Acc init, Add add) const {
    const std::vector<index_t>& counts = index.counts;
    const std::span<const index_t> list_starts = index.lists.row_starts();
    const auto length = [list_starts](std::size_t j) {
      return list_starts[j + 1] - list_starts[j];
    };
    std::vector<index_t> column_of(widths.size() + 1, 0);  // each output row's first column
    for (std::size_t o = 0; o < widths.size(); ++o) {
      column_of[o + 1] = column_of[o] + widths[o];
    }
    auto out = Tensor<Acc>::for_overwrite(Index{column_of.back()});
    Acc* const o = out.data();
    const T* const x = t.data();
    if (across_rows) {
      std::fill_n(o, out.size(), init);
      std::size_t list = 0;
      index_t value = 0;
      for (std::size_t r = 0; r < counts.size(); ++r) {
        for (index_t j = 0; j < counts[r]; ++j, ++list) {
          const index_t first = column_of[static_cast<std::size_t>(j)];
          const T* const v = x + value;
          for (index_t k = 0; k < length(list); ++k) {
            add(o[first + k], v[k], static_cast<index_t>(r), first + k);
          }
          value += length(list);
        }
      }
      return out;
    }
    const std::vector<index_t>& first_list = index.first;  // each row's first list
    const std::span<const index_t> starts = t.offsets();
    parallel::for_each_weighted_part(par, starts, [&](index_t lo, index_t hi) {
      for (index_t r = lo; r < hi; ++r) {
        const auto u = static_cast<std::size_t>(r);
        const index_t first = column_of[u];
        std::fill(o + first, o + column_of[u + 1], init);
        const T* v = x + starts[u];
        for (auto j = static_cast<std::size_t>(first_list[u]);
             j < static_cast<std::size_t>(first_list[u + 1]); ++j) {
          const auto owner = static_cast<index_t>(j) - first_list[u];
          for (index_t k = 0; k < length(j); ++k) {
            add(o[first + k], v[k], owner, first + k);
          }
          v += length(j);
        }
      }
    });
    return out;
  }
};

/// The columns of a reduction across one level of rows of nested lists (`n * var * var * var`
/// and deeper, one outer axis): the entries of that level under one parent (every row, for the
/// rows' own level) merge position by position, as awkward's `axis` does, so value
/// `[.., i, j, k]` of entry i goes to output position `[.., j, k]`, owned by i. Each value's
/// column and owner are worked out once (merge_level(), O(values + entries)); the fold then runs
/// over the values in storage order, so a column takes its values in owner order, as awkward's
/// and the hand loop's. Nothing of the values is copied.
template <class T>
struct MergedColumns {
  using value_type = T;                ///< the values folded
  const T* values;                     ///< the tensor's values, storage order
  const std::vector<index_t>& column;  ///< each value's column
  const std::vector<index_t>& owner;   ///< each value's position along the merged level
  index_t n_columns;                   ///< the output's number of values

  /// The number of columns.
  index_t size() const { return n_columns; }
  /// The accumulators of the columns: `add(acc, x, owner, k)` for every value x of column k.
  template <class Acc, class Add>
  Tensor<Acc> operator()(Acc init, Add add) const {
    auto out = Tensor<Acc>::for_overwrite(Index{n_columns});
    Acc* const o = out.data();
    std::fill_n(o, n_columns, init);
    for (std::size_t v = 0; v < column.size(); ++v) {
      add(o[column[v]], values[v], owner[v], column[v]);
    }
    return out;
  }
};

/// Where the values of a tensor of rows of nested lists go when level @p level merges (0: the
/// rows themselves; level k: the entries at depth k of each row, merged under their parent):
/// the output's lengths level by level (its rows first) and each value's column and owner.
struct MergedLevel {
  std::vector<std::vector<index_t>> lengths;  ///< the output's nodes' lengths, rows first
  std::vector<index_t> column;                ///< each value's column
  std::vector<index_t> owner;                 ///< each value's position along the merged level
  index_t n_columns = 0;                      ///< the output's number of values
};

/// merge_level() of the levels @p offsets (level_offsets()): the entries of level @p level
/// under one parent form a group; a group's output node is as long as its longest member, and
/// its child j groups the j-th children of the members that have one, in member order (so the
/// output's nodes come level by level in storage order), down to the values.
inline MergedLevel merge_level(const std::vector<std::vector<index_t>>& offsets,
                               std::size_t level) {
  MergedLevel m;
  const std::vector<index_t>& top = offsets.front();
  const auto length = [&offsets](std::size_t l, index_t node) {
    const std::vector<index_t>& o = offsets[l];
    return o[static_cast<std::size_t>(node) + 1] - o[static_cast<std::size_t>(node)];
  };
  // The groups at the current level: members (node numbers, with owners), group g holding
  // members [first[g], first[g + 1]).
  std::vector<index_t> members;
  std::vector<index_t> owners;
  std::vector<index_t> first{0};
  const auto n_rows = static_cast<index_t>(top.size()) - 1;
  if (level == 0) {  // one group: every row, owned by its number
    members.resize(static_cast<std::size_t>(n_rows));
    std::iota(members.begin(), members.end(), index_t{0});
    owners = members;
    first.push_back(n_rows);
  } else {
    // The levels above keep their lengths; each node of level - 1 groups its children.
    for (std::size_t l = 0; l + 1 < level; ++l) {
      m.lengths.push_back(row_lengths(offsets[l]));
    }
    const std::vector<index_t>& parents = offsets[level - 1];
    first.assign(parents.begin(), parents.end());
    members.resize(static_cast<std::size_t>(parents.back()));
    std::iota(members.begin(), members.end(), index_t{0});
    owners.resize(members.size());
    for (std::size_t g = 0; g + 1 < first.size(); ++g) {
      for (index_t i = first[g]; i < first[g + 1]; ++i) {
        owners[static_cast<std::size_t>(i)] = i - first[g];
      }
    }
  }
  std::vector<index_t> count;
  for (std::size_t l = level; l < offsets.size(); ++l) {
    const std::vector<index_t>& o = offsets[l];
    const bool last = l + 1 == offsets.size();  // the children are the values
    std::vector<index_t>& widths = m.lengths.emplace_back(first.size() - 1, 0);
    if (last) {
      m.column.assign(static_cast<std::size_t>(o.back()), 0);
      m.owner.assign(m.column.size(), 0);
    }
    std::vector<index_t> next_members;
    std::vector<index_t> next_owners;
    std::vector<index_t> next_first{0};
    for (std::size_t g = 0; g + 1 < first.size(); ++g) {
      const auto lo = static_cast<std::size_t>(first[g]);
      const auto hi = static_cast<std::size_t>(first[g + 1]);
      index_t& width = widths[g];
      for (std::size_t i = lo; i < hi; ++i) {
        width = std::max(width, length(l, members[i]));
      }
      if (last) {
        for (std::size_t i = lo; i < hi; ++i) {
          const auto v0 = o[static_cast<std::size_t>(members[i])];
          for (index_t j = 0; j < length(l, members[i]); ++j) {
            m.column[static_cast<std::size_t>(v0 + j)] = m.n_columns + j;
            m.owner[static_cast<std::size_t>(v0 + j)] = owners[i];
          }
        }
        m.n_columns += width;
        continue;
      }
      // Child j of the group: the j-th child of every member that has one (counted, then
      // placed), so the children come in member order within each position.
      count.assign(static_cast<std::size_t>(width) + 1, 0);
      for (std::size_t i = lo; i < hi; ++i) {
        for (index_t j = 0; j < length(l, members[i]); ++j) {
          ++count[static_cast<std::size_t>(j) + 1];
        }
      }
      std::partial_sum(count.begin(), count.end(), count.begin());
      const auto base = static_cast<index_t>(next_members.size());
      next_members.resize(next_members.size() + static_cast<std::size_t>(count.back()));
      next_owners.resize(next_members.size());
      for (index_t j = 1; j <= width; ++j) {
        next_first.push_back(base + count[static_cast<std::size_t>(j)]);
      }
      for (std::size_t i = lo; i < hi; ++i) {
        const index_t c0 = o[static_cast<std::size_t>(members[i])];
        for (index_t j = 0; j < length(l, members[i]); ++j) {
          const auto at = static_cast<std::size_t>(base + count[static_cast<std::size_t>(j)]++);
          next_members[at] = c0 + j;
          next_owners[at] = owners[i];
        }
      }
    }
    members = std::move(next_members);
    owners = std::move(next_owners);
    first = std::move(next_first);
  }
  if (level == 0) {  // the root group's length is the number of output rows, not a level
    m.lengths.erase(m.lengths.begin());
  }
  return m;
}

/// A reduction that takes one value at a time into an accumulator, `add(acc, x)` from @p init
/// (sum, min, count ...), as the `across` of list_reduction: the columns fold it directly.
template <class R, class Add>
struct Fold {
  R init;   ///< the accumulator before any value
  Add add;  ///< `add(R& acc, const T& x)`

  /// The fold of every column.
  template <class C>
  Tensor<R> operator()(const C& columns) const {
    return columns(init,
                   [this](R& a, const auto& x, index_t /*owner*/, index_t /*k*/) { add(a, x); });
  }
};
/// `Fold{init, add}` without the template arguments (clang 14 deduces no aggregate's).
template <class R, class Add>
Fold(R, Add) -> Fold<R, Add>;

/// A reduction of a `n * var * var` tensor along a ListAxis: along the lists (-1) by the
/// `n * var` reduction `along(x)` of the tensor x whose rows are @p t's lists (a view); across
/// the lists of each row (-2) or across the rows (0) by `across(columns)`, a column reduction
/// of the ListColumns they make (whose owners, for argmin / argmax, are the lists' numbers in
/// their rows, or the rows).
template <class R, class T, class Along, class Across>
JaggedTensor<R> list_reduction(std::string_view operation, const JaggedTensor<T>& t, ListAxis axis,
                               Along along, Across across) {
  const Jagged& shape = t.shape();
  if (shape.rank() == 3 && (axis.axis < -3 || axis.axis > 2)) {
    fail<IndexError>(operation, "ListAxis{", axis.axis, "} does not exist (rank 3, shape ",
                     shape.to_string(), ")");
  }
  if (shape.outer_rank() == 1 && shape.inner_rank() >= 3) {
    // Deeper rows (n * var * var * var ...): an axis inside each list of the rows reduces the
    // lists made rows (flatten at axis 1, a view) and regroups the results by row.
    const index_t rank = shape.rank();
    const index_t a = axis.axis < 0 ? axis.axis : axis.axis - rank;
    if (a < -rank || a >= 0) {
      fail<IndexError>(operation, "ListAxis{", axis.axis, "} does not exist (rank ", rank,
                       ", shape ", shape.to_string(), ")");
    }
    const std::vector<std::vector<index_t>> levels = level_offsets(shape, operation);
    if (a >= -2) {
      return unflatten(list_reduction<R>(operation, flatten(t, 1), ListAxis{a}, along, across),
                       row_lengths(levels.front()));
    }
    // Across a level higher up: its entries merge position by position (the rows' own level
    // for a == -rank), the output one level less deep.
    const MergedLevel merged = merge_level(levels, static_cast<std::size_t>(a + rank));
    const Tensor<R> per_column =
        across(MergedColumns<T>{t.data(), merged.column, merged.owner, merged.n_columns});
    auto out = JaggedTensor<R>::for_overwrite(Jagged::from_lengths(merged.lengths.back()));
    std::copy_n(per_column.data(), per_column.size(), out.data());
    for (std::size_t l = merged.lengths.size() - 1; l-- > 0;) {
      out.rebind(unflatten(out, merged.lengths[l]));
    }
    return out;
  }
  if (shape.outer_rank() != 1 || shape.inner_rank() != 2) {
    fail<ShapeError>(operation, "ListAxis{", axis.axis,
                     "} takes a tensor of rows of lists (n * var * var), not ", shape.to_string());
  }
  const index_t a = axis.axis < 0 ? axis.axis + 3 : axis.axis;
  // The two-level offsets the tensor keeps (awkward's layout): counts, each row's number of
  // lists; list_starts, where each list starts among the values, and the end.
  const std::shared_ptr<const ListIndex> kept = t.list_index();
  const ListIndex& index = *kept;
  const std::vector<index_t>& counts = index.counts;
  const std::span<const index_t> list_starts = index.lists.row_starts();
  const auto length = [list_starts](std::size_t j) { return list_starts[j + 1] - list_starts[j]; };
  if (a == 2) {
    const Tensor<R> per_list = along(t.reshape(index.lists));  // a view whose rows are the lists
    auto out = JaggedTensor<R>::for_overwrite(Jagged::from_lengths(counts));
    std::copy_n(per_list.data(), per_list.size(), out.data());
    return out;
  }
  // Across the lists of each row (a == 1) or across the rows (a == 0): output row o (the row
  // for 1, the list's number in its row for 0) is as long as the longest list that meets there.
  const bool across_rows = a == 0;
  index_t most_lists = 0;
  for (const index_t n : counts) {
    most_lists = std::max(most_lists, n);
  }
  std::vector<index_t> widths(across_rows ? static_cast<std::size_t>(most_lists) : counts.size(),
                              0);
  std::size_t list = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    for (index_t j = 0; j < counts[r]; ++j, ++list) {
      index_t& w = widths[across_rows ? static_cast<std::size_t>(j) : r];
      w = std::max(w, length(list));
    }
  }
  const Tensor<R> per_column = across(ListColumns<T>{t, index, widths, across_rows});
  auto out = JaggedTensor<R>::for_overwrite(Jagged::from_lengths(widths));
  std::copy_n(per_column.data(), per_column.size(), out.data());
  return out;
}

}  // namespace detail

/// Sum of a `n * var * var` tensor along each list (`ListAxis{-1}`: 0 for an empty list),
/// across the lists of each row (`ListAxis{-2}`) or across the rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return the sums, a jagged tensor: `n * var` along -1 and -2, `var * var` along 0
/// @throws ShapeError when t is not `n * var * var` (one outer axis, rows of 1-D lists);
///         IndexError when the axis does not exist
template <class T>
JaggedTensor<T> sum(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>(
      "sum", t, axis, [&](const JaggedTensor<T>& rows) { return sum(rows, Index{1}); },
      detail::Fold{T{0}, [](T& a, const T& x) { a += x; }});
}
/// Product of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or across the
/// rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return the products, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<T> prod(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>(
      "prod", t, axis, [&](const JaggedTensor<T>& rows) { return prod(rows, Index{1}); },
      detail::Fold{T{1}, [](T& a, const T& x) { a *= x; }});
}
/// Mean (in double for integers) of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or across the
/// rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return the means, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<detail::jagged_mean_t<T>> mean(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<detail::jagged_mean_t<T>>(
      "mean", t, axis, [&](const JaggedTensor<T>& rows) { return mean(rows, Index{1}); },
      [](const auto& columns) {
        return detail::column_means<detail::jagged_mean_t<T>>(columns,
                                                              detail::column_counts(columns));
      });
}
/// Minimum (NaN propagates, +infinity where nothing is combined) inside the rows of a `n * var *
/// var` tensor, along each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or
/// across the rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return the minima, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<T> min(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>(
      "min", t, axis, [&](const JaggedTensor<T>& rows) { return min(rows, Index{1}); },
      detail::Fold{detail::extreme<T>(true),
                   [](T& a, const T& x) { a = detail::extreme_of(a, x, false); }});
}
/// Maximum (NaN propagates, -infinity where nothing is combined) inside the rows of a `n * var *
/// var` tensor, along each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or
/// across the rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return the maxima, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<T> max(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>(
      "max", t, axis, [&](const JaggedTensor<T>& rows) { return max(rows, Index{1}); },
      detail::Fold{detail::extreme<T>(false),
                   [](T& a, const T& x) { a = detail::extreme_of(a, x, true); }});
}
/// Position of the minimum (along -2: the list's number in its row; -1 where nothing is combined)
/// of a `n * var * var` tensor, along each list (`ListAxis{-1}`) or across the
/// lists of each row (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return int64 positions, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<index_t> argmin(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<index_t>(
      "argmin", t, axis, [&](const JaggedTensor<T>& rows) { return argmin(rows, Index{1}); },
      [](const auto& columns) { return detail::column_best(columns, std::less<>{}); });
}
/// Position of the maximum (along -2: the list's number in its row) inside the rows of a `n * var *
/// var` tensor, along each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or
/// across the rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return int64 positions, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<index_t> argmax(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<index_t>(
      "argmax", t, axis, [&](const JaggedTensor<T>& rows) { return argmax(rows, Index{1}); },
      [](const auto& columns) { return detail::column_best(columns, std::greater<>{}); });
}
/// Variance of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or across the
/// rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @param ddof delta degrees of freedom
/// @return the variances, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<detail::jagged_mean_t<T>> var(const JaggedTensor<T>& t, ListAxis axis,
                                           Ddof ddof = {}) {
  return detail::list_reduction<detail::jagged_mean_t<T>>(
      "var", t, axis, [&](const JaggedTensor<T>& rows) { return var(rows, Index{1}, ddof); },
      [&](const auto& columns) {
        return detail::column_variance<detail::jagged_mean_t<T>>(columns, ddof.value);
      });
}
/// Standard deviation of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or across the
/// rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @param ddof delta degrees of freedom
/// @return the standard deviations, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<detail::jagged_mean_t<T>> std(const JaggedTensor<T>& t, ListAxis axis,
                                           Ddof ddof = {}) {
  return detail::list_reduction<detail::jagged_mean_t<T>>(
      "std", t, axis, [&](const JaggedTensor<T>& rows) { return std(rows, Index{1}, ddof); },
      [&](const auto& columns) {
        auto out = detail::column_variance<detail::jagged_mean_t<T>>(columns, ddof.value);
        detail::square_root(out);
        return out;
      });
}
/// Peak to peak (max - min) of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or across the
/// rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return the ranges, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<T> ptp(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>(
      "ptp", t, axis, [&](const JaggedTensor<T>& rows) { return ptp(rows, Index{1}); },
      [](const auto& columns) { return detail::column_ptp(columns); });
}
/// Number of elements of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or across the
/// rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return int64 counts, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<index_t> count(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<index_t>(
      "count", t, axis, [&](const JaggedTensor<T>& rows) { return count(rows, Index{1}); },
      detail::Fold{index_t{0}, [](index_t& a, const T& /*x*/) { ++a; }});
}
/// The length of every list at one depth of a tensor of rows of lists (awkward's
/// `ak.num(array, axis)` for an axis >= 2): `num(t, ListAxis{-1})` of a `n * var * var` tensor
/// is every list's length, a `n * var` tensor; deeper rows give the lengths at any depth, shaped
/// as the levels above it (`n * var * var * var`: `ListAxis{2}` the number of lists in each list
/// of a row, `n * var`; `ListAxis{3}` every innermost list's length, `n * var * var`). (num()
/// with an int axis gives the counts along the outer axis and the first inner one, dense.)
/// @param t a tensor whose rows are lists of lists (one outer axis)
/// @param axis an axis from 2 (counted from 0 or, negative, from the end)
/// @return int64 lengths, a jagged tensor one level less deep than t
/// @throws ShapeError when t is not rows of lists (`n * var * var` or deeper, one outer axis) or
///         the axis is 0 or 1 (naming num(t, 0) and num(t, 1), which give those counts);
///         IndexError when the axis does not exist
template <class T>
JaggedTensor<index_t> num(const JaggedTensor<T>& t, ListAxis axis) {
  const Jagged& shape = t.shape();
  if (shape.outer_rank() != 1 || shape.inner_rank() < 2) {
    detail::fail<ShapeError>("num", "ListAxis{", axis.axis,
                             "} takes a tensor of rows of lists (n * var * var, or deeper), not ",
                             shape.to_string());
  }
  const index_t rank = shape.rank();
  const index_t a = axis.axis < 0 ? axis.axis + rank : axis.axis;
  if (a < 0 || a >= rank) {
    detail::fail<IndexError>("num", "ListAxis{", axis.axis, "} does not exist (rank ", rank,
                             ", shape ", shape.to_string(), ")");
  }
  if (a < 2) {
    detail::fail<ShapeError>("num", "ListAxis{", axis.axis, "}: the counts along axis ", a,
                             " are not jagged; num(t, 0) and num(t, 1) give them");
  }
  // The lengths of the nodes at depth a - 1, grouped by the levels above them.
  const std::vector<std::vector<index_t>> levels = detail::level_offsets(shape, "num");
  const auto depth = static_cast<std::size_t>(a - 1);
  const std::vector<index_t> values = detail::row_lengths(levels[depth]);
  auto out = JaggedTensor<index_t>::for_overwrite(
      Jagged::from_lengths(detail::row_lengths(levels[depth - 1])));
  std::copy(values.begin(), values.end(), out.data());
  for (std::size_t l = depth - 1; l-- > 0;) {
    out.rebind(unflatten(out, detail::row_lengths(levels[l])));
  }
  return out;
}
/// Number of non-zero elements of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or across the
/// rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return int64 counts, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<index_t> count_nonzero(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<index_t>(
      "count_nonzero", t, axis,
      [&](const JaggedTensor<T>& rows) { return count_nonzero(rows, Index{1}); },
      detail::Fold{index_t{0}, [](index_t& a, const T& x) { a += x != T{} ? 1 : 0; }});
}
/// Whether any element is non-zero of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or across the
/// rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return the answers, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<bool> any(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<bool>(
      "any", t, axis, [&](const JaggedTensor<T>& rows) { return any(rows, Index{1}); },
      detail::Fold{false, [](bool& a, const T& x) { a = a || x != T{}; }});
}
/// Whether every element is non-zero (`strata::all(jt, ListAxis{-1})`) inside the rows of a `n *
/// var * var` tensor, along each list (`ListAxis{-1}`) or across the lists of each row
/// (`ListAxis{-2}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return the answers, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<bool> all_of(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<bool>(
      "all", t, axis, [&](const JaggedTensor<T>& rows) { return all_of(rows, Index{1}); },
      detail::Fold{true, [](bool& a, const T& x) { a = a && x != T{}; }});
}
/// Sum of the values that are not NaN of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or across the
/// rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return the sums, a jagged tensor: `n * var` along -1 and -2, `var * var` along 0
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<T> nansum(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>(
      "nansum", t, axis, [&](const JaggedTensor<T>& rows) { return nansum(rows, Index{1}); },
      detail::Fold{T{0}, [](T& a, const T& x) { a += detail::is_nan(x) ? T{0} : x; }});
}
/// Product of the values that are not NaN of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or across the
/// rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return the products, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<T> nanprod(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>(
      "nanprod", t, axis, [&](const JaggedTensor<T>& rows) { return nanprod(rows, Index{1}); },
      detail::Fold{T{1}, [](T& a, const T& x) { a *= detail::is_nan(x) ? T{1} : x; }});
}
/// Mean of the values that are not NaN of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or across the
/// rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return the means, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<detail::jagged_mean_t<T>> nanmean(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<detail::jagged_mean_t<T>>(
      "nanmean", t, axis, [&](const JaggedTensor<T>& rows) { return nanmean(rows, Index{1}); },
      [](const auto& columns) {
        return detail::column_means<detail::jagged_mean_t<T>, true>(
            columns, detail::column_counts_skipping_nan(columns));
      });
}
/// Variance of the values that are not NaN of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or across the
/// rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @param ddof delta degrees of freedom
/// @return the variances, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<detail::jagged_mean_t<T>> nanvar(const JaggedTensor<T>& t, ListAxis axis,
                                              Ddof ddof = {}) {
  return detail::list_reduction<detail::jagged_mean_t<T>>(
      "nanvar", t, axis, [&](const JaggedTensor<T>& rows) { return nanvar(rows, Index{1}, ddof); },
      [&](const auto& columns) {
        return detail::column_variance<detail::jagged_mean_t<T>, true>(columns, ddof.value);
      });
}
/// Standard deviation of the values that are not NaN of a `n * var * var` tensor,
/// along each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or across the
/// rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @param ddof delta degrees of freedom
/// @return the standard deviations, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<detail::jagged_mean_t<T>> nanstd(const JaggedTensor<T>& t, ListAxis axis,
                                              Ddof ddof = {}) {
  return detail::list_reduction<detail::jagged_mean_t<T>>(
      "nanstd", t, axis, [&](const JaggedTensor<T>& rows) { return nanstd(rows, Index{1}, ddof); },
      [&](const auto& columns) {
        auto out = detail::column_variance<detail::jagged_mean_t<T>, true>(columns, ddof.value);
        detail::square_root(out);
        return out;
      });
}
/// Minimum of the values that are not NaN of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or across the
/// rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return the minima, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<T> nanmin(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>(
      "nanmin", t, axis, [&](const JaggedTensor<T>& rows) { return nanmin(rows, Index{1}); },
      detail::Fold{detail::extreme<T>(true), [](T& a, const T& x) {
                     a = detail::is_nan(x) ? a : detail::extreme_of(a, x, false);
                   }});
}
/// Maximum of the values that are not NaN of a `n * var * var` tensor, along
/// each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or across the
/// rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return the maxima, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<T> nanmax(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<T>(
      "nanmax", t, axis, [&](const JaggedTensor<T>& rows) { return nanmax(rows, Index{1}); },
      detail::Fold{detail::extreme<T>(false), [](T& a, const T& x) {
                     a = detail::is_nan(x) ? a : detail::extreme_of(a, x, true);
                   }});
}
/// Position of the minimum of the values that are not NaN inside the rows of a `n * var * var`
/// tensor, along each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or
/// across the rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return int64 positions, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<index_t> nanargmin(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<index_t>(
      "nanargmin", t, axis, [&](const JaggedTensor<T>& rows) { return nanargmin(rows, Index{1}); },
      [](const auto& columns) { return detail::column_best_skipping_nan(columns, std::less<>{}); });
}
/// Position of the maximum of the values that are not NaN inside the rows of a `n * var * var`
/// tensor, along each list (`ListAxis{-1}`), across the lists of each row (`ListAxis{-2}`) or
/// across the rows (`ListAxis{0}`).
/// @param t a tensor whose rows are lists of 1-D lists
/// @param axis the ListAxis
/// @return int64 positions, a jagged tensor (`var * var` along 0)
/// @throws ShapeError, IndexError as the ListAxis overload of sum()
template <class T>
JaggedTensor<index_t> nanargmax(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_reduction<index_t>(
      "nanargmax", t, axis, [&](const JaggedTensor<T>& rows) { return nanargmax(rows, Index{1}); },
      [](const auto& columns) {
        return detail::column_best_skipping_nan(columns, std::greater<>{});
      });
}

}  // namespace strata
