// Tests for strata/tensor/algorithms.hpp: map, zip_with, reductions, for_each, transform.
#include "strata/tensor/algorithms.hpp"
#include "strata/expr/reduce.hpp"

#include "strata/tensor/generators.hpp"
#include "strata/tensor/sparse.hpp"
#include "threads.hpp"

#include "layout/view_helpers.hpp"

#include <catch2/catch.hpp>

#include <cstdint>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>

namespace test_tensor_algorithms {

using Catch::Matchers::Contains;
using strata::Index;
using strata::index_t;
using strata::Tensor;

TEST_CASE("map and zip_with build new dense tensors", "[tensor]") {
  const Tensor<int> t{{0, 1, 2}, {3, 4, 5}};
  CHECK(strata::map(t, [](int x) { return x * 2; }).to_vector() ==
        std::vector<int>{0, 2, 4, 6, 8, 10});
  CHECK(strata::map(t.transpose(), [](int x) { return x + 0.5; }).to_vector() ==
        std::vector<double>{0.5, 3.5, 1.5, 4.5, 2.5, 5.5});
  const auto sum = strata::zip_with(t, Tensor<int>::of({10, 20}).unsqueeze(1), std::plus<>{});
  CHECK(sum.shape() == Index{2, 3});
  CHECK(sum.to_vector() == std::vector<int>{10, 11, 12, 23, 24, 25});
  const auto outer = strata::zip_with(Tensor<int>::of({1, 2}).unsqueeze(1),
                                      Tensor<int>::of({1, 10, 100}), std::multiplies<>{});
  CHECK(outer.to_vector() == std::vector<int>{1, 10, 100, 2, 20, 200});
  CHECK_THROWS_AS(strata::zip_with(t, Tensor<int>::of({1, 2}), std::plus<>{}),
                  strata::BroadcastError);
  CHECK_THROWS_WITH(strata::zip_with(t, Tensor<int>::of({1, 2}), std::plus<>{}),
                    Contains("zip_with: ") && Contains("[2 3]") && Contains("[2]"));
}

TEST_CASE("zip_with_into writes into an existing view", "[tensor]") {
  Tensor<int> out(Index{2, 3});
  const Tensor<int> a{{0, 1, 2}, {3, 4, 5}};
  strata::zip_with_into(out, a, Tensor<int>::of({10, 20, 30}), std::plus<>{});
  CHECK(out.to_vector() == std::vector<int>{10, 21, 32, 13, 24, 35});
  auto column = out.select({strata::all, 0});
  strata::zip_with_into(column, Tensor<int>::of({1, 2}), Tensor<int>::of({100}),
                        std::multiplies<>{});
  CHECK(out.to_vector() == std::vector<int>{100, 21, 32, 200, 24, 35});
  const auto before = out.to_vector();
  CHECK_THROWS_AS(strata::zip_with_into(out, a, Tensor<int>(Index{2, 2}), std::plus<>{}),
                  strata::BroadcastError);
  CHECK_THROWS_WITH(strata::zip_with_into(out, a, Tensor<int>(Index{2, 2}), std::plus<>{}),
                    Contains("zip_with: ") && Contains("[2 2]"));
  SECTION("an output that overlaps an input reads the input first") {
    Tensor<int> v = Tensor<int>::of({1, 2, 3, 4});
    auto head = v.select({strata::Range{1}});
    strata::zip_with_into(head, v.select({strata::Range{0, 3}}), Tensor<int>::of({10}),
                          std::plus<>{});
    CHECK(v.to_vector() == std::vector<int>{1, 11, 12, 13});
    // In place through the output's own map (no copy needed) and through a transposed map.
    Tensor<int> w{{1, 2}, {3, 4}};
    strata::zip_with_into(w, w, Tensor<int>::of({10, 20}), std::plus<>{});
    CHECK(w.to_vector() == std::vector<int>{11, 22, 13, 24});
    strata::zip_with_into(w, w, w.transpose(), std::minus<>{});
    CHECK(w.to_vector() == std::vector<int>{0, 9, -9, 0});
    auto big = strata::iota<int>({300, 300}).copy();
    strata::zip_with_into(big, big, big, std::plus<>{});  // above the parallel grain
    CHECK(big(299, 299) == 2 * (300 * 300 - 1));
    CHECK(big(1, 0) == 600);
  }
  auto aliased = out.select({0}).broadcast({2, 3});
  CHECK_THROWS_AS(strata::zip_with_into(aliased, a, a, std::plus<>{}), strata::LayoutError);
  CHECK(out.to_vector() == before);
}

TEST_CASE("reductions follow NumPy along any axes", "[tensor]") {
  const Tensor<int> t{{{0, 1, 2}, {3, 4, 5}}, {{6, 7, 8}, {9, 10, 11}}};  // 2x2x3
  // int sums in int64, as NumPy's
  using I64 = std::int64_t;
  CHECK(strata::sum(t, {0}).to_vector() == std::vector<I64>{6, 8, 10, 12, 14, 16});
  CHECK(strata::sum(t, {-1}).to_vector() == std::vector<I64>{3, 12, 21, 30});
  CHECK(strata::sum(t, {0, 2}).to_vector() == std::vector<I64>{24, 42});
  CHECK(strata::sum(t, {0, 1, 2}).at({}) == 66);
  CHECK(strata::sum(t, {1}, true).shape() == Index{2, 1, 3});
  CHECK(strata::sum(t, {}).to_vector() == strata::evaluate<I64>(t + 0).to_vector());
  CHECK(strata::prod(Tensor<int>{{1, 2}, {3, 4}}, {1}).to_vector() == std::vector<I64>{2, 12});
  CHECK(strata::min(t.reverse(), {0, 1}).to_vector() == std::vector<int>{2, 1, 0});
  CHECK(strata::max(t, {2}).to_vector() == std::vector<int>{2, 5, 8, 11});
  CHECK(strata::sum(Tensor<int>(Index{0, 3}), {0}).to_vector() == std::vector<I64>{0, 0, 0});
  CHECK(strata::reduce(strata::seq, t, 0, std::plus<>{}) == 66);
  SECTION("bad axes") {
    CHECK_THROWS_AS(strata::sum(t, {3}), strata::IndexError);
    CHECK_THROWS_WITH(strata::sum(t, {3}), Contains("sum: axis 3"));
    CHECK_THROWS_AS(strata::sum(t, {1, -2}), strata::IndexError);
    CHECK_THROWS_WITH(strata::sum(t, {1, -2}), Contains("sum: axes [1 -2] name axis 1 twice"));
  }
}

TEST_CASE("parallel reductions give the same bits as sequential ones", "[tensor][property]") {
  const auto data = strata::random<float>({300, 257}, 9).copy();
  for (const auto& axes : {Index{0}, Index{1}, Index{0, 1}}) {
    const auto s = strata::reduce(data, axes, 0.0F, std::plus<float>{}, false, strata::seq);
    const auto p =
        strata::reduce(data, axes, 0.0F, std::plus<float>{}, false, strata::Parallel{64});
    const auto sv = s.to_vector();
    const auto pv = p.to_vector();
    REQUIRE(sv.size() == pv.size());
    CHECK(std::memcmp(sv.data(), pv.data(), sv.size() * sizeof(float)) == 0);
  }
  // And the sums are right (to float rounding) against a double-precision loop.
  const auto col = strata::sum(data, {0}).to_vector();
  for (index_t j = 0; j < 257; j += 64) {
    double total = 0;
    for (index_t i = 0; i < 300; ++i) {
      total += data(i, j);
    }
    CHECK(col[static_cast<std::size_t>(j)] == Approx(total).epsilon(1e-5));
  }
}

TEST_CASE("for_each, transform and allclose", "[tensor]") {
  const Tensor<int> t{{1, 2}, {3, 4}};
  std::atomic<int> total{0};
  strata::for_each(strata::par, t.transpose(), [&](int x) { total += x; });
  CHECK(total == 10);
  Tensor<double> out(Index{2, 2});
  strata::transform(strata::seq, t, out, [](int x) { return x / 2.0; });
  CHECK(out.to_vector() == std::vector<double>{0.5, 1.0, 1.5, 2.0});
  CHECK(strata::allclose(out, Tensor<double>{{0.5, 1.0}, {1.5, 2.0 + 1e-9}}));
  CHECK_FALSE(strata::allclose(out, Tensor<double>{{0.5, 1.0}, {1.5, 2.1}}));
  CHECK(strata::allclose(
            out, Tensor<double>{{0.5, 1.0}, {1.5, 2.0}}.select({0}).broadcast({2, 2})) == false);
}

TEST_CASE("the 8-lane float sum agrees with a double-precision loop on random rows",
          "[tensor][property]") {
  std::mt19937_64 rng(2024);
  for (int trial = 0; trial < 60; ++trial) {
    const index_t rows = std::uniform_int_distribution<index_t>(1, 40)(rng);
    const index_t cols = std::uniform_int_distribution<index_t>(16, 2100)(rng);
    const index_t skip = std::uniform_int_distribution<index_t>(0, 7)(rng);
    const auto data =
        strata::random<float>({rows, cols + skip}, static_cast<std::uint64_t>(trial)).copy();
    // A view whose rows start mid-array (unaligned), reduced along the contiguous axis.
    const auto view = data.select({strata::all, strata::Range{skip}});
    const auto sums = strata::sum(view, {1}).to_vector();
    for (index_t i = 0; i < rows; ++i) {
      double exact = 0;
      double magnitude = 0;
      for (index_t j = 0; j < cols; ++j) {
        exact += static_cast<double>(view(i, j));
        magnitude += std::abs(static_cast<double>(view(i, j)));
      }
      INFO("rows " << rows << " cols " << cols << " skip " << skip << " row " << i);
      REQUIRE(std::abs(static_cast<double>(sums[static_cast<std::size_t>(i)]) - exact) <=
              1e-5 * magnitude + 1e-6);
    }
  }
}

TEST_CASE("allclose treats equal infinities as close and NaN as never close", "[tensor]") {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(
      strata::allclose(Tensor<double>::of({inf, -inf, 1.0}), Tensor<double>::of({inf, -inf, 1.0})));
  CHECK_FALSE(strata::allclose(Tensor<double>::of({inf}), Tensor<double>::of({-inf})));
  CHECK_FALSE(strata::allclose(Tensor<double>::of({inf}), Tensor<double>::of({1e308})));
  CHECK_FALSE(strata::allclose(Tensor<double>::of({nan}), Tensor<double>::of({nan})));
  CHECK(strata::allclose(Tensor<float>::of({1.0F, 2.0F}), Tensor<double>::of({1.0, 2.0})));
}

TEST_CASE("exceptions thrown by callbacks under par reach the caller", "[tensor][errors]") {
  const auto data = strata::iota<int>({300, 1000}).copy();
  const auto boom = [](int x) {
    if (x == 123456) {
      throw std::runtime_error("callback saw 123456");
    }
    return x;
  };
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      INFO(threads << " threads");
      CHECK_THROWS_WITH(strata::map(data, boom, strata::Parallel{1}), "callback saw 123456");
      CHECK_THROWS_WITH(strata::zip_with(
                            data, data, [&](int x, int) { return boom(x); }, strata::Parallel{1}),
                        "callback saw 123456");
      CHECK_THROWS_WITH(strata::for_each(strata::Parallel{1}, data, [&](int x) { (void)boom(x); }),
                        "callback saw 123456");
      Tensor<int> out(Index{300, 1000});
      CHECK_THROWS_WITH(strata::transform(strata::Parallel{1}, data, out, boom),
                        "callback saw 123456");
      const auto larger = [&](int a, int x) { return std::max(a, boom(x)); };
      CHECK_THROWS_WITH(strata::reduce(strata::Parallel{1}, data, 0, larger),
                        "callback saw 123456");
      CHECK_THROWS_WITH(strata::reduce(data, {0}, 0, larger, false, strata::Parallel{1}),
                        "callback saw 123456");
      CHECK(out.to_vector() == std::vector<int>(300000, 0));  // transform wrote nothing
    });
  }
}

