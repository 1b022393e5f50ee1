// The lazy expressions of the Python module: building the tree with NumPy's type rules, and one
// evaluation pass that interprets the tree over blocks of a row (see lazy.hpp).
#include "lazy.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace strata_python {

namespace {

template <class T>
struct Tag {
  using type = T;
};

/// Calls @p f with Tag<T> for the C++ type of @p t.
template <class F>
decltype(auto) with_type(DType t, F&& f) {
  switch (t) {
    case DType::float64:
      return f(Tag<double>{});
    case DType::float32:
      return f(Tag<float>{});
    case DType::int64:
      return f(Tag<std::int64_t>{});
    case DType::int32:
      return f(Tag<std::int32_t>{});
    case DType::complex128:
      return f(Tag<std::complex<double>>{});
    case DType::complex64:
      return f(Tag<std::complex<float>>{});
    case DType::boolean:
      break;
  }
  return f(Tag<bool>{});
}

template <class T>
constexpr DType dtype_v = std::is_same_v<T, double>                 ? DType::float64
                          : std::is_same_v<T, float>                ? DType::float32
                          : std::is_same_v<T, std::int64_t>         ? DType::int64
                          : std::is_same_v<T, std::int32_t>         ? DType::int32
                          : std::is_same_v<T, std::complex<double>> ? DType::complex128
                          : std::is_same_v<T, std::complex<float>>  ? DType::complex64
                                                                    : DType::boolean;

bool is_float(DType t) {
  return t == DType::float64 || t == DType::float32;
}
bool is_complex(DType t) {
  return t == DType::complex128 || t == DType::complex64;
}
/// The real type of the same precision (complex128: float64).
DType real_of(DType t) {
  return t == DType::complex128 ? DType::float64 : t == DType::complex64 ? DType::float32 : t;
}
bool is_int(DType t) {
  return t == DType::int64 || t == DType::int32;
}

std::string shape_text(const Index& s) {
  std::string out = "(";
  for (std::size_t k = 0; k < s.size(); ++k) {
    out += (k > 0 ? ", " : "") + std::to_string(s[k]);
  }
  return out + (s.size() == 1 ? ",)" : ")");
}

/// NumPy's result type of two operands; a Python number is weak (NumPy 1.24's value-based
/// rule: it takes the tensor's type unless its value does not fit).
DType promote(const Node& a, const Node& b) {
  const bool weak_a = a.op == Op::number;
  const bool weak_b = b.op == Op::number;
  if (is_complex(a.dtype) || is_complex(b.dtype)) {
    // NumPy 1.24: complex64 with complex64, float32, bool or a Python number stays complex64
    // (float32 with a Python complex too); any wider operand makes complex128.
    bool c64 = false;
    for (const auto* n : {&a, &b}) {
      if (n->op == Op::number)
        continue;
      if (n->dtype == DType::complex64 || n->dtype == DType::float32) {
        c64 = true;
      } else if (n->dtype != DType::boolean) {
        return DType::complex128;
      }
    }
    return c64 ? DType::complex64 : DType::complex128;
  }
  if (weak_a && weak_b) {
    if (is_float(a.dtype) || is_float(b.dtype))
      return DType::float64;
    if (is_int(a.dtype) || is_int(b.dtype))
      return DType::int64;
    return DType::boolean;
  }
  if (weak_a || weak_b) {
    const Node& w = weak_a ? a : b;
    const DType s = weak_a ? b.dtype : a.dtype;
    if (w.dtype == DType::boolean)
      return s;
    if (is_int(w.dtype)) {
      if (s == DType::boolean)
        return DType::int64;
      if (s == DType::float32 && (w.integer < -32768 || w.integer > 65535)) {
        return DType::float64;  // NumPy 1.24: float32 holds the number's smallest type exactly
      }
      if (s == DType::int32 && (w.integer < std::numeric_limits<std::int32_t>::min() ||
                                w.integer > std::numeric_limits<std::int32_t>::max())) {
        return DType::int64;
      }
      return s;
    }
    if (s == DType::float32 && std::isfinite(w.real) &&
        std::abs(w.real) > double(std::numeric_limits<float>::max())) {
      return DType::float64;
    }
    return is_float(s) ? s : DType::float64;
  }
  const DType x = a.dtype;
  const DType y = b.dtype;
  if (x == y)
    return x;
  if (x == DType::boolean)
    return y;
  if (y == DType::boolean)
    return x;
  if (is_int(x) && is_int(y))
    return DType::int64;
  return DType::float64;  // two floats of different sizes, or an integer and a float
}

Index broadcast(const Node& a, const Node& b, const char* name) {
  return strata::broadcast_shapes(a.shape, b.shape, name);
}

NodePtr make(Op op, DType type, Index shape, std::vector<NodePtr> args) {
  auto n = std::make_shared<Node>();
  n->op = op;
  n->dtype = type;
  n->shape = std::move(shape);
  n->args = std::move(args);
  return n;
}

}  // namespace

