// DEQUANTIZE: output = (input - zeroPoint) * scale, per tensor or per channel.
#include "spec/ops/common.h"
#include "ops/elementwise_util.h"
#include "ops/operation.h"

namespace nn {
namespace {

using elementwise::parallelRange;

Status validateDequantize(ValidationContext& c) {
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

Status prepareDequantize(OpContext& ctx) {
  const Shape& in = ctx.inputShape(0);
  if (in.rank() > 4) return ctx.fail("input 0: rank must be <= 4, got %u", in.rank());
  if (in.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    const ChannelQuant* cq = in.channelQuant;
    if (cq == nullptr || cq->channelDim >= in.rank() || cq->scales.size() != in.dims[cq->channelDim])
      return ctx.fail("input 0: per-channel scales do not match the channel dimension");
  }
  return ctx.setOutputDims(0, in.dims);
}

template <typename TIn, typename TOut>
void dequantizeTensor(const OpContext& ctx, float scale, int32_t zeroPoint) {
  const TIn* in = ctx.input<TIn>(0);
  TOut* out = ctx.output<TOut>(0);
  parallelRange(ctx, ctx.inputShape(0).count(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i)
      out[i] = static_cast<TOut>(static_cast<float>(static_cast<int32_t>(in[i]) - zeroPoint) * scale);
  });
}

template <typename TOut>
void dequantizePerChannel(const OpContext& ctx) {
  const Shape& s = ctx.inputShape(0);
  const ChannelQuant& cq = *s.channelQuant;
  size_t inner = 1;
  for (uint32_t d = cq.channelDim + 1; d < s.rank(); ++d) inner *= s.dims[d];
  const size_t channels = s.dims[cq.channelDim];
  const int8_t* in = ctx.input<int8_t>(0);
  TOut* out = ctx.output<TOut>(0);
  const size_t n = s.count();
  for (size_t i = 0; i < n; ++i) {
    const float scale = cq.scales[(i / inner) % channels];
    out[i] = static_cast<TOut>(static_cast<float>(in[i]) * scale);
  }
}

template <typename TOut>
Status dequantizeTo(OpContext& ctx) {
  const Shape& s = ctx.inputShape(0);
  switch (s.type) {
    case OperandType::TENSOR_QUANT8_ASYMM:
      dequantizeTensor<uint8_t, TOut>(ctx, s.scale, s.zeroPoint);
      return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      dequantizeTensor<int8_t, TOut>(ctx, s.scale, s.zeroPoint);
      return kOk;
    case OperandType::TENSOR_QUANT8_SYMM:
      dequantizeTensor<int8_t, TOut>(ctx, s.scale, 0);
      return kOk;
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
      if (s.channelQuant == nullptr) return ctx.fail("input 0: missing per-channel scales");
      dequantizePerChannel<TOut>(ctx);
      return kOk;
    default:
      return ctx.fail("unsupported input type %s", toString(s.type));
  }
}

Status executeDequantize(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  if (ctx.outputShape(0).type == OperandType::TENSOR_FLOAT16) return dequantizeTo<Half>(ctx);
  return dequantizeTo<float>(ctx);
}

}  // namespace

NN_REGISTER_OPERATION(DEQUANTIZE, validateDequantize, prepareDequantize, executeDequantize);

}  // namespace nn
