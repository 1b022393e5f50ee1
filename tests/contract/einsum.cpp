// Tests of strata/contract/einsum.hpp and plan.hpp: einsum against a naive loop on random
// specs over random views, every engine and path, the labelled form, every bad input.
// (NumPy's values: tests/contract/conformance.cpp.)
#include "strata/contract/contract.hpp"
#include "strata/tensor/generators.hpp"

#include "check_error.hpp"
#include "random_problems.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace test_contract_einsum {

using strata::Index;
using strata::index_t;
using strata::Tensor;
using strata::test::check_error;
using strata::test::Problem;
using strata::test::random_problem;
using strata::test::random_view;
using strata::test::reference;
using strata::test::uniform;

namespace {

template <class T>
void check_random_problems(std::uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  int multi = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const Problem p = random_problem(rng);
    std::vector<Tensor<T>> operands;
    for (const Index& s : p.shapes) {
      operands.push_back(random_view<T>(rng, s));
    }
    INFO("trial " << trial << ": " << p.spec());
    const std::vector<T> want = reference(p, operands);
    const auto run = [&](const auto& policy) {
      switch (operands.size()) {
        case 1:
          return strata::einsum(policy, p.spec(), operands[0]);
        case 2:
          return strata::einsum(policy, p.spec(), operands[0], operands[1]);
        case 3:
          return strata::einsum(policy, p.spec(), operands[0], operands[1], operands[2]);
        default:
          return strata::einsum(policy, p.spec(), operands[0], operands[1], operands[2],
                                operands[3]);
      }
    };
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        const Tensor<T> got = run(strata::par);
        REQUIRE(got.to_vector() == want);
      });
    }
    REQUIRE(run(strata::seq).to_vector() == want);
    multi += operands.size() > 2 ? 1 : 0;
  }
  CHECK(multi > trials / 5);
}

}  // namespace

TEST_CASE("einsum agrees with a naive loop on random specs over random views",
          "[contract][property]") {
  SECTION("double") {
    check_random_problems<double>(30, 300);
  }
  SECTION("float") {
    check_random_problems<float>(31, 150);
  }
  SECTION("int (the generic kernel)") {
    check_random_problems<std::int32_t>(32, 150);
  }
  SECTION("complex128 and complex64 (BLIS's zgemm and cgemm; the generic kernel without it)") {
    check_random_problems<std::complex<double>>(33, 150);
    check_random_problems<std::complex<float>>(34, 100);
  }
}

