// Must not compile: an expression is a lazy tree of a fixed type, so `auto y = expr; y = exp(y)`
// cannot rebind it; the message says to name the tensor type.
// expect: an expression is a lazy tree.*Tensor<double> y = expr
#include "strata/expr/expr.hpp"

void f() {
  const strata::Tensor<double> x(strata::Index{3});
  auto y = x * 2.0;
  y = strata::exp(y);
}
