// The Python module `strata` (pybind11): strata's tensors seen from Python, sharing memory with
// NumPy and any DLPack producer or consumer. A consumer of the public C++ API only.
#include "jagged.hpp"
#include "lazy.hpp"
#include "shapes.hpp"
#include "module.hpp"

#include <strata/interop/dlpack.hpp>
#include <strata/strata.hpp>

#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <complex>
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace py = pybind11;
using namespace strata_python;  // NOLINT(google-build-using-namespace): the module's own sources

namespace {

// ---- memory imported from Python objects through the buffer protocol --------------------------

/// Keeps a Python object (the owner of imported memory) alive; released with the GIL held,
/// whichever thread drops the last strata view.
struct PythonOwner {
  py::object object;
  explicit PythonOwner(py::object o) : object(std::move(o)) {}
  PythonOwner(const PythonOwner&) = delete;
  PythonOwner& operator=(const PythonOwner&) = delete;
  ~PythonOwner() {
    py::gil_scoped_acquire gil;
    object = py::object();
  }
};

template <class T>
PyTensor from_buffer_info(const py::buffer_info& info, py::object owner) {
  const auto rank = static_cast<std::size_t>(info.ndim);
  Index shape(rank);
  Index strides(rank);
  for (std::size_t k = 0; k < rank; ++k) {
    shape[k] = info.shape[k];
    if (info.strides[k] % static_cast<py::ssize_t>(sizeof(T)) != 0) {
      throw py::value_error("strata.asarray: strides " + py::str(py::cast(info.strides)).cast<std::string>() +
                            " are not multiples of the element size: copy the array first");
    }
    strides[k] = info.strides[k] / static_cast<py::ssize_t>(sizeof(T));
  }
  // A read-only array gives a tensor the module never writes (PyTensor::read_only).
  return wrap(strata::from_memory<T>(static_cast<T*>(info.ptr), shape, strides,
                                     std::make_shared<PythonOwner>(std::move(owner))),
              info.readonly);
}

}  // namespace

PyTensor strata_python::asarray(const py::object& obj) {
  if (py::isinstance<PyTensor>(obj)) {
    return obj.cast<PyTensor>();
  }
  const py::buffer buffer = py::reinterpret_borrow<py::buffer>(obj);
  const py::buffer_info info = buffer.request(false);
  const std::string& f = info.format;
  const char code = f.empty() ? '?' : f.back();
  if (code == 'd' && info.itemsize == 8) return from_buffer_info<double>(info, obj);
  if (code == 'f' && info.itemsize == 4) return from_buffer_info<float>(info, obj);
  if ((code == 'l' || code == 'q') && info.itemsize == 8) return from_buffer_info<std::int64_t>(info, obj);
  if (code == 'i' && info.itemsize == 4) return from_buffer_info<std::int32_t>(info, obj);
  if (code == '?' && info.itemsize == 1) return from_buffer_info<bool>(info, obj);
  if (f.size() >= 2 && f[f.size() - 2] == 'Z' && code == 'd' && info.itemsize == 16) {
    return from_buffer_info<std::complex<double>>(info, obj);
  }
  if (f.size() >= 2 && f[f.size() - 2] == 'Z' && code == 'f' && info.itemsize == 8) {
    return from_buffer_info<std::complex<float>>(info, obj);
  }
  const std::string name = py::hasattr(obj, "dtype") ? py::str(obj.attr("dtype")).cast<std::string>()
                                                    : "'" + f + "' (" + std::to_string(info.itemsize) + " bytes)";
  throw py::type_error("strata.asarray: element type " + name +
                       " is not one of float64, float32, int64, int32, bool, complex128, complex64");
}

