/// @file
/// NumPy's reductions of tensors, views, composite selections and lazy expressions: sum, prod,
/// min, max, mean, any, all, count_nonzero, var, std, argmin, argmax, the nan-reductions, and
/// the scans cumsum and cumprod; allclose and array_equal. Each runs in one pass over its
/// operand (an expression is not evaluated into a temporary first), in parallel, with the same
/// bits for any thread count.
#pragma once

#include "strata/expr/evaluate.hpp"
#include "strata/expr/expression.hpp"
#include "strata/expr/functions.hpp"
#include "strata/expr/operators.hpp"
#include "strata/tensor/algorithms.hpp"
#include "strata/tensor/reduce_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace strata {

/// The type NumPy sums and multiplies T in (64-bit Linux): bool and signed integers narrower
/// than 64 bits in `int64_t`, unsigned ones in `uint64_t`, everything else (floats, 64-bit
/// integers) in T itself. `sum(a > 0)` counts; `sum<double>(t)` chooses another type, as
/// NumPy's `dtype=`.
template <class T>
using accumulator_t = std::conditional_t<
    std::is_same_v<T, bool>, std::int64_t,
    std::conditional_t<std::is_integral_v<T> && (sizeof(T) < sizeof(std::int64_t)),
                       std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>, T>>;

/// What the reductions take: a tensor or view, a composite selection, or an expression (not a
/// jagged one: strata/expr/jagged.hpp reduces those along their rows).
template <class X>
concept Reducible = (detail::is_tensor<std::remove_cvref_t<X>>::value ||
                     LazyOperand<X>)&&(!detail::jagged_v<X>);

/// The axes a reduction combines: one axis (`sum(x, 0)`), a list (`sum(x, {0, 2})`, an Index,
/// a `std::vector<index_t>`), negative counting from the end, as NumPy's `axis=`.
class Axes {
 public:
  /// One axis.
  /// @param axis the axis
  template <std::integral I>
  // NOLINTNEXTLINE(google-explicit-constructor): `sum(x, 0)` reads as NumPy's.
  Axes(I axis) : axes_{static_cast<index_t>(axis)} {}
  /// A list of axes.
  /// @param axes the axes
  // NOLINTNEXTLINE(google-explicit-constructor): `sum(x, {0, 1})` reads as NumPy's.
  Axes(std::initializer_list<index_t> axes) : axes_(axes) {}
  /// A list of axes held elsewhere (an Index, a vector, a span).
  /// @param axes the axes
  template <class R>
  requires std::convertible_to<const R&, IndexSpan>
  // NOLINTNEXTLINE(google-explicit-constructor): any list of axes.
  Axes(const R& axes) : axes_(IndexSpan(axes)) {}
  /// The axes.
  /// @return them, as given
  [[nodiscard]] IndexSpan list() const noexcept { return IndexSpan(axes_); }

 private:
  Index axes_;
};

/// The degrees of freedom var() and std() subtract from the count they divide by, NumPy's
/// `ddof=` (`strata::var(x, strata::Ddof{1})` is the sample variance).
struct Ddof {
  index_t value = 0;  ///< subtracted from the number of elements combined
};

namespace detail {

/// The element type a reduction reads from an operand.
template <class X>
using reduced_value_t = typename node_t<X>::value_type;

/// Whether a value is NaN (never, for integers).
template <class V>
constexpr bool is_nan(V x) noexcept {
  if constexpr (std::is_floating_point_v<V>) {
    return x != x;  // NOLINT(misc-redundant-expression): true only for NaN
  } else {
    return false;
  }
}

/// A reduction is a kind: its accumulator type, identity, how one value enters (`lift`) and
/// how two accumulators join (`merge`, associative and commutative where `lanes` is set).
template <class Acc>
struct SumKind {
  using acc_type = Acc;
  static constexpr bool lanes = true;
  static constexpr Acc init() { return Acc{0}; }
  template <class V>
  static constexpr Acc lift(V x) {
    return static_cast<Acc>(x);
  }
  static constexpr Acc merge(Acc a, Acc b) { return static_cast<Acc>(a + b); }
};
template <class Acc>
struct ProdKind {
  using acc_type = Acc;
  static constexpr bool lanes = true;
  static constexpr Acc init() { return Acc{1}; }
  template <class V>
  static constexpr Acc lift(V x) {
    return static_cast<Acc>(x);
  }
  static constexpr Acc merge(Acc a, Acc b) { return static_cast<Acc>(a * b); }
};
/// min (High false) and max (High true), NaN propagating as NumPy's.
template <class V, bool High>
struct ExtremumKind {
  static_assert(!is_complex_v<V>,
                "strata: min, max, argmin, argmax and their nan forms order the "
                "elements, and complex numbers have no order");
  using acc_type = V;
  static constexpr bool lanes = true;
  static constexpr V init() {
    if constexpr (std::numeric_limits<V>::has_infinity) {
      return High ? -std::numeric_limits<V>::infinity() : std::numeric_limits<V>::infinity();
    } else {
      return High ? std::numeric_limits<V>::lowest() : std::numeric_limits<V>::max();
    }
  }
  static constexpr V lift(V x) { return x; }
  static constexpr V merge(V a, V b) {
    if constexpr (High) {
      return (a < b || is_nan(b)) ? b : a;
    } else {
      return (b < a || is_nan(b)) ? b : a;
    }
  }
};
/// nanmin and nanmax: NaN is skipped (the identity is NaN, so an all-NaN reduction is NaN).
template <class V, bool High>
struct NanExtremumKind {
  static_assert(!is_complex_v<V>,
                "strata: min, max, argmin, argmax and their nan forms order the "
                "elements, and complex numbers have no order");
  using acc_type = V;
  static constexpr bool lanes = true;
  static constexpr V init() {
    if constexpr (std::numeric_limits<V>::has_quiet_NaN) {
      return std::numeric_limits<V>::quiet_NaN();
    } else {
      return ExtremumKind<V, High>::init();
    }
  }
  static constexpr V lift(V x) { return x; }
  static constexpr V merge(V a, V b) {
    if constexpr (High) {
      return (a < b || is_nan(a)) ? b : a;
    } else {
      return (b < a || is_nan(a)) ? b : a;
    }
  }
};
/// nansum: NaN adds 0.
template <class Acc>
struct NanSumKind : SumKind<Acc> {
  template <class V>
  static constexpr Acc lift(V x) {
    return is_nan(x) ? Acc{0} : static_cast<Acc>(x);
  }
};
/// any (All false) and all (All true): non-zero is true (NaN included, as NumPy).
template <bool All>
struct TruthKind {
  using acc_type = bool;
  static constexpr bool lanes = true;
  static constexpr bool init() { return All; }
  template <class V>
  static constexpr bool lift(V x) {
    return x != V{0};
  }
  static constexpr bool merge(bool a, bool b) {
    if constexpr (All) {
      return a & b;
    } else {
      return a | b;
    }
  }
};
/// count_nonzero.
struct CountKind : SumKind<index_t> {
  template <class V>
  static constexpr index_t lift(V x) {
    return x != V{0} ? 1 : 0;
  }
};
/// nanmean: the sum and the count of the values that are not NaN.
template <class R>
struct NanMeanKind {
  struct acc_type {
    R sum{};
    index_t count = 0;
  };
  static constexpr bool lanes = true;
  static constexpr acc_type init() { return {}; }
  template <class V>
  static constexpr acc_type lift(V x) {
    return is_nan(x) ? acc_type{} : acc_type{static_cast<R>(x), 1};
  }
  static constexpr acc_type merge(acc_type a, acc_type b) {
    return {static_cast<R>(a.sum + b.sum), a.count + b.count};
  }
};
/// argmin (High false) and argmax (High true): the value and index of the first extreme, the
/// first NaN winning as in NumPy.
template <class V, bool High>
struct ArgKind {
  static_assert(!is_complex_v<V>,
                "strata: min, max, argmin, argmax and their nan forms order the "
                "elements, and complex numbers have no order");
  struct acc_type {
    V value{};
    index_t index = 0;
  };
  static constexpr bool lanes = true;
  static constexpr acc_type init() {
    return {ExtremumKind<V, High>::init(), std::numeric_limits<index_t>::max()};
  }
  static constexpr acc_type lift(acc_type x) { return x; }
  /// One more element, of a larger index than any in @p a (a lane runs in index order): a
  /// strict comparison, NaN taken unless @p a holds one. An operand equal everywhere to the
  /// identity (all -inf for argmax) keeps the identity's index; arg_extremum reads that as the
  /// first element.
  static constexpr acc_type step(acc_type a, acc_type x) {
    // NOLINTNEXTLINE(misc-redundant-expression): a.value == a.value is false only for NaN
    const bool take = a.value == a.value && (High ? !(x.value <= a.value) : !(x.value >= a.value));
    return take ? x : a;
  }
  static constexpr acc_type merge(acc_type a, acc_type b) {
    const bool an = is_nan(a.value);
    const bool bn = is_nan(b.value);
    bool take = false;
    if (an || bn) {
      take = bn && (!an || b.index < a.index);
    } else if (b.value == a.value) {
      take = b.index < a.index;
    } else {
      take = High ? a.value < b.value : b.value < a.value;
    }
    return take ? b : a;
  }
};

/// A leaf that reads no memory: its "address" is the value, so a map over it yields indices.
/// The flat row-major index of every element (a map of the operand's shape), or the index
/// along one axis (stride 1 there, 0 elsewhere). argmin and argmax read it beside the operand.
class IndexExpr : public ExpressionTag {
 public:
  using value_type = index_t;
  static constexpr std::size_t leaf_count = 1;

