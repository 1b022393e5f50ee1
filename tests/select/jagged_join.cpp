// Joining, reshaping and reordering jagged tensors as awkward-array does (concat along both
// axes, flatten / unflatten, to_regular / from_regular, zip, cartesian, combinations, sort,
// argsort), and the row selections of strata/select/jagged.hpp (take_rows, filter_rows,
// local_index, num): against references over nested std::vectors on random rows with empty
// rows and rows of length 1 (NaN and infinities for the sorts), at 1, 2 and 4 threads;
// awkward's documented examples by hand; bad input with typed errors.
#include "strata/select/jagged_join.hpp"

#include "check_error.hpp"
#include "jagged_rows.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

namespace test_select_jagged_join {

using strata::Index;
using strata::index_t;
using strata::Jagged;
using strata::JaggedTensor;
using strata::Tensor;
using Rows = strata::test::Rows;
using strata::test::random_rows;
using strata::test::rows_of;
using Lists = std::vector<Rows>;

namespace {

// The lists of a tensor with rows of rank 2, read element by element through at().
Lists lists_of(const JaggedTensor<double>& t) {
  Lists out;
  for (index_t r = 0; r < t.shape().n_rows(); ++r) {
    const strata::Shape row = t.shape().row(r);
    Rows lists(static_cast<std::size_t>(row.uniform_extent(0)));
    for (const Index& at : row.indices()) {
      lists[static_cast<std::size_t>(at[0])].resize(static_cast<std::size_t>(at[1]) + 1);
    }
    for (std::size_t i = 0; i < lists.size(); ++i) {
      for (std::size_t k = 0; k < lists[i].size(); ++k) {
        lists[i][k] = t.at({r, static_cast<index_t>(i), static_cast<index_t>(k)});
      }
    }
    out.push_back(lists);
  }
  return out;
}

// A NaN-aware equality of rows (NaN equals NaN).
bool same_values(const Rows& a, const Rows& b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (std::size_t r = 0; r < a.size(); ++r) {
    if (a[r].size() != b[r].size()) {
      return false;
    }
    for (std::size_t k = 0; k < a[r].size(); ++k) {
      const double x = a[r][k];
      const double y = b[r][k];
      if (!(x == y || (std::isnan(x) && std::isnan(y)))) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace

TEST_CASE("concat along the outer axis and row by row matches the nested-vector reference",
          "[select][jagged][join]") {
  std::mt19937 rng(251126);
  for (int trial = 0; trial < 20; ++trial) {
    const index_t n = trial % 5;  // 0 rows sometimes
    const Rows a = random_rows(rng, n, trial % 3 == 0 ? 1 : 20, 50);
    const Rows b = random_rows(rng, n, 20, 50);
    const Rows c = random_rows(rng, trial % 7, 5, 50);
    Rows rows0 = a;
    rows0.insert(rows0.end(), b.begin(), b.end());
    rows0.insert(rows0.end(), c.begin(), c.end());
    Rows rows1 = a;
    for (std::size_t r = 0; r < rows1.size(); ++r) {
      rows1[r].insert(rows1[r].end(), b[r].begin(), b[r].end());
    }
    const JaggedTensor ta(a);
    const JaggedTensor tb(b);
    const JaggedTensor tc(c);
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        CHECK(rows_of(strata::concat(0, {ta, tb, tc})) == rows0);
        CHECK(rows_of(strata::concat(-2, {ta, tb, tc})) == rows0);
        CHECK(rows_of(strata::concat(1, {ta, tb})) == rows1);
        CHECK(rows_of(strata::concat(-1, {ta, tb})) == rows1);
      });
    }
    // Sources that are slices of rows join as their own rows.
    if (n >= 2) {
      Rows tail(a.begin() + 1, a.end());
      tail.insert(tail.end(), b.begin(), b.end());
      CHECK(rows_of(strata::concat(0, {ta.rows(1, n), tb})) == tail);
    }
  }
}

TEST_CASE("concat along the second of two outer axes interleaves the blocks of rows",
          "[select][jagged][join]") {
  // [2, 2] * var and [2, 1] * var joined along axis 1: for each index of axis 0, a's two rows
  // then b's row.
  const Index outer_a{2, 2};
  const Index outer_b{2, 1};
  const auto a = JaggedTensor<int>::from_values(
      {1, 2, 3, 4, 5, 6}, Jagged::from_extents(outer_a, 1, Index{2, 0, 3, 1}));
  const auto b =
      JaggedTensor<int>::from_values({7, 8, 9}, Jagged::from_extents(outer_b, 1, Index{1, 2}));
  const JaggedTensor<int> j = strata::concat(1, {a, b});
  CHECK(Index(j.shape().outer_extents().begin(), j.shape().outer_extents().end()) == Index{2, 3});
  CHECK(rows_of(j) == std::vector<std::vector<int>>{{1, 2}, {}, {7}, {3, 4, 5}, {6}, {8, 9}});
  // Along axis 0 the rows follow each other.
  const auto c =
      JaggedTensor<int>::from_values({0}, Jagged::from_extents(Index{1, 2}, 1, Index{0, 1}));
  const JaggedTensor<int> k = strata::concat(0, {a, c});
  CHECK(rows_of(k) == std::vector<std::vector<int>>{{1, 2}, {}, {3, 4, 5}, {6}, {}, {0}});
  // Rows of rank 2 (jagged rows) join along the outer axis with their shapes.
  const JaggedTensor<double> lists(Lists{{{1, 2}, {}}, {{3}}});
  const JaggedTensor<double> more(Lists{{{4, 5, 6}}});
  CHECK(lists_of(strata::concat(0, {lists, more})) == Lists{{{1, 2}, {}}, {{3}}, {{4, 5, 6}}});
}

TEST_CASE("flatten and unflatten are views that move only the offsets", "[select][jagged][join]") {
  // awkward's ak.flatten example: [[[0, 1, 2], []], [[3, 4]], [], [[5], [6, 7, 8, 9]]].
  const JaggedTensor<double> t(Lists{{{0, 1, 2}, {}}, {{3, 4}}, {}, {{5}, {6, 7, 8, 9}}});
  const JaggedTensor<double> by_list = strata::flatten(t, 1);
  CHECK(rows_of(by_list) == Rows{{0, 1, 2}, {}, {3, 4}, {5}, {6, 7, 8, 9}});
  const JaggedTensor<double> by_row = strata::flatten(t, 2);
  CHECK(rows_of(by_row) == Rows{{0, 1, 2}, {3, 4}, {}, {5, 6, 7, 8, 9}});
  CHECK(rows_of(strata::flatten(t, -1)) == rows_of(by_row));
  CHECK(by_row.values().data() == t.values().data());  // no copy
  CHECK(strata::flatten(t).size() == 10);
  // Rows of one smooth shape (a rectangular row) flatten the same way.
  const JaggedTensor<double> boxes(Lists{{{1, 2}, {3, 4}}, {{5, 6, 7}}});
  CHECK(boxes.shape().smooth_rows());
  CHECK(rows_of(strata::flatten(boxes, 1)) == Rows{{1, 2}, {3, 4}, {5, 6, 7}});
  CHECK(rows_of(strata::flatten(boxes, 2)) == Rows{{1, 2, 3, 4}, {5, 6, 7}});
  // 1-D rows over two outer axes: the rows of each index of axis 0 join.
  const auto grid = JaggedTensor<double>::from_values(
      {1, 2, 3, 4, 5}, Jagged::from_extents(Index{2, 2}, 1, Index{1, 0, 3, 1}));
  CHECK(rows_of(strata::flatten(grid, 2)) == Rows{{1}, {2, 3, 4, 5}});

  // awkward's ak.unflatten([0, 1, 2, 3, 4, 5], [2, 0, 3, 1]) on the rows of a n * var tensor,
  // then back.
  const JaggedTensor<double> rows(Rows{{0}, {1, 2}, {}, {3}, {4, 5}, {6}});
  const JaggedTensor<double> grouped = strata::unflatten(rows, std::vector<int>{2, 0, 3, 1});
  CHECK(lists_of(grouped) == Lists{{{0}, {1, 2}}, {}, {{}, {3}, {4, 5}}, {{6}}});
  CHECK(grouped.values().data() == rows.values().data());
  CHECK(rows_of(strata::flatten(grouped, 1)) == rows_of(rows));
  // Each row split by its own counts (axis=1), then joined back.
  const JaggedTensor<double> split = strata::unflatten(
      rows, JaggedTensor<int>(std::vector<std::vector<int>>{{1}, {0, 2}, {}, {1, 0}, {1, 1}, {1}}));
  CHECK(lists_of(split) == Lists{{{0}}, {{}, {1, 2}}, {}, {{3}, {}}, {{4}, {5}}, {{6}}});
  CHECK(rows_of(strata::flatten(split, 2)) == rows_of(rows));
}

TEST_CASE("flatten and unflatten round trips on random lists", "[select][jagged][join]") {
  std::mt19937 rng(1126);
  for (int trial = 0; trial < 20; ++trial) {
    Lists lists(static_cast<std::size_t>(trial % 9));
    std::vector<int> counts;
    Rows all_lists;
    Rows joined;
    for (auto& row : lists) {
      row = random_rows(rng, std::uniform_int_distribution<index_t>(0, 4)(rng), 3, 50);
      counts.push_back(static_cast<int>(row.size()));
      all_lists.insert(all_lists.end(), row.begin(), row.end());
      joined.emplace_back();
      for (const auto& l : row) {
        joined.back().insert(joined.back().end(), l.begin(), l.end());
      }
    }
    const JaggedTensor<double> by_list = all_lists.empty()
                                             ? JaggedTensor<double>(Jagged::from_lengths(Index{}))
                                             : JaggedTensor<double>(all_lists);
    const JaggedTensor<double> t = strata::unflatten(by_list, counts);
    CHECK(lists_of(t) == lists);
    CHECK(rows_of(strata::flatten(t, 1)) == all_lists);
    CHECK(rows_of(strata::flatten(t, 2)) == joined);
  }
}

TEST_CASE("flatten and unflatten at every axis of rows of rank 3 and 4 match references",
          "[select][jagged][join]") {
  using Lists3 = std::vector<Lists>;
  std::mt19937 rng(1128);
  std::uniform_int_distribution<int> count(0, 3);
  const auto text = [](const auto& nested) {
    return strata::to_string(JaggedTensor<double>(nested));
  };
  for (int trial = 0; trial < 20; ++trial) {
    Lists3 data(static_cast<std::size_t>(1 + trial % 5));
    double next = 0;
    for (auto& row : data) {
      row.resize(static_cast<std::size_t>(count(rng)));
      for (auto& list : row) {
        list.resize(static_cast<std::size_t>(count(rng)));
        for (auto& inner : list) {
          inner.resize(static_cast<std::size_t>(count(rng)));
          for (double& x : inner) {
            x = next++;
          }
        }
      }
    }
    const JaggedTensor<double> t(data);
    INFO("trial " << trial << ": " << strata::to_string(t));
    REQUIRE(t.shape().inner_rank() == 3);
    // References: every list of lists as a row; each row's lists joined; each list's lists
    // joined.
    Lists by_list;
    Lists by_row(data.size());
    Lists by_inner(data.size());
    std::vector<index_t> lists_per_row;
    std::vector<std::vector<index_t>> inner_per_list;
    std::vector<std::vector<index_t>> lengths_per_list;
    for (std::size_t r = 0; r < data.size(); ++r) {
      lists_per_row.push_back(static_cast<index_t>(data[r].size()));
      inner_per_list.emplace_back();
      for (const auto& list : data[r]) {
        by_list.push_back(list);
        by_row[r].insert(by_row[r].end(), list.begin(), list.end());
        inner_per_list.back().push_back(static_cast<index_t>(list.size()));
        lengths_per_list.emplace_back();
        by_inner[r].emplace_back();
        for (const auto& inner : list) {
          by_inner[r].back().insert(by_inner[r].back().end(), inner.begin(), inner.end());
          lengths_per_list.back().push_back(static_cast<index_t>(inner.size()));
        }
      }
    }
    const std::string nothing = "[]";
    const JaggedTensor<double> f1 = strata::flatten(t, 1);
    CHECK(strata::to_string(f1) == (by_list.empty() ? nothing : text(by_list)));
    const JaggedTensor<double> f2 = strata::flatten(t, 2);
    CHECK(strata::to_string(f2) == text(by_row));
    const JaggedTensor<double> f3 = strata::flatten(t, -1);
    CHECK(strata::to_string(f3) == text(by_inner));
    for (const JaggedTensor<double>* f : {&f1, &f2, &f3}) {
      CHECK((t.size() == 0 || f->values().data() == t.values().data()));  // no copy
    }
    // Each undone by unflatten at the same axis, sharing the values.
    const JaggedTensor<double> back0 = strata::unflatten(f1, lists_per_row);
    CHECK(strata::to_string(back0) == strata::to_string(t));
    CHECK((t.size() == 0 || back0.values().data() == t.values().data()));
    CHECK(strata::to_string(strata::unflatten(f2, JaggedTensor<index_t>(inner_per_list), 1)) ==
          strata::to_string(t));
    if (!lengths_per_list.empty()) {
      CHECK(strata::to_string(strata::unflatten(f3, JaggedTensor<index_t>(lengths_per_list), 2)) ==
            strata::to_string(t));
    }
    // Rank 4: every innermost list split in two halves, then flattened back at axis 4.
    std::vector<std::vector<index_t>> halves;
    std::vector<Lists3> deeper(data.size());
    for (std::size_t r = 0; r < data.size(); ++r) {
      for (const auto& list : data[r]) {
        deeper[r].emplace_back();
        for (const auto& inner : list) {
          const std::size_t h = inner.size() / 2;
          halves.push_back({static_cast<index_t>(h), static_cast<index_t>(inner.size() - h)});
          deeper[r].back().push_back(
              {Rows::value_type(inner.begin(), inner.begin() + static_cast<std::ptrdiff_t>(h)),
               Rows::value_type(inner.begin() + static_cast<std::ptrdiff_t>(h), inner.end())});
        }
      }
    }
    if (!halves.empty()) {
      const JaggedTensor<double> four = strata::unflatten(t, JaggedTensor<index_t>(halves), 3);
      CHECK(four.shape().inner_rank() == 4);
      CHECK(strata::to_string(four) == text(deeper));
      CHECK(strata::to_string(strata::flatten(four, 4)) == strata::to_string(t));
      CHECK(strata::to_string(strata::flatten(strata::flatten(strata::flatten(four, 1), 1), 2)) ==
            strata::to_string(strata::flatten(f1, 1)));
    }
  }
  // Rectangular rows of rank 3 (blocks) flatten as nested vectors of them would.
  const auto blocks =
      JaggedTensor<double>::from_values({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
                                        Jagged::from_extents(Index{2}, 3, Index{1, 2, 2, 4, 1, 2}));
  CHECK(strata::to_string(strata::flatten(blocks, 3)) ==
        "[[[0, 1, 2, 3]], [[4, 5], [6, 7], [8, 9], [10, 11]]]");
  CHECK(strata::to_string(strata::flatten(blocks, 2)) ==
        "[[[0, 1], [2, 3]], [[4, 5], [6, 7], [8, 9], [10, 11]]]");
  CHECK(strata::to_string(strata::flatten(blocks, 1)) ==
        "[[[0, 1], [2, 3]], [[4, 5]], [[6, 7]], [[8, 9]], [[10, 11]]]");
}

TEST_CASE("to_regular views rows of one length as a dense tensor; from_regular copies back",
          "[select][jagged][join]") {
  JaggedTensor<double> t(Rows{{1, 2, 3}, {4, 5, 6}});
  Tensor<double> d = strata::to_regular(t);
  CHECK(d.shape() == Index{2, 3});
  CHECK(d(1, 0) == 4);
  d(1, 0) = 40;  // a view: the jagged tensor sees it
  CHECK(t.at({1, 0}) == 40);
  const JaggedTensor<double> back = strata::from_regular(d.transpose());
  CHECK(rows_of(back) == Rows{{1, 40}, {2, 5}, {3, 6}});
  const Tensor<const double> none =
      strata::to_regular(JaggedTensor<double>(Jagged::from_lengths(Index{})));
  CHECK(none.shape() == Index{0, 0});
  CHECK(rows_of(strata::from_regular(Tensor<int>(Index{3, 0}))) ==
        std::vector<std::vector<int>>{{}, {}, {}});
}

TEST_CASE("zip, cartesian and combinations match nested loops", "[select][jagged][join]") {
  std::mt19937 rng(26);
  for (int trial = 0; trial < 15; ++trial) {
    const index_t n = 1 + trial * 3;
    const Rows a = random_rows(rng, n, trial % 4 == 0 ? 1 : 7, 50);
    const Rows b = random_rows(rng, n, 5, 50);
    Rows x;
    Rows y;
    std::vector<std::vector<index_t>> ix;
    std::vector<std::vector<index_t>> iy;
    Rows p0, p1, q0, q1, q2, w0, w1;
    for (std::size_t r = 0; r < a.size(); ++r) {
      x.emplace_back();
      y.emplace_back();
      ix.emplace_back();
      iy.emplace_back();
      for (std::size_t i = 0; i < a[r].size(); ++i) {
        for (std::size_t j = 0; j < b[r].size(); ++j) {
          x.back().push_back(a[r][i]);
          y.back().push_back(b[r][j]);
          ix.back().push_back(static_cast<index_t>(i));
          iy.back().push_back(static_cast<index_t>(j));
        }
      }
      p0.emplace_back();
      p1.emplace_back();
      w0.emplace_back();
      w1.emplace_back();
      q0.emplace_back();
      q1.emplace_back();
      q2.emplace_back();
      const std::size_t m = a[r].size();
      for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = i; j < m; ++j) {
          w0.back().push_back(a[r][i]);
          w1.back().push_back(a[r][j]);
          if (j > i) {
            p0.back().push_back(a[r][i]);
            p1.back().push_back(a[r][j]);
          }
          for (std::size_t k = j + 1; k < m && j > i; ++k) {
            q0.back().push_back(a[r][i]);
            q1.back().push_back(a[r][j]);
            q2.back().push_back(a[r][k]);
          }
        }
      }
    }
    const JaggedTensor ta(a);
    const JaggedTensor tb(b);
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        const auto [cx, cy] = strata::cartesian(ta, tb);
        CHECK(rows_of(cx) == x);
        CHECK(rows_of(cy) == y);
        CHECK(cx.shape().same_as(cy.shape()));
        const auto [jx, jy] = strata::argcartesian(ta, tb);
        CHECK(rows_of(jx) == ix);
        CHECK(rows_of(jy) == iy);
        const auto [c0, c1] = strata::combinations<2>(ta);
        CHECK(rows_of(c0) == p0);
        CHECK(rows_of(c1) == p1);
        const auto [r0, r1] = strata::combinations<2>(ta, true);
        CHECK(rows_of(r0) == w0);
        CHECK(rows_of(r1) == w1);
        const auto [t0, t1, t2] = strata::combinations<3>(ta);
        CHECK(rows_of(t0) == q0);
        CHECK(rows_of(t1) == q1);
        CHECK(rows_of(t2) == q2);
        // argcombinations index back into the rows.
        const auto [k0, k1] = strata::argcombinations<2>(ta);
        CHECK(rows_of(strata::take_each(ta, k0)) == p0);
        CHECK(rows_of(strata::take_each(ta, k1)) == p1);
        const auto z = strata::zip(ta, strata::local_index(ta));
        for (index_t r = 0; r < n; ++r) {
          index_t k = 0;
          for (const auto& [v, i] : z.row(r)) {
            CHECK(v == a[static_cast<std::size_t>(r)][static_cast<std::size_t>(k)]);
            CHECK(i == k++);
          }
        }
      });
    }
  }
}

