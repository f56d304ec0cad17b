#include "selfie_segment.h"

#include <algorithm>
#include <cmath>

namespace nnapi_cli {

Mask ResizeMask(const Mask& src, int width, int height) {
  Mask dst;
  dst.width = width;
  dst.height = height;
  dst.values.assign(static_cast<size_t>(width) * height, 0.f);
  if (src.width <= 0 || src.height <= 0) return dst;
  const float sx = static_cast<float>(src.width) / width, sy = static_cast<float>(src.height) / height;
  for (int y = 0; y < height; ++y) {
    const float fy = std::clamp((y + 0.5f) * sy - 0.5f, 0.f, static_cast<float>(src.height - 1));
    const int y0 = static_cast<int>(fy), y1 = std::min(y0 + 1, src.height - 1);
    const float wy = fy - y0;
    for (int x = 0; x < width; ++x) {
      const float fx = std::clamp((x + 0.5f) * sx - 0.5f, 0.f, static_cast<float>(src.width - 1));
      const int x0 = static_cast<int>(fx), x1 = std::min(x0 + 1, src.width - 1);
      const float wx = fx - x0;
      const float top = src.at(x0, y0) + (src.at(x1, y0) - src.at(x0, y0)) * wx;
      const float bot = src.at(x0, y1) + (src.at(x1, y1) - src.at(x0, y1)) * wx;
      dst.values[static_cast<size_t>(y) * width + x] = top + (bot - top) * wy;
    }
  }
  return dst;
}

MaskSummary SummarizeMask(const Mask& mask, float threshold) {
  MaskSummary s;
  size_t n = 0;
  for (int y = 0; y < mask.height; ++y) {
    for (int x = 0; x < mask.width; ++x) {
      if (!(mask.at(x, y) >= threshold)) continue;  // NaN counts as background
      if (s.empty) {
        s.xmin = s.xmax = x;
        s.ymin = s.ymax = y;
        s.empty = false;
      }
      s.xmin = std::min(s.xmin, x);
      s.xmax = std::max(s.xmax, x);
      s.ymin = std::min(s.ymin, y);
      s.ymax = std::max(s.ymax, y);
      ++n;
    }
  }
  const size_t total = static_cast<size_t>(mask.width) * mask.height;
  s.coverage = total ? static_cast<double>(n) / static_cast<double>(total) : 0.0;
  return s;
}

double MaskCoverageInBox(const Mask& mask, float threshold, int x0, int y0, int x1, int y1) {
  x0 = std::max(x0, 0);
  y0 = std::max(y0, 0);
  x1 = std::min(x1, mask.width);
  y1 = std::min(y1, mask.height);
  if (x1 <= x0 || y1 <= y0) return 0.0;
  size_t n = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) n += mask.at(x, y) >= threshold;
  return static_cast<double>(n) / (static_cast<double>(x1 - x0) * (y1 - y0));
}

namespace {
uint8_t ToByte(float v) { return static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L)); }
float Clamp01(float v) { return std::isnan(v) ? 0.f : std::clamp(v, 0.f, 1.f); }
}  // namespace

Image MaskToImage(const Mask& mask) {
  Image im;
  im.width = mask.width;
  im.height = mask.height;
  im.rgb.resize(mask.values.size() * 3);
  for (size_t i = 0; i < mask.values.size(); ++i) {
    const uint8_t v = ToByte(Clamp01(mask.values[i]) * 255.f);
    im.rgb[3 * i] = im.rgb[3 * i + 1] = im.rgb[3 * i + 2] = v;
  }
  return im;
}

Image OverlayMask(const Image& photo, const Mask& mask, Rgb tint) {
  // Background at 30% brightness; the person keeps 65% of its colour plus 35% of the tint, so
  // the cut-out is obvious on any photo and the face stays recognisable.
  constexpr float kBackground = 0.3f, kTint = 0.35f;
  Image out = photo;
  const float t[3] = {static_cast<float>(tint.r), static_cast<float>(tint.g), static_cast<float>(tint.b)};
  const size_t n = std::min(mask.values.size(), photo.rgb.size() / 3);
  for (size_t i = 0; i < n; ++i) {
    const float m = Clamp01(mask.values[i]);
    for (int c = 0; c < 3; ++c) {
      const float p = photo.rgb[3 * i + c];
      const float person = (1.f - kTint) * p + kTint * t[c];
      out.rgb[3 * i + c] = ToByte(m * person + (1.f - m) * kBackground * p);
    }
  }
  return out;
}

}  // namespace nnapi_cli
