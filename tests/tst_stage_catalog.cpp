// The stage catalog: presets reproduce the worklog's parameters, constraints refuse what the
// kernels cannot run with a sentence a user understands, and launch geometry matches the kernels.
#include "kernel_sources.h"
#include "stage_catalog.h"

#include <QtTest>

using namespace gemmscope;

Q_DECLARE_METATYPE(gemmscope::ParamValues)

class TstStageCatalog : public QObject {
    Q_OBJECT

private slots:
    void ladderIsInOrderWithUniqueKeys()
    {
        const auto &all = stages();
        // The worklog's stages come first, in the worklog's order; stages beyond the seeds follow
        // them; the cuBLAS baselines close the ladder.
        QVERIFY(all.size() >= std::size_t(9));
        QCOMPARE(all.front().key, std::string("naive"));
        QVERIFY(all.back().isLibrary);
        bool pastSeeds = false, inLibraries = false;
        for (const auto &s : all) {
            QVERIFY2(!(pastSeeds && !s.beyondSeeds && !s.isLibrary), s.key.c_str());
            QVERIFY2(!(inLibraries && !s.isLibrary), s.key.c_str());
            pastSeeds = pastSeeds || s.beyondSeeds;
            inLibraries = inLibraries || s.isLibrary;
        }
        QSet<QString> keys;
        for (const auto &s : all) {
            QVERIFY2(!keys.contains(QString::fromStdString(s.key)), s.key.c_str());
            keys.insert(QString::fromStdString(s.key));
            QVERIFY(!s.title.empty());
            QVERIFY(!s.seedStep.empty());
            QCOMPARE(s.isLibrary, s.sourceFile.empty());
            QCOMPARE(findStage(s.key), &s);
            if (!s.derivedFrom.empty()) { // a diff base must be a stage with a source
                const StageInfo *base = findStage(s.derivedFrom);
                QVERIFY2(base && !base->sourceFile.empty(), s.derivedFrom.c_str());
            }
            for (const auto &p : s.params) {
                QVERIFY(p.min <= p.defaultValue && p.defaultValue <= p.max);
                if (!p.choices.empty())
                    QVERIFY(std::find(p.choices.begin(), p.choices.end(), p.defaultValue) != p.choices.end());
            }
            // Every stage's defaults must be a runnable configuration at the worklog's size.
            QVERIFY2(violations(s.id, defaultParams(s.id), ProblemSize{}).empty(), s.key.c_str());
        }
        QCOMPARE(findStage("no-such-stage"), nullptr);
    }

    // Every entry carries the traits the rest of GemmScope reads from it, so that adding a stage
    // needs no switch anywhere else; a missing one fails here, not as a silently wrong number.
    void everyStageHasItsTraits()
    {
        QSet<quint32> colors;
        for (const StageInfo &s : stages()) {
            const char *key = s.key.c_str();
            QVERIFY2(s.key.size() <= StageId::kMaxKeyLength, key);
            QCOMPARE(s.id, StageId(s.key));
            QCOMPARE(&stageInfo(s.id), &s);
            QVERIFY2(!s.shortLabel.empty() && s.shortLabel.size() <= 8, key);
            QVERIFY2(!colors.contains(s.color), key); // one colour per stage
            colors.insert(s.color);
            QVERIFY2(s.minArch >= 50, key);
            if (s.isLibrary) {
                QVERIFY2(s.params.empty() && s.kernelName.empty(), key);
                continue;
            }
            QVERIFY2(!s.kernelName.empty(), key);
            // Its source is built in (listed in kernels/CMakeLists.txt).
            QVERIFY2(!embeddedKernelSource(s.sourceFile).empty(), key);
            QVERIFY2(s.model.launch, key);
            QVERIFY2(s.model.staticSmem, key);
            const ParamValues defaults = defaultParams(s.id);
            const LaunchGeometry g = launchGeometry(s.id, defaults, ProblemSize{});
            QVERIFY2(g.threadsPerBlock() >= 1 && g.gridX >= 1 && g.gridY >= 1, key);
            QVERIFY2(g.staticSmemBytes >= 0 && g.dynamicSmemBytes >= 0, key);
            // A modelled mapping must be a real tiling of the block's threads over its C tile.
            if (s.model.mapping) {
                const KernelShape shape = s.model.mapping(defaults);
                QCOMPARE(shape.threads(), g.threadsPerBlock());
                QCOMPARE(shape.bm * shape.bn, shape.outputThreads() * shape.outputsPerThread());
            }
        }
        // The named ids of the seeds' stages are catalog keys.
        for (StageId id : {StageId::Naive, StageId::SmemTiled, StageId::Coarsened, StageId::Coalesced,
                           StageId::DoubleBuffered, StageId::Strided, StageId::Final, StageId::CublasFp32,
                           StageId::CublasTf32})
            QVERIFY2(findStage(id.key()), id.str().c_str());
        QVERIFY(!violations(StageId("no_such_stage"), {}, ProblemSize{}).empty());
    }