TEST_CASE("einsum speaks NumPy's language", "[contract]") {
  const Tensor<double> a{{1, 2, 3}, {4, 5, 6}};
  const Tensor<double> b{{1, 0}, {0, 1}, {1, 1}};
  const Tensor<double> ab{{4, 5}, {10, 11}};
  CHECK(strata::einsum("ij,jk->ik", a, b) == ab);
  CHECK(strata::einsum("ij,jk", a, b) == ab);            // implicit output
  CHECK(strata::einsum(" ij , jk -> ik ", a, b) == ab);  // spaces
  CHECK(strata::einsum("ij->ji", a) == a.transpose().copy());
  CHECK(strata::einsum("ji", a) == a.transpose().copy());  // implicit: sorted
  const Tensor<double> m{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  CHECK(strata::einsum("ii", m).at({}) == 15);
  CHECK(strata::einsum("ii->i", m) == Tensor<double>::of({1, 5, 9}));
  CHECK(strata::einsum("ij->", a).at({}) == 21);
  CHECK(strata::einsum("i,j->ij", Tensor<double>::of({1, 2}), Tensor<double>::of({3, 4})) ==
        Tensor<double>{{3, 4}, {6, 8}});
  CHECK(strata::einsum("bij,bjk->bik", a.broadcast({2, 2, 3}), b.broadcast({2, 3, 2})) ==
        ab.broadcast({2, 2, 2}).copy());
  CHECK(strata::einsum("...ij,...jk->...ik", a.broadcast({3, 2, 3}), b) ==
        ab.broadcast({3, 2, 2}).copy());
  CHECK(strata::einsum("Ab,ab", a, a).shape() == Index{2, 2});  // upper case sorts first
  SECTION("the element type is the operands' common type") {
    const Tensor<float> f{{1, 2}, {3, 4}};
    const Tensor<int> i{{1, 0}, {0, 1}};
    static_assert(std::is_same_v<decltype(strata::einsum("ij,jk", f, i)), Tensor<float>>);
    static_assert(std::is_same_v<decltype(strata::einsum("ij,jk", f, a)), Tensor<double>>);
    static_assert(std::is_same_v<decltype(strata::einsum("ij,jk", i, i)), Tensor<int>>);
    CHECK(strata::einsum("ij,jk", i, i) == i);
  }
}

TEST_CASE("einsum takes sparse matrices and generated operands", "[contract]") {
  const std::vector<int> rows{0, 2, 3, 0};
  const std::vector<int> cols{1, 2, 0, 1};
  const auto k = strata::sparse_from_coo({4, 3}, {rows, cols}, std::vector<double>{1, 5, 2, 3});
  const Tensor<double> b{{1, 2}, {3, 4}, {5, 6}};
  const Tensor<double> kb{{12, 16}, {0, 0}, {25, 30}, {2, 4}};
  CHECK(strata::einsum("ij,jk->ik", k, b) == kb);                          // sparse on the left
  CHECK(strata::einsum("kj,ji->ik", b.transpose(), k.transpose()) == kb);  // on the right
  CHECK(strata::einsum("ij,j->i", k, Tensor<double>::of({1, 1, 1})) ==
        Tensor<double>::of({4, 0, 5, 2}));
  // A huge sparse matrix is never densified: O(nnz) work.
  const index_t n = 1'000'000;
  const auto big =
      strata::sparse_from_coo({n, n}, {std::vector<index_t>{5, n - 1}, std::vector<index_t>{7, 0}},
                              std::vector<double>{2, 3});
  const Tensor<double> x = strata::iota<double>({n, 2});
  const Tensor<double> y = strata::einsum("ij,jk->ik", big, x);
  CHECK(y(5, 0) == 28);  // 2 * x(7, 0), x(i, k) = 2 i + k
  CHECK(y(5, 1) == 30);
  CHECK(y(n - 1, 1) == 3);  // 3 * x(0, 1)
  CHECK(strata::sum(y) == 28 + 30 + 0 + 3);
  // Generated operands (no array) are read into one.
  CHECK(strata::einsum("ij,jk->ik", strata::iota<double>({2, 3}), b) ==
        Tensor<double>{{13, 16}, {40, 52}});
}

TEST_CASE("einsum_into writes into any view with alpha and beta", "[contract]") {
  const Tensor<double> a{{1, 2, 3}, {4, 5, 6}};
  const Tensor<double> b{{1, 0}, {0, 1}, {1, 1}};
  const Tensor<double> b3{{1, 0, 1}, {0, 1, 1}, {1, 1, 0}};
  Tensor<double> c({3, 5});
  c.fill(1.0);
  auto view = c.select({strata::Range{0, 2}, strata::Range{{}, {}, -2}});  // strided, flipped
  strata::einsum_into(view, "ij,jk->ik", a, b3);
  CHECK(view.to_vector() == std::vector<double>{4, 5, 3, 10, 11, 9});
  strata::einsum_into(view, strata::Scaling{2.0, 1.0}, "ij,jk->ik", a, b3);
  CHECK(view.to_vector() == std::vector<double>{12, 15, 9, 30, 33, 27});
  CHECK(c.select({2}).to_vector() == std::vector<double>{1, 1, 1, 1, 1});  // untouched
  SECTION("an output that overlaps an input is computed from a copy, as NumPy") {
    Tensor<double> s{{1, 2}, {3, 4}};
    strata::einsum_into(s, "ij,jk->ik", s, s);
    CHECK(s == Tensor<double>{{7, 10}, {15, 22}});
    Tensor<double> t{{1, 2}, {3, 4}};
    strata::einsum_into(t, "ij->ji", t);
    CHECK(t == Tensor<double>{{1, 3}, {2, 4}});
  }
  SECTION("beta 0 does not read the output (NaN does not propagate)") {
    Tensor<double> n({2, 2});
    n.fill(NAN);
    strata::einsum_into(n, "ij,jk->ik", a, b);
    CHECK(n == Tensor<double>{{4, 5}, {10, 11}});
  }
}

TEST_CASE("the labelled form is einsum by names", "[contract]") {
  Tensor<double> a{{1, 2, 3}, {4, 5, 6}};
  Tensor<double> b{{1, 0}, {0, 1}, {1, 1}};
  Tensor<double> c({2, 2});
  c("i,k") = a("i,j") * b("j,k");
  CHECK(c == Tensor<double>{{4, 5}, {10, 11}});
  c("i,k") += 2.0 * a("i,j") * b("j,k");
  CHECK(c == Tensor<double>{{12, 15}, {30, 33}});
  c("i,k") -= a("i,j") * b("j,k") * 2.0;
  CHECK(c == Tensor<double>{{4, 5}, {10, 11}});
  // A sum with a permutation that reads c itself: the old c, as NumPy would.
  c("i,j") = a("i,k") * b("k,j") + c("j,i");
  CHECK(c == Tensor<double>{{8, 15}, {15, 22}});
  Tensor<double> t({3, 2});
  t("j,i") = a("i,j");
  CHECK(t == a.transpose().copy());
  Tensor<double> scalar;
  scalar("") = a("mu,nu") * a("mu,nu");  // multi-letter names; a full contraction
  CHECK(scalar.at({}) == 91);
  const Tensor<double> ca = a;
  Tensor<double> d({2, 2});
  d("i,k") = ca("i,j") * b("j,k");  // a const tensor is a read-only factor
  CHECK(d == Tensor<double>{{4, 5}, {10, 11}});
  check_error<strata::ShapeError>([&] { c("i,j,k") = a("i,j") * b("j,k"); }, "labels", "rank 2");
  check_error<strata::ShapeError>([&] { c("i,z") = a("i,j") * b("j,k"); }, "einsum", "'z'");
  check_error<strata::ShapeError>([&] { c("i,k") = a("i,j") * a("j,k"); }, "einsum", "'j'");
  // Any arithmetic scale; and element references of non-const tensors still multiply numbers
  // where the labelled operators are declared (clang 14 rejected `d(0, 1) * 2.0` when the
  // scale's parameter was a plain double).
  d("i,k") = 2 * ca("i,j") * b("j,k");
  CHECK(d == Tensor<double>{{8, 10}, {20, 22}});
  CHECK(d(0, 1) * 2.0 + 0.5 * d(1, 0) == 30.0);
}

TEST_CASE("plans order operands by flops and explain their path", "[contract]") {
  // A chain whose best order is right to left: (a (b (c d)))...
  const Tensor<double> a({2, 50});
  const Tensor<double> b({50, 40});
  const Tensor<double> c({40, 30});
  const Tensor<double> d({30, 1});
  const strata::ContractionPlan plan = strata::einsum_plan("ij,jk,kl,lm->im", a, b, c, d);
  REQUIRE(plan.steps().size() == 3);
  // Brute force over the five bracketings of a 4-chain: the plan's flops are the least.
  const double ab = 2.0 * 2 * 50 * 40;
  const double bc = 2.0 * 50 * 40 * 30;
  const double cd = 2.0 * 40 * 30 * 1;
  const std::vector<double> orders{
      ab + 2.0 * 2 * 40 * 30 + 2.0 * 2 * 30 * 1,  // ((ab)c)d
      bc + 2.0 * 2 * 50 * 30 + 2.0 * 2 * 30 * 1,  // (a(bc))d
      bc + 2.0 * 50 * 30 * 1 + 2.0 * 2 * 50 * 1,  // a((bc)d)
      cd + 2.0 * 50 * 40 * 1 + 2.0 * 2 * 50 * 1,  // a(b(cd))
      ab + cd + 2.0 * 2 * 40 * 1,                 // (ab)(cd)
  };
  CHECK(plan.flops() == *std::min_element(orders.begin(), orders.end()));
  const std::string text = plan.explain();
  CHECK(text.find("einsum ij,jk,kl,lm->im -> shape [2 1]") == 0);
  CHECK(text.find("step 3") != std::string::npos);
  CHECK(text.find("gemm") != std::string::npos);
  SECTION("more operands than the optimal search takes are ordered greedily") {
    std::vector<Tensor<double>> chain;
    for (int k = 0; k < 8; ++k) {
      chain.emplace_back(Index{3, 3});
      chain.back().fill(1.0);
    }
    const auto r = strata::einsum("ab,bc,cd,de,ef,fg,gh,hi->ai", chain[0], chain[1], chain[2],
                                  chain[3], chain[4], chain[5], chain[6], chain[7]);
    CHECK(r.to_vector() == std::vector<double>(9, 2187.0));  // 3^7
  }
}

TEST_CASE("bad contractions are typed errors naming what was wrong; nothing is written",
          "[contract][errors]") {
  const Tensor<double> a({2, 3});
  const Tensor<double> b({3, 4});
  check_error<strata::ShapeError>([&] { (void)strata::einsum("ij,j%->i", a, b); }, "einsum",
                                  "'%' at position 4");
  check_error<strata::ShapeError>([&] { (void)strata::einsum("ij,jk->iz", a, b); }, "einsum",
                                  "output label 'z' appears in no input");
  check_error<strata::ShapeError>([&] { (void)strata::einsum("ij,jk->ii", a, b); }, "einsum",
                                  "'i' is named twice");
  check_error<strata::ShapeError>([&] { (void)strata::einsum("ij,jk,k->i", a, b); }, "einsum",
                                  "names 3 operands but 2 were given");
  check_error<strata::ShapeError>([&] { (void)strata::einsum("ij,jk->ik", a, a); }, "einsum",
                                  "label 'j' has extent 3 in operand 0 and 2 in operand 1");
  check_error<strata::ShapeError>([&] { (void)strata::einsum("ijk,jk", a, b); }, "einsum",
                                  "operand 0 has rank 2");
  check_error<strata::ShapeError>([&] { (void)strata::einsum("i.j,jk", a, b); }, "einsum",
                                  "'.' at position 1");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::einsum("...ij,jk->ik", a.broadcast({2, 2, 3}), b);
      },
      "einsum", "no '...' to keep them");
  check_error<strata::ShapeError>([&] { (void)strata::einsum("ii", a); }, "einsum",
                                  "extents 2 and 3");
  Tensor<double> out({2, 4});
  out.fill(7.0);
  Tensor<double> wrong({4, 2});
  check_error<strata::ShapeError>([&] { strata::einsum_into(wrong, "ij,jk->ik", a, b); },
                                  "einsum_into", "the output has shape [4 2]");
  auto broadcast = Tensor<double>::of({1, 2, 3, 4}).broadcast({2, 4});
  check_error<strata::LayoutError>([&] { strata::einsum_into(broadcast, "ij,jk->ik", a, b); },
                                   "einsum_into", "cannot be written");
  auto generated = strata::zeros<double>({2, 4});
  check_error<strata::LayoutError>([&] { strata::einsum_into(generated, "ij,jk->ik", a, b); },
                                   "einsum_into", "cannot be written");
  check_error<strata::ShapeError>([&] { strata::einsum_into(out, "ij,jk->ik", a, a); }, "einsum",
                                  "label 'j'");
  CHECK(out.to_vector() == std::vector<double>(8, 7.0));  // nothing written
  SECTION("sizes and flops that overflow int64") {
    const index_t big = index_t{1} << 40;
    const Tensor<double> wide = strata::zeros<double>({big});
    check_error<strata::ShapeError>([&] { (void)strata::einsum_plan("i,j->ij", wide, wide); },
                                    "einsum", "int64");
    const Tensor<double> tall = strata::zeros<double>({2, index_t{1} << 61});
    const Tensor<double> flat = strata::zeros<double>({index_t{1} << 61, 2});
    check_error<strata::ShapeError>([&] { (void)strata::einsum_plan("ij,jk->ik", tall, flat); },
                                    "einsum", "overflow");
  }
}

