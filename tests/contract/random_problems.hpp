// Random einsum problems and the naive reference loop, shared by the contraction tests
// (tests/contract/einsum.cpp: dense views; tests/contract/tiled.cpp: tiled tensors).
#pragma once

#include "strata/contract/contract.hpp"

#include "layout/view_helpers.hpp"  // strata::test::uniform

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace strata::test {

/// A view of @p shape over random small integers, made the hard way: transposed storage, a
/// broadcast axis, flips, rolls and an index array, each at random.
template <class T>
Tensor<T> random_view(std::mt19937_64& rng, const Index& shape) {
  const std::size_t rank = shape.size();
  Index perm(rank);
  std::iota(perm.begin(), perm.end(), index_t{0});
  std::shuffle(perm.begin(), perm.end(), rng);
  Index base_shape(rank);
  for (std::size_t k = 0; k < rank; ++k) {
    base_shape[k] = shape[static_cast<std::size_t>(perm[k])];
  }
  // Broadcast one axis now and then: stored with extent 1.
  std::ptrdiff_t broadcast = -1;
  if (rank > 0 && uniform(rng, 0, 4) == 0) {
    const auto k = static_cast<std::size_t>(uniform(rng, 0, static_cast<index_t>(rank) - 1));
    if (base_shape[k] > 1) {
      broadcast = static_cast<std::ptrdiff_t>(k);
      base_shape[k] = 1;
    }
  }
  Tensor<T> base(base_shape);
  for (auto&& x : base) {
    if constexpr (strata::is_complex_v<T>) {
      using R = strata::real_t<T>;
      const index_t re = uniform(rng, -3, 3);
      x = T(static_cast<R>(re), static_cast<R>(uniform(rng, -3, 3)));
    } else {
      x = static_cast<T>(uniform(rng, -3, 3));
    }
  }
  Index inverse(rank);
  for (std::size_t k = 0; k < rank; ++k) {
    inverse[static_cast<std::size_t>(perm[k])] = static_cast<index_t>(k);
  }
  Tensor<T> v = base.transpose(inverse);
  if (broadcast >= 0) {
    v.rebind(v.broadcast(shape));
  }
  for (std::size_t k = 0; k < rank; ++k) {
    const index_t roll = uniform(rng, 0, 5);
    if (roll == 0) {
      v.rebind(v.reverse(Index{static_cast<index_t>(k)}));
    } else if (roll == 1 && shape[k] > 1) {
      v.rebind(v.rotate(uniform(rng, -3, 3), static_cast<index_t>(k)));
    } else if (roll == 2 && shape[k] > 1) {
      std::vector<index_t> order(static_cast<std::size_t>(shape[k]));
      std::iota(order.begin(), order.end(), index_t{0});
      std::shuffle(order.begin(), order.end(), rng);
      std::vector<strata::Selector> sel(k, strata::Selector(strata::all));
      sel.emplace_back(order);
      v.rebind(v.select(sel));
    }
  }
  if (rank >= 2 && uniform(rng, 0, 5) == 0) {
    // A sparse tensor (multiplied by its stored entries), stored row-major or with its axes
    // reversed (a transposed view of the stored order).
    if (uniform(rng, 0, 1) == 0) {
      return strata::to_sparse(v);
    }
    Index reversed(rank);
    std::iota(reversed.rbegin(), reversed.rend(), index_t{0});
    return Tensor<T>(strata::to_sparse(Tensor<T>(v.transpose(reversed)))).transpose(reversed);
  }
  return v;
}

/// A random einsum problem, kept as the test's own lists of letters.
struct Problem {
  std::vector<std::string> inputs;  // letters per operand (no ellipsis)
  std::string output;
  bool explicit_output = true;
  std::map<char, index_t> extents;
  std::vector<Index> shapes;  // an operand axis may have extent 1 where the label's is larger
  std::string spec() const {
    std::string s;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      s += (k == 0 ? "" : ",") + inputs[k];
    }
    return explicit_output ? s + "->" + output : s;
  }
};

