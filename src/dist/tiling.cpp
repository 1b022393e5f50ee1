#include "strata/dist/tiling.hpp"

#include "strata/core/checked.hpp"
#include "strata/core/error.hpp"
#include "strata/shape/smooth.hpp"

#include <algorithm>
#include <utility>

namespace strata::dist {
namespace {

// FNV-1a over 64-bit words: digests that every rank computes alike.
struct Digest {
  std::uint64_t value = 14695981039346656037ULL;
  void add(std::uint64_t word) {
    for (int byte = 0; byte < 8; ++byte) {
      value ^= (word >> (8 * byte)) & 0xFFU;
      value *= 1099511628211ULL;
    }
  }
  void add(const std::string& text) {
    for (const char c : text) {
      value ^= static_cast<unsigned char>(c);
      value *= 1099511628211ULL;
    }
  }
};

std::string describe(const std::vector<index_t>& b) {
  return strata::to_string(std::span<const index_t>(b));
}

}  // namespace

Tiling::Tiling(std::vector<std::vector<index_t>> boundaries) : boundaries_(std::move(boundaries)) {
  if (boundaries_.empty()) {
    strata::detail::fail<ShapeError>("Tiling", "no axis: a tiling has rank >= 1");
  }
  n_tiles_ = 1;
  for (std::size_t k = 0; k < boundaries_.size(); ++k) {
    const auto& b = boundaries_[k];
    if (b.empty() || b.front() != 0) {
      strata::detail::fail<ShapeError>("Tiling", "boundaries ", describe(b), " of axis ", k,
                                       " do not start at 0: the tiles must cover the shape");
    }
    for (std::size_t i = 1; i < b.size(); ++i) {
      if (b[i] <= b[i - 1]) {
        strata::detail::fail<ShapeError>("Tiling", "boundaries ", describe(b), " of axis ", k,
                                         " do not increase strictly at position ", i);
      }
    }
    n_tiles_ = checked_mul(n_tiles_, static_cast<index_t>(b.size()) - 1, "Tiling");
  }
}

Tiling Tiling::regular(IndexSpan shape, IndexSpan tile) {
  if (shape.size() != tile.size() || shape.empty()) {
    strata::detail::fail<ShapeError>("Tiling::regular", "shape ", strata::to_string(shape),
                                     " and tile ", strata::to_string(tile),
                                     " must have the same rank >= 1");
  }
  std::vector<std::vector<index_t>> boundaries(shape.size());
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] < 0 || tile[k] < 1) {
      strata::detail::fail<ShapeError>("Tiling::regular", "shape ", strata::to_string(shape),
                                       " and tile ", strata::to_string(tile),
                                       ": extents must be >= 0 and tiles >= 1");
    }
    boundaries[k].push_back(0);
    for (index_t b = tile[k]; b < shape[k]; b += tile[k]) {
      boundaries[k].push_back(b);
    }
    if (shape[k] > 0) {
      boundaries[k].push_back(shape[k]);
    }
  }
  return Tiling(std::move(boundaries));
}

Index Tiling::shape() const {
  Index out;
  for (const auto& b : boundaries_) {
    out.push_back(b.back());
  }
  return out;
}

Index Tiling::grid() const {
  Index out;
  for (const auto& b : boundaries_) {
    out.push_back(static_cast<index_t>(b.size()) - 1);
  }
  return out;
}

const std::vector<index_t>& Tiling::boundaries(int axis) const {
  if (axis < 0 || axis >= rank()) {
    strata::detail::fail<IndexError>("Tiling::boundaries", "axis ", axis, " of a tiling of rank ",
                                     rank());
  }
  return boundaries_[static_cast<std::size_t>(axis)];
}

Index Tiling::coordinates(index_t t) const {
  if (t < 0 || t >= n_tiles_) {
    strata::detail::fail<IndexError>("Tiling::coordinates", "tile ", t, " of ", n_tiles_, " tiles");
  }
  Index c(boundaries_.size(), 0);
  for (std::size_t k = boundaries_.size(); k-- > 0;) {
    const auto n = static_cast<index_t>(boundaries_[k].size()) - 1;
    c[k] = t % n;
    t /= n;
  }
  return c;
}

