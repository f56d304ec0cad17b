// Fixed-point parameters of the quantized elementwise operations, computed exactly as the
// NNAPI reference does (the conformance vectors encode its rounding). Shape inference
// computes them to reject scales the scheme cannot represent; the kernels compute them again
// to run.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "spec/ops/common.h"

namespace nn {
namespace elementwise {

// ---- ADD / SUB -------------------------------------------------------------------------

// Both inputs are rescaled to a common scale with kAddLeftShift bits of headroom, added, and
// the sum requantized to the output scale.
constexpr int kAddLeftShift = 20;

struct AddQuantParams {
  int32_t offset1, offset2, outOffset;
  int32_t mult1, mult2, outMult;
  int shift1, shift2, outShift;
  int32_t actMin, actMax;
};

inline bool computeAddQuantParams(const Shape& s1, const Shape& s2, const Shape& out,
                                  bool subtract, int32_t activation, AddQuantParams* p) {
  const double twiceMaxInputScale = 2.0 * std::max(s1.scale, s2.scale);
  const double realMult1 = s1.scale / twiceMaxInputScale;
  const double realMult2 = s2.scale / twiceMaxInputScale;
  // (1 << 20) * scale is a float product in the reference.
  const double realOutMult =
      twiceMaxInputScale / static_cast<double>(static_cast<float>(1 << kAddLeftShift) * out.scale);
  if (!quantizeMultiplierSmallerThanOne(realMult1, &p->mult1, &p->shift1)) return false;
  if (!quantizeMultiplierSmallerThanOne(realMult2, &p->mult2, &p->shift2)) return false;
  if (!quantizeMultiplierSmallerThanOne(realOutMult, &p->outMult, &p->outShift)) return false;
  if (subtract) p->mult2 = -p->mult2;
  p->offset1 = -s1.zeroPoint;
  p->offset2 = -s2.zeroPoint;
  p->outOffset = out.zeroPoint;
  activationRangeQuantized(activation, out, &p->actMin, &p->actMax);
  return true;
}

// ---- MUL -------------------------------------------------------------------------------

struct MulQuantParams {
  int32_t offset1, offset2, outOffset;
  int32_t mult;
  int shift;
  int32_t actMin, actMax;
};

inline bool computeMulQuantParams(const Shape& s1, const Shape& s2, const Shape& out,
                                  int32_t activation, MulQuantParams* p) {
  // The reference forms the input product scale as a float.
  const double inputProductScale = static_cast<float>(s1.scale * s2.scale);
  const double realMult = inputProductScale / out.scale;
  if (!quantizeMultiplierSmallerThanOne(realMult, &p->mult, &p->shift)) return false;
  p->offset1 = -s1.zeroPoint;
  p->offset2 = -s2.zeroPoint;
  p->outOffset = out.zeroPoint;
  activationRangeQuantized(activation, out, &p->actMin, &p->actMax);
  return true;
}

// ---- PRELU -----------------------------------------------------------------------------

// Two multipliers: inScale/outScale for x >= 0, inScale*alphaScale/outScale for x*alpha.
struct PreluParams {
  int32_t inOffset, alphaOffset, outOffset;
  int32_t multPos, multNeg;
  int shiftPos, shiftNeg;
};

inline bool computePreluParams(const Shape& in, const Shape& alpha, const Shape& out,
                               PreluParams* p) {
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

// ---- RSQRT -----------------------------------------------------------------------------

struct RsqrtParams {
  int32_t inZeroPoint, outZeroPoint;
  int32_t multiplier;
  int shift;
};

inline bool computeRsqrtParams(const Shape& in, const Shape& out, RsqrtParams* p) {
  // sqrt and the product in float, the reciprocal in double, as the reference does.
  const double scale = 1.0 / static_cast<double>(std::sqrt(in.scale) * out.scale);
  if (!quantizeMultiplier(scale, &p->multiplier, &p->shift)) return false;
  p->inZeroPoint = in.zeroPoint;
  p->outZeroPoint = out.zeroPoint;
  return true;
}

// ---- HARD_SWISH ------------------------------------------------------------------------

struct HardSwishParams {
  int32_t inZeroPoint, outZeroPoint;
  int16_t outMultiplier, reluishMultiplier;  // Q0.15
  int outExponent, reluishExponent;
};

// Rounds a Q0.31 multiplier to its top 16 bits, saturating at the Q0.15 maximum.
inline int16_t downscaleMultiplier(int32_t m) {
  constexpr int32_t kRound = 1 << 15;
  if (m >= std::numeric_limits<int32_t>::max() - kRound) return std::numeric_limits<int16_t>::max();
  return static_cast<int16_t>((m + kRound) >> 16);
}

inline bool computeHardSwishParams(const Shape& in, const Shape& out, HardSwishParams* p) {
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

}  // namespace elementwise
}  // namespace nn
