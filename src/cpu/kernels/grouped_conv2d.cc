// GROUPED_CONV_2D kernels.
//
// Reference device: direct loops of the spec formula. Fast device: float32 with constant
// filter and bias goes to XNNPACK's grouped convolution (weights packed at compilation); the
// other cases run the CONV_2D GEMM kernels once per group on a copy of the group's input
// channels (a single group needs no copy).
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/xnnpack_util.h"
#include "hal/log.h"

namespace nn {
namespace {

using conv::Geometry;
using conv::GroupedGeometry;
using conv::QuantParams;
using conv::constantInput;
using conv::isQuant;

constexpr uint32_t kInput = 0, kFilter = 1, kBias = 2;

// The geometry of one group as a plain convolution.
Geometry groupGeometry(const GroupedGeometry& gg) {
  Geometry g = gg.g;
  g.inC = gg.groupIn;
  g.outC = gg.groupOut;
  return g;
}

Status quantParamsFor(OpContext& ctx, const Geometry& g, QuantParams* q) {
  return conv::quantParamsFor(ctx, g.p.activation, g.outC, q);
}

// ---- reference kernels (NHWC) ----------------------------------------------------------

// Calls acc(inputIndex, filterIndex, count) for every filter tap of output pixel (b, oh, ow)
// and output channel oc that lands inside the input; both runs are `count` long.
template <typename Fn>
void forEachTap(const GroupedGeometry& gg, uint32_t b, uint32_t oh, uint32_t ow, uint32_t oc,
                const Fn& acc) {
  const Geometry& g = gg.g;
  const uint32_t group = oc / gg.groupOut;
  for (uint32_t kh = 0; kh < g.filterH; ++kh) {
    const int64_t ih = static_cast<int64_t>(oh) * g.p.strideH - g.p.padTop + kh;
    if (ih < 0 || ih >= g.inH) continue;
    for (uint32_t kw = 0; kw < g.filterW; ++kw) {
      const int64_t iw = static_cast<int64_t>(ow) * g.p.strideW - g.p.padLeft + kw;
      if (iw < 0 || iw >= g.inW) continue;
      acc(((static_cast<size_t>(b) * g.inH + ih) * g.inW + iw) * g.inC +
              static_cast<size_t>(group) * gg.groupIn,
          ((static_cast<size_t>(oc) * g.filterH + kh) * g.filterW + kw) * gg.groupIn);
    }
  }
}

inline size_t outIndex(const Geometry& g, uint32_t b, uint32_t oh, uint32_t ow, uint32_t oc) {
  return ((static_cast<size_t>(b) * g.outH + oh) * g.outW + ow) * g.outC + oc;
}

void refGroupedFloat(const GroupedGeometry& gg, const float* input, const float* filter,
                     const float* bias, float* output) {
  const Geometry& g = gg.g;
  float lo, hi;
  activationRangeFloat(g.p.activation, &lo, &hi);
  for (uint32_t b = 0; b < g.batches; ++b)
    for (uint32_t oh = 0; oh < g.outH; ++oh)
      for (uint32_t ow = 0; ow < g.outW; ++ow)
        for (uint32_t oc = 0; oc < g.outC; ++oc) {
          float sum = 0.f;
          forEachTap(gg, b, oh, ow, oc, [&](size_t in, size_t f) {
            for (uint32_t k = 0; k < gg.groupIn; ++k) sum += input[in + k] * filter[f + k];
          });
          output[outIndex(g, b, oh, ow, oc)] = std::min(hi, std::max(lo, sum + bias[oc]));
        }
}

template <typename T, typename TFilter>
void refGroupedQuant(const GroupedGeometry& gg, const QuantParams& q, const T* input,
                     const TFilter* filter, const int32_t* bias, T* output) {
  const Geometry& g = gg.g;
  for (uint32_t b = 0; b < g.batches; ++b)
    for (uint32_t oh = 0; oh < g.outH; ++oh)
      for (uint32_t ow = 0; ow < g.outW; ++ow)
        for (uint32_t oc = 0; oc < g.outC; ++oc) {
          int32_t sum = 0;
          forEachTap(gg, b, oh, ow, oc, [&](size_t in, size_t f) {
            for (uint32_t k = 0; k < gg.groupIn; ++k)
              sum += (static_cast<int32_t>(input[in + k]) - q.inputZeroPoint) *
                     (static_cast<int32_t>(filter[f + k]) - q.filterZeroPoint);
          });
          int32_t v = multiplyByQuantizedMultiplier(sum + bias[oc], q.multiplier[oc], q.shift[oc]);
          v += q.outputZeroPoint;
          output[outIndex(g, b, oh, ow, oc)] =
              static_cast<T>(std::max(q.actMin, std::min(q.actMax, v)));
        }
}

// ---- fast path: per-group GEMM ---------------------------------------------------------

// The per-group channel slices of input and output (multi-group models only).
struct GroupedSlices {
  conv::ScratchBuffer groupInput, groupOutput;
};

// Copies `width` elements of each of `rows` pixels from src (stride srcStride) to dst
// (stride dstStride).
void copyChannels(const uint8_t* src, size_t srcStride, uint8_t* dst, size_t dstStride,
                  size_t width, size_t rows) {
  for (size_t r = 0; r < rows; ++r) memcpy(dst + r * dstStride, src + r * srcStride, width);
}

// Runs kernel(groupGeometry, group, groupInput, groupOutput) for each group, slicing the NHWC
// input/output channels through copies in `sc` when there is more than one group.
template <typename Kernel>
void perGroup(const GroupedGeometry& gg, uint32_t elemSize, const void* input, void* output,
              GroupedSlices& sc, const Kernel& kernel) {
  const Geometry& g = gg.g;
  const Geometry sub = groupGeometry(gg);
  if (gg.groups == 1) {
    kernel(sub, 0u, input, output);
    return;
  }
  const size_t inPixels = static_cast<size_t>(g.batches) * g.inH * g.inW;
  const size_t outPixels = static_cast<size_t>(g.batches) * g.outH * g.outW;
  uint8_t* in = sc.groupInput.get<uint8_t>(inPixels * gg.groupIn * elemSize);
  uint8_t* out = sc.groupOutput.get<uint8_t>(outPixels * gg.groupOut * elemSize);
  const uint8_t* src = static_cast<const uint8_t*>(input);
  uint8_t* dst = static_cast<uint8_t*>(output);
  for (uint32_t group = 0; group < gg.groups; ++group) {
    copyChannels(src + static_cast<size_t>(group) * gg.groupIn * elemSize, g.inC * elemSize, in,
                 gg.groupIn * elemSize, gg.groupIn * elemSize, inPixels);
    kernel(sub, group, static_cast<const void*>(in), static_cast<void*>(out));
    copyChannels(out, gg.groupOut * elemSize,
                 dst + static_cast<size_t>(group) * gg.groupOut * elemSize, g.outC * elemSize,
                 gg.groupOut * elemSize, outPixels);
  }
}

// ---- state -----------------------------------------------------------------------------

// Built by init, read-only while executing.
struct GroupedState : public OpState {
  std::vector<QuantParams> groupQuant;                  // per group
  bool quantReady = false;
  std::vector<conv::PackedQuantWeights> quantWeights;  // per group, constant quant8 filter
  std::vector<conv::PackedFloatWeights> floatWeights;  // per group, constant float filter
  // float32 with constant filter and bias, and XNNPACK takes the configuration: each execution
  // creates its operator (packing the weights) on its first computation.
  bool useXnnpack = false;
};

struct GroupedScratch : public conv::ConvScratch, public GroupedSlices {
  XnnConvolution xnn;
  bool xnnFailed = false;  // this execution falls back to the portable kernel
};

XnnConvConfig xnnConfig(const GroupedGeometry& gg) {
  return conv::xnnConvConfig(gg.g, gg.groups, gg.groupIn, gg.groupOut, /*depthwise=*/false);
}

// Splits whole-tensor quantization parameters into one set per group.
void splitQuant(const GroupedGeometry& gg, const QuantParams& q, std::vector<QuantParams>* out) {
  out->assign(gg.groups, q);
  for (uint32_t group = 0; group < gg.groups; ++group) {
    QuantParams& p = (*out)[group];
    const size_t first = static_cast<size_t>(group) * gg.groupOut;
    p.multiplier.assign(q.multiplier.begin() + first, q.multiplier.begin() + first + gg.groupOut);
    p.shift.assign(q.shift.begin() + first, q.shift.begin() + first + gg.groupOut);
  }
}

void packFloatGroups(OpContext& ctx, const GroupedGeometry& gg,
                     std::vector<conv::PackedFloatWeights>* out) {
  const size_t k = static_cast<size_t>(gg.g.filterH) * gg.g.filterW * gg.groupIn;
  const size_t count = static_cast<size_t>(gg.g.outC) * k;
  std::vector<float> converted;
  const float* f = nullptr;
  if (ctx.inputType(kFilter) == OperandType::TENSOR_FLOAT16) {
    converted.resize(count);
    conv::halfToFloat(ctx.input<Half>(kFilter), converted.data(), count);
    f = converted.data();
  } else {
    f = ctx.input<float>(kFilter);
  }
  out->resize(gg.groups);
  for (uint32_t group = 0; group < gg.groups; ++group)
    conv::packFloatWeights(f + static_cast<size_t>(group) * gg.groupOut * k, gg.groupOut,
                           static_cast<uint32_t>(k), &(*out)[group]);
}

void packQuantGroups(OpContext& ctx, const GroupedGeometry& gg,
                     std::vector<conv::PackedQuantWeights>* out) {
  const Shape& f = ctx.inputShape(kFilter);
  const bool unsignedFilter = f.type == OperandType::TENSOR_QUANT8_ASYMM;
  const int32_t zero = f.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL ? 0 : f.zeroPoint;
  const size_t k = static_cast<size_t>(gg.g.filterH) * gg.g.filterW * gg.groupIn;
  const uint8_t* data = static_cast<const uint8_t*>(ctx.inputData(kFilter));
  out->resize(gg.groups);
  for (uint32_t group = 0; group < gg.groups; ++group)
    conv::packQuantWeights(data + static_cast<size_t>(group) * gg.groupOut * k, unsignedFilter,
                           zero, gg.groupOut, static_cast<uint32_t>(k), &(*out)[group]);
}

Status init(OpContext& ctx) {
  if (!ctx.inputSlot(kInput).shapeKnown || !ctx.inputSlot(kFilter).shapeKnown) return kOk;
  GroupedGeometry gg;
  if (conv::resolveGroupedGeometry(ctx, &gg) != kOk) return kOk;
  auto st = std::make_unique<GroupedState>();
  const OperandType type = ctx.inputType(kInput);
  const bool filterConst = constantInput(ctx, kFilter);
  const bool biasConst = constantInput(ctx, kBias);
  if (isQuant(type)) {
    QuantParams q;
    if (quantParamsFor(ctx, gg.g, &q) == kOk) {
      splitQuant(gg, q, &st->groupQuant);
      st->quantReady = true;
    }
    if (filterConst) packQuantGroups(ctx, gg, &st->quantWeights);
  } else {
    if (type == OperandType::TENSOR_FLOAT32 && filterConst && biasConst)
      st->useXnnpack = xnnConvolutionSupported(xnnConfig(gg));
    if (filterConst && !st->useXnnpack) packFloatGroups(ctx, gg, &st->floatWeights);
  }
  ctx.setState(std::move(st));
  return kOk;
}

// ---- execution -------------------------------------------------------------------------

// float32 data through the per-group GEMM (float16 converts around it).
void fastFloat(OpContext& ctx, const GroupedGeometry& gg, const GroupedState* st,
               GroupedScratch& sc, const float* in, const float* bias, float* out) {
  std::vector<conv::PackedFloatWeights> local;
  const std::vector<conv::PackedFloatWeights>* w = &local;
  if (st != nullptr && st->floatWeights.size() == gg.groups) {
    w = &st->floatWeights;
  } else {
    packFloatGroups(ctx, gg, &local);
  }
  perGroup(gg, sizeof(float), in, out, sc,
           [&](const Geometry& sub, uint32_t group, const void* gin, void* gout) {
             conv::fastConvFloat(sub, static_cast<const float*>(gin), (*w)[group],
                                 bias + static_cast<size_t>(group) * gg.groupOut,
                                 static_cast<float*>(gout), ctx.threadPool(), sc.kernel);
           });
}

// False (after logging why) when this execution's operator cannot be created or run.
bool runXnnpack(OpContext& ctx, const GroupedGeometry& gg, GroupedScratch& sc, const float* in,
                float* out) {
  const XnnConvConfig want = xnnConfig(gg);
  std::string error;
  bool ok = sc.xnn.valid() && sameConfig(sc.xnn.config(), want);
  if (!ok) ok = sc.xnn.create(want, ctx.input<float>(kFilter), ctx.input<float>(kBias), &error);
  if (ok && sc.xnn.run(gg.g.batches, gg.g.inH, gg.g.inW, in, out, ctx.threadPool(), &error))
    return true;
  logInfo("GROUPED_CONV_2D: XNNPACK failed (%s); using the portable kernel", error.c_str());
  return false;
}

Status executeFloat32(OpContext& ctx, const GroupedGeometry& gg, const GroupedState* st,
                      GroupedScratch& sc, const float* in, float* out) {
  if (st != nullptr && st->useXnnpack && !sc.xnnFailed) {
    if (runXnnpack(ctx, gg, sc, in, out)) return kOk;
    sc.xnnFailed = true;
  }
  fastFloat(ctx, gg, st, sc, in, ctx.input<float>(kBias), out);
  return kOk;
}

Status executeFloat16(OpContext& ctx, const GroupedGeometry& gg, const GroupedState* st,
                      GroupedScratch& sc, const Half* in, Half* out) {
  const Geometry& g = gg.g;
  const size_t inCount = static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC;
  const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
  const float* bias = conv::widenInput(ctx, kBias, sc.wideBias);
  return conv::withWidenedBuffers(in, inCount, out, outCount, sc, [&](const float* input,
                                                                     float* output) {
    fastFloat(ctx, gg, st, sc, input, bias, output);
    return kOk;
  });
}

Status executeQuant(OpContext& ctx, const GroupedGeometry& gg, const GroupedState* st,
                    GroupedScratch& sc, const void* in, void* out) {
  const bool signedData = ctx.inputType(kInput) == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
  std::vector<QuantParams> localQuant;
  const std::vector<QuantParams>* quant = &localQuant;
  if (st != nullptr && st->quantReady) {
    quant = &st->groupQuant;
  } else {
    QuantParams q;
    NN_RETURN_IF_ERROR(quantParamsFor(ctx, gg.g, &q));
    splitQuant(gg, q, &localQuant);
  }
  std::vector<conv::PackedQuantWeights> localWeights;
  const std::vector<conv::PackedQuantWeights>* w = &localWeights;
  if (st != nullptr && st->quantWeights.size() == gg.groups) {
    w = &st->quantWeights;
  } else {
    packQuantGroups(ctx, gg, &localWeights);
  }
  const int32_t* bias = ctx.input<int32_t>(kBias);
  perGroup(gg, 1, in, out, sc,
           [&](const Geometry& sub, uint32_t group, const void* gin, void* gout) {
             conv::fastConvQuant(sub, (*quant)[group], signedData, gin, (*w)[group],
                                 bias + static_cast<size_t>(group) * gg.groupOut, gout,
                                 ctx.threadPool(), sc.kernel);
           });
  return kOk;
}

Status execute(OpContext& ctx) {
  GroupedGeometry gg;
  NN_RETURN_IF_ERROR(conv::resolveGroupedGeometry(ctx, &gg));
  if (ctx.outputShape(0).count() == 0) return kOk;
  const auto* st = static_cast<const GroupedState*>(ctx.state());
  GroupedScratch fallback;
  return conv::executeByType(ctx, gg.g, gg, st, conv::scratchOr(ctx, fallback), executeFloat32,
                             executeFloat16, executeQuant);
}

// ---- reference device --------------------------------------------------------------------

Status referenceFloat32(OpContext& ctx, const GroupedGeometry& gg, const void*,
                        conv::ConvScratch&, const float* in, float* out) {
  refGroupedFloat(gg, in, ctx.input<float>(kFilter), ctx.input<float>(kBias), out);
  return kOk;
}

Status referenceFloat16(OpContext& ctx, const GroupedGeometry& gg, const void*,
                        conv::ConvScratch& sc, const Half* in, Half* out) {
  const Geometry& g = gg.g;
  const size_t inCount = static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC;
  const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
  const float* filter = conv::widenInput(ctx, kFilter, sc.wideFilter);
  const float* bias = conv::widenInput(ctx, kBias, sc.wideBias);
  return conv::withWidenedBuffers(in, inCount, out, outCount, sc, [&](const float* input,
                                                                     float* output) {
    refGroupedFloat(gg, input, filter, bias, output);
    return kOk;
  });
}

template <typename T>
void refQuantTyped(OpContext& ctx, const GroupedGeometry& gg, const QuantParams& q, const T* in,
                   T* out) {
  const int32_t* bias = ctx.input<int32_t>(kBias);
  if (ctx.inputType(kFilter) == OperandType::TENSOR_QUANT8_ASYMM)
    refGroupedQuant(gg, q, in, ctx.input<uint8_t>(kFilter), bias, out);
  else
    refGroupedQuant(gg, q, in, ctx.input<int8_t>(kFilter), bias, out);
}

Status referenceQuant(OpContext& ctx, const GroupedGeometry& gg, const void*, conv::ConvScratch&,
                      const void* in, void* out) {
  QuantParams q;
  NN_RETURN_IF_ERROR(quantParamsFor(ctx, gg.g, &q));
  if (ctx.inputType(kInput) == OperandType::TENSOR_QUANT8_ASYMM_SIGNED)
    refQuantTyped(ctx, gg, q, static_cast<const int8_t*>(in), static_cast<int8_t*>(out));
  else
    refQuantTyped(ctx, gg, q, static_cast<const uint8_t*>(in), static_cast<uint8_t*>(out));
  return kOk;
}

Status executeReference(OpContext& ctx) {
  GroupedGeometry gg;
  NN_RETURN_IF_ERROR(conv::resolveGroupedGeometry(ctx, &gg));
  if (ctx.outputShape(0).count() == 0) return kOk;
  const void* none = nullptr;
  conv::ConvScratch fallback;
  return conv::executeByType(ctx, gg.g, gg, none, conv::scratchOr(ctx, fallback),
                             referenceFloat32, referenceFloat16, referenceQuant);
}

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(GROUPED_CONV_2D, execute, executeReference, init, nullptr);

}  // namespace nn