TEST_CASE("algorithms use a user buffer from one thread only", "[tensor][parallel]") {
  using Recording = strata::test::ThreadRecordingBuffer<int>;
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      Recording source(std::vector<int>(200000, 1));
      const Tensor<int> t(strata::AnyBuffer<int>::shared(std::make_shared<Recording>(source)),
                          strata::Dimensions{400, 500});
      CHECK(strata::sum(t, {0, 1}).at({}) == 200000);
      CHECK(strata::map(
                t, [](int x) { return x + 1; }, strata::Parallel{1})
                .at({3, 3}) == 2);
      std::atomic<int> seen{0};
      strata::for_each(strata::Parallel{1}, t, [&](int) { ++seen; });
      CHECK(seen == 200000);
      Recording sink(std::vector<int>(200000, 0));
      Tensor<int> out(strata::AnyBuffer<int>::shared(std::make_shared<Recording>(sink)),
                      strata::Dimensions{400, 500});
      strata::zip_with_into(out, t, t, std::plus<>{}, strata::Parallel{1});
      out.fill(3, strata::Parallel{1});
      out.assign(t.transpose().copy().transpose(), strata::Parallel{1});
      CHECK(out.copy(strata::Parallel{1}).at({399, 499}) == 1);
      CHECK(source.thread_count() == 1);
      CHECK(sink.thread_count() == 1);
      // A sparse destination above the grain: written from one thread (TSan checks), right.
      auto sparse = strata::sparse<int>({400, 500});
      strata::zip_with_into(sparse, t, t, std::plus<>{}, strata::Parallel{1});
      CHECK(sparse.at({399, 499}) == 2);
      sparse.fill(0, strata::Parallel{1});
      sparse.select({strata::Range{0, 200}})
          .assign(t.select({strata::Range{200, 400}}), strata::Parallel{1});
      CHECK(sparse.at({199, 0}) == 1);
      CHECK(sparse.at({200, 0}) == 0);
    });
  }
}

