// Reductions of `n * var * var` tensors with jagged results (strata/select/jagged_lists.hpp):
// along each list (ListAxis{-1}), across the lists of each row (ListAxis{-2}) and across the
// rows (ListAxis{0}, awkward's axis=0: list i of every row, element by element), every reduction
// against a reference over nested std::vectors on random lists (empty rows, empty lists, lists of
// one value, NaN and infinities) at 1, 2 and 4 threads, row slices, awkward's examples by hand,
// and bad input.
#include "strata/strata.hpp"

#include "check_error.hpp"
#include "floats.hpp"
#include "jagged_rows.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace test_select_jagged_lists {

using strata::Index;
using strata::index_t;
using strata::JaggedTensor;
using strata::ListAxis;

namespace {

using Deep = std::vector<std::vector<std::vector<double>>>;
/// What a reduction combines: (position, value) pairs, the position being the element's place in
/// its list (along -1) or its list's number in the row (along -2).
using Group = std::vector<std::pair<index_t, double>>;
using Reference = std::function<double(const Group&)>;

using strata::test::kInf;
using strata::test::kNan;

Group without_nan(const Group& g) {
  Group out;
  std::copy_if(g.begin(), g.end(), std::back_inserter(out),
               [](const auto& p) { return !std::isnan(p.second); });
  return out;
}

double sum_of(const Group& g) {
  double s = 0;
  for (const auto& p : g) {
    s += p.second;
  }
  return s;
}

double prod_of(const Group& g) {
  double s = 1;
  for (const auto& p : g) {
    s *= p.second;
  }
  return s;
}

double mean_of(const Group& g) {
  return g.empty() ? kNan : sum_of(g) / static_cast<double>(g.size());
}

/// NumPy's variance: the squares' sum over max(n - ddof, 0) (0 / 0 is NaN, s / 0 infinity).
double var_of(const Group& g, index_t ddof = 0) {
  if (g.empty()) {
    return kNan;
  }
  const double m = mean_of(g);
  double s = 0;
  for (const auto& p : g) {
    s += (p.second - m) * (p.second - m);
  }
  return s / static_cast<double>(std::max<index_t>(static_cast<index_t>(g.size()) - ddof, 0));
}

/// The position of the first best value (the first NaN when there is one), -1 for none.
index_t best_of(const Group& g, bool high) {
  index_t best = -1;
  double value = 0;
  for (const auto& p : g) {
    if (std::isnan(p.second)) {
      return p.first;
    }
    if (best < 0 || (high ? p.second > value : p.second < value)) {
      best = p.first;
      value = p.second;
    }
  }
  return best;
}

double extreme_of(const Group& g, bool high) {
  const index_t at = best_of(g, high);
  if (at < 0) {
    return high ? -kInf : kInf;
  }
  for (const auto& p : g) {
    if (p.first == at) {
      return p.second;
    }
  }
  return kNan;
}

/// Every reduction by name: the reference, and strata's answer as nested doubles.
struct Case {
  std::string name;
  Reference reference;
  std::function<std::vector<std::vector<double>>(const JaggedTensor<double>&, ListAxis)> strata;
};

template <class R>
std::vector<std::vector<double>> as_doubles(const JaggedTensor<R>& t) {
  std::vector<std::vector<double>> out;
  for (const auto& row : strata::test::rows_of(t)) {
    out.emplace_back();
    for (const auto x : row) {
      out.back().push_back(static_cast<double>(x));
    }
  }
  return out;
}

#define STRATA_CASE(name, reference, ...)                                                    \
  Case {                                                                                     \
    name, reference,                                                                         \
        [](const JaggedTensor<double>& t, ListAxis axis) { return as_doubles(__VA_ARGS__); } \
  }

std::vector<Case> cases() {
  const auto nonzero = [](const Group& g) {
    return static_cast<double>(
        std::count_if(g.begin(), g.end(), [](const auto& p) { return p.second != 0; }));
  };
  return {
      STRATA_CASE("sum", sum_of, strata::sum(t, axis)),
      STRATA_CASE("prod", prod_of, strata::prod(t, axis)),
      STRATA_CASE("mean", mean_of, strata::mean(t, axis)),
      STRATA_CASE(
          "min", [](const Group& g) { return extreme_of(g, false); }, strata::min(t, axis)),
      STRATA_CASE(
          "max", [](const Group& g) { return extreme_of(g, true); }, strata::max(t, axis)),
      STRATA_CASE(
          "argmin", [](const Group& g) { return static_cast<double>(best_of(g, false)); },
          strata::argmin(t, axis)),
      STRATA_CASE(
          "argmax", [](const Group& g) { return static_cast<double>(best_of(g, true)); },
          strata::argmax(t, axis)),
      STRATA_CASE(
          "var", [](const Group& g) { return var_of(g); }, strata::var(t, axis)),
      STRATA_CASE(
          "var, ddof 1", [](const Group& g) { return var_of(g, 1); },
          strata::var(t, axis, strata::Ddof{1})),
      STRATA_CASE(
          "std", [](const Group& g) { return std::sqrt(var_of(g)); }, strata::std(t, axis)),
      STRATA_CASE(
          "ptp",
          [](const Group& g) {
            return g.empty() ? 0.0 : extreme_of(g, true) - extreme_of(g, false);
          },
          strata::ptp(t, axis)),
      STRATA_CASE(
          "count", [](const Group& g) { return static_cast<double>(g.size()); },
          strata::count(t, axis)),
      STRATA_CASE("count_nonzero", nonzero, strata::count_nonzero(t, axis)),
      STRATA_CASE(
          "any", [&](const Group& g) { return nonzero(g) > 0 ? 1.0 : 0.0; }, strata::any(t, axis)),
      STRATA_CASE(
          "all",
          [&](const Group& g) { return nonzero(g) == static_cast<double>(g.size()) ? 1.0 : 0.0; },
          strata::all(t, axis)),
      STRATA_CASE(
          "nansum", [](const Group& g) { return sum_of(without_nan(g)); }, strata::nansum(t, axis)),
      STRATA_CASE(
          "nanprod", [](const Group& g) { return prod_of(without_nan(g)); },
          strata::nanprod(t, axis)),
      STRATA_CASE(
          "nanmean", [](const Group& g) { return mean_of(without_nan(g)); },
          strata::nanmean(t, axis)),
      STRATA_CASE(
          "nanvar", [](const Group& g) { return var_of(without_nan(g)); }, strata::nanvar(t, axis)),
      STRATA_CASE(
          "nanstd", [](const Group& g) { return std::sqrt(var_of(without_nan(g))); },
          strata::nanstd(t, axis)),
      STRATA_CASE(
          "nanstd, ddof 1", [](const Group& g) { return std::sqrt(var_of(without_nan(g), 1)); },
          strata::nanstd(t, axis, strata::Ddof{1})),
      STRATA_CASE(
          "nanmin", [](const Group& g) { return extreme_of(without_nan(g), false); },
          strata::nanmin(t, axis)),
      STRATA_CASE(
          "nanmax", [](const Group& g) { return extreme_of(without_nan(g), true); },
          strata::nanmax(t, axis)),
      STRATA_CASE(
          "nanargmin",
          [](const Group& g) { return static_cast<double>(best_of(without_nan(g), false)); },
          strata::nanargmin(t, axis)),
      STRATA_CASE(
          "nanargmax",
          [](const Group& g) { return static_cast<double>(best_of(without_nan(g), true)); },
          strata::nanargmax(t, axis)),
  };
}

#undef STRATA_CASE

/// The reference along -1: one value per list.
std::vector<std::vector<double>> along_lists(const Deep& d, const Reference& f) {
  std::vector<std::vector<double>> out;
  for (const auto& row : d) {
    out.emplace_back();
    for (const auto& list : row) {
      Group g;
      for (std::size_t k = 0; k < list.size(); ++k) {
        g.emplace_back(static_cast<index_t>(k), list[k]);
      }
      out.back().push_back(f(g));
    }
  }
  return out;
}

/// The reference along -2: position k of every list of a row that has one.
std::vector<std::vector<double>> across_lists(const Deep& d, const Reference& f) {
  std::vector<std::vector<double>> out;
  for (const auto& row : d) {
    std::size_t longest = 0;
    for (const auto& list : row) {
      longest = std::max(longest, list.size());
    }
    out.emplace_back();
    for (std::size_t k = 0; k < longest; ++k) {
      Group g;
      for (std::size_t j = 0; j < row.size(); ++j) {
        if (k < row[j].size()) {
          g.emplace_back(static_cast<index_t>(j), row[j][k]);
        }
      }
      out.back().push_back(f(g));
    }
  }
  return out;
}

/// The reference along 0: list i of every row that has one, element k of each such list that
/// has one (the positions are the rows).
std::vector<std::vector<double>> across_rows(const Deep& d, const Reference& f) {
  std::vector<std::vector<double>> out;
  for (std::size_t r = 0; r < d.size(); ++r) {
    for (std::size_t i = 0; i < d[r].size(); ++i) {
      if (out.size() <= i) {
        out.resize(i + 1);
      }
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::size_t longest = 0;
    for (const auto& row : d) {
      longest = i < row.size() ? std::max(longest, row[i].size()) : longest;
    }
    for (std::size_t k = 0; k < longest; ++k) {
      Group g;
      for (std::size_t r = 0; r < d.size(); ++r) {
        if (i < d[r].size() && k < d[r][i].size()) {
          g.emplace_back(static_cast<index_t>(r), d[r][i][k]);
        }
      }
      out[i].push_back(f(g));
    }
  }
  return out;
}

Deep random_deep(std::mt19937& rng, index_t rows) {
  std::uniform_int_distribution<int> lists(0, 4);
  Deep out;
  for (index_t r = 0; r < rows; ++r) {
    const strata::test::Rows row = strata::test::random_rows(rng, lists(rng), 5, 3, true);
    out.emplace_back(row.begin(), row.end());
  }
  return out;
}

void check_same(const std::vector<std::vector<double>>& got,
                const std::vector<std::vector<double>>& expected) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t r = 0; r < got.size(); ++r) {
    REQUIRE(got[r].size() == expected[r].size());
    for (std::size_t k = 0; k < got[r].size(); ++k) {
      INFO("row " << r << ", position " << k << ": " << got[r][k] << " against " << expected[r][k]);
      CHECK(strata::test::same(got[r][k], expected[r][k]));
    }
  }
}

}  // namespace

