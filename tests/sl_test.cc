// libneuralnetworks.so as an NNAPI Support Library: the table returned by
// ANeuralNetworks_getSLDriverImpl, the SL_ functions' argument contracts, cache files given as
// fds, and the diagnostics callbacks.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksSupportLibraryImpl.h>
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <unistd.h>

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

// Slot order of NnApiSLDriverImplFL8 (ABI.md 4.3), written out independently of the header so
// a slot that points at the wrong function (or a reordered header) is caught.
const char* const kSlotNames[] = {
    "ANeuralNetworksBurst_create",
    "ANeuralNetworksBurst_free",
    "ANeuralNetworksCompilation_createForDevices",
    "ANeuralNetworksCompilation_finish",
    "ANeuralNetworksCompilation_free",
    "ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput",
    "ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput",
    "ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput",
    "ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput",
    "ANeuralNetworksCompilation_setCaching",
    "ANeuralNetworksCompilation_setPreference",
    "ANeuralNetworksCompilation_setPriority",
    "ANeuralNetworksCompilation_setTimeout",
    "ANeuralNetworksDevice_getExtensionSupport",
    "ANeuralNetworksDevice_getFeatureLevel",
    "ANeuralNetworksDevice_getName",
    "ANeuralNetworksDevice_getType",
    "ANeuralNetworksDevice_getVersion",
    "ANeuralNetworksDevice_wait",
    "ANeuralNetworksEvent_createFromSyncFenceFd",
    "ANeuralNetworksEvent_free",
    "ANeuralNetworksEvent_getSyncFenceFd",
    "ANeuralNetworksEvent_wait",
    "ANeuralNetworksExecution_burstCompute",
    "ANeuralNetworksExecution_compute",
    "ANeuralNetworksExecution_create",
    "ANeuralNetworksExecution_enableInputAndOutputPadding",
    "ANeuralNetworksExecution_free",
    "ANeuralNetworksExecution_getDuration",
    "ANeuralNetworksExecution_getOutputOperandDimensions",
    "ANeuralNetworksExecution_getOutputOperandRank",
    "ANeuralNetworksExecution_setInput",
    "ANeuralNetworksExecution_setInputFromMemory",
    "ANeuralNetworksExecution_setLoopTimeout",
    "ANeuralNetworksExecution_setMeasureTiming",
    "ANeuralNetworksExecution_setOutput",
    "ANeuralNetworksExecution_setOutputFromMemory",
    "ANeuralNetworksExecution_setReusable",
    "ANeuralNetworksExecution_setTimeout",
    "ANeuralNetworksExecution_startComputeWithDependencies",
    "ANeuralNetworksMemoryDesc_addInputRole",
    "ANeuralNetworksMemoryDesc_addOutputRole",
    "ANeuralNetworksMemoryDesc_create",
    "ANeuralNetworksMemoryDesc_finish",
    "ANeuralNetworksMemoryDesc_free",
    "ANeuralNetworksMemoryDesc_setDimensions",
    "ANeuralNetworksMemory_copy",
    "ANeuralNetworksMemory_createFromAHardwareBuffer",
    "ANeuralNetworksMemory_createFromDesc",
    "ANeuralNetworksMemory_createFromFd",
    "ANeuralNetworksMemory_free",
    "ANeuralNetworksModel_addOperand",
    "ANeuralNetworksModel_addOperation",
    "ANeuralNetworksModel_create",
    "ANeuralNetworksModel_finish",
    "ANeuralNetworksModel_free",
    "ANeuralNetworksModel_getExtensionOperandType",
    "ANeuralNetworksModel_getExtensionOperationType",
    "ANeuralNetworksModel_getSupportedOperationsForDevices",
    "ANeuralNetworksModel_identifyInputsAndOutputs",
    "ANeuralNetworksModel_relaxComputationFloat32toFloat16",
    "ANeuralNetworksModel_setOperandExtensionData",
    "ANeuralNetworksModel_setOperandSymmPerChannelQuantParams",
    "ANeuralNetworksModel_setOperandValue",
    "ANeuralNetworksModel_setOperandValueFromMemory",
    "ANeuralNetworksModel_setOperandValueFromModel",
    "ANeuralNetworks_getDefaultLoopTimeout",
    "ANeuralNetworks_getDevice",
    "ANeuralNetworks_getDeviceCount",
    "ANeuralNetworks_getMaximumLoopTimeout",
    "ANeuralNetworks_getRuntimeFeatureLevel",
    "SL_ANeuralNetworksCompilation_setCachingFromFds",
    "SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded",
    "SL_ANeuralNetworksDevice_getPerformanceInfo",
    "SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo",
    "SL_ANeuralNetworksDevice_getVendorExtensionCount",
    "SL_ANeuralNetworksDevice_getVendorExtensionName",
    "SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation",
    "SL_ANeuralNetworksDiagnosticCompilationInfo_getSessionId",
    "SL_ANeuralNetworksDiagnosticCompilationInfo_getNnApiVersion",
    "SL_ANeuralNetworksDiagnosticCompilationInfo_getModelArchHash",
    "SL_ANeuralNetworksDiagnosticCompilationInfo_getDeviceIds",
    "SL_ANeuralNetworksDiagnosticCompilationInfo_getErrorCode",
    "SL_ANeuralNetworksDiagnosticCompilationInfo_getInputDataClass",
    "SL_ANeuralNetworksDiagnosticCompilationInfo_getOutputDataClass",
    "SL_ANeuralNetworksDiagnosticCompilationInfo_getCompilationTimeNanos",
    "SL_ANeuralNetworksDiagnosticCompilationInfo_isCachingEnabled",
    "SL_ANeuralNetworksDiagnosticCompilationInfo_isControlFlowUsed",
    "SL_ANeuralNetworksDiagnosticCompilationInfo_areDynamicTensorsUsed",
    "SL_ANeuralNetworksDiagnosticExecutionInfo_getSessionId",
    "SL_ANeuralNetworksDiagnosticExecutionInfo_getNnApiVersion",
    "SL_ANeuralNetworksDiagnosticExecutionInfo_getModelArchHash",
    "SL_ANeuralNetworksDiagnosticExecutionInfo_getDeviceIds",
    "SL_ANeuralNetworksDiagnosticExecutionInfo_getExecutionMode",
    "SL_ANeuralNetworksDiagnosticExecutionInfo_getInputDataClass",
    "SL_ANeuralNetworksDiagnosticExecutionInfo_getOutputDataClass",
    "SL_ANeuralNetworksDiagnosticExecutionInfo_getErrorCode",
    "SL_ANeuralNetworksDiagnosticExecutionInfo_getRuntimeExecutionTimeNanos",
    "SL_ANeuralNetworksDiagnosticExecutionInfo_getDriverExecutionTimeNanos",
    "SL_ANeuralNetworksDiagnosticExecutionInfo_getHardwareExecutionTimeNanos",
    "SL_ANeuralNetworksDiagnosticExecutionInfo_isCachingEnabled",
    "SL_ANeuralNetworksDiagnosticExecutionInfo_isControlFlowUsed",
    "SL_ANeuralNetworksDiagnosticExecutionInfo_areDynamicTensorsUsed",
    "SL_ANeuralNetworksDiagnostic_registerCallbacks",
    "ANeuralNetworksCompilation_addExtensionAttribute",
    "ANeuralNetworksExecution_addExtensionAttribute",
};

