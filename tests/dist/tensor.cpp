// Distributed tensors (strata/dist): tilings and distributions by hand; get / put / accumulate
// of random boxes and views against a one-process reference that every rank keeps; gather,
// scatter, redistribute round trips, sums independent of the rank count; bad input on every
// rank. Run under mpirun with 1, 2, 3 and 4 ranks (tests/CMakeLists.txt).
#include "strata/dist/tensor.hpp"

#include "check_error.hpp"
#include "strata/expr/expr.hpp"
#include "strata/projection/projections.hpp"
#include "strata/tensor/for_each_indexed.hpp"
#include "threads.hpp"

#include <sched.h>
#include <sys/statvfs.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using strata::Index;
using strata::index_t;
using strata::Tensor;
using strata::dist::Distribution;
using strata::dist::DistTensor;
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

/// The value every test stores at a global index (exact in double).
double value_at(strata::IndexSpan g) {
  double v = 0;
  for (const index_t x : g) {
    v = v * 100 + static_cast<double>(x);
  }
  return v;
}

/// A random tiling of a random shape of rank 1 to 3 (extents 0 to 9, irregular tiles); the
/// same on every rank for the same generator state.
Tiling random_tiling(std::mt19937& rng) {
  const int rank = std::uniform_int_distribution<int>(1, 3)(rng);
  std::vector<std::vector<index_t>> boundaries;
  for (int k = 0; k < rank; ++k) {
    const index_t extent = std::uniform_int_distribution<index_t>(0, 9)(rng);
    std::vector<index_t> b{0};
    for (index_t x = 1; x < extent; ++x) {
      if (std::uniform_int_distribution<int>(0, 2)(rng) == 0) {
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

Distribution random_distribution(std::mt19937& rng, const Tiling& tiling, int n_ranks) {
  switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
    case 0:
      return Distribution::block();
    case 1:
      return Distribution::cyclic();
    case 2: {
      Index grid(static_cast<std::size_t>(tiling.rank()), 1);
      grid[0] = n_ranks;  // P x 1 x ... process grid
      return Distribution::block_cyclic(grid);
    }
    default:
      return Distribution::by(
          [n_ranks](strata::IndexSpan c) {
            index_t s = 0;
            for (const index_t x : c) {
              s += 7 * x + 3;
            }
            return static_cast<int>(s % n_ranks);
          },
          "scrambled");
  }
}

/// A random box [lo, hi) inside @p shape (possibly empty along an axis).
std::pair<Index, Index> random_box(std::mt19937& rng, const Index& shape) {
  Index lo;
  Index hi;
  for (const index_t e : shape) {
    const index_t a = std::uniform_int_distribution<index_t>(0, e)(rng);
    const index_t b = std::uniform_int_distribution<index_t>(a, e)(rng);
    lo.push_back(a);
    hi.push_back(b);
  }
  return {lo, hi};
}

Index extents_of(const Index& lo, const Index& hi) {
  Index e;
  for (std::size_t k = 0; k < lo.size(); ++k) {
    e.push_back(hi[k] - lo[k]);
  }
  return e;
}

/// The selectors of the box [lo, hi).
std::vector<strata::Selector> box_selectors(const Index& lo, const Index& hi) {
  std::vector<strata::Selector> s;
  for (std::size_t k = 0; k < lo.size(); ++k) {
    s.emplace_back(strata::Range{lo[k], hi[k]});
  }
  return s;
}

/// Fills this rank's tiles with value_at(global index), through tile views with global indices.
void fill_by_index(DistTensor<double>& a) {
  for (const index_t t : a.local_tiles()) {
    strata::for_each_indexed(strata::par, a.tile(t),
                             [](strata::IndexSpan g, double& x) { x = value_at(g); });
  }
  a.sync();
}

}  // namespace

TEST_CASE("a tiling cuts the index space into tiles, ragged or irregular", "[dist][tiling]") {
  const Tiling t = Tiling::regular(Index{10, 7}, Index{4, 4});
  CHECK(t.grid() == Index{3, 2});
  CHECK(t.shape() == Index{10, 7});
  CHECK(t.n_tiles() == 6);
  CHECK(t.boundaries(0) == std::vector<index_t>{0, 4, 8, 10});
  CHECK(t.tile_lo(5) == Index{8, 4});
  CHECK(t.tile_hi(5) == Index{10, 7});
  CHECK(t.tile_extents(5) == Index{2, 3});  // the ragged corner
  CHECK(t.tile_at(Index{9, 5}) == 5);
  CHECK(t.tile_at(Index{3, 3}) == 0);
  CHECK(t.coordinates(3) == Index{1, 1});
  CHECK(t.tile(Index{2, 0}) == 4);
  CHECK(t.tiles_in(Index{3, 3}, Index{5, 5}) == std::vector<index_t>{0, 1, 2, 3});
  CHECK(t.tiles_in(Index{4, 0}, Index{8, 4}) == std::vector<index_t>{2});
  CHECK(t.tiles_in(Index{4, 0}, Index{4, 7}).empty());
  const Tiling irregular({{0, 1, 5, 10}, {0, 7}});
  CHECK(irregular.grid() == Index{3, 1});
  CHECK(irregular.tile_at(Index{4, 6}) == 1);
  CHECK(irregular.to_string() == "Tiling{[0 1 5 10] [0 7]}");
  CHECK(Tiling::regular(Index{0, 3}, Index{2, 2}).n_tiles() == 0);
  CHECK(irregular.digest() != t.digest());

  check_error<strata::ShapeError>([] { (void)Tiling({{1, 4}}); }, "Tiling", "[1 4]");
  check_error<strata::ShapeError>([] { (void)Tiling({{0, 4, 4, 6}}); }, "Tiling", "[0 4 4 6]");
  check_error<strata::ShapeError>([] { (void)Tiling({}); }, "Tiling", "no axis");
  check_error<strata::ShapeError>([] { (void)Tiling::regular(Index{4}, Index{0}); },
                                  "Tiling::regular", "[0]");
  check_error<strata::IndexError>(
      [&] {
        (void)t.tile_at(Index{10, 0});
      },
      "Tiling::tile_at", "[10 0]");
  check_error<strata::IndexError>([&] { (void)t.tile(Index{0, 2}); }, "Tiling::tile", "[0 2]");
  check_error<strata::IndexError>([&] { (void)t.coordinates(6); }, "Tiling::coordinates", "tile 6");
  check_error<strata::IndexError>([&] { (void)t.tile_lo(-1); }, "Tiling::coordinates", "tile -1");
  check_error<strata::IndexError>([&] { (void)t.boundaries(2); }, "Tiling::boundaries", "axis 2");
  check_error<strata::IndexError>(
      [&] {
        (void)t.tiles_in(Index{0, 0}, Index{11, 1});
      },
      "Tiling::tiles_in", "[11 1]");
}

TEST_CASE("distributions give every tile an owner", "[dist][distribution]") {
  const Tiling t = Tiling::regular(Index{6, 6}, Index{2, 2});  // 3 x 3 tiles
  CHECK(Distribution::block().owners(t, 4) == std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3, 3});
  CHECK(Distribution::block().owners(t, 12) == std::vector<int>{1, 2, 3, 5, 6, 7, 9, 10, 11});
  CHECK(Distribution::cyclic().owners(t, 4) == std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3, 0});
  // ScaLAPACK's 2 x 2 process grid: tile (I, J) to process (I mod 2, J mod 2).
  CHECK(Distribution::block_cyclic(Index{2, 2}).owners(t, 4) ==
        std::vector<int>{0, 1, 0, 2, 3, 2, 0, 1, 0});
  // ScaLAPACK's block layout on a 2 x 2 grid: along each axis, tiles in runs as block() cuts
  // 3 tiles over 2 processes (1, then 2).
  CHECK(Distribution::block(Index{2, 2}).owners(t, 4) ==
        std::vector<int>{0, 1, 1, 2, 3, 3, 2, 3, 3});
  CHECK(Distribution::block(Index{2, 2}).owners(Tiling::regular(Index{8, 8}, Index{2, 2}), 4) ==
        std::vector<int>{0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3});
  CHECK(Distribution::block(Index{1, 3}).owners(t, 5) ==
        std::vector<int>{0, 1, 2, 0, 1, 2, 0, 1, 2});  // column blocks; ranks 3, 4 own none
  CHECK(Distribution::block(Index{2, 2}).to_string() == "block[2 2]");
  CHECK(Distribution::block(Index{2, 2}).digest() != Distribution::block().digest());
  check_error<strata::ShapeError>(
      [&] {
        (void)Distribution::block(Index{2, 2}).owners(t, 3);
      },
      "Distribution::owners", "[2 2]");
  check_error<strata::ShapeError>([&] { (void)Distribution::block(Index{2}).owners(t, 4); },
                                  "Distribution::owners", "[2]");
  check_error<strata::ShapeError>(
      [] {
        (void)Distribution::block(Index{2, -1});
      },
      "Distribution::block", "[2 -1]");
  const auto diagonal = Distribution::by(
      [](strata::IndexSpan c) { return static_cast<int>(c[0] == c[1]); }, "diagonal");
  CHECK(diagonal.owners(t, 2) == std::vector<int>{1, 0, 0, 0, 1, 0, 0, 0, 1});
  CHECK(diagonal.to_string() == "diagonal");

  const auto too_far = Distribution::by([](strata::IndexSpan) { return 5; }, "five");
  check_error<strata::IndexError>([&] { (void)too_far.owners(t, 4); }, "Distribution::owners",
                                  "rank 5");
  check_error<strata::ShapeError>(
      [&] {
        (void)Distribution::block_cyclic(Index{2, 2}).owners(t, 3);
      },
      "Distribution::owners", "[2 2]");
  check_error<strata::ShapeError>(
      [] {
        (void)Distribution::block_cyclic(Index{0, 2});
      },
      "Distribution::block_cyclic", "[0 2]");
}