  IndexExpr(const Index& shape, std::optional<std::size_t> axis) : shape_(shape) {
    if (axis) {
      Dimensions d(Index{shape[*axis]});
      for (std::size_t k = 0; k < *axis; ++k) {
        d = d.unsqueeze(0);
      }
      while (d.shape().size() < shape.size()) {
        d = d.unsqueeze(d.rank());
      }
      map_ = d;
    } else {
      map_ = Dimensions(shape);
    }
  }
  [[nodiscard]] Index shape() const { return shape_; }
  void prepare(Prepared& p) const {
    if (p.probing) {
      return;
    }
    if (p.sparse_mode) {
      p.sparse.resize(p.maps.size());
      p.sparse.push_back({{}, nullptr, nullptr, sizeof(index_t)});
    }
    p.maps.push_back(p.walked(map_));
    p.data.push_back(nullptr);
    p.ragged.push_back(false);
  }
  template <class F>
  void for_each_tensor(F&& /*visitor*/) const {}
  template <std::size_t I, int Unit, std::size_t N>
  [[nodiscard]] auto bind(const RunState<N>& run) const {
    const index_t start = run.start[I];
    if constexpr (Unit == run_unit) {
      return [start](index_t t) { return start + t; };
    } else if constexpr (Unit == run_constant || Unit == run_lists) {
      return [start](index_t /*t*/) { return start; };
    } else {
      const index_t stride = run.stride[I];
      return [start, stride](index_t t) { return start + t * stride; };
    }
  }
  template <std::size_t I>
  [[nodiscard]] Support<index_t> support() const {
    return {};
  }
  void explain(std::ostream& out, int depth) const {
    out << pad_by(depth) << "indices " << map_ << "\n";
  }

 private:
  Index shape_;
  Dimensions map_;
};

/// Reduces an operand along the marked axes with a kind: a tensor of the kept shape (the
/// reduced axes at extent 1) of the kind's accumulators. Expressions are read in one pass with
/// no temporary; a sparse tensor keeps O(nnz) through strata::reduce.
template <class Kind, ExecutionPolicy P, class X>
Tensor<typename Kind::acc_type> reduce_kind(const P& policy, const X& x,
                                            const std::vector<bool>& reduced) {
  using Acc = typename Kind::acc_type;
  const auto e = as_expression(x);
  using E = std::remove_cvref_t<decltype(e)>;
  static_assert(!jagged_v<E>,
                "strata: reduce a jagged expression along its rows (strata/expr/jagged.hpp)");
  const Index shape = e.shape();
  const Index kept = kept_shape(shape, reduced);
  if constexpr (is_tensor<std::remove_cvref_t<X>>::value && std::is_arithmetic_v<Acc>) {
    if (sparse_buffer(x) != nullptr) {
      // A sparse tensor stays sparse through lift (map keeps the stored entries only).
      const auto lifted = map(
          x, [](const auto& v) { return Kind::lift(v); }, policy);
      return reduce(lifted, marked_axes(reduced), Kind::init(), &Kind::merge, true, policy);
    }
  }
  Tensor<Acc> out(AnyBuffer<Acc>(DenseBuffer<Acc>::for_overwrite(checked_size(kept, "reduce"))),
                  Dimensions(kept));
  Acc* dst = out.buffer().data();
  std::fill_n(dst, out.size(), Kind::init());
  constexpr std::size_t N = leaves_v<E>;
  static_assert(N >= 1, "a reduction reads at least one tensor");
  Prepared prepared;
  prepared.shape = shape;
  prepared.parallel = std::is_same_v<std::remove_cvref_t<P>, Parallel>;
  e.prepare(prepared);
  std::array<const void*, N> data{};
  for (std::size_t m = 0; m < N; ++m) {
    data[m] = prepared.data[m];
  }
  reduce_runs<Acc, N>(
      prepared.maps, data, shape, reduced, dst, Kind::init(),
      [&e](auto unit, const RunState<N>& run) {
        return e.template bind<0, decltype(unit)::value>(run);
      },
      [](Acc a, const auto& v) {
        if constexpr (requires { Kind::step(a, Kind::lift(v)); }) {
          return Kind::step(a, Kind::lift(v));  // a cheaper step where the kind has one
        } else {
          return Kind::merge(a, Kind::lift(v));
        }
      },
      &Kind::merge, Kind::lanes, policy);
  return out;
}

/// The shape of an operand.
template <class X>
Index shape_of(const X& x) {
  return as_expression(x).shape();
}

/// The reduction of @p x along @p axes with a kind whose accumulator is the result.
template <class Kind, ExecutionPolicy P, class X>
Tensor<typename Kind::acc_type> reduce_named(const P& policy, const X& x, IndexSpan axes,
                                             bool keepdims, const char* name) {
  const std::vector<bool> reduced = reduced_axes(shape_of(x), axes, name);
  Tensor<typename Kind::acc_type> out = reduce_kind<Kind>(policy, x, reduced);
  return keepdims ? out : out.squeeze(marked_axes(reduced));
}

/// The reduction of every element to one value.
template <class Kind, ExecutionPolicy P, class X>
typename Kind::acc_type reduce_all(const P& policy, const X& x) {
  const Index shape = shape_of(x);
  const Tensor<typename Kind::acc_type> out =
      reduce_kind<Kind>(policy, x, std::vector<bool>(shape.size(), true));
  return *out.buffer().data();
}

/// Throws unless @p x has elements (min, max, argmin, argmax of nothing are undefined).
template <class X>
void check_not_empty(const X& x, const char* name, const char* what) {
  const Index shape = shape_of(x);
  if (checked_size(shape, name) == 0) {
    fail<ShapeError>(name, "an empty tensor (shape ", to_string(shape), ") has no ", what);
  }
}

/// The floating type of a mean or a variance of T (double for integers and bool).
template <class T>
using mean_t = math_t<T>;

/// Divides every element of a fresh contiguous tensor by @p count.
template <class R>
void divide_by(Tensor<R>& t, index_t count) {
  R* data = t.buffer().data();
  const auto c = number_cast<R>(count);
  for (index_t k = 0; k < t.size(); ++k) {
    data[k] /= c;
  }
}

/// The resolved accumulator of sum and prod: @p Acc, or accumulator_t of the element type.
template <class Acc, class X>
using sum_acc_t = std::conditional_t<std::is_void_v<Acc>, accumulator_t<reduced_value_t<X>>, Acc>;

/// The one element of a rank-0 result, by value (any buffer: a sparse sum is sparse).
template <class T>
T value_of(const Tensor<T>& t) {
  return t.buffer().read(t.dims().offset());
}

/// Every axis of an operand (the value forms of the reductions).
template <class X>
Index every_axis(const X& x) {
  return all_axes(static_cast<int>(shape_of(x).size()));
}

/// sum along axes in the accumulator type A: over a sparse expression's entries when it
/// evaluates sparse, else with the reduction kernel.
template <class A, ExecutionPolicy P, class X>
Tensor<A> sum_along(const P& policy, const X& x, IndexSpan axes, bool keepdims) {
  if constexpr (Expression<X>) {
    if (auto r = sum_product<A>(policy, x, axes, keepdims)) {
      return *r;
    }
    if (auto r = reduce_sparse<A>(astype<A>(x), axes, A{0}, std::plus<A>{}, keepdims)) {
      return *r;
    }
  }
  return reduce_named<SumKind<A>>(policy, x, axes, keepdims, "sum");
}

}  // namespace detail

