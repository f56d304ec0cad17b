#include "runtime/api_result.h"

#include <cstdarg>

#include "hal/log.h"
#include "runtime/result_code.h"

namespace nn {

ApiResult apiError(int code, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string message = vformatString(fmt, args);
  va_end(args);
  return ApiResult(code, std::move(message));
}

ApiResult fromStatus(const Status& status, const char* context) {
  if (status.ok()) return apiOk();
  const int code = resultCodeFromStatus(status.code());
  if (status.message().empty())
    return apiError(code, "%s: failed with %s", context, toString(status.code()));
  return apiError(code, "%s: %s", context, status.message().c_str());
}

ApiResult exceptionResult(const char* where, int code, const char* what) noexcept {
  try {
    return ApiResult(code, formatString("%s: %s", where, what));
  } catch (...) {
    return ApiResult(code, std::string());
  }
}

int record(ApiResult result) {
  const int code = result.code();
  if (result.ok()) {
    clearLastError();
  } else {
    recordLastError(result.takeMessage());
  }
  return code;
}

}  // namespace nn
