/// Lazy expressions in one include: nodes, operators and functions, evaluation, reductions.
#pragma once

#include "strata/expr/evaluate.hpp"    // IWYU pragma: export
#include "strata/expr/expression.hpp"  // IWYU pragma: export
#include "strata/expr/operators.hpp"   // IWYU pragma: export
#include "strata/expr/reduce.hpp"      // IWYU pragma: export
