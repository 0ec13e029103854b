#include "sweep_view.h"

#include "jargon_text.h"

#include "empty_state.h"

#include "chart_interaction.h"
#include "file_write.h"
#include "occupancy_limiter.h"
#include "plot_export.h"
#include "plot_theme.h"
#include "size_field_text.h"
#include "stage_choice_text.h"
#include "sweep_cell_text.h"
#include "sweep_print_layout.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace gemmscope {

namespace {

// `bestOverRest`: the cells name their best run's other parameters, which the key then explains.
QString marksText(bool bestOverRest)
{
    return QObject::tr(
               "Cell marks, after the value:\n"
               "s — spills registers\n"
               "reg / smem / thr / blk — what limits occupancy: registers, shared memory, threads or blocks "
               "per SM\n"
               "✗ — wrong result    ★ — the best cell\n"
               "%1"
               "Grey hatched: refused by the stage's rules; light grey: not run yet, or failed (hover a cell "
               "for why).")
        .arg(bestOverRest ? QObject::tr("under the value — the other parameters of the cell's best run\n")
                          : QString());
}

// The key under the heatmap on screen: the marks in a line or three, so that it sits beside the cells
// it explains at 1280x800 (at the foot of the form's column it was below the fold). The print layout
// keeps marksText(), a mark a line.
QString compactMarksText(bool bestOverRest)
{
    return QObject::tr(
               "Cell marks: s spills registers · reg / smem / thr / blk what limits occupancy "
               "(registers, shared memory, threads or blocks per SM) · ✗ wrong result · ★ the best "
               "cell · %1grey hatched: refused by the stage's rules · light grey: not run yet, or failed. "
               "Hover a cell for why; click it to load it into the parameter panel (a line below "
               "says what it loaded).")
        .arg(bestOverRest ? QObject::tr("under the value: the other parameters of the cell's best run · ")
                          : QString());
}

} // namespace

SweepView::SweepView(SweepControl *control, RunControls runControls, QWidget *parent)
    : SweepViewBase(control,
                    {QStringLiteral("sweep"), tr("parameter sets"),
                     tr("Run the shown sweep's unfinished parameter sets"),
                     tr("How each runner is started: {runner} (this machine), CUDA_VISIBLE_DEVICES={gpu} "
                        "{runner}, ssh HOST gemmscope-runner, srun --gres=gpu:1 gemmscope-runner. No shell: "
                        "see docs/sweeps.md.")},
                    runControls, parent)
{
    buildForm();
    follow();
}

SweepView::~SweepView() = default; // a running sweep runs on in the control

// The form's fields, the heatmap, their places in the page, and what each field changes.
void SweepView::buildForm()
{
    buildFields();
    buildHeatmap();
    layOutForm();
    connect(m_stage, &QComboBox::currentIndexChanged, this, &SweepView::stageChanged);
    connect(m_stage, &QComboBox::currentIndexChanged, this, &SweepView::updateRestText);
    for (QComboBox *axis : {m_x, m_y}) // the fixed values named in the form are the other parameters
        connect(axis, &QComboBox::currentIndexChanged, this, &SweepView::updateRestText);
    connect(m_metric, &QComboBox::currentIndexChanged, this, &SweepView::redraw);
    m_panel->setExport(tr("Export sweep"),
                       exportFileFilter() + QStringLiteral(";;CSV cells (*.csv);;JSON cells (*.json)"),
                       [this](const QString &path) { return exportTo(path); });
    stageChanged();
}

