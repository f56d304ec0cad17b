// ANeuralNetworksMemory: an mmapped file descriptor (memfd, shm, regular file, dma-buf)
// shared zero-copy with models (constants) and executions (inputs/outputs).
#pragma once

#include <memory>

#include "hal/types.h"

namespace nn {

class RuntimeMemory {
 public:
  // Maps [offset, offset+size) of fd. Returns an ANEURALNETWORKS_* result code.
  static int createFromFd(size_t size, int protect, int fd, size_t offset,
                          std::unique_ptr<RuntimeMemory>* out);

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
};

// A Memory that does not own its bytes (caller pointers: large setOperandValue buffers).
class PointerMemory : public Memory {
 public:
  PointerMemory(const void* base, size_t size)
      : Memory(static_cast<uint8_t*>(const_cast<void*>(base)), size) {}
};

}  // namespace nn
