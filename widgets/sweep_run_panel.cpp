#include "sweep_run_panel.h"

#include "eliding_label.h"
#include "help_text_color.h"
#include "jargon_text.h"
#include "plain_text.h"
#include "sweep_control.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace gemmscope {

namespace {

// Word-wrapped in a view's column; one line, cut at the end, in the Sweep workspace's run bar
// (addCompactTo).
ElidingLabel *plainLabel(const QString &name)
{
    auto *label = new ElidingLabel;
    label->setObjectName(name);
    label->setWordWrap(true);
    return label;
}

// The template "{runner}" (this machine's runner, the default) shows as an empty field whose
// placeholder says so in words: a raw placeholder reads like a bug.
const QString kLocalRunner = QStringLiteral("{runner}");

QString shownTemplate(const QString &runnerTemplate)
{
    return runnerTemplate.trimmed() == kLocalRunner ? QString() : runnerTemplate;
}

QString templateOf(const QString &fieldText)
{
    return fieldText.trimmed().isEmpty() ? kLocalRunner : fieldText;
}

} // namespace

SweepRunPanel::SweepRunPanel(SweepControl *control, const Words &words, QWidget *owner)
    : m_control(control), m_words(words), m_owner(owner)
{
    // Parentless until laid out, as the views' own widgets are (the tab order follows).
    const QString &p = m_words.namePrefix;
    m_runners = new QLineEdit(shownTemplate(m_control->runnerTemplate()));
    m_runners->setObjectName(p + QStringLiteral("RunnerTemplate"));
    m_runners->setPlaceholderText(tr("this machine")); // short: the field is narrow (explained below it)
    // What a runner template is (the glossary's sentence), then this view's examples.
    m_runners->setToolTip(
        QStringLiteral("<p>%1</p><p>%2</p>")
            .arg(jargon::runnerTemplate().toHtmlEscaped(), m_words.runnersTip.toHtmlEscaped()));
    m_runnerCount = new QSpinBox;
    m_runnerCount->setRange(1, 64);
    m_runnerCount->setValue(m_control->runnerCount());
    m_runnerCount->setSuffix(tr(" runner(s)"));
    m_runnerCount->setToolTip(tr("How many runners to start from the command, one per GPU; a {gpu} in the "
                                 "command becomes 0, 1, ... for each."));
    m_slurm = new QCheckBox(tr("As Slurm job steps"));
    m_slurm->setObjectName(p + QStringLiteral("Slurm"));
    m_slurm->setChecked(m_control->slurm());
    m_slurm->setToolTip(tr("Start the runners as Slurm job steps (srun) of one allocation, one GPU each: "
                           "the command is what each step runs. While the job waits, the status line "
                           "says why; Cancel cancels the job (scancel)."));
    connect(m_slurm, &QCheckBox::toggled, this, &SweepRunPanel::applySlurm);
    m_startButton = new QPushButton(tr("Start"));
    m_startButton->setObjectName(p + QStringLiteral("Start"));
    m_cancelButton = new QPushButton(tr("Cancel"));
    m_cancelButton->setObjectName(p + QStringLiteral("Cancel"));
    m_resumeButton = new QPushButton(tr("Resume"));
    m_resumeButton->setObjectName(p + QStringLiteral("Resume"));
    m_exportButton = new QPushButton(tr("Export…"));
    m_exportButton->setObjectName(p + QStringLiteral("Export"));
    m_sweeps = new QComboBox;
    m_sweeps->setObjectName(p + QStringLiteral("List"));
    m_sweeps->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_sweeps->setMinimumWidth(120); // its titles' width while there is room, less in a narrow pane
    const auto sayShown = [this] {
        const QString what =
            tr("The session's sweeps: choose one to show it (Resume continues the shown one)");
        m_sweeps->setToolTip(m_sweeps->currentIndex() < 0
                                 ? what
                                 : plainTextAsHtml(tr("Shown: %1\n%2").arg(m_sweeps->currentText(), what)));
    };
    connect(m_sweeps, &QComboBox::currentIndexChanged, this, sayShown);
    sayShown();
    // Start's note says where a recorded sweep is: the list once it holds one.
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_sweeps->model(), signal, this, [this] { updateButtons(); });
    m_progress = new QProgressBar;
    m_progress->setObjectName(p + QStringLiteral("Progress"));
    m_progress->setVisible(false);
    m_status = plainLabel(p + QStringLiteral("Status"));
    m_status->setText(m_control->status()); // journals found before the view was made
    m_blockedLabel = plainLabel(p + QStringLiteral("StartOff"));
    m_blockedLabel->setVisible(false);

    connect(m_runners, &QLineEdit::textChanged, this, &SweepRunPanel::applyRunners);
    connect(m_runnerCount, &QSpinBox::valueChanged, this, &SweepRunPanel::applyRunners);
    connect(m_startButton, &QPushButton::clicked, this, &SweepRunPanel::startClicked);
    connect(m_resumeButton, &QPushButton::clicked, this, &SweepRunPanel::resumeClicked);
    connect(m_cancelButton, &QPushButton::clicked, m_control.data(), &SweepControl::cancel);
    connect(m_sweeps, &QComboBox::activated, this,
            [this](int index) { emit sweepChosen(m_sweeps->itemData(index).toString()); });
    connect(m_control.data(), &SweepControl::startOffChanged, this, &SweepRunPanel::updateButtons);
    connect(m_control.data(), &SweepControl::runningChanged, this, &SweepRunPanel::setRunning);
    connect(m_control.data(), &SweepControl::statusChanged, m_status, &QLabel::setText);
    connect(m_control.data(), &SweepControl::progressChanged, this,
            [this](int answered, int total, double eta) {
                m_progress->setMaximum(std::max(1, total));
                m_progress->setValue(answered);
                m_progress->setFormat(
                    eta >= 0 ? tr("%v / %m %1, about %2 s left").arg(m_words.unit).arg(eta, 0, 'f', 0)
                             : tr("%v / %m %1").arg(m_words.unit));
            });
    setRunning(m_control->isRunning());
}

