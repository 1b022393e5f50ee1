/// @file
/// C++23's std::mdspan: a strata view as an mdspan (extents, a layout_stride mapping, the
/// default accessor) where the standard library has `<mdspan>`, and as strata's StridedSpan, the
/// same shape of view, where it has not (g++ 12 and clang 14 have not). to_mdspan_as gives any
/// std::mdspan-shaped type with a layout_stride mapping (the reference implementation's
/// `std::experimental::mdspan`, Kokkos' `Kokkos::mdspan`), with or without `<mdspan>`.
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
#include <type_traits>
#include <utility>

#if __has_include(<mdspan>)
#include <mdspan>
#endif

namespace strata {

namespace detail {

/// Checks that a tensor of rank @p rank can be seen as an mdspan of rank @p n.
inline void check_mdspan_rank(int rank, std::size_t n) {
  if (std::cmp_not_equal(rank, n)) {
    fail<ShapeError>("to_mdspan", "an mdspan of rank ", n, " over a tensor of rank ", rank);
  }
}

}  // namespace detail

/// A view as @p M, any type shaped as std::mdspan with a layout_stride mapping: `M::extents_type`
/// built from an array of extents, `M::mapping_type` from the extents and an array of strides,
/// `M(pointer, mapping)`. No copy; valid while the buffer lives. layout_stride takes no negative
/// strides, so a view with one (a reversed axis) is a LayoutError that says so: `t.span<N>()`
/// (StridedSpan) takes any sign.
/// @tparam M the mdspan type: its element type is T, its extents all dynamic, its rank the
///         tensor's
/// @param t the view (a handle: the span stays valid while the buffer lives, as t.span<N>())
/// @return the mdspan
/// @throws ShapeError naming both ranks when M's rank is not the tensor's; LayoutError as
///         Tensor::span, or for a
///         negative stride
template <class M, class T>
[[nodiscard]] M to_mdspan_as(Tensor<T> t) {
  static_assert(std::is_same_v<typename M::element_type, T>,
                "to_mdspan_as: the mdspan's element type must be the tensor's");
  using Extents = typename M::extents_type;
  using I = typename Extents::index_type;
  constexpr std::size_t N = Extents::rank();
  static_assert(Extents::rank_dynamic() == N, "to_mdspan_as: the mdspan's extents must be dynamic");
  detail::check_mdspan_rank(t.rank(), N);
  const StridedSpan<T, N> s = t.template span<N>();
  std::array<I, N> extents{};
  std::array<I, N> strides{};
  for (std::size_t k = 0; k < N; ++k) {
    if (s.stride(k) < 0) {
      detail::fail<LayoutError>("to_mdspan", "axis ", k, " has stride ", s.stride(k),
                                ": std::layout_stride takes none below 0 (use span<", N,
                                ">(), or copy() first)");
    }
    extents[k] = static_cast<I>(s.extent(k));
    strides[k] = static_cast<I>(s.stride(k));
  }
  return M(s.data(), typename M::mapping_type(Extents(extents), strides));
}

#if defined(__cpp_lib_mdspan)

/// The std::mdspan type to_mdspan gives for element type @p T and rank @p N.
template <class T, std::size_t N>
using MdSpan = std::mdspan<T, std::dextents<index_t, N>, std::layout_stride>;

/// A view as a std::mdspan with a layout_stride mapping: to_mdspan_as<MdSpan<T, N>>. No copy,
/// valid while the buffer lives. std::layout_stride takes no negative strides, so a view with one
/// (a reversed axis) is a LayoutError that says so: `t.span<N>()` (StridedSpan) takes any sign.
/// @tparam N the rank, which must be the tensor's
/// @param t the view (a handle: the span stays valid while the buffer lives, as t.span<N>())
/// @return the mdspan
/// @throws ShapeError when @p N is not the rank; LayoutError as Tensor::span, or for a negative
///         stride
template <std::size_t N, class T>
[[nodiscard]] MdSpan<T, N> to_mdspan(Tensor<T> t) {
  return to_mdspan_as<MdSpan<T, N>>(std::move(t));
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
  detail::check_mdspan_rank(t.rank(), N);
  return t.template span<N>();
}

#endif

}  // namespace strata
