/// @file
/// strata::Selection: lazy composite views (concat, interleave, repeat, tile, pad, where,
/// minimum, maximum) over tensors and over each other, evaluated block by block.
#pragma once

#include "strata/core/checked.hpp"
#include "strata/core/error.hpp"
#include "strata/layout/dimensions.hpp"
#include "strata/parallel/policy.hpp"
#include "strata/tensor/algorithms.hpp"
#include "strata/tensor/tensor.hpp"

#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

namespace strata {

template <class T>
class Selection;

namespace detail {

template <class P>
constexpr bool is_parallel(const P& /*policy*/) noexcept {
  return std::is_same_v<std::remove_cvref_t<P>, Parallel>;
}

template <class T>
class SelectionNode;

/// A concat node of @p sources along @p axis (defined in concat.hpp, included below).
template <class T>
std::shared_ptr<const SelectionNode<T>> make_concat_node(std::vector<Selection<T>> sources,
                                                         index_t axis);

/// One node of a selection tree. Every node routes each output cell to exactly one source
/// cell (or a value chosen by data), so evaluating it is copying blocks.
template <class T>
class SelectionNode {
 public:
  SelectionNode() = default;
  SelectionNode(const SelectionNode&) = delete;
  SelectionNode& operator=(const SelectionNode&) = delete;
  SelectionNode(SelectionNode&&) = delete;
  SelectionNode& operator=(SelectionNode&&) = delete;
  virtual ~SelectionNode() = default;

