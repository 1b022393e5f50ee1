// Dimensions: construction, view operations, addressing, reduction and printing.
#include "strata/layout/dimensions.hpp"

#include "strata/core/checked.hpp"
#include "strata/core/error.hpp"

#include <algorithm>
#include <memory>
#include <numeric>
#include <optional>
#include <ostream>
#include <sstream>
#include <utility>

namespace strata {
namespace {

/// Mathematical modulus: the result is in [0, n) for n > 0.
index_t mod(index_t a, index_t n) {
  const index_t r = a % n;
  return r < 0 ? r + n : r;
}

std::shared_ptr<const IndexArray> make_indices(std::vector<index_t> values) {
  return std::make_shared<const IndexArray>(std::move(values));
}

/// Resolves a possibly negative axis number.
index_t resolve_axis(index_t axis, int rank, std::string_view operation) {
  if (axis < -rank || axis >= rank) {
    detail::fail<IndexError>(operation, "axis ", axis, " does not exist (rank ", rank,
                             ", valid axes [", -rank, ", ", rank, "))");
  }
  return axis < 0 ? axis + rank : axis;
}

/// An equivalent index-array axis with no modulus: entry g is the value global index g reads.
Axis materialised(const Axis& a) {
  std::vector<index_t> values(static_cast<std::size_t>(a.extent));
  for (index_t g = 0; g < a.extent; ++g) {
    values[static_cast<std::size_t>(g)] = a.value(a.position(g));
  }
  return Axis{a.extent, a.stride, a.extent, 0, make_indices(std::move(values))};
}

/// Puts an axis in canonical form without changing the addresses it produces: empty axes are
/// direct, constant axes are direct with stride 0, and axes that neither wrap nor tile have
/// rotation 0 and cycle == extent (their start folded into the offset or the index array).
void normalise(Axis& a, index_t& offset) {
  if (a.extent == 0) {
    a.indices.reset();
    a.cycle = 0;
    a.rotation = 0;
    return;
  }
  if (a.cycle == 1 || a.stride == 0) {
    // Every global index reads the same address: fold it into the offset. An axis of extent 1
    // keeps its stride (so row-major strides print as NumPy's), a longer one gets stride 0.
    offset += a.value(a.position(0)) * a.stride;
    a.indices.reset();
    a.stride = a.extent > 1 ? 0 : a.stride;
    a.cycle = a.extent;
    a.rotation = 0;
    return;
  }
  if (a.rotation + a.extent <= a.cycle && a.is_cyclic()) {
    // A contiguous window of the cycle: no modulus needed.
    if (a.indices) {
      const auto values = a.indices->values().subspan(static_cast<std::size_t>(a.rotation),
                                                      static_cast<std::size_t>(a.extent));
      a.indices = make_indices(std::vector<index_t>(values.begin(), values.end()));
    } else {
      offset += a.rotation * a.stride;
    }
    a.cycle = a.extent;
    a.rotation = 0;
  }
}

/// Reverses the positions within the cycle: position p becomes cycle-1-p.
void flip_cycle(Axis& a, index_t& offset) {
  if (a.indices) {
    const auto values = a.indices->values();
    a.indices = make_indices(std::vector<index_t>(values.rbegin(), values.rend()));
  } else {
    offset += (a.cycle - 1) * a.stride;
    a.stride = -a.stride;
  }
}

/// Axis `a` read at global indices start, start+step, ... (m of them, all valid).
Axis sliced(const Axis& a, index_t start, index_t step, index_t m, index_t& offset) {
  if (m == 0) {
    return Axis{0, a.stride, 0, 0, nullptr};
  }
  if (m == 1) {
    offset += a.contribution(start);
    return Axis{1, a.stride, 1, 0, nullptr};
  }
  if (!a.is_cyclic()) {
    if (!a.indices) {
      offset += start * a.stride;
      return Axis{m, step * a.stride, m, 0, nullptr};
    }
    std::vector<index_t> values(static_cast<std::size_t>(m));
    for (index_t j = 0; j < m; ++j) {
      values[static_cast<std::size_t>(j)] = (*a.indices)[start + j * step];
    }
    return Axis{m, a.stride, m, 0, make_indices(std::move(values))};
  }
  // Cyclic: positions p_j = (p0 + j * step) mod n.
  const index_t n = a.cycle;
  const index_t p0 = a.position(start);
  const index_t q = mod(step, n);
  Axis out = a;
  out.extent = m;
  if (q == 0) {
    offset += a.value(p0) * a.stride;
    return Axis{m, 0, m, 0, nullptr};
  }
  if (q == 1) {
    out.rotation = p0;
  } else if (q == n - 1) {
    flip_cycle(out, offset);
    out.rotation = n - 1 - p0;
  } else {
    for (const index_t qq : {q, q - n}) {
      const index_t last = p0 + (m - 1) * qq;
      if (last >= 0 && last < n) {
        if (!a.indices) {
          offset += p0 * a.stride;
          return Axis{m, qq * a.stride, m, 0, nullptr};
        }
        std::vector<index_t> values(static_cast<std::size_t>(m));
        for (index_t j = 0; j < m; ++j) {
          values[static_cast<std::size_t>(j)] = (*a.indices)[p0 + j * qq];
        }
        return Axis{m, a.stride, m, 0, make_indices(std::move(values))};
      }
    }
    std::vector<index_t> values(static_cast<std::size_t>(m));
    for (index_t j = 0; j < m; ++j) {
      values[static_cast<std::size_t>(j)] = a.value(a.position(start + j * step));
    }
    return Axis{m, a.stride, m, 0, make_indices(std::move(values))};
  }
  normalise(out, offset);
  return out;
}

/// Splits one axis into row-major axes of the given extents (their product is its extent).
std::optional<std::vector<Axis>> split(const Axis& a, std::span<const index_t> extents) {
  if (extents.size() == 1) {
    return std::vector<Axis>{a};
  }
  if (a.indices) {
    return std::nullopt;
  }
  std::vector<Axis> out(extents.size());
  index_t inner = 1;  // product of the extents after axis k
  for (std::size_t k = extents.size(); k-- > 1;) {
    out[k] = Axis{extents[k], a.stride * inner, extents[k], 0, nullptr};
    inner *= extents[k];
  }
  if (a.is_cyclic() && (a.cycle % inner != 0 || a.rotation % inner != 0)) {
    return std::nullopt;
  }
  out[0] = Axis{extents[0], a.stride * inner, a.is_cyclic() ? a.cycle / inner : extents[0],
                a.rotation / inner, nullptr};
  return out;
}

/// The lowest and highest address a map of these axes reads (see Dimensions::address_range),
/// computed with overflow checks; the distance between them must fit in int64 too, so that
/// every difference of two addresses (and of an address and the offset) is representable.
std::pair<index_t, index_t> address_bounds(std::span<const Axis> axes, index_t offset, index_t size,
                                           std::string_view operation) {
  index_t lo = offset;
  index_t hi = offset;
  if (size == 0) {
    return {lo, hi};
  }
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const Axis& a = axes[k];
    const index_t vmin = a.indices ? a.indices->min() : 0;
    const index_t vmax = a.indices ? a.indices->max() : a.cycle - 1;
    index_t x = 0;
    index_t y = 0;
    if (__builtin_mul_overflow(vmin, a.stride, &x) || __builtin_mul_overflow(vmax, a.stride, &y) ||
        __builtin_add_overflow(lo, std::min(x, y), &lo) ||
        __builtin_add_overflow(hi, std::max(x, y), &hi)) {
      detail::fail<ShapeError>(operation, "the addresses of axis ", k, " (stride ", a.stride,
                               ", values up to ", vmax, ") with offset ", offset,
                               " overflow int64");
    }
  }
  index_t span = 0;
  if (__builtin_sub_overflow(hi, lo, &span)) {
    detail::fail<ShapeError>(operation, "the addresses span [", lo, ", ", hi,
                             "], more than int64 can count");
  }
  return {lo, hi};
}

/// Whether two global indices of @p d may read one address (Dimensions::aliases).
bool may_alias(const Dimensions& d) {
  if (d.size() <= 1) {
    return false;  // no two indices to share an address
  }
  struct Reach {
    index_t step;  // the smallest distance between two addresses the axis adds
    index_t span;  // the largest
  };
  boost::container::small_vector<Reach, 6> reach;
  for (const Axis& a : d.axes()) {
    if (a.extent <= 1) {
      continue;
    }
    if (a.stride == 0 || a.extent > a.cycle || (a.indices && a.indices->min_gap() == 0)) {
      return true;
    }
    // address_bounds checked that every reach fits: |stride| * (max value - min value) <= span.
    const index_t s = a.stride < 0 ? -a.stride : a.stride;
    if (a.indices) {
      reach.push_back({s * a.indices->min_gap(), s * (a.indices->max() - a.indices->min())});
    } else {
      reach.push_back({s, s * (a.cycle - 1)});
    }
  }
  std::sort(reach.begin(), reach.end(),
            [](const Reach& x, const Reach& y) { return x.step < y.step; });
  // Axes nest when each step clears everything the finer axes can add: then every index has
  // its own address.
  index_t covered = 0;
  bool nested = true;
  for (const Reach& r : reach) {
    if (r.step <= covered) {
      nested = false;
      break;
    }
    covered += r.span;
  }
  if (nested) {
    return false;
  }
  // Interleaved axes (only maps built from parts): decide by listing the addresses when few.
  constexpr index_t exact_limit = index_t{1} << 16;
  if (d.size() > exact_limit) {
    return true;
  }
  std::vector<index_t> addresses(static_cast<std::size_t>(d.size()));
  for (index_t i = 0; i < d.size(); ++i) {
    addresses[static_cast<std::size_t>(i)] = d.global_to_local(i);
  }
  std::sort(addresses.begin(), addresses.end());
  return std::adjacent_find(addresses.begin(), addresses.end()) != addresses.end();
}
}  // namespace

