/// @file
/// strata::ListArray: lists given by where each starts and stops in a values array (awkward's
/// and Arrow's ListArray), the interchange form beside JaggedTensor's offsets (a
/// ListOffsetArray). Lists may come in any order, overlap, or leave values unused, so a slice of
/// every list, a choice of rows and the lists of a JaggedTensor are all views: only the starts
/// and stops are new, the values are shared. Levels stack (lists of lists, `n * var * var`), so
/// the lists of each row reversed, chosen or filtered are views across two ragged levels.
/// to_jagged() packs the lists into a JaggedTensor.
#pragma once

#include "strata/core/error.hpp"
#include "strata/tensor/jagged_tensor.hpp"
#include "strata/tensor/print.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <memory>
#include <numeric>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata {

template <class T>
class ListArray;

namespace detail {
struct ListLevel;
/// What strata's other headers reach inside a ListArray: unflatten with their operation's name
/// in its errors.
struct ListArrayAccess {
  template <class T, std::integral I>
  static ListArray<T> unflatten(std::string_view op, const ListArray<T>& lists,
                                const JaggedTensor<I>& counts, index_t axis) {
    return lists.split(op, counts, static_cast<std::size_t>(axis - 1), axis);
  }
  /// Level @p l of @p lists (0: the rows).
  template <class T>
  static const ListLevel& level(const ListArray<T>& lists, std::size_t l) {
    return lists.levels_[l];
  }
  /// ListArray::chip_each() at level @p l, an entry without position @p i named by `name(e)`.
  template <class T, class Name>
  static ListArray<T> chip(const ListArray<T>& lists, std::string_view op, index_t i, std::size_t l,
                           Name&& name) {
    return lists.chip(op, i, l, std::forward<Name>(name));
  }
  /// Every entry e of level @p l of @p lists gets the entries `pick(e, chosen)` appends
  /// (positions in level l + 1, or in the values at the last level).
  template <class T, class Pick>
  static ListArray<T> regroup(const ListArray<T>& lists, std::size_t l, Pick&& pick) {
    return lists.regroup(l, std::forward<Pick>(pick));
  }
};

/// One ragged level of a ListArray: entry e is entries `starts[e]` to `stops[e] - 1` of the
/// level below (values at the last level); the owner keeps the two arrays alive.
struct ListLevel {
  std::shared_ptr<const void> owner;  ///< keeps starts and stops alive
  const index_t* starts = nullptr;    ///< where each entry starts
  const index_t* stops = nullptr;     ///< where each entry stops
  index_t n = 0;                      ///< the number of entries
};
}  // namespace detail

/// Lists over a shared array of values, list r being `values[starts[r] : stops[r]]` (awkward's
/// `ak.contents.ListArray`, Arrow's list view), or lists of such lists: a ListArray of depth 2
/// is `n * var * var`, row r holding lists `starts[r]` to `stops[r] - 1` of its content(), a
/// ListArray of depth 1 (awkward's ListArray whose content is a ListArray). A slice of every list
/// at any level, a reordering or repetition of rows, a reversal or choice of the lists of each row
/// and the lists of a JaggedTensor cost no copy of the values: only the starts and stops of the
/// levels above the values are rewritten (the views across ragged levels that awkward copies
/// for and PyTorch's nested tensors, with one ragged axis, cannot express).
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
///
/// // Two ragged levels: rows of lists, every operation a view of the same values.
/// strata::ListArray<double> events(jt2);  // jt2 = [[[1, 2], [3]], [], [[4], [5, 6, 7]]]
/// events.slice_each(1, {}, 2);           // [[[2], []], [], [[], [6, 7]]]   awkward's [:, :, 1:]
/// events.reverse_each();                 // [[[3], [1, 2]], [], [[5, 6, 7], [4]]]  [:, ::-1]
/// events.take_each(strata::JaggedTensor<int>(std::vector<std::vector<int>>{{-1}, {}, {0, 0}}));
///                                        // [[[3]], [], [[4], [4]]]   awkward's array[index]
/// @endcode
/// Design page: @ref shapes_page.
template <class T>
class ListArray {
 public:
  /// The element type.
  using value_type = T;

  /// No lists, no values.
  ListArray()
      : ListArray(Tensor<T>(Index{0}), {owned(std::make_shared<std::vector<index_t>>(), 0)}) {}

  /// The lists of a `n * var` JaggedTensor (1-D rows; depth 1), the rows of lists of a
  /// `n * var * var` one (rows of rank 2, jagged or rectangular; depth 2), or deeper rows
  /// (`n * var * var * var`, depth the rows' rank), sharing its values: each level's starts
  /// are its offsets but the last, its stops its offsets but the first. The values are never
  /// copied; nor are the offsets up to depth 2 (deeper, one offsets array per level is read
  /// from the rows' shapes, O(lists)).
  /// @param t the jagged tensor (a handle: the values stay alive with the result)
  /// @throws ShapeError when there are several outer modes (of the tensor or inside a row)
  explicit ListArray(JaggedTensor<T> t) : ListArray(levels_of(t)) {}

