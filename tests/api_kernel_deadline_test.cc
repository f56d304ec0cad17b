// Issue 9: kernels whose work grows with data (ROI_ALIGN sampling ratios, RANDOM_MULTINOMIAL
// sample counts) poll the execution's deadline, so a missed deadline is reported within
// milliseconds of it rather than when the operation ends; and without a deadline an absurd
// sampling ratio is refused instead of spinning for hours.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;

constexpr uint64_t kTimeoutNs = 200'000'000;  // 200 ms
constexpr double kMarginMs = 500.0;           // generous: a loaded 2-core CI machine

const ANeuralNetworksDevice* findDevice(const char* name) {
  uint32_t count = 0;
  ANeuralNetworks_getDeviceCount(&count);
  for (uint32_t i = 0; i < count; ++i) {
    ANeuralNetworksDevice* d = nullptr;
    const char* n = nullptr;
    ANeuralNetworks_getDevice(i, &d);
    ANeuralNetworksDevice_getName(d, &n);
    if (n != nullptr && std::string(n) == name) return d;
  }
  return nullptr;
}

struct Timed {
  int status = -1;
  double ms = 0;
  std::string message;
};

// Compiles `mb` for `device`, binds the inputs and one output buffer of `outBytes`, and times
// one compute with an optional timeout.
Timed run(const ModelBuilder& mb, const char* device, const std::vector<std::vector<uint8_t>>& in,
          size_t outBytes, uint64_t timeoutNs) {
  Timed t;
  const ANeuralNetworksDevice* dev = findDevice(device);
  EXPECT_NE(dev, nullptr) << device;
  ANeuralNetworksCompilation* c = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(mb.get(), &dev, 1, &c),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
  for (size_t i = 0; i < in.size(); ++i)
    EXPECT_EQ(ANeuralNetworksExecution_setInput(e, i, nullptr, in[i].data(), in[i].size()),
              ANEURALNETWORKS_NO_ERROR);
  // Not touched before the kernel writes it: a large buffer costs address space only.
  std::unique_ptr<void, decltype(&free)> out(malloc(outBytes), free);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out.get(), outBytes),
            ANEURALNETWORKS_NO_ERROR);
  if (timeoutNs != 0) {
    EXPECT_EQ(ANeuralNetworksExecution_setTimeout(e, timeoutNs), ANEURALNETWORKS_NO_ERROR);
  }
  const auto t0 = std::chrono::steady_clock::now();
  t.status = ANeuralNetworksExecution_compute(e);
  t.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  t.message = ANNLinux_getLastErrorMessage();
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(c);
  return t;
}

bool isMissedDeadline(int status) {
  return status == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT ||
         status == ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT;
}

// ROI_ALIGN of one box over a 4x4 map to a 2x2 output with constant sampling ratios.
void buildRoiAlign(ModelBuilder& mb, int32_t ratio) {
  const uint32_t map = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 4, 4, 1});
  const uint32_t rois = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 4});
  const uint32_t batches = mb.addOperand(ANEURALNETWORKS_TENSOR_INT32, {1});
  const uint32_t out = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 2, 2, 1});
  mb.addOperation(ANEURALNETWORKS_ROI_ALIGN,
                  {map, rois, batches, mb.addInt32(2), mb.addInt32(2), mb.addFloat32(1.f),
                   mb.addFloat32(1.f), mb.addInt32(ratio), mb.addInt32(ratio), mb.addBool(false)},
                  {out});
  ASSERT_EQ(mb.finish({map, rois, batches}, {out}), ANEURALNETWORKS_NO_ERROR);
}

std::vector<std::vector<uint8_t>> roiInputs() {
  return {nntest::bytesOf(std::vector<float>(16, 1.f)),
          nntest::bytesOf(std::vector<float>{0.f, 0.f, 3.f, 3.f}),
          nntest::bytesOf(std::vector<int32_t>{0})};
}

TEST(ApiKernelDeadline, RoiAlignStopsAtTheDeadline) {
  // 1e5 x 1e5 samples per output bin: about a minute of work without a deadline.
  ModelBuilder mb;
  buildRoiAlign(mb, 100000);
  for (const char* device : {"nnapi-cpu", "nnapi-cpu-reference"}) {
    const Timed t = run(mb, device, roiInputs(), 4 * sizeof(float), kTimeoutNs);
    printf("ROI_ALIGN on %s: status %d after %.1f ms (deadline 200 ms): %s\n", device, t.status,
           t.ms, t.message.c_str());
    EXPECT_TRUE(isMissedDeadline(t.status)) << device << ": " << t.status << " " << t.message;
    EXPECT_LT(t.ms, 200.0 + kMarginMs) << device;
    EXPECT_NE(t.message.find("ROI_ALIGN"), std::string::npos) << t.message;
  }
}

TEST(ApiKernelDeadline, AbsurdRoiAlignSamplingIsRefusedWithoutDeadline) {
  ModelBuilder mb;
  buildRoiAlign(mb, 1000000000);
  for (const char* device : {"nnapi-cpu", "nnapi-cpu-reference"}) {
    const Timed t = run(mb, device, roiInputs(), 4 * sizeof(float), 0);
    EXPECT_EQ(t.status, ANEURALNETWORKS_OP_FAILED) << device << ": " << t.message;
    EXPECT_LT(t.ms, 1000.0) << device;
    EXPECT_NE(t.message.find("sampling"), std::string::npos) << t.message;
  }
  // A sane ratio still computes: the mean of a constant map is that constant.
  ModelBuilder ok;
  buildRoiAlign(ok, 4);
  const Timed t = run(ok, "nnapi-cpu", roiInputs(), 4 * sizeof(float), kTimeoutNs);
  EXPECT_EQ(t.status, ANEURALNETWORKS_NO_ERROR) << t.message;
}

TEST(ApiKernelDeadline, RandomMultinomialStopsAtTheDeadline) {
  // 3e8 samples of a two-class row: seconds of work without a deadline.
  constexpr int32_t kSamples = 300000000;
  ModelBuilder mb;
  const uint32_t logits = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 2});
  const uint32_t seeds = mb.addConstant<int32_t>(ANEURALNETWORKS_TENSOR_INT32, {2}, {1, 2});
  const uint32_t out = mb.addOperand(ANEURALNETWORKS_TENSOR_INT32, {1, uint32_t(kSamples)});
  mb.addOperation(ANEURALNETWORKS_RANDOM_MULTINOMIAL, {logits, mb.addInt32(kSamples), seeds},
                  {out});
  ASSERT_EQ(mb.finish({logits}, {out}), ANEURALNETWORKS_NO_ERROR);
  for (const char* device : {"nnapi-cpu", "nnapi-cpu-reference"}) {
    const Timed t = run(mb, device, {nntest::bytesOf(std::vector<float>{0.f, 1.f})},
                        size_t(kSamples) * sizeof(int32_t), kTimeoutNs);
    printf("RANDOM_MULTINOMIAL on %s: status %d after %.1f ms (deadline 200 ms): %s\n", device,
           t.status, t.ms, t.message.c_str());
    EXPECT_TRUE(isMissedDeadline(t.status)) << device << ": " << t.status << " " << t.message;
    EXPECT_LT(t.ms, 200.0 + kMarginMs) << device;
  }
}

}  // namespace
