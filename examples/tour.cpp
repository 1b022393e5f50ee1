// The strata tour: a guided, printed walk through every capability, one section each.
#include "strata/strata.hpp"
#if STRATA_TOUR_HDF5
#include "strata/io/hdf5.hpp"
#endif
#if STRATA_TOUR_HDF5_MPI
#include "strata/io/parallel.hpp"
#endif
#include "strata/interop/blas.hpp"
#include "strata/interop/mdspan.hpp"
#if __has_include(<dlpack/dlpack.h>)
#include "strata/interop/dlpack.hpp"
#define STRATA_TOUR_DLPACK 1
#endif
#if STRATA_TOUR_MPI
#include "strata/dist/einsum.hpp"
#include "strata/dist/jagged.hpp"
#include "strata/dist/tensor.hpp"
#endif

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

void section(const std::string& title) {
  std::cout << "\n== " << title << " "
            << std::string(title.size() < 70 ? 70 - title.size() : 0, '=') << "\n";
}

void core() {
  section("core: indices, errors, checked sizes");
  // A multi-index is a small vector: no heap for rank <= 6.
  const strata::Index shape{3, 4, 5};
  std::cout << "shape " << strata::to_string(shape) << " holds "
            << strata::checked_size(shape, "tour") << " elements\n";

  // Sizes are checked for overflow; every error names the operation and the bad argument.
  try {
    (void)strata::checked_size(strata::Index{1L << 40, 1L << 40}, "zeros");
  } catch (const strata::ShapeError& e) {
    std::cout << "ShapeError: " << e.what() << "\n";
  }
  try {
    (void)strata::checked_size(strata::Index{2, -3}, "zeros");
  } catch (const strata::Error& e) {
    std::cout << "caught as strata::Error from '" << e.operation() << "': " << e.description()
              << "\n";
  }
}

/// Prints the values a view reads from the buffer 0, 1, 2, ... laid out row-major.
void show(const std::string& what, const strata::Dimensions& d) {
  std::cout << what << " " << d << "\n    reads [";
  bool first = true;
  strata::for_each_address(d, 0, d.size(), [&](strata::index_t a) {
    std::cout << (first ? "" : " ") << a;
    first = false;
  });
  std::cout << "]\n";
}

void dimensions() {
  section("layout: Dimensions, zero-copy views and addressing");
  using strata::all;
  using strata::Dimensions;
  using strata::Range;
  // A Dimensions maps an N-d index to an address in a linear buffer. Views change only the map.
  const Dimensions d{3, 4};
  show("3x4 row-major         ", d);
  show("transpose             ", d.transpose());
  show("select [1:, ::-2]     ", d.select({Range{1}, Range{{}, {}, -2}}));
  show("select [:, [3 0 0]]   ", d.select({all, std::vector<strata::index_t>{3, 0, 0}}));
  show("roll 1 along axis 1   ", d.rotate(1, 1));
  show("flip axis 0           ", d.reverse({0}));
  show("broadcast to [2 3 8]  ", d.broadcast({2, 3, 8}));
  show("reshape to [2 6]      ", d.reshape({2, 6}));

  // Views compose in any order; an index array of a rolled, tiled, flipped axis still works.
  const Dimensions chain =
      d.rotate({1, 0}).broadcast({3, 8}).reverse({1}).select({std::vector<strata::index_t>{2, 0}});
  show("roll, tile, flip, take", chain);

  // Addresses both ways: local_to_global finds every index that reads an address.
  const Dimensions b = d.broadcast({2, 3, 4});
  std::cout << "address 6 of the broadcast view is read by";
  for (const auto& g : b.local_to_global(6)) {
    std::cout << " " << strata::to_string(g);
  }
  std::cout << "\n";

  // reduced() coalesces axes that walk as one; the signature picks a compiled address kernel.
  const Dimensions crop({256, 256, 4}, {8192, 4, 1});
  std::cout << "a 256x256x4 crop of a 2048x2048x4 image " << crop << "\n  reduces to "
            << crop.reduced() << "\n  signature " << crop.reduced().signature()
            << ", native: " << crop.is_native()
            << ", unit last stride: " << crop.has_unit_last_stride() << "\n";
  std::vector<strata::index_t> linear{1020, 1021, 1022, 1023, 1024, 1025};
  std::vector<strata::index_t> addresses(linear.size());
  strata::gather_addresses(crop, linear, addresses);
  std::cout << "  linear 1020..1025 -> addresses " << strata::to_string(addresses) << "\n";

  // Bad input: a clear error, nothing changed.
  try {
    (void)Dimensions{2, 3, 4}.transpose({0, 0, 2});
  } catch (const strata::ShapeError& e) {
    std::cout << "ShapeError: " << e.what() << "\n";
  }
  try {
    (void)d.transpose().reshape({12});
  } catch (const strata::LayoutError& e) {
    std::cout << "LayoutError: " << e.what() << "\n";
  }
}

void tensors() {
  section("tensor: Tensor<T> over dense storage, views, copies and reductions");
  using strata::all;
  using strata::Range;
  using strata::Tensor;
  Tensor<float> t{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}};
  std::cout << "t =\n" << t << "\n";
  // Views share the buffer: writing through one changes t.
  Tensor<float> col = t.select({all, 1});
  col.assign(Tensor<float>::of({-1}));
  std::cout << "after t[:, 1] = -1:\n" << t << "\n";
  // `=` on a tensor only writes. With a tensor on the right a named view says which it means:
  // assign writes (NumPy's v[...] = u), rebind rebinds the handle (Python's v = u).
  Tensor<float> row = t.select({0});
  row.assign(t.select({2}));  // t[0] = t[2]
  row.rebind(row.reverse());  // row is now t[0, ::-1]; nothing is written
  std::cout << "after t[0] = t[2], row = t[0, ::-1] = " << row << "\n";
  // A block of a larger index space answers to that space's indices (as a distributed tile to
  // global ones): at_absolute takes them, t(i, j) and at() the block's own.
  const Tensor<const float> block = t.select({Range{1, 3}, Range{2, 4}}).with_origin({10, 20});
  std::cout << "block.at_absolute({11, 21}) = " << block.at_absolute({11, 21})
            << " = block(1, 1) = " << block(1, 1) << "\n";
  std::cout << "t[::-1, 1:3].T =\n"
            << t.select({Range{{}, {}, -1}, Range{1, 3}}).transpose() << "\n";
  // copy() is dense and row-major, through the fastest kernel for the pair of maps.
  // copy() and assign() pick the fastest kernel for the pair of maps after joint reduction.
  const strata::Dimensions image{1024, 1024};
  std::cout << "copy kernels: contiguous -> " << strata::select_copy_path(image, image)
            << ", crop -> "
            << strata::select_copy_path(strata::Dimensions{512, 512},
                                        image.select({Range{0, 512}, Range{0, 512}}))
            << ", transpose -> " << strata::select_copy_path(image, image.transpose())
            << ", roll -> " << strata::select_copy_path(image, image.rotate({1, 1})) << "\n";
  std::cout << "sum over axis 0: " << strata::sum(t, {0})
            << ", max over axis 1: " << strata::max(t, {1}) << "\n";
  // Diagonals are views too (writable, unlike NumPy's); trace sums one, as np.trace.
  Tensor<double> m = strata::iota<double>({3, 3}).copy();
  std::cout << "m.diagonal() = " << m.diagonal() << ", m.diagonal(1) = " << m.diagonal(1)
            << ", trace(m) = " << strata::trace(m);
  m.diagonal().fill(-1);  // np.fill_diagonal(m, -1)
  std::cout << "; after m.diagonal().fill(-1), m[1] = " << m.select({1}) << "\n";
  std::cout << "t + [[100] [200] [300]] =\n"
            << strata::zip_with(t, Tensor<float>::of({100, 200, 300}).unsqueeze(1), std::plus<>{})
            << "\n";
  // Wrapping memory the caller owns: no copy.
  std::vector<double> mine{1, 2, 3, 4, 5, 6};
  auto wrapped = Tensor<double>::wrap(mine.data(), {2, 3});
  wrapped.select({1}).fill(0);
  std::cout << "caller memory after filling row 1 of the wrapping tensor: "
            << strata::to_string(Tensor<double>::wrap(mine.data(), {6})) << "\n";
  try {
    t.broadcast({2, 3, 4}).fill(0);
  } catch (const strata::LayoutError& e) {
    std::cout << "LayoutError: " << e.what() << "\n";
  }
}

/// A buffer of the user's own: any type with size(), read() and (for writing) write().
struct DequeBuffer {
  using value_type = double;
  std::deque<double> values;
  [[nodiscard]] strata::index_t size() const { return static_cast<strata::index_t>(values.size()); }
  [[nodiscard]] double read(strata::index_t i) const { return values[static_cast<std::size_t>(i)]; }
  void write(strata::index_t i, double v) { values[static_cast<std::size_t>(i)] = v; }
};

