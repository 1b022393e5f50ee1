// More reductions of jagged tensors along the ragged axis and the outer axis: the NaN-skipping
// ones (awkward's ak.nansum ... ak.nanargmax) against a reference over nested std::vectors that
// drops the NaNs first, on random rows with many NaNs, rows of nothing but NaN, empty rows and
// infinities; min / max from an initial value; weighted means (average); small arrays by hand,
// integers, keepdims, row slices, expressions and bad input.
#include "strata/expr/expr.hpp"
#include "strata/tensor/jagged_tensor.hpp"

#include "check_error.hpp"
#include "floats.hpp"
#include "jagged_rows.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <vector>

namespace test_expr_jagged_more_reductions {

using strata::Index;
using strata::index_t;
using strata::JaggedTensor;
using strata::Tensor;
using Rows = strata::test::Rows;

namespace {

using strata::test::kInf;
using strata::test::kNan;

/// Random rows where about one element in four is NaN (some rows nothing but NaN).
Rows rows_with_nans(std::mt19937& rng, index_t rows, index_t max_length) {
  Rows out = strata::test::random_rows(rng, rows, max_length, 3, true);
  std::uniform_int_distribution<int> pick(0, 3);
  for (auto& row : out) {
    const bool all = pick(rng) == 0 && pick(rng) == 0;
    for (double& x : row) {
      x = all || pick(rng) == 0 ? kNan : x;
    }
  }
  return out;
}

std::vector<Rows> cases() {
  std::mt19937 rng(20261127);
  std::vector<Rows> out{
      {}, {{}}, {{kNan}}, {{kNan, kNan}, {}, {1.0}}, {{kNan, 2, kNan, -1}, {kInf, kNan}}};
  for (int k = 0; k < 12; ++k) {
    out.push_back(rows_with_nans(rng, 1 + k * 7, k % 3 == 0 ? 1 : 20));
  }
  return out;
}

using strata::test::same;

template <class T>
void check_same(const Tensor<T>& got, const std::vector<double>& expected) {
  REQUIRE(got.size() == static_cast<index_t>(expected.size()));
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const double g = static_cast<double>(got.data()[k]);
    INFO("position " << k << ": " << g << " against " << expected[k]);
    CHECK(same(g, expected[k]));
  }
}

/// One list a reduction combines (a row, or a column along the outer axis) and where each of
/// its values came from (its position in the row, or its row).
struct List {
  std::vector<double> values;
  std::vector<index_t> from;
};

std::vector<List> lists_of(const Rows& rows, index_t axis) {
  std::vector<List> out;
  if (axis == 1) {
    for (const auto& row : rows) {
      List l{row, {}};
      for (std::size_t k = 0; k < row.size(); ++k) {
        l.from.push_back(static_cast<index_t>(k));
      }
      out.push_back(l);
    }
    return out;
  }
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (out.size() < rows[r].size()) {
      out.resize(rows[r].size());
    }
    for (std::size_t k = 0; k < rows[r].size(); ++k) {
      out[k].values.push_back(rows[r][k]);
      out[k].from.push_back(static_cast<index_t>(r));
    }
  }
  return out;
}

/// The values of @p l that are not NaN.
std::vector<double> kept(const List& l) {
  std::vector<double> out;
  for (const double x : l.values) {
    if (!std::isnan(x)) {
      out.push_back(x);
    }
  }
  return out;
}

template <class F>
std::vector<double> each(const std::vector<List>& lists, F f) {
  std::vector<double> out;
  for (const List& l : lists) {
    out.push_back(static_cast<double>(f(l)));
  }
  return out;
}

