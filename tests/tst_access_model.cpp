// The access model: sectors per request and bank conflicts of every stage, against answers
// worked out by hand from the kernels' index expressions (comments give the reasoning).
#include "access_model.h"
#include "support/kernel_shapes.h"
#include "tensor_core_models.h"

#include <QtTest>

using namespace gemmscope;

namespace {

using test::shapeOf;

// The lead's mma.sync stage as its catalog entry will build it: 128 x 128 block tile, BK 32, 64 x 32
// warp tiles (8 warps), As[128][32 + padA], Bs[32][128 + padB].
KernelShape mmaShape(int padA = 4, int padB = 8)
{
    MmaTileModelOptions options;
    options.padA = padA;
    options.padB = padB;
    return mmaWarpTileModel(options).mapping(
        {{"BM", 128}, {"BN", 128}, {"BK", 32}, {"WM", 64}, {"WN", 32}, {"STAGES", 3}});
}

// The first shared read of `label` prefix ("read A fragment a0", ...) of warp 0 at k-step 0.
SharedAccess fragmentRead(const KernelShape &s, const std::string &prefix)
{
    for (const SharedAccess &a : sharedAccesses(s, AccessContext{}, 0))
        if (a.label.rfind(prefix, 0) == 0)
            return a;
    qFatal("no shared access starting with %s", prefix.c_str());
}

Operand operandOf(const QString &name)
{
    return name == QLatin1String("A") ? Operand::A : name == QLatin1String("B") ? Operand::B : Operand::C;
}

const QString step2 = QStringLiteral("BM=64 BN=64 BK=8 TM=4 TN=4");
const QString tiles192 = QStringLiteral("BM=192 BN=192 BK=16 TM=12 TN=12");

// A context where every block and k-step is well inside the problem, to show that the answers
// do not depend on block 0 / k-step 0 being special.
AccessContext interiorContext()
{
    AccessContext ctx;
    ctx.size = ProblemSize{1536, 1536, 1536};
    ctx.blockRow = 2;
    ctx.blockCol = 3;
    ctx.kStep = 5;
    return ctx;
}

} // namespace

class TestAccessModel : public QObject {
    Q_OBJECT

private slots:
    void firstInstructionOfWarp_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("params");
        QTest::addColumn<int>("warp");
        QTest::addColumn<QString>("operand");
        QTest::addColumn<int>("activeLanes");
        QTest::addColumn<int>("sectors");
        QTest::addColumn<double>("efficiency");

