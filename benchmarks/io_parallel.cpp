// Parallel HDF5: a DistTensor written to and read from one dataset by strata (open_collective,
// write, read_into) against the same collective transfers written by hand with the HDF5 C API
// (one H5Dwrite / H5Dread per round, each rank's tile as a hyperslab, H5FD_MPIO_COLLECTIVE).
// Run under mpirun (4 ranks: 4096 x 4096 float64 in 1024 x 1024 tiles, block-cyclic over a
// 2 x 2 grid); rank 0 prints the best of 5 runs of each, in ms and GiB/s.
#include "strata/io/parallel.hpp"

#include <hdf5.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace {

using strata::Index;
using strata::index_t;
using namespace strata::dist;

constexpr index_t kN = 4096;
constexpr index_t kTile = 1024;

std::string path(const std::string& name) {
  const char* dir = std::getenv("STRATA_BENCH_DIR");
  return (std::filesystem::path(dir != nullptr ? dir : "/tmp") / ("strata_bench_par_" + name + ".h5"))
      .string();
}

double best(const std::function<void()>& f) {
  double t = 1e30;
  for (int run = 0; run < 5; ++run) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    f();
    MPI_Barrier(MPI_COMM_WORLD);
    t = std::min(t, MPI_Wtime() - t0);
  }
  return t;
}

/// The hand-written transfer: every rank's tiles in collective rounds, empty selections when a
/// rank has no tile left.
void hand(const std::string& file, DistTensor<double>& a, bool write) {
  const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
  const hsize_t dims[2] = {kN, kN};
  hid_t f = -1;
  hid_t d = -1;
  if (write) {
    f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    d = H5Dcreate2(f, "x", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Sclose(space);
  } else {
    f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, fapl);
    d = H5Dopen2(f, "x", H5P_DEFAULT);
  }
  const hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
  long long mine = static_cast<long long>(a.local_tiles().size());
  long long rounds = 0;
  MPI_Allreduce(&mine, &rounds, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  for (long long r = 0; r < rounds; ++r) {
    const hid_t fspace = H5Dget_space(d);
    hid_t mspace = -1;
    double* block = nullptr;
    double dummy = 0;
    if (r < mine) {
      const index_t t = a.local_tiles()[static_cast<std::size_t>(r)];
      const Index lo = a.tiling().tile_lo(t);
      const Index e = a.tiling().tile_extents(t);
      const hsize_t start[2] = {static_cast<hsize_t>(lo[0]), static_cast<hsize_t>(lo[1])};
      const hsize_t count[2] = {static_cast<hsize_t>(e[0]), static_cast<hsize_t>(e[1])};
      H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, nullptr, count, nullptr);
      mspace = H5Screate_simple(2, count, nullptr);
      block = a.tile(t).data();
    } else {
      const hsize_t one = 1;
      H5Sselect_none(fspace);
      mspace = H5Screate_simple(1, &one, nullptr);
      H5Sselect_none(mspace);
      block = &dummy;
    }
    if (write) {
      H5Dwrite(d, H5T_NATIVE_DOUBLE, mspace, fspace, dxpl, block);
    } else {
      H5Dread(d, H5T_NATIVE_DOUBLE, mspace, fspace, dxpl, block);
    }
    H5Sclose(mspace);
    H5Sclose(fspace);
  }
  H5Pclose(dxpl);
  H5Dclose(d);
  H5Fclose(f);
  H5Pclose(fapl);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  {
    DistTensor<double> a(MPI_COMM_WORLD, Tiling::regular({kN, kN}, {kTile, kTile}),
                         Distribution::block_cyclic({2, 2}));
    a.fill_local(1.5);
    const std::string s = path("strata");
    const std::string h = path("hand");
    const double strata_write = best([&] {
      auto f = strata::io::open_collective(MPI_COMM_WORLD, s, strata::io::Mode::truncate);
      f.write("x", a);
    });
    const double hand_write = best([&] { hand(h, a, true); });
    const double strata_read = best([&] {
      const auto f = strata::io::open_collective(MPI_COMM_WORLD, s, strata::io::Mode::read);
      f.dataset("x").read_into(a);
    });
    const double hand_read = best([&] { hand(h, a, false); });
    if (rank == 0) {
      const double gib = static_cast<double>(kN * kN * 8) / (1 << 30);
      std::printf("parallel HDF5, %d ranks, %lld x %lld float64 in %lld x %lld tiles\n", size,
                  static_cast<long long>(kN), static_cast<long long>(kN),
                  static_cast<long long>(kTile), static_cast<long long>(kTile));
      std::printf("%-24s %9.1f ms %6.2f GiB/s\n", "strata write", strata_write * 1e3, gib / strata_write);
      std::printf("%-24s %9.1f ms %6.2f GiB/s\n", "hand-written write", hand_write * 1e3, gib / hand_write);
      std::printf("%-24s %9.1f ms %6.2f GiB/s\n", "strata read_into", strata_read * 1e3, gib / strata_read);
      std::printf("%-24s %9.1f ms %6.2f GiB/s\n", "hand-written read", hand_read * 1e3, gib / hand_read);
      std::printf("strata / hand throughput: write %.2fx, read %.2fx\n", hand_write / strata_write,
                  hand_read / strata_read);
      std::filesystem::remove(s);
      std::filesystem::remove(h);
    }
  }
  MPI_Finalize();
  return 0;
}
