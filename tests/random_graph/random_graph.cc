// Signatures of the covered operations, written from the NNAPI operation spec
// (/work/shared/seeds, NeuralNetworksTypes.h comments): operand roles, types and the parameter
// ranges that keep a graph valid. Shapes stay small (every dim <= 8, a few hundred elements).
#include "random_graph/random_graph.h"

#include <android/NeuralNetworks.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>

namespace rgraph {
namespace {

constexpr int32_t F32 = ANEURALNETWORKS_TENSOR_FLOAT32;
constexpr int32_t F16 = ANEURALNETWORKS_TENSOR_FLOAT16;
constexpr int32_t I32 = ANEURALNETWORKS_TENSOR_INT32;
constexpr int32_t Q8 = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
constexpr int32_t Q8S = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
constexpr int32_t B8 = ANEURALNETWORKS_TENSOR_BOOL8;
constexpr int32_t PC = ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL;

bool isQuant(int32_t t) { return t == Q8 || t == Q8S; }

uint16_t toHalf(float f) {
  // Round-to-nearest binary16 for the moderate finite values used here.
  if (f == 0.f) return std::signbit(f) ? 0x8000 : 0;
  uint16_t sign = f < 0 ? 0x8000 : 0;
  float a = std::fabs(f);
  int e;
  float m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5,1)
  int exp = e - 1 + 15;
  if (exp <= 0) {  // subnormal
    long mant = std::lround(std::ldexp(a, 24));
    return static_cast<uint16_t>(sign | mant);
  }
  long mant = std::lround((m * 2 - 1) * 1024);
  if (mant == 1024) {
    mant = 0;
    ++exp;
  }
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7C00);
  return static_cast<uint16_t>(sign | (exp << 10) | mant);
}

// Builds the operands and the operation of one node.
class B {
 public:
  B(Graph& g, std::mt19937_64& rng) : g_(g), rng_(rng) {}

  int uni(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  float unif(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng_); }
  bool coin(double p = 0.5) { return std::bernoulli_distribution(p)(rng_); }
  template <typename T>
  T pick(std::initializer_list<T> v) { return *(v.begin() + uni(0, static_cast<int>(v.size()) - 1)); }

  std::vector<uint32_t> shape(int rank, int lo = 1, int hi = 5) {
    std::vector<uint32_t> d(rank);
    for (auto& x : d) x = uni(lo, hi);
    return d;
  }
  Tensor tensor(int32_t type, std::vector<uint32_t> dims) {
    Tensor t{type, std::move(dims), 0.f, 0};
    if (isQuant(type)) {
      t.scale = pick({0.5f, 0.25f, 0.1f, 0.05f, 0.02f, 1.f / 128});
      t.zeroPoint = type == Q8 ? uni(0, 255) : uni(-128, 127);
      if (coin(0.3)) t.zeroPoint = type == Q8 ? 128 : 0;
    }
    return t;
  }
  uint32_t add(Operand op) {
    g_.operands.push_back(std::move(op));
    return static_cast<uint32_t>(g_.operands.size() - 1);
  }
  uint32_t input(const Tensor& t) {
    Operand op;
    op.t = t;
    const uint32_t i = add(op);
    g_.inputs.push_back(i);
    return i;
  }
  // The incoming operand when usable, else a new model input of `t`.
  uint32_t primary(int incoming, const Tensor& t) { return incoming >= 0 ? incoming : input(t); }
  template <typename T>
  uint32_t constant(const Tensor& t, const std::vector<T>& v) {
    Operand op;
    op.t = t;
    op.isConstant = true;
    op.value.resize(v.size() * sizeof(T));
    if (!v.empty()) memcpy(op.value.data(), v.data(), op.value.size());
    return add(op);
  }
  uint32_t i32(int32_t v) { return constant<int32_t>(Tensor{ANEURALNETWORKS_INT32, {}}, {v}); }
  uint32_t f32(float v) { return constant<float>(Tensor{ANEURALNETWORKS_FLOAT32, {}}, {v}); }
  uint32_t f16(float v) { return constant<uint16_t>(Tensor{ANEURALNETWORKS_FLOAT16, {}}, {toHalf(v)}); }
  // A float scalar of the tensor type's scalar kind (FLOAT16 for F16 tensors).
  uint32_t fscalar(int32_t tensorType, float v) { return tensorType == F16 ? f16(v) : f32(v); }
  uint32_t boolean(bool v) { return constant<uint8_t>(Tensor{ANEURALNETWORKS_BOOL, {}}, {uint8_t(v)}); }
  uint32_t ivec(std::vector<int32_t> v) {
    return constant<int32_t>(Tensor{I32, {static_cast<uint32_t>(v.size())}}, v);
  }
  uint32_t omitted(int32_t type) {
    Operand op;
    op.t = Tensor{type, {}};
    op.omitted = true;
    op.isConstant = true;
    return add(op);
  }
  // Random constant tensor data of `t`.
  uint32_t randomConst(const Tensor& t) {
    Operand op;
    op.t = t;
    op.isConstant = true;
    op.value = inputData(op, rng_);
    return add(op);
  }
  uint32_t output(int32_t type, float scale = 0.f, int32_t zp = 0) {
    Operand op;
    op.t = Tensor{type, {}, scale, zp};
    // Scalars have their shape; tensor shapes are learned by running the graph.
    op.dimsKnown = type == ANEURALNETWORKS_INT32 || type == ANEURALNETWORKS_FLOAT32 ||
                   type == ANEURALNETWORKS_FLOAT16 || type == ANEURALNETWORKS_BOOL;
    return add(op);
  }
  uint32_t outputLike(const Tensor& in) { return output(in.type, in.scale, in.zeroPoint); }
  uint32_t outputQ(int32_t type) {  // fresh quantization for a quantized result
    Tensor t = tensor(type, {});
    return output(type, t.scale, t.zeroPoint);
  }
  void node(int32_t code, std::vector<uint32_t> in, std::vector<uint32_t> out, std::string note = "") {
    g_.nodes.push_back(Node{code, std::move(in), std::move(out), std::move(note)});
  }
  const Tensor& t(uint32_t i) const { return g_.operands[i].t; }
  Graph& g() { return g_; }

 private:
  Graph& g_;
  std::mt19937_64& rng_;
};

using NodeFn = std::function<bool(B&, int incoming)>;

// The type of `incoming` if it is one of `types`, else a random one of them; resets
// `incoming` to -1 when it cannot be used (or fails `ok`).
int32_t chooseType(B& b, const Graph& g, int& incoming, std::initializer_list<int32_t> types,
                   const std::function<bool(const Tensor&)>& ok = nullptr) {
  if (incoming >= 0) {
    const Tensor& t = g.operands[incoming].t;
    if (std::find(types.begin(), types.end(), t.type) != types.end() && (!ok || ok(t))) return t.type;
    incoming = -1;
  }
  return b.pick(types);
}

