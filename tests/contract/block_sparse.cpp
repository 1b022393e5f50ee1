// Tests of strata/tensor/block_sparse.hpp and of block-sparse contractions
// (strata/contract/tiled.hpp): the tensor's tiles, norms and errors; einsum against the naive
// loop on random specs with random tilings and random zero tiles (exact at threshold 0); the
// tiles a product stores; screening with a threshold against the dense product, the error
// within the documented bound.
#include "strata/contract/contract.hpp"

#include "check_error.hpp"
#include "random_problems.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace test_contract_block_sparse {

using strata::BlockSparseTensor;
using strata::Index;
using strata::index_t;
using strata::Layout;
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

/// A random tiling of @p shape (tiles of 1 to 4, often not dividing the extents), or one tile.
Layout random_tiles(std::mt19937_64& rng, const Index& shape) {
  if (shape.empty() || uniform(rng, 0, 4) == 0) {
    return Layout::row_major(Smooth(shape));
  }
  Index tile;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    tile.push_back(uniform(rng, 1, 4));
  }
  return Layout::tiled(Smooth(shape), tile);
}

/// A copy of @p values with about half the tiles of @p layout set to zero.
template <class T>
Tensor<T> zero_some_tiles(std::mt19937_64& rng, const Tensor<T>& values, const Layout& layout) {
  Tensor<T> out = values.copy();
  for (index_t p = 0; p < layout.n_pieces(); ++p) {
    if (uniform(rng, 0, 1) == 0) {
      out.select(strata::detail::box_selectors(layout.piece(p))).fill(T{0});
    }
  }
  return out;
}

template <class T, class P>
BlockSparseTensor<T> run(const P& policy, const std::string& spec,
                         const std::vector<BlockSparseTensor<T>>& x) {
  return with_operands(x, [&](const auto&... op) { return strata::einsum(policy, spec, op...); });
}

template <class T>
void check_random_sparse(std::uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  int dropped = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const Problem p = random_problem(rng);
    std::vector<Tensor<T>> values;
    std::vector<BlockSparseTensor<T>> sparse;
    for (const Index& s : p.shapes) {
      const Layout layout = random_tiles(rng, s);
      values.push_back(zero_some_tiles(rng, Tensor<T>(random_view<T>(rng, s).copy()), layout));
      sparse.push_back(BlockSparseTensor<T>::from_dense(values.back(), layout));
      dropped += sparse.back().n_stored() < sparse.back().n_tiles() ? 1 : 0;
    }
    INFO("trial " << trial << ": " << p.spec());
    const std::vector<T> want = reference(p, values);
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        const BlockSparseTensor<T> got = run(strata::par, p.spec(), sparse);
        REQUIRE(got.to_dense().to_vector() == want);
      });
    }
    REQUIRE(run(strata::seq, p.spec(), sparse).to_dense().to_vector() == want);
    // Into a block-sparse destination with some tiles stored: out = 2 * einsum + 3 * out.
    const Index shape = run(strata::seq, p.spec(), sparse).shape();
    const Layout layout = random_tiles(rng, shape);
    const Tensor<T> before =
        zero_some_tiles(rng, Tensor<T>(random_view<T>(rng, shape).copy()), layout);
    auto out = BlockSparseTensor<T>::from_dense(before, layout);
    with_operands(sparse, [&](const auto&... op) {
      strata::einsum_into(out, Scaling{2, 3}, p.spec(), op...);
    });
    std::vector<T> scaled = before.to_vector();
    for (std::size_t i = 0; i < scaled.size(); ++i) {
      scaled[i] = static_cast<T>(2 * want[i] + 3 * scaled[i]);
    }
    REQUIRE(out.to_dense().to_vector() == scaled);
    // And into a dense view.
    Tensor<T> dense = before.copy();
    with_operands(sparse, [&](const auto&... op) {
      strata::einsum_into(dense, Scaling{2, 3}, p.spec(), op...);
    });
    REQUIRE(dense.to_vector() == scaled);
  }
  CHECK(dropped > trials / 2);
}

/// A dense matrix of small integers.
Tensor<double> matrix(std::mt19937_64& rng, index_t m, index_t n) {
  Tensor<double> t({m, n});
  for (auto&& x : t) {
    x = static_cast<double>(uniform(rng, -4, 4));
  }
  return t;
}

