// Missing values (strata/select/missing.hpp): Masked dense and jagged tensors, the reductions of
// jagged tensors with mask_identity, firsts / lasts, pad_none (with and without Clip), is_none,
// fill_none, drop_none and printing None; awkward-array's documented examples written by hand,
// references over nested std::vectors on random rows (empty rows, rows of length 1, NaN and
// infinities) at 1, 2 and 4 threads, row slices, and bad input.
#include "strata/strata.hpp"

#include "check_error.hpp"
#include "floats.hpp"
#include "jagged_rows.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace test_select_missing {

using strata::Index;
using strata::index_t;
using strata::JaggedTensor;
using strata::Masked;
using strata::Tensor;
using Rows = strata::test::Rows;

namespace {

using strata::test::kNan;

/// The entries of a masked 1-D tensor as optionals.
template <class T>
std::vector<std::optional<T>> entries(const Masked<Tensor<T>>& m) {
  std::vector<std::optional<T>> out;
  for (index_t k = 0; k < m.size(); ++k) {
    out.push_back(m.at(Index{k}));
  }
  return out;
}

/// The rows of a masked jagged tensor with 1-D rows as nested optionals.
template <class T>
std::vector<std::vector<std::optional<T>>> entries(const Masked<JaggedTensor<T>>& m) {
  std::vector<std::vector<std::optional<T>>> out;
  const std::span<const index_t> offsets = m.values().offsets();
  for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
    out.emplace_back();
    for (index_t k = 0; k < offsets[r + 1] - offsets[r]; ++k) {
      out.back().push_back(m.at(Index{static_cast<index_t>(r), k}));
    }
  }
  return out;
}

/// a == b, or both NaN: the same computation's answer.
bool identical(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

}  // namespace

TEST_CASE("awkward's documented examples of missing values", "[missing]") {
  // ak.firsts, ak.pad_none, ak.fill_none, ak.is_none, ak.drop_none from awkward-array's docs.
  const JaggedTensor<double> a(Rows{{1.1, 2.2, 3.3}, {}, {4.4, 5.5}});
  using O = std::optional<double>;
  CHECK(entries(strata::firsts(a)) == std::vector<O>{1.1, std::nullopt, 4.4});
  CHECK(entries(strata::lasts(a)) == std::vector<O>{3.3, std::nullopt, 5.5});
  CHECK(strata::to_string(strata::firsts(a)) == "[ 1.1 None  4.4]");

  const JaggedTensor<int> b(
      std::vector<std::vector<int>>{{0, 1, 2}, {}, {3, 4}, {5}, {6, 7, 8, 9}});
  using I = std::optional<int>;
  const auto padded = strata::pad_none(b, 2);
  CHECK(entries(padded) ==
        std::vector<std::vector<I>>{
            {0, 1, 2}, {std::nullopt, std::nullopt}, {3, 4}, {5, std::nullopt}, {6, 7, 8, 9}});
  CHECK(strata::to_string(padded) == "[[0, 1, 2], [None, None], [3, 4], [5, None], [6, 7, 8, 9]]");
  const auto clipped = strata::pad_none(b, 2, strata::Clip{});
  CHECK(clipped.values().shape() == Index{5, 2});
  CHECK(strata::to_string(clipped) ==
        "[[   0    1]\n [None None]\n [   3    4]\n [   5 None]\n [   6    7]]");
  CHECK(clipped.count() == 7);
  CHECK(padded.count() == 10);

  // fill_none replaces the missing entries; is_none says where they are.
  CHECK(strata::test::rows_of(strata::fill_none(padded, -1)) ==
        std::vector<std::vector<int>>{{0, 1, 2}, {-1, -1}, {3, 4}, {5, -1}, {6, 7, 8, 9}});
  CHECK(strata::test::rows_of(strata::is_none(padded)) ==
        std::vector<std::vector<bool>>{{false, false, false},
                                       {true, true},
                                       {false, false},
                                       {false, true},
                                       {false, false, false, false}});
  CHECK(strata::fill_none(clipped, 0) ==
        Tensor<int>::from_vector({0, 1, 0, 0, 3, 4, 5, 0, 6, 7}, Index{5, 2}));
  CHECK(strata::is_none(strata::firsts(a)) == Tensor<bool>::of({false, true, false}));
  // drop_none undoes pad_none, and compresses a dense one in row-major order.
  CHECK(strata::test::rows_of(strata::drop_none(padded)) == strata::test::rows_of(b));
  CHECK(strata::drop_none(clipped) == Tensor<int>::of({0, 1, 3, 4, 5, 6, 7}));

  // ak.min(array, axis=1, mask_identity=True) and friends: None for an empty row.
  const auto lo = strata::min(a, 1, strata::mask_identity);
  CHECK(entries(lo) == std::vector<O>{1.1, std::nullopt, 4.4});
  CHECK(entries(strata::sum(a, -1, strata::mask_identity)) ==
        std::vector<O>{1.1 + 2.2 + 3.3, std::nullopt, 4.4 + 5.5});
  CHECK(entries(strata::argmax(a, 1, strata::mask_identity)) ==
        std::vector<std::optional<index_t>>{2, std::nullopt, 1});
  CHECK(entries(strata::mean(a, 1, strata::mask_identity)) ==
        std::vector<O>{(1.1 + 2.2 + 3.3) / 3, std::nullopt, (4.4 + 5.5) / 2});
  const JaggedTensor<double> c(Rows{{1.0, kNan}, {kNan}, {}});
  CHECK(entries(strata::nanmax(c, 1, strata::mask_identity)) ==
        std::vector<O>{1.0, std::nullopt, std::nullopt});
  CHECK(entries(strata::nanargmin(c, 1, strata::mask_identity)) ==
        std::vector<std::optional<index_t>>{0, std::nullopt, std::nullopt});
  // Along the outer axis every position below the longest row has a value...
  CHECK(entries(strata::max(a, 0, strata::mask_identity)) == std::vector<O>{4.4, 5.5, 3.3});
  // ... but not one that is not NaN.
  CHECK(entries(strata::nanmin(c, 0, strata::mask_identity)) == std::vector<O>{1.0, std::nullopt});
  // An integer mean is a double; keepdims keeps the axis in both parts.
  const JaggedTensor<int> d(std::vector<std::vector<int>>{{1, 2}, {}});
  const auto dm = strata::mean(d, 1, strata::mask_identity, true);
  static_assert(std::is_same_v<decltype(dm), const Masked<Tensor<double>>>);
  CHECK(dm.values().shape() == Index{2, 1});
  CHECK(dm.valid().shape() == Index{2, 1});
  CHECK(dm.at(Index{0, 0}) == 1.5);
  CHECK(dm.at(Index{1, 0}) == std::nullopt);
  // The value under a missing entry is zero, never the identity.
  CHECK(lo.values().at(Index{1}) == 0.0);
  CHECK(strata::to_string(strata::var(d, 1, strata::mask_identity)) == "[0.25 None]");
}

