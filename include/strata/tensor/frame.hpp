/// @file
/// Where the elements of a tensor view sit in the index space of the tensor it was cut from.
#pragma once

#include "strata/core/error.hpp"
#include "strata/core/index.hpp"
#include "strata/layout/selector.hpp"

#include <span>
#include <string>
#include <utility>

namespace strata::detail {

/// The absolute index frame of a tensor view: along each axis k, absolute index =
/// `origin[k] + steps[k] * relative index`. Slicing (integers, ranges with any step, `all`),
/// flips, transposes and squeezes keep a frame; a roll, a broadcast, a reshape or an index
/// array has no such affine relation to the parent's indices, so after one the view has
/// relative indices only (`lost_by()` names the operation).
///
/// Empty origin and steps stand for the identity (origin 0, step 1) of any rank.
class Frame {
 public:
  /// The identity frame: absolute indices are relative ones.
  Frame() = default;

  /// A frame that has lost its absolute indices.
  /// @param operation the operation that lost them
  /// @return the frame
  static Frame lost(const char* operation) {
    Frame f;
    f.lost_ = operation;
    return f;
  }

  /// A frame whose absolute indices start at @p origin, with steps of 1.
  /// @param origin the absolute index of the first element
  /// @return the frame
  static Frame at(IndexSpan origin) {
    Frame f;
    f.origin_ = Index(origin);
    f.steps_ = Index(origin.size(), 1);
    return f.normalised();
  }

  /// Whether the view has absolute indices.
  [[nodiscard]] bool has_absolute() const noexcept { return lost_ == nullptr; }
  /// The operation after which absolute indices were lost (null when they were not).
  [[nodiscard]] const char* lost_by() const noexcept { return lost_; }
  /// The absolute index of the first element, for a view of @p rank axes.
  [[nodiscard]] Index origin(std::size_t rank) const {
    return origin_.empty() ? Index(rank, 0) : origin_;
  }
  /// The step of the absolute index along each axis, for a view of @p rank axes.
  [[nodiscard]] Index steps(std::size_t rank) const {
    return steps_.empty() ? Index(rank, 1) : steps_;
  }
  /// Whether absolute indices equal relative ones.
  [[nodiscard]] bool is_identity() const noexcept { return origin_.empty() && lost_ == nullptr; }

  /// The frame after Dimensions::select (selectors validated against @p shape).
  [[nodiscard]] Frame selected(IndexSpan shape, std::span<const Selector> selectors) const {
    if (!has_absolute()) {
      return *this;
    }
    const Index o = origin(shape.size());
    const Index s = steps(shape.size());
    Frame out;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      AxisCut cut;
      if (k >= selectors.size()) {
        cut = {0, 1, shape[k], false};
      } else if (!axis_cut(selectors[k], shape[k], cut)) {
        return lost("select with an index array");
      }
      if (!cut.drop) {
        out.origin_.push_back(o[k] + s[k] * cut.start);
        out.steps_.push_back(s[k] * (cut.count <= 1 ? 1 : cut.step));
      }
    }
    return out.normalised();
  }
  /// The frame after a transpose: axis k of the result is axis `perm[k]` (resolved, >= 0).
  [[nodiscard]] Frame transposed(IndexSpan perm) const {
    if (is_identity() || !has_absolute()) {
      return *this;
    }
    Frame out;
    for (const index_t p : perm) {
      out.origin_.push_back(origin_[static_cast<std::size_t>(p)]);
      out.steps_.push_back(steps_[static_cast<std::size_t>(p)]);
    }
    return out;
  }
  /// The frame after flipping the axes marked in @p flipped (the view's extents @p shape).
  [[nodiscard]] Frame reversed(IndexSpan shape, const std::vector<bool>& flipped) const {
    if (!has_absolute()) {
      return *this;
    }
    Frame out;
    out.origin_ = origin(shape.size());
    out.steps_ = steps(shape.size());
    for (std::size_t k = 0; k < shape.size(); ++k) {
      if (flipped[k] && shape[k] > 1) {
        out.origin_[k] += out.steps_[k] * (shape[k] - 1);
        out.steps_[k] = -out.steps_[k];
      }
    }
    return out.normalised();
  }
  /// The frame after dropping the axes marked in @p dropped (of a view of @p rank axes).
  [[nodiscard]] Frame squeezed(std::size_t rank, const std::vector<bool>& dropped) const {
    if (is_identity() || !has_absolute()) {
      return *this;
    }
    Frame out;
    for (std::size_t k = 0; k < rank; ++k) {
      if (!dropped[k]) {
        out.origin_.push_back(origin_[k]);
        out.steps_.push_back(steps_[k]);
      }
    }
    return out.normalised();
  }
  /// The frame after inserting an axis (origin 0, step 1) at @p axis (resolved, >= 0).
  [[nodiscard]] Frame unsqueezed(std::size_t rank, std::size_t axis) const {
    if (is_identity() || !has_absolute()) {
      return *this;
    }
    Frame out = *this;
    out.origin_.insert(out.origin_.begin() + static_cast<std::ptrdiff_t>(axis), 0);
    out.steps_.insert(out.steps_.begin() + static_cast<std::ptrdiff_t>(axis), 1);
    (void)rank;
    return out;
  }

  /// Throws LayoutError naming @p operation unless the view has absolute indices.
  void require_absolute(std::string_view operation) const {
    if (!has_absolute()) {
      fail<LayoutError>(operation, "the view has relative indices only: after ", lost_,
                        " its elements have no absolute index in the tensor it came from (ask "
                        "for offsets / strata::relative instead)");
    }
  }

  /// Equal frames.
  friend bool operator==(const Frame& a, const Frame& b) {
    return a.origin_ == b.origin_ && a.steps_ == b.steps_ &&
           (a.lost_ == nullptr) == (b.lost_ == nullptr);
  }

 private:
  [[nodiscard]] Frame normalised() const {
    for (std::size_t k = 0; k < origin_.size(); ++k) {
      if (origin_[k] != 0 || steps_[k] != 1) {
        return *this;
      }
    }
    return Frame{};
  }

  Index origin_;
  Index steps_;
  const char* lost_ = nullptr;
};

}  // namespace strata::detail