void SweepView::buildFields()
{
    m_stage = new QComboBox;
    m_stage->setObjectName(QStringLiteral("sweepStage"));
    // Named as the parameter panel names them ("Coalesced cooperative loads"), not by their
    // keys: one stage, one name in every view. The key stays the item's data (and its tooltip).
    const auto &all = stages();
    for (std::size_t i = 0; i < all.size(); ++i)
        if (!all[i].isLibrary && all[i].params.size() >= 2) {
            m_stage->addItem(stageChoiceText(all[i]),
                             QString::fromStdString(all[i].key)); // as the panel names it
            m_stage->setItemData(m_stage->count() - 1, QString::fromStdString(all[i].key), Qt::ToolTipRole);
        }
    // As long as the form's other fields: a long title is cut, not the form widened.
    m_stage->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_stage->setMinimumContentsLength(16);
    m_x = new QComboBox;
    m_x->setObjectName(QStringLiteral("sweepX"));
    m_y = new QComboBox;
    m_y->setObjectName(QStringLiteral("sweepY"));
    m_rest = new QComboBox;
    m_rest->setObjectName(QStringLiteral("sweepRest"));
    m_rest->addItem(tr("fixed (as configured)"));
    m_rest->addItem(tr("best over the rest"));
    m_rest->setToolTip(
        tr("Fixed: the other parameters keep the configured values (the parameter panel's, Alt+0). Best "
           "over the rest: every combination of the other parameters is run and each cell shows its "
           "fastest."));
    // The size as every other view writes it ("4096³"); typed as 4096 or 8192x4096x6144 as well.
    m_size = new QLineEdit(squareOrFullSizeText(ProblemSize{4096, 4096, 4096}));
    m_size->setObjectName(QStringLiteral("sweepSize"));
    m_size->setToolTip(
        tr("The problem size every point of the sweep is timed at. %1").arg(sizeFieldFormatText()));
    m_size->setMaximumWidth(130);
    m_budget = new QSpinBox;
    m_budget->setObjectName(QStringLiteral("sweepBudget"));
    m_budget->setRange(1, 60000);
    m_budget->setValue(30);
    m_budget->setSuffix(tr(" ms"));
    m_metric = new QComboBox;
    m_metric->setObjectName(QStringLiteral("sweepMetric"));
    m_metric->addItem(tr("TFLOP/s"));
    m_metric->addItem(tr("% of cuBLAS FP32"));
    m_metric->setItemData(1, jargon::percentOfCublasFp32(), Qt::ToolTipRole); // which cuBLAS, which run
    m_best = new QLabel;
    m_best->setObjectName(QStringLiteral("sweepBest"));
    m_best->setWordWrap(true);
    m_best->setTextFormat(Qt::PlainText); // host and GPU names come from files: data, never markup
    m_best->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_best->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    m_best->setMinimumHeight(2 * m_best->fontMetrics().lineSpacing() + 4); // the sweep line and the best line
    // "measured on NVIDIA H200 (machine “vm”)": what the line says of where, as the glossary says it.
    m_best->setToolTip(QStringLiteral("<p>%1</p>").arg(jargon::measuredOnHost().toHtmlEscaped()));
    m_legend = new QLabel(compactMarksText(false));
    m_legend->setObjectName(QStringLiteral("sweepLegend"));
    m_legend->setWordWrap(true);
    m_legend->setTextFormat(Qt::PlainText); // the window's text colour: a key must be readable
    // Where the form's values come from (updateRestText).
    m_origin = new QLabel;
    m_origin->setObjectName(QStringLiteral("sweepOrigin"));
    m_origin->setWordWrap(true);
    m_origin->setTextFormat(Qt::PlainText);
    m_loaded = new QLabel;
    m_loaded->setObjectName(QStringLiteral("sweepLoaded"));
    m_loaded->setWordWrap(true);
    m_loaded->setTextFormat(Qt::PlainText);
    m_loaded->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_loaded->setVisible(false);
    m_empty = new EmptyState; // plain text: it may quote the plan's sentence
    m_empty->setObjectName(QStringLiteral("sweepEmptyState"));
    m_empty->setHeading(tr("Parameter sweep: which tile shapes are fast"));
    m_empty->textLabel()->setObjectName(QStringLiteral("sweepEmpty"));
    m_empty->offerButton()->setObjectName(QStringLiteral("sweepAddRecorded"));
}

void SweepView::buildHeatmap()
{
    m_plot = new QCustomPlot;
    m_plot->setObjectName(QStringLiteral("sweepHeatmap"));
    m_plot->setMinimumSize(240, 140); // small: the window's minimum is every tab's
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_scale = new QCPColorScale(m_plot);
    m_plot->plotLayout()->addElement(0, 1, m_scale);
    m_map->setColorScale(m_scale);
    // The colour bar as tall as the grid, level with it: the axis rect's top and bottom margins
    // (the title's room over the cells, the axis under them) are the scale's too. Without them the
    // bar ran from above the title to below the axis' label.
    auto *level = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, level);
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, level);
    QCPColorGradient gradient(QCPColorGradient::gpThermal);
    // Thermal ends in white, the plot's own background: the best cell would read as an empty one.
    gradient.setColorStopAt(1.0, QColor(0xff, 0xe6, 0x80));
    m_map->setGradient(gradient);
    m_map->setInterpolate(false);
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->yAxis->grid()->setVisible(false);
    for (QCPAxis *axis : {m_plot->xAxis, m_plot->yAxis}) { // outside: inside, a tick ran into a cell's text
        axis->setTickLength(0, 4);
        axis->setSubTickLength(0, 0);
    }
    connect(m_plot, &QCustomPlot::beforeReplot, this, &SweepView::capCellSize);
    m_interaction = new ChartInteraction(m_plot, [this](const QPointF &pixel) {
        const auto [cell, tip] = cellAt(pixel);
        return ChartInteraction::Hit{cell >= 0 ? QString::number(cell) : QString(), tip};
    });
    connect(m_interaction, &ChartInteraction::clicked, this,
            [this](const QString &id) { clickCell(id.toInt()); });
}

