#include "core/grid/semi_lagrangian.hpp"

#include <bit>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "core/grid/parallel.hpp"

namespace wb {
namespace {

// Cells per block: its departure points are found first, then its corners fetched and weighted.
constexpr int kBlock = 32;
constexpr std::int32_t kOneBits = 0x3f800000;  // the bits of 1.0f

// A block's departure points: the lower corner of each point's 2 x 2 (row-major index), the
// weights of the corner's east column and north row (fx, fy) and of its own column and row
// (gx, gy; Renormalise), and whether the corner is the cell's west / south neighbour.
struct Block {
  alignas(64) float fx[kBlock], fy[kBlock], gx[kBlock], gy[kBlock];
  alignas(64) int corner[kBlock], west[kBlock], south[kBlock];
};

// The 2 x 2 corner values: south-west (the lower corner), south-east, north-west, north-east.
struct Quad {
  float sw, se, nw, ne;
};

[[gnu::always_inline]] inline Quad quadAt(const float* p, std::ptrdiff_t c, std::ptrdiff_t nx) {
  return {p[c], p[c + 1], p[c + nx], p[c + nx + 1]};
}

// The 2 x 2 whose lower corner is the cell k itself or its west, south or south-west
// neighbour, selected from the 3 x 3 values around it (loaded contiguously; selects between
// loaded values only, which vectorise).
[[gnu::always_inline]] inline Quad quadNear(const float* q, std::ptrdiff_t k, std::ptrdiff_t nx,
                                            bool west, bool south) {
  const float* p = q + k;
  const float southWest = p[-nx - 1], southCentre = p[-nx], southEast = p[-nx + 1];
  const float westOfCell = p[-1], centre = p[0], eastOfCell = p[1];
  const float northWest = p[nx - 1], northCentre = p[nx], northEast = p[nx + 1];
  // Per row the pair (corner column, the one east of it), then the pair of rows.
  const float southLeft = west ? southWest : southCentre;
  const float southRight = west ? southCentre : southEast;
  const float left = west ? westOfCell : centre, right = west ? centre : eastOfCell;
  const float northLeft = west ? northWest : northCentre;
  const float northRight = west ? northCentre : northEast;
  return {south ? southLeft : left, south ? southRight : right, south ? left : northLeft,
          south ? right : northRight};
}

// The three ways of fetching a block's corners (the same values).
struct AtOneOffset {  // every corner at the same offset from its cell
  std::ptrdiff_t first, nx;
  [[gnu::always_inline]] Quad operator()(const float* p, int l) const {
    return quadAt(p + first, l, nx);
  }
};
struct Near {  // every corner among the 3 x 3 around its cell
  std::ptrdiff_t first, nx;
  const Block& b;
  [[gnu::always_inline]] Quad operator()(const float* p, int l) const {
    return quadNear(p, first + l, nx, b.west[l] != 0, b.south[l] != 0);
  }
};
struct Gathered {
  std::ptrdiff_t nx;
  const Block& b;
  [[gnu::always_inline]] Quad operator()(const float* p, int l) const {
    return quadAt(p, b.corner[l], nx);
  }
};

// The offset back to a departure point from the cell at position at (in cells), clamped onto
// the grid [0, last]; the lower bound first: it turns a NaN velocity into the bound.
[[gnu::always_inline]] inline float clampedOffset(float back, float at, float last) {
  const float o = back > -at ? back : -at;
  return o < last - at ? o : last - at;
}

// Finds the departure points of the count cells from (i0, j) on, clamped onto the outermost
// cell centres. The offset is split into its floor and fraction in float, so the fraction
// keeps the offset's own precision whatever i is; floor() in integer arithmetic (std::floor
// does not vectorise under -ftrapping-math) after the clamp, so the conversion stays in range. The
// lower corner is at most (nx - 2, ny - 2); a point on the east edge then has fx = 1. The west /
// south weights are (shift + 1) - offset: -o exactly for a point less than a cell to the west.
// Returns the lowest and highest offset (corner - cell) and how many points are a cell away
// or more (their corner is not among the 3 x 3 around the cell).
struct Spread {
  int lowest, highest, far;
};
template <SampleRule R>
[[gnu::always_inline]] inline Spread findDepartures(Block& b, const Departures& d, int i0, int j,
                                                    int count) {
  const float* __restrict u = d.u;
  const float* __restrict v = d.v;
  const float c = d.cellsPerVelocity;
  const int nx = d.nx, lastI0 = d.nx - 2, lastJ0 = d.ny - 2;
  const float xMax = float(d.nx - 1), yMax = float(d.ny - 1), fj = float(j);
  const int k0 = j * nx + i0;
  int lowest = INT_MAX, highest = INT_MIN, far = 0;
#pragma omp simd reduction(min : lowest) reduction(max : highest) reduction(+ : far)
  for (int l = 0; l < count; ++l) {
    const int i = i0 + l;
    const float fi = float(i);
    const float ox = clampedOffset(-c * u[k0 + l], fi, xMax);
    const float oy = clampedOffset(-c * v[k0 + l], fj, yMax);
    const int truncX = int(ox), truncY = int(oy);
    const int floorX = truncX - (ox < float(truncX)), floorY = truncY - (oy < float(truncY));
    const int shiftX = floorX < lastI0 - i ? floorX : lastI0 - i;
    const int shiftY = floorY < lastJ0 - j ? floorY : lastJ0 - j;
    b.fx[l] = ox - float(shiftX);
    b.fy[l] = oy - float(shiftY);
    if constexpr (R == SampleRule::Renormalise) {
      b.gx[l] = float(shiftX + 1) - ox;
      b.gy[l] = float(shiftY + 1) - oy;
    }
    const int shift = shiftY * nx + shiftX;
    b.corner[l] = k0 + l + shift;
    b.west[l] = -shiftX;  // 0 or 1 for a near point
    b.south[l] = -shiftY;
    lowest = lowest < shift ? lowest : shift;
    highest = highest > shift ? highest : shift;
    far += int(unsigned(-shiftX) > 1u) | int(unsigned(-shiftY) > 1u);
  }
  return {lowest, highest, far};
}

// Weights and stores the count samples of a block whose first cell is k0, its corners fetched
// by fetch. SolidIsZero: the bilinear interpolant as sampleBilinear writes it. Renormalise:
// the corner weights times wet, divided by their sum (1 where every corner is solid: the
// cell's own values), times the arrival cell's wet.
template <int N, SampleRule R, class Fetch>
[[gnu::always_inline]] inline void weigh(const Block& b, const Fetch& fetch, const Departures& d,
                                         const SampledFields& f, std::ptrdiff_t k0, int count) {
  const float* in[N];
  float* out[N];
  for (int n = 0; n < N; ++n) {
    in[n] = f.in[n];
    out[n] = f.out[n] + k0;
  }
  const float* __restrict wet = d.wet;
#pragma omp simd
  for (int l = 0; l < count; ++l) {
    const float fx = b.fx[l], fy = b.fy[l];
    if constexpr (R == SampleRule::SolidIsZero) {
#pragma GCC unroll 3
      for (int n = 0; n < N; ++n) {
        const Quad q = fetch(in[n], l);
        const float bottom = (1.0f - fx) * q.sw + fx * q.se;
        const float top = (1.0f - fx) * q.nw + fx * q.ne;
        out[n][l] = (1.0f - fy) * bottom + fy * top;
      }
    } else {
      const float gx = b.gx[l], gy = b.gy[l];
      const Quad open = fetch(wet, l);
      const float wSW = gx * gy * open.sw, wSE = fx * gy * open.se;
      const float wNW = gx * fy * open.nw, wNE = fx * fy * open.ne;
      const float total = wSW + wSE + wNW + wNE;
      // Where every corner is solid the weights become the cell's own value's.
      const float own = std::bit_cast<float>(-std::int32_t(total == 0.0f) & kOneBits);
      const float scale = (1.0f - own) / (total + own);
      const float arrival = wet[k0 + l];
#pragma GCC unroll 3
      for (int n = 0; n < N; ++n) {
        const Quad q = fetch(in[n], l);
        const float sum = wSW * q.sw + wSE * q.se + wNW * q.nw + wNE * q.ne;
        out[n][l] = arrival * (sum * scale + own * in[n][k0 + l]);
      }
    }
  }
}

// How many of the cells [begin, end) of row j have a departure point a cell away or more.
[[gnu::always_inline]] inline int farPoints(const Departures& d, int j, int begin, int end) {
  const float* __restrict u = d.u;
  const float* __restrict v = d.v;
  const float c = d.cellsPerVelocity, xMax = float(d.nx - 1);
  const std::ptrdiff_t rowStart = std::ptrdiff_t(j) * d.nx;
  int far = 0;
#pragma omp simd reduction(+ : far)
  for (int i = begin; i < end; ++i) {
    const float ox = clampedOffset(-c * u[rowStart + i], float(i), xMax);
    far += int(std::fabs(ox) >= 1.0f) | int(std::fabs(c * v[rowStart + i]) >= 1.0f);
  }
  return far;
}

// Renormalise on the cells [begin, end) of row j (1 <= j <= ny - 2) on the assumption that every
// departure point lies less than a cell away (the common case: a Courant number below 1), with
// neither the floor nor the stored departures: the point's corners are among the 3 x 3 cells
// around it, whose weights in x are max(-o, 0), 1 - |o|, max(o, 0) (likewise in y):
// findDepartures' gx, fx on the 2 x 2 and 0 on the third column, so the sums are findDepartures'
// to the bit (the zero terms add exact zeros). The offset in x is clamped as findDepartures
// clamps it: a cell of the first or last column whose point lies beyond the grid gets weight 0 on
// the column across the row's end. Returns how many points lie a cell away or more: they get
// meaningless values from the same 3 x 3 (loads contiguous whatever the offset) and the caller
// samples them again. max(-o, 0) = (|o| - o) / 2 exactly (selects with arithmetic arms do not
// vectorise).
template <int N>
[[gnu::always_inline]] inline int nearSpan(const Departures& d, const SampledFields& f, int j,
                                           int begin, int end) {
  const float* __restrict u = d.u;
  const float* __restrict v = d.v;
  const float* __restrict wet = d.wet;
  const float* in[N];
  float* out[N];
  for (int n = 0; n < N; ++n) {
    in[n] = f.in[n];
    out[n] = f.out[n];
  }
  const float c = d.cellsPerVelocity, xMax = float(d.nx - 1);
  const std::ptrdiff_t row = d.nx, rowStart = j * row;
  int far = 0;
#pragma omp simd reduction(+ : far)
  for (int i = begin; i < end; ++i) {
    const std::ptrdiff_t k = rowStart + i;
    const float ox = clampedOffset(-c * u[k], float(i), xMax), oy = -c * v[k];
    const float ax = std::fabs(ox), ay = std::fabs(oy);
    far += int(ax >= 1.0f) | int(ay >= 1.0f);
    const float x[3] = {0.5f * (ax - ox), 1.0f - ax, 0.5f * (ax + ox)};
    const float y[3] = {0.5f * (ay - oy), 1.0f - ay, 0.5f * (ay + oy)};
    float w[3][3], total = 0.0f;
    for (int b = 0; b < 3; ++b)
      for (int a = 0; a < 3; ++a) {
        w[b][a] = y[b] * x[a] * wet[k + (b - 1) * row + (a - 1)];
        total += w[b][a];
      }
    const float own = std::bit_cast<float>(-std::int32_t(total == 0.0f) & kOneBits);
    const float scale = (1.0f - own) / (total + own);
#pragma GCC unroll 3
    for (int n = 0; n < N; ++n) {
      float sum = 0.0f;
      for (int b = 0; b < 3; ++b)
        for (int a = 0; a < 3; ++a)
          sum += w[b][a] * in[n][k + (b - 1) * row + (a - 1)];
      out[n][k] = wet[k] * (sum * scale + own * in[n][k]);
    }
  }
  return far;
}

// nearSpan where no point's offset is positive in x if SX = -1 or negative if SX = 0 (likewise
// SY in y): every 2 x 2 lies at the column offset SX and row offset SY from its cell, and the
// third column and row of nearSpan's 3 x 3 have weight 0 for every point. The four nonzero terms
// are summed in nearSpan's order: the same values to the bit, with 4 terms per field instead of 9.
template <int N, int SX, int SY>
[[gnu::always_inline]] inline int nearQuadSpan(const Departures& d, const SampledFields& f, int j,
                                               int begin, int end) {
  const float* __restrict u = d.u;
  const float* __restrict v = d.v;
  const float* __restrict wet = d.wet;
  const float* in[N];
  float* out[N];
  for (int n = 0; n < N; ++n) {
    in[n] = f.in[n];
    out[n] = f.out[n];
  }
  const float c = d.cellsPerVelocity, xMax = float(d.nx - 1);
  const std::ptrdiff_t row = d.nx, rowStart = j * row;
  int far = 0;
#pragma omp simd reduction(+ : far)
  for (int i = begin; i < end; ++i) {
    const std::ptrdiff_t k = rowStart + i, q = k + SY * row + SX;
    const float ox = clampedOffset(-c * u[k], float(i), xMax), oy = -c * v[k];
    const float ax = std::fabs(ox), ay = std::fabs(oy);
    far += int(ax >= 1.0f) | int(ay >= 1.0f);
    // The weights of the 2 x 2's west and east columns, south and north rows.
    const float xw = SX < 0 ? 0.5f * (ax - ox) : 1.0f - ax;
    const float xe = SX < 0 ? 1.0f - ax : 0.5f * (ax + ox);
    const float ys = SY < 0 ? 0.5f * (ay - oy) : 1.0f - ay;
    const float yn = SY < 0 ? 1.0f - ay : 0.5f * (ay + oy);
    const float wSW = ys * xw * wet[q], wSE = ys * xe * wet[q + 1];
    const float wNW = yn * xw * wet[q + row], wNE = yn * xe * wet[q + row + 1];
    float total = 0.0f;
    total += wSW;
    total += wSE;
    total += wNW;
    total += wNE;
    const float own = std::bit_cast<float>(-std::int32_t(total == 0.0f) & kOneBits);
    const float scale = (1.0f - own) / (total + own);
#pragma GCC unroll 3
    for (int n = 0; n < N; ++n) {
      const float* p = in[n];
      float sum = 0.0f;
      sum += wSW * p[q];
      sum += wSE * p[q + 1];
      sum += wNW * p[q + row];
      sum += wNE * p[q + row + 1];
      out[n][k] = wet[k] * (sum * scale + own * p[k]);
    }
  }
  return far;
}

// Which way the offsets of the cells [begin, end) of row j point: bit 0 some west (o_x < 0),
// bit 1 some east (o_x > 0), bit 2 some south, bit 3 some north.
[[gnu::always_inline]] inline int offsetSigns(const Departures& d, int j, int begin, int end) {
  const float* __restrict u = d.u;
  const float* __restrict v = d.v;
  const float c = d.cellsPerVelocity, xMax = float(d.nx - 1);
  const std::ptrdiff_t rowStart = std::ptrdiff_t(j) * d.nx;
  int west = 0, east = 0, south = 0, north = 0;
#pragma omp simd reduction(| : west, east, south, north)
  for (int i = begin; i < end; ++i) {
    const float ox = clampedOffset(-c * u[rowStart + i], float(i), xMax);
    const float oy = -c * v[rowStart + i];
    west |= int(ox < 0.0f), east |= int(ox > 0.0f);
    south |= int(oy < 0.0f), north |= int(oy > 0.0f);
  }
  return west | east << 1 | south << 2 | north << 3;
}

// Renormalise on the rows [j0, j1) (1 <= j0, j1 <= ny - 1) as near points (nearSpan), in chunks
// of kNearChunk cells: a chunk whose offsets keep their sign in x and in y (a flow that does not
// turn within it) by nearQuadSpan. On the one-drop pool of `wavebench-cli bench` at 256^2, 78 % of
// chunks of 32 cells keep their signs, fewer of longer chunks; the sampling took 0.89x the time
// with chunks of 64 or 128 cells, 0.91-1.01x with 32 (whose set-up costs more). Rows 1 and ny - 2
// leave out the cell whose 3 x 3 would reach beyond the arrays (the first of row 1, the last of row
// ny - 2). Returns how many points lie a cell away or more; counts the chunks on the 2 x 2.
constexpr int kNearChunk = 64;
template <int N>
[[gnu::always_inline]] inline int nearRows(const Departures& d, const SampledFields& f, int j0,
                                           int j1, SamplePaths& paths) {
  int far = 0;
  for (int j = j0; j < j1; ++j) {
    const int first = j == 1 ? 1 : 0, last = j == d.ny - 2 ? d.nx - 1 : d.nx;
    for (int begin = first; begin < last; begin += kNearChunk) {
      const int end = last - begin < kNearChunk ? last : begin + kNearChunk;
      // West only: SX = -1; east only or neither: 0; likewise in y.
      const int signs = offsetSigns(d, j, begin, end);
      paths.quad += int((signs & 3) != 3 && (signs >> 2) != 3);
      switch (signs) {
        case 0b0000:
        case 0b0010:
        case 0b1000:
        case 0b1010:
          far += nearQuadSpan<N, 0, 0>(d, f, j, begin, end);
          break;
        case 0b0001:
        case 0b1001:
          far += nearQuadSpan<N, -1, 0>(d, f, j, begin, end);
          break;
        case 0b0100:
        case 0b0110:
          far += nearQuadSpan<N, 0, -1>(d, f, j, begin, end);
          break;
        case 0b0101:
          far += nearQuadSpan<N, -1, -1>(d, f, j, begin, end);
          break;
        default:
          far += nearSpan<N>(d, f, j, begin, end);
      }
    }
  }
  return far;
}

// The cells [begin, end) of row j by findDepartures and weigh, block by block.
template <int N, SampleRule R>
[[gnu::always_inline]] inline void sampleTraced(const Departures& d, const SampledFields& f,
                                                Block& b, int j, int begin, int end,
                                                SamplePaths& paths) {
  const std::ptrdiff_t nx = d.nx, cells = nx * d.ny;
  for (int start = begin; start < end; start += kBlock) {
    const int count = end - start < kBlock ? end - start : kBlock;
    const std::ptrdiff_t k0 = j * nx + start;
    const Spread s = findDepartures<R>(b, d, start, j, count);
    if (s.lowest == s.highest) {
      weigh<N, R>(b, AtOneOffset{k0 + s.lowest, nx}, d, f, k0, count);
      ++paths.block;
    } else if (s.far == 0 && k0 - nx - 1 >= 0 && k0 + count + nx < cells) {
      // (The 3 x 3 loads reach a row and a column beyond the cells.)
      weigh<N, R>(b, Near{k0, nx, b}, d, f, k0, count);
      ++paths.near;
    } else {
      weigh<N, R>(b, Gathered{nx, b}, d, f, k0, count);
      ++paths.far;
    }
  }
}

// The whole rows [j0, j1). Renormalise first samples the rows that have both neighbours by
// nearRows, then by sampleTraced the first and last rows, the two cells nearRows leaves out and the
// blocks that hold a far point.
template <int N, SampleRule R>
[[gnu::always_inline]] inline SamplePaths sampleRows(const Departures& d, const SampledFields& f,
                                                     int j0, int j1) {
  Block b;
  SamplePaths paths;
  const int nx = d.nx, ny = d.ny;
  const int inner0 = j0 > 1 ? j0 : 1, inner1 = j1 < ny - 1 ? j1 : ny - 1;
  if (R == SampleRule::SolidIsZero || inner0 >= inner1) {
    for (int j = j0; j < j1; ++j)
      sampleTraced<N, R>(d, f, b, j, 0, nx, paths);
    return paths;
  }
  for (int j = j0; j < inner0; ++j)
    sampleTraced<N, R>(d, f, b, j, 0, nx, paths);
  for (int j = inner1; j < j1; ++j)
    sampleTraced<N, R>(d, f, b, j, 0, nx, paths);
  const bool anyFar = nearRows<N>(d, f, inner0, inner1, paths) > 0;
  if (inner0 == 1) sampleTraced<N, R>(d, f, b, 1, 0, 1, paths);
  if (inner1 == ny - 1) sampleTraced<N, R>(d, f, b, ny - 2, nx - 1, nx, paths);
  for (int j = inner0; j < inner1; ++j)
    for (int start = 0; start < nx; start += kBlock) {
      const int end = nx - start < kBlock ? nx : start + kBlock;
      if (anyFar && farPoints(d, j, start, end) > 0)
        sampleTraced<N, R>(d, f, b, j, start, end, paths);
      else
        ++paths.near;
    }
  return paths;
}

// The clones: a span of a row (sampleTraced) or whole rows, for 2 or 3 fields and each rule.
template <int N, SampleRule R>
[[gnu::always_inline]] inline SamplePaths sampleSpan(const Departures& d, const SampledFields& f,
                                                     int j, int begin, int end) {
  Block b;
  SamplePaths paths;
  sampleTraced<N, R>(d, f, b, j, begin, end, paths);
  return paths;
}
#define WB_SAMPLER(name, n, rule)                                                            \
  WB_SPAN_KERNEL SamplePaths name##Span(const Departures& d, const SampledFields& f, int j,  \
                                        int begin, int end) {                                \
    return sampleSpan<n, rule>(d, f, j, begin, end);                                         \
  }                                                                                          \
  WB_SPAN_KERNEL SamplePaths name##Rows(const Departures& d, const SampledFields& f, int j0, \
                                        int j1) {                                            \
    return sampleRows<n, rule>(d, f, j0, j1);                                                \
  }
