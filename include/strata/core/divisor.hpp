/// Division by an invariant non-negative integer with a multiply and shifts (no divide).
#pragma once

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
/// 1994, figure 4.1): a 65-bit magic number is kept as its low 64 bits, and
/// `q = (t + ((n - t) >> s1)) >> s2` with `t = mulhi(magic, n)` is exact for every 64-bit `n`.
/// Address kernels use it where a linear index is split into per-axis indices at random.
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

  /// Prepares division by @p d.
  /// @param d the divisor, >= 1 (unchecked: callers pass extents of non-empty axes)
  explicit constexpr Divisor(index_t d) noexcept : d_(static_cast<std::uint64_t>(d)) {
    int log = 0;  // ceil(log2(d))
    while ((std::uint64_t{1} << log) < d_ && log < 63) {
      ++log;
    }
    const detail::uint128 two_log = static_cast<detail::uint128>(1) << log;
    magic_ = static_cast<std::uint64_t>(((two_log - d_) << 64) / d_ + 1);
    shift1_ = log > 0 ? 1 : 0;
    shift2_ = log > 0 ? log - 1 : 0;
  }

  /// The divisor.
  /// @return d
  [[nodiscard]] constexpr index_t divisor() const noexcept { return static_cast<index_t>(d_); }

  /// `n / d` for `n >= 0`.
  /// @param n the dividend, non-negative
  /// @return the quotient
  [[nodiscard]] constexpr index_t divide(index_t n) const noexcept {
    const auto u = static_cast<std::uint64_t>(n);
    const auto t = static_cast<std::uint64_t>((static_cast<detail::uint128>(magic_) * u) >> 64);
    return static_cast<index_t>((t + ((u - t) >> shift1_)) >> shift2_);
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
  int shift1_ = 0;
  int shift2_ = 0;
};

}  // namespace strata
