// Benchmarks for sparse tensors as a scientist uses them: assemble 10^6 random contributions
// (about 10% repeats) into a 10^6 x 10^6 tensor, sum along each axis, multiply by a dense
// vector, list the stored entries. Each group "name/variant" starts with the hand-written
// baseline; Eigen 3.4's SparseMatrix and a std::map are the peers.
#include "strata/tensor/sparse.hpp"
#include "strata/expr/expr.hpp"
#include "strata/expr/reduce.hpp"
#include "strata/tensor/algorithms.hpp"

#include "threads.hpp"

#include <benchmark/benchmark.h>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

namespace {

using strata::index_t;
using strata::Tensor;

constexpr index_t n = 1'000'000;
constexpr std::size_t contributions = 1'000'000;

struct Coo {
  std::vector<index_t> rows;
  std::vector<index_t> cols;
  std::vector<double> values;
};

// 900,000 random coordinates, then 100,000 repeats of earlier ones, shuffled.
const Coo& coo() {
  static const Coo c = [] {
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<index_t> index(0, n - 1);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    std::vector<std::pair<index_t, index_t>> at;
    for (std::size_t e = 0; e < contributions * 9 / 10; ++e) {
      at.emplace_back(index(rng), index(rng));
    }
    while (at.size() < contributions) {
      at.push_back(at[static_cast<std::size_t>(rng() % at.size())]);
    }
    std::shuffle(at.begin(), at.end(), rng);
    Coo out;
    for (const auto& [i, j] : at) {
      out.rows.push_back(i);
      out.cols.push_back(j);
      out.values.push_back(value(rng));
    }
    return out;
  }();
  return c;
}

const Tensor<double>& matrix() {
  static const Tensor<double> K =
      strata::sparse_from_coo({n, n}, {coo().rows, coo().cols}, coo().values);
  return K;
}

using EigenCsr = Eigen::SparseMatrix<double, Eigen::RowMajor, std::int64_t>;

const EigenCsr& eigen_matrix() {
  static const EigenCsr A = [] {
    std::vector<Eigen::Triplet<double, std::int64_t>> triplets;
    for (std::size_t e = 0; e < contributions; ++e) {
      triplets.emplace_back(coo().rows[e], coo().cols[e], coo().values[e]);
    }
    EigenCsr m(n, n);
    m.setFromTriplets(triplets.begin(), triplets.end());
    return m;
  }();
  return A;
}

// ---- assembly ----------------------------------------------------------------------------------

void assemble_hand(benchmark::State& state) {
  bench::set_threads(state);
  const Coo& c = coo();
  for (auto _ : state) {
    std::vector<std::pair<index_t, double>> entries(contributions);
    for (std::size_t e = 0; e < contributions; ++e) {
      entries[e] = {c.rows[e] * n + c.cols[e], c.values[e]};
    }
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<index_t> keys;
    std::vector<double> sums;
    for (const auto& [k, v] : entries) {
      if (!keys.empty() && keys.back() == k) {
        sums.back() += v;
      } else {
        keys.push_back(k);
        sums.push_back(v);
      }
    }
    benchmark::DoNotOptimize(keys.data());
    benchmark::DoNotOptimize(sums.data());
  }
}

void assemble_strata(benchmark::State& state) {
  bench::set_threads(state);
  const Coo& c = coo();
  for (auto _ : state) {
    const auto K = strata::sparse_from_coo({n, n}, {c.rows, c.cols}, c.values);
    benchmark::DoNotOptimize(K);
  }
}

// Scaling of assembly with the number of contributions, 10^4 to 10^7 (issue: the time per
// contribution must grow as n log n, not jump between sizes). One thread; random coordinates
// in a 10^6 x 10^6 matrix; the counter is the time per contribution (seconds, SI-prefixed).
void assemble_scaling(benchmark::State& state) {
  bench::one_thread();
  const auto count = static_cast<std::size_t>(state.range(0));
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<index_t> index(0, n - 1);
  std::vector<int> rows(count);  // int coordinates: converted once, as any integer list
  std::vector<index_t> cols(count);
  std::vector<double> values(count, 1.0);
  for (std::size_t e = 0; e < count; ++e) {
    rows[e] = static_cast<int>(index(rng));
    cols[e] = index(rng);
  }
  for (auto _ : state) {
    const auto K = strata::sparse_from_coo({n, n}, {rows, cols}, values);
    benchmark::DoNotOptimize(K);
  }
  state.counters["time_per_contribution"] =
      benchmark::Counter(static_cast<double>(count) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void assemble_eigen(benchmark::State& state) {
  bench::one_thread();
  const Coo& c = coo();
  std::vector<Eigen::Triplet<double, std::int64_t>> triplets;
  for (std::size_t e = 0; e < contributions; ++e) {
    triplets.emplace_back(c.rows[e], c.cols[e], c.values[e]);
  }
  for (auto _ : state) {
    EigenCsr A(n, n);
    A.setFromTriplets(triplets.begin(), triplets.end());
    benchmark::DoNotOptimize(A.valuePtr());
  }
}

void assemble_map(benchmark::State& state) {
  const Coo& c = coo();
  for (auto _ : state) {
    std::map<std::pair<index_t, index_t>, double> m;
    for (std::size_t e = 0; e < contributions; ++e) {
      m[{c.rows[e], c.cols[e]}] += c.values[e];
    }
    benchmark::DoNotOptimize(m.size());
  }
}

// The finite-element spelling: one `K(i, j) += v` per contribution (amortised inserts).
void assemble_increments(benchmark::State& state) {
  const Coo& c = coo();
  for (auto _ : state) {
    auto K = strata::sparse<double>({n, n});
    for (std::size_t e = 0; e < contributions; ++e) {
      K(c.rows[e], c.cols[e]) += c.values[e];
    }
    benchmark::DoNotOptimize(strata::sparse_buffer(K)->nnz());
  }
}

// ---- sums along each axis ----------------------------------------------------------------------

void row_sums_hand(benchmark::State& state) {
  const auto a = strata::csr(matrix());
  std::vector<double> out(static_cast<std::size_t>(n));
  for (auto _ : state) {
    for (index_t i = 0; i < n; ++i) {
      double s = 0.0;
      for (index_t k = a.offsets[static_cast<std::size_t>(i)];
           k < a.offsets[static_cast<std::size_t>(i + 1)]; ++k) {
        s += a.values[static_cast<std::size_t>(k)];
      }
      out[static_cast<std::size_t>(i)] = s;
    }
    benchmark::DoNotOptimize(out.data());
  }
}

void row_sums_strata(benchmark::State& state) {
  bench::one_thread();
  for (auto _ : state) {
    const Tensor<double> s = strata::sum(matrix(), 1);
    benchmark::DoNotOptimize(s);
  }
}

void col_sums_hand(benchmark::State& state) {
  const auto a = strata::csr(matrix());
  std::vector<double> out(static_cast<std::size_t>(n));
  for (auto _ : state) {
    std::fill(out.begin(), out.end(), 0.0);
    for (std::size_t k = 0; k < a.indices.size(); ++k) {
      out[static_cast<std::size_t>(a.indices[k])] += a.values[k];
    }
    benchmark::DoNotOptimize(out.data());
  }
}

void col_sums_strata(benchmark::State& state) {
  bench::one_thread();
  for (auto _ : state) {
    const Tensor<double> s = strata::sum(matrix(), 0);
    benchmark::DoNotOptimize(s);
  }
}

// ---- sparse matrix times dense vector ----------------------------------------------------------

const Tensor<double>& vector_x() {
  static const Tensor<double> x = [] {
    Tensor<double> v({n});
    for (index_t i = 0; i < n; ++i) {
      v(i) = 1.0 + static_cast<double>(i % 7);
    }
    return v;
  }();
  return x;
}

void spmv_hand(benchmark::State& state) {
  const auto a = strata::csr(matrix());
  const double* x = vector_x().data();
  std::vector<double> y(static_cast<std::size_t>(n));
  for (auto _ : state) {
    for (index_t i = 0; i < n; ++i) {
      double s = 0.0;
      for (index_t k = a.offsets[static_cast<std::size_t>(i)];
           k < a.offsets[static_cast<std::size_t>(i + 1)]; ++k) {
        s += a.values[static_cast<std::size_t>(k)] * x[a.indices[static_cast<std::size_t>(k)]];
      }
      y[static_cast<std::size_t>(i)] = s;
    }
    benchmark::DoNotOptimize(y.data());
  }
}

void spmv_eigen(benchmark::State& state) {
  bench::one_thread();
  const EigenCsr& A = eigen_matrix();
  const Eigen::Map<const Eigen::VectorXd> x(vector_x().data(), n);
  Eigen::VectorXd y(n);
  for (auto _ : state) {
    y.noalias() = A * x;
    benchmark::DoNotOptimize(y.data());
  }
}

void spmv_strata(benchmark::State& state) {
  bench::one_thread();
  const Tensor<double>& K = matrix();
  const Tensor<double>& x = vector_x();
  for (auto _ : state) {
    const Tensor<double> y = strata::sum(K * x, 1);
    benchmark::DoNotOptimize(y);
  }
}

// ---- listing the stored entries ----------------------------------------------------------------

void stored_for_each(benchmark::State& state) {
  const auto* s = strata::sparse_buffer(matrix());
  for (auto _ : state) {
    double total = 0.0;
    s->for_each_stored([&](index_t a, double v) { total += v + static_cast<double>(a); });
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * s->nnz());
}

void stored_nonzeros(benchmark::State& state) {
  bench::one_thread();
  for (auto _ : state) {
    double total = 0.0;
    for (const auto& [i, v] : strata::nonzeros(matrix())) {
      total += v + static_cast<double>(i[0] + i[1]);
    }
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * strata::sparse_buffer(matrix())->nnz());
}

// The same range read through its spans (row-major linear index and value, no Index made).
void stored_nonzeros_spans(benchmark::State& state) {
  bench::one_thread();
  for (auto _ : state) {
    double total = 0.0;
    const auto nz = strata::nonzeros(matrix());
    const auto linear = nz.linear();
    const auto values = nz.values();
    for (std::size_t e = 0; e < values.size(); ++e) {
      total += values[e] + static_cast<double>(linear[e]);
    }
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * strata::sparse_buffer(matrix())->nnz());
}

void stored_for_each_nonzero(benchmark::State& state) {
  bench::one_thread();
  for (auto _ : state) {
    double total = 0.0;
    strata::for_each_nonzero(matrix(), [&](strata::IndexSpan i, double v) {
      total += v + static_cast<double>(i[0] + i[1]);
    });
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * strata::sparse_buffer(matrix())->nnz());
}

}  // namespace

BENCHMARK(assemble_hand)
    ->Name("assemble/hand")
    ->Arg(1)
    ->ArgName("threads")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(assemble_strata)->Name("assemble/strata")->Apply(bench::thread_args);
BENCHMARK(assemble_eigen)->Name("assemble/eigen")->Unit(benchmark::kMillisecond);
BENCHMARK(assemble_scaling)
    ->Name("assemble_scaling/strata")
    ->ArgName("contributions")
    ->RangeMultiplier(2)
    ->Range(10'000, 10'000'000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(assemble_map)->Name("assemble/std_map")->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(assemble_increments)
    ->Name("assemble/strata_increments")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);
BENCHMARK(row_sums_hand)->Name("row_sums/hand_csr")->Unit(benchmark::kMillisecond);
BENCHMARK(row_sums_strata)->Name("row_sums/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(col_sums_hand)->Name("col_sums/hand_csr")->Unit(benchmark::kMillisecond);
BENCHMARK(col_sums_strata)->Name("col_sums/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(spmv_hand)->Name("spmv/hand_csr")->Unit(benchmark::kMillisecond);
BENCHMARK(spmv_eigen)->Name("spmv/eigen")->Unit(benchmark::kMillisecond);
BENCHMARK(spmv_strata)->Name("spmv/strata")->Unit(benchmark::kMillisecond);
BENCHMARK(stored_for_each)->Name("stored/for_each_stored")->Unit(benchmark::kMillisecond);
BENCHMARK(stored_nonzeros)->Name("stored/nonzeros")->Unit(benchmark::kMillisecond);
BENCHMARK(stored_nonzeros_spans)->Name("stored/nonzeros_spans")->Unit(benchmark::kMillisecond);
BENCHMARK(stored_for_each_nonzero)->Name("stored/for_each_nonzero")->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
