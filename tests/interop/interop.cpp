// Tests for strata/interop: DLPack hand-offs both ways (every element type, every strided view
// kind, deleters counted), Eigen maps and BLAS descriptions of matrix views, mdspans.
#include "strata/interop/blas.hpp"
#include "strata/interop/mdspan.hpp"

#include "check_error.hpp"
#include "layout/view_helpers.hpp"

#include <catch2/catch.hpp>

#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#if __has_include(<dlpack/dlpack.h>)
#include "strata/interop/dlpack.hpp"
#define STRATA_TEST_HAVE_DLPACK 1
#endif
#ifdef STRATA_TEST_HAVE_EIGEN
#include "strata/interop/eigen.hpp"
#endif

namespace test_interop_interop {

using strata::Index;
using strata::index_t;
using strata::Range;
using strata::Tensor;

namespace {

template <class T>
Tensor<T> numbered(const Index& shape) {
  auto t = Tensor<T>(shape);
  T* p = t.data();
  for (index_t i = 0; i < t.size(); ++i) {
    if constexpr (std::is_same_v<T, bool>) {
      p[i] = i % 3 == 1;
    } else {
      p[i] = static_cast<T>(i % 100);
    }
  }
  return t;
}

}  // namespace

#ifdef STRATA_TEST_HAVE_DLPACK

TEMPLATE_TEST_CASE("to_dlpack and from_dlpack share memory for every element type", "[interop]",
                   bool, std::int8_t, std::uint16_t, std::int32_t, std::int64_t, std::uint64_t,
                   float, double, std::complex<float>, std::complex<double>) {
  using T = TestType;
  auto t = numbered<T>({3, 4});
  const auto view = t.select({Range{{}, {}, -1}, Range{1, 4, 2}});  // flipped rows, step 2
  DLManagedTensor* m = strata::to_dlpack(view);
  const DLTensor& d = m->dl_tensor;
  CHECK(d.ndim == 2);
  CHECK(d.shape[0] == 3);
  CHECK(d.shape[1] == 2);
  CHECK(d.strides[0] == -4);  // in elements, signed
  CHECK(d.strides[1] == 2);
  CHECK(d.data == view.data());
  CHECK(d.device.device_type == kDLCPU);
  const auto back = strata::from_dlpack<T>(m);  // strata owns m now
  CHECK(back.data() == view.data());             // the same memory
  CHECK(back.shape() == view.shape());
  CHECK(back.strides() == view.strides());
  CHECK(back.to_vector() == view.to_vector());
}

TEST_CASE("DLPack: deleters run once, memory lives as long as its last user", "[interop]") {
  // strata -> consumer: the consumer's deleter call frees strata's hold on the buffer.
  auto t = numbered<double>({2, 3});
  DLManagedTensor* m = strata::to_dlpack(t.transpose());
  t.rebind(Tensor<double>());                 // the producer's handle is gone...
  const auto* data = static_cast<const double*>(m->dl_tensor.data);
  CHECK(data[m->dl_tensor.strides[0] * 2] == 2.0);  // ...the memory is not: (2, 0) of t.T
  m->deleter(m);

  // producer -> strata: the producer's deleter is called once, when the last view goes.
  static int deleted = 0;
  deleted = 0;
  std::vector<float> memory{0, 1, 2, 3, 4, 5};
  std::int64_t shape[2] = {2, 3};
  DLManagedTensor managed{};
  managed.dl_tensor.data = memory.data();
  managed.dl_tensor.device = {kDLCPU, 0};
  managed.dl_tensor.ndim = 2;
  managed.dl_tensor.dtype = {kDLFloat, 32, 1};
  managed.dl_tensor.shape = shape;
  managed.dl_tensor.strides = nullptr;  // compact row-major
  managed.deleter = [](DLManagedTensor*) { ++deleted; };
  {
    auto a = strata::from_dlpack<float>(&managed);
    auto col = a.select({strata::all, 1});
    {
      const auto a_copy = a;
    }
    a.rebind(Tensor<float>());
    CHECK(deleted == 0);  // a column view still holds the memory
    col.fill(9.0F);       // writes through to the producer's memory
  }
  CHECK(deleted == 1);
  CHECK(memory == std::vector<float>{0, 9, 2, 3, 9, 5});

  // Read-only memory comes in as Tensor<const T>.
  deleted = 0;
  {
    const auto r = strata::from_dlpack<const float>(&managed);
    CHECK_FALSE(r.is_writable());
    CHECK(r.at({1, 2}) == 5.0F);
  }
  CHECK(deleted == 1);
}

TEST_CASE("DLPack round trips of random strided views", "[interop]") {
  std::mt19937_64 rng(33);
  const auto base = numbered<std::int32_t>({700});
  for (int trial = 0; trial < 200; ++trial) {
    const strata::Dimensions d = strata::test::random_view(rng, 4);
    if (!d.is_strided() || d.size() == 0 || d.address_range().second >= 700) {
      continue;
    }
    const Tensor<const std::int32_t> view(base.buffer(), d);
    INFO("view " << strata::to_string(d));
    const auto back = strata::from_dlpack<const std::int32_t>(strata::to_dlpack(view));
    CHECK(back.shape() == view.shape());
    CHECK(back.to_vector() == view.to_vector());
  }
}

TEST_CASE("DLPack: bad input is an error that names the operation and the argument", "[interop]") {
  using strata::test::check_error;
  auto t = numbered<double>({4, 4});
  check_error<strata::LayoutError>([&] { (void)strata::to_dlpack(t.rotate(1, 0)); }, "to_dlpack",
                                   "copy()");
  check_error<strata::LayoutError>(
      [&] { (void)strata::to_dlpack(t.select({std::vector<index_t>{2, 0}})); }, "to_dlpack",
      "index array");
  DLManagedTensor* m = strata::to_dlpack(t);
  check_error<strata::TypeError>([&] { (void)strata::from_dlpack<float>(m); }, "from_dlpack",
                                 "float64");
  m->dl_tensor.device.device_type = kDLCUDA;
  check_error<strata::LayoutError>([&] { (void)strata::from_dlpack<double>(m); }, "from_dlpack",
                                   "device type 2");
  m->dl_tensor.device.device_type = kDLCPU;
  m->dl_tensor.dtype = {kDLBfloat, 16, 1};
  check_error<strata::TypeError>([&] { (void)strata::from_dlpack<double>(m); }, "from_dlpack",
                                 "bfloat16");
  m->dl_tensor.dtype = {kDLFloat, 64, 1};
  m->dl_tensor.shape[0] = -1;
  check_error<strata::ShapeError>([&] { (void)strata::from_dlpack<double>(m); }, "from_dlpack",
                                  "negative extent -1");
  m->dl_tensor.shape[0] = 4;
  m->deleter(m);  // not consumed by the failed imports
  std::vector<double> memory(6);
  check_error<strata::ShapeError>(
      [&] { (void)strata::from_memory(memory.data(), Index{2, 3}, Index{3}, nullptr); },
      "from_memory", "[3]");
  const auto over = strata::from_memory(memory.data() + 5, Index{2, 3}, Index{-3, -1}, nullptr);
  CHECK(over.at({0, 0}) == 0.0);
  CHECK(over.data() == memory.data() + 5);  // [::-1, ::-1] of memory, no copy
  check_error<strata::LayoutError>([&] { (void)strata::from_dlpack<double>(nullptr); },
                                   "from_dlpack", "null");
}

#endif  // STRATA_TEST_HAVE_DLPACK

TEST_CASE("to_mdspan views a tensor as an mdspan-shaped view, no copy", "[interop]") {
  Tensor<double> t({3, 4});
  for (index_t k = 0; k < 12; ++k) t.at({k / 4, k % 4}) = static_cast<double>(k);
  auto v = t.select({Range{1, 3}, Range{{}, {}, 2}});
  auto m = strata::to_mdspan<2>(v);
  CHECK(m.data() == t.data() + 4);  // element (1, 0)
  for (index_t i = 0; i < 2; ++i) {
    for (index_t j = 0; j < 2; ++j) {
      CHECK(m(i, j) == t.at({1 + i, 2 * j}));
    }
  }
  m(1, 1) = -1.0;  // writes through
  CHECK(t.at({2, 2}) == -1.0);
#if !defined(__cpp_lib_mdspan)
  // StridedSpan (no <mdspan> in this library) takes negative strides
  auto r = t.select({Range{{}, {}, -1}});
  auto mr = strata::to_mdspan<2>(r);
  CHECK(mr.stride(0) == -4);
  CHECK(mr(0, 3) == t.at({2, 3}));
#else
  auto r = t.select({Range{{}, {}, -1}});
  strata::test::check_error<strata::LayoutError>([&] { (void)strata::to_mdspan<2>(r); }, "to_mdspan", "stride -4");
#endif
  strata::test::check_error<strata::ShapeError>([&] { (void)strata::to_mdspan<3>(t); }, "to_mdspan",
                                                "mdspan of rank 3");
}

namespace mini {
// The parts of std::mdspan<T, std::dextents<I, N>, std::layout_stride> that to_mdspan_as uses,
// written as the standard specifies them (the reference implementation and Kokkos' mdspan have
// the same members): it stands for an mdspan that this standard library lacks.
template <class I, std::size_t N>
struct dextents {
  using index_type = I;
  static constexpr std::size_t rank() { return N; }
  static constexpr std::size_t rank_dynamic() { return N; }
  explicit dextents(const std::array<I, N>& e) : e_(e) {}
  I extent(std::size_t k) const { return e_[k]; }
  std::array<I, N> e_;
};

struct layout_stride {
  template <class E>
  struct mapping {
    using index_type = typename E::index_type;
    mapping(const E& e, const std::array<index_type, E::rank()>& s) : extents_(e), strides_(s) {}
    template <class... J>
    index_type operator()(J... i) const {
      index_type offset = 0;
      std::size_t k = 0;
      ((offset += static_cast<index_type>(i) * strides_[k++]), ...);
      return offset;
    }
    E extents_;
    std::array<index_type, E::rank()> strides_;
  };
};

template <class T, class E, class L>
struct mdspan {
  using element_type = T;
  using extents_type = E;
  using mapping_type = typename L::template mapping<E>;
  mdspan(T* p, const mapping_type& m) : p_(p), map_(m) {}
  template <class... J>
  T& operator()(J... i) const { return p_[map_(i...)]; }
  T* data_handle() const { return p_; }
  const mapping_type& mapping() const { return map_; }
  T* p_;
  mapping_type map_;
};
}  // namespace mini

TEST_CASE("to_mdspan_as gives any std::mdspan-shaped type with a layout_stride mapping", "[interop]") {
  Tensor<double> t({3, 4});
  for (index_t k = 0; k < 12; ++k) t.at({k / 4, k % 4}) = static_cast<double>(k);
  using M = mini::mdspan<double, mini::dextents<long, 2>, mini::layout_stride>;
  const auto v = t.select({Range{1, 3}, Range{{}, {}, 2}}).transpose();  // v[i, j] = t[1 + j, 2 i]
  const M m = strata::to_mdspan_as<M>(v);
  CHECK(m.data_handle() == t.data() + 4);  // element (1, 0), no copy
  CHECK(m.mapping().extents_.extent(0) == 2);
  CHECK(m.mapping().extents_.extent(1) == 2);
  CHECK(m.mapping().strides_ == std::array<long, 2>{2, 4});
  for (long i = 0; i < 2; ++i) {
    for (long j = 0; j < 2; ++j) {
      CHECK(m(i, j) == t.at({1 + j, 2 * i}));
    }
  }
  m(0, 1) = -2.0;  // writes through: t[2, 0]
  CHECK(t.at({2, 0}) == -2.0);
  // read-only views give an mdspan of const elements
  using C = mini::mdspan<const double, mini::dextents<int, 1>, mini::layout_stride>;
  const C row = strata::to_mdspan_as<C>(Tensor<const double>(t).select({index_t{1}}));
  CHECK(row(3) == 7.0);
  // layout_stride takes no negative stride; a wrong rank is the span's ShapeError
  const auto r = t.select({Range{{}, {}, -1}});
  strata::test::check_error<strata::LayoutError>([&] { (void)strata::to_mdspan_as<M>(r); }, "to_mdspan",
                                                 "stride -4");
  using M3 = mini::mdspan<double, mini::dextents<long, 3>, mini::layout_stride>;
  strata::test::check_error<strata::ShapeError>([&] { (void)strata::to_mdspan_as<M3>(t); },
                                                "to_mdspan", "mdspan of rank 3");
  CHECK(t.at({2, 0}) == -2.0);  // unchanged by the refusals
}

TEST_CASE("blas_matrix describes a matrix view for BLAS, or says why it cannot", "[interop]") {
  auto t = numbered<double>({4, 6});
  const auto rows = strata::blas_matrix(t.select({Range{1, 3}}));
  CHECK(rows.row_major);
  CHECK(rows.leading == 6);
  CHECK(rows.rows == 2);
  CHECK(rows.cols == 6);
  CHECK(rows.data == &t.data()[6]);
  const auto tr = strata::blas_matrix(t.transpose());
  CHECK_FALSE(tr.row_major);  // a transpose is column-major with the same leading dimension
  CHECK(tr.leading == 6);
  CHECK(tr.rows == 6);
  const auto cols = strata::blas_matrix(t.select({strata::all, Range{2, 5}}));
  CHECK(cols.leading == 6);
  CHECK(cols.cols == 3);
  using strata::test::check_error;
  check_error<strata::LayoutError>(
      [&] { (void)strata::blas_matrix(t.select({strata::all, Range{{}, {}, 2}})); },
      "blas_matrix", "stride 1");
  check_error<strata::LayoutError>(
      [&] { (void)strata::blas_matrix(t.select({Range{{}, {}, -1}})); }, "blas_matrix", "[-6 1]");
  check_error<strata::ShapeError>([&] { (void)strata::blas_matrix(t.select({0})); },
                                  "blas_matrix", "[6]");
}

#ifdef STRATA_TEST_HAVE_EIGEN
TEST_CASE("as_eigen maps strided matrix views, writes through", "[interop]") {
  auto t = numbered<double>({5, 7});
  std::mt19937_64 rng(5);
  const std::vector<std::vector<strata::Selector>> views{
      {strata::all, strata::all}, {Range{1, 4}, Range{0, 7, 3}}, {Range{{}, {}, 2}, 4}};
  for (const auto& sel : views) {
    auto v = t.select(std::span<const strata::Selector>(sel));
    if (v.rank() == 1) {
      v.rebind(v.unsqueeze(1));
    }
    for (const auto& w : {v, v.transpose()}) {
      const auto m = strata::as_eigen(w);
      REQUIRE(m.rows() == w.shape()[0]);
      REQUIRE(m.cols() == w.shape()[1]);
      for (index_t i = 0; i < m.rows(); ++i) {
        for (index_t j = 0; j < m.cols(); ++j) {
          CHECK(m(i, j) == w.at({i, j}));
        }
      }
    }
  }
  auto m = strata::as_eigen(t.transpose());
  m(2, 1) = -1.0;
  CHECK(t.at({1, 2}) == -1.0);
  using strata::test::check_error;
  check_error<strata::LayoutError>([&] { (void)strata::as_eigen(t.reverse({1})); }, "as_eigen",
                                   "negative");
  check_error<strata::ShapeError>([&] { (void)strata::as_eigen(t.select({0})); }, "as_eigen",
                                  "[7]");
}
#endif

}  // namespace test_interop_interop
