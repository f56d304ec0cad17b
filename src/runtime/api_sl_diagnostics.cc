// C entry points of the SL diagnostics (ABI.md 4.4): the getters over the records handed to
// the callbacks (runtime/diagnostics.h) and the callback registration. A NULL record yields a
// neutral value (unknown class, UINT64_MAX times, false) rather than a crash.
#include <android/NeuralNetworksSupportLibraryImpl.h>

#include "runtime/diagnostics.h"

using namespace nn;

namespace {

const diag::CompilationInfo* rec(const ANeuralNetworksDiagnosticCompilationInfo* info) {
  return reinterpret_cast<const diag::CompilationInfo*>(info);
}
const diag::ExecutionInfo* rec(const ANeuralNetworksDiagnosticExecutionInfo* info) {
  return reinterpret_cast<const diag::ExecutionInfo*>(info);
}

}  // namespace

extern "C" {

int32_t SL_ANeuralNetworksDiagnosticCompilationInfo_getSessionId(
    const ANeuralNetworksDiagnosticCompilationInfo* info) {
  const auto* s = rec(info);
  return s ? s->summary->sessionId : -1;
}

int64_t SL_ANeuralNetworksDiagnosticCompilationInfo_getNnApiVersion(
    const ANeuralNetworksDiagnosticCompilationInfo* info) {
  const auto* s = rec(info);
  return s ? s->summary->nnapiVersion : 0;
}

const uint8_t* SL_ANeuralNetworksDiagnosticCompilationInfo_getModelArchHash(
    const ANeuralNetworksDiagnosticCompilationInfo* info) {
  const auto* s = rec(info);
  return s ? s->summary->archHash.data() : nullptr;
}

const char* SL_ANeuralNetworksDiagnosticCompilationInfo_getDeviceIds(
    const ANeuralNetworksDiagnosticCompilationInfo* info) {
  const auto* s = rec(info);
  return s ? s->summary->deviceIds.c_str() : "";
}

int32_t SL_ANeuralNetworksDiagnosticCompilationInfo_getErrorCode(
    const ANeuralNetworksDiagnosticCompilationInfo* info) {
  const auto* s = rec(info);
  return s ? s->errorCode : ANEURALNETWORKS_BAD_DATA;
}

ANeuralNetworksDiagnosticDataClass SL_ANeuralNetworksDiagnosticCompilationInfo_getInputDataClass(
    const ANeuralNetworksDiagnosticCompilationInfo* info) {
  const auto* s = rec(info);
  return s ? s->summary->inputDataClass : ANNDIAG_DATA_CLASS_UNKNOWN;
}

ANeuralNetworksDiagnosticDataClass SL_ANeuralNetworksDiagnosticCompilationInfo_getOutputDataClass(
    const ANeuralNetworksDiagnosticCompilationInfo* info) {
  const auto* s = rec(info);
  return s ? s->summary->outputDataClass : ANNDIAG_DATA_CLASS_UNKNOWN;
}

uint64_t SL_ANeuralNetworksDiagnosticCompilationInfo_getCompilationTimeNanos(
    const ANeuralNetworksDiagnosticCompilationInfo* info) {
  const auto* s = rec(info);
  return s ? s->compilationTimeNs : UINT64_MAX;
}

bool SL_ANeuralNetworksDiagnosticCompilationInfo_isCachingEnabled(
    const ANeuralNetworksDiagnosticCompilationInfo* info) {
  const auto* s = rec(info);
  return s && s->summary->cachingEnabled;
}

bool SL_ANeuralNetworksDiagnosticCompilationInfo_isControlFlowUsed(
    const ANeuralNetworksDiagnosticCompilationInfo* info) {
  const auto* s = rec(info);
  return s && s->summary->controlFlowUsed;
}

bool SL_ANeuralNetworksDiagnosticCompilationInfo_areDynamicTensorsUsed(
    const ANeuralNetworksDiagnosticCompilationInfo* info) {
  const auto* s = rec(info);
  return s && s->summary->dynamicTensorsUsed;
}

int32_t SL_ANeuralNetworksDiagnosticExecutionInfo_getSessionId(
    const ANeuralNetworksDiagnosticExecutionInfo* info) {
  const auto* s = rec(info);
  return s ? s->summary->sessionId : -1;
}

int64_t SL_ANeuralNetworksDiagnosticExecutionInfo_getNnApiVersion(
    const ANeuralNetworksDiagnosticExecutionInfo* info) {
  const auto* s = rec(info);
  return s ? s->summary->nnapiVersion : 0;
}

const uint8_t* SL_ANeuralNetworksDiagnosticExecutionInfo_getModelArchHash(
    const ANeuralNetworksDiagnosticExecutionInfo* info) {
  const auto* s = rec(info);
  return s ? s->summary->archHash.data() : nullptr;
}

const char* SL_ANeuralNetworksDiagnosticExecutionInfo_getDeviceIds(
    const ANeuralNetworksDiagnosticExecutionInfo* info) {
  const auto* s = rec(info);
  return s ? s->summary->deviceIds.c_str() : "";
}

ANeuralNetworksDiagnosticExecutionMode SL_ANeuralNetworksDiagnosticExecutionInfo_getExecutionMode(
    const ANeuralNetworksDiagnosticExecutionInfo* info) {
  const auto* s = rec(info);
  return s ? s->mode : ANNDIAG_EXECUTION_MODE_UNKNOWN;
}

ANeuralNetworksDiagnosticDataClass SL_ANeuralNetworksDiagnosticExecutionInfo_getInputDataClass(
    const ANeuralNetworksDiagnosticExecutionInfo* info) {
  const auto* s = rec(info);
  return s ? s->summary->inputDataClass : ANNDIAG_DATA_CLASS_UNKNOWN;
}

ANeuralNetworksDiagnosticDataClass SL_ANeuralNetworksDiagnosticExecutionInfo_getOutputDataClass(
    const ANeuralNetworksDiagnosticExecutionInfo* info) {
  const auto* s = rec(info);
  return s ? s->summary->outputDataClass : ANNDIAG_DATA_CLASS_UNKNOWN;
}

uint32_t SL_ANeuralNetworksDiagnosticExecutionInfo_getErrorCode(
    const ANeuralNetworksDiagnosticExecutionInfo* info) {
  const auto* s = rec(info);
  return s ? s->errorCode : uint32_t(ANEURALNETWORKS_BAD_DATA);
}

uint64_t SL_ANeuralNetworksDiagnosticExecutionInfo_getRuntimeExecutionTimeNanos(
    const ANeuralNetworksDiagnosticExecutionInfo* info) {
  const auto* s = rec(info);
  return s ? s->runtimeTimeNs : UINT64_MAX;
}

uint64_t SL_ANeuralNetworksDiagnosticExecutionInfo_getDriverExecutionTimeNanos(
    const ANeuralNetworksDiagnosticExecutionInfo* info) {
  const auto* s = rec(info);
  return s ? s->driverTimeNs : UINT64_MAX;
}

uint64_t SL_ANeuralNetworksDiagnosticExecutionInfo_getHardwareExecutionTimeNanos(
    const ANeuralNetworksDiagnosticExecutionInfo* info) {
  const auto* s = rec(info);
  return s ? s->hardwareTimeNs : UINT64_MAX;
}

bool SL_ANeuralNetworksDiagnosticExecutionInfo_isCachingEnabled(
    const ANeuralNetworksDiagnosticExecutionInfo* info) {
  const auto* s = rec(info);
  return s && s->summary->cachingEnabled;
}

bool SL_ANeuralNetworksDiagnosticExecutionInfo_isControlFlowUsed(
    const ANeuralNetworksDiagnosticExecutionInfo* info) {
  const auto* s = rec(info);
  return s && s->summary->controlFlowUsed;
}

bool SL_ANeuralNetworksDiagnosticExecutionInfo_areDynamicTensorsUsed(
    const ANeuralNetworksDiagnosticExecutionInfo* info) {
  const auto* s = rec(info);
  return s && s->summary->dynamicTensorsUsed;
}

void SL_ANeuralNetworksDiagnostic_registerCallbacks(
    ANeuralNetworksDiagnosticCompilationFinishedCallback compilationCallback,
    ANeuralNetworksDiagnosticExecutionFinishedCallback executionCallback, void* callbackContext) {
  diag::registerCallbacks(compilationCallback, executionCallback, callbackContext);
}

}  // extern "C"
