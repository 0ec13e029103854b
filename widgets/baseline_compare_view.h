// "Why not cuBLAS?": for a profile of the selected configuration and one of
// cuBLAS at the same size on the same GPU, paired bars of the kernel-wide limiters — achieved
// occupancy, issue-slot use, pipe use, L1/L2/DRAM throughput as % of peak, the top stall reasons'
// shares and the instruction mix — under a sentence naming the largest difference. Without one of
// the two profiles (or with two that cannot be compared) it says what to profile instead; a part
// that failed shows its error sentence beside what stands, and, under it, what the session says
// without a profile: the selected run beside cuBLAS as measured, and the traffic model's
// expectations (run_against_cublas_view.h).
#pragma once

#include "events.h"
#include "profile_analysis.h"
#include "run_view.h"

#include <QWidget>
#include <optional>

class QLabel;

namespace gemmscope {

class EmptyState;
class RunAgainstCublasView;

class BaselineCompareView : public QWidget, public RunView {
    Q_OBJECT

public:
    explicit BaselineCompareView(QWidget *parent = nullptr);

    // The selected configuration's profile and its name in the sentence ("fp32-tuned"); nullptr: none.
    void setProfile(const protocol::ProfileEvent *profile, const QString &name = {});
    // cuBLAS's profile at the same size on the same GPU (cublas_fp32, or cublas_tf32 for TF32
    // stages); nullptr: none yet.
    void setBaseline(const protocol::ProfileEvent *baseline, const QString &name = QStringLiteral("cuBLAS"));
    void setNoProfileText(const QString &sentence);  // "Profile this preset (Ctrl+...) to compare"
    void setNoBaselineText(const QString &sentence); // overrides "No cuBLAS profile at MxNxK ... yet"
    // The band over the comparison when it is not of the user's session ("The embedded H200
    // example, not your session: ..."); empty: none.
    void setReferenceNote(const QString &sentence);
    QString referenceNote() const;

    // What shows instead of the bars while there is nothing to compare: the sentence and, where
    // one is offered, its button (empty_state.h).
    EmptyState *emptyState() const { return m_empty; }
    // The selected run beside cuBLAS, shown while there is nothing to compare.
    RunAgainstCublasView *runFacts() const { return m_facts; }
    QString headline() const; // the sentence over the bars (or the empty state)
    // The differences by estimated cost, costliest first, one line each ("1. i-cache miss: about
    // 0.37 ms (4.2 %) — 0.40 ms against 30 µs; ... — pipelined.cuh:113"); empty: none to show.
    QString costList() const;
    QString notes() const; // the parts that failed, per profile
    const QList<LimiterRow> &rows() const { return m_comparison.rows; }
    bool comparing() const { return !m_comparison.rows.isEmpty(); }

    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QString viewName() const override { return tr("the Why-not-cuBLAS view"); }
    // The session's runs and the selection reach the run facts under the empty state.
    void setRuns(const QList<RunRecord> &runs) override;
    void runsAboutToChange() override;
    void runAdded(const QList<RunRecord> &runs, qsizetype index) override;
    void runChanged(const QList<RunRecord> &runs, qsizetype index) override;
    void setSelectedRun(const QString &runId, const RunRecord *run) override;

    static QColor candidateColor();
    static QColor baselineColor();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void refresh();
    int barsTop() const;
    int labelsHeight(int width) const; // the labels over the bars, as laid out at `width`

    std::optional<protocol::ProfileEvent> m_profile, m_baseline;
    QString m_name, m_baselineName = QStringLiteral("cuBLAS");
    QString m_noProfileText, m_noBaselineText;
    BaselineComparison m_comparison;
    EmptyState *m_empty;
    RunAgainstCublasView *m_facts;
    QLabel *m_reference;
    QLabel *m_headline;
    QLabel *m_costs;
    QLabel *m_notes;
};

} // namespace gemmscope
