/// @file
/// The one reduction kernel behind every reduction along axes (sum, prod, min, max, mean, any,
/// all, count_nonzero, var, argmax, the nan-reductions), of tensors and of lazy expressions:
/// the sources and the accumulators are walked jointly, run by run, with no temporary.
#pragma once

#include "strata/core/error.hpp"
#include "strata/core/index.hpp"
#include "strata/layout/dimensions.hpp"
#include "strata/layout/odometer.hpp"
#include "strata/layout/reduce_jointly.hpp"
#include "strata/parallel/policy.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <numeric>
#include <span>
#include <type_traits>
#include <vector>

namespace strata::detail {

/// How a run reads a leaf, the `Unit` argument of an expression's `bind`: by its stride, with
/// unit stride (a plain array loop that vectorises), or as one value for the whole run (a dense
/// operand broadcast along a row of a jagged expression).
inline constexpr int run_strided = 0;
/// @copydoc run_strided
inline constexpr int run_unit = 1;
/// @copydoc run_strided
inline constexpr int run_constant = 2;
/// A run that is one list of a jagged expression over rows of lists, walked list by list: dense
/// leaves as run_constant; jagged leaves by their stride, 1, or 0 for an operand with one value
/// per list (awkward's broadcast of `n * var` into `n * var * var`, read in place).
inline constexpr int run_lists = 3;

/// Where one run of elements lies for every leaf of a tree: leaf m's elements of the run are
/// `data[m][start[m] + t * stride[m]]` for t in [0, count).
template <std::size_t N>
struct RunState {
  std::array<const void*, N> data{};
  std::array<index_t, N> start{};
  std::array<index_t, N> stride{};
  /// The run's length when a jagged expression walks rows (each run one row): what a per-row
  /// reduction inside the tree (strata::rows) reduces. Unused by dense evaluation.
  index_t length = 0;
};

/// The reader of leaf @p I's array in a run, as the run mode @p Unit walks it.
template <class T, std::size_t I, int Unit, std::size_t N>
auto array_reader(const RunState<N>& run) {
  const T* p = static_cast<const T*>(run.data[I]) + run.start[I];
  if constexpr (Unit == run_constant || Unit == run_lists) {
    const T v = *p;
    return [v](index_t /*t*/) { return v; };
  } else if constexpr (Unit == run_unit) {
    return [p](index_t t) { return p[t]; };
  } else {
    const index_t s = run.stride[I];
    return [p, s](index_t t) { return p[t * s]; };
  }
}

/// Marks the axes to reduce, checked: each exists (negative counts from the end) and appears
/// once.
/// @throws IndexError for an axis that does not exist or one named twice (NumPy's AxisError
///         and "duplicate value in 'axis'")
inline std::vector<bool> reduced_axes(const Index& shape, IndexSpan axes, const char* operation) {
  const auto rank = static_cast<index_t>(shape.size());
  std::vector<bool> reduced(shape.size(), false);
  for (const index_t axis : axes) {
    if (axis < -rank || axis >= rank) {
      fail<IndexError>(operation, "axis ", axis, " does not exist (rank ", rank, ", shape ",
                       to_string(shape), ")");
    }
    const auto k = static_cast<std::size_t>(axis < 0 ? axis + rank : axis);
    if (reduced[k]) {
      fail<IndexError>(operation, "axes ", to_string(axes), " name axis ", k, " twice");
    }
    reduced[k] = true;
  }
  return reduced;
}

/// The shape a reduction keeps: @p shape with the reduced axes at extent 1 (keepdims).
inline Index kept_shape(const Index& shape, const std::vector<bool>& reduced) {
  Index kept = shape;
  for (std::size_t k = 0; k < kept.size(); ++k) {
    kept[k] = reduced[k] ? 1 : shape[k];
  }
  return kept;
}

/// The number of elements each output of a reduction combines.
inline index_t reduced_count(const Index& shape, const std::vector<bool>& reduced) {
  index_t count = 1;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    count *= reduced[k] ? shape[k] : 1;
  }
  return count;
}

