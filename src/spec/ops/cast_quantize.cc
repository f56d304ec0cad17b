// CAST and QUANTIZE: signatures; the output has the input's shape. Kernels:
// cpu/kernels/cast_quantize.cc.
#include "spec/operation.h"
#include "spec/ops/elementwise.h"

namespace nn {
namespace {

using elementwise::inferSameShape;

// ---- CAST ------------------------------------------------------------------------------

// The four types that convert into each other since feature level 3.
bool isNumericCastType(OperandType t) {
  return t == OperandType::TENSOR_FLOAT16 || t == OperandType::TENSOR_FLOAT32 ||
         t == OperandType::TENSOR_INT32 || t == OperandType::TENSOR_QUANT8_ASYMM;
}

// Types that only cast to themselves, since feature level 4.
bool isIdentityOnlyCastType(OperandType t) {
  return t == OperandType::TENSOR_BOOL8 || t == OperandType::TENSOR_QUANT16_ASYMM ||
         t == OperandType::TENSOR_QUANT16_SYMM || t == OperandType::TENSOR_QUANT8_ASYMM_SIGNED ||
         t == OperandType::TENSOR_QUANT8_SYMM;
}

Status validateCast(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(1, 1));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  const OperandType in = c.inputType(0);
  const OperandType out = c.outputType(0);
  if (isNumericCastType(in) && isNumericCastType(out)) {
    if (in == OperandType::TENSOR_INT32 && out == OperandType::TENSOR_INT32)
      c.requireFeatureLevel(kFeatureLevel4);
    return kOk;
  }
  if (isIdentityOnlyCastType(in) || isIdentityOnlyCastType(out)) {
    if (in != out)
      return c.fail("input 0 %s can only be cast to the same type, got output %s", toString(in),
                    toString(out));
    c.requireFeatureLevel(kFeatureLevel4);
    return kOk;
  }
  return c.fail("unsupported cast from %s to %s (expected TENSOR_FLOAT16, TENSOR_FLOAT32, "
                "TENSOR_INT32 or TENSOR_QUANT8_ASYMM)",
                toString(in), toString(out));
}

Status inferCast(ShapeContext& ctx) { return inferSameShape(ctx); }

// ---- QUANTIZE --------------------------------------------------------------------------

Status validateQuantize(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(1, 1));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  const OperandType in = c.inputType(0);
  if (in != OperandType::TENSOR_FLOAT32 && in != OperandType::TENSOR_FLOAT16)
    return c.fail("input 0: expected TENSOR_FLOAT32 or TENSOR_FLOAT16, got %s", toString(in));
  const OperandType out = c.outputType(0);
  if (out == OperandType::TENSOR_QUANT8_ASYMM_SIGNED) {
    c.requireFeatureLevel(kFeatureLevel4);
  } else if (out != OperandType::TENSOR_QUANT8_ASYMM) {
    return c.fail("output 0: expected TENSOR_QUANT8_ASYMM or TENSOR_QUANT8_ASYMM_SIGNED, got %s",
                  toString(out));
  }
  if (!(c.output(0).scale > 0.f)) return c.fail("output 0: scale must be > 0, got %g", c.output(0).scale);
  return kOk;
}

Status inferQuantize(ShapeContext& ctx) { return inferSameShape(ctx); }

}  // namespace

NN_DEFINE_OPERATION_SPEC(CAST, validateCast, inferCast);
NN_DEFINE_OPERATION_SPEC(QUANTIZE, validateQuantize, inferQuantize);

}  // namespace nn