index_t Tiling::tile(IndexSpan coordinates) const {
  bool valid = coordinates.size() == boundaries_.size();
  index_t t = 0;
  for (std::size_t k = 0; valid && k < coordinates.size(); ++k) {
    const auto n = static_cast<index_t>(boundaries_[k].size()) - 1;
    valid = coordinates[k] >= 0 && coordinates[k] < n;
    t = t * n + coordinates[k];
  }
  if (!valid) {
    strata::detail::fail<IndexError>("Tiling::tile", "tile coordinates ",
                                     strata::to_string(coordinates), " outside the grid ",
                                     strata::to_string(grid()));
  }
  return t;
}

Index Tiling::tile_lo(index_t t) const {
  Index c = coordinates(t);
  for (std::size_t k = 0; k < c.size(); ++k) {
    c[k] = boundaries_[k][static_cast<std::size_t>(c[k])];
  }
  return c;
}

Index Tiling::tile_hi(index_t t) const {
  Index c = coordinates(t);
  for (std::size_t k = 0; k < c.size(); ++k) {
    c[k] = boundaries_[k][static_cast<std::size_t>(c[k]) + 1];
  }
  return c;
}

Index Tiling::tile_extents(index_t t) const {
  Index c = coordinates(t);
  for (std::size_t k = 0; k < c.size(); ++k) {
    const auto i = static_cast<std::size_t>(c[k]);
    c[k] = boundaries_[k][i + 1] - boundaries_[k][i];
  }
  return c;
}

index_t Tiling::tile_size(index_t t) const {
  index_t n = 1;
  for (const index_t e : tile_extents(t)) {
    n *= e;
  }
  return n;
}

index_t Tiling::tile_at(IndexSpan index) const {
  const Index extents = shape();
  bool valid = index.size() == boundaries_.size();
  for (std::size_t k = 0; valid && k < index.size(); ++k) {
    valid = index[k] >= 0 && index[k] < extents[k];
  }
  if (!valid) {
    strata::detail::fail<IndexError>("Tiling::tile_at", "index ", strata::to_string(index),
                                     " outside the shape ", strata::to_string(extents));
  }
  index_t t = 0;
  for (std::size_t k = 0; k < index.size(); ++k) {
    const auto& b = boundaries_[k];
    const auto c = std::upper_bound(b.begin(), b.end(), index[k]) - b.begin() - 1;
    t = t * (static_cast<index_t>(b.size()) - 1) + c;
  }
  return t;
}

std::vector<index_t> Tiling::tiles_in(IndexSpan lo, IndexSpan hi) const {
  const Index extents = shape();
  bool valid = lo.size() == boundaries_.size() && hi.size() == boundaries_.size();
  for (std::size_t k = 0; valid && k < lo.size(); ++k) {
    valid = 0 <= lo[k] && lo[k] <= hi[k] && hi[k] <= extents[k];
  }
  if (!valid) {
    strata::detail::fail<IndexError>("Tiling::tiles_in", "box [", strata::to_string(lo), ", ",
                                     strata::to_string(hi), ") outside the shape ",
                                     strata::to_string(extents));
  }
  // The range of tile coordinates along each axis, then every combination, row-major.
  Index first(lo.size(), 0);
  Index count(lo.size(), 0);
  for (std::size_t k = 0; k < lo.size(); ++k) {
    if (lo[k] == hi[k]) {
      return {};
    }
    const auto& b = boundaries_[k];
    const auto a = std::upper_bound(b.begin(), b.end(), lo[k]) - b.begin() - 1;
    const auto z = std::lower_bound(b.begin(), b.end(), hi[k]) - b.begin();  // one past
    first[k] = a;
    count[k] = z - a;
  }
  std::vector<index_t> out;
  Index c(lo.size(), 0);
  do {
    Index coordinates(lo.size(), 0);
    for (std::size_t k = 0; k < lo.size(); ++k) {
      coordinates[k] = first[k] + c[k];
    }
    out.push_back(tile(coordinates));
  } while (strata::detail::smooth_advance(count, c));
  return out;
}

std::uint64_t Tiling::digest() const noexcept {
  Digest d;
  for (const auto& b : boundaries_) {
    d.add(static_cast<std::uint64_t>(b.size()));
    for (const index_t x : b) {
      d.add(static_cast<std::uint64_t>(x));
    }
  }
  return d.value;
}

