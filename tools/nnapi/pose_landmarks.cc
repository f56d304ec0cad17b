#include "pose_landmarks.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace nnapi_cli {

const char* PoseLandmarkName(int index) {
  static const char* const kNames[kPoseLandmarks] = {
      "nose",           "left_eye_inner", "left_eye",        "left_eye_outer",  "right_eye_inner",
      "right_eye",      "right_eye_outer", "left_ear",       "right_ear",       "mouth_left",
      "mouth_right",    "left_shoulder",  "right_shoulder",  "left_elbow",      "right_elbow",
      "left_wrist",     "right_wrist",    "left_pinky",      "right_pinky",     "left_index",
      "right_index",    "left_thumb",     "right_thumb",     "left_hip",        "right_hip",
      "left_knee",      "right_knee",     "left_ankle",      "right_ankle",     "left_heel",
      "right_heel",     "left_foot_index", "right_foot_index"};
  return index >= 0 && index < kPoseLandmarks ? kNames[index] : nullptr;
}

int PoseLandmarkSide(int index) {
  const char* n = PoseLandmarkName(index);
  if (!n) return 0;
  const std::string name(n);
  if (name.find("left") != std::string::npos) return 1;
  if (name.find("right") != std::string::npos) return -1;
  return 0;
}

const std::vector<std::pair<int, int>>& PoseConnections() {
  static const std::vector<std::pair<int, int>> kEdges = {
      // face: eyes to ears through the nose, and the mouth
      {0, 1}, {1, 2}, {2, 3}, {3, 7}, {0, 4}, {4, 5}, {5, 6}, {6, 8}, {9, 10},
      // shoulders, arms and hands
      {11, 12}, {11, 13}, {13, 15}, {15, 17}, {15, 19}, {15, 21}, {17, 19},
      {12, 14}, {14, 16}, {16, 18}, {16, 20}, {16, 22}, {18, 20},
      // torso, legs and feet
      {11, 23}, {12, 24}, {23, 24}, {23, 25}, {24, 26}, {25, 27}, {26, 28},
      {27, 29}, {28, 30}, {29, 31}, {30, 32}, {27, 31}, {28, 32}};
  return kEdges;
}

SquareRoi WholeImageRoi(int width, int height) {
  SquareRoi r;
  r.cx = width / 2.f;
  r.cy = height / 2.f;
  r.side = static_cast<float>(std::max(width, height));
  return r;
}

SquareRoi RoiFromAlignmentPoints(float center_x, float center_y, float scale_x, float scale_y) {
  SquareRoi r;
  r.cx = center_x;
  r.cy = center_y;
  const float dx = scale_x - center_x, dy = scale_y - center_y;
  const float dist = std::sqrt(dx * dx + dy * dy);
  // AlignmentPointsRectsCalculator: a box of side 2 * dist; RectTransformationCalculator then
  // scales it by 1.5 (the margin used in training).
  r.side = 2.f * dist * 1.5f;
  // The crop's "up" (0,-1) must map to the unit vector d = (dx,dy)/dist. With the crop's axes
  // ex = (cos a, sin a) and ey = (-sin a, cos a) in the photo, up maps to -ey, so
  // sin a = dx/dist and cos a = -dy/dist; an upright body (d = (0,-1)) gives a = 0.
  r.rotation = dist > 0 ? std::atan2(dx, -dy) : 0.f;
  return r;
}

void RoiToImage(const SquareRoi& roi, float u, float v, float* x, float* y) {
  const float c = std::cos(roi.rotation), s = std::sin(roi.rotation);
  const float ox = (u - 0.5f) * roi.side, oy = (v - 0.5f) * roi.side;
  *x = roi.cx + ox * c - oy * s;
  *y = roi.cy + ox * s + oy * c;
}