TEST_CASE("mask_identity reductions against nested-vector references", "[missing]") {
  std::mt19937 rng(20261127);
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      for (int round = 0; round < 8; ++round) {
        Rows rows = strata::test::random_rows(rng, 1 + round * 9, round % 3 == 0 ? 1 : 6, 3, true);
        // One value in three NaN, so that rows of nothing but NaN come up often.
        std::uniform_int_distribution<int> pick(0, 2);
        for (auto& row : rows) {
          for (double& x : row) {
            x = pick(rng) == 0 ? kNan : x;
          }
        }
        const JaggedTensor<double> t(rows);
        INFO("threads " << threads << ", round " << round);
        // Along the ragged axis: missing exactly where the row is empty (or, skipping NaN, has
        // nothing but NaN); elsewhere the plain reduction's value.
        const auto check_rows = [&](const Masked<Tensor<double>>& m, const Tensor<double>& plain,
                                    bool skip_nan) {
          REQUIRE(m.size() == static_cast<index_t>(rows.size()));
          for (std::size_t r = 0; r < rows.size(); ++r) {
            const bool has = std::any_of(rows[r].begin(), rows[r].end(),
                                         [&](double x) { return !skip_nan || !std::isnan(x); });
            const std::optional<double> e = m.at(Index{static_cast<index_t>(r)});
            CHECK(e.has_value() == has);
            if (has) {
              CHECK(identical(*e, plain.at(Index{static_cast<index_t>(r)})));
            }
          }
        };
        check_rows(strata::sum(t, 1, strata::mask_identity), strata::sum(t, 1), false);
        check_rows(strata::prod(t, 1, strata::mask_identity), strata::prod(t, 1), false);
        check_rows(strata::min(t, 1, strata::mask_identity), strata::min(t, 1), false);
        check_rows(strata::max(t, 1, strata::mask_identity), strata::max(t, 1), false);
        check_rows(strata::ptp(t, 1, strata::mask_identity), strata::ptp(t, 1), false);
        check_rows(strata::mean(t, 1, strata::mask_identity), strata::mean(t, 1), false);
        check_rows(strata::var(t, 1, strata::mask_identity), strata::var(t, 1), false);
        check_rows(strata::std(t, 1, strata::mask_identity, strata::Ddof{1}),
                   strata::std(t, 1, strata::Ddof{1}), false);
        check_rows(strata::nansum(t, 1, strata::mask_identity), strata::nansum(t, 1), true);
        check_rows(strata::nanprod(t, 1, strata::mask_identity), strata::nanprod(t, 1), true);
        check_rows(strata::nanmin(t, 1, strata::mask_identity), strata::nanmin(t, 1), true);
        check_rows(strata::nanmax(t, 1, strata::mask_identity), strata::nanmax(t, 1), true);
        check_rows(strata::nanmean(t, 1, strata::mask_identity), strata::nanmean(t, 1), true);
        check_rows(strata::nanvar(t, 1, strata::mask_identity), strata::nanvar(t, 1), true);
        check_rows(strata::nanstd(t, 1, strata::mask_identity), strata::nanstd(t, 1), true);
        const auto positions = [&](const Masked<Tensor<index_t>>& m, bool skip_nan) {
          for (std::size_t r = 0; r < rows.size(); ++r) {
            const bool has = std::any_of(rows[r].begin(), rows[r].end(),
                                         [&](double x) { return !skip_nan || !std::isnan(x); });
            const auto e = m.at(Index{static_cast<index_t>(r)});
            CHECK(e.has_value() == has);
            if (has) {
              CHECK(*e >= 0);
              CHECK(*e < static_cast<index_t>(rows[r].size()));
            }
          }
        };
        positions(strata::argmin(t, 1, strata::mask_identity), false);
        positions(strata::argmax(t, 1, strata::mask_identity), false);
        positions(strata::nanargmin(t, 1, strata::mask_identity), true);
        positions(strata::nanargmax(t, 1, strata::mask_identity), true);

        // Along the outer axis: position k is missing where no row has a (non-NaN) element k.
        std::size_t longest = 0;
        for (const auto& row : rows) {
          longest = std::max(longest, row.size());
        }
        const auto nm = strata::nanmean(t, 0, strata::mask_identity);
        const Tensor<double> plain = strata::nanmean(t, 0);
        REQUIRE(nm.size() == static_cast<index_t>(longest));
        for (std::size_t k = 0; k < longest; ++k) {
          bool has = false;
          for (const auto& row : rows) {
            has = has || (k < row.size() && !std::isnan(row[k]));
          }
          const auto e = nm.at(Index{static_cast<index_t>(k)});
          CHECK(e.has_value() == has);
          if (has) {
            CHECK(identical(*e, plain.at(Index{static_cast<index_t>(k)})));
          }
        }
        CHECK(strata::sum(t, 0, strata::mask_identity).count() == static_cast<index_t>(longest));
      }
    });
  }
}

