/// @file
/// Missing values, as awkward-array's option types and Arrow's validity bitmaps: a
/// `Masked<C>` is a dense or jagged tensor of values with a boolean tensor of the same shape
/// that says which are present (awkward's ByteMaskedArray with `valid_when=True`). Where they
/// come from: the reductions of jagged tensors with `strata::mask_identity` (awkward's
/// `mask_identity=True`: a group with no values gives None instead of the reduction's
/// identity), `firsts` / `lasts` (None for an empty row) and `pad_none`. What they do:
/// `is_none`, `fill_none`, `drop_none`, element access as std::optional, printing None, and
/// arithmetic and comparisons that propagate them (`map_masked`, `+ - * /`, `<`, `==`, ...).
///
/// @code
/// strata::JaggedTensor<double> jt({{1.0, 2.0, 3.0}, {}, {4.0, 5.0}});
/// strata::max(jt, 1, strata::mask_identity);  // [3 None 5]
/// strata::firsts(jt);                           // [1 None 4]
/// strata::pad_none(jt, 2);                      // [[1, 2, 3], [None, None], [4, 5]]
/// strata::pad_none(jt, 2, strata::Clip{});      // [[1 2] [None None] [4 5]]: regular
/// strata::fill_none(strata::firsts(jt), 0.0);   // [1 0 4]
/// strata::drop_none(strata::pad_none(jt, 2));   // jt again
/// @endcode
///
/// The values under a missing entry are value-initialised (zero) by every operation here and
/// never read by them; the validity mask alone decides.
#pragma once

#include "strata/core/error.hpp"
#include "strata/expr/jagged.hpp"
#include "strata/expr/jagged_reductions.hpp"
#include "strata/select/jagged.hpp"
#include "strata/select/jagged_lists.hpp"
#include "strata/tensor/jagged_tensor.hpp"
#include "strata/tensor/print.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>
#include <concepts>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

namespace detail {

/// The boolean tensor of the same kind as C (a validity mask of C's shape).
template <class C>
struct mask_of;
/// A dense tensor's mask is a dense boolean tensor.
template <class T>
struct mask_of<Tensor<T>> {
  using type = Tensor<bool>;  ///< the mask
};
/// A jagged tensor's mask is a jagged boolean tensor.
template <class T>
struct mask_of<JaggedTensor<T>> {
  using type = JaggedTensor<bool>;  ///< the mask
};

template <class T>
bool same_structure(const Tensor<T>& values, const Tensor<bool>& valid) {
  return values.shape() == valid.shape();
}
template <class T>
bool same_structure(const JaggedTensor<T>& values, const JaggedTensor<bool>& valid) {
  return values.shape().same_as(valid.shape());
}
template <class T>
std::string shape_text(const Tensor<T>& t) {
  return to_string(t.shape());
}
template <class T>
std::string shape_text(const JaggedTensor<T>& t) {
  return t.shape().to_string();
}

}  // namespace detail

/// A dense or jagged tensor with missing values: the values and, of the same shape, whether
/// each is present (awkward-array's option type `?float64`, Arrow's validity bitmap, NumPy's
/// masked array with the mask inverted). Built by the reductions with `strata::mask_identity`,
/// `firsts`, `lasts` and `pad_none`, or from values and a mask; read with at() (an
/// std::optional), is_none(), fill_none(), drop_none(); printed with None where a value is
/// missing, as awkward-array prints it.
/// @code
/// auto values = strata::Tensor<int>::of({1, 2, 3});
/// auto valid = strata::Tensor<bool>::of({true, false, true});
/// strata::Masked m(values, valid);
/// m.at({1});             // std::nullopt
/// strata::to_string(m);  // "[   1 None    3]"
/// @endcode
/// Design page: @ref shapes_page.
/// @tparam C Tensor<T> or JaggedTensor<T>
template <class C>
class Masked {
 public:
  /// The element type.
  using value_type = std::remove_const_t<typename C::value_type>;
  /// The validity mask's type: Tensor<bool> or JaggedTensor<bool>.
  using mask_type = typename detail::mask_of<C>::type;

  /// Values and which of them are present; both are kept as they are (views stay views).
  /// @param values the values (those under a false entry of @p valid are never read)
  /// @param valid true where a value is present, of the values' shape
  /// @throws ShapeError naming both shapes when they differ
  Masked(C values, mask_type valid) : values_(std::move(values)), valid_(std::move(valid)) {
    if (!detail::same_structure(values_, valid_)) {
      detail::fail<ShapeError>("Masked", "values of shape ", detail::shape_text(values_),
                               " and a validity mask of shape ", detail::shape_text(valid_));
    }
  }

  /// The values, present or not (a missing one holds whatever was written there: zero when
  /// strata built it).
  /// @return the values
  [[nodiscard]] const C& values() const noexcept { return values_; }
  /// Whether each value is present (awkward's `~ak.is_none`).
  /// @return the validity mask
  [[nodiscard]] const mask_type& valid() const noexcept { return valid_; }
  /// The number of entries, present or missing.
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return values_.size(); }
  /// The number of entries present (awkward's `ak.count` of the option type, with None left out).
  /// @return the count
  [[nodiscard]] index_t count() const {
    const Tensor<bool> flat = [this] {
      if constexpr (std::is_same_v<mask_type, Tensor<bool>>) {
        return valid_.copy();
      } else {
        return valid_.values().copy();
      }
    }();
    return static_cast<index_t>(std::count(flat.data(), flat.data() + flat.size(), true));
  }
  /// One entry: its value, or std::nullopt where it is missing.
  /// @param index one index per mode (a jagged index for a jagged tensor)
  /// @return the value or nothing
  /// @throws IndexError for an index outside the shape
  [[nodiscard]] std::optional<value_type> at(IndexSpan index) const {
    if (!static_cast<bool>(valid_.at(index))) {
      return std::nullopt;
    }
    return static_cast<value_type>(values_.at(index));
  }

 private:
  C values_;
  mask_type valid_;
};

/// `Masked m(values, valid)` deduces C from the values.
template <class C, class M>
Masked(C, M) -> Masked<C>;

