#include "parameter_panel.h"

#include "jargon_text.h"
#include "limit_spin_box.h"
#include "parameter_panel_widgets.h"
#include "plain_text.h"
#include "preset_item_delegate.h"

#include <QCoreApplication>
#include <QHash>
#include <QRegularExpression>
#include <QScrollArea>
#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStylePainter>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace gemmscope {

namespace {

QList<int> legalValues(const ParamSpec &spec)
{
    QList<int> values;
    if (!spec.choices.empty()) {
        for (int v : spec.choices)
            values << v;
        return values;
    }
    for (int v = spec.min; v <= spec.max; v += std::max(1, spec.step))
        values << v;
    return values;
}

int nearestIndex(const QList<int> &values, int value)
{
    int best = 0;
    for (int i = 1; i < values.size(); ++i)
        if (std::abs(values[i] - value) < std::abs(values[best] - value))
            best = i;
    return best;
}

// The field a catalog sentence is about: the first of `fields` it names as a word. The catalog's
// sentences open with their subject ("BM (100) must be a multiple of TM (3)", "M (70000) needs
// more than 65535 blocks") or end with the fix ("raise BK or BM"); "" when none is named.
QString fieldNamed(const QString &sentence, const QStringList &fields)
{
    static const QRegularExpression word(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*"));
    for (auto it = word.globalMatch(sentence); it.hasNext();) {
        const QString w = it.next().captured();
        if (fields.contains(w))
            return w;
    }
    return {};
}

void showNote(QLabel *label, const QStringList &lines)
{
    label->setText(lines.join(QLatin1Char('\n')));
    label->setVisible(!lines.isEmpty());
}

} // namespace

using panel::ElidingComboBox;
using panel::noteLabel;

QList<QPair<QString, ProblemSize>> ParameterPanel::sizePresets()
{
    return {{tr("Worklog 8192x4096x6144"), {8192, 4096, 6144}},
            {QStringLiteral("1024³"), {1024, 1024, 1024}},
            {QStringLiteral("2048³"), {2048, 2048, 2048}},
            {QStringLiteral("4096³"), {4096, 4096, 4096}}};
}

ParameterPanel::ParameterPanel(QWidget *parent) : QWidget(parent)
{
    qRegisterMetaType<gemmscope::RunConfig>();
    auto *layout = new QVBoxLayout(this);
    m_stageBox = buildStageSection();
    layout->addWidget(m_stageBox);
    layout->addWidget(buildTabs());
    m_stackedSlot = new QVBoxLayout;
    m_stackedSlot->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(m_stackedSlot);
    m_runButton = new QPushButton(tr("Run"));
    m_runButton->setObjectName(QStringLiteral("runButton"));
    layout->addWidget(m_runButton);
    layout->addStretch(1); // Run right under the settings it runs, the room below
    connectStageAndPresets();
    connectSizeAndBudget();
    connectMeasurement();
    connect(m_runButton, &QPushButton::clicked, this, &ParameterPanel::runRequested);

    if (!applyPreset(QStringLiteral("worklog-3")))
        setStage(StageId::Coalesced);
}

// What a panel as tall as `available` shows: both sections where they fit one under the other,
// else the tabs. Measured from the sections' own heights (not the panel's, which stacking grows),
// so that the choice never flips back and forth.
void ParameterPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrangeSections();
}

int ParameterPanel::stackedHeight() const
{
    const QMargins margins = layout()->contentsMargins();
    const int inner = width() - margins.left() - margins.right();
    const auto heightOf = [inner](const QWidget *w) {
        return w->hasHeightForWidth() ? w->heightForWidth(inner) : w->sizeHint().height();
    };
    const int spacing = layout()->spacing();
    const QWidget *parametersPage = m_tabs->widget(0);
    return margins.top() + heightOf(m_stageBox) + spacing + heightOf(parametersPage) + spacing +
           heightOf(m_measurementGroup) + spacing + m_runButton->sizeHint().height() + margins.bottom();
}

