// Jagged tensors as first-class tensors: construction, views along the ragged axis, per-row
// reductions, jagged expressions and printing, each checked against a reference written over
// plain nested std::vectors (random shapes with empty rows, no rows, one row, rows of length 1).
#include "strata/expr/expr.hpp"
#include "strata/tensor/jagged_tensor.hpp"

#include "check_error.hpp"
#include "jagged_rows.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace test_expr_jagged {

using strata::Index;
using strata::index_t;
using strata::Jagged;
using strata::JaggedTensor;
using strata::Range;
using strata::Tensor;
using Rows = strata::test::Rows;
using strata::test::random_rows;

namespace {

/// The shapes every property runs on: no rows, one empty row, one row, rows of length 1, and
/// random rows with empty ones among them.
std::vector<Rows> cases() {
  std::mt19937 rng(20261124);
  std::vector<Rows> out{{}, {{}}, {{2.0}}, {{1.0}, {-2.0}, {3.0}}, {{1, 2, 3}, {}, {4, 5}}};
  for (int k = 0; k < 12; ++k) {
    out.push_back(random_rows(rng, 1 + k * 7, k % 3 == 0 ? 1 : 24));
  }
  return out;
}

void check_equal(const JaggedTensor<double>& t, const Rows& expected) {
  REQUIRE(t.shape().n_rows() == static_cast<index_t>(expected.size()));
  for (std::size_t r = 0; r < expected.size(); ++r) {
    const auto row = t.row(t.first_row() + static_cast<index_t>(r));
    CHECK(std::vector<double>(row.begin(), row.end()) == expected[r]);
  }
}

std::vector<double> as_vector(const Tensor<double>& t) {
  std::vector<double> out;
  for (const double x : t) {
    out.push_back(x);
  }
  return out;
}

}  // namespace

TEST_CASE("jagged tensors are built from nested vectors, lengths and padded tensors",
          "[expr][jagged]") {
  for (const Rows& rows : cases()) {
    const JaggedTensor t(rows);
    check_equal(t, rows);
    // Arrow / awkward ListOffsetArray: int64 offsets, rows + 1 of them, from 0.
    const std::span<const std::int64_t> offsets = t.offsets();
    REQUIRE(offsets.size() == rows.size() + 1);
    CHECK(offsets[0] == 0);
    std::vector<double> flat;
    std::vector<int> lengths;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      CHECK(offsets[r + 1] - offsets[r] == static_cast<index_t>(rows[r].size()));
      flat.insert(flat.end(), rows[r].begin(), rows[r].end());
      lengths.push_back(static_cast<int>(rows[r].size()));
    }
    CHECK(std::vector<double>(t.values().data(), t.values().data() + t.size()) == flat);

    check_equal(JaggedTensor<double>::from_lengths(lengths, flat), rows);
    const std::vector<std::uint16_t> narrow(lengths.begin(), lengths.end());
    check_equal(JaggedTensor<double>::from_lengths(narrow, flat), rows);

    // Round trips through the padded form, by lengths and by mask.
    const Tensor<double> padded = t.to_padded(-7.0);
    const Tensor<bool> mask = t.mask();
    const Tensor<index_t> back = t.lengths();
    std::size_t width = 0;
    for (const auto& row : rows) {
      width = std::max(width, row.size());
    }
    REQUIRE(padded.shape() ==
            Index{static_cast<index_t>(rows.size()), static_cast<index_t>(width)});
    for (std::size_t r = 0; r < rows.size(); ++r) {
      CHECK(back(static_cast<index_t>(r)) == static_cast<index_t>(rows[r].size()));
      for (std::size_t i = 0; i < width; ++i) {
        const auto ri = static_cast<index_t>(r);
        const auto ii = static_cast<index_t>(i);
        CHECK(mask(ri, ii) == (i < rows[r].size()));
        CHECK(padded(ri, ii) == (i < rows[r].size() ? rows[r][i] : -7.0));
      }
    }
    check_equal(JaggedTensor<double>::from_padded(padded, lengths), rows);
    check_equal(JaggedTensor<double>::from_padded(padded, mask), rows);
  }
  SECTION("a mask picks any elements of each row, in order") {
    const Tensor<int> padded{{1, 2, 3}, {4, 5, 6}};
    const Tensor<bool> mask{{false, true, true}, {true, false, false}};
    const auto t = JaggedTensor<int>::from_padded(padded, mask);
    CHECK(strata::to_string(t) == "[[2, 3], [4]]");
  }
  SECTION("zeros, empty and full over a jagged shape") {
    const Jagged shape = Jagged::from_lengths({2, 0, 1});
    CHECK(strata::to_string(JaggedTensor<int>::zeros(shape)) == "[[0, 0], [], [0]]");
    CHECK(strata::to_string(JaggedTensor<int>::empty(shape)) == "[[0, 0], [], [0]]");
    CHECK(strata::to_string(JaggedTensor<int>::full(shape, 7)) == "[[7, 7], [], [7]]");
  }
  SECTION("three levels: rows that are smooth or jagged themselves") {
    const std::vector<std::vector<std::vector<int>>> nested{{{1, 2}, {3, 4}}, {{5}, {6, 7, 8}}, {}};
    const JaggedTensor t(nested);
    CHECK(t.shape().rank() == 3);
    CHECK(t.type_string() == "3 * var * var * int32");
    CHECK(strata::to_string(t) == "[[[1, 2], [3, 4]], [[5], [6, 7, 8]], []]");
    CHECK(t.at({1, 1, 2}) == 8);
    CHECK(as_vector(strata::astype<double>(strata::sum(t, {1, 2}))) ==
          std::vector<double>{10, 26, 0});
    const JaggedTensor<int> doubled = t * 2;
    CHECK(strata::to_string(doubled) == "[[[2, 4], [6, 8]], [[10], [12, 14, 16]], []]");
  }
}