namespace {

/// One matrix product through detail::matrix_product on matrices whose six strides have the
/// signs in @p signs (bit s negative), inside padded buffers, against the plain triple loop;
/// the padding must come back untouched.
template <class T>
void check_signed_product(std::mt19937_64& rng, index_t m, index_t n, index_t k, unsigned signs,
                          T alpha, T beta) {
  using strata::detail::MatrixView;
  constexpr index_t pad = 16;
  const auto storage = [&](index_t rows, index_t columns, unsigned bits, std::vector<T>& buffer) {
    // Row-major or column-major at random, then each axis reversed where its bit is set.
    const bool row_major = (rng() & 1U) != 0;
    index_t rs = row_major ? columns : 1;
    index_t cs = row_major ? 1 : rows;
    buffer.assign(static_cast<std::size_t>(rows * columns + 2 * pad), T{0});
    for (std::size_t i = 0; i < buffer.size(); ++i) {
      buffer[i] = static_cast<T>(static_cast<int>(rng() % 9) - 4);
    }
    index_t first = pad;
    if ((bits & 1U) != 0) {
      first += (rows - 1) * rs;
      rs = -rs;
    }
    if ((bits & 2U) != 0) {
      first += (columns - 1) * cs;
      cs = -cs;
    }
    return std::tuple{first, rs, cs};
  };
  std::vector<T> a;
  std::vector<T> b;
  std::vector<T> c;
  const auto [a0, ars, acs] = storage(m, k, signs & 3U, a);
  const auto [b0, brs, bcs] = storage(k, n, (signs >> 2U) & 3U, b);
  const auto [c0, crs, ccs] = storage(m, n, (signs >> 4U) & 3U, c);
  std::vector<T> want = c;
  for (index_t i = 0; i < m; ++i) {
    for (index_t j = 0; j < n; ++j) {
      T sum{0};
      for (index_t p = 0; p < k; ++p) {
        sum = static_cast<T>(sum + a[static_cast<std::size_t>(a0 + i * ars + p * acs)] *
                                       b[static_cast<std::size_t>(b0 + p * brs + j * bcs)]);
      }
      T& x = want[static_cast<std::size_t>(c0 + i * crs + j * ccs)];
      x = static_cast<T>(alpha * sum + (beta == T{0} ? T{0} : beta * x));
    }
  }
  strata::detail::matrix_product<T>(m, n, k, alpha, MatrixView<const T>{a.data() + a0, ars, acs},
                                    MatrixView<const T>{b.data() + b0, brs, bcs}, beta,
                                    MatrixView<T>{c.data() + c0, crs, ccs}, 1);
  INFO("m " << m << " n " << n << " k " << k << " signs " << signs << " alpha " << alpha << " beta "
            << beta);
  CHECK(c == want);  // small integers: exact in any summation order
}

}  // namespace

