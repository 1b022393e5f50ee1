// Benchmarks for strata/expr/: arithmetic written with operators on views, as NumPy users write
// it, against the hand-written loop, xtensor 0.24 lazy expressions and Eigen 3.4 Tensor
// expressions. Each group "name/variant" starts with the hand loop (the baseline);
// scripts/bench-report prints every variant's speed relative to it. One thread unless stated.
#include "strata/expr/expr.hpp"
#include "strata/tensor/tensor.hpp"

#include "threads.hpp"

#include <benchmark/benchmark.h>

#include <unsupported/Eigen/CXX11/Tensor>
#include <xtensor/xadapt.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

#include <utility>
#include <vector>

namespace {

using strata::index_t;
using strata::Range;
using strata::Tensor;

// ---- 2-D heat equation, 1024 x 1024 float64, 100 steps ---------------------------------------

constexpr index_t kN = 1024;
constexpr int kSteps = 100;
constexpr double kA = 0.1;

std::vector<double> initial() {
  std::vector<double> u(static_cast<std::size_t>(kN * kN), 0.0);
  for (index_t i = kN / 4; i < 3 * kN / 4; ++i) {
    for (index_t j = kN / 4; j < 3 * kN / 4; ++j) {
      u[static_cast<std::size_t>(i * kN + j)] = 1.0;
    }
  }
  return u;
}

void heat_hand(benchmark::State& state) {
  bench::one_thread();
  for (auto _ : state) {
    std::vector<double> u = initial();
    std::vector<double> v = u;
    for (int s = 0; s < kSteps; ++s) {
      const double* __restrict in = u.data();
      double* __restrict out = v.data();
      for (index_t i = 1; i < kN - 1; ++i) {
        for (index_t j = 1; j < kN - 1; ++j) {
          const index_t c = i * kN + j;
          out[c] = in[c] + kA * (in[c - kN] + in[c + kN] + in[c - 1] + in[c + 1] - 4 * in[c]);
        }
      }
      std::swap(u, v);
    }
    benchmark::DoNotOptimize(u.data());
  }
}

void heat_strata(benchmark::State& state) {
  bench::one_thread();
  for (auto _ : state) {
    Tensor<double> u = Tensor<double>::from_vector(initial(), {kN, kN});
    Tensor<double> v = u.copy();
    const Range mid{1, -1};
    for (int s = 0; s < kSteps; ++s) {
      // v[1:-1, 1:-1] = u[1:-1, 1:-1] + a * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2]
      //                                      + u[1:-1, 2:] - 4 * u[1:-1, 1:-1])
      const auto c = u.select({mid, mid});
      v.select({mid, mid}) =
          c + kA * (u.select({Range{0, -2}, mid}) + u.select({Range{2}, mid}) +
                    u.select({mid, Range{0, -2}}) + u.select({mid, Range{2}}) - 4 * c);
      std::swap(u, v);
    }
    benchmark::DoNotOptimize(u.buffer().data());
  }
}

void heat_xtensor(benchmark::State& state) {
  bench::one_thread();
  for (auto _ : state) {
    std::vector<double> init = initial();
    xt::xtensor<double, 2> u = xt::adapt(init, {kN, kN});
    xt::xtensor<double, 2> v = u;
    const auto mid = [] { return xt::range(index_t{1}, kN - 1); };
    for (int s = 0; s < kSteps; ++s) {
      xt::noalias(xt::view(v, mid(), mid())) =
          xt::view(u, mid(), mid()) +
          kA * (xt::view(u, xt::range(index_t{0}, kN - 2), mid()) +
                xt::view(u, xt::range(index_t{2}, kN), mid()) +
                xt::view(u, mid(), xt::range(index_t{0}, kN - 2)) +
                xt::view(u, mid(), xt::range(index_t{2}, kN)) - 4 * xt::view(u, mid(), mid()));
      std::swap(u, v);
    }
    benchmark::DoNotOptimize(u.data());
  }
}

void heat_eigen(benchmark::State& state) {
  bench::one_thread();
  using E = Eigen::Tensor<double, 2, Eigen::RowMajor>;
  for (auto _ : state) {
    std::vector<double> init = initial();
    E u = Eigen::TensorMap<E>(init.data(), kN, kN);
    E v = u;
    const Eigen::array<Eigen::Index, 2> extent{kN - 2, kN - 2};
    const auto at = [](Eigen::Index i, Eigen::Index j) {
      return Eigen::array<Eigen::Index, 2>{i, j};
    };
    for (int s = 0; s < kSteps; ++s) {
      v.slice(at(1, 1), extent) =
          u.slice(at(1, 1), extent) +
          kA * (u.slice(at(0, 1), extent) + u.slice(at(2, 1), extent) + u.slice(at(1, 0), extent) +
                u.slice(at(1, 2), extent) - 4.0 * u.slice(at(1, 1), extent));
      std::swap(u, v);
    }
    benchmark::DoNotOptimize(u.data());
  }
}

// ---- periodic boundaries: rolls of the whole grid -------------------------------------------

void periodic_hand(benchmark::State& state) {
  bench::one_thread();
  for (auto _ : state) {
    std::vector<double> u = initial();
    std::vector<double> v = u;
    for (int s = 0; s < kSteps; ++s) {
      const double* __restrict in = u.data();
      double* __restrict out = v.data();
      for (index_t i = 0; i < kN; ++i) {
        const index_t up = (i + kN - 1) % kN;
        const index_t down = (i + 1) % kN;
        for (index_t j = 0; j < kN; ++j) {
          const index_t left = j == 0 ? kN - 1 : j - 1;
          const index_t right = j == kN - 1 ? 0 : j + 1;
          const double c = in[i * kN + j];
          out[i * kN + j] = c + kA * (in[up * kN + j] + in[down * kN + j] + in[i * kN + left] +
                                      in[i * kN + right] - 4 * c);
        }
      }
      std::swap(u, v);
    }
    benchmark::DoNotOptimize(u.data());
  }
}

void periodic_strata(benchmark::State& state) {
  bench::one_thread();
  for (auto _ : state) {
    Tensor<double> u = Tensor<double>::from_vector(initial(), {kN, kN});
    Tensor<double> v = u.copy();
    for (int s = 0; s < kSteps; ++s) {
      v = u + kA * (u.rotate(1, 0) + u.rotate(-1, 0) + u.rotate(1, 1) + u.rotate(-1, 1) - 4 * u);
      std::swap(u, v);
    }
    benchmark::DoNotOptimize(u.buffer().data());
  }
}

// ---- 8192^2 float32 element-wise: broadcast add, axpy, where, views ---------------------------

constexpr index_t kM = 8192;

struct Big {
  std::vector<float> a = filled(1);
  std::vector<float> b = filled(2);
  std::vector<float> c = std::vector<float>(static_cast<std::size_t>(kM * kM));
  std::vector<float> row = std::vector<float>(static_cast<std::size_t>(kM), 0.5F);
  static std::vector<float> filled(unsigned seed) {
    std::vector<float> v(static_cast<std::size_t>(kM * kM));
    for (std::size_t i = 0; i < v.size(); ++i) {
      v[i] = static_cast<float>((i * 2654435761U + seed) % 1000) * 0.001F - 0.5F;
    }
    return v;
  }
};

Big& big() {
  static Big b;
  return b;
}

Tensor<float> wrap(std::vector<float>& v, strata::IndexSpan shape) {
  return Tensor<float>::wrap(v.data(), shape);
}

void broadcast_hand(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  for (auto _ : state) {
    const float* __restrict a = d.a.data();
    const float* __restrict row = d.row.data();
    float* __restrict c = d.c.data();
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < kM; ++i) {
      for (index_t j = 0; j < kM; ++j) {
        c[i * kM + j] = a[i * kM + j] + row[j];
      }
    }
    benchmark::ClobberMemory();
  }
}

