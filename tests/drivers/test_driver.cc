// The in-tree test drivers: real NNAPI Support Library plugins (docs/drivers.md) built from
// this one file, each a whole copy of the runtime exposing one device that wraps a built-in
// CPU device. Compiled twice:
//   NNAPI_TEST_DRIVER_PARTIAL -> libnnapi_test_partial.so, device "test-partial": claims a
//     configurable subset of operations and refuses to prepare anything else, so it proves a
//     partitioner hands it only its own operations.
//   NNAPI_TEST_DRIVER_FAULTY  -> libnnapi_test_faulty.so, device "test-faulty": supports
//     everything, and misbehaves as $NNAPI_TEST_DRIVER_FAULT says (read at every call); and
//     device "test-extension", which declares the vendor extension "com.example.nnapi_test"
//     and runs only that extension's operation (test_extension_device.h).
// This file replaces src/runtime/device_discovery.cc in the plugin: the plugin's device list
// is its device(s), so a plugin never loads plugins itself.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "cpu/cpu_device.h"
#include "hal/cache_file.h"
#include "hal/sha256.h"
#include "runtime/device_discovery.h"
#if defined(NNAPI_TEST_DRIVER_FAULTY)
#include "test_extension_device.h"
#endif

namespace nn {
namespace {

// Only the faulty driver's slow mode uses it.
[[maybe_unused]] uint64_t nowNs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

std::string env(const char* name, const char* fallback) {
  const char* v = getenv(name);
  return v != nullptr ? v : fallback;
}

// Forwards everything to a built-in CPU device.
class WrappingDevice : public Device {
 public:
  WrappingDevice(std::string name, const Device* inner) : name_(std::move(name)), inner_(inner) {}
  const std::string& name() const override { return name_; }
  const std::string& version() const override { return version_; }
  int32_t type() const override { return 4; }  // ANEURALNETWORKS_DEVICE_ACCELERATOR
  int64_t featureLevel() const override { return inner_->featureLevel(); }
  Status getSupportedOperations(const Model& model, std::vector<bool>* supported,
                                std::vector<std::string>* reasons) const override {
    return inner_->getSupportedOperations(model, supported, reasons);
  }
  Status prepareModel(const std::shared_ptr<const Model>& model, const PrepareOptions& options,
                      std::shared_ptr<PreparedModel>* prepared) const override {
    return inner_->prepareModel(model, options, prepared);
  }

 protected:
  std::string name_;
  std::string version_ = "test-1";
  const Device* inner_;
};

#if defined(NNAPI_TEST_DRIVER_PARTIAL)

// FNV-1a over the bytes of a value.
struct Hash {
  uint64_t h = 1469598103934665603ull;
  template <typename T>
  void add(const T& v) {
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    for (size_t i = 0; i < sizeof(T); ++i) h = (h ^ p[i]) * 1099511628211ull;
  }
};

class PartialDevice : public WrappingDevice {
 public:
  PartialDevice() : WrappingDevice("test-partial", cpuReferenceDevice()) {}

  Capabilities capabilities() const override {
    // Faster than the CPU (1.0) at everything, so it wins every operation it claims.
    const PerformanceInfo half{0.5f, 0.5f};
    Capabilities c;
    c.relaxedFloat32toFloat16Scalar = c.relaxedFloat32toFloat16Tensor = half;
    c.ifPerformance = c.whilePerformance = c.otherOperands = half;
    for (int32_t type = 0; type <= 14; ++type) c.operandPerformance.emplace_back(type, half);
    return c;
  }

  Status getSupportedOperations(const Model& model, std::vector<bool>* supported,
                                std::vector<std::string>* reasons) const override {
    Status s = inner_->getSupportedOperations(model, supported, reasons);
    if (!s.ok()) return s;
    for (size_t i = 0; i < model.main.operations.size(); ++i) {
      if ((*supported)[i] && !claims(model, model.main, model.main.operations[i], 0)) {
        (*supported)[i] = false;
        if (reasons)
          (*reasons)[i] = formatString("%s (operation #%zu): not claimed by test-partial",
                                       toString(model.main.operations[i].type), i);
      }
    }
    return kOk;
  }

  // One model cache file (the SL fds path gets exactly one), no data cache file.
  void numberOfCacheFilesNeeded(uint32_t* modelCache, uint32_t* dataCache) const override {
    *modelCache = 1;
    *dataCache = 0;
  }

  Status prepareModel(const std::shared_ptr<const Model>& model, const PrepareOptions& options,
                      std::shared_ptr<PreparedModel>* prepared) const override {
    const std::vector<uint8_t> decisions = supportDecisions(*model, options);
    for (size_t i = 0; i < model->main.operations.size(); ++i) {
      if (!decisions[i])
        return makeError(ErrorStatus::INVALID_ARGUMENT,
                         "test-partial: operation #%zu (%s) is not one this driver claims "
                         "(NNAPI_TEST_DRIVER_OPS / _SEED / _FRACTION); it must not be sent here",
                         i, toString(model->main.operations[i].type));
    }
    return inner_->prepareModel(model, options, prepared);
  }

