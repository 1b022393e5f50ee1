/// @file
/// strata::draw: the library draws its own pictures, as SVG text: address maps, tensors, layouts
/// with their tiles, shapes and their slices (absolute and relative indices), jagged tensors
/// (values + offsets), selection trees (each block coloured by the tensor it reads) and index
/// projections over blocks (the regions they read, overlaps shaded). The docs' pictures are
/// drawn by these functions (docs/pictures.cpp), so they never go stale.
#pragma once

#include "strata/contract/plan.hpp"
#include "strata/core/error.hpp"
#include "strata/core/index.hpp"
#include "strata/dist/tiling.hpp"
#include "strata/layout/dimensions.hpp"
#include "strata/layout/layout.hpp"
#include "strata/projection/zprojection.hpp"
#include "strata/projection/zrange.hpp"
#include "strata/select/selection.hpp"
#include "strata/shape/shape_api.hpp"
#include "strata/tensor/jagged_tensor.hpp"
#include "strata/tensor/sparse.hpp"
#include "strata/tensor/tensor.hpp"

#include <iomanip>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

/// SVG pictures of strata's objects.
///
/// Every function returns a complete SVG document (UTF-8 text; write it to a `.svg` file or
/// embed it in HTML). Elements are placed on a grid by their index: rank 1 is one row, rank 2
/// rows and columns, rank 3 a row of rank-2 blocks, rank 4 a grid of rank-2 blocks (ranks above
/// 4 are refused). Each element is an SVG `rect` of class `cell` carrying `data-index` (its
/// index, space-separated) and a `data-` attribute per quantity drawn (`data-address`,
/// `data-tile`, `data-source`...), so a picture can be checked by a program as well as read.
///
/// @code
/// auto t = strata::iota<int>({3, 4}).transpose();
/// std::ofstream("transpose.svg") << strata::draw::dimensions(t.dims(), "t.transpose()");
/// @endcode
/// Design page: @ref drawing_page.
namespace strata::draw {

/// The most elements one picture draws; larger objects are refused (draw a slice of them).
inline constexpr index_t max_cells = 4096;

/// A name for the storage of a tensor, for the legend of draw::selection().
struct Source {
  std::string name;     ///< the name shown in the legend
  const void* storage;  ///< the tensor's AnyBuffer::identity()
};

/// Names a tensor for draw::selection().
/// @param name the name shown in the legend
/// @param t the tensor (its storage identifies it; views of one buffer share the name)
/// @return the source
template <class T>
Source source(std::string name, const Tensor<T>& t) {
  return Source{std::move(name), t.buffer().identity()};
}

namespace detail {

/// Escapes text for SVG (&, <, >, ").
std::string escape(std::string_view text);

/// The fill colour of category @p k (a fixed 12-colour palette; categories past 12 repeat).
std::string colour(index_t k);

/// Where each element of a picture goes: a grid of rank-2 blocks (see the namespace docs).
class Placement {
 public:
  /// A placement for indices of rank @p rank, every index in @p indices (absolute).
  /// @throws ShapeError for a rank above 4 or more than max_cells indices
  Placement(std::string_view operation, int rank, const std::vector<Index>& indices);
  /// The top-left corner of the element at @p index, in cell units (x, y).
  [[nodiscard]] std::pair<double, double> at(IndexSpan index) const;
  /// The picture's extent in cell units (width, height).
  [[nodiscard]] std::pair<double, double> extent() const;

 private:
  int rank_;
  index_t block_rows_ = 1;  // the largest inner extents, in cells
  index_t block_cols_ = 1;
  index_t grid_cols_ = 1;  // blocks per row of blocks (rank 4: the second outer extent)
  index_t grid_rows_ = 1;
};

/// An SVG document under construction (coordinates in pixels).
class Canvas {
 public:
  /// The pixel size of one cell.
  static constexpr double cell = 36.0;
  /// A rectangle; @p attributes is extra attribute text (` data-x="1"`).
  void rect(double x, double y, double w, double h, std::string_view fill,
            std::string_view css_class, std::string_view attributes = {});
  /// Text centred at (x, y) (anchor "middle", "start" or "end").
  void text(double x, double y, std::string_view content, double size = 11,
            std::string_view css_class = "label", std::string_view anchor = "middle");
  /// A straight line.
  void line(double x1, double y1, double x2, double y2, std::string_view stroke,
            std::string_view css_class, double width = 1.5);
  /// A line through @p points (x0 y0 x1 y1 ...).
  void polyline(const std::vector<double>& points, std::string_view stroke,
                std::string_view css_class, double width = 1.5);
  /// The whole document.
  [[nodiscard]] std::string str() const;

