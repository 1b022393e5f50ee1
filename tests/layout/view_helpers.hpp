// Test helpers for layout/: addresses of every element, and random views built by random chains.
#pragma once

#include "strata/core/error.hpp"
#include "strata/layout/dimensions.hpp"

#include <algorithm>
#include <random>
#include <vector>

namespace strata::test {

/// Addresses in row-major order through the multi-index path (one contribution per axis).
inline std::vector<index_t> addresses(const Dimensions& d) {
  std::vector<index_t> out;
  if (d.size() == 0) {
    return out;
  }
  Index g(static_cast<std::size_t>(d.rank()), 0);
  const Index shape = d.shape();
  for (index_t i = 0; i < d.size(); ++i) {
    out.push_back(d.global_to_local(g));
    for (std::size_t k = g.size(); k-- > 0;) {
      if (++g[k] < shape[k]) {
        break;
      }
      g[k] = 0;
    }
  }
  return out;
}

/// Random integer in [lo, hi].
inline index_t uniform(std::mt19937_64& rng, index_t lo, index_t hi) {
  return std::uniform_int_distribution<index_t>(lo, hi)(rng);
}

/// One random view operation applied to `d` (returns `d` unchanged when the draw does not apply).
inline Dimensions random_step(std::mt19937_64& rng, const Dimensions& d) {
  const int rank = d.rank();
  const Index shape = d.shape();
  switch (uniform(rng, 0, 8)) {
    case 0:
    case 1: {  // select
      if (rank == 0) {
        return d;
      }
      std::vector<Selector> sels;
      const index_t count = uniform(rng, 1, rank);
      for (index_t k = 0; k < count; ++k) {
        const index_t n = shape[static_cast<std::size_t>(k)];
        const index_t kind = uniform(rng, 0, 5);
        if (kind == 0 && n > 0) {
          sels.emplace_back(uniform(rng, -n, n - 1));
        } else if (kind == 1 && n > 0) {
          std::vector<index_t> entries(static_cast<std::size_t>(uniform(rng, 0, 5)));
          for (auto& e : entries) {
            e = uniform(rng, 0, n - 1);
          }
          sels.emplace_back(std::move(entries));
        } else if (kind <= 3) {
          const index_t steps[] = {1, 1, 2, 3, -1, -1, -2, -3};
          Range r;
          r.step = steps[uniform(rng, 0, 7)];
          if (uniform(rng, 0, 1) == 1) {
            r.start = uniform(rng, -n - 1, n + 1);
          }
          if (uniform(rng, 0, 1) == 1) {
            r.stop = uniform(rng, -n - 1, n + 1);
          }
          sels.emplace_back(r);
        } else {
          sels.emplace_back(all);
        }
      }
      return d.select(sels);
    }
    case 2: {  // transpose
      Index perm(static_cast<std::size_t>(rank));
      for (int k = 0; k < rank; ++k) {
        perm[static_cast<std::size_t>(k)] = k;
      }
      std::shuffle(perm.begin(), perm.end(), rng);
      return d.transpose(perm);
    }
    case 3: {  // broadcast: tile an axis, grow a size-1 axis, add a leading axis
      Index target = shape;
      for (auto& e : target) {
        const index_t roll = uniform(rng, 0, 9);
        if (e == 1 && roll < 3) {
          e = uniform(rng, 0, 4);
        } else if (e > 0 && roll < 2) {
          e *= uniform(rng, 2, 3);
        }
      }
      if (uniform(rng, 0, 2) == 0) {
        target.insert(target.begin(), uniform(rng, 1, 3));
      }
      Index product_check = target;
      index_t size = 1;
      for (const auto e : product_check) {
        size *= e;
      }
      return size <= 2000 ? d.broadcast(target) : d;
    }
    case 4: {  // rotate
      Index shifts(static_cast<std::size_t>(rank));
      for (auto& s : shifts) {
        s = uniform(rng, -7, 7);
      }
      return d.rotate(shifts);
    }
    case 5: {  // reverse
      Index axes;
      for (int k = 0; k < rank; ++k) {
        if (uniform(rng, 0, 1) == 1) {
          axes.push_back(k);
        }
      }
      return d.reverse(axes);
    }
    case 6: {  // reshape into a random factorisation, when the strides allow it
      Index target;
      index_t rest = d.size();
      if (rest == 0) {
        target = shape;
        std::shuffle(target.begin(), target.end(), rng);
      } else {
        while (rest > 1) {
          index_t f = 2;
          while (rest % f != 0) {
            ++f;
          }
          if (!target.empty() && uniform(rng, 0, 2) == 0) {
            target.back() *= f;
          } else {
            target.push_back(f);
          }
          rest /= f;
        }
        std::shuffle(target.begin(), target.end(), rng);
      }
      try {
        return d.reshape(target);
      } catch (const LayoutError&) {
        return d;
      }
    }
    case 7:
      return d.squeeze();
    default:
      return d.unsqueeze(uniform(rng, -rank - 1, rank));
  }
}

/// A random view: random extents (size-0 and size-1 axes included) and strides of any sign over
/// a base offset, then up to `steps` random view operations.
inline Dimensions random_view(std::mt19937_64& rng, int steps = 5) {
  const auto rank = static_cast<std::size_t>(uniform(rng, 0, 4));
  Index shape(rank);
  Index strides(rank);
  for (std::size_t k = 0; k < rank; ++k) {
    shape[k] = uniform(rng, 0, 9) == 0 ? uniform(rng, 0, 1) : uniform(rng, 1, 5);
  }
  index_t stride = uniform(rng, 1, 2);
  for (std::size_t k = rank; k-- > 0;) {
    strides[k] = uniform(rng, 0, 4) == 0 ? -stride : stride;
    stride *= std::max<index_t>(shape[k], 1) + uniform(rng, 0, 1);
  }
  // Start high enough that every address is >= 0, so the views can index a real buffer.
  index_t offset = uniform(rng, 0, 3);
  for (std::size_t k = 0; k < rank; ++k) {
    if (strides[k] < 0 && shape[k] > 0) {
      offset += (shape[k] - 1) * -strides[k];
    }
  }
  Dimensions d(shape, strides, offset);
  const index_t count = uniform(rng, 0, steps);
  for (index_t s = 0; s < count; ++s) {
    d = random_step(rng, d);
  }
  return d;
}

}  // namespace strata::test
