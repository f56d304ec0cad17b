/*
 * Neural Networks API (NNAPI) C interface for Linux.
 *
 * Declares the 69 functions of Android's <android/NeuralNetworks.h> with the
 * same names, parameter types and calling convention, so NNAPI clients (e.g.
 * TFLite's NNAPI delegate) build and link against libneuralnetworks.so
 * unchanged.  All types live in NeuralNetworksTypes.h.
 *
 * Conventions shared by every function below:
 *  - int results are ResultCode values; ANEURALNETWORKS_NO_ERROR (0) is success.
 *  - A NULL object or required out-pointer yields ANEURALNETWORKS_UNEXPECTED_NULL
 *    before anything else is checked.
 *  - Creation functions store NULL in their out-pointer on failure.
 *  - _free functions accept NULL.
 *  - Model, Compilation and MemoryDesc are mutable until their _finish; setters
 *    called afterwards return ANEURALNETWORKS_BAD_STATE.
 *  - "index" of execution and preferred-memory functions is a position in the
 *    model's input/output lists, not an operand index.
 * Every rejected call also records a human readable reason, see
 * NeuralNetworksDiagnostics.h.
 *
 * Android marks each declaration with the API level that introduced it; this
 * header uses plain declarations (the level is noted in the comment only).
 */
#ifndef ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_H
#define ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "NeuralNetworksTypes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Global queries                                                           */
/* ------------------------------------------------------------------------ */

/* Stores the number of available devices (stable for the process). [API 29]
 * UNEXPECTED_NULL if numDevices is NULL. */
int ANeuralNetworks_getDeviceCount(uint32_t* numDevices);

/* Stores the runtime-owned handle of device devIndex (never freed). [API 29]
 * BAD_DATA if devIndex >= device count; UNEXPECTED_NULL if device is NULL. */
int ANeuralNetworks_getDevice(uint32_t devIndex, ANeuralNetworksDevice** device);

/* Default per-WHILE-loop timeout in nanoseconds used by executions. Cannot fail. [API 30] */
uint64_t ANeuralNetworks_getDefaultLoopTimeout(void);

/* Largest accepted loop timeout in ns; larger setLoopTimeout values are clamped. [API 30] */
uint64_t ANeuralNetworks_getMaximumLoopTimeout(void);

/* FeatureLevelCode implemented by this runtime (31, 1000006, ...), not an API
 * level. Cannot fail. [API 31] */
int64_t ANeuralNetworks_getRuntimeFeatureLevel(void);

/* ------------------------------------------------------------------------ */
/* Devices                                                                  */
/* ------------------------------------------------------------------------ */

/* Stores the device name ("VENDOR-DEVICE"; valid for the process lifetime).
 * UNEXPECTED_NULL if either pointer is NULL. [API 29] */
int ANeuralNetworksDevice_getName(const ANeuralNetworksDevice* device, const char** name);

/* Stores the DeviceTypeCode of the device. UNEXPECTED_NULL for NULL pointers;
 * OP_FAILED if the driver cannot report a type. [API 29] */
int ANeuralNetworksDevice_getType(const ANeuralNetworksDevice* device, int32_t* type);

/* Stores the driver's opaque version string (process lifetime).
 * UNEXPECTED_NULL for NULL pointers. [API 29] */
int ANeuralNetworksDevice_getVersion(const ANeuralNetworksDevice* device, const char** version);

/* Stores the device's FeatureLevelCode (never above the runtime's).
 * UNEXPECTED_NULL for NULL pointers. [API 29] */
int ANeuralNetworksDevice_getFeatureLevel(const ANeuralNetworksDevice* device,
                                          int64_t* featureLevel);

/* Blocks until the device is usable again after DEAD_OBJECT failures.
 * UNEXPECTED_NULL if device is NULL. [API 30] */
int ANeuralNetworksDevice_wait(const ANeuralNetworksDevice* device);

/* ------------------------------------------------------------------------ */
/* Models                                                                   */
/* ------------------------------------------------------------------------ */

/* Allocates an empty model owned by the caller. UNEXPECTED_NULL if model is
 * NULL; OUT_OF_MEMORY on allocation failure. [API 27] */
int ANeuralNetworksModel_create(ANeuralNetworksModel** model);

/* Destroys a model (finished or not); every compilation, execution and
 * referencing model derived from it must be done first. [API 27] */
