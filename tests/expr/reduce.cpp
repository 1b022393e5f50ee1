// Tests of strata/expr/reduce.hpp: the reductions of tensors and expressions against a naive
// reference on random views, bit for bit across thread counts, NumPy's types and edge cases,
// and every bad input. (NumPy's values on random views: tests/expr/numpy_functions.cpp.)
#include "strata/expr/expr.hpp"
#include "strata/tensor/generators.hpp"

#include "check_error.hpp"
#include "layout/view_helpers.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

namespace test_expr_reduce {

using strata::Index;
using strata::index_t;
using strata::Tensor;
using strata::test::check_error;

namespace {

/// The naive reference: for every output (row-major over the kept axes), the inputs along
/// the reduced axes in row-major order, folded with @p op from @p init.
template <class Acc, class T, class Op>
std::vector<Acc> reference(const Tensor<T>& x, const std::vector<bool>& reduced, Acc init, Op op) {
  const Index shape = x.shape();
  const auto values = x.to_vector();
  Index kept;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    kept.push_back(reduced[k] ? 1 : shape[k]);
  }
  const index_t outputs = strata::checked_size(kept, "test");
  std::vector<Acc> out(static_cast<std::size_t>(outputs), init);
  Index g(shape.size(), 0);
  for (std::size_t i = 0; i < values.size(); ++i) {
    index_t o = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      o = o * kept[k] + (reduced[k] ? 0 : g[k]);
    }
    out[static_cast<std::size_t>(o)] = op(out[static_cast<std::size_t>(o)], values[i]);
    for (std::size_t k = g.size(); k-- > 0;) {
      if (++g[k] < shape[k]) {
        break;
      }
      g[k] = 0;
    }
  }
  return out;
}

/// A random subset of the axes of a rank-r tensor, some negative.
Index random_axes(std::mt19937_64& rng, int rank) {
  Index axes;
  for (int k = 0; k < rank; ++k) {
    if (strata::test::uniform(rng, 0, 1) == 1) {
      axes.push_back(strata::test::uniform(rng, 0, 1) == 1 ? k - rank : k);
    }
  }
  return axes;
}

