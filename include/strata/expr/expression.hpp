/// @file
/// Lazy element-wise expressions: the nodes of an expression tree (leaves over tensors,
/// selections and scalars; unary, binary, ternary and n-ary nodes), their shapes (NumPy
/// broadcasting) and element types, and how a node computes one run of elements.
#pragma once

#include "strata/core/complex.hpp"
#include "strata/core/error.hpp"
#include "strata/core/index.hpp"
#include "strata/select/selection.hpp"
#include "strata/tensor/expression_fwd.hpp"
#include "strata/tensor/jagged_tensor.hpp"
#include "strata/tensor/reduce_kernel.hpp"
#include "strata/tensor/sparse.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

namespace detail {

/// What an expression node is outside the stored entries of its sparse leaves: `constant`
/// when it equals `value` at every position where none of the sparse leaves marked in `leaves`
/// (bit m for leaf m; a tree's first 64 leaves can be marked) stores an entry. Evaluation then
/// visits only those leaves' entries and the result is sparse with fill `value`.
template <class V>
struct Support {
  bool constant = false;
  V value{};
  std::uint64_t leaves = 0;
};

/// Whether a node operation is a product, so that a factor which is zero outside its support
/// makes the node zero there (specialised by the operators).
template <class Op>
inline constexpr bool is_product_v = false;

/// A leaf as sparse evaluation reads it: a sparse leaf's entries in the output's linear order
/// (`values` null for a dense leaf).
struct SparseLeaf {
  std::span<const index_t> linear;
  const void* values = nullptr;
  const void* fill = nullptr;
  std::size_t value_size = 0;
};

/// What evaluation prepares for each leaf before it walks: the leaf's map broadcast to the
/// output shape, its array, and any temporary that had to be made (a selection, a buffer
/// without data(), a source that overlaps the destination in a way that would change it).
struct Prepared {
  std::vector<Dimensions> maps;             // one per leaf, the output's shape
  std::vector<const void*> data;            // one per leaf
  std::vector<std::shared_ptr<void>> kept;  // temporaries kept alive during evaluation
  Index shape;                              // the output shape
  Footprint destination;                    // the destination's memory (owner null: none)
  const Dimensions* destination_map = nullptr;
  bool parallel = true;
  // Evaluation into a JaggedTensor: the leaves are jagged tensors of one shape (run by run,
  // one run per row) and dense tensors whose elements are constant along each row.
  bool jagged_mode = false;
  bool has_jagged = false;                        // jagged_shape is known
  Jagged jagged_shape;                            // the shape every jagged leaf must have
  std::shared_ptr<const ListIndex> jagged_lists;  // its two-level offsets, when a tensor has them
  const void* destination_first = nullptr;        // the destination's first value (jagged mode)
  std::vector<bool> ragged;  // one per leaf: a jagged leaf (else a per-row one)
  // Dense leaves with a regular axis (awkward's RegularArray against `n * var` rows that all
  // have its length): the leaf's number and its stride along the row; a regular axis against
  // the lists of deeper rows is expanded (ragged, a step of 1 from the row's start).
  std::vector<std::pair<std::size_t, index_t>> regular;
  index_t broadcast_leaves = 0;  // jagged leaves with shallower rows (expanded, or per_list)
  // Walking the destination list by list (rows of lists, no per-row reduction in the tree): a
  // `n * var` leaf is read in place, one value per list, instead of expanded. walk_lists says
  // the evaluation may; per_list holds each such leaf's number and row starts.
  bool walk_lists = false;
  std::vector<std::pair<std::size_t, std::span<const index_t>>> per_list;
  bool probing = false;  // only finding the jagged shape: dense leaves are skipped
  // Sparse evaluation: sparse leaves are not copied but listed by their stored entries.
  bool sparse_mode = false;
  std::vector<SparseLeaf> sparse;  // one per leaf in sparse mode (values null: dense)

  /// A dense leaf's map as evaluation walks it: broadcast to the output's shape (NumPy's
  /// rule), or in jagged mode, to the outer modes with left alignment (awkward's rule: its
  /// leading modes meet the outer modes, and any further modes must have extent 1), or, for
  /// `n * var` rows that all have one length L, to the outer modes and L (a regular axis of
  /// extent L after the outer modes: awkward's RegularArray broadcast against var).
  [[nodiscard]] Dimensions walked(const Dimensions& dims) const {
    if (!jagged_mode) {
      return dims.broadcast(shape);
    }
    return per_row_map(dims, shape, jagged_shape);
  }
  static Dimensions per_row_map(Dimensions dims, const Index& outer, const Jagged& jagged) {
    const Index extents = dims.shape();
    const auto o = outer.size();
    bool fits = true;
    for (std::size_t k = 0; k < extents.size(); ++k) {
      fits = fits && (extents[k] == 1 || (k < o && extents[k] == outer[k]));
    }
    if (!fits && extents.size() == o + 1 && jagged.inner_rank() == 1) {
      // A regular last axis: every row must have its length.
      bool leading = true;
      for (std::size_t k = 0; k < o; ++k) {
        leading = leading && (extents[k] == 1 || extents[k] == outer[k]);
      }
      const index_t length = extents[o];
      const std::span<const index_t> starts = jagged.row_starts();
      for (std::size_t r = 0; leading && r + 1 < starts.size(); ++r) {
        if (starts[r + 1] - starts[r] != length) {
          fail<BroadcastError>("jagged expression", "a dense operand of shape ", to_string(extents),
                               " has a regular axis of ", length, " but row ", r, " of ",
                               jagged.to_string(), " has length ", starts[r + 1] - starts[r],
                               " (a regular axis broadcasts only against rows of its length)");
        }
      }
      if (leading) {
        Index full = outer;
        full.push_back(length);
        return dims.broadcast(full);
      }
    }
    if (!fits) {
      fail<BroadcastError>("jagged expression", "a dense operand of shape ", to_string(extents),
                           " does not broadcast along the rows of ", jagged.to_string(),
                           ": its leading extents must be the outer extents ", to_string(outer),
                           " (or 1) and any further extents 1");
    }
    while (static_cast<std::size_t>(dims.rank()) > o) {
      dims = dims.squeeze(Index{dims.rank() - 1});
    }
    while (static_cast<std::size_t>(dims.rank()) < o) {
      dims = dims.unsqueeze(dims.rank());
    }
    return dims.broadcast(outer);
  }

