#include "runtime/device_manager.h"

#include <algorithm>

#include "runtime/device_discovery.h"

namespace nn {

namespace {

// Built once, at first use (a function-local static: thread-safe initialization), and never
// changed: device pointers and the lists stay valid for the process lifetime.
struct DeviceList {
  DiscoveredDevices discovered = discoverDevices();
  // Device::origin() returns by value; the C API hands out pointers, so keep one copy each.
  std::vector<std::string> origins = originsOf(discovered.devices);

  static std::vector<std::string> originsOf(const std::vector<const Device*>& devices) {
    std::vector<std::string> out;
    for (const Device* d : devices) out.push_back(d->origin());
    return out;
  }
};

const DeviceList& deviceList() {
  static const DeviceList list;
  return list;
}
const DiscoveredDevices& discovered() { return deviceList().discovered; }

}  // namespace

const std::vector<const Device*>& allDevices() { return discovered().devices; }

const std::vector<std::string>& driverLoadProblems() { return discovered().loadProblems; }

const std::string* deviceOrigin(const Device* device) {
  const auto& d = allDevices();
  const auto it = std::find(d.begin(), d.end(), device);
  if (it == d.end()) return nullptr;
  return &deviceList().origins[it - d.begin()];
}

bool isKnownDevice(const Device* device) {
  const auto& d = allDevices();
  return std::find(d.begin(), d.end(), device) != d.end();
}

int64_t runtimeFeatureLevel() {
  int64_t level = kFeatureLevel1;
  // The runtime's own level: plugin devices report theirs, but add no API to this library.
  for (const Device* d : allDevices())
    if (d->origin() == "built-in") level = std::max(level, d->featureLevel());
  // FL8 adds API only (Compilation_/Execution_addExtensionAttribute, implemented by the
  // runtime and passed to drivers), no operation or operand type: built-in devices that
  // run every FL7 operation make an FL8 runtime. Devices keep reporting their own level.
  if (level >= kFeatureLevel7) level = kFeatureLevel8;
  return level;
}

}  // namespace nn
