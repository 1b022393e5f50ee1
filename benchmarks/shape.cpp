// Benchmarks for shape/ and jagged storage: the sum of every row of a jagged matrix (1 M rows,
// Zipf-distributed lengths, 64 M float values) through strata's jagged row walk, against a hand
// loop over values + offsets, at 1, 2 and all threads (the hand loop uses OpenMP's dynamic
// schedule, which balances rows of very different lengths). Neither xtensor nor Eigen has a
// jagged tensor.
#include "strata/expr/reduce.hpp"
#include "strata/shape/jagged.hpp"
#include "strata/tensor/algorithms.hpp"
#include "strata/tensor/jagged_tensor.hpp"

#include "threads.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

namespace {

using strata::index_t;

constexpr index_t kRows = 1 << 20;
constexpr index_t kValues = index_t{64} << 20;

/// Zipf(1.1) lengths over 1..65536, scaled so that they sum to about 64 M.
std::vector<index_t> zipf_lengths() {
  std::mt19937_64 rng(42);
  constexpr int kMax = 1 << 16;
  std::vector<double> cdf(kMax);
  double total = 0;
  for (int k = 1; k <= kMax; ++k) {
    total += 1.0 / std::pow(k, 1.1);
    cdf[static_cast<std::size_t>(k - 1)] = total;
  }
  std::uniform_real_distribution<double> u(0.0, total);
  std::vector<double> raw(static_cast<std::size_t>(kRows));
  double sum = 0;
  for (auto& r : raw) {
    r = static_cast<double>(std::lower_bound(cdf.begin(), cdf.end(), u(rng)) - cdf.begin() + 1);
    sum += r;
  }
  std::vector<index_t> lengths(raw.size());
  const double scale = static_cast<double>(kValues) / sum;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    lengths[i] = static_cast<index_t>(std::floor(raw[i] * scale));
  }
  return lengths;
}

struct Data {
  strata::JaggedTensor<float> jagged{strata::Jagged::from_lengths(zipf_lengths())};
  std::vector<float> sums = std::vector<float>(static_cast<std::size_t>(kRows));
  Data() {
    jagged.for_each_row(strata::par, [](index_t r, std::span<float> v) {
      for (std::size_t k = 0; k < v.size(); ++k) {
        v[k] = static_cast<float>((static_cast<std::size_t>(r) + k) % 7);
      }
    });
  }
};
Data& data() {
  static Data d;
  return d;
}

void set_threads(benchmark::State& state) {
  bench::set_threads(state);
  state.counters["values"] = static_cast<double>(data().jagged.size());
}

void bytes(benchmark::State& state) {
  state.SetBytesProcessed(state.iterations() * data().jagged.size() *
                          static_cast<int64_t>(sizeof(float)));
}

void jagged_rowsum_hand(benchmark::State& state) {
  set_threads(state);
  auto& d = data();
  const float* values = d.jagged.buffer().data();
  const index_t* offsets = d.jagged.offsets().data();
  float* sums = d.sums.data();
  for (auto _ : state) {
#if defined(STRATA_USE_OPENMP)
#pragma omp parallel for schedule(dynamic, 4096)
#endif
    for (index_t r = 0; r < kRows; ++r) {
      float s = 0.0F;
      for (index_t k = offsets[r]; k < offsets[r + 1]; ++k) {
        s += values[k];
      }
      sums[r] = s;
    }
    benchmark::DoNotOptimize(sums);
    benchmark::ClobberMemory();
  }
  bytes(state);
}

void jagged_rowsum_strata(benchmark::State& state) {
  set_threads(state);
  auto& d = data();
  float* sums = d.sums.data();
  for (auto _ : state) {
    d.jagged.for_each_row(strata::par, [&](index_t r, std::span<const float> v) {
      float s = 0.0F;
      for (const float x : v) {
        s += x;
      }
      sums[r] = s;
    });
    benchmark::DoNotOptimize(sums);
    benchmark::ClobberMemory();
  }
  bytes(state);
}

// Each row as a Tensor<float> view, summed with strata::reduce: what generic Tensor code pays
// per row (building a view, its reduction set-up) on top of the values.
void jagged_rowsum_pieces(benchmark::State& state) {
  set_threads(state);
  auto& d = data();
  float* sums = d.sums.data();
  for (auto _ : state) {
    d.jagged.for_each_piece(strata::par, [&](index_t r, const strata::Tensor<float>& row) {
      sums[r] = strata::sum(row, {0})();
    });
    benchmark::DoNotOptimize(sums);
    benchmark::ClobberMemory();
  }
  bytes(state);
}

}  // namespace

BENCHMARK(jagged_rowsum_hand)->Name("jagged_rowsum/hand")->Apply(bench::thread_args);
BENCHMARK(jagged_rowsum_strata)->Name("jagged_rowsum/strata")->Apply(bench::thread_args);
BENCHMARK(jagged_rowsum_pieces)->Name("jagged_rowsum/pieces")->Apply(bench::thread_args);

BENCHMARK_MAIN();
