/// @file
/// where, minimum and maximum: selections whose source is chosen element by element by data.
#pragma once

#include "strata/select/selection.hpp"

#include <array>
#include <memory>
#include <type_traits>

namespace strata {
namespace detail {

/// Materialises a selection (a leaf tensor is used as it is).
template <class T>
Tensor<const T> evaluated(const Selection<T>& s, bool parallel) {
  if (const Tensor<const T>* t = s.node()->leaf()) {
    return *t;
  }
  return parallel ? s.materialize(par) : s.materialize(seq);
}

/// Cuts a source that broadcasts to an output of rank @p rank the way the output is cut along
/// @p axis (a missing or extent-1 source axis is left alone, or squeezed when dropped).
template <class S>
S cut_broadcast(const S& source, std::size_t rank, std::size_t axis, index_t start, index_t step,
                index_t count, bool drop) {
  const Index shape = source.shape();
  const std::size_t lead = rank - shape.size();
  if (axis < lead) {
    return source;
  }
  const std::size_t k = axis - lead;
  if (shape[k] == 1) {
    return drop ? source.slice_axis(k, 0, 1, 1, true) : source;
  }
  return source.slice_axis(k, start, step, count, drop);
}

/// The output shape cut along one axis.
inline Index cut_shape(Index shape, std::size_t axis, index_t count, bool drop) {
  if (drop) {
    shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(axis));
  } else {
    shape[axis] = count;
  }
  return shape;
}

/// Maps a broadcast output index to a source index (extent-1 axes read index 0).
inline Index broadcast_index(IndexSpan g, IndexSpan source_shape) {
  const std::size_t lead = g.size() - source_shape.size();
  Index out(source_shape.size());
  for (std::size_t k = 0; k < out.size(); ++k) {
    out[k] = source_shape[k] == 1 ? 0 : g[lead + k];
  }
  return out;
}

template <class T, class M>
class WhereNode final : public SelectionNode<T> {
 public:
  [[nodiscard]] bool reads(const Footprint& memory) const override {
    return mask_.node()->reads(memory) || a_.node()->reads(memory) || b_.node()->reads(memory);
  }
  [[nodiscard]] bool concurrent() const override {
    return mask_.node()->concurrent() && a_.node()->concurrent() && b_.node()->concurrent();
  }
  WhereNode(Selection<M> mask, Selection<T> a, Selection<T> b, Index shape)
      : mask_(std::move(mask)), a_(std::move(a)), b_(std::move(b)), shape_(std::move(shape)) {}
  [[nodiscard]] Index shape() const override { return shape_; }
  [[nodiscard]] T at(IndexSpan g) const override {
    return static_cast<bool>(mask_.node()->at(broadcast_index(g, mask_.shape())))
               ? a_.node()->at(broadcast_index(g, a_.shape()))
               : b_.node()->at(broadcast_index(g, b_.shape()));
  }
  [[nodiscard]] const void* source(IndexSpan g) const override {
    return static_cast<bool>(mask_.node()->at(broadcast_index(g, mask_.shape())))
               ? a_.node()->source(broadcast_index(g, a_.shape()))
               : b_.node()->source(broadcast_index(g, b_.shape()));
  }
  void materialize_into(Tensor<T>& dst, bool parallel) const override {
    const Tensor<const M> m = evaluated(mask_, parallel);
    const Tensor<const T> a = evaluated(a_, parallel);
    const Tensor<const T> b = evaluated(b_, parallel);
    const Dimensions md = m.dims().broadcast(shape_);
    const Dimensions ad = a.dims().broadcast(shape_);
    const Dimensions bd = b.dims().broadcast(shape_);
    const Dimensions& od = dst.dims();
    const Reader<M> rm(m.buffer());
    const Reader<T> ra(a.buffer());
    const Reader<T> rb(b.buffer());
    const AnyBuffer<T>& out = dst.buffer();
    T* data = out.data();
    walk_rows<4>(
        {&od, &md, &ad, &bd}, 0, od.size(),
        [&](const std::array<index_t, 4>& at, const std::array<index_t, 4>& stride, index_t count) {
          for (index_t k = 0; k < count; ++k) {
            const T v = static_cast<bool>(rm(at[1] + k * stride[1])) ? ra(at[2] + k * stride[2])
                                                                     : rb(at[3] + k * stride[3]);
            if (data != nullptr) {
              data[at[0] + k * stride[0]] = v;
            } else {
              out.write(at[0] + k * stride[0], v);
            }
          }
        });
  }
  [[nodiscard]] NodePtr<T> sliced(std::size_t axis, index_t start, index_t step, index_t count,
                                  bool drop) const override {
    const std::size_t r = shape_.size();
    return std::make_shared<WhereNode>(cut_broadcast(mask_, r, axis, start, step, count, drop),
                                       cut_broadcast(a_, r, axis, start, step, count, drop),
                                       cut_broadcast(b_, r, axis, start, step, count, drop),
                                       cut_shape(shape_, axis, count, drop));
  }
  void explain(std::ostream& out, int depth) const override {
    out << indent(depth) << "where -> " << to_string(shape_) << "\n";
    mask_.node()->explain(out, depth + 1);
    a_.node()->explain(out, depth + 1);
    b_.node()->explain(out, depth + 1);
  }

