#include "machine_code_view.h"

#include "code_heat_edit.h"
#include "profile_digest.h"
#include "profile_hotspot_table.h"
#include "run_record.h"
#include "stall_breakdown_bar.h"
#include "stall_reasons.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSet>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QTextBlock>
#include <QVBoxLayout>
#include <algorithm>

namespace gemmscope {

namespace {

// The classes in the order a reader compares them: the work, then what feeds it.
const QStringList &mixOrder()
{
    static const QStringList order{
        QStringLiteral("HGMMA"),   QStringLiteral("HMMA"),    QStringLiteral("FFMA"),
        QStringLiteral("LDSM"),    QStringLiteral("LDS.128"), QStringLiteral("LDS.64"),
        QStringLiteral("LDS"),     QStringLiteral("STS.128"), QStringLiteral("STS.64"),
        QStringLiteral("STS"),     QStringLiteral("LDG.128"), QStringLiteral("LDG.64"),
        QStringLiteral("LDG"),     QStringLiteral("UTMALDG"), QStringLiteral("LDGSTS"),
        QStringLiteral("STG.128"), QStringLiteral("STG.64"),  QStringLiteral("STG"),
        QStringLiteral("SYNCS"),   QStringLiteral("BAR"),     QStringLiteral("other")};
    return order;
}

// The PTX that each SASS class comes from: in a PTX listing the table names what is written
// there, with the SASS the compiler turns it into (the classes are counted by that).
QString ptxName(const QString &category)
{
    static const QHash<QString, QString> names{
        {QStringLiteral("HGMMA"), QStringLiteral("wgmma.mma_async")},
        {QStringLiteral("HMMA"), QStringLiteral("mma.sync")},
        {QStringLiteral("FFMA"), QStringLiteral("fma.rn.f32")},
        {QStringLiteral("LDSM"), QStringLiteral("ldmatrix")},
        {QStringLiteral("LDS.128"), QStringLiteral("ld.shared.v4")},
        {QStringLiteral("LDS.64"), QStringLiteral("ld.shared.v2")},
        {QStringLiteral("LDS"), QStringLiteral("ld.shared")},
        {QStringLiteral("STS.128"), QStringLiteral("st.shared.v4")},
        {QStringLiteral("STS.64"), QStringLiteral("st.shared.v2")},
        {QStringLiteral("STS"), QStringLiteral("st.shared")},
        {QStringLiteral("LDG.128"), QStringLiteral("ld.global.v4")},
        {QStringLiteral("LDG.64"), QStringLiteral("ld.global.v2")},
        {QStringLiteral("LDG"), QStringLiteral("ld.global")},
        {QStringLiteral("UTMALDG"), QStringLiteral("cp.async.bulk.tensor")},
        {QStringLiteral("LDGSTS"), QStringLiteral("cp.async")},
        {QStringLiteral("STG.128"), QStringLiteral("st.global.v4")},
        {QStringLiteral("STG.64"), QStringLiteral("st.global.v2")},
        {QStringLiteral("STG"), QStringLiteral("st.global")},
        {QStringLiteral("SYNCS"), QStringLiteral("mbarrier")},
        {QStringLiteral("BAR"), QStringLiteral("bar.sync")}};
    return names.value(category);
}

// What a class is, in words (the row's tooltip).
QString classMeaning(const QString &category)
{
    const QString base = category.section(QLatin1Char('.'), 0, 0);
    const QString width =
        category.contains(QLatin1String(".128"))  ? QStringLiteral(", 128 bits (4 floats) at once")
        : category.contains(QLatin1String(".64")) ? QStringLiteral(", 64 bits (2 floats) at once")
                                                  : QString();
    static const QHash<QString, QString> words{
        {QStringLiteral("HGMMA"), QStringLiteral("Hopper warpgroup matrix multiply-add on the tensor cores")},
        {QStringLiteral("HMMA"), QStringLiteral("warp matrix multiply-add on the tensor cores")},
        {QStringLiteral("FFMA"), QStringLiteral("fused multiply-add of floats: the GEMM's own work")},
        {QStringLiteral("LDSM"), QStringLiteral("load of matrix fragments from shared memory")},
        {QStringLiteral("LDS"), QStringLiteral("load from shared memory")},
        {QStringLiteral("STS"), QStringLiteral("store to shared memory")},
        {QStringLiteral("LDG"), QStringLiteral("load from global memory")},
        {QStringLiteral("STG"), QStringLiteral("store to global memory")},
        {QStringLiteral("UTMALDG"), QStringLiteral("TMA copy of a tile from global to shared memory")},
        {QStringLiteral("LDGSTS"),
         QStringLiteral("asynchronous copy from global to shared memory (cp.async)")},
        {QStringLiteral("SYNCS"), QStringLiteral("mbarrier operation (waits for asynchronous copies)")},
        {QStringLiteral("BAR"),
         QStringLiteral("barrier: the block's threads wait for each other (__syncthreads)")},
        {QStringLiteral("other"), QStringLiteral("address arithmetic, moves, branches and the rest")}};
    return words.value(base) + width;
}

int countOf(const std::map<std::string, int> &mix, const QString &category)
{
    const auto it = mix.find(category.toStdString());
    return it == mix.end() ? 0 : it->second;
}

QString joinText(const MachineCode &code)
{
    QStringList lines;
    lines.reserve(qsizetype(code.lines.size()));
    for (const CodeLine &l : code.lines)
        lines << QString::fromStdString(l.text);
    return lines.join(QLatin1Char('\n'));
}

} // namespace

MachineCodeView::MachineCodeView(QWidget *parent) : QWidget(parent)
{
    m_header = new QLabel;
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::PlainText);
    m_levelCombo = new QComboBox;
    m_levelCombo->addItem(QStringLiteral("PTX"), int(CodeLevel::Ptx));
    m_levelCombo->addItem(QStringLiteral("SASS"), int(CodeLevel::Sass));
    m_levelCombo->setToolTip(
        QStringLiteral("PTX is what NVRTC emits; SASS is what the GPU runs (needs nvdisasm)."));
    m_refresh = new QPushButton(QStringLiteral("Disassemble"));
    m_refresh->setToolTip(
        QStringLiteral("Compile the panel's stage and parameters with -lineinfo and show the machine code "
                       "(works without a GPU)."));
    auto *top = new QHBoxLayout;
    top->addWidget(m_levelCombo);
    top->addWidget(m_refresh);
    top->addStretch(1);

    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_editor = new CodeHeatEdit;
    m_editor->setReadOnly(true);
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setToolTip(
        QStringLiteral("The hot loop is shaded. Put the cursor on an instruction to see its source line."));
    m_lineInfo = new QLabel;
    m_lineInfo->setObjectName(QStringLiteral("sassLineInfo"));
    m_lineInfo->setTextFormat(Qt::PlainText);
    m_lineInfo->hide(); // until the user puts the cursor on an instruction
    m_loopKey = new QLabel;
    m_loopKey->setObjectName(QStringLiteral("sassLoopKey"));
    m_loopKey->setTextFormat(Qt::PlainText);
    m_loopKey->setWordWrap(true);
    buildMixTable();
    m_message = new QLabel;
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText);
    m_message->setAlignment(Qt::AlignCenter);

    buildProfileSection();
    auto *bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(m_mix);
    bottom->addWidget(m_hotInstructions);
    bottom->setStretchFactor(0, 1);
    bottom->setStretchFactor(1, 3);
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_editor);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    m_sassNote = new QLabel;
    m_sassNote->setObjectName(QStringLiteral("sassNote"));
    m_sassNote->setWordWrap(true);
    m_sassNote->setTextFormat(Qt::PlainText);
    m_sassNote->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addLayout(top);
    layout->addWidget(m_sassNote);
    layout->addWidget(m_summary);
    layout->addWidget(m_loopKey);
    layout->addWidget(m_profileLabel);
    layout->addWidget(m_breakdown);
    layout->addWidget(split, 1);
    layout->addWidget(m_lineInfo);
    layout->addWidget(m_message);

    connect(m_levelCombo, &QComboBox::currentIndexChanged, this, [this] { showLevel(); });
    connect(m_refresh, &QPushButton::clicked, this, &MachineCodeView::refreshRequested);
    connect(m_editor, &QPlainTextEdit::cursorPositionChanged, this, &MachineCodeView::reportCursorLine);
    setMessage(QStringLiteral(
        "Press Disassemble to compile the panel's stage and parameters and read the PTX and SASS."));
    applyProfile();
    // The Kernel workspace's tab is titled after the level shown: WindowLayout::showView still
    // finds it by either name.
    setProperty("tabAliases", QStringList{QStringLiteral("SASS"), QStringLiteral("PTX")});
}

