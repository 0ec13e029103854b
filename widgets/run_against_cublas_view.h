// The selected run beside the cuBLAS run of its precision at the same size and GPU, as measured,
// with the analytic traffic model's expectations (app/core/run_against_cublas.h): time, TFLOP/s,
// DRAM and L2 traffic and intensity, registers, occupancy. It needs no profile: the Counters tab
// shows it under the access table, and "Why not cuBLAS?" while it has no profile to compare.
#pragma once

#include "cublas_index.h"
#include "run_view.h"

#include <QWidget>
#include <optional>

class QLabel;

namespace gemmscope {

class RunAgainstCublasView : public QWidget, public RunView {
    Q_OBJECT

public:
    explicit RunAgainstCublasView(QWidget *parent = nullptr);

    // The bold line over the sentence ("Time and traffic against cuBLAS"); empty: none.
    void setTitle(const QString &title);

    void setRuns(const QList<RunRecord> &runs) override;
    void runsAboutToChange() override { m_runs = {}; }
    void runAdded(const QList<RunRecord> &runs, qsizetype index) override;
    void runChanged(const QList<RunRecord> &runs, qsizetype index) override;
    void setSelectedRun(const QString &runId, const RunRecord *run) override;
    QString viewName() const override { return tr("the run-against-cuBLAS table"); }

    const RunAgainstCublas &facts() const { return m_facts; }
    QString text() const; // what is shown, as plain text (tests)

private:
    void takeRun(const QList<RunRecord> &runs, qsizetype index);
    void refresh();

    QList<RunRecord> m_runs; // the session's, shared; let go of before each change
    CublasIndex m_cublas;    // its cuBLAS runs: a selection looks its pair up, not through every run
    std::optional<RunRecord> m_run;
    QString m_title;
    RunAgainstCublas m_facts;
    QLabel *m_label; // the title and the sentence
    QWidget *m_bars; // the measured pairs as bars
    QLabel *m_table; // every row, with the model's column, and the footnote
};

} // namespace gemmscope
