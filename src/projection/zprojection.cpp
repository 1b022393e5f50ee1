// ZProjection: applying integer affine projections to points and boxes; overlaps; costs.
#include "strata/projection/zprojection.hpp"

#include "strata/core/checked.hpp"
#include "strata/core/error.hpp"

#include <algorithm>
#include <limits>
#include <ostream>

namespace strata {
namespace {

// 128-bit intermediates (a GCC and clang extension on 64-bit targets): sums of products of
// int64 values whose result fits although a partial sum or product does not.
__extension__ using Wide = __int128;

/// The value as index_t, or ShapeError naming what overflowed.
index_t narrow(Wide value, std::string_view operation, const char* what, std::size_t axis) {
  if (value < Wide{std::numeric_limits<index_t>::min()} ||
      value > Wide{std::numeric_limits<index_t>::max()}) {
    detail::fail<ShapeError>(operation, what, axis, " does not fit in int64 (size overflow)");
  }
  return static_cast<index_t>(value);
}

}  // namespace

ZProjection::ZProjection(std::vector<Index> matrix, IndexSpan offset, IndexSpan shape)
    : matrix_(std::move(matrix)), offset_(offset), shape_(shape) {
  if (offset.size() != shape.size()) {
    detail::fail<ShapeError>("ZProjection", "offset ", to_string(offset), " and shape ",
                             to_string(shape), " have different lengths");
  }
  for (std::size_t i = 0; i < matrix_.size(); ++i) {
    if (matrix_[i].size() != offset.size()) {
      detail::fail<ShapeError>("ZProjection", "matrix row ", i, " ", to_string(matrix_[i]), " has ",
                               matrix_[i].size(), " columns but the tensor rank is ",
                               offset.size());
    }
  }
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] < 0) {
      detail::fail<ShapeError>("ZProjection", "shape ", to_string(shape), " has negative extent ",
                               shape[k], " on axis ", k);
    }
  }
}

ZRange ZProjection::apply(IndexSpan point) const {
  if (std::cmp_not_equal(point.size(), index_rank())) {
    detail::fail<ShapeError>("apply", "point ", to_string(point), " has ", point.size(),
                             " coordinates but the index rank is ", index_rank());
  }
  Index start(offset_.size());
  for (std::size_t j = 0; j < start.size(); ++j) {
    Wide sum = offset_[j];
    for (std::size_t i = 0; i < matrix_.size(); ++i) {
      sum += Wide{point[i]} * matrix_[i][j];
    }
    start[j] = narrow(sum, "apply", "region start on tensor axis ", j);
  }
  return ZRange::from_shape(start, shape_);
}

ZRange ZProjection::apply(const ZRange& range) const {
  if (range.rank() != index_rank()) {
    detail::fail<ShapeError>("apply", "range ", range, " has rank ", range.rank(),
                             " but the index rank is ", index_rank());
  }
  // An empty box, or regions with no cells, bound nothing: an empty region.
  if (range.empty() || std::find(shape_.begin(), shape_.end(), 0) != shape_.end()) {
    try {
      const ZRange first = apply(range.start());
      return {first.start(), first.start()};
    } catch (const ShapeError&) {
      return {offset_, offset_};  // the start of an empty box need not be a point that maps
    }
  }
  // Exact in 128 bits: a corner may overflow int64 on the way although the region fits.
  Index lo(offset_.size());
  Index hi(offset_.size());
  for (std::size_t j = 0; j < lo.size(); ++j) {
    Wide low = offset_[j];
    Wide high = offset_[j];
    for (std::size_t i = 0; i < matrix_.size(); ++i) {
      const Wide a = Wide{range.start()[i]} * matrix_[i][j];
      const Wide b = Wide{range.end()[i] - 1} * matrix_[i][j];
      low += std::min(a, b);
      high += std::max(a, b);
    }
    lo[j] = narrow(low, "apply", "region start on tensor axis ", j);
    hi[j] = narrow(high + shape_[j], "apply", "region end on tensor axis ", j);
  }
  return {lo, hi};
}

