/// @file
/// Jagged tensors in expressions and reductions: element-wise arithmetic between JaggedTensors
/// of one shape, with dense tensors broadcast along the rows and with scalars (any operator or
/// function of strata/expr/), evaluated row by row into a JaggedTensor; compound assignment;
/// and reductions (sum, prod, mean, var, std, min, max, ptp, argmin, argmax, count,
/// count_nonzero, any, all, custom) along the ragged modes, giving a dense tensor over the
/// outer modes, or along the outer axis of `n * var`, giving one value per position.
#pragma once

#include "strata/expr/evaluate.hpp"
#include "strata/expr/expression.hpp"
#include "strata/expr/operators.hpp"
#include "strata/expr/reduce.hpp"
#include "strata/parallel/for_each.hpp"
#include "strata/tensor/algorithms.hpp"
#include "strata/tensor/jagged_tensor.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <functional>
#include <limits>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

namespace detail {

/// Writes a jagged expression into @p dst row by row: in row r every jagged leaf reads its
/// row's values (unit stride), every dense leaf one value (its element at the row's outer
/// index), and every per-row reduction (strata::rows) reduces its operand's row r (of length
/// `run.length`) when the row's reader is bound, before the row is written. Rows are split
/// between threads balanced by their sizes, so each element is computed by the same code
/// whatever the thread count. A tree over rows of lists with a `n * var` operand (one value per
/// list) and no per-row reduction is walked list by list instead (evaluate_by_lists).
template <class T, class E, ExecutionPolicy P>
void evaluate_jagged(JaggedTensor<T>& dst, const E& e, const P& policy);

/// evaluate_jagged over rows of lists, one run per list (detail::run_lists): the leaves of the
/// destination's shape read the list, the `n * var` leaves (prepared.per_list) their value for
/// the list in place (stride 0), dense leaves their value for the row. Rows are split between
/// threads as there.
template <class T, class E, ExecutionPolicy P>
void evaluate_by_lists(T* out, std::span<const index_t> starts, const E& e,
                       const Prepared& prepared, const P& policy) {
  constexpr std::size_t N = leaves_v<E>;
  const ListIndex& lists = *prepared.jagged_lists;
  const std::span<const index_t> list_starts = lists.lists.row_starts();
  parallel::for_each_weighted_part(policy, starts, [&](index_t lo, index_t hi) {
    RunState<N> run;
    for (std::size_t m = 0; m < N; ++m) {
      run.data[m] = prepared.data[m];
      run.stride[m] = prepared.ragged[m] ? 1 : 0;
    }
    for (const auto& [m, rows] : prepared.per_list) {
      run.stride[m] = 0;
    }
    for (index_t r = lo; r < hi; ++r) {
      const auto u = static_cast<std::size_t>(r);
      for (std::size_t m = 0; m < N; ++m) {
        if (!prepared.ragged[m]) {
          run.start[m] = prepared.maps[m].global_to_local(r);
        }
      }
      index_t at = starts[u];
      const index_t first = lists.first[u];
      for (index_t j = first; j < lists.first[u + 1]; ++j) {
        const auto v = static_cast<std::size_t>(j);
        const index_t count = list_starts[v + 1] - list_starts[v];
        for (std::size_t m = 0; m < N; ++m) {
          run.start[m] = prepared.ragged[m] ? at : run.start[m];
        }
        for (const auto& [m, rows] : prepared.per_list) {
          run.start[m] = rows[u] + (j - first);
        }
        run.length = count;
        const auto value = e.template bind<0, run_lists>(run);
        T* const o = out + at;
        for (index_t t = 0; t < count; ++t) {
          o[t] = static_cast<T>(value(t));
        }
        at += count;
      }
    }
  });
}

template <class T, class E, ExecutionPolicy P>
void evaluate_jagged(JaggedTensor<T>& dst, const E& e, const P& policy) {
  constexpr std::size_t N = leaves_v<E>;
  Prepared prepared;
  prepared.jagged_mode = true;
  prepared.has_jagged = true;
  prepared.jagged_shape = dst.shape();
  prepared.jagged_lists = Prepared::kept_lists(dst);
  prepared.shape = Index(dst.shape().outer_extents());
  prepared.destination = dst.buffer().footprint();
  prepared.destination_first = dst.data();
  prepared.parallel = std::is_same_v<P, Parallel>;
  prepared.walk_lists = !per_row_v<E>;
  e.prepare(prepared);
  const std::span<const index_t> starts = dst.offsets();
  T* const out = dst.data();
  if (!prepared.per_list.empty()) {
    evaluate_by_lists(out, starts, e, prepared, policy);
    return;
  }
  // Dense leaves read one value per row (run_constant), unless one has a regular axis: then
  // every dense leaf reads by its step along the row (0 for those constant along it).
  const int outer_rank = static_cast<int>(prepared.shape.size());
  // When every leaf reads the destination's positions or one value for all rows, and nothing
  // reduces per row, the rows of a thread's part are one run over their values.
  bool flat = !per_row_v<E> && prepared.regular.empty();
  for (std::size_t m = 0; m < N; ++m) {
    flat = flat && (prepared.ragged[m] ||
                    std::ranges::all_of(prepared.maps[m].axes(),
                                        [](const auto& axis) { return axis.stride == 0; }));
  }
  const auto rows = [&](auto unit) {
    parallel::for_each_weighted_part(policy, starts, [&](index_t lo, index_t hi) {
      RunState<N> run;
      for (std::size_t m = 0; m < N; ++m) {
        run.data[m] = prepared.data[m];
        run.stride[m] = prepared.ragged[m] ? 1 : 0;
      }
      for (const auto& [m, step] : prepared.regular) {
        run.stride[m] = step;
      }
      if (flat) {
        const index_t begin = starts[static_cast<std::size_t>(lo)];
        const index_t count = starts[static_cast<std::size_t>(hi)] - begin;
        if (count == 0) {
          return;
        }
        for (std::size_t m = 0; m < N; ++m) {
          run.start[m] = prepared.ragged[m] ? begin : prepared.maps[m].global_to_local(lo);
        }
        run.length = count;
        const auto value = e.template bind<0, decltype(unit)::value>(run);
        T* const o = out + begin;
        for (index_t t = 0; t < count; ++t) {
          o[t] = static_cast<T>(value(t));
        }
        return;
      }
      for (index_t r = lo; r < hi; ++r) {
        const index_t begin = starts[static_cast<std::size_t>(r)];
        const index_t count = starts[static_cast<std::size_t>(r) + 1] - begin;
        for (std::size_t m = 0; m < N; ++m) {
          run.start[m] = prepared.ragged[m] || prepared.maps[m].rank() > outer_rank
                             ? begin
                             : prepared.maps[m].global_to_local(r);
        }
        for (const auto& [m, step] : prepared.regular) {
          run.start[m] = prepared.ragged[m] ? begin
                         : count > 0        ? prepared.maps[m].global_to_local(r * count)
                                            : 0;
        }
        run.length = count;
        const auto value = e.template bind<0, decltype(unit)::value>(run);
        T* const o = out + begin;
        for (index_t t = 0; t < count; ++t) {
          o[t] = static_cast<T>(value(t));
        }
      }
    });
  };
  if (prepared.regular.empty()) {
    rows(std::integral_constant<int, run_constant>{});
  } else {
    rows(std::integral_constant<int, run_strided>{});
  }
}

/// The jagged shape of an expression's jagged leaves (checked to be one).
template <class E>
Jagged jagged_shape_of(const E& e) {
  Prepared prepared;
  prepared.jagged_mode = true;
  prepared.probing = true;
  e.prepare(prepared);  // the first jagged leaf sets the shape, the others are checked
  return prepared.jagged_shape;
}

template <class T, class E>
void evaluate_jagged_expression(JaggedTensor<T>& dst, const E& e) {
  evaluate_jagged(dst, e, par);
}

template <class T, class E>
JaggedTensor<T> evaluated_jagged_expression(const E& e) {
  JaggedTensor<T> out = JaggedTensor<T>::for_overwrite(jagged_shape_of(e));  // all written
  evaluate_jagged(out, e, par);
  return out;
}

/// Checks that @p axes are the ragged (inner) modes of @p shape: the one inner mode of a
/// `n * var` tensor, or all of them; returns keepdims' shape.
inline Index ragged_axes(std::string_view operation, const Jagged& shape, IndexSpan axes) {
  const int rank = shape.rank();
  const int outer = shape.outer_rank();
  std::vector<bool> named(static_cast<std::size_t>(rank), false);
  for (const index_t a : axes) {
    if (a < -rank || a >= rank) {
      fail<IndexError>(operation, "axis ", a, " does not exist (rank ", rank, ", shape ",
                       shape.to_string(), ")");
    }
    const index_t k = a < 0 ? a + rank : a;
    if (k < outer) {
      fail<ShapeError>(operation, "axis ", a, " is an outer mode of ", shape.to_string(),
                       "; a jagged tensor reduces along all its ragged modes ", outer, "..",
                       rank - 1, ", or along the outer axis of a n * var tensor alone");
    }
    if (named[static_cast<std::size_t>(k)]) {
      fail<ShapeError>(operation, "axes ", to_string(axes), " name axis ", k, " twice");
    }
    named[static_cast<std::size_t>(k)] = true;
  }
  if (static_cast<int>(axes.size()) != rank - outer) {
    fail<ShapeError>(operation, "axes ", to_string(axes), " are not all the ragged modes ", outer,
                     "..", rank - 1, " of ", shape.to_string(), " (each row reduces to one value)");
  }
  Index keep(shape.outer_extents());
  keep.resize(static_cast<std::size_t>(rank), 1);
  return keep;
}

/// Calls `f(r, data, count)` for every row, in parallel over rows balanced by their sizes,
/// and returns the dense tensor of the outer extents that `f` fills (`out[r] = ...`).
template <class R, class T, ExecutionPolicy P, class F>
Tensor<R> per_row(const JaggedTensor<T>& t, const P& policy, F&& f) {
  Tensor<R> out(t.shape().outer_extents());
  R* o = out.data();
  const std::span<const index_t> starts = t.offsets();
  const T* values = t.data();
  parallel::for_each_weighted_part(policy, starts, [&](index_t lo, index_t hi) {
    for (index_t r = lo; r < hi; ++r) {
      const index_t begin = starts[static_cast<std::size_t>(r)];
      o[r] = f(r, values + begin, starts[static_cast<std::size_t>(r) + 1] - begin);
    }
  });
  return out;
}

/// A reduction along the ragged modes: checks @p axes (before any work), reduces each row with
/// `row(data, count)` in parallel, and shapes the result (outer extents, with keepdims 1s after).
template <class R, class T, class Row>
Tensor<R> ragged_reduction(std::string_view operation, const JaggedTensor<T>& t, IndexSpan axes,
                           bool keepdims, Row row) {
  const Index keep = ragged_axes(operation, t.shape(), axes);
  Tensor<R> out =
      per_row<R>(t, par, [&row](index_t /*r*/, const T* x, index_t n) { return row(x, n); });
  return keepdims ? out.reshape(keep) : out;
}

/// The position of the best of @p n values under `better(a, b)` (a strict order): the first
/// best, the first NaN when there is one (NumPy's argmin / argmax), -1 when there are none.
template <class T, class Better>
index_t best_position(const T* x, index_t n, Better better) {
  index_t best = n == 0 ? -1 : 0;
  for (index_t k = 0; k < n; ++k) {
    if constexpr (std::is_floating_point_v<T>) {
      if (x[k] != x[k]) {
        return k;
      }
    }
    best = better(x[k], x[best]) ? k : best;
  }
  return best;
}

/// The identity of min (@p high) or max: +-infinity for floating types, else the largest or
/// lowest value (what an empty row reduces to, as awkward-array with mask_identity=False).
template <class T>
constexpr T extreme(bool high) {
  if constexpr (std::numeric_limits<T>::has_infinity) {
    return high ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
  } else {
    return high ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
  }
}

/// Whether @p axes name the outer axis of a `n * var` tensor (`{0}`, or `{-2}`): awkward's
/// `axis=0`, where element k of the result combines element k of every row that has one. The
/// outer axis of another shape is a ShapeError naming it; anything else is left to
/// ragged_axes().
inline bool outer_axis(std::string_view operation, const Jagged& shape, IndexSpan axes) {
  const int rank = shape.rank();
  if (axes.size() != 1 || axes[0] < -rank || axes[0] >= rank) {
    return false;
  }
  const index_t k = axes[0] < 0 ? axes[0] + rank : axes[0];
  if (k >= shape.outer_rank()) {
    return false;
  }
  if (rank != 2 || shape.outer_rank() != 1) {
    fail<ShapeError>(operation, "axis ", axes[0], " is an outer mode of ", shape.to_string(),
                     "; a reduction along the outer axis takes a n * var tensor (one outer, one "
                     "ragged mode)");
  }
  return true;
}

/// The length of the longest row of a `n * var` tensor (0 without rows).
template <class T>
index_t longest_row(const JaggedTensor<T>& t) {
  const std::span<const index_t> starts = t.offsets();
  index_t longest = 0;
  for (std::size_t r = 0; r + 1 < starts.size(); ++r) {
    longest = std::max(longest, starts[r + 1] - starts[r]);
  }
  return longest;
}

/// Folds the columns of a `n * var` tensor: for every row r in order and every element k of it,
/// `add(acc[k], x, r, k)`, with one accumulator per position below the longest row, grown as
/// longer rows come (as NumPy adds the rows of a 2-D array along axis 0: in row order, so the
/// result does not depend on a thread count). Returns the accumulators as a dense 1-D tensor.
template <class Acc, class T, class Add>
Tensor<Acc> fold_columns(const JaggedTensor<T>& t, Acc init, Add add) {
  using Slot =
      std::conditional_t<std::is_same_v<Acc, bool>, unsigned char, Acc>;  // no vector<bool>
  const std::span<const index_t> starts = t.offsets();
  const T* const values = t.data();
  std::vector<Slot> acc;
  for (std::size_t r = 0; r + 1 < starts.size(); ++r) {
    const T* const x = values + starts[r];
    const index_t n = starts[r + 1] - starts[r];
    if (std::cmp_less(acc.size(), n)) {
      acc.resize(static_cast<std::size_t>(n), static_cast<Slot>(init));
    }
    Slot* const a = acc.data();
    for (index_t k = 0; k < n; ++k) {
      if constexpr (std::is_same_v<Slot, Acc>) {
        add(a[k], x[k], static_cast<index_t>(r), k);
      } else {
        Acc v = a[k] != 0;
        add(v, x[k], static_cast<index_t>(r), k);
        a[k] = static_cast<Slot>(v);
      }
    }
  }
  Tensor<Acc> out(Index{static_cast<index_t>(acc.size())});
  std::copy(acc.begin(), acc.end(), out.data());
  return out;
}

/// The columns of a `n * var` tensor along its outer axis (position k of every row that has
/// one), as the column reductions below take them. A columns object C has `C::value_type`,
/// `size()` (the number of columns) and `columns(init, add)`, which folds every value x of
/// column k that `owner` contributes (here the row) by `add(acc[k], x, owner, k)` in a fixed
/// order and returns the accumulators as a dense 1-D tensor. strata/select/jagged_lists.hpp
/// has the other kind: the columns that the lists of a `n * var * var` tensor make.
template <class T>
struct OuterColumns {
  using value_type = T;      ///< the values folded
  const JaggedTensor<T>& t;  ///< the `n * var` tensor

