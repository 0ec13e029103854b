// The parameter panel's sections, top to bottom (stage and presets, then the Parameters tab's
// parameters and problem size and the Measurement tab's settings), each built by one function, and what their
// controls change once built.
#include "parameter_panel.h"

#include "help_text_color.h"
#include "jargon_text.h"
#include "limit_spin_box.h"
#include "parameter_panel_widgets.h"
#include "plain_text.h"
#include "preset_item_delegate.h"
#include "stage_choice_text.h"
#include "stage_names.h"

#include <QAbstractItemView>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace gemmscope {

using panel::ElidingComboBox;
using panel::labelWithTip;
using panel::noteLabel;
using panel::sizeSpin;

QGroupBox *ParameterPanel::buildStageSection()
{
    auto *stageBox = new QGroupBox(tr("Stage"));
    auto *stageLayout = new QVBoxLayout(stageBox);
    m_stageCombo = new ElidingComboBox;
    m_stageCombo->setObjectName(QStringLiteral("stageCombo"));
    const auto &all = stages();
    for (size_t i = 0; i < all.size(); ++i) {
        // Code and name, as the tables and charts name the stage's runs; what it reproduces (the
        // worklog's steps, the guide's) in its tooltip and the description under the list.
        const QString text = stageChoiceText(all[i]);
        m_stageCombo->addItem(text, QString::fromStdString(all[i].key));
        m_stageCombo->setItemData(int(i),
                                  tr("%1\nReproduces: %2").arg(text, QString::fromStdString(all[i].seedStep)),
                                  Qt::ToolTipRole);
    }
    // Combos as wide as the panel, not as their longest entry: the panel never scrolls sideways.
    m_stageCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_stageCombo->setMinimumContentsLength(16);
    m_stageSummary = new QLabel;
    m_stageSummary->setObjectName(QStringLiteral("stageSummary"));
    m_stageSummary->setWordWrap(true);
    showAsHelpText(m_stageSummary);
    stageLayout->addWidget(m_stageCombo);
    stageLayout->addWidget(m_stageSummary);
    stageLayout->addWidget(buildPresetRow());
    return stageBox;
}

// The second question under the stage: which of its named sets of tile parameters the sliders
// take (its presets: the worklog's, the guide's, a tuned one), each by its code, where it comes
// from and its values; "Custom" once the sliders hold others. Only the stage's own presets: the
// whole catalog here repeated the stage list above it (refilled by syncPresetChoices).
// The popup's rows hold the choice and, in a column of their own, the T4 time the worklog
// published (PresetItemDelegate).
QWidget *ParameterPanel::buildPresetRow()
{
    auto *combo = new ElidingComboBox;
    m_presetCombo = combo;
    combo->setObjectName(QStringLiteral("presetCombo"));
    combo->setItemDelegate(new PresetItemDelegate(combo));
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(12);
    // Banded rows: a wrapped name stays with its preset. The style's
    // alternate base (#f7f7f7 on white) is too faint to band: a tenth of the highlight.
    QAbstractItemView *popup = combo->view();
    popup->setAlternatingRowColors(true);
    QPalette banded = popup->palette();
    const QColor base = banded.color(QPalette::Base), highlight = banded.color(QPalette::Highlight);
    banded.setColor(QPalette::AlternateBase,
                    QColor::fromRgbF(0.88f * base.redF() + 0.12f * highlight.redF(),
                                     0.88f * base.greenF() + 0.12f * highlight.greenF(),
                                     0.88f * base.blueF() + 0.12f * highlight.blueF()));
    popup->setPalette(banded);
    auto *row = new QWidget;
    auto *rowLayout = new QVBoxLayout(row);
    rowLayout->setContentsMargins(0, 4, 0, 0);
    rowLayout->setSpacing(2);
    // Above its list, not beside it: the list needs the panel's width for the values it names.
    auto *label = new QLabel(tr("Tile parameters from"));
    label->setBuddy(combo);
    // The two documents explained here in the glossary's words (issue 38: "worklog" and "guide"
    // were read with no introduction).
    label->setToolTip(tr("Which named set of this stage's tile parameters the sliders take: a preset, "
                         "the tile parameters of the worklog, the guide or a tuned variant. Its code is "
                         "the one the tables' Stage column prints. Custom: the sliders hold values of "
                         "your own. The times beside them (T4) are the ones the worklog published, "
                         "measured on an NVIDIA T4, for comparison: not measured here.") +
                      QStringLiteral("\n\n%1: %2\n\n%3: %4")
                          .arg(tr("Worklog"), jargon::worklog(), tr("Guide"), jargon::guide()));
    label->setObjectName(QStringLiteral("presetLabel"));
    rowLayout->addWidget(label);
    rowLayout->addWidget(combo);
    return row;
}

