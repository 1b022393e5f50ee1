// Tests of complex element types (std::complex<double>, std::complex<float>: NumPy's complex128
// and complex64) in expressions, reductions, printing and products: the type rule, arithmetic
// and the math functions against std::complex element by element over random views, the parts
// (real, imag, conj, angle), NaN tests, NumPy's printed form, vdot's conjugation, tiled and
// block-sparse products. (einsum of complex tensors: tests/contract/einsum.cpp, and NumPy's
// values in tests/contract/conformance.cpp; what does not compile: tests/compile_fail/complex_*.)
#include "strata/contract/contract.hpp"
#include "strata/expr/expr.hpp"

#include "check_error.hpp"
#include "contract/random_problems.hpp"  // random_view: transposed, broadcast, flipped, rolled

#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace test_expr_complex {

using strata::Index;
using strata::Tensor;
using Z = std::complex<double>;
using C = std::complex<float>;

template <class X>
using value_t = typename decltype(strata::evaluate(std::declval<const X&>()))::value_type;

// NumPy 1.24's result types: np.result_type of the same operands (a C++ scalar plays a Python
// scalar: it does not widen a tensor of its own kind or a higher one).
static_assert(std::is_same_v<value_t<decltype(Tensor<C>() * 2.0)>, C>);          // complex64 * 2.0
static_assert(std::is_same_v<value_t<decltype(Tensor<float>() * Z(0, 1))>, C>);  // float32 * 1j
static_assert(std::is_same_v<value_t<decltype(Tensor<int>() * Z(0, 1))>, Z>);    // int32 * 1j
static_assert(std::is_same_v<value_t<decltype(Tensor<C>() + Tensor<double>())>, Z>);
static_assert(std::is_same_v<value_t<decltype(Tensor<C>() + Tensor<Z>())>, Z>);
static_assert(std::is_same_v<value_t<decltype(Tensor<Z>() + Tensor<float>())>, Z>);
static_assert(std::is_same_v<value_t<decltype(Tensor<bool>() * Z(1, 1))>, Z>);
static_assert(std::is_same_v<value_t<decltype(strata::abs(Tensor<Z>()))>, double>);
static_assert(std::is_same_v<value_t<decltype(strata::abs(Tensor<C>()))>, float>);
static_assert(std::is_same_v<value_t<decltype(strata::real(Tensor<C>()))>, float>);
static_assert(std::is_same_v<value_t<decltype(strata::imag(Tensor<double>()))>, double>);
static_assert(std::is_same_v<value_t<decltype(strata::angle(Tensor<int>()))>, double>);
static_assert(std::is_same_v<value_t<decltype(strata::sqrt(Tensor<C>()))>, C>);
static_assert(
    std::is_same_v<decltype(strata::einsum("i,i", Tensor<C>(), Tensor<double>())), Tensor<Z>>);
static_assert(
    std::is_same_v<decltype(strata::einsum("ij,jk", std::declval<strata::LayoutTensor<C>>(),
                                           std::declval<strata::LayoutTensor<double>>())),
                   strata::LayoutTensor<Z>>);

namespace {

// Elements of two tensors compared within a few ulps of their magnitude (the functions run
// through std::complex on both sides; only fused arithmetic may round differently).
template <class T>
void check_close(const std::vector<T>& got, const std::vector<T>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    INFO("element " << k << ": " << got[k] << " vs " << want[k]);
    if (std::isnan(std::abs(want[k]))) {
      CHECK(std::isnan(std::abs(got[k])));
    } else if (std::isinf(std::abs(want[k]))) {  // log(0): -inf, as the same infinity
      CHECK(got[k] == want[k]);
    } else {
      CHECK(std::abs(got[k] - want[k]) <= 1e-12 * (1 + std::abs(want[k])));
    }
  }
}

// `f` over a view's elements in row-major order: the reference of a lazy function.
template <class T, class F>
auto each(const Tensor<T>& x, F f) {
  std::vector<std::remove_cvref_t<decltype(f(std::declval<T>()))>> out;
  for (const T& v : x.to_vector()) {
    out.push_back(f(v));
  }
  return out;
}

}  // namespace

