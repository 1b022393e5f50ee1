/// @file
/// Operators that build lazy expressions: `+ - * / %`, unary `-`, comparisons, the mask
/// operators `& | ^ ~` and the logical ones, minimum, maximum, clip, where, user functions
/// (map, zip_with, apply, astype); compound assignment into views. The math functions are in
/// strata/expr/functions.hpp.
#pragma once

#include "strata/expr/evaluate.hpp"
#include "strata/expr/expression.hpp"
#include "strata/expr/functions.hpp"
#include "strata/select/where.hpp"  // minimum, maximum, where of same-typed tensors

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

namespace strata {

namespace detail {

/// `a * b` is a product (sparse evaluation keeps the zeros of a sparse factor).
template <class C>
inline constexpr bool is_product_v<Converting<C, std::multiplies<>>> = true;

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
          return negate(x);
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
  return detail::binary<C, C>("operator%", detail::CMod{}, a, b);
}
/// Element-wise `-a` (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto operator-(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  auto f = [](T x) { return detail::negate(x); };
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
  static_assert(!is_complex_v<detail::combined_t<A, B>>,
                "strata::operator<: complex numbers have no order (== and != compare them)");
  return detail::binary<bool, detail::combined_t<A, B>>("operator<", std::less<>{}, a, b);
}
/// Element-wise `a <= b` (lazy, bool).
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto operator<=(const A& a, const B& b) {
  static_assert(!is_complex_v<detail::combined_t<A, B>>,
                "strata::operator<=: complex numbers have no order (== and != compare them)");
  return detail::binary<bool, detail::combined_t<A, B>>("operator<=", std::less_equal<>{}, a, b);
}
/// Element-wise `a > b` (lazy, bool).
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto operator>(const A& a, const B& b) {
  static_assert(!is_complex_v<detail::combined_t<A, B>>,
                "strata::operator>: complex numbers have no order (== and != compare them)");
  return detail::binary<bool, detail::combined_t<A, B>>("operator>", std::greater<>{}, a, b);
}
/// Element-wise `a >= b` (lazy, bool).
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto operator>=(const A& a, const B& b) {
  static_assert(!is_complex_v<detail::combined_t<A, B>>,
                "strata::operator>=: complex numbers have no order (== and != compare them)");
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
          is_number_v<std::remove_cvref_t<A>> || is_number_v<std::remove_cvref_t<B>>)) auto
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
          is_number_v<std::remove_cvref_t<A>> || is_number_v<std::remove_cvref_t<B>>)) auto
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

namespace detail {

/// Whether an operand is a mask: a bool tensor, selection or expression, or a bool scalar.
template <class X>
inline constexpr bool is_mask_v = std::is_same_v<typename node_t<X>::value_type, bool>;

/// The check every mask operator makes, with the message a user reads.
template <class A, class B>
constexpr void check_masks() {
  static_assert(is_mask_v<A> && is_mask_v<B>,
                "strata: & | ^ ~ are mask operators on bool tensors and expressions; make a mask "
                "with a comparison (x != 0) or strata::astype<bool>(x) first");
  static_assert(!std::is_same_v<std::remove_cvref_t<A>, bool> &&
                    !std::is_same_v<std::remove_cvref_t<B>, bool>,
                "strata: a mask operator on one bool. If it is `a == b` of two tensors, that "
                "compares them whole: write strata::equal(a, b) for the element-wise mask");
}

}  // namespace detail