  /// The output shape.
  [[nodiscard]] virtual Index shape() const = 0;
  /// The element at a global index (in bounds, unchecked).
  [[nodiscard]] virtual T at(IndexSpan g) const = 0;
  /// The AnyBuffer::identity() of the storage the element at a global index is read from
  /// (in bounds, unchecked); null for a value the node makes (a pad constant).
  [[nodiscard]] virtual const void* source(IndexSpan g) const = 0;
  /// Writes every element into `dst`, a writable view of shape(): block by block, the blocks
  /// on OpenMP threads when @p parallel (callers pass false when a buffer of the tree or the
  /// destination may not be used from several threads).
  virtual void materialize_into(Tensor<T>& dst, bool parallel) const = 0;
  /// Prints this node and its children, indented.
  virtual void explain(std::ostream& out, int depth) const = 0;
  /// The node's leaf tensor, when it is one (affine views then fuse into its Dimensions).
  [[nodiscard]] virtual const Tensor<const T>* leaf() const { return nullptr; }
  /// Whether some source tensor of the tree (masks included) shares memory with @p memory
  /// (Footprint::overlaps: the same buffer, or another over the same bytes).
  [[nodiscard]] virtual bool reads(const Footprint& memory) const = 0;
  /// Whether every buffer of the tree may be read from several threads at once
  /// (AnyBuffer::concurrent).
  [[nodiscard]] virtual bool concurrent() const = 0;
  /// The node with its axes permuted, pushed into its sources; null when the node cannot
  /// (then the transpose becomes an affine view of it).
  [[nodiscard]] virtual std::shared_ptr<const SelectionNode> transposed(
      IndexSpan /*permutation*/) const {
    return nullptr;
  }
  /// The node cut along one axis to `count` positions start, start + step, ... (all in
  /// bounds), pushed into its sources; with `drop` the axis is removed (count is then 1).
  /// Null when the node cannot (then the cut becomes an affine view of it).
  [[nodiscard]] virtual std::shared_ptr<const SelectionNode> sliced(std::size_t /*axis*/,
                                                                    index_t /*start*/,
                                                                    index_t /*step*/,
                                                                    index_t /*count*/,
                                                                    bool /*drop*/) const {
    return nullptr;
  }
};

template <class T>
using NodePtr = std::shared_ptr<const SelectionNode<T>>;

/// Division rounding towards minus infinity (divisor > 0).
inline index_t floor_div(index_t a, index_t b) {
  return a / b - ((a % b != 0 && a < 0) ? 1 : 0);
}
/// Division rounding towards plus infinity (divisor > 0).
inline index_t ceil_div(index_t a, index_t b) {
  return -floor_div(-a, b);
}

/// The Range that selects `count` positions start, start + step, ... of an axis.
inline Range range_of(index_t start, index_t step, index_t count) {
  if (count == 0) {
    return Range{0, 0};
  }
  const index_t stop = start + count * step;
  // A negative stop means "before index 0" for a backward walk: leave it open.
  return Range{start, stop < 0 ? std::optional<index_t>{} : std::optional<index_t>{stop}, step};
}

/// Whether each row of a map (axis 0 fixed) is one contiguous, row-major run of the other axes
/// (plain axes throughout): then rows can be copied with one memcpy each.
inline bool contiguous_rows(const Dimensions& d) {
  const auto axes = d.axes();
  if (axes.empty() || !axes[0].is_plain()) {
    return false;
  }
  index_t expected = 1;
  for (std::size_t k = axes.size(); k-- > 1;) {
    if (!axes[k].is_plain() || (axes[k].extent > 1 && axes[k].stride != expected)) {
      return false;
    }
    expected *= axes[k].extent;
  }
  return true;
}

inline std::string indent(int depth) {
  return std::string(static_cast<std::size_t>(depth) * 2, ' ');
}

/// Runs independent block copies, spread over OpenMP threads when @p parallel, there are
/// several and the output is large enough (each copy then runs on its thread; nested regions
/// stay serial). The first exception thrown by a block reaches the caller after the region.
inline void run_blocks(const std::vector<std::function<void()>>& blocks, index_t elements,
                       bool parallel) {
  const auto count = static_cast<index_t>(blocks.size());
  if (!parallel || count <= 1 || elements < Parallel{}.grain || parallel::max_threads() <= 1) {
    for (const auto& block : blocks) {
      block();
    }
    return;
  }
  FirstError error;
#if defined(STRATA_USE_OPENMP)
#pragma omp parallel for schedule(dynamic, 1)
#endif
  for (index_t b = 0; b < count; ++b) {
    error.run(b, [&] { blocks[static_cast<std::size_t>(b)](); });
  }
  error.rethrow();
}

/// A tensor (any buffer, any view): the leaves of every tree.
template <class T>
class LeafNode final : public SelectionNode<T> {
 public:
  explicit LeafNode(Tensor<const T> t) : t_(std::move(t)) {}
  [[nodiscard]] Index shape() const override { return t_.shape(); }
  [[nodiscard]] T at(IndexSpan g) const override { return t_.at(g); }
  [[nodiscard]] const void* source(IndexSpan /*g*/) const override {
    return t_.buffer().identity();
  }
  void materialize_into(Tensor<T>& dst, bool parallel) const override {
    if (parallel) {
      dst.assign(t_, par);
    } else {
      dst.assign(t_, seq);
    }
  }
  void explain(std::ostream& out, int depth) const override {
    out << indent(depth) << "tensor " << to_string(t_.shape()) << " " << t_.dims()
        << (t_.buffer().data() == nullptr ? " (computed or custom storage)" : "") << "\n";
  }
  [[nodiscard]] const Tensor<const T>* leaf() const override { return &t_; }
  [[nodiscard]] bool reads(const Footprint& memory) const override {
    return t_.buffer().footprint().overlaps(memory);
  }
  [[nodiscard]] bool concurrent() const override { return t_.buffer().concurrent(); }

