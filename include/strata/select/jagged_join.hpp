/// @file
/// Joining, reshaping and reordering jagged tensors, as awkward-array does for ragged arrays:
/// `concat` along the outer axes and row by row (`ak.concatenate`), `flatten` / `unflatten`
/// (views: only the offsets change), `to_regular` / `from_regular`, `zip`, `cartesian` and
/// `combinations` per row (with `argcartesian` / `argcombinations`), `sort` / `argsort` per
/// row. Design page: @ref shapes_page.
#pragma once

#include "strata/core/error.hpp"
#include "strata/parallel/policy.hpp"
#include "strata/select/jagged.hpp"
#include "strata/shape/nested.hpp"
#include "strata/tensor/jagged_tensor.hpp"
#include "strata/tensor/list_array.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <numeric>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

namespace detail {

/// An axis in [-rank, rank) as a number in [0, rank), or an IndexError naming the operation.
inline index_t jagged_axis(std::string_view operation, index_t axis, const Jagged& shape) {
  const index_t rank = shape.rank();
  const index_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) {
    fail<IndexError>(operation, "axis ", axis, " is outside the ", rank, " axes of ",
                     shape.to_string());
  }
  return a;
}

/// The product of some extents.
inline index_t product_of(IndexSpan extents) {
  index_t n = 1;
  for (const index_t e : extents) {
    n *= e;
  }
  return n;
}

/// The lengths a list of offsets gives (one fewer than the offsets): row r's length for every
/// row of a tensor with 1-D rows, or the lengths of one level of a ListArray.
inline std::vector<index_t> row_lengths(std::span<const index_t> starts) {
  std::vector<index_t> lengths(starts.size() - 1, 0);
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    lengths[r] = starts[r + 1] - starts[r];
  }
  return lengths;
}

/// Checks that two tensors with 1-D rows have the same outer extents.
template <class T, class U>
void check_same_outer(std::string_view operation, const JaggedTensor<T>& a,
                      const JaggedTensor<U>& b) {
  check_flat_rows_of(operation, a, "a tensor");
  check_flat_rows_of(operation, b, "a tensor");
  if (!std::ranges::equal(a.shape().outer_extents(), b.shape().outer_extents())) {
    fail<ShapeError>(operation, "the outer extents of ", a.shape().to_string(), " and ",
                     b.shape().to_string(), " differ");
  }
}

/// Fills the rows of @p shape (1-D rows) in parallel over rows balanced by their sizes:
/// `write(r, k)` for row r, k its first value's position.
template <class Write>
void write_rows(const Jagged& shape, Write write) {
  const std::span<const index_t> starts = shape.row_starts();
  parallel::for_each_weighted_part(par, starts, [&](index_t lo, index_t hi) {
    for (index_t r = lo; r < hi; ++r) {
      write(r, starts[static_cast<std::size_t>(r)]);
    }
  });
}

/// `la * lb` per row: the shape of each row's pairs.
inline Jagged cartesian_shape(std::string_view operation, IndexSpan outer,
                              std::span<const index_t> a, std::span<const index_t> b) {
  Index lengths(a.size() - 1, 0);
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    if (__builtin_mul_overflow(a[r + 1] - a[r], b[r + 1] - b[r], &lengths[r])) {
      fail<ShapeError>(operation, "row ", r, " would hold more than 2^63 pairs");
    }
  }
  return Jagged::from_extents(outer, 1, lengths);
}

/// Writes the pairs of every row, i major: element i of a's row r and element j of b's (their
/// values, or with @p Indices the positions i and j), into @p x and @p y.
template <bool Indices, class X, class Y>
void write_pairs(const Jagged& pairs, std::span<const index_t> a, std::span<const index_t> b,
                 const X* av, const Y* bv, X* x, Y* y) {
  write_rows(pairs, [&](index_t r, index_t k) {
    const auto u = static_cast<std::size_t>(r);
    const index_t la = a[u + 1] - a[u];
    const index_t lb = b[u + 1] - b[u];
    for (index_t i = 0; i < la; ++i) {
      X first{};
      if constexpr (Indices) {
        first = i;
      } else {
        first = av[a[u] + i];
      }
      for (index_t j = 0; j < lb; ++j) {
        x[k + j] = first;
        if constexpr (Indices) {
          y[k + j] = j;
        } else {
          y[k + j] = bv[b[u] + j];
        }
      }
      k += lb;
    }
  });
}

