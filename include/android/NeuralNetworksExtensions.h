/*
 * Vendor extension functions of the Neural Networks API (Linux).
 *
 * Same declarations as Android's NeuralNetworksExtensions.h.  On Android these
 * symbols are exported only to the platform (not the NDK); libneuralnetworks.so
 * exports them in the LIBNEURALNETWORKS_PLATFORM version node.
 *
 * An extension type or operation code is an int32_t whose high 16 bits are a
 * per-process prefix (>= 1) assigned to the extension name on first use and
 * whose low 16 bits are the code within the extension.
 */
#ifndef ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_EXTENSIONS_H
#define ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_EXTENSIONS_H

#include "NeuralNetworks.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sets *isExtensionSupported to whether the device supports the extension
 * named extensionName (exact match). UNEXPECTED_NULL for NULL pointers. [API 29] */
int ANeuralNetworksDevice_getExtensionSupport(const ANeuralNetworksDevice* device,
                                              const char* extensionName,
                                              bool* isExtensionSupported);

/* Stores the operand type code for (extensionName, code) to use in
 * ANeuralNetworksOperandType.type. BAD_DATA if no prefix can be assigned. [API 29] */
int ANeuralNetworksModel_getExtensionOperandType(ANeuralNetworksModel* model,
                                                 const char* extensionName,
                                                 uint16_t operandCodeWithinExtension,
                                                 int32_t* type);

/* Stores the operation code for (extensionName, code) to pass to addOperation.
 * BAD_DATA if no prefix can be assigned. [API 29] */
int ANeuralNetworksModel_getExtensionOperationType(ANeuralNetworksModel* model,
                                                   const char* extensionName,
                                                   uint16_t operationCodeWithinExtension,
                                                   ANeuralNetworksOperationType* type);

/* Attaches opaque bytes (copied; NULL/0 clears) to an extension-typed operand.
 * BAD_DATA for a bad index or non-extension operand; BAD_STATE after finish. [API 29] */
int ANeuralNetworksModel_setOperandExtensionData(ANeuralNetworksModel* model, int32_t index,
                                                 const void* data, size_t length);

/* Adds an opaque vendor hint (copied) keyed by (extensionName, code) for the
 * driver. BAD_DATA unless single-device createForDevices or if duplicated;
 * BAD_STATE after finish. [feature level 8] */
int ANeuralNetworksCompilation_addExtensionAttribute(ANeuralNetworksCompilation* compilation,
                                                     const char* extensionName,
                                                     uint16_t attributeCodeWithinExtension,
                                                     const void* data, size_t length);

/* Execution counterpart of ANeuralNetworksCompilation_addExtensionAttribute;
 * BAD_STATE once the execution has started. [feature level 8] */
int ANeuralNetworksExecution_addExtensionAttribute(ANeuralNetworksExecution* execution,
                                                   const char* extensionName,
                                                   uint16_t attributeCodeWithinExtension,
                                                   const void* data, size_t length);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif  /* ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_EXTENSIONS_H */