TEST_CASE("sort and argsort sort every list, NaN last, argsort stable", "[select][jagged][join]") {
  std::mt19937 rng(2611);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (int trial = 0; trial < 20; ++trial) {
    Rows rows = random_rows(rng, 1 + trial * 7, trial % 3 == 0 ? 1 : 25, 50);
    for (auto& row : rows) {
      for (double& v : row) {
        const int kind = std::uniform_int_distribution<int>(0, 9)(rng);
        v = kind == 0 ? nan : kind == 1 ? -inf : kind == 2 ? inf : std::round(v / 8);
      }
    }
    // The reference: the numbers sorted (each direction), then as many NaN; positions by a
    // stable sort of the numbers' positions, NaN positions last in their order.
    Rows up(rows.size());
    Rows down(rows.size());
    std::vector<std::vector<index_t>> up_at(rows.size());
    std::vector<std::vector<index_t>> down_at(rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
      std::vector<index_t> numbers;
      std::vector<index_t> nans;
      for (std::size_t k = 0; k < rows[r].size(); ++k) {
        (std::isnan(rows[r][k]) ? nans : numbers).push_back(static_cast<index_t>(k));
      }
      const auto& row = rows[r];
      auto less = [&](index_t i, index_t j) {
        return row[static_cast<std::size_t>(i)] < row[static_cast<std::size_t>(j)];
      };
      auto greater = [&](index_t i, index_t j) {
        return row[static_cast<std::size_t>(i)] > row[static_cast<std::size_t>(j)];
      };
      up_at[r] = numbers;
      std::stable_sort(up_at[r].begin(), up_at[r].end(), less);
      down_at[r] = numbers;
      std::stable_sort(down_at[r].begin(), down_at[r].end(), greater);
      up_at[r].insert(up_at[r].end(), nans.begin(), nans.end());
      down_at[r].insert(down_at[r].end(), nans.begin(), nans.end());
      for (const index_t k : up_at[r]) {
        up[r].push_back(row[static_cast<std::size_t>(k)]);
      }
      for (const index_t k : down_at[r]) {
        down[r].push_back(row[static_cast<std::size_t>(k)]);
      }
    }
    const JaggedTensor t(rows);
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        CHECK(same_values(rows_of(strata::sort(t)), up));
        CHECK(same_values(rows_of(strata::sort(t, false)), down));
        CHECK(rows_of(strata::argsort(t)) == up_at);
        CHECK(rows_of(strata::argsort(t, false)) == down_at);
      });
    }
  }
  // The lists of a n * var * var tensor sort one by one.
  const JaggedTensor<double> lists(Lists{{{3, 1, 2}, {}}, {{9, 8}, {7}}});
  CHECK(lists_of(strata::sort(lists)) == Lists{{{1, 2, 3}, {}}, {{8, 9}, {7}}});
}