TEST_CASE("firsts, lasts and pad_none against nested-vector references", "[missing]") {
  std::mt19937 rng(7);
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      for (int round = 0; round < 8; ++round) {
        const Rows rows =
            strata::test::random_rows(rng, round * 11, round % 2 == 0 ? 1 : 9, 3, true);
        const JaggedTensor<double> whole(rows);
        // A slice of rows too: its offsets are its own.
        const index_t lo = whole.shape().n_rows() / 3;
        const JaggedTensor<double> t = whole.rows(lo, whole.shape().n_rows());
        const Rows ref(rows.begin() + lo, rows.end());
        INFO("threads " << threads << ", round " << round);
        const auto first = strata::firsts(t);
        const auto last = strata::lasts(t);
        for (std::size_t r = 0; r < ref.size(); ++r) {
          const Index at{static_cast<index_t>(r)};
          CHECK(first.at(at).has_value() == !ref[r].empty());
          CHECK(last.at(at).has_value() == !ref[r].empty());
          if (!ref[r].empty()) {
            CHECK(identical(*first.at(at), ref[r].front()));
            CHECK(identical(*last.at(at), ref[r].back()));
          }
        }
        for (const index_t target : {index_t{0}, index_t{1}, index_t{4}}) {
          const auto padded = strata::pad_none(t, target);
          const auto clipped = strata::pad_none(t, target, strata::Clip{});
          REQUIRE(clipped.values().shape() == Index{static_cast<index_t>(ref.size()), target});
          const auto rows_of = entries(padded);
          REQUIRE(rows_of.size() == ref.size());
          for (std::size_t r = 0; r < ref.size(); ++r) {
            const std::size_t n = ref[r].size();
            REQUIRE(rows_of[r].size() == std::max(n, static_cast<std::size_t>(target)));
            for (std::size_t k = 0; k < rows_of[r].size(); ++k) {
              CHECK(rows_of[r][k].has_value() == (k < n));
              if (k < n) {
                CHECK(identical(*rows_of[r][k], ref[r][k]));
              }
            }
            for (index_t k = 0; k < target; ++k) {
              const auto e = clipped.at(Index{static_cast<index_t>(r), k});
              CHECK(e.has_value() == (static_cast<std::size_t>(k) < n));
              if (e) {
                CHECK(identical(*e, ref[r][static_cast<std::size_t>(k)]));
              }
            }
          }
          // drop_none(pad_none(t)) is t; fill_none fills exactly the padding.
          const JaggedTensor<double> back = strata::drop_none(padded);
          REQUIRE(back.shape().same_as(t.shape()));
          const auto filled = strata::test::rows_of(strata::fill_none(padded, 9.5));
          for (std::size_t r = 0; r < ref.size(); ++r) {
            for (std::size_t k = 0; k < filled[r].size(); ++k) {
              CHECK(identical(filled[r][k], k < ref[r].size() ? ref[r][k] : 9.5));
            }
          }
        }
      }
    });
  }
}