/// The Frobenius norm of the box [r0, r0 + m) x [c0, c0 + n) of a matrix (the test's own loop).
double box_norm(const Tensor<double>& a, index_t r0, index_t c0, index_t m, index_t n) {
  double s = 0;
  for (index_t i = r0; i < std::min(r0 + m, a.shape()[0]); ++i) {
    for (index_t j = c0; j < std::min(c0 + n, a.shape()[1]); ++j) {
      s += a(i, j) * a(i, j);
    }
  }
  return std::sqrt(s);
}

}  // namespace

TEST_CASE("block-sparse einsum agrees with a naive loop on random specs, tilings and zero tiles",
          "[contract][property]") {
  SECTION("double") {
    check_random_sparse<double>(50, 150);
  }
  SECTION("float") {
    check_random_sparse<float>(51, 50);
  }
  SECTION("int (the generic kernel)") {
    check_random_sparse<std::int32_t>(52, 50);
  }
}

TEST_CASE("a block-sparse tensor stores its non-zero tiles only", "[contract]") {
  // 5 x 7 in tiles of 2 x 3: a grid of 3 x 3 tiles; the values non-zero in tiles 0, 4 and 8
  // (the block diagonal) and in one element of tile 5.
  Tensor<double> dense({5, 7});
  for (index_t i = 0; i < 5; ++i) {
    for (index_t j = 0; j < 7; ++j) {
      if (i / 2 == j / 3) {
        dense(i, j) = static_cast<double>(1 + i * 7 + j);
      }
    }
  }
  dense(3, 6) = 0.5;  // tile (1, 2) = 5
  const Layout layout = Layout::tiled(Smooth{5, 7}, {2, 3});
  auto s = BlockSparseTensor<double>::from_dense(dense, layout);
  CHECK(s.n_tiles() == 9);
  CHECK(s.stored() == std::vector<index_t>{0, 4, 5, 8});
  CHECK(s.density() == Approx(15.0 / 35.0));  // 6 + 6 + 2 + 1 elements
  CHECK(s.to_dense().to_vector() == dense.to_vector());
  CHECK(s.to_tiled().to_dense().to_vector() == dense.to_vector());
  CHECK(s.at(Index{3, 6}) == 0.5);
  CHECK(s.at(Index{4, 0}) == 0.0);  // tile 6, not stored
  CHECK(s.at(Index{4, 6}) == dense(4, 6));
  CHECK(s.tile_norm(5) == 0.5);
  CHECK(s.tile_norm(1) == 0.0);
  // A tile is a row-major tensor of its own, indexed from its corner, absolute indices logical.
  const Tensor<double> t4 = s.piece(4);
  CHECK(t4.shape() == Index{2, 3});
  CHECK(t4(1, 2) == dense(3, 5));
  CHECK(t4.origin() == Index{2, 3});
  CHECK(s.piece(Index{2, 2}).shape() == Index{1, 1});  // the corner tile: clipped

  SECTION("a threshold drops small tiles, truncate drops them later") {
    const auto t = BlockSparseTensor<double>::from_dense(dense, layout, 0.5);
    CHECK(t.stored() == std::vector<index_t>{0, 4, 8});  // norm 0.5 is not above 0.5
    CHECK(t.threshold() == 0.5);
    auto u = s.copy();
    CHECK(u.truncate(0.5) == 1);
    CHECK(u.stored() == std::vector<index_t>{0, 4, 8});
    CHECK(s.n_stored() == 4);  // the copy is independent
  }
  SECTION("insert stores a zero tile, erase drops one; copies of the handle share them") {
    BlockSparseTensor<double> handle = s;
    Tensor<double> t1 = s.insert(1);
    CHECK(t1.shape() == Index{2, 3});
    CHECK(t1.to_vector() == std::vector<double>(6, 0.0));
    t1(0, 1) = 9;
    CHECK(handle.at(Index{0, 4}) == 9);
    CHECK(s.insert(1)(0, 1) == 9);  // inserting a stored tile keeps it
    s.erase(5);
    CHECK(handle.stored() == std::vector<index_t>{0, 1, 4, 8});
    CHECK(handle.at(Index{3, 6}) == 0.0);
  }
  SECTION("bad input: typed errors naming the operation, nothing changed") {
    check_error<strata::LayoutError>([&] { (void)s.piece(1); }, "BlockSparseTensor::piece",
                                     "tile 1 is not stored");
    check_error<strata::IndexError>([&] { (void)s.piece(9); }, "BlockSparseTensor::piece",
                                    "tile 9 is outside [0, 9)");
    check_error<strata::IndexError>([&] { (void)s.insert(-1); }, "BlockSparseTensor::insert",
                                    "tile -1");
    check_error<strata::IndexError>([&] { (void)s.truncate(-1.0); }, "BlockSparseTensor::truncate",
                                    "threshold -1");
    check_error<strata::IndexError>([&] { s.set_threshold(std::nan("")); },
                                    "BlockSparseTensor::set_threshold", "threshold nan");
    CHECK_THROWS_AS(s.at(Index{5, 0}), strata::IndexError);
    check_error<strata::ShapeError>(
        [&] {
          (void)BlockSparseTensor<double>::from_dense(Tensor<double>({5, 6}), layout);
        },
        "BlockSparseTensor::from_dense", "dense shape [5 6]");
    CHECK(s.stored() == std::vector<index_t>{0, 4, 5, 8});
    CHECK(s.threshold() == 0.0);
    CHECK(s.to_dense().to_vector() == dense.to_vector());
  }
}

