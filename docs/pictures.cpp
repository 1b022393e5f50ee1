// Draws every picture the design pages show, with strata::draw, into the directory named on the
// command line. The docs target runs it before Doxygen, so the pictures follow the code.
#include "strata/strata.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

namespace {

std::filesystem::path out_dir;
int written = 0;

void save(const std::string& name, const std::string& svg) {
  std::ofstream(out_dir / name) << svg;
  ++written;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: strata_pictures <output directory>\n";
    return 2;
  }
  out_dir = argv[1];
  std::filesystem::create_directories(out_dir);
  using namespace strata;
  namespace draw = strata::draw;

  // The main page's quick start (examples/quickstart.cpp): the view t[1:3, 1:5] of a 4 x 6 tensor.
  {
    Tensor<double> t({4, 6});
    save("quickstart_inner.svg",
         draw::dimensions(t.select({Range{1, 3}, Range{1, 5}}).dims(), "t[1:3, 1:5]"));
  }

  // Dimensions and addressing: strides and offsets of views of one 3 x 4 buffer.
  const auto t = iota<int>({3, 4});
  save("dims_row_major.svg", draw::dimensions(t.dims(), "t = iota({3, 4}): row-major"));
  save("dims_transpose.svg", draw::dimensions(t.transpose().dims(), "t.transpose()"));
  save("dims_slice.svg",
       draw::dimensions(t.select({Range{1, 3}, Range{{}, {}, -2}}).dims(), "t[1:3, ::-2]"));
  save("dims_roll.svg", draw::dimensions(t.dims().rotate(1, 1), "roll(t, 1, axis=1)"));
  save("dims_broadcast.svg",
       draw::dimensions(iota<int>({4}).dims().broadcast({3, 4}), "broadcast(iota({4}), {3, 4})"));

  // Expressions: how a broadcast operand is read.
  save("expr_broadcast.svg",
       draw::dimensions(Tensor<double>::of({10, 20, 30}).dims().broadcast({2, 3}),
                        "v.broadcast({2, 3}) in m + v"));

  // Tensors: values of a view.
  // Contractions: the path of a 4-operand chain and its matricised steps.
  {
    const Tensor<double> a({2, 50});
    const Tensor<double> b({50, 40});
    const Tensor<double> c({40, 30});
    const Tensor<double> d({30, 1});
    save("contraction_path.svg",
         draw::contraction(einsum_plan("ij,jk,kl,lm->im", a, b, c, d),
                           "einsum(\"ij,jk,kl,lm->im\"): the cheapest order, each step a GEMM"));
  }
  save("tensor_flip.svg", draw::tensor(t.reverse({0}), "t.reverse({0}): values, same buffer"));

  // Layouts: row-major, column-major, tiles with ragged edges.
  save("layout_row_major.svg", draw::layout(Layout::row_major(Smooth{3, 5})));
  save("layout_column_major.svg", draw::layout(Layout::column_major(Smooth{3, 5})));
  save("layout_tiled.svg", draw::layout(Layout::tiled(Smooth{5, 7}, {2, 3})));

  // Shapes: smooth, jagged, nested; slices with their origin.
  const Smooth box{4, 6};
  save("shape_jagged.svg", draw::shape(Jagged::from_lengths({3, 0, 5, 2})));
  save("shape_nested.svg",
       draw::shape(Nested{Smooth{2, 2}, Smooth{3, 3}}, "Nested{Smooth[2 2] | Smooth[3 3]}"));
  save("slice_smooth.svg", draw::slice(box, box.slice({1, 2}, {3, 5})));
  const auto rows = Jagged::from_lengths({2, 5, 1, 4, 3});
  save("slice_jagged.svg", draw::slice(rows, rows.slice({1}, {4})));