void ANeuralNetworksModel_free(ANeuralNetworksModel* model);

/* Validates and freezes the model. BAD_DATA if the graph is invalid; BAD_STATE
 * if already finished or a previous finish failed. [API 27] */
int ANeuralNetworksModel_finish(ANeuralNetworksModel* model);

/* Appends an operand (numbered in call order); *type is copied. BAD_DATA for
 * unknown types, bad dimensions or quantization; BAD_STATE after finish. [API 27] */
int ANeuralNetworksModel_addOperand(ANeuralNetworksModel* model,
                                    const ANeuralNetworksOperandType* type);

/* Makes operand index a constant; <= 128 bytes are copied, larger buffers are
 * referenced. BAD_DATA for a bad index or a length not equal to the operand size. [API 27] */
int ANeuralNetworksModel_setOperandValue(ANeuralNetworksModel* model, int32_t index,
                                         const void* buffer, size_t length);

/* Attaches per-channel scales (copied) to a TENSOR_QUANT8_SYMM_PER_CHANNEL
 * operand. BAD_DATA for a wrong operand type, channelDim, scaleCount or scale. [API 29] */
int ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(
        ANeuralNetworksModel* model, int32_t index,
        const ANeuralNetworksSymmPerChannelQuantParams* channelQuant);

/* Makes operand index a constant read from [offset, offset+length) of memory
 * (not copied). BAD_DATA for a bad index, size, region or memory kind. [API 27] */
int ANeuralNetworksModel_setOperandValueFromMemory(ANeuralNetworksModel* model, int32_t index,
                                                   const ANeuralNetworksMemory* memory,
                                                   size_t offset, size_t length);

/* Makes MODEL-typed operand index refer to the finished model value (IF/WHILE
 * bodies). BAD_STATE if value is unfinished; BAD_DATA for a bad index. [API 30] */
int ANeuralNetworksModel_setOperandValueFromModel(ANeuralNetworksModel* model, int32_t index,
                                                  const ANeuralNetworksModel* value);

/* Appends an operation of the given code over existing operands. BAD_DATA for
 * an unknown code, bad indices or an invalid operand signature. [API 27] */
int ANeuralNetworksModel_addOperation(ANeuralNetworksModel* model,
                                      ANeuralNetworksOperationType type, uint32_t inputCount,
                                      const uint32_t* inputs, uint32_t outputCount,
                                      const uint32_t* outputs);

/* Declares the model inputs and outputs; their order defines execution
 * indices. BAD_DATA for bad, constant or repeated operands. [API 27] */
int ANeuralNetworksModel_identifyInputsAndOutputs(ANeuralNetworksModel* model,
                                                  uint32_t inputCount, const uint32_t* inputs,
                                                  uint32_t outputCount,
                                                  const uint32_t* outputs);

/* Allows TENSOR_FLOAT32 arithmetic at float16 range/precision (default off).
 * BAD_STATE after finish. [API 28] */
int ANeuralNetworksModel_relaxComputationFloat32toFloat16(ANeuralNetworksModel* model,
                                                          bool allow);

/* Sets supportedOps[i] for each operation i that any of the devices can run.
 * BAD_STATE if the model is unfinished; BAD_DATA for no or duplicate devices. [API 29] */
int ANeuralNetworksModel_getSupportedOperationsForDevices(
        const ANeuralNetworksModel* model, const ANeuralNetworksDevice* const* devices,
        uint32_t numDevices, bool* supportedOps);

/* ------------------------------------------------------------------------ */
/* Compilations                                                             */
/* ------------------------------------------------------------------------ */

/* Creates a compilation of a finished model on runtime-chosen devices.
 * BAD_STATE if the model is unfinished or invalid; OUT_OF_MEMORY. [API 27] */
int ANeuralNetworksCompilation_create(ANeuralNetworksModel* model,
                                      ANeuralNetworksCompilation** compilation);

/* Creates a compilation restricted to the listed devices (no CPU fallback).
 * BAD_DATA for no, duplicate or unknown devices; BAD_STATE for an unfinished model. [API 29] */
int ANeuralNetworksCompilation_createForDevices(ANeuralNetworksModel* model,
                                                const ANeuralNetworksDevice* const* devices,
                                                uint32_t numDevices,
                                                ANeuralNetworksCompilation** compilation);

/* Destroys a compilation; executions, bursts and memory descriptors using it
 * must be done first. [API 27] */
