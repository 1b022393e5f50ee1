/// @file
/// Contractions of distributed tensors: `strata::dist::einsum("ij,jk->ik", a, b)` and
/// `einsum_into(c, ...)` over DistTensors, NumPy's einsum language, owner computes. Each rank
/// computes the tiles of the result it owns: for each block of the summed labels (cut where
/// the operands' tiles end) it gets the operands' boxes one-sidedly, wherever their tiles live,
/// and contracts them with strata's local engine (einsum_into on BLIS) into its tile. This is
/// SUMMA with one-sided gets in place of row and column broadcasts (SRUMMA, as Global Arrays'
/// matrix product): any tilings and distributions, any spec, no process grid.
#pragma once

#include "strata/contract/einsum.hpp"
#include "strata/dist/tensor.hpp"

#include <algorithm>
#include <complex>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata::dist {

namespace detail {

/// The boundaries of each label of a contraction over DistTensors: where a tile of any operand
/// carrying it ends (0 and the extent included).
inline std::vector<std::vector<index_t>> label_cuts(const EinsumSpec& spec, const Index& extents,
                                                    const std::vector<const Tiling*>& tilings) {
  std::vector<std::vector<index_t>> cuts(spec.names.size());
  for (std::size_t l = 0; l < cuts.size(); ++l) {
    cuts[l] = {0, extents[l]};
  }
  for (std::size_t k = 0; k < tilings.size(); ++k) {
    const std::vector<int>& own = spec.inputs[k];
    for (std::size_t a = 0; a < own.size(); ++a) {
      const auto l = static_cast<std::size_t>(own[a]);
      if (tilings[k]->shape()[a] == extents[l]) {  // not an extent 1 broadcast
        const auto& b = tilings[k]->boundaries(static_cast<int>(a));
        cuts[l].insert(cuts[l].end(), b.begin(), b.end());
      }
    }
  }
  for (auto& c : cuts) {
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
  }
  return cuts;
}

/// `out = alpha * einsum(spec, operands) + beta * out` over DistTensors: each rank its own
/// tiles of @p out, the operands' boxes got one-sidedly per block of the summed labels.
template <class T, class... Ops>
void contract_owned(DistTensor<T>& out, Scaling scaling, std::string_view spec,
                    const DistTensor<Ops>&... operands) {
  constexpr std::string_view operation = "einsum_into";
  const std::vector<const void*> addresses{static_cast<const void*>(&operands)...};
  std::optional<ContractionPlan> planned;
  // Every rank plans and checks; a failure on one makes every rank throw.
  strata::dist::detail::collectively(out.comm(), operation, [&] {
    if (std::find(addresses.begin(), addresses.end(), &out) != addresses.end()) {
      strata::detail::fail<LayoutError>(
          operation,
          "the output is also an operand (other ranks read it while it is written); "
          "contract into another tensor");
    }
    (void)strata::detail::scale_as<T>(scaling.alpha, operation, "alpha");
    (void)strata::detail::scale_as<T>(scaling.beta, operation, "beta");
    const std::vector<Index> shapes{operands.shape()...};
    std::vector<int> ranks;
    for (const Index& s : shapes) {
      ranks.push_back(static_cast<int>(s.size()));
    }
    planned.emplace(ContractionPlan::make(EinsumSpec::parse(spec, ranks), shapes));
    if (out.shape() != planned->shape()) {
      strata::detail::fail<ShapeError>(operation, "the output has shape ", to_string(out.shape()),
                                       " but ", planned->spec().to_string(), " makes ",
                                       to_string(planned->shape()));
    }
  });
  const ContractionPlan& plan = *planned;
  // The ranks agree on the call (the same spec and scaling everywhere).
  std::uint64_t digest = std::hash<std::string>{}(plan.spec().to_string());
  for (const std::complex<double> s : {scaling.alpha, scaling.beta}) {
    digest = strata::dist::detail::mix(digest, std::hash<double>{}(s.real()));
    digest = strata::dist::detail::mix(digest, std::hash<double>{}(s.imag()));
  }
  strata::dist::detail::agree(out.comm(), operation, digest);

  const EinsumSpec& parsed = plan.spec();
  const Index& extents = plan.extents();
  const std::vector<const Tiling*> tilings{&operands.tiling()...};
  const std::vector<std::vector<index_t>> cuts = label_cuts(parsed, extents, tilings);
  std::vector<int> summed;
  for (std::size_t l = 0; l < parsed.names.size(); ++l) {
    if (std::find(parsed.output.begin(), parsed.output.end(), static_cast<int>(l)) ==
        parsed.output.end()) {
      summed.push_back(static_cast<int>(l));
    }
  }
  index_t sum_blocks = 1;
  for (const int l : summed) {
    sum_blocks *=
        std::max<index_t>(static_cast<index_t>(cuts[static_cast<std::size_t>(l)].size()) - 1, 1);
  }
  const std::vector<Index> shapes{operands.shape()...};
  for (const index_t t : out.local_tiles()) {
    Index lo(parsed.names.size(), 0);
    Index hi(parsed.names.size(), 0);
    const Index tile_lo = out.tiling().tile_lo(t);
    const Index tile_hi = out.tiling().tile_hi(t);
    for (std::size_t a = 0; a < parsed.output.size(); ++a) {
      lo[static_cast<std::size_t>(parsed.output[a])] = tile_lo[a];
      hi[static_cast<std::size_t>(parsed.output[a])] = tile_hi[a];
    }
    const Tensor<T> target = out.tile(t);
    for (index_t sb = 0; sb < sum_blocks; ++sb) {
      index_t b = sb;
      for (auto it = summed.rbegin(); it != summed.rend(); ++it) {
        const auto l = static_cast<std::size_t>(*it);
        const index_t n = std::max<index_t>(static_cast<index_t>(cuts[l].size()) - 1, 1);
        const auto i = static_cast<std::size_t>(b % n);
        b /= n;
        lo[l] = cuts[l].size() > 1 ? cuts[l][i] : 0;
        hi[l] = cuts[l].size() > 1 ? cuts[l][i + 1] : 0;
      }
      // Each operand's box of the block (an axis of extent 1 where the label's is larger
      // broadcasts: its one index), got wherever its tiles live.
      std::size_t k = 0;
      const auto box_of = [&](const auto& x) {
        const std::vector<int>& own = parsed.inputs[k];
        Index from;
        Index to;
        bool empty = false;
        for (std::size_t a = 0; a < own.size(); ++a) {
          const auto l = static_cast<std::size_t>(own[a]);
          const bool broadcast = shapes[k][a] != extents[l];
          from.push_back(broadcast ? 0 : lo[l]);
          to.push_back(broadcast ? shapes[k][a] : hi[l]);
          empty = empty || to.back() == from.back();
        }
        ++k;
        using V = typename std::remove_cvref_t<decltype(x)>::value_type;
        if (empty) {
          Index extent(from.size());
          for (std::size_t a = 0; a < from.size(); ++a) {
            extent[a] = to[a] - from[a];
          }
          return Tensor<V>(extent);
        }
        return x.get(from, to);
      };
      const std::tuple<Tensor<Ops>...> boxes{box_of(operands)...};
      const Scaling step{scaling.alpha, sb == 0 ? scaling.beta : 1.0};
      std::apply([&](const auto&... box) { strata::einsum_into(par, target, step, spec, box...); },
                 boxes);
    }
  }
  out.sync();  // the result's tiles visible to every rank's gets
}

/// The tiling of a contraction's result: each label's boundaries those of the first operand
/// carrying it (one tile along a label none carries).
inline Tiling result_tiling(const EinsumSpec& spec, const Index& extents,
                            const std::vector<const Tiling*>& tilings) {
  if (spec.output.empty()) {
    strata::detail::fail<ShapeError>("einsum", "spec ", spec.to_string(),
                                     " makes a scalar, and a distributed tensor has at least "
                                     "one axis (keep a label, then sum the result)");
  }
  std::vector<std::vector<index_t>> boundaries;
  for (const int l : spec.output) {
    const auto u = static_cast<std::size_t>(l);
    std::vector<index_t> b;
    for (std::size_t k = 0; k < tilings.size() && b.empty(); ++k) {
      for (std::size_t a = 0; a < spec.inputs[k].size() && b.empty(); ++a) {
        if (spec.inputs[k][a] == l && tilings[k]->shape()[a] == extents[u]) {
          b = tilings[k]->boundaries(static_cast<int>(a));
        }
      }
    }
    if (b.empty()) {
      b = extents[u] > 0 ? std::vector<index_t>{0, extents[u]} : std::vector<index_t>{0};
    }
    boundaries.push_back(std::move(b));
  }
  return Tiling(std::move(boundaries));
}

}  // namespace detail

