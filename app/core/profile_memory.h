// How each global and shared memory instruction of a profile does against its ideal (sectors or
// wavefronts per request), with a verdict in words; beside it, where the stage has an access model
// (kernels/access_model.h), the model's figure for the same class of access. The measured figures
// never need the model.
#pragma once

#include "profile_values.h"
#include "stage_types.h"

#include <QList>
#include <QString>
#include <optional>

namespace gemmscope {

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
    friend bool operator==(const ModelFigures &, const ModelFigures &) = default;
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
// The same over `memory`, the profile's memoryInstructions() made once (ProfileDigest::memory).
std::optional<MeasuredClass> measuredClass(const QList<MemoryInstruction> &memory, MemorySpace space,
                                           MemoryDirection direction, std::optional<Operand> operand);

// The sentence the coalescing and bank views put under their diagram: the measured figure of the
// class of the instruction they show (an operand's global loads, a tile's shared reads), beside
// the model's figure for it (`model`, empty: none). Falls back to every operand's instructions
// where the source lines do not say which matrix; says why where the profile has no figure.
QString measuredBesideModel(const protocol::ProfileEvent &profile, MemorySpace space,
                            MemoryDirection direction, std::optional<Operand> operand,
                            std::optional<double> model);
// The same with the profile's memoryInstructions() made once (`memory`: ProfileDigest::memory).
QString measuredBesideModel(const protocol::ProfileEvent &profile, const QList<MemoryInstruction> &memory,
                            MemorySpace space, MemoryDirection direction, std::optional<Operand> operand,
                            std::optional<double> model);

} // namespace gemmscope
