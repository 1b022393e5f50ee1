// Nested and NestedView: layers, flattening, jagged layers that follow the grid, errors.
#include "strata/shape/nested.hpp"

#include "check_error.hpp"

#include <catch2/catch.hpp>

namespace test_shape_nested {

using strata::Index;
using strata::Jagged;
using strata::Nested;
using strata::Shape;
using strata::Smooth;

TEST_CASE("Nested keeps layers of modes apart", "[shape][nested]") {
  const Nested m{Smooth{2, 2}, Smooth{3, 3}};
  CHECK(m.n_layers() == 2);
  CHECK(m.rank() == 4);
  CHECK(m.size() == 36);
  CHECK(m.layer(1) == Shape(Smooth{3, 3}));
  CHECK(m.layer_rank(0) == 2);
  CHECK(m.flatten() == Shape(Smooth{2, 2, 3, 3}));
  CHECK(m.to_string() == "Nested{Smooth[2 2] | Smooth[3 3]}");
  CHECK(m.index_at(9) == Index{0, 1, 0, 0});
  SECTION("a jagged layer follows the grid before it") {
    const Nested tiles{Smooth{1, 2}, Jagged(Index{1, 2}, {Smooth{2, 3}, Smooth{2, 1}})};
    CHECK(tiles.rank() == 4);
    CHECK(tiles.size() == 8);
    CHECK(tiles.layer_rank(1) == 2);
    CHECK(tiles.flatten().is<Jagged>());
    CHECK(tiles.index_at(7) == Index{0, 1, 1, 0});
  }
  SECTION("a smooth layer after a jagged one extends every row") {
    const Nested n{Jagged::from_lengths({1, 2}), Smooth{3}};
    CHECK(n.flatten() == Shape(Jagged::from_extents({2}, 2, {1, 3, 2, 3})));
  }
  SECTION("chip removes a mode from its layer, and an emptied layer") {
    CHECK(m.chip(0, 1).to_string() == "Nested<1|2>{Smooth[2 3 3] at [0 0 0]}");
    CHECK(m.chip(0, 1).chip(0, 0).n_layers() == 1);
  }
  SECTION("slices keep the layers and the origin") {
    const auto v = m.slice({1, 0, 1, 1}, {2, 2, 3, 3});
    CHECK(v.n_layers() == 2);
    CHECK(v.origin() == Index{1, 0, 1, 1});
    CHECK(v.size() == 8);
  }
}

TEST_CASE("Nested rejects bad input and stays unchanged", "[shape][nested][errors]") {
  using strata::IndexError;
  using strata::ShapeError;
  using strata::test::check_error;
  check_error<ShapeError>([] { (void)Nested(std::vector<Shape>{}); }, "Nested", "no layers");
  check_error<ShapeError>(
      [] {
        (void)Nested{Smooth{3}, Jagged::from_lengths({1, 2})};
      },
      "Nested", "outer extents [2]");
  check_error<ShapeError>(
      [] {
        (void)Nested{Jagged::from_lengths({1}), Jagged::from_lengths({1})};
      },
      "Nested", "follows a jagged layer");
  const Nested m{Smooth{2}, Smooth{3}};
  check_error<IndexError>([&] { (void)m.layer(2); }, "layer", "layer 2");
  check_error<IndexError>([&] { (void)m.chip(2, 0); }, "chip", "mode 2");
  CHECK(m == Nested{Smooth{2}, Smooth{3}});
}

}  // namespace test_shape_nested
