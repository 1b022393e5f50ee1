// Reductions of jagged tensors as awkward-array defines them: var, std, count, count_nonzero,
// any, all and ptp along the ragged axis, and every reduction along the outer axis of a
// `n * var` tensor (awkward's axis=0: element k of the result combines element k of every row
// that has one), each against a reference over plain nested std::vectors on random rows with
// empty rows, rows of length 1, NaN and infinities; awkward's documented array by hand.
#include "strata/expr/expr.hpp"
#include "strata/tensor/jagged_tensor.hpp"

#include "check_error.hpp"
#include "floats.hpp"
#include "jagged_rows.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <vector>

namespace test_expr_jagged_reductions {

using strata::Index;
using strata::index_t;
using strata::JaggedTensor;
using strata::Tensor;
using Rows = strata::test::Rows;
using strata::test::random_rows;
using strata::test::ref_max;
using strata::test::ref_mean;
using strata::test::ref_min;
using strata::test::ref_var;

namespace {

using strata::test::kInf;
using strata::test::kNan;

/// No rows, one empty row, one row, rows of length 1, awkward's example, and random rows.
std::vector<Rows> cases() {
  std::mt19937 rng(20261126);
  std::vector<Rows> out{{},
                        {{}},
                        {{2.0}},
                        {{1.0}, {-2.0}, {3.0}},
                        {{0, 1, 2}, {}, {3, 4}, {5}, {6, 7, 8, 9}},
                        {{kNan, 1}, {2, kInf}, {-kInf}}};
  for (int k = 0; k < 12; ++k) {
    out.push_back(random_rows(rng, 1 + k * 7, k % 3 == 0 ? 1 : 24, 3, k % 2 == 1));
  }
  return out;
}

std::vector<double> as_vector(const Tensor<double>& t) {
  return {t.begin(), t.end()};
}

using strata::test::same;

void check_same(const std::vector<double>& got, const std::vector<double>& expected) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    INFO("position " << k << ": " << got[k] << " against " << expected[k]);
    CHECK(same(got[k], expected[k]));
  }
}

index_t ref_arg(const std::vector<double>& v, bool high) {
  index_t best = v.empty() ? -1 : 0;
  for (std::size_t k = 0; k < v.size(); ++k) {
    if (std::isnan(v[k])) {
      return static_cast<index_t>(k);
    }
    const double b = v[static_cast<std::size_t>(best)];
    if (high ? v[k] > b : v[k] < b) {
      best = static_cast<index_t>(k);
    }
  }
  return best;
}

/// The columns of rows: column k holds element k of every row that has one, in row order;
/// @p from gets the row each element came from (what argmin / argmax along axis 0 return).
Rows columns_of(const Rows& rows, std::vector<std::vector<index_t>>& from) {
  Rows out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto& row = rows[r];
    if (out.size() < row.size()) {
      out.resize(row.size());
      from.resize(row.size());
    }
    for (std::size_t k = 0; k < row.size(); ++k) {
      out[k].push_back(row[k]);
      from[k].push_back(static_cast<index_t>(r));
    }
  }
  return out;
}

/// Applies @p f to every list (the rows for axis 1, the columns for axis 0).
template <class F>
std::vector<double> each(const Rows& lists, F f) {
  std::vector<double> out;
  for (const auto& list : lists) {
    out.push_back(static_cast<double>(f(list)));
  }
  return out;
}

template <class T>
std::vector<double> as_doubles(const Tensor<T>& t) {
  std::vector<double> out;
  for (const T x : t) {
    out.push_back(static_cast<double>(x));
  }
  return out;
}

}  // namespace