 private:
  void grow(double x, double y);
  std::ostringstream body_;
  double width_ = 0;
  double height_ = 0;
};

/// An index as space-separated text ("1 2").
std::string index_text(IndexSpan index);

/// The ` data-index="i j ..."` attribute of an element.
inline std::string index_attribute(IndexSpan index) {
  return " data-index=\"" + index_text(index) + "\"";
}

/// A short label for a value.
template <class T>
std::string value_label(const T& value) {
  std::ostringstream out;
  if constexpr (std::is_same_v<T, bool>) {
    out << (value ? "T" : "F");
  } else if constexpr (std::is_floating_point_v<T>) {
    out << std::setprecision(3) << value;
  } else if constexpr (std::is_integral_v<T> && sizeof(T) == 1) {
    out << static_cast<int>(value);
  } else {
    out << value;
  }
  return out.str();
}

/// Draws cells at @p indices: `paint(k, x, y)` draws element k at pixel (x, y).
template <class Paint>
void cells(const Placement& p, const std::vector<Index>& indices, double top, Paint&& paint) {
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const auto [x, y] = p.at(indices[k]);
    paint(k, 20.0 + x * Canvas::cell, top + y * Canvas::cell);
  }
}

/// The indices of a shape, absolute; refused above max_cells.
template <ShapeLike S>
std::vector<Index> shape_indices(std::string_view operation, const S& s) {
  if (s.size() > max_cells) {
    strata::detail::fail<ShapeError>(operation, "the shape has ", s.size(), " elements; at most ",
                                     max_cells, " are drawn (draw a slice)");
  }
  std::vector<Index> out;
  out.reserve(static_cast<std::size_t>(s.size()));
  for (const auto& i : s.indices()) {
    out.emplace_back(i);
  }
  return out;
}

/// The row-major indices of a box shape; refused above max_cells.
std::vector<Index> box_indices(std::string_view operation, IndexSpan shape);

/// Draws a titled grid of labelled cells for a box of @p shape into @p c: `label(index)` is the
/// cell's text, `attributes(index)` its extra attributes. @return the y below the grid
template <class Label, class Attributes>
double grid(Canvas& c, std::string_view operation, IndexSpan shape, const std::string& title,
            Label&& label, Attributes&& attributes) {
  const std::vector<Index> indices = box_indices(operation, shape);
  const Placement p(operation, static_cast<int>(shape.size()), indices);
  c.text(20, 16, title, 13, "title", "start");
  cells(p, indices, 28, [&](std::size_t k, double x, double y) {
    const Index& i = indices[k];
    c.rect(x, y, Canvas::cell, Canvas::cell, "#e8eef7", "cell", index_attribute(i) + attributes(i));
    c.text(x + Canvas::cell / 2, y + Canvas::cell / 2 + 4, label(i));
  });
  return 28 + p.extent().second * Canvas::cell;
}

}  // namespace detail

/// A Dimensions (a view's address map): one cell per index, labelled with the buffer address
/// it reads (global_to_local), under it the buffer with the addresses the view reads
/// highlighted, and the shape, strides and offset as a caption.
/// @param d the map (rank <= 4, at most max_cells elements)
/// @param title the picture's title (for example the expression that made the view)
/// @return the SVG document
/// @throws ShapeError for a rank above 4 or too many elements
std::string dimensions(const Dimensions& d, std::string_view title = {});

/// A tensor: one cell per element labelled with its value, its buffer address in the cell's
/// `data-address`.
/// @param t the tensor (any view; rank <= 4, at most max_cells elements)
/// @param title the picture's title
/// @return the SVG document
/// @throws ShapeError for a rank above 4 or too many elements
template <class T>
std::string tensor(const Tensor<T>& t, std::string_view title = {}) {
  const Dimensions& d = t.dims();
  std::ostringstream caption;
  caption << "shape " << to_string(t.shape()) << "  strides " << to_string(d.strides())
          << "  offset " << d.offset();
  detail::Canvas c;
  const double bottom = detail::grid(
      c, "draw::tensor", t.shape(), std::string(title),
      [&](const Index& i) { return detail::value_label(t.at(i)); },
      [&](const Index& i) {
        return " data-address=\"" + std::to_string(d.global_to_local(IndexSpan(i))) + "\"";
      });
  c.text(20, bottom + 18, caption.str(), 11, "caption", "start");
  return c.str();
}

