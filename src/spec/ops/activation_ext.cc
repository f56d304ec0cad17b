// HARD_SWISH, ELU, LOG_SOFTMAX: signatures and shapes (each output has its input's shape).
// Kernels: cpu/kernels/activation_ext.cc.
#include "spec/operation.h"
#include "spec/ops/elementwise.h"
#include "spec/ops/elementwise_quant.h"

namespace nn {
namespace {

using elementwise::floatScalarFor;
using elementwise::inferSameShape;
using elementwise::isQuant8;

// Input 0 float32/float16 (plus quant8 variants when allowQuant), output 0 of the same type.
Status checkUnaryTensor(ValidationContext& c, bool allowQuant, OperandType* type) {
  const OperandType t = c.inputType(0);
  switch (t) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_FLOAT16:
      break;
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      if (allowQuant) break;
      [[fallthrough]];
    default:
      return c.fail("input 0: unsupported type %s (expected TENSOR_FLOAT32 or TENSOR_FLOAT16%s)",
                    toString(t), allowQuant ? " or TENSOR_QUANT8_ASYMM[_SIGNED]" : "");
  }
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t}));
  *type = t;
  return kOk;
}

// ---- HARD_SWISH ------------------------------------------------------------------------

Status validateHardSwish(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(1, 1));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel4);
  OperandType t;
  NN_RETURN_IF_ERROR(checkUnaryTensor(c, true, &t));
  if (isQuant8(t)) {
    if (!(c.input(0).scale > 0.f)) return c.fail("input 0: scale must be > 0, got %g", c.input(0).scale);
    if (!(c.output(0).scale > 0.f)) return c.fail("output 0: scale must be > 0, got %g", c.output(0).scale);
  }
  return kOk;
}

Status inferHardSwish(ShapeContext& ctx) {
  if (isQuant8(ctx.inputType(0))) {
    elementwise::HardSwishParams p;
    if (!elementwise::computeHardSwishParams(ctx.inputShape(0), ctx.outputShape(0), &p))
      return ctx.fail("input scale %g and output scale %g give a rescaling multiplier outside the "
                      "supported range (output scale must be >= input scale / 128)",
                      ctx.inputShape(0).scale, ctx.outputShape(0).scale);
  }
  return inferSameShape(ctx);
}

// ---- ELU -------------------------------------------------------------------------------

Status validateElu(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel4);
  OperandType t;
  NN_RETURN_IF_ERROR(checkUnaryTensor(c, false, &t));
  NN_RETURN_IF_ERROR(c.checkInputType(1, floatScalarFor(t)));
  return kOk;
}

Status inferElu(ShapeContext& ctx) { return inferSameShape(ctx); }

// ---- LOG_SOFTMAX -----------------------------------------------------------------------

constexpr uint32_t kBeta = 1;
constexpr uint32_t kAxis = 2;

Status validateLogSoftmax(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 3));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  OperandType t;
  NN_RETURN_IF_ERROR(checkUnaryTensor(c, false, &t));
  NN_RETURN_IF_ERROR(c.checkInputType(kBeta, floatScalarFor(t)));
  NN_RETURN_IF_ERROR(c.checkInputType(kAxis, OperandType::INT32));
  int32_t axis = 0;
  const Dims& d = c.input(0).dimensions;
  if (!d.empty() && c.constantScalar(kAxis, &axis)) {
    uint32_t resolved;
    if (!elementwise::resolveAxis(axis, static_cast<uint32_t>(d.size()), &resolved))
      return c.fail("input 2: axis must be in [-%zu, %zu), got %d", d.size(), d.size(), axis);
  }
  return kOk;
}

Status inferLogSoftmax(ShapeContext& ctx) {
  const Shape& in = ctx.inputShape(0);
  if (in.rank() == 0) return ctx.fail("input 0: rank must be >= 1");
  if (!ctx.hasInputData(kAxis)) return kDeferred;
  const int32_t axis = ctx.scalar<int32_t>(kAxis);
  uint32_t resolved;
  if (!elementwise::resolveAxis(axis, in.rank(), &resolved))
    return ctx.fail("input 2: axis must be in [-%u, %u), got %d", in.rank(), in.rank(), axis);
  return inferSameShape(ctx);
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(HARD_SWISH, validateHardSwish, inferHardSwish);
NN_DEFINE_OPERATION_SPEC(ELU, validateElu, inferElu);
NN_DEFINE_OPERATION_SPEC(LOG_SOFTMAX, validateLogSoftmax, inferLogSoftmax);

}  // namespace nn
