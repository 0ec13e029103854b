#include "size_series_name.h"

#include "run_record.h"
#include "stage_names.h"

namespace gemmscope {

RunRecord sizeSeriesRun(const SizeSeries &series)
{
    RunRecord run;
    run.stage = series.stage;
    run.presetKey = QString::fromStdString(series.label);
    for (const auto &[name, value] : series.params)
        run.params.insert(QString::fromStdString(name), value);
    return run;
}

QString sizeSeriesName(const SizeSeries &series, SeriesNaming naming)
{
    // The table's and the charts' names are a run's.
    const RunRecord run = sizeSeriesRun(series);
    return naming == SeriesNaming::Short ? shortRunLabel(run) : runNameText(run);
}

QString sizeSeriesName(const SweepPlan &plan, int index, SeriesNaming naming)
{
    if (index < 0 || index >= int(plan.spec.series.size()))
        return {};
    return sizeSeriesName(plan.spec.series[std::size_t(index)], naming);
}

} // namespace gemmscope
