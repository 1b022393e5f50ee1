// Must not compile: a view of a const tensor is read-only, so an expression cannot be assigned.
// expect: no match for .*operator=|no viable overloaded
#include "strata/expr/expr.hpp"

void f(const strata::Tensor<double>& u) {
  u.select({0}) = u.select({1}) * 2.0;
}