void SweepView::capCellSize()
{
    QCPLayoutGrid *layout = m_plot->plotLayout();
    layout->setMargins(QMargins());
    m_plot->axisRect()->setMinimumMargins(QMargins());
    if (!shownSweep() || !plan().ok())
        return;
    // The axis rect as the layout places it without margins (what replot is about to do), then the
    // room past kMaxCellPx a cell shared out on both sides: the grid keeps its axes and colour scale
    // beside it, centred; a grid whose cells are under the cap fills the plot as before.
    const auto naturalRect = [this, layout] {
        layout->update(QCPLayoutElement::upPreparation);
        layout->update(QCPLayoutElement::upMargins);
        layout->update(QCPLayoutElement::upLayout);
        return m_plot->axisRect()->rect();
    };
    QRect natural = naturalRect();
    const int nx = int(plan().xValues.size()), ny = int(plan().yValues.size());
    if (m_title) {
        // The title over the grid, no wider than the grid (wider, it would reach over the axis'
        // label and the colour scale), in room the axis rect keeps above it.
        const int gridWidth = nx * std::min(kMaxCellPx, natural.width() / std::max(1, nx));
        m_title->setText(wrapToWidth(titleText(), m_title->font(), std::max(gridWidth, 120)));
        const int lines = int(m_title->text().count(QLatin1Char('\n'))) + 1;
        m_plot->axisRect()->setMinimumMargins(
            QMargins(0, lines * QFontMetrics(m_title->font()).lineSpacing() + 6, 0, 0));
        natural = naturalRect();
    }
    // Other rows of the grid (the print layout's title and footer, sweep_print_layout.h) keep the
    // width their text needs: squeezed to the cells' width, they were cut at both ends.
    int needed = 0;
    for (int row = 0; row < layout->rowCount(); ++row)
        if (QCPLayoutElement *e = layout->element(row, 0); e && e != m_plot->axisRect())
            needed = std::max(needed, e->minimumOuterSizeHint().width());
    const int spareX = std::clamp(natural.width() - nx * kMaxCellPx, 0,
                                  std::max(0, m_plot->axisRect()->outerRect().width() - needed));
    const int spareY = std::max(0, natural.height() - ny * kMaxCellPx);
    layout->setMargins(QMargins(spareX / 2, spareY / 2, spareX - spareX / 2, spareY - spareY / 2));
    fitCellTexts(QSizeF(double(natural.width() - spareX) / std::max(1, nx),
                        double(natural.height() - spareY) / std::max(1, ny)));
}

void SweepView::fitCellTexts(const QSizeF &cellPx)
{
    for (const CellLabel &label : std::as_const(m_cellLabels))
        label.item->setText(fitCellText(label.text, QFontMetrics(label.item->font()), cellPx).text);
}

QStringList SweepView::otherParams() const
{
    QStringList others;
    if (const StageInfo *stage = findStage(plan().spec.stage.key()))
        for (const ParamSpec &p : stage->params)
            if (p.name != plan().spec.x.param && p.name != plan().spec.y.param)
                others << QString::fromStdString(p.name);
    return others;
}

QString SweepView::bestOverText() const
{
    const QStringList others = otherParams();
    return others.isEmpty() ? tr("best over the rest")
                            : tr("each cell the best over %1").arg(QLocale().createSeparatedList(others));
}

QString SweepView::titleText() const
{
    if (!shownSweep() || !plan().ok())
        return {};
    if (plan().spec.rest == SweepRest::Fixed)
        return m_restText.isEmpty() ? QString() : tr("The other parameters fixed: %1").arg(m_restText);
    const QStringList others = otherParams();
    return others.isEmpty() ? QString()
                            : tr("Each cell: the best over %1").arg(QLocale().createSeparatedList(others));
}