/// The number of N-combinations of n elements (with repetition when @p replacement), or -1
/// when it overflows.
inline index_t combination_count(index_t n, index_t choose, bool replacement) {
  const index_t top = replacement ? n + choose - 1 : n;
  if (choose > top) {
    return 0;
  }
  index_t count = 1;
  for (index_t k = 1; k <= choose; ++k) {  // count = C(top - choose + k, k), exactly
    index_t next = 0;
    if (__builtin_mul_overflow(count, top - choose + k, &next)) {
      return -1;
    }
    count = next / k;
  }
  return count;
}

/// Writes every N-combination of each row's elements (their values, or with @p Indices their
/// positions), in lexicographic order of the index tuples (ascending; non-decreasing with
/// @p replacement): member m of combination c of row r goes to `out[m]` at the row's start + c.
template <std::size_t N, bool Indices, class T, class O>
void write_combinations(const Jagged& combos, std::span<const index_t> starts, bool replacement,
                        const T* in, const std::array<O*, N>& out) {
  const auto value = [](const T* row, index_t i) -> O {
    if constexpr (Indices) {
      (void)row;
      return i;
    } else {
      return row[i];
    }
  };
  write_rows(combos, [&](index_t r, index_t k) {
    const auto u = static_cast<std::size_t>(r);
    const index_t length = starts[u + 1] - starts[u];
    const T* const row = Indices ? nullptr : in + starts[u];
    if constexpr (N == 2) {  // the pairs of particle physics: two plain loops
      for (index_t i = 0; i < length; ++i) {
        const O first = value(row, i);
        for (index_t j = replacement ? i : i + 1; j < length; ++j, ++k) {
          out[0][k] = first;
          out[1][k] = value(row, j);
        }
      }
    } else {
      const index_t count = combos.row_starts()[u + 1] - combos.row_starts()[u];
      std::array<index_t, N> idx{};
      for (std::size_t m = 0; m < N; ++m) {
        idx[m] = replacement ? 0 : static_cast<index_t>(m);
      }
      for (index_t c = 0; c < count; ++c, ++k) {
        for (std::size_t m = 0; m < N; ++m) {
          out[m][k] = value(row, idx[m]);
        }
        std::size_t j = N;  // advance the rightmost index that can grow
        while (j-- > 0) {
          const index_t limit = replacement ? length - 1 : length - static_cast<index_t>(N - j);
          if (idx[j] < limit) {
            ++idx[j];
            for (std::size_t m = j + 1; m < N; ++m) {
              idx[m] = replacement ? idx[m - 1] : idx[m - 1] + 1;
            }
            break;
          }
        }
      }
    }
  });
}

template <std::size_t N>
Jagged combinations_shape(std::string_view operation, IndexSpan outer,
                          std::span<const index_t> starts, bool replacement) {
  Index counts(starts.size() - 1, 0);
  for (std::size_t r = 0; r < counts.size(); ++r) {
    counts[r] = combination_count(starts[r + 1] - starts[r], static_cast<index_t>(N), replacement);
    if (counts[r] < 0) {
      fail<ShapeError>(operation, "row ", r, " of length ", starts[r + 1] - starts[r],
                       " has more than 2^63 combinations of ", N);
    }
  }
  return Jagged::from_extents(outer, 1, counts);
}

/// Sorts a run: NaN moved after the numbers first (NumPy puts NaN last; in both directions
/// here), then the numbers by `<` (or `>`), so the sort itself compares as a hand loop does.
template <class T>
void sort_run(T* begin, T* end, bool ascending) {
  T* numbers_end = end;
  if constexpr (std::is_floating_point_v<T>) {
    numbers_end = std::partition(begin, end, [](const T& x) { return !std::isnan(x); });
  }
  if (ascending) {
    std::sort(begin, numbers_end);
  } else {
    std::sort(begin, numbers_end, std::greater<>{});
  }
}

/// The positions that sort a run, stably: those of the numbers by value, then those of NaN.
template <class T>
void argsort_run(const T* values, index_t* begin, index_t* end, bool ascending) {
  std::iota(begin, end, index_t{0});
  index_t* numbers_end = end;
  if constexpr (std::is_floating_point_v<T>) {
    numbers_end =
        std::stable_partition(begin, end, [values](index_t i) { return !std::isnan(values[i]); });
  }
  if (ascending) {
    std::stable_sort(begin, numbers_end,
                     [values](index_t i, index_t j) { return values[i] < values[j]; });
  } else {
    std::stable_sort(begin, numbers_end,
                     [values](index_t i, index_t j) { return values[j] < values[i]; });
  }
}

}  // namespace detail