/// Asks a reduction of a jagged tensor for awkward-array's `mask_identity=True`: a group with no
/// values (an empty row, or, for the nan-reductions, a row of nothing but NaN) gives a missing
/// value where the reduction alone gives its identity (0, 1, +-infinity, -1) or NaN. The result
/// is a Masked<Tensor<R>>. `strata::max(jt, 1, strata::mask_identity)`.
struct MaskIdentity {};
/// The tag that asks for missing values where a reduction has nothing to reduce.
inline constexpr MaskIdentity mask_identity{};

/// Asks pad_none() to cut longer rows to the target too (awkward's `clip=True`): the result is
/// regular, a dense Masked<Tensor<T>> of shape `outer + [target]`.
struct Clip {};

namespace detail {

/// Whether each group of a reduction of @p t along @p axes had a value (one that is not NaN when
/// @p skip_nan), shaped as the reduction's result: the validity of a `mask_identity` reduction.
template <class T>
Tensor<bool> groups_with_values(const JaggedTensor<T>& t, IndexSpan axes, bool keepdims,
                                bool skip_nan) {
  if (outer_axis("mask_identity", t.shape(), axes)) {
    const Tensor<index_t> counts =
        skip_nan ? column_counts_skipping_nan(OuterColumns{t}) : column_counts(OuterColumns{t});
    auto out = Tensor<bool>::for_overwrite(counts.shape());
    for (index_t k = 0; k < counts.size(); ++k) {
      out.data()[k] = counts.data()[k] > 0;
    }
    return outer_result(std::move(out), keepdims);
  }
  return ragged_reduction<bool>(
      "mask_identity", t, axes, keepdims, [skip_nan](const T* x, index_t n) {
        if (!skip_nan) {
          return n > 0;
        }
        return std::any_of(x, x + n, [](const T& v) { return !is_nan(v); });
      });
}

/// A reduction's result with the groups that had no value marked missing.
template <class R, class T>
Masked<Tensor<R>> or_none(Tensor<R> reduced, const JaggedTensor<T>& t, index_t axis, bool keepdims,
                          bool skip_nan) {
  const Index axes{axis};
  Tensor<bool> valid = groups_with_values(t, axes, keepdims, skip_nan);
  R* const x = reduced.data();  // a new contiguous tensor
  for (index_t k = 0; k < reduced.size(); ++k) {
    if (!valid.data()[k]) {
      x[k] = R{};
    }
  }
  return Masked<Tensor<R>>(std::move(reduced), std::move(valid));
}

}  // namespace detail

