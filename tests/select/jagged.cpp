// Per-row indexing of jagged tensors as awkward-array indexes ragged arrays (take_each with a
// ragged or regular index, filter_each with a ragged mask), against references over nested
// std::vectors on random rows with empty rows and rows of length 1, at 1, 2 and 4 threads;
// awkward's documented examples by hand; bad input with typed errors. Rows of lists (`n * var
// * var`, rectangular `n * var * k`, deeper) are indexed at the index's depth.
#include "strata/select/jagged.hpp"
#include "strata/select/jagged_join.hpp"
#include "strata/tensor/list_array.hpp"

#include "check_error.hpp"
#include "jagged_rows.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

namespace test_select_jagged {

using strata::Index;
using strata::index_t;
using strata::JaggedTensor;
using strata::Tensor;
using Rows = strata::test::Rows;
using Deep = strata::test::Deep;
using strata::test::random_rows;
using strata::test::rows_of;

namespace {

// The rows of lists of a tensor with rows of rank 2, as nested vectors.
Deep deep_of(const JaggedTensor<double>& t) {
  const strata::ListArray<double> all(t);
  Deep out;
  for (index_t r = 0; r < all.n_rows(); ++r) {
    const strata::ListArray<double> lists = all.row_lists(r);
    out.emplace_back();
    for (index_t j = 0; j < lists.n_rows(); ++j) {
      const std::span<double> list = lists.row(j);
      out.back().emplace_back(list.begin(), list.end());
    }
  }
  return out;
}

// A random position in [0, n) for n > 0, negative (from the end) half the time.
std::int32_t random_position(std::mt19937& rng, std::size_t n, std::size_t& k) {
  k = std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
  const bool negative = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
  return static_cast<std::int32_t>(k) - (negative ? static_cast<std::int32_t>(n) : 0);
}

}  // namespace

TEST_CASE("take_each and filter_each match the nested-vector reference at every thread count",
          "[select][jagged]") {
  std::mt19937 rng(20261126);
  for (int trial = 0; trial < 20; ++trial) {
    const Rows rows = random_rows(rng, 1 + trial * 13, trial % 4 == 0 ? 1 : 30, 50);
    const JaggedTensor t(rows);
    // A ragged index: per row, up to 6 picks anywhere in the row (negative half the time);
    // empty rows pick nothing.
    std::vector<std::vector<std::int32_t>> picks(rows.size());
    Rows taken(rows.size());
    std::vector<std::vector<bool>> marks(rows.size());
    Rows kept(rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const auto n = static_cast<std::int32_t>(rows[r].size());
      const int count = n == 0 ? 0 : std::uniform_int_distribution<int>(0, 6)(rng);
      for (int j = 0; j < count; ++j) {
        const std::int32_t k = std::uniform_int_distribution<std::int32_t>(0, n - 1)(rng);
        const bool negative = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
        picks[r].push_back(negative ? k - n : k);
        taken[r].push_back(rows[r][static_cast<std::size_t>(k)]);
      }
      for (const double x : rows[r]) {
        const bool keep = std::uniform_int_distribution<int>(0, 2)(rng) != 0;
        marks[r].push_back(keep);
        if (keep) {
          kept[r].push_back(x);
        }
      }
    }
    const JaggedTensor<std::int32_t> index(picks);
    const JaggedTensor<bool> mask(marks);
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        INFO(rows.size() << " rows, " << threads << " threads");
        CHECK(rows_of(strata::take_each(t, index)) == taken);
        CHECK(rows_of(strata::filter_each(t, mask)) == kept);
      });
    }
    // A regular index [n, 2]: the first and the last element of every non-empty row.
    Rows non_empty;
    for (const auto& row : rows) {
      if (!row.empty()) {
        non_empty.push_back(row);
      }
    }
    const JaggedTensor u(non_empty);
    Tensor<index_t> ends(Index{static_cast<index_t>(non_empty.size()), 2});
    Rows expected;
    for (std::size_t r = 0; r < non_empty.size(); ++r) {
      ends(static_cast<index_t>(r), 0) = 0;
      ends(static_cast<index_t>(r), 1) = -1;
      expected.push_back({non_empty[r].front(), non_empty[r].back()});
    }
    CHECK(rows_of(strata::take_each(u, ends)) == expected);
    CHECK(rows_of(strata::take_each(u, ends.transpose().copy().transpose())) == expected);
  }
}

