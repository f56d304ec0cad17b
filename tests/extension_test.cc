// Vendor extensions (NeuralNetworksExtensions.h) through the public API.
//   ApiExtension*: the plain process (built-in devices only): no device declares an
//     extension, so none can be used; the FL8 attribute rules on built-in devices.
//   DriverPluginExtension*: ctest driver_plugins_extension loads libnnapi_test_faulty.so,
//     whose device "test-extension" declares "com.example.nnapi_test"
//     (tests/drivers/test_extension_device.h): operand type 0 (4-byte float32 elements),
//     operation 0 (out = in * scale + bias; scale 2 or the input's extension data, bias 1 or
//     attribute 1), attribute 0 = fail.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <android/NeuralNetworksExtensions.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

constexpr const char* kExt = "com.example.nnapi_test";

const ANeuralNetworksDevice* device(const std::string& name) { return nntest::findDevice(name); }

std::string lastError() { return ANNLinux_getLastErrorMessage(); }

std::vector<float> randomValues(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-4.f, 4.f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

bool supports(const ANeuralNetworksDevice* d, const char* name) {
  bool yes = false;
  EXPECT_EQ(ANeuralNetworksDevice_getExtensionSupport(d, name, &yes), ANEURALNETWORKS_NO_ERROR);
  return yes;
}

// Owns a compilation and runs it on float inputs/outputs of `count` elements each.
struct CompiledRun {
  ANeuralNetworksCompilation* c = nullptr;
  ~CompiledRun() { ANeuralNetworksCompilation_free(c); }
  int compute(const std::vector<std::vector<float>>& inputs, std::vector<float>* out,
              const std::vector<std::pair<uint16_t, std::vector<uint8_t>>>& attributes = {}) {
    ANeuralNetworksExecution* e = nullptr;
    int r = ANeuralNetworksExecution_create(c, &e);
    if (r != ANEURALNETWORKS_NO_ERROR) return r;
    for (size_t i = 0; i < inputs.size() && r == ANEURALNETWORKS_NO_ERROR; ++i)
      r = ANeuralNetworksExecution_setInput(e, i, nullptr, inputs[i].data(),
                                            inputs[i].size() * sizeof(float));
    if (r == ANEURALNETWORKS_NO_ERROR)
      r = ANeuralNetworksExecution_setOutput(e, 0, nullptr, out->data(),
                                             out->size() * sizeof(float));
    for (const auto& a : attributes)
      if (r == ANEURALNETWORKS_NO_ERROR)
        r = ANeuralNetworksExecution_addExtensionAttribute(e, kExt, a.first, a.second.data(),
                                                           a.second.size());
    if (r == ANEURALNETWORKS_NO_ERROR) r = ANeuralNetworksExecution_compute(e);
    ANeuralNetworksExecution_free(e);
    return r;
  }
};

std::vector<uint8_t> floatBytes(float v) {
  std::vector<uint8_t> b(4);
  memcpy(b.data(), &v, 4);
  return b;
}

const std::vector<uint32_t> kDims{2, 3};

// ---- built-in devices only -------------------------------------------------------------

TEST(ApiExtension, NoBuiltInDeviceDeclaresAnExtension) {
  const ANeuralNetworksDevice* cpu = device("nnapi-cpu");
  ASSERT_NE(cpu, nullptr);
  EXPECT_FALSE(supports(cpu, kExt));
  bool b = true;
  EXPECT_EQ(ANeuralNetworksDevice_getExtensionSupport(nullptr, kExt, &b),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksDevice_getExtensionSupport(cpu, nullptr, &b),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  nntest::ModelBuilder m;
  int32_t type = 0;
  EXPECT_EQ(ANeuralNetworksModel_getExtensionOperandType(m.get(), kExt, 0, &type),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(lastError().find(kExt), std::string::npos) << lastError();
  ANeuralNetworksOperationType op = 0;
  EXPECT_EQ(ANeuralNetworksModel_getExtensionOperationType(m.get(), kExt, 0, &op),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_getExtensionOperationType(m.get(), nullptr, 0, &op),
            ANEURALNETWORKS_UNEXPECTED_NULL);
}

TEST(ApiExtension, ModelWithAnExtensionCannotBeBuilt) {
  nntest::ModelBuilder m;
  // Codes made up without getExtension*Type: no prefix is assigned to anything here.
  const int32_t fakeType = (1 << 16) | 0;
  ANeuralNetworksOperandType t{fakeType, 2, kDims.data(), 0.f, 0};
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &t), ANEURALNETWORKS_BAD_DATA);
  const uint32_t in = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, kDims);
  const uint32_t out = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, kDims);
  const uint32_t ins[] = {in}, outs[] = {out};
  EXPECT_EQ(ANeuralNetworksModel_addOperation(m.get(), (1 << 16) | 0, 1, ins, 1, outs),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_addOperation(m.get(), 0x7FFF0003, 1, ins, 1, outs),
            ANEURALNETWORKS_BAD_DATA);
  const uint8_t data[4] = {};
  EXPECT_EQ(ANeuralNetworksModel_setOperandExtensionData(m.get(), in, data, 4),
            ANEURALNETWORKS_BAD_DATA);  // not an extension operand
  EXPECT_EQ(ANeuralNetworksModel_setOperandExtensionData(m.get(), 99, data, 4),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandExtensionData(m.get(), in, nullptr, 4),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_setOperandExtensionData(nullptr, in, data, 4),
            ANEURALNETWORKS_UNEXPECTED_NULL);
}

