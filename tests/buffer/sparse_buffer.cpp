// Tests for strata/buffer/sparse_buffer.hpp.
#include "strata/buffer/sparse_buffer.hpp"

#include "strata/buffer/buffer.hpp"

#include "check_error.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <random>

namespace test_buffer_sparse_buffer {

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

TEST_CASE("SparseBuffer equals a std::map under many random inserts, reads and erasures",
          "[buffer][property]") {
  // Enough inserts to merge the pending table into the sorted arrays many times.
  std::mt19937_64 rng(29);
  const index_t size = index_t{1} << 40;
  SparseBuffer<long> s(size, 7);
  std::map<index_t, long> ref;
  for (int step = 0; step < 60'000; ++step) {
    const index_t a = step % 5 == 0 && !ref.empty()
                          ? std::next(ref.begin(), static_cast<long>(rng() % ref.size()))->first
                          : static_cast<index_t>(rng() % static_cast<std::uint64_t>(size));
    const long v = static_cast<long>(rng() % 5) + 5;  // 7 (the fill) erases
    const long old = ref.count(a) != 0 ? ref[a] : 7;
    REQUIRE(s.read(a) == old);
    s.write(a, s.read(a) + v - old);  // read-modify-write, as K(i, j) += v does
    if (v == 7) {
      ref.erase(a);
    } else {
      ref[a] = v;
    }
    if (step % 9999 == 0) {
      REQUIRE(s.nnz() == static_cast<index_t>(ref.size()));
    }
  }
  REQUIRE(s.nnz() == static_cast<index_t>(ref.size()));
  std::vector<std::pair<index_t, long>> seen;
  s.for_each_stored([&](index_t a, long v) { seen.emplace_back(a, v); });
  CHECK(seen == std::vector<std::pair<index_t, long>>(ref.begin(), ref.end()));
  // Copies and moves keep every element, pending inserts included.
  s.write(5, 1);
  SparseBuffer<long> copy = s;
  CHECK(copy.read(5) == 1);
  CHECK(copy.nnz() == s.nnz());
  SparseBuffer<long> moved = std::move(copy);
  CHECK(moved.read(5) == 1);
  CHECK(moved.nnz() == s.nnz());
}

TEST_CASE("SparseBuffer::from_entries takes sorted entries and checks them", "[buffer]") {
  const auto s =
      SparseBuffer<double>::from_entries(10, 0.0, {1, 4, 7}, std::vector<double>{2, 0, 3});
  CHECK(s.nnz() == 2);  // the fill value is not stored
  CHECK(s.read(7) == 3.0);
  const auto flags =
      SparseBuffer<bool>::from_entries(4, false, {0, 3}, std::vector<bool>{true, true});
  CHECK(flags.values().size() == 2);  // bool values are a real array
  strata::test::check_error<strata::IndexError>(
      [] {
        (void)SparseBuffer<double>::from_entries(10, 0.0, {1, 12}, std::vector<double>{1, 1});
      },
      "SparseBuffer::from_entries", "address 12 at position 1 is out of range");
  strata::test::check_error<strata::IndexError>(
      [] {
        (void)SparseBuffer<double>::from_entries(10, 0.0, {4, 4}, std::vector<double>{1, 1});
      },
      "SparseBuffer::from_entries", "position 1 is not above");
  strata::test::check_error<strata::ShapeError>(
      [] {
        (void)SparseBuffer<double>::from_entries(10, 0.0, {4}, std::vector<double>{1, 1});
      },
      "SparseBuffer::from_entries", "1 addresses for 2 values");
}

TEST_CASE("SparseBuffer keeps derived data until its entries change", "[buffer]") {
  SparseBuffer<double> s(100);
  s.write(3, 1.0);
  s.write(7, 2.0);
  int made = 0;
  // The derived datum here: the sum of the stored values, made by counting calls.
  const auto sum = [&] {
    ++made;
    double total = 0;
    s.for_each_stored([&](index_t, double v) { total += v; });
    return std::make_shared<const double>(total);
  };
  const strata::Index key{1, 2};
  CHECK(*s.derived<double>(key, sum) == 3.0);
  CHECK(*s.derived<double>(key, sum) == 3.0);
  CHECK(made == 1);  // kept
  // Another key, or another type under the same key, is another derivation.
  CHECK(*s.derived<double>(strata::Index{1, 3}, sum) == 3.0);
  CHECK(made == 2);
  CHECK(*s.derived<int>(key, [] { return std::make_shared<const int>(5); }) == 5);
  // A write of a stored value, an insert and an erasure each drop what is kept.
  s.write(3, 4.0);
  CHECK(*s.derived<double>(key, sum) == 6.0);
  CHECK(made == 3);
  s.write(50, 1.0);
  CHECK(*s.derived<double>(key, sum) == 7.0);
  s.write(7, 0.0);
  CHECK(*s.derived<double>(key, sum) == 5.0);
  CHECK(made == 5);
  // Copies and moves start with nothing kept (they never share it).
  SparseBuffer<double> copy = s;
  CHECK(*copy.derived<double>(key, [] { return std::make_shared<const double>(-1.0); }) == -1.0);
  SparseBuffer<double> moved = std::move(copy);
  CHECK(*moved.derived<double>(key, [] { return std::make_shared<const double>(-2.0); }) == -2.0);
  // At most four kinds are kept: the oldest goes first.
  for (index_t k = 10; k < 14; ++k) {
    (void)s.derived<double>(strata::Index{k}, sum);
  }
  const int before = made;
  CHECK(*s.derived<double>(key, sum) == 5.0);
  CHECK(made == before + 1);
}

}  // namespace test_buffer_sparse_buffer