// ---- sum, prod ---------------------------------------------------------------------------------

/// Sums along axes (`np.sum(x, axis=axes)`), of accumulator_t of the element type (bool and
/// narrow integers sum in 64 bits: `sum(a > 0, 0)` counts per column) or of @p Acc, as NumPy's
/// `dtype=`.
///
/// An expression is summed in the pass that computes it, with no temporary. A sparse operand
/// (a sparse tensor, or an expression that evaluates sparse: `sum(K * x, 1)` is a sparse
/// matrix times a vector) is summed in O(nnz). A sparse tensor of zero fill times a strided
/// dense one of the same element type, in either order, runs through the sparse factor's
/// compressed rows (kept by its buffer until it is written, as einsum's are): a hand CSR
/// loop's speed, parallel over outputs. The same bits for any thread count: each output adds
/// its terms in row-major order.
/// @tparam Acc the accumulator and result type, or void for the default
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the sums
/// @throws IndexError when an axis does not exist or is named twice
template <class Acc = void, ExecutionPolicy P, Reducible X>
auto sum(const P& policy, const X& x, const Axes& axes, bool keepdims = false) {
  return detail::sum_along<detail::sum_acc_t<Acc, X>>(policy, x, axes.list(), keepdims);
}
/// Sums along axes (`np.sum(x, axis=axes)`), of accumulator_t of the element type (bool and
/// narrow integers sum in 64 bits: `sum(a > 0, 0)` counts per column) or of @p Acc, as NumPy's
/// `dtype=`.
///
/// An expression is summed in the pass that computes it, with no temporary. A sparse operand
/// (a sparse tensor, or an expression that evaluates sparse: `sum(K * x, 1)` is a sparse
/// matrix times a vector) is summed in O(nnz). A sparse tensor of zero fill times a strided
/// dense one of the same element type, in either order, runs through the sparse factor's
/// compressed rows (kept by its buffer until it is written, as einsum's are): a hand CSR
/// loop's speed, parallel over outputs. The same bits for any thread count: each output adds
/// its terms in row-major order.
/// @tparam Acc the accumulator and result type, or void for the default
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the sums
/// @throws IndexError when an axis does not exist or is named twice
template <class Acc = void, Reducible X>
auto sum(const X& x, const Axes& axes, bool keepdims = false) {
  return detail::sum_along<detail::sum_acc_t<Acc, X>>(par, x, axes.list(), keepdims);
}
/// Sum of every element (`np.sum(x)`): one value (see the axes form).
/// @tparam Acc the accumulator and result type, or void for the default
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @return the sum
template <class Acc = void, ExecutionPolicy P, Reducible X>
auto sum(const P& policy, const X& x) {
  return detail::value_of(
      detail::sum_along<detail::sum_acc_t<Acc, X>>(policy, x, detail::every_axis(x), false));
}
/// Sum of every element (`np.sum(x)`): one value (see the axes form).
/// @tparam Acc the accumulator and result type, or void for the default
/// @param x a tensor, view, selection or expression
/// @return the sum
template <class Acc = void, Reducible X>
auto sum(const X& x) {
  return detail::value_of(
      detail::sum_along<detail::sum_acc_t<Acc, X>>(par, x, detail::every_axis(x), false));
}
/// The trace of a matrix, `np.trace(m, offset)`: the sum of its diagonal (Tensor::diagonal), of
/// accumulator_t of the element type or of @p Acc (0 for an empty diagonal).
///
/// @code
/// strata::trace(m);      // m(0, 0) + m(1, 1) + ...
/// strata::trace(m, 1);   // m(0, 1) + m(1, 2) + ...
/// @endcode
/// @tparam Acc the accumulator and result type, or void for the default
/// @param policy seq or par
/// @param m a matrix (a rank-2 tensor or view)
/// @param offset the diagonal: 0 the main one, > 0 above it, < 0 below
/// @return the sum
/// @throws ShapeError when @p m is not of rank 2 (the form with axes takes any rank)
template <class Acc = void, ExecutionPolicy P, class T>
auto trace(const P& policy, const Tensor<T>& m, index_t offset = 0) {
  if (m.rank() != 2) {
    detail::fail<ShapeError>("trace", "a tensor of shape ", to_string(m.shape()),
                             " is not a matrix; trace(t, offset, axis1, axis2) takes the traces "
                             "of any rank");
  }
  const auto d = m.diagonal(offset);
  return detail::value_of(detail::sum_along<detail::sum_acc_t<Acc, decltype(d)>>(
      policy, d, detail::every_axis(d), false));
}
/// The trace of a matrix, `np.trace(m, offset)` (see the policy form).
/// @tparam Acc the accumulator and result type, or void for the default
/// @param m a matrix (a rank-2 tensor or view)
/// @param offset the diagonal: 0 the main one, > 0 above it, < 0 below
/// @return the sum
/// @throws ShapeError when @p m is not of rank 2
template <class Acc = void, class T>
auto trace(const Tensor<T>& m, index_t offset = 0) {
  return trace<Acc>(par, m, offset);
}
/// Traces along two axes, `np.trace(t, offset, axis1, axis2)`: the sums of the diagonals of
/// @p axis1 and @p axis2, a tensor of the other axes (rank - 2; rank 0 for a matrix).
///
/// @code
/// strata::trace(batch, 0, 1, 2);   // shape [b]: the trace of each matrix of a [b n n] batch
/// @endcode
/// @tparam Acc the accumulator and result type, or void for the default
/// @param policy seq or par
/// @param t a tensor or view of rank >= 2
/// @param offset the diagonal: 0 the main one, > 0 above it (along @p axis2), < 0 below
/// @param axis1 the first axis; negative counts from the end
/// @param axis2 the second axis; negative counts from the end
/// @return the traces
/// @throws ShapeError when the rank is below 2 or both axes are the same one; IndexError when
///         an axis does not exist
template <class Acc = void, ExecutionPolicy P, class T>
auto trace(const P& policy, const Tensor<T>& t, index_t offset, index_t axis1, index_t axis2) {
  using View = decltype(t.diagonal());
  const View d = [&] {
    // The diagonal's message, in this operation's name.
    try {
      return t.diagonal(offset, axis1, axis2);
    } catch (const ShapeError& e) {
      detail::fail<ShapeError>("trace", e.description());
    } catch (const IndexError& e) {
      detail::fail<IndexError>("trace", e.description());
    }
  }();
  const Axes last(-1);
  return detail::sum_along<detail::sum_acc_t<Acc, View>>(policy, d, last.list(), false);
}
/// Traces along two axes, `np.trace(t, offset, axis1, axis2)` (see the policy form).
/// @tparam Acc the accumulator and result type, or void for the default
/// @param t a tensor or view of rank >= 2
/// @param offset the diagonal: 0 the main one, > 0 above it (along @p axis2), < 0 below
/// @param axis1 the first axis; negative counts from the end
/// @param axis2 the second axis; negative counts from the end
/// @return the traces
/// @throws ShapeError, IndexError as the policy form
template <class Acc = void, class T>
auto trace(const Tensor<T>& t, index_t offset, index_t axis1, index_t axis2) {
  return trace<Acc>(par, t, offset, axis1, axis2);
}

