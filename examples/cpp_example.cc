// A C++17 client of the NNAPI C API: out = relu(a + b) for two float[3] inputs.
//
// Shows the usual C++ shape of an NNAPI client: each NNAPI object owned by a std::unique_ptr with
// its ANeuralNetworks*_free as deleter, every result code checked. Compares the output with the
// same arithmetic done here and exits 0 when they agree, 1 otherwise.
#include <android/NeuralNetworks.h>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace {

template <typename T, void (*Free)(T*)>
struct Deleter {
    void operator()(T* p) const { Free(p); }
};
using Model = std::unique_ptr<ANeuralNetworksModel, Deleter<ANeuralNetworksModel, ANeuralNetworksModel_free>>;
using Compilation =
    std::unique_ptr<ANeuralNetworksCompilation, Deleter<ANeuralNetworksCompilation, ANeuralNetworksCompilation_free>>;
using Execution =
    std::unique_ptr<ANeuralNetworksExecution, Deleter<ANeuralNetworksExecution, ANeuralNetworksExecution_free>>;

bool ok(int code, const char* what) {
    if (code == ANEURALNETWORKS_NO_ERROR) return true;
    std::fprintf(stderr, "%s failed: result code %d\n", what, code);
    return false;
}

}  // namespace

int main() {
    const uint32_t dims[1] = {3};
    const ANeuralNetworksOperandType tensor = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0.0f, 0};
    const ANeuralNetworksOperandType scalar = {ANEURALNETWORKS_INT32, 0, nullptr, 0.0f, 0};
    const int32_t relu = ANEURALNETWORKS_FUSED_RELU;
    const uint32_t addInputs[3] = {0, 1, 2}, addOutputs[1] = {3};
    const uint32_t modelInputs[2] = {0, 1}, modelOutputs[1] = {3};

    ANeuralNetworksModel* rawModel = nullptr;
    if (!ok(ANeuralNetworksModel_create(&rawModel), "Model_create")) return 1;
    Model model(rawModel);
    for (const ANeuralNetworksOperandType* type : {&tensor, &tensor, &scalar, &tensor}) {
        if (!ok(ANeuralNetworksModel_addOperand(model.get(), type), "Model_addOperand")) return 1;
    }
    if (!ok(ANeuralNetworksModel_setOperandValue(model.get(), 2, &relu, sizeof(relu)), "setOperandValue") ||
        !ok(ANeuralNetworksModel_addOperation(model.get(), ANEURALNETWORKS_ADD, 3, addInputs, 1, addOutputs),
            "addOperation") ||
        !ok(ANeuralNetworksModel_identifyInputsAndOutputs(model.get(), 2, modelInputs, 1, modelOutputs),
            "identifyInputsAndOutputs") ||
        !ok(ANeuralNetworksModel_finish(model.get()), "Model_finish")) {
        return 1;
    }

    ANeuralNetworksCompilation* rawCompilation = nullptr;
    if (!ok(ANeuralNetworksCompilation_create(model.get(), &rawCompilation), "Compilation_create")) return 1;
    Compilation compilation(rawCompilation);
    if (!ok(ANeuralNetworksCompilation_finish(compilation.get()), "Compilation_finish")) return 1;

    const float a[3] = {1.5f, -4.0f, 0.25f}, b[3] = {2.0f, 1.0f, -1.0f};
    float out[3] = {-1.0f, -1.0f, -1.0f};
    ANeuralNetworksExecution* rawExecution = nullptr;
    if (!ok(ANeuralNetworksExecution_create(compilation.get(), &rawExecution), "Execution_create")) return 1;
    Execution execution(rawExecution);
    if (!ok(ANeuralNetworksExecution_setInput(execution.get(), 0, nullptr, a, sizeof(a)), "setInput 0") ||
        !ok(ANeuralNetworksExecution_setInput(execution.get(), 1, nullptr, b, sizeof(b)), "setInput 1") ||
        !ok(ANeuralNetworksExecution_setOutput(execution.get(), 0, nullptr, out, sizeof(out)), "setOutput") ||
        !ok(ANeuralNetworksExecution_compute(execution.get()), "Execution_compute")) {
        return 1;
    }

    int failures = 0;
    for (int i = 0; i < 3; ++i) {
        const float expected = std::max(0.0f, a[i] + b[i]);
        std::printf("relu(%g + %g) = %g\n", a[i], b[i], out[i]);
        if (out[i] != expected) {
            std::fprintf(stderr, "FAIL: element %d: got %g, expected %g\n", i, out[i], expected);
            ++failures;
        }
    }
    std::printf("%s\n", failures == 0 ? "cpp_example: OK" : "cpp_example: FAILED");
    return failures == 0 ? 0 : 1;
}
