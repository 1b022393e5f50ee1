// Tests for strata/projection/region_view.hpp: views of regions under each bounds policy.
#include "strata/projection/region_view.hpp"

#include "strata/projection/projections.hpp"
#include "strata/tensor/generators.hpp"

#include <catch2/catch.hpp>

#include <type_traits>

namespace test_projection_region_view {

using Catch::Matchers::Contains;
using strata::Bounds;
using strata::Index;
using strata::Tensor;
using strata::ZRange;
using V = std::vector<int>;

TEST_CASE("view selects a region under each bounds policy", "[projection]") {
  Tensor<int> t = strata::iota<int>({4, 5}).copy();  // rows [0..4] [5..9] [10..14] [15..19]
  SECTION("inside: a plain, writable view sharing the buffer") {
    auto v = strata::view(t, ZRange({1, 2}, {3, 4}));
    CHECK(v.to_vector() == V{7, 8, 12, 13});
    v(0, 0) = -1;
    CHECK(t(1, 2) == -1);
  }
  SECTION("forbid rejects a region that leaves the tensor") {
    CHECK_THROWS_AS(strata::view(t, ZRange({-1, 0}, {1, 2})), strata::IndexError);
    CHECK_THROWS_WITH(strata::view(t, ZRange({3, 0}, {5, 2})),
                      Contains("view: ") && Contains("[3:5, 0:2]") && Contains("[4 5]"));
  }
  SECTION("negative counts back from the end, as NumPy does") {
    CHECK(strata::view(t, ZRange({-1, -2}, {0, 0}), Bounds::negative).to_vector() == V{18, 19});
    CHECK_THROWS_AS(strata::view(t, ZRange({-1, 0}, {1, 1}), Bounds::negative), strata::IndexError);
  }
  SECTION("wrap treats the space as a torus, without copying") {
    auto w = strata::view(t, ZRange({3, 4}, {5, 6}), Bounds::wrap);
    CHECK(w.to_vector() == V{19, 15, 4, 0});
    CHECK(w.buffer().same_storage(t.buffer()));
    CHECK(strata::view(t, ZRange({0, -2}, {1, 9}), Bounds::wrap).to_vector() ==
          V{3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3});
  }
  SECTION("pad reads a value outside the tensor") {
    auto p = strata::view(t, ZRange({-1, 3}, {1, 6}), Bounds::pad, 100);
    CHECK(p.shape() == Index{2, 3});
    CHECK(p.to_vector() == V{100, 100, 100, 3, 4, 100});
    CHECK_FALSE(p.buffer().writable());
    CHECK(p.transpose().to_vector() == V{100, 3, 100, 4, 100, 100});
  }
  SECTION("ranks must match") {
    CHECK_THROWS_AS(strata::view(t, ZRange({0}, {1})), strata::ShapeError);
  }
}

TEST_CASE("a convolution's windows view the padded input", "[projection]") {
  const Tensor<int> image = strata::iota<int>({3, 3}).copy();
  const auto window = strata::conv_window_projection({3, 3}, {1, 1}, {1, 1}, {1, 1});
  const auto corner = strata::view(image, window.apply(Index{0, 0}), Bounds::pad, 0);
  CHECK(corner.to_vector() == V{0, 0, 0, 0, 0, 1, 0, 3, 4});
  const auto centre = strata::view(image, window.apply(Index{1, 1}), Bounds::pad, 0);
  CHECK(centre.to_vector() == image.to_vector());
}

TEST_CASE("an empty region is an empty view under every policy", "[projection]") {
  Tensor<int> t = Tensor<int>::of({1, 2, 3});
  for (const Bounds b : {Bounds::wrap, Bounds::pad}) {
    const auto v = strata::view(t, ZRange({-1}, {-1}), b);
    CHECK(v.shape() == Index{0});
  }
  CHECK(strata::view(t, ZRange({7}, {7}), Bounds::wrap).shape() == Index{0});
}

TEST_CASE("a view of a const tensor is read-only; of a mutable one, writable",
          "[projection][const]") {
  const Tensor<int> c = Tensor<int>::of({1, 2, 3});
  Tensor<int> m = Tensor<int>::of({1, 2, 3});
  static_assert(std::is_same_v<decltype(strata::view(c, ZRange({0}, {2}))), Tensor<const int>>);
  auto w = strata::view(m, ZRange({-1}, {1}), Bounds::wrap);
  static_assert(std::is_same_v<decltype(w), Tensor<int>>);
  w.fill(0);
  CHECK(m.to_vector() == V{0, 2, 0});
}

}  // namespace test_projection_region_view
