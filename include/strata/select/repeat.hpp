/// @file
/// repeat and tile: selections that repeat elements or whole blocks.
#pragma once

#include "strata/core/checked.hpp"
#include "strata/select/concat.hpp"
#include "strata/select/selection.hpp"

#include <algorithm>
#include <vector>

namespace strata {
namespace detail {

template <class T>
class RepeatNode final : public SelectionNode<T> {
 public:
  [[nodiscard]] bool reads(const Footprint& memory) const override {
    return source_.node()->reads(memory);
  }
  [[nodiscard]] bool concurrent() const override { return source_.node()->concurrent(); }
  RepeatNode(Selection<T> source, index_t count, std::size_t axis)
      : source_(std::move(source)), count_(count), axis_(axis) {}
  [[nodiscard]] Index shape() const override {
    Index s = source_.shape();
    s[axis_] *= count_;
    return s;
  }
  [[nodiscard]] T at(IndexSpan g) const override {
    Index local(g);
    local[axis_] = g[axis_] / count_;
    return source_.node()->at(local);
  }
  [[nodiscard]] const void* source(IndexSpan g) const override {
    Index local(g);
    local[axis_] = g[axis_] / count_;
    return source_.node()->source(local);
  }
  void materialize_into(Tensor<T>& dst, bool parallel) const override {
    if (dst.size() == 0) {
      return;
    }
    // View the axis as [n, count]: copy the source once into slot 0, then slot 0 into the rest.
    const Index src = source_.shape();
    Index split = dst.shape();
    split[axis_] = src[axis_];
    split.insert(split.begin() + static_cast<std::ptrdiff_t>(axis_) + 1, count_);
    Tensor<T> target = dst;
    try {
      target.rebind(dst.reshape(split));
    } catch (const LayoutError&) {
      Tensor<T> dense(dst.shape());
      materialize_into(dense, parallel);
      dst.assign(dense, seq);
      return;
    }
    std::vector<Selector> first(axis_ + 1, Selector(all));
    first.emplace_back(0);
    Tensor<T> slot0 = target.select(first);
    source_.node()->materialize_into(slot0, parallel);
    for (index_t r = 1; r < count_; ++r) {
      std::vector<Selector> other(axis_ + 1, Selector(all));
      other.emplace_back(r);
      if (parallel) {
        target.select(other).assign(slot0, par);
      } else {
        target.select(other).assign(slot0, seq);
      }
    }
  }
  [[nodiscard]] NodePtr<T> transposed(IndexSpan perm) const override {
    std::size_t axis = 0;
    for (std::size_t k = 0; k < perm.size(); ++k) {
      if (static_cast<std::size_t>(perm[k]) == axis_) {
        axis = k;
      }
    }
    return std::make_shared<RepeatNode>(source_.transpose(perm), count_, axis);
  }
  [[nodiscard]] NodePtr<T> sliced(std::size_t axis, index_t start, index_t step, index_t count,
                                  bool drop) const override {
    if (axis != axis_) {
      return std::make_shared<RepeatNode>(
          source_.slice_axis(axis, start, step, count, drop), count_,
          static_cast<std::size_t>(axis_after_cut(axis_, axis, drop)));
    }
    if (count == 0) {
      return source_.slice_axis(axis_, 0, 1, 0, false).node();
    }
    if (count == 1 || step % count_ == 0) {
      // Every position reads its own source row: a cut of the source (rows advance by
      // step / count_).
      return source_.slice_axis(axis_, start / count_, count == 1 ? 1 : step / count_, count, drop)
          .node();
    }
    return nullptr;
  }
  void explain(std::ostream& out, int depth) const override {
    out << indent(depth) << "repeat x" << count_ << " axis " << axis_ << " -> "
        << to_string(shape()) << "\n";
    source_.node()->explain(out, depth + 1);
  }

 private:
  Selection<T> source_;
  index_t count_;
  std::size_t axis_;
};

}  // namespace detail

/// Repeats each element @p count times along an axis, as `numpy.repeat(a, count, axis)`; lazy.
/// @param source the selection or tensor
/// @param count the repetitions, >= 0
/// @param axis the axis; negative counts from the end
/// @return the selection
/// @throws ShapeError for a negative count or a result whose size overflows int64; IndexError
///         for an axis that does not exist
template <class T>
Selection<T> repeat(const Selection<T>& source, index_t count, index_t axis) {
  const auto rank = static_cast<index_t>(source.rank());
  if (axis < -rank || axis >= rank) {
    detail::fail<IndexError>("repeat", "axis ", axis, " does not exist (rank ", rank, ")");
  }
  if (count < 0) {
    detail::fail<ShapeError>("repeat", "count ", count, " is negative");
  }
  const auto a = static_cast<std::size_t>(axis < 0 ? axis + rank : axis);
  Index shape = source.shape();
  shape[a] = checked_mul(shape[a], count, "repeat");
  (void)checked_size(shape, "repeat");
  return Selection<T>(std::make_shared<detail::RepeatNode<T>>(source, count, a));
}

/// Repeats each element of a tensor @p count times along @p axis, as `numpy.repeat` (the
/// selection form above applied to the tensor, lazy).
/// @param source the tensor (any view)
/// @param count the repetitions, >= 0
/// @param axis the axis (negative counts from the end)
/// @return the selection
/// @throws IndexError for an axis that does not exist; ShapeError as the selection form
template <class T, class V = std::remove_const_t<T>>
Selection<V> repeat(const Tensor<T>& source, index_t count, index_t axis) {
  return repeat(Selection<V>(source), count, axis);
}

/// Repeats the whole selection @p reps times per axis, as `numpy.tile(a, reps)` (a longer
/// reps adds leading axes); lazy and zero-copy: a tiling broadcast of the source's map.
/// @param source the selection or tensor
/// @param reps repetitions per axis, >= 0
/// @return the selection
/// @throws ShapeError for a negative repetition
template <class T>
Selection<T> tile(const Selection<T>& source, IndexSpan reps) {
  // Lift to max(rank, len(reps)) axes with leading 1s, as NumPy does.
  Index shape = source.shape();
  while (shape.size() < reps.size()) {
    shape.insert(shape.begin(), 1);
  }
  Index padded(shape.size(), 1);
  std::copy(reps.begin(), reps.end(), padded.end() - static_cast<std::ptrdiff_t>(reps.size()));
  Index target(shape.size());
  std::vector<Selector> keep;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (padded[k] < 0) {
      detail::fail<ShapeError>("tile", "repetitions ", to_string(reps), " has negative entry ",
                               padded[k]);
    }
    target[k] = checked_mul(shape[k], padded[k], "tile");
    // Zero repetitions empty the axis first (a broadcast grows extents, it cannot drop them).
    keep.emplace_back(padded[k] == 0 ? Selector(Range{0, 0}) : Selector(all));
  }
  return source.reshape(shape).select(keep).broadcast(target);
}

/// Repeats a whole tensor @p reps times per axis, as `numpy.tile(a, reps)` (the selection form
/// above applied to the tensor, lazy).
/// @param source the tensor (any view)
/// @param reps the repetitions per axis, each >= 0
/// @return the selection
/// @throws ShapeError as the selection form
template <class T, class V = std::remove_const_t<T>>
Selection<V> tile(const Tensor<T>& source, IndexSpan reps) {
  return tile(Selection<V>(source), reps);
}

}  // namespace strata
