// Random *valid* NNAPI graphs for differential testing (issue 9, item 9).
//
// The generator knows, for each operation it covers, a few valid signatures from the NNAPI
// spec (types, operand roles, parameter ranges) and draws small random shapes and parameters
// within them. A graph is a chain of 1..3 operations, each consuming the previous one's
// output where the types allow. Output shapes are not computed here: the harness runs a prefix
// of the chain on the reference device with unknown output shapes to learn them before the
// next operation is drawn. Everything goes through the public C API only.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace rgraph {

struct Tensor {
  int32_t type = 0;
  std::vector<uint32_t> dims;  // empty for scalars
  float scale = 0.f;
  int32_t zeroPoint = 0;
};

struct Operand {
  Tensor t;
  bool dimsKnown = true;          // false for operation outputs until learned
  bool isConstant = false;
  bool omitted = false;
  std::vector<uint8_t> value;     // constants
  std::vector<float> channelScales;  // TENSOR_QUANT8_SYMM_PER_CHANNEL
  uint32_t channelDim = 0;
};

struct Node {
  int32_t code = 0;
  std::vector<uint32_t> inputs, outputs;
  std::string note;  // human-readable parameters for failure messages
};

struct Graph {
  std::vector<Operand> operands;
  std::vector<Node> nodes;
  std::vector<uint32_t> inputs;  // model inputs (non-constant, not produced)
  bool relaxed = false;
  // The graph hits a known, separately tracked bug (see knownBug in random_graph.cc).
  std::string knownBug;
  std::string describe() const;
};

// Operation codes the generator covers.
const std::vector<int32_t>& coveredOperations();

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}
  // Appends one operation of `code` to `g`, consuming `incoming` (an operand index of `g` whose
  // dims are known, or -1) when its type fits. False if the operation cannot use the graph.
  bool addNode(Graph& g, int32_t code, int incoming);
  // A random covered operation code.
  int32_t pickOperation();
  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

// Fills model input data deterministically from the seed (finite, moderate values; integer
// index-like inputs are never model inputs, they are constants).
std::vector<uint8_t> inputData(const Operand& op, std::mt19937_64& rng);

size_t elementSize(int32_t type);
uint64_t elementCount(const std::vector<uint32_t>& dims);

}  // namespace rgraph