/// Joins jagged tensors (awkward's `ak.concatenate(arrays, axis)`). Along an outer axis (0 in
/// a `n * var` tensor) the rows of the sources follow each other: every other outer extent
/// and the rank of the rows must agree; any row shape (1-D, smooth, jagged). Along the first
/// inner axis (1 in a `n * var` tensor, or -1) row r of the result is row r of each source in
/// turn: the outer extents must agree and the rows be 1-D. The values are copied.
/// @code
/// JaggedTensor a(vector<vector<int>>{{1, 2}, {}}), b(vector<vector<int>>{{3}, {4, 5}});
/// concat(0, {a, b});  // [[1, 2], [], [3], [4, 5]]
/// concat(1, {a, b});  // [[1, 2, 3], [4, 5]]
/// @endcode
/// @param axis the axis, negative from the end
/// @param sources at least one tensor, all of one rank
/// @return a new tensor
/// @throws ShapeError for no sources, sources of different depths (ranks of rows) or other
///         extents, rows that are not 1-D for a join along the rows, an axis inside the rows
///         below the first; IndexError for an axis beyond the rank
template <class T>
JaggedTensor<T> concat(index_t axis, const std::vector<JaggedTensor<T>>& sources) {
  constexpr std::string_view op = "concat";
  if (sources.empty()) {
    detail::fail<ShapeError>(op, "no tensors to join");
  }
  const Jagged& first = sources[0].shape();
  for (std::size_t s = 1; s < sources.size(); ++s) {
    const Jagged& other = sources[s].shape();
    if (other.outer_rank() != first.outer_rank() || other.inner_rank() != first.inner_rank()) {
      detail::fail<ShapeError>(op, "tensor ", s, " (", other.to_string(), ", ", other.outer_rank(),
                               " outer and ", other.inner_rank(), " inner axes) and tensor 0 (",
                               first.to_string(), ", ", first.outer_rank(), " and ",
                               first.inner_rank(), ") have different depths");
    }
  }
  const index_t a = detail::jagged_axis(op, axis, first);
  const IndexSpan outer = first.outer_extents();
  const auto o = static_cast<index_t>(outer.size());
  for (std::size_t s = 1; s < sources.size(); ++s) {
    const IndexSpan other = sources[s].shape().outer_extents();
    for (index_t m = 0; m < o; ++m) {
      const auto u = static_cast<std::size_t>(m);
      if (m != a && other[u] != outer[u]) {
        detail::fail<ShapeError>(op, "along axis ", axis, " tensor ", s, " has outer extents ",
                                 to_string(other), " and tensor 0 ", to_string(outer),
                                 " (they must agree on every other outer axis)");
      }
    }
  }
  if (a < o) {
    const auto u = static_cast<std::size_t>(a);
    const index_t before = detail::product_of(outer.subspan(0, u));
    const index_t after = detail::product_of(outer.subspan(u + 1));
    Index result(outer.begin(), outer.end());
    result[u] = 0;
    for (const JaggedTensor<T>& s : sources) {
      result[u] += s.shape().outer_extents()[u];
    }
    std::vector<detail::RowBlock<T>> blocks;
    for (index_t p = 0; p < before; ++p) {
      for (const JaggedTensor<T>& s : sources) {
        const index_t n = s.shape().outer_extents()[u] * after;
        blocks.push_back({&s, p * n, n});
      }
    }
    return detail::gather_row_blocks(blocks, result, first.inner_rank());
  }
  if (a > o) {
    detail::fail<ShapeError>(op, "axis ", axis, " of ", first.to_string(),
                             " is inside the rows below their first axis");
  }
  for (const JaggedTensor<T>& s : sources) {
    detail::check_flat_rows_of(op, s, "a join along the rows needs 1-D rows, but a tensor");
  }
  Index lengths(static_cast<std::size_t>(first.n_rows()), 0);
  for (const JaggedTensor<T>& s : sources) {
    const std::span<const index_t> starts = s.offsets();
    for (std::size_t r = 0; r < lengths.size(); ++r) {
      lengths[r] += starts[r + 1] - starts[r];
    }
  }
  std::vector<const T*> values;
  for (const JaggedTensor<T>& s : sources) {
    values.push_back(s.data());
  }
  return detail::gather_rows(sources[0], lengths, [&](index_t r, T* out, index_t /*n*/) {
    const auto u = static_cast<std::size_t>(r);
    for (std::size_t s = 0; s < sources.size(); ++s) {
      const std::span<const index_t> starts = sources[s].offsets();
      out = std::copy(values[s] + starts[u], values[s] + starts[u + 1], out);
    }
  });
}
/// concat() with the tensors in braces: `concat(0, {a, b})`.
/// @param axis the axis, negative from the end
/// @param sources at least one tensor
/// @return a new tensor
/// @throws ShapeError, IndexError as the vector overload
template <class T>
JaggedTensor<T> concat(index_t axis, std::initializer_list<JaggedTensor<T>> sources) {
  return concat(axis, std::vector<JaggedTensor<T>>(sources));
}

