// Tests for strata/core/index.hpp.
#include "strata/core/index.hpp"

#include <catch2/catch.hpp>

#include <sstream>
#include <type_traits>

namespace test_core_index {

using strata::Index;
using strata::index_t;

TEST_CASE("index_t is a signed 64-bit integer", "[core]") {
  STATIC_REQUIRE(std::is_same_v<index_t, std::int64_t>);
}

TEST_CASE("Index holds up to six indices without allocating", "[core]") {
  Index idx{1, -2, 3, 4, 5, 6};
  CHECK(idx.size() == 6);
  CHECK(idx.capacity() == 6);
  CHECK(idx[1] == -2);
  idx.push_back(7);
  CHECK(idx.size() == 7);
  CHECK(idx.back() == 7);
}

TEST_CASE("to_string prints index lists as NumPy-like brackets", "[core]") {
  CHECK(strata::to_string(Index{}) == "[]");
  CHECK(strata::to_string(Index{7}) == "[7]");
  CHECK(strata::to_string(Index{0, -1, 2}) == "[0 -1 2]");
  CHECK(strata::to_string({2, 3}) == "[2 3]");
}

namespace {
strata::index_t sum(std::span<const strata::index_t> values) {
  strata::index_t total = 0;
  for (const auto v : values) {
    total += v;
  }
  return total;
}
}  // namespace

TEST_CASE("an Index prints as to_string shows it", "[core]") {
  std::ostringstream out;
  out << strata::Index{1, -2, 30} << ' ' << strata::Index{};
  CHECK(out.str() == "[1 -2 30] []");
  std::ostringstream spans;
  const strata::Index shape{4, 5};
  spans << strata::IndexSpan(shape) << ' ' << strata::IndexSpan{};
  CHECK(spans.str() == "[4 5] []");
}

TEST_CASE("Index converts to a span over its own values", "[core]") {
  Index idx{4, 5, 6};
  const std::span<const index_t> view = idx;
  CHECK(view.data() == idx.data());
  CHECK(view.size() == 3);
  CHECK(sum(idx) == 15);
  CHECK(sum(Index{}) == 0);
  const Index copy(view);
  CHECK(copy == idx);
  CHECK_FALSE(copy == Index{4, 5});
}

}  // namespace test_core_index
