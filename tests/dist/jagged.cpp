// Distributed jagged tensors (strata/dist/jagged.hpp): random ragged rows (many empty) on random
// row blocks and owners, written through local blocks with global row numbers, read and written
// by rows from any rank, against a one-process JaggedTensor that every rank keeps. Run under
// mpirun with 1, 2, 3 and 4 ranks with the other distributed tests.
#include "strata/dist/jagged.hpp"

#include "check_error.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <vector>

using strata::Index;
using strata::index_t;
using strata::Jagged;
using strata::JaggedTensor;
using strata::Tensor;
using strata::dist::DistJaggedTensor;
using strata::dist::Distribution;
using strata::dist::Tiling;
using strata::test::check_error;

namespace {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int world_size() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

/// The value of element k of row r (exact in double).
double value(index_t r, index_t k) {
  return 100.0 * static_cast<double>(r) + static_cast<double>(k);
}

/// Random row blocks of @p n rows (irregular boundaries; one block when n is small).
Tiling random_blocks(std::mt19937& rng, index_t n) {
  std::vector<index_t> b{0};
  for (index_t x = 1; x < n; ++x) {
    if (std::uniform_int_distribution<int>(0, 3)(rng) == 0) {
      b.push_back(x);
    }
  }
  if (n > 0) {
    b.push_back(n);
  }
  return Tiling({b});
}

Distribution random_owners(std::mt19937& rng, int n_ranks) {
  switch (std::uniform_int_distribution<int>(0, 2)(rng)) {
    case 0:
      return Distribution::block();
    case 1:
      return Distribution::cyclic();
    default:
      return Distribution::by(
          [n_ranks](strata::IndexSpan c) { return static_cast<int>((3 * c[0] + 1) % n_ranks); },
          "scrambled");
  }
}

}  // namespace

TEST_CASE("distributed jagged rows are read and written as one process would", "[dist][jagged]") {
  const int n = world_size();
  std::mt19937 rng(31);
  for (int trial = 0; trial < 30; ++trial) {
    const index_t n_rows = std::uniform_int_distribution<index_t>(1, 25)(rng);
    std::vector<index_t> lengths;
    for (index_t r = 0; r < n_rows; ++r) {
      const bool empty = std::uniform_int_distribution<int>(0, 2)(rng) == 0;
      lengths.push_back(empty ? 0 : std::uniform_int_distribution<index_t>(1, 6)(rng));
    }
    const Jagged shape = Jagged::from_lengths(lengths);
    const Tiling blocks = random_blocks(rng, n_rows);
    INFO(shape.to_string() << " blocks " << blocks.to_string());
    DistJaggedTensor<double> a(MPI_COMM_WORLD, shape, blocks, random_owners(rng, n));
    // Local blocks carry global row numbers.
    bool numbered = true;
    for (const index_t t : a.local_tiles()) {
      JaggedTensor<double> block = a.tile(t);
      numbered = numbered && block.first_row() == blocks.tile_lo(t)[0];
      block.for_each_row(strata::seq, [](index_t r, std::span<double> v) {
        for (std::size_t k = 0; k < v.size(); ++k) {
          v[k] = value(r, static_cast<index_t>(k));
        }
      });
    }
    CHECK(numbered);
    a.sync();
    // The one-process reference.
    JaggedTensor<double> expected(shape);
    expected.for_each_row(strata::seq, [](index_t r, std::span<double> v) {
      for (std::size_t k = 0; k < v.size(); ++k) {
        v[k] = value(r, static_cast<index_t>(k));
      }
    });
    const auto gathered = a.gather(0);
    if (world_rank() == 0) {
      REQUIRE(gathered);
      CHECK(gathered->shape().same_as(shape));
      CHECK(gathered->values().to_vector() == expected.values().to_vector());
    }
    // Rows from anywhere.
    const index_t lo = std::uniform_int_distribution<index_t>(0, n_rows)(rng);
    const index_t hi = std::uniform_int_distribution<index_t>(lo, n_rows)(rng);
    const JaggedTensor<double> some = a.get_rows(lo, hi);
    CHECK(some.first_row() == lo);
    CHECK(some.shape().same_as(expected.rows(lo, hi).shape()));
    CHECK(some.values().to_vector() == expected.rows(lo, hi).values().to_vector());
    // Reductions: exact integers, so any order gives the reference.
    double total = 0;
    std::vector<double> row_totals;
    for (index_t r = 0; r < n_rows; ++r) {
      double s = 0;
      for (const double x : expected.row(r)) {
        s += x;
      }
      row_totals.push_back(s);
      total += s;
    }
    CHECK(a.sum() == total);
    CHECK(a.row_sums().to_vector() == row_totals);
    // put from the last rank (a slice of a larger tensor), accumulate from every rank.
    JaggedTensor<double> update = expected.copy();
    update.for_each_row(strata::seq, [](index_t, std::span<double> v) {
      for (double& x : v) {
        x = -x;
      }
    });
    if (world_rank() == n - 1) {
      a.put_rows(lo, update.rows(lo, hi));
    }
    a.sync();
    a.accumulate_rows(lo, JaggedTensor<double>::full(expected.rows(lo, hi).shape(), 1.0));
    a.sync();
    expected.rows(lo, hi).for_each_row(strata::seq, [&](index_t, std::span<double> v) {
      for (double& x : v) {
        x = -x + static_cast<double>(n);  // put -x, then one accumulate of 1 per rank
      }
    });
    // Other row blocks and owners hold the same rows.
    const DistJaggedTensor<double> b =
        a.redistribute(random_blocks(rng, n_rows), Distribution::cyclic());
    const auto back = b.gather(n - 1);
    if (world_rank() == n - 1) {
      REQUIRE(back);
      CHECK(back->values().to_vector() == expected.values().to_vector());
    }
  }
}

