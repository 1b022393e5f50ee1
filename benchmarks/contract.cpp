// Benchmarks for strata/contract/: einsum against one direct BLIS GEMM on the same matrices
// (the baseline of each group), Eigen's Tensor::contract, xtensor-blas's linalg::dot and
// tensordot (on the same BLIS, through its CBLAS interface), and the flop rate of contractions
// that need packing. scripts/bench-report prints every variant's time relative to the first.
#include "strata/contract/contract.hpp"

#include "peers/xtensor_blas.hpp"
#include "threads.hpp"

#include <benchmark/benchmark.h>
#include <blis.h>

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <cmath>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace {

using strata::index_t;
using strata::Tensor;

template <class T>
Tensor<T> random_tensor(strata::IndexSpan shape, unsigned seed) {
  Tensor<T> t(shape);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (auto&& x : t) {
    x = static_cast<T>(value(rng));
  }
  return t;
}

int threads_of(const benchmark::State& state) {
  return static_cast<int>(state.range(0));
}

rntm_t runtime(int threads) {
  rntm_t r = BLIS_RNTM_INITIALIZER;
  bli_rntm_set_num_threads(threads, &r);
  return r;
}

void blis_gemm(index_t m, index_t n, index_t k, const double* a, const double* b, double* c,
               int threads) {
  double one = 1.0;
  double zero = 0.0;
  rntm_t r = runtime(threads);
  bli_dgemm_ex(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, m, n, k, &one, const_cast<double*>(a), k, 1,
               const_cast<double*>(b), n, 1, &zero, c, n, 1, nullptr, &r);
}
void blis_gemm(index_t m, index_t n, index_t k, const float* a, const float* b, float* c,
               int threads) {
  float one = 1.0F;
  float zero = 0.0F;
  rntm_t r = runtime(threads);
  bli_sgemm_ex(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, m, n, k, &one, const_cast<float*>(a), k, 1,
               const_cast<float*>(b), n, 1, &zero, c, n, 1, nullptr, &r);
}

// ---- a matrix product, 2048^2 ------------------------------------------------------------------

constexpr index_t kN = 2048;

template <class T>
void matmul_blis(benchmark::State& state) {
  bench::set_threads(state);
  const auto a = random_tensor<T>({kN, kN}, 1);
  const auto b = random_tensor<T>({kN, kN}, 2);
  Tensor<T> c({kN, kN});
  for (auto _ : state) {
    blis_gemm(kN, kN, kN, a.data(), b.data(), c.data(), threads_of(state));
    benchmark::ClobberMemory();
  }
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * kN * kN * kN, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
}

template <class T>
void matmul_einsum(benchmark::State& state) {  // a new tensor each time, as users write it
  bench::set_threads(state);
  const auto a = random_tensor<T>({kN, kN}, 1);
  const auto b = random_tensor<T>({kN, kN}, 2);
  for (auto _ : state) {
    auto c = strata::einsum("ij,jk->ik", a, b);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * kN * kN * kN, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
}

template <class T>
void matmul_named(benchmark::State& state) {  // NumPy's a @ b: strata::matmul
  bench::set_threads(state);
  const auto a = random_tensor<T>({kN, kN}, 1);
  const auto b = random_tensor<T>({kN, kN}, 2);
  for (auto _ : state) {
    auto c = strata::matmul(a, b);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * kN * kN * kN, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
}

template <class T>
void matmul_einsum_into(benchmark::State& state) {
  bench::set_threads(state);
  const auto a = random_tensor<T>({kN, kN}, 1);
  const auto b = random_tensor<T>({kN, kN}, 2);
  Tensor<T> c({kN, kN});
  for (auto _ : state) {
    strata::einsum_into(c, "ij,jk->ik", a, b);
    benchmark::ClobberMemory();
  }
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * kN * kN * kN, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
}

template <class T>
void matmul_labelled(benchmark::State& state) {
  bench::set_threads(state);
  auto a = random_tensor<T>({kN, kN}, 1);
  auto b = random_tensor<T>({kN, kN}, 2);
  Tensor<T> c({kN, kN});
  for (auto _ : state) {
    c("i,k") = a("i,j") * b("j,k");
    benchmark::ClobberMemory();
  }
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * kN * kN * kN, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
}

template <class T>
void matmul_eigen(benchmark::State& state) {
  bench::set_threads(state);
  Eigen::Tensor<T, 2, Eigen::RowMajor> a(kN, kN);
  Eigen::Tensor<T, 2, Eigen::RowMajor> b(kN, kN);
  Eigen::Tensor<T, 2, Eigen::RowMajor> c(kN, kN);
  a.setRandom();
  b.setRandom();
  const Eigen::array<Eigen::IndexPair<int>, 1> dims{Eigen::IndexPair<int>(1, 0)};
  for (auto _ : state) {
    c = a.contract(b, dims);
    benchmark::ClobberMemory();
  }
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * kN * kN * kN, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
}

// xtensor-blas calls BLIS's CBLAS interface, whose threads are BLIS's global setting.
void set_blis_threads(const benchmark::State& state) {
  bli_thread_set_num_threads(threads_of(state));
}

template <class T>
std::vector<std::size_t> sizes_of(const Tensor<T>& t) {
  std::vector<std::size_t> shape;
  for (index_t e : t.shape()) {
    shape.push_back(static_cast<std::size_t>(e));
  }
  return shape;
}

template <class T>
void matmul_xtensor_blas(benchmark::State& state) {
  set_blis_threads(state);
  const auto a = random_tensor<T>({kN, kN}, 1);
  const auto b = random_tensor<T>({kN, kN}, 2);
  peers::XtensorBlasContraction<T> dot(sizes_of(a), a.data(), sizes_of(b), b.data(), {1}, {0}, {});
  for (auto _ : state) {
    benchmark::DoNotOptimize(dot.run());
  }
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * kN * kN * kN, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
}

// ---- contractions of 3-D and 4-D operands ------------------------------------------------------
// Each group starts with one BLIS GEMM of the same flops on contiguous matrices.

struct Case {
  std::string spec;
  strata::Index a;
  strata::Index b;
  index_t m;
  index_t n;
  index_t k;
  // The same contraction as xtensor-blas writes it: tensordot over these axes, whose result
  // (a's free axes, then b's) is transposed by out_perm when that is not empty.
  std::vector<std::size_t> axes_a;
  std::vector<std::size_t> axes_b;
  std::vector<std::size_t> out_perm;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c{
      // matricisable
      {"abc,cd->abd", {64, 64, 512}, {512, 512}, 64 * 64, 512, 512, {2}, {0}, {}},
      // a packed
      {"acb,cd->abd", {64, 512, 64}, {512, 512}, 64 * 64, 512, 512, {1}, {0}, {}},
      // both packed
      {"abcd,cedf->abef", {16, 16, 32, 16}, {32, 32, 16, 32}, 256, 1024, 512, {2, 3}, {0, 2}, {}},
      // CCSD-like
      {"ijab,abcd->ijcd", {24, 24, 24, 24}, {24, 24, 24, 24}, 576, 576, 576, {2, 3}, {0, 1}, {}},
      // permuted
      {"jiab,cdab->ijcd",
       {24, 24, 24, 24},
       {24, 24, 24, 24},
       576,
       576,
       576,
       {2, 3},
       {2, 3},
       {1, 0, 2, 3}},
  };
  return c;
}

void contraction_blis(benchmark::State& state) {
  bench::set_threads(state);
  const Case& c = cases()[static_cast<std::size_t>(state.range(1))];
  const auto a = random_tensor<double>({c.m, c.k}, 1);
  const auto b = random_tensor<double>({c.k, c.n}, 2);
  Tensor<double> out({c.m, c.n});
  for (auto _ : state) {
    blis_gemm(c.m, c.n, c.k, a.data(), b.data(), out.data(), threads_of(state));
    benchmark::ClobberMemory();
  }
  state.SetLabel(c.spec);
  state.counters["GFLOPS"] = benchmark::Counter(2.0 * static_cast<double>(c.m * c.n * c.k),
                                                benchmark::Counter::kIsIterationInvariantRate,
                                                benchmark::Counter::kIs1000);
}

void contraction_einsum(benchmark::State& state) {
  bench::set_threads(state);
  const Case& c = cases()[static_cast<std::size_t>(state.range(1))];
  const auto a = random_tensor<double>(c.a, 1);
  const auto b = random_tensor<double>(c.b, 2);
  for (auto _ : state) {
    auto out = strata::einsum(c.spec, a, b);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetLabel(c.spec);
  state.counters["GFLOPS"] = benchmark::Counter(2.0 * static_cast<double>(c.m * c.n * c.k),
                                                benchmark::Counter::kIsIterationInvariantRate,
                                                benchmark::Counter::kIs1000);
}

void contraction_xtensor_blas(benchmark::State& state) {
  set_blis_threads(state);
  const Case& c = cases()[static_cast<std::size_t>(state.range(1))];
  const auto a = random_tensor<double>(c.a, 1);
  const auto b = random_tensor<double>(c.b, 2);
  peers::XtensorBlasContraction<double> tensordot(sizes_of(a), a.data(), sizes_of(b), b.data(),
                                                  c.axes_a, c.axes_b, c.out_perm);
  // The peer must compute what einsum computes, or its time means nothing.
  const auto expected = strata::einsum(c.spec, a, b);
  const double* got = tensordot.run();
  if (static_cast<index_t>(tensordot.size()) != expected.size() ||
      !std::equal(got, got + expected.size(), expected.data(),
                  [](double x, double y) { return std::abs(x - y) < 1e-9; })) {
    state.SkipWithError("xtensor-blas's tensordot differs from einsum");
    return;
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(tensordot.run());
  }
  state.SetLabel(c.spec);
  state.counters["GFLOPS"] = benchmark::Counter(2.0 * static_cast<double>(c.m * c.n * c.k),
                                                benchmark::Counter::kIsIterationInvariantRate,
                                                benchmark::Counter::kIs1000);
}

void contraction_args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"threads", "case"});
  for (int threads : {1, 2}) {
    for (int k = 0; k < 5; ++k) {
      b->Args({threads, k});
    }
  }
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

// ---- a sparse operator applied along one mode of a dense tensor ("ij,jkl->ikl") -------------
// 10^5 rows of a 1-D Laplacian with two far couplings (5 entries a row) times [10^5, 8, 8].

constexpr index_t kOperatorRows = 100'000;
constexpr index_t kModeWidth = 64;  // 8 x 8: the dense side of each stored entry's update

Tensor<double> sparse_operator() {
  std::vector<index_t> rows;
  std::vector<index_t> cols;
  std::vector<double> values;
  for (index_t i = 0; i < kOperatorRows; ++i) {
    for (const index_t d : {index_t{-1000}, index_t{-1}, index_t{0}, index_t{1}, index_t{1000}}) {
      if (i + d >= 0 && i + d < kOperatorRows) {
        rows.push_back(i);
        cols.push_back(i + d);
        values.push_back(d == 0 ? 4.0 : -1.0);
      }
    }
  }
  return strata::sparse_from_coo({kOperatorRows, kOperatorRows}, {rows, cols}, values);
}

void sparse_mode_hand(benchmark::State& state) {  // the baseline: the CSR loop, rows in parallel
  bench::set_threads(state);
  const auto op = sparse_operator();
  const auto a = strata::csr(op);
  const auto x = random_tensor<double>({kOperatorRows, 8, 8}, 1);
  Tensor<double> y({kOperatorRows, 8, 8});
  const double* xd = x.data();
  double* yd = y.data();
  for (auto _ : state) {
#pragma omp parallel for schedule(static) num_threads(threads_of(state))
    for (index_t i = 0; i < kOperatorRows; ++i) {
      double* out = yd + i * kModeWidth;
      for (index_t t = 0; t < kModeWidth; ++t) {
        out[t] = 0;
      }
      const auto row = static_cast<std::size_t>(i);
      for (index_t e = a.offsets[row]; e < a.offsets[row + 1]; ++e) {
        const double v = a.values[static_cast<std::size_t>(e)];
        const double* in = xd + a.indices[static_cast<std::size_t>(e)] * kModeWidth;
        for (index_t t = 0; t < kModeWidth; ++t) {
          out[t] += v * in[t];
        }
      }
    }
    benchmark::ClobberMemory();
  }
}

void sparse_mode_einsum_into(benchmark::State& state) {  // into an existing tensor
  bench::set_threads(state);
  const auto op = sparse_operator();
  const auto x = random_tensor<double>({kOperatorRows, 8, 8}, 1);
  Tensor<double> y({kOperatorRows, 8, 8});
  for (auto _ : state) {
    strata::einsum_into(y, "ij,jkl->ikl", op, x);
    benchmark::ClobberMemory();
  }
}

void sparse_mode_einsum(benchmark::State& state) {  // a new tensor each time
  bench::set_threads(state);
  const auto op = sparse_operator();
  const auto x = random_tensor<double>({kOperatorRows, 8, 8}, 1);
  for (auto _ : state) {
    auto y = strata::einsum("ij,jkl->ikl", op, x);
    benchmark::DoNotOptimize(y.data());
  }
}

// ---- the same operator times a vector ("ij,j->i": an iterative solver's product) ------------

void sparse_matvec_hand(benchmark::State& state) {  // the baseline: the CSR loop, rows in parallel
  bench::set_threads(state);
  const auto op = sparse_operator();
  const auto a = strata::csr(op);
  const auto x = random_tensor<double>({kOperatorRows}, 1);
  Tensor<double> y({kOperatorRows});
  const double* xd = x.data();
  double* yd = y.data();
  for (auto _ : state) {
#pragma omp parallel for schedule(static) num_threads(threads_of(state))
    for (index_t i = 0; i < kOperatorRows; ++i) {
      const auto row = static_cast<std::size_t>(i);
      double sum = 0;
      for (index_t e = a.offsets[row]; e < a.offsets[row + 1]; ++e) {
        sum += a.values[static_cast<std::size_t>(e)] * xd[a.indices[static_cast<std::size_t>(e)]];
      }
      yd[i] = sum;
    }
    benchmark::ClobberMemory();
  }
}

void sparse_matvec_einsum_into(benchmark::State& state) {  // the arrays kept between calls
  bench::set_threads(state);
  const auto op = sparse_operator();
  const auto x = random_tensor<double>({kOperatorRows}, 1);
  Tensor<double> y({kOperatorRows});
  for (auto _ : state) {
    strata::einsum_into(y, "ij,j->i", op, x);
    benchmark::ClobberMemory();
  }
}

void sparse_matvec_sum(benchmark::State& state) {  // NumPy's spelling: a new tensor each time
  bench::set_threads(state);
  const auto op = sparse_operator();
  const auto x = random_tensor<double>({kOperatorRows}, 1);
  for (auto _ : state) {
    const Tensor<double> y = strata::sum(op * x, 1);
    benchmark::DoNotOptimize(y.data());
  }
}

void sparse_matvec_first(benchmark::State& state) {  // each call on a newly made operator
  bench::set_threads(state);
  const auto x = random_tensor<double>({kOperatorRows}, 1);
  Tensor<double> y({kOperatorRows});
  for (auto _ : state) {
    state.PauseTiming();
    const Tensor<double> fresh = sparse_operator();  // nothing kept yet
    state.ResumeTiming();
    strata::einsum_into(y, "ij,j->i", fresh, x);
    benchmark::ClobberMemory();
  }
}

// ---- paths: a 5-operand chain ----------------------------------------------------------------

void chain_plan(benchmark::State& state) {  // planning alone
  const Tensor<double> a({400, 20});
  const Tensor<double> b({20, 300});
  const Tensor<double> c({300, 10});
  const Tensor<double> d({10, 500});
  const Tensor<double> e({500, 30});
  for (auto _ : state) {
    benchmark::DoNotOptimize(strata::einsum_plan("ij,jk,kl,lm,mn->in", a, b, c, d, e));
  }
}

void chain_hand_ordered(benchmark::State& state) {  // the best order, by hand: (a (b c)) (d e)
  bench::one_thread();
  const auto a = random_tensor<double>({400, 20}, 1);
  const auto b = random_tensor<double>({20, 300}, 2);
  const auto c = random_tensor<double>({300, 10}, 3);
  const auto d = random_tensor<double>({10, 500}, 4);
  const auto e = random_tensor<double>({500, 30}, 5);
  for (auto _ : state) {
    const auto bc = strata::einsum("jk,kl->jl", b, c);
    const auto abc = strata::einsum("ij,jl->il", a, bc);
    const auto de = strata::einsum("lm,mn->ln", d, e);
    auto out = strata::einsum("il,ln->in", abc, de);
    benchmark::DoNotOptimize(out.data());
  }
}

void chain_einsum(benchmark::State& state) {
  bench::one_thread();
  const auto a = random_tensor<double>({400, 20}, 1);
  const auto b = random_tensor<double>({20, 300}, 2);
  const auto c = random_tensor<double>({300, 10}, 3);
  const auto d = random_tensor<double>({10, 500}, 4);
  const auto e = random_tensor<double>({500, 30}, 5);
  for (auto _ : state) {
    auto out = strata::einsum("ij,jk,kl,lm,mn->in", a, b, c, d, e);
    benchmark::DoNotOptimize(out.data());
  }
}

// ---- a product of tiled matrices, 4096^2 in 256^2 tiles ----------------------------------------

constexpr index_t kTiledN = 4096;
constexpr index_t kTile = 256;

void tiled_blis(benchmark::State& state) {  // the baseline: one GEMM of the whole matrices
  bench::set_threads(state);
  const auto a = random_tensor<double>({kTiledN, kTiledN}, 1);
  const auto b = random_tensor<double>({kTiledN, kTiledN}, 2);
  Tensor<double> c({kTiledN, kTiledN});
  for (auto _ : state) {
    blis_gemm(kTiledN, kTiledN, kTiledN, a.data(), b.data(), c.data(), threads_of(state));
    benchmark::ClobberMemory();
  }
  state.counters["GFLOPS"] = benchmark::Counter(2.0 * kTiledN * kTiledN * kTiledN,
                                                benchmark::Counter::kIsIterationInvariantRate,
                                                benchmark::Counter::kIs1000);
}

strata::LayoutTensor<double> tiled_matrix(unsigned seed) {
  return strata::LayoutTensor<double>::from_dense(
      random_tensor<double>({kTiledN, kTiledN}, seed),
      strata::Layout::tiled(strata::Smooth{kTiledN, kTiledN}, {kTile, kTile}));
}

void tiled_einsum(benchmark::State& state) {  // a new tiled tensor each time
  bench::set_threads(state);
  const auto a = tiled_matrix(1);
  const auto b = tiled_matrix(2);
  for (auto _ : state) {
    auto c = strata::einsum("ij,jk->ik", a, b);
    benchmark::DoNotOptimize(c.buffer().data());
  }
  state.counters["GFLOPS"] = benchmark::Counter(2.0 * kTiledN * kTiledN * kTiledN,
                                                benchmark::Counter::kIsIterationInvariantRate,
                                                benchmark::Counter::kIs1000);
}

void tiled_einsum_into(benchmark::State& state) {  // into a tiled tensor
  bench::set_threads(state);
  const auto a = tiled_matrix(1);
  const auto b = tiled_matrix(2);
  auto c = tiled_matrix(3);
  for (auto _ : state) {
    strata::einsum_into(c, "ij,jk->ik", a, b);
    benchmark::ClobberMemory();
  }
  state.counters["GFLOPS"] = benchmark::Counter(2.0 * kTiledN * kTiledN * kTiledN,
                                                benchmark::Counter::kIsIterationInvariantRate,
                                                benchmark::Counter::kIs1000);
}

// ---- block-sparse: the same product with 10% of the tiles non-zero (a random pattern) -------

/// A 4096^2 matrix whose 256^2 tiles are non-zero with probability 1/10 (the rest zeros).
Tensor<double> sparse_tiles_matrix(unsigned seed) {
  auto m = random_tensor<double>({kTiledN, kTiledN}, seed);
  std::mt19937_64 rng(seed + 100);
  const strata::Layout layout =
      strata::Layout::tiled(strata::Smooth{kTiledN, kTiledN}, {kTile, kTile});
  for (index_t p = 0; p < layout.n_pieces(); ++p) {
    if (std::uniform_int_distribution<int>(0, 9)(rng) != 0) {
      m.select(strata::detail::box_selectors(layout.piece(p))).fill(0.0);
    }
  }
  return m;
}

void block_sparse_dense(benchmark::State& state) {  // the dense product: zeros multiplied
  bench::set_threads(state);
  const auto tiles = strata::Layout::tiled(strata::Smooth{kTiledN, kTiledN}, {kTile, kTile});
  const auto a = strata::LayoutTensor<double>::from_dense(sparse_tiles_matrix(1), tiles);
  const auto b = strata::LayoutTensor<double>::from_dense(sparse_tiles_matrix(2), tiles);
  for (auto _ : state) {
    auto c = strata::einsum("ij,jk->ik", a, b);
    benchmark::DoNotOptimize(c.buffer().data());
  }
}

void block_sparse_einsum(benchmark::State& state) {  // zero tiles not stored, products skipped
  bench::set_threads(state);
  const auto tiles = strata::Layout::tiled(strata::Smooth{kTiledN, kTiledN}, {kTile, kTile});
  const auto a = strata::BlockSparseTensor<double>::from_dense(sparse_tiles_matrix(1), tiles);
  const auto b = strata::BlockSparseTensor<double>::from_dense(sparse_tiles_matrix(2), tiles);
  for (auto _ : state) {
    auto c = strata::einsum("ij,jk->ik", a, b);
    benchmark::DoNotOptimize(c.n_stored());
  }
  state.counters["stored_a"] = static_cast<double>(a.n_stored());
  state.counters["stored_b"] = static_cast<double>(b.n_stored());
}

// ---- batched products with a ragged mode: each row (n_b x 64) times a shared 64 x 64 ---------

constexpr index_t kRows = 10000;
constexpr index_t kWidth = 64;

strata::JaggedTensor<double> ragged_rows() {
  std::mt19937 rng(5);
  std::uniform_int_distribution<index_t> length(0, 64);
  std::vector<index_t> extents;
  index_t total = 0;
  for (index_t r = 0; r < kRows; ++r) {
    const index_t n = length(rng);
    extents.insert(extents.end(), {n, kWidth});
    total += n * kWidth;
  }
  const auto values = random_tensor<double>(strata::Index{total}, 3);
  return strata::JaggedTensor<double>::from_values(
      values.to_vector(), strata::Jagged::from_extents(strata::Index{kRows}, 2, extents));
}

double ragged_flops(const strata::JaggedTensor<double>& x) {
  return 2.0 * static_cast<double>(x.size()) * kWidth;
}

void ragged_hand(
    benchmark::State& state) {  // the baseline: one BLIS call per row, rows in parallel
  bench::set_threads(state);
  const auto x = ragged_rows();
  const auto w = random_tensor<double>({kWidth, kWidth}, 4);
  auto y = strata::JaggedTensor<double>::zeros(x.shape());
  const std::span<const index_t> starts = x.offsets();
  for (auto _ : state) {
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads_of(state))
    for (index_t r = 0; r < kRows; ++r) {
      const auto at = static_cast<std::size_t>(r);
      const index_t n = (starts[at + 1] - starts[at]) / kWidth;
      blis_gemm(n, kWidth, kWidth, x.data() + starts[at], w.data(), y.data() + starts[at], 1);
    }
    benchmark::ClobberMemory();
  }
  state.counters["GFLOPS"] = benchmark::Counter(
      ragged_flops(x), benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

void ragged_einsum(benchmark::State& state) {  // a new jagged tensor each time
  bench::set_threads(state);
  const auto x = ragged_rows();
  const auto w = random_tensor<double>({kWidth, kWidth}, 4);
  for (auto _ : state) {
    auto y = strata::einsum("bij,jk->bik", x, w);
    benchmark::DoNotOptimize(y.data());
  }
  state.counters["GFLOPS"] = benchmark::Counter(
      ragged_flops(x), benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

void ragged_einsum_into(benchmark::State& state) {
  bench::set_threads(state);
  const auto x = ragged_rows();
  const auto w = random_tensor<double>({kWidth, kWidth}, 4);
  auto y = strata::JaggedTensor<double>::zeros(x.shape());
  for (auto _ : state) {
    strata::einsum_into(y, "bij,jk->bik", x, w);
    benchmark::ClobberMemory();
  }
  state.counters["GFLOPS"] = benchmark::Counter(
      ragged_flops(x), benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

}  // namespace

BENCHMARK(matmul_blis<double>)->Name("matmul_f64/blis")->Apply(bench::thread_args);
BENCHMARK(matmul_einsum<double>)->Name("matmul_f64/einsum")->Apply(bench::thread_args);
BENCHMARK(matmul_named<double>)->Name("matmul_f64/matmul")->Apply(bench::thread_args);
BENCHMARK(matmul_einsum_into<double>)->Name("matmul_f64/einsum_into")->Apply(bench::thread_args);
BENCHMARK(matmul_labelled<double>)->Name("matmul_f64/labelled")->Apply(bench::thread_args);
BENCHMARK(matmul_eigen<double>)->Name("matmul_f64/eigen")->Apply(bench::thread_args);
BENCHMARK(matmul_xtensor_blas<double>)->Name("matmul_f64/xtensor_blas")->Apply(bench::thread_args);
BENCHMARK(matmul_blis<float>)->Name("matmul_f32/blis")->Apply(bench::thread_args);
BENCHMARK(matmul_einsum<float>)->Name("matmul_f32/einsum")->Apply(bench::thread_args);
BENCHMARK(matmul_eigen<float>)->Name("matmul_f32/eigen")->Apply(bench::thread_args);
BENCHMARK(matmul_xtensor_blas<float>)->Name("matmul_f32/xtensor_blas")->Apply(bench::thread_args);
BENCHMARK(contraction_blis)->Name("contraction/blis_same_flops")->Apply(contraction_args);
BENCHMARK(contraction_einsum)->Name("contraction/einsum")->Apply(contraction_args);
BENCHMARK(contraction_xtensor_blas)->Name("contraction/xtensor_blas")->Apply(contraction_args);
BENCHMARK(tiled_blis)->Name("tiled4096/blis")->Apply(bench::thread_args)->Iterations(2);
BENCHMARK(tiled_einsum)->Name("tiled4096/einsum")->Apply(bench::thread_args)->Iterations(2);
BENCHMARK(tiled_einsum_into)
    ->Name("tiled4096/einsum_into")
    ->Apply(bench::thread_args)
    ->Iterations(2);
BENCHMARK(block_sparse_dense)
    ->Name("block_sparse10/dense_tiled")
    ->Apply(bench::thread_args)
    ->Iterations(2);
BENCHMARK(block_sparse_einsum)->Name("block_sparse10/einsum")->Apply(bench::thread_args);
BENCHMARK(ragged_hand)->Name("ragged_batch/hand_blis")->Apply(bench::thread_args);
BENCHMARK(ragged_einsum)->Name("ragged_batch/einsum")->Apply(bench::thread_args);
BENCHMARK(ragged_einsum_into)->Name("ragged_batch/einsum_into")->Apply(bench::thread_args);
BENCHMARK(sparse_mode_hand)->Name("sparse_mode/hand_csr")->Apply(bench::thread_args);
BENCHMARK(sparse_mode_einsum_into)->Name("sparse_mode/einsum_into")->Apply(bench::thread_args);
BENCHMARK(sparse_mode_einsum)->Name("sparse_mode/einsum")->Apply(bench::thread_args);
BENCHMARK(sparse_matvec_hand)->Name("sparse_matvec/hand_csr")->Apply(bench::thread_args);
BENCHMARK(sparse_matvec_einsum_into)->Name("sparse_matvec/einsum_into")->Apply(bench::thread_args);
BENCHMARK(sparse_matvec_sum)->Name("sparse_matvec/sum_of_product")->Apply(bench::thread_args);
BENCHMARK(sparse_matvec_first)
    ->Name("sparse_matvec/einsum_into_first_call")
    ->Apply(bench::thread_args);
BENCHMARK(chain_plan)->Name("chain5_plan/strata")->Unit(benchmark::kMicrosecond);
BENCHMARK(chain_hand_ordered)->Name("chain5/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(chain_einsum)->Name("chain5/einsum")->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
