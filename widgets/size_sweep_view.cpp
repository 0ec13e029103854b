#include "size_sweep_view.h"

#include "empty_state.h"

#include "file_write.h"
#include "plot_export.h"
#include "size_series_name.h"
#include "size_series_order.h"
#include "size_sweep_chart.h"
#include "sweep_summary.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QListWidget>
#include <QSet>
#include <QSpinBox>
#include <QVBoxLayout>

namespace gemmscope {

SizeSweepView::SizeSweepView(SweepControl *control, RunControls runControls, QWidget *parent)
    : SweepViewBase(control,
                    {QStringLiteral("sizeSweep"), tr("runs"), tr("Run the shown sweep's unfinished sizes"),
                     tr("How each runner is started, as for a parameter sweep (docs/sweeps.md).")},
                    runControls, parent)
{
    buildForm();
    follow();
}

void SizeSweepView::resizeEvent(QResizeEvent *event)
{
    SweepViewBase::resizeEvent(event);
    fitSeriesList();
}

void SizeSweepView::fitSeriesList()
{
    // Beside the chart the list of series can show a third of the presets' rows at once; a shown
    // sweep's five take five rows, not a third of the height (the form under them was squeezed).
    const bool sideBySide = width() >= SweepPage::kSideBySideMinWidth;
    int rows = 0;
    for (int i = 0; i < m_seriesList->count(); ++i)
        rows += !m_seriesList->item(i)->isHidden();
    const int needed =
        std::max(1, rows) * std::max(1, m_seriesList->sizeHintForRow(0)) + 2 * m_seriesList->frameWidth() + 4;
    const int most = sideBySide ? 300 : 110;
    m_seriesList->setMinimumHeight(std::min(needed, sideBySide ? std::min(300, height() / 3) : 60));
    m_seriesList->setMaximumHeight(std::min(needed, most));
}

SizeSweepView::~SizeSweepView() = default; // a running sweep runs on in the control

void SizeSweepView::buildForm()
{
    m_seriesList = new QListWidget;
    m_seriesList->setObjectName(QStringLiteral("sizeSweepSeries"));
    // In ladder order, as the chart's legend lists the curves (size_series_order.h).
    for (const Preset *preset : presetsInLadderOrder()) {
        const Preset &p = *preset;
        // Named as the results table and the charts name the preset's runs ("8  Final: …"), not
        // by its key; the key and the preset's own title stay in the tooltip.
        const QString name =
            sizeSeriesName(SizeSeries{p.stage, p.params, p.key}, SeriesNaming::WithStageName);
        auto *item = new QListWidgetItem(name, m_seriesList);
        item->setToolTip(
            tr("%1\n(preset %2)").arg(QString::fromStdString(p.title), QString::fromStdString(p.key)));
        item->setData(Qt::UserRole, QString::fromStdString(p.key));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        const bool byDefault = p.key == "worklog-8" || p.stage == StageId::CublasFp32;
        item->setCheckState(byDefault ? Qt::Checked : Qt::Unchecked);
    }
    m_seriesList->setMaximumHeight(110);
    m_seriesList->setToolTip(
        tr("The curves: presets (a stage with its tile parameters) and the cuBLAS baselines."));
    m_shape = new QComboBox;
    m_shape->setObjectName(QStringLiteral("sizeSweepShape"));
    m_shape->addItem(tr("square (M = N = K)"));
    m_shape->addItem(tr("worklog's 8192:4096:6144, scaled"));
    m_from = new QComboBox;
    m_to = new QComboBox;
    for (long long v = 64; v <= 32768; v *= 2) {
        m_from->addItem(QString::number(v), v);
        m_to->addItem(QString::number(v), v);
    }
    m_from->setCurrentText(QStringLiteral("256"));
    m_to->setCurrentText(QStringLiteral("16384"));
    m_midpoints = new QCheckBox(tr("and midpoints (1.5×)"));
    m_midpoints->setChecked(true);
    m_budget = new QSpinBox;
    m_budget->setRange(1, 60000);
    m_budget->setValue(30);
    m_budget->setSuffix(tr(" ms"));
    m_chart = new SizeSweepChart;

    // The form and the run controls in a column beside the chart (above it in a narrow pane).
    auto *right = new QFormLayout;
    right->setRowWrapPolicy(QFormLayout::WrapLongRows);
    // What Start runs, not the shown sweep's extent (its axis says that): "Largest dimension
    // 256 … 16384" beside a sweep of 256 to 8192 read as the data's minimum and maximum.
    const QString rangeTip = tr("The sizes Start times: the largest dimension from the first value to the "
                                "second, doubling (and the midpoints if ticked). Showing a sweep sets them "
                                "to its sizes, so that Start repeats it.");
    m_from->setToolTip(rangeTip);
    m_to->setToolTip(rangeTip);
    auto *range = new QHBoxLayout;
    range->addWidget(m_from);
    range->addWidget(new QLabel(tr("to")));
    range->addWidget(m_to);
    range->addStretch();
    right->addRow(tr("Shape"), m_shape);
    auto *rangeLabel = new QLabel(tr("Sizes to run"));
    rangeLabel->setObjectName(QStringLiteral("sizeSweepRangeLabel"));
    rangeLabel->setToolTip(rangeTip);
    right->addRow(rangeLabel, range);
    right->addRow(QString(), m_midpoints);
    right->addRow(tr("Budget"), m_budget);
    if (runControlsInView())
        m_panel->addRunnersRow(right);
    m_seriesLabel = new QLabel(tr("Series to run"));
    m_seriesLabel->setObjectName(QStringLiteral("sizeSweepSeriesLabel"));
    m_allSeries = new QCheckBox(tr("Also list the presets it did not run"));
    m_allSeries->setObjectName(QStringLiteral("sizeSweepAllSeries"));
    m_allSeries->setToolTip(tr("The shown sweep timed only the series listed. Tick to list every preset "
                               "and choose others for a new sweep (Start)."));
    connect(m_allSeries, &QCheckBox::toggled, this, &SizeSweepView::listSeries);
    m_page.sideLayout->addWidget(m_seriesLabel);
    m_page.sideLayout->addWidget(m_seriesList);
    m_page.sideLayout->addWidget(m_allSeries);
    m_page.sideLayout->addLayout(right);
    if (runControlsInView())
        m_panel->addTo(m_page.sideLayout);
    m_page.sideLayout->addStretch(1); // spare height below the controls, not between them
    m_panel->addShownTo(m_page.mainLayout);
    m_page.mainLayout->addWidget(m_chart, 1);

    m_panel->setExport(tr("Export size sweep"),
                       exportFileFilter() + QStringLiteral(";;CSV points (*.csv);;JSON points (*.json)"),
                       [this](const QString &path) { return exportTo(path); });
}

void SizeSweepView::setSeries(const QStringList &keys)
{
    for (int i = 0; i < m_seriesList->count(); ++i) {
        QListWidgetItem *item = m_seriesList->item(i);
        item->setCheckState(keys.contains(item->data(Qt::UserRole).toString()) ? Qt::Checked : Qt::Unchecked);
    }
}

QStringList SizeSweepView::checkedSeries() const
{
    QStringList keys;
    for (int i = 0; i < m_seriesList->count(); ++i)
        if (m_seriesList->item(i)->checkState() == Qt::Checked)
            keys << m_seriesList->item(i)->data(Qt::UserRole).toString();
    return keys;
}

void SizeSweepView::setSizes(SizeShape shape, long long from, long long to, bool midpoints)
{
    m_shape->setCurrentIndex(shape == SizeShape::Square ? 0 : 1);
    m_from->setCurrentIndex(m_from->findData(from));
    m_to->setCurrentIndex(m_to->findData(to));
    m_midpoints->setChecked(midpoints);
}

SweepSpec SizeSweepView::spec() const
{
    SweepSpec spec;
    spec.kind = SweepKind::Sizes;
    for (const QString &key : checkedSeries())
        if (const Preset *p = findPreset(key.toStdString()))
            spec.series.push_back({p->stage, p->params, p->key});
    spec.sizes = sizeSweepSizes(m_shape->currentIndex() == 0 ? SizeShape::Square : SizeShape::WorklogAspect,
                                m_from->currentData().toLongLong(), m_to->currentData().toLongLong(),
                                m_midpoints->isChecked());
    if (!spec.series.empty())
        spec.stage = spec.series.front().stage;
    if (!spec.sizes.empty())
        spec.size = spec.sizes.front();
    spec.budgetMs = m_budget->value();
    return spec;
}

std::optional<SweepSpec> SizeSweepView::formSpec(QString *) const
{
    return spec(); // the controller says why a plan cannot be made (no series, say)
}

void SizeSweepView::setForm(const SweepData &sweep)
{
    QStringList keys;
    for (const SizeSeries &s : sweep.spec.series)
        keys << QString::fromStdString(s.label);
    setSeries(keys);
    m_budget->setValue(sweep.spec.budgetMs);
    // The sizes too, where the form can say them (a sweep written by hand may have others).
    const std::vector<ProblemSize> &sizes = sweep.spec.sizes;
    if (!sizes.empty()) {
        long long lo = sizes.front().m, hi = sizes.front().m;
        bool square = true, midpoints = false;
        for (const ProblemSize &z : sizes) {
            const long long largest = std::max({z.m, z.n, z.k});
            lo = std::min(lo, largest);
            hi = std::max(hi, largest);
            square = square && z.m == z.n && z.n == z.k;
            midpoints = midpoints || (largest & (largest - 1)) != 0;
        }
        const SizeShape shape = square ? SizeShape::Square : SizeShape::WorklogAspect;
        if (m_from->findData(lo) >= 0 && m_to->findData(hi) >= 0 &&
            sizeSweepSizes(shape, lo, hi, midpoints) == sizes)
            setSizes(shape, lo, hi, midpoints);
    }
}

void SizeSweepView::listSeries()
{
    // A shown sweep's own series only (its file holds five: twenty presets beside them read as
    // twenty curves missing); every preset where none is shown, or when asked for a new sweep.
    QSet<QString> inSweep;
    if (shownSweep())
        for (const SizeSeries &s : shownSweep()->spec.series)
            inSweep.insert(QString::fromStdString(s.label));
    const bool all = inSweep.isEmpty() || m_allSeries->isChecked();
    for (int i = 0; i < m_seriesList->count(); ++i) {
        QListWidgetItem *item = m_seriesList->item(i);
        item->setHidden(!all && !inSweep.contains(item->data(Qt::UserRole).toString()));
    }
    m_allSeries->setVisible(!inSweep.isEmpty());
    fitSeriesList();
    m_seriesLabel->setText(inSweep.isEmpty() ? tr("Series to run")
                           : m_allSeries->isChecked()
                               ? tr("Series to run (the shown sweep's are ticked)")
                               : tr("Series in the shown sweep (%1)").arg(inSweep.size()));
}

void SizeSweepView::redraw()
{
    listSeries();
    if (!shownSweep() || !plan().ok()) {
        m_live = {};
        m_chart->clear(emptyText());
        offerRecordedSweeps(m_chart->emptyState());
        return;
    }
    m_live = LiveSizeSweepSummary(plan(), shownSweep()->runs);
    m_chart->setData(plan(), m_live.summary(), m_live.provenance());
}

bool SizeSweepView::showAnswered(int firstNew)
{
    if (!m_chart->showsPlot())
        return false;
    // Each new run changes its own point (a cuBLAS baseline: the points at its size): the work is
    // the new runs', not the sweep's.
    QList<int> changed;
    const QList<RunRecord> &runs = shownSweep()->runs;
    for (qsizetype i = firstNew; i < runs.size(); ++i)
        changed += m_live.add(runs.at(i));
    return m_chart->updatePoints(m_live.summary(), changed, m_live.provenance());
}

QString SizeSweepView::listTitle(const SweepData &sweep) const
{
    // As the legend names the curves, not by the presets' keys ("worklog-8, fp32-tuned").
    QStringList names;
    for (const int i : seriesInLadderOrder(sweep.spec.series))
        names << sizeSeriesName(sweep.spec.series[std::size_t(i)], SeriesNaming::Short);
    const std::vector<ProblemSize> &sizes = sweep.spec.sizes;
    return sizes.empty() ? tr("Sizes of %1").arg(names.join(QStringLiteral(", ")))
                         : tr("Sizes of %1: %2 … %3")
                               .arg(names.join(QStringLiteral(", ")), squareOrFullSizeText(sizes.front()),
                                    squareOrFullSizeText(sizes.back()));
}

QString SizeSweepView::emptyText() const
{
    if (shownSweep() && !plan().ok())
        return tr("This size sweep cannot be drawn: %1").arg(QString::fromStdString(plan().error));
    return tr("No size sweep to show yet.\n\n"
              "A size sweep times chosen presets (and cuBLAS) at a range of problem sizes and plots TFLOP/s "
              "against size: where each kernel reaches its plateau, and the sizes where the last wave of "
              "thread blocks leaves most SMs idle (wave quantization).\n\n"
              "To run one: check the series and choose the sizes on the left, then Start (it "
              "needs gemmscope-runner and an NVIDIA GPU: this machine's, or another that the Runners field "
              "reaches).\n\n"
              "%1")
        .arg(recordedSweepHint(tr("size sweep")));
}

std::optional<QString> SizeSweepView::exportTo(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (!shownSweep() || !plan().ok())
        return tr("There is no size sweep to export: %1 shows none yet (choose one in its list, or run one).")
            .arg(viewName());
    if (suffix == QLatin1String("csv") || suffix == QLatin1String("json")) {
        const QByteArray bytes = suffix == QLatin1String("csv")
                                     ? sizeSweepCsv(plan(), summary()).toUtf8()
                                     : QJsonDocument(sizeSweepJson(plan(), summary())).toJson();
        if (const FileWrite written = writeFileAtomically(path, bytes); !written)
            return written.error; // the file is replaced whole or left as it was
        return std::nullopt;
    }
    const SweepSpec &spec = plan().spec;
    const int count = int(spec.series.size());
    const std::vector<int> order = seriesInLadderOrder(spec.series); // as the legend lists them
    QStringList names;
    for (int i = 0; i < std::min(count, 6); ++i)
        names << sizeSeriesName(plan(), order[std::size_t(i)], SeriesNaming::Short);
    if (count > 6)
        names << tr("%L1 more").arg(count - 6);
    return m_chart->exportTo(path, tr("Problem sizes: TFLOP/s against size, %1 … %2 — %3")
                                       .arg(squareOrFullSizeText(spec.sizes.front()),
                                            squareOrFullSizeText(spec.sizes.back()),
                                            names.join(QStringLiteral(", "))));
}

} // namespace gemmscope
