// Benchmarks for the collectives of distributed tensors (strata/dist), every rank taking part:
//  - redistribute an 8192^2 float64 array from row blocks to column blocks (a distributed
//    transpose of the layout) against a hand-written MPI_Alltoallv with manual packing (into
//    buffers allocated once, outside the timing): strata's redistribute() (a new tensor each
//    time: its window's allocation and first touch included) and assign() into an existing one;
//  - a ghost (halo) update of a periodic 2-D grid, width 1, against hand-written MPI_Sendrecv
//    halos (columns with a vector type, then full rows for the corners) and, when built with
//    it, Global Arrays' GA_Update_ghosts;
//  - a 2048^2 matrix product of DistTensors in 512^2 tiles (strata::dist::einsum_into, owner
//    computes with one-sided gets) against each rank's share of the flops done locally with
//    no communication at all (the bound: rows / P of C from local A rows and all of B) and,
//    when built with it, Global Arrays' GA_Dgemm on arrays of the same tiles.
// Run under mpirun (4 ranks: a 2 x 2 process grid; other counts: P x 1). Every rank runs the
// same fixed number of iterations in lockstep; an iteration's time is the slowest rank's
// (MPI_Allreduce of the time between a barrier and the operation's end). Rank 0 reports.
#include "strata/dist/einsum.hpp"
#include "strata/dist/tensor.hpp"

#include <benchmark/benchmark.h>

#ifdef STRATA_BENCH_GA
#include <ga.h>
#include <macdecls.h>
#endif

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using strata::Index;
using strata::index_t;
using namespace strata::dist;

int g_rank = 0;
int g_ranks = 1;

/// Times @p op on every rank: @p untimed (not timed), barrier, run, the slowest rank's time.
template <class F, class G = void (*)()>
void time_collective(
    benchmark::State& state, F&& op, G&& untimed = [] {}) {
  for (auto _ : state) {
    untimed();
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    op();
    const double mine = MPI_Wtime() - start;
    double slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    state.SetIterationTime(slowest);
  }
}

/// Tile boundaries cutting [0, n) into @p parts equal blocks (the last takes the rest).
std::vector<index_t> cuts(index_t n, int parts) {
  std::vector<index_t> b;
  for (int p = 0; p <= parts; ++p) {
    b.push_back(n * p / parts);
  }
  return b;
}

// ---- redistribute: row blocks -> column blocks ------------------------------------------------

constexpr index_t kRedistribute = 8192;

void redistribute_hand(benchmark::State& state) {
  const index_t n = kRedistribute;
  const auto p = static_cast<index_t>(g_ranks);
  const std::vector<index_t> b = cuts(n, g_ranks);
  const index_t r0 = b[static_cast<std::size_t>(g_rank)];
  const index_t rows = b[static_cast<std::size_t>(g_rank) + 1] - r0;
  const index_t cols = rows;                                     // the same cuts along both axes
  std::vector<double> mine(static_cast<std::size_t>(rows * n));  // my rows, all columns
  for (std::size_t i = 0; i < mine.size(); ++i) {
    mine[i] = static_cast<double>(i);
  }
  std::vector<double> send(mine.size());
  std::vector<double> out(static_cast<std::size_t>(n * cols));  // all rows, my columns
  std::vector<int> send_counts(static_cast<std::size_t>(p));
  std::vector<int> send_starts(static_cast<std::size_t>(p));
  std::vector<int> recv_counts(static_cast<std::size_t>(p));
  std::vector<int> recv_starts(static_cast<std::size_t>(p));
  index_t at = 0;
  index_t from = 0;
  for (std::size_t d = 0; d < static_cast<std::size_t>(p); ++d) {
    const index_t their = b[d + 1] - b[d];
    send_counts[d] = static_cast<int>(rows * their);
    send_starts[d] = static_cast<int>(at);
    at += rows * their;
    recv_counts[d] = static_cast<int>(their * cols);  // their rows, my columns: contiguous
    recv_starts[d] = static_cast<int>(from);
    from += their * cols;
  }
  std::fill(out.begin(), out.end(), 0.0);  // touched once, as a program reusing it would
  time_collective(state, [&] {
    // Pack: for each destination, my rows x its columns, row by row.
    for (std::size_t d = 0; d < static_cast<std::size_t>(p); ++d) {
      const index_t c0 = b[d];
      const index_t width = b[d + 1] - c0;
      double* to = send.data() + send_starts[d];
      for (index_t i = 0; i < rows; ++i) {
        std::memcpy(to + i * width, mine.data() + i * n + c0,
                    static_cast<std::size_t>(width) * sizeof(double));
      }
    }
    MPI_Alltoallv(send.data(), send_counts.data(), send_starts.data(), MPI_DOUBLE, out.data(),
                  recv_counts.data(), recv_starts.data(), MPI_DOUBLE, MPI_COMM_WORLD);
  });
  benchmark::DoNotOptimize(out.data());
  state.SetBytesProcessed(state.iterations() * n * n * static_cast<int64_t>(sizeof(double)));
}

