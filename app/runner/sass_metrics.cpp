#include "sass_metrics.h"

#include "cuda_check.h"
#include "cupti_support.h"

#include <cuda_runtime_api.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <QStringList>
#include <string_view>

namespace gemmscope::runner {

namespace {

constexpr std::string_view kPrefix = "smsp__sass_";

// Configured for the device for the object's life (SetConfig ... UnsetConfig), and enabled on
// the context while `enabled` (Enable ... Disable); both undone however the collection ends.
struct SassMetricsSession {
    uint32_t deviceIndex = 0;
    CUcontext context = nullptr;
    bool configured = false, enabled = false;

    SassMetricsSession() = default;
    SassMetricsSession(const SassMetricsSession &) = delete;
    SassMetricsSession &operator=(const SassMetricsSession &) = delete;
    void disable()
    {
        if (!enabled)
            return;
        auto params =
            cuptiParams<CUpti_SassMetricsDisable_Params>(CUpti_SassMetricsDisable_Params_STRUCT_SIZE);
        params.ctx = context;
        (void)cuptiSassMetricsDisable(&params);
        enabled = false;
    }
    ~SassMetricsSession()
    {
        disable();
        if (configured) {
            auto params = cuptiParams<CUpti_SassMetricsUnsetConfig_Params>(
                CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE);
            params.deviceIndex = deviceIndex;
            (void)cuptiSassMetricsUnsetConfig(&params);
        }
    }
};

std::string chipName(CUdevice device)
{
    auto chip = cuptiParams<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
    chip.deviceIndex = size_t(device);
    check(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
    return chip.pChipName ? chip.pChipName : "";
}

std::vector<InstructionMetrics> collect(const std::function<void()> &launch,
                                        const std::vector<std::string> &metrics)
{
    const CurrentDevice current = currentDevice();
    const std::string chip = chipName(current.device);

    std::vector<CUpti_SassMetrics_Config> configs;
    std::map<uint64_t, std::string> names; // metric id -> short name
    QStringList unknown;
    for (const std::string &metric : metrics) {
        auto properties = cuptiParams<CUpti_SassMetrics_GetProperties_Params>(
            CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE);
        properties.pChipName = chip.c_str();
        properties.pMetricName = metric.c_str();
        const CUptiResult status = cuptiSassMetricsGetProperties(&properties);
        if (status == CUPTI_ERROR_INVALID_METRIC_NAME || status == CUPTI_ERROR_INVALID_PARAMETER) {
            unknown << QString::fromStdString(metric);
            continue;
        }
        check(status, "cuptiSassMetricsGetProperties");
        configs.push_back({properties.metric.metricId, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU});
        std::string_view name = metric;
        if (name.substr(0, kPrefix.size()) == kPrefix)
            name.remove_prefix(kPrefix.size());
        names[properties.metric.metricId] = std::string(name);
    }
    if (configs.empty())
        throw CuptiFailure{QStringLiteral("CUPTI knows none of the per-instruction metrics on this GPU (%1).")
                               .arg(unknown.join(QStringLiteral(", "))),
                           CUPTI_ERROR_INVALID_METRIC_NAME};

    SassMetricsSession session;
    session.deviceIndex = uint32_t(current.device);
    session.context = current.context;
    auto setConfig =
        cuptiParams<CUpti_SassMetricsSetConfig_Params>(CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE);
    setConfig.numOfMetricConfig = configs.size();
    setConfig.pConfigs = configs.data();
    setConfig.deviceIndex = session.deviceIndex;
    check(cuptiSassMetricsSetConfig(&setConfig), "cuptiSassMetricsSetConfig");
    session.configured = true;
    auto enable = cuptiParams<CUpti_SassMetricsEnable_Params>(CUpti_SassMetricsEnable_Params_STRUCT_SIZE);
    enable.ctx = current.context;
    enable.enableLazyPatching = 1; // patch only the functions that run
    check(cuptiSassMetricsEnable(&enable), "cuptiSassMetricsEnable");
    session.enabled = true;

    launch();
    GEMMSCOPE_CUDA(cudaDeviceSynchronize());

    auto properties = cuptiParams<CUpti_SassMetricsGetDataProperties_Params>(
        CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE);
    properties.ctx = current.context;
    check(cuptiSassMetricsGetDataProperties(&properties), "cuptiSassMetricsGetDataProperties");
    const size_t records = properties.numOfPatchedInstructionRecords;
    const size_t instances = std::max<size_t>(properties.numOfInstances, 1);
    std::vector<CUpti_SassMetrics_Data> data(records);
    // Room for every configured metric per record: CUPTI may put one or all of them in a record.
    std::vector<CUpti_SassMetrics_InstanceValue> values(records * instances * configs.size());
    for (size_t i = 0; i < records; ++i) {
        data[i] = {};
        data[i].structSize = sizeof(CUpti_SassMetrics_Data);
        data[i].pInstanceValues = values.data() + i * instances * configs.size();
    }
    auto flush =
        cuptiParams<CUpti_SassMetricsFlushData_Params>(CUpti_SassMetricsFlushData_Params_STRUCT_SIZE);
    flush.ctx = current.context;
    flush.numOfPatchedInstructionRecords = records;
    flush.numOfInstances = properties.numOfInstances;
    flush.pMetricsData = data.data();
    if (records > 0)
        check(cuptiSassMetricsFlushData(&flush), "cuptiSassMetricsFlushData");
    session.disable();

    std::map<std::pair<std::string, uint64_t>, InstructionMetrics> byPc;
    for (const CUpti_SassMetrics_Data &record : data) {
        const std::string function = record.functionName ? record.functionName : "";
        InstructionMetrics &entry = byPc[{function, record.pcOffset}];
        entry.function = function;
        entry.pcOffset = record.pcOffset;
        for (size_t k = 0; k < instances; ++k) {
            const CUpti_SassMetrics_InstanceValue &value = record.pInstanceValues[k];
            const auto name = names.find(value.metricId);
            if (name != names.end())
                entry.values[name->second] += double(value.value);
        }
    }
    std::vector<InstructionMetrics> out;
    out.reserve(byPc.size());
    for (auto &[key, entry] : byPc)
        out.push_back(std::move(entry));
    return out;
}

} // namespace

const std::vector<std::string> &profileSassMetrics()
{
    static const std::vector<std::string> metrics{
        "smsp__sass_inst_executed",
        "smsp__sass_thread_inst_executed_pred_on",
        "smsp__sass_sectors_mem_global",
        "smsp__sass_sectors_mem_global_ideal",
        "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared",
        "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal",
        "smsp__sass_inst_executed_op_global_ld",
        "smsp__sass_inst_executed_op_global_st",
        "smsp__sass_inst_executed_op_shared_ld",
        "smsp__sass_inst_executed_op_shared_st",
    };
    return metrics;
}

SassMetricsOutcome collectSassMetrics(const std::function<void()> &launch,
                                      const std::vector<std::string> &metrics)
{
    try {
        return SassMetricsOutcome{collect(launch, metrics), {}};
    } catch (const CuptiFailure &failure) {
        return SassMetricsOutcome{std::nullopt, failure.sentence};
    }
}

} // namespace gemmscope::runner