void broadcast_strata(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  Tensor<float> a = wrap(d.a, {kM, kM});
  Tensor<float> row = wrap(d.row, {kM});
  Tensor<float> c = wrap(d.c, {kM, kM});
  for (auto _ : state) {
    c = a + row;
    benchmark::ClobberMemory();
  }
}

void axpy_hand(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  const float alpha = 0.75F;
  for (auto _ : state) {
    const float* __restrict a = d.a.data();
    const float* __restrict b = d.b.data();
    float* __restrict c = d.c.data();
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < kM * kM; ++i) {
      c[i] = alpha * a[i] + b[i];
    }
    benchmark::ClobberMemory();
  }
}

void axpy_strata(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  Tensor<float> a = wrap(d.a, {kM, kM});
  Tensor<float> b = wrap(d.b, {kM, kM});
  Tensor<float> c = wrap(d.c, {kM, kM});
  const float alpha = 0.75F;
  for (auto _ : state) {
    c = alpha * a + b;
    benchmark::ClobberMemory();
  }
}

void where_hand(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  for (auto _ : state) {
    const float* __restrict a = d.a.data();
    float* __restrict c = d.c.data();
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < kM * kM; ++i) {
      c[i] = a[i] > 0 ? a[i] : 0.1F * a[i];
    }
    benchmark::ClobberMemory();
  }
}