  /// Registers a tensor leaf, copying it first when it has no array or when it shares the
  /// destination's storage through a different map.
  template <class T>
  void add(const Tensor<const T>& t) {
    if (probing) {
      return;
    }
    if (sparse_mode) {
      if (const auto* s = sparse_buffer(t)) {
        auto entries = std::make_shared<SparseEntries<T>>();
        const Dimensions map = walked(t.dims());
        if (parallel) {
          sparse_entries(map, *s, *entries, par);
        } else {
          sparse_entries(map, *s, *entries, seq);
        }
        kept.push_back(entries);
        kept.push_back(std::make_shared<T>(s->fill()));
        sparse.resize(maps.size());
        sparse.push_back({entries->linear, entries->values.data(), kept.back().get(), sizeof(T)});
        maps.push_back(map);
        data.push_back(nullptr);
        ragged.push_back(false);
        return;
      }
    }
    if (sparse_mode) {
      sparse.resize(maps.size());
      sparse.push_back({{}, nullptr, nullptr, sizeof(T)});  // a dense leaf: its element size
    }
    if (add_regular_lists(t)) {
      return;
    }
    const bool overlaps =
        reads_under_writes(t.buffer().footprint(), t.dims(), destination, destination_map);
    Tensor<const T> source = t;
    const auto read_from_copy = [&] {
      auto copy = std::make_shared<Tensor<T>>(parallel ? source.copy(par) : source.copy(seq));
      kept.push_back(copy);
      source.rebind(Tensor<const T>(*copy));
    };
    if (t.buffer().data() == nullptr || overlaps) {
      read_from_copy();
    }
    Dimensions map = walked(source.dims());
    if (jagged_mode && map.rank() > static_cast<int>(shape.size())) {
      // A regular axis: read with one stride along each row (from a copy when it has none).
      if (!map.axes().back().is_plain()) {
        read_from_copy();
        map = walked(source.dims());
      }
      regular.emplace_back(maps.size(), map.axes().back().stride);
    }
    maps.push_back(std::move(map));
    data.push_back(source.buffer().data());
    ragged.push_back(false);
  }

  /// A dense leaf `[n, k]` (or `[1, k]`) against rows of lists (`n * var * var`, or
  /// rectangular rows; or deeper, `n * var * var * var`) every one of which has k lists:
  /// awkward's RegularArray broadcast against the first ragged level, each value applying to
  /// a whole list (a whole list of lists, deeper). Registered as the `n * var` leaf of rows of
  /// length k it is: of rows of lists read in place list by list (the tree is then walked by
  /// lists), of deeper rows expanded as a `n * var` leaf is. False when the leaf is not of
  /// that kind (the per-row rule applies); a BroadcastError names a row whose number of lists
  /// is not k, and, for rows of lists, a tree with a per-row reduction (which is walked by
  /// rows).
  template <class T>
  bool add_regular_lists(const Tensor<const T>& t) {
    const Index extents = t.shape();
    if (!jagged_mode || !has_jagged || jagged_shape.outer_rank() != 1 ||
        jagged_shape.inner_rank() < 2 || extents.size() != 2 || extents[1] == 1) {
      return false;
    }
    const index_t n = jagged_shape.n_rows();
    const index_t k = extents[1];
    if (extents[0] != n && extents[0] != 1) {
      return false;
    }
    constexpr std::string_view op = "jagged expression";
    const bool lists = jagged_shape.inner_rank() == 2;
    if (!walk_lists && lists) {
      fail<BroadcastError>(op, "a dense operand of shape ", to_string(extents),
                           " (a regular axis against the lists of ", jagged_shape.to_string(),
                           ") is read list by list, and this expression has a per-row "
                           "reduction (strata::rows); evaluate the reduction first");
    }
    if (lists && jagged_lists == nullptr) {  // rectangular rows: made here
      jagged_lists = list_index(jagged_shape.rows());
    }
    std::vector<index_t> counts;  // each row's number of lists (deeper: of lists of lists)
    if (lists) {
      counts = jagged_lists->counts;
    } else {
      const std::vector<index_t> first = level_offsets(jagged_shape, op).front();
      for (std::size_t r = 0; r + 1 < first.size(); ++r) {
        counts.push_back(first[r + 1] - first[r]);
      }
    }
    for (std::size_t r = 0; r < counts.size(); ++r) {
      if (counts[r] != k) {
        fail<BroadcastError>(op, "a dense operand of shape ", to_string(extents),
                             " has a regular axis of ", k, " but row ", r, " of ",
                             jagged_shape.to_string(), " has ", counts[r],
                             " lists (a regular axis broadcasts only against rows of that many "
                             "lists)");
      }
    }
    std::vector<T> values(static_cast<std::size_t>(n * k));
    for (index_t r = 0; r < n; ++r) {
      for (index_t c = 0; c < k; ++c) {
        values[static_cast<std::size_t>(r * k + c)] = t(extents[0] == 1 ? 0 : r, c);
      }
    }
    auto leaf = std::make_shared<JaggedTensor<T>>(JaggedTensor<T>::from_lengths(
        std::vector<index_t>(static_cast<std::size_t>(n), k), std::move(values)));
    kept.push_back(leaf);
    add_jagged(*leaf);
    if (!lists) {
      // Expanded to the rows' values: a dense node reads it with a step of 1 along each row.
      regular.emplace_back(maps.size() - 1, 1);
    }
    return true;
  }

