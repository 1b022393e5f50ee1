/// @file
/// Copy kernels: after joint reduction, memcpy, row copies, cache-blocked transposes or the
/// odometer, in parallel above a grain size.
#pragma once

#include "strata/buffer/any_buffer.hpp"
#include "strata/buffer/dense_buffer.hpp"
#include "strata/layout/dimensions.hpp"
#include "strata/layout/odometer.hpp"
#include "strata/layout/reduce_jointly.hpp"
#include "strata/parallel/policy.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <type_traits>

#if defined(__SSE2__)
#include <immintrin.h>
#endif
#include <array>
#include <optional>
#include <ostream>
#include <vector>

namespace strata {

/// The kernel a copy between two maps of one shape runs.
enum class CopyPath {
  memcpy,    ///< both sides are one contiguous run
  rows,      ///< both innermost axes are contiguous: one memcpy per row
  blocked,   ///< a transpose of the two innermost axes: cache-blocked tiles
  odometer,  ///< anything else: the joint odometer with a strided inner loop
  generic,   ///< a buffer without data(): element by element through the buffer interface
};

/// Prints the path's name.
/// @param out the stream
/// @param path the path
/// @return @p out
inline std::ostream& operator<<(std::ostream& out, CopyPath path) {
  constexpr const char* names[] = {"memcpy", "rows", "blocked", "odometer", "generic"};
  return out << names[static_cast<int>(path)];
}

/// The fastest path for copying between two contiguous buffers through maps of one shape.
/// @param dst the destination map
/// @param src the source map, same shape
/// @return the path copy_buffers() takes
/// @throws ShapeError when the shapes differ
inline CopyPath select_copy_path(const Dimensions& dst, const Dimensions& src) {
  const auto [d, s] = reduce_jointly(dst, src);
  const int r = d.rank();
  const auto ax = [](const Dimensions& m, int k) -> const Axis& {
    return m.axes()[static_cast<std::size_t>(k)];
  };
  const auto unit = [](const Axis& a) { return a.is_plain() && a.stride == 1; };
  if (d.size() <= 1 || (r == 1 && unit(ax(d, 0)) && unit(ax(s, 0)))) {
    return CopyPath::memcpy;
  }
  if (unit(ax(d, r - 1)) && unit(ax(s, r - 1))) {
    return CopyPath::rows;
  }
  // A transposition: the destination's unit axis is strided in the source, and the source's
  // unit axis is another one (any, not only the second last: HPTT's rule).
  if (r >= 2 && unit(ax(d, r - 1)) && ax(s, r - 1).is_plain() && ax(d, r - 1).extent >= 8) {
    for (int k = r - 2; k >= 0; --k) {
      if (unit(ax(s, k)) && ax(d, k).is_plain() && ax(d, k).extent >= 8) {
        return CopyPath::blocked;
      }
    }
  }
  return CopyPath::odometer;
}

namespace detail {

/// The axis the blocked transpose pairs with the last one: the source's unit axis among the
/// others (the last such from the end), or the second last when none is.
inline std::size_t blocked_axis(const Dimensions& d, const Dimensions& s) {
  const auto r = static_cast<std::size_t>(d.rank());
  for (std::size_t k = r - 1; k-- > 0;) {
    const Axis& a = s.axes()[k];
    if (a.is_plain() && a.stride == 1 && d.axes()[k].is_plain()) {
      return k;
    }
  }
  return r - 2;
}

/// The tile of the blocked transpose along the destination's rows (the source's unit axis):
/// 1 KiB of each source row.
template <class T>
inline constexpr index_t transpose_rows_tile = std::max<index_t>(1024 / sizeof(T), 4);
/// The tile along the destination's unit axis: two cache lines of each destination row.
template <class T>
inline constexpr index_t transpose_cols_tile = std::max<index_t>(128 / sizeof(T), 4);
/// Planes of the blocked transpose up to this many bytes prefetch the whole next plane while
/// they are transposed (see transpose_tiles_vector).
inline constexpr index_t transpose_small_plane_bytes = index_t{256} << 10;
/// Copies of at least this many bytes write the blocked transpose's destination with
/// non-temporal stores (it would not stay in cache; the stores skip reading it first).
inline constexpr index_t transpose_stream_bytes = index_t{8} << 20;
/// Bytes of each source row in a tile of the staged transpose (transpose_tiles_staged).
inline constexpr index_t transpose_stage_run = 2048;
/// Bytes of each destination row in a tile of the staged transpose: what one visit of a row
/// writes.
inline constexpr index_t transpose_stage_line = 512;
/// Streamed copies whose destination rows are more than this many bytes apart are staged
/// (transpose_tiles_staged); nearer rows, a block's 16 lines within 16 KiB, are written directly.
inline constexpr index_t transpose_stage_rows_apart = 1024;
/// The staged transpose's buffer: one tile of 4-byte elements (8-byte ones use half).
inline constexpr index_t transpose_stage_bytes = transpose_stage_run * transpose_stage_line / 4;

/// Transposes one 4x4 block through SSE registers (4- and 8-byte elements; a plain loop for
/// others): dst[r * dst_row + c] = src[r + c * src_col] for r, c < 4. With @p stream the
/// stores are non-temporal (the caller checks that every destination row is 16-byte aligned).
template <class T>
inline void transpose4x4(T* dst, index_t dst_row, const T* src, index_t src_col, bool stream) {
#if defined(__SSE2__)
  if constexpr (sizeof(T) == 4 && std::is_trivially_copyable_v<T>) {
    // Intrinsic loads and stores may alias any type.
    const auto* in = reinterpret_cast<const float*>(src);
    auto* out = reinterpret_cast<float*>(dst);
    __m128 r0 = _mm_loadu_ps(in);
    __m128 r1 = _mm_loadu_ps(in + src_col);
    __m128 r2 = _mm_loadu_ps(in + 2 * src_col);
    __m128 r3 = _mm_loadu_ps(in + 3 * src_col);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    if (stream) {
      _mm_stream_ps(out, r0);
      _mm_stream_ps(out + dst_row, r1);
      _mm_stream_ps(out + 2 * dst_row, r2);
      _mm_stream_ps(out + 3 * dst_row, r3);
    } else {
      _mm_storeu_ps(out, r0);
      _mm_storeu_ps(out + dst_row, r1);
      _mm_storeu_ps(out + 2 * dst_row, r2);
      _mm_storeu_ps(out + 3 * dst_row, r3);
    }
    return;
  }
  if constexpr (sizeof(T) == 8 && std::is_trivially_copyable_v<T>) {
    // Four 2x2 transposes through SSE2 registers.
    const auto* in = reinterpret_cast<const double*>(src);
    auto* out = reinterpret_cast<double*>(dst);
    for (index_t c = 0; c < 4; c += 2) {
      for (index_t r = 0; r < 4; r += 2) {
        const __m128d a = _mm_loadu_pd(in + r + c * src_col);        // src[r..r+1, c]
        const __m128d b = _mm_loadu_pd(in + r + (c + 1) * src_col);  // src[r..r+1, c+1]
        if (stream) {
          _mm_stream_pd(out + r * dst_row + c, _mm_unpacklo_pd(a, b));
          _mm_stream_pd(out + (r + 1) * dst_row + c, _mm_unpackhi_pd(a, b));
        } else {
          _mm_storeu_pd(out + r * dst_row + c, _mm_unpacklo_pd(a, b));
          _mm_storeu_pd(out + (r + 1) * dst_row + c, _mm_unpackhi_pd(a, b));
        }
      }
    }
    return;
  }
#endif
  (void)stream;
  for (index_t c = 0; c < 4; ++c) {
    for (index_t r = 0; r < 4; ++r) {
      dst[r * dst_row + c] = src[r + c * src_col];
    }
  }
}

/// The vector kernels the blocked transpose runs.
enum class TransposeKernels {
  portable,  ///< SSE2 4x4 blocks (plain loops where SSE2 is missing)
  avx2,      ///< AVX2 blocks of one cache line (x86-64 processors that have AVX2)
  avx512,    ///< AVX-512 blocks of one cache line (x86-64 processors that have AVX-512F)
};

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// Defined where the blocked transpose has AVX2 and AVX-512 kernels (x86-64, GCC or clang;
/// chosen at run time by detail::transpose_kernels()).
#define STRATA_TRANSPOSE_AVX512 1
// GCC 12's AVX-512 intrinsics start from _mm512_undefined_ps(), which -Wuninitialized
// reports where they are inlined (GCC bug 105593).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

/// Stores one 64-byte register at @p out, non-temporal with @p stream (then @p out is 64-byte
/// aligned).
__attribute__((target("avx512f"))) inline void store_line_avx512(float* out, __m512 v,
                                                                 bool stream) {
  if (stream) {
    _mm512_stream_ps(out, v);
  } else {
    _mm512_storeu_ps(out, v);
  }
}
/// @copydoc store_line_avx512(float*, __m512, bool)
__attribute__((target("avx512f"))) inline void store_line_avx512(double* out, __m512d v,
                                                                 bool stream) {
  if (stream) {
    _mm512_stream_pd(out, v);
  } else {
    _mm512_storeu_pd(out, v);
  }
}

/// Transposes one block of a cache line's worth of rows through AVX-512 registers (16x16 of
/// 4-byte lanes, 8x8 of 8-byte lanes): dst[r * dst_row + c] = src[r + c * src_col]. Each
/// destination row gets one whole 64-byte store, non-temporal with @p stream (the caller
/// checks that every destination row of the block is 64-byte aligned).
template <class Lane>
__attribute__((target("avx512f"))) inline void transpose_block_avx512(Lane* dst, index_t dst_row,
                                                                      const Lane* src,
                                                                      index_t src_col,
                                                                      bool stream) {
  if constexpr (sizeof(Lane) == 4) {
    // Pairs of rows interleaved, then 4x4 blocks inside each 128-bit lane, then the lanes
    // gathered across four registers (the classic unpack / shuffle / shuffle_f32x4 network).
    __m512 r[16];
    __m512 t[16];
    for (int q = 0; q < 16; ++q) {
      r[q] = _mm512_loadu_ps(src + q * src_col);
    }
    for (int k = 0; k < 16; k += 2) {
      t[k] = _mm512_unpacklo_ps(r[k], r[k + 1]);
      t[k + 1] = _mm512_unpackhi_ps(r[k], r[k + 1]);
    }
    for (int k = 0; k < 16; k += 4) {
      r[k] = _mm512_shuffle_ps(t[k], t[k + 2], 0x44);
      r[k + 1] = _mm512_shuffle_ps(t[k], t[k + 2], 0xEE);
      r[k + 2] = _mm512_shuffle_ps(t[k + 1], t[k + 3], 0x44);
      r[k + 3] = _mm512_shuffle_ps(t[k + 1], t[k + 3], 0xEE);
    }
    // Lane l of r[4k + m] is column 4l + m of source rows 4k..4k+3.
    for (int m = 0; m < 4; ++m) {
      const __m512 x0 = _mm512_shuffle_f32x4(r[m], r[4 + m], 0x44);
      const __m512 x1 = _mm512_shuffle_f32x4(r[m], r[4 + m], 0xEE);
      const __m512 y0 = _mm512_shuffle_f32x4(r[8 + m], r[12 + m], 0x44);
      const __m512 y1 = _mm512_shuffle_f32x4(r[8 + m], r[12 + m], 0xEE);
      store_line_avx512(dst + m * dst_row, _mm512_shuffle_f32x4(x0, y0, 0x88), stream);
      store_line_avx512(dst + (4 + m) * dst_row, _mm512_shuffle_f32x4(x0, y0, 0xDD), stream);
      store_line_avx512(dst + (8 + m) * dst_row, _mm512_shuffle_f32x4(x1, y1, 0x88), stream);
      store_line_avx512(dst + (12 + m) * dst_row, _mm512_shuffle_f32x4(x1, y1, 0xDD), stream);
    }
  } else {
    __m512d r[8];
    __m512d t[8];
    for (int q = 0; q < 8; ++q) {
      r[q] = _mm512_loadu_pd(src + q * src_col);
    }
    for (int k = 0; k < 8; k += 2) {
      t[k] = _mm512_unpacklo_pd(r[k], r[k + 1]);
      t[k + 1] = _mm512_unpackhi_pd(r[k], r[k + 1]);
    }
    // Lane l of t[2k + p] is column 2l + p of source rows 2k, 2k + 1.
    for (int p = 0; p < 2; ++p) {
      const __m512d x0 = _mm512_shuffle_f64x2(t[p], t[2 + p], 0x44);
      const __m512d x1 = _mm512_shuffle_f64x2(t[p], t[2 + p], 0xEE);
      const __m512d y0 = _mm512_shuffle_f64x2(t[4 + p], t[6 + p], 0x44);
      const __m512d y1 = _mm512_shuffle_f64x2(t[4 + p], t[6 + p], 0xEE);
      store_line_avx512(dst + p * dst_row, _mm512_shuffle_f64x2(x0, y0, 0x88), stream);
      store_line_avx512(dst + (2 + p) * dst_row, _mm512_shuffle_f64x2(x0, y0, 0xDD), stream);
      store_line_avx512(dst + (4 + p) * dst_row, _mm512_shuffle_f64x2(x1, y1, 0x88), stream);
      store_line_avx512(dst + (6 + p) * dst_row, _mm512_shuffle_f64x2(x1, y1, 0xDD), stream);
    }
  }
}

/// Stores one 32-byte register at @p out, non-temporal with @p stream (then @p out is 32-byte
/// aligned).
__attribute__((target("avx2"))) inline void store_half_avx2(float* out, __m256 v, bool stream) {
  if (stream) {
    _mm256_stream_ps(out, v);
  } else {
    _mm256_storeu_ps(out, v);
  }
}
/// @copydoc store_half_avx2(float*, __m256, bool)
__attribute__((target("avx2"))) inline void store_half_avx2(double* out, __m256d v, bool stream) {
  if (stream) {
    _mm256_stream_pd(out, v);
  } else {
    _mm256_storeu_pd(out, v);
  }
}

/// Transposes the block of transpose_block_avx512 (16x16 of 4-byte lanes, 8x8 of 8-byte lanes)
/// through AVX2 registers: dst[r * dst_row + c] = src[r + c * src_col]. Each register is loaded
/// as two 16-byte halves from source rows four (4-byte lanes) or two (8-byte lanes) apart, so
/// the transpose stays inside 128-bit lanes (no cross-lane shuffle); a few destination rows at a
/// time get both halves of their cache line stored back to back, non-temporal with @p stream
/// (the caller checks that every destination row of the block is 64-byte aligned).
template <class Lane>
__attribute__((target("avx2"))) inline void transpose_block_avx2(Lane* dst, index_t dst_row,
                                                                 const Lane* src, index_t src_col,
                                                                 bool stream) {
  if constexpr (sizeof(Lane) == 4) {
    for (index_t r = 0; r < 16; r += 4) {
      // Destination rows r .. r + 3: columns 8h .. 8h + 7 from each half h of the line.
      __m256 out[2][4];
      for (index_t h = 0; h < 2; ++h) {
        // Lane 0 of a[k]: source row 8h + k at r .. r + 3; lane 1: source row 8h + k + 4.
        __m256 a[4];
        for (index_t k = 0; k < 4; ++k) {
          a[k] = _mm256_insertf128_ps(
              _mm256_castps128_ps256(_mm_loadu_ps(src + r + (8 * h + k) * src_col)),
              _mm_loadu_ps(src + r + (8 * h + k + 4) * src_col), 1);
        }
        const __m256 t0 = _mm256_unpacklo_ps(a[0], a[1]);
        const __m256 t1 = _mm256_unpackhi_ps(a[0], a[1]);
        const __m256 t2 = _mm256_unpacklo_ps(a[2], a[3]);
        const __m256 t3 = _mm256_unpackhi_ps(a[2], a[3]);
        out[h][0] = _mm256_shuffle_ps(t0, t2, 0x44);
        out[h][1] = _mm256_shuffle_ps(t0, t2, 0xEE);
        out[h][2] = _mm256_shuffle_ps(t1, t3, 0x44);
        out[h][3] = _mm256_shuffle_ps(t1, t3, 0xEE);
      }
      for (index_t m = 0; m < 4; ++m) {
        store_half_avx2(dst + (r + m) * dst_row, out[0][m], stream);
        store_half_avx2(dst + (r + m) * dst_row + 8, out[1][m], stream);
      }
    }
  } else {
    for (index_t r = 0; r < 8; r += 2) {
      // Destination rows r, r + 1: columns 4h .. 4h + 3 from each half h of the line.
      __m256d out[2][2];
      for (index_t h = 0; h < 2; ++h) {
        // Lane 0 of a[k]: source row 4h + k at r, r + 1; lane 1: source row 4h + k + 2.
        __m256d a[2];
        for (index_t k = 0; k < 2; ++k) {
          a[k] = _mm256_insertf128_pd(
              _mm256_castpd128_pd256(_mm_loadu_pd(src + r + (4 * h + k) * src_col)),
              _mm_loadu_pd(src + r + (4 * h + k + 2) * src_col), 1);
        }
        out[h][0] = _mm256_unpacklo_pd(a[0], a[1]);
        out[h][1] = _mm256_unpackhi_pd(a[0], a[1]);
      }
      for (index_t m = 0; m < 2; ++m) {
        store_half_avx2(dst + (r + m) * dst_row, out[0][m], stream);
        store_half_avx2(dst + (r + m) * dst_row + 4, out[1][m], stream);
      }
    }
  }
}

/// dst[i * dst_row + j] = src[i + j * src_col] for i in [i0, i1), j in [j0, j1), one element
/// at a time: the edges the vector blocks leave.
template <class T>
inline void transpose_scalar(T* dst, index_t dst_row, const T* src, index_t src_col, index_t i0,
                             index_t i1, index_t j0, index_t j1) {
  for (index_t i = i0; i < i1; ++i) {
    for (index_t j = j0; j < j1; ++j) {
      dst[i * dst_row + j] = src[i + j * src_col];
    }
  }
}

/// The prefetch of the next plane by a small plane of the blocked transpose: a plane of at most
/// transpose_small_plane_bytes with a next one (@p next, the same geometry) spreads the lines of
/// that plane's rows over its own blocks, a few after each, so the next plane is in L2 when it
/// starts (its rows are far from this one's, and the hardware prefetcher starts over on each).
template <class T>
class NextPlanePrefetch {
 public:
  /// The plane's geometry (transpose_tiles' arguments).
  /// @param next the plane transposed after this one, or null
  /// @param src_col the source's row stride
  /// @param cols the source rows of a plane
  /// @param row_begin the first element of each source row transposed
  /// @param row_end one past the last
  NextPlanePrefetch(const T* next, index_t src_col, index_t cols, index_t row_begin,
                    index_t row_end)
      : next_(next),
        src_col_(src_col),
        cols_(cols),
        row_begin_(row_begin),
        row_lines_(((row_end - row_begin) * size + 63) / 64) {
    const bool small =
        next != nullptr && (row_end - row_begin) * cols * size <= transpose_small_plane_bytes;
    const index_t blocks = std::max<index_t>(1, ((row_end - row_begin) / block) * (cols / block));
    per_block_ = small ? (cols * row_lines_ + blocks - 1) / blocks : 0;
  }
  /// Whether this plane prefetches the next one.
  [[nodiscard]] bool active() const { return per_block_ > 0; }
  /// Prefetches the next few lines of the next plane into L2 (after each block).
  void step() {
    for (index_t q = 0; q < per_block_ && row_ < cols_; ++q) {
      _mm_prefetch(reinterpret_cast<const char*>(next_ + row_begin_ + row_ * src_col_) + line_ * 64,
                   _MM_HINT_T1);
      if (++line_ == row_lines_) {
        line_ = 0;
        ++row_;
      }
    }
  }

