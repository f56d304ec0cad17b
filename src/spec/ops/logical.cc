// LOGICAL_AND, LOGICAL_OR (broadcasting), LOGICAL_NOT on TENSOR_BOOL8, and SELECT:
// signatures and shapes. Kernels: cpu/kernels/logical.cc.
#include "spec/operation.h"
#include "spec/ops/elementwise.h"

namespace nn {
namespace {

// ---- LOGICAL_AND / LOGICAL_OR ----------------------------------------------------------

Status validateLogicalBinary(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(c.checkInputTypes({OperandType::TENSOR_BOOL8, OperandType::TENSOR_BOOL8}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({OperandType::TENSOR_BOOL8}));
  return elementwise::checkBroadcastable(c, 0, 1);
}

Status inferLogicalBinary(ShapeContext& ctx) { return elementwise::inferBroadcast(ctx, 0, 1); }

// ---- LOGICAL_NOT -----------------------------------------------------------------------

Status validateLogicalNot(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(1, 1));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(c.checkInputTypes({OperandType::TENSOR_BOOL8}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({OperandType::TENSOR_BOOL8}));
  return kOk;
}

Status inferLogicalNot(ShapeContext& ctx) { return elementwise::inferSameShape(ctx); }

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
  if (elementwise::isQuant8(t)) {
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

Status inferSelect(ShapeContext& ctx) {
  const Dims& cond = ctx.inputShape(0).dims;
  for (uint32_t i = 1; i < 3; ++i) {
    if (ctx.inputShape(i).dims != cond)
      return ctx.fail("input %u %s must have the shape of input 0 %s", i,
                      toString(ctx.inputShape(i).dims).c_str(), toString(cond).c_str());
  }
  return elementwise::inferSameShape(ctx, 1);
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(LOGICAL_AND, validateLogicalBinary, inferLogicalBinary);
NN_DEFINE_OPERATION_SPEC(LOGICAL_OR, validateLogicalBinary, inferLogicalBinary);
NN_DEFINE_OPERATION_SPEC(LOGICAL_NOT, validateLogicalNot, inferLogicalNot);
NN_DEFINE_OPERATION_SPEC(SELECT, validateSelect, inferSelect);

}  // namespace nn
