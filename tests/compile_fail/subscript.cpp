// Must not compile: NumPy's t[1] has no operator[] here; the message names select and t(i, j).
// expect: has no operator\[\]: NumPy's t\[1\] is t.select
#include "strata/tensor/tensor.hpp"

void f() {
  strata::Tensor<float> t(strata::Index{3, 4});
  auto row = t[1];
}