// The instruction mix: instructions per class, in the hot loop and in the whole kernel.
void MachineCodeView::buildMixTable()
{
    m_mix = new QTableWidget(0, 3);
    m_mix->setHorizontalHeaderLabels(
        {QStringLiteral("Class"), QStringLiteral("Hot loop"), QStringLiteral("Kernel")});
    m_mix->verticalHeader()->hide();
    m_mix->verticalHeader()->setDefaultSectionSize(fontMetrics().height() +
                                                   6); // compact: every class in view
    m_mix->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_mix->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_mix->setObjectName(QStringLiteral("sassMix"));
    m_mix->setToolTip(QStringLiteral("Instructions per class, counted in the code shown above (hover a class "
                                     "for what it is). LDS/LDG/STS/STG by width; LDGSTS is cp.async."));
    m_mix->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
}

// The profile's part: its headline, the stall breakdown and the hottest instructions (a click
// scrolls the SASS to the instruction).
void MachineCodeView::buildProfileSection()
{
    m_noProfileText =
        QStringLiteral("No profile of this preset at this size yet: profile it to see which instructions "
                       "its time goes to.");
    m_profileLabel = new QLabel;
    m_profileLabel->setObjectName(QStringLiteral("sassProfileLabel"));
    m_profileLabel->setTextFormat(Qt::PlainText);
    m_profileLabel->setWordWrap(true);
    m_breakdown = new StallBreakdownBar;
    m_hotInstructions = new ProfileHotspotTable;
    m_hotInstructions->setObjectName(QStringLiteral("sassHotInstructions"));
    connect(m_hotInstructions, &ProfileHotspotTable::rowActivated, this, [this](const HotspotRow &row) {
        // The instruction's line in the SASS on screen, found by its offset.
        const MachineCode *shown = code();
        if (!shown || shown->level != CodeLevel::Sass || row.pc < 0)
            return;
        for (size_t i = 0; i < shown->lines.size(); ++i)
            if (sassLineOffset(QString::fromStdString(shown->lines[i].text)) == row.pc) {
                m_editor->scrollToLine(int(i));
                return;
            }
    });
}

