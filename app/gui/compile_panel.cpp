#include "compile_panel.h"

#include "compile_job.h"
#include "occupancy_limiter.h"
#include "plain_text.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace gemmscope {

CompilePanel::CompilePanel(QWidget *parent)
    : QWidget(parent), m_heading(new QLabel(this)), m_table(new QLabel(this)), m_log(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("compilePanel"));
    m_heading->setWordWrap(true);
    m_heading->setTextFormat(Qt::PlainText);
    m_table->setTextFormat(Qt::RichText);
    m_table->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_log->setObjectName(QStringLiteral("ptxasLog"));
    m_log->setReadOnly(true);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setPlaceholderText(tr("The ptxas log of the compile appears here."));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_heading);
    layout->addWidget(m_table);
    auto *logTitle = new QLabel(tr("ptxas log"), this);
    QFont bold = logTitle->font();
    bold.setBold(true);
    logTitle->setFont(bold);
    layout->addWidget(logTitle);
    layout->addWidget(m_log, 1);
    showMessage(tr("Nothing compiled yet. Compile (Ctrl+B) compiles the configured stage with NVRTC, no GPU "
                   "needed, and shows its registers, spills, shared memory and occupancy here."));
}

void CompilePanel::showCompiled(const QString &what, const protocol::CompiledInfo &c)
{
    m_heading->setText(tr("Compiled %1 (%2)").arg(what, c.kernel));
    m_rows.clear();
    m_rows << qMakePair(tr("Architecture"), c.arch);
    m_rows << qMakePair(tr("Registers per thread"),
                        c.registers >= 0 ? QString::number(c.registers) : tr("unknown"));
    m_rows << qMakePair(tr("Spills"),
                        c.spillStoreBytes + c.spillLoadBytes == 0
                            ? tr("none")
                            : tr("%1 B stored, %2 B loaded").arg(c.spillStoreBytes).arg(c.spillLoadBytes));
    m_rows << qMakePair(tr("Stack frame"), tr("%1 B").arg(c.stackFrameBytes));
    m_rows << qMakePair(tr("Shared memory per block"),
                        CompileJob::smemText(c.staticSmemBytes, c.dynamicSmemBytes));
    m_limiter = limiterWords(occupancyLimiter(c));
    if (c.occupancy) {
        m_rows << qMakePair(tr("Occupancy"),
                            tr("%1 % (%2 of %3 warps per SM, %n block(s))", nullptr, c.occupancy->blocksPerSm)
                                .arg(c.occupancy->fraction * 100, 0, 'f', 0)
                                .arg(c.occupancy->activeWarps)
                                .arg(c.occupancy->maxWarps));
        m_rows << qMakePair(tr("Limited by"), m_limiter.isEmpty() ? tr("unknown") : m_limiter);
        // The model's whole sentence: every resource that binds, with its numbers.
        m_rows << qMakePair(tr("Why"), c.occupancy->explanation);
    } else {
        m_rows << qMakePair(tr("Occupancy"),
                            c.occupancyNote.isEmpty()
                                ? tr("unknown: GemmScope has no datasheet for this architecture")
                                : c.occupancyNote);
    }
    m_log->setPlainText(c.ptxasLog);
    render();
}

void CompilePanel::showCompiling(const QString &what)
{
    m_heading->setText(tr("Compiling %1…").arg(what));
    m_rows.clear();
    m_limiter.clear();
    m_log->clear();
    render();
}

void CompilePanel::showMessage(const QString &text, const QString &log)
{
    m_heading->setText(text);
    m_rows.clear();
    m_limiter.clear();
    m_log->setPlainText(log);
    render();
}

QString CompilePanel::log() const
{
    return m_log->toPlainText();
}

QString CompilePanel::message() const
{
    return m_heading->text();
}

void CompilePanel::render()
{
    // Values from the runner (a kernel's name, a note) are text, never markup.
    QString html = QStringLiteral("<table cellspacing=0 cellpadding=3>");
    for (const auto &[quantity, value] : std::as_const(m_rows))
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(quantity.toHtmlEscaped(), value.toHtmlEscaped());
    html += QStringLiteral("</table>");
    m_table->setText(html);
    m_table->setVisible(!m_rows.isEmpty());
}

} // namespace gemmscope
