// Tests for strata/buffer/dense_buffer.hpp.
#include "strata/buffer/dense_buffer.hpp"

#include "strata/buffer/buffer.hpp"

#include <catch2/catch.hpp>

#include <cstdint>

namespace test_buffer_dense_buffer {

using Catch::Matchers::Contains;
using strata::DenseBuffer;

TEST_CASE("DenseBuffer owns aligned zeros or wraps caller memory", "[buffer]") {
  STATIC_REQUIRE(strata::WritableBuffer<DenseBuffer<float>>);
  STATIC_REQUIRE(strata::ContiguousBuffer<DenseBuffer<float>>);
  SECTION("owning") {
    DenseBuffer<float> b(100);
    CHECK(b.size() == 100);
    CHECK(b.owns());
    CHECK(reinterpret_cast<std::uintptr_t>(b.data()) % 64 == 0);
    CHECK(b.read(99) == 0.0F);
    b.write(3, 2.5F);
    CHECK(b.read(3) == 2.5F);
  }
  SECTION("wrapping shares the caller's memory") {
    std::vector<int> mine{1, 2, 3};
    auto b = DenseBuffer<int>::wrap(mine.data(), 3);
    CHECK_FALSE(b.owns());
    b.write(0, 9);
    CHECK(mine[0] == 9);
    CHECK(b.data() == mine.data());
  }
  SECTION("moving leaves the source empty") {
    DenseBuffer<int> a(4);
    a.write(1, 5);
    DenseBuffer<int> b(std::move(a));
    CHECK(b.read(1) == 5);
    CHECK(a.size() == 0);  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  }
  SECTION("bad input") {
    CHECK_THROWS_AS(DenseBuffer<int>::wrap(nullptr, 3), strata::Error);
    CHECK_THROWS_WITH(DenseBuffer<int>::wrap(nullptr, 3),
                      Contains("DenseBuffer::wrap: ") && Contains("null pointer with size 3"));
    CHECK_NOTHROW(DenseBuffer<int>::wrap(nullptr, 0));
    CHECK_THROWS_AS(DenseBuffer<int>(-1), strata::ShapeError);
  }
}

TEST_CASE("DenseBuffer::for_overwrite owns aligned storage that is written before it is read",
          "[buffer]") {
  auto b = strata::DenseBuffer<double>::for_overwrite(1000);
  REQUIRE(b.size() == 1000);
  REQUIRE(b.data() != nullptr);
  CHECK(reinterpret_cast<std::uintptr_t>(b.data()) % 64 == 0);
  for (strata::index_t i = 0; i < b.size(); ++i) {
    b.data()[i] = static_cast<double>(i);
  }
  CHECK(b.data()[999] == 999.0);
  CHECK(strata::DenseBuffer<float>::for_overwrite(0).size() == 0);
  CHECK_THROWS_AS(strata::DenseBuffer<float>::for_overwrite(-1), strata::ShapeError);
}

}  // namespace test_buffer_dense_buffer
