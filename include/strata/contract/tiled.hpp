/// @file
/// Contractions of tiled tensors, tile by tile: `strata::einsum("ij,jk->ik", a, b)` with
/// LayoutTensor operands gives a LayoutTensor, and `einsum_into` writes a tiled or a dense
/// destination. The index space is cut where any operand's (or the destination's) tiles
/// end, so each block of the contraction reads one tile of every operand; each block is an
/// ordinary einsum of tile views (on BLIS, without copies where the tiles' strides allow), the
/// blocks of the result run in parallel, and the blocks along the summed labels accumulate
/// into them (BLAS's beta = 1).
#pragma once

#include "strata/contract/einsum.hpp"
#include "strata/tensor/layout_tensor.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

namespace detail {

/// A contraction operand (T const) or destination (T writable) seen as blocks: a dense view
/// (uncut), or a LayoutTensor or BlockSparseTensor cut where its tiles end. block() gives the
/// view of a box that lies inside one tile (a stored one, for a block-sparse tensor).
template <class T>
class Blocked {
 public:
  using R = std::remove_const_t<T>;  ///< the element type

  /// A dense view, uncut.
  /// @param whole the view
  explicit Blocked(Tensor<T> whole) : whole_(std::move(whole)), shape_(whole_.shape()) {}
  /// A tiled tensor (its buffer shared), cut at its tiles.
  /// @param tiled the tensor
  explicit Blocked(LayoutTensor<R> tiled) : tiled_(std::move(tiled)), shape_(tiled_->shape()) {}
  /// A block-sparse tensor (its tiles shared), cut at its tiles.
  /// @param sparse the tensor
  explicit Blocked(BlockSparseTensor<R> sparse)
      : sparse_(std::move(sparse)), shape_(sparse_->shape()) {}

  /// The logical shape.
  /// @return the extents
  [[nodiscard]] const Index& shape() const noexcept { return shape_; }
  /// The tile extent along @p axis (0 when the operand is not cut there).
  /// @param axis an axis
  /// @return the extent
  [[nodiscard]] index_t tile(std::size_t axis) const noexcept {
    const Layout* layout = tiled_ ? &tiled_->layout() : sparse_ ? &sparse_->layout() : nullptr;
    if (layout == nullptr || layout->kind() != Layout::Kind::tiled) {
      return 0;
    }
    return layout->tile()[axis];
  }
  /// Whether this is a block-sparse tensor (whose tiles may be absent).
  /// @return true for one
  [[nodiscard]] bool sparse() const noexcept { return sparse_.has_value(); }
  /// The block-sparse tensor's threshold (0 for any other).
  /// @return the threshold
  [[nodiscard]] double threshold() const noexcept { return sparse_ ? sparse_->threshold() : 0.0; }
  /// Whether the tile holding index @p lo is stored (always, unless block-sparse).
  /// @param lo an index inside the shape
  /// @return true when stored
  [[nodiscard]] bool stored(const Index& lo) const {
    return !sparse_ || sparse_->is_stored(tile_holding(lo));
  }
  /// Stores the tile holding index @p lo of a block-sparse destination (zeros when new).
  /// @param lo an index inside the shape
  void store(const Index& lo) const {
    if (sparse_) {
      BlockSparseTensor<R>(*sparse_).insert(tile_holding(lo));
    }
  }
  /// Appends the places where a tile ends along @p axis (inside (0, extent)).
  /// @param axis an axis
  /// @param cuts the list to extend
  void add_cuts(std::size_t axis, std::vector<index_t>& cuts) const {
    if (const index_t t = tile(axis); t > 0) {
      for (index_t c = t; c < shape_[axis]; c += t) {
        cuts.push_back(c);
      }
    }
  }
  /// The dense view, when this is one.
  /// @return it, or nullptr for a tiled or block-sparse tensor
  [[nodiscard]] const Tensor<T>* dense() const noexcept {
    return tiled_ || sparse_ ? nullptr : &whole_;
  }
  /// The tiled tensor, when this is one.
  /// @return it, or nullptr
  [[nodiscard]] const LayoutTensor<R>* layout_tensor() const noexcept {
    return tiled_ ? &*tiled_ : nullptr;
  }
  /// The block-sparse tensor, when this is one.
  /// @return it, or nullptr
  [[nodiscard]] const BlockSparseTensor<R>* block_sparse() const noexcept {
    return sparse_ ? &*sparse_ : nullptr;
  }
  /// The memory of the values (to find an operand that shares the destination's).
  /// @return the buffer's footprint (a block-sparse tensor's: its tile store)
  [[nodiscard]] Footprint footprint() const noexcept {
    return tiled_    ? tiled_->buffer().footprint()
           : sparse_ ? Footprint{sparse_->identity()}
                     : whole_.buffer().footprint();
  }
  /// Reads from a copy of the values from now on (an operand that shares the destination's
  /// storage): dense, or block-sparse with its own tiles.
  void read_from_copy() {
    if (sparse_) {
      sparse_ = sparse_->copy();
      return;
    }
    whole_.rebind(tiled_ ? tiled_->to_dense(seq) : Tensor<R>(whole_.copy(seq)));
    tiled_.reset();
  }

