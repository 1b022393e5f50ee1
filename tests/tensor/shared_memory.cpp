// Tests of views that share memory without sharing a buffer: two buffers over one array (two
// imports of one NumPy array, from_memory), and the real and imaginary parts of a complex tensor
// (Tensor::real, Tensor::imag: NumPy's z.real, z.imag). Every "the output is also an input"
// check asks Footprint::overlaps, so writing one such view while reading the other reads from a
// copy first, as NumPy does; the references here read every source value before any write.
#include "strata/contract/contract.hpp"
#include "strata/expr/expr.hpp"
#include "strata/interop/dlpack.hpp"
#include "strata/select/concat.hpp"
#include "strata/tensor/generators.hpp"

#include "layout/view_helpers.hpp"  // addresses, random_view, uniform

#include <catch2/catch.hpp>

#include <complex>
#include <cstddef>
#include <deque>
#include <random>
#include <vector>

namespace test_tensor_shared_memory {

using strata::Dimensions;
using strata::Index;
using strata::index_t;
using strata::Tensor;
using strata::test::addresses;
using strata::test::uniform;
using Z = std::complex<double>;

/// A window of the caller's array: a buffer with data(), as an import of foreign memory is.
struct Window {
  using value_type = double;
  double* first;
  index_t count;
  [[nodiscard]] index_t size() const { return count; }
  [[nodiscard]] double read(index_t a) const { return first[a]; }
  void write(index_t a, double v) { first[a] = v; }
  [[nodiscard]] double* data() const { return first; }
};

/// Complex numbers in a std::deque: storage without one array.
struct DequeBuffer {
  using value_type = Z;
  std::deque<Z> d;
  [[nodiscard]] index_t size() const { return static_cast<index_t>(d.size()); }
  [[nodiscard]] Z read(index_t a) const { return d[static_cast<std::size_t>(a)]; }
  void write(index_t a, Z v) { d[static_cast<std::size_t>(a)] = v; }
};

/// A row-major map of @p shape whose first element is at @p offset, steps of @p sign.
Dimensions packed(const Index& shape, index_t offset, index_t sign) {
  Index strides(shape.size());
  index_t stride = 1;
  for (std::size_t k = shape.size(); k-- > 0;) {
    strides[k] = sign * stride;
    stride *= std::max<index_t>(shape[k], 1);
  }
  index_t lowest = 0;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (strides[k] < 0 && shape[k] > 0) {
      lowest += (shape[k] - 1) * -strides[k];
    }
  }
  return Dimensions(shape, strides, offset + lowest);
}

TEST_CASE("footprints: one buffer, or arrays that share a byte, overlap", "[tensor][overlap]") {
  std::vector<double> memory(10);
  const strata::AnyBuffer<double> left(Window{memory.data(), 5});
  const strata::AnyBuffer<double> right(Window{memory.data() + 5, 5});
  const strata::AnyBuffer<double> middle(Window{memory.data() + 4, 2});
  CHECK(left.footprint().overlaps(left.footprint()));
  CHECK_FALSE(left.footprint().overlaps(right.footprint()));  // adjacent, no byte shared
  CHECK(left.footprint().overlaps(middle.footprint()));
  CHECK(middle.footprint().overlaps(right.footprint()));
  CHECK_FALSE(left.footprint().overlaps(strata::AnyBuffer<double>().footprint()));  // empty

  // Storage without an array: only the same storage overlaps.
  const Tensor<double> g = strata::iota<double>(Index{4});
  const Tensor<double> h = strata::iota<double>(Index{4});
  CHECK(g.buffer().footprint().overlaps(g.select({strata::Range{1, 3}}).buffer().footprint()));
  CHECK_FALSE(g.buffer().footprint().overlaps(h.buffer().footprint()));

  // A complex tensor and its parts are one storage, with other addresses.
  Tensor<Z> z({3});
  const auto re = z.buffer().footprint();
  CHECK(z.real().buffer().footprint().overlaps(re));
  CHECK(z.imag().buffer().footprint().overlaps(z.real().buffer().footprint()));
  CHECK_FALSE(z.real().buffer().footprint().same_addresses(re));  // 8-byte elements, not 16
  CHECK(z.real().buffer().footprint().same_addresses(z.imag().buffer().footprint()));
  CHECK_FALSE(z.real().buffer().footprint().overlaps(Tensor<Z>({3}).buffer().footprint()));
  const Tensor<Z> d(strata::AnyBuffer<Z>(DequeBuffer{std::deque<Z>(3)}), Dimensions{3});
  CHECK(d.real().buffer().footprint().overlaps(d.buffer().footprint()));  // by owner
  CHECK(d.real().buffer().data() == nullptr);
}

