// Must not compile: & | ^ ~ are mask operators on bool tensors and expressions; the message
// names the conversion to write.
// expect: mask operators on bool tensors and expressions.*astype<bool>
#include "strata/expr/expr.hpp"

void f() {
  const strata::Tensor<int> i(strata::Index{2});
  auto e = i & (i > 0);
}
