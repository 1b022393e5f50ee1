// Tiled and sparse tensors and strata.draw seen from Python (python/shapes.hpp).
#include "shapes.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <sstream>
#include <string>
#include <variant>
#include <vector>

namespace strata_python {

namespace {

using strata::LayoutTensor;

/// A LayoutTensor of one of the module's element types (the order of AnyTensor).
using AnyTiled = std::variant<LayoutTensor<double>, LayoutTensor<float>, LayoutTensor<std::int64_t>,
                              LayoutTensor<std::int32_t>, LayoutTensor<bool>>;

/// strata.TiledTensor: a tensor stored tile after tile.
struct PyTiled {
  AnyTiled tensor;
};

template <class F>
decltype(auto) visit_tiled(const PyTiled& t, F&& f) {
  return std::visit(std::forward<F>(f), t.tensor);
}

py::tuple as_tuple(strata::IndexSpan s) {
  return py::tuple(py::cast(std::vector<index_t>(s.begin(), s.end())));
}

PyTiled tiled_from_dense(const py::object& dense, const std::vector<index_t>& tile) {
  const PyTensor t = py::isinstance<PyTensor>(dense) ? dense.cast<PyTensor>() : asarray(dense);
  return visit(t, [&](const auto& x) -> PyTiled {
    using T = typename std::decay_t<decltype(x)>::value_type;
    if constexpr (is_complex_v<T>) {
      throw py::type_error(std::string("strata.TiledTensor: ") + dtype_name<T>() +
                           " elements are not offered (float64, float32, int64, int32, bool)");
    } else {
      const strata::Layout layout = strata::Layout::tiled(strata::Smooth(x.shape()), tile);
      return {AnyTiled(LayoutTensor<T>::from_dense(Tensor<const T>(x), layout))};
    }
  });
}

/// The tensor of a sparse-only method, or a LayoutError naming the method.
void require_sparse(const PyTensor& t, const char* operation) {
  visit(t, [&](const auto& x) {
    if (!strata::is_sparse(x)) {
      throw py::value_error(std::string(operation) +
                            ": the tensor is not sparse (strata.to_sparse "
                            "makes a sparse copy)");
    }
  });
}

/// strata.sparse_coo(shape, coords, values): coordinates in np.argwhere's layout [n, rank].
PyTensor sparse_coo(const std::vector<index_t>& shape, const py::object& coords_object,
                    const py::object& values_object) {
  const py::module_ np = py::module_::import("numpy");
  const PyTensor coords = asarray(np.attr("asarray")(coords_object).attr("astype")("int64"));
  const PyTensor values = asarray(np.attr("asarray")(values_object));
  const auto& c = std::get<Tensor<std::int64_t>>(coords.tensor);
  return visit(values, [&](const auto& v) {
    using T = typename std::decay_t<decltype(v)>::value_type;
    if constexpr (std::is_same_v<T, bool>) {
      return wrap(strata::sparse_from_coo(shape, c, v, std::logical_or<>{}));
    } else {
      return wrap(strata::sparse_from_coo(shape, c, v));
    }
  });
}

/// strata.csr_matrix((data, indices, indptr), shape): scipy's CSR arrays (repeated entries add).
PyTensor csr_matrix(const py::tuple& arrays, const std::vector<index_t>& shape) {
  const py::module_ np = py::module_::import("numpy");
  if (arrays.size() != 3 || shape.size() != 2) {
    throw py::value_error(
        "strata.csr_matrix: expected (data, indices, indptr) and a 2-D shape, "
        "as scipy.sparse.csr_matrix");
  }
  const py::array indptr = np.attr("asarray")(arrays[2]).attr("astype")("int64");
  const py::array indices = np.attr("asarray")(arrays[1]).attr("astype")("int64");
  if (indptr.ndim() != 1 || indptr.size() != shape[0] + 1) {
    throw py::value_error("strata.csr_matrix: indptr has " + std::to_string(indptr.size()) +
                          " entries for " + std::to_string(shape[0]) + " rows (expected rows + 1)");
  }
  const auto ptr = indptr.cast<std::vector<index_t>>();
  if (ptr.front() != 0 || ptr.back() != indices.size()) {
    throw py::value_error("strata.csr_matrix: indptr runs from " + std::to_string(ptr.front()) +
                          " to " + std::to_string(ptr.back()) + " for " +
                          std::to_string(indices.size()) +
                          " indices (expected 0 to the number of indices)");
  }
  std::vector<index_t> rows;
  for (std::size_t r = 0; r + 1 < ptr.size(); ++r) {
    if (ptr[r + 1] < ptr[r]) {
      throw py::value_error("strata.csr_matrix: indptr decreases at row " + std::to_string(r));
    }
    rows.insert(rows.end(), static_cast<std::size_t>(ptr[r + 1] - ptr[r]), static_cast<index_t>(r));
  }
  const py::object coords = np.attr("stack")(py::make_tuple(np.attr("asarray")(rows), indices), 1);
  return sparse_coo(shape, coords, arrays[0]);
}

/// The element types strata.einsum computes in (NumPy's result type of the operands).
using EinsumTypes = std::variant<double, float, std::int64_t, std::int32_t, std::complex<double>,
                                 std::complex<float>>;

/// The C++ type of NumPy's result type of the operands' dtypes, or a TypeError.
EinsumTypes einsum_type(const std::vector<py::object>& dtypes) {
  const py::module_ np = py::module_::import("numpy");
  py::tuple args(dtypes.size());
  for (std::size_t k = 0; k < dtypes.size(); ++k) {
    args[k] = dtypes[k];
  }
  const std::string name = py::str(np.attr("result_type")(*args)).cast<std::string>();
  if (name == "float64") {
    return 0.0;
  }
  if (name == "float32") {
    return 0.0F;
  }
  if (name == "int64") {
    return std::int64_t{0};
  }
  if (name == "int32") {
    return std::int32_t{0};
  }
  if (name == "complex128") {
    return std::complex<double>{0};
  }
  if (name == "complex64") {
    return std::complex<float>{0};
  }
  throw py::type_error("strata.einsum: " + name +
                       " operands are not offered (float64, float32, int64, int32, complex128, "
                       "complex64)");
}

/// einsum of operands held in a vector, one call per operand count (einsum is variadic).
template <class T, class X>
auto einsum_of(const std::string& spec, const std::vector<X>& x) {
  switch (x.size()) {
    case 1:
      return strata::einsum(spec, x[0]);
    case 2:
      return strata::einsum(spec, x[0], x[1]);
    case 3:
      return strata::einsum(spec, x[0], x[1], x[2]);
    case 4:
      return strata::einsum(spec, x[0], x[1], x[2], x[3]);
    default:
      throw py::value_error("strata.einsum: " + std::to_string(x.size()) +
                            " operands (1 to 4 are offered)");
  }
}

/// strata.einsum(spec, *operands): NumPy's einsum over strata tensors, arrays and tiled tensors.
py::object einsum_py(const std::string& spec, const py::args& args) {
  if (args.empty()) {
    throw py::value_error("strata.einsum: no operands");
  }
  // Each operand as a strata.Tensor or a strata.TiledTensor; their dtypes.
  std::vector<std::variant<PyTensor, PyTiled>> operands;
  std::vector<py::object> dtypes;
  bool tiled = false;
  for (const py::handle& h : args) {
    const py::object x = py::reinterpret_borrow<py::object>(h);
    if (py::isinstance<PyTiled>(x)) {
      operands.emplace_back(x.cast<PyTiled>());
      tiled = true;
    } else {
      operands.emplace_back(py::isinstance<PyTensor>(x)
                                ? x.cast<PyTensor>()
                                : asarray(py::module_::import("numpy").attr("asarray")(x)));
    }
    dtypes.push_back(py::module_::import("numpy").attr("dtype")(std::visit(
        [](const auto& o) -> std::string {
          if constexpr (std::is_same_v<std::decay_t<decltype(o)>, PyTiled>) {
            return visit_tiled(o, [](const auto& t) {
              return std::string(dtype_name<typename std::decay_t<decltype(t)>::value_type>());
            });
          } else {
            return visit(o, [](const auto& t) {
              return std::string(dtype_name<typename std::decay_t<decltype(t)>::value_type>());
            });
          }
        },
        operands.back())));
  }
  return std::visit(
      [&](auto zero) -> py::object {
        using T = decltype(zero);
        if (!tiled) {
          std::vector<Tensor<const T>> dense;
          for (const auto& o : operands) {
            visit(std::get<PyTensor>(o), [&](const auto& t) {
              using U = typename std::decay_t<decltype(t)>::value_type;
              if constexpr (std::is_same_v<U, T>) {
                dense.emplace_back(t);
              } else if constexpr (is_complex_v<T> || !is_complex_v<U>) {
                dense.emplace_back(strata::evaluate(strata::astype<T>(t)));
              }
            });
          }
          return py::cast(wrap(einsum_of<T>(spec, dense)));
        }
        if constexpr (is_complex_v<T>) {
          throw py::type_error(
              "strata.einsum: a tiled operand with a complex one (tiled tensors hold float64, "
              "float32, int64 or int32)");
        } else {
          // Tiled: every operand a LayoutTensor (dense ones row-major, one piece).
          std::vector<LayoutTensor<T>> blocks;
          for (const auto& o : operands) {
            if (const auto* t = std::get_if<PyTiled>(&o)) {
              visit_tiled(*t, [&](const auto& x) {
                using U = typename std::decay_t<decltype(x)>::value_type;
                if constexpr (std::is_same_v<U, T>) {
                  blocks.push_back(x);
                } else {
                  blocks.push_back(LayoutTensor<T>::from_dense(
                      strata::evaluate(strata::astype<T>(x.to_dense())), x.layout()));
                }
              });
            } else {
              visit(std::get<PyTensor>(o), [&](const auto& x) {
                using U = typename std::decay_t<decltype(x)>::value_type;
                if constexpr (!is_complex_v<U>) {  // (a complex U makes T complex)
                  const Tensor<T> dense = strata::evaluate(strata::astype<T>(x));
                  blocks.push_back(LayoutTensor<T>::from_dense(
                      dense, strata::Layout::row_major(strata::Smooth(dense.shape()))));
                }
              });
            }
          }
          return py::cast(PyTiled{AnyTiled(einsum_of<T>(spec, blocks))});
        }
      },
      einsum_type(dtypes));
}

}  // namespace

void def_shapes(py::module_& m, py::class_<PyTensor>& tensor_class) {
  py::class_<PySvg>(m, "SVG", "An SVG picture (strata.draw): Jupyter shows it inline")
      .def_readonly("data", &PySvg::text, "the SVG document")
      .def("_repr_svg_", [](const PySvg& s) { return s.text; })
      .def("__str__", [](const PySvg& s) { return s.text; })
      .def(
          "save",
          [](const PySvg& s, const std::string& path) {
            py::module_::import("pathlib").attr("Path")(path).attr("write_text")(s.text);
          },
          py::arg("path"), "writes the document to a file");

  // ---- sparse tensors: strata.Tensor over a sparse buffer --------------------------------------
  tensor_class
      .def_property_readonly(
          "is_sparse",
          [](const PyTensor& t) {
            return visit(t, [](const auto& x) { return strata::is_sparse(x); });
          },
          "whether the tensor's buffer stores only its nonzero entries")
      .def_property_readonly(
          "nnz",
          [](const PyTensor& t) {
            require_sparse(t, "nnz");
            return visit(t, [](const auto& x) { return strata::nonzeros(x).size(); });
          },
          "the number of stored entries of a sparse tensor")
      .def(
          "to_dense",
          [](const PyTensor& t) {
            return visit(t, [](const auto& x) { return wrap(strata::to_dense(x)); });
          },
          "a dense row-major copy")
      .def(
          "csr",
          [](const PyTensor& t) {
            require_sparse(t, "csr");
            return visit(t, [](const auto& x) {
              using T = typename std::decay_t<decltype(x)>::value_type;
              const auto c = strata::csr(x);
              py::array_t<T> data(static_cast<py::ssize_t>(c.values.size()));
              std::copy(c.values.begin(), c.values.end(), data.mutable_data());
              return py::make_tuple(
                  data,
                  py::array_t<std::int64_t>(static_cast<py::ssize_t>(c.indices.size()),
                                            c.indices.data()),
                  py::array_t<std::int64_t>(static_cast<py::ssize_t>(c.offsets.size()),
                                            c.offsets.data()));
            });
          },
          "the CSR arrays (data, indices, indptr) of a sparse matrix, as scipy.sparse.csr_matrix "
          "takes them (copies)")
      .def(
          "draw",
          [](const PyTensor& t, const std::string& title) {
            return visit(t, [&](const auto& x) {
              return PySvg{strata::is_sparse(x) ? strata::draw::sparse(x, title)
                                                : strata::draw::tensor(x, title)};
            });
          },
          py::arg("title") = "",
          "a picture of the elements (a sparse matrix: its stored entries "
          "and CSR arrays), as strata::draw");

  m.def("sparse_coo", &sparse_coo, py::arg("shape"), py::arg("coords"), py::arg("values"),
        "a sparse tensor from coordinates [n, rank] (np.argwhere's layout; torch's indices.T) and "
        "n values; repeated coordinates add");
  m.def("csr_matrix", &csr_matrix, py::arg("arrays"), py::arg("shape"),
        "a sparse matrix from scipy's CSR arrays (data, indices, indptr) and its shape");
  m.def(
      "to_sparse",
      [](const py::object& x) {
        const PyTensor t = py::isinstance<PyTensor>(x) ? x.cast<PyTensor>() : asarray(x);
        return visit(t, [](const auto& v) { return wrap(strata::to_sparse(v)); });
      },
      py::arg("x"), "a sparse copy of a tensor or array: zeros are not stored");

  // ---- tiled tensors -------------------------------------------------------------------------
  py::class_<PyTiled>(m, "TiledTensor",
                      "A tensor stored tile after tile (strata::LayoutTensor "
                      "over Layout::tiled); each tile is a strata.Tensor view")
      .def(py::init(&tiled_from_dense), py::arg("dense"), py::arg("tile"),
           "a copy of a tensor or array stored in tiles of the given extents (edge tiles smaller)")
      .def_property_readonly("shape",
                             [](const PyTiled& t) {
                               return visit_tiled(t, [](const auto& x) {
                                 return as_tuple(x.layout().logical().extents());
                               });
                             })
      .def_property_readonly(
          "dtype",
          [](const PyTiled& t) {
            return visit_tiled(t, [](const auto& x) {
              return std::string(dtype_name<typename std::decay_t<decltype(x)>::value_type>());
            });
          })
      .def_property_readonly(
          "grid",
          [](const PyTiled& t) {
            return visit_tiled(t, [](const auto& x) { return as_tuple(x.layout().grid()); });
          },
          "the number of tiles along each axis")
      .def(
          "tile",
          [](const PyTiled& t, const std::vector<index_t>& index) {
            return visit_tiled(t, [&](const auto& x) {
              using T = typename std::decay_t<decltype(x)>::value_type;
              return wrap(LayoutTensor<T>(x).piece(strata::IndexSpan(index)));
            });
          },
          py::arg("index"),
          "the tile at a grid index: a strata.Tensor view of its storage, no copy")
      .def(
          "to_dense",
          [](const PyTiled& t) {
            return visit_tiled(t, [](const auto& x) { return wrap(x.to_dense()); });
          },
          "a dense row-major copy")
      .def(
          "__getitem__",
          [](const PyTiled& t, const std::vector<index_t>& index) {
            return visit_tiled(
                t, [&](const auto& x) { return py::cast(x.at(strata::IndexSpan(index))); });
          },
          "the element at a full index (a tuple of integers)")
      .def(
          "draw",
          [](const PyTiled& t, const std::string& title) {
            return visit_tiled(
                t, [&](const auto& x) { return PySvg{strata::draw::layout(x.layout(), title)}; });
          },
          py::arg("title") = "", "a picture of the tiles and the storage order")
      .def("__repr__", [](const PyTiled& t) {
        return visit_tiled(t, [](const auto& x) {
          using T = typename std::decay_t<decltype(x)>::value_type;
          std::ostringstream s;
          s << "strata.TiledTensor(shape " << strata::to_string(x.layout().logical().extents())
            << ", " << x.layout().n_pieces() << " tiles, dtype=" << dtype_name<T>() << ")";
          return s.str();
        });
      });

  m.def("einsum", &einsum_py, py::arg("subscripts"),
        "NumPy's einsum(subscripts, *operands, optimize=True) over strata tensors, arrays and "
        "tiled tensors (1 to 4 operands): a strata.Tensor, or a strata.TiledTensor computed tile "
        "by tile when an operand is tiled (strata::einsum)");

  m.def(
      "draw",
      [](const py::object& x, const std::string& title) {
        if (!py::hasattr(x, "draw")) {
          throw py::type_error(
              "strata.draw: expected a strata.Tensor, JaggedTensor or TiledTensor, not " +
              py::str(py::type::of(x)).cast<std::string>());
        }
        return x.attr("draw")(title);
      },
      py::arg("x"), py::arg("title") = "",
      "an SVG picture of a tensor, jagged tensor or tiled tensor (strata::draw); Jupyter shows it");
}

}  // namespace strata_python
