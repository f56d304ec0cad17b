#include "hal/cache_file.h"

#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "hal/sha256.h"

namespace nn {

namespace {

constexpr char kMagic[8] = {'N', 'N', 'L', 'X', 'C', 'A', 'C', 'H'};
constexpr size_t kOffVersion = 8, kOffHeaderSize = 12, kOffBuild = 16, kOffDevice = 48,
                 kOffToken = 112, kOffPayloadSize = 144, kOffReserved = 152, kOffHash = 160;
constexpr size_t kDeviceField = 64;
static_assert(kOffHash + 32 == kCacheHeaderSize, "header layout");

void putU32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
void putU64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint32_t getU32(const uint8_t* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
uint64_t getU64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// The name NUL-padded; a name that does not fit keeps its first 32 bytes followed by the
// SHA-256 of the whole name, so two long names sharing a prefix still differ.
std::array<uint8_t, kDeviceField> deviceField(const std::string& name) {
  std::array<uint8_t, kDeviceField> field{};
  if (name.size() <= kDeviceField) {
    std::memcpy(field.data(), name.data(), name.size());
    return field;
  }
  std::memcpy(field.data(), name.data(), 32);
  Sha256 h;
  h.update(name.data(), name.size());
  const auto digest = h.finish();
  std::memcpy(field.data() + 32, digest.data(), 32);
  return field;
}

std::array<uint8_t, 32> sha256Of(const void* data, size_t size) {
  Sha256 h;
  h.update(data, size);
  return h.finish();
}

// Finds the GNU build-id note of the loaded object that contains this function.
struct BuildIdSearch {
  uintptr_t address = 0;
  std::vector<uint8_t> id;
};

int findBuildId(struct dl_phdr_info* info, size_t, void* data) {
  auto* search = static_cast<BuildIdSearch*>(data);
  bool contains = false;
  for (int i = 0; i < info->dlpi_phnum && !contains; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    const uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    contains = ph.p_type == PT_LOAD && search->address >= start &&
               search->address < start + ph.p_memsz;
  }
  if (!contains) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* p = reinterpret_cast<const uint8_t*>(info->dlpi_addr + ph.p_vaddr);
    size_t left = ph.p_memsz;
    while (left >= sizeof(ElfW(Nhdr))) {
      ElfW(Nhdr) note;
      std::memcpy(&note, p, sizeof(note));
      const size_t nameSize = (note.n_namesz + 3) & ~size_t{3};
      const size_t descSize = (note.n_descsz + 3) & ~size_t{3};
      if (sizeof(note) + nameSize + descSize > left) break;
      const uint8_t* name = p + sizeof(note);
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        search->id.assign(name + nameSize, name + nameSize + note.n_descsz);
        return 1;
      }
      p += sizeof(note) + nameSize + descSize;
      left -= sizeof(note) + nameSize + descSize;
    }
  }
  return 1;
}

std::string errnoText(const char* step, const std::string& path, int error) {
  return formatString("%s %s: %s", step, path.c_str(), std::strerror(error));
}

// pread/pwrite the whole range, retrying short transfers and EINTR.
bool writeAll(int fd, const uint8_t* p, size_t n, off_t offset) {
  while (n > 0) {
    const ssize_t w = pwrite(fd, p, n, offset);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (w == 0) errno = EIO;
      return false;
    }
    p += w, n -= static_cast<size_t>(w), offset += w;
  }
  return true;
}
bool readAll(int fd, uint8_t* p, size_t n, off_t offset) {
  while (n > 0) {
    const ssize_t r = pread(fd, p, n, offset);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      if (r == 0) errno = 0;  // the file ended early (it shrank since fstat)
      return false;
    }
    p += r, n -= static_cast<size_t>(r), offset += r;
  }
  return true;
}

}  // namespace

const std::array<uint8_t, 32>& cacheBuildIdentity() {
  static const std::array<uint8_t, 32> identity = [] {
    BuildIdSearch search;
    search.address = reinterpret_cast<uintptr_t>(&findBuildId);
    dl_iterate_phdr(&findBuildId, &search);
    Sha256 h;
    const char tag[] = "nnapi-linux cache build identity";
    h.update(tag, sizeof(tag));
    if (!search.id.empty()) {
      h.update(search.id.data(), search.id.size());
    } else {
      const char when[] = __DATE__ " " __TIME__;
      h.update(when, sizeof(when));
    }
    return h.finish();
  }();
  return identity;
}

