// gemmscope-model: prints the access model's predictions for every ladder preset as CSV, for
// comparison with hardware counters (scripts/compare-counters.py merges it with `ncu --csv`):
// ratios per request, and the instruction counts of one launch.
//   gemmscope-model [MxNxK]     (default 1536x1536x1536: every preset's tiles divide it)
#include "access_model.h"
#include "stage_catalog.h"

#include <cstdio>
#include <string>

using namespace gemmscope;

int main(int argc, char **argv)
{
    ProblemSize size{1536, 1536, 1536};
    if (argc > 1 && std::sscanf(argv[1], "%lldx%lldx%lld", &size.m, &size.n, &size.k) != 3) {
        std::fprintf(stderr, "gemmscope-model: the size must look like 1536x1536x1536, not \"%s\"\n",
                     argv[1]);
        return 2;
    }
    std::printf("preset,kernel,global_ld_sectors_per_request,global_st_sectors_per_request,"
                "shared_ld_wavefronts_per_request,shared_st_wavefronts_per_request,"
                "global_ld_requests,global_st_requests,shared_ld_instructions,shared_st_instructions\n");
    for (const Preset &p : presets()) {
        const KernelShapeResult shape = kernelShape(p.stage, p.params);
        if (!shape.shape)
            continue; // cuBLAS: no model
        AccessContext ctx;
        ctx.size = size;
        const std::string problem = accessContextError(*shape.shape, ctx);
        if (!problem.empty()) {
            std::fprintf(stderr, "%s: %s\n", p.key.c_str(), problem.c_str());
            continue;
        }
        const AccessSummary s = summarizeBlock(*shape.shape, ctx);
        const KernelInstructionCounts counts = *kernelInstructionCounts(*shape.shape, size); // tiles divide
        std::printf("%s,\"%s\",%.4f,%.4f,%.4f,%.4f,%lld,%lld,%lld,%lld\n", p.key.c_str(),
                    kernelNameExpression(p.stage, p.params).c_str(), s.globalLoads.perRequest(),
                    s.storeC.perRequest(), s.sharedLoads.perRequest(), s.sharedStores.perRequest(),
                    counts.globalLoads, counts.globalStores, counts.sharedLoads, counts.sharedStores);
    }
    return 0;
}
