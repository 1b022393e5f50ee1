// Tests for strata/tensor/copy_kernels.hpp: every path equals the naive element loop.
#include "strata/tensor/copy_kernels.hpp"

#include "layout/view_helpers.hpp"

#include <catch2/catch.hpp>

#include <numeric>

namespace test_tensor_copy_kernels {

using strata::CopyPath;
using strata::Dimensions;
using strata::Index;
using strata::index_t;

namespace {

/// The naive reference: one element at a time through global_to_local.
template <class T>
std::vector<T> naive_copy(std::vector<T> dst, const Dimensions& dd, const std::vector<T>& src,
                          const Dimensions& sd) {
  const auto da = strata::test::addresses(dd);
  const auto sa = strata::test::addresses(sd);
  for (std::size_t i = 0; i < da.size(); ++i) {
    dst[static_cast<std::size_t>(da[i])] = src[static_cast<std::size_t>(sa[i])];
  }
  return dst;
}

index_t span_of(const Dimensions& d) {
  const auto a = strata::test::addresses(d);
  return a.empty() ? 1 : *std::max_element(a.begin(), a.end()) + 1;
}

/// A destination that never aliases: a permuted, maybe flipped or cropped dense map.
Dimensions random_destination(std::mt19937_64& rng, const Index& shape) {
  Index perm(shape.size());
  std::iota(perm.begin(), perm.end(), index_t{0});
  std::shuffle(perm.begin(), perm.end(), rng);
  Index padded(shape.size());
  for (std::size_t k = 0; k < shape.size(); ++k) {
    padded[static_cast<std::size_t>(perm[k])] = shape[k] + strata::test::uniform(rng, 0, 1);
  }
  Dimensions d = Dimensions(padded).transpose(perm);
  std::vector<strata::Selector> crop;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    crop.emplace_back(strata::Range{0, shape[k]});
  }
  d = d.select(crop);
  if (d.rank() > 0 && strata::test::uniform(rng, 0, 1) == 1) {
    d = d.reverse({0});
  }
  return d;
}

/// The elements where two arrays differ: counted, not compared as vectors (Catch would print
/// millions of elements).
template <class T>
std::size_t mismatches(const std::vector<T>& got, const std::vector<T>& want) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    wrong += got[i] == want[i] ? 0 : 1;
  }
  return wrong + (got.size() == want.size() ? 0 : 1);
}

/// Runs @p f once with each blocked-transpose kernel this processor has (the portable 4x4
/// blocks, AVX2 and AVX-512 where present), then restores the best.
template <class F>
void for_each_transpose_kernel(F f) {
  auto& kernels = strata::detail::transpose_kernels();
  const auto best = kernels;
  kernels = strata::detail::TransposeKernels::portable;
  f();
#if defined(STRATA_TRANSPOSE_AVX512)
  if (strata::detail::cpu_has_avx2()) {
    kernels = strata::detail::TransposeKernels::avx2;
    f();
  }
  if (strata::detail::cpu_has_avx512()) {
    kernels = strata::detail::TransposeKernels::avx512;
    f();
  }
#endif
  kernels = best;
}

/// Runs @p f with each blocked-transpose kernel (for_each_transpose_kernel), once with the staged
/// transpose of streamed copies (transpose_tiles_staged) and once with the direct one.
template <class F>
void for_each_streamed_transpose(F f) {
  auto& staging = strata::detail::transpose_staging();
  for (const bool staged : {true, false}) {
    INFO("staged " << staged);
    staging = staged;
    for_each_transpose_kernel(f);
  }
  staging = true;
}

/// Copies @p source through @p src into a destination of -1 through @p dst, sequentially and
/// in parallel with each streamed-transpose configuration (for_each_streamed_transpose), and
/// requires @p expected (the whole destination array).
template <class T>
void expect_streamed_copies(const Dimensions& dst, const std::vector<T>& source,
                            const Dimensions& src, const std::vector<T>& expected) {
  std::vector<T> out(expected.size());
  for_each_streamed_transpose([&] {
    for (const bool parallel : {false, true}) {
      std::fill(out.begin(), out.end(), T{-1});
      if (parallel) {
        strata::copy_arrays(strata::Parallel{1}, out.data(), dst, source.data(), src);
      } else {
        strata::copy_arrays(strata::seq, out.data(), dst, source.data(), src);
      }
      REQUIRE(mismatches(out, expected) == 0);
    }
  });
}

