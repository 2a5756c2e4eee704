// The open-sea patch's hot loops (core/ocean/ocean_patch.hpp): the phases e^{i w t} and, per
// span of the half spectrum, the height of Tessendorf's eq. 43 and what follows from it. Spans
// are (re, im) pairs; WB_SPAN_KERNEL compiles each for AVX2 and plain x86-64.
#pragma once

#include <bit>
#include <cstdint>

namespace wb {

// cos and sin of theta: theta - q pi/2 (q the nearest integer, Cody-Waite in two parts) is in
// [-pi/4, pi/4], where Cephes' polynomials (sin.c, cos.c) give double precision; the quadrant
// q mod 4 swaps and negates them. Plain arithmetic, so loops over it vectorise and repeat to the
// bit.
inline void cosSin(double theta, double& c, double& s) {
  constexpr double kTwoOverPi = 0.63661977236758134308;
  constexpr double kHalfPiHi = 1.57079632679489655800, kHalfPiLo = 6.12323399573676603587e-17;
  constexpr double kRound = 6755399441055744.0;  // 1.5 * 2^52: adding it rounds to an integer
  constexpr double kSin[] = {1.58962301576546568060e-10, -2.50507477628578072866e-8,
                             2.75573136213857245213e-6,  -1.98412698295895385996e-4,
                             8.33333333332211858878e-3,  -1.66666666666666307295e-1};
  constexpr double kCos[] = {-1.13585365213876817300e-11, 2.08757008419747316778e-9,
                             -2.75573141792967388112e-7,  2.48015872888517045348e-5,
                             -1.38888888888730564116e-3,  4.16666666666665929218e-2};
  const double shifted = theta * kTwoOverPi + kRound;
  const double q = shifted - kRound;
  const auto quadrant = std::bit_cast<std::uint64_t>(shifted) & 3u;
  const double y = (theta - q * kHalfPiHi) - q * kHalfPiLo, z = y * y;
  double ps = kSin[0], pc = kCos[0];
  for (int i = 1; i < 6; ++i) {
    ps = ps * z + kSin[i];
    pc = pc * z + kCos[i];
  }
  const double sinY = y + y * z * ps, cosY = 1.0 - 0.5 * z + z * z * pc;
  const bool swap = quadrant & 1u;
  const double sinAbs = swap ? cosY : sinY, cosAbs = swap ? sinY : cosY;
  s = (quadrant & 2u) ? -sinAbs : sinAbs;
  c = ((quadrant + 1u) & 2u) ? -cosAbs : cosAbs;
}

// cos(w t), sin(w t) of a span.
void phaseSpan(const double* omega, double t, double* c, double* s, int count);
// h = h0(k) e + conj(h0(-k)) conj(e)  (eq. 43), as float pairs; plus and minus are the (re, im)
// pairs of h0(k) and conj(h0(-k)).
void heightSpan(const double* plus, const double* minus, const double* c, const double* s, float* h,
                int count);
// (i kx f h, i ky f h) times sign: the slopes (f = 1, sign 1) or Tessendorf's choppy
// displacement -i k/|k| h (f = 1/k, sign -1, eq. 44).
void gradientSpan(const float* h, const double* kx, double ky, const double* factor, double sign,
                  float* outX, float* outY, int count);
// (g / w)(kx, ky)(conj(h0(-k)) conj(e) - h0(k) e): the orbital velocity at z = 0.
void velocitySpan(const double* plus, const double* minus, const double* c, const double* s,
                  const double* gOverOmega, const double* kx, double ky, float* u, float* v,
                  int count);

}  // namespace wb
