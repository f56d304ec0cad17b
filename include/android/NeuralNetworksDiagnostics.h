/*
 * Error diagnostics of this Linux NNAPI implementation.
 *
 * NOT part of Android's NNAPI: these functions exist only in this runtime, so
 * portable clients should look them up with dlsym() or guard their use.
 *
 * NNAPI result codes say little (BAD_DATA covers hundreds of rules).  Every
 * call that is rejected records why, in a thread-local message such as the
 * operation index and name, the operand index, the rule that was violated
 * and the expected versus the received value.  Setting the environment
 * variable NNAPI_LOG=1 additionally prints each message to stderr as it is
 * recorded.
 */
#ifndef ANNLINUX_NEURAL_NETWORKS_DIAGNOSTICS_H
#define ANNLINUX_NEURAL_NETWORKS_DIAGNOSTICS_H

#include <stdint.h>

#include <android/NeuralNetworksTypes.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Returns the message of the last error recorded by any NNAPI call on the
 * calling thread, or "" if there is none.  Never returns NULL.  The string is
 * owned by the runtime and stays valid until the next NNAPI call on this
 * thread. */
const char* ANNLinux_getLastErrorMessage(void);

/* Forgets the calling thread's last error message (subsequent
 * ANNLinux_getLastErrorMessage calls return "" until a new error). */
void ANNLinux_clearLastErrorMessage(void);

/* The name of an operation code as the NNAPI spec spells it without the
 * ANEURALNETWORKS_ prefix ("ADD", "CONV_2D", ..., "DENSIFY"), or NULL for a
 * code this runtime does not know.  The string is static. */
const char* ANNLinux_operationName(int32_t operationCode);

/* The operation code of a name as returned by ANNLinux_operationName, or -1
 * when the name is not an operation this runtime knows. */
int32_t ANNLinux_operationCodeFromName(const char* name);

/* The name of a ResultCode without the ANEURALNETWORKS_ prefix ("NO_ERROR",
 * "BAD_DATA", ...), or "UNKNOWN_RESULT_CODE".  The string is static. */
const char* ANNLinux_resultCodeName(int resultCode);

/* Sets how many worker threads the built-in CPU devices (nnapi-cpu,
 * nnapi-cpu-reference) use for the kernels of this compilation, the calling
 * thread included; 1 runs everything on the thread that computes.  0 (the
 * default) means the driver's default: $NNAPI_CPU_THREADS if set, else the
 * number of online cores.  Compilations asking for the same count share one
 * pool.  Must be called before ANeuralNetworksCompilation_finish (else
 * BAD_STATE); more than 64 threads is BAD_DATA.  Other devices ignore it. */
int ANNLinux_Compilation_setCpuThreadCount(ANeuralNetworksCompilation* compilation,
                                           uint32_t threads);

/* ---- Partitioning plan (issue 8) ------------------------------------------
 * A compilation runs each operation on the best device that supports it; when
 * that is not one device for all, the model is split into steps, each a set of
 * operations one device runs together (IF/WHILE go whole with their bodies).
 * These queries show the plan of a finished compilation (BAD_STATE before
 * ANeuralNetworksCompilation_finish or after a failed one).  A model that is
 * not split has 1 step.  NNAPI_LOG=1 prints the plan at finish. */

/* The number of steps the compilation runs per execution. */
int ANNLinux_Compilation_getStepCount(const ANeuralNetworksCompilation* compilation,
                                      uint32_t* count);

/* The device that runs step `step` (0 <= step < count); BAD_DATA out of range. */
int ANNLinux_Compilation_getStepDevice(const ANeuralNetworksCompilation* compilation,
                                       uint32_t step, const ANeuralNetworksDevice** device);

/* The device that runs operation `operationIndex` of the main model (in the
 * order of ANeuralNetworksModel_addOperation); BAD_DATA out of range. */
int ANNLinux_Compilation_getOperationDevice(const ANeuralNetworksCompilation* compilation,
                                            uint32_t operationIndex,
                                            const ANeuralNetworksDevice** device);

/* ---- Driver plugins (docs/drivers.md) ----------------------------------------
 * Devices come from the library itself ("built-in") or from NNAPI Support
 * Library plugins named by $NNAPI_DRIVERS, $NNAPI_DRIVER_DIR or
 * /etc/nnapi/drivers.d/ (*.conf files), loaded at the first NNAPI call that
 * needs the device list. */

/* Sets *origin to "built-in" or to the path of the plugin providing the
 * device. The string lives as long as the process.  UNEXPECTED_NULL or
 * BAD_DATA (not a device of this runtime) on misuse. */
int ANNLinux_Device_getOrigin(const ANeuralNetworksDevice* device, const char** origin);

/* How many configured plugins, configuration files or plugin devices were
 * skipped, each with a reason "<path>: <why>" (a missing file, no
 * ANeuralNetworks_getSLDriverImpl symbol, a NULL table slot, an invalid
 * feature level, a device name already taken, ...).  Loads the plugins if
 * that has not happened yet. */
uint32_t ANNLinux_getDriverLoadProblemCount(void);

/* Problem `index` (0 <= index < count), or NULL when out of range.  The
 * string lives as long as the process. */
const char* ANNLinux_getDriverLoadProblem(uint32_t index);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif  /* ANNLINUX_NEURAL_NETWORKS_DIAGNOSTICS_H */
