// Compilation caching, runtime side (docs/drivers.md "Compilation caching"): from the
// directory and token of ANeuralNetworksCompilation_setCaching, each device gets a directory
// of its own, and each partition step a token of its own. The files themselves are the
// drivers' business (hal/cache_file.h).
#pragma once

#include <cstddef>
#include <string>

#include "hal/cache_file.h"
#include "hal/device.h"

namespace nn {

// `<cacheDir>/<sanitized device name>-<16 hex digits of SHA-256(name, version)>`, created 0700
// when missing. Empty (with the reason logged) when cacheDir is missing, not a directory or
// not writable, or the device directory cannot be made: the compilation then goes on uncached.
// The version is part of the name, so a driver update starts from an empty directory.
std::string deviceCacheDirectory(const std::string& cacheDir, const Device& device);

// The token of partition step `step` on `deviceName`: a hash of the compilation token, the step
// and the device, so steps of one compilation never read each other's files.
CacheToken stepCacheToken(const CacheToken& token, size_t step, const std::string& deviceName);

}  // namespace nn
