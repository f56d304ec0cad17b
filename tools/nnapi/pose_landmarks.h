// Pre- and post-processing for MediaPipe's BlazePose landmark models (pose_landmark_lite|full|
// heavy.tflite), following pose_landmark_by_roi_cpu.pbtxt and
// tensors_to_pose_landmarks_and_segmentation.pbtxt:
//   input [1,256,256,3] RGB in [0,1]: a square region of interest (ROI) of the photo, sampled
//     with its aspect ratio kept (pixels outside the photo are black);
//   output 0 [1,195]: 39 landmarks x (x, y, z, visibility, presence); x/y in input pixels, z in
//     the same scale, visibility and presence logits (sigmoid). Landmarks 0..32 are the body,
//     33 (body centre, between the hips) and 34 (a point whose distance from the centre gives
//     the body's scale) are the auxiliary landmarks MediaPipe derives the next ROI from; the
//     rest are unused;
//   output 1 [1,1]: pose presence, already a probability (threshold 0.5).
// The heatmap refinement of MediaPipe's graph (RefineLandmarksFromHeatmapCalculator, output 3)
// is not applied.
#pragma once

#include <utility>
#include <vector>

#include "image_io.h"

namespace nnapi_cli {

constexpr int kPoseLandmarks = 33;       // body landmarks, nose .. right_foot_index
constexpr int kPoseModelLandmarks = 39;  // rows of output 0
constexpr int kPoseValuesPerLandmark = 5;

// "nose", "left_eye_inner", ..., "right_foot_index" (MediaPipe's order); nullptr out of range.
const char* PoseLandmarkName(int index);
// +1 for the subject's left side (left_*, mouth_left), -1 for the right, 0 for the nose.
int PoseLandmarkSide(int index);
// MediaPipe's standard POSE_CONNECTIONS: pairs of body landmark indices (35 edges).
const std::vector<std::pair<int, int>>& PoseConnections();

// A square of the photo, in photo pixels, rotated by `rotation` radians (clockwise on screen,
// i.e. from the x axis towards the y axis, which points down).
struct SquareRoi {
  float cx = 0, cy = 0, side = 0, rotation = 0;
};
// The whole photo, letterboxed: a centred square with side max(width, height).
SquareRoi WholeImageRoi(int width, int height);
// MediaPipe's pose_landmarks_to_roi: centred on `center`, side 2 * |scale - center| * 1.5, and
// rotated so that the centre -> scale vector points up in the crop.
SquareRoi RoiFromAlignmentPoints(float center_x, float center_y, float scale_x, float scale_y);

// Samples the ROI into a size x size image (bilinear; black outside the photo).
Image CropRoi(const Image& photo, const SquareRoi& roi, int size);
// A point of the ROI given as fractions (u, v) of its side (0,0 = top left) -> photo pixels.
void RoiToImage(const SquareRoi& roi, float u, float v, float* x, float* y);

struct PoseLandmark {
  float x = 0, y = 0, z = 0;  // photo pixels; z relative depth in the scale of x (smaller = nearer)
  float visibility = 0, presence = 0;  // probabilities
};
// Decodes `count` landmarks of output 0 (raw, count * 5 floats) predicted on the ROI sampled at
// input_size x input_size, into photo pixels.
std::vector<PoseLandmark> DecodePoseLandmarks(const float* raw, int count, int input_size, const SquareRoi& roi);

// Draws the connections (lines) and landmarks (dots) whose visibility is >= min_visibility.
// The subject's left side in orange, the right side in cyan, the nose and edges across the body
// in white.
void DrawPoseSkeleton(Image* image, const std::vector<PoseLandmark>& landmarks, float min_visibility);

}  // namespace nnapi_cli
