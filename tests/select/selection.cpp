// Tests for strata/select/: concat, interleave, repeat, tile, pad, where, minimum, maximum;
// explain(); errors; block-wise evaluation equals element-wise reading on random trees.
#include "strata/select/selection.hpp"
#include "strata/select/concat.hpp"
#include "strata/select/pad.hpp"
#include "strata/select/repeat.hpp"
#include "strata/select/where.hpp"
#include "strata/tensor/generators.hpp"

#include "check_error.hpp"
#include "layout/view_helpers.hpp"
#include "strata/tensor/sparse.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>

namespace test_select_selection {

using Catch::Matchers::Contains;
using strata::Index;
using strata::index_t;
using strata::PadMode;
using strata::Selection;
using strata::Tensor;
using V = std::vector<int>;

namespace {
const Tensor<int> a = strata::iota<int>({2, 3}).copy();  // [[0 1 2] [3 4 5]]
const Tensor<int> b = Tensor<int>{{10, 11, 12}};

/// Every element through at(), in row-major order: the element-wise reference.
template <class T>
std::vector<T> read_each(const Selection<T>& s) {
  std::vector<T> out;
  if (s.size() == 0) {
    return out;
  }
  const Index shape = s.shape();
  const index_t size = s.size();
  Index g(shape.size(), 0);
  for (index_t i = 0; i < size; ++i) {
    out.push_back(s.at(g));
    for (std::size_t k = g.size(); k-- > 0;) {
      if (++g[k] < shape[k]) {
        break;
      }
      g[k] = 0;
    }
  }
  return out;
}
}  // namespace

TEST_CASE("concat and interleave stack sources", "[select]") {
  const auto c = strata::concat<int>(0, {a, b, a});
  CHECK(c.shape() == Index{5, 3});
  CHECK(c.materialize().to_vector() == V{0, 1, 2, 3, 4, 5, 10, 11, 12, 0, 1, 2, 3, 4, 5});
  CHECK(c.at({2, -1}) == 12);
  CHECK(strata::concat<int>(-1, {a, a}).materialize().to_vector() ==
        V{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5});
  const auto i = strata::interleave<int>(0, {a, a.reverse({0})});
  CHECK(i.materialize().to_vector() == V{0, 1, 2, 3, 4, 5, 3, 4, 5, 0, 1, 2});
  CHECK(strata::interleave<int>(1, {a, b.broadcast({2, 3})}).materialize().to_vector() ==
        V{0, 10, 1, 11, 2, 12, 3, 10, 4, 11, 5, 12});
}

TEST_CASE("repeat and tile", "[select]") {
  CHECK(strata::repeat(a, 2, 1).materialize().to_vector() == V{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5});
  CHECK(strata::repeat(a, 0, 0).shape() == Index{0, 3});
  CHECK(strata::tile(a, {2}).materialize().to_vector() == V{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5});
  CHECK(strata::tile(a, {2, 1, 1}).shape() == Index{2, 2, 3});
  CHECK(strata::tile(a, {0, 2}).shape() == Index{0, 6});
}

TEST_CASE("pad matches numpy.pad in every mode", "[select]") {
  const Tensor<int> v = Tensor<int>::of({1, 2, 3});
  const auto padded = [&](PadMode mode, index_t before, index_t after) {
    return strata::pad(v, {{before, after}}, mode, 0).materialize().to_vector();
  };
  // Expected values printed by numpy.pad([1, 2, 3], (before, after), mode).
  CHECK(padded(PadMode::constant, 2, 1) == V{0, 0, 1, 2, 3, 0});
  CHECK(padded(PadMode::edge, 2, 1) == V{1, 1, 1, 2, 3, 3});
  CHECK(padded(PadMode::reflect, 2, 2) == V{3, 2, 1, 2, 3, 2, 1});
  CHECK(padded(PadMode::symmetric, 2, 2) == V{2, 1, 1, 2, 3, 3, 2});
  CHECK(padded(PadMode::wrap, 2, 2) == V{2, 3, 1, 2, 3, 1, 2});
  // Widths larger than the axis follow NumPy's iterative algorithm.
  CHECK(padded(PadMode::reflect, 5, 0) == V{2, 1, 2, 3, 2, 1, 2, 3});
  CHECK(strata::pad(Tensor<int>::of({0, 1}), {{1, 3}}, PadMode::wrap).materialize().to_vector() ==
        V{1, 0, 1, 0, 1, 1});
  const auto m = strata::pad(a, {{1, 0}, {0, 2}}, PadMode::constant, -1);
  CHECK(m.materialize().to_vector() == V{-1, -1, -1, -1, -1, 0, 1, 2, -1, -1, 3, 4, 5, -1, -1});
}

TEST_CASE("where, minimum and maximum broadcast", "[select]") {
  const auto w = strata::where(Tensor<int>::of({1, 0, 1}), a, strata::full<int>({1}, -1));
  CHECK(w.materialize().to_vector() == V{0, -1, 2, 3, -1, 5});
  CHECK(strata::minimum(a, Tensor<int>::of({2})).materialize().to_vector() == V{0, 1, 2, 2, 2, 2});
  CHECK(strata::maximum(a, b).materialize().to_vector() == V{10, 11, 12, 10, 11, 12});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto x = strata::maximum(Tensor<double>::of({1.0, nan}), Tensor<double>::of({nan, 0.0}));
  const auto values = x.materialize().to_vector();
  CHECK(std::isnan(values[0]));
  CHECK(std::isnan(values[1]));
}

TEST_CASE("views of selections stay lazy and fuse", "[select]") {
  const auto c = strata::concat<int>(0, {a, b});
  const auto t = c.transpose();
  CHECK_THAT(t.explain(), Contains("concat axis 1"));  // pushed into the sources
  CHECK(t.materialize().to_vector() == V{0, 3, 10, 1, 4, 11, 2, 5, 12});
  const auto s = c.select({strata::Range{1, 3}}).reverse({1}).select({strata::all, 0});
  CHECK(s.materialize().to_vector() == V{5, 12});
  // The slice, the reversal and the index are pushed into the concat's sources: no view node.
  CHECK_THAT(s.explain(), !Contains("view"));
  // A reshape of a composite node cannot be pushed: it becomes one view node, and a chain of
  // views on it fuses into that node.
  const auto r = c.reshape({9}).reverse({0}).select({strata::Range{1}});
  CHECK(r.materialize().to_vector() == V{11, 10, 5, 4, 3, 2, 1, 0});
  const std::string tree = r.explain();
  CHECK(tree.find("view") != std::string::npos);
  CHECK(tree.find("view") == tree.rfind("view"));
  // A leaf's views fuse into its own Dimensions: no view node at all.
  CHECK_THAT(Selection<int>(a).transpose().select({0}).explain(), !Contains("view"));
}

TEST_CASE("generators are leaves that allocate nothing", "[select]") {
  const auto z = strata::concat<double>(
      0, {strata::zeros<double>({1'000'000, 4}), strata::ones<double>({2, 4})});
  CHECK(z.shape() == Index{1'000'002, 4});
  CHECK(z.at({1'000'001, 3}) == 1.0);
  CHECK(z.at({5, 3}) == 0.0);
}

TEST_CASE("materialising into a strided view", "[select]") {
  Tensor<int> big(Index{4, 6});
  auto window = big.select({strata::Range{{}, {}, 2}, strata::Range{1, 4}}).transpose();  // 3x2
  strata::concat<int>(
      1, {Tensor<int>::of({1, 2, 3}).unsqueeze(1), Tensor<int>::of({4, 5, 6}).unsqueeze(1)})
      .assign_to(window);
  CHECK(big.to_vector() ==
        V{0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0});
}

TEST_CASE("large selections evaluate their blocks on several threads", "[select][property]") {
  // Above the grain size blocks run in parallel; the result must not change.
  const auto big = strata::iota<int>({300, 250});
  const auto c = strata::concat<int>(0, {big, big.reverse({1}), strata::full<int>({10, 250}, -1)});
  const auto p = strata::pad(c, {{7, 300}, {260, 3}}, PadMode::symmetric);
  const auto i = strata::interleave<int>(1, {c, c.transpose().transpose()});
  const auto rows = strata::interleave<int>(0, {big, big.reverse({0}), big.rotate(5, 1)});
  REQUIRE(rows.materialize().to_vector() == read_each(rows));
  // Plain sources with contiguous rows take the row fast path, in parallel chunks.
  const Tensor<int> dense = big.copy();
  const auto plain = strata::interleave<int>(0, {dense, dense.reverse({0}), dense.copy()});
  REQUIRE(plain.materialize().to_vector() == read_each(plain));
  for (const auto& s : {p, i}) {
    INFO(s.explain());
    REQUIRE(s.materialize().to_vector() == read_each(s));
  }
  // A tensor source is padded in chunks of rows (65536 elements each: four chunks here).
  const auto tall = strata::iota<int>({2000, 50}).copy();
  for (const PadMode mode : {PadMode::reflect, PadMode::wrap, PadMode::constant}) {
    const auto t = strata::pad(tall, {{3, 70}, {60, 2}}, mode, -3);
    REQUIRE(t.materialize().to_vector() == read_each(t));
  }
  const auto constant = strata::pad(c, {{100, 100}, {100, 100}}, PadMode::constant, 5);
  REQUIRE(constant.materialize().to_vector() == read_each(constant));
}

TEST_CASE("pads of random matrix views (the row fast path and the slab path) read as at()",
          "[select][property]") {
  // Rank-2 views with negative strides, broadcasts, rolls, index arrays, size-0 and size-1
  // axes; the row fast path takes the plain ones with contiguous rows, the slabs the rest.
  std::mt19937_64 rng(99);
  using strata::test::uniform;
  const std::array<PadMode, 5> modes{PadMode::constant, PadMode::edge, PadMode::reflect,
                                     PadMode::symmetric, PadMode::wrap};
  int tried = 0;
  while (tried < 400) {
    const strata::Dimensions d = strata::test::random_view(rng, 4);
    if (d.rank() != 2) {
      continue;
    }
    ++tried;
    const auto addresses = strata::test::addresses(d);
    const index_t extent =
        addresses.empty() ? 1 : *std::max_element(addresses.begin(), addresses.end()) + 1;
    std::vector<int> values(static_cast<std::size_t>(extent));
    std::iota(values.begin(), values.end(), 0);
    const Tensor<int> leaf(strata::AnyBuffer<int>(strata::DenseBuffer<int>(values)), d);
    const PadMode mode =
        d.size() == 0 ? PadMode::constant : modes[static_cast<std::size_t>(uniform(rng, 0, 4))];
    const auto p = strata::pad(
        leaf, {{uniform(rng, 0, 5), uniform(rng, 0, 5)}, {uniform(rng, 0, 5), uniform(rng, 0, 5)}},
        mode, -1);
    INFO(d << " " << p.explain());
    const auto expected = read_each(p);
    REQUIRE(p.materialize().to_vector() == expected);
    Tensor<int> target(Index{p.shape()[1], p.shape()[0]});
    auto view = target.transpose();  // rows not contiguous: the slab path
    p.assign_to(view);
    REQUIRE(view.to_vector() == expected);
  }
}

TEST_CASE("interleaves of random views (the row fast path and the block path) read as at()",
          "[select][property]") {
  std::mt19937_64 rng(123);
  using strata::test::uniform;
  int tried = 0;
  while (tried < 300) {
    const strata::Dimensions d = strata::test::random_view(rng, 4);
    if (d.rank() == 0) {
      continue;
    }
    ++tried;
    const auto addresses = strata::test::addresses(d);
    const index_t extent =
        addresses.empty() ? 1 : *std::max_element(addresses.begin(), addresses.end()) + 1;
    std::vector<Selection<int>> sources;
    const auto k = uniform(rng, 1, 3);
    for (index_t s = 0; s < k; ++s) {
      std::vector<int> values(static_cast<std::size_t>(extent));
      std::iota(values.begin(), values.end(), static_cast<int>(1000 * s));
      const Tensor<int> t(strata::AnyBuffer<int>(strata::DenseBuffer<int>(values)), d);
      sources.emplace_back(uniform(rng, 0, 2) == 0 ? t.copy() : t);
    }
    const auto i = strata::interleave<int>(uniform(rng, 0, d.rank() - 1), sources);
    INFO(d << " " << i.explain());
    REQUIRE(i.materialize().to_vector() == read_each(i));
  }
}

TEST_CASE("a selection written into one of its own sources reads it first", "[select]") {
  Tensor<int> t = Tensor<int>::of({1, 2, 3, 4});
  auto reversed_halves = strata::concat<int>(
      0, {t.select({strata::Range{2}}).reverse({0}), t.select({strata::Range{0, 2}}).reverse({0})});
  reversed_halves.assign_to(t);
  CHECK(t.to_vector() == V{4, 3, 2, 1});
  Tensor<int> u = Tensor<int>::of({1, 2, 3});
  strata::pad(u.select({strata::Range{0, 1}}), {{1, 1}}, PadMode::edge).assign_to(u);
  CHECK(u.to_vector() == V{1, 1, 1});
  Tensor<int> w = Tensor<int>::of({5, 1, 7});
  strata::maximum(w.reverse({0}), Tensor<int>::of({2})).assign_to(w);
  CHECK(w.to_vector() == V{7, 2, 5});
}

TEST_CASE("bad selections are rejected and change nothing", "[select][errors]") {
  CHECK_THROWS_AS(strata::concat<int>(0, {a, Tensor<int>::of({1, 2})}), strata::ShapeError);
  CHECK_THROWS_WITH(strata::concat<int>(0, {a, Tensor<int>(Index{2, 4})}),
                    Contains("concat: ") && Contains("[2 4]"));
  CHECK_THROWS_AS(strata::interleave<int>(0, {a, Tensor<int>(Index{3, 3})}), strata::ShapeError);
  CHECK_THROWS_AS(strata::concat<int>(2, {a, a}), strata::IndexError);
  CHECK_THROWS_WITH(strata::concat<int>(2, {a, a}), Contains("concat: axis 2"));
  CHECK_THROWS_AS(strata::interleave<int>(-3, {a}), strata::IndexError);
  CHECK_THROWS_AS(strata::pad(a, {{1, 1}}), strata::ShapeError);
  CHECK_THROWS_WITH(strata::pad(a, {{1, 1}, {0, -1}}), Contains("pad: negative width"));
  CHECK_THROWS_AS(strata::pad(Tensor<int>(Index{0}), {{1, 0}}, PadMode::wrap), strata::ShapeError);
  CHECK_THROWS_AS(strata::repeat(a, -1, 0), strata::ShapeError);
  CHECK_THROWS_WITH(strata::repeat(a, -1, 0), Contains("repeat: count -1"));
  CHECK_THROWS_AS(strata::repeat(a, 2, 5), strata::IndexError);
  CHECK_THROWS_AS((strata::where(Tensor<int>::of({1, 0}), a, a)), strata::BroadcastError);
  CHECK_THROWS_WITH(strata::minimum(a, Tensor<int>::of({1, 2})),
                    Contains("minimum: ") && Contains("[2]"));
  CHECK_THROWS_AS(strata::maximum(a, Tensor<int>(Index{3, 3})), strata::BroadcastError);
  const auto c = strata::concat<int>(0, {a, b});
  CHECK_THROWS_AS(c.assign(b), strata::LayoutError);
  CHECK_THROWS_WITH(c.assign(b), Contains("assign: ") && Contains("read-only"));
  Tensor<int> wrong(Index{2, 2});
  CHECK_THROWS_AS(c.assign_to(wrong), strata::BroadcastError);  // broadcasts, as assign
  CHECK(wrong.to_vector() == V{0, 0, 0, 0});
  CHECK(a.to_vector() == V{0, 1, 2, 3, 4, 5});
}

namespace {

/// Random selection trees of depth 3 over 2-D int tensors (every node kind, views between).
struct RandomTrees {
  std::mt19937_64 rng;
  explicit RandomTrees(std::uint64_t seed) : rng(seed) {}