/// Writes a contraction of distributed tensors into a distributed tensor, owner computes:
/// `out = alpha * einsum(spec, operands...) + beta * out` (NumPy's einsum language and values).
/// Collective over the tensors' communicator.
///
/// Each rank computes the tiles of @p out it owns. The labels summed are cut where the
/// operands' tiles end; for each block of them the rank gets each operand's box one-sidedly
/// (DistTensor::get, wherever its tiles live) and contracts the boxes into its tile with the
/// local engine (strata::einsum_into: BLIS for matrix-like steps, all the rank's threads), with
/// beta for the first block and 1 after. The operands must be synced (DistTensor::sync) after
/// their last writes, as for any get; @p out is synced at the end, so every rank sees the
/// result. Any tilings and distributions of the operands and of @p out work, and any spec:
/// traces, batch labels, broadcasting, more than two operands (each block then contracted
/// locally in the plan's order).
///
/// @code
/// using namespace strata::dist;
/// DistTensor<double> a(MPI_COMM_WORLD, Tiling::regular(Index{4096, 4096}, Index{512, 512}),
///                      Distribution::block_cyclic(Index{2, 2}));
/// // ... b likewise, filled, a.sync(), b.sync()
/// strata::dist::einsum_into(c, strata::Scaling{1.0, 1.0}, "ij,jk->ik", a, b);  // c += a b
/// @endcode
/// @param out the destination, of the result's shape (not one of the operands)
/// @param scaling alpha and beta
/// @param spec NumPy's einsum subscripts
/// @param operands distributed tensors
/// @throws ShapeError as strata::einsum, or for an output of another shape; LayoutError when
///         the output is an operand; CollectiveError when the ranks' calls differ (thrown on
///         every rank; nothing written)
template <class T, class... Ops>
void einsum_into(DistTensor<T>& out, Scaling scaling, std::string_view spec,
                 const DistTensor<Ops>&... operands) {
  detail::contract_owned(out, scaling, spec, operands...);
}
/// `out = einsum(spec, operands...)` into a distributed tensor (see the Scaling form).
/// @param out the destination, of the result's shape (not one of the operands)
/// @param spec NumPy's einsum subscripts
/// @param operands distributed tensors
/// @throws ShapeError, LayoutError, CollectiveError as the Scaling form
template <class T, class... Ops>
void einsum_into(DistTensor<T>& out, std::string_view spec, const DistTensor<Ops>&... operands) {
  detail::contract_owned(out, Scaling{}, spec, operands...);
}

