/// @file
/// strata::JaggedTensor: values + offsets storage for a jagged shape (a ragged array, as in
/// PyTorch's nested tensors and TiledArray), each row an ordinary Tensor view.
#pragma once

#include "strata/buffer/any_buffer.hpp"
#include "strata/buffer/dense_buffer.hpp"
#include "strata/parallel/policy.hpp"
#include "strata/shape/jagged.hpp"
#include "strata/tensor/expression_fwd.hpp"
#include "strata/tensor/print.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

namespace detail {

/// The name of an element type as NumPy and awkward-array print it (`float64`, `int32`, ...).
template <class T>
constexpr std::string_view dtype_name() {
  using V = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<V, bool>) {
    return "bool";
  } else if constexpr (std::is_same_v<V, float>) {
    return "float32";
  } else if constexpr (std::is_same_v<V, double>) {
    return "float64";
  } else if constexpr (std::is_same_v<V, long double>) {
    return "longdouble";
  } else if constexpr (std::is_same_v<V, std::complex<float>>) {
    return "complex64";
  } else if constexpr (std::is_same_v<V, std::complex<double>>) {
    return "complex128";
  } else if constexpr (std::is_integral_v<V>) {
    constexpr std::size_t bits = sizeof(V) * 8;
    if constexpr (std::is_signed_v<V>) {
      return bits == 8 ? "int8" : bits == 16 ? "int16" : bits == 32 ? "int32" : "int64";
    } else {
      return bits == 8 ? "uint8" : bits == 16 ? "uint16" : bits == 32 ? "uint32" : "uint64";
    }
  } else {
    return "object";
  }
}

/// Throws ShapeError, naming @p operation and the first row where they differ, unless two
/// jagged shapes are the same.
inline void check_same_rows(std::string_view operation, const Jagged& a, const Jagged& b) {
  if (a.same_as(b)) {
    return;
  }
  if (!std::ranges::equal(a.outer_extents(), b.outer_extents()) ||
      a.inner_rank() != b.inner_rank()) {
    fail<ShapeError>(operation, "the jagged shapes differ: ", a.to_string(), " has outer extents ",
                     to_string(a.outer_extents()), " and rows of rank ", a.inner_rank(), "; ",
                     b.to_string(), " has ", to_string(b.outer_extents()), " and ", b.inner_rank());
  }
  for (index_t r = 0; r < a.n_rows(); ++r) {
    const Shape ra = a.row(r);
    const Shape rb = b.row(r);
    if (!same_row(ra, rb)) {
      fail<ShapeError>(operation, "the jagged shapes differ first at row ", r, ": ", ra.to_string(),
                       " and ", rb.to_string());
    }
  }
}

/// The sub-rows of every row of @p shape along the row's first mode (the lists of a
/// `n * var * var` row, the sub-rows of a rectangular one), row after row: @p sizes gets each
/// one's number of values, @p counts each row's number of them.
inline void sub_row_sizes(const Jagged& shape, std::vector<index_t>& sizes,
                          std::vector<index_t>& counts) {
  sizes.clear();
  counts.assign(static_cast<std::size_t>(shape.n_rows()), 0);
  const auto smooth = [&sizes](IndexSpan e) {
    const index_t n = e[0];
    index_t block = 1;
    for (std::size_t m = 1; m < e.size(); ++m) {
      block *= e[m];
    }
    sizes.insert(sizes.end(), static_cast<std::size_t>(n), block);
    return n;
  };
  // The rows are read where the shape keeps them (no Shape made per row).
  const JaggedData& data = shape.rows().data();
  const index_t row0 = shape.rows().row0();
  for (index_t r = 0; r < shape.n_rows(); ++r) {
    index_t& n = counts[static_cast<std::size_t>(r)];
    if (data.smooth_rows()) {
      n = smooth(data.row_extents(row0 + r));
      continue;
    }
    if (data.list_rows()) {
      const auto a = static_cast<std::size_t>(row0 + r);
      n = data.first[a + 1] - data.first[a];
      for (index_t l = data.first[a]; l < data.first[a + 1]; ++l) {
        sizes.push_back(data.list_length(l));
      }
      continue;
    }
    const Shape& row = data.inner[static_cast<std::size_t>(row0 + r)];
    if (row.is<Smooth>()) {
      n = smooth(row.as<Smooth>().extents());
    } else if (row.is<SmoothView>()) {
      n = smooth(row.as<SmoothView>().extents());
    } else if (row.is<Jagged>() && row.as<Jagged>().outer_rank() == 1) {
      const std::span<const index_t> starts = row.as<Jagged>().row_starts();  // sub-row sizes
      n = static_cast<index_t>(starts.size()) - 1;
      for (std::size_t k = 0; k + 1 < starts.size(); ++k) {
        sizes.push_back(starts[k + 1] - starts[k]);
      }
    } else {
      n = row.extent(0);
      for (index_t i = 0; i < n; ++i) {
        sizes.push_back(row.chip(0, i).size());
      }
    }
  }
}

/// Row lengths of any integer type as an Index: each >= 0, their sum representable.
template <class R>
Index checked_lengths(std::string_view operation, const R& lengths) {
  Index out;
  index_t total = 0;
  index_t r = 0;
  for (const auto& value : lengths) {
    using L = std::remove_cvref_t<decltype(value)>;
    static_assert(std::is_integral_v<L> && !std::is_same_v<L, bool>,
                  "strata: row lengths must be integers");
    if constexpr (std::is_signed_v<L>) {
      if (value < 0) {
        fail<ShapeError>(operation, "length ", static_cast<long long>(value), " of row ", r,
                         " is negative");
      }
    }
    if (std::cmp_greater(value, std::numeric_limits<index_t>::max())) {
      fail<ShapeError>(operation, "length ", static_cast<unsigned long long>(value), " of row ", r,
                       " does not fit in a 64-bit signed index");
    }
    const auto length = static_cast<index_t>(value);
    if (__builtin_add_overflow(total, length, &total)) {
      fail<ShapeError>(operation, "the lengths overflow a 64-bit signed index at row ", r,
                       " (length ", length, ")");
    }
    out.push_back(length);
    ++r;
  }
  return out;
}