  Tensor<int> leaf(const Index& shape) {
    using strata::test::uniform;
    std::vector<int> values(static_cast<std::size_t>(strata::checked_size(shape, "test")));
    for (auto& v : values) {
      v = static_cast<int>(rng() % 100);
    }
    Tensor<int> t = Tensor<int>::from_vector(values, shape);
    return uniform(rng, 0, 1) == 1 && t.rank() > 0 ? t.reverse({0}) : t;
  }

  Selection<int> tree() {
    using strata::test::uniform;
    const std::array<PadMode, 5> modes{PadMode::constant, PadMode::edge, PadMode::reflect,
                                       PadMode::symmetric, PadMode::wrap};
    const Index shape{uniform(rng, 1, 4), uniform(rng, 1, 4)};
    Selection<int> s = leaf(shape);
    for (int depth = 0; depth < 3; ++depth) {
      const Index sh = s.shape();
      switch (uniform(rng, 0, 7)) {
        case 0: {
          Index other = sh;
          other[0] = uniform(rng, 0, 3);
          s = strata::concat<int>(0, {s, leaf(other)});
          break;
        }
        case 1:
          s = strata::interleave<int>(uniform(rng, 0, 1), {s, leaf(sh)});
          break;
        case 2:
          s = strata::repeat(s, uniform(rng, 0, 3), uniform(rng, 0, 1));
          break;
        case 3:
          s = strata::pad(s, {{uniform(rng, 0, 4), uniform(rng, 0, 4)}, {uniform(rng, 0, 3), 1}},
                          sh[0] == 0 || sh[1] == 0
                              ? PadMode::constant
                              : modes[static_cast<std::size_t>(uniform(rng, 0, 4))],
                          -7);
          break;
        case 4:
          s = s.transpose();
          break;
        case 5:
          if (sh[0] > 0) {
            s = s.select({strata::Range{{}, {}, -1 - uniform(rng, 0, 1)}});
          }
          break;
        case 6:
          s = strata::where(leaf({1, sh[1]}), s, leaf({sh[0], 1}));
          break;
        default:
          s = strata::maximum(s, leaf({sh[1]}));
          break;
      }
    }
    return s;
  }
};

}  // namespace

TEST_CASE("block-wise evaluation equals element-wise reading on random trees",
          "[select][property]") {
  RandomTrees random(606);
  for (int trial = 0; trial < 400; ++trial) {
    const Selection<int> s = random.tree();
    INFO(s.explain());
    const auto expected = read_each(s);
    REQUIRE(s.materialize().to_vector() == expected);
    // Into a transposed destination too.
    Tensor<int> target(Index{s.shape()[1], s.shape()[0]});
    auto view = target.transpose();
    s.assign_to(view);
    REQUIRE(view.to_vector() == expected);
  }
}

TEST_CASE("views pushed into composite nodes equal the same views of the evaluated tree",
          "[select][property]") {
  RandomTrees random(2026);
  using strata::test::uniform;
  int pushed = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const Selection<int> s = random.tree();
    const Tensor<int> dense = s.materialize();  // the reference: views of a plain tensor
    const Index sh = s.shape();
    const auto random_range = [&](index_t n) {
      const index_t step = uniform(random.rng, 1, 3) * (uniform(random.rng, 0, 1) ? -1 : 1);
      return strata::Range{uniform(random.rng, -n - 1, n + 1), uniform(random.rng, -n - 1, n + 1),
                           step};
    };
    std::vector<strata::Selector> selectors;
    for (std::size_t k = 0; k < 2; ++k) {
      switch (uniform(random.rng, 0, 2)) {
        case 0:
          selectors.emplace_back(strata::all);
          break;
        case 1:
          selectors.emplace_back(random_range(sh[k]));
          break;
        default:
          if (sh[k] > 0) {
            selectors.emplace_back(uniform(random.rng, -sh[k], sh[k] - 1));
          } else {
            selectors.emplace_back(strata::all);
          }
          break;
      }
    }
    INFO(s.explain());
    const auto check = [&](const Selection<int>& view, const Tensor<const int>& expected) {
      INFO(view.explain());
      REQUIRE(view.shape() == expected.shape());
      REQUIRE(view.materialize().to_vector() == expected.to_vector());
      REQUIRE(read_each(view) == expected.to_vector());
      pushed += view.explain().find("view") == std::string::npos ? 1 : 0;
    };
    check(s.select(selectors), dense.select(selectors));
    check(s.reverse({0}), dense.reverse({0}));
    check(s.reverse({0, 1}), dense.reverse({0, 1}));
    const index_t shift = uniform(random.rng, -5, 5);
    const index_t axis = uniform(random.rng, 0, 1);
    check(s.rotate(shift, axis), dense.rotate(shift, axis));
  }
  // Most views of these trees are pushed into the sources (no view node left).
  CHECK(pushed > 1200);
}
TEST_CASE("a mask that reads the destination is read before it is written", "[select]") {
  // NumPy: t = [[0, 0], [1, 0]]; t[...] = np.where(t.T, 5, 0) gives [[0, 5], [0, 0]].
  Tensor<int> t{{0, 0}, {1, 0}};
  strata::where(t.transpose(), Tensor<int>::of({5}), Tensor<int>::of({0})).assign_to(t);
  CHECK(t.to_vector() == V{0, 5, 0, 0});
}

