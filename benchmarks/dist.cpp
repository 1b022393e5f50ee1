// Benchmarks for distributed tensors (strata/dist): get / put of square patches that cross tile
// owners, strata's DistTensor against the same transfers written by hand with MPI (a window of
// the same layout, MPI_Type_create_subarray on both sides, one MPI_Get / MPI_Put per tile,
// MPI_Win_flush per owner) and Global Arrays' NGA_Get / NGA_Put of the same patches (an array
// of the same tiles and owners: GA's block-cyclic distribution over the same 2 x 2 grid), when
// built with GA. strata runs both of its routes: copies through a shared-memory window (all
// ranks on one node, the default here) and MPI_Get / MPI_Put (STRATA_SHARED_WINDOWS=0, as on
// several nodes). Run under mpirun (4 ranks: a 2 x 2 block-cyclic grid); rank 0 runs the
// benchmarks (one-sided: the other ranks only wait), the others wait in a barrier, asleep
// between polls (MPI_TEST every 200 us, which also lets MPI progress their side). With
// --all_ranks every rank moves random patches at once instead (see all_ranks()).
#include "strata/dist/tensor.hpp"

#include <benchmark/benchmark.h>

#ifdef STRATA_BENCH_GA
#include <ga.h>
#include <macdecls.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace {

using strata::Index;
using strata::index_t;
using strata::Tensor;
using namespace strata::dist;

constexpr index_t kN = 4096;     // 4096 x 4096 doubles: 128 MiB over the ranks
constexpr index_t kTile = 1024;  // 4 x 4 tiles, block-cyclic over 2 x 2 ranks
constexpr index_t kAt = 100;     // patches start at (100, 100): they cross tile owners

DistTensor<double>* g_strata = nullptr;      // shared memory on one node: copies
DistTensor<double>* g_strata_rma = nullptr;  // STRATA_SHARED_WINDOWS=0: MPI_Get / MPI_Put

/// The hand-written peer: the same tiles, owners and window layout, computed by hand.
struct Hand {
  int ranks = 1;
  MPI_Win window = MPI_WIN_NULL;
  double* base = nullptr;
  std::vector<int> owner;       // per tile
  std::vector<MPI_Aint> first;  // per tile: its first element in its owner's window
  static constexpr index_t grid = kN / kTile;