std::vector<bool> marked(const Index& axes, int rank) {
  std::vector<bool> m(static_cast<std::size_t>(rank), false);
  for (const index_t a : axes) {
    m[static_cast<std::size_t>(a < 0 ? a + rank : a)] = true;
  }
  return m;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    const bool both_nan = a[i] != a[i] && b[i] != b[i];  // NOLINT(misc-redundant-expression)
    if (!(both_nan || a[i] == b[i])) {
      return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("reductions agree with a naive loop on random views, bit for bit at any thread count",
          "[expr][reduce][property]") {
  std::mt19937_64 rng(35);
  std::normal_distribution<double> normal(0.0, 10.0);
  int split = 0;
  for (int trial = 0; trial < 250; ++trial) {
    const strata::Dimensions d = strata::test::random_view(rng, 5);
    const auto addresses = strata::test::addresses(d);
    const index_t extent =
        addresses.empty() ? 1 : *std::max_element(addresses.begin(), addresses.end()) + 1;
    std::vector<double> values(static_cast<std::size_t>(extent));
    std::vector<std::int32_t> integers(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      values[i] = std::round(normal(rng) * 4.0) / 4.0;  // exact sums in any order
      integers[i] = static_cast<std::int32_t>(normal(rng));
    }
    if (trial % 5 == 0 && !values.empty()) {
      values[static_cast<std::size_t>(strata::test::uniform(rng, 0, extent - 1))] =
          std::numeric_limits<double>::quiet_NaN();
    }
    const Tensor<double> x(strata::AnyBuffer<double>(strata::DenseBuffer<double>(values)), d);
    const Tensor<std::int32_t> n(
        strata::AnyBuffer<std::int32_t>(strata::DenseBuffer<std::int32_t>(integers)), d);
    const Index axes = random_axes(rng, d.rank());
    const auto m = marked(axes, d.rank());
    INFO("trial " << trial << " view " << d << " axes " << strata::to_string(axes));

    // References, in the reduction's order of visiting.
    const auto ref_sum = reference<double>(x, m, 0.0, std::plus<>{});
    const auto ref_nsum =
        reference<std::int64_t>(n, m, 0, [](std::int64_t a, std::int32_t v) { return a + v; });
    const auto ref_max = reference<double>(x, m, -INFINITY, [](double a, double v) {
      return (a < v || std::isnan(v) || std::isnan(a)) ? (std::isnan(a) ? a : v) : a;
    });
    const auto ref_count = reference<std::int64_t>(
        x, m, 0, [](std::int64_t a, double v) { return a + (v != 0.0 ? 1 : 0); });
    const auto ref_nanmin = reference<double>(x, m, NAN, [](double a, double v) {
      return std::isnan(v) ? a : (std::isnan(a) || v < a ? v : a);
    });

    std::vector<std::vector<double>> sums;
    std::vector<std::vector<double>> means;
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        const strata::Parallel tiny{1};  // split whenever there are two elements
        const auto s = strata::sum(tiny, x, axes).to_vector();
        REQUIRE(s.size() == ref_sum.size());
        for (std::size_t i = 0; i < s.size(); ++i) {
          if (std::isnan(ref_sum[i])) {
            REQUIRE(std::isnan(s[i]));
          } else {
            REQUIRE(s[i] == ref_sum[i]);  // quarters: exact in any order
          }
        }
        sums.push_back(s);
        means.push_back(strata::mean(tiny, x * 0.1 + 1.0, axes).to_vector());
        const auto ns = strata::sum(tiny, n, axes);
        static_assert(std::is_same_v<decltype(ns)::value_type, std::int64_t>);
        REQUIRE(ns.to_vector() == ref_nsum);
        REQUIRE(same_bits(strata::max(tiny, x, axes).to_vector(), ref_max));
        REQUIRE(strata::count_nonzero(tiny, x, axes).to_vector() == ref_count);
        REQUIRE(same_bits(strata::nanmin(tiny, x, axes).to_vector(), ref_nanmin));
        const auto any = strata::any(tiny, n > 5, axes).to_vector();
        const auto ref_any =
            reference<bool>(n, m, false, [](bool a, std::int32_t v) { return a || v > 5; });
        REQUIRE(any == ref_any);
        // The same through seq, and through the expression path (one pass, no temporary).
        REQUIRE(same_bits(strata::sum(strata::seq, x + 0.0, axes).to_vector(), s));
      });
    }
    REQUIRE(same_bits(sums[0], sums[1]));
    REQUIRE(same_bits(sums[0], sums[2]));
    REQUIRE(same_bits(means[0], means[1]));
    REQUIRE(same_bits(means[0], means[2]));
    split += x.size() > 1 ? 1 : 0;
  }
  CHECK(split > 100);  // most trials had something to split
}