/// Products along axes (`np.prod(x, axis=axes)`), of accumulator_t of the element type or of
/// @p Acc; 1 for an empty reduction.
/// @tparam Acc the accumulator and result type, or void for the default
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the products
/// @throws IndexError when an axis does not exist or is named twice
template <class Acc = void, ExecutionPolicy P, Reducible X>
auto prod(const P& policy, const X& x, const Axes& axes, bool keepdims = false) {
  using A = detail::sum_acc_t<Acc, X>;
  return detail::reduce_named<detail::ProdKind<A>>(policy, x, axes.list(), keepdims, "prod");
}
/// Products along axes (`np.prod(x, axis=axes)`), of accumulator_t of the element type or of
/// @p Acc; 1 for an empty reduction.
/// @tparam Acc the accumulator and result type, or void for the default
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the products
/// @throws IndexError when an axis does not exist or is named twice
template <class Acc = void, Reducible X>
auto prod(const X& x, const Axes& axes, bool keepdims = false) {
  using A = detail::sum_acc_t<Acc, X>;
  return detail::reduce_named<detail::ProdKind<A>>(par, x, axes.list(), keepdims, "prod");
}
/// Product of every element (`np.prod(x)`): one value.
/// @tparam Acc the accumulator and result type, or void for the default
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @return the product
template <class Acc = void, ExecutionPolicy P, Reducible X>
auto prod(const P& policy, const X& x) {
  return detail::reduce_all<detail::ProdKind<detail::sum_acc_t<Acc, X>>>(policy, x);
}
/// Product of every element (`np.prod(x)`): one value.
/// @tparam Acc the accumulator and result type, or void for the default
/// @param x a tensor, view, selection or expression
/// @return the product
template <class Acc = void, Reducible X>
auto prod(const X& x) {
  return detail::reduce_all<detail::ProdKind<detail::sum_acc_t<Acc, X>>>(par, x);
}

// ---- min, max ----------------------------------------------------------------------------------

/// Minima along axes (`np.min(x, axis=axes)`): NaN propagates, as NumPy's; an empty reduction
/// gives the largest value of the type (+inf for floats), where NumPy raises.
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the minima
/// @throws IndexError when an axis does not exist or is named twice
template <ExecutionPolicy P, Reducible X>
auto min(const P& policy, const X& x, const Axes& axes, bool keepdims = false) {
  using V = detail::reduced_value_t<X>;
  return detail::reduce_named<detail::ExtremumKind<V, false>>(policy, x, axes.list(), keepdims,
                                                              "min");
}
/// Minima along axes (`np.min(x, axis=axes)`): NaN propagates, as NumPy's; an empty reduction
/// gives the largest value of the type (+inf for floats), where NumPy raises.
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the minima
/// @throws IndexError when an axis does not exist or is named twice
template <Reducible X>
auto min(const X& x, const Axes& axes, bool keepdims = false) {
  return min(par, x, axes, keepdims);
}
/// The smallest element (`np.min(x)`; NaN when one is NaN).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression, not empty
/// @return the minimum
/// @throws ShapeError when it is empty (as NumPy, which has no identity for it)
template <ExecutionPolicy P, Reducible X>
auto min(const P& policy, const X& x) {
  detail::check_not_empty(x, "min", "minimum");
  return detail::reduce_all<detail::ExtremumKind<detail::reduced_value_t<X>, false>>(policy, x);
}
/// The smallest element (`np.min(x)`; NaN when one is NaN).
/// @param x a tensor, view, selection or expression, not empty
/// @return the minimum
/// @throws ShapeError when it is empty (as NumPy, which has no identity for it)
template <Reducible X>
auto min(const X& x) {
  return min(par, x);
}
/// Maxima along axes (`np.max(x, axis=axes)`): NaN propagates; an empty reduction gives the
/// lowest value of the type (-inf for floats), where NumPy raises.
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the maxima
/// @throws IndexError when an axis does not exist or is named twice
template <ExecutionPolicy P, Reducible X>
auto max(const P& policy, const X& x, const Axes& axes, bool keepdims = false) {
  using V = detail::reduced_value_t<X>;
  return detail::reduce_named<detail::ExtremumKind<V, true>>(policy, x, axes.list(), keepdims,
                                                             "max");
}
/// Maxima along axes (`np.max(x, axis=axes)`): NaN propagates; an empty reduction gives the
/// lowest value of the type (-inf for floats), where NumPy raises.
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the maxima
/// @throws IndexError when an axis does not exist or is named twice
template <Reducible X>
auto max(const X& x, const Axes& axes, bool keepdims = false) {
  return max(par, x, axes, keepdims);
}
/// The largest element (`np.max(x)`; NaN when one is NaN).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression, not empty
/// @return the maximum
/// @throws ShapeError when it is empty
template <ExecutionPolicy P, Reducible X>
auto max(const P& policy, const X& x) {
  detail::check_not_empty(x, "max", "maximum");
  return detail::reduce_all<detail::ExtremumKind<detail::reduced_value_t<X>, true>>(policy, x);
}
/// The largest element (`np.max(x)`; NaN when one is NaN).
/// @param x a tensor, view, selection or expression, not empty
/// @return the maximum
/// @throws ShapeError when it is empty
template <Reducible X>
auto max(const X& x) {
  return max(par, x);
}

// ---- mean, var, std ----------------------------------------------------------------------------

/// Means along axes (`np.mean(x, axis=axes)`), in double for integers and bool, else in the
/// element type; NaN where an axis of extent 0 is reduced, as NumPy.
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the means
/// @throws IndexError when an axis does not exist or is named twice
template <ExecutionPolicy P, Reducible X>
auto mean(const P& policy, const X& x, const Axes& axes, bool keepdims = false) {
  using R = detail::mean_t<detail::reduced_value_t<X>>;
  const Index shape = detail::shape_of(x);
  const std::vector<bool> reduced = detail::reduced_axes(shape, axes.list(), "mean");
  Tensor<R> out = detail::reduce_kind<detail::SumKind<R>>(policy, x, reduced);
  detail::divide_by(out, detail::reduced_count(shape, reduced));
  return keepdims ? out : out.squeeze(detail::marked_axes(reduced));
}
/// Means along axes (`np.mean(x, axis=axes)`), in double for integers and bool, else in the
/// element type; NaN where an axis of extent 0 is reduced, as NumPy.
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the means
/// @throws IndexError when an axis does not exist or is named twice
template <Reducible X>
auto mean(const X& x, const Axes& axes, bool keepdims = false) {
  return mean(par, x, axes, keepdims);
}
/// The mean of every element (`np.mean(x)`; NaN when empty).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @return the mean
template <ExecutionPolicy P, Reducible X>
auto mean(const P& policy, const X& x) {
  return detail::value_of(mean(policy, x, detail::every_axis(x)));
}
/// The mean of every element (`np.mean(x)`; NaN when empty).
/// @param x a tensor, view, selection or expression
/// @return the mean
template <Reducible X>
auto mean(const X& x) {
  return mean(par, x);
}

