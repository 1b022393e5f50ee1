/// @file
/// strata::for_each_indexed: one parallel loop over anything iterable (tensor views, shapes,
/// jagged and layout tensors) that hands the user the element and its absolute or relative
/// index; strata::tabulate writes a function of the index into a view.
#pragma once

#include "strata/core/error.hpp"
#include "strata/core/index.hpp"
#include "strata/core/indexed.hpp"
#include "strata/layout/odometer.hpp"
#include "strata/parallel/policy.hpp"
#include "strata/shape/jagged.hpp"
#include "strata/shape/nested.hpp"
#include "strata/shape/shape.hpp"
#include "strata/shape/smooth.hpp"
#include "strata/tensor/jagged_tensor.hpp"
#include "strata/tensor/layout_tensor.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace strata {

namespace detail {

/// The frame an indexed loop over a tensor uses: origin and steps (absolute), or none.
struct LoopFrame {
  Index origin;
  Index steps;
  bool relative = true;
  [[nodiscard]] index_t at(std::size_t k, index_t g) const noexcept {
    return relative ? g : origin[k] + steps[k] * g;
  }
};

template <class T, class Kind>
LoopFrame loop_frame(const Tensor<T>& t, Kind /*kind*/, std::string_view operation) {
  LoopFrame frame;
  if constexpr (std::is_same_v<Kind, Absolute>) {
    if (!t.has_absolute_indices()) {
      (void)t.origin();  // throws the LayoutError that explains why
    }
    frame.origin = t.origin();
    frame.steps = t.steps();
    frame.relative = false;
  }
  (void)operation;
  return frame;
}

/// A strided view of rank N over a pointer, with the index frame, in fixed-size arrays: the
/// fast path of tensor_indexed for callbacks of N separate integers, whose row-to-row carry
/// stays in registers (the general walk keeps its state in Index vectors).
template <std::size_t N>
struct StridedFrame {
  std::array<index_t, N> extent{};  ///< extents
  std::array<index_t, N> stride{};  ///< address strides
  std::array<index_t, N> first{};   ///< the index reported for the view's first element
  std::array<index_t, N> step{};    ///< how far the reported index moves per element
  index_t offset = 0;               ///< the address of the view's first element

  StridedFrame(const Dimensions& d, const LoopFrame& frame) : offset(d.offset()) {
    for (std::size_t k = 0; k < N; ++k) {
      extent[k] = d.axes()[k].extent;
      stride[k] = d.axes()[k].stride;
      first[k] = frame.at(k, 0);
      step[k] = frame.relative ? 1 : frame.steps[k];
    }
  }