/// Sum of each row along one ragged axis (or along the outer axis of `n * var`), missing for an
/// empty row (`ak.sum(..., mask_identity=True)`).
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the sums, missing where a row is empty
/// @throws ShapeError, IndexError as sum()
template <class T, std::integral A>
Masked<Tensor<T>> sum(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/,
                      bool keepdims = false) {
  return detail::or_none(sum(t, axis, keepdims), t, static_cast<index_t>(axis), keepdims, false);
}
/// Product of each row, missing for an empty row.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the products, missing where a row is empty
/// @throws ShapeError, IndexError as prod()
template <class T, std::integral A>
Masked<Tensor<T>> prod(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/,
                       bool keepdims = false) {
  return detail::or_none(prod(t, axis, keepdims), t, static_cast<index_t>(axis), keepdims, false);
}
/// Mean of each row, missing for an empty row (awkward's default for `ak.mean`).
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the means, missing where a row is empty
/// @throws ShapeError, IndexError as mean()
template <class T, std::integral A>
auto mean(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/, bool keepdims = false) {
  return detail::or_none(mean(t, axis, keepdims), t, static_cast<index_t>(axis), keepdims, false);
}
/// Minimum of each row, missing for an empty row.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the minima, missing where a row is empty
/// @throws ShapeError, IndexError as min()
template <class T, std::integral A>
Masked<Tensor<T>> min(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/,
                      bool keepdims = false) {
  return detail::or_none(min(t, axis, keepdims), t, static_cast<index_t>(axis), keepdims, false);
}
/// Maximum of each row, missing for an empty row.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the maxima, missing where a row is empty
/// @throws ShapeError, IndexError as max()
template <class T, std::integral A>
Masked<Tensor<T>> max(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/,
                      bool keepdims = false) {
  return detail::or_none(max(t, axis, keepdims), t, static_cast<index_t>(axis), keepdims, false);
}
/// Position of each row's minimum, missing for an empty row (where argmin() gives -1).
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return int64 positions, missing where a row is empty
/// @throws ShapeError, IndexError as argmin()
template <class T, std::integral A>
Masked<Tensor<index_t>> argmin(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/,
                               bool keepdims = false) {
  return detail::or_none(argmin(t, axis, keepdims), t, static_cast<index_t>(axis), keepdims, false);
}
/// Position of each row's maximum, missing for an empty row (where argmax() gives -1).
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return int64 positions, missing where a row is empty
/// @throws ShapeError, IndexError as argmax()
template <class T, std::integral A>
Masked<Tensor<index_t>> argmax(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/,
                               bool keepdims = false) {
  return detail::or_none(argmax(t, axis, keepdims), t, static_cast<index_t>(axis), keepdims, false);
}
/// Peak to peak (max - min) of each row, missing for an empty row.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the ranges, missing where a row is empty
/// @throws ShapeError, IndexError as ptp()
template <class T, std::integral A>
Masked<Tensor<T>> ptp(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/,
                      bool keepdims = false) {
  return detail::or_none(ptp(t, axis, keepdims), t, static_cast<index_t>(axis), keepdims, false);
}
/// Variance of each row, missing for an empty row (where var() gives NaN).
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param ddof delta degrees of freedom
/// @param keepdims keep it with extent 1
/// @return the variances, missing where a row is empty
/// @throws ShapeError, IndexError as var()
template <class T, std::integral A>
auto var(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/, Ddof ddof = {},
         bool keepdims = false) {
  return detail::or_none(var(t, axis, ddof, keepdims), t, static_cast<index_t>(axis), keepdims,
                         false);
}
/// Standard deviation of each row, missing for an empty row.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param ddof delta degrees of freedom
/// @param keepdims keep it with extent 1
/// @return the standard deviations, missing where a row is empty
/// @throws ShapeError, IndexError as std()
template <class T, std::integral A>
auto std(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/, Ddof ddof = {},
         bool keepdims = false) {
  return detail::or_none(std(t, axis, ddof, keepdims), t, static_cast<index_t>(axis), keepdims,
                         false);
}
/// Sum of each row's values that are not NaN, missing where there are none.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the sums, missing where a row is empty or all NaN
/// @throws ShapeError, IndexError as nansum()
template <class T, std::integral A>
Masked<Tensor<T>> nansum(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/,
                         bool keepdims = false) {
  return detail::or_none(nansum(t, axis, keepdims), t, static_cast<index_t>(axis), keepdims, true);
}
/// Product of each row's values that are not NaN, missing where there are none.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the products, missing where a row is empty or all NaN
/// @throws ShapeError, IndexError as nanprod()
template <class T, std::integral A>
Masked<Tensor<T>> nanprod(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/,
                          bool keepdims = false) {
  return detail::or_none(nanprod(t, axis, keepdims), t, static_cast<index_t>(axis), keepdims, true);
}
/// Mean of each row's values that are not NaN, missing where there are none.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the means, missing where a row is empty or all NaN
/// @throws ShapeError, IndexError as nanmean()
template <class T, std::integral A>
auto nanmean(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/, bool keepdims = false) {
  return detail::or_none(nanmean(t, axis, keepdims), t, static_cast<index_t>(axis), keepdims, true);
}
/// Variance of each row's values that are not NaN, missing where there are none.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param ddof delta degrees of freedom
/// @param keepdims keep it with extent 1
/// @return the variances, missing where a row is empty or all NaN
/// @throws ShapeError, IndexError as nanvar()
template <class T, std::integral A>
auto nanvar(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/, Ddof ddof = {},
            bool keepdims = false) {
  return detail::or_none(nanvar(t, axis, ddof, keepdims), t, static_cast<index_t>(axis), keepdims,
                         true);
}
/// Standard deviation of each row's values that are not NaN, missing where there are none.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param ddof delta degrees of freedom
/// @param keepdims keep it with extent 1
/// @return the standard deviations, missing where a row is empty or all NaN
/// @throws ShapeError, IndexError as nanstd()
template <class T, std::integral A>
auto nanstd(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/, Ddof ddof = {},
            bool keepdims = false) {
  return detail::or_none(nanstd(t, axis, ddof, keepdims), t, static_cast<index_t>(axis), keepdims,
                         true);
}
/// Minimum of each row's values that are not NaN, missing where there are none.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the minima, missing where a row is empty or all NaN
/// @throws ShapeError, IndexError as nanmin()
template <class T, std::integral A>
Masked<Tensor<T>> nanmin(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/,
                         bool keepdims = false) {
  return detail::or_none(nanmin(t, axis, keepdims), t, static_cast<index_t>(axis), keepdims, true);
}
/// Maximum of each row's values that are not NaN, missing where there are none.
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return the maxima, missing where a row is empty or all NaN
/// @throws ShapeError, IndexError as nanmax()
template <class T, std::integral A>
Masked<Tensor<T>> nanmax(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/,
                         bool keepdims = false) {
  return detail::or_none(nanmax(t, axis, keepdims), t, static_cast<index_t>(axis), keepdims, true);
}
/// Position of each row's minimum among the values that are not NaN, missing where there are
/// none (where nanargmin() gives -1).
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return int64 positions, missing where a row is empty or all NaN
/// @throws ShapeError, IndexError as nanargmin()
template <class T, std::integral A>
Masked<Tensor<index_t>> nanargmin(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/,
                                  bool keepdims = false) {
  return detail::or_none(nanargmin(t, axis, keepdims), t, static_cast<index_t>(axis), keepdims,
                         true);
}
/// Position of each row's maximum among the values that are not NaN, missing where there are
/// none (where nanargmax() gives -1).
/// @param t the tensor
/// @param axis the ragged axis, or 0 for the outer axis of `n * var`
/// @param keepdims keep it with extent 1
/// @return int64 positions, missing where a row is empty or all NaN
/// @throws ShapeError, IndexError as nanargmax()
template <class T, std::integral A>
Masked<Tensor<index_t>> nanargmax(const JaggedTensor<T>& t, A axis, MaskIdentity /*tag*/,
                                  bool keepdims = false) {
  return detail::or_none(nanargmax(t, axis, keepdims), t, static_cast<index_t>(axis), keepdims,
                         true);
}

namespace detail {

/// The first (@p last false) or last element of each 1-D row, missing for an empty row.
template <class T>
Masked<Tensor<T>> row_end(std::string_view operation, const JaggedTensor<T>& t, bool last) {
  check_flat_rows_of(operation, t, "a tensor");
  const Index outer(t.shape().outer_extents().begin(), t.shape().outer_extents().end());
  Tensor<T> values(outer);
  Tensor<bool> valid(outer);
  const std::span<const index_t> starts = t.offsets();
  const T* const x = t.data();
  for (std::size_t r = 0; r + 1 < starts.size(); ++r) {
    if (starts[r + 1] > starts[r]) {
      values.data()[r] = x[last ? starts[r + 1] - 1 : starts[r]];
      valid.data()[r] = true;
    }
  }
  return Masked<Tensor<T>>(std::move(values), std::move(valid));
}

inline void check_target(std::string_view operation, index_t target) {
  if (target < 0) {
    fail<ShapeError>(operation, "target ", target, " is negative (a row length)");
  }
}

}  // namespace detail

/// The first element of each row of a tensor with 1-D rows, missing where the row is empty
/// (awkward's `ak.firsts(array)`, axis 1).
/// @param t a tensor with 1-D rows (`n * var`, or several outer modes over 1-D rows)
/// @return a dense tensor over the outer extents
/// @throws ShapeError when the rows are not 1-D
template <class T>
Masked<Tensor<T>> firsts(const JaggedTensor<T>& t) {
  return detail::row_end("firsts", t, false);
}
/// The last element of each row of a tensor with 1-D rows, missing where the row is empty
/// (awkward's `array[:, -1:]` then `ak.firsts`).
/// @param t a tensor with 1-D rows
/// @return a dense tensor over the outer extents
/// @throws ShapeError when the rows are not 1-D
template <class T>
Masked<Tensor<T>> lasts(const JaggedTensor<T>& t) {
  return detail::row_end("lasts", t, true);
}

// ---- rows of lists: missing values at depth ------------------------------------------------

