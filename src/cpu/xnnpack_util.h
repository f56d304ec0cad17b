// XNNPACK process-wide initialization and small RAII helpers for its operators.
// Everything degrades to "not available" when the build has no XNNPACK
// (NNAPI_HAVE_XNNPACK=0) or the CPU is unsupported, so callers keep a portable path.
//
// An XNNPACK operator binds its input/output pointers and thread pool at setup, so one
// operator can serve only one computation at a time: kernels keep these wrappers in their
// per-execution scratch (OpScratch), never in the shared prepared state, and the wrappers have
// no locking. (This XNNPACK has no weights cache: creating an operator packs its weights, so
// each execution state packs once, on its first computation.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cpu/thread_pool.h"

#if NNAPI_HAVE_XNNPACK
#include <xnnpack.h>
#endif

namespace nn {

// Initializes XNNPACK on first use (thread-safe). False when it cannot be used; the
// portable kernels must then be taken.
bool xnnpackAvailable();

// Set NNAPI_DISABLE_XNNPACK=1 in the environment to force the portable float kernels
// (used to compare both paths).
bool xnnpackDisabledByEnv();

#if NNAPI_HAVE_XNNPACK
struct XnnOperatorDeleter {
  void operator()(xnn_operator* op) const {
    if (op != nullptr) xnn_delete_operator(op);
  }
};
using XnnOperatorPtr = std::unique_ptr<xnn_operator, XnnOperatorDeleter>;

// Multiply-accumulates below which an operator runs on the calling thread: waking and joining
// the workers costs more than the work (and, on an oversubscribed machine, the join waits for
// a descheduled worker).
constexpr double kMinParallelMacs = 400000.0;

inline pthreadpool_t xnnThreadPool(ThreadPool* pool, double macs) {
  return pool != nullptr && macs >= kMinParallelMacs ? pool->handle() : nullptr;
}

const char* xnnStatusName(xnn_status status);
#endif

// ---- warming an execution state at compilation (issue 10: first-inference latency) ------
// While an XnnPrepareOnly scope is alive on a thread, the run() methods below only set their
// operator up (indirection buffers, when both data pointers are known) and return true without
// computing: the CPU driver's compilation uses it to create and set up the operators of the
// execution state it pools for the first execution. Thread-local, so executions on other
// threads are unaffected.
class XnnPrepareOnly {
 public:
  XnnPrepareOnly();
  ~XnnPrepareOnly();
  XnnPrepareOnly(const XnnPrepareOnly&) = delete;
  XnnPrepareOnly& operator=(const XnnPrepareOnly&) = delete;
  static bool active();

 private:
  bool previous_;
};

// XNNPACK operators created (weights packed) by this process so far, for tests checking that
// the first execution of a compilation uses the operators its compilation created.
uint64_t xnnOperatorsCreated();

// A float32 NHWC convolution (regular or depthwise) with weights packed once at creation.
struct XnnConvConfig {
  uint32_t padTop = 0, padRight = 0, padBottom = 0, padLeft = 0;
  uint32_t kernelH = 1, kernelW = 1, strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  uint32_t groups = 1;
  size_t groupInputChannels = 1, groupOutputChannels = 1;
  float outputMin = 0, outputMax = 0;
  bool depthwise = false;
};

// Every field equal: an operator created for `a` can serve `b`.
bool sameConfig(const XnnConvConfig& a, const XnnConvConfig& b);

// XNNPACK is usable and the parameters pass the checks its create function makes, so the
// fast path can be chosen at compilation without creating (and packing) an operator there.
// Creation can still fail (out of memory); run-time callers then fall back.
bool xnnConvolutionSupported(const XnnConvConfig& c);

// Not thread-safe: owned by one execution (see above).

class XnnConvolution {
 public:
  XnnConvolution() = default;
  ~XnnConvolution();
  XnnConvolution(const XnnConvolution&) = delete;
  XnnConvolution& operator=(const XnnConvolution&) = delete;