TEST_CASE("complex arithmetic and functions agree with std::complex over random views",
          "[expr][complex][property]") {
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 40; ++trial) {
    Index shape;
    const auto rank = strata::test::uniform(rng, 0, 3);
    for (int k = 0; k < rank; ++k) {
      shape.push_back(strata::test::uniform(rng, 0, 4));
    }
    INFO("trial " << trial << ", shape " << strata::to_string(shape));
    const Tensor<Z> a = strata::test::random_view<Z>(rng, shape);
    const Tensor<Z> b = strata::test::random_view<Z>(rng, shape);
    const Tensor<double> r = strata::test::random_view<double>(rng, shape);
    const std::vector<Z> av = a.to_vector();
    const std::vector<Z> bv = b.to_vector();
    const std::vector<double> rv = r.to_vector();
    std::vector<Z> want;
    for (std::size_t k = 0; k < av.size(); ++k) {
      want.push_back(av[k] * bv[k] - Z(0.5, -2) * av[k] + rv[k] / Z(1, 1));
    }
    check_close(strata::evaluate(a * b - Z(0.5, -2) * a + r / Z(1, 1)).to_vector(), want);
    check_close(strata::evaluate(strata::exp(a) + strata::sqrt(b)).to_vector(), [&] {
      std::vector<Z> w;
      for (std::size_t k = 0; k < av.size(); ++k) {
        w.push_back(std::exp(av[k]) + std::sqrt(bv[k]));
      }
      return w;
    }());
    check_close(strata::evaluate(strata::log(a)).to_vector(),
                each(a, [](Z z) { return std::log(z); }));
    check_close(strata::evaluate(strata::tanh(a)).to_vector(),
                each(a, [](Z z) { return std::tanh(z); }));
    check_close(strata::evaluate(strata::pow(a, Z(0.5, 1))).to_vector(),
                each(a, [](Z z) { return std::pow(z, Z(0.5, 1)); }));
    check_close(strata::evaluate(strata::conj(a) * a).to_vector(),
                each(a, [](Z z) { return std::conj(z) * z; }));
    check_close(strata::evaluate(strata::abs(a)).to_vector(),
                each(a, [](Z z) { return std::abs(z); }));
    check_close(strata::evaluate(strata::angle(a)).to_vector(),
                each(a, [](Z z) { return std::arg(z); }));
    CHECK(strata::evaluate(strata::real(a)).to_vector() == each(a, [](Z z) { return z.real(); }));
    CHECK(strata::evaluate(strata::imag(a)).to_vector() == each(a, [](Z z) { return z.imag(); }));
    CHECK(strata::evaluate(strata::equal(a, b)).to_vector() == [&] {
      std::vector<bool> w;
      for (std::size_t k = 0; k < av.size(); ++k) {
        w.push_back(av[k] == bv[k]);
      }
      return w;
    }());
    // Reductions: sum and prod in complex, mean the sum over the count.
    Z sum = 0;
    Z prod = 1;
    for (const Z z : av) {
      sum += z;
      prod *= z;
    }
    check_close(std::vector<Z>{strata::sum(a)}, std::vector<Z>{sum});
    check_close(std::vector<Z>{strata::prod(a)}, std::vector<Z>{prod});
    if (!av.empty()) {
      check_close(std::vector<Z>{strata::mean(a)},
                  std::vector<Z>{sum / static_cast<double>(av.size())});
    }
    // In place, through the view: a's elements become a * (1 + 1j) + 2.
    Tensor<Z> c = a.copy();
    c *= Z(1, 1);
    c += 2;
    check_close(c.to_vector(), each(a, [](Z z) { return z * Z(1, 1) + 2.0; }));
  }
}

TEST_CASE("complex64 computes in float and widens with float64 as NumPy", "[expr][complex]") {
  const auto a = Tensor<C>::of({C(1, 2), C(-0.5F, 3)});
  const auto d = Tensor<double>::of({0.25, 2});
  const Tensor<C> twice = strata::evaluate(a * 2.0);  // complex64 * 2.0 stays complex64
  CHECK(twice.to_vector() == std::vector<C>{C(2, 4), C(-1, 6)});
  const Tensor<Z> wide = strata::evaluate(a + d);  // complex64 + float64 is complex128
  CHECK(wide.to_vector() == std::vector<Z>{Z(1.25, 2), Z(1.5, 3)});
  const Tensor<float> modulus = strata::evaluate(strata::abs(Tensor<C>::of({C(3, 4)})));
  CHECK(modulus.to_vector() == std::vector<float>{5});
}

