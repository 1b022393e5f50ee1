// strata's half of the exchange with h5py (tests/io/h5py_exchange.py):
//   strata_h5py_peer write FILE   writes the objects the script checks with h5py and NumPy;
//   strata_h5py_peer check FILE   reads the file h5py wrote and checks every value against the
//                                 formulas below (plain loops, not strata's io), exit 1 on a
//                                 difference.
// Both sides build the same data from the same formulas (listed in the script).
#include "strata/io/hdf5.hpp"

#include <complex>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

namespace io = strata::io;
using strata::Index;
using strata::index_t;
using strata::Range;
using strata::Tensor;

namespace {

template <class T, class F>
Tensor<T> by_position(const Index& shape, F f) {
  auto t = Tensor<T>(shape);
  T* p = t.data();
  for (index_t i = 0; i < t.size(); ++i) {
    p[i] = f(i);
  }
  return t;
}

int failures = 0;

template <class T>
void expect(const std::string& what, const Tensor<const T>& actual, const Index& shape,
            const std::vector<T>& expected) {
  const auto a = actual.to_vector();
  if (actual.shape() != shape || a != expected) {
    std::cerr << "h5py -> strata: " << what << " differs: shape " << strata::to_string(actual.shape())
              << ", expected " << strata::to_string(shape) << "\n";
    ++failures;
  }
}

template <class T, class F>
std::vector<T> values(index_t n, F f) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) {
    v[static_cast<std::size_t>(i)] = f(i);
  }
  return v;
}

void write(const std::string& path) {
  io::File f(path, io::Mode::truncate);
  f.write("f64", by_position<double>({2, 3, 4}, [](index_t i) { return double(i) * 0.5 - 3; }));
  f.write("f32", by_position<float>({5}, [](index_t i) { return float(i) * 0.25F; }));
  f.write("i32", by_position<std::int32_t>({3, 4}, [](index_t i) {
            return static_cast<std::int32_t>((i * 7) % 100 - 50);
          }));
  f.write("i16", Tensor<std::int16_t>({{-3, 7}, {100, -100}}));
  f.write("u8", by_position<std::uint8_t>({4}, [](index_t i) { return std::uint8_t(i * 3); }));
  Tensor<std::int64_t> scalar;
  scalar.fill(-7);
  f.write("i64_scalar", scalar);
  f.write("bool", by_position<bool>({7}, [](index_t i) { return i % 3 == 1; }));
  f.write("c128", by_position<std::complex<double>>({3}, [](index_t i) {
            return std::complex<double>(double(i) * 0.5, -double(i));
          }));
  f.write("c64", by_position<std::complex<float>>({2}, [](index_t i) {
            return std::complex<float>(float(i), 1.0F);
          }));
  f.write("empty", Tensor<double>({0, 3}));
  const auto u = by_position<double>({4, 6}, [](index_t i) { return double(i); });
  f.write("strided", u.select({Range{{}, {}, 2}, Range{{}, {}, -1}}));
  f.write("chunked", by_position<float>({40, 25}, [](index_t i) { return float(i); }),
          {.chunks = {8, 5}, .deflate = 4, .shuffle = true});
  f.write("rows", strata::JaggedTensor<float>(std::vector<std::vector<float>>{{1, 2, 3}, {}, {4, 5}}));
  auto K = strata::sparse<double>({4, 5});
  K(0, 1) = 2.0;
  K(2, 0) = 3.0;
  K(2, 4) = -1.0;
  f.write_sparse("K", K);
  f.attrs().set("title", "heat");
  f.attrs().set("step", std::int64_t{42});
  f.attrs().set("origin", std::vector<double>{0.0, 1.5});
}

void check(const std::string& path) {
  const io::File f(path);
  expect<double>("f64", f.read<double>("f64"), {2, 3, 4},
                 values<double>(24, [](index_t i) { return double(i) * 0.5 - 3; }));
  expect<float>("f32", f.read<float>("f32"), {5},
                values<float>(5, [](index_t i) { return float(i) * 0.25F; }));
  expect<std::int32_t>("i32", f.read<std::int32_t>("i32"), {3, 4}, values<std::int32_t>(12, [](index_t i) {
                         return static_cast<std::int32_t>((i * 7) % 100 - 50);
                       }));
  expect<std::int16_t>("i16", f.read<std::int16_t>("i16"), {2, 2}, {-3, 7, 100, -100});
  expect<std::uint8_t>("u8", f.read<std::uint8_t>("u8"), {4}, {0, 3, 6, 9});
  expect<std::int64_t>("i64_scalar", f.read<std::int64_t>("i64_scalar"), {}, {-7});
  expect<bool>("bool", f.read<bool>("bool"), {7},
               values<bool>(7, [](index_t i) { return i % 3 == 1; }));
  expect<std::complex<double>>("c128", f.read<std::complex<double>>("c128"), {3},
                               {{0.0, 0.0}, {0.5, -1.0}, {1.0, -2.0}});
  expect<std::complex<float>>("c64", f.read<std::complex<float>>("c64"), {2},
                              {{0.0F, 1.0F}, {1.0F, 1.0F}});
  expect<double>("empty", f.read<double>("empty"), {0, 3}, {});
  // h5py's chunked, gzip-compressed 100 x 100 arange, read through a view: big[5:50:3, ::-7].
  const auto big = f.dataset("big");
  if (big.chunks() != Index{10, 10}) {
    std::cerr << "h5py -> strata: big's chunks are " << strata::to_string(big.chunks()) << "\n";
    ++failures;
  }
  std::vector<double> crop;
  for (index_t r = 5; r < 50; r += 3) {
    for (index_t c = 99; c >= 0; c -= 7) {
      crop.push_back(double(r * 100 + c));
    }
  }
  expect<double>("big[5:50:3, ::-7]",
                 big.select({Range{5, 50, 3}, Range{{}, {}, -7}}).read<double>(), {15, 15}, crop);
  const auto rows = f.read_jagged<float>("rows");
  expect<float>("rows.values", rows.values(), {5}, {1, 2, 3, 4, 5});
  if (std::vector<index_t>(rows.offsets().begin(), rows.offsets().end()) !=
      std::vector<index_t>{0, 3, 3, 5}) {
    std::cerr << "h5py -> strata: rows.offsets differ\n";
    ++failures;
  }
  const auto K = f.read_sparse<double>("K");
  expect<double>("K", K.copy(), {4, 5},
                 {0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, -1, 0, 0, 0, 0, 0});
  if (f.attrs().get<std::string>("title") != "heat" || f.attrs().get<std::int64_t>("step") != 42 ||
      f.attrs().get<std::vector<double>>("origin") != std::vector<double>{0.0, 1.5}) {
    std::cerr << "h5py -> strata: the root attributes differ\n";
    ++failures;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: strata_h5py_peer write|check FILE\n";
    return 2;
  }
  try {
    const std::string mode = argv[1];
    if (mode == "write") {
      write(argv[2]);
    } else {
      check(argv[2]);
    }
  } catch (const std::exception& e) {
    std::cerr << "strata_h5py_peer: " << e.what() << "\n";
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