void SweepView::layOutForm()
{
    // The form and the run controls in a column beside the heatmap (above it in a narrow pane).
    auto *form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->addRow(tr("Stage"), m_stage);
    auto *axes = new QHBoxLayout;
    axes->addWidget(m_x, 1);
    axes->addWidget(new QLabel(QStringLiteral("×")));
    axes->addWidget(m_y, 1);
    form->addRow(tr("Axes (x × y)"), axes);
    form->addRow(tr("Other parameters"), m_rest);
    auto *sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_size, 1);
    sizeRow->addWidget(m_budget);
    form->addRow(tr("Size, budget"), sizeRow);
    if (runControlsInView())
        m_panel->addRunnersRow(form);
    // Not "Show": beside the Shown list (which sweep) it read as the same choice.
    form->addRow(tr("Colour by"), m_metric);
    m_page.sideLayout->addLayout(form);
    m_page.sideLayout->addWidget(m_origin);
    if (runControlsInView())
        m_panel->addTo(m_page.sideLayout);
    m_page.sideLayout->addStretch(1);
    m_canvas = new QStackedWidget;
    m_canvas->setObjectName(QStringLiteral("sweepCanvas"));
    m_canvas->addWidget(m_empty);
    m_canvas->addWidget(m_plot);
    m_panel->addShownTo(m_page.mainLayout);
    m_page.mainLayout->addWidget(m_canvas, 1);
    m_page.mainLayout->addWidget(m_legend); // the heatmap's key, next to it
    m_page.mainLayout->addWidget(m_best);
    m_page.mainLayout->addWidget(m_loaded);
}

void SweepView::stageChanged()
{
    const StageInfo *stage = findStage(m_stage->currentData().toString().toStdString());
    m_x->clear();
    m_y->clear();
    if (!stage)
        return;
    for (const ParamSpec &p : stage->params) {
        m_x->addItem(QString::fromStdString(p.name));
        m_y->addItem(QString::fromStdString(p.name));
    }
    m_x->setCurrentIndex(0);
    m_y->setCurrentIndex(1);
}

void SweepView::setBaseConfig(const RunConfig &config)
{
    // The panel's stage becomes the form's when the panel changes stage, and the first time it
    // comes (the form said "naive" beside a panel on "coalesced"): "fixed (the
    // panel's values)" must mean the stage the panel shows. A recorded sweep on the heatmap stays.
    const bool stageChanged = !m_hasBase || config.stage != m_base.stage;
    // A user's kernel with two parameters or more is swept as a stage is, once the panel has it.
    if (const StageInfo *info = findStage(config.stage.key());
        info && info->isCustom && info->params.size() >= 2 &&
        m_stage->findData(QString::fromStdString(info->key)) < 0) {
        m_stage->addItem(customStageListText(*info), QString::fromStdString(info->key));
        m_stage->setItemData(m_stage->count() - 1, QString::fromStdString(info->key), Qt::ToolTipRole);
    }
    m_base = config;
    m_hasBase = true;
    if (const int index = m_stage->findData(QString::fromStdString(config.stage.str()));
        stageChanged && index >= 0)
        m_stage->setCurrentIndex(index);
    updateRestText();
}

void SweepView::updateRestText()
{
    // The configured values apply only to the configured stage (spec()); another stage keeps its
    // defaults. The values are named: the parameter panel is hidden in this workspace, so that the
    // form is the one place a sweep is set up.
    const std::string formStage = m_stage->currentData().toString().toStdString();
    const bool configured = m_base.stage.str() == formStage;
    QStringList fixed;
    if (configured)
        for (const auto &[name, value] : m_base.params)
            if (QString::fromStdString(name) != m_x->currentText() &&
                QString::fromStdString(name) != m_y->currentText())
                fixed << QStringLiteral("%1=%2").arg(QString::fromStdString(name)).arg(value);
    m_rest->setItemText(0, !configured       ? tr("fixed (the stage's defaults)")
                           : fixed.isEmpty() ? tr("fixed (as configured)")
                                             : tr("fixed: %1").arg(fixed.join(QLatin1Char(' '))));
    // Where the form's stage, size and budget come from.
    const QString own = tr("Size and budget are the sweep's own: a short budget per parameter set keeps a "
                           "sweep of dozens of them short, where a single run's budget is for one careful "
                           "run.");
    m_origin->setText(configured
                          ? tr("The stage and the fixed values start as configured in the Kernel "
                               "workspace's parameter panel (Alt+0 shows it here too). %1")
                                .arg(own)
                          : tr("The stage is the shown sweep's or your choice here, not the configured "
                               "one (%1). %2")
                                .arg(stageTitleText(m_base.stage), own));
}

void SweepView::setSpec(const SweepSpec &spec)
{
    m_stage->setCurrentIndex(m_stage->findData(QString::fromStdString(spec.stage.str())));
    m_x->setCurrentText(QString::fromStdString(spec.x.param));
    m_y->setCurrentText(QString::fromStdString(spec.y.param));
    m_rest->setCurrentIndex(spec.rest == SweepRest::BestOverRest ? 1 : 0);
    m_size->setText(squareOrFullSizeText(spec.size));
    m_budget->setValue(spec.budgetMs);
    m_base.stage = spec.stage;
    m_base.params = spec.fixed;
    updateRestText();
}

