#include "sweep_view_base.h"

#include "empty_state.h"
#include "session.h"
#include "sweep_control.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QElapsedTimer>
#include <QPushButton>
#include <QTimer>

namespace gemmscope {

SweepViewBase::SweepViewBase(SweepControl *control, const SweepRunPanel::Words &words,
                             RunControls runControls, QWidget *parent)
    : QWidget(parent), m_control(control), m_runControls(runControls)
{
    m_page = makeSweepPage(this);
    m_panel = std::make_unique<SweepRunPanel>(control, words, this);
    m_showTimer = new QTimer(this);
    m_showTimer->setSingleShot(true);
    m_showTimer->setInterval(kShowIntervalMs);
    connect(m_showTimer, &QTimer::timeout, this, &SweepViewBase::showRunning);
}

SweepViewBase::~SweepViewBase()
{
    if (m_control) // the window's: it may outlive the view
        m_control->disconnect(this);
    m_panel.reset(); // lets go of the control before its widgets go with this view's children
}

void SweepViewBase::follow()
{
    const auto report = [this](bool (SweepViewBase::*command)(QString *)) {
        return [this, command] {
            QString error;
            if (!(this->*command)(&error))
                m_panel->setStatus(error);
        };
    };
    connect(m_panel.get(), &SweepRunPanel::startClicked, this, report(&SweepViewBase::start));
    connect(m_panel.get(), &SweepRunPanel::resumeClicked, this, report(&SweepViewBase::resume));
    connect(m_panel.get(), &SweepRunPanel::sweepChosen, this, [this](const QString &id) {
        if (const Session *session = m_control->session())
            for (const SweepData &s : session->sweeps())
                if (s.id == id)
                    showSweep(s);
    });
    connect(m_control.data(), &SweepControl::runningSweepChanged, this, [this] {
        if (!m_showTimer->isActive())
            m_showTimer->start();
    });
    connect(m_control.data(), &SweepControl::runningChanged, this, [this](bool running) {
        if (const SweepData *sweep = m_control->runningSweep(); running && sweep)
            showRunningSweep(*sweep);
        emit sweepStateChanged(running);
    });
    connect(m_control.data(), &SweepControl::sweepEnded, this, [this](const SweepData &sweep) {
        m_showTimer->stop(); // the finished sweep is shown now: its last runs, not all again
        if (!showMoreRuns(sweep, RunsAppended::Check))
            showSweep(sweep);
    });
    if (Session *session = m_control->session())
        connect(session, &Session::sweepsChanged, this, &SweepViewBase::refreshSweepList);
    refreshSweepList();
    if (!m_shown)
        redrawAndUpdateExport(); // the empty state
}

void SweepViewBase::redrawAndUpdateExport()
{
    redraw();
    m_panel->setExportEnabled(m_shown && m_plan.ok(),
                              sessionHasSweeps()
                                  ? tr("Nothing to export yet: no sweep is shown (choose one in the Shown "
                                       "list, or run one).")
                                  : tr("Nothing to export yet: this session holds no sweep (add the embedded "
                                       "example's sweeps, or run one)."));
}

bool SweepViewBase::sessionHasSweeps() const
{
    return m_panel->sweepList()->count() > 0;
}

QString SweepViewBase::recordedSweepHint(const QString &what) const
{
    if (sessionHasSweeps())
        return tr("To look at a recorded one: choose it in the Shown list above.");
    return tr("To look at a recorded one: this session holds no %1. GemmScope ships one measured on "
              "an NVIDIA H200, with a sweep of the other kind: a button below adds both to this "
              "session, whose runs stay as they are.")
        .arg(what);
}

void SweepViewBase::offerRecordedSweeps(EmptyState *empty)
{
    empty->setOffer(sessionHasSweeps() ? QString() : tr("Add the embedded example's sweeps"),
                    tr("Adds the parameter sweep and the size sweep measured on an NVIDIA H200 (from "
                       "the session GemmScope ships) to this session; its runs stay as they are."));
    connect(empty, &EmptyState::offerTaken, this, &SweepViewBase::recordedSweepsRequested,
            Qt::UniqueConnection);
    if (empty->findChild<QPushButton *>(QStringLiteral("emptyStateOpen")))
        return; // added when it was first shown
    // The ways to look at a sweep as buttons, each beside what it does: File > Open for a sweep
    // file, and GemmScope's recorded ones. Not Start: the form's own Start sits beside this pane,
    // and a second one read as another thing.
    QPushButton *open = empty->addStep(tr("Open Sweep File…"),
                                       tr("A sweep saved by gemmscope-bench --sweep --json or exported from "
                                          "this view, or a session that holds sweeps: File > Open"),
                                       QKeySequence(QKeySequence::Open));
    open->setObjectName(QStringLiteral("emptyStateOpen"));
    connect(open, &QPushButton::clicked, this, &SweepViewBase::openFileRequested);
    empty->addStep(empty->offerButton(),
                   tr("GemmScope's parameter sweep and size sweep measured on an NVIDIA H200, added to "
                      "this session; its runs stay as they are."));
}

void SweepViewBase::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    m_page.arrange(size());
}

void SweepViewBase::setJournalDirectory(const QString &dir)
{
    m_control->setJournalDirectory(dir);
}

