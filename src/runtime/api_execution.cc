// C entry points: ANeuralNetworksExecution_* and ANeuralNetworksEvent_*.
#include <linux/sync_file.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <new>

#include "runtime/api_util.h"
#include "runtime/compilation.h"
#include "runtime/execution.h"
#include "runtime/memory.h"

using namespace nn;

extern "C" {

int ANeuralNetworksExecution_create(ANeuralNetworksCompilation* compilation,
                                    ANeuralNetworksExecution** execution) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksExecution_create";
    NN_API_CHECK_NULL(fn, execution);
    *execution = nullptr;
    NN_API_CHECK_NULL(fn, compilation);
    const RuntimeCompilation* c = fromHandle(compilation);
    if (!c->isValid()) {
      return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the compilation is not finished or failed",
                      fn);
    }
    auto* e = new (std::nothrow) RuntimeExecution(c);
    if (e == nullptr) return apiError(ANEURALNETWORKS_OUT_OF_MEMORY, "%s: out of memory", fn);
    *execution = reinterpret_cast<ANeuralNetworksExecution*>(e);
    return apiOk();
  });
}

void ANeuralNetworksExecution_free(ANeuralNetworksExecution* execution) {
  RuntimeExecution* e = fromHandle(execution);
  if (e == nullptr) return;
  if (e->isComputing()) {
    // Freeing under a running computation would pull memory from under it.
    (void)record(apiError(ANEURALNETWORKS_BAD_STATE,
                          "ANeuralNetworksExecution_free: the execution is still computing; "
                          "ignored"));
    return;
  }
  delete e;
}

int ANeuralNetworksExecution_setInput(ANeuralNetworksExecution* execution, int32_t index,
                                      const ANeuralNetworksOperandType* type, const void* buffer,
                                      size_t length) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksExecution_setInput";
    NN_API_CHECK_NULL(fn, execution);
    if (buffer == nullptr && length != 0) {
      return apiError(ANEURALNETWORKS_UNEXPECTED_NULL, "%s: buffer is NULL but length is %zu", fn,
                      length);
    }
    return fromHandle(execution)->setInput(index, type, buffer, length);
  });
}

int ANeuralNetworksExecution_setInputFromMemory(ANeuralNetworksExecution* execution, int32_t index,
                                                const ANeuralNetworksOperandType* type,
                                                const ANeuralNetworksMemory* memory, size_t offset,
                                                size_t length) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksExecution_setInputFromMemory";
    NN_API_CHECK_NULL(fn, execution);
    NN_API_CHECK_NULL(fn, memory);
    return fromHandle(execution)->setInputFromMemory(index, type, fromHandle(memory), offset,
                                                     length);
  });
}

int ANeuralNetworksExecution_setOutput(ANeuralNetworksExecution* execution, int32_t index,
                                       const ANeuralNetworksOperandType* type, void* buffer,
                                       size_t length) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksExecution_setOutput";
    NN_API_CHECK_NULL(fn, execution);
    if (buffer == nullptr && length != 0) {
      return apiError(ANEURALNETWORKS_UNEXPECTED_NULL, "%s: buffer is NULL but length is %zu", fn,
                      length);
    }
    return fromHandle(execution)->setOutput(index, type, buffer, length);
  });
}

int ANeuralNetworksExecution_setOutputFromMemory(ANeuralNetworksExecution* execution,
                                                 int32_t index,
                                                 const ANeuralNetworksOperandType* type,
                                                 const ANeuralNetworksMemory* memory,
                                                 size_t offset, size_t length) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksExecution_setOutputFromMemory";
    NN_API_CHECK_NULL(fn, execution);
    NN_API_CHECK_NULL(fn, memory);
    return fromHandle(execution)->setOutputFromMemory(index, type, fromHandle(memory), offset,
                                                      length);
  });
}

int ANeuralNetworksExecution_compute(ANeuralNetworksExecution* execution) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksExecution_compute", execution);
    return fromHandle(execution)->compute();
  });
}

