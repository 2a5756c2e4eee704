// The open sea under every local model: Jensen & Golias ("Deep-Water Animation and Rendering",
// 2001) build one surface from two parts, the geometry of an FFT ocean and, superimposed on it,
// the geometry of a local physics model; the objects float on the sum and push back into the
// local part. Here the scenario's "ocean" section (the wind sea's keys of
// core/ocean/wind_sea_params.hpp) is one Tessendorf patch (core/ocean/ocean_patch.hpp) on the
// domain's grid, shared by every model of a Comparison: model k reports
//   surface_k = eta_k + eta_ocean        (on wet cells; solid cells keep 0)
// with eta_k its own local surface, which starts at rest and takes drops, rain, wakes and the
// bodies' feedback. The local budgets and energies stay the model's own; the ocean's energy is
// reported beside them.
//
// Where the mixing is not physics (the paper calls it "not physically correct"): the two parts
// do not interact. The ocean is linear and periodic and knows no walls, islands, coasts or
// open edges: it runs through a wall painted inside the domain and under land, and the local
// model never feels its slope, its currents or its orbital motion (the local waves are not
// refracted or carried by the swell). A local wave and a swell crest do not steepen each other.
// Both parts are linear in their small-amplitude limits, so the sum is right where the local
// model is linear and the swell is gentle; it is a picture elsewhere.
//
// The patch's point (i dx, j dx) is cell (i, j)'s centre ((i + 1/2) dx, (j + 1/2) dx): a random
// sea shifted by half a cell is the same sea. The ocean needs one rest depth over the wet cells
// (w^2 = g k tanh(k d)) and even nx and ny.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/grid/domain.hpp"
#include "core/grid/field2d.hpp"
#include "core/model/parameters.hpp"
#include "core/ocean/ocean_patch.hpp"
#include "core/ocean/ocean_spectrum.hpp"

namespace wb {

// The section's keys: the wind sea's (core/ocean/wind_sea_params.hpp), then a swell's:
// swell_height H (m, crest to trough; 0: none), swell_period (s) and swell_direction (deg, the
// direction it travels towards). A swell is one travelling wave (H/2) cos(k.x - w t) on the
// patch's lattice: the lattice wavenumber nearest to the period's (w^2 = g k tanh(k d)) in that
// direction, so the period and direction it runs at are the lattice's (swell()).
std::vector<ParamSpec> oceanParameterSpecs();

class OceanLayer {
 public:
  struct Swell {
    int m = 0, n = 0;         // its lattice point, k = (2 pi m / Lx, 2 pi n / Ly)
    double amplitude = 0.0;   // H / 2 (m)
    double omega = 0.0;       // rad/s
    double direction = 0.0;   // rad, from +x towards +y
    double wavelength = 0.0;  // m
  };

  // `where` names the section in errors ("s.json: ocean"). Throws InputError naming it when
  // the domain cannot carry the patch: wet cells of more than one rest depth, odd nx or ny;
  // and naming the key when the sea's significant troughs (half the wind sea's Hs plus half
  // the swell's height) reach the bed.
  // threads: the patch's (0: all; a layer stepped inside one model's thread takes 1).
  OceanLayer(const ParamValues& sea, const Domain& domain, const std::string& where,
             int threads = 0);

  // The sea's height at time t on every cell and, with `velocity`, its surface velocity (linear
  // theory at z = 0, core/ocean/ocean_patch.hpp).
  void evaluate(double t, bool velocity = false);
  const Field2D& height() const { return patch_.height(); }
  const Field2D& velocityU() const { return patch_.field(PatchField::VelocityU); }
  const Field2D& velocityV() const { return patch_.field(PatchField::VelocityV); }
  // surface = local + the evaluated height on wet cells, 0 on solid ones.
  void mix(const Field2D& local, const Domain& domain, Field2D& surface) const;
  // u, v = the local velocity (none: 0) + the evaluated sea's on wet cells, 0 on solid ones.
  void mixVelocity(const Field2D* localU, const Field2D* localV, const Domain& domain, Field2D& u,
                   Field2D& v) const;
  // The sea's height at the point (x, y) (m, domain coordinates) at time t, summed over the
  // modes: exact at any time (gauges sample after every step of every model). Thread-safe.
  double heightAt(double x, double y, double t) const;

  // Potential 1/2 g sum(eta^2) dA and kinetic energy of linear theory over the whole rectangle
  // (walls do not stop the ocean), the units of the models' own (m^5/s^2: per unit density).
  struct Energies {
    double potential = 0.0, kinetic = 0.0;
  };
  Energies energies(double t) const;  // one pass over the spectrum for both

  // The travelling window (docs/scenario.md#window): the grid's cell (0, 0) lies `i`, `j`
  // cells from the sea's origin, and the fields, point heights and velocities above are
  // those of that stretch of the periodic sea (OceanPatch::translate, exact).
  void moveTo(int i, int j);
  int originI() const { return originI_; }
  int originJ() const { return originJ_; }

  const OceanSpectrum& spectrum() const { return spectrum_; }
  // The swell as it runs on the lattice, if the section has one.
  const std::optional<Swell>& swell() const { return swell_; }

 private:
  double patchArea() const;
  void addSwell(const ParamValues& sea, const std::string& where);
  void checkTroughsClearTheBed(const std::string& where) const;

  OceanSpectrum spectrum_;
  OceanPatch patch_;
  double halfCell_ = 0.0;
  int originI_ = 0, originJ_ = 0;
  std::optional<Swell> swell_;
};

}  // namespace wb
