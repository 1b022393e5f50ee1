/// @file
/// strata::AnyBuffer: a shared, type-erased handle to any Buffer, so users plug in their storage.
#pragma once

#include "strata/buffer/buffer.hpp"
#include "strata/core/error.hpp"
#include "strata/core/index.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace strata {

/// The memory a buffer occupies (AnyBuffer::footprint): what tells whether writing through one
/// tensor may change what another reads. Two footprints overlap when they are one storage (the
/// same buffer, or a buffer and a view of its storage such as Tensor::real()) or when their
/// arrays share a byte: two imports of one NumPy array (from_memory, the Python module's
/// `asarray`) are two buffers over one memory, and writing one changes the other. Every "the
/// output is also an input" check of strata (assign, expressions, selections, einsum, the tiled
/// and jagged engines) asks this, and reads such an input from a copy first, as NumPy does.
struct Footprint {
  const void* owner = nullptr;       ///< the storage: the buffer, or the one it views
  const std::byte* first = nullptr;  ///< the first byte of its array (null without data())
  const std::byte* last = nullptr;   ///< one past its last byte
  std::size_t element = 0;           ///< the size of one element in bytes

  /// Whether writing through one may change what the other reads.
  /// @param other another footprint (of any element type)
  /// @return true for one storage, or arrays that share a byte
  [[nodiscard]] bool overlaps(const Footprint& other) const noexcept {
    if (owner == nullptr || other.owner == nullptr) {
      return false;
    }
    return owner == other.owner ||
           (first != nullptr && other.first != nullptr && first < other.last && other.first < last);
  }
  /// Whether one address means the same element in both: the same array start and element
  /// size (or, without an array, the same storage). Two views with one map over such
  /// footprints read and write the same elements, so `a = f(a)` may run in place.
  /// @param other another footprint
  /// @return true when equal addresses are equal elements
  [[nodiscard]] bool same_addresses(const Footprint& other) const noexcept {
    return owner != nullptr && other.owner != nullptr && element == other.element &&
           (first != nullptr ? first == other.first
                             : owner == other.owner && other.first == nullptr);
  }
};

/// A shared handle to any Buffer of `T`: dense, sparse, generated, or the caller's own type.
///
/// Copies share the same storage (a Tensor and all its views hold one AnyBuffer). Reads and
/// writes through the handle are virtual calls; kernels ask for data() once and run on the raw
/// array when the buffer is contiguous. Writing to a buffer that is not a WritableBuffer throws
/// LayoutError.
///
/// @code
/// struct DequeBuffer {                       // storage of the user's own
///   using value_type = double;
///   std::deque<double> d;
///   strata::index_t size() const { return static_cast<strata::index_t>(d.size()); }
///   double read(strata::index_t i) const { return d[i]; }
///   void write(strata::index_t i, double v) { d[i] = v; }
/// };
/// strata::AnyBuffer<double> any(DequeBuffer{std::deque<double>(6)});
/// @endcode
template <class T>
class AnyBuffer {
 public:
  /// The element type.
  using value_type = T;

  /// An empty buffer (size 0).
  AnyBuffer() = default;

  /// Takes ownership of a buffer.
  /// @param buffer any Buffer whose value_type is T
  template <Buffer B>
  requires(!std::is_same_v<std::remove_cvref_t<B>, AnyBuffer> &&
           std::is_same_v<typename std::remove_cvref_t<B>::value_type, T>)
      // NOLINTNEXTLINE(google-explicit-constructor): any buffer is usable where an AnyBuffer is.
      AnyBuffer(B&& buffer)
      : model_(std::make_shared<Model<std::remove_cvref_t<B>>>(std::forward<B>(buffer))) {}

  /// Shares a buffer the caller also holds.
  /// @param buffer a shared Buffer whose value_type is T
  /// @return the handle
  template <Buffer B>
  requires std::is_same_v<typename B::value_type, T>
  static AnyBuffer shared(std::shared_ptr<B> buffer) {
    AnyBuffer any;
    any.model_ = std::make_shared<Model<std::shared_ptr<B>>>(std::move(buffer));
    return any;
  }