void ANeuralNetworksCompilation_free(ANeuralNetworksCompilation* compilation);

/* Sets a PreferenceCode hint (default FAST_SINGLE_ANSWER). BAD_DATA for an
 * unknown value; BAD_STATE after finish. [API 27] */
int ANeuralNetworksCompilation_setPreference(ANeuralNetworksCompilation* compilation,
                                             int32_t preference);

/* Enables caching in cacheDir under a 32-byte token (both copied).
 * UNEXPECTED_NULL for any NULL pointer; BAD_STATE after finish. [API 29] */
int ANeuralNetworksCompilation_setCaching(ANeuralNetworksCompilation* compilation,
                                          const char* cacheDir, const uint8_t* token);

/* Compiles; required before executions, bursts and memory roles. BAD_STATE if
 * called twice; otherwise the compile result (BAD_DATA, OP_FAILED, ...). [API 27] */
int ANeuralNetworksCompilation_finish(ANeuralNetworksCompilation* compilation);

/* Sets the PriorityCode (90, 100 or 110; default 100). BAD_DATA for other
 * values; BAD_STATE after finish. [API 30] */
int ANeuralNetworksCompilation_setPriority(ANeuralNetworksCompilation* compilation,
                                           int priority);

/* Sets a compile-time limit in ns (0 = none). BAD_DATA unless created by
 * createForDevices with one device; BAD_STATE after finish. [API 30] */
int ANeuralNetworksCompilation_setTimeout(ANeuralNetworksCompilation* compilation,
                                          uint64_t duration);

/* Stores the preferred alignment (power of 2) of input index's buffer.
 * BAD_STATE if not successfully finished; BAD_DATA for a bad index. [API 31] */
int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(
        const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment);

/* Stores the preferred length padding (power of 2) of input index.
 * BAD_STATE if not successfully finished; BAD_DATA for a bad index. [API 31] */
int ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput(
        const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding);

/* Stores the preferred alignment (power of 2) of output index's buffer.
 * BAD_STATE if not successfully finished; BAD_DATA for a bad index. [API 31] */
int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput(
        const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment);

/* Stores the preferred length padding (power of 2) of output index.
 * BAD_STATE if not successfully finished; BAD_DATA for a bad index. [API 31] */
int ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput(
        const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding);

/* ------------------------------------------------------------------------ */
/* Bursts                                                                   */
/* ------------------------------------------------------------------------ */

/* Creates a burst for fast repeated synchronous executions of a finished
 * compilation. BAD_STATE for an unfinished or failed compilation. [API 29] */
int ANeuralNetworksBurst_create(ANeuralNetworksCompilation* compilation,
                                ANeuralNetworksBurst** burst);

/* Destroys a burst; no burstCompute may be running on it. [API 29] */
void ANeuralNetworksBurst_free(ANeuralNetworksBurst* burst);

/* ------------------------------------------------------------------------ */
/* Executions                                                               */
/* ------------------------------------------------------------------------ */

/* Creates an execution (preparation state) of a finished compilation.
 * BAD_STATE for an unfinished or failed compilation; OUT_OF_MEMORY. [API 27] */
int ANeuralNetworksExecution_create(ANeuralNetworksCompilation* compilation,
                                    ANeuralNetworksExecution** execution);

/* Destroys an execution; it must not be computing. [API 27] */
void ANeuralNetworksExecution_free(ANeuralNetworksExecution* execution);

/* Binds input index to a caller buffer (not copied); type may only fill in
 * unknown dimensions. BAD_DATA for bad index/type/length; BAD_STATE if set twice. [API 27] */
int ANeuralNetworksExecution_setInput(ANeuralNetworksExecution* execution, int32_t index,
                                      const ANeuralNetworksOperandType* type, const void* buffer,
                                      size_t length);

/* Binds input index to [offset, offset+length) of memory (0, 0 for desc
 * memory). BAD_DATA as setInput plus a region outside the memory or a wrong role. [API 27] */
int ANeuralNetworksExecution_setInputFromMemory(ANeuralNetworksExecution* execution,
                                                int32_t index,
                                                const ANeuralNetworksOperandType* type,
                                                const ANeuralNetworksMemory* memory,
                                                size_t offset, size_t length);

/* Binds output index to a caller buffer; a too-small buffer for a dynamic
 * shape makes the computation return OUTPUT_INSUFFICIENT_SIZE. Codes as setInput. [API 27] */
