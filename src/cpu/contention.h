// Contention-adaptive parallelism for the CPU driver's pool.
//
// On a machine where another process keeps a core busy, a parallel operation's join waits for
// a worker that the kernel has descheduled (a scheduler slice, milliseconds, per operation;
// about a hundred parallel operations per inference). Two threads are then 2x slower than one.
// The pool therefore watches how long its threads waited on a run queue during each parallel
// execution (Linux schedstat, field 2); when that was a significant share of the execution's
// wall time, the next executions run on the calling thread only, and an execution now and then
// (a probe, at growing intervals while the machine stays busy) tries the workers again.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

namespace nn {

// The decision logic alone: no clock and no I/O, so tests drive it with made-up figures.
class ContentionPolicy {
 public:
  struct Config {
    // An execution is "contended" when our threads waited on a run queue for more than this
    // share of its wall time in total.
    double contendedShare = 0.10;
    // After a contended execution, the first probe comes this long later; each contended
    // probe doubles the interval up to maxProbeIntervalNs.
    int64_t minProbeIntervalNs = 20'000'000;
    int64_t maxProbeIntervalNs = 320'000'000;
  };
  ContentionPolicy() : ContentionPolicy(Config()) {}
  explicit ContentionPolicy(const Config& config) : config_(config) {}
  // Tests replace the thresholds (e.g. a probe interval longer than the test).
  void setConfig(const Config& config);

  // Whether the execution starting at `nowNs` should use the workers. While contended, true
  // only for one probe per interval.
  bool chooseParallel(int64_t nowNs);
  // What a parallel execution measured: its wall time and the run-queue wait of our threads.
  // Single-threaded executions are not reported (they say nothing about the other cores).
  void reportParallel(int64_t nowNs, int64_t wallNs, int64_t runDelayNs);

  // Whether `runDelayNs` of waiting in `wallNs` counts as contended.
  bool exceedsShare(int64_t wallNs, int64_t runDelayNs) const;

  bool contended() const;
  int64_t probeIntervalNs() const;

 private:
  Config config_;
  mutable std::mutex mutex_;
  bool contended_ = false;
  int64_t interval_ = 0;   // current probe interval while contended
  int64_t nextProbe_ = 0;  // no probe before this time
};

// Reads the run-queue wait (ns) of a fixed set of threads of this process, and of the calling
// thread, from /proc/self/task/<tid>/schedstat. The files are opened once and re-read with
// pread, so a sample costs a few microseconds and allocates nothing.
class RunDelayProbe {
 public:
  // Opens the files of `tids`; threads whose file cannot be read are left out.
  explicit RunDelayProbe(const std::vector<int>& tids);
  ~RunDelayProbe();
  RunDelayProbe(const RunDelayProbe&) = delete;
  RunDelayProbe& operator=(const RunDelayProbe&) = delete;

  // False when schedstat is unavailable (no such file, or not even the calling thread's).
  bool usable() const { return usable_; }
  // Sum of the run-queue waits of the threads and of the calling thread, in ns.
  int64_t totalRunDelayNs() const;

 private:
  std::vector<int> fds_;
  bool usable_ = false;
};

// Parses the second field of a schedstat line ("<on-cpu ns> <run-queue wait ns> <slices>");
// -1 if malformed.
int64_t parseRunDelay(const char* text, size_t length);

}  // namespace nn
