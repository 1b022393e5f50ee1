#include "strata/dist/region.hpp"

#include "strata/core/error.hpp"
#include "strata/layout/dimensions.hpp"

#include <algorithm>
#include <sstream>
#include <utility>

namespace strata::dist {
namespace {

index_t count_of(const std::vector<Run>& runs) {
  index_t n = 0;
  for (const Run& r : runs) {
    n += r.count;
  }
  return n;
}

/// The global index at view position @p i of @p runs (i inside).
index_t at(const std::vector<Run>& runs, index_t i) {
  for (const Run& r : runs) {
    if (i < r.count) {
      return r.start + r.step * i;
    }
    i -= r.count;
  }
  return -1;  // not reached: callers check the position
}

/// floor(a / b) for b > 0.
index_t floor_div(index_t a, index_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/// The runs of the positions `first, first + step, ...` (@p count of them) of @p runs.
std::vector<Run> progression(const std::vector<Run>& runs, index_t first, index_t step,
                             index_t count) {
  struct Part {
    index_t position;  // in the new axis
    Run run;
  };
  std::vector<Part> parts;
  index_t begin = 0;  // the run's first view position
  for (const Run& r : runs) {
    const index_t end = begin + r.count;
    // The new positions j in [0, count) with begin <= first + step * j < end.
    index_t lo = 0;
    index_t hi = 0;
    if (step > 0) {
      lo = floor_div(begin - first + step - 1, step);
      hi = floor_div(end - first + step - 1, step);
    } else {
      lo = floor_div(first - end, -step) + 1;
      hi = floor_div(first - begin, -step) + 1;
    }
    lo = std::max<index_t>(lo, 0);
    hi = std::min(hi, count);
    if (lo < hi) {
      const index_t from = first + step * lo - begin;  // the position inside the run
      const index_t n = hi - lo;
      parts.push_back({lo, {r.start + r.step * from, n == 1 ? 1 : r.step * step, n}});
    }
    begin = end;
  }
  std::sort(parts.begin(), parts.end(),
            [](const Part& a, const Part& b) { return a.position < b.position; });
  std::vector<Run> out;
  for (const Part& p : parts) {
    out.push_back(p.run);
  }
  return out;
}

/// Appends global index @p g to @p runs, extending the last run when it continues it (never
/// with a step of 0: a repeated index starts a new run, so that no run names an element twice).
void append(std::vector<Run>& runs, index_t g) {
  if (!runs.empty()) {
    Run& last = runs.back();
    if (last.count == 1 && g != last.start) {
      last.step = g - last.start;
      last.count = 2;
      return;
    }
    if (last.count > 1 && g == last.start + last.step * last.count) {
      ++last.count;
      return;
    }
  }
  runs.push_back({g, 1, 1});
}

}  // namespace

Region::Region(IndexSpan space) : space_(space.begin(), space.end()) {
  fixed_.assign(space_.size(), -1);
  for (std::size_t k = 0; k < space_.size(); ++k) {
    if (space_[k] < 0) {
      detail::fail<ShapeError>("Region", "space ", strata::to_string(space_),
                               " has a negative extent");
    }
    Axis a;
    a.global = static_cast<index_t>(k);
    if (space_[k] > 0) {
      a.runs.push_back({0, 1, space_[k]});
    }
    axes_.push_back(std::move(a));
  }
}

Index Region::shape() const {
  Index s;
  for (const Axis& a : axes_) {
    s.push_back(count_of(a.runs));
  }
  return s;
}

Region Region::select(std::initializer_list<Selector> selectors) const {
  return select(std::span<const Selector>(selectors.begin(), selectors.size()));
}

Region Region::select(std::span<const Selector> selectors) const {
  (void)Dimensions(shape()).select(selectors);  // validates, with select's errors
  Region out;
  out.space_ = space_;
  out.fixed_ = fixed_;
  for (std::size_t k = 0; k < axes_.size(); ++k) {
    const Axis& a = axes_[k];
    if (k >= selectors.size()) {
      out.axes_.push_back(a);
      continue;
    }
    const index_t n = count_of(a.runs);
    detail::AxisCut cut;
    if (detail::axis_cut(selectors[k], n, cut)) {
      if (cut.drop) {
        out.fixed_[static_cast<std::size_t>(a.global)] = at(a.runs, cut.start);
      } else {
        out.axes_.push_back({a.global, progression(a.runs, cut.start, cut.step, cut.count)});
      }
      continue;
    }
    // An index array: its entries' global indices, in its order, as few runs as they make.
    Axis taken{a.global, {}};
    for (const index_t i : std::get<std::vector<index_t>>(selectors[k].value())) {
      append(taken.runs, at(a.runs, i));
    }
    out.axes_.push_back(std::move(taken));
  }
  return out;
}

Region Region::transpose(IndexSpan permutation) const {
  (void)Dimensions(shape()).transpose(permutation);  // validates
  Region out = *this;
  for (std::size_t k = 0; k < axes_.size(); ++k) {
    out.axes_[k] = axes_[static_cast<std::size_t>(permutation[k])];
  }
  return out;
}

Region Region::transpose() const {
  Region out = *this;
  std::reverse(out.axes_.begin(), out.axes_.end());
  return out;
}

Region Region::reverse(IndexSpan axes) const {
  (void)Dimensions(shape()).reverse(axes);  // validates
  Region out = *this;
  for (const index_t axis : axes) {
    auto& runs = out.axes_[static_cast<std::size_t>(axis < 0 ? axis + rank() : axis)].runs;
    std::reverse(runs.begin(), runs.end());
    for (Run& r : runs) {
      r.start += r.step * (r.count - 1);
      r.step = -r.step;
    }
  }
  return out;
}

Region Region::rotate(index_t shift, index_t axis) const {
  (void)Dimensions(shape()).rotate(shift, axis);  // validates
  Region out = *this;
  auto& runs = out.axes_[static_cast<std::size_t>(axis < 0 ? axis + rank() : axis)].runs;
  const index_t n = count_of(runs);
  const index_t s = n == 0 ? 0 : ((shift % n) + n) % n;
  if (s != 0) {
    // The last s positions come first (np.roll): positions n - s, ..., n - 1, 0, ..., n - s - 1.
    std::vector<Run> rolled = progression(runs, n - s, 1, s);
    const std::vector<Run> head = progression(runs, 0, 1, n - s);
    rolled.insert(rolled.end(), head.begin(), head.end());
    runs = std::move(rolled);
  }
  return out;
}

Index Region::global(IndexSpan index) const {
  const Index extents = shape();
  bool valid = index.size() == extents.size();
  for (std::size_t k = 0; valid && k < extents.size(); ++k) {
    valid = 0 <= index[k] && index[k] < extents[k];
  }
  if (!valid) {
    detail::fail<IndexError>("Region::global", "index ", strata::to_string(index),
                             " is not inside the shape ", strata::to_string(extents));
  }
  Index g = fixed_;
  for (std::size_t k = 0; k < axes_.size(); ++k) {
    g[static_cast<std::size_t>(axes_[k].global)] = at(axes_[k].runs, index[k]);
  }
  return g;
}

index_t Region::n_pieces() const {
  index_t n = 1;
  for (const Axis& a : axes_) {
    n *= static_cast<index_t>(a.runs.size());
  }
  return n;
}

std::string Region::to_string() const {
  std::ostringstream out;
  out << "Region{space " << strata::to_string(space_) << ":";
  for (std::size_t k = 0; k < axes_.size(); ++k) {
    out << (k == 0 ? " " : ", ") << "axis " << axes_[k].global;
    for (const Run& r : axes_[k].runs) {
      out << " <" << r.start << " " << r.step << " x" << r.count << ">";
    }
  }
  for (std::size_t k = 0; k < fixed_.size(); ++k) {
    if (fixed_[k] >= 0) {
      out << ", axis " << k << " = " << fixed_[k];
    }
  }
  out << "}";
  return out.str();
}

}  // namespace strata::dist