double ref_sum(const List& l) {
  double s = 0;
  for (const double x : kept(l)) {
    s += x;
  }
  return s;
}
double ref_prod(const List& l) {
  double p = 1;
  for (const double x : kept(l)) {
    p *= x;
  }
  return p;
}
double ref_mean(const List& l) {
  return ref_sum(l) / static_cast<double>(kept(l).size());
}
double ref_var(const List& l, index_t ddof) {
  const double m = ref_mean(l);
  double s = 0;
  for (const double x : kept(l)) {
    s += (x - m) * (x - m);
  }
  return s / static_cast<double>(std::max<index_t>(static_cast<index_t>(kept(l).size()) - ddof, 0));
}
double ref_extreme(const List& l, bool high) {
  double m = high ? -kInf : kInf;
  for (const double x : kept(l)) {
    m = high ? std::max(m, x) : std::min(m, x);
  }
  return m;
}
index_t ref_arg(const List& l, bool high) {
  index_t best = -1;
  for (std::size_t k = 0; k < l.values.size(); ++k) {
    const double x = l.values[k];
    if (std::isnan(x)) {
      continue;
    }
    if (best < 0 || (high ? x > l.values[static_cast<std::size_t>(best)]
                          : x < l.values[static_cast<std::size_t>(best)])) {
      best = static_cast<index_t>(k);
    }
  }
  return best < 0 ? -1 : l.from[static_cast<std::size_t>(best)];
}

}  // namespace

TEST_CASE("nan-reductions of jagged tensors match the reference along both axes",
          "[expr][jagged][reduce]") {
  for (const Rows& rows : cases()) {
    const JaggedTensor t(rows);
    for (const index_t axis : {index_t{1}, index_t{0}, index_t{-1}}) {
      INFO(rows.size() << " rows, axis " << axis);
      const auto lists = lists_of(rows, axis == 0 ? 0 : 1);
      check_same(strata::nansum(t, axis), each(lists, ref_sum));
      check_same(strata::nanprod(t, axis), each(lists, ref_prod));
      check_same(strata::nanmean(t, axis), each(lists, ref_mean));
      check_same(strata::nanmin(t, axis),
                 each(lists, [](const List& l) { return ref_extreme(l, false); }));
      check_same(strata::nanmax(t, axis),
                 each(lists, [](const List& l) { return ref_extreme(l, true); }));
      check_same(strata::nanargmin(t, axis),
                 each(lists, [](const List& l) { return ref_arg(l, false); }));
      check_same(strata::nanargmax(t, axis),
                 each(lists, [](const List& l) { return ref_arg(l, true); }));
      for (const index_t ddof : {0, 1}) {
        INFO("ddof " << ddof);
        check_same(strata::nanvar(t, axis, strata::Ddof{ddof}),
                   each(lists, [ddof](const List& l) { return ref_var(l, ddof); }));
        check_same(strata::nanstd(t, axis, strata::Ddof{ddof}),
                   each(lists, [ddof](const List& l) { return std::sqrt(ref_var(l, ddof)); }));
      }
    }
  }
}

