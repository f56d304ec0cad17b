// The selfie-segmentation and pose-landmark demo helpers (tools/nnapi/selfie_segment.*,
// pose_landmarks.*, demo_common.*): mask resizing and statistics, the overlay blend, the pose
// ROI geometry (letterbox, MediaPipe's alignment-point ROI, crop <-> photo mapping), landmark
// decoding and the skeleton's visibility threshold. The end-to-end checks on the photograph are
// the ctests selfie_demo and pose_demo (tests/demo/selfie_pose_demo_check.py).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "demo_common.h"
#include "pose_landmarks.h"
#include "selfie_segment.h"

using namespace nnapi_cli;

namespace {
Mask MakeMask(int w, int h, std::vector<float> v) {
  Mask m;
  m.width = w;
  m.height = h;
  m.values = std::move(v);
  return m;
}
}  // namespace

TEST(SelfieSegment, ResizeMaskHalfPixelCentres) {
  const Mask dst = ResizeMask(MakeMask(2, 1, {0.f, 1.f}), 4, 2);
  // Output x centres map to source x = -0.25 (clamped), 0.25, 0.75, 1.25 (clamped).
  const float want[4] = {0.f, 0.25f, 0.75f, 1.f};
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 4; ++x) EXPECT_FLOAT_EQ(dst.at(x, y), want[x]) << x << "," << y;
}

TEST(SelfieSegment, SummaryCountsPixelsAtThresholdAndIgnoresNan) {
  // 4x3; person pixels (>= 0.5) at (1,1), (2,1), (2,2); NaN is background.
  const Mask m = MakeMask(4, 3, {0.f, 0.49f, 0.f, NAN,  //
                                 0.f, 0.5f, 0.9f, 0.f,  //
                                 0.f, 0.f, 1.f, 0.1f});
  const MaskSummary s = SummarizeMask(m, 0.5f);
  EXPECT_FALSE(s.empty);
  EXPECT_DOUBLE_EQ(s.coverage, 3.0 / 12.0);
  EXPECT_EQ(s.xmin, 1);
  EXPECT_EQ(s.xmax, 2);
  EXPECT_EQ(s.ymin, 1);
  EXPECT_EQ(s.ymax, 2);
  EXPECT_TRUE(SummarizeMask(MakeMask(2, 1, {0.f, 0.2f}), 0.5f).empty);
  EXPECT_DOUBLE_EQ(SummarizeMask(MakeMask(2, 1, {0.f, 0.2f}), 0.5f).coverage, 0.0);
  // Box coverage: [1,3) x [1,3) holds 3 of 4; clipped boxes; empty box.
  EXPECT_DOUBLE_EQ(MaskCoverageInBox(m, 0.5f, 1, 1, 3, 3), 0.75);
  EXPECT_DOUBLE_EQ(MaskCoverageInBox(m, 0.5f, 2, 1, 100, 100), 2.0 / 4.0);
  EXPECT_DOUBLE_EQ(MaskCoverageInBox(m, 0.5f, 3, 3, 2, 2), 0.0);
}

TEST(SelfieSegment, OverlayDimsBackgroundTintsPerson) {
  Image photo;
  photo.width = 3;
  photo.height = 1;
  photo.rgb = {200, 100, 0, 200, 100, 0, 200, 100, 0};
  const Mask m = MakeMask(3, 1, {0.f, 1.f, 0.5f});
  const Image out = OverlayMask(photo, m, Rgb{0, 255, 0});
  // Background: 30% brightness.
  EXPECT_EQ(out.rgb[0], 60);
  EXPECT_EQ(out.rgb[1], 30);
  // Person: 65% of the photo + 35% of the tint.
  EXPECT_EQ(out.rgb[3], 130);
  EXPECT_EQ(out.rgb[4], 154);  // 65 + 89.25
  EXPECT_EQ(out.rgb[5], 0);
  // Half: the mean of the two.
  EXPECT_EQ(out.rgb[6], 95);
  const Image grey = MaskToImage(MakeMask(3, 1, {0.f, 1.f, 0.5f}));
  EXPECT_EQ(grey.rgb[0], 0);
  EXPECT_EQ(grey.rgb[3], 255);
  EXPECT_EQ(grey.rgb[6], 128);
  EXPECT_EQ(grey.rgb[7], grey.rgb[6]);
}

