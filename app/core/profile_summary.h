// A profile folded for reading (issue 23): stall samples by reason over the whole kernel, and
// samples per CUDA source line (instructions folded through their -lineinfo line) or, where a
// kernel has no line table (cuBLAS), per instruction. What gemmscope-bench --profile prints; the
// views may use it too.
#pragma once

#include "events.h"

#include <QList>
#include <QMap>
#include <QString>

namespace gemmscope {

struct StallShare {
    QString reason; // CUPTI's name without its prefix: "long_scoreboard"
    double samples = 0;
    double share = 0; // of every sample of the kernel, 0..1
};

// Every reason, most samples first (ties by name).
QList<StallShare> stallShares(const protocol::ProfileEvent &profile);

struct SampledLine {
    QString file; // empty where the kernel has no line table: then `pc` and `sass` name the instruction
    int line = 0;
    long long pc = -1; // the first instruction of the line (by pc)
    QString sass;
    double samples = 0;
    double share = 0;  // of every sample of the kernel, 0..1
    QString topReason; // its reason with the most samples
    QMap<QString, double> stalls;
    QString where() const; // "final.cuh:41", or "pc 0x0670 LDS.128 ..." without a line
};

// Instructions folded onto their source lines (by file and line); instructions without a line
// stand alone. Most samples first (ties by place).
QList<SampledLine> sampledLines(const protocol::ProfileEvent &profile);

// The kernel's samples over every instruction (CUPTI's total_samples where the event has it).
double totalSamples(const protocol::ProfileEvent &profile);

} // namespace gemmscope