// ---- construction ----------------------------------------------------------------------------

Dimensions::Dimensions(Axes axes, index_t offset) : axes_(std::move(axes)), offset_(offset) {
  Index extents;
  for (Axis& a : axes_) {
    normalise(a, offset_);
    extents.push_back(a.extent);
  }
  size_ = checked_size(extents, "Dimensions");
  (void)address_bounds(std::span<const Axis>(axes_.data(), axes_.size()), offset_, size_,
                       "Dimensions");
  aliases_ = may_alias(*this);
  strided_ = std::all_of(axes_.begin(), axes_.end(), [](const Axis& a) { return a.is_plain(); });
}

Dimensions::Dimensions(std::initializer_list<index_t> shape) : Dimensions(IndexSpan(shape)) {}

Dimensions::Dimensions(IndexSpan shape) {
  size_ = checked_size(shape, "Dimensions");
  axes_.resize(shape.size());
  index_t stride = 1;
  for (std::size_t k = shape.size(); k-- > 0;) {
    axes_[k] = Axis{shape[k], stride, shape[k], 0, nullptr};
    stride *= std::max<index_t>(shape[k], 1);
  }
}

Dimensions::Dimensions(IndexSpan shape, IndexSpan strides, index_t offset) : offset_(offset) {
  if (shape.size() != strides.size()) {
    detail::fail<ShapeError>("Dimensions", "shape ", to_string(shape), " has ", shape.size(),
                             " axes but strides ", to_string(strides), " has ", strides.size());
  }
  size_ = checked_size(shape, "Dimensions");
  for (std::size_t k = 0; k < shape.size(); ++k) {
    axes_.push_back(Axis{shape[k], strides[k], shape[k], 0, nullptr});
  }
  (void)address_bounds(std::span<const Axis>(axes_.data(), axes_.size()), offset_, size_,
                       "Dimensions");
  aliases_ = may_alias(*this);
  strided_ = std::all_of(axes_.begin(), axes_.end(), [](const Axis& a) { return a.is_plain(); });
}

