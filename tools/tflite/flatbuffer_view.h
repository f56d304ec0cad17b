// Bounds-checked, read-only access to a FlatBuffers binary.
//
// The .tflite reader walks the model through this class instead of generated code so that every
// offset, vtable and vector length coming from an untrusted file is checked before it is used.
// Nothing here trusts alignment: values are loaded with memcpy, so unaligned data is read
// correctly instead of being undefined behaviour.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace nnapi_tflite {

// A table located inside the buffer whose vtable has been checked to lie inside the buffer.
struct FbTable {
  size_t pos = 0;        // start of the table (where its soffset to the vtable is stored)
  size_t vtable = 0;     // start of the vtable
  uint16_t vt_size = 0;  // vtable size in bytes (including its two header fields)
  uint16_t size = 0;     // inline size of the table in bytes
};

// A vector located inside the buffer: `count` elements of `elem_size` bytes starting at `data`.
struct FbVector {
  size_t data = 0;
  uint32_t count = 0;
  uint32_t elem_size = 0;
};

class FlatBufferView {
 public:
  FlatBufferView(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

  // First error encountered (empty when none). Every accessor returns false once it is set.
  const std::string& error() const { return error_; }
  bool failed() const { return !error_.empty(); }
  // Records `msg` (prefixed with the current context) unless an error is already recorded.
  bool Fail(const std::string& msg);

  // Context prefix for error messages ("subgraph 0: tensor 12: ").
  void set_context(std::string ctx) { context_ = std::move(ctx); }
  const std::string& context() const { return context_; }

  // The root table (uoffset at byte 0).
  bool Root(FbTable* out);
  // Validates the table starting at `pos`.
  bool TableAt(size_t pos, const char* what, FbTable* out);

  // Scalar fields. Absent fields yield `def`. Field `id` is the declaration index in the schema
  // (a union field takes two ids: the type byte, then the value).
  bool GetU8(const FbTable& t, int id, uint8_t def, uint8_t* out, const char* name);
  bool GetI8(const FbTable& t, int id, int8_t def, int8_t* out, const char* name);
  bool GetBool(const FbTable& t, int id, bool def, bool* out, const char* name);
  bool GetI32(const FbTable& t, int id, int32_t def, int32_t* out, const char* name);
  bool GetU32(const FbTable& t, int id, uint32_t def, uint32_t* out, const char* name);
  bool GetF32(const FbTable& t, int id, float def, float* out, const char* name);
  bool GetI64(const FbTable& t, int id, int64_t def, int64_t* out, const char* name);
  bool GetU64(const FbTable& t, int id, uint64_t def, uint64_t* out, const char* name);

  // Offset fields. `present` reports whether the field exists; on absence the call succeeds.
  bool GetTable(const FbTable& t, int id, FbTable* out, bool* present, const char* name);
  bool GetVector(const FbTable& t, int id, uint32_t elem_size, FbVector* out, bool* present,
                 const char* name);
  bool GetString(const FbTable& t, int id, std::string* out, bool* present, const char* name);

  // Element `i` of a vector of tables (bounds of `i` are the caller's responsibility to keep
  // below v.count; it is checked anyway).
  bool VectorTable(const FbVector& v, uint32_t i, const char* what, FbTable* out);
  // Element `i` of a vector of strings.
  bool VectorString(const FbVector& v, uint32_t i, const char* what, std::string* out);

  // Raw little-endian loads; callers must have range-checked [pos, pos+N).
  template <typename T>
  T Load(size_t pos) const {
    T v;
    std::memcpy(&v, data_ + pos, sizeof(T));
    return v;
  }
  bool InRange(size_t pos, size_t len) const { return pos <= size_ && len <= size_ - pos; }

 private:
  // Locates field `id` of `t`; returns 0 (and *ok=true) when the field is absent. Checks that
  // `len` bytes at the field lie inside the table and the buffer.
  size_t FieldPos(const FbTable& t, int id, size_t len, const char* name, bool* ok);
  // Follows the uoffset stored at `pos`.
  bool FollowOffset(size_t pos, const char* name, size_t* target);
  bool VectorAt(size_t pos, uint32_t elem_size, const char* name, FbVector* out);

  const uint8_t* data_;
  size_t size_;
  std::string error_;
  std::string context_;
};

}  // namespace nnapi_tflite
