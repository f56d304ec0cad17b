#include "runtime/plugin_loader.h"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include "hal/log.h"
#include "runtime/sl_device.h"

namespace nn {

namespace {

constexpr const char* kDefaultDriverDir = "/etc/nnapi/drivers.d";
// More devices than this from one library is garbage (a count read from an uninitialized
// variable, say), not hardware.
constexpr uint32_t kMaxDevicesPerPlugin = 64;
constexpr size_t kMaxConfBytes = 64 * 1024;

// The devices of accepted plugins. Never destroyed: the libraries are never unloaded either,
// and compilations or executions still alive during static destruction may reach them.
std::vector<std::unique_ptr<SlDevice>>& registry() {
  static auto* devices = new std::vector<std::unique_ptr<SlDevice>>();
  return *devices;
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// Root-owned and writable by root alone: otherwise any user could make every NNAPI client
// on the machine load their code.
bool isTrusted(const struct stat& st) {
  return st.st_uid == 0 && (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

void readConfDirectory(const std::string& dir, bool requireTrust, std::vector<std::string>* paths,
                       std::vector<std::string>* problems) {
  struct stat st;
  if (stat(dir.c_str(), &st) != 0) {
    // A missing default directory is the normal case (no drivers installed).
    if (!requireTrust) problems->push_back(dir + ": cannot read the drivers directory: " + strerror(errno));
    return;
  }
  if (requireTrust && !isTrusted(st)) {
    problems->push_back(dir + ": skipped: not owned by root or writable by group/others");
    return;
  }
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) {
    problems->push_back(dir + ": cannot open the drivers directory: " + strerror(errno));
    return;
  }
  std::vector<std::string> confs;
  while (const dirent* entry = readdir(d)) {
    const std::string name = entry->d_name;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".conf") == 0) confs.push_back(name);
  }
  closedir(d);
  std::sort(confs.begin(), confs.end());
  for (const std::string& name : confs) {
    const std::string file = dir + "/" + name;
    struct stat fst;
    if (stat(file.c_str(), &fst) != 0 || !S_ISREG(fst.st_mode)) {
      problems->push_back(file + ": not a regular file");
      continue;
    }
    if (requireTrust && !isTrusted(fst)) {
      problems->push_back(file + ": skipped: not owned by root or writable by group/others");
      continue;
    }
    if (static_cast<size_t>(fst.st_size) > kMaxConfBytes) {
      problems->push_back(file + ": skipped: larger than 64 KiB");
      continue;
    }
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
      problems->push_back(file + ": cannot be read");
      continue;
    }
    for (const std::string& path : parseDriverConf(text.str())) paths->push_back(path);
  }
}

void problem(std::vector<std::string>* problems, const std::string& path, const std::string& why) {
  std::string message = path + ": " + why;
  logInfo("driver plugin %s", message.c_str());
  problems->push_back(std::move(message));
}

// Loads one library; appends its accepted devices to the registry and `out`.
void loadPlugin(const std::string& path, std::vector<std::string>* names, PluginDevices* out) {
  // RTLD_LOCAL: the plugin's symbols never satisfy anyone else's references (it may carry a
  // whole NNAPI runtime of its own). RTLD_NODELETE: a plugin is never unmapped, even when we
  // skip it, because its constructors may already have started threads or registered exit
  // handlers that point into it.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (handle == nullptr) {
    const char* error = dlerror();
    problem(&out->problems, path, std::string("dlopen failed: ") + (error ? error : "unknown"));
    return;
  }
  using GetImpl = NnApiSLDriverImpl* (*)();
  auto getImpl = reinterpret_cast<GetImpl>(dlsym(handle, "ANeuralNetworks_getSLDriverImpl"));
  if (getImpl == nullptr) {
    problem(&out->problems, path, "no ANeuralNetworks_getSLDriverImpl symbol: not an NNAPI SL");
    dlclose(handle);
    return;
  }
  const NnApiSLDriverImpl* impl = getImpl();
  if (impl == nullptr) {
    problem(&out->problems, path, "ANeuralNetworks_getSLDriverImpl returned NULL");
    return;
  }
  const int64_t level = impl->implFeatureLevel;
  auto driver = std::make_shared<SlDriver>();
  driver->path = path;
  // Copy only as many bytes as the level says the table has, by value, once.
  if (level == kFeatureLevel5 || level == kFeatureLevel6 || level == kFeatureLevel7) {
    std::memcpy(&driver->table.base, impl, sizeof(NnApiSLDriverImplFL5));
  } else if (level >= kFeatureLevel8) {
    std::memcpy(&driver->table, impl, sizeof(NnApiSLDriverImplFL8));
  } else {
    problem(&out->problems, path,
            formatString("implFeatureLevel %lld is not a support-library level (31, 1000006, "
                         "1000007 or >= 1000008)",
                         static_cast<long long>(level)));
    return;
  }
  if (const char* missing = firstMissingSlot(driver->table)) {
    problem(&out->problems, path, std::string("table slot ") + missing + " is NULL");
    return;
  }
  const NnApiSLDriverImplFL5& t = driver->table.base;
  uint32_t count = UINT32_MAX;
  int r = t.ANeuralNetworks_getDeviceCount(&count);
  if (r != ANEURALNETWORKS_NO_ERROR || count > kMaxDevicesPerPlugin) {
    problem(&out->problems, path,
            formatString("ANeuralNetworks_getDeviceCount returned %d, count %u (at most %u)", r,
                         count, kMaxDevicesPerPlugin));
    return;
  }
  for (uint32_t i = 0; i < count; ++i) {
    ANeuralNetworksDevice* handleOfDevice = nullptr;
    r = t.ANeuralNetworks_getDevice(i, &handleOfDevice);
    if (r != ANEURALNETWORKS_NO_ERROR || handleOfDevice == nullptr) {
      problem(&out->problems, path,
              formatString("ANeuralNetworks_getDevice(%u) returned %d without a device", i, r));
      continue;
    }
    std::string why;
    std::unique_ptr<SlDevice> device = SlDevice::create(driver, handleOfDevice, &why);
    if (!device) {
      problem(&out->problems, path, formatString("device %u skipped: %s", i, why.c_str()));
      continue;
    }
    if (std::find(names->begin(), names->end(), device->name()) != names->end()) {
      problem(&out->problems, path,
              formatString("device %u skipped: the name %s is already taken", i,
                           device->name().c_str()));
      continue;
    }
    names->push_back(device->name());
    logInfo("driver plugin %s: device %s (feature level %lld)", path.c_str(),
            device->name().c_str(), static_cast<long long>(device->featureLevel()));
    out->devices.push_back(device.get());
    registry().push_back(std::move(device));
  }
}

}  // namespace

