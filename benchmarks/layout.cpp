// Benchmarks for layout/: specialised address kernels, reduction, and the odometer.
//
// Groups (the first variant of each group is the baseline that scripts/bench-report divides by):
//   addresses/generic vs .../specialised     the address kernels alone (rotated, tiled view)
//   gather/generic vs gather/specialised    10^7 random reads through a rotated, tiled view
//   walk6/unreduced vs walk6/reduced         a reducible rank-6 view walked by the odometer
//   walk/divide vs walk/odometer             per-element division vs the odometer, rolled view
#include "strata/layout/address_kernels.hpp"
#include "strata/layout/dimensions.hpp"
#include "strata/layout/odometer.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <span>
#include <vector>

namespace {

using strata::Dimensions;
using strata::index_t;

/// A 256x256 float image (256 KiB, L2-resident, so the address arithmetic is what is
/// measured), rolled on both axes, tiled 2x along columns, under 16 batches.
Dimensions gather_view() {
  return Dimensions{256, 256}.rotate({17, 111}).broadcast({64, 256, 512});
}

std::vector<index_t> random_linear(index_t size, std::size_t count) {
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<index_t> pick(0, size - 1);
  std::vector<index_t> linear(count);
  for (auto& i : linear) {
    i = pick(rng);
  }
  return linear;
}

void gather(benchmark::State& state, bool specialised) {
  const Dimensions view = gather_view().reduced();
  const std::vector<float> data(256 * 256, 1.0F);
  const auto linear = random_linear(view.size(), 10'000'000);
  const auto kernel =
      specialised ? strata::address_kernel(view.signature()) : &strata::generic_addresses;
  // Addresses are computed a block at a time and consumed while they are in L1, as a gather
  // kernel does.
  constexpr std::size_t block = 1024;
  std::vector<index_t> addresses(block);
  for (auto _ : state) {
    float sum = 0;
    for (std::size_t start = 0; start < linear.size(); start += block) {
      const std::size_t count = std::min(block, linear.size() - start);
      kernel(view, std::span<const index_t>(linear).subspan(start, count),
             std::span<index_t>(addresses).first(count));
      for (std::size_t i = 0; i < count; ++i) {
        sum += data[static_cast<std::size_t>(addresses[i])];
      }
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(linear.size()));
  state.SetLabel(specialised ? "specialised kernel" : "generic path");
}
/// The address kernels alone, 2^20 random indices into a 300x300 image rolled and tiled.
void addresses(benchmark::State& state, bool specialised) {
  const Dimensions view =
      Dimensions{300, 300}.rotate({17, 111}).broadcast({64, 300, 600}).reduced();
  const auto linear = random_linear(view.size(), std::size_t{1} << 20);
  std::vector<index_t> out(linear.size());
  const auto kernel =
      specialised ? strata::address_kernel(view.signature()) : &strata::generic_addresses;
  for (auto _ : state) {
    kernel(view, linear, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(linear.size()));
}
BENCHMARK_CAPTURE(addresses, generic, false)
    ->Name("addresses/generic")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(addresses, specialised, true)
    ->Name("addresses/specialised")
    ->Unit(benchmark::kMillisecond);

BENCHMARK_CAPTURE(gather, generic, false)->Name("gather/generic")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(gather, specialised, true)
    ->Name("gather/specialised")
    ->Unit(benchmark::kMillisecond);

/// A [48 32 16 8 4 2] block cropped from [64 32 16 8 4 2]: it reduces to one contiguous run,
/// while the unreduced odometer carries every 2 elements.
Dimensions rank6_view() {
  return Dimensions{64, 32, 16, 8, 4, 2}.select({strata::Range{8, 56}});
}

void walk6(benchmark::State& state, bool reduce) {
  const Dimensions view = reduce ? rank6_view().reduced() : rank6_view();
  std::vector<float> data(64 * 32 * 16 * 8 * 4 * 2, 1.0F);
  for (auto _ : state) {
    float sum = 0;
    strata::detail::walk_addresses(view, 0, view.size(),
                                   [&](index_t a) { sum += data[static_cast<std::size_t>(a)]; });
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * view.size());
}
BENCHMARK_CAPTURE(walk6, unreduced, false)->Name("walk6/unreduced")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(walk6, reduced, true)->Name("walk6/reduced")->Unit(benchmark::kMillisecond);

/// A rolled 2048x2048 view walked in row-major order (reads stay sequential, so the cost
/// of finding each address is what is measured).
Dimensions walk_view() {
  return Dimensions{2048, 2048}.rotate({5, 9});
}

void walk_divide(benchmark::State& state) {
  const Dimensions view = walk_view();
  std::vector<float> data(2048 * 2048, 1.0F);
  for (auto _ : state) {
    float sum = 0;
    for (index_t i = 0; i < view.size(); ++i) {
      sum += data[static_cast<std::size_t>(view.global_to_local(i))];
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * view.size());
}
BENCHMARK(walk_divide)->Name("walk/divide")->Unit(benchmark::kMillisecond);

void walk_odometer(benchmark::State& state) {
  const Dimensions view = walk_view();
  std::vector<float> data(2048 * 2048, 1.0F);
  for (auto _ : state) {
    float sum = 0;
    strata::for_each_address(view, 0, view.size(),
                             [&](index_t a) { sum += data[static_cast<std::size_t>(a)]; });
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * view.size());
}
BENCHMARK(walk_odometer)->Name("walk/odometer")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