std::vector<uint8_t> encodeCacheFile(const CacheKey& key, const void* payload, size_t size) {
  std::vector<uint8_t> out(kCacheHeaderSize + size);
  uint8_t* h = out.data();
  std::memcpy(h, kMagic, sizeof(kMagic));
  putU32(h + kOffVersion, kCacheFormatVersion);
  putU32(h + kOffHeaderSize, kCacheHeaderSize);
  std::memcpy(h + kOffBuild, cacheBuildIdentity().data(), 32);
  const auto device = deviceField(key.deviceName);
  std::memcpy(h + kOffDevice, device.data(), device.size());
  std::memcpy(h + kOffToken, key.token.data(), key.token.size());
  putU64(h + kOffPayloadSize, size);
  putU64(h + kOffReserved, 0);
  const auto digest = sha256Of(payload, size);
  std::memcpy(h + kOffHash, digest.data(), digest.size());
  if (size > 0) std::memcpy(h + kCacheHeaderSize, payload, size);
  return out;
}

Result<std::vector<uint8_t>> decodeCacheFile(const CacheKey& key, const uint8_t* data,
                                             size_t size, uint64_t maxPayload) {
  if (size < kCacheHeaderSize)
    return makeError(ErrorStatus::GENERAL_FAILURE,
                     "cache file too short (%zu bytes, the header alone is %u)", size,
                     kCacheHeaderSize);
  if (std::memcmp(data, kMagic, sizeof(kMagic)) != 0) return makeError(ErrorStatus::GENERAL_FAILURE, "cache file: %s", "bad magic");
  if (getU32(data + kOffVersion) != kCacheFormatVersion)
    return makeError(ErrorStatus::GENERAL_FAILURE, "cache file: format version %u (expected %u)",
                     getU32(data + kOffVersion), kCacheFormatVersion);
  if (getU32(data + kOffHeaderSize) != kCacheHeaderSize)
    return makeError(ErrorStatus::GENERAL_FAILURE, "cache file: header size %u (expected %u)",
                     getU32(data + kOffHeaderSize), kCacheHeaderSize);
  if (std::memcmp(data + kOffBuild, cacheBuildIdentity().data(), 32) != 0)
    return makeError(ErrorStatus::GENERAL_FAILURE, "cache file: %s", "written by another build of the library");
  if (std::memcmp(data + kOffDevice, deviceField(key.deviceName).data(), kDeviceField) != 0)
    return makeError(ErrorStatus::GENERAL_FAILURE, "cache file: written for another device (expected %s)", key.deviceName.c_str());
  if (std::memcmp(data + kOffToken, key.token.data(), key.token.size()) != 0)
    return makeError(ErrorStatus::GENERAL_FAILURE, "cache file: %s", "written for another token");
  if (getU64(data + kOffReserved) != 0) return makeError(ErrorStatus::GENERAL_FAILURE, "cache file: %s", "reserved field not zero");
  const uint64_t payloadSize = getU64(data + kOffPayloadSize);
  if (payloadSize > maxPayload)
    return makeError(ErrorStatus::GENERAL_FAILURE,
                     "cache file: payload of %llu bytes exceeds the limit of %llu",
                     static_cast<unsigned long long>(payloadSize),
                     static_cast<unsigned long long>(maxPayload));
  if (payloadSize != size - kCacheHeaderSize)
    return makeError(ErrorStatus::GENERAL_FAILURE,
                     "cache file: header says %llu payload bytes, the file holds %zu (truncated "
                     "or extended)",
                     static_cast<unsigned long long>(payloadSize), size - kCacheHeaderSize);
  const uint8_t* payload = data + kCacheHeaderSize;
  const auto digest = sha256Of(payload, static_cast<size_t>(payloadSize));
  if (std::memcmp(data + kOffHash, digest.data(), digest.size()) != 0)
    return makeError(ErrorStatus::GENERAL_FAILURE, "cache file: %s", "payload SHA-256 mismatch (corrupted)");
  return std::vector<uint8_t>(payload, payload + payloadSize);
}

