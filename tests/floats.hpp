// NaN and infinity, as the tests' expected values write them.
#pragma once

#include <limits>

namespace strata::test {

inline constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace strata::test