TEST_CASE("per-row reductions along the ragged axis match the nested-vector reference",
          "[expr][jagged]") {
  for (const Rows& rows : cases()) {
    const JaggedTensor t(rows);
    const auto sums = as_vector(strata::sum(t, 1));
    const auto prods = as_vector(strata::prod(t, -1));
    const auto means = as_vector(strata::mean(t, 1));
    const auto mins = as_vector(strata::min(t, 1));
    const auto maxs = as_vector(strata::max(t, 1));
    const Tensor<index_t> argmins = strata::argmin(t, 1);
    const Tensor<index_t> argmaxs = strata::argmax(t, 1);
    const auto squares =
        as_vector(strata::reduce_rows(t, 0.0, [](double acc, double x) { return acc + x * x; }));
    REQUIRE(sums.size() == rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
      double sum = 0;
      double prod = 1;
      double square = 0;
      double lo = std::numeric_limits<double>::infinity();
      double hi = -lo;
      index_t arglo = -1;
      index_t arghi = -1;
      for (std::size_t i = 0; i < rows[r].size(); ++i) {
        const double x = rows[r][i];
        sum += x;
        prod *= x;
        square += x * x;
        if (x < lo) {
          lo = x;
          arglo = static_cast<index_t>(i);
        }
        if (x > hi) {
          hi = x;
          arghi = static_cast<index_t>(i);
        }
      }
      INFO("row " << r << " of " << rows.size());
      CHECK(sums[r] == sum);
      CHECK(prods[r] == prod);
      CHECK(squares[r] == square);
      CHECK(mins[r] == lo);
      CHECK(maxs[r] == hi);
      CHECK(argmins(static_cast<index_t>(r)) == arglo);
      CHECK(argmaxs(static_cast<index_t>(r)) == arghi);
      if (rows[r].empty()) {
        CHECK(std::isnan(means[r]));
      } else {
        CHECK(means[r] == sum / static_cast<double>(rows[r].size()));
      }
    }
  }
  SECTION("keepdims keeps the ragged axis with extent 1") {
    const JaggedTensor t(Rows{{1, 2}, {3}});
    CHECK(strata::sum(t, 1, true).shape() == Index{2, 1});
  }
  SECTION("NaN propagates through min and max, argmax finds the first NaN") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const JaggedTensor t(Rows{{1, nan, 3}, {2, 5}});
    CHECK(std::isnan(strata::max(t, 1)(0)));
    CHECK(std::isnan(strata::min(t, 1)(0)));
    CHECK(strata::argmax(t, 1)(0) == 1);
    CHECK(strata::argmax(t, 1)(1) == 1);
  }
  SECTION("integers: mean in double") {
    const JaggedTensor t(std::vector<std::vector<int>>{{1, 2}, {}, {5}});
    const Tensor<double> m = strata::mean(t, 1);
    CHECK(m(0) == 1.5);
    CHECK(std::isnan(m(1)));
    CHECK(strata::max(t, 1)(1) == std::numeric_limits<int>::lowest());
  }
  SECTION("sums have the same bits at every thread count") {
    std::mt19937 rng(7);
    Rows rows = random_rows(rng, 3000, 40);
    for (auto& row : rows) {
      for (double& x : row) {
        x = x / 7.0 + 0.1;  // inexact: the order of additions shows in the bits
      }
    }
    const JaggedTensor t(rows);
    std::vector<double> first;
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        const auto sums = as_vector(strata::sum(t, 1));
        const auto evaluated = as_vector(strata::sum(t * 3.0 - 1.0, 1));
        if (first.empty()) {
          first = sums;
        }
        CHECK(sums == first);
        CHECK(evaluated.size() == sums.size());
      });
    }
  }
}

TEST_CASE("jagged expressions: element-wise with jagged, dense-per-row and scalar operands",
          "[expr][jagged]") {
  std::mt19937 rng(11);
  for (const Rows& rows : cases()) {
    const JaggedTensor t(rows);
    Rows other_rows = rows;
    for (auto& row : other_rows) {
      for (double& x : row) {
        x = static_cast<double>(rng() % 5);
      }
    }
    const JaggedTensor other(other_rows);
    const auto n = static_cast<index_t>(rows.size());
    Tensor<double> per_row(Index{n});
    for (index_t r = 0; r < n; ++r) {
      per_row(r) = static_cast<double>(r) - 2.0;
    }
    const Tensor<double> column = per_row.reshape(Index{n, 1});

    const JaggedTensor<double> centred = t - strata::mean(t, 1);
    const JaggedTensor<double> mixed = 2.0 * t + other * column - 1.0;
    const JaggedTensor<double> chosen = strata::where(t > 0.0, t, per_row);
    const JaggedTensor<double> reversed = t + per_row.reverse();  // a negative stride
    const JaggedTensor<double> mapped =
        strata::evaluate_jagged(strata::map(t, [](double x) { return x * x; }));
    JaggedTensor<double> softmax = strata::exp(t - strata::max(t, 1));
    softmax /= strata::sum(softmax, 1);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      double sum = 0;
      double hi = -std::numeric_limits<double>::infinity();
      for (const double x : rows[r]) {
        sum += x;
        hi = std::max(hi, x);
      }
      double exp_sum = 0;
      for (const double x : rows[r]) {
        exp_sum += std::exp(x - hi);
      }
      const auto ri = static_cast<index_t>(r);
      for (std::size_t i = 0; i < rows[r].size(); ++i) {
        const double x = rows[r][i];
        const Index at{ri, static_cast<index_t>(i)};
        INFO("row " << r << " element " << i);
        CHECK(centred.at(at) == Approx(x - sum / static_cast<double>(rows[r].size())));
        CHECK(mixed.at(at) == 2.0 * x + other_rows[r][i] * (static_cast<double>(r) - 2.0) - 1.0);
        CHECK(chosen.at(at) == (x > 0 ? x : static_cast<double>(r) - 2.0));
        CHECK(mapped.at(at) == x * x);
        CHECK(reversed.at(at) == x + static_cast<double>(n - 1 - ri) - 2.0);
        CHECK(softmax.at(at) == Approx(std::exp(x - hi) / exp_sum));
      }
    }
  }
  SECTION("in place: compound assignment and assignment of an expression") {
    JaggedTensor<double> t(Rows{{1, 2, 3}, {}, {4, 5}});
    const double* before = t.values().data();
    t -= strata::mean(t, 1);
    t *= 2.0;
    CHECK(strata::to_string(t) == "[[-2, 0, 2], [], [-1, 1]]");
    t = t + t;
    CHECK(strata::to_string(t) == "[[-4, 0, 4], [], [-2, 2]]");
    CHECK(t.values().data() == before);  // written in place
  }
  SECTION("slices of rows keep their origin and compute like tensors of their own") {
    const JaggedTensor t(Rows{{1}, {2, 3}, {}, {4, 5, 6}, {7}});
    const JaggedTensor<double> s = t.rows(1, 4);
    CHECK(s.first_row() == 1);
    CHECK(s.offsets()[0] == 0);
    CHECK(as_vector(strata::sum(s, 1)) == std::vector<double>{5, 0, 15});
    CHECK(s.row(3)[2] == 6);
    const JaggedTensor<double> shifted = s + 10.0;
    CHECK(strata::to_string(shifted) == "[[12, 13], [], [14, 15, 16]]");
    JaggedTensor<double> copy = t.copy();
    JaggedTensor<double> middle = copy.rows(1, 4);
    middle += strata::sum(middle, 1);
    CHECK(strata::to_string(copy) == "[[1], [7, 8], [], [19, 20, 21], [7]]");
  }
  SECTION("an expression reading another slice of the destination's storage is copied first") {
    JaggedTensor<double> t(Rows{{1, 2}, {3, 4}, {5, 6}});
    JaggedTensor<double> head = t.rows(0, 2);
    const JaggedTensor<double> tail = t.rows(1, 3);
    head = tail * 1.0;
    CHECK(strata::to_string(t) == "[[3, 4], [5, 6], [5, 6]]");
  }
  SECTION("several outer modes: dense operands of the outer extents or 1") {
    auto t = JaggedTensor<int>::from_values({1, 2, 3, 4, 5, 6},
                                            Jagged::from_extents({2, 2}, 1, {1, 2, 0, 3}));
    const Tensor<int> grid{{10, 20}, {30, 40}};
    const Tensor<int> by_first = Tensor<int>::of({100, 200});
    const JaggedTensor<int> a = t + grid;
    const JaggedTensor<int> b = t + by_first;
    CHECK(strata::to_string(a) == "[[[11], [22, 23]], [[], [44, 45, 46]]]");
    CHECK(strata::to_string(b) == "[[[101], [102, 103]], [[], [204, 205, 206]]]");
    CHECK(t.type_string() == "2 * 2 * var * int32");
    CHECK(strata::sum(t, 2) == Tensor<int>{{1, 5}, {0, 15}});
  }
}

