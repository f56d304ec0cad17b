// CPU-side pieces shared by the convolution family's kernels: operand helpers, per-execution
// scratch, NCHW<->NHWC copies, the per-type dispatch, float16 widening and the XNNPACK
// configuration of a geometry. What the operations *are* (signatures, geometry, quantization
// parameters) is in spec/ops/conv.h.
//
// Prepared state (OpState, built by init) is read-only during execution; everything a
// computation writes lives in the execution's scratch (a ConvScratch subclass per operation),
// so concurrent executions of one compilation share nothing mutable.
#pragma once

#include <cstdint>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/thread_pool.h"
#include "cpu/xnnpack_util.h"
#include "spec/ops/common.h"
#include "spec/ops/conv.h"

namespace nn {
namespace conv {

// A constant input whose value and shape are both known (so weights can be packed once).
bool constantInput(const OpContext& ctx, uint32_t i);

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

// ---- per-execution scratch ----------------------------------------------------------------

// A grow-only buffer: steady-state computations of an execution reuse it without allocating.
class ScratchBuffer {
 public:
  // At least `count` elements of T (16-byte aligned; contents unspecified).
  template <typename T>
  T* get(size_t count) {
    const size_t bytes = count * sizeof(T);
    if (data_.size() < bytes) data_.resize(bytes);
    return reinterpret_cast<T*>(data_.data());
  }

 private:
  std::vector<uint8_t> data_;
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

// ---- layout ------------------------------------------------------------------------------

// [N,C,H,W] <-> [N,H,W,C] for elements of `elemSize` bytes.
void nchwToNhwc(const void* in, void* out, uint32_t n, uint32_t c, uint32_t h, uint32_t w,
                uint32_t elemSize);
void nhwcToNchw(const void* in, void* out, uint32_t n, uint32_t h, uint32_t w, uint32_t c,
                uint32_t elemSize);

// Calls fn(const void* input, void* output) -> Status with NHWC buffers: the operands
// themselves for NHWC, transposed copies (in `scratch`) when the layout flag selects NCHW.
template <typename Fn>
Status withNhwcBuffers(OpContext& ctx, const Geometry& g, ConvScratch& scratch, const Fn& fn) {
  if (!g.p.nchw) return fn(ctx.inputData(0), ctx.outputData(0));
  const uint32_t es = elementSize(ctx.inputType(0));
  uint8_t* in = scratch.nhwcInput.get<uint8_t>(ctx.inputShape(0).bytes());
  uint8_t* out = scratch.nhwcOutput.get<uint8_t>(ctx.outputShape(0).bytes());
  nchwToNhwc(ctx.inputData(0), in, g.batches, g.inC, g.inH, g.inW, es);
  NN_RETURN_IF_ERROR(fn(static_cast<const void*>(in), static_cast<void*>(out)));
  nhwcToNchw(out, ctx.outputData(0), g.batches, g.outH, g.outW, g.outC, es);
  return kOk;
}

// Runs the kernel matching the input type on NHWC views of input 0 / output 0. Every
// convolution-family operation has one float32, one float16 and one 8-bit quantized kernel
// with this shape; `Geo` is the op's geometry, `State` its prepared state (read-only; void
// for the reference kernels), `Scratch` its per-execution scratch.
template <typename Geo, typename State, typename Scratch>
Status executeByType(OpContext& ctx, const Geometry& layout, const Geo& geo, const State* st,
                     Scratch& sc,
                     Status (*f32)(OpContext&, const Geo&, const State*, Scratch&, const float*,
                                   float*),
                     Status (*f16)(OpContext&, const Geo&, const State*, Scratch&, const Half*,
                                   Half*),
                     Status (*quant)(OpContext&, const Geo&, const State*, Scratch&,
                                     const void*, void*)) {
  return withNhwcBuffers(ctx, layout, sc, [&](const void* in, void* out) -> Status {
    switch (ctx.inputType(0)) {
      case OperandType::TENSOR_FLOAT32:
        return f32(ctx, geo, st, sc, static_cast<const float*>(in), static_cast<float*>(out));
      case OperandType::TENSOR_FLOAT16:
        return f16(ctx, geo, st, sc, static_cast<const Half*>(in), static_cast<Half*>(out));
      case OperandType::TENSOR_QUANT8_ASYMM:
      case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
        return quant(ctx, geo, st, sc, in, out);
      default:
        return ctx.fail("unsupported input type %s", toString(ctx.inputType(0)));
    }
  });
}

void halfToFloat(const Half* in, float* out, size_t n);
void floatToHalf(const float* in, Half* out, size_t n);

// Runs fn(input, output) on float32 copies of a float16 convolution's NHWC input and output
// (the copies live in `sc`); `count` elements in, `outCount` out.
template <typename Fn>
Status withWidenedBuffers(const Half* in, size_t inCount, Half* out, size_t outCount,
                          ConvScratch& sc, const Fn& fn) {
  float* input = sc.wideInput.get<float>(inCount);
  float* output = sc.wideOutput.get<float>(outCount);
  halfToFloat(in, input, inCount);
  NN_RETURN_IF_ERROR(fn(static_cast<const float*>(input), output));
  floatToHalf(output, out, outCount);
  return kOk;
}

// Input `i` (float16) widened into `buffer`.
const float* widenInput(const OpContext& ctx, uint32_t i, ScratchBuffer& buffer);

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

}  // namespace conv
}  // namespace nn
