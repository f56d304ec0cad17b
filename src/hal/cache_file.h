// A validated container for compilation cache files, usable by any driver (docs/drivers.md,
// "Compilation caching"). A cache file is untrusted input: another build, another device, a
// crash mid-write, a full disk or a hostile user may have produced it. Reading checks every
// field and the payload's SHA-256, and any mismatch is a miss with a reason, never a crash.
//
// Layout (little-endian, fixed 192-byte header, then the payload):
//   0   magic "NNLXCACH"           8
//   8   format version (u32)       4   kCacheFormatVersion
//   12  header size (u32)          4   kCacheHeaderSize
//   16  build identity             32  cacheBuildIdentity(): changes whenever the code does
//   48  device name                64  NUL-padded (longer names: their SHA-256 prefix, see .cc)
//   112 token                      32  the compilation's caching token
//   144 payload size (u64)         8
//   152 reserved (u64, zero)       8
//   160 SHA-256 of the payload     32
//   192 payload
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "hal/types.h"

namespace nn {

using CacheToken = std::array<uint8_t, 32>;  // ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN

constexpr uint32_t kCacheFormatVersion = 1;
constexpr uint32_t kCacheHeaderSize = 192;
// Default cap on a payload read back: the size field is checked against it (and against the
// file's real size) before anything is allocated.
constexpr uint64_t kDefaultMaxCachePayload = 256ull << 20;

// Who a cache file belongs to: it is a hit only when all of these match.
struct CacheKey {
  std::string deviceName;
  CacheToken token{};
};

// 32 bytes identifying the code that reads and writes the cache: derived from the GNU build-id
// of the binary this file is linked into (the linker hashes the whole output, so any code
// change gives a new identity); without a build-id, from the compile date and time.
const std::array<uint8_t, 32>& cacheBuildIdentity();

// The header + payload bytes of a cache file (exposed for tests that corrupt one field).
std::vector<uint8_t> encodeCacheFile(const CacheKey& key, const void* payload, size_t size);
// Checks bytes read from a cache file; on success returns the payload. Errors name the
// mismatching field (the reason of the miss).
Result<std::vector<uint8_t>> decodeCacheFile(const CacheKey& key, const uint8_t* data,
                                             size_t size,
                                             uint64_t maxPayload = kDefaultMaxCachePayload);

// `<dir>/<hex token><suffix>`: the token-derived file a driver keeps in its cache directory.
std::string cacheFilePath(const std::string& dir, const CacheToken& token, const char* suffix);

// Writes atomically: a unique temporary file in the same directory (O_EXCL, 0600), write,
// fsync, rename over `path`. On any failure (ENOSPC, EFBIG, EROFS, EACCES, ...) nothing is left
// behind and the error names the step and errno; callers log it and go on uncached.
Status writeCacheFile(const std::string& path, const CacheKey& key, const void* payload,
                      size_t size);
// Reads and checks `path` (a missing file is a miss like any other).
Result<std::vector<uint8_t>> readCacheFile(const std::string& path, const CacheKey& key,
                                           uint64_t maxPayload = kDefaultMaxCachePayload);

// The same through a file descriptor (SL_ANeuralNetworksCompilation_setCachingFromFds). An
// fd cannot be renamed, so the write is not atomic: a torn write is caught by the payload
// hash on the next read. The fd's file offset is not used (pread/pwrite).
Status writeCacheFd(int fd, const CacheKey& key, const void* payload, size_t size);
Result<std::vector<uint8_t>> readCacheFd(int fd, const CacheKey& key,
                                         uint64_t maxPayload = kDefaultMaxCachePayload);

}  // namespace nn
