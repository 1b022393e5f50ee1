// strata::draw: the non-template pictures and the SVG canvas.
#include "strata/draw/svg.hpp"

#include "strata/core/checked.hpp"

#include <algorithm>
#include <cmath>
#include <array>
#include <map>

namespace strata::draw {
namespace detail {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string colour(index_t k) {
  // Light tints of the Tableau 10 colours and two greys: distinct, and labels stay readable.
  static constexpr std::array<const char*, 12> palette = {
      "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94",
      "#f7b6d2", "#dbdb8d", "#9edae5", "#d9d9d9", "#fdd0a2", "#c7e9c0"};
  const auto n = static_cast<index_t>(palette.size());
  return palette[static_cast<std::size_t>(((k % n) + n) % n)];
}

std::string index_text(IndexSpan index) {
  std::string out;
  for (std::size_t k = 0; k < index.size(); ++k) {
    if (k > 0) {
      out += ' ';
    }
    out += std::to_string(index[k]);
  }
  return out;
}

Placement::Placement(std::string_view operation, int rank, const std::vector<Index>& indices)
    : rank_(rank) {
  if (rank > 4) {
    strata::detail::fail<ShapeError>(operation, "rank ", rank,
                                     " cannot be drawn; ranks 0 to 4 can (select a ",
                                     "slice of lower rank)");
  }
  if (static_cast<index_t>(indices.size()) > max_cells) {
    strata::detail::fail<ShapeError>(operation, indices.size(), " elements; at most ", max_cells,
                                     " are drawn (draw a slice)");
  }
  const auto r = static_cast<std::size_t>(rank);
  for (const Index& i : indices) {
    if (r >= 1) {
      block_cols_ = std::max(block_cols_, i[r - 1] + 1);
    }
    if (r >= 2) {
      block_rows_ = std::max(block_rows_, i[r - 2] + 1);
    }
    if (r == 3) {
      grid_cols_ = std::max(grid_cols_, i[0] + 1);
    }
    if (r == 4) {
      grid_rows_ = std::max(grid_rows_, i[0] + 1);
      grid_cols_ = std::max(grid_cols_, i[1] + 1);
    }
  }
  if (indices.empty()) {
    block_rows_ = block_cols_ = 0;
  }
}

std::pair<double, double> Placement::at(IndexSpan index) const {
  const auto r = static_cast<std::size_t>(rank_);
  const double gap = 0.5;
  double x = r >= 1 ? static_cast<double>(index[r - 1]) : 0.0;
  double y = r >= 2 ? static_cast<double>(index[r - 2]) : 0.0;
  if (r == 3) {
    x += static_cast<double>(index[0]) * (static_cast<double>(block_cols_) + gap);
  } else if (r == 4) {
    x += static_cast<double>(index[1]) * (static_cast<double>(block_cols_) + gap);
    y += static_cast<double>(index[0]) * (static_cast<double>(block_rows_) + gap);
  }
  return {x, y};
}

std::pair<double, double> Placement::extent() const {
  const double gap = 0.5;
  const auto w = static_cast<double>(grid_cols_) * (static_cast<double>(block_cols_) + gap) - gap;
  const auto h = static_cast<double>(grid_rows_) * (static_cast<double>(block_rows_) + gap) - gap;
  return {std::max(w, 0.0), std::max(h, 0.0)};
}

void Canvas::grow(double x, double y) {
  width_ = std::max(width_, x);
  height_ = std::max(height_, y);
}

void Canvas::rect(double x, double y, double w, double h, std::string_view fill,
                  std::string_view css_class, std::string_view attributes) {
  body_ << "<rect class=\"" << css_class << "\" x=\"" << x << "\" y=\"" << y << "\" width=\"" << w
        << "\" height=\"" << h << "\" fill=\"" << fill
        << "\" stroke=\"#4a4a4a\" stroke-width=\"0.75\"" << attributes << "/>\n";
  grow(x + w, y + h);
}

void Canvas::text(double x, double y, std::string_view content, double size,
                  std::string_view css_class, std::string_view anchor) {
  body_ << "<text class=\"" << css_class << "\" x=\"" << x << "\" y=\"" << y << "\" font-size=\""
        << size << "\" text-anchor=\"" << anchor << "\">" << escape(content) << "</text>\n";
  // Text extends right of a start anchor; estimate 0.62 em per character of monospace.
  const double length = 0.62 * size * static_cast<double>(content.size());
  grow(anchor == "start" ? x + length : anchor == "middle" ? x + length / 2 : x, y + 4);
}

void Canvas::line(double x1, double y1, double x2, double y2, std::string_view stroke,
                  std::string_view css_class, double width) {
  body_ << "<line class=\"" << css_class << "\" x1=\"" << x1 << "\" y1=\"" << y1 << "\" x2=\"" << x2
        << "\" y2=\"" << y2 << "\" stroke=\"" << stroke << "\" stroke-width=\"" << width
        << "\"/>\n";
  grow(std::max(x1, x2), std::max(y1, y2));
}

void Canvas::polyline(const std::vector<double>& points, std::string_view stroke,
                      std::string_view css_class, double width) {
  body_ << "<polyline class=\"" << css_class << "\" fill=\"none\" stroke=\"" << stroke
        << "\" stroke-width=\"" << width << "\" stroke-opacity=\"0.7\" points=\"";
  for (std::size_t k = 0; k + 1 < points.size(); k += 2) {
    body_ << (k == 0 ? "" : " ") << points[k] << "," << points[k + 1];
    grow(points[k], points[k + 1]);
  }
  body_ << "\"/>\n";
}

std::string Canvas::str() const {
  const double w = width_ + 20;
  const double h = height_ + 16;
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h
      << "\" viewBox=\"0 0 " << w << " " << h
      << "\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n"
      << "<rect class=\"background\" x=\"0\" y=\"0\" width=\"" << w << "\" height=\"" << h
      << "\" fill=\"#ffffff\"/>\n"
      << body_.str() << "</svg>\n";
  return out.str();
}

std::vector<Index> box_indices(std::string_view operation, IndexSpan shape) {
  const index_t size = checked_size(shape, operation);
  if (size > max_cells) {
    strata::detail::fail<ShapeError>(operation, "shape ", to_string(shape), " has ", size,
                                     " elements; at most ", max_cells, " are drawn (draw a slice)");
  }
  if (shape.size() > 4) {
    strata::detail::fail<ShapeError>(
        operation, "rank ", shape.size(),
        " cannot be drawn; ranks 0 to 4 can (select a slice of lower rank)");
  }
  std::vector<Index> out;
  out.reserve(static_cast<std::size_t>(size));
  Index i(shape.size(), 0);
  for (index_t n = 0; n < size; ++n) {
    out.push_back(i);
    for (std::size_t k = shape.size(); k-- > 0;) {
      if (++i[k] < shape[k]) {
        break;
      }
      i[k] = 0;
    }
  }
  return out;
}

}  // namespace detail

std::string dimensions(const Dimensions& d, std::string_view title) {
  detail::Canvas c;
  const double cell = detail::Canvas::cell;
  const double bottom = detail::grid(
      c, "draw::dimensions", d.shape(), std::string(title.empty() ? "dimensions" : title),
      [&](const Index& i) { return std::to_string(d.global_to_local(IndexSpan(i))); },
      [&](const Index& i) {
        return " data-address=\"" + std::to_string(d.global_to_local(IndexSpan(i))) + "\"";
      });
  std::ostringstream caption;
  caption << to_string(d) << "  (cells: buffer addresses)";
  c.text(20, bottom + 18, caption.str(), 11, "caption", "start");
  // The buffer, addresses 0 .. the highest the view reads, those it reads highlighted.
  if (d.size() > 0) {
    const index_t highest = d.address_range().second;
    if (highest < 64) {
      std::map<index_t, index_t> reads;
      for (const Index& i : detail::box_indices("draw::dimensions", d.shape())) {
        ++reads[d.global_to_local(IndexSpan(i))];
      }
      const double y = bottom + 48;
      c.text(20, y - 6, "buffer", 11, "caption", "start");
      const double small = cell * 0.75;
      for (index_t a = 0; a <= highest; ++a) {
        const auto it = reads.find(a);
        const bool read = it != reads.end();
        const double x = 20 + static_cast<double>(a) * small;
        c.rect(x, y, small, small, read ? detail::colour(2) : "#ffffff",
               read ? "buffer read" : "buffer",
               " data-address=\"" + std::to_string(a) + "\" data-reads=\"" +
                   std::to_string(read ? it->second : 0) + "\"");
        c.text(x + small / 2, y + small / 2 + 4, std::to_string(a), 9);
      }
    }
  }
  return c.str();
}

std::string layout(const Layout& l, std::string_view title) {
  const Smooth& logical = l.logical();
  const Index shape(logical.extents());
  const std::vector<Index> indices = detail::box_indices("draw::layout", shape);
  const detail::Placement p("draw::layout", static_cast<int>(shape.size()), indices);
  detail::Canvas c;
  c.text(20, 16, std::string(title.empty() ? l.to_string() : std::string(title)), 13, "title",
         "start");
  const double cell = detail::Canvas::cell;
  const double top = 28;
  std::vector<std::pair<index_t, std::pair<double, double>>> by_address;
  by_address.reserve(indices.size());
  detail::cells(p, indices, top, [&](std::size_t k, double x, double y) {
    const Index& i = indices[k];
    const index_t piece = l.piece_holding(i);
    const index_t address = l.address(i);
    c.rect(x, y, cell, cell, detail::colour(piece), "cell",
           detail::index_attribute(i) + " data-address=\"" + std::to_string(address) +
               "\" data-tile=\"" + std::to_string(piece) + "\"");
    c.text(x + cell / 2, y + cell / 2 + 4, std::to_string(address));
    by_address.push_back({address, {x + cell / 2, y + cell / 2}});
  });
  std::sort(by_address.begin(), by_address.end());
  std::vector<double> points;
  for (const auto& [address, centre] : by_address) {
    points.push_back(centre.first);
    points.push_back(centre.second);
  }
  if (points.size() >= 4) {
    c.polyline(points, "#d62728", "order", 1.2);
  }
  std::ostringstream caption;
  caption << l.n_pieces() << (l.kind() == Layout::Kind::tiled ? " tiles" : " piece")
          << "; cells: address; line: storage order";
  c.text(20, top + p.extent().second * cell + 18, caption.str(), 11, "caption", "start");
  return c.str();
}

std::string projection(const ZProjection& p, const ZRange& index_space, IndexSpan block,
                       const ZRange& tensor_space, std::string_view title) {
  const int ir = index_space.rank();
  const int tr = tensor_space.rank();
  if (ir < 1 || ir > 2 || tr < 1 || tr > 2 || p.index_rank() != ir || p.tensor_rank() != tr ||
      static_cast<int>(block.size()) != ir) {
    strata::detail::fail<ShapeError>(
        "draw::projection", "a projection of index rank ", p.index_rank(), " and tensor rank ",
        p.tensor_rank(), " over an index space of rank ", ir, ", blocks of rank ", block.size(),
        " and a tensor of rank ", tr, ": ranks 1 or 2 that agree are drawn");
  }
  for (const index_t b : block) {
    if (b <= 0) {
      strata::detail::fail<ShapeError>("draw::projection", "block ", to_string(block),
                                       " has an extent <= 0");
    }
  }
  // The blocks: index_space split along each axis.
  std::vector<ZRange> blocks{index_space};
  for (int a = 0; a < ir; ++a) {
    std::vector<ZRange> next;
    for (const ZRange& b : blocks) {
      for (ZRange& part : b.split(a, block[static_cast<std::size_t>(a)])) {
        next.push_back(std::move(part));
      }
    }
    blocks = std::move(next);
  }
  const auto as_2d = [](IndexSpan i) { return i.size() == 1 ? Index{0, i[0]} : Index{i[0], i[1]}; };
  const Index index_shape = index_space.shape();
  const Index tensor_shape = tensor_space.shape();
  const std::vector<Index> points = detail::box_indices("draw::projection", index_shape);
  const std::vector<Index> elements = detail::box_indices("draw::projection", tensor_shape);
  const double cell = detail::Canvas::cell;
  const double top = 44;
  detail::Canvas c;
  c.text(20, 16, std::string(title.empty() ? "index projection" : title), 13, "title", "start");
  c.text(20, 36, "index space " + to_string(index_space) + ", blocks " + to_string(block), 11,
         "caption", "start");
  // Index space: each point coloured by its block.
  std::vector<ZRange> regions;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    regions.push_back(p.apply(blocks[b]).intersection(tensor_space));
  }
  double right = 0;
  for (const Index& offset : points) {
    Index point = offset;
    for (std::size_t a = 0; a < point.size(); ++a) {
      point[a] += index_space.start()[a];
    }
    std::size_t b = 0;
    while (b < blocks.size() && !blocks[b].contains(point)) {
      ++b;
    }
    const Index at = as_2d(offset);
    const double x = 20 + static_cast<double>(at[1]) * cell;
    const double y = top + static_cast<double>(at[0]) * cell;
    c.rect(x, y, cell, cell, detail::colour(static_cast<index_t>(b)), "point",
           detail::index_attribute(point) + " data-block=\"" + std::to_string(b) + "\"");
    c.text(x + cell / 2, y + cell / 2 + 4, detail::index_text(point), 9);
    right = std::max(right, x + cell);
  }
  // Tensor space: each element shaded by how many block regions read it.
  const double left = right + 2 * cell;
  c.text(left, 36, "tensor " + to_string(tensor_space) + ": regions read by each block", 11,
         "caption", "start");
  for (const Index& offset : elements) {
    Index element = offset;
    for (std::size_t a = 0; a < element.size(); ++a) {
      element[a] += tensor_space.start()[a];
    }
    index_t readers = 0;
    for (const ZRange& r : regions) {
      readers += r.contains(element) ? 1 : 0;
    }
    const Index at = as_2d(offset);
    const double x = left + static_cast<double>(at[1]) * cell;
    const double y = top + static_cast<double>(at[0]) * cell;
    c.rect(x, y, cell, cell,
           readers > 1   ? "#bdbdbd"
           : readers > 0 ? "#f0f0f0"
                         : "#ffffff",
           readers > 1 ? "cell halo" : "cell",
           detail::index_attribute(element) + " data-readers=\"" + std::to_string(readers) + "\"");
    c.text(x + cell / 2, y + cell / 2 + 4, detail::index_text(element), 9);
  }
  // Each block's region, outlined in the block's colour (inset a little per block so that
  // coinciding edges stay visible).
  for (std::size_t b = 0; b < regions.size(); ++b) {
    const ZRange& r = regions[b];
    if (r.empty()) {
      continue;
    }
    Index lo = r.start();
    Index hi = r.end();
    for (std::size_t a = 0; a < lo.size(); ++a) {
      lo[a] -= tensor_space.start()[a];
      hi[a] -= tensor_space.start()[a];
    }
    const Index lo2 = as_2d(lo);
    const Index hi2 = lo.size() == 1 ? Index{1, hi[0]} : Index{hi[0], hi[1]};
    const double inset = 2.0 + 2.0 * static_cast<double>(b % 4);
    const double x = left + static_cast<double>(lo2[1]) * cell + inset;
    const double y = top + static_cast<double>(lo2[0]) * cell + inset;
    const double w = static_cast<double>(hi2[1] - lo2[1]) * cell - 2 * inset;
    const double h = static_cast<double>(hi2[0] - lo2[0]) * cell - 2 * inset;
    const std::string stroke = detail::colour(static_cast<index_t>(b));
    c.polyline({x, y, x + w, y, x + w, y + h, x, y + h, x, y}, stroke, "region", 3.0);
  }
  const auto rows = [](const Index& shape) { return shape.size() == 1 ? 1 : shape[0]; };
  const double bottom =
      top + static_cast<double>(std::max(rows(index_shape), rows(tensor_shape))) * cell;
  c.text(20, bottom + 18,
         std::to_string(blocks.size()) +
             " blocks; outlines: the region each block reads; grey: read by more than one block",
         11, "caption", "start");
  return c.str();
}

