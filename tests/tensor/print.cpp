// Tests for strata/tensor/print.hpp: NumPy's printed forms.
#include "strata/tensor/print.hpp"

#include "strata/tensor/generators.hpp"

#include <catch2/catch.hpp>

namespace test_tensor_print {

using strata::Tensor;
using strata::to_string;

TEST_CASE("tensors print as NumPy prints them", "[tensor]") {
  CHECK(to_string(Tensor<int>{{0, 1}, {2, 3}}) == "[[0 1]\n [2 3]]");
  CHECK(to_string(Tensor<int>::of({1, -20, 300})) == "[  1 -20 300]");
  CHECK(to_string(Tensor<double>::of({0.5, 1, 2})) == "[0.5 1.  2. ]");
  CHECK(to_string(Tensor<double>::of({1e-5, 1})) == "[1.e-05 1.e+00]");
  CHECK(to_string(Tensor<float>{{0, 1, 2}, {3, 4, 5}}) == "[[0. 1. 2.]\n [3. 4. 5.]]");
  CHECK(to_string(Tensor<int>{{{0, 1}, {2, 3}}, {{4, 5}, {6, 7}}}) ==
        "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]");
  CHECK(to_string(Tensor<int>()) == "0");
  CHECK(to_string(Tensor<int>(strata::Index{0})) == "[]");
  SECTION("large tensors are elided like NumPy's summary") {
    CHECK(to_string(strata::iota<int>({2000})) == "[   0    1    2 ... 1997 1998 1999]");
    CHECK(to_string(strata::iota<int>({40, 40}).select({strata::Range{0, 30}})) ==
          "[[   0    1    2 ...   37   38   39]\n"
          " [  40   41   42 ...   77   78   79]\n"
          " [  80   81   82 ...  117  118  119]\n"
          " ...\n"
          " [1080 1081 1082 ... 1117 1118 1119]\n"
          " [1120 1121 1122 ... 1157 1158 1159]\n"
          " [1160 1161 1162 ... 1197 1198 1199]]");
  }
}

TEST_CASE("printing switches to scientific notation where NumPy does", "[tensor][print]") {
  // np.array([1, 2000.]) prints [1.e+00 2.e+03]: the magnitudes differ by more than 1000.
  CHECK(to_string(Tensor<double>::of({1, 2000})) == "[1.e+00 2.e+03]");
  CHECK(to_string(Tensor<double>::of({1, 1000})) == "[   1. 1000.]");
  CHECK(to_string(Tensor<double>::of({1.5, 2000})) == "[1.5e+00 2.0e+03]");
  CHECK(to_string(Tensor<double>::of({1e8, 1})) == "[1.e+08 1.e+00]");
  CHECK(to_string(Tensor<double>::of({1.5, 2000, 1e-100})) == "[1.5e+000 2.0e+003 1.0e-100]");
  CHECK(to_string(Tensor<double>::of({0.00001, 0})) == "[1.e-05 0.e+00]");
}

TEST_CASE("any precision NumPy accepts prints as NumPy prints", "[tensor][print]") {
  // np.set_printoptions(precision=p); the answers are NumPy 1.24's.
  for (const int precision : {8, 17, 58, 59, 60, 61, 100, 400}) {
    INFO("precision " << precision);
    const strata::PrintOptions options{1000, 3, precision};
    CHECK(to_string(Tensor<double>::of({1e15, 0.5}), options) == "[1.e+15 5.e-01]");
    CHECK(to_string(Tensor<double>::of({0.1, 0.25}), options) == "[0.1  0.25]");
    CHECK(to_string(Tensor<double>::of({1e-300, 1e300, 3.0}), options) ==
          "[1.e-300 1.e+300 3.e+000]");
  }
  const strata::PrintOptions sixty{1000, 3, 60};
  CHECK(to_string(Tensor<double>::of({1e15, 0.123456789012345678}), sixty) ==
        "[1.0000000000000000e+15 1.2345678901234568e-01]");
  const strata::PrintOptions three{1000, 3, 3};
  CHECK(to_string(Tensor<double>::of({1e15, 0.123456789012345678}), three) ==
        "[1.000e+15 1.235e-01]");
}

}  // namespace test_tensor_print
