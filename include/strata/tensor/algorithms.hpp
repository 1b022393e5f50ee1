/// @file
/// Algorithms on tensors: map, zip_with (broadcasting), reduce along axes with any operation,
/// for_each, transform, allclose. (The named reductions, sum to argmax, are in
/// strata/expr/reduce.hpp: they take tensors and expressions alike.) Parallel with seq / par;
/// reductions are deterministic.
#pragma once

#include "strata/core/error.hpp"
#include "strata/layout/odometer.hpp"
#include "strata/layout/reduce_jointly.hpp"
#include "strata/parallel/policy.hpp"
#include "strata/tensor/reduce_kernel.hpp"
#include "strata/tensor/sparse.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <type_traits>

namespace strata {

namespace detail {

/// Every axis of a tensor of rank @p rank: 0, 1, ..., rank - 1.
inline Index all_axes(int rank) {
  Index axes(static_cast<std::size_t>(rank));
  std::iota(axes.begin(), axes.end(), index_t{0});
  return axes;
}

/// The positions of the true entries of @p marked.
inline Index marked_axes(const std::vector<bool>& marked) {
  Index axes;
  for (std::size_t k = 0; k < marked.size(); ++k) {
    if (marked[k]) {
      axes.push_back(static_cast<index_t>(k));
    }
  }
  return axes;
}

/// Reads through a buffer: the raw array when there is one. @p T may be const.
template <class T>
struct Reader {
  using V = std::remove_const_t<T>;
  const V* data;
  const AnyBuffer<V>* buffer;
  explicit Reader(const AnyBuffer<V>& b) : data(b.data()), buffer(&b) {}
  V operator()(index_t address) const {
    return data != nullptr ? data[address] : buffer->read(address);
  }
  /// Whether reads may run on several threads (raw arrays; user buffers need not be thread-safe).
  [[nodiscard]] bool concurrent() const { return data != nullptr; }
};

}  // namespace detail

/// A new tensor with `f(x)` for every element x, in the same shape: dense, or for a sparse
/// tensor (or view) a sparse one whose fill value is f(fill), computed from the stored entries
/// only (so sparsity is kept, and `f` runs O(nnz) times).
/// @param t the input
/// @param f the function, `U f(T)`
/// @param policy seq or par
/// @return the mapped tensor
template <class T, class F, ExecutionPolicy P = Parallel>
auto map(const Tensor<T>& t, F&& f, const P& policy = P{}) {
  using U = std::remove_cvref_t<std::invoke_result_t<F&, T>>;
  if constexpr (std::equality_comparable<U>) {
    if (const auto* s = sparse_buffer(t)) {
      return detail::sparse_map<U>(t.dims(), *s, f, policy);
    }
  }
  Tensor<U> out(t.shape());
  U* dst = out.buffer().data();
  const detail::Reader<T> read(t.buffer());
  const Dimensions r = t.dims().reduced();
  const auto body = [&](index_t begin, index_t end) {
    index_t i = begin;
    detail::walk_rows<1>(
        {&r}, begin, end,
        [&](const std::array<index_t, 1>& at, const std::array<index_t, 1>& stride, index_t count) {
          for (index_t k = 0; k < count; ++k) {
            dst[i++] = f(read(at[0] + k * stride[0]));
          }
        });
  };
  if (read.concurrent()) {
    parallel::for_each_part(policy, r.size(), body);
  } else {
    body(0, r.size());
  }
  return out;
}

/// Writes `f(a, b)` element-wise into the view @p dst, `a` and `b` broadcast to dst's shape
/// with NumPy's rules (`np.add(a, b, out=dst)`).
/// @param dst the output view (writable, not a broadcast view)
/// @param a, b the inputs
/// @param f the function, `V f(T, U)`
/// @param policy seq or par
/// @throws BroadcastError when a, b and dst do not broadcast to dst's shape; LayoutError when
///         dst cannot be written. Nothing is written then.
template <class V, class T, class U, class F, ExecutionPolicy P = Parallel>
requires(!std::is_const_v<V>) void zip_with_into(Tensor<V>&& dst, const Tensor<T>& a,
                                                 const Tensor<U>& b, F&& f, const P& policy = P{}) {
  const Index shape = dst.shape();
  if (broadcast_shapes(broadcast_shapes(a.shape(), b.shape(), "zip_with"), shape, "zip_with") !=
      shape) {
    detail::fail<BroadcastError>("zip_with", "shapes ", to_string(a.shape()), " and ",
                                 to_string(b.shape()), " do not broadcast to the output shape ",
                                 to_string(shape));
  }
  if (dst.dims().aliases() || !dst.buffer().writable()) {
    detail::fail<LayoutError>("zip_with", "the output ", dst.dims(),
                              " cannot be written (several indices share an address, or the "
                              "buffer is read-only)");
  }
  const Footprint out_memory = dst.buffer().footprint();
  const Footprint a_memory = a.buffer().footprint();
  const Footprint b_memory = b.buffer().footprint();
  if (detail::reads_under_writes(a_memory, a.dims(), out_memory, &dst.dims()) ||
      detail::reads_under_writes(b_memory, b.dims(), out_memory, &dst.dims())) {
    // An input overlaps the output through another map: compute apart, then copy (as NumPy
    // buffers such overlaps). An input read through the output's own map (`a = f(a, b)`)
    // needs no copy: each element is read before it is written.
    Tensor<V> fresh(shape);
    zip_with_into(fresh, a, b, std::forward<F>(f), policy);
    dst.assign(fresh, policy);
    return;
  }
  // An input that shares the output's memory now reads it through the output's own map.
  const bool in_place = a_memory.overlaps(out_memory) || b_memory.overlaps(out_memory);
  const Dimensions& od = dst.dims();
  const Dimensions ad = a.dims().broadcast(shape);
  const Dimensions bd = b.dims().broadcast(shape);
  V* out = dst.buffer().data();
  const AnyBuffer<V>& out_buffer = dst.buffer();
  const detail::Reader<T> ra(a.buffer());
  const detail::Reader<U> rb(b.buffer());
  const auto body = [&](index_t begin, index_t end) {
    detail::walk_rows<3>(
        {&od, &ad, &bd}, begin, end,
        [&](const std::array<index_t, 3>& at, const std::array<index_t, 3>& stride, index_t count) {
          if (out == nullptr) {
            for (index_t k = 0; k < count; ++k) {
              out_buffer.write(at[0] + k * stride[0],
                               f(ra(at[1] + k * stride[1]), rb(at[2] + k * stride[2])));
            }
            return;
          }
          if (in_place) {  // the same addresses, so no __restrict
            V* const o = out + at[0];
            if (ra.concurrent() && rb.concurrent() && stride[0] == 1 && stride[1] == 1 &&
                (stride[2] == 0 || stride[2] == 1)) {
              const auto* x = ra.data + at[1];
              const auto* y = rb.data + at[2];
              if (stride[2] == 1) {
                for (index_t k = 0; k < count; ++k) {
                  o[k] = f(x[k], y[k]);
                }
              } else {
                const U y0 = *y;
                for (index_t k = 0; k < count; ++k) {
                  o[k] = f(x[k], y0);
                }
              }
              return;
            }
            for (index_t k = 0; k < count; ++k) {
              o[k * stride[0]] = f(ra(at[1] + k * stride[1]), rb(at[2] + k * stride[2]));
            }
            return;
          }
          V* __restrict o = out + at[0];
          if (ra.concurrent() && rb.concurrent() && stride[0] == 1 && stride[1] == 1 &&
              stride[2] == 0) {
            const auto* __restrict x = ra.data + at[1];
            const U y = rb.data[at[2]];
            for (index_t k = 0; k < count; ++k) {
              o[k] = f(x[k], y);
            }
          } else if (ra.concurrent() && rb.concurrent() && stride[0] == 1 && stride[1] == 1 &&
                     stride[2] == 1) {
            const auto* __restrict x = ra.data + at[1];
            const U* __restrict y = rb.data + at[2];
            for (index_t k = 0; k < count; ++k) {
              o[k] = f(x[k], y[k]);
            }
          } else {
            for (index_t k = 0; k < count; ++k) {
              o[k * stride[0]] = f(ra(at[1] + k * stride[1]), rb(at[2] + k * stride[2]));
            }
          }
        });
  };
  if (out != nullptr && ra.concurrent() && rb.concurrent()) {
    parallel::for_each_part(policy, od.size(), body);
  } else {
    body(0, od.size());
  }
}

/// Writes `f(a, b)` into an existing writable tensor (an lvalue; see the rvalue form above).
/// @param dst the destination, of the broadcast shape of @p a and @p b
/// @param a the first operand
/// @param b the second operand
/// @param f the function, `f(a_element, b_element)`
/// @param policy seq or par
/// @throws BroadcastError as the rvalue form
template <class V, class T, class U, class F, ExecutionPolicy P = Parallel>
requires(!std::is_const_v<V>) void zip_with_into(Tensor<V>& dst, const Tensor<T>& a,
                                                 const Tensor<U>& b, F&& f, const P& policy = P{}) {
  zip_with_into(std::move(dst), a, b, std::forward<F>(f), policy);
}

/// A new tensor with `f(a, b)` element-wise, `a` and `b` broadcast against each other
/// with NumPy's rules: dense, or sparse when both are sparse (fill f(fill_a, fill_b), computed
/// on the union of the stored entries).
/// @param a, b the inputs
/// @param f the function, `V f(T, U)`
/// @param policy seq or par
/// @return the result, of the broadcast shape
/// @throws BroadcastError when the shapes do not broadcast
template <class T, class U, class F, ExecutionPolicy P = Parallel>
auto zip_with(const Tensor<T>& a, const Tensor<U>& b, F&& f, const P& policy = P{}) {
  using V = std::remove_cvref_t<std::invoke_result_t<F&, T, U>>;
  const Index shape = broadcast_shapes(a.shape(), b.shape(), "zip_with");
  if constexpr (std::equality_comparable<V>) {
    const auto* sa = sparse_buffer(a);
    const auto* sb = sparse_buffer(b);
    if (sa != nullptr && sb != nullptr) {
      return detail::sparse_zip<V>(a.dims().broadcast(shape), *sa, b.dims().broadcast(shape), *sb,
                                   f, policy);
    }
  }
  Tensor<V> out(shape);
  zip_with_into(out, a, b, std::forward<F>(f), policy);
  return out;
}

namespace detail {

/// The sum of @p count contiguous values, as every strata sum of a contiguous run adds them:
/// in order for short runs, in 8 interleaved lanes (vectorised, then added pairwise) from 16 on.
template <class V>
V contiguous_sum(const V* src, index_t count) {
  if (count < 16) {
    V value{};
    for (index_t k = 0; k < count; ++k) {
      value = value + src[k];
    }
    return value;
  }
  std::array<V, 8> lanes{};
  index_t k = 0;
  for (; k + 8 <= count; k += 8) {
    for (std::size_t l = 0; l < 8; ++l) {
      lanes[l] += src[k + static_cast<index_t>(l)];
    }
  }
  V tail{};
  for (; k < count; ++k) {
    tail += src[k];
  }
  return ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) +
         ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7])) + tail;
}

}  // namespace detail

