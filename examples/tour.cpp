// The strata tour: a guided, printed walk through every capability, one section each.
#include "strata/strata.hpp"

#include <iostream>
#include <string>

namespace {

void section(const std::string& title) {
  std::cout << "\n== " << title << " " << std::string(title.size() < 70 ? 70 - title.size() : 0, '=')
            << "\n";
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

}  // namespace

int main() {
  std::cout << "strata tour\n";
  core();
  std::cout << "\nend of tour\n";
  return 0;
}
