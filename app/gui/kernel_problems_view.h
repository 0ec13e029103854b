// The problems list under the kernel editor: the parameter block's and the source checks'
// problems as the user types, and the last compile's, one row each (severity, file, line,
// message). Clicking a row asks to show its line. A problem's text is plain: markup in a compiler
// message is shown as written.
#pragma once

#include "compile_log_problems.h"

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace gemmscope {

class KernelProblemsView : public QWidget {
    Q_OBJECT
public:
    explicit KernelProblemsView(QWidget *parent = nullptr);

    // `heading`: what the list is about ("my_gemm.cuh: 2 errors · last compile: none").
    void setProblems(const QList<KernelProblem> &problems, const QString &heading);
    int count() const;
    QTreeWidget *list() const { return m_list; }

signals:
    void problemActivated(const QString &file, int line);

private:
    QLabel *m_heading;
    QTreeWidget *m_list;
};

} // namespace gemmscope
