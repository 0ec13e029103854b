// PTX and SASS reading: source lines from -lineinfo, the hot loop from the backward branches, and
// the instruction mix, checked on recorded compiler output of a kernel whose counts are known by
// hand: warptiled<64, 64, 8, 4, 4> does BK x TM x TN = 8 x 4 x 4 = 128 FMAs per k-tile per thread
// and reads one A and one B fragment of four floats per k: 2 x 8 = 16 128-bit shared loads.
#include "machine_code.h"

#include <QFile>
#include <QTest>

using namespace gemmscope;

namespace {

std::string readData(const char *name)
{
    QFile f(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/") + QLatin1String(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", name);
    return f.readAll().toStdString();
}

} // namespace

class TestMachineCode : public QObject {
    Q_OBJECT
private slots:
    void categories_data()
    {
        QTest::addColumn<QString>("opcode");
        QTest::addColumn<QString>("category");
        QTest::newRow("sass ffma") << "FFMA"
                                   << "FFMA";
        QTest::newRow("sass lds128") << "LDS.128"
                                     << "LDS.128";
        QTest::newRow("sass lds") << "LDS"
                                  << "LDS";
        QTest::newRow("sass lds64") << "LDS.64"
                                    << "LDS.64";
        QTest::newRow("sass ldg128") << "LDG.E.128.CONSTANT"
                                     << "LDG.128";
        QTest::newRow("sass ldg") << "LDG.E.CONSTANT"
                                  << "LDG";
        QTest::newRow("sass stg128") << "STG.E.128"
                                     << "STG.128";
        QTest::newRow("sass ldgsts") << "LDGSTS.E.BYPASS.LTC128B.128"
                                     << "LDGSTS";
        QTest::newRow("sass bar") << "BAR.SYNC.DEFER_BLOCKING"
                                  << "BAR";
        QTest::newRow("sass fadd") << "FADD"
                                   << "other";
        QTest::newRow("ptx fma") << "fma.rn.f32"
                                 << "FFMA";
        QTest::newRow("ptx fma f64 is not FFMA") << "fma.rn.f64"
                                                 << "other";
        QTest::newRow("ptx lds v4") << "ld.shared.v4.f32"
                                    << "LDS.128";
        QTest::newRow("ptx lds v2") << "ld.shared.v2.f32"
                                    << "LDS.64";
        QTest::newRow("ptx lds") << "ld.shared.f32"
                                 << "LDS";
        QTest::newRow("ptx ldg v4") << "ld.global.nc.v4.f32"
                                    << "LDG.128";
        QTest::newRow("ptx st shared") << "st.shared.f32"
                                       << "STS";
        QTest::newRow("ptx cp.async") << "cp.async.cg.shared.global"
                                      << "LDGSTS";
        QTest::newRow("ptx cp.async commit is not a copy") << "cp.async.commit_group"
                                                           << "other";
        QTest::newRow("ptx bar") << "bar.sync"
                                 << "BAR";
        QTest::newRow("ptx mma.sync") << "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"
                                      << "HMMA";
        QTest::newRow("ptx wgmma") << "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32"
                                   << "HGMMA";
        QTest::newRow("ptx wgmma fence is not a multiply") << "wgmma.fence.sync.aligned"
                                                           << "other";
        QTest::newRow("ptx ldmatrix") << "ldmatrix.sync.aligned.m8n8.x4.shared.b16"
                                      << "LDSM";
        QTest::newRow("ptx TMA load")
            << "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
            << "UTMALDG";
        QTest::newRow("ptx mbarrier wait") << "mbarrier.try_wait.parity.shared::cta.b64"
                                           << "SYNCS";
        QTest::newRow("ptx mbarrier init") << "mbarrier.init.shared::cta.b64"
                                           << "other";
        QTest::newRow("sass hgmma") << "HGMMA.64x256x8.F32.TF32"
                                    << "HGMMA";
        QTest::newRow("sass hmma") << "HMMA.1688.F32.TF32"
                                   << "HMMA";
        QTest::newRow("sass ldsm") << "LDSM.16.M88.4"
                                   << "LDSM";
        QTest::newRow("sass utmaldg") << "UTMALDG.2D"
                                      << "UTMALDG";
    }
    void categories()
    {
        QFETCH(QString, opcode);
        QFETCH(QString, category);
        QCOMPARE(QString::fromStdString(instructionCategory(opcode.toStdString())), category);
    }

