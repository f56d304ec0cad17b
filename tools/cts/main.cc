// nnapi-cts: runs the NNAPI conformance vectors (format nnapi-cts-1) against
// libneuralnetworks through the public C API.
//
// Tests run in forked worker processes so that a crash or hang inside the
// runtime costs one test, not the run: the parent never calls NNAPI itself, it
// only reads per-test begin/end records from each worker's pipe, kills a worker
// whose test overruns --timeout-ms, and restarts a worker after the test that
// killed it.
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cli_common.h"
#include "cts_api.h"
#include "cts_check.h"
#include "cts_exec.h"
#include "cts_spec.h"

namespace {

using cts::api;
using cts::Mode;
using cts::Status;

struct Options {
    std::vector<std::string> paths;
    bool hasFilter = false;
    std::string filterText;
    std::regex filter;
    std::string device;
    std::string slPath;  // nnapi-cts-sl: the Support Library to load
    Mode mode = Mode::Sync;
    std::string report;
    std::string expected;
    bool updateExpected = false;
    bool verbose = false;
    bool quietRuntime = false;
    bool noFork = false;
    bool listDevices = false;
    bool strictFailures = false;
    bool progress = true;  // the progress line on stderr when it is a terminal
    int jobs = 1;
    long timeoutMs = 20000;
    long long featureLevelOverride = 0;  // 0: use what the device/runtime claims
};

void usage(FILE* out) {
    std::fprintf(out,
                 "usage: %s [options] PATH...\n"
                 "  PATH                 a spec .json file or a directory (searched recursively for *.json)\n"
                 "  --filter REGEX       run only tests whose name matches REGEX (ECMAScript, searched)\n"
                 "  --sl PATH            nnapi-cts-sl only (required there): the NNAPI Support Library to test,\n"
                 "                       reached only through ANeuralNetworks_getSLDriverImpl\n"
                 "  --device NAME        compile for this device only (createForDevices); skips use its feature level\n"
                 "  --mode MODE          sync (default) | async | dynamic | burst | fenced\n"
                 "  --report FILE        write per-test results as JSON\n"
                 "  --expected FILE      expected-pass list: exit 1 if a listed test does not pass\n"
                 "  --update-expected    add newly passing tests to the --expected file\n"
                 "  --timeout-ms N       per-test wall clock limit (default 20000)\n"
                 "  --feature-level N    gate skips on level N instead of the claimed one (development aid;\n"
                 "                       e.g. 29 runs V1_2 tests on a runtime that still claims 28)\n"
                 "  -j, --jobs N         worker processes (default 1)\n"
                 "  -v, --verbose        print a line for every test\n"
                 "  -q, --quiet-runtime  discard the runtime's stderr output\n"
                 "  --strict-failures    expectFailure tests must fail where upstream CTS expects (model building,\n"
                 "                       Compilation_finish or the computation), not in Model_finish/setInput/...\n"
                 "  --no-fork            run everything in this process (debugging; no crash guard)\n"
                 "  --list-devices       print the devices and exit\n"
                 "  --no-progress        no progress line (it is shown on stderr only when stderr is a terminal:\n"
                 "                       files done of all, tests passed/failed/skipped so far, elapsed time)\n"
                 "  -h, --help           print this help and exit\n"
                 "  --version            print the version and exit\n"
                 "\n"
                 "exit status:\n"
                 "  0  the run completed (failing tests alone do not change this without --expected)\n"
                 "     and no test of the --expected list failed or was skipped\n"
                 "  1  a test of the --expected list failed or was skipped, the run could not complete\n"
                 "     (a worker could not be started or died during setup), or the --expected list could\n"
                 "     not be updated\n"
                 "  2  bad usage: an unknown option or bad value, no PATH or a missing one, an unreadable\n"
                 "     --expected list, an unknown --device, or (nnapi-cts-sl) no loadable --sl library\n",
                 cts::toolName());
}

bool parseArgs(int argc, char** argv, Options* o) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&](std::string* out) {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "nnapi-cts: %s needs a value\n", a.c_str());
                return false;
            }
            *out = argv[++i];
            return true;
        };
        std::string v;
        if (a == "--filter") {
            if (!value(&o->filterText)) return false;
            try {
                o->filter = std::regex(o->filterText, std::regex::ECMAScript | std::regex::optimize);
            } catch (const std::regex_error& e) {
                std::fprintf(stderr, "nnapi-cts: bad --filter regex: %s\n", e.what());
                return false;
            }
            o->hasFilter = true;
        } else if (a == "--device") {
            if (!value(&o->device)) return false;
        } else if (a == "--sl") {
            if (!value(&o->slPath)) return false;
        } else if (a == "--mode") {
            if (!value(&v)) return false;
            if (!cts::parseMode(v, &o->mode)) {
                std::fprintf(stderr, "nnapi-cts: unknown mode '%s'\n", v.c_str());
                return false;
            }
        } else if (a == "--report") {
            if (!value(&o->report)) return false;
        } else if (a == "--expected") {
            if (!value(&o->expected)) return false;
        } else if (a == "--update-expected") {
            o->updateExpected = true;
        } else if (a == "--timeout-ms") {
            if (!value(&v)) return false;
            char* end = nullptr;
            o->timeoutMs = std::strtol(v.c_str(), &end, 10);
            if (*end || o->timeoutMs <= 0) {
                std::fprintf(stderr, "nnapi-cts: bad --timeout-ms\n");
                return false;
            }
        } else if (a == "--feature-level") {
            if (!value(&v)) return false;
            char* end = nullptr;
            o->featureLevelOverride = std::strtoll(v.c_str(), &end, 10);
            if (*end || o->featureLevelOverride <= 0) {
                std::fprintf(stderr, "nnapi-cts: bad --feature-level\n");
                return false;
            }
        } else if (a == "-j" || a == "--jobs" || (a.size() > 2 && a.compare(0, 2, "-j") == 0)) {
            if (a.size() > 2 && a[1] == 'j') v = a.substr(2);
            else if (!value(&v)) return false;
            o->jobs = std::atoi(v.c_str());
            if (o->jobs < 1 || o->jobs > 256) {
                std::fprintf(stderr, "nnapi-cts: bad --jobs\n");
                return false;
            }
        } else if (a == "-v" || a == "--verbose") {
            o->verbose = true;
        } else if (a == "-q" || a == "--quiet-runtime") {
            o->quietRuntime = true;
        } else if (a == "--strict-failures") {
            o->strictFailures = true;
        } else if (a == "--no-fork") {
            o->noFork = true;
        } else if (a == "--list-devices") {
            o->listDevices = true;
        } else if (a == "--no-progress") {
            o->progress = false;
        } else if (a == "-h" || a == "--help") {
            usage(stdout);
            std::exit(0);
        } else if (a == "--version") {
            nnapi_cli::PrintVersion(cts::toolName());
            std::exit(0);
        } else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "nnapi-cts: unknown option %s\n", a.c_str());
            return false;
        } else {
            o->paths.push_back(a);
        }
    }
    if (o->updateExpected && o->expected.empty()) {
        std::fprintf(stderr, "nnapi-cts: --update-expected needs --expected FILE\n");
        return false;
    }
    if (o->updateExpected && o->featureLevelOverride > 0) {
        // The lists must hold tests that pass under the level the runtime claims;
        // tests run only because of the override would be skipped (= regress) later.
        std::fprintf(stderr, "nnapi-cts: --update-expected cannot be combined with --feature-level\n");
        return false;
    }
    if (o->paths.empty() && !o->listDevices) {
        std::fprintf(stderr, "nnapi-cts: no PATH given\n");
        return false;
    }
    return true;
}

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void collectDir(const std::string& dir, std::vector<std::string>* out) {
    DIR* d = opendir(dir.c_str());
    if (!d) return;
    std::vector<std::string> entries;
    while (dirent* e = readdir(d)) {
        std::string n = e->d_name;
        if (n == "." || n == "..") continue;
        entries.push_back(n);
    }
    closedir(d);
    std::sort(entries.begin(), entries.end());
    for (const std::string& n : entries) {
        std::string p = dir + "/" + n;
        struct stat st;
        if (stat(p.c_str(), &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) collectDir(p, out);
        else if (S_ISREG(st.st_mode) && endsWith(n, ".json")) out->push_back(p);
    }
}

bool collectFiles(const std::vector<std::string>& paths, std::vector<std::string>* out) {
    for (std::string p : paths) {
        while (p.size() > 1 && p.back() == '/') p.pop_back();
        struct stat st;
        if (stat(p.c_str(), &st) != 0) {
            std::fprintf(stderr, "nnapi-cts: %s: %s\n", p.c_str(), std::strerror(errno));
            return false;
        }
        if (S_ISDIR(st.st_mode)) collectDir(p, out);
        else out->push_back(p);
    }
    return true;
}

std::string sanitize(const std::string& s) {
    std::string r = s;
    for (char& c : r)
        if (c == '\t' || c == '\n' || c == '\r') c = ' ';
    return r;
}

double nowMs() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// ---------------------------------------------------------------------------
// Worker side. Records (one per line, tab-separated):
//   I <text>                      device / feature level information
//   U <text>                      fatal configuration error (e.g. unknown device)
//   F <pos>                       starting shard file number <pos>
//   X <message>                   the current file could not be loaded
//   B <test> <version> <name>     test number <test> of the current file starts
//   E <status> <ms> <message> <n> the started test ended (status p/f/s) on n devices
//   D                             shard finished
// ---------------------------------------------------------------------------

using Emit = std::function<void(const std::string&)>;

struct WorkerSetup {
    cts::RunConfig config;
    std::string info;
    std::string error;
};

WorkerSetup setupWorker(const Options& opt) {
    WorkerSetup s;
    s.config.mode = opt.mode;
    s.config.strictExpectedFailures = opt.strictFailures;
    if (!opt.device.empty()) {
        uint32_t n = 0;
        int rc = api().ANeuralNetworks_getDeviceCount(&n);
        if (rc != ANEURALNETWORKS_NO_ERROR) {
            s.error = std::string("ANeuralNetworks_getDeviceCount -> ") + api().resultCodeName(rc);
            return s;
        }
        std::string names;
        for (uint32_t i = 0; i < n; ++i) {
            ANeuralNetworksDevice* d = nullptr;
            const char* name = nullptr;
            if (api().ANeuralNetworks_getDevice(i, &d) != ANEURALNETWORKS_NO_ERROR || !d) continue;
            if (api().ANeuralNetworksDevice_getName(d, &name) != ANEURALNETWORKS_NO_ERROR || !name) continue;
            if (!names.empty()) names += ", ";
            names += name;
            if (opt.device == name) {
                s.config.device = d;
                int64_t level = 0;
                rc = api().ANeuralNetworksDevice_getFeatureLevel(d, &level);
                if (rc != ANEURALNETWORKS_NO_ERROR) {
                    s.error = std::string("ANeuralNetworksDevice_getFeatureLevel -> ") + api().resultCodeName(rc);
                    return s;
                }
                s.config.featureLevel = level;
            }
        }
        if (!s.config.device) {
            s.error = "no device named '" + opt.device + "' (devices: " + (names.empty() ? "none" : names) + ")";
            return s;
        }
        s.info = "device " + opt.device + ", feature level " + std::to_string(s.config.featureLevel);
    } else {
        s.config.featureLevel = api().ANeuralNetworks_getRuntimeFeatureLevel();
        s.info = "runtime feature level " + std::to_string(s.config.featureLevel);
    }
    if (opt.featureLevelOverride > 0) {
        s.config.featureLevel = opt.featureLevelOverride;
        s.info += " (tests gated on --feature-level " + std::to_string(opt.featureLevelOverride) + ")";
    }
    s.info += ", mode " + std::string(cts::modeName(opt.mode)) + ", via " + api().origin;
    return s;
}

void runShard(const Options& opt, const std::vector<std::string>& files, const std::vector<size_t>& shard,
              size_t startPos, size_t startTest, const Emit& emit) {
    WorkerSetup setup = setupWorker(opt);
    if (!setup.error.empty()) {
        emit("U\t" + sanitize(setup.error));
        return;
    }
    emit("I\t" + setup.info);
    for (size_t pos = startPos; pos < shard.size(); ++pos) {
        emit("F\t" + std::to_string(pos));
        cts::SpecFile spec;
        std::string err;
        if (!cts::loadSpecFile(files[shard[pos]], &spec, &err)) {
            emit("X\t" + sanitize(err));
            continue;
        }
        for (size_t t = (pos == startPos ? startTest : 0); t < spec.tests.size(); ++t) {
            const cts::Test& test = spec.tests[t];
            if (opt.hasFilter && !std::regex_search(test.name, opt.filter)) continue;
            emit("B\t" + std::to_string(t) + "\t" + sanitize(spec.version) + "\t" + sanitize(test.name));
            double t0 = nowMs();
            cts::TestResult r = cts::runTest(test, setup.config);
            char ms[32];
            std::snprintf(ms, sizeof ms, "%.3f", nowMs() - t0);
            const char* st = r.status == Status::Pass ? "p" : r.status == Status::Skip ? "s" : "f";
            emit(std::string("E\t") + st + "\t" + ms + "\t" + sanitize(r.message) + "\t" +
                 std::to_string(r.devices));
        }
    }
    emit("D");
}

// ---------------------------------------------------------------------------
// Parent side.
// ---------------------------------------------------------------------------

struct Record {
    std::string name;
    std::string version;
    Status status = Status::Fail;
    std::string message;
    double ms = 0;
    size_t fileIndex = 0;  // for a deterministic report order with several workers
    size_t testIndex = 0;
    int devices = 0;  // distinct devices its compilation ran on
};

struct Shard {
    std::vector<size_t> files;  // indexes into the global file list
    // Where the next worker starts.
    size_t nextPos = 0;
    size_t nextTest = 0;
    bool done = false;
    // Live worker.
    pid_t pid = -1;
    int fd = -1;
    std::string buffer;
    bool sawDone = false;
    bool started = false;  // the worker got through setup
    long curPos = -1;
    bool inTest = false;
    size_t curTest = 0;
    std::string curName, curVersion;
    // --quiet-runtime: the worker's stdout/stderr go to this unlinked temporary file instead of
    // the terminal, so a worker that dies (a sanitizer report, an abort message) can still be
    // explained from its last lines.
    int quietFd = -1;
    double deadline = 0;  // ms, monotonic
};

std::vector<std::string> splitTabs(const std::string& line) {
    std::vector<std::string> f;
    size_t start = 0;
    for (;;) {
        size_t t = line.find('\t', start);
        if (t == std::string::npos) {
            f.push_back(line.substr(start));
            return f;
        }
        f.push_back(line.substr(start, t - start));
        start = t + 1;
    }
}

class Runner {
public:
    explicit Runner(Options opt) : opt_(std::move(opt)), progress_(opt_.progress) {}

    int run();

private:
    Options opt_;
    std::vector<std::string> files_;
    std::vector<Shard> shards_;
    std::vector<Record> records_;
    std::string info_;
    std::string fatal_;
    bool fatalIsUsage_ = false;  // fatal_ is a configuration error (exit 2), e.g. an unknown --device
    nnapi_cli::TerminalProgress progress_;
    size_t passed_ = 0, failed_ = 0, skipped_ = 0;

    // "files 12/495, tests 345: 340 passed, 3 failed, 2 skipped, 0:42" on a terminal.
    void showProgress() {
        if (!progress_.active()) return;
        size_t filesDone = 0;
        for (const Shard& s : shards_) filesDone += s.done ? s.files.size() : static_cast<size_t>(std::max(s.curPos, 0L));
        char line[200];
        std::snprintf(line, sizeof line, "%s: files %zu/%zu, tests %zu: %zu passed, %zu failed, %zu skipped, %s",
                      cts::toolName(), filesDone, files_.size(), passed_ + failed_ + skipped_, passed_, failed_,
                      skipped_, nnapi_cli::FormatElapsed(progress_.Elapsed()).c_str());
        progress_.Show(line);
    }

    void addRecord(Record r) {
        const char* tag = r.status == Status::Pass ? "PASS" : r.status == Status::Skip ? "SKIP" : "FAIL";
        ++(r.status == Status::Pass ? passed_ : r.status == Status::Skip ? skipped_ : failed_);
        if (r.status == Status::Fail || opt_.verbose) {
            progress_.Clear();
            if (r.status == Status::Pass)
                std::printf("%s [%s] %s (%.1f ms)%s%s\n", tag, r.version.c_str(), r.name.c_str(), r.ms,
                            r.message.empty() ? "" : ": ", r.message.c_str());
            else
                std::printf("%s [%s] %s: %s\n", tag, r.version.c_str(), r.name.c_str(), r.message.c_str());
            std::fflush(stdout);
        }
        records_.push_back(std::move(r));
        showProgress();
    }

    std::string fileVersion(size_t fileIndex) const {
        // The directory name is the version for files that could not be parsed.
        const std::string& p = files_[fileIndex];
        size_t slash = p.rfind('/');
        if (slash == std::string::npos || slash == 0) return "?";
        size_t prev = p.rfind('/', slash - 1);
        return p.substr(prev == std::string::npos ? 0 : prev + 1, slash - (prev == std::string::npos ? 0 : prev + 1));
    }

    void handleLine(Shard& s, const std::string& line) {
        std::vector<std::string> f = splitTabs(line);
        const std::string& k = f[0];
        if (k == "I") {
            s.started = true;
            if (info_.empty() && f.size() > 1) {
                info_ = f[1];
                progress_.Clear();
                std::printf("nnapi-cts: %s\n", info_.c_str());
                std::fflush(stdout);
            }
        } else if (k == "U") {
            fatal_ = f.size() > 1 ? f[1] : "worker setup failed";
            fatalIsUsage_ = true;
        } else if (k == "F" && f.size() > 1) {
            s.curPos = std::atol(f[1].c_str());
            s.inTest = false;
            s.deadline = nowMs() + opt_.timeoutMs;
            showProgress();
        } else if (k == "X" && s.curPos >= 0) {
            Record r;
            r.fileIndex = s.files[s.curPos];
            r.name = files_[s.files[s.curPos]];
            r.version = fileVersion(s.files[s.curPos]);
            r.message = "cannot load: " + (f.size() > 1 ? f[1] : std::string());
            addRecord(std::move(r));
        } else if (k == "B" && f.size() > 3) {
            s.inTest = true;
            s.curTest = std::strtoul(f[1].c_str(), nullptr, 10);
            s.curVersion = f[2];
            s.curName = f[3];
            s.deadline = nowMs() + opt_.timeoutMs;
        } else if (k == "E" && f.size() > 3 && s.inTest) {
            Record r;
            r.name = s.curName;
            r.version = s.curVersion;
            r.status = f[1] == "p" ? Status::Pass : f[1] == "s" ? Status::Skip : Status::Fail;
            r.ms = std::atof(f[2].c_str());
            r.message = f[3];
            if (f.size() > 4) r.devices = std::atoi(f[4].c_str());
            r.fileIndex = s.curPos >= 0 ? s.files[s.curPos] : 0;
            r.testIndex = s.curTest;
            s.inTest = false;
            s.deadline = nowMs() + opt_.timeoutMs;
            addRecord(std::move(r));
        } else if (k == "D") {
            s.sawDone = true;
        }
    }

    void feed(Shard& s, const char* data, size_t n) {
        s.buffer.append(data, n);
        size_t start = 0;
        for (;;) {
            size_t nl = s.buffer.find('\n', start);
            if (nl == std::string::npos) break;
            handleLine(s, s.buffer.substr(start, nl - start));
            start = nl + 1;
        }
        s.buffer.erase(0, start);
    }

    // A fresh unlinked file for the next worker's quiet output (-1 when it cannot be made:
    // the output is then discarded as before).
    static int makeQuietSink() {
        char path[] = "/tmp/nnapi-cts-worker.XXXXXX";
        int fd = mkostemp(path, O_CLOEXEC);
        if (fd >= 0) unlink(path);
        return fd;
    }

    // The last lines the dead worker wrote to its quiet sink, one line, for the failure reason.
    static std::string quietTail(int fd) {
        if (fd < 0) return "";
        const off_t end = lseek(fd, 0, SEEK_END);
        if (end <= 0) return "";
        const off_t from = end > 600 ? end - 600 : 0;
        std::string text(static_cast<size_t>(end - from), '\0');
        const ssize_t n = pread(fd, &text[0], text.size(), from);
        if (n <= 0) return "";
        text.resize(static_cast<size_t>(n));
        for (char& c : text)
            if (c == '\n' || c == '\t' || c == '\r') c = ' ';
        return text;
    }

    bool launch(Shard& s) {
        if (opt_.quietRuntime) {
            if (s.quietFd >= 0) close(s.quietFd);
            s.quietFd = makeQuietSink();
        }
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) != 0) {
            fatal_ = std::string("pipe: ") + std::strerror(errno);
            return false;
        }
        std::fflush(stdout);
        std::fflush(stderr);
        pid_t pid = fork();
        if (pid < 0) {
            fatal_ = std::string("fork: ") + std::strerror(errno);
            close(fds[0]);
            close(fds[1]);
            return false;
        }
        if (pid == 0) {
            close(fds[0]);
            // Anything the runtime prints must not mix into the report on stdout.
            dup2(2, 1);
            if (opt_.quietRuntime) {
                int sink = s.quietFd >= 0 ? s.quietFd : open("/dev/null", O_WRONLY);
                if (sink >= 0) {
                    dup2(sink, 1);
                    dup2(sink, 2);
                    close(sink);
                }
            }
            int out = fds[1];
            Emit emit = [out](const std::string& line) {
                std::string l = line + "\n";
                const char* p = l.data();
                size_t left = l.size();
                while (left > 0) {
                    ssize_t w = write(out, p, left);
                    if (w < 0) {
                        if (errno == EINTR) continue;
                        _exit(3);
                    }
                    p += w;
                    left -= static_cast<size_t>(w);
                }
            };
            runShard(opt_, files_, s.files, s.nextPos, s.nextTest, emit);
            _exit(0);
        }
        close(fds[1]);
        s.pid = pid;
        s.fd = fds[0];
        s.buffer.clear();
        s.sawDone = false;
        s.started = false;
        s.curPos = -1;
        s.inTest = false;
        s.deadline = nowMs() + opt_.timeoutMs;
        return true;
    }

    // The worker is gone (EOF, or killed by us). Decide where to resume.
    void reap(Shard& s, bool killedForTimeout) {
        int status = 0;
        while (waitpid(s.pid, &status, 0) < 0 && errno == EINTR) {
        }
        close(s.fd);
        s.fd = -1;
        s.pid = -1;
        if (!s.buffer.empty()) {
            // A record without its newline cannot be trusted; drop it.
            s.buffer.clear();
        }
        if (s.sawDone) {
            s.done = true;
            return;
        }
        if (!fatal_.empty()) {
            s.done = true;
            return;
        }
        std::string why;
        if (killedForTimeout) {
            why = "timeout after " + std::to_string(opt_.timeoutMs) + " ms";
        } else if (WIFSIGNALED(status)) {
            int sig = WTERMSIG(status);
            why = "crashed (signal " + std::to_string(sig) + " " + strsignal(sig) + ")";
        } else if (WIFEXITED(status)) {
            why = "worker exited with status " + std::to_string(WEXITSTATUS(status)) + " mid-run";
        } else {
            why = "worker vanished";
        }
        const std::string tail = quietTail(s.quietFd);
        if (!tail.empty()) why += "; its last output: ..." + tail;
        if (!s.started) {
            // Setup itself died; restarting would only repeat it.
            fatal_ = "worker died during setup: " + why;
            s.done = true;
            return;
        }
        if (s.inTest) {
            Record r;
            r.fileIndex = s.files[s.curPos];
            r.testIndex = s.curTest;
            r.name = s.curName;
            r.version = s.curVersion;
            r.message = why;
            addRecord(std::move(r));
            s.nextPos = static_cast<size_t>(s.curPos);
            s.nextTest = s.curTest + 1;
        } else if (s.curPos >= 0) {
            Record r;
            r.fileIndex = s.files[s.curPos];
            r.name = files_[s.files[s.curPos]];
            r.version = fileVersion(s.files[s.curPos]);
            r.message = why + " outside a test";
            addRecord(std::move(r));
            s.nextPos = static_cast<size_t>(s.curPos) + 1;
            s.nextTest = 0;
        }
        if (s.nextPos >= s.files.size()) s.done = true;
    }

    void runForked();
    void runInProcess();
    int finish(double wallMs);
};

