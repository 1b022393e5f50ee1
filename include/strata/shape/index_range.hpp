/// @file
/// strata::IndexRange: the random-access range of the indices of a shape, absolute (starting at
/// the shape's origin) or relative to the origin.
#pragma once

#include "strata/core/index.hpp"

#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <memory>
#include <ranges>

namespace strata {

/// The indices of a shape in row-major order, as a random-access range.
///
/// `indices()` of a shape yields absolute indices (the origin added), `offsets()` yields indices
/// relative to the origin. Stepping with `++` is O(1) amortised (an odometer; a jagged shape skips
/// to its next non-empty row); `it + n` is O(rank) for smooth shapes and O(rank + log rows) for
/// jagged ones; `end - begin` is O(1). The range shares one copy of the shape (cheap: extents,
/// or a shared handle), so it may outlive the shape it came from; copying or moving the range
/// is O(1) and keeps its iterators valid (they point at the shared state). It is a
/// std::ranges::view, so it composes with the standard adaptors (`| std::views::take(3)`).
///
/// @code
/// strata::Smooth s{2, 3};
/// for (const strata::Index& i : s.slice({0, 1}, {2, 3}).indices()) { ... }  // [0 1] [0 2] ...
/// auto r = s.indices();
/// strata::Index fourth = r.begin()[3];                                        // [1 0]
/// @endcode
/// @tparam S the shape type (any ShapeLike)
template <class S>
class IndexRange : public std::ranges::view_base {
  struct State {
    S shape;
    Index origin;
    Index steps;  // empty: 1 along every mode
    index_t size;
    std::size_t rank;
    bool relative;
  };

 public:
  /// The random-access iterator; it dereferences to an Index by value.
  class iterator {
   public:
    /// Iterator category (C++20 ranges).
    using iterator_concept = std::random_access_iterator_tag;
    /// Iterator category (legacy algorithms: the reference is a value).
    using iterator_category = std::input_iterator_tag;
    /// The yielded index.
    using value_type = Index;
    /// Distances between positions.
    using difference_type = std::ptrdiff_t;
    /// Dereferencing yields a value.
    using reference = Index;

    /// A singular iterator.
    iterator() = default;

    /// The index at this position.
    /// @return the absolute index or the offset, as the range was asked
    [[nodiscard]] Index operator*() const {
      // The iterator keeps the yielded index itself (updated per step), so a dereference is a
      // fixed-size copy: no loop over the modes, no arithmetic. The last entry lives apart
      // (`last_`), so the copy never reads back a value just stored by a step (a wide load
      // over a narrow store stalls store forwarding).
      const std::size_t rank = state_->rank;
      Index index(rank, boost::container::default_init);  // every entry is written below
      if (rank == 0) {
        return index;
      }
      if (rank <= kInline) [[likely]] {
        std::memcpy(index.data(), head_.data(), sizeof head_);  // within the inline storage
      } else {
        std::copy(wide_.begin(), wide_.end(), index.begin());
      }
      index[rank - 1] = last_;
      return index;
    }
    /// The index @p n positions away.
    /// @param n the distance
    /// @return the index
    [[nodiscard]] Index operator[](difference_type n) const { return *(*this + n); }

    /// Steps to the next index (an odometer step).
    /// @return this iterator
    iterator& operator++() {
      ++position_;
      if (position_ < state_->size) {
        if (run_left_ > 0) {  // inside a run of the last mode: no call into the shape
          --run_left_;
          last_ += last_step_;
        } else {
          offset_.back() += run_length_ - 1;  // offset_ stays at the run's start during a run
          state_->shape.advance(std::span<index_t>(offset_));
          start_run();
        }
      }
      return *this;
    }
    /// Steps to the next index.
    /// @return the iterator before the step
    iterator operator++(int) {
      iterator before = *this;
      ++*this;
      return before;
    }
    /// Steps back one index.
    /// @return this iterator
    iterator& operator--() { return *this += -1; }
    /// Steps back one index.
    /// @return the iterator before the step
    iterator operator--(int) {
      iterator before = *this;
      --*this;
      return before;
    }
    /// Moves @p n positions.
    /// @param n the distance (any sign)
    /// @return this iterator
    iterator& operator+=(difference_type n) {
      position_ += static_cast<index_t>(n);
      seek();
      return *this;
    }
    /// Moves back @p n positions.
    /// @param n the distance
    /// @return this iterator
    iterator& operator-=(difference_type n) { return *this += -n; }
    /// The iterator @p n positions further.
    /// @param it the iterator
    /// @param n the distance
    /// @return the moved iterator
    friend iterator operator+(iterator it, difference_type n) { return it += n; }
    /// The iterator @p n positions further.
    /// @param n the distance
    /// @param it the iterator
    /// @return the moved iterator
    friend iterator operator+(difference_type n, iterator it) { return it += n; }
    /// The iterator @p n positions back.
    /// @param it the iterator
    /// @param n the distance
    /// @return the moved iterator
    friend iterator operator-(iterator it, difference_type n) { return it -= n; }
    /// The distance between two iterators of one range.
    /// @param a the later iterator
    /// @param b the earlier iterator
    /// @return a's position minus b's
    friend difference_type operator-(const iterator& a, const iterator& b) {
      return static_cast<difference_type>(a.position_ - b.position_);
    }
    /// Equal positions.
    /// @param a an iterator
    /// @param b an iterator of the same range
    /// @return whether they are at the same position
    friend bool operator==(const iterator& a, const iterator& b) {
      return a.position_ == b.position_;
    }
    /// Orders positions.
    /// @param a an iterator
    /// @param b an iterator of the same range
    /// @return the order of their positions
    friend std::strong_ordering operator<=>(const iterator& a, const iterator& b) {
      return a.position_ <=> b.position_;
    }

