// FILL and RANK on the CPU.
#include <algorithm>

#include "cpu/kernel.h"

namespace nn {
namespace {

template <typename T>
void fillWith(OpContext& ctx) {
  const size_t n = static_cast<size_t>(ctx.outputShape(0).count());
  std::fill(ctx.output<T>(0), ctx.output<T>(0) + n, ctx.scalar<T>(1));
}

Status executeFill(OpContext& ctx) {
  switch (ctx.outputShape(0).type) {
    case OperandType::TENSOR_FLOAT32: fillWith<float>(ctx); return kOk;
    case OperandType::TENSOR_FLOAT16: fillWith<Half>(ctx); return kOk;
    case OperandType::TENSOR_INT32: fillWith<int32_t>(ctx); return kOk;
    default: return ctx.fail("unsupported output type %s", toString(ctx.outputShape(0).type));
  }
}

Status executeRank(OpContext& ctx) {
  *ctx.output<int32_t>(0) = static_cast<int32_t>(ctx.inputShape(0).rank());
  return kOk;
}

}  // namespace

NN_DEFINE_CPU_KERNEL(FILL, executeFill);
NN_DEFINE_CPU_KERNEL(RANK, executeRank);

}  // namespace nn