/// Copies an iota source through @p src into a destination of -1 through @p dst, sequentially
/// and in parallel with each transpose kernel, and requires the naive loop's result.
template <class T>
void expect_naive_copy(const Dimensions& dst, const Dimensions& src) {
  std::vector<T> source(static_cast<std::size_t>(span_of(src)));
  std::iota(source.begin(), source.end(), T{0});
  const std::vector<T> initial(static_cast<std::size_t>(span_of(dst)), T{-1});
  const auto expected = naive_copy(initial, dst, source, src);
  for_each_transpose_kernel([&] {
    auto seq_out = initial;
    strata::copy_arrays(strata::seq, seq_out.data(), dst, source.data(), src);
    REQUIRE(seq_out == expected);
    auto par_out = initial;
    strata::copy_arrays(strata::Parallel{1}, par_out.data(), dst, source.data(), src);
    REQUIRE(par_out == expected);
  });
}

}  // namespace

TEST_CASE("copy paths are chosen by the jointly reduced maps", "[tensor]") {
  CHECK(strata::select_copy_path(Dimensions{8, 8}, Dimensions{8, 8}) == CopyPath::memcpy);
  CHECK(strata::select_copy_path(Dimensions{8, 8},
                                 Dimensions{8, 16}.select({strata::all, strata::Range{0, 8}})) ==
        CopyPath::rows);
  CHECK(strata::select_copy_path(Dimensions{16, 16}, Dimensions{16, 16}.transpose()) ==
        CopyPath::blocked);
  CHECK(strata::select_copy_path(Dimensions{4, 64, 64},
                                 Dimensions{4, 64, 64}.transpose({0, 2, 1})) == CopyPath::blocked);
  CHECK(strata::select_copy_path(Dimensions{8, 8}, Dimensions{8, 8}.rotate({1, 1})) ==
        CopyPath::odometer);
  CHECK(strata::select_copy_path(Dimensions{8, 8}, Dimensions{8}.broadcast({8, 8})) ==
        CopyPath::rows);
}

TEST_CASE("every copy path equals the naive loop on random views", "[tensor][property]") {
  std::mt19937_64 rng(2024);
  std::array<int, 4> hits{};
  for (int trial = 0; trial < 1500; ++trial) {
    const Dimensions src = strata::test::random_view(rng, 6);
    const Dimensions dst = random_destination(rng, src.shape());
    INFO("dst " << dst << "\nsrc " << src);
    std::vector<int> source(static_cast<std::size_t>(span_of(src)));
    for (auto& v : source) {
      v = static_cast<int>(rng() % 1000);
    }
    const std::vector<int> initial(static_cast<std::size_t>(span_of(dst)), -1);
    const auto expected = naive_copy(initial, dst, source, src);

    const CopyPath path = strata::select_copy_path(dst, src);
    ++hits[static_cast<std::size_t>(path)];
    for_each_transpose_kernel([&] {
      for (const auto& force : {std::optional<CopyPath>{}, std::optional{CopyPath::odometer}}) {
        auto seq_out = initial;
        strata::copy_arrays(strata::seq, seq_out.data(), dst, source.data(), src, force);
        REQUIRE(seq_out == expected);
        auto par_out = initial;
        strata::copy_arrays(strata::Parallel{1}, par_out.data(), dst, source.data(), src, force);
        REQUIRE(par_out == expected);
      }
    });
  }
  // Every array path was exercised.
  CHECK(hits[0] > 0);
  CHECK(hits[1] > 0);
  CHECK(hits[3] > 0);
}

TEST_CASE("the blocked transpose of 8-byte elements takes the scalar tiles", "[tensor]") {
  const Dimensions src = Dimensions{37, 70}.transpose();
  const Dimensions dst{70, 37};
  std::vector<double> source(static_cast<std::size_t>(src.size()));
  std::iota(source.begin(), source.end(), 0.0);
  std::vector<double> out(source.size(), -1.0);
  strata::copy_arrays(strata::seq, out.data(), dst, source.data(), src, CopyPath::blocked);
  for (index_t i = 0; i < 70; ++i) {
    for (index_t j = 0; j < 37; ++j) {
      REQUIRE(out[static_cast<std::size_t>(i * 37 + j)] ==
              source[static_cast<std::size_t>(j * 70 + i)]);
    }
  }
}

