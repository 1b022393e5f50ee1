/// @file
/// Execution policies and deterministic chunked loops over linear index ranges (OpenMP).
#pragma once

#include "strata/core/index.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <mutex>
#include <span>
#include <type_traits>
#include <vector>

#if defined(STRATA_USE_OPENMP)
#include <omp.h>
#endif

namespace strata {

/// Run on the calling thread.
struct Sequential {};

/// Run on OpenMP threads when the work has at least `grain` elements (serially otherwise).
///
/// A grain below 1 is taken as 1 (split whenever there is more than one element). `threads`
/// caps the threads of one loop (0: OpenMP's `omp_get_max_threads()`); distributed tensors use
/// it to keep their copies to their rank's share of the node's cores.
struct Parallel {
  index_t grain = index_t{1} << 16;  ///< the smallest range worth splitting; also the chunk size
  int threads = 0;                   ///< the most threads a loop uses (0: omp_get_max_threads())
};

/// The sequential policy.
inline constexpr Sequential seq{};
/// The parallel policy with the default grain.
inline constexpr Parallel par{};

/// A policy type: Sequential or Parallel.
template <class P>
concept ExecutionPolicy = std::is_same_v<std::remove_cvref_t<P>, Sequential> ||
    std::is_same_v<std::remove_cvref_t<P>, Parallel>;

namespace detail {

/// The grain of a policy, at least 1 (Sequential has no grain: it never splits).
template <class P>
constexpr index_t grain_of(const P& policy) noexcept {
  (void)policy;
  if constexpr (std::is_same_v<std::remove_cvref_t<P>, Parallel>) {
    return std::max<index_t>(policy.grain, 1);
  } else {
    return std::numeric_limits<index_t>::max();
  }
}

/// The threads a loop under @p policy may use: Sequential 1, Parallel its `threads` when set,
/// else the OpenMP runtime's maximum.
template <class P>
int threads_of(const P& policy) noexcept {
  (void)policy;
  if constexpr (std::is_same_v<std::remove_cvref_t<P>, Parallel>) {
    if (policy.threads > 0) {
      return policy.threads;
    }
#if defined(STRATA_USE_OPENMP)
    return omp_get_max_threads();
#else
    return 1;
#endif
  } else {
    return 1;
  }
}

/// Carries an exception out of a parallel loop: each iteration runs through run(), which
/// catches what it throws; once one has thrown, iterations not yet started are skipped; after
/// the loop, rethrow() raises the exception of the lowest-numbered iteration that threw (the
/// first one in sequential order among those that ran). An exception must never cross an
/// OpenMP region's boundary (that is std::terminate), so every parallel loop in strata uses
/// one of these.
class FirstError {
 public:
  /// Runs `f()` as iteration @p iteration, unless an earlier-finished iteration threw.
  template <class F>
  void run(index_t iteration, F&& f) noexcept {
    if (failed_.load(std::memory_order_relaxed)) {
      return;
    }
    try {
      f();
    } catch (...) {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!error_ || iteration < iteration_) {
        error_ = std::current_exception();
        iteration_ = iteration;
      }
      failed_.store(true, std::memory_order_relaxed);
    }
  }
  /// Rethrows the recorded exception, if any.
  void rethrow() const {
    if (error_) {
      std::rethrow_exception(error_);
    }
  }

 private:
  std::atomic<bool> failed_{false};
  std::mutex mutex_;
  std::exception_ptr error_;
  index_t iteration_ = 0;
};

}  // namespace detail

