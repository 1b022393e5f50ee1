/// strata::JaggedTensor: values + offsets storage for a jagged shape (a ragged array, as in
/// PyTorch's nested tensors and TiledArray), each row an ordinary Tensor view.
#pragma once

#include "strata/buffer/any_buffer.hpp"
#include "strata/buffer/dense_buffer.hpp"
#include "strata/parallel/policy.hpp"
#include "strata/shape/jagged.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>
#include <memory>
#include <span>
#include <vector>

namespace strata {

/// A tensor over a jagged shape, stored as one dense array of values (rows one after another,
/// each row-major) and the offsets where rows start (the shape's row_starts()).
///
/// Element access takes the logical (jagged) index; `piece(p)` is smooth piece p as an ordinary
/// Tensor view sharing the buffer: row p when the rows are smooth, else the smooth rows of the
/// jagged rows, recursively, in storage order. `for_each_row` hands out each row's values as a
/// contiguous span, in parallel over rows balanced by their sizes. Copies from and to a dense
/// (padded) tensor run in parallel over pieces.
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
  /// @param shape the shape (rows smooth or jagged)
  explicit JaggedTensor(Jagged shape)
      : shape_(std::move(shape)), buffer_(DenseBuffer<T>(shape_.size())) {
    index_pieces();
  }

  /// A jagged tensor that takes its values, row after row.
  /// @param values shape.size() values
  /// @param shape the shape
  /// @return the tensor
  /// @throws ShapeError when the sizes differ
  static JaggedTensor from_values(std::vector<T> values, Jagged shape) {
    if (static_cast<index_t>(values.size()) != shape.size()) {
      detail::fail<ShapeError>("JaggedTensor::from_values", shape.to_string(), " holds ",
                               shape.size(), " elements but ", values.size(), " values were given");
    }
    return JaggedTensor(std::move(shape), AnyBuffer<T>(DenseBuffer<T>(values)));
  }