/// Reduces along the given axes with a binary operation, as `np.add.reduce(t, axis=axes)`.
///
/// Each output element combines its inputs in row-major order, and parallel work is split over
/// output elements (or, for a reduction to one value, over fixed chunks combined in order), so
/// the result has the same bits for any thread count. The named reductions (strata::sum,
/// strata::min, strata::any, ... in strata/expr/reduce.hpp) run on the same kernel.
///
/// A sparse tensor (or view) is reduced in O(nnz + output size): each output combines its
/// stored inputs in row-major order, then the fill value once per unstored input, in closed
/// form (`op` applied by repeated squaring, so it must be associative and commutative, as
/// for any reordering reduction).
/// @param t the input
/// @param axes the axes to reduce (negative counts from the end); empty reduces nothing
/// @param init the identity of @p op (0 for +, 1 for *, +inf for min...)
/// @param op `T op(T, T)`, associative
/// @param keepdims keep reduced axes with extent 1, as NumPy's keepdims
/// @param policy seq or par
/// @return the reduced tensor
/// @throws IndexError when an axis does not exist or is named twice
template <class T, class Op, ExecutionPolicy P = Parallel>
Tensor<std::remove_const_t<T>> reduce(const Tensor<T>& t, IndexSpan axes,
                                      std::type_identity_t<std::remove_const_t<T>> init, Op op,
                                      bool keepdims = false, const P& policy = P{}) {
  using V = std::remove_const_t<T>;
  const std::vector<bool> reduced = detail::reduced_axes(t.shape(), axes, "reduce");
  const Index shape = t.shape();
  const Index kept = detail::kept_shape(shape, reduced);
  // Every output starts as init: one pass over fresh memory, not a zeroing pass first.
  Tensor<V> out(AnyBuffer<V>(DenseBuffer<V>::for_overwrite(checked_size(kept, "reduce"))),
                Dimensions(kept));
  V* dst = out.buffer().data();
  std::fill_n(dst, out.size(), init);
  if (const auto* s = sparse_buffer(t)) {
    // Stored entries only, the fill value in closed form: O(nnz + output).
    detail::sparse_reduce_into(t.dims(), *s, reduced, dst, out.size(), V(init), op, policy);
  } else {
    // A buffer without an array (a generator, user storage) is read once into one.
    const Tensor<const V> source = t.buffer().data() != nullptr ? Tensor<const V>(t) : t.copy(seq);
    const std::array<const void*, 1> data{source.buffer().data()};
    const Dimensions map = source.dims();
    detail::reduce_runs<V, 1>(
        std::span<const Dimensions>(&map, 1), data, shape, reduced, dst, V(init),
        [](auto unit, const detail::RunState<1>& run) {
          return detail::array_reader<V, 0, decltype(unit)::value>(run);
        },
        op, op, false, policy);
  }
  return keepdims ? out : out.squeeze(detail::marked_axes(reduced));
}

