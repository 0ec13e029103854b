// A `profile` event (protocol::ProfileEvent, docs/protocol.md "Profile") read the way a user asks
// about it: where the time goes (PC samples by stall reason over the kernel, in words), which
// source lines and SASS instructions they fall on, and how each global and shared memory
// instruction does against its ideal (sectors per request, wavefronts per request) with a verdict
// in words; beside them, where a stage has an access model (kernels/access_model.h), the model's
// figure for the same class of access. The measured figures never need the model.
//
// Values come from files and runners: a NaN, a negative or an infinite count is treated as no
// count (0 samples, an absent metric); nothing here throws or divides by zero.
#pragma once

#include "events.h"
#include "stage_types.h"

#include <QList>
#include <QMap>
#include <QString>
#include <optional>

namespace gemmscope {

// A sample count or metric as the analysis uses it: finite and >= 0, else nothing.
std::optional<double> usableCount(double value);
// A share in [0, 1] as the views print it: "48 %", "3.8 %", "<0.1 %" (a few samples), "0 %".
QString shareText(double share);

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
    QString topReasonsText(int count = 2) const; // "shared-memory/MIO queue full 62 %, ..."
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

// ---- memory instructions ----

enum class MemorySpace { Global, Shared };
enum class MemoryDirection { Load, Store };

enum class MemoryVerdict {
    Ideal,       // at the ideal (within 5 %): coalesced, or no bank conflict
    Excess,      // above the ideal: uncoalesced, or bank conflicts
    NotJudged,   // no ideal (or no figure) was measured for it
    NotExecuted, // the instruction never ran (0 executions)
};

struct MemoryInstruction {
    const protocol::ProfileInstruction *instruction = nullptr;
    MemorySpace space = MemorySpace::Global;
    MemoryDirection direction = MemoryDirection::Load;
    double executions = 0;                 // warp-level executions (inst_executed)
    std::optional<double> perRequest;      // sectors (global) or wavefronts (shared) per request
    std::optional<double> idealPerRequest; // the same, ideal
    MemoryVerdict verdict = MemoryVerdict::NotJudged;
    QString verdictText; // "4.0 sectors per request = ideal: coalesced"
    QString reason;      // why, in a sentence
    // A, B or C where the source line says which matrix (tile); for a global load whose line does
    // not (loadOrZero's body), the line of the shared store that writes its register into a tile.
    std::optional<Operand> operand;
    QString opcode() const; // "LDG.E.128" from the SASS; else from the metrics ("global load")
    // Sectors (wavefronts) over the ideal, summed over the launch: what the excess costs (Nsight
    // Compute's "excessive sectors"); 0 at or under the ideal, or without figures.
    double excess() const;
    QString kindText() const; // "global load", "shared store"
};

// The instructions that move global or shared memory (by their metrics, else their opcode), in
// program order. The figures: sectors_mem_global(_ideal) / inst_executed for global,
// l1tex_pipe_lsu_wavefronts_mem_shared(_ideal) / inst_executed for shared (docs/protocol.md).
QList<MemoryInstruction> memoryInstructions(const protocol::ProfileEvent &profile);
// The verdict for a measured figure against its ideal, in words (public for its tests).
void judge(MemoryInstruction &m);
// Which matrix a source line reads or writes ("tileB[k][...]", "loadOrZero(A, ...", "C[...]"): the
// one named, or nothing when it names none or several.
std::optional<Operand> operandOfSourceLine(const QString &lineText);

// The access model's figures for one configuration (one interior block, every warp), per class of
// access; empty members where the model has no such access.
struct ModelFigures {
    std::optional<double> loadA, loadB, storeC;         // sectors per request
    std::optional<double> sharedLoads, sharedStores;    // wavefronts per request, A and B together
    std::optional<double> sharedLoadsA, sharedLoadsB;   // the inner loop's reads of each tile
    std::optional<double> sharedStoresA, sharedStoresB; // the fills of each tile
    QString whyNone; // the model's sentence where it cannot describe the stage (then all empty)
};
ModelFigures modelFigures(const KernelShape &shape, const ProblemSize &size);

// The model's figure for a measured instruction's class of access, and what it is ("model: B load,
// 16.0 sectors per request"); nothing where the model has none. A global load whose line names no
// matrix takes the loads' figure when A's and B's agree.
struct ModelComparison {
    double perRequest = 0;
    QString what; // "the model's B loads"
};
std::optional<ModelComparison> modelFor(const MemoryInstruction &m, const ModelFigures &model);

// The measured figure over every instruction of one class (an operand's global loads, the shared
// stores...): sums of sectors (wavefronts) over sums of executions. Nothing where the profile has
// no such instruction. `operand` empty: every operand.
struct MeasuredClass {
    double perRequest = 0;
    std::optional<double> idealPerRequest;
    int instructions = 0;
    double executions = 0;
    QString where; // "common.cuh:30, :31" — the source lines, or the opcodes where there are none
};
std::optional<MeasuredClass> measuredClass(const protocol::ProfileEvent &profile, MemorySpace space,
                                           MemoryDirection direction, std::optional<Operand> operand);

// The sentence the coalescing and bank views put under their diagram: the measured figure of the
// class of the instruction they show (an operand's global loads, a tile's shared reads), beside
// the model's figure for it (`model`, empty: none). Falls back to every operand's instructions
// where the source lines do not say which matrix; says why where the profile has no figure.
QString measuredBesideModel(const protocol::ProfileEvent &profile, MemorySpace space,
                            MemoryDirection direction, std::optional<Operand> operand,
                            std::optional<double> model);

// ---- "Why not cuBLAS?" ----

enum class LimiterGroup { Occupancy, Pipes, Memory, Stalls, Mix };

struct LimiterRow {
    QString key;   // the CUPTI metric, "stall:<reason>" or "mix:<pipe>"
    QString label; // "Achieved occupancy"
    LimiterGroup group = LimiterGroup::Occupancy;
    std::optional<double> candidate, baseline; // % (0..100 for the views; a file may say more)
    QString meaning;                           // what a higher value says, for the sentence and tooltips
};

struct BaselineComparison {
    QList<LimiterRow> rows;                // in the groups' order
    QString largestDifference;             // a sentence naming it; empty when no row has both values
    QString candidateNotes, baselineNotes; // the parts that failed (their error sentences)
};
BaselineComparison compareWithBaseline(const protocol::ProfileEvent &candidate,
                                       const protocol::ProfileEvent &baseline, const QString &candidateName,
                                       const QString &baselineName);
QString limiterGroupTitle(LimiterGroup group);

} // namespace gemmscope
