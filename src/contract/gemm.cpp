// Matrix products on BLIS (the only file of strata that includes blis.h), or on the generic
// kernel when strata is built without BLIS.
#include "strata/contract/gemm.hpp"

#if defined(STRATA_HAVE_BLIS)
#include <blis.h>
#endif

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
}  // namespace
#endif

void gemm(index_t m, index_t n, index_t k, double alpha, MatrixView<const double> a,
          MatrixView<const double> b, double beta, MatrixView<double> c, int threads) {
#if defined(STRATA_HAVE_BLIS)
  rntm_t r = runtime(threads);
  // BLIS's typed API takes non-const pointers; it does not write A, B, alpha or beta.
  bli_dgemm_ex(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, m, n, k, &alpha, const_cast<double*>(a.data),
               a.rows, a.columns, const_cast<double*>(b.data), b.rows, b.columns, &beta, c.data,
               c.rows, c.columns, nullptr, &r);
#else
  gemm_generic<double>(m, n, k, alpha, a, b, beta, c, threads);
#endif
}

void gemm(index_t m, index_t n, index_t k, float alpha, MatrixView<const float> a,
          MatrixView<const float> b, float beta, MatrixView<float> c, int threads) {
#if defined(STRATA_HAVE_BLIS)
  rntm_t r = runtime(threads);
  bli_sgemm_ex(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, m, n, k, &alpha, const_cast<float*>(a.data),
               a.rows, a.columns, const_cast<float*>(b.data), b.rows, b.columns, &beta, c.data,
               c.rows, c.columns, nullptr, &r);
#else
  gemm_generic<float>(m, n, k, alpha, a, b, beta, c, threads);
#endif
}

}  // namespace strata::detail
