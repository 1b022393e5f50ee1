// Benchmarks for indexed iteration (tensor/for_each_indexed.hpp, element access, shape indices):
// the programs a user writes to fill slices with a function of the index, against the
// hand-written (OpenMP) loop, xtensor 0.24 views and Eigen 3.4 Tensor element access.
//
// Each group "name/variant" starts with its baseline (the hand loop); scripts/bench-report
// prints every variant's time relative to it. Thread counts: 1, 2, then powers of two.
#include "strata/shape/jagged.hpp"
#include "strata/shape/shape.hpp"
#include "strata/shape/smooth.hpp"
#include "strata/tensor/for_each_indexed.hpp"
#include "strata/tensor/jagged_tensor.hpp"
#include "strata/tensor/layout_tensor.hpp"
#include "strata/tensor/tensor.hpp"

#include "threads.hpp"

#include <benchmark/benchmark.h>

#include <unsupported/Eigen/CXX11/Tensor>
#include <xtensor/xadapt.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

#include <array>
#include <random>
#include <utility>
#include <vector>

namespace {

using strata::index_t;
using strata::Range;
using strata::Tensor;

// ---- fill a 64x64x112 slice of a 128^3 tensor with f(i, j, k) --------------------------------
//
// The loops take their bounds at run time, as a program that reads its sizes does: clang 14
// unrolls a loop with constant bounds completely and folds float(k) into constants, which no
// generic loop (strata's, or a user's over sizes from input) can do; slice_fill/hand_constant
// keeps that loop for comparison.

constexpr index_t kN = 128;
constexpr index_t kI0 = 32;
constexpr index_t kI1 = 96;
constexpr index_t kK0 = 8;
constexpr index_t kK1 = 120;

/// The slice's bounds, opaque to the optimiser.
struct Bounds {
  index_t n = kN, i0 = kI0, i1 = kI1, k0 = kK0, k1 = kK1;
};

Bounds bounds() {
  Bounds b;
  benchmark::DoNotOptimize(b);
  return b;
}

inline float f(index_t i, index_t j, index_t k) {
  return static_cast<float>(i) * 0.5F + static_cast<float>(j) * 0.25F + static_cast<float>(k);
}

std::vector<float>& cube() {
  static std::vector<float> data(static_cast<std::size_t>(kN * kN * kN), 0.0F);
  return data;
}

void slice_hand(benchmark::State& state) {
  bench::set_threads(state);
  float* data = cube().data();
  const Bounds b = bounds();
  for (auto _ : state) {
#pragma omp parallel for schedule(static)
    for (index_t i = b.i0; i < b.i1; ++i) {
      for (index_t j = b.i0; j < b.i1; ++j) {
        float* row = data + (i * b.n + j) * b.n;
        for (index_t k = b.k0; k < b.k1; ++k) {
          row[k] = f(i, j, k);
        }
      }
    }
    benchmark::ClobberMemory();
  }
}

void slice_hand_constant(benchmark::State& state) {
  // The hand loop with compile-time bounds.
  bench::set_threads(state);
  float* data = cube().data();
  for (auto _ : state) {
#pragma omp parallel for schedule(static)
    for (index_t i = kI0; i < kI1; ++i) {
      for (index_t j = kI0; j < kI1; ++j) {
        float* row = data + (i * kN + j) * kN;
        for (index_t k = kK0; k < kK1; ++k) {
          row[k] = f(i, j, k);
        }
      }
    }
    benchmark::ClobberMemory();
  }
}

Tensor<float> slab() {
  const Bounds b = bounds();
  return Tensor<float>::wrap(cube().data(), {b.n, b.n, b.n})
      .select({Range{b.i0, b.i1}, Range{b.i0, b.i1}, Range{b.k0, b.k1}});
}

void slice_strata_absolute(benchmark::State& state) {
  bench::set_threads(state);
  const Tensor<float> view = slab();
  for (auto _ : state) {
    strata::for_each_indexed(strata::par, view,
                             [](index_t i, index_t j, index_t k, float& x) { x = f(i, j, k); });
    benchmark::ClobberMemory();
  }
}

void slice_strata_relative(benchmark::State& state) {
  bench::set_threads(state);
  const Tensor<float> view = slab();
  const Bounds b = bounds();
  for (auto _ : state) {
    strata::for_each_indexed(
        strata::par, view, strata::relative,
        [&b](index_t i, index_t j, index_t k, float& x) { x = f(i + b.i0, j + b.i0, k + b.k0); });
    benchmark::ClobberMemory();
  }
}

void slice_strata_tabulate(benchmark::State& state) {
  bench::set_threads(state);
  const Tensor<float> view = slab();
  for (auto _ : state) {
    strata::tabulate(strata::par, view, [](index_t i, index_t j, index_t k) { return f(i, j, k); });
    benchmark::ClobberMemory();
  }
}

void slice_strata_element(benchmark::State& state) {
  // t(i, j, k) = f(...) in the user's own OpenMP loop, through a view's element access.
  bench::set_threads(state);
  Tensor<float> view = slab();
  const Bounds b = bounds();
  for (auto _ : state) {
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < b.i1 - b.i0; ++i) {
      for (index_t j = 0; j < b.i1 - b.i0; ++j) {
        for (index_t k = 0; k < b.k1 - b.k0; ++k) {
          view(i, j, k) = f(i + b.i0, j + b.i0, k + b.k0);
        }
      }
    }
    benchmark::ClobberMemory();
  }
}

