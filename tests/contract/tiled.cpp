// Tests of strata/contract/tiled.hpp: contractions of tiled tensors (LayoutTensor) tile by tile,
// against the naive loop on random specs with random tilings, into tiled and dense destinations,
// with dense operands beside tiled ones, and their bad inputs.
#include "strata/contract/contract.hpp"

#include "check_error.hpp"
#include "random_problems.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace test_contract_tiled {

using strata::BlockSparseTensor;
using strata::Index;
using strata::index_t;
using strata::Layout;
using strata::LayoutTensor;
using strata::Scaling;
using strata::Smooth;
using strata::Tensor;
using strata::test::check_error;
using strata::test::Problem;
using strata::test::random_problem;
using strata::test::random_view;
using strata::test::reference;
using strata::test::uniform;
using strata::test::with_operands;

namespace {

/// A random layout of @p shape: tiled with tiles of 1 to 4 (often not dividing the extents),
/// or row-major, or column-major.
Layout random_layout(std::mt19937_64& rng, const Index& shape) {
  const index_t roll = uniform(rng, 0, 5);
  if (shape.empty() || roll == 0) {
    return Layout::row_major(Smooth(shape));
  }
  if (roll == 1) {
    return Layout::column_major(Smooth(shape));
  }
  Index tile;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    tile.push_back(uniform(rng, 1, 4));
  }
  return Layout::tiled(Smooth(shape), tile);
}

template <class T, class P>
LayoutTensor<T> run(const P& policy, const std::string& spec,
                    const std::vector<LayoutTensor<T>>& x) {
  return with_operands(x, [&](const auto&... op) { return strata::einsum(policy, spec, op...); });
}

template <class T>
void check_random_tilings(std::uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  int multi = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const Problem p = random_problem(rng);
    std::vector<Tensor<T>> views;
    std::vector<LayoutTensor<T>> tiled;
    for (const Index& s : p.shapes) {
      views.push_back(random_view<T>(rng, s));
      tiled.push_back(
          LayoutTensor<T>::from_dense(Tensor<T>(views.back().copy()), random_layout(rng, s)));
    }
    INFO("trial " << trial << ": " << p.spec());
    const std::vector<T> want = reference(p, views);
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        const LayoutTensor<T> got = run(strata::par, p.spec(), tiled);
        REQUIRE(got.to_dense().to_vector() == want);
      });
    }
    REQUIRE(run(strata::seq, p.spec(), tiled).to_dense().to_vector() == want);
    // Into a destination of its own tiling: out = 2 * einsum + 3 * out.
    const Index shape = run(strata::seq, p.spec(), tiled).shape();
    const Tensor<T> before = random_view<T>(rng, shape).copy();
    LayoutTensor<T> out = LayoutTensor<T>::from_dense(before, random_layout(rng, shape));
    with_operands(tiled, [&](const auto&... op) {
      strata::einsum_into(out, Scaling{2, 3}, p.spec(), op...);
    });
    std::vector<T> scaled = before.to_vector();
    for (std::size_t i = 0; i < scaled.size(); ++i) {
      scaled[i] = static_cast<T>(2 * want[i] + 3 * scaled[i]);
    }
    REQUIRE(out.to_dense().to_vector() == scaled);
    multi += p.inputs.size() > 2 ? 1 : 0;
  }
  CHECK(multi > trials / 5);
}

/// A dense matrix of small integers.
Tensor<double> matrix(std::mt19937_64& rng, index_t m, index_t n) {
  Tensor<double> t({m, n});
  for (auto&& x : t) {
    x = static_cast<double>(uniform(rng, -4, 4));
  }
  return t;
}

/// `"abc"` as label names, `"a,b,c"`.
std::string names_of(const std::string& letters) {
  std::string out;
  for (const char c : letters) {
    out += out.empty() ? std::string(1, c) : std::string{',', c};
  }
  return out;
}

/// The labelled product of a random problem's 1 to 4 operands, with a scale.
template <class X>
auto labelled_product(double scale, std::vector<X>& x, const std::vector<std::string>& n) {
  switch (x.size()) {
    case 1:
      return scale * x[0](n[0]);
    case 2:
      return scale * x[0](n[0]) * x[1](n[1]);
    case 3:
      return scale * x[0](n[0]) * x[1](n[1]) * x[2](n[2]);
    default:
      return scale * x[0](n[0]) * x[1](n[1]) * x[2](n[2]) * x[3](n[3]);
  }
}

}  // namespace

TEST_CASE("tiled einsum agrees with a naive loop on random specs and random tilings",
          "[contract][property]") {
  SECTION("double") {
    check_random_tilings<double>(40, 150);
  }
  SECTION("float") {
    check_random_tilings<float>(41, 60);
  }
  SECTION("int (the generic kernel)") {
    check_random_tilings<std::int32_t>(42, 60);
  }
}

