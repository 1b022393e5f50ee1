// Formatting of index lists.
#include "strata/core/index.hpp"

namespace strata {

std::string to_string(std::span<const index_t> values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i != 0) {
      text += ' ';
    }
    text += std::to_string(values[i]);
  }
  text += ']';
  return text;
}

}  // namespace strata
