// CONV_2D kernels.
//
// Reference device: the direct loops of conv_reference. Fast device: float32 goes to XNNPACK
// with weights packed once at compilation when filter and bias are constants, and to our
// packed GEMM when they are not (or XNNPACK is absent). Quant8 always uses our int8 GEMM whose
// requantization is bit-exact with the reference.
#include <memory>
#include <string>

#include "cpu/kernel.h"
#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/kernels/conv_reference.h"
#include "cpu/xnnpack_util.h"
#include "hal/log.h"

namespace nn {
namespace {

using conv::Geometry;
using conv::QuantParams;
using conv::constantInput;
using conv::isQuant;

constexpr bool kDepthwise = false;

// Built by init, read-only while executing.
struct ConvState : public OpState {
  QuantParams quant;
  bool quantReady = false;
  conv::PackedQuantWeights quantWeights;  // constant quant8 filter
  bool haveQuantWeights = false;
  conv::PackedFloatWeights floatWeights;  // constant float16 filter, or float32 without XNNPACK
  bool haveFloatWeights = false;
  // float32 with constant filter and bias, and XNNPACK takes the configuration: each execution
  // creates its operator (packing the weights) on its first computation.
  bool useXnnpack = false;
};

// One execution's XNNPACK operator, recreated only if the padding changes (implicit padding
// with an input whose size is only known at execution).
struct Conv2dScratch : public conv::ConvScratch {
  XnnConvolution xnn;
  bool xnnFailed = false;  // this execution falls back to the portable kernel
};

XnnConvConfig xnnConfig(const Geometry& g) {
  return conv::xnnConvConfig(g, 1, g.inC, g.outC, /*depthwise=*/false);
}

Status quantParamsFor(OpContext& ctx, const Geometry& g, QuantParams* q) {
  return conv::quantParamsFor(ctx, g.p.activation, g.outC, q);
}

void packFloatFilter(OpContext& ctx, const Geometry& g, conv::PackedFloatWeights* out) {
  const uint32_t k = g.filterH * g.filterW * g.inC;
  if (ctx.inputType(1) == OperandType::TENSOR_FLOAT16) {
    std::vector<float> f(static_cast<size_t>(g.outC) * k);
    conv::halfToFloat(ctx.input<Half>(1), f.data(), f.size());
    conv::packFloatWeights(f.data(), g.outC, k, out);
  } else {
    conv::packFloatWeights(ctx.input<float>(1), g.outC, k, out);
  }
}

void packQuantFilter(OpContext& ctx, const Geometry& g, conv::PackedQuantWeights* out) {
  const Shape& f = ctx.inputShape(1);
  const bool unsignedFilter = f.type == OperandType::TENSOR_QUANT8_ASYMM;
  const int32_t zero = f.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL ? 0 : f.zeroPoint;
  conv::packQuantWeights(ctx.inputData(1), unsignedFilter, zero, g.outC,
                         g.filterH * g.filterW * g.inC, out);
}

// ---- fast device -------------------------------------------------------------------------

Status init(OpContext& ctx) {
  // The geometry needs the input shape and every scalar; without them nothing is prepared
  // here and execution packs per run.
  if (!ctx.inputSlot(0).shapeKnown || !ctx.inputSlot(1).shapeKnown) return kOk;
  Geometry g;
  if (conv::resolveGeometry(ctx, kDepthwise, &g) != kOk) return kOk;
  auto st = std::make_unique<ConvState>();
  const OperandType type = ctx.inputType(0);
  const bool filterConst = constantInput(ctx, 1);
  const bool biasConst = constantInput(ctx, 2);
  if (isQuant(type)) {
    st->quantReady = quantParamsFor(ctx, g, &st->quant) == kOk;
    if (filterConst) {
      packQuantFilter(ctx, g, &st->quantWeights);
      st->haveQuantWeights = true;
    }
  } else if (type == OperandType::TENSOR_FLOAT32 && filterConst && biasConst) {
    st->useXnnpack = xnnConvolutionSupported(xnnConfig(g));
  }
  if (!isQuant(type) && filterConst && !st->useXnnpack) {
    packFloatFilter(ctx, g, &st->floatWeights);
    st->haveFloatWeights = true;
  }
  ctx.setState(std::move(st));
  return kOk;
}

// False (after logging why) when this execution's operator cannot be created or run.
bool runXnnpack(OpContext& ctx, const Geometry& g, Conv2dScratch& sc, const float* in, float* out) {
  const XnnConvConfig want = xnnConfig(g);
  std::string error;
  bool ok = sc.xnn.valid() && sameConfig(sc.xnn.config(), want);
  if (!ok) ok = sc.xnn.create(want, ctx.input<float>(1), ctx.input<float>(2), &error);
  if (ok && sc.xnn.run(g.batches, g.inH, g.inW, in, out, ctx.threadPool(), &error)) return true;
  logInfo("CONV_2D: XNNPACK failed (%s); using the portable kernel", error.c_str());
  return false;
}

Status executeFloat32(OpContext& ctx, const Geometry& g, const ConvState* st, Conv2dScratch& sc,
                      const float* in, float* out) {
  if (st != nullptr && st->useXnnpack && !sc.xnnFailed) {
    if (runXnnpack(ctx, g, sc, in, out)) return kOk;
    sc.xnnFailed = true;
  }
  const float* bias = ctx.input<float>(2);
  if (st != nullptr && st->haveFloatWeights) {
    conv::fastConvFloat(g, in, st->floatWeights, bias, out, ctx.threadPool(), sc.kernel);
    return kOk;
  }
  conv::PackedFloatWeights w;
  packFloatFilter(ctx, g, &w);
  conv::fastConvFloat(g, in, w, bias, out, ctx.threadPool(), sc.kernel);
  return kOk;
}

Status executeFloat16(OpContext& ctx, const Geometry& g, const ConvState* st, Conv2dScratch& sc,
                      const Half* in, Half* out) {
  const size_t inCount = static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC;
  const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
  const float* bias = conv::widenInput(ctx, 2, sc.wideBias);
  return conv::withWidenedBuffers(in, inCount, out, outCount, sc, [&](const float* input,
                                                                     float* output) {
    if (st != nullptr && st->haveFloatWeights) {
      conv::fastConvFloat(g, input, st->floatWeights, bias, output, ctx.threadPool(), sc.kernel);
    } else {
      conv::PackedFloatWeights w;
      packFloatFilter(ctx, g, &w);
      conv::fastConvFloat(g, input, w, bias, output, ctx.threadPool(), sc.kernel);
    }
    return kOk;
  });
}

Status executeQuant(OpContext& ctx, const Geometry& g, const ConvState* st, Conv2dScratch& sc,
                    const void* in, void* out) {
  QuantParams local;
  const QuantParams* q = nullptr;
  NN_RETURN_IF_ERROR(conv::cachedQuantParams(ctx, g.p.activation, g.outC,
                                             st != nullptr && st->quantReady ? &st->quant : nullptr,
                                             &local, &q));
  const bool signedData = ctx.inputType(0) == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
  const int32_t* bias = ctx.input<int32_t>(2);
  if (st != nullptr && st->haveQuantWeights) {
    conv::fastConvQuant(g, *q, signedData, in, st->quantWeights, bias, out, ctx.threadPool(),
                        sc.kernel);
    return kOk;
  }
  conv::PackedQuantWeights w;
  packQuantFilter(ctx, g, &w);
  conv::fastConvQuant(g, *q, signedData, in, w, bias, out, ctx.threadPool(), sc.kernel);
  return kOk;
}

Status execute(OpContext& ctx) {
  Geometry g;
  NN_RETURN_IF_ERROR(conv::resolveGeometry(ctx, kDepthwise, &g));
  if (ctx.outputShape(0).count() == 0) return kOk;
  const ConvState* st = static_cast<const ConvState*>(ctx.state());
  Conv2dScratch fallback;
  return conv::executeByType(ctx, g, g, st, conv::scratchOr(ctx, fallback), executeFloat32,
                             executeFloat16, executeQuant);
}

// ---- reference device --------------------------------------------------------------------

Status referenceFloat32(OpContext& ctx, const Geometry& g, const void*, conv::ConvScratch&,
                        const float* in, float* out) {
  conv::refConvFloat(g, in, ctx.input<float>(1), ctx.input<float>(2), out);
  return kOk;
}

Status referenceFloat16(OpContext& ctx, const Geometry& g, const void*, conv::ConvScratch& sc,
                        const Half* in, Half* out) {
  const size_t inCount = static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC;
  const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
  const float* filter = conv::widenInput(ctx, 1, sc.wideFilter);
  const float* bias = conv::widenInput(ctx, 2, sc.wideBias);
  return conv::withWidenedBuffers(in, inCount, out, outCount, sc, [&](const float* input,
                                                                     float* output) {
    conv::refConvFloat(g, input, filter, bias, output);
    return kOk;
  });
}

Status referenceQuant(OpContext& ctx, const Geometry& g, const void*, conv::ConvScratch&,
                      const void* in, void* out) {
  QuantParams q;
  NN_RETURN_IF_ERROR(quantParamsFor(ctx, g, &q));
  const int32_t* bias = ctx.input<int32_t>(2);
  if (ctx.inputType(0) == OperandType::TENSOR_QUANT8_ASYMM_SIGNED) {
    conv::refConvQuant(g, q, static_cast<const int8_t*>(in), ctx.input<int8_t>(1), bias,
                       static_cast<int8_t*>(out));
  } else if (ctx.inputType(1) == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    conv::refConvQuant(g, q, static_cast<const uint8_t*>(in), ctx.input<int8_t>(1), bias,
                       static_cast<uint8_t*>(out));
  } else {
    conv::refConvQuant(g, q, static_cast<const uint8_t*>(in), ctx.input<uint8_t>(1), bias,
                       static_cast<uint8_t*>(out));
  }
  return kOk;
}

Status executeReference(OpContext& ctx) {
  Geometry g;
  NN_RETURN_IF_ERROR(conv::resolveGeometry(ctx, kDepthwise, &g));
  if (ctx.outputShape(0).count() == 0) return kOk;
  const void* none = nullptr;
  conv::ConvScratch fallback;
  return conv::executeByType(ctx, g, g, none, conv::scratchOr(ctx, fallback), referenceFloat32,
                             referenceFloat16, referenceQuant);
}

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(CONV_2D, execute, executeReference, init, nullptr);

}  // namespace nn