void slice_strata_span(benchmark::State& state) {
  // s(i, j, k) = f(...) in the user's own OpenMP loop, through the view's StridedSpan.
  bench::set_threads(state);
  Tensor<float> view = slab();
  const strata::StridedSpan<float, 3> s = view.span<3>();
  const Bounds b = bounds();
  for (auto _ : state) {
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < b.i1 - b.i0; ++i) {
      for (index_t j = 0; j < b.i1 - b.i0; ++j) {
        for (index_t k = 0; k < b.k1 - b.k0; ++k) {
          s(i, j, k) = f(i + b.i0, j + b.i0, k + b.k0);
        }
      }
    }
    benchmark::ClobberMemory();
  }
}

void slice_xtensor(benchmark::State& state) {
  bench::set_threads(state);
  const Bounds b = bounds();
  // The same memory as the hand loop and strata's (placement alone moves these loops by 10%).
  const auto n = static_cast<std::size_t>(b.n);
  auto x = xt::adapt(cube().data(), cube().size(), xt::no_ownership(),
                     std::array<std::size_t, 3>{n, n, n});
  auto view = xt::view(x, xt::range(b.i0, b.i1), xt::range(b.i0, b.i1), xt::range(b.k0, b.k1));
  for (auto _ : state) {
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < b.i1 - b.i0; ++i) {
      for (index_t j = 0; j < b.i1 - b.i0; ++j) {
        for (index_t k = 0; k < b.k1 - b.k0; ++k) {
          view(i, j, k) = f(i + b.i0, j + b.i0, k + b.k0);
        }
      }
    }
    benchmark::ClobberMemory();
  }
}

void slice_eigen(benchmark::State& state) {
  bench::set_threads(state);
  const Bounds b = bounds();
  Eigen::TensorMap<Eigen::Tensor<float, 3, Eigen::RowMajor>> e(cube().data(), b.n, b.n, b.n);
  for (auto _ : state) {
#pragma omp parallel for schedule(static)
    for (index_t i = b.i0; i < b.i1; ++i) {
      for (index_t j = b.i0; j < b.i1; ++j) {
        for (index_t k = b.k0; k < b.k1; ++k) {
          e(i, j, k) = f(i, j, k);
        }
      }
    }
    benchmark::ClobberMemory();
  }
}

