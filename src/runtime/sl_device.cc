#include "runtime/sl_device.h"

#include <android/NeuralNetworksDiagnostics.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <map>

#include "hal/log.h"

namespace nn {

namespace {

// Larger ranks are garbage: no NNAPI operation produces them, and the rank sizes a buffer.
constexpr uint32_t kMaxOutputRank = 16;
constexpr uint32_t kMaxExtensions = 64;
constexpr uint32_t kMaxCacheFiles = 32;  // ANEURALNETWORKS_MAX_NUMBER_OF_CACHE_FILES
// Nesting deeper than this is treated as a cycle (the canonical model is validated, so it
// only guards against a runtime bug turning into unbounded recursion).
constexpr int kMaxSubgraphDepth = 64;

uint64_t nowNs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

const char* codeName(int code) { return ANNLinux_resultCodeName(code); }

bool isValidFeatureLevel(int64_t level) {
  return (level >= kFeatureLevel1 && level <= kFeatureLevel5) || level == kFeatureLevel6 ||
         level == kFeatureLevel7 || level == kFeatureLevel8;
}

bool isValidPerformance(const SL_ANeuralNetworksPerformanceInfo& p) {
  return std::isfinite(p.execTime) && std::isfinite(p.powerUsage) && p.execTime > 0.f &&
         p.powerUsage > 0.f;
}

PerformanceInfo toPerformance(const SL_ANeuralNetworksPerformanceInfo& p) {
  return PerformanceInfo{p.execTime, p.powerUsage};
}

// `slType`: the operand's type code as the plugin numbers it (extension prefixes differ).
ANeuralNetworksOperandType slOperandType(const Operand& o, int32_t slType, const Dims& dims) {
  ANeuralNetworksOperandType t{};
  t.type = slType;
  t.dimensionCount = static_cast<uint32_t>(dims.size());
  t.dimensions = dims.empty() ? nullptr : dims.data();
  t.scale = o.scale;
  t.zeroPoint = o.zeroPoint;
  return t;
}

// Replays a canonical model into SL models (the main one and one per referenced subgraph)
// and frees them all when it goes away. Constants larger than 128 bytes are passed by
// pointer, so whoever keeps the SL models must keep the canonical model (its pools) too.
class SlModelReplay {
 public:
  SlModelReplay(const SlDevice& device, const Model& model)
      : device_(device), t_(device.driver().table.base), model_(model) {}
  ~SlModelReplay() {
    for (auto it = owned_.rbegin(); it != owned_.rend(); ++it) t_.ANeuralNetworksModel_free(*it);
  }
  SlModelReplay(const SlModelReplay&) = delete;
  SlModelReplay& operator=(const SlModelReplay&) = delete;

  Status build() {
    referenced_.assign(model_.referenced.size(), nullptr);
    return buildSubgraph(model_.main, 0, &main_);
  }
  ANeuralNetworksModel* main() const { return main_; }
  // The plugin's code for an operand type of the model (after build()).
  int32_t slOperandTypeCode(OperandType type) const {
    const auto it = operandTypes_.find(static_cast<int32_t>(type));
    return it != operandTypes_.end() ? it->second : static_cast<int32_t>(type);
  }

 private:
  Status fail(const char* call, int code, const std::string& what) const {
    return Status(errorStatusFromResultCode(code),
                  formatString("%s%s(%s) returned %s", device_.context().c_str(), call,
                               what.c_str(), codeName(code)));
  }