TEST_CASE("get reads any box from any rank, across tile owners", "[dist][get]") {
  const int n = world_size();
  std::mt19937 shared(20261124);                                  // same on all ranks
  std::mt19937 mine(static_cast<unsigned>(1000 + world_rank()));  // this rank's own
  for (int trial = 0; trial < 40; ++trial) {
    const Tiling tiling = random_tiling(shared);
    const Distribution d = random_distribution(shared, tiling, n);
    DistTensor<double> a(MPI_COMM_WORLD, tiling, d);
    INFO(tiling.to_string() << " " << d.to_string() << " on " << n << " ranks");
    fill_by_index(a);
    for (int k = 0; k < 10; ++k) {
      const auto [lo, hi] = random_box(mine, a.shape());
      const Tensor<double> got = a.get(lo, hi);
      CHECK(got.shape() == extents_of(lo, hi));
      bool right = true;
      strata::for_each_indexed(strata::seq, got, [&](strata::IndexSpan g, double x) {
        right = right && x == value_at(g);  // absolute indices of the result are global
      });
      CHECK(right);
      if (got.size() > 0) {
        CHECK(got.origin() == lo);
      }
    }
    // get into an existing view: a transposed slice of a larger tensor, written through.
    {
      const auto [lo, hi] = random_box(mine, a.shape());
      if (lo.size() == 2) {
        Tensor<double> big({hi[1] - lo[1] + 2, hi[0] - lo[0] + 3});
        big.fill(-7.0);
        auto target =
            big.select({strata::Range{1, 1 + hi[1] - lo[1]}, strata::Range{2, 2 + hi[0] - lo[0]}})
                .transpose();
        a.get(lo, hi, target);
        bool same = true;
        for (index_t i = 0; i < hi[0] - lo[0]; ++i) {
          for (index_t j = 0; j < hi[1] - lo[1]; ++j) {
            same = same && big(1 + j, 2 + i) == value_at(Index{lo[0] + i, lo[1] + j});
          }
        }
        CHECK(same);
        CHECK(big(0, 0) == -7.0);  // outside the view: untouched
      }
    }
    // Every tile this rank owns is a tensor view with global indices, and nothing else is.
    for (const index_t t : a.local_tiles()) {
      CHECK(a.owner(t) == a.rank());
      CHECK(a.tile(t).origin() == tiling.tile_lo(t));
      CHECK(a.tile(t).shape() == tiling.tile_extents(t));
      CHECK(a.tile(t).is_contiguous());
    }
  }
}

TEST_CASE("put and accumulate write boxes from strided views, as one process would",
          "[dist][put]") {
  const int n = world_size();
  const int me = world_rank();
  std::mt19937 shared(77);
  for (int trial = 0; trial < 25; ++trial) {
    const Tiling tiling = random_tiling(shared);
    const Distribution d = random_distribution(shared, tiling, n);
    DistTensor<double> a(MPI_COMM_WORLD, tiling, d);
    INFO(tiling.to_string() << " " << d.to_string() << " on " << n << " ranks");
    fill_by_index(a);
    Tensor<double> reference(a.shape());  // what one process holds after the same steps
    strata::for_each_indexed(strata::seq, reference,
                             [](strata::IndexSpan g, double& x) { x = value_at(g); });
    // Puts: in turn, one rank writes a random box from a flipped (negative-stride) view.
    for (int step = 0; step < 6; ++step) {
      const auto [lo, hi] = random_box(shared, a.shape());
      const Index e = extents_of(lo, hi);
      Tensor<double> source(e);
      double next = 1000 * (step + 1);
      for (auto&& x : source) {
        x = next++;
      }
      const Tensor<double> flipped = source.reverse({0});  // the values sent
      if (step % n == me) {
        a.put(lo, hi, flipped);
      }
      if (flipped.size() > 0) {
        const auto s = box_selectors(lo, hi);
        reference.select(std::span<const strata::Selector>(s)) = flipped;
      }
      a.sync();
    }
    // Accumulates: every rank adds its own boxes at once (integers: exact in any order).
    for (int r = 0; r < n; ++r) {
      std::mt19937 theirs(static_cast<unsigned>(trial * 100 + r));
      for (int k = 0; k < 3; ++k) {
        const auto [lo, hi] = random_box(theirs, a.shape());
        Tensor<double> add(extents_of(lo, hi));
        add.fill(static_cast<double>(r + 1));
        if (r == me) {
          a.accumulate(lo, hi, add.transpose().transpose());
        }
        if (add.size() > 0) {
          const auto s = box_selectors(lo, hi);
          const std::span<const strata::Selector> box(s);
          reference.select(box) = reference.select(box) + add;
        }
      }
    }
    a.sync();
    const auto whole = a.gather(0);
    CHECK(whole.has_value() == (me == 0));
    if (whole) {
      CHECK(whole->to_vector() == reference.to_vector());
    }
    const Index zero(a.shape().size(), 0);
    CHECK(a.get(zero, a.shape()).to_vector() == reference.to_vector());
  }
}

TEST_CASE("accumulate combines with min, max, product and replace", "[dist][accumulate]") {
  DistTensor<std::int64_t> a(MPI_COMM_WORLD, Tiling::regular(Index{5, 4}, Index{2, 3}),
                             Distribution::cyclic());
  a.fill_local(3);
  a.sync();
  const Tensor<std::int64_t> two = Tensor<std::int64_t>::of({2}).broadcast({5, 4}).copy();
  const Index lo{0, 0};
  const Index hi{5, 4};
  if (a.rank() == 0) {
    a.accumulate(lo, hi, two, strata::dist::Op::product);  // 6
    a.accumulate(Index{0, 0}, Index{1, 4}, two.select({strata::Range{0, 1}}),
                 strata::dist::Op::min);  // row 0: 2
    a.accumulate(Index{4, 0}, Index{5, 4}, two.select({strata::Range{0, 1}}),
                 strata::dist::Op::replace);  // row 4: 2
  }
  a.sync();
  const Tensor<std::int64_t> got = a.get(lo, hi);
  CHECK(got.select({0}).to_vector() == std::vector<std::int64_t>{2, 2, 2, 2});
  CHECK(got.select({2}).to_vector() == std::vector<std::int64_t>{6, 6, 6, 6});
  CHECK(got.select({4}).to_vector() == std::vector<std::int64_t>{2, 2, 2, 2});
  a.sync();
  Tensor<std::int64_t> hundred(Index{1, 1});
  hundred.fill(100);
  a.accumulate(Index{1, 1}, Index{2, 2}, hundred, strata::dist::Op::max);
  a.sync();
  CHECK(a.get(Index{1, 1}, Index{2, 2}).to_vector() == std::vector<std::int64_t>{100});
}

