#include "core/multigrid.hpp"

#include <algorithm>

#include "core/parallel.hpp"

namespace wb {

FivePointSystem FivePointSystem::fromMask(int nx, int ny, const std::vector<std::uint8_t>& wet,
                                          float shift) {
  FivePointSystem system{Field2D(nx, ny), Field2D(nx, ny), Field2D(nx, ny), wet};
  const auto isWet = [&](int i, int j) { return wet[std::size_t(j) * nx + i] != 0; };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      if (!isWet(i, j)) continue;
      system.shift(i, j) = shift;
      system.faceX(i, j) = i + 1 < nx && isWet(i + 1, j) ? 1.0f : 0.0f;
      system.faceY(i, j) = j + 1 < ny && isWet(i, j + 1) ? 1.0f : 0.0f;
    }
  return system;
}

Multigrid::Level Multigrid::makeLevel(int nx, int ny) {
  Level level;
  level.nx = nx;
  level.ny = ny;
  level.row = std::size_t(nx) + 2;
  level.wet.assign(level.row * std::size_t(ny + 2), 0);
  for (Field2D* f : {&level.shift, &level.faceX, &level.faceY, &level.inverseDiagonal, &level.x,
                     &level.b, &level.r})
    *f = Field2D(nx + 2, ny + 2);
  return level;
}

void Multigrid::setup(const FivePointSystem& fine) {
  levels_.clear();
  fineWet_ = fine.wet;
  const int nx = fine.shift.nx(), ny = fine.shift.ny();
  levels_.push_back(makeLevel(nx, ny));
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      levels_[0].wet[levels_[0].at(i, j)] = fine.wet[std::size_t(j) * nx + i];
  while (std::max(levels_.back().nx, levels_.back().ny) > kCoarsestSide) {
    const Level& finer = levels_.back();
    Level coarse = makeLevel((finer.nx + 1) / 2, (finer.ny + 1) / 2);
    coarsenMask(finer, coarse);
    levels_.push_back(std::move(coarse));
  }
  updateCoefficients(fine.shift, fine.faceX, fine.faceY);
}

void Multigrid::coarsenMask(const Level& fine, Level& coarse) {
  for (int j = 0; j < coarse.ny; ++j)
    for (int i = 0; i < coarse.nx; ++i) {
      // Children beyond an odd fine side fall on the ghost border, which is dry.
      const std::size_t k = fine.at(2 * i, 2 * j);
      coarse.wet[coarse.at(i, j)] =
          fine.wet[k] | fine.wet[k + 1] | fine.wet[k + fine.row] | fine.wet[k + fine.row + 1];
    }
}

void Multigrid::updateCoefficients(const Field2D& shift, const Field2D& faceX,
                                   const Field2D& faceY) {
  Level& fine = levels_[0];
  const int nx = fine.nx, ny = fine.ny;
  const auto wetAt = [&](int i, int j) { return fine.wet[fine.at(i, j)] != 0; };
#pragma omp parallel for schedule(static) if (worthThreads(shift.size()))
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const std::size_t k = fine.at(i, j);
      const bool wet = wetAt(i, j);
      fine.shift.data()[k] = wet ? shift(i, j) : 0.0f;
      fine.faceX.data()[k] = wet && i + 1 < nx && wetAt(i + 1, j) ? faceX(i, j) : 0.0f;
      fine.faceY.data()[k] = wet && j + 1 < ny && wetAt(i, j + 1) ? faceY(i, j) : 0.0f;
    }
  computeInverseDiagonal(fine);
  for (std::size_t l = 1; l < levels_.size(); ++l) {
    coarsenCoefficients(levels_[l - 1], levels_[l]);
    computeInverseDiagonal(levels_[l]);
  }
}

