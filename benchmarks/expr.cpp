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

#include <cmath>
#include <cstdint>
#include <memory>
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
      swap(u, v);  // strata's handle swap (found by ADL)
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
      swap(u, v);  // strata's handle swap (found by ADL)
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

// ---- a stencil that skips bad cells: where(isfinite(x), x, 0), fused ---------------------------

void heat_finite_hand(benchmark::State& state) {
  bench::one_thread();
  for (auto _ : state) {
    std::vector<double> u = initial();
    std::vector<double> v = u;
    for (int s = 0; s < kSteps / 4; ++s) {
      const double* __restrict in = u.data();
      double* __restrict out = v.data();
      for (index_t i = 1; i < kN - 1; ++i) {
        for (index_t j = 1; j < kN - 1; ++j) {
          const index_t c = i * kN + j;
          const double x = std::isfinite(in[c]) ? in[c] : 0.0;
          out[c] = x + kA * (in[c - kN] + in[c + kN] + in[c - 1] + in[c + 1] - 4 * x);
        }
      }
      std::swap(u, v);
    }
    benchmark::DoNotOptimize(u.data());
  }
}

void heat_finite_strata(benchmark::State& state) {
  bench::one_thread();
  for (auto _ : state) {
    Tensor<double> u = Tensor<double>::from_vector(initial(), {kN, kN});
    Tensor<double> v = u.copy();
    const Range mid{1, -1};
    for (int s = 0; s < kSteps / 4; ++s) {
      const auto c = u.select({mid, mid});
      const auto x = strata::where(strata::isfinite(c), c, 0.0);
      v.select({mid, mid}) =
          x + kA * (u.select({Range{0, -2}, mid}) + u.select({Range{2}, mid}) +
                    u.select({mid, Range{0, -2}}) + u.select({mid, Range{2}}) - 4 * x);
      swap(u, v);  // strata's handle swap (found by ADL)
    }
    benchmark::DoNotOptimize(u.buffer().data());
  }
}

// ---- the NumPy reductions, 8192 x 8192 float32 (256 MiB), against the loop a user writes -------

void count_hand(benchmark::State& state) {  // sum(a > 0): a count
  bench::set_threads(state);
  auto& d = big();
  for (auto _ : state) {
    const float* __restrict a = d.a.data();
    std::int64_t n = 0;
#pragma omp parallel for schedule(static) reduction(+ : n)
    for (index_t i = 0; i < kM * kM; ++i) {
      n += a[i] > 0 ? 1 : 0;
    }
    benchmark::DoNotOptimize(n);
  }
}

void count_strata(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  const Tensor<float> a = wrap(d.a, {kM, kM});
  for (auto _ : state) {
    benchmark::DoNotOptimize(strata::sum(a > 0));
  }
}

void any_hand(benchmark::State& state) {  // any(a > 1): false, so every element is read
  bench::set_threads(state);
  auto& d = big();
  for (auto _ : state) {
    const float* __restrict a = d.a.data();
    bool found = false;
#pragma omp parallel for schedule(static) reduction(|| : found)
    for (index_t i = 0; i < kM * kM; ++i) {
      found = found || a[i] > 1;
    }
    benchmark::DoNotOptimize(found);
  }
}

void any_strata(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  const Tensor<float> a = wrap(d.a, {kM, kM});
  for (auto _ : state) {
    benchmark::DoNotOptimize(strata::any(a > 1));
  }
}

void var_hand(benchmark::State& state) {  // two passes, as NumPy's
  bench::set_threads(state);
  auto& d = big();
  for (auto _ : state) {
    const float* __restrict a = d.a.data();
    const index_t n = kM * kM;
    float total = 0;
#pragma omp parallel for schedule(static) reduction(+ : total)
    for (index_t i = 0; i < n; ++i) {
      total += a[i];
    }
    const float mean = total / static_cast<float>(n);
    float squares = 0;
#pragma omp parallel for schedule(static) reduction(+ : squares)
    for (index_t i = 0; i < n; ++i) {
      squares += (a[i] - mean) * (a[i] - mean);
    }
    benchmark::DoNotOptimize(squares / static_cast<float>(n));
  }
}

void var_strata(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  const Tensor<float> a = wrap(d.a, {kM, kM});
  for (auto _ : state) {
    benchmark::DoNotOptimize(strata::var(a));
  }
}