const char* dtype_name(DType t) {
  return with_type(
      t, [](auto tag) { return strata_python::dtype_name<typename decltype(tag)::type>(); });
}

DType dtype_of(const PyTensor& t) {
  return static_cast<DType>(t.tensor.index());
}

DType parse_dtype(const std::string& name, const char* operation) {
  if (name == "bool_")
    return DType::boolean;
  for (const DType t : {DType::float64, DType::float32, DType::int64, DType::int32, DType::boolean,
                        DType::complex128, DType::complex64}) {
    if (name == dtype_name(t))
      return t;
  }
  throw py::type_error(
      std::string(operation) + ": dtype '" + name +
      "' is not one of float64, float32, int64, int32, bool, complex128, complex64");
}

NodePtr leaf(PyTensor t) {
  auto n = std::make_shared<Node>();
  n->op = Op::tensor;
  n->dtype = dtype_of(t);
  n->shape = visit(t, [](const auto& x) { return x.shape(); });
  n->tensor.emplace(std::move(t));
  return n;
}

NodePtr number(const py::handle& value) {
  auto n = std::make_shared<Node>();
  n->op = Op::number;
  if (py::isinstance<py::bool_>(value)) {
    n->dtype = DType::boolean;
    n->integer = value.cast<bool>() ? 1 : 0;
    n->real = double(n->integer);
  } else if (py::isinstance<py::int_>(value)) {
    n->dtype = DType::int64;
    n->integer = value.cast<std::int64_t>();
    n->real = double(n->integer);
  } else if (PyComplex_Check(value.ptr()) != 0) {
    n->dtype = DType::complex128;
    n->real = PyComplex_RealAsDouble(value.ptr());
    n->imag = PyComplex_ImagAsDouble(value.ptr());
  } else {
    n->dtype = DType::float64;
    n->real = value.cast<double>();
    n->integer = std::isfinite(n->real) ? static_cast<std::int64_t>(n->real) : 0;
  }
  return n;
}

NodePtr cast(const NodePtr& a, DType type) {
  if (a->dtype == type)
    return a;
  if (a->op == Op::number) {  // a number converts now
    auto n = std::make_shared<Node>(*a);
    n->dtype = type;
    if (type == DType::boolean) {
      n->integer = a->real != 0 ? 1 : 0;
      n->real = double(n->integer);
    } else if (type == DType::int32) {
      n->integer = static_cast<std::int32_t>(static_cast<std::uint32_t>(a->integer));
      n->real = double(n->integer);
    } else if (type == DType::float32 || type == DType::complex64) {
      n->real = double(static_cast<float>(a->real));
      n->imag = type == DType::complex64 ? double(static_cast<float>(a->imag)) : 0.0;
    } else if (type == DType::float64) {
      n->imag = 0;
    }
    return n;
  }
  return make(Op::cast, type, a->shape, {a});
}

