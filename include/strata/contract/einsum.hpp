/// @file
/// Tensor contraction in NumPy's einsum language: `strata::einsum("ij,jk->ik", a, b)`, any
/// number of operands (ordered to minimise flops), traces, diagonals, outer and batch
/// products, ellipses; `einsum_into` writes into any view with BLAS's alpha and beta. Each
/// pairwise step is a matrix product handed to BLIS with the views' own strides where its mode
/// groups coalesce (packed by a copy otherwise), or one fused pass of products.
#pragma once

#include "strata/contract/gemm.hpp"
#include "strata/contract/plan.hpp"
#include "strata/expr/expr.hpp"
#include "strata/tensor/block_sparse.hpp"
#include "strata/tensor/layout_tensor.hpp"
#include "strata/tensor/tensor.hpp"

#include <algorithm>
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

/// BLAS's scales for einsum_into: `out = alpha * einsum(...) + beta * out` (with beta 0, the
/// default, `out` is not read). Complex, as zgemm's: a complex output takes any alpha and beta
/// (`Scaling{std::complex<double>(0, 1)}`); a real output takes real ones (`Scaling{2.0, 1.0}`)
/// and refuses an imaginary part with a TypeError, since it would be dropped.
struct Scaling {
  std::complex<double> alpha = 1;  ///< the scale of the contraction
  std::complex<double> beta = 0;   ///< the scale of what `out` held
};

namespace detail {

/// A scale of einsum_into (@p name: "alpha" or "beta") as the result type @p R: a complex
/// result takes it whole, a real one its real part when its imaginary part is 0.
/// @throws TypeError for an imaginary part with a real result; nothing is written then
template <class R>
R scale_as(std::complex<double> scale, std::string_view operation, std::string_view name) {
  if constexpr (is_complex_v<R>) {
    return number_cast<R>(scale);
  } else {
    if (scale.imag() != 0) {
      fail<TypeError>(operation, name, " = (", scale.real(), (scale.imag() < 0 ? "" : "+"),
                      scale.imag(),
                      "j) has an imaginary part but the result is real; contract "
                      "complex operands into a complex output, or scale by a real number");
    }
    return number_cast<R>(scale.real());
  }
}

/// An operand of a contraction: a tensor view and the label of each of its axes.
template <class R>
struct LabelledOperand {
  Tensor<const R> tensor;
  std::vector<int> labels;
};

/// The threads a contraction step may use under @p policy.
template <ExecutionPolicy P>
int contraction_threads(const P& /*policy*/) {
#if defined(STRATA_USE_OPENMP)
  if constexpr (std::is_same_v<std::remove_cvref_t<P>, Parallel>) {
    return omp_get_max_threads();
  }
#endif
  return 1;
}

/// The view of @p x with its axes in the order of @p order, an axis of extent 1 inserted for
/// every label of @p order it lacks, and each axis broadcast to its label's extent: the
/// operand as a tensor over @p order.
template <class R>
Tensor<const R> arranged(const LabelledOperand<R>& x, const std::vector<int>& order,
                         const Index& extents) {
  Index perm;
  for (const int l : order) {
    const auto it = std::find(x.labels.begin(), x.labels.end(), l);
    if (it != x.labels.end()) {
      perm.push_back(static_cast<index_t>(it - x.labels.begin()));
    }
  }
  Tensor<const R> t = x.tensor.transpose(perm);
  Index shape;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const int l = order[k];
    if (std::find(x.labels.begin(), x.labels.end(), l) == x.labels.end()) {
      t.rebind(t.unsqueeze(static_cast<index_t>(k)));
    }
    shape.push_back(extents[static_cast<std::size_t>(l)]);
  }
  return t.broadcast(shape);
}

/// One input alone: its diagonals (a label repeated: one axis whose stride is the sum of the
/// repeated axes' strides), then the sums over labels no other operand needs.
template <class R, ExecutionPolicy P>
LabelledOperand<R> reduce_input(const P& policy, const Tensor<const R>& t,
                                const std::vector<int>& labels, const std::vector<int>& kept) {
  std::vector<int> unique;
  for (const int l : labels) {
    if (std::find(unique.begin(), unique.end(), l) == unique.end()) {
      unique.push_back(l);
    }
  }
  Tensor<const R> view = t;
  if (unique.size() != labels.size()) {
    // A diagonal is a strided view: each unique label's stride is the sum of its axes'.
    if (!view.dims().is_strided()) {
      view.rebind(view.copy(policy));
    }
    const Index shape = view.shape();
    const Index strides = view.dims().strides();
    Index new_shape;
    Index new_strides;
    for (const int l : unique) {
      index_t stride = 0;
      index_t extent = 0;
      for (std::size_t a = 0; a < labels.size(); ++a) {
        if (labels[a] == l) {
          stride += strides[a];
          extent = shape[a];
        }
      }
      new_shape.push_back(extent);
      new_strides.push_back(stride);
    }
    view.rebind(
        Tensor<const R>(view.buffer(), Dimensions(new_shape, new_strides, view.dims().offset())));
  }
  Index summed;
  for (std::size_t a = 0; a < unique.size(); ++a) {
    if (std::find(kept.begin(), kept.end(), unique[a]) == kept.end()) {
      summed.push_back(static_cast<index_t>(a));
    }
  }
  if (!summed.empty()) {
    view.rebind(sum<R>(policy, view, summed));
  }
  return {view, kept};
}