namespace {

// ---- DLPack ----------------------------------------------------------------------------------

py::capsule to_capsule(const PyTensor& t) {
  DLManagedTensor* m = std::visit([](const auto& x) { return strata::to_dlpack(x); }, t.tensor);
  return py::capsule(m, "dltensor", [](PyObject* capsule) {
    // Deleted here only when no consumer took it (a consumer renames it "used_dltensor").
    if (PyCapsule_IsValid(capsule, "dltensor") != 0) {
      auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
      managed->deleter(managed);
    }
  });
}

PyTensor from_dlpack(const py::object& obj) {
  py::object capsule = py::hasattr(obj, "__dlpack__") ? obj.attr("__dlpack__")() : obj;
  if (PyCapsule_IsValid(capsule.ptr(), "used_dltensor") != 0) {
    throw py::value_error("strata.from_dlpack: the DLPack capsule was consumed already");
  }
  if (PyCapsule_IsValid(capsule.ptr(), "dltensor") == 0) {
    throw py::type_error("strata.from_dlpack: expected an object with __dlpack__ or a DLPack capsule");
  }
  auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  const DLDataType d = m->dl_tensor.dtype;
  const auto import = [&]() -> PyTensor {
    if (d.code == kDLFloat && d.bits == 64) return wrap(strata::from_dlpack<double>(m));
    if (d.code == kDLFloat && d.bits == 32) return wrap(strata::from_dlpack<float>(m));
    if (d.code == kDLInt && d.bits == 64) return wrap(strata::from_dlpack<std::int64_t>(m));
    if (d.code == kDLInt && d.bits == 32) return wrap(strata::from_dlpack<std::int32_t>(m));
    if (d.code == kDLUInt && d.bits == 8) return wrap(strata::from_dlpack<std::uint8_t>(m).copy());
    if (d.code == kDLComplex && d.bits == 128) return wrap(strata::from_dlpack<std::complex<double>>(m));
    if (d.code == kDLComplex && d.bits == 64) return wrap(strata::from_dlpack<std::complex<float>>(m));
    if (d.code == 6 /* kDLBool, DLPack >= 0.8 */ && d.bits == 8) {
      m->dl_tensor.dtype = {kDLUInt, 8, 1};
      return wrap(strata::from_dlpack<bool>(m));
    }
    throw py::type_error("strata.from_dlpack: element type " + strata::detail::dlpack_type_name(d) +
                         " is not one of float64, float32, int64, int32, bool, complex128, complex64");
  };
  PyTensor out = import();
  PyCapsule_SetName(capsule.ptr(), "used_dltensor");  // strata owns it now
  return out;
}

// ---- indexing --------------------------------------------------------------------------------

std::vector<strata::Selector> selectors(const py::object& key, int rank) {
  std::vector<py::object> parts;
  if (py::isinstance<py::tuple>(key)) {
    for (const auto& k : key.cast<py::tuple>()) {
      parts.push_back(py::reinterpret_borrow<py::object>(k));
    }
  } else {
    parts.push_back(key);
  }
  std::vector<strata::Selector> out;
  int ellipses = 0;
  for (const auto& p : parts) {
    ellipses += p.is(py::ellipsis()) ? 1 : 0;
  }
  if (ellipses > 1) {
    throw py::index_error("an index can only have a single ellipsis ('...')");
  }
  const int explicit_axes = static_cast<int>(parts.size()) - ellipses;
  for (const auto& p : parts) {
    if (p.is(py::ellipsis())) {
      for (int k = explicit_axes; k < rank; ++k) {
        out.emplace_back(strata::all);
      }
    } else if (py::isinstance<py::slice>(p)) {
      const auto s = p.cast<py::slice>();
      const auto get = [&](const char* name) -> std::optional<index_t> {
        const py::object v = s.attr(name);
        return v.is_none() ? std::nullopt : std::optional<index_t>(v.cast<index_t>());
      };
      const auto step = get("step");
      if (step && *step == 0) {
        throw py::value_error("slice step cannot be zero");
      }
      out.emplace_back(strata::Range{get("start"), get("stop"), step.value_or(1)});
    } else if (py::isinstance<py::int_>(p) && !py::isinstance<py::bool_>(p)) {
      out.emplace_back(p.cast<index_t>());
    } else if (py::isinstance<py::list>(p)) {
      out.emplace_back(p.cast<std::vector<index_t>>());
    } else {
      throw py::index_error("only integers, slices (':'), ellipsis ('...') and lists of integers are "
                            "valid indices, not " + py::str(py::type::of(p)).cast<std::string>());
    }
  }
  return out;
}

void require_writable(const PyTensor& t, const char* operation) {
  if (t.read_only) {
    throw py::value_error(std::string(operation) + ": the tensor is read-only (imported from "
                                                   "read-only memory, or a real tensor's imag)");
  }
}

py::object reduce(const PyTensor& t, const py::object& axis, const char* which) {
  return visit(t, [&](const auto& x) -> py::object {
    const std::string w = which;
    using T = typename std::decay_t<decltype(x)>::value_type;
    if constexpr (is_complex_v<T>) {
      // complex numbers have no order; a mean is the sum over the count
      if (w == "min" || w == "max") {
        throw py::type_error(w + ": complex numbers have no order");
      }
      const index_t count = axis.is_none() ? x.size() : x.shape()[static_cast<std::size_t>(
                                                            axis.cast<index_t>() < 0 ? axis.cast<index_t>() + x.rank()
                                                                                     : axis.cast<index_t>())];
      if (axis.is_none()) {
        const T total = strata::sum(x);
        return py::cast(w == "sum" ? total : total / static_cast<typename T::value_type>(count));
      }
      PyTensor total = wrap(strata::sum(x, axis.cast<index_t>()));
      if (w == "sum") return py::cast(total);
      return py::cast(evaluate(binary(Op::div, leaf(total), number(py::float_(double(count))), "mean")));
    } else {
      if (axis.is_none()) {
        if (w == "sum") return py::cast(strata::sum(x));
        if (w == "min") return py::cast(strata::min(x));
        if (w == "max") return py::cast(strata::max(x));
        return py::cast(strata::mean(x));
      }
      const auto a = axis.cast<index_t>();
      if (w == "sum") return py::cast(wrap(strata::sum(x, a)));
      if (w == "min") return py::cast(wrap(strata::min(x, a)));
      if (w == "max") return py::cast(wrap(strata::max(x, a)));
      return py::cast(wrap(strata::mean(x, a)));
    }
  });
}

/// NumPy's print of a tensor: strata's printer (the same format), NumPy's own for complex
/// numbers (`1.+2.j`).
std::string tensor_text(const py::object& self) {
  const auto& t = self.cast<const PyTensor&>();
  return visit(t, [&](const auto& x) -> std::string {
    using T = typename std::decay_t<decltype(x)>::value_type;
    if constexpr (is_complex_v<T>) {
      return py::str(py::module_::import("numpy").attr("asarray")(py::cast(wrap(x.copy()))));
    } else {
      std::ostringstream s;
      s << x;
      return s.str();
    }
  });
}

/// The node of an operand: a strata.Expr, a strata.Tensor, a Python number or any object with
/// the buffer protocol (a NumPy array, read in place); null for anything else.
NodePtr as_node(const py::handle& x) {
  if (py::isinstance<PyExpr>(x)) return x.cast<const PyExpr&>().node;
  if (py::isinstance<PyTensor>(x)) return leaf(x.cast<PyTensor>());
  if (py::isinstance<py::bool_>(x) || py::isinstance<py::int_>(x) || py::isinstance<py::float_>(x) ||
      PyComplex_Check(x.ptr()) != 0) {
    return number(x);
  }
  if (PyObject_CheckBuffer(x.ptr()) != 0) return leaf(asarray(py::reinterpret_borrow<py::object>(x)));
  return nullptr;
}

/// The buffer slot of strata.Tensor: pybind11's, with a C++ exception turned into BufferError
/// (see where it is installed).
int getbuffer_or_raise(PyObject* obj, Py_buffer* view, int flags) {
  try {
    return py::detail::pybind11_getbuffer(obj, view, flags);
  } catch (const std::exception& e) {
    if (view != nullptr) {
      view->obj = nullptr;
    }
    PyErr_SetString(PyExc_BufferError, e.what());
    return -1;
  } catch (...) {
    if (view != nullptr) {
      view->obj = nullptr;
    }
    PyErr_SetString(PyExc_BufferError, "strata.Tensor: the buffer could not be exported");
    return -1;
  }
}

/// `z.real`, `z.imag` (@p which): the parts of a complex tensor as a view over its memory; a
/// real tensor's real part is the tensor itself, its imaginary part read-only zeros (NumPy).
PyTensor part_view(const PyTensor& t, std::string_view which) {
  return visit(t, [&](const auto& x) {
    using T = typename std::decay_t<decltype(x)>::value_type;
    if constexpr (is_complex_v<T>) {
      return wrap(which == "real" ? Tensor(x).real() : Tensor(x).imag(), t.read_only);
    } else if (which == "real") {
      return wrap(Tensor(x), t.read_only);
    } else {
      return wrap(strata::zeros<T>(x.shape()), true);
    }
  });
}

/// `z.real = value`, `z.imag = value`: evaluated into the parts' view (NumPy's assignment to a
/// part); a real tensor has no imaginary part to set (TypeError, as NumPy).
void set_part(PyTensor& t, const py::object& value, const char* which) {
  const std::string operation = std::string(which) + " = value";
  require_writable(t, operation.c_str());
  const NodePtr e = as_node(value);
  if (!e) {
    throw py::type_error(operation + ": cannot assign a " +
                         py::str(py::type::of(value)).cast<std::string>() +
                         " (a number, a strata.Tensor or Expr, or an array)");
  }
  const PyTensor view = part_view(t, which);
  if (view.read_only) {  // a real tensor's imaginary part
    throw py::type_error(operation + ": a " +
                         visit(t, [](const auto& x) {
                           return std::string(
                               dtype_name<typename std::decay_t<decltype(x)>::value_type>());
                         }) +
                         " tensor has no imaginary part to set");
  }
  evaluate_into(e, view);
}

NodePtr operand(const py::handle& x, const char* operation) {
  NodePtr n = as_node(x);
  if (!n) {
    throw py::type_error(std::string(operation) + ": expected a strata.Tensor or Expr, a number or an "
                         "array, not " + py::str(py::type::of(x)).cast<std::string>());
  }
  return n;
}

DType dtype_argument(const py::object& dtype, const char* operation) {
  if (py::isinstance<py::str>(dtype)) return parse_dtype(dtype.cast<std::string>(), operation);
  // a NumPy dtype or type (np.float32): its name
  return parse_dtype(py::module_::import("numpy").attr("dtype")(dtype).attr("name").cast<std::string>(),
                     operation);
}

/// The operators and methods strata.Tensor and strata.Expr share: each builds an expression.
template <class Class>
void def_expression_operators(Class& cls) {
  const auto binary_method = [&cls](const char* name, Op op, bool reflected, const char* symbol) {
    cls.def(name, [op, reflected, symbol](const py::object& self, const py::object& other) -> py::object {
      const NodePtr b = as_node(other);
      if (!b) return py::reinterpret_borrow<py::object>(Py_NotImplemented);  // Python asks other
      const NodePtr a = as_node(self);
      return py::cast(PyExpr{reflected ? binary(op, b, a, symbol) : binary(op, a, b, symbol)});
    });
  };
  binary_method("__add__", Op::add, false, "a + b");
  binary_method("__radd__", Op::add, true, "a + b");
  binary_method("__sub__", Op::sub, false, "a - b");
  binary_method("__rsub__", Op::sub, true, "a - b");
  binary_method("__mul__", Op::mul, false, "a * b");
  binary_method("__rmul__", Op::mul, true, "a * b");
  binary_method("__truediv__", Op::div, false, "a / b");
  binary_method("__rtruediv__", Op::div, true, "a / b");
  binary_method("__pow__", Op::pow, false, "a ** b");
  binary_method("__rpow__", Op::pow, true, "a ** b");
  binary_method("__lt__", Op::lt, false, "a < b");
  binary_method("__le__", Op::le, false, "a <= b");
  binary_method("__gt__", Op::gt, false, "a > b");
  binary_method("__ge__", Op::ge, false, "a >= b");
  binary_method("__eq__", Op::eq, false, "a == b");
  binary_method("__ne__", Op::ne, false, "a != b");
  cls.def("__neg__", [](const py::object& self) { return PyExpr{unary(Op::neg, as_node(self), "-")}; });
  cls.def("__pos__", [](const py::object& self) { return PyExpr{as_node(self)}; });
  cls.def("__abs__", [](const py::object& self) { return PyExpr{unary(Op::abs, as_node(self), "abs")}; });
  cls.def("conj", [](const py::object& self) { return PyExpr{unary(Op::conj, as_node(self), "conj")}; },
          "The complex conjugate, lazily (NumPy's z.conj())");
  cls.def("astype", [](const py::object& self, const py::object& dtype) {
    return PyExpr{cast(as_node(self), dtype_argument(dtype, "astype"))};
  }, py::arg("dtype"), "the elements converted to dtype, lazily (NumPy's unsafe casting)");
  cls.def("__bool__", [](const py::object& self) {
    const PyTensor t = evaluate(as_node(self));
    return visit(t, [](const auto& x) -> bool {
      if (x.size() != 1) {
        throw py::value_error("the truth value of a tensor with " + std::to_string(x.size()) +
                              " elements is ambiguous: use strata.all / any, or reduce it first");
      }
      using T = typename std::decay_t<decltype(x)>::value_type;
      return x.at(strata::Index(static_cast<std::size_t>(x.rank()), 0)) != T{};
    });
  });
  // NumPy's operators and ufuncs hand a strata operand back to strata's reflected operators
  // (ndarray + tensor is an expression); np.sqrt(t) and other ufuncs are refused: strata.sqrt.
  cls.attr("__array_ufunc__") = py::none();
  cls.attr("__hash__") = py::none();
}

}  // namespace

