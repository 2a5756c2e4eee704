// The open-sea patch (core/ocean/ocean_patch.hpp): exact dispersion of travelling and standing
// modes at finite and infinite depth, slopes and orbital velocity of linear theory, a real
// surface, seeded repeatability, thread-count independence and phases from t (not accumulated).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <numbers>

#include "core/ocean/ocean_patch.hpp"
#include "core/ocean/ocean_spectrum.hpp"

namespace wb {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kG = 9.81;
constexpr double kDeep = std::numeric_limits<double>::infinity();

// The largest |field - exact(x, y)| over the patch's points x = i dx, y = j dx.
template <class Exact>
double worstError(const Field2D& field, double dx, Exact exact) {
  double worst = 0.0;
  for (int j = 0; j < field.ny(); ++j)
    for (int i = 0; i < field.nx(); ++i)
      worst = std::max(worst, std::fabs(double(field(i, j)) - exact(i * dx, j * dx)));
  return worst;
}

struct TravellingCase {
  double depth;  // m; infinity: deep
};

class TravellingMode : public ::testing::TestWithParam<TravellingCase> {};

// a cos(k.x - w t) with w^2 = g k tanh(k d), after 1000 periods and a fraction: period, amplitude
// and phase speed at once (a wrong w by 1e-7 moves the phase by 6e-4 rad, 6e-4 a). Slopes
// -a k sin, velocity (g kx / w) a cos (linear theory at z = 0). Float transforms: 2e-6 a.
TEST_P(TravellingMode, KeepsExactDispersionAfterAThousandPeriods) {
  const PatchGeometry geometry{64, 48, 0.75, kG, GetParam().depth};
  OceanPatch patch(geometry, 1);
  const int m = 3, n = -2;
  const double a = 0.3;
  patch.addWave(m, n, a);
  const double kx = 2 * kPi * m / (64 * 0.75), ky = 2 * kPi * n / (48 * 0.75);
  const double k = std::hypot(kx, ky);
  const double kd = k * GetParam().depth;
  const double w = std::sqrt(kG * k * (std::isfinite(kd) ? std::tanh(kd) : 1.0));
  EXPECT_NEAR(patch.omega(m, (n + 48) % 48), w, 1e-14 * w);
  const double t = (1000.0 + 0.37) * 2 * kPi / w;
  patch.evaluate(t, PatchOutputs{.slopes = true, .velocity = true});
  const auto phase = [&](double x, double y) { return kx * x + ky * y - w * t; };
  EXPECT_LT(worstError(patch.height(), 0.75,
                       [&](double x, double y) { return a * std::cos(phase(x, y)); }),
            2e-6 * a);
  EXPECT_LT(worstError(patch.field(PatchField::SlopeX), 0.75,
                       [&](double x, double y) { return -a * kx * std::sin(phase(x, y)); }),
            2e-6 * a * k);
  EXPECT_LT(worstError(patch.field(PatchField::SlopeY), 0.75,
                       [&](double x, double y) { return -a * ky * std::sin(phase(x, y)); }),
            2e-6 * a * k);
  const double speed = kG * a / w;  // g a / w = a w / (k tanh(k d))
  EXPECT_LT(worstError(patch.field(PatchField::VelocityU), 0.75,
                       [&](double x, double y) { return speed * kx * std::cos(phase(x, y)); }),
            2e-6 * speed * k);
  EXPECT_LT(worstError(patch.field(PatchField::VelocityV), 0.75,
                       [&](double x, double y) { return speed * ky * std::cos(phase(x, y)); }),
            2e-6 * speed * k);
}

INSTANTIATE_TEST_SUITE_P(Depths, TravellingMode,
                         ::testing::Values(TravellingCase{0.4}, TravellingCase{3.0},
                                           TravellingCase{kDeep}),
                         [](const auto& info) {
                           if (!std::isfinite(info.param.depth)) return std::string("deep");
                           std::string name = std::to_string(int(info.param.depth * 10));
                           name += "dm";
                           return name;
                         });

// Two opposing modes make the standing wave 2 a cos(k.x) cos(w t): zero a quarter period on,
// -2 a cos(k.x) half a period on, after 500 periods; a drop at rest (addSurfaceAtRest) of one
// cosine is the same standing wave.
TEST(OceanPatch, OpposingModesStandAndASurfaceAtRestIsTheirSum) {
  const PatchGeometry geometry{32, 32, 1.0, kG, 5.0};
  OceanPatch waves(geometry, 1), atRest(geometry, 1);
  const int m = 2, n = 1;
  const double a = 0.1;
  waves.addWave(m, n, a);
  waves.addWave(-m, -n, a);
  const double kx = 2 * kPi * m / 32.0, ky = 2 * kPi * n / 32.0;
  Field2D cosine(32, 32);
  for (int j = 0; j < 32; ++j)
    for (int i = 0; i < 32; ++i)
      cosine(i, j) = float(2 * a * std::cos(kx * i + ky * j));
  atRest.addSurfaceAtRest(cosine, 0.0);
  const double period = 2 * kPi / waves.omega(m, n);
  for (const double fraction : {0.25, 0.5, 0.8}) {
    const double t = (500.0 + fraction) * period;
    waves.evaluate(t, PatchOutputs{.slopes = false});
    atRest.evaluate(t, PatchOutputs{.slopes = false});
    const auto exact = [&](double x, double y) {
      return 2 * a * std::cos(kx * x + ky * y) * std::cos(2 * kPi * fraction);
    };
    EXPECT_LT(worstError(waves.height(), 1.0, exact), 4e-6 * a) << fraction;
    EXPECT_LT(worstError(atRest.height(), 1.0, exact), 4e-6 * a) << fraction;
  }
}

OceanSpectrum phillipsSea(double windSpeed, double directionDeg = 30.0) {
  WindSea sea;
  sea.kind = SpectrumKind::Phillips;
  sea.windSpeed = windSpeed;
  sea.windDirection = directionDeg * kPi / 180.0;
  sea.g = kG;
  return OceanSpectrum(sea);
}

// The direct sum eta(x) = sum_k h(k, t) e^{i k.x} over the whole lattice, h from the stored
// halves independently at k and -k: its imaginary part vanishes (h(-k) = conj(h(k)), i.e. h0 is
// consistent between the halves) and its real part is the transform's surface.
TEST(OceanPatch, SurfaceIsRealAndIsTheDirectSum) {
  const PatchGeometry geometry{16, 12, 2.0, kG, 8.0};
  OceanPatch patch(geometry, 1);
  patch.addWindSea(phillipsSea(6.0), 7);
  Field2D drop(16, 12);
  drop(3, 4) = 0.2f;
  patch.addSurfaceAtRest(drop, 1.5);
  const double t = 12.3;
  patch.evaluate(t, PatchOutputs{.slopes = false});
  double worstImag = 0.0, worstReal = 0.0, largest = 0.0;
  for (int j = 0; j < 12; ++j)
    for (int i = 0; i < 16; ++i) {
      std::complex<double> sum = 0.0;
      for (int n = 0; n < 12; ++n)
        for (int m = 0; m < 16; ++m)
          sum += patch.amplitude(m, n, t) *
                 std::polar(1.0, 2 * kPi * (double(m) * i / 16.0 + double(n) * j / 12.0));
      worstImag = std::max(worstImag, std::fabs(sum.imag()));
      worstReal = std::max(worstReal, std::fabs(sum.real() - patch.height()(i, j)));
      largest = std::max(largest, std::fabs(sum.real()));
    }
  EXPECT_GT(largest, 1e-3);
  EXPECT_LT(worstImag, 1e-12 * largest);
  EXPECT_LT(worstReal, 1e-6 * largest);
  for (int n = 0; n < 12; ++n)
    for (int m = 0; m < 16; ++m)
      EXPECT_EQ(patch.amplitude(m, n, t), std::conj(patch.amplitude(-m, -n, t))) << m << " " << n;
}

bool sameBits(const Field2D& a, const Field2D& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// The same seed gives the same sea to the bit, another seed another sea; one or two threads
// give the same bits (FFTW_ESTIMATE plans, the spectral loop's arithmetic per point).
TEST(OceanPatch, SeedRepeatsBitForBitAndThreadsDoNotMatter) {
  const PatchGeometry geometry{256, 192, 0.5, kG, 10.0};  // above kParallelMinCells
  const OceanSpectrum spectrum = phillipsSea(7.0);
  OceanPatch first(geometry, 1), again(geometry, 2), other(geometry, 1);
  first.addWindSea(spectrum, 42);
  again.addWindSea(spectrum, 42);
  other.addWindSea(spectrum, 43);
  const PatchOutputs all{.slopes = true, .displacement = true, .velocity = true};
  for (OceanPatch* p : {&first, &again, &other})
    p->evaluate(100.0, all);
  for (int f = 0; f < kPatchFields; ++f)
    EXPECT_TRUE(sameBits(first.field(PatchField(f)), again.field(PatchField(f)))) << f;
  EXPECT_FALSE(sameBits(first.height(), other.height()));
  EXPECT_GT(first.height().maxAbs(), 0.01);
}

// The phase is w t of the time passed in: evaluating at t = 3600 s after 216000 evaluations at
// t = n / 60 gives the bits of evaluating at 3600 s directly.
TEST(OceanPatch, PhasesComeFromTimeNotFromSteps) {
  const PatchGeometry geometry{32, 32, 1.0, kG, 20.0};
  OceanPatch stepped(geometry, 1), direct(geometry, 1);
  for (OceanPatch* p : {&stepped, &direct})
    p->addWindSea(phillipsSea(5.0), 3);
  for (int n = 1; n <= 216000; n += 97)
    stepped.evaluate(n / 60.0, PatchOutputs{.slopes = false});
  stepped.evaluate(3600.0, PatchOutputs{});
  direct.evaluate(3600.0, PatchOutputs{});
  EXPECT_TRUE(sameBits(stepped.height(), direct.height()));
  EXPECT_TRUE(sameBits(stepped.field(PatchField::SlopeX), direct.field(PatchField::SlopeX)));
}

// Tessendorf's choppy displacement D = sum -i k/|k| h e^{i k.x} (eq. 44) of one travelling wave
// a cos(k.x - w t) is (k/|k|) a sin(k.x - w t): -i (a/2) e^{i phase} + c.c. (with this sign
// x + lambda D sharpens the crests for lambda < 0; docs/fft-ocean.md).
TEST(OceanPatch, ChoppyDisplacementOfOneWave) {
  const PatchGeometry geometry{32, 32, 1.0, kG, 0.0};
  OceanPatch patch(geometry, 1);
  const double a = 0.2;
  patch.addWave(4, 0, a);
  const double k = 2 * kPi * 4 / 32.0, w = std::sqrt(kG * k), t = 3.3;
  patch.evaluate(t, PatchOutputs{.slopes = false, .displacement = true});
  EXPECT_LT(worstError(patch.field(PatchField::DisplacementX), 1.0,
                       [&](double x, double) { return a * std::sin(k * x - w * t); }),
            2e-6 * a);
  EXPECT_LT(patch.field(PatchField::DisplacementY).maxAbs(), 1e-7 * a);
}

}  // namespace
}  // namespace wb
