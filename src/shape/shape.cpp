// The type-erased Shape: its default value and the names of the held types.
#include "strata/shape/shape.hpp"

#include "strata/shape/jagged.hpp"
#include "strata/shape/nested.hpp"

namespace strata {

Shape::Shape() : Shape(Smooth{}) {}

Shape detail::plain_shape(const Shape& shape) {
  if (shape.is<SmoothView>()) {
    return shape.as<SmoothView>().shape();
  }
  if (shape.is<JaggedView>()) {
    return shape.as<JaggedView>().shape();
  }
  if (shape.is<Nested>()) {
    return plain_shape(shape.as<Nested>().flatten());
  }
  if (shape.is<NestedView>()) {
    return plain_shape(shape.as<NestedView>().flatten());
  }
  return shape;
}

std::string Shape::kind() const {
  if (is<Smooth>()) {
    return "Smooth";
  }
  if (is<SmoothView>()) {
    return "SmoothView";
  }
  if (is<Jagged>()) {
    return "Jagged";
  }
  if (is<JaggedView>()) {
    return "JaggedView";
  }
  if (is<Nested>()) {
    return "Nested";
  }
  if (is<NestedView>()) {
    return "NestedView";
  }
  return model_->type().name();
}

}  // namespace strata
