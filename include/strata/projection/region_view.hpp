/// @file
/// Tensor views of projected regions, under an out-of-bounds policy (forbid, wrap, NumPy
/// negative indices, or padding).
#pragma once

#include "strata/core/error.hpp"
#include "strata/projection/zrange.hpp"
#include "strata/tensor/tensor.hpp"

#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

/// What a region that leaves a tensor's extents means (four answers).
enum class Bounds {
  forbid,    ///< an error (IndexError)
  wrap,      ///< the space is toroidal: coordinates wrap around each axis
  negative,  ///< NumPy's negative indices: [-n, 0) counts back from the end
  pad,       ///< cells outside read a pad value
};

namespace detail {

/// A read-only buffer over a region of a tensor; cells outside the tensor read a pad value.
template <class T>
class PaddedRegionBuffer {
 public:
  using value_type = T;
  static constexpr bool concurrent_reads = true;  // reads the source (a shared handle) only
  PaddedRegionBuffer(Tensor<const T> source, const ZRange& region, T pad)
      : source_(std::move(source)), start_(region.start()), shape_(region.shape()), pad_(pad) {}
  [[nodiscard]] index_t size() const { return checked_size(shape_, "view"); }
  [[nodiscard]] T read(index_t address) const {
    const Index extents = source_.shape();
    Index g(shape_.size());
    for (std::size_t k = shape_.size(); k-- > 0;) {
      g[k] = start_[k] + address % shape_[k];
      address /= shape_[k];
      if (g[k] < 0 || g[k] >= extents[k]) {
        return pad_;
      }
    }
    return source_.at(g);
  }

 private:
  Tensor<const T> source_;
  Index start_;
  Index shape_;
  T pad_;
};

}  // namespace detail

/// The view type a function returns for a tensor argument @p Tn: a `Tensor<const T>` for a
/// const tensor, a `Tensor<T>` otherwise (what the tensor's own view members return).
template <class Tn>
using view_of_t = decltype(std::declval<Tn>().transpose());

/// The view of a tensor that a region selects, sharing its buffer.
///
/// - `forbid`: the region must lie inside the tensor.
/// - `negative`: on each axis the region lies in [0, n) or in [-n, 0) (shifted by n).
/// - `wrap`: coordinates wrap around; the view is a rotation of the tensor (a tiling one when
///   the region is longer than the axis), still zero-copy. An empty region is an empty view.
/// - `pad`: cells outside the tensor read @p pad_value; such a view is read-only (computed from
///   the tensor on each read). A region inside the tensor gives the plain view.
///
/// The view is writable when the tensor is (a view of a const tensor is read-only).
/// @param t the tensor
/// @param region a region of the tensor's rank, for example from ZProjection::apply
/// @param policy the out-of-bounds policy
/// @param pad_value the value outside the tensor under Bounds::pad
/// @return the view, of the region's shape
/// @throws ShapeError when the ranks differ; IndexError when the region leaves the tensor in a
///         way the policy does not allow
template <class Tn, class V = typename std::remove_cvref_t<Tn>::value_type>
view_of_t<Tn> view(Tn&& t, const ZRange& region, Bounds policy = Bounds::forbid,
                   V pad_value = V{}) {
  using Out = view_of_t<Tn>;
  Out source = t;  // not const: its views must keep Out's writability
  if (region.rank() != source.rank()) {
    detail::fail<ShapeError>("view", "region ", region, " has rank ", region.rank(),
                             " but the tensor has rank ", source.rank());
  }
  const Index extents = source.shape();
  const auto outside = [&] {
    detail::fail<IndexError>("view", "region ", region, " is outside the tensor of shape ",
                             to_string(extents));
  };
  const Index shape = region.shape();
  std::vector<Selector> crop;
  Index shifts(extents.size(), 0);
  bool inside = true;
  for (std::size_t k = 0; k < extents.size(); ++k) {
    const index_t n = extents[k];
    index_t lo = region.start()[k];
    index_t hi = region.end()[k];
    if (policy == Bounds::negative && lo < 0 && hi <= 0 && lo >= -n) {
      lo += n;
      hi += n;
    }
    inside = inside && lo >= 0 && hi <= n;
    crop.emplace_back(Range{lo, hi});
  }
  if (inside) {
    return source.select(crop);
  }
  switch (policy) {
    case Bounds::forbid:
    case Bounds::negative:
      outside();
      break;
    case Bounds::wrap: {
      Index tiled = extents;
      std::vector<Selector> window;
      for (std::size_t k = 0; k < extents.size(); ++k) {
        const index_t n = extents[k];
        if (shape[k] == 0) {
          window.emplace_back(Range{0, 0});  // an empty region reads nothing
          continue;
        }
        if (n == 0) {
          outside();  // nothing to wrap around
        }
        const index_t start = ((region.start()[k] % n) + n) % n;
        shifts[k] = -start;
        tiled[k] = (shape[k] / n + (shape[k] % n != 0 ? 1 : 0)) * n;
        window.emplace_back(Range{0, shape[k]});
      }
      return source.rotate(shifts).broadcast(tiled).select(window);
    }
    case Bounds::pad:
      return Out(AnyBuffer<V>(detail::PaddedRegionBuffer<V>(source, region, pad_value)),
                 Dimensions(shape));
  }
  return source;  // unreachable: every policy returned or threw
}

}  // namespace strata