  /// Calls f(i0, ..., i{N-1}, element) for the elements at row-major positions [begin, end).
  template <class E, class F>
  void walk(E* data, index_t begin, index_t end, F& f) const {
    constexpr std::size_t last = N - 1;
    if (begin >= end) {
      return;  // also keeps an empty view's zero extents out of the unravel below
    }
    std::array<index_t, N> g{};
    index_t rest = begin;
    for (std::size_t k = N; k-- > 1;) {
      g[k] = rest % extent[k];
      rest /= extent[k];
    }
    g[0] = rest;
    IndexCursor<static_cast<int>(N)> index(N);
    index_t row = offset;  // the address of the current row's element 0
    for (std::size_t k = 0; k < N; ++k) {
      index[k] = first[k] + step[k] * g[k];
      if (k < last) {
        row += g[k] * stride[k];
      }
    }
    index_t start = g[last];
    for (index_t position = begin; position < end;) {
      const index_t count = std::min(extent[last] - start, end - position);
      const index_t i0 = first[last] + step[last] * start;
      E* element = data + row + start * stride[last];
      if (stride[last] == 1 && step[last] == 1) {
        STRATA_UNROLL_ROW
        for (index_t n = 0; n < count; ++n) {
          index.call_last(f, i0 + n, element[n]);
        }
      } else {
        STRATA_UNROLL_ROW
        for (index_t n = 0; n < count; ++n) {
          index.call_last(f, i0 + n * step[last], element[n * stride[last]]);
        }
      }
      position += count;
      start = 0;
      for (std::size_t k = last; k-- > 0;) {  // carry: a stride forward, or back to the start
        if (++g[k] < extent[k]) {
          row += stride[k];
          index[k] += step[k];
          break;
        }
        g[k] = 0;
        row -= (extent[k] - 1) * stride[k];
        index[k] = first[k];
      }
    }
  }
};

/// The loop over a tensor view's elements with their indices (see for_each_indexed).
template <int N, ExecutionPolicy P, class T, class F>
void tensor_indexed(const P& policy, const Tensor<T>& t, const LoopFrame& frame, bool write, F& f) {
  using V = std::remove_const_t<T>;
  const Dimensions& d = t.dims();
  const auto rank = static_cast<std::size_t>(d.rank());
  const auto last = rank == 0 ? 0 : rank - 1;
  V* const data = t.buffer().data();
  const AnyBuffer<V>& buffer = t.buffer();
  if constexpr (N >= 1) {
    if (data != nullptr && d.is_strided() && buffer.concurrent()) {
      using E = std::conditional_t<std::is_const_v<T>, const V, V>;
      const StridedFrame<static_cast<std::size_t>(N)> strided(d, frame);
      parallel::for_each_part(policy, d.size(), [&](index_t begin, index_t end) {
        strided.walk(static_cast<E*>(data), begin, end, f);
      });
      return;
    }
  }
  const index_t inner_step = rank == 0 || frame.relative ? 1 : frame.steps[last];
  const auto body = [&](index_t begin, index_t end) {
    IndexCursor<N> index(rank);
    detail::walk_runs<1>({&d}, begin, end,
                         [&](const Index& g, const std::array<index_t, 1>& at,
                             const std::array<index_t, 1>& stride, index_t count) {
                           if (rank == 0) {
                             if (data != nullptr) {
                               index.call(f, data[at[0]]);
                             } else {
                               V value = buffer.read(at[0]);
                               index.call(f, value);
                               if (write) {
                                 buffer.write(at[0], value);
                               }
                             }
                             return;
                           }
                           for (std::size_t k = 0; k < last; ++k) {
                             index[k] = frame.at(k, g[k]);
                           }
                           index_t inner = frame.at(last, g[last]);
                           index_t address = at[0];
                           using E = std::conditional_t<std::is_const_v<T>, const V, V>;
                           if (data != nullptr && stride[0] == 1 && inner_step == 1) {
                             // The common row: contiguous elements, unit index steps.
                             E* const row = data + address;
                             STRATA_UNROLL_ROW
                             for (index_t n = 0; n < count; ++n) {
                               index.call_last(f, inner + n, row[n]);
                             }
                           } else if (data != nullptr) {
                             STRATA_UNROLL_ROW
                             for (index_t n = 0; n < count; ++n) {
                               index.call_last(f, inner, static_cast<E&>(data[address]));
                               inner += inner_step;
                               address += stride[0];
                             }
                           } else {
                             for (index_t n = 0; n < count; ++n) {
                               V value = buffer.read(address);
                               index.call_last(f, inner, value);
                               if (write) {
                                 buffer.write(address, value);
                               }
                               inner += inner_step;
                               address += stride[0];
                             }
                           }
                         });
  };
  if (buffer.concurrent()) {
    parallel::for_each_part(policy, d.size(), body);
  } else {
    body(0, d.size());  // a buffer without data(): one thread
  }
}

/// The loop over the indices of a box (extents, absolute origin), no elements.
template <int N, ExecutionPolicy P, class F>
void box_indexed(const P& policy, IndexSpan extents, IndexSpan origin, F& f) {
  const Dimensions d(extents);
  const auto rank = extents.size();
  const auto last = rank == 0 ? 0 : rank - 1;
  parallel::for_each_part(policy, d.size(), [&](index_t begin, index_t end) {
    IndexCursor<N> index(rank);
    detail::walk_runs<1>({&d}, begin, end,
                         [&](const Index& g, const std::array<index_t, 1>& /*at*/,
                             const std::array<index_t, 1>& /*stride*/, index_t count) {
                           if (rank == 0) {
                             index.call(f);
                             return;
                           }
                           for (std::size_t k = 0; k < last; ++k) {
                             index[k] = origin[k] + g[k];
                           }
                           const index_t first = origin[last] + g[last];
                           STRATA_UNROLL_ROW
                           for (index_t n = 0; n < count; ++n) {
                             index.call_last(f, first + n);
                           }
                         });
  });
}

/// The loop over the rows of a jagged shape (smooth rows), in parallel over rows balanced by
/// size: leading indices are the row's outer index, then the row's own box.
template <int N, ExecutionPolicy P, class F>
void jagged_indexed(const P& policy, const JaggedRows& rows, IndexSpan origin, F& f) {
  const JaggedData& data = rows.data();
  const auto outer_rank = static_cast<std::size_t>(rows.outer_rank());
  const auto rank = static_cast<std::size_t>(rows.rank());
  const std::span<const index_t> starts(data.starts.data() + rows.row0(),
                                        static_cast<std::size_t>(rows.row1() - rows.row0() + 1));
  parallel::for_each_weighted_part(policy, starts, [&](index_t lo, index_t hi) {
    IndexCursor<N> index(rank);
    Index outer(outer_rank, 0);
    smooth_unravel(lo, rows.outer(), outer);
    for (index_t r = lo; r < hi; ++r) {
      for (std::size_t k = 0; k < outer_rank; ++k) {
        index[k] = origin[k] + outer[k];
      }
      const std::span<const index_t> e = data.row_extents(rows.row0() + r);
      const Dimensions box(e);
      const auto last = rank - 1;
      walk_runs<1>({&box}, 0, box.size(),
                   [&](const Index& g, const std::array<index_t, 1>& /*at*/,
                       const std::array<index_t, 1>& /*stride*/, index_t count) {
                     for (std::size_t k = outer_rank; k < last; ++k) {
                       index[k] = origin[k] + g[k - outer_rank];
                     }
                     const index_t first = origin[last] + g[last - outer_rank];
                     STRATA_UNROLL_ROW
                     for (index_t n = 0; n < count; ++n) {
                       index.call_last(f, first + n);
                     }
                   });
      smooth_advance(rows.outer(), outer);
    }
  });
}

/// Any shape through its own odometer (jagged rows that are jagged themselves, nested shapes):
/// one unravel per part, then advance().
template <int N, ExecutionPolicy P, class S, class F>
void generic_shape_indexed(const P& policy, const S& shape, IndexSpan origin, F& f) {
  const auto rank = static_cast<std::size_t>(shape.rank());
  parallel::for_each_part(policy, shape.size(), [&](index_t begin, index_t end) {
    IndexCursor<N> index(rank);
    Index offset(rank, 0);
    shape.unravel(begin, std::span<index_t>(offset));
    for (index_t p = begin; p < end; ++p) {
      for (std::size_t k = 0; k < rank; ++k) {
        index[k] = origin[k] + offset[k];
      }
      index.call(f);
      if (p + 1 < end) {
        shape.advance(std::span<index_t>(offset));
      }
    }
  });
}

template <int N, ExecutionPolicy P, class S, class F>
void shape_indexed(const P& policy, const S& shape, IndexSpan origin, F& f) {
  if constexpr (std::is_same_v<S, Smooth> || std::is_same_v<S, SmoothView>) {
    box_indexed<N>(policy, shape.extents(), origin, f);
  } else if constexpr (std::is_same_v<S, Jagged> || std::is_same_v<S, JaggedView>) {
    if (shape.smooth_rows()) {
      jagged_indexed<N>(policy, shape.rows(), origin, f);
    } else {
      generic_shape_indexed<N>(policy, shape, origin, f);
    }
  } else if constexpr (std::is_same_v<S, Shape>) {
    shape.visit([&](const auto& s) { shape_indexed<N>(policy, s, origin, f); });
  } else {
    generic_shape_indexed<N>(policy, shape, origin, f);
  }
}

/// Whether f needs to write the element (takes a non-const reference).
template <class F, int N, class V>
constexpr bool needs_write() {
  if constexpr (N == -1) {
    return !std::is_invocable_v<F&, IndexSpan, const V&>;
  } else {
    return ![]<std::size_t... K>(std::index_sequence<K...>) {
      return std::is_invocable_v<F&, decltype(K, index_t{})..., const V&>;
    }
    (std::make_index_sequence<static_cast<std::size_t>(N)>{});
  }
}

/// The element-writing body of tabulate for a function of N indices (or of an IndexSpan).
template <int N, class T, class F>
auto assign_from(F& f) {
  if constexpr (N == -1) {
    return [&f](IndexSpan index, T& x) { x = static_cast<T>(f(index)); };
  } else {
    return [&f]<std::size_t... K>(std::index_sequence<K...>) {
      return [&f](decltype(K, index_t{})... index, T& x) { x = static_cast<T>(f(index...)); };
    }
    (std::make_index_sequence<static_cast<std::size_t>(N)>{});
  }
}

template <ExecutionPolicy P, class T, class Kind, class F>
void for_each_indexed_tensor(const P& policy, const Tensor<T>& t, Kind kind, F& f) {
  using V = std::remove_const_t<T>;
  using Elem = std::conditional_t<std::is_const_v<T>, const V&, V&>;
  constexpr int arity = index_arity<F, Elem>();
  static_assert(arity != -2,
                "for_each_indexed: the function must take the indices (one integer per axis, or "
                "an IndexSpan) followed by the element");
  check_arity("for_each_indexed", arity, t.rank());
  constexpr bool write = needs_write<F, arity, V>();
  if constexpr (write) {
    static_assert(!std::is_const_v<T>,
                  "for_each_indexed: the function takes the element by non-const reference, "
                  "but the tensor is read-only");
    if (!t.is_writable()) {
      fail<LayoutError>("for_each_indexed", "the function writes its element but the view ",
                        t.dims(),
                        " cannot be written (several indices share an address, or the "
                        "buffer is read-only)");
    }
  }
  const LoopFrame frame = loop_frame(t, kind, "for_each_indexed");
  tensor_indexed<arity>(policy, t, frame, write, f);
}

/// The loop over a jagged tensor's smooth pieces (its rows when they are smooth): parallel
/// over pieces balanced by size; each piece's values are contiguous and row-major.
template <int N, ExecutionPolicy P, class E, class J, class F>
void jagged_tensor_indexed(const P& policy, J& jt, bool relative, F& f) {
  const auto rank = static_cast<std::size_t>(jt.shape().rank());
  if (rank == 2 && jt.shape().outer_rank() == 1 && jt.shape().smooth_rows()) {
    // A ragged matrix (rows of rank 1): rows straight from the offsets, no per-row objects.
    const std::span<const index_t> offsets = jt.offsets();
    E* const values = jt.piece_data(0) - offsets[0];
    const index_t first = relative ? 0 : jt.first_row();
    parallel::for_each_weighted_part(policy, offsets, [&](index_t lo, index_t hi) {
      IndexCursor<N> index(rank);
      for (index_t r = lo; r < hi; ++r) {
        index[0] = first + r;
        E* const row = values + offsets[static_cast<std::size_t>(r)];
        const index_t count =
            offsets[static_cast<std::size_t>(r) + 1] - offsets[static_cast<std::size_t>(r)];
        STRATA_UNROLL_ROW
        for (index_t k = 0; k < count; ++k) {
          index.call_last(f, k, row[k]);
        }
      }
    });
    return;
  }
  parallel::for_each_weighted_part(policy, jt.piece_offsets(), [&](index_t lo, index_t hi) {
    IndexCursor<N> index(rank);
    for (index_t p = lo; p < hi; ++p) {
      Index prefix = jt.piece_index(p);
      if (relative && !prefix.empty()) {
        prefix[0] -= jt.first_row();
      }
      for (std::size_t k = 0; k < prefix.size(); ++k) {
        index[k] = prefix[k];
      }
      const Index e = jt.piece_extents(p);
      E* values = jt.piece_data(p);
      const std::size_t lead = prefix.size();
      for_each_box_row(e, [&](const Index& g, index_t count) {
        for (std::size_t k = 0; k + 1 < e.size(); ++k) {
          index[lead + k] = g[k];
        }
        if (e.empty()) {
          index.call(f, *values++);
          return;
        }
        STRATA_UNROLL_ROW
        for (index_t n = 0; n < count; ++n) {
          index.call_last(f, n, values[n]);
        }
        values += count;
      });
    }
  });
}

/// The loop over a layout tensor's pieces (tiles), in parallel over pieces: logical indices.
template <int N, ExecutionPolicy P, class E, class L, class F>
void layout_tensor_indexed(const P& policy, L& lt, F& f) {
  using V = std::remove_const_t<E>;
  const Layout& layout = lt.layout();
  const auto rank = static_cast<std::size_t>(layout.logical().rank());
  E* const data = lt.buffer().data();
  parallel::for_each_weighted_part(policy, layout.piece_starts(), [&](index_t lo, index_t hi) {
    IndexCursor<N> index(rank);
    for (index_t p = lo; p < hi; ++p) {
      const Index origin = layout.piece(p).origin();
      const Dimensions d = layout.piece_dimensions(p);
      walk_runs<1>({&d}, 0, d.size(),
                   [&](const Index& g, const std::array<index_t, 1>& at,
                       const std::array<index_t, 1>& stride, index_t count) {
                     if (rank == 0) {
                       index.call(f, static_cast<E&>(data[at[0]]));
                       return;
                     }
                     const std::size_t last = rank - 1;
                     for (std::size_t k = 0; k < last; ++k) {
                       index[k] = origin[k] + g[k];
                     }
                     E* element = data + at[0];
                     const index_t first = origin[last] + g[last];
                     if (stride[0] == 1) {
                       STRATA_UNROLL_ROW
                       for (index_t n = 0; n < count; ++n) {
                         index.call_last(f, first + n, element[n]);
                       }
                     } else {
                       STRATA_UNROLL_ROW
                       for (index_t n = 0; n < count; ++n, element += stride[0]) {
                         index.call_last(f, first + n, *element);
                       }
                     }
                   });
    }
  });
  (void)sizeof(V);
}

}  // namespace detail

