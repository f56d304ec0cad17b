#include "cpu/memory_limits.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace nn {

size_t maxOperandBytes() {
  static const size_t limit = [] {
    if (const char* v = getenv("NNAPI_MAX_OPERAND_BYTES")) {
      char* end = nullptr;
      const unsigned long long n = strtoull(v, &end, 10);
      if (end != v && *end == '\0' && n > 0) return static_cast<size_t>(n);
    }
    uint64_t bytes = UINT64_MAX;
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
      bytes = static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize) / 2;
    rlimit as{};
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
      bytes = std::min<uint64_t>(bytes, as.rlim_cur / 2);
    return static_cast<size_t>(std::min<uint64_t>(bytes, SIZE_MAX / 2));
  }();
  return limit;
}

}  // namespace nn