TEST_CASE("reductions inside rows of lists against nested-vector references", "[jagged_lists]") {
  std::mt19937 rng(20261127);
  std::vector<Deep> data{{{}}, {{{}}}, {{{kNan}}, {}, {{1.0}, {}, {kInf, -kInf}}}};
  for (int k = 0; k < 6; ++k) {
    data.push_back(random_deep(rng, 1 + 9 * k));
  }
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      for (std::size_t n = 0; n < data.size(); ++n) {
        const JaggedTensor<double> whole(data[n]);
        // The whole tensor and a slice of its rows (which keeps its absolute row numbers).
        const index_t lo = whole.shape().n_rows() / 3;
        const JaggedTensor<double> slice = whole.rows(lo, whole.shape().n_rows());
        const Deep sliced(data[n].begin() + lo, data[n].end());
        for (const Case& c : cases()) {
          INFO("threads " << threads << ", data " << n << ", " << c.name);
          check_same(c.strata(whole, ListAxis{-1}), along_lists(data[n], c.reference));
          check_same(c.strata(whole, ListAxis{2}), along_lists(data[n], c.reference));
          check_same(c.strata(whole, ListAxis{-2}), across_lists(data[n], c.reference));
          check_same(c.strata(slice, ListAxis{1}), across_lists(sliced, c.reference));
          check_same(c.strata(slice, ListAxis{-1}), along_lists(sliced, c.reference));
          check_same(c.strata(whole, ListAxis{0}), across_rows(data[n], c.reference));
          // Rows are numbered from the slice's first (argmin / argmax give positions in it).
          check_same(c.strata(slice, ListAxis{-3}), across_rows(sliced, c.reference));
        }
      }
    });
  }
}