TEST_CASE("Masked from values and a mask; views keep working", "[missing]") {
  Tensor<double> x = Tensor<double>::of({1.0, 2.0, 3.0, 4.0});
  const Masked m(x.reshape(Index{2, 2}).transpose(),
                 Tensor<bool>::from_vector({true, false, true, true}, Index{2, 2}));
  // The transposed view [[1 3] [2 4]] with entry (0, 1) missing.
  CHECK(m.at(Index{0, 1}) == std::nullopt);
  CHECK(m.at(Index{1, 0}) == 2.0);
  CHECK(strata::fill_none(m, 0.0) ==
        Tensor<double>::from_vector({1.0, 0.0, 2.0, 4.0}, Index{2, 2}));
  CHECK(strata::drop_none(m) == Tensor<double>::of({1.0, 2.0, 4.0}));
  CHECK(strata::to_string(m) == "[[  1. None]\n [  2.   4.]]");
  // Every value missing, and a size-0 tensor.
  const Masked none(Tensor<int>::of({5, 6}), Tensor<bool>::of({false, false}));
  CHECK(strata::to_string(none) == "[None None]");
  CHECK(strata::drop_none(none).size() == 0);
  const Masked empty(Tensor<int>(Index{0}), Tensor<bool>(Index{0}));
  CHECK(strata::to_string(empty) == "[]");
  CHECK(empty.count() == 0);
  // Jagged: a mask of the values' structure.
  const JaggedTensor<int> j(std::vector<std::vector<int>>{{1, 2}, {}, {3}});
  const Masked mj(j, JaggedTensor<bool>(std::vector<std::vector<bool>>{{false, true}, {}, {true}}));
  CHECK(strata::to_string(mj) == "[[None, 2], [], [3]]");
  CHECK(strata::test::rows_of(strata::drop_none(mj)) ==
        std::vector<std::vector<int>>{{2}, {}, {3}});
}