/// Contracts distributed tensors into a new one, owner computes (see einsum_into). The result
/// is tiled like its operands (each label takes the boundaries of the first operand carrying
/// it; one tile along a label none carries) and distributed as the first operand is; its
/// element type is the operands' common type. Collective.
///
/// @code
/// auto c = strata::dist::einsum("ij,jk->ik", a, b);   // a DistTensor<double>, tiled as a, b
/// @endcode
/// @param spec NumPy's einsum subscripts
/// @param first the first operand (its communicator and distribution are the result's)
/// @param rest the other operands
/// @return the result
/// @throws ShapeError as strata::einsum; CollectiveError when the ranks' calls differ
template <class T, class... Ops>
auto einsum(std::string_view spec, const DistTensor<T>& first, const DistTensor<Ops>&... rest) {
  using R = typename strata::detail::combined_all<T, Ops...>::type;
  const std::vector<Index> shapes{first.shape(), rest.shape()...};
  std::vector<int> ranks;
  for (const Index& s : shapes) {
    ranks.push_back(static_cast<int>(s.size()));
  }
  std::optional<Tiling> tiling;
  strata::dist::detail::collectively(first.comm(), "einsum", [&] {
    const ContractionPlan plan = ContractionPlan::make(EinsumSpec::parse(spec, ranks), shapes);
    tiling.emplace(
        detail::result_tiling(plan.spec(), plan.extents(), {&first.tiling(), &rest.tiling()...}));
  });
  DistTensor<R> out(first.comm(), *tiling, first.distribution());
  detail::contract_owned(out, Scaling{}, spec, first, rest...);
  return out;
}

}  // namespace strata::dist
