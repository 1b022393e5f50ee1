// The quick start of the docs' main page: a tensor, views without copies, arithmetic, a
// reduction, a parallel loop with absolute indices, and a picture.
#include <strata/strata.hpp>

#include <fstream>
#include <iostream>

int main() {
  using namespace strata;
  Tensor<double> t({4, 6});  // zeros, row-major, like np.zeros((4, 6))
  for_each_indexed(par, t, [](index_t i, index_t j, double& x) { x = 10.0 * i + j; });
  auto inner = t.select({Range{1, 3}, Range{1, 5}});  // t[1:3, 1:5]: a view, no copy
  inner *= 2.0;                                       // writes through the view into t
  Tensor<double> y = t.transpose() + 1.0;             // one pass, no temporaries
  std::cout << t << "\n" << sum(y, {0}) << "\n";      // NumPy's printing and np.sum(y, 0)
  std::ofstream("inner.svg") << draw::dimensions(inner.dims(), "t[1:3, 1:5]");
}
