// Hand-offs: a DLPack export and import of a tensor (to_dlpack, then from_dlpack of the result,
// then the views' release and the deleter), at 10^3 and 10^8 elements: O(1), no copy. The
// baseline is a Tensor handle copy (the cheapest way strata shares a buffer).
#include "strata/interop/dlpack.hpp"

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

}  // namespace

BENCHMARK_MAIN();
