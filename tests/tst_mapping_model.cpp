// The thread-to-tile mapping model: owners of outputs and the tile elements each thread loads,
// checked against answers worked out by hand from the kernels' index expressions.
#include "mapping_model.h"
#include "support/kernel_shapes.h"
#include "tensor_core_models.h"

#include <QtTest>

#include <map>
#include <set>

using namespace gemmscope;

namespace {

using test::shapeOf;

// The tensor-core shapes as the lead's catalog entries will build them, from the model helpers.
KernelShape mmaShape(int bm, int bn, int bk, int wm, int wn, int stages = 3)
{
    return mmaWarpTileModel().mapping(
        {{"BM", bm}, {"BN", bn}, {"BK", bk}, {"WM", wm}, {"WN", wn}, {"STAGES", stages}});
}

KernelShape wgmmaShape(int bm, int bn, int wm, int producers = 1)
{
    WgmmaModelOptions options;
    options.producerWarpgroups = producers;
    return wgmmaWarpgroupModel(options).mapping(
        {{"BM", bm}, {"BN", bn}, {"BK", 32}, {"WM", wm}, {"STAGES", 4}});
}

void addConfigurations()
{
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QString>("params");
    QTest::newRow("step 0 naive 16x16") << "naive"
                                        << "BX=16 BY=16";
    QTest::newRow("naive 32x8") << "naive"
                                << "BX=32 BY=8";
    QTest::newRow("step 1 tiled 16") << "smem_tiled"
                                     << "TILE=16 PAD=0";
    QTest::newRow("guide 32 padded") << "smem_tiled"
                                     << "TILE=32 PAD=1";
    QTest::newRow("step 2 coarsened 64") << "coarsened"
                                         << "BM=64 BN=64 BK=8 TM=4 TN=4";
    QTest::newRow("step 3 coalesced 64") << "coalesced"
                                         << "BM=64 BN=64 BK=8 TM=4 TN=4";
    QTest::newRow("step 5a double 128") << "double_buffered"
                                        << "BM=128 BN=128 BK=12 TM=8 TN=8";
    QTest::newRow("step 6 coalesced 192") << "coalesced"
                                          << "BM=192 BN=192 BK=16 TM=12 TN=12";
    QTest::newRow("step 7 strided 192") << "strided"
                                        << "BM=192 BN=192 BK=16 TM=12 TN=12";
    QTest::newRow("step 8 final 192") << "final"
                                      << "BM=192 BN=192 BK=16 TM=12 TN=12";
    QTest::newRow("non-square strided") << "strided"
                                        << "BM=64 BN=128 BK=8 TM=8 TN=4";
    QTest::newRow("vectorized 128") << "vectorized"
                                    << "BM=128 BN=128 BK=8 TM=8 TN=8";
    QTest::newRow("warptiled 128") << "warptiled"
                                   << "BM=128 BN=128 BK=16 TM=8 TN=8";
    QTest::newRow("pipelined tuned") << "pipelined"
                                     << "BM=128 BN=128 BK=16 TM=8 TN=16 SWIZZLE=1";
    QTest::newRow("pipelined 64x128 4x8") << "pipelined"
                                          << "BM=64 BN=128 BK=16 TM=4 TN=8 SWIZZLE=4";
    QTest::newRow("async 128x256") << "async_pipelined"
                                   << "BM=128 BN=256 BK=8 TM=8 TN=16 STAGES=3";
    QTest::newRow("mma_tf32 preset") << "mma_tf32"
                                     << "BM=128 BN=128 BK=32 WM=64 WN=64 STAGES=3";
    QTest::newRow("wgmma_tf32 preset") << "wgmma_tf32"
                                       << "BM=256 BN=128 STAGES=4";
    QTest::newRow("wgmma_tf32 64x256") << "wgmma_tf32"
                                       << "BM=64 BN=256 STAGES=3";
}

} // namespace