  explicit Hand(MPI_Comm comm) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &ranks);
    std::vector<MPI_Aint> used(static_cast<std::size_t>(ranks), 0);
    for (index_t t = 0; t < grid * grid; ++t) {
      const index_t I = t / grid;
      const index_t J = t % grid;
      const int o =
          ranks == 4 ? static_cast<int>((I % 2) * 2 + J % 2) : static_cast<int>(t % ranks);
      owner.push_back(o);
      first.push_back(used[static_cast<std::size_t>(o)]);
      used[static_cast<std::size_t>(o)] += kTile * kTile;
    }
    MPI_Win_allocate(std::max<MPI_Aint>(used[static_cast<std::size_t>(rank)], 1) *
                         static_cast<MPI_Aint>(sizeof(double)),
                     sizeof(double), MPI_INFO_NULL, comm, &base, &window);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, window);
  }
  ~Hand() {
    MPI_Win_unlock_all(window);
    MPI_Win_free(&window);
  }
  Hand(const Hand&) = delete;
  Hand& operator=(const Hand&) = delete;

  enum class Kind { get, put, accumulate };

  /// Gets, puts or accumulates (MPI_SUM) the patch [lo, lo + size)^2 into or from a dense
  /// size x size array.
  void transfer(double* patch, index_t lo, index_t size, Kind kind) const {
    transfer(patch, Index{lo, lo}, size, kind);
  }
  /// The same for the patch at @p lo (row, column).
  void transfer(double* patch, const Index& lo, index_t size, Kind kind) const {
    std::vector<int> touched;
    const Index hi{lo[0] + size, lo[1] + size};
    for (index_t I = lo[0] / kTile; I <= (hi[0] - 1) / kTile; ++I) {
      for (index_t J = lo[1] / kTile; J <= (hi[1] - 1) / kTile; ++J) {
        const index_t r0 = std::max(lo[0], I * kTile);
        const index_t r1 = std::min(hi[0], (I + 1) * kTile);
        const index_t c0 = std::max(lo[1], J * kTile);
        const index_t c1 = std::min(hi[1], (J + 1) * kTile);
        const int sub[2] = {static_cast<int>(r1 - r0), static_cast<int>(c1 - c0)};
        const int whole_patch[2] = {static_cast<int>(size), static_cast<int>(size)};
        const int at_patch[2] = {static_cast<int>(r0 - lo[0]), static_cast<int>(c0 - lo[1])};
        const int whole_tile[2] = {static_cast<int>(kTile), static_cast<int>(kTile)};
        const int at_tile[2] = {static_cast<int>(r0 - I * kTile), static_cast<int>(c0 - J * kTile)};
        MPI_Datatype origin;
        MPI_Datatype target;
        MPI_Type_create_subarray(2, whole_patch, sub, at_patch, MPI_ORDER_C, MPI_DOUBLE, &origin);
        MPI_Type_create_subarray(2, whole_tile, sub, at_tile, MPI_ORDER_C, MPI_DOUBLE, &target);
        MPI_Type_commit(&origin);
        MPI_Type_commit(&target);
        const auto t = static_cast<std::size_t>(I * grid + J);
        if (kind == Kind::get) {
          MPI_Get(patch, 1, origin, owner[t], first[t], 1, target, window);
        } else if (kind == Kind::put) {
          MPI_Put(patch, 1, origin, owner[t], first[t], 1, target, window);
        } else {
          MPI_Accumulate(patch, 1, origin, owner[t], first[t], 1, target, MPI_SUM, window);
        }
        MPI_Type_free(&origin);
        MPI_Type_free(&target);
        touched.push_back(owner[t]);
      }
    }
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (const int o : touched) {
      MPI_Win_flush(o, window);
    }
  }
};

Hand* g_hand = nullptr;

void set_bytes(benchmark::State& state, index_t side) {
  state.SetBytesProcessed(state.iterations() * side * side * static_cast<int64_t>(sizeof(double)));
}

void get_hand(benchmark::State& state, index_t side) {
  std::vector<double> patch(static_cast<std::size_t>(side * side));
  for (auto _ : state) {
    g_hand->transfer(patch.data(), kAt, side, Hand::Kind::get);
    benchmark::DoNotOptimize(patch.data());
  }
  set_bytes(state, side);
}

void get_strata(benchmark::State& state, index_t side) {
  const Index lo{kAt, kAt};
  const Index hi{kAt + side, kAt + side};
  for (auto _ : state) {
    Tensor<double> patch = g_strata->get(lo, hi);
    benchmark::DoNotOptimize(patch.data());
  }
  set_bytes(state, side);
}

void get_strata_into(benchmark::State& state, index_t side) {
  const Index lo{kAt, kAt};
  const Index hi{kAt + side, kAt + side};
  Tensor<double> patch({side, side});
  for (auto _ : state) {
    g_strata->get(lo, hi, patch);
    benchmark::DoNotOptimize(patch.data());
  }
  set_bytes(state, side);
}

void get_strata_rma(benchmark::State& state, index_t side) {
  const Index lo{kAt, kAt};
  const Index hi{kAt + side, kAt + side};
  Tensor<double> patch({side, side});
  for (auto _ : state) {
    g_strata_rma->get(lo, hi, patch);
    benchmark::DoNotOptimize(patch.data());
  }
  set_bytes(state, side);
}

