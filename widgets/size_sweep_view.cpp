#include "size_sweep_view.h"

#include "file_write.h"
#include "plot_export.h"
#include "runner_command.h"
#include "runner_locator.h"
#include "session.h"
#include "size_sweep_chart.h"
#include "sweep_journals.h"
#include "sweep_run.h"
#include "sweep_run_controls.h"
#include "sweep_summary.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace gemmscope {

SizeSweepView::SizeSweepView(Session *session, QWidget *parent) : QWidget(parent), m_session(session)
{
    m_journalDir =
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/sweeps");
    buildForm();
    if (m_session)
        connect(m_session, &Session::sweepsChanged, this, &SizeSweepView::refreshSweepList);
    setJournalDirectory(m_journalDir);
    updateStartState();
    if (!m_shown)
        redraw();
}

void SizeSweepView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    m_page.arrange(size());
    // Beside the chart the list of series can show a third of the presets' rows at once.
    const bool sideBySide = width() >= SweepPage::kSideBySideMinWidth;
    m_seriesList->setMinimumHeight(sideBySide ? std::min(300, height() / 3) : 60);
    m_seriesList->setMaximumHeight(sideBySide ? 300 : 110);
}

SizeSweepView::~SizeSweepView() = default; // the SweepRun stops its runners; its runs are journaled

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
    m_runners = new QLineEdit(QStringLiteral("{runner}"));
    m_runners->setObjectName(QStringLiteral("sizeSweepRunnerTemplate"));
    m_runners->setToolTip(tr("How each runner is started, as for a parameter sweep (docs/sweeps.md)."));
    m_runnerCountBox = new QSpinBox;
    m_runnerCountBox->setRange(1, 64);
    m_runnerCountBox->setPrefix(QStringLiteral("× "));
    m_controls = std::make_unique<SweepRunControls>(
        m_session,
        SweepRunControls::Words{QStringLiteral("sizeSweep"), tr("runs"),
                                tr("Running %1 sizes × stages on %2 runner(s)…"),
                                tr("Stopped after %1 s: %2 runs not done yet (Resume continues)."),
                                tr("Run the shown sweep's unfinished sizes")},
        this, [this](const SweepData &sweep) { showSweep(sweep); });
    m_sweeps = m_controls->sweepList();
    m_status = m_controls->status();
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
    auto *runnerRow = new QHBoxLayout;
    runnerRow->addWidget(m_runners, 1);
    runnerRow->addWidget(m_runnerCountBox);
    right->addRow(tr("Budget"), m_budget);
    right->addRow(tr("Runners"), runnerRow);
    m_page = makeSweepPage(this);
    m_page.sideLayout->addWidget(new QLabel(tr("Series")));
    m_page.sideLayout->addWidget(m_seriesList);
    m_page.sideLayout->addLayout(right);
    m_controls->addTo(m_page.sideLayout);
    m_page.sideLayout->addStretch(1); // spare height below the controls, not between them
    m_page.mainLayout->addWidget(m_chart, 1);

    m_controls->setActions([this](QString *error) { return start(error); },
                           [this](QString *error) { return resume(error); });
    m_controls->setExport(tr("Export size sweep"),
                          exportFileFilter() + QStringLiteral(";;CSV points (*.csv);;JSON points (*.json)"),
                          [this](const QString &path) { return exportTo(path); });
    connect(m_controls.get(), &SweepRunControls::runningChanged, this, &SizeSweepView::sweepStateChanged);
    connect(m_runners, &QLineEdit::textChanged, this, &SizeSweepView::updateStartState);
}

void SizeSweepView::setRunningOff(const QString &why)
{
    m_runningOff = why;
    updateStartState();
}

QString SizeSweepView::startOffReason() const
{
    return m_controls->startBlockedReason();
}

void SizeSweepView::updateStartState()
{
    m_controls->setStartBlocked(SweepRunControls::startOffReason(m_runners->text(), m_runningOff));
}