  /// Lists from their starts and stops in @p values (awkward's `ListArray(starts, stops,
  /// content)`): list r is `values[starts[r] : stops[r]]`; lists may overlap, come in any order
  /// and leave values unused. The values are shared when they are contiguous, else copied once.
  /// @param values the values, 1-D
  /// @param starts where each list starts
  /// @param stops where each list stops (one past its last value)
  /// @return the lists, depth 1
  /// @throws ShapeError when @p values is not 1-D or starts and stops differ in length (naming
  ///         both lengths); IndexError naming the first list whose start is negative, whose stop
  ///         is below its start, or whose stop is beyond the values
  static ListArray from_arrays(Tensor<T> values, std::vector<index_t> starts,
                               std::vector<index_t> stops) {
    if (values.rank() != 1) {
      detail::fail<ShapeError>("ListArray::from_arrays", "values of shape ",
                               to_string(values.shape()), " are not 1-D");
    }
    const index_t n = checked_level(starts, stops, values.size(), "values");
    if (!values.is_contiguous()) {
      values.rebind(values.copy());
    }
    return ListArray(std::move(values), {owned(joined(std::move(starts), stops), n)});
  }
  /// Lists of lists (awkward's ListArray over a ListArray content): row r holds lists
  /// `starts[r]` to `stops[r] - 1` of @p content, which may overlap, come in any order and leave
  /// lists unused; the result is one level deeper than @p content and shares everything it holds.
  /// @param content the lists the rows choose from (any depth)
  /// @param starts where each row starts among content's rows
  /// @param stops where each row stops
  /// @return the lists, depth `content.depth() + 1`
  /// @throws ShapeError when starts and stops differ in length; IndexError naming the first
  ///         row outside content's rows
  static ListArray from_arrays(const ListArray& content, std::vector<index_t> starts,
                               std::vector<index_t> stops) {
    const index_t n = checked_level(starts, stops, content.n_rows(), "lists");
    std::vector<Level> levels{owned(joined(std::move(starts), stops), n)};
    levels.insert(levels.end(), content.levels_.begin(), content.levels_.end());
    return ListArray(content.values_, std::move(levels));
  }

  /// Shares @p other's values and levels (a handle).
  /// @param other the lists
  ListArray(const ListArray& other) = default;
  /// Takes @p other's values and levels.
  /// @param other the lists
  ListArray(ListArray&& other) noexcept = default;
  /// Does not compile, as Tensor's and JaggedTensor's: `=` on a handle could write the values or
  /// rebind it. `a.rebind(b)` rebinds, `swap(a, b)` exchanges handles; writes go through row().
  /// @param other the lists
  /// @return never
  ListArray& operator=(const ListArray& other) = delete;  // rebind: rebind()
  /// Does not compile, as copy-assignment: rebind with `rebind`.
  /// @param other the lists
  /// @return never
  ListArray& operator=(ListArray&& other) = delete;  // rebind: rebind()
  /// Releases this handle.
  ~ListArray() = default;
  /// Rebinds this handle to @p other's values and levels, writing nothing (a loop that goes one
  /// level deeper or shallower each step: `lists.rebind(lists.flatten(1))`).
  /// @param other the lists
  /// @return these lists
  ListArray& rebind(ListArray other) noexcept {
    swap(other);
    return *this;
  }
  /// Exchanges two handles (no value moves).
  /// @param other the lists
  void swap(ListArray& other) noexcept {
    using std::swap;
    values_.swap(other.values_);
    swap(base_, other.base_);
    swap(levels_, other.levels_);
  }
  /// Exchanges two handles (found by argument-dependent lookup: `swap(a, b)`).
  /// @param a, b lists
  friend void swap(ListArray& a, ListArray& b) noexcept { a.swap(b); }

  /// The number of ragged levels: 1 for `n * var`, 2 for `n * var * var`.
  /// @return the depth
  [[nodiscard]] index_t depth() const noexcept { return static_cast<index_t>(levels_.size()); }
  /// The number of rows (lists at depth 1, rows of lists at depth 2).
  /// @return the count
  [[nodiscard]] index_t n_rows() const noexcept { return levels_.front().n; }
  /// The number of values the rows read (a value read by several lists counted once per list).
  /// @return the count
  [[nodiscard]] index_t size() const {
    index_t total = 0;
    for_each_run([&total](index_t start, index_t stop) { total += stop - start; });
    return total;
  }
  /// Where each row starts: in values() at depth 1, among content()'s rows deeper.
  /// @return n_rows() int64 positions
  [[nodiscard]] std::span<const index_t> starts() const noexcept {
    return {levels_.front().starts, static_cast<std::size_t>(n_rows())};
  }
  /// Where each row stops (one past its last value or list).
  /// @return n_rows() int64 positions
  [[nodiscard]] std::span<const index_t> stops() const noexcept {
    return {levels_.front().stops, static_cast<std::size_t>(n_rows())};
  }
  /// The values the lists read (awkward's innermost content), a contiguous 1-D view sharing
  /// them.
  /// @return the view
  [[nodiscard]] const Tensor<T>& values() const noexcept { return values_; }
  /// The lists the rows of a ListArray of depth 2 or more choose from, in their stored order
  /// (awkward's `content`): one level less deep, a view.
  /// @return the lists
  /// @throws ShapeError at depth 1 (its content is values())
  [[nodiscard]] ListArray content() const {
    if (levels_.size() == 1) {
      detail::fail<ShapeError>("ListArray::content",
                               "a ListArray of depth 1 reads values, not lists (values() gives "
                               "them)");
    }
    return ListArray(values_, std::vector<Level>(levels_.begin() + 1, levels_.end()));
  }
  /// Each row's length, `stops - starts` (its number of values at depth 1, of lists deeper).
  /// @return an int64 tensor of n_rows()
  [[nodiscard]] Tensor<index_t> lengths() const {
    const Level& top = levels_.front();
    Tensor<index_t> out(Index{top.n});
    for (index_t r = 0; r < top.n; ++r) {
      out.data()[r] = top.stops[r] - top.starts[r];
    }
    return out;
  }
  /// List @p r's values, writable (they are shared with every list that reads them).
  /// @param r the list, 0 <= r < n_rows()
  /// @return the span
  /// @throws IndexError for a list that does not exist; ShapeError at depth 2 or more (a row
  ///         holds lists: row_lists())
  [[nodiscard]] std::span<T> row(index_t r) const {
    check_row("ListArray::row", r);
    if (levels_.size() != 1) {
      detail::fail<ShapeError>("ListArray::row", "row ", r, " of a ListArray of depth ", depth(),
                               " holds lists, not values (row_lists(", r, ") gives them)");
    }
    const Level& top = levels_.front();
    return {base_ + top.starts[r], static_cast<std::size_t>(top.stops[r] - top.starts[r])};
  }
  /// Row @p r of a ListArray of depth 2 or more: its lists, one level less deep, a view
  /// (awkward's `array[r]`).
  /// @param r the row, 0 <= r < n_rows()
  /// @return the lists
  /// @throws IndexError for a row that does not exist; ShapeError at depth 1 (row() gives the
  ///         values)
  [[nodiscard]] ListArray row_lists(index_t r) const {
    check_row("ListArray::row_lists", r);
    if (levels_.size() == 1) {
      detail::fail<ShapeError>("ListArray::row_lists", "row ", r,
                               " of a ListArray of depth 1 holds values, not lists (row(", r,
                               ") gives them)");
    }
    const Level& top = levels_.front();
    return content().rows(top.starts[r], top.stops[r]);
  }