TEST_CASE("two buffers over one array: writing one while reading the other gives NumPy's result",
          "[tensor][overlap]") {
  // NumPy: x = np.arange(1., 6.); a = x; b = x[::-1]; a[...] = b  ->  [5. 4. 3. 2. 1.]
  // (strata saw two buffers here, wrote in place and gave [5. 4. 3. 4. 5.])
  for (int op = 0; op < 5; ++op) {
    INFO("operation " << op);
    std::vector<double> x{1, 2, 3, 4, 5};
    Tensor<double> a = strata::from_memory<double>(x.data(), Index{5}, Index{1}, nullptr);
    Tensor<double> b = strata::from_memory<double>(x.data() + 4, Index{5}, Index{-1}, nullptr);
    switch (op) {
      case 0:
        a.assign(b);
        break;
      case 1:
        a = b * 2.0 - b;  // an expression
        break;
      case 2:
        strata::einsum_into(a, "i->i", b);
        break;
      case 3:
        a = strata::concat<double>(
            0, {b.select({strata::Range{0, 2}}), b.select({strata::Range{2, 5}})});
        break;
      default:
        strata::zip_with_into(a, b, b, [](double u, double v) { return (u + v) / 2; });
        break;
    }
    CHECK(x == std::vector<double>{5, 4, 3, 2, 1});
  }
}

TEST_CASE("random views of two buffers over one array assign, evaluate and contract as NumPy",
          "[tensor][overlap][property]") {
  std::mt19937_64 rng(20261207);
  for (int trial = 0; trial < 300; ++trial) {
    const Dimensions src_map = strata::test::random_view(rng);
    const auto [lo, hi] = src_map.address_range();
    const index_t span = src_map.size() == 0 ? 1 : hi + 1;
    const Index shape = src_map.shape();
    const index_t dst_offset = uniform(rng, 0, 6);
    const index_t sign = uniform(rng, 0, 1) == 0 ? 1 : -1;
    const Dimensions dst_map = packed(shape, 0, sign);
    const index_t dst_span = std::max<index_t>(src_map.size(), 1);
    // The source's window starts at 0, the destination's at dst_offset: they overlap.
    std::vector<double> memory(static_cast<std::size_t>(std::max(span, dst_offset + dst_span)));
    for (std::size_t i = 0; i < memory.size(); ++i) {
      memory[i] = static_cast<double>(i) + 0.5;
    }
    const std::vector<double> before = memory;
    const int op = static_cast<int>(uniform(rng, 0, 2));
    INFO("trial " << trial << " op " << op << " source " << src_map << " destination offset "
                  << dst_offset << " sign " << sign);
    const Tensor<const double> src(strata::AnyBuffer<double>(Window{memory.data(), span}), src_map);
    Tensor<double> dst(strata::AnyBuffer<double>(Window{memory.data() + dst_offset, dst_span}),
                       dst_map);
    // The reference: every source value read before anything is written.
    const std::vector<index_t> from = addresses(src_map);
    const std::vector<index_t> to = addresses(dst_map);
    std::vector<double> expected = before;
    for (std::size_t i = 0; i < to.size(); ++i) {
      const double v = before[static_cast<std::size_t>(from[i])];
      expected[static_cast<std::size_t>(dst_offset + to[i])] = op == 1 ? 2 * v + 1 : v;
    }
    if (op == 0) {
      dst.assign(src);
    } else if (op == 1) {
      dst = src * 2.0 + 1.0;
    } else {
      std::string labels;
      for (int k = 0; k < src.rank(); ++k) {
        labels += static_cast<char>('a' + k);
      }
      strata::einsum_into(dst, labels + "->" + labels, src);
    }
    CHECK(memory == expected);
  }
}

