#include "core/grid/semi_lagrangian.hpp"

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "core/grid/parallel.hpp"

namespace wb {
namespace {

// Cells per block: its departure points are examined first, then sampled by one path.
constexpr int kBlock = 32;
constexpr std::int32_t kOneBits = 0x3f800000;  // the bits of 1.0f

// The 2 x 2 corner values: south-west (the lower corner), south-east, north-west, north-east.
struct Quad {
  float sw, se, nw, ne;
};

// The 2 x 2 whose lower corner is c.
struct CornerAt {
  std::ptrdiff_t c, nx;
  [[gnu::always_inline]] Quad operator()(const float* p) const {
    return {p[c], p[c + 1], p[c + nx], p[c + nx + 1]};
  }
};

// The 2 x 2 whose lower corner is the cell k itself or its west, south or south-west
// neighbour, selected from the 3 x 3 values around it (loaded contiguously; selects between
// loaded values only, which vectorise).
struct NearAt {
  std::ptrdiff_t k, nx;
  bool west, south;
  [[gnu::always_inline]] Quad operator()(const float* q) const {
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
};

// The departure point of a cell: its 2 x 2's lower corner as a shift from the cell, the
// weights of the corner's east column and north row (fx, fy) and of its own column and row
// (gx, gy; Renormalise).
struct Point {
  float fx, fy, gx, gy;
  int shiftX, shiftY;
};

// The departure point of cell (i, j), clamped onto the outermost cell centres. The offset is
// split into its floor and fraction in float, so the fraction keeps the offset's own precision
// whatever i is (and the weights stay in [0, 1]); floor() in integer arithmetic (std::floor
// does not vectorise under -ftrapping-math) after the clamp, so the conversion stays in range
// (the clamp's lower bound comes first: it turns a NaN velocity into the bound). The lower
// corner is at most (nx - 2, ny - 2); a point on the east edge then has fx = 1. The west /
// south weight is (shift + 1) - offset: -offset exactly for a point less than a cell west.
struct Trace {
  float cellsPerVelocity, xMax, yMax;
  int lastI0, lastJ0;
  explicit Trace(const Departures& d)
      : cellsPerVelocity(d.cellsPerVelocity),
        xMax(float(d.nx - 1)),
        yMax(float(d.ny - 1)),
        lastI0(d.nx - 2),
        lastJ0(d.ny - 2) {}
  [[gnu::always_inline]] Point operator()(float u, float v, int i, int j) const {
    const float fi = float(i), fj = float(j);
    const float backX = -cellsPerVelocity * u, backY = -cellsPerVelocity * v;
    float ox = backX > -fi ? backX : -fi, oy = backY > -fj ? backY : -fj;
    ox = ox < xMax - fi ? ox : xMax - fi;
    oy = oy < yMax - fj ? oy : yMax - fj;
    const int truncX = int(ox), truncY = int(oy);
    const int floorX = truncX - (ox < float(truncX)), floorY = truncY - (oy < float(truncY));
    const int shiftX = floorX < lastI0 - i ? floorX : lastI0 - i;
    const int shiftY = floorY < lastJ0 - j ? floorY : lastJ0 - j;
    return {ox - float(shiftX),
            oy - float(shiftY),
            float(shiftX + 1) - ox,
            float(shiftY + 1) - oy,
            shiftX,
            shiftY};
  }
};

// The fields of a call, N of them.
template <int N>
struct Fields {
  const float* in[N];
  float* out[N];
  const float* wet;
  explicit Fields(const SampledFields& f, const float* wetCells) : wet(wetCells) {
    for (int n = 0; n < N; ++n) {
      in[n] = f.in[n];
      out[n] = f.out[n];
    }
  }
};

// Weighs and stores the samples of cell k at point p, its corners fetched by fetch.
// SolidIsZero: the bilinear interpolant as sampleBilinear writes it. Renormalise: the corner
// weights times wet, divided by their sum (1 where every corner is solid: the cell's own
// values), times the arrival cell's wet.
template <int N, SampleRule R, class Fetch>
[[gnu::always_inline]] inline void sampleCell(const Fields<N>& f, const Point& p,
                                              const Fetch& fetch, std::ptrdiff_t k) {
  const float fx = p.fx, fy = p.fy;
  if constexpr (R == SampleRule::SolidIsZero) {
#pragma GCC unroll 3
    for (int n = 0; n < N; ++n) {
      const Quad q = fetch(f.in[n]);
      const float bottom = (1.0f - fx) * q.sw + fx * q.se;
      const float top = (1.0f - fx) * q.nw + fx * q.ne;
      f.out[n][k] = (1.0f - fy) * bottom + fy * top;
    }
  } else {
    const float gx = p.gx, gy = p.gy;
    const Quad open = fetch(f.wet);
    const float wSW = gx * gy * open.sw, wSE = fx * gy * open.se;
    const float wNW = gx * fy * open.nw, wNE = fx * fy * open.ne;
    const float total = wSW + wSE + wNW + wNE;
    // Where every corner is solid the weights become the cell's own value's.
    const float own = std::bit_cast<float>(-std::int32_t(total == 0.0f) & kOneBits);
    const float scale = (1.0f - own) / (total + own);
    const float arrival = f.wet[k];
#pragma GCC unroll 3
    for (int n = 0; n < N; ++n) {
      const Quad q = fetch(f.in[n]);
      const float sum = wSW * q.sw + wSE * q.se + wNW * q.nw + wNE * q.ne;
      f.out[n][k] = arrival * (sum * scale + own * f.in[n][k]);
    }
  }
}

// The departure points of a block, found once for the contiguous and the gathered paths.
struct Block {
  alignas(64) float fx[kBlock], fy[kBlock], gx[kBlock], gy[kBlock];
  alignas(64) int shiftX[kBlock], shiftY[kBlock];
  [[gnu::always_inline]] Point operator[](int l) const {
    return {fx[l], fy[l], gx[l], gy[l], shiftX[l], shiftY[l]};
  }
};

// The count cells from (i0, j) on. A block inside the grid is first sampled on the assumption
// that every point lies less than a cell away (the common case: a Courant number below 1),
// which needs neither the clamp nor the floor: the corner is the cell or its west / south
// neighbour as the offset is negative, and the weights are those of Trace (o + 1, -o for
// o < 0; o, 1 - o otherwise; a point on the last column with o = 0 weighs the wrapped cell
// beyond by 0, as Trace weighs column nx - 2). Points that are not near (|o| >= 1, or beyond
// the grid's first or last column) are counted; if there are any, the block is sampled again by
// Trace: with contiguous loads if every corner lies at the same offset from its cell, else
// gathered.
template <int N, SampleRule R>
[[gnu::always_inline]] inline void sampleBlock(const Departures& d, const Fields<N>& f, Block& b,
                                               int i0, int j, int count, SamplePaths& paths) {
  const float* __restrict u = d.u;
  const float* __restrict v = d.v;
  const float c = d.cellsPerVelocity;
  const std::ptrdiff_t nx = d.nx, k0 = j * nx + i0;
  // The 3 x 3 loads reach a row and a column beyond the cells.
  if (k0 - nx - 1 >= 0 && k0 + count + nx < nx * d.ny) {
    const int lastI = d.nx - 1;
    int far = 0;
#pragma omp simd reduction(+ : far)
    for (int l = 0; l < count; ++l) {
      const int i = i0 + l;
      const float ox = -c * u[k0 + l], oy = -c * v[k0 + l];
      const bool west = ox < 0.0f, south = oy < 0.0f;
      const float toWest = west ? 1.0f : 0.0f, toSouth = south ? 1.0f : 0.0f;
      far += int(std::fabs(ox) >= 1.0f) | int(std::fabs(oy) >= 1.0f) | int((i == 0) & west) |
             int((i == lastI) & (ox > 0.0f));
      const Point p{ox + toWest, oy + toSouth, (1.0f - toWest) - ox, (1.0f - toSouth) - oy, 0, 0};
      sampleCell<N, R>(f, p, NearAt{k0 + l, nx, west, south}, k0 + l);
    }
    if (far == 0) {
      ++paths.near;
      return;
    }
  }
  const Trace trace(d);
  std::ptrdiff_t lowest = PTRDIFF_MAX, highest = PTRDIFF_MIN;
#pragma omp simd reduction(min : lowest) reduction(max : highest)
  for (int l = 0; l < count; ++l) {
    const Point p = trace(u[k0 + l], v[k0 + l], i0 + l, j);
    b.fx[l] = p.fx, b.fy[l] = p.fy, b.gx[l] = p.gx, b.gy[l] = p.gy;
    b.shiftX[l] = p.shiftX, b.shiftY[l] = p.shiftY;
    const std::ptrdiff_t shift = p.shiftY * nx + p.shiftX;
    lowest = lowest < shift ? lowest : shift;
    highest = highest > shift ? highest : shift;
  }
  if (lowest == highest) {
#pragma omp simd
    for (int l = 0; l < count; ++l)
      sampleCell<N, R>(f, b[l], CornerAt{k0 + l + lowest, nx}, k0 + l);
    ++paths.block;
  } else {
#pragma omp simd
    for (int l = 0; l < count; ++l)
      sampleCell<N, R>(f, b[l], CornerAt{k0 + l + b.shiftY[l] * nx + b.shiftX[l], nx}, k0 + l);
    ++paths.far;
  }
}

template <int N, SampleRule R>
[[gnu::always_inline]] inline SamplePaths sampleRow(const Departures& d, const SampledFields& f,
                                                    int j, int begin, int end) {
  const Fields<N> fields(f, d.wet);
  Block b;
  SamplePaths paths;
  for (int start = begin; start < end; start += kBlock)
    sampleBlock<N, R>(d, fields, b, start, j, end - start < kBlock ? end - start : kBlock, paths);
  return paths;
}

WB_SPAN_KERNEL SamplePaths sampleTwo(const Departures& d, const SampledFields& f, int j, int begin,
                                     int end) {
  return sampleRow<2, SampleRule::SolidIsZero>(d, f, j, begin, end);
}
WB_SPAN_KERNEL SamplePaths sampleThree(const Departures& d, const SampledFields& f, int j,
                                       int begin, int end) {
  return sampleRow<3, SampleRule::SolidIsZero>(d, f, j, begin, end);
}
WB_SPAN_KERNEL SamplePaths sampleTwoRenormalised(const Departures& d, const SampledFields& f, int j,
                                                 int begin, int end) {
  return sampleRow<2, SampleRule::Renormalise>(d, f, j, begin, end);
}
WB_SPAN_KERNEL SamplePaths sampleThreeRenormalised(const Departures& d, const SampledFields& f,
                                                   int j, int begin, int end) {
  return sampleRow<3, SampleRule::Renormalise>(d, f, j, begin, end);
}

}  // namespace

SamplePaths sampleAtDepartures(const Departures& d, const SampledFields& f, SampleRule rule, int j,
                               int begin, int end) {
  const bool three = f.count == 3;
  if (rule == SampleRule::SolidIsZero)
    return three ? sampleThree(d, f, j, begin, end) : sampleTwo(d, f, j, begin, end);
  return three ? sampleThreeRenormalised(d, f, j, begin, end)
               : sampleTwoRenormalised(d, f, j, begin, end);
}

}  // namespace wb
