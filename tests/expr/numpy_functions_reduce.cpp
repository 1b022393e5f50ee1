// The reductions and scans of tests/data/numpy_functions.txt (see numpy_functions.hpp).
#include "numpy_functions.hpp"

#include <numeric>

namespace strata::test::numpy_replay {
namespace {

/// The reductions and scans, by name.
template <class A>
std::optional<Outcome> reduction_of(const std::string& name, const A& a,
                                    const std::optional<Index>& axes, bool keepdims) {
  using T = typename A::value_type;
  using strata::Ddof;
  const bool scan_or_arg = name.rfind("arg", 0) == 0 || name.rfind("cum", 0) == 0;
  const auto run = [&](auto whole, auto along) -> Outcome {
    if (axes) {
      return outcome_of(along(*axes));
    }
    if (keepdims && !scan_or_arg) {  // axis=None, keepdims=True: every axis, kept
      Index every(static_cast<std::size_t>(a.rank()));
      std::iota(every.begin(), every.end(), index_t{0});
      return outcome_of(along(every));
    }
    return outcome_of(whole());
  };
  const auto one_axis = [&]() { return (*axes)[0]; };
  if (name == "sum") {
    return run([&] { return strata::sum(a); },
               [&](const Index& x) { return strata::sum(a, x, keepdims); });
  }
  if (name == "prod") {
    return run([&] { return strata::prod(a); },
               [&](const Index& x) { return strata::prod(a, x, keepdims); });
  }
  if (name == "mean") {
    return run([&] { return strata::mean(a); },
               [&](const Index& x) { return strata::mean(a, x, keepdims); });
  }
  if (name == "any") {
    return run([&] { return strata::any(a); },
               [&](const Index& x) { return strata::any(a, x, keepdims); });
  }
  if (name == "all") {
    return run([&] { return strata::all(a); },
               [&](const Index& x) { return strata::all(a, x, keepdims); });
  }
  if (name == "count_nonzero") {
    return run([&] { return strata::count_nonzero(a); },
               [&](const Index& x) { return strata::count_nonzero(a, x, keepdims); });
  }
  if (name == "argmin") {
    return run([&] { return strata::argmin(a); },
               [&](const Index&) { return strata::argmin(a, one_axis(), keepdims); });
  }
  if (name == "argmax") {
    return run([&] { return strata::argmax(a); },
               [&](const Index&) { return strata::argmax(a, one_axis(), keepdims); });
  }
  if (name == "cumsum") {
    return run([&] { return strata::cumsum(a); },
               [&](const Index&) { return strata::cumsum(a, one_axis()); });
  }
  if (name == "cumprod") {
    return run([&] { return strata::cumprod(a); },
               [&](const Index&) { return strata::cumprod(a, one_axis()); });
  }
  if constexpr (!std::is_same_v<T, bool>) {
    if (name == "min") {
      return run([&] { return strata::min(a); },
                 [&](const Index& x) { return strata::min(a, x, keepdims); });
    }
    if (name == "max") {
      return run([&] { return strata::max(a); },
                 [&](const Index& x) { return strata::max(a, x, keepdims); });
    }
    if (name == "var" || name == "var_ddof1") {
      const Ddof d{name == "var" ? 0 : 1};
      return run([&] { return strata::var(a, d); },
                 [&](const Index& x) { return strata::var(a, x, d, keepdims); });
    }
    if (name == "std" || name == "std_ddof1") {
      const Ddof d{name == "std" ? 0 : 1};
      return run([&] { return strata::std(a, d); },
                 [&](const Index& x) { return strata::std(a, x, d, keepdims); });
    }
    if (name == "nansum") {
      return run([&] { return strata::nansum(a); },
                 [&](const Index& x) { return strata::nansum(a, x, keepdims); });
    }
    if (name == "nanmean") {
      return run([&] { return strata::nanmean(a); },
                 [&](const Index& x) { return strata::nanmean(a, x, keepdims); });
    }
    if (name == "nanmin") {
      return run([&] { return strata::nanmin(a); },
                 [&](const Index& x) { return strata::nanmin(a, x, keepdims); });
    }
    if (name == "nanmax") {
      return run([&] { return strata::nanmax(a); },
                 [&](const Index& x) { return strata::nanmax(a, x, keepdims); });
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<Outcome> reduction(const std::string& name, const Operand& a,
                                 const std::optional<Index>& axes, bool keepdims) {
  return std::visit([&](const auto& t) { return reduction_of(name, t, axes, keepdims); }, a);
}

}  // namespace strata::test::numpy_replay
