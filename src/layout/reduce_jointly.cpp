// Joint reduction of a destination and a source map: order, flip, coalesce together.
#include "strata/layout/reduce_jointly.hpp"

#include "strata/core/error.hpp"

#include <algorithm>
#include <array>
#include <numeric>

namespace strata {

std::vector<Dimensions> reduce_jointly(std::span<const Dimensions> maps) {
  if (maps.empty()) {
    return {};
  }
  const Dimensions& first = maps[0];
  for (std::size_t m = 1; m < maps.size(); ++m) {
    if (maps[m].shape() != first.shape()) {
      detail::fail<ShapeError>("reduce_jointly", "destination shape ", to_string(first.shape()),
                               " differs from source shape ", to_string(maps[m].shape()));
    }
  }
  std::vector<Dimensions> out(maps.begin(), maps.end());
  if (first.size() == 0) {
    for (auto& d : out) {
      d = d.reduced();
    }
    return out;
  }
  // Drop axes of extent 1 (a select of index 0 folds them into the offsets).
  std::vector<Selector> drop;
  for (int k = 0; k < first.rank(); ++k) {
    if (first.axes()[static_cast<std::size_t>(k)].extent == 1) {
      drop.emplace_back(0);
    } else {
      drop.emplace_back(all);
    }
  }
  for (auto& d : out) {
    d = d.select(drop);
  }
  const int rank = out[0].rank();

  // Order by the destination's |stride|, largest first; ties keep their order.
  Index order(static_cast<std::size_t>(rank));
  std::iota(order.begin(), order.end(), index_t{0});
  const Dimensions& lead = out[0];
  std::stable_sort(order.begin(), order.end(), [&lead](index_t a, index_t b) {
    return std::abs(lead.axes()[static_cast<std::size_t>(a)].stride) >
           std::abs(lead.axes()[static_cast<std::size_t>(b)].stride);
  });
  for (auto& d : out) {
    d = d.transpose(order);
  }

  // Flip plain axes that run backwards in every map.
  Index flips;
  for (int k = 0; k < rank; ++k) {
    const bool backwards = std::all_of(out.begin(), out.end(), [k](const Dimensions& d) {
      const Axis& a = d.axes()[static_cast<std::size_t>(k)];
      return a.is_plain() && a.stride < 0;
    });
    if (backwards) {
      flips.push_back(k);
    }
  }
  for (auto& d : out) {
    d = d.reverse(flips);
  }

  // Coalesce adjacent axes where every map allows it.
  std::vector<std::vector<Axis>> merged(out.size());
  for (int k = 0; k < rank; ++k) {
    bool joined = !merged[0].empty();
    std::vector<Axis> candidates(out.size());
    for (std::size_t m = 0; joined && m < out.size(); ++m) {
      const auto c = coalesce(merged[m].back(), out[m].axes()[static_cast<std::size_t>(k)]);
      joined = c.has_value();
      if (joined) {
        candidates[m] = *c;
      }
    }
    for (std::size_t m = 0; m < out.size(); ++m) {
      if (joined) {
        merged[m].back() = candidates[m];
      } else {
        merged[m].push_back(out[m].axes()[static_cast<std::size_t>(k)]);
      }
    }
  }
  for (std::size_t m = 0; m < out.size(); ++m) {
    out[m] = Dimensions::from_axes(merged[m], out[m].offset());
  }
  return out;
}

std::pair<Dimensions, Dimensions> reduce_jointly(const Dimensions& dst, const Dimensions& src) {
  const std::array<Dimensions, 2> maps{dst, src};
  std::vector<Dimensions> out = reduce_jointly(std::span<const Dimensions>(maps));
  return {std::move(out[0]), std::move(out[1])};
}

}  // namespace strata