void put_strata_rma(benchmark::State& state, index_t side) {
  const Index lo{kAt, kAt};
  const Index hi{kAt + side, kAt + side};
  Tensor<double> patch({side, side});
  patch.fill(1.0);
  for (auto _ : state) {
    g_strata_rma->put(lo, hi, patch);
  }
  set_bytes(state, side);
}

void put_hand(benchmark::State& state, index_t side) {
  std::vector<double> patch(static_cast<std::size_t>(side * side), 1.0);
  for (auto _ : state) {
    g_hand->transfer(patch.data(), kAt, side, Hand::Kind::put);
  }
  set_bytes(state, side);
}

void put_strata(benchmark::State& state, index_t side) {
  const Index lo{kAt, kAt};
  const Index hi{kAt + side, kAt + side};
  Tensor<double> patch({side, side});
  patch.fill(1.0);
  for (auto _ : state) {
    g_strata->put(lo, hi, patch);
  }
  set_bytes(state, side);
}

void accumulate_hand(benchmark::State& state, index_t side) {
  std::vector<double> patch(static_cast<std::size_t>(side * side), 1.0);
  for (auto _ : state) {
    g_hand->transfer(patch.data(), kAt, side, Hand::Kind::accumulate);
  }
  set_bytes(state, side);
}

void accumulate_with(DistTensor<double>* a, benchmark::State& state, index_t side) {
  const Index lo{kAt, kAt};
  const Index hi{kAt + side, kAt + side};
  Tensor<double> patch({side, side});
  patch.fill(1.0);
  for (auto _ : state) {
    a->accumulate(lo, hi, patch);
  }
  set_bytes(state, side);
}

void accumulate_strata(benchmark::State& state, index_t side) {
  accumulate_with(g_strata, state, side);
}

void accumulate_strata_rma(benchmark::State& state, index_t side) {
  accumulate_with(g_strata_rma, state, side);
}

#ifdef STRATA_BENCH_GA
int g_ga = 0;  // the Global Arrays handle

/// GA's inclusive corners of the patch [kAt, kAt + side)^2, and its leading dimension.
struct GaPatch {
  int lo[2];
  int hi[2];
  int ld[1];
  explicit GaPatch(index_t side)
      : lo{static_cast<int>(kAt), static_cast<int>(kAt)},
        hi{static_cast<int>(kAt + side - 1), static_cast<int>(kAt + side - 1)},
        ld{static_cast<int>(side)} {}
};

void get_ga(benchmark::State& state, index_t side) {
  std::vector<double> patch(static_cast<std::size_t>(side * side));
  GaPatch p(side);
  for (auto _ : state) {
    NGA_Get(g_ga, p.lo, p.hi, patch.data(), p.ld);
    benchmark::DoNotOptimize(patch.data());
  }
  set_bytes(state, side);
}

void put_ga(benchmark::State& state, index_t side) {
  std::vector<double> patch(static_cast<std::size_t>(side * side), 1.0);
  GaPatch p(side);
  for (auto _ : state) {
    NGA_Put(g_ga, p.lo, p.hi, patch.data(), p.ld);
  }
  set_bytes(state, side);
}

void accumulate_ga(benchmark::State& state, index_t side) {
  std::vector<double> patch(static_cast<std::size_t>(side * side), 1.0);
  GaPatch p(side);
  double one = 1.0;
  for (auto _ : state) {
    NGA_Acc(g_ga, p.lo, p.hi, patch.data(), p.ld, &one);
  }
  set_bytes(state, side);
}
#endif

// --all_ranks: every rank moves its own random patches at once, as an application does (the
// Google Benchmark runs above have rank 0 alone move one fixed patch while the others wait).
// Per operation, size and variant: a warm-up round, then 5 rounds in which each rank moves
// kPatches(size) patches at random places (the same places for every variant), timed between
// barriers; the slowest rank's time per patch in the median round, printed by rank 0.
struct Variant {
  const char* name;
  std::function<void(const Index& lo, index_t side, Tensor<double>& patch)> move;
};