/// Every value, rows one after another, as a 1-D view (awkward's `ak.flatten(array,
/// axis=None)`; for a `n * var` tensor also `axis=1`): values(), no copy.
/// @param t a jagged tensor
/// @return the values, writable
template <class T>
Tensor<T> flatten(JaggedTensor<T>& t) {
  return t.values();
}
/// Every value of a const tensor, as a read-only 1-D view.
/// @param t a jagged tensor
/// @return the values
template <class T>
Tensor<const T> flatten(const JaggedTensor<T>& t) {
  return t.values();
}

/// Removes one level of nesting (awkward's `ak.flatten(array, axis)`): axis @p axis merges
/// into the axis before it, as a view over the same values (only the offsets change). On a
/// `n * var * var` tensor (rows of rank 2), axis 2 (-1) joins the lists of each row (`n *
/// var`) and axis 1 makes every list a row (`lists * var`, one outer axis only); deeper rows
/// over one outer axis (`n * var * var * var`) merge any inner axis the same way (axis 3 joins
/// the innermost lists of each list, and so on: ListArray::flatten's levels); on a tensor
/// with 1-D rows over several outer axes, the first inner axis joins the rows of each index of
/// the outer axes before the last (`[a, b] * var` becomes `[a] * var`). Use flatten(t) for
/// the values of a `n * var` tensor.
/// @param t a jagged tensor
/// @param axis the axis to merge, negative from the end
/// @return the tensor, sharing t's values
/// @throws IndexError for an axis beyond the rank; ShapeError for another axis (naming it)
template <class T>
JaggedTensor<T> flatten(const JaggedTensor<T>& t, index_t axis) {
  constexpr std::string_view op = "flatten";
  const Jagged& shape = t.shape();
  const index_t a = detail::jagged_axis(op, axis, shape);
  const IndexSpan outer = shape.outer_extents();
  const auto o = static_cast<index_t>(outer.size());
  if (shape.inner_rank() == 2 && a == o + 1) {
    return t.reshape(Jagged::from_extents(outer, 1, detail::row_lengths(t.offsets())));
  }
  if (shape.inner_rank() == 2 && a == o && o == 1) {
    return t.reshape(t.list_index()->lists);  // every list a row: the lists' shape, kept
  }
  if (shape.smooth_rows() && shape.inner_rank() == 1 && a == o && o >= 2) {
    const std::span<const index_t> starts = t.offsets();
    const index_t group = outer.back();
    Index lengths(static_cast<std::size_t>(shape.n_rows() / std::max<index_t>(group, 1)), 0);
    for (std::size_t g = 0; g < lengths.size(); ++g) {
      lengths[g] = starts[(g + 1) * static_cast<std::size_t>(group)] -
                   starts[g * static_cast<std::size_t>(group)];
    }
    if (group == 0) {
      lengths.assign(static_cast<std::size_t>(detail::product_of(outer.first(outer.size() - 1))),
                     0);
    }
    return t.reshape(Jagged::from_extents(outer.first(outer.size() - 1), 1, lengths));
  }
  if (o == 1 && a >= 1 && shape.inner_rank() >= 3) {  // deeper rows: as their lists merge
    return t.reshape(ListArray<T>(t).flatten(a).packed_shape());
  }
  detail::fail<ShapeError>(op, "axis ", axis, " of ", shape.to_string(),
                           " cannot merge into the axis before it (an outer axis, or the "
                           "first inner axis of 1-D rows over one outer axis: flatten(t) gives "
                           "those values)");
}