void ParameterPanel::arrangeSections()
{
    // In the window the panel sits in a scroll area: the room is its viewport's, not the panel's.
    const QWidget *room =
        parentWidget() && qobject_cast<QScrollArea *>(parentWidget()->parentWidget()) ? parentWidget() : this;
    const bool stack = room->height() >= stackedHeight();
    if (stack == m_stacked)
        return;
    m_stacked = stack;
    if (stack) {
        m_tabs->setCurrentIndex(0);
        m_stackedSlot->addWidget(m_measurementGroup);
        m_measurementGroup->setTitle(tr("Measurement: how the next run is timed and built"));
    } else {
        m_measurementLayout->insertWidget(0, m_measurementGroup);
        m_measurementGroup->setTitle(tr("How the next run is timed and built"));
    }
    m_measurementGroup->show();
    // One tab left hides the bar (autoHide): no "Parameters" tab with nothing to switch to.
    if (stack) {
        m_tabs->removeTab(m_tabs->indexOf(m_measurementPage));
    } else {
        m_tabs->addTab(m_measurementPage, tr("Measurement"));
        m_tabs->setTabToolTip(1,
                              tr("Time budget, regime, noise target, counters and the launch experiments."));
    }
}

void ParameterPanel::setConfig(const RunConfig &config)
{
    const bool stageChanged = config.stage != m_config.stage || m_paramRows.isEmpty();
    m_config = config;
    if (stageChanged) {
        buildParamRows();
        arrangeSections(); // another stage, another number of sliders
    }
    syncControlsFromConfig();
    updateValidation();
    emit configurationChanged(m_config);
}

bool ParameterPanel::applyPreset(const QString &presetKey)
{
    const Preset *preset = findPreset(presetKey.toStdString());
    if (!preset)
        return false;
    RunConfig config = m_config;
    config.stage = preset->stage;
    config.params = preset->params;
    config.presetKey = presetKey;
    setConfig(config);
    return true;
}

void ParameterPanel::setStage(StageId stage)
{
    RunConfig config = m_config;
    config.stage = stage;
    config.params = defaultParams(stage);
    config.presetKey.clear();
    setConfig(config);
}

void ParameterPanel::setParam(const QString &name, int value)
{
    m_config.params[name.toStdString()] = value;
    configEdited();
}

void ParameterPanel::setProblemSize(const ProblemSize &size)
{
    m_config.size = size;
    configEdited();
}

void ParameterPanel::setRunEnabledByRunner(bool enabled, const QString &why)
{
    m_runnerAvailable = enabled;
    m_runnerReason = why;
    updateValidation();
}

QString ParameterPanel::violationText() const
{
    QStringList lines;
    for (const std::string &v : m_violations)
        lines << QString::fromStdString(v);
    return lines.join(QLatin1Char('\n'));
}