TEST_CASE("take_rows, filter_rows, local_index and num", "[select][jagged]") {
  std::mt19937 rng(112);
  for (int trial = 0; trial < 20; ++trial) {
    const index_t n = 1 + trial * 5;
    const Rows rows = random_rows(rng, n, trial % 4 == 0 ? 1 : 12, 50);
    const JaggedTensor t(rows);
    std::vector<std::int64_t> picks;
    Rows picked;
    Tensor<bool> mask(Index{n});
    Rows kept;
    std::vector<std::vector<index_t>> positions;
    std::vector<index_t> lengths;
    for (index_t k = 0; k < 2 * n; ++k) {
      const index_t i = std::uniform_int_distribution<index_t>(-n, n - 1)(rng);
      picks.push_back(i);
      picked.push_back(rows[static_cast<std::size_t>(i < 0 ? i + n : i)]);
    }
    for (index_t r = 0; r < n; ++r) {
      const auto& row = rows[static_cast<std::size_t>(r)];
      mask(r) = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
      if (mask(r)) {
        kept.push_back(row);
      }
      positions.emplace_back(row.size());
      std::iota(positions.back().begin(), positions.back().end(), index_t{0});
      lengths.push_back(static_cast<index_t>(row.size()));
    }
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        CHECK(rows_of(strata::take_rows(t, picks)) == picked);
        CHECK(rows_of(strata::filter_rows(t, mask)) == kept);
        CHECK(rows_of(strata::local_index(t)) == positions);
      });
    }
    const Tensor<index_t> counts = strata::num(t, 1);
    CHECK(std::vector<index_t>(counts.data(), counts.data() + counts.size()) == lengths);
    CHECK(strata::num(t, 0).rank() == 0);
    CHECK(strata::num(t, 0)() == n);
  }
  // A 2-D index gives two outer axes; rows of rank 2 travel whole; a slice of rows picks its
  // own rows from 0.
  const JaggedTensor<double> t(Rows{{0, 1.1, 2.2}, {}, {3.3, 4.4}, {5.5}});
  const JaggedTensor<double> grid = strata::take_rows(t, Tensor<int>{{3, 0}, {-1, 2}});
  CHECK(Index(grid.shape().outer_extents().begin(), grid.shape().outer_extents().end()) ==
        Index{2, 2});
  CHECK(rows_of(grid) == Rows{{5.5}, {0, 1.1, 2.2}, {5.5}, {3.3, 4.4}});
  const JaggedTensor<double> lists(Lists{{{1, 2}, {}}, {{3}}, {{4, 5, 6}}});
  CHECK(lists_of(strata::take_rows(lists, {2, 0})) == Lists{{{4, 5, 6}}, {{1, 2}, {}}});
  CHECK(strata::to_string(strata::local_index(lists)) == "[[[0, 1], []], [[0]], [[0, 1, 2]]]");
  CHECK(rows_of(strata::take_rows(t.rows(2, 4), {1, 0})) == Rows{{5.5}, {3.3, 4.4}});
  const Tensor<index_t> lists_per_row = strata::num(lists, 1);
  CHECK(std::vector<index_t>(lists_per_row.data(), lists_per_row.data() + 3) ==
        std::vector<index_t>{2, 1, 1});
}

