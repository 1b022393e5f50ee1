/// @file
/// Jagged tensors in expressions and reductions: element-wise arithmetic between JaggedTensors
/// of one shape, with dense tensors broadcast along the rows and with scalars (any operator or
/// function of strata/expr/), evaluated row by row into a JaggedTensor; compound assignment;
/// and reductions along the ragged modes (sum, prod, mean, min, max, argmin, argmax, custom)
/// giving a dense tensor over the outer modes.
#pragma once

#include "strata/expr/evaluate.hpp"
#include "strata/expr/expression.hpp"
#include "strata/expr/operators.hpp"
#include "strata/parallel/for_each.hpp"
#include "strata/tensor/algorithms.hpp"
#include "strata/tensor/jagged_tensor.hpp"

#include <array>
#include <cmath>
#include <concepts>
#include <functional>
#include <limits>
#include <string_view>
#include <type_traits>

namespace strata {

namespace detail {

/// Writes a jagged expression into @p dst row by row: in row r every jagged leaf reads its
/// row's values (unit stride) and every dense leaf one value (its element at the row's outer
/// index). Rows are split between threads balanced by their sizes, so each element is computed
/// by the same code whatever the thread count.
template <class T, class E, ExecutionPolicy P>
void evaluate_jagged(JaggedTensor<T>& dst, const E& e, const P& policy) {
  constexpr std::size_t N = leaves_v<E>;
  Prepared prepared;
  prepared.jagged_mode = true;
  prepared.has_jagged = true;
  prepared.jagged_shape = dst.shape();
  prepared.shape = Index(dst.shape().outer_extents());
  prepared.destination = dst.buffer().identity();
  prepared.destination_first = dst.values().data();
  prepared.parallel = std::is_same_v<P, Parallel>;
  e.prepare(prepared);
  const std::span<const index_t> starts = dst.offsets();
  T* const out = dst.values().data();
  parallel::for_each_weighted_part(policy, starts, [&](index_t lo, index_t hi) {
    RunState<N> run;
    for (std::size_t m = 0; m < N; ++m) {
      run.data[m] = prepared.data[m];
      run.stride[m] = prepared.ragged[m] ? 1 : 0;
    }
    for (index_t r = lo; r < hi; ++r) {
      const index_t begin = starts[static_cast<std::size_t>(r)];
      const index_t count = starts[static_cast<std::size_t>(r) + 1] - begin;
      for (std::size_t m = 0; m < N; ++m) {
        run.start[m] = prepared.ragged[m] ? begin : prepared.maps[m].global_to_local(r);
      }
      const auto value = e.template bind<0, run_constant>(run);
      T* const o = out + begin;
      for (index_t t = 0; t < count; ++t) {
        o[t] = static_cast<T>(value(t));
      }
    }
  });
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
  JaggedTensor<T> out(jagged_shape_of(e));
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
                       "; a jagged tensor reduces along its ragged modes ", outer, "..", rank - 1,
                       " (use the dense result's reductions for the outer modes)");
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
  const T* values = t.values().data();
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
/// sum of a row): a dense tensor over the outer modes, 0 for an empty row.
/// @param t the tensor
/// @param axes the ragged modes (`{1}` for `n * var`; negative counts from the end)
/// @param keepdims keep them with extent 1
/// @return the sums
/// @throws ShapeError when an axis is an outer mode or the ragged modes are not all named;
///         IndexError when an axis does not exist
template <class T>
Tensor<T> sum(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  return detail::ragged_reduction<T>(
      "sum", t, axes, keepdims, [](const T* x, index_t n) { return detail::contiguous_sum(x, n); });
}
/// Product of each row along the ragged modes, 1 for an empty row.
/// @param t the tensor
/// @param axes the ragged modes
/// @param keepdims keep them with extent 1
/// @return the products
/// @throws ShapeError, IndexError as sum()
template <class T>
Tensor<T> prod(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  return detail::ragged_reduction<T>("prod", t, axes, keepdims, [](const T* x, index_t n) {
    T acc{1};
    for (index_t k = 0; k < n; ++k) {
      acc = acc * x[k];
    }
    return acc;
  });
}
/// Mean of each row along the ragged modes (in double for integers), NaN for an empty row as
/// NumPy's mean of an empty array.
/// @param t the tensor
/// @param axes the ragged modes
/// @param keepdims keep them with extent 1
/// @return the means
/// @throws ShapeError, IndexError as sum()
template <class T>
auto mean(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  using R = std::conditional_t<std::is_floating_point_v<T>, T, double>;
  return detail::ragged_reduction<R>("mean", t, axes, keepdims, [](const T* x, index_t n) {
    if constexpr (std::is_same_v<R, T>) {
      return detail::contiguous_sum(x, n) / static_cast<R>(n);
    } else {
      R acc{};
      for (index_t k = 0; k < n; ++k) {
        acc += static_cast<R>(x[k]);
      }
      return acc / static_cast<R>(n);
    }
  });
}
/// Minimum of each row along the ragged modes (NaN when the row holds one, as NumPy); an empty
/// row gives the identity, +infinity (the largest value for integers), as awkward-array's
/// `ak.min(..., mask_identity=False)`.
/// @param t the tensor
/// @param axes the ragged modes
/// @param keepdims keep them with extent 1
/// @return the minima
/// @throws ShapeError, IndexError as sum()
template <class T>
Tensor<T> min(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  return detail::ragged_reduction<T>("min", t, axes, keepdims, [](const T* x, index_t n) {
    const index_t k = detail::best_position(x, n, std::less<>{});
    return k < 0 ? detail::extreme<T>(true) : x[k];
  });
}
/// Maximum of each row along the ragged modes (NaN when the row holds one, as NumPy); an empty
/// row gives the identity, -infinity (the lowest value for integers), as awkward-array's
/// `ak.max(..., mask_identity=False)`.
/// @param t the tensor
/// @param axes the ragged modes
/// @param keepdims keep them with extent 1
/// @return the maxima
/// @throws ShapeError, IndexError as sum()
template <class T>
Tensor<T> max(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  return detail::ragged_reduction<T>("max", t, axes, keepdims, [](const T* x, index_t n) {
    const index_t k = detail::best_position(x, n, std::greater<>{});
    return k < 0 ? detail::extreme<T>(false) : x[k];
  });
}
/// Position in each row (row-major inside the row) of its minimum, the first when it repeats
/// and the first NaN when there is one (NumPy's argmin); -1 for an empty row (awkward-array's
/// `ak.argmin(..., mask_identity=False)`).
/// @param t the tensor
/// @param axes the ragged modes
/// @param keepdims keep them with extent 1
/// @return int64 positions
/// @throws ShapeError, IndexError as sum()
template <class T>
Tensor<index_t> argmin(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  return detail::ragged_reduction<index_t>("argmin", t, axes, keepdims, [](const T* x, index_t n) {
    return detail::best_position(x, n, std::less<>{});
  });
}
/// Position in each row of its maximum, the first when it repeats and the first NaN when there
/// is one (NumPy's argmax); -1 for an empty row.
/// @param t the tensor
/// @param axes the ragged modes
/// @param keepdims keep them with extent 1
/// @return int64 positions
/// @throws ShapeError, IndexError as sum()
template <class T>
Tensor<index_t> argmax(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  return detail::ragged_reduction<index_t>("argmax", t, axes, keepdims, [](const T* x, index_t n) {
    return detail::best_position(x, n, std::greater<>{});
  });
}

/// Sum of each row along one ragged axis (`sum(jt, 1)` for `n * var`).
/// @param t the tensor
/// @param axis the ragged axis
/// @param keepdims keep it with extent 1
/// @return the sums
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<T> sum(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return sum(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// Product of each row along one ragged axis.
/// @param t the tensor
/// @param axis the ragged axis
/// @param keepdims keep it with extent 1
/// @return the products
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<T> prod(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return prod(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// Mean of each row along one ragged axis.
/// @param t the tensor
/// @param axis the ragged axis
/// @param keepdims keep it with extent 1
/// @return the means
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
auto mean(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return mean(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// Minimum of each row along one ragged axis.
/// @param t the tensor
/// @param axis the ragged axis
/// @param keepdims keep it with extent 1
/// @return the minima
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<T> min(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return min(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// Maximum of each row along one ragged axis.
/// @param t the tensor
/// @param axis the ragged axis
/// @param keepdims keep it with extent 1
/// @return the maxima
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<T> max(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return max(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// Position of each row's minimum along one ragged axis.
/// @param t the tensor
/// @param axis the ragged axis
/// @param keepdims keep it with extent 1
/// @return int64 positions
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<index_t> argmin(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return argmin(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// Position of each row's maximum along one ragged axis.
/// @param t the tensor
/// @param axis the ragged axis
/// @param keepdims keep it with extent 1
/// @return int64 positions
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<index_t> argmax(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return argmax(t, Index{static_cast<index_t>(axis)}, keepdims);
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
/// @param axis the ragged axis
/// @param keepdims keep it with extent 1
/// @return one value per row
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto sum(const J& jagged, A axis, bool keepdims = false) {
  return sum(evaluate_jagged(jagged), axis, keepdims);
}
/// Maximum of each row of a jagged expression.
/// @param jagged the jagged expression
/// @param axis the ragged axis
/// @param keepdims keep it with extent 1
/// @return one value per row
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto max(const J& jagged, A axis, bool keepdims = false) {
  return max(evaluate_jagged(jagged), axis, keepdims);
}
/// Minimum of each row of a jagged expression.
/// @param jagged the jagged expression
/// @param axis the ragged axis
/// @param keepdims keep it with extent 1
/// @return one value per row
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto min(const J& jagged, A axis, bool keepdims = false) {
  return min(evaluate_jagged(jagged), axis, keepdims);
}
/// Mean of each row of a jagged expression.
/// @param jagged the jagged expression
/// @param axis the ragged axis
/// @param keepdims keep it with extent 1
/// @return one value per row
/// @throws ShapeError, IndexError as the JaggedTensor overload
template <JaggedExpression J, std::integral A>
auto mean(const J& jagged, A axis, bool keepdims = false) {
  return mean(evaluate_jagged(jagged), axis, keepdims);
}

}  // namespace strata
