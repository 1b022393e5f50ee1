// Fuzzer (b): random selection trees (concat, interleave, repeat, tile, pad in every mode,
// where, minimum, maximum, and views of them), run as stack programs on strata and on the
// reference model. Evaluation (materialize, assign_to a strided view, at) must agree with the
// model; a rejected operation must throw a strata::Error.
#include "model.hpp"

#include <strata/strata.hpp>

#include <exception>
#include <string>

namespace {

using fuzz::Array;
using fuzz::check;
using fuzz::I;
using strata::Index;
using strata::PadMode;
using strata::Selection;
using strata::Tensor;

constexpr I limit = 4096;

struct Item {
  Selection<I> selection;
  Array model;
};

Index to_index(const std::vector<I>& v) {
  return Index(v.begin(), v.end());
}

/// NumPy's broadcast of two shapes, or nothing.
std::optional<std::vector<I>> broadcast_shape(const std::vector<I>& a, const std::vector<I>& b) {
  const std::size_t r = std::max(a.size(), b.size());
  std::vector<I> out(r);
  for (std::size_t k = 0; k < r; ++k) {
    const I x = k < r - a.size() ? 1 : a[k - (r - a.size())];
    const I y = k < r - b.size() ? 1 : b[k - (r - b.size())];
    if (x != y && x != 1 && y != 1) {
      return std::nullopt;
    }
    out[k] = x == 1 ? y : x;
  }
  return out;
}

/// The element of `a` that index g of a broadcast result reads.
I broadcast_at(const Array& a, const std::vector<I>& g) {
  std::vector<I> source(a.shape.size());
  const std::size_t lead = g.size() - a.shape.size();
  for (std::size_t k = 0; k < a.shape.size(); ++k) {
    source[k] = a.shape[k] == 1 ? 0 : g[lead + k];
  }
  return a.at(source);
}

/// numpy.pad's position for output index i of an axis of extent n padded by `before`; -1 for
/// the constant. Closed forms; the fuzzer keeps reflect/symmetric/wrap widths <= n, where they
/// equal NumPy's iterative algorithm (wider pads are checked against NumPy's own output in
/// tests/select/pad_conformance.cpp).
I pad_position(I i, I n, I before, PadMode mode) {
  const I j = i - before;
  switch (mode) {
    case PadMode::constant:
      return j >= 0 && j < n ? j : -1;
    case PadMode::edge:
      return std::clamp<I>(j, 0, n - 1);
    case PadMode::wrap:
      return fuzz::floor_mod(j, n);
    case PadMode::reflect: {
      if (n == 1) {
        return 0;
      }
      const I k = fuzz::floor_mod(j, 2 * (n - 1));
      return k < n ? k : 2 * (n - 1) - k;
    }
    case PadMode::symmetric: {
      const I k = fuzz::floor_mod(j, 2 * n);
      return k < n ? k : 2 * n - 1 - k;
    }
  }
  return -1;
}

std::vector<I> random_shape(FuzzedDataProvider& in, std::size_t rank) {
  std::vector<I> shape;
  for (std::size_t k = 0; k < rank; ++k) {
    shape.push_back(in.ConsumeIntegralInRange<int>(0, 9) == 0 ? 0
                                                              : in.ConsumeIntegralInRange<I>(1, 4));
  }
  return shape;
}

Item leaf(FuzzedDataProvider& in, std::vector<I> shape) {
  const I offset = in.ConsumeIntegralInRange<I>(0, 3) * 100;
  const Array a = fuzz::arange(shape, offset);
  Tensor<I> t = Tensor<I>::from_vector(a.data, to_index(shape));
  if (in.ConsumeBool() && !shape.empty()) {  // a flipped view as the leaf
    return {Selection<I>(t.reverse({0})), fuzz::flip(a, {0})};
  }
  return {Selection<I>(t), a};
}

/// Runs `make` (the strata side); the model says whether it is valid. Returns false when the
/// operation was (rightly) rejected.
template <class Make>
bool run(const std::optional<Array>& model, Make&& make, std::vector<Item>& stack) {
  try {
    Selection<I> s = make();
    check(model.has_value(), "strata accepted a selection NumPy rejects");
    stack.push_back({std::move(s), *model});
    return true;
  } catch (const strata::Error& e) {
    if (model.has_value()) {
      std::fprintf(stderr, "rejected: %s\n", e.what());
    }
    check(!model.has_value(), "strata rejected a selection NumPy accepts");
    return false;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "non-strata exception: %s\n", e.what());
    check(false, "an exception that is not a strata::Error");
    return false;
  }
}