  /// The same slice of every list at one level, `list[start:stop]` clipped to each list as
  /// Python clips (negative from the list's end): axis 1 slices each row (awkward's
  /// `array[:, 1:]`: the values of a depth-1 row, the lists of a depth-2 row), axis 2 each list
  /// of each row (`array[:, :, 1:]`), -1 the innermost lists. A view: new starts and stops for
  /// that level, everything else shared. (A slice with a step other than 1 is not a run:
  /// reverse_each() reverses, `to_jagged().select_each(range)` copies any step.)
  /// @param start the first position, nullopt for the list's start
  /// @param stop the position after the last, nullopt for the list's end
  /// @param axis the list axis, 1 to depth() or -depth() to -1
  /// @return the sliced lists
  /// @throws IndexError for an axis outside the list axes
  [[nodiscard]] ListArray slice_each(std::optional<index_t> start, std::optional<index_t> stop,
                                     index_t axis = 1) const {
    const std::size_t l = level_of("ListArray::slice_each", axis);
    const Level& v = levels_[l];
    auto both = std::make_shared<std::vector<index_t>>(static_cast<std::size_t>(2 * v.n));
    index_t* const s = both->data();
    const Range range{start, stop};
    for (index_t e = 0; e < v.n; ++e) {
      const auto [first_kept, count] = detail::slice_of(v.stops[e] - v.starts[e], range);
      s[e] = v.starts[e] + first_kept;
      s[v.n + e] = s[e] + count;
    }
    ListArray out = *this;
    out.levels_[l] = owned(std::move(both), v.n);
    return out;
  }
  /// Every list at one level in reverse order (awkward's `array[:, ::-1]` for axis 1,
  /// `array[:, :, ::-1]` for axis 2). Above the innermost level a view: the reversed lists'
  /// starts and stops are rewritten, the values shared. On the innermost axis (-1: values in
  /// reverse) the values are gathered into a new array, as awkward does on every axis.
  /// @param axis the list axis, 1 to depth() or -depth() to -1
  /// @return the reversed lists
  /// @throws IndexError for an axis outside the list axes
  [[nodiscard]] ListArray reverse_each(index_t axis = 1) const {
    const std::size_t l = level_of("ListArray::reverse_each", axis);
    const Level& v = levels_[l];
    return regroup(l, [&v](index_t e, std::vector<index_t>& chosen) {
      for (index_t c = v.stops[e]; c-- > v.starts[e];) {
        chosen.push_back(c);
      }
    });
  }
  /// Element @p i of every list at one level, that level removed (awkward's `array[:, i]` for
  /// axis 1, `array[:, :, i]` for axis 2, negative from each list's end): of `n * var * var`,
  /// axis 1 gives list i of every row and axis 2 value i of every list, each a `n * var`
  /// ListArray. A view: the chosen entries' starts and stops are rewritten, the values shared;
  /// only values chosen at the innermost axis that do not lie one after another are gathered
  /// into a new array, as flatten() gathers them.
  /// @param i the position in each list (negative from its end)
  /// @param axis the list axis, 1 to depth() or -depth() to -1
  /// @return the chosen elements, one level less deep
  /// @throws IndexError for an axis outside the list axes or a list without position @p i
  ///         (naming the list, by its number among the lists of its level, and its length;
  ///         nothing is made); ShapeError at depth 1 (one value per row: no list is left)
  [[nodiscard]] ListArray chip_each(index_t i, index_t axis = 1) const {
    constexpr std::string_view op = "ListArray::chip_each";
    const std::size_t l = level_of(op, axis);
    if (depth() == 1) {
      detail::fail<ShapeError>(op, "index ", i, " of every row of ", type_string(),
                               " is one value per row: no list is left (values(), starts() and "
                               "stops() give them)");
    }
    return chip(op, i, l, [l](index_t e) {
      return l == 0 ? "row " + std::to_string(e)
                    : "list " + std::to_string(e) + " of axis " + std::to_string(l + 1);
    });
  }
  /// Per-row choice (awkward's `array[index]` with a jagged integer index): row r of the
  /// result holds the elements `index[r][0], index[r][1], ...` of row r (its lists at depth 2,
  /// its values at depth 1), repeats allowed, negative counting from the row's end (the
  /// `argmax(..., keepdims)` then index idiom). At depth 2 or more a view: new starts and stops
  /// for the chosen lists, the values shared; at depth 1 the chosen values are gathered into a
  /// new array.
  /// @param index a `n_rows() * var` jagged tensor of integers
  /// @return the chosen elements
  /// @throws ShapeError for an index of another shape (naming both); IndexError naming the row
  ///         and the first position outside it (nothing is made)
  template <std::integral I>
  [[nodiscard]] ListArray take_each(const JaggedTensor<I>& index) const {
    constexpr std::string_view op = "ListArray::take_each";
    check_per_row(op, "an index", index.shape());
    const Level& top = levels_.front();
    return regroup(0, [&](index_t r, std::vector<index_t>& chosen) {
      const index_t length = top.stops[r] - top.starts[r];
      for (const I i : index.row(r)) {
        const auto k = static_cast<index_t>(i);
        const index_t at = k < 0 ? k + length : k;
        if (at < 0 || at >= length) {
          detail::fail<IndexError>(op, "index ", k, " in row ", r, " is outside row ", r,
                                   " of length ", length);
        }
        chosen.push_back(top.starts[r] + at);
      }
    });
  }
  /// Per-row filter (awkward's `array[mask]` with a jagged boolean mask): row r keeps its
  /// elements (lists at depth 2, values at depth 1) where `mask[r]` is true, in order. At depth
  /// 2 or more a view, at depth 1 the kept values are gathered into a new array.
  /// @param mask a `n_rows() * var` jagged tensor of booleans, row r as long as row r
  /// @return the kept elements
  /// @throws ShapeError for a mask of another shape or a row of another length (naming the row
  ///         and both lengths)
  [[nodiscard]] ListArray filter_each(const JaggedTensor<bool>& mask) const {
    constexpr std::string_view op = "ListArray::filter_each";
    check_per_row(op, "a mask", mask.shape());
    const Level& top = levels_.front();
    for (index_t r = 0; r < top.n; ++r) {
      const auto have = static_cast<index_t>(mask.row(r).size());
      if (have != top.stops[r] - top.starts[r]) {
        detail::fail<ShapeError>(op, "row ", r, " of the mask has ", have, " entries but row ", r,
                                 " has ", top.stops[r] - top.starts[r]);
      }
    }
    return regroup(0, [&](index_t r, std::vector<index_t>& chosen) {
      const std::span<const bool> keep = mask.row(r);
      for (std::size_t k = 0; k < keep.size(); ++k) {
        if (keep[k]) {
          chosen.push_back(top.starts[r] + static_cast<index_t>(k));
        }
      }
    });
  }
  /// The rows [lo, hi), a view (the starts and stops are shared too).
  /// @param lo the first row
  /// @param hi the row after the last
  /// @return the rows
  /// @throws IndexError when [lo, hi) is not inside the rows
  [[nodiscard]] ListArray rows(index_t lo, index_t hi) const {
    if (lo < 0 || hi < lo || hi > n_rows()) {
      detail::fail<IndexError>("ListArray::rows", "rows [", lo, ", ", hi, ") are not inside the ",
                               n_rows(), " rows");
    }
    ListArray out = *this;
    Level& top = out.levels_.front();
    top.starts += lo;
    top.stops += lo;
    top.n = hi - lo;
    return out;
  }
  /// The rows chosen by @p index, in its order, repeats allowed, negative counting from the
  /// end (awkward's `array[[2, 0, -1]]`): a view, new starts and stops over the same values and
  /// lists.
  /// @param index the rows to take
  /// @return the rows
  /// @throws IndexError naming the first entry outside the rows (nothing is made)
  [[nodiscard]] ListArray take_rows(std::span<const index_t> index) const {
    const Level& top = levels_.front();
    const auto n = static_cast<index_t>(index.size());
    auto both = std::make_shared<std::vector<index_t>>(static_cast<std::size_t>(2 * n));
    index_t* const s = both->data();
    for (index_t k = 0; k < n; ++k) {
      const index_t i = index[static_cast<std::size_t>(k)];
      const index_t r = i < 0 ? i + top.n : i;
      if (r < 0 || r >= top.n) {
        detail::fail<IndexError>("ListArray::take_rows", "index ", i, " (entry ", k,
                                 ") is outside the ", top.n, " rows");
      }
      s[k] = top.starts[r];
      s[n + k] = top.stops[r];
    }
    ListArray out = *this;
    out.levels_.front() = owned(std::move(both), n);
    return out;
  }
  /// take_rows() of a braced list: `lists.take_rows({2, 0})`.
  /// @param index the rows to take
  /// @return the rows
  /// @throws IndexError naming the first entry outside the rows
  [[nodiscard]] ListArray take_rows(std::initializer_list<index_t> index) const {
    return take_rows(std::span<const index_t>(index.begin(), index.size()));
  }