PYBIND11_MODULE(strata, m) {
  m.doc() = "strata: N-dimensional tensors and zero-copy views, shared with NumPy and DLPack";

  // strata's errors as the Python exceptions NumPy users expect, with strata's message.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) {
        std::rethrow_exception(p);
      }
    } catch (const strata::IndexError& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const strata::TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const strata::IOError& e) {
      PyErr_SetString(PyExc_OSError, e.what());
    } catch (const strata::Error& e) {  // ShapeError, BroadcastError, LayoutError
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  py::class_<PyTensor> tensor_class(m, "Tensor", py::buffer_protocol(),
                                    "A strata tensor or view: NumPy sees its memory without a copy "
                                    "(np.asarray), as does any DLPack consumer");
  tensor_class
      .def_buffer([](PyTensor& t) -> py::buffer_info {
        return visit(t, [&](auto& x) -> py::buffer_info {
          using T = typename std::decay_t<decltype(x)>::value_type;
          auto* data = const_cast<T*>(static_cast<const Tensor<T>&>(x).data());
          if (data == nullptr && x.size() > 0) {
            throw py::buffer_error("this view (a roll, a tile, an index array) is not strided "
                                   "memory: copy() it first");
          }
          std::vector<py::ssize_t> shape;
          std::vector<py::ssize_t> strides;
          for (const index_t e : x.shape()) shape.push_back(e);
          for (const index_t s : x.strides()) strides.push_back(s * static_cast<py::ssize_t>(sizeof(T)));
          static T empty{};
          return py::buffer_info(data != nullptr ? data : &empty, sizeof(T),
                                 py::format_descriptor<T>::format(), x.rank(), shape, strides,
                                 t.read_only || !x.is_writable());
        });
      })
      .def_property_readonly("shape", [](const PyTensor& t) {
        return visit(t, [](const auto& x) {
          const Index s = x.shape();
          return py::tuple(py::cast(std::vector<index_t>(s.begin(), s.end())));
        });
      })
      .def_property_readonly("strides", [](const PyTensor& t) {  // in bytes, as NumPy's
        return visit(t, [](const auto& x) {
          using T = typename std::decay_t<decltype(x)>::value_type;
          std::vector<index_t> s;
          for (const index_t e : x.strides()) s.push_back(e * static_cast<index_t>(sizeof(T)));
          return py::tuple(py::cast(s));
        });
      })
      .def_property_readonly("dtype", [](const PyTensor& t) {
        return visit(t, [](const auto& x) {
          return std::string(dtype_name<typename std::decay_t<decltype(x)>::value_type>());
        });
      })
      .def_property_readonly("ndim", [](const PyTensor& t) { return visit(t, [](const auto& x) { return x.rank(); }); })
      .def_property_readonly("size", [](const PyTensor& t) { return visit(t, [](const auto& x) { return x.size(); }); })
      .def_property_readonly("T", [](const PyTensor& t) {
        return visit(t, [&](const auto& x) { return wrap(Tensor(x).transpose(), t.read_only); });
      })
      .def_property(
          "real", [](const PyTensor& t) { return part_view(t, "real"); },
          [](PyTensor& t, const py::object& value) { set_part(t, value, "real"); },
          "The real parts as a view (NumPy's z.real): writable, `z.real = x` sets them; a real "
          "tensor's is the tensor itself")
      .def_property(
          "imag", [](const PyTensor& t) { return part_view(t, "imag"); },
          [](PyTensor& t, const py::object& value) { set_part(t, value, "imag"); },
          "The imaginary parts as a view (NumPy's z.imag): writable for a complex tensor; a real "
          "tensor's are read-only zeros")
      .def("__len__", [](const PyTensor& t) {
        return visit(t, [](const auto& x) -> index_t {
          if (x.rank() == 0) throw py::type_error("len() of a 0-d tensor");
          return x.shape()[0];
        });
      })
      .def("__getitem__", [](const PyTensor& t, const py::object& key) -> py::object {
        return visit(t, [&](const auto& x) -> py::object {
          const auto sel = selectors(key, x.rank());
          auto v = Tensor(x).select(std::span<const strata::Selector>(sel));
          if (v.rank() == 0) return py::cast(std::as_const(v).at(Index{}));
          return py::cast(wrap(std::move(v), t.read_only));
        });
      })
      .def("__setitem__", [](PyTensor& t, const py::object& key, const py::object& value) {
        require_writable(t, "__setitem__");
        const NodePtr e = as_node(value);
        if (!e) {
          throw py::type_error("__setitem__: cannot assign a " +
                               py::str(py::type::of(value)).cast<std::string>() +
                               " (a number, a strata.Tensor or Expr, or an array)");
        }
        PyTensor view = visit(t, [&](const auto& x) {
          const auto sel = selectors(key, x.rank());
          return wrap(Tensor(x).select(std::span<const strata::Selector>(sel)));
        });
        evaluate_into(e, view);
      }, "out[key] = value: a number, a tensor or an expression, evaluated in one pass into the "
         "view (broadcast, converted to out's type)")
      .def("copy", [](const PyTensor& t) { return visit(t, [](const auto& x) { return wrap(x.copy()); }); })
      .def("transpose", [](const PyTensor& t, const py::args& axes) {
        return visit(t, [&](const auto& x) {
          if (axes.empty()) return wrap(Tensor(x).transpose(), t.read_only);
          std::vector<index_t> p;
          for (const auto& a : axes) p.push_back(a.cast<index_t>());
          return wrap(Tensor(x).transpose(p), t.read_only);
        });
      })
      .def("broadcast_to", [](const PyTensor& t, const std::vector<index_t>& shape) {
        return visit(t, [&](const auto& x) { return wrap(Tensor(x).broadcast(shape), true); });
      }, "a read-only broadcast view (np.broadcast_to)")
      .def("roll", [](const PyTensor& t, index_t shift, index_t axis) {
        return visit(t, [&](const auto& x) { return wrap(Tensor(x).rotate(shift, axis), t.read_only); });
      }, py::arg("shift"), py::arg("axis"), "a view rolled along an axis (np.roll, no copy)")
      .def("flip", [](const PyTensor& t, index_t axis) {
        return visit(t, [&](const auto& x) { return wrap(Tensor(x).reverse(std::vector<index_t>{axis}), t.read_only); });
      }, py::arg("axis"))
      .def("reshape", [](const PyTensor& t, const std::vector<index_t>& shape) {
        return visit(t, [&](const auto& x) { return wrap(Tensor(x).reshape(shape), t.read_only); });
      })
      .def("sum", [](const PyTensor& t, const py::object& axis) { return reduce(t, axis, "sum"); }, py::arg("axis") = py::none())
      .def("min", [](const PyTensor& t, const py::object& axis) { return reduce(t, axis, "min"); }, py::arg("axis") = py::none())
      .def("max", [](const PyTensor& t, const py::object& axis) { return reduce(t, axis, "max"); }, py::arg("axis") = py::none())
      .def("mean", [](const PyTensor& t, const py::object& axis) { return reduce(t, axis, "mean"); }, py::arg("axis") = py::none())
      .def("__dlpack__", [](const PyTensor& t, const py::object& /*stream*/) { return to_capsule(t); },
           py::arg("stream") = py::none())
      .def("__dlpack_device__", [](const PyTensor&) { return py::make_tuple(1, 0); })
      .def("__array__", [](py::object self, const py::object& dtype) {
        // A view that is not strided memory (a roll, an index array, a generated tensor) comes
        // out as a copy, as NumPy's asarray of anything that is not an array.
        const bool strided = visit(self.cast<const PyTensor&>(), [](const auto& x) {
          return x.size() == 0 || x.data() != nullptr;
        });
        py::object source = strided ? self
                                    : visit(self.cast<const PyTensor&>(), [](const auto& x) {
                                        return py::cast(wrap(x.copy()));
                                      });
        py::object array = py::module_::import("numpy").attr("asarray")(py::memoryview(source));
        return dtype.is_none() ? array : array.attr("astype")(dtype);
      }, py::arg("dtype") = py::none())
      .def("__str__", [](const py::object& self) { return tensor_text(self); })
      .def("__repr__", [](const PyTensor& t) {
        std::ostringstream s;
        visit(t, [&](const auto& x) {
          s << "strata.Tensor(" << tensor_text(py::cast(t)) << ", dtype="
            << dtype_name<typename std::decay_t<decltype(x)>::value_type>() << ")";
        });
        return s.str();
      });
  // pybind11 calls the buffer function without catching, and an exception into CPython's C
  // code ends the process: np.asarray of a rolled view aborted Python. The slot is wrapped so
  // that a view without strided memory raises BufferError (NumPy then asks __array__, which
  // copies it).
  reinterpret_cast<PyHeapTypeObject*>(tensor_class.ptr())->as_buffer.bf_getbuffer =
      getbuffer_or_raise;
  def_expression_operators(tensor_class);

  // strata.Expr: what the operators return. Evaluated in one pass by `out[...] = e` or eval();
  // anything that needs its values (NumPy, printing, indexing, reductions) evaluates it first.
  py::class_<PyExpr> expr_class(m, "Expr",
                                "A lazy expression of tensors and numbers (u + 0.1 * v): nothing is "
                                "computed until out[...] = e or e.eval(), which run the whole "
                                "expression in one pass; operands are read then, not before");
  const auto evaluated = [](const PyExpr& e) { return py::cast(evaluate(e.node)); };
  const auto forward = [evaluated](const char* name) {
    return [evaluated, name](const PyExpr& e, const py::args& args, const py::kwargs& kwargs) {
      return evaluated(e).attr(name)(*args, **kwargs);
    };
  };
  expr_class
      .def_property_readonly("shape", [](const PyExpr& e) {
        return py::tuple(py::cast(std::vector<index_t>(e.node->shape.begin(), e.node->shape.end())));
      })
      .def_property_readonly("dtype", [](const PyExpr& e) { return std::string(dtype_name(e.node->dtype)); })
      .def_property_readonly("ndim", [](const PyExpr& e) { return e.node->shape.size(); })
      .def_property_readonly("size", [](const PyExpr& e) {
        index_t n = 1;
        for (const index_t x : e.node->shape) n *= x;
        return n;
      })
      .def("eval", [](const PyExpr& e) { return evaluate(e.node); },
           "the value, in a new row-major strata.Tensor (one pass over the result)")
      .def("copy", [](const PyExpr& e) { return evaluate(e.node); }, "the same as eval()")
      .def("__len__", [](const PyExpr& e) -> index_t {
        if (e.node->shape.empty()) throw py::type_error("len() of a 0-d expression");
        return e.node->shape[0];
      })
      .def("__array__", forward("__array__"))
      .def("__getitem__", forward("__getitem__"))
      .def("sum", forward("sum"))
      .def("min", forward("min"))
      .def("max", forward("max"))
      .def("mean", forward("mean"))
      .def("__str__", [evaluated](const PyExpr& e) { return py::str(evaluated(e)); })
      .def("__repr__", [](const PyExpr& e) {
        std::ostringstream s;
        visit(evaluate(e.node), [&](const auto& x) {
          s << "strata.Expr(" << x << ", dtype=" << dtype_name(e.node->dtype) << ")";
        });
        return s.str();
      });
  def_expression_operators(expr_class);

  const auto def_unary = [&m](const char* name, Op op, const char* doc) {
    m.def(name, [op, qualified = "strata." + std::string(name)](const py::object& x) {
      return PyExpr{unary(op, operand(x, qualified.c_str()), qualified.c_str())};
    }, py::arg("x"), doc);
  };
  def_unary("sqrt", Op::sqrt, "the square root of each element, lazily (integers as float64)");
  def_unary("exp", Op::exp, "e to the power of each element, lazily (integers as float64)");
  def_unary("log", Op::log, "the natural logarithm of each element, lazily (integers as float64)");
  def_unary("sin", Op::sin, "the sine of each element, lazily (integers as float64)");
  def_unary("cos", Op::cos, "the cosine of each element, lazily (integers as float64)");
  def_unary("tanh", Op::tanh, "the hyperbolic tangent of each element, lazily (integers as float64)");
  def_unary("abs", Op::abs, "the absolute value of each element, lazily (the same type)");
  def_unary("conj", Op::conj,
            "the complex conjugate of each element, lazily (NumPy's np.conj; a real element is "
            "itself)");
  m.def("where", [](const py::object& c, const py::object& a, const py::object& b) {
    return PyExpr{where(operand(c, "strata.where"), operand(a, "strata.where"), operand(b, "strata.where"))};
  }, py::arg("condition"), py::arg("x"), py::arg("y"),
     "x where condition is true, else y (np.where), lazily; the three broadcast together");
  m.def("evaluate", [](const py::object& e) { return evaluate(operand(e, "strata.evaluate")); },
        py::arg("e"), "the value of an expression (or a copy of a tensor) in a new strata.Tensor");

  def_jagged(m);
  def_shapes(m, tensor_class);

  m.def("asarray", &strata_python::asarray, py::arg("obj"),
        "A strata.Tensor over the memory of a NumPy array (any object with the buffer protocol), "
        "no copy: strides kept, negative ones too; a read-only array gives a read-only tensor");
  m.def("from_dlpack", &from_dlpack, py::arg("obj"),
        "A strata.Tensor over the memory of any DLPack producer (torch.Tensor, a NumPy array...), "
        "no copy");
  m.def("zeros", [](const std::vector<index_t>& shape, const py::object& dtype) {
    return zeros(Index(shape.begin(), shape.end()), dtype_argument(dtype, "strata.zeros"));
  }, py::arg("shape"), py::arg("dtype") = "float64");
}
