// Driver plugins (docs/drivers.md) through the public API. The device list is read once per
// process, so these run only from the ctest entries of tests/CMakeLists.txt (driver_plugins*),
// each with its own environment; the plain nnapi_tests run excludes DriverPlugin*.
// NNAPI_TEST_PARTIAL / _FAULTY / _NOSYMBOL carry the test libraries' paths.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace {

std::string envPath(const char* name) {
  const char* v = getenv(name);
  return v ? v : "";
}

using nntest::findDevice;

std::string origin(const ANeuralNetworksDevice* d) {
  const char* o = nullptr;
  EXPECT_EQ(ANNLinux_Device_getOrigin(d, &o), ANEURALNETWORKS_NO_ERROR);
  return o ? o : "";
}

std::vector<std::string> problems() {
  std::vector<std::string> out;
  for (uint32_t i = 0; i < ANNLinux_getDriverLoadProblemCount(); ++i)
    out.push_back(ANNLinux_getDriverLoadProblem(i));
  EXPECT_EQ(ANNLinux_getDriverLoadProblem(ANNLinux_getDriverLoadProblemCount()), nullptr);
  return out;
}

bool anyProblemMentions(const std::string& a, const std::string& b) {
  for (const std::string& p : problems())
    if (p.find(a) != std::string::npos && p.find(b) != std::string::npos) return true;
  return false;
}

// out = (a + b) * a, float32 [2, 3], or (with `subOnly`) out = a - b (one SUB operation).
struct TwoOpModel {
  nntest::ModelBuilder m;
  explicit TwoOpModel(bool subOnly = false) {
    const std::vector<uint32_t> dims{2, 3};
    const uint32_t a = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, dims);
    const uint32_t b = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, dims);
    const uint32_t act = m.addInt32(ANEURALNETWORKS_FUSED_NONE);
    const uint32_t out = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, dims);
    if (subOnly) {
      m.addOperation(ANEURALNETWORKS_SUB, {a, b, act}, {out});
    } else {
      const uint32_t sum = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, dims);
      m.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {sum});
      m.addOperation(ANEURALNETWORKS_MUL, {sum, a, act}, {out});
    }
    EXPECT_EQ(m.finish({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
  }
};

struct RunResult {
  int compile = -1;
  int compute = -1;
  std::string message;
  std::vector<float> out;
};

// Compiles `model` for `device` alone and computes once on fixed pseudo-random inputs.
RunResult run(const ANeuralNetworksModel* model, const ANeuralNetworksDevice* device,
              uint64_t timeoutNs = 0) {
  RunResult r;
  ANeuralNetworksCompilation* c = nullptr;
  r.compile = ANeuralNetworksCompilation_createForDevices(
      const_cast<ANeuralNetworksModel*>(model), &device, 1, &c);
  if (r.compile == ANEURALNETWORKS_NO_ERROR) r.compile = ANeuralNetworksCompilation_finish(c);
  if (r.compile != ANEURALNETWORKS_NO_ERROR) {
    r.message = ANNLinux_getLastErrorMessage();
    ANeuralNetworksCompilation_free(c);
    return r;
  }
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-3.f, 3.f);
  std::vector<float> a(6), b(6);
  for (float& v : a) v = dist(rng);
  for (float& v : b) v = dist(rng);
  r.out.assign(6, 0.f);
  ANeuralNetworksExecution* e = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, a.data(), 24), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, b.data(), 24), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, r.out.data(), 24), ANEURALNETWORKS_NO_ERROR);
  if (timeoutNs) {
    EXPECT_EQ(ANeuralNetworksExecution_setTimeout(e, timeoutNs), ANEURALNETWORKS_NO_ERROR);
  }
  r.compute = ANeuralNetworksExecution_compute(e);
  if (r.compute != ANEURALNETWORKS_NO_ERROR) r.message = ANNLinux_getLastErrorMessage();
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(c);
  return r;
}

std::vector<bool> supportedOn(const ANeuralNetworksModel* model, const ANeuralNetworksDevice* d,
                              size_t count) {
  bool flags[8] = {};
  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(model, &d, 1, flags),
            ANEURALNETWORKS_NO_ERROR);
  return std::vector<bool>(flags, flags + count);
}

// A compilation on nnapi-cpu still works after a plugin misbehaved.
void expectCpuStillWorks() {
  TwoOpModel model;
  RunResult r = run(model.m.get(), findDevice("nnapi-cpu"));
  EXPECT_EQ(r.compile, ANEURALNETWORKS_NO_ERROR) << r.message;
  EXPECT_EQ(r.compute, ANEURALNETWORKS_NO_ERROR) << r.message;
}

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
  ~ScopedEnv() { unsetenv(name_); }

 private:
  const char* name_;
};

