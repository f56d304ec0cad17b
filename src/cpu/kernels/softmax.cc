// SOFTMAX kernels.
// Float: the reference device runs the plain sequential formula with the C library's exp;
// the fast device uses lane reductions and the vectorizable exp on contiguous rows, and
// splits rows across the thread pool.
// Quantized softmax follows the NNAPI reference: beta * input_scale is folded into a Q5.26
// rescaling multiplier, exponentials are gemmlowp fixed-point, accumulated in Q12.19, and
// the reciprocal of the sum is taken with the fixed-point Newton-Raphson division.
#include <cfloat>
#include <cmath>
#include <type_traits>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/elementwise.h"
#include "cpu/kernels/fixed_point.h"
#include "spec/ops/common.h"

namespace nn {
namespace {

using elementwise::AxisSplit;
using elementwise::parallelRange;
using elementwise::Path;
using elementwise::vexp;

constexpr uint32_t kInput = 0;
constexpr uint32_t kBeta = 1;
constexpr uint32_t kAxis = 2;

// ---- float ---------------------------------------------------------------------------

template <bool kFast>
inline float expf_(float x) {
  if constexpr (kFast) return vexp(x);
  return std::exp(x);
}

// Max and sum over a contiguous run with 16 independent lanes, so the reductions vectorize
// (a single accumulator forces sequential float adds).
inline float laneMax(const float* x, size_t n) {
  constexpr size_t kLanes = 16;
  float acc[kLanes];
  for (size_t l = 0; l < kLanes; ++l) acc[l] = -FLT_MAX;
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (size_t l = 0; l < kLanes; ++l) acc[l] = std::max(acc[l], x[i + l]);
  float m = -FLT_MAX;
  for (size_t l = 0; l < kLanes; ++l) m = std::max(m, acc[l]);
  for (; i < n; ++i) m = std::max(m, x[i]);
  return m;
}
inline float laneSum(const float* x, size_t n) {
  constexpr size_t kLanes = 16;
  float acc[kLanes] = {};
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (size_t l = 0; l < kLanes; ++l) acc[l] += x[i + l];
  float s = 0.f;
  for (size_t l = 0; l < kLanes; ++l) s += acc[l];
  for (; i < n; ++i) s += x[i];
  return s;
}

// One softmax row of `n` elements spaced `stride` apart.
template <bool kFast>
void softmaxRow(const float* in, float* out, size_t n, size_t stride, float beta) {
  if (kFast && stride == 1) {
    const float maxValue = laneMax(in, n);
    for (size_t i = 0; i < n; ++i) out[i] = vexp((in[i] - maxValue) * beta);
    const float inv = 1.f / laneSum(out, n);
    for (size_t i = 0; i < n; ++i) out[i] *= inv;
    return;
  }
  float maxValue = -FLT_MAX;
  for (size_t i = 0; i < n; ++i) maxValue = std::max(maxValue, in[i * stride]);
  float sum = 0.f;
  for (size_t i = 0; i < n; ++i) {
    const float e = expf_<kFast>((in[i * stride] - maxValue) * beta);
    out[i * stride] = e;
    sum += e;
  }
  for (size_t i = 0; i < n; ++i) out[i * stride] /= sum;
}

template <bool kFast>
void softmaxFloat(const OpContext& ctx, const float* in, float* out, const AxisSplit& s,
                  float beta) {
  const size_t rows = s.outer * s.inner;
  const Path path = kFast ? Path::kFast : Path::kReference;
  parallelRange(ctx, path, rows * s.axis, [&](size_t b, size_t e) {
    // Work is split on whole rows: convert element bounds to row bounds.
    const size_t rb = (b + s.axis - 1) / s.axis, re = (e + s.axis - 1) / s.axis;
    for (size_t r = rb; r < re; ++r) {
      const size_t o = r / s.inner, i = r % s.inner;
      const size_t base = o * s.axis * s.inner + i;
      softmaxRow<kFast>(in + base, out + base, s.axis, s.inner, beta);
    }
  });
}

Status executeFloat32(OpContext& ctx, Path path, const float* in, float* out, const AxisSplit& s,
                      float beta) {
  if (path == Path::kReference) {
    softmaxFloat<false>(ctx, in, out, s, beta);
  } else {
    softmaxFloat<true>(ctx, in, out, s, beta);
  }
  return kOk;
}

// ---- quantized -------------------------------------------------------------------------

constexpr int kScaledDiffIntegerBits = 5;
constexpr int kAccumulationIntegerBits = 12;

template <typename T>
void softmaxQuantRow(const T* in, T* out, size_t n, size_t stride, int32_t multiplier,
                     int leftShift, int32_t diffMin) {
  int32_t maxValue = std::numeric_limits<T>::min();
  for (size_t i = 0; i < n; ++i) maxValue = std::max<int32_t>(maxValue, in[i * stride]);

  auto scaledExp = [&](int32_t diff) {
    const int32_t rescaled = multiplyByQuantizedMultiplierGreaterThanOne(diff, multiplier, leftShift);
    return fp::expOnNegativeValues<kScaledDiffIntegerBits>(rescaled);  // Q0
  };
  int32_t sumOfExps = 0;  // Q12
  for (size_t i = 0; i < n; ++i) {
    const int32_t diff = static_cast<int32_t>(in[i * stride]) - maxValue;
    if (diff >= diffMin)
      sumOfExps = fp::wrapAdd(sumOfExps, fp::rescale<kAccumulationIntegerBits, 0>(scaledExp(diff)));
  }
  // Normalize the sum to [1, 2) and take 1/sum with the fixed-point reciprocal.
  const uint32_t fixedSum = static_cast<uint32_t>(sumOfExps);
  const int headroomPlusOne = fp::countLeadingZeros32(fixedSum);
  const int numBitsOverUnit = kAccumulationIntegerBits - headroomPlusOne;
  const int32_t shiftedSumMinusOne =
      static_cast<int32_t>((fixedSum << headroomPlusOne) - (static_cast<uint32_t>(1) << 31));
  const int32_t shiftedScale = fp::oneOverOnePlusX(shiftedSumMinusOne);

  constexpr int32_t kOffset = std::is_same<T, int8_t>::value ? -128 : 0;
  for (size_t i = 0; i < n; ++i) {
    const int32_t diff = static_cast<int32_t>(in[i * stride]) - maxValue;
    int32_t v = 0;
    if (diff >= diffMin) {
      const int32_t unsat =
          roundingDivideByPOT(fp::mul(shiftedScale, scaledExp(diff)), numBitsOverUnit + 31 - 8);
      v = std::min(std::max(unsat, 0), 255);
    }
    out[i * stride] = static_cast<T>(v + kOffset);
  }
}

template <typename T>
Status executeQuant(OpContext& ctx, Path path, const AxisSplit& s, float beta) {
  const Shape& inShape = ctx.inputShape(kInput);
  const double realMultiplier =
      std::min(1.0 * beta * inShape.scale * (1 << (31 - kScaledDiffIntegerBits)),
               (1ll << 31) - 1.0);
  int32_t multiplier = 0;
  int leftShift = 0;
  int32_t diffMin = 0;
  if (quantizeMultiplierGreaterThanOne(realMultiplier, &multiplier, &leftShift)) {
    diffMin = -calculateInputRadius(kScaledDiffIntegerBits, leftShift);
  } else if (realMultiplier >= 1073741824.0) {
    // beta * scale >= 16 (the multiplier is clamped to 2^31 - 1 above): the reference's left
    // shift is 31 and its input radius 0, so only a row's maxima (difference 0, exp(0) = 1)
    // contribute and the multiplier only ever scales 0. Compute that rather than refusing.
    multiplier = std::numeric_limits<int32_t>::max();
    leftShift = 0;
    diffMin = 0;
  } else {
    return ctx.fail("beta %g * input scale %g is too small for the fixed-point rescaling", beta,
                    inShape.scale);
  }
  const T* in = ctx.input<T>(kInput);
  T* out = ctx.output<T>(0);
  const size_t rows = s.outer * s.inner;
  parallelRange(ctx, path, rows * s.axis, [&](size_t b, size_t e) {
    const size_t rb = (b + s.axis - 1) / s.axis, re = (e + s.axis - 1) / s.axis;
    for (size_t r = rb; r < re; ++r) {
      const size_t o = r / s.inner, i = r % s.inner;
      const size_t base = o * s.axis * s.inner + i;
      softmaxQuantRow<T>(in + base, out + base, s.axis, s.inner, multiplier, leftShift, diffMin);
    }
  });
  return kOk;
}

Status run(OpContext& ctx, Path path) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  uint32_t axis = 0;
  bool known = false;
  NN_RETURN_IF_ERROR(elementwise::readOptionalAxis(ctx, kAxis, &axis, &known));
  if (!known) return ctx.fail("input 2: the axis value is not available");
  const float beta = elementwise::floatScalar(ctx, kBeta);
  if (!(beta > 0.f)) return ctx.fail("input 1: beta must be > 0, got %g", beta);
  const AxisSplit s = elementwise::splitAtAxis(ctx.inputShape(kInput).dims, axis);
  switch (ctx.inputType(kInput)) {
    case OperandType::TENSOR_FLOAT32:
      return executeFloat32(ctx, path, ctx.input<float>(kInput), ctx.output<float>(0), s, beta);
    case OperandType::TENSOR_FLOAT16: {
      // Computed in float32 and rounded once.
      const size_t n = ctx.inputShape(kInput).count();
      std::vector<float> in(n), out(n);
      const Half* src = ctx.input<Half>(kInput);
      for (size_t i = 0; i < n; ++i) in[i] = static_cast<float>(src[i]);
      NN_RETURN_IF_ERROR(executeFloat32(ctx, path, in.data(), out.data(), s, beta));
      Half* dst = ctx.output<Half>(0);
      for (size_t i = 0; i < n; ++i) dst[i] = static_cast<Half>(out[i]);
      return kOk;
    }
    case OperandType::TENSOR_QUANT8_ASYMM: return executeQuant<uint8_t>(ctx, path, s, beta);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return executeQuant<int8_t>(ctx, path, s, beta);
    default: return ctx.fail("unsupported type %s", toString(ctx.inputType(kInput)));
  }
}

Status execute(OpContext& ctx) { return run(ctx, Path::kFast); }
Status executeReference(OpContext& ctx) { return run(ctx, Path::kReference); }

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(SOFTMAX, execute, executeReference, nullptr, nullptr);

}  // namespace nn
