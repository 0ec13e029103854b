#include "counter_profiler.h"

#include "cuda_check.h"
#include "cupti_support.h"
#include "gpu_wait.h"

#include <cuda.h> // types only: the runner does not link libcuda
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <QFile>
#include <QFileInfo>
#include <QStringList>
#include <dlfcn.h>

namespace gemmscope::runner {

namespace {

// One launch of a GEMM is one kernel (ours) or a few (cuBLAS may add a split-K reduction); the
// counter data image holds this many ranges, and a launch with more is reported, not truncated.
constexpr size_t kMaxKernels = 64;
// With kernel replay CUPTI runs every pass inside the launch, so the first Stop says "all
// submitted"; the loop only guards against a CUPTI that asks for the launch again.
constexpr int kMaxLaunches = 8;

void requireProfilingSupport(CUdevice device)
{
    auto params =
        cuptiParams<CUpti_Profiler_DeviceSupported_Params>(CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
    params.cuDevice = device;
    params.api = CUPTI_PROFILER_RANGE_PROFILING;
    check(cuptiProfilerDeviceSupported(&params), "cuptiProfilerDeviceSupported");
    if (params.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return;
    QStringList why;
    if (params.architecture == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
        why << QStringLiteral(
            "its architecture is not supported (compute capability 7.5 or newer is needed)");
    if (params.sli == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
        why << QStringLiteral("SLI is enabled");
    if (params.vGpu == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
        why << QStringLiteral("this vGPU does not support profiling");
    else if (params.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED)
        why << QStringLiteral("profiling is disabled for this vGPU");
    if (params.confidentialCompute == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
        why << QStringLiteral("confidential computing is enabled");
    if (params.cmp == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
        why << QStringLiteral("it is a crypto-mining processor (CMP)");
    if (params.wsl == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
        why << QStringLiteral("profiling is not supported under WSL");
    if (why.isEmpty())
        why << QStringLiteral("CUPTI did not say why");
    throw CuptiFailure{QStringLiteral("CUPTI cannot read hardware counters on this GPU: %1 "
                                      "(cuptiProfilerDeviceSupported).")
                           .arg(why.join(QStringLiteral("; ")))};
}

// Everything CUPTI holds for one profile() call, released in reverse order however it ends.
// Errors while releasing are ignored: the reading (or the first failure) is already decided.
struct Session {
    bool initialized = false;
    CUpti_Profiler_Host_Object *host = nullptr;
    CUpti_RangeProfiler_Object *rangeProfiler = nullptr;
    bool started = false;

    Session() = default;
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;
    ~Session()
    {
        if (started) {
            auto stop =
                cuptiParams<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
            stop.pRangeProfilerObject = rangeProfiler;
            (void)cuptiRangeProfilerStop(&stop);
        }
        if (rangeProfiler) {
            auto disable = cuptiParams<CUpti_RangeProfiler_Disable_Params>(
                CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
            disable.pRangeProfilerObject = rangeProfiler;
            (void)cuptiRangeProfilerDisable(&disable);
        }
        if (host) {
            auto deinit = cuptiParams<CUpti_Profiler_Host_Deinitialize_Params>(
                CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
            deinit.pHostObject = host;
            (void)cuptiProfilerHostDeinitialize(&deinit);
        }
        if (initialized) {
            auto deinit = cuptiParams<CUpti_Profiler_DeInitialize_Params>(
                CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
            (void)cuptiProfilerDeInitialize(&deinit);
        }
    }
};

std::vector<uint8_t> counterAvailabilityImage(CUcontext context)
{
    auto params = cuptiParams<CUpti_Profiler_GetCounterAvailability_Params>(
        CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
    params.ctx = context;
    check(cuptiProfilerGetCounterAvailability(&params), "cuptiProfilerGetCounterAvailability");
    std::vector<uint8_t> image(params.counterAvailabilityImageSize);
    params.pCounterAvailabilityImage = image.data();
    check(cuptiProfilerGetCounterAvailability(&params), "cuptiProfilerGetCounterAvailability");
    return image;
}

// The host object (metric scheduling and evaluation for this chip) and the config image: which
// counters to program in which pass.
std::vector<uint8_t> configImage(Session &session, const std::string &chipName,
                                 std::vector<uint8_t> &availability, std::vector<const char *> &metrics)
{
    auto init =
        cuptiParams<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    init.pChipName = chipName.c_str();
    init.pCounterAvailabilityImage = availability.data();
    check(cuptiProfilerHostInitialize(&init), "cuptiProfilerHostInitialize");
    session.host = init.pHostObject;

    auto add = cuptiParams<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    add.pHostObject = session.host;
    add.ppMetricNames = metrics.data();
    add.numMetrics = metrics.size();
    check(cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");

    auto size = cuptiParams<CUpti_Profiler_Host_GetConfigImageSize_Params>(
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    size.pHostObject = session.host;
    check(cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
    std::vector<uint8_t> image(size.configImageSize);
    auto get = cuptiParams<CUpti_Profiler_Host_GetConfigImage_Params>(
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    get.pHostObject = session.host;
    get.pConfigImage = image.data();
    get.configImageSize = image.size();
    check(cuptiProfilerHostGetConfigImage(&get), "cuptiProfilerHostGetConfigImage");
    return image;
}

// The buffer the decoded counter values land in, sized for kMaxKernels ranges.
std::vector<uint8_t> counterDataImage(Session &session, std::vector<const char *> &metrics)
{
    auto size = cuptiParams<CUpti_RangeProfiler_GetCounterDataSize_Params>(
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
    size.pRangeProfilerObject = session.rangeProfiler;
    size.pMetricNames = metrics.data();
    size.numMetrics = metrics.size();
    size.maxNumOfRanges = kMaxKernels;
    size.maxNumRangeTreeNodes = kMaxKernels;
    check(cuptiRangeProfilerGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize");
    std::vector<uint8_t> image(size.counterDataSize, 0);
    auto init = cuptiParams<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
    init.pRangeProfilerObject = session.rangeProfiler;
    init.pCounterData = image.data();
    init.counterDataSize = image.size();
    check(cuptiRangeProfilerCounterDataImageInitialize(&init),
          "cuptiRangeProfilerCounterDataImageInitialize");
    return image;
}

CounterReading readCounters(const std::vector<std::string> &metricNames, const std::function<void()> &launch)
{
    std::vector<const char *> metrics;
    for (const std::string &name : metricNames)
        metrics.push_back(name.c_str());
    const CurrentDevice current = currentDevice();

    preloadNvperfHost();
    Session session;
    auto init = cuptiParams<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    check(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
    session.initialized = true;
    requireProfilingSupport(current.device);

    auto chip = cuptiParams<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
    chip.deviceIndex = size_t(current.device);
    check(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
    const std::string chipName = chip.pChipName ? chip.pChipName : "";
    std::vector<uint8_t> availability = counterAvailabilityImage(current.context);
    const std::vector<uint8_t> config = configImage(session, chipName, availability, metrics);

    auto enable =
        cuptiParams<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    enable.ctx = current.context;
    check(cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable");
    session.rangeProfiler = enable.pRangeProfilerObject;
    std::vector<uint8_t> counterData = counterDataImage(session, metrics);

    auto setConfig =
        cuptiParams<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
    setConfig.pRangeProfilerObject = session.rangeProfiler;
    setConfig.configSize = config.size();
    setConfig.pConfig = config.data();
    setConfig.counterDataImageSize = counterData.size();
    setConfig.pCounterDataImage = counterData.data();
    setConfig.range = CUPTI_AutoRange;         // one range per kernel
    setConfig.replayMode = CUPTI_KernelReplay; // CUPTI replays each kernel for every pass it needs
    setConfig.maxRangesPerPass = kMaxKernels;
    setConfig.numNestingLevels = 1; // auto range: one level
    setConfig.minNestingLevel = 1;
    setConfig.passIndex = 0;
    setConfig.targetNestingLevel = 0;
    check(cuptiRangeProfilerSetConfig(&setConfig), "cuptiRangeProfilerSetConfig");

    bool allPassesSubmitted = false;
    for (int i = 0; i < kMaxLaunches && !allPassesSubmitted; ++i) {
        auto start =
            cuptiParams<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
        start.pRangeProfilerObject = session.rangeProfiler;
        check(cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart");
        session.started = true;
        launch(); // a CUDA error here propagates as RunnerError; the session still cleans up
        waitForDefaultStream();
        auto stop = cuptiParams<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
        stop.pRangeProfilerObject = session.rangeProfiler;
        session.started = false;
        check(cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop");
        allPassesSubmitted = stop.isAllPassSubmitted != 0;
    }
    if (!allPassesSubmitted)
        throw CuptiFailure{QStringLiteral("CUPTI still asked for more passes after %1 launches; the "
                                          "counters were not read.")
                               .arg(kMaxLaunches)};

    auto decode =
        cuptiParams<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
    decode.pRangeProfilerObject = session.rangeProfiler;
    check(cuptiRangeProfilerDecodeData(&decode), "cuptiRangeProfilerDecodeData");
    if (decode.numOfRangeDropped > 0)
        throw CuptiFailure{QStringLiteral("The launch ran more than %1 kernels, so CUPTI dropped %2 of them "
                                          "and the totals would be incomplete.")
                               .arg(kMaxKernels)
                               .arg(decode.numOfRangeDropped)};

    auto info = cuptiParams<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
    info.pCounterDataImage = counterData.data();
    info.counterDataImageSize = counterData.size();
    check(cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
    if (info.numTotalRanges == 0)
        throw CuptiFailure{QStringLiteral("CUPTI recorded no kernel for the launch, so there are no counter "
                                          "values (cuptiRangeProfilerGetCounterDataInfo).")};

    CounterReading reading;
    for (const std::string &name : metricNames)
        reading.values.emplace_back(name, 0.0);
    std::vector<double> values(metrics.size());
    for (size_t range = 0; range < info.numTotalRanges; ++range) {
        auto evaluate = cuptiParams<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
            CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
        evaluate.pHostObject = session.host;
        evaluate.pCounterDataImage = counterData.data();
        evaluate.counterDataImageSize = counterData.size();
        evaluate.rangeIndex = range;
        evaluate.ppMetricNames = metrics.data();
        evaluate.numMetrics = metrics.size();
        evaluate.pMetricValues = values.data();
        check(cuptiProfilerHostEvaluateToGpuValues(&evaluate), "cuptiProfilerHostEvaluateToGpuValues");
        for (size_t i = 0; i < values.size(); ++i)
            reading.values[i].second += values[i];
        reading.perKernel.push_back(values);
    }
    reading.kernels = int(info.numTotalRanges);
    return reading;
}

} // namespace

double CounterReading::value(const std::string &metric) const
{
    for (const auto &[name, v] : values)
        if (name == metric)
            return v;
    return 0;
}

CounterProfiler::CounterProfiler(std::vector<std::string> metrics) : m_metrics(std::move(metrics)) {}

CounterOutcome CounterProfiler::profile(const std::function<void()> &launch) const
{
    try {
        return CounterOutcome{readCounters(m_metrics, launch), {}};
    } catch (const CuptiFailure &failure) {
        return CounterOutcome{std::nullopt, failure.sentence,
                              failure.result == CUPTI_ERROR_INVALID_METRIC_NAME};
    }
}

} // namespace gemmscope::runner