  Status buildSubgraph(const Subgraph& sg, int depth, ANeuralNetworksModel** out) {
    if (depth > kMaxSubgraphDepth)
      return Status(ErrorStatus::INVALID_ARGUMENT,
                    device_.context() + "referenced subgraphs nest too deeply");
    ANeuralNetworksModel* m = nullptr;
    int r = t_.ANeuralNetworksModel_create(&m);
    if (r != ANEURALNETWORKS_NO_ERROR || m == nullptr)
      return fail("ANeuralNetworksModel_create", r == 0 ? ANEURALNETWORKS_OP_FAILED : r, "");
    owned_.push_back(m);
    for (size_t i = 0; i < sg.operands.size(); ++i) {
      const Operand& o = sg.operands[i];
      int32_t slType = static_cast<int32_t>(o.type);
      if (isExtension(o.type)) {
        Status s = translateExtensionCode(m, static_cast<int32_t>(o.type), true, &slType);
        if (!s.ok()) return s;
        operandTypes_[static_cast<int32_t>(o.type)] = slType;
      }
      const ANeuralNetworksOperandType type = slOperandType(o, slType, o.dimensions);
      const int32_t index = static_cast<int32_t>(i);
      r = t_.ANeuralNetworksModel_addOperand(m, &type);
      if (r != ANEURALNETWORKS_NO_ERROR)
        return fail("ANeuralNetworksModel_addOperand", r, formatString("operand %zu", i));
      if (!o.extensionData.empty()) {
        if (t_.ANeuralNetworksModel_setOperandExtensionData == nullptr)
          return missingSlot("ANeuralNetworksModel_setOperandExtensionData");
        r = t_.ANeuralNetworksModel_setOperandExtensionData(m, index, o.extensionData.data(),
                                                            o.extensionData.size());
        if (r != ANEURALNETWORKS_NO_ERROR)
          return fail("ANeuralNetworksModel_setOperandExtensionData", r,
                      formatString("operand %zu", i));
      }
      if (o.channelQuant) {
        ANeuralNetworksSymmPerChannelQuantParams q{};
        q.channelDim = o.channelQuant->channelDim;
        q.scaleCount = static_cast<uint32_t>(o.channelQuant->scales.size());
        q.scales = o.channelQuant->scales.data();
        r = t_.ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(m, index, &q);
        if (r != ANEURALNETWORKS_NO_ERROR)
          return fail("ANeuralNetworksModel_setOperandSymmPerChannelQuantParams", r,
                      formatString("operand %zu", i));
      }
      Status s = setValue(m, o, index, depth);
      if (!s.ok()) return s;
    }
    for (size_t i = 0; i < sg.operations.size(); ++i) {
      const Operation& op = sg.operations[i];
      int32_t slOp = static_cast<int32_t>(op.type);
      if (isExtension(op.type)) {
        Status s = translateExtensionCode(m, slOp, false, &slOp);
        if (!s.ok()) return s;
      }
      r = t_.ANeuralNetworksModel_addOperation(
          m, static_cast<ANeuralNetworksOperationType>(slOp),
          static_cast<uint32_t>(op.inputs.size()), op.inputs.data(),
          static_cast<uint32_t>(op.outputs.size()), op.outputs.data());
      if (r != ANEURALNETWORKS_NO_ERROR)
        return fail("ANeuralNetworksModel_addOperation", r,
                    formatString("%s, operation #%zu", operationName(op.type).c_str(), i));
    }
    // NULL arrays are UNEXPECTED_NULL even with a zero count (a sub-model the partitioner
    // cut may read only constants), so an empty list is passed as a valid pointer.
    static const uint32_t kNone = 0;
    r = t_.ANeuralNetworksModel_identifyInputsAndOutputs(
        m, static_cast<uint32_t>(sg.inputIndexes.size()),
        sg.inputIndexes.empty() ? &kNone : sg.inputIndexes.data(),
        static_cast<uint32_t>(sg.outputIndexes.size()),
        sg.outputIndexes.empty() ? &kNone : sg.outputIndexes.data());
    if (r != ANEURALNETWORKS_NO_ERROR)
      return fail("ANeuralNetworksModel_identifyInputsAndOutputs", r, "");
    r = t_.ANeuralNetworksModel_relaxComputationFloat32toFloat16(
        m, model_.relaxComputationFloat32toFloat16);
    if (r != ANEURALNETWORKS_NO_ERROR)
      return fail("ANeuralNetworksModel_relaxComputationFloat32toFloat16", r, "");
    r = t_.ANeuralNetworksModel_finish(m);
    if (r != ANEURALNETWORKS_NO_ERROR) return fail("ANeuralNetworksModel_finish", r, "");
    *out = m;
    return kOk;
  }

  Status missingSlot(const char* slot) const {
    return Status(ErrorStatus::INVALID_ARGUMENT,
                  formatString("%sthe model uses vendor extensions but the plugin's table has no "
                               "%s",
                               device_.context().c_str(), slot));
  }

  // The plugin numbers extensions its own way: ask it for (name, code-within-extension) on
  // the SL model being built (the codes are per process, so per library).
  Status translateExtensionCode(ANeuralNetworksModel* m, int32_t code, bool isOperand,
                                int32_t* out) const {
    const std::string name = extensionName(extensionPrefixOf(code));
    const uint16_t within = codeWithinExtension(code);
    bool declared = false;
    for (const Extension& e : device_.extensions()) declared |= e.name == name;
    if (name.empty() || !declared)
      return Status(ErrorStatus::INVALID_ARGUMENT,
                    formatString("%s%s does not belong to an extension this device declares",
                                 device_.context().c_str(), extensionCodeName(code).c_str()));
    const char* call = isOperand ? "ANeuralNetworksModel_getExtensionOperandType"
                                 : "ANeuralNetworksModel_getExtensionOperationType";
    if ((isOperand ? (void*)t_.ANeuralNetworksModel_getExtensionOperandType
                   : (void*)t_.ANeuralNetworksModel_getExtensionOperationType) == nullptr)
      return missingSlot(call);
    int32_t slCode = 0;
    const int r =
        isOperand
            ? t_.ANeuralNetworksModel_getExtensionOperandType(m, name.c_str(), within, &slCode)
            : t_.ANeuralNetworksModel_getExtensionOperationType(m, name.c_str(), within, &slCode);
    if (r != ANEURALNETWORKS_NO_ERROR)
      return fail(call, r, formatString("'%s', %u", name.c_str(), within));
    // The answer must be an extension code for the same code within the extension.
    if (!isExtensionCode(slCode) || codeWithinExtension(slCode) != within) {
      std::string message = formatString("%s%s('%s', %u) returned garbage: code %d",
                                         device_.context().c_str(), call, name.c_str(), within,
                                         slCode);
      logInfo("%s", message.c_str());
      return Status(ErrorStatus::GENERAL_FAILURE, std::move(message));
    }
    *out = slCode;
    return kOk;
  }