std::vector<std::string> parseDriverConf(const std::string& text) {
  std::vector<std::string> paths;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    line = trim(line);
    if (!line.empty()) paths.push_back(line);
  }
  return paths;
}

std::vector<std::string> configuredDriverPaths(std::vector<std::string>* problems) {
  std::vector<std::string> paths;
  // secure_getenv: a setuid program never takes its drivers from the caller's environment.
  if (const char* list = secure_getenv("NNAPI_DRIVERS")) {
    std::string entry;
    std::istringstream in(list);
    while (std::getline(in, entry, ':'))
      if (!trim(entry).empty()) paths.push_back(trim(entry));
  }
  const char* dir = secure_getenv("NNAPI_DRIVER_DIR");
  if (dir != nullptr && dir[0] != '\0') {
    // Chosen explicitly by whoever runs the process: no ownership requirement.
    readConfDirectory(dir, /*requireTrust=*/false, &paths, problems);
  } else {
    readConfDirectory(kDefaultDriverDir, /*requireTrust=*/true, &paths, problems);
  }
  return paths;
}

PluginDevices loadDriverPlugins(const std::vector<std::string>& takenNames) {
  PluginDevices out;
  std::vector<std::string> names = takenNames;
  const std::vector<std::string> paths = configuredDriverPaths(&out.problems);
  for (const std::string& p : out.problems) logInfo("driver plugins: %s", p.c_str());
  for (const std::string& path : paths) {
    logInfo("driver plugin %s: loading", path.c_str());
    loadPlugin(path, &names, &out);
  }
  return out;
}

}  // namespace nn
