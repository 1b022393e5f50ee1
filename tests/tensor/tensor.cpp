// Tests for strata/tensor/tensor.hpp: construction, views, element access, copy, assign, fill.
#include "strata/tensor/tensor.hpp"
#include "check_error.hpp"

#include "strata/expr/operators.hpp"
#include "strata/tensor/generators.hpp"

#include "layout/view_helpers.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <ranges>

#include <stdexcept>
#include <type_traits>
#include <utility>

#include <catch2/catch.hpp>

namespace test_tensor_tensor {

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
  const Tensor<float> v = Tensor<float>::of({2, 3});  // the vector [2 3], as np.array([2, 3])
  CHECK(v.shape() == Index{2});
  CHECK(v.to_vector() == F{2, 3});
  // A braced list given to the constructor is a shape (np.zeros((2, 3))), never values.
  const Tensor<float> shaped({2, 3});
  CHECK(shaped.shape() == Index{2, 3});
  CHECK(shaped.to_vector() == F(6, 0.0F));
  static_assert(!std::is_constructible_v<Tensor<float>, int, int>);  // Tensor<float>{2, 3}
  static_assert(!std::is_constructible_v<Tensor<float>, int>);       // Tensor<float>{7}
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

TEST_CASE("for_overwrite makes a dense tensor to be written whole, as np.empty", "[tensor]") {
  auto t = Tensor<double>::for_overwrite({2, 3});
  CHECK(t.shape() == Index{2, 3});
  CHECK(t.is_contiguous());
  CHECK(t.is_writable());
  t.fill(4.0);
  CHECK(t.to_vector() == std::vector<double>(6, 4.0));
  CHECK(Tensor<int>::for_overwrite({0, 5}).size() == 0);
  CHECK_THROWS_AS(Tensor<int>::for_overwrite({-1}), strata::ShapeError);
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
  t.assign(Tensor<int>::of({1, 2, 3}));
  CHECK(t.to_vector() == std::vector<int>{1, 2, 3, 1, 2, 3});
  t.select({all, 0}).assign(Tensor<int>::of({9}));
  CHECK(t.to_vector() == std::vector<int>{9, 2, 3, 9, 2, 3});
  t.assign(Tensor<int>::of({5, 6}).unsqueeze(1));
  CHECK(t.to_vector() == std::vector<int>{5, 5, 5, 6, 6, 6});
  SECTION("an overlapping source is read before it is overwritten") {
    Tensor<int> v = Tensor<int>::of({1, 2, 3, 4});
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
  check_error<strata::BroadcastError>([&] { t.assign(Tensor<int>::of({1, 2})); }, "assign", "[2]");
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
        t.select({0}).broadcast({2, 3}).assign(Tensor<int>::of({1}));
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

namespace {
// Compile-time probes: what a const tensor lets through.
template <class Tn>
concept can_fill_a_view = requires(Tn t) {
  t.select({0}).fill(1);
};
template <class Tn>
concept can_assign_a_view = requires(Tn t) {
  t.select({0}) = t.select({1});
};
template <class Tn>
concept can_write_an_element = requires(Tn t) {
  t(0, 0) = 1;
};
template <class Tn>
concept can_assign = requires(Tn t, Tensor<int> u) {
  t.assign(u);
};
}  // namespace

TEST_CASE("const is honoured through views and element access", "[tensor][const]") {
  static_assert(can_fill_a_view<Tensor<int>&>);
  static_assert(can_assign_a_view<Tensor<int>&>);
  static_assert(can_write_an_element<Tensor<int>&>);
  static_assert(!can_fill_a_view<const Tensor<int>&>);
  static_assert(!can_assign_a_view<const Tensor<int>&>);
  static_assert(!can_write_an_element<const Tensor<int>&>);
  static_assert(!can_fill_a_view<Tensor<const int>&>);
  static_assert(!can_assign<Tensor<const int>&>);
  static_assert(!can_write_an_element<Tensor<const int>&>);
  static_assert(
      std::is_same_v<decltype(std::declval<const Tensor<int>&>().transpose()), Tensor<const int>>);
  static_assert(std::is_same_v<decltype(std::declval<Tensor<int>&>().transpose()), Tensor<int>>);
  const Tensor<int> cu{{1, 2}, {3, 4}};
  const Tensor<const int> row = cu.select({0});
  CHECK(row.to_vector() == std::vector<int>{1, 2});
  CHECK_FALSE(row.is_writable());
  Tensor<int> copy = row.copy();  // a copy is a new, writable tensor
  copy.fill(0);
  CHECK(cu.to_vector() == std::vector<int>{1, 2, 3, 4});
}

TEST_CASE("element references stay valid and support compound assignment", "[tensor][element]") {
  Tensor<int> t{{0, 1, 2}, {3, 4, 5}};
  // A reference into a temporary view keeps the buffer alive (AddressSanitizer checks this).
  auto r = t.select({0})(1);
  r = 50;
  CHECK(t(0, 1) == 50);
  auto alone = Tensor<int>::of({7, 8, 9})(1);  // the temporary was the buffer's only owner
  alone += 2;
  CHECK(static_cast<int>(alone) == 10);
  t(1, 2) += 10;
  t(1, 2) -= 1;
  t(1, 2) *= 2;
  t(1, 2) /= 3;
  CHECK(t(1, 2) == 9);  // ((5 + 10 - 1) * 2) / 3
  t(1, 2) %= 4;
  CHECK(t(1, 2) == 1);
  ++t(0, 0);
  --t(1, 0);
  CHECK(t.to_vector() == std::vector<int>{1, 50, 2, 2, 4, 1});
  t(0, 0) = t(0, 1);  // copies the value; the reference is not rebound
  CHECK(t(0, 0) == 50);
  t(0, 0) = t(1, 1) + 1;
  CHECK(t(0, 0) == 5);
  const Index idx{1, 1};
  t(idx) = 40;
  CHECK(t(idx) == 40);
  CHECK(std::as_const(t)(idx) == 40);
  // Sparse and user buffers take the same spellings.
  auto generated = strata::iota<int>({2, 2});
  check_error<strata::LayoutError>([&] { generated(0, 0) += 1; }, "write", "read-only");
  CHECK(generated(0, 0) == 0);
}

namespace {
// A user buffer without an array whose reads of address 3 and writes of negative values throw:
// element access reaches it through the out-of-line paths that park an exception and rethrow
// it in the caller (tensor.hpp, detail::pending_exception).
struct FussyBuffer {
  using value_type = int;
  std::vector<int> values = std::vector<int>(6, 1);
  [[nodiscard]] index_t size() const { return 6; }
  [[nodiscard]] int read(index_t address) const {
    if (address == 3) {
      throw std::runtime_error("FussyBuffer: address 3 is unreadable");
    }
    return values[static_cast<std::size_t>(address)];
  }
  void write(index_t address, int value) {
    if (value < 0) {
      throw std::domain_error("FussyBuffer: negative value");
    }
    values[static_cast<std::size_t>(address)] = value;
  }
};
}  // namespace

TEST_CASE("exceptions of a user buffer reach the caller of element access",
          "[tensor][element][errors]") {
  Tensor<int> t(strata::AnyBuffer<int>(FussyBuffer{}), strata::Dimensions{2, 3});
  t(0, 1) = 7;
  t(0, 1) += 1;
  CHECK(t(0, 1) == 8);
  CHECK_THROWS_AS((void)std::as_const(t)(1, 0), std::runtime_error);  // Tensor's read
  CHECK_THROWS_WITH((void)std::as_const(t)(1, 0), Catch::Matchers::Contains("unreadable"));
  CHECK_THROWS_AS((void)static_cast<int>(t(1, 0)), std::runtime_error);  // ElementRef's read
  CHECK_THROWS_AS(t(1, 0) += 1, std::runtime_error);
  CHECK_THROWS_AS(t(0, 2) = -1, std::domain_error);
  CHECK_THROWS_WITH(t(0, 2) = -1, Catch::Matchers::Contains("negative"));
  CHECK(t(0, 2) == 1);  // nothing written
  // Each failure leaves nothing behind: the next access succeeds, and so does a later failure.
  CHECK(t(1, 1) == 1);
  int caught = 0;
  for (int k = 0; k < 3; ++k) {
    try {
      (void)std::as_const(t)(1, 0);
    } catch (const std::runtime_error&) {
      ++caught;
    }
  }
  CHECK(caught == 3);
  auto row = std::move(t).select({1});  // a reference from a temporary (owning) also rethrows
  CHECK_THROWS_AS((void)std::move(row)(0).get(), std::runtime_error);
}

namespace {
// 0, 1, 2, ... over every address a view reads (at least one element).
std::vector<int> iota_under(const std::vector<index_t>& addresses) {
  const index_t span =
      addresses.empty() ? 1 : *std::max_element(addresses.begin(), addresses.end()) + 1;
  std::vector<int> values(static_cast<std::size_t>(span));
  std::iota(values.begin(), values.end(), 0);
  return values;
}

// A user buffer without an array: element access takes its general path.
struct VectorBuffer {
  using value_type = int;
  std::vector<int> values;
  [[nodiscard]] index_t size() const { return static_cast<index_t>(values.size()); }
  [[nodiscard]] int read(index_t address) const {
    return values[static_cast<std::size_t>(address)];
  }
  void write(index_t address, int value) { values[static_cast<std::size_t>(address)] = value; }
};

// t(g[0], ..., g[N - 1]) through the variadic overloads (const read, or a writable reference).
template <std::size_t... K>
int read_variadic(const Tensor<int>& t, const Index& g, std::index_sequence<K...> /*axes*/) {
  return t(g[K]...);
}
template <std::size_t... K>
void add_variadic(Tensor<int>& t, const Index& g, int x, std::index_sequence<K...> /*axes*/) {
  t(g[K]...) += x;
}
template <std::size_t... K>
int reference_variadic(Tensor<int>& t, const Index& g, std::index_sequence<K...> /*axes*/) {
  return t(g[K]...);
}
template <class F>
void with_rank(std::size_t rank, F&& f) {
  [&]<std::size_t... R>(std::index_sequence<R...>) {
    (void)((rank == R ? (f(std::make_index_sequence<R>{}), true) : false) || ...);
  }
  (std::make_index_sequence<10>{});
}
}  // namespace

TEST_CASE("element access agrees with the map on random views, over arrays and user buffers",
          "[tensor][element][property]") {
  // The fast path (pointer and strides kept beside the map, ranks <= 6, arrays only) against
  // the map's own addresses; views of every kind, ranks 0-9, size-0 and size-1 axes.
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 400; ++trial) {
    const strata::Dimensions d = strata::test::random_view(rng, 7);
    const auto addresses = strata::test::addresses(d);
    const std::vector<int> values = iota_under(addresses);
    const auto span = static_cast<index_t>(values.size());
    const bool user = trial % 3 == 0;
    const strata::AnyBuffer<int> buffer = user ? strata::AnyBuffer<int>(VectorBuffer{values})
                                               : Tensor<int>::from_vector(values, {span}).buffer();
    Tensor<int> t(buffer, d);
    INFO("view " << d << (user ? " over a user buffer" : " over an array"));
    const auto rank = static_cast<std::size_t>(d.rank());
    std::size_t k = 0;
    for (const Index& g : strata::Smooth(d.shape()).offsets()) {
      const int expected = values[static_cast<std::size_t>(addresses[k++])];
      REQUIRE(std::as_const(t)(g) == expected);
      REQUIRE(static_cast<int>(t(g)) == expected);
      with_rank(rank, [&](auto axes) {
        REQUIRE(read_variadic(t, g, axes) == expected);
        REQUIRE(reference_variadic(t, g, axes) == expected);
      });
    }
    const auto stored = [&] {
      std::vector<int> out;
      for (index_t a = 0; a < span; ++a) {
        out.push_back(buffer.read(a));
      }
      return out;
    };
    if (d.size() == 0) {
      continue;
    }
    if (d.aliases()) {
      const Index first(rank, 0);
      check_error<strata::LayoutError>([&] { t(first) = -1; }, "write", "share address");
      with_rank(rank, [&](auto axes) {
        check_error<strata::LayoutError>([&] { add_variadic(t, first, 1, axes); }, "write",
                                         "share address");
      });
      REQUIRE(stored() == values);
      continue;
    }
    // Every element once through each writable spelling: +1000 by t(g), +1 by t(i, j, ...).
    for (const Index& g : strata::Smooth(d.shape()).offsets()) {
      t(g) += 1000;
      with_rank(rank, [&](auto axes) { add_variadic(t, g, 1, axes); });
    }
    std::vector<int> expected = values;
    for (const index_t a : addresses) {
      expected[static_cast<std::size_t>(a)] += 1001;
    }
    REQUIRE(stored() == expected);
  }
}

TEST_CASE("assigning to a temporary view writes through it", "[tensor][assign]") {
  Tensor<int> w = Tensor<int>::of({0, 0, 0, 0});
  const Tensor<int> u = Tensor<int>::of({1, 2, 3, 4});
  w.select({Range{1, 3}}) = u.select({Range{1, 3}});  // NumPy's w[1:3] = u[1:3]
  CHECK(w.to_vector() == std::vector<int>{0, 2, 3, 0});
  w.select({Range{0, 1}}) = 9;  // w[0:1] = 9
  CHECK(w.to_vector() == std::vector<int>{9, 2, 3, 0});
  w.select({Range{{}, {}, -1}}) = w;  // overlapping source: copied first, as NumPy
  CHECK(w.to_vector() == std::vector<int>{0, 3, 2, 9});
  check_error<strata::BroadcastError>([&] { w.select({Range{0, 3}}) = u; }, "assign", "[4]");
  CHECK(w.to_vector() == std::vector<int>{0, 3, 2, 9});
}

// `=` on a named tensor never rebinds: every right side that compiles writes into the
// elements, and a tensor on the right does not compile (it could mean either).
template <class L, class R>
concept assignable_from = requires(L& l, R&& r) {
  l = std::forward<R>(r);
};
static_assert(!assignable_from<Tensor<int>, const Tensor<int>&>);
static_assert(!assignable_from<Tensor<int>, Tensor<int>&&>);
static_assert(!assignable_from<Tensor<const int>, const Tensor<int>&>);
static_assert(!assignable_from<Tensor<const int>, Tensor<const int>&&>);
static_assert(!std::is_copy_assignable_v<Tensor<float>>);
static_assert(!std::is_move_assignable_v<Tensor<float>>);
static_assert(assignable_from<Tensor<int>, decltype(std::declval<Tensor<int>>() + 0)>);
static_assert(std::is_nothrow_swappable_v<Tensor<float>>);

TEST_CASE("at_absolute reaches elements by their absolute indices", "[tensor][absolute]") {
  Tensor<int> t{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}};
  const Tensor<const int> v =
      t.select({Range{{}, {}, -2}, Range{1, 4, 2}});  // rows 2, 0; cols 1, 3
  CHECK(v.at_absolute({2, 1}) == 9);
  CHECK(v.at_absolute({0, 3}) == 3);
  CHECK(v.at_absolute({2, 3}) == 11);
  check_error<strata::IndexError>([&] { (void)v.at_absolute({1, 1}); }, "at_absolute", "[1 1]");
  check_error<strata::IndexError>([&] { (void)v.at_absolute({2, 2}); }, "at_absolute", "[2 2]");
  check_error<strata::IndexError>([&] { (void)v.at_absolute({4, 1}); }, "at_absolute", "[4 1]");
  check_error<strata::IndexError>([&] { (void)v.at_absolute({2}); }, "at_absolute", "[2]");
  // A block of a larger index space (a tile): its indices are that space's.
  Tensor<int> tile = t.select({Range{1, 3}, Range{2, 4}}).with_origin({10, 20});
  tile.at_absolute({11, 21}) = -1;
  CHECK(t(2, 3) == -1);
  check_error<strata::IndexError>([&] { (void)tile.at_absolute({1, 2}); }, "at_absolute", "[1 2]");
  const auto before = t.to_vector();
  check_error<strata::LayoutError>(
      [&] {
        (void)t.rotate(1, 0).at_absolute({0, 0});
      },
      "at_absolute", "relative indices only");
  CHECK(t.to_vector() == before);
}

TEST_CASE("= on a named view means one thing: it writes, or it does not compile",
          "[tensor][assign]") {
  Tensor<int> a = Tensor<int>::of({0, 0, 0, 0});
  const Tensor<int> b = Tensor<int>::of({1, 2});
  Tensor<int> v = a.select({Range{1, 3}});
  // The spellings that compile all write into a through v.
  v = b + 0;  // an expression
  CHECK(a.to_vector() == std::vector<int>{0, 1, 2, 0});
  v += b;  // a compound assignment
  CHECK(a.to_vector() == std::vector<int>{0, 2, 4, 0});
  v.assign(b);  // a tensor, said explicitly (NumPy's v[...] = b)
  CHECK(a.to_vector() == std::vector<int>{0, 1, 2, 0});
  std::move(v) = b * 3;  // a temporary view
  CHECK(a.to_vector() == std::vector<int>{0, 3, 6, 0});
  a.select({Range{1, 3}}) = b;  // a tensor into a temporary view
  CHECK(a.to_vector() == std::vector<int>{0, 1, 2, 0});
  // The handle meanings are spelled out and write nothing.
  v.rebind(b);
  CHECK(a.to_vector() == std::vector<int>{0, 1, 2, 0});
  CHECK(v.to_vector() == std::vector<int>{1, 2});
  CHECK(v.buffer().identity() == b.buffer().identity());
  Tensor<int> w = a.select({Range{0, 1}});
  swap(v, w);  // exchanges handles, moves no element
  CHECK(v.to_vector() == std::vector<int>{0});
  CHECK(w.to_vector() == std::vector<int>{1, 2});
  CHECK(a.to_vector() == std::vector<int>{0, 1, 2, 0});
  std::ranges::swap(v, w);
  CHECK(v.to_vector() == std::vector<int>{1, 2});
  v.rebind(v.transpose().reverse());  // Python's v = v.T[::-1]
  CHECK(v.to_vector() == std::vector<int>{2, 1});
  Tensor<const int> r = a;  // a read-only handle rebinds to another tensor too
  r.rebind(b);
  CHECK(r.buffer().identity() == b.buffer().identity());
}

TEST_CASE("writes through views whose indices share addresses are rejected", "[tensor][alias]") {
  Tensor<int> t{{0, 1, 2}, {3, 4, 5}};
  const std::vector<int> before = t.to_vector();
  const auto repeated = t.select({std::vector<index_t>{0, 0}});
  CHECK(repeated.dims().aliases());
  check_error<strata::LayoutError>(
      [&] {
        auto v = repeated;
        v.assign(Tensor<int>::of({7, 8, 9}));
      },
      "assign", "repeated index-array entries");
  check_error<strata::LayoutError>(
      [&] {
        auto v = repeated;
        v(1, 1) = 3;
      },
      "write", "repeated index-array entries");
  // Overlapping strides over a buffer of 3: [2 2] strides [1 1] reads 0 1 1 2.
  Tensor<int> overlapping(t.buffer(), strata::Dimensions({2, 2}, {1, 1}));
  CHECK(overlapping.dims().aliases());
  check_error<strata::LayoutError>([&] { overlapping.fill(-1); }, "fill", "overlapping strides");
  CHECK(t.to_vector() == before);
  // Distinct index arrays, rolls and flips stay writable.
  auto distinct = t.select({strata::all, std::vector<index_t>{2, 0}});
  distinct.fill(6);
  CHECK(t.to_vector() == std::vector<int>{6, 1, 6, 6, 4, 6});
  CHECK_FALSE(t.rotate(1, 1).reverse({0}).dims().aliases());
}

TEST_CASE("diagonal is a view: reads and writes go through, as np.fill_diagonal", "[tensor]") {
  Tensor<int> m{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}};
  CHECK(m.diagonal().to_vector() == std::vector<int>{0, 5, 10});
  CHECK(m.diagonal(1).to_vector() == std::vector<int>{1, 6, 11});
  CHECK(m.diagonal(-1).to_vector() == std::vector<int>{4, 9});
  CHECK(m.diagonal().data() == m.data());  // shares the buffer
  CHECK_FALSE(m.diagonal().has_absolute_indices());
  m.diagonal().fill(-1);
  m.diagonal(1) = 7;
  CHECK(m.to_vector() == std::vector<int>{-1, 7, 2, 3, 4, -1, 7, 7, 8, 9, -1, 7});
  // Through a rolled view (an index array of addresses): the same elements as the loop.
  Tensor<int> r = strata::iota<int>({3, 3}).copy();
  auto rolled = r.rotate(1, 0).diagonal();
  for (index_t i = 0; i < 3; ++i) {
    CHECK(rolled(i) == r((i + 2) % 3, i));
  }
  rolled.fill(0);
  CHECK(r.to_vector() == std::vector<int>{0, 0, 2, 3, 4, 0, 0, 7, 8});  // r[2, 0], r[0, 1], r[1, 2]
  // A const tensor's diagonal is read-only (it does not compile to write through it).
  const Tensor<int>& c = m;
  static_assert(std::is_same_v<decltype(c.diagonal()), Tensor<const int>>);
  // A diagonal whose indices share addresses (a broadcast batch) is not written.
  auto batch = Tensor<int>::of({1, 2, 3}).broadcast({2, 3, 3});
  check_error<strata::LayoutError>([&] { batch.diagonal(0, 1, 2).fill(0); }, "fill", "");
  check_error<strata::ShapeError>([&] { (void)m.diagonal(0, 1, 1); }, "diagonal", "axis1 1");
  CHECK(m.to_vector() == std::vector<int>{-1, 7, 2, 3, 4, -1, 7, 7, 8, 9, -1, 7});
}

