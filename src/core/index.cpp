// Formatting of index lists.
#include "strata/core/index.hpp"

#include <ostream>
#include <utility>

namespace strata {

Index::Index(Index&& other) noexcept : base(std::move(static_cast<base&>(other))) {}

Index& Index::operator=(Index&& other) noexcept {
  base::operator=(std::move(static_cast<base&>(other)));
  return *this;
}

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

std::ostream& operator<<(std::ostream& out, const Index& index) {
  return out << to_string(index);
}

std::ostream& operator<<(std::ostream& out, IndexSpan index) {
  return out << to_string(std::span<const index_t>(index));
}

}  // namespace strata
