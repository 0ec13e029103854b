#include "progress_phase_words.h"

#include <QCoreApplication>

namespace gemmscope {

namespace {

struct PhaseWords {
    Q_DECLARE_TR_FUNCTIONS(ProgressPhase)
};

} // namespace

QString phaseWords(protocol::ProgressPhase phase)
{
    using protocol::ProgressPhase;
    switch (phase) {
    case ProgressPhase::Compile:
        return PhaseWords::tr("compiling");
    case ProgressPhase::Disassemble:
        return PhaseWords::tr("disassembling");
    case ProgressPhase::Inputs:
        return PhaseWords::tr("preparing the inputs");
    case ProgressPhase::Reference:
        return PhaseWords::tr("computing the reference");
    case ProgressPhase::Cooldown:
        return PhaseWords::tr("waiting for an idle GPU");
    case ProgressPhase::LoadWarmup:
        return PhaseWords::tr("running at load until the clock settles");
    case ProgressPhase::Timing:
        return PhaseWords::tr("timing");
    case ProgressPhase::Verify:
        return PhaseWords::tr("verifying the result");
    case ProgressPhase::Counters:
        return PhaseWords::tr("reading the counters");
    case ProgressPhase::L2:
        return PhaseWords::tr("measuring L2 bandwidth");
    case ProgressPhase::Shared:
        return PhaseWords::tr("measuring shared-memory bandwidth");
    case ProgressPhase::Fma:
        return PhaseWords::tr("measuring FP32 throughput");
    case ProgressPhase::Dram:
        return PhaseWords::tr("measuring DRAM bandwidth");
    case ProgressPhase::Tf32:
        return PhaseWords::tr("measuring TF32 throughput");
    case ProgressPhase::Stalls:
        return PhaseWords::tr("sampling stalls");
    case ProgressPhase::Instructions:
        return PhaseWords::tr("counting instructions");
    case ProgressPhase::Limiters:
        return PhaseWords::tr("reading the limiters");
    case ProgressPhase::Unknown: // a newer runner's phase
        break;
    }
    return PhaseWords::tr("a step this GemmScope does not know");
}

} // namespace gemmscope
