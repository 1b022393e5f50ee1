// Tests for strata/buffer/sparse_buffer.hpp.
#include "strata/buffer/sparse_buffer.hpp"

#include "strata/buffer/buffer.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <random>

using strata::index_t;
using strata::SparseBuffer;

TEST_CASE("SparseBuffer stores only what differs from the fill value", "[buffer]") {
  STATIC_REQUIRE(strata::WritableBuffer<SparseBuffer<double>>);
  STATIC_REQUIRE_FALSE(strata::ContiguousBuffer<SparseBuffer<double>>);
  SparseBuffer<double> s(1'000'000, -1.0);
  CHECK(s.size() == 1'000'000);
  CHECK(s.nnz() == 0);
  CHECK(s.read(123) == -1.0);
  s.write(500, 2.0);
  s.write(10, 3.0);
  s.write(500, 4.0);
  CHECK(s.nnz() == 2);
  CHECK(s.read(500) == 4.0);
  std::vector<std::pair<index_t, double>> seen;
  s.for_each_stored([&](index_t a, double v) { seen.emplace_back(a, v); });
  CHECK(seen == std::vector<std::pair<index_t, double>>{{10, 3.0}, {500, 4.0}});
  s.write(10, -1.0);  // writing the fill value erases
  CHECK(s.nnz() == 1);
  CHECK(s.read(10) == -1.0);
  CHECK_THROWS_AS(SparseBuffer<double>(-5), strata::ShapeError);
}

TEST_CASE("SparseBuffer equals a dense reference under random writes", "[buffer][property]") {
  std::mt19937_64 rng(3);
  SparseBuffer<int> s(200, 0);
  std::vector<int> dense(200, 0);
  for (int i = 0; i < 5000; ++i) {
    const auto a = static_cast<index_t>(rng() % 200);
    const int v = static_cast<int>(rng() % 4);  // often 0: erasures
    s.write(a, v);
    dense[static_cast<std::size_t>(a)] = v;
  }
  index_t nonzero = 0;
  for (index_t a = 0; a < 200; ++a) {
    REQUIRE(s.read(a) == dense[static_cast<std::size_t>(a)]);
    nonzero += dense[static_cast<std::size_t>(a)] != 0 ? 1 : 0;
  }
  CHECK(s.nnz() == nonzero);
  CHECK(std::is_sorted(s.addresses().begin(), s.addresses().end()));
}
