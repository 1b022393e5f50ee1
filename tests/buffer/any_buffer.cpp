// Tests for strata/buffer/any_buffer.hpp: type erasure over any storage, shared handles.
#include "strata/buffer/any_buffer.hpp"

#include "strata/buffer/dense_buffer.hpp"
#include "strata/buffer/generators.hpp"
#include "strata/buffer/sparse_buffer.hpp"

#include <catch2/catch.hpp>

#include <deque>

namespace test_buffer_any_buffer {

using strata::AnyBuffer;
using strata::index_t;

namespace {
struct DequeBuffer {
  using value_type = double;
  std::deque<double> d;
  [[nodiscard]] index_t size() const { return static_cast<index_t>(d.size()); }
  [[nodiscard]] double read(index_t i) const { return d[static_cast<std::size_t>(i)]; }
  void write(index_t i, double v) { d[static_cast<std::size_t>(i)] = v; }
};
}  // namespace

TEST_CASE("AnyBuffer erases the storage type", "[buffer]") {
  SECTION("a user-defined buffer") {
    AnyBuffer<double> any(DequeBuffer{std::deque<double>(4, 1.5)});
    CHECK(any.size() == 4);
    CHECK(any.writable());
    CHECK(any.data() == nullptr);
    any.write(2, 7.0);
    CHECK(any.read(2) == 7.0);
    REQUIRE(any.get<DequeBuffer>() != nullptr);
    CHECK(any.get<DequeBuffer>()->d[2] == 7.0);
  }
  SECTION("copies share the storage") {
    AnyBuffer<float> a(strata::DenseBuffer<float>(3));
    const AnyBuffer<float> b = a;
    a.write(0, 2.0F);
    CHECK(b.read(0) == 2.0F);
    CHECK(a.same_storage(b));
    CHECK(a.data() != nullptr);
  }
  SECTION("a read-only buffer rejects writes") {
    AnyBuffer<int> g(strata::GeneratorBuffer<int, int (*)(index_t)>(
        5, [](index_t i) { return static_cast<int>(2 * i); }));
    CHECK(g.read(3) == 6);
    CHECK_FALSE(g.writable());
    CHECK_THROWS_AS(g.write(0, 1), strata::LayoutError);
    CHECK(g.read(0) == 0);
  }
  SECTION("a shared buffer stays reachable") {
    auto sparse = std::make_shared<strata::SparseBuffer<int>>(10);
    const auto any = AnyBuffer<int>::shared(sparse);
    any.write(4, 1);
    CHECK(sparse->nnz() == 1);
    CHECK(any.get<strata::SparseBuffer<int>>() == sparse.get());
  }
}

}  // namespace test_buffer_any_buffer
