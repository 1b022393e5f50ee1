// Benchmarks for jagged tensors as a scientist writes them: build from nested vectors, per-row
// mean subtraction + softmax in the expression syntax, per-row sums and variances, sums along
// the outer axis (awkward's axis=0), per-row filter and take, joins (concat along both axes),
// pairs per row (cartesian, combinations), per-row sort, rows chosen by an index, the fixed cost
// of each operation on 10 rows, row access; each group
// "name/variant" starts with the hand-written loop over values + offsets (the baseline).
#include "strata/select/jagged.hpp"
#include "strata/expr/expr.hpp"
#include "strata/select/jagged_join.hpp"
#include "strata/select/jagged_lists.hpp"
#include "strata/tensor/jagged_tensor.hpp"
#include "strata/tensor/list_array.hpp"

#include "threads.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <span>
#include <utility>
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
  const float* values = t.data();
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
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(state.iterations() * t.size());
}

// The same three statements with the reductions inside the expressions (strata::rows): each
// statement one parallel region that reduces a row, then writes it, while it is in cache.
void softmax_rows(benchmark::State& state) {
  bench::set_threads(state);
  const JaggedTensor<float>& t = sequence_tensor();
  JaggedTensor<float> y = JaggedTensor<float>::zeros(t.shape());
  for (auto _ : state) {
    y = t - strata::rows::mean(t);
    y = strata::exp(y - strata::rows::max(y));
    y /= strata::rows::sum(y);
    benchmark::DoNotOptimize(y.data());
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
  const float* values = t.data();
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
  const float* values = t.data();
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

// ---- inside rows of lists (n * var * var: 2 * 10^5 events of 0..8 jets of 0..16 floats) -------
// Sums along each list (awkward's axis=-1) and across the lists of each event (axis=-2), against
// hand loops over the values and the list offsets (what awkward's ListOffsetArray holds).

const std::vector<std::vector<std::vector<float>>>& nested_jets() {
  static const std::vector<std::vector<std::vector<float>>> rows = [] {
    std::mt19937 rng(7);
    std::uniform_int_distribution<index_t> jets(0, 8);
    std::uniform_int_distribution<index_t> length(0, 16);
    std::uniform_real_distribution<float> value(-2.0F, 2.0F);
    std::vector<std::vector<std::vector<float>>> out(200000);
    for (auto& row : out) {
      row.resize(static_cast<std::size_t>(jets(rng)));
      for (auto& list : row) {
        list.resize(static_cast<std::size_t>(length(rng)));
        for (float& x : list) {
          x = value(rng);
        }
      }
    }
    return out;
  }();
  return rows;
}

const JaggedTensor<float>& jets() {
  static const JaggedTensor<float> t(nested_jets());
  return t;
}

/// The offsets of every list, and of every event's first list among them.
struct ListOffsets {
  std::vector<index_t> lists;
  std::vector<index_t> events;
};

const ListOffsets& list_offsets() {
  static const ListOffsets o = [] {
    const JaggedTensor<float> lists = strata::flatten(jets(), 1);
    const strata::Tensor<index_t> counts = strata::num(jets(), 1);
    ListOffsets out{{lists.offsets().begin(), lists.offsets().end()}, {0}};
    for (index_t r = 0; r < counts.size(); ++r) {
      out.events.push_back(out.events.back() + counts.data()[r]);
    }
    return out;
  }();
  return o;
}

void list_sum_hand(benchmark::State& state) {
  bench::one_thread();
  const float* values = jets().data();
  const std::vector<index_t>& lists = list_offsets().lists;
  for (auto _ : state) {
    std::vector<float> out(lists.size() - 1);
    for (std::size_t j = 0; j + 1 < lists.size(); ++j) {
      float sum = 0;
      for (index_t k = lists[j]; k < lists[j + 1]; ++k) {
        sum += values[k];
      }
      out[j] = sum;
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

void list_sum_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = jets();
  for (auto _ : state) {
    auto sums = strata::sum(t, strata::ListAxis{-1});
    benchmark::DoNotOptimize(sums.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

// awkward's broadcasting: one value per list (n * var) subtracted from every element of its
// list (n * var * var); the hand loop walks the list offsets with the per-list values.
const JaggedTensor<float>& per_list_values() {
  static const JaggedTensor<float> v = strata::sum(jets(), strata::ListAxis{-1});
  return v;
}

void broadcast_lists_hand(benchmark::State& state) {
  bench::one_thread();
  const float* values = jets().data();
  const float* per_list = per_list_values().data();
  const std::vector<index_t>& lists = list_offsets().lists;
  std::vector<float> out(static_cast<std::size_t>(jets().size()));
  for (auto _ : state) {
    float* o = out.data();
    for (std::size_t j = 0; j + 1 < lists.size(); ++j) {
      const float v = per_list[j];
      for (index_t k = lists[j]; k < lists[j + 1]; ++k) {
        o[k] = values[k] - v;
      }
    }
    benchmark::DoNotOptimize(o);
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

void broadcast_lists_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = jets();
  const JaggedTensor<float>& per_list = per_list_values();
  JaggedTensor<float> y = JaggedTensor<float>::zeros(t.shape());
  for (auto _ : state) {
    y = t - per_list;
    benchmark::DoNotOptimize(y.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

void across_lists_sum_hand(benchmark::State& state) {
  bench::one_thread();
  const float* values = jets().data();
  const ListOffsets& o = list_offsets();
  for (auto _ : state) {
    // Each event's sums go after the previous event's; offsets as a jagged result needs them.
    std::vector<float> out;
    std::vector<index_t> offsets{0};
    for (std::size_t r = 0; r + 1 < o.events.size(); ++r) {
      const std::size_t first = out.size();
      for (index_t j = o.events[r]; j < o.events[r + 1]; ++j) {
        const auto u = static_cast<std::size_t>(j);
        const auto n = static_cast<std::size_t>(o.lists[u + 1] - o.lists[u]);
        if (out.size() - first < n) {
          out.resize(first + n, 0.0F);
        }
        const float* x = values + o.lists[u];
        for (std::size_t k = 0; k < n; ++k) {
          out[first + k] += x[k];
        }
      }
      offsets.push_back(static_cast<index_t>(out.size()));
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::DoNotOptimize(offsets.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

void across_lists_sum_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = jets();
  for (auto _ : state) {
    auto sums = strata::sum(t, strata::ListAxis{-2});
    benchmark::DoNotOptimize(sums.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

// The same across lists at 1, 2, ... threads (rows split between threads; the hand loop is the
// one-thread one above).
void across_lists_sum_threads(benchmark::State& state) {
  bench::set_threads(state);
  const JaggedTensor<float>& t = jets();
  for (auto _ : state) {
    auto sums = strata::sum(t, strata::ListAxis{-2});
    benchmark::DoNotOptimize(sums.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

// Across the rows (awkward's axis=0 of n * var * var): list i of every event, element by
// element; the hand loop finds each position's longest list, then adds every list into it.
void across_rows_sum_hand(benchmark::State& state) {
  bench::one_thread();
  const float* values = jets().data();
  const ListOffsets& o = list_offsets();
  for (auto _ : state) {
    std::vector<index_t> widths;
    for (std::size_t r = 0; r + 1 < o.events.size(); ++r) {
      for (index_t j = o.events[r]; j < o.events[r + 1]; ++j) {
        const auto i = static_cast<std::size_t>(j - o.events[r]);
        if (widths.size() <= i) {
          widths.resize(i + 1, 0);
        }
        const auto u = static_cast<std::size_t>(j);
        widths[i] = std::max(widths[i], o.lists[u + 1] - o.lists[u]);
      }
    }
    std::vector<index_t> offsets(widths.size() + 1, 0);
    for (std::size_t i = 0; i < widths.size(); ++i) {
      offsets[i + 1] = offsets[i] + widths[i];
    }
    std::vector<float> out(static_cast<std::size_t>(offsets.back()), 0.0F);
    for (std::size_t r = 0; r + 1 < o.events.size(); ++r) {
      for (index_t j = o.events[r]; j < o.events[r + 1]; ++j) {
        float* a = out.data() + offsets[static_cast<std::size_t>(j - o.events[r])];
        const auto u = static_cast<std::size_t>(j);
        const float* x = values + o.lists[u];
        for (index_t k = 0; k < o.lists[u + 1] - o.lists[u]; ++k) {
          a[k] += x[k];
        }
      }
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::DoNotOptimize(offsets.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

void across_rows_sum_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = jets();
  for (auto _ : state) {
    auto sums = strata::sum(t, strata::ListAxis{0});
    benchmark::DoNotOptimize(sums.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

// The reductions across lists and rows that are not one value at a time (mean, var, argmax:
// column reductions over the columns the lists make, folded as they come), beside sum's fold.
void across_lists_var_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = jets();
  for (auto _ : state) {
    auto v = strata::var(t, strata::ListAxis{-2});
    benchmark::DoNotOptimize(v.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

void across_lists_argmax_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = jets();
  for (auto _ : state) {
    auto at = strata::argmax(t, strata::ListAxis{-2});
    benchmark::DoNotOptimize(at.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

void across_rows_mean_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = jets();
  for (auto _ : state) {
    auto means = strata::mean(t, strata::ListAxis{0});
    benchmark::DoNotOptimize(means.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

// ---- per-row variance (two passes, as NumPy) of the same 10^6 rows
// -------------------------------

void row_var_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  const float* values = t.data();
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

// ---- NaN-skipping and weighted per-row means of the same 10^6 rows -----------------------------

/// The rows of many_rows() with one value in 16 NaN (about two rows in three hold one).
const JaggedTensor<float>& rows_with_nans() {
  static const JaggedTensor<float> t = [] {
    JaggedTensor<float> out(many_rows().shape());
    out.values().assign(many_rows().values());
    float* v = out.data();
    for (index_t k = 7; k < out.size(); k += 16) {
      v[k] = std::numeric_limits<float>::quiet_NaN();
    }
    return out;
  }();
  return t;
}

/// One weight per value of many_rows(): 1, 2, 3, 4, 1, ...
const JaggedTensor<float>& row_weights() {
  static const JaggedTensor<float> w = [] {
    JaggedTensor<float> out(many_rows().shape());
    float* v = out.data();
    for (index_t k = 0; k < out.size(); ++k) {
      v[k] = static_cast<float>(1 + k % 4);
    }
    return out;
  }();
  return w;
}

void row_nanmean_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = rows_with_nans();
  const float* values = t.data();
  const std::span<const index_t> offsets = t.offsets();
  std::vector<float> out(offsets.size() - 1);
  for (auto _ : state) {
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      float sum = 0;
      index_t kept = 0;
      for (index_t k = offsets[r]; k < offsets[r + 1]; ++k) {
        const float x = values[k];
        sum += x == x ? x : 0.0F;
        kept += x == x ? 1 : 0;
      }
      out[r] = sum / static_cast<float>(kept);
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

void row_nanmean_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = rows_with_nans();
  for (auto _ : state) {
    auto m = strata::nanmean(t, 1);
    benchmark::DoNotOptimize(m.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

void row_average_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  const float* values = t.data();
  const float* weights = row_weights().data();
  const std::span<const index_t> offsets = t.offsets();
  std::vector<float> out(offsets.size() - 1);
  for (auto _ : state) {
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      float products = 0;
      float total = 0;
      for (index_t k = offsets[r]; k < offsets[r + 1]; ++k) {
        products += values[k] * weights[k];
        total += weights[k];
      }
      out[r] = products / total;
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(2 * sizeof(float)));
}

void row_average_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  const JaggedTensor<float>& w = row_weights();
  for (auto _ : state) {
    auto m = strata::average(t, 1, w);
    benchmark::DoNotOptimize(m.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(2 * sizeof(float)));
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
    index_t* o = out.data();
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
  const float* values = t.data();
  const bool* keep = positive_mask().data();
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
    benchmark::DoNotOptimize(kept.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

void take_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  const float* values = t.data();
  const index_t* at = reversed_index().data();
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
    benchmark::DoNotOptimize(taken.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

// The hand-written loops the join benchmarks compare with, writing values + offsets.

/// Row r of a, then row r of b, for every row.
void concat_each_by_hand(const JaggedTensor<float>& a, const JaggedTensor<float>& b,
                         std::vector<float>& values, std::vector<index_t>& offsets) {
  const std::span<const index_t> ao = a.offsets();
  const std::span<const index_t> bo = b.offsets();
  const float* av = a.data();
  const float* bv = b.data();
  values.resize(static_cast<std::size_t>(a.size() + b.size()));
  offsets.assign(ao.size(), 0);
  float* o = values.data();
  for (std::size_t r = 0; r + 1 < ao.size(); ++r) {
    o = std::copy(av + ao[r], av + ao[r + 1], o);
    o = std::copy(bv + bo[r], bv + bo[r + 1], o);
    offsets[r + 1] = ao[r + 1] + bo[r + 1];
  }
}

/// Every pair (t[r][i], t[r][j]) of each row, i major.
void cartesian_by_hand(const JaggedTensor<float>& t, std::vector<float>& x, std::vector<float>& y,
                       std::vector<index_t>& out_offsets) {
  const std::span<const index_t> offsets = t.offsets();
  const float* in = t.data();
  out_offsets.assign(offsets.size(), 0);
  for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
    const index_t n = offsets[r + 1] - offsets[r];
    out_offsets[r + 1] = out_offsets[r] + n * n;
  }
  x.resize(static_cast<std::size_t>(out_offsets.back()));
  y.resize(x.size());
  for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
    index_t k = out_offsets[r];
    for (index_t i = offsets[r]; i < offsets[r + 1]; ++i) {
      for (index_t j = offsets[r]; j < offsets[r + 1]; ++j) {
        x[static_cast<std::size_t>(k)] = in[i];
        y[static_cast<std::size_t>(k++)] = in[j];
      }
    }
  }
}

// ---- joins: two tensors of 10^6 rows of 0..64 float32, rows after rows and row by row ---------

const JaggedTensor<float>& other_rows() {
  static const JaggedTensor<float> t(random_rows(1000000, 64));
  return t;
}

void concat_rows_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& a = many_rows();
  const JaggedTensor<float>& b = other_rows();
  for (auto _ : state) {
    std::vector<float> values(static_cast<std::size_t>(a.size() + b.size()));
    std::vector<index_t> offsets(a.offsets().begin(), a.offsets().end());
    offsets.reserve(offsets.size() + b.offsets().size() - 1);
    for (std::size_t r = 1; r < b.offsets().size(); ++r) {
      offsets.push_back(a.size() + b.offsets()[r]);
    }
    std::copy_n(b.data(), b.size(), std::copy_n(a.data(), a.size(), values.data()));
    benchmark::DoNotOptimize(values.data());
    benchmark::DoNotOptimize(offsets.data());
  }
  state.SetBytesProcessed(state.iterations() * (a.size() + b.size()) *
                          static_cast<index_t>(sizeof(float)));
}

void concat_rows_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& a = many_rows();
  const JaggedTensor<float>& b = other_rows();
  for (auto _ : state) {
    JaggedTensor<float> joined = strata::concat(0, {a, b});
    benchmark::DoNotOptimize(joined.data());
  }
  state.SetBytesProcessed(state.iterations() * (a.size() + b.size()) *
                          static_cast<index_t>(sizeof(float)));
}

void concat_each_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& a = many_rows();
  const JaggedTensor<float>& b = other_rows();
  for (auto _ : state) {
    std::vector<float> values;
    std::vector<index_t> offsets;
    concat_each_by_hand(a, b, values, offsets);
    benchmark::DoNotOptimize(values.data());
    benchmark::DoNotOptimize(offsets.data());
  }
  state.SetBytesProcessed(state.iterations() * (a.size() + b.size()) *
                          static_cast<index_t>(sizeof(float)));
}

void concat_each_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& a = many_rows();
  const JaggedTensor<float>& b = other_rows();
  for (auto _ : state) {
    JaggedTensor<float> joined = strata::concat(1, {a, b});
    benchmark::DoNotOptimize(joined.data());
  }
  state.SetBytesProcessed(state.iterations() * (a.size() + b.size()) *
                          static_cast<index_t>(sizeof(float)));
}

// ---- rows chosen by an index: 10^6 rows of 0..64 in a random order -----------------------------

const std::vector<index_t>& shuffled_rows() {
  static const std::vector<index_t> order = [] {
    std::vector<index_t> o(1000000);
    for (std::size_t k = 0; k < o.size(); ++k) {
      o[k] = static_cast<index_t>(k);
    }
    std::shuffle(o.begin(), o.end(), std::mt19937(7));
    return o;
  }();
  return order;
}

void take_rows_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  const std::vector<index_t>& order = shuffled_rows();
  const std::span<const index_t> offsets = t.offsets();
  const float* in = t.data();
  for (auto _ : state) {
    std::vector<index_t> out_offsets(order.size() + 1, 0);
    for (std::size_t k = 0; k < order.size(); ++k) {
      const auto r = static_cast<std::size_t>(order[k]);
      out_offsets[k + 1] = out_offsets[k] + offsets[r + 1] - offsets[r];
    }
    std::vector<float> values(static_cast<std::size_t>(out_offsets.back()));
    float* o = values.data();
    for (const index_t r : order) {
      const auto u = static_cast<std::size_t>(r);
      o = std::copy(in + offsets[u], in + offsets[u + 1], o);
    }
    benchmark::DoNotOptimize(values.data());
    benchmark::DoNotOptimize(out_offsets.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

void take_rows_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  const std::vector<index_t>& order = shuffled_rows();
  for (auto _ : state) {
    JaggedTensor<float> taken = strata::take_rows(t, order);
    benchmark::DoNotOptimize(taken.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

// ---- pairs per row: 10^5 events of 0..16 particles ---------------------------------------------

const JaggedTensor<float>& events() {
  static const JaggedTensor<float> t(random_rows(100000, 16));
  return t;
}

void cartesian_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = events();
  index_t pairs = 0;
  for (auto _ : state) {
    std::vector<float> x;
    std::vector<float> y;
    std::vector<index_t> offsets;
    cartesian_by_hand(t, x, y, offsets);
    pairs = offsets.back();
    benchmark::DoNotOptimize(x.data());
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(state.iterations() * pairs);
}

void cartesian_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = events();
  index_t pairs = 0;
  for (auto _ : state) {
    auto [x, y] = strata::cartesian(t, t);
    pairs = x.size();
    benchmark::DoNotOptimize(x.data());
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(state.iterations() * pairs);
}

void combinations_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = events();
  const std::span<const index_t> offsets = t.offsets();
  const float* in = t.data();
  index_t pairs = 0;
  for (auto _ : state) {
    std::vector<index_t> out_offsets(offsets.size(), 0);
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      const index_t n = offsets[r + 1] - offsets[r];
      out_offsets[r + 1] = out_offsets[r] + n * (n - 1) / 2;
    }
    std::vector<float> x(static_cast<std::size_t>(out_offsets.back()));
    std::vector<float> y(x.size());
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      index_t k = out_offsets[r];
      for (index_t i = offsets[r]; i < offsets[r + 1]; ++i) {
        for (index_t j = i + 1; j < offsets[r + 1]; ++j) {
          x[static_cast<std::size_t>(k)] = in[i];
          y[static_cast<std::size_t>(k++)] = in[j];
        }
      }
    }
    pairs = out_offsets.back();
    benchmark::DoNotOptimize(x.data());
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(state.iterations() * pairs);
}

void combinations_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = events();
  index_t pairs = 0;
  for (auto _ : state) {
    auto [x, y] = strata::combinations<2>(t);
    pairs = x.size();
    benchmark::DoNotOptimize(x.data());
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(state.iterations() * pairs);
}

// ---- sort each row: 10^6 rows of 0..64 ---------------------------------------------------------

void sort_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  const std::span<const index_t> offsets = t.offsets();
  for (auto _ : state) {
    std::vector<float> values(t.data(), t.data() + t.size());
    std::vector<index_t> out_offsets(offsets.begin(), offsets.end());
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      std::sort(values.data() + offsets[r], values.data() + offsets[r + 1]);
    }
    benchmark::DoNotOptimize(values.data());
    benchmark::DoNotOptimize(out_offsets.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

void sort_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = many_rows();
  for (auto _ : state) {
    JaggedTensor<float> sorted = strata::sort(t);
    benchmark::DoNotOptimize(sorted.data());
  }
  state.SetBytesProcessed(state.iterations() * t.size() * static_cast<index_t>(sizeof(float)));
}

// ---- the fixed cost of an operation: 10 rows of 0..8 -------------------------------------------

const JaggedTensor<float>& tiny() {
  static const JaggedTensor<float> t(random_rows(10, 8));
  return t;
}

void tiny_sum_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = tiny();
  const std::span<const index_t> offsets = t.offsets();
  const float* in = t.data();
  for (auto _ : state) {
    std::vector<float> out(offsets.size() - 1);
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      float sum = 0;
      for (index_t k = offsets[r]; k < offsets[r + 1]; ++k) {
        sum += in[k];
      }
      out[r] = sum;
    }
    benchmark::DoNotOptimize(out.data());
  }
}

void tiny_sum_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = tiny();
  for (auto _ : state) {
    auto sums = strata::sum(t, 1);
    benchmark::DoNotOptimize(sums.data());
  }
}

void tiny_filter_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = tiny();
  const std::span<const index_t> offsets = t.offsets();
  const float* in = t.data();
  for (auto _ : state) {
    std::vector<float> values;
    std::vector<index_t> out_offsets{0};
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      for (index_t k = offsets[r]; k < offsets[r + 1]; ++k) {
        if (in[k] > 0) {
          values.push_back(in[k]);
        }
      }
      out_offsets.push_back(static_cast<index_t>(values.size()));
    }
    benchmark::DoNotOptimize(values.data());
    benchmark::DoNotOptimize(out_offsets.data());
  }
}

void tiny_filter_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = tiny();
  for (auto _ : state) {
    JaggedTensor<float> kept = strata::filter_each(t, t > 0.0F);
    benchmark::DoNotOptimize(kept.data());
  }
}

void tiny_concat_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = tiny();
  for (auto _ : state) {
    std::vector<float> values;
    std::vector<index_t> offsets;
    concat_each_by_hand(t, t, values, offsets);
    benchmark::DoNotOptimize(values.data());
    benchmark::DoNotOptimize(offsets.data());
  }
}

void tiny_concat_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = tiny();
  for (auto _ : state) {
    JaggedTensor<float> joined = strata::concat(1, {t, t});
    benchmark::DoNotOptimize(joined.data());
  }
}

void tiny_cartesian_hand(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = tiny();
  for (auto _ : state) {
    std::vector<float> x;
    std::vector<float> y;
    std::vector<index_t> offsets;
    cartesian_by_hand(t, x, y, offsets);
    benchmark::DoNotOptimize(x.data());
    benchmark::DoNotOptimize(y.data());
  }
}

void tiny_cartesian_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = tiny();
  for (auto _ : state) {
    auto [x, y] = strata::cartesian(t, t);
    benchmark::DoNotOptimize(x.data());
    benchmark::DoNotOptimize(y.data());
  }
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
    benchmark::DoNotOptimize(t.data());
  }
  state.SetItemsProcessed(state.iterations() * sequence_tensor().size());
}

// ---- row(r): one call per row, reading the row's first value and size ------------------------

void row_hand(benchmark::State& state) {
  const JaggedTensor<float>& t = sequence_tensor();
  const float* values = t.data();
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

// The lists of every event in reverse order (awkward's jets[:, ::-1]): awkward writes a packed
// copy (values + list offsets, the hand loop below); strata's JaggedTensor copies the same way
// (select_each); a ListArray of depth 2 rewrites the starts and stops of the lists only.

void reverse_lists_hand(benchmark::State& state) {
  bench::one_thread();
  const float* values = jets().data();
  const std::vector<index_t>& lists = list_offsets().lists;
  const std::vector<index_t>& events = list_offsets().events;
  std::vector<float> out(static_cast<std::size_t>(jets().size()));
  std::vector<index_t> offsets(lists.size());
  for (auto _ : state) {
    float* o = out.data();
    std::size_t at = 0;
    offsets[0] = 0;
    for (std::size_t e = 0; e + 1 < events.size(); ++e) {
      for (index_t j = events[e + 1]; j-- > events[e];) {
        o = std::copy(values + lists[static_cast<std::size_t>(j)],
                      values + lists[static_cast<std::size_t>(j) + 1], o);
        offsets[at + 1] = o - out.data();
        ++at;
      }
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::DoNotOptimize(offsets.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

void reverse_lists_copy(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = jets();
  for (auto _ : state) {
    const JaggedTensor<float> reversed = t.select_each(strata::Range{{}, {}, -1});
    benchmark::DoNotOptimize(reversed.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

void reverse_lists_view(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = jets();
  for (auto _ : state) {
    const strata::ListArray<float> reversed = strata::ListArray<float>(t).reverse_each();
    benchmark::DoNotOptimize(reversed.starts().data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

// Filtering rows of lists at two depths (awkward's jets[mask]): a `n * var` mask keeps whole
// lists (the jets whose first value is positive), a mask of the events' structure keeps values
// inside each list. The hand loops write the packed result (values + list offsets + event
// offsets, a ListOffsetArray of depth 2).

const JaggedTensor<bool>& list_mask() {  // one flag per list: its first value is positive
  static const JaggedTensor<bool> mask = [] {
    const std::vector<std::vector<std::vector<float>>>& rows = nested_jets();
    std::vector<std::vector<bool>> flags(rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
      for (const auto& list : rows[r]) {
        flags[r].push_back(!list.empty() && list.front() > 0.0F);
      }
    }
    return JaggedTensor<bool>(flags);
  }();
  return mask;
}

const JaggedTensor<bool>& value_mask() {  // one flag per value: it is positive
  static const JaggedTensor<bool> mask(jets() > 0.0F);
  return mask;
}

void filter_lists_hand(benchmark::State& state) {
  bench::one_thread();
  const float* values = jets().data();
  const bool* keep = list_mask().data();
  const std::vector<index_t>& lists = list_offsets().lists;
  const std::vector<index_t>& events = list_offsets().events;
  for (auto _ : state) {
    std::vector<float> out;
    out.reserve(static_cast<std::size_t>(jets().size()));
    std::vector<index_t> list_ends{0};
    list_ends.reserve(lists.size());
    std::vector<index_t> event_ends{0};
    event_ends.reserve(events.size());
    for (std::size_t e = 0; e + 1 < events.size(); ++e) {
      for (auto j = static_cast<std::size_t>(events[e]); std::cmp_less(j, events[e + 1]); ++j) {
        if (keep[j]) {
          out.insert(out.end(), values + lists[j], values + lists[j + 1]);
          list_ends.push_back(static_cast<index_t>(out.size()));
        }
      }
      event_ends.push_back(static_cast<index_t>(list_ends.size() - 1));
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::DoNotOptimize(list_ends.data());
    benchmark::DoNotOptimize(event_ends.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

void filter_lists_strata(benchmark::State& state) {
  bench::one_thread();
  for (auto _ : state) {
    const JaggedTensor<float> kept = strata::filter_each(jets(), list_mask());
    benchmark::DoNotOptimize(kept.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

void filter_inside_hand(benchmark::State& state) {
  bench::one_thread();
  const float* values = jets().data();
  const bool* keep = value_mask().data();
  const std::vector<index_t>& lists = list_offsets().lists;
  const std::vector<index_t>& events = list_offsets().events;
  for (auto _ : state) {
    std::vector<float> out;
    out.reserve(static_cast<std::size_t>(jets().size()));
    std::vector<index_t> list_ends(lists.size());
    list_ends[0] = 0;
    for (std::size_t j = 0; j + 1 < lists.size(); ++j) {
      for (index_t k = lists[j]; k < lists[j + 1]; ++k) {
        if (keep[k]) {
          out.push_back(values[k]);
        }
      }
      list_ends[j + 1] = static_cast<index_t>(out.size());
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::DoNotOptimize(list_ends.data());
    benchmark::DoNotOptimize(events.data());  // the events' offsets stay as they are
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

void filter_inside_strata(benchmark::State& state) {
  bench::one_thread();
  for (auto _ : state) {
    const JaggedTensor<float> kept = strata::filter_each(jets(), value_mask());
    benchmark::DoNotOptimize(kept.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

// Making rows of lists: from nested std::vectors (what a user has first), against the hand loop
// writing values + list offsets + event offsets; and a new tensor of the same shape (an
// expression's result), against the hand loop writing a new values array.

void lists_from_nested_hand(benchmark::State& state) {
  bench::one_thread();
  const auto& rows = nested_jets();
  for (auto _ : state) {
    std::vector<float> values;
    std::vector<index_t> lists{0};
    std::vector<index_t> events{0};
    events.reserve(rows.size() + 1);
    for (const auto& row : rows) {
      for (const auto& list : row) {
        values.insert(values.end(), list.begin(), list.end());
        lists.push_back(static_cast<index_t>(values.size()));
      }
      events.push_back(static_cast<index_t>(lists.size()) - 1);
    }
    benchmark::DoNotOptimize(values.data());
    benchmark::DoNotOptimize(lists.data());
    benchmark::DoNotOptimize(events.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

void lists_from_nested_strata(benchmark::State& state) {
  bench::one_thread();
  const auto& rows = nested_jets();
  for (auto _ : state) {
    const JaggedTensor<float> t(rows);
    benchmark::DoNotOptimize(t.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

void lists_new_result_hand(benchmark::State& state) {
  bench::one_thread();
  const float* x = jets().data();
  const auto n = static_cast<std::size_t>(jets().size());
  for (auto _ : state) {
    std::vector<float> out(n);
    for (std::size_t i = 0; i < n; ++i) {
      out[i] = 2.0F * x[i] + 1.0F;
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

void lists_new_result_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = jets();
  for (auto _ : state) {
    const JaggedTensor<float> out = 2.0F * t + 1.0F;
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * jets().size() * static_cast<index_t>(sizeof(float)));
}

// flatten / unflatten of rows of lists (awkward's ak.flatten(events, axis=1) and
// ak.unflatten(lists, counts)): strata gives views over the same values (a new shape); awkward
// shares the values too and writes new offsets, the hand loops below.

void flatten_lists_hand(benchmark::State& state) {
  bench::one_thread();
  const std::vector<index_t>& lists = list_offsets().lists;
  for (auto _ : state) {
    std::vector<index_t> offsets(lists.begin(), lists.end());  // the lists become the rows
    benchmark::DoNotOptimize(offsets.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<index_t>(lists.size() - 1));
}

void flatten_lists_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float>& t = jets();
  for (auto _ : state) {
    const JaggedTensor<float> lists = strata::flatten(t, 1);
    benchmark::DoNotOptimize(lists.data());
  }
  state.SetItemsProcessed(state.iterations() *
                          static_cast<index_t>(list_offsets().lists.size() - 1));
}

void unflatten_lists_hand(benchmark::State& state) {
  bench::one_thread();
  const std::vector<index_t>& lists = list_offsets().lists;
  const std::vector<index_t>& events = list_offsets().events;
  std::vector<index_t> counts(events.size() - 1);
  for (std::size_t e = 0; e < counts.size(); ++e) {
    counts[e] = events[e + 1] - events[e];
  }
  for (auto _ : state) {
    std::vector<index_t> outer(counts.size() + 1, 0);  // the events' offsets into the lists
    for (std::size_t e = 0; e < counts.size(); ++e) {
      outer[e + 1] = outer[e] + counts[e];
    }
    std::vector<index_t> inner(lists.begin(), lists.end());
    benchmark::DoNotOptimize(outer.data());
    benchmark::DoNotOptimize(inner.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<index_t>(lists.size() - 1));
}

void unflatten_lists_strata(benchmark::State& state) {
  bench::one_thread();
  const JaggedTensor<float> flat = strata::flatten(jets(), 1);
  const strata::Tensor<index_t> counts = strata::num(jets(), 1);
  for (auto _ : state) {
    const JaggedTensor<float> events = strata::unflatten(flat, counts);
    benchmark::DoNotOptimize(events.data());
  }
  state.SetItemsProcessed(state.iterations() *
                          static_cast<index_t>(list_offsets().lists.size() - 1));
}

BENCHMARK(softmax_hand)->Name("softmax/hand")->Apply(bench::thread_args);
BENCHMARK(softmax_strata)->Name("softmax/strata")->Apply(bench::thread_args);
BENCHMARK(softmax_rows)->Name("softmax/strata_rows")->Apply(bench::thread_args);
BENCHMARK(row_sum_hand)->Name("row_sum/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(row_sum_strata)->Name("row_sum/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(column_sum_hand)->Name("column_sum/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(column_sum_strata)->Name("column_sum/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(list_sum_hand)->Name("list_sum/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(list_sum_strata)->Name("list_sum/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(broadcast_lists_hand)->Name("broadcast_lists/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(broadcast_lists_strata)->Name("broadcast_lists/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(across_lists_sum_hand)->Name("across_lists_sum/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(across_lists_sum_strata)->Name("across_lists_sum/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(across_lists_sum_threads)
    ->Name("across_lists_sum/strata_threads")
    ->Apply(bench::thread_args);
BENCHMARK(across_rows_sum_hand)->Name("across_rows_sum/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(across_rows_sum_strata)->Name("across_rows_sum/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(across_lists_var_strata)->Name("across_lists_var/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(across_lists_argmax_strata)
    ->Name("across_lists_argmax/strata")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(across_rows_mean_strata)->Name("across_rows_mean/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(row_var_hand)->Name("row_var/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(row_var_strata)->Name("row_var/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(row_nanmean_hand)->Name("row_nanmean/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(row_nanmean_strata)->Name("row_nanmean/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(row_average_hand)->Name("row_average/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(row_average_strata)->Name("row_average/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(filter_hand)->Name("filter_each/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(filter_strata)->Name("filter_each/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(take_hand)->Name("take_each/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(take_strata)->Name("take_each/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(concat_rows_hand)->Name("concat_rows/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(concat_rows_strata)->Name("concat_rows/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(concat_each_hand)->Name("concat_each_row/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(concat_each_strata)->Name("concat_each_row/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(take_rows_hand)->Name("take_rows/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(take_rows_strata)->Name("take_rows/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(cartesian_hand)->Name("cartesian/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(cartesian_strata)->Name("cartesian/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(combinations_hand)->Name("combinations/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(combinations_strata)->Name("combinations/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(sort_hand)->Name("sort/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(sort_strata)->Name("sort/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(tiny_sum_hand)->Name("tiny_sum/hand");
BENCHMARK(tiny_sum_strata)->Name("tiny_sum/strata");
BENCHMARK(tiny_filter_hand)->Name("tiny_filter/hand");
BENCHMARK(tiny_filter_strata)->Name("tiny_filter/strata");
BENCHMARK(tiny_concat_hand)->Name("tiny_concat/hand");
BENCHMARK(tiny_concat_strata)->Name("tiny_concat/strata");
BENCHMARK(tiny_cartesian_hand)->Name("tiny_cartesian/hand");
BENCHMARK(tiny_cartesian_strata)->Name("tiny_cartesian/strata");
BENCHMARK(build_hand)->Name("build/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(build_strata)->Name("build/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(row_hand)->Name("row/hand")->Unit(benchmark::kMicrosecond);
BENCHMARK(row_strata)->Name("row/strata")->Unit(benchmark::kMicrosecond);
BENCHMARK(reverse_lists_hand)->Name("reverse_lists/packed_hand")->Unit(benchmark::kMillisecond);
BENCHMARK(reverse_lists_copy)->Name("reverse_lists/strata_copy")->Unit(benchmark::kMillisecond);
BENCHMARK(reverse_lists_view)->Name("reverse_lists/strata_view")->Unit(benchmark::kMillisecond);
BENCHMARK(filter_lists_hand)->Name("filter_lists/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(filter_lists_strata)->Name("filter_lists/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(filter_inside_hand)->Name("filter_inside_lists/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(filter_inside_strata)->Name("filter_inside_lists/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(lists_from_nested_hand)->Name("lists_from_nested/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(lists_from_nested_strata)
    ->Name("lists_from_nested/strata")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(lists_new_result_hand)->Name("lists_new_result/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(lists_new_result_strata)->Name("lists_new_result/strata")->Unit(benchmark::kMillisecond);

BENCHMARK(flatten_lists_hand)->Name("flatten_lists/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(flatten_lists_strata)->Name("flatten_lists/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(unflatten_lists_hand)->Name("unflatten_lists/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(unflatten_lists_strata)->Name("unflatten_lists/strata")->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
