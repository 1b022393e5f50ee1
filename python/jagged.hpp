// strata.JaggedTensor (python/jagged.cpp).
#pragma once

#include "module.hpp"

namespace strata_python {

/// Adds strata.JaggedTensor to the module.
void def_jagged(py::module_& m);

}  // namespace strata_python