SweepSpec SweepView::spec() const
{
    SweepSpec spec;
    spec.stage = StageId(m_stage->currentData().toString().toStdString());
    spec.x.param = m_x->currentText().toStdString();
    spec.y.param = m_y->currentText().toStdString();
    spec.rest = m_rest->currentIndex() == 1 ? SweepRest::BestOverRest : SweepRest::Fixed;
    if (spec.rest == SweepRest::Fixed && m_base.stage == spec.stage)
        for (const auto &[name, value] : m_base.params)
            if (name != spec.x.param && name != spec.y.param)
                spec.fixed[name] = value;
    if (const auto size = parseSizeFieldText(m_size->text()))
        spec.size = *size;
    spec.budgetMs = m_budget->value();
    return spec;
}

std::optional<SweepSpec> SweepView::formSpec(QString *error) const
{
    if (!parseSizeFieldText(m_size->text())) {
        *error = sizeFieldFormatText();
        return std::nullopt;
    }
    return spec();
}

bool SweepView::showRatio() const
{
    return m_metric->currentIndex() == 1;
}

void SweepView::setShowRatio(bool ratio)
{
    m_metric->setCurrentIndex(ratio ? 1 : 0);
}

void SweepView::setForm(const SweepData &sweep)
{
    const QSignalBlocker block(m_stage);
    m_stage->setCurrentIndex(m_stage->findData(QString::fromStdString(sweep.spec.stage.str())));
    stageChanged();
    m_x->setCurrentText(QString::fromStdString(sweep.spec.x.param));
    m_y->setCurrentText(QString::fromStdString(sweep.spec.y.param));
    m_rest->setCurrentIndex(sweep.spec.rest == SweepRest::BestOverRest ? 1 : 0);
    m_size->setText(squareOrFullSizeText(sweep.spec.size));
    m_budget->setValue(sweep.spec.budgetMs);
    updateRestText(); // the stage changed under the blocker
}

QString SweepView::bestText() const
{
    if (m_summary.bestCell < 0)
        return {};
    const SweepCellSummary &b = m_summary.cells[m_summary.bestCell];
    return tr("Best: %1 — %2 TFLOP/s, %3 ms%4, on %5")
        .arg(formatRunParams(*b.best))
        .arg(b.best->tflops, 0, 'f', 2)
        .arg(b.best->medianMs, 0, 'f', 3)
        // Which cuBLAS: the sweep's own run at its size on that GPU, whose time may differ from a
        // Ladder session's cuBLAS run (another size, another moment): its time said beside it.
        .arg(b.pctOfCublas ? tr(" (%1 % of this sweep's cuBLAS FP32 run on that GPU, %2 ms)")
                                 .arg(*b.pctOfCublas, 0, 'f', 1)
                                 .arg(b.best->medianMs * *b.pctOfCublas / 100, 0, 'f', 3)
                           : QString())
        .arg(gpuOnMachineText(b.best->gpuName, b.best->host));
}

