// gemmscope-bench's command line read into its modes' commands (app/bench/bench_options.h and the
// *_mode.h units): which mode the options choose, what each command holds once read, and that a
// bad value is refused with its sentence and the bench's exit status before anything runs.
// tst_bench_cli drives the built program; this test reads the commands themselves.
#include "grid_sweep_mode.h"
#include "ladder_mode.h"
#include "profile_mode.h"
#include "size_sweep_mode.h"

#include <QtTest>

using namespace gemmscope;
using namespace gemmscope::bench;

namespace {

// The command line as the program would get it (the program's name first).
std::unique_ptr<BenchCommandLine> commandLine(const QStringList &arguments)
{
    auto line = std::make_unique<BenchCommandLine>();
    QString error;
    if (!line->parse(QStringList{QStringLiteral("gemmscope-bench")} + arguments, &error))
        qWarning("%s", qPrintable(error));
    return line;
}

template <class Command> OptionError refusalOf(const Parsed<Command> &parsed)
{
    const auto *refused = std::get_if<OptionError>(&parsed);
    return refused ? *refused : OptionError{QStringLiteral("(accepted)"), 0};
}

} // namespace

class TestBenchOptions : public QObject {
    Q_OBJECT
private slots:
    void modeFollowsTheOptions_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("mode");
        QTest::newRow("nothing") << QStringList{} << int(BenchMode::Ladder);
        QTest::newRow("kernel") << QStringList{"--kernel", "k.cuh"} << int(BenchMode::Ladder);
        QTest::newRow("profile") << QStringList{"--profile"} << int(BenchMode::Profile);
        QTest::newRow("sweep over profile") << QStringList{"--profile", "--sweep"} << int(BenchMode::Sweep);
        QTest::newRow("size sweep over sweep")
            << QStringList{"--sweep", "--size-sweep"} << int(BenchMode::SizeSweep);
        QTest::newRow("status over all")
            << QStringList{"--sweep", "--size-sweep", "--sweep-status", "7"} << int(BenchMode::SweepStatus);
    }
    void modeFollowsTheOptions()
    {
        QFETCH(QStringList, args);
        QFETCH(int, mode);
        QCOMPARE(int(commandLine(args)->mode()), mode);
    }

    void ladderCommandHoldsEveryOption()
    {
        const auto line = commandLine({"--stages", "worklog-3", "--size", "64x128x256", "--budget-ms", "20",
                                       "--regime", "sustained", "--max-blocks-per-sm", "2", "--smem-carveout",
                                       "50", "--no-baseline", "--flush-l2", "--json", "out.json"});
        const Parsed<LadderCommand> parsed = LadderCommand::parse(*line);
        QVERIFY2(std::holds_alternative<LadderCommand>(parsed), qPrintable(refusalOf(parsed).message));
        const LadderCommand &c = std::get<LadderCommand>(parsed);
        QCOMPARE(int(c.targets.size()), 2); // cuBLAS FP32 first: the percentages need it
        QCOMPARE(c.targets[0].stage, QStringLiteral("cublas_fp32"));
        QCOMPARE(c.targets[1].preset, QStringLiteral("worklog-3"));
        QCOMPARE(c.job.size, (ProblemSize{64, 128, 256}));
        QCOMPARE(c.job.timing.regime, QStringLiteral("sustained"));
        QVERIFY(!c.job.timing.bursts); // one stretch at load
        QCOMPARE(c.job.timing.budgetMs.value_or(0), 20.0);
        QCOMPARE(c.job.timing.flushL2.value_or(false), true);
        QCOMPARE(c.job.maxBlocksPerSm, 2);
        QCOMPARE(c.job.smemCarveout, 50);
        QVERIFY(!c.job.baseline);
        QCOMPARE(c.jsonPath.value_or(QString()), QStringLiteral("out.json"));
        QCOMPARE(c.budgetText, QStringLiteral("20"));
    }

    void burstRegimeTakesBestOfFiveByDefault()
    {
        const Parsed<LadderCommand> parsed = LadderCommand::parse(*commandLine({"--stages", "worklog-3"}));
        QVERIFY(std::holds_alternative<LadderCommand>(parsed));
        const LadderCommand &c = std::get<LadderCommand>(parsed);
        QCOMPARE(c.job.timing.regime, QStringLiteral("burst"));
        QCOMPARE(c.job.timing.bursts.value_or(0), 5);
        QVERIFY(c.job.baseline);
        QVERIFY(!c.jsonPath);
    }

    void badLadderOptionsSayWhyWithTheirStatus_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("size") << QStringList{"--size", "1x2"} << "--size must look like 8192x4096x6144" << 1;
        QTest::newRow("budget") << QStringList{"--budget-ms", "-1"}
                                << "--budget-ms (milliseconds) must be a whole number from 0 to 3600000" << 1;
        QTest::newRow("regime") << QStringList{"--regime", "fast"}
                                << "--regime must be burst or sustained, not \"fast\"." << 1;
        QTest::newRow("bursts sustained") << QStringList{"--regime", "sustained", "--bursts", "3"}
                                          << "--bursts applies to the burst regime" << 1;
        QTest::newRow("carve-out") << QStringList{"--smem-carveout", "101"}
                                   << "--smem-carveout must be a whole percent from 0 to 100." << 1;
        QTest::newRow("blocks 2^31") << QStringList{"--max-blocks-per-sm", "2147483648"}
                                     << "--max-blocks-per-sm: 2147483648 is out of range (max 2147483647)."
                                     << 1;
        QTest::newRow("params alone") << QStringList{"--params", "BM=32"} << "there is no --kernel" << 1;
        QTest::newRow("kernel missing") << QStringList{"--kernel", "/nonexistent/k.cuh"} << "k.cuh" << 2;
    }
    void badLadderOptionsSayWhyWithTheirStatus()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        QFETCH(int, exitCode);
        const OptionError refused = refusalOf(LadderCommand::parse(*commandLine(args)));
        QVERIFY2(refused.message.contains(says), qPrintable(refused.message));
        QCOMPARE(refused.exitCode, exitCode);
    }

    void profileCommandAddsTheCublasBaseline()
    {
        const Parsed<ProfileCommand> parsed = ProfileCommand::parse(
            *commandLine({"--profile", "--stages", "worklog-3", "--sampling-period", "12", "--list-jobs"}));
        QVERIFY2(std::holds_alternative<ProfileCommand>(parsed), qPrintable(refusalOf(parsed).message));
        const ProfileCommand &c = std::get<ProfileCommand>(parsed);
        QCOMPARE(c.targets.size(), 2);
        QCOMPARE(c.targets[1].stage, QStringLiteral("cublas_fp32"));
        QCOMPARE(c.options.samplingPeriod.value_or(0), 12);
        QVERIFY(c.listJobs);
        const OptionError refused =
            refusalOf(ProfileCommand::parse(*commandLine({"--profile", "--sampling-period", "99"})));
        QVERIFY2(refused.message.contains("--sampling-period must be a whole number from 5 to 31"),
                 qPrintable(refused.message));
        QCOMPARE(refused.exitCode, 1);
    }

    // A size sweep's points are short: 30 ms each unless --budget-ms says otherwise; a grid sweep
    // takes --budget-ms's own default.
    void sweepBudgetsFollowTheirMode()
    {
        const QStringList sizes{"--size-sweep", "--stages", "worklog-3", "--sizes", "256,512"};
        const Parsed<SweepCommand> sizeSweep = parseSizeSweep(*commandLine(sizes));
        QVERIFY2(std::holds_alternative<SweepCommand>(sizeSweep), qPrintable(refusalOf(sizeSweep).message));
        QCOMPARE(std::get<SweepCommand>(sizeSweep).options.spec.budgetMs, 30);
        QCOMPARE(int(std::get<SweepCommand>(sizeSweep).options.spec.sizes.size()), 2);
        const Parsed<SweepCommand> given =
            parseSizeSweep(*commandLine(sizes + QStringList{"--budget-ms", "7"}));
        QVERIFY(std::holds_alternative<SweepCommand>(given));
        QCOMPARE(std::get<SweepCommand>(given).options.spec.budgetMs, 7);
        const Parsed<SweepCommand> grid =
            parseGridSweep(*commandLine({"--sweep", "--x-values", "64", "--y-values", "64"}));
        QVERIFY2(std::holds_alternative<SweepCommand>(grid), qPrintable(refusalOf(grid).message));
        QCOMPARE(std::get<SweepCommand>(grid).options.spec.budgetMs, 1000);
    }

    // --runner-template x --hosts x --runners: each template started once per host and GPU.
    void sweepRunnersComeFromTemplatesHostsAndCount()
    {
        const Parsed<SweepCommand> parsed = parseGridSweep(
            *commandLine({"--sweep", "--x-values", "64", "--y-values", "64", "--runners", "2", "--hosts",
                          "a,b", "--runner-template", "ssh {host} gemmscope-runner --gpu {gpu}"}));
        QVERIFY2(std::holds_alternative<SweepCommand>(parsed), qPrintable(refusalOf(parsed).message));
        const QList<RunnerCommand> &runners = std::get<SweepCommand>(parsed).options.runners;
        QCOMPARE(runners.size(), 4);
        QCOMPARE(runners[0].host, QStringLiteral("a"));
        QCOMPARE(runners[1].host, QStringLiteral("a"));
        QCOMPARE(runners[1].arguments.last(), QStringLiteral("1"));
        QCOMPARE(runners[2].host, QStringLiteral("b"));
    }

    void badSweepOptionsSayWhy_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::newRow("detach alone") << QStringList{"--detach"} << "--detach needs --slurm";
        QTest::newRow("rest") << QStringList{"--rest", "worst"} << "--rest must be fixed or best.";
        QTest::newRow("fixed") << QStringList{"--fixed", "BK"} << "--fixed takes NAME=value pairs";
        QTest::newRow("runners") << QStringList{"--runners", "0"}
                                 << "--runners must be a whole number from 1";
        QTest::newRow("template") << QStringList{"--runner-template", "gemmscope-runner; rm -rf /tmp/x"}
                                  << "outside quotes";
    }
    void badSweepOptionsSayWhy()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        const OptionError refused = refusalOf(parseGridSweep(
            *commandLine(QStringList{"--sweep", "--x-values", "64", "--y-values", "64"} + args)));
        QVERIFY2(refused.message.contains(says), qPrintable(refused.message));
        QCOMPARE(refused.exitCode, 1);
    }
};

QTEST_GUILESS_MAIN(TestBenchOptions)
#include "tst_bench_options.moc"