const NnApiSLDriverImplFL8* slTable() {
  return reinterpret_cast<const NnApiSLDriverImplFL8*>(ANeuralNetworks_getSLDriverImpl());
}

// The SL_ functions have no public prototypes: reached through the table (whose slots the
// first test proves to be the exported functions).
const NnApiSLDriverImplFL5& sl() { return slTable()->base; }

const ANeuralNetworksDevice* deviceNamed(const char* wanted) {
  uint32_t n = 0;
  ANeuralNetworks_getDeviceCount(&n);
  for (uint32_t i = 0; i < n; ++i) {
    ANeuralNetworksDevice* d = nullptr;
    const char* name = nullptr;
    if (ANeuralNetworks_getDevice(i, &d) == ANEURALNETWORKS_NO_ERROR &&
        ANeuralNetworksDevice_getName(d, &name) == ANEURALNETWORKS_NO_ERROR &&
        std::strcmp(name, wanted) == 0)
      return d;
  }
  return nullptr;
}

TEST(SupportLibrary, TableLevelAndEverySlotIsTheExportedFunction) {
  static_assert(sizeof(kSlotNames) / sizeof(kSlotNames[0]) == 106, "106 slots");
  const NnApiSLDriverImpl* impl = ANeuralNetworks_getSLDriverImpl();
  ASSERT_NE(impl, nullptr);
  EXPECT_EQ(impl, ANeuralNetworks_getSLDriverImpl()) << "one static table";
  // At most FL7 unless NNAPI_SL_IMPL_FEATURE_LEVEL=8: TFLite 2.14 refuses FL8 tables.
  const char* claim = getenv("NNAPI_SL_IMPL_FEATURE_LEVEL");
  const int64_t cap = claim != nullptr && std::string(claim) == "8" ? ANEURALNETWORKS_FEATURE_LEVEL_8
                                                                   : ANEURALNETWORKS_FEATURE_LEVEL_7;
  EXPECT_EQ(impl->implFeatureLevel, std::min<int64_t>(ANeuralNetworks_getRuntimeFeatureLevel(), cap));
  EXPECT_GE(impl->implFeatureLevel, ANEURALNETWORKS_FEATURE_LEVEL_5);
  // The library's own handle, so a same-named symbol elsewhere cannot satisfy the check.
  Dl_info info{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&ANeuralNetworks_getSLDriverImpl), &info), 0);
  void* lib = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(lib, nullptr) << info.dli_fname;
  void* const* slots = reinterpret_cast<void* const*>(reinterpret_cast<const char*>(impl) + 8);
  for (size_t i = 0; i < 106; ++i) {
    void* expected = dlsym(lib, kSlotNames[i]);
    EXPECT_NE(expected, nullptr) << kSlotNames[i] << " is not exported";
    EXPECT_NE(slots[i], nullptr) << "slot " << i + 1 << " (" << kSlotNames[i] << ") is NULL";
    EXPECT_EQ(slots[i], expected) << "slot " << i + 1 << " does not point at " << kSlotNames[i];
  }
  EXPECT_EQ(dlsym(lib, "ANeuralNetworks_getSLDriverImpl"),
            reinterpret_cast<void*>(&ANeuralNetworks_getSLDriverImpl));
  dlclose(lib);
}

