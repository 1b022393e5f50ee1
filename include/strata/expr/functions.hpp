/// @file
/// NumPy's element-wise functions as lazy expressions: math (sqrt, exp, log and their
/// relatives, trigonometry), rounding, NaN tests, integer arithmetic as NumPy defines it
/// (true_divide, floor_divide, mod, fmod), and the two-operand functions (pow, arctan2, hypot).
/// Each broadcasts, fuses with its neighbours into one pass, and follows one type rule: see
/// the table on the expressions design page.
#pragma once

#include "strata/expr/expression.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

namespace strata {

namespace detail {

/// The floating type a math function computes in: the element type when it is floating or
/// complex, double for integers and bool (as NumPy).
template <class T>
using math_t = std::conditional_t<std::is_floating_point_v<T> || is_complex_v<T>, T, double>;

/// A function NumPy defines for real numbers only (rounding, floor, ceil, mod, arctan2, hypot,
/// the ordering ones): a compile error for a complex element type @p T.
template <class T>
constexpr void refuse_complex() {
  static_assert(!is_complex_v<T>,
                "strata: this function is not defined for complex numbers (NumPy refuses them "
                "too); apply it to strata::real(x) or strata::imag(x)");
}

/// The node of a math function: the operand converted to its math type, then @p f.
template <class A, class F>
auto math_unary(std::string name, const A& a, F f) {
  using M = math_t<typename node_t<A>::value_type>;
  return unary(std::move(name), a, [f](auto x) { return f(static_cast<M>(x)); });
}

/// A math function defined for real numbers only: the operand converted to its math type,
/// then @p f (a compile error for complex operands).
template <class A, class F>
auto real_math_unary(std::string name, const A& a, F f) {
  refuse_complex<typename node_t<A>::value_type>();
  return math_unary(std::move(name), a, f);
}

/// `-x` defined for every value: the most negative integer negates to itself (wrapping, as
/// NumPy), where C++'s `-x` would be undefined.
template <class T>
constexpr T negate(T x) noexcept {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return static_cast<T>(std::make_unsigned_t<T>{0} - static_cast<std::make_unsigned_t<T>>(x));
  } else {
    return static_cast<T>(-x);
  }
}

/// Python's floor division, as `numpy.floor_divide`: integers round toward minus infinity, and
/// `x // 0` is 0 (NumPy: 0 with a warning), the most negative value // -1 itself (wrapping);
/// floats follow NumPy's `npy_divmod` (`x // 0.0` is x / 0.0: an infinity or NaN).
struct FloorDivide {
  template <class X>
  constexpr X operator()(X a, X b) const noexcept {
    if constexpr (std::is_integral_v<X>) {
      if (b == 0) {
        return X{0};
      }
      if constexpr (std::is_signed_v<X>) {
        if (b == X{-1}) {
          return negate(a);
        }
        X q = static_cast<X>(a / b);
        if (static_cast<X>(a % b) != 0 && ((a < 0) != (b < 0))) {
          --q;
        }
        return q;
      } else {
        return static_cast<X>(a / b);
      }
    } else {
      const X mod = std::fmod(a, b);
      if (b == 0) {
        return a / b;
      }
      X div = (a - mod) / b;
      if (mod != 0 && ((b < 0) != (mod < 0))) {
        div -= X{1};
      }
      if (div == 0) {
        return std::copysign(X{0}, a / b);
      }
      X floor_div = std::floor(div);
      if (div - floor_div > X{0.5}) {
        floor_div += X{1};
      }
      return floor_div;
    }
  }
};

/// Python's remainder, as `numpy.mod`: the sign of the divisor. Integers: `x mod 0` is 0;
/// floats: `x mod 0.0` is NaN.
struct PythonMod {
  template <class X>
  constexpr X operator()(X a, X b) const noexcept {
    if constexpr (std::is_integral_v<X>) {
      if (b == 0 || (std::is_signed_v<X> && b == static_cast<X>(-1))) {
        return X{0};
      }
      X r = static_cast<X>(a % b);
      if constexpr (std::is_signed_v<X>) {
        if (r != 0 && ((r < 0) != (b < 0))) {
          r = static_cast<X>(r + b);
        }
      }
      return r;
    } else {
      X r = std::fmod(a, b);
      if (b == 0) {
        return r;  // NaN
      }
      if (r != 0) {
        if ((b < 0) != (r < 0)) {
          r += b;
        }
      } else {
        r = std::copysign(X{0}, b);
      }
      return r;
    }
  }
};

/// C's remainder, as `numpy.fmod`: the sign of the dividend; `x fmod 0` is 0 for integers
/// (NumPy: 0 with a warning) and NaN for floats.
struct CMod {
  template <class X>
  constexpr X operator()(X a, X b) const noexcept {
    if constexpr (std::is_integral_v<X>) {
      if (b == 0 || (std::is_signed_v<X> && b == static_cast<X>(-1))) {
        return X{0};
      }
      return static_cast<X>(a % b);
    } else {
      return std::fmod(a, b);
    }
  }
};

/// Integer power by repeated squaring, wrapping as NumPy's; negative exponents give 0 except
/// for bases 1 and -1 (NumPy refuses them), and 0 ** 0 is 1. Floats: std::pow.
struct Power {
  template <class C>
  constexpr C operator()(C x, C y) const noexcept {
    if constexpr (std::is_floating_point_v<C> || is_complex_v<C>) {
      return std::pow(x, y);
    } else if constexpr (std::is_same_v<C, bool>) {
      return x || !y;
    } else {
      using U = std::make_unsigned_t<C>;
      if constexpr (std::is_signed_v<C>) {
        if (y < 0) {
          return x == 1 ? C{1} : (x == C(-1) ? ((y % 2) == 0 ? C{1} : C(-1)) : C{0});
        }
      }
      // In 64 bits: narrower unsigned types would promote to int, whose products overflow.
      std::uint64_t result = 1;
      std::uint64_t base = static_cast<U>(x);
      std::uint64_t e = static_cast<U>(y);
      while (e != 0) {
        if ((e & 1U) != 0) {
          result *= base;
        }
        base *= base;
        e >>= 1U;
      }
      return static_cast<C>(result);
    }
  }
};

}  // namespace detail

