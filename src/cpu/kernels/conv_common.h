// CPU-side pieces shared by the convolution family's kernels: operand helpers, the window
// walks of the direct loops, per-execution scratch and its parallel slots, NCHW<->NHWC copies,
// float16 widening, prepared-or-now values, and XNNPACK with its portable fallback. The drivers
// that put them together per operation are in conv_driver.h. What the operations *are*
// (signatures, geometry, quantization parameters) is in spec/ops/conv.h.
//
// Prepared state (OpState, built by init) is read-only during execution; everything a
// computation writes lives in the execution's scratch (a ConvScratch subclass per operation),
// so concurrent executions of one compilation share nothing mutable.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/thread_pool.h"
#include "cpu/xnnpack_util.h"
#include "hal/log.h"
#include "spec/ops/common.h"
#include "spec/ops/conv.h"

namespace nn {
namespace conv {

// A constant input whose value and shape are both known (so weights can be packed once).
bool constantInput(const OpContext& ctx, uint32_t i);

// For a convolution and an ADD reading its output (the residual pairs): the ADD input that is
// not the convolution's output (the shortcut), or -1 unless exactly one of the two inputs is.
int shortcutInput(const OpContext& conv, const OpContext& add);

// Points *q at `cached` when there is one, else computes into *local.
Status cachedQuantParams(const OpContext& ctx, int32_t activation, uint32_t outChannels,
                         const QuantParams* cached, QuantParams* local, const QuantParams** q);

// ---- indexing (NHWC) ------------------------------------------------------------------------

inline size_t nhwc(const Geometry& g, uint32_t b, uint32_t h, uint32_t w) {
  return ((static_cast<size_t>(b) * g.inH + h) * g.inW + w) * g.inC;
}
inline size_t outIndex(const Geometry& g, uint32_t b, uint32_t h, uint32_t w) {
  return ((static_cast<size_t>(b) * g.outH + h) * g.outW + w) * g.outC;
}
// Input row/column of filter tap k for output position o, or -1 when it falls in padding.
inline int32_t tapPos(uint32_t o, uint32_t k, int32_t stride, int32_t pad, int32_t dilation,
                      uint32_t size) {
  const int64_t pos = static_cast<int64_t>(o) * stride - pad + static_cast<int64_t>(k) * dilation;
  return pos >= 0 && pos < size ? static_cast<int32_t>(pos) : -1;
}

// Calls tap(ih, iw, kh, kw) for every filter tap of output pixel (oh, ow) that lands inside
// the input (padding taps are skipped), rows outer, in filter order: the walk every direct
// convolution loop makes, so summation orders stay those of the spec formula.
template <typename Fn>
inline void forEachTap(const Geometry& g, uint32_t oh, uint32_t ow, const Fn& tap) {
  for (uint32_t kh = 0; kh < g.filterH; ++kh) {
    const int32_t ih = tapPos(oh, kh, g.p.strideH, g.p.padTop, g.p.dilationH, g.inH);
    if (ih < 0) continue;
    for (uint32_t kw = 0; kw < g.filterW; ++kw) {
      const int32_t iw = tapPos(ow, kw, g.p.strideW, g.p.padLeft, g.p.dilationW, g.inW);
      if (iw < 0) continue;
      tap(static_cast<uint32_t>(ih), static_cast<uint32_t>(iw), kh, kw);
    }
  }
}

// Calls fn(b, oh, ow, oc) for every output element, in NHWC order (the reference kernels'
// one-element-at-a-time loop).
template <typename Fn>
inline void forEachOutput(const Geometry& g, const Fn& fn) {
  for (uint32_t b = 0; b < g.batches; ++b)
    for (uint32_t oh = 0; oh < g.outH; ++oh)
      for (uint32_t ow = 0; ow < g.outW; ++ow)
        for (uint32_t oc = 0; oc < g.outC; ++oc) fn(b, oh, ow, oc);
}

// ---- per-execution scratch ----------------------------------------------------------------

// A grow-only buffer: steady-state computations of an execution reuse it without allocating.
// Not zero-filled: a kernel sizes its scratch for the largest case (192 KB and more per GEMM)
// and may touch a few lines of it, and here a page is faulted in only when first written (a
// zero-filled vector faulted in every page at the first execution: a few ms for BlazeFace's
// twenty relaxed 1x1 layers, many times its steady-state inference).
class ScratchBuffer {
 public:
  // At least `count` elements of T (16-byte aligned; contents unspecified, also after growing).
  template <typename T>
  T* get(size_t count) {
    const size_t bytes = count * sizeof(T);
    if (size_ < bytes) {
      data_.reset(new uint8_t[bytes]);  // default-initialized: no write to the new memory
      size_ = bytes;
    }
    return reinterpret_cast<T*>(data_.get());
  }

