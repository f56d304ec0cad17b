#include "cts_exec.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "cts_api.h"
#include "cts_check.h"

namespace cts {

bool parseMode(const std::string& s, Mode* mode) {
    if (s == "sync") *mode = Mode::Sync;
    else if (s == "async") *mode = Mode::Async;
    else if (s == "dynamic") *mode = Mode::Dynamic;
    else if (s == "burst") *mode = Mode::Burst;
    else if (s == "fenced") *mode = Mode::Fenced;
    else return false;
    return true;
}

const char* modeName(Mode mode) {
    switch (mode) {
        case Mode::Sync: return "sync";
        case Mode::Async: return "async";
        case Mode::Dynamic: return "dynamic";
        case Mode::Burst: return "burst";
        case Mode::Fenced: return "fenced";
    }
    return "?";
}

namespace {

// Owns every NNAPI object and buffer of one test run; frees them in dependency
// order (executions/bursts before their compilation, compilation before the
// models, models before the memory holding their constants).
struct TestContext {
    std::vector<ANeuralNetworksModel*> models;  // main first, then referenced ones as built
    ANeuralNetworksCompilation* compilation = nullptr;
    ANeuralNetworksBurst* burst = nullptr;
    ANeuralNetworksExecution* execution = nullptr;
    ANeuralNetworksEvent* event = nullptr;
    ANeuralNetworksMemory* memory = nullptr;
    int fd = -1;
    void* mapping = nullptr;
    size_t mappingSize = 0;

    // Where each CONSTANT_REFERENCE operand lives in the shared region:
    // constantOffsets[0] = main, [k + 1] = referenced[k].
    std::vector<std::vector<size_t>> constantOffsets;
    std::vector<ANeuralNetworksModel*> refModels;  // by referenced index, nullptr until built
    std::vector<uint8_t> refBuilding;              // cycle guard
    std::vector<std::vector<uint8_t>> outputs;

    // First failing step.
    std::string failedStep;
    int failedCode = ANEURALNETWORKS_NO_ERROR;

    ~TestContext() {
        if (event) api().ANeuralNetworksEvent_free(event);
        if (execution) api().ANeuralNetworksExecution_free(execution);
        if (burst) api().ANeuralNetworksBurst_free(burst);
        if (compilation) api().ANeuralNetworksCompilation_free(compilation);
        for (ANeuralNetworksModel* m : models) api().ANeuralNetworksModel_free(m);
        if (memory) api().ANeuralNetworksMemory_free(memory);
        if (mapping) munmap(mapping, mappingSize);
        if (fd >= 0) close(fd);
    }

    bool check(const char* step, int rc) {
        if (rc == ANEURALNETWORKS_NO_ERROR) return true;
        failedStep = step;
        failedCode = rc;
        return false;
    }

