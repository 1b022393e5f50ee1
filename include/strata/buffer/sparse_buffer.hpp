/// @file
/// strata::SparseBuffer: sorted addresses + values + a fill value for every other address, with
/// amortised inserts.
#pragma once

#include "strata/core/error.hpp"
#include "strata/core/index.hpp"

#include <boost/container/vector.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <type_traits>
#include <typeindex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace strata {

/// The array SparseBuffer keeps its values in: std::vector's interface, and a real array of T
/// for every T (bool included: `data()` exists, unlike std::vector<bool>).
template <class T>
using ValueArray = boost::container::vector<T>;

/// A buffer of `size()` elements that stores only the ones that differ from a fill value.
///
/// **Storage.** The stored entries are two aligned arrays sorted by address, `addresses()` and
/// `values()` (the coordinate format, COO, of the row-major linear address), plus a small hash
/// table of recent inserts. A write to an address already stored updates it in place
/// (O(log nnz)); a write to a new address goes to the table (O(1)); the table is merged into
/// the arrays (O(nnz + k log k) for k pending inserts) when it grows past half the arrays, or
/// when the arrays are asked for. So n inserts in any order cost O(n log n) in all, never
/// O(nnz) each. Writing the fill value erases the element: `nnz()` counts exactly the elements
/// that differ from the fill value.
///
/// **Threads.** As for standard containers: const members may run concurrently (reads of a
/// buffer with pending inserts take a lock; reads of a merged buffer do not); a write needs
/// exclusive access. strata's generic kernels use it from one thread (it is not a
/// ConcurrentReadBuffer, since it is writable); the sparse algorithms work on the merged
/// arrays, in parallel.
///
/// @code
/// strata::SparseBuffer<double> s(1'000'000);   // a million zeros, nothing stored
/// s.write(42, 3.5);                             // s.nnz() == 1
/// s.write(42, s.read(42) + 1.0);                // 4.5, updated in place
/// s.write(42, 0.0);                             // erased: s.nnz() == 0
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
  explicit SparseBuffer(index_t size = 0, T fill = T{}) : size_(size), fill_(std::move(fill)) {
    if (size < 0) {
      detail::fail<ShapeError>("SparseBuffer", "negative size ", size);
    }
  }

  /// A buffer holding the given entries (the coordinate format), sharing nothing.
  ///
  /// Values equal to @p fill are dropped. O(nnz).
  /// @param size the number of elements, >= 0
  /// @param fill the value of every element not stored
  /// @param addresses strictly increasing addresses in [0, size)
  /// @param values one value per address (a std::vector or a ValueArray)
  /// @return the buffer
  /// @throws ShapeError for a negative size or lists of different lengths; IndexError for an
  ///         address out of range or out of order (the message names its position)
  template <class Values = ValueArray<T>>
  static SparseBuffer from_entries(index_t size, T fill, std::vector<index_t> addresses,
                                   Values values) {
    SparseBuffer s(size, std::move(fill));
    if (addresses.size() != values.size()) {
      detail::fail<ShapeError>("SparseBuffer::from_entries", addresses.size(), " addresses for ",
                               values.size(), " values");
    }
    // One pass: check each address, drop values equal to the fill.
    ValueArray<T> kept_values;
    if constexpr (std::is_same_v<Values, ValueArray<T>>) {
      kept_values = std::move(values);
    } else {
      kept_values.assign(values.begin(), values.end());
    }
    std::size_t kept = 0;
    index_t previous = -1;
    for (std::size_t e = 0; e < addresses.size(); ++e) {
      const index_t a = addresses[e];
      if (a <= previous || a >= size) [[unlikely]] {
        if (a < 0 || a >= size) {
          detail::fail<IndexError>("SparseBuffer::from_entries", "address ", a, " at position ", e,
                                   " is out of range [0, ", size, ")");
        }
        detail::fail<IndexError>("SparseBuffer::from_entries", "address ", a, " at position ", e,
                                 " is not above the previous one, ", previous,
                                 " (addresses must increase)");
      }
      previous = a;
      if (!(kept_values[e] == s.fill_)) {
        if (kept != e) {
          addresses[kept] = a;
          kept_values[kept] = std::move(kept_values[e]);
        }
        ++kept;
      }
    }
    addresses.resize(kept);
    kept_values.resize(kept);
    s.addresses_ = std::move(addresses);
    s.values_ = std::move(kept_values);
    return s;
  }

  /// A copy of @p other's elements.
  /// @param other the buffer to copy
  SparseBuffer(const SparseBuffer& other) { copy_from(other); }
  /// Takes @p other's elements (left empty).
  /// @param other the buffer to move from
  SparseBuffer(SparseBuffer&& other) noexcept { move_from(std::move(other)); }
  /// Copies @p other's elements.
  /// @param other the buffer to copy
  /// @return this buffer
  SparseBuffer& operator=(const SparseBuffer& other) {
    if (this != &other) {
      copy_from(other);
    }
    return *this;
  }
  /// Takes @p other's elements.
  /// @param other the buffer to move from
  /// @return this buffer
  SparseBuffer& operator=(SparseBuffer&& other) noexcept {
    if (this != &other) {
      move_from(std::move(other));
    }
    return *this;
  }
  /// Frees the arrays.
  ~SparseBuffer() = default;

  /// The number of elements (stored or not).
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return size_; }
  /// The value of elements that are not stored.
  /// @return the fill value
  [[nodiscard]] const T& fill() const noexcept { return fill_; }
  /// The number of stored elements: those that differ from the fill value. O(1).
  /// @return nnz
  [[nodiscard]] index_t nnz() const {
    const auto count = [this] {
      return static_cast<index_t>(addresses_.size() + pending_.size()) - erased_;
    };
    if (clean_.load(std::memory_order_acquire)) {
      return count();
    }
    const std::lock_guard lock(mutex_);
    return count();
  }

  /// Element @p address: the stored value or the fill value. O(log nnz).
  /// @param address in [0, size())
  /// @return the element
  [[nodiscard]] T read(index_t address) const {
    if (clean_.load(std::memory_order_acquire)) {
      return find_sorted(address).value_or_fill;
    }
    const std::lock_guard lock(mutex_);
    const Found found = find_sorted(address);
    if (found.stored || pending_.empty()) {
      return found.value_or_fill;
    }
    const auto it = pending_.find(address);
    return it != pending_.end() ? it->second : fill_;
  }

  /// Sets element @p address: updates it in place when stored (O(log nnz)), records an insert
  /// otherwise (amortised O(log nnz)), and erases it when @p value is the fill value.
  /// @param address in [0, size())
  /// @param value the new element
  void write(index_t address, const T& value) {
    derived_.clear();
    const auto it = std::lower_bound(addresses_.begin(), addresses_.end(), address);
    if (it != addresses_.end() && *it == address) {
      T& slot = values_[static_cast<std::size_t>(it - addresses_.begin())];
      const bool was_fill = slot == fill_;
      const bool is_fill = value == fill_;
      slot = value;
      if (was_fill != is_fill) {
        erased_ += is_fill ? 1 : -1;
        clean_.store(false, std::memory_order_relaxed);
      }
      if (erased_ > static_cast<index_t>(addresses_.size() / 2) + 64) {
        merge();
      }
      return;
    }
    if (value == fill_) {
      pending_.erase(address);
    } else {
      pending_.insert_or_assign(address, value);
      clean_.store(false, std::memory_order_relaxed);
      if (pending_.size() > std::max<std::size_t>(4096, addresses_.size() / 2)) {
        merge();
      }
    }
  }

  /// The stored addresses, increasing (pending inserts are merged first).
  /// @return a span over them, valid until the next write
  [[nodiscard]] std::span<const index_t> addresses() const {
    flush();
    return addresses_;
  }
  /// The stored values, aligned with addresses() (pending inserts are merged first).
  /// @return a span over them, valid until the next write
  [[nodiscard]] std::span<const T> values() const {
    flush();
    return {values_.data(), values_.size()};
  }

  /// Calls `f(address, value)` for every stored entry in address order.
  /// @param f the visitor
  template <class F>
  void for_each_stored(F&& f) const {
    flush();
    for (std::size_t i = 0; i < addresses_.size(); ++i) {
      f(addresses_[i], values_[i]);
    }
  }

  /// Data derived from the stored entries, kept with them until they change (the compressed
  /// arrays einsum reads a sparse operand through): what an earlier call with the same type
  /// and @p key made, when no write came since, or else `make()`'s result, kept (the last four
  /// kinds). Any write drops everything kept. What is kept must not own this buffer.
  /// @tparam D the derived type
  /// @tparam Make the callable's type
  /// @param key what identifies the derivation (the view, the layout asked for)
  /// @param make a callable returning a std::shared_ptr<const D> (called without the lock)
  /// @return the derived data
  template <class D, class Make>
  std::shared_ptr<const D> derived(const Index& key, Make&& make) const {
    const std::type_index type(typeid(D));
    {
      const std::lock_guard lock(mutex_);
      for (const Derived& d : derived_) {
        if (d.type == type && d.key == key) {
          return std::static_pointer_cast<const D>(d.value);
        }
      }
    }
    std::shared_ptr<const D> made = make();
    const std::lock_guard lock(mutex_);
    if (derived_.size() == 4) {
      derived_.erase(derived_.begin());
    }
    derived_.push_back(Derived{type, key, made});
    return made;
  }

  /// Merges pending inserts and drops erased entries, so addresses() and values() are ready
  /// and reads take no lock. Called by them; call it before sharing the buffer between threads.
  void flush() const {
    if (clean_.load(std::memory_order_acquire)) {
      return;
    }
    const std::lock_guard lock(mutex_);
    if (!clean_.load(std::memory_order_relaxed)) {
      merge();
    }
  }

 private:
  /// @cond STRATA_PRIVATE
  struct Found {
    bool stored;
    T value_or_fill;
  };

  // One kind of data derived from the entries (see derived()).
  struct Derived {
    std::type_index type;
    Index key;
    std::shared_ptr<const void> value;
  };
  /// @endcond

  Found find_sorted(index_t address) const {
    const auto it = std::lower_bound(addresses_.begin(), addresses_.end(), address);
    if (it != addresses_.end() && *it == address) {
      return {true, values_[static_cast<std::size_t>(it - addresses_.begin())]};
    }
    return {false, fill_};
  }

  // Merges the table into the arrays and drops erased entries (the caller holds the lock or
  // has exclusive access).
  void merge() const {
    std::vector<std::pair<index_t, T>> fresh(pending_.begin(), pending_.end());
    std::sort(fresh.begin(), fresh.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<index_t> addresses;
    ValueArray<T> values;
    const std::size_t total = addresses_.size() + fresh.size() - static_cast<std::size_t>(erased_);
    addresses.reserve(total);
    values.reserve(total);
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < addresses_.size() || j < fresh.size()) {
      if (j == fresh.size() || (i < addresses_.size() && addresses_[i] < fresh[j].first)) {
        if (!(values_[i] == fill_)) {
          addresses.push_back(addresses_[i]);
          values.push_back(std::move(values_[i]));
        }
        ++i;
      } else {
        addresses.push_back(fresh[j].first);
        values.push_back(std::move(fresh[j].second));
        ++j;
      }
    }
    addresses_ = std::move(addresses);
    values_ = std::move(values);
    pending_.clear();
    erased_ = 0;
    derived_.clear();
    clean_.store(true, std::memory_order_release);
  }

  void copy_from(const SparseBuffer& other) {
    const std::lock_guard lock(other.mutex_);
    size_ = other.size_;
    fill_ = other.fill_;
    addresses_ = other.addresses_;
    values_ = other.values_;
    pending_ = other.pending_;
    erased_ = other.erased_;
    derived_.clear();
    clean_.store(other.clean_.load(std::memory_order_relaxed), std::memory_order_release);
  }
  void move_from(SparseBuffer&& other) noexcept {
    size_ = std::exchange(other.size_, 0);
    fill_ = std::move(other.fill_);
    addresses_ = std::move(other.addresses_);
    values_ = std::move(other.values_);
    pending_ = std::move(other.pending_);
    erased_ = std::exchange(other.erased_, 0);
    derived_.clear();
    other.derived_.clear();
    clean_.store(other.clean_.load(std::memory_order_relaxed), std::memory_order_release);
    other.addresses_.clear();
    other.values_.clear();
    other.pending_.clear();
    other.clean_.store(true, std::memory_order_release);
  }

  index_t size_ = 0;
  T fill_{};
  // Sorted stored entries; a value equal to fill_ marks an erased entry (erased_ counts them).
  mutable std::vector<index_t> addresses_;
  mutable ValueArray<T> values_;
  mutable std::unordered_map<index_t, T> pending_;  // inserts at addresses not in addresses_
  mutable index_t erased_ = 0;
  mutable std::mutex mutex_;
  mutable std::atomic<bool> clean_{true};  // pending_ empty and erased_ == 0
  mutable std::vector<Derived> derived_;   // under mutex_ for const members
};

}  // namespace strata