NodePtr unary(Op op, const NodePtr& a, const char* name) {
  if (op == Op::abs && is_complex(a->dtype)) {
    return make(op, real_of(a->dtype), a->shape, {a});  // the modulus: a real result
  }
  if (is_complex(a->dtype)) {
    return make(op, a->dtype, a->shape, {a});  // complex sqrt, exp, log, sin, cos, tanh, neg, conj
  }
  if (op == Op::neg || op == Op::abs || op == Op::conj) {  // conj of a real number: itself
    if (op == Op::neg && a->dtype == DType::boolean) {
      throw py::type_error(std::string(name) +
                           ": negative of a bool tensor is not offered (NumPy: "
                           "use ~ or logical_not)");
    }
    return make(op, a->dtype, a->shape, {a});
  }
  const DType t = a->dtype == DType::float32 ? DType::float32 : DType::float64;
  return make(op, t, a->shape, {cast(a, t)});
}

NodePtr binary(Op op, const NodePtr& a, const NodePtr& b, const char* name) {
  Index shape = broadcast(*a, *b, name);
  DType t = promote(*a, *b);
  if (is_complex(t) && op >= Op::lt && op <= Op::ge) {
    throw py::type_error(std::string(name) +
                         ": complex numbers have no order (== and != compare them)");
  }
  if (op >= Op::lt) {  // a comparison: computed in the common type, a bool result
    return make(op, DType::boolean, std::move(shape), {cast(a, t), cast(b, t)});
  }
  if (op == Op::div && !is_float(t) && !is_complex(t)) {
    t = DType::float64;  // true division of integers and bools, as NumPy's /
  }
  if (t == DType::boolean && (op == Op::sub || op == Op::pow)) {
    // NumPy: + is logical or and * logical and on bools; - is refused, ** gives int8
    throw py::type_error(std::string(name) + ": " + (op == Op::sub ? "subtracting" : "powers of") +
                         " bool operands is not offered (NumPy: use ^ or logical_xor; or convert "
                         "them first with astype)");
  }
  if (op == Op::pow && b->op == Op::number && b->imag == 0 && (is_float(t) || is_complex(t))) {
    // NumPy's fast powers (so the same bits): squares, square roots, reciprocals
    if (b->real == 2)
      return binary(Op::mul, a, a, name);
    if (b->real == 0.5)
      return unary(Op::sqrt, cast(a, t), name);
    if (b->real == -1)
      return binary(Op::div, number(py::float_(1.0)), cast(a, t), name);
  }
  if (op == Op::pow && is_int(t)) {
    if (b->op != Op::number) {
      throw py::type_error(std::string(name) +
                           ": an integer power with a tensor exponent is not "
                           "offered: give a number, or convert to float (astype)");
    }
    if (b->integer < 0) {
      throw py::value_error(std::string(name) +
                            ": integers to negative integer powers are not "
                            "allowed (exponent " +
                            std::to_string(b->integer) + ")");
    }
  }
  return make(op, t, std::move(shape), {cast(a, t), cast(b, t)});
}

NodePtr where(const NodePtr& condition, const NodePtr& a, const NodePtr& b) {
  Index shape = broadcast(*condition, *a, "strata.where");
  shape = strata::broadcast_shapes(shape, b->shape, "strata.where");
  const DType t = promote(*a, *b);
  return make(Op::where, t, std::move(shape),
              {cast(condition, DType::boolean), cast(a, t), cast(b, t)});
}

// ---- evaluation ------------------------------------------------------------------------------

