// Benchmarks for tensor/ (DESIGN.md section 10): strata against memcpy / std::fill / hand-written
// loops, xtensor 0.24 and Eigen 3.4's Tensor module. float32, 256 MiB operands (8192 x 8192),
// one thread (OpenMP scaling is in parallel.cpp).
//
// Each group "name/variant" starts with its baseline (memcpy, std::fill or the hand loop);
// scripts/bench-report prints every variant's speed relative to it.
#include "strata/tensor/tensor.hpp"
#include "strata/tensor/algorithms.hpp"
#include "strata/tensor/generators.hpp"

#include <benchmark/benchmark.h>
#include <Eigen/Core>
#include <unsupported/Eigen/CXX11/Tensor>
#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xreducer.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace {

using strata::index_t;
using strata::Tensor;

constexpr index_t N = 8192;  // N x N floats = 256 MiB
constexpr std::size_t NN = static_cast<std::size_t>(N) * N;
constexpr std::size_t elements_3d = 256UL * 512 * 512;  // 256 MiB

/// An allocator of 64-byte aligned arrays: the operands start on a cache line, as the arrays
/// strata allocates itself do (a plain std::vector of this size starts 16 bytes past one, and
/// a transposed copy then writes every row across two lines).
template <class T>
struct CacheLineAllocator {
  using value_type = T;
  CacheLineAllocator() = default;
  template <class U>
  explicit CacheLineAllocator(const CacheLineAllocator<U>& /*other*/) {}
  T* allocate(std::size_t n) {
    return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{64}));
  }
  void deallocate(T* p, std::size_t /*n*/) { ::operator delete (p, std::align_val_t{64}); }
  friend bool operator==(const CacheLineAllocator&, const CacheLineAllocator&) { return true; }
};
using Floats = std::vector<float, CacheLineAllocator<float>>;

/// Shared operands, allocated once (first touch outside the timed loops).
struct Operands {
  Floats a = filled(NN, 1);
  Floats b = filled(NN, 2);
  Floats row = filled(static_cast<std::size_t>(N), 3);
  static Floats filled(std::size_t n, unsigned seed) {
    Floats v(n);
    for (std::size_t i = 0; i < n; ++i) {
      v[i] = static_cast<float>((i * 2654435761U + seed) % 1000) * 0.001F;
    }
    return v;
  }
};
Operands& operands() {
  static Operands o;
  return o;
}

Tensor<float> wrap(Floats& v, strata::IndexSpan shape) {
  return Tensor<float>::wrap(v.data(), shape);
}
using XMatrix = decltype(xt::adapt(std::declval<float*>(), NN, xt::no_ownership(),
                                   std::array<std::size_t, 2>{}));
XMatrix xwrap(Floats& v) {
  return xt::adapt(
      v.data(), v.size(), xt::no_ownership(),
      std::array<std::size_t, 2>{static_cast<std::size_t>(N), static_cast<std::size_t>(N)});
}
using EMatrix = Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor, Eigen::Index>>;
EMatrix ewrap(Floats& v) {
  return EMatrix(v.data(), N, N);
}

void bytes(benchmark::State& state, std::size_t moved) {
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(moved));
}
constexpr auto ms = benchmark::kMillisecond;

// ---- contiguous copy and fill ----------------------------------------------------------------

