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

  // Contention adaptation (cpu/contention.h): the pool one execution should use — this one,
  // or the single-thread pool while other processes keep our threads waiting for a core.
  // `sample` records what endExecution needs; call endExecution after the computation (an
  // execution that returns early may skip it). Opt-in with NNAPI_CPU_ADAPT_THREADS=1.
  struct ExecutionSample {
    bool measured = false;
    int64_t startNs = 0;
    int64_t runDelayNs = 0;
    int64_t lastCheckNs = 0;
  };
  ThreadPool* beginExecution(ExecutionSample* sample);
  // Between operations: once a millisecond, the run-queue wait so far; when contended, reports
  // it (the execution then counts as measured) and returns the single-thread pool for the rest
  // of the execution — so a probe on a busy machine costs about a millisecond, not a whole
  // slow execution. Otherwise returns this pool.
  ThreadPool* checkExecution(ExecutionSample* sample);
  void endExecution(const ExecutionSample& sample);
  // The kernel thread ids of the workers (not the caller); learned on first use.
  std::vector<int> workerTids();
  static bool adaptationEnabled();
  // The pool's policy (tests force it); null when adaptation is off or unusable here.
  ContentionPolicy* contentionPolicy();

 private:
  struct Adaptive;  // the policy and the run-delay probe, created on first use
  void initAdaptive();
  struct Workers;  // our own fork-join workers when pthreadpool is not available
  int threads_ = 1;
  pthreadpool* pool_ = nullptr;
  std::unique_ptr<Workers> workers_;
  std::atomic<bool> busy_{false};
  std::once_flag adaptiveOnce_;
  std::unique_ptr<Adaptive> adaptive_;  // null when adaptation is off or schedstat unusable
};

}  // namespace nn