TEST(DriverPluginList, DevicesOriginsAndProblems) {
  const ANeuralNetworksDevice* partial = findDevice("test-partial");
  const ANeuralNetworksDevice* faulty = findDevice("test-faulty");
  ASSERT_NE(partial, nullptr);
  ASSERT_NE(faulty, nullptr);
  EXPECT_EQ(origin(partial), envPath("NNAPI_TEST_PARTIAL"));
  EXPECT_EQ(origin(faulty), envPath("NNAPI_TEST_FAULTY"));
  EXPECT_EQ(origin(findDevice("nnapi-cpu")), "built-in");
  // Built-ins come first (the default device stays nnapi-cpu).
  ANeuralNetworksDevice* first = nullptr;
  ASSERT_EQ(ANeuralNetworks_getDevice(0, &first), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(first, findDevice("nnapi-cpu"));
  int32_t type = -1;
  EXPECT_EQ(ANeuralNetworksDevice_getType(partial, &type), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(type, ANEURALNETWORKS_DEVICE_ACCELERATOR);
  // Each wraps a built-in CPU device and reports its level (capped by the SL table's).
  int64_t level = 0, cpuLevel = 0;
  EXPECT_EQ(ANeuralNetworksDevice_getFeatureLevel(faulty, &level), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksDevice_getFeatureLevel(findDevice("nnapi-cpu"), &cpuLevel),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(level, cpuLevel);
  const char* version = nullptr;
  EXPECT_EQ(ANeuralNetworksDevice_getVersion(partial, &version), ANEURALNETWORKS_NO_ERROR);
  EXPECT_STREQ(version, "test-1");

  EXPECT_EQ(problems().size(), 3u);  // the two bad paths, and the missing NNAPI_DRIVER_DIR
  EXPECT_TRUE(anyProblemMentions("/nonexistent.so", "dlopen failed"));
  EXPECT_TRUE(anyProblemMentions(envPath("NNAPI_TEST_NOSYMBOL"), "ANeuralNetworks_getSLDriverImpl"));
  EXPECT_TRUE(anyProblemMentions("/nonexistent-nnapi-dir", "drivers directory"));
  const char* o = nullptr;
  EXPECT_EQ(ANNLinux_Device_getOrigin(nullptr, &o), ANEURALNETWORKS_UNEXPECTED_NULL);
}

TEST(DriverPluginPartial, FullyClaimedModelMatchesReferenceBits) {
  ScopedEnv ops("NNAPI_TEST_DRIVER_OPS", "ADD,MUL");
  TwoOpModel model;
  const ANeuralNetworksDevice* partial = findDevice("test-partial");
  ASSERT_NE(partial, nullptr);
  EXPECT_EQ(supportedOn(model.m.get(), partial, 2), (std::vector<bool>{true, true}));
  RunResult got = run(model.m.get(), partial);
  RunResult want = run(model.m.get(), findDevice("nnapi-cpu-reference"));
  ASSERT_EQ(got.compile, ANEURALNETWORKS_NO_ERROR) << got.message;
  ASSERT_EQ(got.compute, ANEURALNETWORKS_NO_ERROR) << got.message;
  ASSERT_EQ(want.compute, ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(memcmp(got.out.data(), want.out.data(), 24), 0);
  EXPECT_NE(got.out, std::vector<float>(6, 0.f));
}

TEST(DriverPluginPartial, PartlyClaimedModelFailsToCompile) {
  ScopedEnv ops("NNAPI_TEST_DRIVER_OPS", "ADD");
  TwoOpModel model;
  const ANeuralNetworksDevice* partial = findDevice("test-partial");
  ASSERT_NE(partial, nullptr);
  EXPECT_EQ(supportedOn(model.m.get(), partial, 2), (std::vector<bool>{true, false}));
  RunResult r = run(model.m.get(), partial);
  EXPECT_NE(r.compile, ANEURALNETWORKS_NO_ERROR);
  EXPECT_NE(r.message.find("test-partial"), std::string::npos) << r.message;
  expectCpuStillWorks();
}

TEST(DriverPluginPartial, HashClaimDependsOnContentAndSeed) {
  // By default (no op list) a content hash decides; the same operation content gets the same
  // answer in any model, and some seed changes it.
  TwoOpModel model;
  TwoOpModel sub(/*subOnly=*/true);
  const ANeuralNetworksDevice* partial = findDevice("test-partial");
  ASSERT_NE(partial, nullptr);
  std::vector<bool> first = supportedOn(model.m.get(), partial, 2);
  EXPECT_EQ(supportedOn(model.m.get(), partial, 2), first);
  bool changed = false;
  for (int seed = 2; seed < 40 && !changed; ++seed) {
    ScopedEnv s("NNAPI_TEST_DRIVER_SEED", std::to_string(seed).c_str());
    changed = supportedOn(model.m.get(), partial, 2) != first;
  }
  EXPECT_TRUE(changed);
  {
    ScopedEnv f("NNAPI_TEST_DRIVER_FRACTION", "1");
    EXPECT_EQ(supportedOn(sub.m.get(), partial, 1), std::vector<bool>{true});
  }
  {
    ScopedEnv f("NNAPI_TEST_DRIVER_FRACTION", "0");
    EXPECT_EQ(supportedOn(sub.m.get(), partial, 1), std::vector<bool>{false});
  }
}

TEST(DriverPluginFaulty, NoFaultComputes) {
  ScopedEnv fault("NNAPI_TEST_DRIVER_FAULT", "none");
  TwoOpModel model;
  RunResult got = run(model.m.get(), findDevice("test-faulty"));
  RunResult want = run(model.m.get(), findDevice("nnapi-cpu"));
  ASSERT_EQ(got.compute, ANEURALNETWORKS_NO_ERROR) << got.message;
  EXPECT_EQ(memcmp(got.out.data(), want.out.data(), 24), 0);
}

TEST(DriverPluginFaulty, PrepareFault) {
  ScopedEnv fault("NNAPI_TEST_DRIVER_FAULT", "prepare");
  TwoOpModel model;
  RunResult r = run(model.m.get(), findDevice("test-faulty"));
  EXPECT_EQ(r.compile, ANEURALNETWORKS_OP_FAILED);
  EXPECT_NE(r.message.find("driver " + envPath("NNAPI_TEST_FAULTY") +
                           " device test-faulty: ANeuralNetworksCompilation_finish returned "
                           "OP_FAILED"),
            std::string::npos)
      << r.message;
  expectCpuStillWorks();
}

TEST(DriverPluginFaulty, ExecuteFault) {
  ScopedEnv fault("NNAPI_TEST_DRIVER_FAULT", "execute");
  TwoOpModel model;
  RunResult r = run(model.m.get(), findDevice("test-faulty"));
  EXPECT_EQ(r.compile, ANEURALNETWORKS_NO_ERROR) << r.message;
  EXPECT_EQ(r.compute, ANEURALNETWORKS_OP_FAILED);
  EXPECT_NE(r.message.find("ANeuralNetworksExecution_compute returned OP_FAILED"),
            std::string::npos)
      << r.message;
  expectCpuStillWorks();
}

TEST(DriverPluginFaulty, WrongSizesAreRejected) {
  ScopedEnv fault("NNAPI_TEST_DRIVER_FAULT", "wrong_sizes");
  TwoOpModel model;
  RunResult r = run(model.m.get(), findDevice("test-faulty"));
  EXPECT_EQ(r.compute, ANEURALNETWORKS_OP_FAILED);
  EXPECT_NE(r.message.find("returned garbage: output 0 has dimensions"), std::string::npos)
      << r.message;
  expectCpuStillWorks();
}

TEST(DriverPluginFaulty, SlowComputeMissesItsDeadline) {
  ScopedEnv fault("NNAPI_TEST_DRIVER_FAULT", "slow:20000");
  TwoOpModel model;
  const auto start = std::chrono::steady_clock::now();
  RunResult r = run(model.m.get(), findDevice("test-faulty"), /*timeoutNs=*/50000000);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(r.compute == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT ||
              r.compute == ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT)
      << ANNLinux_resultCodeName(r.compute) << ": " << r.message;
  EXPECT_LT(seconds, 5.0);
  EXPECT_FALSE(r.message.empty());
  // Slow but within the deadline: computes.
  ScopedEnv brief("NNAPI_TEST_DRIVER_FAULT", "slow:10");
  RunResult ok = run(model.m.get(), findDevice("test-faulty"), /*timeoutNs=*/5000000000ull);
  EXPECT_EQ(ok.compute, ANEURALNETWORKS_NO_ERROR) << ok.message;
  expectCpuStillWorks();
}

TEST(DriverPluginFaulty, ConcurrentExecutionsOfOneCompilation) {
  ScopedEnv fault("NNAPI_TEST_DRIVER_FAULT", "none");
  TwoOpModel model;
  const ANeuralNetworksDevice* d = findDevice("test-faulty");
  ASSERT_NE(d, nullptr);
  ANeuralNetworksCompilation* c = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(model.m.get(), &d, 1, &c),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  std::vector<int> failures(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        std::vector<float> a(6, float(t + i)), b(6, 1.f), out(6, -1.f);
        ANeuralNetworksExecution* e = nullptr;
        ANeuralNetworksExecution_create(c, &e);
        ANeuralNetworksExecution_setInput(e, 0, nullptr, a.data(), 24);
        ANeuralNetworksExecution_setInput(e, 1, nullptr, b.data(), 24);
        ANeuralNetworksExecution_setOutput(e, 0, nullptr, out.data(), 24);
        const int r = ANeuralNetworksExecution_compute(e);
        ANeuralNetworksExecution_free(e);
        if (r != ANEURALNETWORKS_NO_ERROR || out[5] != (a[0] + 1.f) * a[0]) ++failures[t];
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures, std::vector<int>(4, 0));
  ANeuralNetworksCompilation_free(c);
}

TEST(DriverPluginFaulty, InsufficientOutputReportsTheShape) {
  ScopedEnv fault("NNAPI_TEST_DRIVER_FAULT", "none");
  // out = a + b with the output's dimensions left unknown, and a one-element output buffer.
  nntest::ModelBuilder m;
  const uint32_t a = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2, 3});
  const uint32_t b = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2, 3});
  const uint32_t act = m.addInt32(ANEURALNETWORKS_FUSED_NONE);
  const uint32_t out = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {0, 0});
  m.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {out});
  ASSERT_EQ(m.finish({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
  const ANeuralNetworksDevice* d = findDevice("test-faulty");
  ANeuralNetworksCompilation* c = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(m.get(), &d, 1, &c), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  std::vector<float> x(6, 1.f), y(6, 2.f), small(1, 0.f), big(6, 0.f);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<float>& o = pass == 0 ? small : big;
    ANeuralNetworksExecution* e = nullptr;
    ASSERT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution_setInput(e, 0, nullptr, x.data(), 24);
    ANeuralNetworksExecution_setInput(e, 1, nullptr, y.data(), 24);
    ANeuralNetworksExecution_setOutput(e, 0, nullptr, o.data(), o.size() * 4);
    const int r = ANeuralNetworksExecution_compute(e);
    uint32_t rank = 0, dims[2] = {0, 0};
    const int rr = ANeuralNetworksExecution_getOutputOperandRank(e, 0, &rank);
    ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, dims);
    if (pass == 0) {
      EXPECT_EQ(r, ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
      EXPECT_EQ(rr, ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
    } else {
      EXPECT_EQ(r, ANEURALNETWORKS_NO_ERROR);
      EXPECT_EQ(rr, ANEURALNETWORKS_NO_ERROR);
      EXPECT_EQ(big, std::vector<float>(6, 3.f));
    }
    EXPECT_EQ(rank, 2u);
    EXPECT_EQ(dims[0], 2u);
    EXPECT_EQ(dims[1], 3u);
    ANeuralNetworksExecution_free(e);
  }
  ANeuralNetworksCompilation_free(c);
}

// Run with NNAPI_TEST_DRIVER_FAULT=garbage_level or null_name: test-faulty must be skipped.
TEST(DriverPluginSkipped, GarbageDeviceIsSkippedWithAReason) {
  EXPECT_EQ(findDevice("test-faulty"), nullptr);
  EXPECT_NE(findDevice("test-partial"), nullptr);
  const std::string fault = envPath("NNAPI_TEST_DRIVER_FAULT");
  // A garbage level shows either as the table's implFeatureLevel or as the device's level.
  const std::string why = fault == "garbage_level" ? "12345" : "name";
  EXPECT_TRUE(anyProblemMentions(envPath("NNAPI_TEST_FAULTY"), why)) << fault;
  expectCpuStillWorks();
}

TEST(DriverPluginDir, ConfFileNamesThePlugin) {
  const ANeuralNetworksDevice* partial = findDevice("test-partial");
  ASSERT_NE(partial, nullptr);
  EXPECT_EQ(origin(partial), envPath("NNAPI_TEST_PARTIAL"));
  EXPECT_EQ(findDevice("test-faulty"), nullptr);
  EXPECT_EQ(problems().size(), 0u);
}

}  // namespace
