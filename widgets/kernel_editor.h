// A CUDA kernel's source in a real code editor (QScintilla): C++ highlighting with CUDA's words
// (__global__, __shared__, __syncthreads, threadIdx, ...), line numbers, a margin whose markers say
// which lines have problems, undo/redo, brace matching, a monospace font. setProblems() marks each
// problem's line (a marker, the message under the line, a squiggle, the message as the line's
// tooltip) and clears the marks of the call before. A project header opened beside a kernel is
// read-only: it can be read and searched, not changed.
#pragma once

#include "compile_log_problems.h"

#include <Qsci/qsciscintilla.h>

#include <QList>
#include <QMap>

namespace gemmscope {

class KernelEditor : public QsciScintilla {
    Q_OBJECT
public:
    // The marker numbers of a problem's severity (markersAtLine() & (1 << number)).
    static constexpr int kErrorMarker = 1;
    static constexpr int kWarningMarker = 2;

    explicit KernelEditor(QWidget *parent = nullptr);

    // Marks each problem at its 1-based line (lines past the end on the last one; line 0, the
    // whole program, gets no mark); the marks of the previous call go.
    void setProblems(const QList<KernelProblem> &problems);
    const QList<KernelProblem> &problems() const { return m_problems; }
    // The messages of the problems at a 1-based line, one per line; empty: none.
    QString problemTextAt(int line) const;

    // Read-only for an included header: the text cannot change, the paper is tinted so it reads
    // as such.
    void setHeaderReadOnly(bool readOnly);

    // Whether there is anything but white space to compile (a kernel whose text was all deleted has
    // none). Reads lines until the first that is not blank: a kernel's first line, as a rule.
    bool hasSource() const;

    // Puts the cursor at the start of a 1-based line and shows it.
    void goToLine(int line);

protected:
    bool viewportEvent(QEvent *event) override;

private:
    void setUpLook();
    int lineAtY(int y) const; // 0-based; -1 past the text

    QList<KernelProblem> m_problems;
    QMap<int, QList<int>> m_problemsByLine; // 0-based line -> indices into m_problems
    int m_errorIndicator = -1;
    int m_warningIndicator = -1;
};

} // namespace gemmscope
