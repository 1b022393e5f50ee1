// Must not compile: an iterator into a temporary view would dangle.
// expect: use of deleted function|call to deleted member function|attempt to use a deleted
#include "strata/tensor/tensor.hpp"

void f(strata::Tensor<double>& u) {
  auto it = u.transpose().begin();
}
