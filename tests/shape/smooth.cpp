// Smooth and SmoothView: extents, slicing with origin, chipping, iteration, errors.
#include "strata/shape/smooth.hpp"

#include "check_error.hpp"
#include "shape/collect.hpp"

#include <catch2/catch.hpp>

#include <vector>

namespace test_shape_smooth {

using strata::Index;
using strata::Smooth;
using strata::SmoothView;

using strata::test::collect;

TEST_CASE("Smooth describes hyper-rectangles", "[shape][smooth]") {
  SECTION("the empty braces are the rank-0 scalar shape of size 1") {
    const Smooth scalar{};
    CHECK(scalar.rank() == 0);
    CHECK(scalar.size() == 1);
    CHECK(collect(scalar.indices()) == std::vector<Index>{Index{}});
  }
  SECTION("an axis of extent 0 makes an empty shape, distinct from the scalar") {
    const Smooth empty{0};
    CHECK(empty.rank() == 1);
    CHECK(empty.size() == 0);
    CHECK(empty.empty());
    CHECK(collect(empty.indices()).empty());
    CHECK_FALSE(empty == Smooth{});
  }
  SECTION("extents, size, printing and equality") {
    const Smooth s{3, 4};
    CHECK(s.size() == 12);
    CHECK(s.extent(1) == 4);
    CHECK(s.to_string() == "Smooth[3 4]");
    CHECK(s == Smooth{3, 4});
    CHECK_FALSE(s == Smooth{4, 3});
  }
  SECTION("indices are row-major") {
    CHECK(collect(Smooth{2, 2}.indices()) == std::vector<Index>{{0, 0}, {0, 1}, {1, 0}, {1, 1}});
  }
}

TEST_CASE("slices keep their origin, offsets start at zero", "[shape][smooth]") {
  const Smooth s{3, 4};
  const SmoothView box = s.slice({1, 2}, {3, 4});
  CHECK(box.to_string() == "Smooth[2 2] at [1 2]");
  CHECK(collect(box.indices()) == std::vector<Index>{{1, 2}, {1, 3}, {2, 2}, {2, 3}});
  CHECK(collect(box.offsets()) == std::vector<Index>{{0, 0}, {0, 1}, {1, 0}, {1, 1}});
  SECTION("a slice of a slice takes absolute bounds") {
    const SmoothView inner = box.slice({2, 3}, {3, 4});
    CHECK(collect(inner.indices()) == std::vector<Index>{{2, 3}});
  }
  SECTION("position and index_at use absolute indices") {
    CHECK(box.position({2, 2}) == 2);
    CHECK(box.index_at(3) == Index{2, 3});
    CHECK(box.contains({1, 2}));
    CHECK_FALSE(box.contains({0, 0}));
  }
  SECTION("chip drops a mode and keeps the others' origin") {
    const SmoothView row = box.chip(0, 2);
    CHECK(row.to_string() == "Smooth[2] at [2]");
    CHECK(s.chip(1, 0).to_string() == "Smooth[3] at [0]");
  }
}

TEST_CASE("Smooth rejects bad input and stays unchanged", "[shape][smooth][errors]") {
  using strata::IndexError;
  using strata::ShapeError;
  using strata::test::check_error;
  check_error<ShapeError>([] { (void)Smooth{2, -1}; }, "Smooth", "-1");
  check_error<ShapeError>([] { (void)Smooth{1L << 40, 1L << 40}; }, "Smooth", "int64");
  const Smooth s{3, 4};
  check_error<IndexError>([&] { (void)s.slice({2, 0}, {1, 4}); }, "slice", "exceeds");
  check_error<IndexError>([&] { (void)s.slice({0, 0}, {4, 4}); }, "slice", "[0, 4)");
  check_error<IndexError>([&] { (void)s.slice({0}, {1}); }, "slice", "2 entries");
  check_error<IndexError>([&] { (void)s.chip(0, 3); }, "chip", "index 3");
  check_error<IndexError>([&] { (void)s.chip(2, 0); }, "chip", "mode 2");
  check_error<IndexError>([&] { (void)s.extent(-1); }, "extent", "mode -1");
  check_error<IndexError>([&] { (void)s.position({3, 0}); }, "position", "[3 0]");
  check_error<IndexError>([&] { (void)s.index_at(12); }, "index_at", "12");
  CHECK(s == Smooth{3, 4});
}

}  // namespace test_shape_smooth