TEST_CASE("a block-sparse product stores the tiles its products write", "[contract]") {
  // Block-diagonal a times block-bidiagonal b (tiles of 3 x 3 on 12 x 12): the product's tiles
  // are (I, I) and (I, I + 1).
  std::mt19937_64 rng(9);
  const Layout layout = Layout::tiled(Smooth{12, 12}, {3, 3});
  Tensor<double> a = matrix(rng, 12, 12);
  Tensor<double> b = matrix(rng, 12, 12);
  for (index_t i = 0; i < 12; ++i) {
    for (index_t j = 0; j < 12; ++j) {
      if (i / 3 != j / 3) {
        a(i, j) = 0;
      }
      if (j / 3 != i / 3 && j / 3 != i / 3 + 1) {
        b(i, j) = 0;
      }
    }
  }
  const auto sa = BlockSparseTensor<double>::from_dense(a, layout);
  const auto sb = BlockSparseTensor<double>::from_dense(b, layout);
  Tensor<double> want({12, 12});
  for (index_t i = 0; i < 12; ++i) {
    for (index_t k = 0; k < 12; ++k) {
      for (index_t j = 0; j < 12; ++j) {
        want(i, k) += a(i, j) * b(j, k);
      }
    }
  }
  const BlockSparseTensor<double> c = strata::einsum("ij,jk->ik", sa, sb);
  CHECK(c.layout() == layout);
  CHECK(c.stored() == std::vector<index_t>{0, 1, 5, 6, 10, 11, 15});
  CHECK(c.to_dense().to_vector() == want.to_vector());

  SECTION("beside a dense or tiled operand, the result is block-sparse") {
    const auto mixed = strata::einsum("ij,jk->ik", sa, b);
    static_assert(std::is_same_v<decltype(mixed), const BlockSparseTensor<double>>);
    CHECK(mixed.to_dense().to_vector() == want.to_vector());
    const auto tiled = strata::LayoutTensor<double>::from_dense(b, layout);
    CHECK(strata::einsum("ij,jk->ik", sa, tiled).to_dense().to_vector() == want.to_vector());
    // The result is tiled like the tiled operands: not cut along k, so stripes of 3 x 12.
    CHECK(mixed.layout() == Layout::tiled(Smooth{12, 12}, {3, 12}));
    CHECK(mixed.n_stored() == 4);
    // Into a destination cut along k too: a dense operand's zero blocks have norm 0, and
    // their products are skipped as a missing tile's.
    BlockSparseTensor<double> out(layout);
    strata::einsum_into(out, "ij,jk->ik", sa, a);
    CHECK(out.stored() == std::vector<index_t>{0, 5, 10, 15});
  }
  SECTION("a chain of three: block-sparse intermediates") {
    const BlockSparseTensor<double> chain = strata::einsum("ij,jk,kl->il", sa, sb, sa);
    Tensor<double> want3({12, 12});
    for (index_t i = 0; i < 12; ++i) {
      for (index_t l = 0; l < 12; ++l) {
        for (index_t k = 0; k < 12; ++k) {
          want3(i, l) += want(i, k) * a(k, l);
        }
      }
    }
    CHECK(chain.to_dense().to_vector() == want3.to_vector());
    CHECK(chain.n_stored() == 7);
  }
  SECTION("an output that is an operand is read from a copy") {
    auto s = sa.copy();
    strata::einsum_into(s, "ij,jk->ik", s, sb);
    CHECK(s.to_dense().to_vector() == want.to_vector());
  }
}

