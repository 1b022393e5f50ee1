/// @file
/// Operators and functions that build lazy expressions: `+ - * / %`, unary `-`, comparisons,
/// logical operators, abs, sqrt, exp, log, pow, sin, cos, tanh, floor, ceil, clip, minimum,
/// maximum, where, and user functions (map, zip_with, apply); compound assignment into views.
#pragma once

#include "strata/expr/evaluate.hpp"
#include "strata/expr/expression.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

namespace strata {

namespace detail {

/// Whether a binary operator between these operands builds an expression: at least one is an
/// expression, or a tensor / selection meets a scalar or another tensor / selection.
/// (Tensor == Tensor stays the whole-tensor equality of Tensor; use strata::equal.)
template <class A, class B>
inline constexpr bool builds_v =
    (is_operand_v<A> && (is_operand_v<B> || std::is_arithmetic_v<std::remove_cvref_t<B>>)) ||
    (is_operand_v<B> && std::is_arithmetic_v<std::remove_cvref_t<A>>);

template <class A, class B>
concept BinaryOperands = builds_v<A, B>;

template <class A>
concept UnaryOperand = is_operand_v<A>;

/// The element type of `op` applied to operands A and B: C++'s usual arithmetic conversions,
/// a scalar not widening a tensor of its own kind (see combined).
template <class A, class B>
using combined_t =
    typename combined<typename node_t<A>::value_type, typename node_t<B>::value_type,
                      is_scalar_node_v<node_t<A>>, is_scalar_node_v<node_t<B>>>::type;

/// A binary operation whose operands are converted to C before @p Op runs.
template <class C, class Op>
struct Converting {
  Op op;
  template <class X, class Y>
  constexpr auto operator()(X x, Y y) const {
    return op(static_cast<C>(x), static_cast<C>(y));
  }
};

/// `a * b` is a product (sparse evaluation keeps the zeros of a sparse factor).
template <class C>
inline constexpr bool is_product_v<Converting<C, std::multiplies<>>> = true;

/// Builds the node of a binary operation whose operands are converted to the combined type C
/// before @p op runs, and whose result has type R.
template <class R, class C, class Op, class A, class B>
auto binary(std::string name, Op op, const A& a, const B& b) {
  return MapExpr<R, Converting<C, Op>, node_t<A>, node_t<B>>(std::move(name), Converting<C, Op>{op},
                                                             as_expression(a), as_expression(b));
}

/// Integer division as C++ does it (truncating), but defined everywhere: x / 0 is 0 and the
/// most negative value / -1 is itself (wrapping), where C++ would have undefined behaviour.
struct Divide {
  template <class X>
  constexpr X operator()(X x, X y) const noexcept {
    if constexpr (std::is_integral_v<X>) {
      if (y == 0) {
        return X{0};
      }
      if constexpr (std::is_signed_v<X>) {
        if (y == X{-1}) {
          return static_cast<X>(X{0} - static_cast<std::make_unsigned_t<X>>(x));
        }
      }
    }
    return static_cast<X>(x / y);
  }
};

/// `m ? x : y` without a branch for 4- and 8-byte arithmetic types: both values are used, so
/// the compiler keeps both loads unconditional and can vectorise the loop (a branch would make
/// it sink one load under the condition, and a conditional load stops the vectoriser).
template <class C>
constexpr C select(bool m, C x, C y) noexcept {
  if constexpr (std::is_arithmetic_v<C> && (sizeof(C) == 4 || sizeof(C) == 8)) {
    using U = std::conditional_t<sizeof(C) == 4, std::uint32_t, std::uint64_t>;
    const U mask = U{0} - static_cast<U>(m);
    return std::bit_cast<C>(
        static_cast<U>((std::bit_cast<U>(x) & mask) | (std::bit_cast<U>(y) & ~mask)));
  } else {
    return m ? x : y;
  }
}

/// Integer remainder as C++ does it (sign of the dividend), defined everywhere: x % 0 is 0 and
/// x % -1 is 0.
struct Modulo {
  template <class X>
  constexpr X operator()(X x, X y) const noexcept {
    if (y == 0 || (std::is_signed_v<X> && y == static_cast<X>(-1))) {
      return X{0};
    }
    return static_cast<X>(x % y);
  }
};

}  // namespace detail

// ---- arithmetic ----------------------------------------------------------------------------

/// Element-wise `a + b`, broadcasting: a lazy expression (nothing is computed until it is
/// assigned or evaluated).
/// @param a, b tensors, views, selections, expressions or scalars
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast (naming both and the operator)
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto operator+(const A& a, const B& b) {
  using C = detail::combined_t<A, B>;
  return detail::binary<C, C>("operator+", std::plus<>{}, a, b);
}
/// Element-wise `a - b`, broadcasting (lazy).
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto operator-(const A& a, const B& b) {
  using C = detail::combined_t<A, B>;
  return detail::binary<C, C>("operator-", std::minus<>{}, a, b);
}
/// Element-wise `a * b`, broadcasting (lazy).
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto operator*(const A& a, const B& b) {
  using C = detail::combined_t<A, B>;
  return detail::binary<C, C>("operator*", std::multiplies<>{}, a, b);
}
/// Element-wise `a / b`, broadcasting (lazy). Integers divide as C++ does (truncating), and
/// division by zero is defined: it gives 0 (NumPy also gives 0, with a warning); the most
/// negative value divided by -1 wraps to itself.
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto operator/(const A& a, const B& b) {
  using C = detail::combined_t<A, B>;
  return detail::binary<C, C>("operator/", detail::Divide{}, a, b);
}
/// Element-wise `a % b` for integers, broadcasting (lazy): C++'s remainder (the sign of the
/// dividend); `x % 0` is 0.
/// @param a, b integer operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires(detail::BinaryOperands<A, B>&& std::is_integral_v<detail::combined_t<A, B>>) auto
operator%(const A& a, const B& b) {
  using C = detail::combined_t<A, B>;
  return detail::binary<C, C>("operator%", detail::Modulo{}, a, b);
}
/// Element-wise `-a` (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto operator-(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  auto f = [](T x) { return static_cast<T>(-x); };
  return MapExpr<T, decltype(f), detail::node_t<A>>("operator-", f, detail::as_expression(a));
}
/// Element-wise `+a`: the operand as an expression (lazy; `t = +u` copies u's values).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto operator+(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  auto f = [](T x) { return x; };
  return MapExpr<T, decltype(f), detail::node_t<A>>("operator+", f, detail::as_expression(a));
}

