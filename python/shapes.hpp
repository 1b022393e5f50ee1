// Tiled and sparse tensors and pictures in the Python module (python/shapes.cpp).
#pragma once

#include "module.hpp"

namespace strata_python {

/// Adds strata.TiledTensor, strata.SVG, the sparse constructors, the sparse and draw methods of
/// strata.Tensor and strata.draw to the module.
void def_shapes(py::module_& m, py::class_<PyTensor>& tensor_class);

}  // namespace strata_python