  /// Registers a jagged leaf (jagged mode only): it must have the shape of the others, or
  /// broadcast into it as awkward-array broadcasts (see broadcast_rows), and is copied first
  /// when it shares the destination's storage from another first value. While probing, the
  /// deepest jagged leaf gives the shape.
  template <class T>
  void add_jagged(const JaggedTensor<T>& t) {
    if (!jagged_mode) {
      fail<ShapeError>("evaluate", "a jagged expression (over ", t.shape().to_string(),
                       ") evaluates into a JaggedTensor, not a dense tensor");
    }
    if (!has_jagged) {
      jagged_shape = t.shape();
      jagged_lists = kept_lists(t);
      has_jagged = true;
    } else if (t.shape().inner_rank() < jagged_shape.inner_rank()) {
      const bool in_place = walk_lists && jagged_lists != nullptr;
      const std::vector<index_t> sizes =
          broadcast_rows(t.shape(), jagged_shape, jagged_lists, !in_place);
      if (!probing && in_place) {
        per_list.emplace_back(maps.size(), t.offsets());  // registered below, as any leaf
        ++broadcast_leaves;
      } else if (!probing) {
        add_expanded(t, sizes);
        return;
      }
    } else if (probing && t.shape().inner_rank() > jagged_shape.inner_rank()) {
      (void)broadcast_rows(jagged_shape, t.shape(), kept_lists(t), false);
      jagged_shape = t.shape();
      jagged_lists = kept_lists(t);
    } else {
      check_same_rows("jagged expression", jagged_shape, t.shape());
    }
    const T* first = t.data();
    if (t.buffer().footprint().overlaps(destination) &&
        (static_cast<const void*>(first) != destination_first ||
         sizeof(T) != destination.element)) {
      // An array, not a std::vector (whose bool specialisation has no data()).
      auto copy = std::make_shared<T[]>(static_cast<std::size_t>(t.size()));
      std::copy(first, first + t.size(), copy.get());
      kept.push_back(copy);
      first = copy.get();
    }
    maps.emplace_back();
    data.push_back(first);
    ragged.push_back(true);
  }

  /// The two-level offsets a tensor of jagged rows of lists keeps (null otherwise: rectangular
  /// rows have their extents in one table, read in place by sub_row_sizes, and nothing is made
  /// unless a broadcast needs it).
  template <class T>
  static std::shared_ptr<const ListIndex> kept_lists(const JaggedTensor<T>& t) {
    return t.shape().smooth_rows() ? nullptr : t.list_index();
  }

  /// awkward-array's broadcasting of ragged dimensions: an operand of 1-D rows (`n * var`)
  /// against deeper rows (`n * var * var`, or rectangular rows) of the same outer extents,
  /// where row r of the operand has one element per sub-row of row r of @p deep (along the
  /// row's first mode): that element applies to the whole sub-row. Returns the sub-rows'
  /// sizes when @p sizes_wanted (read from @p lists, the deep tensor's two-level offsets, when
  /// it has them; else from its rows' shapes); a ShapeError names both shapes and the first row
  /// that does not fit.
  static std::vector<index_t> broadcast_rows(const Jagged& shallow, const Jagged& deep,
                                             const std::shared_ptr<const ListIndex>& lists,
                                             bool sizes_wanted) {
    if (shallow.inner_rank() >= 2 && shallow.outer_rank() == 1 && deep.outer_rank() == 1 &&
        shallow.n_rows() == deep.n_rows()) {
      return broadcast_levels(shallow, deep);
    }
    if (!std::ranges::equal(shallow.outer_extents(), deep.outer_extents()) ||
        shallow.inner_rank() != 1 || !shallow.smooth_rows()) {
      fail<ShapeError>("jagged expression", "an operand of ", shallow.to_string(),
                       " does not broadcast into the rows of ", deep.to_string(),
                       ": only 1-D rows (n * var) broadcast into deeper rows of the same outer "
                       "extents, and rows of lists over one outer axis into deeper ones over "
                       "the same rows");
    }
    std::vector<index_t> sizes;
    std::vector<index_t> found;  // the rows' numbers of sub-rows, when lists does not have them
    if (lists != nullptr) {
      const std::span<const index_t> starts = lists->lists.row_starts();
      sizes.resize(sizes_wanted ? starts.size() - 1 : 0);
      for (std::size_t j = 0; j < sizes.size(); ++j) {
        sizes[j] = starts[j + 1] - starts[j];
      }
    } else {
      sub_row_sizes(deep, sizes, found);
    }
    const std::vector<index_t>& counts = lists != nullptr ? lists->counts : found;
    const std::span<const index_t> lengths = shallow.row_starts();
    for (std::size_t r = 0; r < counts.size(); ++r) {
      if (lengths[r + 1] - lengths[r] != counts[r]) {
        fail<ShapeError>("jagged expression", "an operand of ", shallow.to_string(),
                         " does not broadcast into the rows of ", deep.to_string(), ": row ", r,
                         " has ", lengths[r + 1] - lengths[r], " elements for ", counts[r],
                         " lists");
      }
    }
    return sizes;
  }