TEST_CASE("nan-reductions of a small jagged array (by hand)", "[expr][jagged][reduce]") {
  const JaggedTensor t(Rows{{1.0, kNan, 3.0}, {kNan}, {}, {-2.0, 4.0}});
  check_same(strata::nansum(t, 1), {4.0, 0.0, 0.0, 2.0});
  check_same(strata::nanprod(t, 1), {3.0, 1.0, 1.0, -8.0});
  check_same(strata::nanmean(t, 1), {2.0, kNan, kNan, 1.0});
  check_same(strata::nanvar(t, 1), {1.0, kNan, kNan, 9.0});
  check_same(strata::nanstd(t, 1, strata::Ddof{1}), {std::sqrt(2.0), kNan, kNan, std::sqrt(18.0)});
  check_same(strata::nanmin(t, 1), {1.0, kInf, kInf, -2.0});
  check_same(strata::nanmax(t, 1), {3.0, -kInf, -kInf, 4.0});
  check_same(strata::nanargmin(t, 1), {0, -1, -1, 0});
  check_same(strata::nanargmax(t, 1), {2, -1, -1, 1});
  // Columns: position 0 holds 1, NaN, -2; position 1 NaN, 4; position 2 holds 3.
  check_same(strata::nansum(t, 0), {-1.0, 4.0, 3.0});
  check_same(strata::nanmean(t, 0), {-0.5, 4.0, 3.0});
  check_same(strata::nanvar(t, 0), {2.25, 0.0, 0.0});
  check_same(strata::nanmax(t, 0), {1.0, 4.0, 3.0});
  check_same(strata::nanargmin(t, 0), {3, 3, 0});
  check_same(strata::nanargmax(t, 0), {0, 3, 0});
  // The plain reductions see the NaNs.
  CHECK(std::isnan(strata::sum(t, 1)(0)));
  CHECK(strata::argmax(t, 1)(0) == 1);
  // keepdims, axes lists, expressions.
  CHECK(strata::nansum(t, 1, true).shape() == Index{4, 1});
  CHECK(strata::nanmax(t, 0, true).shape() == Index{1, 3});
  check_same(strata::nansum(t, Index{-1}), {4.0, 0.0, 0.0, 2.0});
  check_same(strata::nansum(t * 2.0, 1), {8.0, 0.0, 0.0, 4.0});
  check_same(strata::nanmean(t + 1.0, 1), {3.0, kNan, kNan, 2.0});
  check_same(strata::nanmin(-t, 0), {-1.0, -4.0, -3.0});
  check_same(strata::nanmax(t - 1.0, 1), {2.0, -kInf, -kInf, 3.0});
}

TEST_CASE("nan-reductions of integer jagged tensors are the plain ones", "[expr][jagged][reduce]") {
  const JaggedTensor<int> t(std::vector<std::vector<int>>{{1, 2}, {}, {5}, {0, 4, 6}});
  CHECK(strata::nansum(t, 1) == strata::sum(t, 1));
  CHECK(strata::nanprod(t, 0) == strata::prod(t, 0));
  CHECK(strata::nanmean(t, 0) == strata::mean(t, 0));
  CHECK(strata::nanmin(t, 1) == strata::min(t, 1));
  CHECK(strata::nanargmax(t, 1) == strata::argmax(t, 1));
  CHECK(strata::nanvar(t, 1)(0) == 0.25);
}

TEST_CASE("nan-reductions reject axes they cannot take, naming the operation and axis",
          "[expr][jagged][reduce][errors]") {
  using strata::test::check_error;
  const JaggedTensor t(Rows{{1, kNan}, {}, {3}});
  check_error<strata::IndexError>([&] { (void)strata::nansum(t, 2); }, "nansum", "axis 2");
  check_error<strata::IndexError>([&] { (void)strata::nanvar(t, -3); }, "nanvar", "axis -3");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::nanmean(t, Index{0, 1});
      },
      "nanmean", "axis 0");
  const auto grid = JaggedTensor<double>::from_values(
      {1, 2, 3, 4, 5, 6}, strata::Jagged::from_extents({2, 2}, 1, {1, 2, 0, 3}));
  check_error<strata::ShapeError>([&] { (void)strata::nanargmax(grid, 0); }, "nanargmax",
                                  "n * var");
  check_error<strata::ShapeError>([&] { (void)strata::nanmin(grid, 1); }, "nanmin", "axis 1");
  CHECK(strata::nanmax(grid, 2) == Tensor<double>{{1, 3}, {-kInf, 6}});
}