 private:
  Selection<M> mask_;
  Selection<T> a_;
  Selection<T> b_;
  Index shape_;
};

template <class T>
class ExtremumNode final : public SelectionNode<T> {
 public:
  [[nodiscard]] bool reads(const Footprint& memory) const override {
    return a_.node()->reads(memory) || b_.node()->reads(memory);
  }
  [[nodiscard]] bool concurrent() const override {
    return a_.node()->concurrent() && b_.node()->concurrent();
  }
  ExtremumNode(Selection<T> a, Selection<T> b, Index shape, bool maximum)
      : a_(std::move(a)), b_(std::move(b)), shape_(std::move(shape)), maximum_(maximum) {}
  [[nodiscard]] Index shape() const override { return shape_; }
  [[nodiscard]] T at(IndexSpan g) const override {
    return pick(a_.node()->at(broadcast_index(g, a_.shape())),
                b_.node()->at(broadcast_index(g, b_.shape())));
  }
  /// The operand whose value is picked (the first on a tie).
  [[nodiscard]] const void* source(IndexSpan g) const override {
    const Index ga = broadcast_index(g, a_.shape());
    const Index gb = broadcast_index(g, b_.shape());
    const T x = a_.node()->at(ga);
    return pick(x, b_.node()->at(gb)) == x ? a_.node()->source(ga) : b_.node()->source(gb);
  }
  void materialize_into(Tensor<T>& dst, bool parallel) const override {
    const auto pick_one = [this](T x, T y) { return pick(x, y); };
    if (parallel) {
      zip_with_into(dst, evaluated(a_, parallel), evaluated(b_, parallel), pick_one, par);
    } else {
      zip_with_into(dst, evaluated(a_, parallel), evaluated(b_, parallel), pick_one, seq);
    }
  }
  [[nodiscard]] NodePtr<T> sliced(std::size_t axis, index_t start, index_t step, index_t count,
                                  bool drop) const override {
    const std::size_t r = shape_.size();
    return std::make_shared<ExtremumNode>(cut_broadcast(a_, r, axis, start, step, count, drop),
                                          cut_broadcast(b_, r, axis, start, step, count, drop),
                                          cut_shape(shape_, axis, count, drop), maximum_);
  }
  void explain(std::ostream& out, int depth) const override {
    out << indent(depth) << (maximum_ ? "maximum" : "minimum") << " -> " << to_string(shape_)
        << "\n";
    a_.node()->explain(out, depth + 1);
    b_.node()->explain(out, depth + 1);
  }

