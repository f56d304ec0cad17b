// Unary activations: RELU, RELU1, RELU6, LOGISTIC, TANH, FLOOR.
// Quantized RELU* clamp in the quantized domain; quantized LOGISTIC/TANH rescale the input to
// Q4.27 and evaluate the gemmlowp fixed-point logistic/tanh (ops/fixed_point.h), exactly as
// the NNAPI reference does.
#include <cmath>
#include <type_traits>

#include "spec/ops/common.h"
#include "ops/elementwise_util.h"
#include "cpu/kernels/fixed_point.h"
#include "ops/operation.h"

namespace nn {
namespace {

using elementwise::parallelRange;
using elementwise::vexp;

bool isQuant8(OperandType t) {
  return t == OperandType::TENSOR_QUANT8_ASYMM || t == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
}

Status validateActivation(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(1, 1));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  const OperationType op = c.type();
  const OperandType t = c.inputType(0);
  switch (t) {
    case OperandType::TENSOR_FLOAT32:
      break;
    case OperandType::TENSOR_FLOAT16:
      c.requireFeatureLevel(kFeatureLevel3);
      break;
    case OperandType::TENSOR_QUANT8_ASYMM:
      if (op == OperationType::FLOOR) return c.fail("input 0: FLOOR does not support %s", toString(t));
      if (op == OperationType::TANH) c.requireFeatureLevel(kFeatureLevel3);
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      if (op == OperationType::FLOOR) return c.fail("input 0: FLOOR does not support %s", toString(t));
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    default:
      return c.fail("input 0: unsupported type %s", toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t}));
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(0, 4));
  if (isQuant8(t)) {
    const Operand& in = c.input(0);
    const Operand& out = c.output(0);
    const bool isSigned = t == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
    if (!(in.scale > 0.f)) return c.fail("input 0: scale must be > 0, got %g", in.scale);
    if (op == OperationType::LOGISTIC) {
      const int32_t zp = isSigned ? -128 : 0;
      if (out.scale != 1.f / 256 || out.zeroPoint != zp)
        return c.fail("output: scale must be 1/256 and zeroPoint %d, got %g and %d", zp, out.scale,
                      out.zeroPoint);
    } else if (op == OperationType::TANH) {
      const int32_t zp = isSigned ? 0 : 128;
      if (out.scale != 1.f / 128 || out.zeroPoint != zp)
        return c.fail("output: scale must be 1/128 and zeroPoint %d, got %g and %d", zp, out.scale,
                      out.zeroPoint);
    } else if (out.scale != in.scale || out.zeroPoint != in.zeroPoint) {
      return c.fail("output: scale and zeroPoint must equal the input's (%g, %d), got %g and %d",
                    in.scale, in.zeroPoint, out.scale, out.zeroPoint);
    }
  }
  return kOk;
}

Status prepareActivation(OpContext& ctx) {
  const Shape& in = ctx.inputShape(0);
  if (in.rank() > 4) return ctx.fail("input 0: rank must be <= 4, got %u", in.rank());
  return ctx.setOutputDims(0, in.dims);
}

// ---- float kernels (T = float or Half; arithmetic in float) ----------------------------

template <typename T, typename F>
void unaryFloat(const OpContext& ctx, const F& f) {
  const T* in = ctx.input<T>(0);
  T* out = ctx.output<T>(0);
  parallelRange(ctx, ctx.inputShape(0).count(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) out[i] = static_cast<T>(f(static_cast<float>(in[i])));
  });
}

template <typename T>
Status executeFloat(OpContext& ctx) {
  const bool ref = ctx.useReferenceKernels();
  switch (ctx.type()) {
    case OperationType::RELU:
      unaryFloat<T>(ctx, [](float x) { return std::max(x, 0.f); });
      break;
    case OperationType::RELU1:
      unaryFloat<T>(ctx, [](float x) { return std::min(std::max(x, -1.f), 1.f); });
      break;
    case OperationType::RELU6:
      unaryFloat<T>(ctx, [](float x) { return std::min(std::max(x, 0.f), 6.f); });
      break;
    case OperationType::FLOOR:
      unaryFloat<T>(ctx, [](float x) { return std::floor(x); });
      break;
    case OperationType::LOGISTIC:
      if (ref) {
        unaryFloat<T>(ctx, [](float x) { return 1.f / (1.f + std::exp(-x)); });
      } else {
        unaryFloat<T>(ctx, [](float x) { return 1.f / (1.f + vexp(-x)); });
      }
      break;
    case OperationType::TANH:
      if (ref) {
        unaryFloat<T>(ctx, [](float x) { return std::tanh(x); });
      } else {
        // tanh(|x|) = (1 - e) / (1 + e) with e = exp(-2|x|) <= 1: no overflow, and the
        // absolute error near 0 stays at float epsilon.
        unaryFloat<T>(ctx, [](float x) {
          const float e = vexp(-2.f * std::fabs(x));
          const float t = (1.f - e) / (1.f + e);
          return std::copysign(t, x);
        });
      }
      break;
    default:
      return ctx.fail("unexpected operation");
  }
  return kOk;
}