// ---- comparisons and logic (bool-valued, usable as where masks) ----------------------------

/// Element-wise `a < b` (lazy, bool).
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto operator<(const A& a, const B& b) {
  return detail::binary<bool, detail::combined_t<A, B>>("operator<", std::less<>{}, a, b);
}
/// Element-wise `a <= b` (lazy, bool).
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto operator<=(const A& a, const B& b) {
  return detail::binary<bool, detail::combined_t<A, B>>("operator<=", std::less_equal<>{}, a, b);
}
/// Element-wise `a > b` (lazy, bool).
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto operator>(const A& a, const B& b) {
  return detail::binary<bool, detail::combined_t<A, B>>("operator>", std::greater<>{}, a, b);
}
/// Element-wise `a >= b` (lazy, bool).
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto operator>=(const A& a, const B& b) {
  return detail::binary<bool, detail::combined_t<A, B>>("operator>=", std::greater_equal<>{}, a, b);
}
/// Element-wise equality (lazy, bool), NumPy's `a == b`. (Two Tensors compared with `==` are
/// compared whole, as values; strata::equal compares them element-wise.)
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires(detail::BinaryOperands<A, B> &&
         (detail::is_expression_v<A> || detail::is_expression_v<B> ||
          std::is_arithmetic_v<std::remove_cvref_t<A>> ||
          std::is_arithmetic_v<std::remove_cvref_t<B>>)) auto
operator==(const A& a, const B& b) {
  return detail::binary<bool, detail::combined_t<A, B>>("operator==", std::equal_to<>{}, a, b);
}
/// Element-wise inequality (lazy, bool); see operator==.
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires(detail::BinaryOperands<A, B> &&
         (detail::is_expression_v<A> || detail::is_expression_v<B> ||
          std::is_arithmetic_v<std::remove_cvref_t<A>> ||
          std::is_arithmetic_v<std::remove_cvref_t<B>>)) auto
