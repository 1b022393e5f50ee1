// Tests of strata/contract/jagged.hpp: contractions of jagged tensors row by row (batched
// products with a ragged mode), against the naive loop row by row on random specs with random
// row lengths, by hand, and their bad inputs.
#include "strata/contract/contract.hpp"

#include "check_error.hpp"
#include "random_problems.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <variant>
#include <vector>

namespace test_contract_jagged {

using strata::Index;
using strata::index_t;
using strata::Jagged;
using strata::JaggedTensor;
using strata::Scaling;
using strata::Tensor;
using strata::test::check_error;
using strata::test::Problem;
using strata::test::random_problem;
using strata::test::reference;
using strata::test::uniform;

namespace {

/// An operand: jagged (its outer axis labelled 'z') or dense (with or without a 'z' axis).
using Arg = std::variant<JaggedTensor<double>, Tensor<double>>;

/// Calls `f(operands...)` with each operand as its own type.
template <class F>
void with_operands(const std::vector<Arg>& args, F&& f) {
  switch (args.size()) {
    case 1:
      std::visit([&](const auto& a) { f(a); }, args[0]);
      break;
    case 2:
      std::visit([&](const auto& a, const auto& b) { f(a, b); }, args[0], args[1]);
      break;
    default:
      std::visit([&](const auto& a, const auto& b, const auto& c) { f(a, b, c); }, args[0], args[1],
                 args[2]);
      break;
  }
}

/// A label's extent in a problem as its shapes make it (an axis of extent 1 broadcasts; a
/// label whose every axis has extent 1 has extent 1), the reference loop's rule.
index_t label_extent(const Problem& p, char c) {
  index_t extent = -1;
  for (std::size_t k = 0; k < p.inputs.size(); ++k) {
    for (std::size_t a = 0; a < p.inputs[k].size(); ++a) {
      if (p.inputs[k][a] == c) {
        const index_t e = p.shapes[k][a];
        extent = extent < 0 ? e : (extent == 0 || e == 0 ? 0 : std::max(extent, e));
      }
    }
  }
  return extent;
}

double small(std::mt19937_64& rng) {
  return static_cast<double>(uniform(rng, -3, 3));
}

/// One random batched problem: a random einsum problem of one row, the outer label 'z' added
/// to a random non-empty set of its operands (jagged ones; dense ones now and then), one label
/// of the jagged operands only made ragged (its extent drawn per row), and the rows' data.
struct Batched {
  Problem row;                                    // one row's problem, with row 0's shapes
  std::vector<Arg> args;                          // the operands
  std::vector<std::vector<Tensor<double>>> rows;  // rows[r][k]: operand k's view at row r
  std::vector<Problem> row_problems;              // row r's problem (its shapes)
  std::string spec_rows_kept;                     // "z" first in the output
  std::string spec_rows_summed;                   // 'z' not in the output
  index_t n = 0;
};

Batched random_batched(std::mt19937_64& rng) {
  Batched b;
  do {
    b.row = random_problem(rng);
  } while (b.row.inputs.size() > 3);
  const std::size_t ops = b.row.inputs.size();
  b.n = uniform(rng, 0, 5);
  // Which operands are jagged (at least one, of row rank >= 1), which dense ones carry 'z'.
  std::vector<int> kind(ops, 0);  // 0 dense, 1 dense with 'z', 2 jagged
  std::vector<std::size_t> can;
  for (std::size_t k = 0; k < ops; ++k) {
    if (!b.row.inputs[k].empty()) {
      can.push_back(k);
    }
  }
  if (can.empty()) {
    return random_batched(rng);
  }
  for (std::size_t k = 0; k < ops; ++k) {
    const index_t roll = uniform(rng, 0, 3);
    kind[k] = !b.row.inputs[k].empty() && roll >= 2 ? 2 : (roll == 1 ? 1 : 0);
  }
  kind[can[static_cast<std::size_t>(uniform(rng, 0, static_cast<index_t>(can.size()) - 1))]] = 2;
  // The ragged label: one of the jagged operands' labels that no dense operand has.
  std::string candidates;
  for (std::size_t k = 0; k < ops; ++k) {
    for (const char c : b.row.inputs[k]) {
      bool in_dense = false;
      for (std::size_t j = 0; j < ops; ++j) {
        in_dense = in_dense || (kind[j] != 2 && b.row.inputs[j].find(c) != std::string::npos);
      }
      if (kind[k] == 2 && !in_dense) {
        candidates.push_back(c);
      }
    }
  }
  const char ragged = candidates.empty()
                          ? '\0'
                          : candidates[static_cast<std::size_t>(
                                uniform(rng, 0, static_cast<index_t>(candidates.size()) - 1))];
  // Each row's problem: the ragged label's extent drawn per row (every axis of it full).
  for (index_t r = 0; r < b.n; ++r) {
    Problem p = b.row;
    if (ragged != '\0') {
      const index_t e = uniform(rng, 0, 4);
      p.extents[ragged] = e;
      for (std::size_t k = 0; k < ops; ++k) {
        for (std::size_t a = 0; a < p.inputs[k].size(); ++a) {
          if (p.inputs[k][a] == ragged) {
            p.shapes[k][a] = e;
          }
        }
      }
    }
    b.row_problems.push_back(p);
  }
  // The operands and their row views.
  b.rows.resize(static_cast<std::size_t>(b.n));
  for (auto& row : b.rows) {
    row.resize(ops);
  }
  std::string inputs;
  for (std::size_t k = 0; k < ops; ++k) {
    std::string labels = b.row.inputs[k];
    if (kind[k] == 2) {
      std::vector<index_t> extents;
      std::vector<double> values;
      for (index_t r = 0; r < b.n; ++r) {
        const Index& s = b.row_problems[static_cast<std::size_t>(r)].shapes[k];
        extents.insert(extents.end(), s.begin(), s.end());
        for (index_t i = 0; i < strata::checked_size(s, "test"); ++i) {
          values.push_back(small(rng));
        }
      }
      auto jt = JaggedTensor<double>::from_values(
          values, Jagged::from_extents(Index{b.n}, static_cast<int>(labels.size()), extents));
      for (index_t r = 0; r < b.n; ++r) {
        b.rows[static_cast<std::size_t>(r)][k].rebind(jt.piece(r).copy());
      }
      b.args.emplace_back(jt);
      labels.insert(labels.begin(), 'z');
    } else if (kind[k] == 1) {
      // 'z' at a random axis, extent n (or 1 now and then: broadcast over the rows).
      const auto at =
          static_cast<std::size_t>(uniform(rng, 0, static_cast<index_t>(labels.size())));
      Index shape = b.row.shapes[k];
      const index_t extent = uniform(rng, 0, 4) == 0 ? 1 : b.n;
      shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(at), extent);
      Tensor<double> t(shape);
      for (auto&& x : t) {
        x = small(rng);
      }
      for (index_t r = 0; r < b.n; ++r) {
        std::vector<strata::Selector> sel(at, strata::Selector(strata::all));
        sel.emplace_back(extent == 1 ? index_t{0} : r);
        b.rows[static_cast<std::size_t>(r)][k].rebind(t.select(sel).copy());
      }
      b.args.emplace_back(t);
      labels.insert(labels.begin() + static_cast<std::ptrdiff_t>(at), 'z');
    } else {
      Tensor<double> t(b.row.shapes[k]);
      for (auto&& x : t) {
        x = small(rng);
      }
      for (index_t r = 0; r < b.n; ++r) {
        b.rows[static_cast<std::size_t>(r)][k].rebind(t);
      }
      b.args.emplace_back(t);
    }
    inputs += (k == 0 ? "" : ",") + labels;
  }
  b.spec_rows_kept = inputs + "->z" + b.row.output;
  b.spec_rows_summed = inputs + "->" + b.row.output;
  return b;
}

void check_random_batches(std::uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  int ragged_results = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const Batched b = random_batched(rng);
    INFO("trial " << trial << ": " << b.spec_rows_kept << " over " << b.n << " rows");
    std::vector<std::vector<double>> want;
    std::vector<double> summed;
    for (index_t r = 0; r < b.n; ++r) {
      const auto& p = b.row_problems[static_cast<std::size_t>(r)];
      want.push_back(reference(p, b.rows[static_cast<std::size_t>(r)]));
      summed.resize(want.back().size(), 0.0);
      for (std::size_t i = 0; i < summed.size(); ++i) {
        summed[i] += want.back()[i];
      }
    }
    with_operands(b.args, [&](const auto&... x) {
      if constexpr (strata::detail::any_jagged_v<decltype(x)...>) {
        // A jagged result when the row has at least one output label.
        if (!b.row.output.empty()) {
          const auto check = [&](const JaggedTensor<double>& got) {
            REQUIRE(got.shape().n_rows() == b.n);
            for (index_t r = 0; r < b.n; ++r) {
              REQUIRE(got.piece(r).to_vector() == want[static_cast<std::size_t>(r)]);
            }
          };
          for (const int threads : strata::test::thread_counts) {
            strata::test::with_threads(
                threads, [&] { check(strata::einsum(strata::par, b.spec_rows_kept, x...)); });
          }
          check(strata::einsum(strata::seq, b.spec_rows_kept, x...));
          ++ragged_results;
        }
        // Summed over the rows, into a dense tensor with alpha and beta.
        if (b.n > 0) {
          Index shape;
          for (const char c : b.row.output) {
            shape.push_back(label_extent(b.row_problems[0], c));
          }
          bool fixed = true;  // every row makes this shape (no ragged output label)
          for (const auto& p : b.row_problems) {
            for (const char c : b.row.output) {
              fixed = fixed && label_extent(p, c) == label_extent(b.row_problems[0], c);
            }
          }
          if (fixed) {
            for (const int threads : strata::test::thread_counts) {
              strata::test::with_threads(threads, [&] {
                Tensor<double> out(shape);
                out.fill(1.0);
                strata::einsum_into(out, Scaling{2.0, 3.0}, b.spec_rows_summed, x...);
                const std::vector<double> got = out.to_vector();
                REQUIRE(got.size() == summed.size());
                for (std::size_t i = 0; i < got.size(); ++i) {
                  REQUIRE(got[i] == 2.0 * summed[i] + 3.0);
                }
              });
            }
          }
        }
      }
    });
  }
  CHECK(ragged_results > trials / 3);
}

