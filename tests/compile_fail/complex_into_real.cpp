// Must not compile: a complex value assigned to a real tensor would drop its imaginary part
// (NumPy does, with a ComplexWarning); the message names the functions that choose a part.
// expect: complex value assigned to a real tensor.*real\(x\)
#include "strata/expr/expr.hpp"

#include <complex>

void f() {
  const strata::Tensor<std::complex<double>> z(strata::Index{2});
  strata::Tensor<double> d(strata::Index{2});
  d = z * 2.0;
}
