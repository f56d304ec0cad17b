// LOGICAL_AND, LOGICAL_OR (broadcasting), LOGICAL_NOT and SELECT kernels.
// Any non-zero BOOL8 byte reads as true; outputs are 0 or 1. Quantized SELECT requantizes the
// chosen element from its input's scale/zero point to the output's.
#include <cstdint>

#include "cpu/kernel.h"
#include "cpu/kernels/elementwise.h"

namespace nn {
namespace {

using elementwise::Path;

// ---- LOGICAL_AND / LOGICAL_OR ----------------------------------------------------------

Status runLogicalBinary(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  if (ctx.type() == OperationType::LOGICAL_AND) {
    elementwise::runBroadcast<uint8_t, uint8_t>(
        ctx, path, 0, 1,
        [](uint8_t a, uint8_t b) { return static_cast<uint8_t>(a != 0 && b != 0); });
  } else {
    elementwise::runBroadcast<uint8_t, uint8_t>(
        ctx, path, 0, 1,
        [](uint8_t a, uint8_t b) { return static_cast<uint8_t>(a != 0 || b != 0); });
  }
  return kOk;
}

Status executeLogicalBinary(OpContext& ctx) { return runLogicalBinary(ctx, Path::kFast); }
Status executeLogicalBinaryReference(OpContext& ctx) {
  return runLogicalBinary(ctx, Path::kReference);
}

// ---- LOGICAL_NOT -----------------------------------------------------------------------

Status runLogicalNot(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  elementwise::runUnary<uint8_t, uint8_t>(ctx, path,
                                          [](uint8_t x) { return static_cast<uint8_t>(x == 0); });
  return kOk;
}

Status executeLogicalNot(OpContext& ctx) { return runLogicalNot(ctx, Path::kFast); }
Status executeLogicalNotReference(OpContext& ctx) { return runLogicalNot(ctx, Path::kReference); }

// ---- SELECT ----------------------------------------------------------------------------

template <typename T, typename F>
void selectKernel(const OpContext& ctx, Path path, const F& pick) {
  const uint8_t* cond = ctx.input<uint8_t>(0);
  const T* a = ctx.input<T>(1);
  const T* b = ctx.input<T>(2);
  T* out = ctx.output<T>(0);
  elementwise::parallelRange(ctx, path, ctx.outputShape(0).count(), [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) out[i] = pick(cond[i] != 0, a[i], b[i]);
  });
}

template <typename T>
void selectPlain(const OpContext& ctx, Path path) {
  selectKernel<T>(ctx, path, [](bool c, T a, T b) { return c ? a : b; });
}

template <typename T>
void selectQuant(const OpContext& ctx, Path path) {
  const Shape& sa = ctx.inputShape(1);
  const Shape& sb = ctx.inputShape(2);
  const Shape& so = ctx.outputShape(0);
  selectKernel<T>(ctx, path, [&](bool c, T a, T b) {
    return c ? elementwise::requantize<T>(a, sa, so) : elementwise::requantize<T>(b, sb, so);
  });
}

Status runSelect(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  switch (ctx.inputType(1)) {
    case OperandType::TENSOR_FLOAT16: selectPlain<uint16_t>(ctx, path); return kOk;
    case OperandType::TENSOR_FLOAT32: selectPlain<uint32_t>(ctx, path); return kOk;
    case OperandType::TENSOR_INT32: selectPlain<int32_t>(ctx, path); return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM: selectQuant<uint8_t>(ctx, path); return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: selectQuant<int8_t>(ctx, path); return kOk;
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(1)));
  }
}

Status executeSelect(OpContext& ctx) { return runSelect(ctx, Path::kFast); }
Status executeSelectReference(OpContext& ctx) { return runSelect(ctx, Path::kReference); }

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(LOGICAL_AND, executeLogicalBinary, executeLogicalBinaryReference,
                          nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(LOGICAL_OR, executeLogicalBinary, executeLogicalBinaryReference,
                          nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(LOGICAL_NOT, executeLogicalNot, executeLogicalNotReference, nullptr,
                          nullptr);
NN_DEFINE_CPU_KERNEL_FULL(SELECT, executeSelect, executeSelectReference, nullptr, nullptr);

}  // namespace nn
