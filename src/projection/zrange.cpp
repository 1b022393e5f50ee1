// ZRange: construction, set operations, splitting, iteration and printing.
#include "strata/projection/zrange.hpp"

#include "strata/core/checked.hpp"
#include "strata/core/error.hpp"

#include <algorithm>
#include <optional>
#include <ostream>
#include <sstream>

namespace strata {

ZRange::ZRange(IndexSpan start, IndexSpan end) : start_(start), end_(end) {
  if (start.size() != end.size()) {
    detail::fail<ShapeError>("ZRange", "start ", to_string(start), " and end ", to_string(end),
                             " have different ranks");
  }
  for (std::size_t k = 0; k < start.size(); ++k) {
    if (end[k] < start[k]) {
      detail::fail<ShapeError>("ZRange", "end ", to_string(end), " is before start ",
                               to_string(start), " on axis ", k, " (negative region shape)");
    }
  }
}

ZRange ZRange::from_shape(IndexSpan start, IndexSpan shape) {
  if (start.size() != shape.size()) {
    detail::fail<ShapeError>("ZRange", "start ", to_string(start), " and shape ", to_string(shape),
                             " have different ranks");
  }
  Index end(start.size());
  for (std::size_t k = 0; k < start.size(); ++k) {
    if (shape[k] < 0) {
      detail::fail<ShapeError>("ZRange", "shape ", to_string(shape), " has negative extent ",
                               shape[k], " on axis ", k);
    }
    end[k] = checked_add(start[k], shape[k], "ZRange");
  }
  return {start, end};
}

ZRange ZRange::bounding(const std::vector<ZRange>& ranges) {
  if (ranges.empty()) {
    detail::fail<ShapeError>("bounding", "no ranges given");
  }
  const std::size_t rank = ranges[0].start_.size();
  std::optional<ZRange> box;
  for (const ZRange& r : ranges) {
    r.same_rank(rank, "bounding");
    if (r.empty()) {
      continue;
    }
    if (!box) {
      box = r;
      continue;
    }
    for (std::size_t k = 0; k < rank; ++k) {
      box->start_[k] = std::min(box->start_[k], r.start_[k]);
      box->end_[k] = std::max(box->end_[k], r.end_[k]);
    }
  }
  return box ? *box : ZRange(ranges[0].start_, ranges[0].start_);
}

void ZRange::same_rank(std::size_t rank, std::string_view operation) const {
  if (start_.size() != rank) {
    detail::fail<ShapeError>(operation, "rank ", rank, " does not match the range ", *this,
                             " of rank ", start_.size());
  }
}

Index ZRange::shape() const {
  Index out(start_.size());
  for (std::size_t k = 0; k < out.size(); ++k) {
    out[k] = end_[k] - start_[k];
  }
  return out;
}

index_t ZRange::size() const {
  return checked_size(shape(), "ZRange::size");
}

bool ZRange::empty() const {
  for (std::size_t k = 0; k < start_.size(); ++k) {
    if (end_[k] == start_[k]) {
      return true;
    }
  }
  return false;
}

bool ZRange::contains(IndexSpan point) const {
  same_rank(point.size(), "contains");
  for (std::size_t k = 0; k < point.size(); ++k) {
    if (point[k] < start_[k] || point[k] >= end_[k]) {
      return false;
    }
  }
  return true;
}

bool ZRange::contains(const ZRange& other) const {
  same_rank(other.start_.size(), "contains");
  for (std::size_t k = 0; k < start_.size(); ++k) {
    if (other.start_[k] < start_[k] || other.end_[k] > end_[k]) {
      return false;
    }
  }
  return true;
}

ZRange ZRange::intersection(const ZRange& other) const {
  same_rank(other.start_.size(), "intersection");
  Index lo(start_.size());
  Index hi(start_.size());
  for (std::size_t k = 0; k < lo.size(); ++k) {
    lo[k] = std::max(start_[k], other.start_[k]);
    hi[k] = std::max(lo[k], std::min(end_[k], other.end_[k]));
  }
  return {lo, hi};
}

ZRange ZRange::translate(IndexSpan delta) const {
  same_rank(delta.size(), "translate");
  Index lo(start_);
  Index hi(end_);
  for (std::size_t k = 0; k < lo.size(); ++k) {
    lo[k] = checked_add(lo[k], delta[k], "translate");
    hi[k] = checked_add(hi[k], delta[k], "translate");
  }
  return {lo, hi};
}

std::vector<ZRange> ZRange::split(index_t axis, index_t chunk) const {
  const int r = rank();
  if (axis < -r || axis >= r) {
    detail::fail<IndexError>("split", "axis ", axis, " does not exist (rank ", r, ")");
  }
  if (chunk <= 0) {
    detail::fail<ShapeError>("split", "chunk ", chunk, " must be > 0");
  }
  const auto k = static_cast<std::size_t>(axis < 0 ? axis + r : axis);
  // Counted, not stepped: `at + chunk` may overflow near INT64_MAX.
  const index_t length = end_[k] - start_[k];
  const index_t pieces = length / chunk + (length % chunk != 0 ? 1 : 0);
  std::vector<ZRange> out;
  out.reserve(static_cast<std::size_t>(pieces));
  for (index_t i = 0; i < pieces; ++i) {
    ZRange piece = *this;
    piece.start_[k] = start_[k] + i * chunk;
    piece.end_[k] = i + 1 < pieces ? piece.start_[k] + chunk : end_[k];
    out.push_back(piece);
  }
  return out;
}

std::vector<ZPoint> ZRange::points() const {
  std::vector<ZPoint> out;
  if (empty()) {
    return out;
  }
  ZPoint p = start_;
  while (true) {
    out.push_back(p);
    std::size_t k = p.size();
    while (k > 0) {
      --k;
      if (++p[k] < end_[k]) {
        break;
      }
      p[k] = start_[k];
      if (k == 0) {
        return out;
      }
    }
    if (p.empty()) {
      return out;
    }
  }
}

std::ostream& operator<<(std::ostream& out, const ZRange& r) {
  out << '[';
  for (std::size_t k = 0; k < r.start_.size(); ++k) {
    out << (k == 0 ? "" : ", ") << r.start_[k] << ':' << r.end_[k];
  }
  return out << ']';
}

std::string to_string(const ZRange& r) {
  std::ostringstream out;
  out << r;
  return out.str();
}

}  // namespace strata
