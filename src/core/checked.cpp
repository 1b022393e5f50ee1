// Overflow-checked size arithmetic.
#include "strata/core/checked.hpp"

#include "strata/core/error.hpp"

namespace strata {

index_t checked_mul(index_t a, index_t b, std::string_view operation) {
  index_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) {
    detail::fail<ShapeError>(operation, "size overflow: ", a, " * ", b, " does not fit in int64");
  }
  return product;
}

index_t checked_add(index_t a, index_t b, std::string_view operation) {
  index_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) {
    detail::fail<ShapeError>(operation, "size overflow: ", a, " + ", b, " does not fit in int64");
  }
  return sum;
}

index_t checked_size(std::span<const index_t> extents, std::string_view operation) {
  for (std::size_t axis = 0; axis < extents.size(); ++axis) {
    if (extents[axis] < 0) {
      detail::fail<ShapeError>(operation, "shape ", to_string(extents), " has negative extent ",
                               extents[axis], " on axis ", axis);
    }
  }
  // Zero extents are skipped in the overflow check (as NumPy does): a shape such as
  // [0 2^40 2^40] is empty, yet its row-major strides must still fit in int64.
  index_t nonzero = 1;
  bool empty = false;
  for (const index_t extent : extents) {
    if (extent == 0) {
      empty = true;
      continue;
    }
    if (__builtin_mul_overflow(nonzero, extent, &nonzero)) {
      detail::fail<ShapeError>(operation, "shape ", to_string(extents),
                               " has more elements than int64 can count");
    }
  }
  return empty ? 0 : nonzero;
}

}  // namespace strata
