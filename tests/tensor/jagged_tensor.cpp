// JaggedTensor: values + offsets, element access, rows as Tensor views, dense round trips.
#include "strata/tensor/jagged_tensor.hpp"

#include "check_error.hpp"
#include "strata/tensor/algorithms.hpp"
#include "strata/tensor/generators.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <numeric>
#include <random>
#include <vector>

namespace test_tensor_jagged_tensor {

using strata::Index;
using strata::index_t;
using strata::Jagged;
using strata::JaggedTensor;
using strata::Smooth;
using strata::Tensor;

TEST_CASE("a jagged tensor stores rows one after another", "[tensor][jagged]") {
  auto j = JaggedTensor<int>::from_values({1, 2, 3, 4, 5}, Jagged::from_lengths({3, 0, 2}));
  CHECK(std::vector<index_t>(j.offsets().begin(), j.offsets().end()) ==
        std::vector<index_t>{0, 3, 3, 5});
  CHECK(j.at({0, 2}) == 3);
  CHECK(j.at({2, 0}) == 4);
  CHECK(j.piece(2) == Tensor<int>::of({4, 5}));
  CHECK(j.piece(1).size() == 0);
  SECTION("a row is a Tensor view sharing the buffer") {
    j.piece(0).reverse().assign(Tensor<int>::of({7, 8, 9}));
    CHECK(j.at({0, 0}) == 9);
    CHECK(j.values() == Tensor<int>::of({9, 8, 7, 4, 5}));
  }
  SECTION("writes by jagged index") {
    j.at({2, 1}) = 50;
    CHECK(j.values()(4) == 50);
  }
  SECTION("to_dense pads with the fill value") {
    CHECK(j.to_dense(-1) == Tensor<int>{{1, 2, 3}, {-1, -1, -1}, {4, 5, -1}});
    CHECK(j.dense_shape() == Index{3, 3});
  }
  SECTION("for_each_row hands out contiguous row values") {
    std::vector<int> sums(3, -1);
    j.for_each_row(strata::seq, [&](index_t r, std::span<int> values) {
      sums[static_cast<std::size_t>(r)] = std::accumulate(values.begin(), values.end(), 0);
    });
    CHECK(sums == std::vector<int>{6, 0, 9});
  }
  SECTION("rows of rank 2") {
    auto m = JaggedTensor<int>::from_values({0, 1, 2, 3, 4, 5, 6, 7},
                                            Jagged{Smooth{2, 3}, Smooth{1, 2}});
    CHECK(m.piece(0) == Tensor<int>{{0, 1, 2}, {3, 4, 5}});
    CHECK(m.at({1, 0, 1}) == 7);
    CHECK(m.to_dense() == Tensor<int>{{{0, 1, 2}, {3, 4, 5}}, {{6, 7, 0}, {0, 0, 0}}});
  }
}

TEST_CASE("rows that are jagged themselves: smooth pieces in storage order", "[tensor][jagged]") {
  // Row 0 has rows of lengths 2 and 1; row 1 has one row of length 3.
  const Jagged shape(
      std::vector<strata::Shape>{Jagged::from_lengths({2, 1}), Jagged::from_lengths({3})});
  auto j = JaggedTensor<int>::from_values({0, 1, 2, 3, 4, 5}, shape);
  CHECK(j.at({0, 1, 0}) == 2);
  CHECK(j.at({1, 0, 2}) == 5);
  CHECK(std::vector<index_t>(j.offsets().begin(), j.offsets().end()) ==
        std::vector<index_t>{0, 3, 6});
  CHECK(j.n_pieces() == 3);
  CHECK(j.piece(1) == Tensor<int>::of({2}));
  CHECK(j.piece_index(2) == Index{1, 0});
  CHECK(j.piece(2) == Tensor<int>::of({3, 4, 5}));
  CHECK(j.dense_shape() == Index{2, 2, 3});
  const Tensor<int> dense = j.to_dense(-1);
  CHECK(dense == Tensor<int>{{{0, 1, -1}, {2, -1, -1}}, {{3, 4, 5}, {-1, -1, -1}}});
  CHECK(JaggedTensor<int>::from_dense(dense, shape).values() == j.values());
  std::vector<int> row_sums;
  j.for_each_row(strata::seq, [&](index_t, std::span<int> v) {
    row_sums.push_back(std::accumulate(v.begin(), v.end(), 0));
  });
  CHECK(row_sums == std::vector<int>{3, 12});
  strata::test::check_error<strata::IndexError>(
      [&] {
        (void)j.at({0, 1, 1});
      },
      "position", "[0 1 1]");
}

TEST_CASE("the pieces of jagged rows over two outer modes, and of their results",
          "[tensor][jagged][property]") {
  // Rows over a 2-D outer grid, each a smooth block or a jagged row of lists (a 4-D shape):
  // every piece's ragged indices, extents and start against a walk of the rows as built.
  std::mt19937 rng(21);
  const auto draw = [&](index_t lo, index_t hi) {
    return std::uniform_int_distribution<index_t>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 30; ++trial) {
    const Index outer{draw(1, 3), draw(0, 3)};
    struct Piece {
      Index prefix;
      Index extents;
      index_t start;
    };
    std::vector<Piece> expected;
    std::vector<strata::Shape> rows;
    index_t at = 0;
    for (index_t i = 0; i < outer[0]; ++i) {
      for (index_t k = 0; k < outer[1]; ++k) {
        if (draw(0, 2) == 0) {  // a smooth block: one piece
          const Index block{draw(0, 3), draw(0, 3)};
          rows.emplace_back(Smooth(block));
          expected.push_back({Index{i, k}, block, at});
          at += block[0] * block[1];
          continue;
        }
        std::vector<index_t> lengths(static_cast<std::size_t>(draw(0, 4)));
        for (std::size_t q = 0; q < lengths.size(); ++q) {
          lengths[q] = draw(0, 5);
          expected.push_back({Index{i, k, static_cast<index_t>(q)}, Index{lengths[q]}, at});
          at += lengths[q];
        }
        rows.emplace_back(Jagged::from_lengths(lengths));
      }
    }
    if (std::all_of(rows.begin(), rows.end(),
                    [](const strata::Shape& s) { return s.is<Smooth>(); })) {
      continue;  // smooth rows are their own pieces, indexed by the table
    }
    std::vector<int> values(static_cast<std::size_t>(at));
    std::iota(values.begin(), values.end(), 0);
    const auto t = JaggedTensor<int>::from_values(values, Jagged(outer, rows));
    const auto check = [&](const JaggedTensor<int>& u) {
      REQUIRE(u.n_pieces() == static_cast<index_t>(expected.size()));
      for (index_t p = 0; p < u.n_pieces(); ++p) {
        const Piece& e = expected[static_cast<std::size_t>(p)];
        CHECK(u.piece_index(p) == e.prefix);
        CHECK(Index(u.piece_extents(p)) == e.extents);
        CHECK(u.piece_offsets()[static_cast<std::size_t>(p)] == e.start);
        CHECK(u.piece_row(p) == e.prefix[0] * outer[1] + e.prefix[1]);
      }
      CHECK(u.piece_offsets().back() == at);
    };
    check(t);
    // A result of the same shape (a copy here) reads the same pieces, without indexing again.
    const JaggedTensor<int> copy = t.copy();
    check(copy);
    CHECK(copy.piece_offsets().data() == t.piece_offsets().data());
    // A tensor to overwrite has the shape and its pieces; written, it holds what was written.
    auto fresh = JaggedTensor<int>::for_overwrite(t.shape());
    check(fresh);
    std::iota(fresh.data(), fresh.data() + fresh.size(), 0);
    CHECK(fresh.values() == t.values());
  }
}

TEST_CASE("the pieces of rows of lists kept as offsets, whole and as a range of rows",
          "[tensor][jagged][property]") {
  // Rows of lists from their counts and lengths (Jagged::from_lists): one piece per list, its
  // row and place in the row, its length and start, against a walk of the lists as drawn; a
  // range of rows reads its own lists, counted from its first value (read from the shape's
  // offsets when the values before it are none, from an index of the pieces otherwise).
  std::mt19937 rng(28);
  const auto draw = [&](index_t lo, index_t hi) {
    return std::uniform_int_distribution<index_t>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 40; ++trial) {
    const index_t n = draw(1, 8);
    Index counts;
    Index lengths;
    std::vector<std::vector<index_t>> rows;
    for (index_t r = 0; r < n; ++r) {
      rows.emplace_back(static_cast<std::size_t>(draw(0, 3)));
      for (index_t& l : rows.back()) {
        l = draw(0, 3);
        lengths.push_back(l);
      }
      counts.push_back(static_cast<index_t>(rows.back().size()));
    }
    const index_t size = std::accumulate(lengths.begin(), lengths.end(), index_t{0});
    std::vector<int> values(static_cast<std::size_t>(size));
    std::iota(values.begin(), values.end(), 0);
    auto t = JaggedTensor<int>::from_values(values, Jagged::from_lists(counts, lengths));
    const index_t a = draw(0, n);
    const index_t b = draw(a, n);
    index_t empty = 0;  // the rows before it hold no values
    for (; empty < n && t.offsets()[static_cast<std::size_t>(empty) + 1] == 0; ++empty) {
    }
    for (const auto& [lo, hi] :
         {std::pair{index_t{0}, n}, std::pair{a, b}, std::pair{std::min(empty + 1, n), n}}) {
      const JaggedTensor<int> u = t.rows(lo, hi);
      INFO("trial " << trial << ", rows [" << lo << ", " << hi << ") of " << t.shape().to_string());
      index_t start = 0;  // the values before row lo
      for (index_t r = 0; r < lo; ++r) {
        for (const index_t l : rows[static_cast<std::size_t>(r)]) {
          start += l;
        }
      }
      index_t p = 0;
      index_t at = 0;
      for (index_t r = lo; r < hi; ++r) {
        const auto& row = rows[static_cast<std::size_t>(r)];
        for (std::size_t q = 0; q < row.size(); ++q, ++p) {
          REQUIRE(p < u.n_pieces());
          CHECK(u.piece_index(p) == Index{r, static_cast<index_t>(q)});
          CHECK(u.piece_row(p) == r - lo);
          CHECK(Index(u.piece_extents(p)) == Index{row[q]});
          CHECK(u.piece_offsets()[static_cast<std::size_t>(p)] == at);
          for (index_t i = 0; i < row[q]; ++i) {  // the piece reads the list's values
            CHECK(u.piece(p)(i) == static_cast<int>(start + at + i));
          }
          at += row[q];
        }
      }
      CHECK(u.n_pieces() == p);
      CHECK(u.piece_offsets().back() == at);
      std::vector<int> seen;  // every piece once, in order, with its values
      u.for_each_piece(strata::seq, [&](index_t q, const Tensor<const int>& piece) {
        CHECK(piece.size() == u.piece_offsets()[static_cast<std::size_t>(q) + 1] -
                                  u.piece_offsets()[static_cast<std::size_t>(q)]);
        for (index_t i = 0; i < piece.size(); ++i) {
          seen.push_back(piece(i));
        }
      });
      CHECK(seen == std::vector<int>(u.data(), u.data() + u.size()));
      REQUIRE(u.list_index() != nullptr);
      CHECK(Index(u.list_index()->counts) ==
            Index(counts.begin() + static_cast<std::ptrdiff_t>(lo),
                  counts.begin() + static_cast<std::ptrdiff_t>(hi)));
    }
  }
}

TEST_CASE("dense -> jagged pieces -> dense round trips on random row lengths",
          "[tensor][jagged][property]") {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 40; ++trial) {
    const auto rows = std::uniform_int_distribution<index_t>(0, 300)(rng);
    std::vector<index_t> lengths;
    for (index_t r = 0; r < rows; ++r) {
      lengths.push_back(std::uniform_int_distribution<index_t>(0, 9)(rng));
    }
    const Jagged shape = Jagged::from_lengths(lengths);
    const index_t width = lengths.empty() ? 0 : *std::max_element(lengths.begin(), lengths.end());
    Tensor<float> dense(Index{rows, width + 2});
    for (index_t r = 0; r < rows; ++r) {
      for (index_t c = 0; c < width + 2; ++c) {
        dense(r, c) =
            c < lengths[static_cast<std::size_t>(r)] ? static_cast<float>(r * 100 + c) : -1.0F;
      }
    }
    const auto jagged = JaggedTensor<float>::from_dense(dense, shape, strata::Parallel{8});
    // Values are the rows' prefixes, row after row.
    index_t k = 0;
    for (index_t r = 0; r < rows; ++r) {
      for (index_t c = 0; c < lengths[static_cast<std::size_t>(r)]; ++c) {
        CHECK(jagged.values()(k++) == static_cast<float>(r * 100 + c));
      }
    }
    const Tensor<float> back = jagged.to_dense(-1.0F, strata::Parallel{8});
    CHECK(back == dense.select({strata::all, strata::Range{0, width}}));
    // Parallel row walk (balanced by row sizes) covers every row once.
    std::vector<float> sums(static_cast<std::size_t>(rows), -1.0F);
    jagged.for_each_row(strata::Parallel{8}, [&](index_t r, std::span<const float> v) {
      sums[static_cast<std::size_t>(r)] = std::accumulate(v.begin(), v.end(), 0.0F);
    });
    for (index_t r = 0; r < rows; ++r) {
      float expected = 0.0F;
      for (index_t c = 0; c < lengths[static_cast<std::size_t>(r)]; ++c) {
        expected += static_cast<float>(r * 100 + c);
      }
      CHECK(sums[static_cast<std::size_t>(r)] == expected);
    }
  }
}