ZRange ZProjection::broadcast_apply(IndexSpan point, index_t batch) const {
  if (batch < 0 || std::cmp_greater(batch, point.size()) ||
      std::cmp_not_equal(point.size() - static_cast<std::size_t>(batch), index_rank())) {
    detail::fail<ShapeError>("broadcast_apply", "point ", to_string(point), " has ", point.size(),
                             " coordinates, not ", batch, " batch + ", index_rank(),
                             " index coordinates");
  }
  const auto b = static_cast<std::size_t>(batch);
  const ZRange inner = apply(point.subspan(b));
  Index start(point.begin(), point.begin() + static_cast<std::ptrdiff_t>(b));
  Index end = start;
  for (auto& e : end) {
    e = checked_add(e, 1, "broadcast_apply");
  }
  start.insert(start.end(), inner.start().begin(), inner.start().end());
  end.insert(end.end(), inner.end().begin(), inner.end().end());
  return {start, end};
}

ZRange ZProjection::broadcast_apply(const ZRange& range, index_t batch) const {
  if (batch < 0 || batch > range.rank() || range.rank() - batch != index_rank()) {
    detail::fail<ShapeError>("broadcast_apply", "range ", range, " has rank ", range.rank(),
                             ", not ", batch, " batch + ", index_rank(), " index coordinates");
  }
  const auto b = static_cast<std::size_t>(batch);
  const ZRange inner = apply(ZRange(std::span<const index_t>(range.start()).subspan(b),
                                    std::span<const index_t>(range.end()).subspan(b)));
  Index start(range.start().begin(), range.start().begin() + static_cast<std::ptrdiff_t>(b));
  Index end(range.end().begin(), range.end().begin() + static_cast<std::ptrdiff_t>(b));
  start.insert(start.end(), inner.start().begin(), inner.start().end());
  end.insert(end.end(), inner.end().begin(), inner.end().end());
  return {start, end};
}

ZProjection ZProjection::translate(IndexSpan delta) const {
  if (std::cmp_not_equal(delta.size(), tensor_rank())) {
    detail::fail<ShapeError>("translate", "delta ", to_string(delta), " has ", delta.size(),
                             " entries but the tensor rank is ", tensor_rank());
  }
  Index moved = offset_;
  for (std::size_t j = 0; j < moved.size(); ++j) {
    moved[j] = checked_add(moved[j], delta[j], "translate");
  }
  return {matrix_, moved, shape_};
}

ZRange ZProjection::overlap(index_t axis, index_t block) const {
  const int n = index_rank();
  if (axis < -n || axis >= n) {
    detail::fail<IndexError>("overlap", "index axis ", axis, " does not exist (index rank ", n,
                             ")");
  }
  if (block <= 0) {
    detail::fail<ShapeError>("overlap", "block ", block, " must be > 0");
  }
  const auto k = static_cast<std::size_t>(axis < 0 ? axis + n : axis);
  Index start(static_cast<std::size_t>(n), 0);
  Index end(static_cast<std::size_t>(n), 1);
  end[k] = block;
  const ZRange first = apply(ZRange(start, end));
  start[k] = block;
  end[k] = checked_mul(2, block, "overlap");
  const ZRange second = apply(ZRange(start, end));
  return first.intersection(second);
}

std::ostream& operator<<(std::ostream& out, const ZProjection& p) {
  out << "{matrix [";
  for (std::size_t i = 0; i < p.matrix_.size(); ++i) {
    out << (i == 0 ? "" : " ") << to_string(p.matrix_[i]);
  }
  return out << "] offset " << to_string(p.offset_) << " shape " << to_string(p.shape_) << "}";
}

double ZCost::estimate(const ZRange& range) const {
  if (!per_axis.empty() && std::cmp_not_equal(per_axis.size(), range.rank())) {
    detail::fail<ShapeError>("estimate", "the cost has ", per_axis.size(),
                             " per-axis factors but the range ", range, " has rank ", range.rank());
  }
  if (range.empty()) {
    return 0.0;
  }
  double cost = per_point * static_cast<double>(range.size());
  const Index extents = range.shape();
  for (std::size_t i = 0; i < per_axis.size(); ++i) {
    cost += per_axis[i] * static_cast<double>(extents[i]);
  }
  return cost;
}

}  // namespace strata
