// Tests for strata/projection/zrange.hpp.
#include "strata/projection/zrange.hpp"

#include "strata/core/error.hpp"

#include <catch2/catch.hpp>

#include <limits>

namespace test_projection_zrange {

using Catch::Matchers::Contains;
using strata::Index;
using strata::ZRange;

TEST_CASE("ZRange is a half-open box", "[projection]") {
  const ZRange r({2, 3}, {4, 5});
  CHECK(r.shape() == Index{2, 2});
  CHECK(r.size() == 4);
  CHECK_FALSE(r.empty());
  CHECK(strata::to_string(r) == "[2:4, 3:5]");
  CHECK(r.contains(Index{2, 3}));
  CHECK_FALSE(r.contains(Index{4, 3}));
  CHECK(r.contains(ZRange({3, 3}, {4, 5})));
  CHECK_FALSE(r.contains(ZRange({1, 3}, {4, 5})));
  CHECK(ZRange::from_shape({1, 1}, {2, 0}).empty());
  CHECK(ZRange::from_shape({1, 1}, {2, 0}).size() == 0);
  CHECK(strata::to_string(ZRange()) == "[]");
  CHECK(ZRange().size() == 1);
  SECTION("intersection and bounding") {
    CHECK(r.intersection(ZRange({3, 0}, {9, 4})) == ZRange({3, 3}, {4, 4}));
    CHECK(r.intersection(ZRange({5, 5}, {6, 6})).empty());
    CHECK(ZRange::bounding({r, ZRange({0, 4}, {1, 9}), ZRange({7, 7}, {7, 8})}) ==
          ZRange({0, 3}, {4, 9}));
    CHECK(r.translate({-2, 1}) == ZRange({0, 4}, {2, 6}));
  }
  SECTION("split covers the box exactly, the last chunk smaller") {
    const auto pieces = ZRange({0, 0}, {7, 2}).split(0, 3);
    REQUIRE(pieces.size() == 3);
    CHECK(pieces[0] == ZRange({0, 0}, {3, 2}));
    CHECK(pieces[2] == ZRange({6, 0}, {7, 2}));
    CHECK(ZRange({0, 0}, {0, 2}).split(0, 3).empty());
    CHECK(ZRange({0, 0}, {7, 2}).split(-1, 5).size() == 1);
  }
  SECTION("points are visited in row-major order") {
    const auto points = r.points();
    CHECK(points == std::vector<Index>{{2, 3}, {2, 4}, {3, 3}, {3, 4}});
    CHECK(ZRange({0}, {0}).points().empty());
    CHECK(ZRange().points().size() == 1);
  }
}

TEST_CASE("bad ranges are rejected", "[projection][errors]") {
  CHECK_THROWS_AS(ZRange({0, 0}, {1}), strata::ShapeError);
  CHECK_THROWS_WITH(ZRange({3, 0}, {1, 1}), Contains("ZRange: ") && Contains("negative region"));
  CHECK_THROWS_WITH(ZRange::from_shape({0, 0}, {1, -2}),
                    Contains("ZRange: ") && Contains("negative extent -2"));
  const ZRange r({0, 0}, {4, 4});
  CHECK_THROWS_AS(r.contains(Index{1}), strata::ShapeError);
  CHECK_THROWS_WITH(r.contains(Index{1}), Contains("contains: ") && Contains("rank 1"));
  CHECK_THROWS_AS(r.split(0, 0), strata::ShapeError);
  CHECK_THROWS_WITH(r.split(0, -1), Contains("split: chunk -1"));
  CHECK_THROWS_AS(r.split(2, 1), strata::IndexError);
  CHECK_THROWS_AS(ZRange::bounding({}), strata::ShapeError);
  CHECK(r == ZRange({0, 0}, {4, 4}));
}

TEST_CASE("split and apply near INT64_MAX terminate or throw, never overflow", "[projection]") {
  const strata::index_t top = std::numeric_limits<strata::index_t>::max();
  const auto pieces = ZRange({1}, {top}).split(0, top);
  REQUIRE(pieces.size() == 1);
  CHECK(pieces[0] == ZRange({1}, {top}));
  const auto halves = ZRange({0}, {top}).split(0, top / 2 + 1);
  REQUIRE(halves.size() == 2);
  CHECK(halves[1].end()[0] == top);
  CHECK(ZRange({-5}, {5}).split(0, 3).size() == 4);
}

}  // namespace test_projection_zrange
