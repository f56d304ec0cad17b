#include "cpu/kernels/conv_amx.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "cpu/isa.h"

namespace nn {
namespace conv {
namespace {

constexpr uint32_t kTileN = kConvTileN;  // output columns per packed tile (2 AMX tiles)
constexpr uint32_t kBlockRows = 32;      // rows per AMX block (2 AMX tiles)
constexpr uint32_t kColBlockTiles = 8;   // column tiles per parallel task
// Fewer rows fill less than half of a 32-row block, and VNNI's 128 products per cycle come
// close (an estimate from the instruction throughputs; FullyConnected_b16 of
// nnapi_bench_amx_gemm measured 2.7x VNNI at 16 rows).
constexpr uint32_t kMinRows = 16;

inline uint32_t ceilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

inline int32_t wrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t wrapMul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}

// Blocks whose sums wait for requantization behind the one in the tiles: the previous block is
// requantized after the current one's tile instructions are issued. (A lag of 2, or storing
// the tiles before requantizing, measured the same or slower on Sapphire Rapids, where the tile
// work and the vector requantization of one thread barely overlap; the ring allows either.)
constexpr uint32_t kLag = 1;
// Rows are copied into a k-blocked panel only when at least this many weight tiles reuse them:
// for one or two tiles the copy cost more than it saved (nnapi_bench_amx_gemm: 56x144 -> 24
// 1.5x slower with it, 14x512 -> 512 1.4x faster).
constexpr uint32_t kPackMinTiles = 4;
constexpr uint32_t kAccBuffers = kLag + 1;

// What one thread keeps: a zero-padded copy of a row block (when it cannot be read in place),
// accumulators of the blocks in flight and the row terms of their row blocks. Lives in the
// slot's scratch, 64-byte aligned.
struct AmxSlot {
  int32_t acc[kAccBuffers][kBlockRows * kTileN];
  int32_t rowOffset[kAccBuffers][kBlockRows];
  uint8_t panel[1];  // kBlockRows * k64 bytes follow
  static size_t bytes(uint32_t k64) {
    return offsetof(AmxSlot, panel) + static_cast<size_t>(kBlockRows) * k64;
  }
};

inline void requantizeBlock(const AmxBlockKernels& amx, const int32_t* acc, uint32_t rows,
                            uint32_t cols, const int32_t* columnOffset, const int32_t* rowOffset,
                            const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                            int32_t lo, int32_t hi, uint8_t* out, size_t ldo, bool sumsInRange) {
  amx.requantizeU8(acc, rows, cols, columnOffset, rowOffset, multiplier, shift, outZero, lo, hi,
                   out, ldo, sumsInRange);
}
inline void requantizeBlock(const AmxBlockKernels& amx, const int32_t* acc, uint32_t rows,
                            uint32_t cols, const int32_t* columnOffset, const int32_t* rowOffset,
                            const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                            int32_t lo, int32_t hi, int8_t* out, size_t ldo, bool sumsInRange) {
  amx.requantizeS8(acc, rows, cols, columnOffset, rowOffset, multiplier, shift, outZero, lo, hi,
                   out, ldo, sumsInRange);
}

// The quantGemm algebra of conv_gemm.cc with A read as it is stored: uint8 data with
// tdpbusd, int8 data with tdpbssd (za' = za either way), W the signed stored weights
// (zw' = w.zeroPointPrime):
//   sum A*W - zw' * sum A - za' * sum W + k * za' * zw'   (wrapping int32, exact).
// A's rows: read in place (input, lda), or written by fill (im2col) into the panel.
struct Rows {
  const uint8_t* input = nullptr;
  size_t lda = 0;
  AmxRowFill fill = nullptr;
  const void* context = nullptr;
};

template <typename TOut>
void gemm(const AmxBlockKernels& amx, uint32_t m, const Rows& src, bool signedData,
          const PackedQuantWeights& w, const QuantParams& q, const int32_t* bias, TOut* output,
          ThreadPool* pool, KernelScratch& ks) {
  const uint8_t* input = src.input;
  const size_t lda = src.lda;
  const uint32_t n = w.n, k = w.k, k64 = w.k64;
  const uint32_t tiles = ceilDiv(n, kTileN);
  const int32_t za = q.inputZeroPoint, zwp = w.zeroPointPrime;
  int32_t* columnOffset = ks.columns.get<int32_t>(n);
  const int32_t constant = wrapMul(wrapMul(static_cast<int32_t>(k), za), zwp);
  // Bounds of the tile sums (|a * w| <= 255 * 128 for uint8 or int8 A) and of the row terms:
  // where a column term plus both stays inside int32, no sum wraps and the requantization may
  // fold the column term into its 64-bit constant.
  const int64_t sumBound = static_cast<int64_t>(k) * 255 * 128 +
                           static_cast<int64_t>(k) * 255 * (zwp < 0 ? -int64_t{zwp} : zwp);
  bool sumsInRange = sumBound <= INT32_MAX;
  for (uint32_t c = 0; c < n; ++c) {
    // columnSums are of the stored weights; the AMX copy holds the same values.
    columnOffset[c] =
        wrapAdd(wrapAdd(bias ? bias[c] : 0, -wrapMul(za, w.columnSums[c])), constant);
    const int64_t off = columnOffset[c];
    sumsInRange = sumsInRange && (off < 0 ? -off : off) + sumBound <= INT32_MAX;
  }
  // A block is read in place when the last row its tiles load and that row's k64 bytes stay
  // inside the input ((m - 1) * lda + k bytes); bytes past k meet zero weights.
  const size_t inputBytes = src.fill ? 0 : static_cast<size_t>(m - 1) * lda + k;
  const uint32_t rowBlocks = ceilDiv(m, kBlockRows);
  const uint32_t colBlocks = ceilDiv(tiles, kColBlockTiles);
  const size_t tasks = static_cast<size_t>(rowBlocks) * colBlocks;
  runSlotted<uint8_t>(pool, ks, tasks, AmxSlot::bytes(k64), [&](size_t begin, size_t end,
                                                                 uint8_t* slotBytes) {
    AmxSlot& s = *reinterpret_cast<AmxSlot*>(slotBytes);
    // The blocks whose sums wait in s.acc for requantization, oldest first (a ring).
    struct Pending {
      const int32_t* acc;
      const int32_t* rowOffset;
      uint32_t rows, c0, cols;
      TOut* out;
    } pending[kAccBuffers];
    uint32_t pendingFirst = 0, pendingCount = 0;
    auto flushOldest = [&] {
      const Pending& p = pending[pendingFirst];
      requantizeBlock(amx, p.acc, p.rows, p.cols, columnOffset + p.c0, p.rowOffset,
                      q.multiplier.data() + p.c0, q.shift.data() + p.c0, q.outputZeroPoint,
                      q.actMin, q.actMax, p.out, n, sumsInRange);
      pendingFirst = (pendingFirst + 1) % kAccBuffers;
      --pendingCount;
    };
    amx.configure();
    // Row terms per row block in a ring as long as the blocks' (a row block's last block may
    // wait kLag steps, so kLag + 1 row blocks can be alive).
    uint32_t preparedBlock = ~0u, rowBuffer = 0, accBuffer = 0, m0 = 0, rows = 0;
    const uint8_t* a = nullptr;
    size_t stride = lda, aStep = 64;
    const int32_t* rowOffset = nullptr;
    for (size_t task = begin; task < end; ++task) {
      const uint32_t rb = static_cast<uint32_t>(task / colBlocks);
      const uint32_t cb = static_cast<uint32_t>(task % colBlocks);
      if (rb != preparedBlock) {
        preparedBlock = rb;
        m0 = rb * kBlockRows;
        rows = std::min(kBlockRows, m - m0);
        const uint32_t tileRows = rows > 16 ? 32 : 16;  // the rows amxCompute loads
        // (The panel's previous rows are no longer read: their blocks left the tiles.)
        aStep = 64;
        if (src.fill != nullptr) {
          for (uint32_t r = 0; r < rows; ++r) {
            src.fill(src.context, m0 + r, s.panel + static_cast<size_t>(r) * k64);
            memset(s.panel + static_cast<size_t>(r) * k64 + k, 0, k64 - k);
          }
          memset(s.panel + static_cast<size_t>(rows) * k64, 0,
                 static_cast<size_t>(tileRows - rows) * k64);
          a = s.panel;
          stride = k64;
        } else if (static_cast<size_t>(m0 + tileRows - 1) * lda + k64 > inputBytes) {
          a = input + static_cast<size_t>(m0) * lda;
          for (uint32_t r = 0; r < rows; ++r) {
            memcpy(s.panel + static_cast<size_t>(r) * k64, a + static_cast<size_t>(r) * lda, k);
            memset(s.panel + static_cast<size_t>(r) * k64 + k, 0, k64 - k);
          }
          memset(s.panel + static_cast<size_t>(rows) * k64, 0,
                 static_cast<size_t>(tileRows - rows) * k64);
          a = s.panel;
          stride = k64;
        } else {
          a = input + static_cast<size_t>(m0) * lda;
          stride = lda;
        }
        if (zwp != 0) {
          rowBuffer = (rowBuffer + 1) % kAccBuffers;
          int32_t* ro = s.rowOffset[rowBuffer];
          amx.rowSums(signedData, a, stride, rows, k, ro);
          for (uint32_t r = 0; r < rows; ++r) ro[r] = -wrapMul(zwp, ro[r]);
          rowOffset = ro;
        }
        if (a != s.panel && k64 > 64 && tiles >= kPackMinTiles) {
          // Rows read in place at a large stride put each tile's 16 rows in few L1 sets and
          // the tile loads then wait on L2 (measured: the 512- and 1024-deep layers ran at a
          // sixth of the tile unit's speed); a k-blocked copy [k64 / 64][32 rows][64] makes
          // each tile load 1 KiB contiguous.
          for (uint32_t kb = 0; kb < k64; kb += 64) {
            uint8_t* dst = s.panel + static_cast<size_t>(kb) * kBlockRows;
            const uint32_t bytes = std::min<uint32_t>(64, k - std::min(k, kb));
            for (uint32_t r = 0; r < rows; ++r) {
              if (bytes == 64) {
                memcpy(dst + r * 64, a + static_cast<size_t>(r) * stride + kb, 64);  // inlined
              } else {
                memcpy(dst + r * 64, a + static_cast<size_t>(r) * stride + kb, bytes);
                memset(dst + r * 64 + bytes, 0, 64 - bytes);
              }
            }
            if (rows < tileRows) memset(dst + rows * 64, 0, (tileRows - rows) * 64);
          }
          a = s.panel;
          stride = 64;
          aStep = 64 * kBlockRows;
        }
      }
      const uint32_t t1 = std::min(tiles, (cb + 1) * kColBlockTiles);
      for (uint32_t t = cb * kColBlockTiles; t < t1; ++t) {
        const int8_t* b = w.amxData.data() + static_cast<size_t>(t) * k64 * kTileN;
        const uint32_t c0 = t * kTileN, cols = std::min(kTileN, n - c0);
        // (A last tile of at most 16 columns takes half the tile work and stores.)
        amx.compute(signedData, a, stride, aStep, b, k64, rows, cols);
        // While the tile unit works through this block: an earlier one's requantization
        // (columnOffset folds in bias and the column's zero-point terms, rowOffset the row's).
        if (pendingCount == kLag) flushOldest();
        amx.store(rows, cols, s.acc[accBuffer]);
        pending[(pendingFirst + pendingCount) % kAccBuffers] = {
            s.acc[accBuffer], rowOffset, rows, c0, cols,
            output + static_cast<size_t>(m0) * n + c0};
        ++pendingCount;
        accBuffer = (accBuffer + 1) % kAccBuffers;
      }
    }
    while (pendingCount > 0) flushOldest();
    amx.release();
  });
}

// ---- the tile instructions in portable C++ (tests) -----------------------------------------

void emulatedConfigure() {}
void emulatedRelease() {}

// The tile registers C of the emulation (one per thread, like the real ones).
thread_local int32_t emulatedTiles[kBlockRows * kTileN];

// tdpbusd / tdpbssd on the 2x2 tile grid (1x2 for rows <= 16), reading what the tile loads
// read: 16 or 32 rows of A (64 bytes per k block at stride lda, k blocks aStep apart) and B
// groups of 128 bytes.
void emulatedCompute(bool signedA, const uint8_t* a, size_t lda, size_t aStep, const int8_t* b,
                     uint32_t k64, uint32_t rows, uint32_t cols) {
  const uint32_t tileRows = rows > 16 ? 32 : 16, tileCols = cols > 16 ? 32 : 16;
  for (uint32_t r = 0; r < tileRows; ++r)
    for (uint32_t c = 0; c < tileCols; ++c) {
      int32_t sum = 0;
      for (uint32_t kk = 0; kk < k64; ++kk) {
        const uint8_t x = a[kk / 64 * aStep + r * lda + kk % 64];
        const int32_t av = signedA ? static_cast<int8_t>(x) : static_cast<int32_t>(x);
        sum = wrapAdd(sum, av * b[(static_cast<size_t>(kk / 4) * kTileN + c) * 4 + kk % 4]);
      }
      emulatedTiles[r * kTileN + c] = sum;
    }
}

void emulatedStore(uint32_t rows, uint32_t cols, int32_t* acc) {
  for (uint32_t r = 0; r < (rows > 16 ? 32u : 16u); ++r)
    memcpy(acc + r * kTileN, emulatedTiles + r * kTileN, sizeof(int32_t) * (cols > 16 ? 32 : 16));
}

void emulatedRowSums(bool signedA, const uint8_t* a, size_t lda, uint32_t rows, uint32_t k,
                     int32_t* sums) {
  for (uint32_t r = 0; r < rows; ++r) {
    int32_t s = 0;
    for (uint32_t i = 0; i < k; ++i) {
      const uint8_t x = a[r * lda + i];
      s += signedA ? static_cast<int8_t>(x) : static_cast<int32_t>(x);
    }
    sums[r] = s;
  }
}

template <typename TOut>
void portableRequantizeBlock(const int32_t* acc, uint32_t rows, uint32_t cols,
                             const int32_t* columnOffset, const int32_t* rowOffset,
                             const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                             int32_t lo, int32_t hi, TOut* out, size_t ldo,
                             bool /*sumsInRange: wrapping sums are exact here anyway*/) {
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < cols; ++c) {
      const int32_t x =
          wrapAdd(wrapAdd(acc[r * kTileN + c], columnOffset[c]), rowOffset ? rowOffset[r] : 0);
      const int32_t v = requantize(x, multiplier[c], shift[c]) + outZero;
      out[r * ldo + c] = static_cast<TOut>(std::max(lo, std::min(hi, v)));
    }
}

}  // namespace

