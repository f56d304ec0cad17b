// DEQUANTIZE: signature and shape (the output has the input's shape); per-channel scales
// must match the channel dimension. Kernel: cpu/kernels/dequantize.cc.
#include "spec/operation.h"

namespace nn {
namespace {

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(1, 1));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  const OperandType in = c.inputType(0);
  const OperandType out = c.outputType(0);
  switch (in) {
    case OperandType::TENSOR_QUANT8_ASYMM:
      break;
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
      c.requireFeatureLevel(kFeatureLevel3);
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    default:
      return c.fail("input 0: unsupported type %s (expected an 8-bit quantized tensor)",
                    toString(in));
  }
  if (out == OperandType::TENSOR_FLOAT16) {
    c.requireFeatureLevel(kFeatureLevel3);
  } else if (out != OperandType::TENSOR_FLOAT32) {
    return c.fail("output 0: expected TENSOR_FLOAT32 or TENSOR_FLOAT16, got %s", toString(out));
  }
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(0, 4));
  if (in == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL && c.input(0).channelQuant == nullptr)
    return c.fail("input 0: per-channel quantization parameters are missing");
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  const Shape& in = ctx.inputShape(0);
  if (in.rank() > 4) return ctx.fail("input 0: rank must be <= 4, got %u", in.rank());
  if (in.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    const ChannelQuant* cq = in.channelQuant;
    if (cq == nullptr || cq->channelDim >= in.rank() || cq->scales.size() != in.dims[cq->channelDim])
      return ctx.fail("input 0: per-channel scales do not match the channel dimension");
  }
  return ctx.setOutputDims(0, in.dims);
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(DEQUANTIZE, validate, inferShapes);

}  // namespace nn
