#include "stage_choice_text.h"

#include "run_record.h"
#include "stage_names.h"

#include <QStringList>

namespace gemmscope {

QList<const Preset *> presetsOfStage(StageId stage)
{
    QList<const Preset *> out;
    for (const Preset &preset : presets())
        if (preset.stage == stage)
            out << &preset;
    return out;
}

QString stageCode(StageId stage)
{
    const QList<const Preset *> own = presetsOfStage(stage);
    return own.isEmpty() ? QString() : shortPresetLabel(QString::fromStdString(own.first()->key));
}

QString stageChoiceText(const StageInfo &stage)
{
    const QString title = QString::fromStdString(stage.title);
    const QString code = stageCode(stage.id);
    if (code.isEmpty() || title.startsWith(code))
        return title;
    return QStringLiteral("%1 — %2").arg(code, title);
}

QString presetSourceText(const Preset &preset)
{
    const QString source = QString::fromStdString(preset.source);
    const QString change = QString::fromStdString(preset.change);
    if (stageInfo(preset.stage).isLibrary)
        return QStringLiteral("cuBLAS");
    // "worklog step 3": the worklog's; "worklog, newer GPUs": its variant for them, said so.
    if (source.startsWith(QLatin1String("worklog step")))
        return QStringLiteral("Worklog");
    if (source.startsWith(QLatin1String("worklog")) || source.startsWith(QLatin1String("guide")))
        return source.left(1).toUpper() + source.mid(1);
    if (change == QLatin1String("tuned"))
        return QStringLiteral("Tuned on the H200");
    // Past the worklog and the guide: GemmScope's own choice; a variant says what it changes.
    return change.isEmpty() ? QStringLiteral("Beyond the worklog")
                            : QStringLiteral("Beyond the worklog, %1").arg(change);
}

QString presetValuesText(const Preset &preset)
{
    QStringList values;
    for (const ParamSpec &spec : stageInfo(preset.stage).params)
        if (const auto it = preset.params.find(spec.name); it != preset.params.end())
            values << QStringLiteral("%1=%2").arg(QString::fromStdString(spec.name)).arg(it->second);
    return values.isEmpty() ? QStringLiteral("no tile parameters") : values.join(QLatin1Char(' '));
}

QString presetChoiceText(const Preset &preset)
{
    if (stageInfo(preset.stage).isLibrary)
        return QStringLiteral("None: cuBLAS picks its own kernel and tiles");
    // Where the values come from and what they are first, the code the charts give the preset last:
    // led by the code ("3 — Worklog: …") it read as the stage list's "3 — Coalesced cooperative
    // loads" again (the review of 2026-12-07).
    const QString code = shortPresetLabel(QString::fromStdString(preset.key));
    const QString what = QStringLiteral("%1: %2").arg(presetSourceText(preset), presetValuesText(preset));
    return code.isEmpty() ? what : QStringLiteral("%1 (preset %2)").arg(what, code);
}

} // namespace gemmscope
