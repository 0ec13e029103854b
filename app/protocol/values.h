// The protocol's enumerated values (docs/protocol.md), each a C++ enum with one name table in
// values.cpp: how a value is spelled in the JSON is written there and nowhere else
// (tst_field_spelling checks). A name that is not in the table, read from a file or from a
// runner (a newer one's, or a damaged one), decodes to the enum's Unknown: never a crash, and
// the caller says in a sentence what it could not read where that matters.
#pragma once

#include "gpu_specs.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace gemmscope::protocol {

// How a run is timed (the request's timing.regime, the result's conditions.regime): from an idle
// GPU, or after running at load until the clock settles.
enum class TimingRegime { Burst, Sustained, Unknown };

// Why timing stopped (conditions.stopped_by): the noise target was met, the budget or the
// repetition limit was reached, or (burst) the clock fell. None: not said (older results).
enum class StopReason { None, Noise, Budget, MaxReps, ClockDrop, Unknown };

// What the driver said held the clock down (conditions.throttle_reasons).
enum class ThrottleReason { PowerCap, Thermal, HwSlowdown, PowerBrake, Unknown };

// The kernel binary a run or profile asks for (build): as the ladder builds it, or with the
// shared-memory reads made scalar.
enum class BuildKind { Release, ScalarShared, Unknown };

// How FP32 inputs become TF32 on GemmScope's TF32 stages (tf32_rounding): rounded to nearest, or
// truncated (the raw FP32 bits).
enum class Tf32Rounding { Rna, Truncate, Unknown };

// The run request's test hook (test_damage): what the runner spoils on purpose.
enum class TestDamage { SkipLaunch, CorruptElement, Unknown };

// Where a kernel's registers and shared memory come from (compiled.resources_source): ptxas's -v
// report, or the CUDA runtime's attributes of the loaded kernel.
enum class ResourcesSource { Ptxas, CudaRuntime, Unknown };

// Where a result's SM clock comes from (sm_clock_source): the datasheet's.
enum class ClockSource { Nominal, Unknown };

// What a job is doing when it reports progress (progress.phase): compiling, disassembling, preparing
// inputs and the reference, cooling down (burst) or running at load (sustained), timing, verifying,
// reading counters; a ceilings job's measurements; a profile job's parts (ProfilePart's names).
enum class ProgressPhase {
    Compile,
    Disassemble,
    Inputs,
    Reference,
    Cooldown,
    LoadWarmup,
    Timing,
    Verify,
    Counters,
    L2,
    Shared,
    Fma,
    Dram,
    Tf32,
    Stalls,
    Instructions,
    Limiters,
    Unknown
};

// What limits a kernel's occupancy (compiled.occupancy.limiter): the calculator's own enum
// (kernels/gpu_specs.h), spelled here. None is the runner's "none" (the CUDA runtime counted the
// blocks); a name this build does not know reads as OccupancyLimiter::Unknown, and an empty one
// (a run compiled without an occupancy) as no limiter at all (nullopt).
using gemmscope::OccupancyLimiter;

// Each value's one spelling; empty for Unknown (and StopReason::None).
QString valueName(TimingRegime value);
QString valueName(StopReason value);
QString valueName(ThrottleReason value);
QString valueName(BuildKind value);
QString valueName(Tf32Rounding value);
QString valueName(TestDamage value);
QString valueName(ResourcesSource value);
QString valueName(ClockSource value);
QString valueName(ProgressPhase value);
QString valueName(OccupancyLimiter value);
QString valueName(std::optional<OccupancyLimiter> value); // empty for none

// The value a name spells; Unknown for any other name (StopReason: None for an empty one).
TimingRegime timingRegimeFromName(const QString &name);
StopReason stopReasonFromName(const QString &name);
ThrottleReason throttleReasonFromName(const QString &name);
BuildKind buildKindFromName(const QString &name);
Tf32Rounding tf32RoundingFromName(const QString &name);
TestDamage testDamageFromName(const QString &name);
ProgressPhase progressPhaseFromName(const QString &name);
std::optional<OccupancyLimiter> occupancyLimiterFromName(const QString &name); // nullopt for ""

// Every known name of a set, in the table's order, for a refusal's "known: burst, sustained".
QStringList timingRegimeNames();
QStringList stopReasonNames();
QStringList buildKindNames();
QStringList tf32RoundingNames();

// Names as a refusal lists them: "\"noise\", \"budget\" or \"max_reps\"".
QString quotedNames(const QStringList &names);

QStringList throttleReasonNames(const QList<ThrottleReason> &reasons);
QList<ThrottleReason> throttleReasonsFromNames(const QStringList &names);

} // namespace gemmscope::protocol