operator!=(const A& a, const B& b) {
  return detail::binary<bool, detail::combined_t<A, B>>("operator!=", std::not_equal_to<>{}, a, b);
}
/// Element-wise equality of any operands, tensors included (lazy, bool): `np.equal`.
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto equal(const A& a, const B& b) {
  return detail::binary<bool, detail::combined_t<A, B>>("equal", std::equal_to<>{}, a, b);
}
/// Element-wise inequality of any operands, tensors included (lazy, bool): `np.not_equal`.
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto not_equal(const A& a, const B& b) {
  return detail::binary<bool, detail::combined_t<A, B>>("not_equal", std::not_equal_to<>{}, a, b);
}
/// Element-wise logical and (lazy, bool; both sides are evaluated), `np.logical_and`.
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto operator&&(const A& a, const B& b) {
  auto f = [](auto x, auto y) { return static_cast<bool>(x) && static_cast<bool>(y); };
  return MapExpr<bool, decltype(f), detail::node_t<A>, detail::node_t<B>>(
      "operator&&", f, detail::as_expression(a), detail::as_expression(b));
}
/// Element-wise logical or (lazy, bool; both sides are evaluated), `np.logical_or`.
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto operator||(const A& a, const B& b) {
  auto f = [](auto x, auto y) { return static_cast<bool>(x) || static_cast<bool>(y); };
  return MapExpr<bool, decltype(f), detail::node_t<A>, detail::node_t<B>>(
      "operator||", f, detail::as_expression(a), detail::as_expression(b));
}
/// Element-wise logical not (lazy, bool), `np.logical_not`.
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto operator!(const A& a) {
  auto f = [](auto x) { return !static_cast<bool>(x); };
  return MapExpr<bool, decltype(f), detail::node_t<A>>("operator!", f, detail::as_expression(a));
}

// ---- user functions --------------------------------------------------------------------------

/// Applies `f` element-wise to any number of operands, broadcast together (lazy): the n-ary
/// map of expressions. The result's element type is f's.
///
/// @code
/// auto e = strata::apply([](float x, float y, float z) { return x * y + z; }, a, b, 1.0F);
/// @endcode
/// @param f the function, called with one element of each operand
/// @param args tensors, views, selections, expressions or scalars
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class F, class... A>
requires((detail::is_operand_v<A> ||
          std::is_arithmetic_v<std::remove_cvref_t<A>>)&&...) auto apply(F f, const A&... args) {
  using R =
      std::remove_cvref_t<std::invoke_result_t<F&, typename detail::node_t<A>::value_type...>>;
  return MapExpr<R, F, detail::node_t<A>...>("apply", std::move(f), detail::as_expression(args)...);
}

/// Converts every element to U with `static_cast`, lazily: NumPy's `a.astype(U)`. The way to
/// combine element types the type rule does not cover, or to choose a narrower result
/// (`strata::astype<float>(d * 0.5)`).
/// @tparam U the new element type
/// @param a a tensor, view, selection or expression
/// @return the expression
template <class U, class A>
requires detail::UnaryOperand<A>
auto astype(const A& a) {
  auto f = [](const auto& x) { return static_cast<U>(x); };
  return MapExpr<U, decltype(f), detail::node_t<A>>("astype", f, detail::as_expression(a));
}

/// `map` of an expression: `f` applied element-wise, lazily (a Tensor argument keeps the eager
/// strata::map of algorithms.hpp).
/// @param e the expression
/// @param f the function
/// @return the expression
template <LazyOperand E, class F>
auto map(const E& e, F f) {
  return apply(std::move(f), e);
}

/// `zip_with` where an operand is an expression: `f(a, b)` element-wise, lazily.
/// @param a, b operands, at least one an expression
/// @param f the function
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B, class F>
requires(LazyOperand<A> || LazyOperand<B>) auto zip_with(const A& a, const B& b, F f) {
  return apply(std::move(f), a, b);
}

// ---- functions --------------------------------------------------------------------------------

namespace detail {

template <class A, class F>
auto unary(std::string name, const A& a, F f) {
  using T = typename node_t<A>::value_type;
  using R = std::remove_cvref_t<std::invoke_result_t<F&, T>>;
  return MapExpr<R, F, node_t<A>>(std::move(name), f, as_expression(a));
}

/// The floating type a math function computes in: the element type when it is floating,
/// double for integers (as NumPy).
template <class T>
using math_t = std::conditional_t<std::is_floating_point_v<T>, T, double>;

}  // namespace detail