  /// broadcast_rows of an operand with k >= 2 ragged levels (`n * var * var`) into deeper rows
  /// (`n * var * var * var`): its levels must be the first k of @p deep (the same lists of the
  /// same lengths), and each of its values applies to the whole sub-tree of @p deep below the
  /// matching element. Returns the sub-trees' sizes; a ShapeError names both shapes, the level
  /// and the first entry that differs.
  static std::vector<index_t> broadcast_levels(const Jagged& shallow, const Jagged& deep) {
    constexpr std::string_view op = "jagged expression";
    const std::vector<std::vector<index_t>> have = level_offsets(shallow, op);
    const std::vector<std::vector<index_t>> want = level_offsets(deep, op);
    for (std::size_t l = 0; l < have.size(); ++l) {
      const auto [h, w] = std::ranges::mismatch(have[l], want[l]);
      if (h != have[l].end() || w != want[l].end()) {
        const auto e = static_cast<std::size_t>(
            std::max<std::ptrdiff_t>(std::distance(have[l].begin(), h) - 1, 0));
        const auto count = [e](const std::vector<index_t>& o) {
          return e + 1 < o.size() ? o[e + 1] - o[e] : index_t{0};
        };
        const bool last = l + 1 == have.size();
        fail<ShapeError>(op, "an operand of ", shallow.to_string(),
                         " does not broadcast into the rows of ", deep.to_string(), ": ",
                         l == 0 ? "row " : "list ", e,
                         l == 0 ? std::string() : " of ragged level " + std::to_string(l + 1),
                         " has ", count(have[l]), last ? " elements for " : " lists for ",
                         count(want[l]), last ? " sub-lists" : " lists");
      }
    }
    // The sub-tree below each value of the operand: entry c of deep's level k, down to values.
    const std::size_t k = have.size();
    const index_t n = have.back().back();
    std::vector<index_t> sizes(static_cast<std::size_t>(n));
    for (index_t c = 0; c < n; ++c) {
      index_t lo = c;
      index_t hi = c + 1;
      for (std::size_t m = k; m < want.size(); ++m) {
        lo = want[m][static_cast<std::size_t>(lo)];
        hi = want[m][static_cast<std::size_t>(hi)];
      }
      sizes[static_cast<std::size_t>(c)] = hi - lo;
    }
    return sizes;
  }

  /// Registers @p t broadcast into jagged_shape: a copy with each element repeated over its
  /// sub-row (@p sizes from broadcast_rows).
  template <class T>
  void add_expanded(const JaggedTensor<T>& t, const std::vector<index_t>& sizes) {
    auto copy = std::make_shared_for_overwrite<T[]>(static_cast<std::size_t>(jagged_shape.size()));
    const T* in = t.data();
    T* out = copy.get();
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      out = std::fill_n(out, sizes[k], in[k]);
    }
    kept.push_back(copy);
    maps.emplace_back();
    data.push_back(copy.get());
    ragged.push_back(true);
    ++broadcast_leaves;
  }
};

/// The number of leaves of a node type (scalars are not leaves).
template <class E>
inline constexpr std::size_t leaves_v = std::remove_cvref_t<E>::leaf_count;

/// Whether an expression tree has a jagged leaf (it evaluates into a JaggedTensor).
template <class E>
inline constexpr bool jagged_v = requires {
  requires std::remove_cvref_t<E>::jagged;
};

/// Whether an expression tree reduces rows (strata::rows): its runs must then be whole rows.
template <class E>
inline constexpr bool per_row_v = requires {
  requires std::remove_cvref_t<E>::per_row;
};

/// A value held by an expression node (kept out of the documented members).
template <class V>
struct Held {
  V value;
};

inline std::string pad_by(int depth) {
  return std::string(static_cast<std::size_t>(depth) * 2, ' ');
}

}  // namespace detail

/// A tensor (any view, read-only) as an expression leaf.
/// @tparam T the element type
template <class T>
class TensorExpr : public detail::ExpressionTag {
 public:
  /// The element type.
  using value_type = T;
  /// A tensor is one leaf.
  static constexpr std::size_t leaf_count = 1;

  /// Wraps a tensor (shared, not copied).
  /// @param t the tensor
  explicit TensorExpr(Tensor<const T> t) : held_{std::move(t)} {}
  /// The extents.
  /// @return the tensor's shape
  [[nodiscard]] Index shape() const { return held_.value.shape(); }
  /// The tensor.
  /// @return the wrapped view
  [[nodiscard]] const Tensor<const T>& tensor() const noexcept { return held_.value; }
  /// Registers this leaf for evaluation.
  /// @param p the preparation
  void prepare(detail::Prepared& p) const { p.add<T>(held_.value); }
  /// Calls `f(tensor)` for every tensor of the tree.
  /// @param f the visitor
  template <class F>
  void for_each_tensor(F&& f) const {
    f(held_.value);
  }
  /// The element at run offset t, leaf number @p I (unit strides when @p Unit).
  /// @param run the run
  /// @return the element reader
  template <std::size_t I, int Unit, std::size_t N>
  [[nodiscard]] auto bind(const detail::RunState<N>& run) const {
    return detail::array_reader<T, I, Unit>(run);
  }
  /// Where the leaf is constant: outside its stored entries (the fill value) when sparse.
  /// @tparam I the leaf's number
  /// @return the support
  template <std::size_t I>
  [[nodiscard]] detail::Support<T> support() const {
    if (const auto* s = sparse_buffer(held_.value); s != nullptr && I < 64) {
      return {true, s->fill(), std::uint64_t{1} << I};
    }
    return {};
  }
  /// Prints the node.
  /// @param out the stream
  /// @param depth the indentation
  void explain(std::ostream& out, int depth) const {
    out << detail::pad_by(depth) << "tensor " << to_string(held_.value.shape()) << " "
        << held_.value.dims() << "\n";
  }