TEST_CASE("the blocked transpose equals the naive loop on ragged tile edges",
          "[tensor][property]") {
  for (const index_t rows : {8, 31, 33, 70, 600}) {
    for (const index_t cols : {8, 32, 45, 77}) {
      for (const index_t batch : {1, 3}) {
        const Dimensions src = Dimensions{batch, cols, rows}.transpose({0, 2, 1});
        const Dimensions dst{batch, rows, cols};
        REQUIRE(strata::select_copy_path(dst, src) == CopyPath::blocked);
        std::vector<int> source(static_cast<std::size_t>(src.size()));
        std::iota(source.begin(), source.end(), 0);
        const std::vector<int> initial(source.size(), -1);
        const auto expected = naive_copy(initial, dst, source, src);
        for_each_transpose_kernel([&] {
          auto out = initial;
          strata::copy_arrays(strata::Parallel{1}, out.data(), dst, source.data(), src);
          REQUIRE(out == expected);
          auto seq_out = initial;
          strata::copy_arrays(strata::seq, seq_out.data(), dst, source.data(), src);
          REQUIRE(seq_out == expected);
        });
      }
    }
  }
}

TEST_CASE("the blocked transpose takes any permutation whose unit axes differ",
          "[tensor][property]") {
  // HPTT's case: the destination's unit axis is strided in the source and the source's unit
  // axis is any other one (not only the second last), with flips and crops around it, 4- and
  // 8-byte elements, sequential and parallel.
  std::mt19937_64 rng(77);
  int blocked = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const auto rank = static_cast<std::size_t>(strata::test::uniform(rng, 2, 4));
    Index shape;
    for (std::size_t k = 0; k < rank; ++k) {
      shape.push_back(strata::test::uniform(rng, rank > 3 ? 3 : 8, rank > 3 ? 12 : 40));
    }
    Index perm(rank);
    std::iota(perm.begin(), perm.end(), index_t{0});
    std::shuffle(perm.begin(), perm.end(), rng);
    Index stored(rank);
    for (std::size_t k = 0; k < rank; ++k) {
      stored[static_cast<std::size_t>(perm[k])] = shape[k];
    }
    Dimensions src = Dimensions(stored).transpose(perm);
    if (strata::test::uniform(rng, 0, 2) == 0) {
      src = src.reverse({0});
    }
    const Dimensions dst = random_destination(rng, shape);
    INFO("dst " << dst << "\nsrc " << src);
    blocked += strata::select_copy_path(dst, src) == CopyPath::blocked ? 1 : 0;
    expect_naive_copy<int>(dst, src);
    expect_naive_copy<double>(dst, src);
  }
  CHECK(blocked > 60);
}

TEST_CASE("a transpose larger than the caches (non-temporal stores) equals the naive loop",
          "[tensor]") {
  // Above transpose_stream_bytes whole cache lines are streamed when a row is a whole number
  // of them (1536 floats, 1024 doubles; 1548 and 1002 are not: plain stores), after peeling
  // the columns before each row's first 64-byte boundary (every offset gives another peel),
  // by both kernels.
  const auto check = [](auto zero, index_t rows, index_t cols, index_t offset) {
    using T = decltype(zero);
    const Dimensions src = Dimensions{cols, rows}.transpose();
    const Dimensions dst = Dimensions({rows, cols}, {cols, 1}, offset);
    REQUIRE(rows * cols * static_cast<index_t>(sizeof(T)) >=
            strata::detail::transpose_stream_bytes);
    REQUIRE(strata::select_copy_path(dst, src) == CopyPath::blocked);
    std::vector<T> source(static_cast<std::size_t>(rows * cols));
    std::iota(source.begin(), source.end(), T{0});
    std::vector<T> out(static_cast<std::size_t>(rows * cols + offset), T{-1});
    std::vector<T> expected = out;
    for (index_t i = 0; i < rows; ++i) {
      for (index_t j = 0; j < cols; ++j) {
        expected[static_cast<std::size_t>(offset + i * cols + j)] =
            source[static_cast<std::size_t>(j * rows + i)];
      }
    }
    for_each_streamed_transpose([&] {
      std::fill(out.begin(), out.end(), T{-1});
      strata::copy_arrays(strata::Parallel{1}, out.data(), dst, source.data(), src);
      REQUIRE(mismatches(out, expected) == 0);
    });
  };
  for (const index_t offset : {0, 1, 4}) {
    check(0.0F, 1540, 1548, offset);
    check(0.0, 1100, 1002, offset);
  }
  for (const index_t offset : {0, 1, 3, 16, 17}) {
    check(0.0F, 1400, 1536, offset);
    check(0.0, 1030, 1024, offset);
  }
}