    std::string failure() const { return failedStep + " -> " + api().resultCodeName(failedCode); }
};

std::vector<const ANeuralNetworksDevice*> allDevices() {
    std::vector<const ANeuralNetworksDevice*> devices;
    uint32_t n = 0;
    if (api().ANeuralNetworks_getDeviceCount(&n) != ANEURALNETWORKS_NO_ERROR) return devices;
    for (uint32_t i = 0; i < n; ++i) {
        ANeuralNetworksDevice* d = nullptr;
        if (api().ANeuralNetworks_getDevice(i, &d) == ANEURALNETWORKS_NO_ERROR && d) devices.push_back(d);
    }
    return devices;
}

bool isInfiniteLoopTest(const Test& t) { return t.name.rfind("while_infinite_loop", 0) == 0; }

// Lays out all CONSTANT_REFERENCE operands of the test (main and referenced
// subgraphs) in one memfd-backed region at 4-byte aligned offsets, as upstream
// does with its shared memory pool.
bool createConstantMemory(const Test& test, TestContext* ctx, std::string* error) {
    size_t total = 0;
    auto layout = [&](const Subgraph& sg, std::vector<size_t>* offsets) {
        offsets->assign(sg.operands.size(), 0);
        for (size_t i = 0; i < sg.operands.size(); ++i) {
            const Operand& op = sg.operands[i];
            if (op.lifetime != Lifetime::ConstantReference) continue;
            total = (total + 3) & ~size_t(3);
            (*offsets)[i] = total;
            total += op.bytes.size();
        }
    };
    bool any = false;
    auto hasRef = [](const Subgraph& sg) {
        for (const Operand& op : sg.operands)
            if (op.lifetime == Lifetime::ConstantReference) return true;
        return false;
    };
    any = hasRef(test.main);
    for (const Subgraph& sg : test.referenced) any = any || hasRef(sg);
    ctx->constantOffsets.resize(1 + test.referenced.size());
    if (!any) return true;
    layout(test.main, &ctx->constantOffsets[0]);
    for (size_t k = 0; k < test.referenced.size(); ++k) layout(test.referenced[k], &ctx->constantOffsets[k + 1]);
    size_t size = total == 0 ? 4 : total;

    ctx->fd = memfd_create("nnapi-cts-constants", MFD_CLOEXEC);
    if (ctx->fd < 0) {
        *error = std::string("memfd_create: ") + std::strerror(errno);
        return false;
    }
    if (ftruncate(ctx->fd, static_cast<off_t>(size)) != 0) {
        *error = std::string("ftruncate: ") + std::strerror(errno);
        return false;
    }
    ctx->mapping = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, ctx->fd, 0);
    if (ctx->mapping == MAP_FAILED) {
        ctx->mapping = nullptr;
        *error = std::string("mmap: ") + std::strerror(errno);
        return false;
    }
    ctx->mappingSize = size;
    auto fill = [&](const Subgraph& sg, const std::vector<size_t>& offsets) {
        for (size_t i = 0; i < sg.operands.size(); ++i) {
            const Operand& op = sg.operands[i];
            if (op.lifetime == Lifetime::ConstantReference && !op.bytes.empty())
                std::memcpy(static_cast<uint8_t*>(ctx->mapping) + offsets[i], op.bytes.data(), op.bytes.size());
        }
    };
    fill(test.main, ctx->constantOffsets[0]);
    for (size_t k = 0; k < test.referenced.size(); ++k) fill(test.referenced[k], ctx->constantOffsets[k + 1]);
    return true;
}

// Builds one subgraph into a finished (referenced) or unfinished-until-caller
// (main) model. `sgIndex` is 0 for main, k + 1 for referenced[k].
bool buildModel(const Test& test, size_t sgIndex, bool dynamicOutputs, TestContext* ctx,
                ANeuralNetworksModel** out);

bool buildReferenced(const Test& test, uint32_t k, TestContext* ctx, ANeuralNetworksModel** out) {
    if (ctx->refModels[k]) {
        *out = ctx->refModels[k];
        return true;
    }
    if (ctx->refBuilding[k]) {
        // A subgraph that (indirectly) contains itself cannot be expressed with
        // finished models; report it like a failed model call.
        ctx->failedStep = "referenced subgraph " + std::to_string(k) + " refers to itself";
        ctx->failedCode = ANEURALNETWORKS_BAD_DATA;
        return false;
    }
    ctx->refBuilding[k] = 1;
    ANeuralNetworksModel* m = nullptr;
    if (!buildModel(test, k + 1, false, ctx, &m)) return false;
    if (!ctx->check("Model_finish(referenced)", api().ANeuralNetworksModel_finish(m))) return false;
    ctx->refModels[k] = m;
    ctx->refBuilding[k] = 0;
    *out = m;
    return true;
}

bool buildModel(const Test& test, size_t sgIndex, bool dynamicOutputs, TestContext* ctx,
                ANeuralNetworksModel** out) {
    const Subgraph& sg = sgIndex == 0 ? test.main : test.referenced[sgIndex - 1];
    ANeuralNetworksModel* model = nullptr;
    if (!ctx->check("Model_create", api().ANeuralNetworksModel_create(&model))) return false;
    ctx->models.push_back(model);

    std::vector<uint8_t> isModelOutput(sg.operands.size(), 0);
    for (uint32_t idx : sg.outputIndexes) isModelOutput[idx] = 1;

    std::vector<uint32_t> zeros;
    for (size_t i = 0; i < sg.operands.size(); ++i) {
        const Operand& op = sg.operands[i];
        ANeuralNetworksOperandType type;
        type.type = op.type;
        type.dimensionCount = static_cast<uint32_t>(op.dimensions.size());
        type.dimensions = op.dimensions.empty() ? nullptr : op.dimensions.data();
        type.scale = op.scale;
        type.zeroPoint = op.zeroPoint;
        if (dynamicOutputs && isModelOutput[i] && !op.dimensions.empty()) {
            zeros.assign(op.dimensions.size(), 0);
            type.dimensions = zeros.data();
        }
        if (!ctx->check("Model_addOperand", api().ANeuralNetworksModel_addOperand(model, &type))) return false;
        int32_t index = static_cast<int32_t>(i);
        if (op.hasChannelQuant) {
            ANeuralNetworksSymmPerChannelQuantParams params;
            params.channelDim = op.channelDim;
            params.scaleCount = static_cast<uint32_t>(op.channelScales.size());
            params.scales = op.channelScales.data();
            if (!ctx->check("Model_setOperandSymmPerChannelQuantParams",
                            api().ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model, index, &params)))
                return false;
        }
        switch (op.lifetime) {
            case Lifetime::ConstantCopy:
                // Test keeps op.bytes alive for the whole run, as large values are referenced.
                if (!ctx->check("Model_setOperandValue",
                                api().ANeuralNetworksModel_setOperandValue(model, index,
                                                                     op.bytes.empty() ? nullptr : op.bytes.data(),
                                                                     op.bytes.size())))
                    return false;
                break;
            case Lifetime::ConstantReference:
                if (!ctx->check("Model_setOperandValueFromMemory",
                                api().ANeuralNetworksModel_setOperandValueFromMemory(
                                    model, index, ctx->memory, ctx->constantOffsets[sgIndex][i], op.bytes.size())))
                    return false;
                break;
            case Lifetime::NoValue:
                if (!ctx->check("Model_setOperandValue(NO_VALUE)",
                                api().ANeuralNetworksModel_setOperandValue(model, index, nullptr, 0)))
                    return false;
                break;
            case Lifetime::Subgraph: {
                ANeuralNetworksModel* ref = nullptr;
                if (!buildReferenced(test, op.subgraphIndex, ctx, &ref)) return false;
                if (!ctx->check("Model_setOperandValueFromModel",
                                api().ANeuralNetworksModel_setOperandValueFromModel(model, index, ref)))
                    return false;
                break;
            }
            default:
                break;
        }
    }
    for (const Operation& op : sg.operations) {
        if (!ctx->check("Model_addOperation",
                        api().ANeuralNetworksModel_addOperation(model, op.type, static_cast<uint32_t>(op.inputs.size()),
                                                          op.inputs.data(), static_cast<uint32_t>(op.outputs.size()),
                                                          op.outputs.data()))) {
            ctx->failedStep += "(" + op.typeName + ")";
            return false;
        }
    }
    if (!ctx->check("Model_identifyInputsAndOutputs",
                    api().ANeuralNetworksModel_identifyInputsAndOutputs(
                        model, static_cast<uint32_t>(sg.inputIndexes.size()), sg.inputIndexes.data(),
                        static_cast<uint32_t>(sg.outputIndexes.size()), sg.outputIndexes.data())))
        return false;
    *out = model;
    return true;
}