/// Whether BLIS (or the generic kernel) can take a matrix with these strides as it is: a row
/// and a column stride that never send two elements to one address (a broadcast operand, a
/// zero stride on an axis longer than 1, is copied first).
inline bool takes_strides(index_t m, index_t n, index_t rs, index_t cs) {
  if (m <= 1 || n <= 1) {
    return (m <= 1 || rs != 0) && (n <= 1 || cs != 0);
  }
  if (rs == 0 || cs == 0) {
    return false;
  }
  const index_t ar = rs < 0 ? -rs : rs;
  const index_t ac = cs < 0 ? -cs : cs;
  // The faster axis's reach must stay below the slower axis's step.
  return ar < ac ? ar * (m - 1) < ac : ac * (n - 1) < ar;
}

/// @p t (shape `[batch..., m_axes..., k_axes...]`) as `[batch..., m, k]` with strides BLIS
/// takes: a view when the groups coalesce, else a row-major copy.
template <class R, ExecutionPolicy P>
Tensor<const R> as_matrices(const P& policy, Tensor<const R> t, std::size_t batch, index_t m,
                            index_t k) {
  const Index shape = t.shape();
  Index target(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(batch));
  target.push_back(m);
  target.push_back(k);
  // A buffer without an array (sparse, generated, user storage) is read into one.
  if (t.dims().is_strided() && t.buffer().data() != nullptr) {
    try {
      Tensor<const R> v = t.reshape(target);
      const Index s = v.dims().strides();
      if (v.dims().is_strided() && takes_strides(m, k, s[batch], s[batch + 1])) {
        return v;
      }
    } catch (const LayoutError&) {  // the groups do not coalesce: pack below
    }
  }
  return Tensor<const R>(t.copy(policy)).reshape(target);
}

/// The number of products of a batch: the product of the first @p batch extents.
inline index_t batch_count(const Index& shape, std::size_t batch) {
  index_t count = 1;
  for (std::size_t a = 0; a < batch; ++a) {
    count *= shape[a];
  }
  return count;
}

/// Calls `f(b, at)` for every index b of the batch axes (the first @p batch axes) of the given
/// maps, `at` holding each map's address of that batch's first element.
template <std::size_t N, class F>
void for_each_batch(const std::array<const Dimensions*, N>& maps, std::size_t batch, F&& f) {
  const Index shape = maps[0]->shape();
  const index_t count = batch_count(shape, batch);
  Index g(shape.size(), 0);
  for (index_t b = 0; b < count; ++b) {
    index_t rest = b;
    for (std::size_t a = batch; a-- > 0;) {
      g[a] = rest % shape[a];
      rest /= shape[a];
    }
    std::array<index_t, N> at{};
    for (std::size_t m = 0; m < N; ++m) {
      at[m] = maps[m]->global_to_local(IndexSpan(g));
    }
    f(b, at);
  }
}

/// Whether a matrix is sparse with a zero fill (its stored entries are the whole product).
template <class R>
bool sparse_matrix(const Tensor<const R>& t) {
  const auto* s = sparse_buffer(t);
  return s != nullptr && s->fill() == R{};
}

/// `data + offset`, or null for a tensor without elements (it has no array: no pointer
/// arithmetic on null).
template <class T>
T* at_offset(T* data, index_t offset) {
  return data == nullptr ? nullptr : data + offset;
}

/// The labels @p x, then @p y, then @p z (a matricised operand's axis order).
inline std::vector<int> concat_labels(std::vector<int> x, const std::vector<int>& y,
                                      const std::vector<int>& z) {
  x.insert(x.end(), y.begin(), y.end());
  x.insert(x.end(), z.begin(), z.end());
  return x;
}

/// The product of the extents of @p labels (one axis of a matricised operand).
inline index_t labels_extent(const std::vector<int>& labels, const Index& extents) {
  index_t p = 1;
  for (const int l : labels) {
    p *= extents[static_cast<std::size_t>(l)];
  }
  return p;
}

/// A result's shape as matrices: the first @p nb extents of @p shape (the batch), then m, n.
inline Index matrices_shape(const Index& shape, std::size_t nb, index_t m, index_t n) {
  Index out(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(nb));
  out.push_back(m);
  out.push_back(n);
  return out;
}

/// @p dest (shape `[batch..., rows..., columns...]`) as the strided view `[batch..., m, n]`
/// when it has an array and its row and column groups coalesce; false (@p out untouched)
/// otherwise.
template <class R>
bool result_matrices(Tensor<R> dest, std::size_t nb, index_t m, index_t n, Tensor<R>& out) {
  if (dest.buffer().data() == nullptr || !dest.dims().is_strided()) {
    return false;
  }
  try {
    Tensor<R> view = dest.reshape(matrices_shape(dest.shape(), nb, m, n));
    if (!view.dims().is_strided()) {
      return false;
    }
    out.rebind(view);
    return true;
  } catch (const LayoutError&) {  // the groups do not coalesce
    return false;
  }
}

