/// @file
/// concat and interleave: selections that stack sources along an axis.
#pragma once

#include "strata/core/checked.hpp"
#include "strata/select/selection.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace strata {
namespace detail {

/// Checks that sources share a rank and every extent but the one along `axis`.
template <class T>
index_t check_stackable(const std::vector<Selection<T>>& sources, index_t axis,
                        std::string_view operation) {
  if (sources.empty()) {
    detail::fail<ShapeError>(operation, "needs at least one source");
  }
  const Index first = sources[0].shape();
  const auto rank = static_cast<index_t>(first.size());
  if (axis < -rank || axis >= rank) {
    detail::fail<IndexError>(operation, "axis ", axis, " does not exist (rank ", rank, ")");
  }
  const auto a = static_cast<std::size_t>(axis < 0 ? axis + rank : axis);
  Index stacked = first;  // the extents of a concat: the sum must fit (and so must a stack)
  for (std::size_t s = 1; s < sources.size(); ++s) {
    const Index other = sources[s].shape();
    bool same = other.size() == first.size();
    for (std::size_t k = 0; same && k < first.size(); ++k) {
      same = k == a || other[k] == first[k];
    }
    if (!same) {
      detail::fail<ShapeError>(operation, "source ", s, " has shape ", to_string(other),
                               " but source 0 has shape ", to_string(first),
                               " (all extents but axis ", a, " must match)");
    }
    stacked[a] = checked_add(stacked[a], other[a], operation);
  }
  (void)checked_size(stacked, operation);
  return static_cast<index_t>(a);
}

/// Where axis `axis` goes under a permutation (result axis k is old axis perm[k]).
inline index_t new_axis(IndexSpan perm, std::size_t axis) {
  for (std::size_t k = 0; k < perm.size(); ++k) {
    if (static_cast<std::size_t>(perm[k]) == axis) {
      return static_cast<index_t>(k);
    }
  }
  return 0;
}

template <class T>
std::vector<Selection<T>> permuted(const std::vector<Selection<T>>& sources, IndexSpan perm) {
  std::vector<Selection<T>> out;
  for (const auto& s : sources) {
    out.push_back(s.transpose(perm));
  }
  return out;
}

/// Every source cut the same way along another axis than the node's.
template <class T>
std::vector<Selection<T>> cut_each(const std::vector<Selection<T>>& sources, std::size_t axis,
                                   index_t start, index_t step, index_t count, bool drop) {
  std::vector<Selection<T>> parts;
  for (const auto& s : sources) {
    parts.push_back(s.slice_axis(axis, start, step, count, drop));
  }
  return parts;
}

/// Where a node's axis goes when another axis is cut (it moves down when an earlier one goes).
inline index_t axis_after_cut(std::size_t node_axis, std::size_t cut_axis, bool drop) {
  return static_cast<index_t>(drop && cut_axis < node_axis ? node_axis - 1 : node_axis);
}

template <class T>
class ConcatNode final : public SelectionNode<T> {
 public:
  [[nodiscard]] bool reads(const Footprint& memory) const override {
    return std::any_of(sources_.begin(), sources_.end(),
                       [&memory](const auto& s) { return s.node()->reads(memory); });
  }
  [[nodiscard]] bool concurrent() const override {
    return std::all_of(sources_.begin(), sources_.end(),
                       [](const auto& s) { return s.node()->concurrent(); });
  }
  ConcatNode(std::vector<Selection<T>> sources, index_t axis)
      : sources_(std::move(sources)), axis_(static_cast<std::size_t>(axis)) {
    index_t at = 0;
    for (const auto& s : sources_) {
      starts_.push_back(at);
      at += s.shape()[axis_];
    }
    shape_ = sources_[0].shape();
    shape_[axis_] = at;
  }
  [[nodiscard]] Index shape() const override { return shape_; }
  [[nodiscard]] T at(IndexSpan g) const override {
    Index local(g);
    return sources_[part(local)].node()->at(local);
  }
  [[nodiscard]] const void* source(IndexSpan g) const override {
    Index local(g);
    return sources_[part(local)].node()->source(local);
  }
  /// The source holding global index @p g, whose axis entry becomes the source's index.
  std::size_t part(Index& g) const {
    const index_t i = g[axis_];
    const auto s = static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), i) -
                                            starts_.begin() - 1);
    g[axis_] = i - starts_[s];
    return s;
  }
  void materialize_into(Tensor<T>& dst, bool parallel) const override {
    std::vector<std::function<void()>> blocks;
    for (std::size_t s = 0; s < sources_.size(); ++s) {
      const index_t extent = sources_[s].shape()[axis_];
      if (extent == 0) {
        continue;
      }
      std::vector<Selector> block(axis_, Selector(all));
      block.emplace_back(Range{starts_[s], starts_[s] + extent});
      blocks.emplace_back([this, s, parallel, part = dst.select(block)]() mutable {
        sources_[s].node()->materialize_into(part, parallel);
      });
    }
    run_blocks(blocks, dst.size(), parallel);
  }
  [[nodiscard]] NodePtr<T> transposed(IndexSpan perm) const override {
    return std::make_shared<ConcatNode>(permuted(sources_, perm), new_axis(perm, axis_));
  }
  [[nodiscard]] NodePtr<T> sliced(std::size_t axis, index_t start, index_t step, index_t count,
                                  bool drop) const override {
    if (axis != axis_) {
      return std::make_shared<ConcatNode>(cut_each(sources_, axis, start, step, count, drop),
                                          axis_after_cut(axis_, axis, drop));
    }
    // Along the concat axis: each source gives the run of positions that fall inside it.
    std::vector<std::pair<index_t, Selection<T>>> pieces;  // (first output position, piece)
    for (std::size_t i = 0; i < sources_.size(); ++i) {
      const index_t lo = starts_[i];
      const index_t hi = lo + sources_[i].shape()[axis_];
      index_t j0 = 0;
      index_t j1 = 0;
      if (step > 0) {
        j0 = ceil_div(lo - start, step);
        j1 = ceil_div(hi - start, step);
      } else {
        j0 = floor_div(start - hi, -step) + 1;
        j1 = floor_div(start - lo, -step) + 1;
      }
      j0 = std::max<index_t>(j0, 0);
      j1 = std::min(j1, count);
      if (j0 < j1) {
        pieces.emplace_back(
            j0, sources_[i].slice_axis(axis_, start + j0 * step - lo, step, j1 - j0, drop));
      }
    }
    if (pieces.empty()) {
      return sources_[0].slice_axis(axis_, 0, 1, 0, false).node();
    }
    if (pieces.size() == 1) {
      return pieces[0].second.node();
    }
    std::sort(pieces.begin(), pieces.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Selection<T>> parts;
    for (auto& piece : pieces) {
      parts.push_back(std::move(piece.second));
    }
    return std::make_shared<ConcatNode>(std::move(parts), static_cast<index_t>(axis_));
  }
  void explain(std::ostream& out, int depth) const override {
    out << indent(depth) << "concat axis " << axis_ << " -> " << to_string(shape_) << "\n";
    for (const auto& s : sources_) {
      s.node()->explain(out, depth + 1);
    }
  }

 private:
  std::vector<Selection<T>> sources_;
  std::size_t axis_;
  std::vector<index_t> starts_;
  Index shape_;
};