TEST_CASE("a tensor rejects maps that reach outside its buffer, overflow included",
          "[tensor][errors]") {
  const strata::AnyBuffer<int> small(strata::DenseBuffer<int>(4));
  check_error<strata::IndexError>(
      [&] {
        (void)Tensor<int>(small, strata::Dimensions({2, 2}, {index_t{1} << 61, 1}));
      },
      "Tensor", "outside the buffer of size 4");
  check_error<strata::IndexError>(
      [&] { (void)Tensor<int>(small, strata::Dimensions(Index{2}, Index{-1}, 0)); }, "Tensor",
      "[-1, 0]");
  check_error<strata::ShapeError>(
      [&] { (void)strata::Dimensions(Index{3}, Index{index_t{1} << 62}); }, "Dimensions",
      "overflow");
}

#if STRATA_CHECKED_ACCESS
TEST_CASE("debug builds check element access", "[tensor][errors]") {
  Tensor<int> t{{0, 1, 2}, {3, 4, 5}};
  check_error<strata::IndexError>([&] { (void)std::as_const(t)(5, 5); }, "operator()", "[5 5]");
  check_error<strata::IndexError>([&] { (void)std::as_const(t)(1); }, "operator()", "rank 2");
  check_error<strata::IndexError>([&] { t(0, 3) = 1; }, "operator()", "[0 3]");
  check_error<strata::IndexError>([&] { (void)t(Index{-1, 0}); }, "operator()", "[-1 0]");
  CHECK(t.to_vector() == std::vector<int>{0, 1, 2, 3, 4, 5});
}
#endif

