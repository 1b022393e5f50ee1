/// @file
/// Regions of a global index space given as views: a box sliced with any step, transposed,
/// reversed, rotated or read through index arrays, as a Tensor view would be (no MPI here: a
/// region is a plain value; DistTensor gets, puts and accumulates through it).
#pragma once

#include "strata/core/index.hpp"
#include "strata/layout/selector.hpp"

#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace strata::dist {

/// Global indices along one axis: `start, start + step, ...`, `count` of them (`step` is any
/// sign; 0 only when `count` is 1).
struct Run {
  index_t start = 0;  ///< the first global index
  index_t step = 1;   ///< between consecutive ones
  index_t count = 0;  ///< how many
};

/// A view of a global index space `[0, space)`: which global index each index of the view
/// stands for. It starts as the whole space and changes with the view operations of
/// strata::Tensor, with the same names, arguments, NumPy semantics and errors: select (integers,
/// ranges with any step, `all`, index arrays), transpose, reverse and rotate. Along each axis of
/// the view the global indices are a few runs (an arithmetic progression each: one for a
/// slice, two after a rotation, one per stretch of an index array), and the axes are
/// independent, so a region is a product of runs: DistTensor moves each product of runs as
/// one strided box per tile, described to MPI by datatypes.
///
/// @code
/// using strata::dist::Region;
/// Region r = Region(strata::Index{8, 10})          // the space of an 8 x 10 tensor
///                .select({strata::Range{1, 7, 2}, strata::all})   // rows 1, 3, 5
///                .transpose()                      // 10 x 3: (j, i) stands for (i, j)
///                .reverse(strata::Index{0});       // columns from 9 down to 0
/// r.shape();                        // [10 3]
/// r.global(strata::Index{0, 2});    // [5 9]
/// @endcode
class Region {
 public:
  /// One axis of the view: the global axis it walks and its runs, in view order.
  struct Axis {
    index_t global = 0;     ///< the global axis
    std::vector<Run> runs;  ///< the global indices, in the order of the view's indices
  };

  /// The whole space, each view axis its global axis.
  /// @param space the global extents
  /// @throws ShapeError for a negative extent
  explicit Region(IndexSpan space);

  /// The global extents.
  /// @return one extent per global axis
  [[nodiscard]] const Index& space() const noexcept { return space_; }
  /// The view's extents.
  /// @return one extent per view axis
  [[nodiscard]] Index shape() const;
  /// The number of view axes.
  /// @return the rank
  [[nodiscard]] int rank() const noexcept { return static_cast<int>(axes_.size()); }
  /// The view's axes.
  /// @return one per view axis
  [[nodiscard]] const std::vector<Axis>& axes() const noexcept { return axes_; }
  /// The global axes an integer selector dropped, and their index.
  /// @return per global axis, its fixed index, or -1 when a view axis walks it
  [[nodiscard]] const Index& fixed() const noexcept { return fixed_; }

  /// Selects per axis as Tensor::select: an integer drops its axis, a Range slices it with any
  /// step, an index array reads it in the array's order.
  /// @param selectors one per leading axis (missing ones are `all`)
  /// @return the region
  /// @throws IndexError as Dimensions::select (an integer or an index-array entry out of range,
  ///         a step of 0, too many selectors)
  [[nodiscard]] Region select(std::initializer_list<Selector> selectors) const;
  /// @copydoc select(std::initializer_list<Selector>) const
  [[nodiscard]] Region select(std::span<const Selector> selectors) const;
  /// Reorders the axes: axis k of the result is axis `permutation[k]` of this region.
  /// @param permutation a permutation of 0..rank-1
  /// @return the region
  /// @throws ShapeError when it is not a permutation
  [[nodiscard]] Region transpose(IndexSpan permutation) const;
  /// Reverses the order of the axes.
  /// @return the region
  [[nodiscard]] Region transpose() const;
  /// Reverses the order of the indices along @p axes (`np.flip`).
  /// @param axes the axes (negative counts from the end)
  /// @return the region
  /// @throws IndexError for an axis that does not exist; ShapeError for one named twice
  [[nodiscard]] Region reverse(IndexSpan axes) const;
  /// Rolls one axis (`np.roll(r, shift, axis)`): index i stands for what index
  /// `(i - shift) mod n` stood for.
  /// @param shift any sign and size
  /// @param axis the axis (negative counts from the end)
  /// @return the region
  /// @throws IndexError for an axis that does not exist
  [[nodiscard]] Region rotate(index_t shift, index_t axis) const;

  /// The global index a view index stands for.
  /// @param index one index per view axis, inside shape()
  /// @return one index per global axis
  /// @throws IndexError for an index of the wrong rank or outside the shape
  [[nodiscard]] Index global(IndexSpan index) const;
  /// The number of products of runs (the pieces DistTensor moves one by one).
  /// @return the product over the axes of their number of runs (1 for rank 0)
  [[nodiscard]] index_t n_pieces() const;
  /// A description: the space and, per view axis, its global axis and runs.
  /// @return e.g. `Region{space [8 10]: axis 1 <9 -1 x10>, axis 0 <1 2 x3>}`
  [[nodiscard]] std::string to_string() const;

 private:
  Region() = default;
  Index space_;
  std::vector<Axis> axes_;
  Index fixed_;
};

}  // namespace strata::dist
