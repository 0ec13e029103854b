// gemmscope-bench's command line: every bad value is refused with a sentence
// and a nonzero status before anything runs, a run with failed rows ends nonzero, and a runner of
// another protocol version is named by what it sent. Driven against the scripted stand-in runner
// (tests/support/stand_in_runner.py), whose behaviour the bench's environment chooses.
#include "support/fs_faults.h"
#include "support/stand_in_runner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

namespace {

struct Outcome {
    int exitCode = -1;
    QString out, err;
};

} // namespace

class TestBenchCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        m_bench = qEnvironmentVariable("GEMMSCOPE_BENCH");
        if (m_bench.isEmpty() || !QFile::exists(m_bench))
            QSKIP("gemmscope-bench is not built (no CUDA Toolkit): GEMMSCOPE_BENCH is not set");
        m_standIn = gemmscope::test::standInRunnerPath();
        if (m_standIn.isEmpty())
            QSKIP("python3 is needed for the scripted stand-in runner");
        QVERIFY(m_dir.isValid());
    }

    void badOptionsAreRefusedBeforeAnythingRuns_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::newRow("budget -1") << QStringList{"--budget-ms", "-1"} << "--budget-ms";
        QTest::newRow("budget abc") << QStringList{"--budget-ms", "abc"} << "--budget-ms";
        QTest::newRow("budget inf") << QStringList{"--budget-ms", "inf"} << "--budget-ms";
        QTest::newRow("warmup -5") << QStringList{"--warmup", "-5"} << "--warmup";
        QTest::newRow("warmup 2.5") << QStringList{"--warmup", "2.5"} << "--warmup";
        QTest::newRow("min-reps 0") << QStringList{"--min-reps", "0"} << "--min-reps";
        QTest::newRow("min-reps x") << QStringList{"--min-reps", "x"} << "--min-reps";
        QTest::newRow("seed -1") << QStringList{"--seed", "-1"} << "--seed";
        QTest::newRow("size 0x0x0") << QStringList{"--size", "0x0x0"} << "at least 1";
        QTest::newRow("size 2^32 cubed")
            << QStringList{"--size", "4294967296x4294967296x4294967296"} << "below 2^31";
        QTest::newRow("size 99999999999999999999")
            << QStringList{"--size", "99999999999999999999x1x1"} << "below 2^31";
        QTest::newRow("size words") << QStringList{"--size", "bigxbigxbig"} << "--size";
        QTest::newRow("build 5") << QStringList{"--build", "5"} << "--build";
        QTest::newRow("stage") << QStringList{"--stages", "no_such"} << "neither a preset";
        QTest::newRow("blocks per SM") << QStringList{"--max-blocks-per-sm", "-2"} << "--max-blocks-per-sm";
        // A number too large for an int is out of range, with the limit.
        QTest::newRow("blocks per SM 2^31")
            << QStringList{"--max-blocks-per-sm", "2147483648"} << "is out of range (max 2147483647)";
        QTest::newRow("sweep x value 2^33") << QStringList{"--sweep", "--x-values", "64,8589934592"}
                                            << "--x-values: 8589934592 is out of range";
        QTest::newRow("sweep fixed -2^31-1")
            << QStringList{"--sweep", "--fixed", "BK=-2147483649"} << "is out of range (min -2147483648)";
        QTest::newRow("sweep x value word")
            << QStringList{"--sweep", "--x-values", "64,abc"} << "whole numbers";
    }
    void badOptionsAreRefusedBeforeAnythingRuns()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        // A runner that cannot start: had the options passed, the bench would fail on it instead.
        const Outcome o = bench(args << "--runner"
                                     << "/nonexistent/gemmscope-runner");
        QVERIFY2(o.exitCode != 0, qPrintable(o.err));
        QVERIFY2(o.err.contains(says), qPrintable(o.err));
        QVERIFY2(!o.err.contains(QStringLiteral("Could not start")), qPrintable(o.err));
    }

    void failedRowsEndNonzero()
    {
        // Every run but cuBLAS's fails; ceilings fail too (the stand-in has none).
        const Outcome o = bench({"--runner", m_standIn, "--stages", "worklog-3", "--size", "64x64x64"},
                                {{"FAKE_FAIL_KIND", "out_of_resources"}});
        QCOMPARE(o.exitCode, 3);
        QVERIFY2(o.err.contains(QStringLiteral("1 of 2 rows failed")), qPrintable(o.err));
        QVERIFY(o.out.contains(QStringLiteral("worklog-3")));
    }

    void allRowsRunEndsZero()
    {
        const QString json = m_dir.filePath(QStringLiteral("bench.json"));
        const Outcome o =
            bench({"--runner", m_standIn, "--stages", "worklog-3", "--size", "64x64x64", "--json", json});
        QCOMPARE(o.exitCode, 0);
        QVERIFY(QFile::exists(json));
    }

    // A full disk: the JSON is written whole or not at all, the old file is kept byte-identical and
    // the exit status is not 0 (tst_ladder_mode checks the same in its process, where no file system
    // can be mounted).
    void jsonOnAFullFileSystemKeepsTheOldFile()
    {
        GEMMSCOPE_SMALL_FILE_SYSTEM_OR_SKIP(fs, m_dir.path(), "jsonOnAFullDiskKeepsTheOldFile");
        const QString mount = fs.path();
        const QString json = QDir(mount).filePath(QStringLiteral("bench.json"));
        const QByteArray old = writeOld(json);
        gemmscope::testing::fillUp(mount);
        const Outcome o =
            bench({"--runner", m_standIn, "--stages", "worklog-3", "--size", "64x64x64", "--json", json});
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains(QStringLiteral("the disk is full")), qPrintable(o.err));
        QCOMPARE(readAll(json), old);
    }

    // --json onto a pipe, a device node or a socket is refused before anything runs, and the node
    // stays (as root the device was replaced by a regular file: the system's null device, broken).
    void jsonOntoASpecialFileIsRefused_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("fifo") << "fifo";
        QTest::newRow("device") << "device";
    }
    void jsonOntoASpecialFileIsRefused()
    {
        QFETCH(QString, kind);
        const QString node = m_dir.filePath(QStringLiteral("node-") + kind);
        if (kind == QLatin1String("fifo") ? !gemmscope::testing::makeFifo(node)
                                          : !gemmscope::testing::makeNullDevice(node))
            QSKIP("mknod needs root");
        const mode_t type = gemmscope::testing::fileType(node);
        const Outcome o = bench({"--runner", "/nonexistent/gemmscope-runner", "--json", node});
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains(QStringLiteral("not a regular file")), qPrintable(o.err));
        QVERIFY2(!o.err.contains(QStringLiteral("Could not start")), qPrintable(o.err)); // refused first
        QCOMPARE(gemmscope::testing::fileType(node), type);
        QFile::remove(node);
    }

    // --json F --journal F: the JSON would replace the journal the sweep resumes from.
    void sweepJsonOverItsJournalIsRefused()
    {
        const QString file = m_dir.filePath(QStringLiteral("both.gsweep"));
        const QByteArray old = writeOld(file);
        const Outcome o = bench({"--sweep", "--x-values", "64", "--y-values", "64", "--runner",
                                 "/nonexistent/gemmscope-runner", "--json", file, "--journal", file});
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains(QStringLiteral("files being read")), qPrintable(o.err));
        QCOMPARE(readAll(file), old);
    }

    void protocolVersionSaysWhatWasReceived()
    {
        const Outcome o = bench({"--runner", m_standIn, "--stages", "worklog-3", "--size", "64x64x64"},
                                {{"FAKE_PROTOCOL", "1.5"}});
        QVERIFY(o.exitCode != 0);
        QVERIFY2(o.err.contains(QStringLiteral("speaks protocol 1.5;")), qPrintable(o.err));
    }

    // --sweep on two stand-in runners started from one template ({gpu} = 0, 1): the table, the
    // summary and the JSON (cells, wall time, configurations per minute, GPU busy fraction), every
    // valid configuration run once on one of them, no refused one sent.
    void sweepOnTwoRunnersRecordsJson()
    {
        const QString json = m_dir.filePath(QStringLiteral("sweep.json"));
        const QString logs = m_dir.filePath(QStringLiteral("sweeplog"));
        const Outcome o =
            bench({"--sweep",
                   "--stage",
                   "final",
                   "--x",
                   "BM",
                   "--y",
                   "TM",
                   "--x-values",
                   "32,64,128",
                   "--y-values",
                   "2,4,12",
                   "--fixed",
                   "BN=64,BK=8,TN=4",
                   "--size",
                   "256x256x256",
                   "--budget-ms",
                   "5",
                   "--runners",
                   "2",
                   "--window",
                   "3",
                   "--runner-template",
                   QStringLiteral("FAKE_GPU_UUID=GPU-{gpu} FAKE_HOST=host{gpu} FAKE_DELAY_S=0.02 "
                                  "FAKE_LOG=%1{gpu} python3 %2")
                       .arg(logs, m_standIn),
                   "--json",
                   json});
        QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
        QVERIFY2(o.out.contains(QStringLiteral("Best: ")), qPrintable(o.out));
        QVERIFY2(o.out.contains(QStringLiteral("inv")), qPrintable(o.out)); // BM=32 or 64 with TM=12
        QVERIFY2(o.out.contains(QStringLiteral("per minute")), qPrintable(o.out));
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(doc.value("format").toString(), QStringLiteral("gemmscope-bench-sweep"));
        QCOMPARE(doc.value("cells").toArray().size(), 9);
        QVERIFY(doc.value("wall_s").toDouble() > 0);
        QVERIFY(doc.value("configurations_per_minute").toDouble() > 0);
        const double busy = doc.value("gpu_busy_fraction").toDouble();
        QVERIFY2(busy > 0 && busy <= 1.0, qPrintable(QString::number(busy)));
        QCOMPARE(doc.value("runners").toArray().size(), 2);
        QSet<QString> hosts;
        int timed = 0;
        for (const QJsonValue &r : doc.value("runs").toArray()) {
            hosts.insert(r.toObject().value("host").toString());
            timed += r.toObject().value("stage").toString() == QLatin1String("final");
        }
        QCOMPARE(hosts, (QSet<QString>{"host0", "host1"}));
        QCOMPARE(timed, doc.value("valid_configurations_timed").toInt() + doc.value("failed").toInt());
        QStringList sent;
        for (const QString &log : {logs + "0", logs + "1"}) {
            QFile l(log);
            QVERIFY(l.open(QIODevice::ReadOnly));
            for (const QString &line : QString::fromUtf8(l.readAll()).split('\n', Qt::SkipEmptyParts))
                if (line.startsWith(QLatin1String("final|")))
                    sent << line;
        }
        QCOMPARE(sent.size(), timed); // each point once
        QCOMPARE(QSet<QString>(sent.begin(), sent.end()).size(), timed);
        for (const QString &line : sent)                         // and none the catalog refuses
            QVERIFY2(!line.contains("TM=12"), qPrintable(line)); // 32, 64, 128: no multiple of 12
    }

    // --size-sweep on the stand-in: a table row per size, a column per series, the JSON with
    // every point (a refused size carries the catalog's sentence and is never sent), cuBLAS as a
    // series, and wave quantization from the runner's blocks per SM and SM count.
    void sizeSweepRecordsJson()
    {
        const QString json = m_dir.filePath(QStringLiteral("sizes.json"));
        const QString log = m_dir.filePath(QStringLiteral("sizelog"));
        const Outcome o =
            bench({"--size-sweep", "--stages", "worklog-8,cublas_fp32", "--sizes",
                   "256,512,1024x512x768,70000", "--budget-ms", "5", "--runner-template",
                   QStringLiteral("FAKE_LOG=%1 python3 %2").arg(log, m_standIn), "--json", json});
        QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
        QVERIFY2(o.out.contains(QStringLiteral("1024x512x768")) &&
                     o.out.contains(QStringLiteral("worklog-8")),
                 qPrintable(o.out));
        QVERIFY2(o.out.contains(QStringLiteral("inv worklog-8 at 70000x70000x70000: ")), qPrintable(o.out));
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(doc.value("format").toString(), QStringLiteral("gemmscope-bench-size-sweep"));
        const QJsonArray points = doc.value("points").toArray();
        QCOMPARE(points.size(), 8);
        int timed = 0, refused = 0;
        for (const QJsonValue &v : points) {
            const QJsonObject p = v.toObject();
            if (p.contains("invalid")) {
                ++refused;
                QCOMPARE(p.value("size").toObject().value("m").toInt(), 70000);
                QVERIFY(!p.value("invalid").toString().isEmpty());
                continue;
            }
            QVERIFY2(p.value("tflops").toDouble() > 0, qPrintable(QJsonDocument(p).toJson()));
            ++timed;
            if (p.value("stage").toString() == QLatin1String("final")) {
                const QJsonObject w = p.value("waves").toObject();
                QCOMPARE(w.value("sms").toInt(), 132); // the stand-in's ready event, 1 block per SM
                QCOMPARE(w.value("blocks_per_wave").toInt(), 132);
                QVERIFY(w.value("blocks").toInt() > 0);
                QCOMPARE(w.value("waves").toDouble(), w.value("blocks").toDouble() / 132.0);
            }
        }
        QCOMPARE(timed, 6);
        QCOMPARE(refused, 2);
        QFile l(log);
        QVERIFY(l.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(l.readAll()).split('\n', Qt::SkipEmptyParts).size(),
                 6); // refused never sent
        // A stage that is not in the catalog is refused before anything runs.
        const Outcome bad = bench({"--size-sweep", "--stages", "nope"});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains(QStringLiteral("neither a preset nor a stage")), qPrintable(bad.err));
    }

    void sweepRefusesAShellTemplate()
    {
        const Outcome o = bench({"--sweep", "--runner-template", "gemmscope-runner; rm -rf /tmp/x"});
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains(QStringLiteral("outside quotes")), qPrintable(o.err));
    }

    // --profile profiles each stage and its cuBLAS baseline, prints the figures (top 5
    // stall reasons and source lines, limiters) and writes the runner's profile events as JSON.
    void profilePrintsEachStageAndItsBaseline()
    {
        const QString json = m_dir.filePath(QStringLiteral("profile.json"));
        const Outcome o = bench({"--profile", "--runner", m_standIn, "--stages", "worklog-3,tf32-wgmma-tma",
                                 "--size", "4096x4096x4096", "--sampling-period", "12", "--json", json});
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        for (const char *says :
             {"[1/4] profiling worklog-3", "[2/4] profiling tf32-wgmma-tma", "[3/4] profiling cublas_fp32",
              "[4/4] profiling cublas_tf32",
              "worklog-3 at 4096x4096x4096 on Fake GPU: 1840.2 ms, 21632 samples", "one every 2^12 cycles",
              "Top stall reasons:", "mio_throttle                   36.1 %", "coalesced.cuh:41",
              "49.3 %  mio_throttle", "sm__warps_active.avg.pct_of_peak_sustained_active",
              "No source lines (the kernel has no line table)", "cuBLAS's are not instrumented"})
            QVERIFY2(o.out.contains(QLatin1String(says)), says);
        // Top 5: of seven lines (and six reasons) the two coldest lines and the rarest reason are left out.
        QVERIFY(o.out.contains(QStringLiteral("coalesced.cuh:51")));
        QVERIFY(!o.out.contains(QStringLiteral("coalesced.cuh:52")));
        QVERIFY(!o.out.contains(QStringLiteral("    wait ")));
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(root["format"].toString(), QStringLiteral("gemmscope-bench"));
        const QJsonArray profiles = root["profiles"].toArray();
        QCOMPARE(profiles.size(), 4);
        QCOMPARE(profiles[0].toObject()["event"].toString(), QStringLiteral("profile"));
        QCOMPARE(profiles[0].toObject()["sampling_period"].toInt(), 12);
        QCOMPARE(profiles[3].toObject()["stage"].toString(), QStringLiteral("cublas_tf32"));
        QVERIFY(root["rows"].toArray().isEmpty()); // nothing was timed
    }

    void profileFailuresSayWhyAndEndNonzero_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("environment"); // NAME=value
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("says");
        QTest::newRow("unknown stage") << QStringList{"--stages", "no_such"} << "" << 1
                                       << "--stages: \"no_such\" is neither a preset nor a stage key.";
        QTest::newRow("no stages") << QStringList{} << "" << 1 << "--profile needs --stages";
        QTest::newRow("bad period") << QStringList{"--stages", "worklog-3", "--sampling-period", "40"} << ""
                                    << 1 << "--sampling-period must be a whole number from 5 to 31";
        QTest::newRow("no GPU") << QStringList{"--stages", "worklog-3"} << "FAKE_NO_GPU=1" << 2
                                << "No GPU: No CUDA driver is installed on this machine.";
        QTest::newRow("runner error")
            << QStringList{"--stages", "worklog-3"} << "FAKE_PROFILE_FAIL_KIND=launch_error" << 3
            << "worklog-3 could not be profiled (launch_error): The stand-in cannot "
               "profile here.";
        QTest::newRow("killed mid-profile")
            << QStringList{"--stages", "worklog-3"} << "FAKE_PROFILE_CRASH=coalesced" << 3
            << "worklog-3 could not be profiled (runner_crashed)";
    }
    void profileFailuresSayWhyAndEndNonzero()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, environment);
        QFETCH(int, exitCode);
        QFETCH(QString, says);
        QMap<QString, QString> env;
        if (!environment.isEmpty())
            env.insert(environment.section('=', 0, 0), environment.section('=', 1));
        const Outcome o =
            bench(QStringList{"--profile", "--runner", m_standIn, "--size", "512x512x512"} + args, env);
        QCOMPARE(o.exitCode, exitCode);
        QVERIFY2(o.err.contains(says), qPrintable(o.err));
        if (environment.startsWith("FAKE_PROFILE_CRASH")) // the baseline ran on the restarted runner
            QVERIFY2(o.out.contains("cublas_fp32 at 512x512x512 on Fake GPU"), qPrintable(o.out));
    }

    // --kernel: the requests carry the kernel's source (the encoder adds it), after cuBLAS FP32.
    void kernelJobsCarryTheSource()
    {
        const QString path = blankKernelCopy();
        const Outcome o = bench({"--kernel", path, "--params", "BM=32", "--size", "64x64x64", "--list-jobs",
                                 "--runner", "/nonexistent/gemmscope-runner"});
        QVERIFY2(o.exitCode == 0, qPrintable(o.err));
        const QList<QByteArray> lines = o.out.toUtf8().trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QCOMPARE(QJsonDocument::fromJson(lines[0]).object().value("stage").toString(),
                 QStringLiteral("cublas_fp32"));
        const QJsonObject job = QJsonDocument::fromJson(lines[1]).object();
        QVERIFY(job.value("stage").toString().startsWith(QStringLiteral("user-")));
        QCOMPARE(job.value("params").toObject(), (QJsonObject{{"BM", 32}, {"BN", 16}, {"BK", 8}}));
        QVERIFY(job.value("baseline").toBool());
        const QJsonObject kernel = job.value("kernel").toObject();
        QCOMPARE(kernel.value("source_text").toString().toUtf8(), readAll(path));
        QCOMPARE(kernel.value("file_name").toString(), QStringLiteral("blank_kernel.cuh"));
    }

    // Measured beside cuBLAS like a built-in stage: the runner is asked for the kernel's stage.
    void kernelIsMeasuredBesideCublas()
    {
        const QString log = m_dir.filePath(QStringLiteral("kernel-runs.log"));
        const Outcome o = bench({"--runner", m_standIn, "--kernel", blankKernelCopy(), "--size", "64x64x64"},
                                {{"FAKE_LOG", log}});
        QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
        QVERIFY2(o.out.contains(QStringLiteral("Kernel blank_kernel.cuh (My tiled kernel) is stage user-")),
                 qPrintable(o.out));
        const QStringList runs = QString::fromUtf8(readAll(log)).trimmed().split(QLatin1Char('\n'));
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[0], QStringLiteral("cublas_fp32|"));
        QVERIFY2(runs[1].startsWith(QStringLiteral("user-")) &&
                     runs[1].endsWith(QStringLiteral("|BK=8 BM=16 BN=16")),
                 qPrintable(runs[1]));
    }

    void badKernelFilesEndWithStatus2_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content"); // written unless empty
        QTest::addColumn<QString>("says");
        QTest::newRow("missing") << "missing.cuh" << QByteArray() << "missing.cuh";
        QTest::newRow("folder") << "folder.cuh" << QByteArray() << "not a regular file";
        QTest::newRow("fifo") << "fifo.cuh" << QByteArray() << "not a regular file";
        QTest::newRow("too large") << "large.cuh" << QByteArray(2 * 1024 * 1024, 'x') << "at most 1 MB";
        QTest::newRow("no block") << "plain.cuh" << QByteArray("__global__ void k() {}\n")
                                  << "plain.cuh: The kernel has no parameter block";
        QTest::newRow("include") << "evil.cuh"
                                 << QByteArray(
                                        "#include \"/etc/passwd\"\n/* gemmscope:kernel\nname k\nblock 1\n"
                                        "grid 1\n*/\n")
                                 << "evil.cuh:1: This line includes \"/etc/passwd\"";
    }
    void badKernelFilesEndWithStatus2()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(QString, says);
        const QString path = m_dir.filePath(name);
        if (!content.isEmpty()) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
        } else if (name == QStringLiteral("folder.cuh")) {
            QVERIFY(QDir().mkpath(path));
        } else if (name == QStringLiteral("fifo.cuh") && !QFile::exists(path)) {
            QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        }
        const Outcome o = bench({"--kernel", path, "--runner", m_standIn, "--size", "64x64x64"});
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(says), qPrintable(o.err));
        QCOMPARE(o.err.trimmed().count(QLatin1Char('\n')), 0); // one sentence
        QVERIFY(o.out.isEmpty());                              // nothing ran
    }

    void badKernelParamsAreRefused_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::newRow("off step") << QStringList{"--params", "BM=12"}
                                  << "BM (12) must be 8 plus a multiple of 8.";
        QTest::newRow("requirement") << QStringList{"--params", "BM=64,BN=64"}
                                     << "The requirement \"BM * BN <= 1024\" (line 24) does not hold";
        QTest::newRow("unknown") << QStringList{"--params", "TM=4"} << "has no parameter TM";
        QTest::newRow("malformed") << QStringList{"--params", "BM"} << "NAME=value pairs";
    }
    void badKernelParamsAreRefused()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        const Outcome o = bench(QStringList{"--kernel", blankKernelCopy(), "--runner", m_standIn} + args);
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains(says), qPrintable(o.err));
        const Outcome alone = bench({"--params", "BM=32", "--runner", m_standIn});
        QCOMPARE(alone.exitCode, 1);
        QVERIFY2(alone.err.contains(QStringLiteral("there is no --kernel")), qPrintable(alone.err));
    }