TEST_CASE("missing values inside expressions propagate as awkward's option types", "[missing]") {
  using Opt = std::optional<double>;
  std::mt19937 rng(1128);
  std::uniform_real_distribution<double> scale(-2.0, 2.0);
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      for (int round = 0; round < 8; ++round) {
        const Rows rows = strata::test::random_rows(rng, 1 + round * 5, 4, 3, true);
        const JaggedTensor<double> t(rows);
        const auto n = static_cast<index_t>(rows.size());
        Tensor<double> dense(Index{n});
        for (auto&& x : dense) {
          x = scale(rng);
        }
        const auto first = strata::firsts(t);
        const auto last = strata::lasts(t);
        const auto most = strata::max(t, 1, strata::mask_identity);
        INFO("threads " << threads << ", round " << round);
        // References with std::optional: None in, None out.
        std::vector<Opt> sum;
        std::vector<Opt> affine;
        std::vector<Opt> ratio;
        std::vector<std::optional<bool>> less;
        std::vector<std::optional<bool>> equal_last;
        std::vector<Opt> negated;
        for (std::size_t r = 0; r < rows.size(); ++r) {
          if (rows[r].empty()) {
            sum.emplace_back();
            affine.emplace_back();
            ratio.emplace_back();
            less.emplace_back();
            equal_last.emplace_back();
            negated.emplace_back();
            continue;
          }
          const double f = rows[r].front();
          const double l = rows[r].back();
          // NumPy's max: NaN when the row holds one.
          const double m =
              std::any_of(rows[r].begin(), rows[r].end(), [](double x) { return std::isnan(x); })
                  ? kNan
                  : *std::max_element(rows[r].begin(), rows[r].end());
          const double d = dense.data()[r];
          sum.emplace_back(f + l);
          affine.emplace_back(2.0 * m + d);
          ratio.emplace_back(f / m);
          less.emplace_back(f < l);
          equal_last.emplace_back(m == l);
          negated.emplace_back(-f);
        }
        const auto check = [](const auto& got, const auto& want) {
          const auto have = entries(got);
          REQUIRE(have.size() == want.size());
          for (std::size_t k = 0; k < want.size(); ++k) {
            CHECK(have[k].has_value() == want[k].has_value());
            if (want[k] && have[k]) {
              CHECK(identical(static_cast<double>(*have[k]), static_cast<double>(*want[k])));
            }
          }
        };
        check(first + last, sum);
        check(2.0 * most + dense, affine);
        check(first / most, ratio);
        check(first < last, less);
        check(most == last, equal_last);
        check(-first, negated);
        check(strata::map_masked([](const auto& a, const auto& b) { return a + b; }, first, last),
              sum);
        // A masked value per row against the rows themselves: a jagged result; and pad_none's
        // jagged Masked against a dense per-row operand.
        const auto shifted = first + t;
        const auto padded = strata::pad_none(t, 3) * dense;
        for (std::size_t r = 0; r < rows.size(); ++r) {
          const auto ri = static_cast<index_t>(r);
          for (std::size_t k = 0; k < rows[r].size(); ++k) {
            const auto ki = static_cast<index_t>(k);
            const Opt got = shifted.at(Index{ri, ki});
            CHECK(got.has_value());
            CHECK(identical(got.value_or(0.0), rows[r].front() + rows[r][k]));
          }
          for (std::size_t k = 0; k < std::max<std::size_t>(rows[r].size(), 3); ++k) {
            const Opt got = padded.at(Index{ri, static_cast<index_t>(k)});
            CHECK(got.has_value() == (k < rows[r].size()));  // None where padded
            if (k < rows[r].size()) {
              CHECK(identical(got.value_or(0.0), rows[r][k] * dense.data()[r]));
            }
          }
        }
      }
    });
  }
  // By hand, as awkward prints: [3, None, 5] * 2 + [1, None, 4].
  const JaggedTensor<double> jt(Rows{{1.0, 2.0, 3.0}, {}, {4.0, 5.0}});
  const auto best = strata::max(jt, 1, strata::mask_identity);
  CHECK(strata::to_string(best * 2.0 + strata::firsts(jt)) == "[  7. None  14.]");
  CHECK(strata::to_string(strata::pad_none(jt, 2) - 1.0) == "[[0, 1, 2], [None, None], [3, 4]]");
  // Integers: the zero under a missing entry divides without trapping.
  const JaggedTensor<int> ints(std::vector<std::vector<int>>{{1, 2}, {}, {4}});
  CHECK(strata::to_string(strata::firsts(ints) / strata::lasts(ints)) == "[   0 None    1]");
  // Operands that do not broadcast: the expression's BroadcastError naming the operator.
  strata::test::check_error<strata::BroadcastError>(
      [&] { (void)(best + Tensor<double>(Index{4})); }, "operator+", "[4]");
  CHECK(strata::to_string(best) == "[  3. None   5.]");  // unchanged
}

TEST_CASE("missing values: bad input", "[missing][errors]") {
  using strata::test::check_error;
  const JaggedTensor<double> t(Rows{{1.0, 2.0}, {}, {3.0}});
  check_error<strata::ShapeError>(
      [&] {
        (void)Masked(Tensor<int>::of({1, 2}), Tensor<bool>::of({true, false, true}));
      },
      "Masked", "[3]");
  check_error<strata::ShapeError>(
      [&] {
        (void)Masked(JaggedTensor<int>(std::vector<std::vector<int>>{{1, 2}, {}}),
                     JaggedTensor<bool>(std::vector<std::vector<bool>>{{true}, {true}}));
      },
      "Masked", "validity mask");
  check_error<strata::ShapeError>([&] { (void)strata::pad_none(t, -1); }, "pad_none", "-1");
  check_error<strata::ShapeError>([&] { (void)strata::pad_none(t, -2, strata::Clip{}); },
                                  "pad_none", "-2");
  // Rows that are not 1-D.
  const JaggedTensor<double> deep(
      std::vector<std::vector<std::vector<double>>>{{{1.0}, {2.0, 3.0}}, {}});
  check_error<strata::ShapeError>([&] { (void)strata::firsts(deep); }, "firsts",
                                  "does not have 1-D rows");
  check_error<strata::ShapeError>([&] { (void)strata::lasts(deep); }, "lasts", "1-D rows");
  check_error<strata::ShapeError>([&] { (void)strata::pad_none(deep, 3); }, "pad_none", "1-D rows");
  const Masked deep_masked(deep, JaggedTensor<bool>::full(deep.shape(), true));
  check_error<strata::ShapeError>([&] { (void)strata::drop_none(deep_masked); }, "drop_none",
                                  "1-D rows");
  // An axis beyond the depth is the reduction's own IndexError; nothing is computed.
  check_error<strata::IndexError>([&] { (void)strata::max(t, 2, strata::mask_identity); }, "max",
                                  "2");
  check_error<strata::IndexError>([&] { (void)strata::nanmean(t, -3, strata::mask_identity); },
                                  "nanmean", "-3");
  // Nothing changed in the source.
  CHECK(strata::test::rows_of(t) == Rows{{1.0, 2.0}, {}, {3.0}});
}