TEST_CASE("reductions inside rows of lists: by hand, types, rectangular rows", "[jagged_lists]") {
  const JaggedTensor<int> events(
      std::vector<std::vector<std::vector<int>>>{{{1, 2, 3}, {4}}, {}, {{5, 6}, {}, {7, 8, 9}}});
  using V = std::vector<std::vector<int>>;
  CHECK(strata::test::rows_of(strata::sum(events, ListAxis{-1})) == V{{6, 4}, {}, {11, 0, 24}});
  CHECK(strata::test::rows_of(strata::sum(events, ListAxis{-2})) == V{{5, 2, 3}, {}, {12, 14, 9}});
  CHECK(strata::test::rows_of(strata::argmax(events, ListAxis{-2})) ==
        std::vector<std::vector<index_t>>{{1, 0, 0}, {}, {2, 2, 2}});
  CHECK(strata::test::rows_of(strata::count(events, ListAxis{-1})) ==
        std::vector<std::vector<index_t>>{{3, 1}, {}, {2, 0, 3}});
  // An integer mean is a double; a row whose lists all have one length is a smooth 2-D block.
  const auto means = strata::mean(events, ListAxis{-1});
  static_assert(std::is_same_v<decltype(means), const JaggedTensor<double>>);
  const std::vector<double> third = strata::test::rows_of(means)[2];  // an empty list: NaN
  CHECK((third.size() == 3 && third[0] == 5.5 && std::isnan(third[1]) && third[2] == 8.0));
  CHECK(strata::test::rows_of(means)[0] == std::vector<double>{2.0, 4.0});
  const JaggedTensor<float> square(
      std::vector<std::vector<std::vector<float>>>{{{1, 2}, {3, 4}}, {{5, 6, 7}}});
  REQUIRE(square.shape().smooth_rows());
  CHECK(strata::test::rows_of(strata::max(square, ListAxis{-2})) ==
        std::vector<std::vector<float>>{{3, 4}, {5, 6, 7}});
  CHECK(strata::test::rows_of(strata::min(square, ListAxis{-1})) ==
        std::vector<std::vector<float>>{{1, 3}, {5}});
  // Across the rows (awkward's axis=0): list 0 of rows 0 and 2 ([1, 2, 3] and [5, 6]), list
  // 1 ([4] and []), list 2 (only row 2's [7, 8, 9]).
  CHECK(strata::test::rows_of(strata::sum(events, ListAxis{0})) == V{{6, 8, 3}, {4}, {7, 8, 9}});
  CHECK(strata::test::rows_of(strata::argmax(events, ListAxis{-3})) ==
        std::vector<std::vector<index_t>>{{2, 2, 0}, {0}, {2, 2, 2}});
  CHECK(strata::test::rows_of(strata::count(events, ListAxis{0})) ==
        std::vector<std::vector<index_t>>{{2, 2, 1}, {1}, {1, 1, 1}});
  CHECK(strata::max(square, ListAxis{0}).type_string() == "2 * var * float32");
  CHECK(strata::test::rows_of(strata::max(square, ListAxis{0})) ==
        std::vector<std::vector<float>>{{5, 6, 7}, {3, 4}});
  // Sums across lists and rows add in list order, as awkward does: bit for bit the sequential
  // sum, also for 20 lists (where a row's own sum would use lanes).
  Deep many(2);
  double sequential = 0;
  for (int k = 0; k < 20; ++k) {
    const double v = k == 0 ? 1e16 : 1.0;  // in order each 1 is lost (the spacing is 2)
    many[0].push_back({v, 1.0});
    many[1].push_back({v});
    sequential += v;
  }
  const JaggedTensor<double> twenty(many);
  CHECK(sequential == 1e16);
  CHECK(strata::test::rows_of(strata::sum(twenty, ListAxis{-2}))[0][0] == sequential);
  CHECK(strata::test::rows_of(strata::sum(twenty, ListAxis{-2}))[1][0] == sequential);
  CHECK(strata::test::rows_of(strata::sum(twenty, ListAxis{-2}))[0][1] == 20.0);
  // awkward's ak.num(events, axis=2): every list's length, jagged as the rows.
  CHECK(strata::test::rows_of(strata::num(events, ListAxis{2})) ==
        std::vector<std::vector<index_t>>{{3, 1}, {}, {2, 0, 3}});
  CHECK(strata::test::rows_of(strata::num(square, ListAxis{-1})) ==
        std::vector<std::vector<index_t>>{{2, 2}, {3}});
  // all(), as for dense tensors, is the selector's call.
  CHECK(strata::test::rows_of(strata::all(events, ListAxis{-1})) ==
        std::vector<std::vector<bool>>{{true, true}, {}, {true, true, true}});
}