JaggedTensor<double> jagged(std::vector<double> values, std::initializer_list<index_t> extents,
                            int rank = 2) {
  const std::vector<index_t> e(extents);
  return JaggedTensor<double>::from_values(
      std::move(values),
      Jagged::from_extents(Index{static_cast<index_t>(e.size()) / rank}, rank, e));
}

}  // namespace

TEST_CASE("jagged einsum agrees with a naive loop row by row on random specs",
          "[contract][property]") {
  check_random_batches(50, 300);
}

TEST_CASE("jagged tensors contract row by row", "[contract]") {
  // Three rows of 2, 1 and 0 vectors of length 2.
  const auto x = jagged({1, 2, 3, 4, 5, 6}, {2, 2, 1, 2, 0, 2});
  const Tensor<double> w{{1, 1, 0}, {0, 2, 1}};  // 2 x 3

  SECTION("each row times a shared matrix: n * var * 3") {
    const JaggedTensor<double> y = strata::einsum("bij,jk->bik", x, w);
    REQUIRE(y.shape().n_rows() == 3);
    CHECK(y.piece(0).shape() == Index{2, 3});
    // [1 2] w = [1 5 2], [3 4] w = [3 11 4], [5 6] w = [5 17 6]
    CHECK(y.piece(0).to_vector() == std::vector<double>{1, 5, 2, 3, 11, 4});
    CHECK(y.piece(1).to_vector() == std::vector<double>{5, 17, 6});
    CHECK(y.piece(2).shape() == Index{0, 3});
  }
  SECTION("rows of two jagged tensors of matching lengths: x_b^T y_b, and their sum") {
    const auto v = jagged({1, 0, 2, 1}, {2, 1, 1, 2, 0, 1});  // rows of 2, 1, 0 by 1 column
    const JaggedTensor<double> g = strata::einsum("bij,bik->bjk", x, v);
    // Row 0: x_0^T v_0 = [1 3; 2 4] [1; 0] = [1; 2]; row 1: [5; 6] [2 1] = [10 5; 12 6];
    // row 2: no vectors, a 2 x 1 of zeros.
    CHECK(g.piece(0).to_vector() == std::vector<double>{1, 2});
    CHECK(g.piece(1).shape() == Index{2, 2});
    CHECK(g.piece(1).to_vector() == std::vector<double>{10, 5, 12, 6});
    CHECK(g.piece(2).shape() == Index{2, 1});
    CHECK(g.piece(2).to_vector() == std::vector<double>{0, 0});
    // One value per row: the rows' sums of squares, into a dense [3].
    Tensor<double> norms({3});
    strata::einsum_into(norms, "bij,bij->b", x, x);
    CHECK(norms.to_vector() == std::vector<double>{1 + 4 + 9 + 16, 25 + 36, 0});
    // Summed over the rows: the Gram matrix of all vectors.
    Tensor<double> gram({2, 2});
    strata::einsum_into(gram, "bij,bik->jk", x, x);
    CHECK(gram.to_vector() ==
          std::vector<double>{1 + 9 + 25, 2 + 12 + 30, 2 + 12 + 30, 4 + 16 + 36});
  }
  SECTION("a dense operand carrying the outer label gives each row its own matrix") {
    Tensor<double> per_row({3, 2, 1});
    per_row.select({0}) = Tensor<double>{{1}, {1}};
    per_row.select({1}) = Tensor<double>{{1}, {-1}};
    per_row.select({2}) = Tensor<double>{{9}, {9}};
    const JaggedTensor<double> y = strata::einsum("bij,bjk->bik", x, per_row);
    CHECK(y.piece(0).to_vector() == std::vector<double>{3, 7});
    CHECK(y.piece(1).to_vector() == std::vector<double>{-1});
    CHECK(y.piece(2).size() == 0);
  }
  SECTION("into a jagged tensor with alpha and beta, in float from double operands") {
    auto y = JaggedTensor<float>::full(Jagged::from_extents(Index{3}, 2, {2, 3, 1, 3, 0, 3}), 1.0F);
    strata::einsum_into(y, Scaling{2.0, -1.0}, "bij,jk->bik", x, w);
    CHECK(y.piece(1).to_vector() == std::vector<float>{9, 33, 11});
    // A scale with an imaginary part on a real output: TypeError, nothing written.
    check_error<strata::TypeError>(
        [&] { strata::einsum_into(y, Scaling{std::complex<double>(0, 1)}, "bij,jk->bik", x, w); },
        "einsum_into", "alpha = (0+1j)");
    CHECK(y.piece(1).to_vector() == std::vector<float>{9, 33, 11});
    Tensor<double> norms({3});
    check_error<strata::TypeError>(
        [&] {
          strata::einsum_into(norms, Scaling{1.0, std::complex<double>(0, -2)}, "bij,bij->b", x, x);
        },
        "einsum_into", "beta = (0-2j)");
    CHECK(norms.to_vector() == std::vector<double>{0, 0, 0});
  }
  SECTION("summed over many rows: chunks of rows, the same bits at any thread count") {
    std::mt19937_64 rng(51);
    std::vector<index_t> lengths;
    std::vector<double> values;
    for (int r = 0; r < 70; ++r) {
      lengths.push_back(uniform(rng, 0, 6));
      for (index_t i = 0; i < 3 * lengths.back(); ++i) {
        values.push_back(std::uniform_real_distribution<double>(-1, 1)(rng));
      }
    }
    std::vector<index_t> extents;
    for (const index_t n : lengths) {
      extents.insert(extents.end(), {n, 3});
    }
    const auto v =
        JaggedTensor<double>::from_values(values, Jagged::from_extents(Index{70}, 2, extents));
    // The Gram matrix of all vectors, by a plain loop over the values (row order).
    std::vector<double> want(9, 0.0);
    for (std::size_t at = 0; at < values.size(); at += 3) {
      for (std::size_t j = 0; j < 3; ++j) {
        for (std::size_t k = 0; k < 3; ++k) {
          want[j * 3 + k] += values[at + j] * values[at + k];
        }
      }
    }
    std::vector<double> first;
    for (const int threads : strata::test::thread_counts) {
      strata::test::with_threads(threads, [&] {
        Tensor<double> gram({3, 3});
        strata::einsum_into(gram, "bij,bik->jk", v, v);
        const std::vector<double> got = gram.to_vector();
        for (std::size_t i = 0; i < 9; ++i) {
          REQUIRE(got[i] == Approx(want[i]).margin(1e-12));
        }
        if (first.empty()) {
          first = got;
        }
        REQUIRE(got == first);  // bit for bit
      });
    }
  }
  SECTION("integers: the generic kernel") {
    const auto xi = JaggedTensor<int>::from_values({1, 2, 3}, Jagged::from_lengths(Index{2, 1}));
    Tensor<int> dots({2});
    strata::einsum_into(dots, "bi,bi->b", xi, xi);
    CHECK(dots.to_vector() == std::vector<int>{5, 9});
  }
}