// Shift: sum of the children's. Face: half the sum of the two fine faces it covers (header).
void Multigrid::coarsenCoefficients(const Level& fine, Level& coarse) {
  const float* s = fine.shift.data();
  const float* fx = fine.faceX.data();
  const float* fy = fine.faceY.data();
  const std::size_t row = fine.row;
  for (int j = 0; j < coarse.ny; ++j)
    for (int i = 0; i < coarse.nx; ++i) {
      const std::size_t k = fine.at(2 * i, 2 * j), c = coarse.at(i, j);
      coarse.shift.data()[c] = s[k] + s[k + 1] + s[k + row] + s[k + row + 1];
      // The east face of coarse cell i is the east face of fine column 2i + 1 (ghost border
      // and last-column faces are 0); likewise north.
      coarse.faceX.data()[c] = 0.5f * (fx[k + 1] + fx[k + row + 1]);
      coarse.faceY.data()[c] = 0.5f * (fy[k + row] + fy[k + row + 1]);
    }
}

void Multigrid::computeInverseDiagonal(Level& level) {
  const std::size_t row = level.row;
  const float *s = level.shift.data(), *fx = level.faceX.data(), *fy = level.faceY.data();
  float* inverse = level.inverseDiagonal.data();
  for (int j = 0; j < level.ny; ++j)
    for (int i = 0; i < level.nx; ++i) {
      const std::size_t k = level.at(i, j);
      const float diagonal = s[k] + fx[k] + fx[k - 1] + fy[k] + fy[k - row];
      // A wet cell cut off from every neighbour with no shift has a zero row: leave it at 0.
      inverse[k] = level.wet[k] && diagonal > 0.0f ? 1.0f / diagonal : 0.0f;
    }
}

// One Gauss-Seidel half-sweep over the cells with (i + j) % 2 == colour.
void Multigrid::relax(Level& level, int colour) {
  const std::size_t row = level.row;
  const float *fx = level.faceX.data(), *fy = level.faceY.data();
  const float *inverse = level.inverseDiagonal.data(), *b = level.b.data();
  float* x = level.x.data();
#pragma omp parallel for schedule(static) if (worthThreads(level.x.size()))
  for (int j = 0; j < level.ny; ++j)
    for (int i = (colour + j) & 1; i < level.nx; i += 2) {
      const std::size_t k = level.at(i, j);
      x[k] = inverse[k] * (b[k] + fx[k] * x[k + 1] + fx[k - 1] * x[k - 1] + fy[k] * x[k + row] +
                           fy[k - row] * x[k - row]);
    }
}

// r = b - A x (0 on dry cells, whose b, x and faces are 0).
void Multigrid::computeResidual(Level& level) {
  const std::size_t row = level.row;
  const float *s = level.shift.data(), *fx = level.faceX.data(), *fy = level.faceY.data();
  const float *b = level.b.data(), *x = level.x.data();
  float* r = level.r.data();
#pragma omp parallel for schedule(static) if (worthThreads(level.x.size()))
  for (int j = 0; j < level.ny; ++j) {
    const std::size_t begin = level.at(0, j), end = begin + std::size_t(level.nx);
#pragma omp simd
    for (std::size_t k = begin; k < end; ++k) {
      const float c = x[k];
      r[k] = b[k] - (s[k] * c + fx[k] * (c - x[k + 1]) + fx[k - 1] * (c - x[k - 1]) +
                     fy[k] * (c - x[k + row]) + fy[k - row] * (c - x[k - row]));
    }
  }
}

void Multigrid::restrictResidual(const Level& fine, Level& coarse) {
  const float* r = fine.r.data();
  const std::size_t row = fine.row;
  for (int j = 0; j < coarse.ny; ++j)
    for (int i = 0; i < coarse.nx; ++i) {
      const std::size_t k = fine.at(2 * i, 2 * j);
      coarse.b.data()[coarse.at(i, j)] = r[k] + r[k + 1] + r[k + row] + r[k + row + 1];
    }
}