/// OpenMP loops with a deterministic split: parts (for_each_part), fixed chunks reduced in
/// order (reduce_chunks), and parts of about equal weight (for_each_weighted_part). Design page:
/// @ref iteration_page.
namespace parallel {

/// The number of threads a parallel loop may use (1 without OpenMP).
/// @return omp_get_max_threads(), or 1
inline int max_threads() noexcept {
#if defined(STRATA_USE_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

/// Splits [0, n) into fixed chunks of `chunk` elements (the last one smaller) and calls
/// `f(begin, end)` once per chunk; under Parallel, chunks run on OpenMP threads.
///
/// The chunks do not depend on the thread count, so work that is a pure function of its chunk
/// gives the same results however many threads run it.
/// @param policy seq or par
/// @param n the range length
/// @param chunk the chunk length, >= 1
/// @param f called as `f(index_t begin, index_t end)`
template <ExecutionPolicy P, class F>
void for_each_chunk(const P& policy, index_t n, index_t chunk, F&& f) {
  if (n <= 0) {
    return;
  }
  chunk = std::max<index_t>(chunk, 1);
  const index_t chunks = n / chunk + (n % chunk != 0 ? 1 : 0);
  const int threads = detail::threads_of(policy);
  const bool run_parallel = chunks > 1 && n >= detail::grain_of(policy) && threads > 1;
  if (!run_parallel) {
    for (index_t c = 0; c < chunks; ++c) {
      f(c * chunk, c < chunks - 1 ? (c + 1) * chunk : n);
    }
    return;
  }
  detail::FirstError error;
#if defined(STRATA_USE_OPENMP)
#pragma omp parallel for schedule(static) num_threads(threads)
#endif
  for (index_t c = 0; c < chunks; ++c) {
    error.run(c, [&] { f(c * chunk, c < chunks - 1 ? (c + 1) * chunk : n); });
  }
  error.rethrow();
}

/// Calls `f(begin, end)` on contiguous parts of [0, n), one per thread under Parallel (when n is
/// at least the grain), or once for the whole range. For work whose result does not depend on
/// how the range is split (copies, element-wise maps). An exception thrown by @p f reaches the
/// caller after the parallel region (parts not yet started are skipped).
/// @param policy seq or par
/// @param n the range length
/// @param f called as `f(index_t begin, index_t end)`
template <ExecutionPolicy P, class F>
void for_each_part(const P& policy, index_t n, F&& f) {
  if (n <= 0) {
    return;
  }
  index_t parts = 1;
  if (const index_t grain = detail::grain_of(policy); n >= grain) {
    parts = std::min<index_t>(detail::threads_of(policy), n / grain + (n % grain != 0 ? 1 : 0));
  }
  if (parts <= 1) {
    f(index_t{0}, n);
    return;
  }
  // Part boundaries n * part / parts without overflowing for n near INT64_MAX.
  const auto boundary = [n, parts](index_t part) {
    return (n / parts) * part + (n % parts) * part / parts;
  };
  detail::FirstError error;
#if defined(STRATA_USE_OPENMP)
#pragma omp parallel for schedule(static, 1) num_threads(static_cast <int>(parts))
#endif
  for (index_t part = 0; part < parts; ++part) {
    error.run(part, [&] { f(boundary(part), boundary(part + 1)); });
  }
  error.rethrow();
}

/// Reduces [0, n) deterministically: each fixed chunk is reduced by `chunk_result(begin, end)`,
/// and the chunk results are combined in chunk order, so the bits do not depend on the
/// thread count.
/// @param policy seq or par
/// @param n the range length
/// @param chunk the chunk length, >= 1
/// @param init the identity of @p combine
/// @param chunk_result `R(index_t begin, index_t end)`
/// @param combine `R(R, R)`
/// @return the combined result (`init` for an empty range)
template <ExecutionPolicy P, class R, class ChunkResult, class Combine>
R reduce_chunks(const P& policy, index_t n, index_t chunk, R init, ChunkResult&& chunk_result,
                Combine&& combine) {
  if (n <= 0) {
    return init;
  }
  chunk = std::max<index_t>(chunk, 1);
  const index_t chunks = (n + chunk - 1) / chunk;
  std::vector<R> partial(static_cast<std::size_t>(chunks), init);
  for_each_chunk(policy, n, chunk, [&](index_t begin, index_t end) {
    partial[static_cast<std::size_t>(begin / chunk)] = chunk_result(begin, end);
  });
  R result = init;
  for (const R& r : partial) {
    result = combine(result, r);
  }
  return result;
}

}  // namespace parallel
}  // namespace strata

namespace strata::parallel {

/// Splits pieces of different sizes into parts of about equal total size and calls
/// `f(first_piece, last_piece)` once per part (in parallel with `par`); each piece goes to
/// exactly one part. Pieces are given by their prefix sums, as the offsets of a ragged array.
///
/// With `par` there are up to 4 parts per thread, handed out dynamically: parts equal in
/// elements can still differ in time (per-piece overhead, a busy core), and the spare parts
/// even that out. Which part runs on which thread does not matter: parts are independent.
///
/// @code
/// std::vector<strata::index_t> starts{0, 3, 3, 10};   // pieces of 3, 0 and 7 elements
/// strata::parallel::for_each_weighted_part(strata::par, starts, [](auto lo, auto hi) {...});
/// @endcode
/// @param policy seq or par (par splits when the total size is at least `grain`)
/// @param starts n + 1 ascending prefix sums of the n piece sizes
/// @param f called with [first, last) ranges of pieces, possibly concurrently; the first
///        exception it throws reaches the caller after the parallel region
template <ExecutionPolicy P, class F>
void for_each_weighted_part(const P& policy, std::span<const index_t> starts, F&& f) {
  if (starts.size() < 2) {
    return;
  }
  const auto pieces = static_cast<index_t>(starts.size()) - 1;
  const index_t total = starts.back() - starts.front();
  index_t parts = 1;
  if (const index_t grain = detail::grain_of(policy); total >= grain) {
    parts = std::min<index_t>({4 * static_cast<index_t>(detail::threads_of(policy)),
                               total / grain + (total % grain != 0 ? 1 : 0), pieces});
  }
  if (parts <= 1) {
    f(index_t{0}, pieces);
    return;
  }
  // Part k takes the pieces whose first element falls in its share [total*k/parts, ...).
  const auto first_piece = [&](index_t part) {
    if (part == parts) {
      return pieces;
    }
    const index_t target = starts.front() + (total / parts) * part + (total % parts) * part / parts;
    return static_cast<index_t>(std::lower_bound(starts.begin(), starts.end() - 1, target) -
                                starts.begin());
  };
  detail::FirstError error;
#if defined(STRATA_USE_OPENMP)
  const auto threads = static_cast<int>(std::min<index_t>(parts, detail::threads_of(policy)));
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
#endif
  for (index_t part = 0; part < parts; ++part) {
    error.run(part, [&] {
      const index_t lo = first_piece(part);
      const index_t hi = first_piece(part + 1);
      if (lo < hi) {
        f(lo, hi);
      }
    });
  }
  error.rethrow();
}

}  // namespace strata::parallel
