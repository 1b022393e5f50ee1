// Layout: row-major, column-major and tiled storage of a smooth logical shape.
#include "strata/layout/layout.hpp"

#include "strata/core/checked.hpp"
#include "strata/core/error.hpp"

#include <algorithm>
#include <ostream>
#include <sstream>

namespace strata {

Layout::Layout(Kind kind, Smooth logical, Index tile)
    : kind_(kind), logical_(std::move(logical)), tile_(std::move(tile)) {
  auto starts = std::make_shared<std::vector<index_t>>(1, 0);
  if (kind_ != Kind::tiled) {
    starts->push_back(logical_.size());
  } else {
    const IndexSpan n = logical_.extents();
    grid_.assign(n.size(), 0);
    for (std::size_t k = 0; k < n.size(); ++k) {
      grid_[k] = n[k] / tile_[k] + (n[k] % tile_[k] != 0 ? 1 : 0);  // no overflow near INT64_MAX
    }
    const index_t tiles = Smooth(grid_).size();
    starts->reserve(static_cast<std::size_t>(tiles) + 1);
    Index q(n.size(), 0);
    for (index_t t = 0; t < tiles; ++t) {
      starts->push_back(starts->back() + Smooth(tile_extents(q)).size());
      detail::smooth_advance(grid_, q);
    }
  }
  starts_ = std::move(starts);
}

Layout Layout::row_major(Smooth logical) {
  return {Kind::row_major, std::move(logical), {}};
}

Layout Layout::column_major(Smooth logical) {
  return {Kind::column_major, std::move(logical), {}};
}

Layout Layout::tiled(Smooth logical, IndexSpan tile) {
  if (static_cast<int>(tile.size()) != logical.rank()) {
    detail::fail<ShapeError>("Layout::tiled", "tile ", strata::to_string(tile), " has rank ",
                             tile.size(), " but the shape ", logical.to_string(), " has rank ",
                             logical.rank());
  }
  for (std::size_t k = 0; k < tile.size(); ++k) {
    if (tile[k] <= 0) {
      detail::fail<ShapeError>("Layout::tiled", "tile extent ", tile[k], " of mode ", k, " in ",
                               strata::to_string(tile), " is not > 0");
    }
  }
  // The layout keeps one start per tile: refuse a grid it cannot hold (before allocating).
  const IndexSpan n = logical.extents();
  Index grid(n.size(), 0);
  for (std::size_t k = 0; k < n.size(); ++k) {
    grid[k] = n[k] / tile[k] + (n[k] % tile[k] != 0 ? 1 : 0);
  }
  const index_t tiles = checked_size(grid, "Layout::tiled");
  if (tiles > max_pieces) {
    detail::fail<ShapeError>("Layout::tiled", "tiles ", strata::to_string(tile), " cut ",
                             logical.to_string(), " into ", tiles, " pieces (grid ",
                             strata::to_string(grid), "); a layout holds at most ", max_pieces);
  }
  return {Kind::tiled, std::move(logical), Index(tile.begin(), tile.end())};
}

Index Layout::tile_extents(IndexSpan tile_index) const {
  const IndexSpan n = logical_.extents();
  Index e(n.size(), 0);
  for (std::size_t k = 0; k < n.size(); ++k) {
    e[k] = std::min(tile_[k], n[k] - tile_index[k] * tile_[k]);
  }
  return e;
}

Shape Layout::physical() const {
  switch (kind_) {
    case Kind::row_major:
      return logical_;
    case Kind::column_major: {
      Index reversed(logical_.extents().rbegin(), logical_.extents().rend());
      return Smooth(reversed);
    }
    case Kind::tiled:
      break;
  }
  const IndexSpan n = logical_.extents();
  bool even = true;
  for (std::size_t k = 0; k < n.size(); ++k) {
    even = even && n[k] % tile_[k] == 0;
  }
  if (even) {
    return Nested{Smooth(grid_), Smooth(tile_)};
  }
  std::vector<index_t> table;
  Index q(n.size(), 0);
  for (index_t t = 0; t < n_pieces(); ++t) {
    const Index e = tile_extents(q);
    table.insert(table.end(), e.begin(), e.end());
    detail::smooth_advance(grid_, q);
  }
  return Nested{Smooth(grid_), Jagged::from_extents(grid_, logical_.rank(), table)};
}

index_t Layout::address(IndexSpan index) const {
  if (!logical_.contains(index)) {
    detail::fail<IndexError>("Layout::address", "index ", strata::to_string(index), " is outside ",
                             logical_.to_string());
  }
  const IndexSpan n = logical_.extents();
  switch (kind_) {
    case Kind::row_major:
      return logical_.ravel(index);
    case Kind::column_major: {
      index_t a = 0;
      for (std::size_t k = n.size(); k-- > 0;) {
        a = a * n[k] + index[k];
      }
      return a;
    }
    case Kind::tiled:
      break;
  }
  Index q(n.size(), 0);
  Index w(n.size(), 0);
  for (std::size_t k = 0; k < n.size(); ++k) {
    q[k] = index[k] / tile_[k];
    w[k] = index[k] % tile_[k];
  }
  const Index e = tile_extents(q);
  return (*starts_)[static_cast<std::size_t>(detail::smooth_ravel(grid_, q))] +
         detail::smooth_ravel(e, w);
}

SmoothView Layout::piece(index_t p) const {
  if (p < 0 || p >= n_pieces()) {
    detail::fail<IndexError>("Layout::piece", "piece ", p, " is outside [0, ", n_pieces(), ") of ",
                             to_string());
  }
  if (kind_ != Kind::tiled) {
    return {logical_.extents(), logical_.origin()};
  }
  Index q(grid_.size(), 0);
  detail::smooth_unravel(p, grid_, q);
  Index origin(q.size(), 0);
  for (std::size_t k = 0; k < q.size(); ++k) {
    origin[k] = q[k] * tile_[k];
  }
  return {tile_extents(q), origin};
}

index_t Layout::piece_at(IndexSpan tile) const {
  const IndexSpan n = logical_.extents();
  bool inside = tile.size() == n.size();
  index_t p = 0;
  for (std::size_t k = 0; inside && k < tile.size(); ++k) {
    const index_t extent = kind_ == Kind::tiled ? grid_[k] : (n[k] > 0 ? 1 : 0);
    inside = tile[k] >= 0 && tile[k] < extent;
    p = p * extent + tile[k];
  }
  if (!inside) {
    const Index grid = kind_ == Kind::tiled ? grid_ : Index(n.size(), 1);
    detail::fail<IndexError>("Layout::piece_at", "tile ", strata::to_string(tile),
                             " is outside the tile grid ", strata::to_string(grid), " of ",
                             to_string());
  }
  return p;
}

Index Layout::tile_coordinates(index_t p) const {
  (void)piece(p);  // checks p
  Index coordinates(static_cast<std::size_t>(logical_.rank()), 0);
  if (kind_ == Kind::tiled) {
    detail::smooth_unravel(p, grid_, coordinates);
  }
  return coordinates;
}

index_t Layout::piece_holding(IndexSpan index) const {
  (void)address(index);  // checks the index
  if (kind_ != Kind::tiled) {
    return 0;
  }
  index_t p = 0;
  for (std::size_t k = 0; k < index.size(); ++k) {
    p = p * grid_[k] + index[k] / tile_[k];
  }
  return p;
}

Dimensions Layout::piece_dimensions(index_t p) const {
  const SmoothView box = piece(p);
  const IndexSpan e = box.extents();
  Index strides(e.size(), 0);
  index_t stride = 1;
  if (kind_ == Kind::column_major) {
    for (std::size_t k = 0; k < e.size(); ++k) {
      strides[k] = stride;
      stride *= std::max<index_t>(e[k], 1);  // an empty axis must not make a broadcast stride
    }
  } else {
    for (std::size_t k = e.size(); k-- > 0;) {
      strides[k] = stride;
      stride *= std::max<index_t>(e[k], 1);  // an empty axis must not make a broadcast stride
    }
  }
  return {e, strides, (*starts_)[static_cast<std::size_t>(p)]};
}

std::string Layout::to_string() const {
  std::ostringstream out;
  out << *this;
  return out.str();
}

std::ostream& operator<<(std::ostream& out, const Layout& layout) {
  switch (layout.kind_) {
    case Layout::Kind::row_major:
      return out << "row-major " << layout.logical_;
    case Layout::Kind::column_major:
      return out << "column-major " << layout.logical_;
    case Layout::Kind::tiled:
      return out << "tiled " << strata::to_string(layout.tile_) << " of " << layout.logical_;
  }
  return out;
}

}  // namespace strata