TEST_CASE("a product of tiled matrices is tiled like its operands", "[contract]") {
  std::mt19937_64 rng(7);
  const Tensor<double> a = matrix(rng, 13, 10);
  const Tensor<double> b = matrix(rng, 10, 9);
  Tensor<double> want({13, 9});  // the plain triple loop
  for (index_t i = 0; i < 13; ++i) {
    for (index_t k = 0; k < 9; ++k) {
      for (index_t j = 0; j < 10; ++j) {
        want(i, k) += a(i, j) * b(j, k);
      }
    }
  }
  // Tiles that do not divide the extents, and cut the summed label at different places.
  const auto ta = LayoutTensor<double>::from_dense(a, Layout::tiled(Smooth{13, 10}, {4, 3}));
  const auto tb = LayoutTensor<double>::from_dense(b, Layout::tiled(Smooth{10, 9}, {4, 5}));
  const LayoutTensor<double> c = strata::einsum("ij,jk->ik", ta, tb);
  CHECK(c.layout() == Layout::tiled(Smooth{13, 9}, {4, 5}));
  CHECK(c.to_dense().to_vector() == want.to_vector());

  SECTION("dense operands beside tiled ones, any view, of another element type") {
    const Tensor<float> bt = strata::evaluate(strata::astype<float>(b.transpose()));
    // b given as the transpose of a float matrix, reversed twice: strides of every sign.
    const Tensor<const float> view = bt.reverse(Index{0}).reverse(Index{0}).transpose();
    const auto mixed = strata::einsum("ij,jk->ik", ta, view);
    static_assert(std::is_same_v<decltype(mixed), const LayoutTensor<double>>);
    CHECK(mixed.layout() == Layout::tiled(Smooth{13, 9}, {4, 9}));
    CHECK(mixed.to_dense().to_vector() == want.to_vector());
  }
  SECTION("into a dense view, with alpha and beta") {
    Tensor<double> out_storage({9, 13});
    out_storage.fill(1.0);
    Tensor<double> out = out_storage.transpose();
    strata::einsum_into(out, Scaling{2.0, -1.0}, "ij,jk->ik", ta, tb);
    for (index_t i = 0; i < 13; ++i) {
      for (index_t k = 0; k < 9; ++k) {
        REQUIRE(out(i, k) == 2.0 * want(i, k) - 1.0);
      }
    }
  }
  SECTION("a chain of three: pairwise, each intermediate tiled") {
    const Tensor<double> d = matrix(rng, 9, 5);
    const auto td = LayoutTensor<double>::from_dense(d, Layout::tiled(Smooth{9, 5}, {2, 2}));
    const LayoutTensor<double> chain = strata::einsum("ij,jk,kl->il", ta, tb, td);
    Tensor<double> abd({13, 5});
    for (index_t i = 0; i < 13; ++i) {
      for (index_t l = 0; l < 5; ++l) {
        for (index_t k = 0; k < 9; ++k) {
          abd(i, l) += want(i, k) * d(k, l);
        }
      }
    }
    CHECK(chain.to_dense().to_vector() == abd.to_vector());
  }
  SECTION("an output that is an operand is read from a copy") {
    const Tensor<double> s = matrix(rng, 6, 6);
    auto ts = LayoutTensor<double>::from_dense(s, Layout::tiled(Smooth{6, 6}, {4, 4}));
    strata::einsum_into(ts, "ij,jk->ik", ts, ts);
    Tensor<double> ss({6, 6});
    for (index_t i = 0; i < 6; ++i) {
      for (index_t k = 0; k < 6; ++k) {
        for (index_t j = 0; j < 6; ++j) {
          ss(i, k) += s(i, j) * s(j, k);
        }
      }
    }
    CHECK(ts.to_dense().to_vector() == ss.to_vector());
  }
}