/// `dest = alpha * a b + beta * dest` where a (`[batch, rows, summed]`) or b (`[batch,
/// summed, columns]`) is a sparse tensor (of any rank: each group of labels is one axis of the
/// matrix, row-major), by its stored entries: the compressed rows of the sparse operand read
/// as the matrix `[batch x rows, summed]` (or `[batch x columns, summed]`), each stored entry
/// adding a scaled row of the dense operand into a row of dest (or a scaled column into a
/// column), parallel over those lines. Returns false, doing nothing, when neither is sparse.
template <class R, ExecutionPolicy P>
bool sparse_product(const P& policy, const LabelledOperand<R>& a, const LabelledOperand<R>& b,
                    const ContractionStep& step, const Index& extents, Tensor<R> dest, R alpha,
                    R beta) {
  // Each operand with its lines (batch, then its free labels) first and the summed labels last.
  const Tensor<const R> al =
      arranged(a, concat_labels(step.batch, step.rows, step.contracted), extents);
  const Tensor<const R> bl =
      arranged(b, concat_labels(step.batch, step.columns, step.contracted), extents);
  const bool left = sparse_matrix(al);
  if (!left && !sparse_matrix(bl)) {
    return false;
  }
  const std::size_t nb = step.batch.size();
  if (nb + (left ? step.rows : step.columns).size() == 0) {
    return false;  // no lines: the sparse operand is summed whole (the reduction engine)
  }
  const index_t batches = labels_extent(step.batch, extents);
  const index_t m = labels_extent(step.rows, extents);
  const index_t n = labels_extent(step.columns, extents);
  const index_t k = labels_extent(step.contracted, extents);
  if (batches == 0 || m == 0 || n == 0) {
    return true;  // an empty result
  }
  // The destination as [batch..., m, n], written in place when its groups coalesce.
  const Index dest_shape = dest.shape();
  Tensor<R> c;
  const bool in_place = result_matrices(dest, nb, m, n, c);
  if (!in_place) {  // every line is zeroed below
    c.rebind(Tensor<R>::for_overwrite(matrices_shape(dest_shape, nb, m, n)));
  }
  // Each line of c is scaled by beta (zeroed for beta 0 and a separate c) as its products
  // start: the lines cover c once, and the line is then in cache.
  const R line_beta = in_place ? beta : R{0};
  // The dense operand as [batch..., summed, columns] or [batch..., rows, summed] with strides
  // (packed when it has none).
  const Tensor<const R> dense =
      left ? as_matrices(
                 policy,
                 arranged(b, concat_labels(step.batch, step.contracted, step.columns), extents), nb,
                 k, n)
           : as_matrices(policy, al, nb, m, k);
  // Kept by the operand's buffer: a repeated product with one sparse operator makes it once.
  const std::shared_ptr<const Compressed<R>> kept =
      matricised_kept(left ? al : bl, true, nb + (left ? step.rows : step.columns).size());
  const Compressed<R>& sparse = *kept;
  // Each batch's first element in the dense operand and in dest.
  std::vector<std::array<index_t, 2>> starts;
  starts.reserve(static_cast<std::size_t>(batches));
  for_each_batch<2>({&dense.dims(), &c.dims()}, nb,
                    [&](index_t, const std::array<index_t, 2>& at) { starts.push_back(at); });
  const Index ds = dense.dims().strides();
  const Index cs = c.dims().strides();
  const R* dd = dense.buffer().data();
  R* cd = c.buffer().data();
  // Line o is row o % m of batch o / m (left: a row of dest), or column o % n (right).
  const index_t lines_per_batch = left ? m : n;
  const index_t line_step = left ? cs[nb] : cs[nb + 1];
  const index_t to_step = left ? cs[nb + 1] : cs[nb];
  const index_t inner_step = left ? ds[nb] : ds[nb + 1];  // the summed index in dense
  const index_t from_step = left ? ds[nb + 1] : ds[nb];
  const index_t length = left ? n : m;  // the dense side of each stored entry's update
  const index_t* offsets = sparse.offsets.data();
  const index_t* indices = sparse.indices.data();
  const R* values = sparse.values.data();
  const auto lines = [&](index_t lo, index_t hi) {
    // Line o is line `within` of batch `batch`, counted along (no division per line).
    index_t batch = lo / lines_per_batch;
    index_t within = lo - batch * lines_per_batch;
    for (index_t o = lo; o < hi; ++o, ++within) {
      if (within == lines_per_batch) {
        within = 0;
        ++batch;
      }
      const auto& at = starts[static_cast<std::size_t>(batch)];
      R* to = cd + at[1] + within * line_step;
      if (line_beta == R{0}) {
        for (index_t t = 0; t < length; ++t) {
          to[t * to_step] = R{0};
        }
      } else if (line_beta != R{1}) {
        for (index_t t = 0; t < length; ++t) {
          to[t * to_step] = static_cast<R>(line_beta * to[t * to_step]);
        }
      }
      for (index_t e = sparse.offsets[static_cast<std::size_t>(o)];
           e < sparse.offsets[static_cast<std::size_t>(o) + 1]; ++e) {
        const index_t inner = sparse.indices[static_cast<std::size_t>(e)];
        const R v = static_cast<R>(alpha * sparse.values[static_cast<std::size_t>(e)]);
        const R* from = dd + at[0] + inner * inner_step;
        if (to_step == 1 && from_step == 1) {
          for (index_t t = 0; t < length; ++t) {
            to[t] = static_cast<R>(to[t] + v * from[t]);
          }
        } else {
          for (index_t t = 0; t < length; ++t) {
            to[t * to_step] = static_cast<R>(to[t * to_step] + v * from[t * from_step]);
          }
        }
      }
    }
  };
  // A matrix-vector product (length 1): each line is one sum, kept in a register, the lines of
  // a batch walked by a pointer (a CSR loop's work per line).
  const auto sums = [&](index_t lo, index_t hi, auto scaled, auto inner) {
    index_t batch = lo / lines_per_batch;
    index_t within = lo - batch * lines_per_batch;
    for (index_t o = lo; o < hi; within = 0, ++batch) {
      const index_t stop = std::min(hi, o + (lines_per_batch - within));
      const auto& at = starts[static_cast<std::size_t>(batch)];
      const R* const from = at_offset(dd, at[0]);  // (no array when the sum is empty)
      for (index_t to = at[1] + within * line_step; o < stop; ++o, to += line_step) {
        R sum = line_beta == R{0} ? R{0} : static_cast<R>(line_beta * cd[to]);
        const index_t end = offsets[o + 1];
        for (index_t e = offsets[o]; e < end; ++e) {
          sum = static_cast<R>(sum + scaled(values[e]) * from[inner(indices[e])]);
        }
        cd[to] = sum;
      }
    }
  };
  const auto part = [&](index_t lo, index_t hi) {
    if (length != 1) {
      lines(lo, hi);
    } else if (alpha == R{1} && inner_step == 1) {
      sums(
          lo, hi, [](R v) { return v; }, [](index_t i) { return i; });
    } else {
      sums(
          lo, hi, [alpha](R v) { return static_cast<R>(alpha * v); },
          [inner_step](index_t i) { return i * inner_step; });
    }
  };
  const index_t outer = batches * lines_per_batch;
  if constexpr (std::is_same_v<std::remove_cvref_t<P>, Parallel>) {
    // Lines own disjoint parts of dest; the grain counts multiply-adds.
    const index_t per_line = std::max<index_t>(1, sparse.nnz() / outer * length);
    parallel::for_each_part(Parallel{std::max<index_t>(1, policy.grain / per_line), policy.threads},
                            outer, part);
  } else {
    part(0, outer);
  }
  if (!in_place) {
    const Tensor<const R> computed = c.reshape(dest_shape);
    if (beta == R{0}) {
      dest.assign(computed, policy);
    } else {
      assign_expression(policy, dest, astype<R>(computed + beta * dest));
    }
  }
  return true;
}

