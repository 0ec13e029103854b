// The `disassemble` job: a stage instantiation's PTX (from NVRTC) and SASS (from the toolkit's
// nvdisasm, where it is installed), both carrying source lines (-lineinfo). Like `compile` it
// needs no GPU. The SASS is of exactly the CUBIN the runner would load, built with -lineinfo
// (which changes no instruction; it only adds the line table).
#include "events.h"
#include "job_context.h"
#include "runner_error.h"
#include "runner_state.h"
#include "sass_listing.h"
#include "stage_compile.h"
#include "stage_program.h"

namespace gemmscope::runner {

void runDisassembleJob(RunnerState &state, const protocol::DisassembleJob &request, JobContext &job)
{
    const CompileTarget target = compileTarget(state, request);
    const CompiledKernel kernel =
        compileStage(state, *target.stage, target.params, target.arch, target.build, job, true);
    protocol::DisassemblyEvent event;
    event.id = job.id();
    event.stage = QString::fromStdString(target.stage->key);
    event.kernel = kernel.nameExpression;
    event.arch = QString::fromStdString(nvrtcArchitecture(*target.stage, target.arch)); // sm_90a for wgmma
    event.params = target.params;
    event.ptx = QString::fromUtf8(kernel.ptx);
    job.progress(protocol::ProgressPhase::Disassemble, 0, 1);
    const Sass sass = disassembleCubin(kernel.cubin);
    job.progress(protocol::ProgressPhase::Disassemble, 1, 1);
    if (sass.text.isEmpty()) {
        event.sassUnavailable = sass.unavailable; // "sass": null
    } else {
        event.sass = sass.text;
        event.sassTool = sass.tool;
    }
    job.send(protocol::toJson(event));
}

} // namespace gemmscope::runner
