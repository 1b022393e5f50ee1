// Properties of indices()/offsets() on random smooth, jagged and nested shapes and their views,
// against nested loops over the row extents; random access, splitting, parallel for_each.
#include "strata/shape/index_range.hpp"

#include "strata/parallel/for_each.hpp"
#include "strata/shape/shapes.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <random>
#include <ranges>
#include <vector>

namespace test_shape_index_range {

using strata::Index;
using strata::index_t;
using strata::Jagged;
using strata::Nested;
using strata::Shape;
using strata::Smooth;

namespace {

/// Appends prefix + every index of a box, row-major, by plain recursion.
void box_indices(const Index& prefix, const std::vector<index_t>& extents, std::size_t mode,
                 Index& current, std::vector<Index>& out) {
  if (mode == extents.size()) {
    Index whole = prefix;
    whole.insert(whole.end(), current.begin(), current.end());
    out.push_back(whole);
    return;
  }
  for (index_t i = 0; i < extents[mode]; ++i) {
    current.push_back(i);
    box_indices(prefix, extents, mode + 1, current, out);
    current.pop_back();
  }
}

/// A random shape together with the list of its indices, built independently.
struct Case {
  Shape shape;
  std::vector<Index> expected;
};

Case random_smooth(std::mt19937& rng) {
  const int rank = std::uniform_int_distribution<int>(0, 3)(rng);
  std::vector<index_t> e;
  for (int k = 0; k < rank; ++k) {
    e.push_back(std::uniform_int_distribution<index_t>(0, 4)(rng));
  }
  Case c{Smooth(strata::IndexSpan(e)), {}};
  Index current;
  box_indices({}, e, 0, current, c.expected);
  return c;
}

Case random_jagged(std::mt19937& rng, bool nested) {
  const int outer_rank = nested ? 2 : std::uniform_int_distribution<int>(1, 2)(rng);
  const int inner_rank = nested ? 2 : std::uniform_int_distribution<int>(1, 2)(rng);
  std::vector<index_t> outer;
  for (int k = 0; k < outer_rank; ++k) {
    outer.push_back(std::uniform_int_distribution<index_t>(0, 3)(rng));
  }
  std::vector<Index> rows;  // outer indices, row-major
  Index current;
  box_indices({}, outer, 0, current, rows);
  std::vector<index_t> table;
  Case c;
  for (const Index& row : rows) {
    std::vector<index_t> e;
    for (int k = 0; k < inner_rank; ++k) {
      e.push_back(std::uniform_int_distribution<index_t>(0, 3)(rng));
    }
    table.insert(table.end(), e.begin(), e.end());
    Index inner;
    box_indices(row, e, 0, inner, c.expected);
  }
  const Jagged j = Jagged::from_extents(strata::IndexSpan(outer), inner_rank, table);
  c.shape = nested ? Shape(Nested{Smooth(strata::IndexSpan(outer)), j}) : Shape(j);
  return c;
}

/// A random slice of a case (bounds along the modes the shape slices), with its expected list.
Case random_slice(const Case& c, std::mt19937& rng) {
  const Shape flat = c.shape.is<Nested>() ? c.shape.as<Nested>().flatten() : c.shape;
  const int modes = flat.is<Jagged>() ? flat.as<Jagged>().outer_rank() : flat.rank();
  Index lo;
  Index hi;
  for (int k = 0; k < modes; ++k) {
    const index_t e = flat.extent(k);
    const index_t a = std::uniform_int_distribution<index_t>(0, e)(rng);
    const index_t b = std::uniform_int_distribution<index_t>(a, e)(rng);
    lo.push_back(a);
    hi.push_back(b);
  }
  Case out{c.shape.slice(lo, hi), {}};
  for (const Index& i : c.expected) {
    bool inside = true;
    for (int k = 0; k < modes; ++k) {
      inside = inside && i[static_cast<std::size_t>(k)] >= lo[static_cast<std::size_t>(k)] &&
               i[static_cast<std::size_t>(k)] < hi[static_cast<std::size_t>(k)];
    }
    if (inside) {
      out.expected.push_back(i);
    }
  }
  return out;
}

void check_case(const Case& c, std::mt19937& rng) {
  INFO(c.shape.to_string());
  const Shape& s = c.shape;
  REQUIRE(s.size() == static_cast<index_t>(c.expected.size()));
  // indices(): exactly the expected indices, row-major (lexicographic), distinct.
  std::vector<Index> seen;
  for (const Index& i : s.indices()) {
    seen.push_back(i);
  }
  CHECK(seen == c.expected);
  CHECK(std::is_sorted(seen.begin(), seen.end()));
  CHECK(std::adjacent_find(seen.begin(), seen.end()) == seen.end());
  // offsets() == indices() - origin.
  const Index origin = s.origin();
  std::size_t n = 0;
  for (const Index& o : s.offsets()) {
    Index shifted = o;
    for (std::size_t k = 0; k < shifted.size(); ++k) {
      shifted[k] += origin[k];
    }
    CHECK(shifted == c.expected[n++]);
  }
  CHECK(n == c.expected.size());
  // The concrete shape's own range (its run_length() steps, not Shape's) lists the same.
  s.visit([&](const auto& concrete) {
    std::vector<Index> own;
    for (const Index& i : concrete.indices()) {
      own.push_back(i);
    }
    CHECK(own == c.expected);
  });
  // run_length(offset): the following indices that differ only in the last mode, by +1 each.
  if (s.rank() > 0) {
    std::size_t p = 0;
    for (const Index& o : s.offsets()) {
      std::size_t run = 1;
      while (
          p + run < c.expected.size() &&
          std::equal(c.expected[p].begin(), c.expected[p].end() - 1, c.expected[p + run].begin()) &&
          c.expected[p + run].back() == c.expected[p].back() + static_cast<index_t>(run)) {
        ++run;
      }
      CHECK(s.run_length(o) == static_cast<index_t>(run));
      ++p;
    }
  }
  // Random access, positions, and splitting at any point.
  const auto range = s.indices();
  CHECK(range.end() - range.begin() == s.size());
  if (s.size() > 0) {
    const index_t k = std::uniform_int_distribution<index_t>(0, s.size())(rng);
    std::vector<Index> joined;
    for (auto it = range.begin(); it != range.begin() + k; ++it) {
      joined.push_back(*it);
    }
    for (auto it = range.begin() + k; it != range.end(); ++it) {
      joined.push_back(*it);
    }
    CHECK(joined == c.expected);
    const index_t p = std::uniform_int_distribution<index_t>(0, s.size() - 1)(rng);
    CHECK(range.begin()[p] == c.expected[static_cast<std::size_t>(p)]);
    CHECK(*(range.end() - (s.size() - p)) == c.expected[static_cast<std::size_t>(p)]);
    CHECK(s.index_at(p) == c.expected[static_cast<std::size_t>(p)]);
    CHECK(s.position(c.expected[static_cast<std::size_t>(p)]) == p);
    CHECK(s.contains(c.expected[static_cast<std::size_t>(p)]));
  }
}

}  // namespace

TEST_CASE("indices() and offsets() agree with nested loops on random shapes and views",
          "[shape][property]") {
  std::mt19937 rng(20261122);
  for (int trial = 0; trial < 300; ++trial) {
    const int kind = trial % 3;
    const Case c = kind == 0 ? random_smooth(rng) : random_jagged(rng, kind == 2);
    check_case(c, rng);
    check_case(random_slice(c, rng), rng);
  }
}

static_assert(std::ranges::view<strata::IndexRange<Smooth>>);
static_assert(std::ranges::random_access_range<strata::IndexRange<Jagged>>);

TEST_CASE("index ranges are views: copies share state and compose with adaptors",
          "[shape][range]") {
  const Jagged j = Jagged::from_lengths({2, 0, 3});
  auto r = j.indices();
  const auto it = r.begin() + 3;
  const auto moved = std::move(r);  // NOLINT(performance-move-const-arg): the state is shared
  CHECK(*it == Index{2, 1});        // iterators survive a move of their range
#if !defined(__clang__) || __clang_major__ >= 15
  // clang 14 cannot compile libstdc++ 12's range adaptors for any range (std::vector included).
  std::vector<Index> firsts;
  for (const Index& i : moved | std::views::take(2)) {
    firsts.push_back(i);
  }
  CHECK(firsts == std::vector<Index>{{0, 0}, {0, 1}});
  std::vector<Index> reversed;
  for (const Index& i : j.offsets() | std::views::reverse) {
    reversed.push_back(i);
  }
  CHECK(reversed == std::vector<Index>{{2, 2}, {2, 1}, {2, 0}, {0, 1}, {0, 0}});
#else
  (void)moved;
#endif
}

TEST_CASE("indices() in a strided frame and above the inline rank, stepped and sought mid-run",
          "[shape][range][property]") {
  // Ranks 1-8 (the iterator keeps ranks above 6 apart), random origins and steps of any sign:
  // absolute index k = origin[k] + steps[k] * offset[k], against plain recursion.
  std::mt19937 rng(20261124);
  for (int trial = 0; trial < 60; ++trial) {
    const auto rank = static_cast<std::size_t>(std::uniform_int_distribution<int>(1, 8)(rng));
    std::vector<index_t> extents;
    Index origin;
    Index steps;
    for (std::size_t k = 0; k < rank; ++k) {
      extents.push_back(std::uniform_int_distribution<index_t>(1, rank > 5 ? 2 : 4)(rng));
      origin.push_back(std::uniform_int_distribution<index_t>(-5, 5)(rng));
      steps.push_back(std::uniform_int_distribution<index_t>(-3, 3)(rng));
    }
    std::vector<Index> offsets;
    Index current;
    box_indices(Index{}, extents, 0, current, offsets);
    std::vector<Index> expected;
    for (const Index& o : offsets) {
      Index i(rank);
      for (std::size_t k = 0; k < rank; ++k) {
        i[k] = origin[k] + steps[k] * o[k];
      }
      expected.push_back(i);
    }
    const strata::IndexRange<Smooth> absolute(Smooth(strata::IndexSpan(extents)), origin, steps,
                                              false);
    const strata::IndexRange<Smooth> relative(Smooth(strata::IndexSpan(extents)), origin, steps,
                                              true);
    std::vector<Index> seen(absolute.begin(), absolute.end());
    CHECK(seen == expected);
    std::vector<Index> seen_offsets(relative.begin(), relative.end());
    CHECK(seen_offsets == offsets);
    // Seek anywhere (mid-run included), then step on, post-increment and step back.
    const auto size = static_cast<index_t>(expected.size());
    const index_t p = std::uniform_int_distribution<index_t>(0, size - 1)(rng);
    auto it = absolute.begin() + p;
    for (index_t q = p; q < size; ++q) {
      const auto before = it++;
      CHECK(*before == expected[static_cast<std::size_t>(q)]);
    }
    CHECK(it == absolute.end());
    if (p > 0) {
      --it;
      CHECK(*it == expected.back());
    }
  }
}

TEST_CASE("parallel::for_each visits every index of a jagged shape once", "[shape][parallel]") {
  std::vector<index_t> lengths;
  std::mt19937 rng(7);
  for (int r = 0; r < 3000; ++r) {
    lengths.push_back(std::uniform_int_distribution<index_t>(0, 60)(rng));
  }
  const Jagged j = Jagged::from_lengths(lengths);
  std::vector<std::atomic<int>> visits(static_cast<std::size_t>(j.size()));
  strata::parallel::for_each(strata::Parallel{1024}, j.indices(), [&](const Index& i) {
    visits[static_cast<std::size_t>(j.position(i))].fetch_add(1);
  });
  CHECK(std::all_of(visits.begin(), visits.end(), [](const auto& v) { return v.load() == 1; }));
}

}  // namespace test_shape_index_range