TEST_CASE("real() and imag() are views of a complex tensor's parts over random views",
          "[tensor][complex][property]") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const Dimensions map = strata::test::random_view(rng);
    const auto [lo, hi] = map.address_range();
    const index_t span = map.size() == 0 ? 0 : hi + 1;
    std::vector<Z> values(static_cast<std::size_t>(span));
    for (std::size_t i = 0; i < values.size(); ++i) {
      values[i] = Z(static_cast<double>(i), -static_cast<double>(i) - 0.25);
    }
    const bool dense = trial % 3 != 0;  // else storage without an array
    strata::AnyBuffer<Z> buffer =
        dense ? strata::AnyBuffer<Z>(strata::DenseBuffer<Z>(values))
              : strata::AnyBuffer<Z>(DequeBuffer{std::deque<Z>(values.begin(), values.end())});
    Tensor<Z> z(buffer, map);
    INFO("trial " << trial << " map " << map << (dense ? " dense" : " deque"));
    const std::vector<index_t> at = addresses(map);
    const Tensor<double> re = z.real();
    const Tensor<double> im = z.imag();
    REQUIRE(re.shape() == z.shape());
    REQUIRE(im.shape() == z.shape());
    const std::vector<double> rv = re.to_vector();
    const std::vector<double> iv = im.to_vector();
    for (std::size_t i = 0; i < at.size(); ++i) {
      CHECK(rv[i] == values[static_cast<std::size_t>(at[i])].real());
      CHECK(iv[i] == values[static_cast<std::size_t>(at[i])].imag());
    }
    CHECK(re.is_writable() == z.is_writable());
    if (!z.is_writable()) {
      continue;
    }
    // Writing the real parts keeps the imaginary ones; then imag = real parts reversed (read
    // from a copy: both are views of one storage).
    z.real() = strata::imag(z) * 2.0;
    std::vector<Z> expected = values;
    for (const index_t a : at) {
      expected[static_cast<std::size_t>(a)].real(2 * values[static_cast<std::size_t>(a)].imag());
    }
    Index all;
    for (int k = 0; k < z.rank(); ++k) {
      all.push_back(k);
    }
    z.imag().assign(z.real().reverse(all));
    const Tensor<Z> reversed = z.reverse(all);
    const std::vector<index_t> back = addresses(reversed.dims());
    const std::vector<Z> mid = expected;
    for (std::size_t i = 0; i < at.size(); ++i) {
      expected[static_cast<std::size_t>(at[i])].imag(mid[static_cast<std::size_t>(back[i])].real());
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
      INFO("address " << i);
      CHECK(buffer.read(static_cast<index_t>(i)) == expected[i]);
    }
  }
}

TEST_CASE("real() and imag() keep indices, go to einsum, DLPack and selections as any view",
          "[tensor][complex]") {
  Tensor<Z> z({2, 3});
  for (index_t i = 0; i < 2; ++i) {
    for (index_t j = 0; j < 3; ++j) {
      z(i, j) = Z(static_cast<double>(3 * i + j), static_cast<double>(10 + 3 * i + j));
    }
  }
  // Strides double; absolute indices are the complex view's.
  const Tensor<Z> v = z.select({strata::Range{}, strata::Range{1, 3}});
  CHECK(v.real().strides() == Index{6, 2});
  CHECK(v.real().origin() == Index{0, 1});
  CHECK(v.imag().data() == reinterpret_cast<const double*>(z.data()) + 3);
  // A read-only tensor gives read-only parts.
  const Tensor<const Z> cz = z;
  static_assert(std::is_same_v<decltype(cz.real()), Tensor<const double>>);
  static_assert(std::is_same_v<decltype(z.real()), Tensor<double>>);
  CHECK_FALSE(cz.imag().is_writable());
  // A real tensor's real() is itself, its imag() read-only zeros (NumPy).
  Tensor<double> x = Tensor<double>::of({1, 2, 3});
  x.real().fill(7);
  CHECK(x.to_vector() == std::vector<double>{7, 7, 7});
  static_assert(std::is_same_v<decltype(x.imag()), Tensor<const double>>);
  CHECK(x.imag().to_vector() == std::vector<double>{0, 0, 0});
  CHECK_FALSE(x.imag().is_writable());

  // einsum into the real parts from the imaginary ones, transposed (one storage: a copy first).
  Tensor<Z> s({2, 2});
  s(0, 0) = Z(1, 2);
  s(0, 1) = Z(3, 4);
  s(1, 0) = Z(5, 6);
  s(1, 1) = Z(7, 8);
  strata::einsum_into(s.real(), "ij->ji", s.imag());
  CHECK(s.to_vector() == std::vector<Z>{Z(2, 2), Z(6, 4), Z(4, 6), Z(8, 8)});
  // NumPy: s.imag = np.concatenate([s.real[1:], s.real[:1]])  (rows rolled, through a copy)
  s.imag() = strata::concat<double>(
      0, {s.real().select({strata::Range{1, 2}}), s.real().select({strata::Range{0, 1}})});
  CHECK(s.to_vector() == std::vector<Z>{Z(2, 4), Z(6, 8), Z(4, 2), Z(8, 6)});
  // The conjugate in place.
  s.imag() *= -1.0;
  CHECK(s.to_vector() == std::vector<Z>{Z(2, -4), Z(6, -8), Z(4, -2), Z(8, -6)});

  // DLPack hands the parts out with their doubled strides, as NumPy's z.real.__dlpack__().
  DLManagedTensor* m = strata::to_dlpack(z.imag());
  CHECK(m->dl_tensor.strides[0] == 6);
  CHECK(m->dl_tensor.strides[1] == 2);
  CHECK(static_cast<double*>(m->dl_tensor.data)[0] == 10);
  m->deleter(m);

  // complex64 parts are float32.
  Tensor<std::complex<float>> c({2});
  c.imag().fill(1.5F);
  CHECK(c.to_vector() == std::vector<std::complex<float>>{{0, 1.5F}, {0, 1.5F}});
  static_assert(std::is_same_v<decltype(c.real()), Tensor<float>>);
}

}  // namespace test_tensor_shared_memory