/// The one GEMM a contraction made, as it called it: when a plan of one pairwise step ran as a
/// single matrix product on views of its operands and of its output (nothing packed, reduced
/// or computed apart), the same plan on operands and an output of the same strides is that
/// product at the same element offsets from each one's first element (the rows of a jagged
/// einsum replay it: run_rows).
template <class R>
struct GemmRecord {
  bool valid = false;         ///< the plan ran as this one product
  index_t m = 0;              ///< C's rows
  index_t n = 0;              ///< C's columns
  index_t k = 0;              ///< the sum's length
  MatrixView<const R> a;      ///< A as called (a pointer into an operand)
  MatrixView<const R> b;      ///< B as called
  MatrixView<R> c;            ///< C as called (a pointer into the output)
  std::size_t a_operand = 0;  ///< the operand A points into
  std::size_t b_operand = 0;  ///< the operand B points into
};

/// A pairwise step written into @p dest (a writable view of shape `[batch, rows, columns]` in
/// the step's label order): `dest = alpha * (a x b) + beta * dest`, by the step's engine. With
/// @p record, a step that is one product on views of a, b and dest is recorded there.
template <class R, ExecutionPolicy P>
void contract_into(const P& policy, const LabelledOperand<R>& a, const LabelledOperand<R>& b,
                   const ContractionStep& step, const Index& extents, Tensor<R> dest, R alpha,
                   R beta, GemmRecord<R>* record = nullptr) {
  // A sparse operand (zero fill) is multiplied by its stored entries: O(nnz x the dense
  // side), never densified; matrix-vector products (one free group empty) included.
  if (!step.contracted.empty() && (!step.rows.empty() || !step.columns.empty()) &&
      sparse_product(policy, a, b, step, extents, dest, alpha, beta)) {
    return;
  }
  if (step.engine != ContractionEngine::gemm) {
    // One pass: broadcast products (summed over the contracted labels, trailing).
    std::vector<int> order = step.labels;
    order.insert(order.end(), step.contracted.begin(), step.contracted.end());
    const Tensor<const R> x = arranged(a, order, extents);
    const Tensor<const R> y = arranged(b, order, extents);
    if (step.contracted.empty()) {
      if (beta != R{0}) {
        assign_expression(policy, dest, astype<R>(alpha * (x * y) + beta * dest));
      } else if (alpha != R{1}) {
        assign_expression(policy, dest, astype<R>(alpha * (x * y)));
      } else {
        assign_expression(policy, dest, astype<R>(x * y));
      }
      return;
    }
    Index summed;
    for (std::size_t k = 0; k < step.contracted.size(); ++k) {
      summed.push_back(static_cast<index_t>(step.labels.size() + k));
    }
    const Tensor<R> s = sum<R>(policy, x * y, summed);
    if (beta == R{0}) {
      assign_expression(policy, dest, astype<R>(alpha * s));
    } else {
      assign_expression(policy, dest, astype<R>(alpha * s + beta * dest));
    }
    return;
  }
  // Matrix products: A as [batch, M, K], B as [batch, K, N], C as [batch, M, N].
  const index_t m = labels_extent(step.rows, extents);
  const index_t n = labels_extent(step.columns, extents);
  const index_t k = labels_extent(step.contracted, extents);
  const std::size_t nb = step.batch.size();
  const Tensor<const R> am = as_matrices(
      policy, arranged(a, concat_labels(step.batch, step.rows, step.contracted), extents), nb, m,
      k);
  const Tensor<const R> bm = as_matrices(
      policy, arranged(b, concat_labels(step.batch, step.contracted, step.columns), extents), nb, k,
      n);
  // The destination as [batch, m, n]: written in place when its groups coalesce into strides
  // BLIS takes.
  const Index c_shape = matrices_shape(dest.shape(), nb, m, n);
  Tensor<R> cm;
  bool direct = false;
  if (result_matrices(dest, nb, m, n, cm)) {
    const Index st = cm.dims().strides();
    direct = takes_strides(m, n, st[nb], st[nb + 1]);
  }
  R c_beta = beta;
  if (!direct) {
    cm.rebind(Tensor<R>::for_overwrite(c_shape));  // computed apart (beta 0), then scaled into dest
    c_beta = R{0};
  }
  const std::array<const Dimensions*, 3> maps{&am.dims(), &bm.dims(), &cm.dims()};
  const Index as = am.dims().strides();
  const Index bs = bm.dims().strides();
  const Index cs = cm.dims().strides();
  const R* ad = am.buffer().data();
  const R* bd = bm.buffer().data();
  R* cd = cm.buffer().data();
  const index_t batches = batch_count(c_shape, nb);
  const int threads = contraction_threads(policy);
  // Recorded when the one product reads a and b and writes dest where they are (no copy).
  const bool recorded = record != nullptr && direct && batches == 1 &&
                        am.buffer().identity() == a.tensor.buffer().identity() &&
                        bm.buffer().identity() == b.tensor.buffer().identity();
  const auto one = [&](index_t /*b*/, const std::array<index_t, 3>& at, int t) {
    const MatrixView<const R> av{at_offset(ad, at[0]), as[nb], as[nb + 1]};
    const MatrixView<const R> bv{at_offset(bd, at[1]), bs[nb], bs[nb + 1]};
    const MatrixView<R> cv{at_offset(cd, at[2]), cs[nb], cs[nb + 1]};
    if (recorded) {
      record->valid = true;
      record->m = m;
      record->n = n;
      record->k = k;
      record->a = av;
      record->b = bv;
      record->c = cv;
    }
    matrix_product<R>(m, n, k, alpha, av, bv, c_beta, cv, t);
  };
  if (batches >= 2 * threads && threads > 1) {
    // Many products: one per thread at a time, each on one thread.
    std::vector<std::array<index_t, 3>> starts;
    for_each_batch<3>(maps, nb,
                      [&](index_t, const std::array<index_t, 3>& at) { starts.push_back(at); });
    parallel::for_each_part(Parallel{1}, batches, [&](index_t lo, index_t hi) {
      for (index_t i = lo; i < hi; ++i) {
        one(i, starts[static_cast<std::size_t>(i)], 1);
      }
    });
  } else {
    for_each_batch<3>(maps, nb,
                      [&](index_t bi, const std::array<index_t, 3>& at) { one(bi, at, threads); });
  }
  if (!direct) {
    const Tensor<const R> computed = cm.reshape(dest.shape());
    if (beta == R{0}) {
      dest.assign(computed, policy);
    } else {
      assign_expression(policy, dest, astype<R>(computed + beta * dest));
    }
  }
}

