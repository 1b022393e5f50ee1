// Tests for strata/tensor/sparse.hpp: sparse tensors behave as dense ones, assemble from
// coordinate lists as a std::map reference does, and keep their sparsity through algorithms
// and expressions.
#include "strata/tensor/sparse.hpp"

#include "strata/expr/expr.hpp"
#include "strata/expr/reduce.hpp"
#include "strata/tensor/algorithms.hpp"
#include "strata/tensor/generators.hpp"

#include "check_error.hpp"
#include "layout/view_helpers.hpp"
#include "threads.hpp"

#include <catch2/catch.hpp>

#include <cstdint>

#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <tuple>

namespace test_tensor_sparse {

using strata::Index;
using strata::index_t;
using strata::Tensor;
using strata::test::check_error;
using strata::test::uniform;

namespace {

// The reference of an assembly: a std::map from coordinates to the combined value.
template <class T, class Op>
std::map<Index, T> reference(const std::vector<Index>& coords, const std::vector<T>& values,
                             Op op) {
  std::map<Index, T> ref;
  for (std::size_t e = 0; e < coords.size(); ++e) {
    auto [it, fresh] = ref.emplace(coords[e], values[e]);
    if (!fresh) {
      it->second = op(it->second, values[e]);
    }
  }
  return ref;
}

// The stored entries of a sparse tensor, as a map.
template <class T>
std::map<Index, T> stored(const Tensor<T>& t) {
  std::map<Index, T> out;
  for (const auto& [i, v] : strata::nonzeros(t)) {
    out.emplace(i, v);
  }
  return out;
}

// Drops the entries of a reference that equal the fill value (they are not stored).
template <class T>
std::map<Index, T> without(std::map<Index, T> ref, T fill) {
  std::erase_if(ref, [fill](const auto& kv) { return kv.second == fill; });
  return ref;
}

}  // namespace

TEST_CASE("sparse tensors store only what is written", "[tensor][sparse]") {
  auto s = strata::sparse<double>({1000, 1000});
  CHECK(s.size() == 1'000'000);
  s(3, 4) = 2.5;
  s.at({-1, 0}) = 1.0;
  CHECK(s(3, 4) == 2.5);
  CHECK(s(0, 0) == 0.0);
  CHECK(strata::is_sparse(s));
  CHECK_FALSE(strata::is_sparse(Tensor<double>({2})));
  CHECK(strata::sparse_buffer(s)->nnz() == 2);
  SECTION("nonzeros maps stored addresses through the view") {
    const auto nz = strata::nonzeros(s);
    REQUIRE(nz.size() == 2);
    CHECK(nz[0].first == Index{3, 4});
    CHECK(nz[1].first == Index{999, 0});
    const auto t = strata::nonzeros(s.transpose());
    CHECK(t[0].first == Index{0, 999});
    CHECK(t[1].first == Index{4, 3});
    const auto b = strata::nonzeros(s.select({3}).broadcast({2, 1000}));
    CHECK(b.size() == 2);
    CHECK(b[1].first == Index{1, 4});
  }
  SECTION("views of a sparse tensor are writable and stay sparse") {
    s.select({strata::all, 7}).fill(1.0);
    CHECK(strata::sparse_buffer(s)->nnz() == 1002);
  }
  CHECK_THROWS_AS(strata::nonzeros(Tensor<double>::of({1, 2})), strata::LayoutError);
}

static_assert(std::ranges::random_access_range<strata::Nonzeros<double>>);

TEST_CASE("sparse elements take += and the other compound assignments",
          "[tensor][sparse][assembly]") {
  // A finite-element-style scatter through element references, against a std::map.
  std::mt19937_64 rng(5);
  const index_t n = 1'000'000;
  auto K = strata::sparse<double>({n, n});
  std::map<Index, double> ref;
  for (int e = 0; e < 20'000; ++e) {
    const index_t i = uniform(rng, 0, n - 1);
    const index_t j = e % 10 == 0 ? i : uniform(rng, 0, n - 1);  // some repeats
    const double v = static_cast<double>(uniform(rng, 1, 9));
    K(i, j) += v;
    ref[Index{i, j}] += v;
    if (e % 7 == 0) {
      K(j, i) = K(j, i) + v;  // the spelling that used not to compile
      ref[Index{j, i}] += v;
    }
  }
  CHECK(stored(K) == ref);
  CHECK(strata::sparse_buffer(K)->nnz() == static_cast<index_t>(ref.size()));
  const Index first = ref.begin()->first;
  K(first[0], first[1]) *= 2.0;
  K(first[0], first[1]) -= ref[first] * 2.0;  // back to the fill value: erased
  CHECK(K(first[0], first[1]) == 0.0);
  CHECK(strata::sparse_buffer(K)->nnz() == static_cast<index_t>(ref.size()) - 1);
}

TEST_CASE("sparse_from_coo combines duplicates as a std::map does", "[tensor][sparse][assembly]") {
  std::mt19937_64 rng(17);
  const auto check = [&](const Index& shape, index_t count, index_t distinct) {
    // `distinct` coordinates drawn at random, then `count` entries drawn from them.
    std::vector<Index> pool;
    for (index_t d = 0; d < std::max<index_t>(distinct, 1); ++d) {
      Index c(shape.size());
      for (std::size_t k = 0; k < shape.size(); ++k) {
        const index_t pick = uniform(rng, 0, 3);  // extremes often
        c[k] = pick == 0 ? 0 : pick == 1 ? shape[k] - 1 : uniform(rng, 0, shape[k] - 1);
      }
      pool.push_back(c);
    }
    std::vector<Index> coords;
    std::vector<std::vector<index_t>> axes(shape.size());
    std::vector<long> values;
    for (index_t e = 0; e < count; ++e) {
      coords.push_back(pool[static_cast<std::size_t>(uniform(rng, 0, distinct - 1))]);
      for (std::size_t k = 0; k < shape.size(); ++k) {
        axes[k].push_back(coords.back()[k]);
      }
      values.push_back(uniform(rng, -3, 3));  // zeros and cancellations happen
    }
    INFO("shape " << strata::to_string(shape) << ", " << count << " entries of " << distinct);
    // Per-axis lists (rank 2) and a coordinate tensor (any rank).
    Tensor<long> K = shape.size() == 2
                         ? strata::sparse_from_coo(shape, {axes[0], axes[1]}, values)
                         : strata::sparse_from_coo(
                               shape,
                               [&] {
                                 Tensor<index_t> c({count, static_cast<index_t>(shape.size())});
                                 for (index_t e = 0; e < count; ++e) {
                                   for (std::size_t k = 0; k < shape.size(); ++k) {
                                     c(e, static_cast<index_t>(k)) =
                                         coords[static_cast<std::size_t>(e)][k];
                                   }
                                 }
                                 return c;
                               }(),
                               Tensor<long>::from_vector(values, {count}));
    REQUIRE(stored(K) == without(reference(coords, values, std::plus<>{}), 0L));
    // Any binary operation, in the order of the list: "keep the last" shows the order.
    const auto last = strata::sparse_from_coo(
        shape, axes, values, [](long /*a*/, long b) { return b; }, -100L);
    REQUIRE(stored(last) ==
            without(reference(coords, values, [](long /*a*/, long b) { return b; }), -100L));
    CHECK(strata::sparse_buffer(last)->fill() == -100);
    const auto top =
        strata::sparse_from_coo(shape, axes, values, [](long a, long b) { return std::max(a, b); });
    REQUIRE(stored(top) ==
            without(reference(coords, values, [](long a, long b) { return std::max(a, b); }), 0L));
  };
  check({5, 7}, 0, 1);                                // empty
  check({5, 7}, 1, 1);                                // one entry
  check({5, 7}, 300, 1);                              // all duplicates
  check({5, 7}, 40, 30);                              // small: a comparison sort
  check({1'000'000, 1'000'000}, 5000, 3000);          // radix sort, 40-bit addresses
  check({3'000'000'000, 3'000'000'000}, 3000, 2500);  // int64-sized: 63-bit addresses
  check({4, 1, 6, 5}, 2000, 100);                     // rank 4, heavy duplication
  check({2'000'000'000'000, 3}, 1000, 800);           // extremes of a long axis
}

TEST_CASE("sparse_from_coo takes any view of coordinates", "[tensor][sparse][assembly]") {
  // Axis-major coordinates (one row per axis, as pydata/sparse keeps them) are the transpose.
  const Tensor<int> by_axis{{0, 2, 0}, {1, 2, 1}};
  const auto K =
      strata::sparse_from_coo({3, 3}, by_axis.transpose(), Tensor<double>::of({1, 5, 2}));
  CHECK(K(0, 1) == 3.0);
  CHECK(K(2, 2) == 5.0);
  CHECK(strata::sparse_buffer(K)->nnz() == 2);
}

TEST_CASE("sparse_from_coo takes index lists of any integer type", "[tensor][sparse][assembly]") {
  const std::vector<int> rows{0, 2, 0};
  const std::vector<long long> cols{1, 2, 1};
  const std::vector<double> values{1, 5, 2};
  const auto K = strata::sparse_from_coo({3, 3}, {rows, cols}, values);
  CHECK(K(0, 1) == 3.0);
  CHECK(K(2, 2) == 5.0);
  const std::vector<std::vector<std::uint32_t>> lists{{0, 2, 0}, {1, 2, 1}};
  CHECK(strata::sparse_from_coo({3, 3}, lists, values) == K);
  SECTION("a value that does not fit in int64 is an IndexError naming the entry") {
    const std::vector<std::uint64_t> huge{0, std::uint64_t{1} << 63U, 0};
    check_error<strata::IndexError>(
        [&] {
          (void)strata::sparse_from_coo({3, 3}, {rows, huge}, values);
        },
        "sparse_from_coo", "entry 1 has index 9223372036854775808");
    const std::vector<int> negative{0, -1, 0};
    check_error<strata::IndexError>(
        [&] {
          (void)strata::sparse_from_coo({3, 3}, {rows, negative}, values);
        },
        "sparse_from_coo", "entry 1 has index [2 -1]");
  }
}

TEST_CASE("sparse_from_coo rejects bad input and builds nothing", "[tensor][sparse][errors]") {
  std::vector<index_t> rows{0, 1, 2, 3};
  std::vector<index_t> cols{0, 1, 5, 1};
  std::vector<index_t> short_cols{0, 1};
  std::vector<double> values{1, 2, 3, 4};
  check_error<strata::IndexError>(
      [&] {
        (void)strata::sparse_from_coo({4, 4}, {rows, cols}, values);
      },
      "sparse_from_coo", "entry 2");
  check_error<strata::IndexError>(
      [&] {
        (void)strata::sparse_from_coo({4, 4, 4}, {rows, cols}, values);
      },
      "sparse_from_coo", "2 index lists for a shape of rank 3");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::sparse_from_coo({4, 4}, {rows, short_cols}, values);
      },
      "sparse_from_coo", "index list 1 has 2 entries for 4 values");
  std::vector<index_t> negative{0, -1, 0, 0};
  check_error<strata::IndexError>(
      [&] {
        (void)strata::sparse_from_coo({4, 4}, {rows, negative}, values);
      },
      "sparse_from_coo", "entry 1 has index [1 -1]");
  const Tensor<index_t> wrong_rank({4, 3});
  check_error<strata::IndexError>(
      [&] {
        (void)strata::sparse_from_coo({4, 4}, wrong_rank, Tensor<double>({4}));
      },
      "sparse_from_coo", "3 entries per row for a shape of rank 2");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::sparse_from_coo({4, 4}, Tensor<index_t>({4, 2}), Tensor<double>({3}));
      },
      "sparse_from_coo", "values of shape [3] for 4 coordinates");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::sparse_from_coo({4, 4}, Tensor<index_t>({4}), Tensor<double>({4}));
      },
      "sparse_from_coo", "coordinates of shape [4]");
}

