#include "cts_spec.h"

#include <android/NeuralNetworksTypes.h>

#include <cmath>
#include <cstring>

#include "cts_api.h"

namespace cts {

namespace {

struct TypeInfo {
    const char* name;
    int32_t code;
    size_t size;
    bool tensor;
};

const TypeInfo kTypes[] = {
    {"FLOAT32", ANEURALNETWORKS_FLOAT32, 4, false},
    {"INT32", ANEURALNETWORKS_INT32, 4, false},
    {"UINT32", ANEURALNETWORKS_UINT32, 4, false},
    {"TENSOR_FLOAT32", ANEURALNETWORKS_TENSOR_FLOAT32, 4, true},
    {"TENSOR_INT32", ANEURALNETWORKS_TENSOR_INT32, 4, true},
    {"TENSOR_QUANT8_ASYMM", ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 1, true},
    {"BOOL", ANEURALNETWORKS_BOOL, 1, false},
    {"TENSOR_QUANT16_SYMM", ANEURALNETWORKS_TENSOR_QUANT16_SYMM, 2, true},
    {"TENSOR_FLOAT16", ANEURALNETWORKS_TENSOR_FLOAT16, 2, true},
    {"TENSOR_BOOL8", ANEURALNETWORKS_TENSOR_BOOL8, 1, true},
    {"FLOAT16", ANEURALNETWORKS_FLOAT16, 2, false},
    {"TENSOR_QUANT8_SYMM_PER_CHANNEL", ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 1, true},
    {"TENSOR_QUANT16_ASYMM", ANEURALNETWORKS_TENSOR_QUANT16_ASYMM, 2, true},
    {"TENSOR_QUANT8_SYMM", ANEURALNETWORKS_TENSOR_QUANT8_SYMM, 1, true},
    {"TENSOR_QUANT8_ASYMM_SIGNED", ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 1, true},
    {"SUBGRAPH", ANEURALNETWORKS_MODEL, 0, false},
};

const TypeInfo* typeInfo(int32_t code) {
    for (const TypeInfo& t : kTypes)
        if (t.code == code) return &t;
    return nullptr;
}

template <typename T>
void putLE(std::vector<uint8_t>* bytes, size_t index, T value) {
    std::memcpy(bytes->data() + index * sizeof(T), &value, sizeof(T));
}

bool getUint(const JsonValue& v, uint32_t* out) {
    int64_t i;
    if (!v.toInt64(&i) || i < 0 || i > 0xFFFFFFFFll) return false;
    *out = static_cast<uint32_t>(i);
    return true;
}

bool getUintList(const JsonValue* v, std::vector<uint32_t>* out) {
    if (!v || !v->isArray()) return false;
    out->resize(v->size());
    for (size_t i = 0; i < v->size(); ++i)
        if (!getUint((*v)[i], &(*out)[i])) return false;
    return true;
}

// Converts one "data" element into the byte layout of the operand type.
bool encodeElement(const JsonValue& v, int32_t type, std::vector<uint8_t>* bytes, size_t index, std::string* err) {
    auto intInRange = [&](int64_t lo, int64_t hi, int64_t* out) {
        if (!v.toInt64(out) || *out < lo || *out > hi) {
            *err = "data element " + std::to_string(index) + " is not a valid " + operandTypeName(type) + " value";
            return false;
        }
        return true;
    };
    int64_t i = 0;
    switch (type) {
        case ANEURALNETWORKS_FLOAT32:
        case ANEURALNETWORKS_TENSOR_FLOAT32: {
            float f;
            if (!v.toFloat(&f)) {
                *err = "data element " + std::to_string(index) + " is not a float";
                return false;
            }
            putLE<float>(bytes, index, f);
            return true;
        }
        case ANEURALNETWORKS_FLOAT16:
        case ANEURALNETWORKS_TENSOR_FLOAT16: {
            float f;
            if (!v.toFloat(&f)) {
                *err = "data element " + std::to_string(index) + " is not a float";
                return false;
            }
            putLE<uint16_t>(bytes, index, floatToHalf(f));
            return true;
        }
        case ANEURALNETWORKS_INT32:
        case ANEURALNETWORKS_TENSOR_INT32:
            if (!intInRange(INT32_MIN, INT32_MAX, &i)) return false;
            putLE<int32_t>(bytes, index, static_cast<int32_t>(i));
            return true;
        case ANEURALNETWORKS_UINT32:
            if (!intInRange(0, UINT32_MAX, &i)) return false;
            putLE<uint32_t>(bytes, index, static_cast<uint32_t>(i));
            return true;
        case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
            if (!intInRange(0, 255, &i)) return false;
            (*bytes)[index] = static_cast<uint8_t>(i);
            return true;
        case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
        case ANEURALNETWORKS_TENSOR_QUANT8_SYMM:
        case ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL:
            if (!intInRange(-128, 127, &i)) return false;
            (*bytes)[index] = static_cast<uint8_t>(static_cast<int8_t>(i));
            return true;
        case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM:
            if (!intInRange(0, 65535, &i)) return false;
            putLE<uint16_t>(bytes, index, static_cast<uint16_t>(i));
            return true;
        case ANEURALNETWORKS_TENSOR_QUANT16_SYMM:
            if (!intInRange(-32768, 32767, &i)) return false;
            putLE<int16_t>(bytes, index, static_cast<int16_t>(i));
            return true;
        case ANEURALNETWORKS_BOOL:
        case ANEURALNETWORKS_TENSOR_BOOL8:
            if (v.isBool()) {
                (*bytes)[index] = v.boolValue() ? 1 : 0;
                return true;
            }
            if (!intInRange(0, 1, &i)) return false;
            (*bytes)[index] = static_cast<uint8_t>(i);
            return true;
        default:
            *err = std::string("no data layout for type ") + operandTypeName(type);
            return false;
    }
}

bool loadOperand(const JsonValue& j, size_t index, Operand* op, std::string* err) {
    auto bad = [&](const std::string& what) {
        *err = "operand " + std::to_string(index) + ": " + what;
        return false;
    };
    if (!j.isObject()) return bad("not an object");
    const JsonValue* type = j.find("type");
    if (!type || !type->isString()) return bad("missing type");
    op->typeName = type->text();
    op->type = operandTypeFromName(op->typeName);
    if (op->type < 0) return bad("unknown operand type " + op->typeName);
    if (!getUintList(j.find("dimensions"), &op->dimensions)) return bad("bad dimensions");

    const JsonValue* scale = j.find("scale");
    if (scale && !scale->isNull() && !scale->toFloat(&op->scale)) return bad("bad scale");
    const JsonValue* zp = j.find("zeroPoint");
    if (zp && !zp->isNull()) {
        int64_t z;
        if (!zp->toInt64(&z) || z < INT32_MIN || z > INT32_MAX) return bad("bad zeroPoint");
        op->zeroPoint = static_cast<int32_t>(z);
    }

    const JsonValue* lt = j.find("lifetime");
    if (!lt || !lt->isString()) return bad("missing lifetime");
    const std::string& l = lt->text();
    if (l == "SUBGRAPH_INPUT") op->lifetime = Lifetime::SubgraphInput;
    else if (l == "SUBGRAPH_OUTPUT") op->lifetime = Lifetime::SubgraphOutput;
    else if (l == "TEMPORARY_VARIABLE") op->lifetime = Lifetime::TemporaryVariable;
    else if (l == "CONSTANT_COPY") op->lifetime = Lifetime::ConstantCopy;
    else if (l == "CONSTANT_REFERENCE") op->lifetime = Lifetime::ConstantReference;
    else if (l == "NO_VALUE") op->lifetime = Lifetime::NoValue;
    else if (l == "SUBGRAPH") op->lifetime = Lifetime::Subgraph;
    else return bad("unknown lifetime " + l);

    const JsonValue* cq = j.find("channelQuant");
    if (cq && !cq->isNull()) {
        if (!cq->isObject()) return bad("bad channelQuant");
        const JsonValue* scales = cq->find("scales");
        const JsonValue* dim = cq->find("channelDim");
        if (!scales || !scales->isArray() || !dim || !getUint(*dim, &op->channelDim)) return bad("bad channelQuant");
        op->channelScales.resize(scales->size());
        for (size_t i = 0; i < scales->size(); ++i)
            if (!(*scales)[i].toFloat(&op->channelScales[i])) return bad("bad channelQuant scale");
        op->hasChannelQuant = true;
    }

    const JsonValue* ig = j.find("isIgnored");
    op->isIgnored = ig && ig->isBool() && ig->boolValue();

    const JsonValue* data = j.find("data");
    if (!data || !data->isArray()) return bad("missing data");
    op->elementCount = data->size();
    if (op->lifetime == Lifetime::Subgraph) {
        if (data->size() != 1 || !getUint((*data)[0], &op->subgraphIndex)) return bad("SUBGRAPH data must be [index]");
        return true;
    }
    size_t es = elementSize(op->type);
    op->bytes.assign(op->elementCount * es, 0);
    for (size_t i = 0; i < data->size(); ++i)
        if (!encodeElement((*data)[i], op->type, &op->bytes, i, err)) return bad(*err);
    return true;
}

bool loadSubgraph(const JsonValue& j, Subgraph* sg, std::string* err) {
    if (!j.isObject()) {
        *err = "subgraph is not an object";
        return false;
    }
    const JsonValue* operands = j.find("operands");
    const JsonValue* operations = j.find("operations");
    if (!operands || !operands->isArray() || !operations || !operations->isArray()) {
        *err = "subgraph lacks operands/operations";
        return false;
    }
    sg->operands.resize(operands->size());
    for (size_t i = 0; i < operands->size(); ++i)
        if (!loadOperand((*operands)[i], i, &sg->operands[i], err)) return false;
    sg->operations.resize(operations->size());
    for (size_t i = 0; i < operations->size(); ++i) {
        const JsonValue& o = (*operations)[i];
        Operation& op = sg->operations[i];
        const JsonValue* type = o.isObject() ? o.find("type") : nullptr;
        if (!type || !type->isString()) {
            *err = "operation " + std::to_string(i) + ": missing type";
            return false;
        }
        op.typeName = type->text();
        op.type = operationTypeFromName(op.typeName);
        if (op.type < 0) {
            *err = "operation " + std::to_string(i) + ": unknown operation type " + op.typeName;
            return false;
        }
        if (!getUintList(o.find("inputs"), &op.inputs) || !getUintList(o.find("outputs"), &op.outputs)) {
            *err = "operation " + std::to_string(i) + ": bad inputs/outputs";
            return false;
        }
    }
    if (!getUintList(j.find("inputIndexes"), &sg->inputIndexes) ||
        !getUintList(j.find("outputIndexes"), &sg->outputIndexes)) {
        *err = "subgraph lacks inputIndexes/outputIndexes";
        return false;
    }
    // Indexes are checked here so the runner can index operands without
    // guarding; the runtime still sees exactly what the file says.
    for (uint32_t idx : sg->inputIndexes)
        if (idx >= sg->operands.size()) {
            *err = "input index " + std::to_string(idx) + " out of range";
            return false;
        }
    for (uint32_t idx : sg->outputIndexes)
        if (idx >= sg->operands.size()) {
            *err = "output index " + std::to_string(idx) + " out of range";
            return false;
        }
    return true;
}

bool loadTest(const JsonValue& j, Test* t, std::string* err) {
    if (!j.isObject()) {
        *err = "test is not an object";
        return false;
    }
    const JsonValue* name = j.find("name");
    if (!name || !name->isString()) {
        *err = "test without name";
        return false;
    }
    t->name = name->text();
    const JsonValue* v = j.find("minSupportedVersion");
    t->minSupportedVersion = v && v->isString() ? v->text() : "UNKNOWN";
    const JsonValue* r = j.find("isRelaxed");
    t->isRelaxed = r && r->isBool() && r->boolValue();
    const JsonValue* ef = j.find("expectFailure");
    t->expectFailure = ef && ef->isBool() && ef->boolValue();
    const JsonValue* mt = j.find("multinomialTolerance");
    if (mt && !mt->isNull() && !mt->toFloat(&t->multinomialTolerance)) {
        *err = "bad multinomialTolerance";
        return false;
    }
    const JsonValue* main = j.find("main");
    if (!main) {
        *err = "test without main";
        return false;
    }
    if (!loadSubgraph(*main, &t->main, err)) {
        *err = "main: " + *err;
        return false;
    }
    const JsonValue* refs = j.find("referenced");
    if (refs && refs->isArray()) {
        t->referenced.resize(refs->size());
        for (size_t i = 0; i < refs->size(); ++i) {
            if (!loadSubgraph((*refs)[i], &t->referenced[i], err)) {
                *err = "referenced[" + std::to_string(i) + "]: " + *err;
                return false;
            }
        }
    }
    auto checkRefs = [&](const Subgraph& sg) {
        for (const Operand& op : sg.operands)
            if (op.lifetime == Lifetime::Subgraph && op.subgraphIndex >= t->referenced.size()) {
                *err = "SUBGRAPH operand names missing referenced[" + std::to_string(op.subgraphIndex) + "]";
                return false;
            }
        return true;
    };
    if (!checkRefs(t->main)) return false;
    for (const Subgraph& sg : t->referenced)
        if (!checkRefs(sg)) return false;
    return true;
}

}  // namespace

int32_t operandTypeFromName(const std::string& name) {
    for (const TypeInfo& t : kTypes)
        if (name == t.name) return t.code;
    return -1;
}

int32_t operationTypeFromName(const std::string& name) {
    // The runtime's own table, generated from its operation list.
    return api().operationCodeFromName(name.c_str());
}

const char* operandTypeName(int32_t type) {
    const TypeInfo* t = typeInfo(type);
    return t ? t->name : "UNKNOWN_TYPE";
}

size_t elementSize(int32_t type) {
    const TypeInfo* t = typeInfo(type);
    return t ? t->size : 0;
}

bool isTensorType(int32_t type) {
    const TypeInfo* t = typeInfo(type);
    return t && t->tensor;
}

int64_t featureLevelOfVersion(const std::string& v) {
    if (v == "V1_0") return ANEURALNETWORKS_FEATURE_LEVEL_1;
    if (v == "V1_1") return ANEURALNETWORKS_FEATURE_LEVEL_2;
    if (v == "V1_2") return ANEURALNETWORKS_FEATURE_LEVEL_3;
    if (v == "V1_3") return ANEURALNETWORKS_FEATURE_LEVEL_4;
    if (v == "AIDL_V1") return ANEURALNETWORKS_FEATURE_LEVEL_5;
    if (v == "AIDL_V2") return ANEURALNETWORKS_FEATURE_LEVEL_6;
    if (v == "AIDL_V3") return ANEURALNETWORKS_FEATURE_LEVEL_7;
    if (v == "UNKNOWN") return 0;
    return -1;
}

uint16_t floatToHalf(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    uint32_t absx = x & 0x7FFFFFFFu;
    if (absx >= 0x7F800000u) {  // inf or NaN
        if (absx == 0x7F800000u) return sign | 0x7C00u;
        return sign | 0x7E00u | static_cast<uint16_t>((absx >> 13) & 0x3FFu);
    }
    if (absx >= 0x477FF000u) return sign | 0x7C00u;  // rounds to >= 65520: overflow to inf
    if (absx < 0x38800000u) {
        // Result is a half subnormal (or zero): value = m * 2^-24.
        if (absx < 0x33000000u) return sign;  // < 2^-25: rounds to zero
        uint32_t e = absx >> 23;
        uint32_t mant = (absx & 0x7FFFFFu) | 0x800000u;
        uint32_t shift = 126 - e;  // 14 - (e - 127) + 23 - 24 + ... = 126 - e
        uint32_t q = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1);
        uint32_t half = 1u << (shift - 1);
        if (rem > half || (rem == half && (q & 1))) ++q;
        return sign | static_cast<uint16_t>(q);
    }
    // Normal range: rebias exponent and round the 13 dropped mantissa bits.
    uint32_t h = ((absx - 0x38000000u) >> 13);
    uint32_t rem = absx & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;  // carry may bump exponent: still correct
    return sign | static_cast<uint16_t>(h);
}