namespace detail {

/// A ListAxis reduction's result with the groups that had no value (none that is not NaN when
/// @p skip_nan) marked missing: the groups are counted by the same reduction's walk, so the
/// validity has the result's shape at every axis and depth.
template <class R, class T>
Masked<JaggedTensor<R>> lists_or_none(JaggedTensor<R> reduced, const JaggedTensor<T>& t,
                                      ListAxis axis, bool skip_nan) {
  const JaggedTensor<index_t> counts =
      skip_nan ? count_nonzero(JaggedTensor<bool>(!strata::isnan(t)), axis) : count(t, axis);
  JaggedTensor<bool> valid(counts > index_t{0});
  R* const x = reduced.data();  // a new contiguous tensor, in the order of counts
  const bool* const has = valid.data();
  for (index_t k = 0; k < reduced.size(); ++k) {
    if (!has[k]) {
      x[k] = R{};
    }
  }
  return Masked<JaggedTensor<R>>(std::move(reduced), std::move(valid));
}

/// The first or last value of every innermost list of rows of lists, missing for an empty list.
template <class T>
Masked<JaggedTensor<T>> list_end(std::string_view operation, const JaggedTensor<T>& t,
                                 ListAxis axis, bool last) {
  const Jagged& shape = t.shape();
  if (shape.outer_rank() != 1 || shape.inner_rank() < 2) {
    fail<ShapeError>(operation, "ListAxis{", axis.axis,
                     "} takes a tensor of rows of lists (n * var * var, or deeper), not ",
                     shape.to_string(), " (", operation, "(t) takes the rows of n * var)");
  }
  const index_t rank = shape.rank();
  const index_t a = axis.axis < 0 ? axis.axis + rank : axis.axis;
  if (a < 0 || a >= rank) {
    fail<IndexError>(operation, "ListAxis{", axis.axis, "} does not exist (rank ", rank, ", shape ",
                     shape.to_string(), ")");
  }
  if (a != rank - 1) {
    fail<ShapeError>(operation, "ListAxis{", axis.axis, "} (axis ", a, " of ", shape.to_string(),
                     ") would make a missing list of every empty one; ",
                     "Masked holds missing values, so take the innermost axis, ", rank - 1,
                     " or -1 (chip_each(t, i, axis) picks lists where none is empty)");
  }
  const JaggedTensor<index_t> lengths = num(t, ListAxis{a});  // the result's shape
  auto values = JaggedTensor<T>::for_overwrite(lengths.shape());
  auto valid = JaggedTensor<bool>::for_overwrite(lengths.shape());
  const index_t* const n = lengths.data();
  const T* const in = t.data();
  T* const out = values.data();
  bool* const has = valid.data();
  index_t at = 0;  // the innermost lists follow each other in t's values
  for (index_t k = 0; k < lengths.size(); ++k) {
    has[k] = n[k] > 0;
    out[k] = n[k] > 0 ? in[at + (last ? n[k] - 1 : 0)] : T{};
    at += n[k];
  }
  return Masked<JaggedTensor<T>>(std::move(values), std::move(valid));
}

}  // namespace detail