TEST_CASE("bad writes and predicates leave a sparse tensor unchanged", "[tensor][sparse][errors]") {
  auto K = strata::sparse<double>({4, 4});
  K(1, 2) = 3.0;
  auto broadcast = K.select({1}).broadcast({3, 4});
  check_error<strata::LayoutError>([&] { broadcast(0, 2) = 1.0; }, "write", "share address");
  auto transposed_broadcast = K.select({strata::all, 2}).broadcast({4, 4}).transpose();
  check_error<strata::LayoutError>([&] { transposed_broadcast(1, 0) += 1.0; }, "write",
                                   "share address");
  check_error<strata::LayoutError>([&] { transposed_broadcast.fill(2.0); }, "fill", "share");
  CHECK(strata::sparse_buffer(K)->nnz() == 1);
  CHECK(K(1, 2) == 3.0);
  // A predicate that throws: the exception reaches the caller, nothing is built.
  const Tensor<double> dense = strata::to_dense(K);
  CHECK_THROWS_AS(strata::to_sparse(dense,
                                    [](double x) -> bool {
                                      if (x > 2.0) {
                                        throw std::runtime_error("predicate");
                                      }
                                      return x != 0.0;
                                    }),
                  std::runtime_error);
  CHECK(dense(1, 2) == 3.0);
  check_error<strata::LayoutError>([&] { (void)strata::csr(dense); }, "csr", "not a SparseBuffer");
  check_error<strata::LayoutError>([&] { strata::for_each_nonzero(dense, [](auto&&...) {}); },
                                   "for_each_nonzero", "not a SparseBuffer");
  check_error<strata::LayoutError>([&] { strata::for_each_fiber(dense, [](auto&&...) {}); },
                                   "for_each_fiber", "not a SparseBuffer");
  check_error<strata::ShapeError>(
      [&] {
        (void)strata::csr(strata::sparse<double>({2, 2, 2}));
      },
      "csr", "shape [2 2 2]");
  check_error<strata::LayoutError>(
      [&] {
        (void)strata::csc(strata::sparse<double>({2, 2}, 1.0));
      },
      "csc", "fill value is not zero");
  check_error<strata::ShapeError>(
      [&] { strata::for_each_fiber(strata::sparse<double>({}), [](auto&&...) {}); },
      "for_each_fiber", "rank 0");
}