Dimensions Dimensions::from_axes(std::span<const Axis> axes, index_t offset) {
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const Axis& a = axes[k];
    const char* problem = nullptr;
    if (a.extent < 0) {
      problem = "a negative extent";
    } else if (a.cycle < 0 || (a.extent > 0 && a.cycle == 0)) {
      problem = "a cycle that is negative, or 0 for a non-empty axis";
    } else if (a.cycle > 0 && (a.rotation < 0 || a.rotation >= a.cycle)) {
      problem = "a rotation outside [0, cycle)";
    } else if (a.indices && a.indices->size() != a.cycle) {
      problem = "an index array whose length is not the cycle";
    }
    if (problem != nullptr) {
      detail::fail<ShapeError>("Dimensions::from_axes", "axis ", k, " (extent ", a.extent,
                               ", cycle ", a.cycle, ", rotation ", a.rotation, ") has ", problem);
    }
  }
  Index extents;
  for (const Axis& a : axes) {
    extents.push_back(a.extent);
  }
  (void)address_bounds(axes, offset, checked_size(extents, "Dimensions::from_axes"),
                       "Dimensions::from_axes");
  return Dimensions(Axes(axes.begin(), axes.end()), offset);
}

// ---- what it is ------------------------------------------------------------------------------

Index Dimensions::shape() const {
  Index out;
  for (const Axis& a : axes_) {
    out.push_back(a.extent);
  }
  return out;
}

Index Dimensions::strides() const {
  Index out;
  for (const Axis& a : axes_) {
    out.push_back(a.stride);
  }
  return out;
}

const Axis& Dimensions::axis(index_t k) const {
  return axes_[static_cast<std::size_t>(resolve_axis(k, rank(), "axis"))];
}

// ---- views -----------------------------------------------------------------------------------

Dimensions Dimensions::select(std::initializer_list<Selector> selectors) const {
  return select(std::span<const Selector>(selectors.begin(), selectors.size()));
}

