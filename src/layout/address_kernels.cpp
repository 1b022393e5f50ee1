// Address kernels: one template instantiated per signature of rank <= 4 (table by Boost.Hana).
#include "strata/layout/address_kernels.hpp"

#include "strata/core/divisor.hpp"

#include <boost/hana/range.hpp>
#include <boost/hana/unpack.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

namespace strata {
namespace {

namespace hana = boost::hana;

/// Where the kernels of each rank start in the table: rank r has 2^(2r+1) signatures.
constexpr std::array<int, max_specialised_rank + 2> rank_base = [] {
  std::array<int, max_specialised_rank + 2> base{};
  for (int r = 0; r <= max_specialised_rank; ++r) {
    base[static_cast<std::size_t>(r + 1)] = base[static_cast<std::size_t>(r)] + (2 << (2 * r));
  }
  return base;
}();
constexpr int table_size = rank_base.back();

struct Key {
  int rank;
  unsigned indexed;
  unsigned cyclic;
  bool unit_last;
};

constexpr int encode(const Key& k) {
  return rank_base[static_cast<std::size_t>(k.rank)] +
         static_cast<int>(((k.indexed << k.rank) | k.cyclic) * 2U + (k.unit_last ? 1U : 0U));
}

constexpr Key decode(int code) {
  int rank = 0;
  while (code >= rank_base[static_cast<std::size_t>(rank + 1)]) {
    ++rank;
  }
  const auto local = static_cast<unsigned>(code - rank_base[static_cast<std::size_t>(rank)]);
  const unsigned mask = (1U << rank) - 1U;
  return Key{rank, (local >> 1U) >> rank, (local >> 1U) & mask, (local & 1U) != 0};
}

static_assert(decode(encode(Key{3, 5U, 2U, true})).indexed == 5U);
static_assert(decode(encode(Key{3, 5U, 2U, true})).cyclic == 2U);
static_assert(encode(decode(table_size - 1)) == table_size - 1);

/// The one kernel template: every per-axis decision is a compile-time constant, and the
/// divisions that split a linear index run as multiplications (strata::Divisor).
template <int Rank, unsigned Indexed, unsigned Cyclic, bool UnitLast>
void specialised(const Dimensions& dims, std::span<const index_t> linear,
                 std::span<index_t> addresses) {
  std::array<Divisor, Rank + 1> extent{};
  std::array<Divisor, Rank + 1> cycle{};
  std::array<bool, Rank + 1> wraps_once{};  // extent <= cycle: one conditional subtraction
  std::array<bool, Rank + 1> tiles{};       // cycle divides extent: (g + r) % c == (n + r) % c
  std::array<index_t, Rank + 1> stride{};
  std::array<index_t, Rank + 1> rotation{};
  std::array<const index_t*, Rank + 1> values{};
  for (int k = 0; k < Rank; ++k) {
    const Axis& a = dims.axes()[static_cast<std::size_t>(k)];
    const auto ku = static_cast<std::size_t>(k);
    extent[ku] = Divisor(std::max<index_t>(a.extent, 1));
    cycle[ku] = Divisor(std::max<index_t>(a.cycle, 1));
    wraps_once[ku] = a.extent <= a.cycle;
    tiles[ku] = a.cycle > 0 && a.extent % a.cycle == 0;
    stride[ku] = a.stride;
    rotation[ku] = a.rotation;
    values[ku] = a.indices ? a.indices->values().data() : nullptr;
  }
  const index_t offset = dims.offset();
  for (std::size_t i = 0; i < linear.size(); ++i) {
    index_t rest = linear[i];
    index_t address = offset;
    const auto step = [&]<int K>(std::integral_constant<int, K> /*axis*/) {
      constexpr auto k = static_cast<std::size_t>(K);
      const index_t before = rest;
      index_t g = rest;
      if constexpr (K > 0) {
        const index_t q = extent[k].divide(rest);
        g = rest - q * extent[k].divisor();
        rest = q;
      }
      index_t v = g;
      if constexpr (((Cyclic >> k) & 1U) != 0) {
        v = g + rotation[k];
        if (wraps_once[k]) {
          v -= v >= cycle[k].divisor() ? cycle[k].divisor() : 0;
        } else if (tiles[k]) {
          v = cycle[k].remainder(before + rotation[k]);  // independent of the division above
        } else {
          v = cycle[k].remainder(v);
        }
      }
      if constexpr (((Indexed >> k) & 1U) != 0) {
        v = values[k][v];
      }
      if constexpr (UnitLast && K == Rank - 1) {
        address += v;
      } else {
        address += v * stride[k];
      }
    };
    // Innermost axis first.
    [&]<int... J>(std::integer_sequence<int, J...> /*axes*/) {
      (step(std::integral_constant<int, Rank - 1 - J>{}), ...);
    }
    (std::make_integer_sequence<int, Rank>{});
    addresses[i] = address;
  }
}

/// Whether a signature can occur: a unit last stride needs a plain last axis.
constexpr bool reachable(const Key& key) {
  if (!key.unit_last) {
    return true;
  }
  return key.rank > 0 && (((key.indexed | key.cyclic) >> (key.rank - 1)) & 1U) == 0;
}

template <int Code>
constexpr AddressKernel kernel_at() {
  constexpr Key key = decode(Code);
  if constexpr (reachable(key)) {
    return &specialised<key.rank, key.indexed, key.cyclic, key.unit_last>;
  } else {
    return &generic_addresses;  // never selected; keeps the table dense without instantiating
  }
}

const std::array<AddressKernel, table_size> kernel_table =
    hana::unpack(hana::make_range(hana::int_c<0>, hana::int_c<table_size>), [](auto... code) {
      return std::array<AddressKernel, table_size>{kernel_at<decltype(code)::value>()...};
    });

}  // namespace

AddressKernel address_kernel(const Signature& signature) noexcept {
  if (signature.rank < 0 || signature.rank > max_specialised_rank) {
    return &generic_addresses;
  }
  const unsigned mask = (1U << static_cast<unsigned>(signature.rank)) - 1U;
  const Key key{signature.rank, signature.indexed & mask, signature.cyclic & mask,
                signature.unit_last_stride};
  return kernel_table[static_cast<std::size_t>(encode(key))];
}

void generic_addresses(const Dimensions& dims, std::span<const index_t> linear,
                       std::span<index_t> addresses) {
  for (std::size_t i = 0; i < linear.size(); ++i) {
    addresses[i] = dims.global_to_local(linear[i]);
  }
}

void gather_addresses(const Dimensions& dims, std::span<const index_t> linear,
                      std::span<index_t> addresses) {
  const Dimensions r = dims.reduced();
  address_kernel(r.signature())(r, linear, addresses);
}

}  // namespace strata