double median_round(const Variant& v, index_t side, int rank, int patches) {
  Tensor<double> patch({side, side});
  patch.fill(1.0);
  std::vector<double> rounds;
  for (int round = 0; round < 6; ++round) {
    std::mt19937 places(static_cast<unsigned>(rank * 1000 + round));
    std::uniform_int_distribution<index_t> at(0, kN - side);
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    for (int p = 0; p < patches; ++p) {
      const index_t row = at(places);
      v.move(Index{row, at(places)}, side, patch);
    }
    double mine = MPI_Wtime() - start;
    double slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (round > 0) {  // round 0 warms up
      rounds.push_back(slowest / patches);
    }
  }
  std::sort(rounds.begin(), rounds.end());
  return rounds[rounds.size() / 2];
}

void all_ranks(int rank) {
  const auto box = [](const Index& lo, index_t side) {
    return std::pair{lo, Index{lo[0] + side, lo[1] + side}};
  };
  const auto hand = [](Hand::Kind kind) {
    return [kind](const Index& lo, index_t side, Tensor<double>& patch) {
      g_hand->transfer(patch.data(), lo, side, kind);
    };
  };
  const auto strata_get = [box](DistTensor<double>* a) {
    return [a, box](const Index& lo, index_t side, Tensor<double>& patch) {
      const auto [first, last] = box(lo, side);
      a->get(first, last, patch);
    };
  };
  const auto strata_accumulate = [box](DistTensor<double>* a) {
    return [a, box](const Index& lo, index_t side, Tensor<double>& patch) {
      const auto [first, last] = box(lo, side);
      a->accumulate(first, last, patch);
    };
  };
  std::vector<std::pair<const char*, std::vector<Variant>>> operations = {
      {"get",
       {{"hand_mpi", hand(Hand::Kind::get)},
        {"strata", strata_get(g_strata)},
        {"strata_mpi_get", strata_get(g_strata_rma)}}},
      {"accumulate",
       {{"hand_mpi", hand(Hand::Kind::accumulate)},
        {"strata", strata_accumulate(g_strata)},
        {"strata_mpi_accumulate", strata_accumulate(g_strata_rma)}}}};
#ifdef STRATA_BENCH_GA
  const auto ga = [](bool get) {
    return [get](const Index& lo, index_t side, Tensor<double>& patch) {
      int first[2] = {static_cast<int>(lo[0]), static_cast<int>(lo[1])};
      int last[2] = {static_cast<int>(lo[0] + side - 1), static_cast<int>(lo[1] + side - 1)};
      int ld[1] = {static_cast<int>(side)};
      double one = 1.0;
      if (get) {
        NGA_Get(g_ga, first, last, patch.data(), ld);
      } else {
        NGA_Acc(g_ga, first, last, patch.data(), ld, &one);
      }
    };
  };
  operations[0].second.push_back({"global_arrays", ga(true)});
  operations[1].second.push_back({"global_arrays", ga(false)});
#endif
  const std::pair<index_t, int> sizes[] = {{16, 2000}, {128, 200}, {512, 20}, {2048, 4}};
  if (rank == 0) {
    std::printf("all ranks at once: the slowest rank's time per patch (us), median of 5 rounds\n");
  }
  for (const auto& [operation, variants] : operations) {
    for (const auto& [side, patches] : sizes) {
      std::string line = std::string(operation) + " " + std::to_string(side) + "^2:";
      double hand_time = 0;
      for (const Variant& v : variants) {
        const double t = median_round(v, side, rank, patches) * 1e6;
        if (hand_time == 0) {
          hand_time = t;
        }
        char cell[96];
        std::snprintf(cell, sizeof cell, "  %s %.1f (%.2fx)", v.name, t, t / hand_time);
        line += cell;
      }
      if (rank == 0) {
        std::printf("%s\n", line.c_str());
      }
    }
  }
}

