#include "pc_sampler.h"

#include "cuda_check.h"
#include "cupti_support.h"

#include <cuda_runtime_api.h>
#include <cupti_pcsampling.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <set>
#include <string_view>

namespace gemmscope::runner {

namespace {

constexpr std::string_view kReasonPrefix = "smsp__pcsamp_warps_issue_stalled_";
constexpr std::string_view kNotIssuedSuffix = "_not_issued";
// PCs one read can return. A GEMM kernel has a few thousand instructions; cuBLAS's a few more.
constexpr size_t kMaxPcs = 16384;
// CUPTI's software buffer for decoded samples; its default (1 MB, ~5,500 PCs with all reasons)
// is too small for a kernel with every reason on every instruction.
constexpr size_t kScratchBufferBytes = 64u << 20;

struct StallReasons {
    std::vector<uint32_t> indices;
    std::vector<std::string> names; // CUPTI's full names, by position in indices
};

StallReasons stallReasons(CUcontext context)
{
    size_t count = 0;
    CUpti_PCSamplingGetNumStallReasonsParams number{};
    number.size = CUpti_PCSamplingGetNumStallReasonsParamsSize;
    number.ctx = context;
    number.numStallReasons = &count;
    check(cuptiPCSamplingGetNumStallReasons(&number), "cuptiPCSamplingGetNumStallReasons");
    std::vector<std::vector<char>> storage(count, std::vector<char>(CUPTI_STALL_REASON_STRING_SIZE, 0));
    std::vector<char *> names(count);
    for (size_t i = 0; i < count; ++i)
        names[i] = storage[i].data();
    StallReasons reasons;
    reasons.indices.resize(count);
    CUpti_PCSamplingGetStallReasonsParams get{};
    get.size = CUpti_PCSamplingGetStallReasonsParamsSize;
    get.ctx = context;
    get.numStallReasons = count;
    get.stallReasonIndex = reasons.indices.data();
    get.stallReasons = names.data();
    check(cuptiPCSamplingGetStallReasons(&get), "cuptiPCSamplingGetStallReasons");
    for (size_t i = 0; i < count; ++i)
        reasons.names.emplace_back(storage[i].data());
    return reasons;
}

// "smsp__pcsamp_warps_issue_stalled_long_scoreboard" -> "long_scoreboard"; empty for the
// _not_issued subsets and CUPTI's bookkeeping entries (sample_count, samples_data_dropped).
std::string reasonKey(std::string_view name)
{
    if (name.substr(0, kReasonPrefix.size()) != kReasonPrefix)
        return {};
    name.remove_prefix(kReasonPrefix.size());
    if (name.size() >= kNotIssuedSuffix.size() &&
        name.substr(name.size() - kNotIssuedSuffix.size()) == kNotIssuedSuffix)
        return {};
    return std::string(name);
}

// A CUpti_PCSamplingData with room for kMaxPcs PCs of `reasons` stall reasons each.
struct SampleBuffer {
    CUpti_PCSamplingData data{};
    std::vector<CUpti_PCSamplingPCData> pcs;
    std::vector<CUpti_PCSamplingStallReason> stalls;