TEST_CASE("argmin, argmax and the scans agree with a naive loop on random views",
          "[expr][reduce][property]") {
  std::mt19937_64 rng(36);
  for (int trial = 0; trial < 200; ++trial) {
    const strata::Dimensions d = strata::test::random_view(rng, 5);
    const auto addresses = strata::test::addresses(d);
    const index_t extent =
        addresses.empty() ? 1 : *std::max_element(addresses.begin(), addresses.end()) + 1;
    std::vector<double> values(static_cast<std::size_t>(extent));
    for (auto& v : values) {
      v = static_cast<double>(strata::test::uniform(rng, -3, 3));  // many ties
    }
    const Tensor<double> x(strata::AnyBuffer<double>(strata::DenseBuffer<double>(values)), d);
    INFO("trial " << trial << " view " << d);
    const Index shape = x.shape();
    const auto flat = x.to_vector();
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        const strata::Parallel tiny{1};
        if (!flat.empty()) {
          const auto best = std::max_element(flat.begin(), flat.end());  // the first maximum
          REQUIRE(strata::argmax(tiny, x) == best - flat.begin());
          const auto low = std::min_element(flat.begin(), flat.end());
          REQUIRE(strata::argmin(tiny, x) == low - flat.begin());
        }
        // cumsum of the flattened operand
        std::vector<double> running(flat.size());
        std::partial_sum(flat.begin(), flat.end(), running.begin());
        REQUIRE(strata::cumsum(tiny, x).to_vector() == running);
        for (int axis = 0; axis < x.rank(); ++axis) {
          const auto k = static_cast<std::size_t>(axis);
          // Along the axis: move it last, then each line is a contiguous run of the copy.
          Index perm;
          for (int j = 0; j < x.rank(); ++j) {
            if (j != axis) {
              perm.push_back(j);
            }
          }
          perm.push_back(axis);
          const auto lines = x.transpose(perm).to_vector();
          const index_t n = shape[k];
          std::vector<double> scanned(lines.size());
          std::vector<index_t> arg;
          for (std::size_t start = 0; start < lines.size(); start += static_cast<std::size_t>(n)) {
            std::partial_sum(lines.begin() + static_cast<std::ptrdiff_t>(start),
                             lines.begin() + static_cast<std::ptrdiff_t>(start) + n,
                             scanned.begin() + static_cast<std::ptrdiff_t>(start));
            const auto first = lines.begin() + static_cast<std::ptrdiff_t>(start);
            arg.push_back(std::max_element(first, first + n) - first);
          }
          Index back(perm.size());
          for (std::size_t j = 0; j < perm.size(); ++j) {
            back[static_cast<std::size_t>(perm[j])] = static_cast<index_t>(j);
          }
          const Tensor<double> want =
              Tensor<double>::from_vector(scanned, x.transpose(perm).shape());
          REQUIRE(strata::cumsum(tiny, x, axis).to_vector() == want.transpose(back).to_vector());
          if (n > 0) {
            REQUIRE(strata::argmax(tiny, x, axis).to_vector() == arg);
          }
        }
      });
    }
  }
}

