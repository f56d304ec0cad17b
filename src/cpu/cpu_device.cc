#include "cpu/cpu_device.h"
#include "hal/builtin_drivers.h"

#include <android/NeuralNetworks.h>

#include <cstdlib>

#include "cpu/prepared_model.h"
#include "hal/log.h"
#include "cpu/kernel.h"

namespace nn {
namespace {

// NNAPI_CPU_CLAIM_FEATURE_LEVEL lets developers run the conformance vectors of a level the
// driver does not claim yet (e.g. 30); the default is the honest kCpuDeviceFeatureLevel.
int64_t claimedFeatureLevel() {
  static const int64_t level = [] {
    const char* v = getenv("NNAPI_CPU_CLAIM_FEATURE_LEVEL");
    const long long n = v ? atoll(v) : 0;
    return n >= kFeatureLevel1 ? static_cast<int64_t>(n) : kCpuDeviceFeatureLevel;
  }();
  return level;
}

class CpuDevice : public Device {
 public:
  CpuDevice(std::string name, bool reference) : name_(std::move(name)), reference_(reference) {}

  const std::string& name() const override { return name_; }
  const std::string& version() const override { return version_; }
  int32_t type() const override { return ANEURALNETWORKS_DEVICE_CPU; }
  int64_t featureLevel() const override { return claimedFeatureLevel(); }
  // The CPU is the unit of the performance scale. The reference device runs the simple
  // kernels, several times slower, so automatic device choice never prefers it; it is
  // used when named in createForDevices.
  Capabilities capabilities() const override {
    Capabilities c;
    if (reference_) {
      const PerformanceInfo slow{4.0f, 4.0f};
      c.relaxedFloat32toFloat16Scalar = c.relaxedFloat32toFloat16Tensor = slow;
      c.ifPerformance = c.whilePerformance = c.otherOperands = slow;
    }
    return c;
  }

  // The runtime validated the model through the catalog at ANeuralNetworksModel_finish, so
  // support is a matter of having a kernel: every signature the catalog accepts, this driver
  // computes.
  Status getSupportedOperations(const Model& model, std::vector<bool>* supported,
                                std::vector<std::string>* reasons) const override {
    const Subgraph& sg = model.main;
    supported->assign(sg.operations.size(), false);
    if (reasons) reasons->assign(sg.operations.size(), std::string());
    for (uint32_t i = 0; i < sg.operations.size(); ++i) {
      const Operation& op = sg.operations[i];
      if (findCpuKernel(op.type) != nullptr) {
        (*supported)[i] = true;
      } else if (reasons) {
        // Vendor extension operations included: this driver declares no extension.
        (*reasons)[i] = formatString("%s (operation #%u): not implemented by the CPU driver",
                                     operationName(op.type).c_str(), i);
      }
    }
    return kOk;
  }

  Status prepareModel(const std::shared_ptr<const Model>& model, const PrepareOptions& options,
                      std::shared_ptr<PreparedModel>* prepared) const override {
    return CpuPreparedModel::create(model, reference_, options.cpuThreads, prepared);
  }

 private:
  std::string name_;
  std::string version_ = "0.1.0";
  bool reference_;
};

}  // namespace

const Device* cpuDevice() {
  static const CpuDevice device("nnapi-cpu", false);
  return &device;
}

const Device* cpuReferenceDevice() {
  static const CpuDevice device("nnapi-cpu-reference", true);
  return &device;
}

}  // namespace nn

namespace nn {

std::vector<const Device*> builtinDevices() { return {cpuDevice(), cpuReferenceDevice()}; }

}  // namespace nn
