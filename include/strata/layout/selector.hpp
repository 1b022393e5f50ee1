/// @file
/// Per-axis selectors for Dimensions::select: an integer, all, a NumPy slice, or an index array.
#pragma once

#include "strata/core/index.hpp"

#include <algorithm>
#include <concepts>
#include <optional>
#include <variant>
#include <vector>

namespace strata {

namespace detail {
/// NumPy's `np.all`, behind All::operator() (defined in strata/expr/reduce.hpp).
template <class... A>
auto all_reduction(const A&... args);
}  // namespace detail

/// Selects a whole axis (NumPy's `:`).
struct All {
  /// `strata::all` is also NumPy's `np.all`: whether every element (along axes) is non-zero.
  /// `all(x)`, `all(x, axes, keepdims)`, `all(policy, x, ...)` take tensors, selections and
  /// expressions (`strata::all(a > 0, 1)`), as strata::any does (strata/expr/reduce.hpp).
  /// @param args the operand, then optionally axes and keepdims (a policy first if wanted)
  /// @return a bool, or a bool tensor along axes
  template <class... A>
  auto operator()(const A&... args) const {
    return detail::all_reduction(args...);
  }
};

/// The selector that keeps a whole axis: `d.select({1, strata::all})`; called, it is NumPy's
/// `np.all` (see All::operator()).
inline constexpr All all{};

/// A NumPy slice `start:stop:step`: omitted bounds, negative bounds and any non-zero step.
///
/// @code
/// strata::Range{1, 5}          // 1:5
/// strata::Range{{}, {}, -1}    // ::-1
/// strata::Range{-3}            // -3:
/// @endcode
struct Range {
  /// The whole axis, `:`.
  Range() = default;
  /// `start:stop:step`; `{}` omits a bound.
  /// @param first the first index (`start`)
  /// @param last the bound not included (`stop`)
  /// @param increment the step, non-zero (checked by Dimensions::select)
  // NOLINTNEXTLINE(google-explicit-constructor)
  Range(std::optional<index_t> first, std::optional<index_t> last = {}, index_t increment = 1)
      : start(first), stop(last), step(increment) {}

  std::optional<index_t> start;  ///< first index; omitted: the start in the step's direction
  std::optional<index_t> stop;   ///< bound not included; omitted: past the end in that direction
  index_t step = 1;              ///< non-zero; negative walks backwards
};

/// One axis's selector: an integer (drops the axis; negative counts from the end), `all`, a
/// Range, or an index array (the axis reads through it, like `numpy.take` along that axis).
class Selector {
 public:
  /// The value a selector holds.
  using Value = std::variant<index_t, All, Range, std::vector<index_t>>;

  /// Selects one index and drops the axis.
  /// @param index the index; negative counts from the end
  template <std::integral I>
  // NOLINTNEXTLINE(google-explicit-constructor)
  Selector(I index) : value_(static_cast<index_t>(index)) {}
  /// Keeps the whole axis.
  // NOLINTNEXTLINE(google-explicit-constructor)
  Selector(All /*unused*/) : value_(All{}) {}
  /// Keeps a slice of the axis.
  /// @param range the slice
  // NOLINTNEXTLINE(google-explicit-constructor)
  Selector(Range range) : value_(range) {}
  /// Reads the axis through an index array (entries in [0, extent)).
  /// @param indices the entries
  // NOLINTNEXTLINE(google-explicit-constructor)
  Selector(std::vector<index_t> indices) : value_(std::move(indices)) {}

  /// The held selector.
  /// @return the variant
  [[nodiscard]] const Value& value() const noexcept { return value_; }

 private:
  Value value_;
};

namespace detail {

/// One axis of a basic selection, normalised as Python's slice.indices / integer indexing:
/// `count` positions start, start + step, ...; `drop` for an integer (count 1).
struct AxisCut {
  index_t start = 0;
  index_t step = 1;
  index_t count = 0;
  bool drop = false;
};

/// The cut a selector makes along an axis of extent @p n (the selector was validated);
/// false for an index array, which is not a basic cut.
inline bool axis_cut(const Selector& selector, index_t n, AxisCut& cut) {
  const auto& v = selector.value();
  if (const auto* i = std::get_if<index_t>(&v)) {
    cut = {*i < 0 ? *i + n : *i, 1, 1, true};
    return true;
  }
  if (std::holds_alternative<All>(v)) {
    cut = {0, 1, n, false};
    return true;
  }
  const auto* r = std::get_if<Range>(&v);
  if (r == nullptr) {
    return false;
  }
  const index_t step = r->step;
  const index_t lower = step > 0 ? 0 : -1;
  const index_t upper = step > 0 ? n : n - 1;
  const auto clamp = [&](std::optional<index_t> x, index_t fallback) {
    if (!x) {
      return fallback;
    }
    return *x < 0 ? std::max(*x + n, lower) : std::min(*x, upper);
  };
  const index_t start = clamp(r->start, step > 0 ? lower : upper);
  const index_t stop = clamp(r->stop, step > 0 ? upper : lower);
  // Divided by step itself, never by -step (a step may be INT64_MIN).
  index_t count = 0;
  if (step > 0 && stop > start) {
    count = (stop - start - 1) / step + 1;
  } else if (step < 0 && stop < start) {
    count = -((start - stop - 1) / step) + 1;
  }
  cut = {start, step, count, false};
  return true;
}

}  // namespace detail

}  // namespace strata
