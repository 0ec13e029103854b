#include "sweep_run_controls.h"

#include "plain_text.h"
#include "runner_locator.h"
#include "session.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace gemmscope {

SweepRunControls::SweepRunControls(Session *session, const Words &words, QWidget *owner, Show show)
    : m_session(session), m_words(words), m_owner(owner), m_show(std::move(show))
{
    // Parentless until addTo() lays them out, as the views' own widgets are (the tab order follows).
    const QString &p = m_words.namePrefix;
    m_startButton = new QPushButton(tr("Start"));
    m_startButton->setObjectName(p + QStringLiteral("Start"));
    m_cancelButton = new QPushButton(tr("Cancel"));
    m_cancelButton->setObjectName(p + QStringLiteral("Cancel"));
    m_cancelButton->setEnabled(false);
    m_resumeButton = new QPushButton(tr("Resume"));
    m_resumeButton->setObjectName(p + QStringLiteral("Resume"));
    m_resumeButton->setToolTip(m_words.resumeTip);
    m_exportButton = new QPushButton(tr("Export…"));
    m_sweeps = new QComboBox;
    m_sweeps->setObjectName(p + QStringLiteral("List"));
    m_sweeps->setMinimumContentsLength(12);
    m_sweeps->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_sweeps->setToolTip(tr("The session's sweeps: choose one to show it (Resume continues the shown one)"));
    m_progress = new QProgressBar;
    m_progress->setObjectName(p + QStringLiteral("Progress"));
    m_progress->setVisible(false);
    m_status = new QLabel;
    m_status->setTextFormat(Qt::PlainText); // runner and journal errors: their text is data
    m_status->setObjectName(p + QStringLiteral("Status"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText); // runner messages and paths: data, never markup
    m_blockedLabel = new QLabel;
    m_blockedLabel->setObjectName(p + QStringLiteral("StartOff"));
    m_blockedLabel->setWordWrap(true);
    m_blockedLabel->setTextFormat(Qt::PlainText);
    m_blockedLabel->setVisible(false);

    m_showTimer = new QTimer(this);
    m_showTimer->setSingleShot(true);
    m_showTimer->setInterval(kShowIntervalMs);
    connect(m_showTimer, &QTimer::timeout, this, [this] {
        if (!m_run)
            return;
        QElapsedTimer took;
        took.start();
        m_show(m_run->sweep());
        // A large sweep takes longer to draw: wait four times that long before the next redraw,
        // so that drawing never takes more than a fifth of the UI thread.
        m_showTimer->setInterval(std::max<int>(kShowIntervalMs, int(4 * took.elapsed())));
    });
    connect(m_cancelButton, &QPushButton::clicked, this, &SweepRunControls::cancel);
    connect(m_sweeps, &QComboBox::activated, this, [this](int index) {
        const QString id = m_sweeps->itemData(index).toString();
        if (m_session)
            for (const SweepData &s : m_session->sweeps())
                if (s.id == id)
                    m_show(s);
    });
}

SweepRunControls::~SweepRunControls()
{
    if (m_run) // the SweepRun stops its runners; its runs are journaled
        m_run->disconnect(this);
}

void SweepRunControls::setActions(Action start, Action resume)
{
    auto wire = [this](QPushButton *button, Action action) {
        connect(button, &QPushButton::clicked, this, [this, action] {
            QString error;
            if (!action(&error))
                m_status->setText(error);
        });
    };
    wire(m_startButton, std::move(start));
    wire(m_resumeButton, std::move(resume));
}

void SweepRunControls::setExport(const QString &title, const QString &filter,
                                 std::function<std::optional<QString>(const QString &path)> exportTo)
{
    connect(m_exportButton, &QPushButton::clicked, this, [this, title, filter, exportTo] {
        const QString path = QFileDialog::getSaveFileName(m_owner, title, QString(), filter);
        if (path.isEmpty())
            return;
        if (const auto error = exportTo(path))
            m_status->setText(*error);
    });
}

void SweepRunControls::addTo(QVBoxLayout *layout)
{
    // The buttons in one row, the session's sweeps below: the controls sit in a narrow column
    // beside the chart (sweep_page_layout.h).
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_startButton);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_resumeButton);
    buttons->addWidget(m_exportButton);
    layout->addLayout(buttons);
    auto *list = new QHBoxLayout;
    auto *listLabel = new QLabel(tr("Shown"));
    listLabel->setBuddy(m_sweeps);
    list->addWidget(listLabel);
    list->addWidget(m_sweeps, 1);
    layout->addLayout(list);
    layout->addWidget(m_blockedLabel);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
}

