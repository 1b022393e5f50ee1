/// strata::SparseBuffer: sorted addresses + values + a fill value for every other address.
#pragma once

#include "strata/core/error.hpp"
#include "strata/core/index.hpp"

#include <algorithm>
#include <span>
#include <vector>

namespace strata {

/// A buffer of `size()` elements that stores only the ones that differ from a fill value.
///
/// Stored entries are kept sorted by address. Complexity with `nnz()` stored entries:
/// `read` O(log nnz) (binary search); `write` O(log nnz) to update, O(nnz) to insert or erase
/// (a vector shift); visiting the stored entries O(nnz) in address order.
/// Writing the fill value erases the entry, so `nnz()` counts exactly the non-fill elements.
///
/// @code
/// strata::SparseBuffer<double> s(1'000'000);   // a million zeros, nothing stored
/// s.write(42, 3.5);                             // s.nnz() == 1
/// @endcode
template <class T>
class SparseBuffer {
 public:
  /// The element type.
  using value_type = T;

  /// A buffer of @p size elements, all equal to @p fill.
  /// @param size the number of elements, >= 0
  /// @param fill the value of every element not stored
  /// @throws ShapeError for a negative size
  explicit SparseBuffer(index_t size = 0, T fill = T{}) : size_(size), fill_(fill) {
    if (size < 0) {
      detail::fail<ShapeError>("SparseBuffer", "negative size ", size);
    }
  }

  /// The number of elements (stored or not).
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return size_; }
  /// The value of elements that are not stored.
  /// @return the fill value
  [[nodiscard]] const T& fill() const noexcept { return fill_; }
  /// The number of stored (non-fill) elements.
  /// @return nnz
  [[nodiscard]] index_t nnz() const noexcept { return static_cast<index_t>(addresses_.size()); }

  /// Element @p address: the stored value or the fill value. O(log nnz).
  /// @param address in [0, size())
  /// @return the element
  [[nodiscard]] T read(index_t address) const {
    const auto it = std::lower_bound(addresses_.begin(), addresses_.end(), address);
    if (it != addresses_.end() && *it == address) {
      return values_[static_cast<std::size_t>(it - addresses_.begin())];
    }
    return fill_;
  }

  /// Sets element @p address: updates, inserts, or erases when @p value is the fill value.
  /// @param address in [0, size())
  /// @param value the new element
  void write(index_t address, const T& value) {
    const auto it = std::lower_bound(addresses_.begin(), addresses_.end(), address);
    const auto at = it - addresses_.begin();
    const bool stored = it != addresses_.end() && *it == address;
    if (value == fill_) {
      if (stored) {
        addresses_.erase(it);
        values_.erase(values_.begin() + at);
      }
    } else if (stored) {
      values_[static_cast<std::size_t>(at)] = value;
    } else {
      addresses_.insert(it, address);
      values_.insert(values_.begin() + at, value);
    }
  }

  /// The stored addresses, increasing.
  /// @return a span over them
  [[nodiscard]] std::span<const index_t> addresses() const noexcept { return addresses_; }
  /// The stored values, aligned with addresses().
  /// @return a span over them
  [[nodiscard]] std::span<const T> values() const noexcept { return values_; }

  /// Calls `f(address, value)` for every stored entry in address order.
  /// @param f the visitor
  template <class F>
  void for_each_stored(F&& f) const {
    for (std::size_t i = 0; i < addresses_.size(); ++i) {
      f(addresses_[i], values_[i]);
    }
  }

 private:
  index_t size_;
  T fill_;
  std::vector<index_t> addresses_;
  std::vector<T> values_;
};

}  // namespace strata
