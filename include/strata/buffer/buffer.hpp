/// @file
/// The buffer concepts: random-access storage of elements, optionally writable or contiguous.
#pragma once

#include "strata/core/index.hpp"

#include <concepts>

namespace strata {

/// Random-access storage of `value_type`: `size()` elements read by linear address.
///
/// Anything that satisfies it can back a Tensor through AnyBuffer: a std::deque, a memory-mapped
/// file, a computed sequence. Addresses are in [0, size()).
template <class B>
concept Buffer = requires(const B& b, index_t address) {
  typename B::value_type;
  { b.size() } -> std::convertible_to<index_t>;
  { b.read(address) } -> std::convertible_to<typename B::value_type>;
};

/// A Buffer that can also be written: `write(address, value)`.
template <class B>
concept WritableBuffer = Buffer<B> && requires(B& b, index_t address, typename B::value_type v) {
  b.write(address, v);
};

/// A Buffer whose elements are one contiguous array: `data()` points at address 0.
///
/// Kernels take the `data()` fast path (memcpy, vectorised loops) for such buffers.
template <class B>
concept ContiguousBuffer = Buffer<B> && requires(const B& b) {
  { b.data() } -> std::convertible_to<const typename B::value_type*>;
};

/// A Buffer whose reads may run on several threads at once although it has no `data()`: it
/// declares `static constexpr bool concurrent_reads = true` (strata's generator buffers do).
///
/// strata uses every other buffer without `data()` from one thread at a time: user buffers need
/// not be thread-safe.
template <class B>
concept ConcurrentReadBuffer = Buffer<B> && requires {
  requires B::concurrent_reads;
};

}  // namespace strata
