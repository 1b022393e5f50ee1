// Tests for strata/tensor/for_each_indexed.hpp and the index frame of tensor views: the loop
// visits exactly the indices indices()/offsets() list, once each, with the right element, on
// random views, shapes, jagged and layout tensors, at 1, 2 and 4 threads.
#include "strata/tensor/for_each_indexed.hpp"
#include "check_error.hpp"
#include "threads.hpp"

#include "layout/view_helpers.hpp"
#include "shape/collect.hpp"
#include "strata/tensor/generators.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <mutex>
#include <numeric>
#include <random>
#include <span>
#include <utility>
#include <vector>

namespace test_tensor_for_each_indexed {

using strata::all;
using strata::Index;
using strata::index_t;
using strata::IndexSpan;
using strata::Range;
using strata::Tensor;
using strata::test::check_error;
using strata::test::uniform;

namespace {

using Pair = std::pair<Index, int>;

/// The (index, element) pairs a loop reports, sorted (calls may come in any order).
template <class Loop>
std::vector<Pair> reported(Loop&& loop) {
  std::vector<Pair> out;
  std::mutex mutex;
  loop([&](IndexSpan g, int x) {
    const std::lock_guard<std::mutex> lock(mutex);
    out.emplace_back(Index(g), x);
  });
  std::sort(out.begin(), out.end(), [](const Pair& a, const Pair& b) {
    return std::lexicographical_compare(a.first.begin(), a.first.end(), b.first.begin(),
                                        b.first.end());
  });
  return out;
}

/// What a range of indices pairs with the view's elements, sorted.
template <class Range>
std::vector<Pair> expected(const Range& indices, const std::vector<int>& values) {
  std::vector<Pair> out;
  std::size_t i = 0;
  for (const Index& g : indices) {
    out.emplace_back(g, values[i++]);
  }
  std::sort(out.begin(), out.end(), [](const Pair& a, const Pair& b) {
    return std::lexicographical_compare(a.first.begin(), a.first.end(), b.first.begin(),
                                        b.first.end());
  });
  return out;
}

/// The row-major position of a relative index.
index_t position_of(const Index& shape, IndexSpan g) {
  index_t p = 0;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    p = p * shape[k] + g[k];
  }
  return p;
}

/// A fresh tensor of a random shape (rank min_rank to 4; size-0 and size-1 axes now and then)
/// holding 0, 1, 2, ... in row-major order.
Tensor<int> random_base(std::mt19937_64& rng, index_t min_rank) {
  Index shape;
  const auto rank = static_cast<std::size_t>(uniform(rng, min_rank, 4));
  for (std::size_t k = 0; k < rank; ++k) {
    shape.push_back(uniform(rng, 0, 9) == 0 ? uniform(rng, 0, 1) : uniform(rng, 1, 6));
  }
  return strata::iota<int>(shape).copy();
}

/// A random view of t: slicing, flips, transposes, squeezes keep absolute indices; rolls,
/// broadcasts and index arrays make it relative-only.
Tensor<int> random_view(std::mt19937_64& rng, Tensor<int> t, bool& affine) {
  affine = true;
  const index_t steps = uniform(rng, 0, 4);
  for (index_t s = 0; s < steps; ++s) {
    const Index shape = t.shape();
    const int r = t.rank();
    switch (uniform(rng, 0, 7)) {
      case 0:
      case 1:
      case 2: {
        std::vector<strata::Selector> sels;
        for (int k = 0; k < r; ++k) {
          const index_t n = shape[static_cast<std::size_t>(k)];
          const index_t kind = uniform(rng, 0, 5);
          if (kind == 0 && n > 0 && r > 1) {
            sels.emplace_back(uniform(rng, -n, n - 1));
          } else if (kind <= 2) {
            index_t step = uniform(rng, -3, 3);
            step = step == 0 ? 1 : step;
            sels.emplace_back(Range{uniform(rng, -n, n), uniform(rng, -n, n), step});
          } else {
            sels.emplace_back(all);
          }
        }
        t.rebind(t.select(sels));
        break;
      }
      case 3: {
        Index perm(static_cast<std::size_t>(r));
        std::iota(perm.begin(), perm.end(), index_t{0});
        std::shuffle(perm.begin(), perm.end(), rng);
        t.rebind(t.transpose(perm));
        break;
      }
      case 4:
        if (r > 0) {
          t.rebind(t.reverse({uniform(rng, 0, r - 1)}));
        }
        break;
      case 5:
        t.rebind(t.unsqueeze(uniform(rng, 0, r)).squeeze());
        break;
      case 6:
        if (r > 0 && uniform(rng, 0, 2) == 0) {
          t.rebind(t.rotate(uniform(rng, -3, 3), uniform(rng, 0, r - 1)));
          affine = false;
        }
        break;
      default:
        if (r > 0 && shape[0] > 0 && uniform(rng, 0, 2) == 0) {
          t.rebind(t.select({std::vector<index_t>{shape[0] - 1, 0}}));
          affine = false;
        }
    }
  }
  return t;
}

}  // namespace