std::string dimsStr(const std::vector<uint32_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

// --- families -----------------------------------------------------------------------------

NodeFn unary(int32_t code, std::initializer_list<int32_t> types, bool sameQuant) {
  std::vector<int32_t> tv(types);
  return [code, tv, sameQuant](B& b, int in) {
    int32_t type = tv[b.uni(0, static_cast<int>(tv.size()) - 1)];
    if (in >= 0) {
      if (std::find(tv.begin(), tv.end(), b.t(in).type) != tv.end()) type = b.t(in).type;
      else in = -1;
    }
    const uint32_t x = b.primary(in, b.tensor(type, b.shape(b.uni(1, 4))));
    uint32_t out;
    if (code == ANEURALNETWORKS_LOGISTIC && isQuant(type)) out = b.output(type, 1.f / 256, type == Q8 ? 0 : -128);
    else if (code == ANEURALNETWORKS_TANH && isQuant(type)) out = b.output(type, 1.f / 128, type == Q8 ? 128 : 0);
    else out = sameQuant || !isQuant(type) ? b.outputLike(b.t(x)) : b.outputQ(type);
    b.node(code, {x}, {out});
    return true;
  };
}

// Two broadcastable shapes: the second drops leading dims and sets some dims to 1.
std::pair<std::vector<uint32_t>, std::vector<uint32_t>> broadcastPair(B& b, std::vector<uint32_t> a) {
  std::vector<uint32_t> c(a.begin() + b.uni(0, static_cast<int>(a.size()) - 1), a.end());
  for (auto& d : c) if (b.coin(0.3)) d = 1;
  if (b.coin(0.3)) std::swap(a, c);
  return {a, c};
}

NodeFn binary(int32_t code, std::initializer_list<int32_t> types, bool activation, int32_t outType = -1) {
  std::vector<int32_t> tv(types);
  return [=](B& b, int in) {
    int32_t type = tv[b.uni(0, static_cast<int>(tv.size()) - 1)];
    std::vector<uint32_t> shape = b.shape(b.uni(1, 4));
    if (in >= 0) {
      if (std::find(tv.begin(), tv.end(), b.t(in).type) != tv.end()) {
        type = b.t(in).type;
        shape = b.t(in).dims;
      } else {
        in = -1;
      }
    }
    uint32_t x, y;
    if (in >= 0) {
      std::vector<uint32_t> other(shape.begin() + b.uni(0, static_cast<int>(shape.size()) - 1), shape.end());
      for (auto& d : other) if (b.coin(0.3)) d = 1;
      x = in;
      y = b.coin(0.3) ? b.randomConst(b.tensor(type, other)) : b.input(b.tensor(type, other));
      if (b.coin(0.5)) std::swap(x, y);
    } else {
      auto p = broadcastPair(b, shape);
      x = b.input(b.tensor(type, p.first));
      y = b.coin(0.3) ? b.randomConst(b.tensor(type, p.second)) : b.input(b.tensor(type, p.second));
    }
    std::vector<uint32_t> ins = {x, y};
    int act = 0;
    if (activation) {
      act = type == I32 ? 0 : b.uni(0, 3);
      ins.push_back(b.i32(act));
    }
    uint32_t out;
    if (outType >= 0) out = b.output(outType);
    else if (isQuant(type)) {
      if (code == ANEURALNETWORKS_MUL) {
        // Older feature levels required output scale > product of input scales.
        const float s = b.t(x).scale * b.t(y).scale * b.pick({2.f, 4.f, 16.f});
        out = b.output(type, s, type == Q8 ? b.uni(0, 255) : b.uni(-128, 127));
      } else {
        out = b.outputQ(type);
      }
    } else out = b.output(type);
    b.node(code, ins, {out}, "act " + std::to_string(act));
    return true;
  };
}

// Spatial window parameters valid for input extent `in`: filter f, stride s, pads p0/p1 with
// (in + p0 + p1 - dilated f) >= 0. Pads stay below the filter size (pooling windows then
// never lie entirely in the padding).
struct Window { int f, s, p0, p1, dil; };
Window window(B& b, int in, bool allowDilation) {
  Window w;
  w.dil = allowDilation && b.coin(0.2) ? 2 : 1;
  for (;;) {
    w.f = b.uni(1, 4);
    w.s = b.uni(1, 3);
    w.p0 = b.uni(0, w.f - 1);
    w.p1 = b.uni(0, w.f - 1);
    if (in + w.p0 + w.p1 >= (w.f - 1) * w.dil + 1) return w;
  }
}

bool conv(B& b, int in, int32_t code) {
  const bool quant = b.coin(0.4);
  Graph& g = b.g();
  int32_t type = chooseType(b, g, in, quant ? std::initializer_list<int32_t>{Q8, Q8S}
                                             : std::initializer_list<int32_t>{F32, F16},
                            [](const Tensor& t) { return t.dims.size() == 4 && t.dims[1] <= 8 && t.dims[2] <= 8; });
  std::vector<uint32_t> ishape = in >= 0 ? b.t(in).dims : std::vector<uint32_t>{
      static_cast<uint32_t>(b.uni(1, 2)), static_cast<uint32_t>(b.uni(1, 7)),
      static_cast<uint32_t>(b.uni(1, 7)), static_cast<uint32_t>(b.uni(1, 4))};
  const uint32_t x = b.primary(in, b.tensor(type, ishape));
  const Tensor xt = b.t(x);
  const int cin = xt.dims[3];
  const bool transpose = code == ANEURALNETWORKS_TRANSPOSE_CONV_2D;
  Window wh, ww;
  if (transpose) {
    // Output extent (in - 1) * s + f - p0 - p1 must be >= 1; pads up to f - 1, strides up to
    // 3 so output extents smaller than the stride occur (issue 9's TRANSPOSE_CONV_2D case).
    auto tw = [&](int inExt) {
      Window w{};
      w.dil = 1;
      for (;;) {
        w.f = b.uni(1, 6);
        w.s = b.uni(1, 3);
        w.p0 = b.uni(0, w.f - 1);
        w.p1 = b.uni(0, w.f - 1);
        if ((inExt - 1) * w.s + w.f - w.p0 - w.p1 >= 1) return w;
      }
    };
    wh = tw(xt.dims[1]);
    ww = tw(xt.dims[2]);
  } else {
    const bool dil = code != ANEURALNETWORKS_GROUPED_CONV_2D;
    wh = window(b, xt.dims[1], dil);
    ww = window(b, xt.dims[2], dil);
    if (wh.dil != ww.dil) wh.dil = ww.dil = 1;
  }
  int groups = 1, mult = 1, cout;
  std::vector<uint32_t> fdims;
  if (code == ANEURALNETWORKS_DEPTHWISE_CONV_2D) {
    mult = b.uni(1, 2);
    cout = cin * mult;
    fdims = {1, (uint32_t)wh.f, (uint32_t)ww.f, (uint32_t)cout};
  } else if (code == ANEURALNETWORKS_GROUPED_CONV_2D) {
    std::vector<int> divs;
    for (int d = 1; d <= cin; ++d) if (cin % d == 0) divs.push_back(d);
    groups = divs[b.uni(0, static_cast<int>(divs.size()) - 1)];
    cout = groups * b.uni(1, 2);
    fdims = {(uint32_t)cout, (uint32_t)wh.f, (uint32_t)ww.f, (uint32_t)(cin / groups)};
  } else {
    cout = b.uni(1, 4);
    fdims = {(uint32_t)cout, (uint32_t)wh.f, (uint32_t)ww.f, (uint32_t)cin};
  }
  uint32_t filter, bias;
  const bool perChannel = isQuant(type) && code != ANEURALNETWORKS_GROUPED_CONV_2D && b.coin(0.3);
  if (isQuant(type)) {
    Tensor ft = b.tensor(type, fdims);
    if (perChannel) {
      ft.type = PC;
      ft.scale = 0.f;
      ft.zeroPoint = 0;
      Operand op;
      op.t = ft;
      op.isConstant = true;
      op.channelDim = code == ANEURALNETWORKS_DEPTHWISE_CONV_2D ? 3 : 0;
      op.value.resize(elementCount(fdims));
      for (auto& v : op.value) v = static_cast<uint8_t>(b.uni(-127, 127));
      for (uint32_t c = 0; c < fdims[op.channelDim]; ++c) op.channelScales.push_back(b.pick({0.01f, 0.02f, 0.05f, 0.1f}));
      filter = b.add(op);
      std::vector<int32_t> bv(cout);
      for (auto& v : bv) v = b.uni(-1000, 1000);
      bias = b.constant<int32_t>(Tensor{I32, {(uint32_t)cout}, 0.f, 0}, bv);
    } else {
      filter = b.randomConst(ft);
      std::vector<int32_t> bv(cout);
      for (auto& v : bv) v = b.uni(-1000, 1000);
      bias = b.constant<int32_t>(Tensor{I32, {(uint32_t)cout}, xt.scale * b.t(filter).scale, 0}, bv);
    }
  } else {
    filter = b.randomConst(b.tensor(type, fdims));
    bias = b.randomConst(b.tensor(type, {(uint32_t)cout}));
  }
  const int act = b.uni(0, 3);
  const bool nchw = false;  // layouts: NHWC (the NCHW paths transpose into the same kernels)
  // Implicit padding (SAME = 1, VALID = 2) instead of the four explicit amounts.
  const bool implicit = !transpose && b.coin(0.3);
  const bool validFits = static_cast<int>(xt.dims[1]) >= (wh.f - 1) * wh.dil + 1 &&
                         static_cast<int>(xt.dims[2]) >= (ww.f - 1) * ww.dil + 1;
  const int paddingCode = validFits && b.coin() ? 2 : 1;
  std::vector<uint32_t> ins = {x, filter, bias};
  if (implicit) {
    ins.push_back(b.i32(paddingCode));
  } else {
    for (int p : {ww.p0, ww.p1, wh.p0, wh.p1}) ins.push_back(b.i32(p));
  }
  ins.push_back(b.i32(ww.s));
  ins.push_back(b.i32(wh.s));
  if (code == ANEURALNETWORKS_DEPTHWISE_CONV_2D) ins.push_back(b.i32(mult));
  if (code == ANEURALNETWORKS_GROUPED_CONV_2D) ins.push_back(b.i32(groups));
  ins.push_back(b.i32(act));
  if (code == ANEURALNETWORKS_GROUPED_CONV_2D || transpose || ww.dil > 1 || b.coin(0.3)) ins.push_back(b.boolean(nchw));
  if (ww.dil > 1 && !transpose && code != ANEURALNETWORKS_GROUPED_CONV_2D) {
    ins.push_back(b.i32(ww.dil));
    ins.push_back(b.i32(wh.dil));
  }
  // (Issue 9: float32 TRANSPOSE_CONV_2D with an output extent below the stride used to crash
  // nnapi-cpu; such shapes stay in the generated range so that path remains covered.)
  uint32_t out;
  if (isQuant(type)) {
    // Keep the real multiplier (input * filter / output scale) below 1 as older levels need.
    const float fs = perChannel ? 0.1f : b.t(filter).scale;
    out = b.output(type, xt.scale * fs * b.pick({1.5f, 4.f, 20.f}), type == Q8 ? b.uni(0, 255) : b.uni(-128, 127));
  } else {
    out = b.output(type);
  }
  b.node(code, ins, {out},
         "input " + dimsStr(xt.dims) + " filter " + dimsStr(fdims) + " pad l" + std::to_string(ww.p0) +
             " r" + std::to_string(ww.p1) + " t" + std::to_string(wh.p0) + " b" + std::to_string(wh.p1) +
             " stride w" + std::to_string(ww.s) + " h" + std::to_string(wh.s) + " dil " +
             std::to_string(ww.dil) + (perChannel ? " per-channel" : "") +
             (implicit ? " implicit " + std::to_string(paddingCode) : ""));
  return true;
}

bool pool(B& b, int in, int32_t code) {
  Graph& g = b.g();
  const bool l2 = code == ANEURALNETWORKS_L2_POOL_2D;
  int32_t type = chooseType(b, g, in, l2 ? std::initializer_list<int32_t>{F32, F16}
                                          : std::initializer_list<int32_t>{F32, F16, Q8, Q8S},
                            [](const Tensor& t) { return t.dims.size() == 4; });
  const uint32_t x = b.primary(in, b.tensor(type, {(uint32_t)b.uni(1, 2), (uint32_t)b.uni(1, 7),
                                                     (uint32_t)b.uni(1, 7), (uint32_t)b.uni(1, 3)}));
  const Tensor xt = b.t(x);
  Window wh = window(b, xt.dims[1], false), ww = window(b, xt.dims[2], false);
  std::vector<uint32_t> ins = {x};
  if (b.coin(0.3)) {  // implicit padding: VALID only where the filter fits
    const bool validFits = static_cast<int>(xt.dims[1]) >= wh.f && static_cast<int>(xt.dims[2]) >= ww.f;
    ins.push_back(b.i32(validFits && b.coin() ? 2 : 1));
  } else {
    for (int p : {ww.p0, ww.p1, wh.p0, wh.p1}) ins.push_back(b.i32(p));
  }
  for (int v : {ww.s, wh.s, ww.f, wh.f, b.uni(0, 3)}) ins.push_back(b.i32(v));
  if (b.coin(0.3)) ins.push_back(b.boolean(false));
  b.node(code, ins, {b.outputLike(xt)},
         "input " + dimsStr(xt.dims) + " filter " + std::to_string(wh.f) + "x" + std::to_string(ww.f));
  return true;
}

// Axis-style helpers.
int rankOf(B& b, uint32_t x) { return static_cast<int>(b.t(x).dims.size()); }

uint32_t anyInput(B& b, int& in, std::initializer_list<int32_t> types, int minRank = 1, int maxRank = 4) {
  int32_t type = chooseType(b, b.g(), in, types, [&](const Tensor& t) {
    return static_cast<int>(t.dims.size()) >= minRank && static_cast<int>(t.dims.size()) <= maxRank &&
           elementCount(t.dims) <= 512;
  });
  return b.primary(in, b.tensor(type, b.shape(b.uni(minRank, maxRank))));
}

#define ALL_T {F32, F16, Q8, Q8S, I32}
#define FQ_T {F32, F16, Q8, Q8S}
#define F_T {F32, F16}

std::map<int32_t, NodeFn> table() {
  std::map<int32_t, NodeFn> t;
  using std::vector;
  t[ANEURALNETWORKS_ADD] = binary(ANEURALNETWORKS_ADD, {F32, F16, Q8, Q8S, I32}, true);
  t[ANEURALNETWORKS_MUL] = binary(ANEURALNETWORKS_MUL, {F32, F16, Q8, Q8S, I32}, true);
  t[ANEURALNETWORKS_SUB] = binary(ANEURALNETWORKS_SUB, {F32, F16, Q8, Q8S, I32}, true);
  t[ANEURALNETWORKS_DIV] = binary(ANEURALNETWORKS_DIV, {F32, F16}, true);
  t[ANEURALNETWORKS_MAXIMUM] = binary(ANEURALNETWORKS_MAXIMUM, {F32, F16, Q8, Q8S, I32}, false);
  t[ANEURALNETWORKS_MINIMUM] = binary(ANEURALNETWORKS_MINIMUM, {F32, F16, Q8, Q8S, I32}, false);
  t[ANEURALNETWORKS_POW] = binary(ANEURALNETWORKS_POW, {F32, F16}, false);
  for (int32_t c : {ANEURALNETWORKS_EQUAL, ANEURALNETWORKS_NOT_EQUAL, ANEURALNETWORKS_GREATER,
                    ANEURALNETWORKS_GREATER_EQUAL, ANEURALNETWORKS_LESS, ANEURALNETWORKS_LESS_EQUAL})
    t[c] = binary(c, {F32, F16, I32, Q8, Q8S, B8}, false, B8);
  t[ANEURALNETWORKS_LOGICAL_AND] = binary(ANEURALNETWORKS_LOGICAL_AND, {B8}, false, B8);
  t[ANEURALNETWORKS_LOGICAL_OR] = binary(ANEURALNETWORKS_LOGICAL_OR, {B8}, false, B8);
  t[ANEURALNETWORKS_PRELU] = binary(ANEURALNETWORKS_PRELU, FQ_T, false);
  t[ANEURALNETWORKS_ABS] = unary(ANEURALNETWORKS_ABS, {F32, F16, I32}, true);
  t[ANEURALNETWORKS_EXP] = unary(ANEURALNETWORKS_EXP, F_T, true);
  t[ANEURALNETWORKS_FLOOR] = unary(ANEURALNETWORKS_FLOOR, F_T, true);
  t[ANEURALNETWORKS_LOG] = unary(ANEURALNETWORKS_LOG, F_T, true);
  t[ANEURALNETWORKS_NEG] = unary(ANEURALNETWORKS_NEG, {F32, F16, I32}, true);
  t[ANEURALNETWORKS_RSQRT] = unary(ANEURALNETWORKS_RSQRT, F_T, true);
  t[ANEURALNETWORKS_SIN] = unary(ANEURALNETWORKS_SIN, F_T, true);
  t[ANEURALNETWORKS_SQRT] = unary(ANEURALNETWORKS_SQRT, F_T, true);
  t[ANEURALNETWORKS_RELU] = unary(ANEURALNETWORKS_RELU, FQ_T, true);
  t[ANEURALNETWORKS_RELU1] = unary(ANEURALNETWORKS_RELU1, FQ_T, true);
  t[ANEURALNETWORKS_RELU6] = unary(ANEURALNETWORKS_RELU6, FQ_T, true);
  t[ANEURALNETWORKS_LOGISTIC] = unary(ANEURALNETWORKS_LOGISTIC, FQ_T, true);
  t[ANEURALNETWORKS_TANH] = unary(ANEURALNETWORKS_TANH, FQ_T, true);
  t[ANEURALNETWORKS_HARD_SWISH] = unary(ANEURALNETWORKS_HARD_SWISH, FQ_T, false);
  t[ANEURALNETWORKS_LOGICAL_NOT] = unary(ANEURALNETWORKS_LOGICAL_NOT, {B8}, true);
  t[ANEURALNETWORKS_ELU] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, F_T);
    b.node(ANEURALNETWORKS_ELU, {x, b.fscalar(b.t(x).type, b.unif(0.1f, 2.f))}, {b.outputLike(b.t(x))});
    return true;
  };
  t[ANEURALNETWORKS_CAST] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, {F32, F16, I32});
    b.node(ANEURALNETWORKS_CAST, {x}, {b.output(b.pick({F32, F16, I32}))});
    return true;
  };
  t[ANEURALNETWORKS_DEQUANTIZE] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, {Q8, Q8S});
    b.node(ANEURALNETWORKS_DEQUANTIZE, {x}, {b.output(b.pick(F_T))});
    return true;
  };
  t[ANEURALNETWORKS_QUANTIZE] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, F_T);
    b.node(ANEURALNETWORKS_QUANTIZE, {x}, {b.outputQ(b.pick({Q8, Q8S}))});
    return true;
  };
  for (int32_t c : {ANEURALNETWORKS_CONV_2D, ANEURALNETWORKS_DEPTHWISE_CONV_2D,
                    ANEURALNETWORKS_GROUPED_CONV_2D, ANEURALNETWORKS_TRANSPOSE_CONV_2D})
    t[c] = [c](B& b, int in) { return conv(b, in, c); };
  for (int32_t c : {ANEURALNETWORKS_AVERAGE_POOL_2D, ANEURALNETWORKS_MAX_POOL_2D, ANEURALNETWORKS_L2_POOL_2D})
    t[c] = [c](B& b, int in) { return pool(b, in, c); };
  t[ANEURALNETWORKS_FULLY_CONNECTED] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, FQ_T, 2, 2);
    const Tensor xt = b.t(x);
    const uint32_t units = b.uni(1, 6);
    const uint32_t w = b.randomConst(b.tensor(xt.type, {units, xt.dims[1]}));
    uint32_t bias;
    if (isQuant(xt.type)) {
      std::vector<int32_t> bv(units);
      for (auto& v : bv) v = b.uni(-500, 500);
      bias = b.constant<int32_t>(Tensor{I32, {units}, xt.scale * b.t(w).scale, 0}, bv);
    } else {
      bias = b.randomConst(b.tensor(xt.type, {units}));
    }
    const uint32_t out = isQuant(xt.type)
        ? b.output(xt.type, xt.scale * b.t(w).scale * b.pick({2.f, 8.f, 30.f}), xt.type == Q8 ? 128 : 0)
        : b.output(xt.type);
    b.node(ANEURALNETWORKS_FULLY_CONNECTED, {x, w, bias, b.i32(b.uni(0, 3))}, {out});
    return true;
  };
  t[ANEURALNETWORKS_BATCH_MATMUL] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, F_T, 2, 3);
    const Tensor xt = b.t(x);
    const bool adjX = b.coin(0.3), adjY = b.coin(0.3);
    const uint32_t r = static_cast<uint32_t>(xt.dims.size());
    const uint32_t k = adjX ? xt.dims[r - 2] : xt.dims[r - 1];
    std::vector<uint32_t> yd(xt.dims.begin(), xt.dims.end() - 2);
    const uint32_t n = b.uni(1, 5);
    if (adjY) { yd.push_back(n); yd.push_back(k); } else { yd.push_back(k); yd.push_back(n); }
    const uint32_t y = b.randomConst(b.tensor(xt.type, yd));
    b.node(ANEURALNETWORKS_BATCH_MATMUL, {x, y, b.boolean(adjX), b.boolean(adjY)}, {b.output(xt.type)});
    return true;
  };
  t[ANEURALNETWORKS_SOFTMAX] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, FQ_T, 1, 4);
    const Tensor xt = b.t(x);
    // beta up to 100 with input scales up to 0.5: beta * scale >= 16 occurs (issue 9 case).
    const float beta = b.pick({1.f, 0.5f, 2.f, b.unif(0.01f, 5.f), b.unif(5.f, 100.f)});
    std::vector<uint32_t> ins = {x, b.fscalar(xt.type, beta)};
    if (b.coin(0.4)) ins.push_back(b.i32(b.uni(-rankOf(b, x), rankOf(b, x) - 1)));
    const uint32_t out = isQuant(xt.type) ? b.output(xt.type, 1.f / 256, xt.type == Q8 ? 0 : -128)
                                          : b.output(xt.type);
    b.node(ANEURALNETWORKS_SOFTMAX, ins, {out}, "beta " + std::to_string(beta) + " scale " + std::to_string(xt.scale));
    return true;
  };
  t[ANEURALNETWORKS_LOG_SOFTMAX] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, F_T);
    b.node(ANEURALNETWORKS_LOG_SOFTMAX,
           {x, b.fscalar(b.t(x).type, b.unif(0.2f, 3.f)), b.i32(b.uni(-rankOf(b, x), rankOf(b, x) - 1))},
           {b.output(b.t(x).type)});
    return true;
  };
  t[ANEURALNETWORKS_L2_NORMALIZATION] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, FQ_T);
    const Tensor xt = b.t(x);
    std::vector<uint32_t> ins = {x};
    if (b.coin(0.5)) ins.push_back(b.i32(b.uni(-rankOf(b, x), rankOf(b, x) - 1)));
    const uint32_t out = isQuant(xt.type) ? b.output(xt.type, 1.f / 128, xt.type == Q8 ? 128 : 0)
                                          : b.output(xt.type);
    b.node(ANEURALNETWORKS_L2_NORMALIZATION, ins, {out});
    return true;
  };
  t[ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, F_T, 4, 4);
    const int32_t ty = b.t(x).type;
    b.node(ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION,
           {x, b.i32(b.uni(0, 3)), b.fscalar(ty, b.unif(0.5f, 2.f)), b.fscalar(ty, b.unif(0.1f, 1.f)),
            b.fscalar(ty, b.unif(0.2f, 0.8f))},
           {b.output(ty)});
    return true;
  };
  t[ANEURALNETWORKS_INSTANCE_NORMALIZATION] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, F_T, 4, 4);
    const int32_t ty = b.t(x).type;
    b.node(ANEURALNETWORKS_INSTANCE_NORMALIZATION,
           {x, b.fscalar(ty, b.unif(0.5f, 2.f)), b.fscalar(ty, b.unif(-1.f, 1.f)),
            b.fscalar(ty, b.pick({1e-3f, 1e-2f, 0.1f})), b.boolean(false)},
           {b.output(ty)});
    return true;
  };
  t[ANEURALNETWORKS_RESHAPE] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, ALL_T);
    const uint64_t n = elementCount(b.t(x).dims);
    std::vector<int32_t> shape;
    uint64_t rest = n;
    for (int i = 0; i < 3 && rest > 1; ++i) {
      std::vector<int32_t> divs;
      for (uint64_t d = 1; d <= rest; ++d) if (rest % d == 0) divs.push_back(static_cast<int32_t>(d));
      const int32_t d = divs[b.uni(0, static_cast<int>(divs.size()) - 1)];
      shape.push_back(d);
      rest /= d;
    }
    shape.push_back(static_cast<int32_t>(rest));
    if (b.coin(0.3)) shape[b.uni(0, static_cast<int>(shape.size()) - 1)] = -1;
    b.node(ANEURALNETWORKS_RESHAPE, {x, b.ivec(shape)}, {b.outputLike(b.t(x))});
    return true;
  };
  t[ANEURALNETWORKS_TRANSPOSE] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, FQ_T);
    std::vector<int32_t> perm(rankOf(b, x));
    for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int32_t>(i);
    std::shuffle(perm.begin(), perm.end(), std::mt19937(b.uni(0, 1000)));
    b.node(ANEURALNETWORKS_TRANSPOSE, {x, b.coin(0.1) ? b.omitted(I32) : b.ivec(perm)}, {b.outputLike(b.t(x))});
    return true;
  };
  t[ANEURALNETWORKS_SQUEEZE] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, FQ_T);
    std::vector<int32_t> axes;
    const auto& d = b.t(x).dims;
    for (size_t i = 0; i < d.size(); ++i) if (d[i] == 1 && b.coin()) axes.push_back(static_cast<int32_t>(i));
    const uint32_t a = axes.empty() ? b.omitted(I32) : b.ivec(axes);
    b.node(ANEURALNETWORKS_SQUEEZE, {x, a}, {b.outputLike(b.t(x))});
    return true;
  };
  t[ANEURALNETWORKS_EXPAND_DIMS] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, ALL_T, 1, 3);
    const int r = rankOf(b, x);
    b.node(ANEURALNETWORKS_EXPAND_DIMS, {x, b.i32(b.uni(-r - 1, r))}, {b.outputLike(b.t(x))});
    return true;
  };
  t[ANEURALNETWORKS_CONCATENATION] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, FQ_T);
    const Tensor xt = b.t(x);
    const int axis = b.uni(0, rankOf(b, x) - 1);
    std::vector<uint32_t> ins = {x};
    for (int k = b.uni(1, 2); k > 0; --k) {
      Tensor o = xt;
      o.dims[axis] = b.uni(1, 3);
      ins.push_back(b.coin(0.3) ? b.randomConst(o) : b.input(o));
    }
    if (b.coin(0.5)) std::swap(ins[0], ins[1]);
    ins.push_back(b.i32(b.coin(0.3) ? axis - rankOf(b, x) : axis));
    b.node(ANEURALNETWORKS_CONCATENATION, ins, {b.outputLike(xt)});
    return true;
  };
  t[ANEURALNETWORKS_SPLIT] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, ALL_T);
    const Tensor xt = b.t(x);
    const int axis = b.uni(0, rankOf(b, x) - 1);
    std::vector<int> divs;
    for (uint32_t d = 1; d <= xt.dims[axis]; ++d) if (xt.dims[axis] % d == 0) divs.push_back(d);
    const int n = divs[b.uni(0, static_cast<int>(divs.size()) - 1)];
    std::vector<uint32_t> outs;
    for (int i = 0; i < n; ++i) outs.push_back(b.outputLike(xt));
    b.node(ANEURALNETWORKS_SPLIT, {x, b.i32(axis), b.i32(n)}, outs);
    return true;
  };
  auto pads = [](B& b, uint32_t x, int maxPad, bool mirror, bool symmetric) {
    std::vector<int32_t> p;
    for (uint32_t d : b.t(x).dims) {
      const int lim = mirror ? std::min<int>(maxPad, symmetric ? d : d - 1) : maxPad;
      p.push_back(b.uni(0, lim));
      p.push_back(b.uni(0, lim));
    }
    return b.constant<int32_t>(Tensor{I32, {static_cast<uint32_t>(b.t(x).dims.size()), 2}}, p);
  };
  t[ANEURALNETWORKS_PAD] = [pads](B& b, int in) {
    const uint32_t x = anyInput(b, in, FQ_T);
    b.node(ANEURALNETWORKS_PAD, {x, pads(b, x, 2, false, false)}, {b.outputLike(b.t(x))});
    return true;
  };
  t[ANEURALNETWORKS_PAD_V2] = [pads](B& b, int in) {
    const uint32_t x = anyInput(b, in, FQ_T);
    const Tensor xt = b.t(x);
    const uint32_t v = isQuant(xt.type) ? b.i32(xt.type == Q8 ? b.uni(0, 255) : b.uni(-128, 127))
                                        : b.fscalar(xt.type, b.unif(-2, 2));
    b.node(ANEURALNETWORKS_PAD_V2, {x, pads(b, x, 2, false, false), v}, {b.outputLike(xt)});
    return true;
  };
  t[ANEURALNETWORKS_MIRROR_PAD] = [pads](B& b, int in) {
    const uint32_t x = anyInput(b, in, ALL_T);
    const int mode = b.uni(0, 1);
    b.node(ANEURALNETWORKS_MIRROR_PAD, {x, pads(b, x, 2, true, mode == 1), b.i32(mode)}, {b.outputLike(b.t(x))});
    return true;
  };
  t[ANEURALNETWORKS_SLICE] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, ALL_T);
    std::vector<int32_t> begin, size;
    for (uint32_t d : b.t(x).dims) {
      const int s = b.uni(0, d - 1);
      begin.push_back(s);
      size.push_back(b.coin(0.2) ? -1 : b.uni(1, d - s));
    }
    b.node(ANEURALNETWORKS_SLICE, {x, b.ivec(begin), b.ivec(size)}, {b.outputLike(b.t(x))});
    return true;
  };
  t[ANEURALNETWORKS_STRIDED_SLICE] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, FQ_T);
    std::vector<int32_t> begin, end, strides;
    int32_t shrink = 0, bmask = 0, emask = 0;
    const auto& d = b.t(x).dims;
    for (size_t i = 0; i < d.size(); ++i) {
      const int n = static_cast<int>(d[i]);
      if (b.coin(0.2)) {  // negative stride: from `begin` down to `end` (exclusive)
        const int s = b.uni(0, n - 1);
        begin.push_back(s);
        strides.push_back(-b.uni(1, 2));
        if (s == 0) {
          end.push_back(0);
          emask |= 1 << i;  // down to the first element
        } else {
          end.push_back(b.uni(0, s - 1));
        }
      } else {
        const int s = b.uni(0, n - 1);
        begin.push_back(s);
        end.push_back(b.uni(s + 1, n));
        strides.push_back(b.uni(1, 2));
        if (b.coin(0.15)) shrink |= 1 << i, end.back() = s + 1;
      }
      if (b.coin(0.1)) bmask |= 1 << i;
      if (b.coin(0.1)) emask |= 1 << i;  // nonempty either way: the slice runs to the far end
    }
    // A shrunk axis takes exactly `begin`; masks would change that, so clear them there.
    bmask &= ~shrink;
    emask &= ~shrink;
    b.node(ANEURALNETWORKS_STRIDED_SLICE,
           {x, b.ivec(begin), b.ivec(end), b.ivec(strides), b.i32(bmask), b.i32(emask), b.i32(shrink)},
           {b.outputLike(b.t(x))});
    return true;
  };
  t[ANEURALNETWORKS_GATHER] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, ALL_T);
    const int axis = b.uni(0, rankOf(b, x) - 1);
    const uint32_t n = b.uni(1, 4);
    std::vector<int32_t> idx(n);
    for (auto& v : idx) v = b.uni(0, b.t(x).dims[axis] - 1);
    b.node(ANEURALNETWORKS_GATHER, {x, b.i32(axis), b.ivec(idx)}, {b.outputLike(b.t(x))});
    return true;
  };
  t[ANEURALNETWORKS_TILE] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, ALL_T);
    std::vector<int32_t> m;
    for (size_t i = 0; i < b.t(x).dims.size(); ++i) m.push_back(b.uni(1, 2));
    b.node(ANEURALNETWORKS_TILE, {x, b.ivec(m)}, {b.outputLike(b.t(x))});
    return true;
  };
  t[ANEURALNETWORKS_REVERSE] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, ALL_T);
    b.node(ANEURALNETWORKS_REVERSE, {x, b.ivec({b.uni(0, rankOf(b, x) - 1)})}, {b.outputLike(b.t(x))});
    return true;
  };
  t[ANEURALNETWORKS_PACK] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, ALL_T, 1, 3);
    const Tensor xt = b.t(x);
    std::vector<uint32_t> ins = {b.i32(b.uni(0, rankOf(b, x))), x};
    for (int k = b.uni(0, 2); k > 0; --k) ins.push_back(b.input(xt));
    b.node(ANEURALNETWORKS_PACK, ins, {b.outputLike(xt)});
    return true;
  };
  t[ANEURALNETWORKS_RANK] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, ALL_T);
    b.node(ANEURALNETWORKS_RANK, {x}, {b.output(ANEURALNETWORKS_INT32)});
    return true;
  };
  t[ANEURALNETWORKS_FILL] = [](B& b, int) {
    const int32_t ty = b.pick({F32, F16, I32});
    std::vector<int32_t> dims;
    for (int r = b.uni(1, 3); r > 0; --r) dims.push_back(b.uni(1, 4));
    const uint32_t v = ty == I32 ? b.i32(b.uni(-5, 5)) : b.fscalar(ty, b.unif(-2, 2));
    b.node(ANEURALNETWORKS_FILL, {b.ivec(dims), v}, {b.output(ty)});
    return true;
  };
  t[ANEURALNETWORKS_SPACE_TO_DEPTH] = [](B& b, int in) {
    const int bs = b.uni(1, 2);
    int32_t ty = chooseType(b, b.g(), in, FQ_T, [bs](const Tensor& t) {
      return t.dims.size() == 4 && t.dims[1] % bs == 0 && t.dims[2] % bs == 0;
    });
    const uint32_t x = b.primary(in, b.tensor(ty, {1, (uint32_t)(bs * b.uni(1, 3)), (uint32_t)(bs * b.uni(1, 3)), (uint32_t)b.uni(1, 3)}));
    b.node(ANEURALNETWORKS_SPACE_TO_DEPTH, {x, b.i32(bs)}, {b.outputLike(b.t(x))});
    return true;
  };
  t[ANEURALNETWORKS_DEPTH_TO_SPACE] = [](B& b, int in) {
    const int bs = b.uni(1, 2);
    int32_t ty = chooseType(b, b.g(), in, FQ_T, [bs](const Tensor& t) {
      return t.dims.size() == 4 && t.dims[3] % (bs * bs) == 0;
    });
    const uint32_t x = b.primary(in, b.tensor(ty, {1, (uint32_t)b.uni(1, 3), (uint32_t)b.uni(1, 3), (uint32_t)(bs * bs * b.uni(1, 2))}));
    b.node(ANEURALNETWORKS_DEPTH_TO_SPACE, {x, b.i32(bs)}, {b.outputLike(b.t(x))});
    return true;
  };
  t[ANEURALNETWORKS_SPACE_TO_BATCH_ND] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, FQ_T, 4, 4);
    const auto& d = b.t(x).dims;
    std::vector<int32_t> block = {b.uni(1, 2), b.uni(1, 2)}, pad;
    for (int i = 0; i < 2; ++i) {
      const int p0 = b.uni(0, 2);
      int p1 = 0;
      while ((static_cast<int>(d[1 + i]) + p0 + p1) % block[i] != 0) ++p1;
      pad.push_back(p0);
      pad.push_back(p1);
    }
    b.node(ANEURALNETWORKS_SPACE_TO_BATCH_ND,
           {x, b.ivec(block), b.constant<int32_t>(Tensor{I32, {2, 2}}, pad)}, {b.outputLike(b.t(x))});
    return true;
  };
  t[ANEURALNETWORKS_BATCH_TO_SPACE_ND] = [](B& b, int in) {
    const int bh = b.uni(1, 2), bw = b.uni(1, 2);
    int32_t ty = chooseType(b, b.g(), in, FQ_T, [&](const Tensor& t) {
      return t.dims.size() == 4 && t.dims[0] % (bh * bw) == 0;
    });
    const uint32_t x = b.primary(in, b.tensor(ty, {(uint32_t)(bh * bw * b.uni(1, 2)), (uint32_t)b.uni(1, 3), (uint32_t)b.uni(1, 3), (uint32_t)b.uni(1, 2)}));
    b.node(ANEURALNETWORKS_BATCH_TO_SPACE_ND, {x, b.ivec({bh, bw})}, {b.outputLike(b.t(x))});
    return true;
  };
  t[ANEURALNETWORKS_CHANNEL_SHUFFLE] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, FQ_T);
    const int axis = b.uni(0, rankOf(b, x) - 1);
    const uint32_t n = b.t(x).dims[axis];
    std::vector<int> divs;
    for (uint32_t d = 1; d <= n; ++d) if (n % d == 0) divs.push_back(d);
    b.node(ANEURALNETWORKS_CHANNEL_SHUFFLE,
           {x, b.i32(divs[b.uni(0, static_cast<int>(divs.size()) - 1)]), b.i32(axis)}, {b.outputLike(b.t(x))});
    return true;
  };
  for (int32_t c : {ANEURALNETWORKS_RESIZE_BILINEAR, ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR}) {
    t[c] = [c](B& b, int in) {
      const uint32_t x = anyInput(b, in, FQ_T, 4, 4);
      std::vector<uint32_t> ins = {x, b.i32(b.uni(1, 8)), b.i32(b.uni(1, 8))};
      // The layout is optional for RESIZE_BILINEAR only.
      if (c == ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR || b.coin(0.5)) {
        ins.push_back(b.boolean(false));
        const bool align = b.coin(0.3), half = !align && b.coin(0.5);
        if (b.coin(0.7)) {
          ins.push_back(b.boolean(align));
          ins.push_back(b.boolean(half));
        }
      }
      b.node(c, ins, {b.outputLike(b.t(x))});
      return true;
    };
  }
  auto reduce = [](int32_t code, std::initializer_list<int32_t> types) {
    std::vector<int32_t> tv(types);
    return [code, tv](B& b, int in) {
      int32_t ty = tv[b.uni(0, static_cast<int>(tv.size()) - 1)];
      if (in >= 0 && std::find(tv.begin(), tv.end(), b.t(in).type) == tv.end()) in = -1;
      if (in >= 0) ty = b.t(in).type;
      const uint32_t x = b.primary(in, b.tensor(ty, b.shape(b.uni(1, 4))));
      const int r = rankOf(b, x);
      std::vector<int32_t> axes = {b.uni(-r, r - 1)};
      const int first = (axes[0] + r) % r, second = b.uni(0, r - 1);
      if (b.coin(0.4) && second != first) axes.push_back(second);
      const uint32_t keep = code == ANEURALNETWORKS_MEAN ? b.i32(b.uni(0, 1)) : b.boolean(b.coin());
      b.node(code, {x, b.ivec(axes), keep}, {b.outputLike(b.t(x))});
      return true;
    };
  };
  t[ANEURALNETWORKS_MEAN] = reduce(ANEURALNETWORKS_MEAN, FQ_T);
  t[ANEURALNETWORKS_REDUCE_SUM] = reduce(ANEURALNETWORKS_REDUCE_SUM, F_T);
  t[ANEURALNETWORKS_REDUCE_PROD] = reduce(ANEURALNETWORKS_REDUCE_PROD, F_T);
  t[ANEURALNETWORKS_REDUCE_MAX] = reduce(ANEURALNETWORKS_REDUCE_MAX, FQ_T);
  t[ANEURALNETWORKS_REDUCE_MIN] = reduce(ANEURALNETWORKS_REDUCE_MIN, FQ_T);
  t[ANEURALNETWORKS_REDUCE_ALL] = reduce(ANEURALNETWORKS_REDUCE_ALL, {B8});
  t[ANEURALNETWORKS_REDUCE_ANY] = reduce(ANEURALNETWORKS_REDUCE_ANY, {B8});
  for (int32_t c : {ANEURALNETWORKS_ARGMAX, ANEURALNETWORKS_ARGMIN}) {
    // Float only: quantized inputs tie often and tie-breaking is not what this test is about.
    t[c] = [c](B& b, int in) {
      const uint32_t x = anyInput(b, in, {F32});
      b.node(c, {x, b.i32(b.uni(0, rankOf(b, x) - 1))}, {b.output(I32)});
      return true;
    };
  }
  t[ANEURALNETWORKS_TOPK_V2] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, {F32});
    const uint32_t last = b.t(x).dims.back();
    b.node(ANEURALNETWORKS_TOPK_V2, {x, b.i32(b.uni(1, last))}, {b.outputLike(b.t(x)), b.output(I32)});
    return true;
  };
  t[ANEURALNETWORKS_RNN] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, F_T, 2, 2);
    const Tensor xt = b.t(x);
    const uint32_t batch = xt.dims[0], units = b.uni(1, 5);
    const uint32_t w = b.randomConst(b.tensor(xt.type, {units, xt.dims[1]}));
    const uint32_t rw = b.randomConst(b.tensor(xt.type, {units, units}));
    const uint32_t bias = b.randomConst(b.tensor(xt.type, {units}));
    const uint32_t h = b.input(b.tensor(xt.type, {batch, units}));
    b.node(ANEURALNETWORKS_RNN, {x, w, rw, bias, h, b.i32(b.pick({0, 1, 3}))},
           {b.output(xt.type), b.output(xt.type)});
    return true;
  };
  t[ANEURALNETWORKS_HASHTABLE_LOOKUP] = [](B& b, int in) {
    const uint32_t values = anyInput(b, in, {F32, I32, Q8}, 2, 3);
    const uint32_t rows = b.t(values).dims[0];
    std::vector<int32_t> keys(rows);
    int32_t k = b.uni(-5, 5);
    for (auto& v : keys) v = (k += b.uni(1, 3));  // sorted, distinct
    std::vector<int32_t> lookups(b.uni(1, 4));
    for (auto& v : lookups) v = b.coin(0.7) ? keys[b.uni(0, rows - 1)] : b.uni(-10, 20);
    b.node(ANEURALNETWORKS_HASHTABLE_LOOKUP, {b.ivec(lookups), b.ivec(keys), values},
           {b.outputLike(b.t(values)), b.output(Q8, 1.f, 0)});
    return true;
  };
  // Boxes (x1, y1, x2, y2) inside a w x h image, as ROI and box operations expect.
  auto boxes = [](B& b, uint32_t n, float w, float h) {
    std::vector<float> v;
    for (uint32_t i = 0; i < n; ++i) {
      const float x1 = b.unif(0, w * 0.6f), y1 = b.unif(0, h * 0.6f);
      v.insert(v.end(), {x1, y1, x1 + b.unif(0, w - x1), y1 + b.unif(0, h - y1)});
    }
    return v;
  };
  t[ANEURALNETWORKS_AXIS_ALIGNED_BBOX_TRANSFORM] = [boxes](B& b, int) {
    const uint32_t r = b.uni(1, 4), classes = b.uni(1, 3);
    const uint32_t roi = b.constant<float>(Tensor{F32, {r, 4}}, boxes(b, r, 16, 16));
    const uint32_t deltas = b.input(Tensor{F32, {r, 4 * classes}});
    const uint32_t split = b.constant<int32_t>(Tensor{I32, {r}}, std::vector<int32_t>(r, 0));
    const uint32_t info = b.constant<float>(Tensor{F32, {1, 2}}, {16.f, 16.f});
    b.node(ANEURALNETWORKS_AXIS_ALIGNED_BBOX_TRANSFORM, {roi, deltas, split, info}, {b.output(F32)});
    return true;
  };
  for (int32_t c : {ANEURALNETWORKS_ROI_ALIGN, ANEURALNETWORKS_ROI_POOLING}) {
    t[c] = [c, boxes](B& b, int in) {
      const uint32_t x = anyInput(b, in, {F32}, 4, 4);
      const Tensor xt = b.t(x);
      const uint32_t r = b.uni(1, 3);
      const float ratio = b.pick({1.f, 0.5f, 2.f});
      // ratio = original image extent / feature map extent; boxes are in image coordinates
      // and stay inside the feature map's last pixel.
      const uint32_t roi = b.constant<float>(
          Tensor{F32, {r, 4}}, boxes(b, r, (xt.dims[2] - 1 + 0.5f) * ratio, (xt.dims[1] - 1 + 0.5f) * ratio));
      std::vector<int32_t> batch(r);
      for (auto& v : batch) v = b.uni(0, xt.dims[0] - 1);
      std::vector<uint32_t> ins = {x, roi, b.ivec(batch), b.i32(b.uni(1, 3)), b.i32(b.uni(1, 3)),
                                   b.f32(ratio), b.f32(ratio)};
      if (c == ANEURALNETWORKS_ROI_ALIGN) {
        ins.push_back(b.i32(b.uni(0, 2)));
        ins.push_back(b.i32(b.uni(0, 2)));
      }
      ins.push_back(b.boolean(false));
      b.node(c, ins, {b.output(F32)});
      return true;
    };
  }
  t[ANEURALNETWORKS_SELECT] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, ALL_T);
    const Tensor xt = b.t(x);
    const uint32_t c = b.input(Tensor{B8, xt.dims});
    const uint32_t y = b.input(xt);
    b.node(ANEURALNETWORKS_SELECT, {c, x, y}, {b.outputLike(xt)});
    return true;
  };
  t[ANEURALNETWORKS_EMBEDDING_LOOKUP] = [](B& b, int in) {
    const uint32_t x = anyInput(b, in, {F32, I32, Q8}, 2, 3);
    const uint32_t rows = b.t(x).dims[0];
    std::vector<int32_t> idx(b.uni(1, 4));
    for (auto& v : idx) v = b.uni(0, rows - 1);
    b.node(ANEURALNETWORKS_EMBEDDING_LOOKUP, {b.ivec(idx), x}, {b.outputLike(b.t(x))});
    return true;
  };
  return t;
}

