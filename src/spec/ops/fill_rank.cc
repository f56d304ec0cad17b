// FILL (a tensor of a given shape holding one value) and RANK (the number of dimensions of
// a tensor, as an INT32 scalar): signatures and output shapes.
#include "spec/operation.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

// ---- FILL -------------------------------------------------------------------------------

Status validateFill(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel4);
  NN_RETURN_IF_ERROR(requirePresent(c, 0));
  NN_RETURN_IF_ERROR(c.checkInputType(0, kI32));
  NN_RETURN_IF_ERROR(c.checkInputRank(0, 1));
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  OperandType valueType;
  switch (c.outputType(0)) {
    case OperandType::TENSOR_FLOAT32: valueType = OperandType::FLOAT32; break;
    case OperandType::TENSOR_FLOAT16: valueType = OperandType::FLOAT16; break;
    case OperandType::TENSOR_INT32: valueType = OperandType::INT32; break;
    default:
      return c.fail("output 0: unsupported type %s (expected one of TENSOR_FLOAT32, "
                    "TENSOR_FLOAT16, TENSOR_INT32)",
                    toString(c.outputType(0)));
  }
  return c.checkInputType(1, valueType);
}

Status inferFill(ShapeContext& ctx) {
  if (!ctx.hasInputData(0)) return kDeferred;
  const Shape& dimsShape = ctx.inputShape(0);
  if (dimsShape.rank() != 1)
    return ctx.fail("input 0 (dims): expected a 1-D tensor, got rank %u", dimsShape.rank());
  const std::vector<int32_t> dims = readInt32Vector(ctx, 0);
  if (dims.empty()) return ctx.fail("input 0 (dims): the output rank must be at least 1");
  Dims out(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) return ctx.fail("input 0 (dims): entry %zu is %d, must be >= 0", i, dims[i]);
    out[i] = static_cast<uint32_t>(dims[i]);
  }
  return ctx.setOutputDims(0, std::move(out));
}

// ---- RANK -------------------------------------------------------------------------------

Status validateRank(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(1, 1));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel4);
  NN_RETURN_IF_ERROR(requirePresent(c, 0));
  switch (c.inputType(0)) {
    case OperandType::TENSOR_FLOAT16:
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_INT32:
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT16_SYMM:
    case OperandType::TENSOR_BOOL8:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::TENSOR_QUANT16_ASYMM:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      break;
    default:
      return c.fail("input 0: unsupported type %s (expected a tensor type)",
                    toString(c.inputType(0)));
  }
  return c.checkOutputTypes({OperandType::INT32});
}

Status inferRank(ShapeContext& ctx) {
  if (ctx.inputShape(0).rank() == 0) return ctx.fail("input 0: rank must be at least 1");
  return ctx.setOutputDims(0, {});
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(FILL, validateFill, inferFill);
NN_DEFINE_OPERATION_SPEC(RANK, validateRank, inferRank);

}  // namespace nn
