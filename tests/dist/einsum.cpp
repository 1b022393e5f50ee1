// Contractions of distributed tensors (strata/dist/einsum.hpp): random einsum problems over
// DistTensors of random irregular tilings and random distributions, against the naive loop of
// one process; into new tensors and into existing ones with alpha and beta; a matrix product
// by hand; bad input on every rank. Run under mpirun with 1, 2, 3 and 4 ranks.
#include "strata/dist/einsum.hpp"

#include "check_error.hpp"
#include "contract/random_problems.hpp"

#include <catch2/catch.hpp>

#include <complex>
#include <random>
#include <string>
#include <vector>

using strata::Index;
using strata::index_t;
using strata::Scaling;
using strata::Tensor;
using strata::dist::Distribution;
using strata::dist::DistTensor;
using strata::dist::Tiling;
using strata::test::check_error;
using strata::test::Problem;
using strata::test::random_problem;
using strata::test::uniform;
using strata::test::with_operands;

namespace {

int world_size() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

/// Random irregular boundaries along each axis of @p shape.
Tiling random_tiling(std::mt19937_64& rng, const Index& shape) {
  std::vector<std::vector<index_t>> boundaries;
  for (const index_t extent : shape) {
    std::vector<index_t> b{0};
    for (index_t x = 1; x < extent; ++x) {
      if (uniform(rng, 0, 1) == 0) {
        b.push_back(x);
      }
    }
    if (extent > 0) {
      b.push_back(extent);
    }
    boundaries.push_back(b);
  }
  return Tiling(boundaries);
}

Distribution random_distribution(std::mt19937_64& rng) {
  switch (uniform(rng, 0, 2)) {
    case 0:
      return Distribution::block();
    case 1:
      return Distribution::cyclic();
    default:
      return Distribution::by(
          [](strata::IndexSpan c) {
            index_t s = 0;
            for (const index_t x : c) {
              s += 7 * x + 3;
            }
            return static_cast<int>(s % world_size());
          },
          "scrambled");
  }
}

/// A distributed copy of @p values (each rank fills the tiles it owns), synced.
DistTensor<double> distribute(std::mt19937_64& rng, const Tensor<double>& values) {
  DistTensor<double> d(MPI_COMM_WORLD, random_tiling(rng, values.shape()),
                       random_distribution(rng));
  for (const index_t t : d.local_tiles()) {
    const Index lo = d.tiling().tile_lo(t);
    const Index hi = d.tiling().tile_hi(t);
    std::vector<strata::Selector> box;
    for (std::size_t a = 0; a < lo.size(); ++a) {
      box.emplace_back(strata::Range{lo[a], hi[a]});
    }
    d.tile(t).assign(values.select(box));
  }
  d.sync();
  return d;
}

/// Small random integers (exact products) of @p shape, the same on every rank.
Tensor<double> random_values(std::mt19937_64& rng, const Index& shape) {
  Tensor<double> t(shape);
  for (auto&& x : t) {
    x = static_cast<double>(uniform(rng, -3, 3));
  }
  return t;
}

/// Every element of a distributed tensor, row-major, on every rank.
std::vector<double> whole(const DistTensor<double>& d) {
  const Index shape = d.shape();
  return d.get(Index(shape.size(), 0), shape).to_vector();
}

}  // namespace

TEST_CASE("distributed einsum agrees with one process on random specs, tilings, distributions",
          "[dist][einsum]") {
  std::mt19937_64 rng(60);  // the same problems on every rank
  int tried = 0;
  int summed = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const Problem p = random_problem(rng);
    bool scalar = p.output.empty();
    for (const Index& s : p.shapes) {
      scalar = scalar || s.empty();
    }
    if (scalar) {  // a distributed tensor has at least one axis
      continue;
    }
    INFO("trial " << trial << ": " << p.spec());
    std::vector<Tensor<double>> values;
    std::vector<DistTensor<double>> operands;
    for (const Index& s : p.shapes) {
      values.push_back(random_values(rng, s));
      operands.push_back(distribute(rng, values.back()));
    }
    const std::vector<double> want = strata::test::reference(p, values);
    const DistTensor<double> got = with_operands(
        operands, [&](const auto&... op) { return strata::dist::einsum(p.spec(), op...); });
    REQUIRE(whole(got) == want);
    // Into an existing tensor of another tiling: out = 2 einsum + 3 out.
    const Tensor<double> before = random_values(rng, got.shape());
    DistTensor<double> out = distribute(rng, before);
    with_operands(operands, [&](const auto&... op) {
      strata::dist::einsum_into(out, Scaling{2, 3}, p.spec(), op...);
    });
    std::vector<double> scaled = before.to_vector();
    for (std::size_t i = 0; i < scaled.size(); ++i) {
      scaled[i] = 2 * want[i] + 3 * scaled[i];
    }
    REQUIRE(whole(out) == scaled);
    ++tried;
    summed += p.output.size() < p.extents.size() ? 1 : 0;
  }
  CHECK(tried > 40);
  CHECK(summed > 10);
}