/// Runs a plan on operands already of type R, writing `alpha * result + beta * out`; with
/// @p record, a plan of one step that runs as one product on views of the operands (as given:
/// nothing reduced first) is recorded there (see GemmRecord).
template <class R, ExecutionPolicy P>
void run_plan(const P& policy, const ContractionPlan& plan,
              const std::vector<Tensor<const R>>& operands, Tensor<R> out, R alpha, R beta,
              GemmRecord<R>* record = nullptr) {
  const EinsumSpec& spec = plan.spec();
  const Index& extents = plan.extents();
  std::vector<LabelledOperand<R>> live;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    live.push_back(reduce_input<R>(policy, operands[i], spec.inputs[i], plan.reduced_inputs()[i]));
  }
  const auto& steps = plan.steps();
  // The output as a view in a given label order.
  const auto out_in = [&](const std::vector<int>& order) {
    Index perm;
    for (const int l : order) {
      perm.push_back(static_cast<index_t>(std::find(spec.output.begin(), spec.output.end(), l) -
                                          spec.output.begin()));
    }
    return out.transpose(perm);
  };
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const ContractionStep& step = steps[s];
    const LabelledOperand<R>& a = live[static_cast<std::size_t>(step.left)];
    const LabelledOperand<R>& b = live[static_cast<std::size_t>(step.right)];
    if (s + 1 == steps.size()) {
      // Recorded only when the step reads the operands as given (no trace or sum first).
      const auto as_given = [&](std::size_t i) {
        const Tensor<const R>& x = live[i].tensor;
        const Tensor<const R>& given = operands[i];
        return x.data() == given.data() && x.dims().is_strided() && given.dims().is_strided() &&
               x.shape() == given.shape() && x.dims().strides() == given.dims().strides();
      };
      const bool recordable = record != nullptr && steps.size() == 1 &&
                              as_given(static_cast<std::size_t>(step.left)) &&
                              as_given(static_cast<std::size_t>(step.right));
      contract_into<R>(policy, a, b, step, extents, out_in(step.labels), alpha, beta,
                       recordable ? record : nullptr);
      if (recordable && record->valid) {
        record->a_operand = static_cast<std::size_t>(step.left);
        record->b_operand = static_cast<std::size_t>(step.right);
      }
      return;
    }
    Index shape;
    for (const int l : step.labels) {
      shape.push_back(extents[static_cast<std::size_t>(l)]);
    }
    Tensor<R> result = Tensor<R>::for_overwrite(shape);  // written whole (beta 0)
    contract_into<R>(policy, a, b, step, extents, result, R{1}, R{0});
    live.push_back({Tensor<const R>(result), step.labels});
  }
  // One operand: its reduced view, arranged in the output's order.
  const Tensor<const R> x = arranged(live[0], spec.output, extents);
  if (beta != R{0}) {
    assign_expression(policy, out, astype<R>(alpha * x + beta * out));
  } else if (alpha != R{1}) {
    assign_expression(policy, out, astype<R>(alpha * x));
  } else {
    out.assign(x, policy);
  }
}

