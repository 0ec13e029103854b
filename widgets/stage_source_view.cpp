#include "stage_source_view.h"

#include "kernel_sources.h"
#include "source_diff.h"

#include <QButtonGroup>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRadioButton>
#include <QRegularExpression>
#include <QStackedWidget>
#include <QTextBlock>
#include <QTextCursor>
#include <QVBoxLayout>

namespace gemmscope {

namespace {

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// The headers a stage file pulls in (common.cuh, cooperative_load.cuh): the view shows the stage
// file alone, and the header line names what else the compiler sees.
QStringList includedFiles(const QString &text)
{
    static const QRegularExpression include(QStringLiteral(R"re(^\s*#\s*include\s*"([^"]+)")re"),
                                            QRegularExpression::MultilineOption);
    QStringList files;
    for (auto it = include.globalMatch(text); it.hasNext();)
        files << it.next().captured(1);
    return files;
}

QString includesSentence(const QString &text)
{
    const QStringList files = includedFiles(text);
    if (files.isEmpty())
        return {};
    return StageSourceView::tr(" Includes %1 (not shown).").arg(files.join(QStringLiteral(", ")));
}

// A tint of `hue` over the editor's own background, so the diff reads on light and dark palettes.
QColor tinted(const QColor &base, const QColor &hue)
{
    constexpr double amount = 0.22;
    return QColor::fromRgbF(float(base.redF() * (1 - amount) + hue.redF() * amount),
                            float(base.greenF() * (1 - amount) + hue.greenF() * amount),
                            float(base.blueF() * (1 - amount) + hue.blueF() * amount));
}

} // namespace

StageSourceView::StageSourceView(QWidget *parent)
    : QWidget(parent), m_header(new QLabel), m_sourceButton(new QRadioButton(tr("Source"))),
      m_diffButton(new QRadioButton(tr("Diff from previous stage"))), m_stack(new QStackedWidget),
      m_editor(new QPlainTextEdit), m_message(new QLabel)
{
    m_header->setObjectName(QStringLiteral("sourceHeader"));
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sourceButton->setObjectName(QStringLiteral("sourceModeButton"));
    m_diffButton->setObjectName(QStringLiteral("diffModeButton"));
    m_sourceButton->setChecked(true);
    auto *group = new QButtonGroup(this);
    group->addButton(m_sourceButton);
    group->addButton(m_diffButton);
    connect(m_sourceButton, &QRadioButton::toggled, this, [this](bool on) {
        if (on)
            setMode(Mode::Source);
    });
    connect(m_diffButton, &QRadioButton::toggled, this, [this](bool on) {
        if (on)
            setMode(Mode::Diff);
    });

    m_editor->setObjectName(QStringLiteral("sourceText"));
    m_editor->setReadOnly(true);
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap); // code keeps its columns; scroll sideways
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_message->setObjectName(QStringLiteral("sourceMessage"));
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setMargin(16);
    m_stack->addWidget(m_editor);
    m_stack->addWidget(m_message);

    auto *modes = new QHBoxLayout;
    modes->addWidget(m_sourceButton);
    modes->addWidget(m_diffButton);
    modes->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(modes);
    layout->addWidget(m_header);
    layout->addWidget(m_stack, 1);
    refresh();
}

void StageSourceView::setStage(StageId id)
{
    m_stage = id;
    refresh();
}

void StageSourceView::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    // Programmatic changes keep the buttons in step (their toggled() lands back here, a no-op).
    (mode == Mode::Source ? m_sourceButton : m_diffButton)->setChecked(true);
    refresh();
    emit modeChanged(mode);
}

QString StageSourceView::headerText() const
{
    return m_header->text();
}

QString StageSourceView::shownText() const
{
    return m_stack->currentWidget() == m_editor ? m_editor->toPlainText() : QString();
}

QString StageSourceView::message() const
{
    return m_stack->currentWidget() == m_message ? m_message->text() : QString();
}

bool StageSourceView::diffAvailable() const
{
    return m_diffAvailable;
}

void StageSourceView::refresh()
{
    const StageInfo &info = stageInfo(m_stage);
    const QString title = QString::fromStdString(info.title);
    const QString file = QString::fromStdString(info.sourceFile);
    m_diffAvailable = false;
    m_sourceButton->setEnabled(!info.sourceFile.empty());
    m_diffButton->setEnabled(false);
    m_diffButton->setToolTip({});

    if (info.sourceFile.empty()) {
        showMessage(title, tr("%1 runs NVIDIA's cuBLAS library, whose kernels are closed source: there is no "
                              "CUDA source to show or to diff. GemmScope measures it as the baseline every "
                              "stage is compared with.")
                               .arg(title));
        return;
    }
    const std::string_view text = embeddedKernelSource(info.sourceFile);
    if (text.empty()) {
        showMessage(file,
                    tr("The source of %1 (kernels/cuda/%2) is not built into this GemmScope binary, so it "
                       "cannot be shown. Rebuild GemmScope from a source tree that has the file.")
                        .arg(title, file));
        return;
    }

    const std::optional<StageId> previous = previousStageWithSource(m_stage);
    const StageInfo *previousInfo = previous ? &stageInfo(*previous) : nullptr;
    const std::string_view previousText = previousInfo ? embeddedKernelSource(previousInfo->sourceFile) : "";
    m_diffAvailable = previousInfo && !previousText.empty();
    m_diffButton->setEnabled(m_diffAvailable);
    if (!previousInfo)
        m_diffButton->setToolTip(
            tr("%1 is the first stage of the ladder: there is nothing before it.").arg(title));
    else if (!m_diffAvailable)
        m_diffButton->setToolTip(tr("The previous stage's source (%1) is not built into this binary.")
                                     .arg(QString::fromStdString(previousInfo->sourceFile)));

    if (m_mode == Mode::Diff && m_diffAvailable) {
        showDiff(info, text, *previousInfo, previousText);
        return;
    }
    showSource(info, text);
    // Diff mode stays chosen on a stage that cannot diff: the header says why the file is shown.
    if (m_mode == Mode::Diff)
        m_header->setText(m_header->text() + QLatin1Char(' ') + m_diffButton->toolTip());
}

void StageSourceView::showMessage(const QString &header, const QString &message)
{
    m_header->setText(header);
    m_message->setText(message);
    m_editor->clear();
    m_stack->setCurrentWidget(m_message);
}

void StageSourceView::showSource(const StageInfo &info, std::string_view text)
{
    const QString source = fromView(text);
    m_header->setText(tr("%1 — %2 (%3).%4")
                          .arg(QString::fromStdString(info.sourceFile), QString::fromStdString(info.title),
                               QString::fromStdString(info.seedStep), includesSentence(source)));
    m_editor->setPlainText(source);
    m_stack->setCurrentWidget(m_editor);
}

void StageSourceView::showDiff(const StageInfo &info, std::string_view text, const StageInfo &previous,
                               std::string_view previousText)
{
    const std::vector<DiffLine> diff = diffLines(previousText, text);
    const QColor base = m_editor->palette().color(QPalette::Base);
    QTextBlockFormat same, added, removed;
    added.setBackground(tinted(base, QColor(0, 170, 60)));
    removed.setBackground(tinted(base, QColor(220, 30, 30)));

    m_editor->clear();
    QTextCursor cursor(m_editor->document());
    cursor.beginEditBlock();
    int addedCount = 0, removedCount = 0;
    bool first = true;
    for (const DiffLine &line : diff) {
        const bool isAdded = line.kind == DiffLine::Kind::Added;
        const bool isRemoved = line.kind == DiffLine::Kind::Removed;
        addedCount += isAdded;
        removedCount += isRemoved;
        const QTextBlockFormat *format = isAdded ? &added : isRemoved ? &removed : &same;
        const QChar prefix = QLatin1Char(isAdded ? '+' : isRemoved ? '-' : ' ');
        if (first)
            cursor.setBlockFormat(*format);
        else
            cursor.insertBlock(*format);
        first = false;
        cursor.insertText(prefix + QString::fromStdString(line.text));
    }
    cursor.endEditBlock();
    m_editor->moveCursor(QTextCursor::Start);

    m_header->setText(tr("%1: diff from %2 (%3), %4 lines added, %5 removed.%6")
                          .arg(QString::fromStdString(info.sourceFile),
                               QString::fromStdString(previous.title),
                               QString::fromStdString(previous.sourceFile))
                          .arg(addedCount)
                          .arg(removedCount)
                          .arg(includesSentence(fromView(text))));
    m_stack->setCurrentWidget(m_editor);
}

} // namespace gemmscope
