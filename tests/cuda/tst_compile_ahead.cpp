// Compile-ahead: the kernels of queued jobs compile on a pool of CPU threads while the
// GPU worker is busy. First the scheduler with fake compile functions (order, real overlap,
// cancel, one job's error, shutdown), then the runner itself in compile-only mode: many compile
// requests come back in order and equal to compiling one at a time; quit with compiles in flight
// ends the runner promptly. No GPU needed.
#include "../support/runner_process.h"
#include "compile_ahead.h"
#include "runner_error.h"
#include "stage_catalog.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

using namespace gemmscope;
using namespace gemmscope::runner;
using namespace std::chrono_literals;

namespace {

NvrtcProgram program(const QString &name)
{
    NvrtcProgram p;
    p.nameExpression = name;
    p.withKernelHeaders = false;
    return p;
}

// A fake compile: records who compiled what and how many ran at once; optionally holds every
// compile until released, or fails for a program named "bad...".
class FakeCompiler {
public:
    CompiledKernel operator()(const NvrtcProgram &p)
    {
        std::unique_lock lock(m_mutex);
        m_started.push_back(p.nameExpression);
        m_threads.insert(std::this_thread::get_id());
        m_maxInside = std::max(m_maxInside, ++m_inside);
        m_changed.notify_all();
        m_changed.wait_for(lock, 10s, [&] { return m_open || (m_untilTwo && m_inside >= 2); });
        --m_inside;
        if (p.nameExpression.startsWith(QLatin1String("bad")))
            throw RunnerError(ErrorKind::CompileError,
                              QStringLiteral("%1 does not compile.").arg(p.nameExpression));
        CompiledKernel k;
        k.nameExpression = p.nameExpression;
        k.cubin = p.nameExpression.toUtf8();
        return k;
    }
    void open()
    {
        std::lock_guard lock(m_mutex);
        m_open = true;
        m_changed.notify_all();
    }
    void holdUntilTwoOverlap()
    {
        std::lock_guard lock(m_mutex);
        m_open = false;
        m_untilTwo = true;
    }
    void hold()
    {
        std::lock_guard lock(m_mutex);
        m_open = false;
    }
    bool waitStarted(int n)
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, 10s, [&] { return int(m_started.size()) >= n; });
    }
    QStringList started()
    {
        std::lock_guard lock(m_mutex);
        return m_started;
    }
    int maxInside()
    {
        std::lock_guard lock(m_mutex);
        return m_maxInside;
    }
    std::set<std::thread::id> threads()
    {
        std::lock_guard lock(m_mutex);
        return m_threads;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    QStringList m_started;
    std::set<std::thread::id> m_threads;
    int m_inside = 0, m_maxInside = 0;
    bool m_open = true, m_untilTwo = false;
};

CompileAhead::Compile via(FakeCompiler &fake)
{
    return [&fake](const NvrtcProgram &p) { return fake(p); };
}

QJsonObject compileRequest(const QString &id, const ParamValues &params)
{
    QJsonObject p;
    for (const auto &[k, v] : params)
        p.insert(QString::fromStdString(k), v);
    return QJsonObject{
        {"type", "compile"}, {"id", id}, {"stage", "coalesced"}, {"params", p}, {"arch", "sm_80"}};
}

// Distinct valid configurations of the coalesced stage (each its own NVRTC compile).
QList<ParamValues> configurations(int count)
{
    QList<ParamValues> out;
    for (int bm : {64, 128})
        for (int bn : {64, 128})
            for (int bk : {8, 16})
                for (int tm : {4, 8}) {
                    const ParamValues p{{"BM", bm}, {"BN", bn}, {"BK", bk}, {"TM", tm}, {"TN", 4}};
                    if (violations(StageId::Coalesced, p, ProblemSize{}).empty() && out.size() < count)
                        out.append(p);
                }
    return out;
}

