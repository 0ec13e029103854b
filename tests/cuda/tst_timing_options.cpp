// The runner's reading of a run's timing (app/runner/request_options.h): the documented defaults,
// the clamps, and the noise criterion refused with its sentence — no GPU needed.
#include "request_options.h"

#include <QTest>

using namespace gemmscope;
using namespace gemmscope::runner;

namespace {

// The request is refused as invalid_config with a sentence that names the value.
void expectInvalidConfig(const protocol::TimingRequest &t, const QString &mentions)
{
    try {
        timingOptions(t);
        QFAIL("accepted");
    } catch (const RunnerError &e) {
        QCOMPARE(e.kind(), ErrorKind::InvalidConfig);
        QVERIFY2(e.message().contains(mentions), qPrintable(e.message()));
    }
}

} // namespace

class TestTimingOptions : public QObject {
    Q_OBJECT
private slots:
    void defaultsAreBurstHalfAPercentNinetyPercent()
    {
        const TimingOptions o = timingOptions(std::nullopt);
        QCOMPARE(o.regime, TimingRegime::Burst);
        QCOMPARE(o.noise.maxNoisePct, 0.5);
        QCOMPARE(o.noise.throttleThresholdPct, 90.0);
        QVERIFY(o.stopOnNoise);
        const TimingOptions empty = timingOptions(protocol::TimingRequest{});
        QCOMPARE(empty.regime, TimingRegime::Burst);
    }

    void requestedCriterionIsTaken()
    {
        protocol::TimingRequest t;
        t.regime = QStringLiteral("sustained");
        t.maxNoisePct = 2;
        t.throttleThresholdPct = 75;
        const TimingOptions o = timingOptions(t);
        QCOMPARE(o.regime, TimingRegime::Sustained);
        QCOMPARE(o.noise.maxNoisePct, 2.0);
        QCOMPARE(o.noise.throttleThresholdPct, 75.0);
    }

    void severalBurstsOnlyInTheBurstRegime()
    {
        QCOMPARE(timingOptions(std::nullopt).bursts, 1);
        protocol::TimingRequest t;
        t.bursts = 5;
        QCOMPARE(timingOptions(t).bursts, 5);
        t.regime = QStringLiteral("sustained");
        t.bursts = 1; // one stretch: what a sustained run is anyway
        QCOMPARE(timingOptions(t).bursts, 1);
    }

    void badBurstsAreInvalidConfig_data()
    {
        QTest::addColumn<QString>("regime");
        QTest::addColumn<long long>("bursts");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("zero") << QString() << 0LL << "between 1 and 50; it was 0";
        QTest::newRow("negative") << QString() << -3LL << "between 1 and 50; it was -3";
        QTest::newRow("huge") << QString() << 1000000000LL << "between 1 and 50; it was 1000000000";
        QTest::newRow("sustained") << QStringLiteral("sustained") << 3LL << "needs the burst regime";
    }
    void badBurstsAreInvalidConfig()
    {
        QFETCH(QString, regime);
        QFETCH(long long, bursts);
        QFETCH(QString, mentions);
        protocol::TimingRequest t;
        t.regime = regime;
        t.bursts = bursts;
        expectInvalidConfig(t, mentions);
    }

    void badValuesAreInvalidConfig_data()
    {
        QTest::addColumn<QString>("regime");
        QTest::addColumn<double>("noise");
        QTest::addColumn<double>("threshold");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("noise 0") << QString() << 0.0 << 90.0 << "noise target 0 %";
        QTest::newRow("noise negative") << QString() << -0.5 << 90.0 << "noise target -0.5 %";
        QTest::newRow("noise 1e9") << QString() << 1e9 << 90.0 << "noise target 1e+09 %";
        QTest::newRow("threshold above 100 %") << QString() << 0.5 << 150.0 << "threshold 150 %";
        QTest::newRow("regime unknown") << QStringLiteral("warm") << 0.5 << 90.0 << "regime \"warm\"";
    }
    void badValuesAreInvalidConfig()
    {
        QFETCH(QString, regime);
        QFETCH(double, noise);
        QFETCH(double, threshold);
        QFETCH(QString, mentions);
        protocol::TimingRequest t;
        t.regime = regime;
        t.maxNoisePct = noise;
        t.throttleThresholdPct = threshold;
        expectInvalidConfig(t, mentions);
    }
};

QTEST_APPLESS_MAIN(TestTimingOptions)
#include "tst_timing_options.moc"
