// The tensor-core fragment tables (PTX ISA, "Matrix Fragments for mma.m16n8k8", .tf32, and
// "Matrix Fragments for wgmma.mma_async.m64nNk8"): hand-worked answers read off the tables, and
// the property every table has: lane x register -> element is a bijection onto the tile.
#include "mma_fragments.h"

#include <QtTest>

#include <set>

using namespace gemmscope;

Q_DECLARE_METATYPE(gemmscope::Operand)

class TestMmaFragments : public QObject {
    Q_OBJECT

private slots:
    void mmaElements_data()
    {
        QTest::addColumn<Operand>("operand");
        QTest::addColumn<int>("lane");
        QTest::addColumn<int>("reg");
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("col");
        // Lane 5: groupID = 5 >> 2 = 1, threadID_in_group = 5 % 4 = 1.
        // A: a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4).
        QTest::newRow("A lane 5 a0") << Operand::A << 5 << 0 << 1 << 1;
        QTest::newRow("A lane 5 a1") << Operand::A << 5 << 1 << 9 << 1;
        QTest::newRow("A lane 5 a2") << Operand::A << 5 << 2 << 1 << 5;
        QTest::newRow("A lane 5 a3") << Operand::A << 5 << 3 << 9 << 5;
        // Lane 31: g = 7, t = 3: the bottom-right corner is a3.
        QTest::newRow("A lane 31 a3") << Operand::A << 31 << 3 << 15 << 7;
        QTest::newRow("A lane 0 a0") << Operand::A << 0 << 0 << 0 << 0;
        // B: b0 (t, g), b1 (t+4, g). Lane 5: b0 (1, 1), b1 (5, 1). Lane 14 (g 3, t 2): b1 (6, 3).
        QTest::newRow("B lane 5 b0") << Operand::B << 5 << 0 << 1 << 1;
        QTest::newRow("B lane 5 b1") << Operand::B << 5 << 1 << 5 << 1;
        QTest::newRow("B lane 14 b1") << Operand::B << 14 << 1 << 6 << 3;
        QTest::newRow("B lane 31 b1") << Operand::B << 31 << 1 << 7 << 7;
        // C: c0 (g, 2t), c1 (g, 2t+1), c2 (g+8, 2t), c3 (g+8, 2t+1).
        QTest::newRow("C lane 5 c0") << Operand::C << 5 << 0 << 1 << 2;
        QTest::newRow("C lane 5 c1") << Operand::C << 5 << 1 << 1 << 3;
        QTest::newRow("C lane 5 c2") << Operand::C << 5 << 2 << 9 << 2;
        QTest::newRow("C lane 5 c3") << Operand::C << 5 << 3 << 9 << 3;
        QTest::newRow("C lane 30 c3") << Operand::C << 30 << 3 << 15 << 5; // g 7, t 2
    }
    void mmaElements()
    {
        QFETCH(Operand, operand);
        QFETCH(int, lane);
        QFETCH(int, reg);
        QFETCH(int, row);
        QFETCH(int, col);
        QCOMPARE(mmaElementOf(operand, lane, reg), (TileCell{row, col}));
        QCOMPARE(mmaSlotOf(operand, row, col), (FragmentSlot{lane, reg}));
    }

    void mmaTablesAreBijections_data()
    {
        QTest::addColumn<Operand>("operand");
        QTest::newRow("A") << Operand::A;
        QTest::newRow("B") << Operand::B;
        QTest::newRow("C") << Operand::C;
    }
    void mmaTablesAreBijections()
    {
        QFETCH(Operand, operand);
        const TileCell extent = mmaTileExtent(operand);
        QCOMPARE(mmaRegistersPerLane(operand) * kWarpSize, extent.row * extent.col);
        std::set<std::pair<int, int>> seen;
        for (int lane = 0; lane < kWarpSize; ++lane) {
            for (int reg = 0; reg < mmaRegistersPerLane(operand); ++reg) {
                const TileCell c = mmaElementOf(operand, lane, reg);
                QVERIFY(c.row >= 0 && c.row < extent.row && c.col >= 0 && c.col < extent.col);
                QVERIFY2(seen.insert({c.row, c.col}).second, "two slots hold the same element");
                QCOMPARE(mmaSlotOf(operand, c.row, c.col), (FragmentSlot{lane, reg}));
            }
        }
        QCOMPARE(int(seen.size()), extent.row * extent.col);
    }

