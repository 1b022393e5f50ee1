// Must not compile: `v = b` on a named view could write b's values into it (as `v = b + 0`
// does) or rebind the handle; the message must name both spellings.
// expect: v\.assign\(b\); rebind: v\.rebind\(b\)
#include "strata/tensor/tensor.hpp"

void f() {
  strata::Tensor<double> a(strata::Index{4});
  const strata::Tensor<double> b(strata::Index{2});
  auto v = a.select({strata::Range{0, 2}});
  v = b;
}
