// Tests for strata/contract/products.hpp: NumPy's named products on views, expressions, mixed
// element types and sparse factors, and their errors (NumPy's values: tests/contract/
// conformance.cpp replays tests/data/products_cases.txt).
#include "strata/contract/products.hpp"

#include "strata/tensor/generators.hpp"
#include "strata/tensor/sparse.hpp"

#include "check_error.hpp"

#include <catch2/catch.hpp>

#include <vector>

namespace test_contract_products {

using strata::Index;
using strata::index_t;
using strata::Tensor;
using strata::test::check_error;

namespace {

// c[i, k] = sum_j a[i, j] b[j, k] by loops.
Tensor<double> naive_matmul(const Tensor<double>& a, const Tensor<double>& b) {
  const index_t n = a.shape()[0];
  const index_t k = a.shape()[1];
  const index_t m = b.shape()[1];
  Tensor<double> c({n, m});
  for (index_t i = 0; i < n; ++i) {
    for (index_t l = 0; l < m; ++l) {
      double s = 0;
      for (index_t j = 0; j < k; ++j) {
        s += a(i, j) * b(j, l);
      }
      c(i, l) = s;
    }
  }
  return c;
}

}  // namespace

TEST_CASE("matmul takes views, expressions, mixed element types and sparse factors",
          "[contract][products]") {
  const Tensor<double> base = strata::iota<double>({4, 5}).copy();
  const Tensor<double> b = strata::iota<double>({5, 3}).copy();
  // A transposed, reversed view goes in as it is.
  const Tensor<const double> at = base.transpose().reverse({0});  // [5, 4]
  const Tensor<double> expected = naive_matmul(at.copy(), strata::iota<double>({4, 2}).copy());
  CHECK(strata::matmul(at, strata::iota<double>({4, 2}).copy()) == expected);
  CHECK(strata::matmul(strata::seq, at, strata::iota<double>({4, 2}).copy()) == expected);
  // An expression operand is evaluated first.
  CHECK(strata::matmul(base * 2.0, b) == naive_matmul(Tensor<double>(base * 2.0), b));
  // float with double: double, as einsum's type rule.
  const Tensor<float> bf = strata::iota<float>({5, 3}).copy();
  const auto mixed = strata::matmul(base, bf);
  STATIC_REQUIRE(std::is_same_v<decltype(mixed), const Tensor<double>>);
  CHECK(mixed == naive_matmul(base, b));
  // A sparse factor: through its stored entries, the dense answer.
  auto k = strata::sparse<double>({4, 5});
  k(0, 1) = 2.0;
  k(3, 4) = -1.0;
  CHECK(strata::matmul(k, b) == naive_matmul(strata::to_dense(k), b));
  const Tensor<double> x = strata::iota<double>({5}).copy();
  const Tensor<double> y = strata::matmul(k, x);
  CHECK(y.shape() == Index{4});
  CHECK(y(0) == 2.0);
  CHECK(y(3) == -4.0);
  // The names a NumPy user reaches for agree with each other on matrices.
  CHECK(strata::dot(base, b) == naive_matmul(base, b));
  CHECK(strata::tensordot(base, b, 1) == naive_matmul(base, b));
  CHECK(strata::inner(base, b.transpose()) == naive_matmul(base, b));
  CHECK(strata::vdot(base, base) == strata::dot(base.reshape({20}), base.reshape({20}))());
}

TEST_CASE("matmul_into and dot_into write into views, as NumPy's out=", "[contract][products]") {
  const Tensor<double> a = strata::iota<double>({4, 5}).copy();
  const Tensor<double> b = strata::iota<double>({5, 3}).copy();
  const Tensor<double> ab = naive_matmul(a, b);
  // Into a transposed, reversed view of a larger tensor: the product lands there, nothing else
  // is touched.
  Tensor<double> big = strata::full<double>({3, 6}, -7.0).copy();
  Tensor<double> out = big.select({strata::all, strata::Range{0, 4}}).transpose().reverse({0});
  strata::matmul_into(out, a, b);
  CHECK(out == ab);
  CHECK(big.select({strata::all, strata::Range{4, 6}}) == strata::full<double>({3, 2}, -7.0));
  // With BLAS's alpha and beta: out = 2 a b + out.
  strata::matmul_into(strata::seq, out, a, b, strata::Scaling{2.0, 1.0});
  CHECK(out == Tensor<double>(3.0 * ab));
  // dot is the same product for matrices; a vector on the right gives a vector.
  Tensor<double> d({4, 3});
  strata::dot_into(d, a, b);
  CHECK(d == ab);
  Tensor<double> y({4});
  strata::dot_into(strata::seq, y, a, strata::iota<double>({5}).copy());
  CHECK(y == strata::dot(a, strata::iota<double>({5}).copy()));
  // Converted to out's element type, as einsum_into.
  Tensor<float> f({4, 3});
  strata::matmul_into(f, a, b);
  CHECK(f == Tensor<float>(strata::astype<float>(ab)));
  // An operand that is also the output is read from a copy (as NumPy's out=): m = m @ m.
  Tensor<double> m = strata::iota<double>({3, 3}).copy();
  const Tensor<double> mm = naive_matmul(m.copy(), m.copy());
  strata::matmul_into(m, m, m);
  CHECK(m == mm);
}

TEST_CASE("named products reject bad shapes with the operation and the extents",
          "[contract][products][errors]") {
  const Tensor<double> a({2, 3});
  const Tensor<double> b({4, 2});
  const Tensor<double> s = Tensor<double>::from_vector({2.0}, {});
  check_error<strata::ShapeError>([&] { (void)strata::matmul(s, b); }, "matmul", "scalar");
  check_error<strata::ShapeError>([&] { (void)strata::matmul(a, b); }, "matmul", "extent 3");
  // An extent of 1 does not broadcast along the summed axis (NumPy's matmul).
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::matmul(Tensor<double>({2, 1}), a);
      },
      "matmul", "extent 1");
  check_error<strata::BroadcastError>(
      [&] {
        (void)strata::matmul(Tensor<double>({2, 2, 3}), Tensor<double>({3, 3, 4}));
      },
      "matmul", "[2]");
  check_error<strata::ShapeError>([&] { (void)strata::dot(a, b); }, "dot", "extent 4");
  // The out= forms: the product's own errors, then out's shape and writability, each naming
  // the _into operation; nothing is written.
  Tensor<double> out = strata::full<double>({2, 2}, 5.0).copy();
  check_error<strata::ShapeError>([&] { strata::matmul_into(out, a, b); }, "matmul_into",
                                  "extent 3");
  check_error<strata::ShapeError>([&] { strata::matmul_into(out, s, b); }, "matmul_into", "scalar");
  check_error<strata::ShapeError>([&] { strata::matmul_into(out, a.transpose(), a); },
                                  "matmul_into", "[3 3]");
  check_error<strata::ShapeError>([&] { strata::matmul_into(out, b, a); }, "matmul_into", "[4 3]");
  check_error<strata::ShapeError>([&] { strata::dot_into(out, a, b); }, "dot_into", "extent 4");
  check_error<strata::ShapeError>([&] { strata::dot_into(out, b, a); }, "dot_into", "[4 3]");
  auto shared = Tensor<double>::of({1.0, 2.0}).broadcast({2, 2});
  check_error<strata::LayoutError>([&] { strata::matmul_into(shared, a, a.transpose()); },
                                   "matmul_into", "cannot be written");
  CHECK(out == strata::full<double>({2, 2}, 5.0));
  check_error<strata::ShapeError>([&] { (void)strata::inner(a, b); }, "inner", "extent 2");
  check_error<strata::ShapeError>([&] { (void)strata::vdot(a, b); }, "vdot", "8 elements");
  check_error<strata::ShapeError>([&] { (void)strata::tensordot(a, b, 3); }, "tensordot", "n = 3");
  check_error<strata::ShapeError>([&] { (void)strata::tensordot(a, b, -1); }, "tensordot",
                                  "n = -1");
  check_error<strata::IndexError>([&] { (void)strata::tensordot(a, b, {2}, {0}); }, "tensordot",
                                  "axis 2");
  check_error<strata::IndexError>(
      [&] {
        (void)strata::tensordot(a, b, {0, -2}, {0, 1});
      },
      "tensordot", "twice");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::tensordot(a, b, {0}, {0, 1});
      },
      "tensordot", "in number");
  check_error<strata::ShapeError>([&] { (void)strata::tensordot(a, b, {1}, {0}); }, "tensordot",
                                  "extent 3");
  // einsum has 52 letters: 27 + 27 axes are too many.
  const Tensor<double> wide(Index(27, 1));
  check_error<strata::ShapeError>([&] { (void)strata::outer(wide, wide); }, "outer", "52");
}

}  // namespace test_contract_products