/// Calls `f(i, j, ..., x)` (or `f(index, x)` with an IndexSpan) for every element `x` of a
/// tensor view and its absolute index: where the element sits in the tensor the view was cut
/// from (Tensor::indices()). `x` is a reference: writable when `f` takes `T&` and the view can
/// be written, `const T&` otherwise.
///
/// The index is updated incrementally (no division per element) and the innermost axis is a
/// tight loop; with `par` the elements are split into contiguous parts on OpenMP threads (a
/// part may start mid-row), so `f` is called concurrently. Buffers without data() are walked
/// on one thread. The first exception `f` throws reaches the caller.
///
/// @code
/// strata::Tensor<float> t(strata::Index{128, 128, 128});
/// auto slab = t.select({strata::Range{32, 96}, strata::Range{32, 96}, strata::Range{8, 120}});
/// strata::for_each_indexed(strata::par, slab, [](strata::index_t i, strata::index_t j,
///                                                strata::index_t k, float& x) {
///   x = float(i + j + k);      // i, j, k are t's indices: i in [32, 96) ...
/// });
/// @endcode
/// @param policy seq or par
/// @param t the view (a Tensor or Tensor<const T>)
/// @param f the function: rank integer indices (or one IndexSpan), then the element
/// @throws ShapeError when f takes a number of indices other than the rank; LayoutError when f
///         writes and the view cannot be written (a broadcast, an aliasing map, a read-only
///         buffer), or when the view has relative indices only (after a roll, a broadcast, a
///         reshape or an index array: ask for strata::relative). Nothing is called then.
template <ExecutionPolicy P, class T, class F>
void for_each_indexed(const P& policy, const Tensor<T>& t, F&& f) {
  detail::for_each_indexed_tensor(policy, t, absolute, f);
}