QString MachineCodeView::levelName() const
{
    return m_levelName;
}

QString MachineCodeView::lineInfo() const
{
    return m_lineInfo->isHidden() ? QString() : m_lineInfo->text();
}

void MachineCodeView::setMachineCode(const QString &title, const QString &ptx, const QString &sass,
                                     const QString &sassUnavailable)
{
    m_ptx = parsePtx(ptx.toStdString());
    m_hasSass = !sass.isEmpty();
    m_nvdisasmSass = m_hasSass;
    m_sassFromProfile = false;
    m_sassUnavailable = sassUnavailable;
    m_sass = m_hasSass ? parseSass(sass.toStdString()) : MachineCode{CodeLevel::Sass, {}, std::nullopt};
    m_hasCode = true;
    m_header->setText(title);
    m_message->clear();
    m_message->hide();
    // Without SASS the PTX stands in, and the SASS entry cannot be chosen (its tooltip says why):
    // choosing it would leave the pane empty.
    QString why = sassUnavailable.trimmed();
    if (why.isEmpty())
        why = QStringLiteral("No SASS came with this compile.");
    if (!why.contains(QLatin1String("PTX is shown instead")))
        why += QStringLiteral(" The PTX is shown instead.");
    m_sassNote->setText(why);
    m_sassNote->setVisible(!m_hasSass);
    if (auto *model = qobject_cast<QStandardItemModel *>(m_levelCombo->model()))
        if (QStandardItem *sassItem = model->item(1)) {
            sassItem->setEnabled(m_hasSass);
            sassItem->setToolTip(m_hasSass ? QString() : why);
        }
    // SASS is what runs: show it when there is some.
    const QSignalBlocker block(m_levelCombo);
    m_levelCombo->setCurrentIndex(m_hasSass ? 1 : 0);
    showLevel();
    adoptProfileListing();
}