    void worklogPresets_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("stage");
        QTest::addColumn<ParamValues>("params");
        QTest::addColumn<double>("t4Ms");
        const ParamValues t64 = {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}};
        const ParamValues t128 = {{"BM", 128}, {"BN", 128}, {"BK", 12}, {"TM", 8}, {"TN", 8}};
        const ParamValues t192 = {{"BM", 192}, {"BN", 192}, {"BK", 16}, {"TM", 12}, {"TN", 12}};
        QTest::newRow("0") << "worklog-0"
                           << "naive" << ParamValues{{"BX", 16}, {"BY", 16}} << 956.41;
        QTest::newRow("1") << "worklog-1"
                           << "smem_tiled" << ParamValues{{"TILE", 16}, {"PAD", 0}} << 593.53;
        QTest::newRow("2") << "worklog-2"
                           << "coarsened" << t64 << 194.28;
        QTest::newRow("3") << "worklog-3"
                           << "coalesced" << t64 << 193.43;
        QTest::newRow("4") << "worklog-4"
                           << "double_buffered" << t64 << 190.58;
        QTest::newRow("5a") << "worklog-5a"
                            << "double_buffered" << t128 << 169.00;
        QTest::newRow("5b") << "worklog-5b"
                            << "double_buffered" << t192 << 136.86;
        QTest::newRow("6") << "worklog-6"
                           << "coalesced" << t192 << 123.21;
        QTest::newRow("7") << "worklog-7"
                           << "strided" << t192 << 111.75;
        QTest::newRow("8") << "worklog-8"
                           << "final" << t192 << 108.89;
    }
    void worklogPresets()
    {
        QFETCH(QString, key);
        QFETCH(QString, stage);
        QFETCH(ParamValues, params);
        QFETCH(double, t4Ms);
        const Preset *p = findPreset(key.toStdString());
        QVERIFY(p);
        QCOMPARE(QString::fromStdString(stageInfo(p->stage).key), stage);
        QCOMPARE(p->params, params);
        QVERIFY(p->worklogT4Ms.has_value());
        QCOMPARE(*p->worklogT4Ms, t4Ms);
        QVERIFY(violations(p->stage, p->params, ProblemSize{}).empty());
    }

    void everyPresetIsValidAtAwkwardSizes()
    {
        for (const auto &p : presets())
            for (const ProblemSize &size : {ProblemSize{1, 1, 1}, ProblemSize{1000, 777, 333}})
                QVERIFY2(violations(p.stage, p.params, size).empty(), p.key.c_str());
    }

    void violationSentences_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<ParamValues>("params");
        QTest::addColumn<QString>("expected");
        QTest::newRow("BM not multiple of TM")
            << "coalesced" << ParamValues{{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 12}, {"TN", 4}}
            << "BM (64) must be a multiple of TM (12)";
        QTest::newRow("value outside choices")
            << "coalesced" << ParamValues{{"BM", 100}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}}
            << "BM (100) must be one of 16, 32, 48, 64, 96, 128, 192, 256.";
        QTest::newRow("too many threads")
            << "strided" << ParamValues{{"BM", 128}, {"BN", 128}, {"BK", 8}, {"TM", 2}, {"TN", 2}}
            << "(64 x 64 = 4096 threads) must not exceed 1024 threads per block";
        QTest::newRow("step 2 loads need BK <= threads in x")
            << "coarsened" << ParamValues{{"BM", 64}, {"BN", 64}, {"BK", 16}, {"TM", 4}, {"TN", 8}}
            << "BK (16) must not exceed the threads in x (BN/TN = 64/8 = 8)";
        QTest::newRow("shared memory over 48 KiB")
            << "double_buffered" << ParamValues{{"BM", 256}, {"BN", 256}, {"BK", 16}, {"TM", 16}, {"TN", 8}}
            << "The tiles need 65536 bytes of shared memory per block";
        QTest::newRow("accumulators over registers")
            << "final" << ParamValues{{"BM", 256}, {"BN", 256}, {"BK", 4}, {"TM", 16}, {"TN", 16}}
            << "(16 x 16 = 256 accumulators) cannot stay in the 255 registers";
        QTest::newRow("naive block too large") << "naive" << ParamValues{{"BX", 64}, {"BY", 32}}
                                               << "BX x BY (64 x 32 = 2048) must not exceed 1024";
        QTest::newRow("mma copies not whole")
            << "mma_tf32"
            << ParamValues{{"BM", 64}, {"BN", 256}, {"BK", 16}, {"WM", 32}, {"WN", 32}, {"STAGES", 3}}
            << "The A tile BM x BK (1024 floats) must split into whole 16-byte copies over the block's 512 "
               "threads.";
        QTest::newRow("wgmma stages over shared memory")
            << "wgmma_tf32" << ParamValues{{"BM", 256}, {"BN", 128}, {"STAGES", 6}} << "295936 bytes";
        // ptxas: "Insufficient registers (96) ... Try to compile with register target of 154" (H200 sweep).
        QTest::newRow("wgmma accumulators over registers")
            << "wgmma_tma_tf32" << ParamValues{{"BM", 256}, {"BN", 256}, {"STAGES", 2}}
            << "a block of 544 threads gets at most 120 registers a thread";
        QTest::newRow("wgmma (cp.async) accumulators over registers")
            << "wgmma_tf32" << ParamValues{{"BM", 256}, {"BN", 256}, {"STAGES", 3}}
            << "BM (256) gives each thread 128 wgmma accumulators, about 154 registers";
        QTest::newRow("TMA stages over shared memory")
            << "wgmma_tma_tf32" << ParamValues{{"BM", 256}, {"BN", 64}, {"STAGES", 6}} << "246880 bytes";
        // ptxas: 128 bytes of spill stores for 128x256 (four consumer warpgroups, 104 registers).
        QTest::newRow("persistent accumulators over setmaxnreg registers")
            << "wgmma_persistent_tf32"
            << ParamValues{{"BM", 128}, {"BN", 256}, {"STAGES", 3}, {"A_ROUNDING", 0}, {"CLUSTER", 1}}
            << "with 4 consumer warpgroups each of their threads gets at most 104";
        QTest::newRow("persistent stages over shared memory")
            << "wgmma_persistent_tf32"
            << ParamValues{{"BM", 256}, {"BN", 128}, {"STAGES", 5}, {"A_ROUNDING", 1}, {"CLUSTER", 1}}
            << "246904 bytes";
        QTest::newRow("missing parameter") << "smem_tiled" << ParamValues{{"TILE", 16}} << "PAD is missing";
        QTest::newRow("unknown parameter")
            << "smem_tiled" << ParamValues{{"TILE", 16}, {"PAD", 0}, {"BM", 4}} << "has no parameter BM";
    }
    void violationSentences()
    {
        QFETCH(QString, stage);
        QFETCH(ParamValues, params);
        QFETCH(QString, expected);
        const StageInfo *s = findStage(stage.toStdString());
        QVERIFY(s);
        const auto v = violations(s->id, params, ProblemSize{});
        QVERIFY2(!v.empty(), "expected a violation");
        QString all;
        for (const auto &line : v)
            all += QString::fromStdString(line) + "\n";
        QVERIFY2(all.contains(expected), qPrintable(all));
    }

    // Architecture-specific code (sm_90a) runs on its own architecture alone; the other stages on
    // anything from their minimum up.
    void architectureRefusals()
    {
        const StageInfo &wgmma = *findStage("wgmma_tf32");
        QVERIFY(archViolation(wgmma, 90).empty());
        QVERIFY(QString::fromStdString(archViolation(wgmma, 80)).contains("needs compute capability 90"));
        QVERIFY(QString::fromStdString(archViolation(wgmma, 100))
                    .contains("runs on compute capability 90 alone"));
        QCOMPARE(nvrtcArchitecture(wgmma, 90), std::string("sm_90a"));
        const StageInfo &mma = *findStage("mma_tf32");
        QVERIFY(QString::fromStdString(archViolation(mma, 75)).contains("mma.sync with TF32"));
        QVERIFY(archViolation(mma, 100).empty());
        QCOMPARE(nvrtcArchitecture(mma, 90), std::string("sm_90"));
        QVERIFY(mma.precision == Precision::Tf32 && wgmma.precision == Precision::Tf32);
        const StageInfo &tma = *findStage("wgmma_tma_tf32");
        QVERIFY(archViolation(tma, 90).empty());
        QVERIFY(QString::fromStdString(archViolation(tma, 89)).contains("TMA"));
        QCOMPARE(nvrtcArchitecture(tma, 90), std::string("sm_90a"));
    }

    // The TMA stage's launch: consumer warpgroups plus one producer warp, the tiles, the 1 KiB
    // alignment and two 8-byte mbarriers per stage; its tensor maps' boxes are BM and BN rows of 32.
    void tmaStageLaunch()
    {
        const StageInfo &tma = *findStage("wgmma_tma_tf32");
        QVERIFY(tma.transposedB && tma.archSpecific && tma.tensorMaps);
        QCOMPARE(tma.tensorMaps->aBoxRowsParam, std::string("BM"));
        QCOMPARE(tma.tensorMaps->btBoxRowsParam, std::string("BN"));
        QCOMPARE(tma.tensorMaps->boxK * 4, 128); // one 128-byte swizzle row
        const ParamValues p{{"BM", 256}, {"BN", 128}, {"STAGES", 4}};
        const auto g = launchGeometry(tma.id, p, ProblemSize{1000, 777, 333});
        QCOMPARE(g.blockX, 2 * 128 + 32);
        QCOMPARE(g.gridX, 7); // 777 / 128 columns of C, rounded up
        QCOMPARE(g.gridY, 4); // 1000 / 256 rows
        QCOMPARE(g.dynamicSmemBytes, 4 * (256 + 128) * 128 + 1024 + 4 * 16);
        const KernelShape s = tma.model.mapping(p);
        QCOMPARE(s.outputThreads(), 256); // the producer warp owns nothing
        QVERIFY(violations(tma.id, p, ProblemSize{1, 1, 1}).empty());
    }

    // The persistent stage reads A and B as they are: no transpose, a B map of 32 x 32 boxes (K rows
    // by N columns), rounding in the kernel. Its model's grid counts output tiles (the runner fits
    // it to the GPU); its block is the consumer warpgroups and one producer warpgroup.
    void persistentStageLaunch()
    {
        const StageInfo &stage = *findStage("wgmma_persistent_tf32");
        QVERIFY(!stage.transposedB && stage.archSpecific && stage.persistent && stage.roundsTf32InKernel);
        QVERIFY(stage.precision == Precision::Tf32);
        QVERIFY(stage.tensorMaps && stage.tensorMaps->rowMajorB);
        QCOMPARE(stage.tensorMaps->aBoxRowsParam, std::string("BM"));
        QCOMPARE(stage.tensorMaps->bBoxColumns * 4, 128); // one 128-byte swizzle row of N
        QCOMPARE(stage.tensorMaps->boxK * 4, 128);
        // The stages that read BT keep their maps and their rounding pre-pass.
        const StageInfo &tma = *findStage("wgmma_tma_tf32");
        QVERIFY(!tma.tensorMaps->rowMajorB && !tma.roundsTf32InKernel && !tma.persistent);
        const Preset *preset = findPreset("tf32-persistent");
        QVERIFY(preset && preset->stage == stage.id);
        const ParamValues p{{"BM", 256}, {"BN", 128}, {"STAGES", 4}, {"A_ROUNDING", 0}, {"CLUSTER", 2}};
        QCOMPARE(preset->params, p);
        // Its twin rounds A in shared memory instead of in the copy engine; A's map names the switch.
        const Preset *smem = findPreset("tf32-persistent-smem");
        QVERIFY(smem && smem->stage == stage.id);
        QCOMPARE(paramValue(smem->params, "A_ROUNDING"), 1);
        QCOMPARE(stage.tensorMaps->aCopyRoundsParam, std::string("A_ROUNDING"));
        // Its blocks share A's tile in 2-block clusters; its twin without clusters shows the gain.
        const Preset *alone = findPreset("tf32-persistent-nocluster");
        QVERIFY(alone && alone->stage == stage.id);
        QCOMPARE(paramValue(alone->params, "CLUSTER"), 1);
        QCOMPARE(stage.clusterParam, std::string("CLUSTER"));
        const auto g = launchGeometry(stage.id, p, ProblemSize{8192, 4096, 6144});
        QCOMPARE(g.blockX, 3 * 128);          // two consumer warpgroups and the producer's
        QCOMPARE(g.gridX * g.gridY, 32 * 32); // 8192 / 256 x 4096 / 128 output tiles
        QCOMPARE(g.dynamicSmemBytes, 4 * (256 + 128) * 128 + 1024 + 4 * 24);
        QVERIFY(!stage.model.mapping); // a permutation of columns the owner views do not draw
        for (const ProblemSize &size :
             {ProblemSize{1, 1, 1}, ProblemSize{1000, 777, 333}, ProblemSize{1, 4099, 1}})
            QVERIFY(violations(stage.id, p, size).empty());
        // One consumer warpgroup keeps 232 registers, two keep 232, four 104 (setmaxnreg).
        QVERIFY(violations(stage.id,
                           {{"BM", 256}, {"BN", 64}, {"STAGES", 4}, {"A_ROUNDING", 1}, {"CLUSTER", 1}},
                           ProblemSize{})
                    .empty());
        QVERIFY(violations(stage.id,
                           {{"BM", 64}, {"BN", 256}, {"STAGES", 4}, {"A_ROUNDING", 0}, {"CLUSTER", 1}},
                           ProblemSize{})
                    .empty());
        QVERIFY(!violations(stage.id,
                            {{"BM", 256}, {"BN", 256}, {"STAGES", 2}, {"A_ROUNDING", 0}, {"CLUSTER", 1}},
                            ProblemSize{})
                     .empty());
    }

    void badProblemSizes()
    {
        const auto naive = defaultParams(StageId::Naive);
        QVERIFY(!violations(StageId::Naive, naive, ProblemSize{0, 4, 4}).empty());
        QVERIFY(!violations(StageId::CublasFp32, {}, ProblemSize{4, -1, 4}).empty());
        const auto huge = violations(StageId::CublasFp32, {}, ProblemSize{70000, 70000, 8});
        QVERIFY(!huge.empty());
        QVERIFY(QString::fromStdString(huge.front()).contains("2^31"));
    }

    void launchGeometryMatchesKernels()
    {
        const Preset *step8 = findPreset("worklog-8");
        const auto g = launchGeometry(step8->stage, step8->params, ProblemSize{});
        QCOMPARE(g.blockX, 16);
        QCOMPARE(g.blockY, 16);
        QCOMPARE(g.gridX, 4096LL / 192 + 1); // 4096 is not a multiple of 192: 22 blocks
        QCOMPARE(g.gridY, 8192LL / 192 + 1);
        QCOMPARE(g.staticSmemBytes, 4 * (192 + 192) * 16);

        const auto db = findPreset("worklog-5b");
        QCOMPARE(launchGeometry(db->stage, db->params, ProblemSize{}).staticSmemBytes, 49152);

        const auto guide = findPreset("guide-32-padded");
        const auto gg = launchGeometry(guide->stage, guide->params, ProblemSize{1000, 777, 333});
        QCOMPARE(gg.threadsPerBlock(), 1024);
        QCOMPARE(gg.gridX, 25LL);
        QCOMPARE(gg.gridY, 32LL);
        QCOMPARE(gg.staticSmemBytes, 4 * (32 * 32 + 32 * 33));

        // fp32-tuned fills the 48 KiB of static arrays with unpadded tiles; fp32-padded moves the
        // same tiles, padded, into dynamic shared memory (pipelined_padded.cuh's `tiles`).
        const Preset *tuned = findPreset("fp32-tuned"), *padded = findPreset("fp32-padded");
        QVERIFY(tuned && padded);
        QCOMPARE(padded->params, tuned->params);
        const auto tg = launchGeometry(tuned->stage, tuned->params, ProblemSize{});
        QCOMPARE(tg.staticSmemBytes, 2 * 4 * 16 * (128 + 256));
        QCOMPARE(tg.dynamicSmemBytes, 0);
        const auto pg = launchGeometry(padded->stage, padded->params, ProblemSize{});
        QCOMPARE(pg.staticSmemBytes, 0);
        QCOMPARE(pg.dynamicSmemBytes, 2 * 4 * 16 * (128 + 4 + 256));
        QVERIFY(pg.smemBytes() > 48 * 1024);
        QVERIFY(violations(padded->stage, padded->params, ProblemSize{}).empty());
    }

    void nameExpressionsFollowTemplateOrder()
    {
        QCOMPARE(
            QString::fromStdString(kernelNameExpression(StageId::Coalesced, findPreset("worklog-3")->params)),
            QString("gemmscope::coalesced<64, 64, 8, 4, 4>"));
        QCOMPARE(QString::fromStdString(kernelNameExpression(StageId::SmemTiled, {{"TILE", 32}, {"PAD", 1}})),
                 QString("gemmscope::smem_tiled<32, 1>"));
        QVERIFY(kernelNameExpression(StageId::CublasFp32, {}).empty());
        QCOMPARE(QString::fromStdString(formatParams(findPreset("worklog-5a")->params)),
                 QString("BM=128 BN=128 BK=12 TM=8 TN=8"));
    }
};

QTEST_APPLESS_MAIN(TstStageCatalog)
#include "tst_stage_catalog.moc"
