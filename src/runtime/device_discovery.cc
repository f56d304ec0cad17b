#include "runtime/device_discovery.h"

#include "hal/builtin_drivers.h"
#include "runtime/plugin_loader.h"

namespace nn {

DiscoveredDevices discoverDevices() {
  DiscoveredDevices out;
  out.devices = builtinDevices();
  std::vector<std::string> names;
  for (const Device* d : out.devices) names.push_back(d->name());
  PluginDevices plugins = loadDriverPlugins(names);
  out.devices.insert(out.devices.end(), plugins.devices.begin(), plugins.devices.end());
  out.loadProblems = std::move(plugins.problems);
  return out;
}

}  // namespace nn