/// Element-wise absolute value (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto abs(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  return detail::unary("abs", a, [](T x) -> T { return x < T{0} ? static_cast<T>(-x) : x; });
}
/// Element-wise square root (lazy; integers compute in double).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto sqrt(const A& a) {
  using M = detail::math_t<typename detail::node_t<A>::value_type>;
  return detail::unary("sqrt", a, [](auto x) { return std::sqrt(static_cast<M>(x)); });
}
/// Element-wise exponential (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto exp(const A& a) {
  using M = detail::math_t<typename detail::node_t<A>::value_type>;
  return detail::unary("exp", a, [](auto x) { return std::exp(static_cast<M>(x)); });
}
/// Element-wise natural logarithm (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto log(const A& a) {
  using M = detail::math_t<typename detail::node_t<A>::value_type>;
  return detail::unary("log", a, [](auto x) { return std::log(static_cast<M>(x)); });
}
/// Element-wise sine (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto sin(const A& a) {
  using M = detail::math_t<typename detail::node_t<A>::value_type>;
  return detail::unary("sin", a, [](auto x) { return std::sin(static_cast<M>(x)); });
}
/// Element-wise cosine (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto cos(const A& a) {
  using M = detail::math_t<typename detail::node_t<A>::value_type>;
  return detail::unary("cos", a, [](auto x) { return std::cos(static_cast<M>(x)); });
}
/// Element-wise hyperbolic tangent (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto tanh(const A& a) {
  using M = detail::math_t<typename detail::node_t<A>::value_type>;
  return detail::unary("tanh", a, [](auto x) { return std::tanh(static_cast<M>(x)); });
}
/// Element-wise floor (lazy; integers unchanged).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto floor(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  return detail::unary("floor", a, [](T x) -> T {
    if constexpr (std::is_floating_point_v<T>) {
      return std::floor(x);
    } else {
      return x;
    }
  });
}
/// Element-wise ceiling (lazy; integers unchanged).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto ceil(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  return detail::unary("ceil", a, [](T x) -> T {
    if constexpr (std::is_floating_point_v<T>) {
      return std::ceil(x);
    } else {
      return x;
    }
  });
}
/// Element-wise power `a ** b`, broadcasting (lazy): `std::pow` in the combined type
/// (floating), repeated multiplication for integers (negative exponents give 0, as C++'s
/// integer division would; 0 ** 0 is 1).
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto pow(const A& a, const B& b) {
  using C = detail::combined_t<A, B>;
  auto f = [](C x, C y) -> C {
    if constexpr (std::is_floating_point_v<C>) {
      return std::pow(x, y);
    } else {
      if (y < 0) {
        return x == 1 ? C{1} : (x == C(-1) ? ((-y) % 2 == 0 ? C{1} : C(-1)) : C{0});
      }
      C result = 1;
      C base = x;
      auto e = static_cast<std::make_unsigned_t<C>>(y);
      while (e != 0) {  // wrapping, as NumPy's integer power
        if ((e & 1U) != 0) {
          result = static_cast<C>(static_cast<std::make_unsigned_t<C>>(result) *
                                  static_cast<std::make_unsigned_t<C>>(base));
        }
        base = static_cast<C>(static_cast<std::make_unsigned_t<C>>(base) *
                              static_cast<std::make_unsigned_t<C>>(base));
        e >>= 1U;
      }
      return result;
    }
  };
  return detail::binary<C, C>("pow", f, a, b);
}
/// Element-wise minimum of two operands, broadcasting (lazy; NaN propagates, as
/// `numpy.minimum`). With two tensors or selections it is the lazy selection of
/// strata/select/where.hpp instead.
/// @param a, b operands, one an expression or a scalar
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires(detail::BinaryOperands<A, B> &&
         (detail::is_expression_v<A> || detail::is_expression_v<B> ||
          std::is_arithmetic_v<std::remove_cvref_t<A>> ||
          std::is_arithmetic_v<std::remove_cvref_t<B>>)) auto minimum(const A& a, const B& b) {
  using C = detail::combined_t<A, B>;
  auto f = [](C x, C y) -> C {
    // NOLINTNEXTLINE(misc-redundant-expression): x != x is true only for NaN
    return detail::select(x != x, x, detail::select(y < x || y != y, y, x));
  };
  return detail::binary<C, C>("minimum", f, a, b);
}
/// Element-wise maximum of two operands, broadcasting (lazy; NaN propagates).
/// @param a, b operands, one an expression or a scalar
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires(detail::BinaryOperands<A, B> &&
         (detail::is_expression_v<A> || detail::is_expression_v<B> ||
          std::is_arithmetic_v<std::remove_cvref_t<A>> ||
          std::is_arithmetic_v<std::remove_cvref_t<B>>)) auto maximum(const A& a, const B& b) {
  using C = detail::combined_t<A, B>;
  auto f = [](C x, C y) -> C {
    // NOLINTNEXTLINE(misc-redundant-expression): x != x is true only for NaN
    return detail::select(x != x, x, detail::select(x < y || y != y, y, x));
  };
  return detail::binary<C, C>("maximum", f, a, b);
}
/// Element-wise `min(max(a, lo), hi)`, broadcasting (lazy), `numpy.clip`.
/// @param a the operand
/// @param lo the lower bound (operand or scalar)
/// @param hi the upper bound (operand or scalar)
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class L, class H>
requires detail::UnaryOperand<A>
auto clip(const A& a, const L& lo, const H& hi) {
  using T = typename detail::node_t<A>::value_type;
  auto f = [](auto x, auto l, auto h) {
    const T v = static_cast<T>(x);
    const T low = static_cast<T>(l);
    const T high = static_cast<T>(h);
    return detail::select(v < low, low, detail::select(high < v, high, v));
  };
  return MapExpr<T, decltype(f), detail::node_t<A>, detail::node_t<L>, detail::node_t<H>>(
      "clip", f, detail::as_expression(a), detail::as_expression(lo), detail::as_expression(hi));
}
/// Chooses `a` where the mask is true and `b` elsewhere, broadcasting the three (lazy),
/// `numpy.where(mask, a, b)`, when an argument is an expression or a scalar (with tensors and
/// selections only it is the lazy selection of strata/select/where.hpp).
/// @param mask an operand convertible to bool (a comparison, a tensor)
/// @param a the values where it is true
/// @param b the values where it is false
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class M, class A, class B>
requires((detail::is_operand_v<M>)&&(
    detail::is_operand_v<A> ||
    std::is_arithmetic_v<std::remove_cvref_t<
        A>>)&&(detail::is_operand_v<B> ||
               std::is_arithmetic_v<std::remove_cvref_t<
                   B>>)&&(detail::is_expression_v<M> || detail::is_expression_v<A> ||
                          detail::is_expression_v<B> ||
                          std::is_arithmetic_v<std::remove_cvref_t<A>> ||
                          std::is_arithmetic_v<std::remove_cvref_t<B>>)) auto where(const M& mask,
                                                                                    const A& a,
                                                                                    const B& b) {
  using C = detail::combined_t<A, B>;
  auto f = [](auto m, auto x, auto y) {
    return detail::select(static_cast<bool>(m), static_cast<C>(x), static_cast<C>(y));
  };
  return MapExpr<C, decltype(f), detail::node_t<M>, detail::node_t<A>, detail::node_t<B>>(
      "where", f, detail::as_expression(mask), detail::as_expression(a), detail::as_expression(b));
}