  /// Every value the rows reach, rows one after another (awkward's `ak.flatten(array,
  /// axis=None)`): a view of values() when the lists lie one after another in it (always for
  /// the lists of a JaggedTensor, of rows() and of slices at the first axis), else the values
  /// gathered into a new array.
  /// @return the values, 1-D
  [[nodiscard]] Tensor<T> flatten() const {
    index_t first = -1;
    index_t next = -1;
    bool run = true;
    for_each_run([&](index_t start, index_t stop) {
      if (start == stop) {
        return;
      }
      if (first < 0) {
        first = start;
      } else if (start != next) {
        run = false;
      }
      next = stop;
    });
    if (run) {  // a view (a handle's select is writable as the handle is)
      Tensor<T> view = values_;
      return first < 0 ? view.select({Range{0, 0}}) : view.select({Range{first, next}});
    }
    Tensor<std::remove_const_t<T>> gathered(Index{size()});
    std::remove_const_t<T>* o = gathered.data();
    for_each_run(
        [&o, this](index_t start, index_t stop) { o = std::copy(base_ + start, base_ + stop, o); });
    return Tensor<T>(std::move(gathered));
  }
  /// Removes one ragged level (awkward's `ak.flatten(array, axis)`): list axis @p axis merges
  /// into the axis before it. Axis 1 makes every list of every row a row (`n * var * var`
  /// becomes `lists * var`), axis 2 joins the lists of each row (`n * var`), and so on at any
  /// depth. A view: the starts and stops of the merged level are rewritten, the values shared;
  /// only when the innermost lists joined (the last axis) do not lie one after another in the
  /// values are those values gathered into a new array (never for lists read from a JaggedTensor
  /// or cut by slice_each at an outer level).
  /// @param axis the list axis, 1 to depth() or -depth() to -1
  /// @return the lists, one level less deep
  /// @throws IndexError for an axis outside the list axes; ShapeError at depth 1 (no level is
  ///         left: flatten() gives the values)
  [[nodiscard]] ListArray flatten(index_t axis) const {
    constexpr std::string_view op = "ListArray::flatten";
    const std::size_t l = level_of(op, axis);
    if (depth() == 1) {
      detail::fail<ShapeError>(op, "axis ", axis, " of ", type_string(),
                               " would leave no lists (flatten() gives the values)");
    }
    if (l == 0) {  // the lists of every row become the rows
      const Level& top = levels_.front();
      std::vector<index_t> chosen;
      chosen.reserve(static_cast<std::size_t>(levels_[1].n));
      for (index_t r = 0; r < top.n; ++r) {
        for (index_t c = top.starts[r]; c < top.stops[r]; ++c) {
          chosen.push_back(c);
        }
      }
      return content().take_rows(chosen);
    }
    // Entries of level l - 1 range over their children's children, level l disappears.
    const Level& parents = levels_[l - 1];
    const Level& children = levels_[l];
    ListArray merged = *this;
    merged.levels_.erase(merged.levels_.begin() + static_cast<std::ptrdiff_t>(l));
    return merged.regroup(
        l - 1,
        [&parents, &children](index_t e, std::vector<index_t>& chosen) {
          for (index_t c = parents.starts[e]; c < parents.stops[e]; ++c) {
            for (index_t g = children.starts[c]; g < children.stops[c]; ++g) {
              chosen.push_back(g);
            }
          }
        },
        true);
  }
  /// Groups consecutive rows into a new outer level (awkward's `ak.unflatten(array, counts,
  /// axis=0)`): row g of the result holds the next `counts[g]` rows. A view: one new level of
  /// starts and stops above the shared ones.
  /// @param counts non-negative integers adding up to n_rows()
  /// @return the lists, one level deeper
  /// @throws ShapeError for a negative count (naming it) or counts whose sum is not n_rows()
  [[nodiscard]] ListArray unflatten(std::span<const index_t> counts) const {
    constexpr std::string_view op = "ListArray::unflatten";
    const auto m = static_cast<index_t>(counts.size());
    auto both = std::make_shared<std::vector<index_t>>(static_cast<std::size_t>(2 * m));
    index_t next = 0;
    for (index_t g = 0; g < m; ++g) {
      const index_t c = counts[static_cast<std::size_t>(g)];
      if (c < 0) {
        detail::fail<ShapeError>(op, "count ", c, " (entry ", g, ") is negative");
      }
      (*both)[static_cast<std::size_t>(g)] = next;
      next += c;
      (*both)[static_cast<std::size_t>(m + g)] = next;
    }
    if (next != n_rows()) {
      detail::fail<ShapeError>(op, "the counts add up to ", next, " but ", type_string(), " has ",
                               n_rows(), " rows");
    }
    ListArray out = *this;
    out.levels_.insert(out.levels_.begin(), owned(std::move(both), m));
    return out;
  }
  /// unflatten() of a braced list: `lists.unflatten({2, 0, 1})`.
  /// @param counts non-negative integers adding up to n_rows()
  /// @return the lists, one level deeper
  /// @throws ShapeError as the span overload
  [[nodiscard]] ListArray unflatten(std::initializer_list<index_t> counts) const {
    return unflatten(std::span<const index_t>(counts.begin(), counts.size()));
  }
  /// Splits every list at list axis @p axis into consecutive sub-lists (awkward's
  /// `ak.unflatten(array, counts, axis)`): the lists at that axis, in the order the rows reach
  /// them (the rows of `flatten(1)` ... `flatten(axis - 1)`: for axis 1 the rows themselves),
  /// each take one row of @p counts, the lengths of their sub-lists, which add up to the list's
  /// length. A view: the levels above the split are rewritten in order, a new level of
  /// sub-lists is inserted, the levels below and the values are shared.
  /// @param counts a jagged tensor with one row of non-negative integers per list at that axis
  /// @param axis the list axis, 1 to depth() or -depth() to -1
  /// @return the lists, one level deeper
  /// @throws IndexError for an axis outside the list axes; ShapeError for counts of another
  ///         shape (naming both), a negative count or a row of counts whose sum is not its list's
  ///         length (naming the list, the sum and the length)
  template <std::integral I>
  [[nodiscard]] ListArray unflatten(const JaggedTensor<I>& counts, index_t axis) const {
    constexpr std::string_view op = "ListArray::unflatten";
    return split(op, counts, level_of(op, axis), axis);
  }