/// The depth of nested std::vectors and the element type at the bottom.
template <class V>
struct nested_vector {
  static constexpr int depth = 0;
  using value_type = V;
};
template <class V, class A>
struct nested_vector<std::vector<V, A>> {
  static constexpr int depth = 1 + nested_vector<V>::depth;
  using value_type = typename nested_vector<V>::value_type;
};

template <class V>
Shape nested_shape(const std::vector<V>& v);

/// The rows of nested vectors as a jagged shape, one row per element: lengths for lists, the
/// two-level offsets for rows of lists (no Shape per row), row shapes deeper.
template <class V>
Jagged nested_rows(const std::vector<V>& v) {
  if constexpr (nested_vector<V>::depth == 1) {
    Index lengths(v.size(), 0);
    for (std::size_t i = 0; i < v.size(); ++i) {
      lengths[i] = static_cast<index_t>(v[i].size());
    }
    return Jagged::from_lengths(lengths);
  } else if constexpr (nested_vector<V>::depth == 2) {
    Index counts(v.size(), 0);
    Index lengths;
    for (std::size_t i = 0; i < v.size(); ++i) {
      counts[i] = static_cast<index_t>(v[i].size());
      for (const auto& list : v[i]) {
        lengths.push_back(static_cast<index_t>(list.size()));
      }
    }
    return rows_of_lists(counts, lengths);
  } else {
    if (v.empty()) {  // no row to tell the rank: the type does
      return Jagged::from_extents(Index{0}, nested_vector<V>::depth, Index{});
    }
    std::vector<Shape> rows;
    rows.reserve(v.size());
    for (const V& row : v) {
      rows.push_back(nested_shape(row));
    }
    return Jagged(Index{static_cast<index_t>(v.size())}, std::move(rows));
  }
}

/// The shape of nested vectors: Smooth when every level is rectangular, Jagged otherwise.
template <class V>
Shape nested_shape(const std::vector<V>& v) {
  const auto n = static_cast<index_t>(v.size());
  if constexpr (nested_vector<V>::depth == 0) {
    return Shape(Smooth{n});
  } else {
    if (v.empty()) {
      return Shape(Smooth(Index(static_cast<std::size_t>(nested_vector<V>::depth) + 1, 0)));
    }
    Jagged rows = nested_rows(v);
    if (rows.smooth_rows()) {  // rectangular when every row has the first row's extents
      const std::vector<index_t>& table = rows.rows().data().extents;
      const auto s = static_cast<std::size_t>(rows.inner_rank());
      bool rectangular = true;
      for (std::size_t k = s; k < table.size() && rectangular; ++k) {
        rectangular = table[k] == table[k % s];
      }
      if (rectangular) {
        Index extents{n};
        extents.insert(extents.end(), table.begin(),
                       table.begin() + static_cast<std::ptrdiff_t>(s));
        return Shape(Smooth(extents));
      }
    }
    return Shape(std::move(rows));
  }
}

/// Copies nested vectors' values in row-major (nested) order.
template <class V, class T>
void flatten_nested(const std::vector<V>& v, T*& out) {
  if constexpr (nested_vector<V>::depth == 0) {
    out = std::copy(v.begin(), v.end(), out);
  } else {
    for (const V& row : v) {
      flatten_nested(row, out);
    }
  }
}