template <class T>
class InterleaveNode final : public SelectionNode<T> {
 public:
  [[nodiscard]] bool reads(const Footprint& memory) const override {
    return std::any_of(sources_.begin(), sources_.end(),
                       [&memory](const auto& s) { return s.node()->reads(memory); });
  }
  [[nodiscard]] bool concurrent() const override {
    return std::all_of(sources_.begin(), sources_.end(),
                       [](const auto& s) { return s.node()->concurrent(); });
  }
  /// Sources along `axis` hold rows i, i + k, i + 2k, ... of the result: equal extents, or
  /// (after a cut) extents ceil((n - i) / k), the first ones one longer.
  InterleaveNode(std::vector<Selection<T>> sources, index_t axis)
      : sources_(std::move(sources)), axis_(static_cast<std::size_t>(axis)) {
    shape_ = sources_[0].shape();
    index_t rows = 0;
    for (const auto& s : sources_) {
      rows += s.shape()[axis_];
    }
    shape_[axis_] = rows;
  }
  [[nodiscard]] Index shape() const override { return shape_; }
  [[nodiscard]] T at(IndexSpan g) const override {
    const auto k = static_cast<index_t>(sources_.size());
    Index local(g);
    local[axis_] = g[axis_] / k;
    return sources_[static_cast<std::size_t>(g[axis_] % k)].node()->at(local);
  }
  [[nodiscard]] const void* source(IndexSpan g) const override {
    const auto k = static_cast<index_t>(sources_.size());
    Index local(g);
    local[axis_] = g[axis_] / k;
    return sources_[static_cast<std::size_t>(g[axis_] % k)].node()->source(local);
  }
  void materialize_into(Tensor<T>& dst, bool parallel) const override {
    const auto k = static_cast<index_t>(sources_.size());
    std::vector<std::function<void()>> blocks;
    const index_t first_rows = sources_[0].shape()[axis_];
    const bool leaves = std::all_of(sources_.begin(), sources_.end(), [&](const auto& s) {
      return s.node()->leaf() != nullptr && s.shape()[axis_] == first_rows;
    });
    if (leaves && axis_ == 0) {
      // Tensor sources: walk the output in chunks of rows so it is written front to back
      // (each chunk takes its rows from every source), as a hand loop would.
      const index_t rows = sources_[0].shape()[0];
      const index_t row_size = rows == 0 ? 0 : sources_[0].size() / rows;
      const index_t chunk =
          std::max<index_t>(1, (index_t{1} << 18) / std::max<index_t>(row_size * k, 1));
      if (copy_rows(dst, rows, row_size, chunk, parallel)) {
        return;
      }
      for (index_t r0 = 0; r0 < rows; r0 += chunk) {
        const index_t r1 = std::min(rows, r0 + chunk);
        blocks.emplace_back([this, k, r0, r1, &dst] {
          for (std::size_t s = 0; s < sources_.size(); ++s) {
            Tensor<T> part = dst.select({Range{r0 * k + static_cast<index_t>(s), r1 * k, k}});
            part.assign(sources_[s].node()->leaf()->select({Range{r0, r1}}), seq);
          }
        });
      }
      run_blocks(blocks, dst.size(), parallel);
      return;
    }
    for (std::size_t s = 0; s < sources_.size(); ++s) {
      std::vector<Selector> rows(axis_, Selector(all));
      rows.emplace_back(Range{static_cast<index_t>(s), {}, k});
      blocks.emplace_back([this, s, parallel, part = dst.select(rows)]() mutable {
        sources_[s].node()->materialize_into(part, parallel);
      });
    }
    run_blocks(blocks, dst.size(), parallel);
  }
  /// The fast path for tensor sources and output whose rows are contiguous: one copy per
  /// output row, row i from source i mod k, in chunks of rows (parallel over chunks). False
  /// when some map's rows are not contiguous or some storage is not an array.
  bool copy_rows(Tensor<T>& dst, index_t rows, index_t row_size, index_t chunk,
                 bool parallel) const {
    const auto k = static_cast<index_t>(sources_.size());
    T* const out = dst.buffer().data();
    if (out == nullptr || !contiguous_rows(dst.dims()) || row_size == 0) {
      return false;
    }
    std::vector<const T*> first;  // row 0 of each source
    std::vector<index_t> stride;  // and its row stride
    for (const auto& s : sources_) {
      const Tensor<const T>& t = *s.node()->leaf();
      if (t.buffer().data() == nullptr || !contiguous_rows(t.dims())) {
        return false;
      }
      first.push_back(t.buffer().data() + t.dims().offset());
      stride.push_back(t.dims().axes()[0].stride);
    }
    T* const out0 = out + dst.dims().offset();
    const index_t out_stride = dst.dims().axes()[0].stride;
    std::vector<std::function<void()>> blocks;
    for (index_t r0 = 0; r0 < rows; r0 += chunk) {
      const index_t r1 = std::min(rows, r0 + chunk);
      blocks.emplace_back([=, &first, &stride] {
        for (index_t i = r0 * k; i < r1 * k; ++i) {
          const auto s = static_cast<std::size_t>(i % k);
          std::copy_n(first[s] + (i / k) * stride[s], row_size, out0 + i * out_stride);
        }
      });
    }
    run_blocks(blocks, dst.size(), parallel);
    return true;
  }
  [[nodiscard]] NodePtr<T> transposed(IndexSpan perm) const override {
    return std::make_shared<InterleaveNode>(permuted(sources_, perm), new_axis(perm, axis_));
  }
  [[nodiscard]] NodePtr<T> sliced(std::size_t axis, index_t start, index_t step, index_t count,
                                  bool drop) const override {
    if (axis != axis_) {
      return std::make_shared<InterleaveNode>(cut_each(sources_, axis, start, step, count, drop),
                                              axis_after_cut(axis_, axis, drop));
    }
    if (count == 0) {
      return sources_[0].slice_axis(axis_, 0, 1, 0, false).node();
    }
    // Positions start + j * step repeat their source with period p = k / gcd(|step|, k):
    // output row j = q p + t comes from one source, at rows that advance by step / g.
    const auto k = static_cast<index_t>(sources_.size());
    const index_t g = std::gcd(step < 0 ? -step : step, k);
    const index_t p = k / g;
    std::vector<Selection<T>> parts;
    for (index_t t = 0; t < std::min(p, count); ++t) {
      const index_t position = start + t * step;
      parts.push_back(sources_[static_cast<std::size_t>(position % k)].slice_axis(
          axis_, position / k, step / g, ceil_div(count - t, p), drop));
    }
    if (parts.size() == 1) {
      return parts[0].node();
    }
    return std::make_shared<InterleaveNode>(std::move(parts), static_cast<index_t>(axis_));
  }
  void explain(std::ostream& out, int depth) const override {
    out << indent(depth) << "interleave axis " << axis_ << " -> " << to_string(shape_) << "\n";
    for (const auto& s : sources_) {
      s.node()->explain(out, depth + 1);
    }
  }

