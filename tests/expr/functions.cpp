// Tests of strata/expr/functions.hpp: integer arithmetic as NumPy defines it at its edges
// (division by zero, the most negative value), rounding halves to even, NaN and infinity
// tests, and the result types. (NumPy's values on random views: tests/expr/numpy_functions.cpp.)
#include "strata/expr/expr.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace test_expr_functions {

using strata::Tensor;
using D = std::vector<double>;
using I64 = std::int64_t;

TEST_CASE("floor_divide, mod and fmod follow NumPy, zero divisors included", "[expr]") {
  // NumPy 1.24: np.floor_divide([-7, 7, -7, min], [2, -2, 0, -1]) == [-4, -4, 0, min]
  const I64 low = std::numeric_limits<I64>::min();
  const auto a = Tensor<I64>::of({-7, 7, -7, low});
  const auto b = Tensor<I64>::of({2, -2, 0, -1});
  CHECK(strata::evaluate(strata::floor_divide(a, b)).to_vector() ==
        std::vector<I64>{-4, -4, 0, low});
  // np.mod([-7, 7, -7, min], [2, -2, 0, -1]) == [1, -1, 0, 0]; np.fmod gives [-1, 1, 0, 0]
  CHECK(strata::evaluate(strata::mod(a, b)).to_vector() == std::vector<I64>{1, -1, 0, 0});
  CHECK(strata::evaluate(strata::fmod(a, b)).to_vector() == std::vector<I64>{-1, 1, 0, 0});
  CHECK(strata::evaluate(a % b).to_vector() == std::vector<I64>{-1, 1, 0, 0});
  SECTION("floats: NumPy's divmod") {
    const auto x = Tensor<double>::of({-7.0, 7.0, -7.0, 7.5});
    const auto y = Tensor<double>::of({2.0, -2.0, 0.0, 2.0});
    const auto fd = strata::evaluate(strata::floor_divide(x, y)).to_vector();
    CHECK(fd[0] == -4.0);
    CHECK(fd[1] == -4.0);
    CHECK(fd[2] == -INFINITY);  // np.floor_divide(-7.0, 0.0)
    CHECK(fd[3] == 3.0);
    const auto m = strata::evaluate(strata::mod(x, y)).to_vector();
    CHECK(m[0] == 1.0);
    CHECK(m[1] == -1.0);
    CHECK(std::isnan(m[2]));
    CHECK(m[3] == 1.5);
    CHECK(std::isnan(strata::evaluate(strata::fmod(x, y)).to_vector()[2]));
  }
  SECTION("true_divide gives floats") {
    const auto i = Tensor<std::int32_t>::of({1, 2});
    static_assert(std::is_same_v<decltype(strata::true_divide(
                                     i, Tensor<std::int32_t>::of({0, 4})))::value_type,
                                 double>);
    const auto q = strata::evaluate(strata::true_divide(i, Tensor<std::int32_t>::of({0, 4})));
    CHECK(std::isinf(q.at({0})));
    CHECK(q.at({1}) == 0.5);
    static_assert(
        std::is_same_v<decltype(strata::true_divide(Tensor<float>::of({1}), 2))::value_type,
                       float>);
  }
}

TEST_CASE("power takes tensor exponents and wraps integers as NumPy", "[expr]") {
  const auto base = Tensor<I64>::of({2, -3, 1, -1, 0, 5});
  const auto exponent = Tensor<I64>::of({10, 3, -4, -3, 0, -1});
  // NumPy refuses negative integer exponents; strata gives 0, or +-1 for bases +-1.
  CHECK(strata::evaluate(strata::power(base, exponent)).to_vector() ==
        std::vector<I64>{1024, -27, 1, -1, 1, 0});
  const auto big = Tensor<std::uint16_t>::of({300});
  CHECK(strata::evaluate(strata::pow(big, 3)).to_vector() ==
        std::vector<std::uint16_t>{static_cast<std::uint16_t>(27'000'000U % 65536U)});
  CHECK(
      strata::evaluate(strata::pow(Tensor<double>::of({4.0, 2.0}), Tensor<double>::of({0.5, -1.0})))
          .to_vector() == D{2.0, 0.5});
}

