// Benchmarks for select/: materialising lazy selections against hand loops, xtensor's
// concatenate and pad (through peers/xtensor_pad.cpp, compiled as C++17: xtensor 0.24's pad is
// wrong when compiled as C++20) and Eigen's concatenate / pad (constant; Eigen has no reflect).
// float32; run with OMP_NUM_THREADS=1 for the one-thread table in docs/performance.md.
#include "peers/xtensor_pad.hpp"
#include "strata/select/concat.hpp"
#include "strata/select/pad.hpp"
#include "strata/tensor/tensor.hpp"

#include <benchmark/benchmark.h>
#include <Eigen/Core>
#include <unsupported/Eigen/CXX11/Tensor>
#include <xtensor/xadapt.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xtensor.hpp>

#include <cstring>
#include <vector>

namespace {

using strata::index_t;
using strata::Tensor;

constexpr index_t Q = 4096;  // four 4096 x 4096 shards: 4 x 64 MiB
constexpr index_t N = 8192;  // 8192 x 8192 image: 256 MiB
constexpr index_t W = 16;    // pad width on every side
constexpr std::size_t QQ = static_cast<std::size_t>(Q) * Q;
constexpr std::size_t NN = static_cast<std::size_t>(N) * N;
constexpr std::size_t P = static_cast<std::size_t>(N + 2 * W);
constexpr auto ms = benchmark::kMillisecond;

struct Data {
  std::vector<std::vector<float>> shards = std::vector<std::vector<float>>(4, filled(QQ));
  std::vector<float> image = filled(NN);
  std::vector<float> out = std::vector<float>(4 * QQ + P * P, 0.0F);
  static std::vector<float> filled(std::size_t n) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) {
      v[i] = static_cast<float>(i % 977);
    }
    return v;
  }
};
Data& data() {
  static Data d;
  return d;
}

void bytes(benchmark::State& state, std::size_t moved) {
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(moved));
}

// ---- concat of 4 x 64 MiB along axis 0 -------------------------------------------------------

void concat_hand(benchmark::State& state) {
  auto& d = data();
  for (auto _ : state) {
    for (std::size_t s = 0; s < 4; ++s) {
      std::memcpy(d.out.data() + s * QQ, d.shards[s].data(), QQ * sizeof(float));
    }
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * 4 * QQ * sizeof(float));
}
void concat_strata(benchmark::State& state) {
  auto& d = data();
  std::vector<strata::Selection<float>> parts;
  for (auto& s : d.shards) {
    parts.emplace_back(Tensor<float>::wrap(s.data(), {Q, Q}));
  }
  const auto c = strata::concat(0, parts);
  auto out = Tensor<float>::wrap(d.out.data(), {4 * Q, Q});
  for (auto _ : state) {
    c.assign_to(out);
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * 4 * QQ * sizeof(float));
}
void concat_xtensor(benchmark::State& state) {
  auto& d = data();
  const std::array<std::size_t, 2> shape{static_cast<std::size_t>(Q), static_cast<std::size_t>(Q)};
  auto a = xt::adapt(d.shards[0].data(), QQ, xt::no_ownership(), shape);
  auto b = xt::adapt(d.shards[1].data(), QQ, xt::no_ownership(), shape);
  auto c = xt::adapt(d.shards[2].data(), QQ, xt::no_ownership(), shape);
  auto e = xt::adapt(d.shards[3].data(), QQ, xt::no_ownership(), shape);
  auto out = xt::adapt(
      d.out.data(), 4 * QQ, xt::no_ownership(),
      std::array<std::size_t, 2>{4 * static_cast<std::size_t>(Q), static_cast<std::size_t>(Q)});
  for (auto _ : state) {
    xt::noalias(out) = xt::concatenate(xt::xtuple(a, b, c, e), 0);
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * 4 * QQ * sizeof(float));
}
void concat_eigen(benchmark::State& state) {
  auto& d = data();
  using C = Eigen::TensorMap<const Eigen::Tensor<float, 2, Eigen::RowMajor, Eigen::Index>>;
  using M = Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor, Eigen::Index>>;
  const C a(d.shards[0].data(), Q, Q);
  const C b(d.shards[1].data(), Q, Q);
  const C c(d.shards[2].data(), Q, Q);
  const C e(d.shards[3].data(), Q, Q);
  M out(d.out.data(), 4 * Q, Q);
  for (auto _ : state) {
    out = a.concatenate(b, 0).concatenate(c, 0).concatenate(e, 0);
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * 4 * QQ * sizeof(float));
}
BENCHMARK(concat_hand)->Name("concat/hand")->Unit(ms);
BENCHMARK(concat_strata)->Name("concat/strata")->Unit(ms);
BENCHMARK(concat_xtensor)->Name("concat/xtensor")->Unit(ms);
BENCHMARK(concat_eigen)->Name("concat/eigen")->Unit(ms);

// ---- pad 8192 x 8192 by 16 on every side ----------------------------------------------------

index_t reflect(index_t i, index_t n) {
  const index_t period = 2 * n - 2;
  i = ((i % period) + period) % period;
  return i < n ? i : period - i;
}