 private:
  Tensor<const T> t_;
};

/// An affine view of a non-leaf node: output g reads the child at row-major linear index
/// map(g). Chains of affine operations fuse into the one map.
template <class T>
class AffineNode final : public SelectionNode<T> {
 public:
  AffineNode(NodePtr<T> child, Dimensions map) : child_(std::move(child)), map_(std::move(map)) {}
  [[nodiscard]] Index shape() const override { return map_.shape(); }
  [[nodiscard]] T at(IndexSpan g) const override { return child_->at(child_index(g)); }
  [[nodiscard]] const void* source(IndexSpan g) const override {
    return child_->source(child_index(g));
  }
  void materialize_into(Tensor<T>& dst, bool parallel) const override {
    // Evaluate the child once, densely, then one copy through the fused map.
    Tensor<T> dense(child_->shape());
    child_->materialize_into(dense, parallel);
    const Tensor<const T> mapped(dense.buffer(), map_);
    if (parallel) {
      dst.assign(mapped, par);
    } else {
      dst.assign(mapped, seq);
    }
  }
  void explain(std::ostream& out, int depth) const override {
    out << indent(depth) << "view " << map_ << " -> " << to_string(shape()) << "\n";
    child_->explain(out, depth + 1);
  }
  [[nodiscard]] bool reads(const Footprint& memory) const override { return child_->reads(memory); }
  [[nodiscard]] bool concurrent() const override { return child_->concurrent(); }
  [[nodiscard]] const NodePtr<T>& child() const { return child_; }
  [[nodiscard]] const Dimensions& map() const { return map_; }

 private:
  [[nodiscard]] Index child_index(IndexSpan g) const {
    index_t linear = map_.global_to_local(g);
    const Index extents = child_->shape();
    Index c(extents.size());
    for (std::size_t k = extents.size(); k-- > 0;) {
      c[k] = linear % extents[k];
      linear /= extents[k];
    }
    return c;
  }

  NodePtr<T> child_;
  Dimensions map_;
};

}  // namespace detail

/// A lazy, read-only N-dimensional selection: a tree of composite views over tensors.
///
/// Nothing is copied until materialize() or assign_to(): then the output is split into
/// rectangular blocks that each come from one source region (or one fill value), and each block
/// is copied with the Tensor copy kernels. Affine views (select, transpose, reverse, rotate,
/// broadcast, reshape) of a leaf fuse into the leaf's Dimensions; of any other node they fuse
/// into one Dimensions over that node's row-major index space. explain() prints the tree.
///
/// @code
/// auto a = strata::iota<int>({2, 3});
/// auto s = strata::concat(0, {a, strata::pad(a, {{1, 1}, {0, 0}}, strata::PadMode::reflect)});
/// s.shape();         // [6 3]
/// s.materialize();   // a dense Tensor<int>
/// @endcode
/// @image html selection_tree.svg "each element coloured by the tensor it reads (draw::selection)"
/// Design page: @ref selections_page.
template <class T>
class Selection {
 public:
  /// The element type.
  using value_type = T;

  /// A selection of a tensor (a leaf), writable or read-only: selections only read.
  /// @param t the tensor (shared, not copied)
  template <class U>
  requires std::is_same_v<std::remove_const_t<U>, T>
  // NOLINTNEXTLINE(google-explicit-constructor): a tensor is a selection of itself.
  Selection(Tensor<U> t)
      : node_(std::make_shared<detail::LeafNode<T>>(Tensor<const T>(std::move(t)))) {}

  /// Wraps a node (used by the composite constructors).
  /// @param node the root
  explicit Selection(detail::NodePtr<T> node) : node_(std::move(node)) {}

  /// Shares @p other's tree.
  /// @param other a selection
  Selection(const Selection& other) = default;
  /// Takes @p other's tree.
  /// @param other a selection
  Selection(Selection&& other) noexcept = default;
  /// Rebinds this named selection to @p other's tree (a selection only reads: nothing is
  /// written).
  /// @param other a selection
  /// @return this selection
  Selection& operator=(const Selection& other) & = default;
  /// Rebinds this named selection to @p other's tree.
  /// @param other a selection
  /// @return this selection
  Selection& operator=(Selection&& other) & noexcept = default;
  /// Assigning to a temporary selection (`s.select(...) = x`) would write nothing: it does not
  /// compile. Write into a tensor view instead (`t.select(...) = x`).
  Selection& operator=(const Selection&) && = delete;
  /// Moving into a temporary selection would write nothing either: it does not compile.
  Selection& operator=(Selection&&) && = delete;
  /// Releases this handle.
  ~Selection() = default;