TEST_CASE("where of jagged tensors, and stored bool masks, make jagged expressions",
          "[expr][jagged]") {
  // Regressions: where(c, a, b) of three JaggedTensors fell through to the dense overload, and
  // a stored JaggedTensor<bool> operand did not compile (std::vector<bool> has no data()).
  const JaggedTensor<double> a(Rows{{1, -2, 3}, {}, {-4, 5}});
  const JaggedTensor<double> b(Rows{{10, 20, 30}, {}, {40, 50}});
  const JaggedTensor<bool> mask = a > 0;
  const JaggedTensor<double> chosen = strata::where(mask, a, b);
  CHECK(chosen.values().to_vector() == std::vector<double>{1, 20, 3, 40, 5});
  const JaggedTensor<double> zeroed = strata::where(mask, a * 1.0, 0.0);
  CHECK(zeroed.values().to_vector() == std::vector<double>{1, 0, 3, 0, 5});
  JaggedTensor<bool> flipped = mask;
  flipped = !flipped;  // a bool leaf read through the destination's own storage
  CHECK(flipped.values().to_vector() == std::vector<bool>{false, true, false, true, false});
}

TEST_CASE("selecting along the ragged axis in every row", "[expr][jagged]") {
  const JaggedTensor t(std::vector<std::vector<int>>{{1, 2, 3, 4}, {}, {5}, {6, 7}});
  CHECK(strata::to_string(t.first(2)) == "[[1, 2], [], [5], [6, 7]]");
  CHECK(strata::to_string(t.select_each(Range{1, {}})) == "[[2, 3, 4], [], [], [7]]");
  CHECK(strata::to_string(t.select_each(Range{{}, {}, 2})) == "[[1, 3], [], [5], [6]]");
  CHECK(strata::to_string(t.select_each(Range{{}, {}, -1})) == "[[4, 3, 2, 1], [], [5], [7, 6]]");
  CHECK(strata::to_string(t.select_each(Range{-2, {}})) == "[[3, 4], [], [5], [6, 7]]");
  CHECK(strata::to_string(t.select_each(Range{-1, 0, -2})) == "[[4, 2], [], [], [7]]");
  const JaggedTensor u(std::vector<std::vector<int>>{{1, 2, 3}, {9}, {6, 7}});
  CHECK(u.last() == Tensor<int>::of({3, 9, 7}));
  CHECK(u.select_each(0) == Tensor<int>::of({1, 9, 6}));
  CHECK(u.select_each(-1) == Tensor<int>::of({3, 9, 7}));
  strata::test::check_error<strata::IndexError>([&] { (void)u.select_each(1); }, "select_each",
                                                "row 1");
  strata::test::check_error<strata::IndexError>([&] { (void)t.last(); }, "select_each", "row 1");
  strata::test::check_error<strata::IndexError>(
      [&] {
        (void)t.select_each(Range{{}, {}, 0});
      },
      "select_each", "step is 0");
  strata::test::check_error<strata::IndexError>([&] { (void)t.first(-1); }, "first", "-1");
  const JaggedTensor deep(std::vector<std::vector<std::vector<int>>>{{{1}}});
  strata::test::check_error<strata::ShapeError>([&] { (void)deep.select_each(0); }, "select_each",
                                                "not 1-D");
  // A row of one list of one value each: chip_each(0) takes that list.
  CHECK(strata::to_string(deep.chip_each(0)) == "[[1]]");
  strata::test::check_error<strata::IndexError>(
      [&] {
        (void)deep.select_each(Range{{}, {}, 0});
      },
      "select_each", "step is 0");
}

namespace {

/// The indices Python's `list[start:stop:step]` takes from a list of @p n (written from the
/// language reference, apart from the library's slice arithmetic).
std::vector<index_t> python_slice(index_t n, std::optional<index_t> start,
                                  std::optional<index_t> stop, index_t step) {
  std::vector<index_t> out;
  const auto bound = [n, step](std::optional<index_t> v, bool is_start) {
    if (!v) {
      return step > 0 ? (is_start ? 0 : n) : (is_start ? n - 1 : -1);
    }
    index_t x = *v < 0 ? *v + n : *v;
    if (step > 0) {
      x = std::clamp<index_t>(x, 0, n);
    } else {
      x = std::clamp<index_t>(x, -1, n - 1);
    }
    return x;
  };
  const index_t b = bound(start, true);
  const index_t e = bound(stop, false);
  for (index_t i = b; step > 0 ? i < e : i > e; i += step) {
    out.push_back(i);
  }
  return out;
}

using strata::test::Deep;
using strata::test::deep_tensor;
using strata::test::random_deep;

/// Checks @p t against nested rows of lists: the number of lists of each row, each list's
/// length, and the values in order.
void check_deep(const JaggedTensor<double>& t, const Deep& expected) {
  REQUIRE(t.shape().n_rows() == static_cast<index_t>(expected.size()));
  std::vector<double> values;
  for (std::size_t r = 0; r < expected.size(); ++r) {
    const strata::Shape row = t.shape().row(static_cast<index_t>(r));
    INFO("row " << r);
    REQUIRE(row.rank() == 2);
    REQUIRE(row.extent(0) == static_cast<index_t>(expected[r].size()));
    for (std::size_t i = 0; i < expected[r].size(); ++i) {
      CHECK(row.chip(0, static_cast<index_t>(i)).size() ==
            static_cast<index_t>(expected[r][i].size()));
      values.insert(values.end(), expected[r][i].begin(), expected[r][i].end());
    }
  }
  const auto flat = t.values();
  CHECK(std::vector<double>(flat.begin(), flat.end()) == values);
}

}  // namespace