TEST_CASE("awkward's joining and reordering examples, worked out by hand",
          "[select][jagged][join]") {
  // ak.concatenate([[[1, 2, 3], [], [4, 5]], [[6, 7], [8]]]) and, row by row, with
  // [[10], [20, 30], []].
  const JaggedTensor<int> one(std::vector<std::vector<int>>{{1, 2, 3}, {}, {4, 5}});
  const JaggedTensor<int> two(std::vector<std::vector<int>>{{6, 7}, {8}});
  const JaggedTensor<int> three(std::vector<std::vector<int>>{{10}, {20, 30}, {}});
  CHECK(strata::to_string(strata::concat(0, {one, two})) == "[[1, 2, 3], [], [4, 5], [6, 7], [8]]");
  CHECK(strata::to_string(strata::concat(1, {one, three})) == "[[1, 2, 3, 10], [20, 30], [4, 5]]");
  // ak.cartesian([[1, 2, 3], [], [4, 5]], [[10, 20], [], [30]]), unzipped.
  const JaggedTensor<int> tens(std::vector<std::vector<int>>{{10, 20}, {}, {30}});
  const auto [left, right] = strata::cartesian(one, tens);
  CHECK(strata::to_string(left) == "[[1, 1, 2, 2, 3, 3], [], [4, 5]]");
  CHECK(strata::to_string(right) == "[[10, 20, 10, 20, 10, 20], [], [30, 30]]");
  // ak.combinations([[1, 2, 3, 4], [], [5], [6, 7]], 2), unzipped.
  const JaggedTensor<int> events(std::vector<std::vector<int>>{{1, 2, 3, 4}, {}, {5}, {6, 7}});
  const auto [first, second] = strata::combinations<2>(events);
  CHECK(strata::to_string(first) == "[[1, 1, 1, 2, 2, 3], [], [], [6]]");
  CHECK(strata::to_string(second) == "[[2, 3, 4, 3, 4, 4], [], [], [7]]");
  // ak.sort / ak.argsort([[3, 1, 2], [], [5, 4]]).
  const JaggedTensor<int> mixed(std::vector<std::vector<int>>{{3, 1, 2}, {}, {5, 4}});
  CHECK(strata::to_string(strata::sort(mixed)) == "[[1, 2, 3], [], [4, 5]]");
  CHECK(strata::to_string(strata::sort(mixed, false)) == "[[3, 2, 1], [], [5, 4]]");
  CHECK(strata::to_string(strata::argsort(mixed)) == "[[1, 2, 0], [], [1, 0]]");
  // ak.num(array, axis=1) and ak.local_index.
  const Tensor<index_t> n = strata::num(one, 1);
  CHECK(strata::to_string(n) == "[3 0 2]");
  CHECK(strata::to_string(strata::local_index(one)) == "[[0, 1, 2], [], [0, 1]]");
  // ak.to_regular([[1, 2], [3, 4]]) and ak.zip.
  const JaggedTensor<int> square(std::vector<std::vector<int>>{{1, 2}, {3, 4}});
  CHECK(strata::to_string(strata::to_regular(square)) == "[[1 2]\n [3 4]]");
  const auto z = strata::zip(one, strata::local_index(one));
  CHECK(z.row(2)[1] == std::tuple<int, index_t>{5, 1});
}

