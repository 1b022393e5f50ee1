// Fuzzer (d): ZRange (intersection, contains, split, translate) and ZProjection (apply to points
// and boxes, overlap), compared with brute force over the points of small boxes; extreme
// coordinates must throw a strata::Error or give exact answers, never overflow.
#include "model.hpp"

#include <strata/strata.hpp>

#include <exception>
#include <limits>

namespace {

using fuzz::check;
using fuzz::I;
using strata::Index;
using strata::ZProjection;
using strata::ZRange;

I coordinate(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 20)) {
    case 0:
      return std::numeric_limits<I>::max() - in.ConsumeIntegralInRange<I>(0, 3);
    case 1:
      return std::numeric_limits<I>::min() + in.ConsumeIntegralInRange<I>(0, 3);
    case 2:
      return in.ConsumeIntegral<I>();
    default:
      return in.ConsumeIntegralInRange<I>(-4, 4);
  }
}

ZRange small_range(FuzzedDataProvider& in, std::size_t rank) {
  Index start(rank);
  Index shape(rank);
  for (std::size_t k = 0; k < rank; ++k) {
    start[k] = in.ConsumeIntegralInRange<I>(-4, 4);
    shape[k] = in.ConsumeIntegralInRange<I>(0, 3);
  }
  return ZRange::from_shape(start, shape);
}

void ranges(FuzzedDataProvider& in) {
  const auto rank = in.ConsumeIntegralInRange<std::size_t>(1, 3);
  const ZRange a = small_range(in, rank);
  const ZRange b = small_range(in, rank);
  const ZRange both = a.intersection(b);
  check(a.contains(both) || both.empty(), "intersection inside a");
  for (const Index& p : a.points()) {
    check(a.contains(p), "contains its points");
    check(both.contains(p) == b.contains(p), "intersection = points in both");
  }
  check(static_cast<I>(a.points().size()) == a.size(), "points");
  // split partitions the box along an axis, in order.
  const auto axis = in.ConsumeIntegralInRange<I>(0, static_cast<I>(rank) - 1);
  const I chunk = coordinate(in);
  try {
    const auto pieces = a.split(axis, chunk);
    check(chunk > 0, "split accepted chunk <= 0");
    I total = 0;
    I at = a.start()[static_cast<std::size_t>(axis)];
    for (const ZRange& piece : pieces) {
      check(a.contains(piece), "piece inside");
      check(piece.start()[static_cast<std::size_t>(axis)] == at, "pieces in order");
      at = piece.end()[static_cast<std::size_t>(axis)];
      total += piece.size();
    }
    check(total == a.size() || a.empty(), "pieces cover the box");
  } catch (const strata::ShapeError&) {
    check(chunk <= 0, "split rejected a positive chunk");
  }
  // A box near the ends of int64 splits into few pieces without overflowing.
  Index lo(rank, 0);
  Index hi(rank, 1);
  lo[static_cast<std::size_t>(axis)] = coordinate(in);
  hi[static_cast<std::size_t>(axis)] = std::numeric_limits<I>::max();
  I& first = lo[static_cast<std::size_t>(axis)];
  first = first <= 0 ? 1 : std::min(first, std::numeric_limits<I>::max() - 1);
  const ZRange wide(lo, hi);
  fuzz::trace() += "wide " + fuzz::text(std::vector<I>(lo.begin(), lo.end())) + " " +
                   fuzz::text(std::vector<I>(hi.begin(), hi.end())) + "\n";
  const I big = std::numeric_limits<I>::max() / 2 + in.ConsumeIntegralInRange<I>(0, 8);
  const auto pieces = wide.split(axis, big);
  check(pieces.size() <= 2 && !pieces.empty(), "wide split");
  check(pieces.back().end()[static_cast<std::size_t>(axis)] == std::numeric_limits<I>::max(),
        "wide split ends at the end");
  // translate by extreme deltas: exact or ShapeError.
  Index delta(rank);
  for (auto& d : delta) {
    d = coordinate(in);
  }
  try {
    const ZRange moved = a.translate(delta);
    for (std::size_t k = 0; k < rank; ++k) {
      check(moved.start()[k] - delta[k] == a.start()[k], "translate");
    }
  } catch (const strata::ShapeError&) {
  }
}

