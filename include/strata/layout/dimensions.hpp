/// @file
/// strata::Dimensions: the map from N-d global indices to linear buffer addresses, and its views.
#pragma once

#include "strata/core/index.hpp"
#include "strata/layout/axis.hpp"
#include "strata/layout/selector.hpp"
#include "strata/layout/signature.hpp"

#include <boost/container/small_vector.hpp>

#include <initializer_list>
#include <iosfwd>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace strata {

/// Maps an N-d global index to a local (linear) buffer address, and back.
///
/// Per axis it holds an extent, a stride (any sign; 0 broadcasts), an optional index array, a
/// rotation and a cycle (see Axis); plus a base offset. Global indices are linearised row-major.
/// Every view operation is a const member that returns a new Dimensions in O(rank) (O(rank +
/// that axis's length) where an index-array axis has to be rebuilt) and never touches data.
///
/// @code
/// strata::Dimensions d{2, 3};                 // {shape [2 3] strides [3 1] offset 0}
/// auto t = d.transpose({1, 0});               // {shape [3 2] strides [1 3] offset 0}
/// auto r = d.select({strata::all, strata::Range{{}, {}, -1}});  // columns reversed
/// r.global_to_local({0, 0});                  // 2
/// @endcode
///
/// @image html dims_slice.svg "the map of t[1:3, ::-2]: each index's buffer address"
///
/// Const Dimensions are safe to share between threads. Design page: @ref dimensions_page.
class Dimensions {
 public:
  /// The per-axis storage (no heap for rank <= 6).
  using Axes = boost::container::small_vector<Axis, 6>;

  /// The rank-0 (scalar) map: one element at address 0.
  Dimensions() = default;

  /// A row-major map of a shape, for example `Dimensions{3, 4}` (strides `[4 1]`).
  /// @param shape the extents
  /// @throws ShapeError for a negative extent or a size that overflows int64
  Dimensions(std::initializer_list<index_t> shape);

  /// A row-major map of a shape.
  /// @param shape the extents
  /// @throws ShapeError for a negative extent or a size that overflows int64
  explicit Dimensions(IndexSpan shape);

  /// A strided map: the address of `g` is `offset + sum(g[k] * strides[k])`.
  /// @param shape the extents
  /// @param strides one stride per axis, any sign
  /// @param offset the address of the first element
  /// @throws ShapeError when the lengths differ, an extent is negative, or the size or an
  ///         address overflows int64
  Dimensions(IndexSpan shape, IndexSpan strides, index_t offset = 0);

  /// Builds from axes (validated, then normalised).
  /// @param axes the axes; see Axis for their meaning
  /// @param offset the base offset
  /// @return the map
  /// @throws ShapeError when an axis is inconsistent (negative extent or cycle, rotation outside
  ///         [0, cycle), cycle that is not the index array's length, index array of a zero cycle),
  ///         or when the size, the lowest or highest address, or the distance between them
  ///         overflows int64
  static Dimensions from_axes(std::span<const Axis> axes, index_t offset);

  // ---- what it is ----------------------------------------------------------------------------