    void ptxOfWarptiledKernel()
    {
        const MachineCode code = parsePtx(readData("warptiled_64x64x8_4x4_sm90.ptx"));
        QCOMPARE(code.level, CodeLevel::Ptx);
        QVERIFY(code.innerLoop.has_value());
        const auto loop = instructionMix(code, true);
        QCOMPARE(loop.at("FFMA"), 8 * 4 * 4);
        QCOMPARE(loop.at("LDS.128"), 2 * 8);
        QCOMPARE(loop.at("BAR"), 2); // two barriers per tile: no double buffering in this stage
        QVERIFY(!loop.count("LDS")); // every inner-loop shared read is 128-bit
        // The stores of C are after the loop: in the whole kernel, not in the loop.
        QVERIFY(!loop.count("STG.128"));
        QVERIFY(instructionMix(code, false).at("STG.128") > 0);
        // Every fragment read carries its source line: lines 58 and 64 of warptiled.cuh read A and B.
        QSet<int> lines;
        for (const CodeLine &l : code.lines)
            if (l.category == "LDS.128") {
                QCOMPARE(QString::fromStdString(l.sourceFile), QStringLiteral("kernels/cuda/warptiled.cuh"));
                lines.insert(l.sourceLine);
            }
        QCOMPARE(lines, (QSet<int>{58, 64}));
    }

    // nvcc -ptx -lineinfo -arch=sm_90a of wgmma_tma_tf32<256, 128, 4> (CUDA 13.0): the hot loop is
    // the consumers' k loop with its four wgmma m64n256k8 (BK 32 = 4 x k8), not the mbarrier spin
    // inside it (a loop without a multiply); the producer's loop holds the two TMA copies.
    void ptxOfTheTmaKernel()
    {
        const MachineCode code = parsePtx(readData("wgmma_tma_256x128x4_sm90a.ptx"));
        QVERIFY(code.innerLoop.has_value());
        const auto loop = instructionMix(code, true);
        QCOMPARE(loop.at("HGMMA"), 4);
        QVERIFY(loop.at("SYNCS") >= 2); // the wait on the full stage, the release of the empty one
        QVERIFY(!loop.count("FFMA") && !loop.count("LDS") && !loop.count("BAR"));
        const auto kernel = instructionMix(code, false);
        QCOMPARE(kernel.at("UTMALDG"), 2); // A and BT, one copy each per k tile
        QVERIFY(!kernel.count("LDGSTS") && !kernel.count("LDS.128"));
        for (const CodeLine &l : code.lines)
            if (l.category == "HGMMA")
                QCOMPARE(QString::fromStdString(l.sourceFile), QStringLiteral("kernels/cuda/wgmma_ops.cuh"));
    }

    // cuobjdump -sass (H200 machine; encodings stripped) of the runner's CUBIN of the same
    // kernel: the consumers' loop has the four HGMMA.64x256x8 and two SYNCS (the try-wait on the
    // full stage, the arrive on the empty one); the two UTMALDG.2D are the producer's, outside it.
    void sassOfTheTmaKernel()
    {
        const MachineCode code = parseSass(readData("wgmma_tma_256x128x4_sm90a.sass"));
        QVERIFY(code.innerLoop.has_value());
        const auto loop = instructionMix(code, true);
        QCOMPARE(loop.at("HGMMA"), 4);
        QCOMPARE(loop.at("SYNCS"), 2);
        QVERIFY(!loop.count("UTMALDG") && !loop.count("LDS") && !loop.count("BAR"));
        const auto kernel = instructionMix(code, false);
        QCOMPARE(kernel.at("UTMALDG"), 2);
        QVERIFY(!kernel.count("LDGSTS") && !kernel.count("LDS.128") && !kernel.count("HMMA"));
    }

