#include "stage_names.h"

#include "stage_catalog.h"

#include <QHash>
#include <QList>
#include <QPair>

namespace gemmscope {

QString codeAndName(const QString &code, const QString &name)
{
    if (code.isEmpty() || name.startsWith(code))
        return name;
    return QStringLiteral("%1 — %2").arg(code, name);
}

namespace {

QString shortPresetLabelOf(const QString &presetKey)
{
    static const QList<QPair<QString, QString>> named{
        {QStringLiteral("worklog-8-bk8"), QStringLiteral("8/BK8")},
        {QStringLiteral("guide-32-padded"), QStringLiteral("G32+1")},
        {QStringLiteral("guide-32"), QStringLiteral("G32")},
        // Past the worklog: a leading "+" marks the stages beyond the seeds.
        {QStringLiteral("fp32-vectorized"), QStringLiteral("+vec4")},
        {QStringLiteral("fp32-warptiled"), QStringLiteral("+warp")},
        {QStringLiteral("fp32-pipelined"), QStringLiteral("+pipe")},
        {QStringLiteral("fp32-async"), QStringLiteral("+async")},
        {QStringLiteral("fp32-tuned"), QStringLiteral("+tuned")},
        {QStringLiteral("fp32-padded"), QStringLiteral("+pad")},
        // The persistent TF32 stage's two variants, by the parameter that sets them apart (as
        // "8/BK8"): three bars all called "+persist" could not be told apart.
        {QStringLiteral("tf32-persistent-nocluster"), QStringLiteral("+persist/C1")},
        {QStringLiteral("tf32-persistent-smem"), QStringLiteral("+persist/smem")},
        // Both baselines say they are cuBLAS, and which precision: a bare "TF32" beside "+tma" read
        // as another tensor-core stage of ours.
        {stageKeyText(StageId::CublasFp32), QStringLiteral("cuBLAS FP32")},
        {stageKeyText(StageId::CublasTf32), QStringLiteral("cuBLAS TF32")}};
    for (const auto &[key, label] : named)
        if (presetKey == key)
            return label;
    if (presetKey.startsWith(QLatin1String("worklog-")))
        return presetKey.mid(8);
    // Any other preset past the worklog: "+" and its stage's short label (tf32-wgmma: "+wgmma").
    if (const Preset *preset = findPreset(presetKey.toStdString()))
        if (const StageInfo &stage = stageInfo(preset->stage); stage.beyondSeeds)
            return QLatin1Char('+') + QString::fromStdString(stage.shortLabel);
    return QString();
}

} // namespace

QString shortPresetLabel(const QString &presetKey)
{
    // The catalog's presets looked up, not worked out: every run drawn asks (100,000 in a large
    // session, each a search of the catalog by a key written as text).
    static const QHash<QString, QString> labels = [] {
        QHash<QString, QString> out;
        for (const Preset &preset : presets()) {
            const QString key = QString::fromStdString(preset.key);
            out.insert(key, shortPresetLabelOf(key));
        }
        for (const StageId stage : {StageId::CublasFp32, StageId::CublasTf32})
            out.insert(stageKeyText(stage), shortPresetLabelOf(stageKeyText(stage)));
        return out;
    }();
    const auto found = labels.constFind(presetKey);
    return found != labels.cend() ? *found : shortPresetLabelOf(presetKey);
}

QString shortRunLabel(const RunRecord &run)
{
    if (const QString preset = shortPresetLabel(run.presetKey); !preset.isEmpty())
        return run.isPlainLaunch() ? preset : preset + QLatin1Char('*');
    if (const StageInfo *stage = findStage(run.stage.key())) {
        const QString label = QString::fromStdString(stage->shortLabel);
        return stage->isLibrary ? label : label + QLatin1Char('*');
    }
    return run.stageKey().left(8);
}

QString presetTitle(const Preset &preset)
{
    return codeAndName(shortPresetLabel(QString::fromStdString(preset.key)), presetStageNameText(preset));
}

QString presetTitle(const QString &presetKey)
{
    const Preset *preset = presetKey.isEmpty() ? nullptr : findPreset(presetKey.toStdString());
    return preset ? presetTitle(*preset) : QString();
}

QString runNameText(const RunRecord &run)
{
    return codeAndName(shortRunLabel(run), runStageTitleText(run));
}

} // namespace gemmscope
