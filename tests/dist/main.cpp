// Catch2's main() for the distributed tests, run by mpirun on several ranks: every rank runs
// every test case in the same order (the collectives inside them need all ranks), and the
// program fails on every rank when any rank failed.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Catch::Session session;
  int failed = session.applyCommandLine(argc, argv);
  if (failed == 0) {
    failed = session.run();
  }
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any != 0 ? 1 : 0;
}
