// RNN, SVDF, LSTM and LSH_PROJECTION through the public C API. Small RNN/SVDF cases are worked
// out by hand; LSTM variants are checked against a direct double-precision evaluation of the
// cell equations written here; invalid optional-input combinations must be rejected.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <random>

#include "test_util.h"

namespace nn {
uint64_t lshFingerprint64(const uint8_t* s, size_t len);
}

namespace {

using nntest::bytesOf;
using nntest::ModelBuilder;
using nntest::valuesOf;

constexpr int kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;

void expectNear(const std::vector<float>& actual, const std::vector<double>& expected,
                double tol = 1e-5) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], tol) << "element " << i;
}

// ---- RNN ------------------------------------------------------------------------------------

std::vector<std::vector<float>> runRnn(int activation, int* status = nullptr) {
  ModelBuilder m;
  const uint32_t x = m.addOperand(kF32, {1, 2});
  const uint32_t w = m.addConstant<float>(kF32, {2, 2}, {1, 2, 3, 4});
  const uint32_t r = m.addConstant<float>(kF32, {2, 2}, {0.5f, 0, 0, 0.5f});
  const uint32_t b = m.addConstant<float>(kF32, {2}, {0.1f, -10});
  const uint32_t h = m.addOperand(kF32, {1, 2});
  const uint32_t act = m.addInt32(activation);
  const uint32_t hOut = m.addOperand(kF32, {1, 2});
  const uint32_t out = m.addOperand(kF32, {1, 2});
  m.addOperation(ANEURALNETWORKS_RNN, {x, w, r, b, h, act}, {hOut, out});
  const int f = m.finish({x, h}, {hOut, out});
  if (status) *status = f;
  if (f != ANEURALNETWORKS_NO_ERROR) return {};
  auto res = nntest::runModel(m, {bytesOf(std::vector<float>{1, 1}), bytesOf(std::vector<float>{1, 2})},
                              {8, 8});
  EXPECT_EQ(res.status, ANEURALNETWORKS_NO_ERROR) << res.step;
  if (res.status != ANEURALNETWORKS_NO_ERROR) return {};
  return {valuesOf<float>(res.outputs[0]), valuesOf<float>(res.outputs[1])};
}

TEST(RnnTest, ReluStep) {
  // unit 0: 0.1 + (1 + 2) + 0.5 * 1 = 3.6; unit 1: -10 + (3 + 4) + 0.5 * 2 = -2 -> relu 0.
  auto r = runRnn(ANEURALNETWORKS_FUSED_RELU);
  ASSERT_EQ(r.size(), 2u);
  expectNear(r[1], {3.6, 0.0});
  expectNear(r[0], {3.6, 0.0});
}

TEST(RnnTest, TanhAndNone) {
  auto r = runRnn(4);  // tanh
  ASSERT_EQ(r.size(), 2u);
  expectNear(r[1], {std::tanh(3.6), std::tanh(-2.0)});
  r = runRnn(ANEURALNETWORKS_FUSED_NONE);
  ASSERT_EQ(r.size(), 2u);
  expectNear(r[1], {3.6, -2.0});
}

TEST(RnnTest, RejectsBadActivationAndShapes) {
  int status = 0;
  runRnn(5, &status);
  EXPECT_EQ(status, ANEURALNETWORKS_BAD_DATA);
  ModelBuilder m;
  const uint32_t x = m.addOperand(kF32, {1, 2});
  const uint32_t w = m.addConstant<float>(kF32, {2, 2}, {1, 2, 3, 4});
  const uint32_t r = m.addConstant<float>(kF32, {3, 3}, std::vector<float>(9, 0.f));
  const uint32_t b = m.addConstant<float>(kF32, {2}, {0, 0});
  const uint32_t h = m.addOperand(kF32, {1, 2});
  const uint32_t act = m.addInt32(0);
  const uint32_t hOut = m.addOperand(kF32, {1, 2});
  const uint32_t out = m.addOperand(kF32, {1, 2});
  m.addOperation(ANEURALNETWORKS_RNN, {x, w, r, b, h, act}, {hOut, out});
  // Recurrent weights must be [units, units]: the shapes decide it, finish refuses (issue 9).
  EXPECT_EQ(m.finish({x, h}, {hOut, out}), ANEURALNETWORKS_BAD_DATA);
}

