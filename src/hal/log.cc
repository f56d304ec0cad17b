#include "hal/log.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace nn {
namespace {
thread_local std::string tLastError;

std::string vformat(const char* fmt, va_list args) {
  char stackBuf[512];
  va_list copy;
  va_copy(copy, args);
  int n = vsnprintf(stackBuf, sizeof(stackBuf), fmt, copy);
  va_end(copy);
  if (n < 0) return fmt;
  if (static_cast<size_t>(n) < sizeof(stackBuf)) return std::string(stackBuf, n);
  std::string out(n + 1, '\0');
  vsnprintf(out.data(), out.size(), fmt, args);
  out.resize(n);
  return out;
}
}  // namespace

bool loggingEnabled() {
  static const bool enabled = [] {
    const char* v = getenv("NNAPI_LOG");
    return v != nullptr && v[0] != '\0' && v[0] != '0';
  }();
  return enabled;
}


void logError(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  tLastError = vformat(fmt, args);
  va_end(args);
  if (loggingEnabled()) fprintf(stderr, "nnapi: error: %s\n", tLastError.c_str());
}

void logInfo(const char* fmt, ...) {
  if (!loggingEnabled()) return;
  va_list args;
  va_start(args, fmt);
  std::string s = vformat(fmt, args);
  va_end(args);
  fprintf(stderr, "nnapi: %s\n", s.c_str());
}

void setLastError(const std::string& message) {
  tLastError = message;
  if (loggingEnabled() && !message.empty()) fprintf(stderr, "nnapi: error: %s\n", message.c_str());
}
const std::string& lastError() { return tLastError; }
void clearLastError() { tLastError.clear(); }

}  // namespace nn
