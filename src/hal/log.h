// Diagnostics: every rejection records a message as the calling thread's last error
// (ANNLinux_getLastErrorMessage) and prints it to stderr when NNAPI_LOG is set.
#pragma once

#include <string>

#include "hal/types.h"

namespace nn {

// printf-style; records and (optionally) logs. Returns nothing so callers choose the code.
void logError(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
// Informational line, printed only when NNAPI_LOG is set.
void logInfo(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void setLastError(const std::string& message);
const std::string& lastError();
void clearLastError();
bool loggingEnabled();

}  // namespace nn
