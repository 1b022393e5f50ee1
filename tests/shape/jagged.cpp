// Jagged and JaggedView: rows, iteration that skips empty rows, slicing, chipping, errors.
#include "strata/shape/jagged.hpp"

#include "check_error.hpp"
#include "shape/collect.hpp"
#include "strata/shape/nested.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace test_shape_jagged {

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

namespace {

using strata::index_t;

// Rows of lists as nested lengths (the reference): each row's list lengths, rows in row-major
// order of the outer grid.
struct ListsModel {
  Index outer;
  std::vector<std::vector<index_t>> rows;

  [[nodiscard]] Index counts() const {
    Index out;
    for (const auto& row : rows) {
      out.push_back(static_cast<index_t>(row.size()));
    }
    return out;
  }
  [[nodiscard]] Index lengths() const {
    Index out;
    for (const auto& row : rows) {
      out.insert(out.end(), row.begin(), row.end());
    }
    return out;
  }
  // Every index in row-major order: the outer index, the list in the row, the element.
  [[nodiscard]] std::vector<Index> indices() const {
    std::vector<Index> out;
    Index at(outer.size(), 0);
    for (const auto& row : rows) {
      for (std::size_t l = 0; l < row.size(); ++l) {
        for (index_t i = 0; i < row[l]; ++i) {
          Index full = at;
          full.push_back(static_cast<index_t>(l));
          full.push_back(i);
          out.push_back(full);
        }
      }
      for (std::size_t k = at.size(); k-- > 0;) {
        if (++at[k] < outer[k]) {
          break;
        }
        at[k] = 0;
      }
    }
    return out;
  }
  // The shape as rows given one by one (what Jagged(outer, shapes) is handed).
  [[nodiscard]] std::vector<Shape> row_shapes() const {
    std::vector<Shape> out;
    for (const auto& row : rows) {
      out.emplace_back(Jagged::from_lengths(row));
    }
    return out;
  }
};

// Random rows of lists with empty rows, empty lists and lists of length 1.
ListsModel random_lists(std::mt19937& gen, Index outer) {
  std::uniform_int_distribution<index_t> count(0, 3);
  std::uniform_int_distribution<index_t> length(0, 3);
  ListsModel m{std::move(outer), {}};
  index_t rows = 1;
  for (const index_t e : m.outer) {
    rows *= e;
  }
  for (index_t r = 0; r < rows; ++r) {
    std::vector<index_t> row(static_cast<std::size_t>(count(gen)));
    for (index_t& l : row) {
      l = length(gen);
    }
    m.rows.push_back(row);
  }
  return m;
}

}  // namespace