void MachineCodeView::adoptProfileListing()
{
    // Nothing to adopt and nothing adopted before: leave the code on screen as it is (a slider
    // tick passes here with no profile, and re-showing the listing would cost it milliseconds).
    if (!m_hasCode || m_nvdisasmSass || (!m_profile && !m_sassFromProfile))
        return;
    // The profiled kernel's instructions in offset order, written as nvdisasm -g writes them, so
    // that the SASS reader, the offsets and the source lines work as for nvdisasm's own listing.
    QString listing;
    if (m_profile) {
        const QString &function = m_profile->mainFunction;
        QMap<long long, const protocol::ProfileInstruction *> byOffset;
        for (const protocol::ProfileInstruction &i : m_profile->event.instructions)
            if (i.function == function && !i.sass.trimmed().isEmpty())
                byOffset.insert(i.pc, &i);
        QString file;
        int line = 0;
        for (const protocol::ProfileInstruction *i : byOffset) {
            if (i->line > 0 && (i->file != file || i->line != line)) {
                file = i->file;
                line = i->line;
                listing += QStringLiteral("        //## File \"%1\", line %2\n").arg(file).arg(line);
            }
            // One instruction per line whatever the recorded text holds.
            const QString text = i->sass.simplified();
            listing += QStringLiteral("        /*%1*/                   %2 ;\n")
                           .arg(QString::number(i->pc, 16).rightJustified(4, QLatin1Char('0')), text);
        }
    }
    const bool fromProfile = !listing.isEmpty();
    m_sassFromProfile = fromProfile;
    m_hasSass = fromProfile;
    m_sass = fromProfile ? parseSass(listing.toStdString()) : MachineCode{CodeLevel::Sass, {}, std::nullopt};
    QString why = m_sassUnavailable.trimmed();
    if (fromProfile) {
        // Not "No SASS: ..." above a SASS listing: say what this SASS is and what it lacks.
        why = QStringLiteral("This SASS is the profile's record of the kernel (nvdisasm, which would "
                             "disassemble the compile itself, is not installed here): the instructions "
                             "that ran, with their offsets and source lines, but no branch labels, so "
                             "the hot loop cannot be marked.");
    } else {
        if (why.isEmpty())
            why = QStringLiteral("No SASS came with this compile.");
        if (!why.contains(QLatin1String("PTX is shown instead")))
            why += QStringLiteral(" The PTX is shown instead.");
    }
    m_sassNote->setText(why.trimmed());
    m_sassNote->setVisible(!m_nvdisasmSass);
    if (auto *model = qobject_cast<QStandardItemModel *>(m_levelCombo->model()))
        if (QStandardItem *sassItem = model->item(1)) {
            sassItem->setEnabled(m_hasSass);
            sassItem->setToolTip(m_hasSass ? QString() : why);
        }
    const QSignalBlocker block(m_levelCombo);
    m_levelCombo->setCurrentIndex(m_hasSass ? 1 : 0);
    showLevel();
}

void MachineCodeView::setLoading(const QString &what)
{
    m_header->setText(what);
    m_message->setText(QStringLiteral("Compiling with -lineinfo…"));
    m_message->show();
}

void MachineCodeView::setMessage(const QString &sentence)
{
    m_hasCode = false;
    m_sassNote->hide();
    m_editor->clear();
    m_editor->setLineHeat({});
    m_mix->setRowCount(0);
    m_summary->clear();
    m_lineInfo->clear();
    m_message->setText(sentence);
    m_message->show();
}

CodeLevel MachineCodeView::level() const
{
    return CodeLevel(m_levelCombo->currentData().toInt());
}

void MachineCodeView::setLevel(CodeLevel level)
{
    if (level == CodeLevel::Sass && m_hasCode && !m_hasSass)
        return; // the PTX stands in, as the note says
    m_levelCombo->setCurrentIndex(level == CodeLevel::Sass ? 1 : 0);
}