TEST_CASE("accumulates of every op over long, strided and large parts match one process",
          "[dist][accumulate]") {
  // Rows of 64 elements and more (MPI_Reduce_local on a shared-memory window), parts of at
  // least the parallel grain (threads when the rank has cores to spare), strided and flipped
  // sources (the element loop), against the same steps on one process. One op per phase, every
  // rank at once (replace: one rank), small integers (exact in any order).
  // OpenMP's count raised to 2 while the tensor is made (ctest runs MPI tests with one thread):
  // at np 1 on 2 cores the rank's share is 2, and parts above the grain run on threads.
  using strata::dist::Op;
  const int n = world_size();
  const int me = world_rank();
  const Index shape{300, 290};
  const Tiling tiling(
      std::vector<std::vector<index_t>>{{0, 7, 263, 300}, {0, 3, 289, 290}});  // 256 x 286 inside
  std::optional<DistTensor<double>> made;
  strata::test::with_threads(2,
                             [&] { made.emplace(MPI_COMM_WORLD, tiling, Distribution::cyclic()); });
  DistTensor<double>& a = *made;
  Tensor<double> reference(shape);
  reference.fill(3.0);
  for (const index_t t : a.local_tiles()) {
    a.tile(t).fill(3.0);
  }
  a.sync();
  std::mt19937 shared(2024);
  const Op ops[] = {Op::sum, Op::product, Op::max, Op::min, Op::replace, Op::sum};
  for (const Op op : ops) {
    for (int r = 0; r < n; ++r) {
      if (op == Op::replace && r != n - 1) {
        continue;
      }
      for (int k = 0; k < 3; ++k) {
        // Boxes at least 64 wide, often the whole tensor; sources contiguous, transposed or
        // flipped; values 1 to 2 (products stay exact), 0 to 9 for min / max / replace.
        const bool whole = std::uniform_int_distribution<int>(0, 2)(shared) == 0;
        const index_t r0 = whole ? 0 : std::uniform_int_distribution<index_t>(0, 200)(shared);
        const index_t c0 = whole ? 0 : std::uniform_int_distribution<index_t>(0, 200)(shared);
        const index_t r1 =
            whole ? 300 : std::uniform_int_distribution<index_t>(r0 + 1, 300)(shared);
        const index_t c1 =
            whole ? 290 : std::uniform_int_distribution<index_t>(c0 + 64, 290)(shared);
        const int layout = std::uniform_int_distribution<int>(0, 2)(shared);
        Tensor<double> values(Index{r1 - r0, c1 - c0});
        const int top = op == Op::product ? 2 : 9;
        for (auto&& x : values) {
          x = static_cast<double>(std::uniform_int_distribution<int>(1, top)(shared));
        }
        const Tensor<double> sent = layout == 0   ? values
                                    : layout == 1 ? values.transpose().copy().transpose()
                                                  : values.reverse({1}).copy().reverse({1});
        if (r == me) {
          a.accumulate(Index{r0, c0}, Index{r1, c1}, sent, op);
        }
        for (index_t i = r0; i < r1; ++i) {
          for (index_t j = c0; j < c1; ++j) {
            double x = reference(i, j);
            const double v = values(i - r0, j - c0);
            switch (op) {
              case Op::sum:
                x += v;
                break;
              case Op::product:
                x *= v;
                break;
              case Op::min:
                x = std::min(x, v);
                break;
              case Op::max:
                x = std::max(x, v);
                break;
              case Op::replace:
                x = v;
                break;
            }
            reference(i, j) = x;
          }
        }
      }
    }
    a.sync();
    INFO("after the phase of op " << static_cast<int>(op));
    CHECK(a.get(Index{0, 0}, shape).to_vector() == reference.to_vector());
    a.sync();
  }
}

TEST_CASE("accumulates from every rank into the same elements at once lose no update",
          "[dist][accumulate]") {
  // Every rank adds 1 to every element 40 times, in boxes that overlap across tiles (a lost
  // update, two ranks combining the same element unlocked, would show as a smaller count).
  const int n = world_size();
  DistTensor<std::int64_t> a(MPI_COMM_WORLD, Tiling::regular(Index{64, 96}, Index{32, 48}),
                             Distribution::cyclic());
  a.sync();
  Tensor<std::int64_t> ones(Index{64, 96});
  ones.fill(1);
  for (int k = 0; k < 40; ++k) {
    const index_t shift = (k * 7) % 32;  // halves that meet at a moving row
    a.accumulate(Index{0, 0}, Index{shift, 96},
                 ones.select({strata::Range{0, shift}, strata::Range{0, 96}}));
    a.accumulate(Index{shift, 0}, Index{64, 96},
                 ones.select({strata::Range{shift, 64}, strata::Range{0, 96}}));
  }
  a.sync();
  const Tensor<std::int64_t> got = a.get(Index{0, 0}, Index{64, 96});
  const auto expected = static_cast<std::int64_t>(40 * n);
  CHECK(std::all_of(got.begin(), got.end(), [&](std::int64_t x) { return x == expected; }));
}

TEST_CASE("accumulate rejects min and max on complex elements, changing nothing",
          "[dist][accumulate][errors]") {
  using C = std::complex<double>;
  DistTensor<C> a(MPI_COMM_WORLD, Tiling::regular(Index{4, 4}, Index{2, 2}),
                  Distribution::cyclic());
  for (const index_t t : a.local_tiles()) {
    a.tile(t).fill(C{1, 2});
  }
  a.sync();
  Tensor<C> two(Index{2, 2});
  two.fill(C{2, 0});
  check_error<strata::TypeError>(
      [&] {
        a.accumulate(Index{0, 0}, Index{2, 2}, two, strata::dist::Op::min);
      },
      "DistTensor::accumulate", "Op::min");
  check_error<strata::TypeError>(
      [&] {
        a.accumulate(a.region(), Tensor<C>(Index{4, 4}), strata::dist::Op::max);
      },
      "DistTensor::accumulate", "Op::max");
  check_error<strata::TypeError>(
      [&] {
        a.accumulate(Index{0, 0}, Index{2, 2}, two, static_cast<strata::dist::Op>(9));
      },
      "DistTensor::accumulate", "op 9");
  a.sync();
  const Tensor<C> got = a.get(Index{0, 0}, Index{4, 4});
  CHECK(std::all_of(got.begin(), got.end(), [](const C& x) { return x == C{1, 2}; }));
  // sum and product combine complex elements.
  a.sync();
  if (a.rank() == 0) {
    a.accumulate(Index{0, 0}, Index{2, 2}, two, strata::dist::Op::product);
  }
  a.sync();
  CHECK(a.get(Index{1, 1}, Index{2, 2}).to_vector() == std::vector<C>{C{2, 4}});
}