TEST_CASE("rows of lists kept as two offset arrays behave as their rows' shapes",
          "[shape][jagged][lists]") {
  std::mt19937 gen(20261128);
  for (int round = 0; round < 60; ++round) {
    const Index outer =
        round % 4 == 3 ? Index{2, 3} : Index{std::uniform_int_distribution<index_t>(1, 7)(gen)};
    const ListsModel m = random_lists(gen, outer);
    const Jagged j = Jagged::from_lists(m.outer, m.counts(), m.lengths());
    const std::vector<Index> want = m.indices();
    INFO("round " << round << ": " << j.to_string());
    REQUIRE(j.size() == static_cast<index_t>(want.size()));
    CHECK(j.rank() == static_cast<int>(outer.size()) + 2);
    CHECK_FALSE(j.smooth_rows());
    CHECK(collect(j.indices()) == want);  // advance past empty rows and empty lists
    for (std::size_t p = 0; p < want.size(); ++p) {
      CHECK(j.index_at(static_cast<index_t>(p)) == want[p]);
      CHECK(j.position(want[p]) == static_cast<index_t>(p));
    }
    // contains: every offset of a box around the rows against the list of indices.
    Index lo(static_cast<std::size_t>(j.rank()), -1);
    Index hi = outer;
    hi.push_back(4);
    hi.push_back(4);
    Index at = lo;
    for (bool more = true; more;) {
      const bool in = std::find(want.begin(), want.end(), at) != want.end();
      CHECK(j.contains(at) == in);
      more = false;
      for (std::size_t k = at.size(); k-- > 0;) {
        if (++at[k] <= hi[k]) {
          more = true;
          break;
        }
        at[k] = lo[k];
      }
    }
    // The same shape given row by row, compared both ways and printed alike.
    const Jagged given(outer, m.row_shapes());
    CHECK(given == j);
    CHECK(j == given);
    CHECK(j.to_string() == given.to_string());
    for (index_t r = 0; r < j.n_rows(); ++r) {
      CHECK(j.row(r) == Shape(Jagged::from_lengths(m.rows[static_cast<std::size_t>(r)])));
    }
    if (!m.lengths().empty()) {  // one list longer: another shape
      Index longer = m.lengths();
      ++longer.back();
      CHECK_FALSE(j == Jagged::from_lists(outer, m.counts(), longer));
    }
    if (outer.size() == 1) {
      // A range of rows: its shape, its indices, the two levels awkward keeps.
      const index_t a = std::uniform_int_distribution<index_t>(0, outer[0])(gen);
      const index_t b = std::uniform_int_distribution<index_t>(a, outer[0])(gen);
      const JaggedView v = j.slice({a}, {b});
      const ListsModel sub{Index{b - a}, {m.rows.begin() + a, m.rows.begin() + b}};
      CHECK(v.shape() == Jagged::from_lists(sub.counts(), sub.lengths()));
      std::vector<Index> shifted = sub.indices();
      for (Index& i : shifted) {
        i[0] += a;
      }
      CHECK(collect(v.indices()) == shifted);
      // The pieces of the range (it shares the rows' description): one per list, counted from
      // the range's first row and first value.
      const auto pieces = strata::detail::piece_index(v.rows());
      REQUIRE(pieces->count() == static_cast<index_t>(sub.lengths().size()));
      index_t p = 0;
      index_t start = 0;
      for (std::size_t r = 0; r < sub.rows.size(); ++r) {
        for (std::size_t q = 0; q < sub.rows[r].size(); ++q, ++p) {
          CHECK(Index(pieces->prefix(p)) ==
                Index{static_cast<index_t>(r), static_cast<index_t>(q)});
          CHECK(Index(pieces->extents(p)) == Index{sub.rows[r][q]});
          CHECK(pieces->starts[static_cast<std::size_t>(p)] == start);
          start += sub.rows[r][q];
        }
      }
      CHECK(pieces->starts.back() == start);
      const auto levels = strata::detail::level_offsets(v.shape(), "test");
      Index first{0};
      Index ends{0};
      for (const auto& row : sub.rows) {
        first.push_back(first.back() + static_cast<index_t>(row.size()));
        for (const index_t l : row) {
          ends.push_back(ends.back() + l);
        }
      }
      REQUIRE(levels.size() == 2);
      CHECK(Index(levels[0].begin(), levels[0].end()) == first);
      CHECK(Index(levels[1].begin(), levels[1].end()) == ends);
    } else {
      // A box that is not contiguous (columns 1 and 2 of both grid rows), and a chip.
      const JaggedView box = j.slice({0, 1}, {2, 3});
      const ListsModel sub{Index{2, 2}, {m.rows[1], m.rows[2], m.rows[4], m.rows[5]}};
      CHECK(box.shape() == Jagged::from_lists(sub.outer, sub.counts(), sub.lengths()));
      const Shape row1 = j.chip(0, 1);
      const ListsModel chipped{Index{3}, {m.rows[3], m.rows[4], m.rows[5]}};
      CHECK(row1.as<JaggedView>().shape() ==
            Jagged::from_lists(chipped.counts(), chipped.lengths()));
    }
  }
  SECTION("no rows are smooth rows of rank 2") {
    const Jagged none = Jagged::from_lists(Index{}, Index{});
    CHECK(none.rank() == 3);
    CHECK(none.n_rows() == 0);
    CHECK(none.smooth_rows());
  }
  SECTION("uniform extents read from the offsets, ragged ones named as the rows name them") {
    const Jagged square = Jagged::from_lists({2, 2}, {3, 3, 3, 3});
    CHECK(square.extent(1) == 2);
    CHECK(square.extent(2) == 3);
    const Jagged ragged = Jagged::from_lists({2, 1, 0}, {3, 1, 2});
    strata::test::check_error<strata::ShapeError>([&] { (void)ragged.extent(1); }, "extent",
                                                  "row 1 has 1");
    strata::test::check_error<strata::ShapeError>([&] { (void)ragged.extent(2); }, "extent",
                                                  "ragged");
    strata::test::check_error<strata::ShapeError>(
        [&] {
          (void)Jagged::from_lists({1, 0}, {2}).extent(2);
        },
        "extent", "no rows to ask");
  }
  SECTION("printed as the rows would be") {
    CHECK(Jagged::from_lists({2, 0, 1}, {3, 0, 2}).to_string() ==
          "Jagged[3]{Jagged[2]{[3] [0]} Jagged[0]{} Jagged[1]{[2]}}");
  }
}