TEST_CASE("min and max of jagged tensors start from an initial value", "[expr][jagged][reduce]") {
  // np.min(row, initial=v) for each row: the smaller of v and the row, v for an empty row.
  const JaggedTensor t(Rows{{1.0, 5.0}, {}, {-3.0}, {kNan, 0.0}});
  check_same(strata::min(t, 1, strata::Initial{0.5}), {0.5, 0.5, -3.0, kNan});
  check_same(strata::max(t, 1, strata::Initial{2.0}), {5.0, 2.0, 2.0, kNan});
  check_same(strata::max(t, -1, strata::Initial{kNan}), {kNan, kNan, kNan, kNan});
  // Along the outer axis: position 0 holds 1, -3, NaN; position 1 holds 5, 0.
  check_same(strata::min(t, 0, strata::Initial{-1.0}), {kNan, -1.0});
  check_same(strata::max(t, 0, strata::Initial{-1.0}, true), {kNan, 5.0});
  CHECK(strata::max(t, 0, strata::Initial{-1.0}, true).shape() == Index{1, 2});
  const JaggedTensor<int> i(std::vector<std::vector<int>>{{4, 9}, {}, {-7}});
  CHECK(strata::max(i, 1, strata::Initial{5}) == Tensor<int>::of({9, 5, 5}));
  CHECK(strata::min(i, 1, strata::Initial{5}) == Tensor<int>::of({4, 5, -7}));
  strata::test::check_error<strata::IndexError>(
      [&] { (void)strata::min(t, 2, strata::Initial{0.0}); }, "min", "axis 2");
  // The axes-list forms give the same.
  check_same(strata::min(t, Index{1}, strata::Initial{0.5}), {0.5, 0.5, -3.0, kNan});
  check_same(strata::max(t, Index{0}, strata::Initial{-1.0}), {kNan, 5.0});
  CHECK(strata::max(t, Index{-1}, strata::Initial{2.0}, true).shape() == Index{4, 1});
  strata::test::check_error<strata::ShapeError>(
      [&] {
        (void)strata::max(t, Index{0, 1}, strata::Initial{0.0});
      },
      "max", "axis 0");
}

TEST_CASE("average, var and std with weights: jagged rows and positions match the reference",
          "[expr][jagged][reduce]") {
  std::mt19937 rng(77);
  std::uniform_int_distribution<int> weight(0, 4);
  for (int trial = 0; trial < 8; ++trial) {
    const Rows rows =
        strata::test::random_rows(rng, 1 + trial * 9, trial % 2 == 0 ? 1 : 15, 3, trial > 4);
    Rows weights = rows;
    for (auto& row : weights) {
      for (double& w : row) {
        w = weight(rng);
      }
    }
    const JaggedTensor t(rows);
    const JaggedTensor w(weights);
    for (const index_t axis : {index_t{1}, index_t{0}}) {
      INFO(rows.size() << " rows, axis " << axis);
      const auto values = lists_of(rows, axis);
      const auto ws = lists_of(weights, axis);
      std::vector<double> means;
      std::vector<std::vector<double>> variances(2);
      std::vector<std::vector<double>> deviations(2);
      for (std::size_t l = 0; l < values.size(); ++l) {
        const std::vector<double>& x = values[l].values;
        const std::vector<double>& wl = ws[l].values;
        double products = 0;
        double total = 0;
        for (std::size_t k = 0; k < x.size(); ++k) {
          products += x[k] * wl[k];
          total += wl[k];
        }
        const double m = products / total;
        double squares = 0;
        for (std::size_t k = 0; k < x.size(); ++k) {
          squares += wl[k] * (x[k] - m) * (x[k] - m);
        }
        means.push_back(m);
        for (const std::size_t ddof : {0U, 1U}) {
          // No mean (an empty list, weights summing to 0), no variance: NaN, as awkward.
          const double v = std::isnan(m) ? m : squares / (total - static_cast<double>(ddof));
          variances[ddof].push_back(v);
          deviations[ddof].push_back(std::sqrt(v));
        }
      }
      check_same(strata::average(t, axis, w), means);
      for (const index_t ddof : {0, 1}) {
        INFO("ddof " << ddof);
        check_same(strata::var(t, axis, w, strata::Ddof{ddof}),
                   variances[static_cast<std::size_t>(ddof)]);
        check_same(strata::std(t, axis, w, strata::Ddof{ddof}),
                   deviations[static_cast<std::size_t>(ddof)]);
      }
    }
    // Weights of 1 are no weights: var and std as without them.
    const JaggedTensor ones = JaggedTensor<double>::full(t.shape(), 1.0);
    for (const index_t axis : {index_t{1}, index_t{0}}) {
      const Tensor<double> plain = strata::var(t, axis, strata::Ddof{1});
      const Tensor<double> weighted = strata::var(t, axis, ones, strata::Ddof{1});
      check_same(weighted, std::vector<double>(plain.data(), plain.data() + plain.size()));
    }
  }
}

