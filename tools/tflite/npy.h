// Minimal NumPy .npy reader/writer (C-order arrays, little-endian).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nnapi_tflite {

struct NpyArray {
  std::string dtype;            // descr as written in the header, e.g. "<f4"
  std::vector<uint64_t> shape;  // empty for a 0-d array
  std::vector<uint8_t> data;    // raw element bytes, C order
  uint64_t element_count() const;
};

// Parses .npy bytes. Rejects Fortran order, big-endian data and sizes that disagree with the
// header; returns false with a message naming the problem.
bool ParseNpy(const uint8_t* bytes, size_t size, NpyArray* out, std::string* error);
bool ReadNpyFile(const std::string& path, NpyArray* out, std::string* error);

// Converts the array's elements to float32 (supports f2/f4/f8, i1/i2/i4/i8, u1/u2/u4/u8, b1).
bool NpyToFloat32(const NpyArray& a, std::vector<float>* out, std::string* error);

// Writes a version 1.0 .npy file with the given descr ("<f4", "<i4", "|u1", "|i1", "|b1", "<f2").
bool WriteNpyFile(const std::string& path, const std::string& dtype, const std::vector<uint64_t>& shape,
                  const void* data, size_t bytes, std::string* error);
// Serialises to memory (same format as WriteNpyFile).
std::vector<uint8_t> EncodeNpy(const std::string& dtype, const std::vector<uint64_t>& shape,
                               const void* data, size_t bytes);

}  // namespace nnapi_tflite
