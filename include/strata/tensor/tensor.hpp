/// @file
/// strata::Tensor: a shared buffer plus a Dimensions; views, element access, copies.
#pragma once

#include "strata/buffer/any_buffer.hpp"
#include "strata/buffer/complex_parts.hpp"
#include "strata/buffer/dense_buffer.hpp"
#include "strata/core/checked.hpp"
#include "strata/core/complex.hpp"
#include "strata/core/error.hpp"
#include "strata/layout/dimensions.hpp"
#include "strata/layout/odometer.hpp"
#include "strata/parallel/policy.hpp"
#include "strata/shape/index_range.hpp"
#include "strata/shape/smooth.hpp"
#include "strata/tensor/copy_kernels.hpp"
#include "strata/tensor/expression_fwd.hpp"
#include "strata/tensor/frame.hpp"
#include "strata/tensor/strided_span.hpp"

#include <algorithm>
#include <array>
#include <concepts>
#include <initializer_list>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

template <class T>
class Tensor;
template <class T, bool Owning = false>
class ElementRef;

/// NumPy's broadcasting of two shapes: aligned on the right, each pair equal or one of them 1.
/// @param a, b the shapes
/// @param operation the operation to name in the error
/// @return the broadcast shape
/// @throws BroadcastError when an aligned pair differs and neither is 1
inline Index broadcast_shapes(IndexSpan a, IndexSpan b, std::string_view operation) {
  const std::size_t rank = std::max(a.size(), b.size());
  Index out(rank);
  for (std::size_t k = 0; k < rank; ++k) {
    const index_t ea = k < rank - a.size() ? 1 : a[k - (rank - a.size())];
    const index_t eb = k < rank - b.size() ? 1 : b[k - (rank - b.size())];
    if (ea != eb && ea != 1 && eb != 1) {
      detail::fail<BroadcastError>(operation, "shapes ", to_string(a), " and ", to_string(b),
                                   " do not broadcast (axis ", k, " of the result: ", ea, " vs ",
                                   eb, ")");
    }
    out[k] = ea == 1 ? eb : ea;
  }
  return out;
}

namespace detail {

/// Operands of a complex element's arithmetic: one is the reference type @p Ref, the other
/// converts to the complex element type @p T (a number, std::complex, another reference).
template <class Ref, class T, class L, class R>
concept complex_ref_operands = is_complex_v<T> &&
    ((std::is_same_v<L, Ref> && std::is_convertible_v<const R&, T>) ||
     (std::is_same_v<R, Ref> && std::is_convertible_v<const L&, T>));

/// An operand of a complex element's arithmetic as the element type @p T: a number converted as
/// std::complex converts it (without a narrowing warning: int to complex<float> is asked for),
/// a reference read.
template <class T, class X>
T complex_operand(const X& x) {
  if constexpr (is_number_v<X>) {
    return number_cast<T>(x);
  } else {
    return static_cast<T>(x);
  }
}

/// Whether a source read while a destination is written must be read from a copy: its memory
/// overlaps the destination's (Footprint::overlaps) and it does not read the destination's own
/// elements through the destination's own map (`a = f(a)` runs in place: each element is read
/// before it is written).
/// @param source, source_map the source's footprint and map
/// @param destination, destination_map the destination's (a null map: never in place)
/// @return true when the source must be copied first
inline bool reads_under_writes(const Footprint& source, const Dimensions& source_map,
                               const Footprint& destination, const Dimensions* destination_map) {
  return source.overlaps(destination) &&
         !(destination_map != nullptr && source.same_addresses(destination) &&
           source_map == *destination_map);
}

/// The slow path of a write through an ElementRef: no array, or an aliasing view. Out of line,
/// cold and `noexcept` (a failure is parked, see pending_exception), so the fast path (one
/// store) keeps loops tight.
/// @return false when the write failed (the exception is parked)
template <class T>
[[gnu::noinline, gnu::cold]] bool write_slowly(const void* storage, index_t address, bool aliased,
                                               T value) noexcept {
  try {
    if (aliased) {
      fail<LayoutError>("write", "several indices of this view share address ", address,
                        " (a broadcast view, repeated index-array entries or overlapping strides)");
    }
    AnyBuffer<T>::write_at(storage, address, value);  // LayoutError for a read-only buffer
    return true;
  } catch (...) {
    park_exception();
    return false;
  }
}

/// The owner of a non-owning ElementRef: nothing.
struct NoOwner {};

/// What read_slowly returns: the element, or failure (the exception is parked).
template <class T>
struct SlowRead {
  T value{};        ///< the element
  bool ok = false;  ///< false when the read threw
};

/// The slow path of a read: a buffer without an array. Out of line, cold and `noexcept` (see
/// pending_exception). Not declared pure, nor is AnyBuffer::read_at: clang takes `pure` to mean
/// "cannot throw" and drops the handler, so a user buffer's exception would end the program.
template <class T>
[[nodiscard, gnu::noinline, gnu::cold]] SlowRead<T> read_slowly(const void* storage,
                                                                index_t address) noexcept {
  try {
    return {AnyBuffer<T>::read_at(storage, address), true};
  } catch (...) {
    park_exception();
    return {};
  }
}

/// Reads element @p address of a buffer without an array (see read_slowly). Always inline:
/// only the call that never returns may throw.
template <class T>
[[gnu::always_inline]] inline T read_element(const void* storage, index_t address) {
  SlowRead<T> read = read_slowly<T>(storage, address);
  if (!read.ok) [[unlikely]] {
    rethrow_pending();
  }
  return read.value;
}

/// The fast path of a tensor's element access, kept beside its map and refreshed whenever the
/// map or the buffer changes: the address of element [0, ..., 0] and the strides, in one
/// place. A loop of `t(i, j)` reads a pointer and a stride per axis from here and nothing
/// else; every other case takes a cold path whose references carry no element pointer, so the
/// compiler keeps these few words in registers across the loop (docs/iteration.md).
template <class T>
struct DirectAccess {
  /// The largest rank served from here; higher ranks take the general path.
  static constexpr std::size_t max_rank = 6;
  /// Element [0, ..., 0] when the buffer is one array, the map strided, the view non-empty
  /// and of rank <= max_rank; null otherwise.
  T* first = nullptr;
  /// `first`, unless several indices of the view share an address (null then: writes take
  /// the general path, which rejects them).
  T* first_writable = nullptr;
  /// The stride of each axis (the first `rank` entries).
  std::array<index_t, max_rank> strides{};

  /// The distance of element (i, j, ...) from element [0, ..., 0]: one multiply-add per axis.
  template <class... I>
  [[nodiscard, gnu::always_inline]] index_t offset_of(I... indices) const noexcept {
    index_t out = 0;
    std::size_t k = 0;
    ((out += static_cast<index_t>(indices) * strides[k++]), ...);
    return out;
  }
  /// The distance of element @p index from element [0, ..., 0] (rank <= max_rank).
  [[nodiscard, gnu::always_inline]] index_t offset_of(IndexSpan index) const noexcept {
    index_t out = 0;
    for (std::size_t k = 0; k < index.size(); ++k) {
      out += index[k] * strides[k];
    }
    return out;
  }
};

}  // namespace detail

/// A reference to one element of a Tensor: reads convert to `T`, assignments write.
///
/// Returned by element access on a writable tensor (`t(i, j)`, `t.at(...)`). On a named tensor
/// it holds a pointer to the element (contiguous storage) or to the tensor's buffer handle,
/// so it stays valid while that tensor is neither destroyed nor reassigned, as a reference
/// into a `std::vector` does. On a temporary tensor (`t.select({0})(1)`) it shares ownership
/// of the buffer, so it never dangles.
///
/// Writes through a view where several indices share one address (Dimensions::aliases) or
/// into a read-only buffer throw LayoutError and write nothing.
///
/// The reference from a named tensor owns nothing and is trivially destructible, so a loop of
/// `t(i, j) = ...` keeps it in registers; the one from a temporary (`Owning`) keeps a handle.
/// @tparam T the element type
/// @tparam Owning whether the reference shares ownership of the buffer (element access on a
///         temporary tensor)
template <class T, bool Owning>
class ElementRef {
 public:
  /// Refers to element @p address of @p buffer without owning it.
  /// @param buffer the storage (must outlive the reference)
  /// @param address the element's address
  /// @param aliased whether the view aliases (writes are rejected)
  ElementRef(const AnyBuffer<T>& buffer, index_t address, bool aliased) requires(!Owning)
      : ElementRef(buffer.data(), buffer, address, aliased) {}
  /// Refers to element @p address of @p buffer, whose array (if any) is @p data, without
  /// owning it.
  /// @param data the buffer's data(), or null
  /// @param buffer the storage (must outlive the reference)
  /// @param address the element's address
  /// @param aliased whether the view aliases (writes are rejected)
  ElementRef(T* data, const AnyBuffer<T>& buffer, index_t address, bool aliased) noexcept
      requires(!Owning)
      : data_(data == nullptr ? nullptr : data + address),
        storage_(buffer.identity()),
        address_(address),
        aliased_(aliased) {}
  /// Refers to an element of an array in a view that does not alias (element access's fast
  /// path: nothing but the pointer is ever read).
  /// @param element the element
  explicit ElementRef(T* element) noexcept requires(!Owning) : data_(element) {}
  /// Refers to element @p address of @p buffer, sharing ownership of it.
  /// @param owner the storage (a handle copy is kept)
  /// @param address the element's address
  /// @param aliased whether the view aliases (writes are rejected)
  ElementRef(AnyBuffer<T>&& owner, index_t address, bool aliased) requires Owning
      : storage_(owner.identity()),
        owner_(std::make_shared<const AnyBuffer<T>>(std::move(owner))),
        address_(address),
        aliased_(aliased) {
    data_ = owner_->data();
    if (data_ != nullptr) {
      data_ += address;
    }
  }

