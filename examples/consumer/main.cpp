// Uses strata from an installed package; CI builds and runs it against a fresh install prefix.
#include <strata/strata.hpp>

#include <iostream>

int main() {
  const strata::Index shape{2, 3, 4};
  const strata::index_t size = strata::checked_size(shape, "consumer");
  std::cout << "consumer: shape " << strata::to_string(shape) << " has " << size << " elements\n";
  return size == 24 ? 0 : 1;
}