QString SweepViewBase::journalDirectory() const
{
    return m_control->journalDirectory();
}

void SweepViewBase::setRunnerTemplate(const QString &text, int count)
{
    m_panel->setRunnerTemplate(text, count);
}

void SweepViewBase::setRunningOff(const QString &why)
{
    m_panel->setRunningOff(why); // first: the control's startOffChanged redraws the panel
    m_control->setRunningOff(why);
}

QString SweepViewBase::startOffReason() const
{
    return m_control->startOffReason();
}

bool SweepViewBase::start(QString *error)
{
    QString sink;
    QString &why = error ? *error : sink;
    if (const QString off = m_control->startOffReason(); !off.isEmpty()) {
        why = off; // before the form's own complaints: they would not help
        return false;
    }
    const std::optional<SweepSpec> spec = formSpec(&why);
    return spec && m_control->start(*spec, &why);
}

bool SweepViewBase::resume(QString *error)
{
    return m_control->resume(m_shown ? &*m_shown : nullptr, error);
}

void SweepViewBase::cancel()
{
    m_control->cancel();
}

bool SweepViewBase::isRunning() const
{
    return m_control->isRunning();
}

QString SweepViewBase::statusText() const
{
    return m_panel->statusText();
}

void SweepViewBase::refreshSweepList()
{
    QComboBox *list = m_panel->sweepList();
    list->clear();
    const SweepData *last = nullptr, *same = nullptr; // the other kind has its own view
    if (const Session *session = m_control->session())
        for (const SweepData &s : session->sweeps())
            if (s.spec.kind == m_control->kind()) {
                const QString title = listTitle(s);
                list->addItem(title, s.id);
                // A stage's name makes a long title: whole in the item's tooltip and the popup.
                list->setItemData(list->count() - 1, title, Qt::ToolTipRole);
                last = &s;
                if (m_shown && s.id == m_shown->id)
                    same = &s;
            }
    if (m_shown && (isRunning() || (same && same->runs.size() == m_shown->runs.size()))) {
        list->setCurrentIndex(list->findData(m_shown->id));
    } else if (same) { // it ran on (its last answers, a journal read back): show its runs
        if (!showMoreRuns(*same, RunsAppended::Check))
            showSweep(*same);
    } else if (last) { // first open, or another session: its latest sweep
        showSweep(*last);
    } else if (m_shown) { // the session that held it was replaced by one without sweeps of this kind
        m_shown.reset();
        m_plan = {};
        redrawAndUpdateExport();
    } else if (!m_shown) { // still none: the empty state's words follow the Shown list
        redrawAndUpdateExport();
    }
    list->view()->setMinimumWidth(list->view()->sizeHintForColumn(0) + 2 * list->view()->frameWidth());
}

void SweepViewBase::showSweep(const SweepData &sweep)
{
    if (!m_shown || m_shown->id != sweep.id || !(m_shown->spec == sweep.spec))
        m_plan = planSweep(sweep.spec);
    m_shown = sweep;
    showChosen();
    redrawAndUpdateExport();
}

void SweepViewBase::showChosen()
{
    if (!isRunning())
        setForm(*m_shown);
    QComboBox *list = m_panel->sweepList();
    if (const int index = list->findData(m_shown->id); index >= 0)
        list->setCurrentIndex(index);
}

bool SweepViewBase::showMoreRuns(const SweepData &sweep, RunsAppended appended)
{
    if (!m_shown || m_shown->id != sweep.id || m_shown->runs.size() > sweep.runs.size())
        return false;
    const qsizetype drawn = m_shown->runs.size();
    if (appended == RunsAppended::Check) { // a comparison of ids, far cheaper than drawing them all
        if (!(m_shown->spec == sweep.spec))
            return false;
        for (qsizetype i = 0; i < drawn; ++i)
            if (m_shown->runs.at(i).runId != sweep.runs.at(i).runId)
                return false;
    }
    for (qsizetype i = drawn; i < sweep.runs.size(); ++i)
        m_shown->runs.append(sweep.runs.at(i));
    if (appended == RunsAppended::Check)
        showChosen(); // ended, or found in the session: the form and the list say which it is
    if (!showAnswered(int(drawn)))
        redrawAndUpdateExport();
    return true;
}

QString SweepViewBase::listTitle(const SweepData &sweep) const
{
    return sweep.title();
}

bool SweepViewBase::showAnswered(int)
{
    return false;
}

void SweepViewBase::showRunningSweep(const SweepData &sweep)
{
    showSweep(sweep);
    // Its runs apart from the running sweep's: each list then takes the new runs one by one (while
    // they share one, the next run appended to either would copy every run the sweep has).
    m_shown->runs.detach();
}

void SweepViewBase::showRunning()
{
    const SweepData *sweep = m_control->runningSweep();
    if (!sweep)
        return;
    QElapsedTimer took;
    took.start();
    // A running sweep only appends runs: the new ones are those past the shown.
    if (!showMoreRuns(*sweep, RunsAppended::Known))
        showRunningSweep(*sweep); // another sweep than the one shown: whole
    // A large sweep takes longer to draw: wait four times that long before the next redraw, so
    // that drawing never takes more than a fifth of the UI thread.
    m_showTimer->setInterval(std::max<int>(kShowIntervalMs, int(4 * took.elapsed())));
}

} // namespace gemmscope