void countOperand(SL_ANeuralNetworksOperandPerformanceInfo info, void* context) {
  auto* seen = static_cast<std::vector<int32_t>*>(context);
  seen->push_back(info.operandType);
  EXPECT_GT(info.performanceInfo.execTime, 0.0f);
}
void countExtensionType(SL_ANeuralNetworksExtensionOperandTypeInformation, void* context) {
  ++*static_cast<int*>(context);
}

TEST(SupportLibrary, DeviceQueriesAndTheirArgumentContracts) {
  const NnApiSLDriverImplFL5& t = slTable()->base;
  const ANeuralNetworksDevice* cpu = deviceNamed("nnapi-cpu");
  ASSERT_NE(cpu, nullptr);

  SL_ANeuralNetworksPerformanceInfo perf{-1.f, -1.f};
  for (int32_t kind = 0; kind <= 3; ++kind) {
    EXPECT_EQ(t.SL_ANeuralNetworksDevice_getPerformanceInfo(cpu, kind, &perf),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_GT(perf.execTime, 0.f);
  }
  perf = {-1.f, -1.f};
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_getPerformanceInfo(cpu, 4, &perf), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(perf.execTime, 0.f) << "output zeroed first";
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_getPerformanceInfo(cpu, -1, &perf), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_getPerformanceInfo(nullptr, 0, &perf),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_getPerformanceInfo(cpu, 0, nullptr),
            ANEURALNETWORKS_UNEXPECTED_NULL);

  std::vector<int32_t> seen;
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo(cpu, &seen, countOperand),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(seen.size(), 15u);
  for (int32_t i = 0; i < 15; ++i) EXPECT_EQ(seen[i], i);
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo(cpu, nullptr, countOperand),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo(cpu, &seen, nullptr),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo(nullptr, &seen, countOperand),
            ANEURALNETWORKS_UNEXPECTED_NULL);

  uint32_t model = 7, data = 7;
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded(cpu, &model, &data),
            ANEURALNETWORKS_NO_ERROR);
  model = data = 7;
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded(nullptr, &model, &data),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(model, 0u);
  EXPECT_EQ(data, 0u);
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded(cpu, nullptr, &data),
            ANEURALNETWORKS_UNEXPECTED_NULL);

  uint32_t count = 99;
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_getVendorExtensionCount(cpu, &count), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_getVendorExtensionCount(cpu, nullptr),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  uint32_t zeroed = 5;
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_getVendorExtensionCount(nullptr, &zeroed),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(zeroed, 0u);
  for (uint32_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    EXPECT_EQ(t.SL_ANeuralNetworksDevice_getVendorExtensionName(cpu, i, &name), ANEURALNETWORKS_NO_ERROR);
    EXPECT_NE(name, nullptr);
    int types = 0;
    EXPECT_EQ(t.SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation(
                  cpu, i, &types, countExtensionType),
              ANEURALNETWORKS_NO_ERROR);
  }
  const char* name = "x";
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_getVendorExtensionName(cpu, count, &name),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(name, nullptr);
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_getVendorExtensionName(nullptr, 0, &name),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_getVendorExtensionName(cpu, 0, nullptr),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  int types = 0;
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation(
                cpu, count, &types, countExtensionType),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation(
                cpu, 0, nullptr, countExtensionType),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(t.SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation(
                cpu, 0, &types, nullptr),
            ANEURALNETWORKS_UNEXPECTED_NULL);
}

