// Replays tests/data/pad_cases.txt (numpy.pad with wide widths, every mode) through both of
// pad's evaluation paths: the row fast path (contiguous destination rows) and the slab path
// (a transposed destination), and through element-wise reads.
#include "strata/select/pad.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>

namespace test_select_pad_conformance {

using strata::Index;
using strata::index_t;
using strata::PadMode;
using strata::Tensor;

TEST_CASE("pad matches numpy.pad on wide widths along every path", "[select][numpy]") {
  const std::map<std::string, PadMode> modes{{"constant", PadMode::constant},
                                             {"edge", PadMode::edge},
                                             {"reflect", PadMode::reflect},
                                             {"symmetric", PadMode::symmetric},
                                             {"wrap", PadMode::wrap}};
  std::ifstream file(STRATA_TEST_DATA_DIR "/pad_cases.txt");
  REQUIRE(file.good());
  std::string line;
  int cases = 0;
  while (std::getline(file, line)) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    std::istringstream in(line);
    std::string mode;
    index_t value = 0;
    index_t rows = 0;
    index_t cols = 0;
    index_t b0 = 0;
    index_t a0 = 0;
    index_t b1 = 0;
    index_t a1 = 0;
    std::string colon;
    in >> mode >> value >> rows >> cols >> b0 >> a0 >> b1 >> a1 >> colon;
    std::vector<index_t> expected;
    for (index_t v = 0; in >> v;) {
      expected.push_back(v);
    }
    INFO(line.substr(0, line.find(':')));
    std::vector<index_t> values(static_cast<std::size_t>(rows * cols));
    std::iota(values.begin(), values.end(), index_t{0});
    const auto x = Tensor<index_t>::from_vector(values, {rows, cols});
    const auto p = strata::pad(x, {{b0, a0}, {b1, a1}}, modes.at(mode), value);
    const Index shape = p.shape();
    REQUIRE(shape == Index{rows + b0 + a0, cols + b1 + a1});
    REQUIRE(p.materialize().to_vector() == expected);  // the row fast path
    Tensor<index_t> target(Index{shape[1], shape[0]});
    auto transposed = target.transpose();  // rows not contiguous: the slab path
    p.assign_to(transposed);
    REQUIRE(transposed.to_vector() == expected);
    for (index_t i = 0; i < shape[0]; i += 3) {
      for (index_t j = 0; j < shape[1]; j += 2) {
        REQUIRE(p.at({i, j}) == expected[static_cast<std::size_t>(i * shape[1] + j)]);
      }
    }
    ++cases;
  }
  CHECK(cases == 160);
}

}  // namespace test_select_pad_conformance
