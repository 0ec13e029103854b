// Load schemes as objects (kernels/load_scheme.h): every TileLoadScheme has its registered object,
// the models asking those objects give what the switches they replaced gave for every catalog stage
// (tests/data/model_fingerprints.txt, recorded on main at 676568c before the change), and a scheme's
// own words reach the views' hooks.
#include "load_scheme.h"
#include "stage_notes.h"
#include "support/kernel_shapes.h"
#include "support/model_fingerprints.h"

#include <QFile>
#include <QMap>
#include <QSet>
#include <QtTest>

using namespace gemmscope;

class TestLoadSchemes : public QObject {
    Q_OBJECT

private slots:
    void everySchemeHasItsObject()
    {
        QSet<QString> names;
        for (int i = 0; i < kTileLoadSchemeCount; ++i) {
            const auto id = TileLoadScheme(i);
            const LoadScheme &scheme = loadScheme(id);
            // An unregistered value falls back to NotModelled's object: its id would differ.
            QVERIFY2(scheme.id() == id,
                     qPrintable(QStringLiteral("TileLoadScheme %1 has no object of its own "
                                               "in kernels/load_schemes/registry.cpp")
                                    .arg(i)));
            QVERIFY(!scheme.name().empty());
            names.insert(QString::fromStdString(scheme.name()));
        }
        QCOMPARE(names.size(), kTileLoadSchemeCount); // one object each, not one for two values
    }

    // Each catalog stage's shape asks the object of its own scheme.
    void shapesFindTheirScheme()
    {
        QCOMPARE(loadSchemeOf(test::shapeOf("coalesced", "BM=64 BN=64 BK=8 TM=4 TN=4")).id(),
                 TileLoadScheme::Cooperative);
        QCOMPARE(loadSchemeOf(test::shapeOf("wgmma_tma_tf32", "BM=256 BN=128 STAGES=4")).id(),
                 TileLoadScheme::TmaSwizzled128);
        QCOMPARE(
            loadSchemeOf(test::shapeOf("async_pipelined", "BM=128 BN=256 BK=8 TM=8 TN=16 STAGES=3")).id(),
            TileLoadScheme::AsyncCopies);
    }

    // What the mapping and access models say about every stage's loads (each element each thread
    // loads, every warp's global and shared accesses, refusals, launch counts, TMA boxes) is what the
    // per-scheme switches said before the schemes became objects; its owners (each output's thread
    // and register, what each thread reads) what the per-layout switches said before the layouts did. Parameter sets the file does not
    // list (a stage or preset added since) are not compared. A change to the models that is meant
    // (a fix) rewrites the file: GEMMSCOPE_FINGERPRINTS_OUT=<file> tst_load_schemes writes the lines.
    void modelsGiveWhatTheyGaveBefore()
    {
        QFile file(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/model_fingerprints.txt"));
        QVERIFY2(file.open(QIODevice::ReadOnly | QIODevice::Text), qPrintable(file.fileName()));
        const QStringList recorded =
            QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(recorded.size() >= 100); // every stage, its presets and its parameters' ends
        const auto keyOf = [](const QString &line) { return line.section(QLatin1Char('|'), 0, 0); };
        QMap<QString, QString> now;
        QStringList lines;
        for (const std::string &line : test::modelFingerprints()) {
            lines.append(QString::fromStdString(line));
            now.insert(keyOf(lines.last()), lines.last());
        }
        if (const QString out = qEnvironmentVariable("GEMMSCOPE_FINGERPRINTS_OUT"); !out.isEmpty()) {
            QFile written(out);
            QVERIFY(written.open(QIODevice::WriteOnly | QIODevice::Text));
            written.write(lines.join(QLatin1Char('\n')).toUtf8() + '\n');
        }
        for (const QString &line : recorded) {
            const QString key = keyOf(line);
            QVERIFY2(now.contains(key), qPrintable(QStringLiteral("the catalog no longer has %1").arg(key)));
            // On a mismatch the differing section's digest names the part of the model that moved.
            QCOMPARE(now.value(key), line);
        }
    }

    // The views' hooks: the TMA scheme lists the tensor core's reads under the swizzle picture and
    // says what no counter sees; a lane scheme lists its lanes' accesses and says nothing extra.
    void viewHooksFollowTheScheme()
    {
        const KernelShape tma = test::shapeOf("wgmma_tma_tf32", "BM=256 BN=128 STAGES=4");
        const BankPicture tmaBanks = loadSchemeOf(tma).bankPicture(tma, AccessContext{}, 0);
        QVERIFY(tmaBanks.swizzleAtoms);
        QCOMPARE(int(tmaBanks.accesses.size()), kSwizzleChunks + 1);
        QVERIFY(tmaBanks.accesses.front().tensorCoreRead);
        QCOMPARE(tmaBanks.comparePair, std::optional(std::pair{0, kSwizzleChunks}));
        const CounterNotes tmaNotes = loadSchemeOf(tma).counterNotes(tma, AccessContext{});
        QCOMPARE(int(tmaNotes.unobserved.size()), 2);
        QCOMPARE(QString::fromStdString(tmaNotes.unobserved[0].model),
                 QStringLiteral("A 256×32 + BT 128×32 floats, 48 KiB, 128-byte swizzle"));
        QVERIFY(tmaNotes.sharedReadsAsWritten);
        QVERIFY(tmaNotes.explainsPerRequest());

        const KernelShape coalesced = test::shapeOf("coalesced", "BM=64 BN=64 BK=8 TM=4 TN=4");
        const BankPicture lanes = loadSchemeOf(coalesced).bankPicture(coalesced, AccessContext{}, 1);
        QVERIFY(!lanes.swizzleAtoms);
        QVERIFY(!lanes.comparePair);
        QCOMPARE(int(lanes.accesses.size()), int(sharedAccesses(coalesced, AccessContext{}, 1).size()));
        const CounterNotes none = loadSchemeOf(coalesced).counterNotes(coalesced, AccessContext{});
        QVERIFY(none.unobserved.empty() && none.sharedStoresUncounted.empty() && !none.explainsPerRequest());

        const KernelShape copies = test::shapeOf("async_pipelined", "BM=128 BN=256 BK=8 TM=8 TN=16 STAGES=3");
        QVERIFY(!loadSchemeOf(copies).counterNotes(copies, AccessContext{}).sharedStoresUncounted.empty());

        QVERIFY(loadScheme(TileLoadScheme::OneElementPerThread).onePerThread());
        QVERIFY(!loadScheme(TileLoadScheme::GuardedStrips).onePerThread());
    }

    // A stage without a coalescing note of its own gets its scheme's; one with its own keeps it.
    void coalescingNotesFromTheScheme()
    {
        const KernelShape tma = test::shapeOf("wgmma_tma_tf32", "BM=256 BN=128 STAGES=4");
        QCOMPARE(coalescingNote(StageId("wgmma_tma_tf32"), &tma),
                 loadScheme(TileLoadScheme::TmaSwizzled128).coalescingNote());
        QVERIFY(!coalescingNote(StageId("wgmma_tma_tf32"), &tma).empty());
        QVERIFY(
            stageNotes(StageId("wgmma_tma_tf32")).coalescingNote.empty()); // the stage has none of its own
        QVERIFY(coalescingNote(StageId::Naive, nullptr).rfind("Why the worklog still calls this slow", 0) ==
                0);
        QVERIFY(coalescingNote(StageId::Coalesced, nullptr).empty());
        QVERIFY(stageNotes(StageId::SmemTiled).bankPaddingDemo);
    }
};

QTEST_APPLESS_MAIN(TestLoadSchemes)
#include "tst_load_schemes.moc"