// ---- math (floating results; integers and bool compute in double) -----------------------------

/// Element-wise absolute value (lazy; the element type is kept, as NumPy: the most negative
/// integer stays itself). Of a complex number its modulus, in the real type (complex128 gives
/// float64, as NumPy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto abs(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  return detail::unary("abs", a, [](T x) -> real_t<T> {
    if constexpr (is_complex_v<T>) {
      return std::abs(x);
    } else if constexpr (std::is_unsigned_v<T> || std::is_same_v<T, bool>) {
      return x;
    } else {
      return x < T{0} ? detail::negate(x) : x;
    }
  });
}
/// Element-wise square root (lazy; integers compute in double).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto sqrt(const A& a) {
  return detail::math_unary("sqrt", a, [](auto x) { return std::sqrt(x); });
}
/// Element-wise exponential (lazy; integers compute in double).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto exp(const A& a) {
  return detail::math_unary("exp", a, [](auto x) { return std::exp(x); });
}
/// Element-wise `exp(x) - 1`, accurate near 0 (lazy), `numpy.expm1`.
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto expm1(const A& a) {
  return detail::math_unary("expm1", a, [](auto x) {
    if constexpr (is_complex_v<decltype(x)>) {
      return std::exp(x) - decltype(x)(1);  // no complex expm1 in C++
    } else {
      return std::expm1(x);
    }
  });
}
/// Element-wise natural logarithm (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto log(const A& a) {
  return detail::math_unary("log", a, [](auto x) { return std::log(x); });
}
/// Element-wise `log(1 + x)`, accurate near 0 (lazy), `numpy.log1p`.
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto log1p(const A& a) {
  return detail::math_unary("log1p", a, [](auto x) {
    if constexpr (is_complex_v<decltype(x)>) {
      return std::log(decltype(x)(1) + x);  // no complex log1p in C++
    } else {
      return std::log1p(x);
    }
  });
}
/// Element-wise base-2 logarithm (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto log2(const A& a) {
  return detail::math_unary("log2", a, [](auto x) {
    if constexpr (is_complex_v<decltype(x)>) {
      using R = real_t<decltype(x)>;
      return std::log(x) / std::log(R{2});  // no complex log2 in C++
    } else {
      return std::log2(x);
    }
  });
}
/// Element-wise base-10 logarithm (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto log10(const A& a) {
  return detail::math_unary("log10", a, [](auto x) { return std::log10(x); });
}
/// Element-wise sine (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto sin(const A& a) {
  return detail::math_unary("sin", a, [](auto x) { return std::sin(x); });
}
/// Element-wise cosine (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto cos(const A& a) {
  return detail::math_unary("cos", a, [](auto x) { return std::cos(x); });
}
/// Element-wise tangent (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto tan(const A& a) {
  return detail::math_unary("tan", a, [](auto x) { return std::tan(x); });
}
/// Element-wise inverse sine (lazy), `numpy.arcsin`: NaN outside [-1, 1].
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto arcsin(const A& a) {
  return detail::math_unary("arcsin", a, [](auto x) { return std::asin(x); });
}
/// Element-wise inverse cosine (lazy), `numpy.arccos`: NaN outside [-1, 1].
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto arccos(const A& a) {
  return detail::math_unary("arccos", a, [](auto x) { return std::acos(x); });
}
/// Element-wise inverse tangent (lazy), `numpy.arctan`.
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto arctan(const A& a) {
  return detail::math_unary("arctan", a, [](auto x) { return std::atan(x); });
}
/// Element-wise hyperbolic sine (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto sinh(const A& a) {
  return detail::math_unary("sinh", a, [](auto x) { return std::sinh(x); });
}
/// Element-wise hyperbolic cosine (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto cosh(const A& a) {
  return detail::math_unary("cosh", a, [](auto x) { return std::cosh(x); });
}
/// Element-wise hyperbolic tangent (lazy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto tanh(const A& a) {
  return detail::math_unary("tanh", a, [](auto x) { return std::tanh(x); });
}

