// FULLY_CONNECTED kernels.
//
// Reference device: plain dot products. Fast device: float32 uses XNNPACK (weights packed at
// compilation) when weights and bias are constants, else our packed float GEMM; quant8 uses
// the int8 GEMM shared with CONV_2D (exact requantization).
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

using conv::FcShape;
using conv::QuantParams;
using conv::constantInput;
using conv::isQuant;

constexpr uint32_t kInput = 0, kWeights = 1, kBias = 2, kActivation = 3;

// Built by init, read-only while executing.
struct FcState : public OpState {
  QuantParams quant;
  bool quantReady = false;
  conv::PackedQuantWeights quantWeights;
  bool haveQuantWeights = false;
  conv::PackedFloatWeights floatWeights;
  bool haveFloatWeights = false;
  // float32 with constant weights and bias, and XNNPACK takes the configuration: each execution
  // creates its operator (packing the weights) on its first computation.
  bool useXnnpack = false;
  int32_t xnnActivation = -1;  // the activation the operator is created for
};

struct FcScratch : public conv::ConvScratch {
  XnnFullyConnected xnn;
  bool xnnFailed = false;  // this execution falls back to the portable kernel
};

Status quantParamsFor(OpContext& ctx, const FcShape& s, QuantParams* q) {
  return conv::quantParamsFor(ctx, s.activation, s.units, q);
}

void packFloat(OpContext& ctx, const FcShape& s, conv::PackedFloatWeights* out) {
  if (ctx.inputType(kWeights) == OperandType::TENSOR_FLOAT16) {
    std::vector<float> w(static_cast<size_t>(s.units) * s.inputSize);
    conv::halfToFloat(ctx.input<Half>(kWeights), w.data(), w.size());
    conv::packFloatWeights(w.data(), s.units, s.inputSize, out);
  } else {
    conv::packFloatWeights(ctx.input<float>(kWeights), s.units, s.inputSize, out);
  }
}

void packQuant(OpContext& ctx, const FcShape& s, conv::PackedQuantWeights* out) {
  const Shape& w = ctx.inputShape(kWeights);
  conv::packQuantWeights(ctx.inputData(kWeights), w.type == OperandType::TENSOR_QUANT8_ASYMM,
                         w.zeroPoint, s.units, s.inputSize, out);
}

// Runs fn(input, bias, output) on float32 views: the operands themselves for float32,
// widened copies in `sc` (narrowed back afterwards) for float16.
template <typename Fn>
Status withFloatBuffers(OpContext& ctx, const FcShape& s, conv::ConvScratch& sc, const Fn& fn) {
  if (ctx.inputType(kInput) == OperandType::TENSOR_FLOAT32)
    return fn(ctx.input<float>(kInput), ctx.input<float>(kBias), ctx.output<float>(0));
  const size_t inCount = static_cast<size_t>(s.batches) * s.inputSize;
  const size_t outCount = static_cast<size_t>(s.batches) * s.units;
  const float* bias = conv::widenInput(ctx, kBias, sc.wideBias);
  return conv::withWidenedBuffers(ctx.input<Half>(kInput), inCount, ctx.output<Half>(0),
                                  outCount, sc, [&](const float* in, float* out) {
                                    return fn(in, bias, out);
                                  });
}

// ---- fast device -------------------------------------------------------------------------

Status init(OpContext& ctx) {
  if (!constantInput(ctx, kWeights) || !ctx.hasInputData(kActivation)) return kOk;
  FcShape s;
  // The batch count needs the input shape; weights and units do not.
  s.activation = ctx.scalar<int32_t>(kActivation);
  const Shape& weights = ctx.inputShape(kWeights);
  if (weights.rank() != 2 || weights.dim(0) == 0 || weights.dim(1) == 0 ||
      !isValidFusedActivation(s.activation))
    return kOk;
  s.units = weights.dim(0);
  s.inputSize = weights.dim(1);
  auto st = std::make_unique<FcState>();
  const OperandType type = ctx.inputType(kInput);
  if (isQuant(type)) {
    if (ctx.inputShape(kBias).rank() == 1 && ctx.inputShape(kBias).dim(0) == s.units)
      st->quantReady = quantParamsFor(ctx, s, &st->quant) == kOk;
    packQuant(ctx, s, &st->quantWeights);
    st->haveQuantWeights = true;
  } else if (type == OperandType::TENSOR_FLOAT32 && constantInput(ctx, kBias) &&
             ctx.inputShape(kBias).count() == s.units) {
    float lo, hi;
    activationRangeFloat(s.activation, &lo, &hi);
    st->useXnnpack = xnnFullyConnectedSupported(s.inputSize, s.units, lo, hi);
    st->xnnActivation = s.activation;
  }
  if (!isQuant(type) && !st->useXnnpack) {
    packFloat(ctx, s, &st->floatWeights);
    st->haveFloatWeights = true;
  }
  ctx.setState(std::move(st));
  return kOk;
}