 private:
  std::unique_ptr<uint8_t[]> data_;
  size_t size_ = 0;
};

// Per-slot regions of one buffer for the threads of a parallel kernel (see runSlots): slot s
// owns [s * stride, (s + 1) * stride). Sized before the parallel region, only read after.
class SlotBuffer {
 public:
  void reserve(size_t slots, size_t bytesPerSlot) {
    stride_ = (bytesPerSlot + 63) / 64 * 64;
    base_ = buffer_.get<uint8_t>(slots * stride_ + 64);
    base_ += (64 - reinterpret_cast<uintptr_t>(base_) % 64) % 64;
  }
  template <typename T>
  T* slot(size_t s) const {
    return reinterpret_cast<T*>(base_ + s * stride_);
  }

 private:
  ScratchBuffer buffer_;
  uint8_t* base_ = nullptr;
  size_t stride_ = 0;
};

// What the fast kernels (conv_fast.h) write besides their output.
struct KernelScratch {
  SlotBuffer slots;       // per-thread rows, accumulators
  ScratchBuffer columns;  // per-column terms of the GEMMs
};

// What every convolution-family kernel writes during a computation.
struct ConvScratch : public OpScratch {
  ScratchBuffer nhwcInput, nhwcOutput;  // NCHW operands transposed to NHWC
  ScratchBuffer wideInput, wideOutput, wideBias, wideFilter;  // float16 widened to float32
  KernelScratch kernel;
};

// This execution's scratch of type T, or `fallback` when the executor provides none.
template <typename T>
T& scratchOr(const OpContext& ctx, T& fallback) {
  T* s = ctx.scratchAs<T>();
  return s != nullptr ? *s : fallback;
}

// Splits [0, n) into `slots` contiguous ranges and runs fn(begin, end, slot) for each, in
// parallel on the pool. One thread runs a slot from start to end, so a slot's scratch region
// is never shared. Templated on the callable: nothing is allocated per call.
template <typename Fn>
void runSlots(ThreadPool* pool, size_t n, size_t slots, const Fn& fn) {
  if (n == 0) return;
  if (pool == nullptr || slots <= 1) {
    fn(size_t{0}, n, size_t{0});
    return;
  }
  pool->parallelFor(slots, 1, [&](size_t first, size_t last) {
    for (size_t s = first; s < last; ++s) fn(n * s / slots, n * (s + 1) / slots, s);
  });
}

// How many slots to split n items into: a few per thread (uneven work balances), fewer when
// each slot needs much scratch (`bytesPerSlot`), never more than n.
size_t slotCount(const ThreadPool* pool, size_t n, size_t bytesPerSlot);

// The parallel shape of the fast kernels: items [0, n) (output rows, GEMM tasks) split over
// slots, each slot with `perSlot` elements of T of its own in `ks` (accumulators, a panel);
// fn(begin, end, buffer) per slot.
template <typename T, typename Fn>
void runSlotted(ThreadPool* pool, KernelScratch& ks, size_t n, size_t perSlot, const Fn& fn) {
  const size_t bytes = sizeof(T) * perSlot;
  const size_t slots = slotCount(pool, n, bytes);
  ks.slots.reserve(slots, bytes);
  runSlots(pool, n, slots, [&](size_t begin, size_t end, size_t slot) {
    fn(begin, end, ks.slots.slot<T>(slot));
  });
}

// ---- layout ------------------------------------------------------------------------------

// [N,C,H,W] <-> [N,H,W,C] for elements of `elemSize` bytes.
void nchwToNhwc(const void* in, void* out, uint32_t n, uint32_t c, uint32_t h, uint32_t w,
                uint32_t elemSize);
void nhwcToNchw(const void* in, void* out, uint32_t n, uint32_t h, uint32_t w, uint32_t c,
                uint32_t elemSize);

// Calls fn(const void* input, void* output) -> Status with NHWC buffers: the operands
// themselves for NHWC (and when `layout` is null: FULLY_CONNECTED has no spatial layout),
// transposed copies (in `scratch`) when the layout flag selects NCHW.
template <typename Fn>
Status withNhwcBuffers(OpContext& ctx, const Geometry* layout, ConvScratch& scratch,
                       const Fn& fn) {
  if (layout == nullptr || !layout->p.nchw) return fn(ctx.inputData(0), ctx.outputData(0));
  const Geometry& g = *layout;
  const uint32_t es = elementSize(ctx.inputType(0));
  uint8_t* in = scratch.nhwcInput.get<uint8_t>(ctx.inputShape(0).bytes());
  uint8_t* out = scratch.nhwcOutput.get<uint8_t>(ctx.outputShape(0).bytes());
  nchwToNhwc(ctx.inputData(0), in, g.batches, g.inC, g.inH, g.inW, es);
  NN_RETURN_IF_ERROR(fn(static_cast<const void*>(in), static_cast<void*>(out)));
  nhwcToNchw(out, ctx.outputData(0), g.batches, g.outH, g.outW, g.outC, es);
  return kOk;
}

// True for TENSOR_QUANT8_ASYMM_SIGNED data (int8), false for TENSOR_QUANT8_ASYMM (uint8).
inline bool signedData(const OpContext& ctx) {
  return ctx.inputType(0) == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
}

void halfToFloat(const Half* in, float* out, size_t n);
void floatToHalf(const float* in, Half* out, size_t n);

// Input `i` (float16) widened into `buffer`.
const float* widenInput(const OpContext& ctx, uint32_t i, ScratchBuffer& buffer);

// The float16 form of every operation of the family on both devices: the float32 kernel
// fn(input, bias, output) on float32 copies in `sc` of the (NHWC) input `in` and of the bias
// (input 2), the result narrowed back into `out`.
template <typename Fn>
void widenedFloat16(OpContext& ctx, ConvScratch& sc, const Half* in, Half* out, const Fn& fn) {
  const size_t inCount = ctx.inputShape(0).count();
  const size_t outCount = ctx.outputShape(0).count();
  const float* bias = widenInput(ctx, 2, sc.wideBias);
  float* input = sc.wideInput.get<float>(inCount);
  float* output = sc.wideOutput.get<float>(outCount);
  halfToFloat(in, input, inCount);
  fn(static_cast<const float*>(input), bias, output);
  floatToHalf(output, out, outCount);
}

// What init prepared (`prepared`; null or empty when it could not, e.g. for a filter only
// known at execution), or else the same prepared now, for this computation only:
// prepare(&own), or pack(ctx, geo, &own). Read-only either way.
template <typename T>
class PreparedOrNow {
 public:
  template <typename Prepare>
  PreparedOrNow(const T* prepared, const Prepare& prepare) : value_(prepared) {
    if (value_ == nullptr) {
      prepare(&own_);
      value_ = &own_;
    }
  }
  template <typename Geo>
  PreparedOrNow(const std::optional<T>& prepared, void (*pack)(OpContext&, const Geo&, T*),
                OpContext& ctx, const Geo& geo)
      : PreparedOrNow(prepared ? &*prepared : nullptr, [&](T* out) { pack(ctx, geo, out); }) {}
  PreparedOrNow(const PreparedOrNow&) = delete;
  PreparedOrNow& operator=(const PreparedOrNow&) = delete;

