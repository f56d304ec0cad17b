// Diagnostics. The calling thread's last error (what ANNLinux_getLastErrorMessage returns) is
// written only by the C API boundary (runtime/api_result.h: record), from the error value a
// call returned; code below the boundary returns its errors as values (Status, ApiResult)
// and never touches it.
#pragma once

#include <cstdarg>
#include <string>

#include "hal/types.h"

namespace nn {

// The boundary's store: `message` becomes the last error (empty clears it) and is printed to
// stderr when NNAPI_LOG is set and non-empty.
void recordLastError(std::string message);
const std::string& lastError();
void clearLastError();


// Informational line, printed only when NNAPI_LOG is set.
void logInfo(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
bool loggingEnabled();

}  // namespace nn
