// Tests for strata/core/error.hpp.
#include "strata/core/error.hpp"

#include <catch2/catch.hpp>

#include <type_traits>

namespace test_core_error {

TEST_CASE("every strata error derives from Error and std::runtime_error", "[core]") {
  STATIC_REQUIRE(std::is_base_of_v<std::runtime_error, strata::Error>);
  STATIC_REQUIRE(std::is_base_of_v<strata::Error, strata::ShapeError>);
  STATIC_REQUIRE(std::is_base_of_v<strata::Error, strata::IndexError>);
  STATIC_REQUIRE(std::is_base_of_v<strata::Error, strata::BroadcastError>);
  STATIC_REQUIRE(std::is_base_of_v<strata::Error, strata::LayoutError>);
  STATIC_REQUIRE(std::is_base_of_v<strata::Error, strata::TypeError>);
  STATIC_REQUIRE(std::is_base_of_v<strata::Error, strata::IOError>);
}

TEST_CASE("an error message names the operation first", "[core]") {
  const strata::ShapeError e("transpose", "permutation [0 0 2] repeats axis 0 (rank 3)");
  CHECK(std::string(e.what()) == "transpose: permutation [0 0 2] repeats axis 0 (rank 3)");
  CHECK(e.operation() == "transpose");
  CHECK(e.description() == "permutation [0 0 2] repeats axis 0 (rank 3)");
}

TEST_CASE("an error's description passes on under another operation's name", "[core]") {
  // A description that itself holds ": " keeps it; an empty one stays empty.
  const strata::IndexError inner("diagonal", "axis 5: out of range for rank 2");
  CHECK(inner.description() == "axis 5: out of range for rank 2");
  try {
    strata::detail::fail<strata::IndexError>("trace", inner.description());
    FAIL("fail returned");
  } catch (const strata::IndexError& e) {
    CHECK(std::string(e.what()) == "trace: axis 5: out of range for rank 2");
  }
  CHECK(strata::ShapeError("op", "").description().empty());
}

TEST_CASE("detail::fail throws the requested type with a streamed description", "[core]") {
  SECTION("IndexError") {
    try {
      strata::detail::fail<strata::IndexError>("at", "index ", 5, " is out of bounds for axis ", 0,
                                               " of extent ", 3);
      FAIL("fail returned");
    } catch (const strata::IndexError& e) {
      CHECK(std::string(e.what()) == "at: index 5 is out of bounds for axis 0 of extent 3");
      CHECK(e.operation() == "at");
    }
  }
  SECTION("BroadcastError is not an IndexError") {
    CHECK_THROWS_AS(strata::detail::fail<strata::BroadcastError>("broadcast", "x"),
                    strata::BroadcastError);
    CHECK_THROWS_AS(strata::detail::fail<strata::LayoutError>("reshape", "x"), strata::LayoutError);
  }
}

}  // namespace test_core_error
