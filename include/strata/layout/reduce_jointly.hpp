/// @file
/// Joint reduction of two maps of one shape (a copy's destination and source).
#pragma once

#include "strata/layout/dimensions.hpp"

#include <span>
#include <utility>
#include <vector>

namespace strata {

/// Reduces a destination and a source map of the same shape together, for element-wise
/// kernels (copy, assign) where the visiting order is free but the pairing is not.
///
/// Like NumPy's nditer: axes of extent 1 go; the axes are ordered by the destination's |stride|
/// (largest first, so the innermost loop writes contiguously); plain axes whose strides are
/// negative in both maps are flipped; adjacent axes merge where both maps allow (coalesce()).
/// Both results have the same shape, and for every joint index they address the same
/// (destination, source) pair as some index of the inputs; every pair appears exactly once.
///
/// @param dst the destination map
/// @param src the source map, of the same shape
/// @return the reduced (destination, source) pair
/// @throws ShapeError when the shapes differ
///
/// @code
/// auto [d, s] = strata::reduce_jointly(Dimensions{4, 5}, Dimensions{4,
/// 5}.transpose().transpose());
/// // d and s are both {shape [20] strides [1] offset 0}
/// @endcode
std::pair<Dimensions, Dimensions> reduce_jointly(const Dimensions& dst, const Dimensions& src);

/// reduce_jointly() of any number of maps of one shape: the first is the destination (its
/// strides order the axes); an axis is flipped when it runs backwards in every map, and
/// adjacent axes merge where every map allows it. Expression evaluation reduces the
/// destination and all its sources this way.
/// @param maps the maps, all of one shape (the destination first)
/// @return the reduced maps, in the same order
/// @throws ShapeError when the shapes differ
std::vector<Dimensions> reduce_jointly(std::span<const Dimensions> maps);

}  // namespace strata