/// Groups consecutive rows (awkward's `ak.unflatten(array, counts, axis=0)`): a `n * var`
/// tensor becomes `m * var * var`, row g holding the next `counts[g]` rows as its lists (rows
/// of lists become rows of rows of lists, one level deeper); a view over the same values.
/// @param t a tensor with one outer axis
/// @param counts m non-negative integers adding up to t's rows
/// @return the tensor, sharing t's values
/// @throws ShapeError for several outer axes, counts that are not 1-D, a negative count or
///         counts whose sum is not the number of rows
template <class T, std::integral I>
JaggedTensor<T> unflatten(const JaggedTensor<T>& t, const Tensor<I>& counts) {
  constexpr std::string_view op = "unflatten";
  if (t.shape().outer_rank() == 1 && t.shape().inner_rank() >= 2 && counts.rank() == 1) {
    // Rows of lists: a new outer level over them.
    const Tensor<I> c = counts.copy(seq);
    const Index groups = detail::checked_lengths(
        op, std::span<const I>(c.data(), static_cast<std::size_t>(c.size())));
    const index_t total = std::accumulate(groups.begin(), groups.end(), index_t{0});
    if (total != t.shape().n_rows()) {
      detail::fail<ShapeError>(op, "the counts add up to ", total, " but ", t.shape().to_string(),
                               " has ", t.shape().n_rows(), " rows");
    }
    return t.reshape(ListArray<T>(t).unflatten(groups).packed_shape());
  }
  detail::check_flat_rows_of(op, t, "a tensor");
  if (t.shape().outer_rank() != 1 || counts.rank() != 1) {
    detail::fail<ShapeError>(op, "counts of shape ", to_string(counts.shape()), " for ",
                             t.shape().to_string(),
                             " (it groups the rows of a n * var tensor by 1-D counts)");
  }
  const Tensor<I> c = counts.copy(seq);
  const Index groups =
      detail::checked_lengths(op, std::span<const I>(c.data(), static_cast<std::size_t>(c.size())));
  const index_t total = std::accumulate(groups.begin(), groups.end(), index_t{0});
  if (total != t.shape().n_rows()) {
    detail::fail<ShapeError>(op, "the counts add up to ", total, " but ", t.shape().to_string(),
                             " has ", t.shape().n_rows(), " rows");
  }
  return t.reshape(Jagged::from_lists(groups, detail::row_lengths(t.offsets())));
}
/// unflatten() with the counts in braces or a std::vector.
/// @param t a tensor with 1-D rows over one outer axis
/// @param counts non-negative integers adding up to t's rows
/// @return the tensor, sharing t's values
/// @throws ShapeError as the Tensor overload
template <class T, std::integral I>
JaggedTensor<T> unflatten(const JaggedTensor<T>& t, const std::vector<I>& counts) {
  Tensor<I> c(Index{static_cast<index_t>(counts.size())});
  std::copy(counts.begin(), counts.end(), c.data());
  return unflatten(t, c);
}

/// unflatten() with the counts in braces: `unflatten(t, {2, 3})`.
/// @param t a tensor with 1-D rows over one outer axis
/// @param counts non-negative integers adding up to t's rows
/// @return the tensor, sharing t's values
/// @throws ShapeError as the Tensor overload
template <class T, std::integral I>
JaggedTensor<T> unflatten(const JaggedTensor<T>& t, std::initializer_list<I> counts) {
  return unflatten(t, std::vector<I>(counts));
}

/// Splits each row into lists (awkward's `ak.unflatten(array, counts, axis=1)`): row r of a
/// tensor with 1-D rows becomes the lists of lengths `counts[r]` (which add up to the row's
/// length); a view over the same values.
/// @code
/// JaggedTensor t(vector<vector<int>>{{1, 2, 3}, {4}});
/// unflatten(t, JaggedTensor(vector<vector<int>>{{2, 0, 1}, {1}}));  // [[[1, 2], [], [3]], [[4]]]
/// @endcode
/// @param t a tensor with 1-D rows
/// @param counts a jagged tensor of non-negative integers over the same outer axes
/// @return the tensor, with rows of rank 2, sharing t's values
/// @throws ShapeError for rows that are not 1-D, counts over other outer extents, a negative
///         count, or a row whose counts do not add up to its length (naming the row)
template <class T, std::integral I>
JaggedTensor<T> unflatten(const JaggedTensor<T>& t, const JaggedTensor<I>& counts) {
  constexpr std::string_view op = "unflatten";
  detail::check_same_outer(op, t, counts);
  const std::span<const index_t> starts = t.offsets();
  const std::span<const index_t> splits = counts.offsets();
  const I* const c = counts.data();
  Index lengths;
  lengths.reserve(static_cast<std::size_t>(counts.size()));
  for (std::size_t r = 0; r + 1 < starts.size(); ++r) {
    const Index row = detail::checked_lengths(
        op, std::span<const I>(c + splits[r], static_cast<std::size_t>(splits[r + 1] - splits[r])));
    const index_t total = std::accumulate(row.begin(), row.end(), index_t{0});
    if (total != starts[r + 1] - starts[r]) {
      detail::fail<ShapeError>(op, "the counts of row ", t.first_row() + static_cast<index_t>(r),
                               " add up to ", total, " but the row has ", starts[r + 1] - starts[r],
                               " elements");
    }
    lengths.insert(lengths.end(), row.begin(), row.end());
  }
  return t.reshape(
      Jagged::from_lists(t.shape().outer_extents(), detail::row_lengths(splits), lengths));
}

