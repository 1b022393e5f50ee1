/// @file
/// strata::ShapeAPI: the CRTP mixin that gives every shape and shape view one API, and the
/// ShapeLike concept that proves they all have it.
#pragma once

#include "strata/core/error.hpp"
#include "strata/core/index.hpp"
#include "strata/shape/index_range.hpp"

#include <concepts>
#include <ostream>
#include <ranges>
#include <span>
#include <sstream>
#include <string>

namespace strata {

/// The API shared by every shape and every shape view, written once.
///
/// A derived shape supplies the primitives (documented on Smooth): `rank()`, `size()`,
/// `origin()`, `uniform_extent(mode)`, `unravel(position, offset)`, `advance(offset)`,
/// `run_length(offset)`, `ravel(offset)`, `contains_offset(offset)`, `slice(lo, hi)`,
/// `chip(mode, i)`, `print(out)` and `same_as(other)`. The mixin builds on them the checked,
/// user-facing operations below, so a value and its view cannot grow different APIs.
///
/// Indices given to `contains`, `position` and returned by `index_at` / `indices()` are
/// *absolute*: they start at the origin (a slice keeps the indices of the shape it came from).
/// @tparam Derived the shape type
template <class Derived>
class ShapeAPI {
 public:
  /// The extent of a mode, where all of the shape agrees on it.
  /// @param mode in [0, rank())
  /// @return the extent
  /// @throws IndexError for a mode that does not exist; ShapeError for a ragged (jagged inner)
  ///         mode, whose extent depends on the row (ask the row, for example Jagged::row)
  [[nodiscard]] index_t extent(int mode) const {
    check_mode("extent", mode);
    return self().uniform_extent(mode);
  }

  /// The absolute indices, row-major, starting at the origin.
  /// @return a random-access range of Index
  [[nodiscard]] IndexRange<Derived> indices() const { return {self(), false}; }

  /// The indices relative to the origin, row-major, starting at all zeros.
  /// @return a random-access range of Index
  [[nodiscard]] IndexRange<Derived> offsets() const { return {self(), true}; }

  /// Whether an absolute index lies in the shape.
  /// @param index one index per mode
  /// @return true when it is inside
  [[nodiscard]] bool contains(IndexSpan index) const {
    if (static_cast<int>(index.size()) != self().rank()) {
      return false;
    }
    const Index offset = to_offset(index);
    return self().contains_offset(offset);
  }

  /// The row-major position of an absolute index (its place in indices()).
  /// @param index one index per mode, inside the shape
  /// @return the position in [0, size())
  /// @throws IndexError for a wrong number of indices or an index outside the shape
  [[nodiscard]] index_t position(IndexSpan index) const {
    check_inside("position", index);
    return self().ravel(to_offset(index));
  }

  /// The absolute index at a row-major position.
  /// @param position in [0, size())
  /// @return the index
  /// @throws IndexError for a position outside [0, size())
  [[nodiscard]] Index index_at(index_t position) const {
    if (position < 0 || position >= self().size()) {
      detail::fail<IndexError>("index_at", "position ", position, " is outside [0, ", self().size(),
                               ")");
    }
    Index index(static_cast<std::size_t>(self().rank()), 0);
    self().unravel(position, std::span<index_t>(index));
    const Index o = self().origin();
    for (std::size_t k = 0; k < index.size(); ++k) {
      index[k] += o[k];
    }
    return index;
  }

  /// Whether the shape has no elements.
  /// @return size() == 0
  [[nodiscard]] bool empty() const { return self().size() == 0; }

  /// The printed form, for example `Smooth[3 4]` or `Jagged[3]{[3] [5] [2]}`.
  /// @return the text
  [[nodiscard]] std::string to_string() const {
    std::ostringstream out;
    self().print(out);
    return out.str();
  }

  /// Prints the shape.
  /// @param out the stream
  /// @param shape the shape
  /// @return the stream
  friend std::ostream& operator<<(std::ostream& out, const Derived& shape) {
    shape.print(out);
    return out;
  }

  /// Equal kind, extents and origin.
  /// @param a a shape
  /// @param b a shape of the same type
  /// @return whether they are equal
  friend bool operator==(const Derived& a, const Derived& b) { return a.same_as(b); }

 protected:
  /// Throws IndexError unless @p mode names a mode.
  /// @param operation the operation, for the message
  /// @param mode the mode
  void check_mode(std::string_view operation, int mode) const {
    if (mode < 0 || mode >= self().rank()) {
      detail::fail<IndexError>(operation, "mode ", mode, " does not exist in ", to_string(),
                               " (rank ", self().rank(), ")");
    }
  }
  /// Throws IndexError unless @p index is an absolute index inside the shape.
  /// @param operation the operation, for the message
  /// @param index the index
  void check_inside(std::string_view operation, IndexSpan index) const {
    if (static_cast<int>(index.size()) != self().rank()) {
      detail::fail<IndexError>(operation, "index ", strata::to_string(index), " has ", index.size(),
                               " entries for a shape of rank ", self().rank());
    }
    if (!contains(index)) {
      detail::fail<IndexError>(operation, "index ", strata::to_string(index), " is outside ",
                               to_string());
    }
  }

 private:
  [[nodiscard]] const Derived& self() const { return static_cast<const Derived&>(*this); }
  [[nodiscard]] Index to_offset(IndexSpan index) const {
    const Index o = self().origin();
    Index offset(index.begin(), index.end());
    for (std::size_t k = 0; k < offset.size(); ++k) {
      offset[k] -= o[k];
    }
    return offset;
  }
};

/// What every shape and shape view provides; checked at compile time for all of them
/// (strata/shape/shapes.hpp), so their APIs cannot drift apart.
template <class S>
concept ShapeLike = std::copyable<S> && std::equality_comparable<S> &&
    requires(const S& s, index_t i, int mode, std::span<index_t> offset, IndexSpan index,
             std::ostream& out) {
  { s.rank() } -> std::same_as<int>;
  { s.size() } -> std::same_as<index_t>;
  { s.origin() } -> std::same_as<Index>;
  { s.extent(mode) } -> std::same_as<index_t>;
  {s.slice(index, index)};
  {s.chip(mode, i)};
  { s.indices() } -> std::ranges::random_access_range;
  { s.offsets() } -> std::ranges::random_access_range;
  { s.contains(index) } -> std::same_as<bool>;
  { s.position(index) } -> std::same_as<index_t>;
  { s.index_at(i) } -> std::same_as<Index>;
  {s.unravel(i, offset)};
  { s.advance(offset) } -> std::same_as<bool>;
  { s.run_length(offset) } -> std::same_as<index_t>;
  { s.ravel(index) } -> std::same_as<index_t>;
  { s.to_string() } -> std::same_as<std::string>;
  {out << s};
};

}  // namespace strata
