// Per-row indexing of jagged tensors as awkward-array indexes ragged arrays (take_each with a
// ragged or regular index, filter_each with a ragged mask), against references over nested
// std::vectors on random rows with empty rows and rows of length 1, at 1, 2 and 4 threads;
// awkward's documented examples by hand; bad input with typed errors.
#include "strata/select/jagged.hpp"

#include "check_error.hpp"
#include "jagged_rows.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

using strata::Index;
using strata::index_t;
using strata::JaggedTensor;
using strata::Tensor;
using Rows = strata::test::Rows;
using strata::test::random_rows;
using strata::test::rows_of;

namespace {

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
  // Rows that are not 1-D.
  const auto grid = JaggedTensor<double>::from_values(
      {1, 2, 3, 4}, strata::Jagged(std::vector<strata::Shape>{strata::Jagged::from_lengths({2, 1}),
                                                              strata::Jagged::from_lengths({1})}));
  check_error<strata::ShapeError>(
      [&] { (void)strata::filter_each(grid, JaggedTensor<bool>(grid.shape())); }, "filter_each",
      "1-D rows");
}
