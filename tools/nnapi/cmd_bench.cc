// `nnapi bench MODEL`: latency over --runs after --warmup runs, printed in the format of TFLite's
// benchmark_model (so scripts such as compare.sh read both), plus min/median/p90.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "cli_common.h"
#include "commands.h"
#include "session.h"

using namespace nnapi_tflite;

namespace nnapi_cli {
namespace {

struct Stats {
  double min = 0, max = 0, avg = 0, std = 0, median = 0, p90 = 0;
};
Stats Summarize(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  double sum = 0;
  for (double x : v) sum += x;
  s.avg = sum / static_cast<double>(v.size());
  double var = 0;
  for (double x : v) var += (x - s.avg) * (x - s.avg);
  s.std = std::sqrt(var / static_cast<double>(v.size()));
  auto pct = [&](double p) {
    double idx = p * static_cast<double>(v.size() - 1);
    size_t lo = static_cast<size_t>(idx);
    size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (idx - static_cast<double>(lo));
  };
  s.median = pct(0.5);
  s.p90 = pct(0.9);
  return s;
}

// bench: "warmup [#####     ] 3/5 0:01" on stderr when it is a terminal (cli_common.h).
class Progress {
 public:
  Progress(const char* label, int total, bool enabled) : label_(label), total_(total), line_(enabled) {}
  void Update(int done) {
    if (!line_.active()) return;
    const int width = 30;
    int filled = total_ ? done * width / total_ : width;
    char text[128];
    std::snprintf(text, sizeof text, "%s [%.*s%*s] %d/%d %s", label_, filled, "##############################",
                  width - filled, "", done, total_, FormatElapsed(line_.Elapsed()).c_str());
    line_.Show(text, done == total_);
  }
  void Done() { line_.Clear(); }

 private:
  const char* label_;
  int total_;
  TerminalProgress line_;
};

}  // namespace

int CmdBench(const Args& a) {
  auto t_init = std::chrono::steady_clock::now();
  Loaded l;
  if (!LoadModel(a.model, &l, a.relaxed)) return 1;
  Compiled c;
  double compile_ms = 0;
  if (!Compile(l, a.devices, a.threads, &c, &compile_ms, a.cache_dir, a.model)) return 1;
  double init_ms = Ms(std::chrono::steady_clock::now() - t_init);
  IoBuffers io;
  if (!PrepareInputs(a, l, &io)) return 1;
  Execution ex;
  bool reusable = false;
  if (!SetupExecution(c, &io, true, &ex, &reusable)) return 1;

  std::printf("STARTING!\n");
  std::printf("Graph: [%s]\n", a.model.c_str());
  std::printf("Device: [%s]\n", a.devices.empty() ? "runtime default" : a.devices[0].c_str());
  std::printf("Num threads: [%s]\n", a.threads > 0 ? std::to_string(a.threads).c_str() : "driver default");
  if (a.relaxed) std::printf("Relaxed: [float32 computed in float16 allowed]\n");
  std::printf("Min num runs: [%d]\nNum warmup runs: [%d]\n", a.runs, a.warmup);
  std::printf("Loaded model %s\n", a.model.c_str());
  std::printf("The input model file size (MB): %.4f\n", l.file.file_size() / 1e6);
  std::printf("Initialized session in %.3fms (import %.3fms, compile %.3fms).\n", init_ms, l.import_ms, compile_ms);

  bool first = true;
  auto run_once = [&](double* ms) -> bool {
    // Without reusable executions each run needs a fresh one; creating it is not timed.
    if (!first && !reusable) {
      Execution fresh;
      if (!SetupExecution(c, &io, false, &fresh)) return false;
      std::swap(ex.e, fresh.e);
    }
    first = false;
    auto t0 = std::chrono::steady_clock::now();
    int r = ANeuralNetworksExecution_compute(ex.e);
    *ms = Ms(std::chrono::steady_clock::now() - t0);
    if (r != ANEURALNETWORKS_NO_ERROR) {
      std::fprintf(stderr, "nnapi: ANeuralNetworksExecution_compute failed: %s\n", ANNLinux_resultCodeName(r));
      return false;
    }
    return true;
  };

  std::vector<double> warm;
  Progress pw("warmup", a.warmup, !a.no_progress);
  for (int i = 0; i < a.warmup; ++i) {
    double ms;
    if (!run_once(&ms)) return 1;
    warm.push_back(ms);
    pw.Update(i + 1);
  }
  pw.Done();
  std::vector<double> times;
  Progress pr("benchmark", a.runs, !a.no_progress);
  for (int i = 0; i < a.runs; ++i) {
    double ms;
    if (!run_once(&ms)) return 1;
    times.push_back(ms);
    pr.Update(i + 1);
  }
  pr.Done();
  auto us = [](double ms) { return static_cast<long long>(std::llround(ms * 1000.0)); };
  if (!warm.empty()) {
    Stats w = Summarize(warm);
    std::printf("count=%zu first=%lld curr=%lld min=%lld max=%lld avg=%.0f std=%lld\n", warm.size(), us(warm.front()),
                us(warm.back()), us(w.min), us(w.max), w.avg * 1000.0, us(w.std));
  }
  Stats s = Summarize(times);
  std::printf("count=%zu first=%lld curr=%lld min=%lld max=%lld avg=%.0f std=%lld\n", times.size(), us(times.front()),
              us(times.back()), us(s.min), us(s.max), s.avg * 1000.0, us(s.std));
  std::printf("Latency (ms): min=%.3f median=%.3f p90=%.3f max=%.3f avg=%.3f\n", s.min, s.median, s.p90, s.max, s.avg);
  std::printf("Inference timings in us: Init: %lld, First inference: %lld, Warmup (avg): %.0f, Inference (avg): %.0f\n",
              us(init_ms), us(warm.empty() ? times.front() : warm.front()),
              warm.empty() ? 0.0 : Summarize(warm).avg * 1000.0, s.avg * 1000.0);
  return 0;
}

}  // namespace nnapi_cli
