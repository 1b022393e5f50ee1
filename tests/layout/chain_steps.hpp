// Parses and applies the view steps of the NumPy conformance files (tests/data/*.txt) to a
// Dimensions or a Tensor: both have the same view API.
#pragma once

#include "strata/core/index.hpp"
#include "strata/layout/selector.hpp"

#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace strata::test {

inline Index read_indices(std::istringstream& in) {
  Index out;
  index_t v = 0;
  while (in >> v) {
    out.push_back(v);
  }
  return out;
}

inline std::optional<index_t> parse_bound(const std::string& text) {
  if (text == "_") {
    return std::nullopt;
  }
  return std::stoll(text);
}

/// `all`, `i<int>`, `r<start>:<stop>:<step>` (`_` omits), `a<e>,<e>,...` (index array).
inline Selector parse_selector(const std::string& token) {
  if (token == "all") {
    return all;
  }
  if (token[0] == 'i') {
    return std::stoll(token.substr(1));
  }
  if (token[0] == 'r') {
    const auto c1 = token.find(':');
    const auto c2 = token.find(':', c1 + 1);
    return Range{parse_bound(token.substr(1, c1 - 1)),
                 parse_bound(token.substr(c1 + 1, c2 - c1 - 1)), std::stoll(token.substr(c2 + 1))};
  }
  std::vector<index_t> entries;
  std::istringstream list(token.substr(1));
  std::string item;
  while (std::getline(list, item, ',')) {
    entries.push_back(std::stoll(item));
  }
  return entries;
}

/// Applies one view step (select, transpose, broadcast, roll, flip, squeeze, unsqueeze,
/// diagonal).
/// Makes @p view @p next: rebinds a tensor's handle (tensors are not assignable), assigns other
/// view types (Dimensions, selections).
template <class View, class Next>
void replace(View& view, Next&& next) {
  if constexpr (requires { view.rebind(std::forward<Next>(next)); }) {
    view.rebind(std::forward<Next>(next));
  } else {
    view = std::forward<Next>(next);
  }
}

/// Returns false when `op` is not a view step (reshape is left to the caller: NumPy may copy).
template <class View>
bool apply_view_step(View& view, const std::string& op, std::istringstream& in) {
  if (op == "select") {
    std::vector<Selector> sels;
    std::string token;
    while (in >> token) {
      sels.push_back(parse_selector(token));
    }
    replace(view, view.select(sels));
  } else if (op == "transpose") {
    replace(view, view.transpose(read_indices(in)));
  } else if (op == "broadcast") {
    replace(view, view.broadcast(read_indices(in)));
  } else if (op == "roll") {
    const Index args = read_indices(in);
    replace(view, view.rotate(args[0], args[1]));
  } else if (op == "flip") {
    replace(view, view.reverse(read_indices(in)));
  } else if (op == "squeeze") {
    replace(view, view.squeeze(read_indices(in)));
  } else if (op == "unsqueeze") {
    replace(view, view.unsqueeze(read_indices(in)[0]));
  } else if (op == "diagonal") {
    if constexpr (requires { view.diagonal(index_t{0}, index_t{0}, index_t{1}); }) {
      const Index args = read_indices(in);  // offset, axis1, axis2
      replace(view, view.diagonal(args[0], args[1], args[2]));
    } else {
      return false;
    }
  } else {
    return false;
  }
  return true;
}

}  // namespace strata::test
