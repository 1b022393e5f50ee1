/// @file
/// More reductions of jagged tensors: the NaN-skipping ones, awkward-array's `ak.nansum`,
/// `ak.nanprod`, `ak.nanmean`, `ak.nanvar`, `ak.nanstd`, `ak.nanmin`, `ak.nanmax`, `ak.nanargmin`
/// and `ak.nanargmax` (NumPy's nan-functions applied to each row), and the weighted mean,
/// `average(jt, axis, weights)` (NumPy's `np.average`, awkward's `ak.mean(x, weight=w)`), and the
/// weighted variance and standard deviation, `var(jt, axis, weights, ddof)` and `std(...)`
/// (awkward's `ak.var` / `ak.std` with `weight=`): along
/// the ragged modes, or along the outer axis of a `n * var` tensor (`{0}`, awkward's `axis=0`),
/// as the reductions of strata/expr/jagged.hpp.
///
/// A NaN is left out: nansum and nanprod take it as 0 and 1 (NumPy's nansum: the other values
/// add in the same order as sum's); nanmean, nanvar and nanstd divide by the count of the other
/// values (NaN where there are none, as NumPy); nanmin and nanmax of a row with nothing but
/// NaN give the identity of an empty row (+-infinity, as `ak.nanmin(..., mask_identity=False)`;
/// NumPy, which has no empty rows to agree with, gives NaN); nanargmin and nanargmax give the
/// position in the whole row, -1 when there is nothing but NaN. For integer types each is the
/// plain reduction.
///
/// @code
/// strata::JaggedTensor<double> jt({{1.0, NAN, 3.0}, {NAN}, {}});
/// strata::nansum(jt, 1);     // [4, 0, 0]
/// strata::nanmean(jt, 1);    // [2, nan, nan]
/// strata::nanargmax(jt, 1);  // [2, -1, -1]
/// strata::nanmax(jt, 0);     // [1, -inf, 3]: positions 0, 1, 2 across the rows
/// strata::average(jt2, 1, weights);  // sum(w * x) / sum(w) per row
/// @endcode
#pragma once

#include "strata/expr/jagged.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <span>
#include <type_traits>

namespace strata {

namespace detail {

/// The sum of @p count contiguous values with NaN taken as 0, in contiguous_sum's order (so it
/// has the bits of contiguous_sum over the values with their NaNs replaced by 0, NumPy's
/// nansum); @p kept gets how many are not NaN.
template <class V>
V contiguous_nansum(const V* src, index_t count, index_t& kept) {
  const auto value = [](V x) { return is_nan(x) ? V{} : x; };
  index_t nans = 0;
  for (index_t k = 0; k < count; ++k) {
    nans += is_nan(src[k]) ? 1 : 0;
  }
  kept = count - nans;
  if (count < 16) {
    V sum{};
    for (index_t k = 0; k < count; ++k) {
      sum = sum + value(src[k]);
    }
    return sum;
  }
  std::array<V, 8> lanes{};
  index_t k = 0;
  for (; k + 8 <= count; k += 8) {
    for (std::size_t l = 0; l < 8; ++l) {
      lanes[l] += value(src[k + static_cast<index_t>(l)]);
    }
  }
  V tail{};
  for (; k < count; ++k) {
    tail += value(src[k]);
  }
  return ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) +
         ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7])) + tail;
}

/// The variance of the values of @p n that are not NaN, as row_variance() of them (two passes,
/// in order), dividing by max(kept - ddof, 0).
template <class R, class T>
R row_nanvariance(const T* x, index_t n, index_t ddof) {
  R mean{};
  index_t kept = 0;
  for (index_t k = 0; k < n; ++k) {
    if (!is_nan(x[k])) {
      mean += static_cast<R>(x[k]);
      ++kept;
    }
  }
  mean /= static_cast<R>(kept);
  R squares{};
  for (index_t k = 0; k < n; ++k) {
    if (!is_nan(x[k])) {
      const R d = static_cast<R>(x[k]) - mean;
      squares += d * d;
    }
  }
  return squares / static_cast<R>(std::max<index_t>(kept - ddof, 0));
}