TEST_CASE("the same slice of every row of lists or of rectangular rows (awkward's [:, 1:])",
          "[expr][jagged]") {
  std::mt19937 rng(20261127);
  const std::vector<Range> ranges{Range{},           Range{1, {}},  Range{{}, {}, 2},
                                  Range{{}, {}, -1}, Range{-2, {}}, Range{-1, 0, -2},
                                  Range{5, 1},       Range{1, 2},   Range{{}, -1, 3}};
  std::uniform_int_distribution<int> lists(0, 5);
  for (int round = 0; round < 30; ++round) {
    // Rows of lists of any lengths, or, every third round, rectangular rows only.
    const bool rectangular = round % 3 == 2;
    const Deep data = random_deep(rng, static_cast<std::size_t>(round % 7), lists, rectangular);
    const JaggedTensor<double> t = deep_tensor(data, rectangular);
    for (const Range& range : ranges) {
      Deep expected;
      for (const auto& row : data) {
        auto& out = expected.emplace_back();
        for (const index_t i :
             python_slice(static_cast<index_t>(row.size()), range.start, range.stop, range.step)) {
          out.push_back(row[static_cast<std::size_t>(i)]);
        }
      }
      INFO("round " << round << ", step " << range.step);
      const JaggedTensor<double> sliced = t.select_each(range);
      check_deep(sliced, expected);
      CHECK(sliced.shape().smooth_rows() == t.shape().smooth_rows());
    }
  }
  // awkward's documented example: array[:, 1:] drops each row's first list.
  const JaggedTensor<int> a(
      std::vector<std::vector<std::vector<int>>>{{{1, 2}, {3}}, {}, {{4, 5, 6}, {7}, {}}});
  CHECK(strata::to_string(a.select_each(Range{1, {}})) == "[[[3]], [], [[7], []]]");
  CHECK(strata::to_string(a.first(1)) == "[[[1, 2]], [], [[4, 5, 6]]]");
  CHECK(strata::to_string(a.select_each(Range{{}, {}, -1})) ==
        "[[[3], [1, 2]], [], [[], [7], [4, 5, 6]]]");
  // A slice of rows (first row 1) slices its own rows.
  CHECK(strata::to_string(a.rows(1, 3).select_each(Range{-1, {}})) == "[[], [[]]]");
}

TEST_CASE("sub-row i of every row of lists or of rectangular rows (awkward's [:, i])",
          "[expr][jagged]") {
  std::mt19937 rng(1127);
  std::uniform_int_distribution<int> lists(1, 4);
  for (int round = 0; round < 30; ++round) {
    const bool rectangular = round % 3 == 2;
    Deep data = random_deep(rng, static_cast<std::size_t>(1 + round % 6), lists, rectangular);
    if (round % 5 == 4) {
      data.back().clear();  // a row without lists: no index is in it
    }
    const JaggedTensor<double> t = deep_tensor(data, rectangular);
    for (const index_t i : {0, 1, 3, -1, -2}) {
      INFO("round " << round << ", index " << i);
      std::vector<std::vector<double>> expected;
      std::optional<std::size_t> short_row;
      for (std::size_t r = 0; r < data.size(); ++r) {
        const auto n = static_cast<index_t>(data[r].size());
        const index_t k = i < 0 ? i + n : i;
        if (k < 0 || k >= n) {
          short_row = short_row ? short_row : r;
        } else {
          expected.push_back(data[r][static_cast<std::size_t>(k)]);
        }
      }
      if (short_row) {
        strata::test::check_error<strata::IndexError>([&] { (void)t.chip_each(i); }, "chip_each",
                                                      "row " + std::to_string(*short_row) + " of");
        continue;
      }
      const JaggedTensor<double> chosen = t.chip_each(i);
      CHECK(chosen.shape().inner_rank() == 1);
      CHECK(strata::test::rows_of(chosen) == expected);
    }
  }
  // awkward's documented example: array[:, 0] is the first list of every row.
  const JaggedTensor<int> a(
      std::vector<std::vector<std::vector<int>>>{{{1, 2}, {3}}, {{4, 5, 6}}, {{}, {7}}});
  CHECK(strata::to_string(a.chip_each(0)) == "[[1, 2], [4, 5, 6], []]");
  CHECK(strata::to_string(a.chip_each(-1)) == "[[3], [4, 5, 6], [7]]");
  CHECK(a.chip_each(0).type_string() == "3 * var * int32");
  // A slice of rows names its rows by their absolute numbers.
  strata::test::check_error<strata::IndexError>([&] { (void)a.rows(1, 3).chip_each(1); },
                                                "chip_each", "row 1 of 1 sub-rows");
  // Rows of rank 3: sub-row i of each is a matrix.
  const JaggedTensor<int> cubes =
      JaggedTensor<int>::from_values({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
                                     Jagged::from_extents(Index{2}, 3, Index{2, 1, 2, 2, 1, 4}));
  const JaggedTensor<int> chipped = cubes.chip_each(1);
  CHECK(chipped.shape().row(1) == strata::Shape(strata::Smooth{1, 4}));
  CHECK(chipped.values().to_vector() == std::vector<int>{3, 4, 9, 10, 11, 12});
  // 1-D rows have elements, not sub-rows, and a tensor that refuses is unchanged.
  const JaggedTensor<int> flat(std::vector<std::vector<int>>{{1, 2}, {3}});
  strata::test::check_error<strata::ShapeError>([&] { (void)flat.chip_each(0); }, "chip_each",
                                                "select_each(0)");
  strata::test::check_error<strata::ShapeError>([&] { (void)a.select_each(0); }, "select_each",
                                                "chip_each(0)");
  CHECK(strata::to_string(a) == "[[[1, 2], [3]], [[4, 5, 6]], [[], [7]]]");
}

TEST_CASE("jagged tensors print as awkward-array does", "[expr][jagged]") {
  const JaggedTensor t(Rows{{1, 2, 3}, {}, {4.5, 5}});
  CHECK(strata::to_string(t) == "[[1, 2, 3], [], [4.5, 5]]");
  CHECK(t.type_string() == "3 * var * float64");
  std::ostringstream out;
  out << JaggedTensor(std::vector<std::vector<float>>{}) << " " << (t * 2.0);
  CHECK(out.str() == "[] [[2, 4, 6], [], [9, 10]]");
  std::vector<std::vector<int>> many(10, std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8});
  const JaggedTensor long_rows(many);
  strata::PrintOptions small;
  small.threshold = 20;
  small.edgeitems = 2;
  CHECK(strata::to_string(long_rows, small) ==
        "[[1, 2, ..., 7, 8], [1, 2, ..., 7, 8], ..., [1, 2, ..., 7, 8], [1, 2, ..., 7, 8]]");
  CHECK(long_rows.type_string() == "10 * var * int32");
}