/// for_each_indexed() with relative indices: from all zeros at the view's first element
/// (Tensor::offsets()); defined for every view.
/// @param policy seq or par
/// @param t the view
/// @param kind strata::relative
/// @param f the function: rank integer indices (or one IndexSpan), then the element
/// @throws ShapeError, LayoutError as the absolute overload (but every view has relative
///         indices)
template <ExecutionPolicy P, class T, class F>
void for_each_indexed(const P& policy, const Tensor<T>& t, Relative kind, F&& f) {
  detail::for_each_indexed_tensor(policy, t, kind, f);
}

/// for_each_indexed() with absolute indices, spelled out.
/// @param policy seq or par
/// @param t the view
/// @param kind strata::absolute
/// @param f the function: rank integer indices (or one IndexSpan), then the element
/// @throws ShapeError, LayoutError as the first overload
template <ExecutionPolicy P, class T, class F>
void for_each_indexed(const P& policy, const Tensor<T>& t, Absolute kind, F&& f) {
  detail::for_each_indexed_tensor(policy, t, kind, f);
}

/// Calls `f(i, j, ...)` (or `f(index)`) for every index of a shape or shape view: Smooth,
/// SmoothView, Jagged, JaggedView, Nested, NestedView or Shape. Absolute indices (from the
/// shape's origin) unless @p kind is strata::relative. Boxes and jagged shapes with smooth rows
/// walk rows with a tight inner loop (jagged rows in parallel, balanced by size); other shapes
/// step their odometer. Calls may run concurrently under `par`.
///
/// @code
/// auto rows = strata::Jagged::from_lengths({3, 0, 2}).slice({1}, {3});
/// strata::for_each_indexed(strata::seq, rows, [](strata::index_t r, strata::index_t k) {
///   // (2, 0) (2, 1): absolute row numbers, kept by the slice
/// });
/// @endcode
/// @param policy seq or par
/// @param shape the shape
/// @param kind strata::absolute or strata::relative
/// @param f the function: rank integer indices, or one IndexSpan
/// @throws ShapeError when f takes a number of indices other than the rank
template <ExecutionPolicy P, ShapeLike S, class Kind, class F>
requires(std::is_same_v<Kind, Absolute> ||
         std::is_same_v<Kind, Relative>) void for_each_indexed(const P& policy, const S& shape,
                                                               Kind kind, F&& f) {
  constexpr int arity = detail::index_arity<F>();
  static_assert(arity != -2,
                "for_each_indexed: the function must take the indices (one integer per mode, or "
                "an IndexSpan)");
  detail::check_arity("for_each_indexed", arity, shape.rank());
  (void)kind;
  const Index origin = std::is_same_v<Kind, Relative>
                           ? Index(static_cast<std::size_t>(shape.rank()), 0)
                           : shape.origin();
  detail::shape_indexed<arity>(policy, shape, origin, f);
}

