/// @file
/// The real and imaginary parts of a complex buffer as a buffer of reals over the same storage:
/// what Tensor::real() and Tensor::imag() view (NumPy's `z.real`, `z.imag`).
#pragma once

#include "strata/buffer/any_buffer.hpp"
#include "strata/core/complex.hpp"
#include "strata/core/index.hpp"

#include <utility>

namespace strata::detail {

/// A complex buffer read as reals: address `2 k` is the real part of element k, `2 k + 1` its
/// imaginary part, as in memory (`std::complex<F>` is an array of two F by the standard, so
/// data() is the complex array reinterpreted). A buffer without data() (a generator, the
/// caller's own storage) is read and written through its element: writing a part reads the
/// element, changes that part and writes the element back. Its Footprint owner is the complex
/// buffer's, so writing the parts is seen as writing the complex tensor.
/// @tparam C the complex element type
/// @tparam Writable whether write() exists (the complex buffer is writable)
template <class C, bool Writable>
class ComplexPartsBuffer {
 public:
  /// The real type.
  using value_type = real_t<C>;

  /// The parts of @p whole (shared, not copied).
  /// @param whole the complex buffer
  explicit ComplexPartsBuffer(AnyBuffer<C> whole) : whole_(std::move(whole)) {}

  /// Two reals per element.
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return 2 * whole_.size(); }
  /// Part `address % 2` of element `address / 2`.
  /// @param address in [0, size())
  /// @return the part
  [[nodiscard]] value_type read(index_t address) const {
    const C z = whole_.read(address / 2);
    return address % 2 == 0 ? z.real() : z.imag();
  }
  /// Sets part `address % 2` of element `address / 2`, keeping the other part.
  /// @param address in [0, size())
  /// @param value the part
  void write(index_t address, value_type value) requires Writable {
    C z = whole_.read(address / 2);
    if (address % 2 == 0) {
      z.real(value);
    } else {
      z.imag(value);
    }
    whole_.write(address / 2, z);
  }
  /// The complex array as reals, when the complex buffer has one.
  /// @return a pointer to the real part of element 0, or null
  [[nodiscard]] value_type* data() const noexcept {
    C* first = whole_.data();
    return first != nullptr ? reinterpret_cast<value_type*>(first) : nullptr;
  }
  /// The complex buffer's storage (AnyBuffer::footprint).
  /// @return its owner
  [[nodiscard]] const void* storage_owner() const noexcept { return whole_.footprint().owner; }

 private:
  AnyBuffer<C> whole_;
};

/// The parts of a complex buffer as an AnyBuffer of reals: writable when @p whole is.
/// @param whole the complex buffer
/// @return the buffer of parts
template <class C>
AnyBuffer<real_t<C>> complex_parts(const AnyBuffer<C>& whole) {
  if (whole.writable()) {
    return AnyBuffer<real_t<C>>(ComplexPartsBuffer<C, true>(whole));
  }
  return AnyBuffer<real_t<C>>(ComplexPartsBuffer<C, false>(whole));
}

}  // namespace strata::detail