void copy_memcpy(benchmark::State& state) {
  auto& o = operands();
  for (auto _ : state) {
    std::memcpy(o.b.data(), o.a.data(), NN * sizeof(float));
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * NN * sizeof(float));
}
void copy_strata(benchmark::State& state) {
  auto& o = operands();
  auto src = wrap(o.a, {N, N});
  auto dst = wrap(o.b, {N, N});
  for (auto _ : state) {
    dst.assign(src, strata::seq);
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * NN * sizeof(float));
}
void copy_xtensor(benchmark::State& state) {
  auto& o = operands();
  auto src = xwrap(o.a);
  auto dst = xwrap(o.b);
  for (auto _ : state) {
    xt::noalias(dst) = src;
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * NN * sizeof(float));
}
void copy_eigen(benchmark::State& state) {
  auto& o = operands();
  auto src = ewrap(o.a);
  auto dst = ewrap(o.b);
  for (auto _ : state) {
    dst = src;
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * NN * sizeof(float));
}
BENCHMARK(copy_memcpy)->Name("copy/memcpy")->Unit(ms);
BENCHMARK(copy_strata)->Name("copy/strata")->Unit(ms);
BENCHMARK(copy_xtensor)->Name("copy/xtensor")->Unit(ms);
BENCHMARK(copy_eigen)->Name("copy/eigen")->Unit(ms);

void fill_std(benchmark::State& state) {
  auto& o = operands();
  for (auto _ : state) {
    std::fill(o.b.begin(), o.b.end(), 1.5F);
    benchmark::ClobberMemory();
  }
  bytes(state, NN * sizeof(float));
}
void fill_strata(benchmark::State& state) {
  auto dst = wrap(operands().b, {N, N});
  for (auto _ : state) {
    dst.fill(1.5F, strata::seq);
    benchmark::ClobberMemory();
  }
  bytes(state, NN * sizeof(float));
}
void fill_xtensor(benchmark::State& state) {
  auto dst = xwrap(operands().b);
  for (auto _ : state) {
    dst.fill(1.5F);
    benchmark::ClobberMemory();
  }
  bytes(state, NN * sizeof(float));
}
void fill_eigen(benchmark::State& state) {
  auto dst = ewrap(operands().b);
  for (auto _ : state) {
    dst.setConstant(1.5F);
    benchmark::ClobberMemory();
  }
  bytes(state, NN * sizeof(float));
}
BENCHMARK(fill_std)->Name("fill/std_fill")->Unit(ms);
BENCHMARK(fill_strata)->Name("fill/strata")->Unit(ms);
BENCHMARK(fill_xtensor)->Name("fill/xtensor")->Unit(ms);
BENCHMARK(fill_eigen)->Name("fill/eigen")->Unit(ms);

// ---- crop 7000 x 7000 out of 8192 x 8192 -----------------------------------------------------

constexpr index_t C = 7000;
constexpr std::size_t CC = static_cast<std::size_t>(C) * C;

void crop_hand(benchmark::State& state) {
  auto& o = operands();
  for (auto _ : state) {
    for (index_t i = 0; i < C; ++i) {
      std::memcpy(&o.b[static_cast<std::size_t>(i * C)], &o.a[static_cast<std::size_t>(i * N)],
                  C * sizeof(float));
    }
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * CC * sizeof(float));
}
void crop_strata(benchmark::State& state) {
  auto& o = operands();
  const auto src = wrap(o.a, {N, N}).select({strata::Range{0, C}, strata::Range{0, C}});
  auto dst = wrap(o.b, {C, C});
  for (auto _ : state) {
    dst.assign(src, strata::seq);
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * CC * sizeof(float));
}
void crop_xtensor(benchmark::State& state) {
  auto& o = operands();
  auto src = xwrap(o.a);
  auto dst = xt::adapt(o.b.data(), CC, xt::no_ownership(),
                       std::array<std::size_t, 2>{std::size_t{C}, std::size_t{C}});
  for (auto _ : state) {
    dst = xt::view(src, xt::range(0, C), xt::range(0, C));
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * CC * sizeof(float));
}
void crop_eigen(benchmark::State& state) {
  auto& o = operands();
  auto src = ewrap(o.a);
  EMatrix dst(o.b.data(), C, C);
  const Eigen::array<Eigen::Index, 2> start{0, 0};
  const Eigen::array<Eigen::Index, 2> extent{C, C};
  for (auto _ : state) {
    dst = src.slice(start, extent);
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * CC * sizeof(float));
}
BENCHMARK(crop_hand)->Name("crop/hand")->Unit(ms);
BENCHMARK(crop_strata)->Name("crop/strata")->Unit(ms);
BENCHMARK(crop_xtensor)->Name("crop/xtensor")->Unit(ms);
BENCHMARK(crop_eigen)->Name("crop/eigen")->Unit(ms);