void storage() {
  section("buffer: generated, sparse and user-defined storage");
  // Generators are computed from the address, never stored; every view agrees.
  const auto noise = strata::random<double>({2, 3}, 42);
  std::cout << "random({2, 3}, seed 42) =\n"
            << noise << "\nits transpose =\n"
            << noise.transpose() << "\n";
  std::cout << "iota({2, 4}) rolled by 1 =\n" << strata::iota<int>({2, 4}).rotate(1, 1) << "\n";
  std::cout << "zeros<double>({1000000000}) allocates nothing: size "
            << strata::zeros<double>({1'000'000'000}).size() << "\n";
  // Sparse: only what differs from the fill value is stored.
  auto s = strata::sparse<double>({1000, 1000});
  s(3, 4) = 2.5;
  s(999, 0) = -1;
  std::cout << "a 1000x1000 sparse tensor stores "
            << s.buffer().get<strata::SparseBuffer<double>>()->nnz() << " values; "
            << "its transpose reads them at";
  for (const auto& [g, v] : strata::nonzeros(s.transpose())) {
    std::cout << " " << strata::to_string(g) << "=" << v;
  }
  std::cout << "\n";
  // A user-defined buffer plugs in through AnyBuffer; every Tensor operation works on it.
  strata::Tensor<double> d(strata::AnyBuffer<double>(DequeBuffer{std::deque<double>(6, 1.5)}),
                           strata::Dimensions{2, 3});
  d(1, 2) = 4;
  std::cout << "a Tensor over a std::deque:\n"
            << d << "\nsum over axis 1: " << strata::sum(d, {1}) << "\n";
  // Reductions give the same bits for any thread count.
  const auto big = strata::random<float>({512, 512}, 7).copy();
  const float a = strata::reduce(strata::seq, big, 0.0F, std::plus<float>{});
  const float b = strata::reduce(strata::par, big, 0.0F, std::plus<float>{});
  std::cout << "sum of 512x512 random floats: seq " << a << ", par ("
            << strata::parallel::max_threads() << " threads) " << b
            << (a == b ? ": identical bits" : ": DIFFERENT") << "\n";
}

void projections() {
  section("projection: sharding a matmul and a convolution into blocks");
  using strata::Index;
  using strata::ZRange;
  // C[i, j] += A[i, k] * B[k, j] over the index space (i, j, k) = [8, 8, 16], in 4x4x8 blocks.
  const auto mm = strata::matmul_projections();
  const ZRange space({0, 0, 0}, {8, 8, 16});
  std::cout << "matmul index space " << space << " in blocks of [4 4 8]:\n";
  for (const ZRange& bi : space.split(0, 4)) {
    for (const ZRange& bj : bi.split(1, 4)) {
      for (const ZRange& block : bj.split(2, 8)) {
        std::cout << "  block " << block << " reads A" << mm.lhs.apply(block) << " B"
                  << mm.rhs.apply(block) << ", writes C" << mm.result.apply(block) << "\n";
      }
    }
  }
  const ZRange first({0, 0, 0}, {4, 4, 16});
  std::cout << "  neighbours along j share "
            << mm.lhs.apply(first).intersection(mm.lhs.apply(first.translate({0, 4, 0}))).size()
            << " cells of A (A's block is re-read), along i "
            << mm.lhs.apply(first).intersection(mm.lhs.apply(first.translate({4, 0, 0}))).size()
            << "\n";
  // A 3x3 convolution with padding 1 over a 6x6 image, output in 3x3 blocks.
  const auto window = strata::conv_window_projection({3, 3}, {1, 1}, {1, 1}, {1, 1});
  const ZRange out({0, 0}, {6, 6});
  std::cout << "3x3 convolution, padding 1, output " << out << " in blocks of [3 3]:\n";
  for (const ZRange& rows : out.split(0, 3)) {
    for (const ZRange& block : rows.split(1, 3)) {
      std::cout << "  output " << block << " reads input " << window.apply(block) << "\n";
    }
  }
  std::cout << "  neighbouring blocks share a halo of " << window.overlap(0, 3).shape()[0]
            << " rows (" << window.overlap(0, 3) << " for blocks at the origin)\n";
  // The first block's input, as a view of the image with zero padding outside it.
  const auto image = strata::iota<int>({6, 6});
  std::cout << "  its padded input window:\n"
            << strata::view(image, window.apply(ZRange({0, 0}, {3, 3})), strata::Bounds::pad, 0)
            << "\n";
  const strata::ZCost cost{9.0, {}};  // 9 multiply-adds per output point
  std::cout << "  estimated cost of one block: " << cost.estimate(ZRange({0, 0}, {3, 3}))
            << " multiply-adds\n";
}

void selections() {
  section("select: lazy concat, interleave, repeat, pad, where; explained and evaluated by blocks");
  using strata::Tensor;
  // Assemble a padded image from four shards without copying until asked.
  const auto shard = [](int base) {
    return strata::map(strata::iota<int>({2, 2}), [base](int x) { return base + x; });
  };
  const auto top = strata::concat<int>(1, {shard(0), shard(10)});
  const auto bottom = strata::concat<int>(1, {shard(20), shard(30)});
  const auto image = strata::concat<int>(0, {top, bottom});
  const auto padded = strata::pad(image, {{1, 1}, {1, 1}}, strata::PadMode::reflect);
  std::cout << padded.explain() << "evaluated block by block:\n" << padded.materialize() << "\n";
  // The dilated-convolution trick: interleave the outputs of two phases.
  const auto even = Tensor<int>::of({0, 2, 4, 6});
  const auto odd = Tensor<int>::of({1, 3, 5, 7});
  std::cout << "interleave(0, even, odd) = "
            << strata::interleave<int>(0, {even, odd}).materialize() << "\n";
  std::cout << "repeat([1 2], 3) = " << strata::repeat(Tensor<int>::of({1, 2}), 3, 0).materialize()
            << ", tile([1 2], [2]) = " << strata::tile(Tensor<int>::of({1, 2}), {2}).materialize()
            << "\n";
  std::cout
      << "pad([1 2 3], (5, 0), reflect) = "
      << strata::pad(Tensor<int>::of({1, 2, 3}), {{5, 0}}, strata::PadMode::reflect).materialize()
      << " (numpy.pad agrees, wide pads included)\n";
  const auto noisy = strata::random<double>({2, 4}, 3);
  std::cout << "where(noise > 0.5, noise, 0) =\n"
            << strata::where(strata::map(noisy, [](double x) { return x > 0.5 ? 1 : 0; }), noisy,
                             strata::zeros<double>({1}))
                   .materialize()
            << "\n";
  // Views of a selection stay lazy: a transpose is pushed into the sources.
  std::cout << "transpose of the padded image:\n" << padded.transpose().explain();
  // Cuts and rolls are pushed down too: rows 1..4 of the padded image, rolled by 1 along axis 0,
  // are a pad of a concat of cut tensors; nothing is evaluated twice.
  const auto cut = padded.select({strata::Range{1, 5}}).rotate(1, 0);
  std::cout << "padded[1:5] rolled by 1 along axis 0:\n"
            << cut.explain() << cut.materialize() << "\n";
}

}  // namespace

void shapes() {
  section("shape: smooth, jagged and nested shapes, one API, iteration with an origin");
  using strata::Index;
  using strata::Jagged;
  using strata::Nested;
  using strata::Shape;
  using strata::Smooth;
  auto print_indices = [](const std::string& what, const auto& range) {
    std::cout << what;
    for (const Index& i : range) {
      std::cout << " " << strata::to_string(i);
    }
    std::cout << "\n";
  };
  // A smooth shape is a hyper-rectangle; a slice of it keeps the indices it had (its origin).
  const Smooth image{4, 5};
  const auto box = image.slice({1, 2}, {3, 4});
  std::cout << image << " sliced [1:3, 2:4] -> " << box << "\n";
  print_indices("  indices()", box.indices());
  print_indices("  offsets()", box.offsets());

  // A jagged shape: rows of different lengths (here one is empty). Iteration walks the rows.
  const Jagged rows = Jagged::from_lengths({3, 0, 2, 4});
  std::cout << rows << ": rank " << rows.rank() << ", " << rows.size() << " elements\n";
  print_indices("  indices()", rows.indices());
  std::cout << "  row 3 is " << rows.row(3) << "; rows [2, 4) are " << rows.slice({2}, {4}) << "\n";
  // Random access: it + n is a binary search of the row starts, so OpenMP can split the range.
  std::cout << "  indices()[6] = " << strata::to_string(rows.indices()[6])
            << ", position([3 1]) = " << rows.position({3, 1}) << "\n";
  // Rows of lists (n * var * var) from each row's number of lists and each list's length: two
  // offset arrays, as awkward keeps them, not a shape per row.
  const Jagged events = Jagged::from_lists({2, 0, 1}, {3, 0, 2});
  std::cout << events << ": rank " << events.rank() << ", indices()";
  for (const Index& i : events.indices()) {
    std::cout << " " << strata::to_string(i);
  }
  std::cout << "\n";
  // The same shape from the two offset arrays awkward's ListOffsetArrays hold (moved in, checked).
  std::cout << "  from_offsets({0, 2, 2, 3}, {0, 3, 3, 5}) == events: "
            << (Jagged::from_offsets({0, 2, 2, 3}, {0, 3, 3, 5}) == events) << "\n";

  // A nested shape keeps layers apart: a 2x2 matrix of 3x3 matrices is rank 4 in 2 layers.
  const Nested blocks{Smooth{2, 2}, Smooth{3, 3}};
  std::cout << blocks << ": " << blocks.n_layers() << " layers, rank " << blocks.rank()
            << ", flatten() = " << blocks.flatten() << "\n";

  // Shape holds any of them; the same API works through it.
  for (const Shape& s : {Shape(image), Shape(rows), Shape(blocks), Shape(box)}) {
    std::cout << "  Shape holding " << s.kind() << ": size " << s.size() << ", first index "
              << strata::to_string(s.index_at(0)) << "\n";
  }

  // Combining shapes by mode labels, as numpy.einsum writes expressions.
  std::cout << "combine(\"ij,jk->ik\", [2 3], [3 5]) = "
            << strata::combine("ij,jk->ik", Smooth{2, 3}, Smooth{3, 5}) << "\n";
  std::cout << "combine(\"ij,k->ijk\", jagged rows, [2]) = "
            << strata::combine("ij,k->ijk", rows, Smooth{2}) << "\n";
  try {
    (void)strata::combine("ij->ji", rows);
  } catch (const strata::ShapeError& e) {
    std::cout << "ShapeError: " << e.what() << "\n";
  }
}

void layouts() {
  section("layout: logical vs physical, tiled storage, jagged storage");
  using strata::Index;
  using strata::Layout;
  using strata::Smooth;
  // A 5x7 matrix stored in 2x3 tiles: tiles one after another, each contiguous; edge tiles are
  // smaller, so the physical shape is a grid of tiles whose tile layer is jagged.
  const Layout tiled = Layout::tiled(Smooth{5, 7}, {2, 3});
  std::cout << tiled << "\n  physical shape " << tiled.physical() << "\n";
  std::cout << "  tile of each element    address of each element\n";
  const auto starts = tiled.piece_starts();
  for (strata::index_t i = 0; i < 5; ++i) {
    std::cout << "   ";
    for (strata::index_t j = 0; j < 7; ++j) {
      const strata::index_t a = tiled.address({i, j});
      std::cout << " " << std::upper_bound(starts.begin(), starts.end(), a) - starts.begin() - 1;
    }
    std::cout << "   ";
    for (strata::index_t j = 0; j < 7; ++j) {
      const strata::index_t a = tiled.address({i, j});
      std::cout << (a < 10 ? "  " : " ") << a;
    }
    std::cout << "\n";
  }
  // A tensor over the layout: logical indices in; each tile is an ordinary Tensor view.
  const auto dense = strata::iota<int>(Index{5, 7});
  auto stored = strata::LayoutTensor<int>::from_dense(dense, tiled);
  std::cout << "  at({4, 6}) = " << stored.at({4, 6}) << "; tile 5 covers "
            << stored.piece_region(5) << ":\n"
            << stored.piece(5) << "\n";
  stored.piece(4).fill(0);  // any Tensor operation works on a tile, in place
  std::cout << "  after zeroing tile 4, back to dense:\n" << stored.to_dense() << "\n";

  // Jagged storage: values + offsets (a ragged array); each row is a Tensor view.
  auto ragged = strata::JaggedTensor<float>::from_values(
      {1, 2, 3, 4, 5, 6}, strata::Jagged::from_lengths({3, 0, 1, 2}));
  std::cout << "jagged tensor over " << ragged.shape() << ": values " << ragged.values()
            << ", offsets " << strata::to_string(ragged.offsets()) << "\n";
  std::vector<float> row_sums(4);
  ragged.for_each_row(strata::par, [&](strata::index_t r, std::span<const float> v) {
    row_sums[static_cast<std::size_t>(r)] = std::accumulate(v.begin(), v.end(), 0.0F);
  });
  std::cout << "  row sums";
  for (const float s : row_sums) {
    std::cout << " " << s;
  }
  std::cout << "\n  row 3 as a Tensor: " << ragged.piece(3) << "; padded to dense with -1:\n"
            << ragged.to_dense(-1.0F) << "\n";
}

/// A function that only reads: a const tensor gives read-only views.
float first_row_sum(const strata::Tensor<float>& t) {
  const strata::Tensor<const float> row = t.select({0});  // `row.fill(0)` would not compile
  return strata::sum(row, {0})();
}

void iteration() {
  section("iteration: absolute and relative indices, one parallel loop for everything");
  // A slice knows where it sits in its tensor: t[1:5, ::-2] starts at [1 4] and steps [1 -2].
  strata::Tensor<float> t(strata::Index{6, 5});
  auto v = t.select({strata::Range{1, 5}, strata::Range{{}, {}, -2}});
  std::cout << "t[1:5, ::-2]: origin " << strata::to_string(v.origin()) << ", steps "
            << strata::to_string(v.steps()) << "\n";
  // Fill it with a function of the parent's (absolute) indices, in parallel...
  strata::for_each_indexed(strata::par, v, [](strata::index_t i, strata::index_t j, float& x) {
    x = static_cast<float>(10 * i + j);
  });
  std::cout << "t after filling the slice with 10 i + j (absolute i, j):\n" << t << "\n";
  // ... or of its own (relative) indices.
  std::cout << "the slice's relative indices:";
  strata::for_each_indexed(strata::seq, v, strata::relative,
                           [](strata::index_t i, strata::index_t j, const float& x) {
                             if (i == 0) {
                               std::cout << " [" << i << " " << j << "]=" << x;
                             }
                           });
  std::cout << " ...\n";
  // The same loop walks shapes, jagged tensors (a slice of rows keeps its row numbers) and
  // tiled tensors (by logical index, tile by tile).
  strata::JaggedTensor<float> ragged(strata::Jagged::from_lengths({2, 0, 3, 1}));
  strata::for_each_indexed(
      strata::par, ragged.rows(2, 4),
      [](strata::index_t r, strata::index_t k, float& x) { x = static_cast<float>(100 * r + k); });
  std::cout << "rows 2..3 of a jagged tensor filled with 100 r + k: row 2 = [";
  for (const float x : ragged.row(2)) {
    std::cout << " " << x;
  }
  std::cout << " ], row 3 = [ " << ragged.row(3)[0] << " ]\n";
  auto tiled = strata::LayoutTensor<int>(strata::Layout::tiled(strata::Smooth{4, 5}, {2, 2}));
  strata::for_each_indexed(strata::par, tiled, [](strata::index_t i, strata::index_t j, int& x) {
    x = static_cast<int>(10 * i + j);
  });
  std::cout << "a 2x2-tiled 4x5 tensor filled by logical index:\n"
            << tiled.to_dense()
            << "\nits tile {1, 2}, whose origin is [2 4]: " << tiled.piece(strata::Index{1, 2})
            << "\n";
  // A function of the index as a lazy tensor (np.fromfunction), and pointer hand-off.
  const auto hilbert = strata::generate<double>(
      {3, 3}, [](strata::index_t i, strata::index_t j) { return 1.0 / double(i + j + 1); });
  std::cout << "generate(1 / (i + j + 1)):\n" << hilbert << "\n";
  std::cout << "v.data() + strides for pointer code: strides " << strata::to_string(v.strides())
            << ", offset " << v.offset() << "\n";
  // A loop of your own: v(i, j) reads and writes at the pointer loop's speed on an array; a
  // loop the compiler should vectorise takes the view's span (std::mdspan-like, rank fixed at
  // compile time, no other path).
  const strata::Index extents = v.shape();
  for (strata::index_t i = 0; i < extents[0]; ++i) {
    for (strata::index_t j = 0; j < extents[1]; ++j) {
      v(i, j) += 0.5F;
    }
  }
  const strata::StridedSpan<float, 2> s = v.span<2>();
  for (strata::index_t i = 0; i < s.extent(0); ++i) {
    for (strata::index_t j = 0; j < s.extent(1); ++j) {
      s(i, j) *= -1.0F;
    }
  }
  std::cout << "the slice plus 0.5 through v(i, j), then negated through v.span<2>() (extents ["
            << s.extent(0) << " " << s.extent(1) << "], strides [" << s.stride(0) << " "
            << s.stride(1) << "]):\n"
            << t << "\n";
}

void expressions() {
  section("expressions: arithmetic on views, lazy and fused, written as in NumPy");
  using strata::Range;
  using strata::Tensor;
  // The 2-D heat equation, NumPy's
  //   v[1:-1, 1:-1] = u[1:-1, 1:-1] + a * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2]
  //                                        + u[1:-1, 2:] - 4 * u[1:-1, 1:-1])
  // on a 6x6 grid with a hot spot, borders held at 0 (Dirichlet). Each step is one pass over
  // the interior: no temporary per operator.
  Tensor<double> u({6, 6});
  u.select({Range{2, 4}, Range{2, 4}}) = 1.0;
  Tensor<double> v = u.copy();
  const Range mid{1, -1};
  const double a = 0.1;
  for (int step = 0; step < 10; ++step) {
    const auto c = u.select({mid, mid});
    v.select({mid, mid}) =
        c + a * (u.select({Range{0, -2}, mid}) + u.select({Range{2}, mid}) +
                 u.select({mid, Range{0, -2}}) + u.select({mid, Range{2}}) - 4 * c);
    swap(u, v);  // exchanges the handles: u is the new grid (no element moves)
  }
  std::cout << "after 10 Dirichlet steps (heat leaves through the border), total " << strata::sum(u)
            << ":\n"
            << u << "\n";
  // Periodic boundaries with rolls of the whole grid: the total heat is conserved.
  Tensor<double> p({6, 6});
  p.select({Range{2, 4}, Range{2, 4}}) = 1.0;
  for (int step = 0; step < 10; ++step) {
    p = p + a * (p.rotate(1, 0) + p.rotate(-1, 0) + p.rotate(1, 1) + p.rotate(-1, 1) - 4 * p);
  }
  std::cout << "after 10 periodic steps, total " << strata::sum(p) << ", hottest " << strata::max(p)
            << ", largest change from the Dirichlet run " << strata::max(strata::abs(p - u))
            << "\n";
  // An expression is a small tree until it is assigned; explain() shows it.
  const auto x = Tensor<float>::of({-2, -1, 0, 1, 2});
  const auto leaky = strata::where(x > 0, x, 0.1F * x);
  std::cout << "where(x > 0, x, 0.1 * x) is lazy:\n"
            << strata::explain(leaky) << "printed: " << leaky << "\n";
  // Types: C++'s arithmetic, but a scalar does not widen a tensor (0.25 * float stays float);
  // integer division by zero is defined (0), never undefined behaviour.
  const auto ints = Tensor<int>::of({7, -7, 9});
  std::cout << "ints / 2 = " << strata::evaluate(ints / 2)
            << ", ints % 4 = " << strata::evaluate(ints % 4)
            << ", ints / 0 = " << strata::evaluate(ints / 0)
            << ", ints * 0.5 = " << strata::evaluate(ints * 0.5) << "\n";
  // Assignment as NumPy: an overlapping source is read before anything is written.
  auto w = Tensor<int>::of({1, 2, 3, 4, 5});
  w.select({Range{1}}) = w.select({Range{0, -1}}) * 10;
  std::cout << "w[1:] = w[:-1] * 10 gives " << w << " (as NumPy)\n";
  // Reductions take expressions, all axes or one.
  const Tensor<double> m{{1, 2, 3}, {4, 5, 6}};
  std::cout << "sum(m * m) = " << strata::sum(m * m) << ", sum(m, 0) = " << strata::sum(m, 0)
            << ", max(m - 3.5, axis 1, keepdims) has shape "
            << strata::to_string(strata::max(m - 3.5, 1, true).shape()) << ":\n"
            << strata::max(m - 3.5, 1, true) << "\n";
  // NumPy's masks, functions and reductions, with NumPy's types: a mask counts, bool and narrow
  // integers sum in 64 bits, var/std take ddof, argmax finds the first extreme, and every one
  // runs in one pass over its expression.
  const auto r = Tensor<double>::of({0.5, -1.5, NAN, 2.5, 4.0, -0.25});
  const auto valid = strata::isfinite(r) & (r > 0);
  std::cout << "r = " << r << "\n  count of (isfinite(r) & (r > 0)) = " << strata::sum(valid)
            << " (an int64 count), any(r > 3) = " << std::boolalpha << strata::any(r > 3)
            << ", all(isfinite(r)) = " << strata::all(strata::isfinite(r))
            << "\n  (r > 0) + 1 = " << ((r > 0) + 1) << ", round(r) = " << strata::round(r)
            << " (halves to even), nan_to_num(r) = " << strata::nan_to_num(r)
            << "\n  nanmean(r) = " << strata::nanmean(r) << ", nanmax(r) = " << strata::nanmax(r)
            << ", max(r) = " << strata::max(r)
            << " (NaN propagates), argmax(r) = " << strata::argmax(r)
            << " (the first NaN, as NumPy)\n";
  const Tensor<int> grades{{3, 5, 4}, {2, 2, 5}};
  std::cout << "grades = " << grades << "\n  mean(grades, 1) = " << strata::mean(grades, 1)
            << ", var(grades, 1, Ddof{1}) = " << strata::var(grades, 1, strata::Ddof{1})
            << ", argmax(grades, 1) = " << strata::argmax(grades, 1)
            << ", cumsum(grades, 1) = " << strata::cumsum(grades, 1)
            << "\n  clip(grades, 2.5, 4.5) = " << strata::clip(grades, 2.5, 4.5)
            << " (a double scalar widens ints), floor_divide(grades - 4, 2) = "
            << strata::floor_divide(grades - 4, 2)
            << ", mod(grades - 4, 3) = " << strata::mod(grades - 4, 3) << " (Python's signs)\n";
  // A tensor is a range of its elements.
  std::cout << "range-for over m.transpose():";
  for (const double e : m.transpose()) {
    std::cout << " " << e;
  }
  std::cout << "\n";
  // Shapes that do not broadcast: an error naming the operator and both shapes; nothing written.
  try {
    Tensor<double> target({2, 3});
    target = m + Tensor<double>::of({1, 2});
  } catch (const strata::BroadcastError& e) {
    std::cout << "BroadcastError: " << e.what() << "\n";
  }
}

void contractions() {
  section(
      "contract: einsum and labelled products, ordered by flops, on BLIS with the views' strides");
  using strata::Tensor;
  const Tensor<double> a{{1, 2, 3}, {4, 5, 6}};
  const Tensor<double> b{{1, 0}, {0, 1}, {1, 1}};
  // NumPy's einsum: a matrix product, a trace, a diagonal, an outer product, a batch.
  std::cout << "einsum(\"ij,jk->ik\", a, b) =\n" << strata::einsum("ij,jk->ik", a, b) << "\n";
  const Tensor<double> m{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  std::cout << "trace einsum(\"ii\", m) = " << strata::einsum("ii", m)
            << ", diagonal einsum(\"ii->i\", m) = " << strata::einsum("ii->i", m)
            << ", outer einsum(\"i,j\") = "
            << strata::einsum("i,j", Tensor<double>::of({1, 2}), Tensor<double>::of({1, 10}))
            << "\n";
  // Strided views go to BLIS as they are: a flipped, transposed operand is not copied.
  const auto flipped = a.reverse({1}).transpose();  // 3 x 2, strides [-1 3]
  std::cout << "a.reverse({1}).transpose() (strides " << strata::to_string(flipped.dims().strides())
            << ") contracted with b.T: einsum(\"ji,kj->ik\") =\n"
            << strata::einsum("ji,kj->ik", flipped, b.transpose()) << "\n";
  // NumPy's named products, each an einsum it spells: matmul (a @ b, batches broadcast, a
  // vector a row or a column), dot, inner, vdot, outer, kron, tensordot.
  const Tensor<double> v = Tensor<double>::of({1, 2, 3});
  const Tensor<double> stack{{{1, 0}, {0, 1}}, {{2, 0}, {0, 2}}};  // two 2 x 2 matrices
  std::cout << "matmul(a, b) = " << strata::matmul(a, b)
            << ", matmul(a, v) = " << strata::matmul(a, v)
            << ", matmul(v, b) = " << strata::matmul(v, b)
            << "\nmatmul(stack, a) (a batch of 2) =\n"
            << strata::matmul(stack, a) << "\ndot(v, v) = " << strata::dot(v, v)
            << ", inner(a, a) = " << strata::inner(a, a) << ", vdot(a, b) = " << strata::vdot(a, b)
            << " (b read as 6 elements)\nouter(v, [1 10]) = "
            << strata::outer(v, Tensor<double>::of({1, 10})) << "\nkron(I2, [[1 2]]) = "
            << strata::kron(Tensor<double>{{1, 0}, {0, 1}}, Tensor<double>{{1, 2}})
            << "\ntensordot(stack, stack, 2) (the last two axes of one with the first two of the "
               "other) =\n"
            << strata::tensordot(stack, stack, 2) << "\n";
  // Complex numbers (NumPy's complex128 and complex64) in expressions and contractions
  // (BLIS's zgemm); vdot conjugates its first operand, as NumPy's does.
  using Z = std::complex<double>;
  const Tensor<Z> z = Tensor<Z>::of({Z(1, 2), Z(0, 3)});
  const auto rotate = Tensor<Z>::from_vector({Z(0, 1), Z(0), Z(0), Z(0, -1)}, {2, 2});
  std::cout << "z = " << z << ", z * 1j + 1 = " << strata::evaluate(z * Z(0, 1) + 1.0)
            << ", abs(z) = " << strata::evaluate(strata::abs(z))
            << ", conj(z) = " << strata::evaluate(strata::conj(z))
            << "\neinsum(\"ij,j->i\", [[1j 0] [0 -1j]], z) = "
            << strata::einsum("ij,j->i", rotate, z) << ", vdot(z, z) = " << strata::vdot(z, z)
            << "\n";
  // Complex alpha and beta, as zgemm's: w = 1j * (rotate z) + 2 w.
  Tensor<Z> zw = Tensor<Z>::of({Z(1), Z(1)});
  strata::einsum_into(zw, strata::Scaling{Z(0, 1), 2.0}, "ij,j->i", rotate, z);
  std::cout << "einsum_into(w = [1 1], Scaling{1j, 2}, \"ij,j->i\", rotate, z) = " << zw << "\n";
  // One element computes as the std::complex it holds: a loop reads and writes them.
  zw(1) = zw(0) * zw(1) + 1.0;
  std::cout << "zw(1) = zw(0) * zw(1) + 1.0: zw = " << zw << "\n";
  // The parts are views over the same memory, as NumPy's z.real and z.imag: writable, and a
  // write that reads the other part (the same memory) reads from a copy first.
  zw.imag() *= -1.0;               // the conjugate, in place
  zw.real() = strata::imag(zw.reverse({0}));  // NumPy: zw.real = zw.imag[::-1]
  std::cout << "zw.imag() *= -1; zw.real() = imag(zw.reverse({0})): zw = " << zw
            << ", zw.real() strides " << strata::to_string(zw.real().strides()) << "\n";
  // NumPy's out=: into an existing tensor (no allocation in a loop), with BLAS's alpha, beta.
  Tensor<double> into({2, 2});
  strata::matmul_into(into, a, b);
  strata::matmul_into(into, a, b, strata::Scaling{0.5, 1.0});  // into += 0.5 a @ b
  std::cout << "matmul_into(c, a, b) then matmul_into(c, a, b, Scaling{0.5, 1}) = " << into << "\n";
  // Three or more operands: the cheapest order, explained.
  const Tensor<double> c{{1, 2}, {3, 4}};
  std::cout << strata::einsum_plan("ij,jk,kl->il", a, b, c).explain();
  // The labelled form (TensorWrapper, TiledArray), with BLAS's beta.
  Tensor<double> d({2, 2});
  d("i,k") = a("i,j") * b("j,k");
  d("i,k") += 0.5 * a("i,j") * b("j,k");
  std::cout
      << "d(\"i,k\") = a(\"i,j\") * b(\"j,k\"); d(\"i,k\") += 0.5 * a(\"i,j\") * b(\"j,k\"):\n"
      << d << "\n";
  // Tiled tensors contract tile by tile: one GEMM per triple of tiles, tiles handed over as
  // views, the result's tiles in parallel; the result is tiled like its operands.
  const Tensor<double> big = strata::iota<double>({5, 6}).copy();
  const auto ta = strata::LayoutTensor<double>::from_dense(
      big, strata::Layout::tiled(strata::Smooth{5, 6}, {2, 4}));
  const auto tb = strata::LayoutTensor<double>::from_dense(
      Tensor<double>(big.transpose().copy()), strata::Layout::tiled(strata::Smooth{6, 5}, {3, 2}));
  const strata::LayoutTensor<double> tc = strata::einsum("ij,jk->ik", ta, tb);
  std::cout << "tiled einsum(\"ij,jk->ik\") of " << ta.layout() << " and " << tb.layout() << " -> "
            << tc.layout() << ", equal to the dense product: " << std::boolalpha
            << (tc.to_dense().to_vector() ==
                strata::einsum("ij,jk->ik", big, big.transpose()).to_vector())
            << "\n";
  // TiledArray's spelling on tiled tensors: the same tile-by-tile product, written by names
  // into an existing tiled tensor (here with a permuted tiled term added).
  strata::LayoutTensor<double> td(strata::Layout::tiled(strata::Smooth{5, 5}, {2, 2}));
  td("i,k") = ta("i,j") * tb("j,k") + tc("k,i");
  std::cout << "td(\"i,k\") = ta(\"i,j\") * tb(\"j,k\") + tc(\"k,i\") (" << td.layout()
            << "): equal to 2 a a^T: "
            << (td.to_dense().to_vector() ==
                strata::einsum("ij,jk->ik", 2.0 * big, big.transpose()).to_vector())
            << "\n";
  // Block-sparse tensors store only their non-zero tiles; a contraction skips every product
  // with a missing tile (and, with a threshold, every product whose norm bound is under it).
  Tensor<double> banded({8, 8});
  for (strata::index_t i = 0; i < 8; ++i) {
    for (strata::index_t j = std::max<strata::index_t>(i - 1, 0);
         j < std::min<strata::index_t>(i + 2, 8); ++j) {
      banded(i, j) = static_cast<double>(1 + i + j);
    }
  }
  const auto sparse = strata::BlockSparseTensor<double>::from_dense(
      banded, strata::Layout::tiled(strata::Smooth{8, 8}, {2, 2}));
  const strata::BlockSparseTensor<double> squared = strata::einsum("ij,jk->ik", sparse, sparse);
  std::cout << "a tridiagonal 8 x 8 in 2 x 2 tiles stores " << sparse.n_stored() << " of "
            << sparse.n_tiles() << " tiles (density " << sparse.density() << "); its square stores "
            << squared.n_stored() << ", equal to the dense product: "
            << (squared.to_dense().to_vector() ==
                strata::einsum("ij,jk->ik", banded, banded).to_vector())
            << "\n";
  // Jagged tensors contract row by row: the outer axis carries the batch label, each row its
  // own length (a ragged mode); one parallel loop of small GEMMs.
  const auto sequences = strata::JaggedTensor<double>::from_values(
      {1, 2, 3, 4, 5, 6}, strata::Jagged::from_extents(strata::Index{3}, 2, {2, 2, 1, 2, 0, 2}));
  const Tensor<double> w{{1, 1, 0}, {0, 2, 1}};
  std::cout << "rows of " << sequences.type_string() << " times a 2 x 3: einsum(\"bij,jk->bik\") = "
            << strata::einsum("bij,jk->bik", sequences, w) << "\n";
  Tensor<double> gram({2, 2});
  strata::einsum_into(gram, "bij,bik->jk", sequences, sequences);  // summed over the rows
  std::cout << "the Gram matrix of every row's vectors, einsum_into(\"bij,bik->jk\") =\n"
            << gram << "\n";
  try {
    (void)strata::einsum("ij,jk->ik", a, a);
  } catch (const strata::ShapeError& e) {
    std::cout << "ShapeError: " << e.what() << "\n";
  }
}

void jagged() {
  section("jagged: ragged rows as first-class tensors (build, slice, reduce, compute, print)");
  using strata::JaggedTensor;
  using strata::Tensor;
  // Sequences of different lengths, straight from nested vectors.
  const std::vector<std::vector<float>> sequences{{1, 2, 3}, {}, {4, 5}, {6}, {7, 8, 9, 10}};
  JaggedTensor scores(sequences);  // JaggedTensor<float>
  std::cout << scores.type_string() << "\n" << scores << "\n";
  // values + offsets: Arrow's / awkward's ListOffsetArray, handed out without a copy.
  std::cout << "offsets (int64, rows + 1):";
  for (const std::int64_t o : scores.offsets()) {
    std::cout << " " << o;
  }
  std::cout << "; values: " << scores.values() << "\n";
  // Starts + stops (Arrow's / awkward's ListArray) over the same values: slicing every row and
  // choosing rows move starts and stops only, no value is copied; to_jagged() packs them.
  const strata::ListArray<float> lists(scores);
  const strata::ListArray<float> tails = lists.slice_each(1, {}).take_rows({4, 0, 0});
  std::cout << "ListArray [:, 1:] of rows 4, 0, 0: " << tails << " (starts "
            << strata::to_string(tails.starts()) << ", stops " << strata::to_string(tails.stops())
            << ", the values shared: " << std::boolalpha << (tails.values().data() == scores.data())
            << "); packed: " << tails.to_jagged() << "\n";
  // Other ways in: lengths of any integer type + values, a padded tensor + lengths or a mask.
  const auto from_lengths =
      JaggedTensor<double>::from_lengths(std::vector<int>{2, 0, 1}, {0.5, 1.5, 2.5});
  const Tensor<int> padded{{1, 2, 0}, {3, 0, 0}};
  std::cout << "from lengths: " << from_lengths
            << "; from padded + lengths: " << JaggedTensor<int>::from_padded(padded, {2, 1})
            << "; back to padded (-1):\n"
            << scores.to_padded(-1.0F) << "\n";
  // Rows and row slices (which keep their absolute row numbers), the same slice of each row.
  std::cout << "row 2: " << scores.row(2).size() << " values; rows [2, 5) " << scores.rows(2, 5)
            << " start at row " << scores.rows(2, 5).first_row() << "\n";
  std::cout << "first 2 of each row: " << scores.first(2)
            << "; reversed: " << scores.select_each(strata::Range{{}, {}, -1}) << "\n";
  // Per-row reductions along the ragged axis give dense tensors over the rows.
  std::cout << "sum " << strata::sum(scores, 1) << ", mean " << strata::mean(scores, 1)
            << ", argmax " << strata::argmax(scores, 1) << " (empty rows: 0, nan, -1)\n";
  std::cout << "std " << strata::std(scores, 1) << ", ptp " << strata::ptp(scores, 1) << ", count "
            << strata::count(scores, 1) << ", all > 0 " << strata::all(scores > 0.0F, 1) << "\n";
  // The same skipping NaN (awkward's nansum ... nanargmax): a missing measurement left out.
  const JaggedTensor<double> measured(
      std::vector<std::vector<double>>{{1.0, std::nan(""), 3.0}, {std::nan("")}, {-2.0, 4.0}});
  std::cout << "nansum " << strata::nansum(measured, 1) << ", nanmean "
            << strata::nanmean(measured, 1) << ", nanargmax " << strata::nanargmax(measured, 1)
            << " (a row of NaN: 0, nan, -1)"
            << "; max from 0: " << strata::max(scores, 1, strata::Initial{0.0F}) << "\n";
  // Weighted means (np.average, awkward's mean with weight=): one weight per value.
  const JaggedTensor<double> hits(std::vector<std::vector<double>>{{1.0, 2.0, 4.0}, {}, {5.0}});
  const JaggedTensor<double> weights(std::vector<std::vector<double>>{{1.0, 1.0, 2.0}, {}, {3.0}});
  std::cout << "average(hits, 1, weights) " << strata::average(hits, 1, weights)
            << " (an empty row: 0 / 0), weighted std " << strata::std(hits, 1, weights)
            << " (awkward's std with weight=)\n";
  // Missing values (awkward's option type): None where a row has nothing, instead of the
  // identity, then filled, dropped or padded to a regular block.
  std::cout << "max(scores, 1, mask_identity) " << strata::max(scores, 1, strata::mask_identity)
            << ", firsts " << strata::firsts(scores) << ", lasts filled with 0 "
            << strata::fill_none(strata::lasts(scores), 0.0F)
            << "\npad_none(scores, 2): " << strata::pad_none(scores, 2)
            << "; clipped to 2, regular:\n"
            << strata::pad_none(scores, 2, strata::Clip{}) << "\n";
  // Rows of lists: None for every empty list (awkward's mask_identity and firsts at axis=-1).
  const JaggedTensor<double> tracks(
      std::vector<std::vector<std::vector<double>>>{{{1.5, 0.5}, {}}, {{2.5}}, {}});
  std::cout << "max(tracks, ListAxis{-1}, mask_identity) "
            << strata::max(tracks, strata::ListAxis{-1}, strata::mask_identity) << ", firsts "
            << strata::firsts(tracks, strata::ListAxis{-1}) << "\n";
  // None propagates through arithmetic and comparisons, as in awkward (and NumPy's masked arrays).
  const auto best = strata::max(scores, 1, strata::mask_identity);
  std::cout << "best * 2 + firsts " << best * 2.0F + strata::firsts(scores) << ", firsts < lasts "
            << (strata::firsts(scores) < strata::lasts(scores)) << ", pad_none(scores, 2) - best "
            << strata::pad_none(scores, 2) - best << "\n";
  // Indexing each row as awkward does: a ragged mask keeps what it marks, a ragged or regular
  // integer index picks (negative from the row's end).
  std::cout << "filter_each(scores, scores > 4): " << strata::filter_each(scores, scores > 4.0F)
            << "; take_each(first and last): "
            << strata::take_each(scores.rows(2, 5), Tensor<int>{{0, -1}, {0, -1}, {0, -1}}) << "\n";
  // Rows chosen along the outer axis, each element's place in its row, the counts per row.
  const Tensor<bool> long_rows = strata::num(scores, 1) > std::int64_t{1};
  std::cout << "take_rows(scores, {4, 0}): " << strata::take_rows(scores, {4, 0})
            << "; filter_rows(longer than 1): " << strata::filter_rows(scores, long_rows)
            << "; local_index: " << strata::local_index(scores.rows(2, 5)) << "\n";
  // Joining, reshaping, reordering (strata/select/jagged_join.hpp): rows after rows or row by
  // row, the values as a view, lists grouped as a view, each row sorted.
  const JaggedTensor<float> more(std::vector<std::vector<float>>{{0}, {1}, {}, {}, {2, 3}});
  std::cout << "concat(1, {scores, more}): " << strata::concat(1, {scores, more})
            << "\nconcat(0, ...) has " << strata::concat(0, {scores, more}).shape().n_rows()
            << " rows; unflatten(scores, {2, 3}): " << strata::unflatten(scores, {2, 3})
            << "; sorted descending: " << strata::sort(scores, false) << "\n";
  // Pairs per row, unzipped into one tensor per member (awkward's combinations then unzip):
  // the sums of every distinct pair in each row.
  const auto [first, second] = strata::combinations<2>(scores);
  std::cout << "combinations<2>: sums of pairs " << JaggedTensor<float>(first + second)
            << "; rows of one length as a dense view: "
            << strata::to_regular(scores.rows(3, 4)).shape()[1] << " column(s)\n";
  // Every ordered pair per row, the values as one view, records per element, sort positions.
  const auto [left, right] = strata::cartesian(scores.rows(0, 2), more.rows(0, 2));
  const auto records = strata::zip(scores, strata::local_index(scores));
  std::cout << "cartesian: " << left << " with " << right
            << "; flatten: " << strata::flatten(scores).size()
            << " values; zip: row 4 element 1 is (" << std::get<0>(records.row(4)[1]) << ", "
            << std::get<1>(records.row(4)[1])
            << "); argsort descending: " << strata::argsort(scores, false) << "\n";
  // Along the outer axis (awkward's axis=0): element k of every row that has one.
  std::cout << "along axis 0: sum " << strata::sum(scores, 0) << ", count "
            << strata::count(scores, 0) << ", argmax (the row) " << strata::argmax(scores, 0)
            << "\n";
  // Arithmetic as in the expressions section: a dense tensor over the rows broadcasts along
  // each row. Mean subtraction, then a softmax in two passes (max, then exp and normalise).
  JaggedTensor<float> centred = scores - strata::mean(scores, 1);
  JaggedTensor<float> softmax = strata::exp(centred - strata::max(centred, 1));
  softmax /= strata::sum(softmax, 1);
  std::cout << "centred: " << centred << "\nsoftmax: " << softmax << "\n";
  // A dense operand with one more axis is a regular axis (awkward's RegularArray): it meets
  // rows that all have its length, element by element.
  const JaggedTensor<float> pairs(std::vector<std::vector<float>>{{1, 2}, {3, 4}, {5, 6}});
  const Tensor<float> regular{{1, 0}, {0, 1}, {2, 2}};
  std::cout << pairs << " * " << regular << " (regular) = " << JaggedTensor<float>(pairs * regular)
            << "\n";
  // Against rows of lists the regular axis meets the lists: value i of row r applies to the
  // whole list i of row r (every row has as many lists as the axis is long).
  const JaggedTensor<float> two_lists(
      std::vector<std::vector<std::vector<float>>>{{{1, 2}, {3}}, {{4, 5, 6}, {7}}});
  const Tensor<float> list_weights{{10, 20}, {30, 40}};
  std::cout << two_lists << " + " << list_weights
            << " (one value per list) = " << JaggedTensor<float>(two_lists + list_weights) << "\n";
  // The same with the reductions inside the expressions (strata::rows): each row is reduced
  // while the statement walks it, so each statement is one parallel pass, as the hand loop.
  JaggedTensor<float> fused = strata::exp(scores - strata::rows::max(scores));
  fused /= strata::rows::sum(fused);
  std::cout << "softmax with rows::max / rows::sum: " << fused << "\nstandardised rows: "
            << JaggedTensor<float>((scores - strata::rows::mean(scores)) /
                                   strata::rows::std(scores))
            << "\n";
  // Rows that are jagged themselves (two ragged modes).
  const std::vector<std::vector<std::vector<int>>> nested{{{1, 2}, {3}}, {}, {{4, 5, 6}}};
  const JaggedTensor cells(nested);
  std::cout << cells.type_string() << ": " << cells << ", per-row sums "
            << strata::sum(cells, {1, 2}) << ", per-row max from 0 (an axes list, Initial) "
            << strata::max(cells, strata::Index{1, 2}, strata::Initial{0})
            << ", without each row's first list (awkward's [:, 1:]) "
            << cells.select_each(strata::Range{1, {}}) << "\n";
  // Reductions that stop inside the rows give jagged results: along each list (awkward's
  // axis=-1), or across the lists of each row, element k of every list that has one (axis=-2).
  std::cout << "sum along each list " << strata::sum(cells, strata::ListAxis{-1})
            << ", across the lists " << strata::sum(cells, strata::ListAxis{-2})
            << ", argmax across (the list) " << strata::argmax(cells, strata::ListAxis{-2}) << "\n";
  // Across the rows (axis=0): list i of every row, element by element; and list i itself.
  const Tensor<bool> has_lists = strata::num(cells, 1) > strata::index_t{0};
  std::cout << "sum across the rows " << strata::sum(cells, strata::ListAxis{0})
            << ", each list's length " << strata::num(cells, strata::ListAxis{-1})
            << ", the last list of each row with one (awkward's [:, -1]) "
            << strata::filter_rows(cells, has_lists).chip_each(-1) << "\n";
  // Views across both ragged levels (ListArray of depth 2): the lists of each row reversed,
  // chosen or filtered, every list sliced, only starts and stops rewritten, no value copied
  // (awkward copies for these; PyTorch's nested tensors have one ragged axis).
  const strata::ListArray<int> events(cells);
  const strata::ListArray<int> last_first = events.reverse_each();
  const strata::ListArray<int> list_tails = events.slice_each(1, {}, 2);
  const strata::ListArray<int> picked =
      events.take_each(JaggedTensor<int>(std::vector<std::vector<int>>{{-1, 0}, {}, {0}}));
  std::cout << events.type_string() << " views: [:, ::-1] " << last_first << ", [:, :, 1:] "
            << list_tails << ", [[-1, 0], [], [0]] " << picked << ", [[0, 2], -1] "
            << events.take_rows({0, 2}).chip_each(-1) << ", the values shared: " << std::boolalpha
            << (last_first.values().data() == cells.data() &&
                picked.values().data() == cells.data())
            << ", packed: " << picked.to_jagged().type_string() << "\n";
  // The same choices on the JaggedTensor, at the depth of the index or mask: a n * var one
  // picks or keeps whole lists (the jets of n * var * 4 that pass a cut on one value per jet),
  // one of the rows' own structure picks or keeps inside each list (awkward's array[mask]).
  const JaggedTensor<double> jets(std::vector<std::vector<std::vector<double>>>{
      {{10, 0.1, 0.2, 12}, {40, 0.3, -0.4, 45}, {35, -1.0, 1.0, 60}}, {}, {{50, 0.0, 0.0, 50}}});
  const JaggedTensor<double> jet_pt(std::vector<std::vector<double>>{{10, 40, 35}, {}, {50}});
  std::cout << "jets " << jets.type_string() << ", those with pt > 30 "
            << strata::filter_each(jets, jet_pt > 30.0) << ", by falling pt "
            << strata::take_each(jets, strata::argsort(jet_pt, false))
            << ", each jet's first number (awkward's jets[:, :, 0]) "
            << strata::chip_each(jets, 0, 2) << "; cells[cells > 2] "
            << strata::filter_each(cells, cells > 2) << ", each list sorted by its argsort "
            << strata::take_each(cells, strata::argsort(cells, false)) << "\n";
  // flatten and unflatten at any axis (awkward's ak.flatten / ak.unflatten), views too: every
  // list a row, each row's lists joined, each list split in two levels deeper and back.
  const JaggedTensor<int> halves(std::vector<std::vector<int>>{{1, 1}, {0, 1}, {2, 1}});
  const strata::ListArray<int> split_lists = events.unflatten(halves, 2);
  std::cout << "flatten(1) " << events.flatten(1) << ", flatten(2) " << events.flatten(2)
            << ", unflatten at axis 2: " << split_lists << " (" << split_lists.type_string()
            << "), flatten(3) of it " << split_lists.flatten(3)
            << "; the same on the JaggedTensor, its innermost lists joined again: "
            << strata::flatten(strata::unflatten(cells, halves, 2), 3)
            << "; its sums along ListAxis{-1} "
            << strata::sum(strata::unflatten(cells, halves, 2), strata::ListAxis{-1}) << "\n";
  // Every axis of the deeper tensor reduces as awkward's does: across the lists of lists of each
  // row (axis=-3, position by position) and across the rows (axis=0).
  std::cout << "its sums across each row's lists (ListAxis{-3}) "
            << strata::sum(strata::unflatten(cells, halves, 2), strata::ListAxis{-3})
            << ", across the rows (ListAxis{0}) "
            << strata::sum(strata::unflatten(cells, halves, 2), strata::ListAxis{0})
            << ", the number of parts of each list (ak.num at axis 2) "
            << strata::num(strata::unflatten(cells, halves, 2), strata::ListAxis{2}) << "\n";
  // Broadcasting as awkward does: one value per list (n * var) applies to the whole list.
  const JaggedTensor<int> per_list(std::vector<std::vector<int>>{{10, 20}, {}, {30}});
  std::cout << "cells + per_list: " << JaggedTensor<int>(cells + per_list)
            << "; each list less its own sum: "
            << JaggedTensor<int>(cells - strata::sum(cells, strata::ListAxis{-1})) << "\n";
  // And one level deeper: one value per innermost list of a 4-level tensor applies to it.
  const JaggedTensor<int> cell_parts = strata::unflatten(cells, halves, 2);
  const JaggedTensor<int> per_part(
      std::vector<std::vector<std::vector<int>>>{{{100, 200}, {300, 400}}, {}, {{500, 600}}});
  std::cout << cell_parts << " + " << per_part
            << " (one value per sub-list): " << JaggedTensor<int>(cell_parts + per_part) << "\n";
  // A dense [n, k] against rows of k lists of lists: value i of row r applies to list i of
  // row r (awkward's RegularArray broadcast at the first ragged level).
  const JaggedTensor<int> two_each(std::vector<std::vector<std::vector<std::vector<int>>>>{
      {{{1, 2}, {3}}, {{4}}}, {{{5, 6, 7}}, {}}});
  std::cout << two_each << " + [[10, 20], [30, 40]] = "
            << JaggedTensor<int>(two_each + Tensor<int>{{10, 20}, {30, 40}}) << "\n";
  // Long data is elided as awkward-array does.
  const std::vector<std::vector<int>> many(400, std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8});
  std::cout << JaggedTensor(many) << "\n";
  // Shapes must agree: the error names the first row that differs.
  try {
    const JaggedTensor<float> other(
        std::vector<std::vector<float>>{{1, 2, 3}, {1}, {4, 5}, {6}, {7}});
    JaggedTensor<float> sum = scores + other;
  } catch (const strata::ShapeError& e) {
    std::cout << "ShapeError: " << e.what() << "\n";
  }
}

void sparse() {
  section("sparse: assemble, compute, hand off");
  // A finite-element-style scatter: coordinate lists with repeats, summed on assembly.
  const std::vector<strata::index_t> rows{0, 1, 1, 2, 0, 3};
  const std::vector<strata::index_t> cols{0, 1, 2, 2, 0, 3};
  const std::vector<double> values{4.0, 3.0, -1.0, 2.0, 1.0, 5.0};
  auto K = strata::sparse_from_coo({4, 4}, {rows, cols}, values);
  K(3, 0) += 0.5;  // element references take compound assignments; inserts are amortised
  std::cout << "K from 6 contributions (two at [0 0]) and K(3, 0) += 0.5 stores "
            << strata::sparse_buffer(K)->nnz() << " values:\n"
            << K << "\n";
  // Reductions visit the stored entries and add the fill value in closed form.
  std::cout << "row sums " << strata::sum(K, 1) << ", column maxima " << strata::max(K, 0) << "\n";
  // Expressions stay sparse where the operation allows: a product with a sparse factor. Its
  // sum along the rows is a matrix-vector product through K's compressed rows, at the speed of
  // a hand CSR loop (the arrays are kept by K until it is written).
  const auto x = strata::Tensor<double>::of({1, 2, 3, 4});
  const strata::Tensor<double> Kx = K * x;
  std::cout << "K * x is sparse: " << std::boolalpha << strata::is_sparse(Kx)
            << "; y = sum(K * x, 1) = " << strata::sum(K * x, 1) << "\n";
  // On a 10^6 x 10^6 tensor the same lines cost O(nnz).
  auto big = strata::sparse<double>({1'000'000, 1'000'000});
  big(0, 999'999) = 2.0;
  big(999'999, 0) = 3.0;
  std::cout << "a 10^6 x 10^6 tensor: sum " << strata::sum(big) << ", row 999999 sums to "
            << strata::sum(big, 1)(999'999) << ", exp keeps it sparse with fill "
            << strata::sparse_buffer(strata::map(big, [](double v) { return std::exp(v); }))->fill()
            << "\n";
  // A sparse operator applied along one mode of a dense tensor: einsum multiplies by the
  // stored entries (a sparse operand of any rank, each group of labels one matrix axis).
  const strata::Tensor<double> field = strata::iota<double>({4, 2, 3});
  std::cout << "einsum(\"ij,jkl->ikl\", K, field)[:, 1, :] =\n"
            << strata::einsum("ij,jkl->ikl", K, field).select({strata::all, 1, strata::all})
            << "\n";
  // A solver's repeated product: K's compressed arrays are made on the first call and kept by
  // its buffer until K is written again.
  strata::Tensor<double> yk({4});
  for (int sweep = 0; sweep < 3; ++sweep) {
    strata::einsum_into(yk, "ij,j->i", K, x);
  }
  std::cout << "einsum_into(y, \"ij,j->i\", K, x), three sweeps: " << yk << "\n";
  // CSR arrays for a solver (the values are the tensor's own array), CSF-style fibres.
  const auto a = strata::csr(K);
  std::cout << "csr(K): offsets " << strata::to_string(a.offsets) << ", indices "
            << strata::to_string(a.indices) << ", values shared: " << std::boolalpha
            << (a.values.data() == strata::sparse_buffer(K)->values().data()) << "\n";
  std::cout << "fibres of K's transpose (columns):";
  strata::for_each_fiber(K.transpose(),
                         [](strata::IndexSpan prefix, std::span<const strata::index_t> inner,
                            std::span<const double> v) {
                           std::cout << " col " << prefix[0] << " rows " << strata::to_string(inner)
                                     << " (" << v.size() << ")";
                         });
  std::cout << "\n";
}

void pictures() {
  section("draw: the library draws its own pictures (SVG)");
  // Every picture of the docs comes from these calls (docs/pictures.cpp); here two of them,
  // written next to the tour. Each cell is an SVG rect with data-index and data-address.
  const auto t = strata::iota<int>({3, 4});
  const auto view = t.select({strata::Range{1, 3}, strata::Range{{}, {}, -2}});
  const std::string dims = strata::draw::dimensions(view.dims(), "t[1:3, ::-2]");
  const std::string tiles =
      strata::draw::layout(strata::Layout::tiled(strata::Smooth{5, 7}, {2, 3}));
  const auto dir = std::filesystem::temp_directory_path();
  std::ofstream(dir / "tour_view.svg") << dims;
  std::ofstream(dir / "tour_tiles.svg") << tiles;
  std::cout << "written to " << dir.string() << "\n";
  const auto count = [](const std::string& svg, const std::string& what) {
    std::size_t n = 0;
    for (auto at = svg.find(what); at != std::string::npos; at = svg.find(what, at + 1)) {
      ++n;
    }
    return n;
  };
  std::cout << "tour_view.svg: " << count(dims, "class=\"cell\"")
            << " cells labelled with the addresses";
  for (const auto& i : view.offsets()) {
    std::cout << " " << view.dims().global_to_local(strata::IndexSpan(i));
  }
  std::cout << ", over a buffer strip of " << count(dims, "class=\"buffer") << " addresses\n"
            << "tour_tiles.svg: " << count(tiles, "class=\"cell\"") << " cells in "
            << strata::Layout::tiled(strata::Smooth{5, 7}, {2, 3}).n_pieces()
            << " tiles, one line through them in storage order\n";
  // A selection coloured by the tensor each element reads.
  const auto a = strata::iota<int>({2, 3});
  const auto b = strata::full<int>({2, 2}, 7);
  const auto s = strata::concat<int>(1, {a, b});
  std::cout << "concat(1, {a, b}): element (0, 4) reads "
            << (s.source_at({0, 4}) == b.buffer().identity() ? "b" : "a") << "; drawn in "
            << count(strata::draw::selection(
                         s, {strata::draw::source("a", a), strata::draw::source("b", b)}),
                     "class=\"legend\"")
            << " colours\n";
}

void guarantees() {
  section("guarantees: const views, element references, aliasing, exceptions under par");
  strata::Tensor<float> t{{1, 2, 3}, {4, 5, 6}};
  std::cout << "sum of row 0 through a const view: " << first_row_sum(t) << "\n";
  // NumPy's w[0] = w[1] and w[1, 2] += 10: writes through temporary views and references.
  t.select({0}) = t.select({1});
  t(1, 2) += 10.0F;
  auto ref = t.select({0})(0);  // a reference into a temporary view keeps the buffer alive
  ref = -1.0F;
  std::cout << "after t[0] = t[1], t[1, 2] += 10, t[0, 0] = -1:\n" << t << "\n";
  // Several indices sharing one address cannot be written.
  try {
    t.select({std::vector<strata::index_t>{0, 0}}).fill(7.0F);
  } catch (const strata::LayoutError& e) {
    std::cout << "LayoutError: " << e.what() << "\n";
  }
  // An exception thrown in a parallel callback reaches the caller, on any thread count.
  try {
    const auto big = strata::iota<float>({1000, 1000}).copy();
    (void)strata::map(big, [](float x) {
      if (x == 123456.0F) {
        throw std::runtime_error("bad value 123456 in a parallel map");
      }
      return x;
    });
  } catch (const std::runtime_error& e) {
    std::cout << "caught after the parallel region: " << e.what() << "\n";
  }
  // Overflowing arithmetic is an error, never a silent wrap.
  try {
    (void)strata::repeat(strata::Tensor<float>::of({1, 2, 3}), INT64_MAX, 0);
  } catch (const strata::ShapeError& e) {
    std::cout << "ShapeError: " << e.what() << "\n";
  }
}

void interop() {
  section("interop: DLPack hand-offs both ways, BLAS descriptions of views, no copies");
  auto t = strata::iota<double>({3, 4}).copy();
#if STRATA_TOUR_DLPACK
  // To a DLPack consumer (NumPy's from_dlpack, torch.from_dlpack...): shape and signed strides.
  DLManagedTensor* out = strata::to_dlpack(t.select({strata::Range{{}, {}, -1}}));
  std::cout << "to_dlpack(t[::-1]): ndim " << out->dl_tensor.ndim << ", shape ["
            << out->dl_tensor.shape[0] << " " << out->dl_tensor.shape[1] << "], strides ["
            << out->dl_tensor.strides[0] << " " << out->dl_tensor.strides[1]
            << "] elements, the same memory: " << std::boolalpha
            << (out->dl_tensor.data == t.select({2}).data()) << "\n";
  // And back: a Tensor over the producer's memory; its deleter runs when the last view goes.
  const auto back = strata::from_dlpack<double>(out);
  std::cout << "from_dlpack(...) = " << back << " (t[::-1], no copy)\n";
  try {
    (void)strata::to_dlpack(t.rotate(1, 1));
  } catch (const strata::LayoutError& e) {
    std::cout << "strata::LayoutError: " << e.what() << "\n";
  }
#else
  std::cout << "(no DLPack header: install libdlpack-dev)\n";
#endif
  // To BLAS / LAPACK: pointer, order and leading dimension of a view, or why it cannot go.
  const auto m = strata::blas_matrix(t.transpose());
  std::cout << "blas_matrix(t.T): " << (m.row_major ? "row" : "column") << "-major, " << m.rows
            << " x " << m.cols << ", lda " << m.leading << "\n";
  // To code written against std::mdspan (StridedSpan where the library has no <mdspan>); any
  // other mdspan-shaped type M (std::experimental::mdspan, Kokkos::mdspan): to_mdspan_as<M>(t).
  auto md = strata::to_mdspan<2>(t.select({strata::Range{1, 3}, strata::Range{{}, {}, 2}}));
  md(1, 1) = -1.0;  // t[2, 2], through a view of the same memory
  std::cout << "to_mdspan(t[1:3, ::2]): extents " << md.extent(0) << " x " << md.extent(1)
            << ", strides " << md.stride(0) << " " << md.stride(1)
            << "; after md(1, 1) = -1, t[2, 2] = " << t.at({2, 2}) << "\n";
}

void files() {
  section("io: HDF5 files; a dataset is a tensor on disk, its views are hyperslabs");
#if STRATA_TOUR_HDF5
  namespace io = strata::io;
  using strata::Range;
  const std::string path = (std::filesystem::temp_directory_path() / "strata_tour.h5").string();
  {
    io::File f(path, io::Mode::truncate);  // h5py's "w"
    auto u = strata::iota<double>({6, 8}).copy();
    f.write("run/u", u, {.chunks = {2, 4}, .deflate = 4});  // chunked, gzip level 4
    f.write("run/u_T", u.transpose());                      // any view: written as it reads
    f.write("rows", strata::JaggedTensor<float>(std::vector<std::vector<float>>{{1, 2}, {}, {3}}));
    // Rows of lists: values + offsets (into the lists) + list_offsets (into the values).
    f.write("events", strata::JaggedTensor<float>(
                          std::vector<std::vector<std::vector<float>>>{{{1, 2}, {}}, {{3}}}));
    auto K = strata::sparse<double>({3, 4});
    K(1, 2) = 5.0;
    f.write_sparse("K", K);  // scipy's data / indices / indptr
    f.attrs().set("title", "tour");
    f.attrs().set("step", 42);
  }
  const io::File f(path);  // read-only, h5py's "r"
  const auto u = f.dataset("run/u");
  std::cout << "run/u: " << strata::io::to_string(u.dtype()) << " " << strata::to_string(u.shape())
            << ", chunks " << strata::to_string(u.chunks()) << "\n";
  const auto view = u.select({Range{1, 6, 2}, Range{{}, {}, -3}});  // u[1:6:2, ::-3]: nothing read
  std::cout << "u[1:6:2, ::-3] read from the file (one hyperslab, flipped in memory):\n"
            << view.read<double>() << "\n";
  const auto plan = io::detail::plan_transfer(u.file_shape(), view.dims());
  std::cout << "  HDF5 selection: start " << strata::to_string(plan.start) << " step "
            << strata::to_string(plan.step) << " count " << strata::to_string(plan.count) << "\n";
  std::cout << "u[[4, 0], 3] (an element list) = "
            << u.select({std::vector<strata::index_t>{4, 0}, 3}).read<int>()
            << " (stored float64, read as int32: HDF5 converts)\n";
  std::cout << "read_tiled(): " << f.dataset("run/u").read_tiled<double>().n_pieces()
            << " tiles, one per chunk; u_T equals u.T: "
            << (f.read<double>("run/u_T").to_vector() ==
                u.read<double>().transpose().copy().to_vector())
            << "\n";
  // A lazy dataset: a Tensor whose buffer is the file, read a chunk at a time when used.
  const auto lazy = f.dataset("run/u").lazy<double>();
  std::cout << "lazy: max of row 4 = " << strata::max(lazy.select({4})) << ", after reading "
            << lazy.buffer().get<io::DatasetBuffer<double>>()->blocks_read() << " of 6 chunks\n";
  std::cout << "rows (values + offsets) = " << f.read_jagged<float>("rows")
            << "; events (+ list_offsets) = " << f.read_jagged<float>("events")
            << "; K from its CSR arrays: sum " << strata::sum(f.read_sparse<double>("K"))
            << "; attrs: title " << f.attrs().get<std::string>("title") << ", step "
            << f.attrs().get<int>("step") << "\n";
  try {
    f.write("again", strata::Tensor<double>({2}));
  } catch (const strata::IOError& e) {
    std::cout << "strata::IOError: " << e.what() << "\n";
  }
  try {
    (void)f.read<bool>("run/u");
  } catch (const strata::TypeError& e) {
    std::cout << "strata::TypeError: " << e.what() << "\n";
  }
  std::filesystem::remove(path);
#else
  std::cout << "(built without HDF5: files need strata::hdf5, from libhdf5-dev)\n";
#endif
}

void distributed() {
  section("dist: tiles owned by MPI ranks, one-sided get / put / accumulate, collectives");
  using strata::Index;
  using namespace strata::dist;
  // A tiling and a distribution are plain values (no MPI): every rank computes the same owners.
  const Tiling tiling = Tiling::regular(Index{6, 8}, Index{4, 3});
  const Distribution grid = Distribution::block_cyclic(Index{2, 2});
  const std::vector<int> owners = grid.owners(tiling, 4);
  std::cout << tiling.to_string() << ": " << tiling.n_tiles() << " tiles, grid "
            << strata::to_string(tiling.grid()) << "; block-cyclic over 2 x 2 ranks, owners";
  for (const int o : owners) {
    std::cout << ' ' << o;
  }
  // ScaLAPACK's block layout over the same grid: each rank a contiguous block of tiles.
  std::cout << "\nblock over 2 x 2 ranks (ScaLAPACK's block layout), owners";
  for (const int o : Distribution::block(Index{2, 2}).owners(tiling, 4)) {
    std::cout << ' ' << o;
  }
  std::cout << "\nthe patch [1:5, 2:7] crosses tiles";
  for (const strata::index_t t : tiling.tiles_in(Index{1, 2}, Index{5, 7})) {
    std::cout << ' ' << t << " (rank " << owners[static_cast<std::size_t>(t)] << ")";
  }
  std::cout << "\n";
#if STRATA_TOUR_MPI
  // One process here (MPI's singleton start); run the tests under mpirun for several ranks.
  int started = 0;
  MPI_Initialized(&started);
  if (started == 0) {
    MPI_Init(nullptr, nullptr);
  }
  {
    DistTensor<double> a(MPI_COMM_WORLD, tiling, Distribution::cyclic());
    for (const strata::index_t t : a.local_tiles()) {
      // A tile is a Tensor view whose absolute indices are the global ones.
      strata::for_each_indexed(
          strata::par, a.tile(t),
          [](strata::index_t i, strata::index_t j, double& x) { x = 10.0 * i + j; });
    }
    a.sync();
    std::cout << "rank " << a.rank() << " of " << a.n_ranks() << " owns tiles "
              << a.local_tiles().size() << "; a.get({1, 2}, {3, 5}) =\n"
              << a.get(Index{1, 2}, Index{3, 5}) << "\n";
    // All ranks on one node: the window is MPI-3 shared memory, and a get or put is a copy
    // from or to the owner's memory (MPI_Get / MPI_Put across nodes, or STRATA_SHARED_WINDOWS=0).
    std::cout << "one node, so the window is shared memory (gets and puts are copies): "
              << std::boolalpha << a.shares_memory() << "\n";
    a.accumulate(Index{0, 0}, Index{2, 2}, strata::Tensor<double>({2, 2}) + 1000.0);
    a.sync();
    std::cout << "after accumulate(+1000) on [0 0]..[2 2): a(1, 1) = "
              << a.get(Index{1, 1}, Index{2, 2})(0, 0) << "; sum() = " << a.sum()
              << " (tiles added in tile order: the same for any number of ranks)\n";
    // On one node an accumulate combines into the owner's memory under the tile's lock (atomic
    // against every other accumulate; long rows by MPI_Reduce_local's vectorised loops); across
    // nodes it is MPI_Accumulate. Any Op: sum, product, min, max, replace.
    a.accumulate(Index{0, 0}, Index{1, 3}, strata::Tensor<double>({1, 3}) + 1500.0, Op::max);
    a.sync();
    std::cout << "after accumulate(max with 1500) on row 0, columns 0-2 (3 as it was): "
              << a.get(Index{0, 0}, Index{1, 4}) << "\n";
    // Reductions along axes: replicated on every rank, tiles combined in tile order.
    std::cout << "a.sum({0}) (column sums, on every rank) = " << a.sum(Index{0})
              << "\na.max({1}) = " << a.max(Index{1}) << "\n";
    // A region given as a view of the global index space: every other row from the bottom,
    // columns 2..5, transposed; it arrives as that view (strided boxes per tile, no packing).
    const Region region =
        a.region().select({strata::Range{{}, {}, -2}, strata::Range{2, 6}}).transpose();
    std::cout << region.to_string() << " -> a.get(region) =\n" << a.get(region) << "\n";
#if STRATA_TOUR_HDF5_MPI
    // One HDF5 file for every rank (parallel HDF5, MPI-IO): each rank writes its own tiles,
    // and reads back into another tiling the part its tiles hold (strata::hdf5_mpi).
    {
      const std::string path =
          (std::filesystem::temp_directory_path() / "strata_tour_dist.h5").string();
      auto file = strata::io::open_collective(MPI_COMM_WORLD, path, strata::io::Mode::truncate);
      file.write("a", a);
      DistTensor<double> b(MPI_COMM_WORLD, Tiling::regular(a.shape(), Index{2, 6}),
                           Distribution::block());
      file.dataset("a").transpose().transpose().read_into(b);
      std::cout << "open_collective + write(a) + read_into(b, another tiling): b.sum() = "
                << b.sum() << " (a.sum() = " << a.sum() << ")\n";
      MPI_Barrier(MPI_COMM_WORLD);
      if (a.rank() == 0) {
        std::filesystem::remove(path);
      }
    }
#endif
    // Contraction, owner computes: each rank computes its tiles of the result, getting the
    // operands' boxes one-sidedly per block of the summed label (SUMMA with gets, as GA).
    {
      const DistTensor<double> gram = strata::dist::einsum("ij,kj->ik", a, a);
      const auto whole = a.gather(0);  // collective; the values on rank 0
      const double at = gram.get(Index{1, 2}, Index{2, 3})(0, 0);
      if (whole) {
        std::cout << "strata::dist::einsum(\"ij,kj->ik\", a, a): a " << gram.tiling().to_string()
                  << " DistTensor; (1, 2) = " << at
                  << ", as one process: " << strata::einsum("ij,kj->ik", *whole, *whole)(1, 2)
                  << "\n";
      }
    }
    // Ghost cells for a 3 x 3 stencil, sized by the window's index projection.
    a.set_ghosts(
        Ghosts::of(strata::conv_window_projection({3, 3}, {1, 1}, {1, 1}, {1, 1}), Index{4, 3}));
    a.update_ghosts();
    if (a.owner(0) == a.rank()) {
      const strata::Tensor<const double> ghosted = a.ghosted(0);
      std::cout << "tile 0 with one ghost cell around it: origin "
                << strata::to_string(ghosted.origin()) << ", shape "
                << strata::to_string(ghosted.shape()) << ", (-1, -1) holds " << ghosted(0, 0)
                << " (zero beyond the grid), (0, 3) holds " << ghosted(1, 4) << " (from tile 1)\n";
    }
    DistTensor<double> columns =
        a.redistribute(Tiling::regular(Index{6, 8}, Index{6, 2}), Distribution::block());
    std::cout << "redistributed to column blocks " << columns.tiling().to_string()
              << "; the same values: " << std::boolalpha
              << (columns.gather(0)->to_vector() == a.gather(0)->to_vector()) << "\n";
    // Windows are kept: a destroyed tensor's window goes, zeroed, to the next tensor of the
    // same sizes, so a time-step loop of redistribute pays for one window.
    std::uintptr_t memory = 0;
    std::cout << "a loop of redistribute:";
    for (int step = 0; step < 3; ++step) {
      const DistTensor<double> b = a.redistribute(columns.tiling(), Distribution::block());
      const auto here = reinterpret_cast<std::uintptr_t>(b.tile(b.local_tiles()[0]).data());
      std::cout << (here == memory ? " the same window" : " a new window");
      memory = here;  // one process here: it owns every tile
    }
    std::cout << "\n";
    // Ghosts given at construction (one window), elements reached by global index when local.
    DistTensor<double> field(MPI_COMM_WORLD, tiling, Distribution::block(),
                             {Index{1, 1}, Index{1, 1}, true});
    if (field.owner(tiling.tile_at(Index{5, 7})) == field.rank()) {
      field.at_global(5, 7) = 1.0;  // a local element, by its global index
    }
    field.sync();
    field.update_ghosts();
    if (field.owner(0) == field.rank()) {
      std::cout << "periodic ghosts at construction: tile 0's corner ghost (-1, -1) holds "
                << field.ghosted(0)(0, 0) << " (the element (5, 7) set through at_global)\n";
    }
    columns.fill_local(0.0);
    columns.assign(a);  // into a tensor that exists (GA_Copy)
    std::cout << "assign(a) into the column blocks again: "
              << (columns.gather(0)->to_vector() == a.gather(0)->to_vector()) << "\n";
    // A jagged tensor's rows in blocks owned by ranks; each row's values stay together.
    DistJaggedTensor<double> cells(MPI_COMM_WORLD, strata::Jagged::from_lengths({3, 0, 2, 4, 1}),
                                   Tiling(std::vector<std::vector<strata::index_t>>{{0, 2, 5}}),
                                   Distribution::cyclic());
    for (const strata::index_t t : cells.local_tiles()) {
      cells.tile(t).for_each_row(strata::par, [](strata::index_t r, std::span<double> v) {
        for (double& x : v) {
          x = static_cast<double>(r);  // global row numbers
        }
      });
    }
    cells.sync();
    std::cout << "DistJaggedTensor rows 2..4 = " << cells.get_rows(2, 5)
              << ", row_sums() = " << cells.row_sums() << "\n";
  }
  MPI_Finalize();
#else
  std::cout << "(built without MPI: DistTensor, the distributed tensor, needs strata::mpi)\n";
#endif
}

int main() {
  std::cout << "strata tour\n";
  core();
  dimensions();
  tensors();
  storage();
  projections();
  selections();
  shapes();
  layouts();
  iteration();
  expressions();
  contractions();
  jagged();
  sparse();
  pictures();
  guarantees();
  interop();
  files();
  distributed();
  std::cout << "\nend of tour\n";
  return 0;
}