TEST_CASE("a rank's copies use its share of the node's cores", "[dist]") {
  // Every rank of these tests runs on one node, unbound (ctest's mpiexec oversubscribes): one
  // mask, shared among the ranks.
  cpu_set_t set;
  CPU_ZERO(&set);
  REQUIRE(sched_getaffinity(0, sizeof set, &set) == 0);
  const int cores = CPU_COUNT(&set);
  int widest = 0;  // every rank's mask the same size: shared, not bound
  MPI_Allreduce(&cores, &widest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  const int share = strata::dist::detail::cores_per_rank(MPI_COMM_WORLD);
  if (widest == cores) {
    CHECK(share == std::max(1, cores / world_size()));
  }
  CHECK(share >= 1);
  CHECK(share <= cores);
}

TEST_CASE("gather, scatter and redistribute move whole tensors", "[dist][collective]") {
  const int n = world_size();
  const Index shape{9, 7};
  DistTensor<double> rows(MPI_COMM_WORLD, Tiling::regular(shape, Index{(9 + n - 1) / n, 7}),
                          Distribution::block());
  fill_by_index(rows);
  Tensor<double> expected(shape);
  strata::for_each_indexed(strata::seq, expected,
                           [](strata::IndexSpan g, double& x) { x = value_at(g); });
  // Row blocks to column blocks (a distributed transpose of the layout) and back.
  DistTensor<double> cols =
      rows.redistribute(Tiling::regular(shape, Index{9, 2}), Distribution::cyclic());
  bool right = true;
  for (const index_t t : cols.local_tiles()) {
    strata::for_each_indexed(strata::seq, cols.tile(t), [&](strata::IndexSpan g, double x) {
      right = right && x == value_at(g);
    });
  }
  CHECK(right);
  DistTensor<double> back = cols.redistribute(rows.tiling(), Distribution::block());
  const Index zero{0, 0};
  CHECK(back.get(zero, shape).to_vector() == expected.to_vector());
  // assign: into an existing tensor on another tiling, with ghosts (written inside them).
  DistTensor<double> target(MPI_COMM_WORLD, Tiling({{0, 4, 9}, {0, 1, 5, 7}}),
                            Distribution::cyclic());
  target.set_ghosts({Index{1, 1}, Index{1, 0}, true});
  target.fill_local(-7.0);
  target.assign(cols);
  CHECK(target.get(zero, shape).to_vector() == expected.to_vector());
  target.assign(target);  // itself: nothing changes
  CHECK(target.get(zero, shape).to_vector() == expected.to_vector());
  // Scatter from the last rank, gather to the first.
  Tensor<double> whole(shape);
  if (world_rank() == n - 1) {
    whole.fill(-1.5);
  }
  back.scatter(n - 1, whole);
  const auto gathered = back.gather(0);
  if (gathered) {
    CHECK(gathered->to_vector() == std::vector<double>(63, -1.5));
  }
  // A tensor with fewer tiles than ranks: some ranks own nothing and take part all the same.
  DistTensor<double> one(MPI_COMM_WORLD, Tiling::regular(shape, shape), Distribution::block());
  CHECK(one.local_tiles().size() == (one.owner(0) == one.rank() ? 1U : 0U));
  one.scatter(0, expected);
  CHECK(one.get(zero, shape).to_vector() == expected.to_vector());
}

TEST_CASE("a destroyed tensor's window is taken, zeroed, by the next of the same sizes",
          "[dist][cache]") {
  strata::dist::release_cached_windows();
  const Index shape{8, 6};
  const Index zero{0, 0};
  const Tiling tiling = Tiling::regular(shape, Index{3, 4});
  const std::vector<double> zeros(48, 0.0);
  const double* first = nullptr;  // where this rank's first tile was
  {
    DistTensor<double> a(MPI_COMM_WORLD, tiling, Distribution::cyclic());
    a.fill_local(5.0);
    if (!a.local_tiles().empty()) {
      first = a.tile(a.local_tiles()[0]).data();
    }
  }
  DistTensor<double> b(MPI_COMM_WORLD, tiling, Distribution::cyclic());
  if (first != nullptr) {
    CHECK(b.tile(b.local_tiles()[0]).data() == first);  // the same memory, made zero again
  }
  CHECK(b.get(zero, shape).to_vector() == zeros);
  b.sync();  // every rank has read the zeros before any writes
  fill_by_index(b);
  // New ghosts make a new window; the old one goes to the cache, and the next tensor of the
  // old sizes takes it, zeroed, while b keeps its values.
  b.set_ghosts({Index{1, 1}, Index{1, 1}, true});
  b.update_ghosts();
  DistTensor<double> c(MPI_COMM_WORLD, tiling, Distribution::cyclic());
  CHECK(c.get(zero, shape).to_vector() == zeros);
  Tensor<double> expected(shape);
  strata::for_each_indexed(strata::seq, expected,
                           [](strata::IndexSpan g, double& x) { x = value_at(g); });
  CHECK(b.get(zero, shape).to_vector() == expected.to_vector());
  // Other sizes (another distribution over the same tiles) get windows of their own.
  DistTensor<double> d = b.redistribute(tiling, Distribution::block());
  CHECK(d.get(zero, shape).to_vector() == expected.to_vector());
  // A tensor over part of the processes is never cached, and works all the same. (One part
  // only: Open MPI 4.1 names a window's shared-memory file by the communicator's context id,
  // so windows made at once over two disjoint communicators can collide, open-mpi/ompi#7393.)
  MPI_Comm half = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() % 2 == 0 ? 0 : MPI_UNDEFINED, 0, &half);
  if (half != MPI_COMM_NULL) {
    for (int round = 0; round < 2; ++round) {
      DistTensor<double> e(half, tiling, Distribution::cyclic());
      CHECK(e.get(zero, shape).to_vector() == zeros);
      e.sync();
      e.fill_local(1.0);
    }
    MPI_Comm_free(&half);
  }
  strata::dist::release_cached_windows();
  DistTensor<double> f(MPI_COMM_WORLD, tiling, Distribution::cyclic());
  CHECK(f.get(zero, shape).to_vector() == zeros);
}

TEST_CASE("windows on one node are shared memory; a tile moves into its own tensor",
          "[dist][shared]") {
  // ctest runs this file with STRATA_SHARED_WINDOWS unset (shared-memory windows on this one
  // node: gets and puts are copies) and with it set to 0 (MPI_Get / MPI_Put): every other test
  // case checks both routes against its one-process reference.
  const Index shape{9, 7};
  DistTensor<double> a(MPI_COMM_WORLD, Tiling::regular(shape, Index{4, 3}), Distribution::cyclic());
  const char* const wanted = std::getenv("STRATA_SHARED_WINDOWS");
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  MPI_Comm_free(&node);
  struct statvfs shm {};
  const bool roomy = statvfs("/dev/shm", &shm) == 0 &&
                     static_cast<double>(shm.f_bavail) * static_cast<double>(shm.f_frsize) > 1e9;
  if (wanted != nullptr && std::string_view(wanted) == "0") {
    CHECK_FALSE(a.shares_memory());
  } else if (node_size == world_size() && roomy) {
    CHECK(a.shares_memory());
  }
  fill_by_index(a);
  a.sync();
  Tensor<double> expected(shape);
  strata::for_each_indexed(strata::seq, expected,
                           [](strata::IndexSpan g, double& x) { x = value_at(g); });
  const Index zero{0, 0};
  const Index rows_1_to_5{1, 0};
  const Index rows_5{5, 3};
  // Tile 0 ([0, 4) x [0, 3)) put one row down: the box overlaps the tile's own memory.
  const Tensor<double> tile0 = expected.select({strata::Range{0, 4}, strata::Range{0, 3}}).copy();
  expected.select({strata::Range{1, 5}, strata::Range{0, 3}}).assign(tile0);
  if (a.owner(0) == a.rank()) {
    a.put(rows_1_to_5, rows_5, a.tile(0));
  }
  a.sync();
  CHECK(a.get(zero, shape).to_vector() == expected.to_vector());
  a.sync();
  // The box [2, 6) x [1, 4) gotten into tile 0 itself (it overlaps the box).
  const Tensor<double> box = expected.select({strata::Range{2, 6}, strata::Range{1, 4}}).copy();
  expected.select({strata::Range{0, 4}, strata::Range{0, 3}}).assign(box);
  if (a.owner(0) == a.rank()) {
    a.get(Index{2, 1}, Index{6, 4}, a.tile(0));
  }
  a.sync();
  CHECK(a.get(zero, shape).to_vector() == expected.to_vector());
}

TEST_CASE("parts of a tile above the parallel grain move through the copy kernel",
          "[dist][shared]") {
  // 800 x 90 tiles: a tile's part is 72,000 elements, above the grain of strata::par (65,536),
  // so on a shared-memory window it goes to the copy kernel (threads, blocked transposes);
  // smaller parts (the other tests) take the row walk.
  const Index shape{1000, 90};
  const Index zero{0, 0};
  DistTensor<double> b(MPI_COMM_WORLD, Tiling::regular(shape, Index{800, 90}),
                       Distribution::cyclic());
  fill_by_index(b);
  b.sync();
  Tensor<double> expected(shape);
  strata::for_each_indexed(strata::seq, expected,
                           [](strata::IndexSpan g, double& x) { x = value_at(g); });
  // Into a transposed view, and into a flipped one.
  Tensor<double> across(Index{90, 1000});
  b.get(zero, shape, across.transpose());
  CHECK(across.transpose().copy().to_vector() == expected.to_vector());
  Tensor<double> flipped(shape);
  b.get(zero, shape, flipped.reverse());
  CHECK(flipped.reverse().copy().to_vector() == expected.to_vector());
  b.sync();
  // From a flipped view: the tensor holds the values upside down.
  if (b.rank() == b.n_ranks() - 1) {
    b.put(zero, shape, expected.reverse(Index{0}));
  }
  b.sync();
  CHECK(b.get(zero, shape).to_vector() == expected.reverse(Index{0}).copy().to_vector());
}

