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
#include "strata/tensor/list_array.hpp"

#include <algorithm>
#include <concepts>
#include <initializer_list>
#include <numeric>
#include <span>
#include <string>
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

/// Whether @p t's rows are 1-D (the per-row kernels' case: any outer modes).
template <class T>
bool flat_rows(const JaggedTensor<T>& t) {
  return t.shape().smooth_rows() && t.shape().inner_rank() == 1;
}

/// Where entry @p e of level @p l of @p lists (a packed JaggedTensor's lists) sits: `row r` at
/// level 0, `the list at [r, j, ...]` below (its path of positions, the row numbered from
/// @p first_row). Called on the error path only (it searches the levels above).
template <class T>
std::string entry_name(const ListArray<T>& lists, std::size_t l, index_t e, index_t first_row) {
  std::vector<index_t> path{e};
  for (std::size_t k = l; k-- > 0;) {  // the owner above: the first entry that stops after e
    const ListLevel& up = ListArrayAccess::level(lists, k);
    const index_t owner = std::upper_bound(up.stops, up.stops + up.n, path.front()) - up.stops;
    path.front() -= up.starts[owner];
    path.insert(path.begin(), owner);
  }
  path.front() += first_row;
  if (l == 0) {
    return "row " + std::to_string(path.front());
  }
  std::string out = "the list at [";
  for (std::size_t k = 0; k < path.size(); ++k) {
    out += (k == 0 ? "" : ", ") + std::to_string(path[k]);
  }
  return out + "]";
}

/// Checks that a jagged index or mask @p by can choose in @p t's rows of any rank: one outer
/// axis each, as many rows, rows no deeper than t's.
template <class T, class U>
void check_choice_of(std::string_view operation, std::string_view what, const JaggedTensor<T>& t,
                     const JaggedTensor<U>& by) {
  const Jagged& shape = t.shape();
  const Jagged& other = by.shape();
  if (shape.outer_rank() != 1 || other.outer_rank() != 1 ||
      other.inner_rank() > shape.inner_rank() || other.n_rows() != shape.n_rows()) {
    fail<ShapeError>(operation, what, " of shape ", other.to_string(), " for a tensor of shape ",
                     shape.to_string(),
                     ": rows of rank 2 or more take one outer axis, as many rows, and ", what,
                     " no deeper than the rows (depth 1 chooses lists, the rows' depth elements)");
  }
}

/// Checks that the lists of levels 0 to @p levels - 1 of @p by (an index or mask, packed) have
/// as many entries as @p lists' (ShapeError naming the first that differs).
template <class T, class U>
void check_same_levels(std::string_view operation, std::string_view what, const ListArray<T>& lists,
                       const ListArray<U>& by, std::size_t levels, index_t first_row) {
  for (std::size_t l = 0; l < levels; ++l) {
    const ListLevel& v = ListArrayAccess::level(lists, l);
    const ListLevel& w = ListArrayAccess::level(by, l);
    for (index_t e = 0; e < v.n; ++e) {
      const index_t have = v.stops[e] - v.starts[e];
      const index_t given = w.stops[e] - w.starts[e];
      if (have != given) {
        fail<ShapeError>(operation, entry_name(lists, l, e, first_row), " has ", have,
                         std::cmp_equal(l + 1, lists.depth()) ? " elements" : " lists", " and ",
                         what, " ", given, " there");
      }
    }
  }
}

