/// @file
/// Index types shared by every layer: the signed scalar index and the small multi-index.
#pragma once

#include <boost/container/small_vector.hpp>

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

namespace strata {

/// The scalar index type: signed 64-bit everywhere, so strides may be negative or zero.
using index_t = std::int64_t;

/// A multi-index, shape or stride list; no heap allocation for rank <= 6.
///
/// It is a `boost::container::small_vector<index_t, 6>` that also converts to
/// `std::span<const index_t>`, the type every read-only strata function takes (Boost 1.74's
/// iterators are not C++20 contiguous iterators, so `std::span` cannot be built from it alone).
///
/// @code
/// strata::Index shape{3, 4};
/// strata::checked_size(shape, "example");  // 12: Index converts to std::span<const index_t>
/// @endcode
class Index : public boost::container::small_vector<index_t, 6> {
  using base = boost::container::small_vector<index_t, 6>;

 public:
  using base::base;

  /// Builds an index list from the values of a span.
  /// @param values the indices to copy
  explicit Index(std::span<const index_t> values) : base(values.begin(), values.end()) {}

  /// An empty list.
  Index() = default;
  /// Copies the values.
  /// @param other the list to copy
  Index(const Index& other) = default;
  /// Copies the values.
  /// @param other the list to copy
  /// @return this list
  Index& operator=(const Index& other) = default;
  /// Takes the values (compiled in the library: GCC 12 inlining Boost's small_vector move
  /// reports a false -Wstringop-overread in the including file).
  /// @param other the list to move from
  Index(Index&& other) noexcept;
  /// Takes the values.
  /// @param other the list to move from
  /// @return this list
  Index& operator=(Index&& other) noexcept;
  /// Frees the values (heap storage above 6 entries).
  ~Index() = default;

  /// A read-only view of the values.
  /// @return a span over the stored indices
  // NOLINTNEXTLINE(google-explicit-constructor): an Index is usable wherever a span is read.
  operator std::span<const index_t>() const noexcept { return {data(), size()}; }

  /// A mutable view of the values.
  /// @return a span over the stored indices
  // NOLINTNEXTLINE(google-explicit-constructor)
  operator std::span<index_t>() noexcept { return {data(), size()}; }

  /// Equality of the values.
  /// @param a, b index lists
  /// @return true when both hold the same values in the same order
  friend bool operator==(const Index& a, const Index& b) noexcept {
    return static_cast<const base&>(a) == static_cast<const base&>(b);
  }
};

/// A read-only list of indices as a function parameter: a `std::span<const index_t>` that can
/// also be written as a braced list, so `d.transpose({1, 0})` and `d.transpose(perm)` both work.
///
/// Like any span it does not own its values; a braced list lives until the end of the call.
class IndexSpan : public std::span<const index_t> {
  using base = std::span<const index_t>;

 public:
  /// An empty list.
  IndexSpan() = default;
  /// Views a braced list, for example `{1, 0, 2}`.
  /// @param values the list; it must outlive the IndexSpan (true for a function argument)
  // NOLINTNEXTLINE(google-explicit-constructor)
  IndexSpan(std::initializer_list<index_t> values) : base(values.begin(), values.size()) {}
  /// Views a span.
  /// @param values the indices
  // NOLINTNEXTLINE(google-explicit-constructor)
  IndexSpan(std::span<const index_t> values) : base(values) {}
  /// Views an Index.
  /// @param values the indices
  // NOLINTNEXTLINE(google-explicit-constructor)
  IndexSpan(const Index& values) : base(values.data(), values.size()) {}
  /// Views a vector.
  /// @param values the indices
  // NOLINTNEXTLINE(google-explicit-constructor)
  IndexSpan(const std::vector<index_t>& values) : base(values.data(), values.size()) {}
};

/// Formats an index list the way error messages and printing show it: `[0 0 2]`.
///
/// @param values the indices to format
/// @return the values separated by single spaces inside square brackets; `[]` when empty
/// @throws std::bad_alloc only
std::string to_string(std::span<const index_t> values);

/// Formats an initializer list of indices, for example `to_string({2, 3})` gives `[2 3]`.
/// @param values the indices to format
/// @return the same text as the span overload
/// @throws std::bad_alloc only
inline std::string to_string(std::initializer_list<index_t> values) {
  return to_string(std::span<const index_t>(values.begin(), values.size()));
}

/// Prints an index as to_string does: `std::cout << t.shape()` shows `[2 3]`.
/// @param out the stream
/// @param index the index
/// @return @p out
std::ostream& operator<<(std::ostream& out, const Index& index);

/// Prints an index span as to_string does (`[2 3]`), as an Index prints.
/// @param out the stream
/// @param index the indices
/// @return @p out
std::ostream& operator<<(std::ostream& out, IndexSpan index);

}  // namespace strata