/// The position of the best value of @p n under `better(a, b)` that is not NaN (the first when
/// it repeats), -1 when there is none.
template <class T, class Better>
index_t best_position_skipping_nan(const T* x, index_t n, Better better) {
  index_t best = -1;
  for (index_t k = 0; k < n; ++k) {
    if (!is_nan(x[k]) && (best < 0 || better(x[k], x[best]))) {
      best = k;
    }
  }
  return best;
}

/// The owner (for OuterColumns the row) of the best value that is not NaN of each column under
/// `better(a, b)` (a strict order; the first when it repeats), -1 where there is none.
template <class C, class Better>
Tensor<index_t> column_best_skipping_nan(const C& columns, Better better) {
  using T = typename C::value_type;
  Tensor<T> best(Index{columns.size()});
  T* const b = best.data();
  return columns(index_t{-1}, [b, &better](index_t& at, const T& x, index_t owner, index_t k) {
    if (!is_nan(x) && (at < 0 || better(x, b[k]))) {
      at = owner;
      b[k] = x;
    }
  });
}

}  // namespace detail

/// Sum of each row along the ragged modes with NaN taken as 0 (`np.nansum(row)` per row,
/// `ak.nansum`), or along the outer axis of a `n * var` tensor (`{0}`); 0 for an empty row.
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep them with extent 1
/// @return the sums
/// @throws ShapeError when the axes are neither all the ragged modes nor the outer axis of a
///         `n * var` tensor; IndexError when an axis does not exist
template <class T>
Tensor<T> nansum(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("nansum", t.shape(), axes)) {
    return detail::outer_result(
        detail::fold_columns<T>(t, T{},
                                [](T& a, const T& x, index_t /*r*/, index_t /*k*/) {
                                  a = detail::is_nan(x) ? a : static_cast<T>(a + x);
                                }),
        keepdims);
  }
  return detail::ragged_reduction<T>("nansum", t, axes, keepdims, [](const T* x, index_t n) {
    index_t kept = 0;
    return detail::contiguous_nansum(x, n, kept);
  });
}
/// Product of each row along the ragged modes with NaN taken as 1 (`ak.nanprod`), or along the
/// outer axis of a `n * var` tensor; 1 for an empty row.
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep them with extent 1
/// @return the products
/// @throws ShapeError, IndexError as nansum()
template <class T>
Tensor<T> nanprod(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("nanprod", t.shape(), axes)) {
    return detail::outer_result(
        detail::fold_columns<T>(t, T{1},
                                [](T& a, const T& x, index_t /*r*/, index_t /*k*/) {
                                  a = detail::is_nan(x) ? a : static_cast<T>(a * x);
                                }),
        keepdims);
  }
  return detail::ragged_reduction<T>("nanprod", t, axes, keepdims, [](const T* x, index_t n) {
    T acc{1};
    for (index_t k = 0; k < n; ++k) {
      acc = detail::is_nan(x[k]) ? acc : static_cast<T>(acc * x[k]);
    }
    return acc;
  });
}
/// Mean of the values that are not NaN of each row along the ragged modes (`np.nanmean(row)`,
/// `ak.nanmean`; in double for integers), or along the outer axis of a `n * var` tensor; NaN
/// where there are none.
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep them with extent 1
/// @return the means
/// @throws ShapeError, IndexError as nansum()
template <class T>
auto nanmean(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  using R = detail::jagged_mean_t<T>;
  if (detail::outer_axis("nanmean", t.shape(), axes)) {
    return detail::outer_result(
        detail::column_means<R, true>(detail::OuterColumns{t},
                                      detail::column_counts_skipping_nan(detail::OuterColumns{t})),
        keepdims);
  }
  return detail::ragged_reduction<R>("nanmean", t, axes, keepdims, [](const T* x, index_t n) {
    index_t kept = 0;
    if constexpr (std::is_same_v<R, T>) {
      const R sum = detail::contiguous_nansum(x, n, kept);
      return sum / static_cast<R>(kept);
    } else {
      R sum{};
      for (index_t k = 0; k < n; ++k) {
        sum += static_cast<R>(x[k]);  // integers: no NaN
      }
      return sum / static_cast<R>(n);
    }
  });
}
/// Variance of the values that are not NaN of each row along the ragged modes
/// (`np.nanvar(row, ddof=...)`, `ak.nanvar`; two passes, in double for integers), or along the
/// outer axis of a `n * var` tensor. Divides by their count less @p ddof: NaN where there are
/// none, inf or NaN at or below ddof, as NumPy.
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param ddof the degrees of freedom (Ddof{1}: the sample variance)
/// @param keepdims keep the reduced axes with extent 1
/// @return the variances
/// @throws ShapeError, IndexError as nansum()
template <class T>
auto nanvar(const JaggedTensor<T>& t, IndexSpan axes, Ddof ddof = {}, bool keepdims = false) {
  using R = detail::jagged_mean_t<T>;
  if (detail::outer_axis("nanvar", t.shape(), axes)) {
    return detail::outer_result(
        detail::column_variance<R, true>(detail::OuterColumns{t}, ddof.value), keepdims);
  }
  return detail::ragged_reduction<R>("nanvar", t, axes, keepdims, [&](const T* x, index_t n) {
    return detail::row_nanvariance<R>(x, n, ddof.value);
  });
}
/// Standard deviation of the values that are not NaN of each row along the ragged modes, or
/// along the outer axis of a `n * var` tensor: the square roots of nanvar().
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param ddof the degrees of freedom
/// @param keepdims keep the reduced axes with extent 1
/// @return the standard deviations
/// @throws ShapeError, IndexError as nansum()
template <class T>
auto nanstd(const JaggedTensor<T>& t, IndexSpan axes, Ddof ddof = {}, bool keepdims = false) {
  auto out = nanvar(t, axes, ddof, keepdims);
  detail::square_root(out);
  return out;
}
/// Minimum of the values that are not NaN of each row along the ragged modes (`ak.nanmin`), or
/// along the outer axis of a `n * var` tensor; +infinity (the largest value for integers) where
/// there are none, as an empty row's min().
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep them with extent 1
/// @return the minima
/// @throws ShapeError, IndexError as nansum()
template <class T>
Tensor<T> nanmin(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("nanmin", t.shape(), axes)) {
    return detail::outer_result(
        detail::fold_columns<T>(t, detail::extreme<T>(true),
                                [](T& a, const T& x, index_t /*r*/, index_t /*k*/) {
                                  a = detail::is_nan(x) || !(x < a) ? a : x;
                                }),
        keepdims);
  }
  return detail::ragged_reduction<T>("nanmin", t, axes, keepdims, [](const T* x, index_t n) {
    const index_t k = detail::best_position_skipping_nan(x, n, std::less<>{});
    return k < 0 ? detail::extreme<T>(true) : x[k];
  });
}
/// Maximum of the values that are not NaN of each row along the ragged modes (`ak.nanmax`), or
/// along the outer axis of a `n * var` tensor; -infinity (the lowest value for integers) where
/// there are none, as an empty row's max().
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep them with extent 1
/// @return the maxima
/// @throws ShapeError, IndexError as nansum()
template <class T>
Tensor<T> nanmax(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("nanmax", t.shape(), axes)) {
    return detail::outer_result(
        detail::fold_columns<T>(t, detail::extreme<T>(false),
                                [](T& a, const T& x, index_t /*r*/, index_t /*k*/) {
                                  a = detail::is_nan(x) || !(a < x) ? a : x;
                                }),
        keepdims);
  }
  return detail::ragged_reduction<T>("nanmax", t, axes, keepdims, [](const T* x, index_t n) {
    const index_t k = detail::best_position_skipping_nan(x, n, std::greater<>{});
    return k < 0 ? detail::extreme<T>(false) : x[k];
  });
}
/// Position in each row of its smallest value that is not NaN, the first when it repeats
/// (`np.nanargmin(row)`, `ak.nanargmin`); -1 for a row with nothing but NaN or nothing (NumPy
/// raises there). Along the outer axis of a `n * var` tensor: the row of the smallest value at
/// each position.
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep them with extent 1
/// @return int64 positions
/// @throws ShapeError, IndexError as nansum()
template <class T>
Tensor<index_t> nanargmin(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("nanargmin", t.shape(), axes)) {
    return detail::outer_result(
        detail::column_best_skipping_nan(detail::OuterColumns{t}, std::less<>{}), keepdims);
  }
  return detail::ragged_reduction<index_t>(
      "nanargmin", t, axes, keepdims, [](const T* x, index_t n) {
        return detail::best_position_skipping_nan(x, n, std::less<>{});
      });
}
/// Position in each row of its largest value that is not NaN, the first when it repeats
/// (`np.nanargmax(row)`, `ak.nanargmax`); -1 for a row with nothing but NaN or nothing. Along
/// the outer axis of a `n * var` tensor: the row of the largest value at each position.
/// @param t the tensor
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param keepdims keep them with extent 1
/// @return int64 positions
/// @throws ShapeError, IndexError as nansum()
template <class T>
Tensor<index_t> nanargmax(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims = false) {
  if (detail::outer_axis("nanargmax", t.shape(), axes)) {
    return detail::outer_result(
        detail::column_best_skipping_nan(detail::OuterColumns{t}, std::greater<>{}), keepdims);
  }
  return detail::ragged_reduction<index_t>(
      "nanargmax", t, axes, keepdims, [](const T* x, index_t n) {
        return detail::best_position_skipping_nan(x, n, std::greater<>{});
      });
}

