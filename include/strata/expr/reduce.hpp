/// @file
/// Reductions and comparisons that take expressions: sum, prod, min, max, mean (all axes, one
/// axis or several), allclose and array_equal. The expression is evaluated once, in one pass,
/// then reduced with the deterministic kernels of tensor/algorithms.hpp.
#pragma once

#include "strata/expr/evaluate.hpp"
#include "strata/expr/expression.hpp"
#include "strata/tensor/algorithms.hpp"

#include <concepts>

namespace strata {

/// Sum of every element of an expression: a value (`double x = strata::sum(a * b)`).
/// @param e the expression
/// @return the sum
template <LazyOperand E>
auto sum(const E& e) {
  return sum(evaluate(e));
}
/// Sums of an expression along axes (`np.sum(e, axis=axes)`).
///
/// An expression that evaluates sparse (see evaluate(): `K * x` for a sparse K) is summed in
/// one pass over its sparse operands' entries, each value added as it is computed in row-major
/// order, with no temporary: `sum(K * x, 1)` is a sparse matrix times a vector in O(nnz).
/// @param e the expression
/// @param axes the axes; negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the sums
/// @throws IndexError when an axis does not exist; ShapeError when one is named twice
template <LazyOperand E>
auto sum(const E& e, IndexSpan axes, bool keepdims = false) {
  using V = typename E::value_type;
  if constexpr (Expression<E>) {
    // Sparse operands: combined as they are computed, over the stored entries only.
    if (auto r = detail::reduce_sparse<V>(e, axes, V{0}, std::plus<V>{}, keepdims)) {
      return *r;
    }
  }
  return sum(evaluate(e), axes, keepdims);
}
/// Sums of an expression along one axis.
/// @param e the expression
/// @param axis the axis; negative counts from the end
/// @param keepdims keep it with extent 1
/// @return the sums
/// @throws IndexError when the axis does not exist
template <LazyOperand E, std::integral A>
auto sum(const E& e, A axis, bool keepdims = false) {
  return sum(e, {static_cast<index_t>(axis)}, keepdims);
}
/// Product of every element of an expression.
/// @param e the expression
/// @return the product
template <LazyOperand E>
auto prod(const E& e) {
  return prod(evaluate(e));
}
/// Products of an expression along axes.
/// @param e the expression
/// @param axes the axes
/// @param keepdims keep reduced axes with extent 1
/// @return the products
/// @throws IndexError when an axis does not exist
template <LazyOperand E>
auto prod(const E& e, IndexSpan axes, bool keepdims = false) {
  return prod(evaluate(e), axes, keepdims);
}
/// The smallest element of an expression.
/// @param e the expression, not empty
/// @return the minimum
/// @throws ShapeError when it is empty
template <LazyOperand E>
auto min(const E& e) {
  return min(evaluate(e));
}
/// Minima of an expression along axes (`max(abs(a - b), {0})` and the like).
/// @param e the expression
/// @param axes the axes
/// @param keepdims keep reduced axes with extent 1
/// @return the minima
/// @throws IndexError when an axis does not exist
template <LazyOperand E>
auto min(const E& e, IndexSpan axes, bool keepdims = false) {
  return min(evaluate(e), axes, keepdims);
}
/// The largest element of an expression.
/// @param e the expression, not empty
/// @return the maximum
/// @throws ShapeError when it is empty
template <LazyOperand E>
auto max(const E& e) {
  return max(evaluate(e));
}
/// Maxima of an expression along axes.
/// @param e the expression
/// @param axes the axes
/// @param keepdims keep reduced axes with extent 1
/// @return the maxima
/// @throws IndexError when an axis does not exist
template <LazyOperand E>
auto max(const E& e, IndexSpan axes, bool keepdims = false) {
  return max(evaluate(e), axes, keepdims);
}
/// Maxima of an expression along one axis.
/// @param e the expression
/// @param axis the axis
/// @param keepdims keep it with extent 1
/// @return the maxima
/// @throws IndexError when the axis does not exist
template <LazyOperand E, std::integral A>
auto max(const E& e, A axis, bool keepdims = false) {
  return max(evaluate(e), axis, keepdims);
}
/// The mean of every element of an expression.
/// @param e the expression
/// @return the mean
template <LazyOperand E>
auto mean(const E& e) {
  return mean(evaluate(e));
}
/// Means of an expression along axes.
/// @param e the expression
/// @param axes the axes
/// @param keepdims keep reduced axes with extent 1
/// @return the means
/// @throws IndexError when an axis does not exist
template <LazyOperand E>
auto mean(const E& e, IndexSpan axes, bool keepdims = false) {
  return mean(evaluate(e), axes, keepdims);
}
/// Means of an expression along one axis.
/// @param e the expression
/// @param axis the axis
/// @param keepdims keep it with extent 1
/// @return the means
/// @throws IndexError when the axis does not exist
template <LazyOperand E, std::integral A>
auto mean(const E& e, A axis, bool keepdims = false) {
  return mean(evaluate(e), axis, keepdims);
}
/// Products of an expression along one axis.
/// @param e the expression
/// @param axis the axis
/// @param keepdims keep it with extent 1
/// @return the products
/// @throws IndexError when the axis does not exist
template <LazyOperand E, std::integral A>
auto prod(const E& e, A axis, bool keepdims = false) {
  return prod(evaluate(e), axis, keepdims);
}
/// Minima of an expression along one axis.
/// @param e the expression
/// @param axis the axis
/// @param keepdims keep it with extent 1
/// @return the minima
/// @throws IndexError when the axis does not exist
template <LazyOperand E, std::integral A>
auto min(const E& e, A axis, bool keepdims = false) {
  return min(evaluate(e), axis, keepdims);
}
/// allclose() where an operand is an expression (both are evaluated).
/// @param a, b operands (tensors or expressions), one an expression
/// @param rtol the relative tolerance
/// @param atol the absolute tolerance
/// @return true when every pair is close
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires(LazyOperand<A> || LazyOperand<B>) bool allclose(const A& a, const B& b, double rtol = 1e-5,
                                                         double atol = 1e-8) {
  return allclose(evaluate(detail::as_expression(a)), evaluate(detail::as_expression(b)), rtol,
                  atol);
}
/// array_equal() where an operand is an expression.
/// @param a, b operands (tensors or expressions), one an expression
/// @return true when the shapes and every element are equal
template <class A, class B>
requires(LazyOperand<A> || LazyOperand<B>) bool array_equal(const A& a, const B& b) {
  return array_equal(evaluate(detail::as_expression(a)), evaluate(detail::as_expression(b)));
}

}  // namespace strata