/// for_each_indexed() over a shape with absolute indices.
/// @param policy seq or par
/// @param shape the shape
/// @param f the function: rank integer indices, or one IndexSpan
/// @throws ShapeError when f takes a number of indices other than the rank
template <ExecutionPolicy P, ShapeLike S, class F>
void for_each_indexed(const P& policy, const S& shape, F&& f) {
  for_each_indexed(policy, shape, absolute, std::forward<F>(f));
}

/// Calls `f(r, k, x)` (or `f(index, x)`) for every element of a jagged tensor with its jagged
/// index: the outer (row) indices, then the index inside the row. Absolute row numbers for a
/// slice of rows (JaggedTensor::rows) unless @p kind is strata::relative. Parallel over rows
/// (or smooth pieces) balanced by their sizes; `x` is writable when `f` takes `T&`.
///
/// @code
/// strata::JaggedTensor<float> jt(strata::Jagged::from_lengths({3, 0, 2}));
/// strata::for_each_indexed(strata::par, jt.rows(1, 3), strata::absolute,
///                          [](strata::index_t r, strata::index_t k, float& x) { x = r + k; });
/// @endcode
/// @param policy seq or par
/// @param jt the jagged tensor
/// @param kind strata::absolute or strata::relative
/// @param f the function: rank integer indices (or one IndexSpan), then the element
/// @throws ShapeError when f takes a number of indices other than the rank
template <ExecutionPolicy P, class J, class Kind, class F>
requires(std::is_same_v<std::remove_cvref_t<J>,
                        JaggedTensor<typename std::remove_cvref_t<J>::value_type>> &&
         (std::is_same_v<Kind, Absolute> ||
          std::is_same_v<Kind, Relative>)) void for_each_indexed(const P& policy, J&& jt, Kind kind,
                                                                 F&& f) {
  using T = typename std::remove_cvref_t<J>::value_type;
  using E = std::conditional_t<std::is_const_v<std::remove_reference_t<J>>, const T, T>;
  constexpr int arity = detail::index_arity<F, E&>();
  static_assert(arity != -2,
                "for_each_indexed: the function must take the indices (one integer per mode, or "
                "an IndexSpan) followed by the element");
  detail::check_arity("for_each_indexed", arity, jt.shape().rank());
  (void)kind;
  detail::jagged_tensor_indexed<arity, P, E>(policy, jt, std::is_same_v<Kind, Relative>, f);
}

