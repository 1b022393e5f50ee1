// Tiled contraction compiled once for the element types of scientific codes (see
// detail::TiledEngine): a program's einsum of tiled tensors of these types links these.
#include "strata/contract/tiled.hpp"

#include <cstdint>

namespace strata::detail {

template struct TiledEngine<float>;
template struct TiledEngine<double>;
template struct TiledEngine<std::int32_t>;
template struct TiledEngine<std::int64_t>;

}  // namespace strata::detail