  /// The number of elements.
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return model_ ? model_->size() : 0; }
  /// Element @p address (unchecked).
  /// @param address in [0, size())
  /// @return the element
  [[nodiscard]] T read(index_t address) const { return model_->read(address); }
  /// Writes element @p address (unchecked address).
  /// @param address in [0, size())
  /// @param value the new element
  /// @throws LayoutError when the buffer is read-only
  void write(index_t address, const T& value) const { model_->write(address, value); }
  /// Whether write() is allowed.
  /// @return true for a WritableBuffer
  [[nodiscard]] bool writable() const noexcept { return model_ && model_->writable(); }
  /// The contiguous array, when there is one.
  /// @return a pointer to address 0, or null
  [[nodiscard]] T* data() const noexcept { return model_ ? model_->data() : nullptr; }
  /// The held buffer, when it is a @p B.
  /// @return a pointer to it, or null
  template <class B>
  [[nodiscard]] B* get() const noexcept {
    if (auto* m = dynamic_cast<Model<B>*>(model_.get())) {
      return &m->buffer;
    }
    if (auto* m = dynamic_cast<Model<std::shared_ptr<B>>*>(model_.get())) {
      return m->buffer.get();
    }
    return nullptr;
  }
  /// Whether two handles share one storage.
  /// @param other another handle
  /// @return true when both refer to the same buffer
  [[nodiscard]] bool same_storage(const AnyBuffer& other) const noexcept {
    return model_ == other.model_;
  }
  /// The memory this buffer occupies: its storage and, when it has data(), the bytes of its
  /// array. Footprint::overlaps tells whether writing one handle may change another's values.
  /// @return the footprint (owner null for an empty handle)
  [[nodiscard]] Footprint footprint() const noexcept {
    if (!model_) {
      return {};
    }
    const T* first = model_->data();
    const auto* bytes = reinterpret_cast<const std::byte*>(first);
    return {
        model_->owner(), bytes,
        first != nullptr ? bytes + static_cast<std::size_t>(model_->size()) * sizeof(T) : nullptr,
        sizeof(T)};
  }
  /// An identity of the storage, comparable across element types (null for an empty handle):
  /// two handles with one identity share one buffer.
  /// @return the identity
  [[nodiscard]] const void* identity() const noexcept { return model_.get(); }
  /// Reads element @p address of the storage whose identity() is @p storage (unchecked): lets a
  /// reference keep a pointer to the shared storage rather than to a handle, so the handle
  /// (inside a tensor) never escapes into calls and hot loops keep it in registers.
  /// @param storage a non-null identity()
  /// @param address in [0, size())
  /// @return the element
  [[nodiscard]] static T read_at(const void* storage, index_t address) {
    return static_cast<const Concept*>(storage)->read(address);
  }
  /// Writes element @p address of the storage whose identity() is @p storage (see read_at).
  /// @param storage a non-null identity()
  /// @param address in [0, size())
  /// @param value the new element
  /// @throws LayoutError when the buffer is read-only
  static void write_at(const void* storage, index_t address, const T& value) {
    // The storage is shared and non-const (the handle is the only thing const about it).
    const_cast<Concept*>(static_cast<const Concept*>(storage))->write(address, value);
  }
  /// Whether parallel kernels may use the buffer from several threads at once: true when it
  /// has data() (threads then touch distinct addresses of one array) or is a
  /// ConcurrentReadBuffer (reads only). Every other buffer is used from one thread.
  /// @return true when concurrent use is safe
  [[nodiscard]] bool concurrent() const noexcept { return model_ && model_->concurrent(); }

 private:
  /// @cond STRATA_PRIVATE
  struct Concept {
    Concept() = default;
    Concept(const Concept&) = delete;
    Concept& operator=(const Concept&) = delete;
    Concept(Concept&&) = delete;
    Concept& operator=(Concept&&) = delete;
    virtual ~Concept() = default;
    [[nodiscard]] virtual index_t size() const = 0;
    [[nodiscard]] virtual T read(index_t address) const = 0;
    virtual void write(index_t address, const T& value) = 0;
    [[nodiscard]] virtual bool writable() const = 0;
    [[nodiscard]] virtual T* data() = 0;
    [[nodiscard]] virtual bool concurrent() = 0;
    [[nodiscard]] virtual const void* owner() const = 0;
  };

  template <class Held>
  struct Model final : Concept {
    explicit Model(Held held) : buffer(std::move(held)) {}
    decltype(auto) ref() { return deref(buffer); }
    decltype(auto) ref() const { return deref(buffer); }
    template <class H>
    static H& deref(H& h) {
      return h;
    }
    template <class H>
    static H& deref(std::shared_ptr<H>& h) {
      return *h;
    }
    template <class H>
    static const H& deref(const H& h) {
      return h;
    }
    template <class H>
    static const H& deref(const std::shared_ptr<H>& h) {
      return *h;
    }
    using B = std::remove_cvref_t<decltype(deref(std::declval<Held&>()))>;

    [[nodiscard]] index_t size() const override { return static_cast<index_t>(ref().size()); }
    [[nodiscard]] T read(index_t address) const override { return ref().read(address); }
    void write(index_t address, const T& value) override {
      if constexpr (WritableBuffer<B>) {
        ref().write(address, value);
      } else {
        detail::fail<LayoutError>("write", "the buffer is read-only (address ", address,
                                  "): a generator (zeros, ones, full, iota, random) stores no "
                                  "values; write into a copy (t.copy()) or a new Tensor<T>(shape)");
      }
    }
    [[nodiscard]] bool writable() const override { return WritableBuffer<B>; }
    [[nodiscard]] bool concurrent() override {
      return data() != nullptr || ConcurrentReadBuffer<B>;
    }
    [[nodiscard]] const void* owner() const override {
      if constexpr (requires(const B& b) {
                      { b.storage_owner() } -> std::convertible_to<const void*>;
                    }) {
        return ref().storage_owner();
      } else {
        return static_cast<const Concept*>(this);  // identity()
      }
    }
    [[nodiscard]] T* data() override {
      if constexpr (ContiguousBuffer<B> && requires(B & b) {
                      { b.data() } -> std::convertible_to<T*>;
                    }) {
        return ref().data();
      } else {
        return nullptr;
      }
    }

    Held buffer;
  };
  /// @endcond

  std::shared_ptr<Concept> model_;
};

}  // namespace strata
