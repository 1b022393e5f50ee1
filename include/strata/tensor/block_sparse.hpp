/// @file
/// strata::BlockSparseTensor: a tiled tensor whose zero tiles are not stored (TiledArray's
/// block-sparse arrays). Each stored tile is an ordinary row-major Tensor; tiles that are not
/// stored read as zeros. Contractions skip the tile products whose norm bound is at most the
/// tensor's threshold (strata/contract/tiled.hpp).
#pragma once

#include "strata/core/error.hpp"
#include "strata/layout/layout.hpp"
#include "strata/parallel/policy.hpp"
#include "strata/tensor/algorithms.hpp"
#include "strata/tensor/layout_tensor.hpp"
#include "strata/tensor/tensor.hpp"

#include <cmath>
#include <complex>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

namespace detail {

/// The Frobenius norm of a tensor's values (the square root of the sum of |x|^2), in double.
template <class T>
double frobenius_norm(const Tensor<const T>& x) {
  double sum = 0;
  for_each(seq, x, [&](const T& v) {
    if constexpr (std::is_arithmetic_v<T>) {
      const auto d = static_cast<double>(v);
      sum += d * d;
    } else {
      sum += static_cast<double>(std::norm(v));
    }
  });
  return std::sqrt(sum);
}

/// What copies of a BlockSparseTensor share: the tiles, each stored one a Tensor of its own.
template <class T>
struct BlockSparseState {
  /// The state of a tensor with no tile stored.
  /// @param l the layout
  /// @param t the threshold
  BlockSparseState(Layout l, double t) : layout(std::move(l)), threshold(t) {}
  Layout layout;                                ///< the tiles
  double threshold;                             ///< the norm at or below which products skip
  std::vector<std::optional<Tensor<T>>> tiles;  ///< one per tile, empty when not stored
};

}  // namespace detail

/// A tiled tensor that stores only its non-zero tiles, each with a norm: the block-sparse
/// tensor of TiledArray (its SparseShape), for operators that are zero away from a band or a
/// pattern of blocks.
///
/// The tiles are those of a Layout (Layout::tiled; an untiled layout is one tile). A stored
/// tile is a row-major Tensor of its own (piece(p)); a tile that is not stored reads as zeros
/// and costs no memory. `from_dense` keeps the tiles whose Frobenius norm is above a threshold;
/// `insert` stores a zero tile to be written; `truncate` drops the stored tiles whose norm has
/// fallen to the threshold or below. The threshold is carried by the tensor: `einsum` skips a
/// product of tiles whose norm bound is at most the largest threshold of its block-sparse
/// operands, so each skipped product changes the result by at most that much in Frobenius norm
/// (0, the default, skips only products with a zero tile: the result is exact).
///
/// Copies share the stored tiles and the set of them (a handle, as LayoutTensor shares its
/// buffer); `copy()` makes an independent tensor.
///
/// @code
/// auto tiles = strata::Layout::tiled(strata::Smooth{4096, 4096}, {256, 256});
/// auto a = strata::BlockSparseTensor<double>::from_dense(banded, tiles);  // zero tiles dropped
/// a.n_stored();                       // the non-zero tiles
/// auto c = strata::einsum("ij,jk->ik", a, a);   // a BlockSparseTensor: zero products skipped
/// @endcode
/// Design page: @ref contractions_page.
/// @tparam T the element type
template <class T>
class BlockSparseTensor {
 public:
  /// The element type.
  using value_type = T;

  /// A tensor of zeros over @p layout: no tile stored.
  /// @param layout the tiles (an untiled layout is one tile)
  /// @param threshold the norm at or below which products are skipped (>= 0)
  /// @throws IndexError for a negative or NaN threshold
  explicit BlockSparseTensor(Layout layout, double threshold = 0)
      : state_(std::make_shared<State>(std::move(layout), threshold)) {
    check_threshold("BlockSparseTensor", threshold);
    state_->tiles.resize(static_cast<std::size_t>(state_->layout.n_pieces()));
  }

