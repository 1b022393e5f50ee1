// Per-row reductions inside jagged expressions (strata::rows): each against a reference over
// nested vectors on random ragged shapes (empty rows, rows of length 1, NaN and infinities) at
// 1, 2 and 4 threads, against the reductions into dense tensors (the same kernels: the same
// bits), nested inside each other and over expressions, in place, and in a softmax.
#include "strata/expr/expr.hpp"
#include "strata/tensor/jagged_tensor.hpp"

#include "check_error.hpp"
#include "jagged_rows.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace test_expr_jagged_rows {

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
using strata::test::same;

namespace {

/// The shapes every property runs on: no rows, one empty row, rows of length 1, and random rows
/// with empty ones, NaN and infinities among them.
std::vector<Rows> cases() {
  std::mt19937 rng(20261127);
  std::vector<Rows> out{{}, {{}}, {{2.0}}, {{1.0}, {}, {-2.0}}, {{1, 2, 3}, {}, {4, 5}}};
  for (int k = 0; k < 10; ++k) {
    out.push_back(random_rows(rng, 1 + k * 9, k % 3 == 0 ? 1 : 30, 3, k % 2 == 1));
  }
  return out;
}

// The references: one plain loop each, over a row of doubles (only rows with elements are read).
double ref_sum(const std::vector<double>& row) {
  double s = 0;
  for (const double x : row) {
    s += x;
  }
  return s;
}
double ref_prod(const std::vector<double>& row) {
  double p = 1;
  for (const double x : row) {
    p *= x;
  }
  return p;
}
double ref_ptp(const std::vector<double>& row) {
  return ref_max(row) - ref_min(row);
}

/// Every element of row r of @p y is `expected(rows[r])`.
void check_rows(const JaggedTensor<double>& y, const Rows& rows,
                const std::function<double(const std::vector<double>&)>& expected) {
  REQUIRE(y.shape().n_rows() == static_cast<index_t>(rows.size()));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t i = 0; i < rows[r].size(); ++i) {
      INFO("row " << r << " element " << i);
      CHECK(same(y.at(Index{static_cast<index_t>(r), static_cast<index_t>(i)}), expected(rows[r])));
    }
  }
}

/// Every element of row r of @p y has the bits of @p dense (r) (NaN equal to NaN).
template <class T, class R>
void check_bits(const JaggedTensor<T>& y, const Tensor<R>& dense) {
  for (index_t r = 0; r < y.shape().n_rows(); ++r) {
    for (const T x : y.row(r)) {
      const auto d = static_cast<T>(dense(r));
      CHECK((x == d || (std::isnan(static_cast<double>(x)) && std::isnan(static_cast<double>(d)))));
    }
  }
}

}  // namespace

TEST_CASE("rows:: reductions read each row's value along the row, as the reference loops",
          "[expr][jagged][rows]") {
  namespace rows = strata::rows;
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      for (const Rows& data : cases()) {
        INFO(threads << " threads, " << data.size() << " rows");
        const JaggedTensor t(data);
        check_rows(rows::sum(t), data, ref_sum);
        check_rows(rows::prod(t), data, ref_prod);
        check_rows(rows::mean(t), data, ref_mean);
        check_rows(rows::min(t), data, ref_min);
        check_rows(rows::max(t), data, ref_max);
        check_rows(rows::ptp(t), data, ref_ptp);
        check_rows(rows::var(t), data, [](const auto& row) { return ref_var(row, 0); });
        check_rows(rows::std(t, strata::Ddof{1}), data,
                   [](const auto& row) { return std::sqrt(ref_var(row, 1)); });
        check_rows(JaggedTensor<double>(rows::count(t) * 1.0), data,
                   [](const auto& row) { return static_cast<double>(row.size()); });

        // The same kernels as the reductions into dense tensors: the same bits.
        check_bits(JaggedTensor<double>(rows::sum(t)), strata::sum(t, 1));
        check_bits(JaggedTensor<double>(rows::mean(t)), strata::mean(t, 1));
        check_bits(JaggedTensor<double>(rows::var(t)), strata::var(t, 1));
        check_bits(JaggedTensor<double>(rows::std(t)), strata::std(t, 1));
        check_bits(JaggedTensor<double>(rows::max(t)), strata::max(t, 1));
        check_bits(JaggedTensor<double>(rows::ptp(t)), strata::ptp(t, 1));

        // Over an expression with a dense operand per row, and nested: each row's deviation
        // from its mean, then the largest of them.
        const auto n = static_cast<index_t>(data.size());
        Tensor<double> weight(Index{n});
        for (index_t r = 0; r < n; ++r) {
          weight(r) = static_cast<double>(r % 3) + 1.0;
        }
        const JaggedTensor<double> weighted = rows::sum(t * weight);
        const JaggedTensor<double> spread = rows::max(t - rows::mean(t));
        for (std::size_t r = 0; r < data.size(); ++r) {
          std::vector<double> scaled = data[r];
          std::vector<double> deviations = data[r];
          const double m = data[r].empty() ? 0.0 : ref_mean(data[r]);
          for (std::size_t i = 0; i < scaled.size(); ++i) {
            scaled[i] *= weight(static_cast<index_t>(r));
            deviations[i] -= m;
          }
          for (std::size_t i = 0; i < data[r].size(); ++i) {
            const Index at{static_cast<index_t>(r), static_cast<index_t>(i)};
            INFO("row " << r);
            CHECK(same(weighted.at(at), ref_sum(scaled)));
            CHECK(same(spread.at(at), ref_max(deviations)));
          }
        }
      }
    });
  }
}

