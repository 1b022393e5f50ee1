// The contraction engine for complex numbers (complex64, complex128), compiled once as
// src/contract/einsum.cpp compiles the real types (a file of its own: the two compile in
// parallel).
#include "strata/contract/einsum.hpp"

#include <complex>

namespace strata::detail {

template struct ContractionEngine<std::complex<float>>;
template struct ContractionEngine<std::complex<double>>;

}  // namespace strata::detail
