/// strata::JaggedTensor: values + offsets storage for a jagged shape (a ragged array, as in
/// PyTorch's nested tensors and TiledArray), each row an ordinary Tensor view.
#pragma once

#include "strata/buffer/any_buffer.hpp"
#include "strata/buffer/dense_buffer.hpp"
#include "strata/parallel/policy.hpp"
#include "strata/shape/jagged.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>
#include <span>
#include <vector>

namespace strata {

/// A tensor over a jagged shape, stored as one dense array of values (rows one after another,
/// each row-major) and the offsets where rows start (the shape's row_starts()).
///
/// Element access takes the logical (jagged) index; `piece(r)` is row r as an ordinary Tensor
/// view sharing the buffer; `for_each_row` hands out each row's values as a contiguous span, in
/// parallel over rows balanced by their sizes. Copies from and to a dense (padded) tensor run in
/// parallel over rows. Rows must be smooth (a jagged shape whose rows are jagged themselves is
/// rejected).
///
/// @code
/// strata::JaggedTensor<float> j(strata::Jagged::from_lengths({3, 0, 2}));
/// j.at({2, 1}) = 5.0F;                   // row 2, element 1
/// j.piece(0).fill(1.0F);                 // row 0 is a Tensor<float> of shape [3]
/// j.to_dense(-1.0F);                     // 3x3: [[1 1 1] [-1 -1 -1] [0 5 -1]]
/// @endcode
/// Design page: @ref shapes_page.
/// @tparam T the element type
template <class T>
class JaggedTensor {
 public:
  /// The element type.
  using value_type = T;

  /// Value-initialised (zero) elements of a jagged shape.
  /// @param shape the shape; its rows must be smooth
  /// @throws ShapeError when a row is jagged
  explicit JaggedTensor(Jagged shape)
      : shape_(checked(std::move(shape), "JaggedTensor")), buffer_(DenseBuffer<T>(shape_.size())) {}

  /// A jagged tensor that takes its values, row after row.
  /// @param values shape.size() values
  /// @param shape the shape; its rows must be smooth
  /// @return the tensor
  /// @throws ShapeError when the sizes differ or a row is jagged
  static JaggedTensor from_values(std::vector<T> values, Jagged shape) {
    checked(shape, "JaggedTensor::from_values");
    if (static_cast<index_t>(values.size()) != shape.size()) {
      detail::fail<ShapeError>("JaggedTensor::from_values", shape.to_string(), " holds ",
                               shape.size(), " elements but ", values.size(), " values were given");
    }
    return JaggedTensor(std::move(shape), AnyBuffer<T>(DenseBuffer<T>(values)));
  }

  /// The rows of @p shape cut out of a dense tensor that holds them all (row r is the box
  /// [0, extents) at outer index r; the rest of the dense tensor is ignored).
  /// @param dense outer extents followed by extents at least as large as every row's
  /// @param shape the jagged shape
  /// @param policy seq or par (parallel over rows)
  /// @return the tensor
  /// @throws ShapeError when the dense tensor's rank or extents cannot hold the rows
  template <ExecutionPolicy P = Parallel>
  static JaggedTensor from_dense(const Tensor<T>& dense, Jagged shape, const P& policy = P{}) {
    JaggedTensor out(std::move(shape));
    out.check_dense("JaggedTensor::from_dense", dense.shape());
    out.for_each_piece(policy, [&](index_t r, Tensor<T> row) {
      row.assign(dense.select(out.dense_selectors(r)), seq);
    });
    return out;
  }

  /// The shape.
  /// @return the jagged shape
  [[nodiscard]] const Jagged& shape() const noexcept { return shape_; }
  /// The number of elements.
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return shape_.size(); }
  /// Where each row starts in values(), plus the size (n_rows + 1 prefix sums).
  /// @return the offsets
  [[nodiscard]] std::span<const index_t> offsets() const noexcept { return shape_.row_starts(); }
  /// All values, rows one after another, as a 1-D view sharing the buffer.
  /// @return the view
  [[nodiscard]] Tensor<T> values() const { return Tensor<T>(buffer_, Dimensions{size()}); }
  /// The storage.
  /// @return the buffer handle
  [[nodiscard]] const AnyBuffer<T>& buffer() const noexcept { return buffer_; }

  /// Reads an element by its jagged index (outer index, then the index inside the row).
  /// @param index one index per mode
  /// @return the element
  /// @throws IndexError for an index outside the shape
  [[nodiscard]] T at(IndexSpan index) const { return buffer_.read(shape_.position(index)); }
  /// A writable reference to an element by its jagged index.
  /// @param index one index per mode
  /// @return the reference
  /// @throws IndexError for an index outside the shape
  [[nodiscard]] ElementRef<T> at(IndexSpan index) {
    return {buffer_, shape_.position(index), false};
  }