TEST_CASE("a rebound or swapped tensor of rows of lists reduces its new lists", "[jagged_lists]") {
  // The two-level offsets travel with the shape: a handle rebound to another tensor (or two
  // handles swapped) must not keep the lists of the values it held before.
  JaggedTensor<double> a(Deep{{{1, 2}, {3}}, {{4, 5, 6}}});
  JaggedTensor<double> b(Deep{{{1}}, {{2, 3}, {}, {4}}, {{5}}});
  using V = std::vector<std::vector<double>>;
  a.rebind(b);
  CHECK(strata::test::rows_of(strata::sum(a, ListAxis{-1})) == V{{1}, {5, 0, 4}, {5}});
  const JaggedTensor<double> shifted = a + 1.0;  // a result of a's shape
  CHECK(strata::test::rows_of(strata::sum(shifted, ListAxis{-2})) == V{{2}, {8, 4}, {6}});
  JaggedTensor<double> c(Deep{{{7, 8, 9}}, {}, {{1}, {2}}});
  c.swap(b);
  CHECK(strata::test::rows_of(strata::max(c, ListAxis{-1})) == V{{1}, {3, -kInf, 4}, {5}});
  CHECK(strata::test::rows_of(strata::max(b, ListAxis{-1})) == V{{9}, {}, {1, 2}});
}