namespace detail {

/// The weighted moments behind average(), var() and std() with weights: per row along the
/// ragged modes, or per position along the outer axis of `n * var`, the weighted mean
/// `m = sum(w * x) / sum(w)`, and when @p ddof is set (a variance) `sum(w * (x - m)^2) /
/// (sum(w) - ddof)` instead (two passes, awkward's ak.var with weight= and ddof), its square
/// root when @p root. Checks the axes and the weights' structure before any work.
template <class R, class T, class W>
Tensor<R> weighted_moment(std::string_view operation, const JaggedTensor<T>& t, IndexSpan axes,
                          const JaggedTensor<W>& weights, std::optional<index_t> ddof, bool root,
                          bool keepdims) {
  const bool outer = outer_axis(operation, t.shape(), axes);
  const Index keep = outer ? Index{} : ragged_axes(operation, t.shape(), axes);
  if (!t.shape().same_as(weights.shape())) {
    fail<ShapeError>(operation, "weights of shape ", weights.shape().to_string(),
                     " for values of shape ", t.shape().to_string(),
                     ": one weight per value, in rows of the same shapes");
  }
  const W* const wv = weights.data();
  const std::span<const index_t> wo = weights.offsets();
  const auto weight = [wv, wo](index_t r, index_t k) {
    return static_cast<R>(wv[wo[static_cast<std::size_t>(r)] + k]);
  };
  const auto finish = [&](R squares, R total, R mean) {
    if (is_nan(mean)) {
      return mean;  // an empty row, or weights summing to 0: no mean, no variance (awkward's NaN)
    }
    const R v = squares / (total - static_cast<R>(*ddof));
    return root ? std::sqrt(v) : v;
  };
  if (outer) {
    Tensor<R> out = fold_columns<R>(t, R{}, [&](R& a, const T& x, index_t r, index_t k) {
      a += static_cast<R>(x) * weight(r, k);
    });
    const Tensor<R> total = fold_columns<R>(
        t, R{}, [&](R& a, const T& /*x*/, index_t r, index_t k) { a += weight(r, k); });
    R* const o = out.data();
    const R* const sum_w = total.data();
    for (index_t k = 0; k < out.size(); ++k) {
      o[k] /= sum_w[k];
    }
    if (ddof) {
      const Tensor<R> squares =
          fold_columns<R>(t, R{}, [&](R& a, const T& x, index_t r, index_t k) {
            const R d = static_cast<R>(x) - o[k];
            a += weight(r, k) * d * d;
          });
      for (index_t k = 0; k < out.size(); ++k) {
        o[k] = finish(squares.data()[k], sum_w[k], o[k]);
      }
    }
    return outer_result(std::move(out), keepdims);
  }
  Tensor<R> out = per_row<R>(t, par, [&](index_t r, const T* x, index_t n) {
    R products{};
    R total{};
    for (index_t k = 0; k < n; ++k) {
      products += static_cast<R>(x[k]) * weight(r, k);
      total += weight(r, k);
    }
    const R mean = products / total;
    if (!ddof) {
      return mean;
    }
    R squares{};
    for (index_t k = 0; k < n; ++k) {
      const R d = static_cast<R>(x[k]) - mean;
      squares += weight(r, k) * d * d;
    }
    return finish(squares, total, mean);
  });
  return keepdims ? out.reshape(keep) : out;
}

}  // namespace detail

