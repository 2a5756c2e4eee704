// fft-ocean: Tessendorf's FFT ocean ("Simulating Ocean Water", 2001), as Jensen & Golias (2001)
// use it, in the walled rectangular basin of the shared Domain (design.md, "The models").
//
// Linear water waves of finite depth d: each Fourier mode of wavenumber k oscillates at
//   omega^2 = g k tanh(k d)            (Tessendorf, the dispersion relation at depth d)
// In a basin with walls the modes that carry no flow through them are the standing waves
//   eta(x, y) = sum_mn a_mn(t) cos(kx x) cos(ky y),  kx = pi m / Lx,  ky = pi n / Ly,
// on the cell-centred grid the 2-D DCT-II / DCT-III pair (FFTW REDFT10 forward, REDFT01
// inverse). Each mode's state is (a, b) = (eta_hat, eta_t_hat / omega); a step of any dt is the
// exact rotation
//   (a, b) <- (a cos(omega dt) + b sin(omega dt), -a sin(omega dt) + b cos(omega dt)),
// so there is no stability limit and no dispersion error: the period of every mode is
// 2 pi / omega to round-off. The mean (m = n = 0, omega = 0) never changes: volume is exact.
//
// The initial sea adds to the scenario's eta0 a Gaussian random realisation of the Phillips
// spectrum (Tessendorf eq. 40) with the small-wave cut-off of eq. 41 (docs/fft-ocean.md). Walls
// reflect: the basin's sea is standing waves, not Tessendorf's travelling ones.
//
// What the basin cannot represent it refuses (InputError from reset): solid cells inside the
// rectangle, uneven rest depth, open edges; a mask stroke mid-run likewise (changeMask).
//
// The open form (`sea` = open, fft_ocean_open.cpp): Tessendorf's own periodic patch of
// travelling waves (core/ocean/ocean_patch.hpp, eq. 43) on the scenario's grid, from a Phillips
// or JONSWAP spectrum (core/ocean/ocean_spectrum.hpp). Its phases are w t of the simulated time,
// never accumulated. The patch is periodic and not coupled to the edges, so any edge kind runs;
// solid cells and uneven depth are refused as in the basin.
#pragma once

#include <memory>
#include <vector>

#include "core/model/model.hpp"
#include "core/ocean/ocean_patch.hpp"
#include "core/ocean/ocean_spectrum.hpp"

namespace wb {

class FftOcean final : public Model {
 public:
  FftOcean();
  ~FftOcean() override;
  FftOcean(const FftOcean&) = delete;  // the FFTW plans point into the model's own buffers
  FftOcean& operator=(const FftOcean&) = delete;

  static constexpr const char* kId = "fft-ocean";
  static constexpr const char* kTitle = "FFT ocean (Tessendorf)";
  std::string id() const override { return kId; }
  std::string title() const override { return kTitle; }

  void reset(const Domain& domain, const Field2D& eta0) override;
  // The rotation is exact for any dt: no bound.
  double maxStableDt() const override;
  // The user's dt, or dx / sqrt(g d) (docs/fft-ocean.md, "Time step").
  double preferredDt() const override { return dt_; }
  void step(double dt) override;

  // The inverse transform of a, computed once per state asked (lazy).
  const Field2D& eta() const override;
  // The surface velocity of linear theory, grad(phi) at z = 0 (lazy).
  const Field2D* velocityU() const override;
  const Field2D* velocityV() const override;

  double addEta(const Field2D& delta) override;
  // Refused: a wall inside the rectangle breaks the cosine basis (InputError).
  double changeMask(const Domain& domain, const std::vector<std::uint32_t>& cells) override;
  // setForce is not overridden: linear potential flow has no wind stress here; the wind's sea
  // state comes from the spectrum at reset.
  void shiftWindow(int di, int dj) override;
  void dampUnderBodies(const Field2D& rate, double dt) override;
  // Kinetic energy per unit density (m^5/s^2): 1/2 sum over modes of g b^2, times the basis
  // normalisation and the cell area (docs/fft-ocean.md, "Energy"): for linear waves
  // 1/2 integral phi phi_z dA = 1/2 sum g (eta_t_hat / omega)^2, so that with the potential
  // energy 1/2 g sum eta^2 dA the total is constant to round-off.
  double kineticEnergy() const override;

