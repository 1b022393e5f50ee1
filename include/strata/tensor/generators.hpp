/// Generated tensors: zeros, ones, full, iota, random; computed from the address, never stored.
#pragma once

#include "strata/buffer/generators.hpp"
#include "strata/core/checked.hpp"
#include "strata/tensor/tensor.hpp"

#include <cstdint>

namespace strata {

/// A read-only tensor of shape @p shape whose element at row-major position i is `f(i)`.
/// @param shape the extents
/// @param f the generating function of the position
/// @return the tensor (every view of it reads the same values)
/// @throws ShapeError for a negative extent or a size that overflows
template <class T, class F>
Tensor<T> generate(IndexSpan shape, F f) {
  const index_t size = checked_size(shape, "generate");
  return Tensor<T>(AnyBuffer<T>(GeneratorBuffer<T, F>(size, std::move(f))), Dimensions(shape));
}

/// A read-only tensor of zeros (nothing stored).
/// @param shape the extents
/// @return the tensor
template <class T>
Tensor<T> zeros(IndexSpan shape) {
  return generate<T>(shape, [](index_t) { return T{0}; });
}

/// A read-only tensor of ones (nothing stored).
/// @param shape the extents
/// @return the tensor
template <class T>
Tensor<T> ones(IndexSpan shape) {
  return generate<T>(shape, [](index_t) { return T{1}; });
}

/// A read-only tensor whose every element is @p value (nothing stored).
/// @param shape the extents
/// @param value the value
/// @return the tensor
template <class T>
Tensor<T> full(IndexSpan shape, T value) {
  return generate<T>(shape, [value](index_t) { return value; });
}

/// A read-only tensor of 0, 1, 2, ... in row-major order (`np.arange(n).reshape(shape)`).
/// @param shape the extents
/// @return the tensor
template <class T>
Tensor<T> iota(IndexSpan shape) {
  return generate<T>(shape, [](index_t i) { return static_cast<T>(i); });
}

/// A read-only tensor of random values, a pure function of (seed, row-major position): any
/// view, read in any order by any thread, gives the same values, and re-reading repeats them.
/// @param shape the extents
/// @param seed the seed
/// @param distribution uniform [0, 1) or standard normal
/// @return the tensor
template <class T>
Tensor<T> random(IndexSpan shape, std::uint64_t seed,
                 Distribution distribution = Distribution::uniform) {
  return generate<T>(shape, RandomFunction{seed, distribution});
}

}  // namespace strata
