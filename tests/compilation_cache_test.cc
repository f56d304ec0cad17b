// Compilation caching end to end (docs/drivers.md "Compilation caching"), through the public
// API with the test-partial plugin (tests/drivers/test_driver.cc), which caches its
// per-operation support decisions in a hal/cache_file.h container and reports each prepare
// as a line of $NNAPI_TEST_DRIVER_CACHE_LOG: "none", "hit", "hit fd", "miss <reason>", then
// "written" / "write-failed <reason>" after a miss. Run only by the ctest entry
// driver_plugins_cache (the device list comes from NNAPI_DRIVERS, read once per process).
//
// What each directory test really exercises:
//  - missing / not a directory: the runtime's check of cacheDir (compilation_cache.cc); the
//    plugin is then given no directory at all ("none").
//  - read-only: a 0555 directory, checked in a child process; as root (CI) the child first
//    drops to uid/gid 65534, because root writes through permission bits. So it exercises
//    the runtime's writability check (access(2)), then the compilation going on uncached.
//  - full: a child with RLIMIT_FSIZE below the cache file's size and SIGXFSZ ignored, so the
//    driver's write gets EFBIG mid-file: exercises writeCacheFile's failure path (the temp
//    file removed, nothing installed) and the compilation going on uncached.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <android/NeuralNetworksSupportLibraryImpl.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <grp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using Token = std::array<uint8_t, ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN>;

Token token(uint8_t seed) {
  Token t{};
  for (size_t i = 0; i < t.size(); ++i) t[i] = static_cast<uint8_t>(seed * 31 + i);
  return t;
}

using nntest::findDevice;

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() { unsetenv(name_); }

 private:
  const char* name_;
};

// out = (a + b) * a, float32 [2, 3].
struct TwoOpModel {
  nntest::ModelBuilder m;
  TwoOpModel() {
    const std::vector<uint32_t> dims{2, 3};
    const uint32_t a = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, dims);
    const uint32_t b = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, dims);
    const uint32_t act = m.addInt32(ANEURALNETWORKS_FUSED_NONE);
    const uint32_t sum = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, dims);
    const uint32_t out = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, dims);
    m.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {sum});
    m.addOperation(ANEURALNETWORKS_MUL, {sum, a, act}, {out});
    EXPECT_EQ(m.finish({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
  }
};

const std::vector<float> kA{1.5f, -2.f, 0.25f, 3.f, -0.5f, 7.f};
const std::vector<float> kB{0.5f, 4.f, -1.25f, 2.f, 0.5f, -3.f};

std::vector<float> expected() {
  std::vector<float> out(6);
  for (size_t i = 0; i < 6; ++i) out[i] = (kA[i] + kB[i]) * kA[i];
  return out;
}

struct CacheSpec {
  std::string dir;         // setCaching when non-empty
  std::vector<int> fds;    // setCachingFromFds (model cache files) when non-empty
  Token token = ::token(1);
  bool allDevices = false;  // ANeuralNetworksCompilation_create instead of test-partial alone
};

const NnApiSLDriverImplFL5& sl() {
  return reinterpret_cast<const NnApiSLDriverImplFL8*>(ANeuralNetworks_getSLDriverImpl())->base;
}

// Compiles and computes once; returns the output (empty on failure, with test failures).
std::vector<float> compileAndRun(const CacheSpec& spec, uint32_t* steps = nullptr) {
  TwoOpModel model;
  ANeuralNetworksCompilation* c = nullptr;
  const ANeuralNetworksDevice* partial = findDevice("test-partial");
  EXPECT_NE(partial, nullptr);
  if (spec.allDevices)
    EXPECT_EQ(ANeuralNetworksCompilation_create(model.m.get(), &c), ANEURALNETWORKS_NO_ERROR);
  else
    EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(model.m.get(), &partial, 1, &c),
              ANEURALNETWORKS_NO_ERROR);
  if (c == nullptr) return {};
  if (!spec.dir.empty()) {
    EXPECT_EQ(ANeuralNetworksCompilation_setCaching(c, spec.dir.c_str(), spec.token.data()),
                ANEURALNETWORKS_NO_ERROR);
  }
  if (!spec.fds.empty()) {
    EXPECT_EQ(sl().SL_ANeuralNetworksCompilation_setCachingFromFds(
                    c, spec.fds.data(), static_cast<uint32_t>(spec.fds.size()), nullptr, 0,
                    spec.token.data()),
                ANEURALNETWORKS_NO_ERROR);
  }
  const int finished = ANeuralNetworksCompilation_finish(c);
  EXPECT_EQ(finished, ANEURALNETWORKS_NO_ERROR) << ANNLinux_getLastErrorMessage();
  std::vector<float> out(6, 0.f);
  if (finished == ANEURALNETWORKS_NO_ERROR) {
    if (steps) {
      EXPECT_EQ(ANNLinux_Compilation_getStepCount(c, steps), ANEURALNETWORKS_NO_ERROR);
    }
    ANeuralNetworksExecution* e = nullptr;
    EXPECT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, kA.data(), 24), 0);
    EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, kB.data(), 24), 0);
    EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out.data(), 24), 0);
    EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR)
        << ANNLinux_getLastErrorMessage();
    ANeuralNetworksExecution_free(e);
  }
  ANeuralNetworksCompilation_free(c);
  return out;
}