TEST_CASE("ghost regions hold the neighbours' values, periodic or zero beyond the shape",
          "[dist][ghosts]") {
  const int n = world_size();
  std::mt19937 shared(4242);
  for (int trial = 0; trial < 30; ++trial) {
    const int rank = std::uniform_int_distribution<int>(1, 3)(shared);
    Index shape;
    Index tile;
    Index lower;
    Index upper;
    for (int k = 0; k < rank; ++k) {
      tile.push_back(std::uniform_int_distribution<index_t>(2, 4)(shared));
      shape.push_back(std::uniform_int_distribution<index_t>(1, 9)(shared));
      lower.push_back(std::uniform_int_distribution<index_t>(0, 2)(shared));
      upper.push_back(std::uniform_int_distribution<index_t>(0, 2)(shared));
    }
    const Tiling tiling = Tiling::regular(shape, tile);
    // Widths fit the smallest tile (a ragged edge tile may be narrower).
    for (int k = 0; k < rank; ++k) {
      const auto& b = tiling.boundaries(k);
      index_t smallest = shape[static_cast<std::size_t>(k)];
      for (std::size_t i = 1; i < b.size(); ++i) {
        smallest = std::min(smallest, b[i] - b[i - 1]);
      }
      lower[static_cast<std::size_t>(k)] = std::min(lower[static_cast<std::size_t>(k)], smallest);
      upper[static_cast<std::size_t>(k)] = std::min(upper[static_cast<std::size_t>(k)], smallest);
    }
    const bool periodic = trial % 2 == 1;
    const Distribution distribution = random_distribution(shared, tiling, n);
    // Ghosts given at construction (one window), or set later (set_ghosts makes a second).
    DistTensor<double> a =
        trial % 6 == 3
            ? DistTensor<double>(MPI_COMM_WORLD, tiling, distribution, {lower, upper, periodic})
            : DistTensor<double>(MPI_COMM_WORLD, tiling, distribution);
    INFO(tiling.to_string() << " ghosts " << strata::to_string(lower) << " "
                            << strata::to_string(upper) << (periodic ? " periodic" : " zero"));
    // Ghosts set before or after the tiles are written (set_ghosts moves the values into the
    // new blocks), in some trials twice (from one ghosted layout to another).
    if (trial % 6 == 3) {
      fill_by_index(a);
    } else if (trial % 3 == 0) {
      a.set_ghosts({lower, upper, periodic});
      fill_by_index(a);
    } else {
      fill_by_index(a);
      if (trial % 3 == 2) {
        a.set_ghosts({upper, lower, !periodic});
      }
      a.set_ghosts({lower, upper, periodic});
    }
    a.update_ghosts();
    // Remote boxes address the tiles inside their blocks.
    // Named references, not a structured binding: clang 14 cannot capture bindings in lambdas.
    const auto corners = random_box(shared, shape);
    const Index& lo = corners.first;
    const Index& hi = corners.second;
    const Tensor<double> box = a.get(lo, hi);
    bool box_right = true;
    strata::for_each_indexed(strata::seq, box, [&](strata::IndexSpan i, double x) {
      box_right = box_right && x == value_at(i);
    });
    CHECK(box_right);
    bool right = true;
    for (const index_t t : a.local_tiles()) {
      const Tensor<const double> g = a.ghosted(t);
      Index origin = tiling.tile_lo(t);
      for (std::size_t k = 0; k < origin.size(); ++k) {
        origin[k] -= lower[k];
      }
      right = right && g.origin() == origin;
      strata::for_each_indexed(strata::seq, g, [&](strata::IndexSpan i, double x) {
        Index wrapped(i);
        bool beyond = false;
        for (std::size_t k = 0; k < wrapped.size(); ++k) {
          const index_t e = shape[k];
          beyond = beyond || wrapped[k] < 0 || wrapped[k] >= e;
          wrapped[k] = ((wrapped[k] % e) + e) % e;
        }
        const double expected = beyond && !periodic ? 0.0 : value_at(wrapped);
        right = right && x == expected;
      });
    }
    CHECK(right);
    // A put through the padded layout lands in the tiles, not the ghosts.
    a.sync();
    if (world_rank() == n - 1) {
      Tensor<double> minus(extents_of(lo, hi));
      minus.fill(-1.0);
      a.put(lo, hi, minus);
    }
    a.sync();
    const Tensor<double> whole = a.get(Index(shape.size(), 0), shape);
    bool put_right = true;
    strata::for_each_indexed(strata::seq, whole, [&](strata::IndexSpan i, double x) {
      bool in_box = true;
      for (std::size_t k = 0; k < i.size(); ++k) {
        in_box = in_box && i[k] >= lo[k] && i[k] < hi[k];
      }
      put_right = put_right && x == (in_box ? -1.0 : value_at(i));
    });
    CHECK(put_right);
  }
}

TEST_CASE("ghost widths come from an index projection's window", "[dist][ghosts]") {
  using strata::conv_window_projection;
  using strata::dist::Ghosts;
  const Ghosts g = Ghosts::of(conv_window_projection({3, 3}, {1, 1}, {1, 1}, {1, 1}), Index{4, 4});
  CHECK(g.lower == Index{1, 1});
  CHECK(g.upper == Index{1, 1});
  const Ghosts wide = Ghosts::of(conv_window_projection({5}, {1}, {1}, {2}), Index{8}, true);
  CHECK(wide.lower == Index{2});
  CHECK(wide.upper == Index{2});
  CHECK(wide.periodic);
  const Ghosts causal = Ghosts::of(conv_window_projection({3}, {1}, {1}, {0}), Index{8});
  CHECK(causal.lower == Index{0});
  CHECK(causal.upper == Index{2});
  check_error<strata::ShapeError>(
      [] {
        (void)Ghosts::of(conv_window_projection({3, 3}, {1, 1}, {1, 1}, {1, 1}), Index{4});
      },
      "Ghosts::of", "[4]");

  const int me = world_rank();
  DistTensor<double> a(MPI_COMM_WORLD, Tiling::regular(Index{6, 6}, Index{3, 2}),
                       Distribution::cyclic());
  check_error<strata::LayoutError>([&] { a.update_ghosts(); }, "DistTensor::update_ghosts",
                                   "set_ghosts");
  check_error<strata::ShapeError>(
      [&] {
        a.set_ghosts({Index{1, 3}, Index{1, 1}, false});
      },
      "DistTensor::set_ghosts", "[1 3]");
  check_error<strata::ShapeError>(
      [&] {
        a.set_ghosts({Index{1}, Index{1}, false});
      },
      "DistTensor::set_ghosts", "[1]");
  if (world_size() > 1) {
    check_error<strata::dist::CollectiveError>(
        [&] {
          a.set_ghosts({Index{me % 2, 1}, Index{1, 1}, false});
        },
        "DistTensor::set_ghosts", "different arguments");
    check_error<strata::IndexError>([&] { (void)a.ghosted(me == 0 ? 1 : 0); },
                                    "DistTensor::ghosted", "owned by rank");
  }
  a.set_ghosts({Index{1, 1}, Index{1, 1}, false});
  a.update_ghosts();
  CHECK(a.ghosts().lower == Index{1, 1});
}

TEST_CASE("sum adds tiles in tile order: the same bits on every rank count", "[dist][sum]") {
  const Tiling tiling({{0, 3, 4, 11}, {0, 2, 9}});
  const Index shape = tiling.shape();
  DistTensor<double> a(MPI_COMM_WORLD, tiling, Distribution::cyclic());
  for (const index_t t : a.local_tiles()) {
    strata::for_each_indexed(strata::seq, a.tile(t), [](index_t i, index_t j, double& x) {
      x = 0.1 * static_cast<double>(i) + 1.0 / static_cast<double>(j + 3);
    });
  }
  a.sync();
  // The reference: each tile's row-major sum, then the tiles in order (one process).
  double reference = 0;
  for (index_t t = 0; t < tiling.n_tiles(); ++t) {
    double partial = 0;
    const Index lo = tiling.tile_lo(t);
    const Index hi = tiling.tile_hi(t);
    for (index_t i = lo[0]; i < hi[0]; ++i) {
      for (index_t j = lo[1]; j < hi[1]; ++j) {
        partial += 0.1 * static_cast<double>(i) + 1.0 / static_cast<double>(j + 3);
      }
    }
    reference += partial;
  }
  const double total = a.sum();
  CHECK(std::bit_cast<std::uint64_t>(total) == std::bit_cast<std::uint64_t>(reference));
}