  /// The extents.
  /// @return the shape
  [[nodiscard]] Index shape() const { return node_->shape(); }
  /// The number of axes.
  /// @return the rank
  [[nodiscard]] int rank() const { return static_cast<int>(shape().size()); }
  /// The number of elements.
  /// @return the size
  [[nodiscard]] index_t size() const { return checked_size(shape(), "Selection"); }

  /// One element, checked; negative indices count from the end.
  /// @param index one index per axis
  /// @return the element
  /// @throws IndexError for a wrong number of indices or one out of bounds
  [[nodiscard]] T at(IndexSpan index) const { return node_->at(checked(index, "at")); }

  /// Where one element comes from: the AnyBuffer::identity() of the tensor storage it is read
  /// from, or null for a value the selection makes (a pad constant). `where` names the branch
  /// its mask picks, `minimum` / `maximum` the operand picked (the first on a tie). Pictures of
  /// selections colour their blocks by it (draw::selection).
  /// @code
  /// auto s = strata::concat(0, {a, b});
  /// s.source_at({0, 0}) == a.buffer().identity();  // true
  /// @endcode
  /// @param index one index per axis; negative indices count from the end
  /// @return the storage's identity, or nullptr
  /// @throws IndexError for a wrong number of indices or one out of bounds
  [[nodiscard]] const void* source_at(IndexSpan index) const {
    return node_->source(checked(index, "source_at"));
  }

  /// A dense, row-major tensor of the selection's values.
  /// @param policy seq or par (par splits into blocks on OpenMP threads when every source
  ///        buffer may be read concurrently; user buffers without data() are read from one
  ///        thread)
  /// @return the tensor
  template <ExecutionPolicy P = Parallel>
  [[nodiscard]] Tensor<T> materialize(const P& policy = P{}) const {
    Tensor<T> out(shape());
    node_->materialize_into(out, detail::is_parallel(policy) && node_->concurrent());
    return out;
  }

  /// Writes the selection's values into a tensor view, broadcasting them to its shape as
  /// NumPy's `view[...] = s` (evaluated apart first when the view shares a buffer with one of
  /// the selection's sources, masks included). `view = s` does the same.
  /// @param dst a writable view
  /// @param policy seq or par (par runs blocks on OpenMP threads only when the destination
  ///        and every source buffer may be used concurrently)
  /// @throws BroadcastError when the shapes do not broadcast; LayoutError when dst cannot be
  ///         written (its indices share addresses, or its buffer is read-only). Nothing is
  ///         written then.
  template <ExecutionPolicy P = Parallel>
  void assign_to(Tensor<T>& dst, const P& policy = P{}) const {
    assign_to(std::move(dst), policy);
  }
  /// @copydoc assign_to(Tensor<T>&, const P&) const
  template <ExecutionPolicy P = Parallel>
  void assign_to(Tensor<T>&& dst, const P& policy = P{}) const {
    if (dst.shape() != shape()) {
      if (broadcast_shapes(shape(), dst.shape(), "assign_to") != dst.shape()) {
        detail::fail<BroadcastError>("assign_to", "the selection's shape ", to_string(shape()),
                                     " does not broadcast to the view's shape ",
                                     to_string(dst.shape()));
      }
      if (dst.dims().aliases() || !dst.buffer().writable()) {
        detail::fail<LayoutError>("assign_to", "the view ", dst.dims(),
                                  " cannot be written (several indices share an address, or "
                                  "the buffer is read-only)");
      }
      dst.assign(materialize(policy), policy);  // broadcast, as NumPy's `view[...] = s`
      return;
    }
    if (dst.dims().aliases() || !dst.buffer().writable()) {
      detail::fail<LayoutError>("assign_to", "the view ", dst.dims(),
                                " cannot be written (several indices share an address, or "
                                "the buffer is read-only)");
    }
    if (node_->reads(dst.buffer().footprint())) {
      // The destination is one of the sources: evaluate apart first, as NumPy buffers overlaps.
      dst.assign(materialize(policy), policy);
      return;
    }
    node_->materialize_into(
        dst, detail::is_parallel(policy) && node_->concurrent() && dst.buffer().concurrent());
  }