 private:
  // ---- Compilation caching (docs/drivers.md): the per-operation support decisions are cached
  // through the hal/cache_file.h container, keyed by a hash of everything they depend on.
  // Each prepare appends one line to $NNAPI_TEST_DRIVER_CACHE_LOG (test-only, when set):
  // "none", "hit", "miss <reason>", then "written" or "write-failed <reason>" after a miss.
  static void cacheLog(const std::string& line) {
    const std::string path = env("NNAPI_TEST_DRIVER_CACHE_LOG", "");
    if (path.empty()) return;
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) return;
    const std::string text = line + "\n";
    (void)!write(fd, text.data(), text.size());
    close(fd);
  }

  // What the decisions depend on: the claiming environment and each operation's type and
  // operand types/shapes (claimsByContent), including referenced subgraphs (claims).
  static std::array<uint8_t, 32> decisionKey(const Model& model) {
    Sha256 h;
    for (const char* name : {"NNAPI_TEST_DRIVER_OPS", "NNAPI_TEST_DRIVER_SEED",
                             "NNAPI_TEST_DRIVER_FRACTION"}) {
      const std::string v = env(name, "\x01unset");
      h.update(v.data(), v.size() + 1);
    }
    auto addSubgraph = [&](const Subgraph& sg) {
      h.updateValue(sg.operands.size());
      for (const Operand& o : sg.operands) {
        h.updateValue(o.type);
        h.updateValue(o.lifetime);
        h.updateValue(o.location.offset);
        h.updateValue(o.dimensions.size());
        for (uint32_t d : o.dimensions) h.updateValue(d);
      }
      h.updateValue(sg.operations.size());
      for (const Operation& op : sg.operations) {
        h.updateValue(op.type);
        h.updateValue(op.inputs.size());
        for (uint32_t i : op.inputs) h.updateValue(i);
        h.updateValue(op.outputs.size());
        for (uint32_t i : op.outputs) h.updateValue(i);
      }
    };
    addSubgraph(model.main);
    for (const Subgraph& sg : model.referenced) addSubgraph(sg);
    return h.finish();
  }

  std::vector<uint8_t> supportDecisions(const Model& model, const PrepareOptions& options) const {
    const size_t count = model.main.operations.size();
    const CacheKey key{name_, options.cacheToken};
    const auto modelKey = decisionKey(model);
    const bool viaFd = !options.modelCacheFds.empty();
    const std::string path =
        options.cacheDir.empty() ? "" : cacheFilePath(options.cacheDir, options.cacheToken, ".decisions");
    if (!viaFd && path.empty()) {
      cacheLog("none");
    } else {
      // Payload: the 32-byte decision key, then one byte (0/1) per operation.
      Result<std::vector<uint8_t>> payload = viaFd ? readCacheFd(options.modelCacheFds[0], key)
                                                   : readCacheFile(path, key);
      std::string reason;
      if (!payload.ok()) {
        reason = payload.status().message();
      } else if (payload->size() != 32 + count) {
        reason = formatString("payload of %zu bytes for %zu operations", payload->size(), count);
      } else if (std::memcmp(payload->data(), modelKey.data(), 32) != 0) {
        reason = "another model or claiming environment";
      } else {
        bool valid = true;
        for (size_t i = 0; i < count; ++i) valid = valid && (*payload)[32 + i] <= 1;
        if (valid) {
          cacheLog(viaFd ? "hit fd" : "hit");
          return std::vector<uint8_t>(payload->begin() + 32, payload->end());
        }
        reason = "a decision byte is neither 0 nor 1";
      }
      cacheLog("miss " + reason);
    }
    std::vector<uint8_t> decisions(count);
    for (size_t i = 0; i < count; ++i)
      decisions[i] = claims(model, model.main, model.main.operations[i], 0) ? 1 : 0;
    if (viaFd || !path.empty()) {
      std::vector<uint8_t> payload(modelKey.begin(), modelKey.end());
      payload.insert(payload.end(), decisions.begin(), decisions.end());
      Status s = viaFd ? writeCacheFd(options.modelCacheFds[0], key, payload.data(), payload.size())
                       : writeCacheFile(path, key, payload.data(), payload.size());
      cacheLog(s.ok() ? "written" : "write-failed " + s.message());
    }
    return decisions;
  }

  // By content, not by index: an operation keeps its answer inside a sub-model cut out of
  // the model by a partitioner.
  static bool claimsByContent(const Subgraph& sg, const Operation& op) {
    const std::string list = env("NNAPI_TEST_DRIVER_OPS", "");
    if (!list.empty()) {
      const std::string name = toString(op.type);
      size_t start = 0;
      while (start <= list.size()) {
        size_t end = list.find(',', start);
        if (end == std::string::npos) end = list.size();
        if (list.compare(start, end - start, name) == 0) return true;
        start = end + 1;
      }
      return false;
    }
    Hash hash;
    hash.add(static_cast<uint64_t>(strtoull(env("NNAPI_TEST_DRIVER_SEED", "1").c_str(),
                                            nullptr, 10)));
    hash.add(op.type);
    hash.add(op.inputs.size());
    auto addOperand = [&](uint32_t index) {
      if (index >= sg.operands.size()) return;
      const Operand& o = sg.operands[index];
      hash.add(o.type);
      hash.add(o.dimensions.size());
      for (uint32_t d : o.dimensions) hash.add(d);
    };
    for (uint32_t i : op.inputs) addOperand(i);
    for (uint32_t i : op.outputs) addOperand(i);
    const double fraction = strtod(env("NNAPI_TEST_DRIVER_FRACTION", "0.5").c_str(), nullptr);
    return static_cast<double>(hash.h % 1000000) / 1000000.0 < fraction;
  }