void Runner::runInProcess() {
    for (Shard& s : shards_) {
        s.curPos = -1;
        runShard(opt_, files_, s.files, 0, 0, [&](const std::string& line) { handleLine(s, line); });
        if (!fatal_.empty()) return;
    }
}

void Runner::runForked() {
    signal(SIGPIPE, SIG_IGN);
    for (;;) {
        std::vector<pollfd> pfds;
        std::vector<Shard*> owners;
        for (Shard& s : shards_) {
            if (s.done) continue;
            if (s.pid < 0 && !launch(s)) return;
            pfds.push_back({s.fd, POLLIN, 0});
            owners.push_back(&s);
        }
        if (pfds.empty()) return;
        double now = nowMs();
        double earliest = 1e300;
        for (Shard* s : owners) earliest = std::min(earliest, s->deadline);
        int waitMs = static_cast<int>(std::max(0.0, std::min(earliest - now, 1000.0)) + 1);
        int n = poll(pfds.data(), pfds.size(), waitMs);
        if (n < 0 && errno != EINTR) {
            fatal_ = std::string("poll: ") + std::strerror(errno);
            return;
        }
        showProgress();  // the elapsed time moves on while a long test runs
        for (size_t i = 0; i < pfds.size(); ++i) {
            Shard& s = *owners[i];
            if (pfds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
                char buf[65536];
                ssize_t r = read(s.fd, buf, sizeof buf);
                if (r > 0) {
                    feed(s, buf, static_cast<size_t>(r));
                } else if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN)) {
                    reap(s, false);
                    if (!fatal_.empty()) return;
                    continue;
                }
            }
            if (s.pid > 0 && nowMs() > s.deadline) {
                // A record may have arrived since poll returned; count it before judging.
                pollfd again{s.fd, POLLIN, 0};
                if (poll(&again, 1, 0) > 0 && (again.revents & POLLIN)) continue;
                kill(s.pid, SIGKILL);
                reap(s, true);
                if (!fatal_.empty()) return;
            }
        }
    }
}

