// Test helper: the indices a range yields, as a vector to compare with an expected list.
#pragma once

#include "strata/core/index.hpp"

#include <vector>

namespace strata::test {

template <class R>
std::vector<Index> collect(const R& range) {
  std::vector<Index> out;
  for (const Index& i : range) {
    out.push_back(i);
  }
  return out;
}

}  // namespace strata::test
