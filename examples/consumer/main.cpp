// Uses strata from an installed package; CI builds it with -Wall -Wextra -Wpedantic -Wshadow
// -Wconversion -Wsign-conversion -Werror against a fresh install prefix and runs it, so strata's
// headers must compile warning-free for strict users.
#include <strata/strata.hpp>

#include <cstdint>
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
  // Expressions, masks and NumPy's reductions, with their types.
  const std::int64_t positive = strata::sum(strata::isfinite(t) & (t > 0.5F));
  const auto spread = strata::std(t, 2, strata::Ddof{1});
  const auto peak = strata::argmax(t, 2);
  const auto running = strata::cumsum(t, 1);
  strata::Tensor<float> clipped = strata::clip(t, 0.0F, 2.0F) + strata::floor_divide(t, 2.0F);
  auto sp = strata::sparse<double>({10, 10});
  sp(1, 2) += 3.0;
  strata::for_each_indexed(strata::par, t,
                           [](strata::index_t i, strata::index_t j, strata::index_t k, float& x) {
                             x = static_cast<float>(i + j + k);
                           });
  total += static_cast<float>(positive - 13) + static_cast<float>(peak.size() - 6) +
           static_cast<float>(spread.size() - 6) + static_cast<float>(running.size() - 24) +
           static_cast<float>(clipped.size() - 24);
  std::cout << "consumer: shape " << strata::to_string(shape) << " has " << size
            << " elements; padded " << strata::to_string(padded.shape()) << "; total " << total
            << "\n";
  return size == 24 && total == 18.0F ? 0 : 1;
}