// ---- transposed 3-D copy (0, 2, 1) of [256, 512, 512] ---------------------------------------

void transpose_naive(benchmark::State& state) {
  auto& o = operands();
  for (auto _ : state) {
    for (std::size_t b = 0; b < 256; ++b) {
      for (std::size_t i = 0; i < 512; ++i) {
        for (std::size_t j = 0; j < 512; ++j) {
          o.b[(b * 512 + i) * 512 + j] = o.a[(b * 512 + j) * 512 + i];
        }
      }
    }
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * elements_3d * sizeof(float));
}
void transpose_strata(benchmark::State& state) {
  auto& o = operands();
  const auto src = wrap(o.a, {256, 512, 512}).transpose({0, 2, 1});
  auto dst = wrap(o.b, {256, 512, 512});
  for (auto _ : state) {
    dst.assign(src, strata::seq);
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * elements_3d * sizeof(float));
}
void transpose_xtensor(benchmark::State& state) {
  auto& o = operands();
  const std::array<std::size_t, 3> shape{256, 512, 512};
  auto src = xt::adapt(o.a.data(), elements_3d, xt::no_ownership(), shape);
  auto dst = xt::adapt(o.b.data(), elements_3d, xt::no_ownership(), shape);
  for (auto _ : state) {
    dst = xt::transpose(src, {0, 2, 1});
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * elements_3d * sizeof(float));
}
void transpose_eigen(benchmark::State& state) {
  auto& o = operands();
  using T3 = Eigen::TensorMap<Eigen::Tensor<float, 3, Eigen::RowMajor, Eigen::Index>>;
  T3 src(o.a.data(), 256, 512, 512);
  T3 dst(o.b.data(), 256, 512, 512);
  const Eigen::array<int, 3> order{0, 2, 1};
  for (auto _ : state) {
    dst = src.shuffle(order);
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * elements_3d * sizeof(float));
}
// ---- permutations of 256 MiB against memcpy (HPTT's measure: a fraction of copy bandwidth) ---

void permute_memcpy(benchmark::State& state) {
  copy_memcpy(state);
}
using strata::detail::TransposeKernels;
/// `dst.assign(src.transpose(perm))` for a float32 tensor of @p shape (256 MiB) on one thread;
/// with @p forced through those blocked-transpose kernels (the portable 4x4 ones, or AVX2 where
/// the processor has AVX-512) instead of the best the processor runs; with @p staging false
/// through the direct streamed transpose instead of the staged one.
void permute_strata(benchmark::State& state, const strata::Index& shape, const strata::Index& perm,
                    std::optional<TransposeKernels> forced = std::nullopt, bool staging = true) {
  auto& o = operands();
  const auto src = wrap(o.a, shape).transpose(perm);
  auto dst = wrap(o.b, src.shape());
  auto& kernels = strata::detail::transpose_kernels();
  const auto best = kernels;
  strata::detail::transpose_staging() = staging;
  if (forced) {
#if defined(STRATA_TRANSPOSE_AVX512)
    const bool runs = *forced != TransposeKernels::avx2 || strata::detail::cpu_has_avx2();
#else
    const bool runs = *forced == TransposeKernels::portable;
#endif
    if (!runs) {
      state.SkipWithError("this processor has no AVX2");
      return;
    }
    kernels = *forced;
  }
  for (auto _ : state) {
    dst.assign(src, strata::seq);
    benchmark::ClobberMemory();
  }
  kernels = best;
  strata::detail::transpose_staging() = true;
  bytes(state, 2 * NN * sizeof(float));
}
/// The same for float64 (128 MiB elements of 8 bytes: the same 256 MiB).
void permute_strata_f64(benchmark::State& state, bool staging) {
  auto& o = operands();
  auto* a = reinterpret_cast<double*>(o.a.data());
  auto* b = reinterpret_cast<double*>(o.b.data());
  const auto src = Tensor<double>::wrap(a, {N / 2, N}).transpose();
  auto dst = Tensor<double>::wrap(b, {N, N / 2});
  strata::detail::transpose_staging() = staging;
  for (auto _ : state) {
    dst.assign(src, strata::seq);
    benchmark::ClobberMemory();
  }
  strata::detail::transpose_staging() = true;
  bytes(state, 2 * NN * sizeof(float));
}
BENCHMARK(permute_memcpy)->Name("permute/memcpy")->Unit(ms);
BENCHMARK_CAPTURE(permute_strata, 2d_10, strata::Index{N, N}, strata::Index{1, 0})
    ->Name("permute/2d_(1,0)")
    ->Unit(ms);
