// Tests for strata/layout/address_kernels.hpp: every specialised kernel equals the generic path.
#include "strata/layout/address_kernels.hpp"

#include "layout/view_helpers.hpp"

#include <catch2/catch.hpp>

#include <numeric>

namespace test_layout_address_kernels {

using strata::Axis;
using strata::Dimensions;
using strata::index_t;
using V = std::vector<index_t>;

namespace {
V run(strata::AddressKernel kernel, const Dimensions& d) {
  V linear(static_cast<std::size_t>(d.size()));
  std::iota(linear.begin(), linear.end(), index_t{0});
  V out(linear.size());
  kernel(d, linear, out);
  return out;
}
}  // namespace

TEST_CASE("every signature of rank <= 4 has a kernel that equals the generic path",
          "[layout][property]") {
  std::mt19937_64 rng(99);
  int checked = 0;
  for (int rank = 0; rank <= strata::max_specialised_rank; ++rank) {
    const unsigned masks = 1U << static_cast<unsigned>(rank);
    for (unsigned indexed = 0; indexed < masks; ++indexed) {
      for (unsigned cyclic = 0; cyclic < masks; ++cyclic) {
        for (const bool unit : {false, true}) {
          const bool last_is_special =
              rank > 0 && (((indexed | cyclic) >> static_cast<unsigned>(rank - 1)) & 1U) != 0;
          if (unit && (rank == 0 || last_is_special)) {
            continue;  // a unit last stride needs a plain last axis
          }
          // Build axes with exactly this signature: extents 2..4, rotations and tiling for the
          // cyclic ones, random index arrays, negative strides.
          std::vector<Axis> axes;
          for (int k = 0; k < rank; ++k) {
            const bool is_indexed = ((indexed >> k) & 1U) != 0;
            const bool is_cyclic = ((cyclic >> k) & 1U) != 0;
            Axis a;
            a.cycle = strata::test::uniform(rng, 2, 4);
            a.extent = is_cyclic ? a.cycle * strata::test::uniform(rng, 1, 2) : a.cycle;
            a.rotation = is_cyclic ? strata::test::uniform(rng, 1, a.cycle - 1) : 0;
            a.stride = (strata::test::uniform(rng, 0, 1) == 1 ? 1 : -1) * (5 * k + 2);
            if (is_indexed) {
              V entries(static_cast<std::size_t>(a.cycle));
              for (auto& e : entries) {
                e = strata::test::uniform(rng, 0, 6);
              }
              a.indices = std::make_shared<const strata::IndexArray>(std::move(entries));
            }
            if (k == rank - 1 && unit) {
              a.stride = 1;
            }
            axes.push_back(a);
          }
          const Dimensions d = Dimensions::from_axes(axes, 100);
          const strata::Signature sig = d.signature();
          INFO("dims " << d << " signature " << sig);
          REQUIRE(sig.rank == rank);
          REQUIRE(sig.indexed == indexed);
          REQUIRE(sig.cyclic == cyclic);
          REQUIRE(sig.unit_last_stride == unit);
          const auto kernel = strata::address_kernel(sig);
          REQUIRE(run(kernel, d) == strata::test::addresses(d));
          ++checked;
        }
      }
    }
  }
  // Every reachable signature: sum over ranks r of 4^r + (rank > 0 ? 4^(r-1) : 0).
  CHECK(checked == 1 + (4 + 1) + (16 + 4) + (64 + 16) + (256 + 64));
}

TEST_CASE("the selected kernel equals the generic path on random views", "[layout][property]") {
  std::mt19937_64 rng(4242);
  for (int trial = 0; trial < 2000; ++trial) {
    const Dimensions d = strata::test::random_view(rng, 6).reduced();
    INFO("dims " << d << " signature " << d.signature());
    const V expected = strata::test::addresses(d);
    REQUIRE(run(strata::address_kernel(d.signature()), d) == expected);
    REQUIRE(run(&strata::generic_addresses, d) == expected);
    // gather_addresses takes arbitrary (unsorted, repeated) linear indices.
    if (d.size() > 0) {
      V linear(17);
      for (auto& i : linear) {
        i = strata::test::uniform(rng, 0, d.size() - 1);
      }
      V out(linear.size());
      strata::gather_addresses(d, linear, out);
      for (std::size_t i = 0; i < linear.size(); ++i) {
        REQUIRE(out[i] == expected[static_cast<std::size_t>(linear[i])]);
      }
    }
  }
}

TEST_CASE("ranks above 4 use the generic path", "[layout]") {
  const strata::Signature sig{5, 0, 0, false, true};
  CHECK(strata::address_kernel(sig) == &strata::generic_addresses);
  const Dimensions d{2, 1, 3, 1, 2, 2};
  V linear(static_cast<std::size_t>(d.size()));
  std::iota(linear.begin(), linear.end(), index_t{0});
  V out(linear.size());
  strata::gather_addresses(d, linear, out);
  CHECK(out == linear);
}

}  // namespace test_layout_address_kernels