  Status setValue(ANeuralNetworksModel* m, const Operand& o, int32_t index, int depth) {
    const DataLocation& loc = o.location;
    const void* data = nullptr;
    switch (o.lifetime) {
      case Lifetime::CONSTANT_COPY:
        if (uint64_t(loc.offset) + loc.length > model_.operandValues.size())
          return Status(ErrorStatus::INVALID_ARGUMENT,
                        formatString("%soperand %d: constant outside the model's values",
                                     device_.context().c_str(), index));
        data = model_.operandValues.data() + loc.offset;
        break;
      case Lifetime::CONSTANT_REFERENCE:
        if (loc.poolIndex >= model_.pools.size() || !model_.pools[loc.poolIndex] ||
            !model_.pools[loc.poolIndex]->contains(loc.offset, loc.length))
          return Status(ErrorStatus::INVALID_ARGUMENT,
                        formatString("%soperand %d: constant outside its memory pool",
                                     device_.context().c_str(), index));
        data = model_.pools[loc.poolIndex]->data() + loc.offset;
        break;
      case Lifetime::NO_VALUE: {
        const int r = t_.ANeuralNetworksModel_setOperandValue(m, index, nullptr, 0);
        if (r != ANEURALNETWORKS_NO_ERROR)
          return fail("ANeuralNetworksModel_setOperandValue", r,
                      formatString("operand %d, no value", index));
        return kOk;
      }
      case Lifetime::SUBGRAPH: {
        if (loc.offset >= referenced_.size())
          return Status(ErrorStatus::INVALID_ARGUMENT,
                        formatString("%soperand %d: subgraph %u does not exist",
                                     device_.context().c_str(), index, loc.offset));
        if (referenced_[loc.offset] == nullptr) {
          ANeuralNetworksModel* sub = nullptr;
          Status s = buildSubgraph(model_.referenced[loc.offset], depth + 1, &sub);
          if (!s.ok()) return s;
          referenced_[loc.offset] = sub;
        }
        const int r =
            t_.ANeuralNetworksModel_setOperandValueFromModel(m, index, referenced_[loc.offset]);
        if (r != ANEURALNETWORKS_NO_ERROR)
          return fail("ANeuralNetworksModel_setOperandValueFromModel", r,
                      formatString("operand %d", index));
        return kOk;
      }
      default:
        return kOk;  // inputs, outputs and temporaries have no value
    }
    const int r = t_.ANeuralNetworksModel_setOperandValue(m, index, data, loc.length);
    if (r != ANEURALNETWORKS_NO_ERROR)
      return fail("ANeuralNetworksModel_setOperandValue", r,
                  formatString("operand %d, %u bytes", index, loc.length));
    return kOk;
  }

  const SlDevice& device_;
  const NnApiSLDriverImplFL5& t_;
  const Model& model_;
  std::vector<ANeuralNetworksModel*> owned_;
  std::vector<ANeuralNetworksModel*> referenced_;
  ANeuralNetworksModel* main_ = nullptr;
  std::map<int32_t, int32_t> operandTypes_;  // extension operand codes: ours -> the plugin's
};

// The product of a successful prepareModel: the SL compilation plus everything it borrows
// (its SL models, and the canonical model whose pools back the large constants).
class SlPreparedModel : public PreparedModel {
 public:
  SlPreparedModel(const SlDevice& device, std::shared_ptr<const Model> model,
                  std::unique_ptr<SlModelReplay> replay, ANeuralNetworksCompilation* compilation)
      : device_(device),
        model_(std::move(model)),
        replay_(std::move(replay)),
        compilation_(compilation) {}
  ~SlPreparedModel() override {
    device_.driver().table.base.ANeuralNetworksCompilation_free(compilation_);
  }

  Status execute(const Request& request, const ExecuteOptions& options, ExecutionState* state,
                 std::vector<OutputShape>* outputShapes, Timing* timing) const override;

 private:
  Status fail(const char* call, int code, const std::string& what = "") const {
    return Status(errorStatusFromResultCode(code),
                  formatString("%s%s%s%s returned %s", device_.context().c_str(), call,
                               what.empty() ? "" : " ", what.c_str(), codeName(code)));
  }
  Status garbage(const std::string& what) const {
    std::string message = device_.context() + "returned garbage: " + what;
    logInfo("%s", message.c_str());
    return Status(ErrorStatus::GENERAL_FAILURE, std::move(message));
  }
  Status readOutputShapes(ANeuralNetworksExecution* e, const Request& request, int computed,
                          std::vector<OutputShape>* outputShapes) const;

  const SlDevice& device_;
  std::shared_ptr<const Model> model_;
  std::unique_ptr<SlModelReplay> replay_;
  ANeuralNetworksCompilation* compilation_;
};

// A request argument's host address, or null with *error set.
uint8_t* argumentAddress(const Request& request, const RequestArgument& arg, std::string* error) {
  if (arg.location.pointer != nullptr) return static_cast<uint8_t*>(arg.location.pointer);
  if (arg.location.poolIndex >= request.pools.size() ||
      request.pools[arg.location.poolIndex] == nullptr) {
    *error = formatString("memory pool %u does not exist", arg.location.poolIndex);
    return nullptr;
  }
  const Memory* pool = request.pools[arg.location.poolIndex];
  if (!pool->contains(arg.location.offset, arg.location.length)) {
    *error = formatString("bytes %u..+%u lie outside memory pool %u", arg.location.offset,
                          arg.location.length, arg.location.poolIndex);
    return nullptr;
  }
  return pool->data() + arg.location.offset;
}

// Frees an SL execution on every path.
struct ExecutionGuard {
  const NnApiSLDriverImplFL5& t;
  ANeuralNetworksExecution* e = nullptr;
  ~ExecutionGuard() {
    if (e != nullptr) t.ANeuralNetworksExecution_free(e);
  }
};

Status SlPreparedModel::execute(const Request& request, const ExecuteOptions& options,
                                ExecutionState*, std::vector<OutputShape>* outputShapes,
                                Timing* timing) const {
  const NnApiSLDriverImplFL5& t = device_.driver().table.base;
  const Subgraph& main = model_->main;
  outputShapes->assign(request.outputs.size(), OutputShape());
  if (request.inputs.size() != main.inputIndexes.size() ||
      request.outputs.size() != main.outputIndexes.size())
    return Status(ErrorStatus::INVALID_ARGUMENT,
                  device_.context() + "request does not match the model's inputs and outputs");
  if (options.deadlineNs != 0 && nowNs() >= options.deadlineNs)
    return Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                  device_.context() + "the deadline passed before the computation started");