// ---- rounding ---------------------------------------------------------------------------------

/// Element-wise floor (lazy; integers give double, as NumPy 1.24's `floor`).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto floor(const A& a) {
  return detail::real_math_unary("floor", a, [](auto x) { return std::floor(x); });
}
/// Element-wise ceiling (lazy; integers give double, as NumPy).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto ceil(const A& a) {
  return detail::real_math_unary("ceil", a, [](auto x) { return std::ceil(x); });
}
/// Element-wise rounding toward zero (lazy; integers give double, as NumPy's `trunc`).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto trunc(const A& a) {
  return detail::real_math_unary("trunc", a, [](auto x) { return std::trunc(x); });
}
/// Element-wise rounding to the nearest integer, halves to even (lazy; integers give double,
/// as NumPy's `rint`: `rint(2.5)` is 2).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto rint(const A& a) {
  return detail::real_math_unary("rint", a, [](auto x) { return std::nearbyint(x); });
}
/// Element-wise rounding to the nearest integer, halves to even, as `numpy.round` with
/// `decimals=0` (lazy; integers are kept as they are, floats stay floats: `round(2.5)` is 2,
/// `round(-0.5)` is -0.0, not C's `std::round`).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto round(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  detail::refuse_complex<T>();
  return detail::unary("round", a, [](T x) -> T {
    if constexpr (std::is_floating_point_v<T>) {
      return std::nearbyint(x);
    } else {
      return x;
    }
  });
}

// ---- NaN and infinity ---------------------------------------------------------------------------