TEST(PoseLandmarks, NamesAndConnections) {
  std::set<std::string> names;
  for (int i = 0; i < kPoseLandmarks; ++i) {
    ASSERT_NE(PoseLandmarkName(i), nullptr) << i;
    names.insert(PoseLandmarkName(i));
  }
  EXPECT_EQ(names.size(), 33u);
  EXPECT_STREQ(PoseLandmarkName(0), "nose");
  EXPECT_STREQ(PoseLandmarkName(11), "left_shoulder");
  EXPECT_STREQ(PoseLandmarkName(32), "right_foot_index");
  EXPECT_EQ(PoseLandmarkName(33), nullptr);
  EXPECT_EQ(PoseLandmarkName(-1), nullptr);
  EXPECT_EQ(PoseLandmarkSide(0), 0);
  EXPECT_EQ(PoseLandmarkSide(2), 1);    // left_eye
  EXPECT_EQ(PoseLandmarkSide(4), -1);   // right_eye_inner
  EXPECT_EQ(PoseLandmarkSide(9), 1);    // mouth_left
  EXPECT_EQ(PoseLandmarkSide(32), -1);  // right_foot_index
  int left = 0, right = 0;
  for (int i = 0; i < kPoseLandmarks; ++i) {
    left += PoseLandmarkSide(i) > 0;
    right += PoseLandmarkSide(i) < 0;
  }
  EXPECT_EQ(left, 16);
  EXPECT_EQ(right, 16);
  const auto& edges = PoseConnections();
  EXPECT_EQ(edges.size(), 35u);
  std::set<int> used;
  for (const auto& [a, b] : edges) {
    ASSERT_TRUE(a >= 0 && a < kPoseLandmarks && b >= 0 && b < kPoseLandmarks);
    EXPECT_NE(a, b);
    used.insert(a);
    used.insert(b);
    // An edge stays on one side of the body, except across it (shoulders, hips, mouth) and
    // from the nose.
    if (PoseLandmarkSide(a) != PoseLandmarkSide(b)) {
      EXPECT_TRUE(a == 0 || (a == 11 && b == 12) || (a == 23 && b == 24) || (a == 9 && b == 10)) << a << "-" << b;
    }
  }
  EXPECT_EQ(used.size(), 33u);  // every body landmark is drawn as part of the skeleton
}

TEST(PoseLandmarks, AlignmentPointRoi) {
  // Upright body: the scale point above the centre -> no rotation, side 2 * 100 * 1.5.
  SquareRoi r = RoiFromAlignmentPoints(100, 200, 100, 100);
  EXPECT_FLOAT_EQ(r.cx, 100);
  EXPECT_FLOAT_EQ(r.cy, 200);
  EXPECT_FLOAT_EQ(r.side, 300);
  EXPECT_NEAR(r.rotation, 0.f, 1e-6);
  // Lying body, scale point to the right: the crop's "up" (top centre) must point at it.
  r = RoiFromAlignmentPoints(100, 200, 200, 200);
  EXPECT_NEAR(r.rotation, M_PI / 2, 1e-6);
  float x, y;
  RoiToImage(r, 0.5f, 0.f, &x, &y);
  EXPECT_NEAR(x, 250.f, 1e-3);
  EXPECT_NEAR(y, 200.f, 1e-3);
  // ... and the crop's left edge points down the photo (a rotation, not a mirror).
  RoiToImage(r, 0.f, 0.5f, &x, &y);
  EXPECT_NEAR(x, 100.f, 1e-3);
  EXPECT_NEAR(y, 50.f, 1e-3);
}

TEST(PoseLandmarks, WholeImageLetterboxCropIsExact) {
  Image photo;
  photo.width = 40;
  photo.height = 30;
  for (int i = 0; i < 40 * 30 * 3; ++i) photo.rgb.push_back(static_cast<uint8_t>(1 + (i * 7) % 250));
  const SquareRoi r = WholeImageRoi(40, 30);
  EXPECT_FLOAT_EQ(r.side, 40.f);
  const Image crop = CropRoi(photo, r, 40);
  // Sampled at the photo's pixel centres: a copy, 5 black rows above and below.
  for (int y = 0; y < 40; ++y)
    for (int x = 0; x < 40; ++x)
      for (int c = 0; c < 3; ++c) {
        const uint8_t got = crop.rgb[(static_cast<size_t>(y) * 40 + x) * 3 + c];
        const uint8_t want = (y < 5 || y >= 35) ? 0 : photo.rgb[(static_cast<size_t>(y - 5) * 40 + x) * 3 + c];
        ASSERT_EQ(got, want) << x << "," << y << " channel " << c;
      }
}

