#include "cpu/thread_pool.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#if NNAPI_HAVE_XNNPACK
#include <pthreadpool.h>
#endif

namespace nn {

int ThreadPool::defaultThreadCount() {
  if (const char* env = getenv("NNAPI_CPU_THREADS")) {
    const int n = atoi(env);
    if (n > 0) return std::min(n, 64);
  }
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 ? static_cast<int>(std::min<long>(cores, 64)) : 1;
}

ThreadPool::ThreadPool(int threads) {
  threads_ = threads > 0 ? threads : defaultThreadCount();
#if NNAPI_HAVE_XNNPACK
  if (threads_ > 1) pool_ = pthreadpool_create(static_cast<size_t>(threads_));
  if (pool_ == nullptr) threads_ = 1;
#else
  threads_ = 1;
#endif
}

ThreadPool::~ThreadPool() {
#if NNAPI_HAVE_XNNPACK
  if (pool_) pthreadpool_destroy(pool_);
#endif
}

#if NNAPI_HAVE_XNNPACK
namespace {
struct ChunkTask {
  const RangeFn* fn;
  size_t n;
  size_t chunk;
};
void runChunk(void* arg, size_t index) {
  const ChunkTask* t = static_cast<const ChunkTask*>(arg);
  const size_t begin = index * t->chunk;
  const size_t end = std::min(t->n, begin + t->chunk);
  if (begin < end) (*t->fn)(begin, end);
}
}  // namespace
#endif

void ThreadPool::parallelFor(size_t n, size_t grain, RangeFn fn) {
  if (n == 0) return;
  grain = std::max<size_t>(grain, 1);
#if NNAPI_HAVE_XNNPACK
  if (pool_ != nullptr && n > grain) {
    // A few chunks per thread balances uneven work without much scheduling overhead.
    const size_t target = static_cast<size_t>(threads_) * 4;
    size_t chunk = std::max(grain, (n + target - 1) / target);
    const size_t chunks = (n + chunk - 1) / chunk;
    if (chunks > 1) {
      ChunkTask task{&fn, n, chunk};
      pthreadpool_parallelize_1d(pool_, runChunk, &task, chunks, 0);
      return;
    }
  }
#endif
  fn(0, n);
}

}  // namespace nn