const std::map<int32_t, NodeFn>& signatures() {
  static const std::map<int32_t, NodeFn> t = table();
  return t;
}

}  // namespace

size_t elementSize(int32_t type) {
  switch (type) {
    case ANEURALNETWORKS_FLOAT32: case ANEURALNETWORKS_INT32: case ANEURALNETWORKS_UINT32:
    case F32: case I32: return 4;
    case ANEURALNETWORKS_FLOAT16: case F16: case ANEURALNETWORKS_TENSOR_QUANT16_SYMM:
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM: return 2;
    default: return 1;
  }
}

uint64_t elementCount(const std::vector<uint32_t>& dims) {
  uint64_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

std::vector<uint8_t> inputData(const Operand& op, std::mt19937_64& rng) {
  const uint64_t n = elementCount(op.t.dims);
  std::vector<uint8_t> out(n * elementSize(op.t.type));
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (uint64_t i = 0; i < n; ++i) {
    switch (op.t.type) {
      case F32: { float v = u(rng) * 2; memcpy(&out[i * 4], &v, 4); break; }
      case F16: { uint16_t h = toHalf(u(rng) * 2); memcpy(&out[i * 2], &h, 2); break; }
      case I32: { int32_t v = static_cast<int32_t>(rng() % 11) - 5; memcpy(&out[i * 4], &v, 4); break; }
      case B8: out[i] = rng() % 2; break;
      default: out[i] = static_cast<uint8_t>(rng()); break;
    }
  }
  return out;
}

const std::vector<int32_t>& coveredOperations() {
  static const std::vector<int32_t> v = [] {
    std::vector<int32_t> r;
    for (const auto& kv : signatures()) r.push_back(kv.first);
    return r;
  }();
  return v;
}

int32_t Generator::pickOperation() {
  const auto& ops = coveredOperations();
  return ops[rng_() % ops.size()];
}

bool Generator::addNode(Graph& g, int32_t code, int incoming) {
  auto it = signatures().find(code);
  if (it == signatures().end()) return false;
  B b(g, rng_);
  return it->second(b, incoming);
}

std::string Graph::describe() const {
  std::string s;
  for (const Node& n : nodes) {
    s += std::to_string(n.code) + "(";
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      const Operand& o = operands[n.inputs[i]];
      s += (i ? " " : "") + std::string("t") + std::to_string(o.t.type) + dimsStr(o.t.dims);
      if (o.isConstant && o.value.size() == 4 && o.t.dims.empty()) {
        int32_t v;
        memcpy(&v, o.value.data(), 4);
        s += "=" + std::to_string(v);
      }
    }
    s += ") " + n.note + "; ";
  }
  return s;
}

}  // namespace rgraph
