/// @file
/// pad: a selection that surrounds a source with constant, edge, reflected, symmetric or
/// wrapped values, exactly as numpy.pad.
#pragma once

#include "strata/core/checked.hpp"
#include "strata/select/selection.hpp"
#include "strata/tensor/copy_kernels.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace strata {

/// numpy.pad's modes.
enum class PadMode {
  constant,   ///< a value
  edge,       ///< the edge value repeated
  reflect,    ///< mirrored, the edge not repeated: [c b | a b c]
  symmetric,  ///< mirrored, the edge repeated: [b a | a b c]
  wrap,       ///< the other end: [b c | a b c]
};

/// The widths before and after one axis.
using PadWidth = std::pair<index_t, index_t>;

namespace detail {

/// The longest padded axis: each keeps a table of the source position of every index.
inline constexpr index_t max_pad_length = index_t{1} << 31;

/// For one axis of extent n padded by (before, after): the source position every output
/// position reads (-1 for the constant value), computed by numpy.pad's own iterative algorithm
/// (numpy/lib/arraypad.py), so widths larger than the axis match NumPy exactly.
inline std::vector<index_t> pad_positions(index_t n, index_t before, index_t after, PadMode mode) {
  const index_t length = before + n + after;
  std::vector<index_t> pos(static_cast<std::size_t>(length), -1);
  const auto at = [&pos](index_t i) -> index_t& { return pos[static_cast<std::size_t>(i)]; };
  for (index_t i = 0; i < n; ++i) {
    at(before + i) = i;
  }
  if (mode == PadMode::constant || n == 0) {
    return pos;
  }
  if (mode == PadMode::edge ||
      ((mode == PadMode::reflect || mode == PadMode::symmetric) && n == 1)) {
    for (index_t p = 0; p < length; ++p) {
      at(p) = std::clamp<index_t>(p - before, 0, n - 1);
    }
    return pos;
  }
  index_t left = before;
  index_t right = after;
  if (mode == PadMode::wrap) {  // _set_wrap_both
    while (left > 0 || right > 0) {
      const index_t period = length - right - left;
      index_t new_left = 0;
      index_t new_right = 0;
      if (left > 0) {
        const index_t m = std::min(period, left);
        std::vector<index_t> chunk(pos.begin() + (length - right - m),
                                   pos.begin() + (length - right));
        const index_t from = left > period ? left - period : 0;
        new_left = left > period ? left - period : 0;
        std::copy(chunk.begin(), chunk.end(), pos.begin() + from);
      }
      if (right > 0) {
        const index_t m = std::min(period, right);
        std::vector<index_t> chunk(pos.begin() + left, pos.begin() + left + m);
        new_right = right > period ? right - period : 0;
        std::copy(chunk.begin(), chunk.end(), pos.begin() + (length - right));
      }
      left = new_left;
      right = new_right;
    }
    return pos;
  }
  const bool include_edge = mode == PadMode::symmetric;  // _set_reflect_both, "even"
  const index_t edge_offset = include_edge ? 1 : 0;
  while (left > 0 || right > 0) {
    const index_t old_length = length - right - left - (include_edge ? 0 : 1);
    if (left > 0) {
      const index_t chunk_length = std::min(old_length, left);
      const index_t stop = left - edge_offset;
      const index_t start = stop + chunk_length;
      for (index_t t = 0; t < chunk_length; ++t) {    // pos[start], pos[start-1], ... into
        at(left - chunk_length + t) = at(start - t);  // [left - chunk_length, left)
      }
      left -= chunk_length;
    }
    if (right > 0) {
      const index_t chunk_length = std::min(old_length, right);
      const index_t start = length - right + edge_offset - 2;
      for (index_t t = 0; t < chunk_length; ++t) {
        at(length - right + t) = at(start - t);
      }
      right -= chunk_length;
    }
  }
  return pos;
}

template <class T>
class PadNode final : public SelectionNode<T> {
 public:
  [[nodiscard]] bool reads(const Footprint& memory) const override {
    return source_.node()->reads(memory);
  }
  [[nodiscard]] bool concurrent() const override { return source_.node()->concurrent(); }
  PadNode(Selection<T> source, std::vector<PadWidth> widths, PadMode mode, T value)
      : source_(std::move(source)), widths_(std::move(widths)), mode_(mode), value_(value) {
    const Index in = source_.shape();
    for (std::size_t k = 0; k < in.size(); ++k) {
      positions_.push_back(pad_positions(in[k], widths_[k].first, widths_[k].second, mode_));
      shape_.push_back(static_cast<index_t>(positions_.back().size()));
    }
  }
  [[nodiscard]] Index shape() const override { return shape_; }
  [[nodiscard]] T at(IndexSpan g) const override {
    Index local(g.size());
    for (std::size_t k = 0; k < g.size(); ++k) {
      local[k] = positions_[k][static_cast<std::size_t>(g[k])];
      if (local[k] < 0) {
        return value_;
      }
    }
    return source_.node()->at(local);
  }
  [[nodiscard]] const void* source(IndexSpan g) const override {
    Index local(g.size());
    for (std::size_t k = 0; k < g.size(); ++k) {
      local[k] = positions_[k][static_cast<std::size_t>(g[k])];
      if (local[k] < 0) {
        return nullptr;  // the constant
      }
    }
    return source_.node()->source(local);
  }
  void materialize_into(Tensor<T>& dst, bool parallel) const override {
    if (dst.size() == 0) {
      return;
    }
    const Index in = source_.shape();
    const std::size_t r = in.size();
    std::vector<Selector> interior;
    for (std::size_t k = 0; k < r; ++k) {
      interior.emplace_back(Range{widths_[k].first, widths_[k].first + in[k]});
    }
    Tensor<T> inside = dst.select(interior);
    std::vector<std::function<void()>> blocks;
    const Tensor<const T>* leaf = source_.node()->leaf();
    if (leaf != nullptr && pad_rows(*leaf, dst, parallel)) {
      return;
    }
    if (leaf != nullptr && r >= 2 && inside.size() > 0) {
      // A tensor source: evaluate chunks of rows whole (interior, then the borders of those
      // rows along the other axes) so each row is written while it is in cache; the
      // chunks are independent. The borders along axis 0 follow.
      const index_t rows = in[0];
      const index_t chunk =
          std::max<index_t>(1, (index_t{1} << 18) / std::max<index_t>(inside.size() / rows, 1));
      const index_t b0 = widths_[0].first;
      for (index_t c0 = 0; c0 < rows; c0 += chunk) {
        const index_t c1 = std::min(rows, c0 + chunk);
        blocks.emplace_back([this, leaf, c0, c1, b0, r, &dst, &inside] {
          Tensor<T> part = inside.select({Range{c0, c1}});
          part.assign(leaf->select({Range{c0, c1}}), seq);
          std::vector<std::function<void()>> borders;
          for (std::size_t k = 1; k < r; ++k) {
            for (const bool after : {false, true}) {
              add_slab(borders, dst, inside, k, after, std::pair{b0 + c0, b0 + c1});
            }
          }
          for (const auto& b : borders) {
            b();
          }
        });
      }
      run_blocks(blocks, inside.size(), parallel);
      blocks.clear();
      for (const bool after : {false, true}) {
        add_slab(blocks, dst, inside, 0, after, std::nullopt);
      }
      run_blocks(blocks, dst.size() - inside.size(), parallel);
      return;
    }
    if (inside.size() > 0) {
      source_.node()->materialize_into(inside, parallel);
    }
    for (std::size_t k = 0; k < r; ++k) {
      for (const bool after : {false, true}) {
        add_slab(blocks, dst, inside, k, after, std::nullopt);
      }
    }
    run_blocks(blocks, dst.size() - inside.size(), parallel);
  }

