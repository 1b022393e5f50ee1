// The snippets of docs/numpy.md ("strata for NumPy users") and docs/peers.md ("strata for xtensor
// and Eigen users"), compiled and run (one file: one compilation of strata.hpp): each block
// between `//! [name]` markers is shown on its page by Doxygen's @snippet, and checked here
// against the values NumPy prints for the same code (written out by hand from NumPy 1.24).
#include "check_error.hpp"
#include "strata/strata.hpp"

#include <catch2/catch.hpp>

#if defined(STRATA_TEST_HAVE_EIGEN)
#include <Eigen/Dense>
#endif

#include <vector>

namespace test_docs_pages {

using namespace strata;

namespace {
template <class T>
std::vector<T> values(const Tensor<T>& t) {
  std::vector<T> out;
  for (const auto& i : t.offsets()) {
    out.push_back(t.at(i));
  }
  return out;
}
}  // namespace

TEST_CASE("numpy page: creating arrays", "[docs][numpy]") {
  //! [create]
  Tensor<double> z({2, 3});                   // np.zeros((2, 3))
  auto a = iota<int>({2, 3});                 // np.arange(6).reshape(2, 3)
  auto f = full<int>({2, 2}, 7);              // np.full((2, 2), 7)
  Tensor<int> m{{1, 2}, {3, 4}};              // np.array([[1, 2], [3, 4]])
  auto v = Tensor<double>::of({0.5, 1.5});    // np.array([0.5, 1.5])
  auto r = random<double>({1000, 1000}, 42);  // rng.random((1000, 1000)), never stored
  //! [create]
  CHECK(values(z) == std::vector<double>(6, 0.0));
  CHECK(values(a) == std::vector<int>{0, 1, 2, 3, 4, 5});
  CHECK(values(f) == std::vector<int>{7, 7, 7, 7});
  CHECK(values(m) == std::vector<int>{1, 2, 3, 4});
  CHECK(values(v) == std::vector<double>{0.5, 1.5});
  CHECK(r.shape() == Index{1000, 1000});
  CHECK(r(3, 4) >= 0.0);
  CHECK(r(3, 4) < 1.0);
}

TEST_CASE("numpy page: indexing and views", "[docs][numpy]") {
  Tensor<int> a = iota<int>({3, 4}).copy();
  //! [views]
  int x = a(1, 2);                                           // a[1, 2]
  auto s = a.select({Range{1, 3}, Range{{}, {}, -2}});       // a[1:3, ::-2]
  auto col = a.select({all, 1});                             // a[:, 1]
  auto rows = a.select({std::vector<index_t>{2, 0}});        // a[[2, 0]]
  auto at = a.transpose();                                   // a.T
  auto flipped = a.reverse({0});                             // np.flip(a, 0)
  auto rolled = a.rotate(1, 1);                              // np.roll(a, 1, axis=1)
  auto wide = Tensor<int>::of({1, 2, 3}).broadcast({2, 3});  // np.broadcast_to([1, 2, 3], (2, 3))
  auto flat = a.reshape({12});                               // a.reshape(12), a view
  auto col2 = col.unsqueeze(1);                              // col[:, np.newaxis]
  auto diag = a.diagonal(1);                                 // a.diagonal(1), writable
  //! [views]
  CHECK(x == 6);
  CHECK(values(s) == std::vector<int>{7, 5, 11, 9});
  CHECK(values(col) == std::vector<int>{1, 5, 9});
  CHECK(values(rows) == std::vector<int>{8, 9, 10, 11, 0, 1, 2, 3});
  CHECK(at.shape() == Index{4, 3});
  CHECK(at(1, 0) == 1);
  CHECK(values(flipped) == std::vector<int>{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3});
  CHECK(values(rolled) == std::vector<int>{3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10});
  CHECK(values(wide) == std::vector<int>{1, 2, 3, 1, 2, 3});
  CHECK(flat.shape() == Index{12});
  CHECK(col2.shape() == Index{3, 1});
  CHECK(values(diag) == std::vector<int>{1, 6, 11});
}

TEST_CASE("numpy page: writing through views", "[docs][numpy]") {
  //! [assign]
  Tensor<double> a({3, 4});
  a.select({all, 1}) = 7.0;  // a[:, 1] = 7
  auto inner = a.select({Range{0, 2}, Range{2, 4}});
  inner += 1.0;                         // a[0:2, 2:4] += 1
  a(2, 3) = -1.0;                       // a[2, 3] = -1
  a.select({Range{{}, {}, 2}}) *= 2.0;  // a[::2] *= 2
  //! [assign]
  CHECK(values(a) == std::vector<double>{0, 14, 2, 2, 0, 7, 1, 1, 0, 14, 0, -2});
}

TEST_CASE("numpy page: names and handles", "[docs][numpy]") {
  Tensor<double> a{{1, 2}, {3, 4}};
  const auto b = Tensor<double>::of({5, 6});
  //! [handles]
  auto row = a.select({0});  // row = a[0]: a view, nothing copied
  row.assign(b);             // row[...] = b: writes into a
  row = b * 2.0;             // row[...] = b * 2: an expression writes too
  row.rebind(b);             // row = b: the name now means b; nothing is written
  Tensor<double> c = a;      // c = a: another handle to a's elements
  swap(row, c);              // row, c = c, row
  // row = b;                // does not compile: write (assign) or rebind (rebind)?
  //! [handles]
  CHECK(values(a) == std::vector<double>{10, 12, 3, 4});
  CHECK(values(row) == std::vector<double>{10, 12, 3, 4});
  CHECK(values(c) == std::vector<double>{5, 6});
}

TEST_CASE("numpy page: arithmetic and functions", "[docs][numpy]") {
  const auto a = Tensor<double>::of({1.0, 4.0, 9.0});
  Tensor<double> m{{1, 2, 3}, {4, 5, 6}};
  //! [arithmetic]
  Tensor<double> b = 2.0 * a + 1.0;           // 2 * a + 1
  Tensor<double> c = sqrt(a) - a / 2.0;       // np.sqrt(a) - a / 2
  Tensor<double> d = m * a;                   // broadcasting: (2, 3) * (3,)
  Tensor<double> e = maximum(m, 3.5);         // np.maximum(m, 3.5)
  Tensor<double> w = where(m > 2.0, m, 0.0);  // np.where(m > 2, m, 0)
  Tensor<int> n = astype<int>(a);             // a.astype(int)
  //! [arithmetic]
  CHECK(values(b) == std::vector<double>{3, 9, 19});
  CHECK(values(c) == std::vector<double>{0.5, 0, -1.5});
  CHECK(values(d) == std::vector<double>{1, 8, 27, 4, 20, 54});
  CHECK(values(e) == std::vector<double>{3.5, 3.5, 3.5, 4, 5, 6});
  CHECK(values(w) == std::vector<double>{0, 0, 3, 4, 5, 6});
  CHECK(values(n) == std::vector<int>{1, 4, 9});
}

TEST_CASE("numpy page: reductions", "[docs][numpy]") {
  Tensor<double> m{{1, 2, 3}, {4, 5, 6}};
  //! [reduce]
  double total = sum(m);                   // m.sum()
  Tensor<double> cols = sum(m, 0);         // m.sum(axis=0)
  Tensor<double> rows = mean(m, 1, true);  // m.mean(axis=1, keepdims=True)
  double top = max(m);                     // m.max()
  Tensor<double> fused = sum(m * m, 1);    // (m * m).sum(axis=1), one pass
  //! [reduce]
  CHECK(total == 21.0);
  CHECK(values(cols) == std::vector<double>{5, 7, 9});
  CHECK(rows.shape() == Index{2, 1});
  CHECK(values(rows) == std::vector<double>{2, 5});
  CHECK(top == 6.0);
  CHECK(values(fused) == std::vector<double>{14, 77});
}

TEST_CASE("numpy page: products", "[docs][numpy]") {
  Tensor<double> m{{1, 2, 3}, {4, 5, 6}};
  Tensor<double> w{{1, 0}, {0, 1}, {1, 1}};
  //! [products]
  Tensor<double> p = matmul(m, w);                               // m @ w
  Tensor<double> pv = matmul(m, Tensor<double>::of({1, 0, 1}));  // m @ v: a vector is a column
  Tensor<double> gram = inner(m, m);                             // np.inner(m, m)
  Tensor<double> t = tensordot(m, w, 1);                         // np.tensordot(m, w, axes=1)
  Tensor<double> e = einsum("ij,jk->ik", m, w);                  // np.einsum('ij,jk->ik', m, w)
  double v = vdot(m, m);                                         // np.vdot(m, m)
  matmul_into(p, m, w, Scaling{1, 1});                           // p += m @ w, in place (out=)
  //! [products]
  CHECK(values(pv) == std::vector<double>{4, 10});
  CHECK(values(gram) == std::vector<double>{14, 32, 32, 77});
  CHECK(values(t) == std::vector<double>{4, 5, 10, 11});
  CHECK(values(e) == values(t));
  CHECK(v == 91.0);
  CHECK(values(p) == std::vector<double>{8, 10, 20, 22});  // twice m @ w
}

TEST_CASE("numpy page: joining, padding, repeating", "[docs][numpy]") {
  const auto a = iota<int>({2, 2});
  const auto b = full<int>({1, 2}, 9);
  //! [join]
  auto j = concat<int>(0, {a, b});                      // np.concatenate([a, b], axis=0)
  auto p = pad(a, {{1, 1}, {0, 0}}, PadMode::reflect);  // np.pad(a, ((1, 1), (0, 0)), 'reflect')
  auto r = repeat(a, 2, 1);                             // np.repeat(a, 2, axis=1)
  auto t = tile(a, {1, 2});                             // np.tile(a, (1, 2))
  Tensor<int> dense = j.materialize();                  // evaluate a lazy selection
  //! [join]
  CHECK(values(dense) == std::vector<int>{0, 1, 2, 3, 9, 9});
  CHECK(values(p.materialize()) == std::vector<int>{2, 3, 0, 1, 2, 3, 0, 1});
  CHECK(values(r.materialize()) == std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3});
  CHECK(values(t.materialize()) == std::vector<int>{0, 1, 0, 1, 2, 3, 2, 3});
}

