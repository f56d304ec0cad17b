// RANDOM_MULTINOMIAL: draws `samples` class indexes per batch row from the categorical
// distribution softmax(logits[row]). Signature and output shape; the sampling is in
// cpu/kernels/random_multinomial.cc.
#include "spec/operation.h"

namespace nn {
namespace {

constexpr uint32_t kLogits = 0, kSamples = 1, kSeeds = 2;

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 3));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  const OperandType t = c.inputType(kLogits);
  if (t != OperandType::TENSOR_FLOAT32 && t != OperandType::TENSOR_FLOAT16)
    return c.fail("input 0: expected TENSOR_FLOAT32 or TENSOR_FLOAT16, got %s", toString(t));
  NN_RETURN_IF_ERROR(
      c.checkInputTypes({t, OperandType::INT32, OperandType::TENSOR_INT32}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({OperandType::TENSOR_INT32}));
  NN_RETURN_IF_ERROR(c.checkInputRank(kLogits, 2));
  NN_RETURN_IF_ERROR(c.checkInputRank(kSeeds, 1));
  int32_t samples;
  if (c.constantScalar(kSamples, &samples) && samples <= 0)
    return c.fail("input 1 (number of samples) must be > 0, got %d", samples);
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  const Shape& logits = ctx.inputShape(kLogits);
  if (logits.rank() != 2) return ctx.fail("input 0: expected rank 2, got %u", logits.rank());
  const Shape& seeds = ctx.inputShape(kSeeds);
  if (seeds.dims != Dims{2})
    return ctx.fail("input 2 (seeds): expected shape [2], got %s", toString(seeds.dims).c_str());
  if (!ctx.hasInputData(kSamples)) return kDeferred;
  const int32_t samples = ctx.scalar<int32_t>(kSamples);
  if (samples <= 0) return ctx.fail("input 1 (number of samples) must be > 0, got %d", samples);
  if (logits.dim(0) > 0 && logits.dim(1) == 0)
    return ctx.fail("input 0: cannot sample from zero classes (shape %s)",
                    toString(logits.dims).c_str());
  return ctx.setOutputDims(0, {logits.dim(0), static_cast<uint32_t>(samples)});
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(RANDOM_MULTINOMIAL, validate, inferShapes);

}  // namespace nn