int ANeuralNetworksExecution_setOutput(ANeuralNetworksExecution* execution, int32_t index,
                                       const ANeuralNetworksOperandType* type, void* buffer,
                                       size_t length);

/* Binds output index to [offset, offset+length) of memory (0, 0 for desc
 * memory). Codes as setInputFromMemory. [API 27] */
int ANeuralNetworksExecution_setOutputFromMemory(ANeuralNetworksExecution* execution,
                                                 int32_t index,
                                                 const ANeuralNetworksOperandType* type,
                                                 const ANeuralNetworksMemory* memory,
                                                 size_t offset, size_t length);

/* Schedules the computation; its result comes from ANeuralNetworksEvent_wait
 * on *event. BAD_DATA if an I/O is unset; BAD_STATE if not runnable now. [API 27] */
int ANeuralNetworksExecution_startCompute(ANeuralNetworksExecution* execution,
                                          ANeuralNetworksEvent** event);

/* Runs the computation synchronously and returns its result (NO_ERROR,
 * OUTPUT_INSUFFICIENT_SIZE, MISSED_DEADLINE_*, OP_FAILED, BAD_DATA, BAD_STATE). [API 29] */
int ANeuralNetworksExecution_compute(ANeuralNetworksExecution* execution);

/* Stores the actual rank of output index after completion. BAD_STATE if not
 * completed; OUTPUT_INSUFFICIENT_SIZE (rank still stored); BAD_DATA for a bad index. [API 29] */
int ANeuralNetworksExecution_getOutputOperandRank(ANeuralNetworksExecution* execution,
                                                  int32_t index, uint32_t* rank);

/* Copies the actual dimensions of output index after completion. Codes as
 * getOutputOperandRank, plus BAD_DATA for a scalar output. [API 29] */
int ANeuralNetworksExecution_getOutputOperandDimensions(ANeuralNetworksExecution* execution,
                                                        int32_t index, uint32_t* dimensions);

/* Runs the execution synchronously on burst, like compute. BAD_DATA if they
 * come from different compilations; BAD_STATE if the burst is busy. [API 29] */
int ANeuralNetworksExecution_burstCompute(ANeuralNetworksExecution* execution,
                                          ANeuralNetworksBurst* burst);

/* Requests duration measurement (default off). BAD_DATA unless the compilation
 * is single-device createForDevices; BAD_STATE after preparation. [API 29] */
int ANeuralNetworksExecution_setMeasureTiming(ANeuralNetworksExecution* execution, bool measure);

/* Stores a DurationCode measurement in ns (UINT64_MAX = unavailable). BAD_DATA
 * for an unknown code; BAD_STATE if not successfully completed. [API 29] */
int ANeuralNetworksExecution_getDuration(const ANeuralNetworksExecution* execution,
                                         int32_t durationCode, uint64_t* duration);

/* Sets a computation time limit in ns (0 = none). BAD_DATA unless the
 * compilation is single-device createForDevices; BAD_STATE after preparation. [API 30] */
int ANeuralNetworksExecution_setTimeout(ANeuralNetworksExecution* execution, uint64_t duration);

/* Sets the per-WHILE-loop limit in ns (clamped to the maximum); exceeding it
 * fails with MISSED_DEADLINE_*. BAD_STATE once started. [API 30] */
int ANeuralNetworksExecution_setLoopTimeout(ANeuralNetworksExecution* execution,
                                            uint64_t duration);

/* Schedules the computation after all dependencies signal; duration (ns) is
 * counted from then. BAD_DATA for dynamic outputs or the duration rule. [API 30] */
int ANeuralNetworksExecution_startComputeWithDependencies(
        ANeuralNetworksExecution* execution, const ANeuralNetworksEvent* const* dependencies,
        uint32_t num_dependencies, uint64_t duration, ANeuralNetworksEvent** event);

/* Lets later setInput and setOutput calls pass lengths above the raw size.
 * BAD_STATE if any I/O is already set or the execution started. [API 31] */
int ANeuralNetworksExecution_enableInputAndOutputPadding(ANeuralNetworksExecution* execution,
                                                         bool enable);

/* Allows computing the execution again after completion (default no).
 * BAD_STATE outside the preparation state. [API 31] */
int ANeuralNetworksExecution_setReusable(ANeuralNetworksExecution* execution, bool reusable);