TEST_CASE("matrix products take negative strides on every operand, padding untouched",
          "[contract][gemm]") {
  // BLIS 0.9 computes wrong values and writes outside its matrices with negative strides under
  // some sub-configurations; detail::gemm walks pairs of them forwards and copies the rest.
  std::mt19937_64 rng(20261128);
  std::uniform_int_distribution<index_t> extent(1, 40);
  for (unsigned signs = 0; signs < 64; ++signs) {
    for (int trial = 0; trial < 6; ++trial) {
      const index_t m = trial == 0 ? 1 : extent(rng);
      const index_t n = trial == 1 ? 1 : extent(rng);
      const index_t k = trial == 2 ? 1 : extent(rng);
      const double beta = trial % 3 == 0 ? 0.0 : (trial % 3 == 1 ? 1.0 : -2.0);
      check_signed_product<double>(rng, m, n, k, signs, 2.0, beta);
      check_signed_product<float>(rng, m, n, k, signs, -1.0F, static_cast<float>(beta));
    }
  }
}

TEST_CASE("einsum keeps a sparse operand's compressed arrays until the operand changes",
          "[contract]") {
  // The arrays are kept by the operand's buffer, per view: repeated products read them again;
  // a change of a stored value, an insert, an erasure or another view gives the new product.
  auto k = strata::sparse<double>({3, 4});
  k(0, 1) = 2.0;
  k(2, 3) = 5.0;
  const Tensor<double> x = Tensor<double>::of({1, 10, 100, 1000});
  const auto product = [&](const Tensor<double>& op) { return strata::einsum("ij,j->i", op, x); };
  CHECK(product(k) == Tensor<double>::of({20, 0, 5000}));
  CHECK(product(k) == Tensor<double>::of({20, 0, 5000}));
  CHECK(strata::einsum("ij,jk->ik", k, x.reshape({4, 1})).reshape({3}) ==
        Tensor<double>::of({20, 0, 5000}));
  k(0, 1) = 3.0;  // a stored value
  CHECK(product(k) == Tensor<double>::of({30, 0, 5000}));
  k(1, 2) = 1.0;  // an insert
  CHECK(product(k) == Tensor<double>::of({30, 100, 5000}));
  k(2, 3) = 0.0;  // an erasure
  CHECK(product(k) == Tensor<double>::of({30, 100, 0}));
  // Other views of the same buffer: reversed rows, a block of columns, the transpose.
  CHECK(product(k.reverse(Index{0})) == Tensor<double>::of({0, 100, 30}));
  CHECK(strata::einsum("ij,j->i", k.select({strata::Range{}, strata::Range{1, 3}}),
                       Tensor<double>::of({1, 10})) == Tensor<double>::of({3, 10, 0}));
  CHECK(strata::einsum("ji,j->i", k, Tensor<double>::of({1, 10, 100})) ==
        Tensor<double>::of({0, 3, 10, 0}));
}

