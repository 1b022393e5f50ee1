// Benchmarks for jagged tensors as a scientist writes them: build from nested vectors, per-row
// mean subtraction + softmax in the expression syntax, per-row sums and variances, sums along
// the outer axis (awkward's axis=0), per-row filter and take, row access; each group
// "name/variant" starts with the hand-written loop over values + offsets (the baseline).
#include "strata/select/jagged.hpp"
#include "strata/expr/expr.hpp"
#include "strata/tensor/jagged_tensor.hpp"

#include "threads.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <span>
#include <vector>

namespace {

using strata::index_t;
using strata::JaggedTensor;

std::vector<std::vector<float>> random_rows(index_t rows, index_t max_length) {
  std::mt19937 rng(42);
  std::uniform_int_distribution<index_t> length(0, max_length);
  std::uniform_real_distribution<float> value(-2.0F, 2.0F);
  std::vector<std::vector<float>> out(static_cast<std::size_t>(rows));
  for (auto& row : out) {
    row.resize(static_cast<std::size_t>(length(rng)));
    for (float& x : row) {
      x = value(rng);
    }
  }
  return out;
}

// ---- 10,000 rows of 0..200 float32: subtract each row's mean, then a softmax per row ----------

const std::vector<std::vector<float>>& sequences() {
  static const auto rows = random_rows(10000, 200);
  return rows;
}

const JaggedTensor<float>& sequence_tensor() {
  static const JaggedTensor<float> t(sequences());
  return t;
}

void softmax_hand(benchmark::State& state) {
  bench::set_threads(state);
  const JaggedTensor<float>& t = sequence_tensor();
  const float* values = t.values().data();
  const std::span<const index_t> offsets = t.offsets();
  const auto rows = static_cast<index_t>(offsets.size()) - 1;
  std::vector<float> out(static_cast<std::size_t>(t.size()));
  float* o = out.data();
  for (auto _ : state) {
#pragma omp parallel for schedule(dynamic, 64)
    for (index_t r = 0; r < rows; ++r) {
      const index_t b = offsets[static_cast<std::size_t>(r)];
      const index_t e = offsets[static_cast<std::size_t>(r) + 1];
      if (b == e) {
        continue;
      }
      float sum = 0;
      for (index_t k = b; k < e; ++k) {
        sum += values[k];
      }
      const float mean = sum / static_cast<float>(e - b);
      float hi = -INFINITY;
      for (index_t k = b; k < e; ++k) {
        o[k] = values[k] - mean;
        hi = std::max(hi, o[k]);
      }
      float total = 0;
      for (index_t k = b; k < e; ++k) {
        o[k] = std::exp(o[k] - hi);
        total += o[k];
      }
      for (index_t k = b; k < e; ++k) {
        o[k] /= total;
      }
    }
    benchmark::DoNotOptimize(o);
  }
  state.SetItemsProcessed(state.iterations() * t.size());
}

void softmax_strata(benchmark::State& state) {
  bench::set_threads(state);
  const JaggedTensor<float>& t = sequence_tensor();
  JaggedTensor<float> y = JaggedTensor<float>::zeros(t.shape());
  for (auto _ : state) {
    y = t - strata::mean(t, 1);
    y = strata::exp(y - strata::max(y, 1));
    y /= strata::sum(y, 1);
    benchmark::DoNotOptimize(y.values().data());
  }
  state.SetItemsProcessed(state.iterations() * t.size());
}

// ---- per-row sums of 10^6 rows of 0..64 float32 ------------------------------------------------

const JaggedTensor<float>& many_rows() {
  static const JaggedTensor<float> t(random_rows(1000000, 64));
  return t;
}

void row_sum_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  const float* values = t.values().data();
  const std::span<const index_t> offsets = t.offsets();
  std::vector<float> out(offsets.size() - 1);
  for (auto _ : state) {
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      float sum = 0;
      for (index_t k = offsets[r]; k < offsets[r + 1]; ++k) {
        sum += values[k];
      }
      out[r] = sum;
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

void row_sum_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  for (auto _ : state) {
    auto sums = strata::sum(t, 1);
    benchmark::DoNotOptimize(sums.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

// ---- along the outer axis (awkward's axis=0): column sums of the same 10^6 rows
// -------------------

void column_sum_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  const float* values = t.values().data();
  const std::span<const index_t> offsets = t.offsets();
  for (auto _ : state) {
    std::vector<float> out;
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      const auto n = static_cast<std::size_t>(offsets[r + 1] - offsets[r]);
      if (out.size() < n) {
        out.resize(n, 0.0F);
      }
      const float* x = values + offsets[r];
      for (std::size_t k = 0; k < n; ++k) {
        out[k] += x[k];
      }
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

void column_sum_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  for (auto _ : state) {
    auto sums = strata::sum(t, 0);
    benchmark::DoNotOptimize(sums.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

// ---- per-row variance (two passes, as NumPy) of the same 10^6 rows
// -------------------------------

void row_var_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  const float* values = t.values().data();
  const std::span<const index_t> offsets = t.offsets();
  std::vector<float> out(offsets.size() - 1);
  for (auto _ : state) {
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      const index_t n = offsets[r + 1] - offsets[r];
      const float* x = values + offsets[r];
      float mean = 0;
      for (index_t k = 0; k < n; ++k) {
        mean += x[k];
      }
      mean /= static_cast<float>(n);
      float squares = 0;
      for (index_t k = 0; k < n; ++k) {
        squares += (x[k] - mean) * (x[k] - mean);
      }
      out[r] = squares / static_cast<float>(n);
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

void row_var_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  for (auto _ : state) {
    auto v = strata::var(t, 1);
    benchmark::DoNotOptimize(v.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

// ---- per-row indexing of the same 10^6 rows: filter by a ragged mask, take by a ragged index ----

const JaggedTensor<bool>& positive_mask() {
  static const JaggedTensor<bool> mask = many_rows() > 0.0F;
  return mask;
}

const JaggedTensor<index_t>& reversed_index() {  // each row's positions, last first
  static const JaggedTensor<index_t> index = [] {
    const JaggedTensor<float>& t = many_rows();
    JaggedTensor<index_t> out(t.shape());
    const std::span<const index_t> offsets = t.offsets();
    index_t* o = out.values().data();
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      const index_t n = offsets[r + 1] - offsets[r];
      for (index_t k = 0; k < n; ++k) {
        *o++ = n - 1 - k;
      }
    }
    return out;
  }();
  return index;
}

void filter_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  const float* values = t.values().data();
  const bool* keep = positive_mask().values().data();
  const std::span<const index_t> offsets = t.offsets();
  for (auto _ : state) {
    std::vector<float> out_values;
    out_values.reserve(static_cast<std::size_t>(t.size()));
    std::vector<index_t> out_offsets{0};
    out_offsets.reserve(offsets.size());
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      for (index_t k = offsets[r]; k < offsets[r + 1]; ++k) {
        if (keep[k]) {
          out_values.push_back(values[k]);
        }
      }
      out_offsets.push_back(static_cast<index_t>(out_values.size()));
    }
    benchmark::DoNotOptimize(out_values.data());
    benchmark::DoNotOptimize(out_offsets.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

void filter_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  const JaggedTensor<bool>& mask = positive_mask();
  for (auto _ : state) {
    JaggedTensor<float> kept = strata::filter_each(t, mask);
    benchmark::DoNotOptimize(kept.values().data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

void take_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  const float* values = t.values().data();
  const index_t* at = reversed_index().values().data();
  const std::span<const index_t> offsets = t.offsets();
  for (auto _ : state) {
    std::vector<float> out_values(static_cast<std::size_t>(t.size()));
    std::vector<index_t> out_offsets(offsets.begin(), offsets.end());
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      const index_t n = offsets[r + 1] - offsets[r];
      for (index_t k = offsets[r]; k < offsets[r + 1]; ++k) {
        const index_t i = at[k] < 0 ? at[k] + n : at[k];
        if (i < 0 || i >= n) {
          state.SkipWithError("index out of range");
        }
        out_values[static_cast<std::size_t>(k)] = values[offsets[r] + i];
      }
    }
    benchmark::DoNotOptimize(out_values.data());
    benchmark::DoNotOptimize(out_offsets.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

void take_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  const JaggedTensor<index_t>& index = reversed_index();
  for (auto _ : state) {
    JaggedTensor<float> taken = strata::take_each(t, index);
    benchmark::DoNotOptimize(taken.values().data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

// ---- build from std::vector<std::vector<float>> (10,000 rows of 0..200) ------------------------

void build_hand(benchmark::State& state) {
  const auto& rows = sequences();
  for (auto _ : state) {
    std::vector<index_t> offsets{0};
    offsets.reserve(rows.size() + 1);
    for (const auto& row : rows) {
      offsets.push_back(offsets.back() + static_cast<index_t>(row.size()));
    }
    std::vector<float> values;
    values.reserve(static_cast<std::size_t>(offsets.back()));
    for (const auto& row : rows) {
      values.insert(values.end(), row.begin(), row.end());
    }
    benchmark::DoNotOptimize(values.data());
    benchmark::DoNotOptimize(offsets.data());
  }
  state.SetItemsProcessed(state.iterations() * sequence_tensor().size());
}

void build_strata(benchmark::State& state) {
  const auto& rows = sequences();
  for (auto _ : state) {
    const JaggedTensor t(rows);
    benchmark::DoNotOptimize(t.values().data());
  }
  state.SetItemsProcessed(state.iterations() * sequence_tensor().size());
}

// ---- row(r): one call per row, reading the row's first value and size ------------------------

void row_hand(benchmark::State& state) {
  const JaggedTensor<float>& t = sequence_tensor();
  const float* values = t.values().data();
  const std::span<const index_t> offsets = t.offsets();
  const auto rows = static_cast<index_t>(offsets.size()) - 1;
  for (auto _ : state) {
    std::size_t total = 0;
    for (index_t r = 0; r < rows; ++r) {
      const std::span<const float> row(
          values + offsets[static_cast<std::size_t>(r)],
          static_cast<std::size_t>(offsets[static_cast<std::size_t>(r) + 1] -
                                   offsets[static_cast<std::size_t>(r)]));
      total += row.size();
      benchmark::DoNotOptimize(row.data());
    }
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * rows);
}

void row_strata(benchmark::State& state) {
  const JaggedTensor<float>& t = sequence_tensor();
  const index_t rows = t.shape().n_rows();
  for (auto _ : state) {
    std::size_t total = 0;
    for (index_t r = 0; r < rows; ++r) {
      const std::span<const float> row = t.row(r);
      total += row.size();
      benchmark::DoNotOptimize(row.data());
    }
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * rows);
}

}  // namespace

BENCHMARK(softmax_hand)->Name("softmax/hand")->Apply(bench::thread_args);
BENCHMARK(softmax_strata)->Name("softmax/strata")->Apply(bench::thread_args);
BENCHMARK(row_sum_hand)->Name("row_sum/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(row_sum_strata)->Name("row_sum/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(column_sum_hand)->Name("column_sum/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(column_sum_strata)->Name("column_sum/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(row_var_hand)->Name("row_var/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(row_var_strata)->Name("row_var/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(filter_hand)->Name("filter_each/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(filter_strata)->Name("filter_each/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(take_hand)->Name("take_each/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(take_strata)->Name("take_each/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(build_hand)->Name("build/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(build_strata)->Name("build/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(row_hand)->Name("row/hand")->Unit(benchmark::kMicrosecond);
BENCHMARK(row_strata)->Name("row/strata")->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