/// The hand-written exchange into a new output array each time (allocated and first touched,
/// as a new tensor is): the like-for-like baseline of redistribute().
void redistribute_hand_new_buffer(benchmark::State& state) {
  const index_t n = kRedistribute;
  const auto p = static_cast<index_t>(g_ranks);
  const std::vector<index_t> b = cuts(n, g_ranks);
  const index_t r0 = b[static_cast<std::size_t>(g_rank)];
  const index_t rows = b[static_cast<std::size_t>(g_rank) + 1] - r0;
  const index_t cols = rows;
  std::vector<double> mine(static_cast<std::size_t>(rows * n), 1.0);
  std::vector<double> send(mine.size());
  std::vector<int> send_counts(static_cast<std::size_t>(p));
  std::vector<int> send_starts(static_cast<std::size_t>(p));
  std::vector<int> recv_counts(static_cast<std::size_t>(p));
  std::vector<int> recv_starts(static_cast<std::size_t>(p));
  index_t at = 0;
  for (std::size_t d = 0; d < static_cast<std::size_t>(p); ++d) {
    const index_t their = b[d + 1] - b[d];
    send_counts[d] = static_cast<int>(rows * their);
    send_starts[d] = static_cast<int>(at);
    recv_counts[d] = static_cast<int>(their * cols);
    recv_starts[d] = static_cast<int>(b[d] * cols);
    at += rows * their;
  }
  std::unique_ptr<double[]> out;
  time_collective(
      state,
      [&] {
        out = std::make_unique<double[]>(static_cast<std::size_t>(n * cols));  // zeroed
        for (std::size_t d = 0; d < static_cast<std::size_t>(p); ++d) {
          const index_t c0 = b[d];
          const index_t width = b[d + 1] - c0;
          double* to = send.data() + send_starts[d];
          for (index_t i = 0; i < rows; ++i) {
            std::memcpy(to + i * width, mine.data() + i * n + c0,
                        static_cast<std::size_t>(width) * sizeof(double));
          }
        }
        MPI_Alltoallv(send.data(), send_counts.data(), send_starts.data(), MPI_DOUBLE, out.get(),
                      recv_counts.data(), recv_starts.data(), MPI_DOUBLE, MPI_COMM_WORLD);
      },
      [&] { out.reset(); });
  state.SetBytesProcessed(state.iterations() * n * n * static_cast<int64_t>(sizeof(double)));
}

void redistribute_strata(benchmark::State& state) {
  const index_t n = kRedistribute;
  const std::vector<index_t> b = cuts(n, g_ranks);
  const std::vector<index_t> whole{0, n};
  DistTensor<double> rows(MPI_COMM_WORLD, Tiling({b, whole}), Distribution::block());
  for (const index_t t : rows.local_tiles()) {
    rows.tile(t).fill(1.0);
  }
  rows.sync();
  const Tiling columns({whole, b});
  std::unique_ptr<DistTensor<double>> out;
  time_collective(
      state,
      [&] {
        out =
            std::make_unique<DistTensor<double>>(rows.redistribute(columns, Distribution::block()));
      },
      [&] { out.reset(); });  // the previous result is freed before the clock starts
  state.SetBytesProcessed(state.iterations() * n * n * static_cast<int64_t>(sizeof(double)));
}

void redistribute_strata_assign(benchmark::State& state) {
  const index_t n = kRedistribute;
  const std::vector<index_t> b = cuts(n, g_ranks);
  const std::vector<index_t> whole{0, n};
  DistTensor<double> rows(MPI_COMM_WORLD, Tiling({b, whole}), Distribution::block());
  for (const index_t t : rows.local_tiles()) {
    rows.tile(t).fill(1.0);
  }
  rows.sync();
  DistTensor<double> columns(MPI_COMM_WORLD, Tiling({whole, b}), Distribution::block());
  time_collective(state, [&] { columns.assign(rows); });
  state.SetBytesProcessed(state.iterations() * n * n * static_cast<int64_t>(sizeof(double)));
}

// ---- ghost update of a periodic 2-D grid, width 1 ---------------------------------------------

/// The process grid: 2 x 2 on 4 ranks, P x 1 otherwise.
std::pair<int, int> process_grid() {
  return g_ranks == 4 ? std::pair{2, 2} : std::pair{g_ranks, 1};
}

