/// @file
/// Lazy expressions in one include: nodes, operators and functions, evaluation, reductions,
/// jagged tensors in expressions.
#pragma once

#include "strata/expr/evaluate.hpp"    // IWYU pragma: export
#include "strata/expr/expression.hpp"  // IWYU pragma: export
#include "strata/expr/functions.hpp"   // IWYU pragma: export
#include "strata/expr/jagged.hpp"      // IWYU pragma: export
#include "strata/expr/jagged_reductions.hpp"  // IWYU pragma: export
#include "strata/expr/jagged_rows.hpp"  // IWYU pragma: export
#include "strata/expr/operators.hpp"   // IWYU pragma: export
#include "strata/expr/reduce.hpp"      // IWYU pragma: export
