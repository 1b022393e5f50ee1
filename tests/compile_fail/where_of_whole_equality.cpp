// Must not compile: `a == b` of two tensors compares them whole (one bool); as where's mask it
// is a slip, and the message names the element-wise strata::equal.
// expect: strata::where: the mask is one bool.*strata::equal\(a, b\)
#include "strata/expr/expr.hpp"

void f() {
  const strata::Tensor<double> a(strata::Index{2});
  const strata::Tensor<double> b(strata::Index{2});
  auto e = strata::where(a == b, a, 0.0);
}
