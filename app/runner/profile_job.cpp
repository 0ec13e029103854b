// The `profile` job (docs/protocol.md "Profile"): one configuration, built with -lineinfo, run
// under CUPTI once per part — PC sampling (stalls by instruction), SASS metrics (memory behaviour
// by instruction) and the range profiler (kernel-wide limiters) — and answered as one `profile`
// event whose instructions carry their SASS text and CUDA source line. Nothing is timed: a profile
// never replaces or alters a timed result. A part that fails says why; the others stand.
#include "cuda_check.h"
#include "cupti_support.h"
#include "event_pair.h"
#include "gpu_device.h"
#include "job_context.h"
#include "pc_sampler.h"
#include "profile_limiters.h"
#include "profile_process.h"
#include "request_options.h"
#include "runner_state.h"
#include "sass_listing.h"
#include "sass_metrics.h"
#include "stage_launch.h"
#include "stage_program.h"
#include "stage_setup.h"
#include "tf32_rounding.h"

#include <cuda_runtime_api.h>
#include <cupti_pcsampling.h>

#include <QDateTime>
#include <QElapsedTimer>
#include <QFileInfo>
#include <cstdlib>
#include <cxxabi.h>
#include <memory>

namespace gemmscope::runner {

namespace {

// "_ZN9gemmscope12final_kernelILi128E..." -> "gemmscope::final_kernel<128, ...>"; the name itself
// where it does not demangle (extern "C" kernels, cuBLAS's plain names).
QString demangled(const std::string &name)
{
    int status = 0;
    char *text = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
    const QString result = status == 0 && text ? QString::fromUtf8(text) : QString::fromStdString(name);
    std::free(text);
    return result;
}

struct SourceLine {
    QString file; // without its directory
    int line = 0;
};

// The CUDA source line of an instruction, from the CUBIN's line table (-lineinfo); empty where the
// CUBIN has none (cuBLAS, or a kernel without line info).
SourceLine sourceLineOf(const QByteArray &cubin, const std::string &function, std::uint64_t pcOffset)
{
    if (cubin.isEmpty())
        return {};
    CUpti_GetSassToSourceCorrelationParams params{};
    params.size = CUpti_GetSassToSourceCorrelationParamsSize;
    params.cubin = cubin.constData();
    params.cubinSize = size_t(cubin.size());
    params.functionName = function.c_str();
    params.pcOffset = pcOffset;
    if (cuptiGetSassToSourceCorrelation(&params) != CUPTI_SUCCESS)
        return {};
    SourceLine source;
    if (params.fileName)
        source.file = QFileInfo(QString::fromUtf8(params.fileName)).fileName();
    source.line = int(params.lineNumber);
    std::free(params.fileName); // CUPTI allocates both for the caller
    std::free(params.dirName);
    return source;
}

// One launch timed with events, to choose the sampling period.
double launchMs(const std::function<void()> &launch)
{
    const EventPair events;
    GEMMSCOPE_CUDA(cudaEventRecord(events.start));
    launch();
    GEMMSCOPE_CUDA(cudaEventRecord(events.stop));
    GEMMSCOPE_CUDA(cudaEventSynchronize(events.stop));
    float ms = 0;
    GEMMSCOPE_CUDA(cudaEventElapsedTime(&ms, events.start, events.stop));
    return double(ms);
}

// The profile's instructions as the parts find them, by function and byte offset.
using InstructionsByPc = QMap<QPair<QString, long long>, protocol::ProfileInstruction>;

protocol::ProfileInstruction &instructionAt(InstructionsByPc &byPc, const std::string &function,
                                            std::uint64_t pc)
{
    const QString name = QString::fromStdString(function);
    protocol::ProfileInstruction &instruction = byPc[{name, (long long)pc}];
    instruction.function = name; // demangled at the end
    instruction.pc = (long long)pc;
    return instruction;
}

// The stalls part: PC samples of one launch every 2^period cycles, summed per instruction.
void addStallSamples(const PreparedStage &prepared, int period, protocol::ProfileEvent &event,
                     InstructionsByPc &byPc)
{
    const PcSamplingOutcome sampled = samplePcs(prepared.launch, period);
    if (!sampled.sampling) {
        event.stallsError = sampled.error;
        return;
    }
    event.samplingPeriod = sampled.sampling->period;
    event.totalSamples = double(sampled.sampling->totalSamples);
    event.droppedSamples = double(sampled.sampling->droppedSamples);
    event.samplingBufferFull = sampled.sampling->hardwareBufferFull;
    for (const SampledPc &pc : sampled.sampling->pcs) {
        protocol::ProfileInstruction &instruction = instructionAt(byPc, pc.function, pc.pcOffset);
        for (const auto &[reason, samples] : pc.stalls)
            instruction.stalls[QString::fromStdString(reason)] += double(samples);
    }
}

// The instructions part: CUPTI's SASS metrics of one launch, summed per instruction.
void addSassMetrics(const PreparedStage &prepared, protocol::ProfileEvent &event, InstructionsByPc &byPc)
{
    const SassMetricsOutcome measured = collectSassMetrics(prepared.launch);
    if (!measured.instructions) {
        event.instructionsError = measured.error;
        return;
    }
    for (const InstructionMetrics &metrics : *measured.instructions) {
        protocol::ProfileInstruction &instruction = instructionAt(byPc, metrics.function, metrics.pcOffset);
        for (const auto &[name, value] : metrics.values)
            instruction.metrics[QString::fromStdString(name)] += value;
    }
}

// Each instruction's text and source line, from the CUBIN that ran; the event's list in PC order.
void addInstructionsWithText(const PreparedStage &prepared, InstructionsByPc &byPc,
                             protocol::ProfileEvent &event)
{
    const Sass sass = prepared.cubin.isEmpty() ? Sass{} : disassembleCubin(prepared.cubin, false);
    const auto listing = instructionsByFunction(sass.text);
    for (protocol::ProfileInstruction &instruction : byPc) {
        const std::string mangled = instruction.function.toStdString();
        if (const auto function = listing.find(mangled); function != listing.end())
            if (const auto text = function->second.find(std::uint64_t(instruction.pc));
                text != function->second.end())
                instruction.sass = QString::fromStdString(text->second);
        const SourceLine source = sourceLineOf(prepared.cubin, mangled, std::uint64_t(instruction.pc));
        instruction.file = source.file;
        instruction.line = source.line;
        instruction.function = demangled(mangled);
        event.instructions.append(instruction);
    }
}

} // namespace

void runProfileJob(RunnerState &state, const protocol::ProfileJob &request, JobContext &job)
{
    QElapsedTimer elapsed;
    elapsed.start();
    const StageInfo &stage = requireStage(request.stage, request.kernel);
    const ParamValues params = stage.isLibrary ? ParamValues{} : paramsOrDefaults(stage, request.params);
    const ProblemSize size = request.size;
    const auto seed = std::uint64_t(request.seed.value_or(1));
    const StageBuild build = stageBuild(request.build);
    const bool roundTf32 = roundsTf32Inputs(stage, request.tf32Rounding);
    QStringList parts = request.parts.isEmpty() ? protocol::profilePartNames() : request.parts;
    // On the H200 (CUDA 13.0, driver 580) a SASS-metrics session in a process where PC sampling
    // never ran ends the process inside CUPTI; after one PC-sampling pass it works. So the
    // instructions part brings the stalls part with it (and its samples come with the answer).
    const QString stalls = protocol::profilePartName(protocol::ProfilePart::Stalls);
    if (parts.contains(protocol::profilePartName(protocol::ProfilePart::Instructions)) &&
        !parts.contains(stalls))
        parts.prepend(stalls);

    requireValidConfig(stage, params, size, 0);
    // CUPTI's PC sampling and SASS metrics do not come back cleanly for a second profile in the
    // same process (on the H200 the second gave no PC records and SetConfig ran out of memory), and
    // a profiled kernel that faults must not end the runner: each profile runs in a fresh runner
    // process of its own, which this one waits for and relays. A request the catalog refuses is
    // answered here, at once; the child checks the GPU.
    if (!state.profileChild.inThisProcess)
        return relayProfileFromChild(state, request, job);
    const DeviceInfo &device = state.requireDevice();
    requireValidConfig(stage, params, size, device.cc());

    // -lineinfo adds the line table and changes no instruction: the profiled code is the timed code.
    StageSetupOptions options;
    options.build = build;
    options.lineInfo = true;
    PreparedStage prepared = prepareStage(state, stage, params, size, device, options, job);
    GemmWorkspace &ws = state.workspace;
    ws.prepare(size, seed, job);
    allocateStageScratch(ws, stage);
    struct RoundedInputs {
        GemmWorkspace &ws;
        ~RoundedInputs() { ws.useTf32Inputs({}); }
    } roundedInputsOff{ws};
    // The stage reads the rounded copies, as in a run (the pre-pass is not profiled), or rounds
    // in its own kernel.
    const Tf32Inputs inputs = roundTf32 ? roundedTf32Inputs(stage) : Tf32Inputs{};
    if (inputs.needsPrePass()) {
        const Tf32Rounder rounder(state.compiler, device.cc());
        rounder.roundInputs(ws, inputs);
        GEMMSCOPE_CUDA(cudaDeviceSynchronize()); // before the rounder's module is unloaded
    }
    ws.useTf32Inputs(inputs);
    job.checkCancelled();
    prepared.launch(); // warm: module loaded, caches and clocks as in any later launch
    GEMMSCOPE_CUDA(cudaDeviceSynchronize());
    const double oneLaunchMs = launchMs(prepared.launch);

    protocol::ProfileEvent event;
    event.id = job.id();
    event.stage = QString::fromStdString(stage.key);
    event.params = params;
    event.size = size;
    event.gpu = gpuIdentity(device);
    event.arch = stage.isLibrary ? QStringLiteral("sm_%1").arg(device.cc())
                                 : QString::fromStdString(nvrtcArchitecture(stage, device.cc()));
    event.build = request.build;
    if (!stage.isLibrary && stage.precision == Precision::Tf32)
        event.tf32Rounding =
            protocol::valueName(roundTf32 ? protocol::Tf32Rounding::Rna : protocol::Tf32Rounding::Truncate);
    InstructionsByPc byPc;

    const int total = int(parts.size());
    int done = 0;
    if (parts.contains(protocol::profilePartName(protocol::ProfilePart::Stalls))) {
        job.progress(protocol::progressPhaseOf(protocol::ProfilePart::Stalls), done, total);
        addStallSamples(prepared,
                        request.samplingPeriod.value_or(
                            samplingPeriodFor(oneLaunchMs, device.spec.sms, device.spec.smClockMHz)),
                        event, byPc);
        job.progress(protocol::progressPhaseOf(protocol::ProfilePart::Stalls), ++done, total);
        job.checkCancelled();
    }
    if (parts.contains(protocol::profilePartName(protocol::ProfilePart::Instructions))) {
        job.progress(protocol::progressPhaseOf(protocol::ProfilePart::Instructions), done, total);
        addSassMetrics(prepared, event, byPc);
        job.progress(protocol::progressPhaseOf(protocol::ProfilePart::Instructions), ++done, total);
        job.checkCancelled();
    }
    if (parts.contains(protocol::profilePartName(protocol::ProfilePart::Limiters))) {
        job.progress(protocol::progressPhaseOf(protocol::ProfilePart::Limiters), done, total);
        LimiterOutcome limiters = readLimiters(prepared.launch);
        event.limiters = std::move(limiters.limiters);
        event.limitersError = std::move(limiters.error);
        job.progress(protocol::progressPhaseOf(protocol::ProfilePart::Limiters), ++done, total);
    }

    addInstructionsWithText(prepared, byPc, event);
    event.durationMs = double(elapsed.nsecsElapsed()) / 1e6;
    event.timestamp = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    job.send(protocol::toJson(event));
}

} // namespace gemmscope::runner
