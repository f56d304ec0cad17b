// DENSIFY's sparse-format metadata, read and checked by shape inference and again by the
// CPU kernel (every piece of it may come from a model input). Defined in spec/ops/densify.cc.
#pragma once

#include <cstdint>
#include <vector>

#include "spec/operation.h"

namespace nn {
namespace densify {

constexpr uint32_t kValues = 0;
constexpr uint32_t kTraversalOrder = 1;
constexpr uint32_t kBlockMap = 2;
constexpr uint32_t kDimFormat = 3;
constexpr uint32_t kDimensions = 4;
constexpr uint32_t kFirstLevelArray = 5;
constexpr int32_t kDense = 0;
constexpr int32_t kSparseCsr = 1;
// Keeps element counts and per-level position counts far from 64-bit overflow and rejects
// outputs no buffer could hold.
constexpr uint64_t kMaxOutputElements = 0x7fffffffull;
constexpr uint64_t kPositionLimit = 1ull << 40;

// A rank-1 int32 input as seen by shape inference and the kernel. An omitted input is an
// empty array.
struct IntArray {
  const int32_t* data = nullptr;
  uint32_t size = 0;
  bool available = true;  // false: non-empty but the value is not known yet
  int32_t operator[](size_t i) const { return data[i]; }
};

// The metadata that determines the output shape, checked and digested.
struct Layout {
  uint32_t levels = 0;                // L
  uint32_t rank = 0;                  // n, the output rank
  std::vector<int32_t> format;        // per level (empty when not known yet)
  std::vector<uint32_t> levelSize;    // per level
  std::vector<uint32_t> levelDim;     // per level: the original dimension it walks
  std::vector<uint64_t> levelStride;  // per level: output elements per coordinate step
  Dims outDims;
  uint64_t outCount = 0;
};

// Reads inputs 1..4 and derives the output shape. Returns kDeferred when a value needed for
// the shape is not available yet.
Status buildLayout(const ShapeContext& ctx, Layout* layout);

// Checks the CSR arrays of every sparse level and that the structure addresses exactly the
// stored values. After this the traversal stays within every array and the output.
Status checkStructure(const ShapeContext& ctx, const Layout& layout, uint64_t valueCount,
                      std::vector<IntArray>* segmentsOut, std::vector<IntArray>* indicesOut);

}  // namespace densify
}  // namespace nn