BENCHMARK_CAPTURE(permute_strata_f64, staged, true)->Name("permute/2d_(1,0)_f64")->Unit(ms);
BENCHMARK_CAPTURE(permute_strata, 3d_021, strata::Index{256, 512, 512}, strata::Index{0, 2, 1})
    ->Name("permute/3d_(0,2,1)")
    ->Unit(ms);
BENCHMARK_CAPTURE(permute_strata, 3d_210, strata::Index{256, 512, 512}, strata::Index{2, 1, 0})
    ->Name("permute/3d_(2,1,0)")
    ->Unit(ms);
BENCHMARK_CAPTURE(permute_strata, 3d_120, strata::Index{256, 512, 512}, strata::Index{1, 2, 0})
    ->Name("permute/3d_(1,2,0)")
    ->Unit(ms);
BENCHMARK_CAPTURE(permute_strata, 4d_1032, strata::Index{64, 64, 128, 128},
                  strata::Index{1, 0, 3, 2})
    ->Name("permute/4d_(1,0,3,2)")
    ->Unit(ms);
BENCHMARK_CAPTURE(permute_strata, 4d_3210, strata::Index{64, 64, 128, 128},
                  strata::Index{3, 2, 1, 0})
    ->Name("permute/4d_(3,2,1,0)")
    ->Unit(ms);
/// The same permutations through each kernel below the best one: the portable 4x4 kernel, and
/// AVX2 (the AVX-512 kernel's alternative, or the best one on a processor without AVX-512);
/// and through the best kernel's direct streamed transpose (no staging), all seven.
const bool permute_kernels_registered = [] {
  struct Case {
    const char* name;
    strata::Index shape;
    strata::Index perm;
  };
  const std::vector<Case> cases{{"2d_(1,0)", {N, N}, {1, 0}},
                                {"3d_(0,2,1)", {256, 512, 512}, {0, 2, 1}},
                                {"3d_(1,2,0)", {256, 512, 512}, {1, 2, 0}},
                                {"4d_(1,0,3,2)", {64, 64, 128, 128}, {1, 0, 3, 2}}};
  for (const auto& [kernels, suffix] : {std::pair{TransposeKernels::portable, "_portable"},
                                        std::pair{TransposeKernels::avx2, "_avx2"}}) {
    for (const auto& c : cases) {
      const std::string name = std::string("permute/") + c.name + suffix;
      benchmark::RegisterBenchmark(name.c_str(), permute_strata, c.shape, c.perm,
                                   std::optional{kernels}, true)
          ->Unit(ms);
    }
  }
  const std::vector<Case> all{{"2d_(1,0)", {N, N}, {1, 0}},
                              {"3d_(0,2,1)", {256, 512, 512}, {0, 2, 1}},
                              {"3d_(2,1,0)", {256, 512, 512}, {2, 1, 0}},
                              {"3d_(1,2,0)", {256, 512, 512}, {1, 2, 0}},
                              {"4d_(1,0,3,2)", {64, 64, 128, 128}, {1, 0, 3, 2}},
                              {"4d_(3,2,1,0)", {64, 64, 128, 128}, {3, 2, 1, 0}}};
  for (const auto& c : all) {
    const std::string name = std::string("permute/") + c.name + "_direct";
    benchmark::RegisterBenchmark(name.c_str(), permute_strata, c.shape, c.perm, std::nullopt, false)
        ->Unit(ms);
  }
  benchmark::RegisterBenchmark("permute/2d_(1,0)_f64_direct", permute_strata_f64, false)->Unit(ms);
  return true;
}();