bool SweepRunControls::launch(const SweepData &sweep, const SweepRun::Options &options, QString *error)
{
    m_run = std::make_unique<SweepRun>(sweep, options);
    connect(m_run.get(), &SweepRun::runAnswered, this, [this] {
        if (!m_run)
            return;
        if (m_session)
            m_session->setSweep(m_run->sweep());
        // The chart is drawn again at most every kShowIntervalMs (longer for a sweep that takes
        // long to draw), not once per answer: a redraw costs time linear in the sweep, so one per
        // answer would grow with its square.
        if (!m_showTimer->isActive())
            m_showTimer->start();
    });
    connect(m_run.get(), &SweepRun::finished, this, &SweepRunControls::onFinished);
    connect(m_run.get(), &SweepRun::journalError, m_status, &QLabel::setText);
    connect(m_run.get(), &SweepRun::runnerStatusChanged, this,
            [this](int runner, bool available, const QString &why) {
                if (!available)
                    m_status->setText(tr("Runner %1: %2").arg(runner + 1).arg(why));
            });
    connect(m_run.get(), &SweepRun::progressChanged, this, [this](int answered, int total, double eta) {
        m_progress->setMaximum(std::max(1, total));
        m_progress->setValue(answered);
        m_progress->setFormat(eta >= 0
                                  ? tr("%v / %m %1, about %2 s left").arg(m_words.unit).arg(eta, 0, 'f', 0)
                                  : tr("%v / %m %1").arg(m_words.unit));
    });
    if (!m_run->start(error)) {
        m_run.reset();
        return false;
    }
    if (m_session)
        m_session->setSweep(m_run->sweep(), true);
    m_show(m_run->sweep());
    m_status->setText(m_words.running.arg(m_run->pointsToRun()).arg(m_run->runnerCount()));
    setRunning(true);
    if (!m_run->isRunning())
        onFinished(false);
    return true;
}

SweepData SweepRunControls::withJournaledRuns(const SweepData &sweep, const QString &journalPath)
{
    if (const auto journal = SweepJournal::read(journalPath);
        journal && journal->id == sweep.id && journal->runs.size() > sweep.runs.size())
        return *journal;
    return sweep;
}

QString SweepRunControls::startOffReason(const QString &runnerTemplate, const QString &runningOff)
{
    QString why = runnerMissingReason(runnerTemplate);
    if (why.isEmpty() && !runningOff.isEmpty() && runnerTemplate.contains(QLatin1String("{runner}")))
        why = tr("Start is off: %1").arg(runningOff);
    return why;
}

QString SweepRunControls::runnerMissingReason(const QString &runnerTemplate)
{
    if (!runnerTemplate.contains(QLatin1String("{runner}")))
        return {}; // ssh, srun or a script: whether it answers is for the run to find out
    const RunnerLocation location = locateRunner();
    if (location.found())
        return {};
    return tr("Start is off: there is no GPU runner on this machine (%1). A recorded sweep can still be "
              "shown: choose it in the Shown list. To measure, run GemmScope where gemmscope-runner is "
              "built for an NVIDIA GPU, or give a runner template that reaches one (ssh HOST "
              "gemmscope-runner).")
        .arg(location.whyNot);
}

void SweepRunControls::cancel()
{
    if (m_run)
        m_run->cancel();
}

bool SweepRunControls::isRunning() const
{
    return m_run && m_run->isRunning();
}

void SweepRunControls::onFinished(bool cancelled)
{
    if (!m_run)
        return;
    m_showTimer->stop(); // the finished sweep is shown below
    const SweepData sweep = m_run->sweep();
    const int left = int(unfinishedPoints(planSweep(sweep.spec), sweep.runs).size());
    m_status->setText(cancelled || left > 0 ? m_words.stopped.arg(m_run->wallSeconds(), 0, 'f', 1).arg(left)
                                            : tr("Finished in %1 s.").arg(m_run->wallSeconds(), 0, 'f', 1));
    m_run.release()->deleteLater(); // not from inside its own signal
    if (m_session)
        m_session->setSweep(sweep, true);
    m_show(sweep);
    setRunning(false);
}

void SweepRunControls::setRunning(bool running)
{
    m_running = running;
    m_progress->setVisible(running);
    updateButtons();
    emit runningChanged(running);
}

void SweepRunControls::setStartBlocked(const QString &why)
{
    m_blocked = why;
    m_blockedLabel->setText(why);
    m_blockedLabel->setVisible(!why.isEmpty());
    updateButtons();
}

void SweepRunControls::updateButtons()
{
    const bool may = !m_running && m_blocked.isEmpty();
    m_startButton->setEnabled(may);
    m_resumeButton->setEnabled(may);
    m_cancelButton->setEnabled(m_running);
    // A disabled button still shows its tooltip: the reason, escaped (it may quote a path).
    m_startButton->setToolTip(m_blocked.isEmpty() ? QString() : plainTextAsHtml(m_blocked));
    m_resumeButton->setToolTip(m_blocked.isEmpty() ? m_words.resumeTip : plainTextAsHtml(m_blocked));
}

} // namespace gemmscope
