/// @file
/// ZPoint and ZRange: points and half-open boxes of an integer coordinate space.
#pragma once

#include "strata/core/index.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace strata {

/// A point of an integer coordinate space (an index space or a tensor space).
using ZPoint = Index;

/// A box of an integer coordinate space: every point p with `start <= p < end` per coordinate.
///
/// A box with `end[k] == start[k]` on some axis is empty (allowed); `end < start` is not.
/// Prints as `[2:4, 3:5]`.
///
/// @code
/// strata::ZRange r({2, 3}, {4, 5});
/// r.shape();            // [2 2]
/// r.contains({3, 4});   // true
/// r.split(0, 1);        // [2:3, 3:5] and [3:4, 3:5]
/// @endcode
class ZRange {
 public:
  /// The rank-0 box (it holds the one point of a rank-0 space).
  ZRange() = default;

  /// The box [start, end).
  /// @param start the first point (inclusive)
  /// @param end the bound (exclusive), same rank
  /// @throws ShapeError when the ranks differ or end < start on an axis
  ZRange(IndexSpan start, IndexSpan end);

  /// The box of @p shape whose first point is @p start.
  /// @param start the first point
  /// @param shape the extents, >= 0
  /// @return the box [start, start + shape)
  /// @throws ShapeError when the ranks differ or an extent is negative
  static ZRange from_shape(IndexSpan start, IndexSpan shape);

  /// The smallest box holding every given box (empty boxes are ignored).
  /// @param ranges boxes of one rank
  /// @return their bounding box; an empty box at the first one's start when all are empty
  /// @throws ShapeError when the list is empty or the ranks differ
  static ZRange bounding(const std::vector<ZRange>& ranges);

  /// The first point.
  /// @return start
  [[nodiscard]] const Index& start() const noexcept { return start_; }
  /// The exclusive bound.
  /// @return end
  [[nodiscard]] const Index& end() const noexcept { return end_; }
  /// The number of coordinates.
  /// @return the rank
  [[nodiscard]] int rank() const noexcept { return static_cast<int>(start_.size()); }
  /// The extents, `end - start`.
  /// @return the shape
  [[nodiscard]] Index shape() const;
  /// The number of points.
  /// @return the product of the extents
  [[nodiscard]] index_t size() const;
  /// Whether the box holds no point.
  /// @return true when some extent is 0
  [[nodiscard]] bool empty() const;

  /// Whether a point lies in the box.
  /// @param point a point of the same rank
  /// @return true when start <= point < end on every axis
  /// @throws ShapeError when the rank differs
  [[nodiscard]] bool contains(IndexSpan point) const;
  /// Whether another box lies in this one, by plain per-coordinate bounds.
  /// @param other a box of the same rank
  /// @return true when start <= other.start and other.end <= end on every axis
  /// @throws ShapeError when the rank differs
  [[nodiscard]] bool contains(const ZRange& other) const;
  /// The points in both boxes.
  /// @param other a box of the same rank
  /// @return the intersection, empty (at the clamped start) when they do not meet
  /// @throws ShapeError when the rank differs
  [[nodiscard]] ZRange intersection(const ZRange& other) const;
  /// The box moved by @p delta.
  /// @param delta one shift per axis
  /// @return [start + delta, end + delta)
  /// @throws ShapeError when the rank differs
  [[nodiscard]] ZRange translate(IndexSpan delta) const;

  /// Cuts the box along one axis into chunks of @p chunk (the last one smaller) that cover it
  /// exactly, in order.
  /// @param axis the axis; negative counts from the end
  /// @param chunk the chunk length, > 0
  /// @return the chunks (none for an empty extent along the axis)
  /// @throws IndexError for an axis that does not exist; ShapeError for chunk <= 0
  [[nodiscard]] std::vector<ZRange> split(index_t axis, index_t chunk) const;

  /// Every point in row-major order.
  /// @return the points
  [[nodiscard]] std::vector<ZPoint> points() const;

  /// Equal starts and ends.
  /// @param a, b boxes
  /// @return true when equal
  friend bool operator==(const ZRange& a, const ZRange& b) noexcept {
    return a.start_ == b.start_ && a.end_ == b.end_;
  }

  /// Prints `[2:4, 3:5]` (`[]` for rank 0).
  /// @param out the stream
  /// @param r the box
  /// @return @p out
  friend std::ostream& operator<<(std::ostream& out, const ZRange& r);

 private:
  void same_rank(std::size_t rank, std::string_view operation) const;

  Index start_;
  Index end_;
};

/// The printed form of a ZRange.
/// @param r the box
/// @return the text, for example `[2:4, 3:5]`
std::string to_string(const ZRange& r);

}  // namespace strata
