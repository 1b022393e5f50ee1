// Replays a file of NumPy's contractions (tests/data/einsum_cases.txt, products_cases.txt):
// each case's operands (float64, int64 or complex128, with their view steps) are handed to a
// runner with the case line's text after "case ", and the result's element type, shape and
// values checked. complex128 values are written as pairs: real part, imaginary part.
#pragma once

#include "strata/tensor/tensor.hpp"

#include "check_error.hpp"
#include "layout/chain_steps.hpp"

#include <catch2/catch.hpp>

#include <complex>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace strata::test {

/// Pairs of values as complex numbers (real part, imaginary part).
inline std::vector<std::complex<double>> complex_pairs(const std::vector<double>& values) {
  REQUIRE(values.size() % 2 == 0);
  std::vector<std::complex<double>> out;
  for (std::size_t k = 0; k < values.size(); k += 2) {
    out.emplace_back(values[k], values[k + 1]);
  }
  return out;
}

/// Replays @p path through replay_cases: `run(text, operands)` computes each case (called with
/// the float64, the int64 or the complex128 operands). Returns the number of cases checked.
template <class Runner>
int replay_contractions(const std::string& path, const Runner& run) {
  using I64 = std::int64_t;
  using Z = std::complex<double>;
  std::string spec;
  std::string dtype;
  Index shape;
  std::vector<Tensor<double>> doubles;
  std::vector<Tensor<I64>> integers;
  std::vector<Tensor<Z>> complexes;
  std::string result_dtype;
  Index result_shape;
  int cases = 0;
  const auto start = [&](std::istringstream& in) {
    spec.clear();  // "case " alone: the empty spec
    std::getline(in >> std::ws, spec);
    doubles.clear();
    integers.clear();
    complexes.clear();
  };
  const auto step = [&](const std::string& op, std::istringstream& in) {
    if (op == "operand") {
      in >> dtype;
      shape = read_indices(in);
    } else if (op == "values") {
      std::vector<double> values;
      double v = 0;
      while (in >> v) {
        values.push_back(v);
      }
      if (dtype == "float64") {
        doubles.push_back(Tensor<double>::from_vector(values, shape));
      } else if (dtype == "complex128") {
        complexes.push_back(Tensor<Z>::from_vector(complex_pairs(values), shape));
      } else {
        integers.push_back(
            Tensor<I64>::from_vector(std::vector<I64>(values.begin(), values.end()), shape));
      }
    } else if (op == "view") {
      std::string kind;
      in >> kind;
      REQUIRE((dtype == "float64"      ? apply_view_step(doubles.back(), kind, in)
               : dtype == "complex128" ? apply_view_step(complexes.back(), kind, in)
                                       : apply_view_step(integers.back(), kind, in)));
    } else if (op == "result") {
      in >> result_dtype;
      result_shape = read_indices(in);
    } else if (op == "expect") {
      std::vector<double> expected;
      double v = 0;
      while (in >> v) {
        expected.push_back(v);
      }
      INFO("case " << spec);
      REQUIRE(result_dtype == dtype);  // float64, int64 and complex128 operands keep their type
      std::vector<double> got;
      if (dtype == "complex128") {
        const Tensor<Z> r = run(spec, complexes);
        REQUIRE(r.shape() == result_shape);
        for (const Z x : r.to_vector()) {
          got.push_back(x.real());
          got.push_back(x.imag());
        }
      } else if (dtype == "float64") {
        const Tensor<double> r = run(spec, doubles);
        REQUIRE(r.shape() == result_shape);
        got = r.to_vector();
      } else {
        const Tensor<I64> r = run(spec, integers);
        REQUIRE(r.shape() == result_shape);
        for (const I64 x : r.to_vector()) {
          got.push_back(static_cast<double>(x));
        }
      }
      REQUIRE(got == expected);  // halves and small integers: exact in any order
      ++cases;
    }
  };
  replay_cases(path, "case", start, step);
  return cases;
}

}  // namespace strata::test