TEST_CASE("awkward's indexing examples, worked out by hand", "[select][jagged]") {
  // ak.Array([[0.0, 1.1, 2.2], [], [3.3, 4.4], [5.5], [6.6, 7.7, 8.8, 9.9]]): the array of
  // awkward's documentation.
  const JaggedTensor t(Rows{{0.0, 1.1, 2.2}, {}, {3.3, 4.4}, {5.5}, {6.6, 7.7, 8.8, 9.9}});
  // array[array > 3]: each row keeps its elements above 3, empty rows stay.
  CHECK(strata::to_string(strata::filter_each(t, t > 3.0)) ==
        "[[], [], [3.3, 4.4], [5.5], [6.6, 7.7, 8.8, 9.9]]");
  // array[ak.argmax(array, axis=1, keepdims=True)] on the non-empty rows: each row's maximum.
  const JaggedTensor s(Rows{{0.0, 1.1, 2.2}, {3.3, 4.4}, {5.5}, {6.6, 7.7, 8.8, 9.9}});
  CHECK(strata::to_string(strata::take_each(s, strata::argmax(s, 1, true))) ==
        "[[2.2], [4.4], [5.5], [9.9]]");
  // A ragged index with repeats and negative positions.
  const JaggedTensor<int> picks(std::vector<std::vector<int>>{{2, 0}, {}, {-1, -1, 0}, {0}, {}});
  CHECK(strata::to_string(strata::take_each(t, picks)) ==
        "[[2.2, 0], [], [4.4, 4.4, 3.3], [5.5], []]");
  // Rows that keep their absolute numbers (a slice of rows) index as themselves.
  const JaggedTensor<double> tail = t.rows(2, 5);
  CHECK(strata::to_string(strata::filter_each(tail, tail < 6.0)) == "[[3.3, 4.4], [5.5], []]");
}

TEST_CASE("take_each and filter_each reject bad indices and masks, naming them",
          "[select][jagged][errors]") {
  using strata::test::check_error;
  const JaggedTensor t(Rows{{1, 2, 3}, {}, {4, 5}});
  const JaggedTensor<int> two_rows(std::vector<std::vector<int>>{{0}, {}});
  check_error<strata::ShapeError>([&] { (void)strata::take_each(t, two_rows); }, "take_each",
                                  "Jagged[2]");
  const JaggedTensor<int> out_of_row(std::vector<std::vector<int>>{{0, 3}, {}, {1}});
  check_error<strata::IndexError>([&] { (void)strata::take_each(t, out_of_row); }, "take_each",
                                  "index 3 is outside row 0");
  const JaggedTensor<int> below(std::vector<std::vector<int>>{{0}, {}, {-3}});
  check_error<strata::IndexError>([&] { (void)strata::take_each(t, below); }, "take_each", "row 2");
  const JaggedTensor<int> empty_row(std::vector<std::vector<int>>{{0}, {0}, {1}});
  check_error<strata::IndexError>([&] { (void)strata::take_each(t, empty_row); }, "take_each",
                                  "row 1 of length 0");
  check_error<strata::ShapeError>([&] { (void)strata::take_each(t, Tensor<int>(Index{3})); },
                                  "take_each", "[3]");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::take_each(t, Tensor<int>(Index{2, 1}));
      },
      "take_each", "[2 1]");
  const JaggedTensor<bool> other(std::vector<std::vector<bool>>{{true, false, true}, {}, {true}});
  check_error<strata::ShapeError>([&] { (void)strata::filter_each(t, other); }, "filter_each",
                                  "row 2");
  const JaggedTensor<bool> fewer(std::vector<std::vector<bool>>{{true}, {}});
  check_error<strata::ShapeError>([&] { (void)strata::filter_each(t, fewer); }, "filter_each",
                                  "Jagged[2]");
  // Rows that are not 1-D, over two outer modes: deeper rows take one outer axis.
  const auto grid = JaggedTensor<double>::from_values(
      {1, 2, 3, 4}, strata::Jagged::from_extents(Index{1, 2}, 2, Index{1, 1, 1, 3}));
  check_error<strata::ShapeError>(
      [&] { (void)strata::filter_each(grid, JaggedTensor<bool>(grid.shape())); }, "filter_each",
      "one outer axis");
}

