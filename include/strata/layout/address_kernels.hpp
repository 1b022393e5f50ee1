/// @file
/// Address kernels: global linear index -> buffer address, specialised per Signature.
#pragma once

#include "strata/layout/dimensions.hpp"
#include "strata/layout/signature.hpp"

#include <span>

namespace strata {

/// Computes `addresses[i] = dims.global_to_local(linear[i])` for every i.
///
/// A kernel is only valid for maps whose signature() is the one it was selected for.
using AddressKernel = void (*)(const Dimensions& dims, std::span<const index_t> linear,
                               std::span<index_t> addresses);

/// The largest rank with specialised kernels; higher ranks use generic_addresses.
inline constexpr int max_specialised_rank = 4;

/// The kernel for a signature.
///
/// For rank <= max_specialised_rank this is one instantiation of a single template (axis kinds,
/// moduli and the unit last stride decided at compile time), looked up in a table that
/// Boost.Hana generates over every signature; otherwise the generic path. The `broadcast` field
/// does not select code: broadcasting is a stride of 0 or a cyclic axis.
/// @param signature the signature of the map the kernel will be called with
/// @return a kernel
AddressKernel address_kernel(const Signature& signature) noexcept;

/// The generic path: any rank, axis kinds tested at run time (Dimensions::global_to_local).
/// @param dims the map
/// @param linear row-major linear indices in [0, dims.size())
/// @param addresses receives one address per linear index (same length as @p linear)
void generic_addresses(const Dimensions& dims, std::span<const index_t> linear,
                       std::span<index_t> addresses);

/// Addresses of many linear indices through the fastest kernel: reduces @p dims, selects the
/// kernel for its signature and runs it.
/// @param dims the map
/// @param linear row-major linear indices in [0, dims.size()) (unchecked)
/// @param addresses receives one address per linear index (same length as @p linear)
void gather_addresses(const Dimensions& dims, std::span<const index_t> linear,
                      std::span<index_t> addresses);

}  // namespace strata