int ANeuralNetworksExecution_startCompute(ANeuralNetworksExecution* execution,
                                          ANeuralNetworksEvent** event) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksExecution_startCompute";
    NN_API_CHECK_NULL(fn, event);
    *event = nullptr;
    NN_API_CHECK_NULL(fn, execution);
    std::unique_ptr<RuntimeEvent> e;
    NN_API_RETURN_IF_ERROR(fromHandle(execution)->startCompute(&e));
    *event = reinterpret_cast<ANeuralNetworksEvent*>(e.release());
    return apiOk();
  });
}

int ANeuralNetworksExecution_startComputeWithDependencies(
    ANeuralNetworksExecution* execution, const ANeuralNetworksEvent* const* dependencies,
    uint32_t num_dependencies, uint64_t duration, ANeuralNetworksEvent** event) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksExecution_startComputeWithDependencies";
    NN_API_CHECK_NULL(fn, event);
    *event = nullptr;
    NN_API_CHECK_NULL(fn, execution);
    if (dependencies == nullptr && num_dependencies != 0) {
      return apiError(ANEURALNETWORKS_UNEXPECTED_NULL,
                      "%s: dependencies is NULL but num_dependencies is %u", fn, num_dependencies);
    }
    std::vector<RuntimeEvent*> deps;
    for (uint32_t i = 0; i < num_dependencies; ++i) {
      NN_API_CHECK_NULL(fn, dependencies[i]);
      deps.push_back(fromHandle(dependencies[i]));
    }
    std::unique_ptr<RuntimeEvent> e;
    NN_API_RETURN_IF_ERROR(fromHandle(execution)->startComputeWithDependencies(deps, duration, &e));
    *event = reinterpret_cast<ANeuralNetworksEvent*>(e.release());
    return apiOk();
  });
}

int ANeuralNetworksExecution_burstCompute(ANeuralNetworksExecution* execution,
                                          ANeuralNetworksBurst* burst) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksExecution_burstCompute", execution);
    NN_API_CHECK_NULL("ANeuralNetworksExecution_burstCompute", burst);
    return fromHandle(execution)->burstCompute(fromHandle(burst));
  });
}

int ANeuralNetworksExecution_setMeasureTiming(ANeuralNetworksExecution* execution, bool measure) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksExecution_setMeasureTiming", execution);
    return fromHandle(execution)->setMeasureTiming(measure);
  });
}

int ANeuralNetworksExecution_getDuration(const ANeuralNetworksExecution* execution,
                                         int32_t durationCode, uint64_t* duration) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksExecution_getDuration", execution);
    NN_API_CHECK_NULL("ANeuralNetworksExecution_getDuration", duration);
    return fromHandle(execution)->getDuration(durationCode, duration);
  });
}

int ANeuralNetworksExecution_getOutputOperandRank(ANeuralNetworksExecution* execution,
                                                  int32_t index, uint32_t* rank) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksExecution_getOutputOperandRank", execution);
    NN_API_CHECK_NULL("ANeuralNetworksExecution_getOutputOperandRank", rank);
    return fromHandle(execution)->getOutputOperandRank(index, rank);
  });
}

int ANeuralNetworksExecution_getOutputOperandDimensions(ANeuralNetworksExecution* execution,
                                                        int32_t index, uint32_t* dimensions) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksExecution_getOutputOperandDimensions", execution);
    NN_API_CHECK_NULL("ANeuralNetworksExecution_getOutputOperandDimensions", dimensions);
    return fromHandle(execution)->getOutputOperandDimensions(index, dimensions);
  });
}

int ANeuralNetworksExecution_setTimeout(ANeuralNetworksExecution* execution, uint64_t duration) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksExecution_setTimeout", execution);
    return fromHandle(execution)->setTimeout(duration);
  });
}