class TestMappingModel : public QObject {
    Q_OBJECT

private slots:
    void everyOutputHasExactlyOneOwner_data() { addConfigurations(); }
    void everyOutputHasExactlyOneOwner()
    {
        QFETCH(QString, stage);
        QFETCH(QString, params);
        const KernelShape s = shapeOf(stage, params);
        const std::vector<int> map = ownerMap(s);
        QCOMPARE(int(map.size()), s.bm * s.bn);

        std::map<int, int> outputsPerThread;
        for (int r = 0; r < s.bm; ++r) {
            for (int c = 0; c < s.bn; ++c) {
                const int owner = map[std::size_t(r * s.bn + c)];
                QVERIFY2(owner >= 0,
                         qPrintable(QStringLiteral("output (%1, %2) has no owner").arg(r).arg(c)));
                // The store loop (ownerMap) and the inverse (ownerOf) must agree.
                QCOMPARE(ownerOf(s, r, c).tid, owner);
                ++outputsPerThread[owner];
            }
        }
        QCOMPARE(int(outputsPerThread.size()), s.threads());
        for (const auto &[tid, count] : outputsPerThread)
            QCOMPARE(count, s.tm * s.tn);
    }

    void ownerOfKnownCells_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("params");
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("col");
        QTest::addColumn<int>("tx");
        QTest::addColumn<int>("ty");
        QTest::addColumn<int>("warp");
        QTest::addColumn<int>("lane");
        // naive 16x16: (3, 5) is thread (5, 3) = tid 53 = warp 1, lane 21.
        QTest::newRow("naive") << "naive"
                               << "BX=16 BY=16" << 3 << 5 << 5 << 3 << 1 << 21;
        // contiguous 12x12 micro-tiles: column 12 belongs to tx = 1; row 25 to ty = 2 -> tid 33.
        QTest::newRow("step 6 contiguous")
            << "coalesced"
            << "BM=192 BN=192 BK=16 TM=12 TN=12" << 25 << 12 << 1 << 2 << 1 << 1;
        // strided by 16: column 12 belongs to tx = 12; row 25 to ty = 9 -> tid 156 = warp 4, lane 28.
        QTest::newRow("step 7 strided")
            << "strided"
            << "BM=192 BN=192 BK=16 TM=12 TN=12" << 25 << 12 << 12 << 9 << 4 << 28;
        // strided: (16, 17) wraps to thread (1, 0).
        QTest::newRow("step 8 wraps") << "final"
                                      << "BM=192 BN=192 BK=16 TM=12 TN=12" << 16 << 17 << 1 << 0 << 0 << 1;
        // coarsened 64/4: (63, 63) is the last thread (15, 15) = tid 255, warp 7, lane 31.
        QTest::newRow("step 2 corner") << "coarsened"
                                       << "BM=64 BN=64 BK=8 TM=4 TN=4" << 63 << 63 << 15 << 15 << 7 << 31;
        // Warp tiles, tuned preset (128x128, 8x16 per thread): warp tiles are 32 x 128, so one warp
        // column, four warp rows. (49, 117): warp row 49/32 = 1 -> warp 1; in it row 17 = fragment
        // 1 (16) + lane row 0 (+1 inside the 4x4), column 117 = fragment 3 (96) + lane column 5
        // (20, +1): lane 0*8 + 5 = 5 -> tid 37. A 1-D block: tx is the tid, ty 0.
        QTest::newRow("pipelined warp tile")
            << "pipelined"
            << "BM=128 BN=128 BK=16 TM=8 TN=16 SWIZZLE=1" << 49 << 117 << 37 << 0 << 1 << 5;
        // warptiled 128x128, 8x8: warp tiles 32 x 64, two across. (55, 54): warp (1, 0) = warp 2;
        // row 23 = fragment 1 (16) + lane row 1 (4) + 3; column 54 = fragment 1 (32) + lane
        // column 5 (20) + 2: lane 1*8 + 5 = 13 -> tid 2*32 + 13 = 77.
        QTest::newRow("warptiled warp tile")
            << "warptiled"
            << "BM=128 BN=128 BK=16 TM=8 TN=8" << 55 << 54 << 77 << 0 << 2 << 13;
        // vectorized keeps step 3's contiguous 8x8 micro-tiles on a 16 x 16 block: (55, 54) is
        // thread (54/8, 55/8) = (6, 6) = tid 102 = warp 3, lane 6.
        QTest::newRow("vectorized contiguous")
            << "vectorized"
            << "BM=128 BN=128 BK=8 TM=8 TN=8" << 55 << 54 << 6 << 6 << 3 << 6;
    }
    void ownerOfKnownCells()
    {
        QFETCH(QString, stage);
        QFETCH(QString, params);
        QFETCH(int, row);
        QFETCH(int, col);
        QFETCH(int, tx);
        QFETCH(int, ty);
        QFETCH(int, warp);
        QFETCH(int, lane);
        const ThreadCoord t = ownerOf(shapeOf(stage, params), row, col);
        QCOMPARE(t.tx, tx);
        QCOMPARE(t.ty, ty);
        QCOMPARE(t.warp, warp);
        QCOMPARE(t.lane, lane);
    }

    void outputsFollowTheStoreLoop()
    {
        // Step 7: thread (1, 0) owns rows 0, 16, ..., 176 and columns 1, 17, ..., 177, i outer.
        const KernelShape s = shapeOf("strided", "BM=192 BN=192 BK=16 TM=12 TN=12");
        const std::vector<TileCell> cells = outputsOf(s, 1);
        QCOMPARE(int(cells.size()), 144);
        QCOMPARE(cells[0], (TileCell{0, 1}));
        QCOMPARE(cells[1], (TileCell{0, 17}));
        QCOMPARE(cells[12], (TileCell{16, 1}));
        QCOMPARE(cells.back(), (TileCell{176, 177}));
    }

    void sharedTilesAreLoadedExactlyOnce_data() { addConfigurations(); }
    void sharedTilesAreLoadedExactlyOnce()
    {
        QFETCH(QString, stage);
        QFETCH(QString, params);
        const KernelShape s = shapeOf(stage, params);
        if (s.loads == TileLoadScheme::NotModelled) {
            QVERIFY(tileLoadsOf(s, 0).empty()); // nothing drawn rather than something untrue
            return;
        }
        for (Operand op : {Operand::A, Operand::B}) {
            const TileCell extent = tileExtent(s, op);
            std::map<std::pair<int, int>, int> loads;
            for (int tid = 0; tid < s.threads(); ++tid)
                for (const TileLoad &l : tileLoadsOf(s, tid))
                    if (l.operand == op) // a float4 load covers its cell and the three after it
                        for (int w = 0; w < loadWidth(s, op); ++w) {
                            QVERIFY(l.cell.row >= 0 && l.cell.row < extent.row);
                            QVERIFY(l.cell.col + w >= 0 && l.cell.col + w < extent.col);
                            ++loads[{l.cell.row, l.cell.col + w}];
                        }
            QCOMPARE(int(loads.size()), extent.row * extent.col);
            // The naive kernel has no shared tile: every thread of a block row reads the same
            // A element (BX readers) and every thread of a column the same B element (BY).
            const int expected = s.usesSharedMemory ? 1 : (op == Operand::A ? s.blockX : s.blockY);
            for (const auto &[cell, count] : loads)
                QCOMPARE(count, expected);
        }
    }

    void loadedElementsKnownAnswers()
    {
        // Step 2: thread (3, 5) loads tileA rows 20..23 at column 3, and (ty = 5 < BK) tileB row 5,
        // columns 12..15. Thread (9, 5) has tx >= BK and loads no A.
        const KernelShape s2 = shapeOf("coarsened", "BM=64 BN=64 BK=8 TM=4 TN=4");
        const int t35 = threadAt(s2, 3, 5).tid;
        QCOMPARE(loadInstructionCount(s2, Operand::A), 4);
        QCOMPARE(loadedElement(s2, Operand::A, 0, t35), std::optional<TileCell>(TileCell{20, 3}));
        QCOMPARE(loadedElement(s2, Operand::A, 3, t35), std::optional<TileCell>(TileCell{23, 3}));
        QCOMPARE(loadedElement(s2, Operand::B, 2, t35), std::optional<TileCell>(TileCell{5, 14}));
        QVERIFY(!loadedElement(s2, Operand::A, 0, threadAt(s2, 9, 5).tid));
        QVERIFY(!loadedElement(s2, Operand::B, 0, threadAt(s2, 0, 8).tid));

        // Step 3: 256 threads stride through the 64x8 A tile in 2 passes and the 8x64 B tile in 2.
        const KernelShape s3 = shapeOf("coalesced", "BM=64 BN=64 BK=8 TM=4 TN=4");
        QCOMPARE(loadInstructionCount(s3, Operand::A), 2);
        QCOMPARE(loadedElement(s3, Operand::A, 0, 255), std::optional<TileCell>(TileCell{31, 7}));
        QCOMPARE(loadedElement(s3, Operand::A, 1, 255), std::optional<TileCell>(TileCell{63, 7}));
        QCOMPARE(loadedElement(s3, Operand::B, 0, 255), std::optional<TileCell>(TileCell{3, 63}));
        QCOMPARE(loadedElement(s3, Operand::B, 1, 0), std::optional<TileCell>(TileCell{4, 0}));

        // Step 5a: 128x12 = 1536 A elements over 256 threads = 6 passes, all full.
        const KernelShape s5 = shapeOf("double_buffered", "BM=128 BN=128 BK=12 TM=8 TN=8");
        QCOMPARE(loadInstructionCount(s5, Operand::A), 6);
        QCOMPARE(loadedElement(s5, Operand::A, 5, 255), std::optional<TileCell>(TileCell{127, 11}));
    }

    void innerLoopReads()
    {
        const KernelShape s7 = shapeOf("strided", "BM=192 BN=192 BK=16 TM=12 TN=12");
        const std::vector<int> rows = aRowsRead(s7, threadAt(s7, 2, 3).tid);
        QCOMPARE(rows.front(), 3);
        QCOMPARE(rows.at(1), 19);
        const KernelShape s6 = shapeOf("coalesced", "BM=192 BN=192 BK=16 TM=12 TN=12");
        const std::vector<int> cols = bColsRead(s6, threadAt(s6, 2, 3).tid);
        QCOMPARE(cols.front(), 24);
        QCOMPARE(cols.back(), 35);
    }

    void refusesWhatItCannotMap_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("params");
        QTest::newRow("cuBLAS") << "cublas_fp32"
                                << "";
        QTest::newRow("BM not a multiple of TM") << "coalesced"
                                                 << "BM=64 BN=64 BK=8 TM=5 TN=4";
        QTest::newRow("missing parameter") << "strided"
                                           << "BM=64 BN=64 BK=8 TM=4";
    }
    void refusesWhatItCannotMap()
    {
        QFETCH(QString, stage);
        QFETCH(QString, params);
        ParamValues values;
        for (const QString &pair : params.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QStringList kv = pair.split(QLatin1Char('='));
            values[kv.at(0).toStdString()] = kv.at(1).toInt();
        }
        const KernelShapeResult r = kernelShape(findStage(stage.toStdString())->id, values);
        QVERIFY(!r.shape);
        QVERIFY(!r.error.empty());
    }

    void tensorCoreOwners_data()
    {
        QTest::addColumn<int>("kind"); // 0: mma (BM=128 BN=128 WM=64 WN=32), 1: wgmma (128x128, WM 64,
                                       // one producer warpgroup), 2: wgmma 128x64, WM 128
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("col");
        QTest::addColumn<int>("tid");
        QTest::addColumn<int>("reg");
        QTest::addColumn<int>("accumulator");
        // mma: warps 2 x 4 (64 x 32 warp tiles), 256 threads. (0, 0): warp 0, lane 0, c0.
        QTest::newRow("mma origin") << 0 << 0 << 0 << 0 << 0 << 0;
        // (73, 45): warp (1, 1) = 5; inside it (9, 13): m16n8 tile (0, 1), in it (9, 5): row 9 = g + 8
        // with g = 1, col 5 = 2t + 1 with t = 2 -> c3 of lane 4*1 + 2 = 6; tid 5*32 + 6 = 166;
        // acc[0][1][3] = (0*4 + 1)*4 + 3 = 7.
        QTest::newRow("mma (73, 45)") << 0 << 73 << 45 << 166 << 3 << 7;
        // (127, 127): warp 7, tile (3, 3), (15, 7): g 7, t 3, c3 -> lane 31, acc (3*4 + 3)*4 + 3 = 63.
        QTest::newRow("mma corner") << 0 << 127 << 127 << 255 << 3 << 63;
        // (40, 2): warp 0, tile (2, 0), (8, 2): g 0, c2, t 1 -> lane 1, acc (2*4 + 0)*4 + 2 = 34.
        QTest::newRow("mma (40, 2)") << 0 << 40 << 2 << 1 << 2 << 34;
        // wgmma, consumers start at tid 128. (0, 0): consumer 0, thread 0, d0.
        QTest::newRow("wgmma origin") << 1 << 0 << 0 << 128 << 0 << 0;
        // (70, 13): consumer 1 (rows 64..127), slab row 6 = warp 0, g 6, c0/c1; col 13 = group 1,
        // 13 % 8 = 5 = 2t + 1 -> t 2, c1: lane 26, d(4*1 + 1) = d5; tid 128 + 128 + 26 = 282.
        QTest::newRow("wgmma (70, 13)") << 1 << 70 << 13 << 282 << 5 << 5;
        // (127, 127): consumer 1, slab row 63 = warp 3, g 7, c3 in group 15: d63, thread 127 of it.
        QTest::newRow("wgmma corner") << 1 << 127 << 127 << 383 << 63 << 63;
        // One consumer of 128 rows (two m64 slabs), N = 64: (72, 0) is slab 1, row 8 = g 0 + 8, c2:
        // d2 of slab 1 -> accumulator 1*(64/2) + 2 = 34, thread 0 of the consumer = tid 128.
        QTest::newRow("wgmma two slabs") << 2 << 72 << 0 << 128 << 2 << 34;
    }
    void tensorCoreOwners()
    {
        QFETCH(int, kind);
        QFETCH(int, row);
        QFETCH(int, col);
        QFETCH(int, tid);
        QFETCH(int, reg);
        QFETCH(int, accumulator);
        const KernelShape s = kind == 0   ? mmaShape(128, 128, 32, 64, 32)
                              : kind == 1 ? wgmmaShape(128, 128, 64)
                                          : wgmmaShape(128, 64, 128);
        const FragmentOwner owner = fragmentOwnerOf(s, row, col);
        QCOMPARE(owner.tid, tid);
        QCOMPARE(owner.reg, reg);
        QCOMPARE(owner.accumulator, accumulator);
        QCOMPARE(ownerOf(s, row, col).tid, tid);
        const std::vector<TileCell> outputs = outputsOf(s, tid);
        QVERIFY(std::find(outputs.begin(), outputs.end(), TileCell{row, col}) != outputs.end());
    }

    // wgmma_tf32 computes D = C^T (its K-major operands make B^T the instruction's A): warpgroup g
    // owns C columns 64g..64g+63, D's row r is C column 64g + r and D's column c is C row c.
    void transposedWgmmaOwners_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("col");
        QTest::addColumn<int>("tid");
        QTest::addColumn<int>("reg");
        QTest::newRow("origin") << 0 << 0 << 0 << 0;
        // C (1, 0) = D (0, 1): g 0, col 1 = 2t + 1 with t 0 -> d1 of lane 0.
        QTest::newRow("next row") << 1 << 0 << 0 << 1;
        // C (2, 0) = D (0, 2): t 1 -> lane 1, d0.
        QTest::newRow("two rows down") << 2 << 0 << 1 << 0;
        // C (0, 8) = D (8, 0): row g + 8 with g 0 -> d2 of lane 0.
        QTest::newRow("column 8") << 0 << 8 << 0 << 2;
        // C (0, 16) = D (16, 0): warp 1 of the warpgroup.
        QTest::newRow("column 16") << 0 << 16 << 32 << 0;
        // C (0, 64): the second warpgroup.
        QTest::newRow("column 64") << 0 << 64 << 128 << 0;
        // C (9, 3) = D (3, 9): g 3; column 9 is n8 slice 1, 9 % 8 = 1 = 2t + 1 with t 0 -> lane 12,
        // d(4*1 + 1) = d5.
        QTest::newRow("(9, 3)") << 9 << 3 << 12 << 5;
    }
    void transposedWgmmaOwners()
    {
        QFETCH(int, row);
        QFETCH(int, col);
        QFETCH(int, tid);
        QFETCH(int, reg);
        const StageInfo *stage = findStage("wgmma_tf32");
        QVERIFY(stage);
        const KernelShapeResult shape = kernelShape(stage->id, {{"BM", 64}, {"BN", 128}, {"STAGES", 3}});
        QVERIFY2(shape.shape.has_value(), shape.error.c_str());
        const FragmentOwner owner = fragmentOwnerOf(*shape.shape, row, col);
        QCOMPARE(owner.tid, tid);
        QCOMPARE(owner.reg, reg);
        QCOMPARE(ownerOf(*shape.shape, row, col).tid, tid);
        const std::vector<TileCell> outputs = outputsOf(*shape.shape, tid);
        QVERIFY(std::find(outputs.begin(), outputs.end(), TileCell{row, col}) != outputs.end());
    }

    void tensorCoreLayoutsTileTheBlock_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("bm");
        QTest::addColumn<int>("bn");
        QTest::addColumn<int>("wm");
        QTest::addColumn<int>("wn");
        QTest::newRow("mma 128x128 / 64x32") << 0 << 128 << 128 << 64 << 32;
        QTest::newRow("mma 128x256 / 64x64") << 0 << 128 << 256 << 64 << 64;
        QTest::newRow("mma 64x64 / 16x8") << 0 << 64 << 64 << 16 << 8;
        QTest::newRow("wgmma 128x128 / 64") << 1 << 128 << 128 << 64 << 0;
        QTest::newRow("wgmma 128x256 / 128") << 1 << 128 << 256 << 128 << 0;
        QTest::newRow("wgmma 192x64 / 64") << 1 << 192 << 64 << 64 << 0;
    }
    void tensorCoreLayoutsTileTheBlock()
    {
        QFETCH(int, kind);
        QFETCH(int, bm);
        QFETCH(int, bn);
        QFETCH(int, wm);
        QFETCH(int, wn);
        const KernelShape s = kind == 0 ? mmaShape(bm, bn, 32, wm, wn) : wgmmaShape(bm, bn, wm);
        QCOMPARE(s.bm * s.bn, s.outputThreads() * s.outputsPerThread());
        const std::vector<int> map = ownerMap(s);
        std::set<std::pair<int, int>> registers; // (tid, accumulator) held once each
        for (int r = 0; r < s.bm; ++r) {
            for (int c = 0; c < s.bn; ++c) {
                const FragmentOwner o = fragmentOwnerOf(s, r, c);
                QCOMPARE(map[std::size_t(r * s.bn + c)], o.tid); // store loop and inverse agree
                QVERIFY(o.tid >= s.firstConsumerThread && o.tid < s.threads());
                QVERIFY(o.accumulator >= 0 && o.accumulator < s.outputsPerThread());
                QVERIFY(registers.insert({o.tid, o.accumulator}).second);
            }
        }
        for (int tid = 0; tid < s.threads(); ++tid)
            QCOMPARE(int(outputsOf(s, tid).size()), tid < s.firstConsumerThread ? 0 : s.outputsPerThread());
    }

    void mmaFragmentReads()
    {
        // Lane 5 of warp 5 (warp tile (1, 1) of 64 x 32 tiles): its A fragment rows are its C rows,
        // 64 + 1 (+8, +16 ...), and its B fragment column is groupID 1 of each n8 tile: 32 + 1, 32 + 9, ...
        const KernelShape s = mmaShape(128, 128, 32, 64, 32);
        const std::vector<int> rows = aRowsRead(s, 5 * 32 + 5);
        QCOMPARE(int(rows.size()), 8);
        QCOMPARE(rows.at(0), 65);
        QCOMPARE(rows.at(1), 73);
        QCOMPARE(rows.at(2), 81);
        const std::vector<int> cols = bColsRead(s, 5 * 32 + 5);
        QCOMPARE(cols, (std::vector<int>{33, 41, 49, 57}));
        // wgmma's operands stay in shared memory; a producer holds nothing.
        const KernelShape w = wgmmaShape(128, 128, 64);
        QVERIFY(aRowsRead(w, 200).empty());
        QVERIFY(bColsRead(w, 200).empty());
        QVERIFY(outputsOf(w, 5).empty());
    }

    void tensorCoreModelConstraints()
    {
        const StageModel mma = mmaWarpTileModel();
        std::vector<std::string> out;
        mma.constraints({{"BM", 128}, {"BN", 128}, {"BK", 32}, {"WM", 64}, {"WN", 32}, {"STAGES", 3}},
                        ProblemSize{}, out);
        QVERIFY(out.empty());
        // 3 x (128 x 36 + 32 x 136) floats = 107520 bytes, dynamic.
        QCOMPARE(
            mma.dynamicSmem({{"BM", 128}, {"BN", 128}, {"BK", 32}, {"WM", 64}, {"WN", 32}, {"STAGES", 3}}),
            107520);
        const LaunchGeometry g =
            mma.launch({{"BM", 128}, {"BN", 128}, {"BK", 32}, {"WM", 64}, {"WN", 32}, {"STAGES", 3}},
                       ProblemSize{1000, 777, 333});
        QCOMPARE(g.blockX, 256);
        QCOMPARE(g.gridX, 7LL); // ceil(777 / 128)
        QCOMPARE(g.gridY, 8LL); // ceil(1000 / 128)
        mma.constraints({{"BM", 128}, {"BN", 128}, {"BK", 12}, {"WM", 24}, {"WN", 32}, {"STAGES", 3}},
                        ProblemSize{}, out);
        QCOMPARE(int(out.size()), 3); // WM not a multiple of 16, BM not a multiple of WM, BK not of 8
        QVERIFY(
            QString::fromStdString(out.at(0)).startsWith(QLatin1String("WM (24) must be a multiple of 16")));

        const StageModel wg = wgmmaWarpgroupModel();
        out.clear();
        wg.constraints({{"BM", 128}, {"BN", 256}, {"BK", 32}, {"WM", 64}, {"STAGES", 4}}, ProblemSize{}, out);
        QVERIFY(out.empty());
        QCOMPARE(wg.launch({{"BM", 128}, {"BN", 256}, {"BK", 32}, {"WM", 64}, {"STAGES", 4}}, ProblemSize{})
                     .blockX,
                 384); // a producer and two consumer warpgroups
        // 4 x (128 x 32 + 32 x 256) x 4 bytes + 4 x 16 bytes of barriers, rounded up to 1 KiB.
        QCOMPARE(wg.dynamicSmem({{"BM", 128}, {"BN", 256}, {"BK", 32}, {"WM", 64}, {"STAGES", 4}}), 197632);
        wg.constraints({{"BM", 128}, {"BN", 260}, {"BK", 32}, {"WM", 96}, {"STAGES", 4}}, ProblemSize{}, out);
        // WM not a multiple of 64, BN over 256, and 96 x 260 / 128 = 195 accumulators per thread.
        QCOMPARE(int(out.size()), 3);
    }
};

QTEST_GUILESS_MAIN(TestMappingModel)
#include "tst_mapping_model.moc"
