// Fuzzer (a): chains of view operations on Dimensions and Tensor, compared with the reference
// model (an explicit table of source positions with NumPy semantics). A rejected operation must
// throw a strata::Error and leave the tensor unchanged; an accepted one must agree with the
// model; a write through the final view must hit exactly the model's positions, or be
// rejected exactly when two indices share a position.
#include "model.hpp"

#include <strata/strata.hpp>

#include <exception>
#include <functional>
#include <limits>
#include <string>

namespace {

using fuzz::Array;
using fuzz::check;
using fuzz::I;
using strata::Dimensions;
using strata::Index;
using strata::Tensor;

constexpr I limit = 4096;  // the model tabulates every element

/// A small index, now and then an extreme one.
I small(FuzzedDataProvider& in, I lo, I hi) {
  switch (in.ConsumeIntegralInRange<int>(0, 15)) {
    case 0:
      return std::numeric_limits<I>::min();
    case 1:
      return std::numeric_limits<I>::max();
    case 2:
      return in.ConsumeIntegral<I>();
    default:
      return in.ConsumeIntegralInRange<I>(lo, hi);
  }
}

I resolve(I axis, I rank) {
  return axis < 0 ? axis + rank : axis;
}

/// One random operation, applied to the model (nullopt: NumPy rejects it) and to strata.
struct Step {
  std::optional<Array> model;
  std::function<Dimensions(const Dimensions&)> apply;
  std::function<Tensor<I>(Tensor<I>)> apply_tensor;
  bool may_need_copy = false;  // reshape: strata may answer LayoutError where NumPy copies
  std::string name;            // for the trace
};

std::string list(const Index& v) {
  return strata::to_string(v);
}

Step random_step(FuzzedDataProvider& in, const Array& a) {
  const auto r = static_cast<I>(a.shape.size());
  Step step;
  switch (in.ConsumeIntegralInRange<int>(0, 8)) {
    case 0: {  // select
      const I count = in.ConsumeIntegralInRange<I>(0, r + (in.ConsumeBool() ? 1 : 0));
      std::vector<strata::Selector> selectors;
      std::vector<fuzz::Pick> picks;
      bool valid = count <= r;
      for (I k = 0; k < count; ++k) {
        const I n = k < r ? a.shape[static_cast<std::size_t>(k)] : 1;
        switch (in.ConsumeIntegralInRange<int>(0, 3)) {
          case 0: {
            const I i = small(in, -n - 1, n);
            selectors.emplace_back(i);
            valid = valid && i >= -n && i < n;
            picks.push_back({true, {i < 0 ? i + n : i}});
            break;
          }
          case 1:
            selectors.emplace_back(strata::all);
            picks.push_back({false, fuzz::slice_positions({}, {}, 1, n)});
            break;
          case 2: {
            std::optional<I> start;
            std::optional<I> stop;
            if (in.ConsumeBool()) {
              start = small(in, -n - 2, n + 2);
            }
            if (in.ConsumeBool()) {
              stop = small(in, -n - 2, n + 2);
            }
            const I s = in.ConsumeBool() ? in.ConsumeIntegralInRange<I>(-3, 3) : small(in, -3, 3);
            selectors.emplace_back(strata::Range{start, stop, s});
            valid = valid && s != 0;
            if (s != 0) {
              picks.push_back({false, fuzz::slice_positions(start, stop, s, n)});
            }
            break;
          }
          default: {
            const auto length = in.ConsumeIntegralInRange<std::size_t>(0, 6);
            std::vector<I> entries;
            for (std::size_t j = 0; j < length; ++j) {
              entries.push_back(in.ConsumeIntegralInRange<I>(-1, n));
            }
            for (const I e : entries) {
              valid = valid && e >= 0 && e < n;
            }
            selectors.emplace_back(entries);
            picks.push_back({false, entries});
          }
        }
      }
      for (I k = count; k < r; ++k) {
        picks.push_back(
            {false, fuzz::slice_positions({}, {}, 1, a.shape[static_cast<std::size_t>(k)])});
      }
      if (valid) {
        step.model = fuzz::pick(a, picks);
      }
      step.name = "select " + std::to_string(selectors.size()) + " selectors";
      step.apply = [selectors](const Dimensions& d) { return d.select(selectors); };
      step.apply_tensor = [selectors](Tensor<I> t) { return t.select(selectors); };
      break;
    }
    case 1: {  // transpose
      Index perm;
      std::vector<I> resolved;
      const I count = in.ConsumeBool() ? r : in.ConsumeIntegralInRange<I>(0, 5);
      for (I k = 0; k < count; ++k) {
        perm.push_back(in.ConsumeIntegralInRange<I>(-r - 1, r));
      }
      bool valid = count == r;
      std::vector<bool> seen(static_cast<std::size_t>(r), false);
      for (const I p : perm) {
        const I k = resolve(p, r);
        valid = valid && p >= -r && p < r && !seen[static_cast<std::size_t>(k)];
        if (valid) {
          seen[static_cast<std::size_t>(k)] = true;
          resolved.push_back(k);
        }
      }
      if (valid) {
        step.model = fuzz::transpose(a, resolved);
      }
      step.name = "transpose " + list(perm);
      step.apply = [perm](const Dimensions& d) { return d.transpose(perm); };
      step.apply_tensor = [perm](Tensor<I> t) { return t.transpose(perm); };
      break;
    }
    case 2: {  // broadcast (and tile)
      Index shape;
      const I lead = in.ConsumeIntegralInRange<I>(r == 0 ? 0 : -1, 2);
      for (I k = 0; k < lead; ++k) {
        shape.push_back(in.ConsumeIntegralInRange<I>(-1, 3));
      }
      for (I k = std::max<I>(0, -lead); k < r; ++k) {
        const I e = a.shape[static_cast<std::size_t>(k)];
        shape.push_back(in.ConsumeBool() ? e
                                         : in.ConsumeIntegralInRange<I>(-1, 3) * std::max<I>(e, 1) +
                                               (in.ConsumeIntegralInRange<int>(0, 5) == 0 ? 1 : 0));
      }
      bool valid = static_cast<I>(shape.size()) >= r;
      I total = 1;
      for (const I e : shape) {
        valid = valid && e >= 0;
        total *= std::max<I>(e, 1);
      }
      const std::size_t extra = valid ? shape.size() - a.shape.size() : 0;
      for (std::size_t k = 0; valid && k < a.shape.size(); ++k) {
        const I e = a.shape[k];
        const I target = shape[extra + k];
        valid = target == e || (target == 0 && e <= 1) || (e > 0 && target > 0 && target % e == 0);
      }
      if (valid && total <= limit) {
        step.model = fuzz::broadcast(a, std::vector<I>(shape.begin(), shape.end()));
      } else if (valid) {
        step.apply = nullptr;  // too large for the model: skip
        return step;
      }
      step.name = "broadcast " + list(shape);
      step.apply = [shape](const Dimensions& d) { return d.broadcast(shape); };
      step.apply_tensor = [shape](Tensor<I> t) { return t.broadcast(shape); };
      break;
    }
    case 3: {  // rotate
      const I shift = small(in, -7, 7);
      const I axis = in.ConsumeIntegralInRange<I>(-r - 1, r);
      if (axis >= -r && axis < r) {
        const auto k = static_cast<std::size_t>(resolve(axis, r));
        step.model = a.shape[k] == 0 ? a : fuzz::roll(a, fuzz::floor_mod(shift, a.shape[k]), k);
      }
      step.name = "rotate " + std::to_string(shift) + " axis " + std::to_string(axis);
      step.apply = [shift, axis](const Dimensions& d) { return d.rotate(shift, axis); };
      step.apply_tensor = [shift, axis](Tensor<I> t) { return t.rotate(shift, axis); };
      break;
    }
    case 4: {  // reverse
      Index axes;
      const I count = in.ConsumeIntegralInRange<I>(0, 3);
      for (I k = 0; k < count; ++k) {
        axes.push_back(in.ConsumeIntegralInRange<I>(-r - 1, r));
      }
      bool valid = true;
      std::vector<std::size_t> resolved;
      for (const I p : axes) {
        valid = valid && p >= -r && p < r;
        if (valid) {
          const auto k = static_cast<std::size_t>(resolve(p, r));
          valid = std::find(resolved.begin(), resolved.end(), k) == resolved.end();
          resolved.push_back(k);
        }
      }
      if (valid) {
        step.model = fuzz::flip(a, resolved);
      }
      step.name = "reverse " + list(axes);
      step.apply = [axes](const Dimensions& d) { return d.reverse(axes); };
      step.apply_tensor = [axes](Tensor<I> t) { return t.reverse(axes); };
      break;
    }
    case 5: {  // squeeze
      Index axes;
      const I count = in.ConsumeIntegralInRange<I>(0, 2);
      for (I k = 0; k < count; ++k) {
        axes.push_back(in.ConsumeIntegralInRange<I>(-r - 1, r));
      }
      bool valid = true;
      std::vector<I> kept;
      std::vector<bool> dropped(static_cast<std::size_t>(r), false);
      for (const I p : axes) {
        valid = valid && p >= -r && p < r;
        if (valid) {
          const auto k = static_cast<std::size_t>(resolve(p, r));
          valid = a.shape[k] == 1 && !dropped[k];
          dropped[k] = true;
        }
      }
      if (valid) {
        for (std::size_t k = 0; k < a.shape.size(); ++k) {
          if (!dropped[k]) {
            kept.push_back(a.shape[k]);
          }
        }
        step.model = fuzz::reshape(a, kept);
      }
      step.name = "squeeze " + list(axes);
      step.apply = [axes](const Dimensions& d) { return d.squeeze(axes); };
      step.apply_tensor = [axes](Tensor<I> t) { return t.squeeze(axes); };
      break;
    }
    case 6: {  // unsqueeze
      const I axis = in.ConsumeIntegralInRange<I>(-r - 2, r + 1);
      if (axis >= -(r + 1) && axis <= r) {
        std::vector<I> shape = a.shape;
        const I at = axis < 0 ? axis + r + 1 : axis;
        shape.insert(shape.begin() + at, 1);
        step.model = fuzz::reshape(a, shape);
      }
      step.name = "unsqueeze " + std::to_string(axis);
      step.apply = [axis](const Dimensions& d) { return d.unsqueeze(axis); };
      step.apply_tensor = [axis](Tensor<I> t) { return t.unsqueeze(axis); };
      break;
    }
    default: {  // reshape
      Index shape;
      const I count = in.ConsumeIntegralInRange<I>(0, 4);
      for (I k = 0; k < count; ++k) {
        shape.push_back(in.ConsumeIntegralInRange<I>(-2, 6));
      }
      if (in.ConsumeBool() && !shape.empty()) {  // often a valid factorisation
        I rest = a.size();
        for (std::size_t k = 0; k + 1 < shape.size(); ++k) {
          shape[k] = shape[k] > 0 && rest % shape[k] == 0 ? shape[k] : 1;
          rest = shape[k] == 0 ? 0 : rest / shape[k];
        }
        shape.back() = in.ConsumeBool() ? -1 : rest;
      }
      int inferred = 0;
      bool valid = true;
      I known = 1;
      for (const I e : shape) {
        inferred += e == -1 ? 1 : 0;
        valid = valid && e >= -1;
        known *= e == -1 ? 1 : e;
      }
      valid = valid && inferred <= 1;
      std::vector<I> target(shape.begin(), shape.end());
      if (valid && inferred == 1) {
        valid = known != 0 && a.size() % known == 0;
        for (I& e : target) {
          e = e == -1 && valid ? a.size() / known : e;
        }
      } else if (valid) {
        valid = known == a.size();
      }
      if (valid) {
        step.model = fuzz::reshape(a, target);
      }
      step.may_need_copy = true;
      step.name = "reshape " + list(shape);
      step.apply = [shape](const Dimensions& d) { return d.reshape(shape); };
      step.apply_tensor = [shape](Tensor<I> t) { return t.reshape(shape); };
    }
  }
  return step;
}

void compare(const Dimensions& d, const Array& model) {
  const Index shape = d.shape();
  check(std::vector<I>(shape.begin(), shape.end()) == model.shape, "shape");
  check(d.size() == model.size(), "size");
  for (I i = 0; i < model.size(); ++i) {
    const I expected = model.data[static_cast<std::size_t>(i)];
    check(d.global_to_local(i) == expected, "global_to_local(linear)");
    const std::vector<I> g = model.unravel(i);
    check(d.global_to_local(Index(g.begin(), g.end())) == expected, "global_to_local(index)");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  fuzz::trace().clear();
  const auto rank = in.ConsumeIntegralInRange<std::size_t>(0, 4);
  std::vector<I> shape;
  for (std::size_t k = 0; k < rank; ++k) {
    shape.push_back(in.ConsumeIntegralInRange<int>(0, 7) == 0 ? in.ConsumeIntegralInRange<I>(0, 1)
                                                              : in.ConsumeIntegralInRange<I>(1, 5));
  }
  const Array base = fuzz::arange(shape);
  Array model = base;
  Dimensions d{Index(shape.begin(), shape.end())};
  const Tensor<I> source = Tensor<I>::from_vector(base.data, Index(shape.begin(), shape.end()));
  Tensor<I> view = source;
  const auto steps = in.ConsumeIntegralInRange<int>(0, 8);
  for (int s = 0; s < steps; ++s) {
    const Step step = random_step(in, model);
    if (!step.apply) {
      continue;
    }
    const Dimensions before = d;
    fuzz::trace() += step.name + " on " + strata::to_string(d) + "\n";
    try {
      const Dimensions next = step.apply(d);
      check(step.model.has_value(), "strata accepted an operation NumPy rejects");
      check(step.model->size() <= limit || true, "size");
      d = next;
      model = *step.model;
      view.rebind(step.apply_tensor(view));
      fuzz::trace() += strata::to_string(d) + " model " + fuzz::text(model.shape) + " " +
                       fuzz::text(model.data) + "\n";
    } catch (const strata::LayoutError&) {
      check(step.may_need_copy || !step.model.has_value(), "LayoutError for a valid view");
      check(d == before, "a rejected operation changed the map");
    } catch (const strata::Error&) {
      check(!step.model.has_value(), "strata rejected an operation NumPy accepts");
      check(d == before, "a rejected operation changed the map");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "non-strata exception: %s\n", e.what());
      check(false, "an exception that is not a strata::Error");
    }
    if (fuzz::footprint(model.shape) > limit) {
      return 0;
    }
  }
  compare(d, model);
  check(view.dims() == d, "the tensor view's map");
  check(view.to_vector() == model.data, "the tensor view's values");
  check(d.aliases() == fuzz::has_repeats(model.data), "aliases() against repeated positions");
  // Every address lists exactly the indices that read it.
  for (I address = -1; address <= base.size(); ++address) {
    std::vector<Index> expected;
    for (I i = 0; i < model.size(); ++i) {
      if (model.data[static_cast<std::size_t>(i)] == address) {
        const std::vector<I> g = model.unravel(i);
        expected.emplace_back(g.begin(), g.end());
      }
    }
    check(d.local_to_global(address) == expected, "local_to_global");
  }
  // A write through the view hits exactly the model's positions, or is rejected (nothing
  // written) exactly when two indices share one.
  Tensor<I> target = source.copy();
  Tensor<I> through(target.buffer(), d);
  try {
    through.fill(-1);
    check(!fuzz::has_repeats(model.data), "fill accepted an aliasing view");
    std::vector<I> expected = base.data;
    for (const I p : model.data) {
      expected[static_cast<std::size_t>(p)] = -1;
    }
    check(target.to_vector() == expected, "fill wrote the wrong elements");
  } catch (const strata::LayoutError&) {
    check(fuzz::has_repeats(model.data), "fill rejected a view without repeats");
    check(target.to_vector() == base.data, "a rejected fill wrote something");
  }
  return 0;
}