std::string Tiling::to_string() const {
  std::string out = "Tiling{";
  for (std::size_t k = 0; k < boundaries_.size(); ++k) {
    if (k > 0) {
      out += ' ';
    }
    out += describe(boundaries_[k]);
  }
  out += '}';
  return out;
}

// ---- Distribution ----------------------------------------------------------------------------

Distribution Distribution::block() {
  return {Kind::block, {}, {}, "block"};
}

Distribution Distribution::cyclic() {
  return {Kind::cyclic, {}, {}, "cyclic"};
}

namespace {

void check_process_grid(const char* operation, IndexSpan process_grid) {
  if (process_grid.empty() ||
      std::any_of(process_grid.begin(), process_grid.end(), [](index_t p) { return p < 1; })) {
    strata::detail::fail<ShapeError>(operation, "process grid ", strata::to_string(process_grid),
                                     ": needs one extent >= 1 per axis of the tiling");
  }
}

}  // namespace

Distribution Distribution::block(IndexSpan process_grid) {
  check_process_grid("Distribution::block", process_grid);
  std::string name = "block";
  name += strata::to_string(process_grid);
  return {Kind::block_grid, Index(process_grid), {}, std::move(name)};
}

Distribution Distribution::block_cyclic(IndexSpan process_grid) {
  check_process_grid("Distribution::block_cyclic", process_grid);
  std::string name = "block_cyclic";
  name += strata::to_string(process_grid);
  return {Kind::block_cyclic, Index(process_grid), {}, std::move(name)};
}

Distribution Distribution::by(OwnerFunction owner, std::string name) {
  return {Kind::function, {}, std::move(owner), std::move(name)};
}

std::vector<int> Distribution::owners(const Tiling& tiling, int n_ranks) const {
  const index_t n = tiling.n_tiles();
  std::vector<int> out(static_cast<std::size_t>(n), 0);
  if (kind_ == Kind::block_cyclic || kind_ == Kind::block_grid) {
    index_t processes = 1;
    for (const index_t p : grid_) {
      processes *= p;
    }
    if (std::cmp_not_equal(grid_.size(), tiling.rank()) || processes > n_ranks) {
      strata::detail::fail<ShapeError>(
          "Distribution::owners", "process grid ", strata::to_string(grid_),
          " for a tiling of rank ", tiling.rank(), " over ", n_ranks,
          " ranks: needs one extent per axis and at most ", n_ranks, " processes");
    }
  }
  for (index_t t = 0; t < n; ++t) {
    int owner = 0;
    switch (kind_) {
      case Kind::block:
        // rank r owns [r n / p, (r + 1) n / p): the owner of t is the largest such r.
        owner = static_cast<int>(((t + 1) * n_ranks - 1) / n);
        break;
      case Kind::cyclic:
        owner = static_cast<int>(t % n_ranks);
        break;
      case Kind::block_cyclic: {
        const Index c = tiling.coordinates(t);
        index_t r = 0;
        for (std::size_t k = 0; k < c.size(); ++k) {
          r = r * grid_[k] + c[k] % grid_[k];
        }
        owner = static_cast<int>(r);
        break;
      }
      case Kind::block_grid: {  // per axis as block(): contiguous runs of tiles
        const Index c = tiling.coordinates(t);
        const Index tiles = tiling.grid();
        index_t r = 0;
        for (std::size_t k = 0; k < c.size(); ++k) {
          r = r * grid_[k] + ((c[k] + 1) * grid_[k] - 1) / tiles[k];
        }
        owner = static_cast<int>(r);
        break;
      }
      case Kind::function: {
        const Index c = tiling.coordinates(t);
        owner = owner_(c);
        if (owner < 0 || owner >= n_ranks) {
          strata::detail::fail<IndexError>("Distribution::owners", "distribution '", name_,
                                           "' gives tile ", strata::to_string(c), " to rank ",
                                           owner, ", which does not exist (ranks 0 to ",
                                           n_ranks - 1, ")");
        }
        break;
      }
    }
    out[static_cast<std::size_t>(t)] = owner;
  }
  return out;
}

std::uint64_t Distribution::digest() const noexcept {
  Digest d;
  d.add(name_);
  return d.value;
}

std::string Distribution::to_string() const {
  return name_;
}

}  // namespace strata::dist
