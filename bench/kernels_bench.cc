// CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED on MobileNet-v1 (224, width 1.0) layer
// shapes, measured through the public C API (a one-operation model compiled for the default
// device), so the numbers include what a user pays per execution. Reports GFLOP/s
// (2 * multiply-accumulates).
//
//   nnapi_bench_kernels [--benchmark_filter=Pointwise]    NNAPI_CPU_THREADS=1 for one core
#include <android/NeuralNetworks.h>
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

enum class Kind { Conv, Depthwise, FullyConnected };
// Quant8Signed: int8 data with a per-channel filter (CONV_2D / DEPTHWISE_CONV_2D) or a
// per-tensor int8 one (FULLY_CONNECTED).
enum class Precision { Float32, Quant8, Float32WeightsAsInputs, Quant8Signed };

struct Layer {
  const char* name;
  Kind kind;
  uint32_t inH, inW, inC, outC, filter, stride;
};

// Representative MobileNet-v1 layers.
const Layer kLayers[] = {
    {"Conv3x3s2_224x3to32", Kind::Conv, 224, 224, 3, 32, 3, 2},
    {"Depthwise3x3s1_112x32", Kind::Depthwise, 112, 112, 32, 32, 3, 1},
    {"Pointwise_112x32to64", Kind::Conv, 112, 112, 32, 64, 1, 1},
    {"Depthwise3x3s2_112x64", Kind::Depthwise, 112, 112, 64, 64, 3, 2},
    {"Pointwise_56x64to128", Kind::Conv, 56, 56, 64, 128, 1, 1},
    {"Depthwise3x3s2_28x256", Kind::Depthwise, 28, 28, 256, 256, 3, 2},
    {"Pointwise_14x512to512", Kind::Conv, 14, 14, 512, 512, 1, 1},
    {"Depthwise3x3s1_14x512", Kind::Depthwise, 14, 14, 512, 512, 3, 1},
    {"Pointwise_7x1024to1024", Kind::Conv, 7, 7, 1024, 1024, 1, 1},
    {"FullyConnected_1024to1001", Kind::FullyConnected, 1, 1, 1024, 1001, 1, 1},
};

// More quant8 GEMM shapes, quant8 only: MobileNet-v2's 1x1 expansions/projections and
// FULLY_CONNECTED with a batch (inH = batch), where the AMX-INT8 path applies (compare
// NNAPI_CPU_ISA=avx512vnni with the default level; bench/amx_vs_vnni.sh interleaves them).
const Layer kQuantLayers[] = {
    {"V2Pointwise_56x24to144", Kind::Conv, 56, 56, 24, 144, 1, 1},
    {"V2Pointwise_56x144to24", Kind::Conv, 56, 56, 144, 24, 1, 1},
    {"V2Pointwise_28x192to32", Kind::Conv, 28, 28, 192, 32, 1, 1},
    {"V2Pointwise_14x64to384", Kind::Conv, 14, 14, 64, 384, 1, 1},
    {"V2Pointwise_14x384to64", Kind::Conv, 14, 14, 384, 64, 1, 1},
    {"V2Pointwise_7x160to960", Kind::Conv, 7, 7, 160, 960, 1, 1},
    {"V2Pointwise_7x960to160", Kind::Conv, 7, 7, 960, 160, 1, 1},
    {"V2Pointwise_7x320to1280", Kind::Conv, 7, 7, 320, 1280, 1, 1},
    {"FullyConnected_b16_1024to1001", Kind::FullyConnected, 16, 1, 1024, 1001, 1, 1},
    {"FullyConnected_b64_1280to1001", Kind::FullyConnected, 64, 1, 1280, 1001, 1, 1},
};

uint32_t outSize(uint32_t in, uint32_t stride) { return (in + stride - 1) / stride; }  // SAME

double flopsOf(const Layer& l) {
  const double outHW = static_cast<double>(outSize(l.inH, l.stride)) * outSize(l.inW, l.stride);
  switch (l.kind) {
    case Kind::Conv: return 2.0 * outHW * l.outC * l.filter * l.filter * l.inC;
    case Kind::Depthwise: return 2.0 * outHW * l.outC * l.filter * l.filter;
    case Kind::FullyConnected: return 2.0 * l.inH * l.inC * l.outC;  // inH: batch
  }
  return 0;
}