TEST_CASE("numpy page: errors instead of NumPy's exceptions", "[docs][numpy]") {
  //! [errors]
  try {
    auto bad = Tensor<double>({2, 3}) + Tensor<double>({4});  // ValueError in NumPy
    (void)bad;
  } catch (const BroadcastError& e) {
    // e.what(): "operator+: shapes [2 3] and [4] do not broadcast (axis 1 of the result: 3 vs 4)"
  }
  //! [errors]
  strata::test::check_error<BroadcastError>(
      [] {
        Tensor<double> y = Tensor<double>({2, 3}) + Tensor<double>({4});
      },
      "operator+", "[4]");
}

// ---- docs/peers.md ------------------------------------------------------------------------------

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
  auto row = m.select({1, all});         // xt::row(m, 1), m.row(1)
  auto col = m.select({all, 2});         // xt::col(m, 2), m.col(2)
  Tensor<double> r = m + v;              // broadcasting: m.rowwise() + v in Eigen
  Tensor<double> e = 2.0 * m - sqrt(m);  // lazy and fused, as xtensor / Eigen
  Tensor<double> rows = sum(m, 1);       // xt::sum(m, {1}), m.rowwise().sum()
  Tensor<double> cols = sum(m, 0);       // xt::sum(m, {0}), m.colwise().sum()
  double total = sum(m);                 // xt::sum(m)(), m.sum()
  auto c = evaluate(m * m);              // xt::eval(...), (m.array() * m.array()).eval()
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