const AmxBlockKernels& amxHardwareKernels() {
  static const AmxBlockKernels k{isa_amx::amxConfigure,         isa_amx::amxRelease,
                                 isa_amx::amxCompute,           isa_amx::amxStore,
                                 isa_amx::amxRowSums,           isa_amx::amxRequantizeBlockU8,
                                 isa_amx::amxRequantizeBlockS8};
  return k;
}

const AmxBlockKernels& amxEmulatedKernels() {
  static const AmxBlockKernels k = [] {
    AmxBlockKernels e{emulatedConfigure,
                      emulatedRelease,
                      emulatedCompute,
                      emulatedStore,
                      emulatedRowSums,
                      portableRequantizeBlock<uint8_t>,
                      portableRequantizeBlock<int8_t>};
    if (isaLevel() >= IsaLevel::kAvx512) {
      e.requantizeU8 = isa_amx::amxRequantizeBlockU8;
      e.requantizeS8 = isa_amx::amxRequantizeBlockS8;
    }
    return e;
  }();
  return k;
}

void packAmxWeights(PackedQuantWeights* w) {
  w->amxData.clear();
  w->k64 = 0;
  if (amxInt8Usable()) packAmxWeightsAlways(w);
}

void packAmxWeightsAlways(PackedQuantWeights* w) {
  w->amxData.clear();
  w->k64 = 0;
  if (w->n == 0 || w->k == 0) return;
  w->k64 = (w->k + 63) / 64 * 64;
  const uint32_t tiles = ceilDiv(w->n, kTileN);
  const size_t from = static_cast<size_t>(w->k4) * kTileN, to = static_cast<size_t>(w->k64) * kTileN;
  w->amxData.assign(tiles * to, 0);
  // Same [k / 4][32][4] order per tile; the groups past k4 stay zero.
  for (uint32_t t = 0; t < tiles; ++t)
    memcpy(w->amxData.data() + t * to, w->data.data() + t * from, from);
}

