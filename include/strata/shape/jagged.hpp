/// @file
/// strata::Jagged and strata::JaggedView: shapes whose slices along the outer modes have
/// different shapes (ragged rows), and row ranges of them that keep their origin.
#pragma once

#include "strata/core/index.hpp"
#include "strata/shape/shape.hpp"
#include "strata/shape/shape_api.hpp"
#include "strata/shape/smooth.hpp"

#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

namespace detail {

struct PieceIndex;
struct ListIndex;

/// The immutable description of a jagged shape, shared by the shape and its views. Rows are
/// kept in one of three forms: a table of extents when every row is smooth; rows of lists (each
/// row a `var * var` of 1-D lists, awkward's two-level offsets: no Shape per row); one Shape per
/// row otherwise.
struct JaggedData {
  Index outer;                     ///< the outer extents (the grid of rows)
  int inner_rank = 1;              ///< the rank s of every row's shape
  std::vector<index_t> extents;    ///< rows x s extents, when every row is smooth
  std::vector<index_t> first;      ///< rows of lists: rows + 1, each row's first list, then all
  std::vector<index_t> list_ends;  ///< rows of lists: lists + 1 offsets of the lists' values
  std::vector<index_t> starts{0};  ///< rows + 1 prefix sums of the row sizes
  std::vector<Shape> inner;        ///< one shape per row otherwise (some row jagged)
  /// The smooth pieces of all the rows when some row is jagged, made on first use (piece_index)
  /// and shared by every tensor over all of them: a result of the same shape indexes nothing.
  mutable std::shared_ptr<const PieceIndex> pieces;
  mutable std::mutex pieces_mutex;  ///< guards the first making of pieces
  /// Rows of lists: the two-level offsets as list_index() gives them, made on first use and
  /// shared like the pieces.
  mutable std::shared_ptr<const ListIndex> lists;
  mutable std::mutex lists_mutex;  ///< guards the first making of lists

  [[nodiscard]] index_t rows() const noexcept { return static_cast<index_t>(starts.size()) - 1; }
  [[nodiscard]] bool smooth_rows() const noexcept { return first.empty() && inner.empty(); }
  [[nodiscard]] bool list_rows() const noexcept { return !first.empty(); }
  [[nodiscard]] std::span<const index_t> row_extents(index_t r) const noexcept {
    return {extents.data() + r * inner_rank, static_cast<std::size_t>(inner_rank)};
  }
  /// The length of list @p l of rows of lists.
  [[nodiscard]] index_t list_length(index_t l) const noexcept {
    return list_ends[static_cast<std::size_t>(l) + 1] - list_ends[static_cast<std::size_t>(l)];
  }
};

/// Row-range logic shared by Jagged and JaggedView: rows [row0, row1) of a JaggedData whose
/// outer grid (as seen by the view) is `outer`.
class JaggedRows {
 public:
  JaggedRows();  // no rows, inner rank 1
  JaggedRows(std::shared_ptr<const JaggedData> data, index_t row0, index_t row1, Index outer);