/// Whether two tensors have the same shape and the same elements (`np.array_equal`).
/// @param a, b the tensors
/// @return true when equal
template <class T, class U>
bool array_equal(const Tensor<T>& a, const Tensor<U>& b) {
  if (a.shape() != b.shape()) {
    return false;
  }
  const auto x = a.to_vector();
  const auto y = b.to_vector();
  return std::equal(x.begin(), x.end(), y.begin(), y.end(),
                    [](const auto& p, const auto& q) { return p == q; });
}

/// Whether two tensors of broadcastable shapes are equal within tolerances, as `np.allclose`:
/// `|a - b| <= atol + rtol * |b|` everywhere; equal infinities are close, NaNs never are
/// (NumPy's `equal_nan=False`).
/// @param a, b the tensors
/// @param rtol the relative tolerance
/// @param atol the absolute tolerance
/// @return true when every pair is close
/// @throws BroadcastError when the shapes do not broadcast
template <class T, class U>
bool allclose(const Tensor<T>& a, const Tensor<U>& b, double rtol = 1e-5, double atol = 1e-8) {
  using A = std::remove_const_t<T>;
  using B = std::remove_const_t<U>;
  const Tensor<unsigned char> close = zip_with(a, b, [rtol, atol](A x, B y) -> unsigned char {
    const auto dx = static_cast<double>(x);
    const auto dy = static_cast<double>(y);
    if (dx == dy) {
      return 1;  // also equal infinities, whose difference is NaN
    }
    if (!std::isfinite(dx) || !std::isfinite(dy)) {
      return 0;
    }
    return std::abs(dx - dy) <= atol + rtol * std::abs(dy) ? 1 : 0;
  });
  const auto values = close.to_vector();
  return std::all_of(values.begin(), values.end(), [](unsigned char c) { return c == 1; });
}