#if defined(STRATA_TEST_HAVE_EIGEN)
// The Eigen column of docs/peers.md, run beside strata's spelling (built when Eigen is found).
TEST_CASE("peers page: the Eigen spellings give the same values", "[docs][peers][eigen]") {
  std::vector<double> mine(12);
  for (std::size_t k = 0; k < mine.size(); ++k) {
    mine[k] = static_cast<double>(k);
  }
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<RowMajor> m(mine.data(), 3, 4);  // Eigen::Map: no copy
  auto a = Tensor<double>::wrap(mine.data(), {3, 4});
  CHECK(m.data() == a.data());
  CHECK(m.outerStride() == a.strides()[0]);
  CHECK(m.innerStride() == a.strides()[1]);
  const auto block = a.select({Range{1, 3}, Range{1, 3}});  // m.block(1, 1, 2, 2)
  CHECK(&m.block(1, 1, 2, 2)(0, 0) == block.data());
  CHECK(m.block(1, 1, 2, 2)(1, 1) == block(1, 1));
  const Tensor<double> rows = sum(a, 1);  // m.rowwise().sum()
  const Tensor<double> cols = sum(a, 0);  // m.colwise().sum()
  const Eigen::VectorXd eigen_rows = m.rowwise().sum();
  const Eigen::RowVectorXd eigen_cols = m.colwise().sum();
  for (index_t i = 0; i < 3; ++i) {
    CHECK(rows(i) == eigen_rows(i));
  }
  for (index_t j = 0; j < 4; ++j) {
    CHECK(cols(j) == eigen_cols(j));
  }
  CHECK(sum(a) == m.sum());
  const Tensor<double> row = a.select({1, all}).copy();  // m.row(1)
  const Tensor<double> col = a.select({all, 2}).copy();  // m.col(2)
  CHECK(row(3) == m.row(1)(3));
  CHECK(col(2) == m.col(2)(2));
}
#endif

}  // namespace test_docs_pages