TEST_CASE("take_each and filter_each choose the lists of rows of lists, or inside each list",
          "[select][jagged]") {
  std::mt19937 rng(20261128);
  for (int trial = 0; trial < 24; ++trial) {
    std::uniform_int_distribution<int> lists(0, trial % 3 == 0 ? 1 : 5);
    const bool rectangular = trial % 4 == 1;  // n * var * k: smooth rows of rank 2
    const Deep data = strata::test::random_deep(
        rng, static_cast<std::size_t>(trial % 5 == 0 ? 1 : 3 + trial * 7), lists, rectangular);
    const JaggedTensor<double> t = strata::test::deep_tensor(data, rectangular);
    // Depth 1: lists picked (with repeats, negative half the time) and kept per row.
    std::vector<std::vector<std::int32_t>> picks(data.size());
    std::vector<std::vector<bool>> marks(data.size());
    Deep taken(data.size());
    Deep kept(data.size());
    // Depth 2: values picked and kept inside each list.
    std::vector<std::vector<std::vector<std::int32_t>>> inner_picks(data.size());
    std::vector<std::vector<std::vector<bool>>> inner_marks(data.size());
    Deep inner_taken(data.size());
    Deep inner_kept(data.size());
    for (std::size_t r = 0; r < data.size(); ++r) {
      const int count = data[r].empty() ? 0 : std::uniform_int_distribution<int>(0, 6)(rng);
      for (int j = 0; j < count; ++j) {
        std::size_t k = 0;
        picks[r].push_back(random_position(rng, data[r].size(), k));
        taken[r].push_back(data[r][k]);
      }
      for (const auto& list : data[r]) {
        const bool keep = std::uniform_int_distribution<int>(0, 2)(rng) != 0;
        marks[r].push_back(keep);
        if (keep) {
          kept[r].push_back(list);
        }
        inner_picks[r].emplace_back();
        inner_marks[r].emplace_back();
        inner_taken[r].emplace_back();
        inner_kept[r].emplace_back();
        const int n = list.empty() ? 0 : std::uniform_int_distribution<int>(0, 4)(rng);
        for (int j = 0; j < n; ++j) {
          std::size_t k = 0;
          inner_picks[r].back().push_back(random_position(rng, list.size(), k));
          inner_taken[r].back().push_back(list[k]);
        }
        for (const double x : list) {
          const bool in = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
          inner_marks[r].back().push_back(in);
          if (in) {
            inner_kept[r].back().push_back(x);
          }
        }
      }
    }
    const JaggedTensor<std::int32_t> index(picks);
    const JaggedTensor<bool> mask(marks);
    INFO(t.type_string() << (rectangular ? ", rectangular rows" : ""));
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        INFO(threads << " threads");
        CHECK(deep_of(strata::take_each(t, index)) == taken);
        CHECK(deep_of(strata::filter_each(t, mask)) == kept);
      });
    }
    if (!data.empty()) {
      const JaggedTensor<std::int32_t> deep_index(inner_picks);
      const JaggedTensor<bool> deep_mask(inner_marks);
      CHECK(deep_of(strata::take_each(t, deep_index)) == inner_taken);
      CHECK(deep_of(strata::filter_each(t, deep_mask)) == inner_kept);
      // The awkward idiom: the positions that sort each list, taken, are the sorted lists.
      CHECK(deep_of(strata::take_each(t, strata::argsort(t, false))) ==
            deep_of(strata::sort(t, false)));
    }
    if (!data.empty() && std::ranges::all_of(data, [](const auto& row) { return !row.empty(); })) {
      // A dense [n, 2] index: the last and the first list of every row.
      Tensor<index_t> ends(Index{static_cast<index_t>(data.size()), 2});
      Deep expected;
      for (std::size_t r = 0; r < data.size(); ++r) {
        ends(static_cast<index_t>(r), 0) = -1;
        ends(static_cast<index_t>(r), 1) = 0;
        expected.push_back({data[r].back(), data[r].front()});
      }
      CHECK(deep_of(strata::take_each(t, ends)) == expected);
    }
    // A slice of rows indexes as itself.
    const auto half = static_cast<index_t>(data.size() / 2);
    const JaggedTensor<double> tail = t.rows(half, static_cast<index_t>(data.size()));
    const JaggedTensor<bool> tail_mask(std::vector<std::vector<bool>>(
        marks.begin() + static_cast<std::ptrdiff_t>(half), marks.end()));
    CHECK(deep_of(strata::filter_each(tail, tail_mask)) ==
          Deep(kept.begin() + static_cast<std::ptrdiff_t>(half), kept.end()));
    const auto from = static_cast<std::ptrdiff_t>(half);
    const JaggedTensor<std::int32_t> tail_index(std::vector<std::vector<std::vector<std::int32_t>>>(
        inner_picks.begin() + from, inner_picks.end()));
    const JaggedTensor<bool> tail_marks(
        std::vector<std::vector<std::vector<bool>>>(inner_marks.begin() + from, inner_marks.end()));
    CHECK(deep_of(strata::take_each(tail, tail_index)) ==
          Deep(inner_taken.begin() + from, inner_taken.end()));
    CHECK(deep_of(strata::filter_each(tail, tail_marks)) ==
          Deep(inner_kept.begin() + from, inner_kept.end()));
  }
}

