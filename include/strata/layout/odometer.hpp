/// @file
/// Walking the addresses of a Dimensions in row-major order with no division per element.
#pragma once

#include "strata/layout/dimensions.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <utility>

namespace strata {
namespace detail {
template <class F>
void walk_addresses(const Dimensions& r, index_t begin, index_t end, F&& f);
}  // namespace detail

/// Calls `f(address)` for the global linear indices [begin, end) of @p dims, in row-major order.
///
/// The map is reduced first; the start position is decomposed once (so a thread can start
/// mid-tensor), then an odometer carries from the innermost axis outwards. The innermost axis
/// is a tight loop: a multiply-add for a plain axis, a wrapping counter for a cyclic one, a
/// table read for an index array. No division happens per element.
///
/// @param dims the map
/// @param begin, end the linear range, clamped to [0, size())
/// @param f called once per index with its address
///
/// @code
/// strata::Dimensions d{2, 3};
/// strata::for_each_address(d.transpose({1, 0}), 0, 6, [](strata::index_t a) { ... });
/// // addresses 0 3 1 4 2 5
/// @endcode
template <class F>
void for_each_address(const Dimensions& dims, index_t begin, index_t end, F&& f) {
  detail::walk_addresses(dims.reduced(), begin, end, std::forward<F>(f));
}

namespace detail {

/// The odometer itself, over the axes of @p r exactly as they are (no reduction).
template <class F>
void walk_addresses(const Dimensions& r, index_t begin, index_t end, F&& f) {
  begin = std::max<index_t>(begin, 0);
  end = std::min(end, r.size());
  if (begin >= end) {
    return;
  }
  const std::span<const Axis> axes = r.axes();
  const int rank = r.rank();
  if (rank == 0) {
    f(r.offset());
    return;
  }
  // Decompose the start once: global index, position and contribution per axis.
  Index g(static_cast<std::size_t>(rank));
  Index p(static_cast<std::size_t>(rank));
  Index contribution(static_cast<std::size_t>(rank));
  index_t rest = begin;
  for (int k = rank - 1; k >= 0; --k) {
    const Axis& a = axes[static_cast<std::size_t>(k)];
    const auto ku = static_cast<std::size_t>(k);
    g[ku] = k == 0 ? rest : rest % a.extent;
    rest = k == 0 ? 0 : rest / a.extent;
    p[ku] = a.position(g[ku]);
    contribution[ku] = a.value(p[ku]) * a.stride;
  }
  index_t outer = r.offset();
  for (int k = 0; k + 1 < rank; ++k) {
    outer += contribution[static_cast<std::size_t>(k)];
  }
  const Axis& inner = axes.back();
  const auto last = static_cast<std::size_t>(rank - 1);
  const index_t stride = inner.stride;
  const index_t* values = inner.indices ? inner.indices->values().data() : nullptr;
  index_t position = begin;
  while (true) {
    // The innermost axis, from g[last] to the end of the row or of the range.
    const index_t count = std::min(inner.extent - g[last], end - position);
    if (inner.is_plain()) {
      index_t address = outer + g[last] * stride;
      for (index_t t = 0; t < count; ++t, address += stride) {
        f(address);
      }
    } else {
      index_t q = p[last];
      for (index_t t = 0; t < count; ++t) {
        f(outer + (values != nullptr ? values[q] : q) * stride);
        if (++q == inner.cycle) {
          q = 0;
        }
      }
    }
    position += count;
    if (position >= end) {
      return;
    }
    // Carry into the outer axes; the inner axis restarts at global index 0.
    g[last] = 0;
    p[last] = inner.rotation;
    for (int k = rank - 2; k >= 0; --k) {
      const Axis& a = axes[static_cast<std::size_t>(k)];
      const auto ku = static_cast<std::size_t>(k);
      outer -= contribution[ku];
      if (++g[ku] < a.extent) {
        if (++p[ku] == a.cycle) {
          p[ku] = 0;
        }
        contribution[ku] = a.value(p[ku]) * a.stride;
        outer += contribution[ku];
        break;
      }
      g[ku] = 0;
      p[ku] = a.rotation;
      contribution[ku] = a.value(p[ku]) * a.stride;
      outer += contribution[ku];
    }
  }
}

/// Walks N maps of one shape together over the linear range [begin, end), run by run, and
/// tells each run's global index.
///
/// Calls `run(g, start, stride, count)`: `g` is the global multi-index of the run's first
/// element (a run moves along the innermost axis from `g`), `start` and `stride` the per-map
/// addresses. One call per stretch of the innermost axis when that axis is plain in every map,
/// one per plain run between wrap points when some are rolled or tiled, one per element
/// (count 1) when one reads an index array. The start is decomposed once; the outer axes carry
/// like an odometer, so no division happens per element and a walk may start mid-row.
template <std::size_t N, class Run>
void walk_runs(const std::array<const Dimensions*, N>& maps, index_t begin, index_t end,
               Run&& run) {
  const Dimensions& first = *maps[0];
  begin = std::max<index_t>(begin, 0);
  end = std::min(end, first.size());
  if (begin >= end) {
    return;
  }
  const int rank = first.rank();
  std::array<index_t, N> start{};
  std::array<index_t, N> stride{};
  if (rank == 0) {
    for (std::size_t m = 0; m < N; ++m) {
      start[m] = maps[m]->offset();
    }
    const Index none(1, 0);  // rank 0 has no index; one zero keeps readers of g[0] defined
    run(none, start, stride, index_t{1});
    return;
  }
  const auto r = static_cast<std::size_t>(rank);
  const auto last = r - 1;
  // Per axis: the global index, and per map the position and contribution.
  Index g(r);
  std::array<Index, N> p;
  std::array<Index, N> contribution;
  std::array<index_t, N> outer{};
  index_t rest = begin;
  for (std::size_t k = r; k-- > 0;) {
    const index_t extent = first.axes()[k].extent;
    g[k] = k == 0 ? rest : rest % extent;
    rest = k == 0 ? 0 : rest / extent;
  }
  bool inner_plain = true;
  bool inner_direct = true;  // no index arrays: a row splits into plain runs at the wraps
  for (std::size_t m = 0; m < N; ++m) {
    p[m].resize(r);
    contribution[m].resize(r);
    outer[m] = maps[m]->offset();
    for (std::size_t k = 0; k < r; ++k) {
      const Axis& a = maps[m]->axes()[k];
      p[m][k] = a.position(g[k]);
      contribution[m][k] = a.value(p[m][k]) * a.stride;
      if (k < last) {
        outer[m] += contribution[m][k];
      }
    }
    const Axis& inner = maps[m]->axes()[last];
    inner_plain = inner_plain && inner.is_plain();
    inner_direct = inner_direct && !inner.is_indexed();
    stride[m] = inner.stride;
  }
  const index_t inner_extent = first.axes()[last].extent;
  const bool strided = std::all_of(maps.begin(), maps.end(),
                                   [](const Dimensions* d) { return d->is_strided(); });
  index_t position = begin;
  while (true) {
    const index_t row_start = g[last];
    const index_t count = std::min(inner_extent - row_start, end - position);
    if (inner_plain) {
      for (std::size_t m = 0; m < N; ++m) {
        start[m] = outer[m] + row_start * stride[m];
      }
      run(std::as_const(g), start, stride, count);
    } else if (inner_direct) {
      // Rolled or tiled inner axes: plain runs between the wrap points of every map.
      std::array<index_t, N> q{};
      for (std::size_t m = 0; m < N; ++m) {
        q[m] = p[m][last];
      }
      for (index_t done = 0; done < count;) {
        index_t length = count - done;
        for (std::size_t m = 0; m < N; ++m) {
          length = std::min(length, maps[m]->axes()[last].cycle - q[m]);
        }
        for (std::size_t m = 0; m < N; ++m) {
          start[m] = outer[m] + q[m] * stride[m];
        }
        g[last] = row_start + done;
        run(std::as_const(g), start, stride, length);
        done += length;
        for (std::size_t m = 0; m < N; ++m) {
          q[m] += length;
          if (q[m] == maps[m]->axes()[last].cycle) {
            q[m] = 0;
          }
        }
      }
    } else {
      std::array<index_t, N> q{};
      for (std::size_t m = 0; m < N; ++m) {
        q[m] = p[m][last];
      }
      for (index_t t = 0; t < count; ++t) {
        for (std::size_t m = 0; m < N; ++m) {
          const Axis& a = maps[m]->axes()[last];
          start[m] = outer[m] + a.value(q[m]) * a.stride;
          if (++q[m] == a.cycle) {
            q[m] = 0;
          }
        }
        g[last] = row_start + t;
        run(std::as_const(g), start, stride, index_t{1});
      }
    }
    position += count;
    if (position >= end) {
      return;
    }
    g[last] = 0;
    if (strided) {
      // Plain axes everywhere: a carry adds a stride, a wrap takes the axis back.
      for (std::size_t k = last; k-- > 0;) {
        if (++g[k] < first.axes()[k].extent) {
          for (std::size_t m = 0; m < N; ++m) {
            outer[m] += maps[m]->axes()[k].stride;
          }
          break;
        }
        g[k] = 0;
        for (std::size_t m = 0; m < N; ++m) {
          outer[m] -= (first.axes()[k].extent - 1) * maps[m]->axes()[k].stride;
        }
      }
      continue;
    }
    for (std::size_t m = 0; m < N; ++m) {
      p[m][last] = maps[m]->axes()[last].rotation;
    }
    for (std::size_t k = last; k-- > 0;) {
      const bool carry = ++g[k] == first.axes()[k].extent;
      if (carry) {
        g[k] = 0;
      }
      for (std::size_t m = 0; m < N; ++m) {
        const Axis& a = maps[m]->axes()[k];
        outer[m] -= contribution[m][k];
        if (carry) {
          p[m][k] = a.rotation;
        } else if (++p[m][k] == a.cycle) {
          p[m][k] = 0;
        }
        contribution[m][k] = a.value(p[m][k]) * a.stride;
        outer[m] += contribution[m][k];
      }
      if (!carry) {
        break;
      }
    }
  }
}

/// Walks N maps of one shape together over the linear range [begin, end), row by row:
/// walk_runs() without the global index.
///
/// Calls `row(start, stride, count)` with per-map start addresses and strides. Callers pass
/// jointly reduced maps (reduce_jointly) to get long rows.
template <std::size_t N, class Row>
void walk_rows(const std::array<const Dimensions*, N>& maps, index_t begin, index_t end,
               Row&& row) {
  walk_runs<N>(
      maps, begin, end,
      [&row](const Index& /*g*/, const std::array<index_t, N>& start,
             const std::array<index_t, N>& stride, index_t count) { row(start, stride, count); });
}

}  // namespace detail
}  // namespace strata
