#include "kernel_editor.h"

#include "plain_text.h"

#include <Qsci/qscilexercpp.h>

#include <QEvent>
#include <QFontDatabase>
#include <QHelpEvent>
#include <QToolTip>

namespace gemmscope {

namespace {

// C++ as QScintilla knows it, with CUDA's own words as the second keyword set: what a kernel
// declares and reads (qualifiers, built-in variables, intrinsics) stands out from ordinary names.
class CudaLexer : public QsciLexerCPP {
public:
    using QsciLexerCPP::QsciLexerCPP;
    const char *keywords(int set) const override
    {
        if (set == 2)
            return "__global__ __device__ __host__ __shared__ __constant__ __managed__ __restrict__ "
                   "__forceinline__ __noinline__ __launch_bounds__ __align__ __grid_constant__ "
                   "__syncthreads __syncwarp __threadfence __threadfence_block __shfl_sync "
                   "__shfl_down_sync __shfl_xor_sync __ldg __fmaf_rn __float2half "
                   "threadIdx blockIdx blockDim gridDim warpSize "
                   "float2 float4 int2 int4 dim3 half nv_bfloat16";
        return QsciLexerCPP::keywords(set);
    }
};

constexpr int kMarkerMargin = 1;
constexpr int kAnnotationErrorStyle = 120; // styles past the lexer's own
constexpr int kAnnotationWarningStyle = 121;

} // namespace

KernelEditor::KernelEditor(QWidget *parent) : QsciScintilla(parent)
{
    setUtf8(true);
    setUpLook();
    setBraceMatching(QsciScintilla::SloppyBraceMatch);
    setAutoIndent(true);
    setIndentationsUseTabs(false);
    setTabWidth(4);
    setEolMode(QsciScintilla::EolUnix);
    setCaretLineVisible(true);
    // The horizontal scroll bar as wide as the longest line seen, not Scintilla's fixed 2000 px
    // (a bar under every kernel that has nothing to scroll).
    SendScintilla(SCI_SETSCROLLWIDTH, 1);
    SendScintilla(SCI_SETSCROLLWIDTHTRACKING, 1);
    setCaretLineBackgroundColor(palette().color(QPalette::AlternateBase));

    // Margin 0: line numbers; margin 1: one marker per line with a problem.
    setMarginType(0, QsciScintilla::NumberMargin);
    setMarginLineNumbers(0, true);
    setMarginWidth(0, QStringLiteral("00000"));
    setMarginType(kMarkerMargin, QsciScintilla::SymbolMargin);
    setMarginWidth(kMarkerMargin, 16);
    setMarginMarkerMask(kMarkerMargin, (1 << kErrorMarker) | (1 << kWarningMarker));
    setMarginMarkerMask(0, 0);
    markerDefine(QsciScintilla::Circle, kErrorMarker);
    setMarkerBackgroundColor(QColor(0xd6, 0x27, 0x28), kErrorMarker);
    setMarkerForegroundColor(QColor(0x8b, 0x00, 0x00), kErrorMarker);
    markerDefine(QsciScintilla::RightTriangle, kWarningMarker);
    setMarkerBackgroundColor(QColor(0xe6, 0xa1, 0x00), kWarningMarker);
    setMarkerForegroundColor(QColor(0x8a, 0x5a, 0x00), kWarningMarker);

    m_errorIndicator = indicatorDefine(QsciScintilla::SquiggleIndicator);
    setIndicatorForegroundColor(QColor(0xd6, 0x27, 0x28), m_errorIndicator);
    m_warningIndicator = indicatorDefine(QsciScintilla::SquiggleIndicator);
    setIndicatorForegroundColor(QColor(0xc8, 0x8a, 0x00), m_warningIndicator);

    setAnnotationDisplay(QsciScintilla::AnnotationBoxed);
    const QFont font = this->font();
    SendScintilla(SCI_STYLESETFORE, kAnnotationErrorStyle, QColor(0x8b, 0x00, 0x00));
    SendScintilla(SCI_STYLESETBACK, kAnnotationErrorStyle, QColor(0xfd, 0xec, 0xea));
    SendScintilla(SCI_STYLESETFORE, kAnnotationWarningStyle, QColor(0x6b, 0x4a, 0x00));
    SendScintilla(SCI_STYLESETBACK, kAnnotationWarningStyle, QColor(0xfd, 0xf6, 0xe3));
    for (int style : {kAnnotationErrorStyle, kAnnotationWarningStyle}) {
        SendScintilla(SCI_STYLESETFONT, style, font.family().toUtf8().constData());
        SendScintilla(SCI_STYLESETSIZE, style, std::max(6, font.pointSize() - 1));
    }
}

void KernelEditor::setUpLook()
{
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setStyleHint(QFont::Monospace);
    auto *lexer = new CudaLexer(this);
    lexer->setDefaultFont(mono);
    lexer->setFont(mono, -1); // every style
    lexer->setColor(QColor(0x7b, 0x1f, 0xa2), QsciLexerCPP::KeywordSet2);
    QFont bold = mono;
    bold.setBold(true);
    lexer->setFont(bold, QsciLexerCPP::KeywordSet2);
    setLexer(lexer);
    setFont(mono);
    setMarginsFont(mono);
}

void KernelEditor::setHeaderReadOnly(bool readOnly)
{
    setReadOnly(readOnly);
    const QColor paper = readOnly ? palette().color(QPalette::Window) : palette().color(QPalette::Base);
    if (QsciLexer *l = lexer())
        l->setPaper(paper, -1);
    setCaretLineVisible(!readOnly);
}

void KernelEditor::setProblems(const QList<KernelProblem> &problems)
{
    markerDeleteAll(kErrorMarker);
    markerDeleteAll(kWarningMarker);
    clearAnnotations();
    const int lastLine = std::max(0, lines() - 1);
    clearIndicatorRange(0, 0, lastLine, lineLength(lastLine), m_errorIndicator);
    clearIndicatorRange(0, 0, lastLine, lineLength(lastLine), m_warningIndicator);
    m_problems = problems;
    m_problemsByLine.clear();
    for (int i = 0; i < m_problems.size(); ++i)
        if (m_problems[i].line > 0)
            m_problemsByLine[std::min(m_problems[i].line - 1, lastLine)].append(i);

    for (auto it = m_problemsByLine.cbegin(); it != m_problemsByLine.cend(); ++it) {
        const int line = it.key();
        bool error = false;
        QStringList messages;
        for (int i : it.value()) {
            error |= m_problems[i].severity == KernelProblem::Severity::Error;
            messages << m_problems[i].message;
        }
        markerAdd(line, error ? kErrorMarker : kWarningMarker);
        annotate(line, messages.join(QLatin1Char('\n')),
                 error ? kAnnotationErrorStyle : kAnnotationWarningStyle);
        // The squiggle under the line's text (its indentation left out).
        const int length = lineLength(line);
        const QString content = text(line);
        int from = 0;
        while (from < content.size() && content[from].isSpace())
            ++from;
        if (from < length)
            fillIndicatorRange(line, from, line, length, error ? m_errorIndicator : m_warningIndicator);
    }
}

QString KernelEditor::problemTextAt(int line) const
{
    QStringList messages;
    for (int i : m_problemsByLine.value(line - 1))
        messages << (m_problems[i].severity == KernelProblem::Severity::Error ? tr("error: %1")
                                                                              : tr("warning: %1"))
                        .arg(m_problems[i].message);
    return messages.join(QLatin1Char('\n'));
}

bool KernelEditor::hasSource() const
{
    for (int line = 0; line < lines(); ++line)
        if (!text(line).trimmed().isEmpty())
            return true;
    return false;
}

void KernelEditor::goToLine(int line)
{
    const int target = std::clamp(line - 1, 0, std::max(0, lines() - 1));
    setCursorPosition(target, 0);
    ensureLineVisible(target);
    setFocus();
}

int KernelEditor::lineAtY(int y) const
{
    // Any x inside the text: a point over the margins still names the line it is beside.
    const long position =
        SendScintilla(SCI_POSITIONFROMPOINT,
                      static_cast<unsigned long>(marginWidth(0) + marginWidth(kMarkerMargin) + 4), long(y));
    return position < 0 ? -1 : int(SendScintilla(SCI_LINEFROMPOSITION, static_cast<unsigned long>(position)));
}

bool KernelEditor::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int line = lineAtY(help->pos().y());
        const QString text = line >= 0 ? problemTextAt(line + 1) : QString();
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), plainTextAsHtml(text), viewport());
        return true;
    }
    return QsciScintilla::viewportEvent(event);
}

} // namespace gemmscope