/// for_each_indexed() over a jagged tensor with absolute indices.
/// @param policy seq or par
/// @param jt the jagged tensor
/// @param f the function: rank integer indices (or one IndexSpan), then the element
/// @throws ShapeError when f takes a number of indices other than the rank
template <ExecutionPolicy P, class J, class F>
requires std::is_same_v<std::remove_cvref_t<J>,
                        JaggedTensor<typename std::remove_cvref_t<J>::value_type>>
void for_each_indexed(const P& policy, J&& jt, F&& f) {
  for_each_indexed(policy, std::forward<J>(jt), absolute, std::forward<F>(f));
}

/// Calls `f(i, j, ..., x)` (or `f(index, x)`) for every element of a layout tensor with its
/// logical index, whatever the layout: parallel over pieces (tiles), each walked in its storage
/// order, so tiled storage is read and written where it lies.
/// @param policy seq or par
/// @param lt the layout tensor
/// @param f the function: rank integer indices (or one IndexSpan), then the element
/// @throws ShapeError when f takes a number of indices other than the rank
template <ExecutionPolicy P, class L, class F>
requires std::is_same_v<std::remove_cvref_t<L>,
                        LayoutTensor<typename std::remove_cvref_t<L>::value_type>>
void for_each_indexed(const P& policy, L&& lt, F&& f) {
  using T = typename std::remove_cvref_t<L>::value_type;
  using E = std::conditional_t<std::is_const_v<std::remove_reference_t<L>>, const T, T>;
  constexpr int arity = detail::index_arity<F, E&>();
  static_assert(arity != -2,
                "for_each_indexed: the function must take the indices (one integer per mode, or "
                "an IndexSpan) followed by the element");
  detail::check_arity("for_each_indexed", arity, lt.layout().logical().rank());
  detail::layout_tensor_indexed<arity, P, E>(policy, lt, f);
}

