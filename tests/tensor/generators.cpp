// Tests for strata/tensor/generators.hpp: computed tensors, consistent under every view.
#include "strata/tensor/generators.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

namespace test_tensor_generators {

using strata::Index;

TEST_CASE("generated tensors are computed and read-only", "[tensor]") {
  CHECK(strata::zeros<int>({2, 2}).to_vector() == std::vector<int>{0, 0, 0, 0});
  CHECK(strata::ones<float>({3}).to_vector() == std::vector<float>{1, 1, 1});
  CHECK(strata::full<int>({2}, 7).to_vector() == std::vector<int>{7, 7});
  CHECK(strata::iota<int>({2, 3}).transpose().to_vector() == std::vector<int>{0, 3, 1, 4, 2, 5});
  CHECK_FALSE(strata::zeros<int>({2}).buffer().writable());
  CHECK(strata::zeros<double>({1'000'000'000}).size() == 1'000'000'000);  // nothing allocated
}

TEST_CASE("writing into a generator says what to write instead", "[tensor][errors]") {
  // np.zeros is writable; strata::zeros is computed. The error names the writable spellings.
  auto z = strata::zeros<double>({2, 2});
  CHECK_THROWS_AS(z.fill(1.0), strata::LayoutError);
  CHECK_THROWS_WITH(z.fill(1.0), Catch::Matchers::Contains("fill: ") &&
                                     Catch::Matchers::Contains("Tensor<T>(shape)") &&
                                     Catch::Matchers::Contains("copy()"));
  CHECK_THROWS_WITH(strata::iota<int>({3}).select({1}).assign(strata::Tensor<int>::of({4})),
                    Catch::Matchers::Contains("generator"));
  CHECK(z.to_vector() == std::vector<double>{0, 0, 0, 0});  // nothing written
  auto stored = z.copy();
  stored.fill(1.0);  // the copy is an ordinary array
  CHECK(stored.to_vector() == std::vector<double>{1, 1, 1, 1});
}

TEST_CASE("random tensors agree under every view and every read", "[tensor][property]") {
  const auto r = strata::random<double>({6, 7}, 1234);
  const auto t = r.transpose();
  const auto flipped = r.reverse({0}).rotate(3, 1);
  for (strata::index_t i = 0; i < 6; ++i) {
    for (strata::index_t j = 0; j < 7; ++j) {
      REQUIRE(t(j, i) == r(i, j));
      REQUIRE(flipped(5 - i, (j + 3) % 7) == r(i, j));
    }
  }
  CHECK(r.to_vector() == strata::random<double>({6, 7}, 1234).to_vector());
  CHECK(r.to_vector() != strata::random<double>({6, 7}, 1235).to_vector());
  const auto n = strata::random<double>({1000}, 1, strata::Distribution::normal).to_vector();
  CHECK(*std::min_element(n.begin(), n.end()) < -1.5);
}

}  // namespace test_tensor_generators