// Owns the model, compilation and buffers of one benchmarked operation.
class OneOpModel {
 public:
  OneOpModel(const Layer& l, Precision p) : layer_(l), precision_(p) {}
  ~OneOpModel() {
    if (execution_) ANeuralNetworksExecution_free(execution_);
    ANeuralNetworksCompilation_free(compilation_);
    ANeuralNetworksModel_free(model_);
  }

  bool build(std::string* error) {
    const bool isSigned = precision_ == Precision::Quant8Signed;
    const bool quant = precision_ == Precision::Quant8 || isSigned;
    const bool weightsAsInputs = precision_ == Precision::Float32WeightsAsInputs;
    const int32_t tensorType = isSigned ? ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED
                               : quant  ? ANEURALNETWORKS_TENSOR_QUANT8_ASYMM
                                        : ANEURALNETWORKS_TENSOR_FLOAT32;
    const bool perChannel = isSigned && layer_.kind != Kind::FullyConnected;
    const int32_t biasType = quant ? ANEURALNETWORKS_TENSOR_INT32 : ANEURALNETWORKS_TENSOR_FLOAT32;
    const size_t elem = quant ? 1 : 4;
    const float inScale = quant ? 0.05f : 0.f, filterScale = quant ? 0.01f : 0.f;
    const int32_t zero = quant && !isSigned ? 128 : 0;

    std::vector<uint32_t> inDims, filterDims, outDims;
    const uint32_t oh = outSize(layer_.inH, layer_.stride), ow = outSize(layer_.inW, layer_.stride);
    uint32_t k = 0;
    switch (layer_.kind) {
      case Kind::Conv:
        inDims = {1, layer_.inH, layer_.inW, layer_.inC};
        filterDims = {layer_.outC, layer_.filter, layer_.filter, layer_.inC};
        outDims = {1, oh, ow, layer_.outC};
        k = layer_.filter * layer_.filter * layer_.inC;
        break;
      case Kind::Depthwise:
        inDims = {1, layer_.inH, layer_.inW, layer_.inC};
        filterDims = {1, layer_.filter, layer_.filter, layer_.outC};
        outDims = {1, oh, ow, layer_.outC};
        k = layer_.filter * layer_.filter;
        break;
      case Kind::FullyConnected:
        inDims = {layer_.inH, layer_.inC};
        filterDims = {layer_.outC, layer_.inC};
        outDims = {layer_.inH, layer_.outC};
        k = layer_.inC;
        break;
    }
    const float outScale = quant ? inScale * filterScale * 4.f * static_cast<float>(k) / 16.f : 0.f;

    std::mt19937 rng(7);
    auto fill = [&](std::vector<uint8_t>& buf, size_t count, size_t elemSize) {
      buf.resize(count * elemSize);
      if (elemSize == 1) {
        for (auto& b : buf) b = static_cast<uint8_t>(rng());
      } else {
        std::uniform_real_distribution<float> d(-1.f, 1.f);
        for (size_t i = 0; i < count; ++i) {
          const float v = d(rng);
          memcpy(buf.data() + i * 4, &v, 4);
        }
      }
    };
    auto count = [](const std::vector<uint32_t>& d) {
      size_t n = 1;
      for (uint32_t x : d) n *= x;
      return n;
    };
    fill(input_, count(inDims), elem);
    fill(filter_, count(filterDims), elem);
    bias_.assign(layer_.outC * 4, 0);
    output_.resize(count(outDims) * elem);

    ANeuralNetworksModel_create(&model_);
    uint32_t next = 0;
    auto add = [&](int32_t type, const std::vector<uint32_t>& dims, float scale, int32_t zp) {
      ANeuralNetworksOperandType t{type, static_cast<uint32_t>(dims.size()),
                                   dims.empty() ? nullptr : dims.data(), scale, zp};
      if (ANeuralNetworksModel_addOperand(model_, &t) != ANEURALNETWORKS_NO_ERROR) ok_ = false;
      return next++;
    };
    auto addInt = [&](int32_t v) {
      const uint32_t i = add(ANEURALNETWORKS_INT32, {}, 0.f, 0);
      ANeuralNetworksModel_setOperandValue(model_, i, &v, sizeof(v));
      return i;
    };
    const uint32_t in = add(tensorType, inDims, inScale, zero);
    const uint32_t filter =
        perChannel ? add(ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, filterDims, 0.f, 0)
                   : add(tensorType, filterDims, filterScale, zero);
    if (perChannel) {
      channelScales_.assign(layer_.outC, filterScale);
      for (size_t c = 0; c < channelScales_.size(); ++c) channelScales_[c] *= 0.5f + (c % 7) / 7.f;
      ANeuralNetworksSymmPerChannelQuantParams pc{
          layer_.kind == Kind::Depthwise ? 3u : 0u, layer_.outC, channelScales_.data()};
      if (ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model_, filter, &pc) !=
          ANEURALNETWORKS_NO_ERROR)
        ok_ = false;
    }
    const uint32_t bias = add(biasType, {layer_.outC}, perChannel ? 0.f : inScale * filterScale, 0);
    std::vector<uint32_t> modelInputs{in};
    if (weightsAsInputs) {
      modelInputs.push_back(filter);
      modelInputs.push_back(bias);
    } else {
      ANeuralNetworksModel_setOperandValue(model_, filter, filter_.data(), filter_.size());
      ANeuralNetworksModel_setOperandValue(model_, bias, bias_.data(), bias_.size());
    }
    std::vector<uint32_t> opInputs{in, filter, bias};
    int32_t opType = ANEURALNETWORKS_FULLY_CONNECTED;
    if (layer_.kind == Kind::FullyConnected) {
      opInputs.push_back(addInt(ANEURALNETWORKS_FUSED_NONE));
    } else {
      opType = layer_.kind == Kind::Conv ? ANEURALNETWORKS_CONV_2D : ANEURALNETWORKS_DEPTHWISE_CONV_2D;
      opInputs.push_back(addInt(ANEURALNETWORKS_PADDING_SAME));
      opInputs.push_back(addInt(static_cast<int32_t>(layer_.stride)));
      opInputs.push_back(addInt(static_cast<int32_t>(layer_.stride)));
      if (layer_.kind == Kind::Depthwise) opInputs.push_back(addInt(1));
      opInputs.push_back(addInt(ANEURALNETWORKS_FUSED_RELU6));
    }
    const uint32_t out = add(tensorType, outDims, outScale, quant ? 0 : 0);
    if (ANeuralNetworksModel_addOperation(model_, opType, opInputs.size(), opInputs.data(), 1,
                                          &out) != ANEURALNETWORKS_NO_ERROR ||
        ANeuralNetworksModel_identifyInputsAndOutputs(model_, modelInputs.size(),
                                                      modelInputs.data(), 1, &out) !=
            ANEURALNETWORKS_NO_ERROR ||
        ANeuralNetworksModel_finish(model_) != ANEURALNETWORKS_NO_ERROR || !ok_) {
      *error = "building the model failed";
      return false;
    }
    if (ANeuralNetworksCompilation_create(model_, &compilation_) != ANEURALNETWORKS_NO_ERROR ||
        ANeuralNetworksCompilation_setPreference(compilation_,
                                                 ANEURALNETWORKS_PREFER_SUSTAINED_SPEED) !=
            ANEURALNETWORKS_NO_ERROR ||
        ANeuralNetworksCompilation_finish(compilation_) != ANEURALNETWORKS_NO_ERROR) {
      *error = "compilation failed";
      return false;
    }
    // A reusable execution keeps per-run overhead out of the kernel numbers when the
    // runtime supports it; otherwise each run creates its own.
    reusable_ = ANeuralNetworksExecution_create(compilation_, &execution_) ==
                    ANEURALNETWORKS_NO_ERROR &&
                ANeuralNetworksExecution_setReusable(execution_, true) == ANEURALNETWORKS_NO_ERROR &&
                bind(execution_);
    if (!reusable_ && execution_) {
      ANeuralNetworksExecution_free(execution_);
      execution_ = nullptr;
    }
    return true;
  }

  bool run() {
    if (reusable_) return ANeuralNetworksExecution_compute(execution_) == ANEURALNETWORKS_NO_ERROR;
    ANeuralNetworksExecution* e = nullptr;
    if (ANeuralNetworksExecution_create(compilation_, &e) != ANEURALNETWORKS_NO_ERROR) return false;
    const bool ok = bind(e) && ANeuralNetworksExecution_compute(e) == ANEURALNETWORKS_NO_ERROR;
    ANeuralNetworksExecution_free(e);
    return ok;
  }

 private:
  bool bind(ANeuralNetworksExecution* e) {
    bool ok = ANeuralNetworksExecution_setInput(e, 0, nullptr, input_.data(), input_.size()) ==
              ANEURALNETWORKS_NO_ERROR;
    if (precision_ == Precision::Float32WeightsAsInputs) {
      ok = ok && ANeuralNetworksExecution_setInput(e, 1, nullptr, filter_.data(), filter_.size()) ==
                     ANEURALNETWORKS_NO_ERROR;
      ok = ok && ANeuralNetworksExecution_setInput(e, 2, nullptr, bias_.data(), bias_.size()) ==
                     ANEURALNETWORKS_NO_ERROR;
    }
    return ok && ANeuralNetworksExecution_setOutput(e, 0, nullptr, output_.data(),
                                                    output_.size()) == ANEURALNETWORKS_NO_ERROR;
  }

  Layer layer_;
  Precision precision_;
  bool ok_ = true;
  bool reusable_ = false;
  ANeuralNetworksModel* model_ = nullptr;
  ANeuralNetworksCompilation* compilation_ = nullptr;
  ANeuralNetworksExecution* execution_ = nullptr;
  std::vector<uint8_t> input_, filter_, bias_, output_;
  std::vector<float> channelScales_;
};

