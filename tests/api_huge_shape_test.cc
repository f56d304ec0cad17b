// Run-time values that ask for absurd shapes (issue 9): the computation fails cleanly (an
// error code and a message) before allocating, the process survives, and an output buffer
// that is too small is reported before the tensor is computed.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// out = TILE(in[1,1], multiples), multiples a model input: the output shape is only known
// from the value given at execution. With `consume`, the tiled tensor is a temporary that an
// ADD reads, so it must be allocated by the driver rather than written to the caller's buffer.
void buildTile(ModelBuilder& mb, bool consume) {
  const uint32_t in = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 1});
  const uint32_t multiples = mb.addOperand(ANEURALNETWORKS_TENSOR_INT32, {2});
  const uint32_t tiled = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {0, 0});
  mb.addOperation(ANEURALNETWORKS_TILE, {in, multiples}, {tiled});
  uint32_t out = tiled;
  if (consume) {
    const uint32_t act = mb.addInt32(0);
    out = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {0, 0});
    mb.addOperation(ANEURALNETWORKS_ADD, {tiled, tiled, act}, {out});
  }
  ASSERT_EQ(mb.finish({in, multiples}, {out}), ANEURALNETWORKS_NO_ERROR);
}

struct TileRun {
  int status = -1;
  std::vector<uint32_t> dims;
  std::string message;
  double seconds = 0;
};

TileRun runTile(const ModelBuilder& mb, int32_t m0, int32_t m1, const char* device) {
  TileRun r;
  ANeuralNetworksCompilation* c = nullptr;
  const ANeuralNetworksDevice* dev = nullptr;
  uint32_t count = 0;
  ANeuralNetworks_getDeviceCount(&count);
  for (uint32_t i = 0; i < count; ++i) {
    ANeuralNetworksDevice* d = nullptr;
    const char* name = nullptr;
    ANeuralNetworks_getDevice(i, &d);
    ANeuralNetworksDevice_getName(d, &name);
    if (std::string(name) == device) dev = d;
  }
  EXPECT_NE(dev, nullptr) << device;
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(mb.get(), &dev, 1, &c),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
  const float in = 1.5f;
  const int32_t multiples[2] = {m0, m1};
  float out[16] = {};
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &in, sizeof(in)),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, multiples, sizeof(multiples)),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof(out)),
            ANEURALNETWORKS_NO_ERROR);
  const auto t0 = std::chrono::steady_clock::now();
  r.status = ANeuralNetworksExecution_compute(e);
  r.seconds = secondsSince(t0);
  r.message = ANNLinux_getLastErrorMessage();
  uint32_t rank = 0;
  if (ANeuralNetworksExecution_getOutputOperandRank(e, 0, &rank) == ANEURALNETWORKS_NO_ERROR ||
      r.status == ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE) {
    r.dims.assign(rank, 0);
    if (rank > 0) ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, r.dims.data());
  }
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(c);
  return r;
}

const char* const kDevices[] = {"nnapi-cpu", "nnapi-cpu-reference"};

// A 2^17 x 2^17 float output (64 GiB) into a 64-byte buffer: reported with its shape at once,
// nothing computed (before: the whole tensor was materialised, or std::bad_alloc aborted).
TEST(ApiHugeShape, InsufficientOutputIsReportedBeforeComputing) {
  ModelBuilder mb;
  buildTile(mb, false);
  for (const char* device : kDevices) {
    const TileRun r = runTile(mb, 1 << 17, 1 << 17, device);
    EXPECT_EQ(r.status, ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE) << device << ": " << r.message;
    EXPECT_EQ(r.dims, (std::vector<uint32_t>{1u << 17, 1u << 17})) << device;
    EXPECT_NE(r.message.find("TILE"), std::string::npos) << r.message;
    EXPECT_LT(r.seconds, 5.0) << device;
  }
}

// The same tensor as a temporary: refused against the per-operand limit before allocating.
TEST(ApiHugeShape, HugeTemporaryFailsCleanly) {
  ModelBuilder mb;
  buildTile(mb, true);
  for (const char* device : kDevices) {
    const TileRun r = runTile(mb, 1 << 17, 1 << 17, device);
    EXPECT_EQ(r.status, ANEURALNETWORKS_OP_FAILED) << device << ": " << r.message;
    EXPECT_NE(r.message.find("NNAPI_MAX_OPERAND_BYTES"), std::string::npos) << r.message;
    EXPECT_LT(r.seconds, 5.0) << device;
  }
  // The compilation and the process are still fine for sane values.
  const TileRun ok = runTile(mb, 2, 2, "nnapi-cpu");
  EXPECT_EQ(ok.status, ANEURALNETWORKS_NO_ERROR) << ok.message;
  EXPECT_EQ(ok.dims, (std::vector<uint32_t>{2, 2}));
}

// Run only by the ctest entry api_huge_shape_rlimit, which starts this binary under a 3 GiB
// address-space limit (`ulimit -v`): a 4 GiB temporary must fail with OP_FAILED (the
// per-operand limit follows RLIMIT_AS) or OUT_OF_MEMORY, never abort the process.
TEST(ApiHugeShape, DISABLED_UnderAddressSpaceLimit) {
  rlimit limit{};
  ASSERT_EQ(getrlimit(RLIMIT_AS, &limit), 0);
  ASSERT_NE(limit.rlim_cur, RLIM_INFINITY) << "run through ctest api_huge_shape_rlimit";
  ModelBuilder mb;
  buildTile(mb, true);
  for (const char* device : kDevices) {
    const TileRun r = runTile(mb, 1 << 15, 1 << 15, device);
    EXPECT_TRUE(r.status == ANEURALNETWORKS_OP_FAILED || r.status == ANEURALNETWORKS_OUT_OF_MEMORY)
        << device << ": " << r.status << " " << r.message;
    EXPECT_FALSE(r.message.empty());
  }
  const TileRun ok = runTile(mb, 3, 2, "nnapi-cpu");
  EXPECT_EQ(ok.status, ANEURALNETWORKS_NO_ERROR) << ok.message;
}

}  // namespace
