#include "size_series_name.h"

#include "run_record.h"
#include "runtime_marks.h"
#include "runtime_series.h"

namespace gemmscope {

QString sizeSeriesName(const SizeSeries &series, SeriesNaming naming)
{
    // The series as the run it times: the table's and the charts' names are a run's.
    RunRecord run;
    run.stage = series.stage;
    run.presetKey = QString::fromStdString(series.label);
    for (const auto &[name, value] : series.params)
        run.params.insert(QString::fromStdString(name), value);
    RuntimeSlot slot;
    slot.run = &run;
    slot.stage = run.stage;
    slot.label = shortRunLabel(run);
    return naming == SeriesNaming::Short ? slot.label : runtime_scene::longLabel(slot);
}

QString sizeSeriesName(const SweepPlan &plan, int index, SeriesNaming naming)
{
    if (index < 0 || index >= int(plan.spec.series.size()))
        return {};
    return sizeSeriesName(plan.spec.series[std::size_t(index)], naming);
}

} // namespace gemmscope
