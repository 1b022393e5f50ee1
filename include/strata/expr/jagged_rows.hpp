/// @file
/// Per-row reductions inside jagged expressions: `rows::max(jt)` is the maximum of each row,
/// computed while the expression walks that row and read as one value along it, so that
///
/// @code
/// strata::JaggedTensor<float> y = strata::exp(jt - strata::rows::max(jt));
/// y /= strata::rows::sum(y);
/// @endcode
///
/// is a softmax in two statements, each one parallel region and one walk over the rows, every
/// row reduced and then written while it is in cache (the hand loop's order). `max(jt, 1)`
/// gives the same values as a dense tensor, computed before the expression in a pass of its
/// own; both run the same per-row kernels, so both give the same bits.
#pragma once

#include "strata/expr/expression.hpp"
#include "strata/expr/jagged.hpp"

#include <cmath>
#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>

namespace strata {

/// A reduction of each row of a jagged expression (or JaggedTensor) as a node of a jagged
/// expression: while evaluation walks row r, the node reduces the child's row r with the
/// per-row kernel and reads as that one value along the row, as a dense operand of one value
/// per row does. Made by the functions of strata::rows; it evaluates only into a JaggedTensor,
/// like every jagged expression. A child that is a JaggedTensor is reduced where it lies; a
/// child that is an expression is first written, one row at a time, into a buffer of the
/// thread (so its row is computed once per reduction, and the kernel sees contiguous values).
/// @tparam R the result element type
/// @tparam Kernel the per-row kernel, `kernel(const V* x, index_t n) -> R`
/// @tparam C the child node type (a jagged expression)
template <class R, class Kernel, class C>
class RowReductionExpr : public detail::ExpressionTag {
  static_assert(detail::jagged_v<C>, "strata::rows reduces the rows of a jagged expression");

 public:
  /// The element type of the result.
  using value_type = R;
  /// The child's leaves.
  static constexpr std::size_t leaf_count = detail::leaves_v<C>;
  /// The tree evaluates into a JaggedTensor.
  static constexpr bool jagged = true;
  /// It reduces rows: a tree holding it is walked row by row.
  static constexpr bool per_row = true;

  /// A node reducing each row of @p child.
  /// @param name the operation's name (explain())
  /// @param kernel the per-row kernel
  /// @param child the jagged expression whose rows are reduced
  RowReductionExpr(std::string name, Kernel kernel, C child)
      : name_(std::move(name)), kernel_(std::move(kernel)), child_(std::move(child)) {}

  /// Rank 0 for NumPy's broadcasting of the dense operands, as a jagged leaf.
  /// @return the empty shape
  [[nodiscard]] Index shape() const { return {}; }
  /// The operation's name.
  /// @return the name
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  /// Registers the child's leaves.
  /// @param p the preparation
  /// @throws ShapeError when a jagged operand of the child is broadcast into deeper rows (the
  ///         row would be the broadcast one: reduce that operand with sum(x, 1) ... instead)
  void prepare(detail::Prepared& p) const {
    const index_t before = p.broadcast_leaves;
    child_.prepare(p);
    if (p.broadcast_leaves != before) {
      detail::fail<ShapeError>(name_, "its operand has rows of fewer modes than the expression's ",
                               p.jagged_shape.to_string(),
                               " and would be reduced as broadcast into them; reduce it apart "
                               "(a dense tensor of one value per row broadcasts along the rows)");
    }
  }
  /// Calls `f(tensor)` for every dense tensor leaf of the child.
  /// @param f the visitor
  template <class F>
  void for_each_tensor(F&& f) const {
    child_.for_each_tensor(f);
  }
  /// Never part of a sparse evaluation.
  /// @tparam I the node's first leaf
  /// @return an empty support
  template <std::size_t I>
  [[nodiscard]] detail::Support<R> support() const {
    return {};
  }
  /// Reduces the row the run stands on (its length is `run.length`) and reads as the result.
  /// @param run the run (one row)
  /// @return the reader, the same value at every offset
  template <std::size_t I, int Unit, std::size_t N>
  [[nodiscard]] auto bind(const detail::RunState<N>& run) const {
    using V = typename C::value_type;
    const index_t n = run.length;
    R value{};
    if constexpr (std::is_same_v<C, JaggedExpr<V>>) {
      value = kernel_(static_cast<const V*>(run.data[I]) + run.start[I], n);
    } else {
      // The row of the child, once, into this thread's buffer (grown, never shrunk).
      thread_local std::unique_ptr<V[]> buffer;
      thread_local index_t capacity = 0;
      if (n > capacity) {
        buffer = std::make_unique_for_overwrite<V[]>(static_cast<std::size_t>(n));
        capacity = n;
      }
      const auto row = child_.template bind<I, Unit>(run);
      V* const x = buffer.get();
      for (index_t t = 0; t < n; ++t) {
        x[t] = static_cast<V>(row(t));
      }
      value = kernel_(static_cast<const V*>(x), n);
    }
    return [value](index_t /*t*/) { return value; };
  }
  /// Prints the node and its child, indented.
  /// @param out the stream
  /// @param depth the indentation
  void explain(std::ostream& out, int depth) const {
    out << detail::pad_by(depth) << name_ << " per row\n";
    child_.explain(out, depth + 1);
  }