TEST_CASE("a softmax with rows:: in two statements, and in one", "[expr][jagged][rows]") {
  namespace rows = strata::rows;
  std::mt19937 rng(7);
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      const Rows data = random_rows(rng, 200, 40, 20);
      const JaggedTensor t(data);
      JaggedTensor<double> y = strata::exp(t - rows::max(t));
      const double* before = y.values().data();
      y /= rows::sum(y);  // in place: row r is summed before it is divided
      CHECK(y.values().data() == before);
      const JaggedTensor<double> once =
          strata::exp(t - rows::max(t)) / rows::sum(strata::exp(t - rows::max(t)));
      JaggedTensor<double> eager = strata::exp(t - strata::max(t, 1));
      eager /= strata::sum(eager, 1);
      for (std::size_t r = 0; r < data.size(); ++r) {
        const double hi = data[r].empty() ? 0.0 : ref_max(data[r]);
        double total = 0;
        for (const double x : data[r]) {
          total += std::exp(x - hi);
        }
        for (std::size_t i = 0; i < data[r].size(); ++i) {
          const Index at{static_cast<index_t>(r), static_cast<index_t>(i)};
          const double expected = std::exp(data[r][i] - hi) / total;
          CHECK(y.at(at) == Approx(expected).epsilon(1e-14));
          CHECK(once.at(at) == Approx(expected).epsilon(1e-14));
          CHECK(y.at(at) == eager.at(at));  // the same kernels, the same order: the same bits
        }
      }
    });
  }
}

TEST_CASE("rows:: over integers, rows of several modes and slices of rows",
          "[expr][jagged][rows]") {
  namespace rows = strata::rows;
  SECTION("integers: sums stay integers, means and deviations are double") {
    const JaggedTensor<int> t(std::vector<std::vector<int>>{{1, 2, 4}, {}, {5}});
    const JaggedTensor<int> centred = t * 3 - rows::sum(t);
    CHECK(strata::to_string(centred) == "[[-4, -1, 5], [], [10]]");
    const JaggedTensor<double> mean = rows::mean(t);
    CHECK(mean.row(0)[0] == Approx(7.0 / 3.0));
    CHECK(mean.row(2)[0] == 5.0);
  }
  SECTION("rows of two modes reduce whole (every ragged mode), as sum(jt, {1, 2})") {
    const auto t = JaggedTensor<double>::from_values(
        {1, 2, 3, 4, 5, 6, 7, 8}, strata::Jagged::from_extents({3}, 2, {1, 2, 0, 3, 3, 2}));
    const JaggedTensor<double> share = t / rows::sum(t);
    const Tensor<double> totals = strata::sum(t, Index{1, 2});
    check_bits(JaggedTensor<double>(rows::sum(t)), totals);
    CHECK(share.row(0)[1] == 2.0 / 3.0);
    CHECK(share.row(2)[5] == 8.0 / 33.0);  // element (2, 1) of a 3 x 2 row
  }
  SECTION("a slice of rows reduces its own rows; writing into a slice leaves the others") {
    JaggedTensor<double> t(Rows{{1}, {2, 3}, {}, {4, 5, 6}, {7}});
    JaggedTensor<double> middle = t.rows(1, 4);
    middle -= rows::mean(middle);
    CHECK(strata::to_string(t) == "[[1], [-0.5, 0.5], [], [-1, 0, 1], [7]]");
  }
}

TEST_CASE("rows:: explains itself and rejects operands of other structures",
          "[expr][jagged][rows]") {
  namespace rows = strata::rows;
  using strata::test::check_error;
  const JaggedTensor t(Rows{{1, 2, 3}, {}, {4, 5}});
  const std::string tree = strata::explain(t - rows::max(t * 2.0));
  CHECK(tree.find("rows::max per row") != std::string::npos);
  CHECK(tree.find("jagged") != std::string::npos);

  const JaggedTensor other(Rows{{1, 2, 3}, {7}, {4, 5}});
  JaggedTensor<double> target(Rows{{0, 0, 0}, {}, {0, 0}});
  check_error<strata::ShapeError>([&] { target = t - rows::sum(other); }, "jagged expression",
                                  "row 1");
  check_error<strata::ShapeError>([&] { target = rows::sum(t + other); }, "jagged expression",
                                  "row 1");
  CHECK(strata::to_string(target) == "[[0, 0, 0], [], [0, 0]]");
}

}  // namespace test_expr_jagged_rows
