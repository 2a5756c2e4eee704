// Field2D: a contiguous, 64-byte aligned, row-major nx x ny array of float.
// Element (i, j) is cell column i (x) and row j (y); rows are contiguous so inner loops over i
// vectorise. Sums are accumulated in double.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <vector>

namespace wb {

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
    return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(Alignment)));
  }
  void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t(Alignment)); }
  friend bool operator==(const AlignedAllocator&, const AlignedAllocator&) { return true; }
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
  // Moves the values by whole cells: cell (i, j) takes the value of cell (i + di, j + dj), and
  // cells whose source lies outside the field take `fill` (a travelling window's re-centring).
  void shift(int di, int dj, float fill);
  double sum() const;
  float maxAbs() const;
  bool allFinite() const;

 private:
  int nx_ = 0;
  int ny_ = 0;
  std::vector<float, AlignedAllocator<float, kAlignment>> data_;
};

}  // namespace wb