/// Weighted mean of each row along the ragged modes, `sum(w * x) / sum(w)` with @p weights of
/// the same structure (`np.average(row, weights=w_row)` per row, awkward's
/// `ak.mean(x, weight=w)`), in order; or along the outer axis of a `n * var` tensor (`{0}`: each
/// position over the rows that have it). The result is floating: the common type of T and W,
/// double for integers. An empty row, or weights that sum to 0, divide by 0: NaN or inf
/// (awkward's answer; NumPy raises).
/// @param t the values
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param weights one weight per value, of t's structure (row slices need not start alike)
/// @param keepdims keep them with extent 1
/// @return the weighted means
/// @throws ShapeError when @p weights has another structure (naming both shapes), or as
///         nansum() for the axes; IndexError when an axis does not exist
template <class T, class W>
auto average(const JaggedTensor<T>& t, IndexSpan axes, const JaggedTensor<W>& weights,
             bool keepdims = false) {
  using R = detail::jagged_mean_t<std::common_type_t<T, W>>;
  return detail::weighted_moment<R>("average", t, axes, weights, std::nullopt, false, keepdims);
}
/// average() along one ragged axis (`average(jt, 1, weights)`), or along the outer axis.
/// @param t the values
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param weights one weight per value, of t's structure
/// @param keepdims keep it with extent 1
/// @return the weighted means
/// @throws ShapeError, IndexError as the axes overload
template <class T, class W, std::integral A>
auto average(const JaggedTensor<T>& t, A axis, const JaggedTensor<W>& weights,
             bool keepdims = false) {
  return average(t, Index{static_cast<index_t>(axis)}, weights, keepdims);
}
/// average() of a jagged expression (evaluated first) along one axis.
/// @param jagged the expression of the values
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param weights one weight per value, of the expression's structure
/// @param keepdims keep it with extent 1
/// @return the weighted means
/// @throws ShapeError, IndexError as the axes overload; ShapeError, BroadcastError as
///         evaluate_jagged()
template <JaggedExpression J, class W, std::integral A>
auto average(const J& jagged, A axis, const JaggedTensor<W>& weights, bool keepdims = false) {
  return average(evaluate_jagged(jagged), axis, weights, keepdims);
}