Item pop(std::vector<Item>& stack) {
  Item top = stack.back();
  stack.pop_back();
  return top;
}

void step(FuzzedDataProvider& in, std::vector<Item>& stack) {
  const int op = in.ConsumeIntegralInRange<int>(0, 11);
  if (stack.empty() || op == 0) {
    stack.push_back(leaf(in, random_shape(in, in.ConsumeIntegralInRange<std::size_t>(1, 3))));
    return;
  }
  Item top = pop(stack);
  const std::vector<I>& shape = top.model.shape;
  const auto r = static_cast<I>(shape.size());
  switch (op) {
    case 1:
    case 2: {  // concat / interleave with sources of the same rank
      const I axis = in.ConsumeIntegralInRange<I>(-r, r);
      std::vector<Item> parts{top};
      const auto more = in.ConsumeIntegralInRange<std::size_t>(0, 2);
      for (std::size_t s = 0; s < more; ++s) {
        std::vector<I> other = shape;
        if (op == 1 && axis >= -r && axis < r && in.ConsumeBool()) {
          other[static_cast<std::size_t>(axis < 0 ? axis + r : axis)] =
              in.ConsumeIntegralInRange<I>(0, 3);
        } else if (in.ConsumeIntegralInRange<int>(0, 7) == 0 && !other.empty()) {
          other[0] += 1;  // a mismatch
        }
        parts.push_back(leaf(in, other));
      }
      std::vector<Selection<I>> sources;
      for (const auto& p : parts) {
        sources.push_back(p.selection);
      }
      std::optional<Array> model;
      bool valid = axis >= -r && axis < r;
      const auto k = static_cast<std::size_t>(valid ? (axis < 0 ? axis + r : axis) : 0);
      for (const auto& p : parts) {
        for (std::size_t j = 0; valid && j < shape.size(); ++j) {
          valid = p.model.shape.size() == shape.size() &&
                  (p.model.shape[j] == shape[j] || (op == 1 && j == k));
        }
      }
      if (valid) {
        std::vector<I> out = shape;
        if (op == 1) {
          out[k] = 0;
          for (const auto& p : parts) {
            out[k] += p.model.shape[k];
          }
          model = fuzz::tabulate(out, [&](const std::vector<I>& g) {
            std::vector<I> local = g;
            for (const auto& p : parts) {
              if (local[k] < p.model.shape[k]) {
                return p.model.at(local);
              }
              local[k] -= p.model.shape[k];
            }
            return I{-999};
          });
        } else {
          const auto count = static_cast<I>(parts.size());
          out[k] *= count;
          model = fuzz::tabulate(out, [&](const std::vector<I>& g) {
            std::vector<I> local = g;
            local[k] = g[k] / count;
            return parts[static_cast<std::size_t>(g[k] % count)].model.at(local);
          });
        }
      }
      if (op == 1) {
        run(
            model, [&] { return strata::concat<I>(axis, sources); }, stack);
      } else {
        run(
            model, [&] { return strata::interleave<I>(axis, sources); }, stack);
      }
      return;
    }
    case 3: {  // repeat
      const I count = in.ConsumeIntegralInRange<I>(-1, 3);
      const I axis = in.ConsumeIntegralInRange<I>(-r - 1, r);
      std::optional<Array> model;
      if (count >= 0 && axis >= -r && axis < r) {
        const auto k = static_cast<std::size_t>(axis < 0 ? axis + r : axis);
        std::vector<I> out = shape;
        out[k] *= count;
        model = fuzz::tabulate(out, [&](const std::vector<I>& g) {
          std::vector<I> local = g;
          local[k] = g[k] / count;
          return top.model.at(local);
        });
      }
      run(
          model, [&] { return strata::repeat(top.selection, count, axis); }, stack);
      return;
    }
    case 4: {  // tile
      Index reps;
      const auto n = in.ConsumeIntegralInRange<std::size_t>(0, 4);
      for (std::size_t k = 0; k < n; ++k) {
        reps.push_back(in.ConsumeIntegralInRange<I>(-1, 3));
      }
      std::optional<Array> model;
      bool valid = true;
      for (const I x : reps) {
        valid = valid && x >= 0;
      }
      if (valid) {
        std::vector<I> lifted = shape;
        while (lifted.size() < reps.size()) {
          lifted.insert(lifted.begin(), 1);
        }
        const Array source = fuzz::reshape(top.model, lifted);
        std::vector<I> out = lifted;
        for (std::size_t k = 0; k < reps.size(); ++k) {
          out[out.size() - reps.size() + k] *= reps[k];
        }
        model = fuzz::tabulate(out, [&](const std::vector<I>& g) {
          std::vector<I> local = g;
          for (std::size_t k = 0; k < local.size(); ++k) {
            local[k] %= lifted[k];
          }
          return source.at(local);
        });
      }
      run(
          model, [&] { return strata::tile(top.selection, reps); }, stack);
      return;
    }
    case 5: {  // pad
      const auto mode = static_cast<PadMode>(in.ConsumeIntegralInRange<int>(0, 4));
      std::vector<strata::PadWidth> widths;
      for (std::size_t k = 0; k < shape.size(); ++k) {
        const I cap = mode == PadMode::constant || mode == PadMode::edge ? 6 : shape[k];
        widths.emplace_back(
            in.ConsumeIntegralInRange<I>(in.ConsumeIntegralInRange<int>(0, 15) == 0 ? -1 : 0, cap),
            in.ConsumeIntegralInRange<I>(0, cap));
      }
      if (in.ConsumeIntegralInRange<int>(0, 15) == 0) {
        widths.emplace_back(1, 1);  // one pair too many
      }
      const I value = in.ConsumeIntegralInRange<I>(-9, -1);
      bool valid = widths.size() == shape.size();
      for (std::size_t k = 0; valid && k < widths.size(); ++k) {
        valid = widths[k].first >= 0 && widths[k].second >= 0 &&
                (shape[k] > 0 || mode == PadMode::constant ||
                 (widths[k].first == 0 && widths[k].second == 0));
      }
      std::optional<Array> model;
      if (valid) {
        std::vector<I> out = shape;
        for (std::size_t k = 0; k < out.size(); ++k) {
          out[k] += widths[k].first + widths[k].second;
        }
        if (fuzz::footprint(out) > limit) {
          stack.push_back(top);
          return;
        }
        model = fuzz::tabulate(out, [&](const std::vector<I>& g) {
          std::vector<I> local(g.size());
          for (std::size_t k = 0; k < g.size(); ++k) {
            local[k] = pad_position(g[k], shape[k], widths[k].first, mode);
            if (local[k] < 0) {
              return value;
            }
          }
          return top.model.at(local);
        });
      }
      run(
          model, [&] { return strata::pad(top.selection, widths, mode, value); }, stack);
      return;
    }
    case 6:
    case 7:
    case 8: {  // where / minimum / maximum against a second operand of a broadcastable shape
      std::vector<I> other = shape;
      for (I& e : other) {
        const int pick = in.ConsumeIntegralInRange<int>(0, 5);
        e = pick == 0 ? 1 : pick == 1 ? e + 1 : e;
      }
      if (!other.empty() && in.ConsumeBool()) {
        other.erase(other.begin());
      }
      const Item b = leaf(in, other);
      const auto out = broadcast_shape(shape, other);
      if (op == 6) {
        const Item mask = leaf(in, in.ConsumeBool() ? shape : other);
        const auto all = out ? broadcast_shape(*out, mask.model.shape) : std::nullopt;
        std::optional<Array> model;
        if (all) {
          model = fuzz::tabulate(*all, [&](const std::vector<I>& g) {
            return broadcast_at(mask.model, g) % 2 != 0 ? broadcast_at(top.model, g)
                                                        : broadcast_at(b.model, g);
          });
        }
        // The mask: odd values of mask's leaf, as a selection of bools.
        const Tensor<unsigned char> odd = strata::map(
            mask.selection.materialize(), [](I x) -> unsigned char { return x % 2 != 0; });
        run(
            model, [&] { return strata::where(odd, top.selection, b.selection); }, stack);
        return;
      }
      std::optional<Array> model;
      if (out) {
        model = fuzz::tabulate(*out, [&](const std::vector<I>& g) {
          const I x = broadcast_at(top.model, g);
          const I y = broadcast_at(b.model, g);
          return op == 7 ? std::min(x, y) : std::max(x, y);
        });
      }
      if (op == 7) {
        run(
            model, [&] { return strata::minimum(top.selection, b.selection); }, stack);
      } else {
        run(
            model, [&] { return strata::maximum(top.selection, b.selection); }, stack);
      }
      return;
    }
    case 9: {  // a slice of one axis, any step
      if (r == 0) {
        stack.push_back(top);
        return;
      }
      const auto k = in.ConsumeIntegralInRange<std::size_t>(0, shape.size() - 1);
      const I n = shape[k];
      std::optional<I> start;
      std::optional<I> stop;
      if (in.ConsumeBool()) {
        start = in.ConsumeIntegralInRange<I>(-n - 1, n + 1);
      }
      if (in.ConsumeBool()) {
        stop = in.ConsumeIntegralInRange<I>(-n - 1, n + 1);
      }
      I s = in.ConsumeIntegralInRange<I>(-3, 3);
      s = s == 0 ? 1 : s;
      std::vector<fuzz::Pick> picks;
      std::vector<strata::Selector> selectors;
      for (std::size_t j = 0; j < shape.size(); ++j) {
        if (j == k) {
          picks.push_back({false, fuzz::slice_positions(start, stop, s, n)});
          selectors.emplace_back(strata::Range{start, stop, s});
        } else {
          picks.push_back({false, fuzz::slice_positions({}, {}, 1, shape[j])});
          selectors.emplace_back(strata::all);
        }
      }
      run(
          fuzz::pick(top.model, picks), [&] { return top.selection.select(selectors); }, stack);
      return;
    }
    case 10: {  // transpose, reverse or rotate
      const int which = in.ConsumeIntegralInRange<int>(0, 2);
      if (which == 0) {
        std::vector<I> perm(shape.size());
        std::iota(perm.begin(), perm.end(), I{0});
        for (std::size_t j = perm.size(); j > 1; --j) {
          std::swap(perm[j - 1], perm[in.ConsumeIntegralInRange<std::size_t>(0, j - 1)]);
        }
        run(
            fuzz::transpose(top.model, perm),
            [&] { return top.selection.transpose(to_index(perm)); }, stack);
      } else if (which == 1 && r > 0) {
        const auto k = in.ConsumeIntegralInRange<std::size_t>(0, shape.size() - 1);
        run(
            fuzz::flip(top.model, {k}), [&] { return top.selection.reverse({static_cast<I>(k)}); },
            stack);
      } else if (r > 0) {
        const auto k = in.ConsumeIntegralInRange<std::size_t>(0, shape.size() - 1);
        const I shift = in.ConsumeIntegralInRange<I>(-6, 6);
        run(
            shape[k] == 0 ? top.model : fuzz::roll(top.model, fuzz::floor_mod(shift, shape[k]), k),
            [&] { return top.selection.rotate(shift, static_cast<I>(k)); }, stack);
      } else {
        stack.push_back(top);
      }
      return;
    }
    default: {  // reshape to a flat vector or a random factorisation
      std::vector<I> out{top.model.size()};
      if (in.ConsumeBool() && top.model.size() % 2 == 0 && top.model.size() > 0) {
        out = {2, top.model.size() / 2};
      }
      run(
          fuzz::reshape(top.model, out), [&] { return top.selection.reshape(to_index(out)); },
          stack);
    }
  }
}