  /// The number of columns: the longest row's length.
  index_t size() const { return longest_row(t); }
  /// fold_columns(t, init, add).
  template <class Acc, class Add>
  Tensor<Acc> operator()(Acc init, Add add) const {
    return fold_columns<Acc>(t, init, add);
  }
};
/// `OuterColumns{t}` without the template argument (clang 14 deduces no aggregate's).
template <class T>
OuterColumns(const JaggedTensor<T>&) -> OuterColumns<T>;

/// How many values each column holds (>= 1 below the longest row for OuterColumns).
template <class C>
Tensor<index_t> column_counts(const C& columns) {
  return columns(index_t{0},
                 [](index_t& c, const auto& /*x*/, index_t /*owner*/, index_t /*k*/) { ++c; });
}

/// A result along the outer axis, with keepdims' leading 1 (`[1, longest]`).
template <class R>
Tensor<R> outer_result(Tensor<R> out, bool keepdims) {
  if (keepdims) {
    return out.reshape(Index{1, out.size()});
  }
  return out;
}

/// The smaller of a stored @p acc and @p x (@p high false) or the larger, NaN when either is
/// (NumPy's minimum / maximum).
template <class T>
T extreme_of(const T& acc, const T& x, bool high) {
  if (is_nan(acc) || is_nan(x)) {
    return is_nan(acc) ? acc : x;
  }
  return (high ? acc < x : x < acc) ? x : acc;
}

/// The floating type of a mean, variance or standard deviation of T (double for integers).
template <class T>
using jagged_mean_t = std::conditional_t<std::is_floating_point_v<T>, T, double>;

/// The variance of @p n values (two passes, as NumPy), dividing by max(n - ddof, 0).
template <class R, class T>
R row_variance(const T* x, index_t n, index_t ddof) {
  R mean{};
  for (index_t k = 0; k < n; ++k) {
    mean += static_cast<R>(x[k]);
  }
  mean /= static_cast<R>(n);
  R squares{};
  for (index_t k = 0; k < n; ++k) {
    const R d = static_cast<R>(x[k]) - mean;
    squares += d * d;
  }
  return squares / static_cast<R>(std::max<index_t>(n - ddof, 0));
}

/// How many values that are not NaN each column holds.
template <class C>
Tensor<index_t> column_counts_skipping_nan(const C& columns) {
  return columns(index_t{0}, [](index_t& c, const auto& x, index_t /*owner*/, index_t /*k*/) {
    c += is_nan(x) ? 0 : 1;
  });
}

/// The mean of each column in R, given its @p counts: the sum in column order over the count
/// (NaN for none); of the values that are not NaN when @p SkipNan. (Sums and counts fold in
/// two passes into two arrays: one array of (sum, count) pairs is larger than glibc's mmap
/// threshold sooner, and fresh pages cost more than the second pass.)
template <class R, bool SkipNan = false, class C>
Tensor<R> column_means(const C& columns, const Tensor<index_t>& counts) {
  Tensor<R> out = columns(R{}, [](R& a, const auto& x, index_t /*owner*/, index_t /*k*/) {
    if (!SkipNan || !is_nan(x)) {
      a += static_cast<R>(x);
    }
  });
  for (index_t k = 0; k < out.size(); ++k) {
    out.data()[k] /= static_cast<R>(counts.data()[k]);
  }
  return out;
}

/// The range (maximum less minimum, NaN when the column holds one) of each column.
template <class C>
Tensor<typename C::value_type> column_ptp(const C& columns) {
  using T = typename C::value_type;
  Tensor<T> lo = columns(extreme<T>(true), [](T& a, const T& x, index_t /*owner*/, index_t /*k*/) {
    a = extreme_of(a, x, false);
  });
  const Tensor<T> hi = columns(
      extreme<T>(false),
      [](T& a, const T& x, index_t /*owner*/, index_t /*k*/) { a = extreme_of(a, x, true); });
  for (index_t k = 0; k < lo.size(); ++k) {
    lo.data()[k] = static_cast<T>(hi.data()[k] - lo.data()[k]);
  }
  return lo;
}

/// The variance of each column (two passes, as NumPy), dividing by max(count - ddof, 0); of
/// the values that are not NaN when @p SkipNan.
template <class R, bool SkipNan = false, class C>
Tensor<R> column_variance(const C& columns, index_t ddof) {
  const Tensor<index_t> counts =
      SkipNan ? column_counts_skipping_nan(columns) : column_counts(columns);
  const Tensor<R> means = column_means<R, SkipNan>(columns, counts);
  const R* const m = means.data();
  Tensor<R> out = columns(R{}, [m](R& acc, const auto& x, index_t /*owner*/, index_t k) {
    if (!SkipNan || !is_nan(x)) {
      const R d = static_cast<R>(x) - m[k];
      acc += d * d;
    }
  });
  for (index_t k = 0; k < out.size(); ++k) {
    out.data()[k] /= static_cast<R>(std::max<index_t>(counts.data()[k] - ddof, 0));
  }
  return out;
}

/// The owner (for OuterColumns the row) of the best value of each column under
/// `better(a, b)` (a strict order): the first best, the first NaN when there is one (NumPy's
/// argmin / argmax along axis 0, awkward's row numbers); -1 for an empty column.
template <class C, class Better>
Tensor<index_t> column_best(const C& columns, Better better) {
  using T = typename C::value_type;
  Tensor<T> best(Index{columns.size()});
  T* const b = best.data();
  return columns(index_t{-1}, [b, &better](index_t& at, const T& x, index_t owner, index_t k) {
    if (at < 0 || (!is_nan(b[k]) && (is_nan(x) || better(x, b[k])))) {
      at = owner;
      b[k] = x;
    }
  });
}

// The per-row kernels of the reductions along the ragged modes: `kernel(x, n)` reduces the n
// contiguous values of one row. The reductions into dense tensors (`sum(jt, 1)`) and the lazy
// ones inside jagged expressions (`rows::sum(jt)`, strata/expr/jagged_rows.hpp) run the same
// kernels, so both give the same bits.

/// A row's sum (contiguous_sum's lane order), 0 when empty.
struct RowSum {
  template <class T>
  T operator()(const T* x, index_t n) const {
    return contiguous_sum(x, n);
  }
};
/// A row's product, in order, 1 when empty.
struct RowProd {
  template <class T>
  T operator()(const T* x, index_t n) const {
    T acc{1};
    for (index_t k = 0; k < n; ++k) {
      acc = acc * x[k];
    }
    return acc;
  }
};
/// A row's mean in R (the sum in contiguous_sum's order when R is the element type), NaN when
/// empty.
template <class R>
struct RowMean {
  template <class T>
  R operator()(const T* x, index_t n) const {
    if constexpr (std::is_same_v<R, T>) {
      return contiguous_sum(x, n) / static_cast<R>(n);
    } else {
      R acc{};
      for (index_t k = 0; k < n; ++k) {
        acc += static_cast<R>(x[k]);
      }
      return acc / static_cast<R>(n);
    }
  }
};
/// A row's minimum (@p High false) or maximum: the first NaN when there is one, the identity
/// (extreme()) when empty.
template <bool High>
struct RowExtreme {
  template <class T>
  T operator()(const T* x, index_t n) const {
    const index_t k =
        High ? best_position(x, n, std::greater<>{}) : best_position(x, n, std::less<>{});
    return k < 0 ? extreme<T>(!High) : x[k];
  }
};
/// A row's range (maximum less minimum; NaN when it holds one), 0 when empty.
struct RowPtp {
  template <class T>
  T operator()(const T* x, index_t n) const {
    if (n == 0) {
      return T{};
    }
    T lo = x[0];
    T hi = x[0];
    for (index_t k = 1; k < n; ++k) {
      lo = extreme_of(lo, x[k], false);
      hi = extreme_of(hi, x[k], true);
    }
    return static_cast<T>(hi - lo);
  }
};
/// A row's variance in R (row_variance()), or its square root when @p Root.
template <class R, bool Root = false>
struct RowVariance {
  index_t ddof = 0;
  template <class T>
  R operator()(const T* x, index_t n) const {
    const R v = row_variance<R>(x, n, ddof);
    if constexpr (Root) {
      return std::sqrt(v);
    } else {
      return v;
    }
  }
};
/// A row's number of elements.
struct RowCount {
  template <class T>
  index_t operator()(const T* /*x*/, index_t n) const {
    return n;
  }
};

/// Whether a tree is a jagged expression (a concept, so overloads taking one are preferred to
/// the dense ones of reduce.hpp).
template <class E>
concept JaggedNode = jagged_v<E>;

}  // namespace detail

