// FULLY_CONNECTED: output = activation(input * weights' + bias), the input flattened to
// [batch_size, input_size]; float32, float16, quant8 asymm and quant8 asymm signed.
#include "spec/ops/common.h"
#include "spec/ops/conv.h"

namespace nn {
namespace {
constexpr uint32_t kInput = 0, kWeights = 1, kBias = 2, kActivation = 3;
}  // namespace

namespace conv {

Status resolveFullyConnected(const ShapeContext& ctx, FcShape* s) {
  if (!ctx.hasInputData(kActivation)) return kDeferred;
  s->activation = ctx.scalar<int32_t>(kActivation);
  if (!isValidFusedActivation(s->activation))
    return ctx.fail("input 3 (fused activation) must be 0..3, got %d", s->activation);
  const Shape& input = ctx.inputShape(kInput);
  const Shape& weights = ctx.inputShape(kWeights);
  const Shape& bias = ctx.inputShape(kBias);
  if (input.rank() < 2 || input.rank() > 4)
    return ctx.fail("input 0: rank must be 2 to 4, got %u", input.rank());
  if (weights.rank() != 2)
    return ctx.fail("input 1 (weights): expected rank 2, got %u", weights.rank());
  if (bias.rank() != 1) return ctx.fail("input 2 (bias): expected rank 1, got %u", bias.rank());
  s->units = weights.dim(0);
  s->inputSize = weights.dim(1);
  if (s->units == 0 || s->inputSize == 0)
    return ctx.fail("input 1 (weights): dimensions must be non-zero, got %s",
                    toString(weights.dims).c_str());
  const uint64_t elements = input.count();
  if (elements % s->inputSize != 0)
    return ctx.fail("input 0: %llu elements (shape %s) are not a multiple of input_size %u",
                    static_cast<unsigned long long>(elements), toString(input.dims).c_str(),
                    s->inputSize);
  s->batches = static_cast<uint32_t>(elements / s->inputSize);
  if (bias.dim(0) != s->units)
    return ctx.fail("input 2 (bias): size %u does not match num_units %u", bias.dim(0), s->units);
  return kOk;
}

}  // namespace conv

namespace {

using conv::isQuant;

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(4, 4));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  const OperandType type = c.inputType(kInput);
  NN_RETURN_IF_ERROR(conv::checkDataType(c, type));
  for (uint32_t i = 0; i < 4; ++i)
    if (c.isOmitted(i)) return c.fail("input %u is required", i);
  NN_RETURN_IF_ERROR(c.checkInputTypes(
      {type, type, isQuant(type) ? OperandType::TENSOR_INT32 : type, OperandType::INT32}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({type}));
  const Operand& input = c.input(kInput);
  if (!input.dimensions.empty() && (input.dimensions.size() < 2 || input.dimensions.size() > 4))
    return c.fail("input 0: rank must be 2 to 4, got %zu", input.dimensions.size());
  NN_RETURN_IF_ERROR(c.checkInputRank(kWeights, 2));
  NN_RETURN_IF_ERROR(c.checkInputRank(kBias, 1));
  int32_t activation = 0;
  if (c.constantScalar(kActivation, &activation) && !isValidFusedActivation(activation))
    return c.fail("input 3 (fused activation) must be 0..3, got %d", activation);
  if (isQuant(type)) {
    // Before feature level 3 the output scale had to exceed input.scale * weights.scale.
    if (!(c.output(0).scale > input.scale * c.input(kWeights).scale))
      c.requireFeatureLevel(kFeatureLevel3);
  }
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  conv::FcShape s;
  NN_RETURN_IF_ERROR(conv::resolveFullyConnected(ctx, &s));
  if (isQuant(ctx.inputType(kInput))) {
    conv::QuantParams q;
    NN_RETURN_IF_ERROR(conv::quantParamsFor(ctx, s.activation, s.units, &q));
  }
  return ctx.setOutputDims(0, {s.batches, s.units});
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(FULLY_CONNECTED, validate, inferShapes);

}  // namespace nn
