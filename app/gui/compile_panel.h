// The Kernel workspace's Compile tab: the last compile's report (Ctrl+B) as a view that stays —
// registers, spills, shared memory (static + dynamic), occupancy with its one limiter (the same
// function as the results table's, occupancy_limiter.h) and the ptxas log. The status bar only
// says that a compile ended.
#pragma once

#include "events.h"

#include <QList>
#include <QPair>
#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace gemmscope {

class CompilePanel : public QWidget {
    Q_OBJECT
public:
    explicit CompilePanel(QWidget *parent = nullptr);

    // `what`: the stage and the architecture built ("Coalesced cooperative loads for sm_90").
    void showCompiled(const QString &what, const protocol::CompiledInfo &compiled);
    void showCompiling(const QString &what);
    // A failure's sentence (and the compiler's log, shown where a compile's ptxas log is), or why
    // there is nothing yet.
    void showMessage(const QString &text, const QString &log = {});

    // What is shown, for the tests: (quantity, value) rows, the limiter, the log, the message.
    const QList<QPair<QString, QString>> &rows() const { return m_rows; }
    QString limiter() const { return m_limiter; }
    QString log() const;
    QString message() const;

private:
    void render();

    QLabel *m_heading;
    QLabel *m_table;
    QPlainTextEdit *m_log;
    QList<QPair<QString, QString>> m_rows;
    QString m_limiter;
};

} // namespace gemmscope