// mask_identity reductions of rows of lists. Each ListAxis reduction of
// strata/select/jagged_lists.hpp with awkward's `mask_identity=True`: a group with no values (an
// empty list along -1; for the nan-reductions, none that is not NaN) is missing in the jagged
// result instead of holding the identity. `strata::max(events, strata::ListAxis{-1},
// strata::mask_identity)`. Across lists or rows every group has a value by construction (an output
// position exists where some list reaches it), so only NaN makes one missing there.
/// The sums of rows of lists along a ListAxis, missing where a group is empty.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @return the sums, a Masked jagged tensor of sum(t, axis)'s shape
/// @throws ShapeError, IndexError as sum(t, axis)
template <class T>
Masked<JaggedTensor<T>> sum(const JaggedTensor<T>& t, ListAxis axis, MaskIdentity /*tag*/) {
  return detail::lists_or_none(sum(t, axis), t, axis, false);
}
/// The products of rows of lists along a ListAxis, missing where a group is empty.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @return the products, a Masked jagged tensor of prod(t, axis)'s shape
/// @throws ShapeError, IndexError as prod(t, axis)
template <class T>
Masked<JaggedTensor<T>> prod(const JaggedTensor<T>& t, ListAxis axis, MaskIdentity /*tag*/) {
  return detail::lists_or_none(prod(t, axis), t, axis, false);
}
/// The means of rows of lists along a ListAxis, missing where a group is empty.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @return the means, a Masked jagged tensor of mean(t, axis)'s shape
/// @throws ShapeError, IndexError as mean(t, axis)
template <class T>
Masked<JaggedTensor<detail::jagged_mean_t<T>>> mean(const JaggedTensor<T>& t, ListAxis axis,
                                                    MaskIdentity /*tag*/) {
  return detail::lists_or_none(mean(t, axis), t, axis, false);
}
/// The minima of rows of lists along a ListAxis, missing where a group is empty.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @return the minima, a Masked jagged tensor of min(t, axis)'s shape
/// @throws ShapeError, IndexError as min(t, axis)
template <class T>
Masked<JaggedTensor<T>> min(const JaggedTensor<T>& t, ListAxis axis, MaskIdentity /*tag*/) {
  return detail::lists_or_none(min(t, axis), t, axis, false);
}
/// The maxima of rows of lists along a ListAxis, missing where a group is empty.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @return the maxima, a Masked jagged tensor of max(t, axis)'s shape
/// @throws ShapeError, IndexError as max(t, axis)
template <class T>
Masked<JaggedTensor<T>> max(const JaggedTensor<T>& t, ListAxis axis, MaskIdentity /*tag*/) {
  return detail::lists_or_none(max(t, axis), t, axis, false);
}
/// The positions of the minima of rows of lists along a ListAxis, missing where a group is empty.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @return the positions of the minima, a Masked jagged tensor of argmin(t, axis)'s shape
/// @throws ShapeError, IndexError as argmin(t, axis)
template <class T>
Masked<JaggedTensor<index_t>> argmin(const JaggedTensor<T>& t, ListAxis axis,
                                     MaskIdentity /*tag*/) {
  return detail::lists_or_none(argmin(t, axis), t, axis, false);
}
/// The positions of the maxima of rows of lists along a ListAxis, missing where a group is empty.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @return the positions of the maxima, a Masked jagged tensor of argmax(t, axis)'s shape
/// @throws ShapeError, IndexError as argmax(t, axis)
template <class T>
Masked<JaggedTensor<index_t>> argmax(const JaggedTensor<T>& t, ListAxis axis,
                                     MaskIdentity /*tag*/) {
  return detail::lists_or_none(argmax(t, axis), t, axis, false);
}
/// The ranges (max - min) of rows of lists along a ListAxis, missing where a group is empty.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @return the ranges (max - min), a Masked jagged tensor of ptp(t, axis)'s shape
/// @throws ShapeError, IndexError as ptp(t, axis)
template <class T>
Masked<JaggedTensor<T>> ptp(const JaggedTensor<T>& t, ListAxis axis, MaskIdentity /*tag*/) {
  return detail::lists_or_none(ptp(t, axis), t, axis, false);
}
/// The variances of rows of lists along a ListAxis, missing where a group is empty.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @param ddof delta degrees of freedom
/// @return the variances, a Masked jagged tensor of var(t, axis)'s shape
/// @throws ShapeError, IndexError as var(t, axis)
template <class T>
Masked<JaggedTensor<detail::jagged_mean_t<T>>> var(const JaggedTensor<T>& t, ListAxis axis,
                                                   MaskIdentity /*tag*/, Ddof ddof = {}) {
  return detail::lists_or_none(var(t, axis, ddof), t, axis, false);
}
/// The standard deviations of rows of lists along a ListAxis, missing where a group is empty.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @param ddof delta degrees of freedom
/// @return the standard deviations, a Masked jagged tensor of std(t, axis)'s shape
/// @throws ShapeError, IndexError as std(t, axis)
template <class T>
Masked<JaggedTensor<detail::jagged_mean_t<T>>> std(const JaggedTensor<T>& t, ListAxis axis,
                                                   MaskIdentity /*tag*/, Ddof ddof = {}) {
  return detail::lists_or_none(std(t, axis, ddof), t, axis, false);
}
/// The sums of the values that are not NaN of rows of lists along a ListAxis, missing where a group
/// is empty or all NaN.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @return the sums of the values that are not NaN, a Masked jagged tensor of nansum(t, axis)'s
/// shape
/// @throws ShapeError, IndexError as nansum(t, axis)
template <class T>
Masked<JaggedTensor<T>> nansum(const JaggedTensor<T>& t, ListAxis axis, MaskIdentity /*tag*/) {
  return detail::lists_or_none(nansum(t, axis), t, axis, true);
}
/// The products of the values that are not NaN of rows of lists along a ListAxis, missing where a
/// group is empty or all NaN.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @return the products of the values that are not NaN, a Masked jagged tensor of nanprod(t,
/// axis)'s shape
/// @throws ShapeError, IndexError as nanprod(t, axis)
template <class T>
Masked<JaggedTensor<T>> nanprod(const JaggedTensor<T>& t, ListAxis axis, MaskIdentity /*tag*/) {
  return detail::lists_or_none(nanprod(t, axis), t, axis, true);
}
/// The means of the values that are not NaN of rows of lists along a ListAxis, missing where a
/// group is empty or all NaN.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @return the means of the values that are not NaN, a Masked jagged tensor of nanmean(t, axis)'s
/// shape
/// @throws ShapeError, IndexError as nanmean(t, axis)
template <class T>
Masked<JaggedTensor<detail::jagged_mean_t<T>>> nanmean(const JaggedTensor<T>& t, ListAxis axis,
                                                       MaskIdentity /*tag*/) {
  return detail::lists_or_none(nanmean(t, axis), t, axis, true);
}
/// The variances of the values that are not NaN of rows of lists along a ListAxis, missing where a
/// group is empty or all NaN.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @param ddof delta degrees of freedom
/// @return the variances of the values that are not NaN, a Masked jagged tensor of nanvar(t,
/// axis)'s shape
/// @throws ShapeError, IndexError as nanvar(t, axis)
template <class T>
Masked<JaggedTensor<detail::jagged_mean_t<T>>> nanvar(const JaggedTensor<T>& t, ListAxis axis,
                                                      MaskIdentity /*tag*/, Ddof ddof = {}) {
  return detail::lists_or_none(nanvar(t, axis, ddof), t, axis, true);
}
/// The standard deviations of the values that are not NaN of rows of lists along a ListAxis,
/// missing where a group is empty or all NaN.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @param ddof delta degrees of freedom
/// @return the standard deviations of the values that are not NaN, a Masked jagged tensor of
/// nanstd(t, axis)'s shape
/// @throws ShapeError, IndexError as nanstd(t, axis)
template <class T>
Masked<JaggedTensor<detail::jagged_mean_t<T>>> nanstd(const JaggedTensor<T>& t, ListAxis axis,
                                                      MaskIdentity /*tag*/, Ddof ddof = {}) {
  return detail::lists_or_none(nanstd(t, axis, ddof), t, axis, true);
}
/// The minima of the values that are not NaN of rows of lists along a ListAxis, missing where a
/// group is empty or all NaN.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @return the minima of the values that are not NaN, a Masked jagged tensor of nanmin(t, axis)'s
/// shape
/// @throws ShapeError, IndexError as nanmin(t, axis)
template <class T>
Masked<JaggedTensor<T>> nanmin(const JaggedTensor<T>& t, ListAxis axis, MaskIdentity /*tag*/) {
  return detail::lists_or_none(nanmin(t, axis), t, axis, true);
}
/// The maxima of the values that are not NaN of rows of lists along a ListAxis, missing where a
/// group is empty or all NaN.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @return the maxima of the values that are not NaN, a Masked jagged tensor of nanmax(t, axis)'s
/// shape
/// @throws ShapeError, IndexError as nanmax(t, axis)
template <class T>
Masked<JaggedTensor<T>> nanmax(const JaggedTensor<T>& t, ListAxis axis, MaskIdentity /*tag*/) {
  return detail::lists_or_none(nanmax(t, axis), t, axis, true);
}
/// The positions of the minima that are not NaN of rows of lists along a ListAxis, missing where a
/// group is empty or all NaN.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @return the positions of the minima that are not NaN, a Masked jagged tensor of nanargmin(t,
/// axis)'s shape
/// @throws ShapeError, IndexError as nanargmin(t, axis)
template <class T>
Masked<JaggedTensor<index_t>> nanargmin(const JaggedTensor<T>& t, ListAxis axis,
                                        MaskIdentity /*tag*/) {
  return detail::lists_or_none(nanargmin(t, axis), t, axis, true);
}
/// The positions of the maxima that are not NaN of rows of lists along a ListAxis, missing where a
/// group is empty or all NaN.
/// @param t a tensor of rows of lists
/// @param axis the ListAxis
/// @return the positions of the maxima that are not NaN, a Masked jagged tensor of nanargmax(t,
/// axis)'s shape
/// @throws ShapeError, IndexError as nanargmax(t, axis)
template <class T>
Masked<JaggedTensor<index_t>> nanargmax(const JaggedTensor<T>& t, ListAxis axis,
                                        MaskIdentity /*tag*/) {
  return detail::lists_or_none(nanargmax(t, axis), t, axis, true);
}

