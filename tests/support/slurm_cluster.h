// Test helper: a real one-node Slurm cluster (munged, slurmctld, slurmd) on 127.0.0.1, in a
// temporary folder, started with scripts/slurm-local.sh (the script a user runs by hand, so the
// tests and a manual try share one configuration): free ports picked at start, no systemd. stop()
// (also from the destructor, so a failed test stops it too) cancels every job, kills this cluster's
// daemons by their pid files and any step they left, and removes the folder; another cluster on
// the machine is never touched. Where the daemons cannot start, start() returns the daemon's own
// log line: the test fails with it (it does not skip).
#pragma once

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>

namespace gemmscope::test {

inline QString slurmLocalScript()
{
    return QDir::cleanPath(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/../../scripts/slurm-local.sh"));
}

class SlurmCluster {
public:
    SlurmCluster() = default;
    SlurmCluster(const SlurmCluster &) = delete;
    SlurmCluster &operator=(const SlurmCluster &) = delete;
    ~SlurmCluster() { stop(); }

    // Starts the cluster; false with the script's sentence (the daemon's log lines) in `why`.
    bool start(QString *why)
    {
        if (!m_dir.isValid()) {
            *why = QStringLiteral("no temporary folder for the cluster: %1").arg(m_dir.errorString());
            return false;
        }
        QElapsedTimer clock;
        clock.start();
        QString output;
        const bool ok = script({QStringLiteral("up"), path()}, 90000, &output);
        m_startSeconds = clock.elapsed() / 1000.0;
        m_started = true; // whatever came up is stopped
        if (!ok)
            *why = output.trimmed();
        return ok;
    }

    // Idempotent: jobs cancelled, daemons and leftover steps killed, the folder removed.
    void stop()
    {
        if (!m_started)
            return;
        m_started = false;
        QString output;
        script({QStringLiteral("down"), path()}, 60000, &output);
        m_dir.remove();
    }

    QString path() const { return m_dir.path(); }
    QString conf() const { return m_dir.filePath(QStringLiteral("slurm.conf")); }
    QString logFile(const QString &daemon) const
    {
        return m_dir.filePath(QStringLiteral("log/%1.log").arg(daemon));
    }
    double startSeconds() const { return m_startSeconds; }

private:
    static bool script(const QStringList &args, int timeoutMs, QString *output)
    {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral("bash"), QStringList{slurmLocalScript()} + args);
        const bool finished = p.waitForFinished(timeoutMs);
        if (!finished) {
            p.kill();
            p.waitForFinished(2000);
        }
        *output = QString::fromLocal8Bit(p.readAll());
        if (!finished)
            *output += QStringLiteral("\nslurm-local.sh %1 did not end within %2 s")
                           .arg(args.first())
                           .arg(timeoutMs / 1000);
        return finished && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    }

    QTemporaryDir m_dir{QDir::tempPath() + QStringLiteral("/gs-slurm-XXXXXX")};
    bool m_started = false;
    double m_startSeconds = 0;
};

} // namespace gemmscope::test
