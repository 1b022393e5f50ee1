/// @file
/// Tilings of a global index space and distributions of their tiles over ranks (no MPI here:
/// these are plain values every rank computes alike).
#pragma once

#include "strata/core/index.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

/// Distributed tensors on MPI (the optional target `strata::mpi`): tilings and distributions
/// (plain values, here), strata::dist::DistTensor and strata::dist::DistJaggedTensor, regions
/// as views of the global index space. Design page: @ref distributed_page.
namespace strata::dist {

/// A tiling of a box `[0, shape)`: along each axis, tile boundaries `0 = b0 < b1 < ... < bn =
/// extent` (TiledArray's tiled ranges; irregular tiles allowed). Tiles are numbered row-major
/// over the grid of tiles (`grid()`), and tile `t` covers the box `[tile_lo(t), tile_hi(t))`.
///
/// @code
/// auto t = strata::dist::Tiling::regular(strata::Index{10, 7}, strata::Index{4, 4});
/// t.grid();       // [3 2]: rows 0-3, 4-7, 8-9 (a ragged edge tile), columns 0-3, 4-6
/// t.tile_at(strata::Index{9, 5});   // 5 = tile (2, 1)
/// strata::dist::Tiling irregular({{0, 1, 5, 10}, {0, 7}});   // 3 x 1 tiles of 1, 4 and 5 rows
/// @endcode
class Tiling {
 public:
  /// The tiling with the given boundaries per axis.
  /// @param boundaries one list per axis: starts at 0, strictly increasing, ends at the extent
  ///        (`{0}` for an axis of extent 0)
  /// @throws ShapeError for no axis, or a list that is empty, does not start at 0 or does not
  ///         increase strictly (a tiling that does not cover its shape)
  explicit Tiling(std::vector<std::vector<index_t>> boundaries);

  /// Regular tiles of @p tile extents, the last tile along an axis ragged when @p tile does not
  /// divide the extent.
  /// @param shape the global extents (rank >= 1)
  /// @param tile the tile extents, each >= 1
  /// @return the tiling
  /// @throws ShapeError for a rank mismatch, a negative extent or a tile extent below 1
  static Tiling regular(IndexSpan shape, IndexSpan tile);

  /// The number of axes.
  /// @return the rank (>= 1)
  [[nodiscard]] int rank() const noexcept { return static_cast<int>(boundaries_.size()); }
  /// The global extents.
  /// @return one extent per axis
  [[nodiscard]] Index shape() const;
  /// The number of tiles along each axis.
  /// @return one count per axis
  [[nodiscard]] Index grid() const;
  /// The number of tiles.
  /// @return the product of grid()
  [[nodiscard]] index_t n_tiles() const noexcept { return n_tiles_; }
  /// The boundaries along one axis.
  /// @param axis in [0, rank())
  /// @return the list given at construction
  [[nodiscard]] const std::vector<index_t>& boundaries(int axis) const;
  /// The tile coordinates of tile @p t (its position in the grid).
  /// @param t in [0, n_tiles())
  /// @return one coordinate per axis
  /// @throws IndexError for a tile that does not exist
  [[nodiscard]] Index coordinates(index_t t) const;
  /// The tile at tile coordinates @p coordinates.
  /// @param coordinates one coordinate per axis, inside grid()
  /// @return its number
  /// @throws IndexError for coordinates outside the grid
  [[nodiscard]] index_t tile(IndexSpan coordinates) const;
  /// The first global index of tile @p t.
  /// @param t in [0, n_tiles())
  /// @return one index per axis
  [[nodiscard]] Index tile_lo(index_t t) const;
  /// One past the last global index of tile @p t.
  /// @param t in [0, n_tiles())
  /// @return one index per axis
  [[nodiscard]] Index tile_hi(index_t t) const;
  /// The extents of tile @p t.
  /// @param t in [0, n_tiles())
  /// @return `tile_hi(t) - tile_lo(t)`
  [[nodiscard]] Index tile_extents(index_t t) const;
  /// The number of elements of tile @p t.
  /// @param t in [0, n_tiles())
  /// @return the product of tile_extents(t)
  [[nodiscard]] index_t tile_size(index_t t) const;
  /// The tile holding a global index.
  /// @param index one index per axis, inside shape()
  /// @return the tile's number
  /// @throws IndexError for an index outside the shape
  [[nodiscard]] index_t tile_at(IndexSpan index) const;
  /// The tiles that intersect the box `[lo, hi)`, in increasing order.
  /// @param lo the first index of the box
  /// @param hi one past the last index (a box with an empty axis meets no tile)
  /// @return the tiles' numbers
  /// @throws IndexError for a box outside the shape
  [[nodiscard]] std::vector<index_t> tiles_in(IndexSpan lo, IndexSpan hi) const;