TEST_CASE("bool and narrow integers sum and multiply in 64 bits, as NumPy", "[expr][reduce]") {
  const Tensor<double> a = Tensor<double>::of({-1, 0, 1, 2, 3, 4});
  SECTION("a mask sums to a count") {
    const auto count = strata::sum(a > 0);
    static_assert(std::is_same_v<decltype(count), const std::int64_t>);
    CHECK(count == 4);
    const auto by_row = strata::sum(a.reshape({2, 3}) > 1, 1);
    CHECK(by_row.to_vector() == std::vector<std::int64_t>{0, 3});
    CHECK(strata::sum(Tensor<bool>::of({true, true, false})) == 2);
  }
  SECTION("int32 sums do not overflow; uint8 sums are unsigned 64-bit") {
    const Tensor<std::int32_t> big = Tensor<std::int32_t>::of({2'000'000'000, 2'000'000'000});
    CHECK(strata::sum(big) == 4'000'000'000);
    CHECK(strata::prod(big) == 4'000'000'000'000'000'000);
    const Tensor<std::uint8_t> bytes = Tensor<std::uint8_t>::of({200, 200});
    static_assert(std::is_same_v<decltype(strata::sum(bytes)), std::uint64_t>);
    CHECK(strata::sum(bytes) == 400);
  }
  SECTION("the accumulator type is chosen as NumPy's dtype=") {
    const Tensor<float> f = Tensor<float>::of({1e8F, 1.0F, -1e8F});
    static_assert(std::is_same_v<decltype(strata::sum<double>(f)), double>);
    CHECK(strata::sum<double>(f) == 1.0);
    CHECK(strata::sum<double>(f, 0).at({}) == 1.0);
    CHECK(strata::cumsum<double>(f).to_vector() == std::vector<double>{1e8, 1e8 + 1, 1.0});
  }
  SECTION("cumsum of bool counts") {
    CHECK(strata::cumsum(a > 0).to_vector() == std::vector<std::int64_t>{0, 0, 1, 2, 3, 4});
  }
}

TEST_CASE("min and max propagate NaN; the nan-reductions skip it", "[expr][reduce]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor<double> x = Tensor<double>::of({1, nan, 3, -2});
  CHECK(std::isnan(strata::min(x)));
  CHECK(std::isnan(strata::max(x)));
  CHECK(strata::nanmin(x) == -2);
  CHECK(strata::nanmax(x) == 3);
  CHECK(strata::nansum(x) == 2);
  CHECK(strata::nanmean(x) == Approx(2.0 / 3.0));
  CHECK(strata::argmax(x) == 1);  // the first NaN wins, as NumPy
  CHECK(strata::argmin(x) == 1);
  const Tensor<double> all_nan = Tensor<double>::of({nan, nan});
  CHECK(std::isnan(strata::nanmax(all_nan)));
  CHECK(std::isnan(strata::nanmean(all_nan)));
  CHECK(strata::any(x));  // NaN is non-zero
  CHECK(strata::count_nonzero(x) == 4);
}

TEST_CASE("var and std divide by the count less ddof, as NumPy", "[expr][reduce]") {
  const Tensor<double> x = Tensor<double>::of({1, 2, 3, 4});
  CHECK(strata::var(x) == Approx(1.25));
  CHECK(strata::var(x, strata::Ddof{1}) == Approx(5.0 / 3.0));
  CHECK(strata::std(x) == Approx(std::sqrt(1.25)));
  const Tensor<std::int32_t> i = Tensor<std::int32_t>::of({1, 2, 3, 4});
  static_assert(std::is_same_v<decltype(strata::var(i)), double>);
  const Tensor<float> f = Tensor<float>::of({1, 2});
  static_assert(std::is_same_v<decltype(strata::var(f)), float>);
  SECTION("ddof at or beyond the count: inf, or NaN where every deviation is 0 (NumPy's)") {
    CHECK(std::isinf(strata::var(Tensor<double>::of({1, 2}), strata::Ddof{2})));
    CHECK(std::isinf(strata::var(Tensor<double>::of({1, 2}), strata::Ddof{3})));
    CHECK(std::isnan(strata::var(Tensor<double>::of({1, 1}), strata::Ddof{2})));
  }
  SECTION("along axes, with keepdims") {
    const Tensor<double> m = Tensor<double>::of({1, 2, 3, 5, 7, 9}).reshape({2, 3});
    CHECK(strata::var(m, 1).to_vector() == std::vector<double>{2.0 / 3.0, 8.0 / 3.0});
    CHECK(strata::std(m, 0, strata::Ddof{1}, true).shape() == Index{1, 3});
  }
}

TEST_CASE("reductions take an execution policy and expressions", "[expr][reduce]") {
  const Tensor<double> x = Tensor<double>::of({1, 2, 3, 4, 5, 6}).reshape({2, 3});
  CHECK(strata::sum(strata::seq, x) == 21);
  CHECK(strata::sum(strata::par, x * 2, {0, 1}).at({}) == 42);
  CHECK(strata::all(x > 0));
  CHECK(strata::all(x > 1, 1).to_vector() == std::vector<bool>{false, true});
  CHECK_FALSE(strata::all(strata::seq, x > 1));
  CHECK(strata::max(x - 10, 0, true).shape() == Index{1, 3});
  CHECK(strata::mean(strata::concat<double>(0, {x, x}), 0).to_vector() ==
        std::vector<double>{2.5, 3.5, 4.5});
}

TEST_CASE("trace sums diagonals, as np.trace", "[expr][reduce]") {
  const Tensor<int> m = strata::iota<int>({4, 5}).copy();
  CHECK(strata::trace(m) == 0 + 6 + 12 + 18);
  static_assert(std::is_same_v<decltype(strata::trace(m)), std::int64_t>);  // as np.sum
  CHECK(strata::trace(m, 1) == 1 + 7 + 13 + 19);
  CHECK(strata::trace(m, -1) == 5 + 11 + 17);
  CHECK(strata::trace(m, 5) == 0);  // past the edge: an empty sum
  CHECK(strata::trace<double>(strata::seq, m, 2) == 2.0 + 8 + 14);
  // Random matrix views (negative strides, broadcasts, rolls, index arrays, size-0 and size-1
  // axes): the loop over (i, i + offset), and the axes form with the axes either way round.
  std::mt19937_64 rng(20261129);
  int matrices = 0;
  for (int round = 0; matrices < 300 && round < 20000; ++round) {
    const strata::Dimensions d = strata::test::random_view(rng, 4);
    if (d.rank() != 2) {
      continue;
    }
    ++matrices;
    const auto addresses = strata::test::addresses(d);
    const index_t extent =
        addresses.empty() ? 1 : *std::max_element(addresses.begin(), addresses.end()) + 1;
    std::vector<double> values(static_cast<std::size_t>(extent));
    std::iota(values.begin(), values.end(), 1.0);
    const Tensor<double> v(strata::AnyBuffer<double>(strata::DenseBuffer<double>(values)), d);
    const index_t offset = strata::test::uniform(rng, -4, 4);
    INFO("view " << d << " offset " << offset);
    double expected = 0;
    for (index_t i = 0; i < d.shape()[0]; ++i) {
      if (i + offset >= 0 && i + offset < d.shape()[1]) {
        expected += v(i, i + offset);
      }
    }
    CHECK(strata::trace(v, offset) == expected);
    CHECK(strata::trace(v, -offset, 1, 0).to_vector() == std::vector<double>{expected});
  }
  CHECK(matrices == 300);
  // Traces of a batch along any two axes: a tensor of the other axes.
  const Tensor<int> b = strata::iota<int>({2, 3, 3}).copy();
  CHECK(strata::trace(b, 0, 1, 2).to_vector() == std::vector<std::int64_t>{12, 39});
  CHECK(strata::trace(b, 0, 0, 2).to_vector() == std::vector<std::int64_t>{10, 16, 22});
  CHECK(strata::trace(b, 1, -2, -1).to_vector() == std::vector<std::int64_t>{1 + 5, 10 + 14});
  CHECK(strata::trace(m, 0, 0, 1).rank() == 0);
  CHECK(strata::trace(strata::seq, m, 0, 1, 0).to_vector() == std::vector<std::int64_t>{36});
  // Bad input names trace and the argument.
  check_error<strata::ShapeError>([&] { (void)strata::trace(b); }, "trace", "[2 3 3]");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::trace(Tensor<int>::of({1, 2}));
      },
      "trace", "[2]");
  check_error<strata::ShapeError>([&] { (void)strata::trace(b, 0, 1, -2); }, "trace",
                                  "axis1 1 and axis2 -2");
  check_error<strata::IndexError>([&] { (void)strata::trace(b, 0, 0, 3); }, "trace", "axis 3");
}

