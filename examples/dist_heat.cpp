// A distributed heat equation: u_t = alpha * laplacian(u) on an n x n grid with a zero boundary,
// explicit steps, the grid tiled over the MPI ranks. Each step fills every tile's ghost cells
// (their widths come from the stencil's index projection) and updates the tile from its
// ghosted view with one expression; the result is checked against the same steps on one
// process. Run: mpirun -np 4 ./strata_dist_heat [n] [steps]
#include "strata/dist/tensor.hpp"
#include "strata/expr/expr.hpp"
#include "strata/projection/projections.hpp"
#include "strata/tensor/for_each_indexed.hpp"

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>

namespace {

using strata::Index;
using strata::index_t;
using strata::Range;
using strata::Tensor;

constexpr double alpha = 0.2;

double initial(index_t i, index_t j, index_t n) {
  const double di = static_cast<double>(i) - static_cast<double>(n) / 2;
  const double dj = static_cast<double>(j) - static_cast<double>(n) / 3;
  return std::exp(-(di * di + dj * dj) / 20.0);
}

/// One explicit step of the five-point stencil, read from @p g (a block and one ghost cell on
/// every side), written to @p out (the block).
template <class G>
void step(const G& g, Tensor<double> out) {
  const Range mid{1, -1};
  const auto c = g.select({mid, mid});
  out = c + alpha * (g.select({Range{0, -2}, mid}) + g.select({Range{2}, mid}) +
                     g.select({mid, Range{0, -2}}) + g.select({mid, Range{2}}) - 4.0 * c);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    const index_t n = argc > 1 ? std::atol(argv[1]) : 48;
    const int steps = argc > 2 ? std::atoi(argv[2]) : 40;
    using namespace strata::dist;
    const Tiling tiling = Tiling::regular(Index{n, n}, Index{12, 16});
    DistTensor<double> u(MPI_COMM_WORLD, tiling, Distribution::cyclic());
    DistTensor<double> next(MPI_COMM_WORLD, tiling, Distribution::cyclic());
    for (const index_t t : u.local_tiles()) {  // global indices in every tile
      strata::for_each_indexed(strata::par, u.tile(t),
                               [n](index_t i, index_t j, double& x) { x = initial(i, j, n); });
    }
    // The stencil reads a 3 x 3 window around each point: one ghost cell on every side.
    const auto window = strata::conv_window_projection({3, 3}, {1, 1}, {1, 1}, {1, 1});
    u.set_ghosts(Ghosts::of(window, Index{12, 16}));
    for (int s = 0; s < steps; ++s) {
      u.update_ghosts();  // zeros beyond the grid: the boundary condition
      for (const index_t t : u.local_tiles()) {
        step(u.ghosted(t), next.tile(t));
      }
      for (const index_t t : u.local_tiles()) {
        u.tile(t).assign(next.tile(t));
      }
    }
    const double total = u.sum();
    const auto whole = u.gather(0);

    if (u.rank() == 0) {
      // The same steps on one process: a zero-padded grid, updated in place of its interior.
      Tensor<double> padded({n + 2, n + 2});
      const Range mid{1, -1};
      strata::for_each_indexed(strata::seq, padded.select({mid, mid}), strata::relative,
                               [n](index_t i, index_t j, double& x) { x = initial(i, j, n); });
      Tensor<double> result({n, n});
      for (int s = 0; s < steps; ++s) {
        step(padded, result);
        padded.select({mid, mid}).assign(result);
      }
      const double difference = strata::max(strata::abs(*whole - result));
      std::cout << "heat equation, " << n << " x " << n << ", " << steps << " steps, "
                << tiling.n_tiles() << " tiles on " << u.n_ranks()
                << " ranks: max |distributed - one process| = " << difference << ", total heat "
                << total << "\n";
      status = difference == 0.0 ? 0 : 1;
    }
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