namespace detail {

/// The variances of @p x along the marked axes, keepdims: `mean(|x - mean(x)|^2)` with the
/// count less ddof, as NumPy's two passes.
template <ExecutionPolicy P, class X>
auto variance(const P& policy, const X& x, IndexSpan axes, Ddof ddof, const char* name) {
  using R = mean_t<reduced_value_t<X>>;
  const Index shape = shape_of(x);
  const std::vector<bool> reduced = reduced_axes(shape, axes, name);
  const auto second_pass = [&](const auto& source) {
    Tensor<R> m = reduce_kind<SumKind<R>>(policy, source, reduced);
    divide_by(m, reduced_count(shape, reduced));
    Tensor<R> out = reduce_kind<SumKind<R>>(policy, square(astype<R>(source) - m), reduced);
    // NumPy divides by max(n - ddof, 0): an infinity, or NaN where every deviation is 0.
    divide_by(out, std::max<index_t>(reduced_count(shape, reduced) - ddof.value, 0));
    return out;
  };
  Tensor<R> out = [&] {
    if constexpr (is_tensor<std::remove_cvref_t<X>>::value) {
      return second_pass(x);
    } else {
      return second_pass(evaluate(x, policy));  // an expression is computed once
    }
  }();
  return std::make_pair(out, reduced);
}

/// The square roots of a fresh contiguous tensor's elements.
template <class R>
void square_root(Tensor<R>& t) {
  R* data = t.buffer().data();
  for (index_t k = 0; k < t.size(); ++k) {
    data[k] = std::sqrt(data[k]);
  }
}

}  // namespace detail

/// Variances along axes (`np.var(x, axis=axes, ddof=...)`): the mean of the squared deviations
/// from the mean, dividing by the count less @p ddof, in double for integers and bool. Where the
/// count less ddof is 0 or below, the division by 0 gives inf, or NaN where every deviation is
/// 0, as NumPy (which also warns).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param ddof the degrees of freedom (Ddof{1}: the sample variance)
/// @param keepdims keep reduced axes with extent 1
/// @return the variances
/// @throws IndexError when an axis does not exist or is named twice
template <ExecutionPolicy P, Reducible X>
auto var(const P& policy, const X& x, const Axes& axes, Ddof ddof = {}, bool keepdims = false) {
  auto [out, reduced] = detail::variance(policy, x, axes.list(), ddof, "var");
  return keepdims ? out : out.squeeze(detail::marked_axes(reduced));
}
/// Variances along axes (`np.var(x, axis=axes, ddof=...)`): the mean of the squared deviations
/// from the mean, dividing by the count less @p ddof, in double for integers and bool. Where the
/// count less ddof is 0 or below, the division by 0 gives inf, or NaN where every deviation is
/// 0, as NumPy (which also warns).
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param ddof the degrees of freedom (Ddof{1}: the sample variance)
/// @param keepdims keep reduced axes with extent 1
/// @return the variances
/// @throws IndexError when an axis does not exist or is named twice
template <Reducible X>
auto var(const X& x, const Axes& axes, Ddof ddof = {}, bool keepdims = false) {
  return var(par, x, axes, ddof, keepdims);
}
/// The variance of every element (`np.var(x, ddof=...)`).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param ddof the degrees of freedom
/// @return the variance
template <ExecutionPolicy P, Reducible X>
auto var(const P& policy, const X& x, Ddof ddof = {}) {
  return detail::value_of(var(policy, x, detail::every_axis(x), ddof));
}
/// The variance of every element (`np.var(x, ddof=...)`).
/// @param x a tensor, view, selection or expression
/// @param ddof the degrees of freedom
/// @return the variance
template <Reducible X>
auto var(const X& x, Ddof ddof = {}) {
  return var(par, x, ddof);
}
/// Standard deviations along axes (`np.std(x, axis=axes, ddof=...)`): the square roots of
/// var().
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param ddof the degrees of freedom
/// @param keepdims keep reduced axes with extent 1
/// @return the standard deviations
/// @throws IndexError when an axis does not exist or is named twice
template <ExecutionPolicy P, Reducible X>
auto std(const P& policy, const X& x, const Axes& axes, Ddof ddof = {}, bool keepdims = false) {
  auto [out, reduced] = detail::variance(policy, x, axes.list(), ddof, "std");
  detail::square_root(out);
  return keepdims ? out : out.squeeze(detail::marked_axes(reduced));
}
/// Standard deviations along axes (`np.std(x, axis=axes, ddof=...)`): the square roots of
/// var().
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param ddof the degrees of freedom
/// @param keepdims keep reduced axes with extent 1
/// @return the standard deviations
/// @throws IndexError when an axis does not exist or is named twice
template <Reducible X>
auto std(const X& x, const Axes& axes, Ddof ddof = {}, bool keepdims = false) {
  return strata::std(par, x, axes, ddof, keepdims);
}
/// The standard deviation of every element (`np.std(x, ddof=...)`).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param ddof the degrees of freedom
/// @return the standard deviation
template <ExecutionPolicy P, Reducible X>
auto std(const P& policy, const X& x, Ddof ddof = {}) {
  return detail::value_of(strata::std(policy, x, detail::every_axis(x), ddof));
}
/// The standard deviation of every element (`np.std(x, ddof=...)`).
/// @param x a tensor, view, selection or expression
/// @param ddof the degrees of freedom
/// @return the standard deviation
template <Reducible X>
auto std(const X& x, Ddof ddof = {}) {
  return strata::std(par, x, ddof);
}

// ---- any, all, count_nonzero -------------------------------------------------------------------

/// Whether any element along axes is non-zero (`np.any(x, axis=axes)`; NaN counts as true).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression (a mask: `any(a > 0, 1)`)
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return a bool tensor (false for an empty reduction)
/// @throws IndexError when an axis does not exist or is named twice
template <ExecutionPolicy P, Reducible X>
Tensor<bool> any(const P& policy, const X& x, const Axes& axes, bool keepdims = false) {
  return detail::reduce_named<detail::TruthKind<false>>(policy, x, axes.list(), keepdims, "any");
}
/// Whether any element along axes is non-zero (`np.any(x, axis=axes)`; NaN counts as true).
/// @param x a tensor, view, selection or expression (a mask: `any(a > 0, 1)`)
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return a bool tensor (false for an empty reduction)
/// @throws IndexError when an axis does not exist or is named twice
template <Reducible X>
Tensor<bool> any(const X& x, const Axes& axes, bool keepdims = false) {
  return any(par, x, axes, keepdims);
}
/// Whether any element is non-zero (`np.any(x)`).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @return true when one is
template <ExecutionPolicy P, Reducible X>
bool any(const P& policy, const X& x) {
  return detail::reduce_all<detail::TruthKind<false>>(policy, x);
}
/// Whether any element is non-zero (`np.any(x)`).
/// @param x a tensor, view, selection or expression
/// @return true when one is
template <Reducible X>
bool any(const X& x) {
  return any(par, x);
}
namespace detail {

/// np.all along axes (strata::all(x, axes), see All::operator()).
template <ExecutionPolicy P, Reducible X>
Tensor<bool> all_of(const P& policy, const X& x, const Axes& axes, bool keepdims = false) {
  return reduce_named<TruthKind<true>>(policy, x, axes.list(), keepdims, "all");
}
template <Reducible X>
Tensor<bool> all_of(const X& x, const Axes& axes, bool keepdims = false) {
  return all_of(par, x, axes, keepdims);
}
template <ExecutionPolicy P, Reducible X>
bool all_of(const P& policy, const X& x) {
  return reduce_all<TruthKind<true>>(policy, x);
}
template <Reducible X>
bool all_of(const X& x) {
  return all_of(par, x);
}
template <class B>
requires std::is_same_v<B, bool>
bool all_of(B mask) {
  static_assert(!std::is_same_v<B, bool>,
                "strata::all of one bool. If it is `a == b` of two tensors, that compares them "
                "whole: write strata::equal(a, b) for the element-wise mask");
  return mask;
}

template <class... A>
auto all_reduction(const A&... args) {
  return all_of(args...);
}

}  // namespace detail

