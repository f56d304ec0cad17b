/*
 * A plain C99 client of the NNAPI C API.
 *
 * Builds   out = (a + b) * c   where a, b are float[4] inputs and c is a float[4] constant,
 * compiles it, runs it, reads the output values and the output shape (declared unknown, so the
 * runtime reports it), and then checks that misusing the API yields the result codes the NNAPI
 * contract documents. Exits 0 when every check holds; otherwise prints each mismatch and
 * exits 1.
 */
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h> /* ANNLinux_resultCodeName: this runtime only */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_checks = 0;
static int g_failures = 0;

/* Records one expectation about a result code; `what` says which call and which rule. */
static int expectCode(const char* what, int got, int expected) {
    ++g_checks;
    if (got != expected) {
        ++g_failures;
        fprintf(stderr, "FAIL: %s: got %d (%s), expected %d (%s)\n", what, got, ANNLinux_resultCodeName(got),
                expected, ANNLinux_resultCodeName(expected));
        return 0;
    }
    return 1;
}

static int expectTrue(const char* what, int condition) {
    ++g_checks;
    if (!condition) {
        ++g_failures;
        fprintf(stderr, "FAIL: %s\n", what);
        return 0;
    }
    return 1;
}

static const float kC[4] = {2.0f, 3.0f, 4.0f, 5.0f};

/* Operands: 0 a, 1 b, 2 c (constant), 3 activation (constant), 4 a+b, 5 out (shape unknown). */
static ANeuralNetworksModel* buildModel(void) {
    ANeuralNetworksModel* model = NULL;
    const uint32_t dims4[1] = {4};
    const uint32_t dimsUnknown[1] = {0};
    const ANeuralNetworksOperandType tensor4 = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims4, 0.0f, 0};
    const ANeuralNetworksOperandType tensorUnknown = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, dimsUnknown, 0.0f, 0};
    const ANeuralNetworksOperandType scalarInt = {ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0};
    const int32_t activation = ANEURALNETWORKS_FUSED_NONE;
    const uint32_t addIn[3] = {0, 1, 3}, addOut[1] = {4};
    const uint32_t mulIn[3] = {4, 2, 3}, mulOut[1] = {5};
    const uint32_t badIn[3] = {0, 42, 3};
    const uint32_t modelIn[2] = {0, 1}, modelOut[1] = {5};

    expectCode("Model_create(NULL)", ANeuralNetworksModel_create(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    if (!expectCode("Model_create", ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR))
        return NULL;
    expectCode("Model_addOperand(model, NULL type)", ANeuralNetworksModel_addOperand(model, NULL),
               ANEURALNETWORKS_UNEXPECTED_NULL);
    expectCode("Model_addOperand(NULL model)", ANeuralNetworksModel_addOperand(NULL, &tensor4),
               ANEURALNETWORKS_UNEXPECTED_NULL);

    expectCode("addOperand a", ANeuralNetworksModel_addOperand(model, &tensor4), ANEURALNETWORKS_NO_ERROR);
    expectCode("addOperand b", ANeuralNetworksModel_addOperand(model, &tensor4), ANEURALNETWORKS_NO_ERROR);
    expectCode("addOperand c", ANeuralNetworksModel_addOperand(model, &tensor4), ANEURALNETWORKS_NO_ERROR);
    expectCode("addOperand act", ANeuralNetworksModel_addOperand(model, &scalarInt), ANEURALNETWORKS_NO_ERROR);
    expectCode("addOperand a+b", ANeuralNetworksModel_addOperand(model, &tensor4), ANEURALNETWORKS_NO_ERROR);
    expectCode("addOperand out", ANeuralNetworksModel_addOperand(model, &tensorUnknown), ANEURALNETWORKS_NO_ERROR);

    /* Misuse while building. */
    expectCode("setOperandValue on operand 6 (only 6 operands exist)",
               ANeuralNetworksModel_setOperandValue(model, 6, kC, sizeof(kC)), ANEURALNETWORKS_BAD_DATA);
    expectCode("setOperandValue with 12 bytes for a float[4]",
               ANeuralNetworksModel_setOperandValue(model, 2, kC, 12), ANEURALNETWORKS_BAD_DATA);
    expectCode("setOperandValue with NULL buffer and non-zero length",
               ANeuralNetworksModel_setOperandValue(model, 2, NULL, 16), ANEURALNETWORKS_UNEXPECTED_NULL);
    expectCode("addOperation reading operand 42",
               ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, badIn, 1, addOut),
               ANEURALNETWORKS_BAD_DATA);
    expectCode("addOperation with NULL inputs",
               ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, NULL, 1, addOut),
               ANEURALNETWORKS_UNEXPECTED_NULL);

    expectCode("setOperandValue c", ANeuralNetworksModel_setOperandValue(model, 2, kC, sizeof(kC)),
               ANEURALNETWORKS_NO_ERROR);
    expectCode("setOperandValue act",
               ANeuralNetworksModel_setOperandValue(model, 3, &activation, sizeof(activation)),
               ANEURALNETWORKS_NO_ERROR);
    expectCode("addOperation ADD", ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, addIn, 1, addOut),
               ANEURALNETWORKS_NO_ERROR);
    expectCode("addOperation MUL", ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_MUL, 3, mulIn, 1, mulOut),
               ANEURALNETWORKS_NO_ERROR);
    expectCode("identifyInputsAndOutputs",
               ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, modelIn, 1, modelOut),
               ANEURALNETWORKS_NO_ERROR);
    if (!expectCode("Model_finish", ANeuralNetworksModel_finish(model), ANEURALNETWORKS_NO_ERROR)) {
        ANeuralNetworksModel_free(model);
        return NULL;
    }

    /* A finished model is frozen. */
    expectCode("addOperand after finish", ANeuralNetworksModel_addOperand(model, &tensor4), ANEURALNETWORKS_BAD_STATE);
    expectCode("setOperandValue after finish", ANeuralNetworksModel_setOperandValue(model, 2, kC, sizeof(kC)),
               ANEURALNETWORKS_BAD_STATE);
    expectCode("second Model_finish", ANeuralNetworksModel_finish(model), ANEURALNETWORKS_BAD_STATE);
    return model;
}

