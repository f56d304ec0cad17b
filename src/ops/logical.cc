// LOGICAL_AND, LOGICAL_OR (broadcasting), LOGICAL_NOT on TENSOR_BOOL8, and SELECT.
// Any non-zero BOOL8 byte reads as true; outputs are 0 or 1. Quantized SELECT requantizes the
// chosen element from its input's scale/zero point to the output's.
#include <cstdint>

#include "spec/ops/common.h"
#include "ops/elementwise2_util.h"
#include "ops/operation.h"

namespace nn {
namespace {

// ---- LOGICAL_AND / LOGICAL_OR ----------------------------------------------------------

Status validateLogicalBinary(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(c.checkInputTypes({OperandType::TENSOR_BOOL8, OperandType::TENSOR_BOOL8}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({OperandType::TENSOR_BOOL8}));
  return ew2::checkBroadcastable(c, 0, 1);
}

Status prepareLogicalBinary(OpContext& ctx) { return ew2::prepareBroadcast(ctx, 0, 1); }

Status executeLogicalBinary(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  if (ctx.type() == OperationType::LOGICAL_AND) {
    ew2::runBroadcast<uint8_t, uint8_t>(
        ctx, 0, 1, [](uint8_t a, uint8_t b) { return static_cast<uint8_t>(a != 0 && b != 0); });
  } else {
    ew2::runBroadcast<uint8_t, uint8_t>(
        ctx, 0, 1, [](uint8_t a, uint8_t b) { return static_cast<uint8_t>(a != 0 || b != 0); });
  }
  return kOk;
}

// ---- LOGICAL_NOT -----------------------------------------------------------------------

Status validateLogicalNot(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(1, 1));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(c.checkInputTypes({OperandType::TENSOR_BOOL8}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({OperandType::TENSOR_BOOL8}));
  return kOk;
}

Status prepareLogicalNot(OpContext& ctx) { return ew2::prepareSameShape(ctx); }

Status executeLogicalNot(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  ew2::runUnary<uint8_t, uint8_t>(ctx, [](uint8_t x) { return static_cast<uint8_t>(x == 0); });
  return kOk;
}

// ---- SELECT ----------------------------------------------------------------------------

Status validateSelect(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 3));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  const OperandType t = c.inputType(1);
  switch (t) {
    case OperandType::TENSOR_FLOAT16:
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_INT32:
    case OperandType::TENSOR_QUANT8_ASYMM:
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    default:
      return c.fail("input 1: unsupported type %s", toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputTypes({OperandType::TENSOR_BOOL8, t, t}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t}));
  if (ew2::isQuant8(t)) {
    if (!(c.input(1).scale > 0.f) || !(c.input(2).scale > 0.f) || !(c.output(0).scale > 0.f))
      return c.fail("quantized scales must be > 0 (input1 %g, input2 %g, output %g)",
                    c.input(1).scale, c.input(2).scale, c.output(0).scale);
  }
  // All three inputs must have the same shape; reject known mismatches early.
  for (uint32_t i = 1; i < 3; ++i) {
    const Dims& a = c.input(0).dimensions;
    const Dims& b = c.input(i).dimensions;
    if (a.empty() || b.empty()) continue;
    bool mismatch = a.size() != b.size();
    for (size_t k = 0; !mismatch && k < a.size(); ++k) mismatch = a[k] != 0 && b[k] != 0 && a[k] != b[k];
    if (mismatch)
      return c.fail("input %u %s must have the shape of input 0 %s", i, toString(b).c_str(),
                    toString(a).c_str());
  }
  return kOk;
}

Status prepareSelect(OpContext& ctx) {
  const Dims& cond = ctx.inputShape(0).dims;
  for (uint32_t i = 1; i < 3; ++i) {
    if (ctx.inputShape(i).dims != cond)
      return ctx.fail("input %u %s must have the shape of input 0 %s", i,
                      toString(ctx.inputShape(i).dims).c_str(), toString(cond).c_str());
  }
  return ew2::prepareSameShape(ctx, 1);
}

template <typename T, typename F>
void selectKernel(const OpContext& ctx, const F& pick) {
  const uint8_t* cond = ctx.input<uint8_t>(0);
  const T* a = ctx.input<T>(1);
  const T* b = ctx.input<T>(2);
  T* out = ctx.output<T>(0);
  elementwise::parallelRange(ctx, ctx.outputShape(0).count(), [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) out[i] = pick(cond[i] != 0, a[i], b[i]);
  });
}

template <typename T>
void selectPlain(const OpContext& ctx) {
  selectKernel<T>(ctx, [](bool c, T a, T b) { return c ? a : b; });
}

template <typename T>
void selectQuant(const OpContext& ctx) {
  const Shape& sa = ctx.inputShape(1);
  const Shape& sb = ctx.inputShape(2);
  const Shape& so = ctx.outputShape(0);
  selectKernel<T>(ctx, [&](bool c, T a, T b) {
    return c ? ew2::requantize<T>(a, sa, so) : ew2::requantize<T>(b, sb, so);
  });
}

Status executeSelect(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  switch (ctx.inputType(1)) {
    case OperandType::TENSOR_FLOAT16: selectPlain<uint16_t>(ctx); return kOk;
    case OperandType::TENSOR_FLOAT32: selectPlain<uint32_t>(ctx); return kOk;
    case OperandType::TENSOR_INT32: selectPlain<int32_t>(ctx); return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM: selectQuant<uint8_t>(ctx); return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: selectQuant<int8_t>(ctx); return kOk;
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(1)));
  }
}

}  // namespace

NN_REGISTER_OPERATION(LOGICAL_AND, validateLogicalBinary, prepareLogicalBinary, executeLogicalBinary);
NN_REGISTER_OPERATION(LOGICAL_OR, validateLogicalBinary, prepareLogicalBinary, executeLogicalBinary);
NN_REGISTER_OPERATION(LOGICAL_NOT, validateLogicalNot, prepareLogicalNot, executeLogicalNot);
NN_REGISTER_OPERATION(SELECT, validateSelect, prepareSelect, executeSelect);

}  // namespace nn