/// The number of non-zero elements along axes (`np.count_nonzero(x, axis=axes)`), as int64.
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the counts
/// @throws IndexError when an axis does not exist or is named twice
template <ExecutionPolicy P, Reducible X>
Tensor<index_t> count_nonzero(const P& policy, const X& x, const Axes& axes,
                              bool keepdims = false) {
  return detail::reduce_named<detail::CountKind>(policy, x, axes.list(), keepdims, "count_nonzero");
}
/// The number of non-zero elements along axes (`np.count_nonzero(x, axis=axes)`), as int64.
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the counts
/// @throws IndexError when an axis does not exist or is named twice
template <Reducible X>
Tensor<index_t> count_nonzero(const X& x, const Axes& axes, bool keepdims = false) {
  return count_nonzero(par, x, axes, keepdims);
}
/// The number of non-zero elements (`np.count_nonzero(x)`).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @return the count
template <ExecutionPolicy P, Reducible X>
index_t count_nonzero(const P& policy, const X& x) {
  return detail::reduce_all<detail::CountKind>(policy, x);
}
/// The number of non-zero elements (`np.count_nonzero(x)`).
/// @param x a tensor, view, selection or expression
/// @return the count
template <Reducible X>
index_t count_nonzero(const X& x) {
  return count_nonzero(par, x);
}
/// A single bool given to any or count_nonzero: a compile error with a hint (`a == b` of
/// two tensors compares them whole; strata::equal(a, b) is the element-wise mask).
/// @param mask a bool
/// @return never (does not compile)
template <class B>
requires std::is_same_v<B, bool>
bool any(B mask) {
  static_assert(!std::is_same_v<B, bool>,
                "strata::any / count_nonzero of one bool. If it is `a == b` of two "
                "tensors, that compares them whole: write strata::equal(a, b) for the "
                "element-wise mask");
  return mask;
}
/// @copydoc any(B)
template <class B>
requires std::is_same_v<B, bool> index_t count_nonzero(B mask) {
  return any(mask) ? 1 : 0;
}

// ---- nan-reductions ----------------------------------------------------------------------------

/// Sums along axes with NaN taken as 0 (`np.nansum(x, axis=axes)`), of accumulator_t of the
/// element type; for integers the same as sum().
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the sums
/// @throws IndexError when an axis does not exist or is named twice
template <ExecutionPolicy P, Reducible X>
auto nansum(const P& policy, const X& x, const Axes& axes, bool keepdims = false) {
  using A = accumulator_t<detail::reduced_value_t<X>>;
  return detail::reduce_named<detail::NanSumKind<A>>(policy, x, axes.list(), keepdims, "nansum");
}
/// Sums along axes with NaN taken as 0 (`np.nansum(x, axis=axes)`), of accumulator_t of the
/// element type; for integers the same as sum().
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the sums
/// @throws IndexError when an axis does not exist or is named twice
template <Reducible X>
auto nansum(const X& x, const Axes& axes, bool keepdims = false) {
  return nansum(par, x, axes, keepdims);
}
/// Sum of every element with NaN taken as 0 (`np.nansum(x)`).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @return the sum
template <ExecutionPolicy P, Reducible X>
auto nansum(const P& policy, const X& x) {
  return detail::reduce_all<detail::NanSumKind<accumulator_t<detail::reduced_value_t<X>>>>(policy,
                                                                                           x);
}
/// Sum of every element with NaN taken as 0 (`np.nansum(x)`).
/// @param x a tensor, view, selection or expression
/// @return the sum
template <Reducible X>
auto nansum(const X& x) {
  return nansum(par, x);
}
/// Means along axes of the elements that are not NaN (`np.nanmean(x, axis=axes)`): NaN where
/// every element is NaN or none is reduced (NumPy also warns).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the means
/// @throws IndexError when an axis does not exist or is named twice
template <ExecutionPolicy P, Reducible X>
auto nanmean(const P& policy, const X& x, const Axes& axes, bool keepdims = false) {
  using R = detail::mean_t<detail::reduced_value_t<X>>;
  using Kind = detail::NanMeanKind<R>;
  const std::vector<bool> reduced =
      detail::reduced_axes(detail::shape_of(x), axes.list(), "nanmean");
  const auto parts = detail::reduce_kind<Kind>(policy, x, reduced);
  Tensor<R> out(parts.shape());
  const auto* from = parts.buffer().data();
  R* to = out.buffer().data();
  for (index_t k = 0; k < out.size(); ++k) {
    to[k] = from[k].sum / static_cast<R>(from[k].count);  // 0 / 0 is NaN
  }
  return keepdims ? out : out.squeeze(detail::marked_axes(reduced));
}
/// Means along axes of the elements that are not NaN (`np.nanmean(x, axis=axes)`): NaN where
/// every element is NaN or none is reduced (NumPy also warns).
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the means
/// @throws IndexError when an axis does not exist or is named twice
template <Reducible X>
auto nanmean(const X& x, const Axes& axes, bool keepdims = false) {
  return nanmean(par, x, axes, keepdims);
}
/// The mean of the elements that are not NaN (`np.nanmean(x)`).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @return the mean (NaN when there is none)
template <ExecutionPolicy P, Reducible X>
auto nanmean(const P& policy, const X& x) {
  return detail::value_of(nanmean(policy, x, detail::every_axis(x)));
}
/// The mean of the elements that are not NaN (`np.nanmean(x)`).
/// @param x a tensor, view, selection or expression
/// @return the mean (NaN when there is none)
template <Reducible X>
auto nanmean(const X& x) {
  return nanmean(par, x);
}
/// Minima along axes skipping NaN (`np.nanmin(x, axis=axes)`): NaN where every element is NaN
/// or none is reduced.
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the minima
/// @throws IndexError when an axis does not exist or is named twice
template <ExecutionPolicy P, Reducible X>
auto nanmin(const P& policy, const X& x, const Axes& axes, bool keepdims = false) {
  using V = detail::reduced_value_t<X>;
  return detail::reduce_named<detail::NanExtremumKind<V, false>>(policy, x, axes.list(), keepdims,
                                                                 "nanmin");
}
/// Minima along axes skipping NaN (`np.nanmin(x, axis=axes)`): NaN where every element is NaN
/// or none is reduced.
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the minima
/// @throws IndexError when an axis does not exist or is named twice
template <Reducible X>
auto nanmin(const X& x, const Axes& axes, bool keepdims = false) {
  return nanmin(par, x, axes, keepdims);
}
/// The smallest element that is not NaN (`np.nanmin(x)`; NaN when every one is).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression, not empty
/// @return the minimum
/// @throws ShapeError when it is empty
template <ExecutionPolicy P, Reducible X>
auto nanmin(const P& policy, const X& x) {
  detail::check_not_empty(x, "nanmin", "minimum");
  return detail::reduce_all<detail::NanExtremumKind<detail::reduced_value_t<X>, false>>(policy, x);
}
/// The smallest element that is not NaN (`np.nanmin(x)`; NaN when every one is).
/// @param x a tensor, view, selection or expression, not empty
/// @return the minimum
/// @throws ShapeError when it is empty
template <Reducible X>
auto nanmin(const X& x) {
  return nanmin(par, x);
}
/// Maxima along axes skipping NaN (`np.nanmax(x, axis=axes)`).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the maxima
/// @throws IndexError when an axis does not exist or is named twice
template <ExecutionPolicy P, Reducible X>
auto nanmax(const P& policy, const X& x, const Axes& axes, bool keepdims = false) {
  using V = detail::reduced_value_t<X>;
  return detail::reduce_named<detail::NanExtremumKind<V, true>>(policy, x, axes.list(), keepdims,
                                                                "nanmax");
}
/// Maxima along axes skipping NaN (`np.nanmax(x, axis=axes)`).
/// @param x a tensor, view, selection or expression
/// @param axes the axes (one, or a list); negative counts from the end
/// @param keepdims keep reduced axes with extent 1
/// @return the maxima
/// @throws IndexError when an axis does not exist or is named twice
template <Reducible X>
auto nanmax(const X& x, const Axes& axes, bool keepdims = false) {
  return nanmax(par, x, axes, keepdims);
}
/// The largest element that is not NaN (`np.nanmax(x)`; NaN when every one is).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression, not empty
/// @return the maximum
/// @throws ShapeError when it is empty
template <ExecutionPolicy P, Reducible X>
auto nanmax(const P& policy, const X& x) {
  detail::check_not_empty(x, "nanmax", "maximum");
  return detail::reduce_all<detail::NanExtremumKind<detail::reduced_value_t<X>, true>>(policy, x);
}
/// The largest element that is not NaN (`np.nanmax(x)`; NaN when every one is).
/// @param x a tensor, view, selection or expression, not empty
/// @return the maximum
/// @throws ShapeError when it is empty
template <Reducible X>
auto nanmax(const X& x) {
  return nanmax(par, x);
}