  [[nodiscard]] const JaggedData& data() const noexcept { return *data_; }
  [[nodiscard]] const std::shared_ptr<const JaggedData>& shared() const noexcept { return data_; }
  [[nodiscard]] index_t row0() const noexcept { return row0_; }
  [[nodiscard]] index_t row1() const noexcept { return row1_; }
  [[nodiscard]] const Index& outer() const noexcept { return outer_; }
  [[nodiscard]] int outer_rank() const noexcept { return static_cast<int>(outer_.size()); }
  [[nodiscard]] int rank() const noexcept { return outer_rank() + data_->inner_rank; }
  [[nodiscard]] index_t size() const noexcept {
    return data_->starts[static_cast<std::size_t>(row1_)] -
           data_->starts[static_cast<std::size_t>(row0_)];
  }
  [[nodiscard]] Shape row(index_t r) const;  // r counts from row0
  // what() names the shape in an error (called only when there is one).
  [[nodiscard]] index_t uniform_extent(int mode, const std::function<std::string()>& what) const;
  void unravel(index_t position, std::span<index_t> offset) const;
  bool advance(std::span<index_t> offset) const;
  [[nodiscard]] index_t run_length(std::span<const index_t> offset) const;
  [[nodiscard]] index_t ravel(std::span<const index_t> offset) const;
  [[nodiscard]] bool contains_offset(std::span<const index_t> offset) const;
  void print(std::ostream& out) const;
  [[nodiscard]] bool same_as(const JaggedRows& other) const;
  /// The rows of a box of the outer grid (offsets), as new rows (shared when contiguous).
  [[nodiscard]] JaggedRows box(std::span<const index_t> lo, std::span<const index_t> hi) const;
  /// The same rows with a description of their own when they are not all of the shared one.
  [[nodiscard]] JaggedRows compact() const;
  /// Drops outer mode @p mode at offset @p i.
  [[nodiscard]] JaggedRows chip_outer(int mode, index_t i) const;
  /// Chips inner mode @p mode (of the rows) at @p i in every row; null when rows become scalars.
  [[nodiscard]] JaggedRows chip_inner(int mode, index_t i,
                                      const std::function<std::string()>& what) const;

 private:
  [[nodiscard]] index_t row_of(std::span<const index_t> offset) const;
  void first_of_row(index_t r, std::span<index_t> inner) const;
  bool advance_in_lists(index_t r, std::span<index_t> inner) const;

  std::shared_ptr<const JaggedData> data_;
  index_t row0_ = 0;
  index_t row1_ = 0;
  Index outer_;
};

/// The ragged levels of a shape with one outer mode, as awkward's ListOffsetArrays: level 0
/// holds n_rows() + 1 offsets of each row's entries along its first mode into level 1, level k
/// of each entry's entries along mode k + 1, the last level offsets into the values (row-major
/// order). A smooth row of extents `[a, b, c]` has a entries of b entries of c values, a jagged
/// row its rows. O(entries), one vector per level.
/// @param shape a jagged shape with one outer mode and rows of one outer mode each
/// @param operation the operation named in an error
/// @return inner_rank() offset arrays
/// @throws ShapeError for several outer modes, of the shape or inside a row
std::vector<std::vector<index_t>> level_offsets(const Jagged& shape, std::string_view operation);

}  // namespace detail

/// The API a jagged shape and a view of one share (a CRTP mixin next to ShapeAPI): the row
/// structure and the primitives, written once over the rows the derived type holds.
/// @tparam Derived Jagged or JaggedView; it provides `rows()` and `to_string()`
template <class Derived>
class JaggedAPI {
 public:
  /// @copydoc strata::Smooth::rank
  [[nodiscard]] int rank() const noexcept { return rows().rank(); }
  /// @copydoc strata::Smooth::size
  [[nodiscard]] index_t size() const noexcept { return rows().size(); }
  /// The number of outer modes.
  /// @return the outer rank
  [[nodiscard]] int outer_rank() const noexcept { return rows().outer_rank(); }
  /// The rank of every row.
  /// @return the inner rank
  [[nodiscard]] int inner_rank() const noexcept { return rows().data().inner_rank; }
  /// The outer extents (the grid of rows).
  /// @return one extent per outer mode
  [[nodiscard]] IndexSpan outer_extents() const noexcept { return rows().outer(); }
  /// The number of rows (product of the outer extents).
  /// @return the count
  [[nodiscard]] index_t n_rows() const noexcept { return rows().row1() - rows().row0(); }
  /// Whether every row is smooth (not jagged itself).
  /// @return true for smooth rows
  [[nodiscard]] bool smooth_rows() const noexcept { return rows().data().smooth_rows(); }
  /// The shape of a row, by its row-major number in the outer grid.
  /// @param r in [0, n_rows())
  /// @return the row's shape (Smooth or Jagged)
  /// @throws IndexError for a row that does not exist
  [[nodiscard]] Shape row(index_t r) const {
    if (r < 0 || r >= n_rows()) {
      detail::fail<IndexError>("row", "row ", r, " is outside [0, ", n_rows(), ") of ",
                               self().to_string());
    }
    return rows().row(r);
  }