namespace {

using Lists = std::vector<std::vector<std::vector<double>>>;

/// The groups of a ListAxis reduction of rows of lists in the result's storage order, each as
/// the values it combines: along -1 every list; along -2 position k of the lists of each row;
/// along 0 position k of list j of every row.
std::vector<std::vector<double>> list_groups(const Lists& rows, index_t axis) {
  std::vector<std::vector<double>> groups;
  if (axis == -1) {
    for (const auto& row : rows) {
      groups.insert(groups.end(), row.begin(), row.end());
    }
    return groups;
  }
  if (axis == -2) {
    for (const auto& row : rows) {
      std::size_t width = 0;
      for (const auto& list : row) {
        width = std::max(width, list.size());
      }
      for (std::size_t k = 0; k < width; ++k) {
        groups.emplace_back();
        for (const auto& list : row) {
          if (k < list.size()) {
            groups.back().push_back(list[k]);
          }
        }
      }
    }
    return groups;
  }
  std::size_t lists = 0;
  for (const auto& row : rows) {
    lists = std::max(lists, row.size());
  }
  for (std::size_t j = 0; j < lists; ++j) {
    std::size_t width = 0;
    for (const auto& row : rows) {
      width = j < row.size() ? std::max(width, row[j].size()) : width;
    }
    for (std::size_t k = 0; k < width; ++k) {
      groups.emplace_back();
      for (const auto& row : rows) {
        if (j < row.size() && k < row[j].size()) {
          groups.back().push_back(row[j][k]);
        }
      }
    }
  }
  return groups;
}

}  // namespace

TEST_CASE("awkward's examples of missing values in rows of lists", "[missing][lists]") {
  // ak.max(lists, axis=-1, mask_identity=True), ak.firsts(lists, axis=-1) and friends on
  // [[[1, 2, 3], []], [[4, 5]], []].
  using strata::ListAxis;
  using O = std::optional<double>;
  const JaggedTensor<double> lists(Lists{{{1, 2, 3}, {}}, {{4, 5}}, {}});
  CHECK(entries(strata::max(lists, ListAxis{-1}, strata::mask_identity)) ==
        std::vector<std::vector<O>>{{3.0, std::nullopt}, {5.0}, {}});
  CHECK(strata::to_string(strata::sum(lists, ListAxis{-1}, strata::mask_identity)) ==
        "[[6, None], [9], []]");
  CHECK(entries(strata::argmin(lists, ListAxis{2}, strata::mask_identity)) ==
        std::vector<std::vector<std::optional<index_t>>>{{0, std::nullopt}, {0}, {}});
  // Across the lists of each row every position has a value (an empty list adds none).
  CHECK(entries(strata::sum(lists, ListAxis{-2}, strata::mask_identity)) ==
        std::vector<std::vector<O>>{{1.0, 2.0, 3.0}, {4.0, 5.0}, {}});
  CHECK(entries(strata::firsts(lists, ListAxis{-1})) ==
        std::vector<std::vector<O>>{{1.0, std::nullopt}, {4.0}, {}});
  CHECK(entries(strata::lasts(lists, ListAxis{2})) ==
        std::vector<std::vector<O>>{{3.0, std::nullopt}, {5.0}, {}});
  CHECK(strata::to_string(strata::fill_none(strata::firsts(lists, ListAxis{-1}), -1.0)) ==
        "[[1, -1], [4], []]");
  // NaN: none that is not NaN is missing for the nan-reductions, at every axis.
  const JaggedTensor<double> c(Lists{{{kNan}, {1.0, kNan}}, {{kNan, kNan}}});
  CHECK(entries(strata::nanmax(c, ListAxis{-1}, strata::mask_identity)) ==
        std::vector<std::vector<O>>{{std::nullopt, 1.0}, {std::nullopt}});
  CHECK(entries(strata::nanmax(c, ListAxis{-2}, strata::mask_identity)) ==
        std::vector<std::vector<O>>{{1.0, std::nullopt}, {std::nullopt, std::nullopt}});
  CHECK(entries(strata::nansum(c, ListAxis{0}, strata::mask_identity)) ==
        std::vector<std::vector<O>>{{std::nullopt, std::nullopt}, {1.0, std::nullopt}});
  // An integer mean is a double, missing for an empty list.
  const JaggedTensor<int> d(std::vector<std::vector<std::vector<int>>>{{{1, 2}, {}}});
  const auto dm = strata::mean(d, ListAxis{-1}, strata::mask_identity);
  static_assert(std::is_same_v<decltype(dm), const Masked<JaggedTensor<double>>>);
  CHECK(strata::to_string(dm) == "[[1.5, None]]");
  CHECK(strata::to_string(strata::var(d, ListAxis{-1}, strata::mask_identity, strata::Ddof{1})) ==
        "[[0.5, None]]");
}