// ---- argmin, argmax ----------------------------------------------------------------------------

namespace detail {

/// argmin / argmax along one axis (or of the flat row-major index, with no axis): the
/// operand read beside an index leaf, reduced to the first extreme (the first NaN wins).
template <bool High, ExecutionPolicy P, class X>
Tensor<index_t> arg_extremum(const P& policy, const X& x, std::optional<index_t> axis,
                             bool keepdims, const char* name) {
  using V = reduced_value_t<X>;
  using Kind = ArgKind<V, High>;
  using Acc = typename Kind::acc_type;
  const Index shape = shape_of(x);
  std::vector<bool> reduced(shape.size(), true);
  std::optional<std::size_t> along;
  if (axis) {
    reduced = reduced_axes(shape, {*axis}, name);
    along =
        static_cast<std::size_t>(*axis < 0 ? *axis + static_cast<index_t>(shape.size()) : *axis);
    if (shape[*along] == 0) {
      fail<ShapeError>(name, "axis ", *axis, " has extent 0 (shape ", to_string(shape),
                       "): an empty sequence has no extreme");
    }
  } else {
    check_not_empty(x, name, High ? "maximum" : "minimum");
  }
  // Each output's elements must be visited in increasing index (ArgKind::step). Along one axis
  // they are whatever the walk's order (that axis is never flipped: the index leaf runs
  // forward), so the operand leads and the walk follows its memory; over every axis the index
  // leaf leads, so the walk is row-major.
  const Tensor<Acc> best = [&] {
    if (along) {
      return reduce_kind<Kind>(policy,
                               strata::apply(
                                   [](V v, index_t i) {
                                     return Acc{v, i};
                                   },
                                   x, IndexExpr(shape, along)),
                               reduced);
    }
    return reduce_kind<Kind>(policy,
                             strata::apply(
                                 [](index_t i, V v) {
                                   return Acc{v, i};
                                 },
                                 IndexExpr(shape, along), x),
                             reduced);
  }();
  Tensor<index_t> out(best.shape());
  const Acc* from = best.buffer().data();
  index_t* to = out.buffer().data();
  for (index_t k = 0; k < out.size(); ++k) {
    // Still the identity's index: every element equals the identity, the first one wins.
    to[k] = from[k].index == std::numeric_limits<index_t>::max() ? 0 : from[k].index;
  }
  return keepdims ? out : out.squeeze(marked_axes(reduced));
}

}  // namespace detail

/// The indices of the minima along one axis (`np.argmin(x, axis)`): the first minimum, or the
/// first NaN where there is one, as NumPy.
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param axis the axis; negative counts from the end
/// @param keepdims keep it with extent 1
/// @return the indices along the axis
/// @throws IndexError when the axis does not exist; ShapeError when it has extent 0
template <ExecutionPolicy P, Reducible X, std::integral I>
Tensor<index_t> argmin(const P& policy, const X& x, I axis, bool keepdims = false) {
  return detail::arg_extremum<false>(policy, x, static_cast<index_t>(axis), keepdims, "argmin");
}
/// The indices of the minima along one axis (`np.argmin(x, axis)`): the first minimum, or the
/// first NaN where there is one, as NumPy.
/// @param x a tensor, view, selection or expression
/// @param axis the axis; negative counts from the end
/// @param keepdims keep it with extent 1
/// @return the indices along the axis
/// @throws IndexError when the axis does not exist; ShapeError when it has extent 0
template <Reducible X, std::integral I>
Tensor<index_t> argmin(const X& x, I axis, bool keepdims = false) {
  return argmin(par, x, axis, keepdims);
}
/// The flat row-major index of the first minimum (`np.argmin(x)`; the first NaN wins).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression, not empty
/// @return the index
/// @throws ShapeError when it is empty
template <ExecutionPolicy P, Reducible X>
index_t argmin(const P& policy, const X& x) {
  return detail::value_of(detail::arg_extremum<false>(policy, x, std::nullopt, false, "argmin"));
}
/// The flat row-major index of the first minimum (`np.argmin(x)`; the first NaN wins).
/// @param x a tensor, view, selection or expression, not empty
/// @return the index
/// @throws ShapeError when it is empty
template <Reducible X>
index_t argmin(const X& x) {
  return argmin(par, x);
}
/// The indices of the maxima along one axis (`np.argmax(x, axis)`: the first maximum, or the
/// first NaN).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param axis the axis; negative counts from the end
/// @param keepdims keep it with extent 1
/// @return the indices along the axis
/// @throws IndexError when the axis does not exist; ShapeError when it has extent 0
template <ExecutionPolicy P, Reducible X, std::integral I>
Tensor<index_t> argmax(const P& policy, const X& x, I axis, bool keepdims = false) {
  return detail::arg_extremum<true>(policy, x, static_cast<index_t>(axis), keepdims, "argmax");
}
/// The indices of the maxima along one axis (`np.argmax(x, axis)`: the first maximum, or the
/// first NaN).
/// @param x a tensor, view, selection or expression
/// @param axis the axis; negative counts from the end
/// @param keepdims keep it with extent 1
/// @return the indices along the axis
/// @throws IndexError when the axis does not exist; ShapeError when it has extent 0
template <Reducible X, std::integral I>
Tensor<index_t> argmax(const X& x, I axis, bool keepdims = false) {
  return argmax(par, x, axis, keepdims);
}
/// The flat row-major index of the first maximum (`np.argmax(x)`; the first NaN wins).
/// @param policy seq or par
/// @param x a tensor, view, selection or expression, not empty
/// @return the index
/// @throws ShapeError when it is empty
template <ExecutionPolicy P, Reducible X>
index_t argmax(const P& policy, const X& x) {
  return detail::value_of(detail::arg_extremum<true>(policy, x, std::nullopt, false, "argmax"));
}
/// The flat row-major index of the first maximum (`np.argmax(x)`; the first NaN wins).
/// @param x a tensor, view, selection or expression, not empty
/// @return the index
/// @throws ShapeError when it is empty
template <Reducible X>
index_t argmax(const X& x) {
  return argmax(par, x);
}

// ---- cumsum, cumprod ---------------------------------------------------------------------------

