// Joint reduction of a destination and a source map: order, flip, coalesce together.
#include "strata/layout/reduce_jointly.hpp"

#include "strata/core/error.hpp"

#include <algorithm>
#include <numeric>

namespace strata {

std::pair<Dimensions, Dimensions> reduce_jointly(const Dimensions& dst, const Dimensions& src) {
  if (dst.shape() != src.shape()) {
    detail::fail<ShapeError>("reduce_jointly", "destination shape ", to_string(dst.shape()),
                             " differs from source shape ", to_string(src.shape()));
  }
  if (dst.size() == 0) {
    return {dst.reduced(), src.reduced()};
  }
  // Drop axes of extent 1 (a select of index 0 folds them into the offsets).
  std::vector<Selector> drop;
  for (int k = 0; k < dst.rank(); ++k) {
    if (dst.axes()[static_cast<std::size_t>(k)].extent == 1) {
      drop.emplace_back(0);
    } else {
      drop.emplace_back(all);
    }
  }
  Dimensions d = dst.select(drop);
  Dimensions s = src.select(drop);

  // Order by the destination's |stride|, largest first; ties keep their order.
  Index order(static_cast<std::size_t>(d.rank()));
  std::iota(order.begin(), order.end(), index_t{0});
  std::stable_sort(order.begin(), order.end(), [&d](index_t a, index_t b) {
    return std::abs(d.axes()[static_cast<std::size_t>(a)].stride) >
           std::abs(d.axes()[static_cast<std::size_t>(b)].stride);
  });
  d = d.transpose(order);
  s = s.transpose(order);

  // Flip plain axes that run backwards in both maps.
  Index flips;
  for (int k = 0; k < d.rank(); ++k) {
    const Axis& a = d.axes()[static_cast<std::size_t>(k)];
    const Axis& b = s.axes()[static_cast<std::size_t>(k)];
    if (a.is_plain() && b.is_plain() && a.stride < 0 && b.stride < 0) {
      flips.push_back(k);
    }
  }
  d = d.reverse(flips);
  s = s.reverse(flips);

  // Coalesce adjacent axes where both maps allow it.
  std::vector<Axis> da;
  std::vector<Axis> sa;
  for (int k = 0; k < d.rank(); ++k) {
    const Axis& a = d.axes()[static_cast<std::size_t>(k)];
    const Axis& b = s.axes()[static_cast<std::size_t>(k)];
    if (!da.empty()) {
      const auto ma = coalesce(da.back(), a);
      const auto mb = coalesce(sa.back(), b);
      if (ma && mb) {
        da.back() = *ma;
        sa.back() = *mb;
        continue;
      }
    }
    da.push_back(a);
    sa.push_back(b);
  }
  return {Dimensions::from_axes(da, d.offset()), Dimensions::from_axes(sa, s.offset())};
}

}  // namespace strata