/// Writes `f(i, j, ...)` (or `f(index)`) into every element of a view, the index absolute
/// unless @p kind is strata::relative: NumPy's `np.fromfunction` into a view, in one parallel
/// pass.
///
/// @code
/// strata::tabulate(strata::par, t.select({strata::Range{2, 6}}),
///                  [](strata::index_t i, strata::index_t j) { return 10.0 * i + j; });
/// @endcode
/// @param policy seq or par
/// @param t the view (writable)
/// @param kind strata::absolute or strata::relative
/// @param f the function of the index
/// @throws as for_each_indexed (LayoutError for a view that cannot be written)
template <ExecutionPolicy P, class T, class Kind, class F>
requires(!std::is_const_v<T> && (std::is_same_v<Kind, Absolute> ||
                                 std::is_same_v<Kind, Relative>)) void tabulate(const P& policy,
                                                                                const Tensor<T>& t,
                                                                                Kind kind, F&& f) {
  constexpr int arity = detail::index_arity<F>();
  static_assert(arity != -2,
                "tabulate: the function must take the indices (one integer per axis, or an "
                "IndexSpan)");
  detail::check_arity("tabulate", arity, t.rank());
  if (!t.is_writable()) {
    detail::fail<LayoutError>("tabulate", "the view ", t.dims(),
                              " cannot be written (several indices share an address, or the "
                              "buffer is read-only)");
  }
  const detail::LoopFrame frame = detail::loop_frame(t, kind, "tabulate");
  auto body = detail::assign_from<arity, T>(f);
  detail::tensor_indexed<arity>(policy, t, frame, true, body);
}

