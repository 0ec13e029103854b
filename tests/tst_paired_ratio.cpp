// The per-pair ratio of interleaved launches (kernels/paired_ratio.h) on synthetic streams: a clock
// drift that both launches of a pair share cancels in the pair's ratio, where it stays in each
// series' own noise.
#include "paired_ratio.h"
#include "timing_series.h"

#include <QTest>
#include <cmath>
#include <random>

using namespace gemmscope;

class TestPairedRatio : public QObject {
    Q_OBJECT
private slots:
    void sharedDriftCancelsInThePairs()
    {
        // A GPU at its power cap: the clock, and so every time, wanders by up to 25 % from pair to
        // pair; the candidate needs 1/0.9 of the reference's time at any clock.
        std::mt19937 rng(3);
        std::uniform_real_distribution<double> slowdown(1.0, 1.25);
        PairedRatio ratio;
        TimingSeries candidate(0, 90), reference(0, 90);
        for (int i = 0; i < 40; ++i) {
            const double f = slowdown(rng);
            candidate.add({f / 0.9, 0});
            reference.add({f, 0});
            ratio.add(f / 0.9, f);
        }
        const PairedRatioSummary s = ratio.summary();
        QCOMPARE(s.pairs, 40);
        QVERIFY2(std::abs(s.median - 0.9) < 1e-12, qPrintable(QString::number(s.median, 'g', 15)));
        QVERIFY2(s.noisePct >= 0 && s.noisePct < 1e-9, qPrintable(QString::number(s.noisePct)));
        // Each series alone is far from a 0.5 % target: only the pairs can stop on noise here.
        QVERIFY2(candidate.noisePct() > 5, qPrintable(QString::number(candidate.noisePct())));
        QVERIFY(!reference.noiseTargetMet(NoiseCriterion{}));
    }

    void independentNoiseStaysInTheRatio()
    {
        // 1 % of noise on each launch of its own: the ratio's noise is about sqrt(2) of it.
        std::mt19937 rng(11);
        std::normal_distribution<double> onePercent(1.0, 0.01);
        PairedRatio ratio;
        for (int i = 0; i < 2000; ++i)
            ratio.add(onePercent(rng) / 0.8, onePercent(rng));
        const PairedRatioSummary s = ratio.summary();
        QVERIFY2(std::abs(s.median - 0.8) < 0.002, qPrintable(QString::number(s.median)));
        QVERIFY2(std::abs(s.noisePct - 1.414) < 0.15, qPrintable(QString::number(s.noisePct)));
        QVERIFY(s.p20 < s.median && s.median < s.p80);
    }

    void pairsLeftOutAreNotCounted()
    {
        PairedRatio ratio;
        ratio.add(2.0, 1.0);
        ratio.add(4.0, 1.0, /*keep*/ false); // a throttled sample in the pair
        ratio.add(0.0, 1.0);                 // a time that cannot be
        ratio.add(1.0, -1.0);
        ratio.add(std::nan(""), 1.0);
        ratio.add(1.0, 1.0);
        const PairedRatioSummary s = ratio.summary();
        QCOMPARE(s.pairs, 2);
        QCOMPARE(s.median, 0.75); // of 0.5 and 1.0
        QCOMPARE(s.p20, 0.6);
        QCOMPARE(s.p80, 0.9);
    }

    void noiseMatchesTheTwoPassFormula()
    {
        const std::vector<double> ratios{0.91, 0.93, 0.88, 0.90, 0.95, 0.89};
        PairedRatio ratio;
        double mean = 0;
        for (double r : ratios) {
            ratio.add(1.0, r);
            mean += r;
        }
        mean /= double(ratios.size());
        double squares = 0;
        for (double r : ratios)
            squares += (r - mean) * (r - mean);
        const double expected = 100 * std::sqrt(squares / double(ratios.size() - 1)) / mean;
        QVERIFY2(std::abs(ratio.noisePct() - expected) < 1e-9, qPrintable(QString::number(ratio.noisePct())));
    }

    void emptyAndSingleHaveNoNoise()
    {
        PairedRatio ratio;
        QCOMPARE(ratio.summary().pairs, 0);
        QCOMPARE(ratio.summary().median, 0.0);
        QCOMPARE(ratio.noisePct(), -1.0);
        ratio.add(1.0, 1.0);
        QCOMPARE(ratio.noisePct(), -1.0);
    }
};

QTEST_APPLESS_MAIN(TestPairedRatio)
#include "tst_paired_ratio.moc"