TEST_CASE("jagged reductions along the ragged axis and the outer axis match the reference",
          "[expr][jagged][reduce]") {
  for (const Rows& rows : cases()) {
    const JaggedTensor t(rows);
    for (const index_t axis : {index_t{1}, index_t{0}}) {
      INFO(rows.size() << " rows, axis " << axis);
      // The lists a reduction combines: each row (axis 1), or each column (axis 0, awkward's).
      std::vector<std::vector<index_t>> from;  // along axis 0: each element's row
      const Rows lists = axis == 1 ? rows : columns_of(rows, from);
      // What argmin / argmax return for position p of list l: p along a row, the row along
      // the outer axis (awkward's and NumPy's index into axis 0), -1 for an empty row.
      std::size_t list = 0;
      const auto index_of = [&](index_t p) {
        const std::size_t l = list++;
        return axis == 1 || p < 0 ? p : from[l][static_cast<std::size_t>(p)];
      };
      const auto sum = [](const std::vector<double>& v) {
        double s = 0;
        for (const double x : v) {
          s += x;
        }
        return s;
      };
      const auto prod = [](const std::vector<double>& v) {
        double p = 1;
        for (const double x : v) {
          p *= x;
        }
        return p;
      };
      check_same(as_vector(strata::sum(t, axis)), each(lists, sum));
      check_same(as_vector(strata::prod(t, axis)), each(lists, prod));
      check_same(as_vector(strata::mean(t, axis)), each(lists, ref_mean));
      check_same(as_vector(strata::min(t, axis)), each(lists, ref_min));
      check_same(as_vector(strata::max(t, axis)), each(lists, ref_max));
      check_same(as_vector(strata::ptp(t, axis)), each(lists, [](const std::vector<double>& v) {
                   return v.empty() ? 0.0 : ref_max(v) - ref_min(v);
                 }));
      list = 0;
      check_same(
          as_doubles(strata::argmin(t, axis)),
          each(lists, [&](const std::vector<double>& v) { return index_of(ref_arg(v, false)); }));
      list = 0;
      check_same(
          as_doubles(strata::argmax(t, axis)),
          each(lists, [&](const std::vector<double>& v) { return index_of(ref_arg(v, true)); }));
      for (const index_t ddof : {0, 1, 2}) {
        INFO("ddof " << ddof);
        const auto var = [ddof](const std::vector<double>& v) { return ref_var(v, ddof); };
        check_same(as_vector(strata::var(t, axis, strata::Ddof{ddof})), each(lists, var));
        check_same(as_vector(strata::std(t, axis, strata::Ddof{ddof})),
                   each(lists, [&](const std::vector<double>& v) { return std::sqrt(var(v)); }));
      }
      check_same(as_doubles(strata::count(t, axis)),
                 each(lists, [](const std::vector<double>& v) { return v.size(); }));
      const auto nonzero = [](const std::vector<double>& v) {
        return std::count_if(v.begin(), v.end(), [](double x) { return x != 0; });
      };
      check_same(as_doubles(strata::count_nonzero(t, axis)), each(lists, nonzero));
      check_same(as_doubles(strata::any(t, axis)),
                 each(lists, [&](const std::vector<double>& v) { return nonzero(v) > 0; }));
      check_same(as_doubles(strata::all(t, axis)), each(lists, [&](const std::vector<double>& v) {
                   return nonzero(v) == static_cast<std::ptrdiff_t>(v.size());
                 }));
    }
  }
}

TEST_CASE("awkward's documented array reduced along axis 0 and axis 1 (by hand)",
          "[expr][jagged][reduce]") {
  // ak.Array([[0.0, 1.1, 2.2], [], [3.3, 4.4], [5.5], [6.6, 7.7, 8.8, 9.9]]), the array of
  // awkward's reducer documentation; the expected values are worked out by hand.
  const JaggedTensor t(Rows{{0.0, 1.1, 2.2}, {}, {3.3, 4.4}, {5.5}, {6.6, 7.7, 8.8, 9.9}});
  check_same(as_vector(strata::sum(t, 0)), {15.4, 13.2, 11.0, 9.9});
  check_same(as_vector(strata::sum(t, -1)), {3.3, 0.0, 7.7, 5.5, 33.0});
  check_same(as_doubles(strata::count(t, 0)), {4, 3, 2, 1});
  check_same(as_doubles(strata::count(t, 1)), {3, 0, 2, 1, 4});
  check_same(as_vector(strata::mean(t, 0)), {3.85, 4.4, 5.5, 9.9});
  check_same(as_vector(strata::max(t, 0)), {6.6, 7.7, 8.8, 9.9});
  check_same(as_vector(strata::min(t, 0)), {0.0, 1.1, 2.2, 9.9});
  check_same(as_doubles(strata::argmin(t, 0)), {0, 0, 0, 4});
  check_same(as_vector(strata::ptp(t, 1)), {2.2, 0.0, 1.1, 0.0, 3.3});
  check_same(as_doubles(strata::count_nonzero(t, 0)), {3, 3, 2, 1});
  check_same(as_doubles(strata::all(t, 0)), {0, 1, 1, 1});
  check_same(as_doubles(strata::any(t, 1)), {1, 0, 1, 1, 1});
  // Column 0 (0, 3.3, 5.5, 6.6): mean 3.85, squared deviations 14.8225 + 0.3025 + 2.7225 +
  // 7.5625 = 25.41; column 1 (1.1, 4.4, 7.7): mean 4.4, squared deviations 10.89 + 0 + 10.89.
  check_same(as_vector(strata::var(t, 0)), {6.3525, 7.26, 10.89, 0.0});
  check_same(as_vector(strata::var(t, 0, strata::Ddof{1})), {8.47, 10.89, 21.78, kNan});
  // Rows: [0, 1.1, 2.2] has variance (1.21 + 0 + 1.21) / 3; an empty row is NaN.
  check_same(as_vector(strata::var(t, 1)), {2.42 / 3, kNan, 0.3025, 0.0, 1.5125});
  CHECK(strata::std(t, 1)(2) == Approx(0.55));
}