  /// The view of the box `[lo, lo + extent)`, which lies inside one tile.
  /// @param lo the box's first index
  /// @param extent the box's extents
  /// @return the view
  [[nodiscard]] Tensor<T> block(const Index& lo, const Index& extent) const {
    std::vector<Selector> box;
    box.reserve(lo.size());
    if (std::find(extent.begin(), extent.end(), index_t{0}) != extent.end()) {
      return Tensor<T>(Tensor<R>(extent));  // no elements (a tiled operand may have no tiles)
    }
    if (!tiled_ && !sparse_) {
      for (std::size_t k = 0; k < lo.size(); ++k) {
        box.emplace_back(Range{lo[k], lo[k] + extent[k]});
      }
      Tensor<T> whole = whole_;  // a view of T (select on a const tensor is read-only)
      return whole.select(box);
    }
    for (std::size_t k = 0; k < lo.size(); ++k) {
      const index_t t = tile(k);
      const index_t from = t > 0 ? lo[k] % t : lo[k];
      box.emplace_back(Range{from, from + extent[k]});
    }
    const index_t p = tile_holding(lo);
    if (sparse_) {
      Tensor<T> piece(BlockSparseTensor<R>(*sparse_).piece(p));
      return piece.select(box);
    }
    Tensor<T> piece(tiled_->buffer(), tiled_->layout().piece_dimensions(p));
    return piece.select(box);
  }

 private:
  [[nodiscard]] index_t tile_holding(const Index& lo) const {
    const Layout& layout = tiled_ ? tiled_->layout() : sparse_->layout();
    if (layout.kind() != Layout::Kind::tiled) {
      return 0;
    }
    Index at(lo.size(), 0);
    for (std::size_t k = 0; k < lo.size(); ++k) {
      at[k] = lo[k] / tile(k);
    }
    return layout.piece_at(at);
  }

  Tensor<T> whole_;
  std::optional<LayoutTensor<R>> tiled_;
  std::optional<BlockSparseTensor<R>> sparse_;
  Index shape_;
};

/// A LayoutTensor of another element type converted, or one of R copied (same layout).
template <class R, class T>
LayoutTensor<R> converted_tiles(const LayoutTensor<T>& x) {
  auto out = LayoutTensor<R>::for_overwrite(x.layout());  // every piece written below
  for (index_t p = 0; p < x.n_pieces(); ++p) {
    assign_expression(seq, out.piece(p), astype<R>(x.piece(p)));
  }
  return out;
}

/// A BlockSparseTensor of another element type converted, or one of R copied (same tiles
/// stored, same threshold).
template <class R, class T>
BlockSparseTensor<R> converted_tiles(const BlockSparseTensor<T>& x) {
  BlockSparseTensor<R> out(x.layout(), x.threshold());
  for (const index_t p : x.stored()) {
    assign_expression(seq, out.insert(p), astype<R>(x.piece(p)));
  }
  return out;
}

/// A blocked operand read-only and as element type R: the same tensor when its element type is
/// R, a converted copy otherwise.
template <class R, class T>
Blocked<const R> blocked_as(const Blocked<T>& x) {
  using E = std::remove_const_t<T>;
  if (const auto* tiled = x.layout_tensor()) {
    if constexpr (std::is_same_v<E, R>) {
      return Blocked<const R>(*tiled);
    } else {
      return Blocked<const R>(converted_tiles<R>(*tiled));
    }
  }
  if (const auto* sparse = x.block_sparse()) {
    if constexpr (std::is_same_v<E, R>) {
      return Blocked<const R>(*sparse);
    } else {
      return Blocked<const R>(converted_tiles<R>(*sparse));
    }
  }
  if constexpr (std::is_same_v<E, R>) {
    return Blocked<const R>(Tensor<const R>(*x.dense()));
  } else {
    return Blocked<const R>(Tensor<const R>(evaluate<R>(astype<R>(*x.dense()))));
  }
}

/// An operand of a tiled contraction: a LayoutTensor or BlockSparseTensor as its tiles
/// (converted to R when its element type differs), anything else as one dense view
/// (evaluated when an expression).
template <class R, class X>
Blocked<const R> as_blocked(const X& x) {
  if constexpr (is_layout_tensor_v<X> || is_block_sparse_v<X>) {
    if constexpr (std::is_same_v<typename X::value_type, R>) {
      return Blocked<const R>(x);
    } else {
      return Blocked<const R>(converted_tiles<R>(x));
    }
  } else {
    return Blocked<const R>(as_operand<R>(x));
  }
}

/// The tile of each label: that of the first operand cut along it (0: none is).
template <class R>
Index label_tiles(const EinsumSpec& spec, const Index& extents,
                  const std::vector<Blocked<const R>>& operands) {
  Index tiles(spec.names.size(), 0);
  for (std::size_t k = 0; k < operands.size(); ++k) {
    for (std::size_t a = 0; a < spec.inputs[k].size(); ++a) {
      const auto l = static_cast<std::size_t>(spec.inputs[k][a]);
      if (tiles[l] == 0 && operands[k].shape()[a] == extents[l]) {
        tiles[l] = operands[k].tile(a);
      }
    }
  }
  return tiles;
}

/// The layout of a result over @p labels: tiled with each label's tile (a label no operand
/// cuts is one tile), row-major when no label is cut.
inline Layout result_layout(const std::vector<int>& labels, const Index& extents,
                            const Index& tiles) {
  Index shape;
  Index tile;
  bool cut = false;
  for (const int l : labels) {
    const auto u = static_cast<std::size_t>(l);
    shape.push_back(extents[u]);
    tile.push_back(tiles[u] > 0 ? tiles[u] : std::max<index_t>(extents[u], 1));
    cut = cut || tiles[u] > 0;
  }
  return cut ? Layout::tiled(Smooth(shape), tile) : Layout::row_major(Smooth(shape));
}

/// `target = beta * target` (beta 0: target is not read, as BLAS).
template <class R, ExecutionPolicy P>
void scale_by(const P& policy, Tensor<R> target, R beta) {
  if (beta == R{0}) {
    target.fill(R{0}, policy);
  } else if (beta != R{1}) {
    assign_expression(policy, target, target * beta);
  }
}

/// A block of a contraction: each label's first index, extent and interval number.
struct Block {
  Index lo;      ///< each label's first index
  Index extent;  ///< each label's extent in the block
  Index at;      ///< each label's interval number
};

/// The blocks of a contraction: each label's range cut at the given places (sorted, from 0
/// to the extent); blocks of a group of labels are numbered by an odometer over them.
class BlockGrid {
 public:
  /// The grid.
  /// @param extents each label's extent
  /// @param cuts each label's boundaries, 0 and the extent included, ascending
  BlockGrid(const Index& extents, std::vector<std::vector<index_t>> cuts)
      : extents_(extents), cuts_(std::move(cuts)) {}