// ---- compound assignment (in place, NumPy's `a += b`) --------------------------------------

namespace detail {

template <class T, class X, class Make>
Tensor<T>& compound(Tensor<T>& t, const X& x, Make&& make) {
  assign_expression(par, t, make(t, x));
  return t;
}

}  // namespace detail

/// `t += x` in place (NumPy's `a += b`): t's elements, broadcasting x to t's shape; a view
/// writes through. No copy: each element is read before it is written.
/// @param t the tensor or view (writable)
/// @param x a tensor, selection, expression or scalar
/// @return @p t
/// @throws BroadcastError, LayoutError as assignment; nothing is written then
template <class T, class X>
requires(!std::is_const_v<T> &&
         (detail::is_operand_v<X> || std::is_arithmetic_v<std::remove_cvref_t<X>>)) Tensor<T>
&operator+=(Tensor<T>& t, const X& x) {
  return detail::compound(t, x, [](const auto& a, const auto& b) { return a + b; });
}
/// `t -= x` in place.
/// @param t the tensor or view (writable)
/// @param x an operand
/// @return @p t
/// @throws BroadcastError, LayoutError as assignment
template <class T, class X>
requires(!std::is_const_v<T> &&
         (detail::is_operand_v<X> || std::is_arithmetic_v<std::remove_cvref_t<X>>)) Tensor<T>