void runLayer(benchmark::State& state, const Layer& layer, Precision precision) {
  OneOpModel m(layer, precision);
  std::string error;
  if (!m.build(&error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  if (!m.run()) {
    state.SkipWithError("execution failed");
    return;
  }
  for (auto _ : state) {
    if (!m.run()) {
      state.SkipWithError("execution failed");
      return;
    }
  }
  state.counters["GFLOPS"] =
      benchmark::Counter(flopsOf(layer) / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

const int kRegistered = [] {
  for (const Layer& l : kLayers) {
    benchmark::RegisterBenchmark((std::string("F32/") + l.name).c_str(), runLayer, l,
                                 Precision::Float32)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark((std::string("Q8/") + l.name).c_str(), runLayer, l,
                                 Precision::Quant8)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark((std::string("Q8S/") + l.name).c_str(), runLayer, l,
                                 Precision::Quant8Signed)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
    // Non-constant weights: the portable float kernels (packing included).
    benchmark::RegisterBenchmark((std::string("F32WeightsAsInputs/") + l.name).c_str(), runLayer,
                                 l, Precision::Float32WeightsAsInputs)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
  }
  for (const Layer& l : kQuantLayers)
    for (Precision p : {Precision::Quant8, Precision::Quant8Signed})
      benchmark::RegisterBenchmark(
          (std::string(p == Precision::Quant8 ? "Q8/" : "Q8S/") + l.name).c_str(), runLayer, l, p)
          ->Unit(benchmark::kMicrosecond)
          ->UseRealTime();
  return 0;
}();

}  // namespace

// BENCHMARK_MAIN, plus a description ahead of Google Benchmark's own --help text and exit
// status 2 (bad usage, as for the other tools) for arguments it does not know.
int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0) {
      std::printf(
          "usage: nnapi_bench_kernels [Google Benchmark options]\n"
          "CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED on MobileNet-v1 layer shapes through the\n"
          "public NNAPI C API, in GFLOP/s. NNAPI_CPU_THREADS=N sets the CPU driver's threads\n"
          "(1 for one core); e.g. --benchmark_filter=Pointwise runs a subset.\n"
          "exit status: 0 done (a benchmark that fails says so in its row), 2 unknown arguments\n"
          "\nGoogle Benchmark options:\n");
      std::fflush(stdout);
    }
  }
  benchmark::Initialize(&argc, argv);  // --help: prints its options and exits 0
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
