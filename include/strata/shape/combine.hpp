/// @file
/// strata::combine: the shape of a tensor expression written with mode labels, as
/// numpy.einsum writes it ("ij,jk->ik").
#pragma once

#include "strata/shape/jagged.hpp"
#include "strata/shape/shape.hpp"

#include <span>
#include <string_view>
#include <vector>

namespace strata {

/// The shape of the result of a labelled tensor expression (NumPy einsum notation).
///
/// Each input gets one label (a letter) per mode; a label repeated across inputs (or within
/// one) names one mode, whose extents must agree; the output lists the labels it keeps, in
/// order (labels left out are contracted). Without "->" the output is, as in NumPy, the labels
/// that occur once, in alphabetical order. `"ij,jk->ik"` is a matrix product, `"ij->ji"` a
/// transpose, `"i,j->ij"` an outer product.
///
/// One input may be jagged (with smooth rows) when the result is well defined: its outer labels
/// lead the output, in order; each row then gives one row of the result. The result is Jagged
/// when its rows differ and Smooth when they are all equal (a jagged matrix summed over its
/// rows, `"ij->i"`, is Smooth[rows]). Origins are ignored: views combine as their extents.
///
/// @code
/// strata::combine("ij,jk->ik", strata::Smooth{2, 3}, strata::Smooth{3, 5});   // Smooth[2 5]
/// strata::combine("ij,k->ijk", strata::Jagged::from_lengths({1, 2}), strata::Smooth{4});
///                                                     // Jagged[2]{[1 4] [2 4]}
/// @endcode
/// @param spec the labels, for example "ij,jk->ik"
/// @param inputs the shapes, one per input term
/// @return the result's shape
/// @throws ShapeError for a malformed spec, labels that do not match an input's rank, equal
///         labels with different extents, an output label no input has, or a jagged input whose
///         result is not well defined (outer labels not leading the output, two jagged inputs,
///         jagged rows)
Shape combine(std::string_view spec, std::span<const Shape> inputs);

/// combine() for shapes given as arguments.
/// @param spec the labels, for example "ij,jk->ik"
/// @param inputs the shapes (any shape or view)
/// @return the result's shape
/// @throws ShapeError as combine(std::string_view, std::span<const Shape>)
template <class... S>
Shape combine(std::string_view spec, const S&... inputs) {
  const std::vector<Shape> shapes{Shape(inputs)...};
  return combine(spec, std::span<const Shape>(shapes));
}

}  // namespace strata
