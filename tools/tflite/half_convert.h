// IEEE half -> float32 widening for constants the importer folds (DEQUANTIZE of float16
// weights), fast enough that importing a model with tens of MB of float16 weights is bounded by
// memory bandwidth rather than by a scalar loop, and bit-exact for every half value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace nnapi_tflite {

// The scalar definition: exact for every value, signalling NaNs stay signalling (payload
// shifted into the float's mantissa), subnormals renormalised.
float HalfBitsToFloat(uint16_t h);

// Widens `n` little-endian halves at `src` (any alignment) into `dst`; the result equals
// HalfBitsToFloat element by element. Uses F16C when the CPU has it (chosen at run time; the
// code is built for the baseline ISA), the scalar definition otherwise.
void HalfToFloatArray(const uint8_t* src, float* dst, size_t n);

// Which path HalfToFloatArray takes on this CPU ("f16c" or "scalar"), for tests and reports.
const char* HalfToFloatPath();

// Storage for the constants folded at import (dequantized weights, tens of MB for the large
// models): carved from a few big chunks, uninitialised (every byte is written right away, so
// no zero-fill pass and no copy). Blocks stay put and live as long as the arena. (Transparent
// huge pages were tried: on this VM fresh 2 MB pages made the import time erratic, 15-180 ms
// for pose_landmark_heavy, against a steady ~30 ms with 4 KB pages.)
struct FreeDeleter {
  void operator()(uint8_t* p) const;
};
class ConstantArena {
 public:
  // `n` bytes, 64-byte aligned; nullptr when out of memory.
  uint8_t* Allocate(size_t n);

 private:
  std::vector<std::unique_ptr<uint8_t, FreeDeleter>> chunks_;
  size_t used_ = 0, capacity_ = 0;  // of the last chunk
};

}  // namespace nnapi_tflite
