// The NNAPI functions the runner calls, as a table of function pointers, so one runner works
// against a linked libneuralnetworks (nnapi-cts) and against a Support Library reached only
// through ANeuralNetworks_getSLDriverImpl (nnapi-cts-sl --sl PATH).
#ifndef NNAPI_TOOLS_CTS_CTS_API_H
#define NNAPI_TOOLS_CTS_CTS_API_H

#include <android/NeuralNetworks.h>

#include <string>

namespace cts {

// The functions used that the SL table also has (same names as its members).
#define CTS_SL_FUNCTIONS(X)                                                                      \
    X(ANeuralNetworks_getDeviceCount) X(ANeuralNetworks_getDevice)                               \
    X(ANeuralNetworks_getRuntimeFeatureLevel) X(ANeuralNetworksDevice_getName)                   \
    X(ANeuralNetworksDevice_getFeatureLevel) X(ANeuralNetworksModel_create)                      \
    X(ANeuralNetworksModel_free) X(ANeuralNetworksModel_finish) X(ANeuralNetworksModel_addOperand) \
    X(ANeuralNetworksModel_setOperandValue) X(ANeuralNetworksModel_setOperandValueFromMemory)   \
    X(ANeuralNetworksModel_setOperandValueFromModel)                                             \
    X(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams)                                  \
    X(ANeuralNetworksModel_addOperation) X(ANeuralNetworksModel_identifyInputsAndOutputs)        \
    X(ANeuralNetworksModel_relaxComputationFloat32toFloat16)                                     \
    X(ANeuralNetworksModel_getSupportedOperationsForDevices)                                     \
    X(ANeuralNetworksCompilation_createForDevices) X(ANeuralNetworksCompilation_finish)          \
    X(ANeuralNetworksCompilation_free) X(ANeuralNetworksBurst_create) X(ANeuralNetworksBurst_free) \
    X(ANeuralNetworksExecution_create) X(ANeuralNetworksExecution_free)                          \
    X(ANeuralNetworksExecution_setInput) X(ANeuralNetworksExecution_setOutput)                   \
    X(ANeuralNetworksExecution_setLoopTimeout) X(ANeuralNetworksExecution_compute)              \
    X(ANeuralNetworksExecution_burstCompute) X(ANeuralNetworksExecution_startComputeWithDependencies) \
    X(ANeuralNetworksExecution_getOutputOperandRank)                                             \
    X(ANeuralNetworksExecution_getOutputOperandDimensions) X(ANeuralNetworksEvent_wait)          \
    X(ANeuralNetworksEvent_free) X(ANeuralNetworksMemory_createFromFd) X(ANeuralNetworksMemory_free)

struct Api {
#define CTS_API_MEMBER(name) decltype(&::name) name = nullptr;
    CTS_SL_FUNCTIONS(CTS_API_MEMBER)
#undef CTS_API_MEMBER
    // Not in the SL table (ABI.md 4.3): nullptr there, and the runner then uses
    // createForDevices and startComputeWithDependencies instead.
    decltype(&::ANeuralNetworksCompilation_create) ANeuralNetworksCompilation_create = nullptr;
    decltype(&::ANeuralNetworksExecution_startCompute) ANeuralNetworksExecution_startCompute = nullptr;
    // The partitioning plan (NeuralNetworksDiagnostics.h) when linked; nullptr through the SL
    // table, and the multi-device count is then not reported.
    int (*getStepCount)(const ANeuralNetworksCompilation*, uint32_t*) = nullptr;
    int (*getStepDevice)(const ANeuralNetworksCompilation*, uint32_t,
                         const ANeuralNetworksDevice**) = nullptr;
    // Names: the runtime's ANNLinux_* functions when linked, else the runner's (cts_names.h).
    const char* (*resultCodeName)(int) = nullptr;
    int32_t (*operationCodeFromName)(const char*) = nullptr;
    // What the table was filled from, for the run's information line.
    std::string origin;
};

// The table in use. Until installApi, only the name functions are set (the runner's own).
const Api& api();
void setApi(const Api& table);

// Defined once per binary: cts_api_linked.cc (nnapi-cts) or cts_api_sl.cc (nnapi-cts-sl).
// The binary's name, for --help and --version.
const char* toolName();
// nnapi-cts: slPath must be empty; nnapi-cts-sl: slPath required. False with a message on failure.
bool installApi(const std::string& slPath, std::string* error);
// Whether this binary needs --sl PATH.
bool apiNeedsSupportLibrary();

}  // namespace cts

#endif  // NNAPI_TOOLS_CTS_CTS_API_H