  /// The number of axes.
  /// @return the rank
  [[nodiscard]] int rank() const noexcept { return static_cast<int>(axes_.size()); }
  /// The extents a user sees (broadcast extents included).
  /// @return one extent per axis
  [[nodiscard]] Index shape() const;
  /// The strides.
  /// @return one stride per axis
  [[nodiscard]] Index strides() const;
  /// The base offset: the address of global index 0 before rotation and index arrays.
  /// @return the offset
  [[nodiscard]] index_t offset() const noexcept { return offset_; }
  /// The number of global indices: the product of the extents.
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return size_; }
  /// The axes.
  /// @return a span over the axes, axis 0 first
  [[nodiscard]] std::span<const Axis> axes() const noexcept { return {axes_.data(), axes_.size()}; }
  /// Axis @p k.
  /// @param k an axis in [0, rank); negative counts from the end
  /// @return the axis
  /// @throws IndexError when the axis does not exist
  [[nodiscard]] const Axis& axis(index_t k) const;

  // ---- views ---------------------------------------------------------------------------------

  /// Selects per axis, as NumPy's basic indexing plus per-axis index arrays (`np.ix_` style).
  ///
  /// Selectors apply to the leading axes; missing ones are `all`. An integer drops its axis.
  /// @param selectors one per leading axis
  /// @return the view
  /// @throws IndexError for more selectors than axes, an integer outside [-n, n), a Range with
  ///         step 0, or an index-array entry outside [0, n)
  [[nodiscard]] Dimensions select(std::initializer_list<Selector> selectors) const;
  /// @copydoc select(std::initializer_list<Selector>) const
  [[nodiscard]] Dimensions select(std::span<const Selector> selectors) const;

  /// Reorders axes: axis k of the result is axis `permutation[k]` of this map.
  /// @param permutation a permutation of 0..rank-1
  /// @return the view
  /// @throws ShapeError when the argument is not a permutation of 0..rank-1
  [[nodiscard]] Dimensions transpose(IndexSpan permutation) const;
  /// Reverses the order of the axes (NumPy's `.T`).
  /// @return the view
  [[nodiscard]] Dimensions transpose() const;

  /// Broadcasts to a shape of at least this rank.
  ///
  /// New leading axes repeat everything (stride 0). An existing axis keeps its extent, or grows
  /// to a multiple of it by tiling (`numpy.tile`; from extent 1 that is NumPy broadcasting); it
  /// may become 0 only from extent 0 or 1.
  /// @param shape the target extents
  /// @return the view
  /// @throws ShapeError for a negative extent (not a shape); BroadcastError for fewer axes, or
  ///         an extent that is not a multiple of the old one
  [[nodiscard]] Dimensions broadcast(IndexSpan shape) const;

  /// Rolls every axis, exactly as `numpy.roll(a, shifts, axis=range(rank))`.
  /// @param shifts one shift per axis, any sign and size
  /// @return the view
  /// @throws ShapeError when there is not one shift per axis
  [[nodiscard]] Dimensions rotate(IndexSpan shifts) const;
  /// Rolls one axis, exactly as `numpy.roll(a, shift, axis)`.
  /// @param shift the shift, any sign and size
  /// @param axis the axis; negative counts from the end
  /// @return the view
  /// @throws IndexError when the axis does not exist
  [[nodiscard]] Dimensions rotate(index_t shift, index_t axis) const;

  /// Flips the given axes (`numpy.flip`).
  /// @param axes the axes to flip; negative counts from the end
  /// @return the view
  /// @throws IndexError when an axis does not exist; ShapeError when one is named twice (NumPy
  ///         rejects a repeated axis too)
  [[nodiscard]] Dimensions reverse(IndexSpan axes) const;
  /// Flips every axis.
  /// @return the view
  [[nodiscard]] Dimensions reverse() const;

  /// Drops the given axes, which must have extent 1.
  /// @param axes the axes; negative counts from the end
  /// @return the view
  /// @throws IndexError when an axis does not exist; ShapeError when its extent is not 1 or it
  ///         is named twice
  [[nodiscard]] Dimensions squeeze(IndexSpan axes) const;
  /// Drops every axis of extent 1.
  /// @return the view
  [[nodiscard]] Dimensions squeeze() const;
  /// Inserts an axis of extent 1 so that it becomes axis @p axis of the result.
  /// @param axis in [-(rank+1), rank]; negative counts from the end of the result
  /// @return the view
  /// @throws IndexError when the position is out of range
  [[nodiscard]] Dimensions unsqueeze(index_t axis) const;
  /// The diagonal of two axes as one axis, NumPy's `a.diagonal(offset, axis1, axis2)`: the two
  /// axes are removed and an axis of the elements `[i, i + offset]` (`[i - offset, i]` for a
  /// negative offset) is appended last. Its stride is the sum of the two when both are plain;
  /// otherwise it reads through an index array of their summed contributions.
  ///
  /// @code
  /// strata::Dimensions d{3, 4};   // {shape [3 4] strides [4 1]}
  /// d.diagonal();                 // {shape [3] strides [5]}: addresses 0 5 10
  /// d.diagonal(1);                // {shape [3] strides [5] offset 1}: 1 6 11
  /// d.diagonal(-2);               // {shape [1] offset 8}
  /// @endcode
  /// @param offset the diagonal: 0 the main one, > 0 above it (along @p axis2), < 0 below; one
  ///        past the edge gives an empty axis
  /// @param axis1 the axis of the first index; negative counts from the end
  /// @param axis2 the axis of the second index; negative counts from the end
  /// @return the view, of rank rank() - 1
  /// @throws ShapeError when the rank is below 2 or both axes are the same one; IndexError
  ///         when an axis does not exist
  [[nodiscard]] Dimensions diagonal(index_t offset = 0, index_t axis1 = 0, index_t axis2 = 1) const;

  /// A new shape over the same addresses, in row-major order (one extent may be -1).
  /// @param shape the extents; one may be -1 and is inferred
  /// @return the view
  /// @throws ShapeError for a different size, two -1, or another negative extent;
  ///         LayoutError when the axes cannot express it without a copy
  [[nodiscard]] Dimensions reshape(IndexSpan shape) const;

  // ---- addressing ----------------------------------------------------------------------------

  /// The address of a multi-index (unchecked).
  /// @param global one index per axis, each in [0, extent)
  /// @return the address
  [[nodiscard]] index_t global_to_local(IndexSpan global) const noexcept;
  /// The address of a row-major linear index (unchecked).
  /// @param linear in [0, size())
  /// @return the address
  [[nodiscard]] index_t global_to_local(index_t linear) const noexcept;
  /// The address of a multi-index, checked.
  /// @param global one index per axis
  /// @return the address
  /// @throws IndexError for a wrong number of indices or an index outside [0, extent)
  [[nodiscard]] index_t checked_global_to_local(IndexSpan global) const;
  /// The address of a row-major linear index, checked.
  /// @param linear the linear index
  /// @return the address
  /// @throws IndexError when it is outside [0, size())
  [[nodiscard]] index_t checked_global_to_local(index_t linear) const;

  /// Every global index that reads @p address, in row-major order: none, one, or several.
  ///
  /// Solved per axis, largest |stride| first, by bounding what the other axes can still add:
  /// O(rank log rank) plus the number of candidates tried plus the size of the answer for
  /// non-overlapping layouts; index-array axes use an inverse table built once per array
  /// (O(n log n)). Nothing is enumerated over the tensor.
  /// @param address a buffer address
  /// @return the global multi-indices
  [[nodiscard]] std::vector<Index> local_to_global(index_t address) const;

  // ---- analysis ------------------------------------------------------------------------------

  /// Coalesces adjacent axes that can be walked as one, keeping the row-major visiting order.
  ///
  /// Axes of extent 1 disappear; a plain axis merges into the axis before it when that axis's
  /// stride is the inner extent times the inner stride (a cyclic outer axis stays cyclic over
  /// the merged range). `[256 256 4]` strides `[8192 4 1]` reduces to `[256 1024]` strides
  /// `[8192 1]`. A size-0 map reduces to shape `[0]`.
  /// @return the reduced map: same size, same addresses in the same order
  [[nodiscard]] Dimensions reduced() const;

  /// The address signature of this map as it stands (call on reduced() to pick a kernel).
  /// @return the signature
  [[nodiscard]] Signature signature() const noexcept;

  /// Whether the addresses are one contiguous increasing run (memcpy-able).
  /// @return true when the reduced map is one plain axis of stride 1 (or has <= 1 element)
  [[nodiscard]] bool is_native() const;
  /// Whether the innermost reduced axis is plain with stride 1 (row copies).
  /// @return true for unit last stride after reduction
  [[nodiscard]] bool has_unit_last_stride() const;
  /// Whether an axis repeats addresses by broadcasting: an axis of extent > 1 with stride 0 or
  /// tiled (`numpy.tile`). Such a map aliases() when it has two elements or more; a broadcast
  /// with an empty axis (`broadcast({3, 0})`) has no element, aliases nothing, and writing
  /// through it writes nothing (NumPy makes every broadcast_to result read-only instead;
  /// strata decides by the addresses, not by how the map was made).
  /// @return true when an axis of extent > 1 has stride 0 or tiles
  [[nodiscard]] bool is_broadcast() const noexcept;
  /// Whether two global indices may read one address, so writes through the map would alias:
  /// broadcasting (of two elements or more), an index array with a repeated entry, or strides
  /// whose reaches overlap
  /// (`{2, 2}` strides `{1, 1}`). Exact for the maps that views of a row-major tensor make
  /// (their axes nest); for other maps built from parts, exact up to 2^16 elements and
  /// otherwise true unless the axes nest. Computed once, when the map is built.
  /// @return true when writes through the map could alias
  [[nodiscard]] bool aliases() const noexcept { return aliases_; }
  /// Whether every axis is plain strided (no roll, no tiling, no index array): the address of
  /// `g` is then `offset() + sum(g[k] * strides()[k])`, as for a NumPy view or a BLAS operand.
  /// @return true for a strided map
  [[nodiscard]] bool is_strided() const noexcept { return strided_; }
  /// The lowest and highest address the map can read (its index arrays' extremes, its cycles'
  /// ends), both inclusive; `{offset, offset}` for an empty map. Every address global_to_local()
  /// returns lies in this range.
  /// @return the pair (lowest, highest)
  [[nodiscard]] std::pair<index_t, index_t> address_range() const noexcept;

  /// Structural equality: same axes (index arrays by content) and offset.
  /// @param a, b maps
  /// @return true when equal
  friend bool operator==(const Dimensions& a, const Dimensions& b) noexcept {
    return a.offset_ == b.offset_ && a.axes_ == b.axes_;
  }

  /// Prints `{shape [2 2] strides [2 1] offset 0}`; an index-array axis shows its entries in
  /// place of its extent, and cyclic maps add `cycle [...] rotation [...]`.
  /// @param out the stream
  /// @param d the map
  /// @return @p out
  friend std::ostream& operator<<(std::ostream& out, const Dimensions& d);

 private:
  Dimensions(Axes axes, index_t offset);  // normalises the axes, computes the size

  Axes axes_;
  index_t offset_ = 0;
  index_t size_ = 1;
  bool aliases_ = false;
  bool strided_ = true;
};

/// The printed form of a Dimensions, as `operator<<` writes it.
/// @param d the map
/// @return the text
std::string to_string(const Dimensions& d);

}  // namespace strata
