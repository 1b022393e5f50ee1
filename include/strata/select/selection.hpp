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
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace strata {

template <class T>
class Selection;

namespace detail {

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
  /// Writes every element into `dst`, a writable view of shape(): block by block.
  virtual void materialize_into(Tensor<T>& dst) const = 0;
  /// Prints this node and its children, indented.
  virtual void explain(std::ostream& out, int depth) const = 0;
  /// The node's leaf tensor, when it is one (affine views then fuse into its Dimensions).
  [[nodiscard]] virtual const Tensor<T>* leaf() const { return nullptr; }
  /// Whether some source tensor of the tree lives in @p buffer.
  [[nodiscard]] virtual bool reads(const AnyBuffer<T>& buffer) const = 0;
  /// The node with its axes permuted, pushed into its sources; null when the node cannot
  /// (then the transpose becomes an affine view of it).
  [[nodiscard]] virtual std::shared_ptr<const SelectionNode> transposed(
      IndexSpan /*permutation*/) const {
    return nullptr;
  }
};

template <class T>
using NodePtr = std::shared_ptr<const SelectionNode<T>>;

inline std::string indent(int depth) {
  return std::string(static_cast<std::size_t>(depth) * 2, ' ');
}

/// Runs independent block copies, spread over OpenMP threads when there are several and the
/// output is large enough (each copy then runs on its thread; nested regions stay serial).
/// The first exception thrown by a block is rethrown after every block has finished.
inline void run_blocks(const std::vector<std::function<void()>>& blocks, index_t elements) {
  const auto count = static_cast<index_t>(blocks.size());
  if (count <= 1 || elements < Parallel{}.grain || parallel::max_threads() <= 1) {
    for (const auto& block : blocks) {
      block();
    }
    return;
  }
  std::vector<std::exception_ptr> errors(blocks.size());
#if defined(STRATA_USE_OPENMP)
#pragma omp parallel for schedule(dynamic, 1)
#endif
  for (index_t b = 0; b < count; ++b) {
    try {
      blocks[static_cast<std::size_t>(b)]();
    } catch (...) {
      errors[static_cast<std::size_t>(b)] = std::current_exception();
    }
  }
  for (const auto& e : errors) {
    if (e) {
      std::rethrow_exception(e);
    }
  }
}

/// A tensor (any buffer, any view): the leaves of every tree.
template <class T>
class LeafNode final : public SelectionNode<T> {
 public:
  explicit LeafNode(Tensor<T> t) : t_(std::move(t)) {}
  [[nodiscard]] Index shape() const override { return t_.shape(); }
  [[nodiscard]] T at(IndexSpan g) const override { return t_.at(g); }
  void materialize_into(Tensor<T>& dst) const override { dst.assign(t_); }
  void explain(std::ostream& out, int depth) const override {
    out << indent(depth) << "tensor " << to_string(t_.shape()) << " " << t_.dims()
        << (t_.buffer().data() == nullptr ? " (computed or custom storage)" : "") << "\n";
  }
  [[nodiscard]] const Tensor<T>* leaf() const override { return &t_; }
  [[nodiscard]] bool reads(const AnyBuffer<T>& buffer) const override {
    return t_.buffer().same_storage(buffer);
  }

 private:
  Tensor<T> t_;
};

/// An affine view of a non-leaf node: output g reads the child at row-major linear index
/// map(g). Chains of affine operations fuse into the one map.
template <class T>
class AffineNode final : public SelectionNode<T> {
 public:
  AffineNode(NodePtr<T> child, Dimensions map) : child_(std::move(child)), map_(std::move(map)) {}
  [[nodiscard]] Index shape() const override { return map_.shape(); }
  [[nodiscard]] T at(IndexSpan g) const override {
    index_t linear = map_.global_to_local(g);
    const Index extents = child_->shape();
    Index c(extents.size());
    for (std::size_t k = extents.size(); k-- > 0;) {
      c[k] = linear % extents[k];
      linear /= extents[k];
    }
    return child_->at(c);
  }
  void materialize_into(Tensor<T>& dst) const override {
    // Evaluate the child once, densely, then one copy through the fused map.
    Tensor<T> dense(child_->shape());
    child_->materialize_into(dense);
    dst.assign(Tensor<T>(dense.buffer(), map_));
  }
  void explain(std::ostream& out, int depth) const override {
    out << indent(depth) << "view " << map_ << " -> " << to_string(shape()) << "\n";
    child_->explain(out, depth + 1);
  }
  [[nodiscard]] bool reads(const AnyBuffer<T>& buffer) const override {
    return child_->reads(buffer);
  }
  [[nodiscard]] const NodePtr<T>& child() const { return child_; }
  [[nodiscard]] const Dimensions& map() const { return map_; }

 private:
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
template <class T>
class Selection {
 public:
  /// A selection of a tensor (a leaf).
  /// @param t the tensor (shared, not copied)
  // NOLINTNEXTLINE(google-explicit-constructor): a tensor is a selection of itself.
  Selection(Tensor<T> t) : node_(std::make_shared<detail::LeafNode<T>>(std::move(t))) {}

  /// Wraps a node (used by the composite constructors).
  /// @param node the root
  explicit Selection(detail::NodePtr<T> node) : node_(std::move(node)) {}

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
  [[nodiscard]] T at(IndexSpan index) const {
    const Index extents = shape();
    if (index.size() != extents.size()) {
      detail::fail<IndexError>("at", "index ", to_string(index), " has ", index.size(),
                               " entries for a selection of rank ", extents.size());
    }
    Index g(index);
    for (std::size_t k = 0; k < g.size(); ++k) {
      if (g[k] < -extents[k] || g[k] >= extents[k]) {
        detail::fail<IndexError>("at", "index ", to_string(index), " is out of bounds on axis ", k,
                                 " (shape ", to_string(extents), ")");
      }
      g[k] = g[k] < 0 ? g[k] + extents[k] : g[k];
    }
    return node_->at(g);
  }

  /// A dense, row-major tensor of the selection's values.
  /// @return the tensor
  [[nodiscard]] Tensor<T> materialize() const {
    Tensor<T> out(shape());
    node_->materialize_into(out);
    return out;
  }

  /// Writes the selection's values into a tensor view of the same shape (evaluated apart
  /// first when the view shares a buffer with one of the selection's sources).
  /// @param dst a writable view
  /// @throws ShapeError when the shapes differ; LayoutError when dst cannot be written
  void assign_to(Tensor<T>& dst) const {
    if (dst.shape() != shape()) {
      detail::fail<ShapeError>("assign_to", "the view's shape ", to_string(dst.shape()),
                               " is not the selection's ", to_string(shape()));
    }
    if (dst.dims().is_broadcast() || !dst.buffer().writable()) {
      detail::fail<LayoutError>("assign_to",
                                "the view cannot be written (a broadcast view or "
                                "a read-only buffer)");
    }
    if (node_->reads(dst.buffer())) {
      // The destination is one of the sources: evaluate apart first, as NumPy buffers overlaps.
      dst.assign(materialize());
      return;
    }
    node_->materialize_into(dst);
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
  [[nodiscard]] Selection select(std::initializer_list<Selector> selectors) const {
    return affine([&](const auto& d) { return d.select(selectors); });
  }
  /// @copydoc Dimensions::select(std::span<const Selector>) const
  [[nodiscard]] Selection select(std::span<const Selector> selectors) const {
    return affine([&](const auto& d) { return d.select(selectors); });
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
  [[nodiscard]] Selection reverse(IndexSpan axes) const {
    return affine([&](const auto& d) { return d.reverse(axes); });
  }
  /// @copydoc Dimensions::rotate(index_t, index_t) const
  [[nodiscard]] Selection rotate(index_t shift, index_t axis) const {
    return affine([&](const auto& d) { return d.rotate(shift, axis); });
  }
  /// @copydoc Dimensions::broadcast(IndexSpan) const
  [[nodiscard]] Selection broadcast(IndexSpan shape) const {
    return affine([&](const auto& d) { return d.broadcast(shape); });
  }
  /// @copydoc Dimensions::squeeze(IndexSpan) const
  [[nodiscard]] Selection squeeze(IndexSpan axes) const {
    return affine([&](const auto& d) { return d.squeeze(axes); });
  }
  /// @copydoc Dimensions::unsqueeze(index_t) const
  [[nodiscard]] Selection unsqueeze(index_t axis) const {
    return affine([&](const auto& d) { return d.unsqueeze(axis); });
  }
  /// @copydoc Dimensions::reshape(IndexSpan) const
  [[nodiscard]] Selection reshape(IndexSpan shape) const {
    return affine([&](const auto& d) { return d.reshape(shape); });
  }

  /// The root node (for the composite constructors).
  /// @return the node
  [[nodiscard]] const detail::NodePtr<T>& node() const noexcept { return node_; }

 private:
  /// Applies a Dimensions view operation: to a leaf's tensor (fused into its map), to an
  /// affine node's map (fused), or to the row-major map of any other node.
  template <class Op>
  [[nodiscard]] Selection affine(Op&& op) const {
    if (const Tensor<T>* t = node_->leaf()) {
      return Selection(Tensor<T>(t->buffer(), op(t->dims())));
    }
    if (const auto* a = dynamic_cast<const detail::AffineNode<T>*>(node_.get())) {
      return Selection(std::make_shared<detail::AffineNode<T>>(a->child(), op(a->map())));
    }
    return Selection(
        std::make_shared<detail::AffineNode<T>>(node_, op(Dimensions(node_->shape()))));
  }

  detail::NodePtr<T> node_;
};

}  // namespace strata