/// take_each() and filter_each() of rows of rank >= 2: an index or mask @p by of depth d
/// (`n * var`: d = 1) chooses at list axis d of @p t, its lists above that depth (and at it,
/// for a mask: @p whole_lists) as long as t's. Entry e of t's level d - 1 gets the entries
/// `choose(first, length, given, chosen, name)` appends: its entries are first ... first +
/// length - 1 of the level below, `given` its part of @p by, name() its name for an error.
template <class T, class U, class Choose>
JaggedTensor<T> choose_deep(std::string_view operation, std::string_view what, std::string_view the,
                            const JaggedTensor<T>& t, const JaggedTensor<U>& by, bool whole_lists,
                            Choose choose) {
  check_choice_of(operation, what, t, by);
  const ListArray<T> lists(t);
  const ListArray<U> choices(by);
  const auto l = static_cast<std::size_t>(choices.depth() - 1);
  check_same_levels(operation, the, lists, choices, whole_lists ? l + 1 : l, t.first_row());
  const ListLevel& v = ListArrayAccess::level(lists, l);
  const ListLevel& w = ListArrayAccess::level(choices, l);
  const U* const given = choices.values().data();
  if (l == 0 && lists.depth() == 2) {
    // Lists of rows of lists: the chosen lists' values copied straight into the packed result
    // (the general path below makes a view first, then packs it).
    const ListLevel& in = ListArrayAccess::level(lists, 1);
    std::vector<index_t> chosen;
    std::vector<index_t> row_offsets(static_cast<std::size_t>(v.n) + 1, 0);
    for (index_t e = 0; e < v.n; ++e) {
      const auto count = static_cast<std::size_t>(w.stops[e] - w.starts[e]);
      choose(v.starts[e], v.stops[e] - v.starts[e], std::span<const U>(given + w.starts[e], count),
             chosen, [&] { return entry_name(lists, l, e, t.first_row()); });
      row_offsets[static_cast<std::size_t>(e) + 1] = static_cast<index_t>(chosen.size());
    }
    std::vector<index_t> list_offsets(chosen.size() + 1, 0);
    for (std::size_t k = 0; k < chosen.size(); ++k) {
      list_offsets[k + 1] = list_offsets[k] + (in.stops[chosen[k]] - in.starts[chosen[k]]);
    }
    auto out = JaggedTensor<T>::for_overwrite(
        Jagged::from_offsets(std::move(row_offsets), std::move(list_offsets)));
    const T* const values = t.data();
    T* o = out.data();
    for (std::size_t k = 0; k < chosen.size();) {  // runs of lists that follow each other: one copy
      const index_t start = in.starts[chosen[k]];
      index_t stop = in.stops[chosen[k]];
      for (++k; k < chosen.size() && in.starts[chosen[k]] == stop; ++k) {
        stop = in.stops[chosen[k]];
      }
      o = std::copy(values + start, values + stop, o);
    }
    return out;
  }
  return ListArrayAccess::regroup(lists, l,
                                  [&](index_t e, std::vector<index_t>& chosen) {
                                    const auto count =
                                        static_cast<std::size_t>(w.stops[e] - w.starts[e]);
                                    choose(v.starts[e], v.stops[e] - v.starts[e],
                                           std::span<const U>(given + w.starts[e], count), chosen,
                                           [&] { return entry_name(lists, l, e, t.first_row()); });
                                  })
      .to_jagged();
}

/// Whether @p t and @p by are both rows of lists (`n * var * var`, one outer axis) with the same
/// number of lists in every row: then an operation on the values of each list runs as the 1-D
/// row kernel over the lists (every list a row, a view of each) and its result is regrouped
/// by t's counts.
template <class T, class U>
bool same_rows_of_lists(const JaggedTensor<T>& t, const JaggedTensor<U>& by) {
  const Jagged& a = t.shape();
  const Jagged& b = by.shape();
  if (a.outer_rank() != 1 || b.outer_rank() != 1 || a.inner_rank() != 2 || b.inner_rank() != 2 ||
      a.n_rows() != b.n_rows()) {
    return false;
  }
  return t.list_index()->counts == by.list_index()->counts;
}

/// @p per_list (one 1-D row per list of @p t) regrouped into t's rows of lists, sharing its
/// values.
template <class T, class U>
JaggedTensor<T> regrouped_lists(const JaggedTensor<T>& per_list, const JaggedTensor<U>& t) {
  const std::span<const index_t> starts = per_list.offsets();
  Index lengths(starts.size() - 1, 0);
  for (std::size_t j = 0; j < lengths.size(); ++j) {
    lengths[j] = starts[j + 1] - starts[j];
  }
  return per_list.reshape(rows_of_lists(t.list_index()->counts, lengths));
}