BENCHMARK(transpose_naive)->Name("transpose3d/naive")->Unit(ms);
BENCHMARK(transpose_strata)->Name("transpose3d/strata")->Unit(ms);
BENCHMARK(transpose_xtensor)->Name("transpose3d/xtensor")->Unit(ms);
BENCHMARK(transpose_eigen)->Name("transpose3d/eigen")->Unit(ms);

// ---- broadcast-add of a row and of a column --------------------------------------------------

void bcast_row_hand(benchmark::State& state) {
  auto& o = operands();
  for (auto _ : state) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(N); ++i) {
      float* out = &o.b[i * N];
      const float* in = &o.a[i * N];
      for (std::size_t j = 0; j < static_cast<std::size_t>(N); ++j) {
        out[j] = in[j] + o.row[j];
      }
    }
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * NN * sizeof(float));
}
void bcast_col_hand(benchmark::State& state) {
  auto& o = operands();
  for (auto _ : state) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(N); ++i) {
      float* out = &o.b[i * N];
      const float* in = &o.a[i * N];
      const float c = o.row[i];
      for (std::size_t j = 0; j < static_cast<std::size_t>(N); ++j) {
        out[j] = in[j] + c;
      }
    }
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * NN * sizeof(float));
}
void bcast_strata(benchmark::State& state, bool column) {
  auto& o = operands();
  const auto a = wrap(o.a, {N, N});
  auto r = wrap(o.row, {N});
  const auto other = column ? r.unsqueeze(1) : r;
  auto out = wrap(o.b, {N, N});
  for (auto _ : state) {
    strata::zip_with_into(out, a, other, std::plus<float>{}, strata::seq);
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * NN * sizeof(float));
}
void bcast_xtensor(benchmark::State& state, bool column) {
  auto& o = operands();
  auto a = xwrap(o.a);
  auto out = xwrap(o.b);
  auto r = xt::adapt(o.row.data(), o.row.size(), xt::no_ownership(),
                     std::array<std::size_t, 1>{static_cast<std::size_t>(N)});
  for (auto _ : state) {
    if (column) {
      out = a + xt::view(r, xt::all(), xt::newaxis());
    } else {
      out = a + r;
    }
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * NN * sizeof(float));
}
void bcast_eigen(benchmark::State& state, bool column) {
  auto& o = operands();
  auto a = ewrap(o.a);
  auto out = ewrap(o.b);
  Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor, Eigen::Index>> r(
      o.row.data(), column ? N : 1, column ? 1 : N);
  const Eigen::array<Eigen::Index, 2> times{column ? 1 : N, column ? N : 1};
  for (auto _ : state) {
    out = a + r.broadcast(times);
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * NN * sizeof(float));
}
BENCHMARK(bcast_row_hand)->Name("bcast_row/hand")->Unit(ms);
BENCHMARK_CAPTURE(bcast_strata, row, false)->Name("bcast_row/strata")->Unit(ms);
BENCHMARK_CAPTURE(bcast_xtensor, row, false)->Name("bcast_row/xtensor")->Unit(ms);
BENCHMARK_CAPTURE(bcast_eigen, row, false)->Name("bcast_row/eigen")->Unit(ms);
BENCHMARK(bcast_col_hand)->Name("bcast_col/hand")->Unit(ms);
BENCHMARK_CAPTURE(bcast_strata, col, true)->Name("bcast_col/strata")->Unit(ms);
BENCHMARK_CAPTURE(bcast_xtensor, col, true)->Name("bcast_col/xtensor")->Unit(ms);
BENCHMARK_CAPTURE(bcast_eigen, col, true)->Name("bcast_col/eigen")->Unit(ms);

