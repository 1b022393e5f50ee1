// Jagged tensors as first-class tensors: construction, views along the ragged axis, per-row
// reductions, jagged expressions and printing, each checked against a reference written over
// plain nested std::vectors (random shapes with empty rows, no rows, one row, rows of length 1).
#include "strata/expr/expr.hpp"
#include "strata/tensor/jagged_tensor.hpp"

#include "check_error.hpp"
#include "jagged_rows.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

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
  strata::test::check_error<strata::ShapeError>([&] { (void)deep.first(1); }, "select_each",
                                                "not 1-D");
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
  const auto grid = JaggedTensor<double>::from_values({1, 2, 3, 4, 5, 6},
                                                      Jagged::from_extents({2, 2}, 1, {1, 2, 0, 3}));
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
