// Tests for strata/expr/: operators build lazy trees; assignment evaluates them in one pass
// with NumPy's broadcasting and overlap rules; reductions and comparisons take expressions;
// bad input is rejected before anything is written.
#include "check_error.hpp"
#include "strata/expr/expr.hpp"

#include "layout/view_helpers.hpp"
#include "strata/select/concat.hpp"
#include "strata/select/pad.hpp"
#include "strata/tensor/generators.hpp"
#include "strata/tensor/sparse.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>

namespace test_expr_expression {

using strata::all;
using strata::Index;
using strata::index_t;
using strata::Range;
using strata::Tensor;
using strata::test::check_error;
using D = std::vector<double>;

TEST_CASE("operators build lazy trees and assignment evaluates them", "[expr]") {
  Tensor<double> a{{1, 2, 3}, {4, 5, 6}};
  const auto b = Tensor<double>::of({10, 20, 30});
  const auto e = 2.0 * a + b;  // nothing computed yet
  a(0, 0) = 100;               // ... so the expression sees this
  const Tensor<double> c = e;
  CHECK(c.to_vector() == D{210, 24, 36, 18, 30, 42});
  CHECK(strata::explain(e).find("operator+ -> [2 3]") == 0);
  std::ostringstream printed;
  printed << a - 1;
  CHECK(printed.str() == "[[99.  1.  2.]\n [ 3.  4.  5.]]");
  // Writes through views, broadcasting: NumPy's a[:, 1:] = a[:, 1:] * 10 + b[1:].
  a.select({all, Range{1}}) = a.select({all, Range{1}}) * 10 + b.select({Range{1}});
  CHECK(a.to_vector() == D{100, 40, 60, 4, 70, 90});
  Tensor<double> named = a.select({0});
  named = named + 1;  // an expression assigned to a named view writes through it
  CHECK(a.to_vector() == D{101, 41, 61, 4, 70, 90});
  a += 1;
  a.select({1}) *= 2;
  a /= 2;
  a -= b;
  CHECK(a.to_vector() == D{41, 1, 1, -5, 51, 61});
}

TEST_CASE("element types follow C++'s arithmetic; scalars do not widen", "[expr]") {
  const Tensor<float> f = Tensor<float>::of({1, 2});
  const Tensor<int> i = Tensor<int>::of({3, 4});
  static_assert(std::is_same_v<decltype(0.25 * f)::value_type, float>);
  static_assert(std::is_same_v<decltype(f + i)::value_type, float>);
  static_assert(std::is_same_v<decltype(i * 2)::value_type, int>);
  static_assert(std::is_same_v<decltype(i * 0.5)::value_type, double>);
  static_assert(std::is_same_v<decltype(f + Tensor<double>::of({1}))::value_type, double>);
  static_assert(std::is_same_v<decltype(f < i)::value_type, bool>);
  static_assert(std::is_same_v<decltype(strata::sqrt(i))::value_type, double>);
  const Tensor<bool> mask = f > 1.5;
  CHECK(mask.to_vector() == std::vector<bool>{false, true});
  CHECK(strata::evaluate(strata::where(mask, f, -f)).to_vector() == std::vector<float>{-1, 2});
  // astype converts as static_cast does (truncation toward zero), lazily.
  const auto d = Tensor<double>::of({-2.7, 0.5, 3.9});
  static_assert(std::is_same_v<decltype(strata::astype<int>(d))::value_type, int>);
  CHECK(strata::evaluate(strata::astype<int>(d * 2)).to_vector() == std::vector<int>{-5, 1, 7});
  CHECK(strata::evaluate(strata::astype<float>(i) / 8).to_vector() ==
        std::vector<float>{0.375F, 0.5F});
}

TEST_CASE("the type rule is one rule: bool counts, clip and minimum promote, as NumPy", "[expr]") {
  // The answers are NumPy 1.24's, written down by hand.
  const auto a = Tensor<double>::of({-2, -1, 0, 1, 2, 3});
  SECTION("a bool tensor with an integer scalar is an integer: (a > 0) + 1 counts") {
    static_assert(std::is_same_v<decltype((a > 0) + 1)::value_type, int>);
    CHECK(strata::evaluate((a > 0) + 1).to_vector() == std::vector<int>{1, 1, 1, 2, 2, 2});
    static_assert(std::is_same_v<decltype((a > 0) * 0.5)::value_type, double>);
    CHECK(strata::evaluate((a > 0) * 0.5).to_vector() == D{0, 0, 0, 0.5, 0.5, 0.5});
    static_assert(std::is_same_v<decltype((a > 0) + (a < 2))::value_type, bool>);  // or
  }
  SECTION("clip combines the three types; lo > hi gives hi") {
    const auto i = Tensor<std::int32_t>::of({0, 1, 2, 3});
    const auto c = strata::clip(i, 0.5, 2.5);
    static_assert(std::is_same_v<decltype(c)::value_type, double>);
    CHECK(strata::evaluate(c).to_vector() == D{0.5, 1, 2, 2.5});
    const auto f = Tensor<float>::of({0, 5});
    static_assert(
        std::is_same_v<decltype(strata::clip(f, Tensor<double>::of({1, 1}), 2))::value_type,
                       double>);
    static_assert(std::is_same_v<decltype(strata::clip(i, -1, 2))::value_type, std::int32_t>);
    CHECK(strata::evaluate(strata::clip(a, 2, -1)).to_vector() == D{-1, -1, -1, -1, -1, -1});
    CHECK(strata::evaluate(strata::clip(i, 3, 1)).to_vector() ==
          std::vector<std::int32_t>{1, 1, 1, 1});
    CHECK(std::isnan(strata::evaluate(strata::clip(Tensor<double>::of({NAN}), 0, 1)).at({0})));
  }
  SECTION("floor and ceil of integers are double; abs and pow keep integers (NumPy 1.24)") {
    const auto i = Tensor<std::int64_t>::of({-3, 4});
    static_assert(std::is_same_v<decltype(strata::floor(i))::value_type, double>);
    static_assert(std::is_same_v<decltype(strata::ceil(i))::value_type, double>);
    static_assert(std::is_same_v<decltype(strata::trunc(i))::value_type, double>);
    static_assert(std::is_same_v<decltype(strata::round(i))::value_type, std::int64_t>);
    static_assert(std::is_same_v<decltype(strata::abs(i))::value_type, std::int64_t>);
    static_assert(std::is_same_v<decltype(strata::pow(i, 2))::value_type, std::int64_t>);
    CHECK(strata::evaluate(strata::floor(i)).to_vector() == D{-3, 4});
  }
  SECTION("minimum, maximum and where promote tensors of different types") {
    const auto f = Tensor<float>::of({1, 5, 3});
    const auto d = Tensor<double>::of({2, 2, 2});
    static_assert(std::is_same_v<decltype(strata::minimum(f, d))::value_type, double>);
    CHECK(strata::evaluate(strata::minimum(f, d)).to_vector() == D{1, 2, 2});
    CHECK(strata::evaluate(strata::maximum(f, d)).to_vector() == D{2, 5, 3});
    CHECK(strata::evaluate(strata::where(f > 2, f, d)).to_vector() == D{2, 5, 3});
  }
  SECTION("every function on the right of = assigns into a view and broadcasts") {
    const auto x = Tensor<double>::of({1, 5, 3});
    const auto y = Tensor<double>::of({2, 2, 2});
    Tensor<double> m({2, 3});
    m = strata::minimum(x, y);  // a lazy selection of two same-typed tensors
    CHECK(m.to_vector() == D{1, 2, 2, 1, 2, 2});
    m.select({1}) = strata::maximum(x, y);
    CHECK(m.to_vector() == D{1, 2, 2, 2, 5, 3});
    m = strata::where(x > 2, x, y);
    CHECK(m.to_vector() == D{2, 5, 3, 2, 5, 3});
    m = strata::concat<double>(0, {x.select({Range{0, 1}}), y.select({Range{0, 2}})});
    CHECK(m.to_vector() == D{1, 2, 2, 1, 2, 2});
    Tensor<float> narrow({3});
    narrow = strata::minimum(x, y);  // converted, as an expression assignment
    CHECK(narrow.to_vector() == std::vector<float>{1, 2, 2});
    strata::minimum(x, y).assign_to(m.select({0}));  // assign_to broadcasts too
    strata::maximum(x, y).assign_to(m);
    CHECK(m.to_vector() == D{2, 5, 3, 2, 5, 3});
  }
  SECTION("mask operators") {
    const Tensor<bool> p = a > 0;
    const auto q = a < 3;
    CHECK(strata::evaluate(p & q).to_vector() ==
          std::vector<bool>{false, false, false, true, true, false});
    CHECK(strata::evaluate(p | (a < -1)).to_vector() ==
          std::vector<bool>{true, false, false, true, true, true});
    CHECK(strata::evaluate(p ^ q).to_vector() ==
          std::vector<bool>{true, true, true, false, false, true});
    CHECK(strata::evaluate(~p).to_vector() ==
          std::vector<bool>{true, true, true, false, false, false});
    CHECK(strata::sum(~p & q) == 3);
  }
}

TEST_CASE("integer division and remainder are defined everywhere", "[expr]") {
  const auto i = Tensor<int>::of({7, -7, std::numeric_limits<int>::min(), 5});
  CHECK(strata::evaluate(i / 0).to_vector() == std::vector<int>{0, 0, 0, 0});
  CHECK(strata::evaluate(i % 0).to_vector() == std::vector<int>{0, 0, 0, 0});
  CHECK(strata::evaluate(i / -1).to_vector() ==
        std::vector<int>{-7, 7, std::numeric_limits<int>::min(), -5});
  CHECK(strata::evaluate(i / 2).to_vector() ==
        std::vector<int>{3, -3, std::numeric_limits<int>::min() / 2, 2});        // truncating
  CHECK(strata::evaluate(i % 3).to_vector() == std::vector<int>{1, -1, -2, 2});  // C++'s sign
  CHECK(strata::evaluate(strata::pow(i, 2)).to_vector() == std::vector<int>{49, 49, 0, 25});
  auto r = Tensor<int>::of({7, -7, 9, 5});
  r %= Tensor<int>::of({4, 4, 0, -3});
  CHECK(r.to_vector() == std::vector<int>{3, -3, 0, 2});
  r.select({Range{0, 2}}) %= 2;
  CHECK(r.to_vector() == std::vector<int>{1, -1, 0, 2});
}

TEST_CASE("overlapping sources are read before the destination is written", "[expr]") {
  auto u = Tensor<int>::of({1, 2, 3, 4, 5});
  u.select({Range{1}}) = u.select({Range{0, 4}}) + 0;  // NumPy u[1:] = u[:-1] + 0
  CHECK(u.to_vector() == std::vector<int>{1, 1, 2, 3, 4});
  auto v = Tensor<int>::of({1, 2, 3, 4});
  v = v.reverse() * 10 + v;  // a flipped view of itself: copied first
  CHECK(v.to_vector() == std::vector<int>{41, 32, 23, 14});
  Tensor<int> w{{1, 2}, {3, 4}};
  w = w.transpose() - w;
  CHECK(w.to_vector() == std::vector<int>{0, 1, -1, 0});
}

TEST_CASE("reductions take expressions and reduce all axes to a value", "[expr]") {
  const Tensor<double> a{{1, 2}, {3, 4}};
  const Tensor<double> b{{1, 1}, {1, 1}};
  const double total = strata::sum(a * b);
  CHECK(total == 10.0);
  CHECK(strata::sum(a) == 10.0);
  CHECK(strata::sum(a, 0).to_vector() == D{4, 6});
  CHECK(strata::sum(a, -1, true).shape() == Index{2, 1});
  CHECK(strata::max(strata::abs(a - 5), {0}).to_vector() == D{4, 3});
  CHECK(strata::min(a - b) == 0.0);
  CHECK(strata::mean(a) == 2.5);
  CHECK(strata::mean(Tensor<int>::of({1, 2})) == 1.5);
  CHECK(strata::prod(a + 0) == 24.0);
  // One axis, for every reduction; means along axes as np.mean(axis=...).
  CHECK(strata::prod(a + 0, 1).to_vector() == D{2, 12});
  CHECK(strata::min(a * -1, 0).to_vector() == D{-3, -4});
  CHECK(strata::mean(a, 0).to_vector() == D{2, 3});
  CHECK(strata::mean(a * 2, -1, true).shape() == Index{2, 1});
  CHECK(strata::mean(a * 2, -1, true).to_vector() == D{3, 7});
  CHECK(strata::mean(Tensor<int>{{1, 2}, {4, 4}}, {0, 1}).to_vector() == D{2.75});
  CHECK(strata::mean(Tensor<int>{{1, 2}, {3, 6}}.transpose(), 1).to_vector() == D{2, 4});
  CHECK(std::isnan(strata::mean(Tensor<double>({0, 2}), 0)(1)));  // 0 / 0, as NumPy
  check_error<strata::IndexError>([&] { (void)strata::mean(a, 2); }, "mean", "axis 2");
  CHECK(strata::allclose(a * 1.0000001, a));
  CHECK_FALSE(strata::allclose(a + 1, a));
  CHECK(strata::array_equal(a + 0, a));
  CHECK_FALSE(strata::array_equal(a, a.transpose()));
  check_error<strata::ShapeError>([] { (void)strata::max(Tensor<double>({0})); }, "max", "empty");
}

TEST_CASE("selections, generators, sparse and user buffers take part in expressions", "[expr]") {
  const auto a = strata::iota<double>({2, 3});
  const auto padded = strata::pad(a.copy(), {{0, 0}, {1, 0}}, strata::PadMode::edge);  // 2x4
  Tensor<double> out({2, 4});
  out = padded * 2 + 1;
  CHECK(out.to_vector() == D{1, 1, 3, 5, 7, 7, 9, 11});
  auto sparse = strata::sparse<double>({2, 3});
  sparse = a * a;  // a destination without an array: evaluated through a temporary
  CHECK(sparse.at({1, 2}) == 25.0);
  CHECK(strata::evaluate(sparse + a).to_vector() == D{0, 2, 6, 12, 20, 30});
  // Selections reduce, evaluate, map and zip like expressions.
  const auto cat = strata::concat<double>(0, {a.copy(), a.copy()});  // 4x3: 0..5, 0..5
  const double total = strata::sum(cat);
  CHECK(total == 30.0);
  CHECK(strata::sum(cat, 0).to_vector() == D{6, 10, 14});
  CHECK(strata::max(cat, {1}, true).to_vector() == D{2, 5, 2, 5});
  CHECK(strata::mean(cat) == 2.5);
  CHECK(strata::evaluate(cat).shape() == Index{4, 3});
  CHECK(strata::evaluate<int>(cat).to_vector() ==
        std::vector<int>{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5});
  const Tensor<double> squares = strata::map(cat, [](double x) { return x * x; });
  CHECK(squares(3, 2) == 25.0);
  const Tensor<double> zipped = strata::zip_with(cat, a.select({0}), std::plus<>{});
  CHECK(zipped(1, 2) == 7.0);
  CHECK(strata::array_equal(cat, strata::evaluate(cat)));
  CHECK(strata::allclose(cat * 1.0, cat));
}

TEST_CASE("bad expressions are rejected and write nothing", "[expr][errors]") {
  Tensor<double> a{{1, 2, 3}, {4, 5, 6}};
  const auto before = a.to_vector();
  check_error<strata::BroadcastError>(
      [&] {
        (void)(a + Tensor<double>::of({1, 2}));
      },
      "operator+", "[2 3]");
  check_error<strata::BroadcastError>(
      [&] {
        (void)(a * Tensor<double>({4, 1}));
      },
      "operator*", "[4 1]");
  check_error<strata::BroadcastError>([&] { a.select({0}) = a + 1; }, "operator=", "[2 3]");
  check_error<strata::LayoutError>(
      [&] {
        a.select({0}).broadcast({2, 3}) = a + 1;
      },
      "operator=", "cannot be written");
  auto generated = strata::iota<double>({2, 3});
  check_error<strata::LayoutError>([&] { generated = a + 1; }, "operator=", "cannot be written");
  check_error<strata::LayoutError>(
      [&] {
        a.select({std::vector<index_t>{0, 0}}) = a + 1;
      },
      "operator=", "cannot be written");
  CHECK(a.to_vector() == before);
}

TEST_CASE("the unit-stride and strided evaluation paths agree with element-wise reads",
          "[expr][property]") {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 300; ++trial) {
    const strata::Dimensions d = strata::test::random_view(rng, 4);
    const auto addresses = strata::test::addresses(d);
    const index_t extent =
        addresses.empty() ? 1 : *std::max_element(addresses.begin(), addresses.end()) + 1;
    std::vector<double> values(static_cast<std::size_t>(extent));
    std::iota(values.begin(), values.end(), 1.0);
    const Tensor<double> x(strata::AnyBuffer<double>(strata::DenseBuffer<double>(values)), d);
    const Tensor<double> y = x.copy();  // contiguous: the unit path when x's map is too
    const Tensor<double> r = strata::evaluate(x * 2.0 + y / (x + 1.0));
    const auto xs = x.to_vector();
    const auto rs = r.to_vector();
    REQUIRE(rs.size() == xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      REQUIRE(rs[i] == Approx(xs[i] * 2.0 + xs[i] / (xs[i] + 1.0)));
    }
    if (!d.aliases() && d.size() > 0) {
      Tensor<double> target(strata::AnyBuffer<double>(strata::DenseBuffer<double>(values)), d);
      target = target * 3.0;  // in place through the same map: no copy
      const auto ts = target.to_vector();
      for (std::size_t i = 0; i < xs.size(); ++i) {
        REQUIRE(ts[i] == xs[i] * 3.0);
      }
    }
  }
}

}  // namespace test_expr_expression