/// The element type of values combined by the type rule of expressions between tensors (C++'s
/// usual conversions; with a complex type, complex of the real types' combination).
template <class T, class... Ts>
struct combined_all {
  using type = T;  ///< one type: itself
};
/// Two or more: the first two combined, then the rest.
template <class T, class U, class... Ts>
struct combined_all<T, U, Ts...> {
  using type = typename combined_all<typename combined<T, U, false, false>::type, Ts...>::type;
};

/// The element type of a contraction: the operands' common type by the type rule of
/// expressions (C++'s usual conversions; complex64 with float64 is complex128).
template <class... Ops>
using contraction_t = typename combined_all<typename node_t<Ops>::value_type...>::type;

/// An operand as a Tensor<const R>: shared when it is one already, else evaluated (converted).
template <class R, class X>
Tensor<const R> as_operand(const X& x) {
  if constexpr (is_tensor<std::remove_cvref_t<X>>::value) {
    using T = std::remove_const_t<typename std::remove_cvref_t<X>::value_type>;
    if constexpr (std::is_same_v<T, R>) {
      return Tensor<const R>(x);
    } else {
      return evaluate<R>(astype<R>(x));
    }
  } else {
    return evaluate<R>(astype<R>(x));
  }
}

/// Whether any operand is a BlockSparseTensor.
template <class... Ops>
inline constexpr bool any_block_sparse_v = (is_block_sparse_v<std::remove_cvref_t<Ops>> || ...);
/// Whether any operand is a tiled tensor (LayoutTensor or BlockSparseTensor): contracted tile
/// by tile (strata/contract/tiled.hpp).
template <class... Ops>
inline constexpr bool any_tiled_v =
    (is_layout_tensor_v<std::remove_cvref_t<Ops>> || ...) || any_block_sparse_v<Ops...>;

/// Whether an operand is jagged (a JaggedTensor, or an expression with one): contracted row by
/// row (strata/contract/jagged.hpp).
template <class X>
inline constexpr bool jagged_operand_v =
    is_jagged_tensor<std::remove_cvref_t<X>>::value || jagged_v<X>;
/// Whether any operand is jagged.
template <class... Ops>
inline constexpr bool any_jagged_v = (jagged_operand_v<Ops> || ...);
/// Whether every operand is dense (no tiled, no jagged one): einsum.hpp's own overloads.
template <class... Ops>
inline constexpr bool dense_operands_v = !any_tiled_v<Ops...> && !any_jagged_v<Ops...>;

/// The shape of a contraction operand (a tensor, an expression or a LayoutTensor).
template <class X>
Index operand_shape(const X& x) {
  if constexpr (is_layout_tensor_v<X> || is_block_sparse_v<X>) {
    return x.shape();
  } else {
    return as_expression(x).shape();
  }
}

/// Plans a contraction of the given operands.
template <class... Ops>
ContractionPlan plan_of(std::string_view spec, const Ops&... operands) {
  const std::vector<Index> shapes{operand_shape(operands)...};
  std::vector<int> ranks;
  for (const Index& s : shapes) {
    ranks.push_back(static_cast<int>(s.size()));
  }
  return ContractionPlan::make(EinsumSpec::parse(spec, ranks), shapes);
}

/// Writes a planned contraction of operands already of out's element type into @p out (shape
/// checked, an operand sharing out's storage copied, alpha and beta).
template <class T, ExecutionPolicy P>
void run_into(const P& policy, const ContractionPlan& plan, const Tensor<T>& out, Scaling scaling,
              std::vector<Tensor<const std::remove_const_t<T>>> operands,
              std::string_view operation) {
  using R = std::remove_const_t<T>;
  if (out.shape() != plan.shape()) {
    fail<ShapeError>(operation, "the output has shape ", to_string(out.shape()), " but ",
                     plan.spec().to_string(), " makes ", to_string(plan.shape()));
  }
  if (!out.is_writable()) {
    fail<LayoutError>(operation, "the output ", out.dims(),
                      " cannot be written (several indices share an address, or the buffer is "
                      "read-only)");
  }
  // An operand that shares the output's storage is read from a copy (as NumPy).
  const Footprint memory = out.buffer().footprint();
  for (auto& c : operands) {
    if (c.buffer().footprint().overlaps(memory)) {
      c.rebind(c.copy(policy));
    }
  }
  const R alpha = scale_as<R>(scaling.alpha, operation, "alpha");
  const R beta = scale_as<R>(scaling.beta, operation, "beta");
  if (out.buffer().data() == nullptr) {
    Tensor<R> dense = out.copy(policy);
    run_plan<R>(policy, plan, operands, dense, alpha, beta);
    Tensor<R> target = out;
    target.assign(dense, seq);
    return;
  }
  run_plan<R>(policy, plan, operands, out, alpha, beta);
}

