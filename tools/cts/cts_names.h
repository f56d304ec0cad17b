// The runner's own name tables (same contracts as ANNLinux_operationName,
// ANNLinux_operationCodeFromName and ANNLinux_resultCodeName).
#ifndef NNAPI_TOOLS_CTS_CTS_NAMES_H
#define NNAPI_TOOLS_CTS_CTS_NAMES_H

#include <cstdint>

namespace cts {

const char* localOperationName(int32_t code);          // nullptr for an unknown code
int32_t localOperationCodeFromName(const char* name);  // -1 for an unknown name
const char* localResultCodeName(int code);             // "UNKNOWN_RESULT_CODE" if unknown

}  // namespace cts

#endif  // NNAPI_TOOLS_CTS_CTS_NAMES_H
