#include "values.h"

#include "name_table.h"
#include "protocol.h"

#include <array>
#include <utility>

namespace gemmscope::protocol {

namespace {

// The one spelling of each value. tst_field_spelling reads this file: a name written here may
// not be written as a literal anywhere outside the codecs.
constexpr std::array<std::pair<TimingRegime, const char *>, 2> kTimingRegimes{{
    {TimingRegime::Burst, "burst"},
    {TimingRegime::Sustained, "sustained"},
}};

constexpr std::array<std::pair<StopReason, const char *>, 4> kStopReasons{{
    {StopReason::Noise, "noise"},
    {StopReason::Budget, "budget"},
    {StopReason::MaxReps, "max_reps"},
    {StopReason::ClockDrop, "clock_drop"},
}};

constexpr std::array<std::pair<ThrottleReason, const char *>, 4> kThrottleReasons{{
    {ThrottleReason::PowerCap, "power_cap"},
    {ThrottleReason::Thermal, "thermal"},
    {ThrottleReason::HwSlowdown, "hw_slowdown"},
    {ThrottleReason::PowerBrake, "power_brake"},
}};

constexpr std::array<std::pair<BuildKind, const char *>, 2> kBuildKinds{{
    {BuildKind::Release, "release"},
    {BuildKind::ScalarShared, "scalar_shared"},
}};

constexpr std::array<std::pair<Tf32Rounding, const char *>, 2> kTf32Roundings{{
    {Tf32Rounding::Rna, "rna"},
    {Tf32Rounding::Truncate, "truncate"},
}};

constexpr std::array<std::pair<TestDamage, const char *>, 2> kTestDamages{{
    {TestDamage::SkipLaunch, "skip_launch"},
    {TestDamage::CorruptElement, "corrupt_element"},
}};

constexpr std::array<std::pair<ResourcesSource, const char *>, 2> kResourcesSources{{
    {ResourcesSource::Ptxas, "ptxas"},
    {ResourcesSource::CudaRuntime, "cuda_runtime"},
}};

constexpr std::array<std::pair<ClockSource, const char *>, 1> kClockSources{{
    {ClockSource::Nominal, "nominal"},
}};

constexpr std::array<std::pair<ProgressPhase, const char *>, 17> kProgressPhases{{
    {ProgressPhase::Compile, "compile"},
    {ProgressPhase::Disassemble, "disassemble"},
    {ProgressPhase::Inputs, "inputs"},
    {ProgressPhase::Reference, "reference"},
    {ProgressPhase::Cooldown, "cooldown"},
    {ProgressPhase::LoadWarmup, "load_warmup"},
    {ProgressPhase::Timing, "timing"},
    {ProgressPhase::Verify, "verify"},
    {ProgressPhase::Counters, "counters"},
    {ProgressPhase::L2, "l2"},
    {ProgressPhase::Shared, "shared"},
    {ProgressPhase::Fma, "fma"},
    {ProgressPhase::Dram, "dram"},
    {ProgressPhase::Tf32, "tf32"},
    {ProgressPhase::Stalls, "stalls"},
    {ProgressPhase::Instructions, "instructions"},
    {ProgressPhase::Limiters, "limiters"},
}};

constexpr std::array<std::pair<OccupancyLimiter, const char *>, 6> kOccupancyLimiters{{
    {OccupancyLimiter::Threads, "threads"},
    {OccupancyLimiter::Registers, "registers"},
    {OccupancyLimiter::SharedMemory, "shared_memory"},
    {OccupancyLimiter::Blocks, "blocks"},
    {OccupancyLimiter::Requested, "requested"},
    {OccupancyLimiter::None, "none"},
}};

constexpr std::array<std::pair<ErrorKind, const char *>, 14> kErrorKinds{{
    {ErrorKind::InvalidConfig, "invalid_config"},
    {ErrorKind::CompileError, "compile_error"},
    {ErrorKind::OutOfResources, "out_of_resources"},
    {ErrorKind::LaunchError, "launch_error"},
    {ErrorKind::DeviceFault, "device_fault"},
    {ErrorKind::OutOfMemory, "out_of_memory"},
    {ErrorKind::WrongResult, "wrong_result"},
    {ErrorKind::Cancelled, "cancelled"},
    {ErrorKind::NoGpu, "no_gpu"},
    {ErrorKind::ProtocolError, "protocol_error"},
    {ErrorKind::KernelTimeout, "kernel_timeout"},
    {ErrorKind::RunnerUnavailable, "runner_unavailable"},
    {ErrorKind::RunnerTimeout, "runner_timeout"},
    {ErrorKind::RunnerCrashed, "runner_crashed"},
}};

} // namespace

QString valueName(TimingRegime value)
{
    return detail::nameIn(kTimingRegimes, value);
}

QString valueName(StopReason value)
{
    return detail::nameIn(kStopReasons, value);
}

QString valueName(ThrottleReason value)
{
    return detail::nameIn(kThrottleReasons, value);
}

QString valueName(BuildKind value)
{
    return detail::nameIn(kBuildKinds, value);
}

QString valueName(Tf32Rounding value)
{
    return detail::nameIn(kTf32Roundings, value);
}

QString valueName(TestDamage value)
{
    return detail::nameIn(kTestDamages, value);
}

QString valueName(ResourcesSource value)
{
    return detail::nameIn(kResourcesSources, value);
}

QString valueName(ClockSource value)
{
    return detail::nameIn(kClockSources, value);
}

QString valueName(ProgressPhase value)
{
    return detail::nameIn(kProgressPhases, value);
}

QString valueName(OccupancyLimiter value)
{
    return detail::nameIn(kOccupancyLimiters, value);
}

QString valueName(std::optional<OccupancyLimiter> value)
{
    return value ? valueName(*value) : QString();
}

TimingRegime timingRegimeFromName(const QString &name)
{
    return detail::valueIn<TimingRegime>(kTimingRegimes, name).value_or(TimingRegime::Unknown);
}

StopReason stopReasonFromName(const QString &name)
{
    return name.isEmpty() ? StopReason::None
                          : detail::valueIn<StopReason>(kStopReasons, name).value_or(StopReason::Unknown);
}

ThrottleReason throttleReasonFromName(const QString &name)
{
    return detail::valueIn<ThrottleReason>(kThrottleReasons, name).value_or(ThrottleReason::Unknown);
}

BuildKind buildKindFromName(const QString &name)
{
    return detail::valueIn<BuildKind>(kBuildKinds, name).value_or(BuildKind::Unknown);
}

Tf32Rounding tf32RoundingFromName(const QString &name)
{
    return detail::valueIn<Tf32Rounding>(kTf32Roundings, name).value_or(Tf32Rounding::Unknown);
}

TestDamage testDamageFromName(const QString &name)
{
    return detail::valueIn<TestDamage>(kTestDamages, name).value_or(TestDamage::Unknown);
}

ProgressPhase progressPhaseFromName(const QString &name)
{
    return detail::valueIn<ProgressPhase>(kProgressPhases, name).value_or(ProgressPhase::Unknown);
}

std::optional<OccupancyLimiter> occupancyLimiterFromName(const QString &name)
{
    if (name.isEmpty())
        return std::nullopt;
    return detail::valueIn<OccupancyLimiter>(kOccupancyLimiters, name).value_or(OccupancyLimiter::Unknown);
}

QStringList timingRegimeNames()
{
    return detail::namesIn(kTimingRegimes);
}

QStringList stopReasonNames()
{
    return detail::namesIn(kStopReasons);
}

QStringList buildKindNames()
{
    return detail::namesIn(kBuildKinds);
}

QStringList tf32RoundingNames()
{
    return detail::namesIn(kTf32Roundings);
}

QString quotedNames(const QStringList &names)
{
    QStringList quoted;
    for (const QString &name : names)
        quoted << QLatin1Char('"') + name + QLatin1Char('"');
    if (quoted.size() < 2)
        return quoted.join(QString());
    const QString last = quoted.takeLast();
    return quoted.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

QStringList throttleReasonNames(const QList<ThrottleReason> &reasons)
{
    QStringList names;
    for (ThrottleReason reason : reasons)
        if (reason != ThrottleReason::Unknown) // no spelling to write back; see RunConditions
            names << valueName(reason);
    return names;
}

QList<ThrottleReason> throttleReasonsFromNames(const QStringList &names)
{
    QList<ThrottleReason> reasons;
    for (const QString &name : names)
        reasons << throttleReasonFromName(name);
    return reasons;
}

QString errorKindName(ErrorKind kind)
{
    return detail::nameIn(kErrorKinds, kind);
}

std::optional<ErrorKind> errorKindFromName(const QString &name)
{
    for (const auto &[e, n] : kErrorKinds)
        if (name == QLatin1String(n))
            return e;
    return std::nullopt;
}

} // namespace gemmscope::protocol