    /// The linear (row-major) position of this iterator in its range.
    /// @return the position, in [0, size]
    [[nodiscard]] index_t position() const noexcept { return position_; }

   private:
    friend class IndexRange;
    iterator(const State* state, index_t position)
        : state_(state), position_(position), offset_(state->rank, 0) {
      if (state->rank > kInline) {
        wide_.resize(state->rank);
      }
      if (state->rank > 0 && !state->relative && !state->steps.empty()) {
        last_step_ = state->steps.back();
      }
      seek();
    }
    void seek() {
      run_left_ = 0;
      if (position_ >= 0 && position_ < state_->size) {
        state_->shape.unravel(position_, std::span<index_t>(offset_));
        start_run();
      }
    }
    // At the start of a run of the last mode (offset_ holds its first offset): its length,
    // and the yielded index from the offsets.
    void start_run() {
      const std::size_t rank = state_->rank;
      if (rank == 0) {
        return;
      }
      run_length_ = state_->shape.run_length(offset_);
      run_left_ = run_length_ - 1;
      index_t* index = rank <= kInline ? head_.data() : wide_.data();
      for (std::size_t k = 0; k < rank; ++k) {
        const index_t step = state_->steps.empty() ? 1 : state_->steps[k];
        index[k] = state_->relative ? offset_[k] : state_->origin[k] + step * offset_[k];
      }
      last_ = index[rank - 1];
    }

    static constexpr std::size_t kInline = 6;  // Index's inline capacity

    const State* state_ = nullptr;
    index_t position_ = 0;
    index_t run_left_ = 0;    // steps left in this run (steps that only move the last entry)
    index_t run_length_ = 0;  // the run's length
    index_t last_step_ = 1;   // what a step in a run adds to the last entry
    index_t last_ = 0;        // the last entry of the yielded index
    Index offset_;            // the offsets at the start of this run
    std::array<index_t, kInline> head_{};  // the yielded index (but its last entry), rank <= 6
    Index wide_;                           // the same for rank > 6
  };

  /// The range of @p shape's indices.
  /// @param shape the shape (copied once, shared by copies of the range)
  /// @param as_offsets true for offsets from the origin, false for absolute indices
  IndexRange(S shape, bool as_offsets) {
    Index origin = shape.origin();
    const index_t size = shape.size();
    const auto rank = static_cast<std::size_t>(shape.rank());
    state_ = std::make_shared<const State>(
        State{std::move(shape), std::move(origin), Index{}, size, rank, as_offsets});
  }

  /// The range of @p shape's indices in a strided frame: absolute index k is
  /// `origin[k] + steps[k] * offset[k]` (the indices of a sliced tensor view).
  /// @param shape the shape of the offsets (its own origin is ignored)
  /// @param origin the absolute index of offset 0, one entry per mode
  /// @param steps the absolute step of each mode
  /// @param as_offsets true for offsets, false for absolute indices
  IndexRange(S shape, Index origin, Index steps, bool as_offsets) {
    const index_t size = shape.size();
    const auto rank = static_cast<std::size_t>(shape.rank());
    state_ = std::make_shared<const State>(
        State{std::move(shape), std::move(origin), std::move(steps), size, rank, as_offsets});
  }

  /// The first index.
  /// @return the iterator at position 0
  [[nodiscard]] iterator begin() const { return iterator(state_.get(), 0); }
  /// Past the last index.
  /// @return the iterator at position size()
  [[nodiscard]] iterator end() const { return iterator(state_.get(), state_->size); }
  /// The number of indices.
  /// @return the shape's size
  [[nodiscard]] index_t size() const noexcept { return state_->size; }
  /// The index at a position.
  /// @param position in [0, size()) (unchecked)
  /// @return the index
  [[nodiscard]] Index operator[](index_t position) const { return begin()[position]; }

 private:
  std::shared_ptr<const State> state_;
};

}  // namespace strata
