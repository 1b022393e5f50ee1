/// @file
/// strata::StridedSpan: a non-owning view of a strided array with a rank known at compile time
/// (std::mdspan with `layout_stride`), for loops through `s(i, j)` that the compiler vectorises.
#pragma once

#include "strata/core/error.hpp"
#include "strata/core/index.hpp"

#include <array>
#include <concepts>
#include <cstddef>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

/// Whether element access `t(i, j)` checks rank and bounds (IndexError): on in builds without
/// NDEBUG (the debug and asan presets), off in release builds unless defined to 1.
#if !defined(STRATA_CHECKED_ACCESS)
#if defined(NDEBUG)
#define STRATA_CHECKED_ACCESS 0
#else
#define STRATA_CHECKED_ACCESS 1
#endif
#endif

namespace strata {

namespace detail {

/// The error of element access with a wrong rank or an index out of bounds.
[[noreturn]] inline void bad_access(std::string_view operation, IndexSpan index, IndexSpan shape) {
  if (index.size() != shape.size()) {
    fail<IndexError>(operation, "index ", to_string(index), " has ", index.size(),
                     " entries for a tensor of rank ", shape.size(), " (shape ", to_string(shape),
                     ")");
  }
  fail<IndexError>(operation, "index ", to_string(index), " is out of bounds for shape ",
                   to_string(shape));
}

}  // namespace detail

/// A non-owning view of a strided array whose rank is known at compile time: a pointer, N
/// extents and N strides (in elements, any sign), as `std::mdspan<T, dextents<N>,
/// layout_stride>`. Element `s(i, j)` is `data()[i * stride(0) + j * stride(1)]`.
///
/// Made by Tensor::span (`t.span<2>()`) from a tensor view on one array with a strided map. It
/// is a plain value with no other path: writes `s(i, j) = v` and `s(i, j) *= v` cost what
/// pointer arithmetic costs and vectorise where the pointer loop does, which a loop through a
/// Tensor's `t(i, j)` does not (it keeps a never-taken call for buffers without an array, and
/// a loop holding a call is not vectorised). Like std::span, it owns nothing: it is valid while
/// the buffer it views lives.
///
/// Element access is unchecked in release builds; with STRATA_CHECKED_ACCESS (on unless NDEBUG)
/// an index out of bounds throws IndexError.
///
/// @code
/// strata::Tensor<double> t({4, 5});
/// auto s = t.select({strata::Range{1, 3}, strata::all}).span<2>();
/// for (strata::index_t i = 0; i < s.extent(0); ++i)
///   for (strata::index_t j = 0; j < s.extent(1); ++j) s(i, j) = i + 0.5 * j;  // rows 1-2 of t
/// @endcode
/// @tparam T the element type (const for a read-only span)
/// @tparam N the rank
template <class T, std::size_t N>
class StridedSpan {
 public:
  /// The element type (const for a read-only span).
  using element_type = T;
  /// The element type without const.
  using value_type = std::remove_cv_t<T>;

  /// An empty span of no array (extents 0).
  StridedSpan() noexcept = default;
  /// Views @p data with @p extents and @p strides.
  /// @param data the element at index [0, ..., 0] (may be null when some extent is 0)
  /// @param extents the extent of each axis
  /// @param strides the distance in elements between neighbours along each axis
  StridedSpan(T* data, std::array<index_t, N> extents, std::array<index_t, N> strides) noexcept
      : data_(data), extents_(extents), strides_(strides) {}
  /// A read-only span of the same elements.
  /// @return the span
  // NOLINTNEXTLINE(google-explicit-constructor): as T* converts to const T*.
  operator StridedSpan<const T, N>() const noexcept requires(!std::is_const_v<T>) {
    return {data_, extents_, strides_};
  }

  /// The number of axes.
  /// @return N
  [[nodiscard]] static constexpr std::size_t rank() noexcept { return N; }
  /// The element `s(i, j, ...)`: one multiply-add per axis.
  /// @param indices one index per axis, each in [0, extent)
  /// @return a reference to the element
  template <std::integral... I>
  requires(sizeof...(I) == N) [[nodiscard]] T& operator()(I... indices) const {
    return element({static_cast<index_t>(indices)...});
  }
  /// The element at a multi-index of any length (its length is checked in every build).
  /// @param index one index per axis, each in [0, extent)
  /// @return a reference to the element
  /// @throws IndexError when @p index does not have N entries
  [[nodiscard]] T& operator()(IndexSpan index) const {
    if (index.size() != N) [[unlikely]] {
      check(index);
    }
    std::array<index_t, N> fixed{};
    for (std::size_t k = 0; k < N; ++k) {
      fixed[k] = index[k];
    }
    return element(fixed);
  }

  /// The element at index [0, ..., 0] (null for a span of no array).
  /// @return the pointer
  [[nodiscard]] T* data() const noexcept { return data_; }
  /// The extent of axis @p k.
  /// @param k the axis, in [0, N)
  /// @return the extent
  [[nodiscard]] index_t extent(std::size_t k) const noexcept { return extents_[k]; }
  /// The stride of axis @p k in elements (any sign; 0 for a broadcast axis).
  /// @param k the axis, in [0, N)
  /// @return the stride
  [[nodiscard]] index_t stride(std::size_t k) const noexcept { return strides_[k]; }
  /// The extents.
  /// @return one extent per axis
  [[nodiscard]] const std::array<index_t, N>& extents() const noexcept { return extents_; }
  /// The strides in elements.
  /// @return one stride per axis
  [[nodiscard]] const std::array<index_t, N>& strides() const noexcept { return strides_; }
  /// The number of elements.
  /// @return the product of the extents (1 for rank 0)
  [[nodiscard]] index_t size() const noexcept {
    index_t n = 1;
    for (const index_t e : extents_) {
      n *= e;
    }
    return n;
  }
  /// Whether the span has no element.
  /// @return size() == 0
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }

 private:
  [[nodiscard]] T& element(const std::array<index_t, N>& index) const {
    if constexpr (STRATA_CHECKED_ACCESS) {
      check(IndexSpan(std::span<const index_t>(index)));
    }
    index_t address = 0;
    for (std::size_t k = 0; k < N; ++k) {
      address += index[k] * strides_[k];
    }
    return data_[address];
  }
  void check(IndexSpan index) const {
    bool valid = index.size() == N;
    for (std::size_t k = 0; valid && k < N; ++k) {
      valid = index[k] >= 0 && index[k] < extents_[k];
    }
    if (!valid) [[unlikely]] {
      detail::bad_access("operator()", index, IndexSpan(std::span<const index_t>(extents_)));
    }
  }

  T* data_ = nullptr;
  std::array<index_t, N> extents_{};
  std::array<index_t, N> strides_{};
};

}  // namespace strata
