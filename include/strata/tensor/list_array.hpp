/// @file
/// strata::ListArray: lists given by where each starts and stops in a values array (awkward's
/// and Arrow's ListArray), the interchange form beside JaggedTensor's offsets (a
/// ListOffsetArray). Lists may come in any order, overlap, or leave values unused, so a slice of
/// every list, a choice of rows and the lists of a JaggedTensor are all views: only the starts
/// and stops are new, the values are shared. to_jagged() packs the lists into a JaggedTensor.
#pragma once

#include "strata/core/error.hpp"
#include "strata/tensor/jagged_tensor.hpp"
#include "strata/tensor/print.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace strata {

/// Lists over a shared array of values, list r being `values[starts[r] : stops[r]]` (awkward's
/// `ak.contents.ListArray`, Arrow's list view): the form in which a slice of every list, a
/// reordering or repetition of rows, and the rows of a JaggedTensor cost no copy of the values.
/// A handle: copies share the values (writes through row() are seen by every copy) and the
/// starts and stops (which never change).
///
/// @code
/// // awkward's documented example: starts [0, 3, 3], stops [3, 3, 5]
/// auto lists = strata::ListArray<double>::from_arrays(
///     Tensor<double>::of({1.1, 2.2, 3.3, 4.4, 5.5}), {0, 3, 3}, {3, 3, 5});
/// std::cout << lists;                    // [[1.1, 2.2, 3.3], [], [4.4, 5.5]]
/// lists.slice_each(1, {});               // [[2.2, 3.3], [], [5.5]]: a view, awkward's [:, 1:]
/// lists.take_rows({2, 2, 0});            // [[4.4, 5.5], [4.4, 5.5], [1.1, 2.2, 3.3]]: a view
/// strata::ListArray<double> view(jt);    // a JaggedTensor's lists, nothing copied
/// JaggedTensor<double> packed = lists.to_jagged();  // a ListOffsetArray: values + offsets
/// @endcode
/// Design page: @ref shapes_page.
template <class T>
class ListArray {
 public:
  /// The element type.
  using value_type = T;

  /// No lists, no values.
  ListArray() : ListArray(Tensor<T>(Index{0}), std::make_shared<std::vector<index_t>>(), 0) {}

  /// The lists of a `n * var` JaggedTensor (1-D rows), sharing its values: starts are its
  /// offsets but the last, stops its offsets but the first. Nothing is copied.
  /// @param t the jagged tensor (a handle: the values stay alive with the result)
  /// @throws ShapeError when the rows are not 1-D or there are several outer modes
  explicit ListArray(JaggedTensor<T> t)
      : ListArray(lists_of(t), std::make_shared<const Jagged>(t.shape())) {}

  /// Lists from their starts and stops in @p values (awkward's `ListArray(starts, stops,
  /// content)`): list r is `values[starts[r] : stops[r]]`; lists may overlap, come in any order
  /// and leave values unused. The values are shared when they are contiguous, else copied once.
  /// @param values the values, 1-D
  /// @param starts where each list starts
  /// @param stops where each list stops (one past its last value)
  /// @return the lists
  /// @throws ShapeError when @p values is not 1-D or starts and stops differ in length (naming
  ///         both lengths); IndexError naming the first list whose start is negative, whose stop
  ///         is below its start, or whose stop is beyond the values
  static ListArray from_arrays(Tensor<T> values, std::vector<index_t> starts,
                               std::vector<index_t> stops) {
    if (values.rank() != 1) {
      detail::fail<ShapeError>("ListArray::from_arrays", "values of shape ",
                               to_string(values.shape()), " are not 1-D");
    }
    if (starts.size() != stops.size()) {
      detail::fail<ShapeError>("ListArray::from_arrays", starts.size(), " starts but ",
                               stops.size(), " stops (one of each per list)");
    }
    const index_t size = values.size();
    for (std::size_t r = 0; r < starts.size(); ++r) {
      if (starts[r] < 0 || stops[r] < starts[r] || stops[r] > size) {
        detail::fail<IndexError>("ListArray::from_arrays", "list ", r, " is values[", starts[r],
                                 ":", stops[r], "], not inside the ", size,
                                 " values (0 <= start <= stop <= size)");
      }
    }
    if (!values.is_contiguous()) {
      values.rebind(values.copy());
    }
    const auto n = static_cast<index_t>(starts.size());
    auto both = std::make_shared<std::vector<index_t>>(std::move(starts));
    both->insert(both->end(), stops.begin(), stops.end());
    return ListArray(std::move(values), std::move(both), n);
  }