  /// The rows packed one after another into a new JaggedTensor (values + offsets, awkward's
  /// ListOffsetArray; `ak.to_packed`): `n * var` at depth 1, rows of lists at depth 2 (a row
  /// whose lists have one length is stored rectangular, as JaggedTensor stores nested vectors).
  /// @return the jagged tensor
  [[nodiscard]] JaggedTensor<std::remove_const_t<T>> to_jagged() const {
    using U = std::remove_const_t<T>;
    auto out = JaggedTensor<U>::for_overwrite(packed_shape());
    U* o = out.data();
    for_each_run(
        [&o, this](index_t start, index_t stop) { o = std::copy(base_ + start, base_ + stop, o); });
    return out;
  }
  /// The shape of to_jagged()'s result: `n * var` from the row lengths at depth 1, the lists'
  /// two-level offsets at depth 2 (a table of extents when every row's lists have one length),
  /// deeper a row shape per row as nested vectors give them (a row whose lists have one length
  /// stored rectangular). A JaggedTensor whose values are these lists' values in order (the lists
  /// of a stored JaggedTensor flattened or unflattened) takes it with `reshape`, sharing them.
  /// @return the shape
  [[nodiscard]] Jagged packed_shape() const {
    const Level& top = levels_.front();
    if (levels_.size() == 1) {
      std::vector<index_t> lengths(static_cast<std::size_t>(top.n));
      for (index_t r = 0; r < top.n; ++r) {
        lengths[static_cast<std::size_t>(r)] = top.stops[r] - top.starts[r];
      }
      return Jagged::from_lengths(lengths);
    }
    if (top.n == 0) {  // no rows to carry the depth: smooth rows of its rank
      return Jagged::from_extents(Index{0}, static_cast<int>(levels_.size()), Index{});
    }
    if (levels_.size() == 2) {  // rows of lists: their two-level offsets, no shape per row
      const Level& lists = levels_[1];
      Index counts(static_cast<std::size_t>(top.n), 0);
      Index lengths;
      for (index_t r = 0; r < top.n; ++r) {
        counts[static_cast<std::size_t>(r)] = top.stops[r] - top.starts[r];
        for (index_t l = top.starts[r]; l < top.stops[r]; ++l) {
          lengths.push_back(lists.stops[l] - lists.starts[l]);
        }
      }
      return detail::rows_of_lists(counts, lengths);
    }
    std::vector<Shape> shapes;
    shapes.reserve(static_cast<std::size_t>(top.n));
    for (index_t r = 0; r < top.n; ++r) {
      shapes.push_back(entry_shape(0, r));
    }
    return Jagged(Index{top.n}, std::move(shapes));
  }
  /// The type line awkward prints, `3 * var * float64` (`3 * var * var * float64` at depth 2).
  /// @return the text
  [[nodiscard]] std::string type_string() const {
    std::string out = std::to_string(n_rows());
    for (std::size_t l = 0; l < levels_.size(); ++l) {
      out += " * var";
    }
    return out + " * " + std::string(detail::dtype_name<T>());
  }

