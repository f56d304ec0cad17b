// Names of operations and result codes for tools, examples and logs: one table in the
// library (generated from the operation list) instead of copies in every client.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>

#include <cstring>

#include "hal/types.h"

extern "C" {

const char* ANNLinux_operationName(int32_t operationCode) {
  switch (operationCode) {
#define NN_NAME_CASE(name, code) \
  case code:                     \
    return #name;
    NN_FOR_EACH_OPERATION(NN_NAME_CASE)
#undef NN_NAME_CASE
    case 10000:
      return "OEM_OPERATION";
    default:
      return nullptr;
  }
}

int32_t ANNLinux_operationCodeFromName(const char* name) {
  if (name == nullptr) return -1;
#define NN_CODE_IF(opName, code) \
  if (strcmp(name, #opName) == 0) return code;
  NN_FOR_EACH_OPERATION(NN_CODE_IF)
#undef NN_CODE_IF
  if (strcmp(name, "OEM_OPERATION") == 0) return 10000;
  return -1;
}

const char* ANNLinux_resultCodeName(int resultCode) {
  switch (resultCode) {
#define NN_RESULT_CASE(name) \
  case ANEURALNETWORKS_##name: \
    return #name;
    NN_RESULT_CASE(NO_ERROR)
    NN_RESULT_CASE(OUT_OF_MEMORY)
    NN_RESULT_CASE(INCOMPLETE)
    NN_RESULT_CASE(UNEXPECTED_NULL)
    NN_RESULT_CASE(BAD_DATA)
    NN_RESULT_CASE(OP_FAILED)
    NN_RESULT_CASE(BAD_STATE)
    NN_RESULT_CASE(UNMAPPABLE)
    NN_RESULT_CASE(OUTPUT_INSUFFICIENT_SIZE)
    NN_RESULT_CASE(UNAVAILABLE_DEVICE)
    NN_RESULT_CASE(MISSED_DEADLINE_TRANSIENT)
    NN_RESULT_CASE(MISSED_DEADLINE_PERSISTENT)
    NN_RESULT_CASE(RESOURCE_EXHAUSTED_TRANSIENT)
    NN_RESULT_CASE(RESOURCE_EXHAUSTED_PERSISTENT)
    NN_RESULT_CASE(DEAD_OBJECT)
#undef NN_RESULT_CASE
    default:
      return "UNKNOWN_RESULT_CODE";
  }
}

}  // extern "C"