  /// The number of rows (pieces).
  /// @return the count
  [[nodiscard]] index_t n_pieces() const noexcept { return shape_.n_rows(); }
  /// Row @p r as a Tensor view of the row's smooth shape, sharing the buffer.
  /// @param r in [0, n_pieces())
  /// @return the view
  /// @throws IndexError for a row that does not exist
  [[nodiscard]] Tensor<T> piece(index_t r) const {
    if (r < 0 || r >= shape_.n_rows()) {
      detail::fail<IndexError>("row", "row ", r, " is outside [0, ", shape_.n_rows(), ") of ",
                               shape_.to_string());
    }
    const std::span<const index_t> extents = shape_.rows().data().row_extents(r);
    return Tensor<T>(
        buffer_, Dimensions(extents, row_strides(extents), offsets()[static_cast<std::size_t>(r)]));
  }

  /// Calls `f(r, piece(r))` for every row, in parallel over rows (balanced by size) with `par`.
  /// @param policy seq or par
  /// @param f the function (called concurrently for different rows)
  template <ExecutionPolicy P, class F>
  void for_each_piece(const P& policy, F&& f) const {
    parallel::for_each_weighted_part(policy, offsets(), [&](index_t lo, index_t hi) {
      for (index_t r = lo; r < hi; ++r) {
        f(r, piece(r));
      }
    });
  }

  /// Calls `f(r, values)` for every row with the row's values as a contiguous span (row-major
  /// inside the row): the fast way to walk a ragged array. Parallel over rows, balanced by
  /// their sizes, with `par`.
  /// @param policy seq or par
  /// @param f the function (called concurrently for different rows)
  template <ExecutionPolicy P, class F>
  void for_each_row(const P& policy, F&& f) const {
    T* const data = buffer_.data();
    const std::span<const index_t> starts = offsets();
    parallel::for_each_weighted_part(policy, starts, [&](index_t lo, index_t hi) {
      for (index_t r = lo; r < hi; ++r) {
        const index_t begin = starts[static_cast<std::size_t>(r)];
        const index_t end = starts[static_cast<std::size_t>(r) + 1];
        f(r, std::span<T>(data + begin, static_cast<std::size_t>(end - begin)));
      }
    });
  }

  /// The rows copied into a dense tensor padded with @p fill: outer extents followed by the
  /// largest extent of each inner mode over the rows.
  /// @param fill the value outside the rows
  /// @param policy seq or par (parallel over rows)
  /// @return the dense tensor
  template <ExecutionPolicy P = Parallel>
  [[nodiscard]] Tensor<T> to_dense(const T& fill = T{}, const P& policy = P{}) const {
    Tensor<T> out(dense_shape());
    out.fill(fill, policy);
    for_each_piece(policy, [&](index_t r, const Tensor<T>& row) {
      out.select(dense_selectors(r)).assign(row, seq);
    });
    return out;
  }

  /// The shape of to_dense(): outer extents, then the largest extent of each inner mode.
  /// @return the extents
  [[nodiscard]] Index dense_shape() const {
    Index extents(shape_.outer_extents().begin(), shape_.outer_extents().end());
    const auto s = static_cast<std::size_t>(shape_.inner_rank());
    Index largest(s, 0);
    for (index_t r = 0; r < shape_.n_rows(); ++r) {
      const auto e = shape_.rows().data().row_extents(r);
      for (std::size_t m = 0; m < s; ++m) {
        largest[m] = std::max(largest[m], e[m]);
      }
    }
    extents.insert(extents.end(), largest.begin(), largest.end());
    return extents;
  }

 private:
  JaggedTensor(Jagged shape, AnyBuffer<T> buffer)
      : shape_(std::move(shape)), buffer_(std::move(buffer)) {}

  static Jagged checked(Jagged shape, std::string_view operation) {
    if (!shape.smooth_rows()) {
      detail::fail<ShapeError>(operation, "rows of ", shape.to_string(),
                               " are jagged; jagged storage takes smooth rows");
    }
    return shape;
  }
  static Index row_strides(std::span<const index_t> e) {
    Index strides(e.size(), 0);
    index_t stride = 1;
    for (std::size_t k = e.size(); k-- > 0;) {
      strides[k] = stride;
      stride *= std::max<index_t>(e[k], 1);  // an empty axis must not make a broadcast stride
    }
    return strides;
  }
  void check_dense(std::string_view operation, const Index& dense) const {
    const Index need = dense_shape();
    bool fits = dense.size() == need.size();
    const auto o = static_cast<std::size_t>(shape_.outer_rank());
    for (std::size_t k = 0; fits && k < need.size(); ++k) {
      fits = k < o ? dense[k] == need[k] : dense[k] >= need[k];
    }
    if (!fits) {
      detail::fail<ShapeError>(
          operation, "dense shape ", to_string(dense), " cannot hold ", shape_.to_string(),
          " (it needs outer extents ", to_string(shape_.outer_extents()),
          " and inner extents >= ", to_string(IndexSpan(need).subspan(o)), ")");
    }
  }
  std::vector<Selector> dense_selectors(index_t r) const {
    std::vector<Selector> selectors;
    Index outer(static_cast<std::size_t>(shape_.outer_rank()), 0);
    detail::smooth_unravel(r, shape_.outer_extents(), outer);
    for (const index_t i : outer) {
      selectors.emplace_back(i);
    }
    for (const index_t e : shape_.rows().data().row_extents(r)) {
      selectors.emplace_back(Range{0, e});
    }
    return selectors;
  }

  Jagged shape_;
  AnyBuffer<T> buffer_;
};

}  // namespace strata