Dimensions Dimensions::select(std::span<const Selector> selectors) const {
  constexpr std::string_view op = "select";
  if (std::cmp_greater(selectors.size(), rank())) {
    detail::fail<IndexError>(op, selectors.size(), " selectors given for a map of rank ", rank(),
                             " (shape ", to_string(shape()), ")");
  }
  Axes out;
  index_t offset = offset_;
  for (std::size_t k = 0; k < axes_.size(); ++k) {
    const Axis& a = axes_[k];
    if (k >= selectors.size()) {
      out.push_back(a);
      continue;
    }
    const index_t n = a.extent;
    const auto& sel = selectors[k].value();
    if (const auto* i = std::get_if<index_t>(&sel)) {
      if (*i < -n || *i >= n) {
        detail::fail<IndexError>(op, "index ", *i, " is out of bounds for axis ", k, " of extent ",
                                 n, " (valid: [", -n, ", ", n, "))");
      }
      offset += a.contribution(*i < 0 ? *i + n : *i);
    } else if (std::holds_alternative<All>(sel)) {
      out.push_back(a);
    } else if (const auto* r = std::get_if<Range>(&sel)) {
      const index_t step = r->step;
      if (step == 0) {
        detail::fail<IndexError>(op, "slice step 0 on axis ", k, " (the step must be non-zero)");
      }
      // NumPy's PySlice_AdjustIndices.
      const auto adjust = [n, step](std::optional<index_t> bound, index_t omitted) {
        if (!bound) {
          return omitted;
        }
        index_t b = *bound;
        if (b < 0) {
          b += n;
          if (b < 0) {
            b = step < 0 ? -1 : 0;
          }
        } else if (b >= n) {
          b = step < 0 ? n - 1 : n;
        }
        return b;
      };
      const index_t start = adjust(r->start, step < 0 ? n - 1 : 0);
      const index_t stop = adjust(r->stop, step < 0 ? -1 : n);
      index_t count = 0;
      if (step > 0 && stop > start) {
        count = (stop - start - 1) / step + 1;
      } else if (step < 0 && stop < start) {
        count = -((start - stop - 1) / step) + 1;  // not / -step: step may be INT64_MIN
      }
      out.push_back(sliced(a, start, step, count, offset));
    } else {
      const auto& entries = std::get<std::vector<index_t>>(sel);
      std::vector<index_t> values(entries.size());
      for (std::size_t j = 0; j < entries.size(); ++j) {
        const index_t e = entries[j];
        if (e < 0 || e >= n) {
          detail::fail<IndexError>(op, "index-array entry ", e, " at position ", j,
                                   " is out of bounds for axis ", k, " of extent ", n,
                                   " (valid: [0, ", n, "))");
        }
        values[j] = a.value(a.position(e));
      }
      const auto m = static_cast<index_t>(values.size());
      out.push_back(Axis{m, a.stride, m, 0, make_indices(std::move(values))});
    }
  }
  return Dimensions(std::move(out), offset);
}

Dimensions Dimensions::transpose(IndexSpan permutation) const {
  constexpr std::string_view op = "transpose";
  if (std::cmp_not_equal(permutation.size(), rank())) {
    detail::fail<ShapeError>(op, "permutation ", to_string(permutation), " has ",
                             permutation.size(), " entries for rank ", rank());
  }
  std::vector<bool> seen(axes_.size(), false);
  Axes out;
  for (const index_t entry : permutation) {
    if (entry < -rank() || entry >= rank()) {
      detail::fail<ShapeError>(op, "permutation ", to_string(permutation), " names axis ", entry,
                               ", which does not exist (rank ", rank(), ")");
    }
    const auto k = static_cast<std::size_t>(entry < 0 ? entry + rank() : entry);
    if (seen[k]) {
      detail::fail<ShapeError>(op, "permutation ", to_string(permutation), " repeats axis ", k,
                               " (rank ", rank(), ")");
    }
    seen[k] = true;
    out.push_back(axes_[k]);
  }
  return Dimensions(std::move(out), offset_);
}

Dimensions Dimensions::transpose() const {
  return Dimensions(Axes(axes_.rbegin(), axes_.rend()), offset_);
}

Dimensions Dimensions::broadcast(IndexSpan shape) const {
  constexpr std::string_view op = "broadcast";
  if (std::cmp_less(shape.size(), rank())) {
    detail::fail<BroadcastError>(op, "target shape ", to_string(shape), " has fewer axes (",
                                 shape.size(), ") than the map (rank ", rank(), ", shape ",
                                 to_string(this->shape()), ")");
  }
  (void)checked_size(shape, op);
  const std::size_t lead = shape.size() - axes_.size();
  Axes out;
  for (std::size_t k = 0; k < lead; ++k) {
    out.push_back(Axis{shape[k], 0, shape[k], 0, nullptr});
  }
  for (std::size_t k = 0; k < axes_.size(); ++k) {
    const Axis& a = axes_[k];
    const index_t target = shape[lead + k];
    if (target == a.extent) {
      out.push_back(a);
    } else if (target == 0 && a.extent <= 1) {
      out.push_back(Axis{0, a.stride, 0, 0, nullptr});
    } else if (a.extent == 0 || target == 0 || target % a.extent != 0) {
      detail::fail<BroadcastError>(op, "cannot broadcast axis ", k, " of extent ", a.extent, " to ",
                                   target, " (target shape ", to_string(shape),
                                   "; an extent may only grow to a multiple of itself)");
    } else {
      Axis tiled = a.extent % a.cycle == 0 ? a : materialised(a);
      tiled.extent = target;
      out.push_back(tiled);
    }
  }
  return Dimensions(std::move(out), offset_);
}

