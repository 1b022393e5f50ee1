// Nested and NestedView: layers kept apart over one flattened shape.
#include "strata/shape/nested.hpp"

#include <numeric>
#include <ostream>

namespace strata {
namespace {

/// Appends a smooth layer to every row of a jagged shape with smooth rows.
Jagged extend_rows(const Jagged& flat, const Smooth& layer, std::size_t index) {
  if (!flat.smooth_rows()) {
    detail::fail<ShapeError>("Nested", "smooth layer ", index, " ", layer.to_string(),
                             " follows a jagged layer whose rows are jagged themselves ",
                             flat.to_string(), "; flatten those rows first");
  }
  const int s = flat.inner_rank() + layer.rank();
  std::vector<index_t> table;
  table.reserve(static_cast<std::size_t>(flat.n_rows()) * static_cast<std::size_t>(s));
  for (index_t r = 0; r < flat.n_rows(); ++r) {
    const auto e = flat.rows().data().row_extents(r);
    table.insert(table.end(), e.begin(), e.end());
    table.insert(table.end(), layer.extents().begin(), layer.extents().end());
  }
  return Jagged::from_extents(flat.outer_extents(), s, table);
}

/// A layer as a value: views become the shapes they view.
Shape layer_value(const Shape& layer, std::size_t index) {
  if (layer.is<Nested>() || layer.is<NestedView>()) {
    detail::fail<ShapeError>("Nested", "layer ", index, " ", layer.to_string(), " is a ",
                             layer.kind(), "; layers are smooth or jagged");
  }
  return detail::plain_shape(layer);
}

}  // namespace

Nested::Nested() : Nested(std::vector<Shape>{Shape(Smooth{})}) {}

Nested::Nested(std::initializer_list<Shape> layers) : Nested(std::vector<Shape>(layers)) {}

Nested::Nested(std::vector<Shape> layers) {
  if (layers.empty()) {
    detail::fail<ShapeError>("Nested", "no layers given; a nested shape needs at least one");
  }
  auto data = std::make_shared<Data>();
  Shape flat;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const Shape layer = layer_value(layers[i], i);
    if (i == 0) {
      flat = layer;
      data->ranks.push_back(layer.rank());
    } else if (layer.is<Smooth>()) {
      if (flat.is<Smooth>()) {
        Index extents(flat.as<Smooth>().extents().begin(), flat.as<Smooth>().extents().end());
        const IndexSpan more = layer.as<Smooth>().extents();
        extents.insert(extents.end(), more.begin(), more.end());
        flat = Smooth(extents);
      } else {
        flat = extend_rows(flat.as<Jagged>(), layer.as<Smooth>(), i);
      }
      data->ranks.push_back(layer.rank());
    } else {
      const Jagged& jagged = layer.as<Jagged>();
      if (!flat.is<Smooth>()) {
        detail::fail<ShapeError>("Nested", "jagged layer ", i, " ", layer.to_string(),
                                 " follows a jagged layer; its outer grid would be ragged");
      }
      const IndexSpan before = flat.as<Smooth>().extents();
      if (!std::equal(before.begin(), before.end(), jagged.outer_extents().begin(),
                      jagged.outer_extents().end())) {
        detail::fail<ShapeError>("Nested", "jagged layer ", i, " ", layer.to_string(),
                                 " has outer extents ", strata::to_string(jagged.outer_extents()),
                                 " but the layers before it are ", flat.to_string());
      }
      flat = layer;
      data->ranks.push_back(jagged.inner_rank());
    }
    data->layers.push_back(layer);
  }
  data->flat = flat;
  data_ = std::move(data);
}

const Shape& Nested::layer(int i) const {
  if (i < 0 || i >= n_layers()) {
    detail::fail<IndexError>("layer", "layer ", i, " does not exist in ", to_string(), " (",
                             n_layers(), " layers)");
  }
  return data_->layers[static_cast<std::size_t>(i)];
}

int Nested::layer_rank(int i) const {
  (void)layer(i);
  return data_->ranks[static_cast<std::size_t>(i)];
}

namespace {

std::vector<int> ranks_after_chip(std::vector<int> ranks, int mode) {
  int first = 0;
  for (std::size_t l = 0; l < ranks.size(); ++l) {
    if (mode < first + ranks[l]) {
      if (--ranks[l] == 0) {
        ranks.erase(ranks.begin() + static_cast<std::ptrdiff_t>(l));
      }
      break;
    }
    first += ranks[l];
  }
  return ranks;
}

void print_ranks(std::ostream& out, const std::vector<int>& ranks) {
  out << "<";
  for (std::size_t l = 0; l < ranks.size(); ++l) {
    out << (l == 0 ? "" : "|") << ranks[l];
  }
  out << ">";
}

}  // namespace

NestedView Nested::slice(IndexSpan lo, IndexSpan hi) const {
  return {data_->ranks, data_->flat.slice(lo, hi)};
}

NestedView Nested::chip(int mode, index_t i) const {
  check_mode("chip", mode);
  return {ranks_after_chip(data_->ranks, mode), data_->flat.chip(mode, i)};
}

void Nested::print(std::ostream& out) const {
  out << "Nested{";
  for (std::size_t l = 0; l < data_->layers.size(); ++l) {
    out << (l == 0 ? "" : " | ");
    data_->layers[l].print(out);
  }
  out << "}";
}

bool Nested::same_as(const Nested& other) const {
  return data_ == other.data_ || data_->layers == other.data_->layers;
}

NestedView::NestedView() : ranks_{0} {}

NestedView::NestedView(std::vector<int> layer_ranks, Shape flat)
    : ranks_(std::move(layer_ranks)), flat_(std::move(flat)) {
  if (std::accumulate(ranks_.begin(), ranks_.end(), 0) != flat_.rank()) {
    detail::fail<ShapeError>("NestedView", "layer ranks do not sum to the rank ", flat_.rank(),
                             " of ", flat_.to_string());
  }
}

int NestedView::layer_rank(int i) const {
  if (i < 0 || i >= n_layers()) {
    detail::fail<IndexError>("layer_rank", "layer ", i, " does not exist in ", to_string(), " (",
                             n_layers(), " layers)");
  }
  return ranks_[static_cast<std::size_t>(i)];
}

NestedView NestedView::slice(IndexSpan lo, IndexSpan hi) const {
  return {ranks_, flat_.slice(lo, hi)};
}

NestedView NestedView::chip(int mode, index_t i) const {
  check_mode("chip", mode);
  return {ranks_after_chip(ranks_, mode), flat_.chip(mode, i)};
}

void NestedView::print(std::ostream& out) const {
  out << "Nested";
  print_ranks(out, ranks_);
  out << "{";
  flat_.print(out);
  out << "}";
}

}  // namespace strata
