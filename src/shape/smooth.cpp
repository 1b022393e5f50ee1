// Smooth and SmoothView: construction, slicing, chipping and printing.
#include "strata/shape/smooth.hpp"

#include "strata/core/checked.hpp"

#include <functional>
#include <ostream>
#include <string>

namespace strata {

namespace detail {

index_t checked_extents(std::span<const index_t> extents, std::string_view operation) {
  for (std::size_t k = 0; k < extents.size(); ++k) {
    if (extents[k] < 0) {
      fail<ShapeError>(operation, "extent ", extents[k], " of mode ", k, " in ",
                       strata::to_string(extents), " is negative");
    }
  }
  return checked_size(extents, operation);
}

namespace {

/// The box [lo, hi) of a box of @p extents starting at @p origin, as offsets; checked.
SmoothView slice_box(IndexSpan extents, IndexSpan origin, IndexSpan lo, IndexSpan hi,
                     const std::function<std::string()>& shape_text) {
  if (lo.size() != extents.size() || hi.size() != extents.size()) {
    fail<IndexError>("slice", "bounds ", strata::to_string(lo), " and ", strata::to_string(hi),
                     " need ", extents.size(), " entries for ", shape_text());
  }
  Index box(extents.size(), 0);
  for (std::size_t k = 0; k < extents.size(); ++k) {
    if (lo[k] > hi[k]) {
      fail<IndexError>("slice", "lo ", strata::to_string(lo), " exceeds hi ", strata::to_string(hi),
                       " in mode ", k);
    }
    if (lo[k] < origin[k] || hi[k] > origin[k] + extents[k]) {
      fail<IndexError>("slice", "bounds [", lo[k], ", ", hi[k], ") of mode ", k, " leave [",
                       origin[k], ", ", origin[k] + extents[k], ") of ", shape_text());
    }
    box[k] = hi[k] - lo[k];
  }
  return {box, lo};
}

SmoothView chip_box(IndexSpan extents, IndexSpan origin, int mode, index_t i,
                    const std::function<std::string()>& shape_text) {
  const auto m = static_cast<std::size_t>(mode);
  if (i < origin[m] || i >= origin[m] + extents[m]) {
    fail<IndexError>("chip", "index ", i, " is outside [", origin[m], ", ", origin[m] + extents[m],
                     ") of mode ", mode, " in ", shape_text());
  }
  Index box(extents.begin(), extents.end());
  Index start(origin.begin(), origin.end());
  box.erase(box.begin() + mode);
  start.erase(start.begin() + mode);
  return {box, start};
}

}  // namespace
}  // namespace detail

Smooth::Smooth(std::initializer_list<index_t> extents)
    : Smooth(IndexSpan(std::span<const index_t>(extents.begin(), extents.size()))) {}

Smooth::Smooth(IndexSpan extents)
    : extents_(extents.begin(), extents.end()), size_(detail::checked_extents(extents, "Smooth")) {}

SmoothView Smooth::slice(IndexSpan lo, IndexSpan hi) const {
  return detail::slice_box(extents_, origin(), lo, hi, [this] { return to_string(); });
}

SmoothView Smooth::chip(int mode, index_t i) const {
  check_mode("chip", mode);
  return detail::chip_box(extents_, origin(), mode, i, [this] { return to_string(); });
}

void Smooth::print(std::ostream& out) const {
  out << "Smooth" << strata::to_string(extents_);
}

SmoothView::SmoothView(IndexSpan extents, IndexSpan origin)
    : box_(extents), origin_(origin.begin(), origin.end()) {
  if (extents.size() != origin.size()) {
    detail::fail<ShapeError>("SmoothView", "extents ", strata::to_string(extents), " and origin ",
                             strata::to_string(origin), " have different lengths");
  }
}

SmoothView SmoothView::slice(IndexSpan lo, IndexSpan hi) const {
  return detail::slice_box(box_.extents(), origin_, lo, hi, [this] { return to_string(); });
}

SmoothView SmoothView::chip(int mode, index_t i) const {
  check_mode("chip", mode);
  return detail::chip_box(box_.extents(), origin_, mode, i, [this] { return to_string(); });
}

void SmoothView::print(std::ostream& out) const {
  box_.print(out);
  out << " at " << strata::to_string(origin_);
}

}  // namespace strata
