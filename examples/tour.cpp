// The strata tour: a guided, printed walk through every capability, one section each.
#include "strata/strata.hpp"

#include <iostream>
#include <string>
#include <vector>

namespace {

void section(const std::string& title) {
  std::cout << "\n== " << title << " "
            << std::string(title.size() < 70 ? 70 - title.size() : 0, '=') << "\n";
}

void core() {
  section("core: indices, errors, checked sizes");
  // A multi-index is a small vector: no heap for rank <= 6.
  const strata::Index shape{3, 4, 5};
  std::cout << "shape " << strata::to_string(shape) << " holds "
            << strata::checked_size(shape, "tour") << " elements\n";

  // Sizes are checked for overflow; every error names the operation and the bad argument.
  try {
    (void)strata::checked_size(strata::Index{1L << 40, 1L << 40}, "zeros");
  } catch (const strata::ShapeError& e) {
    std::cout << "ShapeError: " << e.what() << "\n";
  }
  try {
    (void)strata::checked_size(strata::Index{2, -3}, "zeros");
  } catch (const strata::Error& e) {
    std::cout << "caught as strata::Error from '" << e.operation() << "': " << e.what() << "\n";
  }
}

/// Prints the values a view reads from the buffer 0, 1, 2, ... laid out row-major.
void show(const std::string& what, const strata::Dimensions& d) {
  std::cout << what << " " << d << "\n    reads [";
  bool first = true;
  strata::for_each_address(d, 0, d.size(), [&](strata::index_t a) {
    std::cout << (first ? "" : " ") << a;
    first = false;
  });
  std::cout << "]\n";
}

void dimensions() {
  section("layout: Dimensions, zero-copy views and addressing");
  using strata::all;
  using strata::Dimensions;
  using strata::Range;
  // A Dimensions maps an N-d index to an address in a linear buffer. Views change only the map.
  const Dimensions d{3, 4};
  show("3x4 row-major         ", d);
  show("transpose             ", d.transpose());
  show("select [1:, ::-2]     ", d.select({Range{1}, Range{{}, {}, -2}}));
  show("select [:, [3 0 0]]   ", d.select({all, std::vector<strata::index_t>{3, 0, 0}}));
  show("roll 1 along axis 1   ", d.rotate(1, 1));
  show("flip axis 0           ", d.reverse({0}));
  show("broadcast to [2 3 8]  ", d.broadcast({2, 3, 8}));
  show("reshape to [2 6]      ", d.reshape({2, 6}));

  // Views compose in any order; an index array of a rolled, tiled, flipped axis still works.
  const Dimensions chain =
      d.rotate({1, 0}).broadcast({3, 8}).reverse({1}).select({std::vector<strata::index_t>{2, 0}});
  show("roll, tile, flip, take", chain);

  // Addresses both ways: local_to_global finds every index that reads an address.
  const Dimensions b = d.broadcast({2, 3, 4});
  std::cout << "address 6 of the broadcast view is read by";
  for (const auto& g : b.local_to_global(6)) {
    std::cout << " " << strata::to_string(g);
  }
  std::cout << "\n";

  // reduced() coalesces axes that walk as one; the signature picks a compiled address kernel.
  const Dimensions crop({256, 256, 4}, {8192, 4, 1});
  std::cout << "a 256x256x4 crop of a 2048x2048x4 image " << crop << "\n  reduces to "
            << crop.reduced() << "\n  signature " << crop.reduced().signature()
            << ", native: " << crop.is_native()
            << ", unit last stride: " << crop.has_unit_last_stride() << "\n";
  std::vector<strata::index_t> linear{1020, 1021, 1022, 1023, 1024, 1025};
  std::vector<strata::index_t> addresses(linear.size());
  strata::gather_addresses(crop, linear, addresses);
  std::cout << "  linear 1020..1025 -> addresses " << strata::to_string(addresses) << "\n";

  // Bad input: a clear error, nothing changed.
  try {
    (void)Dimensions{2, 3, 4}.transpose({0, 0, 2});
  } catch (const strata::ShapeError& e) {
    std::cout << "ShapeError: " << e.what() << "\n";
  }
  try {
    (void)d.transpose().reshape({12});
  } catch (const strata::LayoutError& e) {
    std::cout << "LayoutError: " << e.what() << "\n";
  }
}

}  // namespace

int main() {
  std::cout << "strata tour\n";
  core();
  dimensions();
  std::cout << "\nend of tour\n";
  return 0;
}