  /// The matrix fast path, as a hand loop writes it: each output row is the source row
  /// (one contiguous copy) with its left and right borders read through the axis-1 position
  /// map while the row is in cache; then each border row along axis 0 is a copy of a finished
  /// row (or the fill value). Needs contiguous rows in both (unit last stride, plain axes) and
  /// a non-empty interior; returns false otherwise. Chunks of rows run in parallel.
  bool pad_rows(const Tensor<const T>& leaf, Tensor<T>& dst, bool parallel) const {
    const Dimensions& sd = leaf.dims();
    const Dimensions& dd = dst.dims();
    T* const out = dst.buffer().data();
    const T* const in = leaf.buffer().data();
    if (shape_.size() != 2 || out == nullptr || in == nullptr || leaf.size() == 0) {
      return false;
    }
    const auto contiguous_rows = [](const Dimensions& d) {
      const auto axes = d.axes();
      return axes[0].is_plain() && axes[1].is_plain() &&
             (axes[1].stride == 1 || axes[1].extent <= 1);
    };
    if (!contiguous_rows(sd) || !contiguous_rows(dd)) {
      return false;
    }
    const index_t rows = sd.shape()[0];
    const index_t n = sd.shape()[1];
    const index_t top = widths_[0].first;
    const index_t left = widths_[1].first;
    const index_t width = shape_[1];
    const std::vector<index_t>& across = positions_[1];
    const index_t in_stride = sd.axes()[0].stride;
    const index_t out_stride = dd.axes()[0].stride;
    const T* const in0 = in + sd.offset();
    T* const out0 = out + dd.offset();
    const T fill = value_;
    const index_t chunk = std::max<index_t>(1, (index_t{1} << 16) / std::max<index_t>(width, 1));
    std::vector<std::function<void()>> blocks;
    for (index_t c0 = 0; c0 < rows; c0 += chunk) {
      const index_t c1 = std::min(rows, c0 + chunk);
      blocks.emplace_back([=, &across] {
        for (index_t i = c0; i < c1; ++i) {
          const T* src = in0 + i * in_stride;
          T* row = out0 + (top + i) * out_stride;
          std::copy_n(src, n, row + left);
          for (index_t j = 0; j < left; ++j) {
            const index_t p = across[static_cast<std::size_t>(j)];
            row[j] = p < 0 ? fill : src[p];
          }
          for (index_t j = left + n; j < width; ++j) {
            const index_t p = across[static_cast<std::size_t>(j)];
            row[j] = p < 0 ? fill : src[p];
          }
        }
      });
    }
    run_blocks(blocks, rows * width, parallel);
    // Rows above and below: copies of finished rows (the axis-0 map), or the fill value.
    blocks.clear();
    const std::vector<index_t>& down = positions_[0];
    const index_t height = shape_[0];
    for (const auto& [lo, hi] : {std::pair{index_t{0}, top}, std::pair{top + rows, height}}) {
      for (index_t c0 = lo; c0 < hi; c0 += chunk) {
        const index_t c1 = std::min(hi, c0 + chunk);
        blocks.emplace_back([=, &down] {
          for (index_t i = c0; i < c1; ++i) {
            T* row = out0 + i * out_stride;
            const index_t p = down[static_cast<std::size_t>(i)];
            if (p < 0) {
              std::fill_n(row, width, fill);
            } else {
              std::copy_n(out0 + (top + p) * out_stride, width, row);
            }
          }
        });
      }
    }
    run_blocks(blocks, (height - rows) * width, parallel);
    return true;
  }