TEST_CASE("a distributed matrix product, block-cyclic against the triple loop", "[dist][einsum]") {
  const index_t m = 37;
  const index_t n = 29;
  const index_t k = 41;
  Tensor<double> a({m, k});
  Tensor<double> b({k, n});
  for (index_t i = 0; i < m; ++i) {
    for (index_t j = 0; j < k; ++j) {
      a(i, j) = static_cast<double>((i + 2 * j) % 7 - 3);
    }
  }
  for (index_t i = 0; i < k; ++i) {
    for (index_t j = 0; j < n; ++j) {
      b(i, j) = static_cast<double>((3 * i + j) % 5 - 2);
    }
  }
  Tensor<double> want({m, n});
  for (index_t i = 0; i < m; ++i) {
    for (index_t j = 0; j < n; ++j) {
      for (index_t q = 0; q < k; ++q) {
        want(i, j) += a(i, q) * b(q, j);
      }
    }
  }
  const int ranks = world_size();
  DistTensor<double> da(MPI_COMM_WORLD, Tiling::regular(Index{m, k}, Index{8, 8}),
                        Distribution::block_cyclic(Index{ranks, 1}));
  DistTensor<double> db(MPI_COMM_WORLD, Tiling::regular(Index{k, n}, Index{6, 10}),
                        Distribution::cyclic());
  for (const index_t t : da.local_tiles()) {
    da.tile(t).assign(
        a.select({strata::Range{da.tiling().tile_lo(t)[0], da.tiling().tile_hi(t)[0]},
                  strata::Range{da.tiling().tile_lo(t)[1], da.tiling().tile_hi(t)[1]}}));
  }
  for (const index_t t : db.local_tiles()) {
    db.tile(t).assign(
        b.select({strata::Range{db.tiling().tile_lo(t)[0], db.tiling().tile_hi(t)[0]},
                  strata::Range{db.tiling().tile_lo(t)[1], db.tiling().tile_hi(t)[1]}}));
  }
  da.sync();
  db.sync();
  const DistTensor<double> c = strata::dist::einsum("ij,jk->ik", da, db);
  // Tiled like its operands (i as a's rows, k as b's columns), distributed as a.
  CHECK(c.tiling().boundaries(0) == da.tiling().boundaries(0));
  CHECK(c.tiling().boundaries(1) == db.tiling().boundaries(1));
  CHECK(whole(c) == want.to_vector());
  // The transpose of the product, through the labels: c^T = b^T a^T.
  const DistTensor<double> ct = strata::dist::einsum("ji,kj->ik", db, da);
  CHECK(whole(ct) == Tensor<double>(want.transpose().copy()).to_vector());
  // float operands of a double product: the common type.
  DistTensor<float> fa(MPI_COMM_WORLD, Tiling::regular(Index{m, k}, Index{16, 16}),
                       Distribution::block());
  fa.fill_local(1.0F);
  fa.sync();
  const auto mixed = strata::dist::einsum("ij,jk->ik", fa, db);
  static_assert(std::is_same_v<decltype(mixed), const DistTensor<double>>);
  std::vector<double> col_sums(static_cast<std::size_t>(m * n), 0.0);
  for (index_t i = 0; i < m; ++i) {
    for (index_t j = 0; j < n; ++j) {
      for (index_t q = 0; q < k; ++q) {
        col_sums[static_cast<std::size_t>(i * n + j)] += b(q, j);
      }
    }
  }
  CHECK(whole(mixed) == col_sums);
}

TEST_CASE("distributed einsum rejects bad input on every rank and writes nothing",
          "[dist][einsum]") {
  DistTensor<double> a(MPI_COMM_WORLD, Tiling::regular(Index{6, 4}, Index{4, 4}),
                       Distribution::cyclic());
  DistTensor<double> b(MPI_COMM_WORLD, Tiling::regular(Index{5, 3}, Index{2, 2}),
                       Distribution::cyclic());
  DistTensor<double> out(MPI_COMM_WORLD, Tiling::regular(Index{6, 3}, Index{2, 2}),
                         Distribution::block());
  a.fill_local(1.0);
  out.fill_local(7.0);
  a.sync();
  b.sync();
  out.sync();
  check_error<strata::ShapeError>([&] { (void)strata::dist::einsum("ij,jk->ik", a, b); }, "einsum",
                                  "label 'j' has extent 4 in operand 0 and 5");
  check_error<strata::ShapeError>([&] { (void)strata::dist::einsum("ij,j%->ik", a, b); }, "einsum",
                                  "character '%' at position 4");
  check_error<strata::ShapeError>([&] { (void)strata::dist::einsum("ij,ij->", a, a); }, "einsum",
                                  "makes a scalar");
  check_error<strata::ShapeError>([&] { strata::dist::einsum_into(out, "ij->ji", a); },
                                  "einsum_into", "the output has shape [6 3]");
  DistTensor<double> square(MPI_COMM_WORLD, Tiling::regular(Index{4, 4}, Index{2, 2}),
                            Distribution::cyclic());
  check_error<strata::LayoutError>(
      [&] { strata::dist::einsum_into(square, "ij,jk->ik", square, square); }, "einsum_into",
      "the output is also an operand");
  // A scale with an imaginary part into a real output (checked inside the collective check).
  DistTensor<double> c(MPI_COMM_WORLD, Tiling::regular(Index{4, 3}, Index{2, 2}),
                       Distribution::cyclic());
  c.fill_local(1.0);
  c.sync();
  check_error<strata::TypeError>(
      [&] {
        strata::dist::einsum_into(out, strata::Scaling{std::complex<double>(0, 1), 1.0},
                                  "ij,jk->ik", a, c);
      },
      "einsum_into", "alpha = (0+1j) has an imaginary part but the result is real");
  check_error<strata::TypeError>(
      [&] {
        strata::dist::einsum_into(out, strata::Scaling{1.0, std::complex<double>(2, -1)},
                                  "ij,jk->ik", a, c);
      },
      "einsum_into", "beta = (2-1j)");
  CHECK(whole(out) == std::vector<double>(18, 7.0));
}