/// The compiled part of contraction for element type @p R: run_plan() and run_into() under
/// each policy, as members that are not templates. The library compiles it for float, double,
/// std::int32_t, std::int64_t (src/contract/einsum.cpp), std::complex<float> and
/// std::complex<double> (src/contract/einsum_complex.cpp; the `extern template` declarations
/// below), so a program's einsum of those types compiles its front end only, the spec and the
/// operands' conversion (one einsum of doubles: 23 s -> 5 s with g++ 12 -O2); other element types
/// are compiled where they are used. Every caller of the engine goes through this class.
template <class R>
struct ContractionEngine {
  /// run_plan() on the calling thread.
  static void run_plan(const Sequential& policy, const ContractionPlan& plan,
                       const std::vector<Tensor<const R>>& operands, Tensor<R> out, R alpha, R beta,
                       GemmRecord<R>* record = nullptr);
  /// run_plan() on OpenMP threads.
  static void run_plan(const Parallel& policy, const ContractionPlan& plan,
                       const std::vector<Tensor<const R>>& operands, Tensor<R> out, R alpha, R beta,
                       GemmRecord<R>* record = nullptr);
  /// run_into() on the calling thread.
  static void run_into(const Sequential& policy, const ContractionPlan& plan, const Tensor<R>& out,
                       Scaling scaling, std::vector<Tensor<const R>> operands,
                       std::string_view operation);
  /// run_into() on OpenMP threads.
  static void run_into(const Parallel& policy, const ContractionPlan& plan, const Tensor<R>& out,
                       Scaling scaling, std::vector<Tensor<const R>> operands,
                       std::string_view operation);
};

// Defined out of the class, so not inline: the extern declarations keep a program from compiling
// them again.
/// @cond INTERNAL
template <class R>
void ContractionEngine<R>::run_plan(const Sequential& policy, const ContractionPlan& plan,
                                    const std::vector<Tensor<const R>>& operands, Tensor<R> out,
                                    R alpha, R beta, GemmRecord<R>* record) {
  detail::run_plan<R>(policy, plan, operands, std::move(out), alpha, beta, record);
}
template <class R>
void ContractionEngine<R>::run_plan(const Parallel& policy, const ContractionPlan& plan,
                                    const std::vector<Tensor<const R>>& operands, Tensor<R> out,
                                    R alpha, R beta, GemmRecord<R>* record) {
  detail::run_plan<R>(policy, plan, operands, std::move(out), alpha, beta, record);
}
template <class R>
void ContractionEngine<R>::run_into(const Sequential& policy, const ContractionPlan& plan,
                                    const Tensor<R>& out, Scaling scaling,
                                    std::vector<Tensor<const R>> operands,
                                    std::string_view operation) {
  detail::run_into(policy, plan, out, scaling, std::move(operands), operation);
}
template <class R>
void ContractionEngine<R>::run_into(const Parallel& policy, const ContractionPlan& plan,
                                    const Tensor<R>& out, Scaling scaling,
                                    std::vector<Tensor<const R>> operands,
                                    std::string_view operation) {
  detail::run_into(policy, plan, out, scaling, std::move(operands), operation);
}

extern template struct ContractionEngine<float>;
extern template struct ContractionEngine<double>;
extern template struct ContractionEngine<std::int32_t>;
extern template struct ContractionEngine<std::int64_t>;
extern template struct ContractionEngine<std::complex<float>>;
extern template struct ContractionEngine<std::complex<double>>;
/// @endcond

/// Writes a planned contraction into @p out, its operands converted to out's element type;
/// errors name @p operation.
template <class T, ExecutionPolicy P, class... Ops>
void einsum_planned(const P& policy, const ContractionPlan& plan, const Tensor<T>& out,
                    Scaling scaling, std::string_view operation, const Ops&... operands) {
  using R = std::remove_const_t<T>;
  ContractionEngine<R>::run_into(policy, plan, out, scaling,
                                 std::vector<Tensor<const R>>{as_operand<R>(operands)...},
                                 operation);
}

}  // namespace detail

/// The contraction plan of an einsum: the labels, the path of pairwise steps and their engines,
/// without computing anything (`std::cout << strata::einsum_plan(spec, a, b).explain()`).
/// @param spec NumPy's einsum subscripts
/// @param operands the tensors (or expressions)
/// @return the plan
/// @throws ShapeError as einsum()
template <class... Ops>
ContractionPlan einsum_plan(std::string_view spec, const Ops&... operands) {
  return detail::plan_of(spec, operands...);
}