namespace {

/// Elements of a row evaluated together: the temporaries of one block stay in L1, and the reads
/// of the first steps and the writes of the last one stay close enough to overlap in the memory
/// system (on the heat stencil 1024 measured 10-20% slower, 128 slower from the cost per block).
constexpr index_t kBlock = 256;

/// One step of the program a tree becomes: its result is slot `this - first`.
struct Instr {
  Op op = Op::number;
  DType type = DType::float64;  ///< the type of the result
  int a = -1, b = -1, c = -1;   ///< operand slots
  bool uniform = false;         ///< one value per block (a number, an axis broadcast along rows)
  // Op::tensor
  const unsigned char* base = nullptr;  ///< element [0, ...] of the (broadcast) leaf
  Index strides;                        ///< in elements, over the merged axes
  // Op::number: the value in `type`
  alignas(16) unsigned char value[16] = {};
  // Fusion of float arithmetic (Program::fuse): this operation reads the operands of an operand
  // that it absorbed (that operand's only reader) and computes both in one loop, in registers.
  bool absorbed = false;               ///< computed inside its reader: skipped
  bool expand = false;                 ///< a uniform slot read by a fused step: written out in full
  Op left = Op::number;                ///< the absorbed left operand's operation (number: none)
  Op right = Op::number;               ///< the absorbed right operand's operation (number: none)
  int operands[4] = {-1, -1, -1, -1};  ///< left (1 or 2 slots), then right (1 or 2 slots)
};

/// A program ready to run: its steps, the merged axes of the result and the destination.
struct Plan {
  std::vector<Instr> code;  ///< the steps, operands first; the last one is the result
  Index shape;              ///< the result's axes after merging
  DType out_type = DType::float64;
  unsigned char* out_base = nullptr;  ///< the destination's element [0, ...]
  Index out_strides;                  ///< in elements, over the merged axes
};

namespace baseline {
#include "lazy_kernels.inc"
}  // namespace baseline

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define STRATA_PYTHON_AVX2 1
// The same kernels compiled for AVX2 (twice the lanes of the x86-64 baseline's SSE2), used
// when the processor has it. Only functions defined here get the target, so no inline function
// of the standard library is compiled for AVX2 and shared with the baseline code. No FMA: each
// operation rounds as NumPy's does.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
namespace avx2 {
#include "lazy_kernels.inc"
}  // namespace avx2
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif

/// The kernels for this processor.
using RunItems = void (*)(const Plan&, index_t, index_t);
RunItems kernels_for_this_processor() {
#if defined(STRATA_PYTHON_AVX2)
  if (__builtin_cpu_supports("avx2"))
    return &avx2::run_items;
#endif
  return &baseline::run_items;
}

/// The address range [lo, hi] in bytes of a strided view of @p shape.
std::pair<std::uintptr_t, std::uintptr_t> byte_range(const void* base, const Index& shape,
                                                     const Index& strides, std::size_t size) {
  auto lo = reinterpret_cast<std::uintptr_t>(base);
  auto hi = lo;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const auto reach =
        static_cast<std::intptr_t>(strides[k] * (shape[k] - 1)) * static_cast<std::intptr_t>(size);
    if (reach < 0)
      lo = lo - static_cast<std::uintptr_t>(-reach);
    else
      hi = hi + static_cast<std::uintptr_t>(reach);
  }
  return {lo, hi + size - 1};
}

/// The tree of an expression as a program over the merged axes of the result, run block by
/// block; every view of a leaf is read in place.
class Program {
 public:
  Program(const NodePtr& root, const Index& shape) : shape_(shape) { emit(root); }

  /// Sets the destination (a strided view of @p shape) and merges the axes every operand
  /// steps through alike. @return false when the destination overlaps a leaf other than
  /// element for element (then the caller evaluates through a temporary)
  template <class U>
  bool target(Tensor<U>& out) {
    plan_.out_type = dtype_v<U>;
    plan_.out_base = reinterpret_cast<unsigned char*>(out.data());
    plan_.out_strides = out.strides();
    const auto range = byte_range(plan_.out_base, shape_, plan_.out_strides, sizeof(U));
    for (const Instr& in : plan_.code) {
      if (in.op != Op::tensor)
        continue;
      const std::size_t size =
          with_type(in.type, [](auto tag) { return sizeof(typename decltype(tag)::type); });
      const auto r = byte_range(in.base, shape_, in.strides, size);
      const bool same =
          in.base == plan_.out_base && in.strides == plan_.out_strides && size == sizeof(U);
      if (!same && r.first <= range.second && range.first <= r.second)
        return false;
    }
    merge_axes();
    fuse();
    return true;
  }

  /// Runs the program: every element of the destination written once.
  void run() {
    const auto rank = plan_.shape.size();
    const index_t inner = rank == 0 ? 1 : plan_.shape[rank - 1];
    index_t rows = 1;
    for (std::size_t k = 0; k + 1 < rank; ++k)
      rows *= plan_.shape[k];
    if (rows == 0 || inner == 0)
      return;
    const index_t blocks = (inner + kBlock - 1) / kBlock;
    const index_t items = rows * blocks;
    // Split among threads when there is work enough (2^16 elements), in whole blocks.
    const strata::Parallel policy{
        std::max<index_t>((index_t{1} << 16) / std::min(inner, kBlock), 1), 0};
    static const RunItems run_items = kernels_for_this_processor();
    strata::parallel::for_each_part(
        policy, items, [&](index_t first, index_t last) { run_items(plan_, first, last); });
  }

