// HDF5 files: strata::io against the raw HDF5 C API doing the same transfers (h5py's side is
// benchmarks/io_h5py.py). Files go to $STRATA_BENCH_DIR (default /tmp; /dev/shm measures the
// libraries rather than the disk); each benchmark writes its file once before timing, so both
// sides find it in the page cache.
#include "strata/io/hdf5.hpp"

#include <benchmark/benchmark.h>
#include <hdf5.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace io = strata::io;
using strata::Index;
using strata::index_t;
using strata::Range;
using strata::Tensor;

namespace {

std::string bench_file(const std::string& name) {
  const char* dir = std::getenv("STRATA_BENCH_DIR");
  return (std::filesystem::path(dir != nullptr ? dir : "/tmp") / ("strata_bench_" + name + ".h5"))
      .string();
}

Tensor<double> numbers(const Index& shape) {
  auto t = Tensor<double>::for_overwrite(shape);
  double* p = t.data();
  for (index_t i = 0; i < t.size(); ++i) {
    p[i] = static_cast<double>(i);
  }
  return t;
}

/// Writes a dataset with the C API (contiguous, or chunked when @p chunk is non-empty).
void raw_write(const std::string& path, const Tensor<double>& t, const std::vector<hsize_t>& chunk) {
  const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const Index shape = t.shape();
  const std::vector<hsize_t> dims(shape.begin(), shape.end());
  const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  if (!chunk.empty()) {
    H5Pset_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data());
  }
  const hid_t d = H5Dcreate2(f, "x", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, t.data());
  H5Dclose(d);
  H5Pclose(dcpl);
  H5Sclose(space);
  H5Fclose(f);
}

/// Reads a hyperslab with the C API into a new buffer (uninitialised, as strata's).
std::unique_ptr<double[]> raw_read(const std::string& path, const std::vector<hsize_t>& start,
                             const std::vector<hsize_t>& stride, const std::vector<hsize_t>& count) {
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t d = H5Dopen2(f, "x", H5P_DEFAULT);
  const hid_t fspace = H5Dget_space(d);
  H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start.data(), stride.data(), count.data(), nullptr);
  const hid_t mspace = H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr);
  hsize_t n = 1;
  for (const hsize_t c : count) {
    n *= c;
  }
  std::unique_ptr<double[]> out(new double[n]);
  H5Dread(d, H5T_NATIVE_DOUBLE, mspace, fspace, H5P_DEFAULT, out.get());
  H5Sclose(mspace);
  H5Sclose(fspace);
  H5Dclose(d);
  H5Fclose(f);
  return out;
}

constexpr index_t gib_rows = 16384;  // 16384 x 8192 float64 = 1 GiB

void set_bytes(benchmark::State& state, index_t elements) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * elements * 8);
}

// ---- 1 GiB, contiguous -----------------------------------------------------------------------

void BM_write_1GiB_strata(benchmark::State& state) {
  const auto t = numbers({gib_rows, 8192});
  const auto path = bench_file("w1g");
  raw_write(path, t, {});  // warm: the first write of a new file pays for its pages
  for (auto _ : state) {
    io::File f(path, io::Mode::truncate);
    f.write("x", t);
  }
  set_bytes(state, t.size());
}
BENCHMARK(BM_write_1GiB_strata)->Name("BM_write_1GiB/strata")->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

void BM_write_1GiB_raw_hdf5(benchmark::State& state) {
  const auto t = numbers({gib_rows, 8192});
  const auto path = bench_file("w1g");
  raw_write(path, t, {});  // warm, as strata's
  for (auto _ : state) {
    raw_write(path, t, {});
  }
  set_bytes(state, t.size());
}
BENCHMARK(BM_write_1GiB_raw_hdf5)->Name("BM_write_1GiB/hand_c_api")->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

// The two writes alternated in one loop, each timed on its own: on this machine a 1 GiB write's
// time moves by 50% from run to run (page allocation, writeback), and alternating puts both
// sides under the same conditions. Counters: each side's mean time in ms and raw / strata.
void BM_write_1GiB_alternating(benchmark::State& state) {
  const auto t = numbers({gib_rows, 8192});
  const auto path = bench_file("w1g");
  raw_write(path, t, {});
  double strata_ms = 0;
  double raw_ms = 0;
  const auto since = [](std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    raw_write(path, t, {});
    raw_ms += since(t0);
    t0 = std::chrono::steady_clock::now();
    {
      io::File f(path, io::Mode::truncate);
      f.write("x", t);
    }
    strata_ms += since(t0);
  }
  const auto n = static_cast<double>(state.iterations());
  state.counters["strata_ms"] = strata_ms / n;
  state.counters["raw_ms"] = raw_ms / n;
  state.counters["raw_over_strata"] = raw_ms / strata_ms;
}
BENCHMARK(BM_write_1GiB_alternating)->Unit(benchmark::kMillisecond)->Iterations(8)->UseRealTime();

void BM_read_1GiB_strata(benchmark::State& state) {
  const auto path = bench_file("r1g");
  raw_write(path, numbers({gib_rows, 8192}), {});
  for (auto _ : state) {
    const io::File f(path);
    auto t = f.read<double>("x");
    benchmark::DoNotOptimize(t.data());
  }
  set_bytes(state, gib_rows * 8192);
}
BENCHMARK(BM_read_1GiB_strata)->Name("BM_read_1GiB/strata")->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