// The presets of the configured stage, each under its code, source and values; its whole name as
// the tables give it, its source and the worklog's T4 time in its tooltip.
void ParameterPanel::syncPresetChoices()
{
    if (m_presetChoicesStage == m_config.stage && m_presetCombo->count() > 0)
        return;
    m_presetChoicesStage = m_config.stage;
    QComboBox *combo = m_presetCombo;
    combo->clear();
    for (const Preset *p : presetsOfStage(m_config.stage)) {
        const QString text = presetChoiceText(*p);
        combo->addItem(text, QString::fromStdString(p->key));
        const int index = combo->count() - 1;
        if (p->worklogT4Ms)
            combo->setItemData(index, tr("T4 %1 ms").arg(*p->worklogT4Ms, 0, 'f', 2),
                               PresetItemDelegate::TimeRole);
        combo->setItemData(
            index,
            tr("%1\n%2\nFrom: %3%4")
                .arg(presetTitle(*p), presetValuesText(*p), QString::fromStdString(p->source),
                     p->worklogT4Ms ? tr("\nT4: %1 ms, published in the worklog (the GEMM optimization "
                                         "worklog the ladder follows; measured on an NVIDIA T4, not here)")
                                          .arg(*p->worklogT4Ms, 0, 'f', 2)
                                    : QString()),
            Qt::ToolTipRole);
    }
    combo->setMaxVisibleItems(std::max(1, combo->count())); // the whole list at once, no scrolling
}

// The two tabs under the stage: what is run (tile parameters, problem size) and how it is
// measured. Each is a page as tall as its contents; the panel never needs to scroll at 1280x800.
QTabWidget *ParameterPanel::buildTabs()
{
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("panelTabs"));
    m_tabs->setDocumentMode(true);
    auto *kernelPage = new QWidget;
    auto *kernelLayout = new QVBoxLayout(kernelPage);
    kernelLayout->setContentsMargins(0, 4, 0, 0);
    kernelLayout->addWidget(buildParameterSection());
    kernelLayout->addWidget(buildSizeSection());
    kernelLayout->addStretch(1);
    m_tabs->addTab(kernelPage, tr("Parameters"));
    m_tabs->setTabToolTip(0, tr("The stage's tile parameters and the problem size of the next run."));
    m_tabs->tabBar()->setAutoHide(true); // its one tab where the measurement sits under it
    auto *measurementPage = new QWidget;
    m_measurementPage = measurementPage;
    m_measurementLayout = new QVBoxLayout(measurementPage);
    m_measurementLayout->setContentsMargins(0, 4, 0, 0);
    m_measurementGroup = buildMeasurementSection();
    m_measurementLayout->addWidget(m_measurementGroup);
    m_measurementLayout->addStretch(1);
    m_tabs->addTab(measurementPage, tr("Measurement"));
    m_tabs->setTabToolTip(1, tr("Time budget, regime, noise target, counters and the launch experiments."));
    return m_tabs;
}

// Tile parameters, rebuilt for each stage (buildParamRows), and the violations under them.
QGroupBox *ParameterPanel::buildParameterSection()
{
    auto *paramGroup = new QGroupBox(tr("Tile parameters"));
    auto *paramGroupLayout = new QVBoxLayout(paramGroup);
    m_paramBox = new QWidget;
    m_paramForm = new QFormLayout(m_paramBox);
    m_paramForm->setContentsMargins(0, 0, 0, 0);
    paramGroupLayout->addWidget(m_paramBox);
    m_violationLabel = new QLabel;
    m_violationLabel->setObjectName(QStringLiteral("violationLabel"));
    m_violationLabel->setWordWrap(true);
    m_violationLabel->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_violationLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Room for one line always: a refusal appearing must not move the sliders, and two empty
    // lines read as a gap in the group.
    m_violationLabel->setMinimumHeight(m_violationLabel->fontMetrics().lineSpacing() + 2);
    m_violationLabel->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    paramGroupLayout->addWidget(m_violationLabel);
    return paramGroup;
}