TEST_CASE("average of a small jagged array (by hand), slices, integers and bad weights",
          "[expr][jagged][reduce][errors]") {
  const JaggedTensor t(Rows{{1.0, 2.0, 4.0}, {}, {3.0, -1.0}, {5.0}});
  const JaggedTensor w(Rows{{1.0, 1.0, 2.0}, {}, {0.0, 0.0}, {3.0}});
  // (1 + 2 + 8) / 4; an empty row 0 / 0; weights summing to 0: 0 / 0; (15) / 3.
  check_same(strata::average(t, 1, w), {2.75, kNan, kNan, 5.0});
  // Positions: 0 holds 1 (w 1), 3 (w 0), 5 (w 3): 16 / 4; 1 holds 2 (w 1), -1 (w 0); 2 holds 4.
  check_same(strata::average(t, 0, w), {4.0, 2.0, 4.0});
  CHECK(strata::average(t, 0, w, true).shape() == Index{1, 3});
  CHECK(strata::average(t, Index{-1}, w, true).shape() == Index{4, 1});
  // The weights of a row slice line up with the values' rows, wherever each slice starts.
  const JaggedTensor wide(Rows{{9.0}, {1.0, 1.0, 2.0}, {}, {0.0, 0.0}, {3.0}});
  check_same(strata::average(t.rows(0, 4), 1, wide.rows(1, 5)), {2.75, kNan, kNan, 5.0});
  check_same(strata::average(t.rows(2, 4), 1, w.rows(2, 4)), {kNan, 5.0});
  // Integer values with float weights compute in the common floating type; expressions first.
  const JaggedTensor<int> i(std::vector<std::vector<int>>{{1, 3}, {2}});
  const JaggedTensor<float> fw(std::vector<std::vector<float>>{{1.0F, 3.0F}, {2.0F}});
  const Tensor<float> mixed = strata::average(i, 1, fw);
  check_same(mixed, {2.5, 2.0});
  check_same(strata::average(t * 2.0, 1, w), {5.5, kNan, kNan, 10.0});
  using strata::test::check_error;
  const JaggedTensor other(Rows{{1.0, 1.0}, {}, {1.0, 1.0}, {1.0}});
  check_error<strata::ShapeError>([&] { (void)strata::average(t, 1, other); }, "average",
                                  "weights of shape");
  check_error<strata::IndexError>([&] { (void)strata::average(t, 2, w); }, "average", "axis 2");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::average(t, Index{0, 1}, w);
      },
      "average", "axis 0");
}

