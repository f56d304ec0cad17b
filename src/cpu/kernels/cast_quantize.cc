// CAST and QUANTIZE kernels.
// CAST ignores quantization parameters: values convert as plain numbers, float -> integer
// truncates toward zero, and the destination range saturates (uint8 [0, 255], int32 range;
// NaN becomes 0). QUANTIZE computes zeroPoint + round(x / scale) in float and saturates.
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "cpu/kernel.h"
#include "cpu/kernels/elementwise.h"
#include "spec/ops/common.h"

namespace nn {
namespace {

using elementwise::Path;
using elementwise::runUnary;

// ---- CAST ------------------------------------------------------------------------------

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
void castKernel(const OpContext& ctx, Path path) {
  runUnary<From, To>(ctx, path, [](From v) { return convertValue<To, From>(v); });
}

template <typename From>
Status castFrom(OpContext& ctx, Path path) {
  switch (ctx.outputShape(0).type) {
    case OperandType::TENSOR_FLOAT16: castKernel<Half, From>(ctx, path); return kOk;
    case OperandType::TENSOR_FLOAT32: castKernel<float, From>(ctx, path); return kOk;
    case OperandType::TENSOR_INT32: castKernel<int32_t, From>(ctx, path); return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM: castKernel<uint8_t, From>(ctx, path); return kOk;
    default: return ctx.fail("unsupported output type %s", toString(ctx.outputShape(0).type));
  }
}

Status runCast(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  const OperandType in = ctx.inputType(0);
  const OperandType out = ctx.outputShape(0).type;
  if (in == out) {
    // Same type: the bytes are the result (quantization parameters are ignored).
    memcpy(ctx.outputData(0), ctx.inputData(0), ctx.outputShape(0).bytes());
    return kOk;
  }
  switch (in) {
    case OperandType::TENSOR_FLOAT16: return castFrom<Half>(ctx, path);
    case OperandType::TENSOR_FLOAT32: return castFrom<float>(ctx, path);
    case OperandType::TENSOR_INT32: return castFrom<int32_t>(ctx, path);
    case OperandType::TENSOR_QUANT8_ASYMM: return castFrom<uint8_t>(ctx, path);
    default: return ctx.fail("unsupported cast from %s to %s", toString(in), toString(out));
  }
}

Status executeCast(OpContext& ctx) { return runCast(ctx, Path::kFast); }
Status executeCastReference(OpContext& ctx) { return runCast(ctx, Path::kReference); }

// ---- QUANTIZE --------------------------------------------------------------------------

template <typename From, typename To>
void quantizeKernel(const OpContext& ctx, Path path) {
  const float scale = ctx.outputShape(0).scale;
  const float zeroPoint = static_cast<float>(ctx.outputShape(0).zeroPoint);
  constexpr float kLo = std::numeric_limits<To>::min();
  constexpr float kHi = std::numeric_limits<To>::max();
  runUnary<From, To>(ctx, path, [=](From x) {
    const float q = zeroPoint + std::round(static_cast<float>(x) / scale);
    // NaN fails both comparisons and would be undefined to convert: map it to the zero point.
    if (std::isnan(q)) return static_cast<To>(std::min(std::max(zeroPoint, kLo), kHi));
    return static_cast<To>(std::max(kLo, std::min(kHi, q)));
  });
}

template <typename From>
Status quantizeFrom(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED) {
    quantizeKernel<From, int8_t>(ctx, path);
  } else {
    quantizeKernel<From, uint8_t>(ctx, path);
  }
  return kOk;
}

Status runQuantize(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  if (ctx.inputType(0) == OperandType::TENSOR_FLOAT16) return quantizeFrom<Half>(ctx, path);
  return quantizeFrom<float>(ctx, path);
}

Status executeQuantize(OpContext& ctx) { return runQuantize(ctx, Path::kFast); }
Status executeQuantizeReference(OpContext& ctx) { return runQuantize(ctx, Path::kReference); }

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(CAST, executeCast, executeCastReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(QUANTIZE, executeQuantize, executeQuantizeReference, nullptr, nullptr);

}  // namespace nn