TEST(PoseLandmarks, RotatedCropMapsBackToThePhoto) {
  // One bright pixel; a rotated, scaled ROI; the brightest crop pixel maps back onto it.
  Image photo;
  photo.width = 60;
  photo.height = 50;
  photo.rgb.assign(60 * 50 * 3, 0);
  const int px = 41, py = 17;
  for (int c = 0; c < 3; ++c) photo.rgb[(static_cast<size_t>(py) * 60 + px) * 3 + c] = 255;
  const SquareRoi r = RoiFromAlignmentPoints(30, 25, 20, 12);  // tilted up and to the left
  const int size = 64;
  const Image crop = CropRoi(photo, r, size);
  int bi = 0, bj = 0, best = -1;
  for (int j = 0; j < size; ++j)
    for (int i = 0; i < size; ++i)
      if (crop.rgb[(static_cast<size_t>(j) * size + i) * 3] > best) {
        best = crop.rgb[(static_cast<size_t>(j) * size + i) * 3];
        bi = i, bj = j;
      }
  ASSERT_GT(best, 0);
  float x, y;
  RoiToImage(r, (bi + 0.5f) / size, (bj + 0.5f) / size, &x, &y);
  EXPECT_NEAR(x, px + 0.5f, 1.0f);
  EXPECT_NEAR(y, py + 0.5f, 1.0f);
}

TEST(PoseLandmarks, DecodeMapsInputPixelsThroughTheRoi) {
  // Landmark at input (64, 192) of 256, z 32, visibility logit 0, presence logit 2; the ROI is
  // a 512x256 photo letterboxed (side 512, centred at (256,128)).
  const float raw[10] = {64, 192, 32, 0, 2, 128, 128, 0, -100, 100};
  const std::vector<PoseLandmark> l = DecodePoseLandmarks(raw, 2, 256, WholeImageRoi(512, 256));
  ASSERT_EQ(l.size(), 2u);
  EXPECT_FLOAT_EQ(l[0].x, 128.f);
  EXPECT_FLOAT_EQ(l[0].y, 256.f);
  EXPECT_FLOAT_EQ(l[0].z, 64.f);
  EXPECT_FLOAT_EQ(l[0].visibility, 0.5f);
  EXPECT_NEAR(l[0].presence, 1.f / (1.f + std::exp(-2.f)), 1e-6);
  EXPECT_FLOAT_EQ(l[1].x, 256.f);  // the input's centre is the ROI's centre
  EXPECT_FLOAT_EQ(l[1].y, 128.f);
  EXPECT_NEAR(l[1].visibility, 0.f, 1e-6);
  EXPECT_NEAR(l[1].presence, 1.f, 1e-6);
}

TEST(PoseLandmarks, SkeletonDrawsOnlyVisibleLandmarks) {
  Image im;
  im.width = im.height = 100;
  im.rgb.assign(100 * 100 * 3, 0);
  std::vector<PoseLandmark> l(kPoseModelLandmarks);
  for (PoseLandmark& p : l) p.x = p.y = 90, p.visibility = 0.1f;  // all hidden, at (90,90)
  l[11].x = 20, l[11].y = 50, l[11].visibility = 0.9f;  // left shoulder
  l[12].x = 60, l[12].y = 50, l[12].visibility = 0.9f;  // right shoulder
  l[13].x = 20, l[13].y = 10, l[13].visibility = 0.4f;  // left elbow: below the threshold
  DrawPoseSkeleton(&im, l, 0.5f);
  auto lit = [&](int x, int y) { return im.rgb[(static_cast<size_t>(y) * 100 + x) * 3 + 1] > 0; };
  EXPECT_TRUE(lit(40, 50));   // on the shoulder line
  EXPECT_TRUE(lit(20, 50));   // a shoulder dot
  EXPECT_FALSE(lit(20, 25));  // no shoulder -> elbow line
  EXPECT_FALSE(lit(90, 90));  // hidden landmarks
}

TEST(DemoCommon, JsonStringEscapes) {
  EXPECT_EQ(JsonString("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
}