TEST_CASE("a transpose into destination rows far apart equals the naive loop", "[tensor]") {
  // The reversals' geometry (a 3-D (2,1,0) permutation writes rows 512 KiB apart): rows more
  // than 64 KiB apart, row and column counts off the block edges, offsets that peel 0 to 15
  // columns, and (above transpose_stream_bytes, rows a whole number of cache lines apart)
  // non-temporal stores, through both kernels.
  const auto check = [](auto zero, index_t rows, index_t cols, index_t row_stride, index_t offset) {
    using T = decltype(zero);
    INFO("rows " << rows << " cols " << cols << " row stride " << row_stride << " offset " << offset
                 << " element bytes " << sizeof(T));
    REQUIRE(row_stride * static_cast<index_t>(sizeof(T)) > (index_t{64} << 10));
    const Dimensions src = Dimensions{cols, rows}.transpose();
    const Dimensions dst = Dimensions({rows, cols}, {row_stride, 1}, offset);
    REQUIRE(strata::select_copy_path(dst, src) == CopyPath::blocked);
    std::vector<T> source(static_cast<std::size_t>(rows * cols));
    std::iota(source.begin(), source.end(), T{0});
    std::vector<T> expected(static_cast<std::size_t>(offset + (rows - 1) * row_stride + cols),
                            T{-1});
    for (index_t i = 0; i < rows; ++i) {
      for (index_t j = 0; j < cols; ++j) {
        expected[static_cast<std::size_t>(offset + i * row_stride + j)] =
            source[static_cast<std::size_t>(j * rows + i)];
      }
    }
    expect_streamed_copies(dst, source, src, expected);
  };
  for (const index_t offset : {0, 1, 3, 9}) {
    check(0.0F, 37, 45, 20000, offset);
    check(0.0F, 64, 16, 16400, offset);
    check(0.0, 37, 45, 9000, offset);
    check(0.0, 9, 8, 8200, offset);
  }
  for (const index_t offset : {0, 5}) {
    check(0.0F, 130, 16390, 16400, offset);  // 8.5 MB: streamed
    check(0.0, 66, 16390, 16400, offset);
  }
}

TEST_CASE("a streamed transpose of many small planes equals the naive loop", "[tensor]") {
  // The (0,2,1) permutation of [planes, cols, rows]: destination rows of 272 floats and 136
  // doubles (more than transpose_stage_rows_apart: staged, planes small enough to prefetch the
  // next one, 100 rows = 6 blocks and 4 more, two tiles of transpose_stage_line and a part
  // one) and of 256 floats (at most transpose_stage_rows_apart: the direct transpose even with
  // staging on); each copy above transpose_stream_bytes, so streamed.
  const auto check = [](auto zero, index_t planes, index_t cols, index_t rows) {
    using T = decltype(zero);
    INFO("planes " << planes << " cols " << cols << " rows " << rows << " element bytes "
                   << sizeof(T));
    REQUIRE(planes * cols * rows * static_cast<index_t>(sizeof(T)) >=
            strata::detail::transpose_stream_bytes);
    const Dimensions src = Dimensions{planes, cols, rows}.transpose({0, 2, 1});
    const Dimensions dst{planes, rows, cols};
    REQUIRE(strata::select_copy_path(dst, src) == CopyPath::blocked);
    std::vector<T> source(static_cast<std::size_t>(planes * cols * rows));
    std::iota(source.begin(), source.end(), T{0});
    std::vector<T> expected(source.size(), T{-1});
    for (index_t p = 0; p < planes; ++p) {
      for (index_t i = 0; i < rows; ++i) {
        for (index_t j = 0; j < cols; ++j) {
          expected[static_cast<std::size_t>((p * rows + i) * cols + j)] =
              source[static_cast<std::size_t>((p * cols + j) * rows + i)];
        }
      }
    }
    expect_streamed_copies(dst, source, src, expected);
  };
  check(0.0F, 78, 272, 100);
  check(0.0, 78, 136, 100);
  check(0.0F, 65, 256, 128);
}