TEST_CASE("mask_identity reductions and firsts of rows of lists against nested vectors",
          "[missing][lists]") {
  using strata::ListAxis;
  std::mt19937 rng(20261129);
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      for (int round = 0; round < 12; ++round) {
        // Rows of 0..3 lists of 0..3 values, one value in three NaN, some infinite.
        Lists rows(std::uniform_int_distribution<std::size_t>(0, 9)(rng));
        for (auto& row : rows) {
          row.resize(std::uniform_int_distribution<std::size_t>(0, 3)(rng));
          for (auto& list : row) {
            list.resize(std::uniform_int_distribution<std::size_t>(0, 3)(rng));
            for (double& x : list) {
              const int pick = std::uniform_int_distribution<int>(0, 8)(rng);
              x = pick < 3    ? kNan
                  : pick == 3 ? std::numeric_limits<double>::infinity()
                              : std::uniform_int_distribution<int>(-9, 9)(rng);
            }
          }
        }
        const JaggedTensor<double> t(rows);
        for (const index_t axis : {index_t{-1}, index_t{-2}, index_t{0}}) {
          INFO("threads " << threads << ", round " << round << ", axis " << axis << ", "
                          << t.shape().to_string());
          const std::vector<std::vector<double>> groups = list_groups(rows, axis);
          // Missing exactly where the group has no value (none but NaN when skipping NaN);
          // elsewhere the value the plain reduction gives, and zero under a missing one.
          const auto check = [&](const auto& m, const auto& plain, bool skip_nan) {
            REQUIRE(m.values().size() == static_cast<index_t>(groups.size()));
            CHECK(m.valid().shape() == m.values().shape());
            CHECK(m.values().shape() == plain.shape());
            for (std::size_t g = 0; g < groups.size(); ++g) {
              const bool has = std::any_of(groups[g].begin(), groups[g].end(),
                                           [&](double x) { return !skip_nan || !std::isnan(x); });
              CHECK(m.valid().data()[g] == has);
              if (has) {
                CHECK(identical(static_cast<double>(m.values().data()[g]),
                                static_cast<double>(plain.data()[g])));
              } else {
                CHECK(m.values().data()[g] == 0);
              }
            }
          };
          const ListAxis a{axis};
          const auto mi = strata::mask_identity;
          check(strata::sum(t, a, mi), strata::sum(t, a), false);
          check(strata::prod(t, a, mi), strata::prod(t, a), false);
          check(strata::mean(t, a, mi), strata::mean(t, a), false);
          check(strata::min(t, a, mi), strata::min(t, a), false);
          check(strata::max(t, a, mi), strata::max(t, a), false);
          check(strata::argmin(t, a, mi), strata::argmin(t, a), false);
          check(strata::argmax(t, a, mi), strata::argmax(t, a), false);
          check(strata::ptp(t, a, mi), strata::ptp(t, a), false);
          check(strata::var(t, a, mi), strata::var(t, a), false);
          check(strata::std(t, a, mi, strata::Ddof{1}), strata::std(t, a, strata::Ddof{1}), false);
          check(strata::nansum(t, a, mi), strata::nansum(t, a), true);
          check(strata::nanprod(t, a, mi), strata::nanprod(t, a), true);
          check(strata::nanmean(t, a, mi), strata::nanmean(t, a), true);
          check(strata::nanvar(t, a, mi), strata::nanvar(t, a), true);
          check(strata::nanstd(t, a, mi), strata::nanstd(t, a), true);
          check(strata::nanmin(t, a, mi), strata::nanmin(t, a), true);
          check(strata::nanmax(t, a, mi), strata::nanmax(t, a), true);
          check(strata::nanargmin(t, a, mi), strata::nanargmin(t, a), true);
          check(strata::nanargmax(t, a, mi), strata::nanargmax(t, a), true);
          // The sums and the largest values that are not NaN, from the groups themselves.
          const auto sums = strata::nansum(t, a, mi);
          const auto tops = strata::nanmax(t, a, mi);
          for (std::size_t g = 0; g < groups.size(); ++g) {
            double sum = 0.0;
            double top = -std::numeric_limits<double>::infinity();
            for (const double x : groups[g]) {
              sum += std::isnan(x) ? 0.0 : x;
              top = std::isnan(x) ? top : std::max(top, x);
            }
            if (sums.valid().data()[g]) {
              CHECK(identical(sums.values().data()[g], sum));
              CHECK(identical(tops.values().data()[g], top));
            }
          }
        }
        // firsts / lasts along -1: every list's first and last value, missing when empty.
        const auto first = strata::firsts(t, ListAxis{-1});
        const auto last = strata::lasts(t, ListAxis{2});
        const std::vector<std::vector<double>> lists = list_groups(rows, -1);
        REQUIRE(first.values().size() == static_cast<index_t>(lists.size()));
        REQUIRE(last.values().size() == static_cast<index_t>(lists.size()));
        CHECK(first.values().shape() == strata::num(t, ListAxis{-1}).shape());
        for (std::size_t l = 0; l < lists.size(); ++l) {
          CHECK(first.valid().data()[l] == !lists[l].empty());
          CHECK(last.valid().data()[l] == !lists[l].empty());
          if (!lists[l].empty()) {
            CHECK(identical(first.values().data()[l], lists[l].front()));
            CHECK(identical(last.values().data()[l], lists[l].back()));
          }
        }
      }
    });
  }
}

