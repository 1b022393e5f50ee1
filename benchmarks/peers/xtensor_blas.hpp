// xtensor-blas, a peer of the contraction benchmarks, in its own translation unit: its CBLAS
// declarations (xflens' cblas.h) conflict with the ones blis.h brings into contract.cpp.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace peers {

/// One contraction as an xtensor-blas user writes it: `xt::linalg::dot(a, b)` for a matrix
/// product, else `xt::linalg::tensordot(a, b, axes_a, axes_b)` and, when @p out_perm is not
/// empty, `xt::transpose` of its result into the order asked for.
template <class T>
class XtensorBlasContraction {
 public:
  /// Copies the row-major operands into xt::xarrays.
  XtensorBlasContraction(const std::vector<std::size_t>& shape_a, const T* a,
                         const std::vector<std::size_t>& shape_b, const T* b,
                         std::vector<std::size_t> axes_a, std::vector<std::size_t> axes_b,
                         std::vector<std::size_t> out_perm);
  ~XtensorBlasContraction();
  XtensorBlasContraction(const XtensorBlasContraction&) = delete;
  XtensorBlasContraction& operator=(const XtensorBlasContraction&) = delete;

  /// Computes a new result array (row-major) and returns its elements.
  const T* run();
  /// The result's element count (after run()).
  std::size_t size() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace peers