// ---- fill rows 2000-4999 of a jagged tensor (10,000 rows of 0..200) with f(r, k) -------------

strata::JaggedTensor<float>& ragged() {
  static strata::JaggedTensor<float> jt = [] {
    std::mt19937_64 rng(3);
    std::vector<index_t> lengths(10000);
    for (auto& n : lengths) {
      n = std::uniform_int_distribution<index_t>(0, 200)(rng);
    }
    return strata::JaggedTensor<float>(strata::Jagged::from_lengths(lengths));
  }();
  return jt;
}

inline float g(index_t r, index_t k) {
  return static_cast<float>(r) + 0.5F * static_cast<float>(k);
}

void jagged_hand(benchmark::State& state) {
  bench::set_threads(state);
  auto& jt = ragged();
  float* values = jt.values().data();
  const std::span<const index_t> offsets = jt.offsets();
  for (auto _ : state) {
#pragma omp parallel for schedule(dynamic, 64)
    for (index_t r = 2000; r < 5000; ++r) {
      const index_t begin = offsets[static_cast<std::size_t>(r)];
      const index_t end = offsets[static_cast<std::size_t>(r) + 1];
      for (index_t k = 0; k < end - begin; ++k) {
        values[begin + k] = g(r, k);
      }
    }
    benchmark::ClobberMemory();
  }
}

void jagged_strata(benchmark::State& state) {
  bench::set_threads(state);
  auto rows = ragged().rows(2000, 5000);
  for (auto _ : state) {
    strata::for_each_indexed(strata::par, rows,
                             [](index_t r, index_t k, float& x) { x = g(r, k); });
    benchmark::ClobberMemory();
  }
}

void jagged_strata_rows(benchmark::State& state) {
  bench::set_threads(state);
  auto rows = ragged().rows(2000, 5000);
  for (auto _ : state) {
    rows.for_each_row(strata::par, [](index_t r, std::span<float> v) {
      for (std::size_t k = 0; k < v.size(); ++k) {
        v[k] = g(r, static_cast<index_t>(k));
      }
    });
    benchmark::ClobberMemory();
  }
}

// ---- fill a tiled 1000x1000 LayoutTensor (64x64 tiles) by logical index -----------------------

constexpr index_t kT = 1000;
constexpr index_t kTile = 64;

strata::LayoutTensor<float>& tiled() {
  static strata::LayoutTensor<float> lt(
      strata::Layout::tiled(strata::Smooth{kT, kT}, {kTile, kTile}));
  return lt;
}

void tiled_hand(benchmark::State& state) {
  bench::set_threads(state);
  auto& lt = tiled();
  const strata::Layout& layout = lt.layout();
  float* data = lt.buffer().data();
  const index_t grid = layout.grid()[1];
  const index_t tiles = lt.n_pieces();
  for (auto _ : state) {
#pragma omp parallel for schedule(dynamic, 1)
    for (index_t p = 0; p < tiles; ++p) {
      const index_t i0 = (p / grid) * kTile;
      const index_t j0 = (p % grid) * kTile;
      const index_t rows = std::min(kTile, kT - i0);
      const index_t cols = std::min(kTile, kT - j0);
      float* tile = data + layout.piece_starts()[static_cast<std::size_t>(p)];
      for (index_t i = 0; i < rows; ++i) {
        for (index_t j = 0; j < cols; ++j) {
          tile[i * cols + j] = g(i0 + i, j0 + j);
        }
      }
    }
    benchmark::ClobberMemory();
  }
}

void tiled_strata(benchmark::State& state) {
  bench::set_threads(state);
  auto& lt = tiled();
  for (auto _ : state) {
    strata::for_each_indexed(strata::par, lt, [](index_t i, index_t j, float& x) { x = g(i, j); });
    benchmark::ClobberMemory();
  }
}

// ---- t(i, j) read / write in a double loop (one thread) --------------------------------------