void BM_read_1GiB_raw_hdf5(benchmark::State& state) {
  const auto path = bench_file("r1g");
  raw_write(path, numbers({gib_rows, 8192}), {});
  for (auto _ : state) {
    auto v = raw_read(path, {0, 0}, {1, 1}, {gib_rows, 8192});
    benchmark::DoNotOptimize(v.get());
  }
  set_bytes(state, gib_rows * 8192);
}
BENCHMARK(BM_read_1GiB_raw_hdf5)->Name("BM_read_1GiB/hand_c_api")->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

// ---- views: every other row of a 4096 x 4096 dataset; a 1% crop of a 256^3 one ----------------

void BM_every_other_row_strata(benchmark::State& state) {
  const auto path = bench_file("rows");
  raw_write(path, numbers({4096, 4096}), {});
  const io::File f(path);
  const auto view = f.dataset("x").select({Range{{}, {}, 2}});
  for (auto _ : state) {
    auto t = view.read<double>();
    benchmark::DoNotOptimize(t.data());
  }
  set_bytes(state, 2048 * 4096);
}
BENCHMARK(BM_every_other_row_strata)->Name("BM_every_other_row/strata")->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_every_other_row_raw_hdf5(benchmark::State& state) {
  const auto path = bench_file("rows");
  raw_write(path, numbers({4096, 4096}), {});
  for (auto _ : state) {
    auto v = raw_read(path, {0, 0}, {2, 1}, {2048, 4096});
    benchmark::DoNotOptimize(v.get());
  }
  set_bytes(state, 2048 * 4096);
}
BENCHMARK(BM_every_other_row_raw_hdf5)->Name("BM_every_other_row/hand_c_api")->Unit(benchmark::kMillisecond)->UseRealTime();

// The crop [100:155, 50:105, 20:75] of 256^3: 55^3 elements, 0.99% of the dataset.
void BM_crop_1pct_strata(benchmark::State& state) {
  const auto path = bench_file("crop");
  raw_write(path, numbers({256, 256, 256}), {});
  const io::File f(path);
  const auto view = f.dataset("x").select({Range{100, 155}, Range{50, 105}, Range{20, 75}});
  for (auto _ : state) {
    auto t = view.read<double>();
    benchmark::DoNotOptimize(t.data());
  }
  set_bytes(state, 55 * 55 * 55);
}
BENCHMARK(BM_crop_1pct_strata)->Name("BM_crop_1pct/strata")->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_crop_1pct_raw_hdf5(benchmark::State& state) {
  const auto path = bench_file("crop");
  raw_write(path, numbers({256, 256, 256}), {});
  for (auto _ : state) {
    auto v = raw_read(path, {100, 50, 20}, {1, 1, 1}, {55, 55, 55});
    benchmark::DoNotOptimize(v.get());
  }
  set_bytes(state, 55 * 55 * 55);
}
BENCHMARK(BM_crop_1pct_raw_hdf5)->Name("BM_crop_1pct/hand_c_api")->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_crop_1pct_read_all_then_slice(benchmark::State& state) {
  const auto path = bench_file("crop");
  raw_write(path, numbers({256, 256, 256}), {});
  const io::File f(path);
  for (auto _ : state) {
    auto all = f.read<double>("x");
    auto t = all.select({Range{100, 155}, Range{50, 105}, Range{20, 75}}).copy();
    benchmark::DoNotOptimize(t.data());
  }
  set_bytes(state, 55 * 55 * 55);
}
BENCHMARK(BM_crop_1pct_read_all_then_slice)->Name("BM_crop_1pct/strata_read_all_then_slice")->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- chunked: a 4096 x 4096 dataset in 256 x 256 chunks read tile by tile ---------------------

void BM_chunked_tiles_strata(benchmark::State& state) {
  const auto path = bench_file("chunks");
  raw_write(path, numbers({4096, 4096}), {256, 256});
  const io::File f(path);
  for (auto _ : state) {
    auto t = f.dataset("x").read_tiled<double>();
    benchmark::DoNotOptimize(t.piece(0).data());
  }
  set_bytes(state, 4096 * 4096);
}
BENCHMARK(BM_chunked_tiles_strata)->Name("BM_chunked_tiles/strata")->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_chunked_tiles_raw_hdf5(benchmark::State& state) {
  const auto path = bench_file("chunks");
  raw_write(path, numbers({4096, 4096}), {256, 256});
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t d = H5Dopen2(f, "x", H5P_DEFAULT);
  for (auto _ : state) {
    std::unique_ptr<double[]> tiles(new double[std::size_t{4096} * 4096]);  // tile after tile
    const hid_t fspace = H5Dget_space(d);
    const hsize_t count[2] = {256, 256};
    const hid_t mspace = H5Screate_simple(2, count, nullptr);
    std::size_t at = 0;
    for (hsize_t r = 0; r < 4096; r += 256) {
      for (hsize_t c = 0; c < 4096; c += 256) {
        const hsize_t start[2] = {r, c};
        H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, nullptr, count, nullptr);
        H5Dread(d, H5T_NATIVE_DOUBLE, mspace, fspace, H5P_DEFAULT, tiles.get() + at);
        at += 256 * 256;
      }
    }
    H5Sclose(mspace);
    H5Sclose(fspace);
    benchmark::DoNotOptimize(tiles.get());
  }
  H5Dclose(d);
  H5Fclose(f);
  set_bytes(state, 4096 * 4096);
}
BENCHMARK(BM_chunked_tiles_raw_hdf5)->Name("BM_chunked_tiles/hand_c_api")->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
