// Tests for strata/parallel/policy.hpp: chunked loops cover ranges exactly and deterministically.
#include "strata/parallel/policy.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <vector>

using strata::index_t;

TEST_CASE("for_each_chunk and for_each_part cover the range exactly once", "[parallel]") {
  for (const index_t n : {0, 1, 7, 1000, 100003}) {
    std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
    strata::parallel::for_each_chunk(strata::Parallel{16}, n, 97, [&](index_t b, index_t e) {
      for (index_t i = b; i < e; ++i) {
        ++hits[static_cast<std::size_t>(i)];
      }
    });
    strata::parallel::for_each_part(strata::Parallel{16}, n, [&](index_t b, index_t e) {
      for (index_t i = b; i < e; ++i) {
        ++hits[static_cast<std::size_t>(i)];
      }
    });
    for (const auto& h : hits) {
      REQUIRE(h == 2);
    }
  }
}

TEST_CASE("reduce_chunks gives the same bits under seq and par", "[parallel]") {
  const index_t n = 1'000'003;
  const auto chunk_sum = [](index_t b, index_t e) {
    float s = 0;
    for (index_t i = b; i < e; ++i) {
      s += 1.0F / static_cast<float>(i + 1);
    }
    return s;
  };
  const auto plus = [](float a, float b) { return a + b; };
  const float s = strata::parallel::reduce_chunks(strata::seq, n, 4096, 0.0F, chunk_sum, plus);
  const float p =
      strata::parallel::reduce_chunks(strata::Parallel{1}, n, 4096, 0.0F, chunk_sum, plus);
  CHECK(s == p);
  CHECK(s > 14.0F);
  CHECK(strata::parallel::max_threads() >= 1);
}