inline Problem random_problem(std::mt19937_64& rng) {
  Problem p;
  const std::string pool = "abcdef";
  for (const char c : pool) {
    const index_t roll = uniform(rng, 0, 9);
    p.extents[c] = roll == 0 ? 0 : (roll == 1 ? 1 : uniform(rng, 2, 4));
  }
  const index_t operands = uniform(rng, 1, 4);
  std::map<char, int> count;
  for (index_t k = 0; k < operands; ++k) {
    std::string labels;
    const index_t rank = uniform(rng, 0, 4);
    for (index_t a = 0; a < rank; ++a) {
      char c = pool[static_cast<std::size_t>(uniform(rng, 0, 5))];
      if (labels.find(c) != std::string::npos && uniform(rng, 0, 3) != 0) {
        continue;  // repeats (diagonals) now and then
      }
      labels.push_back(c);
      ++count[c];
    }
    p.inputs.push_back(labels);
    Index shape;
    for (const char c : labels) {
      // Extent-1 axes broadcast against the label's extent, as NumPy's einsum.
      const bool one =
          p.extents[c] > 1 && labels.find(c) == labels.rfind(c) && uniform(rng, 0, 7) == 0;
      shape.push_back(one ? 1 : p.extents[c]);
    }
    p.shapes.push_back(shape);
  }
  p.explicit_output = uniform(rng, 0, 3) != 0;
  if (p.explicit_output) {
    for (const auto& [c, n] : count) {
      if (uniform(rng, 0, 1) == 1) {
        p.output.push_back(c);
      }
    }
    std::shuffle(p.output.begin(), p.output.end(), rng);
  } else {
    for (const auto& [c, n] : count) {
      if (n == 1) {
        p.output.push_back(c);  // NumPy's implicit output: labels met once, sorted
      }
    }
  }
  return p;
}

/// Calls `f(x[0], ..., x[n - 1])` with the 1 to 4 operands of a random problem (einsum and
/// einsum_into take their operands as arguments).
template <class X, class F>
decltype(auto) with_operands(const std::vector<X>& x, F&& f) {
  switch (x.size()) {
    case 1:
      return f(x[0]);
    case 2:
      return f(x[0], x[1]);
    case 3:
      return f(x[0], x[1], x[2]);
    default:
      return f(x[0], x[1], x[2], x[3]);
  }
}

/// The naive loop: every assignment of every label, the product of the operands' elements
/// there, summed into the output's element.
template <class T>
std::vector<T> reference(const Problem& p, const std::vector<Tensor<T>>& operands) {
  // A label's extent is the largest of its axes' (an axis of extent 1 broadcasts against the
  // others, as NumPy's einsum; a label whose every axis has extent 1 has extent 1).
  std::map<char, index_t> extents;
  for (std::size_t k = 0; k < p.inputs.size(); ++k) {
    for (std::size_t a = 0; a < p.inputs[k].size(); ++a) {
      const auto [it, fresh] = extents.emplace(p.inputs[k][a], p.shapes[k][a]);
      const index_t e = p.shapes[k][a];
      if (!fresh && it->second != 0) {
        it->second = e == 0 ? 0 : std::max(it->second, e);  // 1 broadcasts, to 0 too
      }
    }
  }
  std::string labels;
  for (const auto& in : p.inputs) {
    for (const char c : in) {
      if (labels.find(c) == std::string::npos) {
        labels.push_back(c);
      }
    }
  }
  Index out_shape;
  for (const char c : p.output) {
    out_shape.push_back(extents.at(c));
  }
  std::vector<T> out(static_cast<std::size_t>(strata::checked_size(out_shape, "test")), T{0});
  std::map<char, index_t> at;
  const auto visit = [&](auto&& self, std::size_t depth) -> void {
    if (depth == labels.size()) {
      T product = T{1};
      for (std::size_t k = 0; k < operands.size(); ++k) {
        Index g;
        for (std::size_t a = 0; a < p.inputs[k].size(); ++a) {
          const index_t e = p.shapes[k][a];
          g.push_back(e == 1 ? 0 : at[p.inputs[k][a]]);
        }
        product = static_cast<T>(product * operands[k].at(g));
      }
      index_t o = 0;
      for (const char c : p.output) {
        o = o * extents.at(c) + at[c];
      }
      out[static_cast<std::size_t>(o)] = static_cast<T>(out[static_cast<std::size_t>(o)] + product);
      return;
    }
    const char c = labels[depth];
    for (index_t i = 0; i < extents.at(c); ++i) {
      at[c] = i;
      self(self, depth + 1);
    }
  };
  visit(visit, 0);
  return out;
}

}  // namespace strata::test