/// Element-wise test for NaN (lazy, bool; integers are never NaN).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto isnan(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  // NOLINTNEXTLINE(misc-redundant-expression): x != x is true only for NaN
  return detail::unary("isnan", a, [](T x) -> bool { return x != x; });
}
/// Element-wise test for an infinity (lazy, bool).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto isinf(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  return detail::unary("isinf", a, [](T x) -> bool {
    if constexpr (is_complex_v<T>) {  // either part, as NumPy
      using R = real_t<T>;
      constexpr R inf = std::numeric_limits<R>::infinity();
      return x.real() == inf || x.real() == -inf || x.imag() == inf || x.imag() == -inf;
    } else if constexpr (std::numeric_limits<T>::has_infinity) {
      return x == std::numeric_limits<T>::infinity() || x == -std::numeric_limits<T>::infinity();
    } else {
      return false;
    }
  });
}
/// Element-wise test for a finite value: neither NaN nor an infinity (lazy, bool). A stencil
/// that skips bad cells reads `where(isfinite(x), x, 0)`.
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto isfinite(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  return detail::unary("isfinite", a, [](T x) -> bool {
    if constexpr (is_complex_v<T>) {  // both parts, as NumPy
      // NOLINTNEXTLINE(misc-redundant-expression): x - x is NaN for NaN and infinities
      return x.real() - x.real() == 0 && x.imag() - x.imag() == 0;
    } else if constexpr (std::is_floating_point_v<T>) {
      // NOLINTNEXTLINE(misc-redundant-expression): x - x is NaN for NaN and infinities
      return x - x == T{0};
    } else {
      return true;
    }
  });
}
/// Replaces NaN by @p nan and the infinities by @p posinf and @p neginf, as
/// `numpy.nan_to_num` (lazy; the element type is kept; integers pass unchanged; the real and
/// imaginary parts of a complex number each, the replacements being real).
/// @param a the operand
/// @param nan the value for NaN
/// @param posinf the value for +inf (the largest finite value by default)
/// @param neginf the value for -inf (the lowest finite value by default)
/// @return the expression
template <class A, class T = real_t<typename detail::node_t<A>::value_type>>
requires detail::UnaryOperand<A>
auto nan_to_num(const A& a, T nan = T{0}, T posinf = std::numeric_limits<T>::max(),
                T neginf = std::numeric_limits<T>::lowest()) {
  const auto fix = [nan, posinf, neginf](T x) -> T {
    // NOLINTNEXTLINE(misc-redundant-expression): x != x is true only for NaN
    return x != x ? nan
                  : (x == std::numeric_limits<T>::infinity()
                         ? posinf
                         : (x == -std::numeric_limits<T>::infinity() ? neginf : x));
  };
  using V = typename detail::node_t<A>::value_type;
  if constexpr (is_complex_v<V>) {
    return detail::unary("nan_to_num", a,
                         [fix](V x) -> V { return V(fix(x.real()), fix(x.imag())); });
  } else if constexpr (std::is_floating_point_v<T>) {
    return detail::unary("nan_to_num", a, fix);
  } else {
    (void)fix;
    return detail::unary("nan_to_num", a, [](T x) -> T { return x; });
  }
}

// ---- element type kept ------------------------------------------------------------------------

/// Element-wise `x * x` (lazy; the element type is kept, as `numpy.square`).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto square(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  return detail::unary("square", a, [](T x) -> T {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      // Wrapping, as NumPy; in 64 bits (a narrower type would promote to int and overflow).
      const auto u = static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(x));
      return static_cast<T>(u * u);
    } else {
      return static_cast<T>(x * x);
    }
  });
}
/// Element-wise sign: -1, 0 or 1 in the element type (NaN stays NaN), `numpy.sign` (lazy).
/// @param a the operand (not bool: NumPy has no sign of bool either)
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto sign(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  static_assert(!std::is_same_v<T, bool>,
                "strata::sign: bool has no sign (NumPy refuses it too); convert with "
                "strata::astype<int>(x)");
  static_assert(!is_complex_v<T>,
                "strata::sign: the sign of a complex number differs between NumPy 1 and 2; "
                "write x / abs(x) (NumPy 2's) or sign(real(x))");
  return detail::unary("sign", a, [](T x) -> T {
    if constexpr (std::is_floating_point_v<T>) {
      // NOLINTNEXTLINE(misc-redundant-expression): x != x is true only for NaN
      return x != x ? x : static_cast<T>((T{0} < x) - (x < T{0}));
    } else {
      return static_cast<T>((T{0} < x) - (x < T{0}));
    }
  });
}

// ---- complex numbers --------------------------------------------------------------------------

/// Element-wise real part (lazy), `numpy.real`: complex128 gives float64, complex64 float32;
/// a real operand is its own real part. Read-only: NumPy's writable `a.real` view has no
/// counterpart (assign `t = x + imag_part * std::complex<double>(0, 1)` instead).
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto real(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  return detail::unary("real", a, [](T x) -> real_t<T> {
    if constexpr (is_complex_v<T>) {
      return x.real();
    } else {
      return x;
    }
  });
}
/// Element-wise imaginary part (lazy), `numpy.imag`: of the real type; 0 for a real operand.
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto imag(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  return detail::unary("imag", a, [](T x) -> real_t<T> {
    if constexpr (is_complex_v<T>) {
      return x.imag();
    } else {
      (void)x;
      return real_t<T>{0};
    }
  });
}
/// Element-wise complex conjugate (lazy), `numpy.conj`: the element type is kept; a real
/// operand is its own conjugate.
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto conj(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  return detail::unary("conj", a, [](T x) -> T {
    if constexpr (is_complex_v<T>) {
      return std::conj(x);
    } else {
      return x;
    }
  });
}
/// NumPy's other name for strata::conj.
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto conjugate(const A& a) {
  return conj(a);
}
/// Element-wise argument of a complex number in radians, `numpy.angle` (lazy): in the real
/// math type (complex64 gives float32; integers double); of a real x, 0 or pi as its sign.
/// @param a the operand
/// @return the expression
template <class A>
requires detail::UnaryOperand<A>
auto angle(const A& a) {
  using T = typename detail::node_t<A>::value_type;
  using R = real_t<detail::math_t<T>>;
  return detail::unary("angle", a, [](T x) -> R {
    if constexpr (is_complex_v<T>) {
      return std::arg(x);
    } else {
      return std::atan2(R{0}, static_cast<R>(x));
    }
  });
}