/// Element-wise and of two masks (lazy, bool), NumPy's `m1 & m2` on bool arrays.
/// @param a, b bool tensors, selections or expressions (a comparison, isnan(x), ...)
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto operator&(const A& a, const B& b) {
  detail::check_masks<A, B>();
  return detail::binary<bool, bool>("operator&", std::bit_and<>{}, a, b);
}
/// Element-wise or of two masks (lazy, bool), NumPy's `m1 | m2`.
/// @param a, b bool tensors, selections or expressions
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto operator|(const A& a, const B& b) {
  detail::check_masks<A, B>();
  return detail::binary<bool, bool>("operator|", std::bit_or<>{}, a, b);
}
/// Element-wise exclusive or of two masks (lazy, bool), NumPy's `m1 ^ m2`.
/// @param a, b bool tensors, selections or expressions
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto operator^(const A& a, const B& b) {
  detail::check_masks<A, B>();
  return detail::binary<bool, bool>("operator^", std::not_equal_to<>{}, a, b);
}
/// Element-wise negation of a mask (lazy, bool), NumPy's `~m` on a bool array.
/// @param a a bool tensor, selection or expression
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto operator~(const A& a) {
  detail::check_masks<A, A>();
  return detail::unary("operator~", a, [](bool x) -> bool { return !x; });
}
/// Element-wise logical and of any operands (lazy, bool), `numpy.logical_and`: non-zero is
/// true.
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto logical_and(const A& a, const B& b) {
  return detail::binary<bool, bool>("logical_and", std::logical_and<>{}, a, b);
}
/// Element-wise logical or of any operands (lazy, bool), `numpy.logical_or`.
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto logical_or(const A& a, const B& b) {
  return detail::binary<bool, bool>("logical_or", std::logical_or<>{}, a, b);
}
/// Element-wise logical exclusive or of any operands (lazy, bool), `numpy.logical_xor`.
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto logical_xor(const A& a, const B& b) {
  return detail::binary<bool, bool>("logical_xor", std::not_equal_to<>{}, a, b);
}
/// Element-wise logical not of any operand (lazy, bool), `numpy.logical_not`: zero is true.
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto logical_not(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  return detail::unary("logical_not", a, [](T x) -> bool { return !static_cast<bool>(x); });
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
          is_number_v<std::remove_cvref_t<A>>)&&...) auto apply(F f, const A&... args) {
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
  static_assert(is_complex_v<U> || !is_complex_v<typename detail::node_t<A>::value_type>,
                "strata::astype: complex to a real type would drop the imaginary part; say "
                "which part: strata::real(x), strata::imag(x) or strata::abs(x)");
  auto f = [](const auto& x) { return detail::number_cast<U>(x); };
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

// ---- minimum, maximum, clip, where ----------------------------------------------------------

namespace detail {

/// Whether minimum, maximum or where of these operands is an expression rather than the lazy
/// selection of strata/select/where.hpp: their element types differ (NumPy promotes them),
/// or one is a JaggedTensor (a jagged expression).
template <class A, class B>
inline constexpr bool mixed_types_v =
    !std::is_same_v<typename node_t<A>::value_type, typename node_t<B>::value_type> ||
    is_jagged_tensor<std::remove_cvref_t<A>>::value ||
    is_jagged_tensor<std::remove_cvref_t<B>>::value;

}  // namespace detail

/// Element-wise minimum of two operands, broadcasting (lazy; NaN propagates, as
/// `numpy.minimum`), in the combined element type. Two tensors or selections of one element
/// type give the lazy selection of strata/select/where.hpp instead (assignable and reducible
/// as this expression is).
/// @param a, b operands: one an expression or a scalar, or of different element types
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires(detail::BinaryOperands<A, B> &&
         (detail::is_expression_v<A> || detail::is_expression_v<B> ||
          is_number_v<std::remove_cvref_t<A>> || is_number_v<std::remove_cvref_t<B>> ||
          detail::mixed_types_v<A, B>)) auto minimum(const A& a, const B& b) {
  using C = detail::combined_t<A, B>;
  static_assert(!is_complex_v<C>, "strata::minimum: complex numbers have no order");
  auto f = [](C x, C y) -> C {
    // NOLINTNEXTLINE(misc-redundant-expression): x != x is true only for NaN
    return detail::select(x != x, x, detail::select(y < x || y != y, y, x));
  };
  return detail::binary<C, C>("minimum", f, a, b);
}
/// Element-wise maximum of two operands, broadcasting (lazy; NaN propagates), in the combined
/// element type; see minimum().
/// @param a, b operands: one an expression or a scalar, or of different element types
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires(detail::BinaryOperands<A, B> &&
         (detail::is_expression_v<A> || detail::is_expression_v<B> ||
          is_number_v<std::remove_cvref_t<A>> || is_number_v<std::remove_cvref_t<B>> ||
          detail::mixed_types_v<A, B>)) auto maximum(const A& a, const B& b) {
  using C = detail::combined_t<A, B>;
  static_assert(!is_complex_v<C>, "strata::maximum: complex numbers have no order");
  auto f = [](C x, C y) -> C {
    // NOLINTNEXTLINE(misc-redundant-expression): x != x is true only for NaN
    return detail::select(x != x, x, detail::select(x < y || y != y, y, x));
  };
  return detail::binary<C, C>("maximum", f, a, b);
}
/// Element-wise `min(max(a, lo), hi)`, broadcasting (lazy), `numpy.clip`: in the combined type
/// of the three (`clip(int_tensor, 0.5, 2.5)` is double); where `lo > hi` every element is
/// `hi`, as the formula and NumPy say; NaN stays NaN.
/// @param a the operand
/// @param lo the lower bound (operand or scalar)
/// @param hi the upper bound (operand or scalar)
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class L, class H>
requires(detail::UnaryOperand<A> &&
         (detail::is_operand_v<L> || is_number_v<std::remove_cvref_t<L>>)&&(
             detail::is_operand_v<H> ||
             is_number_v<std::remove_cvref_t<H>>)) auto clip(const A& a, const L& lo, const H& hi) {
  using C = typename detail::combined3<A, L, H>::type;
  static_assert(!is_complex_v<C>, "strata::clip: complex numbers have no order");
  auto f = [](auto x, auto l, auto h) {
    const C v = static_cast<C>(x);
    const C low = static_cast<C>(l);
    const C high = static_cast<C>(h);
    const C raised = detail::select(v < low, low, v);  // NaN stays
    return detail::select(high < raised, high, raised);
  };
  return MapExpr<C, decltype(f), detail::node_t<A>, detail::node_t<L>, detail::node_t<H>>(
      "clip", f, detail::as_expression(a), detail::as_expression(lo), detail::as_expression(hi));
}
/// Chooses `a` where the mask is true and `b` elsewhere, broadcasting the three (lazy),
/// `numpy.where(mask, a, b)`, in the combined type of a and b. With tensors and selections of
/// one element type only it is the lazy selection of strata/select/where.hpp.
/// @param mask an operand convertible to bool (a comparison, a tensor)
/// @param a the values where it is true
/// @param b the values where it is false
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class M, class A, class B>
requires(detail::is_operand_v<M> &&
         (detail::is_operand_v<A> || is_number_v<std::remove_cvref_t<A>>)&&(
             detail::is_operand_v<B> ||
             is_number_v<std::remove_cvref_t<B>>)&&(detail::is_expression_v<M> ||
                                                    detail::is_expression_v<A> ||
                                                    detail::is_expression_v<B> ||
                                                    is_number_v<std::remove_cvref_t<A>> ||
                                                    is_number_v<std::remove_cvref_t<B>> ||
                                                    detail::mixed_types_v<A, B> ||
                                                    detail::is_jagged_tensor<std::remove_cvref_t<
                                                        M>>::value)) auto where(const M& mask,
                                                                                const A& a,
                                                                                const B& b) {
  using C = detail::combined_t<A, B>;
  auto f = [](auto m, auto x, auto y) {
    return detail::select(static_cast<bool>(m), detail::number_cast<C>(x),
                          detail::number_cast<C>(y));
  };
  return MapExpr<C, decltype(f), detail::node_t<M>, detail::node_t<A>, detail::node_t<B>>(
      "where", f, detail::as_expression(mask), detail::as_expression(a), detail::as_expression(b));
}
/// A single bool as where's mask: a compile error with a hint (`a == b` of two tensors
/// compares them whole; strata::equal(a, b) is the element-wise mask).
/// @param mask a bool
/// @param a, b the values
/// @return never (does not compile)
template <class A, class B>
auto where(bool mask, const A& a, const B& b) {
  static_assert(sizeof(A) == 0,
                "strata::where: the mask is one bool. If it is `a == b` of two tensors, that "
                "compares them whole: write strata::equal(a, b) for the element-wise mask");
  return (void)mask, (void)a, (void)b;
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
         (detail::is_operand_v<X> || is_number_v<std::remove_cvref_t<X>>)) Tensor<T>
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
         (detail::is_operand_v<X> || is_number_v<std::remove_cvref_t<X>>)) Tensor<T>
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
         (detail::is_operand_v<X> || is_number_v<std::remove_cvref_t<X>>)) Tensor<T>
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
         (detail::is_operand_v<X> || is_number_v<std::remove_cvref_t<X>>)) Tensor<T>
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
         (detail::is_operand_v<X> || is_number_v<std::remove_cvref_t<X>>)) Tensor<T>
