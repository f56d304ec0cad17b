// PAD on the CPU with the logical zero (0.0, or the zero point for 8-bit asymmetric
// tensors). Each input row (innermost dimension) lands in the output with one memcpy; only
// the padding regions are filled.
#include <algorithm>
#include <cstring>
#include <vector>

#include "cpu/kernels/isa/intrinsics.h"

#include "cpu/isa.h"
#include "cpu/kernel.h"
#include "cpu/thread_pool.h"
#include "spec/ops/pad.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

// Per kLanes-element chunk of an output row (outEl <= 16 * kLanes): the lanes stored, and the
// lanes j + l with headEl <= j + l < headEl + inEl, which read input element j + l - headEl.
// Returns the number of chunks.
template <int kLanes, typename Mask>
uint32_t chunkMasks(uint32_t headEl, uint32_t inEl, uint32_t outEl, Mask* store, Mask* valid) {
  auto bits = [](int64_t n) { return n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1; };
  const uint32_t chunks = (outEl + kLanes - 1) / kLanes;
  for (uint32_t i = 0; i < chunks; ++i) {
    const int64_t j = int64_t{kLanes} * i;
    const int64_t lanes = outEl - j < kLanes ? outEl - j : kLanes;
    int64_t lo = int64_t{headEl} - j, hi = int64_t{headEl} + inEl - j;
    lo = lo < 0 ? 0 : lo > lanes ? lanes : lo;
    hi = hi < lo ? lo : hi > lanes ? lanes : hi;
    store[i] = static_cast<Mask>(bits(lanes));
    valid[i] = static_cast<Mask>(bits(hi) & ~bits(lo));
  }
  return chunks;
}

// `pixels` rows of `outEl` 4-byte elements: zeros, then the `inEl` elements of the matching
// input row (rows `inEl` apart), then zeros from `headEl + inEl` on. Masked 16-lane loads and
// stores: the channel padding of BlazeFace's residual branches (64x64x24 -> 28) took 17 us as
// one memcpy and one memset call per pixel. Entered only after the run-time AVX-512 check; the
// intrinsics are always inlined, so nothing wide is emitted outside this function.
__attribute__((target("avx512f"))) void padPixels32Avx512(uint8_t* dst, const uint8_t* src,
                                                          size_t pixels, uint32_t headEl,
                                                          uint32_t inEl, uint32_t outEl) {
  int32_t* out = reinterpret_cast<int32_t*>(dst);
  const uintptr_t in = reinterpret_cast<uintptr_t>(src);
  __mmask16 store[16], valid[16];
  const uint32_t chunks = chunkMasks<16>(headEl, inEl, outEl, store, valid);
  for (size_t p = 0; p < pixels; ++p, out += outEl) {
    const uintptr_t row = in + p * inEl * sizeof(int32_t) - uintptr_t{headEl} * 4;
    for (uint32_t i = 0; i < chunks; ++i) {
      const __m512i v = _mm512_maskz_loadu_epi32(
          valid[i], reinterpret_cast<const void*>(row + uintptr_t{i} * 64));
      _mm512_mask_storeu_epi32(out + 16 * i, store[i], v);
    }
  }
}

// padPixels32Avx512 for 2-byte elements (the float16 temporaries of relaxed models, see
// graph_fusion.h): 32-lane chunks, outEl <= 512.
__attribute__((target("avx512f,avx512bw"))) void padPixels16Avx512(uint8_t* dst, const uint8_t* src,
                                                                 size_t pixels, uint32_t headEl,
                                                                 uint32_t inEl, uint32_t outEl) {
  int16_t* out = reinterpret_cast<int16_t*>(dst);
  const uintptr_t in = reinterpret_cast<uintptr_t>(src);
  __mmask32 store[16], valid[16];
  const uint32_t chunks = chunkMasks<32>(headEl, inEl, outEl, store, valid);
  for (size_t p = 0; p < pixels; ++p, out += outEl) {
    const uintptr_t row = in + p * inEl * sizeof(int16_t) - uintptr_t{headEl} * 2;
    for (uint32_t i = 0; i < chunks; ++i) {
      const __m512i v = _mm512_maskz_loadu_epi16(
          valid[i], reinterpret_cast<const void*>(row + uintptr_t{i} * 64));
      _mm512_mask_storeu_epi16(out + 32 * i, store[i], v);
    }
  }
}