TEST_CASE("NaN and infinity tests look at both parts, as NumPy", "[expr][complex]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const auto z = Tensor<Z>::of({Z(1, 2), Z(nan, 0), Z(0, nan), Z(inf, 1), Z(1, -inf)});
  // np.isnan, np.isinf, np.isfinite of [1+2j, nan+0j, nanj, inf+1j, 1-infj]
  CHECK(strata::evaluate(strata::isnan(z)).to_vector() ==
        std::vector<bool>{false, true, true, false, false});
  CHECK(strata::evaluate(strata::isinf(z)).to_vector() ==
        std::vector<bool>{false, false, false, true, true});
  CHECK(strata::evaluate(strata::isfinite(z)).to_vector() ==
        std::vector<bool>{true, false, false, false, false});
  // np.nan_to_num(z, nan=-1, posinf=9, neginf=-9): each part replaced
  CHECK(strata::evaluate(strata::nan_to_num(z, -1.0, 9.0, -9.0)).to_vector() ==
        std::vector<Z>{Z(1, 2), Z(-1, 0), Z(0, -1), Z(9, 1), Z(1, -9)});
}

TEST_CASE("log2, expm1, log1p and angle of complex numbers give NumPy's values",
          "[expr][complex]") {
  // NumPy 1.24: np.log2(1j) = 2.26618007j, np.expm1(1e-3+1j) = -0.45915712+0.84231288j,
  // np.log1p(2j) = 0.80471896+1.10714872j, np.angle([-2., 0., 3.]) = [pi, 0, 0]
  const auto near = [](Z got, Z want) { return std::abs(got - want) < 1e-8; };
  CHECK(near(strata::evaluate(strata::log2(Tensor<Z>::of({Z(0, 1)}))).to_vector()[0],
             Z(0, 2.26618007)));
  CHECK(near(strata::evaluate(strata::expm1(Tensor<Z>::of({Z(1e-3, 1)}))).to_vector()[0],
             Z(-0.45915712, 0.84231288)));
  CHECK(near(strata::evaluate(strata::log1p(Tensor<Z>::of({Z(0, 2)}))).to_vector()[0],
             Z(0.80471896, 1.10714872)));
  CHECK(strata::evaluate(strata::angle(Tensor<double>::of({-2, 0, 3}))).to_vector() ==
        std::vector<double>{std::numbers::pi, 0, 0});
}

TEST_CASE("complex tensors print as NumPy prints them", "[expr][complex]") {
  const auto text = [](const auto& t) {
    std::ostringstream s;
    s << t;
    return s.str();
  };
  // str(np.array(...)) in NumPy 1.24
  CHECK(text(Tensor<Z>::of({Z(1, 2), Z(0.5, -1)})) == "[1. +2.j 0.5-1.j]");
  CHECK(text(Tensor<Z>::from_vector({Z(1, 2), Z(0.5, -1), Z(-3.25, 0), Z(0, 10)}, {2, 2})) ==
        "[[ 1.   +2.j  0.5  -1.j]\n [-3.25 +0.j  0.  +10.j]]");
  CHECK(text(Tensor<Z>::of({Z(1e9, 1), Z(2, -3)})) == "[1.e+09+1.j 2.e+00-3.j]");
  CHECK(text(Tensor<C>::of({C(1, 2), C(2, -3)})) == "[1.+2.j 2.-3.j]");
}

TEST_CASE("vdot conjugates its first operand, as NumPy's", "[contract][complex]") {
  const auto a = Tensor<Z>::of({Z(1, 2), Z(0, 3)});
  const auto b = Tensor<Z>::of({Z(2, -1), Z(1, 1)});
  CHECK(strata::vdot(a, b) == Z(3, -8));  // np.vdot([1+2j, 3j], [2-1j, 1+1j])
  CHECK(strata::vdot(a, a) == Z(14, 0));  // the squared norm
  CHECK(strata::dot(a, b).to_vector() == std::vector<Z>{Z(1, 6)});  // (4+3j) + (-3+3j)
}

