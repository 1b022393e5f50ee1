// Must not compile: max (min, argmax, argmin and the nan forms) orders the elements, and complex
// numbers have no order; the message says so.
// expect: order the elements, and complex numbers have no order
#include "strata/expr/expr.hpp"

#include <complex>

void f() {
  const strata::Tensor<std::complex<double>> z(strata::Index{2});
  auto m = strata::max(z);
}
