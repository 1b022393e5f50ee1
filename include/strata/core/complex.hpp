/// @file
/// Complex element types: which types strata treats as complex numbers (`std::complex<float>`
/// and `std::complex<double>`, NumPy's complex64 and complex128), their real type, and the
/// numbers an expression takes as scalars (arithmetic types and complex numbers).
#pragma once

#include <complex>
#include <type_traits>

namespace strata {

/// Whether @p T is a complex number, `std::complex<F>`.
template <class T>
inline constexpr bool is_complex_v = false;
/// `std::complex<F>` is complex.
template <class F>
inline constexpr bool is_complex_v<std::complex<F>> = true;

/// Whether @p T is a number an expression takes as a scalar: an arithmetic type or a complex
/// number (`x * 2.0`, `x * std::complex<double>(0, 1)`).
template <class T>
inline constexpr bool is_number_v = std::is_arithmetic_v<T> || is_complex_v<T>;

/// The real type of @p T: F for `std::complex<F>`, @p T itself otherwise (the element type of
/// `abs`, `real` and `imag` of a complex tensor).
template <class T>
struct real_type {
  using type = T;  ///< the real type
};
/// The real type of a complex number: its component type.
template <class F>
struct real_type<std::complex<F>> {
  using type = F;  ///< the component type
};
/// The real type of @p T (see real_type).
template <class T>
using real_t = typename real_type<T>::type;

namespace detail {

/// @p x converted to @p To as `static_cast` does, and to complex numbers too: a real value
/// becomes the real part, a complex number of another precision converts part by part (with no
/// narrowing warning: the conversion is asked for). Complex to real is not offered.
template <class To, class From>
constexpr To number_cast(const From& x) {
  if constexpr (is_complex_v<To>) {
    using R = real_t<To>;
    if constexpr (is_complex_v<From>) {
      return To(static_cast<R>(x.real()), static_cast<R>(x.imag()));
    } else {
      return To(static_cast<R>(x));
    }
  } else {
    return static_cast<To>(x);
  }
}

}  // namespace detail

}  // namespace strata