QGroupBox *ParameterPanel::buildSizeSection()
{
    auto *sizeGroup = new QGroupBox(tr("Problem size of the next run: C = A B"));
    sizeGroup->setObjectName(QStringLiteral("sizeGroup"));
    sizeGroup->setToolTip(tr("C[M x N] = A[M x K] B[K x N]. The size Run, Profile and Run Ladder use; the "
                             "ladder's charts show the size of the runs they plot."));
    auto *sizeLayout = new QFormLayout(sizeGroup);
    m_sizeCombo = new QComboBox;
    m_sizeCombo->setObjectName(QStringLiteral("sizeCombo"));
    for (const auto &[name, size] : sizePresets())
        m_sizeCombo->addItem(name);
    m_sizeCombo->addItem(tr("Custom"));
    m_mSpin = sizeSpin("M");
    m_nSpin = sizeSpin("N");
    m_kSpin = sizeSpin("K");
    m_sizeNote = noteLabel(QStringLiteral("note_size"));
    auto *mnk = new QHBoxLayout;
    for (auto [label, spin] : {std::pair{"M", m_mSpin}, {"N", m_nSpin}, {"K", m_kSpin}}) {
        mnk->addWidget(new QLabel(QString::fromLatin1(label)));
        mnk->addWidget(spin, 1);
    }
    m_sizeCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    // "Common sizes", not "Preset": a preset is a stage's named tile parameters (the list above).
    sizeLayout->addRow(tr("Common sizes"), m_sizeCombo);
    sizeLayout->addRow(mnk);
    sizeLayout->addRow(m_sizeNote);
    return sizeGroup;
}

// Measurement: timing, counters, the build and launch experiments.
QGroupBox *ParameterPanel::buildMeasurementSection()
{
    auto *timingGroup = new QGroupBox(tr("How the next run is timed and built"));
    auto *form = new QFormLayout(timingGroup);
    addTimingRows(form);
    addBuildRows(form);
    addLaunchRows(form);
    return timingGroup;
}

// How long and how steady: the budget, the regime, the noise target, the clock threshold, L2.
void ParameterPanel::addTimingRows(QFormLayout *form)
{
    m_budgetSpin = new LimitSpinBox(tr("Time budget"));
    m_budgetSpin->setObjectName(QStringLiteral("spin_budget"));
    m_budgetNote = noteLabel(QStringLiteral("note_budget"));
    m_budgetSpin->setRange(10, 60000);
    m_budgetSpin->setSingleStep(100);
    m_budgetSpin->setSuffix(tr(" ms"));
    m_budgetSpin->setToolTip(
        tr("Timed launches repeat until this much kernel time has passed (10 to 60000 ms)."));
    m_flushCheck = new QCheckBox(tr("Flush L2 between repetitions"));
    m_flushCheck->setToolTip(tr("Overwrites a buffer twice the L2's size before every timed launch."));
    form->addRow(tr("Time budget"), m_budgetSpin);
    labelWithTip(form, m_budgetSpin);
    form->addRow(m_budgetNote);
    // How steady the GPU must be: choices, not free numbers, so nothing out of range
    // can be asked; the runner refuses such values from elsewhere with its sentence.
    m_regimeCombo = new QComboBox;
    m_regimeCombo->setObjectName(QStringLiteral("regimeCombo"));
    // Said as what it does ("Regime: Burst" was jargon to a no-context reviewer); the term in brackets
    // and in the tooltip, as the glossary says it.
    m_regimeCombo->addItem(tr("From an idle GPU (burst)"), int(protocol::TimingRegime::Burst));
    m_regimeCombo->addItem(tr("At steady load (sustained)"), int(protocol::TimingRegime::Sustained));
    m_regimeCombo->setToolTip(QStringLiteral("<p>%1</p>").arg(jargon::regime().toHtmlEscaped()));
    form->addRow(tr("Timing"), m_regimeCombo);
    labelWithTip(form, m_regimeCombo);
    m_noiseCombo = new QComboBox;
    m_noiseCombo->setObjectName(QStringLiteral("noiseCombo"));
    for (double pct : {0.1, 0.25, 0.5, 1.0, 2.0, 5.0})
        m_noiseCombo->addItem(tr("%1 %").arg(pct), pct);
    m_noiseCombo->setToolTip(tr("Timing stops once the relative noise (standard deviation over mean) of at "
                                "least 10 samples is this low, or at the time budget. A result whose noise "
                                "stays above it is marked noisy."));
    form->addRow(tr("Noise target"), m_noiseCombo);
    labelWithTip(form, m_noiseCombo);
    m_thresholdCombo = new QComboBox;
    m_thresholdCombo->setObjectName(QStringLiteral("thresholdCombo"));
    m_thresholdCombo->addItem(tr("Keep every sample"), 0.0);
    for (double pct : {75.0, 80.0, 90.0, 95.0})
        m_thresholdCombo->addItem(tr("Below %1 % of the start clock").arg(pct), pct);
    m_thresholdCombo->setToolTip(
        tr("Leave out samples taken while the GPU ran slower: a sample whose measured "
           "SM clock fell below this share of the clock at the start is left out of "
           "the median and counted (the trust mark says how many)."));
    form->addRow(tr("Leave out"), m_thresholdCombo);
    labelWithTip(form, m_thresholdCombo);
    form->addRow(m_flushCheck);
}

