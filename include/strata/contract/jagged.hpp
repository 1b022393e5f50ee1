/// @file
/// Contractions of jagged tensors row by row: `strata::einsum("bij,jk->bik", rows, w)` with a
/// JaggedTensor whose row b is an `n_b x j` matrix multiplies every row by `w` (a batch with a
/// ragged mode), `"bij,bik->bjk"` multiplies rows of two jagged tensors of matching lengths,
/// and `"bij,bik->jk"` sums those products over the rows. The outer axis of every jagged
/// operand carries one label, the batch; each row is an ordinary einsum of row views (a small
/// GEMM on BLIS), the rows run in one parallel loop, each on one thread.
#pragma once

#include "strata/contract/einsum.hpp"
#include "strata/tensor/jagged_tensor.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

namespace detail {

/// An operand of a row-by-row contraction: a jagged tensor (its rows), or a dense view, whole
/// or chipped at each row along its axis labelled with the outer label.
template <class R>
struct RowOperand {
  std::optional<JaggedTensor<R>> jagged;  ///< the rows, for a jagged operand
  Tensor<const R> dense;                  ///< the view, for a dense operand
  int outer_axis = -1;                    ///< a dense operand's axis of the outer label, or -1
};

/// An operand as a RowOperand<R>: jagged tensors (converted to R) and jagged expressions
/// (evaluated) by rows, anything else dense.
template <class R, class X>
RowOperand<R> as_row_operand(const X& x) {
  RowOperand<R> out;
  if constexpr (is_jagged_tensor<X>::value && std::is_same_v<typename X::value_type, R>) {
    out.jagged.emplace(x);
  } else if constexpr (jagged_operand_v<X>) {
    out.jagged.emplace(JaggedTensor<R>(astype<R>(x)));
  } else {
    out.dense.rebind(as_operand<R>(x));
  }
  return out;
}

/// A row-by-row contraction planned: the spec without the outer label, each row's plan, and
/// where the outer label goes in the output.
struct RowPlans {
  EinsumSpec rows;       ///< the spec of one row (the outer label removed)
  int outer = -1;        ///< the outer label's id
  index_t n = 0;         ///< the number of rows
  int output_axis = -1;  ///< the outer label's axis in the output (-1: summed over the rows)
  std::map<std::vector<index_t>, ContractionPlan> plans;  ///< by the row's operand shapes
  std::vector<const ContractionPlan*> of_row;             ///< row -> its plan
  std::vector<index_t> weights;  ///< prefix sums of each row's work (flops + elements + 1)
};

/// The view of operand @p x for row @p r.
template <class R>
Tensor<const R> row_view(const RowOperand<R>& x, index_t r) {
  if (x.jagged) {
    return std::as_const(*x.jagged).piece(r);
  }
  if (x.outer_axis < 0) {
    return x.dense;
  }
  std::vector<Selector> at(static_cast<std::size_t>(x.outer_axis), Selector(all));
  const index_t extent = x.dense.shape()[static_cast<std::size_t>(x.outer_axis)];
  at.emplace_back(extent == 1 ? index_t{0} : r);  // an extent 1 broadcasts over the rows
  return x.dense.select(at);
}

/// Plans every row: parses the spec, finds the outer label (the first subscript of every
/// jagged operand), checks the row counts, and plans each row once per distinct row shape.
template <class R>
RowPlans plan_rows(std::string_view operation, std::string_view text,
                   std::vector<RowOperand<R>>& operands) {
  std::vector<int> ranks;
  for (std::size_t k = 0; k < operands.size(); ++k) {
    const RowOperand<R>& x = operands[k];
    if (x.jagged) {
      const Jagged& shape = x.jagged->shape();
      if (shape.outer_rank() != 1 || !shape.smooth_rows()) {
        fail<ShapeError>(operation, "operand ", k, " is a jagged tensor of type ",
                         x.jagged->type_string(),
                         ": a contraction row by row takes one outer mode and rows that are "
                         "tensors (n * var, n * var * m, ...)");
      }
      ranks.push_back(1 + shape.inner_rank());
    } else {
      ranks.push_back(static_cast<int>(x.dense.shape().size()));
    }
  }
  RowPlans p;
  const EinsumSpec spec = EinsumSpec::parse(text, ranks);
  const auto name = [&](int l) { return spec.names[static_cast<std::size_t>(l)]; };
  std::optional<std::size_t> first;
  for (std::size_t k = 0; k < operands.size(); ++k) {
    if (!operands[k].jagged) {
      continue;
    }
    const auto& labels = spec.inputs[k];
    const index_t rows = operands[k].jagged->shape().n_rows();
    if (!first) {
      first = k;
      p.outer = labels[0];
      p.n = rows;
    } else if (labels[0] != p.outer) {
      fail<ShapeError>(operation,
                       "the outer axis of every jagged operand carries one label, but "
                       "operand ",
                       *first, "'s is '", name(p.outer), "' and operand ", k, "'s is '",
                       name(labels[0]), "'");
    } else if (rows != p.n) {
      fail<ShapeError>(operation, "label '", name(p.outer), "' (the rows) has extent ", p.n,
                       " in operand ", *first, " and ", rows, " in operand ", k);
    }
    if (std::count(labels.begin(), labels.end(), p.outer) != 1) {
      fail<ShapeError>(operation, "the outer label '", name(p.outer), "' is repeated in operand ",
                       k, " (a diagonal across the rows)");
    }
  }
  // Dense operands may carry the outer label too (one axis, of extent n or 1).
  for (std::size_t k = 0; k < operands.size(); ++k) {
    if (operands[k].jagged) {
      continue;
    }
    const auto& labels = spec.inputs[k];
    const auto count = std::count(labels.begin(), labels.end(), p.outer);
    if (count > 1) {
      fail<ShapeError>(operation, "the outer label '", name(p.outer), "' is repeated in operand ",
                       k, " (a diagonal across the rows)");
    }
    if (count == 1) {
      const auto axis = std::find(labels.begin(), labels.end(), p.outer) - labels.begin();
      const index_t e = operands[k].dense.shape()[static_cast<std::size_t>(axis)];
      if (e != p.n && e != 1) {
        fail<ShapeError>(operation, "label '", name(p.outer), "' (the rows) has extent ", p.n,
                         " in operand ", *first, " and ", e, " in operand ", k,
                         " (extents must agree, or be 1)");
      }
      operands[k].outer_axis = static_cast<int>(axis);
    }
  }
  if (const auto it = std::find(spec.output.begin(), spec.output.end(), p.outer);
      it != spec.output.end()) {
    p.output_axis = static_cast<int>(it - spec.output.begin());
  }
  // The spec of one row: the outer label dropped wherever it is.
  p.rows.names = spec.names;
  const auto without = [&](const std::vector<int>& labels) {
    std::vector<int> out;
    std::copy_if(labels.begin(), labels.end(), std::back_inserter(out),
                 [&](int l) { return l != p.outer; });
    return out;
  };
  for (const auto& labels : spec.inputs) {
    p.rows.inputs.push_back(without(labels));
  }
  p.rows.output = without(spec.output);
  // Each row's plan, shared by rows of the same shapes.
  p.of_row.resize(static_cast<std::size_t>(p.n));
  p.weights.assign(1, 0);
  std::vector<Index> shapes(operands.size());
  std::vector<index_t> key;
  for (index_t r = 0; r < p.n; ++r) {
    key.clear();
    for (std::size_t k = 0; k < operands.size(); ++k) {
      const RowOperand<R>& x = operands[k];
      if (x.jagged) {
        const Index e = x.jagged->piece_extents(r);
        shapes[k].assign(e.begin(), e.end());
      } else {
        shapes[k] = x.dense.shape();
        if (x.outer_axis >= 0) {
          shapes[k].erase(shapes[k].begin() + x.outer_axis);
        }
      }
      key.insert(key.end(), shapes[k].begin(), shapes[k].end());
    }
    auto it = p.plans.find(key);
    if (it == p.plans.end()) {
      try {
        it = p.plans.emplace(key, ContractionPlan::make(p.rows, shapes)).first;
      } catch (const ShapeError& e) {
        // The plan's message, in this operation's name and at this row.
        fail<ShapeError>(operation, "row ", r, ": ", e.description());
      }
    }
    p.of_row[static_cast<std::size_t>(r)] = &it->second;
    const double work =
        it->second.flops() + static_cast<double>(checked_size(it->second.shape(), operation)) + 1;
    p.weights.push_back(p.weights.back() + static_cast<index_t>(work));
  }
  return p;
}

/// A plan's product as its first row ran it (GemmRecord), for the plan's other rows: the
/// element offsets of A, B and C from the first elements of their operand and of the output,
/// and the strides every view had (a row whose views have others runs its plan).
template <class R>
struct RowReplay {
  GemmRecord<R> gemm;          ///< the product as called
  index_t a_shift = 0;         ///< A's first element from its operand's
  index_t b_shift = 0;         ///< B's first element from its operand's
  index_t c_shift = 0;         ///< C's first element from the output's
  std::vector<Index> strides;  ///< each operand view's strides, then the output's
};

/// The strides of @p views and then of @p out (nullopt when one has none).
template <class R>
std::optional<std::vector<Index>> strides_of(const std::vector<Tensor<const R>>& views,
                                             const Tensor<R>& out) {
  std::vector<Index> s;
  for (const auto& v : views) {
    if (!v.dims().is_strided()) {
      return std::nullopt;
    }
    s.push_back(v.dims().strides());
  }
  if (!out.dims().is_strided()) {
    return std::nullopt;
  }
  s.push_back(out.dims().strides());
  return s;
}

/// Runs each row's plan into `target(r)` (`alpha * row + beta * target`), the rows in one
/// parallel loop (each on one thread) when there are at least two per thread, else one after
/// another with every thread on each. The first row of each plan runs first, planned as any
/// einsum; when it was one GEMM on views of the row's operands and output (the common case: a
/// row matrix times a shared one), the plan's other rows replay that call at their own first
/// elements, without building the plan's views again (a row costs its GEMM and a few checks).
template <class R, ExecutionPolicy P, class Target>
void run_rows(const P& policy, const RowPlans& p, const std::vector<RowOperand<R>>& operands,
              index_t lo, index_t hi, Target&& target, R alpha, R beta) {
  const auto views_of = [&](index_t r) {
    std::vector<Tensor<const R>> views;
    views.reserve(operands.size());
    for (const auto& x : operands) {
      views.push_back(row_view(x, r));
    }
    return views;
  };
  // Each plan's first row, one after another: run, and recorded when it was one product.
  std::map<const ContractionPlan*, std::optional<RowReplay<R>>> replays;
  std::vector<char> done(static_cast<std::size_t>(std::max<index_t>(hi - lo, 0)), 0);
  for (index_t r = lo; r < hi; ++r) {
    const ContractionPlan* plan = p.of_row[static_cast<std::size_t>(r)];
    if (replays.contains(plan)) {
      continue;
    }
    const std::vector<Tensor<const R>> views = views_of(r);
    Tensor<R> out = target(r);
    GemmRecord<R> gemm;
    ContractionEngine<R>::run_plan(policy, *plan, views, out, alpha, beta, &gemm);
    done[static_cast<std::size_t>(r - lo)] = 1;
    std::optional<RowReplay<R>> replay;
    std::optional<std::vector<Index>> strides = strides_of(views, out);
    bool apart = true;  // the output shares no buffer with an operand
    for (const auto& v : views) {
      apart = apart && !v.buffer().footprint().overlaps(out.buffer().footprint());
    }
    if (gemm.valid && strides && apart) {
      replay = RowReplay<R>{gemm, gemm.a.data - views[gemm.a_operand].data(),
                            gemm.b.data - views[gemm.b_operand].data(), gemm.c.data - out.data(),
                            std::move(*strides)};
    }
    replays.emplace(plan, std::move(replay));
  }
  const auto one = [&](const auto& inner, index_t r) {
    if (done[static_cast<std::size_t>(r - lo)] != 0) {
      return;
    }
    const ContractionPlan* plan = p.of_row[static_cast<std::size_t>(r)];
    const std::vector<Tensor<const R>> views = views_of(r);
    Tensor<R> out = target(r);
    const std::optional<RowReplay<R>>& replay = replays.at(plan);
    if (replay && strides_of(views, out) == replay->strides) {
      const GemmRecord<R>& g = replay->gemm;
      matrix_product<R>(g.m, g.n, g.k, alpha,
                        {views[g.a_operand].data() + replay->a_shift, g.a.rows, g.a.columns},
                        {views[g.b_operand].data() + replay->b_shift, g.b.rows, g.b.columns}, beta,
                        {out.data() + replay->c_shift, g.c.rows, g.c.columns},
                        contraction_threads(inner));
      return;
    }
    ContractionEngine<R>::run_plan(inner, *plan, views, out, alpha, beta);
  };
  const int threads = threads_of(policy);
  if (threads > 1 && hi - lo >= 2 * static_cast<index_t>(threads)) {
    const std::span<const index_t> weights(p.weights.data() + lo,
                                           static_cast<std::size_t>(hi - lo + 1));
    parallel::for_each_weighted_part(Parallel{1, threads}, weights, [&](index_t a, index_t b) {
      for (index_t r = lo + a; r < lo + b; ++r) {
        one(seq, r);
      }
    });
  } else {
    for (index_t r = lo; r < hi; ++r) {
      one(policy, r);
    }
  }
}

/// Checks that every row makes @p shape (a dense output's row).
inline void check_rows_make(std::string_view operation, const RowPlans& p, const Index& shape,
                            const Index& out_shape) {
  for (index_t r = 0; r < p.n; ++r) {
    const Index made = p.of_row[static_cast<std::size_t>(r)]->shape();
    if (made != shape) {
      fail<ShapeError>(operation, "the output has shape ", to_string(out_shape), " but row ", r,
                       " of ", p.rows.to_string(), " makes ", to_string(made));
    }
  }
}

/// `out = alpha * einsum + beta * out` for a dense output: one row per index of the outer
/// label's axis, or (the outer label summed) the rows' products summed, in fixed chunks of
/// rows combined in order (the same bits for any thread count).
template <class R, ExecutionPolicy P>
void rows_into_dense(const P& policy, const RowPlans& p, const std::vector<RowOperand<R>>& ops,
                     const Tensor<R>& out, R alpha, R beta, std::string_view operation) {
  if (p.output_axis >= 0) {
    const auto axis = static_cast<std::size_t>(p.output_axis);
    Index row_shape = out.shape();
    if (out.shape()[axis] != p.n) {
      fail<ShapeError>(operation, "the output has shape ", to_string(out.shape()), " but its axis ",
                       axis, " (label '", p.rows.names[static_cast<std::size_t>(p.outer)],
                       "', the rows) needs extent ", p.n);
    }
    row_shape.erase(row_shape.begin() + p.output_axis);
    check_rows_make(operation, p, row_shape, out.shape());
    std::vector<Selector> at(axis, Selector(all));
    at.emplace_back(index_t{0});
    run_rows<R>(
        policy, p, ops, 0, p.n,
        [&](index_t r) {
          std::vector<Selector> here = at;
          here[axis] = Selector(r);
          Tensor<R> whole = out;
          return whole.select(here);
        },
        alpha, beta);
    return;
  }
  check_rows_make(operation, p, out.shape(), out.shape());
  if (p.n == 0) {  // no rows: the sum is zero
    if (beta == R{0}) {
      Tensor<R> target = out;
      target.fill(R{0});
    } else {
      assign_expression(policy, out, astype<R>(beta * out));
    }
    return;
  }
  // Fixed chunks of rows, each summed into its own tensor, then combined in chunk order. At
  // most 16 chunks, fewer when the output is large (at most 256 MiB of partial sums).
  const index_t size = std::max<index_t>(out.size(), 1);
  const index_t most = std::max<index_t>(
      1, std::min<index_t>(16, (index_t{256} << 20) / (size * static_cast<index_t>(sizeof(R)))));
  const index_t chunks = std::min(p.n, most);
  const index_t per = p.n / chunks + (p.n % chunks != 0 ? 1 : 0);
  std::vector<Tensor<R>> partial;
  for (index_t c = 0; c * per < p.n; ++c) {
    partial.push_back(Tensor<R>::for_overwrite(out.shape()));
  }
  const auto sum_chunk = [&](const auto& inner, index_t c) {
    const index_t lo = c * per;
    const index_t hi = std::min(p.n, lo + per);
    for (index_t r = lo; r < hi; ++r) {
      run_rows<R>(
          inner, p, ops, r, r + 1, [&](index_t) { return partial[static_cast<std::size_t>(c)]; },
          R{1}, r == lo ? R{0} : R{1});
    }
  };
  const auto n_chunks = static_cast<index_t>(partial.size());
  const int threads = threads_of(policy);
  if (threads > 1 && n_chunks > 1) {
    parallel::for_each_part(Parallel{1, threads}, n_chunks, [&](index_t a, index_t b) {
      for (index_t c = a; c < b; ++c) {
        sum_chunk(seq, c);
      }
    });
  } else {
    for (index_t c = 0; c < n_chunks; ++c) {
      sum_chunk(policy, c);
    }
  }
  for (std::size_t c = 1; c < partial.size(); ++c) {
    assign_expression(policy, partial[0], astype<R>(partial[0] + partial[c]));
  }
  if (beta == R{0}) {
    assign_expression(policy, out, astype<R>(alpha * partial[0]));
  } else {
    assign_expression(policy, out, astype<R>(alpha * partial[0] + beta * out));
  }
}

/// Checks a jagged output: one outer mode, tensor rows, as many rows as the operands, and row
/// r of the shape row r makes.
template <class T>
void check_jagged_output(std::string_view operation, const RowPlans& p,
                         const JaggedTensor<T>& out) {
  const Jagged& shape = out.shape();
  if (shape.outer_rank() != 1 || !shape.smooth_rows() || shape.n_rows() != p.n) {
    fail<ShapeError>(operation, "the output is a jagged tensor of type ", out.type_string(),
                     " but ", p.rows.to_string(), " row by row makes ", p.n, " rows");
  }
  for (index_t r = 0; r < p.n; ++r) {
    const Index made = p.of_row[static_cast<std::size_t>(r)]->shape();
    const Index has = out.piece_extents(r);
    if (!std::equal(has.begin(), has.end(), made.begin(), made.end())) {
      fail<ShapeError>(operation, "row ", r, " of the output has shape ",
                       to_string(Index(has.begin(), has.end())), " but ", p.rows.to_string(),
                       " makes ", to_string(made));
    }
  }
}

/// The rows' plans for a jagged result: the outer label must lead the output, with at least
/// one more label.
inline void check_jagged_result(std::string_view operation, const RowPlans& p) {
  if (p.output_axis != 0 || p.rows.output.empty()) {
    const std::string outer = p.rows.names[static_cast<std::size_t>(p.outer)];
    fail<ShapeError>(operation, "a jagged result needs the outer label '", outer,
                     "' first in the output and at least one label after it; the output ",
                     p.output_axis < 0 ? "sums over the rows" : "has another form",
                     ": write it with einsum_into into a dense tensor");
  }
}

}  // namespace detail

