#include "xtensor_blas.hpp"

#include <xtensor-blas/xlinalg.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xmanipulation.hpp>

#include <algorithm>
#include <utility>

namespace peers {

template <class T>
struct XtensorBlasContraction<T>::State {
  xt::xarray<T> a;
  xt::xarray<T> b;
  std::vector<std::size_t> axes_a;
  std::vector<std::size_t> axes_b;
  std::vector<std::size_t> out_perm;
  xt::xarray<T> out;
};

namespace {
template <class T>
xt::xarray<T> copy_of(const std::vector<std::size_t>& shape, const T* data) {
  xt::xarray<T> x(shape);
  std::copy(data, data + x.size(), x.data());
  return x;
}
}  // namespace

template <class T>
XtensorBlasContraction<T>::XtensorBlasContraction(const std::vector<std::size_t>& shape_a,
                                                  const T* a,
                                                  const std::vector<std::size_t>& shape_b,
                                                  const T* b, std::vector<std::size_t> axes_a,
                                                  std::vector<std::size_t> axes_b,
                                                  std::vector<std::size_t> out_perm)
    : state_(std::make_unique<State>(State{copy_of(shape_a, a), copy_of(shape_b, b),
                                           std::move(axes_a), std::move(axes_b),
                                           std::move(out_perm), xt::xarray<T>()})) {}

template <class T>
XtensorBlasContraction<T>::~XtensorBlasContraction() = default;

template <class T>
const T* XtensorBlasContraction<T>::run() {
  State& s = *state_;
  const bool matrix_product = s.a.dimension() == 2 && s.b.dimension() == 2 &&
                              s.axes_a == std::vector<std::size_t>{1} &&
                              s.axes_b == std::vector<std::size_t>{0} && s.out_perm.empty();
  if (matrix_product) {
    s.out = xt::linalg::dot(s.a, s.b);
  } else if (s.out_perm.empty()) {
    s.out = xt::linalg::tensordot(s.a, s.b, s.axes_a, s.axes_b);
  } else {
    xt::xarray<T> product = xt::linalg::tensordot(s.a, s.b, s.axes_a, s.axes_b);
    s.out = xt::transpose(product, s.out_perm);
  }
  return s.out.data();
}

template <class T>
std::size_t XtensorBlasContraction<T>::size() const {
  return state_->out.size();
}

template class XtensorBlasContraction<float>;
template class XtensorBlasContraction<double>;

}  // namespace peers