/// A Layout: the logical elements coloured by the piece (tile) that stores them, labelled with
/// their address, and the storage order drawn as a line through the elements in address order.
/// Ragged edge tiles show as smaller blocks of one colour.
/// @param l the layout (logical rank <= 4, at most max_cells elements)
/// @param title the picture's title
/// @return the SVG document
/// @throws ShapeError for a rank above 4 or too many elements
std::string layout(const Layout& l, std::string_view title = {});

/// A shape: one cell per index, at its absolute position, labelled with the absolute index.
/// Jagged rows show their own lengths; nested shapes show their outer modes as blocks.
/// @param s any shape or shape view (rank <= 4, at most max_cells elements)
/// @param title the picture's title
/// @return the SVG document
/// @throws ShapeError for a rank above 4 or too many elements
template <ShapeLike S>
std::string shape(const S& s, std::string_view title = {}) {
  const std::vector<Index> indices = detail::shape_indices("draw::shape", s);
  const detail::Placement p("draw::shape", s.rank(), indices);
  detail::Canvas c;
  c.text(20, 16, std::string(title.empty() ? s.to_string() : std::string(title)), 13, "title",
         "start");
  detail::cells(p, indices, 28, [&](std::size_t k, double x, double y) {
    c.rect(x, y, detail::Canvas::cell, detail::Canvas::cell, detail::colour(0), "cell",
           detail::index_attribute(indices[k]));
    c.text(x + detail::Canvas::cell / 2, y + detail::Canvas::cell / 2 + 4,
           to_string(indices[k]).substr(1, to_string(indices[k]).size() - 2), 9);
  });
  return c.str();
}

/// A slice of a shape inside the shape it came from: the parent's elements in grey with their
/// absolute index, the slice's coloured with its absolute index (top) and its index relative
/// to the slice's origin (bottom, in parentheses). Cells of the slice carry `data-relative`.
/// @param parent the shape
/// @param view a slice of it (its indices are the parent's)
/// @param title the picture's title
/// @return the SVG document
/// @throws ShapeError for a rank above 4, ranks that differ, or too many elements
template <ShapeLike P, ShapeLike V>
std::string slice(const P& parent, const V& view, std::string_view title = {}) {
  if (parent.rank() != view.rank()) {
    strata::detail::fail<ShapeError>("draw::slice", "the slice has rank ", view.rank(),
                                     ", the shape ", parent.rank());
  }
  const std::vector<Index> all = detail::shape_indices("draw::slice", parent);
  const std::vector<Index> inside = detail::shape_indices("draw::slice", view);
  const detail::Placement p("draw::slice", parent.rank(), all);
  detail::Canvas c;
  c.text(20, 16,
         std::string(title.empty() ? view.to_string() + " in " + parent.to_string()
                                   : std::string(title)),
         13, "title", "start");
  const auto bare = [](const Index& i) {
    const std::string s = to_string(i);
    return s.substr(1, s.size() - 2);
  };
  const double cell = detail::Canvas::cell;
  detail::cells(p, all, 28, [&](std::size_t k, double x, double y) {
    c.rect(x, y, cell, cell, "#eeeeee", "cell", detail::index_attribute(all[k]));
    c.text(x + cell / 2, y + cell / 2 + 4, bare(all[k]), 9, "absolute");
  });
  const Index origin = view.origin();
  detail::cells(p, inside, 28, [&](std::size_t k, double x, double y) {
    Index relative = inside[k];
    for (std::size_t a = 0; a < relative.size(); ++a) {
      relative[a] -= origin[a];
    }
    c.rect(x, y, cell, cell, detail::colour(1), "cell slice",
           detail::index_attribute(inside[k]) + " data-relative=\"" + detail::index_text(relative) +
               "\"");
    c.text(x + cell / 2, y + 14, bare(inside[k]), 9, "absolute");
    std::string in_parentheses(1, '(');  // not "(" + ...: GCC 12 warns falsely (-Wrestrict)
    in_parentheses += bare(relative);
    in_parentheses += ')';
    c.text(x + cell / 2, y + 28, in_parentheses, 9, "relative");
  });
  const double bottom = 28 + p.extent().second * cell + 18;
  c.text(20, bottom,
         "grey: the shape, absolute indices; coloured: the slice, origin " + to_string(origin) +
             ", relative index in ( )",
         11, "caption", "start");
  return c.str();
}