  /// Reads the element.
  /// @return its value
  // NOLINTNEXTLINE(google-explicit-constructor): a reference reads as its value.
  [[gnu::always_inline]] operator T() const {
    return data_ != nullptr ? *data_ : detail::read_element<T>(storage_, address_);
  }
  /// Reads the element (explicitly).
  /// @return its value
  [[nodiscard]] T get() const { return static_cast<T>(*this); }

  // std::complex's operators are templates, which do not look through the conversion to T: for
  // a complex element these make `t(i, j) * 2.0`, `t(i) - z`, `z / t(i)`, `-t(i)` and
  // `t(i) == z` compute as they do for a real one (hidden friends: found through a reference).

  /// The sum of a complex element and a number (or another element).
  /// @param a, b the operands (one of them this reference type)
  /// @return the value, as std::complex computes it
  template <class L, class R>
  requires detail::complex_ref_operands<ElementRef, T, L, R>
  friend T operator+(const L& a, const R& b) {
    return detail::complex_operand<T>(a) + detail::complex_operand<T>(b);
  }
  /// The difference of a complex element and a number (or another element).
  /// @param a, b the operands (one of them this reference type)
  /// @return the value
  template <class L, class R>
  requires detail::complex_ref_operands<ElementRef, T, L, R>
  friend T operator-(const L& a, const R& b) {
    return detail::complex_operand<T>(a) - detail::complex_operand<T>(b);
  }
  /// The product of a complex element and a number (or another element).
  /// @param a, b the operands (one of them this reference type)
  /// @return the value
  template <class L, class R>
  requires detail::complex_ref_operands<ElementRef, T, L, R>
  friend T operator*(const L& a, const R& b) {
    return detail::complex_operand<T>(a) * detail::complex_operand<T>(b);
  }
  /// The quotient of a complex element and a number (or another element).
  /// @param a, b the operands (one of them this reference type)
  /// @return the value
  template <class L, class R>
  requires detail::complex_ref_operands<ElementRef, T, L, R>
  friend T operator/(const L& a, const R& b) {
    return detail::complex_operand<T>(a) / detail::complex_operand<T>(b);
  }
  /// Whether a complex element equals a number (or another element); `!=` is its negation.
  /// @param a, b the operands (one of them this reference type)
  /// @return whether both parts are equal
  template <class L, class R>
  requires detail::complex_ref_operands<ElementRef, T, L, R>
  friend bool operator==(const L& a, const R& b) {
    return detail::complex_operand<T>(a) == detail::complex_operand<T>(b);
  }
  /// The negated complex element.
  /// @param a the element
  /// @return its value negated
  friend T operator-(const ElementRef& a) requires is_complex_v<T> { return -a.get(); }

  /// Writes the element.
  /// @param value the new value
  /// @return this reference
  /// @throws LayoutError for an aliasing view or a read-only buffer
  [[gnu::always_inline]] ElementRef& operator=(const T& value) {
    set(value);
    return *this;
  }
  /// Writes the value of another element (a reference, like a pointer, is not rebound).
  /// @param other the element to read
  /// @return this reference
  /// @throws LayoutError for an aliasing view or a read-only buffer
  [[gnu::always_inline]] ElementRef& operator=(const ElementRef& other) {
    set(static_cast<T>(other));
    return *this;
  }
  /// Writes the value of another element.
  /// @param other the element to read
  /// @return this reference
  /// @throws LayoutError for an aliasing view or a read-only buffer
  [[gnu::always_inline]] ElementRef& operator=(ElementRef&& other) {
    set(static_cast<T>(other));
    return *this;
  }
  /// Refers to the same element as @p other.
  /// @param other a reference
  ElementRef(const ElementRef& other) = default;
  /// Refers to the same element as @p other.
  /// @param other a reference
  ElementRef(ElementRef&& other) noexcept = default;
  /// Releases the reference (the element stays).
  ~ElementRef() = default;

  /// `x += v` on the element. @param value the operand @return this reference
  /// @throws LayoutError for an aliasing view or a read-only buffer
  template <class U>
  [[gnu::always_inline]] ElementRef& operator+=(const U& value) requires requires(T x) {
    x += value;
  }
  {
    T x = *this;
    x += value;
    return *this = x;
  }
  /// `x -= v` on the element. @param value the operand @return this reference
  /// @throws LayoutError for an aliasing view or a read-only buffer
  template <class U>
  [[gnu::always_inline]] ElementRef& operator-=(const U& value) requires requires(T x) {
    x -= value;
  }
  {
    T x = *this;
    x -= value;
    return *this = x;
  }
  /// `x *= v` on the element. @param value the operand @return this reference
  /// @throws LayoutError for an aliasing view or a read-only buffer
  template <class U>
  [[gnu::always_inline]] ElementRef& operator*=(const U& value) requires requires(T x) {
    x *= value;
  }
  {
    T x = *this;
    x *= value;
    return *this = x;
  }
  /// `x /= v` on the element. @param value the operand @return this reference
  /// @throws LayoutError for an aliasing view or a read-only buffer
  template <class U>
  [[gnu::always_inline]] ElementRef& operator/=(const U& value) requires requires(T x) {
    x /= value;
  }
  {
    T x = *this;
    x /= value;
    return *this = x;
  }
  /// `x %= v` on the element (integers). @param value the operand @return this reference
  /// @throws LayoutError for an aliasing view or a read-only buffer
  template <class U>
  [[gnu::always_inline]] ElementRef& operator%=(const U& value) requires requires(T x) {
    x %= value;
  }
  {
    T x = *this;
    x %= value;
    return *this = x;
  }
  /// `++x` on the element. @return this reference
  /// @throws LayoutError for an aliasing view or a read-only buffer
  [[gnu::always_inline]] ElementRef& operator++() requires requires(T x) { ++x; }
  {
    T x = *this;
    ++x;
    return *this = x;
  }
  /// `--x` on the element. @return this reference
  /// @throws LayoutError for an aliasing view or a read-only buffer
  [[gnu::always_inline]] ElementRef& operator--() requires requires(T x) { --x; }
  {
    T x = *this;
    --x;
    return *this = x;
  }

 private:
  [[gnu::always_inline]] void set(const T& value) {
    if (data_ != nullptr && !aliased_) [[likely]] {
      *data_ = value;  // the whole fast path: a store, so loops stay tight
      return;
    }
    if (!detail::write_slowly(storage_, address_, aliased_, value)) [[unlikely]] {
      detail::rethrow_pending();
    }
  }

  T* data_ = nullptr;              // the element, when the storage is one array
  const void* storage_ = nullptr;  // the shared storage (AnyBuffer::identity)
  // keeps the buffer alive (references from temporaries); nothing otherwise
  [[no_unique_address]] std::conditional_t<Owning, std::shared_ptr<const AnyBuffer<T>>,
                                           detail::NoOwner>
      owner_;
  index_t address_ = 0;
  bool aliased_ = false;
};

/// An N-dimensional array: a shared buffer of `T` plus a Dimensions that addresses it.
///
/// A Tensor is a handle, like std::shared_ptr: copying one shares the buffer, and every view
/// operation (select, transpose, broadcast, rotate, reverse, squeeze, unsqueeze, diagonal,
/// reshape) returns a tensor that shares it too. copy() makes a dense, row-major copy.
///
/// Constness is honoured through views: a view of a const tensor is a `Tensor<const T>`, which
/// has no writing member (assign, fill, writable element references) at all. `=` on a tensor
/// only ever writes: `t.select(...) = u` writes through the temporary view, as NumPy's
/// `w[1:3] = u[1:3]`, and `v = expr` writes into a named one; `v = u` with a tensor u does not
/// compile (it could mean writing or rebinding): say `v.assign(u)` or `v.rebind(u)`.
/// Writes through a view where several indices share one address
/// (broadcasting, repeated index-array entries: Dimensions::aliases), or into a read-only
/// buffer (a generator), throw LayoutError and write nothing.
///
/// @code
/// strata::Tensor<float> t{{0, 1, 2}, {3, 4, 5}};    // 2x3, like np.array
/// auto col = t.select({strata::all, 1});             // [1 4], shares t's buffer
/// col.assign(strata::Tensor<float>::of({7}));        // broadcast 7 into the column
/// t.select({0}) = t.select({1});                     // t[0] = t[1]: writes through
/// t(1, 1) += 1;                                      // 8
/// @endcode
///
/// Construction never guesses: `Tensor<float>({h, w})` (or `Tensor<float>(Index{h, w})`) is a
/// zero h x w tensor, as NumPy's `np.zeros((h, w))` and xtensor's and Eigen's constructors;
/// values are spelled `Tensor<float>::of({1, 2, 3})` (a vector) or with nested lists,
/// `Tensor<float>{{1, 2}, {3, 4}}`; `Tensor<float>{2, 3}` does not compile. Nested lists whose
/// innermost lists have one element (`{{1}, {2}}`) are ambiguous in C++; write
/// `Tensor<int>::of({1, 2}).unsqueeze(1)`.
///
/// @image html tensor_flip.svg "a view's values, with its strides and offset (draw::tensor)"
/// Design page: @ref tensors_page.
/// @tparam T the element type; `const T` for a read-only tensor
template <class T>
class Tensor {
 public:
  /// The element type without const.
  using value_type = std::remove_const_t<T>;
  /// The element type as accessed: `const value_type` for a read-only tensor.
  using element_type = T;
  /// What non-const element access returns: a writable ElementRef, or a value when read-only.
  using reference = std::conditional_t<std::is_const_v<T>, value_type, ElementRef<value_type>>;

