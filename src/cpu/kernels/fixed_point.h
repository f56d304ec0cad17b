// Scalar Q-format fixed-point math on int32 raw values, bit-exact with the gemmlowp
// routines that the NNAPI reference kernels (and so the conformance vectors) use for
// quantized LOGISTIC, TANH, SOFTMAX and L2_NORMALIZATION.
//
// A value "in Qk" has k integer bits and 31-k fractional bits: real = raw / 2^(31-k).
// Multiplying a Qa by a Qb with saturatingRoundingDoublingHighMul yields a Q(a+b).
#pragma once

#include <cstdint>
#include <limits>

#include "spec/ops/common.h"

namespace nn {
namespace fp {

constexpr int32_t kRawMax = std::numeric_limits<int32_t>::max();
constexpr int32_t kRawMin = std::numeric_limits<int32_t>::min();

inline int32_t mul(int32_t a, int32_t b) { return saturatingRoundingDoublingHighMul(a, b); }

// Two's-complement wrapping add/sub: gemmlowp's plain + and - on raw values, without UB.
inline int32_t wrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t wrapSub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}

// x * 2^E: saturating for E > 0, round-to-nearest for E < 0.
template <int E>
inline int32_t mulByPOT(int32_t x) {
  if constexpr (E == 0) {
    return x;
  } else if constexpr (E > 0) {
    constexpr int32_t threshold = static_cast<int32_t>((1ll << (31 - E)) - 1);
    if (x > threshold) return kRawMax;
    if (x < -threshold) return kRawMin;
    return static_cast<int32_t>(static_cast<uint32_t>(x) << E);
  } else {
    return roundingDivideByPOT(x, -E);
  }
}

// Changes a raw value from Q(Src) to Q(Dst).
template <int Dst, int Src>
inline int32_t rescale(int32_t x) {
  return mulByPOT<Src - Dst>(x);
}

// (a + b) / 2 rounded half away from zero.
inline int32_t roundingHalfSum(int32_t a, int32_t b) {
  const int64_t sum = static_cast<int64_t>(a) + b;
  const int64_t sign = sum >= 0 ? 1 : -1;
  return static_cast<int32_t>((sum + sign) / 2);
}

// The raw representation of 1.0 in Qk (for k = 0, the largest value below 1).
constexpr int32_t one(int k) { return k == 0 ? kRawMax : static_cast<int32_t>(1u << (31 - k)); }

// exp(a) for a in [-1/4, 0), a and the result in Q0. A Taylor expansion around -1/8.
inline int32_t expOnIntervalNegQuarterTo0(int32_t a) {
  constexpr int32_t kExpMinusOneEighth = 1895147668;  // exp(-1/8) in Q0
  constexpr int32_t kOneThird = 715827883;            // 1/3 in Q0
  const int32_t x = wrapAdd(a, 1 << 28);              // a + 1/8
  const int32_t x2 = mul(x, x);
  const int32_t x3 = mul(x2, x);
  const int32_t x4 = mul(x2, x2);
  const int32_t x4Over4 = mulByPOT<-2>(x4);
  const int32_t poly =
      mulByPOT<-1>(wrapAdd(mul(wrapAdd(x4Over4, x3), kOneThird), x2));  // x^4/24 + x^3/6 + x^2/2
  return wrapAdd(kExpMinusOneEighth, mul(kExpMinusOneEighth, wrapAdd(x, poly)));
}

// exp(a) for a <= 0, a in Q(IntBits), result in Q0. Splits a into a multiple of 1/4 handled
// by a product of constant factors exp(-2^k), and a remainder in [-1/4, 0).
template <int IntBits>
inline int32_t expOnNegativeValues(int32_t a) {
  constexpr int kFracBits = 31 - IntBits;
  constexpr int32_t kOneQuarter = static_cast<int32_t>(1u << (kFracBits - 2));
  constexpr int32_t kMask = kOneQuarter - 1;
  const int32_t aModQuarterMinusQuarter = wrapSub(a & kMask, kOneQuarter);
  int32_t result = expOnIntervalNegQuarterTo0(rescale<0, IntBits>(aModQuarterMinusQuarter));
  const int32_t remainder = wrapSub(aModQuarterMinusQuarter, a);

  // exp(-2^k) in Q0 for k = -2..4.
  constexpr int32_t kFactors[7] = {1672461947, 1302514674, 790015084, 290630308,
                                   39332535,   720401,     242};
  for (int k = -2; k <= 4; ++k) {
    if (IntBits > k) {
      const int shift = kFracBits + k;
      if (remainder & static_cast<int32_t>(1u << shift)) result = mul(result, kFactors[k + 2]);
    }
  }
  if constexpr (IntBits > 5) {
    // Below -32 the result underflows Q0 anyway.
    constexpr int32_t kClamp = -static_cast<int32_t>(1u << (36 - IntBits));
    if (a < kClamp) result = 0;
  }
  if (a == 0) result = kRawMax;
  return result;
}

// 1 / (1 + a) for a in [0, 1), Q0 in and out. Newton-Raphson division in Q2.
inline int32_t oneOverOnePlusX(int32_t a) {
  const int32_t halfDenominator = roundingHalfSum(a, kRawMax);
  constexpr int32_t k48Over17 = 1515870810;      // Q2
  constexpr int32_t kNeg32Over17 = -1010580540;  // Q2
  int32_t x = wrapAdd(k48Over17, mul(halfDenominator, kNeg32Over17));
  for (int i = 0; i < 3; ++i) {
    const int32_t hx = mul(halfDenominator, x);
    const int32_t oneMinusHx = wrapSub(one(2), hx);
    x = wrapAdd(x, rescale<2, 4>(mul(x, oneMinusHx)));
  }
  // x approximates 1/halfDenominator = 2/(1+a); halving is a reinterpretation as Q1.
  return rescale<0, 1>(x);
}

// (1 - a) / (1 + a) for a in [0, 1), Q0 in and out.
inline int32_t oneMinusXOverOnePlusX(int32_t a) {
  const int32_t halfDenominator = roundingHalfSum(a, kRawMax);
  constexpr int32_t k48Over17 = 1515870810;
  constexpr int32_t kNeg32Over17 = -1010580540;
  int32_t x = wrapAdd(k48Over17, mul(halfDenominator, kNeg32Over17));
  for (int i = 0; i < 3; ++i) {
    const int32_t hx = mul(halfDenominator, x);
    const int32_t oneMinusHx = wrapSub(one(2), hx);
    x = wrapAdd(x, rescale<2, 4>(mul(x, oneMinusHx)));
  }
  return rescale<0, 2>(wrapSub(x, one(2)));
}

// 1 / (1 + exp(-a)), a in Q(IntBits), result in Q0.
template <int IntBits>
inline int32_t logistic(int32_t a) {
  if (a == 0) return 1 << 30;  // 0.5
  const bool positive = a > 0;
  const int32_t absA = positive ? a : -a;
  const int32_t ofPositive = oneOverOnePlusX(expOnNegativeValues<IntBits>(-absA));
  return positive ? ofPositive : wrapSub(kRawMax, ofPositive);
}

// tanh(a), a in Q(IntBits), result in Q0.
template <int IntBits>
inline int32_t tanh(int32_t a) {
  if (a == 0) return 0;
  const bool negative = a < 0;
  const int32_t negAbs = negative ? a : -a;
  // exp(2 * negAbs): doubling is a reinterpretation of the raw value as Q(IntBits + 1).
  const int32_t t = oneMinusXOverOnePlusX(expOnNegativeValues<IntBits + 1>(negAbs));
  return negative ? -t : t;
}

inline int countLeadingZeros32(uint32_t x) { return x == 0 ? 32 : __builtin_clz(x); }

// 1/sqrt(input) as a multiplier and shift for multiplyByQuantizedMultiplier-style use:
// *shift is a left shift (negative = right) when reverseShift is -1.
inline void invSqrtQuantizedMultiplier(int32_t input, int reverseShift, int32_t* multiplier,
                                       int* shift) {
  if (input <= 1) {
    // 0 is undefined and 1 would overflow the iteration below; both map to "times one".
    *multiplier = kRawMax;
    *shift = 0;
    return;
  }
  *shift = 11;
  while (input >= (1 << 29)) {
    input /= 4;
    ++*shift;
  }
  const unsigned maxLeftShiftBits = countLeadingZeros32(static_cast<uint32_t>(input)) - 1;
  const unsigned leftShiftBitPairs = maxLeftShiftBits / 2 - 1;
  *shift -= static_cast<int>(leftShiftBitPairs);
  input <<= 2 * leftShiftBitPairs;  // now in [2^27, 2^29)
  // Newton-Raphson for 1/sqrt in Q3, starting from 1.
  const int32_t fixedInput = input >> 1;
  const int32_t halfInput = mulByPOT<-1>(fixedInput);
  constexpr int32_t kThreeHalves = (1 << 28) + (1 << 27);
  int32_t x = one(3);
  for (int i = 0; i < 5; ++i) {
    const int32_t x3 = rescale<3, 9>(mul(mul(x, x), x));
    x = rescale<3, 6>(wrapSub(mul(kThreeHalves, x), mul(halfInput, x3)));
  }
  constexpr int32_t kHalfSqrt2 = 1518500250;  // sqrt(2)/2 in Q0
  x = mul(x, kHalfSqrt2);
  *multiplier = x;
  if (*shift < 0) {
    *multiplier = static_cast<int32_t>(static_cast<uint32_t>(*multiplier) << -*shift);
    *shift = 0;
  }
  *shift *= reverseShift;
}

}  // namespace fp
}  // namespace nn