TEST_CASE("Jagged::from_lists rejects bad counts and lengths", "[shape][jagged][errors]") {
  using strata::ShapeError;
  using strata::test::check_error;
  check_error<ShapeError>(
      [] {
        (void)Jagged::from_lists({1, -2}, {3});
      },
      "Jagged::from_lists", "row 1 has a negative count of lists, -2");
  check_error<ShapeError>(
      [] {
        (void)Jagged::from_lists({2}, {3, -1});
      },
      "Jagged::from_lists", "list 1 has a negative length, -1");
  check_error<ShapeError>(
      [] {
        (void)Jagged::from_lists({2, 1}, {3, 1});
      },
      "Jagged::from_lists", "make 3 lists but 2 lengths");
  check_error<ShapeError>([] { (void)Jagged::from_lists(Index{}, {3}); }, "Jagged::from_lists",
                          "no rows hold the 1 lengths");
  check_error<ShapeError>(
      [] {
        (void)Jagged::from_lists(Index{2, 2}, {1, 1, 1}, {1, 1, 1});
      },
      "Jagged::from_lists", "make 4 rows but 3 counts");
  check_error<ShapeError>(
      [] {
        (void)Jagged::from_lists({2}, {1L << 62, 1L << 62});
      },
      "Jagged::from_lists", "overflow");
}

TEST_CASE("Jagged::from_offsets takes a ListOffsetArray's offsets", "[shape][jagged][lists]") {
  // The offsets of random counts and lengths give the shape from_lists gives (and the same
  // indices in the same order); one level of offsets gives from_lengths' shape.
  std::mt19937 gen(20261129);
  for (int round = 0; round < 40; ++round) {
    const Index outer{std::uniform_int_distribution<index_t>(0, 7)(gen)};
    const ListsModel m = random_lists(gen, outer);
    const Index counts = m.counts();
    const Index lengths = m.lengths();
    std::vector<index_t> rows{0};
    for (const index_t c : counts) {
      rows.push_back(rows.back() + c);
    }
    std::vector<index_t> lists{0};
    for (const index_t l : lengths) {
      lists.push_back(lists.back() + l);
    }
    const Jagged want = Jagged::from_lists(counts, lengths);
    const Jagged j = Jagged::from_offsets(lists);  // every list a row
    CHECK(j == Jagged::from_lengths(lengths));
    const Jagged got = Jagged::from_offsets(rows, lists);
    INFO("round " << round << ": " << want.to_string());
    CHECK(got == want);
    CHECK(got.to_string() == want.to_string());
    CHECK(collect(got.indices()) == collect(want.indices()));
    CHECK(got.row_starts().back() == lists.back());
  }
  const Jagged none = Jagged::from_offsets({0}, {0});
  CHECK(none.n_rows() == 0);
  CHECK(none.rank() == 3);
  CHECK(Jagged::from_offsets({0, 2, 2, 3}, {0, 3, 3, 5}) ==
        Jagged::from_lists({2, 0, 1}, {3, 0, 2}));
}

TEST_CASE("Jagged::from_offsets rejects offsets that are not a ListOffsetArray's",
          "[shape][jagged][errors]") {
  using strata::ShapeError;
  using strata::test::check_error;
  const std::string op = "Jagged::from_offsets";
  check_error<ShapeError>([] { (void)Jagged::from_offsets(Index{}); }, op, "the offsets are empty");
  check_error<ShapeError>(
      [] {
        (void)Jagged::from_offsets({1, 2});
      },
      op, "the offsets start at 1, not 0");
  check_error<ShapeError>(
      [] {
        (void)Jagged::from_offsets({0, 3, 2});
      },
      op, "the offsets decrease at 2: 3 then 2");
  check_error<ShapeError>([] { (void)Jagged::from_offsets({}, {0}); }, op,
                          "the row offsets are empty");
  check_error<ShapeError>(
      [] {
        (void)Jagged::from_offsets({0, 1}, {2, 3});
      },
      op, "the list offsets start at 2, not 0");
  check_error<ShapeError>(
      [] {
        (void)Jagged::from_offsets({0, 2, 1}, {0, 1, 2});
      },
      op, "the row offsets decrease at 2: 2 then 1");
  check_error<ShapeError>(
      [] {
        (void)Jagged::from_offsets({0, 2}, {0, 1, 2, 3});
      },
      op, "the row offsets end at 2 lists but the list offsets hold 3");
  check_error<ShapeError>(
      [] {
        (void)Jagged::from_offsets({0, 1}, {0, 5, 4});
      },
      op, "the list offsets decrease at 2: 5 then 4");
}

}  // namespace test_shape_jagged