TEST_CASE("to_sparse keeps what a predicate or threshold keeps", "[tensor][sparse]") {
  const Tensor<double> t{{0.5, 1e-14, -2.0}, {0.0, -1e-13, 3.0}};
  const auto s = strata::to_sparse(t, [](double x) { return std::abs(x) > 1e-12; });
  CHECK(strata::sparse_buffer(s)->nnz() == 3);
  CHECK(s(0, 1) == 0.0);
  CHECK(s(1, 2) == 3.0);
  const auto filled = strata::to_sparse(
      t, [](double x) { return x > 0.0; }, -1.0);
  CHECK(filled(0, 2) == -1.0);
  CHECK(filled(0, 0) == 0.5);
  CHECK(strata::to_dense(strata::to_sparse(t)) == t);
}

TEST_CASE("sparse algorithms equal dense ones on random views", "[tensor][sparse][property]") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 400; ++trial) {
    const strata::Dimensions d = strata::test::random_view(rng, 5);
    const auto addresses = strata::test::addresses(d);
    const index_t span =
        addresses.empty() ? 1 : *std::max_element(addresses.begin(), addresses.end()) + 1;
    const int fill = trial % 3 == 0 ? 1 : 0;
    std::vector<int> values(static_cast<std::size_t>(span));
    for (auto& v : values) {
      v = rng() % 3 == 0 ? static_cast<int>(rng() % 9) - 4 : fill;
    }
    const auto dense = Tensor<int>::from_vector(values, {span});
    const auto sparse = strata::to_sparse(dense, fill);
    const Tensor<int> dv(dense.buffer(), d);
    const Tensor<int> sv(sparse.buffer(), d);
    INFO("view " << d << ", fill " << fill);
    REQUIRE(sv.to_vector() == dv.to_vector());
    REQUIRE(strata::to_dense(sv).to_vector() == dv.to_vector());
    // nonzeros lists exactly the elements that differ from the fill, in row-major order.
    const auto all = dv.to_vector();
    std::vector<std::pair<Index, int>> expected;
    Index g(static_cast<std::size_t>(d.rank()), 0);
    for (index_t i = 0; i < dv.size(); ++i) {
      if (all[static_cast<std::size_t>(i)] != fill) {
        expected.emplace_back(g, all[static_cast<std::size_t>(i)]);
      }
      for (std::size_t k = g.size(); k-- > 0;) {
        if (++g[k] < dv.shape()[k]) {
          break;
        }
        g[k] = 0;
      }
    }
    const auto nz = strata::nonzeros(sv);
    REQUIRE(std::vector<std::pair<Index, int>>(nz.begin(), nz.end()) == expected);
    REQUIRE(nz.size() == static_cast<index_t>(expected.size()));
    if (!expected.empty()) {
      CHECK(nz[nz.size() - 1] == expected.back());
      CHECK(*(nz.end() - 1) == expected.back());
    }
    std::size_t visited = 0;
    strata::for_each_nonzero(sv, [&](strata::IndexSpan i, int v) {
      REQUIRE(visited < expected.size());
      CHECK(Index(i) == expected[visited].first);
      CHECK(v == expected[visited].second);
      ++visited;
    });
    CHECK(visited == expected.size());
    // Reductions along random axes: stored entries plus the fill in closed form.
    Index axes;
    for (index_t k = 0; k < d.rank(); ++k) {
      if (rng() % 2 == 0) {
        axes.push_back(k);
      }
    }
    const bool keep = rng() % 2 == 0;
    REQUIRE(strata::sum(sv, axes, keep) == strata::sum(dv, axes, keep));
    REQUIRE(strata::max(sv, axes, keep) == strata::max(dv, axes, keep));
    REQUIRE(strata::min(sv, axes, keep) == strata::min(dv, axes, keep));
    const auto bit_xor = [](int a, int b) { return a ^ b; };  // x ^ x ^ ... depends on the count
    REQUIRE(strata::reduce(sv, axes, 0, bit_xor, keep) ==
            strata::reduce(dv, axes, 0, bit_xor, keep));
    REQUIRE(strata::sum(sv) == strata::sum(dv));
    // map keeps sparsity with fill f(fill).
    const auto shifted = strata::map(sv, [](int x) { return 2 * x + 1; });
    REQUIRE(strata::is_sparse(shifted));
    CHECK(strata::sparse_buffer(shifted)->fill() == 2 * fill + 1);
    REQUIRE(shifted == strata::map(dv, [](int x) { return 2 * x + 1; }));
    // Sparse with sparse: zip_with and expressions stay sparse.
    const auto twice = strata::zip_with(sv, sv, std::plus<>{});
    REQUIRE(strata::is_sparse(twice));
    REQUIRE(twice == strata::zip_with(dv, dv, std::plus<>{}));
    const Tensor<int> e = sv * 3 - sv;
    REQUIRE(strata::is_sparse(e));
    REQUIRE(e == Tensor<int>(dv * 3 - dv));
    // Sparse (fill 0) times dense: sparse, on the sparse factor's entries.
    if (fill == 0) {
      const Tensor<int> other = strata::iota<int>(dv.shape()).copy();
      const Tensor<int> product = sv * other;
      REQUIRE(strata::is_sparse(product));
      REQUIRE(product == Tensor<int>(dv * other));
      const Tensor<int> product2 = (other + 1) * sv;
      REQUIRE(strata::is_sparse(product2));
      REQUIRE(product2 == Tensor<int>((other + 1) * dv));
    }
    // Reductions of sparse expressions, combined as they are computed (fill in closed form).
    REQUIRE(strata::sum(sv * 3 - sv, axes, keep) ==
            strata::sum(Tensor<int>(dv * 3 - dv), axes, keep));
    if (fill == 0) {
      const Tensor<int> other = strata::iota<int>(dv.shape()).copy();
      REQUIRE(strata::sum(sv * other, axes, keep) ==
              strata::sum(Tensor<int>(dv * other), axes, keep));
    }
    const Tensor<int> mixed = sv + 1;  // constant outside: sparse with fill + 1
    REQUIRE(strata::is_sparse(mixed));
    REQUIRE(mixed == Tensor<int>(dv + 1));
    // Fibres: every stored entry once, grouped by prefix, in row-major order.
    if (d.rank() >= 1) {
      std::vector<std::pair<Index, int>> fibres;
      strata::for_each_fiber(sv, [&](strata::IndexSpan prefix, std::span<const index_t> last,
                                     std::span<const int> vals) {
        REQUIRE(last.size() == vals.size());
        REQUIRE_FALSE(last.empty());
        for (std::size_t k = 0; k < last.size(); ++k) {
          Index full(prefix.begin(), prefix.end());
          full.push_back(last[k]);
          fibres.emplace_back(full, vals[k]);
        }
      });
      REQUIRE(fibres == expected);
    }
    // Compressed rows and columns of every matrix view, against the dense matrix.
    if (d.rank() == 2 && fill == 0) {
      for (const bool by_rows : {true, false}) {
        const auto c = by_rows ? strata::csr(sv) : strata::csc(sv);
        const index_t outer = by_rows ? dv.shape()[0] : dv.shape()[1];
        REQUIRE(c.offsets.size() == static_cast<std::size_t>(outer + 1));
        REQUIRE(c.offsets.back() == c.nnz());
        std::vector<std::pair<Index, int>> listed;
        for (index_t o = 0; o < outer; ++o) {
          for (index_t k = c.offsets[static_cast<std::size_t>(o)];
               k < c.offsets[static_cast<std::size_t>(o + 1)]; ++k) {
            const index_t inner = c.indices[static_cast<std::size_t>(k)];
            listed.emplace_back(by_rows ? Index{o, inner} : Index{inner, o},
                                c.values[static_cast<std::size_t>(k)]);
          }
        }
        if (!by_rows) {
          std::sort(listed.begin(), listed.end());
        }
        REQUIRE(listed == expected);
      }
    }
  }
}

