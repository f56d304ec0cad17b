// DEPTHWISE_CONV_2D kernels.
//
// Reference device: the direct loops of conv_reference. Fast device: float32 goes to XNNPACK
// (weights packed at compilation) when filter and bias are constants, else to a
// channel-vectorized loop; quant8 uses the same loop shape in int32 with the filter's zero
// point removed once, and requantizes exactly like the reference.
#include <memory>
#include <string>
#include <vector>

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

constexpr bool kDepthwise = true;

// Built by init, read-only while executing.
struct DepthwiseState : public OpState {
  QuantParams quant;
  bool quantReady = false;
  conv::PackedDepthwiseFilter quantFilter;  // constant quant8 filter
  bool haveQuantFilter = false;
  std::vector<float> floatFilter;  // constant float16 filter, widened
  // float32 with constant filter and bias, and XNNPACK takes the configuration: each execution
  // creates its operator (packing the weights) on its first computation.
  bool useXnnpack = false;
};

struct DepthwiseScratch : public conv::ConvScratch {
  XnnConvolution xnn;
  bool xnnFailed = false;  // this execution falls back to the portable kernel
};

XnnConvConfig xnnConfig(const Geometry& g) {
  return conv::xnnConvConfig(g, g.inC, 1, static_cast<size_t>(g.p.depthMultiplier),
                             /*depthwise=*/true);
}

Status quantParamsFor(OpContext& ctx, const Geometry& g, QuantParams* q) {
  return conv::quantParamsFor(ctx, g.p.activation, g.outC, q);
}

void packQuantFilter(OpContext& ctx, const Geometry& g, conv::PackedDepthwiseFilter* out) {
  const Shape& f = ctx.inputShape(1);
  const int32_t zero = f.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL ? 0 : f.zeroPoint;
  conv::packDepthwiseFilter(ctx.inputData(1), f.type, zero, g.filterH * g.filterW, g.outC, out);
}

// ---- fast device -------------------------------------------------------------------------

Status init(OpContext& ctx) {
  if (!ctx.inputSlot(0).shapeKnown || !ctx.inputSlot(1).shapeKnown) return kOk;
  Geometry g;
  if (conv::resolveGeometry(ctx, kDepthwise, &g) != kOk) return kOk;
  auto st = std::make_unique<DepthwiseState>();
  const OperandType type = ctx.inputType(0);
  const bool filterConst = constantInput(ctx, 1);
  const bool biasConst = constantInput(ctx, 2);
  if (isQuant(type)) {
    st->quantReady = quantParamsFor(ctx, g, &st->quant) == kOk;
    if (filterConst) {
      packQuantFilter(ctx, g, &st->quantFilter);
      st->haveQuantFilter = true;
    }
  } else if (type == OperandType::TENSOR_FLOAT16) {
    if (filterConst) {
      st->floatFilter.resize(ctx.inputShape(1).count());
      conv::halfToFloat(ctx.input<Half>(1), st->floatFilter.data(), st->floatFilter.size());
    }
  } else if (filterConst && biasConst) {
    st->useXnnpack = xnnConvolutionSupported(xnnConfig(g));
  }
  ctx.setState(std::move(st));
  return kOk;
}

// False (after logging why) when this execution's operator cannot be created or run.
bool runXnnpack(OpContext& ctx, const Geometry& g, DepthwiseScratch& sc, const float* in,
                float* out) {
  const XnnConvConfig want = xnnConfig(g);
  std::string error;
  bool ok = sc.xnn.valid() && sameConfig(sc.xnn.config(), want);
  if (!ok) ok = sc.xnn.create(want, ctx.input<float>(1), ctx.input<float>(2), &error);
  if (ok && sc.xnn.run(g.batches, g.inH, g.inW, in, out, ctx.threadPool(), &error)) return true;
  logInfo("DEPTHWISE_CONV_2D: XNNPACK failed (%s); using the portable kernel", error.c_str());
  return false;
}