TEST_CASE("take_each and filter_each by hand on awkward's examples of rows of lists",
          "[select][jagged]") {
  using V3 = std::vector<std::vector<std::vector<int>>>;
  const JaggedTensor<int> events(V3{{{1, 2}, {3}}, {{4, 5, 6}}, {}});
  CHECK(strata::to_string(strata::take_each(
            events, JaggedTensor<int>(std::vector<std::vector<int>>{{-1, 0}, {}, {}}))) ==
        "[[[3], [1, 2]], [], []]");
  CHECK(strata::to_string(strata::filter_each(events, events > 2)) ==
        "[[[], [3]], [[4, 5, 6]], []]");
  CHECK(strata::to_string(strata::filter_each(
            events, JaggedTensor<bool>(std::vector<std::vector<bool>>{
                        {false, true}, {true}, {}}))) == "[[[3]], [[4, 5, 6]], []]");
  // Jets of four numbers each (n * var * 4), cut on one value per jet and ordered by it.
  const JaggedTensor<double> jets(std::vector<std::vector<std::vector<double>>>{
      {{10, 0, 1, 2}, {40, 3, 4, 5}, {35, 1, 1, 1}}, {}, {{50, 0, 0, 0}}});
  const JaggedTensor<double> pt(Rows{{10, 40, 35}, {}, {50}});
  CHECK(strata::to_string(strata::filter_each(jets, pt > 30.0)) ==
        "[[[40, 3, 4, 5], [35, 1, 1, 1]], [], [[50, 0, 0, 0]]]");
  CHECK(strata::to_string(strata::take_each(jets, strata::argsort(pt, false))) ==
        "[[[40, 3, 4, 5], [35, 1, 1, 1], [10, 0, 1, 2]], [], [[50, 0, 0, 0]]]");
  // Three ragged levels: a n * var index picks lists of lists, one of the rows' depth values.
  using V4 = std::vector<V3>;
  const JaggedTensor<int> deep(V4{{{{1, 2}, {3}}, {{4}}}, {{{5, 6, 7}}}});
  CHECK(strata::to_string(strata::take_each(
            deep, JaggedTensor<int>(std::vector<std::vector<int>>{{1, 0}, {0, 0}}))) ==
        "[[[[4]], [[1, 2], [3]]], [[[5, 6, 7]], [[5, 6, 7]]]]");
  CHECK(strata::to_string(strata::filter_each(
            deep, JaggedTensor<bool>(std::vector<std::vector<std::vector<bool>>>{
                      {{false, true}, {true}}, {{false}}}))) == "[[[[3]], [[4]]], [[]]]");
  CHECK(strata::to_string(strata::filter_each(deep, deep % 2 == 1)) ==
        "[[[[1], [3]], [[]]], [[[5, 7]]]]");
}

