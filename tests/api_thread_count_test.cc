// ANNLinux_Compilation_setCpuThreadCount: argument and state rules, and the same bits for every
// thread count (the kernels split work differently, the arithmetic per element does not change).
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;

// input [1,32,32,8] -> CONV_2D 3x3 (16 filters, SAME, RELU) -> DEPTHWISE 3x3 -> ADD(self) -> out.
void buildModel(ModelBuilder* m) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  auto random = [&](size_t n) {
    std::vector<float> v(n);
    for (float& x : v) x = dist(rng);
    return v;
  };
  const uint32_t in = m->addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 32, 32, 8});
  const uint32_t f1 = m->addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, {16, 3, 3, 8}, random(16 * 9 * 8));
  const uint32_t b1 = m->addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, {16}, random(16));
  const uint32_t c1 = m->addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 32, 32, 16});
  m->addOperation(ANEURALNETWORKS_CONV_2D,
                  {in, f1, b1, m->addInt32(1), m->addInt32(1), m->addInt32(1), m->addInt32(1)}, {c1});
  const uint32_t f2 = m->addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 3, 3, 16}, random(9 * 16));
  const uint32_t b2 = m->addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, {16}, random(16));
  const uint32_t c2 = m->addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 32, 32, 16});
  m->addOperation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
                  {c1, f2, b2, m->addInt32(1), m->addInt32(1), m->addInt32(1), m->addInt32(1),
                   m->addInt32(0)},
                  {c2});
  const uint32_t out = m->addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 32, 32, 16});
  m->addOperation(ANEURALNETWORKS_ADD, {c2, c1, m->addInt32(0)}, {out});
  ASSERT_EQ(m->finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
}

// input [1,1152] -> FULLY_CONNECTED to 63 units -> out: one row against 290 KB of weights,
// which the threads split by output columns although its MACs are below the parallel
// threshold (the heads of hand_landmark_full).
constexpr uint32_t kFcIn = 1152, kFcUnits = 63;
void buildFullyConnected(ModelBuilder* m) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> w(kFcUnits * kFcIn), b(kFcUnits);
  for (float& x : w) x = dist(rng);
  for (float& x : b) x = dist(rng);
  const uint32_t in = m->addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, kFcIn});
  const uint32_t wt = m->addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, {kFcUnits, kFcIn}, w);
  const uint32_t bias = m->addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, {kFcUnits}, b);
  const uint32_t out = m->addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, kFcUnits});
  m->addOperation(ANEURALNETWORKS_FULLY_CONNECTED, {in, wt, bias, m->addInt32(0)}, {out});
  ASSERT_EQ(m->finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
}

std::vector<float> run(const ModelBuilder& m, uint32_t threads, const std::vector<float>& input,
                       size_t outputSize = 32 * 32 * 16) {
  ANeuralNetworksCompilation* c = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_create(m.get(), &c), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANNLinux_Compilation_setCpuThreadCount(c, threads), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  std::vector<float> out(outputSize);
  ANeuralNetworksExecution* e = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution_setInput(e, 0, nullptr, input.data(), input.size() * sizeof(float));
  ANeuralNetworksExecution_setOutput(e, 0, nullptr, out.data(), out.size() * sizeof(float));
  EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(c);
  return out;
}

TEST(ThreadCount, RejectsBadArgumentsAndLateCalls) {
  ModelBuilder m;
  buildModel(&m);
  EXPECT_EQ(ANNLinux_Compilation_setCpuThreadCount(nullptr, 1), ANEURALNETWORKS_UNEXPECTED_NULL);
  ANeuralNetworksCompilation* c = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(m.get(), &c), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANNLinux_Compilation_setCpuThreadCount(c, 65), ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(std::string(ANNLinux_getLastErrorMessage()).find("at most 64"), std::string::npos);
  EXPECT_EQ(ANNLinux_Compilation_setCpuThreadCount(c, 0), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANNLinux_Compilation_setCpuThreadCount(c, 2), ANEURALNETWORKS_BAD_STATE);
  ANeuralNetworksCompilation_free(c);
}

TEST(ThreadCount, SameBitsForEveryThreadCount) {
  ModelBuilder m;
  buildModel(&m);
  std::vector<float> input(32 * 32 * 8);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>((i * 37) % 101) / 50.f - 1.f;
  const std::vector<float> one = run(m, 1, input);
  for (uint32_t threads : {2u, 3u, 0u}) {
    const std::vector<float> other = run(m, threads, input);
    ASSERT_EQ(other.size(), one.size());
    EXPECT_EQ(memcmp(other.data(), one.data(), one.size() * sizeof(float)), 0) << threads << " threads";
  }
}

TEST(ThreadCount, FullyConnectedSameBitsForEveryThreadCount) {
  ModelBuilder m;
  buildFullyConnected(&m);
  std::vector<float> input(kFcIn);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>((i * 53) % 97) / 48.f - 1.f;
  const std::vector<float> one = run(m, 1, input, kFcUnits);
  bool nonzero = false;
  for (float v : one) nonzero = nonzero || v != 0.f;
  EXPECT_TRUE(nonzero);
  for (uint32_t threads : {2u, 3u, 0u}) {
    const std::vector<float> other = run(m, threads, input, kFcUnits);
    ASSERT_EQ(other.size(), one.size());
    EXPECT_EQ(memcmp(other.data(), one.data(), one.size() * sizeof(float)), 0) << threads << " threads";
  }
}

}  // namespace
