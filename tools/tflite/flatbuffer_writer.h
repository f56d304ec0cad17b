// A small FlatBuffers writer used to build .tflite models in memory for tests and fuzz seeds.
//
// Objects are described as a tree and serialised parent-first: every referenced object is
// written after the field that points at it, so all uoffsets are positive as the format demands.
// It is deliberately simple (no deduplication, no in-place building); models it produces are
// small.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace nnapi_tflite {

class FbNode;
using FbRef = std::shared_ptr<FbNode>;

class FbNode {
 public:
  enum class Kind { kTable, kScalarVector, kOffsetVector, kString };

  // A table; add fields with the Set* methods.
  static FbRef Table() { return FbRef(new FbNode(Kind::kTable)); }
  // A vector of scalars, raw little-endian bytes; `align` is the alignment of the element data.
  template <typename T>
  static FbRef Vector(const std::vector<T>& v, size_t align = sizeof(T)) {
    FbRef n(new FbNode(Kind::kScalarVector));
    n->count_ = static_cast<uint32_t>(v.size());
    n->bytes_.resize(v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(n->bytes_.data(), v.data(), n->bytes_.size());
    n->align_ = align < 4 ? 4 : align;
    return n;
  }
  static FbRef Bytes(const void* data, size_t size, size_t align = 16) {
    FbRef n(new FbNode(Kind::kScalarVector));
    n->count_ = static_cast<uint32_t>(size);
    n->bytes_.assign(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
    n->align_ = align < 4 ? 4 : align;
    return n;
  }
  static FbRef Vector(const std::vector<FbRef>& children) {
    FbRef n(new FbNode(Kind::kOffsetVector));
    n->children_ = children;
    n->count_ = static_cast<uint32_t>(children.size());
    return n;
  }
  static FbRef String(const std::string& s) {
    FbRef n(new FbNode(Kind::kString));
    n->bytes_.assign(s.begin(), s.end());
    n->count_ = static_cast<uint32_t>(s.size());
    return n;
  }

  template <typename T>
  FbNode& Set(int id, T value) {
    Field f;
    f.id = id;
    f.bytes.resize(sizeof(T));
    std::memcpy(f.bytes.data(), &value, sizeof(T));
    fields_.push_back(std::move(f));
    return *this;
  }
  FbNode& SetRef(int id, FbRef child) {
    Field f;
    f.id = id;
    f.child = std::move(child);
    fields_.push_back(std::move(f));
    return *this;
  }

  // Serialises `root` as a buffer with the given 4-character file identifier (may be empty).
  static std::vector<uint8_t> Finish(const FbRef& root, const char* file_identifier);

 private:
  explicit FbNode(Kind k) : kind_(k) {}
  struct Field {
    int id = 0;
    std::vector<uint8_t> bytes;  // scalar value
    FbRef child;                 // or offset to this object
  };
  static size_t Write(const FbNode& n, std::vector<uint8_t>* out);

  Kind kind_;
  std::vector<Field> fields_;
  std::vector<uint8_t> bytes_;
  std::vector<FbRef> children_;
  uint32_t count_ = 0;
  size_t align_ = 4;
};

}  // namespace nnapi_tflite
