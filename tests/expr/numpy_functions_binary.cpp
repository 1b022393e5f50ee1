// The two-operand functions of tests/data/numpy_functions.txt (see numpy_functions.hpp).
#include "numpy_functions.hpp"

#include <numeric>

namespace strata::test::numpy_replay {
namespace {

/// The two-operand functions, by name.
template <class A, class B>
std::optional<Outcome> binary_of(const std::string& name, const A& a, const B& b) {
  using TA = typename A::value_type;
  using TB = typename B::value_type;
  constexpr bool bools = std::is_same_v<TA, bool> && std::is_same_v<TB, bool>;
  if (name == "logical_and") {
    return outcome_of(strata::logical_and(a, b));
  }
  if (name == "logical_or") {
    return outcome_of(strata::logical_or(a, b));
  }
  if (name == "logical_xor") {
    return outcome_of(strata::logical_xor(a, b));
  }
  if constexpr (bools) {
    if (name == "and") {
      return outcome_of(a & b);
    }
    if (name == "or") {
      return outcome_of(a | b);
    }
    if (name == "xor") {
      return outcome_of(a ^ b);
    }
    return std::nullopt;
  } else if constexpr (!std::is_same_v<TA, bool> && !std::is_same_v<TB, bool>) {
    if (name == "arctan2") {
      return outcome_of(strata::arctan2(a, b));
    }
    if (name == "hypot") {
      return outcome_of(strata::hypot(a, b));
    }
    if (name == "power") {
      return outcome_of(strata::power(a, strata::abs(b)));
    }
    if (name == "true_divide") {
      return outcome_of(strata::true_divide(a, b));
    }
    if (name == "floor_divide") {
      return outcome_of(strata::floor_divide(a, b));
    }
    if (name == "mod") {
      return outcome_of(strata::mod(a, b));
    }
    if (name == "fmod") {
      return outcome_of(strata::fmod(a, b));
    }
    if (name == "minimum") {
      Tensor<strata::detail::combined_t<A, B>> out(
          strata::broadcast_shapes(a.shape(), b.shape(), "test"));
      out = strata::minimum(a, b);  // a selection or an expression: both assign
      return outcome_of(out);
    }
    if (name == "maximum") {
      Tensor<strata::detail::combined_t<A, B>> out(
          strata::broadcast_shapes(a.shape(), b.shape(), "test"));
      out = strata::maximum(a, b);
      return outcome_of(out);
    }
    if (name == "clip_arrays") {
      return outcome_of(strata::clip(a, b, b + 2));
    }
    if (name == "where_mixed") {
      Tensor<strata::detail::combined_t<A, B>> out(
          strata::broadcast_shapes(a.shape(), b.shape(), "test"));
      out = strata::where(a > b, a, b);
      return outcome_of(out);
    }
    return std::nullopt;
  } else {
    return std::nullopt;
  }
}

}  // namespace

std::optional<Outcome> binary(const std::string& name, const Operand& first,
                              const Operand& second) {
  // Only the pairs the generator draws (tests/expr/gen_numpy_functions.py, PAIRS): each pair
  // instantiates every function, so the others would only cost compile time.
  return std::visit(
      [&](const auto& a) -> std::optional<Outcome> {
        using TA = typename std::remove_cvref_t<decltype(a)>::value_type;
        const auto with = [&](auto tag) -> std::optional<Outcome> {
          using TB = decltype(tag);
          if (const auto* t = std::get_if<Tensor<TB>>(&second)) {
            return binary_of(name, a, *t);
          }
          return std::nullopt;
        };
        std::optional<Outcome> out;
        if constexpr (std::is_same_v<TA, double>) {
          out = with(double{});
          out = out ? out : with(float{});
          out = out ? out : with(std::int64_t{});
          out = out ? out : with(std::int32_t{});
        } else if constexpr (std::is_same_v<TA, float>) {
          out = with(float{});
          out = out ? out : with(double{});
        } else if constexpr (std::is_same_v<TA, std::int64_t>) {
          out = with(std::int64_t{});
          out = out ? out : with(std::int32_t{});
          out = out ? out : with(double{});
        } else if constexpr (std::is_same_v<TA, std::int32_t>) {
          out = with(std::int32_t{});
          out = out ? out : with(std::int64_t{});
          out = out ? out : with(double{});
        } else {
          out = with(bool{});
        }
        return out;
      },
      first);
}

}  // namespace strata::test::numpy_replay
