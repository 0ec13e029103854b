// "New from stage…": a catalog stage's source turned into a user's kernel. The stage's .cuh is
// copied as it is, under a parameter block written from what the catalog knows: every parameter
// with its range or choices and its default (ParamSpec), the precision, the kernel's name. How a
// stage launches and how much shared memory it takes are C++ hooks in the catalog, not
// expressions, so the block's block/grid/shared lines are a starting point computed for the
// stage's default parameters: block and shared as numbers, the grid as ceil_div(N, tile),
// ceil_div(M, tile) where the launch follows that pattern (checked at several sizes), else as
// numbers for one size. A comment above the block says so, and names what the copy must change
// when the stage reads B transposed or through tensor maps (a user's kernel gets the arguments
// every stage has, A, B, C, M, N, K).
#pragma once

#include <QString>

namespace gemmscope {

struct StageInfo;

struct StageKernelCopy {
    QString text;     // the parameter block, the note, then the stage's source
    QString fileName; // "<key>_copy.cuh"
    QString derivedFrom;
};

// Empty text for a stage without a source (cuBLAS).
StageKernelCopy stageKernelCopy(const StageInfo &stage);

} // namespace gemmscope