TEST_CASE("joining and reshaping reject bad input, naming it", "[select][jagged][join][errors]") {
  using strata::test::check_error;
  const JaggedTensor<int> one(std::vector<std::vector<int>>{{1, 2, 3}, {}, {4, 5}});
  const JaggedTensor<int> two(std::vector<std::vector<int>>{{6, 7}, {8}});
  const JaggedTensor<int> lists(std::vector<std::vector<std::vector<int>>>{{{1}, {}}, {{2, 3}}});
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::concat(0, {one, lists});
      },
      "concat", "different depths");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::concat(1, {one, two});
      },
      "concat", "outer extents [2]");
  check_error<strata::IndexError>([&] { (void)strata::concat(2, {one, two}); }, "concat", "axis 2");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::concat(1, {lists, lists});
      },
      "concat", "1-D rows");
  check_error<strata::ShapeError>(
      [&] { (void)strata::concat(0, std::vector<JaggedTensor<int>>{}); }, "concat", "no tensors");
  check_error<strata::ShapeError>([&] { (void)strata::flatten(one, 1); }, "flatten", "axis 1");
  check_error<strata::IndexError>([&] { (void)strata::flatten(lists, 3); }, "flatten", "axis 3");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::unflatten(one, std::vector<int>{2, 2});
      },
      "unflatten", "add up to 4");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::unflatten(one, std::vector<int>{4, -1});
      },
      "unflatten", "length -1");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::unflatten(one, Tensor<int>{{1, 2}});
      },
      "unflatten", "[1 2]");
  check_error<strata::ShapeError>(
      [&] { (void)strata::unflatten(one, JaggedTensor<int>(std::vector<std::vector<int>>{{3}})); },
      "unflatten", "outer extents");
  // Deeper rows: an axis that is not inner, beyond the rank, counts of another shape or sum.
  const JaggedTensor<double> deep(std::vector<Lists>{{{{1, 2}, {3}}}, {}});
  const JaggedTensor<int> two_counts(std::vector<std::vector<int>>{{1, 1}, {1}});
  check_error<strata::ShapeError>([&] { (void)strata::unflatten(deep, two_counts, 0); },
                                  "unflatten", "axis 0 of");
  check_error<strata::IndexError>([&] { (void)strata::unflatten(deep, two_counts, 4); },
                                  "unflatten", "axis 4 is outside the 4 axes");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::unflatten(deep, JaggedTensor<int>(std::vector<std::vector<int>>{{1}}), 1);
      },
      "unflatten", "counts of shape");
  check_error<strata::ShapeError>([&] { (void)strata::unflatten(deep, two_counts, 2); },
                                  "unflatten", "counts of shape");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::unflatten(deep, JaggedTensor<int>(std::vector<std::vector<int>>{{1}, {1}}),
                                3);
      },
      "unflatten", "the counts for list 0 add up to 1 but the list has 2 entries");
  check_error<strata::ShapeError>([&] { (void)strata::unflatten(deep, std::vector<int>{3}); },
                                  "unflatten", "the counts add up to 3 but");
  CHECK(strata::to_string(deep) == "[[[[1, 2], [3]]], []]");
  const JaggedTensor<int> wrong(std::vector<std::vector<int>>{{3}, {}, {1}});
  check_error<strata::ShapeError>([&] { (void)strata::unflatten(one, wrong); }, "unflatten",
                                  "row 2");
  check_error<strata::ShapeError>([&] { (void)strata::to_regular(one); }, "to_regular", "row 1");
  check_error<strata::ShapeError>([&] { (void)strata::from_regular(Tensor<int>(Index{3})); },
                                  "from_regular", "[3]");
  check_error<strata::ShapeError>([&] { (void)strata::zip(one, two); }, "zip", "Jagged[2]");
  const JaggedTensor<int> other(std::vector<std::vector<int>>{{1, 2, 3}, {}, {4}});
  check_error<strata::ShapeError>([&] { (void)strata::zip(one, other); }, "zip", "row 2");
  check_error<strata::ShapeError>([&] { (void)strata::cartesian(one, two); }, "cartesian",
                                  "outer extents");
  check_error<strata::ShapeError>([&] { (void)strata::combinations<2>(lists); }, "combinations",
                                  "1-D rows");
  check_error<strata::IndexError>(
      [&] {
        (void)strata::take_rows(one, {0, 3});
      },
      "take_rows", "index 3");
  check_error<strata::IndexError>([&] { (void)strata::take_rows(one, {-4}); }, "take_rows",
                                  "index -4");
  check_error<strata::ShapeError>([&] { (void)strata::filter_rows(one, Tensor<bool>(Index{2})); },
                                  "filter_rows", "[2]");
  check_error<strata::IndexError>([&] { (void)strata::num(one, 2); }, "num", "axis 2");
  check_error<strata::ShapeError>([&] { (void)strata::num(lists, 2); }, "num", "axis 2");
  // The tensors are unchanged.
  CHECK(strata::to_string(one) == "[[1, 2, 3], [], [4, 5]]");
}

