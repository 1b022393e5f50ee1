// Tests for strata/layout/odometer.hpp: the row walks of one or two maps against the maps'
// own addresses, from any start.
#include "strata/layout/odometer.hpp"

#include "layout/view_helpers.hpp"

#include <random>
#include <vector>

#include <catch2/catch.hpp>

namespace test_layout_odometer {

using strata::Dimensions;
using strata::Index;
using strata::index_t;

namespace {

// The row-major index of linear position @p i in a box of extents @p shape.
Index unravel(index_t i, const Index& shape) {
  Index g(shape.size(), 0);
  for (std::size_t k = shape.size(); k-- > 0;) {
    g[k] = i % shape[k];
    i /= shape[k];
  }
  return g;
}

// A second map of d's shape: the row-major map of that shape, flipped on random axes (and
// rolled on one, sometimes), so walks of two maps mix strided and general ones.
Dimensions partner(std::mt19937_64& rng, const Dimensions& d) {
  Dimensions out(d.shape());
  Index flip;
  for (index_t k = 0; k < out.rank(); ++k) {
    if (strata::test::uniform(rng, 0, 1) == 1) {
      flip.push_back(k);
    }
  }
  out = out.reverse(flip);
  if (out.rank() > 0 && strata::test::uniform(rng, 0, 3) == 0) {
    out = out.rotate(strata::test::uniform(rng, -3, 3), 0);
  }
  return out;
}

}  // namespace

TEST_CASE("walk_runs visits every position once with its index and addresses, from any start",
          "[layout][odometer][property]") {
  // The strided carry (every axis plain) and the general one (rolls, tiles, index arrays)
  // against the multi-index path, for one map and for two maps walked together.
  std::mt19937_64 rng(57);
  int strided = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const Dimensions a = strata::test::random_view(rng, 6);
    const Dimensions b = partner(rng, a);
    strided += a.is_strided() && b.is_strided() ? 1 : 0;
    const auto expected_a = strata::test::addresses(a);
    const auto expected_b = strata::test::addresses(b);
    const Index shape = a.shape();
    const index_t size = a.size();
    const index_t begin = size == 0 ? 0 : strata::test::uniform(rng, 0, size - 1);
    const index_t end = strata::test::uniform(rng, begin, size);
    INFO("maps " << a << " and " << b << ", positions [" << begin << ", " << end << ")");

    index_t position = begin;
    strata::detail::walk_runs<1>(
        {&a}, begin, end,
        [&](const Index& g, const std::array<index_t, 1>& start,
            const std::array<index_t, 1>& stride, index_t count) {
          REQUIRE(count >= 1);
          if (a.rank() > 0) {
            REQUIRE(g == unravel(position, shape));
          }
          for (index_t t = 0; t < count; ++t) {
            REQUIRE(start[0] + t * stride[0] == expected_a[static_cast<std::size_t>(position + t)]);
          }
          position += count;
        });
    REQUIRE(position == end);

    position = begin;
    strata::detail::walk_runs<2>({&a, &b}, begin, end,
                                 [&](const Index& g, const std::array<index_t, 2>& start,
                                     const std::array<index_t, 2>& stride, index_t count) {
                                   if (a.rank() > 0) {
                                     REQUIRE(g == unravel(position, shape));
                                   }
                                   for (index_t t = 0; t < count; ++t) {
                                     const auto at = static_cast<std::size_t>(position + t);
                                     REQUIRE(start[0] + t * stride[0] == expected_a[at]);
                                     REQUIRE(start[1] + t * stride[1] == expected_b[at]);
                                   }
                                   position += count;
                                 });
    REQUIRE(position == end);
  }
  CHECK(strided > 100);  // both carries were exercised
}

}  // namespace test_layout_odometer