/// Reduces N sources of one shape into accumulators, in one pass.
///
/// `out` holds one accumulator per element of the kept shape (row-major), each already set
/// to the identity. The sources' maps (each of @p shape) and the accumulators' map (stride 0
/// along reduced axes) are reduced jointly, ordered by the first source's strides, and walked
/// run by run. `bind(std::integral_constant<int, Unit>{}, run)` returns the run's reader
/// (`t -> value`); `step(acc, value)` adds one value; `merge(acc, acc)` joins two accumulators.
///
/// Each output combines its inputs in one fixed order, whatever the thread count: threads own
/// disjoint outputs (split along a kept axis), or, for one output, fixed chunks of 2^16 inputs
/// are reduced apart and merged in order. With @p lanes (for operations that are associative
/// and commutative), a run of 16 or more values into one accumulator is reduced in 8
/// interleaved lanes merged pairwise: a contiguous run vectorises, any run keeps 8 independent
/// chains, and the pattern is fixed.
template <class Acc, std::size_t N, class Bind, class Step, class Merge, ExecutionPolicy P>
void reduce_runs(std::span<const Dimensions> sources, const std::array<const void*, N>& data,
                 const Index& shape, const std::vector<bool>& reduced, Acc* out, Acc init,
                 const Bind& bind, const Step& step, const Merge& merge, bool lanes,
                 const P& policy) {
  static_assert(N >= 1, "a reduction reads at least one source");
  std::vector<Dimensions> maps(sources.begin(), sources.end());
  maps.push_back(Dimensions(kept_shape(shape, reduced)).broadcast(shape));
  const std::vector<Dimensions> joint = reduce_jointly(std::span<const Dimensions>(maps));
  std::array<const Dimensions*, N + 1> pointers{};
  for (std::size_t m = 0; m <= N; ++m) {
    pointers[m] = &joint[m];
  }

  // One run: `count` values into the accumulators at `slot`, `slot_stride` apart.
  const auto run_into = [&](Acc* slot, index_t slot_stride, RunState<N>& run, bool unit,
                            index_t count) {
    if (slot_stride == 0) {
      // 8 interleaved lanes, merged pairwise: the loop vectorises when the run is unit-stride,
      // and keeps 8 independent chains otherwise (a broadcast operand, a strided view).
      const auto fold = [&](const auto& value) {
        Acc a = *slot;
        if (lanes && count >= 16) {
          std::array<Acc, 8> lane;
          lane.fill(init);
          index_t t = 0;
          for (; t + 8 <= count; t += 8) {
            for (std::size_t l = 0; l < 8; ++l) {
              lane[l] = step(lane[l], value(t + static_cast<index_t>(l)));
            }
          }
          Acc tail = init;
          for (; t < count; ++t) {
            tail = step(tail, value(t));
          }
          a = merge(a, merge(merge(merge(lane[0], lane[1]), merge(lane[2], lane[3])),
                             merge(merge(lane[4], lane[5]), merge(lane[6], lane[7]))));
          a = merge(a, tail);
        } else {
          for (index_t t = 0; t < count; ++t) {
            a = step(a, value(t));
          }
        }
        *slot = a;
      };
      if (unit) {
        fold(bind(std::integral_constant<int, run_unit>{}, run));
      } else {
        fold(bind(std::integral_constant<int, run_strided>{}, run));
      }
    } else if (slot_stride == 1 && unit) {
      // A row of inputs into a row of accumulators: the accumulators are a new array, never
      // an input, so __restrict lets the loop vectorise.
      Acc* __restrict row = slot;
      const auto value = bind(std::integral_constant<int, run_unit>{}, run);
      for (index_t t = 0; t < count; ++t) {
        row[t] = step(row[t], value(t));
      }
    } else {
      const auto value = bind(std::integral_constant<int, run_strided>{}, run);
      for (index_t t = 0; t < count; ++t) {
        Acc& s = slot[t * slot_stride];
        s = step(s, value(t));
      }
    }
  };
  const auto walk = [&](const std::array<const Dimensions*, N + 1>& at, index_t begin, index_t end,
                        Acc* base) {
    RunState<N> run;
    run.data = data;
    walk_rows<N + 1>(at, begin, end,
                     [&](const std::array<index_t, N + 1>& start,
                         const std::array<index_t, N + 1>& stride, index_t count) {
                       bool unit = true;
                       for (std::size_t m = 0; m < N; ++m) {
                         run.start[m] = start[m];
                         run.stride[m] = stride[m];
                         unit = unit && stride[m] == 1;
                       }
                       run_into(base + start[N], stride[N], run, unit, count);
                     });
  };

  const Dimensions& acc = joint[N];
  std::ptrdiff_t split = -1;  // a kept axis: threads then own disjoint outputs
  for (std::size_t k = 0; k < acc.axes().size(); ++k) {
    if (acc.axes()[k].stride != 0 &&
        (split < 0 || acc.axes()[k].extent > acc.axes()[static_cast<std::size_t>(split)].extent)) {
      split = static_cast<std::ptrdiff_t>(k);
    }
  }
  const index_t size = acc.size();
  if (size == 0) {
    return;
  }
  if (split < 0) {
    // One output: fixed chunks reduced apart, merged in chunk order.
    const auto chunk = [&](index_t begin, index_t end) {
      Acc local = init;
      walk(pointers, begin, end, &local);
      return local;
    };
    *out = merge(*out, parallel::reduce_chunks(policy, size, index_t{1} << 16, init, chunk, merge));
    return;
  }
  const auto k = static_cast<std::size_t>(split);
  const index_t extent = acc.axes()[k].extent;
  const auto part = [&](index_t b, index_t e) {
    std::vector<Selector> sel(k, Selector(all));
    sel.emplace_back(Range{b, e});
    std::array<Dimensions, N + 1> cut;
    std::array<const Dimensions*, N + 1> at{};
    for (std::size_t m = 0; m <= N; ++m) {
      cut[m] = joint[m].select(sel);
      at[m] = &cut[m];
    }
    walk(at, 0, cut[0].size(), out);
  };
  if constexpr (std::is_same_v<std::remove_cvref_t<P>, Parallel>) {
    // The grain counts input elements; one slice of the split axis holds size / extent.
    const index_t per_slice = std::max<index_t>(size / std::max<index_t>(extent, 1), 1);
    parallel::for_each_part(
        Parallel{std::max<index_t>(1, policy.grain / per_slice), policy.threads}, extent, part);
  } else {
    part(0, extent);
  }
}

}  // namespace strata::detail
