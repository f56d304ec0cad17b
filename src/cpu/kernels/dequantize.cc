// DEQUANTIZE kernel: output = (input - zeroPoint) * scale, per tensor or per channel.
// Per-tensor dequantization is split across the thread pool on the fast device.
#include "cpu/kernel.h"
#include "cpu/kernels/elementwise.h"

namespace nn {
namespace {

using elementwise::Path;

template <typename TIn, typename TOut>
void dequantizeTensor(const OpContext& ctx, Path path, float scale, int32_t zeroPoint) {
  const TIn* in = ctx.input<TIn>(0);
  TOut* out = ctx.output<TOut>(0);
  elementwise::parallelRange(ctx, path, ctx.inputShape(0).count(), [&](size_t b, size_t e) {
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
Status dequantizeTo(OpContext& ctx, Path path) {
  const Shape& s = ctx.inputShape(0);
  switch (s.type) {
    case OperandType::TENSOR_QUANT8_ASYMM:
      dequantizeTensor<uint8_t, TOut>(ctx, path, s.scale, s.zeroPoint);
      return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      dequantizeTensor<int8_t, TOut>(ctx, path, s.scale, s.zeroPoint);
      return kOk;
    case OperandType::TENSOR_QUANT8_SYMM:
      dequantizeTensor<int8_t, TOut>(ctx, path, s.scale, 0);
      return kOk;
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
      if (s.channelQuant == nullptr) return ctx.fail("input 0: missing per-channel scales");
      dequantizePerChannel<TOut>(ctx);
      return kOk;
    default:
      return ctx.fail("unsupported input type %s", toString(s.type));
  }
}

Status run(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  if (ctx.outputShape(0).type == OperandType::TENSOR_FLOAT16) return dequantizeTo<Half>(ctx, path);
  return dequantizeTo<float>(ctx, path);
}

Status execute(OpContext& ctx) { return run(ctx, Path::kFast); }
Status executeReference(OpContext& ctx) { return run(ctx, Path::kReference); }

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(DEQUANTIZE, execute, executeReference, nullptr, nullptr);

}  // namespace nn
