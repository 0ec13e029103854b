#include "stage_catalog.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace gemmscope {
namespace {

ParamSpec choiceParam(std::string name, std::string label, std::string help, std::vector<int> choices,
                      int def)
{
    ParamSpec p;
    p.name = std::move(name);
    p.label = std::move(label);
    p.help = std::move(help);
    p.choices = std::move(choices);
    p.min = p.choices.front();
    p.max = p.choices.back();
    p.step = 1;
    p.defaultValue = def;
    return p;
}

std::vector<ParamSpec> registerTileParams()
{
    const std::vector<int> blockTiles = {16, 32, 48, 64, 96, 128, 192, 256};
    const std::vector<int> reductionTiles = {4, 8, 12, 16, 24, 32};
    const std::vector<int> threadTiles = {1, 2, 3, 4, 6, 8, 12, 16};
    return {
        choiceParam("BM", "Block tile rows (BM)", "Rows of C computed by one thread block.", blockTiles, 64),
        choiceParam("BN", "Block tile columns (BN)", "Columns of C computed by one thread block.", blockTiles,
                    64),
        choiceParam("BK", "Reduction tile (BK)",
                    "Depth of the A and B tiles staged in shared memory per step.", reductionTiles, 8),
        choiceParam("TM", "Thread tile rows (TM)", "Rows of C each thread accumulates in registers.",
                    threadTiles, 4),
        choiceParam("TN", "Thread tile columns (TN)", "Columns of C each thread accumulates in registers.",
                    threadTiles, 4),
    };
}

std::vector<StageInfo> buildStages()
{
    // CUDA 13's NVRTC compiles nothing older than sm_75 (Turing) and its cuBLAS runs on nothing
    // older: every stage's floor is kCuda13MinArch, whatever the kernel itself would need.
    constexpr int minArch = kCuda13MinArch;
    std::vector<StageInfo> s;
    const std::vector<int> blockSides = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
    s.push_back(
        {StageId::Naive,
         "naive",
         "Naive: one thread per output",
         "worklog step 0",
         "Each thread computes one element of C, reading a whole row of A and column of B from global "
         "memory. 0.25 FLOP per byte: firmly memory-bound.",
         "naive.cuh",
         "gemmscope::naive",
         {choiceParam("BX", "Threads in x (BX)", "Block width; consecutive threads take consecutive columns.",
                      blockSides, 16),
          choiceParam("BY", "Threads in y (BY)", "Block height; each row of threads takes one row of C.",
                      blockSides, 16)},
         minArch});
    s.push_back(
        {StageId::SmemTiled,
         "smem_tiled",
         "Shared-memory tiling",
         "worklog step 1; guide 32x32 +1",
         "The block stages TILE x TILE tiles of A and B in shared memory and every thread reuses them: "
         "T/4 FLOP per global byte. PAD=1 is the guide's padded B tile against bank conflicts.",
         "smem_tiled.cuh",
         "gemmscope::smem_tiled",
         {choiceParam("TILE", "Tile size (TILE)", "Side of the square tile and of the thread block.",
                      {8, 16, 32}, 16),
          choiceParam("PAD", "B tile padding (PAD)", "Extra column in the B tile (the guide's +1).", {0, 1},
                      0)},
         minArch});
    s.push_back(
        {StageId::Coarsened, "coarsened", "Thread coarsening (register tiling)", "worklog step 2",
         "Each thread accumulates a TM x TN micro-tile in registers from a BM x BN block tile: "
         "BM*BN/(2(BM+BN)) FLOP per global byte. Loads as in the worklog: B loads are TN floats apart.",
         "coarsened.cuh", "gemmscope::coarsened", registerTileParams(), minArch});
    s.push_back({StageId::Coalesced, "coalesced", "Coalesced cooperative loads", "worklog steps 3 and 6",
                 "Threads stride through each tile by linear id, so neighbouring lanes load neighbouring "
                 "addresses. At 192x192 this is step 6 (double buffering removed).",
                 "coalesced.cuh", "gemmscope::coalesced", registerTileParams(), minArch});
    s.push_back(
        {StageId::DoubleBuffered, "double_buffered", "Double buffering", "worklog steps 4, 5a, 5b",
         "Two shared-memory buffers: the block loads the next tile while it computes on the current one. "
         "Twice the shared memory, one barrier per tile.",
         "double_buffered.cuh", "gemmscope::double_buffered", registerTileParams(), minArch});
    s.push_back(
        {StageId::Strided, "strided", "Strided thread layout", "worklog step 7",
         "Thread (tx, ty) owns rows ty + i*BM/TM and columns tx + j*BN/TN, so neighbouring lanes store "
         "neighbouring columns of C: the stores become coalesced.",
         "strided.cuh", "gemmscope::strided", registerTileParams(), minArch});
    s.back().derivedFrom = "coalesced"; // step 7 changes step 6, not the double-buffered step 5b
    s.push_back(
        {StageId::Final, "final", "__restrict__ and #pragma unroll", "worklog step 8",
         "Step 7 with non-aliasing pointers and fully unrolled BK, TM and TN loops: the compiler keeps the "
         "micro-tile in registers and schedules independent FMAs.",
         "final.cuh", "gemmscope::final_kernel", registerTileParams(), minArch});
    StageInfo fp32{StageId::CublasFp32,
                   "cublas_fp32",
                   "cuBLAS SGEMM (FP32)",
                   "baseline",
                   "NVIDIA's library SGEMM with pedantic FP32 math (no TF32): the reference every stage is "
                   "verified and measured against.",
                   "",
                   "",
                   {},
                   minArch};
    fp32.isLibrary = true;
    s.push_back(fp32);
    StageInfo tf32{StageId::CublasTf32,
                   "cublas_tf32",
                   "cuBLAS SGEMM (TF32 tensor cores)",
                   "baseline",
                   "cuBLAS with TF32 tensor-core math: FP32 inputs rounded to 10-bit mantissas. Far faster, "
                   "verified at a looser tolerance.",
                   "",
                   "",
                   {},
                   80};
    tf32.isLibrary = true;
    tf32.precision = Precision::Tf32;
    s.push_back(tf32);
    return s;
}

std::vector<Preset> buildPresets()
{
    const ParamValues tiles64 = {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}};
    const ParamValues tiles128 = {{"BM", 128}, {"BN", 128}, {"BK", 12}, {"TM", 8}, {"TN", 8}};
    const ParamValues tiles192 = {{"BM", 192}, {"BN", 192}, {"BK", 16}, {"TM", 12}, {"TN", 12}};
    ParamValues tiles192bk8 = tiles192;
    tiles192bk8["BK"] = 8;
    return {
        {"worklog-0",
         "Step 0: naive, 16x16 threads",
         StageId::Naive,
         {{"BX", 16}, {"BY", 16}},
         "worklog step 0",
         956.41},
        {"worklog-1",
         "Step 1: shared-memory tiles, TILE = 16",
         StageId::SmemTiled,
         {{"TILE", 16}, {"PAD", 0}},
         "worklog step 1",
         593.53},
        {"worklog-2", "Step 2: thread coarsening, 64x64 / 4x4", StageId::Coarsened, tiles64, "worklog step 2",
         194.28},
        {"worklog-3", "Step 3: coalesced loads, 64x64", StageId::Coalesced, tiles64, "worklog step 3",
         193.43},
        {"worklog-4", "Step 4: double buffering, 64x64", StageId::DoubleBuffered, tiles64, "worklog step 4",
         190.58},
        {"worklog-5a", "Step 5a: larger tiles, 128x128 / 8x8", StageId::DoubleBuffered, tiles128,
         "worklog step 5", 169.00},
        {"worklog-5b", "Step 5b: larger tiles, 192x192 / 12x12", StageId::DoubleBuffered, tiles192,
         "worklog step 5", 136.86},
        {"worklog-6", "Step 6: double buffering removed, 192x192", StageId::Coalesced, tiles192,
         "worklog step 6", 123.21},
        {"worklog-7", "Step 7: strided thread layout, 192x192", StageId::Strided, tiles192, "worklog step 7",
         111.75},
        {"worklog-8", "Step 8: __restrict__ + #pragma unroll", StageId::Final, tiles192, "worklog step 8",
         108.89},
        {"worklog-8-bk8", "Step 8 with BK = 8 (the worklog's H100/B200 variant)", StageId::Final, tiles192bk8,
         "worklog, newer GPUs", std::nullopt},
        {"guide-32",
         "Guide: 32x32 tiles, no padding",
         StageId::SmemTiled,
         {{"TILE", 32}, {"PAD", 0}},
         "guide",
         std::nullopt},
        {"guide-32-padded",
         "Guide: 32x32 tiles, +1 padded B tile",
         StageId::SmemTiled,
         {{"TILE", 32}, {"PAD", 1}},
         "guide",
         std::nullopt},
        {"cublas_fp32", "cuBLAS SGEMM, FP32 (pedantic)", StageId::CublasFp32, {}, "baseline", std::nullopt},
        {"cublas_tf32", "cuBLAS SGEMM, TF32 tensor cores", StageId::CublasTf32, {}, "baseline", std::nullopt},
    };
}