Status execute(OpContext& ctx) {
  const Shape& inShape = ctx.inputShape(0);
  const Shape& outShape = ctx.outputShape(0);
  if (outShape.count() == 0) return kOk;
  std::vector<int32_t> pads;
  NN_RETURN_IF_ERROR(pad_ops::readPadPaddings(ctx, &pads));
  const size_t es = elementSize(inShape.type);
  const uint8_t fill = zeroByte(outShape);  // every padded type here has 1-byte or all-zero fill
  uint8_t* dst = ctx.output<uint8_t>(0);
  const uint8_t* src = ctx.input<uint8_t>(0);

  // Canonical 4-D view with leading unit dimensions.
  const size_t rank = inShape.rank();
  uint32_t id[4] = {1, 1, 1, 1}, od[4] = {1, 1, 1, 1}, before[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < rank; ++i) {
    id[4 - rank + i] = inShape.dims[i];
    od[4 - rank + i] = outShape.dims[i];
    before[4 - rank + i] = static_cast<uint32_t>(pads[2 * i]);
  }
  if (inShape.count() == 0) {
    memset(dst, fill, outShape.bytes());
    return kOk;
  }
  const size_t orow = size_t(od[3]) * es;
  const size_t irow = size_t(id[3]) * es;
  const size_t headBytes = size_t(before[3]) * es;
  const size_t tailBytes = orow - headBytes - irow;
  auto copyRow = [=](uint8_t* row, const uint8_t* s) {
    if (headBytes) memset(row, fill, headBytes);
    memcpy(row + headBytes, s, irow);
    if (tailBytes) memset(row + headBytes + irow, fill, tailBytes);
  };
  const bool wide32 = es == 4 && fill == 0 && before[2] == 0 && od[2] == id[2] &&
                      od[3] != id[3] && od[3] <= 256 && isaLevel() >= IsaLevel::kAvx512;
  const bool wide16 = es == 2 && fill == 0 && before[2] == 0 && od[2] == id[2] &&
                      od[3] != id[3] && od[3] <= 512 && isaLevel() >= IsaLevel::kAvx512;
  // Output rows (over the first three dims) are either entirely padding or hold one input row;
  // one unit is one (a, b) block of od[2] rows.
  auto units = [=](size_t begin, size_t end) {
    for (size_t ab = begin; ab < end; ++ab) {
      const uint32_t a = static_cast<uint32_t>(ab / od[1]), b = static_cast<uint32_t>(ab % od[1]);
      const bool bIn = a >= before[0] && a < before[0] + id[0] && b >= before[1] &&
                       b < before[1] + id[1];
      uint8_t* row = dst + ((size_t(a) * od[1] + b) * od[2]) * orow;
      if (!bIn) {
        memset(row, fill, size_t(od[2]) * orow);
        continue;
      }
      if (wide32 || wide16) {  // no W padding: the od[2] output rows follow one another
        const uint8_t* s = src + ((size_t(a - before[0]) * id[1] + (b - before[1])) * id[2]) * irow;
        if (wide32) padPixels32Avx512(row, s, od[2], before[3], id[3], od[3]);
        else padPixels16Avx512(row, s, od[2], before[3], id[3], od[3]);
        continue;
      }
      for (uint32_t c = 0; c < od[2]; ++c, row += orow) {
        if (c < before[2] || c >= before[2] + id[2]) {
          memset(row, fill, orow);
          continue;
        }
        const size_t ia = a - before[0], ib = b - before[1], ic = c - before[2];
        copyRow(row, src + ((ia * id[1] + ib) * id[2] + ic) * irow);
      }
    }
  };
  // Large outputs are split over the pool in contiguous ranges of units, as the neighbouring
  // convolutions split their rows: each thread mostly copies data its own core produced, and
  // the ADD that reads the result (also split) finds it there (2 threads: the 64x64x28 PAD +
  // ADD of face_detection_short_range took longer than on one thread when PAD ran alone).
  const size_t numUnits = size_t(od[0]) * od[1];
  const size_t unitBytes = size_t(od[2]) * orow;
  ThreadPool* pool = ctx.threadPool();
  constexpr size_t kParallelBytes = size_t{64} << 10, kChunkBytes = size_t{16} << 10;
  if (pool != nullptr && pool->numThreads() > 1 && numUnits > 1 &&
      numUnits * unitBytes >= kParallelBytes) {
    pool->parallelFor(numUnits, std::max<size_t>(1, kChunkBytes / std::max<size_t>(unitBytes, 1)),
                      units);
  } else {
    units(0, numUnits);
  }
  return kOk;
}

}  // namespace

NN_DEFINE_CPU_KERNEL(PAD, execute);

}  // namespace nn