  /// Adds the blocks of one border slab. The 2r slabs partition the output around the
  /// interior: along axis k, before and after it, interior extent on the axes before k, full
  /// extent on the axes after (@p rows narrows axis 0 for k >= 1). Each slab is cut into blocks
  /// on which every axis's position map is one arithmetic run, so each block is a plain strided
  /// view of the interior (reversed for reflections, stride 0 for edges).
  void add_slab(std::vector<std::function<void()>>& blocks, Tensor<T>& dst, const Tensor<T>& inside,
                std::size_t k, bool after, std::optional<std::pair<index_t, index_t>> rows) const {
    const Index in = source_.shape();
    const std::size_t r = in.size();
    std::vector<std::pair<index_t, index_t>> slab(r);  // output [lo, hi) per axis
    for (std::size_t j = 0; j < r; ++j) {
      if (j < k) {
        slab[j] = {widths_[j].first, widths_[j].first + in[j]};
      } else if (j > k) {
        slab[j] = {0, shape_[j]};
      } else if (after) {
        slab[j] = {widths_[k].first + in[k], shape_[k]};
      } else {
        slab[j] = {0, widths_[k].first};
      }
    }
    if (rows && k >= 1) {
      slab[0] = *rows;
    }
    for (const auto& [lo, hi] : slab) {
      if (lo >= hi) {
        return;
      }
    }
    if (mode_ == PadMode::constant || inside.size() == 0) {
      std::vector<Selector> block;
      for (const auto& [lo, hi] : slab) {
        block.emplace_back(Range{lo, hi});
      }
      blocks.emplace_back([this, part = dst.select(block)]() mutable { part.fill(value_, seq); });
      return;
    }
    add_blocks(blocks, dst, inside, slab);
  }