  ExecutionGuard guard{t};
  int r = t.ANeuralNetworksExecution_create(compilation_, &guard.e);
  if (r != ANEURALNETWORKS_NO_ERROR || guard.e == nullptr)
    return fail("ANeuralNetworksExecution_create", r == 0 ? ANEURALNETWORKS_OP_FAILED : r);
  ANeuralNetworksExecution* e = guard.e;

  for (int pass = 0; pass < 2; ++pass) {
    const bool isInput = pass == 0;
    const auto& args = isInput ? request.inputs : request.outputs;
    const auto& indexes = isInput ? main.inputIndexes : main.outputIndexes;
    for (size_t i = 0; i < args.size(); ++i) {
      const RequestArgument& arg = args[i];
      const int32_t index = static_cast<int32_t>(i);
      const char* call = isInput ? "ANeuralNetworksExecution_setInput"
                                 : "ANeuralNetworksExecution_setOutput";
      uint8_t* address = nullptr;
      size_t length = 0;
      if (!arg.hasNoValue) {
        std::string error;
        address = argumentAddress(request, arg, &error);
        if (address == nullptr)
          return Status(ErrorStatus::INVALID_ARGUMENT,
                        formatString("%s%s %zu: %s", device_.context().c_str(),
                                     isInput ? "input" : "output", i, error.c_str()));
        length = arg.location.length;
      }
      ANeuralNetworksOperandType type{};
      const ANeuralNetworksOperandType* typePtr = nullptr;
      if (!arg.dimensions.empty()) {
        const Operand& operand = main.operands[indexes[i]];
        type = slOperandType(operand, replay_->slOperandTypeCode(operand.type), arg.dimensions);
        typePtr = &type;
      }
      r = isInput ? t.ANeuralNetworksExecution_setInput(e, index, typePtr, address, length)
                  : t.ANeuralNetworksExecution_setOutput(e, index, typePtr, address, length);
      if (r != ANEURALNETWORKS_NO_ERROR) return fail(call, r, formatString("(%zu)", i));
    }
  }
  r = t.ANeuralNetworksExecution_setLoopTimeout(e, options.loopTimeoutNs);
  if (r != ANEURALNETWORKS_NO_ERROR) return fail("ANeuralNetworksExecution_setLoopTimeout", r);
  if (options.deadlineNs != 0 && options.deadlineNs != UINT64_MAX) {
    const uint64_t now = nowNs();
    if (now >= options.deadlineNs)
      return Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                    device_.context() + "the deadline passed before the computation started");
    r = t.ANeuralNetworksExecution_setTimeout(e, options.deadlineNs - now);
    if (r != ANEURALNETWORKS_NO_ERROR) return fail("ANeuralNetworksExecution_setTimeout", r);
  }
  if (options.measureTiming) {
    r = t.ANeuralNetworksExecution_setMeasureTiming(e, true);
    if (r != ANEURALNETWORKS_NO_ERROR)
      return fail("ANeuralNetworksExecution_setMeasureTiming", r);
  }
  if (options.extensionAttributes != nullptr) {
    const auto add = device_.driver().table.ANeuralNetworksExecution_addExtensionAttribute;
    if (add == nullptr)
      return Status(ErrorStatus::INVALID_ARGUMENT,
                    device_.context() + "the execution has extension attributes but the plugin's "
                                        "table is older than feature level 8 (no "
                                        "ANeuralNetworksExecution_addExtensionAttribute)");
    for (const ExtensionAttribute& a : *options.extensionAttributes) {
      r = add(e, a.extension.c_str(), a.code, a.data.empty() ? nullptr : a.data.data(),
              a.data.size());
      if (r != ANEURALNETWORKS_NO_ERROR)
        return fail("ANeuralNetworksExecution_addExtensionAttribute", r,
                    formatString("(%s:%u)", a.extension.c_str(), a.code));
    }
  }

  const int computed = t.ANeuralNetworksExecution_compute(e);
  if (computed != ANEURALNETWORKS_NO_ERROR &&
      computed != ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE)
    return fail("ANeuralNetworksExecution_compute", computed);
  Status shapes = readOutputShapes(e, request, computed, outputShapes);
  if (!shapes.ok()) return shapes;
  if (computed == ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE)
    return fail("ANeuralNetworksExecution_compute", computed);

  if (options.measureTiming && timing != nullptr) {
    uint64_t onHardware = kNoTiming, inDriver = kNoTiming;
    if (t.ANeuralNetworksExecution_getDuration(e, ANEURALNETWORKS_DURATION_ON_HARDWARE,
                                               &onHardware) != ANEURALNETWORKS_NO_ERROR)
      onHardware = kNoTiming;
    if (t.ANeuralNetworksExecution_getDuration(e, ANEURALNETWORKS_DURATION_IN_DRIVER,
                                               &inDriver) != ANEURALNETWORKS_NO_ERROR)
      inDriver = kNoTiming;
    // Time on the hardware is part of the time in the driver; the reverse is garbage.
    if (onHardware != kNoTiming && inDriver != kNoTiming && onHardware > inDriver)
      onHardware = inDriver = kNoTiming;
    timing->timeOnDeviceNs = onHardware;
    timing->timeInDriverNs = inDriver;
  }
  return kOk;
}