TEST_CASE("tiled and block-sparse complex products equal the dense product",
          "[contract][complex]") {
  std::mt19937_64 rng(42);
  const Tensor<Z> a = strata::test::random_view<Z>(rng, {7, 5});
  const Tensor<Z> b = strata::test::random_view<Z>(rng, {5, 6});
  const std::vector<Z> want = strata::einsum("ij,jk->ik", a, b).to_vector();
  using strata::Layout;
  using strata::Smooth;
  const auto ta = strata::LayoutTensor<Z>::from_dense(a, Layout::tiled(Smooth{7, 5}, {3, 2}));
  const auto tb = strata::LayoutTensor<Z>::from_dense(b, Layout::tiled(Smooth{5, 6}, {2, 4}));
  CHECK(strata::einsum("ij,jk->ik", ta, tb).to_dense().to_vector() == want);
  // Block-sparse: a's second row of tiles zero (not stored); its products skipped.
  Tensor<Z> sparse_a = a.copy();
  sparse_a.select({strata::Range{3, 6}}).fill(Z(0));
  const auto sa =
      strata::BlockSparseTensor<Z>::from_dense(sparse_a, Layout::tiled(Smooth{7, 5}, {3, 2}));
  const auto sb = strata::BlockSparseTensor<Z>::from_dense(b, Layout::tiled(Smooth{5, 6}, {2, 4}));
  CHECK(strata::einsum("ij,jk->ik", sa, sb).to_dense().to_vector() ==
        strata::einsum("ij,jk->ik", sparse_a, b).to_vector());
}

TEST_CASE("einsum_into and the labelled form take complex alpha and beta, as zgemm",
          "[contract][complex]") {
  std::mt19937_64 rng(43);
  const Tensor<Z> a = strata::test::random_view<Z>(rng, {4, 3});
  const Tensor<Z> b = strata::test::random_view<Z>(rng, {3, 5});
  const Tensor<Z> before = strata::test::random_view<Z>(rng, {4, 5}).copy();
  const Z alpha(0.5, -2.0);
  const Z beta(1.0, 1.0);
  // The reference: alpha * sum_j a(i, j) b(j, k) + beta * before(i, k), by std::complex.
  std::vector<Z> want;
  for (strata::index_t i = 0; i < 4; ++i) {
    for (strata::index_t k = 0; k < 5; ++k) {
      Z sum(0);
      for (strata::index_t j = 0; j < 3; ++j) {
        sum += a.at({i, j}) * b.at({j, k});
      }
      want.push_back(alpha * sum + beta * before.at({i, k}));
    }
  }
  const auto close = [&](const std::vector<Z>& got) {
    REQUIRE(got.size() == want.size());
    for (std::size_t e = 0; e < got.size(); ++e) {
      CHECK(std::abs(got[e] - want[e]) <= 1e-12 * (1 + std::abs(want[e])));
    }
  };
  Tensor<Z> c = before.copy();
  strata::einsum_into(c, strata::Scaling{alpha, beta}, "ij,jk->ik", a, b);
  close(c.to_vector());
  // Into a transposed view (strides the product is written through), and tile by tile.
  Tensor<Z> ct = before.transpose().copy();
  strata::einsum_into(ct.transpose(), strata::Scaling{alpha, beta}, "ij,jk->ik", a, b);
  close(ct.transpose().copy().to_vector());
  using strata::Layout;
  using strata::Smooth;
  const auto ta = strata::LayoutTensor<Z>::from_dense(a, Layout::tiled(Smooth{4, 3}, {3, 2}));
  Tensor<Z> from_tiles = before.copy();
  strata::einsum_into(from_tiles, strata::Scaling{alpha, beta}, "ij,jk->ik", ta, b);
  close(from_tiles.to_vector());
  // The labelled form: a complex scale, then `+=` (beta 1).
  Tensor<Z> l = before.copy();
  l("i,k") = alpha * a("i,j") * b("j,k");
  l("i,k") += Z(0, 1) * l("i,k") * Tensor<Z>::of({Z(0, -1)})("z") * Tensor<Z>::of({Z(1)})("z");
  // l = alpha a b + i * (-i) * (alpha a b) = 2 alpha a b, so check against the reference
  // without beta's term, doubled.
  for (std::size_t e = 0; e < want.size(); ++e) {
    const auto i = static_cast<strata::index_t>(e / 5);
    const auto k = static_cast<strata::index_t>(e % 5);
    const Z product = (want[e] - beta * before.at({i, k})) * 2.0;
    CHECK(std::abs(Z(l.at({i, k})) - product) <= 1e-12 * (1 + std::abs(product)));
  }
  // complex64 takes the scales in its precision.
  const Tensor<C> a32 = strata::astype<C>(a);
  const Tensor<C> b32 = strata::astype<C>(b);
  Tensor<C> c32 = strata::astype<C>(before);
  strata::einsum_into(c32, strata::Scaling{alpha, beta}, "ij,jk->ik", a32, b32);
  for (std::size_t e = 0; e < want.size(); ++e) {
    CHECK(std::abs(Z(c32.to_vector()[e]) - want[e]) <= 1e-4 * (1 + std::abs(want[e])));
  }
}