  static std::vector<ParamSpec> parameterSpecs();

  // The two forms: the walled basin's standing modes, or the periodic open-sea patch.
  enum class Form { Basin, Open };
  Form form() const { return form_; }
  // The open form runs with any edges: the periodic patch is not coupled to them.
  bool absorbsAtOpenEdges() const override;

  // The open form's sea state (zeros in the basin form): Hs = 4 sqrt(variance) of the realised
  // surface now, of the spectrum summed over the patch's lattice, and of the unbounded
  // spectrum; the peak period of the spectrum (s).
  struct SeaState {
    double hsRealised = 0.0, hsLattice = 0.0, hsSpectrum = 0.0, peakPeriod = 0.0;
  };
  SeaState seaState() const;
  // The open form's patch at the model's time with the fields asked for (slopes; the choppy
  // displacement D of Tessendorf's eq. 44, which views draw at x - choppiness() D), nullptr in
  // the basin form. Views only: eta() is the height measurements use.
  const OceanPatch* openSeaFields(const PatchOutputs& outputs) const;
  double choppiness() const { return params().get("choppiness"); }
  // Simulated time since reset (s): start + steps * dt of the current run of equal steps.
  double time() const { return runStart_ + double(runSteps_) * runDt_; }

  // Basin form: omega of mode (m, n) (1/s), m along x, n along y (the open form's are
  // openSeaFields()'s patch's).
  double omega(int m, int n) const { return omega_[index(m, n)]; }
  // Tessendorf's Phillips spectrum (eq. 40) with the cut-off of eq. 41, averaged over the
  // four travelling waves (+-kx, +-ky) a standing mode is made of (m^4).
  struct Phillips {
    double amplitude = 0.0;      // A (dimensionless)
    double windSpeed = 0.0;      // V (m/s)
    double windDirection = 0.0;  // rad, from +x towards +y
    double cutoff = 0.0;         // l (m)
    double g = 9.81;
    double operator()(double kx, double ky) const;
  };
  // The spectrum the sea of the last reset was drawn from (windSpeed 0: none).
  const Phillips& spectrum() const { return phillips_; }
  // Area of the k-plane per lattice point, (pi / Lx) (pi / Ly) (1/m^2).
  double modeArea() const;

 private:
  struct Plans;

  std::size_t index(int m, int n) const { return std::size_t(n) * std::size_t(nx_) + m; }
  void checkDomain(const Domain& domain) const;
  // The open form (fft_ocean_open.cpp).
  void checkOpenDomain(const Domain& domain) const;
  void resetOpen(const Domain& domain, const Field2D& eta0);
  void advanceTime(double dt);
  const Field2D& openEta() const;
  void computeOpenVelocity() const;
  void dampOpenSea(const Field2D& rate, double dt);
  void buildModes(const Domain& domain);
  void addSea();
  // eta -> a: a += REDFT10(eta) / (4 nx ny), the coefficients of eta = REDFT01(a).
  void forwardInto(const Field2D& field, std::vector<double>& coefficients, bool add) const;
  void rotateModes(double dt);
  void invalidate() { etaFresh_ = velocityFresh_ = false; }
  void computeVelocity() const;

  int nx_ = 0, ny_ = 0;
  double dx_ = 1.0, g_ = 9.81, depth_ = 1.0, dt_ = 0.1;
  Phillips phillips_;
  Form form_ = Form::Basin;
  std::unique_ptr<OceanPatch> patch_;
  std::unique_ptr<OceanSpectrum> openSpectrum_;
  double runStart_ = 0.0, runDt_ = 0.0;  // time = runStart_ + runSteps_ runDt_
  long long runSteps_ = 0;
  std::vector<double> a_, b_, omega_;
  std::vector<double> cos_, sin_;  // cos(omega dt), sin(omega dt) for tableDt_
  double tableDt_ = -1.0;
  std::unique_ptr<Plans> plans_;
  // work_ is every transform's input; spectrum_ the forward transform's output.
  mutable Field2D eta_, u_, v_, work_, spectrum_;
  mutable bool etaFresh_ = false, velocityFresh_ = false;
};

}  // namespace wb