TEST_CASE("compressed arrays made by several threads equal the counted ones",
          "[tensor][sparse][property]") {
  // Enough entries for the parallel build to split them into parts (the default grain is
  // 2^16), with runs of empty rows at the start, the end and in between, so part boundaries
  // fall inside rows and inside runs of empty ones.
  constexpr index_t n = 1000;
  std::mt19937_64 rng(77);
  std::vector<index_t> rows;
  std::vector<index_t> cols;
  std::vector<int> values;
  for (index_t i = 0; i < n; ++i) {
    if (i < 100 || i >= 900 || (i >= 400 && i < 450) || i % 97 == 0) {
      continue;  // an empty row
    }
    for (index_t j = 0; j < n; ++j) {
      if (uniform(rng, 0, 9) < 2) {
        rows.push_back(i);
        cols.push_back(j);
        values.push_back(static_cast<int>(uniform(rng, 1, 1000)));
      }
    }
  }
  REQUIRE(rows.size() > 2 * (std::size_t{1} << 16));  // three parts at three threads
  const Tensor<int> K = strata::sparse_from_coo({n, n}, {rows, cols}, values);
  // The reference: offsets counted and summed, entries sorted by (outer, inner).
  const auto reference = [&](bool by_rows, index_t first_col) {
    std::vector<std::tuple<index_t, index_t, int>> listed;
    for (std::size_t e = 0; e < rows.size(); ++e) {
      if (cols[e] >= first_col) {
        const index_t c = cols[e] - first_col;
        listed.emplace_back(by_rows ? rows[e] : c, by_rows ? c : rows[e], values[e]);
      }
    }
    std::sort(listed.begin(), listed.end());
    const index_t outer = by_rows ? n : n - first_col;
    std::vector<index_t> offsets(static_cast<std::size_t>(outer + 1), 0);
    std::vector<index_t> indices;
    std::vector<int> vals;
    for (const auto& [o, in, v] : listed) {
      ++offsets[static_cast<std::size_t>(o + 1)];
      indices.push_back(in);
      vals.push_back(v);
    }
    std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
    return std::tuple{offsets, indices, vals};
  };
  // The whole matrix (the buffer's own order) and a block of its columns (decoded).
  for (const index_t first_col : {index_t{0}, index_t{37}}) {
    const auto view = K.select({strata::all, strata::Range{first_col, n}});
    for (const bool by_rows : {true, false}) {
      // Named, not a structured binding: clang 14 cannot capture bindings in lambdas.
      const auto expected = reference(by_rows, first_col);
      for (const int threads : {1, 2, 3}) {
        strata::test::with_threads(threads, [&] {
          INFO("threads " << threads << ", columns from " << first_col << ", by rows " << by_rows);
          const auto c = by_rows ? strata::csr(view) : strata::csc(view);
          REQUIRE(c.offsets == std::get<0>(expected));
          REQUIRE(c.indices == std::get<1>(expected));
          REQUIRE(std::vector<int>(c.values.begin(), c.values.end()) == std::get<2>(expected));
        });
      }
    }
  }
}