TEST_CASE("tensor views keep their origin and steps", "[tensor][indexed]") {
  Tensor<int> t(Index{6, 5, 4});
  CHECK(t.origin() == Index{0, 0, 0});
  CHECK(t.steps() == Index{1, 1, 1});
  const auto v = t.select({Range{1, 5}, Range{{}, {}, -2}, 2});  // t[1:5, ::-2, 2]
  CHECK(v.origin() == Index{1, 4});
  CHECK(v.steps() == Index{1, -2});
  CHECK(strata::test::collect(v.indices()) == std::vector<Index>{{1, 4},
                                                                 {1, 2},
                                                                 {1, 0},
                                                                 {2, 4},
                                                                 {2, 2},
                                                                 {2, 0},
                                                                 {3, 4},
                                                                 {3, 2},
                                                                 {3, 0},
                                                                 {4, 4},
                                                                 {4, 2},
                                                                 {4, 0}});
  CHECK(strata::test::collect(v.offsets()).front() == Index{0, 0});
  // A slice of a slice composes; a transpose permutes; a flip is a negative step.
  const auto w = v.select({Range{1, 3}}).transpose();
  CHECK(w.origin() == Index{4, 2});
  CHECK(w.steps() == Index{-2, 1});
  CHECK(t.reverse({0}).origin() == Index{5, 0, 0});
  CHECK(t.select({all, 3}).unsqueeze(0).origin() == Index{0, 0, 0});
  CHECK(t.select({Range{2, 3}}).squeeze().origin() == Index{0, 0});  // the axis is gone
  // Rolls, broadcasts, reshapes and index arrays have relative indices only.
  for (const auto& relative_only : {t.rotate(1, 0), t.select({std::vector<index_t>{0, 2}}),
                                    t.select({0}).broadcast({2, 5, 4}), t.reshape({30, 4})}) {
    CHECK_FALSE(relative_only.has_absolute_indices());
    CHECK(relative_only.offsets().size() == relative_only.size());
  }
  check_error<strata::LayoutError>([&] { (void)t.rotate(1, 0).indices(); }, "indices", "rotate");
  check_error<strata::LayoutError>([&] { (void)t.reshape({30, 4}).origin(); }, "origin", "reshape");
  CHECK(t.broadcast({6, 5, 4}).has_absolute_indices());  // the same shape: nothing lost
  // with_origin places a view in a larger index space; slices of it compose as before.
  const auto placed = t.select({Range{0, 2}, Range{0, 2}, 0}).with_origin(Index{10, 20});
  CHECK(placed.origin() == Index{10, 20});
  CHECK(strata::test::collect(placed.indices()) ==
        std::vector<Index>{{10, 20}, {10, 21}, {11, 20}, {11, 21}});
  CHECK(placed.select({1, Range{1, 2}}).origin() == Index{21});
  CHECK(std::as_const(t).with_origin(Index{1, 2, 3}).steps() == Index{1, 1, 1});
  check_error<strata::ShapeError>(
      [&] {
        (void)t.with_origin(Index{1, 2});
      },
      "with_origin", "[1 2]");
}