TEST_CASE("weighted var and std of a small jagged array (by hand), slices, keepdims, bad weights",
          "[expr][jagged][reduce][errors]") {
  const JaggedTensor t(Rows{{1.0, 2.0, 4.0}, {}, {3.0, -1.0}, {5.0}, {0.0, 6.0}});
  const JaggedTensor w(Rows{{1.0, 1.0, 2.0}, {}, {0.0, 0.0}, {3.0}, {2.0, 1.0}});
  // Row 0: mean 11 / 4 = 2.75; squares 1 * 1.75^2 + 1 * 0.75^2 + 2 * 1.25^2 = 6.75; / 4, / 3.
  // Row 4: mean 6 / 3 = 2; squares 2 * 4 + 1 * 16 = 24; / 3, / 2. Row 3: one value, 0 / 3.
  check_same(strata::var(t, 1, w), {1.6875, kNan, kNan, 0.0, 8.0});
  check_same(strata::var(t, 1, w, strata::Ddof{1}), {2.25, kNan, kNan, 0.0, 12.0});
  check_same(strata::std(t, 1, w, strata::Ddof{1}), {1.5, kNan, kNan, 0.0, std::sqrt(12.0)});
  // Position 0 along the outer axis holds 1 (w 1), 3 (w 0), 5 (w 3), 0 (w 2): mean 16 / 6,
  // squares 25 / 9 + 3 * 49 / 9 + 2 * 64 / 9 = 100 / 3, / 6. Position 1 holds 2 (w 1), -1 (w 0),
  // 6 (w 1): mean 4, squares 8, / 2.
  check_same(strata::var(t, 0, w), {50.0 / 9.0, 4.0, 0.0});
  CHECK(strata::std(t, 0, w, strata::Ddof{0}, true).shape() == Index{1, 3});
  CHECK(strata::var(t, Index{-1}, w, strata::Ddof{0}, true).shape() == Index{5, 1});
  // Slices of the weights line up with the values' rows; expressions are evaluated first.
  const JaggedTensor wide(Rows{{9.0}, {1.0, 1.0, 2.0}, {}, {0.0, 0.0}, {3.0}, {2.0, 1.0}});
  check_same(strata::var(t.rows(0, 5), 1, wide.rows(1, 6)), {1.6875, kNan, kNan, 0.0, 8.0});
  check_same(strata::var(t * 2.0, 1, w), {6.75, kNan, kNan, 0.0, 32.0});
  check_same(strata::std(t * 2.0, 1, w), {std::sqrt(6.75), kNan, kNan, 0.0, std::sqrt(32.0)});
  // Integer values with int weights compute in double.
  const JaggedTensor<int> i(std::vector<std::vector<int>>{{1, 3}, {2}});
  const JaggedTensor<int> iw(std::vector<std::vector<int>>{{1, 3}, {2}});
  const Tensor<double> from_ints = strata::var(i, 1, iw);
  check_same(from_ints, {0.75, 0.0});
  using strata::test::check_error;
  const JaggedTensor other(Rows{{1.0, 1.0}, {}, {1.0, 1.0}, {1.0}, {1.0, 1.0}});
  check_error<strata::ShapeError>([&] { (void)strata::var(t, 1, other); }, "var",
                                  "weights of shape");
  check_error<strata::ShapeError>([&] { (void)strata::std(t, 0, other); }, "std",
                                  "weights of shape");
  check_error<strata::IndexError>([&] { (void)strata::std(t, 2, w); }, "std", "axis 2");
}

TEST_CASE("nansum and nanmean add in sum's order: the bits of sum with NaN replaced by 0",
          "[expr][jagged][reduce]") {
  std::mt19937 rng(5);
  Rows rows = rows_with_nans(rng, 300, 70);
  Rows zeroed = rows;
  std::vector<double> kept_counts;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    double kept = 0;
    for (std::size_t k = 0; k < rows[r].size(); ++k) {
      if (!std::isnan(rows[r][k])) {
        rows[r][k] = rows[r][k] / 7.0 + 0.1;  // inexact: the order of additions shows in the bits
        ++kept;
      }
      zeroed[r][k] = std::isnan(rows[r][k]) ? 0.0 : rows[r][k];
    }
    kept_counts.push_back(kept);
  }
  const JaggedTensor t(rows);
  const Tensor<double> sums = strata::sum(JaggedTensor(zeroed), 1);
  const Tensor<double> nansums = strata::nansum(t, 1);
  const Tensor<double> means = strata::nanmean(t, 1);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const double s = sums.data()[r];  // NaN where a row adds inf and -inf
    CHECK((nansums.data()[r] == s || (std::isnan(s) && std::isnan(nansums.data()[r]))));
    const double want = sums.data()[r] / kept_counts[r];
    CHECK((means.data()[r] == want || (std::isnan(want) && std::isnan(means.data()[r]))));
  }
}

}  // namespace test_expr_jagged_more_reductions
