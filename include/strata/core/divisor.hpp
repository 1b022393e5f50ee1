/// @file
/// Division by an invariant non-negative integer with a multiply and shifts (no divide).
#pragma once

#include "strata/core/error.hpp"
#include "strata/core/index.hpp"

#include <cstdint>

namespace strata {
namespace detail {
__extension__ using uint128 =
    unsigned __int128;  // GCC and Clang; __extension__ keeps -Wpedantic quiet
}  // namespace detail

/// Divides non-negative indices by a fixed positive divisor without a hardware divide.
///
/// Granlund and Montgomery's method ("Division by invariant integers using multiplication",
/// 1994) narrowed to the dividends strata has, `0 <= n < 2^63`: with `l = ceil(log2 d)` the
/// magic number `m = ceil(2^(63+l) / d)` fits in 64 bits, and `q = mulhi(m, 2n) >> l` is exact
/// (the rounding error `m d - 2^(63+l) < d <= 2^l` times `n < 2^63` stays below `2^(63+l)`):
/// one multiply, one add and one shift. Address kernels use it where a linear index is split
/// into per-axis indices at random.
///
/// @code
/// strata::Divisor by7(7);
/// by7.divide(100);     // 14
/// by7.remainder(100);  // 2
/// @endcode
class Divisor {
 public:
  /// Division by 1.
  constexpr Divisor() noexcept : Divisor(1) {}

  /// Prepares division by @p d (checked in every build: it is built once, outside loops).
  /// @param d the divisor, >= 1
  /// @throws ShapeError when d < 1 (a division by 0 or by a negative number)
  explicit constexpr Divisor(index_t d) : d_(static_cast<std::uint64_t>(d)) {
    if (d < 1) {
      detail::fail<ShapeError>("Divisor", "divisor ", d,
                               " is not positive (division by it is "
                               "undefined)");
    }
    int log = 0;  // ceil(log2(d))
    while ((std::uint64_t{1} << log) < d_ && log < 63) {
      ++log;
    }
    const detail::uint128 scaled = static_cast<detail::uint128>(1) << (63 + log);
    magic_ = static_cast<std::uint64_t>((scaled - 1) / d_ + 1);
    shift_ = log;
  }

  /// The divisor.
  /// @return d
  [[nodiscard]] constexpr index_t divisor() const noexcept { return static_cast<index_t>(d_); }

  /// `n / d` for `n >= 0`.
  /// @param n the dividend, non-negative
  /// @return the quotient
  [[nodiscard]] constexpr index_t divide(index_t n) const noexcept {
    const auto twice = static_cast<std::uint64_t>(n) << 1;
    return static_cast<index_t>(
        static_cast<std::uint64_t>((static_cast<detail::uint128>(magic_) * twice) >> 64) >> shift_);
  }

  /// `n % d` for `n >= 0`.
  /// @param n the dividend, non-negative
  /// @return the remainder
  [[nodiscard]] constexpr index_t remainder(index_t n) const noexcept {
    return n - divide(n) * static_cast<index_t>(d_);
  }

 private:
  std::uint64_t d_;
  std::uint64_t magic_ = 0;
  int shift_ = 0;
};

}  // namespace strata
