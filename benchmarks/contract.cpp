// Benchmarks for strata/contract/: einsum against one direct BLIS GEMM on the same matrices
// (the baseline of each group), Eigen's Tensor::contract, and the flop rate of contractions
// that need packing. scripts/bench-report prints every variant's time relative to the first.
#include "strata/contract/contract.hpp"

#include "threads.hpp"

#include <benchmark/benchmark.h>
#include <blis.h>

#include <unsupported/Eigen/CXX11/Tensor>

#include <random>
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

// ---- contractions of 3-D and 4-D operands ------------------------------------------------------
// Each group starts with one BLIS GEMM of the same flops on contiguous matrices.

struct Case {
  std::string spec;
  strata::Index a;
  strata::Index b;
  index_t m;
  index_t n;
  index_t k;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c{
      {"abc,cd->abd", {64, 64, 512}, {512, 512}, 64 * 64, 512, 512},            // matricisable
      {"acb,cd->abd", {64, 512, 64}, {512, 512}, 64 * 64, 512, 512},            // a packed
      {"abcd,cedf->abef", {16, 16, 32, 16}, {32, 32, 16, 32}, 256, 1024, 512},  // both packed
      {"ijab,abcd->ijcd", {24, 24, 24, 24}, {24, 24, 24, 24}, 576, 576, 576},   // CCSD-like
      {"jiab,cdab->ijcd", {24, 24, 24, 24}, {24, 24, 24, 24}, 576, 576, 576},   // permuted
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

void contraction_args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"threads", "case"});
  for (int threads : {1, 2}) {
    for (int k = 0; k < 5; ++k) {
      b->Args({threads, k});
    }
  }
  b->Unit(benchmark::kMillisecond)->UseRealTime();
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

}  // namespace

BENCHMARK(matmul_blis<double>)->Name("matmul_f64/blis")->Apply(bench::thread_args);
BENCHMARK(matmul_einsum<double>)->Name("matmul_f64/einsum")->Apply(bench::thread_args);
BENCHMARK(matmul_einsum_into<double>)->Name("matmul_f64/einsum_into")->Apply(bench::thread_args);
BENCHMARK(matmul_labelled<double>)->Name("matmul_f64/labelled")->Apply(bench::thread_args);
BENCHMARK(matmul_eigen<double>)->Name("matmul_f64/eigen")->Apply(bench::thread_args);
BENCHMARK(matmul_blis<float>)->Name("matmul_f32/blis")->Apply(bench::thread_args);
BENCHMARK(matmul_einsum<float>)->Name("matmul_f32/einsum")->Apply(bench::thread_args);
BENCHMARK(matmul_eigen<float>)->Name("matmul_f32/eigen")->Apply(bench::thread_args);
BENCHMARK(contraction_blis)->Name("contraction/blis_same_flops")->Apply(contraction_args);
BENCHMARK(contraction_einsum)->Name("contraction/einsum")->Apply(contraction_args);
BENCHMARK(chain_plan)->Name("chain5_plan/strata")->Unit(benchmark::kMicrosecond);
BENCHMARK(chain_hand_ordered)->Name("chain5/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(chain_einsum)->Name("chain5/einsum")->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