TEST_CASE("jagged tensors reject bad input with typed errors and write nothing", "[expr][jagged]") {
  using strata::test::check_error;
  const std::vector<double> values{1, 2, 3};
  check_error<strata::ShapeError>(
      [&] {
        (void)JaggedTensor<double>::from_lengths(std::vector<int>{2, -1, 2}, values);
      },
      "JaggedTensor::from_lengths", "-1");
  check_error<strata::ShapeError>(
      [&] {
        (void)JaggedTensor<double>::from_lengths(
            std::vector<std::uint64_t>{1, std::numeric_limits<std::uint64_t>::max()}, values);
      },
      "JaggedTensor::from_lengths", "row 1");
  check_error<strata::ShapeError>(
      [&] {
        const index_t big = std::numeric_limits<index_t>::max() / 2 + 1;
        (void)JaggedTensor<double>::from_lengths(std::vector<index_t>{big, big}, values);
      },
      "JaggedTensor::from_lengths", "overflow");
  check_error<strata::ShapeError>(
      [&] {
        (void)JaggedTensor<double>::from_lengths({2, 2}, values);
      },
      "JaggedTensor::from_lengths", "3 values");

  const JaggedTensor t(Rows{{1, 2, 3}, {}, {4, 5}});
  check_error<strata::IndexError>([&] { (void)t.row(3); }, "row", "row 3");
  check_error<strata::IndexError>([&] { (void)t.rows(1, 4); }, "rows", "[1, 4)");
  // Axis 0 of `n * var` is awkward's axis=0 (tests/expr/jagged_reductions.cpp); an outer
  // mode of a shape with two is not offered.
  const auto grid = JaggedTensor<double>::from_values(
      {1, 2, 3, 4, 5, 6}, Jagged::from_extents({2, 2}, 1, {1, 2, 0, 3}));
  check_error<strata::ShapeError>([&] { (void)strata::sum(grid, 0); }, "sum", "axis 0");
  check_error<strata::ShapeError>([&] { (void)strata::var(grid, 1); }, "var", "axis 1");
  check_error<strata::IndexError>([&] { (void)strata::mean(t, 2); }, "mean", "axis 2");
  check_error<strata::ShapeError>([&] { (void)strata::argmax(t, strata::IndexSpan{}); }, "argmax",
                                  "ragged modes");

  JaggedTensor<double> target(Rows{{0, 0, 0}, {}, {0, 0}});
  const JaggedTensor other(Rows{{1, 2, 3}, {7}, {4, 5}});
  check_error<strata::ShapeError>([&] { target = t + other; }, "jagged expression", "row 1");
  check_error<strata::ShapeError>([&] { target = other * 2.0; }, "jagged expression", "row 1");
  check_error<strata::BroadcastError>(
      [&] {
        target = t + Tensor<double>::of({1, 2});
      },
      "jagged expression", "[2]");
  check_error<strata::BroadcastError>(
      [&] {
        target = t + Tensor<double>(Index{3, 2});
      },
      "jagged expression", "[3 2]");
  check_error<strata::ShapeError>([&] { target.assign(other); }, "JaggedTensor::assign", "row 1");
  CHECK(strata::to_string(target) == "[[0, 0, 0], [], [0, 0]]");  // nothing written

  const Tensor<double> padded{{1, 2}, {3, 4}};
  check_error<strata::ShapeError>(
      [&] {
        (void)JaggedTensor<double>::from_padded(padded, {1, 3});
      },
      "JaggedTensor::from_padded", "row 1");
  check_error<strata::ShapeError>([&] { (void)JaggedTensor<double>::from_padded(padded, {1}); },
                                  "JaggedTensor::from_padded", "1 lengths");
  check_error<strata::ShapeError>(
      [&] {
        (void)JaggedTensor<double>::from_padded(padded, Tensor<bool>(Index{2, 3}));
      },
      "JaggedTensor::from_padded", "[2 3]");
}

TEST_CASE("awkward's broadcasting: a n * var operand against rows of lists", "[expr][jagged]") {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> lists(0, 4);
  std::uniform_int_distribution<int> length(0, 3);
  std::uniform_int_distribution<int> value(-4, 4);
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      for (int round = 0; round < 20; ++round) {
        // Rows of lists (every fourth round rectangular rows, stored smooth), and one value per
        // list.
        const bool rectangular = round % 4 == 3;
        Deep deep(static_cast<std::size_t>(round % 9));
        Rows per_list(deep.size());
        for (std::size_t r = 0; r < deep.size(); ++r) {
          deep[r].resize(static_cast<std::size_t>(lists(rng)));
          const int common = length(rng);
          for (auto& list : deep[r]) {
            list.resize(static_cast<std::size_t>(rectangular ? common : length(rng)));
            for (double& x : list) {
              x = value(rng);
            }
            per_list[r].push_back(value(rng));
          }
        }
        JaggedTensor<double> d(deep);
        if (rectangular) {
          REQUIRE(d.shape().smooth_rows());
        }
        const JaggedTensor<double> l(per_list);
        const JaggedTensor<double> sum = d + l;
        const JaggedTensor<double> product = l * d;  // the shallow operand first
        const JaggedTensor<double> chosen = strata::where(d > 0.0, d, l);
        const JaggedTensor<double> twice = l + d + l;
        // With a dense operand (one value per row), and with a per-row reduction in the tree
        // (whose runs must be whole rows: the operand is then expanded, not walked by lists).
        strata::Tensor<double> per_row(Index{static_cast<index_t>(deep.size())});
        for (auto&& x : per_row) {
          x = value(rng);
        }
        const JaggedTensor<double> mixed = d * per_row + l;
        const JaggedTensor<double> centred = d - strata::rows::sum(d) + l;
        Deep expected_sum = deep;
        Deep expected_product = deep;
        Deep expected_chosen = deep;
        Deep expected_twice = deep;
        Deep expected_mixed = deep;
        Deep expected_centred = deep;
        for (std::size_t r = 0; r < deep.size(); ++r) {
          double row_sum = 0;
          for (const auto& list : deep[r]) {
            for (const double x : list) {
              row_sum += x;
            }
          }
          for (std::size_t i = 0; i < deep[r].size(); ++i) {
            const double li = per_list[r][i];
            for (std::size_t j = 0; j < deep[r][i].size(); ++j) {
              const double x = deep[r][i][j];
              expected_sum[r][i][j] = x + li;
              expected_product[r][i][j] = li * x;
              expected_chosen[r][i][j] = x > 0 ? x : li;
              expected_twice[r][i][j] = li + x + li;
              expected_mixed[r][i][j] = x * per_row.data()[r] + li;
              expected_centred[r][i][j] = x - row_sum + li;
            }
          }
        }
        // A slice of the rows against the same slice of the operand.
        const auto lo = static_cast<index_t>(deep.size() / 3);
        const auto n = static_cast<index_t>(deep.size());
        const JaggedTensor<double> sliced = d.rows(lo, n) - l.rows(lo, n);
        Deep expected_sliced(deep.begin() + lo, deep.end());
        for (std::size_t r = 0; r < expected_sliced.size(); ++r) {
          for (std::size_t i = 0; i < expected_sliced[r].size(); ++i) {
            for (double& x : expected_sliced[r][i]) {
              x -= per_list[r + static_cast<std::size_t>(lo)][i];
            }
          }
        }
        INFO("round " << round << ", " << threads << " threads");
        check_deep(sum, expected_sum);
        check_deep(product, expected_product);
        check_deep(chosen, expected_chosen);
        check_deep(twice, expected_twice);
        check_deep(mixed, expected_mixed);
        check_deep(centred, expected_centred);
        check_deep(sliced, expected_sliced);
        d += l;  // in place, into the deeper destination
        check_deep(d, expected_sum);
      }
    });
  }
  // awkward's documented example of broadcasting a n * var array into n * var * var.
  const JaggedTensor<int> a(
      std::vector<std::vector<std::vector<int>>>{{{1, 2}, {3}}, {}, {{4, 5, 6}}});
  const JaggedTensor<int> b(std::vector<std::vector<int>>{{10, 20}, {}, {30}});
  CHECK(strata::to_string(JaggedTensor<int>(a + b)) == "[[[11, 12], [23]], [], [[34, 35, 36]]]");
  // A slice of rows broadcasts as its own rows.
  CHECK(strata::to_string(JaggedTensor<int>(a.rows(2, 3) + b.rows(2, 3))) == "[[[34, 35, 36]]]");
}

