// Thread-count arguments shared by the OpenMP scaling benchmarks: 1, 2, then powers of two up
// to the machine's processors; set_threads applies a run's count.
#pragma once

#include <benchmark/benchmark.h>

#if defined(STRATA_USE_OPENMP)
#include <omp.h>
#endif

namespace bench {

/// Registers the thread counts 1, 2, 4, ... (up to the processors) as the "threads" argument.
inline void thread_args(benchmark::internal::Benchmark* b) {
  b->ArgName("threads")->Arg(1)->Arg(2);
#if defined(STRATA_USE_OPENMP)
  for (int t = 4; t <= omp_get_num_procs(); t *= 2) {
    b->Arg(t);
  }
#endif
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

/// Uses the run's "threads" argument as OpenMP's thread count.
inline void set_threads(const benchmark::State& state) {
#if defined(STRATA_USE_OPENMP)
  omp_set_num_threads(static_cast<int>(state.range(0)));
#else
  (void)state;
#endif
}

/// Runs strata's loops on one thread, for the benchmarks that compare with one-thread peers.
inline void one_thread() {
#if defined(STRATA_USE_OPENMP)
  omp_set_num_threads(1);
#endif
}

}  // namespace bench