bool isRegisterTiled(StageId id)
{
    return id == StageId::Coarsened || id == StageId::Coalesced || id == StageId::DoubleBuffered ||
           id == StageId::Strided || id == StageId::Final;
}

int staticSharedBytes(StageId id, const ParamValues &p)
{
    // In 64 bits and saturated: launchGeometry() takes any parameters, valid or not.
    const auto v = [&p](const char *name) { return (long long)paramValue(p, name); };
    long long bytes = 0;
    switch (id) {
    case StageId::SmemTiled:
        bytes = (long long)sizeof(float) * (v("TILE") * v("TILE") + v("TILE") * (v("TILE") + v("PAD")));
        break;
    case StageId::Coarsened:
    case StageId::Coalesced:
    case StageId::Strided:
    case StageId::Final:
        bytes = (long long)sizeof(float) * (v("BM") + v("BN")) * v("BK");
        break;
    case StageId::DoubleBuffered:
        bytes = 2 * (long long)sizeof(float) * (v("BM") + v("BN")) * v("BK");
        break;
    default:
        break;
    }
    return int(
        std::clamp<long long>(bytes, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

std::string str(long long v)
{
    return std::to_string(v);
}

constexpr int kStaticSharedLimit = 48 * 1024; // static __shared__ arrays; more needs dynamic opt-in
constexpr int kMaxThreadsPerBlock = 1024;
constexpr int kMaxAccumulators = 192; // TM*TN beyond this cannot stay in 255 registers
constexpr long long kMaxGridY = 65535;

} // namespace

const std::vector<StageInfo> &stages()
{
    static const std::vector<StageInfo> all = buildStages();
    return all;
}

const StageInfo *findStage(std::string_view key)
{
    for (const auto &s : stages())
        if (s.key == key)
            return &s;
    return nullptr;
}

const StageInfo &stageInfo(StageId id)
{
    for (const auto &s : stages())
        if (s.id == id)
            return s;
    return stages().front(); // unreachable: every StageId has an entry
}

const std::vector<Preset> &presets()
{
    static const std::vector<Preset> all = buildPresets();
    return all;
}

const Preset *findPreset(std::string_view key)
{
    for (const auto &p : presets())
        if (p.key == key)
            return &p;
    return nullptr;
}

int paramValue(const ParamValues &params, std::string_view name, int fallback)
{
    const auto it = params.find(std::string(name));
    return it == params.end() ? fallback : it->second;
}

ParamValues defaultParams(StageId id)
{
    ParamValues v;
    for (const auto &spec : stageInfo(id).params)
        v[spec.name] = spec.defaultValue;
    return v;
}

std::vector<std::string> violations(StageId id, const ParamValues &params, const ProblemSize &size)
{
    std::vector<std::string> out;
    const StageInfo &info = stageInfo(id);

    // Problem size first: it applies to every stage, cuBLAS included. No product is formed before
    // each factor is known to be in [1, 2^31): 2^32 x 2^32 x 2^32 must be refused, not wrap to 0.
    const long long limit = std::numeric_limits<int>::max();
    bool sizeUsable = true;
    if (size.m < 1 || size.n < 1 || size.k < 1) {
        out.push_back("M, N and K must each be at least 1 (got " + str(size.m) + " x " + str(size.n) + " x " +
                      str(size.k) + ").");
        sizeUsable = false;
    } else if (size.m > limit || size.n > limit || size.k > limit) {
        out.push_back("M, N and K must each be below 2^31 = 2147483648 (got " + str(size.m) + " x " +
                      str(size.n) + " x " + str(size.k) + "): the kernels index with 32-bit integers.");
        sizeUsable = false;
    } else if (size.m > limit / size.k || size.k > limit / size.n || size.m > limit / size.n) {
        out.push_back("Each matrix must have fewer than 2^31 elements (A is " + str(size.m) + " x " +
                      str(size.k) + ", B " + str(size.k) + " x " + str(size.n) + ", C " + str(size.m) +
                      " x " + str(size.n) + "): the kernels index with 32-bit integers.");
    }

    for (const auto &[name, value] : params) {
        const bool known = std::any_of(info.params.begin(), info.params.end(),
                                       [&](const ParamSpec &s) { return s.name == name; });
        if (!known)
            out.push_back("The stage \"" + info.title + "\" has no parameter " + name + ".");
    }
    bool allPresent = true;
    for (const auto &spec : info.params) {
        auto it = params.find(spec.name);
        if (it == params.end()) {
            out.push_back(spec.name + " is missing: " + spec.label + " needs a value.");
            allPresent = false;
            continue;
        }
        const int v = it->second;
        if (!spec.choices.empty()) {
            if (std::find(spec.choices.begin(), spec.choices.end(), v) == spec.choices.end()) {
                std::string list;
                for (int c : spec.choices)
                    list += (list.empty() ? "" : ", ") + std::to_string(c);
                out.push_back(spec.name + " (" + std::to_string(v) + ") must be one of " + list + ".");
                allPresent = false;
            }
        } else if (v < spec.min || v > spec.max) {
            out.push_back(spec.name + " (" + std::to_string(v) + ") must be between " +
                          std::to_string(spec.min) + " and " + std::to_string(spec.max) + ".");
            allPresent = false;
        }
    }
    if (!allPresent || info.isLibrary)
        return out;

    if (id == StageId::Naive) {
        const int bx = paramValue(params, "BX"), by = paramValue(params, "BY");
        if (bx * by > kMaxThreadsPerBlock)
            out.push_back("BX x BY (" + std::to_string(bx) + " x " + std::to_string(by) + " = " +
                          std::to_string(bx * by) + ") must not exceed 1024 threads per block.");
        if (sizeUsable && (size.m + by - 1) / by > kMaxGridY)
            out.push_back("M (" + str(size.m) + ") needs more than 65535 blocks in y at BY = " +
                          std::to_string(by) + "; raise BY.");
    }
    if (isRegisterTiled(id)) {
        const int bm = paramValue(params, "BM"), bn = paramValue(params, "BN"), bk = paramValue(params, "BK");
        const int tm = paramValue(params, "TM"), tn = paramValue(params, "TN");
        bool divisible = true;
        if (bm % tm != 0) {
            out.push_back("BM (" + std::to_string(bm) + ") must be a multiple of TM (" + std::to_string(tm) +
                          "): each thread owns TM rows of the block tile.");
            divisible = false;
        }
        if (bn % tn != 0) {
            out.push_back("BN (" + std::to_string(bn) + ") must be a multiple of TN (" + std::to_string(tn) +
                          "): each thread owns TN columns of the block tile.");
            divisible = false;
        }
        if (divisible) {
            const int threadsX = bn / tn, threadsY = bm / tm;
            if (threadsX * threadsY > kMaxThreadsPerBlock)
                out.push_back("BM/TM x BN/TN (" + std::to_string(threadsY) + " x " +
                              std::to_string(threadsX) + " = " + std::to_string(threadsX * threadsY) +
                              " threads) must not exceed 1024 threads per block.");
            if (id == StageId::Coarsened && bk > threadsX)
                out.push_back("BK (" + std::to_string(bk) +
                              ") must not exceed the threads in x (BN/TN = " + std::to_string(bn) + "/" +
                              std::to_string(tn) + " = " + std::to_string(threadsX) +
                              "): step 2's A loads use the threads with tx < BK, one column each.");
            if (id == StageId::Coarsened && bk > threadsY)
                out.push_back("BK (" + std::to_string(bk) +
                              ") must not exceed the threads in y (BM/TM = " + std::to_string(bm) + "/" +
                              std::to_string(tm) + " = " + std::to_string(threadsY) +
                              "): step 2's B loads use the threads with ty < BK, one row each.");
        }
        if (tm * tn > kMaxAccumulators)
            out.push_back("TM x TN (" + std::to_string(tm) + " x " + std::to_string(tn) + " = " +
                          std::to_string(tm * tn) +
                          " accumulators) cannot stay in the 255 registers a thread may "
                          "use; keep it at most " +
                          std::to_string(kMaxAccumulators) + ".");
        if (sizeUsable && (size.m + bm - 1) / bm > kMaxGridY)
            out.push_back("M (" + str(size.m) +
                          ") needs more than 65535 blocks in y at BM = " + std::to_string(bm) + ".");
    }
    const int smem = staticSharedBytes(id, params);
    if (smem > kStaticSharedLimit)
        out.push_back("The tiles need " + std::to_string(smem) +
                      " bytes of shared memory per block; static "
                      "shared memory is limited to 49152 bytes (48 KiB). Reduce BM, BN or BK.");
    return out;
}

LaunchGeometry launchGeometry(StageId id, const ParamValues &p, const ProblemSize &size)
{
    LaunchGeometry g;
    // Without overflow or a division by zero for any extent and tile (a refused configuration
    // still gets a geometry: zero blocks where a tile is not positive).
    auto blocks = [](long long extent, int tile) -> long long {
        return extent < 1 || tile < 1 ? 0 : (extent - 1) / tile + 1;
    };
    switch (id) {
    case StageId::Naive:
        g.blockX = paramValue(p, "BX");
        g.blockY = paramValue(p, "BY");
        g.gridX = blocks(size.n, g.blockX);
        g.gridY = blocks(size.m, g.blockY);
        break;
    case StageId::SmemTiled:
        g.blockX = g.blockY = paramValue(p, "TILE");
        g.gridX = blocks(size.n, g.blockX);
        g.gridY = blocks(size.m, g.blockY);
        break;
    case StageId::CublasFp32:
    case StageId::CublasTf32:
        break; // cuBLAS chooses its own launch
    default:
        g.blockX = paramValue(p, "BN") / std::max(1, paramValue(p, "TN"));
        g.blockY = paramValue(p, "BM") / std::max(1, paramValue(p, "TM"));
        g.gridX = blocks(size.n, std::max(1, paramValue(p, "BN")));
        g.gridY = blocks(size.m, std::max(1, paramValue(p, "BM")));
        break;
    }
    g.staticSmemBytes = staticSharedBytes(id, p);
    return g;
}

std::string kernelNameExpression(StageId id, const ParamValues &params)
{
    const StageInfo &info = stageInfo(id);
    if (info.isLibrary)
        return {};
    std::ostringstream s;
    s << info.kernelName << '<';
    for (std::size_t i = 0; i < info.params.size(); ++i)
        s << (i ? ", " : "") << paramValue(params, info.params[i].name);
    s << '>';
    return s.str();
}

std::string formatParams(const ParamValues &params)
{
    // The order a reader expects (block tile before thread tile), not the map's alphabetical one.
    static const std::vector<std::string> order = {"BX", "BY", "TILE", "PAD", "BM", "BN", "BK", "TM", "TN"};
    auto rank = [&](const std::string &name) {
        auto it = std::find(order.begin(), order.end(), name);
        return it == order.end() ? order.size() : std::size_t(it - order.begin());
    };
    std::vector<std::pair<std::string, int>> sorted(params.begin(), params.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](const auto &a, const auto &b) { return rank(a.first) < rank(b.first); });
    std::string out;
    for (const auto &[name, value] : sorted)
        out += (out.empty() ? "" : " ") + name + "=" + std::to_string(value);
    return out;
}

} // namespace gemmscope
