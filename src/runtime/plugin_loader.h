// Loads the NNAPI Support Library (SL) driver plugins named by the environment and the
// drivers directory (docs/drivers.md) and turns each device they report into a runtime
// device. Everything a plugin returns is checked; a bad plugin or device is skipped and the
// reason kept as a "load problem" (ANNLinux_getDriverLoadProblem, `nnapi devices`).
#pragma once

#include <string>
#include <vector>

#include "hal/device.h"

namespace nn {

struct PluginDevices {
  // Owned by a registry that lives (like the loaded libraries) until the process ends.
  std::vector<const Device*> devices;
  std::vector<std::string> problems;
};

// Loads every configured plugin once per call; `takenNames` are the names of devices that
// already exist (a plugin device with one of them is skipped). Called once per process by
// device discovery.
PluginDevices loadDriverPlugins(const std::vector<std::string>& takenNames);

// The plugin paths to load, in order: $NNAPI_DRIVERS (colon-separated), then each *.conf
// file (sorted by name) of $NNAPI_DRIVER_DIR, else of /etc/nnapi/drivers.d/ when that
// directory is trusted (owned by root, not writable by group or others, nor its files).
std::vector<std::string> configuredDriverPaths(std::vector<std::string>* problems);

// One path per non-empty line of a .conf file's text; '#' starts a comment; blanks trimmed.
std::vector<std::string> parseDriverConf(const std::string& text);

}  // namespace nn