TEST_CASE("csr shares the values of a row-major sparse tensor", "[tensor][sparse]") {
  std::vector<index_t> rows{2, 0, 1, 2};
  std::vector<index_t> cols{1, 3, 0, 0};
  std::vector<double> values{4, 1, 2, 3};
  const auto K = strata::sparse_from_coo({3, 4}, {rows, cols}, values);
  const auto a = strata::csr(K);
  CHECK(a.rows == 3);
  CHECK(a.cols == 4);
  CHECK(a.offsets == std::vector<index_t>{0, 1, 2, 4});
  CHECK(a.indices == std::vector<index_t>{3, 0, 0, 1});
  CHECK(std::vector<double>(a.values.begin(), a.values.end()) == std::vector<double>{1, 2, 3, 4});
  CHECK(a.values.data() == strata::sparse_buffer(K)->values().data());  // no copy
  const auto block = strata::csr(K.select({strata::Range{1, 3}}));
  CHECK(block.offsets == std::vector<index_t>{0, 1, 3});
  CHECK(block.values.data() == strata::sparse_buffer(K)->values().data() + 1);
  const auto b = strata::csc(K);
  CHECK(b.offsets == std::vector<index_t>{0, 2, 3, 3, 4});
  CHECK(b.indices == std::vector<index_t>{1, 2, 2, 0});
  CHECK(std::vector<double>(b.values.begin(), b.values.end()) == std::vector<double>{2, 3, 4, 1});
}

