/// Per-axis selectors for Dimensions::select: an integer, all, a NumPy slice, or an index array.
#pragma once

#include "strata/core/index.hpp"

#include <concepts>
#include <optional>
#include <variant>
#include <vector>

namespace strata {

/// Selects a whole axis (NumPy's `:`).
struct All {};

/// The selector that keeps a whole axis: `d.select({1, strata::all})`.
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

}  // namespace strata
