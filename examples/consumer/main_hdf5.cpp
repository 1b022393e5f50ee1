// A strict consumer of strata::hdf5: writes and reads a file through the installed headers.
#include <strata/io/hdf5.hpp>
#include <strata/strata.hpp>

#include <cstdint>
#include <filesystem>
#include <iostream>
#include <vector>

int main() {
  namespace io = strata::io;
  const std::string path = (std::filesystem::temp_directory_path() / "strata_consumer.h5").string();
  {
    io::File f(path, io::Mode::truncate);
    auto u = strata::iota<double>({4, 6}).copy();
    f.write("u", u.select({strata::Range{{}, {}, 2}, strata::Range{{}, {}, -1}}), {.deflate = 1});
    f.write("tiled", strata::LayoutTensor<float>::from_dense(
                         strata::Tensor<float>({5, 5}), strata::Layout::tiled(strata::Smooth{5, 5}, {2, 2})));
    f.write("rows", strata::JaggedTensor<std::int32_t>(std::vector<std::vector<std::int32_t>>{{1}, {2, 3}}));
    auto K = strata::sparse<double>({3, 3});
    K(1, 1) = 2.0;
    f.write_sparse("K", K);
    f.attrs().set("n", std::vector<std::int64_t>{1, 2});
    f.dataset("u").fill(1.5);
  }
  const io::File f(path);
  const auto u = f.dataset("u").transpose().read<float>();
  strata::Tensor<double> out({3, 2});
  f.dataset("u").select({strata::Range{0, 2}, strata::Range{0, 3}}).transpose().read_into(out);
  const auto tiles = f.dataset("tiled").read_tiled<float>();
  const auto rows = f.read_jagged<std::int32_t>("rows");
  const auto K = f.read_sparse<double>("K");
  const auto n = f.attrs().get<std::vector<std::int64_t>>("n");
  std::cout << "consumer_hdf5: " << u << " " << out << " " << tiles.n_pieces() << " " << rows << " "
            << strata::sum(K) << " " << n.size() << "\n";
  std::filesystem::remove(path);
  return 0;
}