// ---- flips and roll (copies out of the view) -------------------------------------------------

void flip_hand(benchmark::State& state, int axis) {
  auto& o = operands();
  for (auto _ : state) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(N); ++i) {
      float* out = &o.b[i * N];
      if (axis == 0) {
        std::memcpy(out, &o.a[(N - 1 - i) * N], N * sizeof(float));
      } else {
        const float* in = &o.a[i * N];
        for (std::size_t j = 0; j < static_cast<std::size_t>(N); ++j) {
          out[j] = in[N - 1 - j];
        }
      }
    }
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * NN * sizeof(float));
}
void flip_strata(benchmark::State& state, int axis) {
  auto& o = operands();
  const auto src = wrap(o.a, {N, N}).reverse({axis});
  auto dst = wrap(o.b, {N, N});
  for (auto _ : state) {
    dst.assign(src, strata::seq);
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * NN * sizeof(float));
}
void flip_xtensor(benchmark::State& state, int axis) {
  auto& o = operands();
  auto src = xwrap(o.a);
  auto dst = xwrap(o.b);
  for (auto _ : state) {
    dst = xt::flip(src, static_cast<std::size_t>(axis));
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * NN * sizeof(float));
}
void flip_eigen(benchmark::State& state, int axis) {
  auto& o = operands();
  auto src = ewrap(o.a);
  auto dst = ewrap(o.b);
  const Eigen::array<bool, 2> which{axis == 0, axis == 1};
  for (auto _ : state) {
    dst = src.reverse(which);
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * NN * sizeof(float));
}
BENCHMARK_CAPTURE(flip_hand, 0, 0)->Name("flip0/hand")->Unit(ms);
BENCHMARK_CAPTURE(flip_strata, 0, 0)->Name("flip0/strata")->Unit(ms);
BENCHMARK_CAPTURE(flip_xtensor, 0, 0)->Name("flip0/xtensor")->Unit(ms);
BENCHMARK_CAPTURE(flip_eigen, 0, 0)->Name("flip0/eigen")->Unit(ms);
BENCHMARK_CAPTURE(flip_hand, 1, 1)->Name("flip1/hand")->Unit(ms);
BENCHMARK_CAPTURE(flip_strata, 1, 1)->Name("flip1/strata")->Unit(ms);
BENCHMARK_CAPTURE(flip_xtensor, 1, 1)->Name("flip1/xtensor")->Unit(ms);
BENCHMARK_CAPTURE(flip_eigen, 1, 1)->Name("flip1/eigen")->Unit(ms);

constexpr index_t shift0 = 1000;
constexpr index_t shift1 = 3000;
void roll_hand(benchmark::State& state) {
  auto& o = operands();
  for (auto _ : state) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(N); ++i) {
      const float* in = &o.a[((i + N - shift0) % N) * N];
      float* out = &o.b[i * N];
      std::memcpy(out + shift1, in, (N - shift1) * sizeof(float));
      std::memcpy(out, in + (N - shift1), shift1 * sizeof(float));
    }
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * NN * sizeof(float));
}
void roll_strata(benchmark::State& state) {
  auto& o = operands();
  const auto src = wrap(o.a, {N, N}).rotate({shift0, shift1});
  auto dst = wrap(o.b, {N, N});
  for (auto _ : state) {
    dst.assign(src, strata::seq);
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * NN * sizeof(float));
}
void roll_xtensor(benchmark::State& state) {
  auto& o = operands();
  auto src = xwrap(o.a);
  auto dst = xwrap(o.b);
  for (auto _ : state) {
    dst = xt::roll(xt::roll(src, shift0, 0), shift1, 1);  // xtensor's roll copies eagerly
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * NN * sizeof(float));
}
BENCHMARK(roll_hand)->Name("roll/hand")->Unit(ms);
BENCHMARK(roll_strata)->Name("roll/strata")->Unit(ms);
BENCHMARK(roll_xtensor)->Name("roll/xtensor")->Unit(ms);