namespace detail {

/// A running reduction along one axis (or along the flattened operand), in the accumulator
/// type: each line is scanned in order, lines in parallel, so the bits do not depend on the
/// thread count.
template <class Acc, class Op, ExecutionPolicy P, class X>
Tensor<Acc> scan(const P& policy, const X& x, std::optional<index_t> axis, Op op,
                 const char* name) {
  const Index shape = shape_of(x);
  Tensor<Acc> out = evaluate<Acc>(as_expression(x), policy);  // fresh, row-major
  index_t outer = 1;
  index_t n = out.size();
  index_t inner = 1;
  if (axis) {
    const std::vector<bool> marked = reduced_axes(shape, {*axis}, name);
    for (std::size_t k = 0; k < shape.size(); ++k) {
      if (marked[k]) {
        n = shape[k];
        for (std::size_t j = k + 1; j < shape.size(); ++j) {
          inner *= shape[j];
        }
        break;
      }
      outer *= shape[k];
    }
  } else {
    out.rebind(out.reshape({out.size()}));
  }
  Acc* data = out.buffer().data();
  // Lines (o, j): the values o * n * inner + i * inner + j for i in [0, n).
  const auto lines = [&](index_t o0, index_t o1, index_t j0, index_t j1) {
    if (inner == 1) {  // contiguous lines (the last axis): one running value each
      for (index_t o = o0; o < o1; ++o) {
        Acc* line = data + o * n;
        Acc running = n > 0 ? line[0] : Acc{};
        for (index_t i = 1; i < n; ++i) {
          running = op(running, line[i]);
          line[i] = running;
        }
      }
      return;
    }
    for (index_t o = o0; o < o1; ++o) {
      Acc* base = data + o * n * inner;
      for (index_t i = 1; i < n; ++i) {
        Acc* __restrict row = base + i * inner;
        const Acc* __restrict previous = row - inner;
        for (index_t j = j0; j < j1; ++j) {
          row[j] = op(previous[j], row[j]);
        }
      }
    }
  };
  // Threads take whole lines: over the outer positions, or over the inner ones when there
  // are too few outer ones to share.
  const index_t line = std::max<index_t>(n, 1);
  const bool by_outer = outer >= inner;
  const index_t parts = by_outer ? outer : inner;
  const auto body = [&](index_t b, index_t e) {
    if (by_outer) {
      lines(b, e, 0, inner);
    } else {
      lines(0, outer, b, e);
    }
  };
  if constexpr (std::is_same_v<std::remove_cvref_t<P>, Parallel>) {
    const index_t per_part = line * (by_outer ? inner : outer);
    parallel::for_each_part(
        Parallel{std::max<index_t>(1, policy.grain / std::max<index_t>(per_part, 1)),
                 policy.threads},
        parts, body);
  } else {
    body(0, parts);
  }
  return out;
}

}  // namespace detail

/// Running sums along one axis (`np.cumsum(x, axis)`), in accumulator_t of the element type
/// (bool and narrow integers in 64 bits) or @p Acc; the shape of @p x.
/// @tparam Acc the accumulator and result type, or void for the default
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param axis the axis; negative counts from the end
/// @return the running sums
/// @throws IndexError when the axis does not exist
template <class Acc = void, ExecutionPolicy P, Reducible X, std::integral I>
auto cumsum(const P& policy, const X& x, I axis) {
  using A = detail::sum_acc_t<Acc, X>;
  return detail::scan<A>(policy, x, static_cast<index_t>(axis), std::plus<A>{}, "cumsum");
}
/// Running sums along one axis (`np.cumsum(x, axis)`), in accumulator_t of the element type
/// (bool and narrow integers in 64 bits) or @p Acc; the shape of @p x.
/// @tparam Acc the accumulator and result type, or void for the default
/// @param x a tensor, view, selection or expression
/// @param axis the axis; negative counts from the end
/// @return the running sums
/// @throws IndexError when the axis does not exist
template <class Acc = void, Reducible X, std::integral I>
auto cumsum(const X& x, I axis) {
  using A = detail::sum_acc_t<Acc, X>;
  return detail::scan<A>(par, x, static_cast<index_t>(axis), std::plus<A>{}, "cumsum");
}
/// Running sums of the flattened operand, in row-major order (`np.cumsum(x)`): rank 1.
/// @tparam Acc the accumulator and result type, or void for the default
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @return the running sums
template <class Acc = void, ExecutionPolicy P, Reducible X>
auto cumsum(const P& policy, const X& x) {
  using A = detail::sum_acc_t<Acc, X>;
  return detail::scan<A>(policy, x, std::nullopt, std::plus<A>{}, "cumsum");
}
/// Running sums of the flattened operand, in row-major order (`np.cumsum(x)`): rank 1.
/// @tparam Acc the accumulator and result type, or void for the default
/// @param x a tensor, view, selection or expression
/// @return the running sums
template <class Acc = void, Reducible X>
auto cumsum(const X& x) {
  using A = detail::sum_acc_t<Acc, X>;
  return detail::scan<A>(par, x, std::nullopt, std::plus<A>{}, "cumsum");
}
/// Running products along one axis (`np.cumprod(x, axis)`), in accumulator_t of the element
/// type or @p Acc.
/// @tparam Acc the accumulator and result type, or void for the default
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @param axis the axis; negative counts from the end
/// @return the running products
/// @throws IndexError when the axis does not exist
template <class Acc = void, ExecutionPolicy P, Reducible X, std::integral I>
auto cumprod(const P& policy, const X& x, I axis) {
  using A = detail::sum_acc_t<Acc, X>;
  return detail::scan<A>(policy, x, static_cast<index_t>(axis), std::multiplies<A>{}, "cumprod");
}
/// Running products along one axis (`np.cumprod(x, axis)`), in accumulator_t of the element
/// type or @p Acc.
/// @tparam Acc the accumulator and result type, or void for the default
/// @param x a tensor, view, selection or expression
/// @param axis the axis; negative counts from the end
/// @return the running products
/// @throws IndexError when the axis does not exist
template <class Acc = void, Reducible X, std::integral I>
auto cumprod(const X& x, I axis) {
  using A = detail::sum_acc_t<Acc, X>;
  return detail::scan<A>(par, x, static_cast<index_t>(axis), std::multiplies<A>{}, "cumprod");
}
/// Running products of the flattened operand (`np.cumprod(x)`): rank 1.
/// @tparam Acc the accumulator and result type, or void for the default
/// @param policy seq or par
/// @param x a tensor, view, selection or expression
/// @return the running products
template <class Acc = void, ExecutionPolicy P, Reducible X>
auto cumprod(const P& policy, const X& x) {
  using A = detail::sum_acc_t<Acc, X>;
  return detail::scan<A>(policy, x, std::nullopt, std::multiplies<A>{}, "cumprod");
}
/// Running products of the flattened operand (`np.cumprod(x)`): rank 1.
/// @tparam Acc the accumulator and result type, or void for the default
/// @param x a tensor, view, selection or expression
/// @return the running products
template <class Acc = void, Reducible X>
auto cumprod(const X& x) {
  using A = detail::sum_acc_t<Acc, X>;
  return detail::scan<A>(par, x, std::nullopt, std::multiplies<A>{}, "cumprod");
}

// ---- comparisons of whole operands -------------------------------------------------------------

/// allclose() where an operand is an expression (both are evaluated).
/// @param a, b operands (tensors or expressions), one an expression
/// @param rtol the relative tolerance
/// @param atol the absolute tolerance
/// @return true when every pair is close
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires(LazyOperand<A> || LazyOperand<B>) bool allclose(const A& a, const B& b, double rtol = 1e-5,
                                                         double atol = 1e-8) {
  return allclose(evaluate(detail::as_expression(a)), evaluate(detail::as_expression(b)), rtol,
                  atol);
}
/// array_equal() where an operand is an expression.
/// @param a, b operands (tensors or expressions), one an expression
/// @return true when the shapes and every element are equal
template <class A, class B>
requires(LazyOperand<A> || LazyOperand<B>) bool array_equal(const A& a, const B& b) {
  return array_equal(evaluate(detail::as_expression(a)), evaluate(detail::as_expression(b)));
}

}  // namespace strata