// out = in OP constant, float32 [2]; `op` ADD or MUL.
void buildBinary(nntest::ModelBuilder* m, int32_t op, std::vector<float> constant) {
  const uint32_t in = m->addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2});
  const uint32_t c = m->addConstant<float>(ANEURALNETWORKS_TENSOR_FLOAT32, {2}, constant);
  const uint32_t act = m->addInt32(ANEURALNETWORKS_FUSED_NONE);
  const uint32_t out = m->addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2});
  m->addOperation(op, {in, c, act}, {out});
  ASSERT_EQ(m->finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
}

ANeuralNetworksCompilation* compileOnCpu(const nntest::ModelBuilder& m) {
  const ANeuralNetworksDevice* cpu = deviceNamed("nnapi-cpu");
  ANeuralNetworksCompilation* c = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(m.get(), &cpu, 1, &c),
            ANEURALNETWORKS_NO_ERROR);
  return c;
}

int openFdCount() {
  int n = 0;
  DIR* d = opendir("/proc/self/fd");
  if (d == nullptr) return -1;
  while (dirent* e = readdir(d))
    if (e->d_name[0] != '.') ++n;
  closedir(d);
  return n;
}

TEST(SupportLibrary, SetCachingFromFdsDuplicatesAndValidates) {
  nntest::ModelBuilder m;
  buildBinary(&m, ANEURALNETWORKS_ADD, {1.f, 2.f});
  ANeuralNetworksCompilation* c = compileOnCpu(m);
  ASSERT_NE(c, nullptr);
  const uint8_t token[32] = {1, 2, 3};
  char path[] = "/tmp/nnapi-sl-cache-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  unlink(path);
  const int before = openFdCount();
  const int fds[2] = {fd, fd};
  EXPECT_EQ(sl().SL_ANeuralNetworksCompilation_setCachingFromFds(nullptr, fds, 1, fds, 1, token),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(sl().SL_ANeuralNetworksCompilation_setCachingFromFds(c, fds, 1, fds, 1, nullptr),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(sl().SL_ANeuralNetworksCompilation_setCachingFromFds(c, nullptr, 1, fds, 1, token),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(sl().SL_ANeuralNetworksCompilation_setCachingFromFds(c, fds, 1, nullptr, 1, token),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  const int bad[1] = {-1};
  EXPECT_EQ(sl().SL_ANeuralNetworksCompilation_setCachingFromFds(c, fds, 1, bad, 1, token),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(openFdCount(), before) << "a failed call keeps no duplicate";
  EXPECT_EQ(sl().SL_ANeuralNetworksCompilation_setCachingFromFds(c, fds, 1, fds + 1, 1, token),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(openFdCount(), before + 2) << "one duplicate per cache file";
  close(fd);  // the caller's fd may go; the compilation keeps its own
  EXPECT_EQ(openFdCount(), before + 1);
  EXPECT_EQ(sl().SL_ANeuralNetworksCompilation_setCachingFromFds(c, nullptr, 0, nullptr, 0, token),
            ANEURALNETWORKS_NO_ERROR) << "no files is allowed";
  EXPECT_EQ(openFdCount(), before - 1) << "a new call replaces (and closes) the old duplicates";
  EXPECT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(sl().SL_ANeuralNetworksCompilation_setCachingFromFds(c, nullptr, 0, nullptr, 0, token),
            ANEURALNETWORKS_BAD_STATE);
  ANeuralNetworksCompilation_free(c);
}

TEST(SupportLibrary, CachingFdsAreClosedWithTheCompilation) {
  nntest::ModelBuilder m;
  buildBinary(&m, ANEURALNETWORKS_ADD, {1.f, 2.f});
  const int before = openFdCount();
  ANeuralNetworksCompilation* c = compileOnCpu(m);
  ASSERT_NE(c, nullptr);
  const uint8_t token[32] = {};
  const int fds[3] = {0, 1, 2};
  ASSERT_EQ(sl().SL_ANeuralNetworksCompilation_setCachingFromFds(c, fds, 2, fds + 2, 1, token),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(openFdCount(), before + 3);
  ANeuralNetworksCompilation_free(c);
  EXPECT_EQ(openFdCount(), before);
}

// ---- diagnostics ----

struct Seen {
  std::mutex mutex;
  struct Compilation {
    int32_t sessionId;
    int32_t errorCode;
    int64_t version;
    std::string deviceIds;
    std::vector<uint8_t> hash;
    ANeuralNetworksDiagnosticDataClass input, output;
    uint64_t timeNs;
    bool caching, controlFlow, dynamic;
  };
  struct Execution {
    int32_t sessionId;
    uint32_t errorCode;
    ANeuralNetworksDiagnosticExecutionMode mode;
    std::string deviceIds;
    std::vector<uint8_t> hash;
    uint64_t runtimeNs, driverNs;
  };
  std::vector<Compilation> compilations;
  std::vector<Execution> executions;
};

void onCompilation(const void* context, const ANeuralNetworksDiagnosticCompilationInfo* info) {
  auto* seen = static_cast<Seen*>(const_cast<void*>(context));
  const uint8_t* h = sl().SL_ANeuralNetworksDiagnosticCompilationInfo_getModelArchHash(info);
  std::lock_guard<std::mutex> lock(seen->mutex);
  seen->compilations.push_back({sl().SL_ANeuralNetworksDiagnosticCompilationInfo_getSessionId(info),
                                sl().SL_ANeuralNetworksDiagnosticCompilationInfo_getErrorCode(info),
                                sl().SL_ANeuralNetworksDiagnosticCompilationInfo_getNnApiVersion(info),
                                sl().SL_ANeuralNetworksDiagnosticCompilationInfo_getDeviceIds(info),
                                std::vector<uint8_t>(h, h + 32),
                                sl().SL_ANeuralNetworksDiagnosticCompilationInfo_getInputDataClass(info),
                                sl().SL_ANeuralNetworksDiagnosticCompilationInfo_getOutputDataClass(info),
                                sl().SL_ANeuralNetworksDiagnosticCompilationInfo_getCompilationTimeNanos(info),
                                sl().SL_ANeuralNetworksDiagnosticCompilationInfo_isCachingEnabled(info),
                                sl().SL_ANeuralNetworksDiagnosticCompilationInfo_isControlFlowUsed(info),
                                sl().SL_ANeuralNetworksDiagnosticCompilationInfo_areDynamicTensorsUsed(info)});
}

void onExecution(const void* context, const ANeuralNetworksDiagnosticExecutionInfo* info) {
  auto* seen = static_cast<Seen*>(const_cast<void*>(context));
  const uint8_t* h = sl().SL_ANeuralNetworksDiagnosticExecutionInfo_getModelArchHash(info);
  std::lock_guard<std::mutex> lock(seen->mutex);
  seen->executions.push_back({sl().SL_ANeuralNetworksDiagnosticExecutionInfo_getSessionId(info),
                              sl().SL_ANeuralNetworksDiagnosticExecutionInfo_getErrorCode(info),
                              sl().SL_ANeuralNetworksDiagnosticExecutionInfo_getExecutionMode(info),
                              sl().SL_ANeuralNetworksDiagnosticExecutionInfo_getDeviceIds(info),
                              std::vector<uint8_t>(h, h + 32),
                              sl().SL_ANeuralNetworksDiagnosticExecutionInfo_getRuntimeExecutionTimeNanos(info),
                              sl().SL_ANeuralNetworksDiagnosticExecutionInfo_getDriverExecutionTimeNanos(info)});
}

// Registered for the test's duration only; other tests must not feed it.
struct Registration {
  explicit Registration(Seen* seen) {
    sl().SL_ANeuralNetworksDiagnostic_registerCallbacks(onCompilation, onExecution, seen);
  }
  ~Registration() { sl().SL_ANeuralNetworksDiagnostic_registerCallbacks(nullptr, nullptr, nullptr); }
};

ANeuralNetworksExecution* prepared(ANeuralNetworksCompilation* c, const float* in, float* out) {
  ANeuralNetworksExecution* e = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, in, 2 * sizeof(float)),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, 2 * sizeof(float)),
            ANEURALNETWORKS_NO_ERROR);
  return e;
}

TEST(SupportLibrary, DiagnosticsReportCompilationsAndEveryExecutionMode) {
  Seen seen;
  Registration registration(&seen);
  nntest::ModelBuilder m;
  buildBinary(&m, ANEURALNETWORKS_ADD, {1.f, 2.f});
  ANeuralNetworksCompilation* c = compileOnCpu(m);
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_BAD_STATE);
  {
    std::lock_guard<std::mutex> lock(seen.mutex);
    ASSERT_EQ(seen.compilations.size(), 1u) << "one record per compilation attempt";
    const auto& r = seen.compilations[0];
    EXPECT_EQ(r.errorCode, ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(r.deviceIds, "nnapi-cpu");
    EXPECT_EQ(r.version, ANeuralNetworks_getRuntimeFeatureLevel());
    EXPECT_EQ(r.input, ANNDIAG_DATA_CLASS_FLOAT32);
    EXPECT_EQ(r.output, ANNDIAG_DATA_CLASS_FLOAT32);
    EXPECT_NE(r.timeNs, UINT64_MAX);
    EXPECT_FALSE(r.caching);
    EXPECT_FALSE(r.controlFlow);
    EXPECT_FALSE(r.dynamic);
  }
  const int32_t session = seen.compilations[0].sessionId;

  const float in[2] = {1.f, 1.f};
  float out[2] = {};
  ANeuralNetworksExecution* e = prepared(c, in, out);
  ASSERT_EQ(ANeuralNetworksExecution_setMeasureTiming(e, false), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setReusable(e, true), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(out[1], 3.f);
  ANeuralNetworksEvent* event = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_startCompute(e, &event), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksEvent_wait(event), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent_free(event);
  ASSERT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(e, nullptr, 0, 0, &event),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksEvent_wait(event), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent_free(event);
  ANeuralNetworksBurst* burst = nullptr;
  ASSERT_EQ(ANeuralNetworksBurst_create(c, &burst), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_burstCompute(e, burst), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksBurst_free(burst);
  ANeuralNetworksExecution_free(e);

  {
    std::lock_guard<std::mutex> lock(seen.mutex);
    ASSERT_EQ(seen.executions.size(), 4u);
    const ANeuralNetworksDiagnosticExecutionMode modes[4] = {
        ANNDIAG_EXECUTION_MODE_SYNC, ANNDIAG_EXECUTION_MODE_ASYNC,
        ANNDIAG_EXECUTION_MODE_ASYNC_WITH_DEPS, ANNDIAG_EXECUTION_MODE_BURST};
    for (size_t i = 0; i < 4; ++i) {
      const auto& x = seen.executions[i];
      EXPECT_EQ(x.mode, modes[i]) << i;
      EXPECT_EQ(x.sessionId, session) << i;
      EXPECT_EQ(x.errorCode, uint32_t(ANEURALNETWORKS_NO_ERROR)) << i;
      EXPECT_EQ(x.deviceIds, "nnapi-cpu") << i;
      EXPECT_EQ(x.hash, seen.compilations[0].hash) << i;
      EXPECT_NE(x.runtimeNs, UINT64_MAX) << i;
      EXPECT_EQ(x.driverNs, UINT64_MAX) << i << ": timing was not requested";
    }
  }

  // A failing computation reports its error code: a dynamic output given too small a buffer.
  nntest::ModelBuilder dynamic;
  const uint32_t din = dynamic.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2});
  const uint32_t dc = dynamic.addConstant<float>(ANEURALNETWORKS_TENSOR_FLOAT32, {2}, {1.f, 2.f});
  const uint32_t dact = dynamic.addInt32(ANEURALNETWORKS_FUSED_NONE);
  const uint32_t dout = dynamic.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {0});
  dynamic.addOperation(ANEURALNETWORKS_ADD, {din, dc, dact}, {dout});
  ASSERT_EQ(dynamic.finish({din}, {dout}), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation* dc1 = compileOnCpu(dynamic);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(dc1), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* bad = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(dc1, &bad), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(bad, 0, nullptr, in, sizeof(in)), ANEURALNETWORKS_NO_ERROR);
  float small[1];
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(bad, 0, nullptr, small, sizeof(small)),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(bad), ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
  {
    std::lock_guard<std::mutex> lock(seen.mutex);
    ASSERT_EQ(seen.compilations.size(), 2u);
    EXPECT_TRUE(seen.compilations[1].dynamic);
    ASSERT_EQ(seen.executions.size(), 5u);
    EXPECT_EQ(seen.executions[4].errorCode, uint32_t(ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE));
    EXPECT_EQ(seen.executions[4].sessionId, seen.compilations[1].sessionId);
    EXPECT_NE(seen.executions[4].sessionId, session);
  }
  ANeuralNetworksExecution_free(bad);
  ANeuralNetworksCompilation_free(dc1);
  ANeuralNetworksCompilation_free(c);

  // A compilation that fails is reported too, with its error code and its own session id.
  // An ADD of two [2] tensors declared to give [3]: valid to build (the declared output shape
  // is the device's to check), rejected by the device when compiling.
  nntest::ModelBuilder mismatch;
  const uint32_t input = mismatch.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2});
  const uint32_t act = mismatch.addInt32(ANEURALNETWORKS_FUSED_NONE);
  const uint32_t o = mismatch.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {3});
  mismatch.addOperation(ANEURALNETWORKS_ADD, {input, input, act}, {o});
  ASSERT_EQ(mismatch.finish({input}, {o}), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation* failing = compileOnCpu(mismatch);
  ASSERT_NE(failing, nullptr);
  const int rc = ANeuralNetworksCompilation_finish(failing);
  EXPECT_NE(rc, ANEURALNETWORKS_NO_ERROR);
  {
    std::lock_guard<std::mutex> lock(seen.mutex);
    ASSERT_EQ(seen.compilations.size(), 3u);
    EXPECT_EQ(seen.compilations[2].errorCode, rc);
    EXPECT_NE(seen.compilations[2].sessionId, seen.compilations[1].sessionId);
    EXPECT_EQ(seen.compilations[2].deviceIds, "nnapi-cpu");
  }
  ANeuralNetworksCompilation_free(failing);
}

std::vector<uint8_t> archHashOf(int32_t op, std::vector<float> constant) {
  Seen seen;
  Registration registration(&seen);
  nntest::ModelBuilder m;
  buildBinary(&m, op, constant);
  ANeuralNetworksCompilation* c = compileOnCpu(m);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation_free(c);
  std::lock_guard<std::mutex> lock(seen.mutex);
  EXPECT_EQ(seen.compilations.size(), 1u);
  return seen.compilations.empty() ? std::vector<uint8_t>() : seen.compilations[0].hash;
}

TEST(SupportLibrary, ArchHashIgnoresWeightsButNotOperations) {
  const std::vector<uint8_t> add1 = archHashOf(ANEURALNETWORKS_ADD, {1.f, 2.f});
  const std::vector<uint8_t> add2 = archHashOf(ANEURALNETWORKS_ADD, {5.f, -7.f});
  const std::vector<uint8_t> mul = archHashOf(ANEURALNETWORKS_MUL, {1.f, 2.f});
  ASSERT_EQ(add1.size(), 32u);
  EXPECT_EQ(add1, add2);
  EXPECT_NE(add1, mul);
  EXPECT_NE(add1, std::vector<uint8_t>(32, 0));
}

TEST(SupportLibrary, UnregisteredCallbacksAreNotCalled) {
  Seen seen;
  {
    Registration registration(&seen);
  }
  nntest::ModelBuilder m;
  buildBinary(&m, ANEURALNETWORKS_ADD, {1.f, 2.f});
  ANeuralNetworksCompilation* c = compileOnCpu(m);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  const float in[2] = {1.f, 1.f};
  float out[2] = {};
  ANeuralNetworksExecution* e = prepared(c, in, out);
  EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(c);
  std::lock_guard<std::mutex> lock(seen.mutex);
  EXPECT_TRUE(seen.compilations.empty());
  EXPECT_TRUE(seen.executions.empty());
}

}  // namespace