  /// @copydoc strata::Smooth::uniform_extent
  [[nodiscard]] index_t uniform_extent(int mode) const {
    return rows().uniform_extent(mode, [this] { return self().to_string(); });
  }
  /// @copydoc strata::Smooth::unravel
  void unravel(index_t position, std::span<index_t> offset) const {
    rows().unravel(position, offset);
  }
  /// @copydoc strata::Smooth::advance
  bool advance(std::span<index_t> offset) const {
    // The common step, inline: inside a smooth row of a matrix-like jagged shape.
    const detail::JaggedData& data = rows().data();
    if (offset.size() == 2 && data.smooth_rows() && data.inner_rank == 1) {
      const auto r = static_cast<std::size_t>(rows().row0() + offset[0]);
      if (offset[1] + 1 < data.extents[r]) {
        ++offset[1];
        return true;
      }
    }
    return rows().advance(offset);
  }
  /// @copydoc strata::Smooth::run_length
  [[nodiscard]] index_t run_length(std::span<const index_t> offset) const {
    return rows().run_length(offset);
  }
  /// @copydoc strata::Smooth::ravel
  [[nodiscard]] index_t ravel(IndexSpan offset) const { return rows().ravel(offset); }
  /// @copydoc strata::Smooth::contains_offset
  [[nodiscard]] bool contains_offset(IndexSpan offset) const {
    return rows().contains_offset(offset);
  }

 private:
  [[nodiscard]] const Derived& self() const { return static_cast<const Derived&>(*this); }
  [[nodiscard]] const detail::JaggedRows& rows() const noexcept { return self().rows(); }
};

