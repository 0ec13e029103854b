// The Sweep tab's problem-size mode (issue 14 item 2): choose stages or presets (and cuBLAS), a
// shape (square, or the worklog's 8192:4096:6144 scaled), a range of sizes and a timing budget;
// Start, Cancel and Resume a size sweep on the same runner pool and journal as a parameter sweep
// (app/core/sweep_run.h: cells are (series, size), each journaled the moment it answers). The
// chart (size_sweep_chart.h) shows TFLOP/s against size with wave quantization marked. The form and
// run controls sit beside the chart, which keeps the page's height (issue 19); without a runner
// Start is off and says why. A RunView: the window exports the chart's print layout.
#pragma once

#include "run_view.h"
#include "size_sweep_summary.h"
#include "sweep_page_layout.h"
#include "sweep_record.h"

#include <QWidget>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;

namespace gemmscope {

class Session;
class SizeSweepChart;
class SweepRunControls;

class SizeSweepView : public QWidget, public RunView {
    Q_OBJECT
public:
    explicit SizeSweepView(Session *session, QWidget *parent = nullptr);
    ~SizeSweepView() override;

    QString viewName() const override { return tr("the problem-size plot"); }

    void setJournalDirectory(const QString &dir);
    QString journalDirectory() const { return m_journalDir; }
    void setRunnerTemplate(const QString &text, int count = 1);
    // Why the window cannot run anything now (see SweepView::setRunningOff); empty: nothing.
    void setRunningOff(const QString &why);
    QString startOffReason() const; // empty when Start is on

    // The form: which series (preset or stage keys) are checked, the sizes.
    void setSeries(const QStringList &keys);
    QStringList checkedSeries() const;
    void setSizes(SizeShape shape, long long from, long long to, bool midpoints);
    SweepSpec spec() const;

    bool start(QString *error = nullptr);
    bool resume(QString *error = nullptr);
    void cancel();
    bool isRunning() const;

    void showSweep(const SweepData &sweep);
    const std::optional<SweepData> &shownSweep() const { return m_shown; }
    const SizeSweepSummary &summary() const { return m_summary; }
    SizeSweepChart *chart() const { return m_chart; }
    QString statusText() const;
    // .png/.pdf/.svg the chart's print layout, .csv/.json the points.
    std::optional<QString> exportTo(const QString &path) override;

signals:
    void sweepStateChanged(bool running);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void buildForm();
    void updateStartState();
    QString emptyText() const;
    void refreshSweepList();
    void redraw();
    bool launch(SweepData sweep, QString *error);

    Session *m_session;
    QString m_journalDir;
    QString m_runningOff;
    SweepPage m_page;
    std::unique_ptr<SweepRunControls> m_controls; // Start / Cancel / Resume, progress, status, the run
    std::optional<SweepData> m_shown;
    SweepPlan m_plan;
    SizeSweepSummary m_summary;

    QListWidget *m_seriesList = nullptr;
    QComboBox *m_shape = nullptr, *m_from = nullptr, *m_to = nullptr, *m_sweeps = nullptr;
    QCheckBox *m_midpoints = nullptr;
    QSpinBox *m_budget = nullptr, *m_runnerCountBox = nullptr;
    QLineEdit *m_runners = nullptr;
    QLabel *m_status = nullptr;
    SizeSweepChart *m_chart = nullptr;
};

} // namespace gemmscope