Status SlPreparedModel::readOutputShapes(ANeuralNetworksExecution* e, const Request& request,
                                         int computed,
                                         std::vector<OutputShape>* outputShapes) const {
  const NnApiSLDriverImplFL5& t = device_.driver().table.base;
  const Subgraph& main = model_->main;
  bool anyInsufficient = false;
  for (size_t i = 0; i < request.outputs.size(); ++i) {
    const RequestArgument& arg = request.outputs[i];
    const Operand& operand = main.operands[main.outputIndexes[i]];
    const Dims& expected = arg.dimensions.empty() ? operand.dimensions : arg.dimensions;
    uint32_t rank = UINT32_MAX;
    const int rr = t.ANeuralNetworksExecution_getOutputOperandRank(e, static_cast<int32_t>(i),
                                                                   &rank);
    if (rr != ANEURALNETWORKS_NO_ERROR && rr != ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE)
      return fail("ANeuralNetworksExecution_getOutputOperandRank", rr, formatString("(%zu)", i));
    if (rank > kMaxOutputRank)
      return garbage(formatString("output %zu has rank %u (at most %u)", i, rank,
                                  kMaxOutputRank));
    Dims dims(rank, 0);
    if (rank > 0) {
      const int rd = t.ANeuralNetworksExecution_getOutputOperandDimensions(
          e, static_cast<int32_t>(i), dims.data());
      if (rd != ANEURALNETWORKS_NO_ERROR && rd != ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE)
        return fail("ANeuralNetworksExecution_getOutputOperandDimensions", rd,
                    formatString("(%zu)", i));
    }
    const bool sufficient = rr == ANEURALNETWORKS_NO_ERROR;
    anyInsufficient |= !sufficient;
    // The reported shape must refine what the model (or the request) fixed.
    if (isTensorType(operand.type) && !expected.empty()) {
      bool matches = expected.size() == dims.size();
      for (size_t d = 0; matches && d < dims.size(); ++d)
        matches = expected[d] == 0 || expected[d] == dims[d];
      if (!matches)
        return garbage(formatString("output %zu has dimensions %s, the model says %s", i,
                                    toString(dims).c_str(), toString(expected).c_str()));
    }
    if (sufficient && isTensorType(operand.type) && !arg.hasNoValue) {
      const uint64_t bytes = elementCount(dims) * elementSize(operand.type);
      if (bytes > arg.location.length)
        return garbage(formatString("output %zu reported sufficient with dimensions %s "
                                    "(%llu bytes) for a %u-byte buffer",
                                    i, toString(dims).c_str(),
                                    static_cast<unsigned long long>(bytes), arg.location.length));
    }
    (*outputShapes)[i] = OutputShape{std::move(dims), sufficient};
  }
  if (computed == ANEURALNETWORKS_NO_ERROR && anyInsufficient)
    return garbage("compute succeeded but an output is reported insufficient");
  if (computed == ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE && !anyInsufficient)
    return garbage("compute returned OUTPUT_INSUFFICIENT_SIZE but every output is sufficient");
  return kOk;
}

}  // namespace

const char* firstMissingSlot(const NnApiSLDriverImplFL8& table) {
  const NnApiSLDriverImplFL5& t = table.base;
#define NN_SL_REQUIRE(slot) \
  if (t.slot == nullptr) return #slot;
  NN_SL_REQUIRE(ANeuralNetworks_getDeviceCount)
  NN_SL_REQUIRE(ANeuralNetworks_getDevice)
  NN_SL_REQUIRE(ANeuralNetworksDevice_getName)
  NN_SL_REQUIRE(ANeuralNetworksDevice_getVersion)
  NN_SL_REQUIRE(ANeuralNetworksDevice_getType)
  NN_SL_REQUIRE(ANeuralNetworksDevice_getFeatureLevel)
  NN_SL_REQUIRE(SL_ANeuralNetworksDevice_getPerformanceInfo)
  NN_SL_REQUIRE(SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo)
  NN_SL_REQUIRE(SL_ANeuralNetworksDevice_getVendorExtensionCount)
  NN_SL_REQUIRE(SL_ANeuralNetworksDevice_getVendorExtensionName)
  NN_SL_REQUIRE(SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation)
  NN_SL_REQUIRE(SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded)
  NN_SL_REQUIRE(ANeuralNetworksModel_create)
  NN_SL_REQUIRE(ANeuralNetworksModel_free)
  NN_SL_REQUIRE(ANeuralNetworksModel_addOperand)
  NN_SL_REQUIRE(ANeuralNetworksModel_setOperandValue)
  NN_SL_REQUIRE(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams)
  NN_SL_REQUIRE(ANeuralNetworksModel_setOperandValueFromModel)
  NN_SL_REQUIRE(ANeuralNetworksModel_addOperation)
  NN_SL_REQUIRE(ANeuralNetworksModel_identifyInputsAndOutputs)
  NN_SL_REQUIRE(ANeuralNetworksModel_relaxComputationFloat32toFloat16)
  NN_SL_REQUIRE(ANeuralNetworksModel_finish)
  NN_SL_REQUIRE(ANeuralNetworksModel_getSupportedOperationsForDevices)
  NN_SL_REQUIRE(ANeuralNetworksCompilation_createForDevices)
  NN_SL_REQUIRE(ANeuralNetworksCompilation_setPreference)
  NN_SL_REQUIRE(ANeuralNetworksCompilation_setPriority)
  NN_SL_REQUIRE(ANeuralNetworksCompilation_setTimeout)
  NN_SL_REQUIRE(ANeuralNetworksCompilation_finish)
  NN_SL_REQUIRE(ANeuralNetworksCompilation_free)
  NN_SL_REQUIRE(ANeuralNetworksExecution_create)
  NN_SL_REQUIRE(ANeuralNetworksExecution_free)
  NN_SL_REQUIRE(ANeuralNetworksExecution_setInput)
  NN_SL_REQUIRE(ANeuralNetworksExecution_setOutput)
  NN_SL_REQUIRE(ANeuralNetworksExecution_setLoopTimeout)
  NN_SL_REQUIRE(ANeuralNetworksExecution_setTimeout)
  NN_SL_REQUIRE(ANeuralNetworksExecution_setMeasureTiming)
  NN_SL_REQUIRE(ANeuralNetworksExecution_compute)
  NN_SL_REQUIRE(ANeuralNetworksExecution_getOutputOperandRank)
  NN_SL_REQUIRE(ANeuralNetworksExecution_getOutputOperandDimensions)
  NN_SL_REQUIRE(ANeuralNetworksExecution_getDuration)
#undef NN_SL_REQUIRE
  return nullptr;
}