/// A jagged tensor: its rows as ragged rows of values, under them the values array coloured
/// by row and the offsets array with a pointer from each offset to the value it starts at.
/// @param t a jagged tensor with one outer mode and one inner mode (at most max_cells values)
/// @param title the picture's title
/// @return the SVG document
/// @throws ShapeError for another rank or too many values
template <class T>
std::string jagged(const JaggedTensor<T>& t, std::string_view title = {}) {
  const Jagged& s = t.shape();
  if (s.rank() != 2 || s.outer_rank() != 1) {
    strata::detail::fail<ShapeError>("draw::jagged", "the tensor has rank ", s.rank(),
                                     " (outer rank ", s.outer_rank(),
                                     "); rows of one inner mode are drawn");
  }
  if (s.size() > max_cells) {
    strata::detail::fail<ShapeError>("draw::jagged", "the tensor has ", s.size(),
                                     " values; at most ", max_cells, " are drawn");
  }
  const double cell = detail::Canvas::cell;
  const std::span<const index_t> offsets = t.offsets();
  const Tensor<const T> values = t.values();
  const index_t rows = s.n_rows();
  detail::Canvas c;
  c.text(20, 16, std::string(title.empty() ? s.to_string() : std::string(title)), 13, "title",
         "start");
  double y = 28;
  for (index_t r = 0; r < rows; ++r) {
    c.text(56, y + cell / 2 + 4, "row " + std::to_string(r), 10, "caption", "end");
    const index_t n =
        offsets[static_cast<std::size_t>(r + 1)] - offsets[static_cast<std::size_t>(r)];
    for (index_t j = 0; j < n; ++j) {
      const index_t v = offsets[static_cast<std::size_t>(r)] + j;
      const double x = 60 + static_cast<double>(j) * cell;
      c.rect(x, y, cell, cell, detail::colour(r), "cell row-cell",
             detail::index_attribute(Index{r, j}) + " data-value-at=\"" + std::to_string(v) + "\"");
      c.text(x + cell / 2, y + cell / 2 + 4, detail::value_label(values.at({v})));
    }
    y += cell;
  }
  y += 24;
  c.text(56, y + cell / 2 + 4, "values", 11, "caption", "end");
  for (index_t r = 0; r < rows; ++r) {
    for (index_t v = offsets[static_cast<std::size_t>(r)];
         v < offsets[static_cast<std::size_t>(r + 1)]; ++v) {
      const double x = 60 + static_cast<double>(v) * cell;
      c.rect(x, y, cell, cell, detail::colour(r), "value",
             " data-index=\"" + std::to_string(v) + "\" data-row=\"" + std::to_string(r) + "\"");
      c.text(x + cell / 2, y + cell / 2 + 4, detail::value_label(values.at({v})));
      c.text(x + cell / 2, y - 3, std::to_string(v), 8, "caption");
    }
  }
  const double values_y = y;
  y += cell + 40;
  c.text(56, y + cell / 2 + 4, "offsets", 11, "caption", "end");
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    const double x = 60 + static_cast<double>(k) * cell;
    c.rect(x, y, cell, cell, "#ffffff", "offset",
           " data-index=\"" + std::to_string(k) + "\" data-offset=\"" + std::to_string(offsets[k]) +
               "\"");
    c.text(x + cell / 2, y + cell / 2 + 4, std::to_string(offsets[k]));
    const double to = 60 + static_cast<double>(offsets[k]) * cell;
    c.line(x + cell / 2, y, to, values_y + cell, "#555555", "pointer", 1.0);
  }
  return c.str();
}