TEST_CASE("a parallel grain of zero or less is taken as one", "[tensor][parallel]") {
  const Tensor<int> t{{0, 1, 2}, {3, 4, 5}};
  CHECK(t.copy(strata::Parallel{0}).to_vector() == t.to_vector());
  CHECK(t.transpose().copy(strata::Parallel{-5}).to_vector() == std::vector<int>{0, 3, 1, 4, 2, 5});
}

template <class T>
concept begins = requires(T&& t) {
  std::forward<T>(t).begin();
};

TEST_CASE("range-for visits the elements in row-major order", "[tensor][range]") {
  Tensor<int> t = Tensor<int>{{1, 2, 3}, {4, 5, 6}};
  std::vector<int> seen;
  for (const int x : t.transpose()) {  // a temporary view lives through the loop
    seen.push_back(x);
  }
  CHECK(seen == std::vector<int>{1, 4, 2, 5, 3, 6});
  for (auto x : t.select({all, Range{{}, {}, -2}})) {  // writes through the view
    x = x * 10;
  }
  CHECK(t.to_vector() == std::vector<int>{10, 2, 30, 40, 5, 60});
  const Tensor<const int> read_only = t;
  CHECK(std::ranges::max(read_only) == 60);
  CHECK(std::ranges::count_if(t, [](int x) { return x > 5; }) == 4);
  static_assert(std::ranges::forward_range<Tensor<float>&>);
  static_assert(std::ranges::forward_range<const Tensor<float>&>);
  static_assert(std::is_same_v<std::ranges::range_reference_t<const Tensor<float>&>, float>);
  static_assert(
      std::is_same_v<std::ranges::range_reference_t<Tensor<float>&>, strata::ElementRef<float>>);
  static_assert(begins<Tensor<float>&> && !begins<Tensor<float>>);  // none into a temporary

  // A rank-0 tensor has one element, a size-0 tensor none.
  Tensor<int> scalar(Index{});
  int count = 0;
  for (auto x : scalar) {
    x = 7;
    ++count;
  }
  CHECK(count == 1);
  CHECK(scalar() == 7);
  CHECK(std::ranges::distance(Tensor<int>(Index{3, 0, 2})) == 0);

  // Writing through a broadcast view is rejected, and nothing is written.
  Tensor<int> row = Tensor<int>::of({1, 2});
  Tensor<int> wide = row.broadcast({3, 2});
  check_error<strata::LayoutError>([&] { *wide.begin() = 5; }, "write", "share address 0");
  CHECK(row.to_vector() == std::vector<int>{1, 2});
}

TEST_CASE("range-for agrees with element access on random views", "[tensor][range][property]") {
  std::mt19937_64 rng(23);
  for (int trial = 0; trial < 300; ++trial) {
    const strata::Dimensions d = strata::test::random_view(rng, 5);
    const auto addresses = strata::test::addresses(d);
    const std::vector<int> values = iota_under(addresses);
    const auto span = static_cast<index_t>(values.size());
    const Tensor<int> base = Tensor<int>::from_vector(values, {span});
    Tensor<int> t(base.buffer(), d);
    INFO("view " << d);
    std::vector<int> expected;
    for (const Index& g : strata::Smooth(t.shape()).offsets()) {
      expected.push_back(t(g));
    }
    std::vector<int> seen;
    for (const int x : std::as_const(t)) {
      seen.push_back(x);
    }
    REQUIRE(seen == expected);
    if (!d.aliases()) {
      for (auto x : t) {
        x += 1000;
      }
      const std::vector<int> after = base.to_vector();
      for (std::size_t k = 0; k < addresses.size(); ++k) {
        REQUIRE(after[static_cast<std::size_t>(addresses[k])] == expected[k] + 1000);
      }
    }
  }
}

}  // namespace test_tensor_tensor