/// Splits every list at inner axis @p axis into consecutive sub-lists (awkward's
/// `ak.unflatten(array, counts, axis)`) in a tensor with one outer axis and rows of any rank:
/// the lists at that axis, in storage order (one per row at axis 1, one per list of every row
/// at axis 2, ...), each take one row of @p counts, which add up to the list's length. A view
/// over the same values, one level deeper (ListArray::unflatten's levels).
/// @code
/// JaggedTensor t(vector<vector<vector<int>>>{{{1, 2, 3}, {4}}, {}});
/// unflatten(t, JaggedTensor(vector<vector<int>>{{2, 1}, {0, 1}}), 2);
///                                          // [[[[1, 2], [3]], [[], [4]]], []]
/// @endcode
/// @param t a jagged tensor with one outer axis
/// @param counts one row of non-negative integers per list at that axis
/// @param axis the inner axis, 1 to the rows' rank (negative from the end)
/// @return the tensor, sharing t's values
/// @throws IndexError for an axis that is not an inner axis; ShapeError for several outer
///         axes, counts of another shape (naming both), a negative count or a row of counts
///         whose sum is not its list's length (naming the list)
template <class T, std::integral I>
JaggedTensor<T> unflatten(const JaggedTensor<T>& t, const JaggedTensor<I>& counts, index_t axis) {
  constexpr std::string_view op = "unflatten";
  const Jagged& shape = t.shape();
  const index_t a = detail::jagged_axis(op, axis, shape);
  if (shape.outer_rank() != 1 || a < 1) {
    detail::fail<ShapeError>(op, "axis ", axis, " of ", shape.to_string(),
                             " is not an inner axis of a tensor with one outer axis (the "
                             "counts overload without an axis groups rows)");
  }
  if (a == 1 && shape.inner_rank() == 1) {
    return unflatten(t, counts);
  }
  return t.reshape(
      detail::ListArrayAccess::unflatten(op, ListArray<T>(t), counts, a).packed_shape());
}

namespace detail {

/// The shape of to_regular(t): the outer extents, then the rows' common extents.
/// @param t a jagged tensor with smooth rows
/// @return the extents
/// @throws ShapeError naming the first row whose extents differ from row 0's, or rows that
///         are themselves jagged
template <class T>
Index regular_shape(const JaggedTensor<T>& t) {
  const Jagged& shape = t.shape();
  if (!shape.smooth_rows()) {
    fail<ShapeError>("to_regular", "the rows of ", shape.to_string(), " are themselves jagged");
  }
  Index out(shape.outer_extents().begin(), shape.outer_extents().end());
  if (shape.n_rows() == 0) {
    out.insert(out.end(), static_cast<std::size_t>(shape.inner_rank()), 0);
    return out;
  }
  const Index row0 = t.piece_extents(0);
  for (index_t r = 1; r < shape.n_rows(); ++r) {
    if (!std::ranges::equal(t.piece_extents(r), row0)) {
      fail<ShapeError>("to_regular", "row ", t.first_row() + r, " has extents ",
                       to_string(t.piece_extents(r)), " but row ", t.first_row(), " has ",
                       to_string(row0));
    }
  }
  out.insert(out.end(), row0.begin(), row0.end());
  return out;
}

}  // namespace detail

/// The values as a dense tensor when every row has the same extents (awkward's
/// `ak.to_regular`): outer extents followed by the rows' extents, a view (no copy).
/// @param t a jagged tensor with smooth rows of one shape
/// @return a writable view of t's values
/// @throws ShapeError naming the first row whose extents differ
template <class T>
Tensor<T> to_regular(JaggedTensor<T>& t) {
  const Index shape = detail::regular_shape(t);
  return t.values().reshape(shape);
}
/// to_regular() of a const tensor: a read-only view.
/// @param t a jagged tensor with smooth rows of one shape
/// @return a read-only view of t's values
/// @throws ShapeError naming the first row whose extents differ
template <class T>
Tensor<const T> to_regular(const JaggedTensor<T>& t) {
  const Index shape = detail::regular_shape(t);
  return t.values().reshape(shape);
}