std::string distribution(const dist::Tiling& tiling, const std::vector<int>& owners, IndexSpan lo,
                         IndexSpan hi, std::string_view title) {
  const Index shape = tiling.shape();
  if (tiling.rank() > 2 || std::cmp_not_equal(owners.size(), tiling.n_tiles())) {
    strata::detail::fail<ShapeError>("draw::distribution", "a tiling of rank ", tiling.rank(),
                                     " with ", tiling.n_tiles(), " tiles and ", owners.size(),
                                     " owners: ranks 1 and 2 are drawn, one owner per tile");
  }
  const bool patch = !lo.empty();
  if (patch) {
    bool valid = lo.size() == shape.size() && hi.size() == shape.size();
    for (std::size_t k = 0; valid && k < shape.size(); ++k) {
      valid = 0 <= lo[k] && lo[k] <= hi[k] && hi[k] <= shape[k];
    }
    if (!valid) {
      strata::detail::fail<IndexError>("draw::distribution", "patch [", to_string(lo), ", ",
                                       to_string(hi), ") outside the shape ", to_string(shape));
    }
  }
  const std::vector<Index> indices = detail::box_indices("draw::distribution", shape);
  const detail::Placement p("draw::distribution", tiling.rank(), indices);
  detail::Canvas c;
  std::string heading(title.empty() ? tiling.to_string() : std::string(title));
  c.text(20, 16, heading, 13, "title", "start");
  const double cell = detail::Canvas::cell;
  const double top = 28;
  detail::cells(p, indices, top, [&](std::size_t k, double x, double y) {
    const Index& i = indices[k];
    const index_t t = tiling.tile_at(i);
    const int owner = owners[static_cast<std::size_t>(t)];
    bool inside = patch;
    for (std::size_t a = 0; inside && a < i.size(); ++a) {
      inside = lo[a] <= i[a] && i[a] < hi[a];
    }
    std::string attributes = detail::index_attribute(i);
    attributes += " data-tile=\"" + std::to_string(t) + "\" data-owner=\"";
    attributes += std::to_string(owner);
    attributes += inside ? "\" data-patch=\"1\"" : "\"";
    c.rect(x, y, cell, cell, detail::colour(owner), inside ? "cell patch" : "cell", attributes);
    std::string label(1, 'r');
    label += std::to_string(owner);
    c.text(x + cell / 2, y + cell / 2 + 4, label, 10);
  });
  // Tile boundaries: thick lines across the picture (rank 1: vertical lines only).
  const auto [width, height] = p.extent();
  const std::size_t last = shape.size() - 1;
  for (const index_t b : tiling.boundaries(static_cast<int>(last))) {
    const double x = 20 + static_cast<double>(b) * cell;
    c.line(x, top, x, top + height * cell, "#222222", "tile-boundary", 3);
  }
  if (shape.size() == 2) {
    for (const index_t b : tiling.boundaries(0)) {
      const double y = top + static_cast<double>(b) * cell;
      c.line(20, y, 20 + width * cell, y, "#222222", "tile-boundary", 3);
    }
  }
  std::string caption = "cells: owner rank; thick lines: tile boundaries";
  if (patch) {
    // The patch as a closed red outline: rows [lo0, hi0) x columns [lo1, hi1).
    const double x0 = 20 + static_cast<double>(lo[last]) * cell;
    const double x1 = 20 + static_cast<double>(hi[last]) * cell;
    const double y0 = top + (shape.size() == 2 ? static_cast<double>(lo[0]) * cell : 0);
    const double y1 = top + (shape.size() == 2 ? static_cast<double>(hi[0]) * cell : cell);
    c.polyline({x0, y0, x1, y0, x1, y1, x0, y1, x0, y0}, "#d62728", "patch-outline", 4);
    std::vector<int> ranks;
    for (const index_t t : tiling.tiles_in(lo, hi)) {
      ranks.push_back(owners[static_cast<std::size_t>(t)]);
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    caption += "; red: the patch [";  // in NumPy's slice notation: [2:7, 3:9]
    for (std::size_t k = 0; k < lo.size(); ++k) {
      caption += (k == 0 ? "" : ", ") + std::to_string(lo[k]) + ":" + std::to_string(hi[k]);
    }
    caption += "], held by ranks";
    for (const int r : ranks) {
      caption += ' ';
      caption += std::to_string(r);
    }
  }
  c.text(20, top + height * cell + 18, caption, 11, "caption", "start");
  return c.str();
}

std::string chunks(IndexSpan shape, IndexSpan chunk, const Dimensions& view,
                   std::string_view title) {
  constexpr std::string_view op = "draw::chunks";
  if (shape.empty() || shape.size() > 2 || chunk.size() != shape.size()) {
    strata::detail::fail<ShapeError>(op, "an array of shape ", to_string(shape), " in chunks ",
                                     to_string(chunk), ": ranks 1 and 2 are drawn, one chunk "
                                     "extent per axis");
  }
  for (const index_t c : chunk) {
    if (c < 1) {
      strata::detail::fail<ShapeError>(op, "chunks ", to_string(chunk), " have an extent below 1");
    }
  }
  const index_t size = checked_size(shape, op);
  const auto [lo_address, hi_address] = view.address_range();
  if (view.size() > 0 && (lo_address < 0 || hi_address >= size)) {
    strata::detail::fail<IndexError>(op, "the view reads addresses ", lo_address, " to ",
                                     hi_address, " of an array of ", size, " elements");
  }
  const std::vector<Index> indices = detail::box_indices(op, shape);
  const index_t columns = shape.size() == 2 ? shape[1] : shape[0];
  const index_t chunk_columns = (columns + chunk.back() - 1) / chunk.back();
  const auto chunk_of = [&](index_t address) {
    const index_t r = shape.size() == 2 ? address / columns : 0;
    const index_t c = address % columns;
    return (shape.size() == 2 ? r / chunk[0] : 0) * chunk_columns + c / chunk.back();
  };
  std::vector<char> read(static_cast<std::size_t>(size), 0);
  std::vector<index_t> touched;
  for (index_t i = 0; i < view.size(); ++i) {
    const index_t a = view.global_to_local(i);
    read[static_cast<std::size_t>(a)] = 1;
    touched.push_back(chunk_of(a));
  }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  const index_t chunk_rows = shape.size() == 2 ? (shape[0] + chunk[0] - 1) / chunk[0] : 1;
  const detail::Placement p(op, static_cast<int>(shape.size()), indices);
  detail::Canvas c;
  c.text(20, 16, std::string(title), 13, "title", "start");
  const double cell = detail::Canvas::cell;
  const double top = 28;
  detail::cells(p, indices, top, [&](std::size_t k, double x, double y) {
    const Index& i = indices[k];
    const index_t a = shape.size() == 2 ? i[0] * columns + i[1] : i[0];
    const bool in_view = read[static_cast<std::size_t>(a)] != 0;
    const bool in_chunk = std::binary_search(touched.begin(), touched.end(), chunk_of(a));
    const char* fill = in_view ? "#1f77b4" : in_chunk ? "#c6dbef" : "#ffffff";
    c.rect(x, y, cell, cell, fill, in_view ? "cell read" : in_chunk ? "cell chunk" : "cell",
           detail::index_attribute(i));
  });
  const auto [width, height] = p.extent();
  // Chunk boundaries, and the array's far edge where the last chunk is cut short.
  const auto boundaries = [](index_t extent, index_t step) {
    std::vector<index_t> b;
    for (index_t at = 0; at < extent; at += step) {
      b.push_back(at);
    }
    b.push_back(extent);
    return b;
  };
  for (const index_t b : boundaries(columns, chunk.back())) {
    const double x = 20 + static_cast<double>(b) * cell;
    c.line(x, top, x, top + height * cell, "#222222", "chunk-boundary", 3);
  }
  if (shape.size() == 2) {
    for (const index_t b : boundaries(shape[0], chunk[0])) {
      const double y = top + static_cast<double>(b) * cell;
      c.line(20, y, 20 + width * cell, y, "#222222", "chunk-boundary", 3);
    }
  }
  const std::string caption = "dark: the view's elements; shaded: the rest of the chunks it "
                              "touches; " + std::to_string(touched.size()) + " of " +
                              std::to_string(chunk_rows * chunk_columns) + " chunks read";
  c.text(20, top + height * cell + 18, caption, 11, "caption", "start");
  return c.str();
}

std::string contraction(const ContractionPlan& plan, std::string_view title) {
  const EinsumSpec& spec = plan.spec();
  const auto names = [&](const std::vector<int>& labels) {
    std::string out;
    for (const int l : labels) {
      const std::string& n = spec.names[static_cast<std::size_t>(l)];
      if (n.size() == 1) {
        out += n;
      } else {
        out += "(";
        out += n;
        out += ")";
      }
    }
    return out.empty() ? std::string("-") : out;
  };
  const auto extent = [&](const std::vector<int>& labels) {
    index_t e = 1;
    for (const int l : labels) {
      e *= plan.extents()[static_cast<std::size_t>(l)];
    }
    return e;
  };
  detail::Canvas c;
  // Strings are built by appending: GCC 12 warns falsely on `"literal" + std::string&&`.
  const auto cat = [](std::initializer_list<std::string_view> parts) {
    std::string out;
    for (const std::string_view p : parts) {
      out += p;
    }
    return out;
  };
  c.text(20, 18, title.empty() ? cat({"einsum ", spec.to_string()}) : std::string(title), 13,
         "title", "start");
  // Group colours: rows, columns, summed, batch.
  const std::string rows_colour = detail::colour(0);
  const std::string columns_colour = detail::colour(1);
  const std::string summed_colour = detail::colour(2);
  const std::string batch_colour = detail::colour(3);
  double y = 40;
  for (std::size_t k = 0; k < plan.reduced_inputs().size(); ++k) {
    if (plan.reduced_inputs()[k] != spec.inputs[k]) {
      c.text(20, y + 12,
             cat({"operand ", std::to_string(k), ": ", names(spec.inputs[k]), " -> ",
                  names(plan.reduced_inputs()[k]), "  (its diagonals and own sums, one pass)"}),
             11, "caption", "start");
      y += 22;
    }
  }
  std::vector<std::string> live;
  for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
    live.push_back(cat({"op", std::to_string(k)}));
  }
  const double unit = 28;
  for (std::size_t k = 0; k < plan.steps().size(); ++k) {
    const ContractionStep& s = plan.steps()[k];
    std::ostringstream head;
    head << "step " << k + 1 << ": " << live[static_cast<std::size_t>(s.left)] << " x "
         << live[static_cast<std::size_t>(s.right)] << " -> t" << k + 1 << " ("
         << to_string(s.engine) << ", " << std::setprecision(3) << s.flops << " flops)";
    c.text(20, y + 12, head.str(), 11, "caption", "start");
    y += 22;
    // Matrix sides: 1 to 3 units, by the log of each group's extent.
    const auto side = [&](const std::vector<int>& labels) {
      const auto e = static_cast<double>(std::max<index_t>(extent(labels), 1));
      return unit * (labels.empty() ? 0.6 : 1.0 + std::min(2.0, std::log10(e)));
    };
    const double r = side(s.rows);
    const double q = side(s.contracted);
    const double col = side(s.columns);
    double x = 40;
    if (!s.batch.empty()) {
      c.rect(x, y, unit * 1.4, unit, batch_colour, "batch");
      c.text(x + unit * 0.7, y + unit / 2 + 4, cat({"for ", names(s.batch)}));
      x += unit * 1.8;
    }
    // left: rows x summed
    c.rect(x, y + 14, q, r, rows_colour, "operand",
           cat({" data-step=\"", std::to_string(k + 1), "\""}));
    c.text(x + q / 2, y + 10, names(s.contracted), 11, "summed");
    c.text(x - 4, y + 14 + r / 2 + 4, names(s.rows), 11, "rows", "end");
    x += q + 18;
    c.text(x, y + 14 + r / 2 + 4, "x", 13);
    x += 14;
    // right: summed x columns
    c.rect(x, y + 14, col, q, columns_colour, "operand");
    c.text(x + col / 2, y + 10, names(s.columns), 11, "columns");
    c.text(x + col + 4, y + 14 + q / 2 + 4, names(s.contracted), 11, "summed", "start");
    x += col + 34;
    c.text(x, y + 14 + r / 2 + 4, "=", 13);
    x += 14;
    // result: rows x columns
    c.rect(x, y + 14, col, r, summed_colour, "result");
    c.text(x + col / 2, y + 10, names(s.columns), 11, "columns");
    c.text(x + col + 4, y + 14 + r / 2 + 4, cat({"t", std::to_string(k + 1), " = ", names(s.labels)}),
           11, "label", "start");
    y += 14 + std::max({r, q, unit}) + 16;
    live.push_back(cat({"t", std::to_string(k + 1)}));
  }
  c.text(20, y + 8,
         "left operand: rows x summed; right: summed x columns; each handed to BLIS with its own "
         "strides when its groups coalesce, packed by a copy otherwise",
         10, "caption", "start");
  return c.str();
}

}  // namespace strata::draw
