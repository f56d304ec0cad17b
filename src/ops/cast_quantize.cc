// CAST and QUANTIZE.
// CAST ignores quantization parameters: values convert as plain numbers, float -> integer
// truncates toward zero, and the destination range saturates (uint8 [0, 255], int32 range;
// NaN becomes 0). QUANTIZE computes zeroPoint + round(x / scale) in float and saturates.
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "spec/ops/common.h"
#include "ops/elementwise2_util.h"
#include "ops/operation.h"

namespace nn {
namespace {

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

Status prepareCast(OpContext& ctx) { return ew2::prepareSameShape(ctx); }

template <typename To, typename From>
To convertValue(From v) {
  if constexpr (std::is_integral_v<To> && !std::is_integral_v<From>) {
    const float f = static_cast<float>(v);
    if (std::isnan(f)) return 0;
    // float(max) is max itself for 8-bit types and 2^31 for int32; both are exact bounds.
    constexpr float kLo = static_cast<float>(std::numeric_limits<To>::min());
    constexpr float kHi = static_cast<float>(std::numeric_limits<To>::max());
    if (f <= kLo) return std::numeric_limits<To>::min();
    if (f >= kHi) return std::numeric_limits<To>::max();
    return static_cast<To>(f);
  } else if constexpr (std::is_integral_v<To> && std::is_integral_v<From>) {
    return saturateCast<To>(static_cast<int32_t>(v));
  } else {
    return static_cast<To>(v);
  }
}

template <typename To, typename From>
void castKernel(const OpContext& ctx) {
  ew2::runUnary<From, To>(ctx, [](From v) { return convertValue<To, From>(v); });
}

template <typename From>
Status castFrom(OpContext& ctx) {
  switch (ctx.outputShape(0).type) {
    case OperandType::TENSOR_FLOAT16: castKernel<Half, From>(ctx); return kOk;
    case OperandType::TENSOR_FLOAT32: castKernel<float, From>(ctx); return kOk;
    case OperandType::TENSOR_INT32: castKernel<int32_t, From>(ctx); return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM: castKernel<uint8_t, From>(ctx); return kOk;
    default: return ctx.fail("unsupported output type %s", toString(ctx.outputShape(0).type));
  }
}

Status executeCast(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  const OperandType in = ctx.inputType(0);
  const OperandType out = ctx.outputShape(0).type;
  if (in == out) {
    // Same type: the bytes are the result (quantization parameters are ignored).
    memcpy(ctx.outputData(0), ctx.inputData(0), ctx.outputShape(0).bytes());
    return kOk;
  }
  switch (in) {
    case OperandType::TENSOR_FLOAT16: return castFrom<Half>(ctx);
    case OperandType::TENSOR_FLOAT32: return castFrom<float>(ctx);
    case OperandType::TENSOR_INT32: return castFrom<int32_t>(ctx);
    case OperandType::TENSOR_QUANT8_ASYMM: return castFrom<uint8_t>(ctx);
    default: return ctx.fail("unsupported cast from %s to %s", toString(in), toString(out));
  }
}

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

Status prepareQuantize(OpContext& ctx) { return ew2::prepareSameShape(ctx); }

template <typename From, typename To>
void quantizeKernel(const OpContext& ctx) {
  const float scale = ctx.outputShape(0).scale;
  const float zeroPoint = static_cast<float>(ctx.outputShape(0).zeroPoint);
  constexpr float kLo = std::numeric_limits<To>::min();
  constexpr float kHi = std::numeric_limits<To>::max();
  ew2::runUnary<From, To>(ctx, [=](From x) {
    const float q = zeroPoint + std::round(static_cast<float>(x) / scale);
    // NaN fails both comparisons and would be undefined to convert: map it to the zero point.
    if (std::isnan(q)) return static_cast<To>(std::min(std::max(zeroPoint, kLo), kHi));
    return static_cast<To>(std::max(kLo, std::min(kHi, q)));
  });
}

template <typename From>
Status quantizeFrom(OpContext& ctx) {
  if (ctx.outputShape(0).type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED) {
    quantizeKernel<From, int8_t>(ctx);
  } else {
    quantizeKernel<From, uint8_t>(ctx);
  }
  return kOk;
}

Status executeQuantize(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  if (ctx.inputType(0) == OperandType::TENSOR_FLOAT16) return quantizeFrom<Half>(ctx);
  return quantizeFrom<float>(ctx);
}

}  // namespace

NN_REGISTER_OPERATION(CAST, validateCast, prepareCast, executeCast);
NN_REGISTER_OPERATION(QUANTIZE, validateQuantize, prepareQuantize, executeQuantize);

}  // namespace nn