// out = a + b on one device.
struct AddModel {
  nntest::ModelBuilder m;
  AddModel() {
    const uint32_t a = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, kDims);
    const uint32_t b = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, kDims);
    const uint32_t act = m.addInt32(ANEURALNETWORKS_FUSED_NONE);
    const uint32_t out = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, kDims);
    m.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {out});
    EXPECT_EQ(m.finish({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
  }
};

TEST(ApiExtension, AttributesNeedOneExplicitDeviceAndAreIgnoredByTheCpu) {
  AddModel model;
  const int v = 7;
  {
    CompiledRun run;
    ASSERT_EQ(ANeuralNetworksCompilation_create(model.m.get(), &run.c),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_addExtensionAttribute(run.c, kExt, 0, &v, sizeof(v)),
              ANEURALNETWORKS_BAD_DATA);
    ASSERT_EQ(ANeuralNetworksCompilation_finish(run.c), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution* e = nullptr;
    ASSERT_EQ(ANeuralNetworksExecution_create(run.c, &e), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_addExtensionAttribute(e, kExt, 0, &v, sizeof(v)),
              ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksExecution_free(e);
  }
  {
    const ANeuralNetworksDevice* two[] = {device("nnapi-cpu"), device("nnapi-cpu-reference")};
    CompiledRun run;
    ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(model.m.get(), two, 2, &run.c),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_addExtensionAttribute(run.c, kExt, 0, &v, sizeof(v)),
              ANEURALNETWORKS_BAD_DATA);
  }
  const ANeuralNetworksDevice* cpu = device("nnapi-cpu");
  CompiledRun run;
  ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(model.m.get(), &cpu, 1, &run.c),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_addExtensionAttribute(run.c, kExt, 0, &v, sizeof(v)),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_addExtensionAttribute(run.c, kExt, 0, &v, sizeof(v)),
            ANEURALNETWORKS_BAD_DATA);  // the same (extension, code) twice
  EXPECT_EQ(ANeuralNetworksCompilation_addExtensionAttribute(run.c, kExt, 1, nullptr, 0),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(run.c), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_addExtensionAttribute(run.c, kExt, 2, &v, sizeof(v)),
            ANEURALNETWORKS_BAD_STATE);
  const std::vector<float> a = randomValues(6, 1), b = randomValues(6, 2);
  std::vector<float> out(6);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(run.c, &e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_addExtensionAttribute(e, kExt, 0, &v, sizeof(v)),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_addExtensionAttribute(e, kExt, 0, &v, sizeof(v)),
            ANEURALNETWORKS_BAD_DATA);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, a.data(), 24), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, b.data(), 24), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out.data(), 24), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR) << lastError();
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(out[i], a[i] + b[i]);
  EXPECT_EQ(ANeuralNetworksExecution_addExtensionAttribute(e, kExt, 3, &v, sizeof(v)),
            ANEURALNETWORKS_BAD_STATE);
  ANeuralNetworksExecution_free(e);
}