TEST_CASE("awkward's broadcasting: rows of lists against rows of rank 3 (two ragged levels)",
          "[expr][jagged]") {
  using Deep3 = std::vector<Deep>;
  std::mt19937 rng(1128);
  std::uniform_int_distribution<int> count(0, 3);
  std::uniform_int_distribution<int> value(-4, 4);
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      for (int round = 0; round < 12; ++round) {
        // Rows of lists of lists (every fourth round rectangular blocks, stored smooth), and
        // one value per innermost list (a n * var * var operand of the first two levels).
        const bool rectangular = round % 4 == 3;
        Deep3 data(static_cast<std::size_t>(1 + round % 6));
        Deep per_inner(data.size());
        for (std::size_t r = 0; r < data.size(); ++r) {
          const int a = count(rng);
          const int b = count(rng);
          const int c = count(rng);
          data[r].resize(static_cast<std::size_t>(a));
          per_inner[r].resize(data[r].size());
          for (std::size_t i = 0; i < data[r].size(); ++i) {
            data[r][i].resize(static_cast<std::size_t>(rectangular ? b : count(rng)));
            for (auto& inner : data[r][i]) {
              inner.resize(static_cast<std::size_t>(rectangular ? c : count(rng)));
              for (double& x : inner) {
                x = value(rng);
              }
              per_inner[r][i].push_back(value(rng));
            }
          }
        }
        JaggedTensor<double> d(data);
        if (rectangular) {
          std::vector<index_t> extents;
          std::vector<double> values;
          for (const auto& row : data) {
            extents.push_back(static_cast<index_t>(row.size()));
            extents.push_back(row.empty() ? 0 : static_cast<index_t>(row[0].size()));
            extents.push_back(
                row.empty() || row[0].empty() ? 0 : static_cast<index_t>(row[0][0].size()));
            for (const auto& list : row) {
              for (const auto& inner : list) {
                values.insert(values.end(), inner.begin(), inner.end());
              }
            }
          }
          d.rebind(JaggedTensor<double>::from_values(
              values,
              strata::Jagged::from_extents(Index{static_cast<index_t>(data.size())}, 3, extents)));
          REQUIRE(d.shape().smooth_rows());
        }
        const JaggedTensor<double> m = strata::test::deep_tensor(per_inner, false);
        Deep3 expected_sum = data;
        Deep3 expected_product = data;
        Deep3 expected_chosen = data;
        for (std::size_t r = 0; r < data.size(); ++r) {
          for (std::size_t i = 0; i < data[r].size(); ++i) {
            for (std::size_t j = 0; j < data[r][i].size(); ++j) {
              const double mj = per_inner[r][i][j];
              for (std::size_t k = 0; k < data[r][i][j].size(); ++k) {
                const double x = data[r][i][j][k];
                expected_sum[r][i][j][k] = x + mj;
                expected_product[r][i][j][k] = mj * x;
                expected_chosen[r][i][j][k] = x > 0 ? x : mj;
              }
            }
          }
        }
        INFO("round " << round << ", " << threads << " threads: " << strata::to_string(d)
                      << " with " << strata::to_string(m));
        const auto text = [](const Deep3& x) { return strata::to_string(JaggedTensor<double>(x)); };
        CHECK(strata::to_string(JaggedTensor<double>(d + m)) == text(expected_sum));
        CHECK(strata::to_string(JaggedTensor<double>(m * d)) == text(expected_product));
        CHECK(strata::to_string(JaggedTensor<double>(strata::where(d > 0.0, d, m))) ==
              text(expected_chosen));
        d += m;  // in place, into the deeper destination
        CHECK(strata::to_string(d) == text(expected_sum));
      }
    });
  }
  // awkward's rule by hand: [[[1, 2], [3]], [[4]]], [], [[[5, 6, 7]]]] + [[[10, 20], [30]], [],
  // [[40]]]: each value of the operand applies to the whole list below its element.
  const JaggedTensor<int> a(std::vector<std::vector<std::vector<std::vector<int>>>>{
      {{{1, 2}, {3}}, {{4}}}, {}, {{{5, 6, 7}}}});
  const JaggedTensor<int> b(
      std::vector<std::vector<std::vector<int>>>{{{10, 20}, {30}}, {}, {{40}}});
  CHECK(strata::to_string(JaggedTensor<int>(a + b)) ==
        "[[[[11, 12], [23]], [[34]]], [], [[[45, 46, 47]]]]");
}

TEST_CASE("broadcasting rejects operands that do not fit and writes nothing", "[expr][jagged]") {
  using strata::test::check_error;
  const JaggedTensor<double> a(Deep{{{1, 2}, {3}}, {}, {{4, 5, 6}}});
  const JaggedTensor<double> wrong(Rows{{10, 20}, {1}, {30}});
  const JaggedTensor<double> fewer_rows(Rows{{10, 20}, {}});
  JaggedTensor<double> target = a.copy();
  JaggedTensor<double> shallow(Rows{{10, 20}, {}, {30}});
  check_error<strata::ShapeError>([&] { target = a + wrong; }, "jagged expression", "row 1");
  check_error<strata::ShapeError>([&] { target = a * fewer_rows; }, "jagged expression",
                                  "does not broadcast");
  // Rows of lists do not broadcast into 1-D rows.
  check_error<strata::ShapeError>([&] { shallow += a; }, "jagged expression", "differ");
  // A per-row reduction of the broadcast operand would reduce its broadcast rows.
  check_error<strata::ShapeError>([&] { target = a - strata::rows::sum(shallow); }, "rows::sum",
                                  "fewer modes");
  CHECK(strata::to_string(target) == "[[[1, 2], [3]], [], [[4, 5, 6]]]");
  CHECK(strata::to_string(shallow) == "[[10, 20], [], [30]]");
  // Two ragged levels into three: the lists must match, and each element a sub-list.
  const JaggedTensor<double> three(std::vector<Deep>{{{{1, 2}, {3}}, {{4}}}, {}, {{{5, 6, 7}}}});
  JaggedTensor<double> three_target = three.copy();
  const JaggedTensor<double> long_list(Deep{{{10, 20}, {30, 1}}, {}, {{40}}});
  const JaggedTensor<double> few_lists(Deep{{{10, 20}}, {}, {{40}}});
  check_error<strata::ShapeError>([&] { three_target = three + long_list; }, "jagged expression",
                                  "list 1 of ragged level 2 has 2 elements for 1 sub-lists");
  check_error<strata::ShapeError>([&] { three_target += few_lists; }, "jagged expression",
                                  "row 0 has 1 lists for 2 lists");
  CHECK(strata::to_string(three_target) == strata::to_string(three));
}

