#include "spec/ops/common.h"
#include "spec/ops/dim_math.h"

namespace nn {

bool isValidFusedActivation(int32_t code) { return code >= 0 && code <= 3; }

void activationRangeFloat(int32_t activation, float* outMin, float* outMax) {
  switch (activation) {
    case 1: *outMin = 0.f; *outMax = std::numeric_limits<float>::max(); break;
    case 2: *outMin = -1.f; *outMax = 1.f; break;
    case 3: *outMin = 0.f; *outMax = 6.f; break;
    default:
      *outMin = std::numeric_limits<float>::lowest();
      *outMax = std::numeric_limits<float>::max();
  }
}

void activationRangeQuantized(int32_t activation, const Shape& output, int32_t* outMin,
                              int32_t* outMax) {
  int32_t qmin = 0, qmax = 255;
  if (output.type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED) {
    qmin = -128;
    qmax = 127;
  }
  const float scale = output.scale;
  const int32_t zp = output.zeroPoint;
  // The reference quantizes the clamp bounds with a float division and std::round.
  auto quantize = [scale, zp](float f) { return zp + static_cast<int32_t>(std::round(f / scale)); };
  switch (activation) {
    case 1:
      *outMin = std::max(qmin, quantize(0.f));
      *outMax = qmax;
      break;
    case 2:
      *outMin = std::max(qmin, quantize(-1.f));
      *outMax = std::min(qmax, quantize(1.f));
      break;
    case 3:
      *outMin = std::max(qmin, quantize(0.f));
      *outMax = std::min(qmax, quantize(6.f));
      break;
    default:
      *outMin = qmin;
      *outMax = qmax;
  }
}

void implicitPadding(uint32_t inSize, uint32_t stride, uint32_t dilation, uint32_t filterSize,
                     int32_t paddingCode, uint32_t* head, uint32_t* tail) {
  *head = *tail = 0;
  if (paddingCode != kPaddingSame || stride == 0) return;
  const int64_t outSize = (static_cast<int64_t>(inSize) + stride - 1) / stride;
  // Saturating: filter * dilation and out * stride may exceed int64 for hostile values; a
  // padding that does not fit 32 bits is clamped (the window check then fails cleanly).
  const uint64_t effective =
      dim_math::addSat(dim_math::mulSat(filterSize > 0 ? filterSize - 1 : 0, dilation), 1);
  const uint64_t covered =
      dim_math::addSat(dim_math::mulSat(uint64_t(outSize > 0 ? outSize - 1 : 0), stride), effective);
  const uint64_t needed = covered > inSize ? covered - inSize : 0;
  *head = static_cast<uint32_t>(std::min<uint64_t>(needed / 2, UINT32_MAX));
  *tail = static_cast<uint32_t>(std::min<uint64_t>(needed - needed / 2, UINT32_MAX));
}

bool windowOutputSize(uint32_t inSize, uint32_t filterSize, uint32_t stride, uint32_t dilation,
                      uint32_t padHead, uint32_t padTail, uint32_t* out) {
  if (stride == 0 || dilation == 0 || filterSize == 0) return false;
  const uint64_t effective = dim_math::addSat(dim_math::mulSat(filterSize - 1, dilation), 1);
  const uint64_t padded = dim_math::addSat(dim_math::addSat(inSize, padHead), padTail);
  if (padded < effective) return false;
  // A 32-bit input plus two 32-bit paddings may give more than 2^32 - 1 outputs.
  return dim_math::stridedDim(padded - effective, stride, out);
}

bool quantizeMultiplier(double realMultiplier, int32_t* quantized, int* shift) {
  if (!(realMultiplier >= 0.0) || !std::isfinite(realMultiplier)) return false;
  if (realMultiplier == 0.0) {
    *quantized = 0;
    *shift = 0;
    return true;
  }
  const double q = std::frexp(realMultiplier, shift);
  int64_t qFixed = static_cast<int64_t>(std::round(q * (1ll << 31)));
  if (qFixed == (1ll << 31)) {
    qFixed /= 2;
    ++*shift;
  }
  if (*shift < -31) {  // too small to represent: flush to zero
    *shift = 0;
    qFixed = 0;
  }
  if (*shift > 30) return false;
  *quantized = static_cast<int32_t>(qFixed);
  return true;
}

bool quantizeMultiplierSmallerThanOne(double realMultiplier, int32_t* quantized, int* rightShift) {
  if (!(realMultiplier >= 0.0 && realMultiplier < 1.0)) return false;
  int shift = 0;
  if (!quantizeMultiplier(realMultiplier, quantized, &shift)) return false;
  if (shift > 0) return false;
  *rightShift = -shift;
  return true;
}

bool quantizeMultiplierGreaterThanOne(double realMultiplier, int32_t* quantized, int* leftShift) {
  if (!(realMultiplier > 1.0)) return false;
  int shift = 0;
  if (!quantizeMultiplier(realMultiplier, quantized, &shift)) return false;
  if (shift < 0) return false;
  *leftShift = shift;
  return true;
}

bool convolutionMultiplier(const Shape& input, const Shape& filter, const Shape& bias,
                           const Shape& output, double* multiplier) {
  const float product = input.scale * filter.scale;  // float product, as the reference
  const double inputProductScale = product;
  const double biasScale = bias.scale;
  if (std::abs(inputProductScale - biasScale) > 1e-6 * std::min(inputProductScale, biasScale))
    return false;
  if (inputProductScale < 0 || output.scale <= 0) return false;
  *multiplier = inputProductScale / output.scale;
  return true;
}

int32_t calculateInputRadius(int inputIntegerBits, int inputLeftShift) {
  const double maxInputRescaled = 1.0 * ((1 << inputIntegerBits) - 1) *
                                  (1ll << (31 - inputIntegerBits)) / (1ll << inputLeftShift);
  return static_cast<int32_t>(std::floor(maxInputRescaled));
}

}  // namespace nn
