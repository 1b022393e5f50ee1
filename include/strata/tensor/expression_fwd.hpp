/// @file
/// The hooks through which a Tensor accepts a lazy expression (defined in strata/expr/), so that
/// tensor/ does not include the layer above it.
#pragma once

#include <type_traits>

namespace strata {

template <class T>
class Tensor;
template <class T>
class JaggedTensor;
template <class T>
class Selection;
template <class T>
class LabelledTensor;

namespace detail {

/// The base of every expression node (strata/expr/expression.hpp).
struct ExpressionTag {};

/// Whether @p E is an expression node.
template <class E>
inline constexpr bool is_expression_v = std::is_base_of_v<ExpressionTag, std::remove_cvref_t<E>>;

/// Evaluates @p e (an expression, or a composite selection) into the writable view @p dst,
/// broadcasting it (defined in strata/expr/evaluate.hpp).
template <class T, class E>
void evaluate_expression(const Tensor<T>& dst, const E& e);

/// A new dense tensor holding @p e (defined in strata/expr/evaluate.hpp).
template <class T, class E>
Tensor<T> evaluated_expression(const E& e);

/// Whether an expression tree has a jagged leaf.
template <class E>
inline constexpr bool is_jagged_expression_v = is_expression_v<E>&& requires {
  requires std::remove_cvref_t<E>::jagged;
};

/// Evaluates the jagged expression @p e into @p dst, row by row (strata/expr/jagged.hpp).
template <class T, class E>
void evaluate_jagged_expression(JaggedTensor<T>& dst, const E& e);

/// A new JaggedTensor holding the jagged expression @p e (strata/expr/jagged.hpp).
template <class T, class E>
JaggedTensor<T> evaluated_jagged_expression(const E& e);

}  // namespace detail

/// A lazy element-wise expression over tensors, views, selections and scalars
/// (strata/expr/expression.hpp).
template <class E>
concept Expression = detail::is_expression_v<E>;

}  // namespace strata
