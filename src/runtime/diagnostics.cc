#include "runtime/diagnostics.h"

#include <time.h>

#include <memory>
#include <mutex>
#include <vector>

#include "runtime/compilation.h"
#include "runtime/device_manager.h"
#include "runtime/model.h"
#include "hal/sha256.h"

namespace nn {
namespace diag {

namespace internal {
std::atomic<bool> gEnabled{false};
}

namespace {

struct Callbacks {
  ANeuralNetworksDiagnosticCompilationFinishedCallback compilation;
  ANeuralNetworksDiagnosticExecutionFinishedCallback execution;
  void* context;
};

// The current registration. Registrations are immutable and never freed: a thread that loaded
// an older one may still be calling through it while another thread registers anew.
std::atomic<const Callbacks*> gCurrent{nullptr};

std::atomic<int32_t> gNextSessionId{0};

ANeuralNetworksDiagnosticDataClass classOfType(OperandType type) {
  switch (type) {
    case OperandType::TENSOR_FLOAT32:
      return ANNDIAG_DATA_CLASS_FLOAT32;
    case OperandType::TENSOR_FLOAT16:
      return ANNDIAG_DATA_CLASS_FLOAT16;
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::TENSOR_QUANT16_ASYMM:
    case OperandType::TENSOR_QUANT16_SYMM:
      return ANNDIAG_DATA_CLASS_QUANT;
    default:
      return ANNDIAG_DATA_CLASS_OTHER;
  }
}

bool hasUnknownDims(const Operand& o) {
  if (!isTensorType(o.type)) return false;
  if (o.dimensions.empty()) return true;
  for (uint32_t d : o.dimensions)
    if (d == 0) return true;
  return false;
}

void hashSubgraph(const Subgraph& sg, Sha256* h) {
  h->updateValue(uint64_t(sg.operands.size()));
  for (const Operand& o : sg.operands) {
    h->updateValue(int32_t(o.type));
    h->updateValue(uint32_t(o.dimensions.size()));
    for (uint32_t d : o.dimensions) h->updateValue(d);
    h->updateValue(o.scale);
    h->updateValue(o.zeroPoint);
    // Constants count as one kind: copying small values and referencing large ones is a
    // storage detail, not architecture.
    Lifetime l = o.lifetime;
    if (l == Lifetime::CONSTANT_REFERENCE) l = Lifetime::CONSTANT_COPY;
    h->updateValue(int32_t(l));
    // A SUBGRAPH operand's "value" is the index of the branch or body: structure.
    if (o.lifetime == Lifetime::SUBGRAPH) h->updateValue(o.location.offset);
    if (o.channelQuant) h->updateValue(o.channelQuant->channelDim);
  }
  h->updateValue(uint64_t(sg.operations.size()));
  for (const Operation& op : sg.operations) {
    h->updateValue(int32_t(op.type));
    h->updateValue(uint32_t(op.inputs.size()));
    for (uint32_t i : op.inputs) h->updateValue(i);
    h->updateValue(uint32_t(op.outputs.size()));
    for (uint32_t i : op.outputs) h->updateValue(i);
  }
  h->updateValue(uint32_t(sg.inputIndexes.size()));
  for (uint32_t i : sg.inputIndexes) h->updateValue(i);
  h->updateValue(uint32_t(sg.outputIndexes.size()));
  for (uint32_t i : sg.outputIndexes) h->updateValue(i);
}

}  // namespace

int32_t nextSessionId() { return gNextSessionId.fetch_add(1, std::memory_order_relaxed); }

uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

std::array<uint8_t, 32> modelArchHash(const Model& model) {
  Sha256 h;
  hashSubgraph(model.main, &h);
  h.updateValue(uint64_t(model.referenced.size()));
  for (const Subgraph& sg : model.referenced) hashSubgraph(sg, &h);
  h.updateValue(uint8_t(model.relaxComputationFloat32toFloat16));
  return h.finish();
}

ANeuralNetworksDiagnosticDataClass dataClassOf(const Subgraph& subgraph,
                                               const std::vector<uint32_t>& indexes) {
  // OTHER (e.g. an int32 shape input) does not spoil a float or quantized class; two
  // different real classes make MIXED.
  ANeuralNetworksDiagnosticDataClass result = ANNDIAG_DATA_CLASS_UNKNOWN;
  for (uint32_t index : indexes) {
    if (index >= subgraph.operands.size()) continue;
    const ANeuralNetworksDiagnosticDataClass c = classOfType(subgraph.operands[index].type);
    if (c == ANNDIAG_DATA_CLASS_OTHER) {
      if (result == ANNDIAG_DATA_CLASS_UNKNOWN) result = c;
    } else if (result == ANNDIAG_DATA_CLASS_UNKNOWN || result == ANNDIAG_DATA_CLASS_OTHER) {
      result = c;
    } else if (result != c) {
      result = ANNDIAG_DATA_CLASS_MIXED;
    }
  }
  return result;
}

ModelSummary summarize(const RuntimeCompilation& compilation) {
  ModelSummary s;
  const Model& model = *compilation.canonicalModel();
  s.sessionId = compilation.sessionId();
  s.nnapiVersion = runtimeFeatureLevel();
  s.archHash = modelArchHash(model);
  for (const Device* d : compilation.devices()) {
    if (!s.deviceIds.empty()) s.deviceIds += ',';
    s.deviceIds += d->name();
  }
  s.inputDataClass = dataClassOf(model.main, model.main.inputIndexes);
  s.outputDataClass = dataClassOf(model.main, model.main.outputIndexes);
  s.cachingEnabled = compilation.cachingEnabled();
  auto scan = [&s](const Subgraph& sg) {
    for (const Operation& op : sg.operations)
      if (op.type == OperationType::IF || op.type == OperationType::WHILE)
        s.controlFlowUsed = true;
    for (const Operand& o : sg.operands)
      if (hasUnknownDims(o)) s.dynamicTensorsUsed = true;
  };
  scan(model.main);
  for (const Subgraph& sg : model.referenced) scan(sg);
  return s;
}

void registerCallbacks(ANeuralNetworksDiagnosticCompilationFinishedCallback compilationCallback,
                       ANeuralNetworksDiagnosticExecutionFinishedCallback executionCallback,
                       void* context) {
  static std::mutex mutex;
  // Reachable from a static, so leak checkers do not flag the retired registrations.
  static auto* all = new std::vector<std::unique_ptr<Callbacks>>;
  std::lock_guard<std::mutex> lock(mutex);
  const Callbacks* next = nullptr;
  if (compilationCallback != nullptr || executionCallback != nullptr) {
    all->push_back(std::make_unique<Callbacks>(
        Callbacks{compilationCallback, executionCallback, context}));
    next = all->back().get();
  }
  gCurrent.store(next, std::memory_order_release);
  internal::gEnabled.store(next != nullptr, std::memory_order_relaxed);
}

void reportCompilation(const CompilationInfo& info) {
  const Callbacks* cb = gCurrent.load(std::memory_order_acquire);
  if (cb == nullptr || cb->compilation == nullptr) return;
  cb->compilation(cb->context,
                  reinterpret_cast<const ANeuralNetworksDiagnosticCompilationInfo*>(&info));
}

void compilationFinished(const RuntimeCompilation& compilation, int errorCode, uint64_t startNs) {
  const uint64_t end = nowNs();
  const CompilationInfo info{&compilation.diagnosticSummary(), errorCode,
                             startNs == 0 ? UINT64_MAX : end - startNs};
  reportCompilation(info);
}

void reportExecution(const ExecutionInfo& info) {
  const Callbacks* cb = gCurrent.load(std::memory_order_acquire);
  if (cb == nullptr || cb->execution == nullptr) return;
  cb->execution(cb->context,
                reinterpret_cast<const ANeuralNetworksDiagnosticExecutionInfo*>(&info));
}

}  // namespace diag
}  // namespace nn
