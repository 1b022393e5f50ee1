// Tests for strata/layout/axis.hpp: index arrays and the coalesce step.
#include "strata/layout/axis.hpp"

#include <catch2/catch.hpp>

namespace test_layout_axis {

using strata::Axis;
using strata::index_t;
using strata::IndexArray;
using V = std::vector<index_t>;

TEST_CASE("IndexArray keeps extrema and inverts lazily", "[layout]") {
  const IndexArray a(V{4, 1, 4, 0, 2});
  CHECK(a.size() == 5);
  CHECK(a.min() == 0);
  CHECK(a.max() == 4);
  CHECK(a[2] == 4);
  const auto [values, entries] = a.entries_between(1, 4);
  CHECK(V(values.begin(), values.end()) == V{1, 2, 4, 4});
  CHECK(V(entries.begin(), entries.end()) == V{1, 4, 0, 2});
  const auto [none, no_entries] = a.entries_between(5, 9);
  CHECK(none.empty());
  CHECK(no_entries.empty());
  CHECK(IndexArray(V{}).size() == 0);
}

TEST_CASE("Axis maps a global index through rotation and an index array", "[layout]") {
  const Axis plain{4, 3, 4, 0, nullptr};
  CHECK(plain.is_plain());
  CHECK(plain.contribution(2) == 6);
  const Axis rolled{4, 1, 4, 3, nullptr};
  CHECK(rolled.is_cyclic());
  CHECK(rolled.position(0) == 3);
  CHECK(rolled.position(1) == 0);
  const Axis tiled{6, 1, 3, 0, nullptr};
  CHECK(tiled.is_cyclic());
  CHECK(tiled.contribution(4) == 1);
  const Axis indexed{3, 10, 3, 1, std::make_shared<const IndexArray>(V{7, 8, 9})};
  CHECK(indexed.is_indexed());
  CHECK(indexed.contribution(0) == 80);
  CHECK(indexed.contribution(2) == 70);
}

TEST_CASE("coalesce merges exactly the axes one loop can walk", "[layout]") {
  const Axis inner{4, 1, 4, 0, nullptr};
  SECTION("contiguous rows merge") {
    const auto m = strata::coalesce(Axis{3, 4, 3, 0, nullptr}, inner);
    REQUIRE(m);
    CHECK(*m == Axis{12, 1, 12, 0, nullptr});
  }
  SECTION("strided rows do not") {
    CHECK_FALSE(strata::coalesce(Axis{3, 5, 3, 0, nullptr}, inner));
  }
  SECTION("a cyclic outer axis stays cyclic over the merged range") {
    const auto m = strata::coalesce(Axis{8, 4, 4, 1, nullptr}, inner);
    REQUIRE(m);
    CHECK(*m == Axis{32, 1, 16, 4, nullptr});
  }
  SECTION("a cyclic or indexed inner axis never merges") {
    CHECK_FALSE(strata::coalesce(Axis{3, 4, 3, 0, nullptr}, Axis{4, 1, 4, 1, nullptr}));
    CHECK_FALSE(
        strata::coalesce(Axis{3, 4, 3, 0, nullptr},
                         Axis{4, 1, 4, 0, std::make_shared<const IndexArray>(V{0, 1, 2, 3})}));
  }
}

}  // namespace test_layout_axis
