/// @file
/// Evaluating expressions: into a view (one pass over the destination, jointly reduced with
/// every source, row loops that vectorise, OpenMP parts), into a new tensor, or printed.
#pragma once

#include "strata/expr/expression.hpp"
#include "strata/layout/odometer.hpp"
#include "strata/layout/reduce_jointly.hpp"
#include "strata/parallel/policy.hpp"
#include "strata/tensor/print.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <optional>
#include <ostream>
#include <vector>

namespace strata {

namespace detail {

/// Writes the expression into a writable view with an array, in one pass. The destination's
/// map and every leaf's map (broadcast to the destination's shape) are reduced jointly, then
/// walked run by run: in a run every map moves by a fixed stride, and when all strides are 1
/// the run is a plain loop over arrays that the compiler vectorises.
template <class T, class E, ExecutionPolicy P>
void evaluate_dense(const Tensor<T>& dst, const E& e, const P& policy) {
  static_assert(!jagged_v<E>,
                "strata: an expression over a JaggedTensor evaluates into a JaggedTensor "
                "(JaggedTensor<T> r = expr; or strata::evaluate_jagged(expr)), not a dense tensor");
  constexpr std::size_t N = leaves_v<E>;
  Prepared prepared;
  prepared.shape = dst.shape();
  prepared.destination = dst.buffer().footprint();
  prepared.destination_map = &dst.dims();
  prepared.parallel = std::is_same_v<P, Parallel>;
  e.prepare(prepared);
  std::vector<Dimensions> maps;
  maps.reserve(N + 1);
  maps.push_back(dst.dims());
  for (const Dimensions& m : prepared.maps) {
    maps.push_back(m);
  }
  const std::vector<Dimensions> joint = reduce_jointly(std::span<const Dimensions>(maps));
  std::array<const Dimensions*, N + 1> pointers{};
  for (std::size_t m = 0; m <= N; ++m) {
    pointers[m] = &joint[m];
  }
  T* const out = dst.buffer().data();
  parallel::for_each_part(policy, joint[0].size(), [&](index_t begin, index_t end) {
    RunState<N> run;
    for (std::size_t m = 0; m < N; ++m) {
      run.data[m] = prepared.data[m];
    }
    walk_rows<N + 1>(pointers, begin, end,
                     [&](const std::array<index_t, N + 1>& start,
                         const std::array<index_t, N + 1>& stride, index_t count) {
                       bool unit = stride[0] == 1;
                       for (std::size_t m = 0; m < N; ++m) {
                         run.start[m] = start[m + 1];
                         run.stride[m] = stride[m + 1];
                         unit = unit && stride[m + 1] == 1;
                       }
                       T* const o = out + start[0];
                       if (unit) {
                         const auto value = e.template bind<0, true>(run);
                         for (index_t t = 0; t < count; ++t) {
                           o[t] = static_cast<T>(value(t));
                         }
                       } else {
                         const auto value = e.template bind<0, false>(run);
                         const index_t so = stride[0];
                         for (index_t t = 0; t < count; ++t) {
                           o[t * so] = static_cast<T>(value(t));
                         }
                       }
                     });
  });
}

/// Walks an expression with sparse leaves over the only positions where it can differ from
/// a constant, when the tree is constant outside its sparse leaves' entries (see Support):
/// the union of those entries, O(k log k) for k entries, whatever the shape. Sets @p positions
/// (row-major linear, increasing) and @p fill, calls `start(count)`, then `emit(i, value)` for
/// each position i (from parallel parts under `par`). Returns false, doing nothing else, when
/// the tree is not constant there (no sparse leaf, or a dense operand decides every value).
template <class V, class E, ExecutionPolicy P, class Start, class Emit>
bool walk_sparse(const E& e, const P& policy, std::vector<index_t>& positions, V& fill,
                 Start&& start, Emit&& emit) {
  if constexpr (jagged_v<E> || !std::equality_comparable<V>) {
    return false;
  } else {
    constexpr std::size_t N = leaves_v<E>;
    const auto support = e.template support<0>();
    if (!support.constant || support.leaves == 0) {
      return false;
    }
    Prepared prepared;
    prepared.shape = e.shape();
    prepared.parallel = std::is_same_v<P, Parallel>;
    prepared.sparse_mode = true;
    e.prepare(prepared);
    prepared.sparse.resize(N);
    // The positions: the union of the supporting leaves' entries.
    positions.clear();
    bool first = true;
    for (std::size_t leaf = 0; leaf < N && leaf < 64; ++leaf) {
      if ((support.leaves >> leaf & 1U) == 0) {
        continue;
      }
      const std::span<const index_t> mine = prepared.sparse[leaf].linear;
      if (first) {
        positions.assign(mine.begin(), mine.end());
        first = false;
        continue;
      }
      std::vector<index_t> merged;
      merged.reserve(positions.size() + mine.size());
      std::set_union(positions.begin(), positions.end(), mine.begin(), mine.end(),
                     std::back_inserter(merged));
      positions = std::move(merged);
    }
    // Dense leaves read at position g: offset + sum of g_k * stride_k when every axis is plain
    // or broadcast.
    std::array<bool, N> plain{};
    std::array<Index, N> strides{};
    for (std::size_t m = 0; m < N; ++m) {
      const Dimensions& d = prepared.maps[m];
      plain[m] = true;
      for (const Axis& a : d.axes()) {
        plain[m] = plain[m] && (a.is_plain() || a.stride == 0);  // broadcast axes add 0
        strides[m].push_back(a.stride);
      }
    }
    fill = static_cast<V>(support.value);
    const auto count = static_cast<index_t>(positions.size());
    start(count);
    const Unraveller unravel(prepared.shape);
    const auto rank = prepared.shape.size();
    parallel::for_each_part(policy, count, [&](index_t begin, index_t end) {
      RunState<N> run;
      std::array<std::size_t, N> cursor{};
      for (std::size_t m = 0; m < N; ++m) {
        const SparseLeaf& leaf = prepared.sparse[m];
        if (leaf.values != nullptr) {
          cursor[m] = static_cast<std::size_t>(
              std::lower_bound(leaf.linear.begin(), leaf.linear.end(),
                               positions[static_cast<std::size_t>(begin)]) -
              leaf.linear.begin());
        }
      }
      // By blocks: first every leaf's element of each position (dense elements prefetched),
      // then the tree on them, a short loop that keeps many of those loads in flight.
      constexpr index_t block = 64;
      std::array<std::array<const void*, block>, N> where{};
      Index g(rank, 0);
      for (index_t b = begin; b < end; b += block) {
        const index_t stop = std::min(end, b + block);
        for (index_t i = b; i < stop; ++i) {
          const index_t at = positions[static_cast<std::size_t>(i)];
          unravel(at, g.data());
          for (std::size_t m = 0; m < N; ++m) {
            const SparseLeaf& leaf = prepared.sparse[m];
            const void*& w = where[m][static_cast<std::size_t>(i - b)];
            if (leaf.values != nullptr) {
              std::size_t& c = cursor[m];
              while (c < leaf.linear.size() && leaf.linear[c] < at) {
                ++c;
              }
              w = c < leaf.linear.size() && leaf.linear[c] == at
                      ? static_cast<const char*>(leaf.values) + c * leaf.value_size
                      : leaf.fill;
            } else {
              const Dimensions& d = prepared.maps[m];
              index_t address = 0;
              if (plain[m]) {
                address = d.offset();
                for (std::size_t k = 0; k < rank; ++k) {
                  address += g[k] * strides[m][k];
                }
              } else {
                address = d.global_to_local(IndexSpan(g));
              }
              w = static_cast<const char*>(prepared.data[m]) +
                  address * static_cast<index_t>(leaf.value_size);
              __builtin_prefetch(w);
            }
          }
        }
        for (index_t i = b; i < stop; ++i) {
          for (std::size_t m = 0; m < N; ++m) {
            run.data[m] = where[m][static_cast<std::size_t>(i - b)];
            run.start[m] = 0;
            run.stride[m] = 0;
          }
          emit(i, static_cast<V>(e.template bind<0, run_strided>(run)(0)));
        }
      }
    });
    return true;
  }
}

/// Evaluates an expression with sparse leaves into a new sparse tensor when walk_sparse
/// applies; `nullopt` otherwise.
template <class V, class E, ExecutionPolicy P>
std::optional<Tensor<V>> evaluate_sparse(const E& e, const P& policy) {
  std::vector<index_t> positions;
  V fill{};
  ValueArray<V> values;
  if (!walk_sparse<V>(
          e, policy, positions, fill,
          [&values](index_t count) {
            values = ValueArray<V>(static_cast<std::size_t>(count), boost::container::default_init);
          },
          [&values](index_t i, V v) { values[static_cast<std::size_t>(i)] = std::move(v); })) {
    return std::nullopt;
  }
  // Values equal to the fill are dropped as the buffer adopts the entries.
  return sparse_from_sorted<V>(e.shape(), fill, std::move(positions), std::move(values));
}

/// Reduces an expression with sparse leaves along axes in one pass when walk_sparse applies:
/// each value is combined into its output as it is computed, in row-major order (so the bits
/// are those of evaluating, then reducing), then the fill in closed form. `nullopt` otherwise.
template <class V, class E, class Op>
std::optional<Tensor<V>> reduce_sparse(const E& e, IndexSpan axes, V init, Op op, bool keepdims) {
  const Index shape = e.shape();
  const std::vector<bool> reduced = reduced_axes(shape, axes, "reduce");
  Index kept_shape = shape;
  for (std::size_t k = 0; k < kept_shape.size(); ++k) {
    kept_shape[k] = reduced[k] ? 1 : shape[k];
  }
  std::vector<index_t> positions;
  V fill{};
  std::optional<Tensor<V>> out;
  std::optional<SparseReducer<V, Op>> reducer;
  // One thread: each output combines its inputs in row-major order.
  const auto start = [&](index_t /*count*/) {
    out.emplace(AnyBuffer<V>(DenseBuffer<V>::for_overwrite(checked_size(kept_shape, "sum"))),
                Dimensions(kept_shape));
    V* dst = out->buffer().data();
    std::fill_n(dst, out->size(), init);
    reducer.emplace(shape, reduced, dst, out->size(), init, fill, op);
  };
  const auto emit = [&](index_t i, const V& v) {
    reducer->add(positions[static_cast<std::size_t>(i)], v);
  };
  if (!walk_sparse<V>(e, seq, positions, fill, start, emit)) {
    return std::nullopt;
  }
  reducer->finish();
  return keepdims ? *out : out->squeeze(marked_axes(reduced));
}

/// Whether an expression is `a * b` of two tensors of its own element type (sum_product()).
template <class E>
inline constexpr bool is_tensor_product_v = false;
template <class R>
inline constexpr bool is_tensor_product_v<
    MapExpr<R, Converting<R, std::multiplies<>>, TensorExpr<R>, TensorExpr<R>>> = true;

/// Sums `a * b` along axes, in @p A, when one factor is a sparse tensor of zero fill with the
/// product's shape and the other a strided tensor with an array (either order; the product
/// `sum(K * x, 1)` of a sparse matrix and a vector): the stored entries of the sparse factor,
/// read as the matrix [kept axes, summed axes] (compressed rows kept by its buffer, as
/// einsum's), each output the sum of its row's entries times the dense factor's elements at
/// them, parallel over outputs. Each sum adds its products in row-major order from zero, as
/// reduce_sparse does (the same bits, for any thread count). `nullopt` otherwise (both
/// sparse, a broadcast sparse factor, a generated dense one, index arrays, an empty shape, no
/// summed axis).
template <class A, class E, ExecutionPolicy P>
std::optional<Tensor<A>> sum_product(const P& policy, const E& e, IndexSpan axes, bool keepdims) {
  if constexpr (!is_tensor_product_v<E>) {
    return std::nullopt;
  } else {
    using R = typename E::value_type;
    const Index shape = e.shape();
    const std::vector<bool> reduced = reduced_axes(shape, axes, "sum");
    std::vector<Tensor<const R>> factors;
    e.for_each_tensor([&factors](const Tensor<const R>& t) { factors.push_back(t); });
    const auto zero_fill = [](const Tensor<const R>& t) {
      const SparseBuffer<R>* s = sparse_buffer(t);
      return s != nullptr && s->fill() == R{};
    };
    const bool left = zero_fill(factors[0]);
    const Tensor<const R>& sparse = left ? factors[0] : factors[1];
    const Tensor<const R>& dense = left ? factors[1] : factors[0];
    const bool any_reduced = std::find(reduced.begin(), reduced.end(), true) != reduced.end();
    if (!zero_fill(sparse) || sparse_buffer(dense) != nullptr || dense.buffer().data() == nullptr ||
        !dense.dims().is_strided() || sparse.shape() != shape || !any_reduced ||
        std::find(shape.begin(), shape.end(), index_t{0}) != shape.end()) {
      return std::nullopt;
    }
    // The kept axes first, then the summed ones; a leading axis of 1 makes one row when
    // every axis is summed.
    Index perm;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      if (!reduced[k]) {
        perm.push_back(static_cast<index_t>(k));
      }
    }
    const std::size_t nkept = perm.size();
    for (std::size_t k = 0; k < shape.size(); ++k) {
      if (reduced[k]) {
        perm.push_back(static_cast<index_t>(k));
      }
    }
    const Tensor<const R> matrix(sparse.buffer(), sparse.dims().transpose(perm).unsqueeze(0));
    const std::shared_ptr<const Compressed<R>> kept = matricised_kept(matrix, true, nkept + 1);
    const Dimensions d = dense.dims().broadcast(shape).transpose(perm);
    const Index ds = d.strides();
    const Index ps = d.shape();
    std::vector<Divisor> by;
    for (std::size_t k = nkept; k < ps.size(); ++k) {
      by.emplace_back(ps[k]);
    }
    const std::size_t nsum = by.size();
    // A summed position's address (row-major over the summed axes) in the dense factor.
    const auto columns = [&](index_t c) {
      index_t at = 0;
      for (std::size_t k = nsum; k-- > 0;) {
        const index_t q = by[k].divide(c);
        at += (c - q * ps[nkept + k]) * ds[nkept + k];
        c = q;
      }
      return at;
    };
    // The summed axes at extent 1: the outputs row-major over the rows.
    Tensor<A> out(AnyBuffer<A>(DenseBuffer<A>::for_overwrite(kept->rows)),
                  Dimensions(kept_shape(shape, reduced)));
    A* const od = out.buffer().data();
    const R* const dd = dense.buffer().data() + d.offset();
    const index_t* const offsets = kept->offsets.data();
    const index_t* const indices = kept->indices.data();
    const R* const values = kept->values.data();
    const auto rows = [&](index_t lo, index_t hi, auto column) {
      // Row o's first address, its place along each kept axis counted along.
      Index place(nkept, 0);
      index_t at = 0;
      for (std::size_t k = nkept, rest = static_cast<std::size_t>(lo); k-- > 0;) {
        const auto extent = static_cast<std::size_t>(ps[k]);
        place[k] = static_cast<index_t>(rest % extent);
        rest /= extent;
        at += place[k] * ds[k];
      }
      for (index_t o = lo; o < hi; ++o) {
        A s{0};
        const R* const row = dd + at;
        const index_t end = offsets[o + 1];
        for (index_t entry = offsets[o]; entry < end; ++entry) {
          s = static_cast<A>(
              s + static_cast<A>(static_cast<R>(values[entry] * row[column(indices[entry])])));
        }
        od[o] = s;
        for (std::size_t k = nkept; k-- > 0;) {
          at += ds[k];
          if (++place[k] < ps[k]) {
            break;
          }
          at -= place[k] * ds[k];
          place[k] = 0;
        }
      }
    };
    const index_t step = ds[nkept];
    const auto part = [&](index_t lo, index_t hi) {
      if (nsum == 1 && step == 1) {  // a contiguous vector: the loop of a CSR product
        rows(lo, hi, [](index_t c) { return c; });
      } else if (nsum == 1) {
        rows(lo, hi, [step](index_t c) { return c * step; });
      } else {
        rows(lo, hi, columns);
      }
    };
    if constexpr (std::is_same_v<std::remove_cvref_t<P>, Parallel>) {
      // Rows write disjoint outputs; the grain counts multiply-adds.
      const index_t per_row = std::max<index_t>(1, kept->nnz() / std::max<index_t>(kept->rows, 1));
      parallel::for_each_part(
          Parallel{std::max<index_t>(1, policy.grain / per_row), policy.threads}, kept->rows, part);
    } else {
      part(0, kept->rows);
    }
    return keepdims ? out : out.squeeze(marked_axes(reduced));
  }
}

/// Throws unless @p dst can take @p e: its shape must broadcast to dst's, dst must be writable.
template <class T, class E>
void check_assignable(const Tensor<T>& dst, const E& e) {
  const Index target = dst.shape();
  const Index source = e.shape();
  if (broadcast_shapes(source, target, "operator=") != target) {
    fail<BroadcastError>("operator=", "the expression's shape ", to_string(source),
                         " does not broadcast to the view's shape ", to_string(target));
  }
  if (!dst.is_writable()) {
    fail<LayoutError>("operator=", "the view ", dst.dims(),
                      " cannot be written (several indices share an address, or the buffer is "
                      "read-only)");
  }
}

}  // namespace detail