 private:
  int emit(const NodePtr& node) {
    if (const auto found = slots_.find(node.get()); found != slots_.end())
      return found->second;
    Instr in;
    in.op = node->op;
    in.type = node->dtype;
    if (node->op == Op::tensor) {
      visit(*node->tensor, [&](const auto& x) {
        using T = typename std::decay_t<decltype(x)>::value_type;
        const auto view = [&]() -> Tensor<const T> {
          Tensor<const T> v =
              x.shape() == shape_ ? Tensor<const T>(x) : Tensor<const T>(x).broadcast(shape_);
          if (v.data() == nullptr && v.size() > 0) {
            return Tensor<const T>(
                v.copy());  // a roll, a tile, an index array: read once, in order
          }
          return v;
        };
        const Tensor<const T> v = view();
        in.base = reinterpret_cast<const unsigned char*>(v.data());
        in.strides = v.strides();
        keep_.push_back(std::make_shared<const Tensor<const T>>(v));
      });
    } else if (node->op == Op::number) {
      with_type(node->dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T v{};
        if constexpr (is_complex_v<T>) {
          using R = typename T::value_type;
          v = T(static_cast<R>(node->real), static_cast<R>(node->imag));
        } else if constexpr (std::is_floating_point_v<T>) {
          v = static_cast<T>(node->real);
        } else {
          v = static_cast<T>(node->integer);
        }
        std::memcpy(in.value, &v, sizeof(T));
      });
      in.uniform = true;
    } else {
      int* operand[] = {&in.a, &in.b, &in.c};
      bool uniform = true;
      for (std::size_t k = 0; k < node->args.size(); ++k) {
        *operand[k] = emit(node->args[k]);
        uniform = uniform && plan_.code[static_cast<std::size_t>(*operand[k])].uniform;
      }
      in.uniform = uniform;
    }
    plan_.code.push_back(std::move(in));
    const int slot = static_cast<int>(plan_.code.size()) - 1;
    slots_.emplace(node.get(), slot);
    return slot;
  }

  /// Float arithmetic (+ - * /) absorbs an operand that is float arithmetic read by it alone:
  /// `g(f(x, y), h(z, w))` runs as one loop, its temporaries in registers, so a tree of n such
  /// operations stores about n / 3 blocks instead of n. Each operation still rounds on its own,
  /// in NumPy's order (no contraction into FMA): the same bits.
  void fuse() {
    auto& code = plan_.code;
    std::vector<int> readers(code.size(), 0);
    for (const Instr& in : code) {
      for (const int s : {in.a, in.b, in.c}) {
        if (s >= 0)
          ++readers[static_cast<std::size_t>(s)];
      }
    }
    const auto arithmetic = [](const Instr& in) {
      return (in.op == Op::add || in.op == Op::sub || in.op == Op::mul || in.op == Op::div) &&
             (in.type == DType::float64 || in.type == DType::float32) && !in.uniform;
    };
    for (std::size_t i = 0; i < code.size(); ++i) {
      Instr& in = code[i];
      if (!arithmetic(in))
        continue;
      const auto absorbable = [&](int s) {
        const Instr& x = code[static_cast<std::size_t>(s)];
        return arithmetic(x) && !x.absorbed && x.left == Op::number && x.right == Op::number &&
               readers[static_cast<std::size_t>(s)] == 1;
      };
      const bool left = absorbable(in.a);
      const bool right = absorbable(in.b) && in.b != in.a;
      if (!left && !right)
        continue;
      int k = 0;
      for (const auto& [side, absorb, op] :
           {std::tuple{in.a, left, &in.left}, std::tuple{in.b, right, &in.right}}) {
        Instr& x = code[static_cast<std::size_t>(side)];
        if (absorb) {
          x.absorbed = true;
          *op = x.op;
          in.operands[k++] = x.a;
          in.operands[k++] = x.b;
        } else {
          in.operands[k++] = side;
        }
      }
      for (const int s : in.operands) {
        if (s >= 0 && code[static_cast<std::size_t>(s)].uniform)
          code[static_cast<std::size_t>(s)].expand = true;
      }
    }
  }

  /// Drops axes of extent 1 and merges neighbours that every operand steps through as one.
  void merge_axes() {
    std::vector<Index*> all{&plan_.out_strides};
    for (Instr& in : plan_.code) {
      if (in.op == Op::tensor)
        all.push_back(&in.strides);
    }
    Index shape;
    std::vector<Index> strides(all.size());
    for (std::size_t k = 0; k < shape_.size(); ++k) {
      if (shape_[k] == 1)
        continue;
      bool merge = !shape.empty();
      for (std::size_t j = 0; merge && j < all.size(); ++j) {
        merge = strides[j].back() == (*all[j])[k] * shape_[k];
      }
      if (merge) {
        shape.back() *= shape_[k];
        for (std::size_t j = 0; j < all.size(); ++j)
          strides[j].back() = (*all[j])[k];
      } else {
        shape.push_back(shape_[k]);
        for (std::size_t j = 0; j < all.size(); ++j)
          strides[j].push_back((*all[j])[k]);
      }
    }
    plan_.shape = shape;
    for (std::size_t j = 0; j < all.size(); ++j)
      *all[j] = strides[j];
    const index_t last = plan_.shape.empty() ? 0 : static_cast<index_t>(plan_.shape.size()) - 1;
    for (Instr& in : plan_.code) {
      if (in.op == Op::tensor && !plan_.shape.empty() &&
          in.strides[static_cast<std::size_t>(last)] == 0) {
        in.uniform = true;  // broadcast along the rows: one value per block
      }
    }
    // Operations on uniform operands are uniform (the slots were emitted operands first).
    for (Instr& in : plan_.code) {
      if (in.op == Op::tensor || in.op == Op::number)
        continue;
      bool uniform = true;
      for (const int s : {in.a, in.b, in.c}) {
        uniform = uniform && (s < 0 || plan_.code[static_cast<std::size_t>(s)].uniform);
      }
      in.uniform = uniform;
    }
  }

  Index shape_;  // the result's shape (merged into plan_.shape by target())
  Plan plan_;
  std::unordered_map<const Node*, int> slots_;
  std::vector<std::shared_ptr<const void>> keep_;  // the leaves' views (and copies)
};

}  // namespace

