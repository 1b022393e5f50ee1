/// @file
/// One axis of a Dimensions: how a global index along it becomes part of a buffer address.
#pragma once

#include "strata/core/index.hpp"

#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

namespace strata {

/// The positions an index-array axis reads through, shared (immutable) between views.
///
/// Besides the values it keeps their minimum and maximum, and builds on first use an inverse
/// table (value -> positions) for Dimensions::local_to_global. Safe to share between threads.
class IndexArray {
 public:
  /// Takes ownership of the positions.
  /// @param values the positions along the underlying axis, one per entry
  explicit IndexArray(std::vector<index_t> values);

  /// The positions.
  /// @return a span over all entries
  [[nodiscard]] std::span<const index_t> values() const noexcept { return values_; }
  /// The number of entries.
  /// @return the length of the array
  [[nodiscard]] index_t size() const noexcept { return static_cast<index_t>(values_.size()); }
  /// Entry @p i (unchecked).
  /// @param i an entry in [0, size())
  /// @return the position stored there
  [[nodiscard]] index_t operator[](index_t i) const noexcept {
    return values_[static_cast<std::size_t>(i)];
  }
  /// The smallest entry (0 for an empty array).
  /// @return the minimum
  [[nodiscard]] index_t min() const noexcept { return min_; }
  /// The largest entry (0 for an empty array).
  /// @return the maximum
  [[nodiscard]] index_t max() const noexcept { return max_; }
  /// The smallest distance between two entries' values: 0 when some value repeats (then two
  /// positions read one address), the array's span + 1 when it has fewer than two entries.
  /// @return the gap
  [[nodiscard]] index_t min_gap() const noexcept { return min_gap_; }

  /// The entries whose value lies in [lo, hi], in increasing order of value.
  ///
  /// Builds the inverse table on the first call: O(n log n) once, then O(log n + k).
  /// @param lo, hi the inclusive range of values
  /// @return pairs of spans: (values, entries), index-aligned
  [[nodiscard]] std::pair<std::span<const index_t>, std::span<const index_t>> entries_between(
      index_t lo, index_t hi) const;

  /// Equality of the entries.
  /// @param a, b index arrays
  /// @return true when both hold the same entries in the same order
  friend bool operator==(const IndexArray& a, const IndexArray& b) noexcept {
    return a.values_ == b.values_;
  }

 private:
  std::vector<index_t> values_;
  index_t min_ = 0;
  index_t max_ = 0;
  index_t min_gap_ = 1;
  mutable std::once_flag inverse_built_;
  mutable std::vector<index_t> sorted_values_;
  mutable std::vector<index_t> sorted_entries_;
};

/// One axis of a Dimensions.
///
/// A global index `g` in `[0, extent)` first becomes a *position* `p` in `[0, cycle)`:
/// `p = (g + rotation) mod cycle`. The position then reads the axis's *value*: `p` itself for a
/// direct axis, `indices[p]` for an index-array axis. The axis adds `value * stride` to the
/// address. An axis whose `cycle` equals its `extent` and whose `rotation` is 0 is plain strided
/// (no modulus); rotations (`numpy.roll`) and tiling broadcasts (an extent that is a multiple of
/// the cycle) make it *cyclic*.
///
/// In the terms of shape / max-shape / offset descriptions: `cycle` is the shape entry,
/// `extent` the max-shape entry, `rotation` the offset entry.
struct Axis {
  index_t extent = 1;    ///< the global extent: what Dimensions::shape() reports
  index_t stride = 1;    ///< buffer elements between consecutive values (any sign, or 0)
  index_t cycle = 1;     ///< the number of positions the axis cycles through
  index_t rotation = 0;  ///< the position of global index 0, in [0, cycle)
  std::shared_ptr<const IndexArray> indices;  ///< the values of positions; null: direct axis

  /// Whether positions read through an index array.
  /// @return true for an index-array axis
  [[nodiscard]] bool is_indexed() const noexcept { return indices != nullptr; }
  /// Whether global indices wrap around (rotation or tiling).
  /// @return true when the position needs a modulus
  [[nodiscard]] bool is_cyclic() const noexcept { return rotation != 0 || cycle != extent; }
  /// Whether the axis is direct and not cyclic: `value = g`, one multiply-add.
  /// @return true for a plain strided axis
  [[nodiscard]] bool is_plain() const noexcept { return !is_indexed() && !is_cyclic(); }
  /// The position of global index @p g (unchecked).
  /// @param g a global index in [0, extent)
  /// @return the position in [0, cycle)
  [[nodiscard]] index_t position(index_t g) const noexcept {
    return is_cyclic() ? (g + rotation) % cycle : g;
  }
  /// The value read at position @p p (unchecked).
  /// @param p a position in [0, cycle)
  /// @return `p`, or the index array's entry at `p`
  [[nodiscard]] index_t value(index_t p) const noexcept { return indices ? (*indices)[p] : p; }
  /// What global index @p g adds to the address (unchecked).
  /// @param g a global index in [0, extent)
  /// @return `value(position(g)) * stride`
  [[nodiscard]] index_t contribution(index_t g) const noexcept {
    return value(position(g)) * stride;
  }

  /// Structural equality (index arrays compared by content).
  /// @param a, b axes
  /// @return true when every field is equal
  friend bool operator==(const Axis& a, const Axis& b) noexcept {
    const bool same_indices =
        a.indices == b.indices || (a.indices && b.indices && *a.indices == *b.indices);
    return a.extent == b.extent && a.stride == b.stride && a.cycle == b.cycle &&
           a.rotation == b.rotation && same_indices;
  }
};

/// Coalesces two adjacent axes into one that walks both in the same row-major order.
///
/// Possible when `inner` is plain (direct, not cyclic) and `outer` is direct with
/// `outer.stride == inner.extent * inner.stride`; a cyclic outer axis stays cyclic over the
/// merged range (its cycle and rotation scale by `inner.extent`). This is the step that
/// Dimensions::reduced() and reduce_jointly() repeat.
/// @param outer the slower axis
/// @param inner the axis right after it
/// @return the merged axis, or nothing when the two cannot be walked as one
std::optional<Axis> coalesce(const Axis& outer, const Axis& inner);

}  // namespace strata
