// PACK (feature level 6): stacks N equally shaped tensors along a new axis.
// REVERSE (feature level 7): reverses a tensor along one axis.
// Operand order and limits follow the NNAPI reference: PACK takes the axis scalar first and
// requires 0 <= axis <= rank; REVERSE takes a one-element axis tensor with 0 <= axis < rank.
// Signatures and shapes; kernels: cpu/kernels/pack_reverse.cc.
#include "spec/operation.h"
#include "spec/ops/pack_reverse.h"
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

// The inputs' shape with the number of inputs inserted at the axis.
Status inferPack(ShapeContext& ctx) {
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(pack_reverse::resolvePackAxis(ctx, &axis));
  Dims out = ctx.inputShape(1).dims;
  out.insert(out.begin() + axis, ctx.numInputs() - 1);
  return ctx.setOutputDims(0, std::move(out));
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

Status inferReverse(ShapeContext& ctx) {
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(pack_reverse::resolveReverseAxis(ctx, &axis));
  return ctx.setOutputDims(0, ctx.inputShape(0).dims);
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(PACK, validatePack, inferPack);
NN_DEFINE_OPERATION_SPEC(REVERSE, validateReverse, inferReverse);

}  // namespace nn