TEST_CASE("for_each_indexed visits every element once with its index, on random views",
          "[tensor][indexed][property]") {
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 300; ++trial) {
    const auto base = random_base(rng, 0);
    bool affine = true;
    const Tensor<int> view = random_view(rng, base, affine);
    const std::vector<int> values = view.to_vector();
    INFO(view.dims() << (affine ? " absolute" : " relative only"));
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        const strata::Parallel par1{1};
        REQUIRE(reported([&](auto&& f) {
                  strata::for_each_indexed(par1, view, strata::relative, f);
                }) == expected(view.offsets(), values));
        if (affine) {
          REQUIRE(reported([&](auto&& f) { strata::for_each_indexed(par1, view, f); }) ==
                  expected(view.indices(), values));
        } else {
          CHECK_THROWS_AS(strata::for_each_indexed(par1, view, [](IndexSpan, int) {}),
                          strata::LayoutError);
        }
      });
    }
    // Writes: each element gets a code of its relative index; read back through offsets().
    if (!view.dims().aliases()) {
      Tensor<int> target = base.copy();
      Tensor<int> through(target.buffer(), view.dims());
      strata::for_each_indexed(
          strata::Parallel{1}, through, strata::relative,
          [&](IndexSpan g, int& x) { x = static_cast<int>(position_of(view.shape(), g)); });
      std::vector<int> codes(static_cast<std::size_t>(view.size()));
      std::iota(codes.begin(), codes.end(), 0);
      CHECK(through.to_vector() == codes);
    }
  }
}

namespace {

/// Calls the loop with a callback of R separate integers and the element (an X) that hands
/// the index to f as an IndexSpan: the fixed-rank paths, seen through reported().
template <std::size_t R, class X = int, class Loop>
auto with_integers(Loop& loop) {
  return [&loop](auto&& f) {
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      loop([&f](decltype(K, index_t{})... g, X x) {
        const std::array<index_t, R> index{g...};
        f(IndexSpan(std::span<const index_t>(index)), x);
      });
    }
    (std::make_index_sequence<R>{});
  };
}

/// reported() for a view of rank 1 to 4, through callbacks of that many integers.
template <class Loop>
std::vector<Pair> reported_by_integers(int rank, Loop&& loop) {
  switch (rank) {
    case 1:
      return reported(with_integers<1>(loop));
    case 2:
      return reported(with_integers<2>(loop));
    case 3:
      return reported(with_integers<3>(loop));
    default:
      return reported(with_integers<4>(loop));
  }
}

}  // namespace