    explicit SampleBuffer(size_t reasons) : pcs(kMaxPcs), stalls(kMaxPcs * std::max<size_t>(reasons, 1))
    {
        data.size = sizeof(CUpti_PCSamplingData);
        data.collectNumPcs = kMaxPcs;
        data.pPcData = pcs.data();
        for (size_t i = 0; i < kMaxPcs; ++i) {
            pcs[i] = {};
            pcs[i].size = sizeof(CUpti_PCSamplingPCData);
            pcs[i].stallReason = stalls.data() + i * std::max<size_t>(reasons, 1);
        }
    }
    void reset()
    {
        data.totalNumPcs = 0;
        data.remainingNumPcs = 0;
        data.totalSamples = 0;
        data.droppedSamples = 0;
        data.hardwareBufferFull = 0;
    }
};

// Enabled for the object's life; disabled however the sampling ends.
struct SamplingEnabled {
    CUcontext context;
    explicit SamplingEnabled(CUcontext c) : context(c)
    {
        CUpti_PCSamplingEnableParams enable{};
        enable.size = CUpti_PCSamplingEnableParamsSize;
        enable.ctx = context;
        check(cuptiPCSamplingEnable(&enable), "cuptiPCSamplingEnable");
    }
    SamplingEnabled(const SamplingEnabled &) = delete;
    SamplingEnabled &operator=(const SamplingEnabled &) = delete;
    ~SamplingEnabled()
    {
        CUpti_PCSamplingDisableParams disable{};
        disable.size = CUpti_PCSamplingDisableParamsSize;
        disable.ctx = context;
        (void)cuptiPCSamplingDisable(&disable);
    }
};

// CUPTI allocates each function name for the caller, and shares one name among the records of
// that function: each distinct pointer is freed once, when every record has been read.
struct FunctionNames {
    std::set<char *> owned;
    FunctionNames() = default;
    FunctionNames(const FunctionNames &) = delete;
    FunctionNames &operator=(const FunctionNames &) = delete;
    ~FunctionNames()
    {
        for (char *name : owned)
            std::free(name);
    }
};

void collect(const SampleBuffer &buffer, const StallReasons &reasons,
             std::map<std::pair<std::string, uint64_t>, SampledPc> &byPc, FunctionNames &names)
{
    for (size_t i = 0; i < buffer.data.totalNumPcs; ++i) {
        const CUpti_PCSamplingPCData &pc = buffer.pcs[i];
        const std::string function = pc.functionName ? pc.functionName : "";
        SampledPc &entry = byPc[{function, pc.pcOffset}];
        entry.function = function;
        entry.pcOffset = pc.pcOffset;
        for (size_t r = 0; r < pc.stallReasonCount; ++r) {
            const auto at = std::find(reasons.indices.begin(), reasons.indices.end(),
                                      pc.stallReason[r].pcSamplingStallReasonIndex);
            if (at == reasons.indices.end() || pc.stallReason[r].samples == 0)
                continue;
            const std::string key = reasonKey(reasons.names[size_t(at - reasons.indices.begin())]);
            if (!key.empty())
                entry.stalls[key] += pc.stallReason[r].samples;
        }
        if (pc.functionName)
            names.owned.insert(pc.functionName);
    }
}

PcSampling sample(const std::function<void()> &launch, int period)
{
    const CurrentDevice current = currentDevice();
    FunctionNames names; // outlives every buffer CUPTI writes names into
    // Declared before the sampling is enabled: Disable flushes what GetData did not take into it.
    std::unique_ptr<SampleBuffer> flushed;
    std::optional<SamplingEnabled> enabled(std::in_place, current.context);
    const StallReasons reasons = stallReasons(current.context);
    flushed = std::make_unique<SampleBuffer>(reasons.indices.size());
    SampleBuffer &configured = *flushed;
    std::vector<CUpti_PCSamplingConfigurationInfo> config(5);
    config[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
    config[0].attributeData.samplingPeriodData.samplingPeriod = uint32_t(period);
    config[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON;
    config[1].attributeData.stallReasonData.stallReasonCount = reasons.indices.size();
    config[1].attributeData.stallReasonData.pStallReasonIndex =
        const_cast<uint32_t *>(reasons.indices.data());
    config[2].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
    config[2].attributeData.collectionModeData.collectionMode =
        CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED;
    config[3].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
    config[3].attributeData.samplingDataBufferData.samplingDataBuffer = &configured.data;
    config[4].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE;
    config[4].attributeData.scratchBufferSizeData.scratchBufferSize = kScratchBufferBytes;
    CUpti_PCSamplingConfigurationInfoParams configure{};
    configure.size = CUpti_PCSamplingConfigurationInfoParamsSize;
    configure.ctx = current.context;
    configure.numAttributes = config.size();
    configure.pPCSamplingConfigurationInfo = config.data();
    check(cuptiPCSamplingSetConfigurationAttribute(&configure), "cuptiPCSamplingSetConfigurationAttribute");

    launch();
    GEMMSCOPE_CUDA(cudaDeviceSynchronize());

    PcSampling result;
    result.period = period;
    std::map<std::pair<std::string, uint64_t>, SampledPc> byPc;
    SampleBuffer read(reasons.indices.size());
    for (int round = 0; round < 1024; ++round) { // each read returns at most kMaxPcs PCs
        read.reset();
        CUpti_PCSamplingGetDataParams get{};
        get.size = CUpti_PCSamplingGetDataParamsSize;
        get.ctx = current.context;
        get.pcSamplingData = &read.data;
        const CUptiResult status = cuptiPCSamplingGetData(&get);
        if (status == CUPTI_ERROR_OUT_OF_MEMORY)
            result.hardwareBufferFull = true;
        else
            check(status, "cuptiPCSamplingGetData");
        collect(read, reasons, byPc, names);
        result.totalSamples += read.data.totalSamples;
        result.droppedSamples += read.data.droppedSamples;
        result.hardwareBufferFull = result.hardwareBufferFull || read.data.hardwareBufferFull != 0;
        if (read.data.remainingNumPcs == 0 || status != CUPTI_SUCCESS)
            break;
    }
    enabled.reset(); // disables sampling: the records GetData left are flushed into `configured`
    collect(configured, reasons, byPc, names);
    result.totalSamples += configured.data.totalSamples;
    result.droppedSamples += configured.data.droppedSamples;
    for (auto &[key, pc] : byPc)
        if (!pc.stalls.empty())
            result.pcs.push_back(std::move(pc));
    return result;
}

} // namespace

int samplingPeriodFor(double launchMs, int sms, double clockMhz, double targetSamples)
{
    const double cycles = launchMs * 1e-3 * clockMhz * 1e6 * std::max(sms, 1);
    if (!(cycles > 0) || !(targetSamples > 0))
        return 10;
    const int period = int(std::lround(std::log2(cycles / targetSamples)));
    return std::clamp(period, 5, 31);
}

PcSamplingOutcome samplePcs(const std::function<void()> &launch, int period)
{
    try {
        return PcSamplingOutcome{sample(launch, period), {}};
    } catch (const CuptiFailure &failure) {
        return PcSamplingOutcome{std::nullopt, failure.sentence};
    }
}

} // namespace gemmscope::runner