// Names the main-model operation types a device rejects, to make compilation
// failures actionable. Empty when that cannot be determined.
std::string unsupportedOperations(const Test& test, ANeuralNetworksModel* model, const RunConfig& cfg) {
    std::vector<const ANeuralNetworksDevice*> devices;
    if (cfg.device) devices.push_back(cfg.device);
    else devices = allDevices();
    if (devices.empty() || test.main.operations.empty()) return "";
    std::unique_ptr<bool[]> supported(new bool[test.main.operations.size()]());
    if (api().ANeuralNetworksModel_getSupportedOperationsForDevices(model, devices.data(),
                                                              static_cast<uint32_t>(devices.size()),
                                                              supported.get()) != ANEURALNETWORKS_NO_ERROR)
        return "";
    std::string list;
    for (size_t i = 0; i < test.main.operations.size(); ++i) {
        if (supported[i]) continue;
        const std::string& n = test.main.operations[i].typeName;
        if (list.find(n) != std::string::npos) continue;
        if (!list.empty()) list += ",";
        list += n;
    }
    return list.empty() ? "" : " (unsupported: " + list + ")";
}

TestResult fail(std::string msg) { return TestResult{Status::Fail, std::move(msg)}; }
TestResult pass(std::string msg = "") { return TestResult{Status::Pass, std::move(msg)}; }