/* ------------------------------------------------------------------------ */
/* Memory                                                                   */
/* ------------------------------------------------------------------------ */

/* Wraps size bytes at offset of an mmap-able fd (memfd, shm, file; the fd is
 * duplicated). protect is PROT_* flags. Failures store NULL in *memory. [API 27] */
int ANeuralNetworksMemory_createFromFd(size_t size, int protect, int fd, size_t offset,
                                       ANeuralNetworksMemory** memory);

/* Wraps an Android hardware buffer. On Linux there are no such buffers: the
 * call always fails (UNEXPECTED_NULL for NULL pointers, else an error). [API 29] */
int ANeuralNetworksMemory_createFromAHardwareBuffer(const AHardwareBuffer* ahwb,
                                                    ANeuralNetworksMemory** memory);

/* Allocates an uninitialized memory for a finished descriptor's roles.
 * BAD_STATE for an unfinished descriptor; OP_FAILED if allocation fails. [API 30] */
int ANeuralNetworksMemory_createFromDesc(const ANeuralNetworksMemoryDesc* desc,
                                         ANeuralNetworksMemory** memory);

/* Copies src's contents into dst. BAD_DATA for an uninitialized src or
 * incompatible sizes/dimensions; UNMAPPABLE; OP_FAILED. [API 30] */
int ANeuralNetworksMemory_copy(const ANeuralNetworksMemory* src, const ANeuralNetworksMemory* dst);

/* Destroys a memory; models and executions using it must be done first. [API 27] */
void ANeuralNetworksMemory_free(ANeuralNetworksMemory* memory);

/* ------------------------------------------------------------------------ */
/* Memory descriptors                                                       */
/* ------------------------------------------------------------------------ */

/* Creates an empty memory descriptor. UNEXPECTED_NULL if desc is NULL. [API 30] */
int ANeuralNetworksMemoryDesc_create(ANeuralNetworksMemoryDesc** desc);

/* Destroys a descriptor; memories created from it remain valid. [API 30] */
void ANeuralNetworksMemoryDesc_free(ANeuralNetworksMemoryDesc* desc);

/* Declares use as input index of a finished compilation; frequency in (0, 1].
 * BAD_DATA for a bad compilation, index, duplicate role, frequency or metadata. [API 30] */
int ANeuralNetworksMemoryDesc_addInputRole(ANeuralNetworksMemoryDesc* desc,
                                           const ANeuralNetworksCompilation* compilation,
                                           uint32_t index, float frequency);

/* Declares use as output index of a finished compilation; same rules and
 * codes as addInputRole. [API 30] */
int ANeuralNetworksMemoryDesc_addOutputRole(ANeuralNetworksMemoryDesc* desc,
                                            const ANeuralNetworksCompilation* compilation,
                                            uint32_t index, float frequency);

/* Sets the memory's shape (0 = unknown axis). BAD_DATA if incompatible with
 * the roles; BAD_STATE after finish. [API 30] */
int ANeuralNetworksMemoryDesc_setDimensions(ANeuralNetworksMemoryDesc* desc, uint32_t rank,
                                            const uint32_t* dimensions);

/* Freezes the descriptor. BAD_DATA if no role was added; BAD_STATE if already
 * finished. [API 30] */
int ANeuralNetworksMemoryDesc_finish(ANeuralNetworksMemoryDesc* desc);

/* ------------------------------------------------------------------------ */
/* Events                                                                   */
/* ------------------------------------------------------------------------ */

/* Blocks until the computation behind event finishes and returns its result
 * code. UNEXPECTED_NULL if event is NULL. [API 27] */
int ANeuralNetworksEvent_wait(ANeuralNetworksEvent* event);

/* Destroys an event, first waiting for a pending computation. [API 27] */
void ANeuralNetworksEvent_free(ANeuralNetworksEvent* event);

/* Creates an event signalled when the pollable fence fd becomes readable (fd
 * is duplicated). BAD_DATA for an invalid fd. [API 30] */
int ANeuralNetworksEvent_createFromSyncFenceFd(int sync_fence_fd, ANeuralNetworksEvent** event);

/* Stores a new fd (caller closes it) for the event's sync fence; *sync_fence_fd
 * is -1 and BAD_DATA is returned if the event has none. [API 30] */
int ANeuralNetworksEvent_getSyncFenceFd(const ANeuralNetworksEvent* event, int* sync_fence_fd);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif  /* ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_H */