/// A sparse matrix or vector: the elements, stored ones coloured with their value and the
/// others blank (the fill), then the storage: the sorted `addresses` and `values` arrays of its
/// SparseBuffer and, for a matrix with a zero fill, the CSR row offsets (csr()) pointing into
/// them.
/// @param t a sparse tensor of rank 1 or 2 (the tensor itself, not a view; at most max_cells
///        elements)
/// @param title the picture's title
/// @return the SVG document
/// @throws LayoutError when the storage is not sparse or @p t is a view; ShapeError for
///         another rank or too many elements
template <class T>
std::string sparse(const Tensor<T>& t, std::string_view title = {}) {
  using V = std::remove_const_t<T>;
  const SparseBuffer<V>* s = sparse_buffer(t);
  if (s == nullptr || !t.dims().is_native() || t.dims().offset() != 0 || t.size() != s->size()) {
    strata::detail::fail<LayoutError>("draw::sparse", "the tensor ", to_string(t.shape()),
                                      " is not a whole sparse tensor (draw its storage, not a "
                                      "view: copy the view with to_sparse first)");
  }
  if (t.rank() < 1 || t.rank() > 2) {
    strata::detail::fail<ShapeError>("draw::sparse", "rank ", t.rank(),
                                     " cannot be drawn; ranks 1 and 2 can");
  }
  const std::vector<Index> indices = detail::box_indices("draw::sparse", t.shape());
  const detail::Placement p("draw::sparse", t.rank(), indices);
  const double cell = detail::Canvas::cell;
  detail::Canvas c;
  std::string heading(title);
  if (heading.empty()) {
    heading = "sparse ";
    heading += to_string(t.shape());
  }
  c.text(20, 16, heading, 13, "title", "start");
  const std::span<const index_t> addresses = s->addresses();
  const std::span<const V> values = s->values();
  detail::cells(p, indices, 28, [&](std::size_t k, double x, double y) {
    const index_t a = static_cast<index_t>(k);  // the tensor is row-major from address 0
    const auto at = std::lower_bound(addresses.begin(), addresses.end(), a);
    const bool stored = at != addresses.end() && *at == a;
    c.rect(x, y, cell, cell, stored ? detail::colour(0) : "#ffffff", "cell",
           detail::index_attribute(indices[k]) + " data-stored=\"" + (stored ? "1" : "0") + "\"");
    if (stored) {
      c.text(x + cell / 2, y + cell / 2 + 4,
             detail::value_label(values[static_cast<std::size_t>(at - addresses.begin())]));
    }
  });
  double y = 28 + p.extent().second * cell + 16;
  c.text(20, y,
         "fill " + detail::value_label(s->fill()) + "; stored entries, sorted by address:", 11,
         "caption", "start");
  y += 10;
  const double left = 100;
  const auto array = [&](const std::string& name, std::size_t n, const std::string& css_class,
                         auto label) {
    c.text(left - 6, y + cell / 2 + 4, name, 11, "caption", "end");
    for (std::size_t k = 0; k < n; ++k) {
      const double x = left + static_cast<double>(k) * cell;
      c.rect(x, y, cell, cell, css_class == "offset" ? "#ffffff" : detail::colour(0), css_class,
             " data-index=\"" + std::to_string(k) + "\"");
      c.text(x + cell / 2, y + cell / 2 + 4, label(k));
    }
    y += cell;
  };
  array("addresses", addresses.size(), "address",
        [&](std::size_t k) { return std::to_string(addresses[k]); });
  array("values", values.size(), "value",
        [&](std::size_t k) { return detail::value_label(values[k]); });
  if (t.rank() == 2 && s->fill() == V{}) {
    const Compressed<V> a = csr(t);
    array("CSR indices", a.indices.size(), "column",
          [&](std::size_t k) { return std::to_string(a.indices[k]); });
    const double values_bottom = y;
    y += 36;
    array("CSR offsets", a.offsets.size(), "offset",
          [&](std::size_t k) { return std::to_string(a.offsets[k]); });
    for (std::size_t k = 0; k < a.offsets.size(); ++k) {
      c.line(left + (static_cast<double>(k) + 0.5) * cell, y - cell,
             left + static_cast<double>(a.offsets[k]) * cell, values_bottom, "#555555", "pointer",
             1.0);
    }
  }
  return c.str();
}