// Patch sides: 16^2 doubles = 2 KiB, 128^2 = 128 KiB, 512^2 = 2 MiB, 2048^2 = 32 MiB,
// 2896^2 = 64 MiB. One task per size ("get_2KiB"), its baseline the hand-written MPI.
void register_all() {
  const std::pair<index_t, const char*> sizes[] = {
      {16, "2KiB"}, {128, "128KiB"}, {512, "2MiB"}, {2048, "32MiB"}, {2896, "64MiB"}};
  using Function = void (*)(benchmark::State&, index_t);
  const std::pair<const char*, Function> variants[] = {
      {"get_%s/hand_mpi", get_hand},
      {"get_%s/strata_into", get_strata_into},
      {"get_%s/strata_new_tensor", get_strata},
      {"get_%s/strata_into_mpi_get", get_strata_rma},
      {"put_%s/hand_mpi", put_hand},
      {"put_%s/strata", put_strata},
      {"put_%s/strata_mpi_put", put_strata_rma},
      {"accumulate_%s/hand_mpi", accumulate_hand},
      {"accumulate_%s/strata", accumulate_strata},
      {"accumulate_%s/strata_mpi_accumulate", accumulate_strata_rma},
#ifdef STRATA_BENCH_GA
      {"get_%s/global_arrays", get_ga},
      {"put_%s/global_arrays", put_ga},
      {"accumulate_%s/global_arrays", accumulate_ga},
#endif
  };
  for (const auto& [pattern, function] : variants) {
    for (const auto& [side, label] : sizes) {
      std::string name(pattern);
      name.replace(name.find("%s"), 2, label);
      benchmark::RegisterBenchmark(name.c_str(), function, side)
          ->Unit(benchmark::kMicrosecond)
          ->UseRealTime();
    }
  }
}

/// A barrier in which a waiting rank sleeps between polls (MPI_Barrier busy-polls: with more
/// ranks than cores the waiters would take rank 0's cores while it is timed).
void wait_quietly() {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done != 0) {
      return;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
#ifdef STRATA_BENCH_GA
  GA_Initialize();
  MA_init(C_DBL, 1 << 20, 1 << 20);
  {
    int dims[2] = {static_cast<int>(kN), static_cast<int>(kN)};
    int block[2] = {static_cast<int>(kTile), static_cast<int>(kTile)};
    int grid[2] = {ranks == 4 ? 2 : ranks, ranks == 4 ? 2 : 1};
    g_ga = GA_Create_handle();
    GA_Set_data(g_ga, 2, dims, C_DBL);
    GA_Set_block_cyclic_proc_grid(g_ga, block, grid);
    GA_Allocate(g_ga);
    double zero = 0;
    GA_Fill(g_ga, &zero);
    GA_Sync();
  }
#endif
  {
    const Distribution d =
        ranks == 4 ? Distribution::block_cyclic(Index{2, 2}) : Distribution::cyclic();
    const Tiling tiling = Tiling::regular(Index{kN, kN}, Index{kTile, kTile});
    DistTensor<double> a(MPI_COMM_WORLD, tiling, d);
    setenv("STRATA_SHARED_WINDOWS", "0", 1);  // the same tensor on MPI_Win_allocate
    DistTensor<double> rma(MPI_COMM_WORLD, tiling, d);
    unsetenv("STRATA_SHARED_WINDOWS");
    Hand hand(MPI_COMM_WORLD);
    g_strata = &a;
    g_strata_rma = &rma;
    g_hand = &hand;
    if (argc > 1 && std::string_view(argv[1]) == "--all_ranks") {
      all_ranks(rank);
    } else if (rank == 0) {
      register_all();
      benchmark::Initialize(&argc, argv);
      benchmark::RunSpecifiedBenchmarks();
      benchmark::Shutdown();
    }
    wait_quietly();
  }
#ifdef STRATA_BENCH_GA
  GA_Destroy(g_ga);
  GA_Terminate();
#endif
  MPI_Finalize();
  return 0;
}