namespace {

// The row-major successor of multi-index g in shape (false after the last).
bool next_index(Index& g, const Index& shape) {
  for (std::size_t k = g.size(); k-- > 0;) {
    if (++g[k] < shape[k]) {
      return true;
    }
    g[k] = 0;
  }
  return false;
}

// sum(a * b, axes) by loops: a has the product's shape, b broadcasts to it (NumPy's rule);
// each output adds its products in row-major order from zero.
template <class A, class T>
std::pair<Index, std::vector<A>> naive_sum_product(const Tensor<T>& a, const Tensor<T>& b,
                                                   const std::vector<bool>& reduced, bool keep) {
  const Index shape = a.shape();
  const Index bshape = b.shape();
  const auto av = a.to_vector();
  const auto bv = b.to_vector();
  Index out_shape;
  Index kept_shape;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    kept_shape.push_back(reduced[k] ? 1 : shape[k]);
    if (!reduced[k] || keep) {
      out_shape.push_back(kept_shape.back());
    }
  }
  index_t cells = 1;
  for (const index_t e : kept_shape) {
    cells *= e;
  }
  std::vector<A> out(static_cast<std::size_t>(cells), A{0});
  if (a.size() == 0) {
    return {out_shape, out};
  }
  Index g(shape.size(), 0);
  std::size_t linear = 0;
  do {
    index_t cell = 0;
    index_t bat = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      cell = cell * kept_shape[k] + (reduced[k] ? 0 : g[k]);
    }
    const std::size_t lead = shape.size() - bshape.size();
    for (std::size_t k = 0; k < bshape.size(); ++k) {
      bat = bat * bshape[k] + (bshape[k] == 1 ? 0 : g[lead + k]);
    }
    auto& o = out[static_cast<std::size_t>(cell)];
    o = static_cast<A>(
        o + static_cast<A>(static_cast<T>(av[linear] * bv[static_cast<std::size_t>(bat)])));
    ++linear;
  } while (next_index(g, shape));
  return {out_shape, out};
}

}  // namespace

