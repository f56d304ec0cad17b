#include "cpu/thread_pool.h"

#include "cpu/contention.h"
#include "hal/log.h"

#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
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
  std::vector<int> tids;  // kernel thread ids, filled as the workers start (under mutex)

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
    tids.push_back(static_cast<int>(syscall(SYS_gettid)));
    idle.notify_all();
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

  std::vector<int> threadIds() {
    std::unique_lock<std::mutex> lock(mutex);
    idle.wait_for(lock, std::chrono::seconds(1), [&] { return tids.size() == threads.size(); });
    return tids;
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

// ---- Contention adaptation (cpu/contention.h) ----------------------------------------------

struct ThreadPool::Adaptive {
  ContentionPolicy policy;
  RunDelayProbe probe;
  RunnableProbe runnable;
  // When the runnable count last showed a free core (0: never). Only a count that has shown
  // one lately is trusted to say "busy" (a container's /proc/loadavg may count a whole host).
  std::atomic<int64_t> lastFreeNs{0};
  // When the runnable count last showed the cores taken: a core counts as free only once none
  // has been seen taken for kSettleNs, so that gaps of a busy machine shorter than that (where
  // a join would likely wait for a descheduled worker again) do not bring the workers back.
  std::atomic<int64_t> lastBusyNs{0};
  explicit Adaptive(const std::vector<int>& tids) : probe(tids), runnable(tids) {}
};

namespace {
int64_t monotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

#if NNAPI_HAVE_PTHREADPOOL
// Each of the pool's threads takes one item (an item waits until every thread holds one, so
// no thread can take two) and records its kernel thread id.
struct TidRecorder {
  std::atomic<int>* tids;
  size_t count;
  std::atomic<size_t> recorded{0};
  int64_t deadlineNs;
};
void recordTid(void* arg, size_t index) {
  NN_TSAN_ACQUIRE(arg);
  TidRecorder* r = static_cast<TidRecorder*>(arg);
  r->tids[index].store(static_cast<int>(syscall(SYS_gettid)), std::memory_order_relaxed);
  r->recorded.fetch_add(1, std::memory_order_acq_rel);
  while (r->recorded.load(std::memory_order_acquire) < r->count && monotonicNs() < r->deadlineNs)
    sched_yield();
  NN_TSAN_RELEASE(arg);
}
#endif
}  // namespace

bool ThreadPool::adaptationEnabled() {
  static const bool enabled = [] {
    // On unless NNAPI_CPU_ADAPT_THREADS=0 (docs/environment.md has the measurements).
    const char* v = getenv("NNAPI_CPU_ADAPT_THREADS");
    return v == nullptr || *v == '\0' || atoi(v) != 0;
  }();
  return enabled;
}

std::vector<int> ThreadPool::workerTids() {
  std::vector<int> out;
  if (workers_) return workers_->threadIds();
#if NNAPI_HAVE_PTHREADPOOL
  if (pool_ != nullptr) {
    std::vector<std::atomic<int>> tids(static_cast<size_t>(threads_));
    for (auto& t : tids) t.store(0);
    TidRecorder r{tids.data(), tids.size(), {0}, monotonicNs() + 200'000'000};
    NN_TSAN_RELEASE(&r);  // the hand-off through pthreadpool, as in parallelFor
    pthreadpool_parallelize_1d(pool_, recordTid, &r, tids.size(), 0);
    NN_TSAN_ACQUIRE(&r);
    const int self = static_cast<int>(syscall(SYS_gettid));
    for (auto& t : tids) {
      const int tid = t.load();
      if (tid != 0 && tid != self && std::find(out.begin(), out.end(), tid) == out.end())
        out.push_back(tid);
    }
  }
#endif
  return out;
}

ContentionPolicy* ThreadPool::contentionPolicy() {
  if (threads_ == 1 || !adaptationEnabled()) return nullptr;
  initAdaptive();
  return adaptive_ ? &adaptive_->policy : nullptr;
}

void ThreadPool::initAdaptive() {
  std::call_once(adaptiveOnce_, [this] {
    const std::vector<int> tids = workerTids();
    auto a = std::make_unique<Adaptive>(tids);
    if (a->probe.usable() && !tids.empty()) {
      adaptive_ = std::move(a);
      cpu_set_t set;
      CPU_ZERO(&set);
      const long online = sysconf(_SC_NPROCESSORS_ONLN);
      cores_ = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set)
                                                             : static_cast<int>(online);
      if (online > 0) cores_ = std::min(cores_, static_cast<int>(online));
    } else {
      logInfo("CPU driver: no schedstat for the pool's threads; thread count not adapted");
    }
  });
}