static void listDevices(void) {
    uint32_t count = 0, i;
    expectCode("getDeviceCount", ANeuralNetworks_getDeviceCount(&count), ANEURALNETWORKS_NO_ERROR);
    expectTrue("at least one device", count >= 1);
    for (i = 0; i < count; ++i) {
        ANeuralNetworksDevice* device = NULL;
        const char* name = NULL;
        int64_t level = 0;
        if (ANeuralNetworks_getDevice(i, &device) != ANEURALNETWORKS_NO_ERROR) continue;
        ANeuralNetworksDevice_getName(device, &name);
        ANeuralNetworksDevice_getFeatureLevel(device, &level);
        printf("device %u: %s (feature level %lld)\n", i, name ? name : "?", (long long)level);
    }
    {
        ANeuralNetworksDevice* device = NULL;
        expectCode("getDevice(count)", ANeuralNetworks_getDevice(count, &device), ANEURALNETWORKS_BAD_DATA);
    }
}

/* One successful run with a correctly sized output, then the state rules of a used execution. */
static void runOnce(ANeuralNetworksCompilation* compilation) {
    const float a[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    const float b[4] = {0.5f, -1.0f, 10.0f, 0.0f};
    float out[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    uint32_t rank = 0, dims[1] = {0};
    ANeuralNetworksExecution* execution = NULL;
    int i, valuesOk = 1;

    if (!expectCode("Execution_create", ANeuralNetworksExecution_create(compilation, &execution),
                    ANEURALNETWORKS_NO_ERROR))
        return;
    expectCode("setInput 0", ANeuralNetworksExecution_setInput(execution, 0, NULL, a, sizeof(a)), ANEURALNETWORKS_NO_ERROR);
    expectCode("setInput 0 a second time", ANeuralNetworksExecution_setInput(execution, 0, NULL, a, sizeof(a)),
               ANEURALNETWORKS_BAD_STATE);
    expectCode("setInput with index 2 (2 inputs)", ANeuralNetworksExecution_setInput(execution, 2, NULL, a, sizeof(a)),
               ANEURALNETWORKS_BAD_DATA);
    expectCode("setInput 1", ANeuralNetworksExecution_setInput(execution, 1, NULL, b, sizeof(b)), ANEURALNETWORKS_NO_ERROR);
    expectCode("setOutput 0", ANeuralNetworksExecution_setOutput(execution, 0, NULL, out, sizeof(out)),
               ANEURALNETWORKS_NO_ERROR);
    expectCode("getOutputOperandRank before compute",
               ANeuralNetworksExecution_getOutputOperandRank(execution, 0, &rank), ANEURALNETWORKS_BAD_STATE);
    expectCode("compute", ANeuralNetworksExecution_compute(execution), ANEURALNETWORKS_NO_ERROR);

    for (i = 0; i < 4; ++i) {
        const float want = (a[i] + b[i]) * kC[i];
        if (fabsf(out[i] - want) > 1e-5f * fabsf(want) + 1e-6f) {
            fprintf(stderr, "FAIL: out[%d] = %g, expected %g\n", i, out[i], want);
            valuesOk = 0;
        }
    }
    expectTrue("output values", valuesOk);
    printf("out = {%g, %g, %g, %g}\n", out[0], out[1], out[2], out[3]);

    expectCode("getOutputOperandRank", ANeuralNetworksExecution_getOutputOperandRank(execution, 0, &rank),
               ANEURALNETWORKS_NO_ERROR);
    expectTrue("output rank is 1", rank == 1);
    expectCode("getOutputOperandDimensions", ANeuralNetworksExecution_getOutputOperandDimensions(execution, 0, dims),
               ANEURALNETWORKS_NO_ERROR);
    expectTrue("output shape is {4}", dims[0] == 4);
    printf("output shape = {%u}\n", dims[0]);

    /* Not reusable: computing again is a state error, as is changing an argument. */
    expectCode("second compute on a non-reusable execution", ANeuralNetworksExecution_compute(execution),
               ANEURALNETWORKS_BAD_STATE);
    expectCode("setInput after compute", ANeuralNetworksExecution_setInput(execution, 1, NULL, b, sizeof(b)),
               ANEURALNETWORKS_BAD_STATE);
    ANeuralNetworksExecution_free(execution);
}

/* The output's shape is unknown to the model, so a too-small buffer is only detected when
 * computing; the runtime then reports the shape that would have fit. */
static void runWithSmallOutput(ANeuralNetworksCompilation* compilation) {
    const float a[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    float small[2] = {0.0f, 0.0f};
    uint32_t rank = 0, dims[1] = {0};
    ANeuralNetworksExecution* execution = NULL;

    if (!expectCode("Execution_create (small output)", ANeuralNetworksExecution_create(compilation, &execution),
                    ANEURALNETWORKS_NO_ERROR))
        return;
    expectCode("setInput 0", ANeuralNetworksExecution_setInput(execution, 0, NULL, a, sizeof(a)), ANEURALNETWORKS_NO_ERROR);
    expectCode("setInput 1", ANeuralNetworksExecution_setInput(execution, 1, NULL, a, sizeof(a)), ANEURALNETWORKS_NO_ERROR);
    expectCode("setOutput with an 8-byte buffer",
               ANeuralNetworksExecution_setOutput(execution, 0, NULL, small, sizeof(small)), ANEURALNETWORKS_NO_ERROR);
    expectCode("compute with a too-small output", ANeuralNetworksExecution_compute(execution),
               ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
    expectCode("getOutputOperandRank after OUTPUT_INSUFFICIENT_SIZE",
               ANeuralNetworksExecution_getOutputOperandRank(execution, 0, &rank),
               ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
    expectTrue("needed rank is 1", rank == 1);
    expectCode("getOutputOperandDimensions after OUTPUT_INSUFFICIENT_SIZE",
               ANeuralNetworksExecution_getOutputOperandDimensions(execution, 0, dims),
               ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
    expectTrue("needed shape is {4}", dims[0] == 4);
    printf("too-small output: needed shape = {%u}\n", dims[0]);
    ANeuralNetworksExecution_free(execution);
}

int main(void) {
    ANeuralNetworksModel* model;
    ANeuralNetworksCompilation* compilation = NULL;
    ANeuralNetworksExecution* execution = NULL;

    listDevices();
    model = buildModel();
    if (model == NULL) {
        fprintf(stderr, "c_api_example: could not build the model (%d failures)\n", g_failures);
        return 1;
    }

    expectCode("Compilation_create(model, NULL)", ANeuralNetworksCompilation_create(model, NULL),
               ANEURALNETWORKS_UNEXPECTED_NULL);
    if (expectCode("Compilation_create", ANeuralNetworksCompilation_create(model, &compilation),
                   ANEURALNETWORKS_NO_ERROR)) {
        expectCode("Execution_create on an unfinished compilation",
                   ANeuralNetworksExecution_create(compilation, &execution), ANEURALNETWORKS_BAD_STATE);
        expectTrue("execution is NULL after a failed create", execution == NULL);
        expectCode("Compilation_setPreference(7)", ANeuralNetworksCompilation_setPreference(compilation, 7),
                   ANEURALNETWORKS_BAD_DATA);
        if (expectCode("Compilation_finish", ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR)) {
            expectCode("second Compilation_finish", ANeuralNetworksCompilation_finish(compilation),
                       ANEURALNETWORKS_BAD_STATE);
            runOnce(compilation);
            runWithSmallOutput(compilation);
        }
        ANeuralNetworksCompilation_free(compilation);
    }
    ANeuralNetworksModel_free(model);

    if (g_failures != 0) {
        fprintf(stderr, "c_api_example: %d of %d checks failed\n", g_failures, g_checks);
        return 1;
    }
    printf("c_api_example: all %d checks passed\n", g_checks);
    return 0;
}