  [[nodiscard]] NodePtr<T> transposed(IndexSpan perm) const override {
    std::vector<PadWidth> widths;
    for (const index_t p : perm) {
      widths.push_back(widths_[static_cast<std::size_t>(p)]);
    }
    return std::make_shared<PadNode>(source_.transpose(perm), std::move(widths), mode_, value_);
  }
  [[nodiscard]] NodePtr<T> sliced(std::size_t axis, index_t start, index_t step, index_t count,
                                  bool drop) const override {
    // The cut positions read: border (-1, constant only) before, a run of source positions
    // that step evenly, border after. Constant borders become new widths; any other mode only
    // pushes a cut that stays inside the source.
    const std::vector<index_t>& map = positions_[axis];
    index_t before = 0;
    while (before < count && map[static_cast<std::size_t>(start + before * step)] < 0) {
      ++before;
    }
    index_t inside = 0;
    while (before + inside < count &&
           map[static_cast<std::size_t>(start + (before + inside) * step)] >= 0) {
      ++inside;
    }
    const index_t after = count - before - inside;
    for (index_t j = before + inside; j < count; ++j) {
      if (map[static_cast<std::size_t>(start + j * step)] >= 0) {
        return nullptr;  // a border between two runs of the source: not one pad
      }
    }
    const index_t first = inside == 0 ? 0 : map[static_cast<std::size_t>(start + before * step)];
    const index_t source_step =
        inside < 2 ? 1 : map[static_cast<std::size_t>(start + (before + 1) * step)] - first;
    if (source_step == 0) {
      return nullptr;  // one source position repeated (an edge): a broadcast, not a slice
    }
    for (index_t j = 1; j < inside; ++j) {
      if (map[static_cast<std::size_t>(start + (before + j) * step)] != first + j * source_step) {
        return nullptr;  // reflected or wrapped positions: not one strided run
      }
    }
    const bool borders = before > 0 || after > 0;
    if (borders && (mode_ != PadMode::constant || drop)) {
      return nullptr;
    }
    std::vector<PadWidth> widths = widths_;
    if (drop) {
      widths.erase(widths.begin() + static_cast<std::ptrdiff_t>(axis));
    } else {
      widths[axis] = {before, after};
    }
    return std::make_shared<PadNode>(source_.slice_axis(axis, first, source_step, inside, drop),
                                     std::move(widths), mode_, value_);
  }
  void explain(std::ostream& out, int depth) const override {
    constexpr const char* names[] = {"constant", "edge", "reflect", "symmetric", "wrap"};
    out << indent(depth) << "pad " << names[static_cast<int>(mode_)] << " widths [";
    for (std::size_t k = 0; k < widths_.size(); ++k) {
      out << (k == 0 ? "" : " ") << "[" << widths_[k].first << " " << widths_[k].second << "]";
    }
    out << "] -> " << to_string(shape_) << "\n";
    source_.node()->explain(out, depth + 1);
  }

 private:
  /// A stretch of output positions whose source positions step evenly: out [begin, begin +
  /// length) reads source first, first + step, ...
  struct Run {
    index_t begin;
    index_t length;
    index_t first;
    index_t step;
  };

  /// The maximal arithmetic runs of axis k's position map inside output [lo, hi).
  [[nodiscard]] std::vector<Run> runs(std::size_t k, index_t lo, index_t hi) const {
    const std::vector<index_t>& map = positions_[k];
    std::vector<Run> out;
    index_t p = lo;
    while (p < hi) {
      const index_t first = map[static_cast<std::size_t>(p)];
      const index_t step = p + 1 < hi ? map[static_cast<std::size_t>(p + 1)] - first : 0;
      index_t q = p + 1;
      while (q < hi &&
             map[static_cast<std::size_t>(q)] - map[static_cast<std::size_t>(q - 1)] == step) {
        ++q;
      }
      out.push_back(Run{p, q - p, first, step});
      p = q;
    }
    return out;
  }