  /// A block with no label placed.
  /// @return the block
  [[nodiscard]] Block block() const {
    return {Index(extents_.size(), 0), Index(extents_.size(), 0), Index(extents_.size(), 0)};
  }
  /// The number of blocks over a group of labels.
  /// @param group the labels
  /// @return the count
  [[nodiscard]] index_t count(const std::vector<int>& group) const {
    index_t n = 1;
    for (const int l : group) {
      n *= intervals(l);
    }
    return n;
  }
  /// The number of intervals of label @p l.
  /// @param l a label
  /// @return the count
  [[nodiscard]] index_t intervals(int l) const {
    return static_cast<index_t>(cuts_[static_cast<std::size_t>(l)].size()) - 1;
  }
  /// Places the labels of @p group at block number @p b.
  /// @param group the labels
  /// @param b the block number over them
  /// @param block the block to update
  void place(const std::vector<int>& group, index_t b, Block& block) const {
    for (auto it = group.rbegin(); it != group.rend(); ++it) {
      const auto l = static_cast<std::size_t>(*it);
      const index_t n = intervals(*it);
      const auto i = static_cast<std::size_t>(b % n);
      b /= n;
      block.lo[l] = cuts_[l][i];
      block.extent[l] = cuts_[l][i + 1] - cuts_[l][i];
      block.at[l] = static_cast<index_t>(i);
    }
  }
  /// The box of a block in an operand (or the destination) over labels @p own: an axis of
  /// extent 1 where the label's is larger broadcasts (its box is that one index).
  /// @param x the operand
  /// @param own its labels, one per axis
  /// @param block the block
  /// @param from the box's corner
  /// @param shape the box's extents
  template <class X>
  void box(const X& x, const std::vector<int>& own, const Block& block, Index& from,
           Index& shape) const {
    from.clear();
    shape.clear();
    for (std::size_t a = 0; a < own.size(); ++a) {
      const auto l = static_cast<std::size_t>(own[a]);
      const bool broadcast = x.shape()[a] != extents_[l];
      from.push_back(broadcast ? 0 : block.lo[l]);
      shape.push_back(broadcast ? x.shape()[a] : block.extent[l]);
    }
  }

