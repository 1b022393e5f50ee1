/// @file
/// Forward declarations of the shape vocabulary (smooth, jagged and nested shapes, their views,
/// and the type-erased Shape), for headers that only name them.
#pragma once

namespace strata {

class Smooth;
class SmoothView;
class Jagged;
class JaggedView;
class Nested;
class NestedView;
class Shape;

}  // namespace strata