TEST_CASE("tiled contractions reject bad input and write nothing", "[contract]") {
  std::mt19937_64 rng(8);
  const auto ta =
      LayoutTensor<double>::from_dense(matrix(rng, 6, 4), Layout::tiled(Smooth{6, 4}, {4, 4}));
  const auto tb =
      LayoutTensor<double>::from_dense(matrix(rng, 5, 3), Layout::tiled(Smooth{5, 3}, {2, 2}));
  LayoutTensor<double> out(Layout::tiled(Smooth{6, 3}, {2, 2}));
  const auto before = out.to_dense().to_vector();
  check_error<strata::ShapeError>([&] { (void)strata::einsum("ij,jk->ik", ta, tb); }, "einsum",
                                  "label 'j' has extent 4 in operand 0 and 5 in operand 1");
  check_error<strata::ShapeError>([&] { (void)strata::einsum("ij,j%->ik", ta, tb); }, "einsum",
                                  "character '%' at position 4");
  const auto tc =
      LayoutTensor<double>::from_dense(matrix(rng, 4, 2), Layout::tiled(Smooth{4, 2}, {3, 1}));
  check_error<strata::ShapeError>([&] { strata::einsum_into(out, "ij,jk->ik", ta, tc); },
                                  "einsum_into", "the output has shape [6 3]");
  CHECK(out.to_dense().to_vector() == before);
  Tensor<double> broadcast = Tensor<double>({1, 2}).broadcast(Index{6, 2});
  check_error<strata::LayoutError>([&] { strata::einsum_into(broadcast, "ij,jk->ik", ta, tc); },
                                   "einsum_into", "cannot be written");
}

TEST_CASE("the labelled form takes tiled tensors as factors and as destinations",
          "[contract][property]") {
  // TiledArray's spelling over random specs: tiled factors into tiled, dense and block-sparse
  // destinations, `=` and `+=` with a scale, against the naive loop.
  std::mt19937_64 rng(45);
  for (int trial = 0; trial < 120; ++trial) {
    const Problem p = random_problem(rng);
    std::vector<Tensor<double>> views;
    std::vector<LayoutTensor<double>> tiled;
    std::vector<std::string> names;
    for (std::size_t k = 0; k < p.shapes.size(); ++k) {
      views.push_back(random_view<double>(rng, p.shapes[k]));
      tiled.push_back(LayoutTensor<double>::from_dense(Tensor<double>(views.back().copy()),
                                                       random_layout(rng, p.shapes[k])));
      names.push_back(names_of(p.inputs[k]));
    }
    INFO("trial " << trial << ": " << p.spec());
    const std::vector<double> want = reference(p, views);
    // The plan's shape: a label whose operands all have extent 1 there has extent 1.
    const Index out_shape = with_operands(views, [&](const auto&... op) {
      return strata::einsum_plan(p.spec(), op...).shape();
    });
    const Tensor<double> before = random_view<double>(rng, out_shape).copy();
    std::vector<double> added = before.to_vector();
    for (std::size_t i = 0; i < added.size(); ++i) {
      added[i] += 3 * want[i];
    }
    const std::string o = names_of(p.output);

    const Layout layout = random_layout(rng, out_shape);
    auto c = LayoutTensor<double>::from_dense(before, layout);
    c(o) = labelled_product(1.0, tiled, names);
    REQUIRE(c.to_dense().to_vector() == want);
    auto d = LayoutTensor<double>::from_dense(before, layout);
    d(o) += labelled_product(3.0, tiled, names);
    REQUIRE(d.to_dense().to_vector() == added);

    Tensor<double> dense = before.copy();
    dense(o) += labelled_product(3.0, tiled, names);
    REQUIRE(dense.to_vector() == added);

    auto sparse = BlockSparseTensor<double>::from_dense(before, random_layout(rng, out_shape));
    sparse(o) += labelled_product(3.0, tiled, names);
    REQUIRE(sparse.to_dense().to_vector() == added);
  }
}

