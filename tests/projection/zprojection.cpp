// Tests for strata/projection/zprojection.hpp and projections.hpp: the seed's cases, bounds,
// overlaps, costs, and the property that apply(range) bounds every point's region.
#include "strata/projection/zprojection.hpp"

#include "strata/core/error.hpp"
#include "strata/projection/projections.hpp"

#include <catch2/catch.hpp>

#include <limits>
#include <random>

namespace test_projection_zprojection {

using Catch::Matchers::Contains;
using strata::Index;
using strata::ZProjection;
using strata::ZRange;

TEST_CASE("seed 004: fixed views map every point to one region", "[projection][seed]") {
  const ZProjection f = strata::fixed_view_projection(2, {1, 2}, {3, 4});
  CHECK(f.apply(Index{0, 0}) == ZRange({1, 2}, {4, 6}));
  CHECK(f.apply(Index{5, -7}) == ZRange({1, 2}, {4, 6}));
  CHECK(f.apply(ZRange({0, 0}, {10, 10})) == ZRange({1, 2}, {4, 6}));
  CHECK(f.overlap(0, 4) == ZRange({1, 2}, {4, 6}));  // total sharing
}

TEST_CASE("seed 004: linear strides, positive and negative", "[projection][seed]") {
  const ZProjection id = strata::elementwise_projection(2);
  CHECK(id.apply(Index{3, 4}) == ZRange({3, 4}, {4, 5}));
  CHECK(id.apply(ZRange({2, 0}, {4, 8})) == ZRange({2, 0}, {4, 8}));
  CHECK(id.overlap(1, 4).empty());  // no sharing
  // Counting backwards: index i reads tensor cell 9 - i.
  const ZProjection back({{-1}}, {9}, {1});
  CHECK(back.apply(Index{0}) == ZRange({9}, {10}));
  CHECK(back.apply(Index{9}) == ZRange({0}, {1}));
  CHECK(back.apply(ZRange({2}, {5})) == ZRange({5}, {8}));
  CHECK(back.marginal_strides() == std::vector<Index>{{-1}});
}

TEST_CASE("seed 004: axial reduce reads whole rows", "[projection][seed]") {
  const ZProjection sum_rows = strata::axial_reduce_projection(2, 1, 8);  // sum over axis 1
  CHECK(sum_rows.index_rank() == 1);
  CHECK(sum_rows.apply(Index{3}) == ZRange({3, 0}, {4, 8}));
  CHECK(sum_rows.apply(ZRange({0}, {4})) == ZRange({0, 0}, {4, 8}));
  const ZProjection sum_cols = strata::axial_reduce_projection(3, 0, 5);
  CHECK(sum_cols.apply(Index{1, 2}) == ZRange({0, 1, 2}, {5, 2, 3}));
}

TEST_CASE("seed 004: convolution windows cross the borders", "[projection][seed]") {
  // 3x3 kernel, stride 1, padding 1: output (0, 0) reads [-1:2, -1:2].
  const ZProjection w = strata::conv_window_projection({3, 3}, {1, 1}, {1, 1}, {1, 1});
  CHECK(w.apply(Index{0, 0}) == ZRange({-1, -1}, {2, 2}));
  CHECK(w.apply(ZRange({0, 0}, {4, 4})) == ZRange({-1, -1}, {5, 5}));
  CHECK(w.overlap(0, 4).shape() == Index{2, 3});  // neighbours share a 2-row halo
  // Stride 2, dilation 2: window [2o - 1, 2o + 4).
  const ZProjection d = strata::conv_window_projection({3}, {2}, {2}, {1});
  CHECK(d.apply(Index{3}) == ZRange({5}, {10}));
  CHECK(d.overlap(0, 1).shape() == Index{3});
}

TEST_CASE("matmul projections shard the three operands", "[projection]") {
  const auto mm = strata::matmul_projections();
  const ZRange block({0, 8, 4}, {4, 16, 8});  // i in [0, 4), j in [8, 16), k in [4, 8)
  CHECK(mm.lhs.apply(block) == ZRange({0, 4}, {4, 8}));
  CHECK(mm.rhs.apply(block) == ZRange({4, 8}, {8, 16}));
  CHECK(mm.result.apply(block) == ZRange({0, 8}, {4, 16}));
  // Blocks along j re-read the same A block: A's overlap along j is the whole block.
  CHECK(mm.lhs.overlap(1, 8).size() == 1);
  CHECK(mm.lhs.overlap(0, 8).empty());
}

TEST_CASE("broadcast_apply and translate", "[projection]") {
  const ZProjection id = strata::elementwise_projection(1);
  CHECK(id.broadcast_apply(Index{7, 3}, 1) == ZRange({7, 3}, {8, 4}));
  CHECK(id.broadcast_apply(ZRange({0, 2}, {4, 6}), 1) == ZRange({0, 2}, {4, 6}));
  CHECK(id.translate({10}).apply(Index{1}) == ZRange({11}, {12}));
  CHECK(strata::to_string(Index{}) == "[]");
}

TEST_CASE("an empty index box maps to an empty region", "[projection]") {
  const ZProjection w = strata::conv_window_projection({3}, {1}, {1}, {1});
  CHECK(w.apply(ZRange({4}, {4})).empty());
}

TEST_CASE("ZCost estimates blocks from per-point and per-axis factors", "[projection]") {
  const strata::ZCost cost{2.0, {10.0, 0.5}};
  CHECK(cost.estimate(ZRange({0, 0}, {4, 8})) == Approx(2.0 * 32 + 10.0 * 4 + 0.5 * 8));
  CHECK(cost.estimate(ZRange({0, 0}, {0, 8})) == 0.0);
  CHECK(strata::ZCost{}.estimate(ZRange({0}, {5})) == 5.0);
  CHECK_THROWS_AS(cost.estimate(ZRange({0}, {5})), strata::ShapeError);
}

TEST_CASE("bad projections are rejected", "[projection][errors]") {
  CHECK_THROWS_AS(ZProjection({{1, 0}, {0}}, {0, 0}, {1, 1}), strata::ShapeError);
  CHECK_THROWS_WITH(ZProjection({{1, 0}, {0}}, {0, 0}, {1, 1}),
                    Contains("ZProjection: ") && Contains("matrix row 1"));
  CHECK_THROWS_WITH(ZProjection({{1}}, {0, 0}, {1}),
                    Contains("ZProjection: ") && Contains("different lengths"));
  CHECK_THROWS_WITH(ZProjection({{1}}, {0}, {-1}),
                    Contains("ZProjection: ") && Contains("negative extent -1"));
  const ZProjection id = strata::elementwise_projection(2);
  CHECK_THROWS_WITH(id.apply(Index{1}), Contains("apply: ") && Contains("index rank is 2"));
  CHECK_THROWS_AS(id.apply(ZRange({0}, {1})), strata::ShapeError);
  CHECK_THROWS_AS(id.broadcast_apply(Index{1, 2}, 1), strata::ShapeError);
  CHECK_THROWS_AS(id.overlap(0, 0), strata::ShapeError);
  CHECK_THROWS_AS(id.overlap(2, 1), strata::IndexError);
  CHECK_THROWS_AS(strata::conv_window_projection({3}, {0}, {1}, {0}), strata::ShapeError);
  CHECK_THROWS_AS(strata::conv_window_projection({3}, {1, 1}, {1}, {0}), strata::ShapeError);
  // The window extent dilation * (kernel - 1) + 1 overflows: a ShapeError, not UB.
  const strata::index_t huge = strata::index_t{1} << 62;
  CHECK_THROWS_WITH(strata::conv_window_projection({huge}, {1}, {4}, {0}),
                    Contains("conv_window_projection: ") && Contains("kernel 4611686018427387904"));
  CHECK_THROWS_AS(strata::conv_window_projection({4}, {1}, {huge}, {0}), strata::ShapeError);
  // 7 * (max / 7) is max itself (7 divides 2^63 - 1): the + 1 overflows.
  const strata::index_t top = std::numeric_limits<strata::index_t>::max();
  CHECK_THROWS_AS(strata::conv_window_projection({top / 7 + 1}, {1}, {7}, {0}), strata::ShapeError);
  CHECK_THROWS_AS(strata::axial_reduce_projection(2, 2, 4), strata::IndexError);
}

TEST_CASE("apply(range) is the bounding box of every point's region", "[projection][property]") {
  std::mt19937_64 rng(404);
  const auto uniform = [&](strata::index_t lo, strata::index_t hi) {
    return std::uniform_int_distribution<strata::index_t>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 2000; ++trial) {
    const auto n = static_cast<std::size_t>(uniform(0, 3));
    const auto m = static_cast<std::size_t>(uniform(0, 3));
    std::vector<Index> matrix(n, Index(m));
    for (auto& row : matrix) {
      for (auto& v : row) {
        v = uniform(-3, 3);
      }
    }
    Index offset(m);
    Index shape(m);
    for (std::size_t j = 0; j < m; ++j) {
      offset[j] = uniform(-5, 5);
      shape[j] = uniform(0, 3);
    }
    const ZProjection p(matrix, offset, shape);
    Index lo(n);
    Index hi(n);
    for (std::size_t i = 0; i < n; ++i) {
      lo[i] = uniform(-4, 4);
      hi[i] = lo[i] + uniform(0, 4);
    }
    const ZRange block(lo, hi);
    std::vector<ZRange> regions;
    for (const auto& point : block.points()) {
      regions.push_back(p.apply(point));
    }
    INFO("projection " << p << " block " << block);
    if (block.empty()) {
      // A rank-0 region has no axis to be empty along: it is the single rank-0 cell.
      REQUIRE((p.apply(block).empty() || m == 0));
      continue;
    }
    const ZRange expected = ZRange::bounding(regions);
    if (expected.empty()) {  // zero-extent regions: compare the starts' bounds
      REQUIRE(p.apply(block).empty());
      continue;
    }
    REQUIRE(p.apply(block) == expected);
  }
}

TEST_CASE("apply checks its arithmetic on coefficients near 2^62", "[projection][errors]") {
  const strata::index_t big = strata::index_t{1} << 62;
  const ZProjection p({Index{big}}, Index{0}, Index{1});
  CHECK(p.apply(Index{1}) == ZRange({big}, {big + 1}));
  CHECK_THROWS_AS(p.apply(Index{2}), strata::ShapeError);
  CHECK_THROWS_WITH(p.apply(ZRange({0}, {3})), Contains("apply: ") && Contains("overflow"));
  CHECK_THROWS_AS(p.broadcast_apply(Index{std::numeric_limits<strata::index_t>::max(), 0}, 1),
                  strata::ShapeError);
  CHECK_THROWS_AS(p.broadcast_apply(Index{0}, std::numeric_limits<strata::index_t>::max()),
                  strata::ShapeError);
}

TEST_CASE("found by fuzzing: apply is exact when only a partial sum overflows",
          "[projection][fuzz]") {
  const strata::index_t top = std::numeric_limits<strata::index_t>::max();
  // offset + (-2) * top fits although (-2) * top alone does not.
  const ZProjection p({Index{top}}, Index{top}, Index{1});
  CHECK(p.apply(Index{-1}) == ZRange({0}, {1}));
  CHECK(p.apply(ZRange({-2}, {0})) == ZRange({-top}, {1}));
  // An empty box whose start does not map still gives an empty region.
  CHECK(p.apply(ZRange({-4}, {-4})).empty());
  const ZProjection flat({Index{top}}, Index{top}, Index{0});
  CHECK(flat.apply(ZRange({-4}, {-2})).empty());
}

}  // namespace test_projection_zprojection