TEST_CASE("bad input to distributed jagged tensors is rejected, nothing changed",
          "[dist][jagged][errors]") {
  const int n = world_size();
  const int me = world_rank();
  const Jagged shape = Jagged::from_lengths({3, 0, 2, 4});
  DistJaggedTensor<double> a(MPI_COMM_WORLD, shape, Tiling({{0, 1, 3, 4}}), Distribution::cyclic());
  a.fill_local(2.0);
  a.sync();
  check_error<strata::ShapeError>(
      [&] {
        DistJaggedTensor<double> b(MPI_COMM_WORLD, shape, Tiling({{0, 2, 5}}),
                                   Distribution::block());
      },
      "DistJaggedTensor", "Tiling{[0 2 5]}");
  check_error<strata::ShapeError>(
      [&] {
        DistJaggedTensor<double> b(MPI_COMM_WORLD, shape, Tiling({{0, 4}, {0, 2}}),
                                   Distribution::block());
      },
      "DistJaggedTensor", "rank-1");
  check_error<strata::IndexError>([&] { (void)a.get_rows(2, 5); }, "DistJaggedTensor::get_rows",
                                  "[2, 5)");
  check_error<strata::IndexError>(
      [&] {
        a.put_rows(3, JaggedTensor<double>(Jagged::from_lengths({4, 1})));
      },
      "DistJaggedTensor::put_rows", "[3, 5)");
  check_error<strata::ShapeError>(
      [&] {
        a.put_rows(1, JaggedTensor<double>(Jagged::from_lengths({0, 3})));
      },
      "DistJaggedTensor::put_rows", "rows [1, 3)");
  check_error<strata::ShapeError>(
      [&] { a.accumulate_rows(0, JaggedTensor<double>(Jagged::from_lengths({2}))); },
      "DistJaggedTensor::accumulate_rows", "rows [0, 1)");
  check_error<strata::IndexError>([&] { (void)a.owner(3); }, "DistJaggedTensor::owner",
                                  "row block 3");
  if (n > 1) {
    const index_t other = me == 0 ? 1 : 0;  // cyclic: block 0 is rank 0's, block 1 rank 1's
    check_error<strata::IndexError>([&] { (void)a.tile(other); }, "DistJaggedTensor::tile",
                                    "owned by rank");
  }
  const JaggedTensor<double> wrong(Jagged::from_lengths(
      me == 0 ? std::vector<index_t>{3, 0, 2} : std::vector<index_t>{3, 0, 2, 4}));
  if (me == 0) {
    check_error<strata::ShapeError>([&] { a.scatter(0, wrong); }, "DistJaggedTensor::scatter",
                                    "Jagged");
  } else {
    check_error<strata::dist::CollectiveError>([&] { a.scatter(0, wrong); },
                                               "DistJaggedTensor::scatter", "another rank");
  }
  a.sync();
  CHECK(a.get_rows(0, 4).values().to_vector() == std::vector<double>(9, 2.0));
}

TEST_CASE("several outer modes and 2-D rows: blocks cut the first outer mode", "[dist][jagged]") {
  // 3 x 2 rows, each a 2-D piece (one empty).
  const Jagged shape =
      Jagged::from_extents(Index{3, 2}, 2, Index{2, 3, 1, 1, 0, 4, 2, 2, 1, 5, 3, 1});
  DistJaggedTensor<double> a(MPI_COMM_WORLD, shape, Tiling({{0, 1, 3}}), Distribution::cyclic());
  for (const index_t t : a.local_tiles()) {
    a.tile(t).for_each_row(strata::seq, [](index_t r, std::span<double> v) {
      for (std::size_t k = 0; k < v.size(); ++k) {
        v[k] = value(r, static_cast<index_t>(k));
      }
    });
  }
  a.sync();
  JaggedTensor<double> expected(shape);
  expected.for_each_row(strata::seq, [](index_t r, std::span<double> v) {
    for (std::size_t k = 0; k < v.size(); ++k) {
      v[k] = value(r, static_cast<index_t>(k));
    }
  });
  const JaggedTensor<double> last = a.get_rows(1, 3);
  CHECK(last.first_row() == 1);
  CHECK(last.shape().same_as(expected.rows(1, 3).shape()));
  CHECK(last.values().to_vector() == expected.rows(1, 3).values().to_vector());
  const Tensor<double> sums = a.row_sums();
  CHECK(sums.shape() == Index{3, 2});
  CHECK(sums(2, 1) == 500.0 + 501.0 + 502.0);  // row 5: 3 x 1 values
  CHECK(sums(1, 0) == 0.0);                    // row 2 is empty
}
