// Worker pool shared by the kernels of one prepared model. Backed by pthreadpool (the pool
// XNNPACK itself uses, so its operators and ours share the same threads) when available.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

struct pthreadpool;

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
  // threads <= 0 picks NNAPI_CPU_THREADS or the number of online cores.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int numThreads() const { return threads_; }
  // Runs fn(begin, end) over [0, n) split into contiguous chunks of at least `grain` items.
  // Returns once every chunk has run.
  void parallelFor(size_t n, size_t grain, RangeFn fn);
  // The pthreadpool handle for XNNPACK (nullptr when single-threaded or unavailable).
  pthreadpool* handle() const { return pool_; }

  static int defaultThreadCount();

 private:
  int threads_ = 1;
  pthreadpool* pool_ = nullptr;
};

}  // namespace nn