/// A jagged expression: an expression with a JaggedTensor operand (it evaluates into a
/// JaggedTensor).
template <class E>
concept JaggedExpression = Expression<E> && detail::JaggedNode<E>;

/// Evaluates a jagged expression into a new JaggedTensor of its element type (or @p T), row by
/// row in one pass: `auto y = strata::evaluate_jagged(jt * 2 + 1)`.
/// @param e the expression
/// @param policy seq or par (rows split between threads by their sizes)
/// @return the tensor
/// @throws ShapeError when its jagged operands differ in shape (naming the first differing
///         row); BroadcastError when a dense operand does not broadcast along the rows
template <class T = void, JaggedExpression E, ExecutionPolicy P = Parallel>
auto evaluate_jagged(const E& e, const P& policy = P{}) {
  using V = std::conditional_t<std::is_void_v<T>, typename E::value_type, T>;
  JaggedTensor<V> out(detail::jagged_shape_of(e));
  detail::evaluate_jagged(out, e, policy);
  return out;
}

/// Prints a jagged expression's values (it is evaluated).
/// @param stream the stream
/// @param jagged the jagged expression
/// @return @p stream
template <JaggedExpression J>
std::ostream& operator<<(std::ostream& stream, const J& jagged) {
  return stream << evaluate_jagged(jagged);
}

