// Reads what `ptxas -v` (NVRTC's --ptxas-options=-v) printed about one kernel: registers, spills,
// stack frame and static shared memory. The figures are what the GUI shows next to a run and what
// the occupancy calculation uses.
#pragma once

#include <QString>

namespace gemmscope::runner {

struct PtxasInfo {
    bool found = false; // the log had a "Used N registers" line for the kernel
    int registers = -1;
    int spillStoreBytes = 0;
    int spillLoadBytes = 0;
    int stackFrameBytes = 0;
    int staticSmemBytes = 0;
};

// `loweredName` selects the entry function when the log describes several; empty takes the first.
PtxasInfo parsePtxasLog(const QString &log, const QString &loweredName = {});

} // namespace gemmscope::runner