void SizeSweepView::setJournalDirectory(const QString &dir)
{
    m_journalDir = dir;
    if (!m_session)
        return;
    // Sweeps a crash left unfinished (the GUI killed before its autosave): offered for Resume.
    // The folder is read once, off this thread.
    SweepJournalFolder::of(dir)->whenScanned(this, [this, dir](const JournalFolderScan &found) {
        if (m_journalDir != dir)
            return; // another folder was chosen meanwhile
        const JournalScan scan = applyJournalScan(*m_session, found);
        refreshSweepList();
        int mine = 0;
        for (const SweepData &s : m_session->sweeps())
            mine += s.spec.kind == SweepKind::Sizes && scan.unfinished.contains(s.id);
        if (mine > 0)
            m_status->setText(tr("%n unfinished size sweep(s) found in %1 (the Shown list): Resume "
                                 "continues the shown one.",
                                 nullptr, mine)
                                  .arg(dir));
    });
}

void SizeSweepView::setRunnerTemplate(const QString &text, int count)
{
    m_runners->setText(text);
    m_runnerCountBox->setValue(count);
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

bool SizeSweepView::start(QString *error)
{
    if (const QString off = startOffReason(); !off.isEmpty()) {
        if (error)
            *error = off;
        return false;
    }
    SweepData sweep;
    sweep.id = newSweepId();
    sweep.spec = spec();
    sweep.created = QDateTime::currentDateTimeUtc();
    const SweepPlan plan = planSweep(sweep.spec);
    if (!plan.ok()) {
        if (error)
            *error = QString::fromStdString(plan.error);
        return false;
    }
    return launch(sweep, error);
}

bool SizeSweepView::resume(QString *error)
{
    if (const QString off = startOffReason(); !off.isEmpty()) {
        if (error)
            *error = off;
        return false;
    }
    if (!m_shown) {
        if (error)
            *error = tr("No size sweep is shown to resume.");
        return false;
    }
    const SweepData sweep = SweepRunControls::withJournaledRuns(
        *m_shown, SweepJournalFolder::of(m_journalDir)->journalPathFor(*m_shown));
    if (unfinishedPoints(planSweep(sweep.spec), sweep.runs).isEmpty()) {
        if (error)
            *error = tr("Every size of this sweep has finished; nothing to resume.");
        return false;
    }
    return launch(sweep, error);
}

bool SizeSweepView::launch(SweepData sweep, QString *error)
{
    if (isRunning()) {
        if (error)
            *error = tr("A size sweep is already running.");
        return false;
    }
    const RunnerLocation location = locateRunner();
    const auto commands = runnerCommandsPerGpu(m_runners->text(), m_runnerCountBox->value(),
                                               location.found() ? location.path : QString(), error);
    if (!commands)
        return false;
    SweepRun::Options options;
    options.runners = *commands;
    options.journalPath = SweepJournalFolder::of(m_journalDir)->journalPathFor(sweep); // never from its id
    options.archiveDirectory = SweepJournalFolder::of(m_journalDir)->archiveDirectory();
    return m_controls->launch(sweep, options, error);
}

void SizeSweepView::cancel()
{
    m_controls->cancel();
}

bool SizeSweepView::isRunning() const
{
    return m_controls->isRunning();
}

void SizeSweepView::refreshSweepList()
{
    m_sweeps->clear();
    const SweepData *last = nullptr, *same = nullptr;
    if (m_session)
        for (const SweepData &s : m_session->sweeps())
            if (s.spec.kind == SweepKind::Sizes) {
                m_sweeps->addItem(s.title(), s.id);
                last = &s;
                if (m_shown && s.id == m_shown->id)
                    same = &s;
            }
    if (m_shown && (isRunning() || (same && same->runs.size() == m_shown->runs.size()))) {
        m_sweeps->setCurrentIndex(m_sweeps->findData(m_shown->id));
    } else if (same) { // it ran on elsewhere (a journal read back): show its runs
        showSweep(*same);
    } else if (last) { // first open, or another session: its latest size sweep
        showSweep(*last);
    } else if (m_shown) { // the session that held it was replaced by one without size sweeps
        m_shown.reset();
        m_plan = {};
        redraw();
    }
}

void SizeSweepView::showSweep(const SweepData &sweep)
{
    if (!m_shown || m_shown->id != sweep.id || !(m_shown->spec == sweep.spec))
        m_plan = planSweep(sweep.spec);
    m_shown = sweep;
    if (!isRunning()) { // the form says what the shown sweep is (Start then repeats it)
        QStringList keys;
        for (const SizeSeries &s : sweep.spec.series)
            keys << QString::fromStdString(s.label);
        setSeries(keys);
        m_budget->setValue(sweep.spec.budgetMs);
    }
    const int index = m_sweeps->findData(sweep.id);
    if (index >= 0)
        m_sweeps->setCurrentIndex(index);
    redraw();
}

void SizeSweepView::redraw()
{
    if (!m_shown || !m_plan.ok()) {
        m_summary = {};
        m_chart->clear(emptyText());
        return;
    }
    m_summary = summarizeSizeSweep(m_plan, m_shown->runs);
    m_chart->setData(m_plan, m_summary, sweepProvenance(m_shown->runs));
}

QString SizeSweepView::emptyText() const
{
    if (m_shown && !m_plan.ok())
        return tr("This size sweep cannot be drawn: %1").arg(QString::fromStdString(m_plan.error));
    return tr("No size sweep to show yet.\n\n"
              "A size sweep times chosen presets (and cuBLAS) at a range of problem sizes and plots TFLOP/s "
              "against size: where each kernel reaches its plateau, and the sizes where the last wave of "
              "thread blocks leaves most SMs idle (wave quantization).\n\n"
              "To run one: check the series and choose the sizes on the left, then Start (it needs "
              "gemmscope-runner and an NVIDIA GPU, here or reached by the runner template).\n\n"
              "To look at a recorded one: choose it in the Shown list, or open a session that "
              "holds size sweeps (File > Open). The default session carries one measured on an H200.");
}

QString SizeSweepView::statusText() const
{
    return m_status->text();
}

std::optional<QString> SizeSweepView::exportTo(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (!m_shown || !m_plan.ok())
        return tr("There is no size sweep to export: %1 shows none yet (choose one in its list, or run one).")
            .arg(viewName());
    if (suffix == QLatin1String("csv") || suffix == QLatin1String("json")) {
        const QByteArray bytes = suffix == QLatin1String("csv")
                                     ? sizeSweepCsv(m_plan, m_summary).toUtf8()
                                     : QJsonDocument(sizeSweepJson(m_plan, m_summary)).toJson();
        if (const FileWrite written = writeFileAtomically(path, bytes); !written)
            return written.error; // the file is replaced whole or left as it was
        return std::nullopt;
    }
    const auto text = [](const ProblemSize &z) {
        return z.m == z.n && z.n == z.k ? QString::number(z.m) + QStringLiteral("³")
                                        : QStringLiteral("%1x%2x%3").arg(z.m).arg(z.n).arg(z.k);
    };
    const SweepSpec &spec = m_plan.spec;
    const int count = int(spec.series.size());
    QStringList names;
    for (int i = 0; i < std::min(count, 6); ++i)
        names << seriesLabel(m_plan, i);
    if (count > 6)
        names << tr("%L1 more").arg(count - 6);
    return m_chart->exportTo(
        path, tr("Problem sizes: TFLOP/s against size, %1 … %2 — %3")
                  .arg(text(spec.sizes.front()), text(spec.sizes.back()), names.join(QStringLiteral(", "))));
}

} // namespace gemmscope