  /// The tree, one node per line with its output shape.
  /// @return the text
  [[nodiscard]] std::string explain() const {
    std::ostringstream out;
    node_->explain(out, 0);
    return out.str();
  }

  // ---- affine views (lazy; fused) ------------------------------------------------------------

  /// @copydoc Dimensions::select(std::initializer_list<Selector>) const
  /// Integers, ranges and `all` on a composite node are pushed into its sources (a slice of a
  /// concat is a concat of slices), so the tree stays block-wise.
  [[nodiscard]] Selection select(std::initializer_list<Selector> selectors) const {
    return select(std::span<const Selector>(selectors.begin(), selectors.size()));
  }
  /// @copydoc Dimensions::select(std::span<const Selector>) const
  /// Integers, ranges and `all` on a composite node are pushed into its sources.
  [[nodiscard]] Selection select(std::span<const Selector> selectors) const {
    (void)Dimensions(shape()).select(selectors);  // validates, with select's errors
    if (composite()) {
      const Index extents = shape();
      std::vector<detail::AxisCut> cuts(selectors.size());
      bool basic = true;
      for (std::size_t k = 0; basic && k < selectors.size(); ++k) {
        basic = detail::axis_cut(selectors[k], extents[k], cuts[k]);
      }
      if (basic) {
        if (auto pushed = cut_axes(cuts)) {
          return *pushed;
        }
      }
    }
    return affine([&](const auto& d) { return d.select(selectors); });
  }

  /// One axis of a basic selection: `count` positions start, start + step, ... (all in bounds),
  /// the axis dropped when @p drop (count 1). What select() does per axis; composite nodes use
  /// it to cut their sources. Pushed into a composite node where it can be, else an affine
  /// view.
  /// @param axis the axis, in [0, rank())
  /// @param start the first position
  /// @param step the distance between positions (non-zero)
  /// @param count the number of positions
  /// @param drop remove the axis (an integer index)
  /// @return the selection
  [[nodiscard]] Selection slice_axis(std::size_t axis, index_t start, index_t step, index_t count,
                                     bool drop) const {
    if (count <= 1) {
      step = 1;  // the step of one position does not matter (and may be INT64_MIN)
    }
    if (auto pushed = try_slice_axis(axis, start, step, count, drop)) {
      return *pushed;
    }
    return affine(
        [&](const auto& d) { return d.select(cut_selectors(axis, start, step, count, drop)); });
  }
  /// @copydoc Dimensions::transpose(IndexSpan) const
  /// Composite nodes push the transpose into their sources, so the tree stays block-wise.
  [[nodiscard]] Selection transpose(IndexSpan permutation) const {
    (void)Dimensions(shape()).transpose(permutation);  // validates, with transpose's errors
    if (node_->leaf() == nullptr) {
      Index perm(permutation);
      for (auto& p : perm) {
        p = p < 0 ? p + rank() : p;
      }
      if (auto pushed = node_->transposed(perm)) {
        return Selection(std::move(pushed));
      }
    }
    return affine([&](const auto& d) { return d.transpose(permutation); });
  }
  /// @copydoc Dimensions::transpose() const
  [[nodiscard]] Selection transpose() const {
    Index perm(static_cast<std::size_t>(rank()));
    for (int k = 0; k < rank(); ++k) {
      perm[static_cast<std::size_t>(k)] = rank() - 1 - k;
    }
    return transpose(perm);
  }