void Multigrid::prolongAndAdd(const Level& coarse, Level& fine) {
#pragma omp parallel for schedule(static) if (worthThreads(fine.x.size()))
  for (int j = 0; j < fine.ny; ++j)
    for (int i = 0; i < fine.nx; ++i) {
      const std::size_t k = fine.at(i, j);
      if (fine.wet[k]) fine.x.data()[k] += coarse.x.data()[coarse.at(i / 2, j / 2)];
    }
}

void Multigrid::cycle(std::size_t l) {
  Level& level = levels_[l];
  level.x.fill(0.0f);
  constexpr int kRed = 0, kBlack = 1;
  if (l + 1 == levels_.size()) {
    for (int sweep = 0; sweep < kCoarsestSweeps; ++sweep)
      relax(level, kRed), relax(level, kBlack);
    for (int sweep = 0; sweep < kCoarsestSweeps; ++sweep)
      relax(level, kBlack), relax(level, kRed);
    return;
  }
  for (int sweep = 0; sweep < kSmoothingSweeps; ++sweep)
    relax(level, kRed), relax(level, kBlack);
  computeResidual(level);
  restrictResidual(level, levels_[l + 1]);
  cycle(l + 1);
  prolongAndAdd(levels_[l + 1], level);
  for (int sweep = 0; sweep < kSmoothingSweeps; ++sweep)
    relax(level, kBlack), relax(level, kRed);
}

void Multigrid::vcycle(const double* r, double* z) {
  Level& fine = levels_[0];
  const int nx = fine.nx;
#pragma omp parallel for schedule(static) if (worthThreads(fine.x.size()))
  for (int j = 0; j < fine.ny; ++j)
    for (int i = 0; i < nx; ++i)
      fine.b.data()[fine.at(i, j)] = float(r[std::size_t(j) * nx + i]);
  cycle(0);
#pragma omp parallel for schedule(static) if (worthThreads(fine.x.size()))
  for (int j = 0; j < fine.ny; ++j)
    for (int i = 0; i < nx; ++i)
      z[std::size_t(j) * nx + i] = fine.x.data()[fine.at(i, j)];
}

void Multigrid::applyOperator(const double* in, double* out) const {
  const Level& fine = levels_[0];
  const std::size_t nx = std::size_t(fine.nx), ny = std::size_t(fine.ny), row = fine.row;
  const float *s = fine.shift.data(), *fx = fine.faceX.data(), *fy = fine.faceY.data();
#pragma omp parallel for schedule(static) if (worthThreads(nx * ny))
  for (std::size_t j = 0; j < ny; ++j)
    for (std::size_t i = 0; i < nx; ++i) {
      const std::size_t k = j * nx + i, c = (j + 1) * row + i + 1;
      const double centre = in[k];
      // Faces at the grid edge are 0; the neighbour is then not read.
      const double east = i + 1 < nx ? in[k + 1] : 0.0, west = i > 0 ? in[k - 1] : 0.0;
      const double north = j + 1 < ny ? in[k + nx] : 0.0, south = j > 0 ? in[k - nx] : 0.0;
      out[k] = fine.wet[c] ? s[c] * centre + fx[c] * (centre - east) + fx[c - 1] * (centre - west) +
                                 fy[c] * (centre - north) + fy[c - row] * (centre - south)
                           : 0.0;
    }
}

CgResult MultigridPcg::solve(const Field2D& b, Field2D& x, double tolerance, int maxIterations,
                             bool removeMean) {
  const auto apply = [this](const double* in, double* out) { multigrid_.applyOperator(in, out); };
  return solve(apply, b, x, tolerance, maxIterations, removeMean);
}

CgResult MultigridPcg::solve(const PreconditionedCg::Operator& apply, const Field2D& b, Field2D& x,
                             double tolerance, int maxIterations, bool removeMean) {
  const auto precondition = [this](const double* r, double* z) { multigrid_.vcycle(r, z); };
  return cg_.solve(apply, precondition, b, x, multigrid_.wet(), tolerance, maxIterations,
                   removeMean);
}

}  // namespace wb