// ---- two operands -------------------------------------------------------------------------------

/// Element-wise power `a ** b`, broadcasting (lazy), `numpy.power`: `std::pow` in the combined
/// type when it is floating; for integers exact repeated squaring, wrapping as NumPy does.
/// A negative integer exponent gives 0 (bases 1 and -1 give 1 or -1), where NumPy raises
/// ValueError; 0 ** 0 is 1. The exponent may be a tensor.
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto pow(const A& a, const B& b) {
  using C = detail::combined_t<A, B>;
  return detail::binary<C, C>("pow", detail::Power{}, a, b);
}
/// NumPy's name for strata::pow.
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto power(const A& a, const B& b) {
  return pow(a, b);
}
/// Element-wise division giving a float, `numpy.true_divide` (Python's `/`): integers divide in
/// double (`1 / 0` is inf); floats as `a / b`.
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto true_divide(const A& a, const B& b) {
  using C = detail::math_t<detail::combined_t<A, B>>;
  return detail::binary<C, C>("true_divide", std::divides<>{}, a, b);
}
/// Element-wise floor division, `numpy.floor_divide` (Python's `//`): the quotient rounded
/// toward minus infinity, in the combined type. Integers: `x // 0` is 0 (NumPy: 0 with a
/// warning). Floats: NumPy's `npy_divmod`, so `floor_divide(-7.0, 0.0)` is -inf.
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto floor_divide(const A& a, const B& b) {
  using C = detail::combined_t<A, B>;
  detail::refuse_complex<C>();
  return detail::binary<C, C>("floor_divide", detail::FloorDivide{}, a, b);
}
/// Element-wise remainder with the sign of the divisor, `numpy.mod` (Python's `%`; C++'s `%`
/// takes the dividend's sign): `mod(-7, 2)` is 1. Integers: `mod(x, 0)` is 0; floats: NaN.
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto mod(const A& a, const B& b) {
  using C = detail::combined_t<A, B>;
  detail::refuse_complex<C>();
  return detail::binary<C, C>("mod", detail::PythonMod{}, a, b);
}
/// Element-wise remainder with the sign of the dividend, `numpy.fmod` (C's fmod; for integers
/// C++'s `%`): `fmod(-7, 2)` is -1. Integers: `fmod(x, 0)` is 0; floats: NaN.
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto fmod(const A& a, const B& b) {
  using C = detail::combined_t<A, B>;
  detail::refuse_complex<C>();
  return detail::binary<C, C>("fmod", detail::CMod{}, a, b);
}
/// Element-wise angle of the point (b, a), `numpy.arctan2(a, b)` (lazy; the combined type's
/// math type).
/// @param a the y coordinates
/// @param b the x coordinates
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto arctan2(const A& a, const B& b) {
  using C = detail::math_t<detail::combined_t<A, B>>;
  detail::refuse_complex<C>();
  return detail::binary<C, C>(
      "arctan2", [](C y, C x) { return std::atan2(y, x); }, a, b);
}
/// Element-wise `sqrt(a * a + b * b)` without overflow, `numpy.hypot` (lazy).
/// @param a, b operands
/// @return the expression
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::BinaryOperands<A, B>
auto hypot(const A& a, const B& b) {
  using C = detail::math_t<detail::combined_t<A, B>>;
  detail::refuse_complex<C>();
  return detail::binary<C, C>(
      "hypot", [](C x, C y) { return std::hypot(x, y); }, a, b);
}

}  // namespace strata
