/// @file
/// strata::Shape: the type-erased value that holds any shape or shape view.
#pragma once

#include "strata/core/error.hpp"
#include "strata/shape/shape_api.hpp"
#include "strata/shape/shape_fwd.hpp"
#include "strata/shape/smooth.hpp"

#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace strata {

namespace detail {

/// The virtual interface behind Shape: the primitives of ShapeAPI plus slice and chip.
class ShapeConcept {
 public:
  ShapeConcept() = default;
  ShapeConcept(const ShapeConcept&) = delete;
  ShapeConcept& operator=(const ShapeConcept&) = delete;
  virtual ~ShapeConcept() = default;
  [[nodiscard]] virtual int rank() const = 0;
  [[nodiscard]] virtual index_t size() const = 0;
  [[nodiscard]] virtual Index origin() const = 0;
  [[nodiscard]] virtual index_t uniform_extent(int mode) const = 0;
  virtual void unravel(index_t position, std::span<index_t> offset) const = 0;
  virtual bool advance(std::span<index_t> offset) const = 0;
  [[nodiscard]] virtual index_t run_length(std::span<const index_t> offset) const = 0;
  [[nodiscard]] virtual index_t ravel(IndexSpan offset) const = 0;
  [[nodiscard]] virtual bool contains_offset(IndexSpan offset) const = 0;
  [[nodiscard]] virtual Shape slice(IndexSpan lo, IndexSpan hi) const = 0;
  [[nodiscard]] virtual Shape chip(int mode, index_t i) const = 0;
  virtual void print(std::ostream& out) const = 0;
  [[nodiscard]] virtual bool same_as(const ShapeConcept& other) const = 0;
  [[nodiscard]] virtual const std::type_info& type() const noexcept = 0;
  [[nodiscard]] virtual const void* get() const noexcept = 0;
};

template <class S>
class ShapeModel;

}  // namespace detail

/// Any shape or shape view, as one copyable, comparable, printable value.
///
/// Shape satisfies ShapeLike itself (it has the whole ShapeAPI), so code that takes a Shape works
/// on smooth, jagged and nested shapes alike. It shares the held shape (copying a Shape bumps a
/// reference count; shapes are immutable, so sharing is safe between threads). `is<T>()` asks
/// what it holds, `as<T>()` gets it back, `visit(f)` calls `f` with the held shape.
///
/// @code
/// strata::Shape s = strata::Jagged{strata::Smooth{3}, strata::Smooth{1}};
/// s.is<strata::Jagged>();       // true
/// s.size();                     // 4
/// s.visit([](const auto& concrete) { return concrete.rank(); });  // 2
/// s.as<strata::Smooth>();       // throws ShapeError: holds Jagged[2]{[3] [1]}
/// @endcode
class Shape : public ShapeAPI<Shape> {
 public:
  /// The rank-0 scalar shape.
  Shape();
  /// Holds a copy of @p shape.
  /// @param shape any shape or view
  template <class S>
  requires(!std::is_same_v<std::remove_cvref_t<S>, Shape>)
      // NOLINTNEXTLINE(google-explicit-constructor): any shape is usable where a Shape is.
      Shape(S&& shape)
      : model_(
            std::make_shared<detail::ShapeModel<std::remove_cvref_t<S>>>(std::forward<S>(shape))) {}

  /// Whether the held shape is a @p T.
  /// @tparam T Smooth, SmoothView, Jagged, JaggedView, Nested or NestedView
  /// @return true when it is
  template <class T>
  [[nodiscard]] bool is() const noexcept {
    return model_->type() == typeid(T);
  }
  /// The held shape as a @p T.
  /// @tparam T the type it holds
  /// @return a reference valid while this Shape (or a copy of it) lives
  /// @throws ShapeError when it holds another type
  template <class T>
  [[nodiscard]] const T& as() const {
    if (!is<T>()) {
      detail::fail<ShapeError>("Shape::as", "the shape holds ", kind(), " ", to_string(),
                               ", not the type asked for");
    }
    return *static_cast<const T*>(model_->get());
  }
  /// Calls @p f with the held shape (as its concrete type).
  /// @param f a callable taking each of the six shape types
  /// @return what @p f returns
  template <class F>
  decltype(auto) visit(F&& f) const {
    return visit_as<F, Smooth, SmoothView, Jagged, JaggedView, Nested, NestedView>(f);
  }
  /// The name of the held type: "Smooth", "SmoothView", "Jagged", ...
  /// @return the name
  [[nodiscard]] std::string kind() const;

