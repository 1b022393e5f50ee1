// The strata side of docs/peers.md ("strata for xtensor and Eigen users"), compiled and run:
// each `//! [name]` block is shown on the page with @snippet and checked here against values
// written out by hand.
#include "strata/strata.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace strata;

TEST_CASE("peers page: adapting memory you own", "[docs][peers]") {
  //! [adapt]
  std::vector<double> mine(12, 1.0);
  auto a = Tensor<double>::wrap(mine.data(), {3, 4});  // xt::adapt / Eigen::Map: no copy
  a(1, 2) = 5.0;                                       // writes into mine
  double* p = a.data();                                // a.data(), m.data()
  Index s = a.strides();                               // in elements: [4 1]
  auto block = a.select({Range{1, 3}, Range{1, 3}});   // m.block(1, 1, 2, 2)
  double corner = block.data()[0];                     // a pointer into mine ...
  Index block_strides = block.strides();               // ... with the block's strides [4 1]
  //! [adapt]
  CHECK(mine[6] == 5.0);
  CHECK(p == mine.data());
  CHECK(s == Index{4, 1});
  CHECK(corner == 1.0);
  CHECK(block.data() == mine.data() + 5);
  CHECK(block_strides == Index{4, 1});
}

TEST_CASE("peers page: views, arithmetic and reductions", "[docs][peers]") {
  Tensor<double> m{{1, 2, 3}, {4, 5, 6}};
  const auto v = Tensor<double>::of({10, 20, 30});
  //! [compute]
  auto row = m.select({1, all});                    // xt::row(m, 1), m.row(1)
  auto col = m.select({all, 2});                    // xt::col(m, 2), m.col(2)
  Tensor<double> r = m + v;                         // broadcasting: m.rowwise() + v in Eigen
  Tensor<double> e = 2.0 * m - sqrt(m);             // lazy and fused, as xtensor / Eigen
  Tensor<double> rows = sum(m, 1);                  // xt::sum(m, {1}), m.rowwise().sum()
  Tensor<double> cols = sum(m, 0);                  // xt::sum(m, {0}), m.colwise().sum()
  double total = sum(m);                            // xt::sum(m)(), m.sum()
  auto c = evaluate(m * m);                         // xt::eval(...), (m.array() * m.array()).eval()
  //! [compute]
  CHECK(row(2) == 6.0);
  CHECK(col(0) == 3.0);
  CHECK(r(1, 2) == 36.0);
  CHECK(e(0, 1) == Approx(4.0 - 1.4142135623730951));
  CHECK(rows(0) == 6.0);
  CHECK(cols(2) == 9.0);
  CHECK(total == 21.0);
  CHECK(c(1, 1) == 25.0);
}
