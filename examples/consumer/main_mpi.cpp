// Uses strata::mpi (distributed tensors) from an installed package; CI builds it with -Wall
// -Wextra -Werror and runs it as one MPI process.
#include <strata/dist/tensor.hpp>
#include <strata/tensor/print.hpp>

#include <iostream>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 1;
  {
    using namespace strata::dist;
    DistTensor<double> a(MPI_COMM_WORLD, Tiling::regular(strata::Index{6, 4}, strata::Index{4, 3}),
                         Distribution::cyclic());
    a.fill_local(1.5);
    const strata::Tensor<double> columns = a.sum(strata::Index{0});
    const strata::Tensor<double> corner =
        a.get(a.region().select({strata::Range{{}, {}, -5}}).transpose());
    std::cout << "consumer_mpi: column sums " << columns << ", corner shape "
              << strata::to_string(corner.shape()) << "\n";
    status = columns(0) == 9.0 && corner.shape() == strata::Index{4, 2} ? 0 : 1;
  }
  MPI_Finalize();
  return status;
}