 private:
  using Level = detail::ListLevel;
  friend struct detail::ListArrayAccess;
  // chip_each() at level l: element i of each of its entries, that level removed; an entry
  // without it is named by name(e) in the IndexError.
  template <class Name>
  [[nodiscard]] ListArray chip(std::string_view op, index_t i, std::size_t l, Name&& name) const {
    const Level& v = levels_[l];
    return regroup(l,
                   [&](index_t e, std::vector<index_t>& chosen) {
                     const index_t length = v.stops[e] - v.starts[e];
                     const index_t k = i < 0 ? i + length : i;
                     if (k < 0 || k >= length) {
                       detail::fail<IndexError>(op, "index ", i, " is outside ", name(e),
                                                " of length ", length);
                     }
                     chosen.push_back(v.starts[e] + k);
                   })
        .flatten(static_cast<index_t>(l) + 1);
  }
  // unflatten(counts, axis) at level l, its errors naming @p op.
  template <std::integral I>
  [[nodiscard]] ListArray split(std::string_view op, const JaggedTensor<I>& counts, std::size_t l,
                                index_t axis) const {
    // The levels above l as offsets in reaching order, and the entries of level l reached.
    std::vector<Level> levels;
    std::vector<index_t> reached(static_cast<std::size_t>(levels_.front().n));
    std::iota(reached.begin(), reached.end(), index_t{0});
    for (std::size_t k = 0; k < l; ++k) {
      const Level& v = levels_[k];
      const auto n = static_cast<index_t>(reached.size());
      auto both = std::make_shared<std::vector<index_t>>(static_cast<std::size_t>(2 * n));
      std::vector<index_t> next;
      for (index_t i = 0; i < n; ++i) {
        const index_t e = reached[static_cast<std::size_t>(i)];
        (*both)[static_cast<std::size_t>(i)] = static_cast<index_t>(next.size());
        for (index_t c = v.starts[e]; c < v.stops[e]; ++c) {
          next.push_back(c);
        }
        (*both)[static_cast<std::size_t>(n + i)] = static_cast<index_t>(next.size());
      }
      levels.push_back(owned(std::move(both), n));
      reached = std::move(next);
    }
    const auto n = static_cast<index_t>(reached.size());
    const Jagged& shape = counts.shape();
    if (shape.outer_rank() != 1 || shape.inner_rank() != 1 || !shape.smooth_rows() ||
        shape.n_rows() != n) {
      detail::fail<ShapeError>(op, "counts of shape ", shape.to_string(), " for axis ", axis,
                               " of ", type_string(), " (one row of counts per list at axis ", axis,
                               ": ", n, " * var)");
    }
    const Level& v = levels_[l];
    auto split = std::make_shared<std::vector<index_t>>(static_cast<std::size_t>(2 * n));
    std::vector<index_t> piece_starts;
    std::vector<index_t> piece_stops;
    for (index_t i = 0; i < n; ++i) {
      const index_t e = reached[static_cast<std::size_t>(i)];
      (*split)[static_cast<std::size_t>(i)] = static_cast<index_t>(piece_starts.size());
      index_t at = v.starts[e];
      for (const I c : counts.row(i)) {
        const auto k = static_cast<index_t>(c);
        if (k < 0) {
          detail::fail<ShapeError>(op, "count ", k, " for list ", i, " is negative");
        }
        piece_starts.push_back(at);
        at += k;
        piece_stops.push_back(at);
      }
      if (at != v.stops[e]) {
        detail::fail<ShapeError>(op, "the counts for list ", i, " add up to ", at - v.starts[e],
                                 " but the list has ", v.stops[e] - v.starts[e], " entries");
      }
      (*split)[static_cast<std::size_t>(n + i)] = static_cast<index_t>(piece_starts.size());
    }
    const auto pieces = static_cast<index_t>(piece_starts.size());
    levels.push_back(owned(std::move(split), n));
    levels.push_back(owned(joined(std::move(piece_starts), piece_stops), pieces));
    levels.insert(levels.end(), levels_.begin() + static_cast<std::ptrdiff_t>(l + 1),
                  levels_.end());
    return ListArray(values_, std::move(levels));
  }
  static Level owned(std::shared_ptr<std::vector<index_t>> both, index_t n) {
    const index_t* data = both->data();
    return {std::move(both), data, data + n, n};
  }
  static std::shared_ptr<std::vector<index_t>> joined(std::vector<index_t> starts,
                                                      const std::vector<index_t>& stops) {
    auto both = std::make_shared<std::vector<index_t>>(std::move(starts));
    both->insert(both->end(), stops.begin(), stops.end());
    return both;
  }
  // The number of lists, after checking each is inside the @p size entries below.
  static index_t checked_level(const std::vector<index_t>& starts,
                               const std::vector<index_t>& stops, index_t size,
                               std::string_view below) {
    if (starts.size() != stops.size()) {
      detail::fail<ShapeError>("ListArray::from_arrays", starts.size(), " starts but ",
                               stops.size(), " stops (one of each per list)");
    }
    for (std::size_t r = 0; r < starts.size(); ++r) {
      if (starts[r] < 0 || stops[r] < starts[r] || stops[r] > size) {
        detail::fail<IndexError>("ListArray::from_arrays", "list ", r, " is ", below, "[",
                                 starts[r], ":", stops[r], "], not inside the ", size, " ", below,
                                 " (0 <= start <= stop <= size)");
      }
    }
    return static_cast<index_t>(starts.size());
  }
  // A JaggedTensor's levels over its values: its offsets (n * var), or its lists' two-level
  // offsets (rows of rank 2), shared with its shape.
  static std::pair<Tensor<T>, std::vector<Level>> levels_of(JaggedTensor<T>& t) {
    const Jagged& shape = t.shape();
    if (shape.outer_rank() == 1 && shape.inner_rank() == 1 && shape.smooth_rows()) {
      auto owner = std::make_shared<const Jagged>(shape);
      const index_t* offsets = owner->row_starts().data();
      const index_t n = owner->n_rows();
      return {t.values(), {Level{std::move(owner), offsets, offsets + 1, n}}};
    }
    if (shape.outer_rank() == 1 && shape.inner_rank() >= 3) {
      return {t.values(), walked_levels(shape)};
    }
    const detail::JaggedRows& rows = shape.rows();
    if (rows.data().list_rows() && shape.outer_rank() == 1 && rows.row0() == 0) {
      // Rows of lists from the shape's first row: its own two offset arrays, shared.
      const std::shared_ptr<const detail::JaggedData>& data = rows.shared();
      const index_t* first = data->first.data();
      const index_t* lists = data->list_ends.data();
      const index_t n = shape.n_rows();
      return {t.values(),
              {Level{data, first, first + 1, n}, Level{data, lists, lists + 1, first[n]}}};
    }
    const std::shared_ptr<const detail::ListIndex> index = t.list_index();
    if (!index) {
      detail::fail<ShapeError>("ListArray",
                               "takes the lists of a tensor with one outer axis (n * var * ...), "
                               "not ",
                               shape.to_string());
    }
    const index_t* first = index->first.data();
    const index_t* lists = index->lists.row_starts().data();
    const auto n = static_cast<index_t>(index->counts.size());
    const index_t n_lists = index->lists.n_rows();
    return {t.values(),
            {Level{index, first, first + 1, n}, Level{index, lists, lists + 1, n_lists}}};
  }
  // The levels of rows of rank 3 or more, one offsets array per level (detail::level_offsets).
  static std::vector<Level> walked_levels(const Jagged& shape) {
    std::vector<Level> levels;
    for (auto& level : detail::level_offsets(shape, "ListArray")) {
      auto owner = std::make_shared<const std::vector<index_t>>(std::move(level));
      const index_t* data = owner->data();
      const auto n = static_cast<index_t>(owner->size()) - 1;
      levels.push_back(Level{std::move(owner), data, data + 1, n});
    }
    return levels;
  }
  explicit ListArray(std::pair<Tensor<T>, std::vector<Level>> parts)
      : ListArray(std::move(parts.first), std::move(parts.second)) {}
  ListArray(Tensor<T> values, std::vector<Level> levels)
      : values_(std::move(values)), base_(values_.data()), levels_(std::move(levels)) {}

