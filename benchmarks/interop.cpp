// Hand-offs: a DLPack export and import of a tensor (to_dlpack, then from_dlpack of the result,
// then the views' release and the deleter), at 10^3 and 10^8 elements: O(1), no copy. The
// baseline is a Tensor handle copy (the cheapest way strata shares a buffer). And one step of
// the heat stencil on 1024^2 float64 written in C++ with strata expressions: the reference for
// the same step written in Python through the module (benchmarks/python_stencil.py).
#include "strata/interop/dlpack.hpp"
#include "strata/strata.hpp"
#include "threads.hpp"

#include <benchmark/benchmark.h>

namespace {

void BM_dlpack_round_trip(benchmark::State& state) {
  const auto n = static_cast<strata::index_t>(state.range(0));
  auto t = strata::Tensor<double>::for_overwrite({n});
  for (auto _ : state) {
    auto back = strata::from_dlpack<double>(strata::to_dlpack(t));
    benchmark::DoNotOptimize(back.data());
  }
}
BENCHMARK(BM_dlpack_round_trip)->Name("BM_hand_off/strata_dlpack_round_trip")->Arg(1000)->Arg(100000000);

void BM_handle_copy(benchmark::State& state) {
  const auto n = static_cast<strata::index_t>(state.range(0));
  auto t = strata::Tensor<double>::for_overwrite({n});
  for (auto _ : state) {
    auto copy = t;
    benchmark::DoNotOptimize(copy.data());
  }
}
BENCHMARK(BM_handle_copy)->Name("BM_hand_off/hand_handle_copy")->Arg(1000)->Arg(100000000);

void BM_heat_step(benchmark::State& state) {
  bench::set_threads(state);
  using strata::Range;
  constexpr strata::index_t n = 1024;
  auto u = strata::Tensor<double>({n, n});
  auto v = strata::Tensor<double>({n, n});
  for (strata::index_t k = 0; k < n * n; ++k) {
    u.at({k / n, k % n}) = static_cast<double>((k * 7919) % 1000) / 1000.0;
  }
  const Range mid{1, -1};
  for (auto _ : state) {
    // v[1:-1, 1:-1] = c + 0.1 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * c)
    const auto c = u.select({mid, mid});
    v.select({mid, mid}) = c + 0.1 * (u.select({Range{0, -2}, mid}) + u.select({Range{2}, mid}) +
                                      u.select({mid, Range{0, -2}}) + u.select({mid, Range{2}}) - 4 * c);
    benchmark::DoNotOptimize(v.data());
  }
}
BENCHMARK(BM_heat_step)->Name("BM_heat_step/strata_cpp")->Apply(bench::thread_args);

}  // namespace

BENCHMARK_MAIN();
