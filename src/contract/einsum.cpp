// The contraction engine compiled once for the element types of scientific codes (see
// detail::ContractionEngine): a program's einsum of these types links these instead of compiling
// them again.
#include "strata/contract/einsum.hpp"

#include <cstdint>

namespace strata::detail {

template struct ContractionEngine<float>;
template struct ContractionEngine<double>;
template struct ContractionEngine<std::int32_t>;
template struct ContractionEngine<std::int64_t>;

}  // namespace strata::detail
