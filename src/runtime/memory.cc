#include "runtime/memory.h"

#include <android/NeuralNetworks.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace nn {
namespace {

// Owns an mmap of a duplicated fd.
class FdMemory : public Memory {
 public:
  FdMemory(uint8_t* mapBase, size_t mapLength, size_t pageDelta, size_t size, int fd)
      : Memory(mapBase + pageDelta, size), mapBase_(mapBase), mapLength_(mapLength), fd_(fd) {}
  ~FdMemory() override {
    if (mapBase_ != nullptr) munmap(mapBase_, mapLength_);
    if (fd_ >= 0) close(fd_);
  }

 private:
  uint8_t* mapBase_;
  size_t mapLength_;
  int fd_;
};

}  // namespace

ApiResult RuntimeMemory::createFromFd(size_t size, int protect, int fd, size_t offset,
                                      std::unique_ptr<RuntimeMemory>* out) {
  if (size == 0) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "ANeuralNetworksMemory_createFromFd: size must be > 0");
  }
  if (fd < 0) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "ANeuralNetworksMemory_createFromFd: invalid file descriptor %d", fd);
  }
  if ((protect & ~(PROT_READ | PROT_WRITE)) != 0) {
    return apiError(
        ANEURALNETWORKS_BAD_DATA,
        "ANeuralNetworksMemory_createFromFd: protect must be PROT_NONE or a combination of "
        "PROT_READ|PROT_WRITE, got 0x%x",
        protect);
  }
  const int dupFd = dup(fd);
  if (dupFd < 0) {
    return apiError(ANEURALNETWORKS_OP_FAILED,
                    "ANeuralNetworksMemory_createFromFd: dup(%d) failed: %s", fd, strerror(errno));
  }
  // mmap needs a page-aligned offset; map from the enclosing page and remember the delta.
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t alignedOffset = offset - offset % page;
  const size_t delta = offset - alignedOffset;
  if (size > SIZE_MAX - delta) {
    close(dupFd);
    return apiError(ANEURALNETWORKS_BAD_DATA, "ANeuralNetworksMemory_createFromFd: size overflows");
  }
  const size_t mapLength = size + delta;
  const int mapProt = protect == 0 ? PROT_READ : protect;
  void* base = mmap(nullptr, mapLength, mapProt, MAP_SHARED, dupFd, static_cast<off_t>(alignedOffset));
  if (base == MAP_FAILED) {
    const int err = errno;
    close(dupFd);
    return apiError(
        ANEURALNETWORKS_UNMAPPABLE,
        "ANeuralNetworksMemory_createFromFd: mmap of %zu bytes at offset %zu failed: %s", size,
        offset, strerror(err));
  }
  // A mapping past the end of the file would SIGBUS on access; reject it now.
  off_t fileEnd = lseek(dupFd, 0, SEEK_END);
  if (fileEnd >= 0 && static_cast<uint64_t>(fileEnd) < static_cast<uint64_t>(offset) + size) {
    munmap(base, mapLength);
    close(dupFd);
    return apiError(
        ANEURALNETWORKS_BAD_DATA,
        "ANeuralNetworksMemory_createFromFd: offset %zu + size %zu exceeds the file size %lld",
        offset, size, static_cast<long long>(fileEnd));
  }
  auto mem = std::make_shared<FdMemory>(static_cast<uint8_t*>(base), mapLength, delta, size, dupFd);
  out->reset(new RuntimeMemory(std::move(mem)));
  (*out)->readable_ = (protect & PROT_READ) != 0;
  (*out)->writable_ = (protect & PROT_WRITE) != 0;
  return apiOk();
}

namespace {
// Zero-initialized, 64-byte aligned host storage.
class HostMemory : public Memory {
 public:
  explicit HostMemory(size_t size)
      : Memory(static_cast<uint8_t*>(aligned_alloc(64, (std::max<size_t>(size, 1) + 63) / 64 * 64)),
               size) {
    if (base_) memset(base_, 0, size);
  }
  ~HostMemory() override { free(base_); }
};
}  // namespace

ApiResult RuntimeMemory::createFromDesc(const DescMemoryInfo& info,
                                        std::unique_ptr<RuntimeMemory>* out) {
  const uint64_t bytes = byteSize(info.type, info.dimensions);
  auto mem = std::make_shared<HostMemory>(static_cast<size_t>(bytes));
  if (mem->data() == nullptr) {
    return apiError(ANEURALNETWORKS_OP_FAILED,
                    "ANeuralNetworksMemory_createFromDesc: cannot allocate %llu bytes",
                    static_cast<unsigned long long>(bytes));
  }
  out->reset(new RuntimeMemory(std::move(mem)));
  (*out)->desc_ = std::make_unique<DescMemoryInfo>(info);
  (*out)->initialized_ = false;
  return apiOk();
}

bool RuntimeMemory::hasRole(const RuntimeCompilation* compilation, bool isInput,
                            uint32_t index) const {
  if (!desc_) return true;
  for (const MemoryRole& r : desc_->roles)
    if (r.compilation == compilation && r.isInput == isInput && r.index == index) return true;
  return false;
}

}  // namespace nn