TEST_CASE("reductions inside the lists of deeper rows (n * var * var * var)", "[jagged_lists]") {
  using Deep3 = std::vector<Deep>;
  std::mt19937 rng(1128);
  std::uniform_int_distribution<int> count(0, 3);
  std::uniform_int_distribution<int> length(1, 3);
  std::uniform_int_distribution<int> value(-9, 9);
  const auto text = [](const Deep& x) { return strata::to_string(JaggedTensor<double>(x)); };
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      for (int round = 0; round < 10; ++round) {
        Deep3 data(static_cast<std::size_t>(1 + round % 5));
        for (auto& row : data) {
          row.resize(static_cast<std::size_t>(count(rng)));
          for (auto& list : row) {
            list.resize(static_cast<std::size_t>(count(rng)));
            for (auto& inner : list) {
              inner.resize(static_cast<std::size_t>(length(rng)));  // never empty: max has one
              for (double& x : inner) {
                x = value(rng);
              }
            }
          }
        }
        const JaggedTensor<double> t(data);
        // Along each innermost list (-1) and across the innermost lists of each list (-2).
        Deep sums(data.size());
        Deep maxima(data.size());
        Deep across(data.size());
        Deep counts(data.size());
        for (std::size_t r = 0; r < data.size(); ++r) {
          for (const auto& list : data[r]) {
            sums[r].emplace_back();
            maxima[r].emplace_back();
            across[r].emplace_back();
            counts[r].emplace_back();
            for (const auto& inner : list) {
              double total = 0;
              double most = inner[0];
              for (std::size_t k = 0; k < inner.size(); ++k) {
                total += inner[k];
                most = std::max(most, inner[k]);
                if (across[r].back().size() <= k) {
                  across[r].back().push_back(0);
                  counts[r].back().push_back(0);
                }
                across[r].back()[k] += inner[k];
                counts[r].back()[k] += 1;
              }
              sums[r].back().push_back(total);
              maxima[r].back().push_back(most);
            }
          }
        }
        INFO("round " << round << ", " << threads << " threads: " << strata::to_string(t));
        CHECK(strata::to_string(strata::sum(t, ListAxis{-1})) == text(sums));
        CHECK(strata::to_string(strata::sum(t, ListAxis{3})) == text(sums));
        CHECK(strata::to_string(strata::max(t, ListAxis{-1})) == text(maxima));
        CHECK(strata::to_string(strata::sum(t, ListAxis{-2})) == text(across));
        CHECK(strata::to_string(strata::sum(t, ListAxis{2})) == text(across));
        const JaggedTensor<index_t> n = strata::count(t, ListAxis{-2});
        CHECK(strata::to_string(JaggedTensor<double>(strata::astype<double>(n))) == text(counts));
      }
    });
  }
  // Across the lists of lists of each row (-3, awkward's axis=1) and across the rows (0): value
  // [r, i, j, k] goes to [r, j, k] (owner i) or [i, j, k] (owner r), in owner order; against
  // nested-vector groups, with empty lists at every level, NaN and infinities.
  std::uniform_int_distribution<int> size(0, 3);
  std::uniform_int_distribution<int> special(0, 19);
  for (const int threads : strata::test::thread_counts) {
    strata::test::with_threads(threads, [&] {
      for (int round = 0; round < 12; ++round) {
        Deep3 data(static_cast<std::size_t>(round % 6));  // 0 rows too
        for (auto& row : data) {
          row.resize(static_cast<std::size_t>(size(rng)));
          for (auto& list : row) {
            list.resize(static_cast<std::size_t>(size(rng)));
            for (auto& inner : list) {
              inner.resize(static_cast<std::size_t>(size(rng)));
              for (double& x : inner) {
                const int s = special(rng);
                x = s == 0 ? kNan : s == 1 ? -kInf : value(rng);
              }
            }
          }
        }
        const JaggedTensor<double> t(data);
        for (const bool across_rows : {false, true}) {
          std::vector<std::vector<std::vector<Group>>> groups;
          if (!across_rows) {
            groups.resize(data.size());
          }
          for (std::size_t r = 0; r < data.size(); ++r) {
            for (std::size_t i = 0; i < data[r].size(); ++i) {
              const std::size_t at = across_rows ? i : r;
              if (groups.size() <= at) {
                groups.resize(at + 1);
              }
              auto& node = groups[at];
              for (std::size_t j = 0; j < data[r][i].size(); ++j) {
                if (node.size() <= j) {
                  node.resize(j + 1);
                }
                for (std::size_t k = 0; k < data[r][i][j].size(); ++k) {
                  if (node[j].size() <= k) {
                    node[j].resize(k + 1);
                  }
                  node[j][k].emplace_back(static_cast<index_t>(across_rows ? r : i),
                                          data[r][i][j][k]);
                }
              }
            }
          }
          const auto expect = [&](const std::function<double(const Group&)>& f) {
            Deep out(groups.size());
            for (std::size_t a = 0; a < groups.size(); ++a) {
              for (const auto& list : groups[a]) {
                out[a].emplace_back();
                for (const Group& g : list) {
                  out[a].back().push_back(f(g));
                }
              }
            }
            return strata::to_string(JaggedTensor<double>(out));
          };
          const auto got = [](const auto& result) {
            return strata::to_string(JaggedTensor<double>(strata::astype<double>(result)));
          };
          const ListAxis axis{across_rows ? (round % 2 == 0 ? 0 : -4) : (round % 2 == 0 ? -3 : 1)};
          INFO("round " << round << ", " << threads << " threads, ListAxis{" << axis.axis
                        << "}: " << strata::to_string(t));
          CHECK(got(strata::sum(t, axis)) == expect(sum_of));
          CHECK(got(strata::max(t, axis)) ==
                expect([](const Group& g) { return extreme_of(g, true); }));
          CHECK(got(strata::argmin(t, axis)) ==
                expect([](const Group& g) { return static_cast<double>(best_of(g, false)); }));
          CHECK(got(strata::mean(t, axis)) == expect(mean_of));
          CHECK(got(strata::var(t, axis)) == expect([](const Group& g) { return var_of(g); }));
          CHECK(got(strata::count(t, axis)) ==
                expect([](const Group& g) { return static_cast<double>(g.size()); }));
          CHECK(got(strata::nansum(t, axis)) ==
                expect([](const Group& g) { return sum_of(without_nan(g)); }));
        }
        // awkward's ak.num at axis 3 and 2: every innermost list's length, and the number of
        // innermost lists in each list of a row.
        Deep inner_lengths(data.size());
        std::vector<std::vector<double>> list_lengths(data.size());
        for (std::size_t r = 0; r < data.size(); ++r) {
          for (const auto& list : data[r]) {
            list_lengths[r].push_back(static_cast<double>(list.size()));
            inner_lengths[r].emplace_back();
            for (const auto& inner : list) {
              inner_lengths[r].back().push_back(static_cast<double>(inner.size()));
            }
          }
        }
        const auto text_of = [](const auto& counts) {
          return strata::to_string(JaggedTensor<double>(strata::astype<double>(counts)));
        };
        CHECK(text_of(strata::num(t, ListAxis{-1})) == text(inner_lengths));
        CHECK(text_of(strata::num(t, ListAxis{3})) == text(inner_lengths));
        CHECK(text_of(strata::num(t, ListAxis{-2})) ==
              strata::to_string(JaggedTensor<double>(list_lengths)));
      }
    });
  }
  // Four ragged levels: along the innermost lists, by hand.
  const JaggedTensor<int> four(std::vector<std::vector<std::vector<std::vector<std::vector<int>>>>>{
      {{{{1, 2}, {3}}, {{4}}}}, {}, {{{{5, 6, 7}}}, {}}});
  CHECK(strata::to_string(strata::sum(four, ListAxis{-1})) ==
        "[[[[3, 3], [4]]], [], [[[18]], []]]");
  CHECK(strata::to_string(strata::sum(four, ListAxis{-2})) ==
        "[[[[4, 2], [4]]], [], [[[5, 6, 7]], []]]");
  // Across a higher level, by hand (awkward's axis=2, 1 and 0 of this array).
  CHECK(strata::to_string(strata::sum(four, ListAxis{-3})) ==
        "[[[[5, 2], [3]]], [], [[[5, 6, 7]], []]]");
  CHECK(strata::to_string(strata::sum(four, ListAxis{-4})) ==
        "[[[[1, 2], [3]], [[4]]], [], [[[5, 6, 7]]]]");
  CHECK(strata::to_string(strata::sum(four, ListAxis{0})) == "[[[[6, 8, 7], [3]], [[4]]], []]");
  CHECK(strata::to_string(strata::argmax(four, ListAxis{0})) == "[[[[2, 2, 2], [0]], [[0]]], []]");
  // ak.num at every depth from 2.
  CHECK(strata::to_string(strata::num(four, ListAxis{2})) == "[[2], [], [1, 0]]");
  CHECK(strata::to_string(strata::num(four, ListAxis{-2})) == "[[[2, 1]], [], [[1], []]]");
  CHECK(strata::to_string(strata::num(four, ListAxis{4})) == "[[[[2, 1], [1]]], [], [[[3]], []]]");
}

