// Tensor maps for the stages that read their operands with TMA (StageInfo::tensorMaps): encoded on
// the host by the driver's cuTensorMapEncodeTiled, reached through the runtime
// (cudaGetDriverEntryPointByVersion), so the runner still does not link libcuda.
#pragma once

#include "stage_catalog.h"

namespace gemmscope::runner {

// The driver's CUtensorMap, passed by value as a kernel parameter (gemmscope::TensorMap in tma.cuh).
struct alignas(128) TensorMapBytes {
    unsigned char bytes[128] = {};
};

// Floats between rows of a matrix a tensor map reads: its row pitch must be a multiple of 16 bytes,
// so K is rounded up to a multiple of 4 (the padding is never read: it lies outside the map).
int tensorMapPitch(int k);

// A row-major rows x cols FP32 matrix with rows `pitch` floats apart, copied in boxes of boxRows x
// boxCols floats into 128-byte-swizzled shared tiles (boxCols x 4 must be 128); a box that runs past
// the matrix arrives zero-filled. With `tf32` the copy engine converts each element to TF32 as it
// copies. Throws launch_error with the driver's reason.
TensorMapBytes encodeTileMap(const float *base, int rows, int cols, int pitch, int boxRows, int boxCols,
                             bool tf32 = false);

// The two maps a `tensorMaps` stage takes after its usual arguments: A (M x K) in boxes of the
// A-box parameter's rows, and BT (N x K) in boxes of the BT-box parameter's rows, both K-major —
// or, for `rowMajorB`, B itself (K x N) in boxes of boxK rows x bBoxColumns floats.
struct OperandMaps {
    TensorMapBytes a, b;
};
// `b` is BT (rows `pitchA` floats apart, as A's), or B with rows `pitchB` apart for rowMajorB.
// `roundTf32`: the run rounds its TF32 inputs (the copy engine then converts A where the stage's
// aCopyRoundsParam says so).
OperandMaps encodeOperandMaps(const StageInfo &stage, const ParamValues &params, const float *a,
                              const float *b, const ProblemSize &size, int pitchA, int pitchB,
                              bool roundTf32 = false);

} // namespace gemmscope::runner
