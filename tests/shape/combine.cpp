// combine(): einsum-labelled result shapes, outer products, jagged inputs, errors.
#include "strata/shape/combine.hpp"

#include "check_error.hpp"

#include <catch2/catch.hpp>

namespace test_shape_combine {

using strata::combine;
using strata::Jagged;
using strata::Shape;
using strata::Smooth;

TEST_CASE("combine gives the shape of labelled expressions", "[shape][combine]") {
  CHECK(combine("ij,jk->ik", Smooth{2, 3}, Smooth{3, 5}) == Shape(Smooth{2, 5}));
  CHECK(combine("ij->ji", Smooth{2, 3}) == Shape(Smooth{3, 2}));
  CHECK(combine("i,j->ij", Smooth{2}, Smooth{4}) == Shape(Smooth{2, 4}));
  CHECK(combine("ii->i", Smooth{3, 3}) == Shape(Smooth{3}));
  CHECK(combine("ij->", Smooth{3, 3}) == Shape(Smooth{}));
  SECTION("without an arrow the output is the labels seen once, sorted (NumPy)") {
    CHECK(combine("ij,jk", Smooth{2, 3}, Smooth{3, 5}) == Shape(Smooth{2, 5}));
    CHECK(combine("ba", Smooth{2, 3}) == Shape(Smooth{3, 2}));
  }
  SECTION("views combine as their extents") {
    CHECK(combine("ij,jk->ik", Smooth{4, 4}.slice({0, 1}, {2, 4}), Smooth{3, 1}) ==
          Shape(Smooth{2, 1}));
  }
  SECTION("jagged inputs give one result row per row") {
    const Jagged rows = Jagged::from_lengths({1, 2});
    CHECK(combine("ij,k->ijk", rows, Smooth{4}) ==
          Shape(Jagged::from_extents({2}, 2, {1, 4, 2, 4})));
    CHECK(combine("ij->i", rows) == Shape(Smooth{2}));
    CHECK(combine("ij,i->ij", rows, Smooth{2}) == Shape(rows));
    CHECK(combine("ij,jk->ik", Jagged::from_lengths({3, 3}), Smooth{3, 5}) == Shape(Smooth{2, 5}));
  }
}

TEST_CASE("combine rejects bad input", "[shape][combine][errors]") {
  using strata::ShapeError;
  using strata::test::check_error;
  check_error<ShapeError>(
      [] {
        (void)combine("ij,jk->ik", Smooth{2, 3}, Smooth{3});
      },
      "combine", "input 1 \"jk\" has 2 labels");
  check_error<ShapeError>(
      [] {
        (void)combine("ij,jk->ik", Smooth{2, 3}, Smooth{4, 5});
      },
      "combine", "label 'j' has extent 3");
  check_error<ShapeError>(
      [] {
        (void)combine("ij->iz", Smooth{2, 3});
      },
      "combine", "output label 'z'");
  check_error<ShapeError>(
      [] {
        (void)combine("ij,jk->ik", Smooth{2, 3});
      },
      "combine", "2 input terms");
  check_error<ShapeError>([] { (void)combine("i1->i", Smooth{2, 3}); }, "combine", "'1'");
  check_error<ShapeError>([] { (void)combine("ij->ii", Smooth{2, 2}); }, "combine", "repeats");
  check_error<ShapeError>(
      [] {
        (void)combine("ij->ji", Jagged::from_lengths({1, 2}));
      },
      "combine", "must lead the output");
  check_error<ShapeError>(
      [] {
        (void)combine("ij,jk->ik", Jagged::from_lengths({1, 2}), Smooth{2, 2});
      },
      "combine", "row 0");
}

}  // namespace test_shape_combine