  /// Selections are read-only: writing into one always throws. (Materialise first, or write
  /// into the source tensors.)
  /// @param source ignored
  /// @throws LayoutError always; nothing is written
  void assign(const Tensor<T>& source) const {
    (void)source;
    detail::fail<LayoutError>("assign", "a selection of shape ", to_string(shape()),
                              " is read-only; materialize() it or write into its sources");
  }
  /// @copydoc Dimensions::reverse(IndexSpan) const
  /// On a composite node the reversal is pushed into its sources where it can be.
  [[nodiscard]] Selection reverse(IndexSpan axes) const {
    (void)Dimensions(shape()).reverse(axes);  // validates, with reverse's errors
    if (composite()) {
      const Index extents = shape();
      std::vector<detail::AxisCut> cuts = whole_axes();
      for (const index_t axis : axes) {
        const auto k = static_cast<std::size_t>(axis < 0 ? axis + rank() : axis);
        cuts[k] = {extents[k] - 1, -1, extents[k], false};  // validated: no axis twice
      }
      if (auto pushed = cut_axes(cuts)) {
        return *pushed;
      }
    }
    return affine([&](const auto& d) { return d.reverse(axes); });
  }
  /// @copydoc Dimensions::rotate(index_t, index_t) const
  /// On a composite node the roll becomes a concat of two slices pushed into its sources,
  /// where they can be.
  [[nodiscard]] Selection rotate(index_t shift, index_t axis) const {
    (void)Dimensions(shape()).rotate(shift, axis);  // validates, with rotate's errors
    if (composite()) {
      const auto k = static_cast<std::size_t>(axis < 0 ? axis + rank() : axis);
      const index_t n = shape()[k];
      const index_t s = n == 0 ? 0 : ((shift % n) + n) % n;
      if (s == 0) {
        return *this;
      }
      auto tail = try_slice_axis(k, n - s, 1, s, false);
      auto head = try_slice_axis(k, 0, 1, n - s, false);
      if (tail && head) {
        return Selection(detail::make_concat_node<T>({*tail, *head}, static_cast<index_t>(k)));
      }
    }
    return affine([&](const auto& d) { return d.rotate(shift, axis); });
  }
  /// @copydoc Dimensions::broadcast(IndexSpan) const
  [[nodiscard]] Selection broadcast(IndexSpan shape) const {
    return affine([&](const auto& d) { return d.broadcast(shape); });
  }
  /// @copydoc Dimensions::squeeze(IndexSpan) const
  /// On a composite node the squeeze is pushed into its sources where it can be.
  [[nodiscard]] Selection squeeze(IndexSpan axes) const {
    (void)Dimensions(shape()).squeeze(axes);  // validates, with squeeze's errors
    if (composite()) {
      std::vector<detail::AxisCut> cuts = whole_axes();
      for (const index_t axis : axes) {
        cuts[static_cast<std::size_t>(axis < 0 ? axis + rank() : axis)] = {0, 1, 1, true};
      }
      if (auto pushed = cut_axes(cuts)) {
        return *pushed;
      }
    }
    return affine([&](const auto& d) { return d.squeeze(axes); });
  }
  /// @copydoc Dimensions::unsqueeze(index_t) const
  [[nodiscard]] Selection unsqueeze(index_t axis) const {
    return affine([&](const auto& d) { return d.unsqueeze(axis); });
  }
  /// @copydoc Dimensions::reshape(IndexSpan) const
  /// A lazy selection never needs a copy: where the fused map cannot express the new shape,
  /// the reshape nests as a view of the selection (no LayoutError).
  [[nodiscard]] Selection reshape(IndexSpan shape) const {
    return affine([&](const auto& d) { return d.reshape(shape); });
  }

  /// The root node (for the composite constructors).
  /// @return the node
  [[nodiscard]] const detail::NodePtr<T>& node() const noexcept { return node_; }

 private:
  /// @p index with negative entries wrapped, checked against the shape for @p operation.
  [[nodiscard]] Index checked(IndexSpan index, const char* operation) const {
    const Index extents = shape();
    if (index.size() != extents.size()) {
      detail::fail<IndexError>(operation, "index ", to_string(index), " has ", index.size(),
                               " entries for a selection of rank ", extents.size());
    }
    Index g(index);
    for (std::size_t k = 0; k < g.size(); ++k) {
      if (g[k] < -extents[k] || g[k] >= extents[k]) {
        detail::fail<IndexError>(operation, "index ", to_string(index),
                                 " is out of bounds on axis ", k, " (shape ", to_string(extents),
                                 ")");
      }
      g[k] = g[k] < 0 ? g[k] + extents[k] : g[k];
    }
    return g;
  }