&operator-=(Tensor<T>& t, const X& x) {
  return detail::compound(t, x, [](const auto& a, const auto& b) { return a - b; });
}
/// `t *= x` in place.
/// @param t the tensor or view (writable)
/// @param x an operand
/// @return @p t
/// @throws BroadcastError, LayoutError as assignment
template <class T, class X>
requires(!std::is_const_v<T> &&
         (detail::is_operand_v<X> || std::is_arithmetic_v<std::remove_cvref_t<X>>)) Tensor<T>
&operator*=(Tensor<T>& t, const X& x) {
  return detail::compound(t, x, [](const auto& a, const auto& b) { return a * b; });
}
/// `t /= x` in place.
/// @param t the tensor or view (writable)
/// @param x an operand
/// @return @p t
/// @throws BroadcastError, LayoutError as assignment
template <class T, class X>
requires(!std::is_const_v<T> &&
         (detail::is_operand_v<X> || std::is_arithmetic_v<std::remove_cvref_t<X>>)) Tensor<T>
&operator/=(Tensor<T>& t, const X& x) {
  return detail::compound(t, x, [](const auto& a, const auto& b) { return a / b; });
}
/// `t %= x` in place, for integers (the remainder of operator%, defined for 0).
/// @param t the tensor or view (writable)
/// @param x an integer operand
/// @return @p t
/// @throws BroadcastError, LayoutError as assignment
template <class T, class X>
requires(!std::is_const_v<T> && std::is_integral_v<T> &&
         (detail::is_operand_v<X> || std::is_arithmetic_v<std::remove_cvref_t<X>>)) Tensor<T>
&operator%=(Tensor<T>& t, const X& x) {
  return detail::compound(t, x, [](const auto& a, const auto& b) { return a % b; });
}
/// `t += x` through a temporary view: `u.select(...) += x`.
/// @param t the view (writable)
/// @param x an operand
/// @throws BroadcastError, LayoutError as assignment
template <class T, class X>
requires(!std::is_const_v<T> &&
         (detail::is_operand_v<X> || std::is_arithmetic_v<std::remove_cvref_t<X>>)) void
operator+=(Tensor<T>&& t, const X& x) {
  t += x;
}
/// `t -= x` through a temporary view.
/// @param t the view (writable)
/// @param x an operand
/// @throws BroadcastError, LayoutError as assignment
template <class T, class X>
requires(!std::is_const_v<T> &&
         (detail::is_operand_v<X> || std::is_arithmetic_v<std::remove_cvref_t<X>>)) void
operator-=(Tensor<T>&& t, const X& x) {
  t -= x;
}
/// `t *= x` through a temporary view.
/// @param t the view (writable)
/// @param x an operand
/// @throws BroadcastError, LayoutError as assignment
template <class T, class X>
requires(!std::is_const_v<T> &&
         (detail::is_operand_v<X> || std::is_arithmetic_v<std::remove_cvref_t<X>>)) void
operator*=(Tensor<T>&& t, const X& x) {
  t *= x;
}
/// `t /= x` through a temporary view.
/// @param t the view (writable)
/// @param x an operand
/// @throws BroadcastError, LayoutError as assignment
template <class T, class X>
requires(!std::is_const_v<T> &&
         (detail::is_operand_v<X> || std::is_arithmetic_v<std::remove_cvref_t<X>>)) void
operator/=(Tensor<T>&& t, const X& x) {
  t /= x;
}

/// `t %= x` through a temporary view.
/// @param t the view (writable)
/// @param x an integer operand
/// @throws BroadcastError, LayoutError as assignment
template <class T, class X>
requires(!std::is_const_v<T> && std::is_integral_v<T> &&
         (detail::is_operand_v<X> || std::is_arithmetic_v<std::remove_cvref_t<X>>)) void
operator%=(Tensor<T>&& t, const X& x) {
  t %= x;
}

}  // namespace strata