  // The level holding the lists of list axis @p axis (1 .. depth, or negative from the end).
  [[nodiscard]] std::size_t level_of(std::string_view op, index_t axis) const {
    const index_t d = depth();
    const index_t a = axis < 0 ? axis + d + 1 : axis;
    if (a < 1 || a > d) {
      detail::fail<IndexError>(op, "axis ", axis, " is not a list axis of a ListArray of depth ", d,
                               " (1 to ", d, ", or -", d, " to -1; rows(), take_rows() choose ",
                               "rows)");
    }
    return static_cast<std::size_t>(a - 1);
  }
  void check_row(std::string_view op, index_t r) const {
    if (r < 0 || r >= n_rows()) {
      detail::fail<IndexError>(op, "row ", r, " is outside the ", n_rows(), " rows");
    }
  }
  // An index or mask must be n_rows() * var.
  void check_per_row(std::string_view op, std::string_view what, const Jagged& shape) const {
    if (shape.outer_rank() != 1 || shape.inner_rank() != 1 || !shape.smooth_rows() ||
        shape.n_rows() != n_rows()) {
      detail::fail<ShapeError>(op, what, " of shape ", shape.to_string(), " for ", type_string(),
                               " (one row of 1-D positions per row: ", n_rows(), " * var)");
    }
  }
  // Calls f(start, stop) for every run of values the rows reach, in row order.
  template <class F>
  void for_each_run(F&& f) const {
    const Level& top = levels_.front();
    for (index_t r = 0; r < top.n; ++r) {
      runs(0, r, f);
    }
  }
  template <class F>
  void runs(std::size_t l, index_t e, F& f) const {
    const Level& v = levels_[l];
    if (l + 1 == levels_.size()) {
      f(v.starts[e], v.stops[e]);
      return;
    }
    for (index_t c = v.starts[e]; c < v.stops[e]; ++c) {
      runs(l + 1, c, f);
    }
  }
  // The shape of entry e of level l, as nested vectors give it (rectangular: Smooth).
  [[nodiscard]] Shape entry_shape(std::size_t l, index_t e) const {
    const Level& v = levels_[l];
    const index_t length = v.stops[e] - v.starts[e];
    if (l + 1 == levels_.size()) {
      return Shape(Smooth{length});
    }
    std::vector<Shape> shapes;
    bool rectangular = true;
    for (index_t c = v.starts[e]; c < v.stops[e]; ++c) {
      shapes.push_back(entry_shape(l + 1, c));
      rectangular =
          rectangular && shapes.back().template is<Smooth>() && shapes.back() == shapes.front();
    }
    if (shapes.empty()) {
      return Shape(Smooth(Index(levels_.size() - l, 0)));
    }
    if (!rectangular) {
      return Shape(Jagged(std::move(shapes)));
    }
    Index extents{length};
    const IndexSpan inner = shapes.front().template as<Smooth>().extents();
    extents.insert(extents.end(), inner.begin(), inner.end());
    return Shape(Smooth(extents));
  }
  // Every entry e of level l gets the entries pick(e, chosen) appends (positions in level
  // l + 1, or in the values at the last level): level l becomes runs over a new level l + 1
  // holding the chosen entries' starts and stops (a view), or over new values gathered from the
  // chosen positions (at the last level). Nothing of this ListArray changes.
  // With @p share_runs, when every entry's chosen positions are consecutive the entries
  // become those runs of the level below (or of the values), shared as they are.
  template <class Pick>
  [[nodiscard]] ListArray regroup(std::size_t l, Pick&& pick, bool share_runs = false) const {
    const Level& v = levels_[l];
    auto both = std::make_shared<std::vector<index_t>>(static_cast<std::size_t>(2 * v.n));
    std::vector<index_t> chosen;
    chosen.reserve(static_cast<std::size_t>(l + 1 < levels_.size() ? levels_[l + 1].n : v.n));
    for (index_t e = 0; e < v.n; ++e) {
      const auto first = static_cast<index_t>(chosen.size());
      (*both)[static_cast<std::size_t>(e)] = first;
      pick(e, chosen);
      (*both)[static_cast<std::size_t>(v.n + e)] = static_cast<index_t>(chosen.size());
      for (auto k = static_cast<std::size_t>(first); share_runs && k + 1 < chosen.size(); ++k) {
        share_runs = chosen[k + 1] == chosen[k] + 1;
      }
    }
    ListArray out = *this;
    if (share_runs) {
      for (index_t e = 0; e < v.n; ++e) {
        auto& start = (*both)[static_cast<std::size_t>(e)];
        auto& stop = (*both)[static_cast<std::size_t>(v.n + e)];
        const index_t count = stop - start;
        start = count == 0 ? 0 : chosen[static_cast<std::size_t>(start)];
        stop = start + count;
      }
      out.levels_[l] = owned(std::move(both), v.n);
      return out;
    }
    out.levels_[l] = owned(std::move(both), v.n);
    const auto m = static_cast<index_t>(chosen.size());
    if (l + 1 < levels_.size()) {
      const Level& w = levels_[l + 1];
      auto child = std::make_shared<std::vector<index_t>>(static_cast<std::size_t>(2 * m));
      for (index_t k = 0; k < m; ++k) {
        const index_t c = chosen[static_cast<std::size_t>(k)];
        (*child)[static_cast<std::size_t>(k)] = w.starts[c];
        (*child)[static_cast<std::size_t>(m + k)] = w.stops[c];
      }
      out.levels_[l + 1] = owned(std::move(child), m);
    } else {
      Tensor<std::remove_const_t<T>> gathered(Index{m});
      for (index_t k = 0; k < m; ++k) {
        gathered.data()[k] = base_[chosen[static_cast<std::size_t>(k)]];
      }
      out.values_.rebind(Tensor<T>(std::move(gathered)));
      out.base_ = out.values_.data();
    }
    return out;
  }

  Tensor<T> values_;           // contiguous, 1-D
  T* base_ = nullptr;          // values_.data() (null when there are none)
  std::vector<Level> levels_;  // the rows first, the lists of values last; never empty
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