constexpr index_t kM = 1024;

// The sums go to a volatile, as a program prints or returns its result. DoNotOptimize's
// "+r,m" operand lets GCC keep the accumulator in memory for the whole loop whenever the loop
// also holds a call (element access keeps cold calls for buffers without an array), which
// would measure the constraint rather than the access.
volatile float g_sink;  // NOLINT(*-non-const-global-variables)

std::vector<float>& square() {
  static std::vector<float> data(static_cast<std::size_t>(kM * kM), 1.0F);
  return data;
}

void read_pointer(benchmark::State& state) {
  const float* p = square().data();
  for (auto _ : state) {
    float total = 0;
    for (index_t i = 0; i < kM; ++i) {
      for (index_t j = 0; j < kM; ++j) {
        total += p[i * kM + j];
      }
    }
    g_sink = total;
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

void read_strata(benchmark::State& state) {
  Tensor<float> t = Tensor<float>::wrap(square().data(), {kM, kM});
  for (auto _ : state) {
    float total = 0;
    for (index_t i = 0; i < kM; ++i) {
      for (index_t j = 0; j < kM; ++j) {
        total += t(i, j);
      }
    }
    g_sink = total;
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

void read_span(benchmark::State& state) {
  Tensor<float> t = Tensor<float>::wrap(square().data(), {kM, kM});
  const strata::StridedSpan<const float, 2> s = std::as_const(t).span<2>();
  for (auto _ : state) {
    float total = 0;
    for (index_t i = 0; i < kM; ++i) {
      for (index_t j = 0; j < kM; ++j) {
        total += s(i, j);
      }
    }
    g_sink = total;
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

void access_pointer(benchmark::State& state) {
  float* p = square().data();
  for (auto _ : state) {
    float total = 0;
    for (index_t i = 0; i < kM; ++i) {
      for (index_t j = 0; j < kM; ++j) {
        p[i * kM + j] = p[i * kM + j] * 0.5F + 1.0F;
        total += p[i * kM + j];
      }
    }
    g_sink = total;
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

void access_strata(benchmark::State& state) {
  Tensor<float> t = Tensor<float>::wrap(square().data(), {kM, kM});
  for (auto _ : state) {
    float total = 0;
    for (index_t i = 0; i < kM; ++i) {
      for (index_t j = 0; j < kM; ++j) {
        t(i, j) = t(i, j) * 0.5F + 1.0F;
        total += t(i, j);
      }
    }
    g_sink = total;
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

void access_span(benchmark::State& state) {
  Tensor<float> t = Tensor<float>::wrap(square().data(), {kM, kM});
  const strata::StridedSpan<float, 2> s = t.span<2>();
  for (auto _ : state) {
    float total = 0;
    for (index_t i = 0; i < kM; ++i) {
      for (index_t j = 0; j < kM; ++j) {
        s(i, j) = s(i, j) * 0.5F + 1.0F;
        total += s(i, j);
      }
    }
    g_sink = total;
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

void access_span_compound(benchmark::State& state) {
  Tensor<float> t = Tensor<float>::wrap(square().data(), {kM, kM});
  const strata::StridedSpan<float, 2> s = t.span<2>();
  for (auto _ : state) {
    for (index_t i = 0; i < kM; ++i) {
      for (index_t j = 0; j < kM; ++j) {
        s(i, j) *= 0.5F;
      }
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

void access_strata_compound(benchmark::State& state) {
  Tensor<float> t = Tensor<float>::wrap(square().data(), {kM, kM});
  for (auto _ : state) {
    for (index_t i = 0; i < kM; ++i) {
      for (index_t j = 0; j < kM; ++j) {
        t(i, j) *= 0.5F;
      }
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

void access_pointer_compound(benchmark::State& state) {
  float* p = square().data();
  for (auto _ : state) {
    for (index_t i = 0; i < kM; ++i) {
      for (index_t j = 0; j < kM; ++j) {
        p[i * kM + j] *= 0.5F;
      }
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

// The first loop a user writes: a pure write of a value computed from the indices.
void write_pointer(benchmark::State& state) {
  float* p = square().data();
  for (auto _ : state) {
    for (index_t i = 0; i < kM; ++i) {
      for (index_t j = 0; j < kM; ++j) {
        p[i * kM + j] = static_cast<float>(i - j);
      }
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

void write_strata(benchmark::State& state) {
  Tensor<float> t = Tensor<float>::wrap(square().data(), {kM, kM});
  for (auto _ : state) {
    for (index_t i = 0; i < kM; ++i) {
      for (index_t j = 0; j < kM; ++j) {
        t(i, j) = static_cast<float>(i - j);
      }
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

void write_span(benchmark::State& state) {
  Tensor<float> t = Tensor<float>::wrap(square().data(), {kM, kM});
  const strata::StridedSpan<float, 2> s = t.span<2>();
  for (auto _ : state) {
    for (index_t i = 0; i < kM; ++i) {
      for (index_t j = 0; j < kM; ++j) {
        s(i, j) = static_cast<float>(i - j);
      }
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

// Three tensors in one loop: c += a b (i, k, j order), 256^3, as a user writes it over tiles.
constexpr index_t kP = 256;

struct Product {
  std::vector<float> a = std::vector<float>(kP * kP, 0.5F);
  std::vector<float> b = std::vector<float>(kP * kP, 0.25F);
  std::vector<float> c = std::vector<float>(kP * kP, 0.0F);
};

[[gnu::noinline]] void product(const float* __restrict a, const float* __restrict b,
                               float* __restrict c, index_t n) {
  for (index_t i = 0; i < n; ++i) {
    for (index_t k = 0; k < n; ++k) {
      const float aik = a[i * n + k];
      for (index_t j = 0; j < n; ++j) {
        c[i * n + j] += aik * b[k * n + j];
      }
    }
  }
}

[[gnu::noinline]] void product(const Tensor<const float>& a, const Tensor<const float>& b,
                               Tensor<float>& c) {
  const index_t n = a.shape()[0];
  for (index_t i = 0; i < n; ++i) {
    for (index_t k = 0; k < n; ++k) {
      const float aik = a(i, k);
      for (index_t j = 0; j < n; ++j) {
        c(i, j) += aik * b(k, j);
      }
    }
  }
}

[[gnu::noinline]] void product(strata::StridedSpan<const float, 2> a,
                               strata::StridedSpan<const float, 2> b,
                               strata::StridedSpan<float, 2> c) {
  const index_t n = a.extent(0);
  for (index_t i = 0; i < n; ++i) {
    for (index_t k = 0; k < n; ++k) {
      const float aik = a(i, k);
      for (index_t j = 0; j < n; ++j) {
        c(i, j) += aik * b(k, j);
      }
    }
  }
}

void product_pointer(benchmark::State& state) {
  Product m;
  for (auto _ : state) {
    product(m.a.data(), m.b.data(), m.c.data(), kP);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kP * kP * kP);
}

void product_strata(benchmark::State& state) {
  Product m;
  const Tensor<float> a = Tensor<float>::wrap(m.a.data(), {kP, kP});
  const Tensor<float> b = Tensor<float>::wrap(m.b.data(), {kP, kP});
  Tensor<float> c = Tensor<float>::wrap(m.c.data(), {kP, kP});
  for (auto _ : state) {
    product(a, b, c);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kP * kP * kP);
}

void product_span(benchmark::State& state) {
  Product m;
  const Tensor<float> a = Tensor<float>::wrap(m.a.data(), {kP, kP});
  const Tensor<float> b = Tensor<float>::wrap(m.b.data(), {kP, kP});
  Tensor<float> c = Tensor<float>::wrap(m.c.data(), {kP, kP});
  for (auto _ : state) {
    product(a.span<2>(), b.span<2>(), c.span<2>());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kP * kP * kP);
}

// The same read loop as a function of the user's (the tensor, or the pointer, passed in), the
// form a program's kernels take: no call of the benchmark's own around the loop.
[[gnu::noinline]] float total_of(const float* p, index_t m) {
  float total = 0;
  for (index_t i = 0; i < m; ++i) {
    for (index_t j = 0; j < m; ++j) {
      total += p[i * m + j];
    }
  }
  return total;
}

[[gnu::noinline]] float total_of(const Tensor<float>& t) {
  const strata::Index shape = t.shape();
  float total = 0;
  for (index_t i = 0; i < shape[0]; ++i) {
    for (index_t j = 0; j < shape[1]; ++j) {
      total += t(i, j);
    }
  }
  return total;
}

[[gnu::noinline]] float update(float* p, index_t m) {
  float total = 0;
  for (index_t i = 0; i < m; ++i) {
    for (index_t j = 0; j < m; ++j) {
      p[i * m + j] = p[i * m + j] * 0.5F + 1.0F;
      total += p[i * m + j];
    }
  }
  return total;
}

[[gnu::noinline]] float update(Tensor<float>& t) {
  const strata::Index shape = t.shape();
  float total = 0;
  for (index_t i = 0; i < shape[0]; ++i) {
    for (index_t j = 0; j < shape[1]; ++j) {
      t(i, j) = t(i, j) * 0.5F + 1.0F;
      total += t(i, j);
    }
  }
  return total;
}

// The form a kernel of the user's takes with a span: the tensor's span passed by value.
[[gnu::noinline]] float update(strata::StridedSpan<float, 2> s) {
  float total = 0;
  for (index_t i = 0; i < s.extent(0); ++i) {
    for (index_t j = 0; j < s.extent(1); ++j) {
      s(i, j) = s(i, j) * 0.5F + 1.0F;
      total += s(i, j);
    }
  }
  return total;
}

void read_pointer_function(benchmark::State& state) {
  for (auto _ : state) {
    g_sink = total_of(square().data(), kM);
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

void read_strata_function(benchmark::State& state) {
  const Tensor<float> t = Tensor<float>::wrap(square().data(), {kM, kM});
  for (auto _ : state) {
    g_sink = total_of(t);
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

void access_pointer_function(benchmark::State& state) {
  for (auto _ : state) {
    g_sink = update(square().data(), kM);
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

void access_strata_function(benchmark::State& state) {
  Tensor<float> t = Tensor<float>::wrap(square().data(), {kM, kM});
  for (auto _ : state) {
    g_sink = update(t);
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

void access_span_function(benchmark::State& state) {
  Tensor<float> t = Tensor<float>::wrap(square().data(), {kM, kM});
  for (auto _ : state) {
    g_sink = update(t.span<2>());
  }
  state.SetItemsProcessed(state.iterations() * kM * kM);
}

// ---- walking indices() of shapes --------------------------------------------------------------

template <class S>
void walk(benchmark::State& state, const S& shape) {
  for (auto _ : state) {
    index_t total = 0;
    for (const strata::Index& i : shape.indices()) {
      total += i.back();
    }
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * shape.size());
}

template <class S>
void walk_loop(benchmark::State& state, const S& shape) {
  for (auto _ : state) {
    index_t total = 0;
    strata::for_each_indexed(strata::seq, shape, [&](strata::IndexSpan i) { total += i.back(); });
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * shape.size());
}

const strata::Smooth kBox{64, 64, 64};
strata::Jagged lengths_jagged() {
  std::vector<index_t> lengths(4096);
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    lengths[r] = static_cast<index_t>((r * 37) % 129);
  }
  return strata::Jagged::from_lengths(lengths);
}

void indices_smooth(benchmark::State& state) {
  walk(state, kBox);
}
void indices_jagged(benchmark::State& state) {
  walk(state, lengths_jagged());
}
void indices_shape(benchmark::State& state) {
  walk(state, strata::Shape(kBox));
}
void loop_smooth(benchmark::State& state) {
  walk_loop(state, kBox);
}
void loop_jagged(benchmark::State& state) {
  walk_loop(state, lengths_jagged());
}
void loop_shape(benchmark::State& state) {
  walk_loop(state, strata::Shape(kBox));
}

}  // namespace

BENCHMARK(slice_hand)->Name("slice_fill/hand")->Apply(bench::thread_args);
BENCHMARK(slice_hand_constant)->Name("slice_fill/hand_constant")->Apply(bench::thread_args);
BENCHMARK(slice_strata_absolute)->Name("slice_fill/strata_absolute")->Apply(bench::thread_args);
BENCHMARK(slice_strata_relative)->Name("slice_fill/strata_relative")->Apply(bench::thread_args);
BENCHMARK(slice_strata_tabulate)->Name("slice_fill/strata_tabulate")->Apply(bench::thread_args);
BENCHMARK(slice_strata_element)->Name("slice_fill/strata_element")->Apply(bench::thread_args);
BENCHMARK(slice_strata_span)->Name("slice_fill/strata_span")->Apply(bench::thread_args);
BENCHMARK(slice_xtensor)->Name("slice_fill/xtensor")->Apply(bench::thread_args);
BENCHMARK(slice_eigen)->Name("slice_fill/eigen")->Apply(bench::thread_args);
BENCHMARK(jagged_hand)->Name("jagged_fill/hand")->Apply(bench::thread_args);
BENCHMARK(jagged_strata)->Name("jagged_fill/strata_indexed")->Apply(bench::thread_args);
BENCHMARK(jagged_strata_rows)->Name("jagged_fill/strata_rows")->Apply(bench::thread_args);
BENCHMARK(tiled_hand)->Name("tiled_fill/hand")->Apply(bench::thread_args);
BENCHMARK(tiled_strata)->Name("tiled_fill/strata_indexed")->Apply(bench::thread_args);
BENCHMARK(read_pointer)->Name("element_read/pointer");
BENCHMARK(read_strata)->Name("element_read/strata");
BENCHMARK(read_span)->Name("element_read/span");
BENCHMARK(access_pointer)->Name("element_access/pointer");
BENCHMARK(access_strata)->Name("element_access/strata");
BENCHMARK(access_span)->Name("element_access/span");
BENCHMARK(read_pointer_function)->Name("element_read_function/pointer");
BENCHMARK(read_strata_function)->Name("element_read_function/strata");
BENCHMARK(access_pointer_function)->Name("element_access_function/pointer");
BENCHMARK(access_strata_function)->Name("element_access_function/strata");
BENCHMARK(access_span_function)->Name("element_access_function/span");
BENCHMARK(access_pointer_compound)->Name("element_scale/pointer");
BENCHMARK(access_strata_compound)->Name("element_scale/strata");
BENCHMARK(access_span_compound)->Name("element_scale/span");
BENCHMARK(write_pointer)->Name("element_write/pointer");
BENCHMARK(write_strata)->Name("element_write/strata");
BENCHMARK(write_span)->Name("element_write/span");
BENCHMARK(product_pointer)->Name("element_product/pointer");
BENCHMARK(product_strata)->Name("element_product/strata");
BENCHMARK(product_span)->Name("element_product/span");
BENCHMARK(indices_smooth)->Name("indices/smooth_range");
BENCHMARK(loop_smooth)->Name("indices/smooth_loop");
BENCHMARK(indices_jagged)->Name("indices/jagged_range");
BENCHMARK(loop_jagged)->Name("indices/jagged_loop");
BENCHMARK(indices_shape)->Name("indices/shape_range");
BENCHMARK(loop_shape)->Name("indices/shape_loop");

BENCHMARK_MAIN();
