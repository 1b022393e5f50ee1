// Tests for strata/tensor/sparse.hpp: sparse tensors behave as dense ones.
#include "strata/tensor/sparse.hpp"

#include "strata/tensor/generators.hpp"

#include "layout/view_helpers.hpp"

#include <catch2/catch.hpp>

using strata::Index;
using strata::index_t;
using strata::Tensor;

TEST_CASE("sparse tensors store only what is written", "[tensor]") {
  auto s = strata::sparse<double>({1000, 1000});
  CHECK(s.size() == 1'000'000);
  s(3, 4) = 2.5;
  s.at({-1, 0}) = 1.0;
  CHECK(s(3, 4) == 2.5);
  CHECK(s(0, 0) == 0.0);
  CHECK(s.buffer().get<strata::SparseBuffer<double>>()->nnz() == 2);
  SECTION("nonzeros maps stored addresses through the view") {
    const auto nz = strata::nonzeros(s);
    REQUIRE(nz.size() == 2);
    CHECK(nz[0].first == Index{3, 4});
    CHECK(nz[1].first == Index{999, 0});
    const auto t = strata::nonzeros(s.transpose());
    CHECK(t[0].first == Index{0, 999});
    CHECK(t[1].first == Index{4, 3});
    const auto b = strata::nonzeros(s.select({3}).broadcast({2, 1000}));
    CHECK(b.size() == 2);
    CHECK(b[1].first == Index{1, 4});
  }
  SECTION("views of a sparse tensor are writable and stay sparse") {
    s.select({strata::all, 7}).fill(1.0);
    CHECK(s.buffer().get<strata::SparseBuffer<double>>()->nnz() == 1002);
  }
  CHECK_THROWS_AS(strata::nonzeros(Tensor<double>::of({1, 2})), strata::LayoutError);
}

TEST_CASE("sparse equals dense on random views", "[tensor][property]") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const strata::Dimensions d = strata::test::random_view(rng, 5);
    const auto addresses = strata::test::addresses(d);
    const index_t span =
        addresses.empty() ? 1 : *std::max_element(addresses.begin(), addresses.end()) + 1;
    std::vector<int> values(static_cast<std::size_t>(span));
    for (auto& v : values) {
      v = rng() % 3 == 0 ? static_cast<int>(rng() % 9) : 0;
    }
    const auto dense = Tensor<int>::from_vector(values, {span});
    const auto sparse = strata::to_sparse(dense);
    const Tensor<int> dv(dense.buffer(), d);
    const Tensor<int> sv(sparse.buffer(), d);
    INFO("view " << d);
    REQUIRE(sv.to_vector() == dv.to_vector());
    REQUIRE(sv.copy().to_vector() == dv.to_vector());
    // nonzeros lists exactly the non-zero elements of the view, in row-major order.
    const auto nz = strata::nonzeros(sv);
    const auto all = dv.to_vector();
    std::size_t expected = 0;
    for (const int v : all) {
      expected += v != 0 ? 1 : 0;
    }
    REQUIRE(nz.size() == expected);
    for (const auto& [g, v] : nz) {
      REQUIRE(dv.at(g) == v);
    }
  }
}
