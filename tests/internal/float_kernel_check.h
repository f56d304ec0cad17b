// Shared by the float kernel tests (conv_direct_test.cc, gemm_float_test.cc): random inputs in
// [-1, 1] and the comparison of a kernel's output, written into a buffer with a NaN guard
// region after it, against a reference computed in another order.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace nn {
namespace kernel_check {

inline std::vector<float> randomVector(std::mt19937& rng, size_t n) {
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

// Same sums in another order (and with FMA): close, not equal. The bound scales with the
// terms' magnitudes (|x| <= 1, |w| <= 1). `got` has `guard` more elements than `want`, which
// must stay NaN (no write past the end).
inline void expectClose(const std::vector<float>& want, const std::vector<float>& got,
                        size_t guard, size_t terms, const std::string& what) {
  ASSERT_EQ(want.size() + guard, got.size());
  const float tol = 2e-6f * static_cast<float>(terms + 1);
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_NEAR(want[i], got[i], tol) << what << " at " << i;
  for (size_t i = want.size(); i < got.size(); ++i)
    ASSERT_TRUE(std::isnan(got[i])) << what << ": written past the output at " << i;
}

}  // namespace kernel_check
}  // namespace nn