        // Naive, a 32-wide block: the warp is one row of C. A[row*K + k] is one address for
        // all lanes (a broadcast, 1 sector, 4 of 32 bytes used); B[k*N + col] is 32
        // consecutive floats = 128 bytes = 4 full sectors.
        QTest::newRow("naive 32x8 A broadcast") << "naive"
                                                << "BX=32 BY=8" << 0 << "A" << 32 << 1 << 0.125;
        QTest::newRow("naive 32x8 B coalesced") << "naive"
                                                << "BX=32 BY=8" << 0 << "B" << 32 << 4 << 1.0;
        QTest::newRow("naive 32x8 C store") << "naive"
                                            << "BX=32 BY=8" << 3 << "C" << 32 << 4 << 1.0;
        // Naive 16x16 (step 0): a warp spans two rows of threads: A is two addresses K floats
        // apart (2 sectors, 8 of 64 bytes used), B is the same 16 floats twice (64 bytes, 2
        // sectors, all used).
        QTest::newRow("step 0 A") << "naive"
                                  << "BX=16 BY=16" << 1 << "A" << 32 << 2 << 0.125;
        QTest::newRow("step 0 B") << "naive"
                                  << "BX=16 BY=16" << 1 << "B" << 32 << 2 << 1.0;
        // Step 2 B load, j = 0: 16 lanes per row, 4 floats (16 B) apart -> 2 lanes per sector,
        // 8 sectors per row, 2 rows -> 16 sectors for 128 useful bytes: 25 %.
        QTest::newRow("step 2 B quarter sectors") << "coarsened" << step2 << 0 << "B" << 32 << 16 << 0.25;
        // Step 2 A load, i = 0: lanes tx < 8 of two thread rows: 8 floats = one sector per row.
        QTest::newRow("step 2 A") << "coarsened" << step2 << 0 << "A" << 16 << 2 << 1.0;
        // Step 3: pass 0 of A covers tile rows 0-3 x 8 columns: 4 sectors, full;
        // B covers 32 consecutive floats of one row: 4 sectors, full.
        QTest::newRow("step 3 A") << "coalesced" << step2 << 0 << "A" << 32 << 4 << 1.0;
        QTest::newRow("step 3 B") << "coalesced" << step2 << 2 << "B" << 32 << 4 << 1.0;
        // Step 6: contiguous 12x12 micro-tiles; store (i=0, j=0) has lanes 12 floats = 48 B
        // apart: every lane its own sector, 32 sectors for 128 bytes: 12.5 %.
        QTest::newRow("step 6 store scatters") << "coalesced" << tiles192 << 0 << "C" << 32 << 32 << 0.125;
        // Step 6 loads: A pass 0 is two tile rows of 16 floats (2 x 64 B) = 4 sectors.
        QTest::newRow("step 6 A") << "coalesced" << tiles192 << 0 << "A" << 32 << 4 << 1.0;
        // Step 7 / 8: strided layout; store (0, 0) is two rows of 16 consecutive floats: 4 sectors.
        QTest::newRow("step 7 store") << "strided" << tiles192 << 0 << "C" << 32 << 4 << 1.0;
        QTest::newRow("step 8 store") << "final" << tiles192 << 7 << "C" << 32 << 4 << 1.0;
    }
    void firstInstructionOfWarp()
    {
        QFETCH(QString, stage);
        QFETCH(QString, params);
        QFETCH(int, warp);
        QFETCH(QString, operand);
        QFETCH(int, activeLanes);
        QFETCH(int, sectors);
        QFETCH(double, efficiency);
        const KernelShape s = shapeOf(stage, params);
        const AccessContext ctx = interiorContext();
        QCOMPARE(QString::fromStdString(accessContextError(s, ctx)), QString());
        const std::vector<GlobalAccess> accesses = globalAccesses(s, ctx, warp);
        const auto it = std::find_if(accesses.begin(), accesses.end(),
                                     [&](const GlobalAccess &a) { return a.operand == operandOf(operand); });
        QVERIFY(it != accesses.end());
        QCOMPARE(it->activeLanes, activeLanes);
        QCOMPARE(it->sectorsPerRequest(), sectors);
        QCOMPARE(it->efficiency(), efficiency);
    }

    void programOrderIsLoadsThenStores()
    {
        // Step 2, warp 0: 4 A loads (i), 4 B loads (j), 16 C stores; labels name the loop index.
        const std::vector<GlobalAccess> a = globalAccesses(shapeOf("coarsened", step2), AccessContext{}, 0);
        QCOMPARE(int(a.size()), 4 + 4 + 16);
        QCOMPARE(a[0].operand, Operand::A);
        QCOMPARE(a[4].operand, Operand::B);
        QCOMPARE(a[8].operand, Operand::C);
        QCOMPARE(a[8].kind, AccessKind::Store);
        // Warp 4 holds rows ty = 8, 9 >= BK: it issues no B load at all.
        const std::vector<GlobalAccess> w4 = globalAccesses(shapeOf("coarsened", step2), AccessContext{}, 4);
        QCOMPARE(int(std::count_if(w4.begin(), w4.end(),
                                   [](const GlobalAccess &g) { return g.operand == Operand::B; })),
                 0);
    }

    void blockAverages_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("params");
        QTest::addColumn<double>("aSectors");
        QTest::addColumn<double>("bSectors");
        QTest::addColumn<double>("cSectors");
        QTest::addColumn<double>("loadEfficiency");
        // Step 2: every A request is 2 sectors (full); every B request 16 (quarter used); C
        // stores: lanes 16 B apart in two rows, 8 sectors per row = 16. Loads: A is 8 warps x 4
        // requests of 64 useful bytes in 2 sectors; B only the 4 warps with ty < 8, x 4 requests
        // of 128 bytes in 16 sectors -> (2048 + 2048) useful / ((64 + 256) sectors x 32 B) = 0.4.
        QTest::newRow("step 2") << "coarsened" << step2 << 2.0 << 16.0 << 16.0 << 0.4;
        // Step 3: all loads 4 sectors, fully used; stores as step 2.
        QTest::newRow("step 3") << "coalesced" << step2 << 4.0 << 4.0 << 16.0 << 1.0;
        // Step 6: 32 sectors per store; step 7 and 8: 4.
        QTest::newRow("step 6") << "coalesced" << tiles192 << 4.0 << 4.0 << 32.0 << 1.0;
        QTest::newRow("step 7") << "strided" << tiles192 << 4.0 << 4.0 << 4.0 << 1.0;
    }
    void blockAverages()
    {
        QFETCH(QString, stage);
        QFETCH(QString, params);
        QFETCH(double, aSectors);
        QFETCH(double, bSectors);
        QFETCH(double, cSectors);
        QFETCH(double, loadEfficiency);
        const AccessSummary sum = summarizeBlock(shapeOf(stage, params), interiorContext());
        QCOMPARE(sum.loadA.perRequest(), aSectors);
        QCOMPARE(sum.loadB.perRequest(), bSectors);
        QCOMPARE(sum.storeC.perRequest(), cSectors);
        QCOMPARE(sum.globalLoads.efficiency(), loadEfficiency);
    }

    void columnAndRowAccess_data()
    {
        QTest::addColumn<bool>("column");
        QTest::addColumn<int>("pad");
        QTest::addColumn<int>("degree");
        // Column of an unpadded 32-wide tile: lane l -> word 32 l + c, all in bank c: 32-way.
        QTest::newRow("column unpadded") << true << 0 << 32;
        // Padded by one: word 33 l + c -> bank (l + c) % 32, all different: conflict-free.
        QTest::newRow("column padded") << true << 1 << 1;
        QTest::newRow("row unpadded") << false << 0 << 1;
        QTest::newRow("row padded") << false << 1 << 1;
    }
    void columnAndRowAccess()
    {
        QFETCH(bool, column);
        QFETCH(int, pad);
        QFETCH(int, degree);
        for (int index : {0, 7, 31}) {
            const SharedAccess a = column ? columnAccess(32, pad, index) : rowAccess(32, pad, index);
            QCOMPARE(a.conflictDegree, degree);
            QCOMPARE(a.activeLanes, 32);
        }
    }

    void sharedConflictDegrees_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("params");
        QTest::addColumn<QString>("operand");
        QTest::addColumn<bool>("isStore");
        QTest::addColumn<int>("degree");
        // Guide kernel, 32x32 block: a warp is one row ty. tileA[ty][k] is one word for all lanes
        // (broadcast), tileB[k][tx] 32 consecutive words: conflict-free with or without PAD.
        for (int pad : {0, 1}) {
            const QString p = QStringLiteral("TILE=32 PAD=%1").arg(pad);
            QTest::addRow("guide pad %d read A", pad) << "smem_tiled" << p << "A" << false << 1;
            QTest::addRow("guide pad %d read B", pad) << "smem_tiled" << p << "B" << false << 1;
            QTest::addRow("guide pad %d store B", pad) << "smem_tiled" << p << "B" << true << 1;
        }
        // Step 2 reads: tileA[ty*4 + i][k] for ty, ty+1: words 32 apart, same bank: 2-way.
        // tileB[k][tx*4 + j]: banks 4 tx + j repeat after tx = 8: 2-way.
        QTest::newRow("step 2 read A") << "coarsened" << step2 << "A" << false << 2;
        QTest::newRow("step 2 read B") << "coarsened" << step2 << "B" << false << 2;
        // Step 2 B store: tileB[ty][tx*4 + j], two rows 64 words apart, 2 words per bank per row: 4-way.
        QTest::newRow("step 2 store B") << "coarsened" << step2 << "B" << true << 4;
        // Step 3 stores: the cooperative index is the word index: consecutive, conflict-free.
        QTest::newRow("step 3 store A") << "coalesced" << step2 << "A" << true << 1;
        // Step 6 reads: tileA rows 12 apart x 16 words = 192 words (bank-aligned): 2-way;
        // tileB 12 tx + j mod 32 repeats after 8 lanes: 2-way.
        QTest::newRow("step 6 read A") << "coalesced" << tiles192 << "A" << false << 2;
        QTest::newRow("step 6 read B") << "coalesced" << tiles192 << "B" << false << 2;
        // Step 7: rows ty, ty+1 are 16 words apart (different banks); B columns consecutive.
        QTest::newRow("step 7 read A") << "strided" << tiles192 << "A" << false << 1;
        QTest::newRow("step 7 read B") << "strided" << tiles192 << "B" << false << 1;
    }
    void sharedConflictDegrees()
    {
        QFETCH(QString, stage);
        QFETCH(QString, params);
        QFETCH(QString, operand);
        QFETCH(bool, isStore);
        QFETCH(int, degree);
        const KernelShape s = shapeOf(stage, params);
        int checked = 0;
        // Every warp and every k of the step: the degree is a property of the access, not of k.
        for (int w = 0; w < s.warps(); ++w)
            for (const SharedAccess &a : sharedAccesses(s, interiorContext(), w, true))
                if (a.operand == operandOf(operand) && (a.kind == AccessKind::Store) == isStore) {
                    QCOMPARE(a.conflictDegree, degree);
                    ++checked;
                }
        QVERIFY(checked > 0);
    }

    void guideReadsAreBroadcastAndConsecutive()
    {
        const KernelShape s = shapeOf("smem_tiled", "TILE=32 PAD=0");
        const std::vector<SharedAccess> acc = sharedAccesses(s, AccessContext{}, 3);
        const auto readA = std::find_if(acc.begin(), acc.end(), [](const SharedAccess &a) {
            return a.operand == Operand::A && a.kind == AccessKind::Load;
        });
        QVERIFY(readA != acc.end());
        // One bank holds the one word every lane reads.
        QCOMPARE(std::count(readA->distinctWordsPerBank.begin(), readA->distinctWordsPerBank.end(), 1), 1);
    }

    void naiveHasNoSharedAccesses()
    {
        QVERIFY(sharedAccesses(shapeOf("naive", "BX=16 BY=16"), AccessContext{}, 0).empty());
    }

    void doubleBufferingAlternatesBuffers()
    {
        const KernelShape s = shapeOf("double_buffered", step2);
        AccessContext even, odd;
        odd.kStep = 1;
        const SharedAccess a0 = sharedAccesses(s, even, 0).front();
        const SharedAccess a1 = sharedAccesses(s, odd, 0).front();
        // tileA[2][64][8]: buffer 1 starts 512 words after buffer 0.
        QCOMPARE(a1.lanes[0].address - a0.lanes[0].address, 512LL);
        QCOMPARE(a1.conflictDegree, a0.conflictDegree);
    }

    void contextErrors_data()
    {
        QTest::addColumn<qlonglong>("m");
        QTest::addColumn<qlonglong>("n");
        QTest::addColumn<qlonglong>("k");
        QTest::addColumn<qlonglong>("kStep");
        QTest::addColumn<bool>("ok");
        QTest::newRow("multiples") << 384LL << 576LL << 64LL << 3LL << true;
        QTest::newRow("K not a multiple of BK") << 384LL << 576LL << 1000LL << 0LL << false;
        QTest::newRow("M not a multiple of BM") << 100LL << 576LL << 64LL << 0LL << false;
        QTest::newRow("k-step outside") << 384LL << 576LL << 64LL << 4LL << false;
    }
    void contextErrors()
    {
        QFETCH(qlonglong, m);
        QFETCH(qlonglong, n);
        QFETCH(qlonglong, k);
        QFETCH(qlonglong, kStep);
        QFETCH(bool, ok);
        AccessContext ctx;
        ctx.size = ProblemSize{m, n, k};
        ctx.kStep = kStep;
        const std::string error = accessContextError(shapeOf("strided", tiles192), ctx);
        QCOMPARE(error.empty(), ok);
    }

    // Whole-launch instruction counts at 1536^3, worked by hand:
    //  naive 16x16: each of the 1536^2/32 = 73,728 warps loads A and B once per k (2 x 1536
    //    instructions) and stores C once; no shared memory.
    //  step 3 (64x64, BK 8, 4x4 per thread, 8 warps, 24 x 24 blocks, 192 k-steps): per k-step a
    //    warp issues 2 A and 2 B loads (512 floats per tile / 256 threads) and stores them to
    //    shared memory; it reads 4 A and 4 B words per k, 8 k per step; C: 16 stores per thread.
    //  guide 32x32 (32 warps, 48 x 48 blocks, 48 k-steps): one A and one B load per thread and
    //    step, two shared reads per k (32 per step).
    void kernelInstructionCountsByHand_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qlonglong>("globalLoads");
        QTest::addColumn<qlonglong>("globalStores");
        QTest::addColumn<qlonglong>("sharedLoads");
        QTest::addColumn<qlonglong>("sharedStores");
        QTest::newRow("naive") << "worklog-0" << 73728LL * 2 * 1536 << 73728LL << 0LL << 0LL;
        QTest::newRow("step 3") << "worklog-3" << 576LL * 192 * 8 * 4 << 576LL * 8 * 16
                                << 576LL * 192 * 8 * 64 << 576LL * 192 * 8 * 4;
        QTest::newRow("guide 32") << "guide-32" << 2304LL * 48 * 32 * 2 << 2304LL * 32
                                  << 2304LL * 48 * 32 * 64 << 2304LL * 48 * 32 * 2;
    }
    void kernelInstructionCountsByHand()
    {
        QFETCH(QString, preset);
        QFETCH(qlonglong, globalLoads);
        QFETCH(qlonglong, globalStores);
        QFETCH(qlonglong, sharedLoads);
        QFETCH(qlonglong, sharedStores);
        const Preset *p = findPreset(preset.toStdString());
        const auto counts =
            kernelInstructionCounts(*kernelShape(p->stage, p->params).shape, {1536, 1536, 1536});
        QVERIFY(counts);
        QCOMPARE(counts->globalLoads, globalLoads);
        QCOMPARE(counts->globalStores, globalStores);
        QCOMPARE(counts->sharedLoads, sharedLoads);
        QCOMPARE(counts->sharedStores, sharedStores);
    }

    void kernelInstructionCountsNeedFullTiles()
    {
        const Preset *p = findPreset("worklog-3");
        QVERIFY(!kernelInstructionCounts(*kernelShape(p->stage, p->params).shape, {1000, 777, 333}));
    }

    // 8192 = 42.7 x 192 rows rounds up to 43 tiles (8256), 4096 to 22 x 192 (4224); K = 6144 is a
    // multiple of BK = 16 and stays; a side below one tile becomes one tile.
    void sizesRoundUpToFullTiles()
    {
        const Preset *p = findPreset("worklog-8");
        const KernelShape shape = *kernelShape(p->stage, p->params).shape;
        QCOMPARE(roundedUpToTiles(shape, {8192, 4096, 6144}), (ProblemSize{8256, 4224, 6144}));
        QCOMPARE(roundedUpToTiles(shape, {0, 1, 17}), (ProblemSize{192, 192, 32}));
        AccessContext ctx;
        ctx.size = roundedUpToTiles(shape, {8192, 4096, 6144});
        QCOMPARE(QString::fromStdString(accessContextError(shape, ctx)), QString());
    }

    // 128-bit accesses of the stages past the seeds, worked out by hand (interior block, k-step 5).
    void wideAccessesPastTheSeeds()
    {
        const AccessContext ctx = interiorContext();
        // warptiled 128x128, BK 16, 8x8: 256 threads; A loads: 128 x 16 floats = 512 float4, two
        // per thread. Warp 0, first A load: idx = lane, row lane / 4, columns (lane % 4) * 4: 8 rows
        // of 64 contiguous bytes = 16 sectors, all used.
        const KernelShape w = shapeOf("warptiled", "BM=128 BN=128 BK=16 TM=8 TN=8");
        const std::vector<GlobalAccess> g = globalAccesses(w, ctx, 0);
        QCOMPARE(g.front().operand, Operand::A);
        QCOMPARE(g.front().sectorsPerRequest(), 16);
        QCOMPARE(g.front().uniqueBytes, 512);
        QCOMPARE(g.front().efficiency(), 1.0);
        // C stores, float4: lanes 4 rows x 8 columns of float4 -> 4 rows of 128 bytes = 16 sectors.
        const auto store =
            std::find_if(g.begin(), g.end(), [](const GlobalAccess &a) { return a.operand == Operand::C; });
        QVERIFY(store != g.end());
        QCOMPARE(store->sectorsPerRequest(), 16);
        QCOMPARE(store->efficiency(), 1.0);
        QCOMPARE(int(std::count_if(g.begin(), g.end(),
                                   [](const GlobalAccess &a) { return a.operand == Operand::C; })),
                 8 * 8 / 4); // TM x TN outputs, four per store

        const std::vector<SharedAccess> sh = sharedAccesses(w, ctx, 0);
        // A stored transposed, one float per store: lanes (row lane/4, k (lane%4)*4) -> word
        // k*132 + row, bank (4k + row) % 32: k = 0 and 8 both land on banks 0-7, k = 4 and 12 on
        // 16-23: two distinct words per bank, 2 wavefronts.
        const SharedAccess &firstStore = sh.front();
        QCOMPARE(firstStore.kind, AccessKind::Store);
        QCOMPARE(firstStore.operand, Operand::A);
        QCOMPARE(firstStore.conflictDegree, 2);
        // At BK 8 the rows are lane/2 (16 of them) and k is 0 or 4: banks row and 16 + row, all
        // different: conflict-free.
        const KernelShape w8 = shapeOf("warptiled", "BM=128 BN=128 BK=8 TM=8 TN=8");
        QCOMPARE(sharedAccesses(w8, ctx, 0).front().conflictDegree, 1);
        // Fragment reads at k = 0: A reads words laneRow..+3 (16 distinct words, broadcast across
        // the 8 lane columns): one wavefront. B reads 8 lanes x 4 words = 32 distinct words: one.
        int aReads = 0, bReads = 0;
        for (const SharedAccess &a : sh)
            if (a.kind == AccessKind::Load) {
                QCOMPARE(a.conflictDegree, 1);
                (a.operand == Operand::A ? aReads : bReads) += 1;
            }
        QCOMPARE(aReads, 8 / 4); // TM / 4 float4 fragments of A per k
        QCOMPARE(bReads, 8 / 4);

        // vectorized 128x128, 8x8 on a 16 x 16 block: warp 0 is ty 0..1, tx 0..15. Its B fragment
        // read takes words tx*8 .. tx*8+3: 64 distinct words, 4 in each of banks 0-3, 8-11, 16-19,
        // 24-27: 4 wavefronts where 2 would carry the 256 bytes. Warp tiling removes this.
        const KernelShape v = shapeOf("vectorized", "BM=128 BN=128 BK=8 TM=8 TN=8");
        for (const SharedAccess &a : sharedAccesses(v, ctx, 0))
            if (a.kind == AccessKind::Load)
                QCOMPARE(a.conflictDegree, a.operand == Operand::B ? 4 : 1);

        // The padding matters: pipelined at 128x256, BK 16 drops it (48 KiB), and the transposed
        // A stores put word k*128 + row in bank row % 32: four k per bank, 4 wavefronts; the
        // padded 128x128 tile (above: 2) halves that.
        const KernelShape unpadded = shapeOf("pipelined", "BM=128 BN=256 BK=16 TM=8 TN=16 SWIZZLE=1");
        QCOMPARE(unpadded.padA, 0);
        QCOMPARE(sharedAccesses(unpadded, ctx, 0).front().conflictDegree, 4);
        const KernelShape padded = shapeOf("pipelined", "BM=128 BN=128 BK=16 TM=8 TN=16 SWIZZLE=1");
        QCOMPARE(padded.padA, 4);
        QCOMPARE(sharedAccesses(padded, ctx, 0).front().conflictDegree, 2);
        // pipelined_padded keeps the padding at 128x256 (dynamic shared memory): 2-way, not 4-way.
        const KernelShape dynamic = shapeOf("pipelined_padded", "BM=128 BN=256 BK=16 TM=8 TN=16 SWIZZLE=1");
        QCOMPARE(dynamic.padA, 4);
        QCOMPARE(sharedAccesses(dynamic, ctx, 0).front().conflictDegree, 2);
    }

    // async_pipelined copies A one float at a time: lanes along k, 4 rows of 8 floats = 4 sectors.
    void asyncCopiesOfA()
    {
        const KernelShape a = shapeOf("async_pipelined", "BM=128 BN=256 BK=8 TM=8 TN=16 STAGES=3");
        QCOMPARE(loadWidth(a, Operand::A), 1);
        QCOMPARE(loadWidth(a, Operand::B), 4);
        QCOMPARE(a.buffers, 3);
        const std::vector<GlobalAccess> g = globalAccesses(a, interiorContext(), 0);
        QCOMPARE(g.front().operand, Operand::A);
        QCOMPARE(g.front().sectorsPerRequest(), 4);
        QCOMPARE(g.front().efficiency(), 1.0);
        QCOMPARE(loadInstructionCount(a, Operand::A), 128 * 8 / 256);
        QCOMPARE(loadInstructionCount(a, Operand::B), 8 * 256 / 4 / 256);
        // The copy engine writes shared memory: a launch issues no STS (what the hardware counts),
        // while the pipelined stage stores its prefetched registers with STS.
        const auto counts = kernelInstructionCounts(a, ProblemSize{1536, 1536, 1536});
        QVERIFY(counts.has_value());
        QCOMPARE(counts->sharedStores, 0LL);
        const KernelShape p = shapeOf("pipelined", "BM=128 BN=256 BK=16 TM=8 TN=16 SWIZZLE=1");
        QVERIFY(kernelInstructionCounts(p, ProblemSize{1536, 1536, 1536})->sharedStores > 0);
    }

    void mmaFragmentReadsAreConflictFreeWhenPadded_data()
    {
        QTest::addColumn<int>("padA");
        QTest::addColumn<int>("padB");
        QTest::addColumn<QString>("read");
        QTest::addColumn<int>("wavefronts");
        // groupID g = lane/4 (0..7), threadID_in_group t = lane%4 (0..3).
        // A a0 reads As[g][t]: word g*36 + t, bank (4g + t) % 32: 32 distinct banks -> 1 wavefront.
        QTest::newRow("A a0, pitch 36") << 4 << 8 << "read A fragment a0" << 1;
        // a2 reads As[g][t + 4]: bank 4g + t + 4 (mod 32), still a permutation -> 1.
        QTest::newRow("A a2, pitch 36") << 4 << 8 << "read A fragment a2" << 1;
        // B b0 reads Bs[t][g]: word 136t + g, bank 8t + g: 32 distinct banks -> 1.
        QTest::newRow("B b1, pitch 136") << 4 << 8 << "read B fragment b1" << 1;
        // Unpadded A (pitch 32): bank t for every g: each of banks 0..3 asked for 8 words -> 8.
        QTest::newRow("A a0, pitch 32") << 0 << 0 << "read A fragment a0" << 8;
        // Unpadded B (pitch 128): word 128t + g, bank g: banks 0..7 asked for 4 words each -> 4.
        QTest::newRow("B b0, pitch 128") << 0 << 0 << "read B fragment b0" << 4;
    }
    void mmaFragmentReadsAreConflictFreeWhenPadded()
    {
        QFETCH(int, padA);
        QFETCH(int, padB);
        QFETCH(QString, read);
        QFETCH(int, wavefronts);
        const SharedAccess a = fragmentRead(mmaShape(padA, padB), read.toStdString());
        QCOMPARE(a.activeLanes, 32);
        QCOMPARE(a.conflictDegree, wavefronts);
    }

    void mmaFragmentReadsFollowThePtxTable()
    {
        const KernelShape s = mmaShape();
        // Lane 5 (g 1, t 1) of warp 0, a1 = A(9, 1): word 9*36 + 1 = 325. b1 of lane 5 = B(5, 1):
        // word 5*136 + 1 = 681.
        QCOMPARE(fragmentRead(s, "read A fragment a1").lanes[5].address, 325LL);
        QCOMPARE(fragmentRead(s, "read B fragment b1").lanes[5].address, 681LL);
        // Per warp and tile of BK = 32: 4 k-steps x (4 m16 tiles x 4 + 4 n8 tiles x 2) = 96 reads.
        int reads = 0;
        for (const SharedAccess &a : sharedAccesses(s, AccessContext{}, 3, true))
            reads += a.kind == AccessKind::Load;
        QCOMPARE(reads, 96);
        // Warp 5 sits at warp tile (1, 1): its a0 of mi 0 starts at row 64, B's b0 at column 32.
        const auto warp5 = sharedAccesses(s, AccessContext{}, 5);
        const auto a0 = std::find_if(warp5.begin(), warp5.end(),
                                     [](const SharedAccess &a) { return a.label.rfind("read A", 0) == 0; });
        QCOMPARE(a0->lanes[0].address, 64LL * 36);
        const auto b0 = std::find_if(warp5.begin(), warp5.end(),
                                     [](const SharedAccess &a) { return a.label.rfind("read B", 0) == 0; });
        QCOMPARE(b0->lanes[0].address, 32LL);
    }

    void mmaGlobalCopiesAndStores()
    {
        const KernelShape s = mmaShape();
        AccessContext ctx;
        ctx.size = ProblemSize{1024, 1024, 1024};
        const std::vector<GlobalAccess> g = globalAccesses(s, ctx, 0);
        // A: 128 x 32 floats = 1024 16-byte copies over 256 threads = 4 per thread; lane l copies
        // row l/8, columns 4(l%8)..+3: four rows of 128 contiguous bytes = 16 sectors, all used.
        const GlobalAccess &a = g.front();
        QCOMPARE(a.label.rfind("cp.async A float4", 0), std::size_t(0));
        QCOMPARE(a.sectorsPerRequest(), 16);
        QCOMPARE(a.efficiency(), 1.0);
        QCOMPARE(loadInstructionCount(s, Operand::A), 4);
        QCOMPARE(loadInstructionCount(s, Operand::B), 4);
        // C stores, one float per register: c0 of tile (0, 0) is rows g, columns 2t: eight rows of
        // four floats two apart -> 8 sectors for 128 useful bytes, 50 %.
        const auto c =
            std::find_if(g.begin(), g.end(), [](const GlobalAccess &x) { return x.operand == Operand::C; });
        QCOMPARE(c->sectorsPerRequest(), 8);
        QCOMPARE(c->efficiency(), 0.5);
        // The copies' shared side: a 16-byte cp.async of four padded rows of 32 floats asks every bank
        // for 4 words: 4 wavefronts, the least 128 words need.
        const auto stores = sharedAccesses(s, ctx, 0);
        QCOMPARE(stores.front().kind, AccessKind::Store);
        QCOMPARE(stores.front().conflictDegree, 4);
        // cp.async issues no STS: the instruction count has no shared stores.
        const auto counts = kernelInstructionCounts(s, ProblemSize{1024, 1024, 1024});
        QVERIFY(counts);
        QCOMPARE(counts->sharedStores, 0LL);
        QCOMPARE(counts->sharedLoads, 96LL * 8 * 64 * 32); // 96 per warp, 8 warps, 64 blocks, 32 k-tiles
    }

    // The 128-byte swizzle of an 8-row atom, by hand: row r stores its k chunk q (floats 4q..4q+3)
    // in 16-byte slot q XOR r. Read as [row][slot] = the k chunk stored there (XOR is its own
    // inverse, so the table is also slot of chunk):
    void swizzleAtomByHand()
    {
        const int byHand[8][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6},
                                  {2, 3, 0, 1, 6, 7, 4, 5}, {3, 2, 1, 0, 7, 6, 5, 4},
                                  {4, 5, 6, 7, 0, 1, 2, 3}, {5, 4, 7, 6, 1, 0, 3, 2},
                                  {6, 7, 4, 5, 2, 3, 0, 1}, {7, 6, 5, 4, 3, 2, 1, 0}};
        const auto atom = swizzle128Atom();
        for (int r = 0; r < 8; ++r)
            for (int slot = 0; slot < 8; ++slot)
                QCOMPARE(atom[std::size_t(r)][std::size_t(slot)], byHand[r][slot]);
        // Element (3, 5): chunk 1 of row 3 -> slot 1 ^ 3 = 2: word 3*32 + 2*4 + 1 = 105.
        QCOMPARE(swizzled128Word(3, 5), 105LL);
        // Row 9 is row 1 of the second atom: chunk 0 -> slot 1: word 9*32 + 4 = 292.
        QCOMPARE(swizzled128Word(9, 0), 292LL);
        // Every k chunk of 8 rows covers the 8 slots once: 32 banks, 1 wavefront. Unswizzled, the
        // rows are 128 bytes (32 banks) apart, so chunk q of all 8 sits in banks 4q..4q+3: 8-way.
        for (int q = 0; q < 8; ++q) {
            const SharedAccess on = tensorCoreChunkRead(q, true), off = tensorCoreChunkRead(q, false);
            QVERIFY(on.tensorCoreRead);
            QCOMPARE(on.conflictDegree, 1);
            QCOMPARE(off.conflictDegree, 8);
            QCOMPARE(off.distinctWordsPerBank[std::size_t(4 * q)], 8);
        }
    }

    // mma_tf32 as the preset tf32-mma builds it (BM = BN = 128, BK = 32, WM = WN = 64: 2 x 2 = 4
    // warps, each 4 m16 tiles x 8 n8 tiles). Per warp and k-step of 8 (4 per tile of BK = 32):
    //   A: 4 ldmatrix.x4, one per m16 tile. Matrix i's eight 16-byte rows start 36 floats apart
    //      (BK + 4): banks 4r .. 4r + 3 for r = 0..7, all 32 once: 1 wavefront per matrix, 4 each.
    //   B: 8 n8 tiles x (b0, b1) = 16 32-bit reads; lane (g, t) reads word (kk + t) * 136 + 8 ni + g,
    //      bank 8t + g (136 = 8 mod 32): all 32 once, 1 wavefront each.
    //   -> 20 instructions, 4 x 4 + 16 x 1 = 32 wavefronts: 1.6 wavefronts per instruction.
    // Per block and tile: 4 warps x 4 k-steps x 20 = 320 reads. At 1536^3: 12 x 12 = 144 blocks,
    // 48 tiles: 320 x 144 x 48 = 2,211,840 shared read instructions.
    void mmaTf32PresetWavefrontsByHand()
    {
        const Preset *p = findPreset("tf32-mma");
        QVERIFY(p);
        const KernelShape s = *kernelShape(p->stage, p->params).shape;
        QVERIFY(s.ldmatrixA);
        AccessContext ctx;
        ctx.size = ProblemSize{1536, 1536, 1536};
        const AccessSummary block = summarizeBlock(s, ctx);
        QCOMPARE(block.sharedLoads.requests, 320LL);
        QCOMPARE(block.sharedLoads.sectors, 512LL);
        QCOMPARE(block.sharedLoads.perRequest(), 1.6);
        const auto counts = kernelInstructionCounts(s, ctx.size);
        QVERIFY(counts);
        QCOMPARE(counts->sharedLoads, 2211840LL);
        QCOMPARE(counts->sharedStores, 0LL); // cp.async: no STS
        QCOMPARE(counts->transpose.sharedLoads, 0LL);
        const auto launch = summarizeLaunch(s, ctx.size);
        QVERIFY(launch);
        QCOMPARE(launch->sharedLoads.perRequest(), 1.6);
        // The first read is the ldmatrix of mi 0: lane 17 names row 1, floats 4..7: word 36 + 4.
        const SharedAccess first = fragmentRead(s, "ldmatrix.x4");
        QCOMPARE(first.ldmatrixMatrices, 4);
        QCOMPARE(first.lanes[17].address, 40LL);
        QCOMPARE(first.lanes[17].bytes, 16);
        QCOMPARE(first.conflictDegree, 4);
    }

    // Without the +4 padding (rows 32 floats apart) every row of a matrix sits in the same four
    // banks: 8 rows -> 8 wavefronts per matrix, 32 for the ldmatrix.x4.
    void unpaddedLdmatrixConflicts()
    {
        MmaTileModelOptions options;
        options.padA = 0;
        options.ldmatrixA = true;
        const KernelShape s = mmaWarpTileModel(options).mapping(
            {{"BM", 128}, {"BN", 128}, {"BK", 32}, {"WM", 64}, {"WN", 64}, {"STAGES", 3}});
        QCOMPARE(fragmentRead(s, "ldmatrix.x4").conflictDegree, 32);
    }

    // wgmma_tma_tf32 as the preset tf32-wgmma-tma builds it (BM = 256, BN = 128, STAGES = 4): the
    // boxes of block (3, 2) at k-step 5 (stage 5 % 4 = 1), and the launch's predicted counters.
    void tmaBoxesAndLaunchCountsByHand()
    {
        const Preset *p = findPreset("tf32-wgmma-tma");
        QVERIFY(p);
        const KernelShape s = *kernelShape(p->stage, p->params).shape;
        QCOMPARE(s.loads, TileLoadScheme::TmaSwizzled128);
        const AccessContext ctx = interiorContext();
        QCOMPARE(QString::fromStdString(accessContextError(s, ctx)), QString());
        const std::vector<TmaBox> boxes = tmaBoxes(s, ctx);
        QCOMPARE(boxes.size(), std::size_t(2));
        // A: rows 2 x 256 = 512.., k 5 x 32 = 160..; stage 1 of the A tiles at 256 x 32 x 4 = 32 KiB.
        QCOMPARE(boxes[0].tensor, std::string("A"));
        QCOMPARE(boxes[0].rows, 256);
        QCOMPARE(boxes[0].cols, 32);
        QCOMPARE(boxes[0].firstRow, 512LL);
        QCOMPARE(boxes[0].firstCol, 160LL);
        QCOMPARE(boxes[0].stage, 1);
        QCOMPARE(boxes[0].sharedByte, 32768LL);
        QCOMPARE(boxes[0].bytes(), 32768);
        QCOMPARE(boxes[0].atoms(), 32);
        // BT: rows 3 x 128 = 384..; after the 4 A tiles (128 KiB), stage 1 of 16 KiB BT tiles.
        QCOMPARE(boxes[1].tensor, std::string("BT"));
        QCOMPARE(boxes[1].firstRow, 384LL);
        QCOMPARE(boxes[1].sharedByte, 4 * 32768LL + 16384);
        // No lane touches shared memory; no lane loads from global memory.
        for (int w = 0; w < s.warps(); ++w) {
            QVERIFY(sharedAccesses(s, ctx, w, true).empty());
            for (const GlobalAccess &g : globalAccesses(s, ctx, w))
                QCOMPARE(g.kind, AccessKind::Store);
        }
        // C stores: consumer warps store BM/2 = 128 times; lanes (g, t) write columns g (8
        // contiguous floats, 32-byte aligned) of rows 2t: 4 rows x 32 bytes = 4 sectors, all used.
        // The producer warp (warp 8) stores nothing.
        const std::vector<GlobalAccess> stores = globalAccesses(s, ctx, 0);
        QCOMPARE(stores.size(), std::size_t(128));
        for (const GlobalAccess &g : stores) {
            QCOMPARE(g.sectorsPerRequest(), 4);
            QCOMPARE(g.efficiency(), 1.0);
        }
        QVERIFY(globalAccesses(s, ctx, 8).empty());
        // At 1536^3: 6 x 12 = 72 blocks x 8 consumer warps x 128 = 73,728 C stores. The B transpose
        // of the same launch: 48 x 48 tiles x 32 instructions = 73,728 of each kind. So the shared
        // loads and stores the counters see are the transpose's alone; the GEMM kernel adds 0.
        const auto counts = kernelInstructionCounts(s, ProblemSize{1536, 1536, 1536});
        QVERIFY(counts);
        QCOMPARE(counts->transpose.sharedLoads, 73728LL);
        QCOMPARE(counts->sharedLoads, 73728LL);
        QCOMPARE(counts->sharedStores, 73728LL);
        QCOMPARE(counts->globalLoads, 73728LL);
        QCOMPARE(counts->globalStores, 2 * 73728LL);
        const auto launch = summarizeLaunch(s, ProblemSize{1536, 1536, 1536});
        QVERIFY(launch);
        QCOMPARE(launch->sharedLoads.perRequest(), 1.0);
        QCOMPARE(launch->sharedStores.perRequest(), 1.0);
        QCOMPARE(launch->globalLoads.perRequest(), 4.0);
        QCOMPARE(launch->storeC.perRequest(), 4.0);
    }

    void wgmmaTilesHaveNoLaneAddresses()
    {
        // wgmmaWarpgroupModel's loads are not modelled (only the catalog's TMA stage is).
        const KernelShape s =
            wgmmaWarpgroupModel().mapping({{"BM", 128}, {"BN", 128}, {"BK", 32}, {"STAGES", 4}});
        const std::string why = accessContextError(s, AccessContext{});
        QVERIFY2(why.find("descriptors") != std::string::npos, why.c_str());
    }
};

QTEST_GUILESS_MAIN(TestAccessModel)
#include "tst_access_model.moc"
