#include "sweep_run_controls.h"

#include "session.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
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
    m_sweeps->setMinimumContentsLength(18);
    m_progress = new QProgressBar;
    m_progress->setObjectName(p + QStringLiteral("Progress"));
    m_progress->setVisible(false);
    m_status = new QLabel;
    m_status->setObjectName(p + QStringLiteral("Status"));
    m_status->setWordWrap(true);

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
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_startButton);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_resumeButton);
    buttons->addWidget(m_sweeps, 1);
    buttons->addWidget(m_exportButton);
    layout->addLayout(buttons);
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
        m_show(m_run->sweep());
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
    m_progress->setVisible(running);
    m_startButton->setEnabled(!running);
    m_resumeButton->setEnabled(!running);
    m_cancelButton->setEnabled(running);
    emit runningChanged(running);
}

} // namespace gemmscope
