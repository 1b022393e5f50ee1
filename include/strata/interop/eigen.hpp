/// @file
/// Eigen: a matrix view of a strata tensor as an Eigen::Map with the view's strides, without
/// a copy.
///
/// @code
/// Eigen::MatrixXd product = strata::as_eigen(a) * strata::as_eigen(b.transpose());
/// @endcode
///
/// Needs Eigen's headers on the include path (Debian's libeigen3-dev: Eigen3::Eigen).
#pragma once

#include "strata/core/error.hpp"
#include "strata/tensor/tensor.hpp"

#include <Eigen/Core>

#include <type_traits>

namespace strata {

/// The Eigen view of a rank-2 tensor: a row-major dynamic matrix over its memory, with the
/// view's row and column strides.
template <class T>
using EigenMap = Eigen::Map<std::conditional_t<std::is_const_v<T>,
                                               const Eigen::Matrix<std::remove_const_t<T>, Eigen::Dynamic,
                                                                   Eigen::Dynamic, Eigen::RowMajor>,
                                               Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic,
                                                             Eigen::RowMajor>>,
                            Eigen::Unaligned, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;

/// An Eigen::Map over a matrix view (a transpose, a slice with steps, a broadcast row read-only)
/// that writes through to the tensor's memory.
/// @param t a rank-2 tensor whose buffer is one array and whose map is strided
/// @return the map (valid while the tensor's buffer lives)
/// @throws ShapeError for another rank
/// @throws LayoutError for a map Eigen cannot express: a negative stride (`reverse()` the axis
///         back, or `copy()`), a roll, a tile, an index array, or a buffer that is not one array
template <class T>
[[nodiscard]] EigenMap<T> as_eigen(const Tensor<T>& t) {
  if (t.rank() != 2) {
    detail::fail<ShapeError>("as_eigen", "a matrix is needed; the tensor has shape ",
                             to_string(t.shape()));
  }
  const Index s = t.strides();
  auto* first = const_cast<Tensor<T>&>(t).data();
  if (first == nullptr && t.size() > 0) {
    detail::fail<LayoutError>("as_eigen", "the view of shape ", to_string(t.shape()),
                              " is not strided over one array (a roll, a tile, an index array, a "
                              "sparse or generated buffer): copy() it first");
  }
  if (s[0] < 0 || s[1] < 0) {
    detail::fail<LayoutError>("as_eigen", "strides ", to_string(s),
                              " include a negative one, which Eigen::Map does not take: reverse() "
                              "that axis back or copy() first");
  }
  const Index shape = t.shape();
  return EigenMap<T>(first, shape[0], shape[1],
                     Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(s[0], s[1]));
}

}  // namespace strata