void projections(FuzzedDataProvider& in) {
  const auto index_rank = in.ConsumeIntegralInRange<std::size_t>(1, 2);
  const auto tensor_rank = in.ConsumeIntegralInRange<std::size_t>(1, 2);
  const bool extreme = in.ConsumeIntegralInRange<int>(0, 7) == 0;
  std::vector<Index> matrix(index_rank, Index(tensor_rank));
  for (auto& row : matrix) {
    for (auto& m : row) {
      m = extreme ? coordinate(in) : in.ConsumeIntegralInRange<I>(-2, 2);
    }
  }
  Index offset(tensor_rank);
  Index shape(tensor_rank);
  for (std::size_t k = 0; k < tensor_rank; ++k) {
    offset[k] = extreme ? coordinate(in) : in.ConsumeIntegralInRange<I>(-3, 3);
    shape[k] = in.ConsumeIntegralInRange<I>(0, 3);
  }
  const ZProjection p(matrix, offset, shape);
  const ZRange box = small_range(in, index_rank);
  // The exact region of the box: the bounding box of every point's region (exact arithmetic
  // in __int128, so the reference cannot overflow).
  using Wide = __int128;
  std::vector<Wide> lo(tensor_rank, 0);
  std::vector<Wide> hi(tensor_rank, 0);
  bool any = false;
  bool overflow = false;
  for (const Index& point : box.points()) {
    for (std::size_t j = 0; j < tensor_rank; ++j) {
      Wide start = offset[j];
      for (std::size_t i = 0; i < index_rank; ++i) {
        start += static_cast<Wide>(point[i]) * matrix[i][j];
      }
      const Wide end = start + shape[j];
      overflow =
          overflow || start < std::numeric_limits<I>::min() || end > std::numeric_limits<I>::max();
      lo[j] = any ? std::min(lo[j], start) : start;
      hi[j] = any ? std::max(hi[j], end) : end;
    }
    any = true;
  }
  bool has_cells = !box.empty();
  for (const I e : shape) {
    has_cells = has_cells && e > 0;
  }
  fuzz::trace() += "projection rows " + std::to_string(index_rank) + " offset " +
                   fuzz::text(std::vector<I>(offset.begin(), offset.end())) + " box " +
                   fuzz::text(std::vector<I>(box.start().begin(), box.start().end())) + "\n";
  try {
    const ZRange region = p.apply(box);
    check(!overflow || !has_cells, "apply gave a region whose coordinates overflow");
    if (has_cells) {
      for (std::size_t j = 0; j < tensor_rank; ++j) {
        check(region.start()[j] == lo[j] && region.end()[j] == hi[j], "apply(box)");
      }
    } else {
      check(region.empty(), "apply of an empty box or empty regions is empty");
    }
    if (has_cells) {
      for (const Index& point : box.points()) {
        check(region.contains(p.apply(point)), "each point's region inside the box's");
      }
    }
  } catch (const strata::ShapeError& e) {
    if (!overflow || !has_cells) {
      std::fprintf(stderr, "%s\n", e.what());
    }
    check(overflow && has_cells, "apply rejected a box whose region fits");
  }
  try {
    const ZRange shared = p.overlap(in.ConsumeIntegralInRange<I>(0, static_cast<I>(index_rank) - 1),
                                    in.ConsumeIntegralInRange<I>(1, 3));
    (void)shared;
  } catch (const strata::ShapeError&) {
    check(extreme, "overlap failed on small coefficients");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  fuzz::trace().clear();
  try {
    if (in.ConsumeBool()) {
      ranges(in);
    } else {
      projections(in);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception: %s\n", e.what());
    check(false, "an unexpected exception");
  }
  return 0;
}