void SweepView::redraw()
{
    m_plot->clearItems();
    m_cellLabels.clear();
    m_title = nullptr;
    if (!shownSweep())
        m_loaded->setVisible(false); // it spoke of a sweep no longer shown
    if (!shownSweep() || !plan().ok()) {
        // Text in the chart's place: an empty colour map with 0-5 axes would look like data.
        m_summary = {};
        m_map->data()->setSize(1, 1);
        m_empty->setText(emptyText());
        offerRecordedSweeps(m_empty);
        m_canvas->setCurrentWidget(m_empty);
        m_best->clear();
        m_best->setVisible(false);
        m_legend->setVisible(false); // the marks of a heatmap not drawn said nothing
        return;
    }
    m_canvas->setCurrentWidget(m_plot);
    m_best->setVisible(true);
    m_legend->setText(compactMarksText(plan().spec.rest == SweepRest::BestOverRest));
    m_legend->setVisible(true);
    const bool ratio = showRatio();
    m_summary = summarizeSweep(plan(), shownSweep()->runs, ratio);
    const int nx = int(plan().xValues.size()), ny = int(plan().yValues.size());
    m_map->data()->setSize(nx, ny);
    m_map->data()->setRange(QCPRange(0, nx - 1), QCPRange(0, ny - 1));
    double lo = 1e300, hi = -1e300;
    for (const SweepCellSummary &c : m_summary.cells) {
        if (!c.best)
            continue;
        const double v = ratio ? c.pctOfCublas.value_or(0) : c.best->tflops;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (lo > hi)
        lo = 0, hi = 1;
    if (hi - lo < 1e-9)
        lo = hi - 1;
    for (const SweepCellSummary &c : m_summary.cells) {
        const SweepCell &cell = plan().cells[std::size_t(c.cell)];
        const double v = c.best ? (ratio ? c.pctOfCublas.value_or(0) : c.best->tflops) : lo;
        m_map->data()->setCell(cell.xIndex, cell.yIndex, v);
        if (!c.best) { // invalid, not run, or failed: a grey cell over the colour (hatched: refused)
            const QColor fill = c.invalid()          ? QColor(0xe4, 0xe4, 0xe4)
                                : c.wrongResults > 0 ? wrongResultColor().lighter(150)
                                                     : QColor(0xf2, 0xf2, 0xf2);
            for (const QBrush &brush :
                 {QBrush(fill),
                  c.invalid() ? QBrush(QColor(0x99, 0x99, 0x99), Qt::BDiagPattern) : QBrush(Qt::NoBrush)}) {
                auto *rect = new QCPItemRect(m_plot);
                rect->topLeft->setCoords(cell.xIndex - 0.5, cell.yIndex + 0.5);
                rect->bottomRight->setCoords(cell.xIndex + 0.5, cell.yIndex - 0.5);
                rect->setPen(QPen(QColor(0xbb, 0xbb, 0xbb)));
                rect->setBrush(brush);
                rect->setSelectable(false);
            }
        }
        QStringList marks;
        QString value, params;
        if (c.best) {
            if (plan().spec.rest == SweepRest::BestOverRest) { // which of the rest won the cell
                ParamValues others = paramValuesOf(*c.best);
                others.erase(plan().spec.x.param);
                others.erase(plan().spec.y.param);
                params = QString::fromStdString(formatParams(others));
            }
            value = ratio ? (c.pctOfCublas ? QString::number(*c.pctOfCublas, 'f', 0) + QLatin1Char('%')
                                           : QStringLiteral("?"))
                          : QString::number(c.best->tflops, 'f', 1);
            if (c.spills())
                marks << QStringLiteral("s");
            if (c.best->occupancyLimiter)
                marks << limiterWords(c.best->occupancyLimiter, LimiterWording::Short);
        }
        if (c.wrongResults > 0)
            marks << QStringLiteral("✗");
        else if (!c.best && c.failures > 0)
            value = tr("failed"); // out of resources, a launch error...: hover for the sentence
        if (c.cell == m_summary.bestCell)
            value = QStringLiteral("★") + value;
        const SweepCellText text = c.invalid() ? SweepCellText{QStringLiteral("—"), {}, {}}
                                               : SweepCellText{value, params, marks.join(QLatin1Char(' '))};
        if (text.value.isEmpty() && text.marks.isEmpty())
            continue;
        auto *label = new QCPItemText(m_plot);
        label->position->setCoords(cell.xIndex, cell.yIndex);
        label->setFont(QFont(font().family(), 8));
        label->setText(fitCellText(text, QFontMetrics(label->font()), QSizeF()).text); // fitted at replot
        m_cellLabels.append({c.cell, label, text});
        label->setColor(c.best && v > lo + 0.6 * (hi - lo) ? Qt::black
                                                           : (c.best ? Qt::white : QColor(0x55, 0x55, 0x55)));
        label->setSelectable(false);
        label->setClipToAxisRect(true);
    }
    m_map->setDataRange(QCPRange(lo, hi));
    m_scale->axis()->setLabel(ratio ? tr("% of cuBLAS FP32 (same GPU)") : tr("TFLOP/s"));
    auto ticks = [](const std::vector<int> &values) {
        QSharedPointer<QCPAxisTickerText> t(new QCPAxisTickerText);
        for (std::size_t i = 0; i < values.size(); ++i)
            t->addTick(double(i), QString::number(values[i]));
        return t;
    };
    m_plot->xAxis->setTicker(ticks(plan().xValues));
    m_plot->yAxis->setTicker(ticks(plan().yValues));
    m_plot->xAxis->setLabel(QString::fromStdString(plan().spec.x.param));
    m_plot->yAxis->setLabel(QString::fromStdString(plan().spec.y.param));
    m_plot->xAxis->setRange(-0.5, nx - 0.5);
    m_plot->yAxis->setRange(-0.5, ny - 0.5);
    const QString rest = plan().spec.rest == SweepRest::BestOverRest
                             ? bestOverText()
                             : QString::fromStdString(
                                   formatParams(planSweep(plan().spec).points.empty() ? ParamValues{} : [&] {
                                       ParamValues p = plan().points.front().params;
                                       p.erase(plan().spec.x.param);
                                       p.erase(plan().spec.y.param);
                                       return p;
                                   }()));
    m_restText = rest;
    if (const QString title = titleText(); !title.isEmpty()) {
        // Over the grid, in the axis rect's top margin (capCellSize wraps it and makes the room).
        m_title = new QCPItemText(m_plot);
        m_title->setClipToAxisRect(false);
        m_title->position->setType(QCPItemPosition::ptAxisRectRatio);
        m_title->position->setCoords(0.5, 0);
        m_title->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        m_title->setTextAlignment(Qt::AlignHCenter);
        m_title->setPadding(QMargins(0, 0, 0, 4));
        m_title->setFont(QFont(font().family(), 9));
        m_title->setColor(QColor(0x33, 0x33, 0x33));
        m_title->setSelectable(false);
        m_title->setText(title);
    }
    m_best->setText(summaryText());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString SweepView::summaryText() const
{
    if (!shownSweep())
        return {};
    const QString provenance = sweepProvenance(shownSweep()->runs);
    return QStringLiteral("%1 (%2) — %3 of %4 parameter sets answered%5.\n%6")
        .arg(shownSweep()->title(), m_restText)
        .arg(m_summary.answeredPoints)
        .arg(m_summary.validPoints)
        .arg(provenance.isEmpty() ? QString() : QStringLiteral(", ") + provenance)
        .arg(bestText());
}

bool SweepView::showsHeatmap() const
{
    return m_canvas->currentWidget() == m_plot;
}

QString SweepView::emptyText() const
{
    if (shownSweep() && !plan().ok())
        return tr("This sweep cannot be drawn: %1").arg(QString::fromStdString(plan().error));
    return tr("No sweep to show yet.\n\n"
              "A parameter sweep times every parameter set of two of a stage's parameters (BM × BN, say) at "
              "one problem size and draws TFLOP/s as a heatmap: which tile shapes are fast on this GPU, "
              "which spill registers, which the stage's rules refuse.\n\n"
              "To run one: choose a stage and its two parameters on the left, then Start (it "
              "needs gemmscope-runner and an NVIDIA GPU: this machine's, or another that the Runners field "
              "reaches).\n\n"
              "%1")
        .arg(recordedSweepHint(tr("parameter sweep")));
}

QString SweepView::cellTooltip(const SweepCellSummary &c) const
{
    const QString where = QStringLiteral("%1 = %2, %3 = %4")
                              .arg(QString::fromStdString(plan().spec.x.param))
                              .arg(c.x)
                              .arg(QString::fromStdString(plan().spec.y.param))
                              .arg(c.y);
    if (c.invalid())
        return where + QStringLiteral("\n") +
               tr("Refused by the stage's rules, never run: %1").arg(c.invalidReason);
    QStringList lines{where};
    if (c.best) {
        const RunRecord &b = *c.best;
        lines << formatRunParams(b);
        lines << tr("%1 TFLOP/s, median %2 ms (p20 %3, p80 %4, %5 repetitions)")
                     .arg(b.tflops, 0, 'f', 2)
                     .arg(b.medianMs, 0, 'f', 4)
                     .arg(b.p20Ms, 0, 'f', 4)
                     .arg(b.p80Ms, 0, 'f', 4)
                     .arg(b.count);
        if (c.pctOfCublas)
            lines << tr("%1 % of cuBLAS FP32 on the same GPU").arg(*c.pctOfCublas, 0, 'f', 1);
        lines << tr("%1 registers, %2 bytes spilled, occupancy %3 % limited by %4")
                     .arg(b.registers)
                     .arg(b.spillStoreBytes + b.spillLoadBytes)
                     .arg(b.occupancy >= 0 ? QString::number(100 * b.occupancy, 'f', 0) : QStringLiteral("?"))
                     .arg(b.occupancyLimiter ? limiterWords(b.occupancyLimiter) : tr("?"));
        lines << tr("on %1 %2").arg(b.host, b.gpuName);
    }
    if (c.wrongResults > 0)
        lines << tr("%1 parameter set(s) gave a wrong result").arg(c.wrongResults);
    if (!c.best && !c.failureKind.isEmpty())
        lines << tr("Failed (%1): %2").arg(c.failureKind, c.failureMessage);
    if (c.answeredPoints < c.validPoints)
        lines << tr("%1 of %2 parameter sets answered").arg(c.answeredPoints).arg(c.validPoints);
    return lines.join(QLatin1Char('\n'));
}

std::pair<int, QString> SweepView::cellAt(const QPointF &pixel) const
{
    if (!shownSweep() || !plan().ok() || !m_plot->axisRect()->rect().contains(pixel.toPoint()))
        return {-1, {}};
    const int xi = int(std::lround(m_plot->xAxis->pixelToCoord(pixel.x())));
    const int yi = int(std::lround(m_plot->yAxis->pixelToCoord(pixel.y())));
    const SweepCell *cell = plan().cellAt(xi, yi);
    if (!cell)
        return {-1, {}};
    const int index = int(cell - plan().cells.data());
    return {index, cellTooltip(m_summary.cells[index])};
}

QPointF SweepView::cellCenter(int cell) const
{
    const SweepCell &c = plan().cells[std::size_t(cell)];
    return {m_plot->xAxis->coordToPixel(c.xIndex), m_plot->yAxis->coordToPixel(c.yIndex)};
}

void SweepView::clickCell(int index)
{
    if (!shownSweep() || index < 0 || index >= m_summary.cells.size())
        return;
    const SweepCellSummary &c = m_summary.cells[index];
    RunConfig config;
    config.stage = plan().spec.stage;
    config.size = plan().spec.size;
    config.timing.budgetMs = plan().spec.budgetMs;
    // The best configuration of the cell, or (refused, not run) its first one: the views then say why.
    config.params = c.best
                        ? paramValuesOf(*c.best)
                        : plan().points[std::size_t(plan().cells[std::size_t(index)].points.front())].params;
    const RunConfig before = m_base; // the panel's, until the click replaces it
    emit configurationChosen(config);
    // Never silently: the line says what was loaded, the sweep's size and budget included, and
    // what of the panel's they replaced.
    QStringList replaced;
    if (!(before.size.m == config.size.m && before.size.n == config.size.n && before.size.k == config.size.k))
        replaced << tr("size %1").arg(squareOrFullSizeText(before.size));
    if (before.timing.budgetMs != config.timing.budgetMs)
        replaced << tr("budget %1 ms").arg(before.timing.budgetMs);
    QString text =
        tr("Loaded %1 %2 at %3, budget %4 ms, from the sweep")
            .arg(QString::fromStdString(config.stage.str()),
                 QString::fromStdString(formatParams(config.params)), squareOrFullSizeText(config.size))
            .arg(config.timing.budgetMs);
    if (c.best)
        text += tr(" (%1 TFLOP/s there)").arg(c.best->tflops, 0, 'f', 2);
    else if (c.invalid())
        text += tr(" (refused by the stage's rules: the other views say why)");
    else
        text += tr(" (not measured in this sweep)");
    if (!replaced.isEmpty())
        text += tr("; the panel had %1.").arg(replaced.join(tr(" and ")));
    else
        text += QLatin1Char('.');
    m_loaded->setText(text);
    m_loaded->setVisible(true);
}

QString SweepView::loadedText() const
{
    return m_loaded->isVisible() ? m_loaded->text() : QString();
}

QString SweepView::printTitle() const
{
    if (!shownSweep())
        return {};
    return tr("Sweep: %1, %2 × %3 at %4 (%5) — %6")
        .arg(QString::fromStdString(stageInfo(plan().spec.stage).title),
             QString::fromStdString(plan().spec.x.param), QString::fromStdString(plan().spec.y.param),
             squareOrFullSizeText(plan().spec.size))
        .arg(m_restText, showRatio() ? tr("% of cuBLAS FP32 on the same GPU") : tr("TFLOP/s"));
}

std::optional<QString> SweepView::exportTo(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (!shownSweep() || !plan().ok())
        return tr("There is no sweep to export: %1 shows none yet (choose one in its list, or run one).")
            .arg(viewName());
    if (suffix == QLatin1String("csv") || suffix == QLatin1String("json")) {
        const QByteArray bytes = suffix == QLatin1String("csv")
                                     ? sweepCellsCsv(plan(), m_summary).toUtf8()
                                     : QJsonDocument(sweepCellsJson(plan(), m_summary)).toJson();
        if (const FileWrite written = writeFileAtomically(path, bytes); !written)
            return written.error; // the file is replaced whole or left as it was
        return std::nullopt;
    }
    // The print layout: title, heatmap with its colour scale, then what the marks mean and the
    // summary (where and when it was measured, the best cell).
    return exportSweepPlot(m_plot, path, printTitle(),
                           marksText(plan().spec.rest == SweepRest::BestOverRest) + QLatin1Char('\n') +
                               summaryText());
}

} // namespace gemmscope