PyTensor zeros(const Index& shape, DType type) {
  return with_type(type,
                   [&](auto tag) { return wrap(Tensor<typename decltype(tag)::type>(shape)); });
}

PyTensor evaluate(const NodePtr& e) {
  return with_type(e->dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    PyTensor result = wrap(Tensor<T>::for_overwrite(e->shape));
    evaluate_into(e, result);
    return result;
  });
}

void evaluate_into(const NodePtr& e, const PyTensor& out) {
  visit(out, [&](const auto& destination) {
    using U = typename std::decay_t<decltype(destination)>::value_type;
    Tensor<U> x = destination;  // a handle to the same view
    const Index shape = x.shape();
    // NumPy: the value broadcasts to the destination's shape, never the other way.
    if (strata::broadcast_shapes(e->shape, shape, "__setitem__") != shape) {
      throw py::value_error("__setitem__: could not broadcast input array from shape " +
                            shape_text(e->shape) + " into shape " + shape_text(shape));
    }
    if (x.size() == 0)
      return;
    if (x.data() == nullptr || !x.is_writable()) {
      // Not one strided array (a roll, an index array) or elements sharing addresses: strata's
      // own assignment writes it (or says why it cannot).
      Tensor<U> values = Tensor<U>::for_overwrite(shape);
      evaluate_into(e, wrap(values));
      x.assign(values);
      return;
    }
    Program program(e, shape);
    if (!program.target(x)) {  // reads what it writes, shifted: NumPy evaluates the value first
      evaluate_into(leaf(evaluate(e)), out);
      return;
    }
    py::gil_scoped_release unlocked;  // the program holds its own handles to every buffer
    program.run();
  });
}

}  // namespace strata_python