// The final event (compiled or error) of each job, in the order they came.
QList<QJsonObject> answers(RunnerProcess &runner, int count)
{
    QList<QJsonObject> out;
    while (out.size() < count) {
        const QJsonObject e = runner.next(300000);
        if (e.isEmpty())
            break;
        const QString kind = e.value("event").toString();
        if (kind == QLatin1String("compiled") || kind == QLatin1String("error"))
            out.append(e);
    }
    return out;
}

} // namespace

class TestCompileAhead : public QObject {
    Q_OBJECT
private slots:
    void eachJobTakesItsOwnKernel()
    {
        FakeCompiler fake;
        CompileAhead ahead(via(fake), 3);
        for (int i = 0; i < 8; ++i)
            ahead.submit(QStringLiteral("j%1").arg(i), program(QStringLiteral("k%1").arg(i)));
        QVERIFY(fake.waitStarted(8));
        for (int i = 0; i < 8; ++i) {
            const CompileAhead::Taken t =
                ahead.take(QStringLiteral("j%1").arg(i), program(QStringLiteral("k%1").arg(i)));
            QCOMPARE(t.kernel.nameExpression, QStringLiteral("k%1").arg(i));
            QVERIFY(t.ahead);
        }
        QCOMPARE(fake.started().size(), 8); // each compiled once, none by the caller
    }

    void twoCompilesOverlap()
    {
        FakeCompiler fake;
        fake.holdUntilTwoOverlap(); // each compile waits until another one is running beside it
        CompileAhead ahead(via(fake), 2);
        ahead.submit("a", program("ka"));
        ahead.submit("b", program("kb"));
        QCOMPARE(ahead.take("a", program("ka")).kernel.nameExpression, QStringLiteral("ka"));
        QCOMPARE(ahead.take("b", program("kb")).kernel.nameExpression, QStringLiteral("kb"));
        QCOMPARE(fake.maxInside(), 2);
    }

    void abandonedCompileNeverStarts()
    {
        FakeCompiler fake;
        fake.hold();
        CompileAhead ahead(via(fake), 1);
        ahead.submit("a", program("ka"));
        QVERIFY(fake.waitStarted(1)); // the only worker is busy with a
        ahead.submit("b", program("kb"));
        ahead.submit("c", program("kc"));
        ahead.abandon("b"); // cancelled while queued
        fake.open();
        QCOMPARE(ahead.take("a", program("ka")).kernel.nameExpression, QStringLiteral("ka"));
        QCOMPARE(ahead.take("c", program("kc")).kernel.nameExpression, QStringLiteral("kc"));
        QVERIFY(!fake.started().contains(QStringLiteral("kb")));
        // A job that takes after abandoning (it was not cancelled after all) compiles itself.
        const CompileAhead::Taken b = ahead.take("b", program("kb"));
        QCOMPARE(b.kernel.nameExpression, QStringLiteral("kb"));
        QVERIFY(!b.ahead);
    }

    void aCompileErrorBelongsToItsJob()
    {
        FakeCompiler fake;
        CompileAhead ahead(via(fake), 2);
        ahead.submit("1", program("k1"));
        ahead.submit("2", program("bad2"));
        ahead.submit("3", program("k3"));
        QCOMPARE(ahead.take("1", program("k1")).kernel.nameExpression, QStringLiteral("k1"));
        bool refused = false;
        try {
            ahead.take("2", program("bad2"));
        } catch (const RunnerError &e) {
            refused = e.kind() == ErrorKind::CompileError && e.message().contains(QStringLiteral("bad2"));
        }
        QVERIFY(refused);
        QCOMPARE(ahead.take("3", program("k3")).kernel.nameExpression, QStringLiteral("k3"));
    }

