// The `run` job: compile, load, verify against cuBLAS (pedantic FP32), then time — in that order,
// so that a wrong kernel is reported as wrong and never gets a time. With "counters", one more
// launch, after the timed ones, is profiled for hardware counters (it never changes the times).
#include "compiled_event.h"
#include "counter_profiler.h"
#include "counter_report.h"
#include "cuda_check.h"
#include "job_context.h"
#include "launch_config.h"
#include "request_options.h"
#include "result_event.h"
#include "runner_state.h"
#include "smem_carveout.h"
#include "stage_compile.h"
#include "stage_launch.h"
#include "stage_program.h"
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

} // namespace

void runGemmJob(RunnerState &state, const protocol::RunJob &request, JobContext &job)
{
    const StageInfo &stage = requireStage(request.stage);
    const ParamValues params = stage.isLibrary ? ParamValues{} : paramsOrDefaults(stage, request.params);
    const ProblemSize size = request.size;
    const auto seed = std::uint64_t(request.seed.value_or(1));
    const TimingOptions timing = timingOptions(request.timing);
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
    const QString &rounding = request.tf32Rounding;
    if (!rounding.isEmpty() && rounding != QStringLiteral("rna") && rounding != QStringLiteral("truncate"))
        throw RunnerError(
            ErrorKind::InvalidConfig,
            QStringLiteral("Unknown TF32 rounding \"%1\"; known: rna, truncate.").arg(rounding));
    if (!rounding.isEmpty() && (stage.isLibrary || stage.precision != Precision::Tf32))
        throw RunnerError(
            ErrorKind::InvalidConfig,
            QStringLiteral("\"tf32_rounding\" applies to GemmScope's TF32 stages; %1 is not one.")
                .arg(QString::fromStdString(stage.key)));
    const bool roundTf32 =
        !stage.isLibrary && stage.precision == Precision::Tf32 && rounding != QStringLiteral("truncate");

    if (baseline && stage.isLibrary)
        throw RunnerError(ErrorKind::InvalidConfig,
                          QStringLiteral("\"baseline\" times a GemmScope kernel against cuBLAS; %1 is cuBLAS "
                                         "itself.")
                              .arg(QString::fromStdString(stage.key)));

    // The catalog's refusal comes first: it needs no GPU and explains itself.
    requireValidConfig(stage, params, size, 0);
    const DeviceInfo &device = state.requireDevice();
    requireValidConfig(stage, params, size, device.cc());

    std::function<void()> launch;
    std::unique_ptr<LoadedKernel> kernel, transposeKernel;
    std::optional<protocol::CompiledInfo> compiled;
    GemmWorkspace &ws = state.workspace;
    if (stage.isLibrary) {
        launch = [&ws, &stage] { ws.cublasGemm(stage.precision, ws.c()); };
    } else {
        const LaunchDims dims = launchDims(stage, params, size);
        CompiledKernel compiledKernel = compileStage(state, stage, params, device.cc(), build, job);
        kernel = std::make_unique<LoadedKernel>(compiledKernel);
        // Registers and shared memory of the binary that runs, whether or not ptxas printed them
        // (issue 11: on a warm machine NVRTC can return an empty log); cached only now, complete.
        kernel->takeResourcesInto(compiledKernel);
        state.compiler.storeIfComplete(compiledKernel);
        if (dims.dynamicSmemBytes > 0)
            kernel->allowDynamicSmem(dims.dynamicSmemBytes);
        // A configuration that compiles but cannot launch (registers x threads above the register
        // file) is refused with its numbers before anything is launched.
        requireLaunchable(compiledKernel, dims.threads,
                          kernel->maxActiveBlocksPerSm(dims.threads, size_t(dims.dynamicSmemBytes)),
                          device.name(), {}, kernel->attributes().maxThreadsPerBlock);
        applySmemCarveout(*kernel, smemCarveout); // before occupancy: the split can change it
        const BlockLimit limit =
            limitBlocksPerSm(device, *kernel, dims.threads, maxBlocksPerSm, dims.dynamicSmemBytes);
        const Occupancy occupancy =
            deviceOccupancy(device, *kernel, dims.threads, compiledKernel.ptxas.registers,
                            compiledKernel.ptxas.staticSmemBytes, limit, dims.dynamicSmemBytes);
        compiled = compiledInfo(stage, compiledKernel, occupancy, limit, dims.dynamicSmemBytes);
        if (smemCarveout >= 0) // what the runtime now holds for the kernel, not the request's echo
            compiled->smemCarveout = kernel->attributes().preferredShmemCarveout;
        protocol::CompiledInfo event = *compiled;
        event.id = job.id();
        job.send(protocol::toJson(event));
        const size_t padding = size_t(dims.dynamicSmemBytes) + size_t(limit.paddingBytes);
        // B transposed first (and, for TMA, A padded) in every launch that is verified or timed:
        // the stage's time is all of it.
        if (stage.transposedB)
            transposeKernel = std::make_unique<LoadedKernel>(compileTranspose(state, device.cc(), job));
        launch = stageLaunch(ws, stage, params, *kernel, transposeKernel.get(), dims, padding);
    }

    ws.prepare(size, seed, job);
    allocateStageScratch(ws, stage); // BT, padded A: refused for memory before anything is timed
    // The rounded copies are what the stage reads (ws.a(), ws.b()) for the whole job; every
    // launch writes them first, inside its timed region. Off again however the job ends.
    struct RoundedInputs {
        GemmWorkspace &ws;
        ~RoundedInputs() { ws.useRoundedInputs(false); }
    } roundedInputsOff{ws};
    std::unique_ptr<Tf32Rounder> rounder;
    // What the counters profile: the stage's own kernels, never the rounding pre-pass (its copies
    // are written by then), so that measured traffic stays the stage's.
    const std::function<void()> profiledLaunch = launch;
    if (roundTf32) {
        rounder = std::make_unique<Tf32Rounder>(state.compiler, device.cc());
        float *aRounded = ws.roundedA(), *bRounded = ws.roundedB();
        ws.useRoundedInputs(true);
        launch = [&ws, stageLaunchOnly = launch, &rounder, aRounded, bRounded, size] {
            rounder->round(ws.originalA(), aRounded, size.m * size.k);
            rounder->round(ws.originalB(), bRounded, size.k * size.n);
            stageLaunchOnly();
        };
    }
    job.checkCancelled();

    protocol::VerifyResult verified = verifySkipped();
    if (verify) {
        job.progress(QStringLiteral("verify"), 0, 1);
        ws.poisonC();
        // Test hook (docs/protocol.md): damage the output the way a buggy kernel would, so the
        // tests can show that verification catches it — a skipped launch leaves the NaN poison,
        // a corrupted element gives a finite error.
        const QString &damage = request.testDamage;
        if (damage != QStringLiteral("skip_launch"))
            launch();
        if (damage == QStringLiteral("corrupt_element"))
            GEMMSCOPE_CUDA(cudaMemset(ws.c(), 0x42, sizeof(float))); // C[0][0] = 48.56
        GEMMSCOPE_CUDA(cudaDeviceSynchronize());
        const double error = ws.relativeErrorOfC();
        const double tolerance = toleranceFor(stage.precision);
        job.progress(QStringLiteral("verify"), 1, 1);
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
                protocol::wrongResultFields(std::isfinite(error) ? std::optional<double>(error)
                                                                 : std::nullopt,
                                            tolerance, std::isnan(error)));
        verified = verifyPassed(error, tolerance);
    }
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
        facts.baseline =
            protocol::BaselineResult{QString::fromStdString(baselineStage->key),
                                     timingResult(timed.back().stats, timing), timed.back().conditions};
    facts.verify = verified;
    facts.compiled = compiled;
    facts.build = request.build;
    if (!stage.isLibrary && stage.precision == Precision::Tf32)
        facts.tf32Rounding = roundTf32 ? QStringLiteral("rna") : QStringLiteral("truncate");
    facts.maxBlocksPerSm = maxBlocksPerSm;
    facts.smemCarveout = smemCarveout;
    // A counter failure (permission, unsupported GPU) is part of the result, never its end.
    if (counters) {
        job.checkCancelled();
        job.progress(QStringLiteral("counters"), 0, 1);
        const CounterOutcome outcome = CounterProfiler(counterMetrics()).profile(profiledLaunch);
        job.progress(QStringLiteral("counters"), 1, 1);
        facts.counters = outcome.reading ? countersOf(*outcome.reading, size) : countersError(outcome.error);
    }
    facts.finishedAt = QDateTime::currentDateTimeUtc();
    job.send(protocol::toJson(resultEvent(facts)));
}

} // namespace gemmscope::runner