TEST_CASE("rows of lists kept as a table of extents or as lists are one shape",
          "[select][jagged][lists]") {
  // Nested vectors whose rows are each rectangular keep a table of extents; unflatten keeps
  // lists. The same rows either way: equal shapes, and operands of one expression.
  const JaggedTensor<float> table(
      std::vector<std::vector<std::vector<float>>>{{{1, 2}, {3, 4}}, {{5}}, {}});
  const JaggedTensor<float> flat(std::vector<std::vector<float>>{{1, 2, 3, 4}, {5}, {}});
  const JaggedTensor<float> lists =
      strata::unflatten(flat, JaggedTensor(std::vector<std::vector<int>>{{2, 2}, {1}, {}}));
  REQUIRE(table.shape().smooth_rows());
  REQUIRE_FALSE(lists.shape().smooth_rows());
  CHECK(table.shape() == lists.shape());
  CHECK(lists.shape() == table.shape());
  CHECK(lists.shape() ==
        Jagged(std::vector<strata::Shape>{strata::Smooth{2, 2}, Jagged::from_lengths({1}),
                                          Jagged::from_lengths(Index{})}));
  const JaggedTensor<float> sum = table + lists;
  CHECK(std::vector<float>(sum.data(), sum.data() + sum.size()) ==
        std::vector<float>{2, 4, 6, 8, 10});
  // Other rows are another shape, named at the first row that differs.
  const JaggedTensor<float> other =
      strata::unflatten(flat, JaggedTensor(std::vector<std::vector<int>>{{1, 3}, {1}, {}}));
  CHECK_FALSE(table.shape() == other.shape());
  strata::test::check_error<strata::ShapeError>([&] { (void)JaggedTensor<float>(table + other); },
                                                "jagged expression", "row 0");
}

}  // namespace test_select_jagged_join