// Steps that upstream requires to succeed even for an invalid model: the error
// must show up while building the model, compiling or computing.
bool mustSucceedForInvalidModel(const std::string& step) {
    return step.rfind("Model_finish", 0) == 0 || step.rfind("Compilation_create", 0) == 0 ||
           step.rfind("Execution_create", 0) == 0 || step.rfind("Execution_setInput", 0) == 0 ||
           step.rfind("Execution_setOutput", 0) == 0 || step.rfind("Memory_", 0) == 0;
}

// Outcome when a step returned an error.
TestResult stepFailed(const Test& test, const TestContext& ctx, const RunConfig& cfg, const std::string& extra = "") {
    // The never-ending WHILE models are valid: only the computation may fail.
    if (isInfiniteLoopTest(test))
        return fail(ctx.failure() + extra + " (expected MISSED_DEADLINE_* from the computation)");
    if (test.expectFailure) {
        if (cfg.strictExpectedFailures && mustSucceedForInvalidModel(ctx.failedStep))
            return fail(ctx.failure() + " (invalid model: the error must come from model building, "
                                        "Compilation_finish or the computation)");
        return pass("expected failure: " + ctx.failure());
    }
    return fail(ctx.failure() + extra);
}

bool readAsFloats(const Operand& op, std::vector<float>* out) {
    out->resize(op.elementCount);
    for (size_t i = 0; i < op.elementCount; ++i) {
        if (op.type == ANEURALNETWORKS_TENSOR_FLOAT32) {
            std::memcpy(&(*out)[i], op.bytes.data() + 4 * i, 4);
        } else if (op.type == ANEURALNETWORKS_TENSOR_FLOAT16) {
            uint16_t h;
            std::memcpy(&h, op.bytes.data() + 2 * i, 2);
            (*out)[i] = halfToFloat(h);
        } else {
            return false;
        }
    }
    return true;
}

}  // namespace

// How many distinct devices a finished compilation runs on (its partitioning plan).
int countDevices(const ANeuralNetworksCompilation* compilation) {
    uint32_t steps = 0;
    if (api().getStepCount == nullptr || api().getStepDevice == nullptr) return 0;
    if (api().getStepCount(compilation, &steps) != ANEURALNETWORKS_NO_ERROR) return 0;
    std::vector<const ANeuralNetworksDevice*> seen;
    for (uint32_t s = 0; s < steps; ++s) {
        const ANeuralNetworksDevice* d = nullptr;
        if (api().getStepDevice(compilation, s, &d) != ANEURALNETWORKS_NO_ERROR) continue;
        bool known = false;
        for (const ANeuralNetworksDevice* k : seen) known |= k == d;
        if (!known) seen.push_back(d);
    }
    return static_cast<int>(seen.size());
}

