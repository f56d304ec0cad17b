// Worker pool shared by the kernels of one prepared model. Backed by pthreadpool (the pool
// XNNPACK itself uses, so its operators and ours share the same threads) when available.
#pragma once

#include <cstddef>
#include <functional>

struct pthreadpool;

namespace nn {

class ThreadPool {
 public:
  // threads <= 0 picks NNAPI_CPU_THREADS or the number of online cores.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int numThreads() const { return threads_; }
  // Runs fn(begin, end) over [0, n) split into contiguous chunks of at least `grain` items.
  void parallelFor(size_t n, size_t grain, const std::function<void(size_t, size_t)>& fn);
  // The pthreadpool handle for XNNPACK (nullptr when single-threaded or unavailable).
  pthreadpool* handle() const { return pool_; }

  static int defaultThreadCount();

 private:
  int threads_ = 1;
  pthreadpool* pool_ = nullptr;
};

}  // namespace nn