  const T& operator*() const { return *value_; }
  const T* operator->() const { return value_; }

 private:
  T own_;
  const T* value_;
};

// ---- requantization ----------------------------------------------------------------------

// Fixed-point requantization identical to multiplyByQuantizedMultiplier, written without
// branches so loops over it vectorize. (With a positive Q31 multiplier the rounding
// high-multiply's "nudge then truncate" equals an arithmetic shift of ab + 2^30.)
inline int32_t requantize(int32_t x, int32_t multiplier, int32_t shift) {
  const int32_t left = shift > 0 ? shift : 0;
  const int32_t right = shift > 0 ? 0 : -shift;
  const int32_t xs = static_cast<int32_t>(static_cast<uint32_t>(x) << left);
  const int64_t ab = static_cast<int64_t>(xs) * multiplier;
  const int32_t high = static_cast<int32_t>((ab + (int64_t{1} << 30)) >> 31);
  const int32_t mask = static_cast<int32_t>((int64_t{1} << right) - 1);
  const int32_t remainder = high & mask;
  const int32_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
  return (high >> right) + (remainder > threshold ? 1 : 0);
}

// ---- XNNPACK -----------------------------------------------------------------------------

// XNNPACK convolution parameters for g (padding, kernel, strides, dilation, activation
// bounds) with the given channel grouping.
XnnConvConfig xnnConvConfig(const Geometry& g, uint32_t groups, size_t groupInputChannels,
                            size_t groupOutputChannels, bool depthwise);

// An operation's scratch when its float32 form may run on XNNPACK: the operator belongs to
// the execution (XNNPACK operators hold per-run setup), created on its first computation.
template <typename XnnOperator>
struct XnnScratch : public ConvScratch {
  XnnOperator xnn;
  bool xnnFailed = false;  // this execution falls back to the portable kernel
};

// The float32 form on the fast device: XNNPACK when init prepared it (`prepared`) and it has
// not failed in this execution, else the portable kernel. xnnpack(std::string* error) creates
// (if needed) and runs the operator in sc.xnn, false with *error set when it cannot; the first
// failure is logged and the rest of the execution goes straight to portable().
template <typename XnnOperator, typename Xnnpack, typename Portable>
void xnnpackOrPortable(bool prepared, XnnScratch<XnnOperator>& sc, const char* opName,
                       const Xnnpack& xnnpack, const Portable& portable) {
  if (prepared && !sc.xnnFailed) {
    std::string error;
    if (xnnpack(&error)) return;
    logInfo("%s: XNNPACK failed (%s); using the portable kernel", opName, error.c_str());
    sc.xnnFailed = true;
  }
  portable();
}

// Runs XNNPACK convolution `want` (filter input 1, bias input 2) in `xnn`, creating it first
// when this execution has none for that configuration (implicit padding can change with an
// input size known only at execution).
bool runXnnConvolution(OpContext& ctx, const Geometry& g, const XnnConvConfig& want,
                       XnnConvolution& xnn, const float* in, float* out, std::string* error);

}  // namespace conv
}  // namespace nn
