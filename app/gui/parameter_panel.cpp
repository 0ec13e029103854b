#include "parameter_panel.h"

#include "limit_spin_box.h"
#include "plain_text.h"
#include "preset_item_delegate.h"

#include <QCoreApplication>
#include <QHash>
#include <QRegularExpression>
#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStylePainter>
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

LimitSpinBox *sizeSpin(const char *name)
{
    // A wide range so that a typed value is rarely refused: the catalog's constraints say what is
    // wrong with it (at least 1; fewer than 2^31 elements per matrix). Past the range the spin box
    // says its limit beside the field.
    auto *spin = new LimitSpinBox(QString::fromLatin1(name));
    spin->setObjectName(QStringLiteral("spin_%1").arg(QLatin1String(name)));
    spin->setRange(0, 1 << 20);
    spin->setAccelerated(true);
    spin->setToolTip(QCoreApplication::translate(
        "ParameterPanel", "1 to 1048576; each matrix must have fewer than 2^31 elements (32-bit indexing)."));
    return spin;
}

// The red line under a field: hidden while it has nothing to say.
QLabel *noteLabel(const QString &objectName)
{
    auto *label = new QLabel;
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setStyleSheet(QStringLiteral("color: #c62828;"));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->hide();
    return label;
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

// A combo box whose closed face shows an entry's short form (kFaceRole, where it has one: the
// stage without its worklog step, which the description under it gives) and ends it with "…" where
// even that does not fit, instead of cutting it off mid-word; the popup lists the entries whole, as
// wide as the longest.
class ElidingComboBox : public QComboBox {
public:
    using QComboBox::QComboBox;
    static constexpr int kFaceRole = Qt::UserRole + 1;
    QString faceText() const
    {
        const QString face = currentData(kFaceRole).toString();
        return face.isEmpty() ? currentText() : face;
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QStylePainter painter(this);
        QStyleOptionComboBox option;
        initStyleOption(&option);
        painter.drawComplexControl(QStyle::CC_ComboBox, option);
        const QRect field =
            style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
        option.currentText = fontMetrics().elidedText(faceText(), Qt::ElideRight, field.width());
        painter.drawControl(QStyle::CE_ComboBoxLabel, option);
    }
    void showPopup() override
    {
        view()->setMinimumWidth(view()->sizeHintForColumn(0) + 2 * view()->frameWidth() + 24);
        QComboBox::showPopup();
    }
};

// Row labels say their field's tooltip too: the words are where the eye starts.
void labelWithTip(QFormLayout *form, QWidget *field)
{
    if (QWidget *label = form->labelForField(field))
        label->setToolTip(field->toolTip());
}

} // namespace

QList<QPair<QString, ProblemSize>> ParameterPanel::sizePresets()
{
    return {{tr("Worklog 8192 x 4096 x 6144"), {8192, 4096, 6144}},
            {QStringLiteral("1024³"), {1024, 1024, 1024}},
            {QStringLiteral("2048³"), {2048, 2048, 2048}},
            {QStringLiteral("4096³"), {4096, 4096, 4096}}};
}

