// Fuzzer (c): Smooth, Jagged (rows smooth or jagged) and Nested shapes, their slices, indices,
// offsets, position and index_at, type-erased Shape, and JaggedTensor / LayoutTensor round
// trips, compared with index lists built by plain nested loops.
#include "model.hpp"

#include <strata/strata.hpp>

#include <exception>

namespace {

using fuzz::check;
using fuzz::I;
using strata::Index;
using strata::Jagged;
using strata::Shape;
using strata::Smooth;
using strata::Tensor;

using List = std::vector<Index>;

/// All indices of a box [lo, lo + extents), row-major.
List box(const Index& lo, const Index& extents) {
  List out;
  I total = 1;
  for (const I e : extents) {
    total *= e;
  }
  for (I i = 0; i < total; ++i) {
    Index g(extents.size());
    I rest = i;
    for (std::size_t k = extents.size(); k-- > 0;) {
      g[k] = lo[k] + rest % extents[k];
      rest /= extents[k];
    }
    out.push_back(g);
  }
  return out;
}

/// Checks a shape's indices, offsets, position and index_at against the expected list.
template <class S>
void check_shape(const S& shape, const List& expected, const Index& origin) {
  check(shape.size() == static_cast<I>(expected.size()), "size");
  List got;
  for (const Index& g : shape.indices()) {
    got.push_back(g);
  }
  check(got == expected, "indices");
  List offsets;
  for (const Index& g : shape.offsets()) {
    offsets.push_back(g);
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    Index relative = expected[i];
    for (std::size_t k = 0; k < origin.size() && k < relative.size(); ++k) {
      relative[k] -= origin[k];
    }
    check(offsets[i] == relative, "offsets");
    check(shape.position(expected[i]) == static_cast<I>(i), "position");
    check(shape.index_at(static_cast<I>(i)) == expected[i], "index_at");
    check(shape.indices().begin()[static_cast<std::ptrdiff_t>(i)] == expected[i], "random access");
  }
  try {
    (void)shape.index_at(static_cast<I>(expected.size()));
    check(false, "index_at past the end");
  } catch (const strata::IndexError&) {
  }
}

void smooth_case(FuzzedDataProvider& in) {
  const auto rank = in.ConsumeIntegralInRange<std::size_t>(0, 3);
  Index extents;
  for (std::size_t k = 0; k < rank; ++k) {
    extents.push_back(in.ConsumeIntegralInRange<I>(0, 4));
  }
  const Smooth s(extents);
  check_shape(s, box(Index(rank, 0), extents), Index(rank, 0));
  check_shape(Shape(s), box(Index(rank, 0), extents), Index(rank, 0));
  Index lo(rank);
  Index hi(rank);
  bool valid = true;
  for (std::size_t k = 0; k < rank; ++k) {
    lo[k] = in.ConsumeIntegralInRange<I>(-1, extents[k] + 1);
    hi[k] = in.ConsumeIntegralInRange<I>(-1, extents[k] + 1);
    valid = valid && 0 <= lo[k] && lo[k] <= hi[k] && hi[k] <= extents[k];
  }
  try {
    const auto slice = s.slice(lo, hi);
    check(valid, "slice accepted bounds outside the shape");
    Index ext(rank);
    for (std::size_t k = 0; k < rank; ++k) {
      ext[k] = hi[k] - lo[k];
    }
    check_shape(slice, box(lo, ext), lo);
  } catch (const strata::Error&) {
    check(!valid, "slice rejected bounds inside the shape");
  }
}

void jagged_case(FuzzedDataProvider& in) {
  const auto rows = in.ConsumeIntegralInRange<std::size_t>(0, 6);
  const bool nested_rows = in.ConsumeBool();
  std::vector<Shape> row_shapes;
  List expected;
  std::vector<I> lengths;  // smooth rows: the length of each
  for (std::size_t r = 0; r < rows; ++r) {
    if (nested_rows) {
      Index inner;
      const auto count = in.ConsumeIntegralInRange<std::size_t>(0, 3);
      for (std::size_t j = 0; j < count; ++j) {
        inner.push_back(in.ConsumeIntegralInRange<I>(0, 3));
      }
      row_shapes.emplace_back(Jagged::from_lengths(inner));
      for (std::size_t j = 0; j < inner.size(); ++j) {
        for (I c = 0; c < inner[j]; ++c) {
          expected.push_back(Index{static_cast<I>(r), static_cast<I>(j), c});
        }
      }
    } else {
      lengths.push_back(in.ConsumeIntegralInRange<I>(0, 4));
      row_shapes.emplace_back(Smooth{lengths.back()});
      for (I c = 0; c < lengths.back(); ++c) {
        expected.push_back(Index{static_cast<I>(r), c});
      }
    }
  }
  const Jagged j = rows == 0 ? Jagged::from_lengths(Index{}) : Jagged(row_shapes);
  fuzz::trace() += "jagged " + j.to_string() + "\n";
  if (rows == 0) {
    check(j.size() == 0, "an empty jagged shape");
    return;
  }
  const auto rank = expected.empty() ? static_cast<std::size_t>(j.rank()) : expected[0].size();
  check_shape(j, expected, Index(rank, 0));
  check_shape(Shape(j), expected, Index(rank, 0));
  // A slice of rows keeps absolute indices.
  const I lo = in.ConsumeIntegralInRange<I>(-1, static_cast<I>(rows) + 1);
  const I hi = in.ConsumeIntegralInRange<I>(-1, static_cast<I>(rows) + 1);
  const bool valid = 0 <= lo && lo <= hi && hi <= static_cast<I>(rows);
  try {
    const auto slice = j.slice({lo}, {hi});
    check(valid, "jagged slice accepted bad bounds");
    List part;
    for (const Index& g : expected) {
      if (g[0] >= lo && g[0] < hi) {
        part.push_back(g);
      }
    }
    Index origin(rank, 0);
    origin[0] = lo;
    check_shape(slice, part, origin);
  } catch (const strata::Error&) {
    check(!valid, "jagged slice rejected good bounds");
  }
  if (!nested_rows) {
    // Dense -> jagged -> dense with a padded dense tensor.
    I width = 1;
    for (const I n : lengths) {
      width = std::max(width, n);
    }
    const Index dense_shape{static_cast<I>(rows), width};
    const fuzz::Array dense_model = fuzz::arange({static_cast<I>(rows), width});
    const auto dense = Tensor<I>::from_vector(dense_model.data, dense_shape);
    const auto jt = strata::JaggedTensor<I>::from_dense(dense, j, strata::Parallel{1});
    for (const Index& g : expected) {
      check(jt.at(g) == dense_model.at({g[0], g[1]}), "JaggedTensor::from_dense");
    }
    const Tensor<I> back = jt.to_dense(-1, strata::Parallel{1});
    const I longest = *std::max_element(lengths.begin(), lengths.end());
    const fuzz::Array expected_back =
        fuzz::tabulate({static_cast<I>(rows), longest}, [&](const std::vector<I>& g) {
          return g[1] < lengths[static_cast<std::size_t>(g[0])] ? dense_model.at(g) : I{-1};
        });
    check(back.shape() == Index{static_cast<I>(rows), longest}, "JaggedTensor::to_dense shape");
    check(back.to_vector() == expected_back.data, "JaggedTensor::to_dense");
  }
}

void nested_case(FuzzedDataProvider& in) {
  Index a;
  Index b;
  for (auto* e : {&a, &b}) {
    const auto rank = in.ConsumeIntegralInRange<std::size_t>(1, 2);
    for (std::size_t k = 0; k < rank; ++k) {
      e->push_back(in.ConsumeIntegralInRange<I>(0, 3));
    }
  }
  const strata::Nested n{Smooth(a), Smooth(b)};
  Index both = a;
  both.insert(both.end(), b.begin(), b.end());
  check_shape(n, box(Index(both.size(), 0), both), Index(both.size(), 0));
}

void layout_case(FuzzedDataProvider& in) {
  const auto rank = in.ConsumeIntegralInRange<std::size_t>(1, 3);
  Index extents;
  Index tile;
  for (std::size_t k = 0; k < rank; ++k) {
    extents.push_back(in.ConsumeIntegralInRange<I>(0, 6));
    tile.push_back(in.ConsumeIntegralInRange<int>(0, 9) == 0 ? in.ConsumeIntegralInRange<I>(-1, 0)
                                                             : in.ConsumeIntegralInRange<I>(1, 7));
  }
  bool valid = true;
  for (const I t : tile) {
    valid = valid && t > 0;
  }
  const fuzz::Array model = fuzz::arange(std::vector<I>(extents.begin(), extents.end()));
  const auto dense = Tensor<I>::from_vector(model.data, extents);
  try {
    const auto layout = strata::Layout::tiled(Smooth(extents), tile);
    check(valid, "tiled accepted a tile <= 0");
    const auto tiled = strata::LayoutTensor<I>::from_dense(dense, layout, strata::Parallel{1});
    for (I i = 0; i < model.size(); ++i) {
      const std::vector<I> g = model.unravel(i);
      check(tiled.at(Index(g.begin(), g.end())) == model.data[static_cast<std::size_t>(i)],
            "LayoutTensor::at");
    }
    check(tiled.to_dense(strata::Parallel{1}).to_vector() == model.data, "LayoutTensor::to_dense");
    // The pieces' regions cover the shape exactly once.
    std::vector<int> covered(static_cast<std::size_t>(model.size()), 0);
    for (I p = 0; p < tiled.n_pieces(); ++p) {
      for (const Index& g : tiled.piece_region(p).indices()) {
        ++covered[static_cast<std::size_t>(model.linear(std::vector<I>(g.begin(), g.end())))];
      }
    }
    for (const int c : covered) {
      check(c == 1, "pieces cover each index once");
    }
  } catch (const strata::ShapeError&) {
    check(!valid, "tiled rejected a valid tile");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  fuzz::trace().clear();
  try {
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
      case 0:
        smooth_case(in);
        break;
      case 1:
        jagged_case(in);
        break;
      case 2:
        nested_case(in);
        break;
      default:
        layout_case(in);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception: %s\n", e.what());
    check(false, "an unexpected exception");
  }
  return 0;
}
