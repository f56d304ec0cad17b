#include "cpu/prefaulted_buffer.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace nn {

// Faulting fresh pages in one exception each was more than half the cost of packing weights
// at compilation (and of XNNPACK's own packing, which uses this through xnnpack_util.cc).
// madvise(MADV_POPULATE_WRITE) maps the block's whole pages in one call, about twice as fast.
// Transparent huge pages were measured too: on the VMs used, a fresh 2 MB page sometimes
// stalls on compaction (>100 ms for 55 MB), so they are not requested.
void* allocatePrefaulted(size_t alignment, size_t size) {
  void* p = nullptr;
  if (posix_memalign(&p, std::max<size_t>(alignment, sizeof(void*)), size > 0 ? size : 1) != 0)
    return nullptr;
  constexpr size_t kPrefaultMin = size_t{64} << 10;
  if (size < kPrefaultMin) return p;
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  constexpr uintptr_t kPage = 4096;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kPage - 1) & ~(kPage - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + size) & ~(kPage - 1);
  if (end <= begin ||
      madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE) == 0)
    return p;
#endif
  // No batch prefault here (kernel before 5.14): touching the block keeps the promise that
  // its pages are mapped on return (the execution arena relies on it for first-run latency).
  memset(p, 0, size);
  return p;
}

}  // namespace nn
