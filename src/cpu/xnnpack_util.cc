#include "cpu/xnnpack_util.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "cpu/prefaulted_buffer.h"

namespace nn {

bool xnnpackDisabledByEnv() {
  static const bool disabled = [] {
    const char* v = getenv("NNAPI_DISABLE_XNNPACK");
    return v != nullptr && v[0] != '\0' && strcmp(v, "0") != 0;
  }();
  return disabled;
}

#if NNAPI_HAVE_XNNPACK
namespace {

// Issue 10 (compile and first-inference time): creating an XNNPACK operator packs its weights
// into fresh memory (tens of MB for pose_landmark_heavy); large blocks are prefaulted in one
// batch (prefaulted_buffer.h). They are plain posix_memalign ones, freed with free(), so the
// allocator stays compatible with any other user of the same XNNPACK (which keeps the
// allocator of its first initialization).
void* alignedAllocate(void*, size_t alignment, size_t size) {
  return allocatePrefaulted(alignment, size);
}

const xnn_allocator kXnnAllocator = {
    nullptr,
    [](void*, size_t size) { return malloc(size); },
    [](void*, void* p, size_t size) { return realloc(p, size); },
    [](void*, void* p) { free(p); },
    alignedAllocate,
    [](void*, void* p) { free(p); },
};

}  // namespace
#endif

bool xnnpackAvailable() {
#if NNAPI_HAVE_XNNPACK
  // Initialized once and never deinitialized: operators of any live prepared model may
  // still reference XNNPACK's global state until process exit.
  static const bool ok = xnn_initialize(&kXnnAllocator) == xnn_status_success;
  return ok && !xnnpackDisabledByEnv();
#else
  return false;
#endif
}

#if NNAPI_HAVE_XNNPACK
const char* xnnStatusName(xnn_status status) {
  switch (status) {
    case xnn_status_success: return "success";
    case xnn_status_uninitialized: return "uninitialized";
    case xnn_status_invalid_parameter: return "invalid parameter";
    case xnn_status_invalid_state: return "invalid state";
    case xnn_status_unsupported_parameter: return "unsupported parameter";
    case xnn_status_unsupported_hardware: return "unsupported hardware";
    case xnn_status_out_of_memory: return "out of memory";
  }
  return "unknown status";
}
#endif

// ---------------------------------------------------------------------------------------

#if NNAPI_HAVE_XNNPACK
namespace {
xnn_operator_t asOp(void* p) { return static_cast<xnn_operator_t>(p); }

bool requireXnnpack(std::string* error) {
  if (xnnpackAvailable()) return true;
  *error = "XNNPACK unavailable";
  return false;
}

// True on success; otherwise "<call>: <status>" goes to *error.
bool xnnOk(xnn_status s, const char* call, std::string* error) {
  if (s == xnn_status_success) return true;
  *error = std::string(call) + ": " + xnnStatusName(s);
  return false;
}

void deleteOperator(void* op) {
  if (op) xnn_delete_operator(asOp(op));
}

std::atomic<uint64_t> operatorsCreated{0};

// XNNPACK's kernels may read up to XNN_EXTRA_BYTES past the end of an input (never using the
// values). Inside the page of the input's last byte that is harmless; past a page end the next
// page may be unmapped (a client's buffer, a mapped memory, an exactly sized heap block), so
// such an input is copied, with the slack, into `copy` (sized once, reused) before every run.
const float* paddedInput(const float* input, size_t bytes, std::vector<float>* copy) {
  if (input == nullptr || bytes == 0) return input;
  constexpr uintptr_t kPageShift = 12;  // 4 KiB, the smallest x86-64 page
  const uintptr_t last = reinterpret_cast<uintptr_t>(input) + bytes - 1;
  if ((last >> kPageShift) == ((last + XNN_EXTRA_BYTES) >> kPageShift)) return input;
  const size_t floats = (bytes + XNN_EXTRA_BYTES + sizeof(float) - 1) / sizeof(float);
  if (copy->size() < floats) copy->resize(floats);
  memcpy(copy->data(), input, bytes);
  return copy->data();
}

// Takes ownership of a newly created operator, releasing the previous one.
void replaceOperator(void** slot, xnn_operator_t op) {
  deleteOperator(*slot);
  *slot = op;
  operatorsCreated.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace
#endif

namespace {
thread_local bool prepareOnly = false;
}  // namespace

XnnPrepareOnly::XnnPrepareOnly() : previous_(prepareOnly) { prepareOnly = true; }
XnnPrepareOnly::~XnnPrepareOnly() { prepareOnly = previous_; }
bool XnnPrepareOnly::active() { return prepareOnly; }

uint64_t xnnOperatorsCreated() {
#if NNAPI_HAVE_XNNPACK
  return operatorsCreated.load(std::memory_order_relaxed);
#else
  return 0;
#endif
}

XnnConvolution::~XnnConvolution() {
#if NNAPI_HAVE_XNNPACK
  deleteOperator(op_);
#endif
}

bool XnnConvolution::create(const XnnConvConfig& c, const float* kernel, const float* bias,
                            std::string* error) {
#if NNAPI_HAVE_XNNPACK
  if (!requireXnnpack(error)) return false;
  const size_t inStride = c.groups * c.groupInputChannels;
  const size_t outStride = c.groups * c.groupOutputChannels;
  xnn_operator_t op = nullptr;
  const xnn_status s = xnn_create_convolution2d_nhwc_f32(
      c.padTop, c.padRight, c.padBottom, c.padLeft, c.kernelH, c.kernelW, c.strideH, c.strideW,
      c.dilationH, c.dilationW, c.groups, c.groupInputChannels, c.groupOutputChannels, inStride,
      outStride, kernel, bias, c.outputMin, c.outputMax,
      c.depthwise ? XNN_FLAG_DEPTHWISE_CONVOLUTION : 0, &op);
  if (!xnnOk(s, "xnn_create_convolution2d_nhwc_f32", error)) return false;
  replaceOperator(&op_, op);
  config_ = c;
  lastInput_ = nullptr;
  lastOutput_ = nullptr;
  return true;
#else
  *error = "built without XNNPACK";
  return false;
#endif
}

bool XnnConvolution::run(size_t batches, size_t height, size_t width, const float* input,
                         float* output, ThreadPool* pool, std::string* error) {
#if NNAPI_HAVE_XNNPACK
  const XnnConvConfig& c = config_;
  const double macs = static_cast<double>(batches) * height * width * c.kernelH * c.kernelW *
                      c.groups * c.groupInputChannels * c.groupOutputChannels /
                      (static_cast<double>(c.strideH) * c.strideW);
  pthreadpool_t tp = xnnThreadPool(pool, macs);
  // Preparing only: a model input or output has no buffer before the execution.
  if (XnnPrepareOnly::active() && (input == nullptr || output == nullptr)) return true;
  input = paddedInput(input, batches * height * width * c.groups * c.groupInputChannels * sizeof(float),
                      &inputCopy_);
  if (batches != lastBatches_ || height != lastHeight_ || width != lastWidth_ ||
      input != lastInput_ || output != lastOutput_ || tp != lastPool_) {
    const xnn_status s = xnn_setup_convolution2d_nhwc_f32(asOp(op_), batches, height, width,
                                                          input, output, tp);
    if (!xnnOk(s, "xnn_setup_convolution2d_nhwc_f32", error)) {
      lastInput_ = nullptr;
      return false;
    }
    lastBatches_ = batches;
    lastHeight_ = height;
    lastWidth_ = width;
    lastInput_ = input;
    lastOutput_ = output;
    lastPool_ = tp;
  }
  if (XnnPrepareOnly::active()) return true;
  return xnnOk(xnn_run_operator(asOp(op_), tp), "xnn_run_operator", error);
#else
  *error = "built without XNNPACK";
  return false;
#endif
}

XnnDeconvolution::~XnnDeconvolution() {
#if NNAPI_HAVE_XNNPACK
  deleteOperator(op_);
#endif
}

bool XnnDeconvolution::create(const XnnDeconvConfig& c, const float* kernel, const float* bias,
                              std::string* error) {
#if NNAPI_HAVE_XNNPACK
  if (!requireXnnpack(error)) return false;
  const size_t inStride = c.groups * c.groupInputChannels;
  const size_t outStride = c.groups * c.groupOutputChannels;
  xnn_operator_t op = nullptr;
  const xnn_status s = xnn_create_deconvolution2d_nhwc_f32(
      c.padTop, c.padRight, c.padBottom, c.padLeft, c.kernelH, c.kernelW, c.strideH, c.strideW,
      /*dilation_height=*/1, /*dilation_width=*/1, c.groups, c.groupInputChannels,
      c.groupOutputChannels, inStride, outStride, kernel, bias, c.outputMin, c.outputMax, 0, &op);
  if (!xnnOk(s, "xnn_create_deconvolution2d_nhwc_f32", error)) return false;
  replaceOperator(&op_, op);
  config_ = c;
  lastInput_ = nullptr;
  lastOutput_ = nullptr;
  return true;
#else
  (void)c;
  (void)kernel;
  (void)bias;
  *error = "built without XNNPACK";
  return false;
#endif
}

bool XnnDeconvolution::run(size_t batches, size_t height, size_t width, uint32_t adjustmentH,
                           uint32_t adjustmentW, const float* input, float* output,
                           ThreadPool* pool, std::string* error) {
#if NNAPI_HAVE_XNNPACK
  const XnnDeconvConfig& c = config_;
  const double macs = static_cast<double>(batches) * height * width * c.kernelH * c.kernelW *
                      c.groups * c.groupInputChannels * c.groupOutputChannels;
  pthreadpool_t tp = xnnThreadPool(pool, macs);
  // Preparing only: a model input or output has no buffer before the execution.
  if (XnnPrepareOnly::active() && (input == nullptr || output == nullptr)) return true;
  input = paddedInput(input, batches * height * width * c.groups * c.groupInputChannels * sizeof(float),
                      &inputCopy_);
  if (batches != lastBatches_ || height != lastHeight_ || width != lastWidth_ ||
      adjustmentH != lastAdjH_ || adjustmentW != lastAdjW_ || input != lastInput_ ||
      output != lastOutput_ || tp != lastPool_) {
    const xnn_status s = xnn_setup_deconvolution2d_nhwc_f32(
        asOp(op_), batches, height, width, adjustmentH, adjustmentW, input, output, tp);
    if (!xnnOk(s, "xnn_setup_deconvolution2d_nhwc_f32", error)) {
      lastInput_ = nullptr;
      return false;
    }
    lastBatches_ = batches;
    lastHeight_ = height;
    lastWidth_ = width;
    lastAdjH_ = adjustmentH;
    lastAdjW_ = adjustmentW;
    lastInput_ = input;
    lastOutput_ = output;
    lastPool_ = tp;
  }
  if (XnnPrepareOnly::active()) return true;
  return xnnOk(xnn_run_operator(asOp(op_), tp), "xnn_run_operator", error);
#else
  (void)batches;
  (void)height;
  (void)width;
  (void)adjustmentH;
  (void)adjustmentW;
  (void)input;
  (void)output;
  (void)pool;
  *error = "built without XNNPACK";
  return false;
#endif
}

XnnFullyConnected::~XnnFullyConnected() {
#if NNAPI_HAVE_XNNPACK
  deleteOperator(op_);
#endif
}

bool XnnFullyConnected::create(size_t inputChannels, size_t outputChannels, const float* kernel,
                               const float* bias, float outputMin, float outputMax,
                               std::string* error) {
#if NNAPI_HAVE_XNNPACK
  if (!requireXnnpack(error)) return false;
  xnn_operator_t op = nullptr;
  inputChannels_ = inputChannels;
  outputChannels_ = outputChannels;
  const xnn_status s = xnn_create_fully_connected_nc_f32(inputChannels, outputChannels,
                                                         inputChannels, outputChannels, kernel,
                                                         bias, outputMin, outputMax, 0, &op);
  if (!xnnOk(s, "xnn_create_fully_connected_nc_f32", error)) return false;
  replaceOperator(&op_, op);
  lastInput_ = nullptr;
  lastOutput_ = nullptr;
  return true;
#else
  *error = "built without XNNPACK";
  return false;
#endif
}

bool XnnFullyConnected::run(size_t batches, const float* input, float* output, ThreadPool* pool,
                            std::string* error) {
#if NNAPI_HAVE_XNNPACK
  // A few rows against a large weight matrix are bound by streaming the weights, not by the
  // MACs, so the MAC threshold would keep them on one thread: the threads share the weights
  // by output columns instead. hand_landmark_full's 1152->63 heads (290 KB of weights, 73 K
  // MACs), 2 threads, both ways interleaved in one process: 5-6.7 us against 8-8.5 on the
  // caller alone. XNNPACK computes each output column whole on one thread however the columns
  // are split, so the results do not depend on the thread count.
  constexpr double kMinParallelWeightBytes = 128.0 * 1024;
  const bool weightBound = batches <= 8 && outputChannels_ >= 32 &&
                           4.0 * inputChannels_ * outputChannels_ >= kMinParallelWeightBytes;
  pthreadpool_t tp = xnnThreadPool(
      pool, weightBound ? kMinParallelMacs
                        : static_cast<double>(batches) * inputChannels_ * outputChannels_);
  // Preparing only: a model input or output has no buffer before the execution.
  if (XnnPrepareOnly::active() && (input == nullptr || output == nullptr)) return true;
  input = paddedInput(input, batches * inputChannels_ * sizeof(float), &inputCopy_);
  if (batches != lastBatches_ || input != lastInput_ || output != lastOutput_ || tp != lastPool_) {
    const xnn_status s = xnn_setup_fully_connected_nc_f32(asOp(op_), batches, input, output, tp);
    if (!xnnOk(s, "xnn_setup_fully_connected_nc_f32", error)) {
      lastInput_ = nullptr;
      return false;
    }
    lastBatches_ = batches;
    lastInput_ = input;
    lastOutput_ = output;
    lastPool_ = tp;
  }
  if (XnnPrepareOnly::active()) return true;
  return xnnOk(xnn_run_operator(asOp(op_), tp), "xnn_run_operator", error);
#else
  *error = "built without XNNPACK";
  return false;
#endif
}

bool sameConfig(const XnnConvConfig& a, const XnnConvConfig& b) {
  return a.padTop == b.padTop && a.padRight == b.padRight && a.padBottom == b.padBottom &&
         a.padLeft == b.padLeft && a.kernelH == b.kernelH && a.kernelW == b.kernelW &&
         a.strideH == b.strideH && a.strideW == b.strideW && a.dilationH == b.dilationH &&
         a.dilationW == b.dilationW && a.groups == b.groups &&
         a.groupInputChannels == b.groupInputChannels &&
         a.groupOutputChannels == b.groupOutputChannels && a.outputMin == b.outputMin &&
         a.outputMax == b.outputMax && a.depthwise == b.depthwise;
}

bool sameConfig(const XnnDeconvConfig& a, const XnnDeconvConfig& b) {
  return a.padTop == b.padTop && a.padRight == b.padRight && a.padBottom == b.padBottom &&
         a.padLeft == b.padLeft && a.kernelH == b.kernelH && a.kernelW == b.kernelW &&
         a.strideH == b.strideH && a.strideW == b.strideW && a.groups == b.groups &&
         a.groupInputChannels == b.groupInputChannels &&
         a.groupOutputChannels == b.groupOutputChannels && a.outputMin == b.outputMin &&
         a.outputMax == b.outputMax;
}

// The parameter checks of xnn_create_*_f32 (NaN bounds, empty sizes, min >= max, a
// depthwise flag with more than one input channel per group): what makes XNNPACK reject a
// configuration other than running out of memory.
namespace {
bool validBounds(float lo, float hi) { return !std::isnan(lo) && !std::isnan(hi) && lo < hi; }
}  // namespace

bool xnnConvolutionSupported(const XnnConvConfig& c) {
  if (!xnnpackAvailable()) return false;
  return c.kernelH > 0 && c.kernelW > 0 && c.strideH > 0 && c.strideW > 0 && c.dilationH > 0 &&
         c.dilationW > 0 && c.groups > 0 && c.groupInputChannels > 0 &&
         c.groupOutputChannels > 0 && validBounds(c.outputMin, c.outputMax) &&
         (!c.depthwise || c.groupInputChannels == 1);
}

bool xnnDeconvolutionSupported(const XnnDeconvConfig& c) {
  if (!xnnpackAvailable()) return false;
  return c.kernelH > 0 && c.kernelW > 0 && c.strideH > 0 && c.strideW > 0 && c.groups > 0 &&
         c.groupInputChannels > 0 && c.groupOutputChannels > 0 &&
         validBounds(c.outputMin, c.outputMax);
}

bool xnnFullyConnectedSupported(size_t inputChannels, size_t outputChannels, float outputMin,
                                float outputMax) {
  if (!xnnpackAvailable()) return false;
  return inputChannels > 0 && outputChannels > 0 && validBounds(outputMin, outputMax);
}

}  // namespace nn