TEST_CASE("sum of a sparse tensor times a dense one equals the loop on random views",
          "[tensor][sparse][property]") {
  // sum(K * x, axes) runs through K's stored entries (compressed rows [kept, summed]) and x's
  // strides: random sparse views against dense factors that are permuted, reversed, broadcast
  // or the same view over an array (index arrays, rotations), either order, random axes.
  std::mt19937_64 rng(29);
  int fast = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const strata::Dimensions d = strata::test::random_view(rng, 5);
    const auto addresses = strata::test::addresses(d);
    const index_t span =
        addresses.empty() ? 1 : *std::max_element(addresses.begin(), addresses.end()) + 1;
    std::vector<int> values(static_cast<std::size_t>(span));
    for (auto& v : values) {
      v = rng() % 3 == 0 ? static_cast<int>(rng() % 9) - 4 : 0;
    }
    const auto base = Tensor<int>::from_vector(values, {span});
    const Tensor<int> sv(strata::to_sparse(base, 0).buffer(), d);
    const Index shape = sv.shape();
    const auto rank = shape.size();
    // The dense factor: the same view over the array, or a new array of a broadcastable shape
    // read permuted and reversed.
    Tensor<int> other;
    if (trial % 4 == 0) {
      other.rebind(Tensor<int>(base.buffer(), d));
    } else {
      const std::size_t drop = rank > 0 ? static_cast<std::size_t>(rng() % (rank + 1)) : 0;
      Index oshape(shape.begin() + static_cast<std::ptrdiff_t>(drop), shape.end());
      for (auto& e : oshape) {
        e = rng() % 4 == 0 ? 1 : e;
      }
      Index perm(oshape.size());
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), rng);
      Index stored_shape(oshape.size());
      for (std::size_t k = 0; k < perm.size(); ++k) {
        stored_shape[k] = oshape[static_cast<std::size_t>(perm[k])];
      }
      Tensor<int> array = strata::iota<int>(stored_shape).copy();
      array -= 3;
      Index inverse(perm.size());
      for (std::size_t k = 0; k < perm.size(); ++k) {
        inverse[static_cast<std::size_t>(perm[k])] = static_cast<index_t>(k);
      }
      other.rebind(array.transpose(inverse));
      Index flips;
      for (std::size_t k = 0; k < oshape.size(); ++k) {
        if (rng() % 2 == 0) {
          flips.push_back(static_cast<index_t>(k));
        }
      }
      other.rebind(other.reverse(flips));
    }
    Index axes;
    std::vector<bool> reduced(rank, false);
    for (std::size_t k = 0; k < rank; ++k) {
      if (rng() % 2 == 0) {
        axes.push_back(static_cast<index_t>(k));
        reduced[k] = true;
      }
    }
    const bool keep = rng() % 2 == 0;
    INFO("view " << d << ", dense " << other.dims() << ", axes " << strata::to_string(axes)
                 << ", keepdims " << keep);
    const auto [expected_shape, expected] =
        naive_sum_product<std::int64_t>(sv, other, reduced, keep);
    const Tensor<std::int64_t> left = strata::sum(sv * other, axes, keep);
    REQUIRE(left.shape() == expected_shape);
    REQUIRE(left.to_vector() == expected);
    const Tensor<std::int64_t> right = strata::sum(strata::seq, other * sv, axes, keep);
    REQUIRE(right.to_vector() == expected);
    fast += std::find(reduced.begin(), reduced.end(), true) != reduced.end() && sv.size() > 0;
  }
  CHECK(fast > 200);  // the stored-entries loop ran (summed axes, a non-empty shape)
}

