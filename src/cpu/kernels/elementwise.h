// Loops shared by the elementwise, activation and normalization kernels: parallel chunking,
// broadcast planning and iteration, the reference's requantization and a vectorizable exp.
// Each operation registers two kernels (execute for the fast device, executeReference for the
// reference device) that share one body taking the Path it runs for: the fast path splits
// large work across the thread pool and walks planned broadcast runs; the reference path is
// the plain serial loop.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/vectorize.h"
#include "cpu/thread_pool.h"
#include "spec/ops/elementwise.h"

namespace nn {
namespace elementwise {

enum class Path { kFast, kReference };

// Work below this many elements is not worth waking the pool for. Not higher: with 2 threads the
// convolutions around an ADD split their rows, and an ADD of 16K-64K elements kept on one
// thread first pulled the other thread's half of its inputs from that core's cache
// (face_detection_short_range 32x32x32-42: slower on 2 threads than on 1).
constexpr size_t kParallelThreshold = 16384;
constexpr size_t kParallelGrain = 4096;

// Runs fn(begin, end) over [0, n). The fast path splits large work across the pool and runs
// each piece compiled for the best ISA available (vectorize.h); the reference path is one
// serial baseline call.
template <typename Fn>
inline void parallelRange(const OpContext& ctx, Path path, size_t n, Fn&& fn) {
  if (n == 0) return;
  if (path == Path::kReference) {
    fn(0, n);
    return;
  }
  ThreadPool* pool = ctx.threadPool();
  if (pool != nullptr && pool->numThreads() > 1 && n >= kParallelThreshold) {
    pool->parallelFor(n, kParallelGrain,
                      [&fn](size_t b, size_t e) { vectorize::runVectorized(fn, b, e); });
  } else {
    vectorize::runVectorized(fn, 0, n);
  }
}

// Iteration plan for out[i] = f(a[ia], b[ib]) over a broadcast output. Dimensions of size 1
// are dropped and adjacent dimensions with the same broadcast pattern merged, so the common
// cases (same shape, scalar, per-channel vector) become one or two flat loops.
struct BroadcastPlan {
  static constexpr int kMaxRank = static_cast<int>(kMaxBroadcastRank);
  int rank = 0;
  size_t dims[kMaxRank];
  size_t strideA[kMaxRank];
  size_t strideB[kMaxRank];
  size_t total = 0;
};

inline bool makeBroadcastPlan(const Dims& a, const Dims& b, const Dims& out, BroadcastPlan* p) {
  const int rank = static_cast<int>(out.size());
  if (rank > BroadcastPlan::kMaxRank || a.size() > out.size() || b.size() > out.size())
    return false;
  size_t dims[BroadcastPlan::kMaxRank], sa[BroadcastPlan::kMaxRank], sb[BroadcastPlan::kMaxRank];
  size_t runA = 1, runB = 1;
  for (int i = rank - 1; i >= 0; --i) {
    const int offA = rank - static_cast<int>(a.size());
    const int offB = rank - static_cast<int>(b.size());
    const size_t da = i < offA ? 1 : a[i - offA];
    const size_t db = i < offB ? 1 : b[i - offB];
    dims[i] = out[i];
    sa[i] = da == 1 ? 0 : runA;
    sb[i] = db == 1 ? 0 : runB;
    runA *= da;
    runB *= db;
  }
  p->rank = 0;
  p->total = 1;
  for (int i = 0; i < rank; ++i) {
    p->total *= dims[i];
    if (dims[i] == 1) continue;
    if (p->rank > 0) {
      const int j = p->rank - 1;
      // Merge into the previous (outer) dimension when the pair walks both inputs linearly.
      if (p->strideA[j] == sa[i] * dims[i] && p->strideB[j] == sb[i] * dims[i]) {
        p->dims[j] *= dims[i];
        p->strideA[j] = sa[i];
        p->strideB[j] = sb[i];
        continue;
      }
    }
    p->dims[p->rank] = dims[i];
    p->strideA[p->rank] = sa[i];
    p->strideB[p->rank] = sb[i];
    ++p->rank;
  }
  if (p->rank == 0) {
    p->rank = 1;
    p->dims[0] = 1;
    p->strideA[0] = p->strideB[0] = 0;
  }
  return true;
}

// Calls row(offA, strideA, offB, strideB, outOffset, n) for maximal runs along the innermost
// dimension within output elements [begin, end). Inner strides are 0 or 1.
template <typename Row>
inline void forEachRun(const BroadcastPlan& p, size_t begin, size_t end, Row&& row) {
  if (begin >= end) return;
  const int last = p.rank - 1;
  size_t idx[BroadcastPlan::kMaxRank];
  size_t rem = begin, offA = 0, offB = 0;
  for (int d = last; d >= 0; --d) {
    idx[d] = rem % p.dims[d];
    rem /= p.dims[d];
    offA += idx[d] * p.strideA[d];
    offB += idx[d] * p.strideB[d];
  }
  const size_t inner = p.dims[last];
  size_t pos = begin;
  while (pos < end) {
    const size_t n = std::min(inner - idx[last], end - pos);
    row(offA, p.strideA[last], offB, p.strideB[last], pos, n);
    pos += n;
    idx[last] += n;
    offA += n * p.strideA[last];
    offB += n * p.strideB[last];
    for (int d = last; d > 0 && idx[d] == p.dims[d]; --d) {
      offA -= p.dims[d] * p.strideA[d];
      offB -= p.dims[d] * p.strideB[d];
      idx[d] = 0;
      ++idx[d - 1];
      offA += p.strideA[d - 1];
      offB += p.strideB[d - 1];
    }
  }
}

// One run of out[i] = f(a[i*sa], b[i*sb]) with sa, sb in {0, 1}; each branch is a plain
// loop the compiler can vectorize for simple f.
template <typename TA, typename TO, typename F>
inline void binaryRun(const TA* a, size_t sa, const TA* b, size_t sb, TO* out, size_t n,
                      const F& f) {
  if (sa != 0 && sb != 0) {
    for (size_t i = 0; i < n; ++i) out[i] = f(a[i], b[i]);
  } else if (sa != 0) {
    const TA bv = b[0];
    for (size_t i = 0; i < n; ++i) out[i] = f(a[i], bv);
  } else if (sb != 0) {
    const TA av = a[0];
    for (size_t i = 0; i < n; ++i) out[i] = f(av, b[i]);
  } else {
    const TO v = f(a[0], b[0]);
    for (size_t i = 0; i < n; ++i) out[i] = v;
  }
}

// Fast broadcast evaluation (planned, vectorizable runs, parallel when large).
template <typename TA, typename TO, typename F>
inline void binaryBroadcast(const OpContext& ctx, const TA* a, const Dims& aDims, const TA* b,
                            const Dims& bDims, TO* out, const Dims& outDims, const F& f) {
  BroadcastPlan plan;
  makeBroadcastPlan(aDims, bDims, outDims, &plan);
  parallelRange(ctx, Path::kFast, plan.total, [&](size_t begin, size_t end) {
    forEachRun(plan, begin, end, [&](size_t oa, size_t sa, size_t ob, size_t sb, size_t o, size_t n) {
      binaryRun(a + oa, sa, b + ob, sb, out + o, n, f);
    });
  });
}

// Reference broadcast evaluation: one multi-index per element, no planning, serial.
template <typename TA, typename TO, typename F>
inline void binaryBroadcastReference(const TA* a, const Dims& aDims, const TA* b,
                                     const Dims& bDims, TO* out, const Dims& outDims,
                                     const F& f) {
  const size_t rank = outDims.size();
  const uint64_t total = elementCount(outDims);
  std::vector<uint32_t> idx(rank, 0);
  for (uint64_t i = 0; i < total; ++i) {
    uint64_t rem = i;
    for (size_t d = rank; d-- > 0;) {
      idx[d] = static_cast<uint32_t>(rem % outDims[d]);
      rem /= outDims[d];
    }
    auto flat = [&](const Dims& in) {
      size_t offset = 0;
      const size_t lead = rank - in.size();
      for (size_t d = 0; d < in.size(); ++d)
        offset = offset * in[d] + (in[d] == 1 ? 0 : idx[lead + d]);
      return offset;
    };
    out[i] = f(a[flat(aDims)], b[flat(bDims)]);
  }
}

// out[i] = f(a[ia], b[ib]) over the broadcast output 0 of inputs i0, i1.
template <typename TA, typename TO, typename F>
inline void runBroadcast(const OpContext& ctx, Path path, uint32_t i0, uint32_t i1, const F& f) {
  const TA* a = ctx.input<TA>(i0);
  const TA* b = ctx.input<TA>(i1);
  TO* out = ctx.output<TO>(0);
  if (path == Path::kReference) {
    binaryBroadcastReference(a, ctx.inputShape(i0).dims, b, ctx.inputShape(i1).dims, out,
                             ctx.outputShape(0).dims, f);
  } else {
    binaryBroadcast(ctx, a, ctx.inputShape(i0).dims, b, ctx.inputShape(i1).dims, out,
                    ctx.outputShape(0).dims, f);
  }
}

// out[i] = f(in[i]) over input 0 (same element count as output 0).
template <typename TI, typename TO, typename F>
inline void runUnary(const OpContext& ctx, Path path, const F& f) {
  const TI* in = ctx.input<TI>(0);
  TO* out = ctx.output<TO>(0);
  parallelRange(ctx, path, ctx.inputShape(0).count(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) out[i] = f(in[i]);
  });
}

// The reference's requantization of one value between two quantized scales: the real value
// is a float product, the division and zero point add happen in double, then round.
template <typename T>
inline T requantize(T value, const Shape& from, const Shape& to) {
  const double real = static_cast<float>(static_cast<int32_t>(value) - from.zeroPoint) * from.scale;
  const double q = real / to.scale + to.zeroPoint;
  if (q < static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (q > static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(std::round(q));
}

// exp(x) in float arithmetic that vectorizes: Cody-Waite range reduction x = n*ln2 + r and a
// degree-6 polynomial for exp(r); within ~2 ulp of expf over [-87, 88]. Special values are
// selected, never converted: NaN gives NaN, beyond ln(FLT_MAX) +inf, below -87.34 (where the
// result is subnormal) 0; the reduced input is clamped first, so the float-to-int conversion and
// the exponent shift only ever see n in [-126, 127] (no UB for NaN or +-inf).
inline float vexp(float x) {
  const bool isNan = !(x == x);
  const bool overflow = x > 88.72283935546875f;
  const bool underflow = x < -87.33654022216797f;
  const float c = isNan ? 0.0f : std::min(std::max(x, -87.0f), 88.0f);
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kRoundMagic = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
  const float n = (c * kLog2e + kRoundMagic) - kRoundMagic;
  float r = c - n * 0.693359375f;  // ln2 split into an exact high part...
  r = r - n * -2.12194440e-4f;     // ...and the remainder
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float y = p * (r * r) + r + 1.0f;
  // n + 127 is in [1, 255] here: an unsigned shift into the exponent field.
  const uint32_t bits = static_cast<uint32_t>(static_cast<int32_t>(n) + 127) << 23;
  const float e = y * __builtin_bit_cast(float, bits);
  return isNan ? x : overflow ? std::numeric_limits<float>::infinity() : underflow ? 0.0f : e;
}

}  // namespace elementwise
}  // namespace nn