namespace {

/// One random view operation, applied alike to a Region and to a one-process Tensor view.
struct ViewStep {
  int kind = 0;  // 0 select, 1 transpose, 2 reverse, 3 rotate
  std::vector<strata::Selector> selectors;
  Index axes;  // transpose: the permutation; reverse: the axes
  index_t shift = 0;
  index_t axis = 0;

  template <class V>
  V apply(V v) const {
    switch (kind) {
      case 0:
        return v.select(std::span<const strata::Selector>(selectors));
      case 1:
        return v.transpose(axes);
      case 2:
        return v.reverse(axes);
      default:
        return v.rotate(shift, axis);
    }
  }
};

/// A random view step for a view of @p shape; index arrays repeat no entry unless
/// @p repeats.
ViewStep random_step(std::mt19937& rng, const Index& shape, bool repeats) {
  const auto pick = [&](index_t a, index_t b) {
    return std::uniform_int_distribution<index_t>(a, b)(rng);
  };
  ViewStep step;
  const auto rank = static_cast<index_t>(shape.size());
  step.kind = static_cast<int>(pick(0, 3));
  if (rank == 0) {
    step.kind = 0;
  }
  switch (step.kind) {
    case 0:
      for (index_t k = 0; k < rank; ++k) {
        const index_t n = shape[static_cast<std::size_t>(k)];
        const index_t what = pick(0, 3);
        if (what == 0 && n > 0) {
          step.selectors.emplace_back(pick(-n, n - 1));  // an integer (negative from the end)
        } else if (what == 1) {
          index_t by = pick(1, 3) * (pick(0, 1) == 0 ? 1 : -1);
          step.selectors.emplace_back(strata::Range{pick(-n - 1, n + 1), pick(-n - 1, n + 1), by});
        } else if (what == 2 && n > 0) {
          std::vector<index_t> entries;
          const index_t m = pick(0, n + 2);
          for (index_t i = 0; i < m; ++i) {
            entries.push_back(pick(0, n - 1));
          }
          if (!repeats) {
            std::sort(entries.begin(), entries.end());
            entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
            std::shuffle(entries.begin(), entries.end(), rng);
          }
          step.selectors.emplace_back(entries);
        } else {
          step.selectors.emplace_back(strata::all);
        }
      }
      break;
    case 1:
      step.axes.resize(static_cast<std::size_t>(rank));
      std::iota(step.axes.begin(), step.axes.end(), index_t{0});
      std::shuffle(step.axes.begin(), step.axes.end(), rng);
      break;
    case 2:
      for (index_t k = 0; k < rank; ++k) {
        if (pick(0, 1) == 1) {
          step.axes.push_back(pick(0, 1) == 1 ? k : k - rank);
        }
      }
      break;
    default:
      step.axis = pick(-rank, rank - 1);
      step.shift = pick(-12, 12);
  }
  return step;
}

}  // namespace

TEST_CASE("regions given as views of the global index space move as those views",
          "[dist][region]") {
  const int n = world_size();
  std::mt19937 rng(77);
  for (int trial = 0; trial < 60; ++trial) {
    const Tiling tiling = random_tiling(rng);
    const Index shape = tiling.shape();
    const bool repeats = trial % 2 == 0;  // gets may read an index twice; puts never write twice
    strata::dist::Region region(shape);
    Tensor<double> whole(shape);
    strata::for_each_indexed(strata::seq, whole,
                             [](strata::IndexSpan g, double& x) { x = value_at(g); });
    Tensor<double> view = whole;
    std::vector<ViewStep> steps;
    const int n_steps = std::uniform_int_distribution<int>(1, 4)(rng);
    for (int i = 0; i < n_steps; ++i) {
      steps.push_back(random_step(rng, region.shape(), repeats));
      region = steps.back().apply(region);
      view.rebind(steps.back().apply(view));
    }
    INFO(tiling.to_string() << " " << region.to_string());
    REQUIRE(region.shape() == view.shape());
    DistTensor<double> a(MPI_COMM_WORLD, tiling, random_distribution(rng, tiling, n));
    fill_by_index(a);
    // get: new, and into a transposed tensor
    CHECK(a.get(region).to_vector() == view.to_vector());
    const Index view_shape = view.shape();
    const Index reversed(view_shape.rbegin(), view_shape.rend());
    Tensor<double> t(reversed);
    a.get(region, t.transpose());
    CHECK(t.transpose().to_vector() == view.to_vector());
    // region.global names the element each view index stands for
    bool global_right = true;
    strata::for_each_indexed(strata::seq, view, strata::relative,
                             [&](strata::IndexSpan i, double x) {
                               global_right = global_right && value_at(region.global(i)) == x;
                             });
    CHECK(global_right);
    if (repeats) {
      continue;
    }
    // put from the last rank, accumulate from every rank, against one process
    a.sync();
    Tensor<double> values(view.shape());
    strata::for_each_indexed(strata::seq, values, strata::relative,
                             [](strata::IndexSpan i, double& x) { x = 1000 + value_at(i); });
    if (world_rank() == n - 1) {
      a.put(region, values.reverse());  // a flipped view on the user's side, flipped back
    }
    a.sync();
    a.accumulate(region, values.reverse().copy(), strata::dist::Op::sum);
    a.sync();
    // One process: the same steps on a copy, the values put, then n of them added.
    Tensor<double> expected = whole.copy();
    Tensor<double> target = expected;
    for (const ViewStep& step : steps) {
      target.rebind(step.apply(target));
    }
    Tensor<double> scaled = values.reverse().copy();
    strata::for_each_indexed(
        strata::seq, scaled, strata::relative,
        [&](strata::IndexSpan, double& x) { x *= static_cast<double>(n + 1); });
    target.assign(scaled);
    CHECK(a.get(a.region()).to_vector() == expected.to_vector());
  }
}

TEST_CASE("reductions along axes agree with a one-process loop on random tilings",
          "[dist][reduce]") {
  std::mt19937 rng(2026);
  for (int round = 0; round < 40; ++round) {
    const Tiling tiling = random_tiling(rng);
    const Distribution distribution = random_distribution(rng, tiling, world_size());
    const Index shape = tiling.shape();
    const auto rank = static_cast<std::size_t>(tiling.rank());
    // A random set of axes, in random order, some counted from the end.
    Index axes;
    for (std::size_t k = 0; k < rank; ++k) {
      if (std::uniform_int_distribution<int>(0, 1)(rng) == 1) {
        const bool from_end = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
        axes.push_back(from_end ? static_cast<index_t>(k) - static_cast<index_t>(rank)
                                : static_cast<index_t>(k));
      }
    }
    std::shuffle(axes.begin(), axes.end(), rng);
    const bool keepdims = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
    std::vector<bool> reduced(rank, false);
    for (const index_t a : axes) {
      reduced[static_cast<std::size_t>(a < 0 ? a + static_cast<index_t>(rank) : a)] = true;
    }
    // Powers of two: their sums and products are exact in any order.
    const auto value = [](strata::IndexSpan g) {
      index_t s = 0;
      for (const index_t x : g) {
        s += x;
      }
      return std::ldexp(1.0, static_cast<int>(s % 4) - 1);  // 1/2, 1, 2 or 4
    };
    DistTensor<double> a(MPI_COMM_WORLD, tiling, distribution);
    for (const index_t t : a.local_tiles()) {
      strata::for_each_indexed(strata::seq, a.tile(t),
                               [&](strata::IndexSpan g, double& x) { x = value(g); });
    }
    a.sync();
    // The reference: every global index visited once, folded into its output element.
    Index out_shape;
    Index kept_shape;
    for (std::size_t k = 0; k < rank; ++k) {
      kept_shape.push_back(reduced[k] ? 1 : shape[k]);
      if (!reduced[k] || keepdims) {
        out_shape.push_back(reduced[k] ? 1 : shape[k]);
      }
    }
    index_t out_size = 1;
    for (const index_t e : kept_shape) {
      out_size *= e;
    }
    std::vector<double> sums(static_cast<std::size_t>(out_size), 0.0);
    std::vector<double> prods(sums.size(), 1.0);
    std::vector<double> mins(sums.size(), std::numeric_limits<double>::infinity());
    std::vector<double> maxs(sums.size(), -std::numeric_limits<double>::infinity());
    index_t total = 1;
    for (const index_t e : shape) {
      total *= e;
    }
    Index g(rank, 0);
    for (index_t n = 0; n < total; ++n) {
      index_t o = 0;
      for (std::size_t k = 0; k < rank; ++k) {
        o = o * kept_shape[k] + (reduced[k] ? 0 : g[k]);
      }
      const double x = value(g);
      const auto u = static_cast<std::size_t>(o);
      sums[u] += x;
      prods[u] *= x;
      mins[u] = std::min(mins[u], x);
      maxs[u] = std::max(maxs[u], x);
      for (std::size_t k = rank; k-- > 0;) {
        if (++g[k] < shape[k]) {
          break;
        }
        g[k] = 0;
      }
    }
    INFO(tiling.to_string() << " axes " << strata::to_string(axes) << " keepdims " << keepdims);
    const Tensor<double> s = a.sum(axes, keepdims);
    const Tensor<double> p = a.prod(axes, keepdims);
    const Tensor<double> lo = a.min(axes, keepdims);
    const Tensor<double> hi = a.max(axes, keepdims);
    CHECK(s.shape() == out_shape);
    CHECK(lo.shape() == out_shape);
    CHECK(s.to_vector() == sums);
    CHECK(p.to_vector() == prods);
    CHECK(lo.to_vector() == mins);
    CHECK(hi.to_vector() == maxs);
  }
}

