#include "size_sweep_view.h"

#include "empty_state.h"

#include "file_write.h"
#include "plot_export.h"
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
#include <QSpinBox>
#include <QVBoxLayout>

namespace gemmscope {

SizeSweepView::SizeSweepView(SweepControl *control, QWidget *parent)
    : SweepViewBase(control,
                    {QStringLiteral("sizeSweep"), tr("runs"), tr("Run the shown sweep's unfinished sizes"),
                     tr("How each runner is started, as for a parameter sweep (docs/sweeps.md).")},
                    parent)
{
    buildForm();
    follow();
}

void SizeSweepView::resizeEvent(QResizeEvent *event)
{
    SweepViewBase::resizeEvent(event);
    // Beside the chart the list of series can show a third of the presets' rows at once.
    const bool sideBySide = width() >= SweepPage::kSideBySideMinWidth;
    m_seriesList->setMinimumHeight(sideBySide ? std::min(300, height() / 3) : 60);
    m_seriesList->setMaximumHeight(sideBySide ? 300 : 110);
}

SizeSweepView::~SizeSweepView() = default; // a running sweep runs on in the control

void SizeSweepView::buildForm()
{
    m_seriesList = new QListWidget;
    m_seriesList->setObjectName(QStringLiteral("sizeSweepSeries"));
    for (const Preset &p : presets()) {
        auto *item = new QListWidgetItem(QString::fromStdString(p.key + " — " + p.title), m_seriesList);
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
    auto *range = new QHBoxLayout;
    range->addWidget(m_from);
    range->addWidget(new QLabel(QStringLiteral("…")));
    range->addWidget(m_to);
    range->addStretch();
    right->addRow(tr("Shape"), m_shape);
    right->addRow(tr("Largest dimension"), range);
    right->addRow(QString(), m_midpoints);
    right->addRow(tr("Budget"), m_budget);
    m_panel->addRunnersRow(right);
    m_page.sideLayout->addWidget(new QLabel(tr("Series")));
    m_page.sideLayout->addWidget(m_seriesList);
    m_page.sideLayout->addLayout(right);
    m_panel->addTo(m_page.sideLayout);
    m_page.sideLayout->addStretch(1); // spare height below the controls, not between them
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
}

void SizeSweepView::redraw()
{
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

QString SizeSweepView::emptyText() const
{
    if (shownSweep() && !plan().ok())
        return tr("This size sweep cannot be drawn: %1").arg(QString::fromStdString(plan().error));
    return tr("No size sweep to show yet.\n\n"
              "A size sweep times chosen presets (and cuBLAS) at a range of problem sizes and plots TFLOP/s "
              "against size: where each kernel reaches its plateau, and the sizes where the last wave of "
              "thread blocks leaves most SMs idle (wave quantization).\n\n"
              "To run one: check the series and choose the sizes on the left, then Start under them (it "
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
    QStringList names;
    for (int i = 0; i < std::min(count, 6); ++i)
        names << seriesLabel(plan(), i);
    if (count > 6)
        names << tr("%L1 more").arg(count - 6);
    return m_chart->exportTo(path, tr("Problem sizes: TFLOP/s against size, %1 … %2 — %3")
                                       .arg(squareOrFullSizeText(spec.sizes.front()),
                                            squareOrFullSizeText(spec.sizes.back()),
                                            names.join(QStringLiteral(", "))));
}

} // namespace gemmscope