    void unstartedOrOtherProgramCompilesOnTheCaller()
    {
        FakeCompiler fake;
        fake.hold();
        CompileAhead ahead(via(fake), 1);
        ahead.submit("a", program("ka"));
        QVERIFY(fake.waitStarted(1));
        ahead.submit("b", program("kb"));
        // b has not started (the worker holds a): the caller compiles it rather than wait behind a.
        std::thread opener([&] {
            std::this_thread::sleep_for(50ms);
            fake.open();
        });
        const CompileAhead::Taken b = ahead.take("b", program("kb"));
        opener.join();
        QCOMPARE(b.kernel.nameExpression, QStringLiteral("kb"));
        QVERIFY(!b.ahead);
        // A different program than the one submitted for the job: compiled as asked.
        ahead.submit("c", program("kc"));
        QCOMPARE(ahead.take("c", program("kc-other")).kernel.nameExpression, QStringLiteral("kc-other"));
        QCOMPARE(ahead.take("a", program("ka")).kernel.nameExpression, QStringLiteral("ka"));
    }

    void shutdownDropsWhatHasNotStarted()
    {
        FakeCompiler fake;
        fake.hold();
        QElapsedTimer timer;
        std::thread opener;
        {
            CompileAhead ahead(via(fake), 1);
            for (int i = 0; i < 20; ++i)
                ahead.submit(QStringLiteral("j%1").arg(i), program(QStringLiteral("k%1").arg(i)));
            QVERIFY(fake.waitStarted(1));
            opener = std::thread([&] {
                std::this_thread::sleep_for(100ms);
                fake.open();
            });
            timer.start();
        } // waits for the compile in flight only, never starts the 19 queued
        opener.join();
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(fake.started().size(), 1);
    }

    // Kernels compiling or waiting to be taken are bounded: the pool stops at maxReady and goes on as
    // the GPU worker takes them, oldest first.
    void kernelsHeldAheadAreBounded()
    {
        FakeCompiler fake;
        CompileAhead ahead(via(fake), 2, 3);
        for (int i = 0; i < 10; ++i)
            ahead.submit(QStringLiteral("j%1").arg(i), program(QStringLiteral("k%1").arg(i)));
        QVERIFY(fake.waitStarted(3));
        std::this_thread::sleep_for(200ms); // time for the pool to run on, were it unbounded
        QCOMPARE(fake.started().size(), 3);
        for (int i = 0; i < 10; ++i) {
            const CompileAhead::Taken t =
                ahead.take(QStringLiteral("j%1").arg(i), program(QStringLiteral("k%1").arg(i)));
            QCOMPARE(t.kernel.nameExpression, QStringLiteral("k%1").arg(i));
        }
        QCOMPARE(fake.started().size(), 10); // each once, by the pool or (when not started) the caller
    }

    void defaultThreadsFollowTheEnvironment()
    {
        qputenv("GEMMSCOPE_COMPILE_THREADS", "3");
        QCOMPARE(CompileAhead::defaultThreads(), 3);
        qputenv("GEMMSCOPE_COMPILE_THREADS", "0");
        QCOMPARE(CompileAhead::defaultThreads(), 0);
        qunsetenv("GEMMSCOPE_COMPILE_THREADS");
        QVERIFY(CompileAhead::defaultThreads() >= 1);
    }