    void sassWithLineInfo()
    {
        // Hand-written in nvdisasm -g's format: a loop from 0x0020 back-branched at 0x0060.
        const std::string sass = R"(        .text.k:
        //## File "kernels/cuda/k.cuh", line 10
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        //## File "kernels/cuda/k.cuh", line 12
        /*0010*/                   LDS.128 R4, [R2] ;
        //## File "kernels/cuda/k.cuh", line 13
        /*0020*/                   FFMA R8, R4, R5, R8 ;
        /*0030*/                   FFMA R9, R4, R6, R9 ;
        /*0040*/              @!P0 LDS.128 R4, [R2+0x10] ;
        /*0050*/                   ISETP.GE.AND P0, PT, R3, 0x10, PT ;
        /*0060*/               @P0 BRA 0x20 ;
        //## File "kernels/cuda/k.cuh", line 20
        /*0070*/                   STG.E.128 desc[UR4][R10.64], R8 ;
        /*0080*/                   EXIT ;
)";
        const MachineCode code = parseSass(sass);
        QCOMPARE(code.level, CodeLevel::Sass);
        QVERIFY(code.innerLoop.has_value());
        QCOMPARE(QString::fromStdString(code.lines[size_t(code.innerLoop->first)].opcode),
                 QStringLiteral("FFMA"));
        QCOMPARE(QString::fromStdString(code.lines[size_t(code.innerLoop->last)].opcode),
                 QStringLiteral("BRA"));
        const auto loop = instructionMix(code, true);
        QCOMPARE(loop.at("FFMA"), 2);
        QCOMPARE(loop.at("LDS.128"), 1); // the predicated one inside the loop
        QCOMPARE(instructionMix(code, false).at("LDS.128"), 2);
        for (const CodeLine &l : code.lines)
            if (l.opcode == "STG.E.128")
                QCOMPARE(l.sourceLine, 20);
    }

    // Real nvdisasm -c -g output (H200 machine) of the tuned preset, pipelined<128, 128,
    // 16, 8, 16, 1>: per k-tile each thread does BK x TM x TN = 16 x 8 x 16 = 2048 FFMAs and reads
    // TM/4 + TN/4 = 6 float4 fragments per k: 96 LDS.128; one barrier per tile (double buffered).
    void sassOfTheTunedKernel()
    {
        const MachineCode code = parseSass(readData("pipelined_128x128x16_8x16_sm90.sass"));
        QVERIFY(code.innerLoop.has_value());
        const auto loop = instructionMix(code, true);
        QCOMPARE(loop.at("FFMA"), 2048);
        QCOMPARE(loop.at("LDS.128"), 96);
        QCOMPARE(loop.at("BAR"), 1);
        QVERIFY(!loop.count("LDS")); // no scalar shared reads in the hot loop
        int withLine = 0, instructions = 0;
        for (const CodeLine &l : code.lines)
            if (l.isInstruction) {
                ++instructions;
                withLine += l.sourceLine > 0 && l.sourceFile == "pipelined.cuh";
            }
        QVERIFY(withLine > instructions / 2);
    }

    void noLoopNoInnerMix()
    {
        const MachineCode code = parseSass("        /*0000*/                   FFMA R1, R2, R3, R1 ;\n");
        QVERIFY(!code.innerLoop.has_value());
        QVERIFY(instructionMix(code, true).empty());
        QCOMPARE(instructionMix(code, false).at("FFMA"), 1);
    }

    void garbageIsHarmless()
    {
        const MachineCode a = parsePtx("\x01\x02 .loc x y\n.file 9\n$L:\nbra $nowhere;\n@ ;\n");
        QVERIFY(!a.innerLoop.has_value());
        const MachineCode b = parseSass("/**/\n/*zz*/ BRA 0x;\n//## File \"\n");
        QVERIFY(!b.innerLoop.has_value());
    }
};

QTEST_GUILESS_MAIN(TestMachineCode)
#include "tst_machine_code.moc"
