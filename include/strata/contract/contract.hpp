/// @file
/// Tensor contraction in one include: einsum and einsum_into (NumPy's language), NumPy's named
/// products (matmul, dot, tensordot ...), the labelled form (`c("i,k") = a("i,j") *
/// b("j,k")`), plans and their paths, the GEMM engine, products of tiled tensors tile by tile,
/// of jagged tensors row by row.
#pragma once

#include "strata/contract/einsum.hpp"    // IWYU pragma: export
#include "strata/contract/gemm.hpp"      // IWYU pragma: export
#include "strata/contract/jagged.hpp"    // IWYU pragma: export
#include "strata/contract/labelled.hpp"  // IWYU pragma: export
#include "strata/contract/plan.hpp"      // IWYU pragma: export
#include "strata/contract/products.hpp"  // IWYU pragma: export
#include "strata/contract/tiled.hpp"     // IWYU pragma: export