void ParameterPanel::buildParamRows()
{
    while (m_paramForm->rowCount() > 0)
        m_paramForm->removeRow(0);
    m_paramRows.clear();
    const StageInfo &info = stageInfo(m_config.stage);
    if (info.params.empty())
        m_paramForm->addRow(new QLabel(tr("A library baseline: no tile parameters.")));
    for (const ParamSpec &spec : info.params) {
        ParamRow row;
        row.name = QString::fromStdString(spec.name);
        row.values = legalValues(spec);
        row.slider = new QSlider(Qt::Horizontal);
        row.slider->setObjectName(QStringLiteral("slider_%1").arg(row.name));
        row.slider->setRange(0, int(row.values.size()) - 1);
        row.slider->setPageStep(1);
        row.spin = new LimitSpinBox(row.name);
        row.spin->setObjectName(QStringLiteral("spin_%1").arg(row.name));
        // The spin box accepts any value in range so a user can type one the catalog refuses and
        // read why; the slider steps only through legal ones.
        row.spin->setRange(
            spec.choices.empty() ? spec.min : *std::min_element(spec.choices.begin(), spec.choices.end()),
            spec.choices.empty() ? spec.max : *std::max_element(spec.choices.begin(), spec.choices.end()));
        // The limits where the value is typed: the spin box refuses anything outside its range.
        QStringList legal;
        for (int v : row.values)
            legal << QString::number(v);
        row.spin->setToolTip(tr("%1 to %2; the slider steps through the values the kernel accepts: %3")
                                 .arg(row.spin->minimum())
                                 .arg(row.spin->maximum())
                                 .arg(legal.join(QStringLiteral(", "))));
        auto *line = new QWidget;
        auto *lineLayout = new QHBoxLayout(line);
        lineLayout->setContentsMargins(0, 0, 0, 0);
        lineLayout->addWidget(row.slider, 1);
        lineLayout->addWidget(row.spin);
        auto *label = new QLabel(QString::fromStdString(spec.label));
        label->setToolTip(QString::fromStdString(spec.help));
        line->setToolTip(QString::fromStdString(spec.help));
        m_paramForm->addRow(label, line);
        // The field's note: a row of its own under it, as wide as the panel (the field column is
        // too narrow for a sentence).
        row.note = noteLabel(QStringLiteral("note_%1").arg(row.name));
        m_paramForm->addRow(row.note);
        m_paramForm->setRowVisible(row.note, false);
        const QString name = row.name;
        const QList<int> values = row.values;
        connect(row.slider, &QSlider::valueChanged, this, [this, name, values](int index) {
            if (!m_syncing && index >= 0 && index < values.size())
                setParam(name, values[index]);
        });
        const auto setLimitNote = [this, name](const QString &sentence) {
            for (ParamRow &r : m_paramRows)
                if (r.name == name)
                    r.limitNote = sentence;
            updateFieldNotes();
        };
        connect(row.spin, &LimitSpinBox::limitHit, this, setLimitNote);
        connect(row.spin, &LimitSpinBox::limitCleared, this, [setLimitNote] { setLimitNote({}); });
        connect(row.spin, &QSpinBox::valueChanged, this, [this, name](int value) {
            if (!m_syncing)
                setParam(name, value);
        });
        m_paramRows << row;
    }
    // One width for every spin box (the widest's), so that the sliders beside them start and end
    // together: BM's three digits and BK's two made the sliders ragged.
    int spinWidth = 0;
    for (const ParamRow &row : std::as_const(m_paramRows))
        spinWidth = std::max(spinWidth, row.spin->sizeHint().width());
    for (const ParamRow &row : std::as_const(m_paramRows))
        row.spin->setFixedWidth(spinWidth);
}

// A user's kernel joins the stage list the first time it is configured (from the editor, a
// session, a run of the table), under a separator after the ladder, and stays for the session.
void ParameterPanel::listCustomStage(StageId stage)
{
    const StageInfo *info = findStage(stage.key());
    if (!info || !info->isCustom || m_stageCombo->findData(stageKeyText(stage)) >= 0)
        return;
    if (m_stageCombo->count() == int(stages().size()))
        m_stageCombo->insertSeparator(m_stageCombo->count());
    const QString face = customStageListText(*info);
    const QString from =
        info->derivedFrom.empty()
            ? tr("written from a blank kernel")
            : tr("copied from %1").arg(stageTitleText(StageId(std::string_view(info->derivedFrom))));
    const QString text = QStringLiteral("%1 — %2").arg(face, from);
    m_stageCombo->addItem(text, stageKeyText(stage));
    const int index = m_stageCombo->count() - 1;
    m_stageCombo->setItemData(index, text, Qt::ToolTipRole);
    m_stageCombo->setItemData(index, face, ElidingComboBox::kFaceRole);
}

