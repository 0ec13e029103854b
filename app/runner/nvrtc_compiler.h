// Compiles CUDA C++ to a CUBIN with NVRTC (no GPU or driver needed) and caches the result on disk.
#pragma once

#include "cubin_cache.h"
#include "ptxas_log.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace gemmscope::runner {

struct NvrtcProgram {
    QString programName = QStringLiteral("gemmscope.cu"); // how NVRTC names the file in its log
    QByteArray mainSource;                                // e.g. `#include "coalesced.cuh"`
    bool withKernelHeaders = true; // pass every embedded kernels/cuda/*.cuh as an NVRTC header
    QString nameExpression;        // "gemmscope::coalesced<64, 64, 8, 4, 4>" or "fma_peak"
    int arch = 90;                 // real architecture: compiles to a CUBIN for sm_<arch>
    bool archSpecific = false;     // sm_<arch>a: wgmma and the like, for that architecture alone
    QStringList extraOptions;      // e.g. "-DGEMMSCOPE_TRACE_OWNER=1"
    bool needPtx = false;          // a cached entry without its PTX is compiled again
    // A user's kernel as mainSource: compiled with --no-source-include (nothing but the embedded
    // headers is reachable), and its program name is part of the cache key, since the log names it.
    bool userSource = false;
    friend bool operator==(const NvrtcProgram &, const NvrtcProgram &) = default;
};

// A runner-owned kernel outside the catalog (a peak microbenchmark, the clock probe, the TF32
// rounding pass): its own source, no kernel headers, for the device's real architecture.
NvrtcProgram standaloneProgram(const QString &programName, const char *source, const QString &kernelName,
                               int arch);

struct CompiledKernel {
    QString nameExpression;
    QString cacheKey;    // where the cache keeps it (NvrtcCompiler::cacheKey)
    QString loweredName; // the mangled symbol to look up in the CUBIN
    QByteArray cubin;
    QByteArray ptx; // the PTX NVRTC fed to ptxas (empty for a cache entry written without it)
    QString log;    // NVRTC program log including ptxas -v output (can be empty: see resourcesSource)
    // Registers, spills, stack and static shared memory. `found` false: unknown (ptxas printed no
    // report and no GPU has loaded the kernel yet).
    PtxasInfo ptxas;
    // Where `ptxas` comes from: "ptxas" (the log), "cuda_runtime" (the loaded kernel's attributes,
    // cudaFuncGetAttributes), or empty while unknown. On a warm machine NVRTC can return an empty
    // log for a kernel it compiled before: the loaded kernel is then the only source.
    QString resourcesSource;
    int arch = 0;
    bool archSpecific = false; // built for sm_<arch>a
    bool cacheHit = false;
    double compileMs = 0; // 0 for a cache hit's compile; the time the lookup took otherwise
    // Set by compileStage: compiled on the compile-ahead pool, and how long the job then waited
    // for it (the whole compile when it was compiled in the job; -1: not through compileStage).
    bool compiledAhead = false;
    double waitMs = -1;
};

class NvrtcCompiler {
public:
    explicit NvrtcCompiler(QString cacheDirectory);

    // Throws RunnerError(compile_error) with the NVRTC log when the source does not compile. Safe to
    // call from several threads at once (NVRTC compiles separate programs concurrently; the cache
    // writes each file through a temporary and a rename, so racing writers of one entry are
    // harmless). A
    // result whose resources are known is cached; one without them is not (and a cached entry
    // without them is compiled again), so the cache never hands out a kernel with unknown registers.
    CompiledKernel compile(const NvrtcProgram &program) const;
    // Caches a kernel whose resources became known after compile() (from the loaded kernel), if it
    // is not cached yet.
    void storeIfComplete(const CompiledKernel &kernel) const;

    static QString nvrtcVersion(); // "13.0"
    // The full NVRTC option list for a program, as used in the cache key.
    static QStringList optionsFor(const NvrtcProgram &program);
    static QString cacheKey(const NvrtcProgram &program);

private:
    CubinCache m_cache;
};

} // namespace gemmscope::runner