// What is built and read: counters, the scalar build, TF32 inputs.
void ParameterPanel::addBuildRows(QFormLayout *form)
{
    m_countersCheck = new QCheckBox(tr("Hardware counters (roofline)"));
    m_countersCheck->setObjectName(QStringLiteral("countersCheck"));
    m_countersCheck->setToolTip(
        tr("Profiles one extra launch with CUPTI to measure DRAM traffic, so the roofline shows the measured "
           "arithmetic intensity next to the predicted one. Needs permission to read GPU performance "
           "counters; without it the run still succeeds and says why."));
    form->addRow(m_countersCheck);
    m_scalarReadsCheck = new QCheckBox(tr("Shared reads as written (scalar build)"));
    m_scalarReadsCheck->setObjectName(QStringLiteral("scalarReadsCheck"));
    m_scalarReadsCheck->setToolTip(tr(
        "Builds the kernel with its inner-loop shared-memory reads kept 4-byte, as the source writes them. "
        "The normal build (release) lets the compiler merge a thread's neighbouring reads into 16-byte "
        "LDS.128, which the access model does not describe; with this on, the Counters workspace's Measured "
        "vs model tab compares like with like. Slower than the normal build."));
    form->addRow(m_scalarReadsCheck);
    // TF32 inputs: rounded to nearest as cuBLAS's TF32 path does, or truncated.
    m_tf32InputsCombo = new QComboBox;
    m_tf32InputsCombo->setObjectName(QStringLiteral("tf32InputsCombo"));
    m_tf32InputsCombo->addItem(tr("Rounded to nearest (as cuBLAS)"), false);
    m_tf32InputsCombo->addItem(tr("Truncated (raw FP32 bits)"), true);
    m_tf32InputsCombo->setToolTip(tr("How the TF32 stages shorten each FP32 input to TF32's 10-bit mantissa: "
                                     "rounded to nearest, as cuBLAS does, or cut off."));
    form->addRow(tr("TF32 inputs"), m_tf32InputsCombo);
    labelWithTip(form, m_tf32InputsCombo);
}

void ParameterPanel::addLaunchRows(QFormLayout *form)
{
    // Launch experiments: the same kernel with fewer blocks beside it, or another L1/shared split.
    m_blocksPerSmCombo = new QComboBox;
    m_blocksPerSmCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_blocksPerSmCombo->setObjectName(QStringLiteral("blocksPerSmCombo"));
    m_blocksPerSmCombo->addItem(tr("As many as fit"), 0);
    for (int n : {1, 2, 3, 4, 6, 8})
        m_blocksPerSmCombo->addItem(tr("At most %n", nullptr, n), n);
    m_blocksPerSmCombo->setToolTip(
        tr("Gives each block shared memory it never uses, so that no more than this many blocks share an "
           "SM: how much does this kernel rely on other warps to hide its latency? (Not for cuBLAS.)"));
    form->addRow(tr("Blocks per SM"), m_blocksPerSmCombo);
    labelWithTip(form, m_blocksPerSmCombo);
    m_carveoutCombo = new QComboBox;
    m_carveoutCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_carveoutCombo->setObjectName(QStringLiteral("carveoutCombo"));
    m_carveoutCombo->addItem(tr("Driver's choice"), -1);
    m_carveoutCombo->addItem(tr("Most L1 (0 % shared)"), 0);
    m_carveoutCombo->addItem(tr("Even (50 % shared)"), 50);
    m_carveoutCombo->addItem(tr("Most shared (100 %)"), 100);
    m_carveoutCombo->setToolTip(
        tr("The preferred split of the SM's 256 KB between L1 cache and shared memory. Less shared memory "
           "can hold blocks back; the occupancy column then names the carve-out. (Not for cuBLAS.)"));
    form->addRow(tr("L1 / shared"), m_carveoutCombo);
    labelWithTip(form, m_carveoutCombo);
}