 private:
  // NaN propagates, as numpy.minimum / numpy.maximum.
  [[nodiscard]] T pick(T x, T y) const {
    if (x != x) {  // NOLINT(misc-redundant-expression): true only for NaN
      return x;
    }
    if (y != y) {  // NOLINT(misc-redundant-expression)
      return y;
    }
    return maximum_ ? (x < y ? y : x) : (y < x ? y : x);
  }

  Selection<T> a_;
  Selection<T> b_;
  Index shape_;
  bool maximum_;
};

}  // namespace detail

/// The element type of a Tensor or a Selection.
template <class S>
struct selection_value;
/// @cond INTERNAL
template <class T>
struct selection_value<Tensor<T>> {
  using type = std::remove_const_t<T>;
};
template <class T>
struct selection_value<Selection<T>> {
  using type = T;
};
/// @endcond

/// The element type of a Tensor or a Selection.
template <class S>
using selection_value_t = typename selection_value<std::remove_cvref_t<S>>::type;

namespace detail {
/// Whether the operands are tensors or selections of one element type: the composite
/// selections where, minimum and maximum apply (other operands make lazy expressions).
template <class A, class B>
concept SameSelectionTypes = requires {
  typename selection_value<std::remove_cvref_t<A>>::type;
  typename selection_value<std::remove_cvref_t<B>>::type;
  requires std::is_same_v<selection_value_t<A>, selection_value_t<B>>;
};
}  // namespace detail

/// Chooses `a` where the mask is true and `b` elsewhere, the three broadcast together with
/// NumPy's rules, as `numpy.where(mask, a, b)`; lazy.
/// @param mask a tensor or selection of any type convertible to bool
/// @param a the values where the mask is true (a tensor or selection)
/// @param b the values where it is false, of a's element type (other element types, scalars
///        and expressions make the lazy expression of strata/expr/operators.hpp)
/// @return the selection
/// @throws BroadcastError when the shapes do not broadcast
template <class Mask, class A, class B>
requires(detail::SameSelectionTypes<Mask, Mask>&& detail::SameSelectionTypes<A, B>)
    Selection<selection_value_t<A>> where(const Mask& mask, const A& a, const B& b) {
  using T = selection_value_t<A>;
  using M = selection_value_t<Mask>;
  const Selection<M> m(mask);
  const Selection<T> x(a);
  const Selection<T> y(b);
  Index shape = broadcast_shapes(m.shape(), x.shape(), "where");
  shape = broadcast_shapes(shape, y.shape(), "where");
  return Selection<T>(std::make_shared<detail::WhereNode<T, M>>(m, x, y, shape));
}

/// Element-wise minimum with NumPy broadcasting (NaN propagates), as `numpy.minimum`; lazy.
/// @param a, b tensors or selections of one element type
/// @return the selection
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::SameSelectionTypes<A, B> Selection<selection_value_t<A>> minimum(const A& a,
                                                                                  const B& b) {
  using T = selection_value_t<A>;
  const Selection<T> x(a);
  const Selection<T> y(b);
  return Selection<T>(std::make_shared<detail::ExtremumNode<T>>(
      x, y, broadcast_shapes(x.shape(), y.shape(), "minimum"), false));
}

/// Element-wise maximum with NumPy broadcasting (NaN propagates), as `numpy.maximum`; lazy.
/// @param a, b tensors or selections of one element type
/// @return the selection
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::SameSelectionTypes<A, B> Selection<selection_value_t<A>> maximum(const A& a,
                                                                                  const B& b) {
  using T = selection_value_t<A>;
  const Selection<T> x(a);
  const Selection<T> y(b);
  return Selection<T>(std::make_shared<detail::ExtremumNode<T>>(
      x, y, broadcast_shapes(x.shape(), y.shape(), "maximum"), true));
}

}  // namespace strata