ErrorStatus errorStatusFromResultCode(int code) {
  switch (code) {
    case ANEURALNETWORKS_NO_ERROR: return ErrorStatus::NONE;
    case ANEURALNETWORKS_BAD_DATA: return ErrorStatus::INVALID_ARGUMENT;
    case ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE: return ErrorStatus::OUTPUT_INSUFFICIENT_SIZE;
    case ANEURALNETWORKS_UNAVAILABLE_DEVICE: return ErrorStatus::DEVICE_UNAVAILABLE;
    case ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT: return ErrorStatus::MISSED_DEADLINE_TRANSIENT;
    case ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT: return ErrorStatus::MISSED_DEADLINE_PERSISTENT;
    case ANEURALNETWORKS_RESOURCE_EXHAUSTED_TRANSIENT: return ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT;
    case ANEURALNETWORKS_RESOURCE_EXHAUSTED_PERSISTENT: return ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT;
    case ANEURALNETWORKS_DEAD_OBJECT: return ErrorStatus::DEAD_OBJECT;
    default: return ErrorStatus::GENERAL_FAILURE;  // OP_FAILED, and codes that make no sense here
  }
}

std::string SlDevice::context() const {
  return "driver " + driver_->path + " device " + name_ + ": ";
}

std::unique_ptr<SlDevice> SlDevice::create(std::shared_ptr<const SlDriver> driver,
                                           ANeuralNetworksDevice* handle, std::string* problem) {
  const NnApiSLDriverImplFL5& t = driver->table.base;
  std::unique_ptr<SlDevice> d(new SlDevice(driver, handle));
  const char* name = nullptr;
  int r = t.ANeuralNetworksDevice_getName(handle, &name);
  if (r != ANEURALNETWORKS_NO_ERROR || name == nullptr || name[0] == '\0' ||
      strnlen(name, 257) > 256) {
    *problem = formatString("getName returned %s with %s", codeName(r),
                            name == nullptr ? "a NULL name" : "an empty or overlong name");
    return nullptr;
  }
  d->name_ = name;
  const char* version = nullptr;
  r = t.ANeuralNetworksDevice_getVersion(handle, &version);
  if (r != ANEURALNETWORKS_NO_ERROR || version == nullptr || strnlen(version, 257) > 256) {
    *problem = formatString("device %s: getVersion returned %s%s", name, codeName(r),
                            version == nullptr ? " with a NULL version" : "");
    return nullptr;
  }
  d->version_ = version;
  r = t.ANeuralNetworksDevice_getType(handle, &d->type_);
  if (r != ANEURALNETWORKS_NO_ERROR || d->type_ < ANEURALNETWORKS_DEVICE_UNKNOWN ||
      d->type_ > ANEURALNETWORKS_DEVICE_ACCELERATOR) {
    *problem = formatString("device %s: getType returned %s, type %d", name, codeName(r),
                            d->type_);
    return nullptr;
  }
  int64_t level = 0;
  r = t.ANeuralNetworksDevice_getFeatureLevel(handle, &level);
  if (r != ANEURALNETWORKS_NO_ERROR || !isValidFeatureLevel(level)) {
    *problem = formatString("device %s: getFeatureLevel returned %s, level %lld (not a "
                            "FeatureLevelCode)",
                            name, codeName(r), static_cast<long long>(level));
    return nullptr;
  }
  // A device cannot offer more than the table it is reached through implements.
  d->featureLevel_ = std::min(level, driver->table.base.base.implFeatureLevel);

  const struct {
    int32_t kind;
    PerformanceInfo Capabilities::*field;
  } kinds[] = {
      {SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_SCALAR,
       &Capabilities::relaxedFloat32toFloat16Scalar},
      {SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_TENSOR,
       &Capabilities::relaxedFloat32toFloat16Tensor},
      {SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_IF, &Capabilities::ifPerformance},
      {SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_WHILE, &Capabilities::whilePerformance},
  };
  for (const auto& k : kinds) {
    SL_ANeuralNetworksPerformanceInfo p{-1.f, -1.f};
    r = t.SL_ANeuralNetworksDevice_getPerformanceInfo(handle, k.kind, &p);
    if (r != ANEURALNETWORKS_NO_ERROR || !isValidPerformance(p)) {
      *problem = formatString("device %s: getPerformanceInfo(%d) returned %s, {%g, %g}", name,
                              k.kind, codeName(r), p.execTime, p.powerUsage);
      return nullptr;
    }
    d->capabilities_.*(k.field) = toPerformance(p);
  }
  struct OperandPerf {
    std::vector<std::pair<int32_t, PerformanceInfo>> entries;
    bool bad = false;
  } perf;
  r = t.SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo(
      handle, &perf, [](SL_ANeuralNetworksOperandPerformanceInfo info, void* context) {
        auto* p = static_cast<OperandPerf*>(context);
        if (p->entries.size() >= 256 || !isValidPerformance(info.performanceInfo)) {
          p->bad = true;
          return;
        }
        p->entries.emplace_back(info.operandType, toPerformance(info.performanceInfo));
      });
  if (r != ANEURALNETWORKS_NO_ERROR || perf.bad) {
    *problem = formatString("device %s: forEachOperandPerformanceInfo returned %s%s", name,
                            codeName(r), perf.bad ? " with invalid or too many entries" : "");
    return nullptr;
  }
  d->capabilities_.operandPerformance = std::move(perf.entries);
  // Operand types the device does not list perform like the CPU (the runtime's default).

  uint32_t extensionCount = UINT32_MAX;
  r = t.SL_ANeuralNetworksDevice_getVendorExtensionCount(handle, &extensionCount);
  if (r != ANEURALNETWORKS_NO_ERROR || extensionCount > kMaxExtensions) {
    *problem = formatString("device %s: getVendorExtensionCount returned %s, count %u", name,
                            codeName(r), extensionCount);
    return nullptr;
  }
  for (uint32_t i = 0; i < extensionCount; ++i) {
    const char* extensionName = nullptr;
    r = t.SL_ANeuralNetworksDevice_getVendorExtensionName(handle, i, &extensionName);
    if (r != ANEURALNETWORKS_NO_ERROR || extensionName == nullptr || extensionName[0] == '\0') {
      *problem = formatString("device %s: getVendorExtensionName(%u) returned %s without a name",
                              name, i, codeName(r));
      return nullptr;
    }
    Extension extension;
    extension.name = extensionName;
    r = t.SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation(
        handle, i, &extension,
        [](SL_ANeuralNetworksExtensionOperandTypeInformation info, void* context) {
          auto* e = static_cast<Extension*>(context);
          if (e->operandTypes.size() < 1024)
            e->operandTypes.push_back({info.type, info.isTensor, info.byteSize});
        });
    if (r != ANEURALNETWORKS_NO_ERROR) {
      *problem = formatString("device %s: forEachVendorExtensionOperandTypeInformation(%u) "
                              "returned %s",
                              name, i, codeName(r));
      return nullptr;
    }
    d->extensions_.push_back(std::move(extension));
  }
  uint32_t modelCache = UINT32_MAX, dataCache = UINT32_MAX;
  r = t.SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded(handle, &modelCache, &dataCache);
  if (r != ANEURALNETWORKS_NO_ERROR || modelCache > kMaxCacheFiles ||
      dataCache > kMaxCacheFiles) {
    *problem = formatString("device %s: getNumberOfCacheFilesNeeded returned %s, %u and %u",
                            name, codeName(r), modelCache, dataCache);
    return nullptr;
  }
  d->modelCacheFiles_ = modelCache;
  d->dataCacheFiles_ = dataCache;
  return d;
}

