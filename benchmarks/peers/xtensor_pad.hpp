// xtensor's pad behind a plain function, so it can be compiled as C++17 (see xtensor_pad.cpp).
#pragma once

#include <cstddef>

namespace peers {

/// Pads an n x n row-major image by `width` on every side into out ((n + 2 width)^2 floats),
/// with xt::pad in reflect or constant (zero) mode.
void xtensor_pad(const float* image, float* out, std::size_t n, std::size_t width, bool reflect);

}  // namespace peers