/// The first value of every list at the innermost axis of rows of lists, missing for an empty
/// list (awkward's `ak.firsts(array, axis=-1)`): `n * var * var` gives `n * var`, one entry
/// per list.
/// @code
/// strata::firsts(lists, strata::ListAxis{-1});  // [[1, None], [4]] of [[[1, 2, 3], []], [[4, 5]]]
/// @endcode
/// @param t a tensor of rows of lists (`n * var * var` or deeper)
/// @param axis the innermost axis (-1, or the rank - 1)
/// @return the values with their validity, one level less deep than t
/// @throws ShapeError when t is not rows of lists or the axis is not the innermost (a missing
///         list is not a missing value); IndexError for an axis beyond the rank
template <class T>
Masked<JaggedTensor<T>> firsts(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_end("firsts", t, axis, false);
}
/// The last value of every list at the innermost axis of rows of lists, missing for an empty
/// list (awkward's `array[..., -1:]` then `ak.firsts(axis=-1)`).
/// @param t a tensor of rows of lists (`n * var * var` or deeper)
/// @param axis the innermost axis (-1, or the rank - 1)
/// @return the values with their validity, one level less deep than t
/// @throws ShapeError, IndexError as firsts(t, axis)
template <class T>
Masked<JaggedTensor<T>> lasts(const JaggedTensor<T>& t, ListAxis axis) {
  return detail::list_end("lasts", t, axis, true);
}

/// Each 1-D row padded with missing values to at least @p target elements (awkward's
/// `ak.pad_none(array, target)`, axis 1, `clip=False`): longer rows stay as they are.
/// @param t a tensor with 1-D rows
/// @param target the least row length
/// @return a jagged tensor with rows of `max(length, target)` elements
/// @throws ShapeError when the rows are not 1-D or @p target is negative
template <class T>
Masked<JaggedTensor<T>> pad_none(const JaggedTensor<T>& t, index_t target) {
  detail::check_flat_rows_of("pad_none", t, "a tensor");
  detail::check_target("pad_none", target);
  const std::span<const index_t> from = t.offsets();
  Index lengths(from.size() - 1);
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    lengths[r] = std::max(from[r + 1] - from[r], target);
  }
  const T* const in = t.data();
  JaggedTensor<T> values = detail::gather_rows(t, lengths, [&](index_t r, T* out, index_t n) {
    const auto u = static_cast<std::size_t>(r);
    const T* const end = std::copy(in + from[u], in + from[u + 1], out);
    std::fill(out + (end - out), out + n, T{});
  });
  JaggedTensor<bool> valid(values.shape());
  bool* const v = valid.data();
  const std::span<const index_t> to = valid.offsets();
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    std::fill_n(v + to[r], from[r + 1] - from[r], true);
  }
  return Masked<JaggedTensor<T>>(std::move(values), std::move(valid));
}
/// Each 1-D row padded with missing values or cut to exactly @p target elements (awkward's
/// `ak.pad_none(array, target, clip=True)`): a regular result.
/// @param t a tensor with 1-D rows
/// @param target the row length
/// @return a dense tensor of shape `outer + [target]`
/// @throws ShapeError when the rows are not 1-D or @p target is negative
template <class T>
Masked<Tensor<T>> pad_none(const JaggedTensor<T>& t, index_t target, Clip /*clip*/) {
  detail::check_flat_rows_of("pad_none", t, "a tensor");
  detail::check_target("pad_none", target);
  Index shape(t.shape().outer_extents().begin(), t.shape().outer_extents().end());
  shape.push_back(target);
  Tensor<T> values(shape);
  Tensor<bool> valid(shape);
  const std::span<const index_t> from = t.offsets();
  const T* const in = t.data();
  for (std::size_t r = 0; r + 1 < from.size(); ++r) {
    const index_t n = std::min(from[r + 1] - from[r], target);
    const auto at = static_cast<index_t>(r) * target;
    std::copy_n(in + from[r], n, values.data() + at);
    std::fill_n(valid.data() + at, n, true);
  }
  return Masked<Tensor<T>>(std::move(values), std::move(valid));
}

/// Where each entry is missing (awkward's `ak.is_none`, NumPy's `ma.getmaskarray`).
/// @param m a masked dense tensor
/// @return a new boolean tensor of m's shape, true where missing
template <class T>
Tensor<bool> is_none(const Masked<Tensor<T>>& m) {
  Tensor<bool> out = m.valid().copy();
  for (bool& v : std::span<bool>(out.data(), static_cast<std::size_t>(out.size()))) {
    v = !v;
  }
  return out;
}
/// Where each entry of a masked jagged tensor is missing.
/// @param m a masked jagged tensor
/// @return a new boolean jagged tensor of m's shape, true where missing
template <class T>
JaggedTensor<bool> is_none(const Masked<JaggedTensor<T>>& m) {
  auto out = JaggedTensor<bool>::for_overwrite(m.valid().shape());
  const bool* const v = m.valid().data();
  bool* const o = out.data();
  for (index_t k = 0; k < out.size(); ++k) {
    o[k] = !v[k];
  }
  return out;
}