Status SlDevice::getSupportedOperations(const Model& model, std::vector<bool>* supported,
                                        std::vector<std::string>* reasons) const {
  const size_t count = model.main.operations.size();
  supported->assign(count, false);
  if (reasons) reasons->assign(count, std::string());
  auto explainAll = [&](const std::string& why) {
    if (reasons)
      for (size_t i = 0; i < count; ++i)
        (*reasons)[i] = formatString("%s (operation #%zu): %s",
                                     operationName(model.main.operations[i].type).c_str(), i,
                                     why.c_str());
  };
  // A model the driver cannot even build is one it supports no operation of.
  SlModelReplay replay(*this, model);
  Status built = replay.build();
  if (!built.ok()) {
    logInfo("%s", built.message().c_str());
    explainAll(built.message());
    return kOk;
  }
  std::unique_ptr<bool[]> flags(new bool[count > 0 ? count : 1]());
  const ANeuralNetworksDevice* devices[] = {handle_};
  const int r = driver_->table.base.ANeuralNetworksModel_getSupportedOperationsForDevices(
      replay.main(), devices, 1, flags.get());
  if (r != ANEURALNETWORKS_NO_ERROR) {
    explainAll(context() + "ANeuralNetworksModel_getSupportedOperationsForDevices returned " +
               codeName(r));
    return kOk;
  }
  for (size_t i = 0; i < count; ++i) {
    (*supported)[i] = flags[i];
    if (!flags[i] && reasons)
      (*reasons)[i] = formatString("%s (operation #%zu): not supported by %s(its own answer)",
                                   operationName(model.main.operations[i].type).c_str(), i,
                                   context().c_str());
  }
  return kOk;
}

