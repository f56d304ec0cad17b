// Whole-model validation through the operation catalog, shared by the runtime
// (ANeuralNetworksModel_finish) and drivers.
#pragma once

#include <vector>

#include "hal/types.h"

namespace nn {

// Per-operand checks done when an operand is added (type code, rank, quantization rules).
// Returns false and records a message naming the rule.
bool validateOperandType(int32_t type, uint32_t dimensionCount, const uint32_t* dimensions,
                         float scale, int32_t zeroPoint, bool allowUnspecifiedRank,
                         std::string* error);

// Validates every subgraph: operand lifetimes, operands written exactly once, acyclicity,
// and every operation's signature through the operation registry. On success
// `minFeatureLevel` (optional) receives the feature level the model needs.
Status validateModel(const Model& model, int64_t* minFeatureLevel);

// Operations of `subgraph` in an order where producers come before consumers; false on a cycle.
bool topologicalOrder(const Subgraph& subgraph, std::vector<uint32_t>* order);

}  // namespace nn
