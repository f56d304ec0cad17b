// A device provided by an NNAPI Support Library (SL) plugin: every call goes through the
// plugin's function table (include/android/NeuralNetworksSupportLibraryImpl.h), and every
// value it hands back is checked, because the plugin is code we do not control.
#pragma once

#include <android/NeuralNetworksSupportLibraryImpl.h>

#include <memory>
#include <string>
#include <vector>

#include "hal/device.h"

namespace nn {

// One loaded SL: its path and a private copy of its table (so a plugin cannot change the
// pointers under us). Tables older than feature level 8 leave the FL8-only slots NULL.
struct SlDriver {
  std::string path;
  NnApiSLDriverImplFL8 table{};
};

// The table slots the runtime calls: NULL when every one is set, else the first missing
// slot's name (the plugin is then skipped with that name as the reason).
const char* firstMissingSlot(const NnApiSLDriverImplFL8& table);

// Maps an SL result code to the driver-interface status.
ErrorStatus errorStatusFromResultCode(int code);

class SlDevice : public Device {
 public:
  // Queries and validates everything the device reports once. On garbage returns null and
  // sets *problem to the reason. The feature level is capped at the table's implFeatureLevel.
  static std::unique_ptr<SlDevice> create(std::shared_ptr<const SlDriver> driver,
                                          ANeuralNetworksDevice* handle,
                                          std::string* problem);

  const std::string& name() const override { return name_; }
  const std::string& version() const override { return version_; }
  int32_t type() const override { return type_; }
  int64_t featureLevel() const override { return featureLevel_; }
  Capabilities capabilities() const override { return capabilities_; }
  const std::vector<Extension>& extensions() const override { return extensions_; }
  std::string origin() const override { return driver_->path; }
  void numberOfCacheFilesNeeded(uint32_t* modelCache, uint32_t* dataCache) const override {
    *modelCache = modelCacheFiles_;
    *dataCache = dataCacheFiles_;
  }
  Status getSupportedOperations(const Model& model, std::vector<bool>* supported,
                                std::vector<std::string>* reasons) const override;
  Status prepareModel(const std::shared_ptr<const Model>& model, const PrepareOptions& options,
                      std::shared_ptr<PreparedModel>* prepared) const override;

  const SlDriver& driver() const { return *driver_; }
  ANeuralNetworksDevice* handle() const { return handle_; }
  // "driver <path> device <name>: " — the prefix of every message about this device.
  std::string context() const;

 private:
  SlDevice(std::shared_ptr<const SlDriver> driver, ANeuralNetworksDevice* handle)
      : driver_(std::move(driver)), handle_(handle) {}
  // Hands the cache directory or fds of `options` to the plugin's compilation.
  void passCaching(ANeuralNetworksCompilation* compilation, const PrepareOptions& options) const;

  std::shared_ptr<const SlDriver> driver_;
  ANeuralNetworksDevice* handle_;
  std::string name_;
  std::string version_;
  int32_t type_ = 0;
  int64_t featureLevel_ = 0;
  Capabilities capabilities_;
  std::vector<Extension> extensions_;
  uint32_t modelCacheFiles_ = 0;
  uint32_t dataCacheFiles_ = 0;
};

}  // namespace nn
