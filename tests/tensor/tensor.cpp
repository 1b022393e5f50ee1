// Tests for strata/tensor/tensor.hpp: construction, views, element access, copy, assign, fill.
#include "strata/tensor/tensor.hpp"
#include "check_error.hpp"

#include "strata/tensor/generators.hpp"

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;
using strata::all;
using strata::Index;
using strata::index_t;
using strata::Range;
using strata::Tensor;
using strata::test::check_error;
using F = std::vector<float>;

TEST_CASE("Tensor is built from shapes, nested lists, vectors and caller memory", "[tensor]") {
  const Tensor<float> zeros(Index{2, 3});
  CHECK(zeros.shape() == Index{2, 3});
  CHECK(zeros.to_vector() == F(6, 0.0F));
  const Tensor<float> v{2, 3};  // the vector [2 3], as np.array([2, 3])
  CHECK(v.shape() == Index{2});
  CHECK(v.to_vector() == F{2, 3});
  const Tensor<float> m{{1, 2, 3}, {4, 5, 6}};
  CHECK(m.shape() == Index{2, 3});
  CHECK(m(1, 0) == 4.0F);
  const Tensor<int> c{{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}};
  CHECK(c.shape() == Index{2, 2, 2});
  CHECK(c(1, 0, 1) == 6);
  const auto fv = Tensor<int>::from_vector({1, 2, 3, 4, 5, 6}, {3, 2});
  CHECK(fv(2, 1) == 6);
  std::vector<double> mine{1, 2, 3, 4};
  auto w = Tensor<double>::wrap(mine.data(), {2, 2});
  w(0, 1) = 9.0;
  CHECK(mine[1] == 9.0);
  CHECK(Tensor<int>().rank() == 0);
  CHECK(Tensor<int>().size() == 1);
}

TEST_CASE("views share the buffer", "[tensor]") {
  Tensor<int> t{{0, 1, 2}, {3, 4, 5}};
  auto col = t.select({all, 1});
  col(0) = 10;
  CHECK(t(0, 1) == 10);
  CHECK(t.transpose()(2, 1) == 5);
  CHECK(t.reverse({1})(0, 0) == 2);
  CHECK(t.rotate(1, 1)(0, 0) == 2);
  CHECK(t.reshape({3, 2})(2, 0) == 4);
  CHECK(t.unsqueeze(0).shape() == Index{1, 2, 3});
  CHECK(t.unsqueeze(0).squeeze().shape() == Index{2, 3});
  CHECK(t.broadcast({4, 2, 3})(3, 1, 2) == 5);
  CHECK(t.select({Range{{}, {}, -1}})(0, 0) == 3);
}

TEST_CASE("at checks indices and counts negatives from the end", "[tensor]") {
  Tensor<int> t{{0, 1, 2}, {3, 4, 5}};
  CHECK(t.at({-1, -1}) == 5);
  t.at({0, -3}) = 7;
  CHECK(t(0, 0) == 7);
  check_error<strata::IndexError>([&] { (void)t.at({2, 0}); }, "at", "[2 0]");
  check_error<strata::IndexError>([&] { (void)t.at({0, -4}); }, "at", "[0 -4]");
  check_error<strata::IndexError>([&] { (void)t.at({0}); }, "at", "rank 2");
}

TEST_CASE("copy is dense and independent", "[tensor]") {
  const Tensor<int> t{{0, 1, 2}, {3, 4, 5}};
  Tensor<int> c = t.transpose().copy();
  CHECK(c.dims().is_native());
  CHECK(c.to_vector() == std::vector<int>{0, 3, 1, 4, 2, 5});
  c(0, 0) = 100;
  CHECK(t(0, 0) == 0);
}

TEST_CASE("assign broadcasts with NumPy's rules", "[tensor]") {
  Tensor<int> t(Index{2, 3});
  t.assign(Tensor<int>{1, 2, 3});
  CHECK(t.to_vector() == std::vector<int>{1, 2, 3, 1, 2, 3});
  t.select({all, 0}).assign(Tensor<int>{9});
  CHECK(t.to_vector() == std::vector<int>{9, 2, 3, 9, 2, 3});
  t.assign(Tensor<int>{5, 6}.unsqueeze(1));
  CHECK(t.to_vector() == std::vector<int>{5, 5, 5, 6, 6, 6});
  SECTION("an overlapping source is read before it is overwritten") {
    Tensor<int> v{1, 2, 3, 4};
    v.assign(v.reverse());
    CHECK(v.to_vector() == std::vector<int>{4, 3, 2, 1});
  }
  SECTION("fill") {
    t.select({Range{{}, {}, -1}, Range{1}}).fill(0);
    CHECK(t.to_vector() == std::vector<int>{5, 0, 0, 6, 0, 0});
  }
}

TEST_CASE("bad input to tensors is rejected and changes nothing", "[tensor][errors]") {
  Tensor<int> t{{0, 1, 2}, {3, 4, 5}};
  const std::vector<int> before = t.to_vector();
  check_error<strata::BroadcastError>([&] { t.assign(Tensor<int>{1, 2}); }, "assign", "[2]");
  check_error<strata::BroadcastError>(
      [&] {
        t.assign(Tensor<int>(Index{3, 3}));
      },
      "assign", "[3 3]");
  check_error<strata::LayoutError>(
      [&] {
        t.select({0}).broadcast({2, 3}).fill(1);
      },
      "fill", "broadcast view");
  check_error<strata::LayoutError>(
      [&] {
        t.select({0}).broadcast({2, 3}).assign(Tensor<int>{1});
      },
      "assign", "broadcast view");
  check_error<strata::LayoutError>(
      [&] {
        t.broadcast({2, 2, 3})(0, 0, 0) = 1;
      },
      "write", "broadcast view");
  auto generated = strata::iota<int>({2, 3});
  check_error<strata::LayoutError>([&] { generated.fill(1); }, "fill", "read-only");
  check_error<strata::LayoutError>([&] { generated(0, 0) = 1; }, "write", "read-only");
  check_error<strata::ShapeError>([] { (void)Tensor<int>{{1, 2}, {3}}; }, "Tensor", "ragged");
  check_error<strata::ShapeError>(
      [] {
        (void)Tensor<int>::from_vector({1, 2, 3}, {2, 2});
      },
      "from_vector", "[2 2]");
  check_error<strata::Error>([] { (void)Tensor<int>::wrap(nullptr, {2}); }, "DenseBuffer::wrap",
                             "null pointer");
  check_error<strata::IndexError>(
      [] {
        (void)Tensor<int>(strata::AnyBuffer<int>(strata::DenseBuffer<int>(4)),
                          strata::Dimensions{5});
      },
      "Tensor", "outside the buffer of size 4");
  CHECK(t.to_vector() == before);
  CHECK(generated.to_vector() == std::vector<int>{0, 1, 2, 3, 4, 5});
}