ThreadPool::CoreState ThreadPool::coresNow(int64_t nowNs) {
  // Busy right now only by a runnable count that has shown a free core in the last few
  // seconds: on a host whose /proc/loadavg counts far more threads than this process may run
  // beside (a container limited to a few of many cores) it never does, and only the run-queue
  // wait and the timed probes decide.
  constexpr int64_t kTrustNs = 10'000'000'000, kSettleNs = 2'000'000;
  const int forced = othersOverride_.load(std::memory_order_relaxed);
  const int others = forced >= 0 ? forced : adaptive_->runnable.othersRunnable();
  if (others < 0) return CoreState::kUnknown;
  if (others <= std::max(0, cores_ - threads_)) {
    adaptive_->lastFreeNs.store(nowNs, std::memory_order_relaxed);
    const int64_t lastBusy = adaptive_->lastBusyNs.load(std::memory_order_relaxed);
    return lastBusy != 0 && nowNs - lastBusy < kSettleNs ? CoreState::kSettling : CoreState::kFree;
  }
  adaptive_->lastBusyNs.store(nowNs, std::memory_order_relaxed);
  const int64_t lastFree = adaptive_->lastFreeNs.load(std::memory_order_relaxed);
  return lastFree != 0 && nowNs - lastFree < kTrustNs ? CoreState::kBusy : CoreState::kUnknown;
}

void ThreadPool::openWindow(ExecutionSample* sample, int64_t nowNs) {
  sample->measured = true;
  sample->startNs = nowNs;
  sample->runDelayNs = adaptive_->probe.totalRunDelayNs();
  sample->lastCheckNs = nowNs;
}

ThreadPool* ThreadPool::beginExecution(ExecutionSample* sample) {
  sample->measured = false;
  sample->parallel = nullptr;
  if (threads_ == 1 || !adaptationEnabled()) return this;
  initAdaptive();
  if (adaptive_ == nullptr) return this;
  sample->parallel = this;
  const int64_t now = monotonicNs();
  sample->lastCheckNs = now;
  // The workers when a core is free right now (even while contended: the other process may
  // have gone to sleep), not when one is known to be busy; otherwise as the policy says (while
  // contended, a timed probe now and then).
  const CoreState cores = coresNow(now);
  if (cores == CoreState::kBusy || cores == CoreState::kSettling ||
      (cores == CoreState::kUnknown && !adaptive_->policy.chooseParallel(now)))
    return shared(1);
  openWindow(sample, now);
  return this;
}

ThreadPool* ThreadPool::checkExecution(ExecutionSample* sample) {
  ThreadPool* parallel = sample->parallel;
  if (parallel == nullptr) return this;
  // On the caller alone, `this` is the single-thread pool: the parallel one decides.
  if (parallel != this) return parallel->checkExecution(sample) == parallel ? parallel : this;
  Adaptive* a = adaptive_.get();
  const ContentionPolicy::Config config = a->policy.config();
  const int64_t now = monotonicNs();
  if (now - sample->lastCheckNs < config.checkIntervalNs)
    return sample->measured ? this : shared(1);
  sample->lastCheckNs = now;
  const CoreState cores = coresNow(now);
  if (!sample->measured) {
    if (cores != CoreState::kFree) return shared(1);
    openWindow(sample, now);
    return this;
  }
  if (cores == CoreState::kBusy) {
    // Another thread is runnable now: leave the workers before a join waits for one of them.
    a->policy.reportBusy(now);
    sample->measured = false;
    return shared(1);
  }
  if (now - sample->startNs < config.minWindowNs) return this;
  const int64_t delay = a->probe.totalRunDelayNs() - sample->runDelayNs;
  const int64_t wall = now - sample->startNs;
  if (!a->policy.exceedsShare(wall, delay)) return this;
  a->policy.reportParallel(now, wall, delay);
  sample->measured = false;
  return shared(1);
}

void ThreadPool::endExecution(const ExecutionSample& sample) {
  if (!sample.measured || sample.parallel != this || adaptive_ == nullptr) return;
  const int64_t delay = adaptive_->probe.totalRunDelayNs() - sample.runDelayNs;
  const int64_t now = monotonicNs();
  adaptive_->policy.reportParallel(now, now - sample.startNs, delay);
}

}  // namespace nn
