// Runs one conformance test through the public NNAPI C API.
#ifndef NNAPI_TOOLS_CTS_CTS_EXEC_H
#define NNAPI_TOOLS_CTS_CTS_EXEC_H

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <string>

#include "cts_spec.h"

namespace cts {

enum class Mode { Sync, Async, Dynamic, Burst, Fenced };

bool parseMode(const std::string& s, Mode* mode);
const char* modeName(Mode mode);

enum class Status { Pass, Fail, Skip };

struct TestResult {
    Status status = Status::Fail;
    std::string message;
    // Distinct devices the finished compilation runs on (ANNLinux_Compilation_getStepDevice);
    // more than 1 when the runtime split the model; 0 when compilation did not finish.
    int devices = 0;
};

struct RunConfig {
    Mode mode = Mode::Sync;
    // Device under test; nullptr means "let the runtime choose" (Compilation_create).
    const ANeuralNetworksDevice* device = nullptr;
    // Feature level the tests are gated on (device's, or the runtime's).
    int64_t featureLevel = 0;
    // Loop timeout for the never-ending WHILE tests (ns).
    uint64_t infiniteLoopTimeoutNs = 100ull * 1000 * 1000;
    // expectFailure tests: by default any failing step passes them (FORMAT.md's
    // simple rule). Strict mode applies the upstream CTS placement rules:
    // Model_finish, Execution_create and setInput/setOutput must then succeed.
    bool strictExpectedFailures = false;
};

TestResult runTest(const Test& test, const RunConfig& config);

}  // namespace cts

#endif  // NNAPI_TOOLS_CTS_CTS_EXEC_H
