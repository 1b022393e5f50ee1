/// @file
/// strata::AnyBuffer: a shared, type-erased handle to any Buffer, so users plug in their storage.
#pragma once

#include "strata/buffer/buffer.hpp"
#include "strata/core/error.hpp"
#include "strata/core/index.hpp"

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace strata {

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