void where_strata(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  Tensor<float> a = wrap(d.a, {kM, kM});
  Tensor<float> c = wrap(d.c, {kM, kM});
  for (auto _ : state) {
    c = strata::where(a > 0, a, 0.1F * a);
    benchmark::ClobberMemory();
  }
}

void views_hand(benchmark::State& state) {
  bench::one_thread();
  // c[i, j] = a[1 + i, 1 + j] (crop) - b[M - 1 - i, j] (flip) + a[j, i] (transpose), on the
  // (M - 2)^2 crop: the hand loop of an expression over three kinds of view.
  auto& d = big();
  const index_t n = kM - 2;
  for (auto _ : state) {
    const float* __restrict a = d.a.data();
    const float* __restrict b = d.b.data();
    float* __restrict c = d.c.data();
    for (index_t i = 0; i < n; ++i) {
      for (index_t j = 0; j < n; ++j) {
        c[i * n + j] = a[(1 + i) * kM + 1 + j] - b[(kM - 1 - i) * kM + j] + a[j * kM + i];
      }
    }
    benchmark::ClobberMemory();
  }
}

void views_strata(benchmark::State& state) {
  bench::one_thread();
  auto& d = big();
  const index_t n = kM - 2;
  Tensor<float> a = wrap(d.a, {kM, kM});
  Tensor<float> b = wrap(d.b, {kM, kM});
  Tensor<float> c = Tensor<float>::wrap(d.c.data(), {n, n});
  const auto crop = a.select({Range{1, kM - 1}, Range{1, kM - 1}});
  const auto flip = b.reverse({0}).select({Range{0, n}, Range{0, n}});
  const auto transposed = a.transpose().select({Range{0, n}, Range{0, n}});
  for (auto _ : state) {
    c = crop - flip + transposed;
    benchmark::ClobberMemory();
  }
}

constexpr auto ms = benchmark::kMillisecond;

}  // namespace

BENCHMARK(heat_hand)->Name("heat/hand")->Unit(ms);
BENCHMARK(heat_strata)->Name("heat/strata")->Unit(ms);
BENCHMARK(heat_xtensor)->Name("heat/xtensor")->Unit(ms);
BENCHMARK(heat_eigen)->Name("heat/eigen")->Unit(ms);
BENCHMARK(periodic_hand)->Name("heat_periodic/hand")->Unit(ms);
BENCHMARK(periodic_strata)->Name("heat_periodic/strata_rotate")->Unit(ms);
BENCHMARK(broadcast_hand)->Name("broadcast_add/hand")->Apply(bench::thread_args);
BENCHMARK(broadcast_strata)->Name("broadcast_add/strata")->Apply(bench::thread_args);
BENCHMARK(axpy_hand)->Name("axpy/hand")->Apply(bench::thread_args);
BENCHMARK(axpy_strata)->Name("axpy/strata")->Apply(bench::thread_args);
BENCHMARK(where_hand)->Name("where/hand")->Apply(bench::thread_args);
BENCHMARK(where_strata)->Name("where/strata")->Apply(bench::thread_args);
BENCHMARK(views_hand)->Name("views/hand")->Unit(ms);
BENCHMARK(views_strata)->Name("views/strata")->Unit(ms);

BENCHMARK_MAIN();
