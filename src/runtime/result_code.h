#pragma once

#include <android/NeuralNetworks.h>

#include "hal/types.h"

namespace nn {

// HAL status -> public result code (ABI.md 1.8, reverse mapping).
inline int resultCodeFromStatus(ErrorStatus s) {
  switch (s) {
    case ErrorStatus::NONE: return ANEURALNETWORKS_NO_ERROR;
    case ErrorStatus::DEVICE_UNAVAILABLE: return ANEURALNETWORKS_UNAVAILABLE_DEVICE;
    case ErrorStatus::GENERAL_FAILURE: return ANEURALNETWORKS_OP_FAILED;
    case ErrorStatus::OUTPUT_INSUFFICIENT_SIZE: return ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE;
    case ErrorStatus::INVALID_ARGUMENT: return ANEURALNETWORKS_BAD_DATA;
    case ErrorStatus::MISSED_DEADLINE_TRANSIENT: return ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT;
    case ErrorStatus::MISSED_DEADLINE_PERSISTENT: return ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT;
    case ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT: return ANEURALNETWORKS_RESOURCE_EXHAUSTED_TRANSIENT;
    case ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT: return ANEURALNETWORKS_RESOURCE_EXHAUSTED_PERSISTENT;
    case ErrorStatus::DEAD_OBJECT: return ANEURALNETWORKS_DEAD_OBJECT;
  }
  return ANEURALNETWORKS_OP_FAILED;
}

}  // namespace nn
