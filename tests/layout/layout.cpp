// Layout: row-major, column-major and tiled addressing, pieces, physical shapes, errors.
#include "strata/layout/layout.hpp"

#include "check_error.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

namespace test_layout_layout {

using strata::Index;
using strata::index_t;
using strata::Layout;
using strata::Shape;
using strata::Smooth;

TEST_CASE("row- and column-major layouts", "[layout][layout_map]") {
  const Layout r = Layout::row_major(Smooth{2, 3});
  const Layout c = Layout::column_major(Smooth{2, 3});
  CHECK(r.address({1, 2}) == 5);
  CHECK(c.address({1, 2}) == 5);
  CHECK(c.address({1, 0}) == 1);
  CHECK(c.address({0, 1}) == 2);
  CHECK(r.physical() == Shape(Smooth{2, 3}));
  CHECK(c.physical() == Shape(Smooth{3, 2}));
  CHECK(r.n_pieces() == 1);
  CHECK(c.piece_dimensions(0).global_to_local(Index{1, 2}) == 5);
  CHECK(c.to_string() == "column-major Smooth[2 3]");
}

TEST_CASE("tiled layouts store tiles one after another, smaller at the edges",
          "[layout][layout_map]") {
  const Layout l = Layout::tiled(Smooth{5, 7}, {2, 3});
  CHECK(l.n_pieces() == 9);
  CHECK(std::vector<index_t>(l.grid().begin(), l.grid().end()) == std::vector<index_t>{3, 3});
  // Tile sizes row by row of the grid: 6 6 2 | 6 6 2 | 3 3 1.
  CHECK(std::vector<index_t>(l.piece_starts().begin(), l.piece_starts().end()) ==
        std::vector<index_t>{0, 6, 12, 14, 20, 26, 28, 31, 34, 35});
  CHECK(l.address({0, 0}) == 0);
  CHECK(l.address({0, 3}) == 6);
  CHECK(l.address({1, 2}) == 5);
  CHECK(l.address({2, 4}) == 21);
  CHECK(l.address({4, 6}) == 34);
  CHECK(l.piece(8).to_string() == "Smooth[1 1] at [4 6]");
  CHECK(l.piece(5).to_string() == "Smooth[2 1] at [2 6]");
  CHECK(l.to_string() == "tiled [2 3] of Smooth[5 7]");
  SECTION("the physical shape is a grid of tiles whose layer is jagged") {
    const Shape p = l.physical();
    REQUIRE(p.is<strata::Nested>());
    CHECK(p.to_string() ==
          "Nested{Smooth[3 3] | Jagged[3 3]{[2 3] [2 3] [2 1] ... [1 3] [1 3] [1 1]}}");
    CHECK(p.size() == 35);
  }
  SECTION("even tiles make a smooth inner layer") {
    CHECK(Layout::tiled(Smooth{4, 6}, {2, 3}).physical() ==
          Shape(strata::Nested{Smooth{2, 2}, Smooth{2, 3}}));
  }
  SECTION("every address is used exactly once, and pieces agree with address()") {
    std::mt19937 rng(3);
    for (int trial = 0; trial < 50; ++trial) {
      const int rank = std::uniform_int_distribution<int>(1, 3)(rng);
      Index n;
      Index t;
      for (int k = 0; k < rank; ++k) {
        n.push_back(std::uniform_int_distribution<index_t>(0, 7)(rng));
        t.push_back(std::uniform_int_distribution<index_t>(1, 4)(rng));
      }
      const Layout tl = Layout::tiled(Smooth(n), t);
      std::vector<int> used(static_cast<std::size_t>(tl.size()), 0);
      for (index_t p = 0; p < tl.n_pieces(); ++p) {
        const auto box = tl.piece(p);
        const auto dims = tl.piece_dimensions(p);
        for (const Index& i : box.indices()) {
          Index local = i;
          const Index o = box.origin();
          for (std::size_t k = 0; k < local.size(); ++k) {
            local[k] -= o[k];
          }
          const index_t a = tl.address(i);
          CHECK(dims.global_to_local(local) == a);
          ++used[static_cast<std::size_t>(a)];
        }
      }
      CHECK(std::all_of(used.begin(), used.end(), [](int u) { return u == 1; }));
    }
  }
}

TEST_CASE("Layout rejects bad input", "[layout][layout_map][errors]") {
  using strata::IndexError;
  using strata::ShapeError;
  using strata::test::check_error;
  check_error<ShapeError>(
      [] {
        (void)Layout::tiled(Smooth{4, 4}, {2, 0});
      },
      "Layout::tiled", "tile extent 0");
  check_error<ShapeError>(
      [] {
        (void)Layout::tiled(Smooth{4, 4}, {-2, 2});
      },
      "Layout::tiled", "-2");
  check_error<ShapeError>(
      [] {
        (void)Layout::tiled(Smooth{4, 4}, {2});
      },
      "Layout::tiled", "rank 1");
  const Layout l = Layout::tiled(Smooth{4, 4}, {2, 2});
  check_error<IndexError>([&] { (void)l.address({4, 0}); }, "Layout::address", "[4 0]");
  check_error<IndexError>([&] { (void)l.piece(4); }, "Layout::piece", "piece 4");
  CHECK(l.n_pieces() == 4);
}

TEST_CASE("tile-grid arithmetic is checked", "[layout][errors]") {
  const index_t huge = std::numeric_limits<index_t>::max();
  // One tile larger than the shape: one piece holding everything (it used to be 0 tiles).
  const Layout one = Layout::tiled(Smooth{5}, {huge});
  CHECK(one.n_pieces() == 1);
  CHECK(one.piece(0).extents()[0] == 5);
  CHECK(one.address({4}) == 4);
  strata::test::check_error<strata::ShapeError>(
      [] {
        (void)Layout::tiled(Smooth{index_t{1} << 20, index_t{1} << 20}, {1, 1});
      },
      "Layout::tiled", "1099511627776 pieces");
  strata::test::check_error<strata::ShapeError>(
      [] {
        (void)Layout::tiled(Smooth{index_t{1} << 31, index_t{1} << 31}, {1, 1});
      },
      "Layout::tiled", "4611686018427387904 pieces");
}

}  // namespace test_layout_layout
