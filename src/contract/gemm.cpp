// Matrix products on BLIS (the only file of strata that includes blis.h), or on the generic
// kernel when strata is built without BLIS.
#include "strata/contract/gemm.hpp"

#if defined(STRATA_HAVE_BLIS)
#include <blis.h>
#endif

#include <vector>

namespace strata::detail {

bool gemm_uses_blis() noexcept {
#if defined(STRATA_HAVE_BLIS)
  return true;
#else
  return false;
#endif
}

#if defined(STRATA_HAVE_BLIS)
namespace {
/// A runtime for one call: the number of threads BLIS may use (1 inside strata's own
/// parallel loops), without touching BLIS's global state.
rntm_t runtime(int threads) {
  rntm_t r = BLIS_RNTM_INITIALIZER;
  bli_rntm_set_num_threads(std::max(threads, 1), &r);
  return r;
}

/// Walks index i of a pair of strides backwards in both (the product is the same), when both
/// are negative: `x[i * sx]` over i < n read from the other end.
template <class X, class Y>
void walk_forwards(index_t n, X*& x, index_t& sx, Y*& y, index_t& sy) {
  if (sx < 0 && sy < 0) {
    x += (n - 1) * sx;
    y += (n - 1) * sy;
    sx = -sx;
    sy = -sy;
  }
}

/// Copies a rows x columns matrix with any strides into @p out, row-major.
template <class T>
MatrixView<const T> packed(index_t rows, index_t columns, MatrixView<const T> x,
                           std::vector<T>& out) {
  out.resize(static_cast<std::size_t>(rows * columns));
  for (index_t i = 0; i < rows; ++i) {
    for (index_t j = 0; j < columns; ++j) {
      out[static_cast<std::size_t>(i * columns + j)] = x.data[i * x.rows + j * x.columns];
    }
  }
  return {out.data(), columns, 1};
}

/// `C = alpha A B + beta C` on BLIS with every stride it is given non-negative. BLIS 0.9's
/// typed API is not reliable with negative strides: with the sub-configuration it selects on
/// some processors (haswell, chosen when it cannot count an AVX-512 processor's FMA units) it
/// computes wrong values and writes outside the matrices. So a stride along an extent of 1 is
/// made positive (it is never used), a pair of negative strides along one index (A's and C's
/// rows, B's and C's columns, A's columns and B's rows) walks that index from its other end,
/// and an operand still holding a negative stride is copied (C computed apart and written back).
template <class T, class Gemm>
void positive_gemm(index_t m, index_t n, index_t k, MatrixView<const T> a, MatrixView<const T> b,
                   T beta, MatrixView<T> c, Gemm&& call) {
  const auto unused = [](index_t extent, index_t& stride) {
    if (extent == 1 && stride < 0) {
      stride = -stride;
    }
  };
  unused(m, a.rows);
  unused(m, c.rows);
  unused(n, b.columns);
  unused(n, c.columns);
  unused(k, a.columns);
  unused(k, b.rows);
  walk_forwards(m, a.data, a.rows, c.data, c.rows);
  walk_forwards(n, b.data, b.columns, c.data, c.columns);
  walk_forwards(k, a.data, a.columns, b.data, b.rows);
  std::vector<T> a_copy;
  std::vector<T> b_copy;
  std::vector<T> c_copy;
  if (a.rows < 0 || a.columns < 0) {
    a = packed(m, k, a, a_copy);
  }
  if (b.rows < 0 || b.columns < 0) {
    b = packed(k, n, b, b_copy);
  }
  MatrixView<T> out = c;
  if (c.rows < 0 || c.columns < 0) {
    if (beta == T{0}) {
      c_copy.assign(static_cast<std::size_t>(m * n), T{0});
    } else {
      packed(m, n, MatrixView<const T>{c.data, c.rows, c.columns}, c_copy);
    }
    out = {c_copy.data(), n, 1};
  }
  call(a, b, out);
  if (!c_copy.empty()) {
    for (index_t i = 0; i < m; ++i) {
      for (index_t j = 0; j < n; ++j) {
        c.data[i * c.rows + j * c.columns] = c_copy[static_cast<std::size_t>(i * n + j)];
      }
    }
  }
}

/// One product on BLIS's typed API @p f (bli_sgemm_ex, bli_dgemm_ex, bli_cgemm_ex,
/// bli_zgemm_ex), whose element type is @p B: T itself, or BLIS's scomplex / dcomplex for
/// std::complex<float> / std::complex<double>, which are laid out alike ({real, imag}).
template <class B, class T, class F>
void on_blis(F f, index_t m, index_t n, index_t k, T alpha, MatrixView<const T> a,
             MatrixView<const T> b, T beta, MatrixView<T> c, int threads) {
  positive_gemm(m, n, k, a, b, beta, c,
                [&](MatrixView<const T> pa, MatrixView<const T> pb, MatrixView<T> pc) {
                  rntm_t r = runtime(threads);
                  // BLIS's typed API takes non-const pointers; it does not write A, B, alpha
                  // or beta.
                  const auto p = [](const T* x) { return reinterpret_cast<B*>(const_cast<T*>(x)); };
                  f(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, m, n, k, p(&alpha), p(pa.data), pa.rows,
                    pa.columns, p(pb.data), pb.rows, pb.columns, p(&beta), p(pc.data), pc.rows,
                    pc.columns, nullptr, &r);
                });
}
}  // namespace
#endif

void gemm(index_t m, index_t n, index_t k, double alpha, MatrixView<const double> a,
          MatrixView<const double> b, double beta, MatrixView<double> c, int threads) {
#if defined(STRATA_HAVE_BLIS)
  on_blis<double>(bli_dgemm_ex, m, n, k, alpha, a, b, beta, c, threads);
#else
  gemm_generic<double>(m, n, k, alpha, a, b, beta, c, threads);
#endif
}

void gemm(index_t m, index_t n, index_t k, float alpha, MatrixView<const float> a,
          MatrixView<const float> b, float beta, MatrixView<float> c, int threads) {
#if defined(STRATA_HAVE_BLIS)
  on_blis<float>(bli_sgemm_ex, m, n, k, alpha, a, b, beta, c, threads);
#else
  gemm_generic<float>(m, n, k, alpha, a, b, beta, c, threads);
#endif
}

void gemm(index_t m, index_t n, index_t k, std::complex<double> alpha,
          MatrixView<const std::complex<double>> a, MatrixView<const std::complex<double>> b,
          std::complex<double> beta, MatrixView<std::complex<double>> c, int threads) {
#if defined(STRATA_HAVE_BLIS)
  on_blis<dcomplex>(bli_zgemm_ex, m, n, k, alpha, a, b, beta, c, threads);
#else
  gemm_generic<std::complex<double>>(m, n, k, alpha, a, b, beta, c, threads);
#endif
}

void gemm(index_t m, index_t n, index_t k, std::complex<float> alpha,
          MatrixView<const std::complex<float>> a, MatrixView<const std::complex<float>> b,
          std::complex<float> beta, MatrixView<std::complex<float>> c, int threads) {
#if defined(STRATA_HAVE_BLIS)
  on_blis<scomplex>(bli_cgemm_ex, m, n, k, alpha, a, b, beta, c, threads);
#else
  gemm_generic<std::complex<float>>(m, n, k, alpha, a, b, beta, c, threads);
#endif
}

}  // namespace strata::detail