// ---- SVDF -----------------------------------------------------------------------------------

struct SvdfResult {
  std::vector<float> state, output;
  int status = 0;
};

SvdfResult runSvdf(int rank, const std::vector<float>& bias, const std::vector<float>& state,
                   int activation = 0) {
  // Two feature filters over a 2-wide input, memory of 3.
  ModelBuilder m;
  const uint32_t units = rank > 0 ? 2 / rank : 2;
  const uint32_t x = m.addOperand(kF32, {1, 2});
  const uint32_t wf = m.addConstant<float>(kF32, {2, 2}, {1, 0, 0, 1});
  const uint32_t wt = m.addConstant<float>(kF32, {2, 3}, {1, 2, 3, 0.5f, 0.5f, 1});
  const uint32_t b = bias.empty() ? m.addNoValue(kF32, {units}) : m.addConstant<float>(kF32, {units}, bias);
  const uint32_t s = m.addOperand(kF32, {1, 6});
  const uint32_t rk = m.addInt32(rank);
  const uint32_t act = m.addInt32(activation);
  const uint32_t sOut = m.addOperand(kF32, {1, 6});
  const uint32_t out = m.addOperand(kF32, {1, units});
  m.addOperation(ANEURALNETWORKS_SVDF, {x, wf, wt, b, s, rk, act}, {sOut, out});
  SvdfResult result;
  result.status = m.finish({x, s}, {sOut, out});
  if (result.status != ANEURALNETWORKS_NO_ERROR) return result;
  auto res = nntest::runModel(m, {bytesOf(std::vector<float>{10, 20}), bytesOf(state)},
                              {6 * sizeof(float), units * sizeof(float)});
  result.status = res.status;
  if (res.status != ANEURALNETWORKS_NO_ERROR) return result;
  result.state = valuesOf<float>(res.outputs[0]);
  result.output = valuesOf<float>(res.outputs[1]);
  return result;
}

TEST(SvdfTest, Rank1WithBias) {
  // Memories (oldest first): filter 0 [1, 2, _], filter 1 [3, 4, _]; the newest slot receives
  // the feature activations 10 and 20 (the 99s are overwritten).
  // filter 0: 1*1 + 2*2 + 3*10 = 35; filter 1: 0.5*3 + 0.5*4 + 1*20 = 23.5.
  auto r = runSvdf(1, {1, -1}, {1, 2, 99, 3, 4, 99});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR);
  expectNear(r.output, {36, 22.5});
  expectNear(r.state, {2, 10, 0, 4, 20, 0});
}

TEST(SvdfTest, Rank2SumsFiltersOfAUnit) {
  auto r = runSvdf(2, {1}, {1, 2, 99, 3, 4, 99});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR);
  expectNear(r.output, {1 + 35 + 23.5});
  expectNear(r.state, {2, 10, 0, 4, 20, 0});
}

TEST(SvdfTest, NoBiasAndRelu) {
  auto r = runSvdf(1, {}, {-100, 0, 0, 3, 4, 0}, ANEURALNETWORKS_FUSED_RELU);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR);
  // filter 0: -100 + 0 + 30 = -70 -> 0; filter 1: 23.5.
  expectNear(r.output, {0, 23.5});
}

TEST(SvdfTest, RejectsBadRank) {
  EXPECT_EQ(runSvdf(0, {1, -1}, std::vector<float>(6)).status, ANEURALNETWORKS_BAD_DATA);
  // 2 filters are not divisible into rank 3.
  auto r = runSvdf(3, {1}, std::vector<float>(6));
  EXPECT_NE(r.status, ANEURALNETWORKS_NO_ERROR);
}

// ---- LSTM -----------------------------------------------------------------------------------

struct LstmCase {
  uint32_t B = 2, I = 3, C = 4, O = 4;
  bool cifg = false, peephole = false, projection = false, projectionBias = false,
       layerNorm = false;
  int activation = 4;  // tanh
  float cellClip = 0.f, projClip = 0.f;
  bool omitAsExecutionInput = false;  // omitted optionals: NO_VALUE (false) or setInput(NULL, 0)
  // Tensors by LSTM input index (0..19, 23..26); filled by fill().
  std::vector<float> t[27];
};

