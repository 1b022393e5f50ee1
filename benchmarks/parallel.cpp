// OpenMP scaling on compute-bound work: exp(sin(x)) over 64 Mi floats with zip_with_into, one
// thread (seq) and par at 1, 2, 4, ... threads (as many as the machine has).
#include "strata/parallel/policy.hpp"
#include "strata/tensor/algorithms.hpp"
#include "strata/tensor/tensor.hpp"

#include "threads.hpp"

#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

namespace {

using strata::index_t;
using strata::Tensor;

constexpr index_t N = 8192;  // N x N floats = 256 MiB

struct Operands {
  std::vector<float> a = std::vector<float>(static_cast<std::size_t>(N * N));
  std::vector<float> out = std::vector<float>(static_cast<std::size_t>(N * N));
  Operands() {
    for (std::size_t i = 0; i < a.size(); ++i) {
      a[i] = static_cast<float>(i % 1013) * 0.001F;
    }
  }
};
Operands& operands() {
  static Operands o;
  return o;
}

void map_exp_sin(benchmark::State& state, bool parallel) {
  bench::set_threads(state);
  const auto a = Tensor<float>::wrap(operands().a.data(), {N, N});
  auto out = Tensor<float>::wrap(operands().out.data(), {N, N});
  const Tensor<float> half = Tensor<float>::of({0.5F});
  const auto f = [](float x, float h) { return std::exp(std::sin(x)) * h; };
  for (auto _ : state) {
    if (parallel) {
      strata::zip_with_into(out, a, half, f, strata::par);
    } else {
      strata::zip_with_into(out, a, half, f, strata::seq);
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * a.size());
}

}  // namespace

BENCHMARK_CAPTURE(map_exp_sin, seq, false)
    ->ArgName("threads")
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(map_exp_sin, par, true)->Apply(bench::thread_args);

BENCHMARK_MAIN();