TEST_CASE("reductions along axes give the same bits for any rank count and distribution",
          "[dist][reduce]") {
  const Tiling tiling({{0, 3, 4, 11}, {0, 2, 9}, {0, 5, 6}});
  const auto fill = [](DistTensor<double>& a) {
    for (const index_t t : a.local_tiles()) {
      strata::for_each_indexed(
          strata::seq, a.tile(t), [](index_t i, index_t j, index_t k, double& x) {
            x = 0.1 * static_cast<double>(i) + 1.0 / static_cast<double>(j + 3) +
                std::sqrt(static_cast<double>(k + 1));
          });
    }
    a.sync();
  };
  const auto bits = [](const Tensor<double>& t) {
    std::vector<std::uint64_t> b;
    for (const double x : t.to_vector()) {
      b.push_back(std::bit_cast<std::uint64_t>(x));
    }
    return b;
  };
  DistTensor<double> cyclic(MPI_COMM_WORLD, tiling, Distribution::cyclic());
  DistTensor<double> scrambled(MPI_COMM_WORLD, tiling,
                               Distribution::by(
                                   [n = world_size()](strata::IndexSpan c) {
                                     return static_cast<int>((5 * c[0] + 3 * c[1] + c[2]) % n);
                                   },
                                   "scrambled"));
  fill(cyclic);
  fill(scrambled);
  // One rank alone (its own communicator) computes the one-process answer.
  MPI_Comm alone = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() == 0 ? 0 : MPI_UNDEFINED, 0, &alone);
  for (const Index& axes : {Index{0}, Index{1}, Index{2}, Index{0, 2}, Index{2, 1, 0}}) {
    INFO("axes " << strata::to_string(axes));
    const Tensor<double> s = cyclic.sum(axes);
    CHECK(bits(s) == bits(scrambled.sum(axes)));
    if (alone != MPI_COMM_NULL) {
      DistTensor<double> one(alone, tiling, Distribution::block());
      fill(one);
      CHECK(bits(s) == bits(one.sum(axes)));
    }
  }
  if (alone != MPI_COMM_NULL) {
    MPI_Comm_free(&alone);
  }
}

TEST_CASE("at_global reaches local elements by global index, with or without ghosts",
          "[dist][at_global]") {
  const int n = world_size();
  const int me = world_rank();
  const Index shape{7, 5};
  const Tiling tiling = Tiling::regular(shape, Index{3, 2});
  for (const bool ghosted : {false, true}) {
    DistTensor<double> a = ghosted
                               ? DistTensor<double>(MPI_COMM_WORLD, tiling,
                                                    Distribution::block(Index{std::min(n, 2), 1}),
                                                    {Index{1, 1}, Index{1, 1}, true})
                               : DistTensor<double>(MPI_COMM_WORLD, tiling, Distribution::cyclic());
    fill_by_index(a);
    index_t local = 0;
    for (index_t i = 0; i < shape[0]; ++i) {
      for (index_t j = 0; j < shape[1]; ++j) {
        const Index g{i, j};
        const int owner = a.owner(tiling.tile_at(g));
        if (owner == me) {
          ++local;
          CHECK(a.at_global(i, j) == value_at(g));
          CHECK(std::as_const(a).at_global(g) == value_at(g));
          a.at_global(i, j) = -value_at(g);  // writes the tile's element
          CHECK(a.tile(tiling.tile_at(g))
                    .select({i - tiling.tile_lo(tiling.tile_at(g))[0],
                             j - tiling.tile_lo(tiling.tile_at(g))[1]})
                    .to_vector() == std::vector<double>{-value_at(g)});
        } else {
          std::string owned = "owned by rank ";
          owned += std::to_string(owner);
          check_error<strata::IndexError>([&] { (void)a.at_global(i, j); }, "DistTensor::at_global",
                                          owned);
        }
      }
    }
    index_t all = 0;
    MPI_Allreduce(&local, &all, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    CHECK(all == 35);
    a.sync();
    // What other ranks wrote through at_global is what get() reads.
    const Tensor<double> whole = a.get(Index{0, 0}, shape);
    bool negated = true;
    strata::for_each_indexed(strata::seq, whole, [&](strata::IndexSpan g, double x) {
      negated = negated && x == -value_at(g);
    });
    CHECK(negated);
    check_error<strata::IndexError>([&] { (void)a.at_global(7, 0); }, "DistTensor::at_global",
                                    "[7 0]");
    check_error<strata::IndexError>([&] { (void)a.at_global(1); }, "DistTensor::at_global", "[1]");
    check_error<strata::IndexError>([&] { (void)a.at_global(0, -1); }, "DistTensor::at_global",
                                    "[0 -1]");
  }
}

TEST_CASE("ghosts given at construction are checked as set_ghosts checks them",
          "[dist][ghosts][errors]") {
  const int me = world_rank();
  const Tiling tiling = Tiling::regular(Index{6, 6}, Index{3, 3});
  check_error<strata::ShapeError>(
      [&] {
        DistTensor<double> a(MPI_COMM_WORLD, tiling, Distribution::block(),
                             {Index{1, 4}, Index{1, 1}, false});
      },
      "DistTensor", "[1 4]");
  check_error<strata::ShapeError>(
      [&] {
        DistTensor<double> a(MPI_COMM_WORLD, tiling, Distribution::block(),
                             {Index{1}, Index{1}, false});
      },
      "DistTensor", "ghost widths [1]");
  if (world_size() > 1) {
    check_error<strata::dist::CollectiveError>(
        [&] {
          DistTensor<double> a(MPI_COMM_WORLD, tiling, Distribution::block(),
                               {Index{1, me == 0 ? 1 : 2}, Index{1, 1}, false});
        },
        "DistTensor", "different arguments");
  }
}

TEST_CASE("collectives on different tensors on different ranks throw instead of waiting",
          "[dist][errors][collective]") {
  // a and b have the same tiling and distribution: only their identities tell them apart.
  const int n = world_size();
  const int me = world_rank();
  const Index shape{6, 6};
  const auto tiling = Tiling::regular(shape, Index{3, 3});
  DistTensor<double> a(MPI_COMM_WORLD, tiling, Distribution::cyclic());
  DistTensor<double> b(MPI_COMM_WORLD, tiling, Distribution::cyclic());
  DistTensor<double> c(MPI_COMM_WORLD, tiling, Distribution::cyclic());
  fill_by_index(a);
  a.sync();
  const auto before = c.get(Index{0, 0}, shape).to_vector();
  if (n > 1) {
    DistTensor<double>& mine = me == 0 ? b : a;
    check_error<strata::dist::CollectiveError>([&] { c.assign(mine); }, "DistTensor::assign",
                                               "different arguments");
    CHECK(c.get(Index{0, 0}, shape).to_vector() == before);
    check_error<strata::dist::CollectiveError>(
        [&] {
          (void)mine.redistribute(Tiling::regular(shape, Index{2, 6}), Distribution::block());
        },
        "DistTensor::redistribute", "different arguments");
    check_error<strata::dist::CollectiveError>([&] { mine.sync(); }, "DistTensor::sync",
                                               "different arguments");
    check_error<strata::dist::CollectiveError>([&] { (void)mine.sum(); }, "DistTensor::sum",
                                               "different arguments");
    check_error<strata::dist::CollectiveError>([&] { (void)mine.sum(Index{0}); }, "DistTensor::sum",
                                               "different arguments");
    check_error<strata::dist::CollectiveError>([&] { (void)mine.gather(0); }, "DistTensor::gather",
                                               "different arguments");
    check_error<strata::dist::CollectiveError>([&] { mine.scatter(0, Tensor<double>(shape)); },
                                               "DistTensor::scatter", "different arguments");
    check_error<strata::dist::CollectiveError>(
        [&] {
          mine.set_ghosts(strata::dist::Ghosts{Index{1, 1}, Index{1, 1}, false});
        },
        "DistTensor::set_ghosts", "different arguments");
    check_error<strata::dist::CollectiveError>([&] { mine.update_ghosts(); },
                                               "DistTensor::update_ghosts", "different arguments");
  }
  // The same calls on the same tensors still work, and nothing was changed.
  c.assign(a);
  CHECK(c.get(Index{0, 0}, shape).to_vector() == a.get(Index{0, 0}, shape).to_vector());
  CHECK(b.sum() == 0.0);
  // A tensor over a communicator of the user's checks on that one, and outlives the user's
  // handle to it. (A duplicate, not a split: Open MPI 4.1's osc/rdma windows made at once on
  // disjoint communicators of one node can collide in /dev/shm: docs/distributed.md.)
  MPI_Comm mine = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &mine);
  {
    DistTensor<double> h(mine, tiling, Distribution::block());
    MPI_Comm_free(&mine);  // the tensor outlives the user's handle
    h.fill_local(1.0);
    CHECK(h.sum() == 36.0);
  }
}