void writeJsonString(FILE* f, const std::string& s) {
    std::fputc('"', f);
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            std::fputc('\\', f);
            std::fputc(c, f);
        } else if (c < 0x20) {
            std::fprintf(f, "\\u%04x", c);
        } else {
            std::fputc(c, f);
        }
    }
    std::fputc('"', f);
}

int Runner::run() {
    if (!collectFiles(opt_.paths, &files_)) return 2;
    if (files_.empty()) {
        std::fprintf(stderr, "nnapi-cts: no .json files found\n");
    }
    // Check the expected list up front so a typo fails before a long run.
    std::set<std::string> expected;
    if (!opt_.expected.empty()) {
        std::string err;
        if (!cts::readNameList(opt_.expected, &expected, &err)) {
            if (!opt_.updateExpected) {
                std::fprintf(stderr, "nnapi-cts: %s\n", err.c_str());
                return 2;
            }
        }
    }

    int jobs = std::min<int>(opt_.jobs, std::max<size_t>(files_.size(), 1));
    shards_.resize(jobs);
    // Largest files first, dealt round-robin, keeps shards roughly balanced.
    std::vector<size_t> order(files_.size());
    std::vector<off_t> sizes(files_.size(), 0);
    for (size_t i = 0; i < files_.size(); ++i) {
        order[i] = i;
        struct stat st;
        if (stat(files_[i].c_str(), &st) == 0) sizes[i] = st.st_size;
    }
    if (jobs > 1)
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return sizes[a] > sizes[b]; });
    for (size_t i = 0; i < order.size(); ++i) shards_[i % jobs].files.push_back(order[i]);
    for (Shard& s : shards_)
        if (s.files.empty()) s.done = true;

    double t0 = nowMs();
    showProgress();
    if (opt_.noFork) runInProcess();
    else runForked();
    progress_.Clear();  // the summary below replaces it
    if (!fatal_.empty()) {
        std::fprintf(stderr, "nnapi-cts: %s\n", fatal_.c_str());
        for (Shard& s : shards_)
            if (s.pid > 0) {
                kill(s.pid, SIGKILL);
                waitpid(s.pid, nullptr, 0);
            }
        return fatalIsUsage_ ? 2 : 1;
    }
    double wall = nowMs() - t0;
    std::stable_sort(records_.begin(), records_.end(), [](const Record& a, const Record& b) {
        return a.fileIndex != b.fileIndex ? a.fileIndex < b.fileIndex : a.testIndex < b.testIndex;
    });

    // ---- Summary per version directory ----
    static const char* kOrder[] = {"V1_0", "V1_1", "V1_2", "V1_3", "V1_3_cts_only", "AIDL_V2", "AIDL_V3",
                                   "experimental"};
    struct Count {
        size_t pass = 0, fail = 0, skip = 0;
    };
    std::map<std::string, Count> byVersion;
    Count total;
    for (const Record& r : records_) {
        Count& c = byVersion[r.version];
        if (r.status == Status::Pass) ++c.pass, ++total.pass;
        else if (r.status == Status::Skip) ++c.skip, ++total.skip;
        else ++c.fail, ++total.fail;
    }
    std::vector<std::string> versions;
    for (const char* v : kOrder)
        if (byVersion.count(v)) versions.push_back(v);
    for (const auto& kv : byVersion)
        if (std::find(versions.begin(), versions.end(), kv.first) == versions.end()) versions.push_back(kv.first);
    for (const std::string& v : versions) {
        const Count& c = byVersion[v];
        std::printf("%s: %zu passed, %zu failed, %zu skipped\n", v.c_str(), c.pass, c.fail, c.skip);
    }
    // Most common failure reasons, to see at a glance what blocks the most tests.
    std::map<std::string, size_t> reasons;
    for (const Record& r : records_) {
        if (r.status != Status::Fail) continue;
        std::string key = r.message;
        if (key.rfind("output ", 0) == 0) key = key.find(" shape:") != std::string::npos ? "wrong output shape"
                                                                                       : "wrong output values";
        else if (key.rfind("crashed", 0) == 0) key = "crashed";
        else if (key.rfind("timeout", 0) == 0) key = "timeout";
        ++reasons[key];
    }
    std::vector<std::pair<size_t, std::string>> top;
    for (const auto& kv : reasons) top.emplace_back(kv.second, kv.first);
    std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (size_t i = 0; i < top.size() && i < 8; ++i)
        std::printf("failure reason: %5zu x %s\n", top[i].first, top[i].second.c_str());
    std::printf("time: %.1f s (%s mode, %d job%s)\n", wall / 1000.0, cts::modeName(opt_.mode), jobs,
                jobs == 1 ? "" : "s");

    // ---- Report ----
    if (!opt_.report.empty()) {
        FILE* f = std::fopen(opt_.report.c_str(), "w");
        if (!f) {
            std::fprintf(stderr, "nnapi-cts: cannot write %s: %s\n", opt_.report.c_str(), std::strerror(errno));
        } else {
            std::fprintf(f, "{\"mode\":");
            writeJsonString(f, cts::modeName(opt_.mode));
            std::fprintf(f, ",\"device\":");
            writeJsonString(f, opt_.device);
            std::fprintf(f, ",\"info\":");
            writeJsonString(f, info_);
            std::fprintf(f, ",\"passed\":%zu,\"failed\":%zu,\"skipped\":%zu,\"tests\":[\n", total.pass, total.fail,
                         total.skip);
            for (size_t i = 0; i < records_.size(); ++i) {
                const Record& r = records_[i];
                std::fprintf(f, "{\"name\":");
                writeJsonString(f, r.name);
                std::fprintf(f, ",\"version\":");
                writeJsonString(f, r.version);
                std::fprintf(f, ",\"status\":\"%s\",\"ms\":%.3f,\"message\":",
                             r.status == Status::Pass ? "pass" : r.status == Status::Skip ? "skip" : "fail", r.ms);
                writeJsonString(f, r.message);
                std::fprintf(f, "}%s\n", i + 1 < records_.size() ? "," : "");
            }
            std::fprintf(f, "]}\n");
            std::fclose(f);
        }
    }

    // ---- Ratchet ----
    int exitCode = 0;
    if (!opt_.expected.empty()) {
        std::set<std::string> seen, passing;
        std::vector<const Record*> regressions;
        for (const Record& r : records_) {
            seen.insert(r.name);
            if (r.status == Status::Pass) passing.insert(r.name);
            else if (expected.count(r.name)) regressions.push_back(&r);
        }
        std::vector<std::string> newly;
        for (const std::string& n : passing)
            if (!expected.count(n)) newly.push_back(n);
        size_t notRun = 0;
        for (const std::string& n : expected)
            if (!seen.count(n) && (!opt_.hasFilter || std::regex_search(n, opt_.filter))) ++notRun;
        for (const Record* r : regressions)
            std::printf("REGRESSION %s: %s%s\n", r->name.c_str(), r->status == Status::Skip ? "skipped: " : "",
                        r->message.c_str());
        std::printf("expected-pass list %s: %zu listed, %zu regressed, %zu listed but not run\n",
                    opt_.expected.c_str(), expected.size(), regressions.size(), notRun);
        std::printf("newly passing (not yet in list): %zu\n", newly.size());
        if (opt_.updateExpected) {
            std::set<std::string> merged = expected;
            merged.insert(newly.begin(), newly.end());
            std::string err;
            if (!cts::writeNameList(opt_.expected, merged, &err)) {
                std::fprintf(stderr, "nnapi-cts: %s\n", err.c_str());
                exitCode = 1;
            } else {
                std::printf("updated %s: %zu names\n", opt_.expected.c_str(), merged.size());
            }
        } else {
            for (const std::string& n : newly) std::printf("  %s\n", n.c_str());
        }
        if (!regressions.empty() && exitCode == 0) exitCode = 1;
    }

    // Without --device the runtime chooses (Compilation_create) and may split a model.
    size_t multiDevice = 0;
    for (const Record& r : records_) multiDevice += r.devices > 1;
    if (opt_.device.empty() || multiDevice > 0)
        std::printf("multi-device: %zu test(s) ran on more than one device\n", multiDevice);
    std::printf("%zu passed, %zu failed, %zu skipped\n", total.pass, total.fail, total.skip);
    std::fflush(stdout);
    return exitCode;
}