/// A selection: one cell per element labelled with its value and coloured by the tensor it
/// reads (Selection::source_at), pad constants in white; a legend names the sources.
/// @param s the selection (rank <= 4, at most max_cells elements)
/// @param names names of the tensors it reads (draw::source("a", a)); unnamed ones are
///        numbered in order of first appearance
/// @param title the picture's title
/// @return the SVG document
/// @throws ShapeError for a rank above 4 or too many elements
template <class T>
std::string selection(const Selection<T>& s, const std::vector<Source>& names = {},
                      std::string_view title = {}) {
  const Index shape = s.shape();
  const std::vector<Index> indices = detail::box_indices("draw::selection", shape);
  const detail::Placement p("draw::selection", static_cast<int>(shape.size()), indices);
  std::vector<const void*> seen;
  const auto category = [&](const void* storage) -> index_t {
    for (std::size_t k = 0; k < seen.size(); ++k) {
      if (seen[k] == storage) {
        return static_cast<index_t>(k);
      }
    }
    seen.push_back(storage);
    return static_cast<index_t>(seen.size()) - 1;
  };
  detail::Canvas c;
  c.text(20, 16, std::string(title.empty() ? "selection " + to_string(shape) : std::string(title)),
         13, "title", "start");
  const double cell = detail::Canvas::cell;
  detail::cells(p, indices, 28, [&](std::size_t k, double x, double y) {
    const void* from = s.source_at(indices[k]);
    const index_t which = from == nullptr ? -1 : category(from);
    c.rect(x, y, cell, cell, which < 0 ? "#ffffff" : detail::colour(which), "cell",
           detail::index_attribute(indices[k]) + " data-source=\"" + std::to_string(which) + "\"");
    c.text(x + cell / 2, y + cell / 2 + 4, detail::value_label(s.at(indices[k])));
  });
  double y = 28 + p.extent().second * cell + 12;
  for (std::size_t k = 0; k < seen.size(); ++k) {
    std::string name = "source " + std::to_string(k);
    for (const Source& n : names) {
      if (n.storage == seen[k]) {
        name = n.name;
      }
    }
    c.rect(20, y, 14, 14, detail::colour(static_cast<index_t>(k)), "legend");
    c.text(40, y + 11, name, 11, "caption", "start");
    y += 18;
  }
  return c.str();
}

/// An index projection over a blocked index space: on the left the index space, each block
/// coloured; on the right the tensor space, each block's region (ZProjection::apply, clipped to
/// the tensor) outlined in the block's colour, and the elements read by more than one block
/// (halos, overlaps) shaded and of class `halo`.
/// @param p the projection (index and tensor ranks 1 or 2)
/// @param index_space the index points
/// @param block the block extents, one per index axis (> 0); edge blocks are smaller
/// @param tensor_space the tensor's box
/// @param title the picture's title
/// @return the SVG document
/// @throws ShapeError for ranks that do not match or exceed 2, a block extent <= 0, or too
///         many elements
std::string projection(const ZProjection& p, const ZRange& index_space, IndexSpan block,
                       const ZRange& tensor_space, std::string_view title = {});

/// A distributed tiling: every element coloured by the rank that owns its tile (labelled `r0`,
/// `r1`, ...), tile boundaries drawn thick, and optionally a patch `[lo, hi)` outlined, with the
/// ranks it reads from in the caption: what a get() or put() of that patch talks to.
/// @param tiling the tiling (rank 1 or 2, at most max_cells elements)
/// @param owners the owner of each tile (Distribution::owners)
/// @param lo the patch's first index (empty: no patch)
/// @param hi one past the patch's last index
/// @param title the picture's title
/// @return the SVG document
/// @throws ShapeError for a rank above 2, too many elements, or an owner table of another
///         length; IndexError for a patch outside the shape
std::string distribution(const dist::Tiling& tiling, const std::vector<int>& owners,
                         IndexSpan lo = {}, IndexSpan hi = {}, std::string_view title = {});

/// A view of a chunked array (an HDF5 dataset, a tiled tensor): the elements the view reads, the
/// other elements of the chunks it touches (a chunked file is read whole chunks at a time), and
/// the chunks it does not touch, with chunk boundaries drawn thick and the count of chunks read
/// in the caption.
/// @param shape the array's extents (rank 1 or 2)
/// @param chunk the chunk extents
/// @param view a map over the array's row-major addresses (`Dimensions(shape)` and its views)
/// @param title the picture's title
/// @return the SVG document
/// @throws ShapeError for a rank above 2, chunks of another rank or below 1, or too many
///         elements; IndexError when the view reads outside the array
std::string chunks(IndexSpan shape, IndexSpan chunk, const Dimensions& view,
                   std::string_view title = {});

/// A contraction's path: one row per pairwise step, its operands drawn as the matrices of the
/// product (the left `rows x summed`, the right `summed x columns`, the result `rows x
/// columns`, for each batch index), each mode group labelled and coloured (rows, columns,
/// summed, batch), with the step's engine and flops; the operands' own diagonals and sums first.
/// @param plan the plan (strata::einsum_plan)
/// @param title the picture's title (the spec when empty)
/// @return the SVG document
std::string contraction(const ContractionPlan& plan, std::string_view title = {});

}  // namespace strata::draw