 public:
 private:
  /// One cut per axis that keeps the whole axis.
  [[nodiscard]] std::vector<detail::AxisCut> whole_axes() const {
    const Index extents = shape();
    std::vector<detail::AxisCut> cuts(extents.size());
    for (std::size_t k = 0; k < extents.size(); ++k) {
      cuts[k] = {0, 1, extents[k], false};
    }
    return cuts;
  }
  /// Whether the root is a composite node (neither a leaf nor an affine view).
  [[nodiscard]] bool composite() const {
    return node_->leaf() == nullptr &&
           dynamic_cast<const detail::AffineNode<T>*>(node_.get()) == nullptr;
  }
  [[nodiscard]] static std::vector<Selector> cut_selectors(std::size_t axis, index_t start,
                                                           index_t step, index_t count, bool drop) {
    std::vector<Selector> selectors(axis, Selector(all));
    if (drop) {
      selectors.emplace_back(start);
    } else {
      selectors.emplace_back(detail::range_of(start, step, count));
    }
    return selectors;
  }
  /// slice_axis() when it fuses or pushes; nothing when a composite node cannot take it.
  [[nodiscard]] std::optional<Selection> try_slice_axis(std::size_t axis, index_t start,
                                                        index_t step, index_t count,
                                                        bool drop) const {
    if (count <= 1) {
      step = 1;  // one position or none: the step does not matter (and may be INT64_MIN)
    }
    if (!composite()) {
      return affine(
          [&](const auto& d) { return d.select(cut_selectors(axis, start, step, count, drop)); });
    }
    if (auto pushed = node_->sliced(axis, start, step, count, drop)) {
      return Selection(std::move(pushed));
    }
    return std::nullopt;
  }
  /// Applies one cut per axis (from the last, so dropped axes do not renumber the others);
  /// nothing when some cut cannot be pushed.
  [[nodiscard]] std::optional<Selection> cut_axes(const std::vector<detail::AxisCut>& cuts) const {
    const Index extents = shape();
    std::optional<Selection> current = *this;
    for (std::size_t k = cuts.size(); k-- > 0;) {
      const detail::AxisCut& c = cuts[k];
      if (!c.drop && c.start == 0 && c.step == 1 && c.count == extents[k]) {
        continue;  // the whole axis
      }
      current = current->try_slice_axis(k, c.start, c.step, c.count, c.drop);
      if (!current) {
        return std::nullopt;
      }
    }
    return current;
  }

  /// Applies a Dimensions view operation: to a leaf's tensor (fused into its map), to an
  /// affine node's map (fused), or to the row-major map of any other node.
  /// When the fused map cannot express the view (a reshape of a transposed or index-array
  /// map), the view nests: a new view node over this node's row-major index space, which can
  /// express any of them.
  template <class Op>
  [[nodiscard]] Selection affine(Op&& op) const {
    try {
      if (const Tensor<const T>* t = node_->leaf()) {
        return Selection(Tensor<const T>(t->buffer(), op(t->dims())));
      }
      if (const auto* a = dynamic_cast<const detail::AffineNode<T>*>(node_.get())) {
        return Selection(std::make_shared<detail::AffineNode<T>>(a->child(), op(a->map())));
      }
    } catch (const LayoutError&) {
      // Not expressible in the fused map: nest below.
    }
    return Selection(
        std::make_shared<detail::AffineNode<T>>(node_, op(Dimensions(node_->shape()))));
  }

  detail::NodePtr<T> node_;
};

}  // namespace strata

// make_concat_node (used by Selection::rotate) is defined with the concat node.
#include "strata/select/concat.hpp"  // IWYU pragma: keep
