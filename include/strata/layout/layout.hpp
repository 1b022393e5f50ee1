/// @file
/// strata::Layout: how a logical (smooth) shape is stored: row-major, column-major, or in tiles
/// stored one after another (smaller tiles at the edges). A Layout stores nothing; it maps.
#pragma once

#include "strata/core/index.hpp"
#include "strata/layout/dimensions.hpp"
#include "strata/shape/shapes.hpp"

#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace strata {

/// Maps the logical indices of a smooth shape to physical addresses in one linear buffer.
///
/// - `row_major(Smooth{N, M})`: address = i * M + j (the physical shape is the logical one);
/// - `column_major(Smooth{N, M})`: address = i + j * N (physical shape Smooth[M N]);
/// - `tiled(Smooth{N, M}, {tn, tm})`: tiles of tn x tm stored one after another in row-major
///   order of the tile grid, each tile contiguous and row-major inside. When N or M is not a
///   multiple of the tile, the edge tiles are smaller, and the physical shape is a Nested shape
///   whose inner layer is jagged: `Nested{Smooth[gn gm] | Jagged[gn gm]{...tile shapes...}}`.
///
/// Storage splits into *pieces*, each a smooth box of the logical shape stored as one strided
/// block: the whole tensor for row- and column-major, one tile for tiled. `piece(p)` is the box
/// (a SmoothView that keeps its logical indices) and `piece_dimensions(p)` its address map, so a
/// tensor over the layout can hand out each piece as an ordinary Tensor view.
///
/// @code
/// auto l = strata::Layout::tiled(strata::Smooth{5, 7}, {2, 3});
/// l.n_pieces();            // 9 tiles (3 x 3 grid)
/// l.piece(8);              // Smooth[1 1] at [4 6]: the corner tile
/// l.address({2, 4});       // 21: tile (1, 1) starts at 6 + 6 + 2 + 6 = 20; + 0 * 3 + 1
/// l.physical();            // Nested{Smooth[3 3] | Jagged[3 3]{[2 3] [2 3] [2 1] ...}}
/// @endcode
/// @image html layout_tiled.svg "tiled(Smooth{5, 7}, {2, 3}): tiles, addresses, storage order"
/// Design page: @ref shapes_page.
class Layout {
 public:
  /// How the elements are ordered in memory.
  enum class Kind {
    row_major,     ///< C order
    column_major,  ///< Fortran order
    tiled,         ///< tiles one after another, each row-major
  };

  /// Row-major storage of the scalar shape.
  Layout() : Layout(row_major(Smooth{})) {}

  /// C-order storage.
  /// @param logical the shape the user sees
  /// @return the layout
  static Layout row_major(Smooth logical);
  /// Fortran-order storage.
  /// @param logical the shape the user sees
  /// @return the layout
  static Layout column_major(Smooth logical);
  /// Tiled storage.
  /// @param logical the shape the user sees
  /// @param tile the tile extents, one per mode, each > 0
  /// @return the layout
  /// @throws ShapeError for a tile extent <= 0, a tile whose rank is not the shape's, or a
  ///         grid of more than max_pieces tiles
  static Layout tiled(Smooth logical, IndexSpan tile);

  /// The ordering.
  /// @return the kind
  [[nodiscard]] Kind kind() const noexcept { return kind_; }
  /// The shape the user sees.
  /// @return the logical shape
  [[nodiscard]] const Smooth& logical() const noexcept { return logical_; }
  /// The tile extents (empty unless tiled).
  /// @return the tile
  [[nodiscard]] IndexSpan tile() const noexcept { return tile_; }
  /// The tile grid's extents (empty unless tiled).
  /// @return one count of tiles per mode
  [[nodiscard]] IndexSpan grid() const noexcept { return grid_; }
  /// How the storage is shaped: Smooth (row-major), the reversed extents (column-major), or
  /// Nested{grid | tiles} (tiled; the tiles layer is jagged when edge tiles are smaller).
  /// @return the physical shape
  [[nodiscard]] Shape physical() const;
  /// The number of elements stored.
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return logical_.size(); }

  /// The most pieces a tiled layout describes (it keeps one start address per piece).
  static constexpr index_t max_pieces = index_t{1} << 26;

  /// The address of a logical index.
  /// @param index one index per mode, inside the logical shape
  /// @return the address in [0, size())
  /// @throws IndexError for a wrong number of indices or an index outside the shape
  [[nodiscard]] index_t address(IndexSpan index) const;
  /// The number of pieces (1, or the number of tiles).
  /// @return the count
  [[nodiscard]] index_t n_pieces() const noexcept {
    return static_cast<index_t>(starts_->size()) - 1;
  }
  /// The logical box a piece covers.
  /// @param p in [0, n_pieces())
  /// @return the box, with its logical origin
  /// @throws IndexError for a piece that does not exist
  [[nodiscard]] SmoothView piece(index_t p) const;
  /// The address map of a piece: its box's logical indices (relative to the box) to addresses.
  /// @param p in [0, n_pieces())
  /// @return the Dimensions
  /// @throws IndexError for a piece that does not exist
  [[nodiscard]] Dimensions piece_dimensions(index_t p) const;
  /// The piece at tile coordinates (its position in the tile grid; for an untiled layout the
  /// only piece is at coordinates all 0).
  /// @param tile one coordinate per mode, each in [0, grid extent)
  /// @return the piece number
  /// @throws IndexError for coordinates of the wrong rank or outside the grid
  [[nodiscard]] index_t piece_at(IndexSpan tile) const;
  /// The tile coordinates of piece @p p.
  /// @param p in [0, n_pieces())
  /// @return one coordinate per mode
  /// @throws IndexError for a piece that does not exist
  [[nodiscard]] Index tile_coordinates(index_t p) const;
  /// The piece that stores a logical index.
  /// @param index one index per mode, inside the logical shape
  /// @return the piece number
  /// @throws IndexError for an index of the wrong rank or outside the shape
  [[nodiscard]] index_t piece_holding(IndexSpan index) const;
  /// The first address of each piece, plus size() (n_pieces() + 1 values, ascending).
  /// @return the prefix sums of the piece sizes
  [[nodiscard]] std::span<const index_t> piece_starts() const noexcept { return *starts_; }

  /// Prints for example `tiled [2 3] of Smooth[5 7]`.
  /// @return the text
  [[nodiscard]] std::string to_string() const;
  /// Equal kind, logical shape and tile.
  /// @param a a layout
  /// @param b a layout
  /// @return whether they map alike
  friend bool operator==(const Layout& a, const Layout& b) {
    return a.kind_ == b.kind_ && a.logical_ == b.logical_ && a.tile_ == b.tile_;
  }
  /// Prints the layout.
  /// @param out the stream
  /// @param layout the layout
  /// @return the stream
  friend std::ostream& operator<<(std::ostream& out, const Layout& layout);

 private:
  Layout(Kind kind, Smooth logical, Index tile);
  [[nodiscard]] Index tile_extents(IndexSpan tile_index) const;

  Kind kind_ = Kind::row_major;
  Smooth logical_;
  Index tile_;
  Index grid_;
  std::shared_ptr<const std::vector<index_t>> starts_;
};

}  // namespace strata
