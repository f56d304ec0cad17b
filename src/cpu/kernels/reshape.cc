// RESHAPE and SQUEEZE on the CPU: the output holds the input's bytes unchanged.
#include <cstring>

#include "cpu/kernel.h"

namespace nn {
namespace {

Status copyInputToOutput(OpContext& ctx) {
  const size_t bytes = ctx.outputShape(0).bytes();
  if (bytes == 0) return kOk;
  if (ctx.inputShape(0).bytes() != bytes)
    return ctx.fail("input holds %zu bytes but output needs %zu", ctx.inputShape(0).bytes(),
                    bytes);
  if (ctx.outputData(0) != ctx.inputData(0)) memcpy(ctx.outputData(0), ctx.inputData(0), bytes);
  return kOk;
}

}  // namespace

NN_DEFINE_CPU_KERNEL(RESHAPE, copyInputToOutput);
NN_DEFINE_CPU_KERNEL(SQUEEZE, copyInputToOutput);

}  // namespace nn