  /// The number of lists.
  /// @return the count
  [[nodiscard]] index_t n_rows() const noexcept { return n_; }
  /// The number of values the lists read (overlapping values counted once per list).
  /// @return the sum of the list lengths
  [[nodiscard]] index_t size() const noexcept {
    index_t total = 0;
    for (index_t r = 0; r < n_; ++r) {
      total += stops_[r] - starts_[r];
    }
    return total;
  }
  /// Where each list starts in values().
  /// @return n_rows() int64 positions
  [[nodiscard]] std::span<const index_t> starts() const noexcept {
    return {starts_, static_cast<std::size_t>(n_)};
  }
  /// Where each list stops in values() (one past its last value).
  /// @return n_rows() int64 positions
  [[nodiscard]] std::span<const index_t> stops() const noexcept {
    return {stops_, static_cast<std::size_t>(n_)};
  }
  /// The values the lists read (awkward's content), a contiguous 1-D view sharing them.
  /// @return the view
  [[nodiscard]] const Tensor<T>& values() const noexcept { return values_; }
  /// Each list's length, `stops - starts`.
  /// @return an int64 tensor of n_rows()
  [[nodiscard]] Tensor<index_t> lengths() const {
    Tensor<index_t> out(Index{n_});
    for (index_t r = 0; r < n_; ++r) {
      out.data()[r] = stops_[r] - starts_[r];
    }
    return out;
  }
  /// List @p r's values, writable (they are shared with every list that reads them).
  /// @param r the list, 0 <= r < n_rows()
  /// @return the span
  /// @throws IndexError for a list that does not exist
  [[nodiscard]] std::span<T> row(index_t r) const {
    if (r < 0 || r >= n_) {
      detail::fail<IndexError>("ListArray::row", "list ", r, " is outside the ", n_, " lists");
    }
    return {base_ + starts_[r], static_cast<std::size_t>(stops_[r] - starts_[r])};
  }

  /// The same slice of every list, `list[start:stop]` clipped to each list as Python clips
  /// (negative from the list's end; awkward's `array[:, 1:]`): a view, new starts and stops
  /// over the same values. (A slice with a step other than 1 is not a run of values:
  /// `to_jagged().select_each(range)` copies it.)
  /// @param start the first position, nullopt for the list's start
  /// @param stop the position after the last, nullopt for the list's end
  /// @return the sliced lists
  [[nodiscard]] ListArray slice_each(std::optional<index_t> start,
                                     std::optional<index_t> stop) const {
    auto both = std::make_shared<std::vector<index_t>>(static_cast<std::size_t>(2 * n_));
    index_t* const s = both->data();
    const Range range{start, stop};
    for (index_t r = 0; r < n_; ++r) {
      const auto [first_kept, count] = detail::slice_of(stops_[r] - starts_[r], range);
      s[r] = starts_[r] + first_kept;
      s[n_ + r] = s[r] + count;
    }
    return ListArray(values_, std::move(both), n_);
  }
  /// The lists [lo, hi), a view (the starts and stops are shared too).
  /// @param lo the first list
  /// @param hi the list after the last
  /// @return the lists
  /// @throws IndexError when [lo, hi) is not inside the lists
  [[nodiscard]] ListArray rows(index_t lo, index_t hi) const {
    if (lo < 0 || hi < lo || hi > n_) {
      detail::fail<IndexError>("ListArray::rows", "rows [", lo, ", ", hi, ") are not inside the ",
                               n_, " lists");
    }
    ListArray out = *this;
    out.starts_ += lo;
    out.stops_ += lo;
    out.n_ = hi - lo;
    return out;
  }
  /// The lists chosen by @p index, in its order, repeats allowed, negative counting from the
  /// end (awkward's `array[[2, 0, -1]]`): a view, new starts and stops over the same values.
  /// @param index the lists to take
  /// @return the lists
  /// @throws IndexError naming the first entry outside the lists (nothing is made)
  [[nodiscard]] ListArray take_rows(std::span<const index_t> index) const {
    const auto n = static_cast<index_t>(index.size());
    auto both = std::make_shared<std::vector<index_t>>(static_cast<std::size_t>(2 * n));
    index_t* const s = both->data();
    for (index_t k = 0; k < n; ++k) {
      const index_t i = index[static_cast<std::size_t>(k)];
      const index_t r = i < 0 ? i + n_ : i;
      if (r < 0 || r >= n_) {
        detail::fail<IndexError>("ListArray::take_rows", "index ", i, " (entry ", k,
                                 ") is outside the ", n_, " lists");
      }
      s[k] = starts_[r];
      s[n + k] = stops_[r];
    }
    return ListArray(values_, std::move(both), n);
  }
  /// take_rows() of a braced list: `lists.take_rows({2, 0})`.
  /// @param index the lists to take
  /// @return the lists
  /// @throws IndexError naming the first entry outside the lists
  [[nodiscard]] ListArray take_rows(std::initializer_list<index_t> index) const {
    return take_rows(std::span<const index_t>(index.begin(), index.size()));
  }

