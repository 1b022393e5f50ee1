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
#include <vector>

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
  check_error<strata::IndexError>([&] { (void)lists.row(2); }, "ListArray::row", "list 2");
  check_error<strata::IndexError>([&] { (void)lists.rows(1, 3); }, "ListArray::rows", "[1, 3)");
  const JaggedTensor<double> deep(std::vector<std::vector<std::vector<double>>>{{{1.0}}});
  check_error<strata::ShapeError>([&] { (void)ListArray<double>(deep); }, "ListArray",
                                  "n * var tensor");
  // A ListArray that refused an operation is unchanged.
  CHECK(lists_of(lists) == Rows{{1.0}, {2.0, 3.0}});
}