  /// Adds the block copies of one slab of the output (each from the interior) to @p blocks.
  void add_blocks(std::vector<std::function<void()>>& blocks, Tensor<T>& dst,
                  const Tensor<T>& inside,
                  const std::vector<std::pair<index_t, index_t>>& slab) const {
    const std::size_t r = slab.size();
    std::vector<std::vector<Run>> axis_runs;
    for (std::size_t j = 0; j < r; ++j) {
      axis_runs.push_back(runs(j, slab[j].first, slab[j].second));
    }
    std::vector<std::size_t> pick(r, 0);
    while (true) {
      std::vector<Selector> out_sel;
      std::vector<Selector> src_sel;
      Index extents;
      for (std::size_t j = 0; j < r; ++j) {
        const Run& run = axis_runs[j][pick[j]];
        out_sel.emplace_back(Range{run.begin, run.begin + run.length});
        if (run.step == 0) {
          src_sel.emplace_back(Range{run.first, run.first + 1});
        } else {
          // Range stops one step past the last source position; for a run ending at 0 going
          // down, "omitted" is the only way to include position 0.
          const index_t last = run.first + (run.length - 1) * run.step;
          const index_t stop = last + run.step;
          src_sel.emplace_back(stop < 0 ? Range{run.first, {}, run.step}
                                        : Range{run.first, stop, run.step});
        }
        extents.push_back(run.length);
      }
      // The block and the interior are disjoint parts of one buffer: copy directly.
      blocks.emplace_back(
          [to = dst.select(out_sel), from = inside.select(src_sel).broadcast(extents)] {
            copy_buffers(Parallel{}, to.buffer(), to.dims(), from.buffer(), from.dims());
          });
      std::size_t j = r;
      while (j > 0) {
        --j;
        if (++pick[j] < axis_runs[j].size()) {
          break;
        }
        pick[j] = 0;
        if (j == 0) {
          return;
        }
      }
      if (r == 0) {
        return;
      }
    }
  }

  Selection<T> source_;
  std::vector<PadWidth> widths_;
  PadMode mode_;
  T value_;
  std::vector<std::vector<index_t>> positions_;
  Index shape_;
};

}  // namespace detail

/// Pads a selection, exactly as `numpy.pad(a, widths, mode)`; lazy.
///
/// Every mode is a map from output position to source position per axis (computed once with
/// NumPy's own iterative algorithm, so widths larger than the axis agree with NumPy); evaluation
/// copies the interior block from the source and each border slab from the interior.
/// @param source the selection or tensor
/// @param widths (before, after) per axis, >= 0
/// @param mode the mode
/// @param value the constant for PadMode::constant
/// @return the selection
/// @throws ShapeError for a widths list of the wrong length, a negative width, a mode other
///         than constant extending an empty axis, or a padded axis longer than 2^31 positions
///         (or a size that overflows int64)
template <class T>
Selection<T> pad(const Selection<T>& source, std::vector<PadWidth> widths,
                 PadMode mode = PadMode::constant, T value = T{}) {
  const Index in = source.shape();
  if (widths.size() != in.size()) {
    detail::fail<ShapeError>("pad", widths.size(), " width pairs given for a selection of rank ",
                             in.size(), " (shape ", to_string(in), ")");
  }
  for (std::size_t k = 0; k < widths.size(); ++k) {
    if (widths[k].first < 0 || widths[k].second < 0) {
      detail::fail<ShapeError>("pad", "negative width (", widths[k].first, ", ", widths[k].second,
                               ") on axis ", k);
    }
    if (in[k] == 0 && mode != PadMode::constant && (widths[k].first > 0 || widths[k].second > 0)) {
      detail::fail<ShapeError>("pad", "axis ", k, " is empty: only the constant mode can ",
                               "extend it");
    }
  }
  // Every padded axis keeps a table of the position each output index reads.
  Index padded(in.size());
  for (std::size_t k = 0; k < widths.size(); ++k) {
    padded[k] = checked_add(checked_add(widths[k].first, in[k], "pad"), widths[k].second, "pad");
    if (padded[k] > detail::max_pad_length) {
      detail::fail<ShapeError>("pad", "widths (", widths[k].first, ", ", widths[k].second,
                               ") make axis ", k, " ", padded[k], " long; a pad describes at most ",
                               detail::max_pad_length, " positions per axis");
    }
  }
  (void)checked_size(padded, "pad");
  return Selection<T>(std::make_shared<detail::PadNode<T>>(source, std::move(widths), mode, value));
}

/// Pads a tensor, as `numpy.pad`: the selection form above applied to the tensor (lazy).
/// @param source the tensor (any view)
/// @param widths (before, after) per axis, each >= 0
/// @param mode constant, edge, reflect, symmetric or wrap
/// @param value the constant for PadMode::constant
/// @return the padded selection
/// @throws ShapeError as the selection form
template <class T, class V = std::remove_const_t<T>>
Selection<V> pad(const Tensor<T>& source, std::vector<PadWidth> widths,
                 PadMode mode = PadMode::constant, std::type_identity_t<V> value = V{}) {
  return pad(Selection<V>(source), std::move(widths), mode, value);
}

}  // namespace strata