TEST_CASE("for_each_indexed with one integer per axis agrees with indices() on random views",
          "[tensor][indexed][property]") {
  // The fixed-rank loops (strided views take a path of their own) against indices() and
  // offsets(), on the same random views as above, split mid-row at 1, 2 and 4 threads.
  std::mt19937_64 rng(43);
  int strided = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const auto base = random_base(rng, 1);
    bool affine = true;
    const Tensor<int> view = random_view(rng, base, affine);
    if (view.rank() == 0 || view.rank() > 4) {
      continue;
    }
    strided += view.dims().is_strided() ? 1 : 0;
    const std::vector<int> values = view.to_vector();
    INFO(view.dims() << (affine ? " absolute" : " relative only"));
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        const strata::Parallel par1{1};
        auto relative = [&](auto&& f) {
          strata::for_each_indexed(par1, view, strata::relative, f);
        };
        REQUIRE(reported_by_integers(view.rank(), relative) == expected(view.offsets(), values));
        if (affine) {
          auto absolute = [&](auto&& f) { strata::for_each_indexed(par1, view, f); };
          REQUIRE(reported_by_integers(view.rank(), absolute) == expected(view.indices(), values));
        }
      });
    }
    // Writes through the same paths: the element at relative index g gets g's position.
    if (!view.dims().aliases()) {
      Tensor<int> target = base.copy();
      Tensor<int> through(target.buffer(), view.dims());
      const Index extents = view.shape();
      auto write = [&](auto&& f) {
        strata::for_each_indexed(strata::Parallel{1}, through, strata::relative, f);
      };
      auto code = [&](IndexSpan g, int& x) { x = static_cast<int>(position_of(extents, g)); };
      switch (view.rank()) {
        case 1:
          with_integers<1, int&>(write)(code);
          break;
        case 2:
          with_integers<2, int&>(write)(code);
          break;
        case 3:
          with_integers<3, int&>(write)(code);
          break;
        default:
          with_integers<4, int&>(write)(code);
      }
      std::vector<int> codes(static_cast<std::size_t>(view.size()));
      std::iota(codes.begin(), codes.end(), 0);
      CHECK(through.to_vector() == codes);
    }
  }
  CHECK(strided > 100);  // the strided fast path is what most trials exercise
}

TEST_CASE("for_each_indexed takes one integer per axis, and writes where the view can",
          "[tensor][indexed]") {
  Tensor<double> t(Index{4, 6});
  auto slab = t.select({Range{1, 3}, Range{{}, {}, 2}});
  strata::for_each_indexed(strata::seq, slab,
                           [](index_t i, index_t j, double& x) { x = 10.0 * i + j; });
  // j is t's column: 0, 2, 4.
  CHECK(t.to_vector() == std::vector<double>{0,  0, 0,  0, 0,  0, 10, 0, 12, 0, 14, 0,  //
                                             20, 0, 22, 0, 24, 0, 0,  0, 0,  0, 0,  0});
  strata::for_each_indexed(strata::seq, slab, strata::relative,
                           [](index_t i, index_t j, double& x) { x = 100.0 * i + j; });
  CHECK(t(2, 4) == 102.0);
  double total = 0;
  const Tensor<double>& read_only = t;
  strata::for_each_indexed(strata::seq, read_only.select({1}),
                           [&](index_t j, const double& x) { total += x + 0 * j; });
  CHECK(total == 0 + 1 + 2);
  Tensor<int> scalar(Index{});
  strata::for_each_indexed(strata::seq, scalar, [](int& x) { x = 7; });
  CHECK(scalar() == 7);
  strata::tabulate(strata::par, t, [](index_t i, index_t j) { return 1.0 * i * j; });
  CHECK(t(3, 5) == 15.0);
  strata::tabulate(strata::seq, t.select({Range{2, 4}}), strata::relative,
                   [](IndexSpan g) { return -1.0 - static_cast<double>(g[0]); });
  CHECK(t(3, 0) == -2.0);
}

TEST_CASE("bad indexed loops are rejected and write nothing", "[tensor][indexed][errors]") {
  Tensor<int> t{{1, 2, 3}, {4, 5, 6}};
  const auto before = t.to_vector();
  check_error<strata::ShapeError>(
      [&] { strata::for_each_indexed(strata::seq, t, [](index_t, int&) {}); }, "for_each_indexed",
      "takes 1 indices but the iterable has rank 2");
  check_error<strata::LayoutError>(
      [&] {
        strata::for_each_indexed(strata::seq, t.select({0}).broadcast({2, 3}),
                                 [](index_t, index_t, int& x) { x = 0; });
      },
      "for_each_indexed", "cannot be written");
  check_error<strata::LayoutError>(
      [&] { strata::for_each_indexed(strata::seq, t.rotate(1, 1), [](IndexSpan, int) {}); },
      "origin", "rotate");
  check_error<strata::LayoutError>(
      [&] {
        strata::tabulate(strata::seq, t.select({std::vector<index_t>{0, 0}}),
                         [](index_t, index_t) { return 9; });
      },
      "tabulate", "cannot be written");
  auto generated = strata::iota<int>({2, 3});
  check_error<strata::LayoutError>(
      [&] { strata::tabulate(strata::seq, generated, [](IndexSpan) { return 1; }); }, "tabulate",
      "read-only");
  CHECK(t.to_vector() == before);
  // A broadcast view can be read with an index loop.
  int count = 0;
  strata::for_each_indexed(strata::seq, t.select({0}).broadcast({2, 3}), strata::relative,
                           [&](index_t, index_t, const int&) { ++count; });
  CHECK(count == 6);
}

