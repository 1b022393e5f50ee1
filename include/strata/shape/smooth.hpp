/// @file
/// strata::Smooth and strata::SmoothView: hyper-rectangular shapes, and boxes of them that keep
/// their origin.
#pragma once

#include "strata/core/index.hpp"
#include "strata/shape/shape_api.hpp"

#include <initializer_list>
#include <iosfwd>
#include <span>

namespace strata {

class SmoothView;

namespace detail {

/// Row-major offsets of a position in a box of @p extents (the box must not be empty).
inline void smooth_unravel(index_t position, std::span<const index_t> extents,
                           std::span<index_t> offset) noexcept {
  for (std::size_t k = extents.size(); k-- > 0;) {
    offset[k] = position % extents[k];
    position /= extents[k];
  }
}
/// One odometer step; false (and all zeros) after the last offset.
inline bool smooth_advance(std::span<const index_t> extents, std::span<index_t> offset) noexcept {
  for (std::size_t k = extents.size(); k-- > 0;) {
    if (++offset[k] < extents[k]) {
      return true;
    }
    offset[k] = 0;
  }
  return false;
}
/// The row-major position of an offset in a box of @p extents.
inline index_t smooth_ravel(std::span<const index_t> extents, std::span<const index_t> offset) {
  index_t position = 0;
  for (std::size_t k = 0; k < extents.size(); ++k) {
    position = position * extents[k] + offset[k];
  }
  return position;
}
/// Whether an offset lies in a box of @p extents.
inline bool smooth_contains(std::span<const index_t> extents,
                            std::span<const index_t> offset) noexcept {
  if (offset.size() != extents.size()) {
    return false;
  }
  for (std::size_t k = 0; k < extents.size(); ++k) {
    if (offset[k] < 0 || offset[k] >= extents[k]) {
      return false;
    }
  }
  return true;
}
/// Checks extents (ShapeError for a negative one or an overflowing size) and returns the size.
index_t checked_extents(std::span<const index_t> extents, std::string_view operation);

}  // namespace detail

/// A hyper-rectangle of extents: `Smooth{3, 4}` is a 3x4 matrix shape.
///
/// `Smooth{}` is the rank-0 scalar shape (size 1); `Smooth{0}` is an empty vector shape, a
/// different thing. Extents are checked when the shape is built (ShapeError for a negative
/// extent or a size that overflows int64). A Smooth's origin is all zeros.
///
/// The primitives every shape provides (and ShapeAPI builds on) are documented here:
/// unravel/advance/ravel/contains_offset work on offsets (indices relative to the origin) and
/// are unchecked, for loops; the ShapeAPI members check.
///
/// @code
/// strata::Smooth s{3, 4};
/// s.size();                         // 12
/// auto box = s.slice({1, 1}, {3, 3});  // Smooth[2 2] at [1 1]
/// box.indices().begin()[0];          // [1 1]: a slice keeps the original indices
/// box.offsets().begin()[0];          // [0 0]
/// s.chip(0, 2);                      // Smooth[4] at [0]: row 2
/// @endcode
/// Design page: @ref shapes_page.
class Smooth : public ShapeAPI<Smooth> {
 public:
  /// The rank-0 scalar shape (one element).
  Smooth() = default;
  /// A shape from a list of extents.
  /// @param extents one extent per mode, each >= 0
  /// @throws ShapeError for a negative extent or a size that overflows
  Smooth(std::initializer_list<index_t> extents);
  /// A shape from extents.
  /// @param extents one extent per mode, each >= 0
  /// @throws ShapeError for a negative extent or a size that overflows
  explicit Smooth(IndexSpan extents);

  /// The number of modes.
  /// @return the rank
  [[nodiscard]] int rank() const noexcept { return static_cast<int>(extents_.size()); }
  /// The number of elements (1 for rank 0).
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return size_; }
  /// The extents.
  /// @return one extent per mode
  [[nodiscard]] IndexSpan extents() const noexcept { return extents_; }
  /// The first index: all zeros.
  /// @return the origin
  [[nodiscard]] Index origin() const { return Index(extents_.size(), 0); }

  /// A box of this shape that keeps its indices.
  /// @param lo the first index of the box, per mode
  /// @param hi one past the last index of the box, per mode
  /// @return the view (origin @p lo)
  /// @throws IndexError when lo or hi has the wrong length, lo > hi, or the box leaves the shape
  [[nodiscard]] SmoothView slice(IndexSpan lo, IndexSpan hi) const;
  /// The slice at index @p i of @p mode, one rank lower; the other modes keep their origin.
  /// @param mode the mode to drop
  /// @param i the index along it
  /// @return the view
  /// @throws IndexError for a mode that does not exist or an index out of range
  [[nodiscard]] SmoothView chip(int mode, index_t i) const;

