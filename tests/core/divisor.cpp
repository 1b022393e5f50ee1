// Tests for strata/core/divisor.hpp: exact against the hardware divide.
#include "strata/core/divisor.hpp"

#include <catch2/catch.hpp>

#include <limits>
#include <random>

namespace test_core_divisor {

using strata::Divisor;
using strata::index_t;

namespace {
constexpr index_t max_index = std::numeric_limits<index_t>::max();

void check_exact(index_t d, index_t n) {
  const Divisor by(d);
  INFO(n << " / " << d);
  REQUIRE(by.divide(n) == n / d);
  REQUIRE(by.remainder(n) == n % d);
}
}  // namespace

TEST_CASE("Divisor divides exactly like the hardware", "[core]") {
  STATIC_REQUIRE(Divisor(7).divide(100) == 14);
  STATIC_REQUIRE(Divisor(7).remainder(100) == 2);
  SECTION("edge divisors and dividends") {
    const index_t divisors[] = {1,
                                2,
                                3,
                                5,
                                7,
                                8,
                                10,
                                1000,
                                1024,
                                2047,
                                (1L << 31) - 1,
                                1L << 32,
                                (1L << 32) + 1,
                                (1L << 62) + 3,
                                max_index - 1,
                                max_index};
    const index_t dividends[] = {
        0, 1, 2, 6, 7, 8, 999, 1 << 20, (1L << 31) + 7, 1L << 40, max_index - 1, max_index};
    for (const index_t d : divisors) {
      for (const index_t n : dividends) {
        check_exact(d, n);
      }
      check_exact(d, d);
      check_exact(d, d - 1);
      if (d < max_index / 3) {
        check_exact(d, 3 * d - 1);
        check_exact(d, 3 * d);
      }
    }
  }
  SECTION("random divisors and dividends of every magnitude") {
    std::mt19937_64 rng(5);
    for (int i = 0; i < 200000; ++i) {
      const int bits_d = static_cast<int>(rng() % 63);
      const int bits_n = static_cast<int>(rng() % 64);
      const index_t d = std::max<index_t>(1, static_cast<index_t>(rng() >> (64 - bits_d - 1) >> 1));
      const index_t n = static_cast<index_t>((rng() >> 1) >> (63 - bits_n));
      check_exact(d, n);
    }
  }
}

TEST_CASE("a Divisor of 0 or less is a ShapeError, never a trap", "[core][errors]") {
  CHECK_THROWS_AS(Divisor(0), strata::ShapeError);
  CHECK_THROWS_WITH(Divisor(0), Catch::Matchers::Contains("Divisor: divisor 0 is not positive"));
  CHECK_THROWS_AS(Divisor(-3), strata::ShapeError);
  CHECK(Divisor(1).divide(5) == 5);
}

}  // namespace test_core_divisor