  /// A rank-0 tensor holding one value-initialised element.
  Tensor() : Tensor(Index{}) {}

  /// A dense, row-major tensor of value-initialised elements (zeros) of a shape:
  /// `Tensor<float>({h, w})` is an h x w matrix, as `np.zeros((h, w))` (values are spelled
  /// `Tensor<float>::of({1, 2, 3})` or with nested lists).
  /// @param shape the extents
  /// @throws ShapeError for a negative extent or a size that overflows
  explicit Tensor(IndexSpan shape)  // a shape: Tensor<T>({2, 3}); values: Tensor<T>::of({4, 5, 6})
      : dims_(shape),
        buffer_(DenseBuffer<value_type>(checked_size(shape, "Tensor"))),
        data_(buffer_.data()) {
    refresh_direct();
  }

  /// A matrix from nested lists, as `np.array([[...], ...])`.
  /// @param rows the rows, all of one length
  /// @throws ShapeError for ragged rows
  Tensor(std::initializer_list<std::initializer_list<value_type>> rows)  // vector: of({4, 5, 6})
      : Tensor(nested(rows)) {}

  /// A rank-3 tensor from nested lists.
  /// @param planes the planes, all of one shape
  /// @throws ShapeError for ragged lists
  Tensor(std::initializer_list<std::initializer_list<std::initializer_list<value_type>>> planes)
      : Tensor(nested(planes)) {}  // a vector's values: Tensor<T>::of({4, 5, 6})

  /// A tensor over any buffer through any map.
  /// @param buffer the storage (shared)
  /// @param dims the map; every address it reads must be in [0, buffer.size())
  /// @throws IndexError when the map reads outside the buffer
  Tensor(AnyBuffer<value_type> buffer, Dimensions dims)
      : dims_(std::move(dims)), buffer_(std::move(buffer)), data_(buffer_.data()) {
    check_fits("Tensor");
    refresh_direct();
  }

  /// A read-only handle to a writable tensor's elements (the implicit conversion that makes a
  /// `Tensor<T>` usable wherever a `Tensor<const T>` is expected).
  /// @param other the tensor (shared, not copied)
  template <class U>
  requires(std::is_const_v<T>&& std::is_same_v<U, value_type>)
      // NOLINTNEXTLINE(google-explicit-constructor): adding const is always safe.
      Tensor(const Tensor<U>& other)
      : dims_(other.dims_),
        buffer_(other.buffer_),
        data_(other.data_),
        direct_(other.direct_),
        frame_(other.frame_) {}

  /// Shares @p other's buffer and map.
  /// @param other a tensor
  Tensor(const Tensor& other) = default;
  /// Takes @p other's buffer and map.
  /// @param other a tensor
  Tensor(Tensor&& other) noexcept = default;
  /// Does not compile: on a named tensor `v = b` could mean writing b's values into v's elements
  /// (as `v = b + 0` does, and Eigen blocks, xtensor views) or rebinding the handle v (as Python's
  /// `v = b`). Say which: `v.assign(b)` writes (broadcasting, NumPy's `v[...] = b`),
  /// `v.rebind(b)` rebinds, `swap(v, b)` exchanges handles. `=` on a tensor only ever writes:
  /// expressions, selections, values, and tensors into a temporary view (`t.select(...) = b`).
  /// @param other a tensor
  /// @return never
  Tensor& operator=(const Tensor& other) & = delete;  // write: v.assign(b); rebind: v.rebind(b)
  /// Does not compile, as copy-assignment: write with `v.assign(b)`, rebind with `v.rebind(b)`.
  /// @param other a tensor
  /// @return never
  Tensor& operator=(Tensor&& other) & = delete;  // write: v.assign(b); rebind: v.rebind(b)
  /// Rebinds this handle to @p other's buffer and map, writing nothing (Python's `v = b`): after
  /// `v.rebind(a.transpose())`, v is a.transpose() and shares a's buffer.
  /// @param other a tensor (a `Tensor<T>` rebinds a `Tensor<const T>` too)
  /// @return this tensor
  Tensor& rebind(Tensor other) & noexcept {
    swap(other);
    return *this;
  }
  /// Exchanges the buffers and maps of two handles (no element moves).
  /// @param other a tensor
  void swap(Tensor& other) noexcept {
    using std::swap;
    swap(dims_, other.dims_);
    swap(buffer_, other.buffer_);
    swap(data_, other.data_);
    swap(direct_, other.direct_);
    swap(frame_, other.frame_);
  }
  /// Exchanges two handles (found by argument-dependent lookup: `swap(a, b)`,
  /// `std::ranges::swap(a, b)`).
  /// @param a, b tensors
  friend void swap(Tensor& a, Tensor& b) noexcept { a.swap(b); }
  /// Releases this handle (the buffer lives while another handle shares it).
  ~Tensor() = default;

  /// Writes @p src through this temporary view, broadcasting it: `t.select(...) = u` is
  /// NumPy's `t[...] = u` (as assign()).
  /// @param src the values
  /// @throws BroadcastError, LayoutError as assign(); nothing is written then
  void operator=(const Tensor<const T>& src) && requires(!std::is_const_v<T>) { assign(src); }
  /// A new dense tensor holding a lazy expression's values: `Tensor<float> c = a + 2 * b;`
  /// (evaluated in one pass, converted to T).
  /// @param e the expression (strata/expr/)
  /// @throws what evaluating it throws
  template <Expression E>
  // NOLINTNEXTLINE(google-explicit-constructor): an expression becomes a tensor when stored.
  Tensor(const E& e)  // a vector's values are Tensor<T>::of({4, 5, 6}), not Tensor<T>{4, 5, 6}
      : Tensor(detail::evaluated_expression<value_type>(e)) {}

  /// Writes a lazy expression into this tensor's elements, broadcasting it (NumPy's
  /// `t[...] = expr`): `v = u + a * (w - u)`. An expression is written, never bound; sources
  /// that overlap this tensor are read before it is written (element-wise in place needs no
  /// copy).
  /// @param e the expression
  /// @return this tensor
  /// @throws BroadcastError when the expression's shape does not broadcast to this shape;
  ///         LayoutError when this tensor cannot be written. Nothing is written then.
  template <Expression E>
      Tensor& operator=(const E& e) & requires(!std::is_const_v<T>) {
    detail::evaluate_expression(*this, e);
    return *this;
  }
  /// Writes a lazy expression through this temporary view: `t.select(...) = expr`.
  /// @param e the expression
  /// @throws BroadcastError, LayoutError as the lvalue overload; nothing is written then
  template <Expression E>
      void operator=(const E& e) && requires(!std::is_const_v<T>) {
    detail::evaluate_expression(*this, e);
  }

  /// Writes a composite selection's values into this tensor's elements, broadcasting them
  /// (`v = strata::concat(0, {a, b})`, `v = strata::minimum(a, b)`): as an expression, never
  /// bound, converted to T.
  /// @param s the selection (strata/select/)
  /// @return this tensor
  /// @throws BroadcastError when its shape does not broadcast to this shape; LayoutError when
  ///         this tensor cannot be written. Nothing is written then.
  template <class U>
      Tensor& operator=(const Selection<U>& s) & requires(!std::is_const_v<T>) {
    detail::evaluate_expression(*this, s);
    return *this;
  }
  /// Writes a composite selection through this temporary view: `t.select(...) = pad(...)`.
  /// @param s the selection
  /// @throws BroadcastError, LayoutError as the lvalue overload; nothing is written then
  template <class U>
      void operator=(const Selection<U>& s) && requires(!std::is_const_v<T>) {
    detail::evaluate_expression(*this, s);
  }

  /// Writes @p value into every element of this temporary view: `t.select(...) = 0`.
  /// @param value the value
  /// @throws LayoutError as fill(); nothing is written then
  void operator=(const value_type& value) && requires(!std::is_const_v<T>) { fill(value); }

  /// A dense row-major tensor whose elements are left uninitialised (arithmetic types; others
  /// are default-constructed), for code that writes every element first: NumPy's `np.empty`.
  /// Saves the zeroing pass `Tensor<T>(shape)` makes; reading an element before writing it is
  /// undefined.
  /// @param shape the extents
  /// @return the tensor
  /// @throws ShapeError for a negative extent or a size that overflows
  static Tensor for_overwrite(IndexSpan shape) {
    return Tensor(AnyBuffer<value_type>(
                      DenseBuffer<value_type>::for_overwrite(checked_size(shape, "for_overwrite"))),
                  Dimensions(shape));
  }

  /// A vector of values, as `np.array([1, 2, 3])`: `Tensor<float>::of({1, 2, 3})`. (A braced
  /// list given to the constructor is a shape, never values: `Tensor<float>({2, 3})` is 2x3.)
  /// @param values the elements
  /// @return the rank-1 tensor
  static Tensor of(std::initializer_list<value_type> values) {
    return from_vector(std::vector<value_type>(values), {static_cast<index_t>(values.size())});
  }

