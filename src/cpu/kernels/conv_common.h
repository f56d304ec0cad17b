// CPU-side pieces shared by the convolution family's kernels: operand helpers, NCHW<->NHWC
// copies, the per-type dispatch, float16 widening and the XNNPACK configuration of a
// geometry. What the operations *are* (signatures, geometry, quantization parameters) is in
// spec/ops/conv.h.
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

// ---- layout ------------------------------------------------------------------------------

// [N,C,H,W] <-> [N,H,W,C] for elements of `elemSize` bytes.
void nchwToNhwc(const void* in, void* out, uint32_t n, uint32_t c, uint32_t h, uint32_t w,
                uint32_t elemSize);
void nhwcToNchw(const void* in, void* out, uint32_t n, uint32_t h, uint32_t w, uint32_t c,
                uint32_t elemSize);

// Grow-only per-thread scratch for the layout copies: steady-state executions reuse it
// instead of allocating. Slot 0 holds the NHWC input, slot 1 the NHWC output.
uint8_t* layoutScratch(int slot, size_t bytes);

// Calls fn(const void* input, void* output) -> Status with NHWC buffers: the operands
// themselves for NHWC, transposed copies when the layout flag selects NCHW.
template <typename Fn>
Status withNhwcBuffers(OpContext& ctx, const Geometry& g, const Fn& fn) {
  if (!g.p.nchw) return fn(ctx.inputData(0), ctx.outputData(0));
  const uint32_t es = elementSize(ctx.inputType(0));
  uint8_t* in = layoutScratch(0, ctx.inputShape(0).bytes());
  uint8_t* out = layoutScratch(1, ctx.outputShape(0).bytes());
  nchwToNhwc(ctx.inputData(0), in, g.batches, g.inC, g.inH, g.inW, es);
  NN_RETURN_IF_ERROR(fn(static_cast<const void*>(in), static_cast<void*>(out)));
  nhwcToNchw(out, ctx.outputData(0), g.batches, g.outH, g.outW, g.outC, es);
  return kOk;
}

// Runs the kernel matching the input type on NHWC views of input 0 / output 0. Every
// convolution-family operation has one float32, one float16 and one 8-bit quantized kernel
// with this shape; `Geo` is the op's geometry, `State` its per-operation state.
template <typename Geo, typename State>
Status executeByType(OpContext& ctx, const Geometry& layout, const Geo& geo, State* st,
                     Status (*f32)(OpContext&, const Geo&, State*, const float*, float*),
                     Status (*f16)(OpContext&, const Geo&, State*, const Half*, Half*),
                     Status (*quant)(OpContext&, const Geo&, State*, const void*, void*)) {
  return withNhwcBuffers(ctx, layout, [&](const void* in, void* out) -> Status {
    switch (ctx.inputType(0)) {
      case OperandType::TENSOR_FLOAT32:
        return f32(ctx, geo, st, static_cast<const float*>(in), static_cast<float*>(out));
      case OperandType::TENSOR_FLOAT16:
        return f16(ctx, geo, st, static_cast<const Half*>(in), static_cast<Half*>(out));
      case OperandType::TENSOR_QUANT8_ASYMM:
      case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
        return quant(ctx, geo, st, in, out);
      default:
        return ctx.fail("unsupported input type %s", toString(ctx.inputType(0)));
    }
  });
}

// Runs fn(begin, end) over [0, n) on the pool (or inline without one). Templated on the
// callable and forwarded as a non-owning reference: nothing is allocated per call.
template <typename Fn>
void runParallel(ThreadPool* pool, size_t n, const Fn& fn) {
  if (n == 0) return;
  if (pool != nullptr && n > 1) {
    pool->parallelFor(n, 1, fn);
  } else {
    fn(0, n);
  }
}

void halfToFloat(const Half* in, float* out, size_t n);
void floatToHalf(const float* in, Half* out, size_t n);

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