std::vector<uint32_t> lstmDims(const LstmCase& k, int i) {
  switch (i) {
    case 0: return {k.B, k.I};
    case 1: case 2: case 3: case 4: return {k.C, k.I};
    case 5: case 6: case 7: case 8: return {k.C, k.O};
    case 16: return {k.O, k.C};
    case 17: return {k.O};
    case 18: return {k.B, k.O};
    case 19: return {k.B, k.C};
    default: return {k.C};
  }
}

bool lstmPresent(const LstmCase& k, int i) {
  switch (i) {
    case 1: case 5: case 12: return !k.cifg;
    case 9: return k.peephole && !k.cifg;
    case 10: case 11: return k.peephole;
    case 16: return k.projection;
    case 17: return k.projectionBias;
    case 23: return k.layerNorm && !k.cifg;
    case 24: case 25: case 26: return k.layerNorm;
    default: return i <= 19;
  }
}

void fill(LstmCase& k, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-0.8f, 0.8f);
  for (int i = 0; i < 27; ++i) {
    if (i >= 20 && i <= 22) continue;
    size_t n = 1;
    for (uint32_t d : lstmDims(k, i)) n *= d;
    k.t[i].resize(n);
    for (float& v : k.t[i]) v = dist(rng);
    if (i >= 23) for (float& v : k.t[i]) v += 1.f;  // layer-norm scales around 1
  }
}

struct LstmOut {
  std::vector<double> h, c;
};

// Direct evaluation of the LSTM step equations (spec 002, ANEURALNETWORKS_LSTM).
LstmOut referenceLstm(const LstmCase& k) {
  auto act = [&](double v) {
    switch (k.activation) {
      case 0: return v;
      case 1: return std::max(0.0, v);
      case 3: return std::min(6.0, std::max(0.0, v));
      case 6: return 1.0 / (1.0 + std::exp(-v));
      default: return std::tanh(v);
    }
  };
  auto sigm = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
  const auto& x = k.t[0];
  const auto& hPrev = k.t[18];
  const auto& cPrev = k.t[19];
  LstmOut r;
  r.h.assign(k.B * k.O, 0);
  r.c.assign(k.B * k.C, 0);
  for (uint32_t b = 0; b < k.B; ++b) {
    // Pre-activation of gate g (0 input, 1 forget, 2 cell, 3 output) before bias.
    auto pre = [&](int g) {
      std::vector<double> z(k.C, 0.0);
      for (uint32_t j = 0; j < k.C; ++j) {
        for (uint32_t q = 0; q < k.I; ++q) z[j] += double(k.t[1 + g][j * k.I + q]) * x[b * k.I + q];
        for (uint32_t q = 0; q < k.O; ++q)
          z[j] += double(k.t[5 + g][j * k.O + q]) * hPrev[b * k.O + q];
      }
      return z;
    };
    auto finish = [&](std::vector<double> z, int g) {
      const auto& bias = k.t[12 + g];
      if (k.layerNorm) {
        double mean = 0, var = 0;
        for (double v : z) mean += v;
        mean /= k.C;
        for (double v : z) var += (v - mean) * (v - mean);
        var /= k.C;
        for (uint32_t j = 0; j < k.C; ++j)
          z[j] = (z[j] - mean) / std::sqrt(var + 1e-8) * k.t[23 + g][j] + bias[j];
      } else {
        for (uint32_t j = 0; j < k.C; ++j) z[j] += bias[j];
      }
      return z;
    };
    std::vector<double> zf = pre(1), zc = pre(2), zo = pre(3), zi;
    if (k.peephole)
      for (uint32_t j = 0; j < k.C; ++j) zf[j] += double(k.t[10][j]) * cPrev[b * k.C + j];
    zf = finish(zf, 1);
    if (!k.cifg) {
      zi = pre(0);
      if (k.peephole)
        for (uint32_t j = 0; j < k.C; ++j) zi[j] += double(k.t[9][j]) * cPrev[b * k.C + j];
      zi = finish(zi, 0);
    }
    zc = finish(zc, 2);
    std::vector<double> c(k.C), m(k.C);
    for (uint32_t j = 0; j < k.C; ++j) {
      const double f = sigm(zf[j]);
      const double i = k.cifg ? 1.0 - f : sigm(zi[j]);
      c[j] = f * cPrev[b * k.C + j] + i * act(zc[j]);
      if (k.cellClip > 0) c[j] = std::min<double>(k.cellClip, std::max<double>(-k.cellClip, c[j]));
      if (k.peephole) zo[j] += double(k.t[11][j]) * c[j];
    }
    zo = finish(zo, 3);
    for (uint32_t j = 0; j < k.C; ++j) {
      m[j] = sigm(zo[j]) * act(c[j]);
      r.c[b * k.C + j] = c[j];
    }
    for (uint32_t o = 0; o < k.O; ++o) {
      double h;
      if (k.projection) {
        h = k.projectionBias ? k.t[17][o] : 0.0;
        for (uint32_t j = 0; j < k.C; ++j) h += double(k.t[16][o * k.C + j]) * m[j];
        if (k.projClip > 0) h = std::min<double>(k.projClip, std::max<double>(-k.projClip, h));
      } else {
        h = m[o];
      }
      r.h[b * k.O + o] = h;
    }
  }
  return r;
}