namespace {
/// A random dense `[n, length]` operand with a regular axis, as a view of @p kind: 0 transposed
/// storage (strides [1, n]), 1 a flip, 2 a broadcast outer axis, 3 an index array along the
/// regular axis (read through a copy).
Tensor<double> regular_operand(std::mt19937& rng, index_t n, index_t length, int kind) {
  Tensor<double> stored(Index{length, n});
  for (auto&& x : stored) {
    x = static_cast<double>(rng() % 7) - 3.0;
  }
  Tensor<double> dense = stored.transpose();
  if (kind == 1) {
    dense.rebind(dense.reverse(Index{1}));
  } else if (kind == 2 && n > 0) {
    dense.rebind(dense.select({Range{0, 1}, strata::all}).broadcast(Index{n, length}));
  } else if (kind == 3 && length > 0) {
    std::vector<index_t> order;
    for (index_t i = length; i-- > 0;) {
      order.push_back(i);
    }
    dense.rebind(dense.select({strata::Selector(strata::all), strata::Selector(order)}));
  }
  return dense;
}
}  // namespace

TEST_CASE("a dense operand with a regular axis broadcasts against rows of its length",
          "[expr][jagged][property]") {
  // awkward: ak.Array([[1, 2, 3], [4, 5, 6]]) + np.array([[10, 20, 30], [40, 50, 60]]) is
  // [[11, 22, 33], [44, 55, 66]]: the NumPy array is a RegularArray, and a regular axis meets
  // var lists that all have its length.
  const JaggedTensor<int> small(std::vector<std::vector<int>>{{1, 2, 3}, {4, 5, 6}});
  const Tensor<int> grid{{10, 20, 30}, {40, 50, 60}};
  CHECK(strata::to_string(JaggedTensor<int>(small + grid)) == "[[11, 22, 33], [44, 55, 66]]");

  std::mt19937 rng(29);
  for (int trial = 0; trial < 60; ++trial) {
    const auto n = static_cast<index_t>(rng() % 6);
    const auto length = static_cast<index_t>(rng() % 5);
    Rows rows(static_cast<std::size_t>(n), std::vector<double>(static_cast<std::size_t>(length)));
    for (auto& row : rows) {
      for (double& x : row) {
        x = static_cast<double>(rng() % 9) - 4.0;
      }
    }
    const JaggedTensor t(rows);
    const int kind = static_cast<int>(rng() % 4);
    const Tensor<double> dense = regular_operand(rng, n, length, kind);
    Tensor<double> per_row(Index{n});
    for (index_t r = 0; r < n; ++r) {
      per_row(r) = static_cast<double>(r);
    }
    INFO("trial " << trial << ": " << n << " rows of " << length << ", kind " << kind);
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        const JaggedTensor<double> got = t * dense + per_row - strata::sum(t, 1);
        JaggedTensor<double> in_place = t.copy();
        in_place += dense;
        for (index_t r = 0; r < n; ++r) {
          double total = 0;
          for (const double x : rows[static_cast<std::size_t>(r)]) {
            total += x;
          }
          for (index_t i = 0; i < length; ++i) {
            const double x = rows[static_cast<std::size_t>(r)][static_cast<std::size_t>(i)];
            REQUIRE(got.at({r, i}) == x * dense(r, i) + static_cast<double>(r) - total);
            REQUIRE(in_place.at({r, i}) == x + dense(r, i));
          }
        }
      });
    }
  }

  SECTION("several outer modes: the regular axis after them") {
    const auto t = JaggedTensor<int>::from_values({1, 2, 3, 4, 5, 6, 7, 8},
                                                  Jagged::from_extents({2, 2}, 1, {2, 2, 2, 2}));
    const Tensor<int> cube{{{0, 1}, {2, 3}}, {{4, 5}, {6, 7}}};
    CHECK(strata::to_string(JaggedTensor<int>(t * cube)) ==
          "[[[0, 2], [6, 12]], [[20, 30], [42, 56]]]");
  }
  SECTION("rows of other lengths: BroadcastError naming the row, nothing written") {
    JaggedTensor<double> ragged(Rows{{1, 2, 3}, {4, 5, 6}, {7, 8}});
    const Tensor<double> wide(Index{3, 3});
    strata::test::check_error<strata::BroadcastError>([&] { ragged += wide; }, "jagged expression",
                                                      "regular axis of 3 but row 2");
    strata::test::check_error<strata::BroadcastError>(
        [&] { (void)JaggedTensor<double>(ragged * wide); }, "jagged expression", "has length 2");
    const Tensor<double> narrow(Index{3, 2});
    strata::test::check_error<strata::BroadcastError>([&] { ragged += narrow; },
                                                      "jagged expression", "row 0");
    CHECK(strata::to_string(ragged) == "[[1, 2, 3], [4, 5, 6], [7, 8]]");
  }
}

