// The requantization helpers of the operation catalog must be defined for every shift a
// hostile model's scales can produce (the model-API fuzzer found `x >> 43` under UBSan), and
// unchanged for the shifts valid models use.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "spec/ops/common.h"

namespace {

// Round half away from zero of x / 2^e, computed in floating point (exact for these ranges).
int32_t expectedDivide(int32_t x, int e) {
  const double q = static_cast<double>(x) / std::ldexp(1.0, e);
  return static_cast<int32_t>(q < 0 ? -std::floor(-q + 0.5) : std::floor(q + 0.5));
}

TEST(FixedPoint, RoundingDivideByPotAnyExponent) {
  const int32_t values[] = {0, 1, -1, 2, -2, 3, -3, 1000, -1000, (1 << 30), -(1 << 30),
                            std::numeric_limits<int32_t>::max(),
                            std::numeric_limits<int32_t>::min()};
  for (int32_t x : values) {
    for (int e = 0; e <= 70; ++e) {
      const int32_t want = e == 0 ? x : (e > 62 ? 0 : expectedDivide(x, e));
      EXPECT_EQ(nn::roundingDivideByPOT(x, e), want) << x << " / 2^" << e;
    }
  }
}

TEST(FixedPoint, SaturatingShiftLeft) {
  EXPECT_EQ(nn::saturatingShiftLeft(3, 2), 12);
  EXPECT_EQ(nn::saturatingShiftLeft(-3, 2), -12);
  EXPECT_EQ(nn::saturatingShiftLeft(1, 30), 1 << 30);
  EXPECT_EQ(nn::saturatingShiftLeft(1, 31), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(nn::saturatingShiftLeft(-1, 31), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(nn::saturatingShiftLeft(1 << 20, 20), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(nn::saturatingShiftLeft(-(1 << 20), 20), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(nn::saturatingShiftLeft(0, 40), 0);
  EXPECT_EQ(nn::saturatingShiftLeft(7, 0), 7);
  // Through the requantization entry point with an absurd left shift: defined, saturated.
  EXPECT_EQ(nn::multiplyByQuantizedMultiplier(5, 1 << 30, 40),
            nn::saturatingRoundingDoublingHighMul(std::numeric_limits<int32_t>::max(), 1 << 30));
  EXPECT_EQ(nn::multiplyByQuantizedMultiplier(5, 1 << 30, -43), 0);
}

}  // namespace