/// `f` applied to every element of a jagged tensor, lazily (a jagged expression).
/// @param t the tensor
/// @param f the function
/// @return the expression
template <class T, class F>
auto map(const JaggedTensor<T>& t, F f) {
  return apply(std::move(f), t);
}

// ---- compound assignment -------------------------------------------------------------------

/// `t += x` in place: x a jagged tensor of the same shape, a dense tensor broadcast along the
/// rows, a scalar or an expression.
/// @param t the tensor
/// @param x the operand
/// @return @p t
/// @throws ShapeError, BroadcastError as evaluation; nothing is written then
template <class T, class X>
JaggedTensor<T>& operator+=(JaggedTensor<T>& t, const X& x) {
  detail::evaluate_jagged(t, t + x, par);
  return t;
}
/// `t -= x` in place.
/// @param t the tensor
/// @param x the operand
/// @return @p t
/// @throws ShapeError, BroadcastError as evaluation; nothing is written then
template <class T, class X>
JaggedTensor<T>& operator-=(JaggedTensor<T>& t, const X& x) {
  detail::evaluate_jagged(t, t - x, par);
  return t;
}
/// `t *= x` in place.
/// @param t the tensor
/// @param x the operand
/// @return @p t
/// @throws ShapeError, BroadcastError as evaluation; nothing is written then
template <class T, class X>
JaggedTensor<T>& operator*=(JaggedTensor<T>& t, const X& x) {
  detail::evaluate_jagged(t, t * x, par);
  return t;
}
/// `t /= x` in place.
/// @param t the tensor
/// @param x the operand
/// @return @p t
/// @throws ShapeError, BroadcastError as evaluation; nothing is written then
template <class T, class X>
JaggedTensor<T>& operator/=(JaggedTensor<T>& t, const X& x) {
  detail::evaluate_jagged(t, t / x, par);
  return t;
}

