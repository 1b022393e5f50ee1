// Tests for strata/tensor/strided_span.hpp and Tensor::span: every element of random strided
// views (negative steps, transposes, flips, broadcasts, size-0 and size-1 axes) read and written
// through the span, against the view's row-major copy and the untouched rest of the buffer.
#include "strata/tensor/strided_span.hpp"

#include "strata/tensor/generators.hpp"
#include "strata/tensor/tensor.hpp"

#include "check_error.hpp"
#include "layout/view_helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

namespace test_tensor_strided_span {

using strata::all;
using strata::Index;
using strata::index_t;
using strata::Range;
using strata::StridedSpan;
using strata::Tensor;
using strata::test::check_error;
using strata::test::uniform;

namespace {

/// A random rank-3 strided view of t: ranges with any step (size 0 and 1 included),
/// transposes, flips.
Tensor<int> random_view(std::mt19937_64& rng, Tensor<int> t) {
  const index_t steps = uniform(rng, 1, 4);
  for (index_t s = 0; s < steps; ++s) {
    const Index shape = t.shape();
    switch (uniform(rng, 0, 2)) {
      case 0: {
        std::vector<strata::Selector> sels;
        for (std::size_t k = 0; k < 3; ++k) {
          const index_t n = shape[k];
          index_t step = uniform(rng, -3, 3);
          step = step == 0 ? 1 : step;
          sels.emplace_back(Range{uniform(rng, -n, n), uniform(rng, -n, n), step});
        }
        t.rebind(t.select(sels));
        break;
      }
      case 1: {
        std::array<index_t, 3> perm{0, 1, 2};
        std::shuffle(perm.begin(), perm.end(), rng);
        t.rebind(t.transpose({perm[0], perm[1], perm[2]}));
        break;
      }
      default:
        t.rebind(t.reverse({uniform(rng, 0, 2)}));
    }
  }
  return t;
}

}  // namespace

TEST_CASE("a span reads and writes the elements of random strided views", "[tensor][property]") {
  std::mt19937_64 rng(20261124);
  for (int trial = 0; trial < 300; ++trial) {
    const Index extents{uniform(rng, 1, 6), uniform(rng, 1, 6), uniform(rng, 1, 6)};
    std::vector<int> values(static_cast<std::size_t>(extents[0] * extents[1] * extents[2]));
    std::iota(values.begin(), values.end(), 0);
    Tensor<int> base = Tensor<int>::from_vector(values, extents);
    Tensor<int> view = random_view(rng, base);
    INFO(strata::to_string(view.shape()));
    const Index shape = view.shape();
    const std::vector<int> expected = view.copy().to_vector();  // row-major, before writing

    // Reads, in row-major order, through the writable and the read-only span.
    const StridedSpan<int, 3> s = view.span<3>();
    const StridedSpan<const int, 3> r = std::as_const(view).span<3>();
    CHECK(s.extents() == std::array<index_t, 3>{shape[0], shape[1], shape[2]});
    CHECK(s.size() == view.size());
    std::vector<int> seen;
    for (index_t i = 0; i < shape[0]; ++i) {
      for (index_t j = 0; j < shape[1]; ++j) {
        for (index_t k = 0; k < shape[2]; ++k) {
          seen.push_back(s(i, j, k));
          CHECK(r(Index{i, j, k}) == s(i, j, k));
        }
      }
    }
    CHECK(seen == expected);

    // Writes: -1 - (row-major position) on every element; the rest of the buffer is unchanged.
    int n = 0;
    for (index_t i = 0; i < shape[0]; ++i) {
      for (index_t j = 0; j < shape[1]; ++j) {
        for (index_t k = 0; k < shape[2]; ++k) {
          s(i, j, k) = -1 - n++;
        }
      }
    }
    std::vector<int> written(expected.size());
    for (std::size_t p = 0; p < written.size(); ++p) {
      written[p] = -1 - static_cast<int>(p);
    }
    CHECK(view.copy().to_vector() == written);
    const std::vector<int> after = base.to_vector();
    std::size_t changed = 0;
    for (std::size_t p = 0; p < after.size(); ++p) {
      changed += after[p] < 0 ? 1U : 0U;
      CHECK((after[p] < 0 || after[p] == values[p]));
    }
    CHECK(changed == written.size());
  }
}

TEST_CASE("spans of broadcasts, ranks 0-2, compound assignment", "[tensor]") {
  Tensor<double> t{{1, 2, 3}, {4, 5, 6}};
  auto s = t.span<2>();
  s(1, 2) += 10;
  s(0, 0) *= 4;
  CHECK(t.to_vector() == std::vector<double>{4, 2, 3, 4, 5, 16});
  CHECK(s.stride(0) == 3);
  CHECK(s.stride(1) == 1);
  CHECK(s.data() == t.data());
  const StridedSpan<const double, 2> c = s;  // read-only copy
  CHECK(c(1, 2) == 16);

  // A read-only span of a broadcast: stride 0.
  const Tensor<double> row = t.select({1, all});
  const auto b = row.unsqueeze(0).broadcast(Index{4, 3}).span<2>();
  CHECK(b.stride(0) == 0);
  CHECK(b(3, 1) == 5);

  // Rank 1, a flipped column; rank 0, one element.
  auto col = t.select({all, 1}).reverse({0}).span<1>();
  CHECK(col(0) == 5);
  col(1) = -2;
  CHECK(t(0, 1) == -2);
  Tensor<double> scalar = t.select({1, 1});
  auto z = scalar.span<0>();
  z() = 7;
  CHECK(t(1, 1) == 7);
  CHECK(z.size() == 1);

  // Size 0: a span of nothing.
  const auto e = t.select({Range{1, 1}, all}).span<2>();
  CHECK(e.empty());
  CHECK(e.extent(0) == 0);
}

TEST_CASE("span rejects what it cannot describe, and changes nothing", "[tensor][errors]") {
  Tensor<int> t{{0, 1, 2}, {3, 4, 5}};
  check_error<strata::ShapeError>([&] { (void)t.span<3>(); }, "span", "rank 3");
  check_error<strata::ShapeError>([&] { (void)std::as_const(t).span<1>(); }, "span", "rank 1");
  check_error<strata::LayoutError>([&] { (void)t.rotate(1, 1).span<2>(); }, "span", "not strided");
  check_error<strata::LayoutError>(
      [&] {
        (void)t.select({std::vector<index_t>{1, 0}, all}).span<2>();
      },
      "span", "not strided");
  check_error<strata::LayoutError>(
      [&] {
        (void)strata::iota<int>({2, 3}).span<2>();
      },
      "span", "not one array");
  Tensor<int> wide = t.select({0, all}).unsqueeze(0).broadcast(Index{2, 3});
  check_error<strata::LayoutError>([&] { (void)wide.span<2>(); }, "span", "share one address");
  CHECK(std::as_const(wide).span<2>()(1, 2) == 2);  // reading a broadcast is fine
  auto s = t.span<2>();
  check_error<strata::IndexError>([&] { (void)s(Index{1}); }, "operator()", "rank 2");
#if STRATA_CHECKED_ACCESS
  check_error<strata::IndexError>([&] { s(2, 0) = 9; }, "operator()", "[2 0]");
  check_error<strata::IndexError>([&] { (void)s(Index{0, -1}); }, "operator()", "[0 -1]");
#endif
  CHECK(t.to_vector() == std::vector<int>{0, 1, 2, 3, 4, 5});
}

}  // namespace test_tensor_strided_span
