// POW, MAXIMUM, MINIMUM, PRELU: broadcasting binary operations without a fused activation.
// Quantized MAXIMUM/MINIMUM requantize both inputs to the output scale (float real value,
// double division, round half away from zero) and then compare, as the reference does.
// Quantized PRELU uses two fixed-point multipliers: inScale/outScale for x >= 0 and
// inScale*alphaScale/outScale for the product x*alpha.
#include <cmath>
#include <limits>
#include <type_traits>

#include "spec/ops/common.h"
#include "ops/elementwise2_util.h"
#include "ops/operation.h"

namespace nn {
namespace {

using ew2::isQuant8;

Status validateBinaryExt(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  const OperationType op = c.type();
  const OperandType t = c.inputType(0);
  switch (t) {
    case OperandType::TENSOR_FLOAT16:
    case OperandType::TENSOR_FLOAT32:
      break;
    case OperandType::TENSOR_INT32:
      if (op == OperationType::MAXIMUM || op == OperationType::MINIMUM) break;
      return c.fail("input 0: %s does not support TENSOR_INT32", c.name());
    case OperandType::TENSOR_QUANT8_ASYMM:
      if (op == OperationType::POW) return c.fail("input 0: POW does not support %s", toString(t));
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      if (op == OperationType::POW) return c.fail("input 0: POW does not support %s", toString(t));
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    default:
      return c.fail("input 0: unsupported type %s", toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputTypes({t, t}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t}));
  if (isQuant8(t)) {
    if (!(c.input(0).scale > 0.f) || !(c.input(1).scale > 0.f) || !(c.output(0).scale > 0.f))
      return c.fail("quantized scales must be > 0 (input0 %g, input1 %g, output %g)",
                    c.input(0).scale, c.input(1).scale, c.output(0).scale);
  }
  return ew2::checkBroadcastable(c, 0, 1);
}

// ---- PRELU quantization ----------------------------------------------------------------

struct PreluParams {
  int32_t inOffset, alphaOffset, outOffset;
  int32_t multPos, multNeg;
  int shiftPos, shiftNeg;
};

bool computePreluParams(const Shape& in, const Shape& alpha, const Shape& out, PreluParams* p) {
  // Products and quotients in the precision the reference uses (float, then double).
  const double inputProductScale = in.scale * alpha.scale;
  const double realPos = in.scale / out.scale;
  const double realNeg = inputProductScale / out.scale;
  if (!quantizeMultiplier(realPos, &p->multPos, &p->shiftPos)) return false;
  if (!quantizeMultiplier(realNeg, &p->multNeg, &p->shiftNeg)) return false;
  p->inOffset = -in.zeroPoint;
  p->alphaOffset = -alpha.zeroPoint;
  p->outOffset = out.zeroPoint;
  return true;
}

template <typename T>
T preluQuant(T x, T a, const PreluParams& p) {
  const int32_t input = p.inOffset + static_cast<int32_t>(x);
  int32_t v;
  if (input >= 0) {
    v = p.outOffset + multiplyByQuantizedMultiplier(input, p.multPos, p.shiftPos);
  } else {
    const int32_t alpha = p.alphaOffset + static_cast<int32_t>(a);
    v = p.outOffset + multiplyByQuantizedMultiplier(input * alpha, p.multNeg, p.shiftNeg);
  }
  return saturateCast<T>(v);
}

Status prepareBinaryExt(OpContext& ctx) {
  if (ctx.type() == OperationType::PRELU && isQuant8(ctx.inputType(0))) {
    PreluParams p;
    if (!computePreluParams(ctx.inputShape(0), ctx.inputShape(1), ctx.outputShape(0), &p))
      return ctx.fail("quantization scales (input %g, alpha %g, output %g) give a rescaling "
                      "multiplier outside the supported range",
                      ctx.inputShape(0).scale, ctx.inputShape(1).scale, ctx.outputShape(0).scale);
  }
  return ew2::prepareBroadcast(ctx, 0, 1);
}

// ---- kernels ---------------------------------------------------------------------------

template <typename T, typename F>
void floatBinary(const OpContext& ctx, const F& f) {
  ew2::runBroadcast<T, T>(ctx, 0, 1, [&f](T a, T b) {
    return static_cast<T>(f(static_cast<float>(a), static_cast<float>(b)));
  });
}

template <typename T>
Status executeFloat(OpContext& ctx) {
  switch (ctx.type()) {
    case OperationType::POW:
      floatBinary<T>(ctx, [](float a, float b) { return std::pow(a, b); });
      return kOk;
    case OperationType::MAXIMUM:
      floatBinary<T>(ctx, [](float a, float b) { return std::max(a, b); });
      return kOk;
    case OperationType::MINIMUM:
      floatBinary<T>(ctx, [](float a, float b) { return std::min(a, b); });
      return kOk;
    case OperationType::PRELU:
      floatBinary<T>(ctx, [](float x, float alpha) { return x >= 0.f ? x : x * alpha; });
      return kOk;
    default:
      return ctx.fail("unexpected operation");
  }
}

Status executeInt32(OpContext& ctx) {
  if (ctx.type() == OperationType::MAXIMUM) {
    ew2::runBroadcast<int32_t, int32_t>(ctx, 0, 1, [](int32_t a, int32_t b) { return std::max(a, b); });
  } else {
    ew2::runBroadcast<int32_t, int32_t>(ctx, 0, 1, [](int32_t a, int32_t b) { return std::min(a, b); });
  }
  return kOk;
}

template <typename T>
Status executeMinMaxQuant(OpContext& ctx, bool isMax) {
  const Shape& sa = ctx.inputShape(0);
  const Shape& sb = ctx.inputShape(1);
  const Shape& so = ctx.outputShape(0);
  if (ctx.useReferenceKernels()) {
    ew2::runBroadcast<T, T>(ctx, 0, 1, [&](T a, T b) {
      const T ra = ew2::requantize<T>(a, sa, so), rb = ew2::requantize<T>(b, sb, so);
      return isMax ? std::max(ra, rb) : std::min(ra, rb);
    });
    return kOk;
  }
  // 8-bit inputs: requantize through two 256-entry tables.
  constexpr int kBias = std::is_signed<T>::value ? 128 : 0;
  T ta[256], tb[256];
  for (int v = 0; v < 256; ++v) {
    ta[v] = ew2::requantize<T>(static_cast<T>(v - kBias), sa, so);
    tb[v] = ew2::requantize<T>(static_cast<T>(v - kBias), sb, so);
  }
  if (isMax) {
    ew2::runBroadcast<T, T>(ctx, 0, 1, [&](T a, T b) {
      return std::max(ta[static_cast<int>(a) + kBias], tb[static_cast<int>(b) + kBias]);
    });
  } else {
    ew2::runBroadcast<T, T>(ctx, 0, 1, [&](T a, T b) {
      return std::min(ta[static_cast<int>(a) + kBias], tb[static_cast<int>(b) + kBias]);
    });
  }
  return kOk;
}

template <typename T>
Status executeQuant(OpContext& ctx) {
  switch (ctx.type()) {
    case OperationType::MAXIMUM: return executeMinMaxQuant<T>(ctx, true);
    case OperationType::MINIMUM: return executeMinMaxQuant<T>(ctx, false);
    case OperationType::PRELU: {
      PreluParams p;
      if (!computePreluParams(ctx.inputShape(0), ctx.inputShape(1), ctx.outputShape(0), &p))
        return ctx.fail("unsupported quantization scales");
      ew2::runBroadcast<T, T>(ctx, 0, 1, [&p](T x, T a) { return preluQuant<T>(x, a, p); });
      return kOk;
    }
    default:
      return ctx.fail("unexpected operation for a quantized type");
  }
}

Status executeBinaryExt(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32: return executeFloat<float>(ctx);
    case OperandType::TENSOR_FLOAT16: return executeFloat<Half>(ctx);
    case OperandType::TENSOR_INT32: return executeInt32(ctx);
    case OperandType::TENSOR_QUANT8_ASYMM: return executeQuant<uint8_t>(ctx);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return executeQuant<int8_t>(ctx);
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

}  // namespace

NN_REGISTER_OPERATION(POW, validateBinaryExt, prepareBinaryExt, executeBinaryExt);
NN_REGISTER_OPERATION(MAXIMUM, validateBinaryExt, prepareBinaryExt, executeBinaryExt);
NN_REGISTER_OPERATION(MINIMUM, validateBinaryExt, prepareBinaryExt, executeBinaryExt);
NN_REGISTER_OPERATION(PRELU, validateBinaryExt, prepareBinaryExt, executeBinaryExt);

}  // namespace nn