    void outOfRangeIsRefused()
    {
        QCOMPARE(mmaElementOf(Operand::B, 0, 2), (TileCell{-1, -1}));
        QCOMPARE(mmaElementOf(Operand::A, 32, 0), (TileCell{-1, -1}));
        QCOMPARE(mmaSlotOf(Operand::C, 16, 0), (FragmentSlot{-1, -1}));
        QCOMPARE(mmaSlotOf(Operand::B, 0, 8), (FragmentSlot{-1, -1}));
        QCOMPARE(wgmmaAccumulatorElementOf(128, 128, 0), (TileCell{-1, -1}));
        QCOMPARE(wgmmaAccumulatorElementOf(128, 0, 64), (TileCell{-1, -1}));
        QCOMPARE(wgmmaAccumulatorElementOf(12, 0, 0), (TileCell{-1, -1})); // N not a multiple of 8
        QCOMPARE(wgmmaAccumulatorSlotOf(64, 64, 0), (FragmentSlot{-1, -1}));
        QCOMPARE(wgmmaASlotOf(0, 8), (FragmentSlot{-1, -1}));
    }

    void wgmmaAccumulator_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("thread");
        QTest::addColumn<int>("reg");
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("col");
        // Thread 5 (warp 0, g 1, t 1): d0..d3 as mma's c0..c3, then the next 8 columns.
        QTest::newRow("t5 d0") << 64 << 5 << 0 << 1 << 2;
        QTest::newRow("t5 d3") << 64 << 5 << 3 << 9 << 3;
        QTest::newRow("t5 d4") << 64 << 5 << 4 << 1 << 10;
        QTest::newRow("t5 d7") << 64 << 5 << 7 << 9 << 11;
        // Thread 37 is lane 5 of warp 1: 16 rows further down.
        QTest::newRow("t37 d0") << 64 << 37 << 0 << 17 << 2;
        // Thread 127 (warp 3, g 7, t 3), last register of N = 256 (d127 = c3 of group 31).
        QTest::newRow("t127 d127 n256") << 256 << 127 << 127 << 63 << 255;
        // Thread 100 (warp 3, lane 4: g 1, t 0), d10 = c2 of group 2: (48 + 9, 16 + 0).
        QTest::newRow("t100 d10 n128") << 128 << 100 << 10 << 57 << 16;
    }
    void wgmmaAccumulator()
    {
        QFETCH(int, n);
        QFETCH(int, thread);
        QFETCH(int, reg);
        QFETCH(int, row);
        QFETCH(int, col);
        QCOMPARE(wgmmaAccumulatorElementOf(n, thread, reg), (TileCell{row, col}));
        QCOMPARE(wgmmaAccumulatorSlotOf(n, row, col), (FragmentSlot{thread, reg}));
    }

    void wgmmaTablesAreBijections_data()
    {
        QTest::addColumn<int>("n");
        for (int n : {8, 24, 64, 128, 256})
            QTest::addRow("N=%d", n) << n;
    }
    void wgmmaTablesAreBijections()
    {
        QFETCH(int, n);
        std::set<std::pair<int, int>> seen;
        for (int t = 0; t < kWarpgroupThreads; ++t) {
            for (int reg = 0; reg < wgmmaAccumulatorRegisters(n); ++reg) {
                const TileCell c = wgmmaAccumulatorElementOf(n, t, reg);
                QVERIFY(c.row >= 0 && c.row < kWgmmaM && c.col >= 0 && c.col < n);
                QVERIFY(seen.insert({c.row, c.col}).second);
                QCOMPARE(wgmmaAccumulatorSlotOf(n, c.row, c.col), (FragmentSlot{t, reg}));
                // Warp w of the warpgroup owns rows 16w .. 16w + 15 only.
                QCOMPARE(c.row / 16, t / kWarpSize);
            }
        }
        QCOMPARE(int(seen.size()), kWgmmaM * n);
    }

    void wgmmaAFromRegisters()
    {
        // Each warp's 16 x 8 slab is laid out as mma's A: thread 37 (warp 1, lane 5) a1 = (16 + 9, 1).
        QCOMPARE(wgmmaAElementOf(37, 1), (TileCell{25, 1}));
        QCOMPARE(wgmmaAElementOf(127, 3), (TileCell{63, 7}));
        std::set<std::pair<int, int>> seen;
        for (int t = 0; t < kWarpgroupThreads; ++t)
            for (int reg = 0; reg < 4; ++reg) {
                const TileCell c = wgmmaAElementOf(t, reg);
                QVERIFY(seen.insert({c.row, c.col}).second);
                QCOMPARE(wgmmaASlotOf(c.row, c.col), (FragmentSlot{t, reg}));
            }
        QCOMPARE(int(seen.size()), kWgmmaM * kWgmmaK);
    }
};

QTEST_APPLESS_MAIN(TestMmaFragments)
#include "tst_mma_fragments.moc"
