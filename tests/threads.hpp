// Test helpers for parallel code: run at a given OpenMP thread count, and a user buffer that
// records which threads touched it (strata must use such buffers from one thread only).
#pragma once

#include "strata/core/index.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#if defined(STRATA_USE_OPENMP)
#include <omp.h>
#endif

namespace strata::test {

/// The thread counts parallel tests run at.
inline const std::vector<int> thread_counts{1, 2, 4};

/// Runs `f()` with OpenMP using @p threads threads (restoring the previous count).
template <class F>
void with_threads(int threads, F&& f) {
#if defined(STRATA_USE_OPENMP)
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  try {
    f();
  } catch (...) {
    omp_set_num_threads(before);
    throw;
  }
  omp_set_num_threads(before);
#else
  (void)threads;
  f();
#endif
}

/// A writable user buffer without data() that records the threads that read or wrote it.
/// It is not thread-safe (a std::vector), as user buffers need not be.
template <class T>
struct ThreadRecordingBuffer {
  using value_type = T;
  struct State {
    std::vector<T> values;
    std::mutex mutex;
    std::set<std::thread::id> threads;
    std::atomic<std::thread::id> last{};  ///< the thread last recorded (already in `threads`)
  };
  std::shared_ptr<State> state;

  explicit ThreadRecordingBuffer(std::vector<T> values) : state(std::make_shared<State>()) {
    state->values = std::move(values);
  }
  [[nodiscard]] index_t size() const { return static_cast<index_t>(state->values.size()); }
  [[nodiscard]] T read(index_t i) const {
    touch();
    return state->values[static_cast<std::size_t>(i)];
  }
  void write(index_t i, const T& v) {
    touch();
    state->values[static_cast<std::size_t>(i)] = v;
  }
  /// How many distinct threads used the buffer.
  [[nodiscard]] std::size_t thread_count() const {
    const std::lock_guard<std::mutex> lock(state->mutex);
    return state->threads.size();
  }
  /// Records the calling thread. The set is locked only when the caller is not the thread last
  /// recorded: a thread's id is stored in `last` only after it is in the set, so a thread seen
  /// there is counted already (this keeps the sanitizer builds' tests of large loops fast).
  void touch() const {
    const std::thread::id self = std::this_thread::get_id();
    if (state->last.load(std::memory_order_acquire) == self) {
      return;
    }
    const std::lock_guard<std::mutex> lock(state->mutex);
    state->threads.insert(self);
    state->last.store(self, std::memory_order_release);
  }
};

}  // namespace strata::test