void ghosts_hand(benchmark::State& state, index_t n) {
  const auto [p0, p1] = process_grid();
  const int i0 = g_rank / p1;
  const int i1 = g_rank % p1;
  const index_t rows = n / p0;  // n divides by the grid here
  const index_t cols = n / p1;
  const index_t ld = cols + 2;
  std::vector<double> a(static_cast<std::size_t>((rows + 2) * ld), 1.0);
  const auto at = [&](index_t i, index_t j) { return a.data() + i * ld + j; };
  const int up = ((i0 + p0 - 1) % p0) * p1 + i1;
  const int down = ((i0 + 1) % p0) * p1 + i1;
  const int left = i0 * p1 + (i1 + p1 - 1) % p1;
  const int right = i0 * p1 + (i1 + 1) % p1;
  MPI_Datatype column;  // one interior column: rows elements, ld apart
  MPI_Type_vector(static_cast<int>(rows), 1, static_cast<int>(ld), MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  const int row = static_cast<int>(ld);  // a full row, ghost columns included (the corners)
  time_collective(state, [&] {
    MPI_Sendrecv(at(1, 1), 1, column, left, 0, at(1, cols + 1), 1, column, right, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(at(1, cols), 1, column, right, 1, at(1, 0), 1, column, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(at(1, 0), row, MPI_DOUBLE, up, 2, at(rows + 1, 0), row, MPI_DOUBLE, down, 2,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(at(rows, 0), row, MPI_DOUBLE, down, 3, at(0, 0), row, MPI_DOUBLE, up, 3,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  });
  MPI_Type_free(&column);
  benchmark::DoNotOptimize(a.data());
}

void ghosts_strata(benchmark::State& state, index_t n) {
  const auto [p0, p1] = process_grid();
  DistTensor<double> a(MPI_COMM_WORLD,
                       Tiling({cuts(n, p0), cuts(n, p1)}),  // one tile per rank, row-major
                       Distribution::block());
  a.fill_local(1.0);
  a.set_ghosts({Index{1, 1}, Index{1, 1}, true});
  time_collective(state, [&] { a.update_ghosts(); });
}

#ifdef STRATA_BENCH_GA
void ghosts_ga(benchmark::State& state, index_t n) {
  int dims[2] = {static_cast<int>(n), static_cast<int>(n)};
  int width[2] = {1, 1};
  int chunk[2] = {-1, -1};
  const int g = NGA_Create_ghosts(C_DBL, 2, dims, width, const_cast<char*>("grid"), chunk);
  double one = 1.0;
  GA_Fill(g, &one);
  GA_Sync();
  time_collective(state, [&] { GA_Update_ghosts(g); });
  GA_Destroy(g);
}
#endif

// ---- matrix product, 2048^2 in 512^2 tiles ---------------------------------------------------

constexpr index_t kMatmul = 2048;
constexpr index_t kMatmulTile = 512;

Distribution matmul_distribution() {
  const auto [p0, p1] = process_grid();
  return Distribution::block_cyclic(Index{p0, p1});
}

void matmul_local_share(benchmark::State& state) {  // no communication: the bound
  const index_t rows = kMatmul / g_ranks;
  strata::Tensor<double> a({rows, kMatmul});
  strata::Tensor<double> b({kMatmul, kMatmul});
  strata::Tensor<double> c({rows, kMatmul});
  a.fill(1.0);
  b.fill(1.0);
  time_collective(state, [&] { strata::einsum_into(c, "ij,jk->ik", a, b); });
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * kMatmul * kMatmul * kMatmul,
                         benchmark::Counter::kIsRate | benchmark::Counter::kIsIterationInvariant,
                         benchmark::Counter::kIs1000);
}

void matmul_strata(benchmark::State& state) {
  const Tiling tiling = Tiling::regular(Index{kMatmul, kMatmul}, Index{kMatmulTile, kMatmulTile});
  DistTensor<double> a(MPI_COMM_WORLD, tiling, matmul_distribution());
  DistTensor<double> b(MPI_COMM_WORLD, tiling, matmul_distribution());
  DistTensor<double> c(MPI_COMM_WORLD, tiling, matmul_distribution());
  a.fill_local(1.0);
  b.fill_local(1.0);
  a.sync();
  b.sync();
  time_collective(state, [&] { strata::dist::einsum_into(c, "ij,jk->ik", a, b); });
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * kMatmul * kMatmul * kMatmul,
                         benchmark::Counter::kIsRate | benchmark::Counter::kIsIterationInvariant,
                         benchmark::Counter::kIs1000);
}

void matmul_strata_new(benchmark::State& state) {  // the user's first spelling: a new tensor
  const Tiling tiling = Tiling::regular(Index{kMatmul, kMatmul}, Index{kMatmulTile, kMatmulTile});
  DistTensor<double> a(MPI_COMM_WORLD, tiling, matmul_distribution());
  DistTensor<double> b(MPI_COMM_WORLD, tiling, matmul_distribution());
  a.fill_local(1.0);
  b.fill_local(1.0);
  a.sync();
  b.sync();
  std::unique_ptr<DistTensor<double>> c;
  time_collective(
      state,
      [&] { c = std::make_unique<DistTensor<double>>(strata::dist::einsum("ij,jk->ik", a, b)); },
      [&] { c.reset(); });  // the previous result is freed before the clock starts
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * kMatmul * kMatmul * kMatmul,
                         benchmark::Counter::kIsRate | benchmark::Counter::kIsIterationInvariant,
                         benchmark::Counter::kIs1000);
}

#ifdef STRATA_BENCH_GA
void matmul_ga(benchmark::State& state) {
  int dims[2] = {static_cast<int>(kMatmul), static_cast<int>(kMatmul)};
  int block[2] = {static_cast<int>(kMatmulTile), static_cast<int>(kMatmulTile)};
  const auto [p0, p1] = process_grid();
  int grid[2] = {p0, p1};
  int g[3];
  for (int& h : g) {
    h = GA_Create_handle();
    GA_Set_data(h, 2, dims, C_DBL);
    GA_Set_block_cyclic_proc_grid(h, block, grid);
    GA_Allocate(h);
    double one = 1.0;
    GA_Fill(h, &one);
  }
  GA_Sync();
  const int n = static_cast<int>(kMatmul);
  time_collective(state, [&] { GA_Dgemm('N', 'N', n, n, n, 1.0, g[0], g[1], 0.0, g[2]); });
  for (const int h : g) {
    GA_Destroy(h);
  }
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * kMatmul * kMatmul * kMatmul,
                         benchmark::Counter::kIsRate | benchmark::Counter::kIsIterationInvariant,
                         benchmark::Counter::kIs1000);
}
#endif

void register_all() {
  benchmark::RegisterBenchmark("redistribute_8192/hand_alltoallv", redistribute_hand)
      ->Iterations(5)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("redistribute_8192/hand_alltoallv_new_buffer",
                               redistribute_hand_new_buffer)
      ->Iterations(5)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("redistribute_8192/strata_new_tensor", redistribute_strata)
      ->Iterations(5)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("redistribute_8192/strata_assign", redistribute_strata_assign)
      ->Iterations(5)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  for (const index_t n : {index_t{1024}, index_t{4096}}) {
    const std::string task = "ghosts_" + std::to_string(n);
    benchmark::RegisterBenchmark((task + "/hand_sendrecv").c_str(), ghosts_hand, n)
        ->Iterations(400)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((task + "/strata").c_str(), ghosts_strata, n)
        ->Iterations(400)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
#ifdef STRATA_BENCH_GA
    benchmark::RegisterBenchmark((task + "/global_arrays").c_str(), ghosts_ga, n)
        ->Iterations(400)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
#endif
  }
  benchmark::RegisterBenchmark("matmul_2048/local_share_no_communication", matmul_local_share)
      ->Iterations(3)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("matmul_2048/strata_einsum_into", matmul_strata)
      ->Iterations(3)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("matmul_2048/strata_einsum_new_tensor", matmul_strata_new)
      ->Iterations(3)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
#ifdef STRATA_BENCH_GA
  benchmark::RegisterBenchmark("matmul_2048/global_arrays_dgemm", matmul_ga)
      ->Iterations(3)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
#endif
}

/// Reports nothing (the ranks other than 0).
class Silent : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context& /*context*/) override { return true; }
  void ReportRuns(const std::vector<Run>& /*runs*/) override {}
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_ranks);
#ifdef STRATA_BENCH_GA
  GA_Initialize();
  MA_init(C_DBL, 1 << 20, 1 << 20);
#endif
  // Every rank runs the same benchmarks (the same filter); only rank 0 writes results.
  std::vector<char*> args(argv, argv + argc);
  if (g_rank != 0) {
    std::erase_if(args, [](const char* a) { return std::strncmp(a, "--benchmark_out", 15) == 0; });
  }
  int n_args = static_cast<int>(args.size());
  register_all();
  benchmark::Initialize(&n_args, args.data());
  if (g_rank == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    Silent silent;
    benchmark::RunSpecifiedBenchmarks(&silent);
  }
  benchmark::Shutdown();
#ifdef STRATA_BENCH_GA
  GA_Terminate();
#endif
  MPI_Finalize();
  return 0;
}