WB_SAMPLER(two, 2, SampleRule::SolidIsZero)
WB_SAMPLER(three, 3, SampleRule::SolidIsZero)
WB_SAMPLER(twoRenormalised, 2, SampleRule::Renormalise)
WB_SAMPLER(threeRenormalised, 3, SampleRule::Renormalise)
#undef WB_SAMPLER

}  // namespace

SamplePaths sampleAtDepartures(const Departures& d, const SampledFields& f, SampleRule rule, int j,
                               int begin, int end) {
  const bool three = f.count == 3;
  if (rule == SampleRule::SolidIsZero)
    return three ? threeSpan(d, f, j, begin, end) : twoSpan(d, f, j, begin, end);
  return three ? threeRenormalisedSpan(d, f, j, begin, end)
               : twoRenormalisedSpan(d, f, j, begin, end);
}

SamplePaths sampleRowsAtDepartures(const Departures& d, const SampledFields& f, SampleRule rule,
                                   int j0, int j1) {
  const bool three = f.count == 3;
  if (rule == SampleRule::SolidIsZero)
    return three ? threeRows(d, f, j0, j1) : twoRows(d, f, j0, j1);
  return three ? threeRenormalisedRows(d, f, j0, j1) : twoRenormalisedRows(d, f, j0, j1);
}

}  // namespace wb