 private:
  static constexpr auto size = static_cast<index_t>(sizeof(T));
  static constexpr index_t block = 64 / size;
  const T* next_;
  index_t src_col_;
  index_t cols_;
  index_t row_begin_;
  index_t row_lines_;
  index_t per_block_ = 0;
  index_t row_ = 0;   // the next plane's source row prefetched next
  index_t line_ = 0;  // and the line of it
};

/// Streams one cache line from @p in (64-byte aligned) to @p out (64-byte aligned) with one
/// non-temporal AVX-512 store.
template <class Lane>
__attribute__((target("avx512f"))) inline void stream_line_avx512(Lane* out, const Lane* in) {
  if constexpr (sizeof(Lane) == 4) {
    _mm512_stream_ps(out, _mm512_load_ps(in));
  } else {
    _mm512_stream_pd(out, _mm512_load_pd(in));
  }
}

/// stream_line_avx512 as two non-temporal AVX2 stores back to back.
template <class Lane>
__attribute__((target("avx2"))) inline void stream_line_avx2(Lane* out, const Lane* in) {
  constexpr int half = 32 / sizeof(Lane);
  if constexpr (sizeof(Lane) == 4) {
    _mm256_stream_ps(out, _mm256_load_ps(in));
    _mm256_stream_ps(out + half, _mm256_load_ps(in + half));
  } else {
    _mm256_stream_pd(out, _mm256_load_pd(in));
    _mm256_stream_pd(out + half, _mm256_load_pd(in + half));
  }
}

/// The blocked transpose of a copy larger than the caches (transpose_tiles' contract, with
/// @p stream): tiles of transpose_stage_run bytes of each source row by transpose_stage_line
/// bytes of each destination row, transposed block by block (@p Kernels' blocks, ordinary
/// stores) into @p stage, a buffer of transpose_stage_bytes that stays in L2, and then written
/// out row by row with whole-line non-temporal stores. Each destination row then gets
/// transpose_stage_line contiguous bytes per visit instead of one line per block (the 2-D
/// transpose of 256 MiB of float32 on an AMD EPYC of the Zen 5 generation: 0.52x memcpy's
/// bandwidth direct, 0.63x staged in one run; see docs/performance.md). Each block reads 16 (8-byte
/// lanes: 8) source rows a line each, down transpose_stage_run bytes of them before the next rows,
/// which the hardware prefetcher follows. Needs destination rows a whole number of cache lines
/// apart (the caller checks); the columns before each row's first 64-byte boundary are written
/// directly. A plane of at most transpose_small_plane_bytes prefetches all of @p next into L2 as
/// transpose_tiles_vector does.
template <TransposeKernels Kernels, class T>
[[gnu::always_inline]] inline void transpose_tiles_staged(T* dst, index_t dst_row, const T* src,
                                                          index_t src_col, index_t cols,
                                                          index_t row_begin, index_t row_end,
                                                          index_t lead, const T* next, T* stage) {
  using Lane = std::conditional_t<sizeof(T) == 4, float, double>;
  constexpr auto size = static_cast<index_t>(sizeof(T));
  constexpr index_t block = 64 / size;
  constexpr index_t tile_rows = transpose_stage_run / size;
  constexpr index_t tile_cols = transpose_stage_line / size;
  const auto scalar = [&](index_t i0, index_t i1, index_t j0, index_t j1) {
    transpose_scalar(dst, dst_row, src, src_col, i0, i1, j0, j1);
  };
  NextPlanePrefetch<T> next_plane(next, src_col, cols, row_begin, row_end);
  for (index_t ib = row_begin; ib < row_end; ib += tile_rows) {
    const index_t ie = std::min(row_end, ib + tile_rows);
    scalar(ib, ie, 0, lead);
    for (index_t jb = lead; jb < cols; jb += tile_cols) {
      const index_t je = std::min(cols, jb + tile_cols);
      // stage[(i - ib) * tile_cols + (j - jb)] = src[i + j * src_col]
      const auto staged = [&](index_t i0, index_t i1, index_t j0, index_t j1) {
        for (index_t j = j0; j < j1; ++j) {
          for (index_t i = i0; i < i1; ++i) {
            stage[(i - ib) * tile_cols + (j - jb)] = src[i + j * src_col];
          }
        }
      };
      index_t j = jb;
      for (; j + block <= je; j += block) {
        index_t i = ib;
        for (; i + block <= ie; i += block) {
          next_plane.step();
          auto* const out = reinterpret_cast<Lane*>(stage + (i - ib) * tile_cols + (j - jb));
          const auto* const in = reinterpret_cast<const Lane*>(src + i + j * src_col);
          if constexpr (Kernels == TransposeKernels::avx512) {
            transpose_block_avx512(out, tile_cols, in, src_col, false);
          } else {
            transpose_block_avx2(out, tile_cols, in, src_col, false);
          }
        }
        staged(i, ie, j, j + block);
      }
      staged(ib, ie, j, je);
      // Out: whole lines streamed, a last part line stored.
      const index_t width = je - jb;
      const index_t whole = width - width % block;
      for (index_t i = ib; i < ie; ++i) {
        T* const out = dst + i * dst_row + jb;
        const T* const in = stage + (i - ib) * tile_cols;
        for (index_t c = 0; c < whole; c += block) {
          auto* const line = reinterpret_cast<Lane*>(out + c);
          const auto* const from = reinterpret_cast<const Lane*>(in + c);
          if constexpr (Kernels == TransposeKernels::avx512) {
            stream_line_avx512(line, from);
          } else {
            stream_line_avx2(line, from);
          }
        }
        for (index_t c = whole; c < width; ++c) {
          out[c] = in[c];
        }
      }
    }
  }
  _mm_sfence();  // the streamed stores are visible before the copy returns
}

/// The blocked transpose through vector registers (transpose_tiles' contract, for 4- and 8-byte
/// lanes), with the blocks of @p Kernels (transpose_block_avx512 or transpose_block_avx2; inlined
/// into transpose_tiles_avx512 and transpose_tiles_avx2, which give it their instruction set):
/// tiles of 8 KiB of each source row by 32 source rows (32 destination columns), blocks of one
/// cache line inside them, the next cache lines of each source row prefetched two blocks ahead
/// into L2 (not L1: rows a multiple of 4 KiB apart put their lines in one L1 set); at the end
/// of a tile the first lines of the next one, or of @p next, the plane transposed after this
/// one. A plane of at most transpose_small_plane_bytes (the many small planes of a 4-D
/// permutation) prefetches all of @p next instead, a few lines after each block, so the next
/// plane is in L2 when it starts (its rows are then far from this one's and the hardware
/// prefetcher starts over on each: 47 -> 38 ms for the (1,0,3,2) permutation of 256 MiB of
/// float32). A tile reads 32 source rows whatever the element size: each is on its own page when
/// rows are far apart, and 32 of them with the destination's rows stay inside the first-level
/// TLB (64 source rows of 4-byte lanes did not: 0.5x copy bandwidth where 8-byte lanes ran at
/// 0.9x). With @p stream the destination is written with whole-line non-temporal stores: the
/// columns before each row's first 64-byte boundary are peeled off (every row has the same
/// alignment when a row is a whole number of cache lines; otherwise nothing is streamed). A
/// streamed copy given a @p stage (transpose_stage()) whose destination rows are more than
/// transpose_stage_rows_apart apart runs transpose_tiles_staged instead.
template <TransposeKernels Kernels, class T>
[[gnu::always_inline]] inline void transpose_tiles_vector(T* dst, index_t dst_row, const T* src,
                                                          index_t src_col, index_t cols,
                                                          index_t row_begin, index_t row_end,
                                                          bool stream, const T* next, T* stage) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  // The intrinsics' loads and stores may alias any type.
  using Lane = std::conditional_t<sizeof(T) == 4, float, double>;
  constexpr auto size = static_cast<index_t>(sizeof(T));
  constexpr index_t block = 64 / size;
  constexpr index_t tile_rows = 8192 / size;
  constexpr index_t tile_cols = 32;
  constexpr index_t ahead = 2 * block;
  index_t lead = 0;  // columns before the first aligned block of every row
  if (stream) {
    const auto first = reinterpret_cast<std::uintptr_t>(dst + row_begin * dst_row);
    stream = (dst_row * size) % 64 == 0 && first % sizeof(T) == 0;
    lead =
        stream ? std::min<index_t>(static_cast<index_t>((64 - first % 64) % 64) / size, cols) : 0;
  }
  // Destination rows at most transpose_stage_rows_apart apart take a block's lines close
  // together already: staging would only add its pass (4-D (1,0,3,2), rows 512 bytes apart:
  // 0.53-0.58x memcpy's bandwidth staged, 0.77-0.81x direct).
  if (stream && stage != nullptr && dst_row * size > transpose_stage_rows_apart) {
    transpose_tiles_staged<Kernels>(dst, dst_row, src, src_col, cols, row_begin, row_end, lead,
                                    next, stage);
    return;
  }
  // The lines of source rows j .. j + block - 1 at column i of the plane at @p base, into L2.
  const auto prefetch_lines = [&](const T* base, index_t i, index_t j) {
    if (i < row_end && j + block <= cols) {
      for (index_t q = 0; q < block; ++q) {
        _mm_prefetch(reinterpret_cast<const char*>(base + i + (j + q) * src_col), _MM_HINT_T1);
      }
    }
  };
  NextPlanePrefetch<T> next_plane(next, src_col, cols, row_begin, row_end);
  const auto scalar = [&](index_t i0, index_t i1, index_t j0, index_t j1) {
    transpose_scalar(dst, dst_row, src, src_col, i0, i1, j0, j1);
  };
  for (index_t ib = row_begin; ib < row_end; ib += tile_rows) {
    const index_t ie = std::min(row_end, ib + tile_rows);
    scalar(ib, ie, 0, lead);
    for (index_t jb = lead; jb < cols; jb += tile_cols) {
      const index_t je = std::min(cols, jb + tile_cols);
      index_t i = ib;
      for (; i + block <= ie; i += block) {
        // Where the lines two blocks ahead are: in this tile, the next tile of these rows
        // (columns jb + tile_cols ...), the first of the next rows, or the next plane's first.
        const index_t over = i + ahead - ie;  // >= 0: past this tile's rows
        const bool last_cols = jb + tile_cols >= cols;
        const T* const base = over < 0 || !last_cols || ie < row_end ? src : next;
        const index_t row =
            over < 0 ? i + ahead : (last_cols ? (ie < row_end ? ie : row_begin) : ib) + over;
        const index_t shift = over < 0 ? 0 : (last_cols ? lead - jb : tile_cols);
        index_t j = jb;
        for (; j + block <= je; j += block) {
          if (next_plane.active()) {
            next_plane.step();
            if (base == src) {
              prefetch_lines(src, row, j + shift);
            }
          } else if (base != nullptr) {
            prefetch_lines(base, row, j + shift);
          }
          auto* const out = reinterpret_cast<Lane*>(dst + i * dst_row + j);
          const auto* const in = reinterpret_cast<const Lane*>(src + i + j * src_col);
          if constexpr (Kernels == TransposeKernels::avx512) {
            transpose_block_avx512(out, dst_row, in, src_col, stream);
          } else {
            transpose_block_avx2(out, dst_row, in, src_col, stream);
          }
        }
        scalar(i, i + block, j, je);
      }
      scalar(i, ie, jb, je);
    }
  }
  if (stream) {
    _mm_sfence();  // the streamed stores are visible before the copy returns
  }
}

/// transpose_tiles_vector with AVX-512 blocks, compiled for AVX-512F.
template <class T>
__attribute__((target("avx512f"))) void transpose_tiles_avx512(
    T* dst, index_t dst_row, const T* src, index_t src_col, index_t cols, index_t row_begin,
    index_t row_end, bool stream, const T* next = nullptr, T* stage = nullptr) {
  transpose_tiles_vector<TransposeKernels::avx512>(dst, dst_row, src, src_col, cols, row_begin,
                                                   row_end, stream, next, stage);
}

/// transpose_tiles_vector with AVX2 blocks, compiled for AVX2.
template <class T>
__attribute__((target("avx2"))) void transpose_tiles_avx2(T* dst, index_t dst_row, const T* src,
                                                          index_t src_col, index_t cols,
                                                          index_t row_begin, index_t row_end,
                                                          bool stream, const T* next = nullptr,
                                                          T* stage = nullptr) {
  transpose_tiles_vector<TransposeKernels::avx2>(dst, dst_row, src, src_col, cols, row_begin,
                                                 row_end, stream, next, stage);
}

/// Whether this processor (and its operating system) runs AVX-512F code.
inline bool cpu_has_avx512() {
  static const bool has = __builtin_cpu_supports("avx512f") != 0;
  return has;
}

/// Whether this processor (and its operating system) runs AVX2 code.
inline bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2") != 0;
  return has;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

/// The kernels the blocked transpose uses: the best the processor runs. Tests set it lower to
/// cover the other kernels (every processor with AVX-512 has AVX2); never set it higher than
/// the processor supports.
inline TransposeKernels& transpose_kernels() {
#if defined(STRATA_TRANSPOSE_AVX512)
  static TransposeKernels kernels = cpu_has_avx512() ? TransposeKernels::avx512
                                    : cpu_has_avx2() ? TransposeKernels::avx2
                                                     : TransposeKernels::portable;
#else
  static TransposeKernels kernels = TransposeKernels::portable;
#endif
  return kernels;
}

/// Whether streamed copies run the staged transpose (transpose_tiles_staged) where it applies;
/// tests and benchmarks turn it off to run the direct one.
inline bool& transpose_staging() {
  static bool staging = true;
  return staging;
}

/// The buffer of the staged transpose (transpose_tiles_staged): transpose_stage_bytes, 64-byte
/// aligned, when the copy streams, its destination rows are more than
/// transpose_stage_rows_apart apart, T is a 4- or 8-byte trivially copyable type, a vector
/// kernel runs and staging is on (transpose_staging()); else null. Each thread's part of a copy
/// takes its own.
/// @param stream whether the copy streams (transpose_stream_bytes and more)
/// @param dst_row the destination's row stride in elements
template <class T>
std::unique_ptr<T[], AlignedDelete> transpose_stage(bool stream, index_t dst_row) {
  if constexpr ((sizeof(T) == 4 || sizeof(T) == 8) && std::is_trivially_copyable_v<T>) {
    if (stream && transpose_staging() && transpose_kernels() != TransposeKernels::portable &&
        dst_row * static_cast<index_t>(sizeof(T)) > transpose_stage_rows_apart) {
      return aligned_array<T>(static_cast<std::size_t>(transpose_stage_bytes) / sizeof(T), false);
    }
  }
  return {nullptr, AlignedDelete{0}};
}

/// dst[i * dst_row + j] = src[i + j * src_col] for i in [row_begin, row_end), j < cols:
/// tiles of transpose_rows_tile x transpose_cols_tile (long runs of the source, whole cache
/// lines of the destination), 4x4 register blocks inside them; with @p stream (a copy larger
/// than the caches) the destination's aligned blocks are written with non-temporal stores.
/// 4- and 8-byte elements take transpose_tiles_avx512 where the processor has AVX-512 and
/// transpose_tiles_avx2 where it has AVX2, which also prefetch the start of @p next (the plane of
/// the same geometry transposed after this one, or null) and, given a @p stage
/// (transpose_stage()) with @p stream, run transpose_tiles_staged.
template <class T>
void transpose_tiles(T* dst, index_t dst_row, const T* src, index_t src_col, index_t cols,
                     index_t row_begin, index_t row_end, bool stream = false,
                     const T* next = nullptr, T* stage = nullptr) {
#if defined(STRATA_TRANSPOSE_AVX512)
  if constexpr ((sizeof(T) == 4 || sizeof(T) == 8) && std::is_trivially_copyable_v<T>) {
    if (transpose_kernels() == TransposeKernels::avx512) {
      transpose_tiles_avx512(dst, dst_row, src, src_col, cols, row_begin, row_end, stream, next,
                             stage);
      return;
    }
    if (transpose_kernels() == TransposeKernels::avx2) {
      transpose_tiles_avx2(dst, dst_row, src, src_col, cols, row_begin, row_end, stream, next,
                           stage);
      return;
    }
  }
#endif
  (void)next;  // the portable kernel prefetches nothing and stages nothing
  (void)stage;
  constexpr index_t tile_rows = transpose_rows_tile<T>;
  constexpr index_t tile_cols = transpose_cols_tile<T>;
  // Streamed only in whole cache lines: a line left part-written when a tile moves on to the
  // next rows costs a read of it from memory (measured 6x slower on an Intel Xeon). So the
  // rows must be a whole number of lines apart, and the columns before each row's first
  // 64-byte boundary are peeled off (the tiles, two lines wide, then cover whole lines).
  constexpr auto size = static_cast<index_t>(sizeof(T));
  index_t lead = 0;
  if (stream) {
    const auto first = reinterpret_cast<std::uintptr_t>(dst + row_begin * dst_row);
    stream = (size == 4 || size == 8) && (dst_row * size) % 64 == 0 && first % sizeof(T) == 0;
    lead =
        stream ? std::min<index_t>(static_cast<index_t>((64 - first % 64) % 64) / size, cols) : 0;
  }
  for (index_t ib = row_begin; ib < row_end; ib += tile_rows) {
    const index_t ie = std::min(row_end, ib + tile_rows);
    for (index_t i = ib; i < ie; ++i) {
      for (index_t j = 0; j < lead; ++j) {
        dst[i * dst_row + j] = src[i + j * src_col];
      }
    }
    for (index_t jb = lead; jb < cols; jb += tile_cols) {
      const index_t je = std::min(cols, jb + tile_cols);
      index_t i = ib;
      for (; i + 4 <= ie; i += 4) {
        index_t j = jb;
        for (; j + 4 <= je; j += 4) {
          T* out = dst + i * dst_row + j;
          transpose4x4(out, dst_row, src + i + j * src_col, src_col,
                       stream && reinterpret_cast<std::uintptr_t>(out) % 16 == 0);
        }
        for (; j < je; ++j) {
          for (index_t r = i; r < i + 4; ++r) {
            dst[r * dst_row + j] = src[r + j * src_col];
          }
        }
      }
      for (; i < ie; ++i) {
        for (index_t j = jb; j < je; ++j) {
          dst[i * dst_row + j] = src[i + j * src_col];
        }
      }
    }
  }
#if defined(__SSE2__)
  if (stream) {
    _mm_sfence();  // the streamed stores are visible before the copy returns
  }
#endif
}

/// Bytes of a source row the blocked transpose's outer loop keeps reading in one stretch (a
/// page): see order_planes().
inline constexpr index_t transpose_page_bytes = 4096;

/// Orders the outer axes of the blocked transpose (the axes of its planes, in the destination's
/// order) so that consecutive planes continue the source's rows: the outer axis with the
/// smallest source stride, when it is not already the innermost and a step along it is less
/// than a page of the source, moves inside in chunks of c steps (the largest divisor of its
/// extent at most transpose_page_bytes / its stride in bytes), its other c-th part staying
/// outermost. Each source row of a plane is then read a page at a time instead of one run per
/// plane: the full 4-D reversal reads 512-byte runs 64 KiB apart in destination order, a page
/// in this one (HPTT's loop reordering, for the outer loops). Both lists change alike; plain
/// axes only.
/// @param dout the destination's outer axes
/// @param sout the source's outer axes, same extents
/// @param size the element size in bytes
inline void order_planes(std::vector<Axis>& dout, std::vector<Axis>& sout, index_t size) {
  if (dout.size() < 2) {
    return;
  }
  std::size_t q = 0;
  for (std::size_t a = 1; a < sout.size(); ++a) {
    if (std::abs(sout[a].stride) < std::abs(sout[q].stride)) {
      q = a;
    }
  }
  const index_t step = std::abs(sout[q].stride) * size;
  if (q + 1 == sout.size() || !sout[q].is_plain() || !dout[q].is_plain() || step == 0 ||
      step >= transpose_page_bytes || sout[q].extent < 2) {
    return;
  }
  const index_t extent = sout[q].extent;
  index_t chunk = std::min(extent, transpose_page_bytes / step);
  while (extent % chunk != 0) {
    --chunk;
  }
  const auto split = [&](std::vector<Axis>& axes) {
    Axis inner = axes[q];
    inner.extent = inner.cycle = chunk;
    Axis outer = axes[q];
    outer.extent = outer.cycle = extent / chunk;
    outer.stride *= chunk;
    axes.erase(axes.begin() + static_cast<std::ptrdiff_t>(q));
    axes.push_back(inner);
    if (outer.extent > 1) {
      axes.insert(axes.begin(), outer);
    }
  };
  split(dout);
  split(sout);
}

/// The odometer path over [begin, end) of jointly reduced maps.
template <class T>
void copy_range(T* dst, const Dimensions& d, const T* src, const Dimensions& s, index_t begin,
                index_t end) {
  walk_rows<2>(
      {&d, &s}, begin, end,
      [&](const std::array<index_t, 2>& at, const std::array<index_t, 2>& stride, index_t count) {
        // Source and destination never overlap (Tensor::assign copies an aliased source
        // first): __restrict lets the strided loops vectorise.
        T* __restrict out = dst + at[0];
        const T* __restrict in = src + at[1];
        if (stride[0] == 1 && stride[1] == 1) {
          std::copy_n(in, count, out);
        } else if (stride[0] == 1 && stride[1] == -1) {
          for (index_t t = 0; t < count; ++t) {  // a flipped row
            out[t] = in[-t];
          }
        } else if (stride[0] == 1) {
          const index_t step = stride[1];
          for (index_t t = 0; t < count; ++t) {
            out[t] = in[t * step];
          }
        } else {
          for (index_t t = 0; t < count; ++t) {
            out[t * stride[0]] = in[t * stride[1]];
          }
        }
      });
}

}  // namespace detail