/// The values with each missing one replaced by @p value (awkward's `ak.fill_none`, NumPy's
/// `ma.filled`).
/// @param m a masked dense tensor
/// @param value the value of the missing entries
/// @return a new tensor of m's shape
template <class T>
Tensor<std::remove_const_t<T>> fill_none(const Masked<Tensor<T>>& m,
                                         const std::remove_const_t<T>& value) {
  Tensor<std::remove_const_t<T>> out = m.values().copy();
  const Tensor<bool> valid = m.valid().copy();
  for (index_t k = 0; k < out.size(); ++k) {
    if (!valid.data()[k]) {
      out.data()[k] = value;
    }
  }
  return out;
}
/// The values of a masked jagged tensor with each missing one replaced by @p value.
/// @param m a masked jagged tensor
/// @param value the value of the missing entries
/// @return a new jagged tensor of m's shape
template <class T>
JaggedTensor<T> fill_none(const Masked<JaggedTensor<T>>& m, const T& value) {
  auto out = JaggedTensor<T>::for_overwrite(m.values().shape());
  const T* const x = m.values().data();
  const bool* const v = m.valid().data();
  T* const o = out.data();
  for (index_t k = 0; k < out.size(); ++k) {
    o[k] = v[k] ? x[k] : value;
  }
  return out;
}

/// The values present, in row-major order, as a 1-D tensor (NumPy's `MaskedArray.compressed()`;
/// awkward's `ak.drop_none` of a 1-D array).
/// @param m a masked dense tensor
/// @return a new 1-D tensor
template <class T>
Tensor<std::remove_const_t<T>> drop_none(const Masked<Tensor<T>>& m) {
  const Tensor<std::remove_const_t<T>> values = m.values().copy();
  const Tensor<bool> valid = m.valid().copy();
  std::vector<std::remove_const_t<T>> kept;
  for (index_t k = 0; k < values.size(); ++k) {
    if (valid.data()[k]) {
      kept.push_back(values.data()[k]);
    }
  }
  const Index shape{static_cast<index_t>(kept.size())};
  return Tensor<std::remove_const_t<T>>::from_vector(std::move(kept), shape);
}
/// Each row of a masked jagged tensor with its missing entries left out, the rows kept
/// (awkward's `ak.drop_none(array, axis=1)`): undoes pad_none().
/// @param m a masked jagged tensor with 1-D rows
/// @return a new jagged tensor over the same outer modes
/// @throws ShapeError when the rows are not 1-D
template <class T>
JaggedTensor<T> drop_none(const Masked<JaggedTensor<T>>& m) {
  detail::check_flat_rows_of("drop_none", m.values(), "a tensor");
  return filter_each(m.values(), m.valid());
}

namespace detail {

/// The texts of @p values where @p present, "None" elsewhere, all of one width (right-aligned):
/// the present ones formatted together as format_values() does.
template <class T>
std::vector<std::string> format_or_none(const std::vector<T>& values,
                                        const std::vector<bool>& present, int precision) {
  std::vector<T> shown;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (present[i]) {
      shown.push_back(values[i]);
    }
  }
  const std::vector<std::string> texts = format_values(shown, precision);
  std::size_t width = 4;  // "None"
  for (const std::string& s : texts) {
    width = std::max(width, s.size());
  }
  std::vector<std::string> out;
  out.reserve(values.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::string s = present[i] ? texts[next++] : std::string("None");
    out.push_back(std::string(width - s.size(), ' ') + s);
  }
  return out;
}

}  // namespace detail

/// The NumPy-style text of a masked dense tensor, None where an entry is missing, in columns
/// aligned as NumPy aligns the values.
/// @param m the masked tensor
/// @param options threshold, edge items and precision
/// @return the text
template <class T>
std::string to_string(const Masked<Tensor<T>>& m, const PrintOptions& options = {}) {
  return detail::tensor_text(
      m.values(), options,
      [&](const std::vector<std::remove_const_t<T>>& v, const std::vector<Index>& at) {
        std::vector<bool> present;
        present.reserve(at.size());
        for (const Index& g : at) {
          present.push_back(static_cast<bool>(m.valid().at(g)));
        }
        return detail::format_or_none(v, present, options.precision);
      });
}

/// The text of a masked jagged tensor as awkward-array prints an option type:
/// `[[1, 2, None], [None, None, None]]`.
/// @param m the masked tensor
/// @param options threshold, edge items and precision
/// @return the text
template <class T>
std::string to_string(const Masked<JaggedTensor<T>>& m, const PrintOptions& options = {}) {
  std::string ignored;
  std::vector<bool> present;
  detail::jagged_text(Shape(m.valid().shape()), m.valid().data(), m.size() > options.threshold,
                      options.edgeitems, ignored, present);
  return detail::jagged_string(m.values(), options, [&](const std::vector<T>& v) {
    return detail::format_or_none(v, present, options.precision);
  });
}

// ---- missing values inside expressions ------------------------------------------------------

namespace detail {

/// Whether X is a Masked tensor.
template <class X>
inline constexpr bool is_masked_v = false;
/// A Masked tensor is one.
template <class C>
inline constexpr bool is_masked_v<Masked<C>> = true;

/// What may meet a Masked tensor in an expression: another, a tensor, a jagged tensor, an
/// expression or a scalar.
template <class X>
concept MaskedOperand = is_masked_v<X> || is_operand_v<X> || std::is_arithmetic_v<X>;

/// An operator with at least one Masked operand.
template <class A, class B>
concept MaskedOperands = (is_masked_v<A> || is_masked_v<B>)&&MaskedOperand<A>&& MaskedOperand<B>;

/// The values of a Masked operand; any other operand as it is.
template <class X>
const auto& values_or_self(const X& x) {
  if constexpr (is_masked_v<X>) {
    return x.values();
  } else {
    return x;
  }
}

/// An expression, a tensor or a jagged tensor evaluated into a new one of its own.
template <class E>
auto evaluated_copy(const E& e) {
  if constexpr (requires { e.copy(); }) {
    return e.copy();
  } else if constexpr (jagged_v<E>) {
    return evaluate_jagged(e);
  } else {
    return evaluate(e);
  }
}

}  // namespace detail

