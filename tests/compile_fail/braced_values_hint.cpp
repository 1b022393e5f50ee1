// Must not compile: three values in braces (NumPy's np.array([4, 5, 6]) habit). The compiler's
// list of candidate constructors must show the spelling that works.
// expect: Tensor<T>::of\({4, 5, 6}\)
#include "strata/tensor/tensor.hpp"

void f() {
  const strata::Tensor<float> b{4, 5, 6};
}