// ---- reductions along the ragged modes -------------------------------------------------------

/// Reduces each row with `acc = op(acc, x)` from @p init, in the row's order: a dense tensor
/// over the outer modes (the custom reduction; each row is reduced by one thread, so the result
/// does not depend on the thread count).
/// @param t the tensor
/// @param init the initial value (the result for an empty row)
/// @param op the operation
/// @param policy seq or par
/// @return one value per row
template <class T, class V, class Op, ExecutionPolicy P = Parallel>
Tensor<V> reduce_rows(const JaggedTensor<T>& t, V init, Op op, const P& policy = P{}) {
  return detail::per_row<V>(t, policy, [&](index_t /*r*/, const T* x, index_t n) {
    V acc = init;
    for (index_t k = 0; k < n; ++k) {
      acc = op(acc, x[k]);
    }
    return acc;
  });
}

/// Sum of each row along the ragged modes (`np.sum(row)` per row; the same order as the dense
/// sum of a row): a dense tensor over the outer modes, 0 for an empty row. Along the outer
/// axis of a `n * var` tensor (`{0}`, awkward's `axis=0`), element k of the result combines
/// element k of every row that has one, in row order (a dense tensor as long as the longest
/// row); every reduction of jagged tensors takes either form.
/// @param t the tensor
/// @param axes the ragged modes (`{1}` for `n * var`; negative counts from the end), or `{0}`
///        for the outer axis of `n * var`
/// @param keepdims keep them with extent 1 (`[1, longest]` along the outer axis)
/// @return the sums
/// @throws ShapeError when the axes are neither all the ragged modes nor the outer axis of a
///         `n * var` tensor (an outer mode of another shape); IndexError when an axis does not
///         exist
template <class T>
Tensor<T> sum(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("sum", t.shape(), axes)) {
    return detail::outer_result(
        detail::fold_columns<T>(
            t, T{},
            [](T& a, const T& x, index_t /*r*/, index_t /*k*/) { a = static_cast<T>(a + x); }),
        keepdims);
  }
  return detail::ragged_reduction<T>("sum", t, axes, keepdims, detail::RowSum{});
}
/// Product of each row along the ragged modes, 1 for an empty row.
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep them with extent 1
/// @return the products
/// @throws ShapeError, IndexError as sum()
template <class T>
Tensor<T> prod(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("prod", t.shape(), axes)) {
    return detail::outer_result(
        detail::fold_columns<T>(
            t, T{1},
            [](T& a, const T& x, index_t /*r*/, index_t /*k*/) { a = static_cast<T>(a * x); }),
        keepdims);
  }
  return detail::ragged_reduction<T>("prod", t, axes, keepdims, detail::RowProd{});
}
/// Mean of each row along the ragged modes (in double for integers), NaN for an empty row as
/// NumPy's mean of an empty array.
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep them with extent 1
/// @return the means
/// @throws ShapeError, IndexError as sum()
template <class T>
auto mean(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  using R = detail::jagged_mean_t<T>;
  if (detail::outer_axis("mean", t.shape(), axes)) {
    const detail::OuterColumns columns{t};
    return detail::outer_result(detail::column_means<R>(columns, detail::column_counts(columns)),
                                keepdims);
  }
  return detail::ragged_reduction<R>("mean", t, axes, keepdims, detail::RowMean<R>{});
}
/// Minimum of each row along the ragged modes (NaN when the row holds one, as NumPy); an empty
/// row gives the identity, +infinity (the largest value for integers), as awkward-array's
/// `ak.min(..., mask_identity=False)`.
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep them with extent 1
/// @return the minima
/// @throws ShapeError, IndexError as sum()
template <class T>
Tensor<T> min(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("min", t.shape(), axes)) {
    return detail::outer_result(
        detail::fold_columns<T>(t, detail::extreme<T>(true),
                                [](T& a, const T& x, index_t /*r*/, index_t /*k*/) {
                                  a = detail::extreme_of(a, x, false);
                                }),
        keepdims);
  }
  return detail::ragged_reduction<T>("min", t, axes, keepdims, detail::RowExtreme<false>{});
}
/// Maximum of each row along the ragged modes (NaN when the row holds one, as NumPy); an empty
/// row gives the identity, -infinity (the lowest value for integers), as awkward-array's
/// `ak.max(..., mask_identity=False)`.
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep them with extent 1
/// @return the maxima
/// @throws ShapeError, IndexError as sum()
template <class T>
Tensor<T> max(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("max", t.shape(), axes)) {
    return detail::outer_result(
        detail::fold_columns<T>(t, detail::extreme<T>(false),
                                [](T& a, const T& x, index_t /*r*/, index_t /*k*/) {
                                  a = detail::extreme_of(a, x, true);
                                }),
        keepdims);
  }
  return detail::ragged_reduction<T>("max", t, axes, keepdims, detail::RowExtreme<true>{});
}
/// Position in each row (row-major inside the row) of its minimum, the first when it repeats
/// and the first NaN when there is one (NumPy's argmin); -1 for an empty row (awkward-array's
/// `ak.argmin(..., mask_identity=False)`).
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep them with extent 1
/// @return int64 positions
/// @throws ShapeError, IndexError as sum()
template <class T>
Tensor<index_t> argmin(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("argmin", t.shape(), axes)) {
    return detail::outer_result(detail::column_best(detail::OuterColumns{t}, std::less<>{}),
                                keepdims);
  }
  return detail::ragged_reduction<index_t>("argmin", t, axes, keepdims, [](const T* x, index_t n) {
    return detail::best_position(x, n, std::less<>{});
  });
}
/// Position in each row of its maximum, the first when it repeats and the first NaN when there
/// is one (NumPy's argmax); -1 for an empty row.
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep them with extent 1
/// @return int64 positions
/// @throws ShapeError, IndexError as sum()
template <class T>
Tensor<index_t> argmax(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("argmax", t.shape(), axes)) {
    return detail::outer_result(detail::column_best(detail::OuterColumns{t}, std::greater<>{}),
                                keepdims);
  }
  return detail::ragged_reduction<index_t>("argmax", t, axes, keepdims, [](const T* x, index_t n) {
    return detail::best_position(x, n, std::greater<>{});
  });
}

