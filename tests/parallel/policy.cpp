// Tests for strata/parallel/policy.hpp: chunked loops cover ranges exactly and deterministically.
#include "strata/parallel/policy.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace test_parallel_policy {

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

TEST_CASE("for_each_weighted_part gives every piece to exactly one part", "[parallel][weighted]") {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 100; ++trial) {
    const auto pieces = std::uniform_int_distribution<int>(0, 50)(rng);
    std::vector<strata::index_t> starts{0};
    for (int p = 0; p < pieces; ++p) {
      // Zipf-like: mostly small pieces, a few large, some empty.
      const int r = std::uniform_int_distribution<int>(0, 9)(rng);
      starts.push_back(starts.back() + (r == 0 ? 0 : r < 8 ? r : 100 * r));
    }
    std::vector<std::atomic<int>> seen(static_cast<std::size_t>(pieces));
    std::atomic<int> empty_parts{0};
    strata::parallel::for_each_weighted_part(strata::Parallel{4}, starts,
                                             [&](strata::index_t lo, strata::index_t hi) {
                                               empty_parts += lo < hi ? 0 : 1;
                                               for (strata::index_t p = lo; p < hi; ++p) {
                                                 seen[static_cast<std::size_t>(p)].fetch_add(1);
                                               }
                                             });
    for (const auto& s : seen) {
      CHECK(s.load() == 1);
    }
    CHECK(empty_parts.load() == 0);
  }
}

TEST_CASE("an exception thrown in a parallel loop reaches the caller on every thread count",
          "[parallel][errors]") {
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [] {
      const auto throw_at_5000 = [](index_t b, index_t e) {
        if (b <= 5000 && 5000 < e) {
          throw std::runtime_error("boom at 5000");
        }
      };
      CHECK_THROWS_WITH(strata::parallel::for_each_part(strata::Parallel{1}, 100000, throw_at_5000),
                        "boom at 5000");
      CHECK_THROWS_WITH(
          strata::parallel::for_each_chunk(strata::Parallel{1}, 100000, 64, throw_at_5000),
          "boom at 5000");
      std::vector<index_t> starts(101);
      for (std::size_t i = 0; i < starts.size(); ++i) {
        starts[i] = static_cast<index_t>(i) * 1000;
      }
      CHECK_THROWS_WITH(
          strata::parallel::for_each_weighted_part(strata::Parallel{1}, starts,
                                                   [](index_t lo, index_t hi) {
                                                     if (lo <= 5 && 5 < hi) {
                                                       throw std::runtime_error("piece 5");
                                                     }
                                                   }),
          "piece 5");
      CHECK_THROWS_WITH(strata::parallel::reduce_chunks(
                            strata::Parallel{1}, 100000, 64, 0,
                            [](index_t b, index_t e) -> int {
                              if (b <= 777 && 777 < e) {
                                throw std::runtime_error("chunk with 777");
                              }
                              return 1;
                            },
                            [](int a, int b) { return a + b; }),
                        "chunk with 777");
    });
  }
}

TEST_CASE("a grain below one splits as a grain of one", "[parallel]") {
  std::vector<std::atomic<int>> hits(1000);
  strata::parallel::for_each_part(strata::Parallel{0}, 1000, [&](index_t b, index_t e) {
    for (index_t i = b; i < e; ++i) {
      ++hits[static_cast<std::size_t>(i)];
    }
  });
  strata::parallel::for_each_chunk(strata::Parallel{-3}, 1000, 7, [&](index_t b, index_t e) {
    for (index_t i = b; i < e; ++i) {
      ++hits[static_cast<std::size_t>(i)];
    }
  });
  for (const auto& h : hits) {
    REQUIRE(h == 2);
  }
}

TEST_CASE("Parallel::threads caps the threads and parts of a loop", "[parallel]") {
  // Parts of for_each_part: min(threads, n / grain) whatever OpenMP's count; a loop's
  // distinct threads at most `threads`.
  const index_t n = 1000;
  for (const int threads : {1, 2, 3}) {
    strata::test::with_threads(4, [&] {
      std::atomic<int> parts{0};
      strata::parallel::for_each_part(strata::Parallel{10, threads}, n,
                                      [&](index_t, index_t) { ++parts; });
      CHECK(parts == threads);
      std::mutex mutex;
      std::set<std::thread::id> seen;
      strata::parallel::for_each_chunk(strata::Parallel{10, threads}, n, 10, [&](index_t, index_t) {
        const std::lock_guard<std::mutex> lock(mutex);
        seen.insert(std::this_thread::get_id());
      });
      CHECK(std::cmp_less_equal(seen.size(), threads));
    });
  }
  // threads = 0: OpenMP's count (1 without OpenMP).
  strata::test::with_threads(2, [&] {
    std::atomic<int> parts{0};
    strata::parallel::for_each_part(strata::Parallel{10}, n, [&](index_t, index_t) { ++parts; });
    CHECK(parts == strata::parallel::max_threads());
  });
}

}  // namespace test_parallel_policy