/// Contracts jagged tensors row by row into a new JaggedTensor: NumPy's einsum language, where
/// the outer axis of every jagged operand carries one label (the batch) and each row is an
/// ordinary tensor whose extents may differ from row to row.
///
/// `einsum("bij,jk->bik", rows, w)` multiplies each row (an `n_b x j` matrix) by the shared
/// `w`; `einsum("bij,bik->bjk", x, y)` multiplies row b of two jagged tensors of matching
/// lengths (`x_b^T y_b`); a dense operand may carry the outer label too (`"bij,bjk->bik"` with
/// a dense `[n, j, k]`: its slice b). The result's row b is the contraction of the operands'
/// rows b, so the outer label must come first in the output; a result summed over the rows
/// (`"bij,bik->jk"`) or with one value per row (`"bij->b"`) is dense: write it with
/// einsum_into(). Each row is planned once per distinct row shape and computed by einsum's
/// engines (a small GEMM on BLIS for a matrix product), the rows in one parallel loop balanced
/// by their flops, each row on one thread.
///
/// @code
/// auto y = strata::einsum("bij,jk->bik", sequences, weights);   // n * var * k
/// @endcode
/// @param policy seq or par
/// @param spec NumPy's einsum subscripts (the outer axis labelled in every jagged operand)
/// @param operands jagged tensors (or jagged expressions), tensors, views
/// @return the result, jagged
/// @throws ShapeError as einsum(), for jagged operands of other row counts or outer labels, a
///         row whose extents do not agree (naming the row), a jagged operand with more than one
///         outer mode or rows of lists, or an output without the outer label first
template <ExecutionPolicy P, class... Ops>
requires(detail::any_jagged_v<Ops...>) auto einsum(const P& policy, std::string_view spec,
                                                   const Ops&... operands) {
  using R = detail::contraction_t<Ops...>;
  std::vector<detail::RowOperand<R>> ops{detail::as_row_operand<R>(operands)...};
  const detail::RowPlans p = detail::plan_rows<R>("einsum", spec, ops);
  detail::check_jagged_result("einsum", p);
  std::vector<index_t> extents;
  for (index_t r = 0; r < p.n; ++r) {
    const Index s = p.of_row[static_cast<std::size_t>(r)]->shape();
    extents.insert(extents.end(), s.begin(), s.end());
  }
  const Index outer{p.n};
  auto out = JaggedTensor<R>::for_overwrite(
      Jagged::from_extents(outer, static_cast<int>(p.rows.output.size()), extents));
  detail::run_rows<R>(
      policy, p, ops, 0, p.n, [&](index_t r) { return out.piece(r); }, R{1}, R{0});
  return out;
}
/// Contracts jagged tensors row by row into a new JaggedTensor (see the policy form).
/// @param spec NumPy's einsum subscripts (the outer axis labelled in every jagged operand)
/// @param operands jagged tensors (or jagged expressions), tensors, views
/// @return the result, jagged
/// @throws ShapeError as the policy form
template <class... Ops>
requires(detail::any_jagged_v<Ops...>) auto einsum(std::string_view spec, const Ops&... operands) {
  return einsum(par, spec, operands...);
}

