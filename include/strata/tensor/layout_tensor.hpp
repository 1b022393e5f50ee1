/// @file
/// strata::LayoutTensor: a tensor whose logical (smooth) shape is stored through a Layout
/// (row-major, column-major or tiled); every piece (a tile) is an ordinary Tensor view.
#pragma once

#include "strata/buffer/any_buffer.hpp"
#include "strata/buffer/dense_buffer.hpp"
#include "strata/layout/layout.hpp"
#include "strata/parallel/policy.hpp"
#include "strata/tensor/tensor.hpp"

#include <string_view>
#include <vector>

namespace strata {

namespace detail {

/// The selectors of a box (a SmoothView) of a dense tensor.
inline std::vector<Selector> box_selectors(const SmoothView& box) {
  std::vector<Selector> selectors;
  const Index origin = box.origin();
  for (std::size_t k = 0; k < origin.size(); ++k) {
    selectors.emplace_back(Range{origin[k], origin[k] + box.extents()[k]});
  }
  return selectors;
}

}  // namespace detail

/// A tensor over a Layout: logical indices in, the layout's addresses in one dense buffer.
///
/// Each piece of the layout (the whole tensor, or one tile) is available as an ordinary
/// Tensor<T> view sharing the buffer (`piece(p)`), so every Tensor operation works on a tile.
/// Copies from and to dense tensors run in parallel over pieces.
///
/// @code
/// auto layout = strata::Layout::tiled(strata::Smooth{5, 7}, {2, 3});
/// auto tiled = strata::LayoutTensor<float>::from_dense(dense, layout);  // dense is 5x7
/// tiled.at({4, 6});               // the same element as dense.at({4, 6})
/// tiled.piece(8).fill(0.0F);      // zero the corner tile in place
/// auto back = tiled.to_dense();   // 5x7 again
/// @endcode
/// Design page: @ref shapes_page.
/// @tparam T the element type
template <class T>
class LayoutTensor {
 public:
  /// The element type.
  using value_type = T;

  /// Value-initialised (zero) elements stored through @p layout.
  /// @param layout the layout
  explicit LayoutTensor(Layout layout)
      : layout_(std::move(layout)), buffer_(DenseBuffer<T>(layout_.size())) {}

  /// Elements left uninitialised, for a tensor that is written whole before it is read (as
  /// Tensor::for_overwrite: arithmetic values hold whatever the memory held).
  /// @param layout the layout
  /// @return the tensor
  static LayoutTensor for_overwrite(Layout layout) {
    const index_t size = layout.size();
    return LayoutTensor(std::move(layout), DenseBuffer<T>::for_overwrite(size));
  }

  /// A copy of a dense tensor stored through @p layout.
  /// @param dense the values; its shape must be the layout's logical shape
  /// @param layout the layout
  /// @param policy seq or par (parallel over pieces)
  /// @return the tensor
  /// @throws ShapeError when the shapes differ
  template <ExecutionPolicy P = Parallel>
  static LayoutTensor from_dense(const Tensor<const T>& dense, Layout layout,
                                 const P& policy = P{}) {
    LayoutTensor out = for_overwrite(std::move(layout));  // every piece written below
    out.check_shape("LayoutTensor::from_dense", dense);
    out.assign(dense, policy);
    return out;
  }

  /// The layout.
  /// @return the layout
  [[nodiscard]] const Layout& layout() const noexcept { return layout_; }
  /// The storage (shared with the pieces).
  /// @return the buffer handle
  [[nodiscard]] const AnyBuffer<T>& buffer() const noexcept { return buffer_; }
  /// The logical extents.
  /// @return the shape
  [[nodiscard]] Index shape() const {
    return Index(layout_.logical().extents().begin(), layout_.logical().extents().end());
  }
  /// The number of elements.
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return layout_.size(); }

  /// Names this tensor's axes for a labelled contraction (TiledArray's spelling):
  /// `c("i,k") = a("i,j") * b("j,k")` runs tile by tile (strata/contract/labelled.hpp).
  /// @param labels one name per axis, comma-separated
  /// @return the labelled tensor (writable; it shares the buffer)
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

  /// Reads an element by logical index.
  /// @param index one index per mode
  /// @return the element
  /// @throws IndexError for an index outside the shape
  [[nodiscard]] T at(IndexSpan index) const& { return buffer_.read(layout_.address(index)); }
  /// A writable reference to an element by logical index.
  /// @param index one index per mode
  /// @return the reference (valid while this tensor lives and is not reassigned)
  /// @throws IndexError for an index outside the shape
  [[nodiscard]] ElementRef<T> at(IndexSpan index) & {
    return {buffer_, layout_.address(index), false};
  }
  /// A writable reference to an element of a temporary LayoutTensor (shares the buffer).
  /// @param index one index per mode
  /// @return the reference
  /// @throws IndexError for an index outside the shape
  [[nodiscard]] ElementRef<T, true> at(IndexSpan index) && {
    return {AnyBuffer<T>(buffer_), layout_.address(index), false};
  }

