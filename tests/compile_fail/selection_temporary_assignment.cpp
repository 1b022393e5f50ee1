// Must not compile: assigning to a temporary selection would write nothing (a selection only
// reads); write into a tensor view instead.
// expect: use of deleted function|deleted
#include "strata/strata.hpp"

void f() {
  const strata::Tensor<double> a(strata::Index{4});
  const strata::Tensor<double> b(strata::Index{4});
  auto s = strata::concat<double>(0, {a, b});
  s.select({strata::Range{0, 1}}) = strata::Selection<double>(b).select({strata::Range{0, 1}});
}
