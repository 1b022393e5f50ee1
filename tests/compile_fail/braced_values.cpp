// Must not compile: a braced list of values given to the constructor (the construction trap);
// values are Tensor<float>::of({2, 3}), a shape is Tensor<float>({2, 3}).
// expect: no matching function for call|no matching constructor
#include "strata/tensor/tensor.hpp"

void f() {
  const strata::Tensor<float> t{2, 3};
}
