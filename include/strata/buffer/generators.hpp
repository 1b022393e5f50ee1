/// @file
/// Generator buffers: elements computed from their address, never stored, read-only.
#pragma once

#include "strata/core/error.hpp"
#include "strata/core/index.hpp"

#include <cmath>
#include <cstdint>
#include <numbers>
#include <utility>

namespace strata {

/// A read-only buffer whose element `a` is `f(a)`: nothing is stored.
///
/// `zeros`, `ones`, `full`, `iota` and `random` tensors are views over one of these, so every
/// view of them (and every thread, in any order) reads the same values.
template <class T, class F>
class GeneratorBuffer {
 public:
  /// The element type.
  using value_type = T;
  /// Reads are pure function calls: safe from several threads at once.
  static constexpr bool concurrent_reads = true;

  /// A buffer of @p size elements computed by @p f.
  /// @param size the number of elements, >= 0
  /// @param f the function of the address (called concurrently: it must not modify state)
  /// @throws ShapeError for a negative size
  GeneratorBuffer(index_t size, F f) : size_(size), f_(std::move(f)) {
    if (size < 0) {
      detail::fail<ShapeError>("GeneratorBuffer", "negative size ", size);
    }
  }

  /// The number of elements.
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return size_; }
  /// Element @p address, computed.
  /// @param address in [0, size())
  /// @return `f(address)`
  [[nodiscard]] T read(index_t address) const { return static_cast<T>(f_(address)); }
  /// The generating function.
  /// @return f
  [[nodiscard]] const F& function() const noexcept { return f_; }

 private:
  index_t size_;
  F f_;
};

/// The distributions of strata::random.
enum class Distribution {
  uniform,  ///< uniform in [0, 1)
  normal,   ///< standard normal (mean 0, standard deviation 1)
};

namespace detail {

/// SplitMix64's finaliser: a bijective, well-mixed 64-bit hash.
constexpr std::uint64_t mix64(std::uint64_t x) noexcept {
  x ^= x >> 30U;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27U;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31U;
  return x;
}

/// A uniform double in [0, 1) from (seed, counter, stream): a pure function, no state.
constexpr double uniform01(std::uint64_t seed, std::uint64_t counter, std::uint64_t stream) {
  const std::uint64_t bits =
      mix64(mix64(seed ^ 0x9e3779b97f4a7c15ULL) + mix64(counter * 2 + stream + 1));
  return static_cast<double>(bits >> 11U) * 0x1.0p-53;
}

}  // namespace detail

/// The counter-based random function behind strata::random: element `a` depends only on
/// (seed, a), so it is the same whoever reads it, in any order, from any view.
struct RandomFunction {
  std::uint64_t seed = 0;                             ///< the seed
  Distribution distribution = Distribution::uniform;  ///< the distribution

  /// The value at an address.
  /// @param address the element's address
  /// @return a uniform [0, 1) or standard normal value
  [[nodiscard]] double operator()(index_t address) const noexcept {
    const auto counter = static_cast<std::uint64_t>(address);
    const double u1 = detail::uniform01(seed, counter, 0);
    if (distribution == Distribution::uniform) {
      return u1;
    }
    // Box-Muller with a second, independent stream; 1 - u1 is in (0, 1].
    const double u2 = detail::uniform01(seed, counter, 1);
    return std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }
};

}  // namespace strata