Dimensions Dimensions::rotate(IndexSpan shifts) const {
  if (std::cmp_not_equal(shifts.size(), rank())) {
    detail::fail<ShapeError>("rotate", "shifts ", to_string(shifts), " has ", shifts.size(),
                             " entries for a map of rank ", rank(), " (one shift per axis)");
  }
  Axes out = axes_;
  for (std::size_t k = 0; k < out.size(); ++k) {
    Axis& a = out[k];
    if (a.extent == 0 || shifts[k] == 0) {
      continue;
    }
    if (a.extent % a.cycle != 0) {
      a = materialised(a);
    }
    a.rotation = mod(a.rotation - mod(shifts[k], a.cycle), a.cycle);
  }
  return Dimensions(std::move(out), offset_);
}

Dimensions Dimensions::rotate(index_t shift, index_t axis) const {
  const auto k = static_cast<std::size_t>(resolve_axis(axis, rank(), "rotate"));
  Index shifts(axes_.size(), 0);
  shifts[k] = shift;
  return rotate(shifts);
}

Dimensions Dimensions::reverse(IndexSpan axes) const {
  std::vector<bool> flip(axes_.size(), false);
  for (const index_t axis : axes) {
    const auto k = static_cast<std::size_t>(resolve_axis(axis, rank(), "reverse"));
    if (flip[k]) {
      detail::fail<ShapeError>("reverse", "axes ", to_string(axes), " name axis ", k, " twice");
    }
    flip[k] = true;
  }
  Axes out = axes_;
  index_t offset = offset_;
  for (std::size_t k = 0; k < out.size(); ++k) {
    Axis& a = out[k];
    if (!flip[k] || a.extent <= 1) {
      continue;
    }
    // Global index g reads what L-1-g read: flip the cycle and move the rotation.
    a.rotation = mod(-a.extent - a.rotation, a.cycle);
    flip_cycle(a, offset);
  }
  return Dimensions(std::move(out), offset);
}

Dimensions Dimensions::reverse() const {
  Index every(axes_.size());
  std::iota(every.begin(), every.end(), index_t{0});
  return reverse(every);
}

Dimensions Dimensions::squeeze(IndexSpan axes) const {
  std::vector<bool> drop(axes_.size(), false);
  for (const index_t axis : axes) {
    const auto k = static_cast<std::size_t>(resolve_axis(axis, rank(), "squeeze"));
    if (axes_[k].extent != 1) {
      detail::fail<ShapeError>("squeeze", "axis ", k, " has extent ", axes_[k].extent,
                               ", not 1 (shape ", to_string(shape()), ")");
    }
    if (drop[k]) {  // NumPy: "repeated axis"
      detail::fail<ShapeError>("squeeze", "axes ", to_string(axes), " name axis ", k, " twice");
    }
    drop[k] = true;
  }
  Axes out;
  index_t offset = offset_;
  for (std::size_t k = 0; k < axes_.size(); ++k) {
    if (drop[k]) {
      offset += axes_[k].contribution(0);
    } else {
      out.push_back(axes_[k]);
    }
  }
  return Dimensions(std::move(out), offset);
}

Dimensions Dimensions::squeeze() const {
  Index ones;
  for (std::size_t k = 0; k < axes_.size(); ++k) {
    if (axes_[k].extent == 1) {
      ones.push_back(static_cast<index_t>(k));
    }
  }
  return squeeze(ones);
}

Dimensions Dimensions::unsqueeze(index_t axis) const {
  const index_t positions = rank() + 1;
  if (axis < -positions || axis >= positions) {
    detail::fail<IndexError>("unsqueeze", "position ", axis, " is out of range for a map of rank ",
                             rank(), " (valid: [", -positions, ", ", rank(), "])");
  }
  const auto k = static_cast<std::size_t>(axis < 0 ? axis + positions : axis);
  // The stride NumPy would give: the next axis's stride times its extent.
  index_t stride = 1;
  if (k < axes_.size() && __builtin_mul_overflow(axes_[k].stride, axes_[k].extent, &stride)) {
    stride = 0;
  }
  Axes out = axes_;
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(k), Axis{1, stride, 1, 0, nullptr});
  return Dimensions(std::move(out), offset_);
}