 private:
  std::vector<Selection<T>> sources_;
  std::size_t axis_;
  Index shape_;
};

template <class T>
std::shared_ptr<const SelectionNode<T>> make_concat_node(std::vector<Selection<T>> sources,
                                                         index_t axis) {
  return std::make_shared<ConcatNode<T>>(std::move(sources), axis);
}

}  // namespace detail

/// Joins sources along an existing axis, as `numpy.concatenate(sources, axis)`; lazy.
/// @param axis the axis; negative counts from the end
/// @param sources selections or tensors of one rank whose other extents match
/// @return the selection
/// @throws ShapeError for no sources, different ranks or other extents; IndexError for an
///         axis that does not exist
template <class T>
Selection<T> concat(index_t axis, std::vector<Selection<T>> sources) {
  const index_t a = detail::check_stackable(sources, axis, "concat");
  return Selection<T>(std::make_shared<detail::ConcatNode<T>>(std::move(sources), a));
}

/// Interleaves sources of one shape along an axis: row i of the result is row i / k of source
/// i mod k, as `numpy.stack(sources, axis + 1).reshape(...)`; lazy.
/// @param axis the axis; negative counts from the end
/// @param sources selections or tensors of one shape
/// @return the selection
/// @throws ShapeError for no sources or different shapes; IndexError for an axis that does not
///         exist
template <class T>
Selection<T> interleave(index_t axis, std::vector<Selection<T>> sources) {
  const index_t a = detail::check_stackable(sources, axis, "interleave");
  const Index first = sources[0].shape();
  for (std::size_t s = 1; s < sources.size(); ++s) {
    if (sources[s].shape() != first) {
      detail::fail<ShapeError>("interleave", "source ", s, " has shape ",
                               to_string(sources[s].shape()), " but source 0 has shape ",
                               to_string(first), " (interleaved sources share one shape)");
    }
  }
  return Selection<T>(std::make_shared<detail::InterleaveNode<T>>(std::move(sources), a));
}

}  // namespace strata