void SlDevice::passCaching(ANeuralNetworksCompilation* compilation,
                           const PrepareOptions& options) const {
  // The plugin caches as it likes in what it is given; a refusal only costs the cache.
  const NnApiSLDriverImplFL5& t = driver_->table.base;
  if (!options.modelCacheFds.empty() || !options.dataCacheFds.empty()) {
    if (t.SL_ANeuralNetworksCompilation_setCachingFromFds == nullptr) {
      logInfo("%sno SL_ANeuralNetworksCompilation_setCachingFromFds; compiling uncached",
              context().c_str());
      return;
    }
    // Never NULL arrays, even empty ones: a strict plugin may check the pointers alone.
    static const int kNoFd = -1;
    auto fds = [](const std::vector<int>& v) { return v.empty() ? &kNoFd : v.data(); };
    const int r = t.SL_ANeuralNetworksCompilation_setCachingFromFds(
        compilation, fds(options.modelCacheFds),
        static_cast<uint32_t>(options.modelCacheFds.size()), fds(options.dataCacheFds),
        static_cast<uint32_t>(options.dataCacheFds.size()), options.cacheToken.data());
    if (r != ANEURALNETWORKS_NO_ERROR)
      logInfo("%sSL_ANeuralNetworksCompilation_setCachingFromFds returned %s; compiling uncached",
              context().c_str(), codeName(r));
    return;
  }
  if (options.cacheDir.empty()) return;
  if (t.ANeuralNetworksCompilation_setCaching == nullptr) {
    logInfo("%sno ANeuralNetworksCompilation_setCaching; compiling uncached", context().c_str());
    return;
  }
  const int r = t.ANeuralNetworksCompilation_setCaching(compilation, options.cacheDir.c_str(),
                                                        options.cacheToken.data());
  if (r != ANEURALNETWORKS_NO_ERROR)
    logInfo("%sANeuralNetworksCompilation_setCaching(%s) returned %s; compiling uncached",
            context().c_str(), options.cacheDir.c_str(), codeName(r));
}

Status SlDevice::prepareModel(const std::shared_ptr<const Model>& model,
                              const PrepareOptions& options,
                              std::shared_ptr<PreparedModel>* prepared) const {
  const NnApiSLDriverImplFL5& t = driver_->table.base;
  if (options.deadlineNs != 0 && options.deadlineNs != UINT64_MAX &&
      nowNs() >= options.deadlineNs)
    return Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                  context() + "the deadline passed before the compilation started");
  auto replay = std::make_unique<SlModelReplay>(*this, *model);
  Status built = replay->build();
  if (!built.ok()) return built;

  ANeuralNetworksCompilation* compilation = nullptr;
  const ANeuralNetworksDevice* devices[] = {handle_};
  auto fail = [&](const char* call, int code) {
    if (compilation != nullptr) t.ANeuralNetworksCompilation_free(compilation);
    std::string message = formatString("%s%s returned %s", context().c_str(), call,
                                       codeName(code));
    logInfo("%s", message.c_str());
    return Status(errorStatusFromResultCode(code == 0 ? ANEURALNETWORKS_OP_FAILED : code),
                  std::move(message));
  };
  int r = t.ANeuralNetworksCompilation_createForDevices(replay->main(), devices, 1,
                                                        &compilation);
  if (r != ANEURALNETWORKS_NO_ERROR || compilation == nullptr)
    return fail("ANeuralNetworksCompilation_createForDevices", r);
  if ((r = t.ANeuralNetworksCompilation_setPreference(compilation, options.preference)) !=
      ANEURALNETWORKS_NO_ERROR)
    return fail("ANeuralNetworksCompilation_setPreference", r);
  if ((r = t.ANeuralNetworksCompilation_setPriority(compilation, options.priority)) !=
      ANEURALNETWORKS_NO_ERROR)
    return fail("ANeuralNetworksCompilation_setPriority", r);
  if (options.deadlineNs != 0 && options.deadlineNs != UINT64_MAX) {
    const uint64_t now = nowNs();
    if (now >= options.deadlineNs) {
      t.ANeuralNetworksCompilation_free(compilation);
      return Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                    context() + "the deadline passed before the compilation started");
    }
    if ((r = t.ANeuralNetworksCompilation_setTimeout(compilation, options.deadlineNs - now)) !=
        ANEURALNETWORKS_NO_ERROR)
      return fail("ANeuralNetworksCompilation_setTimeout", r);
  }
  passCaching(compilation, options);
  if (!options.extensionAttributes.empty()) {
    const auto add = driver_->table.ANeuralNetworksCompilation_addExtensionAttribute;
    if (add == nullptr) {
      t.ANeuralNetworksCompilation_free(compilation);
      return Status(ErrorStatus::INVALID_ARGUMENT,
                    context() + "the compilation has extension attributes but the plugin's "
                                "table is older than feature level 8 (no "
                                "ANeuralNetworksCompilation_addExtensionAttribute)");
    }
    for (const ExtensionAttribute& a : options.extensionAttributes) {
      if ((r = add(compilation, a.extension.c_str(), a.code,
                   a.data.empty() ? nullptr : a.data.data(), a.data.size())) !=
          ANEURALNETWORKS_NO_ERROR)
        return fail("ANeuralNetworksCompilation_addExtensionAttribute", r);
    }
  }
  if ((r = t.ANeuralNetworksCompilation_finish(compilation)) != ANEURALNETWORKS_NO_ERROR)
    return fail("ANeuralNetworksCompilation_finish", r);
  *prepared = std::make_shared<SlPreparedModel>(*this, model, std::move(replay), compilation);
  return kOk;
}

}  // namespace nn