  // Jagged tensors: values + offsets.
  save("jagged_tensor.svg",
       draw::jagged(JaggedTensor<int>::from_values({1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
                                                   Jagged::from_lengths({3, 0, 2, 1, 4})),
                    "[[1, 2, 3], [], [4, 5], [6], [7, 8, 9, 10]]"));

  // Indexing and joining jagged tensors (awkward-array's operations): each result's values +
  // offsets, titled with the call that made it.
  {
    const JaggedTensor<int> a(std::vector<std::vector<int>>{{1, 2, 3}, {}, {4, 5}});
    const JaggedTensor<int> b(std::vector<std::vector<int>>{{6}, {7, 8}, {}});
    save("jagged_filter.svg",
         draw::jagged(filter_each(a, a > 1), "filter_each(a, a > 1), a = [[1, 2, 3], [], [4, 5]]"));
    save("jagged_take.svg",
         draw::jagged(
             take_each(a, JaggedTensor<int>(std::vector<std::vector<int>>{{-1, 0}, {}, {1, 1, 0}})),
             "take_each(a, [[-1, 0], [], [1, 1, 0]])"));
    save("jagged_concat.svg",
         draw::jagged(concat(1, {a, b}), "concat(1, {a, b}), b = [[6], [7, 8], []]: row by row"));
    save("jagged_concat_rows.svg",
         draw::jagged(concat(0, {a, b}), "concat(0, {a, b}): rows after rows"));
    const auto [left, right] = cartesian(a, b);
    save("jagged_cartesian_first.svg", draw::jagged(left, "auto [x, y] = cartesian(a, b): x"));
    save("jagged_cartesian_second.svg", draw::jagged(right, "y: row r pairs a[r][i] with b[r][j]"));
  }

  // Sparse storage: a 4 x 5 matrix, its sorted entries and its CSR arrays.
  {
    auto K = sparse<double>({4, 5});
    K(0, 1) = 3;
    K(0, 4) = 1;
    K(1, 3) = 9;
    K(2, 0) = 7;
    K(2, 2) = 5;
    K(3, 3) = 2;
    save("sparse_matrix.svg", draw::sparse(K, "K = sparse<double>({4, 5}) after six writes"));
  }

  // Selections: each block coloured by the tensor it reads.
  const auto a = iota<int>({2, 3});
  const auto b = full<int>({2, 2}, 7);
  save("selection_concat.svg",
       draw::selection(concat<int>(1, {a, b}), {draw::source("a", a), draw::source("b", b)},
                       "concat(1, {a, b})"));
  save("selection_pad.svg",
       draw::selection(pad(a, {{1, 1}, {2, 1}}, PadMode::reflect), {draw::source("a", a)},
                       "pad(a, {{1, 1}, {2, 1}}, reflect)"));
  const auto nines = full<int>({1, 4}, 9);
  save("selection_tree.svg",
       draw::selection(
           concat<int>(0, {pad(a, {{0, 0}, {1, 0}}, PadMode::constant, -1), Selection<int>(nines)}),
           {draw::source("a", a), draw::source("full", nines)},
           "concat(0, {pad(a, {{0, 0}, {1, 0}}, constant -1), full({1, 4}, 9)})"));

  // Index projections: a 3 x 3 convolution window over blocks of the output.
  save("projection_conv.svg",
       draw::projection(conv_window_projection({3, 3}, {1, 1}, {1, 1}, {1, 1}),
                        ZRange({0, 0}, {8, 8}), {4, 4}, ZRange({0, 0}, {8, 8}),
                        "3 x 3 convolution window, 2 x 2 blocks of 4 x 4 outputs"));
  save("projection_rows.svg",
       draw::projection(conv_window_projection({3}, {2}, {1}, {0}), ZRange({0}, {6}), {2},
                        ZRange({0}, {13}), "window 3, stride 2: blocks of 2 outputs"));

  // Distributed tensors: a 2 x 2 block-cyclic distribution of 3 x 4 tiles over 4 ranks, and a
  // patch that crosses four owners (what one get() reads from).
  {
    const auto tiling = dist::Tiling::regular(Index{10, 14}, Index{4, 4});
    const auto owners = dist::Distribution::block_cyclic(Index{2, 2}).owners(tiling, 4);
    save("dist_block_cyclic.svg",
         draw::distribution(tiling, owners, {}, {},
                            "10 x 14, tiles of 4 x 4, block-cyclic over a 2 x 2 process grid"));
    save("dist_patch.svg", draw::distribution(tiling, owners, Index{2, 3}, Index{7, 9},
                                              "get({2, 3}, {7, 9}): one transfer per tile"));
    const dist::Tiling irregular({{0, 2, 7, 10}, {0, 5, 6, 14}});
    save("dist_irregular.svg",
         draw::distribution(irregular, dist::Distribution::block().owners(irregular, 4), {}, {},
                            "irregular tiles (TiledArray's tiled ranges), block over 4 ranks"));
  }

  // docs/files.md: which chunks of a chunked dataset a strided view touches.
  {
    const Dimensions file{12, 16};
    save("files_chunks.svg",
         draw::chunks(Index{12, 16}, Index{4, 4}, file.select({Range{1, 10, 2}, Range{2, 11}}),
                      "ds.select({Range{1, 10, 2}, Range{2, 11}}) of a 12 x 16 dataset in 4 x 4 chunks"));
  }

  std::cout << "strata_pictures: " << written << " pictures in " << out_dir.string() << "\n";
  return 0;
}
