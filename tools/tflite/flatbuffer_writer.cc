#include "flatbuffer_writer.h"

#include <algorithm>

namespace nnapi_tflite {

namespace {
void Align(std::vector<uint8_t>* out, size_t a) {
  while (out->size() % a) out->push_back(0);
}
template <typename T>
void Put(std::vector<uint8_t>* out, size_t pos, T v) {
  std::memcpy(out->data() + pos, &v, sizeof(T));
}
template <typename T>
void Append(std::vector<uint8_t>* out, T v) {
  size_t p = out->size();
  out->resize(p + sizeof(T));
  Put(out, p, v);
}
}  // namespace

size_t FbNode::Write(const FbNode& n, std::vector<uint8_t>* out) {
  switch (n.kind_) {
    case Kind::kString: {
      Align(out, 4);
      size_t pos = out->size();
      Append<uint32_t>(out, n.count_);
      out->insert(out->end(), n.bytes_.begin(), n.bytes_.end());
      out->push_back(0);
      return pos;
    }
    case Kind::kScalarVector: {
      // The length prefix sits right before the data, which must honour the element alignment.
      while ((out->size() + 4) % n.align_) out->push_back(0);
      size_t pos = out->size();
      Append<uint32_t>(out, n.count_);
      out->insert(out->end(), n.bytes_.begin(), n.bytes_.end());
      return pos;
    }
    case Kind::kOffsetVector: {
      Align(out, 4);
      size_t pos = out->size();
      Append<uint32_t>(out, n.count_);
      size_t slots = out->size();
      out->resize(slots + 4 * n.children_.size());
      for (size_t i = 0; i < n.children_.size(); ++i) {
        size_t c = Write(*n.children_[i], out);
        size_t slot = slots + 4 * i;
        Put<uint32_t>(out, slot, static_cast<uint32_t>(c - slot));
      }
      return pos;
    }
    case Kind::kTable: {
      int max_id = -1;
      for (const Field& f : n.fields_) max_id = std::max(max_id, f.id);
      // Inline layout: soffset, then fields each aligned to its own size.
      std::vector<uint16_t> field_off(static_cast<size_t>(max_id + 1), 0);
      size_t inline_size = 4;
      std::vector<size_t> offs(n.fields_.size());
      for (size_t i = 0; i < n.fields_.size(); ++i) {
        size_t sz = n.fields_[i].child ? 4 : n.fields_[i].bytes.size();
        inline_size = (inline_size + sz - 1) / sz * sz;
        offs[i] = inline_size;
        field_off[static_cast<size_t>(n.fields_[i].id)] = static_cast<uint16_t>(inline_size);
        inline_size += sz;
      }
      inline_size = (inline_size + 3) / 4 * 4;
      Align(out, 2);
      size_t vt = out->size();
      Append<uint16_t>(out, static_cast<uint16_t>(4 + 2 * field_off.size()));
      Append<uint16_t>(out, static_cast<uint16_t>(inline_size));
      for (uint16_t o : field_off) Append<uint16_t>(out, o);
      Align(out, 8);
      size_t pos = out->size();
      out->resize(pos + inline_size, 0);
      Put<int32_t>(out, pos, static_cast<int32_t>(pos - vt));
      for (size_t i = 0; i < n.fields_.size(); ++i) {
        const Field& f = n.fields_[i];
        if (!f.child) std::memcpy(out->data() + pos + offs[i], f.bytes.data(), f.bytes.size());
      }
      for (size_t i = 0; i < n.fields_.size(); ++i) {
        const Field& f = n.fields_[i];
        if (!f.child) continue;
        size_t c = Write(*f.child, out);
        size_t slot = pos + offs[i];
        Put<uint32_t>(out, slot, static_cast<uint32_t>(c - slot));
      }
      return pos;
    }
  }
  return 0;
}

std::vector<uint8_t> FbNode::Finish(const FbRef& root, const char* file_identifier) {
  std::vector<uint8_t> out(8, 0);
  if (file_identifier) std::memcpy(out.data() + 4, file_identifier, std::min<size_t>(4, std::strlen(file_identifier)));
  size_t r = Write(*root, &out);
  Put<uint32_t>(&out, 0, static_cast<uint32_t>(r));
  Align(&out, 16);
  return out;
}

}  // namespace nnapi_tflite
