// hal/cache_file.h: round trips, every corruption of the container is a miss with a reason,
// size limits are checked before allocating, writes are atomic and leave nothing behind on
// failure; and the runtime's per-device directories and step tokens (compilation_cache.h).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "hal/cache_file.h"
#include "runtime/compilation_cache.h"

namespace nn {
namespace {

namespace fs = std::filesystem;

CacheKey key(const std::string& device = "dev-a", uint8_t seed = 1) {
  CacheKey k;
  k.deviceName = device;
  for (size_t i = 0; i < k.token.size(); ++i) k.token[i] = static_cast<uint8_t>(seed + i);
  return k;
}

std::vector<uint8_t> payload(size_t n) {
  std::vector<uint8_t> p(n);
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(i * 7 + 3);
  return p;
}

Result<std::vector<uint8_t>> decode(const std::vector<uint8_t>& bytes, const CacheKey& k = key(),
                                    uint64_t max = kDefaultMaxCachePayload) {
  return decodeCacheFile(k, bytes.data(), bytes.size(), max);
}

class TempDir {
 public:
  TempDir() {
    char base[] = "/tmp/nnapi-cache-unit-XXXXXX";
    EXPECT_NE(mkdtemp(base), nullptr);
    path = base;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  size_t entries() const {
    return static_cast<size_t>(std::distance(fs::directory_iterator(path), fs::directory_iterator()));
  }
  std::string path;
};

TEST(CacheFile, RoundTripInMemory) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{100000}}) {
    const std::vector<uint8_t> p = payload(n);
    const std::vector<uint8_t> bytes = encodeCacheFile(key(), p.data(), p.size());
    EXPECT_EQ(bytes.size(), kCacheHeaderSize + n);
    Result<std::vector<uint8_t>> r = decode(bytes);
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(*r, p);
  }
}

TEST(CacheFile, EveryHeaderByteMatters) {
  // Flipping any header byte or any payload byte makes the file a miss.
  const std::vector<uint8_t> p = payload(40);
  const std::vector<uint8_t> good = encodeCacheFile(key(), p.data(), p.size());
  for (size_t i = 0; i < good.size(); ++i) {
    std::vector<uint8_t> bad = good;
    bad[i] ^= 0x01;
    Result<std::vector<uint8_t>> r = decode(bad);
    EXPECT_FALSE(r.ok()) << "byte " << i;
    EXPECT_FALSE(r.status().message().empty()) << "byte " << i;
  }
}

TEST(CacheFile, MismatchesNameTheField) {
  const std::vector<uint8_t> p = payload(16);
  const std::vector<uint8_t> good = encodeCacheFile(key(), p.data(), p.size());
  auto reason = [](const Result<std::vector<uint8_t>>& r) { return r.status().message(); };
  EXPECT_NE(reason(decode(good, key("dev-b"))).find("another device"), std::string::npos);
  EXPECT_NE(reason(decode(good, key("dev-a", 2))).find("another token"), std::string::npos);
  std::vector<uint8_t> bad = good;
  bad[0] = 'X';
  EXPECT_NE(reason(decode(bad)).find("magic"), std::string::npos);
  bad = good;
  bad[8] = 2;
  EXPECT_NE(reason(decode(bad)).find("format version 2"), std::string::npos);
  bad = good;
  bad[12] = 0;
  EXPECT_NE(reason(decode(bad)).find("header size"), std::string::npos);
  bad = good;
  bad[20] ^= 0xFF;
  EXPECT_NE(reason(decode(bad)).find("another build"), std::string::npos);
  bad = good;
  bad[152] = 1;
  EXPECT_NE(reason(decode(bad)).find("reserved"), std::string::npos);
  bad = good;
  bad.back() ^= 0x40;
  EXPECT_NE(reason(decode(bad)).find("SHA-256"), std::string::npos);
}

TEST(CacheFile, EveryTruncationAndExtensionIsAMiss) {
  const std::vector<uint8_t> p = payload(50);
  const std::vector<uint8_t> good = encodeCacheFile(key(), p.data(), p.size());
  for (size_t n = 0; n < good.size(); ++n) {
    std::vector<uint8_t> cut(good.begin(), good.begin() + n);
    EXPECT_FALSE(decode(cut).ok()) << n;
  }
  std::vector<uint8_t> longer = good;
  longer.push_back(0);
  EXPECT_FALSE(decode(longer).ok());
}

TEST(CacheFile, SizeLimits) {
  const std::vector<uint8_t> p = payload(1000);
  const std::vector<uint8_t> good = encodeCacheFile(key(), p.data(), p.size());
  EXPECT_TRUE(decode(good, key(), 1000).ok());
  Result<std::vector<uint8_t>> r = decode(good, key(), 999);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("exceeds the limit"), std::string::npos);
  // A header claiming an enormous payload is refused on the number, not by allocating it.
  std::vector<uint8_t> huge = good;
  for (int i = 0; i < 8; ++i) huge[144 + i] = 0xFF;
  r = decode(huge);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("exceeds the limit"), std::string::npos);
  // From a file: the file's size is checked before it is read.
  TempDir dir;
  const std::string path = dir.path + "/big";
  ASSERT_TRUE(writeCacheFile(path, key(), p.data(), p.size()).ok());
  ASSERT_EQ(truncate(path.c_str(), 1ll << 40), 0);  // sparse: 1 TiB that is never read
  r = readCacheFile(path, key());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("exceed the limit"), std::string::npos);
}

TEST(CacheFile, LongDeviceNamesStayDistinct) {
  const std::string a(100, 'a');
  std::string b = a;
  b.back() = 'b';
  const std::vector<uint8_t> bytes = encodeCacheFile(key(a), "x", 1);
  EXPECT_TRUE(decode(bytes, key(a)).ok());
  EXPECT_FALSE(decode(bytes, key(b)).ok());
}

