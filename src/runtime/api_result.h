// Errors are values in the runtime: every runtime call returns an ApiResult, the public result
// code (ANEURALNETWORKS_*) plus, on failure, the message that says why. The value travels up
// (also across threads, stored with an execution or an event) to the C API entry point, which
// alone records it as the calling thread's last error (apiCall / record below).
#pragma once

#include <android/NeuralNetworks.h>

#include <exception>
#include <new>
#include <string>
#include <utility>

#include "hal/types.h"

namespace nn {

class [[nodiscard]] ApiResult {
 public:
  // Success: no message, nothing allocated.
  ApiResult() = default;
  ApiResult(int code, std::string message) : code_(code), message_(std::move(message)) {}

  int code() const { return code_; }
  bool ok() const { return code_ == ANEURALNETWORKS_NO_ERROR; }
  const std::string& message() const { return message_; }
  std::string takeMessage() { return std::move(message_); }

 private:
  int code_ = ANEURALNETWORKS_NO_ERROR;
  std::string message_;
};

inline ApiResult apiOk() { return ApiResult(); }

// printf-style failure.
ApiResult apiError(int code, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// A driver or catalog status as a public result: the code maps through resultCodeFromStatus
// and the message becomes "<context>: <status message>". A status that carries no message is
// described by its code, so a failure is never silent.
ApiResult fromStatus(const Status& status, const char* context);

// The result for an exception caught at a boundary; allocates nothing when memory is gone
// (the message then stays empty rather than throwing again).
ApiResult exceptionResult(const char* where, int code, const char* what) noexcept;

// The C API boundary: records `result` as the calling thread's last error (cleared on
// success; printed when NNAPI_LOG is set) and returns its code.
int record(ApiResult result);

// Turns an exception escaping `body` into a result: std::bad_alloc is OUT_OF_MEMORY, anything
// else OP_FAILED, each with a message naming `where`. No exception may cross the C API.
template <typename Body>
ApiResult guardExceptions(const char* where, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return exceptionResult(where, ANEURALNETWORKS_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return exceptionResult(where, ANEURALNETWORKS_OP_FAILED, e.what());
  } catch (...) {
    return exceptionResult(where, ANEURALNETWORKS_OP_FAILED, "unknown exception");
  }
}

// Runs an entry point's body (a callable returning ApiResult on every path) and records its
// outcome, so no return can bypass the boundary and no exception can cross it.
template <typename Body>
int apiCall(Body&& body) noexcept {
  return record(guardExceptions("NNAPI call", body));
}

}  // namespace nn

// Inside an apiCall body: UNEXPECTED_NULL naming the function and the argument.
#define NN_API_CHECK_NULL(fn, ptr)                                                            \
  do {                                                                                        \
    if ((ptr) == nullptr)                                                                     \
      return ::nn::apiError(ANEURALNETWORKS_UNEXPECTED_NULL, "%s: argument '%s' is NULL", fn, \
                            #ptr);                                                            \
  } while (0)

// Propagates a failed ApiResult to the caller.
#define NN_API_RETURN_IF_ERROR(expr)         \
  do {                                       \
    ::nn::ApiResult _nn_result = (expr);     \
    if (!_nn_result.ok()) return _nn_result; \
  } while (0)
