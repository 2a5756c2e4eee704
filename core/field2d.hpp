// Field2D: a contiguous, 64-byte aligned, row-major nx x ny array of float.
// Element (i, j) is cell column i (x) and row j (y); rows are contiguous so inner loops over i
// vectorise. Sums are accumulated in double.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <vector>

#include <sys/mman.h>

namespace wb {

// Arrays of kHugePage bytes and more start on a 2 MiB boundary and ask the kernel for
// transparent huge pages (this machine's THP mode is "madvise": only advised ranges get them).
// A step on a 1024^2 grid streams some 30 fields of 4 MiB, whose 4 KiB pages overflow the TLB:
// huge pages made damped-wave's step there 1.13x and windy advected-wave's 1.07x faster
// (docs/performance.md, ninth round). Smaller arrays keep Alignment.
template <class T, std::size_t Alignment>
struct AlignedAllocator {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = AlignedAllocator<U, Alignment>;
  };
  AlignedAllocator() = default;
  template <class U>
  AlignedAllocator(const AlignedAllocator<U, Alignment>&) {}
  T* allocate(std::size_t n) {
    void* p = ::operator new(n * sizeof(T), std::align_val_t(alignmentFor(n)));
#ifdef MADV_HUGEPAGE
    // Advice only: where the kernel has no huge pages the array keeps small ones.
    if (n * sizeof(T) >= kHugePage)
      madvise(p, n * sizeof(T) / kHugePage * kHugePage, MADV_HUGEPAGE);
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) {
    ::operator delete(p, std::align_val_t(alignmentFor(n)));
  }
  static constexpr std::size_t kHugePage = std::size_t(2) << 20;
  static std::size_t alignmentFor(std::size_t n) {
    return n * sizeof(T) >= kHugePage ? kHugePage : Alignment;
  }
  friend bool operator==(const AlignedAllocator&, const AlignedAllocator&) {
    return true;
  }
};

class Field2D {
 public:
  static constexpr std::size_t kAlignment = 64;

  Field2D() = default;
  Field2D(int nx, int ny, float value = 0.0f);

  int nx() const { return nx_; }
  int ny() const { return ny_; }
  std::size_t size() const { return data_.size(); }
  bool empty() const { return data_.empty(); }
  bool sameShape(const Field2D& other) const { return nx_ == other.nx_ && ny_ == other.ny_; }

  float& operator()(int i, int j) { return data_[index(i, j)]; }
  float operator()(int i, int j) const { return data_[index(i, j)]; }
  std::size_t index(int i, int j) const {
    return static_cast<std::size_t>(j) * static_cast<std::size_t>(nx_) +
           static_cast<std::size_t>(i);
  }

  float* data() { return data_.data(); }
  const float* data() const { return data_.data(); }
  float* row(int j) { return data_.data() + index(0, j); }
  const float* row(int j) const { return data_.data() + index(0, j); }

  void fill(float value);
  double sum() const;
  float maxAbs() const;
  bool allFinite() const;

 private:
  int nx_ = 0;
  int ny_ = 0;
  std::vector<float, AlignedAllocator<float, kAlignment>> data_;
};

}  // namespace wb