void ParameterPanel::syncControlsFromConfig()
{
    m_syncing = true;
    listCustomStage(m_config.stage);
    for (int i = 0; i < m_stageCombo->count(); ++i)
        if (m_stageCombo->itemData(i).toString().toStdString() == m_config.stage.key())
            m_stageCombo->setCurrentIndex(i);
    const StageInfo &info = stageInfo(m_config.stage);
    m_stageSummary->setText(QString::fromStdString(info.summary));
    // The summary's jargon ("the FFMAs on this one") said in its tooltip, as the glossary says it.
    const QString jargonWords = jargon::explainedWords(m_stageSummary->text());
    // Rich text, which wraps; "<p>" per word (plain text showed one line as wide as the screen).
    m_stageSummary->setToolTip(jargonWords.isEmpty()
                                   ? QString()
                                   : QStringLiteral("<p>%1</p>")
                                         .arg(jargonWords.toHtmlEscaped().replace(
                                             QStringLiteral("\n\n"), QStringLiteral("</p><p>"))));
    m_stageCombo->setToolTip(m_stageCombo->currentText()); // the whole entry, where its face is cut
    for (ParamRow &row : m_paramRows) {
        const auto it = m_config.params.find(row.name.toStdString());
        const int value = it == m_config.params.end() ? 0 : it->second;
        row.spin->setValue(value);
        row.slider->setValue(nearestIndex(row.values, value));
    }
    // None current (the placeholder, "Custom") for the user's own values; a cuBLAS baseline has
    // none to differ from its preset's.
    syncPresetChoices();
    m_presetCombo->setCurrentIndex(
        m_config.presetKey.isEmpty() ? -1 : m_presetCombo->findData(m_config.presetKey));
    m_presetCombo->setPlaceholderText(m_presetCombo->count() == 0
                                          ? tr("None: this stage has no named tile parameters")
                                      : info.isLibrary ? m_presetCombo->itemText(0)
                                                       : tr("Custom: values of your own"));
    m_presetCombo->setToolTip(m_presetCombo->currentIndex() < 0
                                  ? m_presetCombo->placeholderText()
                                  : m_presetCombo->currentData(Qt::ToolTipRole).toString());
    // Nothing to choose where the stage's one preset is loaded, or it has none: shown, not offered.
    m_presetCombo->setEnabled(
        !info.isLibrary &&
        (m_presetCombo->count() > 1 || (m_presetCombo->count() == 1 && m_presetCombo->currentIndex() < 0)));
    const auto presets = sizePresets();
    int sizeIndex = int(presets.size()); // "Custom"
    for (int i = 0; i < presets.size(); ++i)
        if (presets[i].second == m_config.size)
            sizeIndex = i;
    m_sizeCombo->setCurrentIndex(sizeIndex);
    m_mSpin->setValue(int(m_config.size.m));
    m_nSpin->setValue(int(m_config.size.n));
    m_kSpin->setValue(int(m_config.size.k));
    m_budgetSpin->setValue(m_config.timing.budgetMs);
    m_flushCheck->setChecked(m_config.timing.flushL2);
    m_regimeCombo->setCurrentIndex(std::max(0, m_regimeCombo->findData(int(m_config.timing.regime))));
    m_noiseCombo->setCurrentIndex(std::max(0, m_noiseCombo->findData(m_config.timing.maxNoisePct)));
    m_thresholdCombo->setCurrentIndex(
        std::max(0, m_thresholdCombo->findData(m_config.timing.throttleThresholdPct)));
    m_countersCheck->setChecked(m_config.timing.counters);
    m_scalarReadsCheck->setChecked(m_config.timing.scalarSharedReads);
    m_tf32InputsCombo->setCurrentIndex(m_config.timing.truncateTf32 ? 1 : 0);
    const StageInfo &shown = stageInfo(m_config.stage);
    const bool tf32Stage = !shown.isLibrary && shown.precision == Precision::Tf32;
    m_tf32InputsCombo->setEnabled(tf32Stage);
    m_tf32InputsCombo->setToolTip(
        tf32Stage
            ? tr("Rounded: A and B are rounded to nearest TF32 (cvt.rna) in a pre-pass inside every timed "
                 "launch, as cuBLAS's TF32 path rounds (relative error 2.6e-4 at 4096^3, like cuBLAS). "
                 "Truncated: the tensor cores read the raw FP32 bits and drop the low ones (7e-4), "
                 "without the pre-pass.")
            : tr("Only GemmScope's TF32 tensor-core stages choose how their inputs become TF32; %1 is "
                 "not one.")
                  .arg(QString::fromStdString(shown.key)));
    // A value no item offers (a config set in code) still shows: as a new item.
    const auto selectData = [](QComboBox *combo, int value, const QString &text) {
        int index = combo->findData(value);
        if (index < 0) {
            combo->addItem(text, value);
            index = combo->count() - 1;
        }
        combo->setCurrentIndex(index);
    };
    selectData(m_blocksPerSmCombo, m_config.timing.maxBlocksPerSm,
               tr("At most %n", nullptr, m_config.timing.maxBlocksPerSm));
    selectData(m_carveoutCombo, m_config.timing.smemCarveout,
               tr("%1 % shared").arg(m_config.timing.smemCarveout));
    m_syncing = false;
}