/// Weighted variance of each row along the ragged modes, or of each position along the outer
/// axis of a `n * var` tensor (`{0}`): `sum(w * (x - m)^2) / (sum(w) - ddof)` with m the
/// weighted mean: awkward's `ak.var(x, weight=w, ddof=d)` (its biased variance times
/// `sumw / (sumw - ddof)`, the same number; computed here in two passes, where awkward subtracts
/// squares). Weights of 1 give var(). The result is floating: the common type of T and
/// W, double for integers. An empty row, or weights summing to 0, have no mean and give NaN
/// (awkward's answer without mask_identity); a total weight equal to ddof divides by 0.
/// @param t the values
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param weights one weight per value, of t's structure (row slices need not start alike)
/// @param ddof subtracted from the total weight (Ddof{1} with weights that count repeats: the
///        sample variance)
/// @param keepdims keep them with extent 1
/// @return the weighted variances
/// @throws ShapeError when @p weights has another structure (naming both shapes), or as
///         average() for the axes; IndexError when an axis does not exist
template <class T, class W>
auto var(const JaggedTensor<T>& t, IndexSpan axes, const JaggedTensor<W>& weights, Ddof ddof = {},
         bool keepdims = false) {
  using R = detail::jagged_mean_t<std::common_type_t<T, W>>;
  return detail::weighted_moment<R>("var", t, axes, weights, ddof.value, false, keepdims);
}
/// Weighted standard deviation: the square root of the weighted var() (awkward's
/// `ak.std(x, weight=w, ddof=d)`).
/// @param t the values
/// @param axes the ragged modes, or `{0}` for the outer axis of `n * var`
/// @param weights one weight per value, of t's structure
/// @param ddof subtracted from the total weight
/// @param keepdims keep them with extent 1
/// @return the weighted standard deviations
/// @throws ShapeError, IndexError as the weighted var()
template <class T, class W>
auto std(const JaggedTensor<T>& t, IndexSpan axes, const JaggedTensor<W>& weights, Ddof ddof = {},
         bool keepdims = false) {
  using R = detail::jagged_mean_t<std::common_type_t<T, W>>;
  return detail::weighted_moment<R>("std", t, axes, weights, ddof.value, true, keepdims);
}
/// The weighted var() along one ragged axis (`var(jt, 1, weights)`), or along the outer axis.
/// @param t the values
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param weights one weight per value, of t's structure
/// @param ddof subtracted from the total weight
/// @param keepdims keep it with extent 1
/// @return the weighted variances
/// @throws ShapeError, IndexError as the axes overload
template <class T, class W, std::integral A>
auto var(const JaggedTensor<T>& t, A axis, const JaggedTensor<W>& weights, Ddof ddof = {},
         bool keepdims = false) {
  return var(t, Index{static_cast<index_t>(axis)}, weights, ddof, keepdims);
}
/// The weighted std() along one ragged axis, or along the outer axis.
/// @param t the values
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param weights one weight per value, of t's structure
/// @param ddof subtracted from the total weight
/// @param keepdims keep it with extent 1
/// @return the weighted standard deviations
/// @throws ShapeError, IndexError as the axes overload
template <class T, class W, std::integral A>
auto std(const JaggedTensor<T>& t, A axis, const JaggedTensor<W>& weights, Ddof ddof = {},
         bool keepdims = false) {
  return std(t, Index{static_cast<index_t>(axis)}, weights, ddof, keepdims);
}
/// The weighted var() of a jagged expression (evaluated first) along one axis.
/// @param jagged the expression of the values
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param weights one weight per value, of the expression's structure
/// @param ddof subtracted from the total weight
/// @param keepdims keep it with extent 1
/// @return the weighted variances
/// @throws ShapeError, IndexError as the axes overload; ShapeError, BroadcastError as
///         evaluate_jagged()
template <JaggedExpression J, class W, std::integral A>
auto var(const J& jagged, A axis, const JaggedTensor<W>& weights, Ddof ddof = {},
         bool keepdims = false) {
  return var(evaluate_jagged(jagged), axis, weights, ddof, keepdims);
}
/// The weighted std() of a jagged expression (evaluated first) along one axis.
/// @param jagged the expression of the values
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param weights one weight per value, of the expression's structure
/// @param ddof subtracted from the total weight
/// @param keepdims keep it with extent 1
/// @return the weighted standard deviations
/// @throws ShapeError, IndexError as the axes overload; ShapeError, BroadcastError as
///         evaluate_jagged()
template <JaggedExpression J, class W, std::integral A>
auto std(const J& jagged, A axis, const JaggedTensor<W>& weights, Ddof ddof = {},
         bool keepdims = false) {
  return std(evaluate_jagged(jagged), axis, weights, ddof, keepdims);
}