TEST_CASE("reductions inside rows of lists: bad input", "[jagged_lists][errors]") {
  using strata::test::check_error;
  const JaggedTensor<double> flat(strata::test::Rows{{1.0}, {}});
  check_error<strata::ShapeError>([&] { (void)strata::sum(flat, ListAxis{-1}); }, "sum",
                                  "n * var * var");
  const JaggedTensor<double> deep(Deep{{{1.0}, {2.0, 3.0}}, {}});
  check_error<strata::IndexError>([&] { (void)strata::max(deep, ListAxis{-5}); }, "max",
                                  "ListAxis{-5}");
  check_error<strata::IndexError>([&] { (void)strata::nanmin(deep, ListAxis{3}); }, "nanmin",
                                  "ListAxis{3}");
  check_error<strata::IndexError>([&] { (void)strata::all(deep, ListAxis{-4}); }, "all",
                                  "ListAxis{-4}");
  check_error<strata::ShapeError>([&] { (void)strata::num(deep, ListAxis{1}); }, "num",
                                  "ListAxis{1}");
  check_error<strata::ShapeError>([&] { (void)strata::num(flat, ListAxis{-1}); }, "num",
                                  "n * var * var");
  check_error<strata::ShapeError>([&] { (void)strata::num(deep, 2); }, "num", "ListAxis{-1}");
  // Two outer axes over 1-D rows are not rows of lists.
  const JaggedTensor<double> grid(strata::Jagged::from_extents(Index{2, 2}, 1, Index{1, 0, 2, 1}));
  check_error<strata::ShapeError>([&] { (void)strata::sum(grid, ListAxis{-1}); }, "sum",
                                  "n * var * var");
  const JaggedTensor<double> deeper(std::vector<Deep>{{{{1.0}, {2.0}}, {}}, {}});
  check_error<strata::IndexError>([&] { (void)strata::sum(deeper, ListAxis{-5}); }, "sum",
                                  "ListAxis{-5} does not exist (rank 4");
  check_error<strata::IndexError>([&] { (void)strata::sum(deeper, ListAxis{4}); }, "sum",
                                  "ListAxis{4}");
  check_error<strata::IndexError>([&] { (void)strata::num(deeper, ListAxis{4}); }, "num",
                                  "ListAxis{4} does not exist (rank 4");
  check_error<strata::ShapeError>([&] { (void)strata::num(deeper, ListAxis{-3}); }, "num",
                                  "ListAxis{-3}: the counts along axis 1 are not jagged");
  CHECK(strata::sum(deep, {1, 2}).size() == 2);  // unchanged, still reducible
}

}  // namespace test_select_jagged_lists