/// tabulate() with absolute indices.
/// @param policy seq or par
/// @param t the view (writable)
/// @param f the function of the index
/// @throws as for_each_indexed (LayoutError for a view that cannot be written)
template <ExecutionPolicy P, class T, class F>
requires(!std::is_const_v<T>) void tabulate(const P& policy, const Tensor<T>& t, F&& f) {
  tabulate(policy, t, absolute, std::forward<F>(f));
}

/// Writes `f(r, k)` (or `f(index)`) into every element of a jagged tensor (or a slice of its
/// rows, JaggedTensor::rows), the row numbers absolute unless @p kind is strata::relative: the
/// loop of for_each_indexed over the same rows.
///
/// @code
/// strata::tabulate(strata::par, jt.rows(1, 3), [](strata::index_t r, strata::index_t k) {
///   return 10.0 * r + k;
/// });
/// @endcode
/// @param policy seq or par
/// @param jt the jagged tensor (writable)
/// @param kind strata::absolute or strata::relative
/// @param f the function of the index
/// @throws ShapeError when f takes a number of indices other than the rank
template <ExecutionPolicy P, class J, class Kind, class F>
requires(std::is_same_v<std::remove_cvref_t<J>,
                        JaggedTensor<typename std::remove_cvref_t<J>::value_type>> &&
         !std::is_const_v<std::remove_reference_t<J>> &&
         (std::is_same_v<Kind, Absolute> ||
          std::is_same_v<Kind, Relative>)) void tabulate(const P& policy, J&& jt, Kind kind,
                                                         F&& f) {
  using T = typename std::remove_cvref_t<J>::value_type;
  constexpr int arity = detail::index_arity<F>();
  static_assert(arity != -2,
                "tabulate: the function must take the indices (one integer per mode, or an "
                "IndexSpan)");
  detail::check_arity("tabulate", arity, jt.shape().rank());
  (void)kind;
  auto body = detail::assign_from<arity, T>(f);
  detail::jagged_tensor_indexed<arity, P, T>(policy, jt, std::is_same_v<Kind, Relative>, body);
}

/// tabulate() over a jagged tensor with absolute row numbers.
/// @param policy seq or par
/// @param jt the jagged tensor (writable)
/// @param f the function of the index
/// @throws ShapeError when f takes a number of indices other than the rank
template <ExecutionPolicy P, class J, class F>
requires(std::is_same_v<std::remove_cvref_t<J>,
                        JaggedTensor<typename std::remove_cvref_t<J>::value_type>> &&
         !std::is_const_v<std::remove_reference_t<J>>) void tabulate(const P& policy, J&& jt,
                                                                     F&& f) {
  tabulate(policy, std::forward<J>(jt), absolute, std::forward<F>(f));
}

/// Writes `f(i, j, ...)` (or `f(index)`) into every element of a layout tensor, with its
/// logical index, tile by tile where the tiles lie: the loop of for_each_indexed.
/// @param policy seq or par
/// @param lt the layout tensor (writable)
/// @param f the function of the logical index
/// @throws ShapeError when f takes a number of indices other than the rank
template <ExecutionPolicy P, class L, class F>
requires(std::is_same_v<std::remove_cvref_t<L>,
                        LayoutTensor<typename std::remove_cvref_t<L>::value_type>> &&
         !std::is_const_v<std::remove_reference_t<L>>) void tabulate(const P& policy, L&& lt,
                                                                     F&& f) {
  using T = typename std::remove_cvref_t<L>::value_type;
  constexpr int arity = detail::index_arity<F>();
  static_assert(arity != -2,
                "tabulate: the function must take the indices (one integer per mode, or an "
                "IndexSpan)");
  detail::check_arity("tabulate", arity, lt.layout().logical().rank());
  auto body = detail::assign_from<arity, T>(f);
  detail::layout_tensor_indexed<arity, P, T>(policy, lt, body);
}

}  // namespace strata
