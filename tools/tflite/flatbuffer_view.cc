#include "flatbuffer_view.h"

#include <cstdio>

namespace nnapi_tflite {

namespace {
std::string Hex(size_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%zx", v);
  return buf;
}
}  // namespace

bool FlatBufferView::Fail(const std::string& msg) {
  if (error_.empty()) error_ = context_ + msg;
  return false;
}

bool FlatBufferView::Root(FbTable* out) {
  if (size_ < 8) return Fail("file too small for a flatbuffer (" + std::to_string(size_) + " bytes)");
  uint32_t off = Load<uint32_t>(0);
  if (off < 8 || off >= size_) {
    return Fail("root table offset " + Hex(off) + " outside the file (" + std::to_string(size_) +
                " bytes)");
  }
  return TableAt(off, "root table", out);
}

bool FlatBufferView::TableAt(size_t pos, const char* what, FbTable* out) {
  if (failed()) return false;
  if (!InRange(pos, 4)) return Fail(std::string(what) + ": table at " + Hex(pos) + " outside the file");
  int64_t soff = Load<int32_t>(pos);
  int64_t vt = static_cast<int64_t>(pos) - soff;
  if (vt < 0 || !InRange(static_cast<size_t>(vt), 4)) {
    return Fail(std::string(what) + ": vtable of table at " + Hex(pos) + " points outside the file");
  }
  uint16_t vt_size = Load<uint16_t>(static_cast<size_t>(vt));
  uint16_t tbl_size = Load<uint16_t>(static_cast<size_t>(vt) + 2);
  if (vt_size < 4 || (vt_size & 1)) {
    return Fail(std::string(what) + ": invalid vtable size " + std::to_string(vt_size));
  }
  if (!InRange(static_cast<size_t>(vt), vt_size)) {
    return Fail(std::string(what) + ": vtable (" + std::to_string(vt_size) + " bytes at " +
                Hex(static_cast<size_t>(vt)) + ") extends past the end of the file");
  }
  if (tbl_size < 4 || !InRange(pos, tbl_size)) {
    return Fail(std::string(what) + ": table size " + std::to_string(tbl_size) + " at " + Hex(pos) +
                " invalid or past the end of the file");
  }
  out->pos = pos;
  out->vtable = static_cast<size_t>(vt);
  out->vt_size = vt_size;
  out->size = tbl_size;
  return true;
}

size_t FlatBufferView::FieldPos(const FbTable& t, int id, size_t len, const char* name, bool* ok) {
  *ok = false;
  if (failed()) return 0;
  *ok = true;
  size_t slot = 4 + 2 * static_cast<size_t>(id);
  if (slot + 2 > t.vt_size) return 0;
  uint16_t off = Load<uint16_t>(t.vtable + slot);
  if (off == 0) return 0;
  if (off < 4 || static_cast<size_t>(off) + len > t.size) {
    *ok = false;
    Fail(std::string("field '") + name + "' at table offset " + std::to_string(off) +
         " lies outside its table (" + std::to_string(t.size) + " bytes)");
    return 0;
  }
  return t.pos + off;
}

#define NNAPI_TFLITE_SCALAR_GETTER(Name, T)                                                   \
  bool FlatBufferView::Name(const FbTable& t, int id, T def, T* out, const char* name) {     \
    bool ok;                                                                                  \
    size_t p = FieldPos(t, id, sizeof(T), name, &ok);                                         \
    if (!ok) return false;                                                                    \
    *out = p ? Load<T>(p) : def;                                                              \
    return true;                                                                              \
  }
NNAPI_TFLITE_SCALAR_GETTER(GetU8, uint8_t)
NNAPI_TFLITE_SCALAR_GETTER(GetI8, int8_t)
NNAPI_TFLITE_SCALAR_GETTER(GetI32, int32_t)
NNAPI_TFLITE_SCALAR_GETTER(GetU32, uint32_t)
NNAPI_TFLITE_SCALAR_GETTER(GetF32, float)
NNAPI_TFLITE_SCALAR_GETTER(GetI64, int64_t)
NNAPI_TFLITE_SCALAR_GETTER(GetU64, uint64_t)
#undef NNAPI_TFLITE_SCALAR_GETTER

bool FlatBufferView::GetBool(const FbTable& t, int id, bool def, bool* out, const char* name) {
  uint8_t v;
  if (!GetU8(t, id, def ? 1 : 0, &v, name)) return false;
  *out = v != 0;
  return true;
}

bool FlatBufferView::FollowOffset(size_t pos, const char* name, size_t* target) {
  if (!InRange(pos, 4)) return Fail(std::string("offset of '") + name + "' outside the file");
  uint32_t off = Load<uint32_t>(pos);
  // A zero offset would make the object alias its own reference; FlatBuffers never writes one.
  if (off == 0 || !InRange(pos, static_cast<size_t>(off)) || pos + off >= size_) {
    return Fail(std::string("'") + name + "': offset " + Hex(off) + " at " + Hex(pos) +
                " points outside the file (" + std::to_string(size_) + " bytes)");
  }
  *target = pos + off;
  return true;
}

bool FlatBufferView::GetTable(const FbTable& t, int id, FbTable* out, bool* present,
                              const char* name) {
  *present = false;
  bool ok;
  size_t p = FieldPos(t, id, 4, name, &ok);
  if (!ok) return false;
  if (p == 0) return true;
  size_t target;
  if (!FollowOffset(p, name, &target)) return false;
  if (!TableAt(target, name, out)) return false;
  *present = true;
  return true;
}

bool FlatBufferView::VectorAt(size_t pos, uint32_t elem_size, const char* name, FbVector* out) {
  if (!InRange(pos, 4)) return Fail(std::string("vector '") + name + "' header outside the file");
  uint32_t count = Load<uint32_t>(pos);
  uint64_t bytes = static_cast<uint64_t>(count) * elem_size;
  if (bytes > size_ - pos - 4) {
    return Fail(std::string("vector '") + name + "' claims " + std::to_string(count) +
                " elements of " + std::to_string(elem_size) + " bytes at " + Hex(pos) +
                ", past the end of the file (" + std::to_string(size_) + " bytes)");
  }
  out->data = pos + 4;
  out->count = count;
  out->elem_size = elem_size;
  return true;
}

bool FlatBufferView::GetVector(const FbTable& t, int id, uint32_t elem_size, FbVector* out,
                               bool* present, const char* name) {
  *present = false;
  bool ok;
  size_t p = FieldPos(t, id, 4, name, &ok);
  if (!ok) return false;
  if (p == 0) {
    *out = FbVector{};
    out->elem_size = elem_size;
    return true;
  }
  size_t target;
  if (!FollowOffset(p, name, &target)) return false;
  if (!VectorAt(target, elem_size, name, out)) return false;
  *present = true;
  return true;
}

bool FlatBufferView::GetString(const FbTable& t, int id, std::string* out, bool* present,
                               const char* name) {
  FbVector v;
  if (!GetVector(t, id, 1, &v, present, name)) return false;
  out->clear();
  if (!*present) return true;
  // FlatBuffers strings carry a terminating NUL after `count` bytes.
  if (!InRange(v.data, static_cast<size_t>(v.count) + 1) || data_[v.data + v.count] != 0) {
    return Fail(std::string("string '") + name + "' is not NUL-terminated inside the file");
  }
  out->assign(reinterpret_cast<const char*>(data_ + v.data), v.count);
  return true;
}

bool FlatBufferView::VectorTable(const FbVector& v, uint32_t i, const char* what, FbTable* out) {
  if (failed()) return false;
  if (i >= v.count || v.elem_size != 4) {
    return Fail(std::string(what) + ": element " + std::to_string(i) + " out of range");
  }
  size_t target;
  if (!FollowOffset(v.data + 4 * static_cast<size_t>(i), what, &target)) return false;
  return TableAt(target, what, out);
}

bool FlatBufferView::VectorString(const FbVector& v, uint32_t i, const char* what,
                                  std::string* out) {
  if (failed()) return false;
  if (i >= v.count || v.elem_size != 4) {
    return Fail(std::string(what) + ": element " + std::to_string(i) + " out of range");
  }
  size_t target;
  if (!FollowOffset(v.data + 4 * static_cast<size_t>(i), what, &target)) return false;
  FbVector s;
  if (!VectorAt(target, 1, what, &s)) return false;
  if (!InRange(s.data, static_cast<size_t>(s.count) + 1) || data_[s.data + s.count] != 0) {
    return Fail(std::string("string '") + what + "' is not NUL-terminated inside the file");
  }
  out->assign(reinterpret_cast<const char*>(data_ + s.data), s.count);
  return true;
}

}  // namespace nnapi_tflite
