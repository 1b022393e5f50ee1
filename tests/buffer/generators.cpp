// Tests for strata/buffer/generators.hpp: counter-based random values.
#include "strata/buffer/generators.hpp"
#include "check_error.hpp"

#include <catch2/catch.hpp>

#include <cmath>

namespace test_buffer_generators {

using strata::Distribution;
using strata::RandomFunction;

TEST_CASE("RandomFunction is a pure function of seed and address", "[buffer]") {
  const RandomFunction u{7, Distribution::uniform};
  CHECK(u(123) == u(123));
  CHECK(u(123) != u(124));
  CHECK(u(123) != RandomFunction{8, Distribution::uniform}(123));
  SECTION("uniform values lie in [0, 1) with mean near 1/2") {
    double total = 0;
    for (strata::index_t i = 0; i < 100000; ++i) {
      const double v = u(i);
      REQUIRE(v >= 0.0);
      REQUIRE(v < 1.0);
      total += v;
    }
    CHECK(std::abs(total / 100000 - 0.5) < 0.01);
  }
  SECTION("normal values have mean near 0 and variance near 1") {
    const RandomFunction n{7, Distribution::normal};
    double total = 0;
    double squares = 0;
    for (strata::index_t i = 0; i < 100000; ++i) {
      const double v = n(i);
      REQUIRE(std::isfinite(v));
      total += v;
      squares += v * v;
    }
    CHECK(std::abs(total / 100000) < 0.02);
    CHECK(std::abs(squares / 100000 - 1.0) < 0.03);
  }
}

TEST_CASE("a generator buffer rejects a negative size", "[buffer][errors]") {
  strata::test::check_error<strata::ShapeError>(
      [] { (void)strata::GeneratorBuffer<int, int (*)(strata::index_t)>(-5, nullptr); },
      "GeneratorBuffer", "-5");
}

}  // namespace test_buffer_generators