/// Writes an expression into a view, with an explicit policy (`view = expr` uses `par`):
/// NumPy's `view[...] = expr`, evaluated in one pass with no temporary per operator.
///
/// Sources that share the view's storage through another map (`u[1:] = u[:-1] + 1`) are copied
/// first, as NumPy does; a source read through the view's own map (`a = a * 2`, `a += b`) needs
/// no copy, since each element is read before it is written. Composite selections, buffers
/// without `data()` (generators, sparse, user storage) and destinations without one are
/// evaluated through a temporary. A whole sparse tensor assigned an expression that evaluates
/// sparse (see evaluate(): `K *= 2`, `K = K + M`) takes the sparse result, fill value included,
/// without a dense temporary.
/// @param policy seq or par
/// @param dst the view (writable)
/// @param x the expression, or a tensor, selection or scalar
/// @throws BroadcastError when the expression's shape does not broadcast to the view's;
///         LayoutError when the view cannot be written. Nothing is written then.
template <ExecutionPolicy P, class T, class X>
requires(!std::is_const_v<T>) void assign_expression(const P& policy, const Tensor<T>& dst,
                                                     const X& x) {
  const auto e = detail::as_expression(x);
  static_assert(is_complex_v<T> || !is_complex_v<typename decltype(e)::value_type>,
                "strata: a complex value assigned to a real tensor; say which part: "
                "strata::real(x), strata::imag(x) or strata::abs(x)");
  detail::check_assignable(dst, e);
  if (auto* s = dst.buffer().template get<SparseBuffer<T>>()) {
    // A whole sparse tensor takes a sparse result as it is (K *= 2, K = K + M).
    const auto [lowest, highest] = dst.dims().address_range();
    if (dst.dims().is_native() && lowest == 0 && dst.size() == s->size() &&
        Index(e.shape()) == dst.shape()) {
      if (auto r = detail::evaluate_sparse<T>(e, policy)) {
        *s = std::move(*r->buffer().template get<SparseBuffer<T>>());
        return;
      }
    }
  }
  if (dst.buffer().data() == nullptr || !dst.buffer().concurrent()) {
    Tensor<T> dense(dst.shape());
    detail::evaluate_dense(dense, e, policy);
    Tensor<T> target = dst;
    target.assign(dense, seq);
    return;
  }
  detail::evaluate_dense(dst, e, policy);
}