Dimensions Dimensions::diagonal(index_t offset, index_t axis1, index_t axis2) const {
  constexpr std::string_view op = "diagonal";
  if (rank() < 2) {
    detail::fail<ShapeError>(op, "a map of rank ", rank(), " has no diagonal (it takes two axes)");
  }
  const index_t a = resolve_axis(axis1, rank(), op);
  const index_t b = resolve_axis(axis2, rank(), op);
  if (a == b) {
    detail::fail<ShapeError>(op, "axis1 ", axis1, " and axis2 ", axis2, " are the same axis ", a,
                             " (rank ", rank(), ")");
  }
  const index_t n1 = axes_[static_cast<std::size_t>(a)].extent;
  const index_t n2 = axes_[static_cast<std::size_t>(b)].extent;
  // Element i of the diagonal is [start1 + i, start2 + i]; an offset past an edge leaves none.
  const index_t start1 = offset >= 0 ? 0 : (offset < -n1 ? n1 : -offset);
  const index_t start2 = offset <= 0 ? 0 : std::min(offset, n2);
  const index_t length = std::max<index_t>(0, std::min(n1 - start1, n2 - start2));
  // Cropping both axes to the diagonal's square keeps whatever they read through (rotations,
  // index arrays) and checks nothing new.
  std::vector<Selector> square(static_cast<std::size_t>(std::max(a, b) + 1), Selector(all));
  square[static_cast<std::size_t>(a)] = Range(start1, start1 + length);
  square[static_cast<std::size_t>(b)] = Range(start2, start2 + length);
  const Dimensions cropped = select(std::span<const Selector>(square));
  const Axis& x = cropped.axes_[static_cast<std::size_t>(a)];
  const Axis& y = cropped.axes_[static_cast<std::size_t>(b)];
  index_t base = cropped.offset_;
  Axis d{length, 0, length, 0, nullptr};
  if (x.is_plain() && y.is_plain()) {
    if (__builtin_add_overflow(x.stride, y.stride, &d.stride)) {
      d.stride = 0;  // only when length <= 1: a longer diagonal's addresses would overflow
    }
  } else if (length > 0) {
    // Element i reads both axes' contributions, as one index array of stride 1 (its smallest
    // entry moved into the offset).
    std::vector<index_t> values(static_cast<std::size_t>(length));
    for (index_t i = 0; i < length; ++i) {
      values[static_cast<std::size_t>(i)] = x.contribution(i) + y.contribution(i);
    }
    const index_t low = *std::min_element(values.begin(), values.end());
    for (index_t& v : values) {
      v -= low;
    }
    base += low;
    d.stride = 1;
    d.indices = std::make_shared<const IndexArray>(std::move(values));
  }
  Axes out;
  for (std::size_t k = 0; k < cropped.axes_.size(); ++k) {
    if (std::cmp_not_equal(k, a) && std::cmp_not_equal(k, b)) {
      out.push_back(cropped.axes_[k]);
    }
  }
  out.push_back(std::move(d));
  return Dimensions(std::move(out), base);
}

Dimensions Dimensions::reshape(IndexSpan shape) const {
  constexpr std::string_view op = "reshape";
  Index target(shape);
  std::ptrdiff_t inferred = -1;
  index_t known = 1;
  for (std::size_t k = 0; k < target.size(); ++k) {
    if (target[k] == -1) {
      if (inferred >= 0) {
        detail::fail<ShapeError>(op, "shape ", to_string(shape), " has more than one -1");
      }
      inferred = static_cast<std::ptrdiff_t>(k);
    } else if (target[k] < 0) {
      detail::fail<ShapeError>(op, "shape ", to_string(shape), " has negative extent ", target[k],
                               " on axis ", k, " (only one -1 is allowed)");
    } else {
      known = checked_mul(known, target[k], op);
    }
  }
  if (inferred >= 0) {
    if (known == 0 || size_ % known != 0) {
      detail::fail<ShapeError>(op, "cannot reshape a map of size ", size_, " (shape ",
                               to_string(this->shape()), ") into shape ", to_string(shape));
    }
    target[static_cast<std::size_t>(inferred)] = size_ / known;
  }
  if (checked_size(target, op) != size_) {
    detail::fail<ShapeError>(op, "cannot reshape a map of size ", size_, " (shape ",
                             to_string(this->shape()), ") into shape ", to_string(shape),
                             " of size ", checked_size(target, op));
  }
  if (size_ == 0) {
    const Dimensions row_major(target);
    return Dimensions(row_major.axes_, offset_);
  }
  // Axes of extent 1 carry nothing: drop the old ones, give the new ones NumPy-like strides.
  index_t offset = offset_;
  std::vector<Axis> old_axes;
  for (const Axis& a : axes_) {
    if (a.extent == 1) {
      offset += a.contribution(0);
    } else {
      old_axes.push_back(a);
    }
  }
  std::vector<std::size_t> new_positions;  // axes of the target with extent > 1
  for (std::size_t k = 0; k < target.size(); ++k) {
    if (target[k] != 1) {
      new_positions.push_back(k);
    }
  }
  Axes out(target.size(), Axis{1, 1, 1, 0, nullptr});
  const auto cannot = [&] {
    detail::fail<LayoutError>(op, "cannot view shape ", to_string(this->shape()), " (strides ",
                              to_string(strides()), ") as shape ", to_string(shape),
                              " without a copy");
  };
  // Minimal blocks of old and new axes with equal products, as NumPy does.
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < old_axes.size()) {
    std::size_t i2 = i + 1;
    std::size_t j2 = j + 1;
    index_t old_product = old_axes[i].extent;
    index_t new_product = target[new_positions[j]];
    while (old_product != new_product) {
      if (old_product < new_product) {
        old_product *= old_axes[i2++].extent;
      } else {
        new_product *= target[new_positions[j2++]];
      }
    }
    Axis block = old_axes[i2 - 1];
    for (std::size_t k = i2 - 1; k-- > i;) {
      const auto m = coalesce(old_axes[k], block);
      if (!m) {
        cannot();
      }
      block = *m;
    }
    Index extents;
    for (std::size_t k = j; k < j2; ++k) {
      extents.push_back(target[new_positions[k]]);
    }
    const auto pieces = split(block, extents);
    if (!pieces) {
      cannot();
    }
    for (std::size_t k = j; k < j2; ++k) {
      out[new_positions[k]] = (*pieces)[k - j];
    }
    i = i2;
    j = j2;
  }
  for (std::size_t k = out.size(); k-- > 0;) {
    if (target[k] == 1 && k + 1 < out.size()) {
      index_t stride = 0;
      if (!__builtin_mul_overflow(out[k + 1].stride, out[k + 1].extent, &stride)) {
        out[k].stride = stride;
      }
    }
  }
  return Dimensions(std::move(out), offset);
}