&operator%=(Tensor<T>& t, const X& x) {
  return detail::compound(t, x, [](const auto& a, const auto& b) { return a % b; });
}
/// `t += x` through a temporary view: `u.select(...) += x`.
/// @param t the view (writable)
/// @param x an operand
/// @throws BroadcastError, LayoutError as assignment
template <class T, class X>
requires(!std::is_const_v<T> &&
         (detail::is_operand_v<X> || is_number_v<std::remove_cvref_t<X>>)) void
operator+=(Tensor<T>&& t, const X& x) {
  t += x;
}
/// `t -= x` through a temporary view.
/// @param t the view (writable)
/// @param x an operand
/// @throws BroadcastError, LayoutError as assignment
template <class T, class X>
requires(!std::is_const_v<T> &&
         (detail::is_operand_v<X> || is_number_v<std::remove_cvref_t<X>>)) void
operator-=(Tensor<T>&& t, const X& x) {
  t -= x;
}
/// `t *= x` through a temporary view.
/// @param t the view (writable)
/// @param x an operand
/// @throws BroadcastError, LayoutError as assignment
template <class T, class X>
requires(!std::is_const_v<T> &&
         (detail::is_operand_v<X> || is_number_v<std::remove_cvref_t<X>>)) void
operator*=(Tensor<T>&& t, const X& x) {
  t *= x;
}
/// `t /= x` through a temporary view.
/// @param t the view (writable)
/// @param x an operand
/// @throws BroadcastError, LayoutError as assignment
template <class T, class X>
requires(!std::is_const_v<T> &&
         (detail::is_operand_v<X> || is_number_v<std::remove_cvref_t<X>>)) void
operator/=(Tensor<T>&& t, const X& x) {
  t /= x;
}

/// `t %= x` through a temporary view.
/// @param t the view (writable)
/// @param x an integer operand
/// @throws BroadcastError, LayoutError as assignment
template <class T, class X>
requires(!std::is_const_v<T> && std::is_integral_v<T> &&
         (detail::is_operand_v<X> || is_number_v<std::remove_cvref_t<X>>)) void
operator%=(Tensor<T>&& t, const X& x) {
  t %= x;
}

}  // namespace strata