 private:
  // Held through detail::Held: Doxygen 1.9 mistakes a member of type Tensor<const T> for a
  // specialisation of Tensor and then cannot resolve Tensor's @copydoc targets.
  detail::Held<Tensor<const T>> held_;
};

/// A scalar as an expression leaf (broadcast to any shape; not a tensor leaf).
/// @tparam T the value type
template <class T>
class ScalarExpr : public detail::ExpressionTag {
 public:
  /// The value type.
  using value_type = T;
  /// A scalar reads no array.
  static constexpr std::size_t leaf_count = 0;
  /// Whether the node is a scalar (for the type rule of binary operators).
  static constexpr bool is_scalar = true;

  /// Holds a value.
  /// @param value the value
  explicit ScalarExpr(T value) : value_(value) {}
  /// A scalar has rank 0.
  /// @return the empty shape
  [[nodiscard]] Index shape() const { return {}; }
  /// Nothing to prepare.
  void prepare(detail::Prepared& /*p*/) const {}
  /// A scalar has no tensors to visit.
  template <class F>
  void for_each_tensor(F&& /*visitor*/) const {}
  /// The value, whatever the run offset.
  /// @return the reader
  template <std::size_t I, int Unit, std::size_t N>
  [[nodiscard]] auto bind(const detail::RunState<N>& /*run*/) const {
    const T v = value_;
    return [v](index_t /*t*/) { return v; };
  }
  /// The value.
  /// @return it
  [[nodiscard]] const T& value() const noexcept { return value_; }
  /// A scalar is constant everywhere.
  /// @tparam I unused (a scalar is not a leaf)
  /// @return the support
  template <std::size_t I>
  [[nodiscard]] detail::Support<T> support() const {
    return {true, value_, 0};
  }
  /// Prints the node.
  /// @param out the stream
  /// @param depth the indentation
  void explain(std::ostream& out, int depth) const {
    out << detail::pad_by(depth) << "scalar " << value_ << "\n";
  }

 private:
  T value_;
};

/// A composite selection (concat, pad, where, ...) as an expression leaf: evaluated once, by
/// blocks, into a temporary when the expression is evaluated.
/// @tparam T the element type
template <class T>
class SelectionExpr : public detail::ExpressionTag {
 public:
  /// The element type.
  using value_type = T;
  /// The evaluated selection is one leaf.
  static constexpr std::size_t leaf_count = 1;
  /// Wraps a selection.
  /// @param s the selection
  explicit SelectionExpr(Selection<T> s) : s_(std::move(s)) {}
  /// The extents.
  /// @return the selection's shape
  [[nodiscard]] Index shape() const { return s_.shape(); }
  /// Evaluates the selection into a temporary leaf (a tensor leaf is used as it is).
  /// @param p the preparation
  void prepare(detail::Prepared& p) const {
    if (p.probing) {
      return;
    }
    if (const Tensor<const T>* t = s_.node()->leaf()) {
      p.add<T>(*t);
      return;
    }
    auto dense =
        std::make_shared<Tensor<T>>(p.parallel ? s_.materialize(par) : s_.materialize(seq));
    p.kept.push_back(dense);
    if (p.sparse_mode) {
      p.sparse.resize(p.maps.size());
      p.sparse.push_back({{}, nullptr, nullptr, sizeof(T)});
    }
    p.maps.push_back(p.walked(dense->dims()));
    p.data.push_back(dense->buffer().data());
    p.ragged.push_back(false);
  }
  /// A selection's tensors are not visited (it is evaluated apart).
  template <class F>
  void for_each_tensor(F&& /*visitor*/) const {}
  /// A selection is treated as dense by sparse evaluation.
  /// @tparam I the leaf's number
  /// @return an empty support
  template <std::size_t I>
  [[nodiscard]] detail::Support<T> support() const {
    return {};
  }
  /// The element at run offset t (see TensorExpr::bind).
  /// @param run the run
  /// @return the reader
  template <std::size_t I, int Unit, std::size_t N>
  [[nodiscard]] auto bind(const detail::RunState<N>& run) const {
    return detail::array_reader<T, I, Unit>(run);
  }
  /// Prints the node and the selection's tree.
  /// @param out the stream
  /// @param depth the indentation
  void explain(std::ostream& out, int depth) const {
    out << detail::pad_by(depth) << "selection " << to_string(s_.shape()) << "\n";
    std::string tree = s_.explain();
    std::size_t at = 0;
    while (at < tree.size()) {
      const std::size_t end = tree.find('\n', at);
      out << detail::pad_by(depth + 1) << tree.substr(at, end - at) << "\n";
      at = end == std::string::npos ? tree.size() : end + 1;
    }
  }

 private:
  Selection<T> s_;
};

/// A JaggedTensor (read-only) as an expression leaf: a jagged expression is evaluated row by
/// row into a JaggedTensor of the same shape (`JaggedTensor<float> y = jt - mean(jt, 1);`).
/// Every jagged leaf of a tree must have the same shape, or 1-D rows (`n * var`) with one
/// element per list of the deepest leaf's rows (`n * var * var`: awkward-array's broadcasting,
/// each element applied to its whole list); dense operands are broadcast along the rows (their
/// leading extents are the outer extents, or 1), scalars everywhere.
/// @tparam T the element type
template <class T>
class JaggedExpr : public detail::ExpressionTag {
 public:
  /// The element type.
  using value_type = T;
  /// A jagged tensor is one leaf.
  static constexpr std::size_t leaf_count = 1;
  /// The tree evaluates into a JaggedTensor, never a dense tensor.
  static constexpr bool jagged = true;

