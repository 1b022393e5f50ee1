/// @file
/// strata::DenseBuffer: a contiguous array, owned (64-byte aligned) or wrapping caller memory.
#pragma once

#include "strata/core/error.hpp"
#include "strata/core/index.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

namespace detail {
/// Frees an array allocated with 64-byte alignment.
struct AlignedDelete {
  std::size_t size = 0;
  template <class T>
  void operator()(T* p) const noexcept {
    std::destroy_n(p, size);
    ::operator delete (static_cast<void*>(p), std::align_val_t{64});
  }
};
/// @p size value-initialised elements (default-initialised when not @p zero: indeterminate
/// for arithmetic types), 64-byte aligned (cache lines, AVX-512 loads).
template <class T>
std::unique_ptr<T[], AlignedDelete> aligned_array(std::size_t size, bool zero = true) {
  if (size == 0) {
    return std::unique_ptr<T[], AlignedDelete>(nullptr, AlignedDelete{0});
  }
  T* p = static_cast<T*>(::operator new (size * sizeof(T), std::align_val_t{64}));
  if (zero) {
    std::uninitialized_value_construct_n(p, size);
  } else {
    std::uninitialized_default_construct_n(p, size);
  }
  return std::unique_ptr<T[], AlignedDelete>(p, AlignedDelete{size});
}
}  // namespace detail

/// A contiguous array of `T`: owning and 64-byte aligned, or a view of memory the caller owns.
///
/// @code
/// strata::DenseBuffer<float> owned(1000);            // 1000 zeros, aligned to 64 bytes
/// std::vector<float> mine(10);
/// auto wrapped = strata::DenseBuffer<float>::wrap(mine.data(), 10);  // no copy
/// @endcode
template <class T>
class DenseBuffer {
 public:
  /// The element type.
  using value_type = T;

  /// An owning buffer of @p size value-initialised elements (zeros for arithmetic types).
  /// @param size the number of elements, >= 0
  /// @throws ShapeError for a negative size; std::bad_alloc when memory runs out
  explicit DenseBuffer(index_t size = 0)
      : owned_(detail::aligned_array<T>(checked(size))), data_(owned_.get()), size_(size) {}

  /// An owning buffer holding a copy of @p values.
  /// @param values the elements
  explicit DenseBuffer(const std::vector<T>& values)
      : owned_(detail::aligned_array<T>(values.size())),
        data_(owned_.get()),
        size_(static_cast<index_t>(values.size())) {
    std::copy(values.begin(), values.end(), data_);
  }

  /// An owning buffer of @p size default-initialised elements, for a caller that writes every
  /// one before reading it (`std::make_unique_for_overwrite`): arithmetic values are left
  /// indeterminate, which saves the pass that zeroes them.
  /// @param size the number of elements, >= 0
  /// @return the buffer
  /// @throws ShapeError for a negative size; std::bad_alloc when memory runs out
  static DenseBuffer for_overwrite(index_t size) {
    DenseBuffer b;
    b.owned_ = detail::aligned_array<T>(checked(size), false);
    b.data_ = b.owned_.get();
    b.size_ = size;
    return b;
  }

  /// A buffer over memory the caller owns and keeps alive; nothing is copied.
  /// @param data the first element
  /// @param size the number of elements
  /// @return the wrapping buffer
  /// @throws Error when @p data is null and @p size is not 0; ShapeError for a negative size
  static DenseBuffer wrap(T* data, index_t size) {
    (void)checked(size);
    if (data == nullptr && size != 0) {
      detail::fail<Error>("DenseBuffer::wrap", "null pointer with size ", size,
                          " (a null pointer may only wrap 0 elements)");
    }
    DenseBuffer b;
    b.data_ = data;
    b.size_ = size;
    return b;
  }

  /// Not copyable: a buffer owns or wraps its memory (share it through AnyBuffer, or move it).
  DenseBuffer(const DenseBuffer&) = delete;
  /// Not copyable (see the copy constructor). @return never
  DenseBuffer& operator=(const DenseBuffer&) = delete;
  /// Moves the storage; the source becomes empty.
  /// @param other the buffer to move from
  DenseBuffer(DenseBuffer&& other) noexcept
      : owned_(std::move(other.owned_)),
        data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)) {}
  /// Moves the storage; the source becomes empty.
  /// @param other the buffer to move from
  /// @return this buffer
  DenseBuffer& operator=(DenseBuffer&& other) noexcept {
    owned_ = std::move(other.owned_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    return *this;
  }
  /// Frees owned memory (wrapped memory stays the caller's).
  ~DenseBuffer() = default;

  /// The number of elements.
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return size_; }
  /// Element @p address (unchecked).
  /// @param address in [0, size())
  /// @return the element
  [[nodiscard]] T read(index_t address) const noexcept { return data_[address]; }
  /// Writes element @p address (unchecked).
  /// @param address in [0, size())
  /// @param value the new element
  void write(index_t address, const T& value) noexcept { data_[address] = value; }
  /// The first element.
  /// @return a pointer to address 0
  [[nodiscard]] T* data() noexcept { return data_; }
  /// The first element.
  /// @return a pointer to address 0
  [[nodiscard]] const T* data() const noexcept { return data_; }
  /// Whether the buffer owns its memory.
  /// @return false for a wrapping buffer
  [[nodiscard]] bool owns() const noexcept { return owned_ != nullptr || size_ == 0; }

 private:
  static std::size_t checked(index_t size) {
    if (size < 0) {
      detail::fail<ShapeError>("DenseBuffer", "negative size ", size);
    }
    return static_cast<std::size_t>(size);
  }

  std::unique_ptr<T[], detail::AlignedDelete> owned_;
  T* data_ = nullptr;
  index_t size_ = 0;
};

}  // namespace strata