// False (after logging why) when this execution's operator cannot be created or run.
bool runXnnpack(OpContext& ctx, const FcShape& s, FcScratch& sc, const float* in, float* out) {
  std::string error;
  bool ok = sc.xnn.valid();
  if (!ok) {
    float lo, hi;
    activationRangeFloat(s.activation, &lo, &hi);
    ok = sc.xnn.create(s.inputSize, s.units, ctx.input<float>(kWeights), ctx.input<float>(kBias),
                       lo, hi, &error);
  }
  if (ok && sc.xnn.run(s.batches, in, out, ctx.threadPool(), &error)) return true;
  logInfo("FULLY_CONNECTED: XNNPACK failed (%s); using the portable kernel", error.c_str());
  return false;
}

Status executeFloat(OpContext& ctx, const FcShape& s, const FcState* st, FcScratch& sc,
                    const float* in, const float* bias, float* out) {
  if (st != nullptr && st->useXnnpack && !sc.xnnFailed && s.activation == st->xnnActivation) {
    if (runXnnpack(ctx, s, sc, in, out)) return kOk;
    sc.xnnFailed = true;
  }
  if (st != nullptr && st->haveFloatWeights) {
    conv::fastFullyConnectedFloat(s.batches, s.activation, in, st->floatWeights, bias, out,
                                  ctx.threadPool(), sc.kernel);
    return kOk;
  }
  conv::PackedFloatWeights w;
  packFloat(ctx, s, &w);
  conv::fastFullyConnectedFloat(s.batches, s.activation, in, w, bias, out, ctx.threadPool(),
                                sc.kernel);
  return kOk;
}

Status executeQuant(OpContext& ctx, const FcShape& s, const FcState* st, FcScratch& sc) {
  QuantParams local;
  const QuantParams* q = nullptr;
  NN_RETURN_IF_ERROR(conv::cachedQuantParams(ctx, s.activation, s.units,
                                             st != nullptr && st->quantReady ? &st->quant : nullptr,
                                             &local, &q));
  const bool signedData = ctx.inputType(kInput) == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
  const int32_t* bias = ctx.input<int32_t>(kBias);
  if (st != nullptr && st->haveQuantWeights) {
    conv::fastFullyConnectedQuant(s.batches, *q, signedData, ctx.inputData(kInput),
                                  st->quantWeights, bias, ctx.outputData(0), ctx.threadPool(),
                                  sc.kernel);
    return kOk;
  }
  conv::PackedQuantWeights w;
  packQuant(ctx, s, &w);
  conv::fastFullyConnectedQuant(s.batches, *q, signedData, ctx.inputData(kInput), w, bias,
                                ctx.outputData(0), ctx.threadPool(), sc.kernel);
  return kOk;
}

Status execute(OpContext& ctx) {
  FcShape s;
  NN_RETURN_IF_ERROR(conv::resolveFullyConnected(ctx, &s));
  if (ctx.outputShape(0).count() == 0) return kOk;
  const FcState* st = static_cast<const FcState*>(ctx.state());
  FcScratch fallback;
  FcScratch& sc = conv::scratchOr(ctx, fallback);
  switch (ctx.inputType(kInput)) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_FLOAT16:
      return withFloatBuffers(ctx, s, sc, [&](const float* in, const float* bias, float* out) {
        return executeFloat(ctx, s, st, sc, in, bias, out);
      });
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      return executeQuant(ctx, s, st, sc);
    default:
      return ctx.fail("unsupported input type %s", toString(ctx.inputType(kInput)));
  }
}

// ---- reference device --------------------------------------------------------------------

Status executeReference(OpContext& ctx) {
  FcShape s;
  NN_RETURN_IF_ERROR(conv::resolveFullyConnected(ctx, &s));
  if (ctx.outputShape(0).count() == 0) return kOk;
  conv::ConvScratch fallback;
  conv::ConvScratch& sc = conv::scratchOr(ctx, fallback);
  switch (ctx.inputType(kInput)) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_FLOAT16:
      return withFloatBuffers(ctx, s, sc, [&](const float* in, const float* bias, float* out) {
        const float* weights = ctx.inputType(kWeights) == OperandType::TENSOR_FLOAT16
                                   ? conv::widenInput(ctx, kWeights, sc.wideFilter)
                                   : ctx.input<float>(kWeights);
        conv::refFullyConnectedFloat(s.batches, s.units, s.inputSize, s.activation, in, weights,
                                     bias, out);
        return Status(kOk);
      });
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: {
      QuantParams q;
      NN_RETURN_IF_ERROR(quantParamsFor(ctx, s, &q));
      const int32_t* bias = ctx.input<int32_t>(kBias);
      if (ctx.inputType(kInput) == OperandType::TENSOR_QUANT8_ASYMM_SIGNED)
        conv::refFullyConnectedQuant(s.batches, s.units, s.inputSize, q,
                                     ctx.input<int8_t>(kInput), ctx.input<int8_t>(kWeights), bias,
                                     ctx.output<int8_t>(0));
      else
        conv::refFullyConnectedQuant(s.batches, s.units, s.inputSize, q,
                                     ctx.input<uint8_t>(kInput), ctx.input<uint8_t>(kWeights),
                                     bias, ctx.output<uint8_t>(0));
      return kOk;
    }
    default:
      return ctx.fail("unsupported input type %s", toString(ctx.inputType(kInput)));
  }
}

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(FULLY_CONNECTED, execute, executeReference, init, nullptr);

}  // namespace nn