TEST_CASE("take_each and filter_each of rows of lists reject bad indices and masks, naming them",
          "[select][jagged][errors]") {
  using strata::test::check_error;
  using V3 = std::vector<std::vector<std::vector<int>>>;
  const JaggedTensor<int> events(V3{{{1, 2}, {3}}, {{4, 5, 6}}, {}});
  const std::string before = strata::to_string(events);
  // Outside a row (its lists), outside a list (named by its positions), a row of another
  // number of lists, a list of another length, an index deeper than the rows, other rows.
  check_error<strata::IndexError>(
      [&] {
        (void)strata::take_each(events,
                                JaggedTensor<int>(std::vector<std::vector<int>>{{-3}, {}, {}}));
      },
      "take_each", "index -3 is outside row 0 of length 2");
  check_error<strata::IndexError>(
      [&] {
        (void)strata::take_each(events.rows(1, 3), JaggedTensor<int>(V3{{{7}}, {}}));
      },
      "take_each", "index 7 is outside the list at [1, 0] of length 3");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::take_each(events, JaggedTensor<int>(V3{{{0}}, {{2}}, {}}));
      },
      "take_each", "row 0 has 2 lists and the index 1");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::filter_each(events,
                                  JaggedTensor<bool>(std::vector<std::vector<std::vector<bool>>>{
                                      {{true, false}, {true}}, {{true, true}}, {}}));
      },
      "filter_each", "the list at [1, 0] has 3 elements and the mask 2");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::filter_each(
            events, JaggedTensor<bool>(std::vector<std::vector<bool>>{{true}, {true}, {}}));
      },
      "filter_each", "row 0 has 2 lists and the mask 1");
  const JaggedTensor<int> deeper(std::vector<V3>{{{{0}}}, {}, {}});
  check_error<strata::ShapeError>([&] { (void)strata::take_each(events, deeper); }, "take_each",
                                  "no deeper than the rows");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::take_each(events, JaggedTensor<int>(std::vector<std::vector<int>>{{0}, {}}));
      },
      "take_each", "Jagged[2]");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::take_each(events, Tensor<int>(Index{2, 1}));
      },
      "take_each", "[2 1]");
  const JaggedTensor<int> flat(std::vector<std::vector<int>>{{1}, {2, 3}});
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::filter_each(
            flat, JaggedTensor<bool>(
                      std::vector<std::vector<std::vector<bool>>>{{{true}}, {{true, false}}}));
      },
      "filter_each", "no deeper than the rows");
  CHECK(strata::to_string(events) == before);
}