TEST_CASE("missing values at depth 3: the innermost lists", "[missing][lists]") {
  // n * var * var * var: along -1 one entry per innermost list, shaped n * var * var.
  using strata::ListAxis;
  const JaggedTensor<double> t(std::vector<Lists>{{{{1, 2}, {}}, {{3}}}, {}, {{{}, {4, 5, 6}}}});
  const auto first = strata::firsts(t, ListAxis{-1});
  CHECK(first.values().shape() == strata::num(t, ListAxis{3}).shape());
  CHECK(strata::to_string(first) == "[[[1, None], [3]], [], [[None, 4]]]");
  CHECK(strata::to_string(strata::lasts(t, ListAxis{3})) == "[[[2, None], [3]], [], [[None, 6]]]");
  CHECK(strata::to_string(strata::sum(t, ListAxis{-1}, strata::mask_identity)) ==
        "[[[3, None], [3]], [], [[None, 15]]]");
  // Merged across the lists of each list: every position has a value.
  CHECK(strata::to_string(strata::max(t, ListAxis{-2}, strata::mask_identity)) ==
        "[[[1, 2], [3]], [], [[4, 5, 6]]]");
}

TEST_CASE("firsts and lasts of rows of lists reject axes that would miss lists",
          "[missing][lists][errors]") {
  using strata::IndexError;
  using strata::ListAxis;
  using strata::ShapeError;
  using strata::test::check_error;
  const JaggedTensor<double> lists(Lists{{{1, 2, 3}, {}}, {{4, 5}}});
  const JaggedTensor<double> flat(Rows{{1.0}, {}});
  check_error<ShapeError>([&] { (void)strata::firsts(lists, ListAxis{1}); }, "firsts",
                          "ListAxis{1} (axis 1 of");
  check_error<ShapeError>([&] { (void)strata::lasts(lists, ListAxis{-2}); }, "lasts",
                          "would make a missing list of every empty one");
  check_error<IndexError>([&] { (void)strata::firsts(lists, ListAxis{3}); }, "firsts",
                          "ListAxis{3} does not exist");
  check_error<IndexError>([&] { (void)strata::firsts(lists, ListAxis{-4}); }, "firsts",
                          "ListAxis{-4} does not exist");
  check_error<ShapeError>([&] { (void)strata::firsts(flat, ListAxis{-1}); }, "firsts",
                          "takes a tensor of rows of lists");
  check_error<ShapeError>([&] { (void)strata::sum(flat, ListAxis{-1}, strata::mask_identity); },
                          "sum", "ListAxis{-1} takes a tensor of rows of lists");
}

}  // namespace test_select_missing