  /// The rows of @p shape cut out of a dense tensor that holds them all (each smooth piece is
  /// the box [0, extents) at its ragged indices; the rest of the dense tensor is ignored).
  /// @param dense outer extents followed by extents at least as large as every row's
  /// @param shape the jagged shape
  /// @param policy seq or par (parallel over pieces)
  /// @return the tensor
  /// @throws ShapeError when the dense tensor's rank or extents cannot hold the rows
  template <ExecutionPolicy P = Parallel>
  static JaggedTensor from_dense(const Tensor<const T>& dense, Jagged shape,
                                 const P& policy = P{}) {
    JaggedTensor out(std::move(shape));
    out.check_dense("JaggedTensor::from_dense", dense.shape());
    const auto body = [&](index_t p, Tensor<T> piece) {
      piece.assign(dense.select(out.dense_selectors(p)), seq);
    };
    if (dense.buffer().concurrent()) {
      out.for_each_piece(policy, body);
    } else {
      out.for_each_piece(seq, body);  // a user buffer is read from one thread
    }
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

  /// The rows [lo, hi) of the first outer mode, sharing the buffer: a slice that keeps its
  /// origin, as Jagged::slice does. Its at(), row(), for_each_row and for_each_indexed take
  /// and give the absolute row numbers; its values() and offsets() are its own rows'.
  /// @param lo the first row (absolute)
  /// @param hi the row after the last (absolute)
  /// @return the slice
  /// @throws IndexError when [lo, hi) is not inside this tensor's rows
  [[nodiscard]] JaggedTensor rows(index_t lo, index_t hi) { return slice_rows(lo, hi); }
  /// The rows [lo, hi) of a const tensor (a const slice).
  /// @param lo the first row (absolute)
  /// @param hi the row after the last (absolute)
  /// @return the slice
  /// @throws IndexError when [lo, hi) is not inside this tensor's rows
  [[nodiscard]] const JaggedTensor rows(index_t lo, index_t hi) const { return slice_rows(lo, hi); }
  /// The first row's absolute number along the first outer mode (0 unless this is a slice).
  /// @return the origin of the rows
  [[nodiscard]] index_t first_row() const noexcept { return first_; }

  /// Row @p r's values as a contiguous span (row-major inside the row): O(1), no allocation.
  /// @param r the row's absolute linear number (its index when there is one outer mode)
  /// @return the span (writable)
  /// @throws IndexError for a row outside this tensor
  [[nodiscard]] std::span<T> row(index_t r) { return row_span<T>(r); }
  /// Row @p r's values of a const tensor, read-only.
  /// @param r the row's absolute linear number
  /// @return the span
  /// @throws IndexError for a row outside this tensor
  [[nodiscard]] std::span<const T> row(index_t r) const { return row_span<const T>(r); }
  /// All values, rows one after another, as a 1-D view sharing the buffer.
  /// @return the view
  [[nodiscard]] Tensor<T> values() { return Tensor<T>(buffer_, values_map()); }
  /// All values of a const tensor, as a read-only 1-D view.
  /// @return the view
  [[nodiscard]] Tensor<const T> values() const { return Tensor<const T>(buffer_, values_map()); }
  /// The storage.
  /// @return the buffer handle
  [[nodiscard]] const AnyBuffer<T>& buffer() const noexcept { return buffer_; }

  /// Reads an element by its jagged index (outer index, then the index inside the row).
  /// @param index one index per mode
  /// @return the element
  /// @throws IndexError for an index outside the shape
  [[nodiscard]] T at(IndexSpan index) const& { return buffer_.read(address(index)); }
  /// A writable reference to an element by its jagged index.
  /// @param index one index per mode
  /// @return the reference (valid while this tensor lives and is not reassigned)
  /// @throws IndexError for an index outside the shape
  [[nodiscard]] ElementRef<T> at(IndexSpan index) & { return {buffer_, address(index), false}; }
  /// A writable reference to an element of a temporary JaggedTensor (shares the buffer).
  /// @param index one index per mode
  /// @return the reference
  /// @throws IndexError for an index outside the shape
  [[nodiscard]] ElementRef<T> at(IndexSpan index) && {
    return {AnyBuffer<T>(buffer_), address(index), false};
  }

  /// The number of smooth pieces: the rows when they are smooth, else the smooth rows of the
  /// jagged rows (recursively).
  /// @return the count
  [[nodiscard]] index_t n_pieces() const noexcept {
    return pieces_ ? static_cast<index_t>(pieces_->size()) : shape_.n_rows();
  }
  /// Smooth piece @p p as a Tensor view of its shape, sharing the buffer.
  /// @param p in [0, n_pieces())
  /// @return the view
  /// @throws IndexError for a piece that does not exist
  [[nodiscard]] Tensor<T> piece(index_t p) { return piece_of<T>(p); }
  /// Smooth piece @p p of a const tensor, as a read-only view.
  /// @param p in [0, n_pieces())
  /// @return the view
  /// @throws IndexError for a piece that does not exist
  [[nodiscard]] Tensor<const T> piece(index_t p) const { return piece_of<const T>(p); }
  /// The extents of smooth piece @p p (unchecked).
  /// @param p in [0, n_pieces())
  /// @return one extent per smooth mode
  [[nodiscard]] std::span<const index_t> piece_extents(index_t p) const noexcept {
    if (pieces_) {
      return (*pieces_)[static_cast<std::size_t>(p)].extents;
    }
    return shape_.rows().data().row_extents(shape_.rows().row0() + p);
  }
  /// Where each smooth piece starts in values(), plus the size (n_pieces() + 1 prefix sums):
  /// the weights a parallel loop over pieces balances.
  /// @return the prefix sums
  [[nodiscard]] std::span<const index_t> piece_offsets() const noexcept { return piece_starts(); }
  /// Piece @p p's first value in one contiguous array (its values follow, row-major).
  /// @param p in [0, n_pieces()) (unchecked)
  /// @return the pointer
  [[nodiscard]] T* piece_data(index_t p) noexcept { return first_value() + piece_start(p); }
  /// Piece @p p's first value, read-only.
  /// @param p in [0, n_pieces()) (unchecked)
  /// @return the pointer
  [[nodiscard]] const T* piece_data(index_t p) const noexcept {
    return first_value() + piece_start(p);
  }

  /// The indices of the ragged modes that lead to piece @p p (the outer index of row p when
  /// rows are smooth; outer index, then the row's own outer index, ... otherwise).
  /// @param p in [0, n_pieces())
  /// @return the index prefix
  /// @throws IndexError for a piece that does not exist
  [[nodiscard]] Index piece_index(index_t p) const {
    check_piece(p);
    Index prefix;
    if (pieces_) {
      prefix = (*pieces_)[static_cast<std::size_t>(p)].prefix;
    } else {
      prefix.assign(static_cast<std::size_t>(shape_.outer_rank()), 0);
      detail::smooth_unravel(p, shape_.outer_extents(), prefix);
    }
    if (!prefix.empty()) {
      prefix[0] += first_;
    }
    return prefix;
  }

  /// Calls `f(p, piece(p))` for every smooth piece, in parallel over pieces (balanced by
  /// size) with `par`.
  /// @param policy seq or par
  /// @param f the function (called concurrently for different pieces)
  template <ExecutionPolicy P, class F>
  void for_each_piece(const P& policy, F&& f) {
    parallel::for_each_weighted_part(policy, piece_starts(), [&](index_t lo, index_t hi) {
      for (index_t p = lo; p < hi; ++p) {
        f(p, piece(p));
      }
    });
  }
  /// Calls `f(p, piece(p))` with the read-only pieces of a const tensor.
  /// @param policy seq or par
  /// @param f the function (called concurrently for different pieces)
  template <ExecutionPolicy P, class F>
  void for_each_piece(const P& policy, F&& f) const {
    parallel::for_each_weighted_part(policy, piece_starts(), [&](index_t lo, index_t hi) {
      for (index_t p = lo; p < hi; ++p) {
        f(p, piece(p));
      }
    });
  }

  /// Calls `f(r, values)` for every row with the row's values as a contiguous span (row-major
  /// inside the row): the fast way to walk a ragged array. Parallel over rows, balanced by
  /// their sizes, with `par`.
  /// @param policy seq or par
  /// @param f the function (called concurrently for different rows)
  template <ExecutionPolicy P, class F>
  void for_each_row(const P& policy, F&& f) {
    rows_of<T>(policy, std::forward<F>(f));
  }
  /// Calls `f(r, values)` with each row's values as a read-only span (a const tensor).
  /// @param policy seq or par
  /// @param f the function (called concurrently for different rows)
  template <ExecutionPolicy P, class F>
  void for_each_row(const P& policy, F&& f) const {
    rows_of<const T>(policy, std::forward<F>(f));
  }

  /// The values copied into a dense tensor padded with @p fill: outer extents followed by the
  /// largest extent of each inner mode (over every row, recursively).
  /// @param fill the value outside the rows
  /// @param policy seq or par (parallel over pieces)
  /// @return the dense tensor
  template <ExecutionPolicy P = Parallel>
  [[nodiscard]] Tensor<T> to_dense(const T& fill = T{}, const P& policy = P{}) const {
    Tensor<T> out(dense_shape());
    out.fill(fill, policy);
    for_each_piece(policy, [&](index_t p, const Tensor<const T>& piece) {
      out.select(dense_selectors(p)).assign(piece, seq);
    });
    return out;
  }

  /// The shape of to_dense(): outer extents, then the largest extent of each inner mode.
  /// @return the extents
  [[nodiscard]] Index dense_shape() const {
    Index extents(static_cast<std::size_t>(shape_.rank()), 0);
    std::copy(shape_.outer_extents().begin(), shape_.outer_extents().end(), extents.begin());
    for (index_t p = 0; p < n_pieces(); ++p) {
      const Index prefix = local_prefix(p);
      const std::span<const index_t> e = piece_extents(p);
      for (std::size_t m = 0; m < prefix.size(); ++m) {
        extents[m] = std::max(extents[m], prefix[m] + 1);
      }
      for (std::size_t m = 0; m < e.size(); ++m) {
        extents[prefix.size() + m] = std::max(extents[prefix.size() + m], e[m]);
      }
    }
    return extents;
  }

 private:
  JaggedTensor(Jagged shape, AnyBuffer<T> buffer)
      : shape_(std::move(shape)), buffer_(std::move(buffer)) {
    index_pieces();
  }

  template <class E>
  [[nodiscard]] Tensor<E> piece_of(index_t p) const {
    check_piece(p);
    const std::span<const index_t> extents = piece_extents(p);
    return Tensor<E>(buffer_, Dimensions(extents, row_strides(extents), base_ + piece_start(p)));
  }

  template <class E, ExecutionPolicy P, class F>
  void rows_of(const P& policy, F&& f) const {
    E* const data = buffer_.data() + base_;
    const std::span<const index_t> starts = offsets();
    const index_t first_row = first_row_number();
    parallel::for_each_weighted_part(policy, starts, [&](index_t lo, index_t hi) {
      for (index_t r = lo; r < hi; ++r) {
        const index_t begin = starts[static_cast<std::size_t>(r)];
        const index_t end = starts[static_cast<std::size_t>(r) + 1];
        f(first_row + r, std::span<E>(data + begin, static_cast<std::size_t>(end - begin)));
      }
    });
  }
  [[nodiscard]] JaggedTensor slice_rows(index_t lo, index_t hi) const {
    const IndexSpan outer = shape_.outer_extents();
    const index_t n = outer.empty() ? 0 : outer[0];
    if (lo < first_ || hi < lo || hi > first_ + n) {
      detail::fail<IndexError>("rows", "rows [", lo, ", ", hi, ") are not inside [", first_, ", ",
                               first_ + n, ") of ", shape_.to_string());
    }
    Index from(outer.size(), 0);
    Index to(outer.begin(), outer.end());
    from[0] = lo - first_;
    to[0] = hi - first_;
    JaggedTensor out = *this;
    out.shape_ = shape_.slice(from, to).shape();
    out.base_ =
        base_ +
        shape_.row_starts()[static_cast<std::size_t>((lo - first_) * (first_row_number_step()))];
    out.first_ = lo;
    out.pieces_.reset();
    out.piece_starts_.reset();
    out.index_pieces();
    return out;
  }
  [[nodiscard]] index_t first_row_number_step() const noexcept {
    index_t below = 1;
    const IndexSpan outer = shape_.outer_extents();
    for (std::size_t k = 1; k < outer.size(); ++k) {
      below *= outer[k];
    }
    return below;
  }
  template <class E>
  [[nodiscard]] std::span<E> row_span(index_t r) const {
    const index_t local = r - first_row_number();
    if (local < 0 || local >= shape_.n_rows()) {
      detail::fail<IndexError>("row", "row ", r, " is outside [", first_row_number(), ", ",
                               first_row_number() + shape_.n_rows(), ") of ", shape_.to_string());
    }
    const std::span<const index_t> starts = offsets();
    const auto begin = starts[static_cast<std::size_t>(local)];
    const auto end = starts[static_cast<std::size_t>(local) + 1];
    return {buffer_.data() + base_ + begin, static_cast<std::size_t>(end - begin)};
  }
  /// The linear number of this tensor's first row in the tensor its rows were sliced from.
  [[nodiscard]] index_t first_row_number() const noexcept {
    return first_ * first_row_number_step();
  }
  /// The prefix of piece p relative to this tensor (no origin).
  [[nodiscard]] Index local_prefix(index_t p) const {
    Index prefix = piece_index(p);
    if (!prefix.empty()) {
      prefix[0] -= first_;
    }
    return prefix;
  }
  /// The buffer address of an absolute jagged index.
  [[nodiscard]] index_t address(IndexSpan index) const {
    if (first_ == 0 || index.empty()) {
      return base_ + shape_.position(index);
    }
    Index local(index);
    local[0] -= first_;
    try {
      return base_ + shape_.position(local);
    } catch (const IndexError&) {
      detail::fail<IndexError>("position", "index ", to_string(index), " is outside the rows [",
                               first_, ", ", first_ + shape_.outer_extents()[0], ") of ",
                               shape_.to_string(), " (a slice of rows)");
    }
  }
  [[nodiscard]] Dimensions values_map() const { return Dimensions(Index{size()}, Index{1}, base_); }

  /// Lists the smooth pieces when some row is jagged (smooth rows are the pieces themselves).
  void index_pieces() {
    if (shape_.smooth_rows()) {
      return;
    }
    auto pieces = std::make_shared<std::vector<detail::JaggedPiece>>();
    Index prefix;
    detail::jagged_pieces(shape_, prefix, 0, *pieces);
    auto starts = std::make_shared<std::vector<index_t>>();
    starts->reserve(pieces->size() + 1);
    for (const auto& piece : *pieces) {
      starts->push_back(piece.start);
    }
    starts->push_back(shape_.size());
    pieces_ = std::move(pieces);
    piece_starts_ = std::move(starts);
  }
  void check_piece(index_t p) const {
    if (p < 0 || p >= n_pieces()) {
      detail::fail<IndexError>("piece", "piece ", p, " is outside [0, ", n_pieces(), ") of ",
                               shape_.to_string());
    }
  }
  [[nodiscard]] std::span<const index_t> piece_starts() const noexcept {
    return piece_starts_ ? std::span<const index_t>(*piece_starts_) : offsets();
  }
  [[nodiscard]] index_t piece_start(index_t p) const noexcept {
    return piece_starts()[static_cast<std::size_t>(p)];
  }
  [[nodiscard]] T* first_value() const noexcept { return buffer_.data() + base_; }
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
  [[nodiscard]] std::vector<Selector> dense_selectors(index_t p) const {
    std::vector<Selector> selectors;
    for (const index_t i : local_prefix(p)) {
      selectors.emplace_back(i);
    }
    for (const index_t e : piece_extents(p)) {
      selectors.emplace_back(Range{0, e});
    }
    return selectors;
  }

  Jagged shape_;
  AnyBuffer<T> buffer_;
  index_t base_ = 0;   // the address of the first value (a slice of rows starts mid-buffer)
  index_t first_ = 0;  // the absolute index of the first row along the first outer mode
  std::shared_ptr<const std::vector<detail::JaggedPiece>> pieces_;  // when some row is jagged
  std::shared_ptr<const std::vector<index_t>> piece_starts_;        // their starts, + size()
};

}  // namespace strata