int ANeuralNetworksExecution_setLoopTimeout(ANeuralNetworksExecution* execution, uint64_t duration) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksExecution_setLoopTimeout", execution);
    return fromHandle(execution)->setLoopTimeout(duration);
  });
}

int ANeuralNetworksExecution_enableInputAndOutputPadding(ANeuralNetworksExecution* execution,
                                                         bool enable) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksExecution_enableInputAndOutputPadding", execution);
    return fromHandle(execution)->enableInputAndOutputPadding(enable);
  });
}

int ANeuralNetworksExecution_setReusable(ANeuralNetworksExecution* execution, bool reusable) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksExecution_setReusable", execution);
    return fromHandle(execution)->setReusable(reusable);
  });
}

int ANeuralNetworksExecution_addExtensionAttribute(ANeuralNetworksExecution* execution,
                                                   const char* extensionName,
                                                   uint16_t attributeCodeWithinExtension,
                                                   const void* data, size_t length) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksExecution_addExtensionAttribute";
    NN_API_CHECK_NULL(fn, execution);
    NN_API_CHECK_NULL(fn, extensionName);
    if (data == nullptr && length > 0) {
      return apiError(ANEURALNETWORKS_UNEXPECTED_NULL, "%s: data is NULL but length is %zu", fn,
                      length);
    }
    return fromHandle(execution)
        ->addExtensionAttribute(extensionName, attributeCodeWithinExtension, data, length);
  });
}

// The computation's own outcome (computed on a worker thread for startCompute) becomes the
// waiting thread's last error, and stays readable after the wait.
int ANeuralNetworksEvent_wait(ANeuralNetworksEvent* event) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksEvent_wait", event);
    return fromHandle(event)->wait();
  });
}

void ANeuralNetworksEvent_free(ANeuralNetworksEvent* event) {
  RuntimeEvent* e = fromHandle(event);
  if (e == nullptr) return;
  (void)e->wait();  // an event must not outlive its computation
  delete e;
}

int ANeuralNetworksEvent_createFromSyncFenceFd(int syncFenceFd, ANeuralNetworksEvent** event) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksEvent_createFromSyncFenceFd";
    NN_API_CHECK_NULL(fn, event);
    *event = nullptr;
    if (syncFenceFd <= 0) {
      return apiError(ANEURALNETWORKS_BAD_DATA, "%s: invalid sync fence fd %d", fn, syncFenceFd);
    }
    // Only a Linux sync_file signals the way Event_wait polls for; any other fd (a pipe, a
    // socket, a regular file) may never signal, so a wait on it would never return.
    sync_file_info info{};
    if (ioctl(syncFenceFd, SYNC_IOC_FILE_INFO, &info) != 0) {
      return apiError(ANEURALNETWORKS_BAD_DATA,
                      "%s: fd %d is not a sync fence (the SYNC_IOC_FILE_INFO query failed)", fn,
                      syncFenceFd);
    }
    const int fd = dup(syncFenceFd);
    if (fd < 0) return apiError(ANEURALNETWORKS_BAD_DATA, "%s: dup(%d) failed", fn, syncFenceFd);
    *event = reinterpret_cast<ANeuralNetworksEvent*>(RuntimeEvent::fromSyncFence(fd).release());
    return apiOk();
  });
}

int ANeuralNetworksEvent_getSyncFenceFd(const ANeuralNetworksEvent* event, int* syncFenceFd) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksEvent_getSyncFenceFd";
    NN_API_CHECK_NULL(fn, syncFenceFd);
    *syncFenceFd = -1;
    NN_API_CHECK_NULL(fn, event);
    const int fd = fromHandle(event)->syncFenceFd();
    if (fd < 0) {
      return apiError(ANEURALNETWORKS_BAD_DATA, "%s: the event is not backed by a sync fence", fn);
    }
    *syncFenceFd = dup(fd);
    if (*syncFenceFd < 0) return apiError(ANEURALNETWORKS_OP_FAILED, "%s: dup(%d) failed", fn, fd);
    return apiOk();
  });
}

}  // extern "C"
