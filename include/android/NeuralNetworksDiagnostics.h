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

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif  /* ANNLINUX_NEURAL_NETWORKS_DIAGNOSTICS_H */
