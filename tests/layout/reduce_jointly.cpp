// Tests for strata/layout/reduce_jointly.hpp.
#include "strata/layout/reduce_jointly.hpp"

#include "layout/view_helpers.hpp"
#include "strata/core/error.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

namespace test_layout_reduce_jointly {

using Catch::Matchers::Contains;
using strata::Dimensions;
using strata::Index;
using strata::index_t;

namespace {
/// The (destination, source) address pairs, sorted: what a copy does, in any order.
std::vector<std::pair<index_t, index_t>> pairs(const Dimensions& d, const Dimensions& s) {
  const auto a = strata::test::addresses(d);
  const auto b = strata::test::addresses(s);
  std::vector<std::pair<index_t, index_t>> out;
  for (std::size_t i = 0; i < a.size(); ++i) {
    out.emplace_back(a[i], b[i]);
  }
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace

TEST_CASE("reduce_jointly merges what both maps allow", "[layout]") {
  SECTION("two contiguous maps become one axis") {
    const auto [d, s] = strata::reduce_jointly(Dimensions{4, 5, 6}, Dimensions{4, 5, 6});
    CHECK(d.shape() == Index{120});
    CHECK(s.shape() == Index{120});
  }
  SECTION("a transposed source keeps two axes, ordered by the destination") {
    const Dimensions dst{4, 6};
    const Dimensions src = Dimensions{6, 4}.transpose();
    const auto [d, s] = strata::reduce_jointly(dst, src);
    CHECK(d.shape() == Index{4, 6});
    CHECK(d.strides() == Index{6, 1});
    CHECK(s.strides() == Index{1, 4});
  }
  SECTION("a destination walked backwards is reordered so its inner stride is smallest") {
    const Dimensions dst = Dimensions{6, 4}.transpose();  // strides [1 4]
    const Dimensions src{4, 6};
    const auto [d, s] = strata::reduce_jointly(dst, src);
    CHECK(d.strides() == Index{4, 1});
    CHECK(s.strides() == Index{1, 6});
  }
  SECTION("axes reversed in both maps are flipped back and merge") {
    const Dimensions a = Dimensions{3, 4}.reverse();
    const auto [d, s] = strata::reduce_jointly(a, a);
    CHECK(d.shape() == Index{12});
    CHECK(d.strides() == Index{1});
    CHECK(d.offset() == 0);
  }
  SECTION("shapes must match") {
    try {
      (void)strata::reduce_jointly(Dimensions{2, 3}, Dimensions{3, 2});
      FAIL("no exception");
    } catch (const strata::ShapeError& e) {
      CHECK_THAT(std::string(e.what()),
                 Contains("reduce_jointly: ") && Contains("[2 3]") && Contains("[3 2]"));
    }
  }
}

TEST_CASE("reduce_jointly keeps every address pair on random views", "[layout][property]") {
  std::mt19937_64 rng(777);
  for (int trial = 0; trial < 2000; ++trial) {
    const Dimensions src = strata::test::random_view(rng, 6);
    // A destination of the same shape: row-major, or a random permutation of a row-major map.
    const Index shape = src.shape();
    Index perm(shape.size());
    std::iota(perm.begin(), perm.end(), index_t{0});
    std::shuffle(perm.begin(), perm.end(), rng);
    Index permuted_shape(shape.size());
    for (std::size_t k = 0; k < shape.size(); ++k) {
      permuted_shape[static_cast<std::size_t>(perm[k])] = shape[k];
    }
    Dimensions dst = Dimensions(permuted_shape).transpose(perm);
    if (strata::test::uniform(rng, 0, 1) == 1 && dst.rank() > 0) {
      dst = dst.reverse({0});
    }
    INFO("dst " << dst << "\nsrc " << src);
    REQUIRE(dst.shape() == shape);
    const auto [d, s] = strata::reduce_jointly(dst, src);
    REQUIRE(d.shape() == s.shape());
    REQUIRE(d.size() == dst.size());
    REQUIRE(pairs(d, s) == pairs(dst, src));
    REQUIRE(d.rank() <= std::max(dst.rank(), 1));
  }
}

}  // namespace test_layout_reduce_jointly