private:
    // The editor's blank kernel, copied into the test's folder.
    QString blankKernelCopy()
    {
        const QString path = m_dir.filePath(QStringLiteral("blank_kernel.cuh"));
        QFile::remove(path);
        QFile::copy(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/../../resources/kernels/blank_kernel.cuh"),
                    path);
        return path;
    }

    // gemmscope-bench with `args`, its environment (and so its runner's) extended by `environment`.
    Outcome bench(const QStringList &args, const QMap<QString, QString> &environment = {})
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (auto it = environment.cbegin(); it != environment.cend(); ++it)
            env.insert(it.key(), it.value());
        p.setProcessEnvironment(env);
        p.start(m_bench, args);
        Outcome o;
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
            o.err = QStringLiteral("gemmscope-bench did not finish");
            return o;
        }
        o.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        o.out = QString::fromUtf8(p.readAllStandardOutput());
        o.err = QString::fromUtf8(p.readAllStandardError());
        return o;
    }
    static QByteArray writeOld(const QString &path)
    {
        const QByteArray old = QByteArray("{\"format\": \"an earlier result\"}\n").repeated(100);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(old);
        return old;
    }
    static QByteArray readAll(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    QString m_bench;
    QString m_standIn; // tests/support/stand_in_runner.py
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestBenchCli)
#include "tst_bench_cli.moc"
