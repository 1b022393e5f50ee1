// Test helpers shared by every layer: error checks and conformance-file diagnostics.
#pragma once

#include "strata/core/error.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
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

/// Replays a conformance file (tests/data/*.txt): skips blank and `#` lines; a line whose first
/// word is @p start_word begins a case (`start(in)` reads the rest of it); every other line is
/// a step, `step(op, in)`, run with the case's steps so far in Catch's INFO.
template <class Start, class Step>
void replay_cases(const std::string& path, const std::string& start_word, Start&& start,
                  Step&& step) {
  std::ifstream file(path);
  REQUIRE(file.good());
  std::string line;
  std::vector<std::string> steps;
  int cases = 0;
  while (std::getline(file, line)) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    std::istringstream in(line);
    std::string op;
    in >> op;
    if (op == start_word) {
      steps.clear();
      start(in);
      continue;
    }
    steps.push_back(line);
    INFO(start_word << " " << cases << ":\n" << join_steps(steps));
    if (op == "end") {
      ++cases;
    }
    step(op, in);
  }
}

}  // namespace strata::test
