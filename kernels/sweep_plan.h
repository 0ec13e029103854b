// Sweep planning: a stage, two of its parameters as the axes of a grid, the other parameters fixed
// or searched ("best over the rest"), one problem size and one timing budget become a list of
// cells, each holding the configurations (points) that decide it. Every point is checked by the
// catalog's violations() here, so an invalid one carries the catalog's sentence and is never sent
// to a runner. Plain C++20, no Qt: the GUI, gemmscope-bench and the tests share it.
#pragma once

#include "stage_catalog.h"

#include <cstddef>
#include <string>
#include <vector>

namespace gemmscope {

struct SweepAxis {
    std::string param;       // a parameter of the stage: "BM"
    std::vector<int> values; // empty: every legal value (its choices, or min..max by step)
    friend bool operator==(const SweepAxis &, const SweepAxis &) = default;
};

// A parameter sweep (two parameters of one stage on a grid) or a problem-size sweep (chosen
// stages or presets, each over a list of sizes: one curve per series).
enum class SweepKind { Grid, Sizes };

// One curve of a size sweep: a stage with its parameters (a preset's, or cuBLAS with none).
struct SizeSeries {
    StageId stage = StageId::Final;
    ParamValues params;
    std::string label; // the preset's key ("worklog-8") or the stage's key
    friend bool operator==(const SizeSeries &, const SizeSeries &) = default;
};

// The shapes a size sweep offers: square (M = N = K = s) and the worklog's aspect ratio
// 8192:4096:6144 scaled (M = s, N = s/2, K = 3s/4).
enum class SizeShape { Square, WorklogAspect };

// The sizes of a size sweep whose largest dimension runs from `from` to `to`: powers of two and,
// with `midpoints`, the sizes halfway between two (1.5 x a power of two: 384, 768, ...).
std::vector<ProblemSize> sizeSweepSizes(SizeShape shape, long long from, long long to, bool midpoints);

enum class SweepRest {
    Fixed,        // the other parameters take the values in SweepSpec::fixed (else their defaults)
    BestOverRest, // every combination of the other parameters is tried; a cell shows its best
};

struct SweepSpec {
    SweepKind kind = SweepKind::Grid;
    // Sizes: the curves and the sizes (every series at every size); the fields below that name
    // one stage, axis or size are the grid's (stage and size then mirror the first series/size).
    std::vector<SizeSeries> series;
    std::vector<ProblemSize> sizes;
    StageId stage = StageId::Final;
    SweepAxis x, y;
    SweepRest rest = SweepRest::Fixed;
    ParamValues fixed; // values of the non-axis parameters (Fixed); missing ones take the default
    ProblemSize size{4096, 4096, 4096};
    int budgetMs = 30;    // timing budget of each configuration
    bool flushL2 = false; // flush L2 between repetitions (cold L2)
    // Best over the rest multiplies quickly (the final stage's BK x TM x TN is 6 x 8 x 8 = 384 per
    // cell): a plan with more points than this is refused with a sentence instead of run.
    std::size_t maxPoints = 20000;
    friend bool operator==(const SweepSpec &, const SweepSpec &) = default;
};

// One configuration of the sweep.
struct SweepPoint {
    int cell = -1;                  // index into SweepPlan::cells
    StageId stage = StageId::Final; // a grid's: the spec's stage; a size sweep's: its series'
    ProblemSize size{4096, 4096, 4096};
    ParamValues params;
    std::vector<std::string> invalid; // the catalog's sentences; empty: the point may run
    bool valid() const { return invalid.empty(); }
};

struct SweepCell {
    int xIndex = 0, yIndex = 0; // position on the axes
    int x = 0, y = 0;           // the axis parameters' values (a size sweep: size and series index)
    std::vector<int> points;    // indices into SweepPlan::points
    int validPoints = 0;
    // The catalog's sentence for a cell none of whose points may run (the first point's first
    // sentence, where all points share it the reason of the cell); empty when some point may run.
    std::string invalidReason;
    bool valid() const { return validPoints > 0; }
};

struct SweepPlan {
    SweepSpec spec;
    // Grid: the axis parameters' values. Sizes: x the index of a size, y the index of a series.
    std::vector<int> xValues, yValues;
    std::vector<SweepCell> cells; // row-major: yIndex * xValues.size() + xIndex
    std::vector<SweepPoint> points;
    std::string error; // non-empty: no plan (unknown stage or axis, too many points), this says why
    bool ok() const { return error.empty(); }
    std::size_t validPointCount() const;
    const SweepCell *cellAt(int xIndex, int yIndex) const;
};

// Every legal value of a parameter: its choices, or min..max by step.
std::vector<int> legalValues(const ParamSpec &spec);

// A grid plan, or (kind Sizes) one cell and one point per series and size, each checked by the
// catalog like a grid's (a size the stage refuses carries the catalog's sentence).
SweepPlan planSweep(const SweepSpec &spec);

// "final|BM=64 BN=128 BK=8 TM=4 TN=4|4096x4096x4096": what identifies a configuration's result
// across runs of a sweep (resume matches finished points by it, never by position).
std::string sweepPointKey(StageId stage, const ParamValues &params, const ProblemSize &size);

} // namespace gemmscope