/// nansum() along one ragged axis (`nansum(jt, 1)`), or along the outer axis (`nansum(jt, 0)`).
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the sums
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<T> nansum(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return nansum(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// nanprod() along one axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the products
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<T> nanprod(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return nanprod(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// nanmean() along one axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the means
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
auto nanmean(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return nanmean(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// nanvar() along one axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param ddof the degrees of freedom
/// @param keepdims keep it with extent 1
/// @return the variances
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
auto nanvar(const JaggedTensor<T>& t, A axis, Ddof ddof = {}, bool keepdims = false) {
  return nanvar(t, Index{static_cast<index_t>(axis)}, ddof, keepdims);
}
/// nanstd() along one axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param ddof the degrees of freedom
/// @param keepdims keep it with extent 1
/// @return the standard deviations
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
auto nanstd(const JaggedTensor<T>& t, A axis, Ddof ddof = {}, bool keepdims = false) {
  return nanstd(t, Index{static_cast<index_t>(axis)}, ddof, keepdims);
}
/// nanmin() along one axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the minima
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<T> nanmin(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return nanmin(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// nanmax() along one axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the maxima
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<T> nanmax(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return nanmax(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// nanargmin() along one axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return int64 positions
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<index_t> nanargmin(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return nanargmin(t, Index{static_cast<index_t>(axis)}, keepdims);
}
/// nanargmax() along one axis.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return int64 positions
/// @throws ShapeError, IndexError as the axes overload
template <class T, std::integral A>
Tensor<index_t> nanargmax(const JaggedTensor<T>& t, A axis, bool keepdims = false) {
  return nanargmax(t, Index{static_cast<index_t>(axis)}, keepdims);
}

/// nansum() of a jagged expression (evaluated first) along one axis.
/// @param jagged the expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the sums
/// @throws ShapeError, IndexError as the axes overload; ShapeError, BroadcastError as
///         evaluate_jagged()
template <JaggedExpression J, std::integral A>
auto nansum(const J& jagged, A axis, bool keepdims = false) {
  return nansum(evaluate_jagged(jagged), axis, keepdims);
}
/// nanmean() of a jagged expression (evaluated first) along one axis.
/// @param jagged the expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the means
/// @throws ShapeError, IndexError as the axes overload; ShapeError, BroadcastError as
///         evaluate_jagged()
template <JaggedExpression J, std::integral A>
auto nanmean(const J& jagged, A axis, bool keepdims = false) {
  return nanmean(evaluate_jagged(jagged), axis, keepdims);
}
/// nanmin() of a jagged expression (evaluated first) along one axis.
/// @param jagged the expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the minima
/// @throws ShapeError, IndexError as the axes overload; ShapeError, BroadcastError as
///         evaluate_jagged()
template <JaggedExpression J, std::integral A>
auto nanmin(const J& jagged, A axis, bool keepdims = false) {
  return nanmin(evaluate_jagged(jagged), axis, keepdims);
}
/// nanmax() of a jagged expression (evaluated first) along one axis.
/// @param jagged the expression
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the maxima
/// @throws ShapeError, IndexError as the axes overload; ShapeError, BroadcastError as
///         evaluate_jagged()
template <JaggedExpression J, std::integral A>
auto nanmax(const J& jagged, A axis, bool keepdims = false) {
  return nanmax(evaluate_jagged(jagged), axis, keepdims);
}

}  // namespace strata