/// Python's slice of a sequence of @p length: the first index and the count (CPython's
/// PySlice_AdjustIndices).
inline std::pair<index_t, index_t> slice_of(index_t length, const Range& range) {
  const index_t step = range.step;
  const index_t lower = step < 0 ? -1 : 0;
  const index_t upper = step < 0 ? length - 1 : length;
  const auto clamp = [&](std::optional<index_t> v, index_t fallback) {
    if (!v) {
      return fallback;
    }
    return *v < 0 ? std::max(*v + length, lower) : std::min(*v, upper);
  };
  const index_t start = clamp(range.start, step < 0 ? upper : lower);
  const index_t stop = clamp(range.stop, step < 0 ? lower : upper);
  index_t count = 0;
  if (step < 0) {
    count = stop < start ? (start - stop - 1) / (-step) + 1 : 0;
  } else {
    count = start < stop ? (stop - start - 1) / step + 1 : 0;
  }
  return {start, count};
}

}  // namespace detail

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
/// @image html jagged_tensor.svg "values + offsets"
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

  /// Value-initialised (zero) elements of a jagged shape (NumPy's `zeros`).
  /// @param shape the shape
  /// @return the tensor
  static JaggedTensor zeros(Jagged shape) { return JaggedTensor(std::move(shape)); }
  /// A tensor of a jagged shape whose values are about to be written (NumPy's `empty`; strata
  /// value-initialises them, so they read as zeros).
  /// @param shape the shape
  /// @return the tensor
  static JaggedTensor empty(Jagged shape) { return JaggedTensor(std::move(shape)); }
  /// A tensor whose values the caller writes, every one, before reading any (as
  /// DenseBuffer::for_overwrite, `std::make_unique_for_overwrite`): arithmetic values start
  /// indeterminate, which saves the pass that zeroes them. The operations that build a new
  /// tensor value by value (take_each, concat, cartesian, sort, ...) start from it.
  /// @param shape the shape
  /// @return the tensor
  static JaggedTensor for_overwrite(Jagged shape) {
    const index_t size = shape.size();
    return JaggedTensor(std::move(shape), AnyBuffer<T>(DenseBuffer<T>::for_overwrite(size)));
  }
  /// Every element @p value (NumPy's `full`).
  /// @param shape the shape
  /// @param value the value
  /// @return the tensor
  static JaggedTensor full(Jagged shape, const T& value) {
    JaggedTensor out(std::move(shape));
    out.fill(value);
    return out;
  }

  /// A tensor of nested std::vectors: the outer vector's entries are the rows, each a vector
  /// (a 1-D row), a vector of vectors (a 2-D row: smooth when rectangular, else jagged itself),
  /// and so on. `{{1, 2, 3}, {}, {4, 5}}` is `3 * var * T`.
  /// @code
  /// std::vector<std::vector<float>> rows{{1, 2, 3}, {}, {4, 5}};
  /// strata::JaggedTensor jt(rows);             // JaggedTensor<float>, Jagged[3]{[3] [0] [2]}
  /// @endcode
  /// @param rows the rows (at least two levels of std::vector)
  /// @throws ShapeError when the rows do not have one rank
  template <class V, class A>
  requires(detail::nested_vector<V>::depth >= 1 &&
           std::is_same_v<typename detail::nested_vector<V>::value_type,
                          T>) explicit JaggedTensor(const std::vector<V, A>& rows)
      : JaggedTensor(from_nested(rows)) {}

  /// The tensor of nested std::vectors (see the constructor).
  /// @param rows the rows
  /// @return the tensor
  /// @throws ShapeError when the rows do not have one rank
  template <class V, class A>
  requires(detail::nested_vector<V>::depth >= 1 &&
           std::is_same_v<typename detail::nested_vector<V>::value_type, T>) static JaggedTensor
      from_nested(const std::vector<V, A>& rows) {
    if constexpr (detail::nested_vector<V>::depth == 1) {
      Index lengths(rows.size(), 0);
      for (std::size_t r = 0; r < rows.size(); ++r) {
        lengths[r] = static_cast<index_t>(rows[r].size());
      }
      Jagged shape = Jagged::from_lengths(lengths);
      const index_t size = shape.size();
      JaggedTensor out(std::move(shape), AnyBuffer<T>(DenseBuffer<T>::for_overwrite(size)));
      T* at = out.first_value();
      for (const V& row : rows) {
        at = std::copy(row.begin(), row.end(), at);
      }
      return out;
    } else {
      Jagged shape = detail::nested_rows(rows);
      const index_t size = shape.size();
      JaggedTensor out(std::move(shape), AnyBuffer<T>(DenseBuffer<T>::for_overwrite(size)));
      T* at = out.first_value();
      detail::flatten_nested(rows, at);
      return out;
    }
  }

  /// A tensor from row lengths (any integer type) and the values, row after row: the shape
  /// `lengths.size() * var * T` (Arrow's list array from its sizes).
  /// @param lengths one length per row (std::vector<int>, std::span<const std::int64_t>, ...)
  /// @param values the sum of the lengths values
  /// @return the tensor
  /// @throws ShapeError when a length is negative, the lengths overflow, or the number of
  ///         values differs from their sum
  template <std::ranges::input_range R>
  requires std::integral<std::ranges::range_value_t<R>>
  static JaggedTensor from_lengths(const R& lengths, std::vector<T> values) {
    const Index checked = detail::checked_lengths("JaggedTensor::from_lengths", lengths);
    Jagged shape = Jagged::from_lengths(checked);
    if (static_cast<index_t>(values.size()) != shape.size()) {
      detail::fail<ShapeError>("JaggedTensor::from_lengths", "the lengths add up to ", shape.size(),
                               " but ", values.size(), " values were given");
    }
    return JaggedTensor(std::move(shape), AnyBuffer<T>(DenseBuffer<T>(values)));
  }
  /// from_lengths with the lengths in braces: `from_lengths({3, 0, 2}, values)`.
  /// @param lengths one length per row
  /// @param values the sum of the lengths values
  /// @return the tensor
  /// @throws ShapeError as the range overload
  template <std::integral I>
  static JaggedTensor from_lengths(std::initializer_list<I> lengths, std::vector<T> values) {
    return from_lengths(std::span<const I>(lengths.begin(), lengths.size()), std::move(values));
  }

  /// The rows of a padded dense tensor: row r is the first `lengths[r]` elements of
  /// `padded[r]` along the last axis (PyTorch's `nested_tensor` from padded + lengths).
  /// @param padded outer extents followed by the padded extent
  /// @param lengths one length per row (any integer type), each <= the padded extent
  /// @param policy seq or par
  /// @return the tensor
  /// @throws ShapeError when padded has rank 0, the number of lengths is not the number of rows,
  ///         a length is negative or larger than the padded extent
  template <std::ranges::input_range R, ExecutionPolicy P = Parallel>
  requires(std::integral<std::ranges::range_value_t<R>> &&
           !std::is_same_v<std::ranges::range_value_t<R>, bool>) static JaggedTensor
      from_padded(const Tensor<const T>& padded, const R& lengths, const P& policy = P{}) {
    constexpr std::string_view op = "JaggedTensor::from_padded";
    const Index shape = padded.shape();
    if (shape.empty()) {
      detail::fail<ShapeError>(op, "a padded tensor of rank 0 has no rows");
    }
    const Index outer(shape.begin(), shape.end() - 1);
    const index_t width = shape.back();
    const Index checked = detail::checked_lengths(op, lengths);
    index_t rows = 1;
    for (const index_t e : outer) {
      rows *= e;
    }
    if (static_cast<index_t>(checked.size()) != rows) {
      detail::fail<ShapeError>(op, "the padded shape ", to_string(shape), " has ", rows,
                               " rows but ", checked.size(), " lengths were given");
    }
    for (std::size_t r = 0; r < checked.size(); ++r) {
      if (checked[r] > width) {
        detail::fail<ShapeError>(op, "length ", checked[r], " of row ", r,
                                 " is larger than the padded extent ", width);
      }
    }
    return from_dense(padded, Jagged::from_extents(outer, 1, checked), policy);
  }
  /// from_padded with the lengths in braces.
  /// @param padded outer extents followed by the padded extent
  /// @param lengths one length per row
  /// @return the tensor
  /// @throws ShapeError as the range overload
  template <std::integral I>
  static JaggedTensor from_padded(const Tensor<const T>& padded, std::initializer_list<I> lengths) {
    return from_padded(padded, std::span<const I>(lengths.begin(), lengths.size()));
  }
  /// The rows of a padded dense tensor chosen by a mask: row r is `padded[r][mask[r]]` (the
  /// elements where the mask is true, in order, as NumPy's boolean indexing of each row).
  /// @param padded outer extents followed by the padded extent
  /// @param mask a boolean tensor of the same shape
  /// @return the tensor
  /// @throws ShapeError when padded has rank 0 or the mask's shape differs
  static JaggedTensor from_padded(const Tensor<const T>& padded, const Tensor<const bool>& mask) {
    constexpr std::string_view op = "JaggedTensor::from_padded";
    const Index shape = padded.shape();
    if (shape.empty()) {
      detail::fail<ShapeError>(op, "a padded tensor of rank 0 has no rows");
    }
    if (mask.shape() != shape) {
      detail::fail<ShapeError>(op, "the mask's shape ", to_string(mask.shape()),
                               " differs from the padded shape ", to_string(shape));
    }
    const Index outer(shape.begin(), shape.end() - 1);
    const index_t width = shape.back();
    const Tensor<bool> m = mask.copy(seq);
    const Tensor<T> d = padded.copy(seq);
    const bool* mp = m.data();
    const T* dp = d.data();
    index_t rows = 1;
    for (const index_t e : outer) {
      rows *= e;
    }
    Index lengths(static_cast<std::size_t>(rows), 0);
    for (index_t r = 0; r < rows; ++r) {
      lengths[static_cast<std::size_t>(r)] = std::count(mp + r * width, mp + (r + 1) * width, true);
    }
    JaggedTensor out(Jagged::from_extents(outer, 1, lengths));
    T* at = out.first_value();
    for (index_t k = 0; k < d.size(); ++k) {
      if (mp[k]) {
        *at++ = dp[k];
      }
    }
    return out;
  }

  /// A new JaggedTensor holding a jagged expression's values (`JaggedTensor<float> y = jt - m;`,
  /// strata/expr/), evaluated row by row in one pass.
  /// @param e the expression (with at least one JaggedTensor operand)
  /// @throws ShapeError when its jagged operands differ in shape; BroadcastError when a dense
  ///         operand does not broadcast along the rows
  template <Expression E>
  requires detail::is_jagged_expression_v<E>
  // NOLINTNEXTLINE(google-explicit-constructor): an expression becomes a tensor when stored.
  JaggedTensor(const E& e) : JaggedTensor(detail::evaluated_jagged_expression<T>(e)) {}
  /// Writes a jagged expression into this tensor's values, in place (`y = exp(y - max(y, 1))`):
  /// element-wise reads of this tensor need no copy.
  /// @param e the expression
  /// @return this tensor
  /// @throws ShapeError when its jagged shape is not this one (naming the first differing
  ///         row); BroadcastError when a dense operand does not broadcast along the rows.
  ///         Nothing is written then.
  template <Expression E>
  requires detail::is_jagged_expression_v<E> JaggedTensor& operator=(const E& e) {
    detail::evaluate_jagged_expression(*this, e);
    return *this;
  }
  /// Shares @p other's values (a handle, as Tensor).
  /// @param other a jagged tensor
  JaggedTensor(const JaggedTensor& other) = default;
  /// Takes @p other's values.
  /// @param other a jagged tensor
  JaggedTensor(JaggedTensor&& other) noexcept = default;
  /// Does not compile, as Tensor's: on a named tensor (`auto r = jt.rows(0, 2); r = other;`) `=`
  /// could write the values or rebind the handle. `r.assign(other)` writes, `r.rebind(other)`
  /// rebinds, `swap(r, other)` exchanges handles; `=` from an expression writes.
  /// @param other a jagged tensor
  /// @return never
  JaggedTensor& operator=(const JaggedTensor& other) = delete;  // write: assign(); rebind: rebind()
  /// Does not compile, as copy-assignment: write with `assign`, rebind with `rebind`.
  /// @param other a jagged tensor
  /// @return never
  JaggedTensor& operator=(JaggedTensor&& other) = delete;  // write: assign(); rebind: rebind()
  /// Releases this handle.
  ~JaggedTensor() = default;
  /// Rebinds this handle to @p other's values and shape, writing nothing.
  /// @param other a jagged tensor
  /// @return this tensor
  JaggedTensor& rebind(JaggedTensor other) noexcept {
    swap(other);
    return *this;
  }
  /// Exchanges two handles (no value moves).
  /// @param other a jagged tensor
  void swap(JaggedTensor& other) noexcept {
    using std::swap;
    swap(shape_, other.shape_);
    swap(buffer_, other.buffer_);
    swap(base_, other.base_);
    swap(first_, other.first_);
    swap(pieces_, other.pieces_);
  }
  /// Exchanges two handles (found by argument-dependent lookup: `swap(a, b)`).
  /// @param a, b jagged tensors
  friend void swap(JaggedTensor& a, JaggedTensor& b) noexcept { a.swap(b); }

  /// A copy with its own storage (a slice of rows becomes a tensor of its own).
  /// @return the copy
  [[nodiscard]] JaggedTensor copy() const {
    JaggedTensor out = for_overwrite(shape_);
    std::copy_n(first_value(), size(), out.first_value());
    return out;
  }
  /// Writes another tensor's values into this one's (same shape).
  /// @param other the values
  /// @throws ShapeError naming the first differing row when the shapes differ; nothing is
  ///         written then
  void assign(const JaggedTensor& other) const {
    detail::check_same_rows("JaggedTensor::assign", shape_, other.shape_);
    std::copy_n(other.first_value(), size(), first_value());
  }
  /// Sets every element to @p value.
  /// @param value the value
  void fill(const T& value) const { std::fill_n(first_value(), size(), value); }

  /// The shape.
  /// @return the jagged shape
  [[nodiscard]] const Jagged& shape() const noexcept { return shape_; }
  /// The number of elements.
  /// @return the size
  [[nodiscard]] index_t size() const noexcept { return shape_.size(); }
  /// Where each row starts in values(), plus the size: n_rows + 1 int64 prefix sums, the first
  /// 0. With values() this is Arrow's and awkward-array's ListOffsetArray (offsets of length
  /// rows + 1, row r is values[offsets[r], offsets[r + 1])), handed out without a copy.
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
  /// The same tensor with its rows numbered from @p first along the first outer mode: the rows
  /// of a larger index space (a block of rows of a distributed jagged tensor), as
  /// Tensor::with_origin for a dense block. Shares the buffer.
  /// @param first the absolute number of the first row
  /// @return the tensor
  [[nodiscard]] JaggedTensor with_first_row(index_t first) const {
    JaggedTensor out = *this;
    out.first_ = first;
    return out;
  }
  /// The same values, in the same order, read under another jagged shape of the same size:
  /// no value is copied (the buffer is shared). It is how structure changes that keep the
  /// order of the values are views: flatten() and unflatten() of strata/select/jagged_join.hpp
  /// (awkward's `ak.flatten` / `ak.unflatten`) rewrite only the offsets. Rows are numbered
  /// from 0 in the result.
  /// @code
  /// JaggedTensor t(vector<vector<int>>{{1, 2, 3}, {}, {4}});
  /// t.reshape(Jagged::from_lengths({1, 3}));      // [[1], [2, 3, 4]], t's values
  /// @endcode
  /// @param shape a shape holding size() elements
  /// @return the tensor over this one's values
  /// @throws ShapeError when @p shape holds another number of elements
  [[nodiscard]] JaggedTensor reshape(Jagged shape) const {
    if (shape.size() != size()) {
      detail::fail<ShapeError>("JaggedTensor::reshape", "shape ", shape.to_string(), " holds ",
                               shape.size(), " elements but ", shape_.to_string(), " holds ",
                               size());
    }
    JaggedTensor out = *this;
    out.shape_ = std::move(shape);
    out.first_ = 0;
    out.pieces_.reset();
    out.index_pieces();
    return out;
  }

  /// A jagged tensor over memory the caller owns and keeps alive (shape.size() values, row
  /// after row); nothing is copied.
  /// @param data the first value
  /// @param shape the shape
  /// @return the tensor
  /// @throws Error when @p data is null and the shape holds values
  static JaggedTensor wrap(T* data, Jagged shape) {
    const index_t size = shape.size();
    return JaggedTensor(std::move(shape), AnyBuffer<T>(DenseBuffer<T>::wrap(data, size)));
  }

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
  /// The first value: the size() values lie one after another from it, rows in order (the
  /// values buffer of Arrow's ListOffsetArray, with offsets()). Cheaper than `values().data()`,
  /// which makes a view first.
  /// @return the pointer (null only for a tensor without values)
  [[nodiscard]] T* data() noexcept { return first_value(); }
  /// @copydoc data()
  [[nodiscard]] const T* data() const noexcept { return first_value(); }
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
  [[nodiscard]] ElementRef<T, true> at(IndexSpan index) && {
    return {AnyBuffer<T>(buffer_), address(index), false};
  }

  /// The number of smooth pieces: the rows when they are smooth, else the smooth rows of the
  /// jagged rows (recursively).
  /// @return the count
  [[nodiscard]] index_t n_pieces() const noexcept {
    if (pieces_) {
      return pieces_->count();
    }
    if (direct_lists()) {
      return shape_.rows().data().first[static_cast<std::size_t>(shape_.rows().row1())];
    }
    return shape_.n_rows();
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
  [[nodiscard]] Index piece_extents(index_t p) const {
    if (pieces_) {
      return Index(pieces_->extents(p));
    }
    const detail::JaggedData& d = shape_.rows().data();
    if (direct_lists()) {
      return Index{d.list_length(p)};
    }
    return Index(d.row_extents(shape_.rows().row0() + p));
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

  /// The row smooth piece @p p belongs to: its linear number among this tensor's rows (row-major
  /// over the outer modes, from 0), without allocating: O(1), O(log rows) for rows of lists,
  /// whose pieces are their lists (piece_index() gives the whole prefix).
  /// @param p in [0, n_pieces()) (unchecked)
  /// @return the row
  [[nodiscard]] index_t piece_row(index_t p) const noexcept {
    if (direct_lists()) {
      return list_row(p);
    }
    if (!pieces_) {
      return p;
    }
    const std::span<const index_t> prefix = pieces_->prefix(p);
    const IndexSpan outer = shape_.outer_extents();
    index_t row = 0;
    for (std::size_t k = 0; k < outer.size(); ++k) {
      row = row * outer[k] + prefix[k];
    }
    return row;
  }
  /// @cond STRATA_PRIVATE
  // The two-level offsets of a tensor whose rows are lists (one outer axis, rows of rank 2):
  // kept by the shape when its rows are lists or some row is jagged (made on first use), made
  // on the spot from the extents table when every row is rectangular (a batch of matrices need
  // not carry one entry per matrix row); null for other shapes.
  [[nodiscard]] std::shared_ptr<const detail::ListIndex> list_index() const {
    if (pieces_ || shape_.outer_rank() != 1 || shape_.inner_rank() != 2) {
      return pieces_ ? pieces_->lists : nullptr;
    }
    return detail::list_index(shape_.rows());
  }
  /// @endcond

  /// The indices of the ragged modes that lead to piece @p p (the outer index of row p when
  /// rows are smooth; outer index, then the row's own outer index, ... otherwise).
  /// @param p in [0, n_pieces())
  /// @return the index prefix
  /// @throws IndexError for a piece that does not exist
  [[nodiscard]] Index piece_index(index_t p) const {
    check_piece(p);
    Index prefix;
    if (pieces_) {
      const std::span<const index_t> kept = pieces_->prefix(p);
      prefix.assign(kept.begin(), kept.end());
    } else if (direct_lists()) {
      const index_t r = list_row(p);
      prefix = Index{r, p - shape_.rows().data().first[static_cast<std::size_t>(r)]};
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

  /// The values in a dense tensor padded with @p fill (PyTorch's `to_padded_tensor`): the same
  /// as to_dense().
  /// @param fill the value outside the rows
  /// @param policy seq or par
  /// @return the dense tensor of dense_shape()
  template <ExecutionPolicy P = Parallel>
  [[nodiscard]] Tensor<T> to_padded(const T& fill = T{}, const P& policy = P{}) const {
    return to_dense(fill, policy);
  }
  /// Where to_padded() holds this tensor's values: true inside the rows, false in the padding.
  /// @return a boolean tensor of dense_shape()
  [[nodiscard]] Tensor<bool> mask() const {
    Tensor<bool> out(dense_shape());
    for (index_t p = 0; p < n_pieces(); ++p) {
      out.select(dense_selectors(p)).fill(true, seq);
    }
    return out;
  }
  /// The number of values in each row, over the outer modes (the lengths of a `n * var`
  /// tensor; from_lengths() and from_padded() take them back).
  /// @return an int64 tensor of the outer extents
  [[nodiscard]] Tensor<index_t> lengths() const {
    Tensor<index_t> out(shape_.outer_extents());
    const std::span<const index_t> starts = offsets();
    index_t* o = out.data();
    for (std::size_t r = 0; r + 1 < starts.size(); ++r) {
      o[r] = starts[r + 1] - starts[r];
    }
    return out;
  }

  /// The same slice of every row along its first mode: Python's `row[start:stop:step]` on each,
  /// clipped to the row as Python clips, into a new tensor (`first(k)` is
  /// `select_each(Range{0, k})`). Rows of more modes keep the rest: awkward's `array[:, 1:]` on
  /// `n * var * var` drops each row's first list, on rectangular rows its first sub-row.
  /// @param range the slice
  /// @return a new tensor over the same outer modes, rows of the same rank
  /// @throws IndexError for step 0
  [[nodiscard]] JaggedTensor select_each(const Range& range) const {
    if (range.step == 0) {
      detail::fail<IndexError>("select_each", "the slice step is 0");
    }
    if (!shape_.smooth_rows() || shape_.inner_rank() != 1) {
      return select_each_deep(range);
    }
    const std::span<const index_t> starts = offsets();
    const index_t rows = shape_.n_rows();
    Index first(static_cast<std::size_t>(rows), 0);
    Index counts(static_cast<std::size_t>(rows), 0);
    for (index_t r = 0; r < rows; ++r) {
      const auto u = static_cast<std::size_t>(r);
      std::tie(first[u], counts[u]) = detail::slice_of(starts[u + 1] - starts[u], range);
    }
    JaggedTensor out(Jagged::from_extents(shape_.outer_extents(), 1, counts));
    const T* in = first_value();
    T* at = out.first_value();
    for (index_t r = 0; r < rows; ++r) {
      const auto u = static_cast<std::size_t>(r);
      const T* row = in + starts[u] + first[u];
      for (index_t k = 0; k < counts[u]; ++k) {
        *at++ = row[k * range.step];
      }
    }
    return out;
  }
  /// Element @p i of every row (1-D rows; negative counts from each row's end), over the outer
  /// modes: `last()` is `select_each(-1)`. Of deeper rows, chip_each(i) takes sub-row i.
  /// @param i the index in each row
  /// @return a dense tensor of the outer extents
  /// @throws ShapeError when the rows are not 1-D; IndexError naming the first row too short
  [[nodiscard]] Tensor<T> select_each(index_t i) const {
    if (shape_.inner_rank() > 1) {
      detail::fail<ShapeError>("select_each", "the rows of ", shape_.to_string(),
                               " are not 1-D: chip_each(", i, ") takes sub-row ", i,
                               " of each (awkward's array[:, ", i, "])");
    }
    check_flat_rows("select_each");
    const std::span<const index_t> starts = offsets();
    Tensor<T> out(shape_.outer_extents());
    T* o = out.data();
    const T* in = first_value();
    for (std::size_t r = 0; r + 1 < starts.size(); ++r) {
      const index_t length = starts[r + 1] - starts[r];
      const index_t k = i < 0 ? i + length : i;
      if (k < 0 || k >= length) {
        detail::fail<IndexError>("select_each", "index ", i, " is outside row ",
                                 first_row_number() + static_cast<index_t>(r), " of length ",
                                 length);
      }
      o[r] = in[starts[r] + k];
    }
    return out;
  }
  /// Sub-row @p i of every row along its first mode (negative counts from each row's end): list
  /// i of each row of a `n * var * var` tensor (awkward's `array[:, i]`, a `n * var` result;
  /// `chip_each(-1)` the last list of each row), sub-row i of rectangular rows (`n * var * 3`
  /// gives `n * 3`), into a new tensor over the same outer modes whose rows have one mode
  /// fewer. Rows of one mode have elements, not sub-rows: select_each(i) gives those.
  /// @code
  /// JaggedTensor<int> events(vector<vector<vector<int>>>{{{1, 2}, {3}}, {{4, 5, 6}}});
  /// events.chip_each(0);   // [[1, 2], [4, 5, 6]]
  /// events.chip_each(-1);  // [[3], [4, 5, 6]]
  /// @endcode
  /// @param i the sub-row's index in each row
  /// @return a new tensor, rows of rank one less
  /// @throws ShapeError when the rows are 1-D; IndexError naming the first row without sub-row
  ///         @p i (and its number of sub-rows)
  [[nodiscard]] JaggedTensor chip_each(index_t i) const {
    const int inner = shape_.inner_rank();
    if (inner < 2) {
      detail::fail<ShapeError>("chip_each", "the rows of ", shape_.to_string(),
                               " are 1-D: they have elements, not sub-rows (select_each(", i,
                               ") gives element ", i, " of each)");
    }
    std::vector<index_t> sizes;   // every sub-row's number of values, row after row
    std::vector<index_t> counts;  // each row's number of sub-rows
    detail::sub_row_sizes(shape_, sizes, counts);
    const std::span<const index_t> starts = offsets();
    const index_t rows = shape_.n_rows();
    std::vector<index_t> from(static_cast<std::size_t>(rows));  // where each chosen one starts
    std::vector<index_t> size(static_cast<std::size_t>(rows));  // and its size
    std::vector<Shape> shapes;                                  // rows not all smooth: theirs
    std::vector<index_t> extents;                               // else: their extents
    const bool smooth = shape_.smooth_rows();
    std::size_t first_sub = 0;  // the row's first sub-row in sizes
    for (index_t r = 0; r < rows; ++r) {
      const auto u = static_cast<std::size_t>(r);
      const index_t n = counts[u];
      const index_t k = i < 0 ? i + n : i;
      if (k < 0 || k >= n) {
        detail::fail<IndexError>("chip_each", "index ", i, " is outside row ",
                                 first_row_number() + r, " of ", n, " sub-rows");
      }
      from[u] = starts[u];
      for (std::size_t j = first_sub; j < first_sub + static_cast<std::size_t>(k); ++j) {
        from[u] += sizes[j];
      }
      size[u] = sizes[first_sub + static_cast<std::size_t>(k)];
      first_sub += static_cast<std::size_t>(n);
      if (smooth) {
        const Shape row = shape_.row(r);
        for (int m = 1; m < inner; ++m) {
          extents.push_back(row.extent(m));
        }
      } else {
        shapes.push_back(shape_.row(r).chip(0, k));
      }
    }
    JaggedTensor out =
        for_overwrite(smooth ? Jagged::from_extents(shape_.outer_extents(), inner - 1, extents)
                             : Jagged(shape_.outer_extents(), std::move(shapes)));
    const T* in = first_value();
    T* o = out.first_value();
    for (std::size_t u = 0; u < from.size(); ++u) {
      o = std::copy(in + from[u], in + from[u] + size[u], o);
    }
    return out;
  }
  /// The first @p k elements of every row (all of a shorter row; the first k lists or sub-rows
  /// of deeper rows): `select_each(Range{0, k})`.
  /// @param k the count, >= 0
  /// @return a new tensor
  /// @throws IndexError when k < 0
  [[nodiscard]] JaggedTensor first(index_t k) const {
    if (k < 0) {
      detail::fail<IndexError>("first", "count ", k, " is negative");
    }
    return select_each(Range{0, k});
  }
  /// The last element of every row: `select_each(-1)`.
  /// @return a dense tensor of the outer extents
  /// @throws ShapeError when the rows are not 1-D; IndexError naming the first empty row
  [[nodiscard]] Tensor<T> last() const { return select_each(-1); }

  /// The type line awkward-array prints: the outer extents, `var` for each inner mode, the
  /// element type (`10000 * var * float32`).
  /// @return the text
  [[nodiscard]] std::string type_string() const {
    std::string out;
    for (const index_t e : shape_.outer_extents()) {
      out += std::to_string(e) + " * ";
    }
    for (int k = 0; k < shape_.inner_rank(); ++k) {
      out += "var * ";
    }
    return out += detail::dtype_name<T>();
  }

  /// The shape of to_dense(): outer extents, then the largest extent of each inner mode.
  /// @return the extents
  [[nodiscard]] Index dense_shape() const {
    Index extents(static_cast<std::size_t>(shape_.rank()), 0);
    std::copy(shape_.outer_extents().begin(), shape_.outer_extents().end(), extents.begin());
    for (index_t p = 0; p < n_pieces(); ++p) {
      const Index prefix = local_prefix(p);
      const Index e = piece_extents(p);
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

  // select_each(Range) of rows of two or more modes: each row's sub-rows along its first mode
  // (rectangular blocks, or the lists of a jagged row) are contiguous runs of its values; the
  // chosen ones are copied in the slice's order, and the rows' shapes follow.
  [[nodiscard]] JaggedTensor select_each_deep(const Range& range) const {
    const index_t rows = shape_.n_rows();
    const int inner = shape_.inner_rank();
    const std::span<const index_t> starts = offsets();
    const bool smooth = shape_.smooth_rows();
    const bool lists = shape_.rows().data().list_rows();  // kept as offsets, no Shape per row
    std::vector<index_t> extents;    // every row smooth: the rows' new extents; rows of lists:
                                     // each row's number of chosen lists
    std::vector<Shape> shapes;       // else: the rows' new shapes
    std::vector<index_t> from;       // where each copied run starts, in output order
    std::vector<index_t> sizes;      // and its size
    std::vector<index_t> all_sizes;  // the sub-rows' sizes, row after row
    std::vector<index_t> counts;     // each row's number of sub-rows
    detail::sub_row_sizes(shape_, all_sizes, counts);
    const index_t* size_of = all_sizes.data();
    std::vector<index_t> at;  // where each sub-row of a row starts, and the row's end
    for (index_t r = 0; r < rows; ++r) {
      const Shape row = lists ? Shape(Smooth{}) : shape_.row(r);
      const index_t a = counts[static_cast<std::size_t>(r)];
      at.assign(static_cast<std::size_t>(a) + 1, 0);
      for (std::size_t i = 0; std::cmp_less(i, a); ++i) {
        at[i + 1] = at[i] + *size_of++;
      }
      const auto [first, count] = detail::slice_of(a, range);
      std::vector<Shape> subs;
      for (index_t k = 0; k < count; ++k) {
        const auto i = static_cast<std::size_t>(first + k * range.step);
        from.push_back(starts[static_cast<std::size_t>(r)] + at[i]);
        sizes.push_back(at[i + 1] - at[i]);
        if (!smooth && inner != 2) {
          subs.push_back(row.chip(0, first + k * range.step));
        }
      }
      if (lists) {
        extents.push_back(count);
      } else if (smooth) {
        extents.push_back(count);
        for (int m = 1; m < inner; ++m) {
          extents.push_back(row.extent(m));
        }
      } else if (row.is<Smooth>() || row.is<SmoothView>()) {
        Index e(static_cast<std::size_t>(inner), 0);
        for (int m = 0; m < inner; ++m) {
          e[static_cast<std::size_t>(m)] = m == 0 ? count : row.extent(m);
        }
        shapes.emplace_back(Smooth(e));
      } else if (count == 0) {
        shapes.emplace_back(Jagged::from_extents(Index{0}, inner - 1, IndexSpan{}));
      } else if (inner == 2) {  // the chosen lists' lengths, without a Shape per list
        shapes.emplace_back(Jagged::from_lengths(
            std::span<const index_t>(sizes).last(static_cast<std::size_t>(count))));
      } else {
        shapes.emplace_back(Jagged(std::move(subs)));
      }
    }
    JaggedTensor out =
        for_overwrite(lists    ? Jagged::from_lists(shape_.outer_extents(), extents, sizes)
                      : smooth ? Jagged::from_extents(shape_.outer_extents(), inner, extents)
                               : Jagged(shape_.outer_extents(), std::move(shapes)));
    const T* in = first_value();
    T* o = out.first_value();
    for (std::size_t b = 0; b < from.size(); ++b) {
      o = std::copy(in + from[b], in + from[b] + sizes[b], o);
    }
    return out;
  }

  void check_flat_rows(std::string_view operation) const {
    if (!shape_.smooth_rows() || shape_.inner_rank() != 1) {
      detail::fail<ShapeError>(operation, "the rows of ", shape_.to_string(),
                               " are not 1-D (it selects in each row of a n * var tensor)");
    }
  }
  template <class E>
  [[nodiscard]] Tensor<E> piece_of(index_t p) const {
    check_piece(p);
    const Index extents = piece_extents(p);
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

  /// Lists the smooth pieces when some row is jagged (smooth rows are the pieces themselves):
  /// the index the shape keeps, shared by every tensor of that shape. Rows of lists on one outer
  /// axis from the shape's first row (the form every new tensor's shape has) need none: their
  /// lists are the pieces, read from the shape's two offset arrays, so a new tensor of lists
  /// (a filter's result, an expression's) lists nothing.
  void index_pieces() {
    if (shape_.smooth_rows()) {
      return;
    }
    const detail::JaggedRows& rows = shape_.rows();
    if (rows.data().list_rows() && rows.outer_rank() == 1 && rows.row0() == 0) {
      return;
    }
    pieces_ = detail::piece_index(rows);
  }
  /// Whether the pieces are the lists of rows of lists, read from the shape (index_pieces).
  [[nodiscard]] bool direct_lists() const noexcept {
    return !pieces_ && shape_.rows().data().list_rows();
  }
  /// The row that list @p p belongs to (direct_lists()).
  [[nodiscard]] index_t list_row(index_t p) const noexcept {
    const std::vector<index_t>& first = shape_.rows().data().first;
    const auto end = first.begin() + shape_.rows().row1() + 1;
    return static_cast<index_t>(std::upper_bound(first.begin(), end, p) - first.begin()) - 1;
  }
  void check_piece(index_t p) const {
    if (p < 0 || p >= n_pieces()) {
      detail::fail<IndexError>("piece", "piece ", p, " is outside [0, ", n_pieces(), ") of ",
                               shape_.to_string());
    }
  }
  [[nodiscard]] std::span<const index_t> piece_starts() const noexcept {
    if (pieces_) {
      return pieces_->starts;
    }
    if (direct_lists()) {
      return {shape_.rows().data().list_ends.data(), static_cast<std::size_t>(n_pieces()) + 1};
    }
    return offsets();
  }
  [[nodiscard]] index_t piece_start(index_t p) const noexcept {
    return piece_starts()[static_cast<std::size_t>(p)];
  }
  [[nodiscard]] T* first_value() const noexcept { return buffer_.data() + base_; }
  template <class U>
  friend class JaggedTensor;
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
  // When some row is jagged: the smooth pieces, and the two-level offsets of rows of lists.
  std::shared_ptr<const detail::PieceIndex> pieces_;
};

/// `JaggedTensor jt(rows)` deduces the element type of nested std::vectors.
template <class V, class A>
JaggedTensor(const std::vector<V, A>&)
    -> JaggedTensor<typename detail::nested_vector<V>::value_type>;

namespace detail {

/// Emits the text of a jagged shape's values as awkward-array does, with the byte 1 where
/// each value goes (formatted afterwards, all together) and `...` where rows or elements are
/// elided; @p at is the next value to print.
template <class T>
void jagged_text(const Shape& shape, const T* data, bool elide, index_t edge, std::string& out,
                 std::vector<T>& values) {
  const auto emit_list = [&](index_t n, auto&& item) {
    out += '[';
    bool first = true;
    for (const index_t i : shown(n, elide, edge)) {
      if (!first) {
        out += ", ";
      }
      first = false;
      if (i < 0) {
        out += "...";
      } else {
        item(i);
      }
    }
    out += ']';
  };
  if (shape.is<Smooth>()) {
    const IndexSpan e = shape.as<Smooth>().extents();
    const auto box = [&](const auto& self, std::size_t mode, const T* at) -> void {
      index_t below = 1;
      for (std::size_t k = mode + 1; k < e.size(); ++k) {
        below *= e[k];
      }
      emit_list(e[mode], [&](index_t i) {
        if (mode + 1 == e.size()) {
          out += '\x01';
          values.push_back(at[i]);
        } else {
          self(self, mode + 1, at + i * below);
        }
      });
    };
    box(box, 0, data);
    return;
  }
  const Jagged& j = shape.as<Jagged>();
  const std::span<const index_t> starts = j.row_starts();
  const IndexSpan outer = j.outer_extents();
  const auto grid = [&](const auto& self, std::size_t mode, index_t row0) -> void {
    index_t below = 1;
    for (std::size_t k = mode + 1; k < outer.size(); ++k) {
      below *= outer[k];
    }
    emit_list(outer[mode], [&](index_t i) {
      const index_t r = row0 + i * below;
      if (mode + 1 == outer.size()) {
        jagged_text(j.row(r), data + starts[static_cast<std::size_t>(r)], elide, edge, out, values);
      } else {
        self(self, mode + 1, r);
      }
    });
  };
  grid(grid, 0, 0);
}

}  // namespace detail

namespace detail {

/// The text of a jagged tensor as to_string() gives it, its shown values formatted together by
/// `format(values)`.
template <class T, class Format>
std::string jagged_string(const JaggedTensor<T>& t, const PrintOptions& options, Format format) {
  std::string text;
  std::vector<std::remove_const_t<T>> values;
  jagged_text(Shape(t.shape()), t.data(), t.size() > options.threshold, options.edgeitems, text,
              values);
  std::vector<std::string> formatted = format(values);
  std::string out;
  out.reserve(text.size() + values.size() * 4);
  std::size_t next = 0;
  for (const char c : text) {
    if (c != '\x01') {
      out += c;
      continue;
    }
    std::string v = formatted[next++];
    v.erase(0, v.find_first_not_of(' '));
    v.erase(v.find_last_not_of(' ') + 1);
    if (v.size() > 1 && v.back() == '.') {
      v.pop_back();  // awkward prints 1.0 as 1
    }
    out += v;
  }
  return out;
}

}  // namespace detail

/// The text of a jagged tensor as awkward-array prints it: `[[1, 2, 3], [], [4, 5]]`, with
/// `...` for the middle rows and elements when it holds more than `options.threshold` values
/// (`options.edgeitems` kept at each end). The type line is JaggedTensor::type_string().
/// @param t the tensor
/// @param options threshold, edge items and precision
/// @return the text
template <class T>
std::string to_string(const JaggedTensor<T>& t, const PrintOptions& options = {}) {
  return detail::jagged_string(t, options, [&](const std::vector<std::remove_const_t<T>>& values) {
    return detail::format_values(values, options.precision);
  });
}

/// Prints a jagged tensor as to_string() does.
/// @param out the stream
/// @param t the tensor
/// @return @p out
template <class T>
std::ostream& operator<<(std::ostream& out, const JaggedTensor<T>& t) {
  return out << to_string(t);
}

}  // namespace strata
