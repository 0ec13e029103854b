#include "stage_source_view.h"

#include "code_heat_edit.h"
#include "empty_state.h"
#include "kernel_sources.h"
#include "profile_digest.h"
#include "profile_hotspot_table.h"
#include "run_record.h"
#include "source_diff.h"
#include "stall_breakdown_bar.h"
#include "stall_reasons.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSplitter>
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

// The stage file and every file it includes, recursively, in the order the compiler meets them.
QStringList filesOfStage(const std::string &sourceFile)
{
    QStringList files{QString::fromStdString(sourceFile)};
    for (int i = 0; i < files.size(); ++i)
        for (const QString &inc : includedFiles(fromView(embeddedKernelSource(files[i].toStdString()))))
            if (!files.contains(inc) && !embeddedKernelSource(inc.toStdString()).empty())
                files << inc;
    return files;
}

QString includesSentence(const QString &text)
{
    const QStringList files = includedFiles(text);
    if (files.isEmpty())
        return {};
    return StageSourceView::tr(" Includes %1 (choose it above).").arg(files.join(QStringLiteral(", ")));
}

// The line that issues a global access of an operand: its load (a loadOrZero(A, ...), A[...] or a
// vector load from A) or, for C, the GEMMSCOPE_STORE_C. Comments and #defines do not count.
int lineOfAccess(const QString &text, Operand operand, AccessKind kind)
{
    QRegularExpression pattern;
    if (kind == AccessKind::Store || operand == Operand::C)
        pattern.setPattern(QStringLiteral(R"(GEMMSCOPE_STORE_C\s*\(|\bC\s*\[)"));
    else {
        const QString name = operand == Operand::A ? QStringLiteral("A") : QStringLiteral("B");
        pattern.setPattern(
            QStringLiteral(R"(loadOrZero\w*\s*\(\s*%1\b|[^\w.]%1\s*\[|\(\s*%1\s*\+|load\w*\(\s*%1\s*,)")
                .arg(name));
    }
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QString trimmed = lines[i].trimmed();
        if (trimmed.startsWith(QLatin1String("//")) || trimmed.startsWith(QLatin1Char('#')) ||
            trimmed.startsWith(QLatin1Char('*')))
            continue;
        QString code = lines[i];
        if (const int comment = code.indexOf(QLatin1String("//")); comment >= 0)
            code.truncate(comment);
        if (pattern.match(code).hasMatch() && !code.contains(QLatin1String("const float *")))
            return i + 1;
    }
    return 0;
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
      m_editor(new CodeHeatEdit), m_message(new QLabel),
      m_noProfileText(
          tr("No profile of this preset at this size yet: profile it to see which lines its time goes to.")),
      m_profileLabel(new QLabel), m_breakdown(new StallBreakdownBar), m_hotLines(new ProfileHotspotTable),
      m_split(new QSplitter(Qt::Vertical))
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

    m_editor->setLineNumbers(true); // the hot-lines table and the SASS tab name lines by number
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
    m_fileCombo = new QComboBox;
    m_fileCombo->setObjectName(QStringLiteral("sourceFileCombo"));
    m_fileCombo->setToolTip(tr("The stage's file and the files it includes: everything NVRTC compiles"));
    connect(m_fileCombo, &QComboBox::activated, this,
            [this](int index) { setCurrentFile(m_fileCombo->itemText(index)); });

    auto *modes = new QHBoxLayout;
    modes->addWidget(m_sourceButton);
    modes->addWidget(m_diffButton);
    modes->addWidget(m_fileCombo);
    modes->addStretch(1);
    m_profileLabel->setObjectName(QStringLiteral("sourceProfileLabel"));
    m_profileLabel->setTextFormat(Qt::PlainText); // stage names and errors from files are data
    m_profileLabel->setWordWrap(true);
    m_hotLines->setObjectName(QStringLiteral("sourceHotLines"));
    connect(m_hotLines, &ProfileHotspotTable::rowActivated, this,
            [this](const HotspotRow &row) { showHotLine(row.file, row.line); });
    m_split->setObjectName(QStringLiteral("sourceProfileSplit"));
    m_split->setChildrenCollapsible(false);
    m_split->addWidget(m_stack);
    m_split->addWidget(m_hotLines);
    m_split->setStretchFactor(0, 3);
    m_split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(modes);
    layout->addWidget(m_header);
    m_profileCaption = makeReferenceNote();
    layout->addWidget(m_profileCaption);
    layout->addWidget(m_profileLabel);
    layout->addWidget(m_breakdown);
    layout->addWidget(m_split, 1);
    setStage(m_stage); // fills the file list too
    applyProfile();
}