TEST_CASE("a real output refuses a scale with an imaginary part, writing nothing",
          "[contract][complex]") {
  const Tensor<double> a{{1.0, 2.0}, {3.0, 4.0}};
  Tensor<double> c{{5.0, 6.0}, {7.0, 8.0}};
  const std::vector<double> held = c.to_vector();
  using strata::test::check_error;
  check_error<strata::TypeError>(
      [&] { strata::einsum_into(c, strata::Scaling{Z(0, 1)}, "ij,jk->ik", a, a); }, "einsum_into",
      "alpha = (0+1j) has an imaginary part");
  check_error<strata::TypeError>(
      [&] {
        strata::einsum_into(c, strata::Scaling{2.0, Z(1, -1)}, "ij,jk->ik", a, a);
      },
      "einsum_into", "beta = (1-1j)");
  // The labelled form checks every term before the first writes.
  check_error<strata::TypeError>(
      [&] { c("i,k") = a("i,j") * a("j,k") + Z(0, 2) * a("i,j") * a("j,k"); },
      "labelled assignment", "imaginary part");
  const auto ta = strata::LayoutTensor<double>::from_dense(
      a, strata::Layout::tiled(strata::Smooth{2, 2}, {1, 2}));
  check_error<strata::TypeError>(
      [&] { strata::einsum_into(c, strata::Scaling{Z(0, 1)}, "ij,jk->ik", ta, a); }, "einsum_into",
      "alpha");
  CHECK(c.to_vector() == held);
  // A complex scale whose imaginary part is 0 is real.
  strata::einsum_into(c, strata::Scaling{Z(2, 0), Z(1, 0)}, "ij,jk->ik", a, a);
  CHECK(c.to_vector() == std::vector<double>{19.0, 26.0, 37.0, 52.0});
}

TEST_CASE("elements of a writable complex tensor compute with complex numbers", "[expr][complex]") {
  // t(i) and t.at(g) on a writable tensor are references; they compute as std::complex does.
  Tensor<Z> t = Tensor<Z>::of({Z(1, 2), Z(3, -1), Z(0, 0)});
  const Z z(0.5, 2);
  CHECK(t(0) + z == Z(1.5, 4));
  CHECK(t(0) - z == Z(0.5, 0));
  CHECK(z - t(0) == Z(-0.5, 0));
  CHECK(t(0) * 2.0 == Z(2, 4));
  CHECK(2 * t(0) == Z(2, 4));
  CHECK(t(0) * t(1) == Z(5, 5));  // (1 + 2j)(3 - 1j)
  CHECK(t(1) / Z(0, 1) == Z(-1, -3));
  CHECK(-t(1) == Z(-3, 1));
  CHECK(t.at({0}) == Z(1, 2));
  CHECK(Z(1, 2) == t(0));
  CHECK(t(0) != t(1));
  // The loop a user writes: each element from the others.
  t(2) = t(0) * t(1) + z;
  CHECK(t.to_vector()[2] == Z(5.5, 7));
  t(2) *= Z(0, 1);
  CHECK(t.to_vector()[2] == Z(-7, 5.5));
  // complex64 elements take doubles and ints, as std::complex<float> does.
  Tensor<C> f = Tensor<C>::of({C(1, 1)});
  CHECK(f(0) * 2 == C(2, 2));
  CHECK(f(0) + 0.5F == C(1.5F, 1));
}

}  // namespace test_expr_complex