TEST_CASE("reductions along the outer axis keep dims, take integers and ignore thread counts",
          "[expr][jagged][reduce]") {
  const JaggedTensor<int> t(std::vector<std::vector<int>>{{1, 2}, {}, {5}, {0, 4, 6}});
  CHECK(strata::sum(t, 0, true).shape() == Index{1, 3});
  CHECK(strata::sum(t, 0, true) == Tensor<int>{{6, 6, 6}});
  CHECK(strata::count(t, 1, true).shape() == Index{4, 1});
  CHECK(strata::ptp(t, 0) == Tensor<int>::of({5, 2, 0}));
  CHECK(strata::mean(t, 0) == Tensor<double>::of({2.0, 3.0, 6.0}));
  CHECK(strata::var(t, 1)(1) != strata::var(t, 1)(1));  // an empty row: NaN
  CHECK(strata::max(t, 1)(1) == std::numeric_limits<int>::lowest());
  CHECK(strata::all(t, 0) == Tensor<bool>::of({false, true, true}));
  // No rows, or only empty ones: nothing along the outer axis.
  CHECK(strata::sum(JaggedTensor<int>(std::vector<std::vector<int>>{{}, {}}), 0).size() == 0);
  std::mt19937 rng(3);
  Rows rows = random_rows(rng, 2000, 60);
  for (auto& row : rows) {
    for (double& x : row) {
      x = x / 7.0 + 0.1;  // inexact: the order of additions shows in the bits
    }
  }
  const JaggedTensor u(rows);
  std::vector<double> first;
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      const auto sums = as_vector(strata::sum(u, 0));
      if (first.empty()) {
        first = sums;
      }
      CHECK(sums == first);
    });
  }
}

TEST_CASE("jagged reductions reject axes they cannot take, naming the operation and axis",
          "[expr][jagged][reduce][errors]") {
  using strata::test::check_error;
  const JaggedTensor t(Rows{{1, 2}, {}, {3}});
  check_error<strata::IndexError>([&] { (void)strata::var(t, 2); }, "var", "axis 2");
  check_error<strata::IndexError>([&] { (void)strata::count(t, -3); }, "count", "axis -3");
  check_error<strata::ShapeError>([&] { (void)strata::ptp(t, Index{0, 1}); }, "ptp", "axis 0");
  check_error<strata::ShapeError>([&] { (void)strata::any(t, strata::IndexSpan{}); }, "any",
                                  "ragged modes");
  // The outer axis of a shape with two outer modes, and the first of them.
  const auto grid = JaggedTensor<double>::from_values(
      {1, 2, 3, 4, 5, 6}, strata::Jagged::from_extents({2, 2}, 1, {1, 2, 0, 3}));
  check_error<strata::ShapeError>([&] { (void)strata::count_nonzero(grid, 0); }, "count_nonzero",
                                  "n * var");
  check_error<strata::ShapeError>([&] { (void)strata::all(grid, 1); }, "all", "axis 1");
  CHECK(strata::count(grid, 2) == Tensor<index_t>{{1, 2}, {0, 3}});
}

TEST_CASE("jagged expressions reduce as the tensors they evaluate to", "[expr][jagged][reduce]") {
  const JaggedTensor t(Rows{{0, 1, 2}, {}, {3, 4}, {5}, {6, 7, 8, 9}});
  const JaggedTensor<double> twice = t * 2.0;
  const JaggedTensor<bool> positive = t > 0.0;
  CHECK(strata::all(t > 0.0, 1) == strata::all(positive, 1));
  CHECK(strata::all(t > 0.0, 1) == Tensor<bool>::of({false, true, true, true, true}));
  CHECK(strata::any(t > 6.5, 0) == Tensor<bool>::of({false, true, true, true}));
  check_same(as_vector(strata::var(t * 2.0, 1, strata::Ddof{1})),
             as_vector(strata::var(twice, 1, strata::Ddof{1})));
  check_same(as_vector(strata::std(t * 2.0, 0)), as_vector(strata::std(twice, 0)));
  CHECK(strata::count(t * 2.0, 0) == strata::count(t, 0));
  CHECK(strata::count_nonzero(t - 1.0, 1) == Tensor<index_t>::of({2, 0, 2, 1, 4}));
  CHECK(strata::argmax(-t, 0) == Tensor<index_t>::of({0, 0, 0, 4}));
  CHECK(strata::ptp(t * 2.0, 1) == Tensor<double>::of({4, 0, 2, 0, 6}));
  CHECK(strata::prod(t + 1.0, 0) == Tensor<double>::of({1 * 4 * 6 * 7, 2 * 5 * 8, 3 * 9, 10}));
}

}  // namespace test_expr_jagged_reductions