// ---- sums along axis 0 and axis 1 ------------------------------------------------------------

void sum0_hand(benchmark::State& state) {
  auto& o = operands();
  std::vector<float> out(static_cast<std::size_t>(N));
  for (auto _ : state) {
    std::fill(out.begin(), out.end(), 0.0F);
    for (std::size_t i = 0; i < static_cast<std::size_t>(N); ++i) {
      const float* in = &o.a[i * N];
      for (std::size_t j = 0; j < static_cast<std::size_t>(N); ++j) {
        out[j] += in[j];
      }
    }
    benchmark::DoNotOptimize(out.data());
  }
  bytes(state, NN * sizeof(float));
}
void sum1_hand(benchmark::State& state) {
  auto& o = operands();
  std::vector<float> out(static_cast<std::size_t>(N));
  for (auto _ : state) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(N); ++i) {
      const float* in = &o.a[i * N];
      // The best hand loop: 8 independent partial sums, so it vectorises.
      float lanes[8] = {};
      for (std::size_t j = 0; j < static_cast<std::size_t>(N); j += 8) {
        for (std::size_t l = 0; l < 8; ++l) {
          lanes[l] += in[j + l];
        }
      }
      out[i] = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) +
               ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
    }
    benchmark::DoNotOptimize(out.data());
  }
  bytes(state, NN * sizeof(float));
}
void sum_strata(benchmark::State& state, index_t axis) {
  const auto a = wrap(operands().a, {N, N});
  for (auto _ : state) {
    auto s = strata::reduce(a, {axis}, 0.0F, std::plus<float>{}, false, strata::seq);
    benchmark::DoNotOptimize(s.buffer().data());
  }
  bytes(state, NN * sizeof(float));
}
void sum_xtensor(benchmark::State& state, std::size_t axis) {
  auto a = xwrap(operands().a);
  for (auto _ : state) {
    xt::xtensor<float, 1> s = xt::sum(a, {axis});
    benchmark::DoNotOptimize(s.data());
  }
  bytes(state, NN * sizeof(float));
}
void sum_eigen(benchmark::State& state, int axis) {
  auto a = ewrap(operands().a);
  const Eigen::array<int, 1> dims{axis};
  for (auto _ : state) {
    Eigen::Tensor<float, 1, Eigen::RowMajor> s = a.sum(dims);
    benchmark::DoNotOptimize(s.data());
  }
  bytes(state, NN * sizeof(float));
}
BENCHMARK(sum0_hand)->Name("sum0/hand")->Unit(ms);
BENCHMARK_CAPTURE(sum_strata, 0, 0)->Name("sum0/strata")->Unit(ms);
BENCHMARK_CAPTURE(sum_xtensor, 0, 0)->Name("sum0/xtensor")->Unit(ms);
BENCHMARK_CAPTURE(sum_eigen, 0, 0)->Name("sum0/eigen")->Unit(ms);
BENCHMARK(sum1_hand)->Name("sum1/hand")->Unit(ms);
BENCHMARK_CAPTURE(sum_strata, 1, 1)->Name("sum1/strata")->Unit(ms);
BENCHMARK_CAPTURE(sum_xtensor, 1, 1)->Name("sum1/xtensor")->Unit(ms);
BENCHMARK_CAPTURE(sum_eigen, 1, 1)->Name("sum1/eigen")->Unit(ms);

}  // namespace

BENCHMARK_MAIN();
