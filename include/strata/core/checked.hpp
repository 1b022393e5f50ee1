/// @file
/// Overflow-checked arithmetic for sizes, extents and addresses.
#pragma once

#include "strata/core/index.hpp"

#include <span>
#include <string_view>

namespace strata {

/// Multiplies two indices, throwing when the product does not fit in `index_t`.
///
/// @param a, b the factors
/// @param operation the operation to name in the error message
/// @return `a * b`
/// @throws ShapeError when the product overflows int64
index_t checked_mul(index_t a, index_t b, std::string_view operation);

/// Adds two indices, throwing when the sum does not fit in `index_t`.
///
/// @param a, b the terms
/// @param operation the operation to name in the error message
/// @return `a + b`
/// @throws ShapeError when the sum overflows int64
index_t checked_add(index_t a, index_t b, std::string_view operation);

/// The number of elements of a shape: the product of its extents (1 for rank 0).
///
/// @param extents the extents; each must be >= 0
/// @param operation the operation to name in the error message
/// @return the product of the extents
/// @throws ShapeError when an extent is negative or the product of the non-zero extents
///         overflows int64 (so row-major strides of an empty shape still fit)
///
/// @code
/// strata::checked_size(strata::Index{3, 4}, "zeros");  // 12
/// @endcode
index_t checked_size(std::span<const index_t> extents, std::string_view operation);

}  // namespace strata