void verify(const Item& item) {
  const Selection<I>& s = item.selection;
  const Index shape = s.shape();
  check(std::vector<I>(shape.begin(), shape.end()) == item.model.shape, "shape");
  check(s.materialize().to_vector() == item.model.data, "materialize");
  check(s.materialize(strata::seq).to_vector() == item.model.data, "materialize seq");
  const auto r = static_cast<std::size_t>(s.rank());
  if (r >= 1) {
    // Into a strided destination: the transpose of a dense buffer, so rows are not contiguous.
    std::vector<I> reversed(item.model.shape.rbegin(), item.model.shape.rend());
    Tensor<I> target(to_index(reversed));
    Tensor<I> view = target.transpose();
    s.assign_to(view);
    check(view.to_vector() == item.model.data, "assign_to a strided view");
  }
  for (I i = 0; i < item.model.size(); i += 7) {
    const std::vector<I> g = item.model.unravel(i);
    check(s.at(to_index(g)) == item.model.data[static_cast<std::size_t>(i)], "at");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  std::vector<Item> stack;
  const auto steps = in.ConsumeIntegralInRange<int>(1, 10);
  for (int s = 0; s < steps && in.remaining_bytes() > 0; ++s) {
    step(in, stack);
    if (!stack.empty() && fuzz::footprint(stack.back().model.shape) > limit) {
      return 0;
    }
  }
  for (const Item& item : stack) {
    verify(item);
  }
  return 0;
}