  /// Primitive: the extent of a mode (unchecked mode).
  /// @param mode in [0, rank())
  /// @return the extent
  [[nodiscard]] index_t uniform_extent(int mode) const {
    return extents_[static_cast<std::size_t>(mode)];
  }
  /// Primitive: the offsets at a row-major position (unchecked).
  /// @param position in [0, size())
  /// @param offset receives one offset per mode
  void unravel(index_t position, std::span<index_t> offset) const noexcept {
    detail::smooth_unravel(position, extents_, offset);
  }
  /// Primitive: steps @p offset to the next offset in row-major order.
  /// @param offset an offset inside the shape
  /// @return false when @p offset was the last one
  bool advance(std::span<index_t> offset) const noexcept {
    return detail::smooth_advance(extents_, offset);
  }
  /// Primitive: how many offsets, from @p offset on in row-major order, differ from it only in
  /// the last mode: the steps advance() can take by incrementing the last offset alone, plus
  /// one. Index ranges step through such a run without calling advance().
  /// @param offset an offset inside the shape (rank >= 1)
  /// @return at least 1
  [[nodiscard]] index_t run_length(std::span<const index_t> offset) const noexcept {
    return extents_.back() - offset.back();
  }
  /// Primitive: the row-major position of an offset (unchecked).
  /// @param offset an offset inside the shape
  /// @return the position
  [[nodiscard]] index_t ravel(IndexSpan offset) const {
    return detail::smooth_ravel(extents_, offset);
  }
  /// Primitive: whether an offset lies in the shape.
  /// @param offset one offset per mode
  /// @return true when inside
  [[nodiscard]] bool contains_offset(IndexSpan offset) const noexcept {
    return detail::smooth_contains(extents_, offset);
  }
  /// Primitive: prints `Smooth[3 4]`.
  /// @param out the stream
  void print(std::ostream& out) const;
  /// Primitive: equality.
  /// @param other a shape
  /// @return whether the extents are equal
  [[nodiscard]] bool same_as(const Smooth& other) const noexcept {
    return extents_ == other.extents_;
  }

 private:
  Index extents_;
  index_t size_ = 1;
};

/// A box of a smooth shape: extents plus the origin it keeps from the shape it was cut from.
///
/// `indices()` starts at the origin; `offsets()` starts at zeros. Slicing and chipping a view
/// take absolute indices (those of the original shape). A SmoothView is a small value (two
/// Index), so it is cheap to copy and never dangles.
class SmoothView : public ShapeAPI<SmoothView> {
 public:
  /// The rank-0 view.
  SmoothView() = default;
  /// A view of @p extents starting at @p origin.
  /// @param extents the box's extents
  /// @param origin its first absolute index (same length)
  /// @throws ShapeError for a negative extent, an overflowing size or lengths that differ
  SmoothView(IndexSpan extents, IndexSpan origin);

  /// @copydoc Smooth::rank
  [[nodiscard]] int rank() const noexcept { return box_.rank(); }
  /// @copydoc Smooth::size
  [[nodiscard]] index_t size() const noexcept { return box_.size(); }
  /// @copydoc Smooth::extents
  [[nodiscard]] IndexSpan extents() const noexcept { return box_.extents(); }
  /// The first absolute index.
  /// @return the origin
  [[nodiscard]] Index origin() const { return origin_; }
  /// The box as a shape of its own (origin dropped).
  /// @return the Smooth
  [[nodiscard]] const Smooth& shape() const noexcept { return box_; }

  /// @copydoc Smooth::slice
  [[nodiscard]] SmoothView slice(IndexSpan lo, IndexSpan hi) const;
  /// @copydoc Smooth::chip
  [[nodiscard]] SmoothView chip(int mode, index_t i) const;

  /// @copydoc Smooth::uniform_extent
  [[nodiscard]] index_t uniform_extent(int mode) const { return box_.uniform_extent(mode); }
  /// @copydoc Smooth::unravel
  void unravel(index_t position, std::span<index_t> offset) const noexcept {
    box_.unravel(position, offset);
  }
  /// @copydoc Smooth::advance
  bool advance(std::span<index_t> offset) const noexcept { return box_.advance(offset); }
  /// @copydoc Smooth::run_length
  [[nodiscard]] index_t run_length(std::span<const index_t> offset) const noexcept {
    return box_.run_length(offset);
  }
  /// @copydoc Smooth::ravel
  [[nodiscard]] index_t ravel(IndexSpan offset) const { return box_.ravel(offset); }
  /// @copydoc Smooth::contains_offset
  [[nodiscard]] bool contains_offset(IndexSpan offset) const noexcept {
    return box_.contains_offset(offset);
  }
  /// Primitive: prints `Smooth[2 2] at [1 1]`.
  /// @param out the stream
  void print(std::ostream& out) const;
  /// Primitive: equality of extents and origin.
  /// @param other a view
  /// @return whether they are equal
  [[nodiscard]] bool same_as(const SmoothView& other) const noexcept {
    return box_.same_as(other.box_) && origin_ == other.origin_;
  }

 private:
  Smooth box_;
  Index origin_;
};

}  // namespace strata
