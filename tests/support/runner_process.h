// Test helper: gemmscope-runner ($GEMMSCOPE_RUNNER) as a child process speaking docs/protocol.md.
#pragma once

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

class RunnerProcess {
public:
    // `cacheDir` empty keeps the test environment's GEMMSCOPE_CACHE_DIR.
    explicit RunnerProcess(const QString &cacheDir = {})
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!cacheDir.isEmpty())
            env.insert(QStringLiteral("GEMMSCOPE_CACHE_DIR"), cacheDir);
        process.setProcessEnvironment(env);
        process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    }
    ~RunnerProcess()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(5000);
        }
    }

    static QString program() { return qEnvironmentVariable("GEMMSCOPE_RUNNER"); }

    // An environment variable for the runner (before start()), e.g. GEMMSCOPE_COMPILE_THREADS.
    void setEnv(const QString &name, const QString &value)
    {
        QProcessEnvironment env = process.processEnvironment();
        env.insert(name, value);
        process.setProcessEnvironment(env);
    }

    // Starts the runner (with `arguments`, e.g. a stand-in profile child) and returns its `ready`
    // event (empty on failure).
    QJsonObject start(const QStringList &arguments = {})
    {
        process.start(program(), arguments);
        if (!process.waitForStarted(10000))
            return {};
        return next(60000);
    }

    void send(const QByteArray &line) { process.write(line + '\n'); }
    void send(const QJsonObject &request) { send(QJsonDocument(request).toJson(QJsonDocument::Compact)); }

    // The next event line, or an empty object after the timeout or the runner's exit.
    QJsonObject next(int timeoutMs = 120000)
    {
        QDeadlineTimer deadline(timeoutMs);
        for (;;) {
            while (process.canReadLine()) {
                const QByteArray line = process.readLine();
                const QJsonDocument doc = QJsonDocument::fromJson(line);
                if (doc.isObject())
                    return doc.object();
            }
            if (deadline.hasExpired())
                return {};
            if (!process.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime()))) &&
                !process.canReadLine() && process.state() == QProcess::NotRunning)
                return {};
        }
    }

    // The first event of job `id` whose "event" is one of `kinds` (events of other jobs are kept
    // in `skipped`).
    QJsonObject waitFor(const QString &id, const QStringList &kinds, int timeoutMs = 300000)
    {
        QDeadlineTimer deadline(timeoutMs);
        while (!deadline.hasExpired()) {
            const QJsonObject event = next(int(qMax<qint64>(1, deadline.remainingTime())));
            if (event.isEmpty())
                return {};
            if (event.value(QStringLiteral("id")).toString() == id &&
                kinds.contains(event.value(QStringLiteral("event")).toString()))
                return event;
            skipped << event;
        }
        return {};
    }

    QProcess process;
    QList<QJsonObject> skipped;
};

// The runner's sentence for why it has no GPU ("no GPU: No CUDA driver ..."), or empty when its
// `ready` event names a GPU.
inline QString noGpuReason(const QJsonObject &ready)
{
    if (!ready.value(QStringLiteral("gpu")).isNull())
        return {};
    return QStringLiteral("no GPU: ") +
           ready.value(QStringLiteral("gpu_error")).toObject().value(QStringLiteral("message")).toString();
}

// The start of a GPU test class's initTestCase, once for all of them: `ready` must be the runner's
// ready event; without a GPU the whole class skips with the runner's own sentence.
#define GEMMSCOPE_REQUIRE_GPU_RUNNER(ready)                                                                  \
    do {                                                                                                     \
        QCOMPARE((ready).value(QStringLiteral("event")).toString(), QStringLiteral("ready"));                \
        if (const QString why = noGpuReason(ready); !why.isEmpty())                                          \
            QSKIP(qPrintable(why));                                                                          \
    } while (false)