 private:
  const Index& extents_;
  std::vector<std::vector<index_t>> cuts_;
};

/// Which products of blocks a contraction runs: all of them unless an operand is block-sparse;
/// then none with a tile that is not stored, nor any whose norm bound is at most the largest
/// threshold of the block-sparse operands.
///
/// The bound of a product of blocks is the product of their Frobenius norms, times sqrt(n) for
/// each summed label (of n indices in the block) that only one operand carries (a trace, or a
/// sum over one operand's axis: `|sum_j a_j| <= sqrt(n) |a|`): by Cauchy-Schwarz it bounds the
/// Frobenius norm of the product's contribution to its output block, so each product skipped
/// changes that block by at most the threshold.
template <class R>
class Screen {
 public:
  /// Reads the norm of every block of every operand (when one is block-sparse).
  /// @param policy seq or par (parallel over each operand's blocks)
  /// @param spec the contraction
  /// @param extents each label's extent
  /// @param operands the operands
  /// @param grid the blocks
  template <ExecutionPolicy P>
  Screen(const P& policy, const EinsumSpec& spec, const Index& extents,
         const std::vector<Blocked<const R>>& operands, const BlockGrid& grid)
      : grid_(grid) {
    for (const auto& x : operands) {
      active_ = active_ || x.sparse();
      threshold_ = std::max(threshold_, x.threshold());
    }
    if (!active_) {
      return;
    }
    std::vector<int> carriers(spec.names.size(), 0);
    own_.resize(operands.size());
    norms_.resize(operands.size());
    for (std::size_t k = 0; k < operands.size(); ++k) {
      const std::vector<int>& in = spec.inputs[k];
      for (std::size_t a = 0; a < in.size(); ++a) {
        const auto l = static_cast<std::size_t>(in[a]);
        if (std::find(own_[k].begin(), own_[k].end(), in[a]) != own_[k].end()) {
          continue;  // a repeated label (a diagonal) counted once
        }
        own_[k].push_back(in[a]);
        carriers[l] += operands[k].shape()[a] == extents[l] && extents[l] != 1 ? 1 : 0;
      }
      // The norm of each block of the operand (an odometer over its own labels' intervals),
      // -1 where its tile is not stored.
      const index_t n = grid.count(own_[k]);
      norms_[k].assign(static_cast<std::size_t>(n), -1.0);
      parallel::for_each_part(policy, n, [&](index_t lo, index_t hi) {
        Block block = grid.block();
        Index from;
        Index shape;
        for (index_t b = lo; b < hi; ++b) {
          grid.place(own_[k], b, block);
          grid.box(operands[k], in, block, from, shape);
          if (std::find(shape.begin(), shape.end(), index_t{0}) != shape.end()) {
            norms_[k][static_cast<std::size_t>(b)] = 0;
          } else if (operands[k].stored(from)) {
            norms_[k][static_cast<std::size_t>(b)] = frobenius_norm(operands[k].block(from, shape));
          }
        }
      });
    }
    for (std::size_t l = 0; l < spec.names.size(); ++l) {
      if (std::find(spec.output.begin(), spec.output.end(), static_cast<int>(l)) ==
              spec.output.end() &&
          carriers[l] < 2) {
        loose_.push_back(static_cast<int>(l));
      }
    }
  }

  /// Whether the product of the operands' parts of @p block runs.
  /// @param block a block with every label placed
  /// @return false when it is skipped
  [[nodiscard]] bool runs(const Block& block) const {
    if (!active_) {
      return true;
    }
    double bound = 1;
    for (std::size_t k = 0; k < norms_.size(); ++k) {
      index_t b = 0;
      for (const int l : own_[k]) {
        b = b * grid_.intervals(l) + block.at[static_cast<std::size_t>(l)];
      }
      const double norm = norms_[k][static_cast<std::size_t>(b)];
      if (norm < 0) {
        return false;  // a tile not stored: zeros
      }
      bound *= norm;
    }
    for (const int l : loose_) {  // a label no operand carries has extent 1: factor 1
      bound *= std::sqrt(static_cast<double>(block.extent[static_cast<std::size_t>(l)]));
    }
    return !(bound <= threshold_);  // a NaN or infinite norm runs (NaN propagates as dense)
  }

