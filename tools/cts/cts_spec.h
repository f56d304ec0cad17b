// In-memory form of one conformance spec file (format nnapi-cts-1), with every
// operand's data already laid out as the NNAPI byte buffer it stands for.
#ifndef NNAPI_TOOLS_CTS_CTS_SPEC_H
#define NNAPI_TOOLS_CTS_CTS_SPEC_H

#include <cstdint>
#include <string>
#include <vector>

#include "cts_json.h"

namespace cts {

// Operation code of the experimental DENSIFY (NeuralNetworksExperimentalFeatures.h);
// it is in no public header of this project.
constexpr int32_t kOperationDensify = 20000;

enum class Lifetime : uint8_t {
    SubgraphInput,
    SubgraphOutput,
    TemporaryVariable,
    ConstantCopy,
    ConstantReference,
    NoValue,
    Subgraph,
};

struct Operand {
    int32_t type = 0;                 // OperandCode (SUBGRAPH -> ANEURALNETWORKS_MODEL)
    std::string typeName;
    std::vector<uint32_t> dimensions;
    float scale = 0.0f;
    int32_t zeroPoint = 0;
    Lifetime lifetime = Lifetime::TemporaryVariable;
    bool hasChannelQuant = false;
    uint32_t channelDim = 0;
    std::vector<float> channelScales;
    bool isIgnored = false;
    size_t elementCount = 0;          // number of entries in "data"
    std::vector<uint8_t> bytes;       // "data" in the NNAPI buffer layout
    uint32_t subgraphIndex = 0;       // lifetime Subgraph: index into Test::referenced
};

struct Operation {
    int32_t type = 0;
    std::string typeName;
    std::vector<uint32_t> inputs;
    std::vector<uint32_t> outputs;
};

struct Subgraph {
    std::vector<Operand> operands;
    std::vector<Operation> operations;
    std::vector<uint32_t> inputIndexes;
    std::vector<uint32_t> outputIndexes;
};

struct Test {
    std::string name;
    std::string minSupportedVersion;
    bool isRelaxed = false;
    bool expectFailure = false;
    float multinomialTolerance = 0.0f;
    Subgraph main;
    std::vector<Subgraph> referenced;
    // Non-empty when this test could not be decoded (unknown type names,
    // out-of-range indexes, ...). The runner reports it as a failure.
    std::string loadError;
};

struct SpecFile {
    std::string version;
    std::string spec;
    std::vector<Test> tests;
};

// Decodes a parsed document. File-level structure errors (not an object, wrong
// format tag, missing "tests") fail the whole file; problems inside one test
// only set that test's loadError.
bool loadSpec(const JsonValue& doc, SpecFile* out, std::string* error);
// readFile + parseJson + loadSpec.
bool loadSpecFile(const std::string& path, SpecFile* out, std::string* error);

// Name tables. Return -1 for unknown names.
int32_t operandTypeFromName(const std::string& name);
int32_t operationTypeFromName(const std::string& name);
const char* operandTypeName(int32_t type);
// Bytes per element of an operand type as used in "data"; 0 for MODEL/unknown.
size_t elementSize(int32_t type);
bool isTensorType(int32_t type);

// minSupportedVersion -> FeatureLevelCode; 0 for "UNKNOWN" (never skipped),
// -1 for a name this runner does not know.
int64_t featureLevelOfVersion(const std::string& version);

// IEEE binary16 <-> binary32 (round to nearest even, NaN/inf preserved).
uint16_t floatToHalf(float f);
float halfToFloat(uint16_t h);

// Whether any operand in any subgraph of the test is TENSOR_FLOAT16; selects
// the float16 tolerance for TENSOR_FLOAT32 outputs.
bool testUsesFloat16(const Test& test);
// Whether any operation of any subgraph has one of the given codes.
bool testUsesOperation(const Test& test, std::initializer_list<int32_t> codes);

// Product of dimensions (1 for a scalar / empty list).
size_t elementCountOf(const std::vector<uint32_t>& dims);

}  // namespace cts

#endif  // NNAPI_TOOLS_CTS_CTS_SPEC_H
