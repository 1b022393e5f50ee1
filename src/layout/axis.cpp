// Index arrays: extrema and the lazily built inverse table.
#include "strata/layout/axis.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>

namespace strata {

IndexArray::IndexArray(std::vector<index_t> values) : values_(std::move(values)) {
  if (!values_.empty()) {
    const auto [lo, hi] = std::minmax_element(values_.begin(), values_.end());
    min_ = *lo;
    max_ = *hi;
  }
  // The smallest gap between distinct values (0 for a repeat): a bitmap over [min, max] when
  // that range is small, a sorted copy otherwise.
  const auto n = values_.size();
  const auto span = static_cast<std::uint64_t>(max_) - static_cast<std::uint64_t>(min_);
  min_gap_ = static_cast<index_t>(std::min<std::uint64_t>(span, INT64_MAX - 1)) + 1;
  if (n < 2) {
    return;
  }
  if (span < 8 * static_cast<std::uint64_t>(n)) {
    std::vector<bool> seen(static_cast<std::size_t>(span) + 1, false);
    for (const index_t v : values_) {
      const auto at = static_cast<std::size_t>(v - min_);
      if (seen[at]) {
        min_gap_ = 0;
        return;
      }
      seen[at] = true;
    }
    index_t previous = -1;
    for (std::size_t at = 0; at < seen.size(); ++at) {
      if (seen[at]) {
        if (previous >= 0) {
          min_gap_ = std::min(min_gap_, static_cast<index_t>(at) - previous);
        }
        previous = static_cast<index_t>(at);
      }
    }
    return;
  }
  std::vector<index_t> sorted = values_;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 1; i < n; ++i) {
    // Unsigned: values at both ends of int64 are more than INT64_MAX apart.
    const auto gap =
        static_cast<std::uint64_t>(sorted[i]) - static_cast<std::uint64_t>(sorted[i - 1]);
    min_gap_ =
        static_cast<index_t>(std::min<std::uint64_t>(static_cast<std::uint64_t>(min_gap_), gap));
  }
}

std::pair<std::span<const index_t>, std::span<const index_t>> IndexArray::entries_between(
    index_t lo, index_t hi) const {
  std::call_once(inverse_built_, [this] {
    std::vector<index_t> order(values_.size());
    std::iota(order.begin(), order.end(), index_t{0});
    std::stable_sort(order.begin(), order.end(), [this](index_t a, index_t b) {
      return values_[static_cast<std::size_t>(a)] < values_[static_cast<std::size_t>(b)];
    });
    sorted_values_.reserve(order.size());
    for (const index_t entry : order) {
      sorted_values_.push_back(values_[static_cast<std::size_t>(entry)]);
    }
    sorted_entries_ = std::move(order);
  });
  const auto first = std::lower_bound(sorted_values_.begin(), sorted_values_.end(), lo);
  const auto last = std::upper_bound(first, sorted_values_.end(), hi);
  const auto begin = static_cast<std::size_t>(first - sorted_values_.begin());
  const auto count = static_cast<std::size_t>(last - first);
  return {std::span<const index_t>(sorted_values_).subspan(begin, count),
          std::span<const index_t>(sorted_entries_).subspan(begin, count)};
}

std::optional<Axis> coalesce(const Axis& outer, const Axis& inner) {
  if (outer.indices || !inner.is_plain()) {
    return std::nullopt;
  }
  index_t step = 0;
  if (__builtin_mul_overflow(inner.extent, inner.stride, &step) || outer.stride != step) {
    return std::nullopt;
  }
  Axis out{outer.extent * inner.extent, inner.stride, 0, 0, nullptr};
  if (__builtin_mul_overflow(outer.cycle, inner.extent, &out.cycle) ||
      __builtin_mul_overflow(outer.rotation, inner.extent, &out.rotation)) {
    return std::nullopt;
  }
  return out;
}

}  // namespace strata
