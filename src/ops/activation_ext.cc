// HARD_SWISH, ELU, LOG_SOFTMAX.
// Quantized HARD_SWISH reproduces the reference's 16-bit fixed-point evaluation: the input is
// moved to a "high resolution" scale (x 2^7), a relu-ish factor in [0, 1] (the affine map of
// [-3, 3]) is formed in Q0.15, multiplied with a truncating doubling high-mul, and the result
// is shifted onto the output scale.
#include <cmath>
#include <limits>
#include <type_traits>

#include "spec/ops/common.h"
#include "ops/elementwise2_util.h"
#include "ops/elementwise_util.h"
#include "ops/operation.h"

namespace nn {
namespace {

using ew2::isQuant8;
using elementwise::parallelRange;

// ---- shared validation -----------------------------------------------------------------

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

OperandType floatScalarFor(OperandType tensorType) {
  return tensorType == OperandType::TENSOR_FLOAT16 ? OperandType::FLOAT16 : OperandType::FLOAT32;
}

// Reads a FLOAT16 or FLOAT32 scalar input as float.
float floatScalar(const OpContext& ctx, uint32_t i) {
  if (ctx.inputType(i) == OperandType::FLOAT16) return static_cast<float>(ctx.scalar<Half>(i));
  return ctx.scalar<float>(i);
}

template <typename T, typename F>
void unaryFloat(const OpContext& ctx, const F& f) {
  ew2::runUnary<T, T>(ctx, [&f](T x) { return static_cast<T>(f(static_cast<float>(x))); });
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

struct HardSwishParams {
  int32_t inZeroPoint, outZeroPoint;
  int16_t outMultiplier, reluishMultiplier;  // Q0.15
  int outExponent, reluishExponent;
};

// Rounds a Q0.31 multiplier to its top 16 bits, saturating at the Q0.15 maximum.
int16_t downscaleMultiplier(int32_t m) {
  constexpr int32_t kRound = 1 << 15;
  if (m >= std::numeric_limits<int32_t>::max() - kRound) return std::numeric_limits<int16_t>::max();
  return static_cast<int16_t>((m + kRound) >> 16);
}

bool computeHardSwishParams(const Shape& in, const Shape& out, HardSwishParams* p) {
  // Scales as float arithmetic, as the reference computes them.
  const float hiresInputScale = (1.0f / 128.0f) * in.scale;
  const float reluishScale = 3.0f / 32768.0f;
  const float outMultiplier = hiresInputScale / out.scale;
  const float reluishMultiplier = hiresInputScale / reluishScale;
  int32_t q;
  if (!quantizeMultiplier(outMultiplier, &q, &p->outExponent)) return false;
  p->outMultiplier = downscaleMultiplier(q);
  if (p->outExponent > 0) return false;  // output scale below input scale / 128
  if (!quantizeMultiplier(reluishMultiplier, &q, &p->reluishExponent)) return false;
  p->reluishMultiplier = downscaleMultiplier(q);
  p->inZeroPoint = in.zeroPoint;
  p->outZeroPoint = out.zeroPoint;
  return true;
}

// Q0.15 rounding doubling high multiply (gemmlowp semantics, int16 lanes).
inline int16_t roundingHighMul16(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min()) return std::numeric_limits<int16_t>::max();
  const int32_t ab = static_cast<int32_t>(a) * b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((ab + nudge) / (1 << 15));
}
// The same product truncated toward zero; the reference uses it for the final multiply to
// cancel the bias of the rounding one.
inline int16_t truncatingHighMul16(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min()) return std::numeric_limits<int16_t>::max();
  return static_cast<int16_t>((static_cast<int32_t>(a) * b) / (1 << 15));
}
inline int16_t saturatingShiftLeft16(int16_t v, int amount) {
  const int64_t r = static_cast<int64_t>(v) * (int64_t{1} << amount);
  return static_cast<int16_t>(std::min<int64_t>(std::max<int64_t>(r, INT16_MIN), INT16_MAX));
}

template <typename T>
T hardSwishQuant(T x, const HardSwishParams& p) {
  const int16_t centered = static_cast<int16_t>(static_cast<int32_t>(x) - p.inZeroPoint);
  const int16_t hires = static_cast<int16_t>(centered * (1 << 7));
  const int16_t preshiftOut = roundingHighMul16(hires, p.outMultiplier);
  // Relu-ish factor: x rescaled so that 3.0 maps to 2^15, saturating; one bit of any left
  // shift is kept for after the multiply so saturation happens where it matters.
  int16_t r = hires;
  if (p.reluishExponent > 0) r = saturatingShiftLeft16(r, p.reluishExponent - 1);
  r = roundingHighMul16(r, p.reluishMultiplier);
  if (p.reluishExponent > 0) r = saturatingShiftLeft16(r, 1);
  if (p.reluishExponent < 0) r = static_cast<int16_t>(roundingDivideByPOT(r, -p.reluishExponent));
  // [-1, 1] -> [0, 1] in Q0.15.
  r = static_cast<int16_t>((static_cast<int32_t>(r) + (1 << 15)) >> 1);
  const int16_t pre = truncatingHighMul16(r, preshiftOut);
  const int32_t v = roundingDivideByPOT(pre, -p.outExponent) + p.outZeroPoint;
  return saturateCast<T>(v);
}

Status prepareHardSwish(OpContext& ctx) {
  if (isQuant8(ctx.inputType(0))) {
    HardSwishParams p;
    if (!computeHardSwishParams(ctx.inputShape(0), ctx.outputShape(0), &p))
      return ctx.fail("input scale %g and output scale %g give a rescaling multiplier outside the "
                      "supported range (output scale must be >= input scale / 128)",
                      ctx.inputShape(0).scale, ctx.outputShape(0).scale);
  }
  return ew2::prepareSameShape(ctx);
}

// A function object (not a function pointer) so the elementwise loop inlines and vectorizes.
struct HardSwishFloat {
  float operator()(float x) const { return x * std::min(6.f, std::max(0.f, x + 3.f)) / 6.f; }
};

template <typename T>
Status executeHardSwishQuant(OpContext& ctx) {
  HardSwishParams p;
  if (!computeHardSwishParams(ctx.inputShape(0), ctx.outputShape(0), &p))
    return ctx.fail("unsupported quantization scales");
  if (ctx.useReferenceKernels()) {
    ew2::runUnary<T, T>(ctx, [&p](T x) { return hardSwishQuant<T>(x, p); });
    return kOk;
  }
  // Only 256 distinct inputs: tabulate once.
  T table[256];
  for (int v = 0; v < 256; ++v) {
    const T x = static_cast<T>(std::is_signed<T>::value ? v - 128 : v);
    table[v] = hardSwishQuant<T>(x, p);
  }
  constexpr int kBias = std::is_signed<T>::value ? 128 : 0;
  ew2::runUnary<T, T>(ctx, [&table](T x) { return table[static_cast<int>(x) + kBias]; });
  return kOk;
}

Status executeHardSwish(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32: unaryFloat<float>(ctx, HardSwishFloat{}); return kOk;
    case OperandType::TENSOR_FLOAT16: unaryFloat<Half>(ctx, HardSwishFloat{}); return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM: return executeHardSwishQuant<uint8_t>(ctx);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return executeHardSwishQuant<int8_t>(ctx);
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
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

Status prepareElu(OpContext& ctx) { return ew2::prepareSameShape(ctx); }

template <typename T>
void eluKernel(const OpContext& ctx, float alpha) {
  unaryFloat<T>(ctx, [alpha](float x) { return x < 0.f ? alpha * (std::exp(x) - 1.f) : x; });
}

Status executeElu(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  const float alpha = floatScalar(ctx, 1);
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32: eluKernel<float>(ctx, alpha); return kOk;
    case OperandType::TENSOR_FLOAT16: eluKernel<Half>(ctx, alpha); return kOk;
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

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

Status prepareLogSoftmax(OpContext& ctx) {
  const Shape& in = ctx.inputShape(0);
  if (in.rank() == 0) return ctx.fail("input 0: rank must be >= 1");
  if (!ctx.hasInputData(kAxis)) return kDeferred;
  const int32_t axis = ctx.scalar<int32_t>(kAxis);
  uint32_t resolved;
  if (!elementwise::resolveAxis(axis, in.rank(), &resolved))
    return ctx.fail("input 2: axis must be in [-%u, %u), got %d", in.rank(), in.rank(), axis);
  return ew2::prepareSameShape(ctx);
}

template <typename T>
void logSoftmaxKernel(const OpContext& ctx, float beta, uint32_t axis) {
  const elementwise::AxisSplit s = elementwise::splitAtAxis(ctx.inputShape(0).dims, axis);
  const T* in = ctx.input<T>(0);
  T* out = ctx.output<T>(0);
  // Work items are (outer, inner) pairs; each reduces over the axis.
  parallelRange(ctx, s.outer * s.inner, [&](size_t b, size_t e) {
    for (size_t w = b; w < e; ++w) {
      const size_t outer = w / s.inner, inner = w % s.inner;
      const size_t base = outer * s.axis * s.inner + inner;
      float maxValue = static_cast<float>(in[base]);
      for (size_t i = 1; i < s.axis; ++i)
        maxValue = std::max(maxValue, static_cast<float>(in[base + i * s.inner]));
      // Shifting by the maximum keeps exp() from overflowing.
      double sum = 0.0;
      for (size_t i = 0; i < s.axis; ++i)
        sum += std::exp(static_cast<double>((static_cast<float>(in[base + i * s.inner]) - maxValue) * beta));
      const float logSum = static_cast<float>(std::log(sum));
      for (size_t i = 0; i < s.axis; ++i) {
        const size_t k = base + i * s.inner;
        out[k] = static_cast<T>((static_cast<float>(in[k]) - maxValue) * beta - logSum);
      }
    }
  });
}

Status executeLogSoftmax(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  const float beta = floatScalar(ctx, kBeta);
  uint32_t axis;
  if (!elementwise::resolveAxis(ctx.scalar<int32_t>(kAxis), ctx.inputShape(0).rank(), &axis))
    return ctx.fail("input 2: axis out of range");
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32: logSoftmaxKernel<float>(ctx, beta, axis); return kOk;
    case OperandType::TENSOR_FLOAT16: logSoftmaxKernel<Half>(ctx, beta, axis); return kOk;
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

}  // namespace

NN_REGISTER_OPERATION(HARD_SWISH, validateHardSwish, prepareHardSwish, executeHardSwish);
NN_REGISTER_OPERATION(ELU, validateElu, prepareElu, executeElu);
NN_REGISTER_OPERATION(LOG_SOFTMAX, validateLogSoftmax, prepareLogSoftmax, executeLogSoftmax);

}  // namespace nn