SweepRunPanel::~SweepRunPanel()
{
    if (m_control) // it may outlive the view
        m_control->disconnect(this);
}

void SweepRunPanel::applyRunners()
{
    const QString runnerTemplate = templateOf(m_runners->text());
    m_control->setRunners(runnerTemplate, m_runnerCount->value());
    for (SweepControl *other : std::as_const(m_alsoRuns))
        if (other)
            other->setRunners(runnerTemplate, m_runnerCount->value());
}

void SweepRunPanel::applySlurm(bool on)
{
    m_control->setSlurm(on);
    for (SweepControl *other : std::as_const(m_alsoRuns))
        if (other)
            other->setSlurm(on);
}

void SweepRunPanel::alsoSetRunnersOf(SweepControl *other)
{
    m_alsoRuns << other;
    other->setRunners(templateOf(m_runners->text()), m_runnerCount->value());
    other->setSlurm(m_slurm->isChecked());
}

void SweepRunPanel::dropRunnerFields()
{
    delete m_runners;
    delete m_runnerCount;
    delete m_slurm;
    m_runners = nullptr;
    m_runnerCount = nullptr;
    m_slurm = nullptr;
}

QLabel *SweepRunPanel::runnerHelp(bool oneLine)
{
    ElidingLabel *help = plainLabel(m_words.namePrefix + QStringLiteral("RunnerPlaceholders"));
    // What a new user needs beside the field, in a few words; the rest ({gpu}, Slurm) in the
    // tooltip. In a narrow column the command takes a line of its own: wrapped in a sentence it broke
    // at its hyphen ("gemmscope-" / "runner").
    help->setText(tr("Empty: this machine's runner. Elsewhere:%1ssh HOST gemmscope-runner")
                      .arg(oneLine ? QStringLiteral(" ") : QStringLiteral("\n")));
    help->setWordWrap(!oneLine);
    help->setToolTip(
        QStringLiteral("<p>%1</p><p>%2</p><p>%3</p>")
            .arg(jargon::runnerTemplate().toHtmlEscaped(),
                 tr("As Slurm job steps, each runner is a job step with a GPU of its own.").toHtmlEscaped(),
                 m_words.runnersTip.toHtmlEscaped()));
    showAsHelpText(help); // quieter than a label, still readable
    return help;
}

void SweepRunPanel::addRunnersRow(QFormLayout *form)
{
    auto *row = new QHBoxLayout;
    row->addWidget(m_runners, 1);
    row->addWidget(m_runnerCount);
    form->addRow(tr("Runners"), row);
    // A row of its own: beside the count it left the command field too narrow for its placeholder.
    form->addRow(QString(), m_slurm);
    form->addRow(QString(), runnerHelp(false));
}

void SweepRunPanel::addRunnersLine(QBoxLayout *fields, QBoxLayout *help)
{
    auto *label = new QLabel(tr("Runners"));
    label->setBuddy(m_runners);
    label->setToolTip(m_runners->toolTip());
    m_runners->setMinimumWidth(m_runners->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 28);
    fields->addWidget(label);
    fields->addWidget(m_runners, 1);
    fields->addWidget(m_runnerCount);
    fields->addWidget(m_slurm);
    help->addWidget(runnerHelp(true), 1);
}

void SweepRunPanel::addTo(QVBoxLayout *layout)
{
    // The buttons in one row, the session's sweeps below: the panel sits in a narrow column
    // beside the chart (sweep_page_layout.h).
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_startButton);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_resumeButton);
    buttons->addWidget(m_exportButton);
    layout->addLayout(buttons);
    layout->addWidget(m_blockedLabel);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
}