/// Sum of each row along one ragged axis (`sum(jt, 1)` for `n * var`), or along the outer
/// axis (`sum(jt, 0)`).
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the sums
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<T> sum(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return sum(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// Product of each row along one ragged axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the products
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<T> prod(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return prod(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// Mean of each row along one ragged axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the means
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
auto mean(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return mean(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// Minimum of each row along one ragged axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the minima
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<T> min(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return min(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// Maximum of each row along one ragged axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the maxima
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<T> max(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return max(t, Index{static_cast<index_t>(axis)}, keepdims);
}

/// The initial value of a minimum or maximum (NumPy's and awkward's `initial=`): the result
/// combines it with the values, so an empty row gives it. `min(jt, 1, strata::Initial{0.0})`.
template <class T>
struct Initial {
  T value;  ///< combined with every row's values
};
/// `Initial{0.0}` is an Initial<double> (a guide: clang 14 deduces no aggregate's arguments).
template <class T>
Initial(T) -> Initial<T>;

/// Minimum of each row along the ragged modes, or along the outer axis of `n * var` (`{0}`),
/// starting from @p initial (`np.min(row, initial=v)`, `ak.min(..., initial=v)`): the smaller of
/// it and the row's values, @p initial for an empty row, NaN when either is NaN.
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param initial the value to start from, of the tensor's type
/// @param keepdims keep them with extent 1
/// @return the minima
/// @throws ShapeError, IndexError as min()
template <class T>
Tensor<T> min(const JaggedTensor<T>& t, IndexSpan axes, Initial<T> initial, bool keepdims = false) {
  Tensor<T> out = min(t, axes, keepdims);
  T* const x = out.data();  // a new contiguous tensor
  for (index_t k = 0; k < out.size(); ++k) {
    x[k] = detail::extreme_of(initial.value, x[k], false);
  }
  return out;
}
/// Maximum of each row along the ragged modes, or along the outer axis of `n * var` (`{0}`),
/// starting from @p initial (`np.max(row, initial=v)`, `ak.max(..., initial=v)`): the larger of
/// it and the row's values, @p initial for an empty row, NaN when either is NaN.
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param initial the value to start from, of the tensor's type
/// @param keepdims keep them with extent 1
/// @return the maxima
/// @throws ShapeError, IndexError as max()
template <class T>
Tensor<T> max(const JaggedTensor<T>& t, IndexSpan axes, Initial<T> initial, bool keepdims = false) {
  Tensor<T> out = max(t, axes, keepdims);
  T* const x = out.data();  // a new contiguous tensor
  for (index_t k = 0; k < out.size(); ++k) {
    x[k] = detail::extreme_of(initial.value, x[k], true);
  }
  return out;
}
/// min() from @p initial along one ragged axis, or along the outer axis of `n * var` (`0`).
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param initial the value to start from, of the tensor's type
/// @param keepdims keep it with extent 1
/// @return the minima
/// @throws ShapeError, IndexError as the axes overload of min()
template <class T, std::integral A>
Tensor<T> min(const JaggedTensor<T>& t, A axis, Initial<T> initial, bool keepdims = false) {
  return min(t, Index{static_cast<index_t>(axis)}, initial, keepdims);
}
/// max() from @p initial along one ragged axis, or along the outer axis of `n * var` (`0`).
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param initial the value to start from, of the tensor's type
/// @param keepdims keep it with extent 1
/// @return the maxima
/// @throws ShapeError, IndexError as the axes overload of max()
template <class T, std::integral A>
Tensor<T> max(const JaggedTensor<T>& t, A axis, Initial<T> initial, bool keepdims = false) {
  return max(t, Index{static_cast<index_t>(axis)}, initial, keepdims);
}
/// Position of each row's minimum along one ragged axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return int64 positions
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<index_t> argmin(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return argmin(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// Position of each row's maximum along one ragged axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return int64 positions
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<index_t> argmax(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return argmax(t, Index{static_cast<index_t>(axis)}, keepdims);
}

// ---- more reductions: var, std, count, count_nonzero, any, all, ptp ----------------------------

/// Variance of each row along the ragged modes (`np.var(row, ddof=...)` per row; two passes,
/// in double for integers), or along the outer axis of a `n * var` tensor (`{0}`: position k
/// of the result over the rows that have an element k, awkward's `axis=0`). Divides by the
/// count less @p ddof: an empty row gives NaN, a count at or below ddof inf or NaN, as NumPy.
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param ddof the degrees of freedom (Ddof{1}: the sample variance)
/// @param keepdims keep the reduced axes with extent 1
/// @return the variances
/// @throws ShapeError when the axes are neither all ragged modes nor the outer axis of a
///         `n * var` tensor; IndexError when an axis does not exist
template <class T>
auto var(const JaggedTensor<T>& t, IndexSpan axes, Ddof ddof = {}, bool keepdims = false) {
  using R = detail::jagged_mean_t<T>;
  if (detail::outer_axis("var", t.shape(), axes)) {
    return detail::outer_result(detail::column_variance<R>(detail::OuterColumns{t}, ddof.value),
                                keepdims);
  }
  return detail::ragged_reduction<R>("var", t, axes, keepdims, detail::RowVariance<R>{ddof.value});
}
/// Standard deviation of each row along the ragged modes, or along the outer axis of a
/// `n * var` tensor: the square roots of var().
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param ddof the degrees of freedom
/// @param keepdims keep the reduced axes with extent 1
/// @return the standard deviations
/// @throws ShapeError, IndexError as var()
template <class T>
auto std(const JaggedTensor<T>& t, IndexSpan axes, Ddof ddof = {}, bool keepdims = false) {
  auto out = var(t, axes, ddof, keepdims);
  detail::square_root(out);
  return out;
}
/// The number of elements of each row along the ragged modes (awkward's `ak.count`: the row
/// lengths, or the product of a row's extents), or along the outer axis of a `n * var` tensor
/// (how many rows have an element at each position), as int64.
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep the reduced axes with extent 1
/// @return the counts
/// @throws ShapeError, IndexError as var()
template <class T>
Tensor<index_t> count(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("count", t.shape(), axes)) {
    return detail::outer_result(detail::column_counts(detail::OuterColumns{t}), keepdims);
  }
  return detail::ragged_reduction<index_t>("count", t, axes, keepdims, detail::RowCount{});
}
/// The number of non-zero elements of each row along the ragged modes, or along the outer
/// axis of a `n * var` tensor (`np.count_nonzero`; NaN is not zero), as int64.
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep the reduced axes with extent 1
/// @return the counts
/// @throws ShapeError, IndexError as var()
template <class T>
Tensor<index_t> count_nonzero(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("count_nonzero", t.shape(), axes)) {
    return detail::outer_result(
        detail::fold_columns<index_t>(
            t, index_t{0},
            [](index_t& c, const T& x, index_t /*r*/, index_t /*k*/) { c += x != T{} ? 1 : 0; }),
        keepdims);
  }
  return detail::ragged_reduction<index_t>("count_nonzero", t, axes, keepdims,
                                           [](const T* x, index_t n) {
                                             index_t c = 0;
                                             for (index_t k = 0; k < n; ++k) {
                                               c += x[k] != T{} ? 1 : 0;
                                             }
                                             return c;
                                           });
}
/// Whether any element of each row along the ragged modes is non-zero (false for an empty
/// row), or along the outer axis of a `n * var` tensor (`np.any`; NaN is not zero).
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep the reduced axes with extent 1
/// @return the answers
/// @throws ShapeError, IndexError as var()
template <class T>
Tensor<bool> any(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("any", t.shape(), axes)) {
    return detail::outer_result(
        detail::fold_columns<bool>(
            t, false, [](bool& a, const T& x, index_t /*r*/, index_t /*k*/) { a = a || x != T{}; }),
        keepdims);
  }
  return detail::ragged_reduction<bool>("any", t, axes, keepdims, [](const T* x, index_t n) {
    return std::any_of(x, x + n, [](const T& v) { return v != T{}; });
  });
}
/// Whether every element of each row along the ragged modes is non-zero (true for an empty
/// row), or along the outer axis of a `n * var` tensor (`np.all`; spelt `strata::all(jt, 1)`,
/// as for dense tensors: strata::all is also the selector of a whole axis).
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep the reduced axes with extent 1
/// @return the answers
/// @throws ShapeError, IndexError as var()
template <class T>
Tensor<bool> all_of(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("all", t.shape(), axes)) {
    return detail::outer_result(
        detail::fold_columns<bool>(
            t, true, [](bool& a, const T& x, index_t /*r*/, index_t /*k*/) { a = a && x != T{}; }),
        keepdims);
  }
  return detail::ragged_reduction<bool>("all", t, axes, keepdims, [](const T* x, index_t n) {
    return std::all_of(x, x + n, [](const T& v) { return v != T{}; });
  });
}
/// The range (maximum less minimum) of each row along the ragged modes, or along the outer axis
/// of a `n * var` tensor (`np.ptp`; NaN when the row holds one). An empty row gives 0, as
/// awkward's `ak.ptp(..., mask_identity=False)` (strata has no missing values yet).
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep the reduced axes with extent 1
/// @return the ranges
/// @throws ShapeError, IndexError as var()
template <class T>
Tensor<T> ptp(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("ptp", t.shape(), axes)) {
    return detail::outer_result(detail::column_ptp(detail::OuterColumns{t}), keepdims);
  }
  return detail::ragged_reduction<T>("ptp", t, axes, keepdims, detail::RowPtp{});
}

/// Variance of each row along one axis (`var(jt, 1)`; `var(jt, 0)`: along the outer axis).
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param ddof the degrees of freedom
/// @param keepdims keep it with extent 1
/// @return the variances
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
auto var(const JaggedTensor<T>& t, A axis, Ddof ddof = {}, bool keepdims = false) {
  return var(t, Index{static_cast<index_t>(axis)}, ddof, keepdims);
}
/// Standard deviation of each row along one axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param ddof the degrees of freedom
/// @param keepdims keep it with extent 1
/// @return the standard deviations
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
auto std(const JaggedTensor<T>& t, A axis, Ddof ddof = {}, bool keepdims = false) {
  return strata::std(t, Index{static_cast<index_t>(axis)}, ddof, keepdims);
}
/// The number of elements of each row along one axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the counts
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<index_t> count(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return count(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// The number of non-zero elements of each row along one axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the counts
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<index_t> count_nonzero(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return count_nonzero(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// Whether any element of each row along one axis is non-zero.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the answers
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<bool> any(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return any(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// Whether every element of each row along one axis is non-zero (`strata::all(jt, 1)`).
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the answers
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<bool> all_of(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return all_of(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// The range of each row along one axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the ranges
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<T> ptp(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return ptp(t, Index{static_cast<index_t>(axis)}, keepdims);
}

/// Sum of every element of a jagged tensor.
/// @param t the tensor
/// @return the sum
template <class T>
T sum(const JaggedTensor<T>& t) {
  return sum(t.values());
}
/// Mean of every element of a jagged tensor (NaN when it is empty).
/// @param t the tensor
/// @return the mean
template <class T>
auto mean(const JaggedTensor<T>& t) {
  return mean(t.values());
}

/// A reduction of a jagged expression along its ragged modes: the expression is evaluated into
/// a JaggedTensor (one pass), then reduced (`sum(exp(jt - m), 1)`).
/// @param jagged the jagged expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return one value per row
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto sum(const J& jagged, A axis, bool keepdims = false) {
  return sum(evaluate_jagged(jagged), axis, keepdims);
}
/// Maximum of each row of a jagged expression.
/// @param jagged the jagged expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return one value per row
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto max(const J& jagged, A axis, bool keepdims = false) {
  return max(evaluate_jagged(jagged), axis, keepdims);
}
/// Minimum of each row of a jagged expression.
/// @param jagged the jagged expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return one value per row
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto min(const J& jagged, A axis, bool keepdims = false) {
  return min(evaluate_jagged(jagged), axis, keepdims);
}
/// Product of each row of a jagged expression (evaluated first), or per position along the outer
/// axis.
/// @param jagged the jagged expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the results
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto prod(const J& jagged, A axis, bool keepdims = false) {
  return prod(evaluate_jagged(jagged), axis, keepdims);
}
/// Range (maximum less minimum) of each row of a jagged expression (evaluated first), or per
/// position along the outer axis.
/// @param jagged the jagged expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the results
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto ptp(const J& jagged, A axis, bool keepdims = false) {
  return ptp(evaluate_jagged(jagged), axis, keepdims);
}
/// Position of the minimum of each row of a jagged expression (evaluated first), or per position
/// along the outer axis.
/// @param jagged the jagged expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the results
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto argmin(const J& jagged, A axis, bool keepdims = false) {
  return argmin(evaluate_jagged(jagged), axis, keepdims);
}
/// Position of the maximum of each row of a jagged expression (evaluated first), or per position
/// along the outer axis.
/// @param jagged the jagged expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the results
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto argmax(const J& jagged, A axis, bool keepdims = false) {
  return argmax(evaluate_jagged(jagged), axis, keepdims);
}
/// Number of elements of each row of a jagged expression (evaluated first), or per position along
/// the outer axis.
/// @param jagged the jagged expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the results
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto count(const J& jagged, A axis, bool keepdims = false) {
  return count(evaluate_jagged(jagged), axis, keepdims);
}
/// Number of non-zero elements of each row of a jagged expression (evaluated first), or per
/// position along the outer axis.
/// @param jagged the jagged expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the results
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto count_nonzero(const J& jagged, A axis, bool keepdims = false) {
  return count_nonzero(evaluate_jagged(jagged), axis, keepdims);
}
/// Whether any element is non-zero, per row of a jagged expression (evaluated first), or per
/// position along the outer axis.
/// @param jagged the jagged expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the results
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto any(const J& jagged, A axis, bool keepdims = false) {
  return any(evaluate_jagged(jagged), axis, keepdims);
}
/// Whether every element is non-zero, per row of a jagged expression (evaluated first; spelt
/// `strata::all(jt > 0, 1)`), or per position along the outer axis.
/// @param jagged the jagged expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the results
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto all_of(const J& jagged, A axis, bool keepdims = false) {
  return all_of(evaluate_jagged(jagged), axis, keepdims);
}
/// Variance of each row of a jagged expression (evaluated first), or per position along the
/// outer axis.
/// @param jagged the jagged expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param ddof the degrees of freedom
/// @param keepdims keep it with extent 1
/// @return the variances
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto var(const J& jagged, A axis, Ddof ddof = {}, bool keepdims = false) {
  return var(evaluate_jagged(jagged), axis, ddof, keepdims);
}
/// Standard deviation of each row of a jagged expression (evaluated first), or per position
/// along the outer axis.
/// @param jagged the jagged expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param ddof the degrees of freedom
/// @param keepdims keep it with extent 1
/// @return the standard deviations
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto std(const J& jagged, A axis, Ddof ddof = {}, bool keepdims = false) {
  return strata::std(evaluate_jagged(jagged), axis, ddof, keepdims);
}
/// Mean of each row of a jagged expression.
/// @param jagged the jagged expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return one value per row
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto mean(const J& jagged, A axis, bool keepdims = false) {
  return mean(evaluate_jagged(jagged), axis, keepdims);
}

}  // namespace strata