/// A shape whose slices along the outer modes have different shapes of one rank s.
///
/// `Jagged{Smooth{3}, Smooth{5}, Smooth{2}}` is a rank-2 jagged matrix of 10 elements: 3 rows
/// (the outer mode) of lengths 3, 5 and 2 (the inner, ragged mode). Rows may be smooth of any
/// rank >= 1 or jagged themselves (of one rank); the outer grid may have any rank (a 2x2 grid of
/// tiles with different shapes is `Jagged(Index{2, 2}, {...4 shapes...})`). Indices are the outer
/// index followed by the index inside the row; iteration walks the rows in row-major order.
///
/// A Jagged shares its description (copies are cheap) and is immutable. Random access into its
/// indices is O(log rows) (a binary search of the row starts).
///
/// @code
/// auto j = strata::Jagged::from_lengths({3, 0, 2});   // Jagged[3]{[3] [0] [2]}
/// j.size();                                           // 5
/// j.index_at(3);                                      // [2 0] (row 1 is empty)
/// j.row(2);                                           // Smooth[2]
/// j.slice({1}, {3});                                  // rows 1..2, origin [1 0]
/// @endcode
/// @image html shape_jagged.svg "Jagged::from_lengths({3, 0, 5, 2})"
/// Design page: @ref shapes_page.
class Jagged : public ShapeAPI<Jagged>, public JaggedAPI<Jagged> {
 public:
  /// No rows: outer extent 0, rows of rank 1, size 0.
  Jagged();
  /// One row per inner shape, along one outer mode.
  /// @param rows the row shapes, all of one rank >= 1
  /// @throws ShapeError for rows of different ranks, rank-0 rows or an overflowing size
  Jagged(std::initializer_list<Smooth> rows);
  /// One row per inner shape, along one outer mode.
  /// @param rows the row shapes (smooth or jagged, values or views), all of one rank >= 1
  /// @throws ShapeError for rows of different ranks, rank-0 rows or an overflowing size
  explicit Jagged(std::vector<Shape> rows);
  /// Rows on an outer grid of any rank, in row-major order of the grid.
  /// @param outer the outer extents; their product is the number of rows
  /// @param rows the row shapes, all of one rank >= 1
  /// @throws ShapeError for a negative outer extent, a row count that differs from the grid,
  ///         rows of different ranks or an overflowing size
  Jagged(IndexSpan outer, std::vector<Shape> rows);
  /// A jagged matrix from its row lengths: `from_lengths({3, 5, 2})`.
  /// @param lengths one length per row, each >= 0
  /// @return the shape (rank 2)
  /// @throws ShapeError for a negative length or an overflowing size
  static Jagged from_lengths(IndexSpan lengths);
  /// A jagged shape from a table of row extents (rows are smooth of rank @p inner_rank).
  /// @param outer the outer extents
  /// @param inner_rank the rank of every row, >= 1
  /// @param extents rows x inner_rank extents, row after row
  /// @return the shape
  /// @throws ShapeError for negative extents, a table of the wrong length or an overflow
  static Jagged from_extents(IndexSpan outer, int inner_rank, IndexSpan extents);
  /// Rows of lists (awkward's `n * var * var`) from each row's number of lists and each list's
  /// length, in storage order: `from_lists({2, 0, 1}, {3, 0, 2})` is rows `[[3], [0]]`, `[]`
  /// and `[[2]]` (as lengths). The shape keeps the two offset arrays, not a shape per row: O(rows
  /// + lists), the form nested vectors, unflatten and the expressions over lists make.
  /// @param counts one number of lists per row, each >= 0
  /// @param lengths one length per list, each >= 0; as many as the counts add up to
  /// @return the shape (rank 3: the outer mode, then each row's lists and their elements)
  /// @throws ShapeError for a negative count or length, lengths that do not match the counts
  ///         (naming both) or an overflowing size
  static Jagged from_lists(IndexSpan counts, IndexSpan lengths);
  /// Rows of lists on an outer grid of any rank (see from_lists(IndexSpan, IndexSpan)).
  /// @param outer the outer extents; their product is the number of counts
  /// @param counts one number of lists per row, in row-major order of the grid
  /// @param lengths one length per list
  /// @return the shape (rank outer.size() + 2)
  /// @throws ShapeError as from_lists(IndexSpan, IndexSpan), and for a count of counts that
  ///         differs from the grid
  static Jagged from_lists(IndexSpan outer, IndexSpan counts, IndexSpan lengths);
  /// A jagged matrix (awkward's `n * var`) from the offsets of its rows, as a ListOffsetArray
  /// keeps them: row r holds positions `offsets[r]` to `offsets[r + 1] - 1` of the values.
  /// @param offsets rows + 1 offsets, from 0, never decreasing
  /// @return the shape (rank 2)
  /// @throws ShapeError for no offsets, a first offset other than 0 or an offset below the one
  ///         before it (naming its place)
  static Jagged from_offsets(IndexSpan offsets);
  /// Rows of lists (awkward's `n * var * var`) from the two offset arrays of a ListOffsetArray of
  /// a ListOffsetArray: row r holds lists `row_offsets[r]` to `row_offsets[r + 1] - 1`, list l
  /// the values `list_offsets[l]` to `list_offsets[l + 1] - 1`. The arrays become the shape's
  /// own (moved, not copied): O(rows + lists) to check, nothing computed per list, the cheapest
  /// way to make rows of lists from offsets already at hand.
  /// @code
  /// Jagged::from_offsets({0, 2, 2, 3}, {0, 3, 3, 5});  // [[3], [0]], [], [[2]] (as lengths)
  /// @endcode
  /// @param row_offsets rows + 1 offsets into the lists, from 0, never decreasing
  /// @param list_offsets lists + 1 offsets into the values, from 0, never decreasing
  /// @return the shape (rank 3)
  /// @throws ShapeError for an empty array, a first offset other than 0, an offset below the one
  ///         before it (naming the array and the place), or row offsets that end at another
  ///         number of lists than the list offsets hold
  static Jagged from_offsets(std::vector<index_t> row_offsets, std::vector<index_t> list_offsets);

