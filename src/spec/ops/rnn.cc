// RNN: one step of a basic recurrent layer,
//   output = state_out = activation(input * W^T + state_in * R^T + bias).
// Signature and shapes; the kernel is cpu/kernels/rnn.cc.
#include "spec/operation.h"
#include "spec/ops/recurrent.h"

namespace nn {
namespace {

constexpr uint32_t kInput = 0, kWeights = 1, kRecurrentWeights = 2, kBias = 3, kStateIn = 4,
                   kActivation = 5;
constexpr uint32_t kStateOut = 0, kOutput = 1;

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(6, 6));
  NN_RETURN_IF_ERROR(c.checkOutputCount(2));
  for (uint32_t i = 0; i <= kStateIn; ++i)
    if (c.isOmitted(i)) return c.fail("input %u is required but has no value", i);
  const OperandType t = c.inputType(kInput);
  if (t == OperandType::TENSOR_FLOAT16) {
    c.requireFeatureLevel(kFeatureLevel3);
  } else if (t != OperandType::TENSOR_FLOAT32) {
    return c.fail("input 0: expected TENSOR_FLOAT32 or TENSOR_FLOAT16, got %s", toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputTypes({t, t, t, t, t, OperandType::INT32}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t, t}));
  NN_RETURN_IF_ERROR(c.checkInputRank(kInput, 2));
  NN_RETURN_IF_ERROR(c.checkInputRank(kWeights, 2));
  NN_RETURN_IF_ERROR(c.checkInputRank(kRecurrentWeights, 2));
  NN_RETURN_IF_ERROR(c.checkInputRank(kBias, 1));
  NN_RETURN_IF_ERROR(c.checkInputRank(kStateIn, 2));
  int32_t act;
  if (c.constantScalar(kActivation, &act) && !recurrent::isValidActivation(act))
    return c.fail("input 5: activation must be 0 (none), 1 (relu), 2 (relu1), 3 (relu6), "
                  "4 (tanh) or 6 (sigmoid), got %d",
                  act);
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  const Shape& input = ctx.inputShape(kInput);
  const Shape& weights = ctx.inputShape(kWeights);
  const Shape& recurrent = ctx.inputShape(kRecurrentWeights);
  const Shape& bias = ctx.inputShape(kBias);
  const Shape& state = ctx.inputShape(kStateIn);
  if (input.rank() != 2) return ctx.fail("input 0: expected rank 2, got %u", input.rank());
  if (weights.rank() != 2) return ctx.fail("input 1: expected rank 2, got %u", weights.rank());
  if (recurrent.rank() != 2) return ctx.fail("input 2: expected rank 2, got %u", recurrent.rank());
  if (bias.rank() != 1) return ctx.fail("input 3: expected rank 1, got %u", bias.rank());
  if (state.rank() != 2) return ctx.fail("input 4: expected rank 2, got %u", state.rank());
  const uint32_t batch = input.dim(0), inputSize = input.dim(1), units = weights.dim(0);
  if (weights.dim(1) != inputSize)
    return ctx.fail("input 1 (weights): expected [%u, %u] (input size %u), got %s", units,
                    inputSize, inputSize, toString(weights.dims).c_str());
  if (recurrent.dim(0) != units || recurrent.dim(1) != units)
    return ctx.fail("input 2 (recurrent weights): expected [%u, %u], got %s", units, units,
                    toString(recurrent.dims).c_str());
  if (bias.dim(0) != units)
    return ctx.fail("input 3 (bias): expected [%u], got %s", units, toString(bias.dims).c_str());
  if (state.dim(0) != batch || state.dim(1) != units)
    return ctx.fail("input 4 (hidden state): expected [%u, %u], got %s", batch, units,
                    toString(state.dims).c_str());
  if (!ctx.isOmitted(kActivation) && ctx.hasInputData(kActivation) &&
      !recurrent::isValidActivation(ctx.scalar<int32_t>(kActivation)))
    return ctx.fail("input 5: invalid activation %d", ctx.scalar<int32_t>(kActivation));
  NN_RETURN_IF_ERROR(ctx.setOutputDims(kStateOut, {batch, units}));
  return ctx.setOutputDims(kOutput, {batch, units});
}

}  // namespace

// The activation may be omitted (it then defaults to none).
NN_DEFINE_OPERATION_SPEC_OPTIONAL(RNN, validate, inferShapes, {5});

}  // namespace nn
