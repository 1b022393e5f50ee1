/// @file
/// BLAS and LAPACK: how a matrix view of a strata tensor goes to them without a copy (pointer,
/// order, leading dimension), or why it cannot.
///
/// @code
/// auto m = strata::blas_matrix(c.select({strata::Range{0, 3}}));   // dgemm's A, lda, order
/// cblas_dscal(...);   // with m.data, m.row_major ? CblasRowMajor : CblasColMajor, m.leading
/// @endcode
#pragma once

#include "strata/core/error.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>

namespace strata {

/// How a matrix view goes to BLAS or LAPACK: the pointer, the order and the leading dimension
/// that CBLAS (`cblas_dgemm(order, ...)`) and LAPACKE take.
template <class T>
struct BlasMatrix {
  T* data = nullptr;          ///< element (0, 0)
  bool row_major = true;      ///< CblasRowMajor (rows contiguous) or CblasColMajor
  index_t rows = 0;           ///< the matrix's rows
  index_t cols = 0;           ///< the matrix's columns
  index_t leading = 1;        ///< lda: the distance between rows (row-major) or columns
};

/// The BLAS description of a matrix view: a view with unit stride along one axis and a
/// leading dimension of at least the other extent goes as it is (a row-major block, a
/// transposed one as column-major, a slice of rows or columns).
/// @param t a rank-2 tensor
/// @return the description
/// @throws ShapeError for another rank
/// @throws LayoutError saying why a view cannot go (no unit stride, a negative or overlapping
///         stride, a map that is not strided): `copy()` first
template <class T>
[[nodiscard]] BlasMatrix<T> blas_matrix(const Tensor<T>& t) {
  if (t.rank() != 2) {
    detail::fail<ShapeError>("blas_matrix", "a matrix is needed; the tensor has shape ",
                             to_string(t.shape()));
  }
  const Index shape = t.shape();
  const Index s = t.strides();
  BlasMatrix<T> m;
  m.data = const_cast<Tensor<T>&>(t).data();
  m.rows = shape[0];
  m.cols = shape[1];
  if (m.data == nullptr && t.size() > 0) {
    detail::fail<LayoutError>("blas_matrix", "the view of shape ", to_string(shape),
                              " is not strided over one array: copy() it first");
  }
  // An axis of extent 1 may have any stride: BLAS never steps along it.
  const bool unit_cols = s[1] == 1 || shape[1] <= 1;
  const bool unit_rows = s[0] == 1 || shape[0] <= 1;
  if (unit_cols && s[0] >= std::max<index_t>(1, shape[1])) {
    m.row_major = true;
    m.leading = s[0];
  } else if (unit_rows && s[1] >= std::max<index_t>(1, shape[0])) {
    m.row_major = false;
    m.leading = s[1];
  } else if (unit_cols && shape[0] <= 1) {
    m.row_major = true;
    m.leading = std::max<index_t>(1, shape[1]);
  } else {
    detail::fail<LayoutError>("blas_matrix", "strides ", to_string(s), " for shape ",
                              to_string(shape),
                              ": BLAS needs stride 1 along one axis and a leading dimension at "
                              "least the other axis's extent (no negative or broadcast strides): "
                              "copy() first");
  }
  return m;
}

}  // namespace strata
