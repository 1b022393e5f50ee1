/// Umbrella header: includes every public strata header.
#pragma once

#include "strata/core/checked.hpp"
#include "strata/core/error.hpp"
#include "strata/core/index.hpp"
