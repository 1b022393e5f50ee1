// Uses strata from an installed package; CI builds it with -Wall -Wextra -Werror against a
// fresh install prefix and runs it, so strata's headers must compile warning-free for users.
#include <strata/strata.hpp>

#include <iostream>

int main() {
  const strata::Index shape{2, 3, 4};
  const strata::index_t size = strata::checked_size(shape, "consumer");
  strata::Tensor<float> t(shape);
  t.select({0}).fill(1.0F);
  t(1, 2, 3) += 2.0F;
  const auto padded = strata::pad(t.select({0}), {{1, 1}, {0, 0}}, strata::PadMode::reflect);
  const auto rows = strata::Jagged::from_lengths({3, 0, 2});
  strata::JaggedTensor<float> ragged(rows);
  ragged.for_each_row(strata::par, [](strata::index_t r, std::span<float> v) {
    for (float& x : v) {
      x = static_cast<float>(r);
    }
  });
  float total = strata::sum(t, {0, 1, 2})();
  for (const strata::Index& i : rows.indices()) {
    total += ragged.at(i);
  }
  std::cout << "consumer: shape " << strata::to_string(shape) << " has " << size
            << " elements; padded " << strata::to_string(padded.shape()) << "; total " << total
            << "\n";
  return size == 24 && total == 18.0F ? 0 : 1;
}
