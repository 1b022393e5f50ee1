/// @file
/// strata::parallel::for_each: calls a function on every element of a random-access range
/// (such as a shape's indices()), split across OpenMP threads.
#pragma once

#include "strata/core/index.hpp"
#include "strata/parallel/policy.hpp"

#include <iterator>
#include <ranges>

namespace strata::parallel {

/// Calls @p f on every element of @p range; with `par`, contiguous parts of the range run on
/// different threads (each part starts with one random-access jump, then steps with `++`).
///
/// @code
/// strata::Jagged rows = strata::Jagged::from_lengths({3, 0, 2});
/// strata::parallel::for_each(strata::par, rows.indices(),
///                            [&](const strata::Index& i) { ... });  // [0 0] [0 1] ... [2 1]
/// @endcode
/// @param policy seq or par (par splits ranges of at least `grain` elements)
/// @param range a random-access range
/// @param f called once per element, possibly concurrently
template <ExecutionPolicy P, std::ranges::random_access_range R, class F>
void for_each(const P& policy, R&& range, F&& f) {
  const auto first = std::ranges::begin(range);
  const auto n = static_cast<index_t>(std::ranges::distance(range));
  for_each_part(policy, n, [&](index_t lo, index_t hi) {
    auto it = first + static_cast<std::iter_difference_t<decltype(first)>>(lo);
    for (index_t k = lo; k < hi; ++k, ++it) {
      f(*it);
    }
  });
}

}  // namespace strata::parallel
