// ANeuralNetworksMemory: an mmapped file descriptor (memfd, shm, regular file, dma-buf)
// shared zero-copy with models (constants) and executions (inputs/outputs).
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "hal/types.h"
#include "runtime/api_result.h"

namespace nn {

class RuntimeCompilation;

// One use a device memory was declared for (ANeuralNetworksMemoryDesc_add*Role).
struct MemoryRole {
  const RuntimeCompilation* compilation = nullptr;
  bool isInput = true;
  uint32_t index = 0;
  bool operator==(const MemoryRole& o) const {
    return compilation == o.compilation && isInput == o.isInput && index == o.index;
  }
};

// What a memory created from a descriptor knows about itself.
struct DescMemoryInfo {
  std::vector<MemoryRole> roles;
  OperandType type = OperandType::TENSOR_FLOAT32;
  Dims dimensions;  // fully specified
};

class RuntimeMemory {
 public:
  // Maps [offset, offset+size) of fd.
  static ApiResult createFromFd(size_t size, int protect, int fd, size_t offset,
                                std::unique_ptr<RuntimeMemory>* out);
  // Host memory for a finished descriptor; starts uninitialized.
  static ApiResult createFromDesc(const DescMemoryInfo& info, std::unique_ptr<RuntimeMemory>* out);

  // Non-null for memories created from a descriptor.
  const DescMemoryInfo* desc() const { return desc_.get(); }
  bool hasRole(const RuntimeCompilation* compilation, bool isInput, uint32_t index) const;
  // Descriptor memories hold valid data only after a successful output or copy.
  bool initialized() const { return initialized_.load(); }
  void setInitialized(bool v) const { initialized_.store(v); }

  const SharedMemory& memory() const { return memory_; }
  uint8_t* data() const { return memory_->data(); }
  size_t size() const { return memory_->size(); }
  bool readable() const { return readable_; }
  bool writable() const { return writable_; }
  // Resolves [offset, offset+length) to a pointer; nullptr when the range is outside.
  uint8_t* region(size_t offset, size_t length) const {
    return memory_->contains(offset, length) ? memory_->data() + offset : nullptr;
  }

 private:
  explicit RuntimeMemory(SharedMemory memory) : memory_(std::move(memory)) {}
  SharedMemory memory_;
  bool readable_ = true;
  bool writable_ = true;
  std::unique_ptr<DescMemoryInfo> desc_;
  mutable std::atomic<bool> initialized_{true};
};

// A Memory that does not own its bytes (caller pointers: large setOperandValue buffers).
class PointerMemory : public Memory {
 public:
  PointerMemory(const void* base, size_t size)
      : Memory(static_cast<uint8_t*>(const_cast<void*>(base)), size) {}
};

}  // namespace nn
