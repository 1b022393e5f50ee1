/// @file
/// The matrix product behind every contraction step: `C = alpha * A B + beta * C` for one
/// m x n x k product whose operands have any row and column strides (negative included), as
/// BLIS takes them. float, double and their complex numbers go to BLIS when strata was built
/// with it (the only place strata calls BLIS); every other element type, and builds without
/// BLIS, use a blocked generic kernel.
#pragma once

#include "strata/core/complex.hpp"
#include "strata/core/index.hpp"

#include <algorithm>
#include <type_traits>

#if defined(STRATA_USE_OPENMP)
#include <omp.h>
#endif

namespace strata::detail {

/// One operand of a matrix product: element (i, j) is `data[i * rows + j * columns]`.
template <class T>
struct MatrixView {
  T* data = nullptr;
  index_t rows = 0;     ///< the stride between rows (BLIS's rs)
  index_t columns = 0;  ///< the stride between columns (BLIS's cs)
};

/// Whether the matrix products of float, double and complex numbers run on BLIS (strata built
/// with BLIS).
bool gemm_uses_blis() noexcept;

/// `C = alpha * A B + beta * C` (m x k times k x n) on BLIS, or the generic kernel without it.
/// With beta 0, C is not read (NaN in C does not propagate, as BLAS).
/// @param m, n, k the extents
/// @param alpha, beta the scales
/// @param a, b, c the operands (C must not overlap A or B)
/// @param threads the threads BLIS may use
void gemm(index_t m, index_t n, index_t k, double alpha, MatrixView<const double> a,
          MatrixView<const double> b, double beta, MatrixView<double> c, int threads);
/// @copydoc gemm(index_t, index_t, index_t, double, MatrixView<const double>, MatrixView<const
/// double>, double, MatrixView<double>, int)
void gemm(index_t m, index_t n, index_t k, float alpha, MatrixView<const float> a,
          MatrixView<const float> b, float beta, MatrixView<float> c, int threads);
/// @copydoc gemm(index_t, index_t, index_t, double, MatrixView<const double>, MatrixView<const
/// double>, double, MatrixView<double>, int)
void gemm(index_t m, index_t n, index_t k, std::complex<double> alpha,
          MatrixView<const std::complex<double>> a, MatrixView<const std::complex<double>> b,
          std::complex<double> beta, MatrixView<std::complex<double>> c, int threads);
/// @copydoc gemm(index_t, index_t, index_t, double, MatrixView<const double>, MatrixView<const
/// double>, double, MatrixView<double>, int)
void gemm(index_t m, index_t n, index_t k, std::complex<float> alpha,
          MatrixView<const std::complex<float>> a, MatrixView<const std::complex<float>> b,
          std::complex<float> beta, MatrixView<std::complex<float>> c, int threads);

/// The generic kernel: `C = alpha * A B + beta * C` in T's own arithmetic, blocked over k so a
/// block of B's rows stays in cache, the innermost loop along C's rows; rows of C in parallel
/// with @p threads > 1. For element types without BLAS (integers, bool: products of bools are
/// ands, their sums ors), and for every type in builds without BLAS.
template <class T>
void gemm_generic(index_t m, index_t n, index_t k, T alpha, MatrixView<const T> a,
                  MatrixView<const T> b, T beta, MatrixView<T> c, int threads) {
  constexpr index_t block = 256;
  const auto rows = [&](index_t i0, index_t i1) {
    for (index_t i = i0; i < i1; ++i) {
      T* ci = c.data + i * c.rows;
      for (index_t j = 0; j < n; ++j) {
        ci[j * c.columns] = beta == T{0} ? T{0} : static_cast<T>(beta * ci[j * c.columns]);
      }
      for (index_t p0 = 0; p0 < k; p0 += block) {
        const index_t p1 = std::min(k, p0 + block);
        for (index_t p = p0; p < p1; ++p) {
          const T aip = static_cast<T>(alpha * a.data[i * a.rows + p * a.columns]);
          const T* bp = b.data + p * b.rows;
          if (c.columns == 1 && b.columns == 1) {
            for (index_t j = 0; j < n; ++j) {
              ci[j] = static_cast<T>(ci[j] + aip * bp[j]);
            }
          } else {
            for (index_t j = 0; j < n; ++j) {
              ci[j * c.columns] = static_cast<T>(ci[j * c.columns] + aip * bp[j * b.columns]);
            }
          }
        }
      }
    }
  };
#if defined(STRATA_USE_OPENMP)
  if (threads > 1 && m > 1) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (index_t i = 0; i < m; ++i) {
      rows(i, i + 1);
    }
    return;
  }
#else
  (void)threads;
#endif
  rows(0, m);
}

/// The matrix product for T: BLIS for float, double and their complex numbers, the generic
/// kernel otherwise.
template <class T>
void matrix_product(index_t m, index_t n, index_t k, T alpha, MatrixView<const T> a,
                    MatrixView<const T> b, T beta, MatrixView<T> c, int threads) {
  if (m == 0 || n == 0) {
    return;
  }
  if (k == 0) {  // nothing to sum: C = beta * C (C not read when beta is 0)
    for (index_t i = 0; i < m; ++i) {
      for (index_t j = 0; j < n; ++j) {
        T& x = c.data[i * c.rows + j * c.columns];
        x = beta == T{0} ? T{0} : static_cast<T>(beta * x);
      }
    }
    return;
  }
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float> ||
                std::is_same_v<T, std::complex<double>> || std::is_same_v<T, std::complex<float>>) {
    gemm(m, n, k, alpha, a, b, beta, c, threads);
  } else {
    gemm_generic<T>(m, n, k, alpha, a, b, beta, c, threads);
  }
}

}  // namespace strata::detail
