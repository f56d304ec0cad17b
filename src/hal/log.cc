#include "hal/log.h"

#include <cstdio>
#include <cstdlib>

namespace nn {
namespace {
thread_local std::string tLastError;

void printError(const std::string& message) {
  fprintf(stderr, "nnapi: error: %s\n", message.c_str());
}
}  // namespace

bool loggingEnabled() {
  static const bool enabled = [] {
    const char* v = getenv("NNAPI_LOG");
    return v != nullptr && v[0] != '\0' && v[0] != '0';
  }();
  return enabled;
}

void recordLastError(std::string message) {
  tLastError = std::move(message);
  if (loggingEnabled() && !tLastError.empty()) printError(tLastError);
}

const std::string& lastError() { return tLastError; }

void clearLastError() { tLastError.clear(); }

void logInfo(const char* fmt, ...) {
  if (!loggingEnabled()) return;
  va_list args;
  va_start(args, fmt);
  const std::string line = vformatString(fmt, args);
  va_end(args);
  // One fprintf per line so lines from concurrent threads do not interleave.
  fprintf(stderr, "nnapi: %s\n", line.c_str());
}

}  // namespace nn
