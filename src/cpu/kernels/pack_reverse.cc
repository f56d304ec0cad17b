// PACK and REVERSE kernels: pure data movement, one byte-level kernel for every type.
#include <cstring>

#include "cpu/kernel.h"
#include "spec/ops/elementwise.h"
#include "spec/ops/pack_reverse.h"

namespace nn {
namespace {

// Each input contributes one contiguous block per outer index, interleaved in input order.
Status executePack(OpContext& ctx) {
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(pack_reverse::resolvePackAxis(ctx, &axis));
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

// Blocks of the inner dimensions move whole, in reverse order along the axis.
Status executeReverse(OpContext& ctx) {
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(pack_reverse::resolveReverseAxis(ctx, &axis));
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

NN_DEFINE_CPU_KERNEL(PACK, executePack);
NN_DEFINE_CPU_KERNEL(REVERSE, executeReverse);

}  // namespace nn
