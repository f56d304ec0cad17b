// The two integer LSTM kernels, bit-exact with the NNAPI reference:
//  * QUANTIZED_16BIT_LSTM (feature level 3): uint8 input/output with the fixed range
//    [-1, 127/128], one int32 fully-connected layer over [input, previous output] producing
//    16-bit gate pre-activations with 3 integer bits, 16-bit fixed-point logistic/tanh, and a
//    16-bit cell state with 4 integer bits (scale 2^-11).
//  * QUANTIZED_LSTM (feature level 4): int8 input/output, int8 symmetric weights, int16 gates,
//    optional CIFG, peephole, layer normalization, projection and clipping, following the
//    reference's integer kernels (matmul with folded zero points, integer layer norm, 16-bit
//    fixed-point activations).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/fixed_point.h"
#include "spec/ops/common.h"
#include "spec/ops/lstm.h"

namespace nn {
namespace quantized_lstm {
namespace {

// ---- 16-bit fixed point (gemmlowp FixedPoint<int16_t, IntBits> semantics) ---------------
// A raw int16 in "Q k" has k integer bits and 15 - k fractional bits.
namespace fx16 {

inline int16_t wrap(int32_t v) { return static_cast<int16_t>(static_cast<uint16_t>(v)); }
inline int16_t add(int16_t a, int16_t b) { return wrap(int32_t{a} + b); }
inline int16_t sub(int16_t a, int16_t b) { return wrap(int32_t{a} - b); }
inline int16_t satAdd(int16_t a, int16_t b) {
  return static_cast<int16_t>(std::min(32767, std::max(-32768, int32_t{a} + b)));
}
inline int16_t mul(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min()) return 32767;
  const int32_t ab = int32_t{a} * int32_t{b};
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((ab + nudge) / (1 << 15));
}
inline int16_t roundingDivideByPOT(int16_t x, int e) {
  return static_cast<int16_t>(nn::roundingDivideByPOT(x, e));
}
// x * 2^E, saturating for E > 0, rounding for E < 0.
template <int E>
inline int16_t mulByPOT(int16_t x) {
  if constexpr (E == 0) {
    return x;
  } else if constexpr (E > 0) {
    constexpr int32_t threshold = (1 << (15 - E)) - 1;
    if (x > threshold) return 32767;
    if (x < -threshold) return -32768;
    return wrap(int32_t{x} * (1 << E));
  } else {
    return roundingDivideByPOT(x, -E);
  }
}
template <int Dst, int Src>
inline int16_t rescale(int16_t x) {
  return mulByPOT<Src - Dst>(x);
}
inline int16_t halfSum(int16_t a, int16_t b) {
  const int32_t sum = int32_t{a} + b;
  return static_cast<int16_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
}
// gemmlowp writes constants as 32-bit raw values; the 16-bit ones are those rounded by 2^16.
constexpr int16_t constant(int32_t raw32) {
  const int32_t mask = 0xFFFF;
  const int32_t remainder = raw32 & mask;
  const int32_t threshold = (mask >> 1) + (raw32 < 0 ? 1 : 0);
  return static_cast<int16_t>((raw32 >> 16) + (remainder > threshold ? 1 : 0));
}
inline int16_t one(int k) { return k == 0 ? 32767 : static_cast<int16_t>(1 << (15 - k)); }

// exp(a) for a in [-1/4, 0), Q0.
inline int16_t expOnIntervalNegQuarterTo0(int16_t a) {
  constexpr int16_t kConstantTerm = constant(1895147668);
  constexpr int16_t kOneThird = constant(715827883);
  const int16_t x = add(a, static_cast<int16_t>(1 << 12));  // a + 1/8
  const int16_t x2 = mul(x, x);
  const int16_t x3 = mul(x2, x);
  const int16_t x4 = mul(x2, x2);
  const int16_t x4Over4 = mulByPOT<-2>(x4);
  const int16_t poly = mulByPOT<-1>(add(mul(add(x4Over4, x3), kOneThird), x2));
  return satAdd(kConstantTerm, mul(kConstantTerm, add(x, poly)));
}

// exp(a) for a <= 0 in Q(IntBits); result in Q0.
template <int IntBits>
inline int16_t expOnNegativeValues(int16_t a) {
  constexpr int kFracBits = 15 - IntBits;
  constexpr int16_t kOneQuarter = static_cast<int16_t>(1 << (kFracBits - 2));
  constexpr int16_t kMask = kOneQuarter - 1;
  const int16_t aModQuarterMinusQuarter = sub(static_cast<int16_t>(a & kMask), kOneQuarter);
  int16_t result = expOnIntervalNegQuarterTo0(rescale<0, IntBits>(aModQuarterMinusQuarter));
  const int16_t remainder = sub(aModQuarterMinusQuarter, a);
  constexpr int32_t kFactors[7] = {1672461947, 1302514674, 790015084, 290630308,
                                   39332535,   720401,     242};
  for (int k = -2; k <= 4; ++k) {
    if (IntBits > k) {
      const int shift = kFracBits + k;
      if (remainder & (1 << shift)) result = mul(result, constant(kFactors[k + 2]));
    }
  }
  if constexpr (IntBits > 5) {
    constexpr int16_t kClamp = constant(-(1 << (36 - IntBits)));
    if (a < kClamp) result = 0;
  }
  if (a == 0) result = 32767;
  return result;
}

// Newton-Raphson approximation of 1 / halfDenominator (the result in Q2).
inline int16_t reciprocalOfHalfDenominator(int16_t halfDenominator) {
  constexpr int16_t k48Over17 = constant(1515870810);
  constexpr int16_t kNeg32Over17 = constant(-1010580540);
  int16_t x = add(k48Over17, mul(halfDenominator, kNeg32Over17));
  for (int i = 0; i < 3; ++i) {
    const int16_t hx = mul(halfDenominator, x);
    const int16_t oneMinusHx = sub(one(2), hx);
    x = add(x, rescale<2, 4>(mul(x, oneMinusHx)));
  }
  return x;
}
inline int16_t oneOverOnePlusX(int16_t a) {
  return rescale<0, 1>(reciprocalOfHalfDenominator(halfSum(a, 32767)));
}
inline int16_t oneMinusXOverOnePlusX(int16_t a) {
  return rescale<0, 2>(sub(reciprocalOfHalfDenominator(halfSum(a, 32767)), one(2)));
}

template <int IntBits>
inline int16_t logistic(int16_t a) {
  if (a == 0) return constant(1 << 30);
  const bool positive = a > 0;
  const int16_t absA = positive ? a : wrap(-int32_t{a});
  const int16_t ofPositive = oneOverOnePlusX(expOnNegativeValues<IntBits>(wrap(-int32_t{absA})));
  return positive ? ofPositive : sub(32767, ofPositive);
}

template <int IntBits>
inline int16_t tanh(int16_t a) {
  if (a == 0) return 0;
  const bool negative = a < 0;
  const int16_t negAbs = negative ? a : wrap(-int32_t{a});
  const int16_t t = oneMinusXOverOnePlusX(expOnNegativeValues<IntBits + 1>(negAbs));
  return negative ? wrap(-int32_t{t}) : t;
}

inline int16_t tanhDispatch(int intBits, int16_t a) {
  switch (intBits) {
    case 0: return tanh<0>(a);
    case 1: return tanh<1>(a);
    case 2: return tanh<2>(a);
    case 3: return tanh<3>(a);
    case 4: return tanh<4>(a);
    case 5: return tanh<5>(a);
    case 6: return tanh<6>(a);
    default: return 0;
  }
}

}  // namespace fx16

}  // namespace

// =========================================================================================
// QUANTIZED_16BIT_LSTM

namespace q16 {
namespace {

// Gate order of the weight/bias inputs (input, forget, cell, output) and of the reference's
// fused matrix rows (input, cell, forget, output).
constexpr uint32_t kGateOfRow[4] = {0, 2, 1, 3};

Status execute(OpContext& ctx) {
  const uint32_t B = ctx.inputShape(kInput).dim(0), I = ctx.inputShape(kInput).dim(1),
                 O = ctx.inputShape(kPrevOutput).dim(1);
  const int32_t weightsZero = ctx.inputShape(kInputToInput).zeroPoint;
  // The fully-connected output has scale 2^-12 (3 integer bits in int16).
  int32_t multiplier;
  int shift;
  if (!quantizeMultiplier(4096.0 * ctx.inputShape(kInputGateBias).scale, &multiplier, &shift))
    return ctx.fail("bias scale %g gives no representable accumulator multiplier",
                    ctx.inputShape(kInputGateBias).scale);
  const uint8_t* input = ctx.input<uint8_t>(kInput);
  const uint8_t* prevOutput = ctx.input<uint8_t>(kPrevOutput);
  const int16_t* prevCell = ctx.input<int16_t>(kPrevCellState);
  int16_t* cellOut = ctx.output<int16_t>(kCellStateOut);
  uint8_t* output = ctx.output<uint8_t>(kOutput);

  // The reference fuses the eight weight matrices into rows of [recurrent | input] weights
  // (O + I columns) but multiplies them with the concatenation [input | previous output]. The
  // conformance vectors encode exactly that pairing, so column d of the fused row meets
  // element d of the concatenated activations here too.
  // gates[b][row] for the fused rows (input, cell, forget, output) x O.
  std::vector<int16_t> gates(static_cast<size_t>(B) * 4 * O);
  for (uint32_t b = 0; b < B; ++b) {
    const uint8_t* x = input + static_cast<size_t>(b) * I;
    const uint8_t* h = prevOutput + static_cast<size_t>(b) * O;
    for (uint32_t r = 0; r < 4; ++r) {
      const uint32_t gate = kGateOfRow[r];
      const uint8_t* wx = ctx.input<uint8_t>(kInputToInput + gate);
      const uint8_t* wh = ctx.input<uint8_t>(kRecToInput + gate);
      const int32_t* bias = ctx.input<int32_t>(kInputGateBias + gate);
      for (uint32_t o = 0; o < O; ++o) {
        int32_t acc = bias[o];
        for (uint32_t d = 0; d < I + O; ++d) {
          const int32_t act = (d < I ? x[d] : h[d - I]) - 128;
          const int32_t wv = d < O ? wh[static_cast<size_t>(o) * O + d]
                                   : wx[static_cast<size_t>(o) * I + (d - O)];
          acc += act * (wv - weightsZero);
        }
        acc = multiplyByQuantizedMultiplier(acc, multiplier, shift);
        gates[(static_cast<size_t>(b) * 4 + r) * O + o] =
            static_cast<int16_t>(std::max(-32768, std::min(32767, acc)));
      }
    }
  }
  for (uint32_t b = 0; b < B; ++b) {
    const int16_t* g = gates.data() + static_cast<size_t>(b) * 4 * O;
    for (uint32_t c = 0; c < O; ++c) {
      const int16_t inputGate = fx16::logistic<3>(g[c]);
      const int16_t modulation = fx16::tanh<3>(g[O + c]);
      const int16_t forgetGate = fx16::logistic<3>(g[2 * O + c]);
      const int16_t outputGate = fx16::logistic<3>(g[3 * O + c]);
      const int16_t inTimesMod = fx16::mul(inputGate, modulation);                       // Q0
      const int16_t keptState =
          fx16::mul(forgetGate, prevCell[static_cast<size_t>(b) * O + c]);  // Q4
      const int16_t newState = fx16::satAdd(fx16::rescale<4, 0>(inTimesMod), keptState);
      const int16_t activ = fx16::mul(outputGate, fx16::tanh<3>(fx16::rescale<3, 4>(newState)));
      cellOut[static_cast<size_t>(b) * O + c] = newState;
      const int16_t rescaled = fx16::roundingDivideByPOT(activ, 8);
      output[static_cast<size_t>(b) * O + c] =
          static_cast<uint8_t>(128 + std::max<int16_t>(-128, std::min<int16_t>(127, rescaled)));
    }
  }
  return kOk;
}

}  // namespace
}  // namespace q16

// =========================================================================================
// QUANTIZED_LSTM

namespace ql {
namespace {

// ---- the reference's integer kernels ----

// output[b, r] = sat(output[b, r] + requant(bias[r] + sum_c input[b, c] * w[r, c]) + zp)
template <typename Out>
void matmulAccumulate(const int8_t* input, const int32_t* bias, const int8_t* weights,
                      int32_t multiplier, int shift, uint32_t batch, uint32_t nIn, uint32_t nOut,
                      int32_t outputZp, Out* output) {
  constexpr int32_t kMax = std::numeric_limits<Out>::max(), kMin = std::numeric_limits<Out>::min();
  for (uint32_t b = 0; b < batch; ++b) {
    for (uint32_t r = 0; r < nOut; ++r) {
      int32_t acc = bias[r];
      for (uint32_t c = 0; c < nIn; ++c)
        acc += int32_t{input[static_cast<size_t>(b) * nIn + c]} *
               int32_t{weights[static_cast<size_t>(r) * nIn + c]};
      acc = multiplyByQuantizedMultiplier(acc, multiplier, shift);
      acc += outputZp;
      Out& o = output[static_cast<size_t>(b) * nOut + r];
      acc += o;
      o = static_cast<Out>(std::min(kMax, std::max(kMin, acc)));
    }
  }
}

// zeroPoint * rowsum(weights) + bias (bias may be null).
std::vector<int32_t> foldZeroPoint(int32_t zeroPoint, const int8_t* weights, uint32_t rows,
                                   uint32_t cols, const int32_t* bias) {
  std::vector<int32_t> out(rows, 0);
  for (uint32_t r = 0; r < rows; ++r) {
    if (bias) out[r] = bias[r];
    int32_t sum = 0;
    for (uint32_t c = 0; c < cols; ++c) sum += weights[static_cast<size_t>(r) * cols + c];
    out[r] += sum * zeroPoint;
  }
  return out;
}

void layerNorm(int16_t* v, const int16_t* weights, const int32_t* bias, int32_t scaleA,
               int scaleB, int32_t varianceLimit, uint32_t batch, uint32_t n) {
  constexpr int kOverflowGuard = 1 << 20;
  for (uint32_t b = 0; b < batch; ++b) {
    int16_t* x = v + static_cast<size_t>(b) * n;
    int64_t sum = 0, sumSq = 0;
    for (uint32_t j = 0; j < n; ++j) {
      sum += x[j];
      sumSq += int32_t{x[j]} * int32_t{x[j]};
    }
    const int32_t mean = static_cast<int32_t>(sum * 1024 / static_cast<int64_t>(n));
    const int32_t temp = kOverflowGuard / static_cast<int32_t>(n);
    const int64_t variance = sumSq * temp - static_cast<int64_t>(mean) * mean;
    int32_t variance2 = static_cast<int32_t>(variance / kOverflowGuard);
    if (variance2 < 1) variance2 = varianceLimit;
    int32_t invA;
    int invB;
    fp::invSqrtQuantizedMultiplier(variance2, -1, &invA, &invB);
    for (uint32_t j = 0; j < n; ++j) {
      const int32_t shifted = 1024 * int32_t{x[j]} - mean;
      const int32_t rescaled = multiplyByQuantizedMultiplier(shifted, invA, invB);
      const int64_t val3 = static_cast<int64_t>(rescaled) * weights[j] + bias[j];
      const int32_t val4 = static_cast<int32_t>((val3 > 0 ? val3 + 512 : val3 - 512) / 1024);
      int32_t val5 = multiplyByQuantizedMultiplier(val4, scaleA, scaleB + 12);
      val5 = std::min<int32_t>(std::max<int32_t>(INT16_MIN, val5), INT16_MAX);
      x[j] = static_cast<int16_t>(val5);
    }
  }
}

// result[b, i] = sat16(result[b, i] + requant(w[i] * c[b, i]))
void peepholeAccumulate(const int16_t* w, const int16_t* c, uint32_t n, uint32_t batch,
                        int32_t multiplier, int shift, int16_t* result) {
  for (size_t k = 0; k < static_cast<size_t>(batch) * n; ++k) {
    int32_t prod = int32_t{w[k % n]} * int32_t{c[k]};
    prod = multiplyByQuantizedMultiplier(prod, multiplier, shift);
    result[k] = static_cast<int16_t>(std::max(-32768, std::min(32767, prod + result[k])));
  }
}

Status execute(OpContext& ctx) {
  Sizes s;
  NN_RETURN_IF_ERROR(configure(ctx, &s));
  const uint32_t B = s.batch, I = s.input, C = s.units, O = s.output;
  const size_t BC = static_cast<size_t>(B) * C, BO = static_cast<size_t>(B) * O;
  const bool cifg = !has(ctx, kInputToInput);
  const bool peephole = has(ctx, kCellToOutput);
  const bool layerNormOn = has(ctx, kOutputLayerNorm);
  const bool projection = has(ctx, kProjWeights);

  auto scalarF = [&](uint32_t i) { return has(ctx, i) ? ctx.scalar<float>(i) : 0.f; };
  const float cellClip = scalarF(kCellClip), projClip = scalarF(kProjClip);
  const float inputInter = ctx.scalar<float>(kInputIntermediateScale);
  const float forgetInter = ctx.scalar<float>(kForgetIntermediateScale);
  const float cellInter = ctx.scalar<float>(kCellIntermediateScale);
  const float outputInter = ctx.scalar<float>(kOutputIntermediateScale);
  const int32_t hiddenZp = ctx.scalar<int32_t>(kHiddenStateZeroPoint);
  const float hiddenScale = ctx.scalar<float>(kHiddenStateScale);

  const Shape& inShape = ctx.inputShape(kInput);
  const Shape& prevOutShape = ctx.inputShape(kPrevOutput);
  const Shape& prevCellShape = ctx.inputShape(kPrevCellState);
  int cellShift;
  checkedLog2(prevCellShape.scale, &cellShift);

  // Effective scales, computed in float like the reference, then decomposed.
  bool ok = true;
  auto quant = [&](float real, int32_t* m, int* sh) {
    if (!quantizeMultiplier(real, m, sh)) ok = false;
  };
  struct GateScales {
    int32_t inA = 0, recA = 0, cellA = 0, lnA = 0;
    int inB = 0, recB = 0, cellB = 0, lnB = 0;
  };
  auto gateScales = [&](uint32_t wIn, uint32_t wRec, uint32_t wCell, uint32_t ln,
                        float inter) {
    GateScales g;
    const float inScale = ctx.inputShape(wIn).scale * inShape.scale / inter;
    quant(inScale, &g.inA, &g.inB);
    const float recScale = ctx.inputShape(wRec).scale * prevOutShape.scale / inter;
    quant(recScale, &g.recA, &g.recB);
    if (peephole && wCell != kNoInput && has(ctx, wCell)) {
      const float cellScale =
          static_cast<float>(std::pow(2, cellShift) * ctx.inputShape(wCell).scale / inter);
      quant(cellScale, &g.cellA, &g.cellB);
    }
    if (layerNormOn && has(ctx, ln)) quant(ctx.inputShape(ln).scale, &g.lnA, &g.lnB);
    return g;
  };
  GateScales inputG;
  if (!cifg)
    inputG = gateScales(kInputToInput, kRecToInput, kCellToInput, kInputLayerNorm, inputInter);
  const GateScales forgetG =
      gateScales(kInputToForget, kRecToForget, kCellToForget, kForgetLayerNorm, forgetInter);
  const GateScales cellG =
      gateScales(kInputToCell, kRecToCell, kNoInput, kCellLayerNorm, cellInter);
  const GateScales outputG =
      gateScales(kInputToOutput, kRecToOutput, kCellToOutput, kOutputLayerNorm, outputInter);
  int32_t hiddenA;
  int hiddenB;
  quant(static_cast<float>(std::pow(2, -15) / hiddenScale * std::pow(2, -15)), &hiddenA,
        &hiddenB);
  int32_t projA = 0;
  int projB = 0;
  if (projection)
    quant(ctx.inputShape(kProjWeights).scale * hiddenScale / prevOutShape.scale, &projA, &projB);
  if (!ok) return ctx.fail("an effective scale of the quantized LSTM is not representable");

  int16_t quantizedCellClip = 0;
  if (cellClip > 0.f)
    quantizedCellClip = static_cast<int16_t>(
        std::min(std::max(cellClip / prevCellShape.scale, -32768.0f), 32767.0f));
  int8_t quantizedProjClip = 0;
  if (projClip > 0.f && projection)
    quantizedProjClip = static_cast<int8_t>(
        std::min(std::max(projClip / ctx.inputShape(kProjWeights).scale, -128.0f), 127.0f));

  const int8_t* input = ctx.input<int8_t>(kInput);
  const int8_t* prevOutput = ctx.input<int8_t>(kPrevOutput);
  const int16_t* prevCell = ctx.input<int16_t>(kPrevCellState);
  auto w8 = [&](uint32_t i) { return ctx.input<int8_t>(i); };
  // With layer normalization the gate bias is added after normalizing; without it, the bias
  // joins the input matmul's folded zero-point term.
  auto inBias = [&](uint32_t w, uint32_t bias) {
    return foldZeroPoint(-inShape.zeroPoint, w8(w), C, I,
                         layerNormOn ? nullptr : ctx.input<int32_t>(bias));
  };
  auto recBias = [&](uint32_t w) {
    return foldZeroPoint(-prevOutShape.zeroPoint, w8(w), C, O, nullptr);
  };
  auto varianceLimit = [&](uint32_t ln) {
    return has(ctx, ln) ? std::min(1, static_cast<int32_t>(10000 * ctx.inputShape(ln).scale))
                        : 1;
  };

  std::vector<int16_t> inputGate(BC, 0), forgetGate(BC, 0), cellGate(BC, 0), outputGate(BC, 0);
  int16_t* cellOut = ctx.output<int16_t>(kCellStateOut);

  // Pre-activation of one gate: two matmuls, optional peephole on `cellForPeephole`, layer
  // norm (which also adds the gate bias). The peephole reads the previous cell state for the
  // input and forget gates and the new one for the output gate, over the num_units cells.
  auto gate = [&](int16_t* g, uint32_t wIn, uint32_t wRec, uint32_t wCell, uint32_t ln,
                  uint32_t bias, const GateScales& sc, const int16_t* cellForPeephole) {
    matmulAccumulate(input, inBias(wIn, bias).data(), w8(wIn), sc.inA, sc.inB, B, I, C, 0, g);
    matmulAccumulate(prevOutput, recBias(wRec).data(), w8(wRec), sc.recA, sc.recB, B, O, C, 0, g);
    if (peephole && wCell != kNoInput && has(ctx, wCell))
      peepholeAccumulate(ctx.input<int16_t>(wCell), cellForPeephole, C, B, sc.cellA, sc.cellB, g);
    if (layerNormOn)
      layerNorm(g, ctx.input<int16_t>(ln), ctx.input<int32_t>(bias), sc.lnA, sc.lnB,
                varianceLimit(ln), B, C);
  };

  gate(forgetGate.data(), kInputToForget, kRecToForget, kCellToForget, kForgetLayerNorm,
       kForgetGateBias, forgetG, prevCell);
  for (int16_t& v : forgetGate) v = fx16::logistic<3>(v);

  gate(cellGate.data(), kInputToCell, kRecToCell, kNoInput, kCellLayerNorm, kCellBias, cellG,
       nullptr);
  for (int16_t& v : cellGate) v = fx16::tanh<3>(v);

  if (cifg) {
    for (size_t k = 0; k < BC; ++k) inputGate[k] = static_cast<int16_t>(32767 - forgetGate[k]);
  } else {
    gate(inputGate.data(), kInputToInput, kRecToInput, kCellToInput, kInputLayerNorm,
         kInputGateBias, inputG, prevCell);
    for (int16_t& v : inputGate) v = fx16::logistic<3>(v);
  }

  // New cell state: forget * c_prev (>> 15) + input * cell (>> 30 + cellShift), saturated.
  for (size_t k = 0; k < BC; ++k) {
    const int16_t kept = static_cast<int16_t>(
        nn::roundingDivideByPOT(int32_t{forgetGate[k]} * int32_t{prevCell[k]}, 15));
    const int16_t added = static_cast<int16_t>(
        nn::roundingDivideByPOT(int32_t{inputGate[k]} * int32_t{cellGate[k]}, 30 + cellShift));
    int16_t c = static_cast<int16_t>(std::min(32767, std::max(-32768, int32_t{kept} + added)));
    if (quantizedCellClip > 0)
      c = std::min<int16_t>(quantizedCellClip, std::max<int16_t>(-quantizedCellClip, c));
    cellOut[k] = c;
  }

  gate(outputGate.data(), kInputToOutput, kRecToOutput, kCellToOutput, kOutputLayerNorm,
       kOutputGateBias, outputG, cellOut);
  for (int16_t& v : outputGate) v = fx16::logistic<3>(v);

  // Hidden state: output gate * tanh(cell), requantized to int8 around the hidden zero point.
  std::vector<int8_t> hidden(BC);
  for (size_t k = 0; k < BC; ++k) {
    const int16_t t = fx16::tanhDispatch(cellShift + 15, cellOut[k]);
    int32_t v = int32_t{outputGate[k]} * int32_t{t};
    v = multiplyByQuantizedMultiplier(v, hiddenA, hiddenB);
    v -= hiddenZp;
    hidden[k] = static_cast<int8_t>(std::min(127, std::max(-128, v)));
  }

  int8_t* output = ctx.output<int8_t>(kOutput);
  if (projection) {
    const std::vector<int32_t> projBias =
        foldZeroPoint(hiddenZp, w8(kProjWeights), O, C,
                      has(ctx, kProjBias) ? ctx.input<int32_t>(kProjBias) : nullptr);
    std::fill(output, output + BO, int8_t{0});
    matmulAccumulate(hidden.data(), projBias.data(), w8(kProjWeights), projA, projB, B, C, O,
                     prevOutShape.zeroPoint, output);
    if (quantizedProjClip > 0)
      for (size_t k = 0; k < BO; ++k)
        output[k] = std::min<int8_t>(quantizedProjClip,
                                     std::max<int8_t>(-quantizedProjClip, output[k]));
  } else {
    std::copy_n(hidden.data(), BO, output);
  }
  std::copy_n(output, BO, ctx.output<int8_t>(kOutputStateOut));
  return kOk;
}

}  // namespace
}  // namespace ql
}  // namespace quantized_lstm

NN_DEFINE_CPU_KERNEL(QUANTIZED_16BIT_LSTM, quantized_lstm::q16::execute);
NN_DEFINE_CPU_KERNEL(QUANTIZED_LSTM, quantized_lstm::ql::execute);

}  // namespace nn