    // The runner in compile-only mode: N compiles with a pool of 2 come back in request order, each
    // the same kernel as compiled one at a time, and the later ones were compiled ahead.
    void runnerAnswersManyCompilesInOrder()
    {
        if (RunnerProcess::program().isEmpty())
            QSKIP("GEMMSCOPE_RUNNER is not set (the runner was not built).");
        const QList<ParamValues> configs = configurations(6);
        QCOMPARE(configs.size(), 6);
        QMap<QString, QList<QJsonObject>> byThreads;
        for (const char *threads : {"0", "2"}) {
            QTemporaryDir cold; // every compile runs NVRTC
            RunnerProcess runner(cold.path());
            runner.setEnv(QStringLiteral("GEMMSCOPE_COMPILE_THREADS"), QString::fromLatin1(threads));
            QVERIFY(!runner.start().isEmpty());
            QByteArray lines;
            for (int i = 0; i < configs.size(); ++i)
                lines += QJsonDocument(compileRequest(QStringLiteral("c%1").arg(i), configs[i]))
                             .toJson(QJsonDocument::Compact) +
                         '\n';
            // An invalid one among them: refused at its turn, the others unaffected.
            lines +=
                R"({"type":"compile","id":"bad","stage":"coalesced","params":{"BM":100},"arch":"sm_80"})";
            lines += '\n';
            runner.send(lines);
            const QList<QJsonObject> got = answers(runner, int(configs.size()) + 1);
            QCOMPARE(got.size(), configs.size() + 1);
            for (int i = 0; i < configs.size(); ++i) {
                QCOMPARE(got[i].value("id").toString(), QStringLiteral("c%1").arg(i));
                QCOMPARE(got[i].value("event").toString(), QStringLiteral("compiled"));
                QCOMPARE(got[i].value("cache_hit").toBool(), false);
            }
            QCOMPARE(got.last().value("id").toString(), QStringLiteral("bad"));
            QCOMPARE(got.last().value("kind").toString(), QStringLiteral("invalid_config"));
            byThreads.insert(QString::fromLatin1(threads), got);
            runner.send(QByteArray(R"({"type":"quit"})"));
            QVERIFY(runner.process.waitForFinished(60000));
            QCOMPARE(runner.process.exitCode(), 0);
        }
        int ahead = 0;
        for (int i = 0; i < configs.size(); ++i) {
            const QJsonObject one = byThreads["0"][i], pooled = byThreads["2"][i];
            for (const char *field :
                 {"kernel", "lowered_name", "registers", "static_smem_bytes", "cubin_bytes"})
                QCOMPARE(pooled.value(field), one.value(field));
            QCOMPARE(one.value("compiled_ahead").toBool(), false);
            ahead += pooled.value("compiled_ahead").toBool();
        }
        qInfo("%d of %lld compiles were done ahead with 2 compile threads", ahead, qlonglong(configs.size()));
        QVERIFY(ahead >=
                int(configs.size()) - 1); // all but possibly the first, which the worker may take first
    }

    // quit while queued jobs' compiles are in flight: every job is answered once (compiled, or
    // cancelled if it had not reached the worker), and the runner exits 0; it never hangs on them.
    void quitWithCompilesInFlightEndsCleanly()
    {
        if (RunnerProcess::program().isEmpty())
            QSKIP("GEMMSCOPE_RUNNER is not set (the runner was not built).");
        const QList<ParamValues> configs = configurations(8);
        QTemporaryDir cold;
        RunnerProcess runner(cold.path());
        runner.setEnv(QStringLiteral("GEMMSCOPE_COMPILE_THREADS"), QStringLiteral("2"));
        QVERIFY(!runner.start().isEmpty());
        QByteArray lines;
        for (int i = 0; i < configs.size(); ++i)
            lines += QJsonDocument(compileRequest(QStringLiteral("q%1").arg(i), configs[i]))
                         .toJson(QJsonDocument::Compact) +
                     '\n';
        lines += R"({"type":"quit"})";
        lines += '\n';
        QElapsedTimer timer;
        timer.start();
        runner.send(lines);
        QVERIFY(runner.process.waitForFinished(60000));
        QCOMPARE(runner.process.exitCode(), 0);
        QSet<QString> answered;
        while (runner.process.canReadLine()) {
            const QJsonObject e = QJsonDocument::fromJson(runner.process.readLine()).object();
            const QString kind = e.value("event").toString();
            if (kind == QLatin1String("compiled") ||
                (kind == QLatin1String("error") && e.value("kind").toString() == QLatin1String("cancelled")))
                answered.insert(e.value("id").toString());
        }
        QCOMPARE(answered.size(), configs.size()); // every job answered, once
        qInfo("quit with %lld compiles queued: the runner ended after %lld ms", qlonglong(configs.size()),
              qlonglong(timer.elapsed()));
    }
};

QTEST_GUILESS_MAIN(TestCompileAhead)
#include "tst_compile_ahead.moc"
