/// @file
/// NumPy's named products: matmul (`a @ b`), dot, vdot, inner, outer, tensordot and kron, with
/// NumPy's shape rules, each one einsum over the subscripts it spells (so a product of views
/// goes to BLIS with the views' strides, a sparse factor through its stored entries).
#pragma once

#include "strata/contract/einsum.hpp"

#include <cstddef>
#include <string>
#include <utility>

namespace strata {

namespace detail {

/// The subscript of axis @p k in the specs the named products spell: a-z, then A-Z.
/// @throws ShapeError naming @p operation when k >= 52 (einsum's letters)
inline char product_label(std::size_t k, const char* operation) {
  if (k >= 52) {
    fail<ShapeError>(operation, "the operands have more than 52 axes together (einsum's letters)");
  }
  return static_cast<char>(k < 26 ? 'a' + static_cast<int>(k) : 'A' + static_cast<int>(k - 26));
}

/// @p count subscripts from the @p first one.
inline std::string product_labels(std::size_t first, std::size_t count, const char* operation) {
  std::string out;
  for (std::size_t k = 0; k < count; ++k) {
    out.push_back(product_label(first + k, operation));
  }
  return out;
}

/// Throws unless the extents summed together are equal (the named products, as NumPy's, do not
/// broadcast a summed axis of extent 1).
inline void check_summed(const char* operation, const Index& a, std::size_t ka, const Index& b,
                         std::size_t kb) {
  if (a[ka] != b[kb]) {
    fail<ShapeError>(operation, "axis ", ka, " of a ", to_string(a), " (extent ", a[ka],
                     ") and axis ", kb, " of b ", to_string(b), " (extent ", b[kb],
                     ") are summed together and differ");
  }
}

/// The number of elements of a shape.
inline index_t elements_of(const Index& shape) {
  index_t n = 1;
  for (const index_t e : shape) {
    n *= e;
  }
  return n;
}

/// The einsum of dot and inner for operands of shapes @p as and @p bs: the sum over a's last
/// axis and b's axis @p from_end from its end (1 the last, 2 the second last or the only one);
/// a's other axes, then b's, in the result. A scalar operand multiplies the other.
inline std::string last_axis_spec(const char* operation, const Index& as, const Index& bs,
                                  std::size_t from_end) {
  const std::string la = product_labels(0, as.size(), operation);
  std::string lb = product_labels(as.size(), bs.size(), operation);
  std::string out = la + lb;
  if (!as.empty() && !bs.empty()) {
    const std::size_t kb = bs.size() < from_end ? 0 : bs.size() - from_end;
    check_summed(operation, as, as.size() - 1, bs, kb);
    lb[kb] = la.back();
    out = la.substr(0, la.size() - 1) + lb.substr(0, kb) + lb.substr(kb + 1);
  }
  return la + "," + lb + "->" + out;
}

/// The einsum of NumPy's `np.matmul` for operands of shapes @p as and @p bs (checked: no
/// scalar, equal summed extents, batch axes that broadcast).
inline std::string matmul_spec(const char* operation, const Index& as, const Index& bs) {
  if (as.empty() || bs.empty()) {
    fail<ShapeError>(operation, "operand ", as.empty() ? "a" : "b",
                     " is a scalar (shape ()); matmul needs one axis or more (a scalar product "
                     "is a * b)");
  }
  const std::size_t kb = bs.size() == 1 ? 0 : bs.size() - 2;
  check_summed(operation, as, as.size() - 1, bs, kb);
  if (as.size() > 2 && bs.size() > 2) {
    (void)broadcast_shapes(IndexSpan(as).first(as.size() - 2), IndexSpan(bs).first(bs.size() - 2),
                           operation);
  }
  const bool batched = as.size() > 2 || bs.size() > 2;
  return std::string(as.size() == 1 ? "j" : "...ij") + "," + (bs.size() == 1 ? "j" : "...jk") +
         "->" + (batched ? "..." : "") + (as.size() == 1 ? "" : "i") + (bs.size() == 1 ? "" : "k");
}

/// Writes the product @p spec of @p a and @p b into @p out for the `_into` forms, errors
/// naming @p operation.
template <ExecutionPolicy P, class T, class A, class B>
void product_into(const P& policy, const char* operation, const Tensor<T>& out, Scaling scaling,
                  const std::string& spec, const A& a, const B& b) {
  const ContractionPlan plan = plan_of(spec, a, b);
  einsum_planned(policy, plan, out, scaling, operation, a, b);
}

/// An operand as a new row-major vector of its elements (vdot's operands of different shapes).
template <class R, ExecutionPolicy P, class X>
Tensor<R> flattened(const P& policy, const X& x) {
  const Index shape = operand_shape(x);
  Tensor<R> flat = Tensor<R>::for_overwrite(Index{elements_of(shape)});
  assign_expression(policy, flat.reshape(shape), astype<R>(as_expression(x)));
  return flat;
}

}  // namespace detail

// ---- matmul ------------------------------------------------------------------------------------

/// The matrix product as NumPy's `np.matmul(a, b)` (`a @ b`): the last two axes of each operand
/// are matrices and the axes before them a batch, broadcast together (NumPy's rules); a
/// one-axis operand is a vector (a row on the left, a column on the right, its axis dropped
/// from the result). The einsum `"...ij,...jk->...ik"`: one GEMM on the views' strides where
/// they allow it. The result has the operands' common element type.
///
/// @code
/// auto c = strata::matmul(a, b);       // [n, k] x [k, m] -> [n, m]
/// auto y = strata::matmul(a, x);       // [n, k] x [k] -> [n]
/// auto z = strata::matmul(batch, b);   // [8, n, k] x [k, m] -> [8, n, m]
/// @endcode
/// @param policy seq or par
/// @param a, b tensors, views or expressions of rank >= 1
/// @return the product
/// @throws ShapeError when an operand is a scalar (rank 0: use `a * b`) or the summed axes
///         differ (an extent of 1 does not broadcast there, as in NumPy); BroadcastError when
///         the batch axes do not broadcast
template <ExecutionPolicy P, class A, class B>
requires(detail::dense_operands_v<A, B>) auto matmul(const P& policy, const A& a, const B& b) {
  return einsum(policy,
                detail::matmul_spec("matmul", detail::operand_shape(a), detail::operand_shape(b)),
                a, b);
}
/// The matrix product as NumPy's `np.matmul(a, b)` (`a @ b`), in parallel (see the policy
/// form).
/// @param a, b tensors, views or expressions of rank >= 1
/// @return the product
/// @throws ShapeError when an operand is a scalar or the summed axes differ; BroadcastError
///         when the batch axes do not broadcast
template <class A, class B>
requires(detail::dense_operands_v<A, B>) auto matmul(const A& a, const B& b) {
  return matmul(par, a, b);
}

/// The matrix product written into a view, NumPy's `np.matmul(a, b, out=out)`, or with
/// @p scaling `out = alpha * a @ b + beta * out` as BLAS's gemm (beta 0, the default: out is
/// not read). No result is allocated: an iterative code's `matmul_into(y, k, x)` reuses y.
/// Converted to out's element type; an operand that shares out's storage is read from a copy
/// first (as NumPy); nothing is written when an argument is bad.
///
/// @code
/// strata::matmul_into(c, a, b);                          // c = a @ b
/// strata::matmul_into(c, a, b, strata::Scaling{2, 1});   // c += 2 a @ b
/// @endcode
/// @param policy seq or par
/// @param out the destination view (writable, of matmul(a, b)'s shape)
/// @param a, b tensors, views or expressions of rank >= 1
/// @param scaling alpha and beta
/// @throws ShapeError as matmul(), or when out's shape is not the product's; BroadcastError
///         as matmul(); LayoutError when out cannot be written
template <ExecutionPolicy P, class T, class A, class B>
requires(!std::is_const_v<T> && detail::dense_operands_v<A, B>) void matmul_into(
    const P& policy, const Tensor<T>& out, const A& a, const B& b, Scaling scaling = {}) {
  detail::product_into(
      policy, "matmul_into", out, scaling,
      detail::matmul_spec("matmul_into", detail::operand_shape(a), detail::operand_shape(b)), a, b);
}
/// The matrix product written into a view, in parallel (see the policy form).
/// @param out the destination view (writable, of matmul(a, b)'s shape)
/// @param a, b tensors, views or expressions of rank >= 1
/// @param scaling alpha and beta
/// @throws ShapeError, BroadcastError, LayoutError as the policy form
template <class T, class A, class B>
requires(!std::is_const_v<T> &&
         detail::dense_operands_v<A, B>) void matmul_into(const Tensor<T>& out, const A& a,
                                                          const B& b, Scaling scaling = {}) {
  matmul_into(par, out, a, b, scaling);
}

// ---- dot, inner --------------------------------------------------------------------------------

/// NumPy's `np.dot(a, b)`: the sum over the last axis of a and the second last of b (the only
/// one of a vector), `dot(a, b)[i, j, k, m] = sum(a[i, j, :] * b[k, :, m])`, so the result's
/// shape is a's without its last axis, then b's without the summed one (no batch: every other
/// axis is kept). A scalar operand multiplies the other. The result has the operands' common
/// element type; two vectors give a rank-0 tensor.
/// @param policy seq or par
/// @param a, b tensors, views or expressions
/// @return the product
/// @throws ShapeError when the summed axes differ
template <ExecutionPolicy P, class A, class B>
requires(detail::dense_operands_v<A, B>) auto dot(const P& policy, const A& a, const B& b) {
  return einsum(
      policy, detail::last_axis_spec("dot", detail::operand_shape(a), detail::operand_shape(b), 2),
      a, b);
}
/// NumPy's `np.dot(a, b)`, in parallel (see the policy form).
/// @param a, b tensors, views or expressions
/// @return the product
/// @throws ShapeError when the summed axes differ
template <class A, class B>
requires(detail::dense_operands_v<A, B>) auto dot(const A& a, const B& b) {
  return dot(par, a, b);
}
/// NumPy's `np.dot(a, b, out=out)`: dot() written into a view, or with @p scaling
/// `out = alpha * dot(a, b) + beta * out` (see matmul_into()).
/// @param policy seq or par
/// @param out the destination view (writable, of dot(a, b)'s shape)
/// @param a, b tensors, views or expressions
/// @param scaling alpha and beta
/// @throws ShapeError when the summed axes differ or out's shape is not the product's;
///         LayoutError when out cannot be written
template <ExecutionPolicy P, class T, class A, class B>
requires(!std::is_const_v<T> && detail::dense_operands_v<A, B>) void dot_into(
    const P& policy, const Tensor<T>& out, const A& a, const B& b, Scaling scaling = {}) {
  detail::product_into(
      policy, "dot_into", out, scaling,
      detail::last_axis_spec("dot_into", detail::operand_shape(a), detail::operand_shape(b), 2), a,
      b);
}
/// NumPy's `np.dot(a, b, out=out)`, in parallel (see the policy form).
/// @param out the destination view (writable, of dot(a, b)'s shape)
/// @param a, b tensors, views or expressions
/// @param scaling alpha and beta
/// @throws ShapeError, LayoutError as the policy form
template <class T, class A, class B>
requires(!std::is_const_v<T> &&
         detail::dense_operands_v<A, B>) void dot_into(const Tensor<T>& out, const A& a, const B& b,
                                                       Scaling scaling = {}) {
  dot_into(par, out, a, b, scaling);
}

/// NumPy's `np.inner(a, b)`: the sum over the last axes of both, `inner(a, b)[i, j, k] =
/// sum(a[i, j, :] * b[k, :])`; the result's shape is a's without its last axis, then b's
/// without its last. A scalar operand multiplies the other.
/// @param policy seq or par
/// @param a, b tensors, views or expressions
/// @return the product
/// @throws ShapeError when the last axes differ
template <ExecutionPolicy P, class A, class B>
requires(detail::dense_operands_v<A, B>) auto inner(const P& policy, const A& a, const B& b) {
  return einsum(
      policy,
      detail::last_axis_spec("inner", detail::operand_shape(a), detail::operand_shape(b), 1), a, b);
}
/// NumPy's `np.inner(a, b)`, in parallel (see the policy form).
/// @param a, b tensors, views or expressions
/// @return the product
/// @throws ShapeError when the last axes differ
template <class A, class B>
requires(detail::dense_operands_v<A, B>) auto inner(const A& a, const B& b) {
  return inner(par, a, b);
}

namespace detail {

/// vdot() of @p a (conjugated already when complex) and @p b.
template <ExecutionPolicy P, class A, class B>
auto vdot_of(const P& policy, const A& a, const B& b) {
  using R = detail::contraction_t<A, B>;
  const Index as = detail::operand_shape(a);
  const Index bs = detail::operand_shape(b);
  if (detail::elements_of(as) != detail::elements_of(bs)) {
    detail::fail<ShapeError>("vdot", "a ", to_string(as), " has ", detail::elements_of(as),
                             " elements and b ", to_string(bs), " has ", detail::elements_of(bs),
                             " elements");
  }
  if (as == bs) {
    const std::string l = detail::product_labels(0, as.size(), "vdot");
    return detail::value_of(einsum(policy, l + "," + l + "->", a, b));
  }
  return detail::value_of(
      einsum(policy, "i,i->", detail::flattened<R>(policy, a), detail::flattened<R>(policy, b)));
}

}  // namespace detail

/// NumPy's `np.vdot(a, b)`: the sum of the products of the elements of a and b in row-major
/// order, whatever their shapes (their sizes must be equal), as one value of their common
/// element type; a complex @p a is conjugated first, as NumPy's vdot does (`vdot(z, z)` is
/// the squared norm). Operands of one shape are read where they are; others are copied into
/// vectors first.
/// @param policy seq or par
/// @param a, b tensors, views or expressions
/// @return the sum
/// @throws ShapeError when the sizes differ
template <ExecutionPolicy P, class A, class B>
requires(detail::dense_operands_v<A, B>) auto vdot(const P& policy, const A& a, const B& b) {
  if constexpr (is_complex_v<typename detail::node_t<A>::value_type>) {
    return detail::vdot_of(policy, conj(a), b);
  } else {
    return detail::vdot_of(policy, a, b);
  }
}
/// NumPy's `np.vdot(a, b)`, in parallel (see the policy form).
/// @param a, b tensors, views or expressions
/// @return the sum
/// @throws ShapeError when the sizes differ
template <class A, class B>
requires(detail::dense_operands_v<A, B>) auto vdot(const A& a, const B& b) {
  return vdot(par, a, b);
}

// ---- outer, kron -------------------------------------------------------------------------------

/// NumPy's `np.outer(a, b)`: every product of an element of a and an element of b, as the
/// matrix `[a.size(), b.size()]` (the operands are read in row-major order, any shape).
/// @param policy seq or par
/// @param a, b tensors, views or expressions
/// @return the matrix
template <ExecutionPolicy P, class A, class B>
requires(detail::dense_operands_v<A, B>) auto outer(const P& policy, const A& a, const B& b) {
  const Index as = detail::operand_shape(a);
  const Index bs = detail::operand_shape(b);
  const std::string la = detail::product_labels(0, as.size(), "outer");
  const std::string lb = detail::product_labels(as.size(), bs.size(), "outer");
  auto full = einsum(policy, la + "," + lb + "->" + la + lb, a, b);
  return full.reshape(Index{detail::elements_of(as), detail::elements_of(bs)});
}
/// NumPy's `np.outer(a, b)`, in parallel (see the policy form).
/// @param a, b tensors, views or expressions
/// @return the matrix
template <class A, class B>
requires(detail::dense_operands_v<A, B>) auto outer(const A& a, const B& b) {
  return outer(par, a, b);
}

/// NumPy's `np.kron(a, b)`: the Kronecker product, blocks of b scaled by the elements of a.
/// The shapes are aligned from the end (the shorter padded with leading 1s) and the result's
/// extent along each axis is the product of theirs: `kron(a, b)[i * p + k, j * q + l] = a[i,
/// j] * b[k, l]` for a b of shape [p, q].
/// @param policy seq or par
/// @param a, b tensors, views or expressions
/// @return the product
template <ExecutionPolicy P, class A, class B>
requires(detail::dense_operands_v<A, B>) auto kron(const P& policy, const A& a, const B& b) {
  const Index as = detail::operand_shape(a);
  const Index bs = detail::operand_shape(b);
  const std::size_t rank = std::max(as.size(), bs.size());
  const std::string la = detail::product_labels(0, as.size(), "kron");
  const std::string lb = detail::product_labels(as.size(), bs.size(), "kron");
  std::string out;
  Index shape;
  for (std::size_t p = 0; p < rank; ++p) {
    // Axis p of the aligned shapes: a's axis p - (rank - as.size()) and b's likewise.
    index_t extent = 1;
    if (p + as.size() >= rank) {
      out.push_back(la[p + as.size() - rank]);
      extent *= as[p + as.size() - rank];
    }
    if (p + bs.size() >= rank) {
      out.push_back(lb[p + bs.size() - rank]);
      extent *= bs[p + bs.size() - rank];
    }
    shape.push_back(extent);
  }
  auto full = einsum(policy, la + "," + lb + "->" + out, a, b);
  return full.reshape(shape);
}
/// NumPy's `np.kron(a, b)`, in parallel (see the policy form).
/// @param a, b tensors, views or expressions
/// @return the product
template <class A, class B>
requires(detail::dense_operands_v<A, B>) auto kron(const A& a, const B& b) {
  return kron(par, a, b);
}

// ---- tensordot ---------------------------------------------------------------------------------

/// NumPy's `np.tensordot(a, b, axes=(a_axes, b_axes))`: the sum over a's axes @p a_axes paired
/// with b's @p b_axes, in order; the result's axes are a's other axes, then b's other axes,
/// each in its order. Negative axes count from the end.
///
/// @code
/// auto c = strata::tensordot(t, u, {1, 0}, {0, 2});  // t [3, 4, 5], u [4, 6, 3] -> [5, 6]
/// @endcode
/// @param policy seq or par
/// @param a, b tensors, views or expressions
/// @param a_axes a's summed axes
/// @param b_axes b's summed axes, as many
/// @return the product
/// @throws IndexError when an axis does not exist or is named twice; ShapeError when the lists
///         differ in length or paired axes in extent
template <ExecutionPolicy P, class A, class B>
requires(detail::dense_operands_v<A, B>) auto tensordot(const P& policy, const A& a, const B& b,
                                                        const Index& a_axes, const Index& b_axes) {
  const Index as = detail::operand_shape(a);
  const Index bs = detail::operand_shape(b);
  if (a_axes.size() != b_axes.size()) {
    detail::fail<ShapeError>("tensordot", "a's axes ", to_string(a_axes), " and b's axes ",
                             to_string(b_axes), " differ in number");
  }
  const std::vector<bool> summed_a = detail::reduced_axes(as, a_axes, "tensordot");
  const std::vector<bool> summed_b = detail::reduced_axes(bs, b_axes, "tensordot");
  const std::string la = detail::product_labels(0, as.size(), "tensordot");
  std::string lb = detail::product_labels(as.size(), bs.size(), "tensordot");
  const auto normal = [](index_t axis, std::size_t rank) {
    return static_cast<std::size_t>(axis < 0 ? axis + static_cast<index_t>(rank) : axis);
  };
  for (std::size_t k = 0; k < a_axes.size(); ++k) {
    const std::size_t ka = normal(a_axes[k], as.size());
    const std::size_t kb = normal(b_axes[k], bs.size());
    detail::check_summed("tensordot", as, ka, bs, kb);
    lb[kb] = la[ka];
  }
  std::string out;
  for (std::size_t k = 0; k < as.size(); ++k) {
    if (!summed_a[k]) {
      out.push_back(la[k]);
    }
  }
  for (std::size_t k = 0; k < bs.size(); ++k) {
    if (!summed_b[k]) {
      out.push_back(lb[k]);
    }
  }
  return einsum(policy, la + "," + lb + "->" + out, a, b);
}
/// NumPy's `np.tensordot(a, b, axes=(a_axes, b_axes))`, in parallel (see the policy form).
/// @param a, b tensors, views or expressions
/// @param a_axes a's summed axes
/// @param b_axes b's summed axes, as many
/// @return the product
/// @throws IndexError when an axis does not exist or is named twice; ShapeError when the lists
///         differ in length or paired axes in extent
template <class A, class B>
requires(detail::dense_operands_v<A, B>) auto tensordot(const A& a, const B& b, const Index& a_axes,
                                                        const Index& b_axes) {
  return tensordot(par, a, b, a_axes, b_axes);
}
/// NumPy's `np.tensordot(a, b, axes=n)`: the sum over the last @p n axes of a paired with the
/// first @p n of b (n = 2, NumPy's default: a double contraction; 0: the outer product).
/// @param policy seq or par
/// @param a, b tensors, views or expressions
/// @param n the number of summed axes
/// @return the product
/// @throws ShapeError when n is negative or above either rank, or paired axes differ in extent
template <ExecutionPolicy P, class A, class B>
requires(detail::dense_operands_v<A, B>) auto tensordot(const P& policy, const A& a, const B& b,
                                                        index_t n = 2) {
  const auto ra = static_cast<index_t>(detail::operand_shape(a).size());
  const auto rb = static_cast<index_t>(detail::operand_shape(b).size());
  if (n < 0 || n > ra || n > rb) {
    detail::fail<ShapeError>("tensordot", "n = ", n,
                             " summed axes: it must be between 0 and both ranks (", ra, " and ", rb,
                             ")");
  }
  Index a_axes;
  Index b_axes;
  for (index_t k = 0; k < n; ++k) {
    a_axes.push_back(ra - n + k);
    b_axes.push_back(k);
  }
  return tensordot(policy, a, b, a_axes, b_axes);
}
/// NumPy's `np.tensordot(a, b, axes=n)`, in parallel (see the policy form).
/// @param a, b tensors, views or expressions
/// @param n the number of summed axes
/// @return the product
/// @throws ShapeError when n is negative or above either rank, or paired axes differ in extent
template <class A, class B>
requires(detail::dense_operands_v<A, B>) auto tensordot(const A& a, const B& b, index_t n = 2) {
  return tensordot(par, a, b, n);
}

}  // namespace strata