// ---- quantized kernels (T = uint8_t or int8_t) ------------------------------------------

template <typename T>
Status executeRelu(OpContext& ctx, int32_t activation) {
  int32_t lo, hi;
  // The input and output share scale and zero point, so the clamp uses either.
  activationRangeQuantized(activation, ctx.inputShape(0), &lo, &hi);
  const T tlo = static_cast<T>(lo), thi = static_cast<T>(hi);
  const T* in = ctx.input<T>(0);
  T* out = ctx.output<T>(0);
  parallelRange(ctx, ctx.inputShape(0).count(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) out[i] = std::min(std::max(in[i], tlo), thi);
  });
  return kOk;
}

constexpr int kInputIntegerBits = 4;

// The input rescaling shared by LOGISTIC and TANH: centered input * multiplier << shift
// lands in Q4.27; beyond +-radius the function is saturated.
struct SigmoidParams {
  int32_t zeroPoint;
  int32_t multiplier;
  int leftShift;
  int32_t radius;
};

bool computeSigmoidParams(const Shape& in, SigmoidParams* p) {
  const double realMultiplier = in.scale * static_cast<double>(1 << (31 - kInputIntegerBits));
  if (!quantizeMultiplierGreaterThanOne(realMultiplier, &p->multiplier, &p->leftShift))
    return false;
  p->radius = calculateInputRadius(kInputIntegerBits, p->leftShift);
  p->zeroPoint = in.zeroPoint;
  return true;
}

// Output offset: 0 for uint8 (the unsigned result), -128 for int8.
template <typename T>
constexpr int32_t kQuantShift = std::is_same<T, int8_t>::value ? -128 : 0;

template <typename T>
Status executeSigmoidQuant(OpContext& ctx, bool isTanh) {
  SigmoidParams p;
  if (!computeSigmoidParams(ctx.inputShape(0), &p))
    return ctx.fail("input scale %g too small for the fixed-point rescaling",
                    ctx.inputShape(0).scale);
  const T* in = ctx.input<T>(0);
  T* out = ctx.output<T>(0);
  parallelRange(ctx, ctx.inputShape(0).count(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      const int32_t centered = static_cast<int32_t>(in[i]) - p.zeroPoint;
      int32_t u;  // result on the unsigned 0..255 grid
      if (centered <= -p.radius) {
        u = 0;
      } else if (centered >= p.radius) {
        u = 255;
      } else {
        const int32_t x =
            multiplyByQuantizedMultiplierGreaterThanOne(centered, p.multiplier, p.leftShift);
        if (isTanh) {
          // Q0.31 -> 1/128 steps around 128.
          u = roundingDivideByPOT(fp::tanh<kInputIntegerBits>(x), 24) + 128;
        } else {
          // Q0.31 -> 1/256 steps.
          u = roundingDivideByPOT(fp::logistic<kInputIntegerBits>(x), 23);
        }
        if (u > 255) u = 255;
      }
      out[i] = static_cast<T>(u + kQuantShift<T>);
    }
  });
  return kOk;
}

template <typename T>
Status executeQuant(OpContext& ctx) {
  switch (ctx.type()) {
    case OperationType::RELU: return executeRelu<T>(ctx, 1);
    case OperationType::RELU1: return executeRelu<T>(ctx, 2);
    case OperationType::RELU6: return executeRelu<T>(ctx, 3);
    case OperationType::LOGISTIC: return executeSigmoidQuant<T>(ctx, false);
    case OperationType::TANH: return executeSigmoidQuant<T>(ctx, true);
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

Status executeActivation(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32: return executeFloat<float>(ctx);
    case OperandType::TENSOR_FLOAT16: return executeFloat<Half>(ctx);
    case OperandType::TENSOR_QUANT8_ASYMM: return executeQuant<uint8_t>(ctx);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return executeQuant<int8_t>(ctx);
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

}  // namespace

NN_REGISTER_OPERATION(RELU, validateActivation, prepareActivation, executeActivation);
NN_REGISTER_OPERATION(RELU1, validateActivation, prepareActivation, executeActivation);
NN_REGISTER_OPERATION(RELU6, validateActivation, prepareActivation, executeActivation);
NN_REGISTER_OPERATION(LOGISTIC, validateActivation, prepareActivation, executeActivation);
NN_REGISTER_OPERATION(TANH, validateActivation, prepareActivation, executeActivation);
NN_REGISTER_OPERATION(FLOOR, validateActivation, prepareActivation, executeActivation);

}  // namespace nn
