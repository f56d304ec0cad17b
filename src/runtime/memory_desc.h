// ANeuralNetworksMemoryDesc: collects the roles (compilation inputs/outputs) a device memory
// will serve and the shape it must have; ANeuralNetworksMemory_createFromDesc allocates it.
#pragma once

#include <memory>

#include <vector>

#include "runtime/memory.h"

namespace nn {

class RuntimeMemoryDesc {
 public:
  ApiResult addRole(const RuntimeCompilation* compilation, bool isInput, uint32_t index,
                    float frequency);
  ApiResult setDimensions(uint32_t rank, const uint32_t* dimensions);
  ApiResult finish();
  bool isFinished() const { return finished_; }
  const DescMemoryInfo& info() const { return info_; }

 private:
  DescMemoryInfo info_;
  float scale_ = 0.f;
  int32_t zeroPoint_ = 0;
  // Per-channel parameters of the roles (TENSOR_QUANT8_SYMM_PER_CHANNEL), equal for every role.
  std::shared_ptr<ChannelQuant> channelQuant_;
  bool haveDims_ = false;  // info_.dimensions holds a (possibly partial) shape
  bool finished_ = false;
};

// Merges two shapes where 0 means unknown (empty = unknown rank); false when they conflict.
bool combineDimensions(const Dims& a, const Dims& b, Dims* out);

}  // namespace nn