float halfToFloat(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1Fu;
    uint32_t m = h & 0x3FFu;
    uint32_t x;
    if (e == 0x1F) {
        x = sign | 0x7F800000u | (m << 13);
    } else if (e != 0) {
        x = sign | ((e + 112) << 23) | (m << 13);
    } else if (m == 0) {
        x = sign;
    } else {
        // Subnormal half: exact in float as m * 2^-24.
        float v = std::ldexp(static_cast<float>(m), -24);
        std::memcpy(&x, &v, 4);
        x |= sign;
    }
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

bool testUsesFloat16(const Test& test) {
    auto has = [](const Subgraph& sg) {
        for (const Operand& op : sg.operands)
            if (op.type == ANEURALNETWORKS_TENSOR_FLOAT16) return true;
        return false;
    };
    if (has(test.main)) return true;
    for (const Subgraph& sg : test.referenced)
        if (has(sg)) return true;
    return false;
}

bool testUsesOperation(const Test& test, std::initializer_list<int32_t> codes) {
    auto has = [&](const Subgraph& sg) {
        for (const Operation& op : sg.operations)
            for (int32_t c : codes)
                if (op.type == c) return true;
        return false;
    };
    if (has(test.main)) return true;
    for (const Subgraph& sg : test.referenced)
        if (has(sg)) return true;
    return false;
}

size_t elementCountOf(const std::vector<uint32_t>& dims) {
    size_t n = 1;
    for (uint32_t d : dims) n *= d;
    return n;
}

bool loadSpec(const JsonValue& doc, SpecFile* out, std::string* error) {
    if (!doc.isObject()) {
        *error = "document is not an object";
        return false;
    }
    const JsonValue* fmt = doc.find("format");
    if (!fmt || !fmt->isString() || fmt->text() != "nnapi-cts-1") {
        *error = "format is not nnapi-cts-1";
        return false;
    }
    const JsonValue* version = doc.find("version");
    const JsonValue* spec = doc.find("spec");
    const JsonValue* tests = doc.find("tests");
    if (!version || !version->isString() || !tests || !tests->isArray()) {
        *error = "missing version or tests";
        return false;
    }
    out->version = version->text();
    out->spec = spec && spec->isString() ? spec->text() : "";
    out->tests.clear();
    out->tests.resize(tests->size());
    for (size_t i = 0; i < tests->size(); ++i) {
        Test& t = out->tests[i];
        std::string err;
        if (!loadTest((*tests)[i], &t, &err)) {
            if (t.name.empty()) t.name = out->spec + "#" + std::to_string(i);
            t.loadError = err;
        }
    }
    return true;
}

bool loadSpecFile(const std::string& path, SpecFile* out, std::string* error) {
    std::string text;
    if (!readFile(path, &text, error)) return false;
    JsonValue doc;
    std::string err;
    if (!parseJson(text, &doc, &err)) {
        *error = path + ": " + err;
        return false;
    }
    if (!loadSpec(doc, out, &err)) {
        *error = path + ": " + err;
        return false;
    }
    return true;
}

}  // namespace cts