TEST(CacheFile, FileRoundTripIsAtomicAndPrivate) {
  TempDir dir;
  const CacheKey k = key();
  const std::string path = cacheFilePath(dir.path, k.token, ".bin");
  EXPECT_EQ(path, dir.path + "/0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20.bin");
  Result<std::vector<uint8_t>> r = readCacheFile(path, k);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("No such file"), std::string::npos);
  const std::vector<uint8_t> p = payload(300);
  ASSERT_TRUE(writeCacheFile(path, k, p.data(), p.size()).ok());
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(dir.entries(), 1u);  // no temporary left behind
  r = readCacheFile(path, k);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(*r, p);
  // Rewriting replaces the file as a whole (a new inode: readers holding the old one keep a
  // complete old file).
  const ino_t before = st.st_ino;
  const std::vector<uint8_t> q = payload(10);
  ASSERT_TRUE(writeCacheFile(path, k, q.data(), q.size()).ok());
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_NE(st.st_ino, before);
  EXPECT_EQ(*readCacheFile(path, k), q);
  EXPECT_EQ(dir.entries(), 1u);
}

TEST(CacheFile, FailedWritesLeaveNothing) {
  TempDir dir;
  const std::vector<uint8_t> p = payload(10);
  Status s = writeCacheFile(dir.path + "/missing/file", key(), p.data(), p.size());
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cannot create"), std::string::npos);
  // Renaming onto a non-empty directory fails after the write: the temporary goes away.
  const std::string target = dir.path + "/target";
  ASSERT_EQ(mkdir(target.c_str(), 0700), 0);
  ASSERT_EQ(mkdir((target + "/inside").c_str(), 0700), 0);
  s = writeCacheFile(target, key(), p.data(), p.size());
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cannot rename"), std::string::npos);
  EXPECT_EQ(dir.entries(), 1u);
}

TEST(CacheFile, FdRoundTripAndNonRegularFiles) {
  TempDir dir;
  const std::string path = dir.path + "/fd";
  const int fd = open(path.c_str(), O_RDWR | O_CREAT, 0600);
  ASSERT_GE(fd, 0);
  Result<std::vector<uint8_t>> r = readCacheFd(fd, key());
  EXPECT_FALSE(r.ok());
  const std::vector<uint8_t> big = payload(5000), small = payload(7);
  ASSERT_TRUE(writeCacheFd(fd, key(), big.data(), big.size()).ok());
  ASSERT_TRUE(writeCacheFd(fd, key(), small.data(), small.size()).ok());  // shrinks the file
  r = readCacheFd(fd, key());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(*r, small);
  close(fd);
  r = readCacheFd(-1, key());
  EXPECT_FALSE(r.ok());
  int pipeFds[2];
  ASSERT_EQ(pipe(pipeFds), 0);
  r = readCacheFd(pipeFds[0], key());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a regular file"), std::string::npos);
  close(pipeFds[0]);
  close(pipeFds[1]);
  // A FIFO under the cache file's name is refused without blocking.
  const std::string fifo = dir.path + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(readCacheFile(fifo, key()).ok());
}

TEST(CacheFile, BuildIdentityIsStableAndNotZero) {
  EXPECT_EQ(cacheBuildIdentity(), cacheBuildIdentity());
  EXPECT_NE(cacheBuildIdentity(), (std::array<uint8_t, 32>{}));
}

// A device with a hostile name.
class NamedDevice : public Device {
 public:
  NamedDevice(std::string name, std::string version) : name_(std::move(name)), version_(std::move(version)) {}
  const std::string& name() const override { return name_; }
  const std::string& version() const override { return version_; }
  int32_t type() const override { return 4; }
  int64_t featureLevel() const override { return kFeatureLevel7; }
  Status getSupportedOperations(const Model&, std::vector<bool>*, std::vector<std::string>*) const override {
    return kOk;
  }
  Status prepareModel(const std::shared_ptr<const Model>&, const PrepareOptions&,
                      std::shared_ptr<PreparedModel>*) const override {
    return kOk;
  }

 private:
  std::string name_, version_;
};

TEST(CompilationCacheDirectory, PerDeviceAndVersionInsideCacheDir) {
  TempDir dir;
  const NamedDevice evil("../../etc/x y", "1"), evil2("../../etc/x y", "2"), other("../../etc/x_z", "1");
  const std::string a = deviceCacheDirectory(dir.path, evil);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a.rfind(dir.path + "/______etc_x_y-", 0), 0u) << a;
  EXPECT_EQ(a.find("..", dir.path.size()), std::string::npos) << a;
  struct stat st {};
  ASSERT_EQ(stat(a.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  EXPECT_EQ(deviceCacheDirectory(dir.path, evil), a);  // stable, and an existing dir is fine
  EXPECT_NE(deviceCacheDirectory(dir.path, evil2), a);  // another version: another directory
  EXPECT_NE(deviceCacheDirectory(dir.path, other), a);
  EXPECT_EQ(deviceCacheDirectory(dir.path + "/missing", evil), "");
  EXPECT_EQ(deviceCacheDirectory(a + "/../nothing-here", evil), "");
}

TEST(CompilationCacheDirectory, StepTokensDiffer) {
  CacheToken t{};
  t[0] = 5;
  EXPECT_NE(stepCacheToken(t, 0, "a"), stepCacheToken(t, 1, "a"));
  EXPECT_NE(stepCacheToken(t, 0, "a"), stepCacheToken(t, 0, "b"));
  EXPECT_NE(stepCacheToken(t, 0, "a"), t);
  EXPECT_EQ(stepCacheToken(t, 3, "a"), stepCacheToken(t, 3, "a"));
}

}  // namespace
}  // namespace nn
