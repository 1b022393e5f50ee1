// xtensor's pad, compiled as C++17: xtensor 0.24.3's xt::pad (Debian 12) returns wrong values
// when compiled as C++20 (zeros or garbage with g++ 12; checked against numpy.pad), so the
// benchmark calls it through this C++17 translation unit, which includes nothing of strata.
#include "xtensor_pad.hpp"

#include <xtensor/xadapt.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xpad.hpp>
#include <xtensor/xtensor.hpp>

#include <array>
#include <vector>

namespace peers {

void xtensor_pad(const float* image, float* out, std::size_t n, std::size_t width, bool reflect) {
  const std::size_t p = n + 2 * width;
  const auto in = xt::adapt(image, n * n, xt::no_ownership(), std::array<std::size_t, 2>{n, n});
  auto o = xt::adapt(out, p * p, xt::no_ownership(), std::array<std::size_t, 2>{p, p});
  const std::vector<std::vector<std::size_t>> widths{{width, width}, {width, width}};
  xt::noalias(o) =
      xt::pad(in, widths, reflect ? xt::pad_mode::reflect : xt::pad_mode::constant, 0.0F);
}

}  // namespace peers
