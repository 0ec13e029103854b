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

enum class SweepRest {
    Fixed,        // the other parameters take the values in SweepSpec::fixed (else their defaults)
    BestOverRest, // every combination of the other parameters is tried; a cell shows its best
};

struct SweepSpec {
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
    int cell = -1; // index into SweepPlan::cells
    ParamValues params;
    std::vector<std::string> invalid; // the catalog's sentences; empty: the point may run
    bool valid() const { return invalid.empty(); }
};

struct SweepCell {
    int xIndex = 0, yIndex = 0; // position on the axes
    int x = 0, y = 0;           // the axis parameters' values
    std::vector<int> points;    // indices into SweepPlan::points
    int validPoints = 0;
    // The catalog's sentence for a cell none of whose points may run (the first point's first
    // sentence, where all points share it the reason of the cell); empty when some point may run.
    std::string invalidReason;
    bool valid() const { return validPoints > 0; }
};

struct SweepPlan {
    SweepSpec spec;
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

SweepPlan planSweep(const SweepSpec &spec);

// "final|BM=64 BN=128 BK=8 TM=4 TN=4|4096x4096x4096": what identifies a configuration's result
// across runs of a sweep (resume matches finished points by it, never by position).
std::string sweepPointKey(StageId stage, const ParamValues &params, const ProblemSize &size);

} // namespace gemmscope