  /// The number of pieces (1, or the number of tiles).
  /// @return the count
  [[nodiscard]] index_t n_pieces() const noexcept { return layout_.n_pieces(); }
  /// A piece as a Tensor view sharing the buffer. Element access `v(i, j)` counts from the
  /// piece's corner; its absolute indices (origin(), indices(), for_each_indexed) are the
  /// logical indices of the tensor, as for any slice.
  /// @param p in [0, n_pieces())
  /// @return the view
  /// @throws IndexError for a piece that does not exist
  [[nodiscard]] Tensor<T> piece(index_t p) {
    return Tensor<T>(buffer_, layout_.piece_dimensions(p)).with_origin(layout_.piece(p).origin());
  }
  /// A piece of a const tensor: a read-only view (absolute indices as the non-const piece()).
  /// @param p in [0, n_pieces())
  /// @return the view
  /// @throws IndexError for a piece that does not exist
  [[nodiscard]] Tensor<const T> piece(index_t p) const {
    return Tensor<const T>(buffer_, layout_.piece_dimensions(p))
        .with_origin(layout_.piece(p).origin());
  }
  /// The tile at tile coordinates `{I, J, ...}` as a Tensor view sharing the buffer.
  /// @param tile one coordinate per mode (Layout::piece_at)
  /// @return the view (element access from the tile's corner; absolute indices logical)
  /// @throws IndexError for coordinates outside the tile grid
  [[nodiscard]] Tensor<T> piece(IndexSpan tile) { return piece(layout_.piece_at(tile)); }
  /// The tile at tile coordinates of a const tensor, read-only.
  /// @param tile one coordinate per mode
  /// @return the view
  /// @throws IndexError for coordinates outside the tile grid
  [[nodiscard]] Tensor<const T> piece(IndexSpan tile) const {
    return piece(layout_.piece_at(tile));
  }
  /// The piece that stores a logical index (Layout::piece_holding).
  /// @param index one index per mode
  /// @return the piece number
  /// @throws IndexError for an index outside the shape
  [[nodiscard]] index_t piece_holding(IndexSpan index) const {
    return layout_.piece_holding(index);
  }
  /// The logical box a piece covers (with its logical origin).
  /// @param p in [0, n_pieces())
  /// @return the box
  /// @throws IndexError for a piece that does not exist
  [[nodiscard]] SmoothView piece_region(index_t p) const { return layout_.piece(p); }

  /// Calls `f(p, piece(p))` for every piece, in parallel over pieces with `par` (the first
  /// exception @p f throws reaches the caller).
  /// @param policy seq or par
  /// @param f the function (called concurrently for different pieces)
  template <ExecutionPolicy P, class F>
  void for_each_piece(const P& policy, F&& f) {
    parallel::for_each_weighted_part(policy, layout_.piece_starts(), [&](index_t lo, index_t hi) {
      for (index_t p = lo; p < hi; ++p) {
        f(p, piece(p));
      }
    });
  }
  /// Calls `f(p, piece(p))` with read-only pieces of a const tensor.
  /// @param policy seq or par
  /// @param f the function (called concurrently for different pieces)
  template <ExecutionPolicy P, class F>
  void for_each_piece(const P& policy, F&& f) const {
    parallel::for_each_weighted_part(policy, layout_.piece_starts(), [&](index_t lo, index_t hi) {
      for (index_t p = lo; p < hi; ++p) {
        f(p, piece(p));
      }
    });
  }

  /// Copies a dense tensor in (each piece from its box), in parallel over pieces.
  /// @param dense the values; shape must be the logical shape
  /// @param policy seq or par
  /// @return this tensor
  /// @throws ShapeError when the shapes differ
  template <ExecutionPolicy P = Parallel>
  LayoutTensor& assign(const Tensor<const T>& dense, const P& policy = P{}) {
    check_shape("LayoutTensor::assign", dense);
    const auto body = [&](index_t p, Tensor<T> part) {
      part.assign(dense.select(detail::box_selectors(layout_.piece(p))), seq);
    };
    if (dense.buffer().concurrent()) {
      for_each_piece(policy, body);
    } else {
      for_each_piece(seq, body);  // a user buffer is read from one thread
    }
    return *this;
  }

  /// A dense row-major copy, in parallel over pieces.
  /// @param policy seq or par
  /// @return the copy
  template <ExecutionPolicy P = Parallel>
  [[nodiscard]] Tensor<T> to_dense(const P& policy = P{}) const {
    Tensor<T> out(shape());
    for_each_piece(policy, [&](index_t p, const Tensor<const T>& part) {
      out.select(detail::box_selectors(layout_.piece(p))).assign(part, seq);
    });
    return out;
  }

 private:
  void check_shape(std::string_view operation, const Tensor<const T>& dense) const {
    if (dense.shape() != shape()) {
      detail::fail<ShapeError>(operation, "dense shape ", to_string(dense.shape()),
                               " is not the logical shape ", to_string(shape()), " of ",
                               layout_.to_string());
    }
  }

  LayoutTensor(Layout layout, DenseBuffer<T> buffer)
      : layout_(std::move(layout)), buffer_(std::move(buffer)) {}

  Layout layout_;
  AnyBuffer<T> buffer_;
};

/// Whether @p X is a LayoutTensor (a type without cv or reference qualifiers).
template <class X>
inline constexpr bool is_layout_tensor_v = false;
/// A LayoutTensor is one.
template <class T>
inline constexpr bool is_layout_tensor_v<LayoutTensor<T>> = true;

}  // namespace strata