void ParameterPanel::configEdited()
{
    // Parameters that no longer equal the preset's are the user's own configuration.
    if (!m_config.presetKey.isEmpty()) {
        const Preset *preset = findPreset(m_config.presetKey.toStdString());
        if (!preset || preset->stage != m_config.stage || preset->params != m_config.params)
            m_config.presetKey.clear();
    }
    if (!m_syncing)
        syncControlsFromConfig();
    updateValidation();
    emit configurationChanged(m_config);
}

void ParameterPanel::updateValidation()
{
    const bool wasValid = isValid();
    m_violations = violations(m_config.stage, m_config.params, m_config.size);
    m_violationLabel->setText(violationText());
    m_violationLabel->setVisible(true); // reserved space, empty while nothing is refused
    updateFieldNotes();
    m_runButton->setEnabled(isValid() && m_runnerAvailable);
    // A disabled Run button says why, in its tooltip.
    // The runner's words are never markup (plain_text.h).
    m_runButton->setToolTip(!m_runnerAvailable ? plainTextAsHtml(m_runnerReason)
                            : !isValid()       ? tr("Not runnable: %1").arg(violationText())
                                               : tr("Run the configured stage (Ctrl+R)"));
    if (wasValid != isValid())
        emit validityChanged(isValid());
}

void ParameterPanel::updateFieldNotes()
{
    QStringList fields{QStringLiteral("M"), QStringLiteral("N"), QStringLiteral("K")};
    for (const ParamRow &row : m_paramRows)
        fields << row.name;
    // A sentence the worklog's ordinary size does not give is about the problem size, whether or
    // not it names M, N or K ("Each matrix must have fewer than 2^31 elements (A is ...)").
    const std::vector<std::string> withOrdinarySize =
        m_config.size == ProblemSize{} ? m_violations
                                       : violations(m_config.stage, m_config.params, ProblemSize{});
    QHash<QString, QStringList> byField;
    QStringList sizeLines;
    if (!m_sizeLimitNote.isEmpty())
        sizeLines << m_sizeLimitNote;
    for (const std::string &v : m_violations) {
        const QString sentence = QString::fromStdString(v);
        const QString field = fieldNamed(sentence, fields);
        if (std::find(withOrdinarySize.begin(), withOrdinarySize.end(), v) == withOrdinarySize.end() ||
            field == QLatin1String("M") || field == QLatin1String("N") || field == QLatin1String("K"))
            sizeLines << sentence;
        else if (!field.isEmpty())
            byField[field] << sentence;
    }
    for (const ParamRow &row : m_paramRows) {
        QStringList lines;
        if (!row.limitNote.isEmpty())
            lines << row.limitNote;
        lines += byField.value(row.name);
        showNote(row.note, lines);
        m_paramForm->setRowVisible(row.note, !lines.isEmpty());
    }
    showNote(m_sizeNote, sizeLines);
    showNote(m_budgetNote, m_budgetLimitNote.isEmpty() ? QStringList{} : QStringList{m_budgetLimitNote});
}

QString ParameterPanel::fieldNote(const QString &field) const
{
    if (field == QLatin1String("size"))
        return m_sizeNote->text();
    if (field == QLatin1String("budget"))
        return m_budgetNote->text();
    for (const ParamRow &row : m_paramRows)
        if (row.name == field)
            return row.note->text();
    return {};
}

} // namespace gemmscope