TEST_CASE("bad reduction axes are IndexErrors naming the axis", "[expr][reduce][errors]") {
  const Tensor<double> x({2, 3});
  check_error<strata::IndexError>([&] { (void)strata::sum(x, 2); }, "sum", "axis 2");
  check_error<strata::IndexError>(
      [&] {
        (void)strata::mean(x, {0, -2});
      },
      "mean", "name axis 0 twice");
  check_error<strata::IndexError>([&] { (void)strata::var(x, -3); }, "var", "axis -3");
  check_error<strata::IndexError>([&] { (void)strata::any(x, {1, 1}); }, "any", "twice");
  check_error<strata::IndexError>([&] { (void)strata::all(x, 5); }, "all", "axis 5");
  check_error<strata::IndexError>([&] { (void)strata::count_nonzero(x, 9); }, "count_nonzero",
                                  "axis 9");
  check_error<strata::IndexError>([&] { (void)strata::nanmax(x, 3); }, "nanmax", "axis 3");
  check_error<strata::IndexError>([&] { (void)strata::argmax(x, 2); }, "argmax", "axis 2");
  check_error<strata::IndexError>([&] { (void)strata::cumsum(x, -3); }, "cumsum", "axis -3");
  SECTION("no extreme of nothing") {
    const Tensor<double> empty({0, 3});
    check_error<strata::ShapeError>([&] { (void)strata::max(empty); }, "max", "[0 3]");
    check_error<strata::ShapeError>([&] { (void)strata::argmin(empty); }, "argmin", "[0 3]");
    check_error<strata::ShapeError>([&] { (void)strata::argmax(empty, 0); }, "argmax",
                                    "axis 0 has extent 0");
    CHECK(strata::argmax(empty, 1).shape() == Index{0});  // nothing to find: no error
    CHECK(strata::sum(empty) == 0.0);
    CHECK(std::isnan(strata::mean(empty)));
  }
}

}  // namespace test_expr_reduce