/// take_each() of rows of rank >= 2: an index of depth d picks entries at list axis d (the
/// lists of each row for d = 1, inside each list for d = 2, ...), the levels above it alike.
template <class T, std::integral I>
JaggedTensor<T> take_each_deep(const JaggedTensor<T>& t, const JaggedTensor<I>& indices) {
  return choose_deep("take_each", "an index", "the index", t, indices, false,
                     [](index_t first, index_t length, std::span<const I> picks,
                        std::vector<index_t>& chosen, const auto& name) {
                       for (const I p : picks) {
                         const auto k = static_cast<index_t>(p);
                         const index_t i = k < 0 ? k + length : k;
                         if (!std::in_range<index_t>(p) || i < 0 || i >= length) {
                           fail<IndexError>("take_each", "index ", p, " is outside ", name(),
                                            " of length ", length);
                         }
                         chosen.push_back(first + i);
                       }
                     });
}

/// filter_each() of rows of rank >= 2: a mask of depth d keeps entries at list axis d, its
/// lists as long as t's there.
template <class T>
JaggedTensor<T> filter_each_deep(const JaggedTensor<T>& t, const JaggedTensor<bool>& mask) {
  return choose_deep("filter_each", "a mask", "the mask", t, mask, true,
                     [](index_t first, index_t /*length*/, std::span<const bool> keep,
                        std::vector<index_t>& chosen, const auto& /*name*/) {
                       // Without a branch on the mask, as the 1-D kernel: each position is
                       // written at the next place, which advances when it is kept.
                       std::size_t at = chosen.size();
                       chosen.resize(at + keep.size());
                       for (std::size_t k = 0; k < keep.size(); ++k) {
                         chosen[at] = first + static_cast<index_t>(k);
                         at += static_cast<std::size_t>(keep[k]);
                       }
                       chosen.resize(at);
                     });
}

}  // namespace detail