Status executeFloat32(OpContext& ctx, const Geometry& g, const DepthwiseState* st,
                      DepthwiseScratch& sc, const float* in, float* out) {
  if (st != nullptr && st->useXnnpack && !sc.xnnFailed) {
    if (runXnnpack(ctx, g, sc, in, out)) return kOk;
    sc.xnnFailed = true;
  }
  conv::fastDepthwiseFloat(g, in, ctx.input<float>(1), ctx.input<float>(2), out,
                           ctx.threadPool(), sc.kernel);
  return kOk;
}

Status executeFloat16(OpContext& ctx, const Geometry& g, const DepthwiseState* st,
                      DepthwiseScratch& sc, const Half* in, Half* out) {
  const size_t inCount = static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC;
  const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
  const float* bias = conv::widenInput(ctx, 2, sc.wideBias);
  const float* filter = st != nullptr && !st->floatFilter.empty()
                            ? st->floatFilter.data()
                            : conv::widenInput(ctx, 1, sc.wideFilter);
  return conv::withWidenedBuffers(in, inCount, out, outCount, sc, [&](const float* input,
                                                                     float* output) {
    conv::fastDepthwiseFloat(g, input, filter, bias, output, ctx.threadPool(), sc.kernel);
    return kOk;
  });
}

Status executeQuant(OpContext& ctx, const Geometry& g, const DepthwiseState* st,
                    DepthwiseScratch& sc, const void* in, void* out) {
  QuantParams local;
  const QuantParams* q = nullptr;
  NN_RETURN_IF_ERROR(conv::cachedQuantParams(ctx, g.p.activation, g.outC,
                                             st != nullptr && st->quantReady ? &st->quant : nullptr,
                                             &local, &q));
  conv::PackedDepthwiseFilter localFilter;
  const conv::PackedDepthwiseFilter* filter = &localFilter;
  if (st != nullptr && st->haveQuantFilter) {
    filter = &st->quantFilter;
  } else {
    packQuantFilter(ctx, g, &localFilter);
  }
  conv::fastDepthwiseQuant(g, *q, ctx.inputType(0) == OperandType::TENSOR_QUANT8_ASYMM_SIGNED,
                           in, *filter, ctx.input<int32_t>(2), out, ctx.threadPool(), sc.kernel);
  return kOk;
}

Status execute(OpContext& ctx) {
  Geometry g;
  NN_RETURN_IF_ERROR(conv::resolveGeometry(ctx, kDepthwise, &g));
  if (ctx.outputShape(0).count() == 0) return kOk;
  const DepthwiseState* st = static_cast<const DepthwiseState*>(ctx.state());
  DepthwiseScratch fallback;
  return conv::executeByType(ctx, g, g, st, conv::scratchOr(ctx, fallback), executeFloat32,
                             executeFloat16, executeQuant);
}

// ---- reference device --------------------------------------------------------------------

Status referenceFloat32(OpContext& ctx, const Geometry& g, const void*, conv::ConvScratch&,
                        const float* in, float* out) {
  conv::refDepthwiseFloat(g, in, ctx.input<float>(1), ctx.input<float>(2), out);
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
    conv::refDepthwiseFloat(g, input, filter, bias, output);
    return kOk;
  });
}

Status referenceQuant(OpContext& ctx, const Geometry& g, const void*, conv::ConvScratch&,
                      const void* in, void* out) {
  QuantParams q;
  NN_RETURN_IF_ERROR(quantParamsFor(ctx, g, &q));
  const int32_t* bias = ctx.input<int32_t>(2);
  if (ctx.inputType(0) == OperandType::TENSOR_QUANT8_ASYMM_SIGNED) {
    conv::refDepthwiseQuant(g, q, static_cast<const int8_t*>(in), ctx.input<int8_t>(1), bias,
                            static_cast<int8_t*>(out));
  } else if (ctx.inputType(1) == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    conv::refDepthwiseQuant(g, q, static_cast<const uint8_t*>(in), ctx.input<int8_t>(1), bias,
                            static_cast<uint8_t*>(out));
  } else {
    conv::refDepthwiseQuant(g, q, static_cast<const uint8_t*>(in), ctx.input<uint8_t>(1), bias,
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

NN_DEFINE_CPU_KERNEL_FULL(DEPTHWISE_CONV_2D, execute, executeReference, init, nullptr);

}  // namespace nn