TEST_CASE("einsum multiplies sparse tensors of any rank by their stored entries", "[contract]") {
  // Each group of labels is one axis of the matrix product: a sparse operator applied along
  // one mode of a dense tensor, a sparse 3-tensor contracted over two modes, batches, sparse
  // on either side, views of the stored order, against the naive loop.
  std::mt19937_64 rng(31);
  const std::vector<std::tuple<std::string, Index, Index>> cases{
      {"ij,jkl->ikl", {5, 4}, {4, 3, 2}},
      {"ijk,kl->ijl", {3, 4, 5}, {5, 2}},
      {"ijk,jkl->il", {4, 3, 5}, {3, 5, 2}},
      {"lk,ijk->lij", {3, 4}, {2, 5, 4}},
      {"abc,cbd->ad", {2, 3, 4}, {4, 3, 5}},
      {"ij,jkl->kil", {6, 0}, {0, 2, 3}},
      // batch labels (in both operands and the result), also between the others
      {"bij,bjk->bik", {3, 4, 5}, {3, 5, 2}},
      {"ibj,jbk->bki", {4, 3, 5}, {5, 3, 2}},
      {"abij,bjak->baki", {2, 3, 4, 5}, {3, 5, 2, 2}},
      {"bij,bjk->bik", {0, 4, 5}, {0, 5, 2}},
      // a result whose column labels do not coalesce: computed apart, then added in
      {"ij,jkl->lik", {3, 4}, {4, 2, 5}},
      // matrix-vector products (one free group empty): one sum per line
      {"ij,j->i", {5, 4}, {4}},
      {"j,ij->i", {4}, {5, 4}},
      {"ij,i->j", {5, 4}, {5}},
      {"ijk,jk->i", {3, 4, 5}, {4, 5}},
      {"bij,bj->bi", {3, 4, 5}, {3, 5}},
      {"ij,j->i", {0, 4}, {4}},
  };
  for (const auto& [spec, sa, sb] : cases) {
    for (int trial = 0; trial < 6; ++trial) {
      Problem p;
      const auto arrow = spec.find("->");
      const auto comma = spec.find(',');
      p.inputs = {spec.substr(0, comma), spec.substr(comma + 1, arrow - comma - 1)};
      p.output = spec.substr(arrow + 2);
      p.shapes = {sa, sb};
      std::vector<Tensor<double>> dense{random_view<double>(rng, sa), random_view<double>(rng, sb)};
      const std::vector<double> want = reference(p, dense);
      const std::size_t which = static_cast<std::size_t>(trial % 2);  // the sparse operand
      std::vector<Tensor<double>> operands = dense;
      if (trial < 4) {
        operands[which].rebind(strata::to_sparse(dense[which]));
      } else {  // stored with the axes reversed, read through the reversing view
        Index reversed(static_cast<std::size_t>(dense[which].rank()));
        std::iota(reversed.rbegin(), reversed.rend(), index_t{0});
        operands[which].rebind(
            Tensor<double>(strata::to_sparse(Tensor<double>(dense[which].transpose(reversed))))
                .transpose(reversed));
      }
      INFO(spec << " trial " << trial);
      REQUIRE(strata::sparse_buffer(operands[which]) != nullptr);
      REQUIRE(strata::einsum(spec, operands[0], operands[1]).to_vector() == want);
      REQUIRE(strata::einsum(strata::seq, spec, operands[0], operands[1]).to_vector() == want);
      // Into a strided view, with alpha and beta.
      const Index out_shape = strata::einsum(spec, dense[0], dense[1]).shape();
      Tensor<double> full(out_shape);
      full.fill(1.0);
      Tensor<double> into = full.reverse(Index{0});
      strata::einsum_into(into, strata::Scaling{2.0, 3.0}, spec, operands[0], operands[1]);
      std::vector<double> scaled = want;
      for (double& x : scaled) {
        x = 2 * x + 3;
      }
      REQUIRE(into.to_vector() == scaled);
    }
  }
  // A sparse operator of a million rows times a vector (its stored entries only).
  const index_t n = 1'000'000;
  const auto op =
      strata::sparse_from_coo({n, n}, {std::vector<index_t>{5, n - 1}, std::vector<index_t>{7, 0}},
                              std::vector<double>{2, 3});
  const Tensor<double> v = strata::iota<double>({n});
  const Tensor<double> w = strata::einsum("ij,j->i", op, v);
  CHECK(w(5) == 2 * 7);
  CHECK(w(n - 1) == 0);  // 3 * v(0)
  CHECK(strata::sum(w) == 14);
  Tensor<double> u({n});
  u.fill(1.0);
  strata::einsum_into(u, strata::Scaling{2.0, -1.0}, "j,ij->i", v, op);
  CHECK(u(5) == 2 * 2 * 7 - 1);
  CHECK(u(0) == -1);
  // A sparse operator of a million rows applied along the first mode of a dense tensor:
  // densified, it would need 8 TB.
  const Tensor<double> x = strata::iota<double>({n, 2, 3});  // x(j, k, l) = 6 j + 3 k + l
  const Tensor<double> y = strata::einsum("ij,jkl->ikl", op, x);
  CHECK(y.shape() == Index{n, 2, 3});
  CHECK(y(5, 1, 2) == 2 * (6 * 7 + 3 + 2));
  CHECK(y(n - 1, 0, 1) == 3 * 1);
  CHECK(strata::sum(y) == 2 * (6 * 7 * 6 + 15) + 3 * 15);
  // A batch of two such operators, one per batch index.
  const auto ops = strata::sparse_from_coo(
      {2, n, n},
      {std::vector<index_t>{0, 1}, std::vector<index_t>{5, 5}, std::vector<index_t>{7, 7}},
      std::vector<double>{2, 3});
  const Tensor<double> xs = strata::iota<double>({2, n, 2});  // xs(b, j, k) = 2 n b + 2 j + k
  const Tensor<double> ys = strata::einsum("bij,bjk->bik", ops, xs);
  CHECK(ys(0, 5, 1) == 2 * (2 * 7 + 1));
  CHECK(ys(1, 5, 0) == 3 * (2 * n + 2 * 7));
  CHECK(strata::sum(ys) == 2 * (2 * 7 * 2 + 1) + 3 * (2 * (2 * n + 2 * 7) + 1));
}

}  // namespace test_contract_einsum
