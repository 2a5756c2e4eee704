#include "core/grid/stencil.hpp"

#include <algorithm>
#include <map>

namespace wb {

WetStencil::WetStencil(const Domain& domain, StencilKind kind, WallRule rule, LinkDepth links,
                       double referenceDepth)
    : kind_(kind), nx_(domain.nx()) {
  const int nx = domain.nx(), ny = domain.ny();
  auto wet = [&](int i, int j) { return domain.isWetOrOutside(i, j); };
  auto index = [&](int i, int j) { return std::uint32_t(std::size_t(j) * nx + i); };
  if (links == LinkDepth::Local) {
    referenceDepth_ = referenceDepth > 0.0 ? referenceDepth : domain.maxWetDepth();
    // A fused kernel loads D at k - 1 (and k - 1 +- nx) right after it stored v and h^{n+1} at
    // k - 8 .. k - 1. A load whose address matches a pending store's in its low 12 bits waits
    // for that store (4-KiB aliasing), and large fields of one size (the domain's and the
    // model's) are mapped page by page, so they start at one offset within a page: D there would
    // wait at every vector (three loads of it with rows of 4 KiB). D starts half a page away from
    // the domain's fields instead; only the speed depends on it, not the values.
    constexpr std::uintptr_t kPage = 4096;
    const std::size_t cells = std::size_t(nx) * std::size_t(ny);
    halfDepth_.assign(cells + kPage / sizeof(float), 0.0f);
    const auto inPage = [&](const float* p) { return std::uintptr_t(p) % kPage; };
    halfDepthStart_ =
        (inPage(domain.restDepth().data()) + kPage / 2 + kPage - inPage(halfDepth_.data())) %
        kPage / sizeof(float);
    const auto& mask = domain.wetMask();
    const float* depth = domain.restDepth().data();
    float* half = halfDepth_.data() + halfDepthStart_;
    for (std::size_t k = 0; k < cells; ++k)
      if (mask[k] && depth[k] > 0.0f)
        half[k] = float(0.5 * std::min(double(depth[k]), referenceDepth_) / referenceDepth_);
  }
  // The link factor f_ab (1 for uniform links); b may be the cell itself (a mirror image or a
  // neighbour counted as 0), whose factor is the cell's own depth.
  auto link = [&](int i, int j, int si, int sj) {
    if (!localDepth()) return 1.0f;
    const float own = halfDepth()[index(i, j)];
    return own + (wet(si, sj) ? halfDepth()[index(si, sj)] : own);
  };
  const float edgeWeight = kind == StencilKind::FivePoint ? 1.0f : 0.5f;
  const float cornerWeight = 0.25f;

  for (int j = 0; j < ny; ++j) {
    int spanBegin = -1;
    for (int i = 0; i <= nx; ++i) {
      bool full = i < nx && wet(i, j);
      if (full)
        for (int dj = -1; dj <= 1 && full; ++dj)
          for (int di = -1; di <= 1 && full; ++di) {
            if (kind == StencilKind::FivePoint && di != 0 && dj != 0) continue;
            full = wet(i + di, j + dj);
          }
      if (full && spanBegin < 0) spanBegin = i;
      if (!full && spanBegin >= 0) {
        spans_.push_back({j, spanBegin, i});
        spanBegin = -1;
      }
      if (full || i == nx || !wet(i, j)) continue;

      // An edge cell: accumulate weights per source cell, then store them.
      std::map<std::uint32_t, float> weights;
      float centre = 0.0f;
      auto add = [&](int si, int sj, float stencilWeight) {
        const float w = stencilWeight * link(i, j, si, sj);
        centre += w;
        if (si == i && sj == j)
          weights[index(i, j)] += w;  // mirror = the cell itself
        else
          weights[index(si, sj)] += w;
      };
      const int edges[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
      for (const auto& e : edges) {
        const int si = i + e[0], sj = j + e[1];
        if (wet(si, sj))
          add(si, sj, edgeWeight);
        else if (rule == WallRule::Mirror)
          add(i, j, edgeWeight);
        else
          centre += edgeWeight * link(i, j, i, j);  // the neighbour counts as 0
      }
      if (kind == StencilKind::NinePoint) {
        const int corners[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
        for (const auto& c : corners) {
          const int si = i + c[0], sj = j + c[1];
          if (wet(si, sj)) {
            add(si, sj, cornerWeight);
          } else if (rule == WallRule::Zero) {
            centre += cornerWeight * link(i, j, i, j);
          } else {
            const bool xSideWet = wet(i + c[0], j), ySideWet = wet(i, j + c[1]);
            // Reflect across the wall the diagonal lies behind; a corner reflects to itself.
            if (!xSideWet && ySideWet)
              add(i, j + c[1], cornerWeight);
            else if (xSideWet && !ySideWet)
              add(i + c[0], j, cornerWeight);
            else
              add(i, j, cornerWeight);
          }
        }
      }
      // The cell's own weight cancels against the centre term.
      const std::uint32_t self = index(i, j);
      if (auto it = weights.find(self); it != weights.end()) {
        centre -= it->second;
        weights.erase(it);
      }
      EdgeCell cell{self, centre, std::uint32_t(terms_.size()), std::uint32_t(weights.size())};
      for (const auto& [source, w] : weights)
        terms_.push_back({source, w});
      edgeCells_.push_back(cell);
    }
  }
}

template <class Real>
void WetStencil::applyTo(const Real* src, Real* dst) const {
  const std::size_t nx = std::size_t(nx_);
  const float* depth = localDepth() ? halfDepth() : nullptr;
  for (const Span& span : spans_)
    for (int i = span.begin; i < span.end; ++i) {
      const std::size_t k = std::size_t(span.row) * nx + i;
      dst[k] = depth ? interiorLinkLaplacian(kind_, src, depth, k, nx)
                     : interiorLaplacian(kind_, src, k, nx);
    }
  for (const EdgeCell& cell : edgeCells_)
    dst[cell.index] = applyAt(cell, src);
}

void WetStencil::apply(const Field2D& h, Field2D& out) const {
  applyTo(h.data(), out.data());
}

void WetStencil::apply(const double* h, double* out) const {
  applyTo(h, out);
}

}  // namespace wb
