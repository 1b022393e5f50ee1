// The unary functions and scalar clips of tests/data/numpy_functions.txt (see numpy_functions.hpp).
#include "numpy_functions.hpp"

#include <numeric>

namespace strata::test::numpy_replay {
namespace {

/// The unary functions and scalar clips, by name.
template <class A>
std::optional<Outcome> unary_of(const std::string& name, const A& a) {
  using T = typename A::value_type;
  constexpr bool is_bool = std::is_same_v<T, bool>;
  if (name == "logical_not") {
    return outcome_of(strata::logical_not(a));
  }
  if constexpr (is_bool) {
    if (name == "invert") {
      return outcome_of(~a);
    }
    if (name == "bool_plus_one") {
      // NumPy's Python int is int64; C++'s literal 1 is int (strata keeps the literal's type)
      return outcome_of(a + std::int64_t{1});
    }
    if (name == "bool_times_half") {
      return outcome_of(a * 0.5);
    }
    return std::nullopt;
  } else {
    if (name == "square") {
      return outcome_of(strata::square(a));
    }
    if (name == "sign") {
      return outcome_of(strata::sign(a));
    }
    if (name == "round") {
      return outcome_of(strata::round(a));
    }
    if (name == "rint") {
      return outcome_of(strata::rint(a));
    }
    if (name == "trunc") {
      return outcome_of(strata::trunc(a));
    }
    if (name == "floor") {
      return outcome_of(strata::floor(a));
    }
    if (name == "ceil") {
      return outcome_of(strata::ceil(a));
    }
    if (name == "abs") {
      return outcome_of(strata::abs(a));
    }
    if (name == "isnan") {
      return outcome_of(strata::isnan(a));
    }
    if (name == "isinf") {
      return outcome_of(strata::isinf(a));
    }
    if (name == "isfinite") {
      return outcome_of(strata::isfinite(a));
    }
    if (name == "sqrt") {
      return outcome_of(strata::sqrt(a));
    }
    if (name == "exp") {
      return outcome_of(strata::exp(a));
    }
    if (name == "expm1") {
      return outcome_of(strata::expm1(a));
    }
    if (name == "log") {
      return outcome_of(strata::log(a));
    }
    if (name == "log1p") {
      return outcome_of(strata::log1p(a));
    }
    if (name == "log2") {
      return outcome_of(strata::log2(a));
    }
    if (name == "log10") {
      return outcome_of(strata::log10(a));
    }
    if (name == "sin") {
      return outcome_of(strata::sin(a));
    }
    if (name == "cos") {
      return outcome_of(strata::cos(a));
    }
    if (name == "tan") {
      return outcome_of(strata::tan(a));
    }
    if (name == "arcsin") {
      return outcome_of(strata::arcsin(a));
    }
    if (name == "arccos") {
      return outcome_of(strata::arccos(a));
    }
    if (name == "arctan") {
      return outcome_of(strata::arctan(a));
    }
    if (name == "sinh") {
      return outcome_of(strata::sinh(a));
    }
    if (name == "cosh") {
      return outcome_of(strata::cosh(a));
    }
    if (name == "tanh") {
      return outcome_of(strata::tanh(a));
    }
    if (name == "nan_to_num") {
      return outcome_of(strata::nan_to_num(a));
    }
    if (name == "negative") {
      return outcome_of(-a);
    }
    if (name == "clip_int_bounds") {
      return outcome_of(strata::clip(a, -1, 2));
    }
    if (name == "clip_float_bounds") {
      return outcome_of(strata::clip(a, 0.5, 2.5));
    }
    if (name == "clip_crossed") {
      return outcome_of(strata::clip(a, 2, -1));
    }
    return std::nullopt;
  }
}

}  // namespace

std::optional<Outcome> unary(const std::string& name, const Operand& a) {
  return std::visit([&](const auto& t) { return unary_of(name, t); }, a);
}

}  // namespace strata::test::numpy_replay
