/// @file
/// The shape vocabulary in one include, and the compile-time proof that every shape and every
/// view satisfies ShapeLike (so values and views cannot grow different APIs).
#pragma once

#include "strata/shape/combine.hpp"
#include "strata/shape/index_range.hpp"
#include "strata/shape/jagged.hpp"
#include "strata/shape/nested.hpp"
#include "strata/shape/shape.hpp"
#include "strata/shape/shape_api.hpp"
#include "strata/shape/smooth.hpp"

namespace strata {

static_assert(ShapeLike<Smooth>);
static_assert(ShapeLike<SmoothView>);
static_assert(ShapeLike<Jagged>);
static_assert(ShapeLike<JaggedView>);
static_assert(ShapeLike<Nested>);
static_assert(ShapeLike<NestedView>);
static_assert(ShapeLike<Shape>);

}  // namespace strata
