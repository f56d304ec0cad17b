/*
 * Experimental Neural Networks API codes (Linux).
 *
 * Same values as Android's NeuralNetworksExperimentalFeatures.h.  They are
 * not part of the stable NDK surface: a runtime accepts them only when it was
 * built with experimental features enabled.
 */
#ifndef ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_EXPERIMENTAL_FEATURES_H
#define ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_EXPERIMENTAL_FEATURES_H

#ifdef __cplusplus
extern "C" {
#endif

/* Feature level reported by runtimes/devices with experimental features. */
typedef enum {
    ANEURALNETWORKS_FEATURE_LEVEL_EXPERIMENTAL = 0x7FFFFFFF,
} ANeuralNetworksExperimentalFeatureLevelCode;

/* Experimental operations, outside the OperationCode range. */
typedef enum {
    /* Expands a sparse (TFLite-style compressed) tensor into a dense one. */
    ANEURALNETWORKS_DENSIFY = 20000,
} ANeuralNetworksExperimentalOperationCode;

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif  /* ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_EXPERIMENTAL_FEATURES_H */