void ParameterPanel::connectStageAndPresets()
{
    // A stage picked in the list comes with its first preset, the one whose code the list shows
    // ("3 — ..." loads step 3's tiles); a stage without presets with its defaults.
    connect(m_stageCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_syncing || index < 0)
            return;
        const StageId stage(m_stageCombo->itemData(index).toString().toStdString());
        const QList<const Preset *> own = presetsOfStage(stage);
        if (own.isEmpty() || !applyPreset(QString::fromStdString(own.first()->key)))
            setStage(stage);
    });
    connect(m_presetCombo, &QComboBox::activated, this,
            [this](int index) { applyPreset(m_presetCombo->itemData(index).toString()); });
}

// A spin box's refused value says its limit beside the field (`note`) until a value is taken.
void ParameterPanel::showLimits(LimitSpinBox *spin, QString *note)
{
    connect(spin, &LimitSpinBox::limitHit, this, [this, note](const QString &sentence) {
        *note = sentence;
        updateFieldNotes();
    });
    connect(spin, &LimitSpinBox::limitCleared, this, [this, note] {
        note->clear();
        updateFieldNotes();
    });
}

void ParameterPanel::connectSizeAndBudget()
{
    connect(m_sizeCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        const auto presets = sizePresets();
        if (!m_syncing && index >= 0 && index < presets.size())
            setProblemSize(presets[index].second);
    });
    for (LimitSpinBox *spin : {m_mSpin, m_nSpin, m_kSpin}) {
        showLimits(spin, &m_sizeLimitNote);
        connect(spin, &QSpinBox::valueChanged, this, [this] {
            if (m_syncing)
                return;
            m_config.size = {m_mSpin->value(), m_nSpin->value(), m_kSpin->value()};
            configEdited();
        });
    }
    showLimits(m_budgetSpin, &m_budgetLimitNote);
    connect(m_budgetSpin, &QSpinBox::valueChanged, this, [this](int v) {
        if (m_syncing)
            return;
        m_config.timing.budgetMs = v;
        configEdited();
    });
}

// A user's choice in `combo` goes into the configuration through `apply` (given the entry's data);
// the panel's own syncing does not count as an edit.
void ParameterPanel::onComboEdited(QComboBox *combo, const std::function<void(const QVariant &)> &apply)
{
    connect(combo, &QComboBox::currentIndexChanged, this, [this, combo, apply](int index) {
        if (m_syncing || index < 0)
            return;
        apply(combo->itemData(index));
        configEdited();
    });
}

void ParameterPanel::onCheckEdited(QCheckBox *check, const std::function<void(bool)> &apply)
{
    connect(check, &QCheckBox::toggled, this, [this, apply](bool on) {
        if (m_syncing)
            return;
        apply(on);
        configEdited();
    });
}

void ParameterPanel::connectMeasurement()
{
    onComboEdited(m_regimeCombo,
                  [this](const QVariant &v) { m_config.timing.regime = protocol::TimingRegime(v.toInt()); });
    onComboEdited(m_noiseCombo, [this](const QVariant &v) { m_config.timing.maxNoisePct = v.toDouble(); });
    onComboEdited(m_thresholdCombo,
                  [this](const QVariant &v) { m_config.timing.throttleThresholdPct = v.toDouble(); });
    onCheckEdited(m_flushCheck, [this](bool on) { m_config.timing.flushL2 = on; });
    onCheckEdited(m_countersCheck, [this](bool on) { m_config.timing.counters = on; });
    onComboEdited(m_blocksPerSmCombo,
                  [this](const QVariant &v) { m_config.timing.maxBlocksPerSm = v.toInt(); });
    onComboEdited(m_carveoutCombo, [this](const QVariant &v) { m_config.timing.smemCarveout = v.toInt(); });
    onComboEdited(m_tf32InputsCombo,
                  [this](const QVariant &v) { m_config.timing.truncateTf32 = v.toBool(); });
    onCheckEdited(m_scalarReadsCheck, [this](bool on) { m_config.timing.scalarSharedReads = on; });
}

} // namespace gemmscope