  /// The tiles of a dense tensor whose Frobenius norm is above @p threshold (tiles of zeros
  /// are never stored).
  /// @param dense the values; its shape must be the layout's logical shape
  /// @param layout the tiles
  /// @param threshold the norm at or below which a tile is dropped, and products skipped
  /// @param policy seq or par (parallel over tiles)
  /// @return the tensor
  /// @throws ShapeError when the shapes differ; IndexError for a negative or NaN threshold
  template <ExecutionPolicy P = Parallel>
  static BlockSparseTensor from_dense(const Tensor<const T>& dense, Layout layout,
                                      double threshold = 0, const P& policy = P{}) {
    BlockSparseTensor out(std::move(layout), threshold);
    const Index shape(out.layout().logical().extents().begin(),
                      out.layout().logical().extents().end());
    if (dense.shape() != shape) {
      detail::fail<ShapeError>("BlockSparseTensor::from_dense", "dense shape ",
                               to_string(dense.shape()), " is not the logical shape ",
                               to_string(shape), " of ", out.layout().to_string());
    }
    auto& tiles = out.state_->tiles;
    const auto body = [&](index_t lo, index_t hi) {
      for (index_t p = lo; p < hi; ++p) {
        const Tensor<const T> part = dense.select(detail::box_selectors(out.layout().piece(p)));
        if (const double norm = detail::frobenius_norm(part); norm > threshold) {
          tiles[static_cast<std::size_t>(p)].emplace(
              Tensor<T>(part.copy(seq)).with_origin(out.layout().piece(p).origin()));
        }
      }
    };
    if (dense.buffer().concurrent()) {
      parallel::for_each_part(policy, out.n_tiles(), body);
    } else {
      body(0, out.n_tiles());  // a user buffer is read from one thread
    }
    return out;
  }

  /// The tiles.
  /// @return the layout
  [[nodiscard]] const Layout& layout() const noexcept { return state_->layout; }
  /// The logical extents.
  /// @return the shape
  [[nodiscard]] Index shape() const {
    return Index(layout().logical().extents().begin(), layout().logical().extents().end());
  }