  /// @copydoc Smooth::rank
  [[nodiscard]] int rank() const { return model_->rank(); }
  /// @copydoc Smooth::size
  [[nodiscard]] index_t size() const { return model_->size(); }
  /// The first absolute index of the held shape.
  /// @return the origin
  [[nodiscard]] Index origin() const { return model_->origin(); }
  /// A slice of the held shape (see the held type's slice).
  /// @param lo first absolute index of the box, per mode the held type slices
  /// @param hi one past the last
  /// @return the view, as a Shape
  /// @throws IndexError as the held type's slice
  [[nodiscard]] Shape slice(IndexSpan lo, IndexSpan hi) const { return model_->slice(lo, hi); }
  /// A chip of the held shape (see the held type's chip).
  /// @param mode the mode to drop
  /// @param i the absolute index along it
  /// @return the view, as a Shape
  /// @throws IndexError as the held type's chip
  [[nodiscard]] Shape chip(int mode, index_t i) const { return model_->chip(mode, i); }

  /// @copydoc Smooth::uniform_extent
  [[nodiscard]] index_t uniform_extent(int mode) const { return model_->uniform_extent(mode); }
  /// @copydoc Smooth::unravel
  void unravel(index_t position, std::span<index_t> offset) const {
    model_->unravel(position, offset);
  }
  /// @copydoc Smooth::advance
  bool advance(std::span<index_t> offset) const { return model_->advance(offset); }
  /// @copydoc Smooth::run_length
  [[nodiscard]] index_t run_length(std::span<const index_t> offset) const {
    return model_->run_length(offset);
  }
  /// @copydoc Smooth::ravel
  [[nodiscard]] index_t ravel(IndexSpan offset) const { return model_->ravel(offset); }
  /// @copydoc Smooth::contains_offset
  [[nodiscard]] bool contains_offset(IndexSpan offset) const {
    return model_->contains_offset(offset);
  }
  /// Primitive: prints the held shape.
  /// @param out the stream
  void print(std::ostream& out) const { model_->print(out); }
  /// Primitive: same held type and equal values.
  /// @param other a Shape
  /// @return whether they are equal
  [[nodiscard]] bool same_as(const Shape& other) const {
    return model_ == other.model_ || model_->same_as(*other.model_);
  }

 private:
  template <class F, class T, class... Rest>
  decltype(auto) visit_as(F& f) const {
    if constexpr (sizeof...(Rest) == 0) {
      return f(as<T>());
    } else {
      if (is<T>()) {
        return f(*static_cast<const T*>(model_->get()));
      }
      return visit_as<F, Rest...>(f);
    }
  }

  std::shared_ptr<const detail::ShapeConcept> model_;
};

namespace detail {

/// The shape without an origin: a view becomes the shape it views, a nested shape its
/// flattened shape (so the result is Smooth or Jagged).
Shape plain_shape(const Shape& shape);

/// Forwards the virtual interface to a concrete shape.
template <class S>
class ShapeModel final : public ShapeConcept {
 public:
  explicit ShapeModel(S shape) : shape_(std::move(shape)) {}
  [[nodiscard]] int rank() const override { return shape_.rank(); }
  [[nodiscard]] index_t size() const override { return shape_.size(); }
  [[nodiscard]] Index origin() const override { return shape_.origin(); }
  [[nodiscard]] index_t uniform_extent(int mode) const override {
    return shape_.uniform_extent(mode);
  }
  void unravel(index_t position, std::span<index_t> offset) const override {
    shape_.unravel(position, offset);
  }
  bool advance(std::span<index_t> offset) const override { return shape_.advance(offset); }
  [[nodiscard]] index_t run_length(std::span<const index_t> offset) const override {
    return shape_.run_length(offset);
  }
  [[nodiscard]] index_t ravel(IndexSpan offset) const override { return shape_.ravel(offset); }
  [[nodiscard]] bool contains_offset(IndexSpan offset) const override {
    return shape_.contains_offset(offset);
  }
  [[nodiscard]] Shape slice(IndexSpan lo, IndexSpan hi) const override {
    return Shape(shape_.slice(lo, hi));
  }
  [[nodiscard]] Shape chip(int mode, index_t i) const override {
    return Shape(shape_.chip(mode, i));
  }
  void print(std::ostream& out) const override { shape_.print(out); }
  [[nodiscard]] bool same_as(const ShapeConcept& other) const override {
    return other.type() == typeid(S) && shape_.same_as(*static_cast<const S*>(other.get()));
  }
  [[nodiscard]] const std::type_info& type() const noexcept override { return typeid(S); }
  [[nodiscard]] const void* get() const noexcept override { return &shape_; }

 private:
  S shape_;
};

}  // namespace detail
}  // namespace strata
