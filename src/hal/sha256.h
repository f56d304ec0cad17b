// SHA-256 (FIPS 180-4): the model architecture hash of the diagnostics records and the
// payload checksum of cache files (hal/cache_file.h). Small and dependency-free: the hash only
// has to be stable and collision-resistant, not fast.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace nn {

class Sha256 {
 public:
  Sha256();
  void update(const void* data, size_t length);
  template <typename T>
  void updateValue(const T& value) {
    update(&value, sizeof(value));
  }
  std::array<uint8_t, 32> finish();

 private:
  void block(const uint8_t* p);
  uint32_t h_[8];
  uint8_t buffer_[64];
  size_t buffered_ = 0;
  uint64_t totalBytes_ = 0;
};

}  // namespace nn
