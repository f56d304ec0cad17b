#include "cpu/kernels/conv_common.h"

#include <algorithm>
#include <vector>

namespace nn {
namespace conv {

bool constantInput(const OpContext& ctx, uint32_t i) {
  return ctx.isConstantInput(i) && ctx.hasInputData(i) && ctx.inputSlot(i).shapeKnown;
}

int shortcutInput(const OpContext& conv, const OpContext& add) {
  const uint32_t convOut = conv.operation().outputs[0];
  const std::vector<uint32_t>& ins = add.operation().inputs;
  if (ins.size() < 2 || (ins[0] == convOut) == (ins[1] == convOut)) return -1;
  return ins[0] == convOut ? 1 : 0;
}

Status cachedQuantParams(const OpContext& ctx, int32_t activation, uint32_t outChannels,
                         const QuantParams* cached, QuantParams* local, const QuantParams** q) {
  if (cached != nullptr) {
    *q = cached;
    return kOk;
  }
  *q = local;
  return quantParamsFor(ctx, activation, outChannels, local);
}

XnnConvConfig xnnConvConfig(const Geometry& g, uint32_t groups, size_t groupInputChannels,
                            size_t groupOutputChannels, bool depthwise) {
  XnnConvConfig c;
  c.padTop = static_cast<uint32_t>(g.p.padTop);
  c.padRight = static_cast<uint32_t>(g.p.padRight);
  c.padBottom = static_cast<uint32_t>(g.p.padBottom);
  c.padLeft = static_cast<uint32_t>(g.p.padLeft);
  c.kernelH = g.filterH;
  c.kernelW = g.filterW;
  c.strideH = static_cast<uint32_t>(g.p.strideH);
  c.strideW = static_cast<uint32_t>(g.p.strideW);
  c.dilationH = static_cast<uint32_t>(g.p.dilationH);
  c.dilationW = static_cast<uint32_t>(g.p.dilationW);
  c.groups = groups;
  c.groupInputChannels = groupInputChannels;
  c.groupOutputChannels = groupOutputChannels;
  c.depthwise = depthwise;
  activationRangeFloat(g.p.activation, &c.outputMin, &c.outputMax);
  return c;
}

bool runXnnConvolution(OpContext& ctx, const Geometry& g, const XnnConvConfig& want,
                       XnnConvolution& xnn, const float* in, float* out, std::string* error) {
  bool ok = xnn.valid() && sameConfig(xnn.config(), want);
  if (!ok) ok = xnn.create(want, ctx.input<float>(1), ctx.input<float>(2), error);
  return ok && xnn.run(g.batches, g.inH, g.inW, in, out, ctx.threadPool(), error);
}

// =========================================================================================
// Layout

namespace {
template <typename T>
void transpose3(const T* in, T* out, uint32_t n, uint32_t a, uint32_t b) {
  // For each of n images: [a][b] -> [b][a].
  for (uint32_t i = 0; i < n; ++i) {
    const T* src = in + static_cast<size_t>(i) * a * b;
    T* dst = out + static_cast<size_t>(i) * a * b;
    for (uint32_t x = 0; x < a; ++x)
      for (uint32_t y = 0; y < b; ++y)
        dst[static_cast<size_t>(y) * a + x] = src[static_cast<size_t>(x) * b + y];
  }
}
void transposeBytes(const void* in, void* out, uint32_t n, uint32_t a, uint32_t b,
                    uint32_t elemSize) {
  switch (elemSize) {
    case 1:
      transpose3(static_cast<const uint8_t*>(in), static_cast<uint8_t*>(out), n, a, b);
      break;
    case 2:
      transpose3(static_cast<const uint16_t*>(in), static_cast<uint16_t*>(out), n, a, b);
      break;
    default:
      transpose3(static_cast<const uint32_t*>(in), static_cast<uint32_t*>(out), n, a, b);
      break;
  }
}
}  // namespace

void nchwToNhwc(const void* in, void* out, uint32_t n, uint32_t c, uint32_t h, uint32_t w,
                uint32_t elemSize) {
  transposeBytes(in, out, n, c, h * w, elemSize);
}
void nhwcToNchw(const void* in, void* out, uint32_t n, uint32_t h, uint32_t w, uint32_t c,
                uint32_t elemSize) {
  transposeBytes(in, out, n, h * w, c, elemSize);
}

void halfToFloat(const Half* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<float>(in[i]);
}
void floatToHalf(const float* in, Half* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<Half>(in[i]);
}

const float* widenInput(const OpContext& ctx, uint32_t i, ScratchBuffer& buffer) {
  const size_t n = ctx.inputShape(i).count();
  float* out = buffer.get<float>(n);
  halfToFloat(ctx.input<Half>(i), out, n);
  return out;
}

size_t slotCount(const ThreadPool* pool, size_t n, size_t bytesPerSlot) {
  // Bounds the scratch of one kernel call on machines with many threads and large rows.
  constexpr size_t kSlotBudgetBytes = size_t{16} << 20;
  const size_t threads = pool != nullptr ? static_cast<size_t>(pool->numThreads()) : 1;
  if (threads <= 1 || n <= 1) return 1;
  size_t slots = std::min(n, threads * 4);
  const size_t affordable = std::max(threads, kSlotBudgetBytes / std::max<size_t>(bytesPerSlot, 1));
  return std::max<size_t>(1, std::min(slots, affordable));
}

}  // namespace conv
}  // namespace nn
