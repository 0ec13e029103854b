// Test and benchmark helper: a SweepControl that runs nothing. The caller starts a sweep (begin)
// and answers its runs (answer) as a runner pool would; a Sweep view follows it as it follows the
// window's controller. With no session and no runner, what is measured is the view's own work per
// answered run.
#pragma once

#include "sweep_control.h"

#include <optional>

namespace gemmscope::test {

class ScriptedSweepControl : public SweepControl {
public:
    explicit ScriptedSweepControl(SweepKind kind) : m_kind(kind) {}

    // The sweep starts with the runs it has (a resumed one) and runs until end().
    void begin(const SweepData &sweep)
    {
        m_running = sweep;
        emit runningChanged(true);
    }
    void answer(const RunRecord &run)
    {
        m_running->runs.append(run);
        emit runningSweepChanged();
    }
    void end()
    {
        const SweepData sweep = *m_running;
        m_running.reset();
        emit sweepEnded(sweep);
        emit runningChanged(false);
    }

    SweepKind kind() const override { return m_kind; }
    Session *session() const override { return nullptr; }
    void setJournalDirectory(const QString &dir) override { m_journalDir = dir; }
    QString journalDirectory() const override { return m_journalDir; }
    void setRunners(const QString &runnerTemplate, int count) override
    {
        m_template = runnerTemplate;
        m_count = count;
    }
    QString runnerTemplate() const override { return m_template; }
    int runnerCount() const override { return m_count; }
    void setRunningOff(const QString &) override {}
    QString startOffReason() const override { return {}; }
    bool start(const SweepSpec &, QString *error) override { return refuse(error); }
    bool resume(const SweepData *, QString *error) override { return refuse(error); }
    void cancel() override {}
    bool isRunning() const override { return m_running.has_value(); }
    const SweepData *runningSweep() const override { return m_running ? &*m_running : nullptr; }
    QString status() const override { return {}; }

private:
    static bool refuse(QString *error)
    {
        if (error)
            *error = QStringLiteral("The scripted control starts sweeps only through begin().");
        return false;
    }
    SweepKind m_kind;
    std::optional<SweepData> m_running;
    QString m_journalDir, m_template;
    int m_count = 1;
};

} // namespace gemmscope::test