TEST_CASE("labelled products mix dense, tiled and block-sparse tensors", "[contract]") {
  std::mt19937_64 rng(46);
  const Tensor<double> a = matrix(rng, 7, 5);
  const Tensor<double> b = matrix(rng, 5, 6);
  Tensor<double> ab({7, 6});  // the plain triple loop
  for (index_t i = 0; i < 7; ++i) {
    for (index_t k = 0; k < 6; ++k) {
      for (index_t j = 0; j < 5; ++j) {
        ab(i, k) += a(i, j) * b(j, k);
      }
    }
  }
  auto ta = LayoutTensor<double>::from_dense(a, Layout::tiled(Smooth{7, 5}, {3, 2}));
  const auto tb = LayoutTensor<double>::from_dense(b, Layout::tiled(Smooth{5, 6}, {2, 4}));
  LayoutTensor<double> tc(Layout::tiled(Smooth{7, 6}, {4, 4}));

  SECTION("a dense factor beside a tiled one, a const tiled factor") {
    tc("i,k") = ta("i,j") * b("j,k");
    CHECK(tc.to_dense().to_vector() == ab.to_vector());
    const LayoutTensor<double>& read_only = ta;
    tc("i,k") -= 2.0 * read_only("i,j") * tb("j,k");
    for (index_t i = 0; i < 7; ++i) {
      for (index_t k = 0; k < 6; ++k) {
        REQUIRE(tc.at({i, k}) == -ab(i, k));
      }
    }
  }
  SECTION("a sum with a permuted tiled term, into a dense destination") {
    const Tensor<double> d = matrix(rng, 6, 7);
    const auto td = LayoutTensor<double>::from_dense(d, Layout::tiled(Smooth{6, 7}, {5, 5}));
    Tensor<double> out({7, 6});
    out("i,k") = ta("i,j") * tb("j,k") + td("k,i");
    for (index_t i = 0; i < 7; ++i) {
      for (index_t k = 0; k < 6; ++k) {
        REQUIRE(out(i, k) == ab(i, k) + d(k, i));
      }
    }
  }
  SECTION("a term that reads the tiled destination reads what it held") {
    const Tensor<double> s = matrix(rng, 5, 5);
    auto ts = LayoutTensor<double>::from_dense(s, Layout::tiled(Smooth{5, 5}, {2, 3}));
    ts("i,k") = ts("i,j") * ts("j,k") + ts("k,i");
    for (index_t i = 0; i < 5; ++i) {
      for (index_t k = 0; k < 5; ++k) {
        double want = s(k, i);
        for (index_t j = 0; j < 5; ++j) {
          want += s(i, j) * s(j, k);
        }
        REQUIRE(ts.at({i, k}) == want);
      }
    }
  }
  SECTION("element types: float tiles with double tiles, into a float destination") {
    const auto fa = LayoutTensor<float>::from_dense(strata::evaluate(strata::astype<float>(a)),
                                                    Layout::tiled(Smooth{7, 5}, {3, 3}));
    LayoutTensor<float> fc(Layout::tiled(Smooth{7, 6}, {2, 6}));
    fc("i,k") = fa("i,j") * tb("j,k");
    for (index_t i = 0; i < 7; ++i) {
      for (index_t k = 0; k < 6; ++k) {
        REQUIRE(fc.at({i, k}) == static_cast<float>(ab(i, k)));
      }
    }
  }
  SECTION("a block-sparse factor: absent tiles read as zeros") {
    Tensor<double> banded = a.copy();  // rows 3-6 of columns 0-1 zero: two tiles absent
    for (index_t i = 3; i < 7; ++i) {
      banded(i, 0) = 0;
      banded(i, 1) = 0;
    }
    const auto sa = BlockSparseTensor<double>::from_dense(banded, ta.layout());
    REQUIRE(sa.n_stored() == sa.n_tiles() - 2);
    BlockSparseTensor<double> sc(Layout::tiled(Smooth{7, 6}, {3, 3}));
    sc("i,k") = sa("i,j") * tb("j,k");
    const Tensor<double> got = sc.to_dense();
    for (index_t i = 0; i < 7; ++i) {
      for (index_t k = 0; k < 6; ++k) {
        double want = 0;
        for (index_t j = 0; j < 5; ++j) {
          want += banded(i, j) * b(j, k);
        }
        REQUIRE(got(i, k) == want);
      }
    }
  }
}

TEST_CASE("labelled tiled assignments reject bad input and write nothing", "[contract]") {
  std::mt19937_64 rng(47);
  auto ta =
      LayoutTensor<double>::from_dense(matrix(rng, 6, 4), Layout::tiled(Smooth{6, 4}, {4, 3}));
  auto tb =
      LayoutTensor<double>::from_dense(matrix(rng, 4, 3), Layout::tiled(Smooth{4, 3}, {2, 2}));
  auto tc =
      LayoutTensor<double>::from_dense(matrix(rng, 6, 3), Layout::tiled(Smooth{6, 3}, {2, 2}));
  const auto before = tc.to_dense().to_vector();
  check_error<strata::ShapeError>([&] { tc("i,k") = ta("i,j,x") * tb("j,k"); }, "labels",
                                  "'i,j,x' names 3 axes of a tensor of rank 2");
  check_error<strata::ShapeError>([&] { tc("i,z") = ta("i,j") * tb("j,k"); }, "einsum", "'z'");
  check_error<strata::ShapeError>([&] { tc("i,k") = ta("i,j") * ta("j,k"); }, "einsum", "'j'");
  // The first term is fine; in the second, label k has extent 4 where the output's is 3:
  // nothing is written, not even the first term.
  check_error<strata::ShapeError>([&] { tc("i,k") = ta("i,j") * tb("j,k") + ta("i,k"); },
                                  "labelled assignment", "the output has shape [6 3]");
  CHECK(tc.to_dense().to_vector() == before);
  Tensor<double> broadcast = Tensor<double>({1, 3}).broadcast(Index{6, 3});
  check_error<strata::LayoutError>([&] { broadcast("i,k") = ta("i,j") * tb("j,k"); },
                                   "labelled assignment", "cannot be written");
  CHECK(tc.to_dense().to_vector() == before);
}

}  // namespace test_contract_tiled