TEST_CASE("a dense operand with a regular axis broadcasts against rows of k lists",
          "[expr][jagged][property]") {
  // awkward: ak.Array([[[1, 2], [3]], [[4, 5, 6], [7]]]) + np.array([[10, 20], [30, 40]]) is
  // [[[11, 12], [23]], [[34, 35, 36], [47]]]: the regular axis of 2 meets the first ragged level
  // (every event has 2 lists) and each of its values applies to a whole list.
  const JaggedTensor<int> events(
      std::vector<std::vector<std::vector<int>>>{{{1, 2}, {3}}, {{4, 5, 6}, {7}}});
  const Tensor<int> grid{{10, 20}, {30, 40}};
  CHECK(strata::to_string(JaggedTensor<int>(events + grid)) ==
        "[[[11, 12], [23]], [[34, 35, 36], [47]]]");

  std::mt19937 rng(31);
  for (int trial = 0; trial < 40; ++trial) {
    const auto n = static_cast<index_t>(rng() % 6);
    const auto k = static_cast<index_t>(rng() % 4);
    const bool rectangular = trial % 4 == 3;  // rows stored smooth
    const auto common = static_cast<std::size_t>(rng() % 3);
    Deep deep(static_cast<std::size_t>(n));
    for (auto& row : deep) {
      row.resize(static_cast<std::size_t>(k));
      for (auto& list : row) {
        list.resize(rectangular ? common : static_cast<std::size_t>(rng() % 4));
        for (double& x : list) {
          x = static_cast<double>(rng() % 9) - 4.0;
        }
      }
    }
    JaggedTensor<double> t(deep);
    const int kind = static_cast<int>(rng() % 4);
    const Tensor<double> dense = regular_operand(rng, n, k, kind);
    if (k == 1) {
      continue;  // [n, 1] is the per-row rule (one value per row), tested elsewhere
    }
    Tensor<double> per_row(Index{n});
    for (index_t r = 0; r < n; ++r) {
      per_row(r) = static_cast<double>(r);
    }
    Deep expected = deep;
    Deep expected_where = deep;
    for (std::size_t r = 0; r < deep.size(); ++r) {
      for (std::size_t i = 0; i < deep[r].size(); ++i) {
        const double v = dense(static_cast<index_t>(r), static_cast<index_t>(i));
        for (std::size_t j = 0; j < deep[r][i].size(); ++j) {
          const double x = deep[r][i][j];
          expected[r][i][j] = x * v + static_cast<double>(r);
          expected_where[r][i][j] = x > 0 ? v : x;
        }
      }
    }
    INFO("trial " << trial << ": " << n << " rows of " << k << " lists, kind " << kind);
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        check_deep(JaggedTensor<double>(t * dense + per_row), expected);
        check_deep(JaggedTensor<double>(strata::where(t > 0.0, dense, t)), expected_where);
        JaggedTensor<double> in_place = t.copy();
        in_place *= dense;
        in_place += per_row;
        check_deep(in_place, expected);
      });
    }
  }

  SECTION("rows with another number of lists, a per-row reduction: BroadcastError") {
    JaggedTensor<double> uneven(Deep{{{1, 2}, {3}}, {{4}}, {{5}, {}}});
    const Tensor<double> two(Index{3, 2});
    strata::test::check_error<strata::BroadcastError>([&] { uneven += two; }, "jagged expression",
                                                      "regular axis of 2 but row 1 of");
    JaggedTensor<double> even(Deep{{{1, 2}, {3}}, {{4}, {5, 6}}});
    const Tensor<double> grid2{{1, 2}, {3, 4}};
    strata::test::check_error<strata::BroadcastError>(
        [&] { even += grid2 - strata::rows::sum(even); }, "jagged expression", "per-row reduction");
    CHECK(strata::to_string(uneven) == "[[[1, 2], [3]], [[4]], [[5], []]]");
    CHECK(strata::to_string(even) == "[[[1, 2], [3]], [[4], [5, 6]]]");
  }
}

TEST_CASE("a dense operand with a regular axis broadcasts against rows of k lists of lists",
          "[expr][jagged][property]") {
  // awkward: ak.Array([[[[1, 2], [3]], [[4]]], [[[5, 6, 7]], []]]) + np.array([[10, 20], [30,
  // 40]]) is [[[[11, 12], [13]], [[24]]], [[[35, 36, 37]], []]]: each value of the regular axis
  // applies to a whole list of lists.
  using V3 = std::vector<Deep>;
  const JaggedTensor<int> events(std::vector<std::vector<std::vector<std::vector<int>>>>{
      {{{1, 2}, {3}}, {{4}}}, {{{5, 6, 7}}, {}}});
  const Tensor<int> grid{{10, 20}, {30, 40}};
  CHECK(strata::to_string(JaggedTensor<int>(events + grid)) ==
        "[[[[11, 12], [13]], [[24]]], [[[35, 36, 37]], []]]");

  std::mt19937 rng(37);
  for (int trial = 0; trial < 30; ++trial) {
    const auto n = static_cast<index_t>(1 + rng() % 5);
    const auto k = static_cast<index_t>(2 + rng() % 3);
    V3 data(static_cast<std::size_t>(n));
    for (auto& row : data) {
      row.resize(static_cast<std::size_t>(k));
      for (auto& list : row) {
        list.resize(static_cast<std::size_t>(rng() % 3));
        for (auto& sub : list) {
          sub.resize(static_cast<std::size_t>(rng() % 4));
          for (double& x : sub) {
            x = static_cast<double>(rng() % 9) - 4.0;
          }
        }
      }
    }
    const JaggedTensor<double> t(data);
    const Tensor<double> dense = regular_operand(rng, n, k, static_cast<int>(rng() % 4));
    Tensor<double> per_row(Index{n});
    for (index_t r = 0; r < n; ++r) {
      per_row(r) = static_cast<double>(r);
    }
    V3 expected = data;
    V3 expected_where = data;
    V3 expected_centred = data;  // t - rows::sum(t) + dense: a per-row reduction in the tree
    for (std::size_t r = 0; r < data.size(); ++r) {
      double total = 0;
      for (const auto& list : data[r]) {
        for (const auto& sub : list) {
          for (const double x : sub) {
            total += x;
          }
        }
      }
      for (std::size_t i = 0; i < data[r].size(); ++i) {
        const double v = dense(static_cast<index_t>(r), static_cast<index_t>(i));
        for (std::size_t j = 0; j < data[r][i].size(); ++j) {
          for (std::size_t m = 0; m < data[r][i][j].size(); ++m) {
            const double x = data[r][i][j][m];
            expected[r][i][j][m] = x * v + static_cast<double>(r);
            expected_where[r][i][j][m] = x > 0 ? v : x;
            expected_centred[r][i][j][m] = x - total + v;
          }
        }
      }
    }
    const auto text = [](const V3& v) { return strata::to_string(JaggedTensor<double>(v)); };
    INFO("trial " << trial << ": " << n << " rows of " << k << " lists of lists");
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        CHECK(strata::to_string(JaggedTensor<double>(t * dense + per_row)) == text(expected));
        CHECK(strata::to_string(JaggedTensor<double>(strata::where(t > 0.0, dense, t))) ==
              text(expected_where));
        CHECK(strata::to_string(JaggedTensor<double>(t - strata::rows::sum(t) + dense)) ==
              text(expected_centred));
        JaggedTensor<double> in_place = t.copy();
        in_place *= dense;
        in_place += per_row;
        CHECK(strata::to_string(in_place) == text(expected));
      });
    }
  }

  SECTION("rows with another number of lists of lists: BroadcastError, nothing written") {
    JaggedTensor<double> uneven(V3{{{{1, 2}}, {{3}}}, {{{4}}}});
    const std::string before = strata::to_string(uneven);
    const Tensor<double> two(Index{2, 2});
    strata::test::check_error<strata::BroadcastError>([&] { uneven += two; }, "jagged expression",
                                                      "regular axis of 2 but row 1 of");
    CHECK(strata::to_string(uneven) == before);
  }
}

}  // namespace test_expr_jagged
