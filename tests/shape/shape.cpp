// The type-erased Shape: holds any shape, compares, prints, visits; ShapeLike for every type.
#include "strata/shape/shapes.hpp"

#include "check_error.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace test_shape_shape {

using strata::Index;
using strata::Jagged;
using strata::Nested;
using strata::Shape;
using strata::Smooth;

static_assert(strata::ShapeLike<strata::Smooth> && strata::ShapeLike<strata::SmoothView> &&
              strata::ShapeLike<strata::Jagged> && strata::ShapeLike<strata::JaggedView> &&
              strata::ShapeLike<strata::Nested> && strata::ShapeLike<strata::NestedView> &&
              strata::ShapeLike<strata::Shape>);

TEST_CASE("Shape holds any shape", "[shape][erased]") {
  SECTION("the default is the scalar shape") {
    const Shape s;
    CHECK(s.is<Smooth>());
    CHECK(s.rank() == 0);
    CHECK(s.size() == 1);
  }
  SECTION("is, as, kind and visit") {
    const Shape s = Jagged{Smooth{3}, Smooth{1}};
    CHECK(s.is<Jagged>());
    CHECK_FALSE(s.is<Smooth>());
    CHECK(s.kind() == "Jagged");
    CHECK(s.as<Jagged>().n_rows() == 2);
    CHECK(s.visit([](const auto& concrete) { return concrete.size(); }) == 4);
    CHECK(s.to_string() == "Jagged[2]{[3] [1]}");
  }
  SECTION("copies share, compare equal, and equality needs the same kind") {
    const Shape a = Smooth{2, 3};
    const Shape b = a;  // NOLINT(performance-unnecessary-copy-initialization)
    CHECK(a == b);
    CHECK(a == Shape(Smooth{2, 3}));
    CHECK_FALSE(a == Shape(Smooth{2, 3}.slice({0, 0}, {2, 3})));
    CHECK_FALSE(Shape(Jagged::from_lengths({2, 2})) == Shape(Smooth{2, 2}));
  }
  SECTION("views through the erased type keep their origin") {
    const Shape s = Smooth{4, 4};
    const Shape v = s.slice({1, 1}, {3, 2});
    CHECK(v.kind() == "SmoothView");
    CHECK(v.index_at(0) == Index{1, 1});
    CHECK(v.chip(0, 2).to_string() == "Smooth[1] at [1]");
  }
  SECTION("indices through the erased type") {
    const Shape s = Jagged::from_lengths({1, 0, 2});
    std::vector<Index> seen;
    for (const Index& i : s.indices()) {
      seen.push_back(i);
    }
    CHECK(seen == std::vector<Index>{{0, 0}, {2, 0}, {2, 1}});
  }
}

TEST_CASE("Shape::as of the wrong type is a ShapeError", "[shape][erased][errors]") {
  const Shape s = Jagged{Smooth{3}, Smooth{1}};
  strata::test::check_error<strata::ShapeError>([&] { (void)s.as<Smooth>(); }, "Shape::as",
                                                "Jagged[2]{[3] [1]}");
  CHECK(s.is<Jagged>());
}

}  // namespace test_shape_shape
