// Tests for strata/io/parallel.hpp, run by mpirun on 1 to 4 ranks (ctest io.np1 ... io.np4):
// distributed tensors written to one dataset collectively and read back into other tilings.
#include "strata/io/parallel.hpp"

#include "check_error.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace io = strata::io;
using strata::Index;
using strata::index_t;
using strata::Range;
using strata::dist::DistTensor;
using strata::dist::Distribution;
using strata::dist::Tiling;

namespace {

int world_size() {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

/// One path for all ranks (rank 0's temp directory and the size of the run, broadcast).
std::string shared_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("strata_io_np" + std::to_string(world_size()) + "_" + name + ".h5"))
      .string();
}

double value(index_t i, index_t j) { return static_cast<double>(i * 100 + j); }

/// Every element of a rank-2 distributed tensor set to value(i, j) of its global index.
void fill(DistTensor<double>& a) {
  for (const index_t t : a.local_tiles()) {
    const Index lo = a.tiling().tile_lo(t);
    const Index e = a.tiling().tile_extents(t);
    double* p = a.tile(t).data();
    for (index_t r = 0; r < e[0]; ++r) {
      for (index_t c = 0; c < e[1]; ++c) {
        p[r * e[1] + c] = value(lo[0] + r, lo[1] + c);
      }
    }
  }
}

/// Checks every local element against f(global row, global column).
template <class F>
void check_tiles(DistTensor<double>& a, F f) {
  for (const index_t t : a.local_tiles()) {
    const Index lo = a.tiling().tile_lo(t);
    const Index e = a.tiling().tile_extents(t);
    const double* p = a.tile(t).data();
    for (index_t r = 0; r < e[0]; ++r) {
      for (index_t c = 0; c < e[1]; ++c) {
        INFO("tile " << t << " element " << lo[0] + r << ", " << lo[1] + c);
        CHECK(p[r * e[1] + c] == f(lo[0] + r, lo[1] + c));
      }
    }
  }
}

}  // namespace

TEST_CASE("a distributed tensor is written collectively and read into other tilings", "[io][mpi]") {
  const std::string path = shared_file("collective");
  DistTensor<double> a(MPI_COMM_WORLD, Tiling::regular({13, 10}, {4, 3}),
                       Distribution::block_cyclic(world_size() == 4 ? Index{2, 2}
                                                                    : Index{1, world_size()}));
  fill(a);
  {
    auto f = io::open_collective(MPI_COMM_WORLD, path, io::Mode::truncate);
    f.write("u", a);
    f.write("z", a, {.chunks = {5, 5}, .deflate = 3});
    f.attrs().set("ranks", world_size());
  }
  auto f = io::open_collective(MPI_COMM_WORLD, path, io::Mode::read);
  CHECK(f.attrs().get<int>("ranks") == world_size());
  // Every rank reads the whole dataset on its own, too.
  const auto whole = f.read<double>("u");
  for (index_t i = 0; i < 13; ++i) {
    for (index_t j = 0; j < 10; ++j) {
      CHECK(whole.at({i, j}) == value(i, j));
    }
  }
  SECTION("a dataset read by one rank only") {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
      const auto row = f.dataset("z").select({12}).read<double>();
      CHECK(row.to_vector() == std::vector<double>{1200, 1201, 1202, 1203, 1204, 1205, 1206,
                                                   1207, 1208, 1209});
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  SECTION("another tiling and distribution") {
    DistTensor<double> b(MPI_COMM_WORLD, Tiling::regular({13, 10}, {6, 7}), Distribution::cyclic());
    f.dataset("u").read_into(b);
    check_tiles(b, value);
    DistTensor<double> z(MPI_COMM_WORLD, Tiling::regular({13, 10}, {13, 4}), Distribution::block());
    f.dataset("z").read_into(z);
    check_tiles(z, value);
  }
  SECTION("views: transposed, flipped, an index array") {
    DistTensor<double> t(MPI_COMM_WORLD, Tiling::regular({10, 13}, {3, 5}), Distribution::cyclic());
    f.dataset("u").transpose().read_into(t);
    check_tiles(t, [](index_t i, index_t j) { return value(j, i); });
    DistTensor<double> r(MPI_COMM_WORLD, Tiling::regular({4, 5}, {2, 2}), Distribution::cyclic());
    f.dataset("u").select({std::vector<index_t>{3, 1, 1, 12}, Range{{}, {}, -2}}).read_into(r);
    const std::vector<index_t> rows{3, 1, 1, 12};
    check_tiles(r, [&](index_t i, index_t j) {
      return value(rows[static_cast<std::size_t>(i)], 9 - 2 * j);
    });
  }
  SECTION("one tile: the other ranks take part with nothing") {
    DistTensor<double> one(MPI_COMM_WORLD, Tiling::regular({13, 10}, {13, 10}), Distribution::block());
    f.dataset("u").read_into(one);
    check_tiles(one, value);
  }
  SECTION("a distributed tensor of another shape is refused on every rank") {
    DistTensor<double> wrong(MPI_COMM_WORLD, Tiling::regular({10, 13}, {5, 5}), Distribution::block());
    strata::test::check_error<strata::ShapeError>([&] { f.dataset("u").read_into(wrong); },
                                                  "Dataset::read_into", "[10 13]");
  }
}