ParameterPanel::ParameterPanel(QWidget *parent) : QWidget(parent)
{
    qRegisterMetaType<gemmscope::RunConfig>();
    auto *layout = new QVBoxLayout(this);

    // Stage picker.
    auto *stageBox = new QGroupBox(tr("Stage"));
    auto *stageLayout = new QVBoxLayout(stageBox);
    m_stageCombo = new ElidingComboBox;
    m_stageCombo->setObjectName(QStringLiteral("stageCombo"));
    const auto &all = stages();
    for (size_t i = 0; i < all.size(); ++i) {
        const QString face = stageListText(i);
        const QString text = QStringLiteral("%1 — %2").arg(face, QString::fromStdString(all[i].seedStep));
        m_stageCombo->addItem(text, QString::fromStdString(all[i].key));
        m_stageCombo->setItemData(int(i), text, Qt::ToolTipRole);
        m_stageCombo->setItemData(int(i), face, ElidingComboBox::kFaceRole);
    }
    // Combos as wide as the panel, not as their longest entry: the panel never scrolls sideways.
    m_stageCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_stageCombo->setMinimumContentsLength(16);
    m_stageSummary = new QLabel;
    m_stageSummary->setWordWrap(true);
    m_stageSummary->setForegroundRole(QPalette::PlaceholderText);
    stageLayout->addWidget(m_stageCombo);
    stageLayout->addWidget(m_stageSummary);
    layout->addWidget(stageBox);

    // Presets: one click applies one.
    auto *presetBox = new QGroupBox(tr("Presets"));
    auto *presetLayout = new QVBoxLayout(presetBox);
    // The times beside the presets are the worklog's, on its T4: published, not measured here.
    auto *t4Note = new QLabel(tr("T4: the runtime published in the worklog (NVIDIA T4), for comparison."));
    t4Note->setObjectName(QStringLiteral("presetT4Note"));
    t4Note->setWordWrap(true);
    t4Note->setForegroundRole(QPalette::PlaceholderText);
    presetLayout->addWidget(t4Note);
    m_presetList = new QListWidget;
    m_presetList->setObjectName(QStringLiteral("presetList"));
    for (const Preset &p : presets()) {
        auto *item = new QListWidgetItem(QString::fromStdString(p.title), m_presetList);
        item->setData(Qt::UserRole, QString::fromStdString(p.key));
        if (p.worklogT4Ms)
            item->setData(PresetItemDelegate::TimeRole, tr("T4 %1 ms").arg(*p.worklogT4Ms, 0, 'f', 2));
        item->setToolTip(
            tr("%1\n%2 — source: %3%4")
                .arg(QString::fromStdString(p.title), QString::fromStdString(p.key),
                     QString::fromStdString(p.source),
                     p.worklogT4Ms
                         ? tr("\nT4: %1 ms, published in the worklog (measured on an NVIDIA T4, not here)")
                               .arg(*p.worklogT4Ms, 0, 'f', 2)
                         : QString()));
    }
    m_presetList->setMinimumHeight(160);
    m_presetList->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Whole names, wrapped in their column beside the T4 times' (PresetItemDelegate): a name cut in
    // the middle ("Step 1: shared-memor… 16") loses its meaning.
    m_presetList->setItemDelegate(new PresetItemDelegate(m_presetList));
    m_presetList->setWordWrap(true);
    m_presetList->setTextElideMode(Qt::ElideNone);
    m_presetList->setResizeMode(QListView::Adjust);
    m_presetList->setUniformItemSizes(false);
    // Banded rows: a wrapped name stays with its preset (two reviews of 2026-12-03). The style's
    // alternate base (#f7f7f7 on white) is too faint to band: a tenth of the highlight.
    m_presetList->setAlternatingRowColors(true);
    QPalette banded = m_presetList->palette();
    const QColor base = banded.color(QPalette::Base), highlight = banded.color(QPalette::Highlight);
    banded.setColor(QPalette::AlternateBase,
                    QColor::fromRgbF(0.88f * base.redF() + 0.12f * highlight.redF(),
                                     0.88f * base.greenF() + 0.12f * highlight.greenF(),
                                     0.88f * base.blueF() + 0.12f * highlight.blueF()));
    m_presetList->setPalette(banded);
    presetLayout->addWidget(m_presetList);
    layout->addWidget(presetBox, 1);

    // Tile parameters, rebuilt for each stage.
    auto *paramGroup = new QGroupBox(tr("Parameters"));
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
    // lines read as a gap in the group (review item 10).
    m_violationLabel->setMinimumHeight(m_violationLabel->fontMetrics().lineSpacing() + 2);
    m_violationLabel->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    paramGroupLayout->addWidget(m_violationLabel);
    layout->addWidget(paramGroup);

    // Problem size.
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
    sizeLayout->addRow(tr("Preset"), m_sizeCombo);
    sizeLayout->addRow(mnk);
    sizeLayout->addRow(m_sizeNote);
    layout->addWidget(sizeGroup);

    // Measurement: timing, counters, the build and launch experiments.
    auto *timingGroup = new QGroupBox(tr("Measurement"));
    auto *timingLayout = new QFormLayout(timingGroup);
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
    timingLayout->addRow(tr("Time budget"), m_budgetSpin);
    labelWithTip(timingLayout, m_budgetSpin);
    timingLayout->addRow(m_budgetNote);
    // How steady the GPU must be (issue 22): choices, not free numbers, so nothing out of range
    // can be asked; the runner refuses such values from elsewhere with its sentence.
    m_regimeCombo = new QComboBox;
    m_regimeCombo->setObjectName(QStringLiteral("regimeCombo"));
    m_regimeCombo->addItem(tr("Burst (idle GPU)"), int(protocol::TimingRegime::Burst));
    m_regimeCombo->addItem(tr("Sustained (at load)"), int(protocol::TimingRegime::Sustained));
    m_regimeCombo->setToolTip(
        tr("Burst: each run starts from an idle, cool GPU and stops when the clock drops — what one launch "
           "costs. Sustained: the kernel runs at load until the clock settles first — what a long GEMM "
           "workload sees, at the power cap if it reaches it. Ratios compare runs of one regime only."));
    timingLayout->addRow(tr("Regime"), m_regimeCombo);
    labelWithTip(timingLayout, m_regimeCombo);
    m_noiseCombo = new QComboBox;
    m_noiseCombo->setObjectName(QStringLiteral("noiseCombo"));
    for (double pct : {0.1, 0.25, 0.5, 1.0, 2.0, 5.0})
        m_noiseCombo->addItem(tr("%1 %").arg(pct), pct);
    m_noiseCombo->setToolTip(tr("Timing stops once the relative noise (standard deviation over mean) of at "
                                "least 10 samples is this low, or at the time budget. A result whose noise "
                                "stays above it is marked noisy."));
    timingLayout->addRow(tr("Noise target"), m_noiseCombo);
    labelWithTip(timingLayout, m_noiseCombo);
    m_thresholdCombo = new QComboBox;
    m_thresholdCombo->setObjectName(QStringLiteral("thresholdCombo"));
    m_thresholdCombo->addItem(tr("Keep every sample"), 0.0);
    for (double pct : {75.0, 80.0, 90.0, 95.0})
        m_thresholdCombo->addItem(tr("Below %1 % of the start clock").arg(pct), pct);
    m_thresholdCombo->setToolTip(
        tr("Leave out samples taken while the GPU ran slower: a sample whose measured "
           "SM clock fell below this share of the clock at the start is left out of "
           "the median and counted (the trust mark says how many)."));
    timingLayout->addRow(tr("Leave out"), m_thresholdCombo);
    labelWithTip(timingLayout, m_thresholdCombo);
    timingLayout->addRow(m_flushCheck);
    m_countersCheck = new QCheckBox(tr("Hardware counters (roofline)"));
    m_countersCheck->setObjectName(QStringLiteral("countersCheck"));
    m_countersCheck->setToolTip(
        tr("Profiles one extra launch with CUPTI to measure DRAM traffic, so the roofline shows the measured "
           "arithmetic intensity next to the predicted one. Needs permission to read GPU performance "
           "counters; without it the run still succeeds and says why."));
    timingLayout->addRow(m_countersCheck);
    m_scalarReadsCheck = new QCheckBox(tr("Shared reads as written (scalar build)"));
    m_scalarReadsCheck->setObjectName(QStringLiteral("scalarReadsCheck"));
    m_scalarReadsCheck->setToolTip(tr(
        "Builds the kernel with its inner-loop shared-memory reads kept 4-byte, as the source writes them. "
        "The release build lets the compiler merge a thread's neighbouring reads into 16-byte LDS.128, "
        "which the access model does not describe; with this on, the Counters tab compares like with "
        "like. Slower than the release build."));
    timingLayout->addRow(m_scalarReadsCheck);
    // TF32 inputs (issue 22): rounded to nearest as cuBLAS's TF32 path does, or truncated.
    m_tf32InputsCombo = new QComboBox;
    m_tf32InputsCombo->setObjectName(QStringLiteral("tf32InputsCombo"));
    m_tf32InputsCombo->addItem(tr("Rounded to nearest (as cuBLAS)"), false);
    m_tf32InputsCombo->addItem(tr("Truncated (raw FP32 bits)"), true);
    m_tf32InputsCombo->setToolTip(tr("How the TF32 stages shorten each FP32 input to TF32's 10-bit mantissa: "
                                     "rounded to nearest, as cuBLAS does, or cut off."));
    timingLayout->addRow(tr("TF32 inputs"), m_tf32InputsCombo);
    labelWithTip(timingLayout, m_tf32InputsCombo);

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
    timingLayout->addRow(tr("Blocks per SM"), m_blocksPerSmCombo);
    labelWithTip(timingLayout, m_blocksPerSmCombo);
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
    timingLayout->addRow(tr("L1 / shared"), m_carveoutCombo);
    labelWithTip(timingLayout, m_carveoutCombo);
    layout->addWidget(timingGroup);

    m_runButton = new QPushButton(tr("Run"));
    m_runButton->setObjectName(QStringLiteral("runButton"));
    layout->addWidget(m_runButton);

    connect(m_stageCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (!m_syncing && index >= 0)
            setStage(StageId(m_stageCombo->itemData(index).toString().toStdString()));
    });
    connect(m_presetList, &QListWidget::itemClicked, this,
            [this](QListWidgetItem *item) { applyPreset(item->data(Qt::UserRole).toString()); });
    connect(m_sizeCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        const auto presets = sizePresets();
        if (!m_syncing && index >= 0 && index < presets.size())
            setProblemSize(presets[index].second);
    });
    for (LimitSpinBox *spin : {m_mSpin, m_nSpin, m_kSpin}) {
        connect(spin, &LimitSpinBox::limitHit, this, [this](const QString &sentence) {
            m_sizeLimitNote = sentence;
            updateFieldNotes();
        });
        connect(spin, &LimitSpinBox::limitCleared, this, [this] {
            m_sizeLimitNote.clear();
            updateFieldNotes();
        });
        connect(spin, &QSpinBox::valueChanged, this, [this] {
            if (m_syncing)
                return;
            m_config.size = {m_mSpin->value(), m_nSpin->value(), m_kSpin->value()};
            configEdited();
        });
    }
    connect(m_budgetSpin, &LimitSpinBox::limitHit, this, [this](const QString &sentence) {
        m_budgetLimitNote = sentence;
        updateFieldNotes();
    });
    connect(m_budgetSpin, &LimitSpinBox::limitCleared, this, [this] {
        m_budgetLimitNote.clear();
        updateFieldNotes();
    });
    connect(m_budgetSpin, &QSpinBox::valueChanged, this, [this](int v) {
        if (m_syncing)
            return;
        m_config.timing.budgetMs = v;
        configEdited();
    });
    connect(m_regimeCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_syncing || index < 0)
            return;
        m_config.timing.regime = protocol::TimingRegime(m_regimeCombo->itemData(index).toInt());
        configEdited();
    });
    connect(m_noiseCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_syncing || index < 0)
            return;
        m_config.timing.maxNoisePct = m_noiseCombo->itemData(index).toDouble();
        configEdited();
    });
    connect(m_thresholdCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_syncing || index < 0)
            return;
        m_config.timing.throttleThresholdPct = m_thresholdCombo->itemData(index).toDouble();
        configEdited();
    });
    connect(m_flushCheck, &QCheckBox::toggled, this, [this](bool on) {
        if (m_syncing)
            return;
        m_config.timing.flushL2 = on;
        configEdited();
    });
    connect(m_countersCheck, &QCheckBox::toggled, this, [this](bool on) {
        if (m_syncing)
            return;
        m_config.timing.counters = on;
        configEdited();
    });
    connect(m_blocksPerSmCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_syncing || index < 0)
            return;
        m_config.timing.maxBlocksPerSm = m_blocksPerSmCombo->itemData(index).toInt();
        configEdited();
    });
    connect(m_carveoutCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_syncing || index < 0)
            return;
        m_config.timing.smemCarveout = m_carveoutCombo->itemData(index).toInt();
        configEdited();
    });
    connect(m_tf32InputsCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_syncing || index < 0)
            return;
        m_config.timing.truncateTf32 = m_tf32InputsCombo->itemData(index).toBool();
        configEdited();
    });
    connect(m_scalarReadsCheck, &QCheckBox::toggled, this, [this](bool on) {
        if (m_syncing)
            return;
        m_config.timing.scalarSharedReads = on;
        configEdited();
    });
    connect(m_runButton, &QPushButton::clicked, this, &ParameterPanel::runRequested);

    if (!applyPreset(QStringLiteral("worklog-3")))
        setStage(StageId::Coalesced);
}

void ParameterPanel::setConfig(const RunConfig &config)
{
    const bool stageChanged = config.stage != m_config.stage || m_paramRows.isEmpty();
    m_config = config;
    if (stageChanged)
        buildParamRows();
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
    // together: BM's three digits and BK's two made the sliders ragged (the review of 2026-12-02).
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
    m_stageCombo->setToolTip(m_stageCombo->currentText()); // the whole entry, where its face is cut
    for (ParamRow &row : m_paramRows) {
        const auto it = m_config.params.find(row.name.toStdString());
        const int value = it == m_config.params.end() ? 0 : it->second;
        row.spin->setValue(value);
        row.slider->setValue(nearestIndex(row.values, value));
    }
    for (int i = 0; i < m_presetList->count(); ++i) {
        QListWidgetItem *item = m_presetList->item(i);
        const bool current = item->data(Qt::UserRole).toString() == m_config.presetKey;
        item->setSelected(current);
        if (current)
            m_presetList->setCurrentItem(item);
    }
    if (m_config.presetKey.isEmpty())
        m_presetList->clearSelection();
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