/// Writes a contraction into a view: `out = einsum(spec, operands...)`, or with @p scaling
/// `out = alpha * einsum(...) + beta * out` as BLAS's gemm (beta 0: `out` is not read).
/// Converted to out's element type. An operand that shares out's storage is read from a copy
/// first, as NumPy does; nothing is written when an argument is bad.
///
/// @code
/// strata::einsum_into(c, "ij,jk->ik", a, b);                        // c = a b
/// strata::einsum_into(c, strata::Scaling{2.0, 1.0}, "ij,jk->ik", a, b);  // c += 2 a b
/// @endcode
/// @param policy seq or par
/// @param out the destination view (writable, of the result's shape)
/// @param scaling alpha and beta
/// @param spec NumPy's einsum subscripts
/// @param operands tensors, views or expressions, one per operand of @p spec
/// @throws ShapeError as einsum(), or when out's shape is not the result's; LayoutError when
///         out cannot be written
template <ExecutionPolicy P, class T, class... Ops>
requires(!std::is_const_v<T> &&
         detail::dense_operands_v<Ops...>) void einsum_into(const P& policy, const Tensor<T>& out,
                                                            Scaling scaling, std::string_view spec,
                                                            const Ops&... operands) {
  const ContractionPlan plan = detail::plan_of(spec, operands...);
  detail::einsum_planned(policy, plan, out, scaling, "einsum_into", operands...);
}
/// Writes a contraction into a view: `out = einsum(spec, operands...)`, or with @p scaling
/// `out = alpha * einsum(...) + beta * out` as BLAS's gemm (beta 0: `out` is not read).
/// Converted to out's element type. An operand that shares out's storage is read from a copy
/// first, as NumPy does; nothing is written when an argument is bad.
///
/// @code
/// strata::einsum_into(c, "ij,jk->ik", a, b);                        // c = a b
/// strata::einsum_into(c, strata::Scaling{2.0, 1.0}, "ij,jk->ik", a, b);  // c += 2 a b
/// @endcode
/// @param out the destination view (writable, of the result's shape)
/// @param scaling alpha and beta
/// @param spec NumPy's einsum subscripts
/// @param operands tensors, views or expressions, one per operand of @p spec
/// @throws ShapeError as einsum(), or when out's shape is not the result's; LayoutError when
///         out cannot be written
template <class T, class... Ops>
requires(!std::is_const_v<T>) void einsum_into(const Tensor<T>& out, Scaling scaling,
                                               std::string_view spec, const Ops&... operands) {
  einsum_into(par, out, scaling, spec, operands...);
}
/// `out = einsum(spec, operands...)` into a view (see the Scaling form).
/// @param out the destination view (writable, of the result's shape)
/// @param spec NumPy's einsum subscripts
/// @param operands tensors, views or expressions
/// @throws ShapeError, LayoutError as the Scaling form
template <class T, class... Ops>
requires(!std::is_const_v<T>) void einsum_into(const Tensor<T>& out, std::string_view spec,
                                               const Ops&... operands) {
  einsum_into(par, out, Scaling{}, spec, operands...);
}

/// Contracts tensors as NumPy's `einsum(spec, *operands, optimize=True)`: a new row-major
/// tensor of the operands' common element type.
///
/// The spec is NumPy's language: `"ij,jk->ik"` (a matrix product), `"ij,jk"` (implicit
/// output: the labels met once, sorted), `"ii->i"` and `"ii"` (diagonal, trace), `"i,j->ij"`
/// (outer), `"bij,bjk->bik"` (batch), `"...ij,...jk->...ik"` (ellipsis, broadcasting), any
/// number of operands. Three or more are contracted pairwise in the order with the fewest
/// flops (ContractionPlan). A step with rows, columns and a sum is a matrix product on BLIS
/// (float, double), handed the views' strides where each mode group coalesces (negative and
/// non-unit strides included) and a packed copy where it does not; other steps are one fused
/// pass. See einsum_plan() for the path.
///
/// @code
/// auto c = strata::einsum("ij,jk->ik", a, b);
/// auto t = strata::einsum("ii", m);                       // trace: a rank-0 tensor
/// auto r = strata::einsum("ijab,abcd->ijcd", t2, v);      // CCSD-like, one GEMM
/// @endcode
/// @param policy seq or par (BLIS and the passes use the OpenMP threads)
/// @param spec NumPy's einsum subscripts
/// @param operands tensors, views or expressions
/// @return the result
/// @throws ShapeError for a spec that does not parse (naming the position), an output label
///         in no input or named twice, a number of operands other than the spec's, a label
///         with two extents neither of which is 1 (naming the label and both), flops or a size
///         that overflow int64
template <ExecutionPolicy P, class... Ops>
requires(sizeof...(Ops) >= 1 &&
         detail::dense_operands_v<Ops...>) auto einsum(const P& policy, std::string_view spec,
                                                       const Ops&... operands) {
  using R = detail::contraction_t<Ops...>;
  const ContractionPlan plan = detail::plan_of(spec, operands...);
  // Written whole (beta 0: a matrix product does not read it), so not zeroed first.
  Tensor<R> out = Tensor<R>::for_overwrite(plan.shape());
  detail::einsum_planned(policy, plan, out, Scaling{}, "einsum_into", operands...);
  return out;
}
/// Contracts tensors as NumPy's `einsum(spec, *operands, optimize=True)`: a new row-major
/// tensor of the operands' common element type.
///
/// The spec is NumPy's language: `"ij,jk->ik"` (a matrix product), `"ij,jk"` (implicit
/// output: the labels met once, sorted), `"ii->i"` and `"ii"` (diagonal, trace), `"i,j->ij"`
/// (outer), `"bij,bjk->bik"` (batch), `"...ij,...jk->...ik"` (ellipsis, broadcasting), any
/// number of operands. Three or more are contracted pairwise in the order with the fewest
/// flops (ContractionPlan). A step with rows, columns and a sum is a matrix product on BLIS
/// (float, double), handed the views' strides where each mode group coalesces (negative and
/// non-unit strides included) and a packed copy where it does not; other steps are one fused
/// pass. See einsum_plan() for the path.
///
/// @code
/// auto c = strata::einsum("ij,jk->ik", a, b);
/// auto t = strata::einsum("ii", m);                       // trace: a rank-0 tensor
/// auto r = strata::einsum("ijab,abcd->ijcd", t2, v);      // CCSD-like, one GEMM
/// @endcode
/// @param spec NumPy's einsum subscripts
/// @param operands tensors, views or expressions
/// @return the result
/// @throws ShapeError for a spec that does not parse (naming the position), an output label
///         in no input or named twice, a number of operands other than the spec's, a label
///         with two extents neither of which is 1 (naming the label and both), flops or a size
///         that overflow int64
template <class... Ops>
requires(sizeof...(Ops) >= 1 &&
         detail::dense_operands_v<Ops...>) auto einsum(std::string_view spec,
                                                       const Ops&... operands) {
  return einsum(par, spec, operands...);
}

}  // namespace strata