void StageSourceView::setStage(StageId id)
{
    const bool changed = id != m_stage || m_files.isEmpty();
    const bool dropProfile = id != m_stage && m_profile;
    if (dropProfile)
        m_profile.reset(); // another stage's lines: its profile does not apply
    m_stage = id;
    const StageInfo &info = stageInfo(id);
    m_files = info.sourceFile.empty() ? QStringList{} : filesOfStage(info.sourceFile);
    if (changed || !m_files.contains(m_file)) { // a new stage opens on its own file
        m_highlightLine = 0;
        m_file = m_files.value(0);
    }
    {
        const QSignalBlocker block(m_fileCombo);
        m_fileCombo->clear();
        m_fileCombo->addItems(m_files);
        m_fileCombo->setCurrentIndex(std::max(0, int(m_files.indexOf(m_file))));
    }
    m_fileCombo->setEnabled(m_files.size() > 1);
    refresh();
    if (dropProfile)
        applyProfile();
}

void StageSourceView::setCurrentFile(const QString &name)
{
    if (!m_files.contains(name))
        return;
    if (name != m_file)
        m_highlightLine = 0;
    m_file = name;
    {
        const QSignalBlocker block(m_fileCombo);
        m_fileCombo->setCurrentIndex(int(m_files.indexOf(name)));
    }
    if (m_mode != Mode::Source)
        setMode(Mode::Source); // refreshes
    else
        refresh();
}

bool StageSourceView::highlightAccess(Operand operand, AccessKind kind)
{
    for (const QString &file : std::as_const(m_files)) {
        const int line = lineOfAccess(fromView(embeddedKernelSource(file.toStdString())), operand, kind);
        if (line > 0) {
            const bool refreshNeeded = file != m_file || m_mode != Mode::Source;
            m_file = file;
            m_highlightLine = line;
            {
                const QSignalBlocker block(m_fileCombo);
                m_fileCombo->setCurrentIndex(int(m_files.indexOf(file)));
            }
            if (refreshNeeded && m_mode != Mode::Source)
                setMode(Mode::Source);
            else if (refreshNeeded)
                refresh();
            else
                applyHighlight();
            return true;
        }
    }
    m_highlightLine = 0;
    applyHighlight();
    return false;
}

void StageSourceView::applyHighlight()
{
    QList<QTextEdit::ExtraSelection> selections;
    if (m_highlightLine > 0 && m_mode == Mode::Source && m_stack->currentWidget() == m_editor) {
        QTextEdit::ExtraSelection selection;
        selection.format.setBackground(QColor(0xff, 0xe0, 0x6b));
        selection.format.setProperty(QTextFormat::FullWidthSelection, true);
        selection.cursor = QTextCursor(m_editor->document()->findBlockByNumber(m_highlightLine - 1));
        selections << selection;
        m_editor->setTextCursor(selection.cursor);
        m_editor->centerCursor();
    }
    m_editor->setExtraSelections(selections);
}

void StageSourceView::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    m_editor->setLineNumbers(mode == Mode::Source); // a diff's lines are not the file's
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
    m_editor->setLineHeat({});
    m_stack->setCurrentWidget(m_message);
}

void StageSourceView::showSource(const StageInfo &info, std::string_view text)
{
    const bool own = m_file.isEmpty() || m_file == QString::fromStdString(info.sourceFile);
    const QString source = own ? fromView(text) : fromView(embeddedKernelSource(m_file.toStdString()));
    QString header =
        own ? tr("%1 — %2 (%3).%4")
                  .arg(QString::fromStdString(info.sourceFile), QString::fromStdString(info.title),
                       QString::fromStdString(info.seedStep), includesSentence(source))
            : tr("%1 — included by %2 (%3).")
                  .arg(m_file, QString::fromStdString(info.sourceFile), QString::fromStdString(info.title));
    if (m_highlightLine > 0)
        header += tr(" Highlighted: line %1, the instruction shown in Coalescing.").arg(m_highlightLine);
    m_header->setText(header);
    m_editor->setPlainText(source);
    m_stack->setCurrentWidget(m_editor);
    applyHighlight();
    applyHeat();
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
    m_editor->setExtraSelections({});
    m_editor->setLineHeat({}); // diff lines are not the compiled file's lines

    m_header->setText(tr("%1: diff from %2 (%3), %4 lines added, %5 removed.%6")
                          .arg(QString::fromStdString(info.sourceFile),
                               QString::fromStdString(previous.title),
                               QString::fromStdString(previous.sourceFile))
                          .arg(addedCount)
                          .arg(removedCount)
                          .arg(includesSentence(fromView(text))));
    m_stack->setCurrentWidget(m_editor);
}

void StageSourceView::setProfile(const protocol::ProfileEvent *profile)
{
    setProfileDigest(profile ? digestOf(*profile) : nullptr);
}

void StageSourceView::setProfileDigest(std::shared_ptr<const ProfileDigest> profile)
{
    if (profile && profile == m_profile)
        return;
    m_profile = std::move(profile);
    applyProfile();
}

