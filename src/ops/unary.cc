// Elementwise unary math: ABS, EXP, LOG, NEG, RSQRT, SIN, SQRT.
// Float16 is computed in float32 and rounded once. INT32 ABS/NEG wrap on INT32_MIN (two's
// complement) instead of overflowing. Quantized RSQRT (feature level 7) follows the
// reference integer scheme: 1/sqrt of the centered input as a fixed-point multiplier applied
// to 1 << 20, then rescaled by 1 / (sqrt(inputScale) * outputScale).
#include <cmath>
#include <limits>
#include <type_traits>

#include "spec/ops/common.h"
#include "ops/elementwise2_util.h"
#include "ops/elementwise_util.h"
#include "cpu/kernels/fixed_point.h"
#include "ops/operation.h"

namespace nn {
namespace {

Status validateUnary(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(1, 1));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  const OperationType op = c.type();
  const OperandType t = c.inputType(0);
  switch (t) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_FLOAT16:
      break;
    case OperandType::TENSOR_INT32:
      if (op == OperationType::ABS) {
        c.requireFeatureLevel(kFeatureLevel4);
        break;
      }
      if (op == OperationType::NEG) break;
      return c.fail("input 0: %s does not support TENSOR_INT32", c.name());
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      if (op == OperationType::RSQRT) {
        c.requireFeatureLevel(kFeatureLevel7);
        if (!(c.input(0).scale > 0.f)) return c.fail("input 0: scale must be > 0, got %g", c.input(0).scale);
        if (!(c.output(0).scale > 0.f))
          return c.fail("output 0: scale must be > 0, got %g", c.output(0).scale);
        break;
      }
      return c.fail("input 0: %s does not support %s", c.name(), toString(t));
    default:
      return c.fail("input 0: unsupported type %s", toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t}));
  return kOk;
}

struct RsqrtParams {
  int32_t inZeroPoint, outZeroPoint;
  int32_t multiplier;
  int shift;
};

bool computeRsqrtParams(const Shape& in, const Shape& out, RsqrtParams* p) {
  // sqrt and the product in float, the reciprocal in double, as the reference does.
  const double scale = 1.0 / static_cast<double>(std::sqrt(in.scale) * out.scale);
  if (!quantizeMultiplier(scale, &p->multiplier, &p->shift)) return false;
  p->inZeroPoint = in.zeroPoint;
  p->outZeroPoint = out.zeroPoint;
  return true;
}

Status prepareUnary(OpContext& ctx) {
  if (ew2::isQuant8(ctx.inputType(0))) {
    RsqrtParams p;
    if (!computeRsqrtParams(ctx.inputShape(0), ctx.outputShape(0), &p))
      return ctx.fail("input scale %g and output scale %g give an unsupported rescaling multiplier",
                      ctx.inputShape(0).scale, ctx.outputShape(0).scale);
  }
  return ew2::prepareSameShape(ctx);
}

template <typename T, typename F>
void unaryFloat(const OpContext& ctx, const F& f) {
  ew2::runUnary<T, T>(ctx, [&f](T x) { return static_cast<T>(f(static_cast<float>(x))); });
}

template <typename T>
Status executeFloat(OpContext& ctx) {
  switch (ctx.type()) {
    case OperationType::ABS: unaryFloat<T>(ctx, [](float x) { return std::fabs(x); }); break;
    case OperationType::EXP: unaryFloat<T>(ctx, [](float x) { return std::exp(x); }); break;
    case OperationType::LOG: unaryFloat<T>(ctx, [](float x) { return std::log(x); }); break;
    case OperationType::NEG: unaryFloat<T>(ctx, [](float x) { return -x; }); break;
    case OperationType::RSQRT: unaryFloat<T>(ctx, [](float x) { return 1.f / std::sqrt(x); }); break;
    case OperationType::SIN: unaryFloat<T>(ctx, [](float x) { return std::sin(x); }); break;
    case OperationType::SQRT: unaryFloat<T>(ctx, [](float x) { return std::sqrt(x); }); break;
    default: return ctx.fail("unexpected operation");
  }
  return kOk;
}

Status executeInt32(OpContext& ctx) {
  switch (ctx.type()) {
    case OperationType::ABS:
      ew2::runUnary<int32_t, int32_t>(ctx, [](int32_t x) {
        const uint32_t u = static_cast<uint32_t>(x);
        return static_cast<int32_t>(x < 0 ? 0u - u : u);
      });
      return kOk;
    case OperationType::NEG:
      ew2::runUnary<int32_t, int32_t>(
          ctx, [](int32_t x) { return static_cast<int32_t>(0u - static_cast<uint32_t>(x)); });
      return kOk;
    default:
      return ctx.fail("unexpected operation for TENSOR_INT32");
  }
}

template <typename T>
T rsqrtQuant(T x, const RsqrtParams& p) {
  constexpr int kShift = 20;  // keeps 1/sqrt(v) an integer with enough precision
  const int32_t v = static_cast<int32_t>(x) - p.inZeroPoint;
  // 0 (and, undefined, negatives) map to the largest representable value.
  if (v <= 0) return std::numeric_limits<T>::max();
  int32_t invMultiplier;
  int invShift;
  fp::invSqrtQuantizedMultiplier(v, -1, &invMultiplier, &invShift);
  const int32_t data = multiplyByQuantizedMultiplier(1, invMultiplier, invShift + kShift);
  const int32_t out = multiplyByQuantizedMultiplier(data, p.multiplier, p.shift - kShift) + p.outZeroPoint;
  return saturateCast<T>(out);
}

template <typename T>
Status executeRsqrtQuant(OpContext& ctx) {
  RsqrtParams p;
  if (!computeRsqrtParams(ctx.inputShape(0), ctx.outputShape(0), &p))
    return ctx.fail("unsupported quantization scales");
  if (ctx.useReferenceKernels()) {
    ew2::runUnary<T, T>(ctx, [&p](T x) { return rsqrtQuant<T>(x, p); });
    return kOk;
  }
  T table[256];
  constexpr int kBias = std::is_signed<T>::value ? 128 : 0;
  for (int v = 0; v < 256; ++v) table[v] = rsqrtQuant<T>(static_cast<T>(v - kBias), p);
  ew2::runUnary<T, T>(ctx, [&table](T x) { return table[static_cast<int>(x) + kBias]; });
  return kOk;
}

Status executeUnary(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32: return executeFloat<float>(ctx);
    case OperandType::TENSOR_FLOAT16: return executeFloat<Half>(ctx);
    case OperandType::TENSOR_INT32: return executeInt32(ctx);
    case OperandType::TENSOR_QUANT8_ASYMM: return executeRsqrtQuant<uint8_t>(ctx);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return executeRsqrtQuant<int8_t>(ctx);
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

}  // namespace

NN_REGISTER_OPERATION(ABS, validateUnary, prepareUnary, executeUnary);
NN_REGISTER_OPERATION(EXP, validateUnary, prepareUnary, executeUnary);
NN_REGISTER_OPERATION(LOG, validateUnary, prepareUnary, executeUnary);
NN_REGISTER_OPERATION(NEG, validateUnary, prepareUnary, executeUnary);
NN_REGISTER_OPERATION(RSQRT, validateUnary, prepareUnary, executeUnary);
NN_REGISTER_OPERATION(SIN, validateUnary, prepareUnary, executeUnary);
NN_REGISTER_OPERATION(SQRT, validateUnary, prepareUnary, executeUnary);

}  // namespace nn