std::vector<std::string> readLines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> cacheFiles(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    const std::string p = it->path().string();
    if (it->is_regular_file() && p.find(suffix) != std::string::npos) out.push_back(p);
  }
  return out;
}

std::vector<uint8_t> readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}
void writeBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// A fresh directory with a cache dir and a driver log per test.
class DriverPluginCache : public ::testing::Test {
 protected:
  void SetUp() override {
    char base[] = "/tmp/nnapi-cache-test-XXXXXX";
    ASSERT_NE(mkdtemp(base), nullptr);
    root_ = base;
    chmod(root_.c_str(), 0755);  // the read-only child may run as another user
    dir_ = root_ + "/cache";
    ASSERT_EQ(mkdir(dir_.c_str(), 0700), 0);
    log_ = root_ + "/driver.log";
  }
  void TearDown() override {
    chmod(dir_.c_str(), 0700);
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  // The driver's log lines since the last call.
  std::vector<std::string> events() {
    std::vector<std::string> lines = readLines(log_);
    unlink(log_.c_str());
    return lines;
  }
  std::string root_, dir_, log_;
};

bool startsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

TEST_F(DriverPluginCache, ColdMissWritesThenWarmHits) {
  ScopedEnv ops("NNAPI_TEST_DRIVER_OPS", "ADD,MUL");
  ScopedEnv logTo("NNAPI_TEST_DRIVER_CACHE_LOG", log_);
  CacheSpec spec;
  spec.dir = dir_;
  const std::vector<float> cold = compileAndRun(spec);
  std::vector<std::string> ev = events();
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_TRUE(startsWith(ev[0], "miss cannot open")) << ev[0];
  EXPECT_EQ(ev[1], "written");
  const std::vector<std::string> files = cacheFiles(dir_, ".decisions");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(cacheFiles(dir_, ".tmp.").empty());
  // Device directories: <cacheDir>/test-partial-<hash>/ (the runtime's), and the plugin's own
  // runtime adds one more level for its device.
  EXPECT_NE(files[0].find("/cache/test-partial-"), std::string::npos) << files[0];
  struct stat st {};
  ASSERT_EQ(stat(fs::path(files[0]).parent_path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(stat(files[0].c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  const std::vector<float> warm = compileAndRun(spec);
  EXPECT_EQ(events(), std::vector<std::string>{"hit"});
  EXPECT_EQ(memcmp(cold.data(), warm.data(), 24), 0);
  const std::vector<float> want = expected();
  for (size_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(warm[i], want[i]) << i;

  // Another token is another file: a miss, and a second file.
  spec.token = token(2);
  compileAndRun(spec);
  ev = events();
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_TRUE(startsWith(ev[0], "miss cannot open")) << ev[0];
  EXPECT_EQ(cacheFiles(dir_, ".decisions").size(), 2u);
}

// Header offsets of hal/cache_file.h.
constexpr size_t kBuildOffset = 16, kDeviceOffset = 48, kTokenOffset = 112, kHeaderSize = 192;

struct Corruption {
  const char* name;
  void (*apply)(std::vector<uint8_t>* bytes);
  const char* reason;  // expected in the miss line
};

TEST_F(DriverPluginCache, BadFilesAreMissesAndReplaced) {
  ScopedEnv ops("NNAPI_TEST_DRIVER_OPS", "ADD,MUL");
  ScopedEnv logTo("NNAPI_TEST_DRIVER_CACHE_LOG", log_);
  const Corruption corruptions[] = {
      {"payload byte", [](std::vector<uint8_t>* b) { b->back() ^= 1; }, "SHA-256 mismatch"},
      {"truncated", [](std::vector<uint8_t>* b) { b->resize(b->size() - 1); }, "truncated"},
      {"header only", [](std::vector<uint8_t>* b) { b->resize(kHeaderSize - 5); }, "too short"},
      {"empty", [](std::vector<uint8_t>* b) { b->clear(); }, "empty"},
      {"other device", [](std::vector<uint8_t>* b) { (*b)[kDeviceOffset] ^= 0x20; },
       "another device"},
      {"other build", [](std::vector<uint8_t>* b) { (*b)[kBuildOffset + 7] ^= 0x80; },
       "another build"},
      {"other token", [](std::vector<uint8_t>* b) { (*b)[kTokenOffset + 31] ^= 1; },
       "another token"},
      {"garbage", [](std::vector<uint8_t>* b) { b->assign(4096, 0xA5); }, "bad magic"},
  };
  CacheSpec spec;
  spec.dir = dir_;
  const std::vector<float> want = expected();
  compileAndRun(spec);
  events();
  const std::vector<std::string> files = cacheFiles(dir_, ".decisions");
  ASSERT_EQ(files.size(), 1u);
  const std::vector<uint8_t> good = readBytes(files[0]);
  ASSERT_GT(good.size(), kHeaderSize);
  for (const Corruption& c : corruptions) {
    SCOPED_TRACE(c.name);
    std::vector<uint8_t> bad = good;
    c.apply(&bad);
    writeBytes(files[0], bad);
    const std::vector<float> got = compileAndRun(spec);
    for (size_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(got[i], want[i]) << i;
    const std::vector<std::string> ev = events();
    ASSERT_EQ(ev.size(), 2u);
    EXPECT_TRUE(startsWith(ev[0], "miss ") && ev[0].find(c.reason) != std::string::npos) << ev[0];
    EXPECT_EQ(ev[1], "written");
    EXPECT_EQ(readBytes(files[0]), good);  // replaced by a valid file
    compileAndRun(spec);
    EXPECT_EQ(events(), std::vector<std::string>{"hit"});
  }
}

TEST_F(DriverPluginCache, UnusableDirectoryCompilesUncached) {
  ScopedEnv ops("NNAPI_TEST_DRIVER_OPS", "ADD,MUL");
  ScopedEnv logTo("NNAPI_TEST_DRIVER_CACHE_LOG", log_);
  const std::vector<float> want = expected();
  const std::string notADir = root_ + "/file";
  writeBytes(notADir, {1, 2, 3});
  for (const std::string& dir : {root_ + "/missing", root_ + "/missing/deeper", notADir}) {
    SCOPED_TRACE(dir);
    CacheSpec spec;
    spec.dir = dir;
    const std::vector<float> got = compileAndRun(spec);
    for (size_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(got[i], want[i]) << i;
    EXPECT_EQ(events(), std::vector<std::string>{"none"});
  }
  EXPECT_FALSE(fs::exists(root_ + "/missing"));
  EXPECT_EQ(readBytes(notADir), (std::vector<uint8_t>{1, 2, 3}));
  // A device directory replaced by a file: the runtime cannot use it either.
  CacheSpec spec;
  spec.dir = dir_;
  compileAndRun(spec);
  events();
  const std::vector<std::string> files = cacheFiles(dir_, ".decisions");
  ASSERT_EQ(files.size(), 1u);
  std::string deviceDir = files[0].substr(0, files[0].find('/', dir_.size() + 1));
  fs::remove_all(deviceDir);
  writeBytes(deviceDir, {9});
  compileAndRun(spec);
  EXPECT_EQ(events(), std::vector<std::string>{"none"});
}

// Runs DriverPluginCacheChild in a new process (its own limits and user) and returns its
// exit status.
int runChild(const std::string& mode, const std::string& dir) {
  const std::string filter = "--gtest_filter=DriverPluginCacheChild.DISABLED_CompilesUncached";
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  env.push_back("NNAPI_CACHE_CHILD_MODE=" + mode);
  env.push_back("NNAPI_CACHE_CHILD_DIR=" + dir);
  env.push_back("NNAPI_TEST_DRIVER_OPS=ADD,MUL");
  std::vector<char*> envp;
  for (std::string& s : env) envp.push_back(&s[0]);
  envp.push_back(nullptr);
  char exe[4096] = {};
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n <= 0) return -1;
  char* argv[] = {exe, const_cast<char*>("--gtest_also_run_disabled_tests"),
                  const_cast<char*>(filter.c_str()), nullptr};
  const pid_t pid = fork();
  if (pid == 0) {
    execve(exe, argv, envp.data());
    _exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST_F(DriverPluginCache, ReadOnlyDirectoryCompilesUncached) {
  ASSERT_EQ(chmod(dir_.c_str(), 0555), 0);
  EXPECT_EQ(runChild("readonly", dir_), 0);
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(DriverPluginCache, FullDiskCompilesUncached) {
  EXPECT_EQ(runChild("full", dir_), 0);
  EXPECT_TRUE(cacheFiles(dir_, ".decisions").empty());
  EXPECT_TRUE(cacheFiles(dir_, ".tmp.").empty());
}

TEST(DriverPluginCacheChild, DISABLED_CompilesUncached) {
  const char* mode = getenv("NNAPI_CACHE_CHILD_MODE");
  const char* dir = getenv("NNAPI_CACHE_CHILD_DIR");
  ASSERT_TRUE(mode != nullptr && dir != nullptr);
  const std::string probe = std::string(dir) + "/probe";
  if (std::string(mode) == "readonly") {
    if (geteuid() == 0) {
      // Root writes through permission bits: become nobody (dumpable again, so the driver
      // can still open /proc/self/fd for its log pipe).
      ASSERT_EQ(setgroups(0, nullptr), 0);
      ASSERT_EQ(setresgid(65534, 65534, 65534), 0);
      ASSERT_EQ(setresuid(65534, 65534, 65534), 0);
      ASSERT_EQ(prctl(PR_SET_DUMPABLE, 1), 0);
    }
    // The precondition: this process really cannot write there.
    const int fd = open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    ASSERT_LT(fd, 0) << "the read-only cache directory is writable";
  } else {
    ASSERT_EQ(std::string(mode), "full");
    // The cache file (192-byte header + 34-byte payload) does not fit; the driver log goes
    // to a pipe, which the limit does not apply to.
    const struct rlimit limit = {200, 200};
    signal(SIGXFSZ, SIG_IGN);
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limit), 0);
    const int fd = open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    ASSERT_GE(fd, 0);
    std::vector<char> bytes(300, 'x');
    EXPECT_EQ(write(fd, bytes.data(), bytes.size()), 200) << "RLIMIT_FSIZE has no effect";
    EXPECT_EQ(write(fd, bytes.data(), bytes.size()), -1);
    EXPECT_EQ(errno, EFBIG);
    close(fd);
    unlink(probe.c_str());
  }
  int pipeFds[2];
  ASSERT_EQ(pipe(pipeFds), 0);
  ScopedEnv logTo("NNAPI_TEST_DRIVER_CACHE_LOG", "/proc/self/fd/" + std::to_string(pipeFds[1]));
  CacheSpec spec;
  spec.dir = dir;
  const std::vector<float> got = compileAndRun(spec);
  const std::vector<float> want = expected();
  for (size_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(got[i], want[i]) << i;
  close(pipeFds[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(pipeFds[0], buffer, sizeof(buffer))) > 0;) text.append(buffer, n);
  close(pipeFds[0]);
  if (std::string(mode) == "readonly") {
    EXPECT_EQ(text, "none\n");
  } else {
    EXPECT_NE(text.find("miss cannot open"), std::string::npos) << text;
    EXPECT_NE(text.find("\nwrite-failed cannot write"), std::string::npos) << text;
    EXPECT_NE(text.find("File too large"), std::string::npos) << text;
  }
}

TEST_F(DriverPluginCache, CachingFromFds) {
  ScopedEnv ops("NNAPI_TEST_DRIVER_OPS", "ADD,MUL");
  ScopedEnv logTo("NNAPI_TEST_DRIVER_CACHE_LOG", log_);
  const std::string file = root_ + "/model.cache";
  const int fd = open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  CacheSpec spec;
  spec.fds = {fd};
  const std::vector<float> want = expected();
  std::vector<float> got = compileAndRun(spec);
  for (size_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(got[i], want[i]) << i;
  std::vector<std::string> ev = events();
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0], "miss cache file: empty");
  EXPECT_EQ(ev[1], "written");
  const std::vector<uint8_t> good = readBytes(file);
  EXPECT_GT(good.size(), kHeaderSize);
  got = compileAndRun(spec);
  EXPECT_EQ(events(), std::vector<std::string>{"hit fd"});
  for (size_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(got[i], want[i]) << i;
  // Corrupted: a miss, rewritten through the fd.
  std::vector<uint8_t> bad = good;
  bad[kHeaderSize] ^= 0xFF;
  writeBytes(file, bad);
  compileAndRun(spec);
  ev = events();
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_NE(ev[0].find("SHA-256 mismatch"), std::string::npos) << ev[0];
  EXPECT_EQ(readBytes(file), good);
  // Another token through the same file: a miss.
  spec.token = token(9);
  compileAndRun(spec);
  ev = events();
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_NE(ev[0].find("another token"), std::string::npos) << ev[0];
  // The device asked for one model cache file: two are not passed on (uncached).
  const int fd2 = open(file.c_str(), O_RDWR | O_CLOEXEC);
  spec.fds = {fd, fd2};
  compileAndRun(spec);
  EXPECT_EQ(events(), std::vector<std::string>{"none"});
  close(fd2);
  close(fd);
}

TEST_F(DriverPluginCache, PartitionStepsGetTheirOwnToken) {
  ScopedEnv logTo("NNAPI_TEST_DRIVER_CACHE_LOG", log_);
  CacheSpec spec;
  spec.dir = dir_;
  {
    // The whole model on test-partial with token 1 ...
    ScopedEnv ops("NNAPI_TEST_DRIVER_OPS", "ADD,MUL");
    compileAndRun(spec);
    events();
  }
  // ... then split (ADD on test-partial, MUL on the CPU) with the same token: the step does
  // not read the whole model's file.
  ScopedEnv ops("NNAPI_TEST_DRIVER_OPS", "ADD");
  spec.allDevices = true;
  uint32_t steps = 0;
  const std::vector<float> cold = compileAndRun(spec, &steps);
  EXPECT_EQ(steps, 2u);
  std::vector<std::string> ev = events();
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_TRUE(startsWith(ev[0], "miss cannot open")) << ev[0];
  EXPECT_EQ(ev[1], "written");
  EXPECT_EQ(cacheFiles(dir_, ".decisions").size(), 2u);
  const std::vector<float> warm = compileAndRun(spec, &steps);
  EXPECT_EQ(events(), std::vector<std::string>{"hit"});
  EXPECT_EQ(memcmp(cold.data(), warm.data(), 24), 0);
  const std::vector<float> want = expected();
  for (size_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(warm[i], want[i]) << i;
}

}  // namespace