  /// Wraps a jagged tensor (shared, not copied).
  /// @param t the tensor
  explicit JaggedExpr(JaggedTensor<T> t) : held_{std::move(t)} {}
  /// Rank 0 for NumPy's broadcasting of the dense operands (they are checked against the
  /// jagged shape when the tree is evaluated).
  /// @return the empty shape
  [[nodiscard]] Index shape() const { return {}; }
  /// The jagged tensor.
  /// @return the wrapped tensor
  [[nodiscard]] const JaggedTensor<T>& tensor() const noexcept { return held_.value; }
  /// Registers this leaf for evaluation (checks its shape against the others').
  /// @param p the preparation
  void prepare(detail::Prepared& p) const { p.add_jagged<T>(held_.value); }
  /// A jagged leaf holds no dense tensor.
  template <class F>
  void for_each_tensor(F&& /*visitor*/) const {}
  /// A jagged leaf is never part of a sparse evaluation.
  /// @tparam I the leaf's number
  /// @return an empty support
  template <std::size_t I>
  [[nodiscard]] detail::Support<T> support() const {
    return {};
  }
  /// The run's element t: a jagged leaf's run is a whole row, always contiguous, or, walked list
  /// by list (detail::run_lists), one list, or one value for the list when the leaf has one
  /// value per list (stride 0).
  /// @param run the run
  /// @return the element reader
  template <std::size_t I, int Unit, std::size_t N>
  [[nodiscard]] auto bind(const detail::RunState<N>& run) const {
    const T* p = static_cast<const T*>(run.data[I]) + run.start[I];
    if constexpr (Unit == detail::run_lists) {
      const index_t s = run.stride[I];
      return [p, s](index_t t) { return p[t * s]; };
    } else {
      return [p](index_t t) { return p[t]; };
    }
  }
  /// Prints the node.
  /// @param out the stream
  /// @param depth the indentation
  void explain(std::ostream& out, int depth) const {
    out << detail::pad_by(depth) << "jagged " << held_.value.type_string() << "\n";
  }

 private:
  detail::Held<JaggedTensor<T>> held_;
};

namespace detail {

/// Whether a type is a JaggedTensor.
template <class X>
struct is_jagged_tensor : std::false_type {};
template <class T>
struct is_jagged_tensor<JaggedTensor<T>> : std::true_type {};

/// Whether a type is a Tensor (of any element type, const or not).
template <class X>
struct is_tensor : std::false_type {};
template <class T>
struct is_tensor<Tensor<T>> : std::true_type {};
/// Whether a type is a Selection.
template <class X>
struct is_selection : std::false_type {};
template <class T>
struct is_selection<Selection<T>> : std::true_type {};

/// Turns an operand into an expression node: expressions as they are, tensors and selections
/// as leaves, numbers (arithmetic or complex) as scalars.
template <class X>
auto as_expression(const X& x) {
  using D = std::remove_cvref_t<X>;
  if constexpr (is_expression_v<D>) {
    return x;
  } else if constexpr (is_tensor<D>::value) {
    using T = typename D::value_type;
    return TensorExpr<T>(Tensor<const T>(x));
  } else if constexpr (is_selection<D>::value) {
    return SelectionExpr<typename D::value_type>(x);
  } else if constexpr (is_jagged_tensor<D>::value) {
    return JaggedExpr<std::remove_const_t<typename D::value_type>>(x);
  } else {
    static_assert(is_number_v<D>,
                  "an expression operand must be a strata::Tensor, a strata::Selection, a "
                  "strata::JaggedTensor, an expression or a number (arithmetic or "
                  "std::complex)");
    return ScalarExpr<D>(x);
  }
}

/// The node type of an operand.
template <class X>
using node_t = decltype(as_expression(std::declval<const X&>()));

/// Whether an operand takes part in expressions: a Tensor, a Selection, a JaggedTensor or an
/// expression.
template <class X>
inline constexpr bool is_operand_v =
    is_expression_v<X> || is_tensor<std::remove_cvref_t<X>>::value ||
    is_selection<std::remove_cvref_t<X>>::value || is_jagged_tensor<std::remove_cvref_t<X>>::value;

/// Whether a node is a scalar.
template <class E>
inline constexpr bool is_scalar_node_v = requires {
  requires std::remove_cvref_t<E>::is_scalar;
};

/// The kind of a number type for the scalar rule: 0 bool, 1 integer, 2 floating, 3 complex.
template <class T>
inline constexpr int kind_v = std::is_same_v<T, bool>
                                  ? 0
                                  : (is_complex_v<T> ? 3 : (std::is_floating_point_v<T> ? 2 : 1));

/// The type two element types combine to: C++'s usual arithmetic conversions (the common
/// type), except that a scalar does not widen a tensor of its own kind or of a higher kind (a
/// double scalar times a float tensor is float, an int scalar plus a float tensor is float, as
/// a Python scalar in NumPy). bool is a kind of its own: an integer scalar with a bool tensor
/// gives the integer (`(a > 0) + 1` counts, as in NumPy and in C++).
///
/// With a complex operand the result is complex, of the type the real types combine to under
/// the same rule: complex64 with float64 is complex128, complex64 times a double scalar stays
/// complex64, a complex scalar times a float tensor is complex64 (NumPy's types for these).
template <class L, class R, bool LeftScalar, bool RightScalar>
struct combined {
  static constexpr bool has_common = requires { typename std::common_type<L, R>::type; };
  static_assert(has_common,
                "strata expression: the operands' element types have no common type under "
                "C++'s usual arithmetic conversions; convert one with strata::astype<U>(x)");
  using type =
      typename std::conditional_t<has_common, std::common_type<L, R>, std::type_identity<L>>::type;
};
template <class L, class R>
requires(std::is_arithmetic_v<L>&& std::is_arithmetic_v<R>&& kind_v<L> <=
         kind_v<R>) struct combined<L, R, true, false> {
  using type = R;  // the scalar L does not widen the tensor R
};
template <class L, class R>
requires(std::is_arithmetic_v<L>&& std::is_arithmetic_v<R>&& kind_v<R> <=
         kind_v<L>) struct combined<L, R, false, true> {
  using type = L;  // the scalar R does not widen the tensor L
};
template <class L, class R, bool LeftScalar, bool RightScalar>
requires(is_complex_v<L> || is_complex_v<R>) struct combined<L, R, LeftScalar, RightScalar> {
  using type = std::complex<typename combined<real_t<L>, real_t<R>, LeftScalar, RightScalar>::type>;
};

/// The broadcast shape of several operand shapes (BroadcastError naming the operator).
inline Index broadcast_all(std::string_view operation, std::initializer_list<Index> shapes) {
  Index out;
  bool first = true;
  for (const Index& s : shapes) {
    out = first ? s : broadcast_shapes(out, s, operation);
    first = false;
  }
  return out;
}

/// The broadcast shape of the dense operands of a jagged expression, aligned on the left as
/// awkward-array aligns them (their leading modes meet the outer modes; a `[n, 3]` regular
/// operand meets a `[n]` per-row one): shorter shapes are padded with 1 on the right.
inline Index broadcast_left(std::string_view operation, std::initializer_list<Index> shapes) {
  std::size_t rank = 0;
  for (const Index& s : shapes) {
    rank = std::max(rank, s.size());
  }
  Index out;
  bool first = true;
  for (Index s : shapes) {
    s.resize(rank, 1);
    out = first ? s : broadcast_shapes(out, s, operation);
    first = false;
  }
  return out;
}

/// The leaf offsets of the children of an n-ary node: child k's first leaf.
template <class... C>
constexpr std::array<std::size_t, sizeof...(C) + 1> leaf_offsets() {
  std::array<std::size_t, sizeof...(C) + 1> out{};
  std::size_t at = 0;
  std::size_t k = 0;
  ((out[k++] = at, at += leaves_v<C>), ...);
  out[k] = at;
  return out;
}

}  // namespace detail