std::string cacheFilePath(const std::string& dir, const CacheToken& token, const char* suffix) {
  static const char kHex[] = "0123456789abcdef";
  std::string name;
  for (uint8_t b : token) {
    name += kHex[b >> 4];
    name += kHex[b & 15];
  }
  std::string path = dir;
  if (!path.empty() && path.back() != '/') path += '/';
  return path + name + suffix;
}

Status writeCacheFile(const std::string& path, const CacheKey& key, const void* payload,
                      size_t size) {
  const std::vector<uint8_t> bytes = encodeCacheFile(key, payload, size);
  // Unique per process and call, so concurrent writers (threads or processes) never share a
  // temporary; the last rename wins, and every rename installs a complete file.
  static std::atomic<uint64_t> counter{0};
  const std::string temp = formatString("%s.tmp.%ld.%llu", path.c_str(),
                                        static_cast<long>(getpid()),
                                        static_cast<unsigned long long>(counter++));
  const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return Status(ErrorStatus::GENERAL_FAILURE, errnoText("cannot create", temp, errno));
  auto failWith = [&](const char* step) {
    const int error = errno;
    close(fd);
    unlink(temp.c_str());
    return Status(ErrorStatus::GENERAL_FAILURE, errnoText(step, temp, error));
  };
  if (!writeAll(fd, bytes.data(), bytes.size(), 0)) return failWith("cannot write");
  if (fsync(fd) != 0) return failWith("cannot fsync");
  if (close(fd) != 0) {
    const int error = errno;
    unlink(temp.c_str());
    return Status(ErrorStatus::GENERAL_FAILURE, errnoText("cannot close", temp, error));
  }
  if (rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    unlink(temp.c_str());
    return Status(ErrorStatus::GENERAL_FAILURE, errnoText("cannot rename onto", path, error));
  }
  return kOk;
}

Result<std::vector<uint8_t>> readCacheFd(int fd, const CacheKey& key, uint64_t maxPayload) {
  struct stat st {};
  if (fstat(fd, &st) != 0)
    return makeError(ErrorStatus::GENERAL_FAILURE, "cache fd %d: fstat failed: %s", fd,
                     std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return makeError(ErrorStatus::GENERAL_FAILURE, "cache fd %d: not a regular file", fd);
  if (st.st_size == 0) return makeError(ErrorStatus::GENERAL_FAILURE, "cache file: empty");
  // The size is checked before allocating: a huge or sparse file is not read.
  const uint64_t fileSize = static_cast<uint64_t>(st.st_size);
  if (fileSize > kCacheHeaderSize && fileSize - kCacheHeaderSize > maxPayload)
    return makeError(ErrorStatus::GENERAL_FAILURE,
                     "cache file: %llu bytes exceed the limit of %llu (header + payload)",
                     static_cast<unsigned long long>(fileSize),
                     static_cast<unsigned long long>(maxPayload + kCacheHeaderSize));
  std::vector<uint8_t> bytes(static_cast<size_t>(fileSize));
  if (!readAll(fd, bytes.data(), bytes.size(), 0))
    return makeError(ErrorStatus::GENERAL_FAILURE, "cache file: read failed: %s",
                     errno == 0 ? "the file ended early" : std::strerror(errno));
  return decodeCacheFile(key, bytes.data(), bytes.size(), maxPayload);
}

Result<std::vector<uint8_t>> readCacheFile(const std::string& path, const CacheKey& key,
                                           uint64_t maxPayload) {
  // O_NONBLOCK: a FIFO planted under the cache name must not hang the compilation.
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return Status(ErrorStatus::GENERAL_FAILURE, errnoText("cannot open", path, errno));
  Result<std::vector<uint8_t>> r = readCacheFd(fd, key, maxPayload);
  close(fd);
  return r;
}

Status writeCacheFd(int fd, const CacheKey& key, const void* payload, size_t size) {
  const std::vector<uint8_t> bytes = encodeCacheFile(key, payload, size);
  // Shrink first: a crash mid-write then leaves a short file, never old bytes under a
  // plausible header.
  if (ftruncate(fd, 0) != 0 || !writeAll(fd, bytes.data(), bytes.size(), 0) || fsync(fd) != 0)
    return makeError(ErrorStatus::GENERAL_FAILURE, "cache fd %d: write failed: %s", fd,
                     std::strerror(errno));
  return kOk;
}

}  // namespace nn