  /// The origin: %all zeros.
  /// @return the origin
  [[nodiscard]] Index origin() const { return Index(static_cast<std::size_t>(rank()), 0); }
  /// Row starts: the position of each row's first element, plus the size (n_rows() + 1 values,
  /// the prefix sums of the row sizes, as the offsets of a ragged array).
  /// @return the prefix sums
  [[nodiscard]] std::span<const index_t> row_starts() const noexcept;

  /// The rows in a box of the outer grid; the view keeps its indices.
  /// @param lo first outer index, one per outer mode
  /// @param hi one past the last
  /// @return the view (O(1) for outer rank 1; O(rows in the box) otherwise)
  /// @throws IndexError for bounds of the wrong length (slices cut rows only, not inside them),
  ///         lo > hi or a box outside the grid
  [[nodiscard]] JaggedView slice(IndexSpan lo, IndexSpan hi) const;
  /// The slice at index @p i of @p mode, one rank lower.
  ///
  /// Chipping the only outer mode gives that row's shape; chipping one of several outer modes
  /// gives the rows at that grid index; chipping an inner mode chips every row (each must have
  /// index @p i), and rows of rank 1 become scalars (the result is then smooth).
  /// @param mode the mode to drop
  /// @param i the absolute index along it
  /// @return the view, as a Shape
  /// @throws IndexError for a mode that does not exist or an index out of range (in any row)
  [[nodiscard]] Shape chip(int mode, index_t i) const;

  /// Primitive: prints `Jagged[3]{[3] [5] [2]}` (long row lists are elided).
  /// @param out the stream
  void print(std::ostream& out) const { rows_.print(out); }
  /// Primitive: equal outer extents and row shapes.
  /// @param other a shape
  /// @return whether they are equal
  [[nodiscard]] bool same_as(const Jagged& other) const { return rows_.same_as(other.rows_); }

  /// @cond STRATA_PRIVATE
  // The rows behind this shape (an implementation detail shared with views and layouts).
  [[nodiscard]] const detail::JaggedRows& rows() const noexcept { return rows_; }
  /// @endcond

 private:
  explicit Jagged(detail::JaggedRows rows) : rows_(std::move(rows)) {}
  friend class JaggedView;
  friend class Nested;
  detail::JaggedRows rows_;
};

/// Rows of a jagged shape, keeping the indices they had there (their origin).
class JaggedView : public ShapeAPI<JaggedView>, public JaggedAPI<JaggedView> {
 public:
  /// An empty view (no rows).
  JaggedView() = default;
  /// The whole of @p shape as a view (origin zeros).
  /// @param shape the shape
  explicit JaggedView(const Jagged& shape);
  /// A view of rows with an origin (what slice and chip build).
  /// @param rows the rows
  /// @param origin the first absolute index (one per mode; inner modes start at 0)
  JaggedView(detail::JaggedRows rows, Index origin)
      : rows_(std::move(rows)), origin_(std::move(origin)) {}

  /// The first absolute index (outer modes offset by the slice; inner modes start at 0).
  /// @return the origin
  [[nodiscard]] Index origin() const { return origin_; }
  /// The viewed rows as a Jagged of their own (origin dropped; O(1) when they share storage).
  /// @return the shape
  [[nodiscard]] Jagged shape() const { return Jagged(rows_.compact()); }

  /// @copydoc Jagged::slice
  [[nodiscard]] JaggedView slice(IndexSpan lo, IndexSpan hi) const;
  /// @copydoc Jagged::chip
  [[nodiscard]] Shape chip(int mode, index_t i) const;

