/// @file
/// C++23's std::mdspan: a strata view as an mdspan (extents, a layout_stride mapping, the
/// default accessor) where the standard library has `<mdspan>`, and as strata's StridedSpan, the
/// same shape of view, where it has not (g++ 12 and clang 14 have not).
///
/// @code
/// auto m = strata::to_mdspan<2>(t.select({strata::Range{1, 3}}));  // m(i, j) is t[1 + i, j]
/// @endcode
#pragma once

#include "strata/core/error.hpp"
#include "strata/tensor/strided_span.hpp"
#include "strata/tensor/tensor.hpp"

#include <array>
#include <cstddef>

#if __has_include(<mdspan>)
#include <mdspan>
#endif

namespace strata {

#if defined(__cpp_lib_mdspan)

/// The std::mdspan type to_mdspan gives for element type @p T and rank @p N.
template <class T, std::size_t N>
using MdSpan = std::mdspan<T, std::dextents<index_t, N>, std::layout_stride>;

/// A view as a std::mdspan with a layout_stride mapping: no copy, valid while the buffer lives.
/// std::layout_stride takes no negative strides, so a view with one (a reversed axis) is a
/// LayoutError that says so: `t.span<N>()` (StridedSpan) takes any sign.
/// @tparam N the rank, which must be the tensor's
/// @param t the view (a handle: the span stays valid while the buffer lives, as t.span<N>())
/// @return the mdspan
/// @throws ShapeError when @p N is not the rank; LayoutError as Tensor::span, or for a negative
///         stride
template <std::size_t N, class T>
[[nodiscard]] MdSpan<T, N> to_mdspan(Tensor<T> t) {
  const StridedSpan<T, N> s = t.template span<N>();
  std::array<index_t, N> strides{};
  for (std::size_t k = 0; k < N; ++k) {
    if (s.stride(k) < 0) {
      detail::fail<LayoutError>("to_mdspan", "axis ", k, " has stride ", s.stride(k),
                                ": std::layout_stride takes none below 0 (use span<", N,
                                ">(), or copy() first)");
    }
    strides[k] = s.stride(k);
  }
  const std::dextents<index_t, N> extents(s.extents());
  return MdSpan<T, N>(s.data(), typename std::layout_stride::template mapping<std::dextents<index_t, N>>(
                                    extents, strides));
}

#else

/// The type to_mdspan gives for element type @p T and rank @p N: strata's StridedSpan, since
/// this standard library has no `<mdspan>` (it is the same shape of view: extents, signed strides,
/// a pointer, `operator()(i, j, ...)`).
template <class T, std::size_t N>
using MdSpan = StridedSpan<T, N>;

/// A view as an mdspan-shaped view (StridedSpan here, std::mdspan where the library has it): no
/// copy, valid while the buffer lives. Negative strides are taken (std::mdspan's layout_stride
/// would refuse them).
/// @tparam N the rank, which must be the tensor's
/// @param t the view (a handle: the span stays valid while the buffer lives, as t.span<N>())
/// @return the span
/// @throws ShapeError when @p N is not the rank; LayoutError as Tensor::span
template <std::size_t N, class T>
[[nodiscard]] MdSpan<T, N> to_mdspan(Tensor<T> t) {
  return t.template span<N>();
}

#endif

}  // namespace strata