// FL8 adds only the two attribute functions (ABI.md 0, 3.5, 3.6), implemented above.
TEST(ApiExtension, RuntimeClaimsFeatureLevel8) {
  EXPECT_EQ(ANeuralNetworks_getRuntimeFeatureLevel(), ANEURALNETWORKS_FEATURE_LEVEL_8);
}

// ---- with libnnapi_test_faulty.so (device test-extension) ------------------------------

struct Codes {
  int32_t tensorType = 0;
  ANeuralNetworksOperationType operation = 0;
};

Codes codes(ANeuralNetworksModel* m) {
  Codes c;
  EXPECT_EQ(ANeuralNetworksModel_getExtensionOperandType(m, kExt, 0, &c.tensorType),
            ANEURALNETWORKS_NO_ERROR) << lastError();
  EXPECT_EQ(ANeuralNetworksModel_getExtensionOperationType(m, kExt, 0, &c.operation),
            ANEURALNETWORKS_NO_ERROR) << lastError();
  return c;
}

TEST(DriverPluginExtension, SupportAndCodes) {
  const ANeuralNetworksDevice* ext = device("test-extension");
  ASSERT_NE(ext, nullptr) << "libnnapi_test_faulty.so must be loaded (NNAPI_DRIVERS)";
  EXPECT_TRUE(supports(ext, kExt));
  EXPECT_FALSE(supports(ext, "com.example.other"));
  EXPECT_FALSE(supports(ext, "com.example.nnapi_tes"));  // exact match only
  EXPECT_FALSE(supports(device("nnapi-cpu"), kExt));
  EXPECT_FALSE(supports(device("test-faulty"), kExt));
  nntest::ModelBuilder m;
  const Codes c = codes(m.get());
  // (prefix << 16) | code, the same prefix for operand and operation codes, stable.
  EXPECT_NE(static_cast<uint32_t>(c.tensorType) >> 16, 0u);
  EXPECT_EQ(c.tensorType & 0xFFFF, 0);
  EXPECT_EQ(c.tensorType, c.operation);
  int32_t again = 0;
  EXPECT_EQ(ANeuralNetworksModel_getExtensionOperandType(m.get(), kExt, 5, &again),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(again, c.tensorType | 5);
  int32_t unknown = 0;
  EXPECT_EQ(ANeuralNetworksModel_getExtensionOperandType(m.get(), "com.example.other", 0, &unknown),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(lastError().find("com.example.other"), std::string::npos) << lastError();
  // Type 5 is not declared by the extension: no operand of it.
  ANeuralNetworksOperandType t{again, 2, kDims.data(), 0.f, 0};
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &t), ANEURALNETWORKS_BAD_DATA);
}

// out = ((a + b) * 2 + 1) * a: ADD and MUL on nnapi-cpu, the extension operation on
// test-extension, from one ANeuralNetworksCompilation_create.
struct SplitModel {
  nntest::ModelBuilder m;
  SplitModel() {
    const Codes c = codes(m.get());
    const uint32_t a = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, kDims);
    const uint32_t b = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, kDims);
    const uint32_t act = m.addInt32(ANEURALNETWORKS_FUSED_NONE);
    const uint32_t sum = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, kDims);
    const uint32_t scaled = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, kDims);
    const uint32_t out = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, kDims);
    m.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {sum});
    m.addOperation(c.operation, {sum}, {scaled});
    m.addOperation(ANEURALNETWORKS_MUL, {scaled, a, act}, {out});
    EXPECT_EQ(m.finish({a, b}, {out}), ANEURALNETWORKS_NO_ERROR) << lastError();
  }
};

