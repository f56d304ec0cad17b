/*
 * The diagnostics extension of this runtime (<android/NeuralNetworksDiagnostics.h>), as used
 * in docs/diagnostics.md.
 *
 * Makes one deliberate mistake (an ADD whose second input is an operand that does not exist),
 * prints the result code by name and the reason the runtime recorded for it, then shows the
 * name tables, the device origins and the partitioning plan of a small working model. Exits 0
 * when every documented behaviour holds, otherwise prints what differed and exits 1 -- so the
 * documentation's example is also a test (ctest diagnostics_example).
 */
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>

#include <stdio.h>
#include <string.h>

static int g_failures = 0;

static void expect(int condition, const char* what) {
    if (!condition) {
        ++g_failures;
        fprintf(stderr, "FAIL: %s\n", what);
    }
}

/* Builds out = a + b over float[2]; when `broken`, the ADD names operand 42 (there are 4). */
static int buildAdd(ANeuralNetworksModel* model, int broken) {
    const uint32_t dims[1] = {2};
    const ANeuralNetworksOperandType tensor = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0.0f, 0};
    const ANeuralNetworksOperandType scalar = {ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0};
    const int32_t none = ANEURALNETWORKS_FUSED_NONE;
    const uint32_t in[3] = {0, broken ? 42u : 1u, 2}, out[1] = {3};
    const uint32_t modelIn[2] = {0, 1};
    ANeuralNetworksModel_addOperand(model, &tensor);  /* 0: a */
    ANeuralNetworksModel_addOperand(model, &tensor);  /* 1: b */
    ANeuralNetworksModel_addOperand(model, &scalar);  /* 2: fused activation */
    ANeuralNetworksModel_addOperand(model, &tensor);  /* 3: out */
    ANeuralNetworksModel_setOperandValue(model, 2, &none, sizeof(none));
    int rc = ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, in, 1, out);
    if (rc != ANEURALNETWORKS_NO_ERROR) return rc;
    rc = ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, modelIn, 1, out);
    if (rc != ANEURALNETWORKS_NO_ERROR) return rc;
    return ANeuralNetworksModel_finish(model);
}

int main(void) {
    /* 1. A rejected call: the result code says BAD_DATA, the message says why. */
    ANeuralNetworksModel* bad = NULL;
    ANeuralNetworksModel_create(&bad);
    const int rc = buildAdd(bad, 1);
    const char* why = ANNLinux_getLastErrorMessage();
    printf("rejected: %s: %s\n", ANNLinux_resultCodeName(rc), why);
    expect(rc == ANEURALNETWORKS_BAD_DATA, "addOperation with operand 42 returns BAD_DATA");
    expect(strstr(why, "42") != NULL, "the message names the bad operand index 42");
    ANeuralNetworksModel_free(bad);

    /* The message stays until the thread's next error or an explicit clear. */
    ANNLinux_clearLastErrorMessage();
    expect(ANNLinux_getLastErrorMessage()[0] == '\0', "clearLastErrorMessage leaves \"\"");

    /* 2. Names of operation and result codes (spec spelling without ANEURALNETWORKS_). */
    printf("operation 3 = %s, CONV_2D = %d, result 4 = %s\n", ANNLinux_operationName(3),
           ANNLinux_operationCodeFromName("CONV_2D"), ANNLinux_resultCodeName(4));
    expect(strcmp(ANNLinux_operationName(ANEURALNETWORKS_CONV_2D), "CONV_2D") == 0, "operationName(3)");
    expect(ANNLinux_operationCodeFromName("CONV_2D") == ANEURALNETWORKS_CONV_2D, "operationCodeFromName");
    expect(ANNLinux_operationName(-1) == NULL, "operationName of an unknown code is NULL");
    expect(strcmp(ANNLinux_resultCodeName(ANEURALNETWORKS_BAD_DATA), "BAD_DATA") == 0, "resultCodeName(4)");

    /* 3. Devices: where each one comes from, and plugins that were skipped. */
    uint32_t count = 0;
    ANeuralNetworks_getDeviceCount(&count);
    for (uint32_t i = 0; i < count; ++i) {
        ANeuralNetworksDevice* device = NULL;
        const char* name = NULL;
        const char* origin = NULL;
        ANeuralNetworks_getDevice(i, &device);
        ANeuralNetworksDevice_getName(device, &name);
        expect(ANNLinux_Device_getOrigin(device, &origin) == ANEURALNETWORKS_NO_ERROR, "Device_getOrigin");
        printf("device %s: %s\n", name, origin ? origin : "?");
    }
    for (uint32_t i = 0; i < ANNLinux_getDriverLoadProblemCount(); ++i)
        printf("skipped plugin: %s\n", ANNLinux_getDriverLoadProblem(i));

    /* 4. A compilation: CPU thread count, then the plan (one step on one device here). */
    ANeuralNetworksModel* good = NULL;
    ANeuralNetworksCompilation* compilation = NULL;
    ANeuralNetworksModel_create(&good);
    expect(buildAdd(good, 0) == ANEURALNETWORKS_NO_ERROR, "the correct model finishes");
    ANeuralNetworksCompilation_create(good, &compilation);
    expect(ANNLinux_Compilation_setCpuThreadCount(compilation, 1) == ANEURALNETWORKS_NO_ERROR,
           "setCpuThreadCount(1) before finish");
    uint32_t steps = 0;
    expect(ANNLinux_Compilation_getStepCount(compilation, &steps) == ANEURALNETWORKS_BAD_STATE,
           "getStepCount before finish is BAD_STATE");
    expect(ANeuralNetworksCompilation_finish(compilation) == ANEURALNETWORKS_NO_ERROR, "Compilation_finish");
    expect(ANNLinux_Compilation_setCpuThreadCount(compilation, 2) == ANEURALNETWORKS_BAD_STATE,
           "setCpuThreadCount after finish is BAD_STATE");
    const ANeuralNetworksDevice* stepDevice = NULL;
    const char* stepName = "?";
    expect(ANNLinux_Compilation_getStepCount(compilation, &steps) == ANEURALNETWORKS_NO_ERROR && steps >= 1,
           "getStepCount after finish");
    if (ANNLinux_Compilation_getOperationDevice(compilation, 0, &stepDevice) == ANEURALNETWORKS_NO_ERROR)
        ANeuralNetworksDevice_getName(stepDevice, &stepName);
    printf("plan: %u step(s); operation 0 (ADD) runs on %s\n", steps, stepName);
    ANeuralNetworksCompilation_free(compilation);
    ANeuralNetworksModel_free(good);

    if (g_failures) fprintf(stderr, "%d check(s) failed\n", g_failures);
    return g_failures ? 1 : 0;
}