TEST_CASE("jagged contractions reject bad input and write nothing", "[contract]") {
  const auto x = jagged({1, 2, 3, 4, 5, 6}, {2, 2, 1, 2, 0, 2});
  const auto shorter = jagged({1, 2}, {1, 2});                                     // one row
  const auto other = jagged({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {3, 2, 2, 2, 0, 2});  // row 0: 3
  check_error<strata::ShapeError>([&] { (void)strata::einsum("bij,bik->bjk", x, shorter); },
                                  "einsum", "label 'b' (the rows) has extent 3 in operand 0 and 1");
  check_error<strata::ShapeError>([&] { (void)strata::einsum("bij,bik->bjk", x, other); }, "einsum",
                                  "row 0: label 'i' has extent 2 in operand 0 and 3");
  check_error<strata::ShapeError>([&] { (void)strata::einsum("bij,cik->bjk", x, x); }, "einsum",
                                  "operand 0's is 'b' and operand 1's is 'c'");
  check_error<strata::ShapeError>([&] { (void)strata::einsum("bij,bik->jk", x, x); }, "einsum",
                                  "write it with einsum_into");
  check_error<strata::ShapeError>([&] { (void)strata::einsum("bij,bi%->bjk", x, x); }, "einsum",
                                  "character '%' at position 6");
  const auto lists = JaggedTensor<double>::from_values(
      {1, 2, 3}, Jagged(Index{1}, {strata::Shape(Jagged::from_lengths(Index{1, 2}))}));
  check_error<strata::ShapeError>([&] { (void)strata::einsum("bij,jk->bik", lists, x); }, "einsum",
                                  "takes one outer mode and rows that are tensors");
  auto y = JaggedTensor<double>::full(Jagged::from_extents(Index{3}, 2, {2, 3, 1, 3, 1, 3}), 7.0);
  const Tensor<double> w({2, 3});
  check_error<strata::ShapeError>([&] { strata::einsum_into(y, "bij,jk->bik", x, w); },
                                  "einsum_into", "row 2 of the output has shape [1 3]");
  CHECK(y.piece(0).to_vector() == std::vector<double>(6, 7.0));
  Tensor<double> gram({2, 3});
  gram.fill(5.0);
  check_error<strata::ShapeError>([&] { strata::einsum_into(gram, "bij,bik->jk", x, x); },
                                  "einsum_into", "the output has shape [2 3] but row 0");
  CHECK(gram.to_vector() == std::vector<double>(6, 5.0));
}

}  // namespace test_contract_jagged