TEST_CASE("screening skips the products whose norm bound is under the threshold, within it",
          "[contract][property]") {
  // Tiles of 4 x 4 on 24 x 24 matrices whose tile scales span 1e-8 to 1: with a threshold the
  // products of small tiles are skipped; the error of each block of the result is at most the
  // threshold times the number of products skipped there (counted here from the test's own
  // norms), and it is not zero.
  std::mt19937_64 rng(10);
  const index_t n = 24;
  const index_t t = 4;
  const Layout layout = Layout::tiled(Smooth{n, n}, {t, t});
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const auto scaled_matrix = [&] {
    Tensor<double> m({n, n});
    std::vector<double> scale;
    for (index_t p = 0; p < (n / t) * (n / t); ++p) {
      scale.push_back(std::pow(10.0, -static_cast<double>(uniform(rng, 0, 8))));
    }
    for (index_t i = 0; i < n; ++i) {
      for (index_t j = 0; j < n; ++j) {
        m(i, j) = unit(rng) * scale[static_cast<std::size_t>((i / t) * (n / t) + j / t)];
      }
    }
    return m;
  };
  const Tensor<double> a = scaled_matrix();
  const Tensor<double> b = scaled_matrix();
  Tensor<double> exact({n, n});
  for (index_t i = 0; i < n; ++i) {
    for (index_t k = 0; k < n; ++k) {
      for (index_t j = 0; j < n; ++j) {
        exact(i, k) += a(i, j) * b(j, k);
      }
    }
  }
  for (const double threshold : {1e-10, 1e-6, 1e-3}) {
    INFO("threshold " << threshold);
    const auto sa = BlockSparseTensor<double>::from_dense(a, layout, threshold);
    const auto sb = BlockSparseTensor<double>::from_dense(b, layout, 0.0);
    const BlockSparseTensor<double> c = strata::einsum("ij,jk->ik", sa, sb);
    CHECK(c.threshold() == threshold);
    const Tensor<double> got = c.to_dense();
    int skipped_total = 0;
    double error_total = 0;
    for (index_t bi = 0; bi < n / t; ++bi) {
      for (index_t bk = 0; bk < n / t; ++bk) {
        int skipped = 0;
        for (index_t bj = 0; bj < n / t; ++bj) {
          const double na = box_norm(a, bi * t, bj * t, t, t);
          const double nb = box_norm(b, bj * t, bk * t, t, t);
          // a's tiles at or under the threshold were dropped (no product), the rest screened
          skipped += na <= threshold || na * nb <= threshold ? 1 : 0;
        }
        double e = 0;
        for (index_t i = bi * t; i < (bi + 1) * t; ++i) {
          for (index_t k = bk * t; k < (bk + 1) * t; ++k) {
            e += (got(i, k) - exact(i, k)) * (got(i, k) - exact(i, k));
          }
        }
        e = std::sqrt(e);
        REQUIRE(e <= threshold * skipped * (1 + 1e-12) + 1e-15);
        skipped_total += skipped;
        error_total += e;
      }
    }
    CHECK(skipped_total > 0);
    CHECK(error_total > 0);
  }
}