/// Writes a row-by-row contraction of jagged tensors into a jagged tensor of the result's
/// structure: row b of `out` becomes `alpha * (row b of the contraction) + beta * (row b)`.
/// @param policy seq or par
/// @param out the destination (one outer mode; row b of the shape row b makes)
/// @param scaling alpha and beta
/// @param spec NumPy's einsum subscripts
/// @param operands jagged tensors (or jagged expressions), tensors, views
/// @throws ShapeError as einsum(), or when out's rows are not the result's
template <ExecutionPolicy P, class T, class... Ops>
requires(detail::any_jagged_v<Ops...>) void einsum_into(const P& policy, JaggedTensor<T>& out,
                                                        Scaling scaling, std::string_view spec,
                                                        const Ops&... operands) {
  std::vector<detail::RowOperand<T>> ops{detail::as_row_operand<T>(operands)...};
  for (auto& x : ops) {  // an operand that shares out's storage is read from a copy
    if (x.jagged && x.jagged->buffer().footprint().overlaps(out.buffer().footprint())) {
      x.jagged.emplace(x.jagged->copy());
    }
  }
  const detail::RowPlans p = detail::plan_rows<T>("einsum_into", spec, ops);
  detail::check_jagged_result("einsum_into", p);
  detail::check_jagged_output("einsum_into", p, out);
  detail::run_rows<T>(
      policy, p, ops, 0, p.n, [&](index_t r) { return out.piece(r); },
      detail::scale_as<T>(scaling.alpha, "einsum_into", "alpha"),
      detail::scale_as<T>(scaling.beta, "einsum_into", "beta"));
}
/// Writes a row-by-row contraction into a jagged tensor (see the policy form).
/// @param out the destination (one outer mode; row b of the shape row b makes)
/// @param scaling alpha and beta
/// @param spec NumPy's einsum subscripts
/// @param operands jagged tensors (or jagged expressions), tensors, views
/// @throws ShapeError as the policy form
template <class T, class... Ops>
requires(detail::any_jagged_v<Ops...>) void einsum_into(JaggedTensor<T>& out, Scaling scaling,
                                                        std::string_view spec,
                                                        const Ops&... operands) {
  einsum_into(par, out, scaling, spec, operands...);
}
/// `out = einsum(spec, operands...)` row by row into a jagged tensor (see the policy form).
/// @param out the destination (one outer mode; row b of the shape row b makes)
/// @param spec NumPy's einsum subscripts
/// @param operands jagged tensors (or jagged expressions), tensors, views
/// @throws ShapeError as the policy form
template <class T, class... Ops>
requires(detail::any_jagged_v<Ops...>) void einsum_into(JaggedTensor<T>& out, std::string_view spec,
                                                        const Ops&... operands) {
  einsum_into(par, out, Scaling{}, spec, operands...);
}

