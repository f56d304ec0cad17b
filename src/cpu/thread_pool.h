// Worker pool of the CPU driver. Backed by pthreadpool (the pool XNNPACK itself uses, so its
// operators and ours share the same threads) when available, by our own fork-join workers
// otherwise.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstddef>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

struct pthreadpool;

namespace nn {
class ContentionPolicy;
}

namespace nn {

// A non-owning reference to a callable taking (begin, end). Unlike std::function it never
// allocates, whatever the callable captures; the callable must outlive the call it is
// passed to (always true for a lambda written in the argument list).
class RangeFn {
 public:
  template <typename F,
            typename = std::enable_if_t<!std::is_same<std::decay_t<F>, RangeFn>::value>>
  RangeFn(F&& f)  // NOLINT(google-explicit-constructor): implicit so lambdas pass directly
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* obj, size_t begin, size_t end) {
          (*static_cast<std::remove_reference_t<F>*>(obj))(begin, end);
        }) {}
  void operator()(size_t begin, size_t end) const { call_(obj_, begin, end); }

 private:
  void* obj_;
  void (*call_)(void*, size_t, size_t);
};

class ThreadPool {
 public:
  // A pool of `threads` workers including the caller (1 = everything runs on the caller).
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int numThreads() const { return threads_; }
  // Runs fn(begin, end) over [0, n) split into contiguous chunks of at least `grain` items.
  // Returns once every chunk has run. When another execution is using the pool right now,
  // the caller runs the whole range itself instead of waiting for the pool to free up.
  void parallelFor(size_t n, size_t grain, RangeFn fn);
  // The pthreadpool handle for XNNPACK (nullptr when single-threaded or unavailable).
  pthreadpool* handle() const { return pool_; }

  // The driver's default: NNAPI_CPU_THREADS if set (1..64), else the number of online cores.
  static int defaultThreadCount();
  // One process-wide pool per thread count (created on first use, never destroyed), so
  // compilations asking for the same count share threads and small models do not pay for
  // thread start-up. `threads` <= 0 means defaultThreadCount().
  static ThreadPool* shared(int threads);

  // Contention adaptation (cpu/contention.h): the pool one execution should use — this one
  // while the cores are free, the single-thread pool while other threads keep them busy.
  // `sample` records what checkExecution and endExecution need; call endExecution after the
  // computation (an execution that returns early may skip it). On by default;
  // NNAPI_CPU_ADAPT_THREADS=0 turns it off.
  struct ExecutionSample {
    ThreadPool* parallel = nullptr;  // the pool asked for, while it adapts (else null)
    bool measured = false;           // the workers are in use and their wait is being measured
    int64_t startNs = 0;
    int64_t runDelayNs = 0;
    int64_t lastCheckNs = 0;
  };
  ThreadPool* beginExecution(ExecutionSample* sample);
  // Between operations, at most once a millisecond, on the pool the execution uses now; returns
  // the pool for the next operations. On the workers: the single-thread pool when another
  // thread is runnable now (by a runnable count that has shown a free core lately), or when
  // the run-queue wait since the workers were taken exceeds its share (judged after 2 ms);
  // either is reported to the policy. On the caller alone: the workers again when a core is
  // free now.
  ThreadPool* checkExecution(ExecutionSample* sample);
  void endExecution(const ExecutionSample& sample);
  // The kernel thread ids of the workers (not the caller); learned on first use.
  std::vector<int> workerTids();
  static bool adaptationEnabled();
  // The pool's policy (tests force it); null when adaptation is off or unusable here.
  ContentionPolicy* contentionPolicy();
  // Tests: the count of other runnable threads coresNow sees instead of /proc/loadavg's
  // (a negative value restores the real probe).
  void overrideOthersRunnable(int others) { othersOverride_.store(others); }

 private:
  struct Adaptive;  // the policy and the probes, created on first use
  void initAdaptive();
  void openWindow(ExecutionSample* sample, int64_t nowNs);
  // Whether the cores our threads may use are free right now (kSettling: free, but seen taken
  // less than 2 ms ago).
  enum class CoreState { kFree, kSettling, kBusy, kUnknown };
  CoreState coresNow(int64_t nowNs);
  int cores_ = 1;  // CPUs this process may run on, learned with the probes
  std::atomic<int> othersOverride_{-1};
  struct Workers;  // our own fork-join workers when pthreadpool is not available
  int threads_ = 1;
  pthreadpool* pool_ = nullptr;
  std::unique_ptr<Workers> workers_;
  std::atomic<bool> busy_{false};
  std::once_flag adaptiveOnce_;
  std::unique_ptr<Adaptive> adaptive_;  // null when adaptation is off or schedstat unusable
};

}  // namespace nn