// ---- addressing ------------------------------------------------------------------------------

index_t Dimensions::global_to_local(IndexSpan global) const noexcept {
  index_t address = offset_;
  for (std::size_t k = 0; k < axes_.size(); ++k) {
    address += axes_[k].contribution(global[k]);
  }
  return address;
}

index_t Dimensions::global_to_local(index_t linear) const noexcept {
  index_t address = offset_;
  for (std::size_t k = axes_.size(); k-- > 0;) {
    const Axis& a = axes_[k];
    address += a.contribution(k == 0 ? linear : linear % a.extent);
    linear = k == 0 ? 0 : linear / a.extent;
  }
  return address;
}

index_t Dimensions::checked_global_to_local(IndexSpan global) const {
  if (std::cmp_not_equal(global.size(), rank())) {
    detail::fail<IndexError>("global_to_local", "index ", to_string(global), " has ", global.size(),
                             " entries for a map of rank ", rank());
  }
  for (std::size_t k = 0; k < axes_.size(); ++k) {
    if (global[k] < 0 || global[k] >= axes_[k].extent) {
      detail::fail<IndexError>("global_to_local", "index ", to_string(global),
                               " is out of bounds on axis ", k, " (shape ", to_string(shape()),
                               ")");
    }
  }
  return global_to_local(global);
}

index_t Dimensions::checked_global_to_local(index_t linear) const {
  if (linear < 0 || linear >= size_) {
    detail::fail<IndexError>("global_to_local", "linear index ", linear,
                             " is out of bounds for size ", size_, " (valid: [0, ", size_, "))");
  }
  return global_to_local(linear);
}

std::vector<Index> Dimensions::local_to_global(index_t address) const {
  std::vector<Index> found;
  if (const auto [lowest, highest] = address_range();
      size_ == 0 || address < lowest || address > highest) {
    return found;  // also keeps address - offset below from overflowing
  }
  const std::size_t r = axes_.size();
  // Bounds of what each axis can add, then of what the axes after each step can add.
  std::vector<index_t> lo(r);
  std::vector<index_t> hi(r);
  for (std::size_t k = 0; k < r; ++k) {
    const Axis& a = axes_[k];
    const index_t vmin = a.indices ? a.indices->min() : 0;
    const index_t vmax = a.indices ? a.indices->max() : a.cycle - 1;
    lo[k] = std::min(vmin * a.stride, vmax * a.stride);
    hi[k] = std::max(vmin * a.stride, vmax * a.stride);
  }
  std::vector<std::size_t> order(r);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [this](std::size_t a, std::size_t b) {
    return std::abs(axes_[a].stride) > std::abs(axes_[b].stride);
  });
  std::vector<index_t> lo_rest(r + 1, 0);
  std::vector<index_t> hi_rest(r + 1, 0);
  for (std::size_t d = r; d-- > 0;) {
    lo_rest[d] = lo_rest[d + 1] + lo[order[d]];
    hi_rest[d] = hi_rest[d + 1] + hi[order[d]];
  }

  // Global indices per axis that read position p.
  const auto globals_of = [](const Axis& a, index_t p, auto&& emit) {
    for (index_t g = a.is_cyclic() ? mod(p - a.rotation, a.cycle) : p; g < a.extent; g += a.cycle) {
      emit(g);
    }
  };
  Index current(r, 0);
  const auto search = [&](auto&& self, std::size_t d, index_t rest) -> void {
    if (d == r) {
      if (rest == 0) {
        found.push_back(current);
      }
      return;
    }
    if (rest < lo_rest[d] || rest > hi_rest[d]) {
      return;
    }
    const std::size_t k = order[d];
    const Axis& a = axes_[k];
    const auto visit_position = [&](index_t p, index_t value) {
      globals_of(a, p, [&](index_t g) {
        current[k] = g;
        self(self, d + 1, rest - value * a.stride);
      });
    };
    if (a.stride == 0) {
      for (index_t g = 0; g < a.extent; ++g) {
        current[k] = g;
        self(self, d + 1, rest);
      }
      return;
    }
    // value * stride must lie in [rest - hi_rest[d+1], rest - lo_rest[d+1]].
    const index_t want_lo = rest - hi_rest[d + 1];
    const index_t want_hi = rest - lo_rest[d + 1];
    const index_t s = a.stride;
    const auto floor_div = [](index_t x, index_t y) {
      return x / y - ((x % y != 0) && ((x < 0) != (y < 0)) ? 1 : 0);
    };
    const auto ceil_div = [&](index_t x, index_t y) { return -floor_div(-x, y); };
    const index_t vlo = s > 0 ? ceil_div(want_lo, s) : ceil_div(want_hi, s);
    const index_t vhi = s > 0 ? floor_div(want_hi, s) : floor_div(want_lo, s);
    if (a.indices) {
      const auto [values, entries] = a.indices->entries_between(vlo, vhi);
      for (std::size_t e = 0; e < values.size(); ++e) {
        visit_position(entries[e], values[e]);
      }
    } else {
      for (index_t v = std::max<index_t>(vlo, 0); v <= std::min(vhi, a.cycle - 1); ++v) {
        visit_position(v, v);
      }
    }
  };
  search(search, 0, address - offset_);
  // Row-major order. (Sorting a permutation rather than the Index values themselves also keeps
  // GCC 12 from a false -Wstringop-overread inside Boost's small_vector move.)
  std::vector<std::size_t> rows(found.size());
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  std::sort(rows.begin(), rows.end(), [&found](std::size_t a, std::size_t b) {
    return std::lexicographical_compare(found[a].begin(), found[a].end(), found[b].begin(),
                                        found[b].end());
  });
  std::vector<Index> sorted;
  sorted.reserve(found.size());
  for (const std::size_t row : rows) {
    sorted.push_back(found[row]);
  }
  return sorted;
}

