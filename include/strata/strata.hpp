/// Umbrella header: includes every public strata header.
#pragma once

#include "strata/core/checked.hpp"
#include "strata/core/divisor.hpp"
#include "strata/core/error.hpp"
#include "strata/core/index.hpp"
#include "strata/layout/address_kernels.hpp"
#include "strata/layout/axis.hpp"
#include "strata/layout/dimensions.hpp"
#include "strata/layout/odometer.hpp"
#include "strata/layout/reduce_jointly.hpp"
#include "strata/layout/selector.hpp"
#include "strata/layout/signature.hpp"