/// A dense tensor as a jagged one whose rows are its last axis (awkward's `ak.from_regular`):
/// `[n, k]` becomes `n * var` with every row of length k. The values are copied (a jagged
/// tensor's values are contiguous; the dense tensor may be any view).
/// @param dense a tensor of rank >= 2
/// @return a new tensor
/// @throws ShapeError for rank < 2
template <class T>
JaggedTensor<std::remove_const_t<T>> from_regular(const Tensor<T>& dense) {
  if (dense.rank() < 2) {
    detail::fail<ShapeError>("from_regular", "a tensor of shape ", to_string(dense.shape()),
                             " has no outer axis and rows (rank >= 2)");
  }
  const Index shape = dense.shape();
  const Index outer(shape.begin(), shape.end() - 1);
  const Index lengths(static_cast<std::size_t>(detail::product_of(outer)), shape.back());
  return JaggedTensor<std::remove_const_t<T>>::from_dense(dense,
                                                          Jagged::from_extents(outer, 1, lengths));
}

/// Zips jagged tensors of one structure into one of tuples (awkward's `ak.zip` of ragged
/// arrays into records): element k is `{a[k], b[k], ...}`. The values are copied.
/// @code
/// auto z = zip(pt, eta);                        // JaggedTensor<std::tuple<float, float>>
/// for (auto [p, e] : z.row(0)) { ... }
/// @endcode
/// @param first a jagged tensor
/// @param rest jagged tensors of first's shape
/// @return a new tensor of tuples, of first's shape
/// @throws ShapeError naming the first row where a shape differs
template <class T, class... U>
JaggedTensor<std::tuple<T, U...>> zip(const JaggedTensor<T>& first,
                                      const JaggedTensor<U>&... rest) {
  (detail::check_same_rows("zip", first.shape(), rest.shape()), ...);
  auto out = JaggedTensor<std::tuple<T, U...>>::for_overwrite(first.shape());
  std::tuple<T, U...>* const o = out.data();
  const auto pointers = std::make_tuple(first.data(), rest.data()...);
  detail::write_rows(first.shape(), [&](index_t r, index_t k) {
    const index_t end = first.offsets()[static_cast<std::size_t>(r) + 1];
    for (; k < end; ++k) {
      o[k] = std::apply([k](const auto*... p) { return std::tuple<T, U...>(p[k]...); }, pointers);
    }
  });
  return out;
}

/// The pairs of each row (awkward's `ak.cartesian([a, b])` then `ak.unzip`): row r holds every
/// (a[r][i], b[r][j]), i major, as two tensors of one shape (the first elements and the
/// second elements, columnar, ready for expressions: `auto [x, y] = cartesian(a, b); x + y`).
/// @param a a tensor with 1-D rows
/// @param b a tensor with 1-D rows over the same outer axes
/// @return the firsts and the seconds, each with rows of length `len(a[r]) * len(b[r])`
/// @throws ShapeError when a row is not 1-D, the outer extents differ or a row would hold
///         more than 2^63 pairs
template <class T, class U>
std::pair<JaggedTensor<T>, JaggedTensor<U>> cartesian(const JaggedTensor<T>& a,
                                                      const JaggedTensor<U>& b) {
  detail::check_same_outer("cartesian", a, b);
  const Jagged shape =
      detail::cartesian_shape("cartesian", a.shape().outer_extents(), a.offsets(), b.offsets());
  std::pair<JaggedTensor<T>, JaggedTensor<U>> out{JaggedTensor<T>::for_overwrite(shape),
                                                  JaggedTensor<U>::for_overwrite(shape)};
  detail::write_pairs<false>(shape, a.offsets(), b.offsets(), a.data(), b.data(), out.first.data(),
                             out.second.data());
  return out;
}

/// The index pairs of cartesian() (awkward's `ak.argcartesian`): for each pair, i and j, the
/// positions of its elements in their rows.
/// @param a a tensor with 1-D rows
/// @param b a tensor with 1-D rows over the same outer axes
/// @return the i and the j of each pair, int64
/// @throws ShapeError as cartesian()
template <class T, class U>
std::pair<JaggedTensor<index_t>, JaggedTensor<index_t>> argcartesian(const JaggedTensor<T>& a,
                                                                     const JaggedTensor<U>& b) {
  detail::check_same_outer("argcartesian", a, b);
  const Jagged shape =
      detail::cartesian_shape("argcartesian", a.shape().outer_extents(), a.offsets(), b.offsets());
  std::pair<JaggedTensor<index_t>, JaggedTensor<index_t>> out{
      JaggedTensor<index_t>::for_overwrite(shape), JaggedTensor<index_t>::for_overwrite(shape)};
  detail::write_pairs<true, index_t, index_t>(shape, a.offsets(), b.offsets(), nullptr, nullptr,
                                              out.first.data(), out.second.data());
  return out;
}