TEST_CASE("screened random contractions stay within the bound", "[contract][property]") {
  // Random specs (traces, sums over a label of one operand, broadcasting), operands of random
  // scales tile by tile, a random threshold: the result's error, in Frobenius norm, is at most
  // the threshold times the number of block products (the bound of every skipped one).
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  int screened = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const Problem p = random_problem(rng);
    std::vector<Tensor<double>> values;
    std::vector<BlockSparseTensor<double>> sparse;
    const double threshold = std::pow(10.0, -static_cast<double>(uniform(rng, 1, 6)));
    index_t products = 1;
    for (const Index& s : p.shapes) {
      const Layout layout = random_tiles(rng, s);
      Tensor<double> v(s);
      for (index_t q = 0; q < layout.n_pieces(); ++q) {
        const double scale = std::pow(10.0, -static_cast<double>(uniform(rng, 0, 6)));
        for (auto&& x : v.select(strata::detail::box_selectors(layout.piece(q)))) {
          x = unit(rng) * scale;
        }
      }
      values.push_back(v);
      sparse.push_back(BlockSparseTensor<double>::from_dense(v, layout, threshold));
      products *= std::max<index_t>(layout.n_pieces(), 1);
    }
    INFO("trial " << trial << ": " << p.spec() << " threshold " << threshold);
    const std::vector<double> want = reference(p, values);
    const std::vector<double> got = run(strata::seq, p.spec(), sparse).to_dense().to_vector();
    REQUIRE(got.size() == want.size());
    double e = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      e += (got[i] - want[i]) * (got[i] - want[i]);
    }
    // Each operand's dropped tiles (norm <= threshold) and each skipped product add at most
    // the threshold times the other operands' norms and sqrt(n) per label summed over one
    // operand; a generous bound (the factors all taken at their largest) over every product.
    double scale = 1;
    for (const auto& v : values) {
      double s = 0;
      for (const double x : v.to_vector()) {
        s += x * x;
      }
      scale *= std::max(1.0, std::sqrt(s));
    }
    index_t extent_product = 1;
    for (const auto& [label, extent] : p.extents) {
      extent_product *= std::max<index_t>(extent, 1);
    }
    REQUIRE(std::sqrt(e) <=
            threshold * static_cast<double>(products * extent_product) * scale + 1e-12);
    screened += got != want ? 1 : 0;
  }
  CHECK(screened > 0);
}

TEST_CASE("the bound of a sum over one operand's label counts its length", "[contract]") {
  // A 4 x 4 tile of equal values v: Frobenius norm 4v, row sums 4v each (norm 8v), trace 4v
  // (the diagonal's norm 2v). With the threshold 3v on the diagonal tile of 4 x 4 identity
  // times v, the plain product of norms (2v... 4v) would skip sums of up to 4v; the bound's
  // sqrt(n) keeps them.
  const double v = 0.25;
  Tensor<double> eye({4, 4});
  for (index_t i = 0; i < 4; ++i) {
    eye(i, i) = v;
  }
  auto s = BlockSparseTensor<double>::from_dense(eye, Layout::tiled(Smooth{4, 4}, {4, 4}));
  s.set_threshold(2.5 * v);  // above the tile's norm (2v), below its trace (4v) and bound
  const BlockSparseTensor<double> trace = strata::einsum("ii->", s);
  CHECK(trace.to_dense().to_vector() == std::vector<double>{4 * v});
  Tensor<double> row({1, 4});
  row.fill(v);  // norm 2v, sum 4v
  auto r = BlockSparseTensor<double>::from_dense(row, Layout::tiled(Smooth{1, 4}, {1, 4}));
  r.set_threshold(3 * v);
  CHECK(strata::einsum("ij->i", r).to_dense().to_vector() == std::vector<double>{4 * v});
  r.set_threshold(4 * v);  // the bound, 2v sqrt(4) = 4v, is not above it: skipped, error 4v
  CHECK(strata::einsum("ij->i", r).to_dense().to_vector() == std::vector<double>{0.0});
}

TEST_CASE("block-sparse contractions reject bad input and write nothing", "[contract]") {
  std::mt19937_64 rng(12);
  const auto sa =
      BlockSparseTensor<double>::from_dense(matrix(rng, 6, 4), Layout::tiled(Smooth{6, 4}, {4, 4}));
  const auto sb =
      BlockSparseTensor<double>::from_dense(matrix(rng, 5, 3), Layout::tiled(Smooth{5, 3}, {2, 2}));
  auto out =
      BlockSparseTensor<double>::from_dense(matrix(rng, 6, 3), Layout::tiled(Smooth{6, 3}, {2, 2}));
  const auto before = out.to_dense().to_vector();
  check_error<strata::ShapeError>([&] { (void)strata::einsum("ij,jk->ik", sa, sb); }, "einsum",
                                  "label 'j' has extent 4 in operand 0 and 5 in operand 1");
  const auto sc =
      BlockSparseTensor<double>::from_dense(matrix(rng, 4, 2), Layout::tiled(Smooth{4, 2}, {3, 1}));
  check_error<strata::ShapeError>([&] { strata::einsum_into(out, "ij,jk->ik", sa, sc); },
                                  "einsum_into", "the output has shape [6 3]");
  CHECK(out.to_dense().to_vector() == before);
  CHECK(out.n_stored() == out.n_tiles());
}

}  // namespace test_contract_block_sparse
