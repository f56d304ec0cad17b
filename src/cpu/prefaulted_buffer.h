// Large, write-once buffers of the CPU driver (packed weights) whose pages are mapped in one
// batch instead of one 4 KB fault at a time (issue 10, compilation time).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

namespace nn {

// posix_memalign(alignment, size) (size 0 allocates 1 byte); the pages of blocks of at least
// 64 KB are mapped on return: with madvise(MADV_POPULATE_WRITE) (Linux 5.14+), else by
// writing zeros. The contents are unspecified. Freed with free(). nullptr when out of memory.
void* allocatePrefaulted(size_t alignment, size_t size);

// An uninitialized array of T from allocatePrefaulted, 64-byte aligned. Unlike std::vector
// it does not zero-fill: every user writes all elements right away, and the zero-fill was a
// full extra pass over tens of MB (pose_landmark_heavy's packed GEMM weights).
template <typename T>
class PrefaultedArray {
 public:
  PrefaultedArray() = default;
  // Replaces the contents with `n` uninitialized elements. Out of memory throws
  // std::bad_alloc, as the std::vector this replaces did.
  void allocate(size_t n) {
    data_.reset();
    size_ = 0;
    data_.reset(static_cast<T*>(allocatePrefaulted(64, n * sizeof(T))));
    if (data_ == nullptr) throw std::bad_alloc();
    size_ = n;
  }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return data_.get()[i]; }
  const T& operator[](size_t i) const { return data_.get()[i]; }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T, Free> data_;
  size_t size_ = 0;
};

}  // namespace nn