 private:
  std::string name_;
  Kernel kernel_;
  C child_;
};

namespace detail {

/// What strata::rows reduces: a JaggedTensor or a jagged expression.
template <class J>
concept RowsOperand = is_jagged_tensor<std::remove_cvref_t<J>>::value ||
    (Expression<J>&& jagged_v<J>);

/// The node reducing each row of @p j with @p kernel into R.
template <class R, class Kernel, class J>
auto rows_node(std::string name, Kernel kernel, const J& j) {
  return RowReductionExpr<R, Kernel, node_t<J>>(std::move(name), std::move(kernel),
                                                as_expression(j));
}

/// The element type of a jagged operand.
template <class J>
using rows_value_t = typename node_t<J>::value_type;

}  // namespace detail

/// Reductions of each row inside jagged expressions (see RowReductionExpr): the values of
/// `sum(jt, 1)`, `max(jt, 1)`, ... read along each row of the expression they appear in,
/// computed while evaluation walks that row, in the same parallel region. Each reduces a whole
/// row (all its ragged modes), with the identities of the reductions into dense tensors
/// (an empty row is never read, so they never show).
namespace rows {

/// Each row's sum, read along the row (`jt - rows::sum(jt)`).
/// @param j a JaggedTensor or a jagged expression
/// @return the lazy node
template <detail::RowsOperand J>
auto sum(const J& j) {
  using V = detail::rows_value_t<J>;
  return detail::rows_node<V>("rows::sum", detail::RowSum{}, j);
}
/// Each row's product, read along the row.
/// @param j a JaggedTensor or a jagged expression
/// @return the lazy node
template <detail::RowsOperand J>
auto prod(const J& j) {
  using V = detail::rows_value_t<J>;
  return detail::rows_node<V>("rows::prod", detail::RowProd{}, j);
}
/// Each row's mean (in double for integers), read along the row (`jt - rows::mean(jt)`).
/// @param j a JaggedTensor or a jagged expression
/// @return the lazy node
template <detail::RowsOperand J>
auto mean(const J& j) {
  using R = detail::jagged_mean_t<detail::rows_value_t<J>>;
  return detail::rows_node<R>("rows::mean", detail::RowMean<R>{}, j);
}
/// Each row's minimum (NaN when the row holds one), read along the row.
/// @param j a JaggedTensor or a jagged expression
/// @return the lazy node
template <detail::RowsOperand J>
auto min(const J& j) {
  using V = detail::rows_value_t<J>;
  return detail::rows_node<V>("rows::min", detail::RowExtreme<false>{}, j);
}
/// Each row's maximum (NaN when the row holds one), read along the row: `exp(jt -
/// rows::max(jt))`, the stable softmax's first step.
/// @param j a JaggedTensor or a jagged expression
/// @return the lazy node
template <detail::RowsOperand J>
auto max(const J& j) {
  using V = detail::rows_value_t<J>;
  return detail::rows_node<V>("rows::max", detail::RowExtreme<true>{}, j);
}
/// Each row's range (maximum less minimum), read along the row.
/// @param j a JaggedTensor or a jagged expression
/// @return the lazy node
template <detail::RowsOperand J>
auto ptp(const J& j) {
  using V = detail::rows_value_t<J>;
  return detail::rows_node<V>("rows::ptp", detail::RowPtp{}, j);
}
/// Each row's variance (two passes, in double for integers; divides by the length less
/// @p ddof), read along the row.
/// @param j a JaggedTensor or a jagged expression
/// @param ddof the degrees of freedom
/// @return the lazy node
template <detail::RowsOperand J>
auto var(const J& j, Ddof ddof = {}) {
  using R = detail::jagged_mean_t<detail::rows_value_t<J>>;
  return detail::rows_node<R>("rows::var", detail::RowVariance<R>{ddof.value}, j);
}
/// Each row's standard deviation, read along the row (`(jt - rows::mean(jt)) / rows::std(jt)`
/// standardises every row).
/// @param j a JaggedTensor or a jagged expression
/// @param ddof the degrees of freedom
/// @return the lazy node
template <detail::RowsOperand J>
auto std(const J& j, Ddof ddof = {}) {
  using R = detail::jagged_mean_t<detail::rows_value_t<J>>;
  return detail::rows_node<R>("rows::std", detail::RowVariance<R, true>{ddof.value}, j);
}
/// Each row's number of elements (int64), read along the row.
/// @param j a JaggedTensor or a jagged expression
/// @return the lazy node
template <detail::RowsOperand J>
auto count(const J& j) {
  return detail::rows_node<index_t>("rows::count", detail::RowCount{}, j);
}

}  // namespace rows

}  // namespace strata
