// The fuzzers' reference model: an N-d array as an explicit row-major table, with NumPy's
// semantics written out directly (no strata code), and a reader of fuzz bytes.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace fuzz {

using I = std::int64_t;

/// What the current input did so far, printed when a check fails.
inline std::string& trace() {
  static std::string text;
  return text;
}

/// Stops the run with a crash that libFuzzer reports (and keeps the input that caused it).
inline void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz check failed: %s\nafter:\n%s\n", what, trace().c_str());
    std::abort();
  }
}

/// Formats a list as `[a b c]`.
inline std::string text(const std::vector<I>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    out += (i == 0 ? "" : " ") + std::to_string(v[i]);
  }
  return out + "]";
}

/// A row-major array of values with a shape: what NumPy would hold.
struct Array {
  std::vector<I> shape;
  std::vector<I> data;

  [[nodiscard]] I size() const {
    I n = 1;
    for (const I e : shape) {
      n *= e;
    }
    return n;
  }
  /// The row-major position of a multi-index.
  [[nodiscard]] I linear(const std::vector<I>& g) const {
    I at = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      at = at * shape[k] + g[k];
    }
    return at;
  }
  /// The multi-index of a row-major position.
  [[nodiscard]] std::vector<I> unravel(I at) const {
    std::vector<I> g(shape.size(), 0);
    for (std::size_t k = shape.size(); k-- > 0;) {
      g[k] = shape[k] == 0 ? 0 : at % shape[k];
      at = shape[k] == 0 ? 0 : at / shape[k];
    }
    return g;
  }
  [[nodiscard]] I at(const std::vector<I>& g) const {
    return data[static_cast<std::size_t>(linear(g))];
  }
};

/// The product of the extents, empty axes counted as 1: how large an array of this shape can
/// grow when an empty axis is broadcast or padded (the fuzzers keep it small).
inline I footprint(const std::vector<I>& shape) {
  I n = 1;
  for (const I e : shape) {
    n *= std::max<I>(e, 1);
    if (n > (I{1} << 40)) {
      return n;  // large enough to be refused; stop before overflowing
    }
  }
  return n;
}

/// arange(size).reshape(shape) + offset.
inline Array arange(const std::vector<I>& shape, I offset = 0) {
  Array a{shape, {}};
  a.data.resize(static_cast<std::size_t>(a.size()));
  std::iota(a.data.begin(), a.data.end(), offset);
  return a;
}

/// Builds an array of `shape` whose element at g is f(g).
template <class F>
Array tabulate(const std::vector<I>& shape, F&& f) {
  Array out{shape, {}};
  const I n = out.size();
  out.data.reserve(static_cast<std::size_t>(n));
  for (I i = 0; i < n; ++i) {
    out.data.push_back(f(out.unravel(i)));
  }
  return out;
}

inline I floor_mod(I a, I n) {
  const I r = a % n;
  return r < 0 ? r + n : r;
}

/// Python's slice(start, stop, step).indices(n): the positions a slice selects.
inline std::vector<I> slice_positions(std::optional<I> start, std::optional<I> stop, I step, I n) {
  I lo = 0;
  I hi = 0;
  if (step > 0) {
    lo = !start ? 0 : (*start < 0 ? std::max<I>(*start + n, 0) : std::min(*start, n));
    hi = !stop ? n : (*stop < 0 ? std::max<I>(*stop + n, 0) : std::min(*stop, n));
  } else {
    lo = !start ? n - 1 : (*start < 0 ? std::max<I>(*start + n, -1) : std::min(*start, n - 1));
    hi = !stop ? -1 : (*stop < 0 ? std::max<I>(*stop + n, -1) : std::min(*stop, n - 1));
  }
  std::vector<I> out;
  for (I i = lo; step > 0 ? i < hi : i > hi;) {
    out.push_back(i);
    if (__builtin_add_overflow(i, step, &i)) {
      break;  // the next position is past any axis
    }
  }
  return out;
}

/// One selector of the model: drop (an integer), positions (a slice or an index array).
struct Pick {
  bool drop = false;
  std::vector<I> positions;
};

/// a[picks...]: each axis reads the listed positions (np.ix_ style), dropped axes vanish.
inline Array pick(const Array& a, const std::vector<Pick>& picks) {
  std::vector<I> shape;
  for (std::size_t k = 0; k < a.shape.size(); ++k) {
    if (!picks[k].drop) {
      shape.push_back(static_cast<I>(picks[k].positions.size()));
    }
  }
  return tabulate(shape, [&](const std::vector<I>& g) {
    std::vector<I> source(a.shape.size());
    std::size_t j = 0;
    for (std::size_t k = 0; k < a.shape.size(); ++k) {
      source[k] = picks[k].drop ? picks[k].positions[0]
                                : picks[k].positions[static_cast<std::size_t>(g[j++])];
    }
    return a.at(source);
  });
}

inline Array transpose(const Array& a, const std::vector<I>& perm) {
  std::vector<I> shape;
  for (const I p : perm) {
    shape.push_back(a.shape[static_cast<std::size_t>(p)]);
  }
  return tabulate(shape, [&](const std::vector<I>& g) {
    std::vector<I> source(a.shape.size());
    for (std::size_t k = 0; k < perm.size(); ++k) {
      source[static_cast<std::size_t>(perm[k])] = g[k];
    }
    return a.at(source);
  });
}

/// np.broadcast_to extended with tiling: an axis grows to a multiple of its extent.
inline Array broadcast(const Array& a, const std::vector<I>& shape) {
  const std::size_t lead = shape.size() - a.shape.size();
  return tabulate(shape, [&](const std::vector<I>& g) {
    std::vector<I> source(a.shape.size());
    for (std::size_t k = 0; k < a.shape.size(); ++k) {
      source[k] = g[lead + k] % a.shape[k];
    }
    return a.at(source);
  });
}

/// np.roll(a, shift, axis).
inline Array roll(const Array& a, I shift, std::size_t axis) {
  return tabulate(a.shape, [&](const std::vector<I>& g) {
    std::vector<I> source = g;
    source[axis] = floor_mod(g[axis] - shift, a.shape[axis]);
    return a.at(source);
  });
}

/// np.flip(a, axes).
inline Array flip(const Array& a, const std::vector<std::size_t>& axes) {
  return tabulate(a.shape, [&](const std::vector<I>& g) {
    std::vector<I> source = g;
    for (const std::size_t k : axes) {
      source[k] = a.shape[k] - 1 - g[k];
    }
    return a.at(source);
  });
}

/// np.reshape: the same row-major sequence under a new shape.
inline Array reshape(const Array& a, const std::vector<I>& shape) {
  return Array{shape, a.data};
}

/// Whether a value repeats (two indices read one address).
inline bool has_repeats(std::vector<I> values) {
  std::sort(values.begin(), values.end());
  return std::adjacent_find(values.begin(), values.end()) != values.end();
}

}  // namespace fuzz