/// Writes a row-by-row contraction of jagged tensors into a dense view: with the outer label in
/// the output, its axis indexes the rows (every row must make the same shape); without it, the
/// rows' contractions are summed (`einsum_into(c, "bij,bik->jk", x, y)`: the sum over rows of
/// `x_b^T y_b`, in fixed chunks of rows combined in order, so the bits do not depend on the
/// thread count). `out = alpha * einsum(...) + beta * out`.
/// @param policy seq or par
/// @param out the destination view (writable, of the result's shape)
/// @param scaling alpha and beta
/// @param spec NumPy's einsum subscripts
/// @param operands jagged tensors (or jagged expressions), tensors, views
/// @throws ShapeError as einsum(), or when a row's result does not fit out; LayoutError when
///         out cannot be written
template <ExecutionPolicy P, class T, class... Ops>
requires(!std::is_const_v<T> &&
         detail::any_jagged_v<Ops...>) void einsum_into(const P& policy, const Tensor<T>& out,
                                                        Scaling scaling, std::string_view spec,
                                                        const Ops&... operands) {
  if (!out.is_writable() || (out.size() > 0 && out.buffer().data() == nullptr)) {
    detail::fail<LayoutError>("einsum_into", "the output ", out.dims(),
                              " cannot be written row by row (several indices share an "
                              "address, or it has no array)");
  }
  std::vector<detail::RowOperand<T>> ops{detail::as_row_operand<T>(operands)...};
  for (auto& x : ops) {  // an operand that shares out's storage is read from a copy
    if (!x.jagged && x.dense.buffer().footprint().overlaps(out.buffer().footprint())) {
      x.dense.rebind(x.dense.copy(seq));
    }
  }
  const detail::RowPlans p = detail::plan_rows<T>("einsum_into", spec, ops);
  detail::rows_into_dense<T>(
      policy, p, ops, out, detail::scale_as<T>(scaling.alpha, "einsum_into", "alpha"),
      detail::scale_as<T>(scaling.beta, "einsum_into", "beta"), "einsum_into");
}

}  // namespace strata