TEST_CASE("rounding, signs and NaN tests follow NumPy", "[expr]") {
  const auto x = Tensor<double>::of({2.5, -0.5, 3.5, -2.7, NAN, INFINITY});
  const auto r = strata::evaluate(strata::round(x)).to_vector();
  CHECK(r[0] == 2.0);  // halves to even, as np.round; std::round would give 3
  CHECK(r[1] == 0.0);
  CHECK(std::signbit(r[1]));
  CHECK(r[2] == 4.0);
  CHECK(r[3] == -3.0);
  CHECK(strata::evaluate(strata::trunc(x)).to_vector()[3] == -2.0);
  const auto s = strata::evaluate(strata::sign(x)).to_vector();
  CHECK(s[0] == 1.0);
  CHECK(s[1] == -1.0);
  CHECK(std::isnan(s[4]));
  CHECK(strata::evaluate(strata::isnan(x)).to_vector() ==
        std::vector<bool>{false, false, false, false, true, false});
  CHECK(strata::evaluate(strata::isinf(x)).to_vector() ==
        std::vector<bool>{false, false, false, false, false, true});
  CHECK(strata::evaluate(strata::isfinite(x)).to_vector() ==
        std::vector<bool>{true, true, true, true, false, false});
  const auto cleaned = strata::evaluate(strata::nan_to_num(x, -1.0, 9.0)).to_vector();
  CHECK(cleaned[4] == -1.0);
  CHECK(cleaned[5] == 9.0);
  SECTION("integers") {
    const I64 low = std::numeric_limits<I64>::min();
    const auto i = Tensor<I64>::of({-3, 0, 4, low});
    CHECK(strata::evaluate(strata::sign(i)).to_vector() == std::vector<I64>{-1, 0, 1, -1});
    CHECK(strata::evaluate(strata::abs(i)).to_vector() == std::vector<I64>{3, 0, 4, low});
    CHECK(strata::evaluate(-i).to_vector() == std::vector<I64>{3, 0, -4, low});  // wraps
    CHECK(strata::evaluate(strata::square(Tensor<std::int16_t>::of({300}))).to_vector() ==
          std::vector<std::int16_t>{static_cast<std::int16_t>(90000 - 65536)});
    CHECK(strata::evaluate(strata::isfinite(i)).to_vector() ==
          std::vector<bool>{true, true, true, true});
  }
}

TEST_CASE("math functions compute integers in double and keep float32", "[expr]") {
  const auto i = Tensor<std::int32_t>::of({1, 4});
  const auto f = Tensor<float>::of({1, 4});
  static_assert(std::is_same_v<decltype(strata::log1p(i))::value_type, double>);
  static_assert(std::is_same_v<decltype(strata::log1p(f))::value_type, float>);
  static_assert(std::is_same_v<decltype(strata::arctan2(f, i))::value_type, float>);
  static_assert(std::is_same_v<decltype(strata::hypot(i, i))::value_type, double>);
  CHECK(strata::evaluate(strata::hypot(Tensor<double>::of({3}), 4.0)).to_vector() == D{5});
  CHECK(strata::evaluate(strata::arctan2(1.0, Tensor<double>::of({1.0}))).to_vector()[0] ==
        Approx(M_PI / 4));
  CHECK(strata::evaluate(strata::log2(i)).to_vector() == D{0, 2});
  CHECK(strata::evaluate(strata::log10(Tensor<double>::of({1000}))).to_vector() == D{3});
  CHECK(std::isnan(strata::evaluate(strata::arcsin(Tensor<double>::of({2}))).to_vector()[0]));
}

TEST_CASE("functions fuse with their neighbours into one expression", "[expr]") {
  Tensor<double> u = Tensor<double>::of({1, NAN, 3, INFINITY});
  Tensor<double> v({4});
  v = strata::where(strata::isfinite(u), u, 0.0) * 2 +
      strata::square(strata::sign(strata::nan_to_num(u)));
  CHECK(v.to_vector() == D{3, 0, 7, 1});
  CHECK(strata::explain(strata::where(strata::isfinite(u), u, 0.0)).find("isfinite") !=
        std::string::npos);
}

}  // namespace test_expr_functions