TEST(DriverPluginExtension, SplitAcrossCpuAndExtensionDevice) {
  SplitModel model;
  CompiledRun run;
  ASSERT_EQ(ANeuralNetworksCompilation_create(model.m.get(), &run.c),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(run.c), ANEURALNETWORKS_NO_ERROR) << lastError();
  uint32_t steps = 0;
  ASSERT_EQ(ANNLinux_Compilation_getStepCount(run.c, &steps), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(steps, 3u);
  const char* expected[] = {"nnapi-cpu", "test-extension", "nnapi-cpu"};
  for (uint32_t i = 0; i < 3; ++i) {
    const ANeuralNetworksDevice* d = nullptr;
    ASSERT_EQ(ANNLinux_Compilation_getOperationDevice(run.c, i, &d), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(d, device(expected[i])) << "operation " << i;
  }
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const std::vector<float> a = randomValues(6, seed), b = randomValues(6, seed + 10);
    std::vector<float> out(6, 0.f);
    ASSERT_EQ(run.compute({a, b}, &out), ANEURALNETWORKS_NO_ERROR) << lastError();
    for (size_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(out[i], ((a[i] + b[i]) * 2.f + 1.f) * a[i]);
  }
}

TEST(DriverPluginExtension, CpuAloneCannotRunTheExtensionOperation) {
  SplitModel model;
  const ANeuralNetworksDevice* cpu = device("nnapi-cpu");
  CompiledRun run;
  ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(model.m.get(), &cpu, 1, &run.c),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(run.c), ANEURALNETWORKS_BAD_DATA);
  const std::string why = lastError();
  EXPECT_NE(why.find("operation #1"), std::string::npos) << why;
  EXPECT_NE(why.find(kExt), std::string::npos) << why;
  // nnapi-cpu and test-faulty: still nobody for the extension operation.
  const ANeuralNetworksDevice* two[] = {cpu, device("test-faulty")};
  CompiledRun run2;
  ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(model.m.get(), two, 2, &run2.c),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(run2.c), ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(lastError().find(kExt), std::string::npos) << lastError();
  // test-extension alone cannot run ADD.
  const ANeuralNetworksDevice* ext = device("test-extension");
  CompiledRun run3;
  ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(model.m.get(), &ext, 1, &run3.c),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(run3.c), ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(lastError().find("ADD"), std::string::npos) << lastError();
  // Asked directly, each device answers for itself.
  bool flags[3] = {true, true, true};
  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(model.m.get(), &cpu, 1, flags),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_TRUE(flags[0]);
  EXPECT_FALSE(flags[1]);
  EXPECT_TRUE(flags[2]);
  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(model.m.get(), &ext, 1, flags),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_FALSE(flags[0]);
  EXPECT_TRUE(flags[1]);
  EXPECT_FALSE(flags[2]);
}

// x (extension operand type 0, with a scale in its extension data) -> extension op -> out.
struct ExtensionInputModel {
  nntest::ModelBuilder m;
  explicit ExtensionInputModel(const float* scale) {
    const Codes c = codes(m.get());
    const uint32_t x = m.addOperand(c.tensorType, kDims);
    const uint32_t out = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, kDims);
    if (scale != nullptr) {
      EXPECT_EQ(ANeuralNetworksModel_setOperandExtensionData(m.get(), x, scale, sizeof(float)),
                  ANEURALNETWORKS_NO_ERROR);
    }
    m.addOperation(c.operation, {x}, {out});
    EXPECT_EQ(m.finish({x}, {out}), ANEURALNETWORKS_NO_ERROR) << lastError();
    const float one = 1.f;
    EXPECT_EQ(ANeuralNetworksModel_setOperandExtensionData(m.get(), x, &one, 4),
              ANEURALNETWORKS_BAD_STATE);
  }
};