 private:
  const BlockGrid& grid_;
  bool active_ = false;
  double threshold_ = 0;
  std::vector<std::vector<int>> own_;       // each operand's distinct labels
  std::vector<std::vector<double>> norms_;  // each operand's block norms
  std::vector<int> loose_;                  // summed labels on < 2 operands
};

/// `out = alpha * einsum(spec, operands) + beta * out`, block by block: each label's range is
/// cut where a tile of an operand or of @p out ends; every block of the output (in parallel
/// when there are at least as many as threads, each block's products then on one thread)
/// sums the einsums of the operands' blocks along the labels summed (beta 1 after the first).
/// With a block-sparse operand, the products the Screen skips are left out; a block-sparse
/// destination stores the tiles that a product writes.
template <class R, ExecutionPolicy P>
void contract_blocks(const P& policy, const EinsumSpec& spec, const Index& extents,
                     const std::vector<Blocked<const R>>& operands, const Blocked<R>& out, R alpha,
                     R beta) {
  const std::size_t labels = spec.names.size();
  std::vector<std::vector<index_t>> cuts(labels);
  const auto cut_by = [&](const auto& x, const std::vector<int>& own) {
    for (std::size_t a = 0; a < own.size(); ++a) {
      const auto l = static_cast<std::size_t>(own[a]);
      if (x.shape()[a] == extents[l]) {
        x.add_cuts(a, cuts[l]);
      }
    }
  };
  for (std::size_t k = 0; k < operands.size(); ++k) {
    cut_by(operands[k], spec.inputs[k]);
  }
  cut_by(out, spec.output);
  std::vector<int> summed;
  for (std::size_t l = 0; l < labels; ++l) {
    const bool kept =
        std::find(spec.output.begin(), spec.output.end(), static_cast<int>(l)) != spec.output.end();
    auto& c = cuts[l];
    c.push_back(0);
    c.push_back(extents[l]);
    std::sort(c.begin(), c.end());
    // A label of extent 0 keeps one empty block: a summed one still writes the output (beta
    // times what it held).
    if (extents[l] > 0) {
      c.erase(std::unique(c.begin(), c.end()), c.end());
    }
    if (!kept) {
      summed.push_back(static_cast<int>(l));
    }
  }
  const BlockGrid grid(extents, std::move(cuts));
  const index_t out_blocks = grid.count(spec.output);
  const index_t sum_blocks = grid.count(summed);
  const Screen<R> screen(policy, spec, extents, operands, grid);
  // A block-sparse destination stores, before anything runs, each tile a product writes.
  if (out.sparse()) {
    Block block = grid.block();
    Index from;
    Index shape;
    for (index_t ob = 0; ob < out_blocks; ++ob) {
      grid.place(spec.output, ob, block);
      grid.box(out, spec.output, block, from, shape);
      if (std::find(shape.begin(), shape.end(), index_t{0}) != shape.end()) {
        continue;
      }
      for (index_t sb = 0; sb < sum_blocks; ++sb) {
        grid.place(summed, sb, block);
        if (screen.runs(block)) {
          out.store(from);
          break;
        }
      }
    }
  }
  // One output block: its sums, each an einsum of blocks planned once per block shape (the
  // products the screen skips left out; when none runs, out = beta out).
  const auto run = [&](const auto& inner, index_t ob,
                       std::map<std::vector<index_t>, ContractionPlan>& plans) {
    Block block = grid.block();
    grid.place(spec.output, ob, block);
    Index from;
    Index shape;
    grid.box(out, spec.output, block, from, shape);
    if (std::find(shape.begin(), shape.end(), index_t{0}) == shape.end() && !out.stored(from)) {
      return;  // a block-sparse destination's tile that no product writes: zeros
    }
    const Tensor<R> target = out.block(from, shape);
    std::vector<Tensor<const R>> views(operands.size());
    std::vector<Index> shapes(operands.size());
    bool first = true;
    for (index_t sb = 0; sb < sum_blocks; ++sb) {
      grid.place(summed, sb, block);
      if (!screen.runs(block)) {
        continue;
      }
      for (std::size_t k = 0; k < operands.size(); ++k) {
        grid.box(operands[k], spec.inputs[k], block, from, shapes[k]);
        views[k].rebind(operands[k].block(from, shapes[k]));
      }
      std::vector<index_t> key(block.extent.begin(), block.extent.end());
      auto it = plans.find(key);
      if (it == plans.end()) {
        it = plans.emplace(std::move(key), ContractionPlan::make(spec, shapes)).first;
      }
      ContractionEngine<R>::run_plan(inner, it->second, views, target, alpha, first ? beta : R{1});
      first = false;
    }
    if (first) {
      scale_by(inner, target, beta);
    }
  };
  const int threads = threads_of(policy);
  if (threads > 1 && out_blocks >= threads) {
    parallel::for_each_part(Parallel{1, threads}, out_blocks, [&](index_t lo, index_t hi) {
      std::map<std::vector<index_t>, ContractionPlan> plans;
      for (index_t ob = lo; ob < hi; ++ob) {
        run(seq, ob, plans);
      }
    });
  } else {
    std::map<std::vector<index_t>, ContractionPlan> plans;
    for (index_t ob = 0; ob < out_blocks; ++ob) {
      run(policy, ob, plans);
    }
  }
}

/// Whether any operand is block-sparse.
template <class R>
bool any_sparse(const std::vector<Blocked<const R>>& operands) {
  return std::any_of(operands.begin(), operands.end(), [](const auto& x) { return x.sparse(); });
}
/// The largest threshold of the block-sparse operands (0 when none is).
template <class R>
double largest_threshold(const std::vector<Blocked<const R>>& operands) {
  double t = 0;
  for (const auto& x : operands) {
    t = std::max(t, x.threshold());
  }
  return t;
}

/// Runs a plan over blocked operands into @p out: one or two operands block by block, more
/// pairwise in the plan's order, each intermediate a tiled tensor (block-sparse when an
/// operand is).
template <class R, ExecutionPolicy P>
void run_tiled(const P& policy, const ContractionPlan& plan, std::vector<Blocked<const R>> operands,
               const Blocked<R>& out, R alpha, R beta) {
  const EinsumSpec& spec = plan.spec();
  const Index& extents = plan.extents();
  // An operand that shares the destination's storage is read from a copy (as NumPy).
  for (auto& x : operands) {
    if (x.footprint().overlaps(out.footprint())) {
      x.read_from_copy();
    }
  }
  if (operands.size() <= 2) {
    contract_blocks<R>(policy, spec, extents, operands, out, alpha, beta);
    return;
  }
  const Index tiles = label_tiles(spec, extents, operands);
  const bool sparse = any_sparse(operands);
  const double threshold = largest_threshold(operands);
  std::vector<std::vector<int>> labels = spec.inputs;
  const auto& steps = plan.steps();
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const ContractionStep& step = steps[s];
    const auto left = static_cast<std::size_t>(step.left);
    const auto right = static_cast<std::size_t>(step.right);
    const bool last = s + 1 == steps.size();
    // The last step writes the output: its labels in the output's order.
    EinsumSpec pair{{labels[left], labels[right]}, last ? spec.output : step.labels, spec.names};
    const std::vector<Blocked<const R>> two{operands[left], operands[right]};
    if (last) {
      contract_blocks<R>(policy, pair, extents, two, out, alpha, beta);
      return;
    }
    // The intermediate's extents are the pair's own: a label both operands broadcast (extent
    // 1 where a later operand's is larger) stays 1, and broadcasts in the later step.
    Index own(extents.size(), 1);
    for (const std::size_t k : {left, right}) {
      for (std::size_t a = 0; a < labels[k].size(); ++a) {
        if (const index_t e = operands[k].shape()[a]; e != 1) {
          own[static_cast<std::size_t>(labels[k][a])] = e;
        }
      }
    }
    const Layout layout = result_layout(step.labels, own, tiles);
    if (sparse) {  // block-sparse intermediates: the tiles no product writes are not stored
      BlockSparseTensor<R> result(layout, threshold);
      contract_blocks<R>(policy, pair, extents, two, Blocked<R>(result), R{1}, R{0});
      operands.push_back(Blocked<const R>(result));
    } else {  // written whole: every block of the result is written with beta 0 first
      auto result = LayoutTensor<R>::for_overwrite(layout);
      contract_blocks<R>(policy, pair, extents, two, Blocked<R>(result), R{1}, R{0});
      operands.push_back(Blocked<const R>(result));
    }
    labels.push_back(step.labels);
  }
}