  /// A dense row-major tensor that takes the values of a vector.
  /// @param values the elements in row-major order
  /// @param shape the extents; their product must be values.size()
  /// @return the tensor
  /// @throws ShapeError when the sizes differ
  static Tensor from_vector(std::vector<value_type> values, IndexSpan shape) {
    const index_t size = checked_size(shape, "from_vector");
    if (size != static_cast<index_t>(values.size())) {
      detail::fail<ShapeError>("from_vector", "shape ", to_string(shape), " holds ", size,
                               " elements but the vector has ", values.size());
    }
    return Tensor(AnyBuffer<value_type>(DenseBuffer<value_type>(values)), Dimensions(shape));
  }

  /// A row-major tensor over memory the caller owns and keeps alive; nothing is copied.
  /// @param data the first element
  /// @param shape the extents
  /// @return the tensor
  /// @throws Error when @p data is null and the shape is not empty
  static Tensor wrap(value_type* data, IndexSpan shape) {
    const index_t size = checked_size(shape, "wrap");
    return Tensor(AnyBuffer<value_type>(DenseBuffer<value_type>::wrap(data, size)),
                  Dimensions(shape));
  }

  // ---- what it is ----------------------------------------------------------------------------

  /// The address map.
  /// @return the Dimensions
  [[nodiscard]] const Dimensions& dims() const noexcept { return dims_; }
  /// The storage (a low-level handle: it does not carry this tensor's constness).
  /// @return the shared buffer handle
  [[nodiscard]] const AnyBuffer<value_type>& buffer() const noexcept { return buffer_; }
  /// The extents.
  /// @return the shape
  [[nodiscard]] Index shape() const { return dims_.shape(); }
  /// The number of axes.
  /// @return the rank
  [[nodiscard]] int rank() const noexcept { return dims_.rank(); }
  /// The number of elements.
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return dims_.size(); }
  /// Whether elements can be written through this tensor: a mutable element type, a writable
  /// buffer and a map where no two indices share an address.
  /// @return true when assign() and fill() would be accepted
  [[nodiscard]] bool is_writable() const noexcept {
    return !std::is_const_v<T> && buffer_.writable() && !dims_.aliases();
  }

  /// The element at index [0, ..., 0] in one contiguous array, for code that takes a pointer
  /// and strides (BLAS, a hand loop): element g is `data()[sum(g[k] * strides()[k])]`. Null
  /// when the buffer is not one array, or the map is not strided (a roll, a tile, an index
  /// array: Dimensions::is_strided), or the tensor is empty.
  /// @return the pointer (writable for a writable tensor), or null
  [[nodiscard]] std::conditional_t<std::is_const_v<T>, const value_type*, value_type*>
  data() noexcept {
    return first_element();
  }
  /// The element at index [0, ..., 0] of a const tensor, read-only (see the non-const data()).
  /// @return the pointer, or null
  [[nodiscard]] const value_type* data() const noexcept { return first_element(); }
  /// The distance in elements between neighbours along each axis (any sign; 0 for a
  /// broadcast axis). Meaningful with data() when the map is strided.
  /// @return one stride per axis
  [[nodiscard]] Index strides() const { return dims_.strides(); }
  /// The buffer address of the element at index [0, ..., 0] (for a strided map).
  /// @return the offset
  [[nodiscard]] index_t offset() const noexcept { return dims_.offset(); }
  /// Whether the elements are one contiguous, increasing, row-major run of an array (memcpy-
  /// able from data()).
  /// @return true when data() is not null and the map is native
  [[nodiscard]] bool is_contiguous() const {
    return first_element() != nullptr && dims_.is_native();
  }
  /// A StridedSpan of rank @p N over this view's elements: `s(i, j)` reads and writes at
  /// pointer speed, in a loop of the user's (see StridedSpan). It owns nothing: valid while the
  /// buffer lives (the tensor, or another handle to its buffer).
  /// @tparam N the rank, which must be this tensor's
  /// @return the span (writable for a Tensor of non-const T)
  /// @throws ShapeError when @p N is not the rank
  /// @throws LayoutError when the buffer is not one array or the map is not strided (a roll, a
  ///         tile, an index array: `copy()` first), or, for a writable span, when the view
  ///         aliases (a broadcast: take the span of a const tensor to read) or the buffer is
  ///         read-only
  template <std::size_t N>
  [[nodiscard]] StridedSpan<T, N> span() {
    check_span(N, "span");
    if constexpr (!std::is_const_v<T>) {
      check_writable("span");
    }
    return make_span<T, N>();
  }
  /// A read-only StridedSpan of rank @p N (broadcast views included).
  /// @tparam N the rank, which must be this tensor's
  /// @return the span
  /// @throws ShapeError when @p N is not the rank
  /// @throws LayoutError when the buffer is not one array or the map is not strided
  template <std::size_t N>
  [[nodiscard]] StridedSpan<const value_type, N> span() const {
    check_span(N, "span");
    return make_span<const value_type, N>();
  }

  // ---- views (share the buffer) --------------------------------------------------------------
  // Each view keeps an index frame: where its elements sit in the tensor it was cut from
  // (origin(), steps(), indices()). The Dimensions operation runs first: it validates.

  /// Names this tensor's axes for a labelled contraction, TensorWrapper's and TiledArray's
  /// spelling: `c("i,k") = a("i,j") * b("j,k")` (strata/contract/labelled.hpp).
  /// @param labels one name per axis, comma-separated
  /// @return the labelled tensor (writable)
  /// @throws ShapeError when the number of names is not the rank
  template <class S>
  requires std::is_convertible_v<const S&, std::string_view>
  [[nodiscard]] LabelledTensor<T> operator()(const S& labels) {
    return LabelledTensor<T>(*this, std::string_view(labels));
  }
  /// Names the axes of a const tensor: a read-only factor.
  /// @param labels one name per axis, comma-separated
  /// @return the labelled tensor (read-only)
  /// @throws ShapeError when the number of names is not the rank
  template <class S>
  requires std::is_convertible_v<const S&, std::string_view>
  [[nodiscard]] LabelledTensor<const T> operator()(const S& labels) const {
    return LabelledTensor<const T>(Tensor<const T>(*this), std::string_view(labels));
  }

  /// NumPy's `t[1]` has no C++ twin here (a subscript takes one argument, and a view is not an
  /// element): it does not compile, and the message names `t.select({1})` (the view `t[1]`)
  /// and `t(i, j)` (one element).
  /// @param index anything
  template <class I>
  void operator[](const I& index) const {
    static_assert(sizeof(I) == 0,
                  "strata::Tensor has no operator[]: NumPy's t[1] is t.select({1}), t[1:3, ::2] "
                  "is t.select({strata::Range{1, 3}, strata::Range{{}, {}, 2}}), and one "
                  "element t[i, j] is t(i, j) or t.at({i, j})");
    (void)index;
  }

  /// @copydoc Dimensions::select(std::initializer_list<Selector>) const
  [[nodiscard]] Tensor select(std::initializer_list<Selector> selectors) {
    Dimensions d = dims_.select(selectors);
    return view(std::move(d),
                frame_.selected(dims_.shape(),
                                std::span<const Selector>(selectors.begin(), selectors.size())));
  }
  /// @copydoc Dimensions::select(std::initializer_list<Selector>) const
  /// (A const tensor gives a read-only view.)
  [[nodiscard]] Tensor<const T> select(std::initializer_list<Selector> selectors) const {
    Dimensions d = dims_.select(selectors);
    return const_view(std::move(d),
                      frame_.selected(dims_.shape(), std::span<const Selector>(selectors.begin(),
                                                                               selectors.size())));
  }
  /// @copydoc Dimensions::select(std::span<const Selector>) const
  [[nodiscard]] Tensor select(std::span<const Selector> selectors) {
    Dimensions d = dims_.select(selectors);
    return view(std::move(d), frame_.selected(dims_.shape(), selectors));
  }
  /// @copydoc Dimensions::select(std::span<const Selector>) const
  /// (A const tensor gives a read-only view.)
  [[nodiscard]] Tensor<const T> select(std::span<const Selector> selectors) const {
    Dimensions d = dims_.select(selectors);
    return const_view(std::move(d), frame_.selected(dims_.shape(), selectors));
  }
  /// @copydoc Dimensions::transpose(IndexSpan) const
  [[nodiscard]] Tensor transpose(IndexSpan permutation) {
    Dimensions d = dims_.transpose(permutation);
    return view(std::move(d), frame_.transposed(resolved_permutation(permutation)));
  }
  /// @copydoc Dimensions::transpose(IndexSpan) const
  /// (A const tensor gives a read-only view.)
  [[nodiscard]] Tensor<const T> transpose(IndexSpan permutation) const {
    Dimensions d = dims_.transpose(permutation);
    return const_view(std::move(d), frame_.transposed(resolved_permutation(permutation)));
  }
  /// @copydoc Dimensions::transpose() const
  [[nodiscard]] Tensor transpose() {
    Dimensions d = dims_.transpose();
    return view(std::move(d), frame_.transposed(reversed_axes()));
  }
  /// @copydoc Dimensions::transpose() const
  /// (A const tensor gives a read-only view.)
  [[nodiscard]] Tensor<const T> transpose() const {
    Dimensions d = dims_.transpose();
    return const_view(std::move(d), frame_.transposed(reversed_axes()));
  }
  /// @copydoc Dimensions::broadcast(IndexSpan) const
  [[nodiscard]] Tensor broadcast(IndexSpan shape) {
    Dimensions d = dims_.broadcast(shape);
    return view(std::move(d), frame_after("broadcast", shape));
  }
  /// @copydoc Dimensions::broadcast(IndexSpan) const
  /// (A const tensor gives a read-only view.)
  [[nodiscard]] Tensor<const T> broadcast(IndexSpan shape) const {
    Dimensions d = dims_.broadcast(shape);
    return const_view(std::move(d), frame_after("broadcast", shape));
  }
  /// @copydoc Dimensions::rotate(IndexSpan) const
  [[nodiscard]] Tensor rotate(IndexSpan shifts) {
    Dimensions d = dims_.rotate(shifts);
    return view(std::move(d), detail::Frame::lost("rotate"));
  }
  /// @copydoc Dimensions::rotate(IndexSpan) const
  /// (A const tensor gives a read-only view.)
  [[nodiscard]] Tensor<const T> rotate(IndexSpan shifts) const {
    Dimensions d = dims_.rotate(shifts);
    return const_view(std::move(d), detail::Frame::lost("rotate"));
  }
  /// @copydoc Dimensions::rotate(index_t, index_t) const
  [[nodiscard]] Tensor rotate(index_t shift, index_t axis) {
    Dimensions d = dims_.rotate(shift, axis);
    return view(std::move(d), detail::Frame::lost("rotate"));
  }
  /// @copydoc Dimensions::rotate(index_t, index_t) const
  /// (A const tensor gives a read-only view.)
  [[nodiscard]] Tensor<const T> rotate(index_t shift, index_t axis) const {
    Dimensions d = dims_.rotate(shift, axis);
    return const_view(std::move(d), detail::Frame::lost("rotate"));
  }
  /// @copydoc Dimensions::reverse(IndexSpan) const
  [[nodiscard]] Tensor reverse(IndexSpan axes) {
    Dimensions d = dims_.reverse(axes);
    return view(std::move(d), frame_.reversed(dims_.shape(), marked(axes)));
  }
  /// @copydoc Dimensions::reverse(IndexSpan) const
  /// (A const tensor gives a read-only view.)
  [[nodiscard]] Tensor<const T> reverse(IndexSpan axes) const {
    Dimensions d = dims_.reverse(axes);
    return const_view(std::move(d), frame_.reversed(dims_.shape(), marked(axes)));
  }
  /// @copydoc Dimensions::reverse() const
  [[nodiscard]] Tensor reverse() {
    Dimensions d = dims_.reverse();
    return view(
        std::move(d),
        frame_.reversed(dims_.shape(), std::vector<bool>(static_cast<std::size_t>(rank()), true)));
  }
  /// @copydoc Dimensions::reverse() const
  /// (A const tensor gives a read-only view.)
  [[nodiscard]] Tensor<const T> reverse() const {
    Dimensions d = dims_.reverse();
    return const_view(
        std::move(d),
        frame_.reversed(dims_.shape(), std::vector<bool>(static_cast<std::size_t>(rank()), true)));
  }
  /// @copydoc Dimensions::squeeze(IndexSpan) const
  [[nodiscard]] Tensor squeeze(IndexSpan axes) {
    Dimensions d = dims_.squeeze(axes);
    return view(std::move(d), frame_.squeezed(static_cast<std::size_t>(rank()), marked(axes)));
  }
  /// @copydoc Dimensions::squeeze(IndexSpan) const
  /// (A const tensor gives a read-only view.)
  [[nodiscard]] Tensor<const T> squeeze(IndexSpan axes) const {
    Dimensions d = dims_.squeeze(axes);
    return const_view(std::move(d),
                      frame_.squeezed(static_cast<std::size_t>(rank()), marked(axes)));
  }
  /// @copydoc Dimensions::squeeze() const
  [[nodiscard]] Tensor squeeze() {
    Dimensions d = dims_.squeeze();
    return view(std::move(d), frame_.squeezed(static_cast<std::size_t>(rank()), unit_axes()));
  }
  /// @copydoc Dimensions::squeeze() const
  /// (A const tensor gives a read-only view.)
  [[nodiscard]] Tensor<const T> squeeze() const {
    Dimensions d = dims_.squeeze();
    return const_view(std::move(d), frame_.squeezed(static_cast<std::size_t>(rank()), unit_axes()));
  }
  /// @copydoc Dimensions::unsqueeze(index_t) const
  [[nodiscard]] Tensor unsqueeze(index_t axis) {
    Dimensions d = dims_.unsqueeze(axis);
    return view(std::move(d),
                frame_.unsqueezed(static_cast<std::size_t>(rank()),
                                  static_cast<std::size_t>(axis < 0 ? axis + rank() + 1 : axis)));
  }
  /// @copydoc Dimensions::unsqueeze(index_t) const
  /// (A const tensor gives a read-only view.)
  [[nodiscard]] Tensor<const T> unsqueeze(index_t axis) const {
    Dimensions d = dims_.unsqueeze(axis);
    return const_view(
        std::move(d),
        frame_.unsqueezed(static_cast<std::size_t>(rank()),
                          static_cast<std::size_t>(axis < 0 ? axis + rank() + 1 : axis)));
  }
  /// @copydoc Dimensions::diagonal(index_t, index_t, index_t) const
  /// The view is writable where the tensor is (NumPy's is read-only): `m.diagonal().fill(1)`
  /// sets a matrix's diagonal, as `np.fill_diagonal`. It has no absolute indices.
  [[nodiscard]] Tensor diagonal(index_t offset = 0, index_t axis1 = 0, index_t axis2 = 1) {
    Dimensions d = dims_.diagonal(offset, axis1, axis2);
    return view(std::move(d), detail::Frame::lost("diagonal"));
  }
  /// @copydoc Dimensions::diagonal(index_t, index_t, index_t) const
  /// (A const tensor gives a read-only view.)
  [[nodiscard]] Tensor<const T> diagonal(index_t offset = 0, index_t axis1 = 0,
                                         index_t axis2 = 1) const {
    Dimensions d = dims_.diagonal(offset, axis1, axis2);
    return const_view(std::move(d), detail::Frame::lost("diagonal"));
  }
  /// @copydoc Dimensions::reshape(IndexSpan) const
  [[nodiscard]] Tensor reshape(IndexSpan shape) {
    Dimensions d = dims_.reshape(shape);
    return view(std::move(d), frame_after("reshape", shape));
  }
  /// @copydoc Dimensions::reshape(IndexSpan) const
  /// (A const tensor gives a read-only view.)
  [[nodiscard]] Tensor<const T> reshape(IndexSpan shape) const {
    Dimensions d = dims_.reshape(shape);
    return const_view(std::move(d), frame_after("reshape", shape));
  }

  /// The real parts of a complex tensor's elements as a view, NumPy's `z.real`: a tensor of the
  /// real type over the same memory (`std::complex<F>` is an array of two F, so the view's map
  /// is this one's with every stride doubled), writable where this tensor is:
  /// `z.real() = x` sets the real parts and keeps the imaginary ones, `z.real().fill(0)` clears
  /// them. Its views, copies and expressions work as for any tensor; writing one of them while
  /// reading the other (`z.real() = strata::imag(z)`) reads from a copy first, as for any two
  /// views of one memory (Footprint). Indices, absolute ones included, are this tensor's.
  /// Over storage without an array (a generator, the caller's buffer) a part is read through
  /// its element, and writing one reads, changes and writes the element. A real tensor's real()
  /// is the tensor itself, as in NumPy.
  /// @code
  /// strata::Tensor<std::complex<double>> z = ...;
  /// z.real() = z.imag();      // NumPy: z.real = z.imag
  /// z.imag() *= -1.0;         // the conjugate, in place
  /// @endcode
  /// @return the view (`Tensor<F>`, or `Tensor<const F>` for a read-only tensor)
  [[nodiscard]] auto real() {
    if constexpr (is_complex_v<value_type>) {
      return part(0);
    } else {
      return Tensor(*this);
    }
  }
  /// The real parts, read-only (see real()).
  /// @return the view
  [[nodiscard]] Tensor<const real_t<value_type>> real() const {
    if constexpr (is_complex_v<value_type>) {
      return part(0);
    } else {
      return Tensor<const value_type>(*this);
    }
  }
  /// The imaginary parts of a complex tensor's elements as a view, NumPy's `z.imag`: as real(),
  /// one real further along. A real tensor's imag() is a read-only tensor of zeros of its shape
  /// (nothing stored), as in NumPy.
  /// @return the view (`Tensor<F>`, or `Tensor<const F>` for a read-only or real tensor)
  [[nodiscard]] auto imag() {
    if constexpr (is_complex_v<value_type>) {
      return part(1);
    } else {
      return zero_parts();
    }
  }
  /// The imaginary parts, read-only (see imag()).
  /// @return the view
  [[nodiscard]] Tensor<const real_t<value_type>> imag() const {
    if constexpr (is_complex_v<value_type>) {
      return part(1);
    } else {
      return zero_parts();
    }
  }

  // ---- absolute and relative indices ---------------------------------------------------------

  /// Whether the view's elements have absolute indices: true for tensors and for views made by
  /// slicing (integers, ranges with any step, `all`), flipping, transposing, squeezing and
  /// unsqueezing; false after a roll, a broadcast, a reshape or an index array, which have no
  /// affine relation to the parent's indices.
  /// @return true when origin(), steps() and indices() are defined
  [[nodiscard]] bool has_absolute_indices() const noexcept { return frame_.has_absolute(); }
  /// The absolute index of the view's first element in the tensor it was cut from: for
  /// `t.select({Range{2, 8, 3}, 1})`, `[2]`; all zeros for a tensor that is not a view.
  /// @return one index per axis
  /// @throws LayoutError when the view has relative indices only
  [[nodiscard]] Index origin() const {
    frame_.require_absolute("origin");
    return frame_.origin(static_cast<std::size_t>(rank()));
  }
  /// The same view with absolute indices that start at @p origin (steps of 1): a block of a
  /// larger index space (a tile of a distributed tensor, a piece of a layout) iterated with the
  /// indices of that space.
  /// @param origin one absolute index per axis
  /// @return the view (sharing the buffer)
  /// @throws ShapeError when @p origin has not one entry per axis
  [[nodiscard]] Tensor with_origin(IndexSpan origin) { return view(dims_, origin_frame(origin)); }
  /// The same view with absolute indices from @p origin (read-only for a const tensor).
  /// @param origin one absolute index per axis
  /// @return the view (sharing the buffer)
  /// @throws ShapeError when @p origin has not one entry per axis
  [[nodiscard]] Tensor<const T> with_origin(IndexSpan origin) const {
    return const_view(dims_, origin_frame(origin));
  }
  /// The step of the absolute index along each axis: absolute index k = `origin()[k] +
  /// steps()[k] * relative index k` (`t.select({Range{{}, {}, -2}})` has step -2).
  /// @return one step per axis
  /// @throws LayoutError when the view has relative indices only
  [[nodiscard]] Index steps() const {
    frame_.require_absolute("steps");
    return frame_.steps(static_cast<std::size_t>(rank()));
  }
  /// The absolute indices of the elements, row-major (as a shape view's indices()).
  /// @return a random-access range of Index
  /// @throws LayoutError when the view has relative indices only
  [[nodiscard]] IndexRange<Smooth> indices() const {
    frame_.require_absolute("indices");
    const auto r = static_cast<std::size_t>(rank());
    return IndexRange<Smooth>(Smooth(dims_.shape()), frame_.origin(r), frame_.steps(r), false);
  }
  /// The relative indices of the elements (from all zeros), row-major; defined for every view.
  /// @return a random-access range of Index
  [[nodiscard]] IndexRange<Smooth> offsets() const { return Smooth(dims_.shape()).offsets(); }
  // ---- elements ------------------------------------------------------------------------------

  /// Reads an element: `t(i, j)`. Over one array with a strided map (rank <= 6) this is a
  /// multiply-add per axis and a load; other tensors take an out-of-line path. Unchecked in
  /// release builds; with STRATA_CHECKED_ACCESS (on unless NDEBUG) a wrong rank or an index out
  /// of bounds throws IndexError.
  /// @param indices one index per axis, each in [0, extent)
  /// @return the element
  template <std::integral... I>
  [[nodiscard, gnu::always_inline]] value_type operator()(I... indices) const& {
    check_access(indices...);
    if constexpr (sizeof...(I) <= detail::DirectAccess<value_type>::max_rank) {
      if (const value_type* first = direct_.first; first != nullptr) [[likely]] {
        return first[direct_.offset_of(indices...)];
      }
    }
    return read(
        general_address(std::array<index_t, sizeof...(I)>{static_cast<index_t>(indices)...}));
  }
  /// A writable reference to an element: `t(i, j) = v`, `t(i, j) += v`. Checked as the
  /// reading overload.
  /// @param indices one index per axis, each in [0, extent)
  /// @return the reference (valid while this tensor is neither destroyed nor rebound)
  template <std::integral... I>
      [[nodiscard, gnu::always_inline]] reference operator()(I... indices) &
      requires(!std::is_const_v<T>) {
    check_access(indices...);
    if constexpr (sizeof...(I) <= detail::DirectAccess<value_type>::max_rank) {
      if (value_type* first = direct_.first_writable; first != nullptr) [[likely]] {
        return reference(first + direct_.offset_of(indices...));
      }
    }
    return general_reference(
        general_address(std::array<index_t, sizeof...(I)>{static_cast<index_t>(indices)...}));
  }
  /// A writable reference to an element of a temporary view: `t.select({0})(1) = v`. The
  /// reference shares ownership of the buffer.
  /// @param indices one index per axis, each in [0, extent)
  /// @return the reference
  template <std::integral... I>
      [[nodiscard]] ElementRef<value_type, true> operator()(I... indices) &&
      requires(!std::is_const_v<T>) {
    check_access(indices...);
    const std::array<index_t, sizeof...(I)> g{static_cast<index_t>(indices)...};
    const index_t address = address_of(IndexSpan(std::span<const index_t>(g)));
    return {AnyBuffer<value_type>(buffer_), address, dims_.aliases()};
  }

  /// Reads the element at a multi-index: `t(idx)`. Checked as `t(i, j)`.
  /// @param index one index per axis, each in [0, extent)
  /// @return the element
  [[nodiscard, gnu::always_inline]] value_type operator()(IndexSpan index) const& {
    check_access(index);
    if (const value_type* first = direct_.first;
        first != nullptr && index.size() <= detail::DirectAccess<value_type>::max_rank) [[likely]] {
      return first[direct_.offset_of(index)];
    }
    return read(address_of(index));
  }
  /// A writable reference to the element at a multi-index.
  /// @param index one index per axis, each in [0, extent)
  /// @return the reference (valid while this tensor is neither destroyed nor rebound)
  [[nodiscard, gnu::always_inline]] reference operator()(IndexSpan index) &
      requires(!std::is_const_v<T>) {
    check_access(index);
    if (value_type* first = direct_.first_writable;
        first != nullptr && index.size() <= detail::DirectAccess<value_type>::max_rank) [[likely]] {
      return reference(first + direct_.offset_of(index));
    }
    return general_reference(address_of(index));
  }
  /// A writable reference to the element at a multi-index of a temporary view.
  /// @param index one index per axis, each in [0, extent)
  /// @return the reference (shares ownership of the buffer)
  [[nodiscard]] ElementRef<value_type, true> operator()(IndexSpan index) &&
      requires(!std::is_const_v<T>) {
    check_access(index);
    const index_t address = address_of(index);
    return {AnyBuffer<value_type>(buffer_), address, dims_.aliases()};
  }

  /// Reads an element, checked; negative indices count from the end as in NumPy.
  /// @param index one index per axis, in [-extent, extent)
  /// @return the element
  /// @throws IndexError for a wrong number of indices or one out of bounds
  [[nodiscard]] value_type at(IndexSpan index) const& { return read(checked_address(index)); }
  /// A writable reference to an element, checked; negative indices count from the end.
  /// @param index one index per axis, in [-extent, extent)
  /// @return the reference (valid while this tensor is neither destroyed nor rebound)
  /// @throws IndexError for a wrong number of indices or one out of bounds
  [[nodiscard]] reference at(IndexSpan index) & requires(!std::is_const_v<T>) {
    return {data_, buffer_, checked_address(index), dims_.aliases()};
  }
  /// A writable reference to an element of a temporary view, checked.
  /// @param index one index per axis, in [-extent, extent)
  /// @return the reference (shares ownership of the buffer)
  /// @throws IndexError for a wrong number of indices or one out of bounds
  [[nodiscard]] ElementRef<value_type, true> at(IndexSpan index) && requires(!std::is_const_v<T>) {
    const index_t address = checked_address(index);
    return {AnyBuffer<value_type>(buffer_), address, dims_.aliases()};
  }

  /// Reads an element by its absolute index (the index origin() and steps() describe: a
  /// distributed tensor's tile answers to global indices, a layout's piece to logical ones):
  /// `tile.at_absolute({i, j})`.
  /// @param index one absolute index per axis
  /// @return the element
  /// @throws LayoutError when the view has relative indices only; IndexError for a wrong number
  ///         of indices or an index that is none of the view's elements' absolute indices
  [[nodiscard]] value_type at_absolute(IndexSpan index) const& {
    return read(absolute_address(index));
  }
  /// A writable reference to an element by its absolute index.
  /// @param index one absolute index per axis
  /// @return the reference (valid while this tensor is neither destroyed nor rebound)
  /// @throws LayoutError, IndexError as the reading overload
  [[nodiscard]] reference at_absolute(IndexSpan index) & requires(!std::is_const_v<T>) {
    return {data_, buffer_, absolute_address(index), dims_.aliases()};
  }

  // ---- range-for -----------------------------------------------------------------------------

  /// Iterator over a tensor's elements in row-major order, for range-for and `std::ranges`
  /// algorithms: `for (double x : t)`, `for (auto x : t) x = 0;`. A forward iterator; it
  /// refers to the tensor it came from, which must outlive it. Dereferencing gives a value
  /// (read-only tensors, `const` access) or an ElementRef (writable access, `x = v` writes
  /// through; on a broadcast view that write is a LayoutError). Each step is one odometer
  /// increment (an add for strided maps); the element-wise kernels (expressions,
  /// for_each_indexed, algorithms) are faster for whole-tensor work.
  /// @tparam Writable whether dereferencing gives an ElementRef
  template <bool Writable>
  class ElementIterator {
   public:
    /// The element type.
    using value_type = Tensor::value_type;
    /// Distance between positions.
    using difference_type = std::ptrdiff_t;
    /// Forward traversal.
    using iterator_concept = std::forward_iterator_tag;
    /// What dereferencing gives: ElementRef or a value.
    using reference = std::conditional_t<Writable, ElementRef<value_type>, value_type>;

    /// A singular iterator (compares equal to other default-constructed iterators only).
    ElementIterator() = default;

    /// The current element.
    /// @return an ElementRef (writable) or the value
    [[nodiscard]] reference operator*() const {
      if constexpr (Writable) {
        return reference(tensor_->data_, tensor_->buffer_, address_, tensor_->dims_.aliases());
      } else {
        return tensor_->read(address_);
      }
    }
    /// Moves to the next element in row-major order.
    /// @return this iterator
    ElementIterator& operator++() {
      if (++position_ < tensor_->size()) {
        step();
      }
      return *this;
    }
    /// Moves to the next element.
    /// @return the iterator before the step
    ElementIterator operator++(int) {
      ElementIterator old = *this;
      ++*this;
      return old;
    }
    /// Iterators over the same tensor are equal at the same position.
    /// @param a, b iterators
    /// @return true when equal
    friend bool operator==(const ElementIterator& a, const ElementIterator& b) noexcept {
      return a.position_ == b.position_;
    }

   private:
    friend class Tensor;
    ElementIterator(const Tensor* tensor, index_t position) : tensor_(tensor), position_(position) {
      if (position_ < tensor_->size()) {
        index_.assign(static_cast<std::size_t>(tensor_->rank()), 0);
        address_ = tensor_->dims_.global_to_local(index_);
      }
    }
    void step() {
      const std::span<const Axis> axes = tensor_->dims_.axes();
      const bool strided = tensor_->dims_.is_strided();
      for (std::size_t k = index_.size(); k-- > 0;) {
        if (++index_[k] < axes[k].extent) {
          address_ = strided ? address_ + axes[k].stride : tensor_->dims_.global_to_local(index_);
          return;
        }
        if (strided) {
          address_ -= (axes[k].extent - 1) * axes[k].stride;
        }
        index_[k] = 0;
      }
    }

    const Tensor* tensor_ = nullptr;
    index_t position_ = 0;
    index_t address_ = 0;
    Index index_;
  };

  /// The first element, writable (range-for over a writable tensor).
  /// @return an iterator whose elements are ElementRef (values for a read-only tensor)
  [[nodiscard]] ElementIterator<!std::is_const_v<T>> begin() & { return {this, 0}; }
  /// Past the last element.
  /// @return the end iterator
  [[nodiscard]] ElementIterator<!std::is_const_v<T>> end() & { return {this, size()}; }
  /// The first element, read-only.
  /// @return an iterator whose elements are values
  [[nodiscard]] ElementIterator<false> begin() const& { return {this, 0}; }
  /// Past the last element, read-only.
  /// @return the end iterator
  [[nodiscard]] ElementIterator<false> end() const& { return {this, size()}; }
  /// Iterators into a temporary would dangle: bind the view to a name (range-for does).
  void begin() && = delete;
  /// Iterators into a temporary would dangle.
  void end() && = delete;

  // ---- copies --------------------------------------------------------------------------------

  /// A dense, row-major copy (a new, writable buffer).
  /// @param policy seq or par
  /// @return the copy
  template <ExecutionPolicy P = Parallel>
  [[nodiscard]] Tensor<value_type> copy(const P& policy = P{}) const {
    Tensor<value_type> out = Tensor<value_type>::for_overwrite(shape());  // every element written
    copy_buffers(policy, out.buffer_, out.dims_, buffer_, dims_);
    return out;
  }

  /// Writes @p src into this view, broadcasting it (NumPy rules) to this shape.
  ///
  /// When @p src shares this tensor's memory (Footprint::overlaps: the same buffer, or another
  /// over the same bytes) it is copied first, so overlapping views assign as NumPy does.
  /// @param src the values
  /// @param policy seq or par
  /// @return this tensor
  /// @throws BroadcastError when src's shape does not broadcast to this shape; LayoutError when
  ///         several indices of this view share an address or the buffer is read-only. Nothing
  ///         is written then.
  template <ExecutionPolicy P = Parallel>
  Tensor& assign(const Tensor<const T>& src, const P& policy = P{}) requires(!std::is_const_v<T>) {
    check_writable("assign");
    const Index target = broadcast_shapes(src.shape(), shape(), "assign");
    if (target != shape()) {
      detail::fail<BroadcastError>("assign", "source shape ", to_string(src.shape()),
                                   " does not broadcast to the view's shape ", to_string(shape()));
    }
    const Tensor<const T> source = src.buffer_.footprint().overlaps(buffer_.footprint())
                                       ? Tensor<const T>(src.copy(policy))
                                       : src;
    copy_buffers(policy, buffer_, dims_, source.buffer_, source.dims_.broadcast(shape()));
    return *this;
  }

  /// Sets every element of this view to @p value.
  /// @param value the value
  /// @param policy seq or par
  /// @return this tensor
  /// @throws LayoutError when several indices of this view share an address or the buffer is
  ///         read-only
  template <ExecutionPolicy P = Parallel>
  Tensor& fill(const value_type& value, const P& policy = P{}) requires(!std::is_const_v<T>) {
    check_writable("fill");
    const Dimensions r = dims_.reduced();
    if (value_type* data = buffer_.data()) {
      parallel::for_each_part(policy, r.size(), [&](index_t begin, index_t end) {
        detail::walk_rows<1>({&r}, begin, end,
                             [&](const std::array<index_t, 1>& at,
                                 const std::array<index_t, 1>& stride, index_t count) {
                               value_type* out = data + at[0];
                               if (stride[0] == 1) {
                                 std::fill_n(out, count, value);
                               } else {
                                 for (index_t t = 0; t < count; ++t) {
                                   out[t * stride[0]] = value;
                                 }
                               }
                             });
      });
    } else {
      for_each_address(r, 0, r.size(), [&](index_t a) { buffer_.write(a, value); });
    }
    return *this;
  }

  /// The elements in row-major order.
  /// @return a vector of size()
  [[nodiscard]] std::vector<value_type> to_vector() const {
    std::vector<value_type> out;
    out.reserve(static_cast<std::size_t>(size()));
    if (const value_type* data = buffer_.data()) {
      for_each_address(dims_, 0, size(), [&](index_t a) { out.push_back(data[a]); });
    } else {
      for_each_address(dims_, 0, size(), [&](index_t a) { out.push_back(buffer_.read(a)); });
    }
    return out;
  }

  /// Equal shapes and equal elements.
  /// @param a, b tensors
  /// @return true when equal
  friend bool operator==(const Tensor& a, const Tensor& b) {
    return a.shape() == b.shape() && a.to_vector() == b.to_vector();
  }

 private:
  template <class U>
  friend class Tensor;

  [[nodiscard]] Tensor view(Dimensions dims, detail::Frame frame) const {
    Tensor out = *this;
    out.dims_ = std::move(dims);
    out.frame_ = std::move(frame);
    out.refresh_direct();
    return out;
  }
  [[nodiscard]] Tensor<const T> const_view(Dimensions dims, detail::Frame frame) const {
    Tensor<const T> out = *this;
    out.dims_ = std::move(dims);
    out.frame_ = std::move(frame);
    out.refresh_direct();
    return out;
  }
  /// A real tensor's imaginary parts: zeros of its shape, read-only, with its indices.
  [[nodiscard]] Tensor<const value_type> zero_parts() const {
    const Index shape = dims_.shape();
    Tensor<const value_type> out(AnyBuffer<value_type>(DenseBuffer<value_type>(1)),
                                 Dimensions(shape, Index(shape.size(), 0)));
    out.frame_ = frame_;
    return out;
  }
  /// Part @p which (0 real, 1 imaginary) of every element as a tensor of reals (real(), imag()).
  [[nodiscard]] auto part(index_t which) const requires is_complex_v<value_type> {
    using F = real_t<value_type>;
    const std::string_view operation = which == 0 ? "real" : "imag";
    Dimensions::Axes axes(dims_.axes().begin(), dims_.axes().end());
    for (Axis& a : axes) {
      a.stride = checked_mul(a.stride, index_t{2}, operation);
    }
    const index_t offset =
        checked_add(checked_mul(dims_.offset(), index_t{2}, operation), which, operation);
    Tensor<std::conditional_t<std::is_const_v<T>, const F, F>> out(
        detail::complex_parts(buffer_),
        Dimensions::from_axes(std::span<const Axis>(axes.data(), axes.size()), offset));
    out.frame_ = frame_;
    return out;
  }
  /// A permutation with negative entries counted from the end (validated by transpose).
  [[nodiscard]] Index resolved_permutation(IndexSpan permutation) const {
    Index out(permutation);
    for (index_t& p : out) {
      p = p < 0 ? p + rank() : p;
    }
    return out;
  }
  [[nodiscard]] Index reversed_axes() const {
    Index out(static_cast<std::size_t>(rank()));
    for (int k = 0; k < rank(); ++k) {
      out[static_cast<std::size_t>(k)] = rank() - 1 - k;
    }
    return out;
  }
  /// Flags for the axes listed (validated; negative counts from the end).
  [[nodiscard]] std::vector<bool> marked(IndexSpan axes) const {
    std::vector<bool> out(static_cast<std::size_t>(rank()), false);
    for (const index_t a : axes) {
      out[static_cast<std::size_t>(a < 0 ? a + rank() : a)] = true;
    }
    return out;
  }
  [[nodiscard]] std::vector<bool> unit_axes() const {
    std::vector<bool> out;
    for (const Axis& a : dims_.axes()) {
      out.push_back(a.extent == 1);
    }
    return out;
  }
  /// The frame after an operation that keeps it only when the shape does not change.
  [[nodiscard]] detail::Frame frame_after(const char* operation, IndexSpan shape) const {
    return std::equal(shape.begin(), shape.end(), dims_.axes().begin(), dims_.axes().end(),
                      [](index_t e, const Axis& a) { return e == a.extent; })
               ? frame_
               : detail::Frame::lost(operation);
  }

  [[nodiscard]] detail::Frame origin_frame(IndexSpan origin) const {
    if (std::cmp_not_equal(origin.size(), rank())) {
      detail::fail<ShapeError>("with_origin", "origin ", to_string(origin), " has ", origin.size(),
                               " entries for a tensor of rank ", rank());
    }
    return detail::Frame::at(origin);
  }

  void check_span(std::size_t n, std::string_view operation) const {
    if (std::cmp_not_equal(n, rank())) {
      detail::fail<ShapeError>(operation, "a span of rank ", n, " of a tensor of rank ", rank(),
                               " (shape ", to_string(shape()), ")");
    }
    if (data_ == nullptr) {
      detail::fail<LayoutError>(operation, "the buffer of the tensor of shape ", to_string(shape()),
                                " is not one array (a generator, sparse or user buffer); copy() "
                                "it first");
    }
    if (!dims_.is_strided()) {
      detail::fail<LayoutError>(operation, "the map ", dims_,
                                " is not strided (a roll, a tile or an index array); copy() it "
                                "first");
    }
  }

  template <class E, std::size_t N>
  [[nodiscard]] StridedSpan<E, N> make_span() const {
    std::array<index_t, N> extents{};
    std::array<index_t, N> strides{};
    const std::span<const Axis> axes = dims_.axes();
    for (std::size_t k = 0; k < N; ++k) {
      extents[k] = axes[k].extent;
      strides[k] = axes[k].stride;
    }
    return {first_element(), extents, strides};
  }

  [[nodiscard]] value_type* first_element() const noexcept {
    return data_ == nullptr || !dims_.is_strided() || dims_.size() == 0 ? nullptr
                                                                        : data_ + dims_.offset();
  }

  [[nodiscard]] value_type read(index_t address) const {
    return data_ != nullptr ? data_[address]
                            : detail::read_element<value_type>(buffer_.identity(), address);
  }

  /// With STRATA_CHECKED_ACCESS (on unless NDEBUG): throws IndexError unless @p g has one index
  /// per axis, each in [0, extent). Nothing otherwise.
  void check_access(IndexSpan g) const {
    if constexpr (STRATA_CHECKED_ACCESS) {
      bool valid = std::cmp_equal(g.size(), rank());
      for (std::size_t k = 0; valid && k < g.size(); ++k) {
        valid = g[k] >= 0 && g[k] < dims_.axes()[k].extent;
      }
      if (!valid) {
        detail::bad_access("operator()", g, shape());
      }
    } else {
      (void)g;
    }
  }
  template <std::integral... I>
  void check_access(I... indices) const {
    if constexpr (STRATA_CHECKED_ACCESS) {
      const std::array<index_t, sizeof...(I)> g{static_cast<index_t>(indices)...};
      check_access(IndexSpan(std::span<const index_t>(g)));
    } else {
      ((void)indices, ...);
    }
  }

  /// Refreshes direct_ from the map and the buffer (after either changes).
  void refresh_direct() noexcept {
    using Direct = detail::DirectAccess<value_type>;
    direct_ = Direct{};
    const std::span<const Axis> axes = dims_.axes();
    value_type* first = first_element();
    if (first == nullptr || axes.size() > Direct::max_rank) {
      return;
    }
    direct_.first = first;
    direct_.first_writable = dims_.aliases() ? nullptr : first;
    for (std::size_t k = 0; k < axes.size(); ++k) {
      direct_.strides[k] = axes[k].stride;
    }
  }

  /// The address of element @p g through the general map (rolls, tiles, index arrays, ranks
  /// above DirectAccess::max_rank): out of line, cold and pure (it changes nothing), so loops
  /// over arrays carry no call that could change the tensor.
  template <std::size_t N>
  [[nodiscard, gnu::noinline, gnu::cold, gnu::pure]] index_t general_address(
      std::array<index_t, N> g) const noexcept {
    return address_of(IndexSpan(std::span<const index_t>(g)));
  }
  /// A reference to element @p g off the fast path. It carries no element pointer, even into
  /// an array: every access through it is then a call, and the compiler, knowing that a
  /// reference from the fast path never makes one, keeps the tensor's fields in registers
  /// across a loop of `t(i, j) = ...` (measured: 2x faster than handing out the pointer here).
  [[nodiscard]] reference general_reference(index_t address) const noexcept {
    return {nullptr, buffer_, address, dims_.aliases()};
  }

  /// The buffer address of element @p g (unchecked): strides for a strided map, the general
  /// map otherwise.
  [[nodiscard]] index_t address_of(IndexSpan g) const noexcept {
    if (dims_.is_strided()) {
      const std::span<const Axis> axes = dims_.axes();
      index_t address = dims_.offset();
      for (std::size_t k = 0; k < g.size(); ++k) {
        address += g[k] * axes[k].stride;
      }
      return address;
    }
    return dims_.global_to_local(g);
  }

  [[nodiscard]] index_t checked_address(IndexSpan index) const {
    if (std::cmp_not_equal(index.size(), rank())) {
      detail::fail<IndexError>("at", "index ", to_string(index), " has ", index.size(),
                               " entries for a tensor of rank ", rank(), " (shape ",
                               to_string(shape()), ")");
    }
    Index g(index);
    const Index extents = shape();
    for (std::size_t k = 0; k < g.size(); ++k) {
      if (g[k] < -extents[k] || g[k] >= extents[k]) {
        detail::fail<IndexError>("at", "index ", to_string(index), " is out of bounds on axis ", k,
                                 " (shape ", to_string(extents), ")");
      }
      g[k] = g[k] < 0 ? g[k] + extents[k] : g[k];
    }
    return dims_.global_to_local(g);
  }

  [[nodiscard]] index_t absolute_address(IndexSpan index) const {
    frame_.require_absolute("at_absolute");
    const auto r = static_cast<std::size_t>(rank());
    if (index.size() != r) {
      detail::fail<IndexError>("at_absolute", "index ", to_string(index), " has ", index.size(),
                               " entries for a tensor of rank ", r);
    }
    const Index origin = frame_.origin(r);
    const Index steps = frame_.steps(r);
    const Index extents = shape();
    Index position(r);
    for (std::size_t k = 0; k < r; ++k) {
      const index_t d = index[k] - origin[k];
      const index_t step = steps[k];
      const index_t i = step == 0 ? (d == 0 ? 0 : -1) : (d % step == 0 ? d / step : -1);
      if (i < 0 || i >= extents[k]) {
        detail::fail<IndexError>("at_absolute", "index ", to_string(index),
                                 " is not an absolute index of the view (origin ",
                                 to_string(origin), ", steps ", to_string(steps), ", shape ",
                                 to_string(extents), ")");
      }
      position[k] = i;
    }
    return dims_.global_to_local(position);
  }

  void check_writable(std::string_view operation) const {
    if (dims_.aliases()) {
      detail::fail<LayoutError>(operation, "cannot write through the view ", dims_,
                                ": several of its indices share one address (a broadcast "
                                "view, repeated index-array entries or overlapping strides)");
    }
    if (!buffer_.writable()) {
      detail::fail<LayoutError>(
          operation,
          "the buffer is read-only: a generator (zeros, ones, full, iota, random) computes its "
          "values and stores none; write into a stored copy (t = t.copy()) or a new "
          "Tensor<T>(shape), which starts at 0 as np.zeros does");
    }
  }

  void check_fits(std::string_view operation) const {
    if (size() == 0) {
      return;
    }
    const auto [lo, hi] = dims_.address_range();
    if (lo < 0 || hi >= buffer_.size()) {
      detail::fail<IndexError>(operation, "the map ", dims_, " reads addresses [", lo, ", ", hi,
                               "] outside the buffer of size ", buffer_.size());
    }
  }

  template <class List>
  static void shape_of(const List& list, Index& shape, std::size_t depth) {
    const auto n = static_cast<index_t>(list.size());
    if (shape.size() <= depth) {
      shape.push_back(n);
    } else if (shape[depth] != n) {
      detail::fail<ShapeError>("Tensor", "ragged nested list: depth ", depth, " has lengths ",
                               shape[depth], " and ", n);
    }
    if constexpr (!std::is_same_v<typename List::value_type, value_type>) {
      if (list.size() == 0 && shape.size() <= depth + 1) {
        shape.push_back(0);
      }
      for (const auto& inner : list) {
        shape_of(inner, shape, depth + 1);
      }
    }
  }

  template <class List>
  static void flatten(const List& list, std::vector<value_type>& out) {
    if constexpr (std::is_same_v<typename List::value_type, value_type>) {
      out.insert(out.end(), list.begin(), list.end());
    } else {
      for (const auto& inner : list) {
        flatten(inner, out);
      }
    }
  }

  template <class List>
  static Tensor nested(const List& list) {
    Index shape;
    shape_of(list, shape, 0);
    std::vector<value_type> values;
    flatten(list, values);
    return from_vector(std::move(values), shape);
  }

  Dimensions dims_;
  AnyBuffer<value_type> buffer_;
  value_type* data_ = nullptr;  // buffer_.data(), kept so element access makes no virtual call
  detail::DirectAccess<value_type> direct_;  // element access's fast path (refresh_direct)
  detail::Frame frame_;
};

}  // namespace strata
