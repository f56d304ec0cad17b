/*
 * OEM operand and operation codes of the Neural Networks API (Linux).
 *
 * Same values as Android's NeuralNetworksOEM.h.  These codes are deprecated
 * in favour of vendor extensions (NeuralNetworksExtensions.h); they are kept
 * so that models built with them still load.  Like the Android header, this
 * file has no includes of its own.
 */
#ifndef ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_OEM_H
#define ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_OEM_H

/* Operand types beyond OperandCode (feature level 1). */
enum {
    /* Opaque OEM scalar; the only scalar that may carry scale/zeroPoint, and
     * its setOperandValue length is not checked. */
    ANEURALNETWORKS_OEM_SCALAR = 10000,
    /* Tensor of opaque OEM bytes. */
    ANEURALNETWORKS_TENSOR_OEM_BYTE = 10001,
};

/* Operation type beyond OperationCode (feature level 1); its semantics are
 * defined by the OEM driver only. */
enum {
    ANEURALNETWORKS_OEM_OPERATION = 10000,
};

#endif  /* ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_OEM_H */
