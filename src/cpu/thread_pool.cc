#include "cpu/thread_pool.h"

#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#if NNAPI_HAVE_PTHREADPOOL
#include <pthreadpool.h>
#endif

// pthreadpool hands work to its workers through atomics and futexes that ThreadSanitizer does
// not see (Debian's library is not instrumented): state the happens-before edges explicitly.
#if NNAPI_SANITIZE_THREAD
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#define NN_TSAN_ACQUIRE(p) __tsan_acquire(p)
#define NN_TSAN_RELEASE(p) __tsan_release(p)
#else
#define NN_TSAN_ACQUIRE(p) ((void)(p))
#define NN_TSAN_RELEASE(p) ((void)(p))
#endif

namespace nn {

// Fork-join workers: parallelFor publishes a job (generation++), workers and the caller pull
// chunk indexes from one atomic counter, and the caller waits until every worker has left
// the job before returning (the job lives on the caller's stack).
struct ThreadPool::Workers {
  std::mutex mutex;
  std::condition_variable wake;
  std::condition_variable idle;
  uint64_t generation = 0;
  bool stop = false;
  int active = 0;  // workers still inside the current job
  const RangeFn* fn = nullptr;
  size_t n = 0, chunk = 1, chunks = 0;
  std::atomic<size_t> next{0};
  std::vector<std::thread> threads;

  void runChunks() {
    for (;;) {
      const size_t c = next.fetch_add(1, std::memory_order_relaxed);
      if (c >= chunks) return;
      const size_t begin = c * chunk;
      (*fn)(begin, std::min(n, begin + chunk));
    }
  }

  void workerLoop() {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      wake.wait(lock, [&] { return stop || generation != seen; });
      if (stop) return;
      seen = generation;
      lock.unlock();
      runChunks();
      lock.lock();
      if (--active == 0) idle.notify_one();
    }
  }

  explicit Workers(int count) {
    threads.reserve(count);
    for (int i = 0; i < count; ++i) threads.emplace_back([this] { workerLoop(); });
  }

  ~Workers() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stop = true;
    }
    wake.notify_all();
    for (std::thread& t : threads) t.join();
  }

  void run(const RangeFn& f, size_t count, size_t chunkSize) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      fn = &f;
      n = count;
      chunk = chunkSize;
      chunks = (count + chunkSize - 1) / chunkSize;
      next.store(0, std::memory_order_relaxed);
      active = static_cast<int>(threads.size());
      ++generation;
    }
    wake.notify_all();
    runChunks();
    std::unique_lock<std::mutex> lock(mutex);
    idle.wait(lock, [&] { return active == 0; });
    fn = nullptr;
  }
};

int ThreadPool::defaultThreadCount() {
  if (const char* env = getenv("NNAPI_CPU_THREADS")) {
    const int n = atoi(env);
    if (n > 0) return std::min(n, 64);
  }
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 ? static_cast<int>(std::min<long>(cores, 64)) : 1;
}

ThreadPool* ThreadPool::shared(int threads) {
  if (threads <= 0) threads = defaultThreadCount();
  threads = std::min(threads, 64);
  static std::mutex mutex;
  static std::map<int, ThreadPool*>* pools = new std::map<int, ThreadPool*>();
  std::lock_guard<std::mutex> lock(mutex);
  ThreadPool*& pool = (*pools)[threads];
  // Intentionally never destroyed: executions may still run while static destructors do.
  if (pool == nullptr) pool = new ThreadPool(threads);
  return pool;
}

ThreadPool::ThreadPool(int threads) {
  threads_ = std::max(1, std::min(threads, 64));
  if (threads_ == 1) return;
#if NNAPI_HAVE_PTHREADPOOL
  pool_ = pthreadpool_create(static_cast<size_t>(threads_));
  if (pool_ != nullptr) return;
#endif
  workers_ = std::make_unique<Workers>(threads_ - 1);
}

ThreadPool::~ThreadPool() {
  workers_.reset();
#if NNAPI_HAVE_PTHREADPOOL
  if (pool_) pthreadpool_destroy(pool_);
#endif
}

#if NNAPI_HAVE_PTHREADPOOL
namespace {
struct ChunkTask {
  const RangeFn* fn;
  size_t n;
  size_t chunk;
};
void runChunk(void* arg, size_t index) {
  NN_TSAN_ACQUIRE(arg);
  const ChunkTask* t = static_cast<const ChunkTask*>(arg);
  const size_t begin = index * t->chunk;
  const size_t end = std::min(t->n, begin + t->chunk);
  if (begin < end) (*t->fn)(begin, end);
  NN_TSAN_RELEASE(arg);
}
}  // namespace
#endif

void ThreadPool::parallelFor(size_t n, size_t grain, RangeFn fn) {
  if (n == 0) return;
  grain = std::max<size_t>(grain, 1);
  if (threads_ > 1 && n > grain && !busy_.exchange(true, std::memory_order_acquire)) {
    // A few chunks per thread balances uneven work without much scheduling overhead.
    const size_t target = static_cast<size_t>(threads_) * 4;
    const size_t chunk = std::max(grain, (n + target - 1) / target);
    const size_t chunks = (n + chunk - 1) / chunk;
    if (chunks > 1) {
#if NNAPI_HAVE_PTHREADPOOL
      if (pool_ != nullptr) {
        ChunkTask task{&fn, n, chunk};
        NN_TSAN_RELEASE(&task);
        pthreadpool_parallelize_1d(pool_, runChunk, &task, chunks, 0);
        NN_TSAN_ACQUIRE(&task);
      }
#endif
      if (workers_) workers_->run(fn, n, chunk);
      busy_.store(false, std::memory_order_release);
      return;
    }
    busy_.store(false, std::memory_order_release);
  }
  fn(0, n);
}

}  // namespace nn