/// The compiled part of tiled contraction for element type @p R: run_tiled() under each policy,
/// compiled by the library for float, double, std::int32_t and std::int64_t
/// (src/contract/tiled.cpp), as ContractionEngine. Every caller of run_tiled goes through it.
template <class R>
struct TiledEngine {
  /// run_tiled() on the calling thread.
  static void run(const Sequential& policy, const ContractionPlan& plan,
                  std::vector<Blocked<const R>> operands, const Blocked<R>& out, R alpha, R beta);
  /// run_tiled() on OpenMP threads.
  static void run(const Parallel& policy, const ContractionPlan& plan,
                  std::vector<Blocked<const R>> operands, const Blocked<R>& out, R alpha, R beta);
};

// Out of the class, so not inline (see ContractionEngine).
/// @cond INTERNAL
template <class R>
void TiledEngine<R>::run(const Sequential& policy, const ContractionPlan& plan,
                         std::vector<Blocked<const R>> operands, const Blocked<R>& out, R alpha,
                         R beta) {
  run_tiled<R>(policy, plan, std::move(operands), out, alpha, beta);
}
template <class R>
void TiledEngine<R>::run(const Parallel& policy, const ContractionPlan& plan,
                         std::vector<Blocked<const R>> operands, const Blocked<R>& out, R alpha,
                         R beta) {
  run_tiled<R>(policy, plan, std::move(operands), out, alpha, beta);
}

extern template struct TiledEngine<float>;
extern template struct TiledEngine<double>;
extern template struct TiledEngine<std::int32_t>;
extern template struct TiledEngine<std::int64_t>;
/// @endcond

/// The element type of a contraction with tiled operands (the operands' common type).
template <class X>
struct operand_value {
  using type = typename node_t<X>::value_type;  ///< an expression's
};
/// A LayoutTensor's element type.
template <class T>
struct operand_value<LayoutTensor<T>> {
  using type = T;  ///< the tensor's
};
/// A BlockSparseTensor's element type.
template <class T>
struct operand_value<BlockSparseTensor<T>> {
  using type = T;  ///< the tensor's
};
/// The common element type of operands, tiled or not (the type rule of contraction_t).
template <class... Ops>
using tiled_contraction_t = typename combined_all<typename operand_value<Ops>::type...>::type;

