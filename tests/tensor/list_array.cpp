// strata::ListArray (strata/tensor/list_array.hpp): lists given by starts and stops over shared
// values (awkward's and Arrow's ListArray). Views of JaggedTensors (the values shared, the
// offsets read in place), per-list slices and row choices as views against nested-vector
// references on random lists (empty lists, lists of one value, row slices), awkward's documented
// example by hand, packing back to a JaggedTensor, printing, and bad input.
#include "strata/tensor/list_array.hpp"
#include "strata/tensor/jagged_tensor.hpp"

#include "check_error.hpp"
#include "jagged_rows.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <optional>
#include <random>
#include <type_traits>
#include <vector>

namespace test_tensor_list_array {

using strata::Index;
using strata::index_t;
using strata::JaggedTensor;
using strata::ListArray;
using strata::Tensor;
using Rows = strata::test::Rows;

namespace {

/// The lists as nested vectors, read through row().
template <class T>
std::vector<std::vector<T>> lists_of(const ListArray<T>& a) {
  std::vector<std::vector<T>> out;
  for (index_t r = 0; r < a.n_rows(); ++r) {
    const std::span<T> row = a.row(r);
    out.emplace_back(row.begin(), row.end());
  }
  return out;
}

/// Python's `row[start:stop]` (step 1), written from the language reference.
std::vector<double> python_slice(const std::vector<double>& row, std::optional<index_t> start,
                                 std::optional<index_t> stop) {
  const auto n = static_cast<index_t>(row.size());
  const auto clip = [n](std::optional<index_t> v, index_t fallback) {
    if (!v) {
      return fallback;
    }
    const index_t x = *v < 0 ? *v + n : *v;
    return x < 0 ? 0 : (x > n ? n : x);
  };
  const index_t lo = clip(start, 0);
  const index_t hi = clip(stop, n);
  std::vector<double> out;
  for (index_t k = lo; k < hi; ++k) {
    out.push_back(row[static_cast<std::size_t>(k)]);
  }
  return out;
}

/// Whether every list of @p a reads the values of @p owner in place (no copy).
bool inside(const ListArray<double>& a, const double* first, index_t count) {
  for (index_t r = 0; r < a.n_rows(); ++r) {
    const std::span<double> row = a.row(r);
    if (!row.empty() && (row.data() < first || row.data() + row.size() > first + count)) {
      return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("ListArray views of jagged tensors, per-list slices and row choices match references",
          "[list_array]") {
  std::mt19937 rng(20261127);
  std::uniform_int_distribution<int> pick(-6, 6);
  for (int round = 0; round < 25; ++round) {
    const Rows rows = strata::test::random_rows(rng, round % 9, round % 4 == 0 ? 1 : 7, 3, false);
    JaggedTensor<double> t(rows);
    // A slice of the rows too: its lists start where the slice starts.
    const index_t lo = t.shape().n_rows() / 3;
    const JaggedTensor<double> part = t.rows(lo, t.shape().n_rows());
    const Rows part_rows(rows.begin() + lo, rows.end());
    for (const auto& [source, expected] :
         {std::pair{t, rows}, std::pair{JaggedTensor<double>(part), part_rows}}) {
      INFO("round " << round << ", " << expected.size() << " lists");
      const ListArray<double> lists(source);
      CHECK(lists.n_rows() == static_cast<index_t>(expected.size()));
      CHECK(lists_of(lists) == expected);
      CHECK((source.size() == 0 || lists.values().data() == source.data()));  // nothing copied
      CHECK(lists.size() == source.size());
      CHECK(strata::test::rows_of(lists.to_jagged()) == expected);
      // Per-list slices: views over the same values.
      for (int k = 0; k < 6; ++k) {
        const std::optional<index_t> start =
            k % 3 == 0 ? std::nullopt : std::optional<index_t>(pick(rng));
        const std::optional<index_t> stop =
            k % 3 == 1 ? std::nullopt : std::optional<index_t>(pick(rng));
        Rows want;
        for (const auto& row : expected) {
          want.push_back(python_slice(row, start, stop));
        }
        const ListArray<double> sliced = lists.slice_each(start, stop);
        CHECK(lists_of(sliced) == want);
        CHECK(inside(sliced, source.data(), source.size()));
        // A slice of a slice, and the slice packed.
        CHECK(lists_of(sliced.slice_each(1, {})) == [&] {
          Rows twice;
          for (const auto& row : want) {
            twice.push_back(python_slice(row, 1, std::nullopt));
          }
          return twice;
        }());
        CHECK(strata::test::rows_of(sliced.to_jagged()) == want);
      }
      // Rows chosen by index, repeats and negative entries included.
      if (!expected.empty()) {
        const auto n = static_cast<index_t>(expected.size());
        std::uniform_int_distribution<index_t> any(-n, n - 1);
        std::vector<index_t> index(5);
        Rows want;
        for (index_t& i : index) {
          i = any(rng);
          want.push_back(expected[static_cast<std::size_t>(i < 0 ? i + n : i)]);
        }
        const ListArray<double> taken = lists.take_rows(index);
        CHECK(lists_of(taken) == want);
        CHECK(inside(taken, source.data(), source.size()));
        CHECK(lists_of(lists.rows(n / 2, n)) == Rows(expected.begin() + n / 2, expected.end()));
      }
    }
  }
}

TEST_CASE("ListArray from starts and stops: awkward's example, overlaps, writes, printing",
          "[list_array]") {
  // awkward's documented ListArray: starts [0, 3, 3], stops [3, 3, 5] over five values.
  const auto content = Tensor<double>::of({1.1, 2.2, 3.3, 4.4, 5.5});
  const auto lists = ListArray<double>::from_arrays(content, {0, 3, 3}, {3, 3, 5});
  CHECK(strata::to_string(lists) == "[[1.1, 2.2, 3.3], [], [4.4, 5.5]]");
  CHECK(lists.type_string() == "3 * var * float64");
  CHECK(lists.lengths() == Tensor<index_t>::of({3, 0, 2}));
  CHECK(strata::to_string(lists.slice_each(1, {})) == "[[2.2, 3.3], [], [5.5]]");
  CHECK(strata::to_string(lists.slice_each({}, -1)) == "[[1.1, 2.2], [], [4.4]]");
  CHECK(strata::to_string(lists.take_rows({2, 2, 0})) ==
        "[[4.4, 5.5], [4.4, 5.5], [1.1, 2.2, 3.3]]");
  // Lists in any order, overlapping, values left unused: the values are shared, not copied.
  const auto odd = ListArray<double>::from_arrays(content, {3, 0, 1}, {5, 2, 4});
  CHECK(lists_of(odd) == Rows{{4.4, 5.5}, {1.1, 2.2}, {2.2, 3.3, 4.4}});
  CHECK(odd.values().data() == content.data());
  odd.row(1)[1] = 20.0;  // value 1 is in lists 1 and 2 of odd, and in list 0 of lists
  CHECK(odd.row(2)[0] == 20.0);
  CHECK(lists.row(0)[1] == 20.0);
  // to_jagged packs: the result owns its values.
  const JaggedTensor<double> packed = odd.to_jagged();
  CHECK(packed.offsets()[3] == 7);
  odd.row(0)[0] = -1.0;
  CHECK(packed.row(0)[0] == 4.4);
  // Strided values are copied once, then shared.
  auto backwards = Tensor<double>::of({1.0, 2.0, 3.0});
  const auto strided = ListArray<double>::from_arrays(backwards.reverse({0}), {0}, {2});
  CHECK(lists_of(strided) == Rows{{3.0, 2.0}});
  CHECK(strided.values().data() != backwards.data());
  // No lists at all; a jagged tensor without rows.
  CHECK(ListArray<double>().n_rows() == 0);
  CHECK(strata::to_string(ListArray<double>(JaggedTensor<double>(Rows{}))) == "[]");
}

TEST_CASE("ListArray rejects bad input with typed errors naming the list", "[list_array][errors]") {
  using strata::test::check_error;
  const auto content = Tensor<double>::of({1.0, 2.0, 3.0});
  check_error<strata::ShapeError>(
      [&] {
        (void)ListArray<double>::from_arrays(content, {0, 1}, {1});
      },
      "ListArray::from_arrays", "2 starts but 1 stops");
  check_error<strata::IndexError>(
      [&] {
        (void)ListArray<double>::from_arrays(content, {0, 2}, {1, 4});
      },
      "ListArray::from_arrays", "list 1 is values[2:4]");
  check_error<strata::IndexError>([&] { (void)ListArray<double>::from_arrays(content, {2}, {1}); },
                                  "ListArray::from_arrays", "list 0 is values[2:1]");
  check_error<strata::IndexError>([&] { (void)ListArray<double>::from_arrays(content, {-1}, {1}); },
                                  "ListArray::from_arrays", "list 0");
  check_error<strata::ShapeError>(
      [&] {
        (void)ListArray<double>::from_arrays(Tensor<double>(Index{2, 2}), {0}, {1});
      },
      "ListArray::from_arrays", "not 1-D");
  const auto lists = ListArray<double>::from_arrays(content, {0, 1}, {1, 3});
  check_error<strata::IndexError>(
      [&] {
        (void)lists.take_rows({0, 2});
      },
      "ListArray::take_rows", "index 2 (entry 1)");
  check_error<strata::IndexError>([&] { (void)lists.take_rows({-3}); }, "ListArray::take_rows",
                                  "index -3");
  check_error<strata::IndexError>([&] { (void)lists.row(2); }, "ListArray::row", "row 2");
  check_error<strata::IndexError>([&] { (void)lists.rows(1, 3); }, "ListArray::rows", "[1, 3)");
  const auto grid = JaggedTensor<double>::from_values(
      {1.0, 2.0, 3.0}, strata::Jagged::from_extents(Index{1, 2}, 1, Index{1, 2}));
  check_error<strata::ShapeError>([&] { (void)ListArray<double>(grid); }, "ListArray",
                                  "takes the lists of a tensor with one outer axis");
  const JaggedTensor<double> deeper(
      std::vector<std::vector<std::vector<std::vector<double>>>>{{{{1.0}}, {}}, {}});
  CHECK(ListArray<double>(deeper).depth() == 3);  // rows of rank 3 are read level by level
  CHECK(strata::to_string(ListArray<double>(deeper)) == "[[[[1]], []], []]");
  // A ListArray that refused an operation is unchanged.
  CHECK(lists_of(lists) == Rows{{1.0}, {2.0, 3.0}});
}

// ---- Two ragged levels: rows of lists (n * var * var) ----

namespace {

using strata::test::Deep;
using strata::test::deep_tensor;
using strata::test::random_deep;

/// The rows of lists of a depth-2 ListArray as nested vectors, read through row_lists().row().
Deep deep_of(const ListArray<double>& a) {
  REQUIRE(a.depth() == 2);
  Deep out;
  for (index_t r = 0; r < a.n_rows(); ++r) {
    out.push_back(lists_of(a.row_lists(r)));
  }
  return out;
}

/// Whether every list of a depth-2 ListArray reads the values [first, first + count).
bool deep_inside(const ListArray<double>& a, const double* first, index_t count) {
  for (index_t r = 0; r < a.n_rows(); ++r) {
    if (!inside(a.row_lists(r), first, count)) {
      return false;
    }
  }
  return true;
}

/// The random jagged index of a take per row (negative entries too) and its reference result.
template <class Row>
std::pair<JaggedTensor<index_t>, std::vector<Row>> random_take(std::mt19937& rng,
                                                               const std::vector<Row>& rows) {
  std::vector<std::vector<index_t>> index(rows.size());
  std::vector<Row> want(rows.size());
  std::uniform_int_distribution<int> count(0, 4);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto n = static_cast<index_t>(rows[r].size());
    if (n == 0) {
      continue;
    }
    std::uniform_int_distribution<index_t> any(-n, n - 1);
    for (int k = count(rng); k > 0; --k) {
      const index_t i = any(rng);
      index[r].push_back(i);
      want[r].push_back(rows[r][static_cast<std::size_t>(i < 0 ? i + n : i)]);
    }
  }
  return {JaggedTensor<index_t>(index), want};
}

/// The random jagged mask of a filter per row and its reference result.
template <class Row>
std::pair<JaggedTensor<bool>, std::vector<Row>> random_filter(std::mt19937& rng,
                                                              const std::vector<Row>& rows) {
  std::vector<std::vector<bool>> mask(rows.size());
  std::vector<Row> want(rows.size());
  std::bernoulli_distribution keep(0.5);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (const auto& element : rows[r]) {
      mask[r].push_back(keep(rng));
      if (mask[r].back()) {
        want[r].push_back(element);
      }
    }
  }
  return {JaggedTensor<bool>(mask), want};
}

}  // namespace

TEST_CASE(
    "ListArray of rows of lists: slices, reversals, takes and filters at both levels are "
    "views matching references",
    "[list_array]") {
  std::mt19937 rng(20261128);
  std::uniform_int_distribution<int> pick(-5, 5);
  std::uniform_int_distribution<int> n_lists(0, 4);
  for (int round = 0; round < 40; ++round) {
    const bool rectangular = round % 5 == 4;
    const Deep data = random_deep(rng, static_cast<std::size_t>(round % 8), n_lists, rectangular);
    const JaggedTensor<double> t = deep_tensor(data, rectangular);
    // A slice of the rows too: its lists start where the slice starts.
    const index_t lo = t.shape().n_rows() / 3;
    const JaggedTensor<double> part = t.rows(lo, t.shape().n_rows());
    const Deep part_data(data.begin() + lo, data.end());
    for (const auto& [source, expected] :
         {std::pair{t, data}, std::pair{JaggedTensor<double>(part), part_data}}) {
      INFO("round " << round << ", " << expected.size() << " rows"
                    << (rectangular ? ", rectangular" : ""));
      const ListArray<double> events(source);
      const double* const first = source.data();
      const index_t count = source.size();
      REQUIRE(events.depth() == 2);
      CHECK(deep_of(events) == expected);
      CHECK((count == 0 || events.values().data() == first));  // nothing copied
      CHECK(events.size() == count);
      CHECK(strata::to_string(events.to_jagged()) == strata::to_string(source));
      CHECK(events.type_string() == std::to_string(expected.size()) + " * var * var * float64");
      // content(): the lists in stored order.
      Rows all_lists;
      for (const auto& row : expected) {
        all_lists.insert(all_lists.end(), row.begin(), row.end());
      }
      CHECK(lists_of(events.content()) == all_lists);
      for (int k = 0; k < 4; ++k) {
        const std::optional<index_t> start =
            k % 3 == 0 ? std::nullopt : std::optional<index_t>(pick(rng));
        const std::optional<index_t> stop =
            k % 3 == 1 ? std::nullopt : std::optional<index_t>(pick(rng));
        // Axis 1: the lists of each row; axis 2 (-1): the values of each list.
        Deep by_row;
        Deep by_list;
        for (const auto& row : expected) {
          Rows kept;
          const auto n = static_cast<index_t>(row.size());
          const auto [from, taken] = strata::detail::slice_of(n, strata::Range{start, stop});
          for (index_t j = 0; j < taken; ++j) {
            kept.push_back(row[static_cast<std::size_t>(from + j)]);
          }
          by_row.push_back(kept);
          Rows sliced;
          for (const auto& list : row) {
            sliced.push_back(python_slice(list, start, stop));
          }
          by_list.push_back(sliced);
        }
        const ListArray<double> rows_sliced = events.slice_each(start, stop);
        CHECK(deep_of(rows_sliced) == by_row);
        CHECK(deep_of(events.slice_each(start, stop, -2)) == by_row);
        CHECK(deep_inside(rows_sliced, first, count));
        const ListArray<double> lists_sliced = events.slice_each(start, stop, 2);
        CHECK(deep_of(lists_sliced) == by_list);
        CHECK(deep_of(events.slice_each(start, stop, -1)) == by_list);
        CHECK(deep_inside(lists_sliced, first, count));
        CHECK(strata::to_string(lists_sliced.to_jagged()) ==
              strata::to_string(JaggedTensor<double>(by_list)));
      }
      // Reversals: of the lists of each row (a view), of the values of each list (gathered).
      Deep reversed_rows = expected;
      Deep reversed_lists = expected;
      for (std::size_t r = 0; r < expected.size(); ++r) {
        std::reverse(reversed_rows[r].begin(), reversed_rows[r].end());
        for (auto& list : reversed_lists[r]) {
          std::reverse(list.begin(), list.end());
        }
      }
      const ListArray<double> flipped = events.reverse_each();
      CHECK(deep_of(flipped) == reversed_rows);
      CHECK(deep_inside(flipped, first, count));
      CHECK(deep_of(events.reverse_each(2)) == reversed_lists);
      CHECK(deep_of(events.reverse_each(-1).reverse_each(-2)) == [&] {
        Deep both = reversed_lists;
        for (auto& row : both) {
          std::reverse(row.begin(), row.end());
        }
        return both;
      }());
      // Lists chosen and filtered per row: views.
      const auto [index, taken] = random_take(rng, expected);
      const ListArray<double> chosen = events.take_each(index);
      CHECK(deep_of(chosen) == taken);
      CHECK(deep_inside(chosen, first, count));
      const auto [mask, kept] = random_filter(rng, expected);
      const ListArray<double> filtered = events.filter_each(mask);
      CHECK(deep_of(filtered) == kept);
      CHECK(deep_inside(filtered, first, count));
      // Composed: the tail of every list of the chosen lists, rows reordered.
      if (!expected.empty()) {
        const ListArray<double> composed = chosen.slice_each(1, {}, 2).take_rows({-1, 0});
        Deep want;
        for (const std::size_t r : {taken.size() - 1, std::size_t{0}}) {
          Rows row;
          for (const auto& list : taken[r]) {
            row.push_back(python_slice(list, 1, std::nullopt));
          }
          want.push_back(row);
        }
        CHECK(deep_of(composed) == want);
        CHECK(deep_inside(composed, first, count));
        CHECK(lists_of(events.row_lists(0)) == expected[0]);
      }
      // Writes through a view reach the shared values.
      if (count > 0) {
        const ListArray<double> view = events.reverse_each();
        const auto negate = [&view] {
          for (index_t r = 0; r < view.n_rows(); ++r) {
            const ListArray<double> lists = view.row_lists(r);
            for (index_t j = 0; j < lists.n_rows(); ++j) {
              for (double& x : lists.row(j)) {
                x = -x;
              }
            }
          }
        };
        const double was = source.data()[count - 1];
        negate();
        CHECK(source.data()[count - 1] == -was);
        negate();  // back as it was, for the next source
      }
    }
  }
}

TEST_CASE("ListArray at depth 1: per-row takes, filters and reversals gather the values",
          "[list_array]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    const Rows rows = strata::test::random_rows(rng, round % 7, 4, 9, round % 3 == 0);
    const ListArray<double> lists{JaggedTensor<double>(rows)};
    const auto [index, taken] = random_take(rng, rows);
    CHECK(lists_of(lists.take_each(index)) == taken);
    const auto [mask, kept] = random_filter(rng, rows);
    CHECK(lists_of(lists.filter_each(mask)) == kept);
    Rows reversed = rows;
    for (auto& row : reversed) {
      std::reverse(row.begin(), row.end());
    }
    CHECK(lists_of(lists.reverse_each()) == reversed);
    CHECK(lists_of(lists.reverse_each(-1).slice_each(1, {})) == [&] {
      Rows tails;
      for (const auto& row : reversed) {
        tails.push_back(python_slice(row, 1, std::nullopt));
      }
      return tails;
    }());
  }
  // awkward's argmax-then-take idiom, by hand: the largest value of each row, rows kept.
  const ListArray<double> lists{JaggedTensor<double>(Rows{{1, 5, 2}, {}, {7, 3}})};
  const JaggedTensor<int> best(std::vector<std::vector<int>>{{1}, {}, {0}});
  CHECK(strata::to_string(lists.take_each(best)) == "[[5], [], [7]]");
  CHECK(strata::to_string(lists.take_each(JaggedTensor<int>(
            std::vector<std::vector<int>>{{-1, 0, -1}, {}, {1}}))) == "[[2, 1, 2], [], [3]]");
}

TEST_CASE("ListArray of lists from starts and stops over lists, three levels, printing",
          "[list_array]") {
  // awkward's ListArray whose content is a ListArray: rows choose lists, lists choose values.
  const auto content = Tensor<double>::of({1.1, 2.2, 3.3, 4.4, 5.5, 6.6});
  const auto lists = ListArray<double>::from_arrays(content, {0, 3, 3, 4}, {3, 3, 4, 6});
  const auto rows = ListArray<double>::from_arrays(lists, {0, 2, 1}, {2, 4, 1});
  CHECK(rows.depth() == 2);
  CHECK(strata::to_string(rows) == "[[[1.1, 2.2, 3.3], []], [[4.4], [5.5, 6.6]], []]");
  CHECK(rows.type_string() == "3 * var * var * float64");
  CHECK(rows.size() == 6);
  CHECK(rows.lengths() == Tensor<index_t>::of({2, 2, 0}));
  CHECK(rows.values().data() == content.data());
  CHECK(strata::to_string(rows.slice_each(-1, {}, 2)) == "[[[3.3], []], [[4.4], [6.6]], []]");
  CHECK(strata::to_string(rows.reverse_each()) ==
        "[[[], [1.1, 2.2, 3.3]], [[5.5, 6.6], [4.4]], []]");
  // Three levels: rows of the rows above; printed and packed as nested vectors give them.
  const auto three = ListArray<double>::from_arrays(rows, {1, 0}, {3, 1});
  CHECK(three.depth() == 3);
  CHECK(three.type_string() == "2 * var * var * var * float64");
  const JaggedTensor<double> want(
      std::vector<Deep>{{{{4.4}, {5.5, 6.6}}, {}}, {{{1.1, 2.2, 3.3}, {}}}});
  CHECK(strata::to_string(three) == strata::to_string(want));
  CHECK(strata::to_string(three.to_jagged().values()) == strata::to_string(want.values()));
  CHECK(strata::to_string(three.slice_each({}, 1, 3)) == "[[[[4.4], [5.5]], []], [[[1.1], []]]]");
  CHECK(strata::to_string(three.reverse_each(2)) ==
        "[[[[5.5, 6.6], [4.4]], []], [[[], [1.1, 2.2, 3.3]]]]");
  CHECK(three.content().depth() == 2);
  CHECK(three.row_lists(1).depth() == 2);
  // No rows at depth 2.
  CHECK(strata::to_string(rows.rows(0, 0)) == "[]");
  CHECK(rows.rows(0, 0).to_jagged().shape().inner_rank() == 2);
}

TEST_CASE("ListArray rejects bad axes, indices and masks with typed errors, unchanged",
          "[list_array][errors]") {
  using strata::test::check_error;
  const ListArray<double> events{JaggedTensor<double>(Deep{{{1, 2}, {3}}, {}, {{4}}})};
  const ListArray<double> flat{JaggedTensor<double>(Rows{{1, 2}, {3}})};
  for (const index_t axis : {0, 3, -3}) {
    check_error<strata::IndexError>(
        [&] { (void)events.slice_each(1, {}, axis); }, "ListArray::slice_each",
        "axis " + std::to_string(axis) + " is not a list axis of a ListArray of depth 2");
    check_error<strata::IndexError>([&] { (void)events.reverse_each(axis); },
                                    "ListArray::reverse_each", "axis " + std::to_string(axis));
  }
  check_error<strata::ShapeError>(
      [&] {
        (void)events.take_each(JaggedTensor<int>(std::vector<std::vector<int>>{{0}, {}}));
      },
      "ListArray::take_each", " for 3 * var * var * float64 (one row of 1-D positions per row");
  check_error<strata::IndexError>(
      [&] {
        (void)events.take_each(JaggedTensor<int>(std::vector<std::vector<int>>{{0}, {}, {0, 1}}));
      },
      "ListArray::take_each", "index 1 in row 2 is outside row 2 of length 1");
  check_error<strata::IndexError>(
      [&] {
        (void)flat.take_each(JaggedTensor<int>(std::vector<std::vector<int>>{{-3}, {}}));
      },
      "ListArray::take_each", "index -3 in row 0");
  check_error<strata::ShapeError>(
      [&] {
        (void)events.filter_each(
            JaggedTensor<bool>(std::vector<std::vector<bool>>{{true, false}, {}, {true, true}}));
      },
      "ListArray::filter_each", "row 2 of the mask has 2 entries but row 2 has 1");
  check_error<strata::ShapeError>([&] { (void)events.row(0); }, "ListArray::row",
                                  "row 0 of a ListArray of depth 2 holds lists, not values "
                                  "(row_lists(0)");
  check_error<strata::ShapeError>([&] { (void)flat.row_lists(0); }, "ListArray::row_lists",
                                  "row(0)");
  check_error<strata::IndexError>([&] { (void)events.row_lists(3); }, "ListArray::row_lists",
                                  "row 3");
  check_error<strata::ShapeError>([&] { (void)flat.content(); }, "ListArray::content", "values()");
  const auto content = ListArray<double>::from_arrays(Tensor<double>::of({1.0}), {0, 0}, {1, 0});
  check_error<strata::IndexError>(
      [&] {
        (void)ListArray<double>::from_arrays(content, {0, 1}, {1, 3});
      },
      "ListArray::from_arrays", "list 1 is lists[1:3], not inside the 2 lists");
  check_error<strata::ShapeError>([&] { (void)ListArray<double>::from_arrays(content, {0}, {}); },
                                  "ListArray::from_arrays", "1 starts but 0 stops");
  // Nothing changed.
  CHECK(deep_of(events) == Deep{{{1, 2}, {3}}, {}, {{4}}});
  CHECK(lists_of(flat) == Rows{{1, 2}, {3}});
}

// ---- flatten and unflatten at any axis (awkward's ak.flatten / ak.unflatten) ----

namespace {

/// Rows of rows of lists, as nested vectors.
using Deep3 = std::vector<Deep>;

/// Random counts splitting each of @p lengths into consecutive pieces (zeros too).
std::vector<std::vector<index_t>> random_counts(std::mt19937& rng,
                                                const std::vector<index_t>& lengths) {
  std::vector<std::vector<index_t>> counts(lengths.size());
  std::uniform_int_distribution<index_t> piece(0, 3);
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    index_t left = lengths[i];
    while (left > 0) {
      const index_t c = std::min(left, piece(rng));
      counts[i].push_back(c);
      left -= c;
    }
    if (piece(rng) == 0) {
      counts[i].push_back(0);
    }
  }
  return counts;
}

/// The text of nested vectors as a JaggedTensor prints them.
template <class Nested>
std::string text_of(const Nested& data) {
  return data.empty() ? std::string("[]") : strata::to_string(JaggedTensor<double>(data));
}

}  // namespace

TEST_CASE("ListArray flatten and unflatten at every axis match references, views where possible",
          "[list_array]") {
  std::mt19937 rng(1128);
  std::uniform_int_distribution<int> n_lists(0, 4);
  for (int round = 0; round < 30; ++round) {
    const bool rectangular = round % 6 == 5;
    const Deep data = random_deep(rng, static_cast<std::size_t>(round % 7), n_lists, rectangular);
    const JaggedTensor<double> t = deep_tensor(data, rectangular);
    const ListArray<double> stored(t);
    const double* const first = t.data();
    const index_t count = t.size();
    // The lists of each row reversed (a view whose lists no longer abut) and a repeated row.
    Deep reversed = data;
    for (auto& row : reversed) {
      std::reverse(row.begin(), row.end());
    }
    Deep repeated = data;
    if (!data.empty()) {
      repeated = {data.back(), data.front(), data.back()};
    }
    const ListArray<double> repeated_view = data.empty() ? stored : stored.take_rows({-1, 0, -1});
    const std::vector<std::pair<ListArray<double>, Deep>> sources{
        {stored, data}, {stored.reverse_each(), reversed}, {repeated_view, repeated}};
    for (std::size_t kind = 0; kind < sources.size(); ++kind) {
      const auto& [events, expected] = sources[kind];
      const bool abut = kind == 0;  // the stored lists lie one after another
      INFO("round " << round << ", " << expected.size() << " rows, source " << kind);
      // axis=None: every value in order.
      std::vector<double> values;
      Rows all_lists;
      Rows joined;
      std::vector<index_t> lists_per_row;
      std::vector<index_t> list_lengths;
      for (const auto& row : expected) {
        joined.emplace_back();
        lists_per_row.push_back(static_cast<index_t>(row.size()));
        for (const auto& list : row) {
          values.insert(values.end(), list.begin(), list.end());
          joined.back().insert(joined.back().end(), list.begin(), list.end());
          all_lists.push_back(list);
          list_lengths.push_back(static_cast<index_t>(list.size()));
        }
      }
      const Tensor<double> flat = events.flatten();
      REQUIRE(flat.size() == static_cast<index_t>(values.size()));
      CHECK(std::equal(values.begin(), values.end(), flat.data()));
      // axis 1: the lists become the rows; axis 2 (-1): each row's lists joined.
      const ListArray<double> lists = events.flatten(1);
      CHECK(lists.depth() == 1);
      CHECK(lists_of(lists) == all_lists);
      CHECK(inside(lists, first, count));
      CHECK(lists_of(events.flatten(-2)) == all_lists);
      const ListArray<double> rows = events.flatten(2);
      CHECK(lists_of(rows) == joined);
      CHECK(lists_of(events.flatten(-1)) == joined);
      if (abut) {  // shared, not copied
        CHECK(inside(rows, first, count));
        CHECK((values.empty() || flat.data() >= first));
        CHECK((values.empty() || flat.data() + flat.size() <= first + count));
      }
      // unflatten undoes flatten: at axis 0 by the lists per row, at axis 1 by the lengths.
      CHECK(deep_of(lists.unflatten(lists_per_row)) == expected);
      std::vector<std::vector<index_t>> by_row;
      std::size_t next = 0;
      for (const auto& row : expected) {
        by_row.emplace_back(list_lengths.begin() + static_cast<std::ptrdiff_t>(next),
                            list_lengths.begin() + static_cast<std::ptrdiff_t>(next + row.size()));
        next += row.size();
      }
      const ListArray<double> regrouped = rows.unflatten(JaggedTensor<index_t>(by_row), 1);
      CHECK(deep_of(regrouped) == expected);
      // unflatten at axis 2: every list split into random pieces; at axis 1 every row split.
      const auto pieces = random_counts(rng, list_lengths);
      Deep3 split;
      std::size_t list = 0;
      for (const auto& row : expected) {
        split.emplace_back();
        for (const auto& values_of : row) {
          Rows parts;
          std::size_t at = 0;
          for (const index_t c : pieces[list]) {
            parts.emplace_back(values_of.begin() + static_cast<std::ptrdiff_t>(at),
                               values_of.begin() + static_cast<std::ptrdiff_t>(at) + c);
            at += static_cast<std::size_t>(c);
          }
          split.back().push_back(parts);
          ++list;
        }
      }
      if (!pieces.empty()) {
        const ListArray<double> deeper = events.unflatten(JaggedTensor<index_t>(pieces), 2);
        CHECK(deeper.depth() == 3);
        CHECK(strata::to_string(deeper) == text_of(split));
        CHECK(strata::to_string(deeper.flatten(3)) == strata::to_string(events));
        CHECK(strata::to_string(deeper.flatten(1).flatten(2)) ==
              strata::to_string(events.flatten(1)));
        CHECK(deeper.flatten(2).flatten(1).size() == events.size());
        if (abut) {
          CHECK(inside(deeper.flatten(1).flatten(2), first, count));
        }
      }
    }
  }
}

TEST_CASE("ListArray flatten and unflatten: awkward's examples, three levels", "[list_array]") {
  // ak.flatten([[[1.1, 2.2], [3.3]], [], [[4.4], [5.5, 6.6]]], axis=1 / axis=2)
  const ListArray<double> events{
      JaggedTensor<double>(Deep{{{1.1, 2.2}, {3.3}}, {}, {{4.4}, {5.5, 6.6}}})};
  CHECK(strata::to_string(events.flatten(1)) == "[[1.1, 2.2], [3.3], [4.4], [5.5, 6.6]]");
  CHECK(strata::to_string(events.flatten(2)) == "[[1.1, 2.2, 3.3], [], [4.4, 5.5, 6.6]]");
  CHECK(events.flatten() == Tensor<double>::of({1.1, 2.2, 3.3, 4.4, 5.5, 6.6}));
  // ak.unflatten([1.1, 2.2, 3.3, 4.4, 5.5], [2, 0, 3]) on lists of one value each.
  const auto singles = ListArray<double>::from_arrays(Tensor<double>::of({1, 2, 3, 4, 5}),
                                                      {0, 1, 2, 3, 4}, {1, 2, 3, 4, 5});
  CHECK(strata::to_string(singles.unflatten({2, 0, 3})) == "[[[1], [2]], [], [[3], [4], [5]]]");
  // Three levels flattened at each axis, from a rows view (lists shared).
  const ListArray<double> three = events.unflatten(
      JaggedTensor<index_t>(std::vector<std::vector<index_t>>{{1, 1}, {1}, {0, 1}, {2}}), 2);
  CHECK(strata::to_string(three) == "[[[[1.1], [2.2]], [[3.3]]], [], [[[], [4.4]], [[5.5, 6.6]]]]");
  CHECK(strata::to_string(three.flatten(1)) ==
        "[[[1.1], [2.2]], [[3.3]], [[], [4.4]], [[5.5, "
        "6.6]]]");
  CHECK(strata::to_string(three.flatten(2)) ==
        "[[[1.1], [2.2], [3.3]], [], [[], [4.4], [5.5, 6.6]]]");
  CHECK(strata::to_string(three.flatten(3)) == strata::to_string(events));
  CHECK(three.flatten(3).values().data() == events.values().data());
  CHECK(strata::to_string(three.rows(2, 3).flatten(2)) == "[[[], [4.4], [5.5, 6.6]]]");
  // Rows of the reversed lists split: the lists reached in order, once per reach.
  CHECK(strata::to_string(events.reverse_each().take_rows({0, 0}).unflatten(
            JaggedTensor<index_t>(std::vector<std::vector<index_t>>{{1}, {2}, {0, 1}, {1, 1}}),
            2)) == "[[[[3.3]], [[1.1, 2.2]]], [[[], [3.3]], [[1.1], [2.2]]]]");
}

TEST_CASE("ListArray handles rebind and swap, writing nothing", "[list_array]") {
  const JaggedTensor<double> t(Deep{{{1, 2}, {3}}, {}, {{4}}});
  ListArray<double> lists(t);
  // A loop going one level shallower each step, as awkward's `array = ak.flatten(array)`.
  while (lists.depth() > 1) {
    lists.rebind(lists.flatten(1));
  }
  CHECK(lists_of(lists) == Rows{{1, 2}, {3}, {4}});
  CHECK(lists.values().data() == t.data());
  ListArray<double> other = ListArray<double>(t).reverse_each();
  swap(lists, other);
  CHECK(lists.depth() == 2);
  CHECK(deep_of(lists) == Deep{{{3}, {1, 2}}, {}, {{4}}});
  CHECK(lists_of(other) == Rows{{1, 2}, {3}, {4}});
  CHECK(strata::to_string(t) == "[[[1, 2], [3]], [], [[4]]]");  // nothing written
  static_assert(!std::is_copy_assignable_v<ListArray<double>>);
  static_assert(!std::is_move_assignable_v<ListArray<double>>);
}

TEST_CASE("ListArray flatten and unflatten reject bad axes and counts, unchanged",
          "[list_array][errors]") {
  using strata::test::check_error;
  const ListArray<double> events{JaggedTensor<double>(Deep{{{1, 2}, {3}}, {}, {{4}}})};
  const ListArray<double> flat{JaggedTensor<double>(Rows{{1, 2}, {3}})};
  check_error<strata::ShapeError>([&] { (void)flat.flatten(1); }, "ListArray::flatten",
                                  "axis 1 of 2 * var * float64 would leave no lists");
  for (const index_t axis : {0, 3, -3}) {
    check_error<strata::IndexError>([&] { (void)events.flatten(axis); }, "ListArray::flatten",
                                    "axis " + std::to_string(axis) + " is not a list axis");
  }
  check_error<strata::ShapeError>(
      [&] {
        (void)events.unflatten({1, -1, 3});
      },
      "ListArray::unflatten", "count -1 (entry 1) is negative");
  check_error<strata::ShapeError>(
      [&] {
        (void)events.unflatten({1, 1});
      },
      "ListArray::unflatten", "the counts add up to 2 but 3 * var * var * float64 has 3 rows");
  using Counts = std::vector<std::vector<index_t>>;
  check_error<strata::ShapeError>(
      [&] {
        (void)events.unflatten(JaggedTensor<index_t>(Counts{{2}, {1}}), 2);
      },
      "ListArray::unflatten",
      "for axis 2 of 3 * var * var * float64 (one row of counts per "
      "list at axis 2: 3 * var)");
  check_error<strata::ShapeError>(
      [&] {
        (void)events.unflatten(JaggedTensor<index_t>(Counts{{2}, {2}, {1}}), 2);
      },
      "ListArray::unflatten", "the counts for list 1 add up to 2 but the list has 1 entries");
  check_error<strata::ShapeError>(
      [&] {
        (void)events.unflatten(JaggedTensor<index_t>(Counts{{2}, {-1, 2}, {1}}), 2);
      },
      "ListArray::unflatten", "count -1 for list 1 is negative");
  check_error<strata::IndexError>(
      [&] { (void)events.unflatten(JaggedTensor<index_t>(Counts{{2}}), 3); },
      "ListArray::unflatten", "axis 3 is not a list axis");
  CHECK(deep_of(events) == Deep{{{1, 2}, {3}}, {}, {{4}}});
  CHECK(lists_of(flat) == Rows{{1, 2}, {3}});
}

TEST_CASE("ListArray chip_each at axes 1 and 2 matches references, a view of the lists",
          "[list_array]") {
  using strata::test::check_error;
  std::mt19937 rng(1129);
  std::uniform_int_distribution<int> n_lists(0, 4);
  for (int round = 0; round < 30; ++round) {
    const Deep data = random_deep(rng, static_cast<std::size_t>(round % 7), n_lists, false);
    const JaggedTensor<double> t = deep_tensor(data, false);
    const ListArray<double> stored(t);
    Deep reversed = data;
    for (auto& row : reversed) {
      std::reverse(row.begin(), row.end());
    }
    const std::vector<std::pair<ListArray<double>, Deep>> sources{
        {stored, data}, {stored.reverse_each(), reversed}};
    for (const auto& source : sources) {
      const ListArray<double>& events = source.first;  // named: clang 14 captures no binding
      const Deep& expected = source.second;
      for (const index_t i : {index_t{0}, index_t{1}, index_t{-1}, index_t{-2}}) {
        const auto need = static_cast<std::size_t>(i < 0 ? -i : i + 1);
        INFO("round " << round << ", index " << i << ": " << strata::to_string(events));
        // Axis 1: list i of every row (the rows that have one, chosen as a view first).
        std::vector<index_t> having;
        Rows lists;
        for (std::size_t r = 0; r < expected.size(); ++r) {
          if (expected[r].size() >= need) {
            having.push_back(static_cast<index_t>(r));
            const auto n = static_cast<index_t>(expected[r].size());
            lists.push_back(expected[r][static_cast<std::size_t>(i < 0 ? i + n : i)]);
          }
        }
        const ListArray<double> chosen = events.take_rows(having).chip_each(i);
        CHECK(chosen.depth() == 1);
        CHECK(lists_of(chosen) == lists);
        CHECK(inside(chosen, t.data(), t.size()));  // the values shared
        if (having.size() < expected.size()) {
          check_error<strata::IndexError>([&] { (void)events.chip_each(i); },
                                          "ListArray::chip_each", "is outside row ");
        }
        // Axis 2 (-1): value i of every list, when every list has one.
        Rows values(expected.size());
        bool all_have = true;
        for (std::size_t r = 0; r < expected.size(); ++r) {
          for (const auto& list : expected[r]) {
            all_have = all_have && list.size() >= need;
            if (list.size() >= need) {
              const auto n = static_cast<index_t>(list.size());
              values[r].push_back(list[static_cast<std::size_t>(i < 0 ? i + n : i)]);
            }
          }
        }
        if (all_have) {
          CHECK(lists_of(events.chip_each(i, 2)) == values);
          CHECK(lists_of(events.chip_each(i, -1)) == values);
        } else {
          check_error<strata::IndexError>([&] { (void)events.chip_each(i, 2); },
                                          "ListArray::chip_each", " of axis 2 of length ");
        }
      }
    }
  }
  // awkward's events[:, -1] and events[:, :, 0], and one level deeper.
  const ListArray<double> events(JaggedTensor<double>(Deep{{{1, 2, 3}, {4}}, {{5, 6}, {7}}}));
  CHECK(lists_of(events.chip_each(-1)) == Rows{{4}, {7}});
  CHECK(lists_of(events.chip_each(0, 2)) == Rows{{1, 4}, {5, 7}});
  const ListArray<double> deeper = events.unflatten({1, 1});
  CHECK(strata::to_string(deeper.chip_each(0)) == "[[[1, 2, 3], [4]], [[5, 6], [7]]]");
  CHECK(strata::to_string(deeper.chip_each(-1, 2)) == "[[[4]], [[7]]]");
  CHECK(strata::to_string(deeper.chip_each(0, 3)) == "[[[1, 4]], [[5, 7]]]");
  // Bad input: the axis, a list without the position, depth 1; the array unchanged.
  check_error<strata::IndexError>([&] { (void)events.chip_each(0, 3); }, "ListArray::chip_each",
                                  "axis 3 is not a list axis");
  check_error<strata::IndexError>([&] { (void)events.chip_each(1, 2); }, "ListArray::chip_each",
                                  "index 1 is outside list 1 of axis 2 of length 1");
  check_error<strata::IndexError>([&] { (void)events.chip_each(-3); }, "ListArray::chip_each",
                                  "index -3 is outside row 0 of length 2");
  check_error<strata::ShapeError>([&] { (void)events.flatten(1).chip_each(0); },
                                  "ListArray::chip_each", "one value per row");
  CHECK(deep_of(events) == Deep{{{1, 2, 3}, {4}}, {{5, 6}, {7}}});
}

}  // namespace test_tensor_list_array