/// An element-wise operation on the results of child expressions: `op(children(t)...)`, with
/// the children broadcast together (NumPy's rules). Every operator and function of
/// strata/expr/ builds one of these; `R` is the element type of the result.
/// @tparam R the result element type
/// @tparam Op the operation (a function object)
/// @tparam C the child node types
template <class R, class Op, class... C>
class MapExpr : public detail::ExpressionTag {
 public:
  /// The element type of the result.
  using value_type = R;
  /// The leaves of all children.
  static constexpr std::size_t leaf_count = (detail::leaves_v<C> + ... + 0);
  /// Whether a child is jagged (the tree then evaluates into a JaggedTensor).
  static constexpr bool jagged = (detail::jagged_v<C> || ...);
  /// Whether a child reduces rows (strata::rows).
  static constexpr bool per_row = (detail::per_row_v<C> || ...);

  /// A node over children.
  /// @param name the operation's name (errors, explain())
  /// @param op the operation
  /// @param children the operands
  /// @throws BroadcastError when the children's shapes do not broadcast (the message names the
  ///         operation and the shapes)
  MapExpr(std::string name, Op op, C... children)
      : name_(std::move(name)),
        op_(std::move(op)),
        children_(std::move(children)...),
        shape_(std::apply(
            [this](const auto&... c) {
              return jagged ? detail::broadcast_left(name_, {c.shape()...})
                            : detail::broadcast_all(name_, {c.shape()...});
            },
            children_)) {}

  /// An expression is a lazy tree of a fixed type: `auto y = x * 2; y = exp(y);` cannot rebind
  /// it, so it does not compile, and the message says to name a tensor type.
  /// @param other another expression
  /// @return never (does not compile)
  template <class Other>
  requires(detail::is_expression_v<Other> &&
           !std::is_same_v<std::remove_cvref_t<Other>, MapExpr>) MapExpr&
  operator=(const Other& other) {
    static_assert(!detail::is_expression_v<Other>,
                  "strata: an expression is a lazy tree of a fixed type; `auto y = expr` names "
                  "the tree, not a tensor. Store it in a tensor: Tensor<double> y = expr; then "
                  "y = exp(y) evaluates into it");
    (void)other;
    return *this;
  }

