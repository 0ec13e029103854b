// The profile job's pieces that need no GPU: nvdisasm's listing read back by function
// and byte offset, the sampling period chosen for about a million samples, and the limiters
// over several kernels (counts summed, percentages weighted by each kernel's duration).
#include "counter_profiler.h"
#include "pc_sampler.h"
#include "profile_limiters.h"
#include "sass_listing.h"

#include <QTest>

using namespace gemmscope::runner;

class TestProfileParts : public QObject {
    Q_OBJECT

private slots:
    void listingIsReadByFunctionAndOffset()
    {
        // As nvdisasm -c prints an sm_90 CUBIN: section headers, labels, predicated instructions.
        const QString listing =
            QStringLiteral("\t.section\t.text._Z5sgemmiiiPKfS0_Pf,\"ax\",@progbits\n"
                           "\t.align\t128\n"
                           ".text._Z5sgemmiiiPKfS0_Pf:\n"
                           "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
                           "        /*0010*/                   S2R R0, SR_TID.X ;\n"
                           ".L_x_1:\n"
                           "        /*0280*/                   STS [R19], R17 ;\n"
                           "        /*0290*/              @!P1 LDG.E R17, desc[UR6][R14.64] ;\n"
                           "        /*0a40*/                   BRA `(.L_x_1) ;\n"
                           ".text.second:\n"
                           "        /*0000*/                   EXIT ;\n");
        const auto byFunction = instructionsByFunction(listing);
        QCOMPARE(byFunction.size(), size_t(2));
        const auto &sgemm = byFunction.at("_Z5sgemmiiiPKfS0_Pf");
        QCOMPARE(sgemm.size(), size_t(5));
        QCOMPARE(QString::fromStdString(sgemm.at(0x290)),
                 QStringLiteral("@!P1 LDG.E R17, desc[UR6][R14.64]"));
        QCOMPARE(QString::fromStdString(sgemm.at(0x280)), QStringLiteral("STS [R19], R17"));
        QCOMPARE(QString::fromStdString(sgemm.at(0xa40)), QStringLiteral("BRA `(.L_x_1)"));
        QCOMPARE(QString::fromStdString(byFunction.at("second").at(0)), QStringLiteral("EXIT"));
        QVERIFY(instructionsByFunction(QStringLiteral("<b>not a listing</b>\n/*zz*/ X ;")).empty());
    }

    // One sample per SM every 2^period cycles: the H200 probe saw 4.9 M samples for a 19.4 ms
    // kernel at period 10 (132 SMs, 1980 MHz).
    void periodAimsAtAMillionSamples()
    {
        const double samplesAt10 = 19.4e-3 * 1980e6 * 132 / 1024;
        QVERIFY(qAbs(samplesAt10 - 4.95e6) < 0.05e6);
        QCOMPARE(samplingPeriodFor(19.4, 132, 1980), 12); // 4.9 M / 4 = 1.2 M
        QCOMPARE(samplingPeriodFor(1.5, 132, 1980), 9);
        QCOMPARE(samplingPeriodFor(1e-6, 132, 1980), 5);  // never below CUPTI's 5
        QCOMPARE(samplingPeriodFor(1e12, 132, 1980), 31); // nor above its 31
        QCOMPARE(samplingPeriodFor(0, 132, 1980), 10);    // no measurement: a middle value
        QCOMPARE(samplingPeriodFor(-1, 132, 1980), 10);
    }

    void limitersSumCountsAndWeighPercentages()
    {
        CounterReading reading;
        reading.values = {{"gpu__time_duration.sum", 4000},
                          {"smsp__inst_executed.sum", 1100},
                          {"sm__warps_active.avg.pct_of_peak_sustained_active", 0}};
        // A GEMM of 3 ms at 50 % occupancy and a split-K reduction of 1 ms at 10 %.
        reading.perKernel = {{3000, 1000, 50}, {1000, 100, 10}};
        reading.kernels = 2;
        const QMap<QString, double> limiters = limitersOf(reading);
        QCOMPARE(limiters.value(QStringLiteral("smsp__inst_executed.sum")), 1100.0);
        QCOMPARE(limiters.value(QStringLiteral("gpu__time_duration.sum")), 4000.0);
        QCOMPARE(limiters.value(QStringLiteral("sm__warps_active.avg.pct_of_peak_sustained_active")), 40.0);
    }
};

QTEST_GUILESS_MAIN(TestProfileParts)
#include "tst_profile_parts.moc"