bool amxGemmApplies(const PackedQuantWeights& w, uint32_t m) {
  return !w.amxData.empty() && (m >= kMinRows || amxForAllSizes());
}

void amxQuantGemm(uint32_t m, const uint8_t* input, size_t lda, bool signedData,
                  const PackedQuantWeights& w, const QuantParams& q, const int32_t* bias,
                  void* output, ThreadPool* pool, KernelScratch& ks) {
  amxQuantGemmWith(amxHardwareKernels(), m, input, lda, signedData, w, q, bias, output, pool, ks);
}

void amxQuantGemmFilled(uint32_t m, AmxRowFill fill, const void* context, bool signedData,
                        const PackedQuantWeights& w, const QuantParams& q, const int32_t* bias,
                        void* output, ThreadPool* pool, KernelScratch& ks) {
  amxQuantGemmFilledWith(amxHardwareKernels(), m, fill, context, signedData, w, q, bias, output,
                         pool, ks);
}

namespace {
void run(const AmxBlockKernels& amx, uint32_t m, const Rows& rows, bool signedData,
         const PackedQuantWeights& w, const QuantParams& q, const int32_t* bias, void* output,
         ThreadPool* pool, KernelScratch& ks) {
  if (m == 0) return;
  if (signedData)
    gemm(amx, m, rows, true, w, q, bias, static_cast<int8_t*>(output), pool, ks);
  else
    gemm(amx, m, rows, false, w, q, bias, static_cast<uint8_t*>(output), pool, ks);
}
}  // namespace

void amxQuantGemmWith(const AmxBlockKernels& amx, uint32_t m, const uint8_t* input, size_t lda,
                      bool signedData, const PackedQuantWeights& w, const QuantParams& q,
                      const int32_t* bias, void* output, ThreadPool* pool, KernelScratch& ks) {
  Rows rows;
  rows.input = input;
  rows.lda = lda;
  run(amx, m, rows, signedData, w, q, bias, output, pool, ks);
}

void amxQuantGemmFilledWith(const AmxBlockKernels& amx, uint32_t m, AmxRowFill fill,
                            const void* context, bool signedData, const PackedQuantWeights& w,
                            const QuantParams& q, const int32_t* bias, void* output,
                            ThreadPool* pool, KernelScratch& ks) {
  Rows rows;
  rows.fill = fill;
  rows.context = context;
  run(amx, m, rows, signedData, w, q, bias, output, pool, ks);
}

}  // namespace conv
}  // namespace nn
