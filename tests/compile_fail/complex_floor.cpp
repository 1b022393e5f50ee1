// Must not compile: rounding, floor, ceil, mod, arctan2 and hypot are defined for real numbers
// only (NumPy refuses complex operands too); the message says to take a part first.
// expect: not defined for complex numbers.*strata::real\(x\)
#include "strata/expr/expr.hpp"

#include <complex>

void f() {
  const strata::Tensor<std::complex<double>> z(strata::Index{2});
  auto e = strata::floor(z);
}
