/// @file
/// Functions of a multi-index: the absolute / relative tags of indexed loops, and how a
/// callback takes an index (separate integers, or one IndexSpan).
#pragma once

#include "strata/core/error.hpp"
#include "strata/core/index.hpp"

#include <array>
#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>

/// Unrolls the loop that follows four times (g++), in the rows of strata's indexed loops: a
/// user's element function is a few instructions, and a plain loop spends as many again on its
/// counter (benchmarks/indexed.cpp, docs/performance.md). clang unrolls such loops by itself,
/// and the explicit count made its slice fill 1.5x slower, so it gets nothing.
#if defined(__GNUC__) && !defined(__clang__)
#define STRATA_UNROLL_ROW _Pragma("GCC unroll 4")
#else
#define STRATA_UNROLL_ROW
#endif

namespace strata {

/// Asks an indexed loop for absolute indices: where the elements sit in the tensor (or shape)
/// a view was cut from. The default.
struct Absolute {};
/// Asks an indexed loop for relative indices: from all zeros at the view's first element.
struct Relative {};
/// The absolute-index tag.
inline constexpr Absolute absolute{};
/// The relative-index tag.
inline constexpr Relative relative{};

namespace detail {

/// Whether f can be called with N indices followed by the arguments Tail.
template <class F, std::size_t N, class... Tail>
constexpr bool takes_indices() {
  return []<std::size_t... K>(std::index_sequence<K...>) {
    return std::is_invocable_v<F&, decltype(K, index_t{})..., Tail...>;
  }
  (std::make_index_sequence<N>{});
}

/// The largest rank a callback with separate index arguments is looked for with.
inline constexpr int max_index_arity = 8;

/// How f takes the index: -1 as one IndexSpan (any rank), N >= 0 as N separate integers (the
/// smallest N that works), -2 when neither works.
template <class F, class... Tail>
constexpr int index_arity() {
  if constexpr (std::is_invocable_v<F&, IndexSpan, Tail...>) {
    return -1;
  } else {
    int found = -2;
    [&]<std::size_t... N>(std::index_sequence<N...>) {
      ((found == -2 && takes_indices<F, N, Tail...>() ? (found = static_cast<int>(N)) : 0), ...);
    }
    (std::make_index_sequence<max_index_arity + 1>{});
    return found;
  }
}

/// The current index of a loop, for a callback of arity N (separate integers) or -1 (a span):
/// the leading axes are set once per row, the last one moves along the row.
template <int N>
class IndexCursor {
 public:
  explicit IndexCursor(std::size_t rank) : values_(rank) {}
  index_t& operator[](std::size_t k) noexcept { return values_[k]; }
  template <class F, class... Tail>
  decltype(auto) call(F& f, Tail&&... tail) const {
    return f(IndexSpan(std::span<const index_t>(values_.data(), values_.size())),
             std::forward<Tail>(tail)...);
  }
  /// Calls f with the last index set to @p last (the leading ones as set).
  template <class F, class... Tail>
  decltype(auto) call_last(F& f, index_t last, Tail&&... tail) {
    values_.back() = last;
    return call(f, std::forward<Tail>(tail)...);
  }

 private:
  Index values_;
};

template <int N>
requires(N >= 0) class IndexCursor<N> {
 public:
  explicit IndexCursor(std::size_t /*rank*/) {}
  index_t& operator[](std::size_t k) noexcept { return values_[k]; }
  template <class F, class... Tail>
  decltype(auto) call(F& f, Tail&&... tail) const {
    return [&]<std::size_t... K>(std::index_sequence<K...>)->decltype(auto) {
      return f(values_[K]..., std::forward<Tail>(tail)...);
    }
    (std::make_index_sequence<static_cast<std::size_t>(N)>{});
  }
  /// Calls f with the last index passed as @p last (the leading ones as set): the index of
  /// an inner loop stays in a register.
  template <class F, class... Tail>
  decltype(auto) call_last(F& f, index_t last, Tail&&... tail) {
    if constexpr (N == 0) {
      return f(std::forward<Tail>(tail)...);
    } else {
      return [&]<std::size_t... K>(std::index_sequence<K...>)->decltype(auto) {
        return f(values_[K]..., last, std::forward<Tail>(tail)...);
      }
      (std::make_index_sequence<static_cast<std::size_t>(N - 1)>{});
    }
  }

 private:
  std::array<index_t, static_cast<std::size_t>(N > 0 ? N : 1)> values_{};
};

/// Walks the box [0, extents) row by row: `row(g, count)` with g the row's first index (the
/// last entry 0) and count the extent of the last mode. An odometer, no division.
template <class Row>
void for_each_box_row(std::span<const index_t> extents, Row&& row) {
  const std::size_t r = extents.size();
  if (r == 0) {
    row(Index{}, index_t{1});
    return;
  }
  for (const index_t e : extents) {
    if (e == 0) {
      return;
    }
  }
  Index g(r, 0);
  const index_t count = extents[r - 1];
  while (true) {
    row(std::as_const(g), count);
    std::size_t k = r - 1;
    while (k-- > 0) {
      if (++g[k] < extents[k]) {
        break;
      }
      g[k] = 0;
    }
    if (k == static_cast<std::size_t>(-1)) {
      return;
    }
  }
}

/// Throws ShapeError unless a callback of arity @p arity suits rank @p rank.
inline void check_arity(std::string_view operation, int arity, int rank) {
  if (arity >= 0 && arity != rank) {
    fail<ShapeError>(operation, "the function takes ", arity, " indices but the iterable has rank ",
                     rank, " (write one integer argument per axis, or take an IndexSpan)");
  }
}

}  // namespace detail
}  // namespace strata
