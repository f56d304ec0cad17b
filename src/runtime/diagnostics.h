// SL diagnostics (telemetry): the records handed to the callbacks registered with
// SL_ANeuralNetworksDiagnostic_registerCallbacks, and the registry itself.
//
// Cost when nobody listens: the hooks in Compilation_finish and RuntimeExecution::complete
// test enabled(), one relaxed atomic load. Records are built only when a callback exists.
#pragma once

#include <android/NeuralNetworksSupportLibraryImpl.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "hal/types.h"

namespace nn {

class Device;
class RuntimeCompilation;

namespace diag {

// What the compilation and execution records share: computed once per compilation (lazily,
// on the first record that needs it) and immutable afterwards.
struct ModelSummary {
  int32_t sessionId = 0;
  int64_t nnapiVersion = 0;
  std::array<uint8_t, 32> archHash{};
  std::string deviceIds;  // comma-separated names of the compilation's devices
  ANeuralNetworksDiagnosticDataClass inputDataClass = ANNDIAG_DATA_CLASS_UNKNOWN;
  ANeuralNetworksDiagnosticDataClass outputDataClass = ANNDIAG_DATA_CLASS_UNKNOWN;
  bool cachingEnabled = false;
  bool controlFlowUsed = false;
  bool dynamicTensorsUsed = false;
};

// The record behind ANeuralNetworksDiagnosticCompilationInfo*.
struct CompilationInfo {
  const ModelSummary* summary;
  int32_t errorCode;
  uint64_t compilationTimeNs;  // UINT64_MAX = unknown
};

// The record behind ANeuralNetworksDiagnosticExecutionInfo*.
struct ExecutionInfo {
  const ModelSummary* summary;
  ANeuralNetworksDiagnosticExecutionMode mode;
  uint32_t errorCode;
  uint64_t runtimeTimeNs;   // UINT64_MAX = unknown
  uint64_t driverTimeNs;    // idem
  uint64_t hardwareTimeNs;  // idem
};

// Process-wide, per compilation.
int32_t nextSessionId();

// Hash of the model's structure without its weights: per subgraph the operand types,
// dimensions, quantization and lifetimes (constant values and where they are stored do not
// count), the operations with their inputs and outputs, and the subgraph's inputs/outputs.
std::array<uint8_t, 32> modelArchHash(const Model& model);
// The data class of the given operands (a model's inputs or outputs).
ANeuralNetworksDiagnosticDataClass dataClassOf(const Subgraph& subgraph,
                                               const std::vector<uint32_t>& indexes);
ModelSummary summarize(const RuntimeCompilation& compilation);

namespace internal {
extern std::atomic<bool> gEnabled;
}
// True while callbacks are registered.
inline bool enabled() { return internal::gEnabled.load(std::memory_order_relaxed); }

void registerCallbacks(ANeuralNetworksDiagnosticCompilationFinishedCallback compilationCallback,
                       ANeuralNetworksDiagnosticExecutionFinishedCallback executionCallback,
                       void* context);
// Call only when enabled(); they re-check under the registry's protection.
void reportCompilation(const CompilationInfo& info);
void reportExecution(const ExecutionInfo& info);

uint64_t nowNs();

// The hooks. Compilation_finish: `startNs` from nowNs() at entry (0 = unknown).
void compilationFinished(const RuntimeCompilation& compilation, int errorCode, uint64_t startNs);

}  // namespace diag
}  // namespace nn