  /// The broadcast shape of the children.
  /// @return the extents
  [[nodiscard]] Index shape() const { return shape_; }
  /// The operation's name.
  /// @return the name
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  /// Registers the leaves, in order.
  /// @param p the preparation
  void prepare(detail::Prepared& p) const {
    std::apply([&p](const auto&... c) { (c.prepare(p), ...); }, children_);
  }
  /// Calls `f(tensor)` for every tensor leaf.
  /// @param f the visitor
  template <class F>
  void for_each_tensor(F&& f) const {
    std::apply([&f](const auto&... c) { (c.for_each_tensor(f), ...); }, children_);
  }
  /// The reader of run offsets: the operation applied to the children's readers.
  /// @param run the run
  /// @return the reader
  template <std::size_t I, int Unit, std::size_t N>
  [[nodiscard]] auto bind(const detail::RunState<N>& run) const {
    auto readers = readers_of<I, Unit>(run, std::index_sequence_for<C...>{});
    return [op = op_, readers](index_t t) {
      return std::apply([&](const auto&... r) { return static_cast<R>(op(r(t)...)); }, readers);
    };
  }
  /// Where the node is constant: where every child is (the operation applied to their
  /// constants, on the union of their supports), or, for a product, where one factor is zero
  /// (on that factor's support: as scipy.sparse and Eigen do, a zero times the other factor is
  /// taken as zero, even where that factor is infinite or NaN).
  /// @tparam I the number of the node's first leaf
  /// @return the support
  template <std::size_t I>
  [[nodiscard]] detail::Support<R> support() const {
    return support_of<I>(std::index_sequence_for<C...>{});
  }
  /// Prints the node and its children, indented.
  /// @param out the stream
  /// @param depth the indentation
  void explain(std::ostream& out, int depth) const {
    out << detail::pad_by(depth) << name_ << " -> " << to_string(shape_) << "\n";
    std::apply([&](const auto&... c) { (c.explain(out, depth + 1), ...); }, children_);
  }

 private:
  /// The first leaf of each child.
  static constexpr auto offsets_ = detail::leaf_offsets<C...>();

  template <std::size_t I, int Unit, std::size_t N, std::size_t... K>
  [[nodiscard]] auto readers_of(const detail::RunState<N>& run,
                                std::index_sequence<K...> /*children*/) const {
    return std::make_tuple(std::get<K>(children_).template bind<I + offsets_[K], Unit>(run)...);
  }

  template <std::size_t I, std::size_t... K>
  [[nodiscard]] detail::Support<R> support_of(std::index_sequence<K...> /*children*/) const {
    const auto parts =
        std::make_tuple(std::get<K>(children_).template support<I + offsets_[K]>()...);
    detail::Support<R> out;
    if ((std::get<K>(parts).constant && ...)) {
      out.constant = true;
      out.value = static_cast<R>(op_(std::get<K>(parts).value...));
      out.leaves = (std::get<K>(parts).leaves | ... | std::uint64_t{0});
      return out;
    }
    if constexpr (detail::is_product_v<Op>) {
      const auto zero_factor = [&out](const auto& part) {
        using V = std::remove_cvref_t<decltype(part.value)>;
        if (!out.constant && part.constant && part.value == V{}) {
          out.constant = true;
          out.value = R{};
          out.leaves = part.leaves;
        }
      };
      (zero_factor(std::get<K>(parts)), ...);
    }
    return out;
  }

  std::string name_;
  Op op_;
  std::tuple<C...> children_;
  Index shape_;
};

namespace detail {

/// Whether a binary operator between these operands builds an expression: at least one is an
/// expression, or a tensor / selection meets a scalar or another tensor / selection.
/// (Tensor == Tensor stays the whole-tensor equality of Tensor; use strata::equal.)
template <class A, class B>
inline constexpr bool builds_v = (is_operand_v<A> &&
                                  (is_operand_v<B> || is_number_v<std::remove_cvref_t<B>>)) ||
                                 (is_operand_v<B> && is_number_v<std::remove_cvref_t<A>>);

template <class A, class B>
concept BinaryOperands = builds_v<A, B>;

template <class A>
concept UnaryOperand = is_operand_v<A>;

/// The element type of `op` applied to operands A and B: C++'s usual arithmetic conversions,
/// a scalar not widening a tensor of its own kind (see combined).
template <class A, class B>
using combined_t =
    typename combined<typename node_t<A>::value_type, typename node_t<B>::value_type,
                      is_scalar_node_v<node_t<A>>, is_scalar_node_v<node_t<B>>>::type;

/// A binary operation whose operands are converted to C before @p Op runs.
template <class C, class Op>
struct Converting {
  Op op;
  template <class X, class Y>
  constexpr auto operator()(X x, Y y) const {
    return op(number_cast<C>(x), number_cast<C>(y));
  }
};

/// Builds the node of a binary operation whose operands are converted to the combined type C
/// before @p op runs, and whose result has type R.
template <class R, class C, class Op, class A, class B>
auto binary(std::string name, Op op, const A& a, const B& b) {
  return MapExpr<R, Converting<C, Op>, node_t<A>, node_t<B>>(std::move(name), Converting<C, Op>{op},
                                                             as_expression(a), as_expression(b));
}

/// The node of a one-operand function whose result type is f's.
template <class A, class F>
auto unary(std::string name, const A& a, F f) {
  using T = typename node_t<A>::value_type;
  using R = std::remove_cvref_t<std::invoke_result_t<F&, T>>;
  return MapExpr<R, F, node_t<A>>(std::move(name), f, as_expression(a));
}

/// The element type of three operands (clip's value and bounds), combined left to right:
/// the first two make a scalar only when both are scalars.
template <class A, class B, class C>
struct combined3 {
  using AB = combined_t<A, B>;
  static constexpr bool ab_scalar = is_scalar_node_v<node_t<A>> && is_scalar_node_v<node_t<B>>;
  using type = typename combined<AB, typename node_t<C>::value_type, ab_scalar,
                                 is_scalar_node_v<node_t<C>>>::type;
};

}  // namespace detail

/// What evaluate(), the reductions of expressions and the lazy user functions take besides
/// tensors: an expression, or a composite selection (concat, pad, where, ...), evaluated when
/// used.
template <class E>
concept LazyOperand = Expression<E> || detail::is_selection<std::remove_cvref_t<E>>::value;

/// The tree of an expression, one node per line with its shape (as Selection::explain()).
/// @param e the expression
/// @return the text
template <Expression E>
std::string explain(const E& e) {
  std::ostringstream out;
  e.explain(out, 0);
  return out.str();
}

}  // namespace strata
