// The parts of RuntimeCompilation the SL entry points add: cache files given as fds, and the
// per-compilation part of the diagnostic records.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "runtime/compilation.h"

namespace nn {

RuntimeCompilation::CacheFds::~CacheFds() {
  for (int fd : modelFds) close(fd);
  for (int fd : dataFds) close(fd);
}

ApiResult RuntimeCompilation::setCachingFromFds(const int* modelCacheFds,
                                                uint32_t numModelCacheFiles,
                                                const int* dataCacheFds, uint32_t numDataCacheFiles,
                                                const uint8_t* token) {
  const char* fn = "SL_ANeuralNetworksCompilation_setCachingFromFds";
  NN_API_RETURN_IF_ERROR(checkMutable(fn));
  // Duplicates, so the caller may close its fds right away; all or nothing.
  std::vector<int> model, data;
  auto release = [&] {
    for (int fd : model) close(fd);
    for (int fd : data) close(fd);
  };
  auto dupAll = [&](const int* fds, uint32_t count, std::vector<int>* out,
                    const char* which) -> ApiResult {
    for (uint32_t i = 0; i < count; ++i) {
      const int fd = fds[i] < 0 ? -1 : fcntl(fds[i], F_DUPFD_CLOEXEC, 0);
      if (fd < 0) {
        return apiError(ANEURALNETWORKS_BAD_DATA, "%s: %s[%u] = %d cannot be duplicated (%s)", fn,
                        which, i, fds[i], fds[i] < 0 ? "negative" : std::strerror(errno));
      }
      out->push_back(fd);
    }
    return apiOk();
  };
  ApiResult r = dupAll(modelCacheFds, numModelCacheFiles, &model, "modelCacheFds");
  if (r.ok()) r = dupAll(dataCacheFds, numDataCacheFiles, &data, "dataCacheFds");
  if (!r.ok()) {
    release();
    return r;
  }
  for (int fd : cacheFds_.modelFds) close(fd);
  for (int fd : cacheFds_.dataFds) close(fd);
  cacheFds_.modelFds = std::move(model);
  cacheFds_.dataFds = std::move(data);
  std::copy(token, token + cacheFds_.token.size(), cacheFds_.token.begin());
  cacheToken_ = cacheFds_.token;
  cacheFds_.set = true;
  return apiOk();
}

const diag::ModelSummary& RuntimeCompilation::diagnosticSummary() const {
  // Executions of one compilation may report from several threads at once.
  std::call_once(diagnosticOnce_, [this] {
    diagnosticSummary_ = std::make_unique<diag::ModelSummary>(diag::summarize(*this));
  });
  return *diagnosticSummary_;
}

}  // namespace nn
