#include "runtime/compilation_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "hal/log.h"  // logInfo
#include "hal/sha256.h"
#include "runtime/compilation.h"

namespace nn {

namespace {

constexpr size_t kMaxNameChars = 48;

// Only characters safe in any file name; everything else (including '/' and '.' runs that
// could climb out of cacheDir) becomes '_'. The hash suffix keeps sanitized names distinct.
std::string sanitize(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (out.size() == kMaxNameChars) break;
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_';
    out += safe ? c : '_';
  }
  return out.empty() ? "device" : out;
}

// Why `dir` cannot hold cache files, or "" when it can.
std::string unusableReason(const std::string& dir) {
  struct stat st {};
  if (lstat(dir.c_str(), &st) != 0) return formatString("cannot stat it: %s", std::strerror(errno));
  if (S_ISLNK(st.st_mode) && stat(dir.c_str(), &st) != 0)
    return formatString("dangling symbolic link: %s", std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) return "not a directory";
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    return formatString("not writable: %s", std::strerror(errno));
  return "";
}

}  // namespace

std::string deviceCacheDirectory(const std::string& cacheDir, const Device& device) {
  std::string reason = unusableReason(cacheDir);
  if (!reason.empty()) {
    logInfo("compilation cache: not caching for %s: cache directory %s: %s",
            device.name().c_str(), cacheDir.c_str(), reason.c_str());
    return "";
  }
  Sha256 h;
  h.update(device.name().data(), device.name().size());
  h.update("", 1);
  h.update(device.version().data(), device.version().size());
  const auto digest = h.finish();
  std::string dir = cacheDir;
  if (dir.back() != '/') dir += '/';
  dir += sanitize(device.name()) + '-';
  for (size_t i = 0; i < 8; ++i) dir += formatString("%02x", digest[i]);
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    logInfo("compilation cache: not caching for %s: cannot create %s: %s", device.name().c_str(),
            dir.c_str(), std::strerror(errno));
    return "";
  }
  reason = unusableReason(dir);
  if (!reason.empty()) {
    logInfo("compilation cache: not caching for %s: %s: %s", device.name().c_str(), dir.c_str(),
            reason.c_str());
    return "";
  }
  return dir;
}

CacheToken stepCacheToken(const CacheToken& token, size_t step, const std::string& deviceName) {
  Sha256 h;
  const char tag[] = "partition step";
  h.update(tag, sizeof(tag));
  h.update(token.data(), token.size());
  h.updateValue(static_cast<uint64_t>(step));
  h.update(deviceName.data(), deviceName.size());
  return h.finish();
}

void RuntimeCompilation::applyCaching(const Device* device, int step,
                                      PrepareOptions* options) const {
  if (!cachingEnabled()) return;
  // A driver that needs no cache files does not cache (the NDK rule): it gets nothing, and
  // no directory is made for it.
  uint32_t model = 0, data = 0;
  device->numberOfCacheFilesNeeded(&model, &data);
  if (model == 0 && data == 0) return;
  options->cacheToken =
      step < 0 ? cacheToken_ : stepCacheToken(cacheToken_, static_cast<size_t>(step), device->name());
  if (!cacheDir_.empty()) options->cacheDir = deviceCacheDirectory(cacheDir_, *device);
  if (!cacheFds_.set) return;
  // The fds of setCachingFromFds are the files of one device: they go to a whole-model
  // preparation on a device that asked for exactly that many.
  if (step >= 0) {
    logInfo("compilation cache: step %d on %s does not get the cache fds (they belong to one "
            "device; the model is split)", step, device->name().c_str());
  } else if (model != cacheFds_.modelFds.size() || data != cacheFds_.dataFds.size()) {
    logInfo("compilation cache: %s needs %u model + %u data cache files, %zu + %zu were given; "
            "the fds are not used", device->name().c_str(), model, data,
            cacheFds_.modelFds.size(), cacheFds_.dataFds.size());
  } else {
    options->modelCacheFds = cacheFds_.modelFds;
    options->dataCacheFds = cacheFds_.dataFds;
  }
}

}  // namespace nn