QString MachineCodeView::shownText() const
{
    return m_editor->toPlainText();
}

QString MachineCodeView::summaryText() const
{
    return m_summary->text();
}

QString MachineCodeView::sassNote() const
{
    return m_sassNote->isHidden() ? QString() : m_sassNote->text();
}

QString MachineCodeView::message() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

const MachineCode *MachineCodeView::code() const
{
    if (!m_hasCode)
        return nullptr;
    if (level() == CodeLevel::Sass)
        return m_hasSass ? &m_sass : nullptr;
    return &m_ptx;
}

int MachineCodeView::mixCount(const QString &category, bool innerLoop) const
{
    for (int r = 0; r < m_mix->rowCount(); ++r)
        if (m_mix->item(r, 0)->data(Qt::UserRole).toString() == category)
            return m_mix->item(r, innerLoop ? 1 : 2)->text().toInt();
    return 0;
}

void MachineCodeView::showLevel()
{
    if (!m_hasCode)
        return;
    if (level() == CodeLevel::Sass && !m_hasSass) { // never left showing nothing
        const QSignalBlocker block(m_levelCombo);
        m_levelCombo->setCurrentIndex(0);
    }
    const MachineCode *shown = code();
    if (!shown)
        return;
    const QString name = shown->level == CodeLevel::Sass ? QStringLiteral("SASS") : QStringLiteral("PTX");
    if (name != m_levelName) {
        m_levelName = name;
        emit levelNameChanged(name);
    }
    m_placingCursor = true; // new text: no line is chosen yet
    m_editor->setPlainText(joinText(*shown));
    m_placingCursor = false;
    m_lineInfo->clear();
    m_lineInfo->hide();
    fillMix(*shown);
    highlightLoop(*shown);
    applyHeat();
}

