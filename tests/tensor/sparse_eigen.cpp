// strata's compressed arrays handed to Eigen without a copy (built when Eigen 3 is found).
#include "strata/expr/expr.hpp"
#include "strata/tensor/sparse.hpp"

#include <catch2/catch.hpp>

#if defined(STRATA_TEST_HAVE_EIGEN)
#include <Eigen/SparseCore>

#include <cstdint>
#include <vector>

TEST_CASE("Eigen's Map<SparseMatrix> takes csr arrays as they are", "[tensor][sparse][eigen]") {
  const std::vector<strata::index_t> rows{0, 1, 1, 2, 0, 3};
  const std::vector<strata::index_t> cols{0, 1, 2, 2, 0, 3};
  const std::vector<double> values{4.0, 3.0, -1.0, 2.0, 1.0, 5.0};
  const auto K = strata::sparse_from_coo({4, 4}, {rows, cols}, values);
  const auto a = strata::csr(K);
  const Eigen::Map<const Eigen::SparseMatrix<double, Eigen::RowMajor, std::int64_t>> A(
      a.rows, a.cols, a.nnz(), a.offsets.data(), a.indices.data(), a.values.data());
  CHECK(A.valuePtr() == strata::sparse_buffer(K)->values().data());  // the tensor's own values
  Eigen::VectorXd x(4);
  x << 1, 2, 3, 4;
  const Eigen::VectorXd y = A * x;
  const auto xs = strata::Tensor<double>::of({1, 2, 3, 4});
  const strata::Tensor<double> ys = strata::sum(K * xs, 1);
  for (strata::index_t i = 0; i < 4; ++i) {
    CHECK(y(i) == ys(i));
  }
  // Column-major arrays for a CSC solver.
  const auto c = strata::csc(K);
  const Eigen::Map<const Eigen::SparseMatrix<double, Eigen::ColMajor, std::int64_t>> B(
      c.rows, c.cols, c.nnz(), c.offsets.data(), c.indices.data(), c.values.data());
  CHECK((B * x - y).norm() == 0.0);
}
#endif
