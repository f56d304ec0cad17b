// FULLY_CONNECTED kernels.
//
// Reference device: plain dot products. Fast device: float32 uses XNNPACK (weights packed at
// compilation) when weights and bias are constants, else our packed float GEMM; quant8 uses
// the int8 GEMM shared with CONV_2D (exact requantization).
#include <atomic>
#include <memory>
#include <mutex>

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

struct FcState : public OpState {
  QuantParams quant;
  bool quantReady = false;
  conv::PackedQuantWeights quantWeights;
  bool haveQuantWeights = false;
  conv::PackedFloatWeights floatWeights;
  bool haveFloatWeights = false;
  std::mutex xnnMutex;
  bool xnnEligible = false;
  std::atomic<bool> xnnFailed{false};  // read outside the mutex
  int32_t xnnActivation = -1;
  XnnFullyConnected xnn;
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
// widened copies (narrowed back afterwards) for float16.
template <typename Fn>
Status withFloatBuffers(OpContext& ctx, const FcShape& s, const Fn& fn) {
  if (ctx.inputType(kInput) == OperandType::TENSOR_FLOAT32)
    return fn(ctx.input<float>(kInput), ctx.input<float>(kBias), ctx.output<float>(0));
  const size_t inCount = static_cast<size_t>(s.batches) * s.inputSize;
  const size_t outCount = static_cast<size_t>(s.batches) * s.units;
  std::vector<float> in(inCount), bias(s.units), out(outCount);
  conv::halfToFloat(ctx.input<Half>(kInput), in.data(), inCount);
  conv::halfToFloat(ctx.input<Half>(kBias), bias.data(), s.units);
  NN_RETURN_IF_ERROR(fn(in.data(), bias.data(), out.data()));
  conv::floatToHalf(out.data(), ctx.output<Half>(0), outCount);
  return kOk;
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
             ctx.inputShape(kBias).count() == s.units && xnnpackAvailable()) {
    st->xnnEligible = true;
    float lo, hi;
    activationRangeFloat(s.activation, &lo, &hi);
    std::string error;
    if (st->xnn.create(s.inputSize, s.units, ctx.input<float>(kWeights),
                       ctx.input<float>(kBias), lo, hi, &error)) {
      st->xnnActivation = s.activation;
    } else {
      logInfo("FULLY_CONNECTED: XNNPACK rejected the operator (%s); using the portable kernel",
              error.c_str());
      st->xnnFailed = true;
    }
  }
  if (!isQuant(type) && !(st->xnnEligible && !st->xnnFailed)) {
    packFloat(ctx, s, &st->floatWeights);
    st->haveFloatWeights = true;
  }
  ctx.setState(std::move(st));
  return kOk;
}

Status executeFloat(OpContext& ctx, const FcShape& s, FcState* st, const float* in,
                    const float* bias, float* out) {
  if (st != nullptr && st->xnnEligible && !st->xnnFailed && s.activation == st->xnnActivation) {
    std::lock_guard<std::mutex> lock(st->xnnMutex);
    std::string error;
    if (st->xnn.run(s.batches, in, out, ctx.threadPool(), &error)) return kOk;
    logInfo("FULLY_CONNECTED: XNNPACK failed (%s); using the portable kernel", error.c_str());
    st->xnnFailed = true;
  }
  if (st != nullptr && st->haveFloatWeights) {
    conv::fastFullyConnectedFloat(s.batches, s.activation, in, st->floatWeights, bias, out,
                                  ctx.threadPool());
    return kOk;
  }
  conv::PackedFloatWeights w;
  packFloat(ctx, s, &w);
  conv::fastFullyConnectedFloat(s.batches, s.activation, in, w, bias, out, ctx.threadPool());
  return kOk;
}

Status executeQuant(OpContext& ctx, const FcShape& s, FcState* st) {
  QuantParams local;
  const QuantParams* q = nullptr;
  NN_RETURN_IF_ERROR(conv::cachedQuantParams(ctx, s.activation, s.units,
                                             st != nullptr && st->quantReady ? &st->quant : nullptr,
                                             &local, &q));
  const bool signedData = ctx.inputType(kInput) == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
  const int32_t* bias = ctx.input<int32_t>(kBias);
  if (st != nullptr && st->haveQuantWeights) {
    conv::fastFullyConnectedQuant(s.batches, *q, signedData, ctx.inputData(kInput),
                                  st->quantWeights, bias, ctx.outputData(0), ctx.threadPool());
    return kOk;
  }
  conv::PackedQuantWeights w;
  packQuant(ctx, s, &w);
  conv::fastFullyConnectedQuant(s.batches, *q, signedData, ctx.inputData(kInput), w, bias,
                                ctx.outputData(0), ctx.threadPool());
  return kOk;
}

Status execute(OpContext& ctx) {
  FcShape s;
  NN_RETURN_IF_ERROR(conv::resolveFullyConnected(ctx, &s));
  if (ctx.outputShape(0).count() == 0) return kOk;
  FcState* st = static_cast<FcState*>(ctx.state());
  switch (ctx.inputType(kInput)) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_FLOAT16:
      return withFloatBuffers(ctx, s, [&](const float* in, const float* bias, float* out) {
        return executeFloat(ctx, s, st, in, bias, out);
      });
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      return executeQuant(ctx, s, st);
    default:
      return ctx.fail("unsupported input type %s", toString(ctx.inputType(kInput)));
  }
}

// ---- reference device --------------------------------------------------------------------

Status executeReference(OpContext& ctx) {
  FcShape s;
  NN_RETURN_IF_ERROR(conv::resolveFullyConnected(ctx, &s));
  if (ctx.outputShape(0).count() == 0) return kOk;
  switch (ctx.inputType(kInput)) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_FLOAT16:
      return withFloatBuffers(ctx, s, [&](const float* in, const float* bias, float* out) {
        std::vector<float> widened;
        const float* weights = ctx.input<float>(kWeights);
        if (ctx.inputType(kWeights) == OperandType::TENSOR_FLOAT16) {
          widened.resize(static_cast<size_t>(s.units) * s.inputSize);
          conv::halfToFloat(ctx.input<Half>(kWeights), widened.data(), widened.size());
          weights = widened.data();
        }
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
