/*
 * Finds the NNAPI runtime the way TFLite's NNAPI delegate does: dlopen("libneuralnetworks.so",
 * RTLD_LAZY | RTLD_LOCAL) through the loader's search path (LD_LIBRARY_PATH here), then dlsym
 * of each function; it does not link the library. Prints the path of the object it loaded (the
 * install test checks it lies in the install prefix), builds out = a + b for float[2] inputs,
 * runs it and compares the output with the same sum computed here. Exits 0 on success.
 */
#define _GNU_SOURCE
#include <android/NeuralNetworks.h> /* types and constants only */

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>

typedef int (*FeatureLevelFn)(void);
typedef int (*DeviceCountFn)(uint32_t*);
typedef int (*ModelCreateFn)(ANeuralNetworksModel**);
typedef void (*ModelFreeFn)(ANeuralNetworksModel*);
typedef int (*AddOperandFn)(ANeuralNetworksModel*, const ANeuralNetworksOperandType*);
typedef int (*SetOperandValueFn)(ANeuralNetworksModel*, int32_t, const void*, size_t);
typedef int (*AddOperationFn)(ANeuralNetworksModel*, ANeuralNetworksOperationType, uint32_t, const uint32_t*,
                              uint32_t, const uint32_t*);
typedef int (*IdentifyFn)(ANeuralNetworksModel*, uint32_t, const uint32_t*, uint32_t, const uint32_t*);
typedef int (*ModelFinishFn)(ANeuralNetworksModel*);
typedef int (*CompilationCreateFn)(ANeuralNetworksModel*, ANeuralNetworksCompilation**);
typedef int (*CompilationFinishFn)(ANeuralNetworksCompilation*);
typedef void (*CompilationFreeFn)(ANeuralNetworksCompilation*);
typedef int (*ExecutionCreateFn)(ANeuralNetworksCompilation*, ANeuralNetworksExecution**);
typedef int (*SetIoFn)(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*, const void*, size_t);
typedef int (*SetOutputFn)(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*, void*, size_t);
typedef int (*ComputeFn)(ANeuralNetworksExecution*);
typedef void (*ExecutionFreeFn)(ANeuralNetworksExecution*);

static void* g_lib;
static int g_missing;

/* Like TFLite's LoadFunction: a missing symbol is reported, not fatal at lookup time. */
static void* load(const char* name) {
    void* f = dlsym(g_lib, name);
    if (!f) {
        fprintf(stderr, "dlsym(%s) failed: %s\n", name, dlerror());
        ++g_missing;
    }
    return f;
}

#define CHECK(call)                                                              \
    do {                                                                         \
        int rc_ = (call);                                                        \
        if (rc_ != ANEURALNETWORKS_NO_ERROR) {                                   \
            fprintf(stderr, "FAIL: %s returned %d\n", #call, rc_);               \
            return 1;                                                            \
        }                                                                        \
    } while (0)

int main(void) {
    struct link_map* map = NULL;
    g_lib = dlopen("libneuralnetworks.so", RTLD_LAZY | RTLD_LOCAL);
    if (!g_lib) {
        fprintf(stderr, "FAIL: dlopen(libneuralnetworks.so): %s\n", dlerror());
        return 1;
    }
    if (dlinfo(g_lib, RTLD_DI_LINKMAP, &map) == 0 && map) printf("loaded: %s\n", map->l_name);

    FeatureLevelFn featureLevel = (FeatureLevelFn)load("ANeuralNetworks_getRuntimeFeatureLevel");
    DeviceCountFn deviceCount = (DeviceCountFn)load("ANeuralNetworks_getDeviceCount");
    ModelCreateFn modelCreate = (ModelCreateFn)load("ANeuralNetworksModel_create");
    ModelFreeFn modelFree = (ModelFreeFn)load("ANeuralNetworksModel_free");
    AddOperandFn addOperand = (AddOperandFn)load("ANeuralNetworksModel_addOperand");
    SetOperandValueFn setOperandValue = (SetOperandValueFn)load("ANeuralNetworksModel_setOperandValue");
    AddOperationFn addOperation = (AddOperationFn)load("ANeuralNetworksModel_addOperation");
    IdentifyFn identify = (IdentifyFn)load("ANeuralNetworksModel_identifyInputsAndOutputs");
    ModelFinishFn modelFinish = (ModelFinishFn)load("ANeuralNetworksModel_finish");
    CompilationCreateFn compilationCreate = (CompilationCreateFn)load("ANeuralNetworksCompilation_create");
    CompilationFinishFn compilationFinish = (CompilationFinishFn)load("ANeuralNetworksCompilation_finish");
    CompilationFreeFn compilationFree = (CompilationFreeFn)load("ANeuralNetworksCompilation_free");
    ExecutionCreateFn executionCreate = (ExecutionCreateFn)load("ANeuralNetworksExecution_create");
    SetIoFn setInput = (SetIoFn)load("ANeuralNetworksExecution_setInput");
    SetOutputFn setOutput = (SetOutputFn)load("ANeuralNetworksExecution_setOutput");
    ComputeFn compute = (ComputeFn)load("ANeuralNetworksExecution_compute");
    ExecutionFreeFn executionFree = (ExecutionFreeFn)load("ANeuralNetworksExecution_free");
    if (g_missing) return 1;

    uint32_t devices = 0;
    CHECK(deviceCount(&devices));
    printf("runtime feature level %d, %u devices\n", featureLevel(), devices);

    const uint32_t dims[1] = {2};
    const ANeuralNetworksOperandType tensor = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0.0f, 0};
    const ANeuralNetworksOperandType scalar = {ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0};
    const int32_t none = ANEURALNETWORKS_FUSED_NONE;
    const uint32_t addIn[3] = {0, 1, 2}, addOut[1] = {3}, modelIn[2] = {0, 1};
    ANeuralNetworksModel* model = NULL;
    ANeuralNetworksCompilation* compilation = NULL;
    ANeuralNetworksExecution* execution = NULL;
    CHECK(modelCreate(&model));
    CHECK(addOperand(model, &tensor));
    CHECK(addOperand(model, &tensor));
    CHECK(addOperand(model, &scalar));
    CHECK(addOperand(model, &tensor));
    CHECK(setOperandValue(model, 2, &none, sizeof(none)));
    CHECK(addOperation(model, ANEURALNETWORKS_ADD, 3, addIn, 1, addOut));
    CHECK(identify(model, 2, modelIn, 1, addOut));
    CHECK(modelFinish(model));
    CHECK(compilationCreate(model, &compilation));
    CHECK(compilationFinish(compilation));
    CHECK(executionCreate(compilation, &execution));

    const float a[2] = {0.5f, -3.0f}, b[2] = {2.25f, 1.0f};
    float out[2] = {0.0f, 0.0f};
    CHECK(setInput(execution, 0, NULL, a, sizeof(a)));
    CHECK(setInput(execution, 1, NULL, b, sizeof(b)));
    CHECK(setOutput(execution, 0, NULL, out, sizeof(out)));
    CHECK(compute(execution));
    executionFree(execution);
    compilationFree(compilation);
    modelFree(model);

    int failures = 0;
    for (int i = 0; i < 2; ++i) {
        printf("%g + %g = %g\n", a[i], b[i], out[i]);
        if (out[i] != a[i] + b[i]) ++failures;
    }
    dlclose(g_lib);
    printf("%s\n", failures ? "dlopen_consumer: FAILED" : "dlopen_consumer: OK");
    return failures ? 1 : 0;
}
