// Must not compile: the type rule of expressions has no common type for std::string and int.
// expect: no common type under C\+\+'s usual arithmetic conversions
#include "strata/expr/expr.hpp"

#include <string>

void f() {
  const strata::Tensor<std::string> s(strata::Index{2});
  const strata::Tensor<int> i(strata::Index{2});
  auto e = s + i;
}
