// Jagged and JaggedView: rows, iteration that skips empty rows, slicing, chipping, errors.
#include "strata/shape/jagged.hpp"

#include "check_error.hpp"
#include "shape/collect.hpp"
#include "strata/shape/nested.hpp"

#include <catch2/catch.hpp>

#include <vector>

using strata::Index;
using strata::Jagged;
using strata::JaggedView;
using strata::Shape;
using strata::Smooth;

using strata::test::collect;

TEST_CASE("Jagged is built from row shapes or row lengths", "[shape][jagged]") {
  const Jagged j{Smooth{3}, Smooth{5}, Smooth{2}};
  CHECK(j.rank() == 2);
  CHECK(j.size() == 10);
  CHECK(j.outer_rank() == 1);
  CHECK(j.inner_rank() == 1);
  CHECK(j.n_rows() == 3);
  CHECK(j.to_string() == "Jagged[3]{[3] [5] [2]}");
  CHECK(j == Jagged::from_lengths({3, 5, 2}));
  CHECK(j.row(1) == Shape(Smooth{5}));
  CHECK(std::vector<strata::index_t>(j.row_starts().begin(), j.row_starts().end()) ==
        std::vector<strata::index_t>{0, 3, 8, 10});
  CHECK(j.extent(0) == 3);
  SECTION("rows of rank 2 on a grid of rank 2") {
    const Jagged tiles(Index{2, 2}, {Smooth{2, 3}, Smooth{2, 1}, Smooth{1, 3}, Smooth{1, 1}});
    CHECK(tiles.rank() == 4);
    CHECK(tiles.size() == 12);
    CHECK(tiles.index_at(6) == Index{0, 1, 0, 0});
    CHECK(tiles.index_at(11) == Index{1, 1, 0, 0});
    CHECK(tiles.position({1, 0, 0, 2}) == 10);
  }
  SECTION("rows that are jagged themselves") {
    const Jagged outer(std::vector<Shape>{Jagged::from_lengths({2, 1}), Jagged::from_lengths({3})});
    CHECK(outer.rank() == 3);
    CHECK(outer.size() == 6);
    CHECK_FALSE(outer.smooth_rows());
    CHECK(collect(outer.indices()) ==
          std::vector<Index>{{0, 0, 0}, {0, 0, 1}, {0, 1, 0}, {1, 0, 0}, {1, 0, 1}, {1, 0, 2}});
    CHECK(outer.to_string() == "Jagged[2]{Jagged[2]{[2] [1]} Jagged[1]{[3]}}");
  }
  SECTION("long row lists print elided") {
    CHECK(Jagged::from_lengths({1, 2, 3, 4, 5, 6, 7, 8, 9}).to_string() ==
          "Jagged[9]{[1] [2] [3] ... [7] [8] [9]}");
  }
}

TEST_CASE("jagged iteration walks rows in row-major order and skips empty rows",
          "[shape][jagged]") {
  const Jagged j = Jagged::from_lengths({0, 2, 0, 0, 1, 0});
  CHECK(collect(j.indices()) == std::vector<Index>{{1, 0}, {1, 1}, {4, 0}});
  auto r = j.indices();
  CHECK(r.end() - r.begin() == 3);
  CHECK(*(r.begin() + 2) == Index{4, 0});
  CHECK(*(r.end() - 2) == Index{1, 1});
  CHECK(j.index_at(1) == Index{1, 1});
  CHECK(j.position({4, 0}) == 2);
  CHECK_FALSE(j.contains({0, 0}));
  CHECK(j.contains({1, 1}));
}

TEST_CASE("jagged slices keep the outer origin", "[shape][jagged]") {
  const Jagged j = Jagged::from_lengths({3, 0, 2, 4});
  const JaggedView v = j.slice({1}, {3});
  CHECK(v.to_string() == "Jagged[2]{[0] [2]} at [1 0]");
  CHECK(collect(v.indices()) == std::vector<Index>{{2, 0}, {2, 1}});
  CHECK(collect(v.offsets()) == std::vector<Index>{{1, 0}, {1, 1}});
  CHECK(v.shape() == Jagged::from_lengths({0, 2}));
  CHECK(v.slice({2}, {3}).to_string() == "Jagged[1]{[2]} at [2 0]");
  SECTION("a box of a grid of rows that is not contiguous") {
    const Jagged grid = Jagged::from_extents({2, 3}, 1, {1, 2, 3, 4, 5, 6});
    const JaggedView box = grid.slice({0, 1}, {2, 3});
    CHECK(box.to_string() == "Jagged[2 2]{[2] [3] [5] [6]} at [0 1 0]");
    CHECK(box.size() == 16);
    CHECK(box.index_at(5) == Index{1, 1, 0});
  }
}