/// Calls `f(value)` for every element in row-major order (seq), or in parallel parts (par).
/// @param policy seq or par
/// @param t the tensor
/// @param f the visitor; under par it must be safe to call concurrently
template <ExecutionPolicy P, class T, class F>
void for_each(const P& policy, const Tensor<T>& t, F&& f) {
  const detail::Reader<T> read(t.buffer());
  const Dimensions r = t.dims().reduced();
  const auto body = [&](index_t begin, index_t end) {
    detail::walk_rows<1>(
        {&r}, begin, end,
        [&](const std::array<index_t, 1>& at, const std::array<index_t, 1>& stride, index_t count) {
          for (index_t k = 0; k < count; ++k) {
            f(read(at[0] + k * stride[0]));
          }
        });
  };
  if (read.concurrent()) {
    parallel::for_each_part(policy, r.size(), body);
  } else {
    body(0, r.size());
  }
}

/// Writes `f(x)` for every element x of @p src into the view @p dst (src broadcast to dst's
/// shape with NumPy's rules).
/// @param policy seq or par
/// @param src the input
/// @param dst the output view
/// @param f the function
/// @throws BroadcastError when src does not broadcast to dst; LayoutError when dst cannot be
///         written
template <ExecutionPolicy P, class T, class U, class F>
requires(!std::is_const_v<U>) void transform(const P& policy, const Tensor<T>& src, Tensor<U>& dst,
                                             F&& f) {
  dst.assign(map(src, std::forward<F>(f), policy), policy);
}

/// Reduces every element to one value, deterministically (fixed chunks combined in order).
/// @param policy seq or par
/// @param t the tensor
/// @param init the identity of @p op
/// @param op an associative `T op(T, T)`
/// @return the reduction
template <ExecutionPolicy P, class T, class Op, class V = std::remove_const_t<T>>
V reduce(const P& policy, const Tensor<T>& t, std::type_identity_t<V> init, Op op) {
  Index every(static_cast<std::size_t>(t.rank()));
  std::iota(every.begin(), every.end(), index_t{0});
  return reduce(t, every, init, op, false, policy).at({});
}

}  // namespace strata