void var_rows_hand(benchmark::State& state) {  // var(a, 1): one variance per row
  bench::set_threads(state);
  auto& d = big();
  std::vector<float> out(static_cast<std::size_t>(kM));
  for (auto _ : state) {
    const float* __restrict a = d.a.data();
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < kM; ++i) {
      const float* row = a + i * kM;
      float total = 0;
      for (index_t j = 0; j < kM; ++j) {
        total += row[j];
      }
      const float mean = total / static_cast<float>(kM);
      float squares = 0;
      for (index_t j = 0; j < kM; ++j) {
        squares += (row[j] - mean) * (row[j] - mean);
      }
      out[static_cast<std::size_t>(i)] = squares / static_cast<float>(kM);
    }
    benchmark::DoNotOptimize(out.data());
  }
}

void var_rows_strata(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  const Tensor<float> a = wrap(d.a, {kM, kM});
  for (auto _ : state) {
    benchmark::DoNotOptimize(strata::var(a, 1).buffer().data());
  }
}

void argmax_hand(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  for (auto _ : state) {
    const float* __restrict a = d.a.data();
    float best = -INFINITY;
    index_t where = 0;
#pragma omp parallel
    {
      float mine = -INFINITY;
      index_t at = 0;
#pragma omp for schedule(static) nowait
      for (index_t i = 0; i < kM * kM; ++i) {
        if (a[i] > mine) {
          mine = a[i];
          at = i;
        }
      }
#pragma omp critical
      if (mine > best || (mine == best && at < where)) {
        best = mine;
        where = at;
      }
    }
    benchmark::DoNotOptimize(where);
  }
}

void argmax_strata(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  const Tensor<float> a = wrap(d.a, {kM, kM});
  for (auto _ : state) {
    benchmark::DoNotOptimize(strata::argmax(a));
  }
}

void argmax_rows_hand(benchmark::State& state) {  // argmax(a, 1)
  bench::set_threads(state);
  auto& d = big();
  std::vector<index_t> out(static_cast<std::size_t>(kM));
  for (auto _ : state) {
    const float* __restrict a = d.a.data();
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < kM; ++i) {
      const float* row = a + i * kM;
      float best = row[0];
      index_t at = 0;
      for (index_t j = 1; j < kM; ++j) {
        if (row[j] > best) {
          best = row[j];
          at = j;
        }
      }
      out[static_cast<std::size_t>(i)] = at;
    }
    benchmark::DoNotOptimize(out.data());
  }
}

void argmax_rows_strata(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  const Tensor<float> a = wrap(d.a, {kM, kM});
  for (auto _ : state) {
    benchmark::DoNotOptimize(strata::argmax(a, 1).buffer().data());
  }
}

void nanmax_hand(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  for (auto _ : state) {
    const float* __restrict a = d.a.data();
    float best = -INFINITY;
#pragma omp parallel for schedule(static) reduction(max : best)
    for (index_t i = 0; i < kM * kM; ++i) {
      best = std::isnan(a[i]) ? best : std::max(best, a[i]);
    }
    benchmark::DoNotOptimize(best);
  }
}

void nanmax_strata(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  const Tensor<float> a = wrap(d.a, {kM, kM});
  for (auto _ : state) {
    benchmark::DoNotOptimize(strata::nanmax(a));
  }
}

void nanmean_hand(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  for (auto _ : state) {
    const float* __restrict a = d.a.data();
    float total = 0;
    std::int64_t n = 0;
#pragma omp parallel for schedule(static) reduction(+ : total, n)
    for (index_t i = 0; i < kM * kM; ++i) {
      const bool keep = !std::isnan(a[i]);
      total += keep ? a[i] : 0.0F;
      n += keep ? 1 : 0;
    }
    benchmark::DoNotOptimize(total / static_cast<float>(n));
  }
}

void nanmean_strata(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  const Tensor<float> a = wrap(d.a, {kM, kM});
  for (auto _ : state) {
    benchmark::DoNotOptimize(strata::nanmean(a));
  }
}

