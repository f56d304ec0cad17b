#include "cpu/contention.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace nn {

void ContentionPolicy::setConfig(const Config& config) {
  std::lock_guard<std::mutex> lock(mutex_);
  config_ = config;
}

bool ContentionPolicy::chooseParallel(int64_t nowNs) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!contended_) return true;
  if (nowNs < nextProbe_) return false;
  // One probe per interval, even when several executions start at once; if the probe never
  // reports (an error path), the next interval brings another.
  nextProbe_ = nowNs + interval_;
  return true;
}

bool ContentionPolicy::exceedsShare(int64_t wallNs, int64_t runDelayNs) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return wallNs > 0 &&
         static_cast<double>(runDelayNs) > config_.contendedShare * static_cast<double>(wallNs);
}

void ContentionPolicy::reportParallel(int64_t nowNs, int64_t wallNs, int64_t runDelayNs) {
  std::lock_guard<std::mutex> lock(mutex_);
  const bool busy = wallNs > 0 && static_cast<double>(runDelayNs) >
                                      config_.contendedShare * static_cast<double>(wallNs);
  if (!busy) {
    contended_ = false;
    interval_ = 0;
    return;
  }
  markContended(nowNs);
}

void ContentionPolicy::reportBusy(int64_t nowNs) {
  std::lock_guard<std::mutex> lock(mutex_);
  markContended(nowNs);
}

void ContentionPolicy::markContended(int64_t nowNs) {
  // A failed probe backs off: each costs about one slow execution.
  interval_ = contended_ ? std::min(interval_ * 2, config_.maxProbeIntervalNs)
                         : config_.minProbeIntervalNs;
  contended_ = true;
  nextProbe_ = nowNs + interval_;
}

bool ContentionPolicy::contended() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return contended_;
}

ContentionPolicy::Config ContentionPolicy::config() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return config_;
}

int64_t ContentionPolicy::probeIntervalNs() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return interval_;
}

int64_t parseRunDelay(const char* text, size_t length) {
  size_t i = 0;
  auto number = [&](int64_t* out) {
    while (i < length && text[i] == ' ') ++i;
    const size_t start = i;
    int64_t v = 0;
    while (i < length && text[i] >= '0' && text[i] <= '9' && v < (int64_t{1} << 58))
      v = v * 10 + (text[i++] - '0');
    *out = v;
    return i > start;
  };
  int64_t onCpu = 0, wait = 0;
  if (!number(&onCpu) || i >= length || text[i] != ' ' || !number(&wait)) return -1;
  return wait;
}

namespace {

int64_t readRunDelay(int fd) {
  char buf[96];
  const ssize_t n = pread(fd, buf, sizeof(buf), 0);
  return n > 0 ? parseRunDelay(buf, static_cast<size_t>(n)) : -1;
}

// The calling thread's schedstat, opened on its first sample and closed when it exits.
struct CallerSchedstat {
  int fd = -1;
  CallerSchedstat() { fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC); }
  ~CallerSchedstat() {
    if (fd >= 0) close(fd);
  }
};

int callerFd() {
  thread_local CallerSchedstat caller;
  return caller.fd;
}

}  // namespace

RunDelayProbe::RunDelayProbe(const std::vector<int>& tids) {
  for (int tid : tids) {
    char path[64];
    std::snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    if (readRunDelay(fd) < 0) {
      close(fd);
      continue;
    }
    fds_.push_back(fd);
  }
  const int caller = callerFd();
  usable_ = caller >= 0 && readRunDelay(caller) >= 0;
}

RunDelayProbe::~RunDelayProbe() {
  for (int fd : fds_) close(fd);
}

int64_t RunDelayProbe::totalRunDelayNs() const {
  int64_t total = 0;
  for (int fd : fds_) total += std::max<int64_t>(0, readRunDelay(fd));
  const int caller = callerFd();
  if (caller >= 0) total += std::max<int64_t>(0, readRunDelay(caller));
  return total;
}

}  // namespace nn

namespace nn {

int parseLoadavgRunnable(const char* text, size_t length) {
  // Skip the three averages, then read the digits before the '/'.
  size_t i = 0;
  for (int field = 0; field < 3; ++field) {
    while (i < length && text[i] == ' ') ++i;
    if (i == length) return -1;
    while (i < length && text[i] != ' ') ++i;
  }
  while (i < length && text[i] == ' ') ++i;
  const size_t start = i;
  int v = 0;
  while (i < length && text[i] >= '0' && text[i] <= '9' && v < (1 << 24))
    v = v * 10 + (text[i++] - '0');
  if (i == start || i >= length || text[i] != '/') return -1;
  return v;
}

char parseStatState(const char* text, size_t length) {
  // The command name may contain ") ": the state follows the last ')'.
  size_t close = length;
  for (size_t i = length; i > 0; --i) {
    if (text[i - 1] == ')') {
      close = i - 1;
      break;
    }
  }
  if (close + 2 >= length || text[close + 1] != ' ') return 0;
  const char state = text[close + 2];
  return state >= 'A' && state <= 'Z' ? state : 0;
}

RunnableProbe::RunnableProbe(const std::vector<int>& workerTids) {
  loadavgFd_ = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  if (loadavgFd_ < 0) return;
  char buf[128];
  const ssize_t n = pread(loadavgFd_, buf, sizeof(buf), 0);
  if (n <= 0 || parseLoadavgRunnable(buf, static_cast<size_t>(n)) < 0) {
    close(loadavgFd_);
    loadavgFd_ = -1;
    return;
  }
  for (int tid : workerTids) {
    char path[64];
    std::snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) statFds_.push_back(fd);
  }
}

RunnableProbe::~RunnableProbe() {
  if (loadavgFd_ >= 0) close(loadavgFd_);
  for (int fd : statFds_) close(fd);
}

int RunnableProbe::othersRunnable() const {
  if (loadavgFd_ < 0) return -1;
  char buf[512];
  ssize_t n = pread(loadavgFd_, buf, 128, 0);
  if (n <= 0) return -1;
  int others = parseLoadavgRunnable(buf, static_cast<size_t>(n));
  if (others < 0) return -1;
  others -= 1;  // the calling thread, running while it reads
  for (int fd : statFds_) {
    if (others <= 0) break;
    n = pread(fd, buf, sizeof(buf), 0);
    if (n > 0 && parseStatState(buf, static_cast<size_t>(n)) == 'R') --others;
  }
  return std::max(others, 0);
}

}  // namespace nn