TEST_CASE("selections use sparse and user buffers from one thread only", "[select][parallel]") {
  using Recording = strata::test::ThreadRecordingBuffer<int>;
  const auto big = strata::iota<int>({256, 512}).copy();
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      INFO(threads << " threads");
      // A large concat into a sparse destination: blocks must not write it concurrently.
      auto sparse = strata::sparse<int>({512, 512});
      strata::concat<int>(0, {big, big.reverse({0})}).assign_to(sparse);
      CHECK(sparse.at({511, 3}) == 3);
      CHECK(sparse.at({300, 7}) == big.at({211, 7}));
      // A user buffer as destination, and as source.
      Recording sink(std::vector<int>(512 * 512, 0));
      Tensor<int> out(strata::AnyBuffer<int>::shared(std::make_shared<Recording>(sink)),
                      strata::Dimensions{512, 512});
      strata::concat<int>(1,
                          {big.select({strata::all, strata::Range{0, 256}}).copy(),
                           strata::pad(big.select({strata::Range{0, 254}, strata::Range{0, 254}}),
                                       {{1, 1}, {1, 1}}, PadMode::reflect)
                               .materialize()})
          .select({strata::Range{0, 256}})
          .assign_to(out.select({strata::Range{0, 256}}));
      CHECK(sink.thread_count() == 1);
      Recording source(big.to_vector());
      const Tensor<int> user(strata::AnyBuffer<int>::shared(std::make_shared<Recording>(source)),
                             strata::Dimensions{256, 512});
      const auto tree = strata::concat<int>(
          0, {user, strata::pad(user, {{0, 0}, {0, 0}}, PadMode::edge), user.reverse({1})});
      const Tensor<int> dense = tree.materialize();
      CHECK(dense.at({700, 5}) == big.at({188, 506}));
      CHECK(source.thread_count() == 1);
    });
  }
}

