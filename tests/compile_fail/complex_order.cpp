// Must not compile: complex numbers have no order (NumPy's arrays order them lexicographically,
// Python's complex does not; strata and its Python module refuse); the message says what compares.
// expect: operator<: complex numbers have no order
#include "strata/expr/expr.hpp"

#include <complex>

void f() {
  const strata::Tensor<std::complex<double>> z(strata::Index{2});
  auto e = z < 1.0;
}
