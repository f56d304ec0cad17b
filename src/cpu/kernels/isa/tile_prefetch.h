#pragma once

#include <cstddef>
#include <cstdint>

namespace nn {

// The weight-tile prefetch schedule shared by the float32 and float16 panel GEMMs: while one
// packed tile (k lines of 128 bytes) is swept over a row block, its first two register blocks
// each request k of the next tile's 2k cache lines into L2, one per step of k. The first sweep
// over a large weight matrix otherwise waits on L3/DRAM for every tile. Prefetches change no
// result.
class TilePrefetch {
 public:
  // `next`: the tile taken after this one, or null (last tile, or weights that stay in L1).
  // `lines`: the tile's cache lines (0: 2 * k, as above; a float32 GEMM tile of float16
  // weights has k).
  TilePrefetch(const void* next, uint32_t k, uint32_t lines = 0)
      : next_(static_cast<const char*>(next)), k_(k), lines_(lines != 0 ? lines : 2 * k) {}
  // The slice for the next register block to prefetch, or null once the whole tile is asked for.
  const char* take() {
    if (next_ == nullptr || done_ >= lines_) return nullptr;
    const char* p = next_ + static_cast<size_t>(done_) * 64;
    done_ += k_;
    return p;
  }

 private:
  const char* next_;
  uint32_t k_;
  uint32_t lines_;
  uint32_t done_ = 0;  // lines of `next_` requested
};

// Weights that fit L1 with room to spare stay there after the first row block: no prefetch.
inline bool weightsStayInL1(size_t bytes) { return bytes <= 32 * 1024; }

}  // namespace nn