// ---- analysis --------------------------------------------------------------------------------

Dimensions Dimensions::reduced() const {
  if (size_ == 0) {
    return Dimensions(Axes{Axis{0, 1, 0, 0, nullptr}}, offset_);
  }
  Axes out;
  index_t offset = offset_;
  for (const Axis& a : axes_) {
    if (a.extent == 1) {
      offset += a.contribution(0);
      continue;
    }
    if (!out.empty()) {
      if (const auto m = coalesce(out.back(), a)) {
        out.back() = *m;
        continue;
      }
    }
    out.push_back(a);
  }
  return Dimensions(std::move(out), offset);
}

Signature Dimensions::signature() const noexcept {
  Signature s;
  s.rank = rank();
  for (std::size_t k = 0; k < axes_.size() && k < 32; ++k) {
    s.indexed |= axes_[k].is_indexed() ? (1U << k) : 0U;
    s.cyclic |= axes_[k].is_cyclic() ? (1U << k) : 0U;
  }
  s.broadcast = is_broadcast();
  s.unit_last_stride = !axes_.empty() && axes_.back().is_plain() && axes_.back().stride == 1;
  return s;
}

bool Dimensions::is_native() const {
  if (size_ <= 1) {
    return true;
  }
  const Dimensions r = reduced();
  return r.rank() == 1 && r.axes_[0].is_plain() && r.axes_[0].stride == 1;
}

bool Dimensions::has_unit_last_stride() const {
  if (size_ <= 1) {
    return true;
  }
  const Dimensions r = reduced();
  return r.axes_.back().is_plain() && r.axes_.back().stride == 1;
}

std::pair<index_t, index_t> Dimensions::address_range() const noexcept {
  index_t lo = offset_;
  index_t hi = offset_;
  if (size_ == 0) {
    return {lo, hi};
  }
  for (const Axis& a : axes_) {  // checked not to overflow when the map was built
    const index_t x = (a.indices ? a.indices->min() : 0) * a.stride;
    const index_t y = (a.indices ? a.indices->max() : a.cycle - 1) * a.stride;
    lo += std::min(x, y);
    hi += std::max(x, y);
  }
  return {lo, hi};
}

bool Dimensions::is_broadcast() const noexcept {
  return std::any_of(axes_.begin(), axes_.end(), [](const Axis& a) {
    return a.extent > 1 && ((!a.indices && a.stride == 0) || a.extent > a.cycle);
  });
}

// ---- printing --------------------------------------------------------------------------------

std::ostream& operator<<(std::ostream& out, const Dimensions& d) {
  out << "{shape [";
  bool cyclic = false;
  for (std::size_t k = 0; k < d.axes_.size(); ++k) {
    const Axis& a = d.axes_[k];
    out << (k == 0 ? "" : " ");
    if (a.indices) {
      out << to_string(a.indices->values());
    } else {
      out << a.extent;
    }
    cyclic = cyclic || a.is_cyclic();
  }
  out << "] strides " << to_string(d.strides()) << " offset " << d.offset_;
  if (cyclic) {
    Index cycles;
    Index rotations;
    for (const Axis& a : d.axes_) {
      cycles.push_back(a.cycle);
      rotations.push_back(a.rotation);
    }
    out << " extent " << to_string(d.shape()) << " cycle " << to_string(cycles) << " rotation "
        << to_string(rotations);
  }
  return out << "}";
}

std::string to_string(const Dimensions& d) {
  std::ostringstream out;
  out << d;
  return out.str();
}

}  // namespace strata
