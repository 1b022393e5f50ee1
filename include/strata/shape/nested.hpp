/// @file
/// strata::Nested and strata::NestedView: shapes made of layers of modes that are kept apart
/// (a matrix of matrices, a grid of tiles), and views of them.
#pragma once

#include "strata/core/index.hpp"
#include "strata/shape/jagged.hpp"
#include "strata/shape/shape.hpp"
#include "strata/shape/shape_api.hpp"
#include "strata/shape/smooth.hpp"

#include <iosfwd>
#include <memory>
#include <span>
#include <vector>

namespace strata {

/// Layers of modes kept apart: `Nested{Smooth{2, 2}, Smooth{3, 3}}` is a 2x2 matrix of 3x3
/// matrices, rank 4 in 2 layers; `flatten()` forgets the layers (Smooth[2 2 3 3]).
///
/// Each layer is smooth or jagged. A smooth layer is the same for every index of the layers
/// before it. A jagged layer varies with them: its outer extents must equal the (smooth) layers
/// before it, and it adds its inner modes. That is how a tiled layout describes its storage: a
/// grid of tiles, then tiles whose shapes depend on the grid index (smaller at the edges):
/// `Nested{Smooth{2, 2}, Jagged(Index{2, 2}, {Smooth{3, 3}, Smooth{3, 1}, ...})}`.
///
/// Indices, iteration, slicing and chipping are those of the flattened shape; the layers are
/// the partition of the modes (n_layers(), layer(i), layer_rank(i)).
/// Design page: @ref shapes_page.
class Nested : public ShapeAPI<Nested> {
 public:
  /// One layer holding the scalar shape.
  Nested();
  /// Layers from a list.
  /// @param layers the layers, each smooth or jagged
  /// @throws ShapeError when a jagged layer's outer extents are not the layers before it, or a
  ///         jagged layer follows another jagged layer
  Nested(std::initializer_list<Shape> layers);
  /// Layers from a vector.
  /// @param layers the layers, each smooth or jagged
  /// @throws ShapeError as the list constructor
  explicit Nested(std::vector<Shape> layers);

  /// The number of layers.
  /// @return the count
  [[nodiscard]] int n_layers() const noexcept { return static_cast<int>(data_->ranks.size()); }
  /// A layer, as given.
  /// @param i in [0, n_layers())
  /// @return the layer's shape
  /// @throws IndexError for a layer that does not exist
  [[nodiscard]] const Shape& layer(int i) const;
  /// The number of modes a layer adds (a jagged layer adds its inner modes).
  /// @param i in [0, n_layers())
  /// @return the count
  /// @throws IndexError for a layer that does not exist
  [[nodiscard]] int layer_rank(int i) const;
  /// The shape without its layers (Smooth, or Jagged when a layer is jagged).
  /// @return the flattened shape
  [[nodiscard]] const Shape& flatten() const noexcept { return data_->flat; }

  /// @copydoc Smooth::rank
  [[nodiscard]] int rank() const { return data_->flat.rank(); }
  /// @copydoc Smooth::size
  [[nodiscard]] index_t size() const { return data_->flat.size(); }
  /// The origin: %all zeros.
  /// @return the origin
  [[nodiscard]] Index origin() const { return data_->flat.origin(); }
  /// A slice of the flattened shape that keeps the layers (see Smooth::slice, Jagged::slice).
  /// @param lo first absolute index
  /// @param hi one past the last
  /// @return the view
  /// @throws IndexError as the flattened shape's slice
  [[nodiscard]] NestedView slice(IndexSpan lo, IndexSpan hi) const;
  /// A chip of the flattened shape; the layer that held the mode loses it (and disappears when
  /// it had no other mode).
  /// @param mode the mode to drop
  /// @param i the absolute index along it
  /// @return the view
  /// @throws IndexError for a mode that does not exist or an index out of range
  [[nodiscard]] NestedView chip(int mode, index_t i) const;