  // IF and WHILE also need every operation of the subgraphs they run.
  static bool claims(const Model& model, const Subgraph& sg, const Operation& op, int depth) {
    if (!claimsByContent(sg, op) || depth > 32) return false;
    for (uint32_t i : op.inputs) {
      if (i >= sg.operands.size() || sg.operands[i].lifetime != Lifetime::SUBGRAPH) continue;
      const uint32_t ref = sg.operands[i].location.offset;
      if (ref >= model.referenced.size()) return false;
      for (const Operation& inner : model.referenced[ref].operations)
        if (!claims(model, model.referenced[ref], inner, depth + 1)) return false;
    }
    return true;
  }
};

const Device* testDevice() {
  static const PartialDevice device;
  return &device;
}

#elif defined(NNAPI_TEST_DRIVER_FAULTY)

std::string fault() { return env("NNAPI_TEST_DRIVER_FAULT", "none"); }

class FaultyPreparedModel : public PreparedModel {
 public:
  explicit FaultyPreparedModel(std::shared_ptr<PreparedModel> inner) : inner_(std::move(inner)) {}
  std::unique_ptr<ExecutionState> createExecutionState() const override {
    return inner_->createExecutionState();
  }
  void recycleExecutionState(std::unique_ptr<ExecutionState> state) const override {
    inner_->recycleExecutionState(std::move(state));
  }
  Status execute(const Request& request, const ExecuteOptions& options, ExecutionState* state,
                 std::vector<OutputShape>* outputShapes, Timing* timing) const override {
    const std::string f = fault();
    if (f == "execute")
      return Status(ErrorStatus::GENERAL_FAILURE,
                    "test-faulty: injected execute fault (NNAPI_TEST_DRIVER_FAULT=execute)");
    if (f == "exit") {
      // A driver that takes its process down (what a sanitizer report does): the CTS runner
      // must still say why its worker died (tests/cts/worker_death.sh).
      fprintf(stderr, "test-faulty: exiting the process on purpose (NNAPI_TEST_DRIVER_FAULT=exit)\n");
      fflush(stderr);
      _exit(1);
    }
    if (f.compare(0, 5, "slow:") == 0) {
      const uint64_t until = nowNs() + strtoull(f.c_str() + 5, nullptr, 10) * 1000000ull;
      while (nowNs() < until) {
        if (options.deadlineNs != 0 && nowNs() >= options.deadlineNs)
          return Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                        "test-faulty: the deadline passed while computing slowly");
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
    Status s = inner_->execute(request, options, state, outputShapes, timing);
    if (s.ok() && f == "wrong_sizes")
      for (OutputShape& shape : *outputShapes) shape.dimensions.push_back(3);
    return s;
  }

 private:
  std::shared_ptr<PreparedModel> inner_;
};

class FaultyDevice : public WrappingDevice {
 public:
  FaultyDevice() : WrappingDevice("test-faulty", cpuDevice()) {}
  const std::string& name() const override {
    // The SL interface cannot carry a NULL name from a C++ device; an empty one is the same
    // garbage to the loader (it must skip the device).
    static const std::string empty;
    return fault() == "null_name" ? empty : name_;
  }
  int64_t featureLevel() const override {
    return fault() == "garbage_level" ? 12345 : inner_->featureLevel();
  }
  Status prepareModel(const std::shared_ptr<const Model>& model, const PrepareOptions& options,
                      std::shared_ptr<PreparedModel>* prepared) const override {
    if (fault() == "prepare")
      return Status(ErrorStatus::GENERAL_FAILURE,
                    "test-faulty: injected prepare fault (NNAPI_TEST_DRIVER_FAULT=prepare)");
    std::shared_ptr<PreparedModel> inner;
    Status s = inner_->prepareModel(model, options, &inner);
    if (!s.ok()) return s;
    *prepared = std::make_shared<FaultyPreparedModel>(std::move(inner));
    return kOk;
  }
};

const Device* testDevice() {
  static const FaultyDevice device;
  return &device;
}

#else
#error "define NNAPI_TEST_DRIVER_PARTIAL or NNAPI_TEST_DRIVER_FAULTY"
#endif

}  // namespace

DiscoveredDevices discoverDevices() {
  DiscoveredDevices out;
  out.devices.push_back(testDevice());
#if defined(NNAPI_TEST_DRIVER_FAULTY)
  out.devices.push_back(testExtensionDevice());
#endif
  return out;
}

}  // namespace nn