  /// Primitive: prints `Jagged[2]{[0] [2]} at [1 0]`.
  /// @param out the stream
  void print(std::ostream& out) const;
  /// Primitive: equal rows and origin.
  /// @param other a view
  /// @return whether they are equal
  [[nodiscard]] bool same_as(const JaggedView& other) const {
    return origin_ == other.origin_ && rows_.same_as(other.rows_);
  }

  /// @cond STRATA_PRIVATE
  // The rows behind this shape (an implementation detail shared with views and layouts).
  [[nodiscard]] const detail::JaggedRows& rows() const noexcept { return rows_; }
  /// @endcond

 private:
  detail::JaggedRows rows_;
  Index origin_;
};

namespace detail {

/// The lists of a tensor whose rows are lists (one outer axis, rows of rank 2: awkward's
/// `n * var * var`), as awkward's two-level offsets: each row's number of lists, and the lists
/// as a `n_lists * var` shape over the values (its row starts are the lists' offsets).
struct ListIndex {
  std::vector<index_t> counts;  ///< the number of lists of each row
  std::vector<index_t> first;   ///< each row's first list, + the number of lists
  Jagged lists;                 ///< one row per list, in storage order
};

/// The smooth leaf pieces of a shape with jagged rows, in storage order, in flat arrays (one
/// allocation per array, not two small vectors per piece): piece p has `rank` modes, its
/// ragged indices (the outer index of its row, then the row's own outer index, ...) and then
/// its extents.
struct PieceIndex {
  int rank = 0;                 ///< modes per piece: the shape's rank
  std::vector<index_t> starts;  ///< pieces + 1: where each piece's values start, then the size
  std::vector<index_t> modes;   ///< pieces x rank: each piece's ragged indices, then extents
  std::vector<int> split;       ///< pieces: how many of a piece's modes are ragged indices
  std::shared_ptr<const ListIndex> lists;  ///< rows of lists: their two-level offsets

  /// The number of pieces.
  [[nodiscard]] index_t count() const noexcept { return static_cast<index_t>(split.size()); }
  /// The ragged indices that lead to piece @p p.
  [[nodiscard]] std::span<const index_t> prefix(index_t p) const noexcept {
    return {modes.data() + p * rank, static_cast<std::size_t>(split[static_cast<std::size_t>(p)])};
  }
  /// The extents of piece @p p.
  [[nodiscard]] std::span<const index_t> extents(index_t p) const noexcept {
    const auto k = static_cast<std::size_t>(split[static_cast<std::size_t>(p)]);
    return {modes.data() + p * rank + k, static_cast<std::size_t>(rank) - k};
  }
};

/// The smooth pieces of jagged rows (some row jagged): the index their data keeps when the
/// rows are all of it (made once, under its mutex), else made now for these rows. Piece
/// starts count from the first value of the rows.
/// @param rows rows of which some are jagged
/// @return the index (with the two-level offsets for rows of lists)
std::shared_ptr<const PieceIndex> piece_index(const JaggedRows& rows);

/// Whether two row shapes are the same rows: equal shapes, or a rectangle `[k, m]` and k lists
/// of length m (a row of rank 2 kept in either form, as a table of extents or as lists).
/// @param a a row shape
/// @param b a row shape
/// @return whether they hold the same indices in the same order
bool same_row(const Shape& a, const Shape& b);

/// Rows of lists from each row's number of lists and each list's length: a table of extents
/// when every row's lists have one length (rectangular rows, as nested vectors give them),
/// else the two offset arrays (Jagged::from_lists).
/// @param counts one number of lists per row
/// @param lengths one length per list
/// @return the shape (one outer mode, rows of rank 2)
/// @throws ShapeError as Jagged::from_lists
Jagged rows_of_lists(IndexSpan counts, IndexSpan lengths);

/// The two-level offsets of rows of lists (one outer mode, rows of rank 2, smooth or jagged):
/// O(lists), one pass over the rows' shapes.
/// @param rows the rows
/// @return the index
std::shared_ptr<const ListIndex> list_index(const JaggedRows& rows);

}  // namespace detail

}  // namespace strata