TEST_CASE("for_each_indexed over shapes visits indices() / offsets() once each",
          "[shape][indexed][property]") {
  using strata::Jagged;
  using strata::Shape;
  using strata::Smooth;
  std::mt19937_64 rng(5);
  const auto check_shape = [](const auto& shape) {
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        std::vector<Index> seen;
        std::mutex mutex;
        strata::for_each_indexed(strata::Parallel{1}, shape, [&](IndexSpan g) {
          const std::lock_guard<std::mutex> lock(mutex);
          seen.emplace_back(g);
        });
        std::sort(seen.begin(), seen.end(), [](const Index& a, const Index& b) {
          return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
        });
        INFO(shape.to_string());
        REQUIRE(seen == strata::test::collect(shape.indices()));  // indices() are row-major
        std::vector<Index> offsets;
        strata::for_each_indexed(strata::seq, shape, strata::relative,
                                 [&](IndexSpan g) { offsets.emplace_back(g); });
        REQUIRE(offsets == strata::test::collect(shape.offsets()));
      });
    }
  };
  for (int trial = 0; trial < 60; ++trial) {
    Index extents;
    for (index_t k = 0, r = uniform(rng, 0, 3); k < r; ++k) {
      extents.push_back(uniform(rng, 0, 5));
    }
    const Smooth s(extents);
    check_shape(s);
    check_shape(Shape(s));
    Index lo(extents.size());
    Index hi(extents.size());
    for (std::size_t k = 0; k < extents.size(); ++k) {
      lo[k] = uniform(rng, 0, extents[k]);
      hi[k] = uniform(rng, lo[k], extents[k]);
    }
    check_shape(s.slice(lo, hi));
    Index lengths;
    for (index_t r = 0, n = uniform(rng, 1, 8); r < n; ++r) {
      lengths.push_back(uniform(rng, 0, 4));
    }
    const Jagged j = Jagged::from_lengths(lengths);
    check_shape(j);
    const index_t a = uniform(rng, 0, j.n_rows());
    check_shape(j.slice({a}, {uniform(rng, a, j.n_rows())}));
    check_shape(Shape(j));
    check_shape(Jagged(std::vector<Shape>{j, Jagged::from_lengths({2, 0, 1})}));
    check_shape(strata::Nested{Smooth{j.n_rows()}, j});
    check_shape(strata::Nested{Smooth{2}, Smooth(extents)});
  }
  check_error<strata::ShapeError>(
      [] {
        strata::for_each_indexed(strata::seq, Smooth{2, 2}, [](index_t) {});
      },
      "for_each_indexed", "rank 2");
}