/// Plans and runs a tiled contraction into @p out, after checking its shape.
template <class R, ExecutionPolicy P, class... Ops>
void einsum_tiled(const P& policy, const Blocked<R>& out, const Index& out_shape, Scaling scaling,
                  std::string_view spec, const Ops&... operands) {
  const ContractionPlan plan = plan_of(spec, operands...);
  if (out_shape != plan.shape()) {
    fail<ShapeError>("einsum_into", "the output has shape ", to_string(out_shape), " but ",
                     plan.spec().to_string(), " makes ", to_string(plan.shape()));
  }
  TiledEngine<R>::run(policy, plan, std::vector<Blocked<const R>>{as_blocked<R>(operands)...}, out,
                      scale_as<R>(scaling.alpha, "einsum_into", "alpha"),
                      scale_as<R>(scaling.beta, "einsum_into", "beta"));
}

}  // namespace detail

/// Contracts operands of which at least one is tiled (a LayoutTensor or BlockSparseTensor),
/// tile by tile, into a new LayoutTensor (a BlockSparseTensor when an operand is one): NumPy's
/// einsum language and values, as einsum() on dense tensors.
///
/// Each label's range is cut where a tile of any operand ends, so each block of the
/// contraction reads one tile of every operand: a product of tiled matrices is one GEMM per
/// triple of tiles, handed the tiles as views. The result's blocks run in parallel (each
/// block's products on one thread), the blocks along a summed label accumulate. The result is
/// tiled like its operands (each label takes the tile of the first operand cut along it; a
/// label no operand cuts is one tile), row-major when no operand is tiled. Three or more
/// operands are contracted pairwise in the plan's order, each intermediate tiled the same way.
///
/// With a block-sparse operand, a product of blocks with a tile that is not stored is skipped,
/// and so is one whose norm bound (the product of the blocks' Frobenius norms, see
/// detail::Screen) is at most the largest threshold of the block-sparse operands: each skipped
/// product changes its block of the result by at most that much in Frobenius norm (threshold
/// 0: exact). The result is block-sparse with that threshold; it stores the tiles that at
/// least one product writes.
///
/// @code
/// auto tiles = strata::Layout::tiled(strata::Smooth{4096, 4096}, {256, 256});
/// auto a = strata::LayoutTensor<double>::from_dense(dense_a, tiles);
/// auto b = strata::LayoutTensor<double>::from_dense(dense_b, tiles);
/// strata::LayoutTensor<double> c = strata::einsum("ij,jk->ik", a, b);   // tiled 256 x 256
/// auto s = strata::BlockSparseTensor<double>::from_dense(dense_a, tiles);  // zero tiles out
/// strata::BlockSparseTensor<double> d = strata::einsum("ij,jk->ik", s, b);
/// @endcode
/// @param policy seq or par
/// @param spec NumPy's einsum subscripts
/// @param operands LayoutTensors, BlockSparseTensors, tensors, views or expressions
/// @return the result, tiled or block-sparse
/// @throws ShapeError as einsum()
template <ExecutionPolicy P, class... Ops>
requires(detail::any_tiled_v<Ops...> &&
         !detail::any_jagged_v<Ops...>) auto einsum(const P& policy, std::string_view spec,
                                                    const Ops&... operands) {
  using R = detail::tiled_contraction_t<Ops...>;
  const ContractionPlan plan = detail::plan_of(spec, operands...);
  std::vector<detail::Blocked<const R>> blocked{detail::as_blocked<R>(operands)...};
  Layout layout = detail::result_layout(plan.spec().output, plan.extents(),
                                        detail::label_tiles(plan.spec(), plan.extents(), blocked));
  if constexpr (detail::any_block_sparse_v<Ops...>) {
    BlockSparseTensor<R> out(std::move(layout), detail::largest_threshold(blocked));
    detail::TiledEngine<R>::run(policy, plan, std::move(blocked), detail::Blocked<R>(out), R{1},
                                R{0});
    return out;
  } else {
    // Written whole: every block of the result is written with beta 0 first.
    auto out = LayoutTensor<R>::for_overwrite(std::move(layout));
    detail::TiledEngine<R>::run(policy, plan, std::move(blocked), detail::Blocked<R>(out), R{1},
                                R{0});
    return out;
  }
}
/// Contracts operands of which at least one is tiled, tile by tile, into a new LayoutTensor
/// (see the policy form).
/// @param spec NumPy's einsum subscripts
/// @param operands LayoutTensors, tensors, views or expressions
/// @return the result, tiled
/// @throws ShapeError as einsum()
template <class... Ops>
requires(detail::any_tiled_v<Ops...> &&
         !detail::any_jagged_v<Ops...>) auto einsum(std::string_view spec, const Ops&... operands) {
  return einsum(par, spec, operands...);
}