namespace {
/// A computed buffer (safe to read concurrently) with one element that cannot be read.
struct Throwing {
  using value_type = int;
  static constexpr bool concurrent_reads = true;
  [[nodiscard]] index_t size() const { return index_t{1} << 20; }
  [[nodiscard]] int read(index_t i) const {
    if (i == 777777) {
      throw std::runtime_error("unreadable element");
    }
    return static_cast<int>(i);
  }
};
}  // namespace

TEST_CASE("an exception in one block of a large selection reaches the caller", "[select][errors]") {
  const Tensor<int> bad(strata::AnyBuffer<int>(Throwing{}), strata::Dimensions{1024, 1024});
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      CHECK_THROWS_WITH(strata::concat<int>(0, {bad, bad}).materialize(), "unreadable element");
    });
  }
}

TEST_CASE("pad widths and repeat counts near INT64_MAX are checked", "[select][errors]") {
  const index_t top = std::numeric_limits<index_t>::max();
  const Tensor<int> small = Tensor<int>::of({1, 2, 3});
  strata::test::check_error<strata::ShapeError>(
      [&] {
        (void)strata::pad(small, {{top - 1, 0}}, PadMode::constant);
      },
      "pad", "overflow");
  strata::test::check_error<strata::ShapeError>(
      [&] {
        (void)strata::pad(small, {{top, top}}, PadMode::wrap);
      },
      "pad", "overflow");
  strata::test::check_error<strata::ShapeError>(
      [&] {
        (void)strata::pad(small, {{index_t{1} << 40, 0}}, PadMode::edge);
      },
      "pad", "at most 2147483648");
  strata::test::check_error<strata::ShapeError>([&] { (void)strata::repeat(small, top, 0); },
                                                "repeat", "overflow");
  strata::test::check_error<strata::ShapeError>(
      [&] {
        (void)strata::concat<int>(0, {strata::repeat(small, top / 3, 0), small});
      },
      "concat", "overflow");
}

TEST_CASE("a reshape the fused map cannot express nests as a view", "[select]") {
  // NumPy: np.pad(a, ((1, 0), (0, 0)), 'edge')[[1, 0]].T.reshape(6) is [0 0 1 1 2 2]
  // (a is np.arange(6).reshape(2, 3)).
  const auto s = strata::pad(a, {{1, 0}, {0, 0}}, PadMode::edge)
                     .select({std::vector<index_t>{1, 0}})
                     .transpose()
                     .reshape({6});
  CHECK(s.materialize().to_vector() == std::vector<int>{0, 0, 1, 1, 2, 2});
  CHECK(read_each(s) == std::vector<int>{0, 0, 1, 1, 2, 2});
  // A leaf whose map cannot be reshaped (a transpose) nests too, instead of throwing.
  const auto t = Selection<int>(a.transpose()).reshape({6});
  CHECK(t.materialize().to_vector() == std::vector<int>{0, 3, 1, 4, 2, 5});
  CHECK_THROWS_AS(Selection<int>(a).reshape({4}), strata::ShapeError);
}

}  // namespace test_select_selection