/// The N-element combinations of each row's elements (awkward's `ak.combinations(array, N)`
/// then `ak.unzip`): row r holds every (t[r][i0], t[r][i1], ...) with i0 < i1 < ... (i0 <= i1
/// <= ... with @p replacement), in lexicographic order, as N tensors of one shape:
/// `auto [m1, m2] = combinations<2>(muons);` gives the distinct pairs of each event.
/// @tparam N the number of elements in a combination, >= 1
/// @param t a tensor with 1-D rows
/// @param replacement whether an element may repeat in a combination
/// @return the N tensors, with rows of C(length, N) (C(length + N - 1, N)) elements
/// @throws ShapeError for rows that are not 1-D or a row with more than 2^63 combinations
template <std::size_t N, class T>
std::array<JaggedTensor<T>, N> combinations(const JaggedTensor<T>& t, bool replacement = false) {
  static_assert(N >= 1, "strata: a combination has at least one element");
  detail::check_flat_rows_of("combinations", t, "a tensor");
  const Jagged shape = detail::combinations_shape<N>("combinations", t.shape().outer_extents(),
                                                     t.offsets(), replacement);
  auto out = [&]<std::size_t... M>(std::index_sequence<M...>) {
    return std::array<JaggedTensor<T>, N>{((void)M, JaggedTensor<T>::for_overwrite(shape))...};
  }
  (std::make_index_sequence<N>{});
  std::array<T*, N> o{};
  for (std::size_t m = 0; m < N; ++m) {
    o[m] = out[m].data();
  }
  detail::write_combinations<N, false>(shape, t.offsets(), replacement, t.data(), o);
  return out;
}

/// The index tuples of combinations() (awkward's `ak.argcombinations`): the positions of each
/// combination's elements in their row.
/// @tparam N the number of elements in a combination, >= 1
/// @param t a tensor with 1-D rows
/// @param replacement whether an element may repeat in a combination
/// @return N int64 tensors of one shape
/// @throws ShapeError as combinations()
template <std::size_t N, class T>
std::array<JaggedTensor<index_t>, N> argcombinations(const JaggedTensor<T>& t,
                                                     bool replacement = false) {
  static_assert(N >= 1, "strata: a combination has at least one element");
  detail::check_flat_rows_of("argcombinations", t, "a tensor");
  const Jagged shape = detail::combinations_shape<N>("argcombinations", t.shape().outer_extents(),
                                                     t.offsets(), replacement);
  auto out = [&]<std::size_t... M>(std::index_sequence<M...>) {
    return std::array<JaggedTensor<index_t>, N>{
        ((void)M, JaggedTensor<index_t>::for_overwrite(shape))...};
  }
  (std::make_index_sequence<N>{});
  std::array<index_t*, N> o{};
  for (std::size_t m = 0; m < N; ++m) {
    o[m] = out[m].data();
  }
  detail::write_combinations<N, true>(shape, t.offsets(), replacement, t.data(), o);
  return out;
}

/// Each list sorted (awkward's `ak.sort(array, axis=-1)`): the rows of a `n * var` tensor, the
/// lists of a `n * var * var` one (the runs along the last axis). NaN sorts after every
/// number in both directions, as NumPy puts it last. The result is a new tensor of t's shape.
/// @param t a jagged tensor of ordered values
/// @param ascending false for the largest first
/// @return the sorted copy
template <class T>
requires std::totally_ordered<T> JaggedTensor<T> sort(const JaggedTensor<T>& t,
                                                      bool ascending = true) {
  auto out = JaggedTensor<T>::for_overwrite(t.shape());
  T* const o = out.data();
  const T* const in = t.data();
  detail::for_each_last_axis_run(out, [&](index_t begin, index_t count) {
    std::copy_n(in + begin, count, o + begin);  // each run copied, then sorted in cache
    detail::sort_run(o + begin, o + begin + count, ascending);
  });
  return out;
}

/// The positions that sort each list (awkward's `ak.argsort(array, axis=-1)`, stable: equal
/// values keep their order), as take_each() takes them: `take_each(t, argsort(t))` is
/// sort(t). NaN sorts last.
/// @param t a jagged tensor of ordered values
/// @param ascending false for the largest first
/// @return an int64 tensor of t's shape
template <class T>
requires std::totally_ordered<T> JaggedTensor<index_t> argsort(const JaggedTensor<T>& t,
                                                               bool ascending = true) {
  auto out = JaggedTensor<index_t>::for_overwrite(t.shape());
  index_t* const o = out.data();
  const T* const in = t.data();
  detail::for_each_last_axis_run(out, [&](index_t begin, index_t count) {
    detail::argsort_run(in + begin, o + begin, o + begin + count, ascending);
  });
  return out;
}

}  // namespace strata