void sum_columns_hand(benchmark::State& state) {  // sum(a * b, 0): a fused expression
  bench::set_threads(state);
  auto& d = big();
  std::vector<float> out(static_cast<std::size_t>(kM));
  for (auto _ : state) {
    const float* __restrict a = d.a.data();
    const float* __restrict b = d.b.data();
    float* __restrict o = out.data();
#pragma omp parallel for schedule(static)
    for (index_t j0 = 0; j0 < kM; j0 += 512) {
      for (index_t j = j0; j < j0 + 512; ++j) {
        o[j] = 0;
      }
      for (index_t i = 0; i < kM; ++i) {
        for (index_t j = j0; j < j0 + 512; ++j) {
          o[j] += a[i * kM + j] * b[i * kM + j];
        }
      }
    }
    benchmark::DoNotOptimize(out.data());
  }
}

void sum_columns_strata(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  const Tensor<float> a = wrap(d.a, {kM, kM});
  const Tensor<float> b = wrap(d.b, {kM, kM});
  for (auto _ : state) {
    benchmark::DoNotOptimize(strata::sum(a * b, 0).buffer().data());
  }
}

void cumsum_rows_hand(benchmark::State& state) {  // cumsum(a, 1): a new array, as np.cumsum
  bench::set_threads(state);
  auto& d = big();
  for (auto _ : state) {
    const float* __restrict a = d.a.data();
    const auto out = std::make_unique_for_overwrite<float[]>(static_cast<std::size_t>(kM * kM));
    float* __restrict c = out.get();
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < kM; ++i) {
      float running = 0;
      for (index_t j = 0; j < kM; ++j) {
        running += a[i * kM + j];
        c[i * kM + j] = running;
      }
    }
    benchmark::DoNotOptimize(c);
  }
}

void cumsum_rows_strata(benchmark::State& state) {
  bench::set_threads(state);
  auto& d = big();
  const Tensor<float> a = wrap(d.a, {kM, kM});
  for (auto _ : state) {
    benchmark::DoNotOptimize(strata::cumsum(a, 1).buffer().data());
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
BENCHMARK(heat_finite_hand)->Name("heat_isfinite/hand")->Unit(ms);
BENCHMARK(heat_finite_strata)->Name("heat_isfinite/strata")->Unit(ms);
BENCHMARK(count_hand)->Name("sum_of_mask/hand")->Apply(bench::thread_args);
BENCHMARK(count_strata)->Name("sum_of_mask/strata")->Apply(bench::thread_args);
BENCHMARK(any_hand)->Name("any/hand")->Apply(bench::thread_args);
BENCHMARK(any_strata)->Name("any/strata")->Apply(bench::thread_args);
BENCHMARK(var_hand)->Name("var/hand")->Apply(bench::thread_args);
BENCHMARK(var_strata)->Name("var/strata")->Apply(bench::thread_args);
BENCHMARK(var_rows_hand)->Name("var_rows/hand")->Apply(bench::thread_args);
BENCHMARK(var_rows_strata)->Name("var_rows/strata")->Apply(bench::thread_args);
BENCHMARK(argmax_hand)->Name("argmax/hand")->Apply(bench::thread_args);
BENCHMARK(argmax_strata)->Name("argmax/strata")->Apply(bench::thread_args);
BENCHMARK(argmax_rows_hand)->Name("argmax_rows/hand")->Apply(bench::thread_args);
BENCHMARK(argmax_rows_strata)->Name("argmax_rows/strata")->Apply(bench::thread_args);
BENCHMARK(nanmax_hand)->Name("nanmax/hand")->Apply(bench::thread_args);
BENCHMARK(nanmax_strata)->Name("nanmax/strata")->Apply(bench::thread_args);
BENCHMARK(nanmean_hand)->Name("nanmean/hand")->Apply(bench::thread_args);
BENCHMARK(nanmean_strata)->Name("nanmean/strata")->Apply(bench::thread_args);
BENCHMARK(sum_columns_hand)->Name("sum_product_columns/hand")->Apply(bench::thread_args);
BENCHMARK(sum_columns_strata)->Name("sum_product_columns/strata")->Apply(bench::thread_args);
BENCHMARK(cumsum_rows_hand)->Name("cumsum_rows/hand")->Apply(bench::thread_args);
BENCHMARK(cumsum_rows_strata)->Name("cumsum_rows/strata")->Apply(bench::thread_args);

BENCHMARK_MAIN();
