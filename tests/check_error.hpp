// Test helpers shared by every layer: error checks and conformance-file diagnostics.
#pragma once

#include "strata/core/error.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace strata::test {

/// Runs `f`, which must throw `E` whose operation() is @p operation and whose message starts
/// with `operation: ` and mentions @p argument.
template <class E, class F>
void check_error(F&& f, const std::string& operation, const std::string& argument) {
  try {
    f();
    FAIL("no exception thrown");
  } catch (const E& e) {
    CHECK(e.operation() == operation);
    CHECK_THAT(std::string(e.what()),
               Catch::Matchers::Contains(operation + ": ") && Catch::Matchers::Contains(argument));
  }
}

/// The steps of a conformance case so far, one indented line each (for INFO).
inline std::string join_steps(const std::vector<std::string>& steps) {
  std::string text;
  for (const auto& s : steps) {
    text += "  " + s + "\n";
  }
  return text;
}

}  // namespace strata::test