TEST_CASE("chip_each at an inner axis takes element i of every list, as awkward's [:, :, i]",
          "[select][jagged]") {
  std::mt19937 rng(20261129);
  for (int trial = 0; trial < 16; ++trial) {
    std::uniform_int_distribution<int> lists(0, trial % 3 == 0 ? 1 : 5);
    const bool rectangular = trial % 4 == 1;
    Deep data = strata::test::random_deep(
        rng, static_cast<std::size_t>(trial % 5 == 0 ? 1 : 3 + trial * 7), lists, rectangular);
    double next = 1000;
    for (auto& row : data) {  // every list at least two long (rectangular rows stay so)
      for (auto& list : row) {
        while (list.size() < 2) {
          list.push_back(next++);
        }
      }
    }
    const JaggedTensor<double> t = strata::test::deep_tensor(data, rectangular);
    for (const index_t i : {index_t{0}, index_t{1}, index_t{-1}, index_t{-2}}) {
      Rows expected;
      for (const auto& row : data) {
        expected.emplace_back();
        for (const auto& list : row) {
          const auto n = static_cast<index_t>(list.size());
          expected.back().push_back(list[static_cast<std::size_t>(i < 0 ? i + n : i)]);
        }
      }
      INFO(t.type_string() << ", element " << i);
      CHECK(rows_of(strata::chip_each(t, i, 2)) == expected);
      CHECK(rows_of(strata::chip_each(t, i, -1)) == expected);
    }
    // A slice of rows chips as itself.
    const auto half = static_cast<index_t>(data.size() / 2);
    Rows firsts;
    for (auto r = static_cast<std::size_t>(half); r < data.size(); ++r) {
      firsts.emplace_back();
      for (const auto& list : data[r]) {
        firsts.back().push_back(list.front());
      }
    }
    CHECK(rows_of(strata::chip_each(t.rows(half, static_cast<index_t>(data.size())), 0, 2)) ==
          firsts);
  }
  // Three ragged levels, by hand: list i of each list of lists (axis 2), or element i of each
  // innermost list (axis 3); axis 1 is the member chip_each.
  using V3 = std::vector<std::vector<std::vector<int>>>;
  const JaggedTensor<int> deep(std::vector<V3>{{{{1, 2}, {3}}, {{4}}}, {{{5, 6, 7}}}, {}});
  CHECK(strata::to_string(strata::chip_each(deep, 0, 2)) == "[[[1, 2], [4]], [[5, 6, 7]], []]");
  CHECK(strata::to_string(strata::chip_each(deep, -1, 3)) == "[[[2, 3], [4]], [[7]], []]");
  const JaggedTensor<int> events(V3{{{1, 2}, {3}}, {{4, 5, 6}}});
  CHECK(strata::to_string(strata::chip_each(events, 0, 1)) ==
        strata::to_string(events.chip_each(0)));
  const JaggedTensor<double> jets(std::vector<std::vector<std::vector<double>>>{
      {{10, 0, 1, 2}, {40, 3, 4, 5}}, {}, {{50, 0, 0, 0}}});
  CHECK(strata::to_string(strata::chip_each(jets, 0, 2)) == "[[10, 40], [], [50]]");
  CHECK(strata::to_string(strata::chip_each(jets, 3, 2)) == "[[2, 5], [], [0]]");
}

TEST_CASE("chip_each at an inner axis rejects bad axes and positions, naming them",
          "[select][jagged][errors]") {
  using strata::test::check_error;
  using V3 = std::vector<std::vector<std::vector<int>>>;
  const JaggedTensor<int> events(V3{{{1, 2}, {3}}, {{4, 5, 6}}});
  const std::string before = strata::to_string(events);
  check_error<strata::IndexError>([&] { (void)strata::chip_each(events, 1, 2); }, "chip_each",
                                  "index 1 is outside the list at [0, 1] of length 1");
  check_error<strata::IndexError>([&] { (void)strata::chip_each(events, -4, -1); }, "chip_each",
                                  "index -4 is outside the list at [0, 0]");
  check_error<strata::IndexError>([&] { (void)strata::chip_each(events, 0, 3); }, "chip_each",
                                  "axis 3 is not an inner axis");
  check_error<strata::IndexError>([&] { (void)strata::chip_each(events, 0, 0); }, "chip_each",
                                  "axis 0 is not an inner axis");
  const JaggedTensor<int> flat(std::vector<std::vector<int>>{{1}});
  check_error<strata::ShapeError>([&] { (void)strata::chip_each(flat, 0, 1); }, "chip_each",
                                  "rows of rank 2 or more");
  const JaggedTensor<std::int32_t> deep(std::vector<V3>{{{{1, 2}, {3}}, {{4}}}});
  check_error<strata::IndexError>([&] { (void)strata::chip_each(deep, 1, 3); }, "chip_each",
                                  "the list at [0, 0, 1]");
  CHECK(strata::to_string(events) == before);
}

