// FULLY_CONNECTED kernels.
//
// Reference device: plain dot products (conv_reference). Fast device: float32 uses XNNPACK
// (weights packed at compilation) when weights and bias are constants, else our packed float
// GEMM; quant8 uses the int8 GEMM shared with CONV_2D (exact requantization). The type
// dispatch, float16 widening, XNNPACK fallback and quantization parameters are
// conv_driver.h's; init is this file's own (it needs neither the input shape nor the bias).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_driver.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/kernels/conv_reference.h"
#include "cpu/xnnpack_util.h"

namespace nn {
namespace {

using namespace conv;  // NOLINT: the family's types and helpers

constexpr uint32_t kInput = 0, kWeights = 1, kBias = 2, kActivation = 3;

// Built by init, read-only while executing.
struct FcState : public PreparedConv {
  std::optional<PackedQuantWeights> quantWeights;
  std::optional<PackedFloatWeights> floatWeights;
};

using FcScratch = XnnScratch<XnnFullyConnected>;
// The type of this operation's table (at the end of the file).
using Kernels = OpKernels<FcShape, FcState, FcScratch>;

void packFloat(OpContext& ctx, const FcShape& s, PackedFloatWeights* out) {
  if (ctx.inputType(kWeights) == OperandType::TENSOR_FLOAT16) {
    std::vector<float> w(static_cast<size_t>(s.units) * s.inputSize);
    halfToFloat(ctx.input<Half>(kWeights), w.data(), w.size());
    packFloatWeights(w.data(), s.units, s.inputSize, out);
  } else {
    packFloatWeights(ctx.input<float>(kWeights), s.units, s.inputSize, out);
  }
}

void packQuant(OpContext& ctx, const FcShape& s, PackedQuantWeights* out) {
  const Shape& w = ctx.inputShape(kWeights);
  packQuantWeights(ctx.inputData(kWeights), w.type == OperandType::TENSOR_QUANT8_ASYMM,
                   w.zeroPoint, s.units, s.inputSize, out);
}

// Runs with constant weights and a constant activation only, so what it prepares (the
// XNNPACK decision included) holds for every computation.
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
      st->quantReady = quantParamsFor(ctx, s.activation, s.units, &st->quant) == kOk;
    packQuant(ctx, s, &st->quantWeights.emplace());
  } else if (type == OperandType::TENSOR_FLOAT32 && constantInput(ctx, kBias) &&
             ctx.inputShape(kBias).count() == s.units) {
    float lo, hi;
    activationRangeFloat(s.activation, &lo, &hi);
    st->useXnnpack = xnnFullyConnectedSupported(s.inputSize, s.units, lo, hi);
  }
  if (!isQuant(type) && !st->useXnnpack) packFloat(ctx, s, &st->floatWeights.emplace());
  ctx.setState(std::move(st));
  return kOk;
}

bool runXnnpack(OpContext& ctx, const FcShape& s, FcScratch& sc, const float* in, float* out,
                std::string* error) {
  bool ok = sc.xnn.valid();
  if (!ok) {
    float lo, hi;
    activationRangeFloat(s.activation, &lo, &hi);
    ok = sc.xnn.create(s.inputSize, s.units, ctx.input<float>(kWeights), ctx.input<float>(kBias),
                       lo, hi, error);
  }
  return ok && sc.xnn.run(s.batches, in, out, ctx.threadPool(), error);
}

// The packed float GEMM.
void portableFloat(OpContext& ctx, const FcShape& s, const FcState& st, FcScratch& sc,
                   const float* in, const float* bias, float* out) {
  const PreparedOrNow<PackedFloatWeights> w(st.floatWeights, packFloat, ctx, s);
  fastFullyConnectedFloat(s.batches, s.activation, in, *w, bias, out, ctx.threadPool(), sc.kernel);
}

// The int8 GEMM.
void quant(OpContext& ctx, const FcShape& s, const FcState& st, FcScratch& sc,
           const QuantParams& q, const void* in, void* out) {
  const PreparedOrNow<PackedQuantWeights> w(st.quantWeights, packQuant, ctx, s);
  fastFullyConnectedQuant(s.batches, q, signedData(ctx), in, *w, ctx.input<int32_t>(kBias), out,
                          ctx.threadPool(), sc.kernel);
}

// In OpKernels order: geometry, reference kernels, init's hooks (none: init is the one
// above), the fast device's kernels.
constexpr Kernels kFullyConnected = {resolveFullyConnected, &kFullyConnectedReference, nullptr,
    nullptr, nullptr, nullptr, runXnnpack, portableFloat, quant};

}  // namespace

NN_DEFINE_CPU_KERNEL_WARM(FULLY_CONNECTED, conv::execute<kFullyConnected>,
                          conv::executeReference<kFullyConnected>, init, nullptr,
                          conv::warm<kFullyConnected>);

}  // namespace nn
