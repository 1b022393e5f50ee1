/// @file
/// Generated tensors: zeros, ones, full, iota, random; computed from the address, never stored.
#pragma once

#include "strata/buffer/generators.hpp"
#include "strata/core/checked.hpp"
#include "strata/core/divisor.hpp"
#include "strata/core/indexed.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace strata {

namespace detail {

/// A function of the multi-index seen as a function of the row-major position: the position
/// is split with precomputed divisors (a multiply and shifts per axis, no divide).
template <int N, class F>
class OfIndex {
 public:
  OfIndex(IndexSpan shape, F f) : extents_(shape), f_(std::move(f)) {
    for (const index_t e : shape) {
      divisors_.emplace_back(std::max<index_t>(e, 1));
    }
  }
  decltype(auto) operator()(index_t position) const {
    IndexCursor<N> index(extents_.size());
    for (std::size_t k = extents_.size(); k-- > 0;) {
      const index_t q = divisors_[k].divide(position);
      index[k] = position - q * extents_[k];
      position = q;
    }
    return index.call(f_);
  }

 private:
  Index extents_;
  std::vector<Divisor> divisors_;
  F f_;
};

}  // namespace detail

/// A read-only tensor whose elements are computed from their index, never stored: `f(i, j,
/// ...)` with one integer per axis, `f(index)` with an IndexSpan, or `f(position)` with the
/// row-major position (one integer, as for rank 1). NumPy's `np.fromfunction`, lazily; every
/// view of it, read by any thread in any order, gives the same values (so `f` is called
/// concurrently and must not modify state).
///
/// @code
/// auto hilbert = strata::generate<double>({4, 4}, [](strata::index_t i, strata::index_t j) {
///   return 1.0 / double(i + j + 1);
/// });
/// @endcode
/// @param shape the extents
/// @param f the generating function of the index (or of the position)
/// @return the tensor
/// @throws ShapeError for a negative extent, a size that overflows, or a function that takes
///         a number of indices that is neither 1 nor the rank
template <class T, class F>
Tensor<T> generate(IndexSpan shape, F f) {
  const index_t size = checked_size(shape, "generate");
  constexpr int arity = detail::index_arity<F>();
  static_assert(arity != -2,
                "generate: the function must take the position, the indices (one integer per "
                "axis) or an IndexSpan");
  if constexpr (arity == 1) {
    // The row-major position (for rank 1 the index itself).
    return Tensor<T>(AnyBuffer<T>(GeneratorBuffer<T, F>(size, std::move(f))), Dimensions(shape));
  } else {
    detail::check_arity("generate", arity, static_cast<int>(shape.size()));
    using G = detail::OfIndex<arity, F>;
    return Tensor<T>(AnyBuffer<T>(GeneratorBuffer<T, G>(size, G(shape, std::move(f)))),
                     Dimensions(shape));
  }
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