int listDevices() {
    uint32_t n = 0;
    int rc = api().ANeuralNetworks_getDeviceCount(&n);
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        std::fprintf(stderr, "nnapi-cts: ANeuralNetworks_getDeviceCount -> %s\n", api().resultCodeName(rc));
        return 1;
    }
    std::printf("runtime feature level %lld, %u device(s)\n",
                static_cast<long long>(api().ANeuralNetworks_getRuntimeFeatureLevel()), n);
    for (uint32_t i = 0; i < n; ++i) {
        ANeuralNetworksDevice* d = nullptr;
        const char* name = "?";
        int64_t level = 0;
        if (api().ANeuralNetworks_getDevice(i, &d) != ANEURALNETWORKS_NO_ERROR || !d) continue;
        api().ANeuralNetworksDevice_getName(d, &name);
        api().ANeuralNetworksDevice_getFeatureLevel(d, &level);
        std::printf("  %u: %s (feature level %lld)\n", i, name ? name : "?", static_cast<long long>(level));
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    if (!parseArgs(argc, argv, &opt)) {
        usage(stderr);
        return 2;
    }
    // Before any worker forks: the workers inherit the loaded library and the table.
    std::string apiError;
    if (!cts::installApi(opt.slPath, &apiError)) {
        std::fprintf(stderr, "nnapi-cts: %s\n", apiError.c_str());
        return 2;
    }
    if (opt.listDevices) return listDevices();
    Runner runner(std::move(opt));
    return runner.run();
}
