// The noise criterion and the throttle filter (kernels/timing_series.h) on synthetic sample
// streams: what nvbench's --stopping-criterion stdrel and --throttle-threshold do, with our numbers.
#include "timing_series.h"

#include <QTest>
#include <cmath>
#include <random>

using namespace gemmscope;

class TestTimingSeries : public QObject {
    Q_OBJECT
private slots:
    void steadyStreamMeetsTheTargetAfterTheMinimum()
    {
        TimingSeries series(1980, 90);
        const NoiseCriterion criterion; // 0.5 %, 10 samples
        // 1.000 ms +- 0.2 %: the noise target is met, but not before ten samples.
        for (int i = 0; i < 9; ++i) {
            series.add({1.0 + (i % 2 ? 0.002 : -0.002), 1980});
            QVERIFY2(!series.noiseTargetMet(criterion), "met before the minimum of ten samples");
        }
        series.add({1.0, 1980});
        QVERIFY(series.noiseTargetMet(criterion));
        QVERIFY(series.noisePct() > 0.1 && series.noisePct() < 0.3);
        const SampleSummary s = series.summary();
        QCOMPARE(s.samples, 10);
        QCOMPARE(s.kept, 10);
        QCOMPARE(s.throttled, 0);
        QCOMPARE(s.medianMs, 0.999); // five at 0.998, one at 1.000, four at 1.002
        QCOMPARE(s.clockStartMhz, 1980.0);
        QCOMPARE(s.clockMinMhz, 1980.0);
    }

    void noisyStreamNeverMeetsTheTarget()
    {
        std::mt19937 rng(7);
        std::normal_distribution<double> twoPercent(1.0, 0.02);
        TimingSeries series(1980, 90);
        for (int i = 0; i < 200; ++i)
            series.add({twoPercent(rng), 1980});
        QVERIFY(!series.noiseTargetMet(NoiseCriterion{}));
        QVERIFY2(std::abs(series.noisePct() - 2.0) < 0.4, qPrintable(QString::number(series.noisePct())));
        // The same stream meets a looser target of 3 %.
        QVERIFY(series.noiseTargetMet(NoiseCriterion{3.0, 90, 10}));
    }

    void noiseMatchesTheTwoPassFormula()
    {
        // Welford's running figure equals the textbook sample standard deviation over the mean.
        const std::vector<double> values{3.1, 2.9, 3.4, 3.0, 2.7, 3.3, 3.05};
        TimingSeries series(0, 90);
        double mean = 0;
        for (double v : values) {
            series.add({v, 0});
            mean += v;
        }
        mean /= double(values.size());
        double squares = 0;
        for (double v : values)
            squares += (v - mean) * (v - mean);
        const double expected = 100 * std::sqrt(squares / double(values.size() - 1)) / mean;
        QVERIFY(std::abs(series.noisePct() - expected) < 1e-9);
    }

    void throttledSamplesAreLeftOutOfTheMedian()
    {
        // Starting at 1980 MHz, threshold 90 % = 1782 MHz: the four samples at 1600 MHz ran slower
        // and must not pull the median; they are counted and reported.
        TimingSeries series(1980, 90);
        for (int i = 0; i < 12; ++i)
            series.add({1.00, 1975});
        for (int i = 0; i < 4; ++i)
            series.add({1.24, 1600});
        series.add({1.00, 1782}); // exactly at the threshold: kept
        const SampleSummary s = series.summary();
        QCOMPARE(s.samples, 17);
        QCOMPARE(s.throttled, 4);
        QCOMPARE(s.kept, 13);
        QCOMPARE(s.medianMs, 1.00);
        QCOMPARE(s.p80Ms, 1.00);
        QCOMPARE(s.clockMinMhz, 1600.0);
        QVERIFY(!s.allThrottled);
        // Throttled samples never enter the noise: the kept ones are identical.
        QCOMPARE(series.noisePct(), 0.0);
    }