  /// @copydoc Smooth::uniform_extent
  [[nodiscard]] index_t uniform_extent(int mode) const { return data_->flat.uniform_extent(mode); }
  /// @copydoc Smooth::unravel
  void unravel(index_t position, std::span<index_t> offset) const {
    data_->flat.unravel(position, offset);
  }
  /// @copydoc Smooth::advance
  bool advance(std::span<index_t> offset) const { return data_->flat.advance(offset); }
  /// @copydoc Smooth::run_length
  [[nodiscard]] index_t run_length(std::span<const index_t> offset) const {
    return data_->flat.run_length(offset);
  }
  /// @copydoc Smooth::ravel
  [[nodiscard]] index_t ravel(IndexSpan offset) const { return data_->flat.ravel(offset); }
  /// @copydoc Smooth::contains_offset
  [[nodiscard]] bool contains_offset(IndexSpan offset) const {
    return data_->flat.contains_offset(offset);
  }
  /// Primitive: prints `Nested{Smooth[2 2] | Smooth[3 3]}`.
  /// @param out the stream
  void print(std::ostream& out) const;
  /// Primitive: equal layers.
  /// @param other a shape
  /// @return whether they are equal
  [[nodiscard]] bool same_as(const Nested& other) const;

 private:
  /// @cond STRATA_PRIVATE
  struct Data {
    std::vector<Shape> layers;
    std::vector<int> ranks;
    Shape flat;
  };
  /// @endcond
  std::shared_ptr<const Data> data_;
};

/// A slice or chip of a nested shape: the flattened view plus the layer partition of its modes.
class NestedView : public ShapeAPI<NestedView> {
 public:
  /// The rank-0 view in one layer.
  NestedView();
  /// A view from a flattened view and the number of modes per layer.
  /// @param layer_ranks modes per layer; they sum to flat's rank
  /// @param flat the flattened view
  /// @throws ShapeError when the ranks do not sum to flat's rank
  NestedView(std::vector<int> layer_ranks, Shape flat);

  /// @copydoc Nested::n_layers
  [[nodiscard]] int n_layers() const noexcept { return static_cast<int>(ranks_.size()); }
  /// @copydoc Nested::layer_rank
  [[nodiscard]] int layer_rank(int i) const;
  /// The flattened view.
  /// @return the view, with its origin
  [[nodiscard]] const Shape& flatten() const noexcept { return flat_; }

  /// @copydoc Smooth::rank
  [[nodiscard]] int rank() const { return flat_.rank(); }
  /// @copydoc Smooth::size
  [[nodiscard]] index_t size() const { return flat_.size(); }
  /// The first absolute index.
  /// @return the origin
  [[nodiscard]] Index origin() const { return flat_.origin(); }
  /// @copydoc Nested::slice
  [[nodiscard]] NestedView slice(IndexSpan lo, IndexSpan hi) const;
  /// @copydoc Nested::chip
  [[nodiscard]] NestedView chip(int mode, index_t i) const;

  /// @copydoc Smooth::uniform_extent
  [[nodiscard]] index_t uniform_extent(int mode) const { return flat_.uniform_extent(mode); }
  /// @copydoc Smooth::unravel
  void unravel(index_t position, std::span<index_t> offset) const {
    flat_.unravel(position, offset);
  }
  /// @copydoc Smooth::advance
  bool advance(std::span<index_t> offset) const { return flat_.advance(offset); }
  /// @copydoc Smooth::run_length
  [[nodiscard]] index_t run_length(std::span<const index_t> offset) const {
    return flat_.run_length(offset);
  }
  /// @copydoc Smooth::ravel
  [[nodiscard]] index_t ravel(IndexSpan offset) const { return flat_.ravel(offset); }
  /// @copydoc Smooth::contains_offset
  [[nodiscard]] bool contains_offset(IndexSpan offset) const {
    return flat_.contains_offset(offset);
  }
  /// Primitive: prints `Nested<2|1>{Smooth[2 2 3] at [0 0 1]}` (modes per layer, then the view).
  /// @param out the stream
  void print(std::ostream& out) const;
  /// Primitive: equal partition and view.
  /// @param other a view
  /// @return whether they are equal
  [[nodiscard]] bool same_as(const NestedView& other) const {
    return ranks_ == other.ranks_ && flat_ == other.flat_;
  }

 private:
  std::vector<int> ranks_;
  Shape flat_;
};

}  // namespace strata