struct LstmRun {
  int status = ANEURALNETWORKS_NO_ERROR;
  std::vector<float> scratch, hOut, cOut, out;
  std::vector<uint32_t> scratchDims;
};

// presentOverride lets a test break the optional-input rules.
LstmRun runLstm(const LstmCase& k, const std::function<bool(int)>& presentOverride = nullptr) {
  const uint32_t numInputs = k.layerNorm ? 27 : 23;
  auto present = [&](int i) { return presentOverride ? presentOverride(i) : lstmPresent(k, i); };
  ModelBuilder m;
  std::vector<uint32_t> opInputs, modelInputs;
  std::vector<std::vector<uint8_t>> data;
  for (uint32_t i = 0; i < numInputs; ++i) {
    if (i == 20) {
      opInputs.push_back(m.addInt32(k.activation));
    } else if (i == 21) {
      opInputs.push_back(m.addFloat32(k.cellClip));
    } else if (i == 22) {
      opInputs.push_back(m.addFloat32(k.projClip));
    } else if (!present(i) && !k.omitAsExecutionInput) {
      opInputs.push_back(m.addNoValue(kF32, lstmDims(k, i)));
    } else {
      const uint32_t idx = m.addOperand(kF32, lstmDims(k, i));
      opInputs.push_back(idx);
      modelInputs.push_back(idx);
      data.push_back(present(i) ? bytesOf(k.t[i]) : std::vector<uint8_t>());
    }
  }
  const uint32_t gates = k.cifg ? 3 : 4;
  const uint32_t scratch = m.addOperand(kF32, {k.B, k.C * gates});
  const uint32_t hOut = m.addOperand(kF32, {k.B, k.O});
  const uint32_t cOut = m.addOperand(kF32, {k.B, k.C});
  const uint32_t out = m.addOperand(kF32, {k.B, k.O});
  m.addOperation(ANEURALNETWORKS_LSTM, opInputs, {scratch, hOut, cOut, out});
  LstmRun r;
  r.status = m.finish(modelInputs, {scratch, hOut, cOut, out});
  if (r.status != ANEURALNETWORKS_NO_ERROR) return r;
  auto res = nntest::runModel(
      m, data, {k.B * k.C * gates * 4, k.B * k.O * 4, k.B * k.C * 4, k.B * k.O * 4});
  r.status = res.status;
  if (res.status != ANEURALNETWORKS_NO_ERROR) return r;
  r.scratch = valuesOf<float>(res.outputs[0]);
  r.hOut = valuesOf<float>(res.outputs[1]);
  r.cOut = valuesOf<float>(res.outputs[2]);
  r.out = valuesOf<float>(res.outputs[3]);
  r.scratchDims = res.outputDims[0];
  return r;
}

void checkLstm(LstmCase k, unsigned seed) {
  fill(k, seed);
  const LstmOut want = referenceLstm(k);
  for (bool asExecutionInput : {false, true}) {
    k.omitAsExecutionInput = asExecutionInput;
    const LstmRun got = runLstm(k);
    ASSERT_EQ(got.status, ANEURALNETWORKS_NO_ERROR) << "omitted as execution input: "
                                                    << asExecutionInput;
    for (float v : got.out) ASSERT_TRUE(std::isfinite(v));
    expectNear(got.out, want.h);
    expectNear(got.hOut, want.h);
    expectNear(got.cOut, want.c);
    EXPECT_EQ(got.scratchDims, (std::vector<uint32_t>{k.B, k.C * (k.cifg ? 3u : 4u)}));
  }
}