/// Writes a contraction with tiled operands into a dense view, block by block:
/// `out = alpha * einsum(...) + beta * out`.
/// @param policy seq or par
/// @param out the destination view (writable, of the result's shape)
/// @param scaling alpha and beta
/// @param spec NumPy's einsum subscripts
/// @param operands LayoutTensors, tensors, views or expressions
/// @throws ShapeError as einsum(), or when out's shape is not the result's; LayoutError when
///         out cannot be written
template <ExecutionPolicy P, class T, class... Ops>
requires(!std::is_const_v<T> && detail::any_tiled_v<Ops...> &&
         !detail::any_jagged_v<Ops...>) void einsum_into(const P& policy, const Tensor<T>& out,
                                                         Scaling scaling, std::string_view spec,
                                                         const Ops&... operands) {
  if (!out.is_writable() || (out.size() > 0 && out.buffer().data() == nullptr)) {
    detail::fail<LayoutError>("einsum_into", "the output ", out.dims(),
                              " cannot be written block by block (several indices share an "
                              "address, or it has no array)");
  }
  detail::einsum_tiled<T>(policy, detail::Blocked<T>(out), out.shape(), scaling, spec, operands...);
}

/// Writes a contraction into a tiled tensor, block by block (its tiles cut the blocks too):
/// `out = alpha * einsum(...) + beta * out`, converted to out's element type.
///
/// @code
/// strata::einsum_into(c, "ij,jk->ik", a, b);                             // c tiled
/// strata::einsum_into(c, strata::Scaling{1.0, 1.0}, "ij,jk->ik", a, b);  // c += a b
/// @endcode
/// @param policy seq or par
/// @param out the destination (of the result's shape)
/// @param scaling alpha and beta
/// @param spec NumPy's einsum subscripts
/// @param operands LayoutTensors, tensors, views or expressions
/// @throws ShapeError as einsum(), or when out's shape is not the result's
template <ExecutionPolicy P, class T, class... Ops>
void einsum_into(const P& policy, LayoutTensor<T>& out, Scaling scaling, std::string_view spec,
                 const Ops&... operands) {
  detail::einsum_tiled<T>(policy, detail::Blocked<T>(out), out.shape(), scaling, spec, operands...);
}
/// Writes a contraction into a tiled tensor (see the policy form).
/// @param out the destination (of the result's shape)
/// @param scaling alpha and beta
/// @param spec NumPy's einsum subscripts
/// @param operands LayoutTensors, tensors, views or expressions
/// @throws ShapeError as einsum(), or when out's shape is not the result's
template <class T, class... Ops>
void einsum_into(LayoutTensor<T>& out, Scaling scaling, std::string_view spec,
                 const Ops&... operands) {
  einsum_into(par, out, scaling, spec, operands...);
}
/// `out = einsum(spec, operands...)` into a tiled tensor (see the policy form).
/// @param out the destination (of the result's shape)
/// @param spec NumPy's einsum subscripts
/// @param operands LayoutTensors, tensors, views or expressions
/// @throws ShapeError as einsum(), or when out's shape is not the result's
template <class T, class... Ops>
void einsum_into(LayoutTensor<T>& out, std::string_view spec, const Ops&... operands) {
  einsum_into(par, out, Scaling{}, spec, operands...);
}

/// Writes a contraction into a block-sparse tensor, block by block (its tiles cut the blocks
/// too): `out = alpha * einsum(...) + beta * out`, converted to out's element type. The tiles
/// that a product writes are stored first (zeros when new); the others keep what they held,
/// times beta.
///
/// @code
/// strata::einsum_into(c, strata::Scaling{1.0, 1.0}, "ij,jk->ik", a, b);  // c += a b, sparse
/// @endcode
/// @param policy seq or par
/// @param out the destination (of the result's shape)
/// @param scaling alpha and beta
/// @param spec NumPy's einsum subscripts
/// @param operands LayoutTensors, BlockSparseTensors, tensors, views or expressions
/// @throws ShapeError as einsum(), or when out's shape is not the result's
template <ExecutionPolicy P, class T, class... Ops>
void einsum_into(const P& policy, BlockSparseTensor<T>& out, Scaling scaling, std::string_view spec,
                 const Ops&... operands) {
  detail::einsum_tiled<T>(policy, detail::Blocked<T>(out), out.shape(), scaling, spec, operands...);
}
/// Writes a contraction into a block-sparse tensor (see the policy form).
/// @param out the destination (of the result's shape)
/// @param scaling alpha and beta
/// @param spec NumPy's einsum subscripts
/// @param operands LayoutTensors, BlockSparseTensors, tensors, views or expressions
/// @throws ShapeError as einsum(), or when out's shape is not the result's
template <class T, class... Ops>
void einsum_into(BlockSparseTensor<T>& out, Scaling scaling, std::string_view spec,
                 const Ops&... operands) {
  einsum_into(par, out, scaling, spec, operands...);
}
/// `out = einsum(spec, operands...)` into a block-sparse tensor (see the policy form).
/// @param out the destination (of the result's shape)
/// @param spec NumPy's einsum subscripts
/// @param operands LayoutTensors, BlockSparseTensors, tensors, views or expressions
/// @throws ShapeError as einsum(), or when out's shape is not the result's
template <class T, class... Ops>
void einsum_into(BlockSparseTensor<T>& out, std::string_view spec, const Ops&... operands) {
  einsum_into(par, out, Scaling{}, spec, operands...);
}

}  // namespace strata