/// Copies element-wise between two contiguous arrays through maps of one shape:
/// `dst[dst_map(g)] = src[src_map(g)]` for every global index g.
///
/// The maps are reduced jointly (reduce_jointly), then the path select_copy_path() names runs,
/// or @p force when given (tests use it to compare paths). Parallel above the policy's grain.
/// The destination map must not alias (no two indices on one address) and the arrays must not
/// overlap; Tensor::assign checks both.
/// @param policy seq or par
/// @param dst the destination array
/// @param dst_map its map
/// @param src the source array
/// @param src_map its map, same shape
/// @param force a path to use instead of the fastest (it must apply; memcpy and rows need
///        contiguous inner axes; blocked tiles the plane of the destination's last axis and
///        the source's unit axis, or the last two axes when the source has none)
template <class T, ExecutionPolicy P>
void copy_arrays(const P& policy, T* dst, const Dimensions& dst_map, const T* src,
                 const Dimensions& src_map, std::optional<CopyPath> force = std::nullopt) {
  // Named references, not a structured binding: clang 14 cannot capture bindings in lambdas.
  const auto joint = reduce_jointly(dst_map, src_map);
  const Dimensions& d = joint.first;
  const Dimensions& s = joint.second;
  const index_t n = d.size();
  if (n == 0) {
    return;
  }
  const CopyPath path = force.value_or(select_copy_path(dst_map, src_map));
  switch (path) {
    case CopyPath::memcpy: {
      T* out = dst + d.offset();
      const T* in = src + s.offset();
      parallel::for_each_part(policy, n, [&](index_t begin, index_t end) {
        std::copy_n(in + begin, end - begin, out + begin);
      });
      return;
    }
    case CopyPath::blocked: {
      // Tiles of the plane of the destination's last axis (its unit one) and the source's unit
      // axis k; every other axis is an outer loop.
      const auto r = static_cast<std::size_t>(d.rank());
      const std::size_t k = detail::blocked_axis(d, s);
      const Axis& rows = d.axes()[k];
      const Axis& cols = d.axes()[r - 1];
      const index_t dst_row = rows.stride;
      const index_t src_col = s.axes()[r - 1].stride;
      std::vector<Axis> dout;
      std::vector<Axis> sout;
      for (std::size_t a = 0; a + 1 < r; ++a) {
        if (a != k) {
          dout.push_back(d.axes()[a]);
          sout.push_back(s.axes()[a]);
        }
      }
      detail::order_planes(dout, sout, static_cast<index_t>(sizeof(T)));
      const Dimensions douter = Dimensions::from_axes(dout, d.offset());
      const Dimensions souter = Dimensions::from_axes(sout, s.offset());
      const index_t outer = douter.size();
      // Split the work by elements (so the grain applies), at whole rows or whole planes.
      const index_t plane = rows.extent * cols.extent;
      const bool stream = n * static_cast<index_t>(sizeof(T)) >= detail::transpose_stream_bytes;
      if (outer == 1) {
        parallel::for_each_part(policy, plane, [&](index_t begin, index_t end) {
          const auto stage = detail::transpose_stage<T>(stream, dst_row);
          detail::transpose_tiles(dst + d.offset(), dst_row, src + s.offset(), src_col, cols.extent,
                                  begin / cols.extent, end / cols.extent, stream,
                                  static_cast<const T*>(nullptr), stage.get());
        });
        return;
      }
      parallel::for_each_part(policy, outer * plane, [&](index_t begin, index_t end) {
        const auto stage = detail::transpose_stage<T>(stream, dst_row);
        detail::walk_rows<2>({&douter, &souter}, begin / plane, end / plane,
                             [&](const std::array<index_t, 2>& at,
                                 const std::array<index_t, 2>& stride, index_t count) {
                               for (index_t t = 0; t < count; ++t) {
                                 const T* from = src + at[1] + t * stride[1];
                                 detail::transpose_tiles(
                                     dst + at[0] + t * stride[0], dst_row, from, src_col,
                                     cols.extent, 0, rows.extent, stream,
                                     t + 1 < count ? from + stride[1] : nullptr, stage.get());
                               }
                             });
      });
      return;
    }
    case CopyPath::rows:
    case CopyPath::odometer:
    case CopyPath::generic:
      parallel::for_each_part(policy, n, [&](index_t begin, index_t end) {
        detail::copy_range(dst, d, src, s, begin, end);
      });
      return;
  }
}

/// Copies element-wise between any two buffers through maps of one shape: the fast
/// copy_arrays() when both have data(), element by element through the buffer interface
/// otherwise (sequentially: user buffers need not be thread-safe).
/// @param policy seq or par
/// @param dst the destination buffer (writable)
/// @param dst_map its map
/// @param src the source buffer
/// @param src_map its map, same shape
/// @throws LayoutError when the destination is read-only
template <class T, ExecutionPolicy P>
void copy_buffers(const P& policy, const AnyBuffer<T>& dst, const Dimensions& dst_map,
                  const AnyBuffer<T>& src, const Dimensions& src_map) {
  if (T* out = dst.data(); out != nullptr) {
    if (const T* in = src.data(); in != nullptr) {
      copy_arrays(policy, out, dst_map, in, src_map);
      return;
    }
  }
  const auto [d, s] = reduce_jointly(dst_map, src_map);
  detail::walk_rows<2>(
      {&d, &s}, 0, d.size(),
      [&](const std::array<index_t, 2>& at, const std::array<index_t, 2>& stride, index_t count) {
        for (index_t t = 0; t < count; ++t) {
          dst.write(at[0] + t * stride[0], src.read(at[1] + t * stride[1]));
        }
      });
}

}  // namespace strata