TEST_CASE("chipping a jagged shape", "[shape][jagged]") {
  const Jagged j = Jagged::from_lengths({3, 1, 2});
  SECTION("the only outer mode gives the row's shape") {
    CHECK(j.chip(0, 2) == Shape(Smooth{2}));
  }
  SECTION("an inner mode of rank-1 rows leaves a smooth vector") {
    CHECK(j.chip(1, 0).to_string() == "Smooth[3] at [0]");
  }
  SECTION("an inner mode of rank-2 rows chips every row") {
    const Jagged m{Smooth{2, 3}, Smooth{4, 1}};
    CHECK(m.chip(2, 0).to_string() == "Jagged[2]{[2] [4]} at [0 0]");
  }
  SECTION("one outer mode of a grid") {
    const Jagged grid = Jagged::from_extents({2, 3}, 1, {1, 2, 3, 4, 5, 6});
    CHECK(grid.chip(0, 1).to_string() == "Jagged[3]{[4] [5] [6]} at [0 0]");
    CHECK(grid.chip(1, 2).to_string() == "Jagged[2]{[3] [6]} at [0 0]");
  }
}

TEST_CASE("Jagged rejects bad input and stays unchanged", "[shape][jagged][errors]") {
  using strata::IndexError;
  using strata::ShapeError;
  using strata::test::check_error;
  check_error<ShapeError>(
      [] {
        (void)Jagged::from_lengths({2, -1});
      },
      "Jagged::from_extents", "-1");
  check_error<ShapeError>(
      [] {
        (void)Jagged{Smooth{2}, Smooth{2, 2}};
      },
      "Jagged", "row 1 Smooth[2 2] has rank 2");
  check_error<ShapeError>(
      [] {
        (void)Jagged::from_lengths({1L << 62, 1L << 62});
      },
      "Jagged::from_extents", "overflow");
  check_error<ShapeError>([] { (void)Jagged(Index{2}, {Smooth{1}}); }, "Jagged", "2 rows");
  const Jagged j = Jagged::from_lengths({3, 1, 2});
  check_error<IndexError>([&] { (void)j.slice({2}, {1}); }, "slice", "exceeds");
  check_error<IndexError>([&] { (void)j.slice({0}, {4}); }, "slice", "[0, 4)");
  check_error<IndexError>([&] { (void)j.slice({0, 0}, {1, 1}); }, "slice", "outer modes");
  check_error<IndexError>([&] { (void)j.chip(0, 3); }, "chip", "index 3");
  check_error<IndexError>([&] { (void)j.chip(1, 1); }, "chip", "row 1");
  check_error<IndexError>([&] { (void)j.chip(2, 0); }, "chip", "mode 2");
  check_error<IndexError>([&] { (void)j.row(3); }, "row", "row 3");
  check_error<ShapeError>([&] { (void)j.extent(1); }, "extent", "ragged");
  check_error<IndexError>([&] { (void)j.position({1, 1}); }, "position", "[1 1]");
  CHECK(j == Jagged::from_lengths({3, 1, 2}));
}

TEST_CASE("chipping an inner mode of jagged rows stores plain rows", "[shape][jagged]") {
  const Jagged j(std::vector<Shape>{Jagged::from_lengths({2, 1}), Jagged::from_lengths({3})});
  const Shape chipped = j.chip(2, 0);
  const Jagged direct(std::vector<Shape>{Smooth{2}, Smooth{1}});
  REQUIRE(chipped.is<JaggedView>());
  CHECK(chipped.as<JaggedView>().shape() == direct);
  CHECK(chipped.as<JaggedView>().shape().row(1).is<Smooth>());
  CHECK(chipped.as<JaggedView>().shape().smooth_rows());
}
