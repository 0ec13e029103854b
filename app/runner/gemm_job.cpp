// The `run` job: compile, load, verify against cuBLAS (pedantic FP32), then time — in that order,
// so that a wrong kernel is reported as wrong and never gets a time. With "counters", one more
// launch, after the timed ones, is profiled for hardware counters (it never changes the times).
#include "compiled_event.h"
#include "counter_profiler.h"
#include "counter_report.h"
#include "cuda_check.h"
#include "gpu_wait.h"
#include "job_context.h"
#include "launch_config.h"
#include "request_options.h"
#include "result_event.h"
#include "runner_state.h"
#include "smem_carveout.h"
#include "stage_compile.h"
#include "stage_launch.h"
#include "stage_program.h"
#include "stage_setup.h"
#include "tf32_rounding.h"

#include <QDateTime>
#include <cmath>
#include <functional>
#include <memory>

namespace gemmscope::runner {

namespace {

// The cuBLAS call a stage is compared with: the same precision (TF32 stages against cuBLAS's
// TF32 tensor-core path, FP32 stages against its FP32 SGEMM).
const StageInfo &baselineFor(const StageInfo &stage)
{
    return stageInfo(stage.precision == Precision::Tf32 ? StageId::CublasTf32 : StageId::CublasFp32);
}

double toleranceFor(Precision precision)
{
    return precision == Precision::Tf32 ? 5e-3 : 1e-5;
}

// The first launch of the stage, checked against cuBLAS (pedantic FP32): a wrong kernel ends the
// job with wrong_result and never gets a time.
protocol::VerifyResult verifyAgainstCublas(GemmWorkspace &ws, const std::function<void()> &launch,
                                           const StageInfo &stage, const protocol::RunJob &request,
                                           JobContext &job)
{
    job.progress(protocol::ProgressPhase::Verify, 0, 1);
    ws.poisonC();
    // Test hook (docs/protocol.md): damage the output the way a buggy kernel would, so the
    // tests can show that verification catches it — a skipped launch leaves the NaN poison,
    // a corrupted element gives a finite error.
    const protocol::TestDamage damage = protocol::testDamageFromName(request.testDamage);
    if (damage != protocol::TestDamage::SkipLaunch)
        launch();
    if (damage == protocol::TestDamage::CorruptElement)
        GEMMSCOPE_CUDA(cudaMemset(ws.c(), 0x42, sizeof(float))); // C[0][0] = 48.56
    waitForDefaultStream(); // the first launch of the stage: one that never ends stops here
    const double error = ws.relativeErrorOfC();
    const double tolerance = toleranceFor(stage.precision);
    job.progress(protocol::ProgressPhase::Verify, 1, 1);
    if (!(error <= tolerance)) // NaN compares false: it never passes
        throw RunnerError(
            ErrorKind::WrongResult,
            std::isnan(error)
                ? QStringLiteral("Wrong result: C contains NaN (an element was never written or "
                                 "the arithmetic overflowed), compared with cuBLAS.")
                : QStringLiteral("Wrong result: relative Frobenius error %1 against cuBLAS is above "
                                 "the tolerance %2.")
                      .arg(error, 0, 'g', 3)
                      .arg(tolerance, 0, 'g', 3),
            {},
            protocol::wrongResultFields(std::isfinite(error) ? std::optional<double>(error) : std::nullopt,
                                        tolerance, std::isnan(error)));
    return verifyPassed(error, tolerance);
}

// The cuBLAS call timed interleaved with the stage: its own times and the per-round ratios.
protocol::BaselineResult baselineResultOf(const StageInfo &baselineStage, const TimedLaunch &timed,
                                          const TimingOptions &timing)
{
    protocol::BaselineResult result{
        QString::fromStdString(baselineStage.key), timingResult(timed.stats, timing), timed.conditions, {}};
    if (const auto &paired = timed.pairedWithFirst; paired && paired->pairs > 0)
        result.pairedRatio = protocol::PairedRatioResult{
            paired->median,
            paired->p20,
            paired->p80,
            paired->pairs,
            paired->noisePct >= 0 ? std::optional<double>(paired->noisePct) : std::nullopt,
            timed.burstPairedMedians};
    return result;
}

} // namespace

void runGemmJob(RunnerState &state, const protocol::RunJob &request, JobContext &job)
{
    const StageInfo &stage = requireStage(request.stage, request.kernel);
    const ParamValues params = stage.isLibrary ? ParamValues{} : paramsOrDefaults(stage, request.params);
    const ProblemSize size = request.size;
    const auto seed = std::uint64_t(request.seed.value_or(1));
    const TimingOptions timing = timingOptions(request.timing);
    // Every wait for a launch of this job gives up past this deadline (gpu_wait.h).
    const KernelDeadlineScope deadline(job, kernelDeadlineSeconds(timing.budgetMs));
    const bool verify = request.verify.value_or(true);
    const bool counters = request.counters.value_or(false);
    const int maxBlocksPerSm = request.maxBlocksPerSm.value_or(0);
    const int smemCarveout = request.smemCarveout.value_or(-1);
    const bool baseline = request.baseline.value_or(false);
    const StageBuild build = stageBuild(request.build); // an invalid_config before any GPU question
    if ((maxBlocksPerSm > 0 || smemCarveout >= 0) && stage.isLibrary)
        throw RunnerError(
            ErrorKind::InvalidConfig,
            QStringLiteral("\"max_blocks_per_sm\" and \"smem_carveout\" apply to GemmScope's own "
                           "kernels; cuBLAS chooses its own launch."));

    // TF32 inputs: rounded to nearest (the default, as cuBLAS's TF32 path) or truncated by the
    // tensor core. Only a GemmScope TF32 stage has the choice.
    const bool roundTf32 = roundsTf32Inputs(stage, request.tf32Rounding);

    if (baseline && stage.isLibrary)
        throw RunnerError(ErrorKind::InvalidConfig,
                          QStringLiteral("\"baseline\" times a GemmScope kernel against cuBLAS; %1 is cuBLAS "
                                         "itself.")
                              .arg(QString::fromStdString(stage.key)));

    // The catalog's refusal comes first: it needs no GPU and explains itself.
    requireValidConfig(stage, params, size, 0);
    const DeviceInfo &device = state.requireDevice();
    requireValidConfig(stage, params, size, device.cc());

    GemmWorkspace &ws = state.workspace;
    PreparedStage prepared =
        prepareStage(state, stage, params, size, device, {build, maxBlocksPerSm, smemCarveout, false}, job);
    std::function<void()> launch = prepared.launch;
    const std::optional<protocol::CompiledInfo> &compiled = prepared.compiled;

    ws.prepare(size, seed, job);
    allocateStageScratch(ws, stage); // BT, padded A: refused for memory before anything is timed
    // The rounded copies are what the stage reads (ws.a(), ws.b()) for the whole job; every
    // launch writes them first, inside its timed region. Off again however the job ends.
    struct RoundedInputs {
        GemmWorkspace &ws;
        ~RoundedInputs() { ws.useTf32Inputs({}); }
    } roundedInputsOff{ws};
    std::unique_ptr<Tf32Rounder> rounder;
    // What the counters profile: the stage's own kernels, never the rounding pre-pass (its copies
    // are written by then), so that measured traffic stays the stage's.
    const std::function<void()> profiledLaunch = launch;
    const Tf32Inputs inputs = roundTf32 ? roundedTf32Inputs(stage) : Tf32Inputs{};
    ws.useTf32Inputs(inputs);
    if (inputs.needsPrePass()) {
        rounder = std::make_unique<Tf32Rounder>(state.compiler, device.cc());
        launch = [&ws, stageLaunchOnly = launch, &rounder, inputs] {
            rounder->roundInputs(ws, inputs);
            stageLaunchOnly();
        };
    }
    job.checkCancelled();

    const protocol::VerifyResult verified =
        verify ? verifyAgainstCublas(ws, launch, stage, request, job) : verifySkipped();
    job.checkCancelled();

    std::function<void()> flush;
    if (timing.flushL2)
        flush = [&ws, &device] { ws.flushL2(static_cast<long long>(device.spec.l2Bytes)); };
    std::vector<std::function<void()>> launches{launch};
    const StageInfo *baselineStage = baseline ? &baselineFor(stage) : nullptr;
    if (baselineStage)
        launches.push_back([&ws, baselineStage] { ws.cublasGemm(baselineStage->precision, ws.c()); });
    const std::vector<TimedLaunch> timed =
        timeInterleaved(launches, flush, timing, job, state.timingProbes(job));
    const TimingStats stats = timed.front().stats;

    RunFacts facts;
    facts.stage = &stage;
    facts.params = params;
    facts.size = size;
    facts.seed = seed;
    facts.gpu = gpuIdentity(device);
    facts.smClockMhz = int(device.spec.smClockMHz);
    facts.stats = stats;
    facts.timing = timing;
    facts.conditions = timed.front().conditions;
    if (baselineStage)
        facts.baseline = baselineResultOf(*baselineStage, timed.back(), timing);
    facts.verify = verified;
    facts.compiled = compiled;
    facts.build = request.build;
    if (!stage.isLibrary && stage.precision == Precision::Tf32)
        facts.tf32Rounding =
            protocol::valueName(roundTf32 ? protocol::Tf32Rounding::Rna : protocol::Tf32Rounding::Truncate);
    facts.maxBlocksPerSm = maxBlocksPerSm;
    facts.smemCarveout = smemCarveout;
    // A counter failure (permission, unsupported GPU) is part of the result, never its end.
    if (counters) {
        job.checkCancelled();
        job.progress(protocol::ProgressPhase::Counters, 0, 1);
        const CounterOutcome outcome = CounterProfiler(counterMetrics()).profile(profiledLaunch);
        job.progress(protocol::ProgressPhase::Counters, 1, 1);
        facts.counters = outcome.reading ? countersOf(*outcome.reading, size) : countersError(outcome.error);
    }
    facts.finishedAt = QDateTime::currentDateTimeUtc();
    job.send(protocol::toJson(resultEvent(facts)));
}

} // namespace gemmscope::runner