TEST_CASE("sum(K * x, 1) adds each row in order, the same bits at any thread count",
          "[tensor][sparse]") {
  // Doubles that round: the documented order (each row's products from zero, in column order)
  // gives one answer, the same for seq and par and as evaluating then summing.
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  const index_t n = 3000;
  std::vector<index_t> rows;
  std::vector<index_t> cols;
  std::vector<double> entries;
  for (index_t i = 0; i < n; ++i) {
    for (int e = 0; e < 7; ++e) {
      rows.push_back(i);
      cols.push_back(static_cast<index_t>(rng() % static_cast<std::uint64_t>(n)));
      entries.push_back(value(rng));
    }
  }
  auto K = strata::sparse_from_coo({n, n}, {rows, cols}, entries);
  Tensor<double> x({n});
  for (index_t j = 0; j < n; ++j) {
    x(j) = value(rng);
  }
  std::vector<double> expected(static_cast<std::size_t>(n), 0.0);
  const auto a = strata::csr(K);
  for (index_t i = 0; i < n; ++i) {
    double s = 0.0;
    for (index_t e = a.offsets[static_cast<std::size_t>(i)];
         e < a.offsets[static_cast<std::size_t>(i + 1)]; ++e) {
      s += a.values[static_cast<std::size_t>(e)] * x(a.indices[static_cast<std::size_t>(e)]);
    }
    expected[static_cast<std::size_t>(i)] = s;
  }
  const Tensor<double> y = strata::sum(strata::Parallel{1, 2}, K * x, 1);
  CHECK(y.to_vector() == expected);
  CHECK(strata::sum(strata::seq, K * x, 1).to_vector() == expected);
  CHECK(strata::sum(Tensor<double>(K * x), 1).to_vector() == expected);
  // Again on the kept compressed rows, and after K changes (they are made again).
  CHECK(strata::sum(x * K, 1).to_vector() == expected);
  K(0, 0) += 1.0;
  const Tensor<double> z = strata::sum(K * x, 1);
  CHECK(z(0) == Approx(expected[0] + x(0)));
  CHECK(z(1) == expected[1]);
  // Every axis summed: one value, the products in row-major order.
  const auto b = strata::csr(K);
  double total = 0.0;
  for (index_t e = 0; e < b.nnz(); ++e) {
    total += b.values[static_cast<std::size_t>(e)] * x(b.indices[static_cast<std::size_t>(e)]);
  }
  CHECK(strata::sum(K * x) == total);
  // Bad axes: the sum's error, nothing kept.
  check_error<strata::IndexError>([&] { (void)strata::sum(K * x, 2); }, "sum", "2");
}

TEST_CASE("sparse reductions and products never visit the fill", "[tensor][sparse]") {
  // 10^12 elements: only an O(nnz) path can answer.
  const index_t n = 1'000'000;
  auto K = strata::sparse<double>({n, n});
  K(0, 0) = 1.0;
  K(5, n - 1) = 2.0;
  K(n - 1, 5) = 3.0;
  CHECK(strata::sum(K) == 6.0);
  const Tensor<double> rows = strata::sum(K, 1);
  CHECK(rows(5) == 2.0);
  CHECK(rows(n - 1) == 3.0);
  CHECK(strata::max(K) == 3.0);
  CHECK(strata::min(K) == 0.0);
  const Tensor<double> x = strata::full<double>({n}, 2.0).copy();
  const Tensor<double> y = strata::sum(K * x, 1);  // a sparse matrix times a vector
  CHECK(y(0) == 2.0);
  CHECK(y(5) == 4.0);
  CHECK(y(n - 1) == 6.0);
  K *= 10.0;  // in place, stays sparse
  CHECK(strata::sparse_buffer(K)->nnz() == 3);
  CHECK(K(5, n - 1) == 20.0);
  K = K + K;
  CHECK(K(n - 1, 5) == 60.0);
  const auto mapped = strata::map(K, [](double v) { return v + 1.0; });
  CHECK(strata::sparse_buffer(mapped)->fill() == 1.0);
  CHECK(strata::sparse_buffer(mapped)->nnz() == 3);
}

}  // namespace test_tensor_sparse