  /// Names this tensor's axes for a labelled contraction (TiledArray's spelling):
  /// `c("i,k") = a("i,j") * b("j,k")` runs tile by tile (strata/contract/labelled.hpp).
  /// @param labels one name per axis, comma-separated
  /// @return the labelled tensor (writable; it shares the tiles)
  /// @throws ShapeError when the number of names is not the rank
  template <class S>
  requires std::is_convertible_v<const S&, std::string_view>
  [[nodiscard]] LabelledTensor<T> operator()(const S& labels) {
    return LabelledTensor<T>(*this, std::string_view(labels));
  }
  /// Names the axes of a const tensor: a read-only factor.
  /// @param labels one name per axis, comma-separated
  /// @return the labelled tensor (read-only)
  /// @throws ShapeError when the number of names is not the rank
  template <class S>
  requires std::is_convertible_v<const S&, std::string_view>
  [[nodiscard]] LabelledTensor<const T> operator()(const S& labels) const {
    return LabelledTensor<const T>(*this, std::string_view(labels));
  }
  /// The number of elements (stored or not).
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return layout().size(); }
  /// The norm at or below which contractions skip a product of tiles.
  /// @return the threshold
  [[nodiscard]] double threshold() const noexcept { return state_->threshold; }
  /// Sets the threshold of contractions.
  /// @param threshold the norm (>= 0)
  /// @throws IndexError for a negative or NaN threshold (the tensor unchanged)
  void set_threshold(double threshold) {
    check_threshold("BlockSparseTensor::set_threshold", threshold);
    state_->threshold = threshold;
  }

  /// The number of tiles (stored or not).
  /// @return the count
  [[nodiscard]] index_t n_tiles() const noexcept { return layout().n_pieces(); }
  /// The number of stored tiles.
  /// @return the count
  [[nodiscard]] index_t n_stored() const noexcept {
    index_t n = 0;
    for (const auto& t : state_->tiles) {
      n += t.has_value() ? 1 : 0;
    }
    return n;
  }
  /// The stored tiles' numbers, ascending.
  /// @return the tile numbers
  [[nodiscard]] std::vector<index_t> stored() const {
    std::vector<index_t> out;
    for (std::size_t p = 0; p < state_->tiles.size(); ++p) {
      if (state_->tiles[p]) {
        out.push_back(static_cast<index_t>(p));
      }
    }
    return out;
  }
  /// Whether tile @p p is stored.
  /// @param p in [0, n_tiles())
  /// @return true when stored
  /// @throws IndexError for a tile that does not exist
  [[nodiscard]] bool is_stored(index_t p) const { return slot("is_stored", p).has_value(); }
  /// The stored fraction of the elements.
  /// @return in [0, 1] (1 for a tensor of no elements)
  [[nodiscard]] double density() const {
    if (size() == 0) {
      return 1;
    }
    index_t n = 0;
    for (const auto& t : state_->tiles) {
      n += t ? t->size() : 0;
    }
    return static_cast<double>(n) / static_cast<double>(size());
  }

  /// A stored tile as a Tensor view (row-major, its own storage). Element access `v(i, j)`
  /// counts from the tile's corner; its absolute indices are the tensor's logical indices.
  /// @param p in [0, n_tiles())
  /// @return the view
  /// @throws IndexError for a tile that does not exist; LayoutError for a tile not stored
  [[nodiscard]] Tensor<T> piece(index_t p) { return stored_tile("piece", p); }
  /// A stored tile of a const tensor, read-only.
  /// @param p in [0, n_tiles())
  /// @return the view
  /// @throws IndexError for a tile that does not exist; LayoutError for a tile not stored
  [[nodiscard]] Tensor<const T> piece(index_t p) const { return stored_tile("piece", p); }
  /// The stored tile at tile coordinates `{I, J, ...}`.
  /// @param tile one coordinate per mode (Layout::piece_at)
  /// @return the view
  /// @throws IndexError for coordinates outside the grid; LayoutError for a tile not stored
  [[nodiscard]] Tensor<T> piece(IndexSpan tile) {
    return stored_tile("piece", layout().piece_at(tile));
  }
  /// The stored tile at tile coordinates of a const tensor, read-only.
  /// @param tile one coordinate per mode (Layout::piece_at)
  /// @return the view
  /// @throws IndexError for coordinates outside the grid; LayoutError for a tile not stored
  [[nodiscard]] Tensor<const T> piece(IndexSpan tile) const {
    return stored_tile("piece", layout().piece_at(tile));
  }
  /// Stores tile @p p as zeros when it is not stored; its view either way.
  /// @param p in [0, n_tiles())
  /// @return the view of the tile
  /// @throws IndexError for a tile that does not exist
  Tensor<T> insert(index_t p) {
    auto& t = slot("insert", p);
    if (!t) {
      const SmoothView box = layout().piece(p);
      const Index origin = box.origin();
      t.emplace(Tensor<T>(Index(box.extents().begin(), box.extents().end())).with_origin(origin));
    }
    return *t;
  }
  /// Drops tile @p p (it reads as zeros again).
  /// @param p in [0, n_tiles())
  /// @throws IndexError for a tile that does not exist
  void erase(index_t p) { slot("erase", p).reset(); }
  /// Drops every stored tile whose Frobenius norm is at or below @p threshold.
  /// @param threshold the norm (>= 0)
  /// @return the number of tiles dropped
  /// @throws IndexError for a negative or NaN threshold (the tensor unchanged)
  index_t truncate(double threshold) {
    check_threshold("BlockSparseTensor::truncate", threshold);
    index_t dropped = 0;
    for (auto& t : state_->tiles) {
      if (t && detail::frobenius_norm(Tensor<const T>(*t)) <= threshold) {
        t.reset();
        ++dropped;
      }
    }
    return dropped;
  }

  /// The Frobenius norm of tile @p p (0 for a tile not stored).
  /// @param p in [0, n_tiles())
  /// @return the norm
  /// @throws IndexError for a tile that does not exist
  [[nodiscard]] double tile_norm(index_t p) const {
    const auto& t = slot("tile_norm", p);
    return t ? detail::frobenius_norm(Tensor<const T>(*t)) : 0.0;
  }

  /// Reads an element by logical index (0 in a tile not stored).
  /// @param index one index per mode
  /// @return the element
  /// @throws IndexError for an index outside the shape
  [[nodiscard]] T at(IndexSpan index) const {
    const index_t p = layout().piece_holding(index);
    const auto& t = state_->tiles[static_cast<std::size_t>(p)];
    if (!t) {
      return T{};
    }
    const Index origin = layout().piece(p).origin();
    Index local(index.begin(), index.end());
    for (std::size_t k = 0; k < local.size(); ++k) {
      local[k] -= origin[k];
    }
    return Tensor<const T>(*t).at(local);
  }

  /// A dense row-major copy (zeros where no tile is stored), in parallel over tiles.
  /// @param policy seq or par
  /// @return the copy
  template <ExecutionPolicy P = Parallel>
  [[nodiscard]] Tensor<T> to_dense(const P& policy = P{}) const {
    Tensor<T> out(shape());
    parallel::for_each_part(policy, n_tiles(), [&](index_t lo, index_t hi) {
      for (index_t p = lo; p < hi; ++p) {
        if (const auto& t = state_->tiles[static_cast<std::size_t>(p)]) {
          out.select(detail::box_selectors(layout().piece(p))).assign(Tensor<const T>(*t), seq);
        }
      }
    });
    return out;
  }
  /// A tiled copy over the same layout (zeros where no tile is stored).
  /// @return the copy
  [[nodiscard]] LayoutTensor<T> to_tiled() const {
    LayoutTensor<T> out(layout());
    for (std::size_t p = 0; p < state_->tiles.size(); ++p) {
      if (const auto& t = state_->tiles[p]) {
        out.piece(static_cast<index_t>(p)).assign(Tensor<const T>(*t), seq);
      }
    }
    return out;
  }
  /// An independent copy (its own tiles).
  /// @return the copy
  [[nodiscard]] BlockSparseTensor copy() const {
    BlockSparseTensor out(layout(), threshold());
    for (std::size_t p = 0; p < state_->tiles.size(); ++p) {
      if (const auto& t = state_->tiles[p]) {
        out.state_->tiles[p].emplace(
            Tensor<T>(Tensor<const T>(*t).copy(seq))
                .with_origin(layout().piece(static_cast<index_t>(p)).origin()));
      }
    }
    return out;
  }

  /// The identity of the tiles (equal for copies of one handle), as AnyBuffer::identity.
  /// @return an address
  [[nodiscard]] const void* identity() const noexcept { return state_.get(); }

 private:
  using State = detail::BlockSparseState<T>;

  static void check_threshold(std::string_view operation, double threshold) {
    if (!(threshold >= 0)) {
      detail::fail<IndexError>(operation, "threshold ", threshold,
                               " is not a norm (it must be >= 0)");
    }
  }
  std::optional<Tensor<T>>& slot(std::string_view operation, index_t p) const {
    if (p < 0 || p >= n_tiles()) {
      detail::fail<IndexError>(std::string("BlockSparseTensor::").append(operation), "tile ", p,
                               " is outside [0, ", n_tiles(), ")");
    }
    return state_->tiles[static_cast<std::size_t>(p)];
  }
  Tensor<T> stored_tile(std::string_view operation, index_t p) const {
    const auto& t = slot(operation, p);
    if (!t) {
      detail::fail<LayoutError>(std::string("BlockSparseTensor::").append(operation), "tile ", p,
                                " is not stored (it reads as zeros; insert(", p, ") stores it)");
    }
    return *t;
  }

  std::shared_ptr<State> state_;
};

/// Whether @p X is a BlockSparseTensor (a type without cv or reference qualifiers).
template <class X>
inline constexpr bool is_block_sparse_v = false;
/// A BlockSparseTensor is one.
template <class T>
inline constexpr bool is_block_sparse_v<BlockSparseTensor<T>> = true;

}  // namespace strata
