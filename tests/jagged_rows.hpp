// Test helpers for jagged tensors: random rows as nested std::vectors (the references' input)
// and a tensor's rows read back as nested vectors.
#pragma once

#include "strata/tensor/jagged_tensor.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace strata::test {

/// a equals b: NaN equal to NaN, infinities exactly, finite values to 1e-12 relative (and 1e-12
/// absolute near zero), the comparison of reductions computed in another order.
inline bool same(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) {
    return std::isnan(a) && std::isnan(b);
  }
  if (std::isinf(a) || std::isinf(b)) {
    return a == b;
  }
  return a == Approx(b).epsilon(1e-12).margin(1e-12);
}

// The reference reductions of one list of values, as NumPy defines them (plain loops, in order).

/// The minimum, NaN when the list holds one, +inf when it is empty.
inline double ref_min(const std::vector<double>& v) {
  double m = std::numeric_limits<double>::infinity();
  for (const double x : v) {
    if (std::isnan(x)) {
      return x;
    }
    m = std::min(m, x);
  }
  return m;
}
/// The maximum, NaN when the list holds one, -inf when it is empty.
inline double ref_max(const std::vector<double>& v) {
  double m = -std::numeric_limits<double>::infinity();
  for (const double x : v) {
    if (std::isnan(x)) {
      return x;
    }
    m = std::max(m, x);
  }
  return m;
}
/// The mean (NaN when empty).
inline double ref_mean(const std::vector<double>& v) {
  double s = 0;
  for (const double x : v) {
    s += x;
  }
  return s / static_cast<double>(v.size());
}
/// The variance, two passes, dividing by max(size - ddof, 0).
inline double ref_var(const std::vector<double>& v, index_t ddof) {
  const double m = ref_mean(v);
  double s = 0;
  for (const double x : v) {
    s += (x - m) * (x - m);
  }
  return s / static_cast<double>(std::max<index_t>(static_cast<index_t>(v.size()) - ddof, 0));
}

/// Rows of doubles, the nested-vector form the references work on.
using Rows = std::vector<std::vector<double>>;

/// Random rows of integers in [-magnitude, magnitude] (small ones make sums exact in any
/// order), lengths 0..max_length; with @p specials about one element in 40 is NaN, +inf or -inf.
inline Rows random_rows(std::mt19937& rng, index_t rows, index_t max_length, int magnitude = 3,
                        bool specials = false) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::uniform_int_distribution<index_t> length(0, max_length);
  std::uniform_int_distribution<int> value(-magnitude, magnitude);
  std::uniform_int_distribution<int> special(0, 119);
  Rows out(static_cast<std::size_t>(rows));
  for (auto& row : out) {
    row.resize(static_cast<std::size_t>(length(rng)));
    for (double& x : row) {
      const int s = specials ? special(rng) : 99;
      x = s == 0 ? nan : s == 1 ? inf : s == 2 ? -inf : value(rng);
    }
  }
  return out;
}

/// The rows of a jagged tensor with 1-D rows, as nested vectors (a slice of rows reads its own).
template <class T>
std::vector<std::vector<T>> rows_of(const JaggedTensor<T>& t) {
  std::vector<std::vector<T>> out;
  for (index_t r = 0; r < t.shape().n_rows(); ++r) {
    const auto row = t.row(t.first_row() + r);
    out.emplace_back(row.begin(), row.end());
  }
  return out;
}

/// Rows of lists of values, as nested vectors.
using Deep = std::vector<std::vector<std::vector<double>>>;

/// Random rows of @p lists lists each of 0-4 values (0, 1, 2, ... in order); every list of a
/// row of one length when @p rectangular.
inline Deep random_deep(std::mt19937& rng, std::size_t rows,
                        std::uniform_int_distribution<int>& lists, bool rectangular) {
  std::uniform_int_distribution<int> length(0, 4);
  Deep data(rows);
  double next = 0;
  for (auto& row : data) {
    row.resize(static_cast<std::size_t>(lists(rng)));
    const int common = length(rng);
    for (auto& list : row) {
      list.resize(static_cast<std::size_t>(rectangular ? common : length(rng)));
      for (double& x : list) {
        x = next++;
      }
    }
  }
  return data;
}

/// The tensor of @p data: rows of lists (some rows come out rectangular, stored smooth), or,
/// when @p rectangular, a tensor of smooth rows of rank 2 (a batch of matrices, which keeps no
/// list index of its own). No rows are smooth rows of rank 2 (nested vectors without rows carry
/// no depth).
inline JaggedTensor<double> deep_tensor(const Deep& data, bool rectangular) {
  if (!rectangular && !data.empty()) {
    return JaggedTensor<double>(data);
  }
  std::vector<index_t> extents;
  std::vector<double> values;
  for (const auto& row : data) {
    extents.push_back(static_cast<index_t>(row.size()));
    extents.push_back(row.empty() ? 0 : static_cast<index_t>(row[0].size()));
    for (const auto& list : row) {
      values.insert(values.end(), list.begin(), list.end());
    }
  }
  return JaggedTensor<double>::from_values(
      values, Jagged::from_extents(Index{static_cast<index_t>(data.size())}, 2, extents));
}

}  // namespace strata::test
