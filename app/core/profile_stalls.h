// Where a profile's time goes (protocol::ProfileEvent, docs/protocol.md "Profile"): the PC samples
// by stall reason over the kernel, in words, and folded onto the CUDA source lines and SASS
// instructions they fall on. Values from files and runners: nothing here throws or divides by zero.
#pragma once

#include "profile_values.h"

#include <QList>
#include <QMap>
#include <QString>
#include <optional>

namespace gemmscope {

struct ReasonShare {
    QString key;        // "mio_throttle"
    double samples = 0; // PC samples with this reason
    double share = 0;   // of the samples it is a share of, in [0, 1]
};

// Where the time goes over a whole kernel (every instruction of the profile).
struct StallBreakdown {
    double totalSamples = 0;    // sum over instructions and reasons
    QList<ReasonShare> reasons; // by samples, most first; ties by the reason table's order
    // "Most samples: shared-memory/MIO queue full (46 % of samples), then ..." —
    // empty when there are no samples.
    QString sentence() const;
};
StallBreakdown stallBreakdown(const protocol::ProfileEvent &profile);

// The samples of `samples` by reason, most first (the shares are of `total`).
QList<ReasonShare> sortedReasons(const QMap<QString, double> &samples, double total);

// The PC samples of one CUDA source line (file without directory, 1-based line), summed over
// the SASS instructions built from it.
struct LineProfile {
    QString file;
    int line = 0;
    double samples = 0;
    double share = 0;                            // of all the profile's samples
    QMap<QString, double> byReason;              // samples by reason
    QList<ReasonShare> reasons;                  // byReason sorted, most first; shares of this line's samples
    int instructions = 0;                        // SASS instructions of the profile on this line
    QList<long long> pcs;                        // their offsets, ascending
    QString topReasonsText(int count = 2) const; // "62 % shared-memory/MIO queue full; ..."
};

// Folds the instructions onto their source lines: one entry per (file, line), hottest first
// (ties: by file, then line). Instructions without a line (cuBLAS, a CUBIN without -lineinfo)
// are left out; unattributedSamples says how many samples they hold.
QList<LineProfile> foldOntoLines(const protocol::ProfileEvent &profile,
                                 double *unattributedSamples = nullptr);

// One SASS instruction's heat, for the SASS tab (one per instruction of the profile).
struct InstructionHeat {
    const protocol::ProfileInstruction *instruction = nullptr; // into the profile it came from
    double samples = 0;
    double share = 0; // of all samples
    QList<ReasonShare> reasons;
    QString topReasonsText(int count = 2) const;
};
QList<InstructionHeat> instructionHeat(const protocol::ProfileEvent &profile);

// The function most of the samples fall in (the GEMM kernel rather than a transpose launched
// with it); with no samples, the function of the most instructions; empty for no instructions.
QString mainFunction(const protocol::ProfileEvent &profile);
// The byte offset nvdisasm or cuobjdump prints at the start of a SASS line ("/*0240*/ ..."), or
// nothing for a line that is no instruction.
std::optional<long long> sassLineOffset(const QString &line);

} // namespace gemmscope
