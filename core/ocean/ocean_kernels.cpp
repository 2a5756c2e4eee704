#include "core/ocean/ocean_kernels.hpp"

#include "core/grid/parallel.hpp"

namespace wb {

WB_SPAN_KERNEL void phaseSpan(const double* __restrict omega, double t, double* __restrict c,
                              double* __restrict s, int count) {
  for (int k = 0; k < count; ++k)
    cosSin(omega[k] * t, c[k], s[k]);
}

WB_SPAN_KERNEL void heightSpan(const double* __restrict plus, const double* __restrict minus,
                               const double* __restrict c, const double* __restrict s,
                               float* __restrict h, int count) {
  for (int k = 0; k < count; ++k) {
    const double pr = plus[2 * k], pi = plus[2 * k + 1], mr = minus[2 * k], mi = minus[2 * k + 1];
    h[2 * k] = float((pr * c[k] - pi * s[k]) + (mr * c[k] + mi * s[k]));
    h[2 * k + 1] = float((pr * s[k] + pi * c[k]) + (mi * c[k] - mr * s[k]));
  }
}

WB_SPAN_KERNEL void gradientSpan(const float* __restrict h, const double* __restrict kx, double ky,
                                 const double* __restrict factor, double sign,
                                 float* __restrict outX, float* __restrict outY, int count) {
  for (int k = 0; k < count; ++k) {
    const double f = sign * factor[k], hr = h[2 * k], hi = h[2 * k + 1];
    outX[2 * k] = float(-kx[k] * f * hi);
    outX[2 * k + 1] = float(kx[k] * f * hr);
    outY[2 * k] = float(-ky * f * hi);
    outY[2 * k + 1] = float(ky * f * hr);
  }
}

WB_SPAN_KERNEL void velocitySpan(const double* __restrict plus, const double* __restrict minus,
                                 const double* __restrict c, const double* __restrict s,
                                 const double* __restrict gOverOmega, const double* __restrict kx,
                                 double ky, float* __restrict u, float* __restrict v, int count) {
  for (int k = 0; k < count; ++k) {
    const double pr = plus[2 * k], pi = plus[2 * k + 1], mr = minus[2 * k], mi = minus[2 * k + 1];
    const double re = gOverOmega[k] * ((mr * c[k] + mi * s[k]) - (pr * c[k] - pi * s[k]));
    const double im = gOverOmega[k] * ((mi * c[k] - mr * s[k]) - (pr * s[k] + pi * c[k]));
    u[2 * k] = float(kx[k] * re);
    u[2 * k + 1] = float(kx[k] * im);
    v[2 * k] = float(ky * re);
    v[2 * k + 1] = float(ky * im);
  }
}

}  // namespace wb