TEST_CASE("dense -> jagged -> dense round trips when rows are jagged themselves",
          "[tensor][jagged][property]") {
  std::mt19937 rng(8);
  for (int trial = 0; trial < 40; ++trial) {
    // At least one row: a jagged shape without rows cannot know its rows' rank.
    const auto rows = std::uniform_int_distribution<index_t>(1, 40)(rng);
    std::vector<strata::Shape> row_shapes;
    std::vector<std::vector<index_t>> lengths;  // lengths[r][q]: row q of row r
    index_t subrows = 0;
    index_t width = 0;
    for (index_t r = 0; r < rows; ++r) {
      lengths.emplace_back();
      const auto n = std::uniform_int_distribution<index_t>(0, 4)(rng);
      for (index_t q = 0; q < n; ++q) {
        lengths.back().push_back(std::uniform_int_distribution<index_t>(0, 5)(rng));
        width = std::max(width, lengths.back().back());
      }
      subrows = std::max(subrows, n);
      row_shapes.emplace_back(Jagged::from_lengths(lengths.back()));
    }
    const Jagged shape(row_shapes);
    // The dense tensor holds r*100 + q*10 + c inside the rows and -1 outside.
    Tensor<int> dense(Index{rows, subrows, width});
    for (index_t r = 0; r < rows; ++r) {
      for (index_t q = 0; q < subrows; ++q) {
        for (index_t c = 0; c < width; ++c) {
          const auto& row = lengths[static_cast<std::size_t>(r)];
          const bool inside =
              q < static_cast<index_t>(row.size()) && c < row[static_cast<std::size_t>(q)];
          dense(r, q, c) = inside ? static_cast<int>(r * 100 + q * 10 + c) : -1;
        }
      }
    }
    const auto jagged = JaggedTensor<int>::from_dense(dense, shape, strata::Parallel{4});
    index_t k = 0;
    for (index_t r = 0; r < rows; ++r) {
      const auto& row = lengths[static_cast<std::size_t>(r)];
      for (index_t q = 0; q < static_cast<index_t>(row.size()); ++q) {
        for (index_t c = 0; c < row[static_cast<std::size_t>(q)]; ++c) {
          CHECK(jagged.values()(k++) == static_cast<int>(r * 100 + q * 10 + c));
          CHECK(jagged.at({r, q, c}) == static_cast<int>(r * 100 + q * 10 + c));
        }
      }
    }
    const Index need = jagged.dense_shape();
    CHECK(jagged.to_dense(-1, strata::Parallel{4}) ==
          dense.select({strata::all, strata::Range{0, need[1]}, strata::Range{0, need[2]}}));
  }
}