TEST_CASE("zip_with_into in place agrees with element-wise reads on random views",
          "[tensor][property]") {
  std::mt19937_64 rng(31);
  for (int trial = 0; trial < 400; ++trial) {
    const strata::Dimensions d = strata::test::random_view(rng, 5);
    if (d.aliases()) {
      continue;
    }
    const auto addresses = strata::test::addresses(d);
    const index_t span =
        addresses.empty() ? 1 : *std::max_element(addresses.begin(), addresses.end()) + 1;
    std::vector<int> values(static_cast<std::size_t>(span));
    for (auto& v : values) {
      v = static_cast<int>(rng() % 100);
    }
    const Tensor<int> base = Tensor<int>::from_vector(values, {span});
    Tensor<int> view(base.buffer(), d);
    INFO("view " << d);
    const std::vector<int> before = view.to_vector();
    // The second input: a fresh tensor of the view's shape, its last row broadcast, or the
    // view itself (both inputs in place).
    const index_t kind = strata::test::uniform(rng, 0, 2);
    Tensor<int> other = kind == 2 ? view : strata::map(view, [](int x) { return 3 * x + 1; });
    if (kind == 1 && view.rank() > 0 && view.shape()[0] > 0) {
      other.rebind(other.select({view.shape()[0] - 1}).unsqueeze(0).copy());
    }
    const std::vector<int> other_values = other.broadcast(view.shape()).to_vector();
    const auto f = [](int x, int y) { return 2 * x - y; };
    strata::test::with_threads(2, [&] { strata::zip_with_into(view, view, other, f); });
    const std::vector<int> after = base.to_vector();
    for (std::size_t k = 0; k < addresses.size(); ++k) {
      REQUIRE(after[static_cast<std::size_t>(addresses[k])] == f(before[k], other_values[k]));
    }
  }
}

}  // namespace test_tensor_algorithms
