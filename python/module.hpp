// What the Python module's sources share: strata.Tensor's C++ side (PyTensor) and its element
// types. A consumer of strata's public C++ API only.
#pragma once

#include <strata/strata.hpp>

#include <pybind11/pybind11.h>

#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace strata_python {

namespace py = pybind11;
using strata::Index;
using strata::index_t;
using strata::Tensor;

/// A strata tensor of one of the element types the module offers.
using AnyTensor =
    std::variant<Tensor<double>, Tensor<float>, Tensor<std::int64_t>, Tensor<std::int32_t>,
                 Tensor<bool>, Tensor<std::complex<double>>, Tensor<std::complex<float>>>;

using strata::is_complex_v;  // complex128, complex64

/// strata.Tensor: a tensor, or a read-only one (memory imported read-only).
struct PyTensor {
  AnyTensor tensor;
  bool read_only = false;
};

/// NumPy's name of an element type ("float64").
template <class T>
constexpr const char* dtype_name() {
  return strata::detail::dtype_name<T>().data();
}

/// A PyTensor of @p t (other element types are converted to float64).
template <class T>
PyTensor wrap(Tensor<T> t, bool read_only = false) {
  using V = std::remove_const_t<T>;
  if constexpr (std::is_same_v<V, double> || std::is_same_v<V, float> ||
                std::is_same_v<V, std::int64_t> || std::is_same_v<V, std::int32_t> ||
                std::is_same_v<V, bool> || std::is_same_v<V, std::complex<double>> ||
                std::is_same_v<V, std::complex<float>>) {
    return {AnyTensor(std::move(t)), read_only};
  } else {
    return {AnyTensor(Tensor<double>(strata::astype<double>(t)))};  // other types: as float64
  }
}

/// strata.SVG: a picture from strata::draw (Jupyter shows it through _repr_svg_).
struct PySvg {
  std::string text;  ///< the SVG document
};

/// strata.asarray(obj): the memory of any object with the buffer protocol (a NumPy array), no
/// copy (python/strata_module.cpp).
PyTensor asarray(const py::object& obj);

/// Calls @p f with the tensor inside @p t.
template <class F>
decltype(auto) visit(const PyTensor& t, F&& f) {
  return std::visit(std::forward<F>(f), t.tensor);
}

}  // namespace strata_python