TEST_CASE("the blocked transpose's outer planes continue the source's rows a page at a time",
          "[tensor]") {
  using strata::Axis;
  const auto axis = [](index_t extent, index_t stride) {
    return Axis{extent, stride, extent, 0, nullptr};
  };
  const auto extents_strides = [](const std::vector<Axis>& axes) {
    std::vector<std::pair<index_t, index_t>> out;
    for (const Axis& a : axes) {
      out.emplace_back(a.extent, a.stride);
    }
    return out;
  };
  using Pairs = std::vector<std::pair<index_t, index_t>>;
  // The full reversal of float [64, 64, 128, 128]: planes (l, i), outer axes k then j in the
  // destination's order; k steps 512 bytes of the source, so 8 of them make a page.
  std::vector<Axis> dout{axis(128, 4096), axis(64, 64)};
  std::vector<Axis> sout{axis(128, 128), axis(64, 16384)};
  strata::detail::order_planes(dout, sout, 4);
  CHECK(extents_strides(dout) == Pairs{{16, 32768}, {64, 64}, {8, 4096}});
  CHECK(extents_strides(sout) == Pairs{{16, 1024}, {64, 16384}, {8, 128}});
  // 8-byte elements: 4 steps make a page; an extent of 12 splits at its largest divisor <= 8.
  dout = {axis(12, 4096), axis(64, 64)};
  sout = {axis(12, 128), axis(64, 16384)};
  strata::detail::order_planes(dout, sout, 8);
  CHECK(extents_strides(sout) == Pairs{{3, 512}, {64, 16384}, {4, 128}});
  // The whole axis fits in a page: it moves inside, nothing stays outside.
  dout = {axis(6, 4096), axis(64, 64)};
  sout = {axis(6, 128), axis(64, 16384)};
  strata::detail::order_planes(dout, sout, 4);
  CHECK(extents_strides(dout) == Pairs{{64, 64}, {6, 4096}});
  CHECK(extents_strides(sout) == Pairs{{64, 16384}, {6, 128}});
  // Unchanged: the smallest source stride already innermost, a step of a page or more, a
  // broadcast, a single outer axis.
  for (const auto& [d0, s0] : std::vector<std::pair<std::vector<Axis>, std::vector<Axis>>>{
           {{axis(64, 64), axis(128, 4096)}, {axis(64, 16384), axis(128, 128)}},
           {{axis(128, 4096), axis(64, 64)}, {axis(128, 1024), axis(64, 16384)}},
           {{axis(128, 4096), axis(64, 64)}, {axis(128, 0), axis(64, 16384)}},
           {{axis(128, 4096)}, {axis(128, 128)}}}) {
    auto d = d0;
    auto s = s0;
    strata::detail::order_planes(d, s, 4);
    CHECK(extents_strides(d) == extents_strides(d0));
    CHECK(extents_strides(s) == extents_strides(s0));
  }
}

TEST_CASE("a blocked transpose whose outer planes are reordered equals the naive loop",
          "[tensor][property]") {
  // Reversals and other permutations of rank 4 and 5 whose outer axis of smallest source
  // stride is not the destination's innermost outer axis and steps less than a page, so
  // order_planes moves it inside (split in chunks where its extent exceeds a page), with flips
  // of the source and of the destination's outer axes; 4- and 8-byte elements, both kernels,
  // sequential and parallel.
  struct Case {
    Index stored;
    Index perm;
  };
  const std::vector<Case> cases{{{8, 6, 24, 48}, {3, 2, 1, 0}},
                                {{10, 7, 36, 16}, {3, 2, 1, 0}},
                                {{9, 5, 40, 24}, {3, 1, 2, 0}},
                                {{8, 3, 5, 12, 16}, {4, 3, 2, 1, 0}},
                                {{9, 2, 6, 20, 16}, {4, 2, 3, 1, 0}}};
  for (const Case& c : cases) {
    for (int variant = 0; variant < 4; ++variant) {
      Dimensions src = Dimensions(c.stored).transpose(c.perm);
      if (variant % 2 == 1) {
        src = src.reverse({1});
      }
      const Index shape = src.shape();
      const Dimensions dst = variant < 2 ? Dimensions(shape) : Dimensions(shape).reverse({0, 2});
      INFO("dst " << dst << "\nsrc " << src);
      REQUIRE(strata::select_copy_path(dst, src) == CopyPath::blocked);
      expect_naive_copy<float>(dst, src);
      expect_naive_copy<double>(dst, src);
    }
  }
}

}  // namespace test_tensor_copy_kernels