void pad_hand(benchmark::State& state, bool constant) {
  auto& d = data();
  for (auto _ : state) {
    for (std::size_t i = 0; i < P; ++i) {
      float* row = d.out.data() + i * P;
      const index_t r = static_cast<index_t>(i) - W;
      if (constant && (r < 0 || r >= N)) {
        std::fill(row, row + P, 0.0F);
        continue;
      }
      const float* src = d.image.data() + static_cast<std::size_t>(reflect(r, N)) * N;
      for (index_t j = 0; j < W; ++j) {
        row[j] = constant ? 0.0F : src[reflect(j - W, N)];
        row[W + N + j] = constant ? 0.0F : src[reflect(N + j, N)];
      }
      std::memcpy(row + W, src, N * sizeof(float));
    }
    benchmark::ClobberMemory();
  }
  bytes(state, (NN + P * P) * sizeof(float));
}
void pad_strata(benchmark::State& state, bool constant) {
  auto& d = data();
  const auto src = Tensor<float>::wrap(d.image.data(), {N, N});
  const auto p = strata::pad(src, {{W, W}, {W, W}},
                             constant ? strata::PadMode::constant : strata::PadMode::reflect);
  auto out = Tensor<float>::wrap(d.out.data(), {N + 2 * W, N + 2 * W});
  for (auto _ : state) {
    p.assign_to(out);
    benchmark::ClobberMemory();
  }
  bytes(state, (NN + P * P) * sizeof(float));
}
void pad_xtensor(benchmark::State& state, bool reflected) {
  auto& d = data();
  for (auto _ : state) {
    peers::xtensor_pad(d.image.data(), d.out.data(), N, W, reflected);
    benchmark::ClobberMemory();
  }
  // A wrong pad is not a measurement: check borders, corners and interior against the hand rule.
  for (const index_t i : {index_t{0}, W - 1, W, W + 7, W + N - 1, W + N, 2 * W + N - 1}) {
    for (const index_t j : {index_t{0}, W - 1, W, W + 5, W + N - 1, W + N, 2 * W + N - 1}) {
      const bool border = i < W || j < W || i >= W + N || j >= W + N;
      const float expected =
          (!reflected && border)
              ? 0.0F
              : d.image[static_cast<std::size_t>(reflect(i - W, N) * N + reflect(j - W, N))];
      if (d.out[static_cast<std::size_t>(i) * P + static_cast<std::size_t>(j)] != expected) {
        state.SkipWithError("xt::pad gave a wrong value");
        return;
      }
    }
  }
  bytes(state, (NN + P * P) * sizeof(float));
}
void pad_eigen(benchmark::State& state) {
  auto& d = data();
  Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor, Eigen::Index>> src(d.image.data(), N,
                                                                               N);
  Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor, Eigen::Index>> out(
      d.out.data(), static_cast<Eigen::Index>(P), static_cast<Eigen::Index>(P));
  const Eigen::array<std::pair<Eigen::Index, Eigen::Index>, 2> widths{
      std::make_pair(Eigen::Index{W}, Eigen::Index{W}),
      std::make_pair(Eigen::Index{W}, Eigen::Index{W})};
  for (auto _ : state) {
    out = src.pad(widths);  // Eigen pads with a constant only
    benchmark::ClobberMemory();
  }
  bytes(state, (NN + P * P) * sizeof(float));
}
BENCHMARK_CAPTURE(pad_hand, reflect, false)->Name("pad_reflect/hand")->Unit(ms);
BENCHMARK_CAPTURE(pad_strata, reflect, false)->Name("pad_reflect/strata")->Unit(ms);
BENCHMARK_CAPTURE(pad_xtensor, reflect, true)->Name("pad_reflect/xtensor")->Unit(ms);
BENCHMARK_CAPTURE(pad_hand, constant, true)->Name("pad_constant/hand")->Unit(ms);
BENCHMARK_CAPTURE(pad_strata, constant, true)->Name("pad_constant/strata")->Unit(ms);
BENCHMARK_CAPTURE(pad_xtensor, constant, false)->Name("pad_constant/xtensor")->Unit(ms);
BENCHMARK(pad_eigen)->Name("pad_constant/eigen")->Unit(ms);

// ---- interleave two 4096 x 4096 along axis 0 ------------------------------------------------

void interleave_hand(benchmark::State& state) {
  auto& d = data();
  for (auto _ : state) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(Q); ++i) {
      std::memcpy(d.out.data() + (2 * i) * Q, d.shards[0].data() + i * Q, Q * sizeof(float));
      std::memcpy(d.out.data() + (2 * i + 1) * Q, d.shards[1].data() + i * Q, Q * sizeof(float));
    }
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * 2 * QQ * sizeof(float));
}
void interleave_strata(benchmark::State& state) {
  auto& d = data();
  const auto s = strata::interleave<float>(0, {Tensor<float>::wrap(d.shards[0].data(), {Q, Q}),
                                               Tensor<float>::wrap(d.shards[1].data(), {Q, Q})});
  auto out = Tensor<float>::wrap(d.out.data(), {2 * Q, Q});
  for (auto _ : state) {
    s.assign_to(out);
    benchmark::ClobberMemory();
  }
  bytes(state, 2 * 2 * QQ * sizeof(float));
}
BENCHMARK(interleave_hand)->Name("interleave/hand")->Unit(ms);
BENCHMARK(interleave_strata)->Name("interleave/strata")->Unit(ms);

}  // namespace

BENCHMARK_MAIN();