TEST_CASE("bad input to distributed tensors is rejected on every rank, nothing changed",
          "[dist][errors]") {
  const int n = world_size();
  const int me = world_rank();
  const Index shape{6, 5};
  DistTensor<double> a(MPI_COMM_WORLD, Tiling::regular(shape, Index{4, 2}), Distribution::cyclic());
  fill_by_index(a);
  const Index zero{0, 0};
  const auto before = a.get(zero, shape).to_vector();
  check_error<strata::IndexError>(
      [&] {
        (void)a.get(Index{0, 0}, Index{7, 5});
      },
      "DistTensor::get", "[7 5]");
  check_error<strata::IndexError>([&] { (void)a.get(Index{0}, Index{6}); }, "DistTensor::get",
                                  "[6]");
  check_error<strata::IndexError>(
      [&] {
        a.put(Index{3, 3}, Index{2, 5}, Tensor<double>(Index{0, 2}));
      },
      "DistTensor::put", "[3 3]");
  check_error<strata::ShapeError>(
      [&] {
        a.put(Index{0, 0}, Index{2, 2}, Tensor<double>(Index{2, 3}));
      },
      "DistTensor::put", "[2 3]");
  check_error<strata::ShapeError>(
      [&] {
        a.accumulate(Index{0, 0}, Index{2, 2}, Tensor<double>(Index{4}));
      },
      "DistTensor::accumulate", "[4]");
  check_error<strata::IndexError>([&] { (void)a.owner(10); }, "DistTensor::owner", "tile 10");
  const strata::dist::Region rows = a.region().select({strata::Range{0, 6, 2}});  // 3 x 5
  check_error<strata::ShapeError>(
      [&] {
        (void)a.get(strata::dist::Region(Index{6, 6}));
      },
      "DistTensor::get", "[6 6]");
  check_error<strata::ShapeError>(
      [&] {
        a.put(rows.transpose(), Tensor<double>(Index{3, 5}));
      },
      "DistTensor::put", "[3 5]");
  check_error<strata::ShapeError>(
      [&] {
        a.accumulate(rows, Tensor<double>(Index{5, 3}));
      },
      "DistTensor::accumulate", "[5 3]");
  check_error<strata::IndexError>([&] { (void)a.region().select({6}); }, "select", "6");
  check_error<strata::IndexError>([&] { (void)rows.rotate(1, 2); }, "rotate", "2");
  check_error<strata::ShapeError>([&] { (void)rows.transpose(Index{0, 0}); }, "transpose", "[0 0]");
  check_error<strata::IndexError>(
      [&] {
        (void)rows.global(Index{3, 0});
      },
      "Region::global", "[3 0]");
  Tensor<double> row_into(Index{1, 5});
  row_into.fill(5.0);
  check_error<strata::LayoutError>(
      [&] {
        a.get(rows, row_into.broadcast({3, 5}));
      },
      "DistTensor::get", "share addresses");
  CHECK(row_into.to_vector() == std::vector<double>(5, 5.0));
  Tensor<double> into(Index{2, 2});
  into.fill(5.0);
  check_error<strata::ShapeError>(
      [&] {
        a.get(Index{0, 0}, Index{2, 3}, into);
      },
      "DistTensor::get", "[2 2]");
  check_error<strata::LayoutError>(
      [&] {
        a.get(Index{0, 0}, Index{2, 2}, into.select({0}).unsqueeze(0).broadcast({2, 2}));
      },
      "DistTensor::get", "share addresses");
  CHECK(into.to_vector() == std::vector<double>(4, 5.0));
  if (n > 1) {
    const index_t other = me == 0 ? 1 : 0;  // tile 0 is rank 0's, tile 1 rank 1's (cyclic)
    check_error<strata::IndexError>([&] { (void)a.tile(other); }, "DistTensor::tile",
                                    "owned by rank");
  }
  a.sync();
  CHECK(a.get(zero, shape).to_vector() == before);  // nothing was written

  // Collectives with bad or mismatched arguments throw on every rank (never hang).
  DistTensor<double> other(MPI_COMM_WORLD, Tiling::regular(Index{5, 6}, Index{2, 2}),
                           Distribution::cyclic());
  check_error<strata::ShapeError>([&] { a.assign(other); }, "DistTensor::assign", "[5 6]");
  check_error<strata::IndexError>([&] { (void)a.sum(Index{2}); }, "DistTensor::sum", "axis 2");
  check_error<strata::IndexError>([&] { (void)a.max(Index{1, -1}); }, "DistTensor::max", "twice");
  check_error<strata::IndexError>([&] { (void)a.gather(n); }, "DistTensor::gather", "root");
  check_error<strata::ShapeError>(
      [&] {
        (void)a.redistribute(Tiling::regular(Index{6, 6}, Index{3, 3}), Distribution::block());
      },
      "DistTensor::redistribute", "[6 6]");
  const auto nowhere = Distribution::by([n](strata::IndexSpan) { return n; }, "nowhere");
  check_error<strata::IndexError>(
      [&] {
        DistTensor<double> b(MPI_COMM_WORLD, Tiling::regular(shape, Index{3, 3}), nowhere);
      },
      "Distribution::owners", "does not exist");
  Tensor<double> wrong(Index{me == 0 ? 5 : 6, 5});
  if (me == 0) {
    check_error<strata::ShapeError>([&] { a.scatter(0, wrong); }, "DistTensor::scatter", "[5 5]");
  } else {
    check_error<strata::dist::CollectiveError>([&] { a.scatter(0, wrong); }, "DistTensor::scatter",
                                               "another rank");
  }
  CHECK(a.get(zero, shape).to_vector() == before);
  if (n > 1) {
    check_error<strata::dist::CollectiveError>([&] { (void)a.gather(me); }, "DistTensor::gather",
                                               "different arguments");
    check_error<strata::dist::CollectiveError>([&] { (void)a.prod(Index{me % 2}); },
                                               "DistTensor::prod", "different arguments");
    check_error<strata::dist::CollectiveError>(
        [&] {
          DistTensor<double> b(MPI_COMM_WORLD, Tiling::regular(shape, Index{me + 1, 5}),
                               Distribution::block());
        },
        "DistTensor", "different arguments");
    const auto selfish =
        Distribution::by([me](strata::IndexSpan) { return me; }, "each rank its own");
    check_error<strata::dist::CollectiveError>(
        [&] {
          DistTensor<double> b(MPI_COMM_WORLD, Tiling::regular(shape, Index{3, 3}), selfish);
        },
        "DistTensor", "different arguments");
  }
}