  /// The lists packed one after another into a new JaggedTensor (values + offsets, awkward's
  /// ListOffsetArray; `ak.to_packed`).
  /// @return the jagged tensor `n * var`
  [[nodiscard]] JaggedTensor<std::remove_const_t<T>> to_jagged() const {
    std::vector<index_t> lengths(static_cast<std::size_t>(n_));
    for (index_t r = 0; r < n_; ++r) {
      lengths[static_cast<std::size_t>(r)] = stops_[r] - starts_[r];
    }
    auto out = JaggedTensor<std::remove_const_t<T>>::for_overwrite(Jagged::from_lengths(lengths));
    auto* o = out.data();
    for (index_t r = 0; r < n_; ++r) {
      o = std::copy(base_ + starts_[r], base_ + stops_[r], o);
    }
    return out;
  }
  /// The type line awkward prints, `3 * var * float64`.
  /// @return the text
  [[nodiscard]] std::string type_string() const {
    return std::to_string(n_) + " * var * " + std::string(detail::dtype_name<T>());
  }

 private:
  // Over a n * var shape's offsets (shared with the tensor's shape): starts are all but the
  // last, stops all but the first.
  ListArray(Tensor<T> values, std::shared_ptr<const Jagged> shape)
      : values_(std::move(values)),
        base_(values_.data()),
        index_owner_(shape),
        starts_(shape->row_starts().data()),
        stops_(shape->row_starts().data() + 1),
        n_(shape->n_rows()) {}
  // The values of a JaggedTensor whose lists a ListArray can be: one outer axis, 1-D rows.
  static Tensor<T> lists_of(JaggedTensor<T>& t) {
    const Jagged& shape = t.shape();
    if (shape.outer_rank() != 1 || shape.inner_rank() != 1 || !shape.smooth_rows()) {
      detail::fail<ShapeError>("ListArray",
                               "takes the lists of a n * var tensor (one outer axis, "
                               "1-D rows), not ",
                               shape.to_string());
    }
    return t.values();
  }
  ListArray(Tensor<T> values, std::shared_ptr<std::vector<index_t>> both, index_t n)
      : values_(std::move(values)),
        base_(values_.data()),
        index_owner_(both),
        starts_(both->data()),
        stops_(both->data() + n),
        n_(n) {}

  Tensor<T> values_;                         // contiguous, 1-D
  T* base_ = nullptr;                        // values_.data() (null when there are none)
  std::shared_ptr<const void> index_owner_;  // keeps starts_ and stops_ alive
  const index_t* starts_ = nullptr;
  const index_t* stops_ = nullptr;
  index_t n_ = 0;
};

/// The lists as awkward prints them, `[[1.1, 2.2], [], [3.3]]` (long data elided).
/// @param t the lists
/// @param options the print options
/// @return the text
template <class T>
std::string to_string(const ListArray<T>& t, const PrintOptions& options = {}) {
  return to_string(t.to_jagged(), options);
}
/// Streams to_string(t).
/// @param out the stream
/// @param t the lists
/// @return the stream
template <class T>
std::ostream& operator<<(std::ostream& out, const ListArray<T>& t) {
  return out << to_string(t);
}

}  // namespace strata
