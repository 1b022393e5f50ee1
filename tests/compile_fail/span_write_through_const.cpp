// Must not compile: a writable span of a const tensor (the span of a const tensor is read-only).
// expect: conversion from|no viable conversion
#include "strata/tensor/tensor.hpp"

void f(const strata::Tensor<float>& t) {
  const strata::StridedSpan<float, 2> s = t.span<2>();
  (void)s;
}
