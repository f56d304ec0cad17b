// 1x1 CONV_2D layers the fast device computes in float16 where the processor has
// AVX512-FP16 (relaxed float32 models, TENSOR_FLOAT16 models; src/cpu/kernels/gemm_half.cc),
// through the public C API: shapes with at least 32 output channels, and narrow ones (8..48
// output channels, the narrow kernel; k >= 64) (the conformance vectors have none), against a double reference with the conformance vectors' relaxed tolerance
// (|got - want| <= 5 * 2^-10 * (1 + |want|)). Inputs and weights are positive, so no sum
// cancels and that tolerance, relative to |want|, is a fair float16 bound. The same models
// not relaxed stay within float32's. Passes on any processor (without AVX512-FP16, or with
// NNAPI_CPU_ISA below avx512fp16, everything is float32); where the float16 path is there,
// the relaxed result must also differ from the float32 one (it really ran in float16).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "test_util.h"

namespace {

using nntest::bytesOf;
using nntest::ModelBuilder;
using nntest::valuesOf;

struct Shape1x1 {
  uint32_t batches, h, w, inC, outC;
  int32_t activation;
};

bool float16PathExpected() {
  const char* cap = getenv("NNAPI_CPU_ISA");
  if (cap != nullptr && *cap != '\0' && strcmp(cap, "avx512") != 0 &&
      strcmp(cap, "avx512fp16") != 0)
    return false;
  FILE* f = fopen("/proc/cpuinfo", "r");
  if (f == nullptr) return false;
  char line[8192];
  bool found = false;
  while (!found && fgets(line, sizeof(line), f) != nullptr)
    found = strncmp(line, "flags", 5) == 0 && strstr(line, " avx512_fp16") != nullptr;
  fclose(f);
  return found;
}

// CONV_2D 1x1, stride 1, VALID (implicit padding), NHWC, type `type` throughout, run on the
// default device; output as float.
template <typename T>
std::vector<float> run(const Shape1x1& s, int type, bool relaxed, const std::vector<float>& in,
                       const std::vector<float>& filter, const std::vector<float>& bias) {
  auto cast = [](const std::vector<float>& v) { return std::vector<T>(v.begin(), v.end()); };
  ModelBuilder m;
  const uint32_t input = m.addOperand(type, {s.batches, s.h, s.w, s.inC});
  const uint32_t w = m.addConstant<T>(type, {s.outC, 1, 1, s.inC}, cast(filter));
  const uint32_t b = m.addConstant<T>(type, {s.outC}, cast(bias));
  const uint32_t out = m.addOperand(type, {s.batches, s.h, s.w, s.outC});
  m.addOperation(ANEURALNETWORKS_CONV_2D,
                 {input, w, b, m.addInt32(ANEURALNETWORKS_PADDING_VALID), m.addInt32(1),
                  m.addInt32(1), m.addInt32(s.activation)},
                 {out});
  EXPECT_EQ(m.finish({input}, {out}, relaxed), ANEURALNETWORKS_NO_ERROR);
  const size_t outCount = static_cast<size_t>(s.batches) * s.h * s.w * s.outC;
  auto r = nntest::runModel(m, {bytesOf(cast(in))}, {outCount * sizeof(T)});
  EXPECT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  if (r.status != ANEURALNETWORKS_NO_ERROR) return {};
  const std::vector<T> v = valuesOf<T>(r.outputs[0]);
  return std::vector<float>(v.begin(), v.end());
}

class RelaxedConv1x1 : public ::testing::TestWithParam<Shape1x1> {};

TEST_P(RelaxedConv1x1, Float32RelaxedAndFloat16WithinRelaxedTolerance) {
  const Shape1x1 s = GetParam();
  std::mt19937 rng(s.inC * 131 + s.outC);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  auto random = [&](size_t n) {
    std::vector<float> v(n);
    // Values exact in float16 too, so the float16 model sees the same numbers.
    for (float& x : v) x = static_cast<float>(static_cast<_Float16>(u(rng)));
    return v;
  };
  const size_t pixels = static_cast<size_t>(s.batches) * s.h * s.w;
  const auto in = random(pixels * s.inC), filter = random(size_t{s.outC} * s.inC),
             bias = random(s.outC);
  const float hi = s.activation == ANEURALNETWORKS_FUSED_RELU6 ? 6.f : INFINITY;
  std::vector<double> want(pixels * s.outC);
  for (size_t p = 0; p < pixels; ++p)
    for (uint32_t o = 0; o < s.outC; ++o) {
      double sum = bias[o];
      for (uint32_t i = 0; i < s.inC; ++i)
        sum += static_cast<double>(in[p * s.inC + i]) * filter[size_t{o} * s.inC + i];
      want[p * s.outC + o] = std::fmin(sum, hi);
    }
  const auto exact = run<float>(s, ANEURALNETWORKS_TENSOR_FLOAT32, false, in, filter, bias);
  const auto relaxed = run<float>(s, ANEURALNETWORKS_TENSOR_FLOAT32, true, in, filter, bias);
  const auto half = run<_Float16>(s, ANEURALNETWORKS_TENSOR_FLOAT16, false, in, filter, bias);
  ASSERT_EQ(exact.size(), want.size());
  ASSERT_EQ(relaxed.size(), want.size());
  ASSERT_EQ(half.size(), want.size());
  constexpr double kRelaxed = 5.0 / 1024;
  bool differs = false;
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(exact[i], want[i], 1e-5 + 1e-5 * std::fabs(want[i])) << "float32 at " << i;
    ASSERT_NEAR(relaxed[i], want[i], kRelaxed * (1 + std::fabs(want[i]))) << "relaxed at " << i;
    ASSERT_NEAR(half[i], want[i], kRelaxed * (1 + std::fabs(want[i]))) << "float16 at " << i;
    differs = differs || relaxed[i] != exact[i];
  }
  if (float16PathExpected()) {
    EXPECT_TRUE(differs) << "the relaxed model computed in float32";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, RelaxedConv1x1,
    ::testing::Values(Shape1x1{1, 7, 9, 40, 48, ANEURALNETWORKS_FUSED_NONE},
                      Shape1x1{2, 5, 5, 200, 72, ANEURALNETWORKS_FUSED_NONE},
                      Shape1x1{1, 16, 16, 24, 144, ANEURALNETWORKS_FUSED_RELU6},
                      Shape1x1{1, 3, 4, 1100, 96, ANEURALNETWORKS_FUSED_RELU},
                      Shape1x1{1, 8, 8, 16, 64, ANEURALNETWORKS_FUSED_NONE},
                      Shape1x1{1, 14, 13, 144, 24, ANEURALNETWORKS_FUSED_NONE},
                      Shape1x1{1, 9, 7, 64, 8, ANEURALNETWORKS_FUSED_NONE},
                      Shape1x1{2, 6, 5, 240, 40, ANEURALNETWORKS_FUSED_RELU}),
    [](const ::testing::TestParamInfo<Shape1x1>& info) {
      const Shape1x1& s = info.param;
      return "b" + std::to_string(s.batches) + "_" + std::to_string(s.h) + "x" +
             std::to_string(s.w) + "x" + std::to_string(s.inC) + "_to_" + std::to_string(s.outC);
    });

}  // namespace