TEST_CASE("take_each and filter_each choose at every depth of rows of three ragged levels",
          "[select][jagged]") {
  // The general path (ListArray's regroup, then packed): rows of lists of lists of values,
  // chosen at depth 1, 2 and 3 against the same choices made on nested vectors.
  using V1 = std::vector<int>;
  using V2 = std::vector<V1>;
  using V3 = std::vector<V2>;
  using V4 = std::vector<V3>;
  std::mt19937 rng(20261130);
  std::uniform_int_distribution<int> few(0, 3);
  const auto pick = [&](std::size_t n, std::size_t& k) {  // a position, negative half the time
    return random_position(rng, n, k);
  };
  const auto coin = [&] { return std::uniform_int_distribution<int>(0, 1)(rng) == 1; };
  for (int trial = 0; trial < 30; ++trial) {
    V4 data(static_cast<std::size_t>(1 + trial % 6));
    int next = 0;
    for (auto& row : data) {
      row.resize(static_cast<std::size_t>(few(rng)));
      for (auto& list : row) {
        list.resize(static_cast<std::size_t>(few(rng)));
        for (auto& sub : list) {
          sub.resize(static_cast<std::size_t>(few(rng)));
          for (int& x : sub) {
            x = next++;
          }
        }
      }
    }
    const JaggedTensor<int> t(data);
    // Depth 1: lists of each row; depth 2: sub-lists of each list; depth 3: values.
    std::vector<std::vector<int>> index1(data.size());
    std::vector<std::vector<bool>> mask1(data.size());
    V3 index2(data.size());
    std::vector<std::vector<std::vector<bool>>> mask2(data.size());
    V4 index3(data.size());
    std::vector<std::vector<std::vector<std::vector<bool>>>> mask3(data.size());
    V4 taken1(data.size()), kept1(data.size()), taken2(data.size()), kept2(data.size()),
        taken3(data.size()), kept3(data.size());
    for (std::size_t r = 0; r < data.size(); ++r) {
      const V3& row = data[r];
      for (int j = row.empty() ? 0 : few(rng); j > 0; --j) {
        std::size_t k = 0;
        index1[r].push_back(pick(row.size(), k));
        taken1[r].push_back(row[k]);
      }
      index2[r].resize(row.size());
      mask2[r].resize(row.size());
      index3[r].resize(row.size());
      mask3[r].resize(row.size());
      taken2[r].resize(row.size());
      kept2[r].resize(row.size());
      taken3[r].resize(row.size());
      kept3[r].resize(row.size());
      for (std::size_t a = 0; a < row.size(); ++a) {
        const V2& list = row[a];
        mask1[r].push_back(coin());
        if (mask1[r].back()) {
          kept1[r].push_back(list);
        }
        for (int j = list.empty() ? 0 : few(rng); j > 0; --j) {
          std::size_t k = 0;
          index2[r][a].push_back(pick(list.size(), k));
          taken2[r][a].push_back(list[k]);
        }
        index3[r][a].resize(list.size());
        mask3[r][a].resize(list.size());
        taken3[r][a].resize(list.size());
        kept3[r][a].resize(list.size());
        for (std::size_t b = 0; b < list.size(); ++b) {
          const V1& sub = list[b];
          mask2[r][a].push_back(coin());
          if (mask2[r][a].back()) {
            kept2[r][a].push_back(sub);
          }
          for (int j = sub.empty() ? 0 : few(rng); j > 0; --j) {
            std::size_t k = 0;
            index3[r][a][b].push_back(pick(sub.size(), k));
            taken3[r][a][b].push_back(sub[k]);
          }
          for (const int x : sub) {
            mask3[r][a][b].push_back(coin());
            if (mask3[r][a][b].back()) {
              kept3[r][a][b].push_back(x);
            }
          }
        }
      }
    }
    const auto text = [](const V4& v) { return strata::to_string(JaggedTensor<int>(v)); };
    INFO("trial " << trial << ": " << strata::to_string(t));
    CHECK(strata::to_string(strata::take_each(t, JaggedTensor<int>(index1))) == text(taken1));
    CHECK(strata::to_string(strata::filter_each(t, JaggedTensor<bool>(mask1))) == text(kept1));
    CHECK(strata::to_string(strata::take_each(t, JaggedTensor<int>(index2))) == text(taken2));
    CHECK(strata::to_string(strata::filter_each(t, JaggedTensor<bool>(mask2))) == text(kept2));
    CHECK(strata::to_string(strata::take_each(t, JaggedTensor<int>(index3))) == text(taken3));
    CHECK(strata::to_string(strata::filter_each(t, JaggedTensor<bool>(mask3))) == text(kept3));
  }
}

}  // namespace test_select_jagged