TEST_CASE("for_each_indexed over jagged tensors and their row slices", "[tensor][indexed]") {
  using strata::Jagged;
  using strata::JaggedTensor;
  std::mt19937_64 rng(8);
  for (int trial = 0; trial < 40; ++trial) {
    Index lengths;
    for (index_t r = 0, n = uniform(rng, 1, 30); r < n; ++r) {
      lengths.push_back(uniform(rng, 0, 50));
    }
    JaggedTensor<int> jt(Jagged::from_lengths(lengths));
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        strata::for_each_indexed(strata::Parallel{1}, jt,
                                 [](index_t r, index_t k, int& x) { x = int(1000 * r + k); });
      });
    }
    for (const Index& g : jt.shape().indices()) {
      REQUIRE(jt.at(g) == 1000 * g[0] + g[1]);
    }
    const index_t lo = uniform(rng, 0, jt.shape().n_rows());
    const index_t hi = uniform(rng, lo, jt.shape().n_rows());
    const auto slice = jt.rows(lo, hi);
    CHECK(slice.first_row() == lo);
    std::vector<Pair> absolute;
    std::vector<Pair> relative;
    strata::for_each_indexed(strata::seq, slice, [&](index_t r, index_t k, const int& x) {
      absolute.emplace_back(Index{r, k}, x);
    });
    strata::for_each_indexed(strata::seq, slice, strata::relative,
                             [&](index_t r, index_t k, const int& x) {
                               relative.emplace_back(Index{r, k}, x);
                             });
    REQUIRE(absolute.size() == static_cast<std::size_t>(slice.size()));
    for (std::size_t i = 0; i < absolute.size(); ++i) {
      const Index& g = absolute[i].first;
      REQUIRE(g[0] >= lo);
      REQUIRE(absolute[i].second == 1000 * g[0] + g[1]);
      REQUIRE(relative[i].first == Index{g[0] - lo, g[1]});
      REQUIRE(slice.at(g) == absolute[i].second);
    }
    // Rows of the slice keep their numbers; a row is a span.
    slice.for_each_row(strata::seq, [&](index_t r, std::span<const int> values) {
      REQUIRE(values.size() == static_cast<std::size_t>(lengths[static_cast<std::size_t>(r)]));
      REQUIRE(values.data() == slice.row(r).data());
    });
  }
  JaggedTensor<int> jt(Jagged::from_lengths({2, 3}));
  check_error<strata::IndexError>([&] { (void)jt.rows(1, 3); }, "rows", "[1, 3)");
  check_error<strata::IndexError>([&] { (void)jt.row(2); }, "row", "row 2");
  check_error<strata::IndexError>([&] { (void)jt.rows(1, 2).row(0); }, "row", "row 0");
  check_error<strata::IndexError>([&] { (void)jt.rows(1, 2).at({0, 0}); }, "position", "[0 0]");
}

TEST_CASE("for_each_indexed over layout tensors uses logical indices; tiles by coordinates",
          "[tensor][indexed][layout]") {
  using strata::Layout;
  using strata::LayoutTensor;
  using strata::Smooth;
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 40; ++trial) {
    const Index extents{uniform(rng, 0, 20), uniform(rng, 0, 20)};
    const Index tile{uniform(rng, 1, 7), uniform(rng, 1, 7)};
    for (const auto& layout :
         {Layout::tiled(Smooth(extents), tile), Layout::column_major(Smooth(extents))}) {
      LayoutTensor<int> lt(layout);
      strata::for_each_indexed(strata::Parallel{1}, lt,
                               [](index_t i, index_t j, int& x) { x = int(100 * i + j); });
      const auto dense = lt.to_dense();
      for (const Index& g : Smooth(extents).indices()) {
        REQUIRE(dense.at(g) == 100 * g[0] + g[1]);
        const index_t p = lt.piece_holding(g);
        const auto region = lt.piece_region(p);
        REQUIRE(region.contains(g));
      }
    }
  }
  LayoutTensor<int> lt(Layout::tiled(Smooth{5, 7}, {2, 3}));
  CHECK(lt.piece(Index{2, 2}).shape() == Index{1, 1});
  CHECK(lt.layout().tile_coordinates(8) == Index{2, 2});
  check_error<strata::IndexError>(
      [&] {
        (void)lt.piece(Index{3, 0});
      },
      "Layout::piece_at", "[3 0]");
  check_error<strata::IndexError>(
      [&] {
        (void)lt.piece_holding({5, 0});
      },
      "Layout::address", "[5 0]");
}

