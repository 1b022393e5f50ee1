// Tests for strata/core/checked.hpp.
#include "strata/core/checked.hpp"

#include "strata/core/error.hpp"

#include <catch2/catch.hpp>

#include <limits>

namespace test_core_checked {

using Catch::Matchers::Contains;
using strata::Index;
using strata::index_t;

namespace {
constexpr index_t max_index = std::numeric_limits<index_t>::max();
}

TEST_CASE("checked_size multiplies extents", "[core]") {
  CHECK(strata::checked_size(Index{}, "test") == 1);
  CHECK(strata::checked_size(Index{3, 4}, "test") == 12);
  CHECK(strata::checked_size(Index{2, 0, 5}, "test") == 0);
  CHECK(strata::checked_size(Index{1, 1, 1}, "test") == 1);
}

TEST_CASE("checked_size rejects negative extents", "[core]") {
  try {
    (void)strata::checked_size(Index{3, -1}, "zeros");
    FAIL("no exception");
  } catch (const strata::ShapeError& e) {
    CHECK(std::string(e.what()) == "zeros: shape [3 -1] has negative extent -1 on axis 1");
  }
}

TEST_CASE("checked_size rejects products that overflow int64", "[core]") {
  const index_t big = index_t{1} << 32;
  SECTION("a plain overflow") {
    CHECK_THROWS_AS(strata::checked_size(Index{big, big}, "reshape"), strata::ShapeError);
    CHECK_THROWS_WITH(
        strata::checked_size(Index{big, big}, "reshape"),
        Contains("reshape") && Contains("[4294967296 4294967296]") && Contains("int64"));
  }
  SECTION("an empty shape whose other extents overflow") {
    CHECK_THROWS_AS(strata::checked_size(Index{0, big, big}, "zeros"), strata::ShapeError);
  }
  SECTION("the largest representable size passes") {
    CHECK(strata::checked_size(Index{max_index}, "test") == max_index);
    CHECK(strata::checked_size(Index{1, max_index, 1}, "test") == max_index);
  }
}

TEST_CASE("checked_mul and checked_add detect overflow", "[core]") {
  CHECK(strata::checked_mul(-3, 4, "test") == -12);
  CHECK(strata::checked_add(-3, 4, "test") == 1);
  CHECK_THROWS_AS(strata::checked_mul(max_index, 2, "test"), strata::ShapeError);
  CHECK_THROWS_AS(strata::checked_add(max_index, 1, "test"), strata::ShapeError);
  CHECK_THROWS_WITH(strata::checked_mul(max_index, 2, "broadcast"), Contains("broadcast: "));
}

}  // namespace test_core_checked