    void everySampleThrottledFallsBackToAllAndSaysSo()
    {
        TimingSeries series(1980, 90);
        for (double ms : {1.3, 1.2, 1.25})
            series.add({ms, 1500});
        const SampleSummary s = series.summary();
        QVERIFY(s.allThrottled);
        QCOMPARE(s.kept, 0);
        QCOMPARE(s.medianMs, 1.25);
        QVERIFY(s.noisePct > 0);
        QVERIFY(!series.noiseTargetMet(NoiseCriterion{}));
    }

    void withoutAClockNothingIsLeftOut()
    {
        TimingSeries unmeasuredStart(0, 90);
        unmeasuredStart.add({1.0, 500});
        QCOMPARE(unmeasuredStart.kept(), 1);
        TimingSeries unmeasuredSample(1980, 90);
        unmeasuredSample.add({1.0, 0});
        QCOMPARE(unmeasuredSample.kept(), 1);
        TimingSeries keepAll(1980, 0); // threshold 0 %: keep every sample
        keepAll.add({1.0, 100});
        QCOMPARE(keepAll.kept(), 1);
    }

    void badCriteriaAreRefusedWithASentence_data()
    {
        QTest::addColumn<double>("noise");
        QTest::addColumn<double>("threshold");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("noise 0") << 0.0 << 90.0 << "noise target 0 %";
        QTest::newRow("noise negative") << -1.0 << 90.0 << "noise target -1 %";
        QTest::newRow("noise 1e9") << 1e9 << 90.0 << "noise target 1e+09 %";
        QTest::newRow("noise NaN") << std::nan("") << 90.0 << "noise target nan %";
        QTest::newRow("threshold 101") << 0.5 << 101.0 << "threshold 101 %";
        QTest::newRow("threshold negative") << 0.5 << -5.0 << "threshold -5 %";
        // Just past a bound, the value given is said as given: "100 % is out of range" would
        // contradict the range the same sentence offers.
        QTest::newRow("threshold 100.0001") << 0.5 << 100.0001 << "threshold 100.0001 %";
        QTest::newRow("threshold -0.0001") << 0.5 << -0.0001 << "threshold -0.0001 %";
        QTest::newRow("noise 50.0000001") << 50.0000001 << 90.0 << "noise target 50.0000001 %";
        QTest::newRow("noise -1e-300") << -1e-300 << 90.0 << "noise target -1e-300 %";
    }
    void badCriteriaAreRefusedWithASentence()
    {
        QFETCH(double, noise);
        QFETCH(double, threshold);
        QFETCH(QString, mentions);
        const QString why = QString::fromStdString(checkNoiseCriterion({noise, threshold, 10}));
        QVERIFY2(why.contains(mentions), qPrintable(why));
        QVERIFY(why.endsWith(QLatin1Char('.')) || why.endsWith(QLatin1Char(')')));
    }

    void goodCriteriaPass()
    {
        QVERIFY(checkNoiseCriterion(NoiseCriterion{}).empty());
        QVERIFY(checkNoiseCriterion({50, 100, 2}).empty());
        QVERIFY(checkNoiseCriterion({0.01, 0, 10}).empty());
        QVERIFY(checkNoiseCriterion({1e-300, 100, 2}).empty()); // the bounds themselves are in range
    }

    void aRefusedValueNeverReadsAsOneInRange()
    {
        // Whatever is refused, the number printed is the number refused, never one rounded into the
        // range: the sentence must not claim that 100 % or 50 % is out of range.
        for (const double threshold : {std::nextafter(100.0, 200.0), 100.00000000001, 100.0001}) {
            const QString why = QString::fromStdString(checkNoiseCriterion({0.5, threshold, 10}));
            QVERIFY2(!why.contains(QLatin1String(" 100 % is out of range")), qPrintable(why));
            QVERIFY2(!why.isEmpty(), "just above 100 % is refused");
        }
        const QString noise =
            QString::fromStdString(checkNoiseCriterion({std::nextafter(50.0, 100.0), 90, 10}));
        QVERIFY2(noise.contains(QLatin1String("noise target 50.00000000000001 %")), qPrintable(noise));
    }
};

QTEST_APPLESS_MAIN(TestTimingSeries)
#include "tst_timing_series.moc"
