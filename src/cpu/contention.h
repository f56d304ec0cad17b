// Contention-adaptive parallelism for the CPU driver's pool.
//
// On a machine where another process keeps a core busy, a parallel operation's join waits for
// a worker that the kernel has descheduled (a scheduler slice, milliseconds, per operation;
// about a hundred parallel operations per inference). Two threads are then up to 2x slower
// than one. Finer chunks do not help: the loops already hand out chunks dynamically, so only
// the chunk the descheduled worker holds is waited for, but that lasts until it runs again.
// The pool therefore uses its workers only while the cores are free: between operations it
// looks at how many other threads are runnable right now (RunnableProbe) and at how long its
// threads waited on a run queue since it took the workers (Linux schedstat, field 2), and runs
// the rest on the calling thread when either says the cores are taken; from the caller it
// takes the workers back as soon as a core is free, or, where the runnable count cannot tell,
// for a timed probe now and then (at growing intervals while the machine stays busy).
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
    // Between operations an execution re-reads its probes at most this often (a few
    // microseconds each time) and judges its run-queue wait on at least minWindowNs.
    int64_t checkIntervalNs = 1'000'000;
    int64_t minWindowNs = 2'000'000;
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
  // A parallel execution saw another thread runnable while it needed every core: counts as a
  // contended report.
  void reportBusy(int64_t nowNs);

  // Whether `runDelayNs` of waiting in `wallNs` counts as contended.
  bool exceedsShare(int64_t wallNs, int64_t runDelayNs) const;

  bool contended() const;
  int64_t probeIntervalNs() const;
  Config config() const;

 private:
  void markContended(int64_t nowNs);  // mutex_ held
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

// Counts, right now, the runnable threads that are not ours: the system's runnable count (the
// fourth field of /proc/loadavg, "<runnable>/<threads>") less the calling thread and the pool's
// workers that are runnable (state R in /proc/self/task/<tid>/stat; pthreadpool's workers spin
// for some milliseconds after each job, so an idle worker may count as running). A snapshot,
// not an average: it says whether a core is free at this instant, which the run-queue wait
// (cumulative, and only known once a waiting thread has run again) cannot say while the
// workers are not used. The files are opened once; a sample costs about a microsecond.
class RunnableProbe {
 public:
  explicit RunnableProbe(const std::vector<int>& workerTids);
  ~RunnableProbe();
  RunnableProbe(const RunnableProbe&) = delete;
  RunnableProbe& operator=(const RunnableProbe&) = delete;

  bool usable() const { return loadavgFd_ >= 0; }
  // Runnable threads other than the caller and the workers; -1 when unreadable.
  int othersRunnable() const;

 private:
  int loadavgFd_ = -1;
  std::vector<int> statFds_;
};

// The runnable count of a /proc/loadavg line ("0.50 0.40 0.30 3/250 1234"); -1 if malformed.
int parseLoadavgRunnable(const char* text, size_t length);
// The state letter of a /proc/<pid>/task/<tid>/stat line (the field after the parenthesised
// command name, which may itself contain spaces and parentheses); 0 if malformed.
char parseStatState(const char* text, size_t length);

// Parses the second field of a schedstat line ("<on-cpu ns> <run-queue wait ns> <slices>");
// -1 if malformed.
int64_t parseRunDelay(const char* text, size_t length);

}  // namespace nn
