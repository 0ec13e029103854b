// The trust mark (app/core/trust_mark.h): one word and a sentence from a result's conditions.
#include "support/run_conditions.h"
#include "trust_mark.h"

#include <QTest>

using namespace gemmscope;
using protocol::RunConditions;

using gemmscope::test::steadyBurst;

class TestTrustMark : public QObject {
    Q_OBJECT
private slots:
    void steady()
    {
        const TrustMark m = trustMark(steadyBurst());
        QCOMPARE(m.level, TrustLevel::Steady);
        QCOMPARE(m.word, QStringLiteral("steady"));
        QCOMPARE(m.reason, QStringLiteral("Steady: 0.21 % noise over 40 samples at 1980 MHz, burst."));
    }

    // The best of several bursts says so, with the bursts' spread (cuBLAS TF32 on an H200 moves
    // ~10 % from burst to burst: the reader should see it).
    void bestOfSeveralBurstsSaysTheSpread()
    {
        RunConditions c = steadyBurst();
        c.bursts = 5;
        c.chosenBurst = 3;
        c.burstMediansMs = {0.3985, 0.3991, 0.3842, 0.3752, 0.3849};
        const TrustMark m = trustMark(c);
        QCOMPARE(m.level, TrustLevel::Steady);
        QCOMPARE(m.reason,
                 QStringLiteral("Steady: 0.21 % noise over 40 samples at 1980 MHz, burst, best of 5 "
                                "bursts (their medians 0.3752-0.3991 ms)."));
    }

    void samplesLeftOutMakeItThrottled()
    {
        RunConditions c = steadyBurst();
        c.throttledSamples = 12;
        c.samples = 80;
        c.smClockMinMhz = 1605;
        c.throttleReasons = {protocol::ThrottleReason::PowerCap};
        const TrustMark m = trustMark(c);
        QCOMPARE(m.level, TrustLevel::Throttled);
        QCOMPARE(m.reason,
                 QStringLiteral("Throttled: 12 of 80 samples ran below 90.0 % of the starting clock and "
                                "are left out (power cap); SM clock 1605–1980 MHz, 0.21 % noise over "
                                "68 samples, burst."));
    }

    void thermalLimitOrNoCooldownIsThrottledEvenWithoutSamplesLeftOut()
    {
        RunConditions hot = steadyBurst();
        hot.throttleReasons = {protocol::ThrottleReason::Thermal};
        QCOMPARE(trustMark(hot).level, TrustLevel::Throttled);
        QVERIFY(trustMark(hot).reason.contains(QStringLiteral("thermal")));
        RunConditions warm = steadyBurst();
        warm.cooled = false;
        QCOMPARE(trustMark(warm).level, TrustLevel::Throttled);
        QVERIFY(trustMark(warm).reason.contains(QStringLiteral("had not cooled down")));
    }

    void aBurstEndedByTheClockIsSteadyOverItsSamples()
    {
        RunConditions c = steadyBurst();
        c.stoppedBy = protocol::StopReason::ClockDrop;
        c.samples = 24;
        c.throttledSamples = 1;
        c.throttleReasons = {protocol::ThrottleReason::PowerCap};
        const TrustMark m = trustMark(c);
        QCOMPARE(m.level, TrustLevel::Steady);
        QVERIFY2(m.reason.contains(QStringLiteral("over 23 samples")), qPrintable(m.reason));
        QVERIFY2(m.reason.contains(QStringLiteral("the burst ended when the clock fell (power cap)")),
                 qPrintable(m.reason));
        // More than the one sample that showed the fall: throttled.
        c.throttledSamples = 5;
        QCOMPARE(trustMark(c).level, TrustLevel::Throttled);
    }

    void sustainedAtThePowerCapWithAHeldClockIsSteady()
    {
        RunConditions c = steadyBurst();
        c.regime = protocol::TimingRegime::Sustained;
        c.smClockMinMhz = c.smClockMedianMhz = 1605;
        c.throttleReasons = {protocol::ThrottleReason::PowerCap};
        const TrustMark m = trustMark(c);
        QCOMPARE(m.level, TrustLevel::Steady);
        QVERIFY2(m.reason.contains(QStringLiteral("power cap reached, clock held")), qPrintable(m.reason));
        QVERIFY(m.reason.contains(QStringLiteral("sustained")));
    }

    void noiseAboveTheTargetIsNoisy()
    {
        RunConditions c = steadyBurst();
        c.noisePct = 2.3;
        c.samples = 200;
        c.stoppedBy = protocol::StopReason::Budget;
        const TrustMark m = trustMark(c);
        QCOMPARE(m.level, TrustLevel::Noisy);
        QVERIFY2(
            m.reason.startsWith(QStringLiteral("Noisy: 2.30 % over 200 samples, above the 0.50 % target")),
            qPrintable(m.reason));
    }

    // A limit a newer runner names is said as such, not as a blank or a crash.
    void anUnknownLimitIsNamedAsUnknown()
    {
        RunConditions c = steadyBurst();
        c.throttleReasons = {protocol::ThrottleReason::PowerCap, protocol::ThrottleReason::Unknown};
        const TrustMark m = trustMark(c);
        QCOMPARE(m.level, TrustLevel::Steady);
        QVERIFY2(
            m.reason.contains(QStringLiteral("(power cap, a limit this GemmScope does not know reached")),
            qPrintable(m.reason));
        c.regime = protocol::TimingRegime::Unknown;
        QVERIFY2(trustMark(c).reason.contains(QStringLiteral("regime unknown")),
                 qPrintable(trustMark(c).reason));
    }

    void unknownAndPublished()
    {
        QCOMPARE(trustMark(std::nullopt).level, TrustLevel::Unknown);
        QVERIFY(trustMark(std::nullopt).reason.contains(QStringLiteral("conditions unknown")));
        const TrustMark published = trustMark(std::nullopt, true);
        QCOMPARE(published.word, QStringLiteral("published"));
        QVERIFY(published.reason.contains(QStringLiteral("conditions unknown")));
    }

    void clockText()
    {
        QCOMPARE(gemmscope::clockText(steadyBurst()), QStringLiteral("1980 MHz"));
        RunConditions c = steadyBurst();
        c.smClockMinMhz = 1605.4;
        QCOMPARE(gemmscope::clockText(c), QStringLiteral("1605–1980 MHz"));
        QCOMPARE(gemmscope::clockText(std::nullopt), QStringLiteral("-"));
    }
};

QTEST_APPLESS_MAIN(TestTrustMark)
#include "tst_trust_mark.moc"