/// Picks elements of each row by a ragged index (awkward's `array[indices]`; NumPy's
/// `take_along_axis` along the ragged axis): row r of the result holds `t[r][indices[r][j]]`
/// for each j, negative indices counting from the row's end.
///
/// Rows of rank 2 or more (`n * var * var`, `n * var * 3`, deeper; one outer axis) are indexed
/// at the index's depth, as awkward indexes them: a `n * var` index picks whole lists (or
/// rectangular sub-rows) of each row, an index of the rows' own structure (`argsort(t)` of
/// `n * var * var`) picks inside each list, its lists matching t's lists one for one.
///
/// @code
/// JaggedTensor t(vector<vector<double>>{{0, 1.1, 2.2}, {}, {3.3, 4.4}});
/// take_each(t, JaggedTensor(vector<vector<int>>{{2, 0}, {}, {-1, -1, 0}}));
/// // [[2.2, 0], [], [4.4, 4.4, 3.3]]
/// JaggedTensor events(vector<vector<vector<int>>>{{{1, 2}, {3}}, {{4, 5, 6}}});
/// take_each(events, JaggedTensor(vector<vector<int>>{{-1, 0}, {}}));  // [[[3], [1, 2]], []]
/// take_each(events, argsort(events, false));      // [[[2, 1], [3]], [[6, 5, 4]]]: each list
/// @endcode
/// @param t a jagged tensor
/// @param indices a tensor of integers over the same outer modes: 1-D rows (any lengths), or
///         for rows of rank >= 2 rows no deeper than t's whose levels above the last match t's
/// @return a new tensor: the rows of @p indices' lengths (1-D rows), or t's structure with the
///         chosen entries at the index's depth
/// @throws ShapeError when their outer extents differ (naming both shapes), for an index
///         deeper than t's rows, for several outer modes over deeper rows, or for a list of
///         the index above its last level whose length differs from t's (naming it);
///         IndexError naming the row (or the list, by its positions) and the index when an
///         index is outside it (nothing is returned)
template <class T, std::integral I>
JaggedTensor<T> take_each(const JaggedTensor<T>& t, const JaggedTensor<I>& indices) {
  if (!detail::flat_rows(t) || !detail::flat_rows(indices)) {
    if (detail::same_rows_of_lists(t, indices)) {
      // Inside each list of rows of lists: the 1-D kernel over the lists. An index outside a
      // list is reported by the general path, which names the list by its row.
      try {
        return detail::regrouped_lists(take_each(t.reshape(t.list_index()->lists),
                                                 indices.reshape(indices.list_index()->lists)),
                                       t);
      } catch (const IndexError&) {
      }
    }
    return detail::take_each_deep(t, indices);
  }
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
/// Of rows of rank >= 2 (one outer axis) a dense index `[n, k]` picks k lists (sub-rows) of
/// each row, `[n, m, k]` k elements of each of the m lists of every row, as the jagged index
/// of that regular structure does.
/// @param t a jagged tensor
/// @param indices integers of shape `outer extents + [k]` (1-D rows), or `[n, ...]` no deeper
///         than t's rows
/// @return a new tensor whose rows all have k elements (or sub-rows)
/// @throws ShapeError when the index has another shape; IndexError naming the row and the
///         index when an index is outside its row (an empty row has none: awkward gives None
///         there; pad_none() first)
template <class T, std::integral I>
JaggedTensor<T> take_each(const JaggedTensor<T>& t, const Tensor<I>& indices) {
  const IndexSpan outer = t.shape().outer_extents();
  const Index shape = indices.shape();
  if (!detail::flat_rows(t)) {
    if (outer.size() != 1 || shape.size() < 2 || shape[0] != outer[0]) {
      detail::fail<ShapeError>("take_each", "an index of shape ", to_string(shape),
                               " for a tensor of shape ", t.shape().to_string(),
                               ": rows of rank 2 or more take one outer axis and an index of "
                               "the rows' number and one or more axes");
    }
    const auto depth = static_cast<int>(shape.size() - 1);  // the regular index as a jagged one
    Index extents;
    extents.reserve(static_cast<std::size_t>(shape[0] * depth));
    for (index_t r = 0; r < shape[0]; ++r) {
      extents.insert(extents.end(), shape.begin() + 1, shape.end());
    }
    return detail::take_each_deep(
        t, JaggedTensor<I>::from_dense(indices, Jagged::from_extents(outer, depth, extents)));
  }
  detail::check_flat_rows_of("take_each", t, "a tensor");
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
/// Rows of rank 2 or more (one outer axis) are filtered at the mask's depth, as awkward does:
/// a `n * var` mask keeps whole lists (or rectangular sub-rows: the jets of `n * var * 4`
/// whose momentum passes a cut), a mask of t's own structure keeps elements inside each list.
///
/// @code
/// filter_each(t, t > 3.0)   // [[0, 1.1, 2.2], [], [3.3, 4.4]] -> [[], [], [3.3, 4.4]]
/// JaggedTensor events(vector<vector<vector<int>>>{{{1, 2}, {3}}, {{4, 5, 6}}});
/// filter_each(events, events > 2);  // [[[], [3]], [[4, 5, 6]]]
/// filter_each(events, JaggedTensor<bool>(vector<vector<bool>>{{false, true}, {true}}));
///                                   // [[[3]], [[4, 5, 6]]]: whole lists
/// @endcode
/// @param t a jagged tensor
/// @param mask booleans of t's jagged shape, or for rows of rank >= 2 of its structure down to
///         the mask's depth
/// @return a new tensor over the same outer modes
/// @throws ShapeError when the mask has another structure (naming the first row, or list by
///         its positions, whose length differs), is deeper than t's rows, or for several outer
///         modes over deeper rows
template <class T>
JaggedTensor<T> filter_each(const JaggedTensor<T>& t, const JaggedTensor<bool>& mask) {
  if (!detail::flat_rows(t) || !detail::flat_rows(mask)) {
    if (detail::same_rows_of_lists(t, mask)) {
      // Inside each list of rows of lists: the 1-D kernel over the lists. A list of another
      // length is reported by the general path, which names the list by its row.
      try {
        return detail::regrouped_lists(
            filter_each(t.reshape(t.list_index()->lists), mask.reshape(mask.list_index()->lists)),
            t);
      } catch (const ShapeError&) {
      }
    }
    return detail::filter_each_deep(t, mask);
  }
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
  return detail::gather_rows(t, lengths, [&](index_t r, T* out, index_t n) {
    const auto u = static_cast<std::size_t>(r);
    const index_t length = from[u + 1] - from[u];
    const T* const row = in + from[u];
    const bool* const row_keep = keep + marks[u];
    // Without a branch on the mask (random masks mispredict): every value is written at the
    // next place, which advances when it is kept; the row stops once its n are written, so
    // no write passes the row's end.
    index_t j = 0;
    for (index_t k = 0; k < length && j < n; ++k) {
      out[j] = row[k];
      j += row_keep[k] ? 1 : 0;
    }
  });
}

/// filter_each() with a mask given as a jagged expression (`filter_each(t, t > 3.0)`, or
/// `filter_each(jets, pt > 30.0)` with `pt` one value per jet), evaluated first.
/// @param t a jagged tensor
/// @param mask a jagged expression of booleans of t's jagged shape
/// @return a new tensor over the same outer modes
/// @throws ShapeError as the JaggedTensor overload
template <class T, JaggedExpression M>
JaggedTensor<T> filter_each(const JaggedTensor<T>& t, const M& mask) {
  return filter_each(t, evaluate_jagged<bool>(mask));
}

/// Element @p i of every list at inner axis @p axis (awkward's `array[:, :, i]` for axis 2,
/// `array[:, :, :, i]` for axis 3; negative counts from each list's end), into a new tensor one
/// level less deep. Of jets `n * var * 4` (four numbers per jet) `chip_each(jets, 0, 2)` is
/// the first number of every jet (`n * var`); of `n * var * var` the first element of every
/// list; of deeper rows at a middle axis, list i of every list of lists. Axis 1 is
/// JaggedTensor::chip_each(i) (awkward's `array[:, i]`: sub-row i of every row).
/// @code
/// JaggedTensor events(vector<vector<vector<int>>>{{{1, 2}, {3}}, {{4, 5, 6}}});
/// chip_each(events, 0, 2);    // [[1, 3], [4]]
/// chip_each(events, -1, -1);  // [[2, 3], [6]]
/// @endcode
/// @param t a jagged tensor with one outer axis and rows of rank >= 2
/// @param i the position in each list
/// @param axis the inner axis, 1 to the rows' rank (negative from the end)
/// @return a new tensor
/// @throws IndexError for an axis that is not an inner axis, or naming the first list (by its
///         positions: `the list at [2, 0]` is row 2's list 0) without element @p i;
///         ShapeError for 1-D rows (JaggedTensor::select_each(i) gives their elements) or
///         several outer axes
template <class T>
JaggedTensor<T> chip_each(const JaggedTensor<T>& t, index_t i, index_t axis) {
  constexpr std::string_view op = "chip_each";
  const Jagged& shape = t.shape();
  const index_t rank = shape.rank();
  const index_t a = axis < 0 ? axis + rank : axis;
  if (a < shape.outer_rank() || a >= rank) {
    detail::fail<IndexError>(op, "axis ", axis, " is not an inner axis of ", shape.to_string(),
                             " (", shape.outer_rank(), " to ", rank - 1, ", or -",
                             shape.inner_rank(), " to -1)");
  }
  if (shape.outer_rank() != 1 || detail::flat_rows(t)) {
    detail::fail<ShapeError>(op, "axis ", axis, " of ", shape.to_string(),
                             ": chip_each takes one outer axis and rows of rank 2 or more (the "
                             "elements of 1-D rows: select_each(",
                             i, "))");
  }
  if (a == 1) {
    return t.chip_each(i);
  }
  // ListArray's chip_each, a list without position i named by its jagged index.
  const ListArray<T> lists(t);
  const auto l = static_cast<std::size_t>(a - 1);
  return detail::ListArrayAccess::chip(
             lists, op, i, l,
             [&](index_t e) { return detail::entry_name(lists, l, e, t.first_row()); })
      .to_jagged();
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
        const Index e = b.source->piece_extents(r);
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
