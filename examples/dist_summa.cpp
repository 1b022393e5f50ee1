// A distributed block matrix product C = A B, SUMMA-style: the index space (i, j, k) is cut
// into blocks by the tilings of C and of the shared dimension; matmul's index projections say
// which block of A, of B and of C each block (I, J, K) touches. Every rank computes the C tiles
// it owns, getting the A and B blocks it needs one-sidedly, and multiplies them with a plain
// loop over data() and strides(). The result is checked against one process.
// Run: mpirun -np 4 ./strata_dist_summa [m] [n] [k]
#include "strata/dist/tensor.hpp"
#include "strata/projection/projections.hpp"
#include "strata/tensor/for_each_indexed.hpp"

#include <cstdlib>
#include <iostream>
#include <vector>

namespace {

using strata::Index;
using strata::index_t;
using strata::Tensor;
using strata::ZRange;

/// c += a b for three tensor views (any strides), the kernel a BLAS call would replace.
void multiply_add(const Tensor<const double>& a, const Tensor<const double>& b, Tensor<double> c) {
  const double* pa = a.data();
  const double* pb = b.data();
  double* pc = c.data();
  const Index sa = a.strides();
  const Index sb = b.strides();
  const Index sc = c.strides();
  const Index shape_a = a.shape();
  const Index shape_c = c.shape();
  for (index_t i = 0; i < shape_c[0]; ++i) {
    for (index_t k = 0; k < shape_a[1]; ++k) {
      const double x = pa[i * sa[0] + k * sa[1]];
      for (index_t j = 0; j < shape_c[1]; ++j) {
        pc[i * sc[0] + j * sc[1]] += x * pb[k * sb[0] + j * sb[1]];
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    const index_t m = argc > 1 ? std::atol(argv[1]) : 50;
    const index_t n = argc > 2 ? std::atol(argv[2]) : 40;
    const index_t p = argc > 3 ? std::atol(argv[3]) : 30;
    using namespace strata::dist;
    const index_t block = 16;  // tiles of 16 x 16, ragged at the edges
    DistTensor<double> a(MPI_COMM_WORLD, Tiling::regular(Index{m, p}, Index{block, block}),
                         Distribution::cyclic());
    DistTensor<double> b(MPI_COMM_WORLD, Tiling::regular(Index{p, n}, Index{block, block}),
                         Distribution::block());
    DistTensor<double> c(MPI_COMM_WORLD, Tiling::regular(Index{m, n}, Index{block, block}),
                         Distribution::cyclic());
    for (const index_t t : a.local_tiles()) {  // small integers: the products are exact
      strata::for_each_indexed(strata::par, a.tile(t), [](index_t i, index_t k, double& x) {
        x = static_cast<double>((i + 2 * k) % 7 - 3);
      });
    }
    for (const index_t t : b.local_tiles()) {
      strata::for_each_indexed(strata::par, b.tile(t), [](index_t k, index_t j, double& x) {
        x = static_cast<double>((3 * k + j) % 5 - 2);
      });
    }
    a.sync();
    b.sync();

    // The index space (i, j, k), cut where C's tiles and the shared dimension's tiles are cut.
    const strata::MatmulProjections mm = strata::matmul_projections();
    const std::vector<index_t>& cuts_k = a.tiling().boundaries(1);
    for (const index_t t : c.local_tiles()) {
      const Index lo = c.tiling().tile_lo(t);
      const Index hi = c.tiling().tile_hi(t);
      for (std::size_t q = 0; q + 1 < cuts_k.size(); ++q) {
        const ZRange index_block(Index{lo[0], lo[1], cuts_k[q]},
                                 Index{hi[0], hi[1], cuts_k[q + 1]});
        const ZRange in_a = mm.lhs.apply(index_block);    // A[I, K]
        const ZRange in_b = mm.rhs.apply(index_block);    // B[K, J]
        const ZRange out = mm.result.apply(index_block);  // C[I, J]: this tile
        const Tensor<double> block_a = a.get(in_a.start(), in_a.end());
        const Tensor<double> block_b = b.get(in_b.start(), in_b.end());
        if (out.start() != lo || out.end() != hi) {
          std::cerr << "the result projection left the tile\n";
          status = 1;
        }
        multiply_add(block_a, block_b, c.tile(t));
      }
    }
    const auto whole_a = a.gather(0);
    const auto whole_b = b.gather(0);
    const auto whole_c = c.gather(0);

    if (c.rank() == 0) {
      Tensor<double> reference({m, n});
      multiply_add(*whole_a, *whole_b, reference);
      const bool same = whole_c->to_vector() == reference.to_vector();
      std::cout << "SUMMA " << m << " x " << p << " times " << p << " x " << n << ", "
                << c.tiling().n_tiles() << " C tiles on " << c.n_ranks()
                << " ranks: equal to one process: " << std::boolalpha << same << "\n";
      status = same && status == 0 ? 0 : 1;
    }
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