TEST(DriverPluginExtension, ExtensionOperandAsModelInput) {
  const float scale = -3.f;
  for (const float* s : {static_cast<const float*>(nullptr), &scale}) {
    ExtensionInputModel model(s);
    CompiledRun run;
    ASSERT_EQ(ANeuralNetworksCompilation_create(model.m.get(), &run.c),
              ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksCompilation_finish(run.c), ANEURALNETWORKS_NO_ERROR) << lastError();
    // The input's size comes from the declared element size (4 bytes) times 6 elements.
    const std::vector<float> x = randomValues(6, 5);
    ANeuralNetworksExecution* e = nullptr;
    ASSERT_EQ(ANeuralNetworksExecution_create(run.c, &e), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, x.data(), 20), ANEURALNETWORKS_BAD_DATA);
    EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, x.data(), 28), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksExecution_free(e);
    std::vector<float> out(6, 0.f);
    ASSERT_EQ(run.compute({x}, &out), ANEURALNETWORKS_NO_ERROR) << lastError();
    const float k = s != nullptr ? *s : 2.f;
    for (size_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(out[i], x[i] * k + 1.f);
  }
}

TEST(DriverPluginExtension, AttributesReachThePlugin) {
  ExtensionInputModel model(nullptr);
  const ANeuralNetworksDevice* ext = device("test-extension");
  const std::vector<float> x = randomValues(6, 9);
  std::vector<float> out(6, 0.f);
  {  // compilation attribute 1: the bias
    CompiledRun run;
    ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(model.m.get(), &ext, 1, &run.c),
              ANEURALNETWORKS_NO_ERROR);
    const std::vector<uint8_t> bias = floatBytes(3.5f);
    ASSERT_EQ(ANeuralNetworksCompilation_addExtensionAttribute(run.c, kExt, 1, bias.data(), 4),
              ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksCompilation_finish(run.c), ANEURALNETWORKS_NO_ERROR) << lastError();
    ASSERT_EQ(run.compute({x}, &out), ANEURALNETWORKS_NO_ERROR) << lastError();
    for (size_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(out[i], x[i] * 2.f + 3.5f);
    // An execution attribute wins for that execution only.
    ASSERT_EQ(run.compute({x}, &out, {{1, floatBytes(-2.f)}}), ANEURALNETWORKS_NO_ERROR)
        << lastError();
    for (size_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(out[i], x[i] * 2.f - 2.f);
    // Attribute 0 makes the driver fail the execution; the next one is fine again.
    EXPECT_NE(run.compute({x}, &out, {{0, {}}}), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(run.compute({x}, &out), ANEURALNETWORKS_NO_ERROR) << lastError();
    for (size_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(out[i], x[i] * 2.f + 3.5f);
  }
  {  // compilation attribute 0: the driver refuses to prepare
    CompiledRun run;
    ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(model.m.get(), &ext, 1, &run.c),
              ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksCompilation_addExtensionAttribute(run.c, kExt, 0, nullptr, 0),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_NE(ANeuralNetworksCompilation_finish(run.c), ANEURALNETWORKS_NO_ERROR);
    EXPECT_NE(lastError().find("ANeuralNetworksCompilation_finish"), std::string::npos)
        << lastError();
  }
  {  // not for a compilation that may use several devices
    CompiledRun run;
    ASSERT_EQ(ANeuralNetworksCompilation_create(model.m.get(), &run.c),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_addExtensionAttribute(run.c, kExt, 1, nullptr, 0),
              ANEURALNETWORKS_BAD_DATA);
  }
}

}  // namespace