void SweepRunPanel::addCompactTo(QBoxLayout *buttons, QBoxLayout *line)
{
    for (QPushButton *button : {m_startButton, m_cancelButton, m_resumeButton, m_exportButton})
        buttons->addWidget(button);
    buttons->addStretch(1);
    // One line: the progress while a sweep runs, why Start is off, the status; each cut to its share
    // of the line, whole in its tooltip.
    m_progress->setMaximumWidth(m_progress->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 40);
    line->addWidget(m_progress, 1);
    for (ElidingLabel *label : {m_blockedLabel, m_status}) {
        label->setWordWrap(false);
        line->addWidget(label); // as wide as its text while the line has room (an empty one: none)
    }
    line->addStretch(0);
}

void SweepRunPanel::addShownTo(QVBoxLayout *layout)
{
    m_shownRow = new QWidget;
    m_shownRow->setObjectName(m_sweeps->objectName() + QStringLiteral("Row"));
    auto *row = new QHBoxLayout(m_shownRow);
    row->setContentsMargins(0, 0, 0, 0);
    auto *label = new QLabel(tr("Shown"));
    label->setBuddy(m_sweeps);
    row->addWidget(label);
    row->addWidget(m_sweeps);
    row->addStretch(1);
    m_shownRow->setVisible(m_sweeps->count() > 0);
    layout->addWidget(m_shownRow);
}

void SweepRunPanel::setExport(const QString &title, const QString &filter,
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

void SweepRunPanel::setExportEnabled(bool enabled, const QString &whyNot)
{
    m_exportButton->setEnabled(enabled);
    m_exportButton->setToolTip(enabled ? QString() : whyNot);
}

void SweepRunPanel::setRunningOff(const QString &why)
{
    m_runningOff = why;
    updateButtons();
}

void SweepRunPanel::setRunnerTemplate(const QString &text, int count)
{
    if (m_runners) { // not dropped (another panel's fields set this one's control)
        m_runners->setText(shownTemplate(text));
        m_runnerCount->setValue(count);
    }
    m_control->setRunners(text, count); // again: the same text may find another runner now
    for (SweepControl *other : std::as_const(m_alsoRuns))
        if (other)
            other->setRunners(text, count);
}

void SweepRunPanel::setStatus(const QString &text)
{
    m_status->setText(text);
}

QString SweepRunPanel::statusText() const
{
    return m_status->text();
}

void SweepRunPanel::setRunning(bool running)
{
    m_progress->setVisible(running);
    updateButtons();
}

void SweepRunPanel::updateButtons()
{
    const QString blocked = m_control->startOffReason();
    const bool running = m_control->isRunning();
    // Off because the window cannot run at all: the status bar says why already; say what Start
    // needs instead (the button's tooltip keeps the full reason).
    const bool windowOff = !m_runningOff.isEmpty() && blocked.contains(m_runningOff);
    // Where a recorded sweep is: in the Shown list, or (none in this session) behind the button
    // beside the empty heatmap; "choose it in the Shown list" over an empty list sent users nowhere.
    const QString recorded = m_sweeps->count() > 0
                                 ? tr("to look at a recorded sweep, choose it in the Shown list.")
                                 : tr("to look at a recorded one, add the embedded example's sweeps with the "
                                      "button where the chart would be.");
    // Short, for the one line the run bar gives it; the whole sentence in its tooltip.
    const QString recordedShort = m_sweeps->count() > 0 ? tr("recorded sweeps: the Shown list")
                                                        : tr("recorded sweeps: the button above");
    m_blockedLabel->setText(
        windowOff
            ? tr("Start needs a GPU runner (ssh HOST gemmscope-runner under Runners); %1.").arg(recordedShort)
            : blocked);
    m_blockedLabel->setToolTip(
        windowOff
            ? plainTextAsHtml(tr("Start needs this machine's runner on a GPU, and running is off (the status "
                                 "bar says why).\nTo sweep on another machine, put ssh HOST gemmscope-runner "
                                 "under Runners;\n%1")
                                  .arg(recorded))
            : QString()); // the whole reason where it is cut (ElidingLabel)
    m_blockedLabel->setVisible(!blocked.isEmpty());
    if (m_shownRow)
        m_shownRow->setVisible(m_sweeps->count() > 0); // an empty list over the empty state said nothing
    const bool may = !running && blocked.isEmpty();
    m_startButton->setEnabled(may);
    m_resumeButton->setEnabled(may);
    m_cancelButton->setEnabled(running);
    // A disabled button still shows its tooltip: the reason, escaped (it may quote a path).
    m_startButton->setToolTip(blocked.isEmpty() ? QString() : plainTextAsHtml(blocked));
    m_resumeButton->setToolTip(blocked.isEmpty() ? m_words.resumeTip : plainTextAsHtml(blocked));
}

} // namespace gemmscope