  // kernel: [groupOut][kh][kw][groupIn] for regular, [kh][kw][groups*groupOut] for depthwise.
  bool create(const XnnConvConfig& config, const float* kernel, const float* bias,
              std::string* error);
  bool valid() const { return op_ != nullptr; }
  const XnnConvConfig& config() const { return config_; }
  bool run(size_t batches, size_t height, size_t width, const float* input, float* output,
           ThreadPool* pool, std::string* error);

 private:
  void* op_ = nullptr;
  XnnConvConfig config_;
  // Last setup; the indirection buffers stay valid while these are unchanged.
  size_t lastBatches_ = 0, lastHeight_ = 0, lastWidth_ = 0;
  const float* lastInput_ = nullptr;
  float* lastOutput_ = nullptr;
  void* lastPool_ = nullptr;
  std::vector<float> inputCopy_;  // an input whose end is too close to a page end (paddedInput)
};

// A float32 NHWC transposed convolution ("deconvolution") with weights packed once at
// creation. Kernel layout [groups * groupOut][kh][kw][groupIn]. The output has
// (in - 1) * stride + kernel + adjustment - padding rows/columns; adjustment < stride.
struct XnnDeconvConfig {
  uint32_t padTop = 0, padRight = 0, padBottom = 0, padLeft = 0;
  uint32_t kernelH = 1, kernelW = 1, strideH = 1, strideW = 1;
  uint32_t groups = 1;
  size_t groupInputChannels = 1, groupOutputChannels = 1;
  float outputMin = 0, outputMax = 0;
};

bool sameConfig(const XnnDeconvConfig& a, const XnnDeconvConfig& b);
bool xnnDeconvolutionSupported(const XnnDeconvConfig& c);

// Not thread-safe: owned by one execution (see above).
class XnnDeconvolution {
 public:
  XnnDeconvolution() = default;
  ~XnnDeconvolution();
  XnnDeconvolution(const XnnDeconvolution&) = delete;
  XnnDeconvolution& operator=(const XnnDeconvolution&) = delete;

  bool create(const XnnDeconvConfig& config, const float* kernel, const float* bias,
              std::string* error);
  bool valid() const { return op_ != nullptr; }
  const XnnDeconvConfig& config() const { return config_; }
  bool run(size_t batches, size_t height, size_t width, uint32_t adjustmentH,
           uint32_t adjustmentW, const float* input, float* output, ThreadPool* pool,
           std::string* error);

 private:
  void* op_ = nullptr;
  XnnDeconvConfig config_;
  size_t lastBatches_ = 0, lastHeight_ = 0, lastWidth_ = 0;
  uint32_t lastAdjH_ = 0, lastAdjW_ = 0;
  const float* lastInput_ = nullptr;
  float* lastOutput_ = nullptr;
  void* lastPool_ = nullptr;
  std::vector<float> inputCopy_;  // an input whose end is too close to a page end (paddedInput)
};

bool xnnFullyConnectedSupported(size_t inputChannels, size_t outputChannels, float outputMin,
                                float outputMax);

// Not thread-safe: owned by one execution (see above).
class XnnFullyConnected {
 public:
  XnnFullyConnected() = default;
  ~XnnFullyConnected();
  XnnFullyConnected(const XnnFullyConnected&) = delete;
  XnnFullyConnected& operator=(const XnnFullyConnected&) = delete;

  // kernel: [outputChannels][inputChannels]; bias may be null.
  bool create(size_t inputChannels, size_t outputChannels, const float* kernel, const float* bias,
              float outputMin, float outputMax, std::string* error);
  bool valid() const { return op_ != nullptr; }
  bool run(size_t batches, const float* input, float* output, ThreadPool* pool,
           std::string* error);

 private:
  void* op_ = nullptr;
  size_t inputChannels_ = 0, outputChannels_ = 0;
  size_t lastBatches_ = 0;
  const float* lastInput_ = nullptr;
  float* lastOutput_ = nullptr;
  void* lastPool_ = nullptr;
  std::vector<float> inputCopy_;  // an input whose end is too close to a page end (paddedInput)
};

}  // namespace nn
