/// @file
/// The address signature of a Dimensions: what kind of address arithmetic each axis needs.
#pragma once

#include <cstdint>
#include <ostream>

namespace strata {

/// What an address computation needs, per axis of a (reduced) Dimensions; selects a kernel.
///
/// Two Dimensions with equal signatures are addressed by the same code: the signature says which
/// axes read an index array, which are cyclic (rotation or tiling broadcast, needing a modulus),
/// and whether the last axis is plain with stride 1. See address_kernel().
struct Signature {
  int rank = 0;                   ///< number of axes
  std::uint32_t indexed = 0;      ///< bit k set: axis k reads through an index array
  std::uint32_t cyclic = 0;       ///< bit k set: axis k wraps (rotation or tiling)
  bool broadcast = false;         ///< some address is read by several global indices
  bool unit_last_stride = false;  ///< the last axis is plain with stride 1

  /// Field-wise equality.
  /// @param a, b signatures
  /// @return true when every field is equal
  friend bool operator==(const Signature& a, const Signature& b) = default;

  /// Prints `{rank 2 indexed 00 cyclic 10 broadcast 0 unit-last 1}` (axis 0 first).
  /// @param out the stream
  /// @param s the signature
  /// @return @p out
  friend std::ostream& operator<<(std::ostream& out, const Signature& s) {
    out << "{rank " << s.rank << " indexed ";
    for (int k = 0; k < s.rank; ++k) {
      out << ((s.indexed >> k) & 1U);
    }
    out << " cyclic ";
    for (int k = 0; k < s.rank; ++k) {
      out << ((s.cyclic >> k) & 1U);
    }
    return out << " broadcast " << s.broadcast << " unit-last " << s.unit_last_stride << "}";
  }
};

}  // namespace strata
