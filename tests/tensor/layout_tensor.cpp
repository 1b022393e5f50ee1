// LayoutTensor: tiled and column-major storage, tiles as Tensor views, dense round trips.
#include "strata/tensor/layout_tensor.hpp"

#include "check_error.hpp"
#include "strata/expr/reduce.hpp"
#include "strata/tensor/algorithms.hpp"
#include "strata/tensor/for_each_indexed.hpp"
#include "strata/tensor/generators.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <random>

namespace test_tensor_layout_tensor {

using strata::Index;
using strata::index_t;
using strata::Layout;
using strata::LayoutTensor;
using strata::Smooth;
using strata::Tensor;

TEST_CASE("a tiled tensor reads by logical index and hands out tiles", "[tensor][layout]") {
  // dense(i, j) = 10 i + j, 5x7, tiles of 2x3.
  Tensor<int> dense(Index{5, 7});
  for (index_t i = 0; i < 5; ++i) {
    for (index_t j = 0; j < 7; ++j) {
      dense(i, j) = static_cast<int>(10 * i + j);
    }
  }
  auto tiled = LayoutTensor<int>::from_dense(dense, Layout::tiled(Smooth{5, 7}, {2, 3}));
  CHECK(tiled.at({4, 6}) == 46);
  CHECK(tiled.at({2, 4}) == 24);
  CHECK(tiled.n_pieces() == 9);
  SECTION("the buffer holds tiles one after another") {
    const auto v = tiled.buffer();
    CHECK(v.read(0) == 0);
    CHECK(v.read(2) == 2);
    CHECK(v.read(3) == 10);
    CHECK(v.read(6) == 3);
    CHECK(v.read(34) == 46);
  }
  SECTION("a tile is a Tensor view: every Tensor operation works on it") {
    const Tensor<int> corner = tiled.piece(8);
    CHECK(corner.shape() == Index{1, 1});
    CHECK(corner(0, 0) == 46);
    const Tensor<int> edge = tiled.piece(2);  // rows 0-1, column 6
    CHECK(edge == Tensor<int>::of({6, 16}).reshape({2, 1}));
    tiled.piece(4).fill(-1);
    CHECK(tiled.at({2, 3}) == -1);
    CHECK(tiled.at({3, 5}) == -1);
    CHECK(tiled.at({2, 6}) == 26);
    CHECK(strata::sum(tiled.piece(0), {0, 1})() == 0 + 1 + 2 + 10 + 11 + 12);
  }
  SECTION("a tile's absolute indices are its logical indices in the tensor") {
    const Tensor<int> tile = tiled.piece(4);  // rows 2-3, columns 3-5
    CHECK(tile.has_absolute_indices());
    CHECK(tile.origin() == Index{2, 3});
    strata::for_each_indexed(strata::seq, tile, [&](index_t i, index_t j, const int& x) {
      CHECK(x == dense(i, j));  // the dense tensor's value at the same logical index
    });
    CHECK(tile(0, 0) == dense(2, 3));  // element access counts from the tile's corner
  }
  SECTION("writes by logical index land in the right tile") {
    tiled.at({3, 6}) = 99;
    CHECK(tiled.piece(5)(1, 0) == 99);
  }
  SECTION("dense -> tiled -> dense is exact") {
    CHECK(tiled.to_dense() == dense);
    CHECK(tiled.to_dense(strata::seq) == dense);
  }
}

TEST_CASE("dense -> tiled -> dense round trips on random shapes and tiles",
          "[tensor][layout][property]") {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 60; ++trial) {
    const int rank = std::uniform_int_distribution<int>(1, 3)(rng);
    Index n;
    Index t;
    for (int k = 0; k < rank; ++k) {
      n.push_back(std::uniform_int_distribution<index_t>(0, 9)(rng));
      t.push_back(std::uniform_int_distribution<index_t>(1, 5)(rng));
    }
    const Tensor<float> dense = strata::iota<float>(n);
    for (const Layout& layout : {Layout::tiled(Smooth(n), t), Layout::column_major(Smooth(n)),
                                 Layout::row_major(Smooth(n))}) {
      INFO(layout.to_string());
      // The grain of 1 makes par split even these small tensors across threads.
      const auto stored = LayoutTensor<float>::from_dense(dense, layout, strata::Parallel{1});
      CHECK(stored.to_dense(strata::Parallel{1}) == dense);
      for (const Index& i : Smooth(n).indices()) {
        CHECK(stored.at(i) == dense.at(i));
      }
    }
  }
}

TEST_CASE("LayoutTensor rejects bad input and stays unchanged", "[tensor][layout][errors]") {
  using strata::test::check_error;
  LayoutTensor<int> t(Layout::tiled(Smooth{4, 4}, {2, 2}));
  t.at({1, 1}) = 5;
  check_error<strata::ShapeError>(
      [&] {
        t.assign(Tensor<int>(Index{4, 3}));
      },
      "LayoutTensor::assign", "[4 3]");
  check_error<strata::ShapeError>(
      [&] { (void)LayoutTensor<int>::from_dense(Tensor<int>(Index{3}), t.layout()); },
      "LayoutTensor::from_dense", "[3]");
  check_error<strata::IndexError>([&] { (void)t.at({4, 0}); }, "Layout::address", "[4 0]");
  check_error<strata::IndexError>([&] { (void)t.piece(4); }, "Layout::piece", "piece 4");
  CHECK(t.at({1, 1}) == 5);
  CHECK(strata::sum(t.to_dense(), {0, 1})() == 5);
}

TEST_CASE("LayoutTensor reads a user buffer from one thread only", "[tensor][layout][parallel]") {
  using Recording = strata::test::ThreadRecordingBuffer<int>;
  const auto values = strata::iota<int>({300, 300}).copy();
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      Recording source(values.to_vector());
      const Tensor<int> user(strata::AnyBuffer<int>::shared(std::make_shared<Recording>(source)),
                             strata::Dimensions{300, 300});
      const Layout layout = Layout::tiled(Smooth{300, 300}, {32, 32});
      auto tiled = LayoutTensor<int>::from_dense(user, layout, strata::Parallel{1});
      tiled.assign(user, strata::Parallel{1});
      CHECK(tiled.to_dense() == values);
      CHECK(source.thread_count() == 1);
    });
  }
}

TEST_CASE("a const LayoutTensor hands out read-only pieces", "[tensor][layout][const]") {
  const auto tiled = LayoutTensor<int>::from_dense(strata::iota<int>({4, 4}).copy(),
                                                   Layout::tiled(Smooth{4, 4}, {2, 2}));
  static_assert(std::is_same_v<decltype(tiled.piece(0)), Tensor<const int>>);
  tiled.for_each_piece(strata::seq,
                       [](index_t, const Tensor<const int>& p) { CHECK(p.size() == 4); });
  CHECK(tiled.piece(3).to_vector() == std::vector<int>{10, 11, 14, 15});
}

}  // namespace test_tensor_layout_tensor