  /// A number that differs, with overwhelming probability, between different tilings.
  /// @return the digest
  [[nodiscard]] std::uint64_t digest() const noexcept;
  /// Prints `Tiling{[0 4 8 10] [0 4 7]}`.
  /// @return the text
  [[nodiscard]] std::string to_string() const;

  /// Equal boundaries on every axis.
  /// @param a, b tilings
  /// @return true when equal
  friend bool operator==(const Tiling& a, const Tiling& b) = default;

 private:
  std::vector<std::vector<index_t>> boundaries_;
  index_t n_tiles_ = 0;
};

/// How the tiles of a tiling are given to ranks: every rank computes the same owner table.
///
/// - `block()`: tiles in order, in contiguous runs as even as possible (rank r owns tiles
///   `[r n / p, (r + 1) n / p)`, rounded down); with fewer tiles than ranks some own none.
/// - `block(grid)`: ScaLAPACK's (and Global Arrays') block layout over a process grid: along
///   each axis the tiles are cut into contiguous runs as block() cuts them, one per process
///   along that axis; tile coordinates `(I, J)` go to the process at `(I P / nI, J Q / nJ)`
///   (rounded as block()), numbered row-major. A 2 x 2 grid over 4 x 4 tiles gives each rank
///   a 2 x 2 square of tiles, where block() gives each a row of them.
/// - `cyclic()`: tile t to rank `t mod p`.
/// - `block_cyclic(grid)`: ScaLAPACK's 2-D (any rank) block-cyclic map over a process grid:
///   tile coordinates `(I, J)` go to the process at `(I mod P, J mod Q)`, numbered row-major.
/// - `by(f)`: the rank `f(tile coordinates)` names.
///
/// @code
/// auto d = strata::dist::Distribution::block_cyclic(strata::Index{2, 2});
/// d.owners(tiling, 4);   // one rank per tile
/// @endcode
class Distribution {
 public:
  /// A user function: the owner of the tile at the given tile coordinates.
  using OwnerFunction = std::function<int(IndexSpan coordinates)>;

  /// Contiguous runs of tiles, as even as possible.
  /// @return the distribution
  static Distribution block();
  /// Contiguous runs of tiles along each axis of a process grid (ScaLAPACK's block layout).
  /// @param process_grid the grid's extents, each >= 1 (one per axis of the tiling; the grid
  ///        may have fewer processes than ranks: the others own nothing)
  /// @return the distribution
  /// @throws ShapeError for an extent below 1
  static Distribution block(IndexSpan process_grid);
  /// Tile t to rank t mod the number of ranks.
  /// @return the distribution
  static Distribution cyclic();
  /// Block-cyclic over a process grid (one extent per axis of the tiling).
  /// @param process_grid the grid's extents, each >= 1
  /// @return the distribution
  /// @throws ShapeError for an extent below 1
  static Distribution block_cyclic(IndexSpan process_grid);
  /// The ranks a function names.
  /// @param owner called once per tile with its coordinates
  /// @param name a name for messages and digests (two functions with the same name are taken
  ///        to be the same distribution when collectives compare arguments)
  /// @return the distribution
  static Distribution by(OwnerFunction owner, std::string name);

  /// The owner of every tile.
  /// @param tiling the tiling
  /// @param n_ranks the number of ranks
  /// @return one rank per tile
  /// @throws ShapeError for a process grid whose rank differs from the tiling's or whose size
  ///         exceeds @p n_ranks; IndexError for a function that names a rank outside
  ///         `[0, n_ranks)`
  [[nodiscard]] std::vector<int> owners(const Tiling& tiling, int n_ranks) const;

  /// A number that differs between different distributions.
  /// @return the digest
  [[nodiscard]] std::uint64_t digest() const noexcept;
  /// The distribution's name: `block`, `block[2 2]`, `cyclic`, `block_cyclic[2 2]` or the
  /// function's name.
  /// @return the text
  [[nodiscard]] std::string to_string() const;

 private:
  enum class Kind { block, cyclic, block_cyclic, block_grid, function };
  Distribution(Kind kind, Index grid, OwnerFunction owner, std::string name)
      : kind_(kind), grid_(std::move(grid)), owner_(std::move(owner)), name_(std::move(name)) {}

  Kind kind_;
  Index grid_;
  OwnerFunction owner_;
  std::string name_;
};

}  // namespace strata::dist