TEST(LstmTest, Basic) { checkLstm(LstmCase{}, 1); }

TEST(LstmTest, CifgWithPeephole) {
  LstmCase k;
  k.cifg = true;
  k.peephole = true;
  checkLstm(k, 2);
}

TEST(LstmTest, PeepholeProjectionAndClipping) {
  LstmCase k;
  k.peephole = true;
  k.projection = true;
  k.projectionBias = true;
  k.O = 3;
  k.cellClip = 0.3f;
  k.projClip = 0.2f;
  checkLstm(k, 3);
}

TEST(LstmTest, CifgProjectionWithoutBiasReluActivation) {
  LstmCase k;
  k.cifg = true;
  k.projection = true;
  k.O = 2;
  k.activation = 1;
  checkLstm(k, 4);
}

TEST(LstmTest, LayerNormalization) {
  LstmCase k;
  k.layerNorm = true;
  k.peephole = true;
  k.projection = true;
  k.O = 3;
  checkLstm(k, 5);
}

TEST(LstmTest, LayerNormalizationWithCifg) {
  LstmCase k;
  k.layerNorm = true;
  k.cifg = true;
  k.activation = 6;
  checkLstm(k, 6);
}

TEST(LstmTest, RejectsIllegalOptionalCombinations) {
  LstmCase k;
  fill(k, 7);
  // Only one of the peephole weights 10/11.
  EXPECT_EQ(runLstm(k, [&](int i) { return i == 10 || (i <= 19 && lstmPresent(k, i)); }).status,
            ANEURALNETWORKS_BAD_DATA);
  // Partial CIFG: input-to-input weights omitted but recurrent-to-input present.
  EXPECT_EQ(runLstm(k, [&](int i) { return i != 1 && i <= 19 && lstmPresent(k, i); }).status,
            ANEURALNETWORKS_BAD_DATA);
  // Projection bias without projection weights.
  EXPECT_EQ(runLstm(k, [&](int i) { return i == 17 || (i <= 19 && lstmPresent(k, i)); }).status,
            ANEURALNETWORKS_BAD_DATA);
  // A required input (forget gate bias) omitted.
  EXPECT_EQ(runLstm(k, [&](int i) { return i != 13 && i <= 19 && lstmPresent(k, i); }).status,
            ANEURALNETWORKS_BAD_DATA);
  // The same rules hold when the omission only shows at execution.
  k.omitAsExecutionInput = true;
  EXPECT_NE(runLstm(k, [&](int i) { return i == 10 || (i <= 19 && lstmPresent(k, i)); }).status,
            ANEURALNETWORKS_NO_ERROR);
}

TEST(LstmTest, RejectsNegativeClipAndBadActivation) {
  LstmCase k;
  fill(k, 8);
  k.cellClip = -1.f;
  EXPECT_EQ(runLstm(k).status, ANEURALNETWORKS_BAD_DATA);
  k.cellClip = 0.f;
  k.activation = 5;
  EXPECT_EQ(runLstm(k).status, ANEURALNETWORKS_BAD_DATA);
}

// ---- LSH_PROJECTION ---------------------------------------------------------------------------

TEST(LshTest, Fingerprint64MatchesFarmHash) {
  // Values of FarmHash Fingerprint64 (Google's library, through its Node.js binding) for
  // bytes b[i] = (i * 131 + 7) & 255, one length per code path of the algorithm.
  const struct {
    size_t len;
    uint64_t hash;
  } kCases[] = {{0, 11160318154034397263ull},  {3, 13757920146842369537ull},
                {7, 350524659672043134ull},    {12, 4684532757887617108ull},
                {17, 16727878671107872245ull}, {32, 17291822166980286175ull},
                {33, 8349058023639834897ull},  {64, 16291252500013338479ull},
                {65, 10938277795795887744ull}, {129, 10982694807032664465ull},
                {1000, 17079257492731967287ull}};
  std::vector<uint8_t> b(1000);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<uint8_t>((i * 131 + 7) & 255);
  for (const auto& c : kCases) EXPECT_EQ(nn::lshFingerprint64(b.data(), c.len), c.hash) << c.len;
}