void MachineCodeView::fillMix(const MachineCode &code)
{
    const auto loop = instructionMix(code, true);
    const auto all = instructionMix(code, false);
    m_mix->setRowCount(0);
    for (const QString &category : mixOrder()) {
        const int inLoop = countOf(loop, category), total = countOf(all, category);
        if (total == 0)
            continue;
        const int row = m_mix->rowCount();
        m_mix->insertRow(row);
        // In PTX the class reads as written there, with the SASS class it becomes.
        const QString ptx = code.level == CodeLevel::Ptx ? ptxName(category) : QString();
        auto *name =
            new QTableWidgetItem(ptx.isEmpty() ? category : QStringLiteral("%1 (→ %2)").arg(ptx, category));
        name->setData(Qt::UserRole, category);
        name->setToolTip(classMeaning(category));
        m_mix->setItem(row, 0, name);
        // Without a loop found the column has nothing to count: a dash, not a measured 0.
        auto *loopCell = new QTableWidgetItem(code.innerLoop ? QString::number(inLoop) : QStringLiteral("—"));
        if (!code.innerLoop)
            loopCell->setToolTip(QStringLiteral("No loop was found in this listing."));
        m_mix->setItem(row, 1, loopCell);
        m_mix->setItem(row, 2, new QTableWidgetItem(QString::number(total)));
        for (int c : {1, 2})
            m_mix->item(row, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    fitMixHeight();
    const QString levelName = code.level == CodeLevel::Sass ? QStringLiteral("SASS") : QStringLiteral("PTX");
    if (!code.innerLoop) {
        m_summary->setText(
            m_sassFromProfile && code.level == CodeLevel::Sass
                ? QStringLiteral("SASS from the profile: its branches have no labels, so the hot loop is not "
                                 "marked; the counts are over the whole kernel.")
                : QStringLiteral("%1: no loop found (a kernel without a backward branch).").arg(levelName));
        return;
    }
    const int hgmma = countOf(loop, QStringLiteral("HGMMA")), hmma = countOf(loop, QStringLiteral("HMMA"));
    if (hgmma + hmma > 0) { // a tensor-core loop: its instructions, what feeds them, how it waits
        QStringList parts;
        const auto add = [&](const QString &category, const QString &what, bool evenIfNone = false) {
            if (const int n = countOf(loop, category); n > 0 || evenIfNone)
                parts << QStringLiteral("%1 %2").arg(n).arg(what);
        };
        add(QStringLiteral("HGMMA"), QStringLiteral("HGMMA (wgmma)"));
        add(QStringLiteral("HMMA"), QStringLiteral("HMMA (mma.sync)"));
        add(QStringLiteral("LDSM"), QStringLiteral("LDSM (ldmatrix)"));
        parts << QStringLiteral("%1 other shared loads")
                     .arg(countOf(loop, QStringLiteral("LDS.128")) + countOf(loop, QStringLiteral("LDS.64")) +
                          countOf(loop, QStringLiteral("LDS")));
        add(QStringLiteral("UTMALDG"), QStringLiteral("TMA copies"));
        add(QStringLiteral("LDGSTS"), QStringLiteral("cp.async copies"));
        add(QStringLiteral("SYNCS"), QStringLiteral("mbarrier operations"));
        add(QStringLiteral("BAR"), QStringLiteral("barrier(s)"), true);
        m_summary->setText(QStringLiteral("%1 hot loop (lines %2-%3): %4.")
                               .arg(levelName)
                               .arg(code.innerLoop->first + 1)
                               .arg(code.innerLoop->last + 1)
                               .arg(parts.join(QStringLiteral(", "))));
        return;
    }
    const int ffma = countOf(loop, QStringLiteral("FFMA"));
    const int lds128 = countOf(loop, QStringLiteral("LDS.128"));
    const int sharedLoads =
        lds128 + countOf(loop, QStringLiteral("LDS.64")) + countOf(loop, QStringLiteral("LDS"));
    const bool ptx = code.level == CodeLevel::Ptx;
    QString text = QStringLiteral("%1 hot loop (lines %2-%3): %4 %5, %6 shared loads")
                       .arg(levelName)
                       .arg(code.innerLoop->first + 1)
                       .arg(code.innerLoop->last + 1)
                       .arg(ffma)
                       .arg(ptx ? QStringLiteral("fma (FFMA)") : QStringLiteral("FFMA"))
                       .arg(sharedLoads);
    if (sharedLoads > 0)
        text += QStringLiteral(" (%1 FFMA per shared load; %2 % of them 128-bit%3)")
                    .arg(double(ffma) / sharedLoads, 0, 'f', 1)
                    .arg(100.0 * lds128 / sharedLoads, 0, 'f', 0)
                    .arg(ptx ? QStringLiteral(" in the PTX") : QString());
    text += QStringLiteral(", %1 barrier(s).").arg(countOf(loop, QStringLiteral("BAR")));
    // The counts are the PTX's: the SASS the GPU runs may differ, and Counters measures that one.
    if (ptx && sharedLoads > lds128)
        text += QStringLiteral(" The compiler (ptxas) may merge neighbouring shared loads into wider "
                               "LDS.64/LDS.128 in the SASS, which is what Counters measures.");
    m_summary->setText(text);
}

void MachineCodeView::fitMixHeight()
{
    // As tall as its rows (the header and a frame included): no scroll bar beside empty space.
    m_mix->resizeColumnsToContents();
    int height = m_mix->horizontalHeader()->sizeHint().height() + 2 * m_mix->frameWidth();
    for (int r = 0; r < m_mix->rowCount(); ++r)
        height += m_mix->rowHeight(r);
    m_mix->setMinimumHeight(std::min(height, 16 * m_mix->verticalHeader()->defaultSectionSize()));
}

void MachineCodeView::highlightLoop(const MachineCode &code)
{
    QList<QTextEdit::ExtraSelection> selections;
    m_loopKey->clear();
    if (code.innerLoop) {
        QTextEdit::ExtraSelection loop;
        const QTextBlock first = m_editor->document()->findBlockByNumber(code.innerLoop->first);
        const QTextBlock last = m_editor->document()->findBlockByNumber(code.innerLoop->last);
        QTextCursor cursor(first);
        cursor.setPosition(last.position() + last.length() - 1, QTextCursor::KeepAnchor);
        loop.cursor = cursor;
        loop.format.setBackground(palette().color(QPalette::AlternateBase).darker(108));
        selections << loop;
        m_loopKey->setText(QStringLiteral("Shaded grey: the hot loop (lines %1-%2), the innermost loop the "
                                          "kernel spends its time in; the class table counts it apart.")
                               .arg(code.innerLoop->first + 1)
                               .arg(code.innerLoop->last + 1));
        // Open at the loop's first instruction: that is what the reader came for.
        int line = code.innerLoop->first;
        while (line < code.innerLoop->last && !code.lines[size_t(line)].isInstruction)
            ++line;
        QTextCursor at(m_editor->document()->findBlockByNumber(line));
        m_placingCursor = true; // the view placed the cursor, not the user
        m_editor->setTextCursor(at);
        m_editor->centerCursor();
        m_placingCursor = false;
    }
    m_loopKey->setVisible(!m_loopKey->text().isEmpty());
    m_editor->setExtraSelections(selections);
}

void MachineCodeView::reportCursorLine()
{
    const MachineCode *shown = code();
    const int line = m_editor->textCursor().blockNumber();
    if (!shown || line < 0 || line >= int(shown->lines.size())) {
        m_lineInfo->clear();
        m_lineInfo->hide();
        return;
    }
    const CodeLine &l = shown->lines[size_t(line)];
    if (!l.isInstruction) {
        m_lineInfo->clear();
        m_lineInfo->hide();
        return;
    }
    // The line under the code speaks only of a line the user put the cursor on (the view opening
    // at the hot loop is no choice of theirs); the Source tab follows either way.
    m_lineInfo->setVisible(!m_placingCursor);
    const QString file = QFileInfo(QString::fromStdString(l.sourceFile)).fileName();
    m_lineInfo->setText(
        l.sourceLine > 0
            ? QStringLiteral("At the cursor (line %1): %2 (%3) from %4, line %5")
                  .arg(line + 1)
                  .arg(QString::fromStdString(l.opcode), QString::fromStdString(l.category), file)
                  .arg(l.sourceLine)
            : QStringLiteral("At the cursor (line %1): %2 (%3), no source line recorded")
                  .arg(line + 1)
                  .arg(QString::fromStdString(l.opcode), QString::fromStdString(l.category)));
    if (l.sourceLine > 0)
        emit sourceLineRequested(file, l.sourceLine);
}

void MachineCodeView::setProfile(const protocol::ProfileEvent *profile)
{
    setProfileDigest(profile ? digestOf(*profile) : nullptr);
}

void MachineCodeView::setProfileDigest(std::shared_ptr<const ProfileDigest> profile)
{
    if (profile && profile == m_profile)
        return;
    m_profile = std::move(profile);
    adoptProfileListing(); // before the heat: it may give the heat its lines
    applyProfile();
}

void MachineCodeView::setNoProfileText(const QString &sentence)
{
    m_noProfileText = sentence;
    if (!m_profile) // with a profile the sentence waits: shown again, the table would be rebuilt
        applyProfile();
}

QString MachineCodeView::profileText() const
{
    return m_profileLabel->text();
}

void MachineCodeView::applyProfile()
{
    if (!m_profile) {
        m_profileLabel->setText(m_noProfileText);
        m_breakdown->hide();
        m_hotInstructions->setRows({});
        m_hotInstructions->hide();
        m_editor->setLineHeat({});
        return;
    }
    const protocol::ProfileEvent &p = m_profile->event;
    const StallBreakdown &breakdown = m_profile->breakdown;
    if (!p.stallsError.isEmpty())
        m_breakdown->setMessage(QStringLiteral("No stall samples: %1").arg(p.stallsError));
    else
        m_breakdown->setBreakdown(breakdown,
                                  QStringLiteral("Where the time goes: %1 PC samples over the kernel")
                                      .arg(QLocale().toString(breakdown.totalSamples, 'f', 0)));
    m_breakdown->show();
    // Every instruction of the profile when it covers several kernels (a transpose launched with
    // the GEMM), each named; else the kernel's alone (the digest chose).
    m_hotInstructions->setRows(m_profile->instructionRows);
    m_hotInstructions->setVisible(!p.instructions.isEmpty());
    applyHeat();
    // Open at the hottest instruction: that is what the reader came for.
    const auto &lineHeat = m_editor->lineHeat();
    int hottest = -1;
    for (auto it = lineHeat.constBegin(); it != lineHeat.constEnd(); ++it)
        if (hottest < 0 || it->share > lineHeat.value(hottest).share)
            hottest = it.key();
    if (hottest >= 0)
        m_editor->scrollToLine(hottest);
}

void MachineCodeView::applyHeat()
{
    m_heatNote.clear();
    QHash<int, CodeHeatEdit::LineHeat> lineHeat;
    const MachineCode *shown = code();
    if (m_profile && shown && shown->level == CodeLevel::Sass) {
        const QString &function = m_profile->mainFunction;
        QHash<long long, const InstructionHeat *> byOffset;
        const QList<InstructionHeat> &heat = m_profile->heat;
        double hottest = 0;
        for (const InstructionHeat &h : heat)
            if (h.instruction->function == function) {
                byOffset.insert(h.instruction->pc, &h);
                hottest = std::max(hottest, h.share);
            }
        int matched = 0, differing = 0;
        for (size_t line = 0; line < shown->lines.size(); ++line) {
            const CodeLine &l = shown->lines[line];
            if (!l.isInstruction)
                continue;
            const auto offset = sassLineOffset(QString::fromStdString(l.text));
            const InstructionHeat *h = offset ? byOffset.value(*offset) : nullptr;
            if (!h)
                continue;
            // The profiled binary and the disassembly shown must be the same code: compare opcodes.
            QString sass = h->instruction->sass.trimmed();
            if (sass.startsWith(QLatin1Char('@')))
                sass = sass.section(QLatin1Char(' '), 1).trimmed();
            if (!sass.isEmpty() && sass.section(QLatin1Char(' '), 0, 0) != QString::fromStdString(l.opcode))
                ++differing;
            ++matched;
            if (h->samples <= 0)
                continue;
            CodeHeatEdit::LineHeat lh;
            lh.share = h->share;
            lh.heat = hottest > 0 ? h->share / hottest : 0.0;
            const QString share = shareText(h->share);
            lh.label = h->reasons.isEmpty()
                           ? share
                           : QStringLiteral("%1 %2").arg(share, stallReasonName(h->reasons.first().key));
            QStringList tip{QStringLiteral("%1: %2 % of the kernel's samples")
                                .arg(h->instruction->sass.isEmpty() ? QString::fromStdString(l.opcode)
                                                                    : h->instruction->sass)
                                .arg(QString::number(100.0 * h->share, 'f', 1))};
            for (const ReasonShare &r : h->reasons)
                tip << QStringLiteral("  %1 %  %2")
                           .arg(QString::number(100.0 * r.share, 'f', 1), stallReasonWithCupti(r.key));
            lh.tooltip = tip.join(QLatin1Char('\n'));
            if (!h->reasons.isEmpty())
                lh.reasonColor = stallReasonColor(h->reasons.first().key);
            lineHeat.insert(int(line), lh);
        }
        if (matched == 0)
            m_heatNote =
                QStringLiteral(" No instruction of the SASS shown has the profiled kernel's offsets: press "
                               "Disassemble for this preset to see its heat.");
        else if (differing * 10 > matched) {
            m_heatNote =
                QStringLiteral(" The SASS shown is not the profiled binary (%1 of %2 instructions differ): "
                               "its heat is not shown; the table below stands.")
                    .arg(differing)
                    .arg(matched);
            lineHeat.clear();
        }
    }
    m_editor->setLineHeat(lineHeat);
    if (m_profile) {
        const protocol::ProfileEvent &p = m_profile->event;
        QString text = QStringLiteral("Profile of %1 at %2 on %3.")
                           .arg(p.stage.isEmpty() ? QStringLiteral("this preset") : p.stage,
                                squareOrFullSizeText(p.size),
                                p.gpu.name.isEmpty() ? QStringLiteral("an unnamed GPU") : p.gpu.name);
        if (shown && shown->level == CodeLevel::Ptx)
            text += QStringLiteral(" Its heat is shown on the SASS (PTX has no offsets to match).");
        if (p.samplingBufferFull)
            text += QStringLiteral(" The sampling buffer overflowed: some samples were lost.");
        m_profileLabel->setText(text + m_heatNote);
    }
}

} // namespace gemmscope
