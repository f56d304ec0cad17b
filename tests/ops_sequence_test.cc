// Sequence RNN/LSTM ops, the two quantized LSTM cells and RANDOM_MULTINOMIAL through the
// public C API: small hand-computed cases (expected values derived here with plain math),
// consistency between the unrolled sequence ops and the per-step LSTM op, statistical and
// determinism checks for the sampler, and invalid signatures/shapes rejected with BAD_DATA.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "test_util.h"

namespace {

using nntest::bytesOf;
using nntest::ModelBuilder;
using nntest::runModel;
using nntest::valuesOf;

constexpr int kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;
constexpr int kI32 = ANEURALNETWORKS_TENSOR_INT32;
constexpr int kBool = ANEURALNETWORKS_BOOL;

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

void expectNear(const std::vector<float>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

// ---- UNIDIRECTIONAL_SEQUENCE_RNN ---------------------------------------------------------

struct UniRnn {
  ModelBuilder m;
  uint32_t input, out, state = 0;
  // 1 unit, input size 1: h_t = x_t * w + h_{t-1} * r + bias (no activation).
  int build(std::vector<uint32_t> inDims, float w, float r, float bias, uint32_t batch,
            int32_t timeMajor, bool stateOut, int32_t activation = 0) {
    input = m.addOperand(kF32, inDims);
    const uint32_t wi = m.addConstant<float>(kF32, {1, 1}, {w});
    const uint32_t ri = m.addConstant<float>(kF32, {1, 1}, {r});
    const uint32_t bi = m.addConstant<float>(kF32, {1}, {bias});
    const uint32_t hi = m.addConstant<float>(kF32, {batch, 1}, std::vector<float>(batch, 0.f));
    const uint32_t act = m.addInt32(activation);
    const uint32_t tm = m.addInt32(timeMajor);
    out = m.addOperand(kF32);
    std::vector<uint32_t> outs{out};
    if (stateOut) {
      state = m.addOperand(kF32);
      outs.push_back(state);
    }
    m.addOperation(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN, {input, wi, ri, bi, hi, act, tm},
                   outs);
    return m.finish({input}, outs);
  }
};

TEST(SequenceRnn, UnidirectionalTimeMajorAccumulatesState) {
  UniRnn net;
  ASSERT_EQ(net.build({3, 1, 1}, 1.f, 0.5f, 0.f, 1, 1, false), ANEURALNETWORKS_NO_ERROR);
  auto r = runModel(net.m, {bytesOf<float>({1, 2, 3})}, {3 * sizeof(float)});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  // h1 = 1, h2 = 2 + 0.5, h3 = 3 + 1.25
  expectNear(valuesOf<float>(r.outputs[0]), {1.0, 2.5, 4.25}, 1e-6);
  EXPECT_EQ(r.outputDims[0], (std::vector<uint32_t>{3, 1, 1}));
}

TEST(SequenceRnn, UnidirectionalBatchMajorWithStateOutputAndRelu) {
  UniRnn net;
  // Batch-major [2 batches, 2 steps, 1]; relu; bias -1.
  ASSERT_EQ(net.build({2, 2, 1}, 1.f, 1.f, -1.f, 2, 0, true, 1), ANEURALNETWORKS_NO_ERROR);
  auto r = runModel(net.m, {bytesOf<float>({3, 4, 0.5f, 2})},
                    {4 * sizeof(float), 2 * sizeof(float)});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  // batch 0: relu(3-1)=2, relu(4+2-1)=5; batch 1: relu(0.5-1)=0, relu(2+0-1)=1
  expectNear(valuesOf<float>(r.outputs[0]), {2, 5, 0, 1}, 1e-6);
  expectNear(valuesOf<float>(r.outputs[1]), {5, 1}, 1e-6);
  EXPECT_EQ(r.outputDims[0], (std::vector<uint32_t>{2, 2, 1}));
}

TEST(SequenceRnn, UnidirectionalRejectsBadTimeMajorAndRank) {
  {
    UniRnn net;
    EXPECT_EQ(net.build({3, 1, 1}, 1.f, 1.f, 0.f, 1, 2, false), ANEURALNETWORKS_BAD_DATA);
  }
  {
    UniRnn net;
    EXPECT_EQ(net.build({3, 1}, 1.f, 1.f, 0.f, 1, 1, false), ANEURALNETWORKS_BAD_DATA);
  }
  {
    UniRnn net;  // activation 5 is not an activation
    EXPECT_EQ(net.build({3, 1, 1}, 1.f, 1.f, 0.f, 1, 1, false, 5), ANEURALNETWORKS_BAD_DATA);
  }
}

TEST(SequenceRnn, UnidirectionalRejectsStateShapeMismatch) {
  UniRnn net;
  // The hidden state constant is built for 1 batch but the input has 2.
  // Constants and fully specified inputs decide the shape rule: finish rejects it (issue 9).
  ASSERT_EQ(net.build({3, 2, 1}, 1.f, 1.f, 0.f, 1, 1, false), ANEURALNETWORKS_BAD_DATA);
}

// ---- BIDIRECTIONAL_SEQUENCE_RNN ----------------------------------------------------------

struct BiRnn {
  ModelBuilder m;
  uint32_t input, aux = 0;
  std::vector<uint32_t> outs;
  // 1-unit cells: fw (w=1, r=0.5), bw (w=2, r=0.5), no bias, no activation, time-major.
  int build(uint32_t T, bool merge, bool withAux, bool auxWeights, bool states,
            uint32_t outputCount = 0) {
    input = m.addOperand(kF32, {T, 1, 1});
    auto c = [&](std::vector<uint32_t> d, float v) { return m.addConstant<float>(kF32, d, {v}); };
    const uint32_t fwW = c({1, 1}, 1.f), fwR = c({1, 1}, 0.5f), fwB = c({1}, 0.f),
                   fwH = c({1, 1}, 0.f);
    const uint32_t bwW = c({1, 1}, 2.f), bwR = c({1, 1}, 0.5f), bwB = c({1}, 0.f),
                   bwH = c({1, 1}, 0.f);
    aux = withAux ? m.addOperand(kF32, {T, 1, 1}) : m.addNoValue(kF32, {T, 1, 1});
    const uint32_t fwA = auxWeights ? c({1, 1}, 10.f) : m.addNoValue(kF32, {1, 1});
    const uint32_t bwA = auxWeights ? c({1, 1}, 10.f) : m.addNoValue(kF32, {1, 1});
    const uint32_t act = m.addInt32(0), tm = m.addBool(true), mo = m.addBool(merge);
    uint32_t n = outputCount ? outputCount : (merge ? 1 : 2) + (states ? 2 : 0);
    for (uint32_t i = 0; i < n; ++i) outs.push_back(m.addOperand(kF32));
    m.addOperation(ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_RNN,
                   {input, fwW, fwR, fwB, fwH, bwW, bwR, bwB, bwH, aux, fwA, bwA, act, tm, mo},
                   outs);
    std::vector<uint32_t> ins{input};
    if (withAux) ins.push_back(aux);
    return m.finish(ins, outs);
  }
};

TEST(SequenceRnn, BidirectionalMergedOutputsRunBackwardCellInReverse) {
  BiRnn net;
  ASSERT_EQ(net.build(3, true, false, false, true), ANEURALNETWORKS_NO_ERROR);
  auto r = runModel(net.m, {bytesOf<float>({1, 2, 3})},
                    {6 * sizeof(float), sizeof(float), sizeof(float)});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  // fw: 1, 2.5, 4.25. bw from the end: t2 = 6, t1 = 4 + 3 = 7, t0 = 2 + 3.5 = 5.5.
  expectNear(valuesOf<float>(r.outputs[0]), {1, 5.5, 2.5, 7, 4.25, 6}, 1e-6);
  EXPECT_EQ(r.outputDims[0], (std::vector<uint32_t>{3, 1, 2}));
  expectNear(valuesOf<float>(r.outputs[1]), {4.25}, 1e-6);  // fw state after t2
  expectNear(valuesOf<float>(r.outputs[2]), {5.5}, 1e-6);   // bw state after t0
}

TEST(SequenceRnn, BidirectionalCrossAndParallelLinking) {
  const std::vector<float> x{1, 2}, a{0.5f, -1};
  {
    BiRnn net;  // cross linking: both cells add 10 * aux
    ASSERT_EQ(net.build(2, false, true, true, false), ANEURALNETWORKS_NO_ERROR);
    auto r = runModel(net.m, {bytesOf(x), bytesOf(a)}, {2 * sizeof(float), 2 * sizeof(float)});
    ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
    // fw: t0 = 1 + 5 = 6, t1 = 2 - 10 + 3 = -5. bw: t1 = 4 - 10 = -6, t0 = 2 + 5 - 3 = 4.
    expectNear(valuesOf<float>(r.outputs[0]), {6, -5}, 1e-6);
    expectNear(valuesOf<float>(r.outputs[1]), {4, -6}, 1e-6);
  }
  {
    BiRnn net;  // parallel linking: the backward cell reads the aux input instead
    ASSERT_EQ(net.build(2, false, true, false, false), ANEURALNETWORKS_NO_ERROR);
    auto r = runModel(net.m, {bytesOf(x), bytesOf(a)}, {2 * sizeof(float), 2 * sizeof(float)});
    ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
    // fw: 1, 2.5. bw over aux: t1 = -2, t0 = 1 - 1 = 0.
    expectNear(valuesOf<float>(r.outputs[0]), {1, 2.5}, 1e-6);
    expectNear(valuesOf<float>(r.outputs[1]), {0, -2}, 1e-6);
  }
}

TEST(SequenceRnn, BidirectionalRejectsInvalidSignatures) {
  {
    BiRnn net;  // merged outputs but two outputs declared
    EXPECT_EQ(net.build(2, true, false, false, false, 2), ANEURALNETWORKS_BAD_DATA);
  }
  {
    BiRnn net;  // aux weights without an aux input
    EXPECT_EQ(net.build(2, false, false, true, false), ANEURALNETWORKS_BAD_DATA);
  }
}

// ---- LSTM sequences ----------------------------------------------------------------------

// A 1-cell, 1-input LSTM whose gates depend only on the input through the input-to-cell
// weight wc: i = s(bi), f = s(bf), g = tanh(wc x + bc), o = s(bo) (sigmoid s, tanh activation).
struct TinyLstm {
  float bi = 0.3f, bf = 0.8f, bc = 0.1f, bo = -0.2f, wc = 0.7f;
  // Expected (h, c) sequence over xs from (0, 0), in the given order.
  void run(const std::vector<float>& xs, bool forward, std::vector<double>* hs,
           double* hLast, double* cLast) const {
    double c = 0;
    hs->assign(xs.size(), 0);
    double h = 0;
    for (size_t k = 0; k < xs.size(); ++k) {
      const size_t t = forward ? k : xs.size() - 1 - k;
      const double g = std::tanh(wc * xs[t] + bc);
      c = sigmoid(bf) * c + sigmoid(bi) * g;
      h = sigmoid(bo) * std::tanh(c);
      (*hs)[t] = h;
    }
    *hLast = h;
    *cLast = c;
  }
  // Adds the 20 tensors/scalars of one cell (LSTM inputs 1..17 and the states) to m.
  std::vector<uint32_t> weights(ModelBuilder& m) const {
    auto w = [&](float v) { return m.addConstant<float>(kF32, {1, 1}, {v}); };
    auto b = [&](float v) { return m.addConstant<float>(kF32, {1}, {v}); };
    return {w(0),  w(0),  w(wc), w(0),  // input-to-{input, forget, cell, output}
            w(0),  w(0),  w(0),  w(0),  // recurrent-to-*
            m.addNoValue(kF32, {1}), m.addNoValue(kF32, {1}), m.addNoValue(kF32, {1}),
            b(bi), b(bf), b(bc), b(bo),  // gate biases
            m.addNoValue(kF32, {1, 1}), m.addNoValue(kF32, {1})};
  }
};

TEST(SequenceLstm, UnidirectionalMatchesHandComputedCellWithStates) {
  TinyLstm cell;
  const std::vector<float> xs{0.5f, -1.f, 2.f};
  ModelBuilder m;
  const uint32_t input = m.addOperand(kF32, {1, 3, 1});  // batch-major
  std::vector<uint32_t> ins{input};
  for (uint32_t i : cell.weights(m)) ins.push_back(i);
  ins.push_back(m.addConstant<float>(kF32, {1, 1}, {0.f}));  // output state
  ins.push_back(m.addConstant<float>(kF32, {1, 1}, {0.f}));  // cell state
  ins.push_back(m.addInt32(4));                               // tanh
  ins.push_back(m.addFloat32(0.f));
  ins.push_back(m.addFloat32(0.f));
  ins.push_back(m.addBool(false));  // batch-major
  for (int i = 0; i < 4; ++i) ins.push_back(m.addNoValue(kF32, {1}));
  const uint32_t out = m.addOperand(kF32), h = m.addOperand(kF32), c = m.addOperand(kF32);
  m.addOperation(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM, ins, {out, h, c});
  ASSERT_EQ(m.finish({input}, {out, h, c}), ANEURALNETWORKS_NO_ERROR);
  auto r = runModel(m, {bytesOf(xs)}, {3 * sizeof(float), sizeof(float), sizeof(float)});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  std::vector<double> hs;
  double hLast, cLast;
  cell.run(xs, true, &hs, &hLast, &cLast);
  expectNear(valuesOf<float>(r.outputs[0]), hs, 1e-5);
  expectNear(valuesOf<float>(r.outputs[1]), {hLast}, 1e-5);
  expectNear(valuesOf<float>(r.outputs[2]), {cLast}, 1e-5);
  EXPECT_EQ(r.outputDims[0], (std::vector<uint32_t>{1, 3, 1}));
}

TEST(SequenceLstm, BidirectionalMergedOutputsHandComputed) {
  TinyLstm fw, bw;
  bw.wc = -1.3f;
  bw.bf = -0.4f;
  const std::vector<float> xs{0.5f, -1.f, 2.f};
  ModelBuilder m;
  const uint32_t input = m.addOperand(kF32, {3, 1, 1});  // time-major
  std::vector<uint32_t> ins{input};
  for (uint32_t i : fw.weights(m)) ins.push_back(i);
  for (uint32_t i : bw.weights(m)) ins.push_back(i);
  for (int i = 0; i < 4; ++i) ins.push_back(m.addConstant<float>(kF32, {1, 1}, {0.f}));
  ins.push_back(m.addNoValue(kF32, {3, 1, 1}));                         // aux input
  for (int i = 0; i < 8; ++i) ins.push_back(m.addNoValue(kF32, {1, 1}));  // aux weights
  ins.push_back(m.addInt32(4));
  ins.push_back(m.addFloat32(0.f));
  ins.push_back(m.addFloat32(0.f));
  ins.push_back(m.addBool(true));  // merge outputs
  ins.push_back(m.addBool(true));  // time-major
  for (int i = 0; i < 8; ++i) ins.push_back(m.addNoValue(kF32, {1}));
  ASSERT_EQ(ins.size(), 61u);
  const uint32_t out = m.addOperand(kF32);
  m.addOperation(ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_LSTM, ins, {out});
  ASSERT_EQ(m.finish({input}, {out}), ANEURALNETWORKS_NO_ERROR);
  auto r = runModel(m, {bytesOf(xs)}, {6 * sizeof(float)});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  std::vector<double> fh, bh;
  double hl, cl;
  fw.run(xs, true, &fh, &hl, &cl);
  bw.run(xs, false, &bh, &hl, &cl);
  expectNear(valuesOf<float>(r.outputs[0]), {fh[0], bh[0], fh[1], bh[1], fh[2], bh[2]}, 1e-5);
  EXPECT_EQ(r.outputDims[0], (std::vector<uint32_t>{3, 1, 2}));
}

// The sequence op over T steps equals T chained LSTM ops with the same weights (non-trivial
// recurrent, peephole and projection weights, 2 batches, batch-major input).
TEST(SequenceLstm, UnidirectionalEqualsChainedLstmSteps) {
  const uint32_t B = 2, I = 3, C = 4, O = 2, T = 3;
  auto vals = [](size_t n, float seed) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = std::sin(seed + 0.7f * i) * 0.6f;
    return v;
  };
  struct W {
    std::vector<uint32_t> dims;
    std::vector<float> v;
  };
  std::vector<W> cellW = {
      {{C, I}, vals(C * I, 1)}, {{C, I}, vals(C * I, 2)}, {{C, I}, vals(C * I, 3)},
      {{C, I}, vals(C * I, 4)}, {{C, O}, vals(C * O, 5)}, {{C, O}, vals(C * O, 6)},
      {{C, O}, vals(C * O, 7)}, {{C, O}, vals(C * O, 8)}, {{C}, vals(C, 9)},
      {{C}, vals(C, 10)},       {{C}, vals(C, 11)},       {{C}, vals(C, 12)},
      {{C}, vals(C, 13)},       {{C}, vals(C, 14)},       {{C}, vals(C, 15)},
      {{O, C}, vals(O * C, 16)}, {{O}, vals(O, 17)}};
  const std::vector<float> x = vals(B * T * I, 20);  // [B, T, I]
  auto addCell = [&](ModelBuilder& m) {
    std::vector<uint32_t> ids;
    for (const W& w : cellW) ids.push_back(m.addConstant<float>(kF32, w.dims, w.v));
    return ids;
  };

  // Sequence op.
  ModelBuilder seq;
  const uint32_t sIn = seq.addOperand(kF32, {B, T, I});
  std::vector<uint32_t> sIns{sIn};
  for (uint32_t i : addCell(seq)) sIns.push_back(i);
  sIns.push_back(seq.addConstant<float>(kF32, {B, O}, std::vector<float>(B * O, 0.f)));
  sIns.push_back(seq.addConstant<float>(kF32, {B, C}, std::vector<float>(B * C, 0.f)));
  sIns.push_back(seq.addInt32(4));
  sIns.push_back(seq.addFloat32(0.9f));  // cell clip
  sIns.push_back(seq.addFloat32(0.f));
  sIns.push_back(seq.addBool(false));
  for (int i = 0; i < 4; ++i) sIns.push_back(seq.addNoValue(kF32, {C}));
  const uint32_t sOut = seq.addOperand(kF32);
  seq.addOperation(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM, sIns, {sOut});
  ASSERT_EQ(seq.finish({sIn}, {sOut}), ANEURALNETWORKS_NO_ERROR);
  auto rs = runModel(seq, {bytesOf(x)}, {B * T * O * sizeof(float)});
  ASSERT_EQ(rs.status, ANEURALNETWORKS_NO_ERROR) << rs.step;
  const std::vector<float> seqOut = valuesOf<float>(rs.outputs[0]);

  // T chained LSTM ops; step t reads x[:, t, :] (a separate model input per step).
  ModelBuilder chain;
  std::vector<uint32_t> cw = addCell(chain);
  uint32_t h = chain.addConstant<float>(kF32, {B, O}, std::vector<float>(B * O, 0.f));
  uint32_t c = chain.addConstant<float>(kF32, {B, C}, std::vector<float>(B * C, 0.f));
  std::vector<uint32_t> stepInputs, stepOutputs;
  std::vector<std::vector<uint8_t>> stepData;
  for (uint32_t t = 0; t < T; ++t) {
    const uint32_t xt = chain.addOperand(kF32, {B, I});
    std::vector<uint32_t> ins{xt};
    ins.insert(ins.end(), cw.begin(), cw.end());
    ins.push_back(h);
    ins.push_back(c);
    ins.push_back(chain.addInt32(4));
    ins.push_back(chain.addFloat32(0.9f));
    ins.push_back(chain.addFloat32(0.f));
    const uint32_t scratch = chain.addOperand(kF32, {B, 4 * C});
    const uint32_t hOut = chain.addOperand(kF32, {B, O});
    const uint32_t cOut = chain.addOperand(kF32, {B, C});
    const uint32_t out = chain.addOperand(kF32, {B, O});
    chain.addOperation(ANEURALNETWORKS_LSTM, ins, {scratch, hOut, cOut, out});
    h = hOut;
    c = cOut;
    stepInputs.push_back(xt);
    stepOutputs.push_back(out);
    std::vector<float> xs;
    for (uint32_t b = 0; b < B; ++b)
      for (uint32_t i = 0; i < I; ++i) xs.push_back(x[(b * T + t) * I + i]);
    stepData.push_back(bytesOf(xs));
  }
  ASSERT_EQ(chain.finish(stepInputs, stepOutputs), ANEURALNETWORKS_NO_ERROR);
  auto rc = runModel(chain, stepData, std::vector<size_t>(T, B * O * sizeof(float)));
  ASSERT_EQ(rc.status, ANEURALNETWORKS_NO_ERROR) << rc.step;
  for (uint32_t t = 0; t < T; ++t) {
    const std::vector<float> step = valuesOf<float>(rc.outputs[t]);
    for (uint32_t b = 0; b < B; ++b)
      for (uint32_t o = 0; o < O; ++o)
        EXPECT_NEAR(seqOut[(b * T + t) * O + o], step[b * O + o], 1e-6)
            << "t " << t << " b " << b << " o " << o;
  }
}

TEST(SequenceLstm, RejectsHalfCifgAndNegativeClip) {
  for (int variant = 0; variant < 2; ++variant) {
    TinyLstm cell;
    ModelBuilder m;
    const uint32_t input = m.addOperand(kF32, {1, 1, 1});
    std::vector<uint32_t> ins{input};
    std::vector<uint32_t> w = cell.weights(m);
    if (variant == 0) w[4] = m.addNoValue(kF32, {1, 1});  // recurrent-to-input without its pair
    for (uint32_t i : w) ins.push_back(i);
    ins.push_back(m.addConstant<float>(kF32, {1, 1}, {0.f}));
    ins.push_back(m.addConstant<float>(kF32, {1, 1}, {0.f}));
    ins.push_back(m.addInt32(4));
    ins.push_back(m.addFloat32(variant == 1 ? -1.f : 0.f));
    ins.push_back(m.addFloat32(0.f));
    ins.push_back(m.addBool(true));
    for (int i = 0; i < 4; ++i) ins.push_back(m.addNoValue(kF32, {1}));
    const uint32_t out = m.addOperand(kF32);
    m.addOperation(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM, ins, {out});
    EXPECT_EQ(m.finish({input}, {out}), ANEURALNETWORKS_BAD_DATA) << "variant " << variant;
  }
}

// ---- QUANTIZED_16BIT_LSTM ----------------------------------------------------------------

struct Q16Lstm {
  ModelBuilder m;
  uint32_t input, prevCell, prevOut, cellOut, out;
  // Weights all equal to their zero point, so every gate pre-activation is its bias alone.
  int build(uint32_t B, uint32_t I, uint32_t O, float inputScale = 1.f / 128) {
    const int kU8 = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
    const float wScale = 0.02f;
    input = m.addOperand(kU8, {B, I}, inputScale, 128);
    std::vector<uint32_t> ins{input};
    for (int i = 0; i < 4; ++i)
      ins.push_back(m.addConstant<uint8_t>(kU8, {O, I}, std::vector<uint8_t>(O * I, 100),
                                           wScale, 100));
    for (int i = 0; i < 4; ++i)
      ins.push_back(m.addConstant<uint8_t>(kU8, {O, O}, std::vector<uint8_t>(O * O, 100),
                                           wScale, 100));
    for (int i = 0; i < 4; ++i)
      ins.push_back(m.addConstant<int32_t>(kI32, {O}, std::vector<int32_t>(O, 0),
                                           wScale / 128, 0));
    prevCell = m.addOperand(ANEURALNETWORKS_TENSOR_QUANT16_SYMM, {B, O}, 1.f / 2048, 0);
    prevOut = m.addOperand(kU8, {B, O}, 1.f / 128, 128);
    ins.push_back(prevCell);
    ins.push_back(prevOut);
    cellOut = m.addOperand(ANEURALNETWORKS_TENSOR_QUANT16_SYMM, {B, O}, 1.f / 2048, 0);
    out = m.addOperand(kU8, {B, O}, 1.f / 128, 128);
    m.addOperation(ANEURALNETWORKS_QUANTIZED_16BIT_LSTM, ins, {cellOut, out});
    return m.finish({input, prevCell, prevOut}, {cellOut, out});
  }
};

TEST(QuantizedLstm, Sixteen16BitGatesFromBiasOnly) {
  Q16Lstm net;
  ASSERT_EQ(net.build(1, 2, 2), ANEURALNETWORKS_NO_ERROR);
  // Zero pre-activations: i = f = o = 1/2, g = 0, so c' = c / 2 and h = tanh(c') / 2.
  const std::vector<int16_t> cell{2048, -4096};  // 1.0 and -2.0
  auto r = runModel(net.m,
                    {bytesOf<uint8_t>({3, 250}), bytesOf(cell), bytesOf<uint8_t>({7, 200})},
                    {2 * sizeof(int16_t), 2});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  const auto c = valuesOf<int16_t>(r.outputs[0]);
  const auto h = valuesOf<uint8_t>(r.outputs[1]);
  EXPECT_NEAR(c[0], 1024, 1);
  EXPECT_NEAR(c[1], -2048, 1);
  EXPECT_NEAR(h[0], 128 + std::round(0.5 * std::tanh(0.5) * 128), 1);
  EXPECT_NEAR(h[1], 128 + std::round(0.5 * std::tanh(-1.0) * 128), 1);
}

TEST(QuantizedLstm, Sixteen16BitRejectsWrongInputQuantization) {
  Q16Lstm net;
  // Constants and fully specified inputs decide the shape rule: finish rejects it (issue 9).
  ASSERT_EQ(net.build(1, 2, 2, 0.5f), ANEURALNETWORKS_BAD_DATA);
}

// ---- QUANTIZED_LSTM ----------------------------------------------------------------------

// CIFG, no peephole/layer norm/projection; zero weights and biases give sigmoid(0) gates.
int buildQlstm(ModelBuilder& m, uint32_t B, uint32_t C, bool omitRequired, uint32_t* cellIn,
               std::vector<uint32_t>* outs) {
  const int kS8 = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
  const int kW8 = ANEURALNETWORKS_TENSOR_QUANT8_SYMM;
  const int kQ16 = ANEURALNETWORKS_TENSOR_QUANT16_SYMM;
  const uint32_t I = 2;
  const uint32_t input = m.addOperand(kS8, {B, I}, 1.f / 128, 0);
  std::vector<uint32_t> ins{input};
  auto w = [&](uint32_t r, uint32_t c) {
    return m.addConstant<int8_t>(kW8, {r, c}, std::vector<int8_t>(r * c, 0), 0.01f, 0);
  };
  auto bias = [&]() { return m.addConstant<int32_t>(kI32, {C}, std::vector<int32_t>(C, 0)); };
  // Omitted quantized operands still need a valid scale to be declared.
  auto none = [&](int type, std::vector<uint32_t> dims) {
    const uint32_t i = m.addOperand(type, dims, type == kI32 ? 0.f : 0.01f);
    m.setValue<int8_t>(i, {});
    return i;
  };
  ins.push_back(none(kW8, {C, I}));                      // 1 CIFG
  ins.push_back(omitRequired ? none(kW8, {C, I}) : w(C, I));  // 2
  ins.push_back(w(C, I));
  ins.push_back(w(C, I));
  ins.push_back(none(kW8, {C, C}));  // 5 CIFG
  for (int i = 0; i < 3; ++i) ins.push_back(w(C, C));
  for (int i = 0; i < 3; ++i) ins.push_back(none(kQ16, {C}));  // peephole
  ins.push_back(none(kI32, {C}));                             // input gate bias
  for (int i = 0; i < 3; ++i) ins.push_back(bias());
  ins.push_back(none(kW8, {C, C}));  // projection
  ins.push_back(none(kI32, {C}));
  ins.push_back(m.addConstant<int8_t>(kS8, {B, C}, std::vector<int8_t>(B * C, 0), 1.f / 128, 0));
  *cellIn = m.addOperand(kQ16, {B, C}, 1.f / 2048, 0);
  ins.push_back(*cellIn);
  for (int i = 0; i < 4; ++i) ins.push_back(none(kQ16, {C}));  // layer norm
  ins.push_back(m.addFloat32(0.f));
  ins.push_back(m.addFloat32(0.f));
  for (int i = 0; i < 4; ++i) ins.push_back(m.addFloat32(1.f / 4096));
  ins.push_back(m.addInt32(0));
  ins.push_back(m.addFloat32(1.f / 128));
  outs->push_back(m.addOperand(kS8, {B, C}, 1.f / 128, 0));
  outs->push_back(m.addOperand(kQ16, {B, C}, 1.f / 2048, 0));
  outs->push_back(m.addOperand(kS8, {B, C}, 1.f / 128, 0));
  m.addOperation(ANEURALNETWORKS_QUANTIZED_LSTM, ins, *outs);
  return m.finish({input, *cellIn}, *outs);
}

TEST(QuantizedLstm, CifgCellWithZeroWeights) {
  ModelBuilder m;
  uint32_t cellIn;
  std::vector<uint32_t> outs;
  ASSERT_EQ(buildQlstm(m, 1, 2, false, &cellIn, &outs), ANEURALNETWORKS_NO_ERROR);
  auto r = runModel(m, {bytesOf<int8_t>({10, -20}), bytesOf<int16_t>({2048, -1024})},
                    {2, 2 * sizeof(int16_t), 2});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  // forget = 1/2 keeps half the state; the coupled input gate multiplies g = tanh(0) = 0.
  const auto c = valuesOf<int16_t>(r.outputs[1]);
  EXPECT_NEAR(c[0], 1024, 1);
  EXPECT_NEAR(c[1], -512, 1);
  // h = o * tanh(c) = tanh(c) / 2, in int8 with scale 1/128.
  const auto h = valuesOf<int8_t>(r.outputs[2]);
  EXPECT_NEAR(h[0], std::round(0.5 * std::tanh(0.5) * 128), 1);
  EXPECT_NEAR(h[1], std::round(0.5 * std::tanh(-0.25) * 128), 1);
  EXPECT_EQ(valuesOf<int8_t>(r.outputs[0]), h);
}

TEST(QuantizedLstm, RejectsOmittedRequiredWeights) {
  ModelBuilder m;
  uint32_t cellIn;
  std::vector<uint32_t> outs;
  EXPECT_EQ(buildQlstm(m, 1, 2, true, &cellIn, &outs), ANEURALNETWORKS_BAD_DATA);
}

// ---- RANDOM_MULTINOMIAL ------------------------------------------------------------------

int buildMultinomial(ModelBuilder& m, uint32_t batches, uint32_t classes, int32_t samples,
                     uint32_t* logits, uint32_t* seeds) {
  *logits = m.addOperand(kF32, {batches, classes});
  const uint32_t n = m.addInt32(samples);
  *seeds = m.addOperand(kI32, {2});
  const uint32_t out = m.addOperand(kI32);
  m.addOperation(ANEURALNETWORKS_RANDOM_MULTINOMIAL, {*logits, n, *seeds}, {out});
  return m.finish({*logits, *seeds}, {out});
}

TEST(RandomMultinomial, FrequenciesFollowSoftmaxAndSeedsAreDeterministic) {
  ModelBuilder m;
  uint32_t logits, seeds;
  const int32_t N = 4000;
  ASSERT_EQ(buildMultinomial(m, 2, 3, N, &logits, &seeds), ANEURALNETWORKS_NO_ERROR);
  // Row 0 puts all mass on class 2; row 1 has probabilities 1/4, 3/4, ~0.
  const std::vector<float> x{-80, -90, 5, 0, std::log(3.f), -200};
  auto r1 = runModel(m, {bytesOf(x), bytesOf<int32_t>({7, 11})}, {2 * N * sizeof(int32_t)});
  ASSERT_EQ(r1.status, ANEURALNETWORKS_NO_ERROR) << r1.step;
  EXPECT_EQ(r1.outputDims[0], (std::vector<uint32_t>{2, static_cast<uint32_t>(N)}));
  const auto s = valuesOf<int32_t>(r1.outputs[0]);
  int counts[3] = {0, 0, 0};
  for (int i = 0; i < N; ++i) EXPECT_EQ(s[i], 2);
  for (int i = N; i < 2 * N; ++i) {
    ASSERT_GE(s[i], 0);
    ASSERT_LT(s[i], 3);
    ++counts[s[i]];
  }
  EXPECT_NEAR(counts[1] / double(N), 0.75, 0.04);
  EXPECT_EQ(counts[2], 0);
  auto r2 = runModel(m, {bytesOf(x), bytesOf<int32_t>({7, 11})}, {2 * N * sizeof(int32_t)});
  ASSERT_EQ(r2.status, ANEURALNETWORKS_NO_ERROR) << r2.step;
  EXPECT_EQ(r2.outputs[0], r1.outputs[0]);
}

TEST(RandomMultinomial, RejectsNonPositiveSampleCount) {
  ModelBuilder m;
  uint32_t logits, seeds;
  EXPECT_EQ(buildMultinomial(m, 1, 3, 0, &logits, &seeds), ANEURALNETWORKS_BAD_DATA);
}

}  // namespace