// Sign bit of sum_r weight_r * (double)(int64)Fingerprint64(seed bytes ++ row bytes).
int expectedBit(float seed, const std::vector<int32_t>& rows, uint32_t rowLen,
                const std::vector<float>* weights) {
  double score = 0;
  for (size_t r = 0; r * rowLen < rows.size(); ++r) {
    std::vector<uint8_t> key(4 + rowLen * 4);
    memcpy(key.data(), &seed, 4);
    memcpy(key.data() + 4, rows.data() + r * rowLen, rowLen * 4);
    const double v = static_cast<double>(static_cast<int64_t>(nn::lshFingerprint64(key.data(), key.size())));
    score += weights ? (*weights)[r] * v : v;
  }
  return score > 0 ? 1 : 0;
}

std::vector<int32_t> runLsh(int type, const std::vector<float>& seeds, uint32_t numHash,
                            uint32_t numBits, const std::vector<int32_t>& input, uint32_t rowLen,
                            const std::vector<float>* weights, int* status = nullptr) {
  ModelBuilder m;
  const uint32_t h = m.addConstant<float>(kF32, {numHash, numBits}, seeds);
  const uint32_t rows = static_cast<uint32_t>(input.size() / rowLen);
  const uint32_t x = m.addOperand(ANEURALNETWORKS_TENSOR_INT32, {rows, rowLen});
  const uint32_t w = weights ? m.addOperand(kF32, {rows}) : m.addNoValue(kF32, {rows});
  const uint32_t t = m.addInt32(type);
  const uint32_t outLen = type == 2 ? numHash * numBits : numHash;
  const uint32_t out = m.addOperand(ANEURALNETWORKS_TENSOR_INT32, {outLen});
  m.addOperation(ANEURALNETWORKS_LSH_PROJECTION, {h, x, w, t}, {out});
  std::vector<uint32_t> ins{x};
  if (weights) ins.push_back(w);
  const int f = m.finish(ins, {out});
  if (status) *status = f;
  if (f != ANEURALNETWORKS_NO_ERROR) return {};
  std::vector<std::vector<uint8_t>> data{bytesOf(input)};
  if (weights) data.push_back(bytesOf(*weights));
  auto r = nntest::runModel(m, data, {outLen * 4});
  EXPECT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  if (status) *status = r.status;
  return valuesOf<int32_t>(r.outputs.empty() ? std::vector<uint8_t>() : r.outputs[0]);
}

TEST(LshTest, DenseAndSparseProjections) {
  const std::vector<float> seeds{0.25f, -1.5f, 3.f, 7.75f, -0.125f, 2.5f};  // 3 hashes x 2 bits
  const std::vector<int32_t> input{5, -7, 100000, 42, -1, 0, 9, 9};      // 4 rows x 2
  const std::vector<float> weights{0.5f, -2.f, 1.f, 3.f};
  for (const std::vector<float>* w : {static_cast<const std::vector<float>*>(nullptr), &weights}) {
    auto dense = runLsh(2, seeds, 3, 2, input, 2, w);
    ASSERT_EQ(dense.size(), 6u);
    for (size_t i = 0; i < 6; ++i) EXPECT_EQ(dense[i], expectedBit(seeds[i], input, 2, w)) << i;
    auto legacy = runLsh(1, seeds, 3, 2, input, 2, w);
    auto sparse = runLsh(3, seeds, 3, 2, input, 2, w);
    ASSERT_EQ(legacy.size(), 3u);
    ASSERT_EQ(sparse.size(), 3u);
    for (int k = 0; k < 3; ++k) {
      const int sig = (dense[2 * k] << 1) | dense[2 * k + 1];
      EXPECT_EQ(legacy[k], sig);
      EXPECT_EQ(sparse[k], sig + k * 4);  // offset k * 2^bits separates the hash functions
    }
  }
}

TEST(LshTest, RejectsBadType) {
  int status = 0;
  runLsh(4, {1, 2}, 1, 2, {1, 2}, 2, nullptr, &status);
  EXPECT_EQ(status, ANEURALNETWORKS_BAD_DATA);
}

}  // namespace
