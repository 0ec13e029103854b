#include "sweep_run_panel.h"

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

QLabel *plainLabel(const QString &name)
{
    auto *label = new QLabel;
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText); // runner messages and paths: data, never markup
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
    m_slurm = new QCheckBox(tr("Start them as Slurm job steps"));
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

void SweepRunPanel::addRunnersRow(QFormLayout *form, QBoxLayout *helpBeside)
{
    auto *row = new QHBoxLayout;
    row->addWidget(m_runners, 1);
    row->addWidget(m_runnerCount);
    form->addRow(tr("Runners"), row);
    // A row of its own: beside the count it left the command field too narrow for its placeholder.
    form->addRow(QString(), m_slurm);
    // The template's placeholders, where a new user reads the field (the tooltip has examples).
    QLabel *placeholders = plainLabel(m_words.namePrefix + QStringLiteral("RunnerPlaceholders"));
    // The command on a line of its own: wrapped in a sentence it broke at its hyphen ("gemmscope-" /
    // "runner").
    placeholders->setText(tr("Empty: this machine's runner. On another machine:\n"
                             "ssh HOST gemmscope-runner\n"
                             "With several runners, {gpu} in the command becomes 0, 1, 2, … one GPU each.\n"
                             "Through Slurm each runner is a job step with a GPU of its own."));
    showAsHelpText(placeholders); // quieter than a label, still readable
    if (helpBeside) {
        helpBeside->addWidget(placeholders);
        helpBeside->addStretch(1);
    } else {
        form->addRow(QString(), placeholders);
    }
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
    m_blockedLabel->setText(
        windowOff ? tr("Start needs this machine's runner on a GPU, and running is off (the status bar says "
                       "why). To sweep on another machine, put ssh HOST gemmscope-runner under Runners; %1")
                        .arg(recorded)
                  : blocked);
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