TEST_CASE("tabulate writes over jagged row slices and layout tensors as for_each_indexed visits",
          "[tensor][indexed]") {
  using strata::Jagged;
  using strata::JaggedTensor;
  using strata::Layout;
  using strata::LayoutTensor;
  using strata::Smooth;
  JaggedTensor<int> jt(Jagged::from_lengths({2, 0, 3, 1}));
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      strata::tabulate(strata::Parallel{1}, jt,
                       [](index_t r, index_t k) { return int(10 * r + k); });
      strata::tabulate(strata::Parallel{1}, jt.rows(2, 4),
                       [](index_t r, index_t k) { return int(100 * r + k); });  // absolute rows
    });
  }
  CHECK(jt.values().to_vector() == std::vector<int>{0, 1, 200, 201, 202, 300});
  strata::tabulate(strata::seq, jt.rows(2, 4), strata::relative,
                   [](IndexSpan g) { return int(1000 * g[0] + g[1]); });
  CHECK(jt.values().to_vector() == std::vector<int>{0, 1, 0, 1, 2, 1000});
  LayoutTensor<int> lt(Layout::tiled(Smooth{5, 7}, {2, 3}));
  strata::tabulate(strata::Parallel{1}, lt, [](index_t i, index_t j) { return int(100 * i + j); });
  const auto dense = lt.to_dense();
  for (const Index& g : Smooth{5, 7}.indices()) {
    REQUIRE(dense.at(g) == 100 * g[0] + g[1]);
  }
  check_error<strata::ShapeError>(
      [&] { strata::tabulate(strata::seq, lt, [](index_t i) { return int(i); }); }, "tabulate",
      "rank 2");
}

TEST_CASE("generate takes a function of the multi-index", "[tensor][generate]") {
  const auto g =
      strata::generate<int>({3, 4}, [](index_t i, index_t j) { return int(10 * i + j); });
  CHECK(g.to_vector() == std::vector<int>{0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23});
  CHECK(g.transpose()(3, 2) == 23);
  const auto s = strata::generate<int>({2, 2, 2}, [](IndexSpan idx) { return int(idx[2]); });
  CHECK(s.to_vector() == std::vector<int>{0, 1, 0, 1, 0, 1, 0, 1});
  const auto linear = strata::generate<int>({2, 3}, [](index_t p) { return int(p); });
  CHECK(linear.to_vector() == std::vector<int>{0, 1, 2, 3, 4, 5});
  check_error<strata::ShapeError>(
      [] {
        (void)strata::generate<int>({2, 3, 4}, [](index_t, index_t) { return 0; });
      },
      "generate", "rank 3");
}

TEST_CASE("data, strides and offset hand a view to pointer code", "[tensor][pointer]") {
  Tensor<float> t(Index{4, 5});
  auto v = t.select({Range{1, 4}, Range{{}, {}, -2}});
  REQUIRE(v.data() != nullptr);
  CHECK(v.strides() == Index{5, -2});
  CHECK(v.offset() == 9);
  CHECK(v.data() == t.data() + 9);
  v.data()[v.strides()[0] * 1 + v.strides()[1] * 2] = 42.0F;  // v[1, 2] is t[2, 0]
  CHECK(t(2, 0) == 42.0F);
  CHECK(t.is_contiguous());
  CHECK_FALSE(v.is_contiguous());
  CHECK(t.rotate(1, 0).data() == nullptr);            // not a strided map
  CHECK(strata::iota<float>({3}).data() == nullptr);  // not an array
  const Tensor<float>& c = t;
  static_assert(std::is_same_v<decltype(c.data()), const float*>);
}

}  // namespace test_tensor_for_each_indexed