/// Computes `f` of the values of Masked tensors and of any other operands (tensors, jagged
/// tensors, expressions, scalars), and marks missing every entry of the result where any Masked
/// operand is missing (awkward-array's option types in arithmetic: None in, None out; NumPy's
/// masked arrays). `f` takes the operands with each Masked one replaced by its values and
/// returns an expression (or tensor); it runs over the values under missing entries too (they
/// hold zero when strata made them, and integer division by zero gives 0 in strata), whose
/// results are then masked. The operators `+ - * /`, unary `-` and the comparisons on Masked
/// tensors are this with the operator as `f`.
/// @code
/// auto best = strata::max(jt, 1, strata::mask_identity);           // [3 None 5]
/// strata::map_masked([](const auto& x) { return strata::sqrt(x); }, best);  // [1.73 None 2.24]
/// best * 2.0 + strata::firsts(jt);                                 // [7 None 14]
/// strata::pad_none(jt, 2) - strata::mean(jt, 1);                   // jagged, None where padded
/// @endcode
/// @param f the function of the operands' values
/// @param operands at least one Masked tensor; the others broadcast as in any expression
/// @return the values of `f` with a validity mask of their shape (Tensor or JaggedTensor)
/// @throws BroadcastError, ShapeError as the expression of the values throws them (nothing is
///         made)
template <class F, class... A>
requires(detail::is_masked_v<A> || ...) &&
    (detail::MaskedOperand<A> && ...) auto map_masked(F&& f, const A&... operands) {
  auto values = detail::evaluated_copy(f(detail::values_or_self(operands)...));
  using V = decltype(values);
  using M = typename detail::mask_of<V>::type;
  M valid = [&values] {
    if constexpr (std::is_same_v<M, JaggedTensor<bool>>) {
      return JaggedTensor<bool>::full(values.shape(), true);
    } else {
      Tensor<bool> present(values.shape());
      std::fill_n(present.data(), present.size(), true);
      return present;
    }
  }();
  const auto and_valid = [&valid](const auto& operand) {
    if constexpr (detail::is_masked_v<std::remove_cvref_t<decltype(operand)>>) {
      valid.rebind(detail::evaluated_copy(valid && operand.valid()));
    }
  };
  (and_valid(operands), ...);
  return Masked<V>(std::move(values), std::move(valid));
}

/// Element-wise `a + b` with missing values (map_masked): missing where either is.
/// @param a, b Masked tensors, tensors, jagged tensors, expressions or scalars (one Masked)
/// @return a Masked tensor
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::MaskedOperands<A, B>
auto operator+(const A& a, const B& b) {
  return map_masked([](const auto& x, const auto& y) { return x + y; }, a, b);
}
/// Element-wise `a - b` with missing values (map_masked): missing where either is.
/// @param a, b Masked tensors, tensors, jagged tensors, expressions or scalars (one Masked)
/// @return a Masked tensor
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::MaskedOperands<A, B>
auto operator-(const A& a, const B& b) {
  return map_masked([](const auto& x, const auto& y) { return x - y; }, a, b);
}
/// Element-wise `a * b` with missing values (map_masked): missing where either is.
/// @param a, b Masked tensors, tensors, jagged tensors, expressions or scalars (one Masked)
/// @return a Masked tensor
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::MaskedOperands<A, B>
auto operator*(const A& a, const B& b) {
  return map_masked([](const auto& x, const auto& y) { return x * y; }, a, b);
}
/// Element-wise `a / b` with missing values (map_masked): missing where either is.
/// @param a, b Masked tensors, tensors, jagged tensors, expressions or scalars (one Masked)
/// @return a Masked tensor
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::MaskedOperands<A, B>
auto operator/(const A& a, const B& b) {
  return map_masked([](const auto& x, const auto& y) { return x / y; }, a, b);
}
/// Element-wise `-a`, missing where a is.
/// @param a a Masked tensor
/// @return a Masked tensor
template <class C>
auto operator-(const Masked<C>& a) {
  return map_masked([](const auto& x) { return -x; }, a);
}
/// Element-wise `a < b` with missing values: a Masked boolean tensor, missing where either is.
/// @param a, b Masked tensors, tensors, jagged tensors, expressions or scalars (one Masked)
/// @return a Masked boolean tensor
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::MaskedOperands<A, B>
auto operator<(const A& a, const B& b) {
  return map_masked([](const auto& x, const auto& y) { return x < y; }, a, b);
}
/// Element-wise `a <= b` with missing values: a Masked boolean tensor, missing where either is.
/// @param a, b Masked tensors, tensors, jagged tensors, expressions or scalars (one Masked)
/// @return a Masked boolean tensor
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::MaskedOperands<A, B>
auto operator<=(const A& a, const B& b) {
  return map_masked([](const auto& x, const auto& y) { return x <= y; }, a, b);
}
/// Element-wise `a > b` with missing values: a Masked boolean tensor, missing where either is.
/// @param a, b Masked tensors, tensors, jagged tensors, expressions or scalars (one Masked)
/// @return a Masked boolean tensor
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::MaskedOperands<A, B>
auto operator>(const A& a, const B& b) {
  return map_masked([](const auto& x, const auto& y) { return x > y; }, a, b);
}
/// Element-wise `a >= b` with missing values: a Masked boolean tensor, missing where either is.
/// @param a, b Masked tensors, tensors, jagged tensors, expressions or scalars (one Masked)
/// @return a Masked boolean tensor
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::MaskedOperands<A, B>
auto operator>=(const A& a, const B& b) {
  return map_masked([](const auto& x, const auto& y) { return x >= y; }, a, b);
}
/// Element-wise `a == b` with missing values (not whole-tensor equality, as NumPy's masked
/// arrays): a Masked boolean tensor, missing where either is.
/// @param a, b Masked tensors, tensors, jagged tensors, expressions or scalars (one Masked)
/// @return a Masked boolean tensor
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::MaskedOperands<A, B>
auto operator==(const A& a, const B& b) {
  return map_masked([](const auto& x, const auto& y) { return equal(x, y); }, a, b);
}
/// Element-wise `a != b` with missing values: a Masked boolean tensor, missing where either is.
/// @param a, b Masked tensors, tensors, jagged tensors, expressions or scalars (one Masked)
/// @return a Masked boolean tensor
/// @throws BroadcastError when the shapes do not broadcast
template <class A, class B>
requires detail::MaskedOperands<A, B>
auto operator!=(const A& a, const B& b) {
  return map_masked([](const auto& x, const auto& y) { return not_equal(x, y); }, a, b);
}

/// Prints a masked tensor as to_string() does.
/// @param out the stream
/// @param m the masked tensor
/// @return @p out
template <class C>
std::ostream& operator<<(std::ostream& out, const Masked<C>& m) {
  return out << to_string(m);
}

}  // namespace strata