Image CropRoi(const Image& photo, const SquareRoi& roi, int size) {
  Image out;
  out.width = out.height = size;
  out.rgb.assign(static_cast<size_t>(size) * size * 3, 0);
  if (photo.width <= 0 || photo.height <= 0 || size <= 0) return out;
  auto at = [&](int x, int y, int c) -> float {
    if (x < 0 || y < 0 || x >= photo.width || y >= photo.height) return 0.f;  // black border
    return photo.rgb[(static_cast<size_t>(y) * photo.width + x) * 3 + c];
  };
  for (int j = 0; j < size; ++j) {
    for (int i = 0; i < size; ++i) {
      float sx, sy;
      RoiToImage(roi, (i + 0.5f) / size, (j + 0.5f) / size, &sx, &sy);
      // Pixel centres are at +0.5: move to index space for the interpolation.
      sx -= 0.5f;
      sy -= 0.5f;
      const float fx = std::floor(sx), fy = std::floor(sy);
      const int x0 = static_cast<int>(fx), y0 = static_cast<int>(fy);
      const float wx = sx - fx, wy = sy - fy;
      for (int c = 0; c < 3; ++c) {
        const float top = at(x0, y0, c) + (at(x0 + 1, y0, c) - at(x0, y0, c)) * wx;
        const float bot = at(x0, y0 + 1, c) + (at(x0 + 1, y0 + 1, c) - at(x0, y0 + 1, c)) * wx;
        const float v = top + (bot - top) * wy;
        out.rgb[(static_cast<size_t>(j) * size + i) * 3 + c] =
            static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L));
      }
    }
  }
  return out;
}

namespace {
float Sigmoid(float v) { return 1.f / (1.f + std::exp(-v)); }
}  // namespace

std::vector<PoseLandmark> DecodePoseLandmarks(const float* raw, int count, int input_size, const SquareRoi& roi) {
  std::vector<PoseLandmark> out(static_cast<size_t>(std::max(count, 0)));
  if (input_size <= 0) return out;
  const float n = static_cast<float>(input_size);
  for (int k = 0; k < count; ++k) {
    const float* p = raw + static_cast<size_t>(k) * kPoseValuesPerLandmark;
    PoseLandmark& l = out[static_cast<size_t>(k)];
    RoiToImage(roi, p[0] / n, p[1] / n, &l.x, &l.y);
    l.z = p[2] / n * roi.side;  // z shares x's scale (MediaPipe normalises it by the width)
    l.visibility = Sigmoid(p[3]);
    l.presence = Sigmoid(p[4]);
  }
  return out;
}

void DrawPoseSkeleton(Image* image, const std::vector<PoseLandmark>& landmarks, float min_visibility) {
  // Line width and dot size grow with the picture so the skeleton reads on large photos too.
  const float scale = std::max(1.f, std::max(image->width, image->height) / 512.f);
  const Rgb kLeft{255, 138, 0}, kRight{0, 217, 231}, kCentre{255, 255, 255};
  auto colour = [&](int i) {
    const int side = PoseLandmarkSide(i);
    return side > 0 ? kLeft : side < 0 ? kRight : kCentre;
  };
  auto shown = [&](int i) {
    return i >= 0 && static_cast<size_t>(i) < landmarks.size() && landmarks[static_cast<size_t>(i)].visibility >= min_visibility;
  };
  for (const auto& [a, b] : PoseConnections()) {
    if (!shown(a) || !shown(b)) continue;
    const PoseLandmark &p = landmarks[static_cast<size_t>(a)], &q = landmarks[static_cast<size_t>(b)];
    // An edge across the body (shoulders, hips, mouth) or from the nose in white.
    const Rgb c = PoseLandmarkSide(a) == PoseLandmarkSide(b) ? colour(a) : kCentre;
    DrawLine(image, p.x, p.y, q.x, q.y, 3.f * scale, c);
  }
  for (int i = 0; i < std::min<int>(kPoseLandmarks, static_cast<int>(landmarks.size())); ++i) {
    if (!shown(i)) continue;
    DrawDot(image, landmarks[static_cast<size_t>(i)].x, landmarks[static_cast<size_t>(i)].y, 4.f * scale, Rgb{255, 0, 0});
    DrawDot(image, landmarks[static_cast<size_t>(i)].x, landmarks[static_cast<size_t>(i)].y, 2.f * scale, colour(i));
  }
}

}  // namespace nnapi_cli