/// A new tensor holding an expression's values, of its element type (or of @p T):
/// `auto c = strata::evaluate(a + b)`; a composite selection is materialized.
///
/// The result is dense, or sparse when the expression has sparse operands and is constant
/// outside their stored entries: an expression of sparse tensors and scalars (`K + 2 * M`,
/// fill computed from the fills), or a product with a sparse factor whose fill is zero
/// (`K * x` for a dense x). Then only the stored entries are visited, whatever the shape.
/// @param e the expression or selection
/// @param policy seq or par
/// @return the tensor
template <class T = void, LazyOperand E, ExecutionPolicy P = Parallel>
auto evaluate(const E& e, const P& policy = P{}) {
  using V = std::conditional_t<std::is_void_v<T>, typename E::value_type, T>;
  if constexpr (!Expression<E> && std::is_same_v<V, typename E::value_type>) {
    return e.materialize(policy);
  } else {
    const auto x = detail::as_expression(e);
    if (auto sparse = detail::evaluate_sparse<V>(x, policy)) {
      return *sparse;
    }
    Tensor<V> out = Tensor<V>::for_overwrite(x.shape());  // every element is written once
    detail::evaluate_dense(out, x, policy);
    return out;
  }
}

/// Prints an expression's values (it is evaluated), as a tensor prints.
/// @param out the stream
/// @param e the expression
/// @return @p out
template <Expression E>
std::ostream& operator<<(std::ostream& out, const E& e) {
  return out << evaluate(e);
}

namespace detail {

template <class T, class E>
void evaluate_expression(const Tensor<T>& dst, const E& e) {
  assign_expression(par, dst, e);
}

template <class T, class E>
Tensor<T> evaluated_expression(const E& e) {
  return evaluate<T>(as_expression(e));
}

}  // namespace detail

}  // namespace strata
