// The AMX-INT8 quant8 GEMM (src/cpu/kernels/conv_amx.h) against the GEMM the ISA table picks
// (VNNI / AVX-512 / portable, through fastFullyConnectedQuant on weights without the AMX copy)
// and a scalar reference written here: every output byte must be equal. The GEMM runs with the
// portable emulation of the tile instructions everywhere, and with the tile unit itself where
// AMX-INT8 is usable, on shapes whose rows, columns and depth are not multiples of the tiles,
// uint8 and int8 data, per-tensor and per-channel filters, nonzero zero points.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cpu/isa.h"
#include "cpu/kernels/conv_amx.h"
#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/thread_pool.h"

namespace nn {
namespace conv {
namespace {

struct Case {
  uint32_t m, n, k;
  bool signedData;
  bool perChannel;  // filter int8 with zero point 0 (else uint8/int8 with a zero point)
};

struct Problem {
  Case c;
  std::vector<uint8_t> input, weights;
  std::vector<int32_t> bias;
  QuantParams q;
  int32_t filterZero = 0;
  bool unsignedFilter = true;
};

Problem makeProblem(const Case& c, uint32_t seed) {
  std::mt19937 rng(seed);
  Problem p;
  p.c = c;
  p.input.resize(static_cast<size_t>(c.m) * c.k);
  p.weights.resize(static_cast<size_t>(c.n) * c.k);
  for (auto& b : p.input) b = static_cast<uint8_t>(rng());
  for (auto& b : p.weights) b = static_cast<uint8_t>(rng());
  p.bias.resize(c.n);
  for (auto& b : p.bias) b = static_cast<int32_t>(rng() % 20001) - 10000;
  p.unsignedFilter = !c.perChannel && !c.signedData;
  p.filterZero = c.perChannel ? 0 : static_cast<int32_t>(rng() % 200) - (p.unsignedFilter ? 0 : 100);
  p.q.inputZeroPoint = static_cast<int32_t>(rng() % 200) - (c.signedData ? 100 : 0);
  p.q.filterZeroPoint = p.filterZero;
  p.q.outputZeroPoint = static_cast<int32_t>(rng() % 100) - (c.signedData ? 50 : 0);
  p.q.actMin = c.signedData ? -128 : 0;
  p.q.actMax = c.signedData ? 127 : 255;
  if (rng() % 2) p.q.actMin += 10;  // a fused activation's narrower range now and then
  // RELU's lower bound at the output zero point (the requantization drops its sign term).
  if (rng() % 3 == 0) p.q.actMin = p.q.outputZeroPoint;
  for (uint32_t i = 0; i < c.n; ++i) {
    p.q.multiplier.push_back(static_cast<int32_t>((1u << 30) + rng() % (1u << 30)));
    p.q.shift.push_back(-static_cast<int32_t>(6 + rng() % 8) - (c.k > 512 ? 2 : 0));
  }
  return p;
}

// The definition: requantize(bias + sum (a - za)(w - zw)) + outZero, clamped.
std::vector<uint8_t> reference(const Problem& p) {
  const Case& c = p.c;
  std::vector<uint8_t> out(static_cast<size_t>(c.m) * c.n);
  auto value = [](uint8_t b, bool isSigned) {
    return isSigned ? static_cast<int32_t>(static_cast<int8_t>(b)) : static_cast<int32_t>(b);
  };
  for (uint32_t r = 0; r < c.m; ++r)
    for (uint32_t col = 0; col < c.n; ++col) {
      int64_t sum = p.bias[col];
      for (uint32_t i = 0; i < c.k; ++i)
        sum += static_cast<int64_t>(value(p.input[r * c.k + i], c.signedData) - p.q.inputZeroPoint) *
               (value(p.weights[col * c.k + i], !p.unsignedFilter) - p.filterZero);
      int32_t v = requantize(static_cast<int32_t>(sum), p.q.multiplier[col], p.q.shift[col]) +
                  p.q.outputZeroPoint;
      v = std::max(p.q.actMin, std::min(p.q.actMax, v));
      out[static_cast<size_t>(r) * c.n + col] = static_cast<uint8_t>(v);
    }
  return out;
}

std::string describe(const Case& c) {
  return "m=" + std::to_string(c.m) + " n=" + std::to_string(c.n) + " k=" + std::to_string(c.k) +
         (c.signedData ? " int8" : " uint8") + (c.perChannel ? " per-channel" : "");
}

const Case kCases[] = {
    {1, 1, 1, false, false},     {16, 32, 64, false, false},  {33, 45, 67, false, false},
    {31, 70, 5, true, false},    {100, 33, 130, true, true},  {47, 96, 256, false, true},
    {64, 1001, 200, false, false}, {49, 130, 1024, true, true}, {200, 24, 16, false, false},
    {17, 31, 3, true, true},     {96, 64, 33, true, false},   {50, 17, 300, false, true},
};

TEST(ConvAmx, GemmMatchesTableGemmAndReference) {
  ThreadPool pool(2);
  uint32_t seed = 1;
  for (const Case& c : kCases) {
    for (ThreadPool* tp : {static_cast<ThreadPool*>(nullptr), &pool}) {
      SCOPED_TRACE(describe(c) + (tp ? " 2 threads" : " 1 thread"));
      const Problem p = makeProblem(c, seed++);
      const std::vector<uint8_t> expected = reference(p);

      PackedQuantWeights w;
      packQuantWeights(p.weights.data(), p.unsignedFilter, p.filterZero, c.n, c.k, &w);
      PackedQuantWeights table = w;  // without the AMX copy: the ISA table's GEMM
      table.amxData.clear();
      KernelScratch ks;
      std::vector<uint8_t> out(expected.size(), 0xAA);
      fastFullyConnectedQuant(c.m, p.q, c.signedData, p.input.data(), table, p.bias.data(),
                              out.data(), tp, ks);
      EXPECT_EQ(out, expected) << "table GEMM";

      PackedQuantWeights amx = w;
      packAmxWeightsAlways(&amx);
      ASSERT_EQ(amx.k64 % 64, 0u);
      ASSERT_GE(amx.k64, c.k);
      std::fill(out.begin(), out.end(), 0xAA);
      amxQuantGemmWith(amxEmulatedKernels(), c.m, p.input.data(), c.k, c.signedData, amx, p.q,
                       p.bias.data(), out.data(), tp, ks);
      EXPECT_EQ(out, expected) << "AMX GEMM, emulated tiles";

      if (amxInt8Usable()) {
        std::fill(out.begin(), out.end(), 0xAA);
        amxQuantGemmWith(amxHardwareKernels(), c.m, p.input.data(), c.k, c.signedData, amx,
                         p.q, p.bias.data(), out.data(), tp, ks);
        EXPECT_EQ(out, expected) << "AMX GEMM, tile unit";
        // And through the entry point, which takes the AMX path for enough rows.
        std::fill(out.begin(), out.end(), 0xAA);
        fastFullyConnectedQuant(c.m, p.q, c.signedData, p.input.data(), w, p.bias.data(),
                                out.data(), tp, ks);
        EXPECT_EQ(out, expected) << "fastFullyConnectedQuant with AMX";
      }
    }
  }
}

// A 1x1 stride-1 CONV_2D is the same GEMM over pixels: the entry point (AMX where usable)
// against the table GEMM's result.
TEST(ConvAmx, PointwiseConvMatchesTableGemm) {
  const Case c{3 * 7 * 5, 40, 72, true, true};
  const Problem p = makeProblem(c, 99);
  const std::vector<uint8_t> expected = reference(p);
  Geometry g;
  g.batches = 3;
  g.inH = g.outH = 7;
  g.inW = g.outW = 5;
  g.inC = c.k;
  g.outC = c.n;
  g.filterH = g.filterW = 1;
  PackedQuantWeights w;
  packQuantWeights(p.weights.data(), p.unsignedFilter, p.filterZero, c.n, c.k, &w);
  EXPECT_EQ(w.amxData.empty(), !amxInt8Usable());
  KernelScratch ks;
  std::vector<uint8_t> out(expected.size(), 0xAA);
  fastConvQuant(g, p.q, c.signedData, p.input.data(), w, p.bias.data(), out.data(), nullptr, ks);
  EXPECT_EQ(out, expected);
}

// A general convolution (3x3, stride 2, padded, dilated, several batches) goes through the AMX
// GEMM with its rows im2col'ed into the panel: the entry point (AMX where usable), the same
// rows through the emulated tiles, and the table GEMM (weights without the AMX copy) agree with
// a direct sum over the window where padding contributes the input zero point (i.e. nothing).
TEST(ConvAmx, Im2colConvMatchesDirectSum) {
  for (bool isSigned : {false, true}) {
    for (uint32_t dilation : {1u, 2u}) {
      SCOPED_TRACE(std::string(isSigned ? "int8" : "uint8") + " dilation " +
                   std::to_string(dilation));
      Geometry g;
      g.batches = 2;
      g.inH = 15;
      g.inW = 13;
      g.inC = 5;
      g.outC = 40;
      g.filterH = g.filterW = 3;
      g.p.strideH = g.p.strideW = 2;
      g.p.dilationH = g.p.dilationW = static_cast<int32_t>(dilation);
      g.p.padTop = g.p.padLeft = 1;
      g.p.padBottom = g.p.padRight = 2;
      const uint32_t spanH = (g.filterH - 1) * dilation + 1, spanW = (g.filterW - 1) * dilation + 1;
      g.outH = (g.inH + 3 - spanH) / 2 + 1;
      g.outW = (g.inW + 3 - spanW) / 2 + 1;
      const Case c{g.batches * g.outH * g.outW, g.outC, g.filterH * g.filterW * g.inC, isSigned,
                   isSigned};
      const Problem p = makeProblem(c, 1234 + dilation);
      std::vector<uint8_t> input(static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC);
      std::mt19937 rng(77);
      for (auto& b : input) b = static_cast<uint8_t>(rng());
      auto value = [](uint8_t b, bool s) {
        return s ? static_cast<int32_t>(static_cast<int8_t>(b)) : static_cast<int32_t>(b);
      };
      std::vector<uint8_t> expected(static_cast<size_t>(c.m) * c.n);
      for (uint32_t b = 0; b < g.batches; ++b)
        for (uint32_t oh = 0; oh < g.outH; ++oh)
          for (uint32_t ow = 0; ow < g.outW; ++ow)
            for (uint32_t oc = 0; oc < g.outC; ++oc) {
              int64_t sum = p.bias[oc];
              for (uint32_t kh = 0; kh < g.filterH; ++kh)
                for (uint32_t kw = 0; kw < g.filterW; ++kw) {
                  const int32_t ih = static_cast<int32_t>(oh * 2 + kh * dilation) - 1;
                  const int32_t iw = static_cast<int32_t>(ow * 2 + kw * dilation) - 1;
                  if (ih < 0 || iw < 0 || ih >= static_cast<int32_t>(g.inH) ||
                      iw >= static_cast<int32_t>(g.inW))
                    continue;
                  for (uint32_t ic = 0; ic < g.inC; ++ic) {
                    const size_t at = ((static_cast<size_t>(b) * g.inH + ih) * g.inW + iw) * g.inC + ic;
                    const size_t wat = static_cast<size_t>(oc) * c.k + (kh * g.filterW + kw) * g.inC + ic;
                    sum += static_cast<int64_t>(value(input[at], isSigned) - p.q.inputZeroPoint) *
                           (value(p.weights[wat], !p.unsignedFilter) - p.filterZero);
                  }
                }
              const int32_t v = requantize(static_cast<int32_t>(sum), p.q.multiplier[oc],
                                           p.q.shift[oc]) + p.q.outputZeroPoint;
              expected[((static_cast<size_t>(b) * g.outH + oh) * g.outW + ow) * g.outC + oc] =
                  static_cast<uint8_t>(std::max(p.q.actMin, std::min(p.q.actMax, v)));
            }
      PackedQuantWeights w;
      packQuantWeights(p.weights.data(), p.unsignedFilter, p.filterZero, c.n, c.k, &w);
      KernelScratch ks;
      ThreadPool pool(2);
      std::vector<uint8_t> out(expected.size(), 0xAA);
      fastConvQuant(g, p.q, isSigned, input.data(), w, p.bias.data(), out.data(), &pool, ks);
      EXPECT_EQ(out, expected) << "entry point" << (amxInt8Usable() ? " (AMX)" : "");
      PackedQuantWeights table = w;
      table.amxData.clear();
      std::fill(out.begin(), out.end(), 0xAA);
      fastConvQuant(g, p.q, isSigned, input.data(), table, p.bias.data(), out.data(), nullptr, ks);
      EXPECT_EQ(out, expected) << "table GEMM";
      PackedQuantWeights amx = w;
      packAmxWeightsAlways(&amx);
      // The same rows through the emulated tiles: im2col by hand (pads are the zero point).
      struct Ctx {
        const Geometry* g;
        const uint8_t* in;
        uint32_t dilation;
        int32_t zero;
      } ctx{&g, input.data(), dilation, p.q.inputZeroPoint};
      auto fill = [](const void* context, uint32_t row, uint8_t* dst) {
        const Ctx& x = *static_cast<const Ctx*>(context);
        const Geometry& gg = *x.g;
        const uint32_t ow = row % gg.outW, oh = row / gg.outW % gg.outH, b = row / gg.outW / gg.outH;
        for (uint32_t kh = 0; kh < gg.filterH; ++kh)
          for (uint32_t kw = 0; kw < gg.filterW; ++kw, dst += gg.inC) {
            const int32_t ih = static_cast<int32_t>(oh * 2 + kh * x.dilation) - 1;
            const int32_t iw = static_cast<int32_t>(ow * 2 + kw * x.dilation) - 1;
            const bool inside = ih >= 0 && iw >= 0 && ih < static_cast<int32_t>(gg.inH) &&
                                iw < static_cast<int32_t>(gg.inW);
            for (uint32_t ic = 0; ic < gg.inC; ++ic)
              dst[ic] = inside ? x.in[((static_cast<size_t>(b) * gg.inH + ih) * gg.inW + iw) *
                                          gg.inC + ic]
                               : static_cast<uint8_t>(x.zero);
          }
      };
      std::fill(out.begin(), out.end(), 0xAA);
      amxQuantGemmFilledWith(amxEmulatedKernels(), c.m, fill, &ctx, isSigned, amx, p.q,
                             p.bias.data(), out.data(), &pool, ks);
      EXPECT_EQ(out, expected) << "emulated tiles";
    }
  }
}

// The AVX-512 row sums of the tile unit's file against the emulation (AVX-512BW only, no tile
// instruction: runs wherever the AVX-512 level does).
TEST(ConvAmx, RowSums) {
  if (isaLevel() < IsaLevel::kAvx512) {
    // Below AVX-512 only the emulation can run; compare it with a plain sum instead.
    std::vector<uint8_t> a(300, 0xFF);
    int32_t s = 0;
    amxEmulatedKernels().rowSums(true, a.data(), a.size(), 1, 300, &s);
    EXPECT_EQ(s, -300);
    return;
  }
  std::mt19937 rng(5);
  for (uint32_t k : {1u, 3u, 63u, 64u, 65u, 200u, 1024u}) {
    std::vector<uint8_t> a(static_cast<size_t>(k) * 5 + 64);
    for (auto& b : a) b = static_cast<uint8_t>(rng());
    for (bool isSigned : {false, true}) {
      int32_t got[5], want[5];
      amxHardwareKernels().rowSums(isSigned, a.data(), k + 7, 5, k, got);
      amxEmulatedKernels().rowSums(isSigned, a.data(), k + 7, 5, k, want);
      for (int r = 0; r < 5; ++r) EXPECT_EQ(got[r], want[r]) << "k=" << k << " row " << r;
    }
  }
}

// The block requantization of the tile unit's file (AVX-512, no tile instruction: the one-rounding
// form for right shifts 1..22, the two-step form otherwise) against conv::requantize on random
// full-range sums: exact ties, negative values, every shift from 8 left to 31 right, multipliers up
// to 2^31 - 1 and 0, partial blocks, with and without row terms.
TEST(ConvAmx, BlockRequantizeMatchesScalar) {
  if (isaLevel() < IsaLevel::kAvx512) GTEST_SKIP() << "needs AVX-512";
  std::mt19937 rng(11);
  constexpr uint32_t kN = kConvTileN;
  std::vector<int32_t> acc(32 * kN), columnOffset(kN), rowOffset(32), multiplier(kN), shift(kN);
  for (int round = 0; round < 400; ++round) {
    // A third full-width blocks (the row-pair loop of whole blocks), the rest any width.
    const uint32_t rows = 1 + rng() % 32, cols = rng() % 3 == 0 ? kN : 1 + rng() % kN;
    const bool withRows = round % 5 != 4 && rng() % 2;
    int32_t outZero = static_cast<int32_t>(rng() % 256) - 128;
    const bool isSigned = rng() % 2;
    int32_t lo = isSigned ? -128 : 0, hi = isSigned ? 127 : 255;
    if (rng() % 2) lo += static_cast<int32_t>(rng() % 60);
    if (rng() % 2) hi -= static_cast<int32_t>(rng() % 60);
    const int mode = round % 5;
    for (uint32_t c = 0; c < kN; ++c) {
      // mode 0: typical multipliers/shifts; 1: any right shift; 2: left shifts too; 3: extremes;
      // 4: ties (below)
      multiplier[c] = static_cast<int32_t>((1u << 30) + rng() % (1u << 30));
      // Multipliers with many low zero bits make exact ties (x * M + 2^30 a multiple of
      // 2^(30 + e)) common, which random ones almost never hit.
      if (rng() % 2) multiplier[c] = static_cast<int32_t>((1u << 30) + (rng() % 1024u << 20));
      if (rng() % 8 == 0) multiplier[c] = 1 << 30;
      if (mode == 3 && rng() % 4 == 0) multiplier[c] = rng() % 2 ? 0 : 0x7FFFFFFF;
      shift[c] = mode == 0 ? -static_cast<int32_t>(1 + rng() % 16)
                 : mode == 2 ? static_cast<int32_t>(rng() % 40) - 31
                             : -static_cast<int32_t>(1 + rng() % 31);
      columnOffset[c] = static_cast<int32_t>(rng());
    }
    for (auto& r : rowOffset) r = static_cast<int32_t>(rng()) >> (rng() % 32);
    for (auto& x : acc) {
      // Many sums near the rounding points: small values, and multiples of a power of two
      // (ties once the offsets cancel), besides full-range ones.
      const uint32_t kind = rng() % 4;
      x = kind == 0   ? static_cast<int32_t>(rng())
          : kind == 1 ? static_cast<int32_t>(rng() % 20001) - 10000
          : kind == 2 ? static_cast<int32_t>(rng() << (rng() % 31))
                      : static_cast<int32_t>(rng()) >> (rng() % 32);
    }
    if (mode == 1 || mode == 4) std::fill(columnOffset.begin(), columnOffset.end(), 0);
    if (mode == 4) {
      // Ties everywhere: M = 2^30 halves x, small shifts, small sums of both signs.
      for (uint32_t c = 0; c < kN; ++c) {
        multiplier[c] = 1 << 30;
        shift[c] = -static_cast<int32_t>(1 + rng() % 6);
      }
      for (auto& x : acc) x = static_cast<int32_t>(rng() % 513) - 256;
      // Column terms that flip the sign of some sums (the sign term is of the whole sum).
      if (round % 2 == 1)
        for (auto& c : columnOffset) c = static_cast<int32_t>(rng() % 257) - 128;
      outZero = isSigned ? 0 : 128;  // the ties of both signs stay inside the range
      lo = isSigned ? -128 : 0;
      // Or a RELU-like lower bound at the zero point (the form without the sign term), or just
      // below it (where the sign term is still needed).
      const uint32_t bound = rng() % 3;
      if (bound == 1) lo = outZero;
      if (bound == 2) lo = outZero - 1 - static_cast<int32_t>(rng() % 3);
      hi = isSigned ? 127 : 255;
    }
    // Every other round bounded sums (|acc| + |row| + |column| < 2^31), so the column term may
    // also go into the rounding constant (sumsInRange), checked besides the general form.
    const bool bounded = round % 2 == 1;
    if (bounded) {
      for (auto& x : acc) x = static_cast<int32_t>(x % (1 << 28));
      for (auto& r : rowOffset) r = static_cast<int32_t>(r % (1 << 28));
      for (auto& c : columnOffset) c = static_cast<int32_t>(c % (1 << 29));
    }
    const int32_t* ro = withRows ? rowOffset.data() : nullptr;
    std::vector<uint8_t> want(32 * 40, 0x5A), got(32 * 40, 0x5A);
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t c = 0; c < cols; ++c) {
        const int32_t x = static_cast<int32_t>(static_cast<uint32_t>(acc[r * kN + c]) +
                                               static_cast<uint32_t>(columnOffset[c]) +
                                               static_cast<uint32_t>(ro ? ro[r] : 0));
        const int64_t v = static_cast<int64_t>(requantize(x, multiplier[c], shift[c])) + outZero;
        want[r * 40 + c] = static_cast<uint8_t>(std::max<int64_t>(lo, std::min<int64_t>(hi, v)));
      }
    for (const bool sumsInRange : {false, true}) {
      if (sumsInRange && !bounded) continue;
      std::fill(got.begin(), got.end(), 0x5A);
      if (isSigned)
        amxHardwareKernels().requantizeS8(acc.data(), rows, cols, columnOffset.data(), ro,
                                          multiplier.data(), shift.data(), outZero, lo, hi,
                                          reinterpret_cast<int8_t*>(got.data()), 40, sumsInRange);
      else
        amxHardwareKernels().requantizeU8(acc.data(), rows, cols, columnOffset.data(), ro,
                                          multiplier.data(), shift.data(), outZero, lo, hi,
                                          got.data(), 40, sumsInRange);
      ASSERT_EQ(got, want) << "round " << round << " rows " << rows << " cols " << cols
                           << (isSigned ? " int8" : " uint8") << " mode " << mode
                           << " lo " << lo << " outZero " << outZero << " sumsInRange "
                           << sumsInRange;
    }
  }
}

// AMX is used only where Linux reports it (amx_int8 in /proc/cpuinfo), NNAPI_CPU_AMX is not 0
// and NNAPI_CPU_ISA does not cap it away; elsewhere nothing is packed for it (the fallback is
// the VNNI/portable GEMM).
TEST(ConvAmx, UsedOnlyWhereAvailable) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::stringstream text;
  text << cpuinfo.rdbuf();
  const bool reported = text.str().find(" amx_int8") != std::string::npos;
  if (!reported) {
    EXPECT_FALSE(amxInt8Usable());
  }
  const char* cap = getenv("NNAPI_CPU_ISA");
  if (cap != nullptr && *cap != '\0' && strcmp(cap, "avx512") != 0) {
    EXPECT_FALSE(amxInt8Usable());
  }
  const char* setting = getenv("NNAPI_CPU_AMX");
  if (setting != nullptr && strcmp(setting, "0") == 0) {
    EXPECT_FALSE(amxInt8Usable());
  }
  // On by default: where the processor reports AMX-INT8 and nothing turns it off, it is used
  // (unless the kernel refused XTILEDATA, which would be logged; not expected on Linux >= 5.16).
  const bool off = (cap != nullptr && *cap != '\0' && strcmp(cap, "avx512") != 0) ||
                   (setting != nullptr && strcmp(setting, "0") == 0);
  if (reported && !off && cpuFeatures().amxInt8) {
    EXPECT_TRUE(amxInt8Usable());
  }
  const std::vector<uint8_t> weights(64 * 40, 3);
  PackedQuantWeights w;
  packQuantWeights(weights.data(), true, 128, 40, 64, &w);
  EXPECT_EQ(w.amxData.empty(), !amxInt8Usable());
}

}  // namespace
}  // namespace conv
}  // namespace nn
