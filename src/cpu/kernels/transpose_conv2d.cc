// TRANSPOSE_CONV_2D kernels.
//
// Reference device: the scatter loop of the spec (every input pixel adds input * filter into
// a window of the output). Fast device: float32 with constant filter and bias goes to
// XNNPACK's deconvolution (weights packed at compilation); everything else uses a gather
// kernel parallel over output rows, with the filter repacked as [kh][kw][ic][oc] so the
// innermost loop runs over output channels. Integer accumulation makes the quantized results
// identical whatever the summation order.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_dispatch.h"
#include "cpu/xnnpack_util.h"
#include "hal/log.h"

namespace nn {
namespace {

using conv::Geometry;
using conv::QuantParams;
using conv::constantInput;
using conv::isQuant;

constexpr uint32_t kInput = 0, kFilter = 1, kBias = 2;

Status quantParamsFor(OpContext& ctx, const Geometry& g, QuantParams* q) {
  return conv::quantParamsFor(ctx, g.p.activation, g.outC, q);
}

// ---- reference kernels (NHWC): the scatter form of the spec -----------------------------

inline size_t outPixel(const Geometry& g, uint32_t b, int64_t h, int64_t w) {
  return ((static_cast<size_t>(b) * g.outH + static_cast<size_t>(h)) * g.outW +
          static_cast<size_t>(w)) *
         g.outC;
}

// Calls add(outputIndex, oc, filterIndex) for every (output element, filter tap) pair that
// input pixel (b, ih, iw) contributes to; filterIndex is the start of the ic run.
template <typename Fn>
void forEachTarget(const Geometry& g, uint32_t b, uint32_t ih, uint32_t iw, const Fn& add) {
  const int64_t oh0 = static_cast<int64_t>(ih) * g.p.strideH - g.p.padTop;
  const int64_t ow0 = static_cast<int64_t>(iw) * g.p.strideW - g.p.padLeft;
  for (uint32_t oc = 0; oc < g.outC; ++oc)
    for (uint32_t kh = 0; kh < g.filterH; ++kh) {
      const int64_t oh = oh0 + kh;
      if (oh < 0 || oh >= g.outH) continue;
      for (uint32_t kw = 0; kw < g.filterW; ++kw) {
        const int64_t ow = ow0 + kw;
        if (ow < 0 || ow >= g.outW) continue;
        add(outPixel(g, b, oh, ow) + oc, oc,
            ((static_cast<size_t>(oc) * g.filterH + kh) * g.filterW + kw) * g.inC);
      }
    }
}

void refTransposeFloat(const Geometry& g, const float* input, const float* filter,
                       const float* bias, float* output) {
  const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
  std::fill(output, output + outCount, 0.f);
  for (uint32_t b = 0; b < g.batches; ++b)
    for (uint32_t ih = 0; ih < g.inH; ++ih)
      for (uint32_t iw = 0; iw < g.inW; ++iw) {
        const float* in = input + ((static_cast<size_t>(b) * g.inH + ih) * g.inW + iw) * g.inC;
        forEachTarget(g, b, ih, iw, [&](size_t o, uint32_t, size_t f) {
          for (uint32_t ic = 0; ic < g.inC; ++ic) output[o] += in[ic] * filter[f + ic];
        });
      }
  float lo, hi;
  activationRangeFloat(g.p.activation, &lo, &hi);
  for (size_t i = 0; i < outCount; ++i)
    output[i] = std::min(hi, std::max(lo, output[i] + bias[i % g.outC]));
}

template <typename T, typename TFilter>
void refTransposeQuant(const Geometry& g, const QuantParams& q, const T* input,
                       const TFilter* filter, const int32_t* bias, T* output) {
  const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
  std::vector<int32_t> acc(outCount, 0);
  for (uint32_t b = 0; b < g.batches; ++b)
    for (uint32_t ih = 0; ih < g.inH; ++ih)
      for (uint32_t iw = 0; iw < g.inW; ++iw) {
        const T* in = input + ((static_cast<size_t>(b) * g.inH + ih) * g.inW + iw) * g.inC;
        forEachTarget(g, b, ih, iw, [&](size_t o, uint32_t, size_t f) {
          for (uint32_t ic = 0; ic < g.inC; ++ic)
            acc[o] += (static_cast<int32_t>(in[ic]) - q.inputZeroPoint) *
                      (static_cast<int32_t>(filter[f + ic]) - q.filterZeroPoint);
        });
      }
  for (size_t i = 0; i < outCount; ++i) {
    const uint32_t oc = static_cast<uint32_t>(i % g.outC);
    int32_t v = multiplyByQuantizedMultiplier(acc[i] + bias[oc], q.multiplier[oc], q.shift[oc]);
    v += q.outputZeroPoint;
    output[i] = static_cast<T>(std::max(q.actMin, std::min(q.actMax, v)));
  }
}

// ---- fast kernels (NHWC): gather over output rows --------------------------------------

// Filter [oc][kh][kw][ic] -> [kh][kw][ic][oc], minus the zero point for quantized filters.
template <typename TOut, typename TIn>
void repackFilter(const Geometry& g, const TIn* filter, int32_t zeroPoint, std::vector<TOut>* out) {
  const size_t taps = static_cast<size_t>(g.filterH) * g.filterW;
  out->resize(taps * g.inC * g.outC);
  for (uint32_t oc = 0; oc < g.outC; ++oc)
    for (size_t t = 0; t < taps; ++t)
      for (uint32_t ic = 0; ic < g.inC; ++ic)
        (*out)[(t * g.inC + ic) * g.outC + oc] =
            static_cast<TOut>(static_cast<TOut>(filter[(oc * taps + t) * g.inC + ic]) -
                              static_cast<TOut>(zeroPoint));
}

// Calls tap(ih, iw, kh, kw) for every input pixel feeding output pixel (oh, ow).
template <typename Fn>
inline void forEachSource(const Geometry& g, uint32_t oh, uint32_t ow, const Fn& tap) {
  for (uint32_t kh = 0; kh < g.filterH; ++kh) {
    const int64_t th = static_cast<int64_t>(oh) + g.p.padTop - kh;
    if (th < 0 || th % g.p.strideH != 0) continue;
    const int64_t ih = th / g.p.strideH;
    if (ih >= g.inH) continue;
    for (uint32_t kw = 0; kw < g.filterW; ++kw) {
      const int64_t tw = static_cast<int64_t>(ow) + g.p.padLeft - kw;
      if (tw < 0 || tw % g.p.strideW != 0) continue;
      const int64_t iw = tw / g.p.strideW;
      if (iw >= g.inW) continue;
      tap(static_cast<uint32_t>(ih), static_cast<uint32_t>(iw), kh, kw);
    }
  }
}

// The row loop comes from the run-time ISA table (conv_dispatch.h).
void fastTransposeFloat(const Geometry& g, const float* input, const float* filterT,
                        const float* bias, float* output, ThreadPool* pool,
                        conv::KernelScratch& ks) {
  ConvTransposeFloatArgs a{};
  a.batches = g.batches;
  a.inH = g.inH;
  a.inW = g.inW;
  a.inC = g.inC;
  a.outH = g.outH;
  a.outW = g.outW;
  a.outC = g.outC;
  a.filterH = g.filterH;
  a.filterW = g.filterW;
  a.strideH = g.p.strideH;
  a.strideW = g.p.strideW;
  a.padTop = g.p.padTop;
  a.padLeft = g.p.padLeft;
  activationRangeFloat(g.p.activation, &a.outputMin, &a.outputMax);
  a.input = input;
  a.filter = filterT;
  a.bias = bias;
  a.output = output;
  const auto rowsFn = conv::convIsaKernels().transposeFloatRows;
  const size_t rows = static_cast<size_t>(g.batches) * g.outH;
  const size_t slots = conv::slotCount(pool, rows, sizeof(float) * g.outC);
  ks.slots.reserve(slots, sizeof(float) * g.outC);
  conv::runSlots(pool, rows, slots, [&](size_t begin, size_t end, size_t slot) {
    rowsFn(a, begin, end, ks.slots.slot<float>(slot));
  });
}

template <typename T>
void fastTransposeQuant(const Geometry& g, const QuantParams& q, const T* input,
                        const int32_t* filterT, const int32_t* bias, T* output, ThreadPool* pool,
                        conv::KernelScratch& ks) {
  const uint32_t C = g.outC;
  const size_t rows = static_cast<size_t>(g.batches) * g.outH;
  const size_t slots = conv::slotCount(pool, rows, sizeof(int32_t) * C);
  ks.slots.reserve(slots, sizeof(int32_t) * C);
  conv::runSlots(pool, rows, slots, [&](size_t begin, size_t end, size_t slot) {
    int32_t* acc = ks.slots.slot<int32_t>(slot);
    for (size_t row = begin; row < end; ++row) {
      const uint32_t b = static_cast<uint32_t>(row / g.outH);
      const uint32_t oh = static_cast<uint32_t>(row % g.outH);
      for (uint32_t ow = 0; ow < g.outW; ++ow) {
        std::copy(bias, bias + C, acc);
        forEachSource(g, oh, ow, [&](uint32_t ih, uint32_t iw, uint32_t kh, uint32_t kw) {
          const T* in = input + ((static_cast<size_t>(b) * g.inH + ih) * g.inW + iw) * g.inC;
          const int32_t* f = filterT + (static_cast<size_t>(kh) * g.filterW + kw) * g.inC * C;
          for (uint32_t ic = 0; ic < g.inC; ++ic, f += C) {
            const int32_t x = static_cast<int32_t>(in[ic]) - q.inputZeroPoint;
            for (uint32_t oc = 0; oc < C; ++oc) acc[oc] += x * f[oc];
          }
        });
        T* o = output + outPixel(g, b, oh, ow);
        for (uint32_t oc = 0; oc < C; ++oc) {
          int32_t v = conv::requantize(acc[oc], q.multiplier[oc], q.shift[oc]) + q.outputZeroPoint;
          o[oc] = static_cast<T>(std::max(q.actMin, std::min(q.actMax, v)));
        }
      }
    }
  });
}

// ---- state -----------------------------------------------------------------------------

// Built by init, read-only while executing.
struct TransposeConvState : public OpState {
  QuantParams quant;
  bool quantReady = false;
  std::vector<int32_t> quantFilter;  // repacked constant quant8 filter
  std::vector<float> floatFilter;    // repacked constant float16/float32 filter
  bool haveFilter = false;
  // float32 with constant filter and bias, and XNNPACK takes the configuration: each execution
  // creates its operator (packing the weights) on its first computation.
  bool useXnnpack = false;
};

// One execution's XNNPACK operator, recreated if the geometry changes.
struct TransposeConvScratch : public conv::ConvScratch {
  XnnDeconvolution xnn;
  bool xnnFailed = false;  // this execution falls back to the portable kernel
};

// XNNPACK takes non-negative paddings plus an adjustment (< stride) that extends the output
// at the bottom/right: a negative tail padding maps onto it.
bool xnnConfig(const Geometry& g, XnnDeconvConfig* c, uint32_t* adjH, uint32_t* adjW) {
  const auto split = [](int32_t tail, int32_t stride, uint32_t* pad, uint32_t* adj) {
    if (tail >= 0) {
      *pad = static_cast<uint32_t>(tail);
      *adj = 0;
      return true;
    }
    if (-tail >= stride) return false;
    *pad = 0;
    *adj = static_cast<uint32_t>(-tail);
    return true;
  };
  if (!split(g.p.padBottom, g.p.strideH, &c->padBottom, adjH) ||
      !split(g.p.padRight, g.p.strideW, &c->padRight, adjW))
    return false;
  c->padTop = static_cast<uint32_t>(g.p.padTop);
  c->padLeft = static_cast<uint32_t>(g.p.padLeft);
  c->kernelH = g.filterH;
  c->kernelW = g.filterW;
  c->strideH = static_cast<uint32_t>(g.p.strideH);
  c->strideW = static_cast<uint32_t>(g.p.strideW);
  c->groups = 1;
  c->groupInputChannels = g.inC;
  c->groupOutputChannels = g.outC;
  activationRangeFloat(g.p.activation, &c->outputMin, &c->outputMax);
  return true;
}

void repackFloatFilter(OpContext& ctx, const Geometry& g, std::vector<float>* out) {
  if (ctx.inputType(kFilter) == OperandType::TENSOR_FLOAT16)
    repackFilter<float>(g, ctx.input<Half>(kFilter), 0, out);
  else
    repackFilter<float>(g, ctx.input<float>(kFilter), 0, out);
}

void repackQuantFilter(OpContext& ctx, const Geometry& g, std::vector<int32_t>* out) {
  const Shape& f = ctx.inputShape(kFilter);
  if (f.type == OperandType::TENSOR_QUANT8_ASYMM)
    repackFilter<int32_t>(g, ctx.input<uint8_t>(kFilter), f.zeroPoint, out);
  else if (f.type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED)
    repackFilter<int32_t>(g, ctx.input<int8_t>(kFilter), f.zeroPoint, out);
  else
    repackFilter<int32_t>(g, ctx.input<int8_t>(kFilter), 0, out);  // per-channel: symmetric
}

Status init(OpContext& ctx) {
  if (!ctx.inputSlot(kInput).shapeKnown || !ctx.inputSlot(kFilter).shapeKnown) return kOk;
  Geometry g;
  if (conv::resolveTransposeGeometry(ctx, &g) != kOk) return kOk;
  auto st = std::make_unique<TransposeConvState>();
  const OperandType type = ctx.inputType(kInput);
  const bool filterConst = constantInput(ctx, kFilter);
  const bool biasConst = constantInput(ctx, kBias);
  if (isQuant(type)) {
    st->quantReady = quantParamsFor(ctx, g, &st->quant) == kOk;
    if (filterConst) {
      repackQuantFilter(ctx, g, &st->quantFilter);
      st->haveFilter = true;
    }
  } else {
    if (type == OperandType::TENSOR_FLOAT32 && filterConst && biasConst) {
      XnnDeconvConfig c;
      uint32_t adjH = 0, adjW = 0;
      st->useXnnpack = xnnConfig(g, &c, &adjH, &adjW) && xnnDeconvolutionSupported(c);
    }
    if (filterConst && !st->useXnnpack) {
      repackFloatFilter(ctx, g, &st->floatFilter);
      st->haveFilter = true;
    }
  }
  ctx.setState(std::move(st));
  return kOk;
}

// ---- execution -------------------------------------------------------------------------

// False (after logging why) when this execution's operator cannot be created or run.
bool runXnnpack(OpContext& ctx, const Geometry& g, TransposeConvScratch& sc, const float* in,
                float* out) {
  XnnDeconvConfig want;
  uint32_t adjH = 0, adjW = 0;
  std::string error = "geometry not expressible";
  bool ok = xnnConfig(g, &want, &adjH, &adjW);
  if (ok && !(sc.xnn.valid() && sameConfig(sc.xnn.config(), want)))
    ok = sc.xnn.create(want, ctx.input<float>(kFilter), ctx.input<float>(kBias), &error);
  if (ok && sc.xnn.run(g.batches, g.inH, g.inW, adjH, adjW, in, out, ctx.threadPool(), &error))
    return true;
  logInfo("TRANSPOSE_CONV_2D: XNNPACK failed (%s); using the portable kernel", error.c_str());
  return false;
}

Status executeFloat32(OpContext& ctx, const Geometry& g, const TransposeConvState* st,
                      TransposeConvScratch& sc, const float* in, float* out) {
  if (st != nullptr && st->useXnnpack && !sc.xnnFailed) {
    if (runXnnpack(ctx, g, sc, in, out)) return kOk;
    sc.xnnFailed = true;
  }
  const float* bias = ctx.input<float>(kBias);
  if (st != nullptr && st->haveFilter && !st->floatFilter.empty()) {
    fastTransposeFloat(g, in, st->floatFilter.data(), bias, out, ctx.threadPool(), sc.kernel);
    return kOk;
  }
  std::vector<float> f;
  repackFloatFilter(ctx, g, &f);
  fastTransposeFloat(g, in, f.data(), bias, out, ctx.threadPool(), sc.kernel);
  return kOk;
}

Status executeFloat16(OpContext& ctx, const Geometry& g, const TransposeConvState* st,
                      TransposeConvScratch& sc, const Half* in, Half* out) {
  const size_t inCount = static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC;
  const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
  const float* bias = conv::widenInput(ctx, kBias, sc.wideBias);
  return conv::withWidenedBuffers(in, inCount, out, outCount, sc, [&](const float* input,
                                                                     float* output) {
    if (st != nullptr && st->haveFilter) {
      fastTransposeFloat(g, input, st->floatFilter.data(), bias, output, ctx.threadPool(),
                         sc.kernel);
    } else {
      std::vector<float> f;
      repackFloatFilter(ctx, g, &f);
      fastTransposeFloat(g, input, f.data(), bias, output, ctx.threadPool(), sc.kernel);
    }
    return kOk;
  });
}

template <typename T>
Status executeQuantTyped(OpContext& ctx, const Geometry& g, const TransposeConvState* st,
                         TransposeConvScratch& sc, const QuantParams& q, const T* in, T* out) {
  const int32_t* bias = ctx.input<int32_t>(kBias);
  if (st != nullptr && st->haveFilter) {
    fastTransposeQuant(g, q, in, st->quantFilter.data(), bias, out, ctx.threadPool(), sc.kernel);
    return kOk;
  }
  std::vector<int32_t> f;
  repackQuantFilter(ctx, g, &f);
  fastTransposeQuant(g, q, in, f.data(), bias, out, ctx.threadPool(), sc.kernel);
  return kOk;
}

Status executeQuant(OpContext& ctx, const Geometry& g, const TransposeConvState* st,
                    TransposeConvScratch& sc, const void* in, void* out) {
  QuantParams local;
  const QuantParams* q = nullptr;
  NN_RETURN_IF_ERROR(conv::cachedQuantParams(ctx, g.p.activation, g.outC,
                                             st != nullptr && st->quantReady ? &st->quant : nullptr,
                                             &local, &q));
  if (ctx.inputType(kInput) == OperandType::TENSOR_QUANT8_ASYMM_SIGNED)
    return executeQuantTyped(ctx, g, st, sc, *q, static_cast<const int8_t*>(in),
                             static_cast<int8_t*>(out));
  return executeQuantTyped(ctx, g, st, sc, *q, static_cast<const uint8_t*>(in),
                           static_cast<uint8_t*>(out));
}

Status execute(OpContext& ctx) {
  Geometry g;
  NN_RETURN_IF_ERROR(conv::resolveTransposeGeometry(ctx, &g));
  if (ctx.outputShape(0).count() == 0) return kOk;
  const auto* st = static_cast<const TransposeConvState*>(ctx.state());
  TransposeConvScratch fallback;
  return conv::executeByType(ctx, g, g, st, conv::scratchOr(ctx, fallback), executeFloat32,
                             executeFloat16, executeQuant);
}

// ---- reference device --------------------------------------------------------------------

Status referenceFloat32(OpContext& ctx, const Geometry& g, const void*, conv::ConvScratch&,
                        const float* in, float* out) {
  refTransposeFloat(g, in, ctx.input<float>(kFilter), ctx.input<float>(kBias), out);
  return kOk;
}

Status referenceFloat16(OpContext& ctx, const Geometry& g, const void*, conv::ConvScratch& sc,
                        const Half* in, Half* out) {
  const size_t inCount = static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC;
  const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
  const float* filter = conv::widenInput(ctx, kFilter, sc.wideFilter);
  const float* bias = conv::widenInput(ctx, kBias, sc.wideBias);
  return conv::withWidenedBuffers(in, inCount, out, outCount, sc, [&](const float* input,
                                                                     float* output) {
    refTransposeFloat(g, input, filter, bias, output);
    return kOk;
  });
}

template <typename T>
void referenceQuantTyped(OpContext& ctx, const Geometry& g, const QuantParams& q, const T* in,
                         T* out) {
  const int32_t* bias = ctx.input<int32_t>(kBias);
  if (ctx.inputType(kFilter) == OperandType::TENSOR_QUANT8_ASYMM)
    refTransposeQuant(g, q, in, ctx.input<uint8_t>(kFilter), bias, out);
  else
    refTransposeQuant(g, q, in, ctx.input<int8_t>(kFilter), bias, out);
}

Status referenceQuant(OpContext& ctx, const Geometry& g, const void*, conv::ConvScratch&,
                      const void* in, void* out) {
  QuantParams q;
  NN_RETURN_IF_ERROR(quantParamsFor(ctx, g, &q));
  if (ctx.inputType(kInput) == OperandType::TENSOR_QUANT8_ASYMM_SIGNED)
    referenceQuantTyped(ctx, g, q, static_cast<const int8_t*>(in), static_cast<int8_t*>(out));
  else
    referenceQuantTyped(ctx, g, q, static_cast<const uint8_t*>(in), static_cast<uint8_t*>(out));
  return kOk;
}

Status executeReference(OpContext& ctx) {
  Geometry g;
  NN_RETURN_IF_ERROR(conv::resolveTransposeGeometry(ctx, &g));
  if (ctx.outputShape(0).count() == 0) return kOk;
  const void* none = nullptr;
  conv::ConvScratch fallback;
  return conv::executeByType(ctx, g, g, none, conv::scratchOr(ctx, fallback), referenceFloat32,
                             referenceFloat16, referenceQuant);
}

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(TRANSPOSE_CONV_2D, execute, executeReference, init, nullptr);

}  // namespace nn
