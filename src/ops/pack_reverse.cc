// PACK (feature level 6): stacks N equally shaped tensors along a new axis.
// REVERSE (feature level 7): reverses a tensor along one axis.
// Operand order and limits follow the NNAPI reference: PACK takes the axis scalar first and
// requires 0 <= axis <= rank; REVERSE takes a one-element axis tensor with 0 <= axis < rank.
#include "ops/operation.h"
#include "ops/elementwise_util.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

bool isPackable(OperandType t) {
  return t == kF32 || t == kF16 || t == kI32 || t == kQ8 || t == kQ8S;
}

// ---- PACK -------------------------------------------------------------------------------

Status validatePack(ValidationContext& c) {
  if (c.numInputs() < 2)
    return c.fail("expected the axis and at least one tensor (>= 2 inputs), got %u",
                  c.numInputs());
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel6);
  NN_RETURN_IF_ERROR(requirePresent(c, 0));
  NN_RETURN_IF_ERROR(c.checkInputType(0, OperandType::INT32));
  const Operand& out = c.output(0);
  if (!isPackable(out.type))
    return c.fail("output 0: unsupported type %s (expected one of TENSOR_FLOAT32, TENSOR_FLOAT16, "
                  "TENSOR_INT32, TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM_SIGNED)",
                  toString(out.type));
  size_t requiredRank = out.dimensions.empty() ? 0 : out.dimensions.size() - 1;
  for (uint32_t i = 1; i < c.numInputs(); ++i) {
    NN_RETURN_IF_ERROR(requirePresent(c, i));
    const Operand& in = c.input(i);
    if (in.type != out.type)
      return c.fail("input %u: type %s differs from the output type %s", i, toString(in.type),
                    toString(out.type));
    if (isQuant8(out.type) && (in.scale != out.scale || in.zeroPoint != out.zeroPoint))
      return c.fail("input %u: scale/zeroPoint (%g, %d) must equal the output's (%g, %d)", i,
                    in.scale, in.zeroPoint, out.scale, out.zeroPoint);
    if (!in.dimensions.empty()) {
      if (requiredRank != 0 && in.dimensions.size() != requiredRank)
        return c.fail("input %u: rank %zu, expected %zu", i, in.dimensions.size(), requiredRank);
      requiredRank = in.dimensions.size();
    }
  }
  return kOk;
}

Status packAxis(OpContext& ctx, uint32_t* axis) {
  if (!ctx.hasInputData(0)) return kDeferred;
  const Dims& first = ctx.inputShape(1).dims;
  if (first.empty()) return ctx.fail("input 1: rank must be at least 1");
  for (uint32_t i = 2; i < ctx.numInputs(); ++i)
    if (ctx.inputShape(i).dims != first)
      return ctx.fail("input %u: shape %s differs from input 1's shape %s", i,
                      toString(ctx.inputShape(i).dims).c_str(), toString(first).c_str());
  const int32_t raw = ctx.scalar<int32_t>(0);
  if (raw < 0 || raw > static_cast<int32_t>(first.size()))
    return ctx.fail("input 0 (axis) is %d, must be in [0, %zu]", raw, first.size());
  *axis = static_cast<uint32_t>(raw);
  return kOk;
}

Status preparePack(OpContext& ctx) {
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(packAxis(ctx, &axis));
  Dims out = ctx.inputShape(1).dims;
  out.insert(out.begin() + axis, ctx.numInputs() - 1);
  return ctx.setOutputDims(0, std::move(out));
}

Status executePack(OpContext& ctx) {
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(packAxis(ctx, &axis));
  if (ctx.outputShape(0).count() == 0) return kOk;
  const Dims& dims = ctx.inputShape(1).dims;
  size_t outer = 1, block = elementSize(ctx.inputType(1));
  for (size_t d = 0; d < dims.size(); ++d) (d < axis ? outer : block) *= dims[d];
  uint8_t* dst = ctx.output<uint8_t>(0);
  for (size_t o = 0; o < outer; ++o)
    for (uint32_t i = 1; i < ctx.numInputs(); ++i, dst += block)
      memcpy(dst, ctx.input<uint8_t>(i) + o * block, block);
  return kOk;
}

// ---- REVERSE ----------------------------------------------------------------------------

Status validateReverse(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel7);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(c, 0,
                                          {{kF32, kFeatureLevel7},
                                           {kF16, kFeatureLevel7},
                                           {kI32, kFeatureLevel7},
                                           {kQ8, kFeatureLevel7},
                                           {kQ8S, kFeatureLevel7}}));
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, kI32));
  NN_RETURN_IF_ERROR(c.checkInputRank(1, 1));
  const Dims& axisDims = c.input(1).dimensions;
  if (axisDims.size() == 1 && axisDims[0] != 0 && axisDims[0] != 1)
    return c.fail("input 1 (axis): expected shape [1], got [%u]", axisDims[0]);
  NN_RETURN_IF_ERROR(checkOutputLikeInput(c, 0, 0));
  const Dims& in = c.input(0).dimensions;
  const Dims& out = c.output(0).dimensions;
  if (!in.empty() && !out.empty() && in.size() != out.size())
    return c.fail("output 0: rank %zu differs from the input rank %zu", out.size(), in.size());
  return kOk;
}

Status reverseAxis(OpContext& ctx, uint32_t* axis) {
  if (!ctx.hasInputData(1)) return kDeferred;
  const uint32_t rank = ctx.inputShape(0).rank();
  if (rank < 1 || rank > 8) return ctx.fail("input 0: rank %u must be in [1, 8]", rank);
  const Shape& a = ctx.inputShape(1);
  if (a.rank() != 1 || a.dims[0] != 1)
    return ctx.fail("input 1 (axis): expected shape [1], got %s", toString(a.dims).c_str());
  const int32_t raw = *ctx.input<int32_t>(1);
  if (raw < 0 || raw >= static_cast<int32_t>(rank))
    return ctx.fail("input 1 (axis) is %d, must be in [0, %u)", raw, rank);
  *axis = static_cast<uint32_t>(raw);
  return kOk;
}

Status prepareReverse(OpContext& ctx) {
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(reverseAxis(ctx, &axis));
  return ctx.setOutputDims(0, ctx.inputShape(0).dims);
}

Status executeReverse(OpContext& ctx) {
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(reverseAxis(ctx, &axis));
  const Shape& in = ctx.inputShape(0);
  if (in.count() == 0) return kOk;
  const elementwise::AxisSplit s = elementwise::splitAtAxis(in.dims, axis);
  const size_t block = s.inner * elementSize(in.type);
  const uint8_t* src = ctx.input<uint8_t>(0);
  uint8_t* dst = ctx.output<uint8_t>(0);
  for (size_t o = 0; o < s.outer; ++o) {
    const uint8_t* from = src + o * s.axis * block;
    for (size_t i = s.axis; i-- > 0; dst += block) memcpy(dst, from + i * block, block);
  }
  return kOk;
}

}  // namespace

NN_REGISTER_OPERATION(PACK, validatePack, preparePack, executePack);
NN_REGISTER_OPERATION(REVERSE, validateReverse, prepareReverse, executeReverse);

}  // namespace nn