TestResult runTestSteps(const Test& test, const RunConfig& cfg, int* devicesUsed) {
    if (!test.loadError.empty()) return fail("invalid test vector: " + test.loadError);

    int64_t needed = featureLevelOfVersion(test.minSupportedVersion);
    if (needed < 0) return fail("unknown minSupportedVersion " + test.minSupportedVersion);
    if (needed > 0 && needed > cfg.featureLevel) {
        return TestResult{Status::Skip, "needs feature level " + std::to_string(needed) + " (" +
                                            test.minSupportedVersion + "), device has " +
                                            std::to_string(cfg.featureLevel)};
    }

    const bool infiniteLoop = isInfiniteLoopTest(test);
    // Upstream derives the dynamic-shape variant only for models whose output
    // shapes are computable without control flow or RANK; others run unchanged.
    // Validation (expectFailure) models and models with scalar outputs are
    // left as they are, like upstream.
    bool scalarOutput = false;
    for (uint32_t idx : test.main.outputIndexes)
        scalarOutput = scalarOutput || !isTensorType(test.main.operands[idx].type);
    const bool dynamicOutputs =
        cfg.mode == Mode::Dynamic && !test.expectFailure && !scalarOutput &&
        !testUsesOperation(test, {ANEURALNETWORKS_IF, ANEURALNETWORKS_WHILE, ANEURALNETWORKS_RANK});
    // A fenced computation needs fully specified outputs; upstream derives the
    // fenced variant only when every main output has expected data, so models
    // with a zero-sized output fall back to a plain compute.
    Mode mode = cfg.mode;
    std::string modeNote;
    if (mode == Mode::Fenced) {
        for (uint32_t idx : test.main.outputIndexes)
            if (test.main.operands[idx].bytes.empty()) {
                mode = Mode::Sync;
                modeNote = "zero-sized output: ran compute instead of fenced";
                break;
            }
    }

    // An SL has no startCompute, and its replacement, startComputeWithDependencies, needs
    // fully specified outputs (like the fenced mode): other models run with compute.
    if (mode == Mode::Async && !api().ANeuralNetworksExecution_startCompute) {
        for (uint32_t idx : test.main.outputIndexes) {
            const Operand& op = test.main.operands[idx];
            bool unknown = isTensorType(op.type) && op.dimensions.empty();
            for (uint32_t d : op.dimensions) unknown = unknown || d == 0;
            if (unknown) {
                mode = Mode::Sync;
                modeNote = "SL without startCompute, output not fully specified: ran compute";
                break;
            }
        }
    }

    TestContext ctx;
    ctx.refModels.assign(test.referenced.size(), nullptr);
    ctx.refBuilding.assign(test.referenced.size(), 0);

    std::string memError;
    if (!createConstantMemory(test, &ctx, &memError)) return fail("constant memory: " + memError);
    if (ctx.fd >= 0) {
        int rc = api().ANeuralNetworksMemory_createFromFd(ctx.mappingSize, PROT_READ | PROT_WRITE, ctx.fd, 0, &ctx.memory);
        if (!ctx.check("Memory_createFromFd", rc)) return fail(ctx.failure());
    }

    // ---- Model ----
    ANeuralNetworksModel* model = nullptr;
    if (!buildModel(test, 0, dynamicOutputs, &ctx, &model)) return stepFailed(test, ctx, cfg);
    // Upstream calls this for every test and ignores the result.
    (void)api().ANeuralNetworksModel_relaxComputationFloat32toFloat16(model, test.isRelaxed);
    if (!ctx.check("Model_finish", api().ANeuralNetworksModel_finish(model))) return stepFailed(test, ctx, cfg);

    // ---- Compilation ----
    int rc;
    if (cfg.device) {
        const ANeuralNetworksDevice* devs[1] = {cfg.device};
        rc = api().ANeuralNetworksCompilation_createForDevices(model, devs, 1, &ctx.compilation);
        if (!ctx.check("Compilation_createForDevices", rc)) return stepFailed(test, ctx, cfg);
    } else if (api().ANeuralNetworksCompilation_create) {
        rc = api().ANeuralNetworksCompilation_create(model, &ctx.compilation);
        if (!ctx.check("Compilation_create", rc)) return stepFailed(test, ctx, cfg);
    } else {
        // An SL has no Compilation_create: offer every device, as the runtime would.
        std::vector<const ANeuralNetworksDevice*> devs = allDevices();
        rc = api().ANeuralNetworksCompilation_createForDevices(model, devs.data(),
                                                               static_cast<uint32_t>(devs.size()),
                                                               &ctx.compilation);
        if (!ctx.check("Compilation_createForDevices", rc)) return stepFailed(test, ctx, cfg);
    }
    if (!ctx.check("Compilation_finish", api().ANeuralNetworksCompilation_finish(ctx.compilation))) {
        if (test.expectFailure && !isInfiniteLoopTest(test)) return stepFailed(test, ctx, cfg);
        return stepFailed(test, ctx, cfg, unsupportedOperations(test, model, cfg));
    }
    *devicesUsed = countDevices(ctx.compilation);

    // ---- Execution ----
    if (!ctx.check("Execution_create", api().ANeuralNetworksExecution_create(ctx.compilation, &ctx.execution)))
        return stepFailed(test, ctx, cfg);
    if (infiniteLoop &&
        !ctx.check("Execution_setLoopTimeout",
                   api().ANeuralNetworksExecution_setLoopTimeout(ctx.execution, cfg.infiniteLoopTimeoutNs)))
        return stepFailed(test, ctx, cfg);

    const Subgraph& main = test.main;
    for (size_t i = 0; i < main.inputIndexes.size(); ++i) {
        const Operand& op = main.operands[main.inputIndexes[i]];
        rc = api().ANeuralNetworksExecution_setInput(ctx.execution, static_cast<int32_t>(i), nullptr,
                                               op.bytes.empty() ? nullptr : op.bytes.data(), op.bytes.size());
        if (!ctx.check("Execution_setInput", rc)) {
            ctx.failedStep += "(" + std::to_string(i) + ")";
            return stepFailed(test, ctx, cfg);
        }
    }
    ctx.outputs.resize(main.outputIndexes.size());
    for (size_t i = 0; i < main.outputIndexes.size(); ++i) {
        const Operand& op = main.operands[main.outputIndexes[i]];
        // A zero-sized output still needs a non-empty buffer.
        ctx.outputs[i].assign(op.bytes.empty() ? 1 : op.bytes.size(), 0);
        rc = api().ANeuralNetworksExecution_setOutput(ctx.execution, static_cast<int32_t>(i), nullptr,
                                                ctx.outputs[i].data(), ctx.outputs[i].size());
        if (!ctx.check("Execution_setOutput", rc)) {
            ctx.failedStep += "(" + std::to_string(i) + ")";
            return stepFailed(test, ctx, cfg);
        }
    }

    switch (mode) {
        case Mode::Sync:
        case Mode::Dynamic:
            ctx.check("Execution_compute", api().ANeuralNetworksExecution_compute(ctx.execution));
            break;
        case Mode::Async:
            if (api().ANeuralNetworksExecution_startCompute) {
                if (ctx.check("Execution_startCompute",
                              api().ANeuralNetworksExecution_startCompute(ctx.execution, &ctx.event)))
                    ctx.check("Event_wait", api().ANeuralNetworksEvent_wait(ctx.event));
            } else if (ctx.check("Execution_startComputeWithDependencies",
                                 api().ANeuralNetworksExecution_startComputeWithDependencies(
                                     ctx.execution, nullptr, 0, 0, &ctx.event))) {
                // An SL has no startCompute; no dependencies and no duration is its equivalent.
                ctx.check("Event_wait", api().ANeuralNetworksEvent_wait(ctx.event));
            }
            break;
        case Mode::Burst:
            if (ctx.check("Burst_create", api().ANeuralNetworksBurst_create(ctx.compilation, &ctx.burst)))
                ctx.check("Execution_burstCompute", api().ANeuralNetworksExecution_burstCompute(ctx.execution, ctx.burst));
            break;
        case Mode::Fenced:
            if (ctx.check("Execution_startComputeWithDependencies",
                          api().ANeuralNetworksExecution_startComputeWithDependencies(ctx.execution, nullptr, 0, 0,
                                                                                 &ctx.event)))
                ctx.check("Event_wait", api().ANeuralNetworksEvent_wait(ctx.event));
            break;
    }

    if (infiniteLoop) {
        if (ctx.failedCode == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT ||
            ctx.failedCode == ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT)
            return pass("loop timeout reported: " + ctx.failure());
        if (ctx.failedCode == ANEURALNETWORKS_NO_ERROR)
            return fail("never-ending WHILE loop completed without MISSED_DEADLINE_*");
        return fail(ctx.failure() + " (expected MISSED_DEADLINE_*)");
    }
    if (ctx.failedCode != ANEURALNETWORKS_NO_ERROR) return stepFailed(test, ctx, cfg);
    if (test.expectFailure) return fail("expected a failure but every step returned NO_ERROR");

    // ---- Checks ----
    const bool relaxedOrFp16 = test.isRelaxed || testUsesFloat16(test);
    for (size_t i = 0; i < main.outputIndexes.size(); ++i) {
        const Operand& op = main.operands[main.outputIndexes[i]];
        if (op.isIgnored) continue;
        uint32_t rank = 0;
        rc = api().ANeuralNetworksExecution_getOutputOperandRank(ctx.execution, static_cast<int32_t>(i), &rank);
        if (!ctx.check("Execution_getOutputOperandRank", rc)) return fail(ctx.failure() + " for output " + std::to_string(i));
        std::vector<uint32_t> dims(rank);
        if (rank > 0) {
            rc = api().ANeuralNetworksExecution_getOutputOperandDimensions(ctx.execution, static_cast<int32_t>(i),
                                                                     dims.data());
            if (!ctx.check("Execution_getOutputOperandDimensions", rc))
                return fail(ctx.failure() + " for output " + std::to_string(i));
        }
        CheckResult shape = compareShape(op.dimensions, dims, i);
        if (!shape.ok) return fail(shape.message);

        size_t n = elementCountOf(op.dimensions);
        if (op.elementCount < n)
            return fail("output " + std::to_string(i) + ": vector holds " + std::to_string(op.elementCount) +
                        " expected values for shape " + dimsToString(op.dimensions));
        if (test.multinomialTolerance > 0.0f) {
            const Operand& in = main.operands[main.inputIndexes.empty() ? 0 : main.inputIndexes[0]];
            std::vector<float> logits;
            if (main.inputIndexes.empty() || in.dimensions.size() != 2 || !readAsFloats(in, &logits) ||
                op.type != ANEURALNETWORKS_TENSOR_INT32 || op.dimensions.size() != 2)
                return fail("RANDOM_MULTINOMIAL check needs float logits [batches, classes] and int32 output");
            std::vector<int32_t> samples(n);
            std::memcpy(samples.data(), ctx.outputs[i].data(), n * sizeof(int32_t));
            CheckResult r = checkMultinomial(logits, in.dimensions[0], in.dimensions[1], samples.data(),
                                             op.dimensions[1], test.multinomialTolerance, i);
            if (!r.ok) return fail(r.message);
            continue;
        }
        Tolerance tol = toleranceFor(op.type, relaxedOrFp16, test.name);
        CheckResult values = compareValues(op.type, tol, op.bytes.data(), ctx.outputs[i].data(), n, i);
        if (!values.ok) return fail(values.message);
    }
    return pass(modeNote);
}

TestResult runTest(const Test& test, const RunConfig& cfg) {
    int devices = 0;
    TestResult r = runTestSteps(test, cfg, &devices);
    r.devices = devices;
    return r;
}

}  // namespace cts