TEST_CASE("JaggedTensor rejects bad input and stays unchanged", "[tensor][jagged][errors]") {
  using strata::test::check_error;
  auto j = JaggedTensor<int>::from_values({1, 2, 3}, Jagged::from_lengths({1, 2}));
  check_error<strata::ShapeError>(
      [] {
        (void)JaggedTensor<int>::from_values({1, 2}, Jagged::from_lengths({1, 2}));
      },
      "JaggedTensor::from_values", "2 values");
  check_error<strata::ShapeError>(
      [] {
        (void)JaggedTensor<int>::from_dense(Tensor<int>(Index{2, 1}), Jagged::from_lengths({1, 2}));
      },
      "JaggedTensor::from_dense", "[2 1]");
  check_error<strata::IndexError>([&] { (void)j.at({0, 1}); }, "position", "[0 1]");
  check_error<strata::IndexError>([&] { (void)j.piece(2); }, "piece", "piece 2");
  CHECK(j.values() == Tensor<int>::of({1, 2, 3}));
}

TEST_CASE("JaggedTensor reads a user buffer from one thread only", "[tensor][jagged][parallel]") {
  using Recording = strata::test::ThreadRecordingBuffer<float>;
  const auto values = strata::iota<float>({500, 400}).copy();
  std::vector<index_t> lengths(500);
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    lengths[r] = static_cast<index_t>(r % 400);
  }
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      Recording source(values.to_vector());
      const Tensor<float> user(
          strata::AnyBuffer<float>::shared(std::make_shared<Recording>(source)),
          strata::Dimensions{500, 400});
      const auto jagged = strata::JaggedTensor<float>::from_dense(
          user, strata::Jagged::from_lengths(lengths), strata::Parallel{1});
      CHECK(jagged.at({499, 98}) == values.at({499, 98}));
      CHECK(source.thread_count() == 1);
    });
  }
}

TEST_CASE("a const JaggedTensor hands out read-only rows and pieces", "[tensor][jagged][const]") {
  const auto jagged = strata::JaggedTensor<float>::from_values(
      {1, 2, 3, 4, 5}, strata::Jagged::from_lengths({3, 0, 2}));
  static_assert(std::is_same_v<decltype(jagged.piece(0)), Tensor<const float>>);
  static_assert(std::is_same_v<decltype(jagged.values()), Tensor<const float>>);
  float total = 0;
  jagged.for_each_row(strata::seq, [&](index_t, std::span<const float> row) {
    for (const float v : row) {
      total += v;
    }
  });
  CHECK(total == 15.0F);
}

}  // namespace test_tensor_jagged_tensor
