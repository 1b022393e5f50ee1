// Replays the NumPy-generated chains of tests/data/dimensions_chains.txt on strata::Dimensions.
#include "check_error.hpp"
#include "strata/core/error.hpp"
#include "strata/layout/dimensions.hpp"

#include "layout/chain_steps.hpp"
#include "layout/view_helpers.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>

namespace test_layout_dimensions_conformance {

using strata::Dimensions;
using strata::Index;
using strata::index_t;

namespace {

using strata::test::read_indices;

/// A view over a buffer: what NumPy's array is in the replay.
struct View {
  std::vector<index_t> buffer;
  Dimensions dims;

  std::vector<index_t> values() const {
    std::vector<index_t> out;
    for (const index_t a : strata::test::addresses(dims)) {
      out.push_back(buffer[static_cast<std::size_t>(a)]);
    }
    return out;
  }
};

}  // namespace

TEST_CASE("Dimensions matches NumPy on random chains of views", "[layout][numpy]") {
  View view;
  int chains = 0;
  int reshapes = 0;
  int copies = 0;
  int diagonals = 0;
  strata::test::replay_cases(
      STRATA_TEST_DATA_DIR "/dimensions_chains.txt", "chain",
      [&](std::istringstream& in) { (void)in; },
      [&](const std::string& op, std::istringstream& in) {
        diagonals += op == "diagonal" ? 1 : 0;
        if (op == "shape") {
          const Index shape = read_indices(in);
          view.dims = Dimensions(shape);
          view.buffer.resize(static_cast<std::size_t>(view.dims.size()));
          std::iota(view.buffer.begin(), view.buffer.end(), index_t{0});
        } else if (strata::test::apply_view_step(view.dims, op, in)) {
        } else if (op == "reshape") {
          const Index shape = read_indices(in);
          ++reshapes;
          try {
            view.dims = view.dims.reshape(shape);
          } catch (const strata::LayoutError&) {
            // NumPy copies here; so does the replay, then reshapes the copy.
            ++copies;
            View copy{view.values(), Dimensions(view.dims.shape())};
            view = copy;
            view.dims = view.dims.reshape(shape);
          }
        } else if (op == "expect_shape") {
          REQUIRE(view.dims.shape() == read_indices(in));
        } else if (op == "expect") {
          const Index expected = read_indices(in);
          const auto got = view.values();
          REQUIRE(std::vector<index_t>(expected.begin(), expected.end()) == got);
        } else if (op == "end") {
          ++chains;
        } else {
          FAIL("unknown step '" << op << "'");
        }
      });
  CHECK(chains >= 1000);
  // Most reshapes are views; a few need the copy NumPy would make too.
  CHECK(reshapes > 100);
  CHECK(copies < reshapes);
  CHECK(diagonals > 200);
}

}  // namespace test_layout_dimensions_conformance
