// HARD_SWISH, ELU, LOG_SOFTMAX kernels.
// Quantized HARD_SWISH reproduces the reference's 16-bit fixed-point evaluation: the input is
// moved to a "high resolution" scale (x 2^7), a relu-ish factor in [0, 1] (the affine map of
// [-3, 3]) is formed in Q0.15, multiplied with a truncating doubling high-mul, and the result
// is shifted onto the output scale. The fast device tabulates it over the 256 inputs.
#include <cmath>
#include <limits>
#include <type_traits>

#include "cpu/kernel.h"
#include "cpu/kernels/elementwise.h"
#include "spec/ops/common.h"
#include "spec/ops/elementwise_quant.h"

namespace nn {
namespace {

using elementwise::floatScalar;
using elementwise::Path;

template <typename T, typename F>
void unaryFloat(const OpContext& ctx, Path path, const F& f) {
  elementwise::runUnary<T, T>(ctx, path,
                              [&f](T x) { return static_cast<T>(f(static_cast<float>(x))); });
}

// ---- HARD_SWISH ------------------------------------------------------------------------

using elementwise::HardSwishParams;

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

// A function object (not a function pointer) so the elementwise loop inlines and vectorizes.
struct HardSwishFloat {
  float operator()(float x) const { return x * std::min(6.f, std::max(0.f, x + 3.f)) / 6.f; }
};

template <typename T>
Status hardSwishQuantKernel(OpContext& ctx, Path path) {
  HardSwishParams p;
  if (!elementwise::computeHardSwishParams(ctx.inputShape(0), ctx.outputShape(0), &p))
    return ctx.fail("unsupported quantization scales");
  if (path == Path::kReference) {
    elementwise::runUnary<T, T>(ctx, path, [&p](T x) { return hardSwishQuant<T>(x, p); });
    return kOk;
  }
  // Only 256 distinct inputs: tabulate once.
  T table[256];
  for (int v = 0; v < 256; ++v) {
    const T x = static_cast<T>(std::is_signed<T>::value ? v - 128 : v);
    table[v] = hardSwishQuant<T>(x, p);
  }
  constexpr int kBias = std::is_signed<T>::value ? 128 : 0;
  elementwise::runUnary<T, T>(ctx, path,
                              [&table](T x) { return table[static_cast<int>(x) + kBias]; });
  return kOk;
}

Status runHardSwish(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32: unaryFloat<float>(ctx, path, HardSwishFloat{}); return kOk;
    case OperandType::TENSOR_FLOAT16: unaryFloat<Half>(ctx, path, HardSwishFloat{}); return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM: return hardSwishQuantKernel<uint8_t>(ctx, path);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return hardSwishQuantKernel<int8_t>(ctx, path);
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

Status executeHardSwish(OpContext& ctx) { return runHardSwish(ctx, Path::kFast); }
Status executeHardSwishReference(OpContext& ctx) { return runHardSwish(ctx, Path::kReference); }

// ---- ELU -------------------------------------------------------------------------------

template <typename T>
void eluKernel(const OpContext& ctx, Path path, float alpha) {
  unaryFloat<T>(ctx, path,
                [alpha](float x) { return x < 0.f ? alpha * (std::exp(x) - 1.f) : x; });
}

Status runElu(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  const float alpha = floatScalar(ctx, 1);
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32: eluKernel<float>(ctx, path, alpha); return kOk;
    case OperandType::TENSOR_FLOAT16: eluKernel<Half>(ctx, path, alpha); return kOk;
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

Status executeElu(OpContext& ctx) { return runElu(ctx, Path::kFast); }
Status executeEluReference(OpContext& ctx) { return runElu(ctx, Path::kReference); }

// ---- LOG_SOFTMAX -----------------------------------------------------------------------

constexpr uint32_t kBeta = 1;
constexpr uint32_t kAxis = 2;

template <typename T>
void logSoftmaxKernel(const OpContext& ctx, Path path, float beta, uint32_t axis) {
  const elementwise::AxisSplit s = elementwise::splitAtAxis(ctx.inputShape(0).dims, axis);
  const T* in = ctx.input<T>(0);
  T* out = ctx.output<T>(0);
  // Work items are (outer, inner) pairs; each reduces over the axis.
  elementwise::parallelRange(ctx, path, s.outer * s.inner, [&](size_t b, size_t e) {
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

Status runLogSoftmax(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  const float beta = floatScalar(ctx, kBeta);
  uint32_t axis;
  if (!elementwise::resolveAxis(ctx.scalar<int32_t>(kAxis), ctx.inputShape(0).rank(), &axis))
    return ctx.fail("input 2: axis out of range");
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32: logSoftmaxKernel<float>(ctx, path, beta, axis); return kOk;
    case OperandType::TENSOR_FLOAT16: logSoftmaxKernel<Half>(ctx, path, beta, axis); return kOk;
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(0)));
  }
}

Status executeLogSoftmax(OpContext& ctx) { return runLogSoftmax(ctx, Path::kFast); }
Status executeLogSoftmaxReference(OpContext& ctx) { return runLogSoftmax(ctx, Path::kReference); }

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(HARD_SWISH, executeHardSwish, executeHardSwishReference, nullptr,
                          nullptr);
NN_DEFINE_CPU_KERNEL_FULL(ELU, executeElu, executeEluReference, nullptr, nullptr);
NN_DEFINE_CPU_KERNEL_FULL(LOG_SOFTMAX, executeLogSoftmax, executeLogSoftmaxReference, nullptr,
                          nullptr);

}  // namespace nn