void StageSourceView::setNoProfileText(const QString &sentence)
{
    m_noProfileText = sentence;
    if (!m_profile) // with a profile the sentence waits: shown again, the table would be rebuilt
        applyProfile();
}

void StageSourceView::setProfileCaption(const QString &sentence)
{
    setReferenceNoteText(m_profileCaption, sentence);
}

QString StageSourceView::profileCaption() const
{
    return m_profileCaption->isHidden() ? QString() : m_profileCaption->text();
}

QString StageSourceView::profileText() const
{
    return m_profileLabel->text();
}

void StageSourceView::applyProfile()
{
    if (!m_profile) {
        m_profileLabel->setText(m_noProfileText);
        m_breakdown->hide();
        m_hotLines->hide();
        m_hotLines->setRows({});
        m_editor->setLineHeat({});
        return;
    }
    const protocol::ProfileEvent &p = m_profile->event;
    const StallBreakdown &breakdown = m_profile->breakdown;
    const double unattributed = m_profile->unattributedSamples;
    const QList<LineProfile> &lines = m_profile->lines;
    QString text = tr("Profile of %1 at %2 on %3")
                       .arg(p.stage.isEmpty() ? tr("this preset") : p.stage, squareOrFullSizeText(p.size),
                            p.gpu.name.isEmpty() ? tr("an unnamed GPU") : p.gpu.name);
    if (p.samplingPeriod)
        text += tr(", a sample every 2^%1 cycles").arg(*p.samplingPeriod);
    text += QLatin1Char('.');
    if (p.samplingBufferFull)
        text += tr(" The sampling buffer overflowed: some samples were lost.");
    if (breakdown.totalSamples > 0 && unattributed > 0)
        text += tr(" %1 % of the samples fall on instructions without a source line.")
                    .arg(QString::number(100.0 * unattributed / breakdown.totalSamples, 'f', 1));
    m_profileLabel->setText(text);
    if (!p.stallsError.isEmpty())
        m_breakdown->setMessage(tr("No stall samples: %1").arg(p.stallsError));
    else
        m_breakdown->setBreakdown(breakdown, tr("Where the time goes: %1 PC samples over the kernel")
                                                 .arg(QLocale().toString(breakdown.totalSamples, 'f', 0)));
    m_breakdown->show();
    m_hotLines->setRows(m_profile->lineRows);
    m_hotLines->setVisible(!lines.isEmpty());
    applyHeat();
    // Open at the file's hottest line (unless the Coalescing view's instruction is highlighted).
    if (m_highlightLine == 0)
        for (const LineProfile &l : lines)
            if (l.file == m_file && l.line > 0 && l.samples > 0) {
                m_editor->scrollToLine(l.line - 1);
                break;
            }
}

void StageSourceView::applyHeat()
{
    if (!m_profile) {
        m_editor->setLineHeat({});
        return;
    }
    const QList<LineProfile> &lines = m_profile->lines;
    // The margin of the file on screen (Source mode), hotter as its share nears the hottest line's.
    QHash<int, CodeHeatEdit::LineHeat> heat;
    const double hottest = lines.isEmpty() ? 0.0 : lines.first().share;
    if (m_mode == Mode::Source && m_stack->currentWidget() == m_editor) {
        for (const LineProfile &l : lines) {
            if (l.file != m_file || l.line <= 0 || l.samples <= 0)
                continue;
            CodeHeatEdit::LineHeat h;
            h.share = l.share;
            h.heat = hottest > 0 ? l.share / hottest : 0.0;
            const QString share = shareText(l.share);
            h.label = l.reasons.isEmpty()
                          ? share
                          : QStringLiteral("%1 %2").arg(share, stallReasonName(l.reasons.first().key));
            h.reasonColor = l.reasons.isEmpty() ? 0x888888 : stallReasonColor(l.reasons.first().key);
            QStringList tip{tr("Line %1: %2 % of the kernel's samples, %3 SASS instruction(s)")
                                .arg(l.line)
                                .arg(QString::number(100.0 * l.share, 'f', 1))
                                .arg(l.instructions)};
            for (const ReasonShare &r : l.reasons)
                tip << QStringLiteral("  %1 %  %2")
                           .arg(QString::number(100.0 * r.share, 'f', 1), stallReasonWithCupti(r.key));
            h.tooltip = tip.join(QLatin1Char('\n'));
            heat.insert(l.line - 1, h);
        }
    }
    m_editor->setLineHeat(heat);
}

void StageSourceView::showHotLine(const QString &file, int line)
{
    if (line <= 0)
        return;
    if (m_files.contains(file) && (file != m_file || m_mode != Mode::Source))
        setCurrentFile(file);
    if (file == m_file && m_mode == Mode::Source)
        m_editor->scrollToLine(line - 1);
}

} // namespace gemmscope
