// C entry points of the diagnostics extension about driver plugins: where each device comes
// from, and why configured plugins or devices were skipped (docs/drivers.md).
#include <android/NeuralNetworksDiagnostics.h>

#include "runtime/api_util.h"
#include "runtime/device_manager.h"

using namespace nn;

extern "C" {

int ANNLinux_Device_getOrigin(const ANeuralNetworksDevice* device, const char** origin) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANNLinux_Device_getOrigin";
    NN_API_CHECK_NULL(fn, device);
    NN_API_CHECK_NULL(fn, origin);
    const std::string* o = deviceOrigin(fromHandle(device));
    if (o == nullptr)
      return apiError(ANEURALNETWORKS_BAD_DATA, "%s: not a device handle of this runtime", fn);
    *origin = o->c_str();
    return apiOk();
  });
}

uint32_t ANNLinux_getDriverLoadProblemCount(void) {
  return static_cast<uint32_t>(driverLoadProblems().size());
}

const char* ANNLinux_getDriverLoadProblem(uint32_t index) {
  const auto& problems = driverLoadProblems();
  return index < problems.size() ? problems[index].c_str() : nullptr;
}

}  // extern "C"
