// strata.Expr: the module's lazy expressions. `u + 0.1 * v` builds a tree of nodes; nothing is
// computed until it is evaluated (into a new tensor, or into a view by `out[...] = expr`). The
// evaluation runs the whole tree in one pass over the result, a block of up to 1024 elements of
// a row at a time, so the temporaries of the operators stay in the cache: NumPy's semantics
// (broadcasting, type promotion, each operation rounded as NumPy rounds it), not its temporaries.
#pragma once

#include "module.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace strata_python {

/// The element types of the module, in the order of AnyTensor.
enum class DType : std::uint8_t { float64, float32, int64, int32, boolean, complex128, complex64 };

/// NumPy's name of an element type.
const char* dtype_name(DType t);

/// The element type of a tensor.
DType dtype_of(const PyTensor& t);

/// The element type named @p name ("float64", "float32", "int64", "int32", "bool", "complex128",
/// "complex64").
/// @throws TypeError (pybind11's type_error) for another name
DType parse_dtype(const std::string& name, const char* operation);

/// What a node computes.
enum class Op : std::uint8_t {
  tensor,
  number,  // leaves
  cast,
  neg,
  abs,
  conj,
  sqrt,
  exp,
  log,
  sin,
  cos,
  tanh,  // one operand
  add,
  sub,
  mul,
  div,
  pow,  // arithmetic
  lt,
  le,
  gt,
  ge,
  eq,
  ne,    // comparisons (bool results)
  where  // where(condition, a, b)
};

struct Node;
/// A node of an expression tree (shared: subexpressions are reused, never changed).
using NodePtr = std::shared_ptr<const Node>;

/// A node: a tensor, a Python number, or an operation on nodes.
struct Node {
  Op op = Op::number;
  DType dtype = DType::float64;    ///< the element type of the result
  Index shape;                     ///< the shape of the result (broadcast)
  std::vector<NodePtr> args;       ///< the operands, already cast to the type the node computes in
  std::optional<PyTensor> tensor;  ///< Op::tensor: the tensor, read at evaluation
  double real = 0;                 ///< Op::number: the value (its real part)
  double imag = 0;                 ///< Op::number: the imaginary part (a Python complex)
  std::int64_t integer = 0;        ///< Op::number: the value, as an integer
};

/// strata.Expr: a lazy expression.
struct PyExpr {
  NodePtr node;
};

/// A leaf reading @p t.
NodePtr leaf(PyTensor t);
/// A Python number (a "weak" scalar, as NumPy 1.24 treats them: it takes the tensor's type).
NodePtr number(const py::handle& value);
/// An operation of one operand (neg, abs, conj, sqrt, exp, log, sin, cos, tanh); @p name for errors.
NodePtr unary(Op op, const NodePtr& a, const char* name);
/// An operation of two operands (arithmetic, pow, comparisons); @p name for errors.
NodePtr binary(Op op, const NodePtr& a, const NodePtr& b, const char* name);
/// where(condition, a, b).
NodePtr where(const NodePtr& condition, const NodePtr& a, const NodePtr& b);
/// @p a converted to @p type (astype).
NodePtr cast(const NodePtr& a, DType type);

/// A new row-major tensor of zeros.
PyTensor zeros(const Index& shape, DType type);

/// The value of @p e in a new row-major tensor.
PyTensor evaluate(const NodePtr& e);
/// `out[...] = e`: @p e broadcast to out's shape and converted to its type (NumPy's unsafe
/// casting, as its __setitem__), evaluated through a temporary when @p e reads memory that out
/// writes other than element for element.
void evaluate_into(const NodePtr& e, const PyTensor& out);

}  // namespace strata_python
