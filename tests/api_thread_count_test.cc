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

std::vector<float> run(const ModelBuilder& m, uint32_t threads, const std::vector<float>& input) {
  ANeuralNetworksCompilation* c = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_create(m.get(), &c), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANNLinux_Compilation_setCpuThreadCount(c, threads), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  std::vector<float> out(32 * 32 * 16);
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

}  // namespace
