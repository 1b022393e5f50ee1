// Tests for strata/layout/dimensions.hpp: the seed examples, every view, errors, properties.
#include "strata/layout/dimensions.hpp"
#include "check_error.hpp"

#include "layout/view_helpers.hpp"
#include "strata/core/error.hpp"
#include "strata/layout/odometer.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>

namespace test_layout_dimensions {

using Catch::Matchers::Contains;
using strata::all;
using strata::Dimensions;
using strata::Index;
using strata::index_t;
using strata::Range;
using strata::test::addresses;
using strata::test::check_error;
using V = std::vector<index_t>;

namespace {
/// Values of a view over arange(n): the addresses themselves.
V values(const Dimensions& d) {
  return addresses(d);
}

}  // namespace

TEST_CASE("Dimensions is built row-major or from strides", "[layout]") {
  const Dimensions d{2, 3};
  CHECK(d.rank() == 2);
  CHECK(d.shape() == Index{2, 3});
  CHECK(d.strides() == Index{3, 1});
  CHECK(d.offset() == 0);
  CHECK(d.size() == 6);
  CHECK(strata::to_string(Dimensions{2, 2}) == "{shape [2 2] strides [2 1] offset 0}");
  const Dimensions s({2, 2}, {1, 2}, 5);
  CHECK(values(s) == V{5, 7, 6, 8});
  SECTION("the scalar map has rank 0 and one element") {
    const Dimensions scalar;
    CHECK(scalar.rank() == 0);
    CHECK(scalar.size() == 1);
    CHECK(values(scalar) == V{0});
    CHECK(strata::to_string(scalar) == "{shape [] strides [] offset 0}");
  }
  SECTION("an empty axis gives size 0") {
    CHECK(Dimensions{3, 0, 2}.size() == 0);
    CHECK(values(Dimensions{3, 0, 2}).empty());
  }
}

// ---- seed 000: the dimensions object as a remapping of a linear address space -----------------

TEST_CASE("seed 000: a 3x3 tensor and its views", "[layout][seed]") {
  const Dimensions d{3, 3};
  SECTION("transpose [1 0]") {
    CHECK(values(d.transpose({1, 0})) == V{0, 3, 6, 1, 4, 7, 2, 5, 8});
  }
  SECTION("broadcast [6 3] repeats the rows") {
    CHECK(values(d.broadcast({6, 3})) == V{0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8});
  }
  SECTION("rotate [0 1] rolls each row right by one") {
    CHECK(values(d.rotate({0, 1})) == V{2, 0, 1, 5, 3, 4, 8, 6, 7});
  }
  SECTION("select 1 :all is the second row") {
    CHECK(values(d.select({1, all})) == V{3, 4, 5});
  }
  SECTION("select :all 2 is the third column") {
    CHECK(values(d.select({all, 2})) == V{2, 5, 8});
  }
}

TEST_CASE("seed 000: a 2x2 matrix as shape and strides", "[layout][seed]") {
  const Dimensions d{2, 2};
  CHECK(strata::to_string(d) == "{shape [2 2] strides [2 1] offset 0}");
  CHECK(strata::to_string(d.transpose({1, 0})) == "{shape [2 2] strides [1 2] offset 0}");
  CHECK(strata::to_string(d.select({1, all})) == "{shape [2] strides [1] offset 2}");
  CHECK(strata::to_string(d.select({all, 1})) == "{shape [2] strides [2] offset 1}");
}

// ---- seed 001: reduction and address operators -----------------------------------------------

TEST_CASE("seed 001: views of a 2x2 tensor", "[layout][seed]") {
  const Dimensions d{2, 2};
  CHECK(values(d.select({0})) == V{0, 1});
  CHECK(values(d.select({1})) == V{2, 3});
  CHECK(values(d.select({1, V{1, 0}})) == V{3, 2});
  CHECK(values(d.transpose({1, 0})) == V{0, 2, 1, 3});
  CHECK(values(d.broadcast({2, 6})) == V{0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3});
}

TEST_CASE("seed 001: reduced dimensions", "[layout][seed]") {
  CHECK(strata::to_string(Dimensions{4, 4}.reduced()) == "{shape [16] strides [1] offset 0}");
  CHECK(strata::to_string(Dimensions{2, 2, 4}.reduced()) == "{shape [16] strides [1] offset 0}");
  CHECK(strata::to_string(Dimensions{2, 2, 2, 2}.reduced()) == "{shape [16] strides [1] offset 0}");
  SECTION("broadcasting changes the extent, not the cycle") {
    const Dimensions r = Dimensions{4, 4}.broadcast({8, 4}).reduced();
    CHECK(r.shape() == Index{32});
    CHECK(r.axes()[0].cycle == 16);
    CHECK(r.strides() == Index{1});
    CHECK(strata::to_string(r) ==
          "{shape [32] strides [1] offset 0 extent [32] cycle [16] rotation [0]}");
  }
  SECTION("a 256x256x4 crop of a 2048x2048x4 image keeps its strided rows") {
    const Dimensions crop({256, 256, 4}, {8192, 4, 1});
    const Dimensions r = crop.reduced();
    CHECK(r.shape() == Index{256, 1024});
    CHECK(r.strides() == Index{8192, 1});
    CHECK(r.size() == 262144);
    V window;
    for (index_t i = 1020; i < 1030; ++i) {
      window.push_back(r.global_to_local(i));
    }
    CHECK(window == V{1020, 1021, 1022, 1023, 8192, 8193, 8194, 8195, 8196, 8197});
    CHECK(r.signature().rank == 2);
    CHECK(r.signature().unit_last_stride);
    CHECK(r.signature().indexed == 0);
    CHECK_FALSE(r.signature().broadcast);
  }
  SECTION("reversed channels through an index array") {
    const Dimensions crop({256, 256, 4}, {8192, 4, 1});
    const Dimensions rev = crop.select({all, all, V{3, 2, 1, 0}});
    const Dimensions r = rev.reduced();
    CHECK(r.rank() == 3);
    CHECK(r.axes()[2].is_indexed());
    V window;
    for (index_t i = 1020; i < 1030; ++i) {
      window.push_back(r.global_to_local(i));
    }
    CHECK(window == V{1023, 1022, 1021, 1020, 8195, 8194, 8193, 8192, 8199, 8198});
    CHECK(r.signature().indexed == 0b100U);
    CHECK_FALSE(r.signature().unit_last_stride);
  }
}

// ---- each view operation ---------------------------------------------------------------------

TEST_CASE("select follows NumPy basic indexing", "[layout]") {
  const Dimensions d{3, 4};  // [[0 1 2 3] [4 5 6 7] [8 9 10 11]]
  SECTION("negative integers count from the end") {
    CHECK(values(d.select({-1})) == V{8, 9, 10, 11});
    CHECK(values(d.select({all, -4})) == V{0, 4, 8});
  }
  SECTION("slices with omitted and negative bounds and steps") {
    CHECK(values(d.select({Range{1}})) == V{4, 5, 6, 7, 8, 9, 10, 11});
    CHECK(values(d.select({all, Range{{}, {}, -1}})) == V{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8});
    CHECK(values(d.select({Range{{}, {}, -2}, Range{-3, -1}})) == V{9, 10, 1, 2});
    CHECK(values(d.select({0, Range{3, 0, -2}})) == V{3, 1});
    CHECK(values(d.select({0, Range{-100, 100, 3}})) == V{0, 3});
    CHECK(values(d.select({0, Range{100, -100, -3}})) == V{3, 0});
    CHECK(d.select({Range{2, 1}}).shape() == Index{0, 4});
  }
  SECTION("index arrays read the axis through them") {
    CHECK(values(d.select({V{2, 0, 2}, 1})) == V{9, 1, 9});
    CHECK(values(d.select({all, V{}})).empty());
    CHECK(d.select({all, V{}}).shape() == Index{3, 0});
  }
  SECTION("index arrays compose with slices and rotations") {
    const Dimensions r = d.rotate({1, 0}).select({Range{{}, {}, -1}, V{3, 0}});
    // rows of the rolled view: [8..11], [0..3], [4..7]; reversed: rows 4.., 0.., 8..
    CHECK(values(r) == V{7, 4, 3, 0, 11, 8});
  }
  SECTION("fewer selectors than axes keep the rest") {
    CHECK(d.select({1}).shape() == Index{4});
    CHECK(d.select({}).shape() == Index{3, 4});
  }
}

TEST_CASE("transpose reorders axes", "[layout]") {
  const Dimensions d{2, 3, 4};
  CHECK(d.transpose({2, 0, 1}).shape() == Index{4, 2, 3});
  CHECK(d.transpose({2, 0, 1}).strides() == Index{1, 12, 4});
  CHECK(d.transpose().shape() == Index{4, 3, 2});
  CHECK(d.transpose({-1, 0, 1}) == d.transpose({2, 0, 1}));
  CHECK(d.transpose({1, 2, 0}).transpose({2, 0, 1}) == d);
}

TEST_CASE("broadcast adds leading axes and tiles existing ones", "[layout]") {
  const Dimensions row{3};
  CHECK(values(row.broadcast({2, 3})) == V{0, 1, 2, 0, 1, 2});
  CHECK(row.broadcast({2, 3}).strides() == Index{0, 1});
  CHECK(values(row.broadcast({6})) == V{0, 1, 2, 0, 1, 2});
  const Dimensions col({3, 1}, {1, 1});
  CHECK(values(col.broadcast({3, 2})) == V{0, 0, 1, 1, 2, 2});
  CHECK(col.broadcast({3, 0}).size() == 0);
  SECTION("is_broadcast tells aliasing views apart") {
    CHECK_FALSE(row.is_broadcast());
    CHECK(row.broadcast({2, 3}).is_broadcast());
    CHECK(row.broadcast({6}).is_broadcast());
    CHECK_FALSE(row.broadcast({1, 3}).is_broadcast());
    CHECK(row.broadcast({2, 3}).aliases());
    // One contract: aliasing is about addresses. An empty broadcast has no element, so it
    // aliases nothing (writing through it writes nothing), though its axes broadcast.
    const Dimensions empty = Dimensions{}.broadcast({3, 0});
    CHECK(empty.is_broadcast());
    CHECK_FALSE(empty.aliases());
    CHECK_FALSE(Dimensions{}.broadcast({1}).aliases());
  }
  SECTION("tiling a rolled axis keeps rolling") {
    CHECK(values(row.rotate({1}).broadcast({6})) == V{2, 0, 1, 2, 0, 1});
  }
  SECTION("tiling a wrapped slice goes through an index array") {
    const Dimensions w = Dimensions{5}.rotate({2}).select({Range{0, 3}});  // 3 4 0
    CHECK(values(w) == V{3, 4, 0});
    CHECK(values(w.broadcast({6})) == V{3, 4, 0, 3, 4, 0});
  }
}

TEST_CASE("rotate is numpy.roll", "[layout]") {
  const Dimensions d{5};
  CHECK(values(d.rotate({2})) == V{3, 4, 0, 1, 2});
  CHECK(values(d.rotate({-1})) == V{1, 2, 3, 4, 0});
  CHECK(values(d.rotate({12})) == V{3, 4, 0, 1, 2});
  CHECK(d.rotate({5}) == d);
  CHECK(d.rotate({2}).rotate({-2}) == d);
  CHECK(values(d.rotate(std::numeric_limits<index_t>::min(), 0)) ==
        values(d.rotate({std::numeric_limits<index_t>::min() % 5 + 5})));
  const Dimensions m{2, 3};
  CHECK(values(m.rotate(1, -1)) == V{2, 0, 1, 5, 3, 4});
  CHECK(values(m.rotate({1, 1})) == V{5, 3, 4, 2, 0, 1});
  SECTION("rolling a tiled axis rolls within the tile period") {
    // np.roll(np.tile([0,1,2], 2), 1) == [2 0 1 2 0 1]
    CHECK(values(Dimensions{3}.broadcast({6}).rotate({1})) == V{2, 0, 1, 2, 0, 1});
  }
  SECTION("a rotation stays cheap: no index array") {
    CHECK_FALSE(m.rotate({1, 2}).axes()[1].is_indexed());
    CHECK(m.rotate({1, 2}).axes()[1].is_cyclic());
  }
}

TEST_CASE("reverse flips axes with negative strides", "[layout]") {
  const Dimensions d{2, 3};
  CHECK(values(d.reverse({1})) == V{2, 1, 0, 5, 4, 3});
  CHECK(d.reverse({1}).strides() == Index{3, -1});
  CHECK(d.reverse({1}).offset() == 2);
  CHECK(values(d.reverse()) == V{5, 4, 3, 2, 1, 0});
  CHECK(d.reverse({0}).reverse({0}) == d);
  CHECK(values(d.rotate({0, 1}).reverse({-1})) == V{1, 0, 2, 4, 3, 5});
  CHECK(values(d.select({all, V{0, 0, 2}}).reverse({1})) == V{2, 0, 0, 5, 3, 3});
}

TEST_CASE("squeeze and unsqueeze drop and add size-1 axes", "[layout]") {
  const Dimensions d{1, 3, 1};
  CHECK(d.squeeze().shape() == Index{3});
  CHECK(d.squeeze({0}).shape() == Index{3, 1});
  CHECK(d.squeeze({-1}).shape() == Index{1, 3});
  const Dimensions v{3};
  CHECK(v.unsqueeze(0).shape() == Index{1, 3});
  CHECK(v.unsqueeze(1).shape() == Index{3, 1});
  CHECK(v.unsqueeze(-1).shape() == Index{3, 1});
  CHECK(values(v.unsqueeze(0)) == V{0, 1, 2});
  CHECK(v.unsqueeze(0).strides() == Index{3, 1});
}

TEST_CASE("diagonal is numpy's a.diagonal(offset, axis1, axis2)", "[layout]") {
  const Dimensions d{3, 4};  // addresses 0..11
  CHECK(values(d.diagonal()) == V{0, 5, 10});
  CHECK(d.diagonal().strides() == Index{5});
  CHECK(values(d.diagonal(1)) == V{1, 6, 11});
  CHECK(values(d.diagonal(3)) == V{3});
  CHECK(values(d.diagonal(-2)) == V{8});
  CHECK(d.diagonal(4).shape() == Index{0});   // one past the edge: empty, as NumPy
  CHECK(d.diagonal(-9).shape() == Index{0});  // far past it
  CHECK(d.diagonal(std::numeric_limits<index_t>::min()).shape() == Index{0});
  CHECK(values(d.diagonal(0, 1, 0)) == V{0, 5, 10});  // the same elements, axes swapped
  CHECK(values(d.diagonal(1, 1, 0)) == V{4, 9});      // above the diagonal along axis 0
  CHECK(values(d.diagonal(0, -1, -2)) == V{0, 5, 10});
  // A rank-3 map: the diagonal axis goes last, the others keep their order.
  const Dimensions t{2, 3, 3};
  CHECK(t.diagonal(0, 1, 2).shape() == Index{2, 3});
  CHECK(values(t.diagonal(0, 1, 2)) == V{0, 4, 8, 9, 13, 17});
  CHECK(t.diagonal(0, 0, 2).shape() == Index{3, 2});
  CHECK(values(t.diagonal(0, 0, 2)) == V{0, 10, 3, 13, 6, 16});
  // Reversed axes keep a plain stride; a rotation or an index array reads through an index
  // array of the summed contributions.
  CHECK(values(d.reverse({0}).diagonal()) == V{8, 5, 2});
  CHECK(d.reverse({0}).diagonal().is_strided());
  const Dimensions rolled = d.rotate(1, 1);  // columns 3 0 1 2
  CHECK(values(rolled.diagonal()) == V{3, 4, 9});
  CHECK(!rolled.diagonal().is_strided());
  const Dimensions taken = d.select({V{2, 0, 1}});  // rows 2 0 1
  CHECK(values(taken.diagonal(1)) == V{9, 2, 7});
  // Broadcast axes: every element of the diagonal of a broadcast row reads that row.
  CHECK(values(Dimensions{4}.broadcast({4, 4}).diagonal()) == V{0, 1, 2, 3});
  CHECK(values(Dimensions{4}.unsqueeze(1).broadcast({4, 4}).diagonal()) == V{0, 1, 2, 3});
  CHECK(Dimensions{3}.broadcast({3, 3}).diagonal(0, 0, 1).aliases() == false);
  CHECK(Dimensions{3}.broadcast({2, 3, 3}).diagonal(0, 1, 2).aliases());
}

TEST_CASE("reshape keeps addresses in row-major order", "[layout]") {
  const Dimensions d{2, 3, 4};
  CHECK(d.reshape({6, 4}).strides() == Index{4, 1});
  CHECK(d.reshape({4, -1}).shape() == Index{4, 6});
  CHECK(d.reshape({-1}).shape() == Index{24});
  CHECK(values(d.reshape({3, 8})) == values(d));
  SECTION("a transposed view splits and merges only within contiguous blocks") {
    const Dimensions t = d.transpose({0, 2, 1});  // [2 4 3] strides [12 1 4]
    CHECK(values(t.reshape({2, 2, 2, 3})) == values(t));
    CHECK(values(t.reshape({2, 4, 3, 1})) == values(t));
    CHECK_THROWS_AS(t.reshape({8, 3}), strata::LayoutError);
    CHECK_THROWS_AS(t.reshape({2, 12}), strata::LayoutError);
  }
  SECTION("a tiled axis splits along its period") {
    const Dimensions b = Dimensions{4}.broadcast({8});  // 0 1 2 3 0 1 2 3
    CHECK(values(b.reshape({2, 4})) == V{0, 1, 2, 3, 0, 1, 2, 3});
    CHECK(values(b.reshape({4, 2})) == V{0, 1, 2, 3, 0, 1, 2, 3});
    CHECK(b.reshape({4, 2}).axes()[0].cycle == 2);
  }
  SECTION("a broadcast matrix merges back") {
    const Dimensions b = Dimensions{4, 4}.broadcast({8, 4});
    CHECK(values(b.reshape({32})) == values(b));
    CHECK(values(b.reshape({2, 16})) == values(b));
  }
  SECTION("empty maps reshape freely") {
    CHECK(Dimensions{0, 3}.reshape({3, 0, 5}).shape() == Index{3, 0, 5});
  }
}

// ---- addressing ------------------------------------------------------------------------------

TEST_CASE("global_to_local agrees for multi-indices and linear indices", "[layout]") {
  const Dimensions d = Dimensions{3, 4}.rotate({1, 2}).reverse({1});
  for (index_t i = 0; i < 3; ++i) {
    for (index_t j = 0; j < 4; ++j) {
      CHECK(d.global_to_local({i, j}) == d.global_to_local(i * 4 + j));
      CHECK(d.checked_global_to_local({i, j}) == d.global_to_local({i, j}));
    }
  }
  CHECK(d.checked_global_to_local(11) == d.global_to_local({2, 3}));
}

TEST_CASE("local_to_global returns every global index of an address", "[layout]") {
  const Dimensions d{3, 4};
  CHECK(d.local_to_global(6) == std::vector<Index>{Index{1, 2}});
  CHECK(d.local_to_global(12).empty());
  CHECK(d.local_to_global(-1).empty());
  SECTION("a strided view skips addresses") {
    const Dimensions c = d.select({all, 1});
    CHECK(c.local_to_global(5) == std::vector<Index>{Index{1}});
    CHECK(c.local_to_global(6).empty());
  }
  SECTION("a broadcast address is read by several indices") {
    const Dimensions b = Dimensions{2}.broadcast({3, 4});
    CHECK(b.local_to_global(1) == std::vector<Index>{Index{0, 1}, Index{0, 3}, Index{1, 1},
                                                     Index{1, 3}, Index{2, 1}, Index{2, 3}});
  }
  SECTION("index arrays are inverted") {
    const Dimensions x = d.select({V{2, 0, 2}});
    CHECK(x.local_to_global(9) == std::vector<Index>{Index{0, 1}, Index{2, 1}});
    CHECK(x.local_to_global(5).empty());
  }
}

TEST_CASE("predicates tell the fast paths", "[layout]") {
  const Dimensions d{4, 5};
  CHECK(d.is_native());
  CHECK(d.has_unit_last_stride());
  CHECK_FALSE(d.transpose().is_native());
  CHECK_FALSE(d.transpose().has_unit_last_stride());
  CHECK_FALSE(d.select({Range{1, 3}, Range{0, 4}}).is_native());
  CHECK(d.select({Range{1, 3}, Range{0, 4}}).has_unit_last_stride());
  CHECK(d.select({Range{1, 3}}).is_native());
  CHECK_FALSE(d.reverse({0}).is_native());
  CHECK(Dimensions{0, 3}.is_native());
  CHECK(Dimensions{}.is_native());
}

// ---- bad input -------------------------------------------------------------------------------

TEST_CASE("bad input is rejected with a clear error and the map unchanged", "[layout][errors]") {
  const Dimensions d{3, 4};
  const Dimensions before = d;
  SECTION("select") {
    check_error<strata::IndexError>([&] { (void)d.select({0, 0, 0}); }, "select", "3 selectors");
    check_error<strata::IndexError>([&] { (void)d.select({3}); }, "select", "index 3");
    check_error<strata::IndexError>([&] { (void)d.select({-4}); }, "select", "index -4");
    check_error<strata::IndexError>([&] { (void)d.select({all, V{0, 4}}); }, "select", "entry 4");
    check_error<strata::IndexError>([&] { (void)d.select({all, V{-1}}); }, "select", "entry -1");
    check_error<strata::IndexError>([&] { (void)d.select({Range{0, 3, 0}}); }, "select", "step 0");
  }
  SECTION("transpose") {
    check_error<strata::ShapeError>(
        [&] {
          (void)Dimensions{2, 3, 4}.transpose({0, 0, 2});
        },
        "transpose", "permutation [0 0 2] repeats axis 0 (rank 3)");
    check_error<strata::ShapeError>([&] { (void)d.transpose({0}); }, "transpose", "[0]");
    check_error<strata::ShapeError>([&] { (void)d.transpose({0, 2}); }, "transpose", "axis 2");
  }
  SECTION("broadcast") {
    check_error<strata::BroadcastError>([&] { (void)d.broadcast({4}); }, "broadcast", "fewer axes");
    check_error<strata::BroadcastError>(
        [&] {
          (void)d.broadcast({3, 6});
        },
        "broadcast", "axis 1 of extent 4 to 6");
    check_error<strata::BroadcastError>([&] { (void)d.broadcast({3, 0}); }, "broadcast", "to 0");
    check_error<strata::ShapeError>(
        [&] {
          (void)d.broadcast({-1, 3, 4});
        },
        "broadcast", "negative extent -1");
  }
  SECTION("reshape") {
    check_error<strata::ShapeError>([&] { (void)d.reshape({5, 2}); }, "reshape", "[5 2]");
    check_error<strata::ShapeError>(
        [&] {
          (void)d.reshape({-1, -1});
        },
        "reshape", "more than one -1");
    check_error<strata::ShapeError>([&] { (void)d.reshape({-1, 5}); }, "reshape", "[-1 5]");
    check_error<strata::ShapeError>(
        [&] {
          (void)d.reshape({-2, -6});
        },
        "reshape", "negative extent -2");
    check_error<strata::LayoutError>([&] { (void)d.transpose().reshape({12}); }, "reshape",
                                     "as shape [12] without a copy");
  }
  SECTION("construction") {
    check_error<strata::ShapeError>(
        [] {
          (void)Dimensions{3, -2};
        },
        "Dimensions", "negative extent -2");
    const index_t big = index_t{1} << 32;
    check_error<strata::ShapeError>([&] { (void)Dimensions{big, big}; }, "Dimensions", "int64");
    check_error<strata::ShapeError>(
        [] {
          (void)Dimensions({2, 2}, {1});
        },
        "Dimensions", "strides [1]");
    check_error<strata::ShapeError>(
        [] {
          (void)Dimensions({2, 2}, {std::numeric_limits<index_t>::max(), 1});
        },
        "Dimensions", "overflow");
  }
  SECTION("rotate and reverse") {
    check_error<strata::IndexError>([&] { (void)d.rotate(1, 2); }, "rotate", "axis 2");
    check_error<strata::ShapeError>([&] { (void)d.rotate({1}); }, "rotate", "shifts [1]");
    check_error<strata::IndexError>([&] { (void)d.reverse({-3}); }, "reverse", "axis -3");
    check_error<strata::ShapeError>([&] { (void)d.reverse({1, -1}); }, "reverse", "twice");
  }
  SECTION("squeeze and unsqueeze") {
    check_error<strata::ShapeError>([&] { (void)d.squeeze({1}); }, "squeeze",
                                    "axis 1 has extent 4");
    check_error<strata::IndexError>([&] { (void)d.squeeze({5}); }, "squeeze", "axis 5");
    check_error<strata::IndexError>([&] { (void)d.unsqueeze(3); }, "unsqueeze", "position 3");
  }
  SECTION("checked addressing") {
    check_error<strata::IndexError>(
        [&] {
          (void)d.checked_global_to_local({3, 0});
        },
        "global_to_local", "[3 0]");
    check_error<strata::IndexError>([&] { (void)d.checked_global_to_local(Index{0}); },
                                    "global_to_local", "rank 2");
    check_error<strata::IndexError>([&] { (void)d.checked_global_to_local(12); }, "global_to_local",
                                    "linear index 12");
    check_error<strata::IndexError>([&] { (void)d.axis(2); }, "axis", "axis 2");
  }
  SECTION("diagonal") {
    check_error<strata::IndexError>([&] { (void)d.diagonal(0, 0, 2); }, "diagonal", "axis 2");
    check_error<strata::IndexError>([&] { (void)d.diagonal(0, -3, 1); }, "diagonal", "axis -3");
    check_error<strata::ShapeError>([&] { (void)d.diagonal(0, 1, -1); }, "diagonal",
                                    "axis1 1 and axis2 -1");
    check_error<strata::ShapeError>([&] { (void)Dimensions{4}.diagonal(); }, "diagonal", "rank 1");
    check_error<strata::ShapeError>([&] { (void)Dimensions{}.diagonal(); }, "diagonal", "rank 0");
  }
  CHECK(d == before);
}

// ---- properties on random views --------------------------------------------------------------

TEST_CASE("properties hold on random views", "[layout][property]") {
  std::mt19937_64 rng(12345);
  for (int trial = 0; trial < 3000; ++trial) {
    const Dimensions d = strata::test::random_view(rng, 6);
    INFO("view " << d);
    const V expected = addresses(d);
    REQUIRE(static_cast<index_t>(expected.size()) == d.size());

    // The linear path equals the multi-index path.
    V linear;
    for (index_t i = 0; i < d.size(); ++i) {
      linear.push_back(d.global_to_local(i));
    }
    REQUIRE(linear == expected);

    // reduced() visits the same addresses in the same order, with no more axes.
    const Dimensions r = d.reduced();
    REQUIRE(addresses(r) == expected);
    REQUIRE(r.rank() <= std::max(d.rank(), 1));
    REQUIRE(r.reduced() == r);

    // The odometer equals global_to_local from any start.
    V walked;
    strata::for_each_address(d, 0, d.size(), [&](index_t a) { walked.push_back(a); });
    REQUIRE(walked == expected);
    if (d.size() > 2) {
      const index_t begin = strata::test::uniform(rng, 0, d.size() - 1);
      const index_t end = strata::test::uniform(rng, begin, d.size());
      V part;
      strata::for_each_address(d, begin, end, [&](index_t a) { part.push_back(a); });
      REQUIRE(part == V(expected.begin() + begin, expected.begin() + end));
    }

    // local_to_global(global_to_local(g)) contains g, and only indices that read the address.
    if (d.size() > 0) {
      const index_t i = strata::test::uniform(rng, 0, d.size() - 1);
      const index_t address = expected[static_cast<std::size_t>(i)];
      const auto globals = d.local_to_global(address);
      const auto count = std::count(expected.begin(), expected.end(), address);
      REQUIRE(static_cast<std::ptrdiff_t>(globals.size()) == count);
      for (const Index& g : globals) {
        REQUIRE(d.global_to_local(g) == address);
      }
      REQUIRE(std::is_sorted(globals.begin(), globals.end(), [](const Index& a, const Index& b) {
        return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
      }));
    }

    // Algebraic identities.
    REQUIRE(addresses(d.reverse().reverse()) == expected);
    REQUIRE(addresses(d.transpose().transpose()) == expected);
    if (d.rank() > 0) {
      REQUIRE(addresses(d.rotate(3, 0).rotate(-3, 0)) == expected);
    }
    // A flat view exists exactly when the reduced map has at most one axis.
    if (r.rank() <= 1) {
      REQUIRE(addresses(d.reshape({-1})) == expected);
    } else {
      REQUIRE_THROWS_AS(d.reshape({-1}), strata::LayoutError);
    }
  }
}

TEST_CASE("maps built from parts check their addresses for overflow", "[layout][errors]") {
  const index_t big = index_t{1} << 62;
  const std::vector<strata::Axis> axes{{2, big, 2, 0, nullptr}, {2, big, 2, 0, nullptr}};
  check_error<strata::ShapeError>([&] { (void)Dimensions::from_axes(axes, 0); },
                                  "Dimensions::from_axes", "overflow int64");
  check_error<strata::ShapeError>(
      [&] { (void)Dimensions::from_axes(axes, std::numeric_limits<index_t>::max()); },
      "Dimensions::from_axes", "overflow");
  // Lowest and highest address both fit, but not the distance between them.
  const std::vector<strata::Axis> wide{{2, -big - big + 1, 2, 0, nullptr},
                                       {2, big + (big - 1), 2, 0, nullptr}};
  check_error<strata::ShapeError>([&] { (void)Dimensions::from_axes(wide, 0); },
                                  "Dimensions::from_axes", "span");
  const Dimensions fine = Dimensions::from_axes(
      std::vector<strata::Axis>{{2, big, 2, 0, nullptr}, {3, 1, 3, 0, nullptr}}, -big);
  CHECK(fine.address_range() == std::pair{-big, index_t{2}});
}

TEST_CASE("local_to_global of any address, INT64_MIN included, is defined", "[layout]") {
  const Dimensions d = Dimensions{4, 5}.select({Range{{}, {}, -1}});
  CHECK(d.local_to_global(std::numeric_limits<index_t>::min()).empty());
  CHECK(d.local_to_global(std::numeric_limits<index_t>::max()).empty());
  CHECK(d.local_to_global(-1).empty());
  CHECK(d.local_to_global(19) == std::vector<Index>{Index{0, 4}});
}

TEST_CASE("aliases() tells whether two indices share an address", "[layout]") {
  const Dimensions d{3, 4};
  CHECK_FALSE(d.aliases());
  CHECK_FALSE(d.transpose().rotate(1, 0).reverse({1}).aliases());
  CHECK_FALSE(d.select({V{2, 0}, Range{{}, {}, 2}}).aliases());
  CHECK(d.select({V{2, 0, 2}}).aliases());
  CHECK(d.select({1}).broadcast({2, 4}).aliases());
  CHECK(d.broadcast({3, 8}).aliases());  // tiled
  CHECK_FALSE(d.broadcast({1, 3, 4}).aliases());
  CHECK(Dimensions(Index{2, 2}, Index{1, 1}).aliases());
  CHECK_FALSE(Dimensions(Index{2, 2}, Index{1, 2}).aliases());
  // Interleaved strides that still give distinct addresses: 0 3 2 5 4 7 (decided exactly).
  CHECK_FALSE(Dimensions(Index{3, 2}, Index{2, 3}).aliases());
  CHECK(Dimensions(Index{4, 3}, Index{2, 3}).aliases());  // [0 2] and [3 0] both read 6
}

TEST_CASE("found by fuzzing: squeeze rejects a repeated axis, slices take any step",
          "[layout][fuzz]") {
  check_error<strata::ShapeError>(
      [] {
        (void)Dimensions{1}.squeeze({-1, -1});
      },
      "squeeze", "twice");
  // A step of INT64_MIN selects the first element only (it used to negate the step: UB).
  const Dimensions d{5};
  const Dimensions one = d.select({Range{{}, {}, std::numeric_limits<index_t>::min()}});
  CHECK(one.shape() == Index{1});
  CHECK(one.global_to_local(0) == 4);
  // An empty map never aliases, whatever its strides.
  CHECK_FALSE(Dimensions{3, 0}.select({strata::all, strata::all}).broadcast({3, 0}).aliases());
  CHECK_FALSE(Dimensions{1}.broadcast({3, 0}).aliases());
}

}  // namespace test_layout_dimensions
