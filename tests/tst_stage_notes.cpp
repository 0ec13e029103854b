// What the Kernel workspace says beyond its diagrams is data of the stage (kernels/stage_notes.h):
// every stage with notes is in the catalog, a padding demo names a parameter its stage has, and a
// load scheme's note reaches every stage that loads that way without an entry of its own.
#include "mapping_model.h"
#include "stage_catalog.h"
#include "stage_notes.h"

#include <QtTest>

using namespace gemmscope;

class TstStageNotes : public QObject {
    Q_OBJECT

private slots:
    // A note kept under a key the catalog does not know would never be shown.
    void everyNotedStageIsInTheCatalog()
    {
        const std::vector<StageId> noted = stagesWithNotes();
        QVERIFY(!noted.empty());
        for (StageId id : noted) {
            QVERIFY2(findStage(id.key()), id.str().c_str());
            const StageNotes &notes = stageNotes(id);
            QVERIFY2(!notes.coalescingNote.empty() || notes.bankPaddingDemo, id.str().c_str());
        }
    }

    // The demo reads its tile from a parameter of its stage and says, for that tile, how many ways
    // the unpadded column read conflicts.
    void paddingDemoNamesItsStagesParameter()
    {
        int demos = 0;
        for (const StageInfo &stage : stages()) {
            const std::optional<BankPaddingDemo> &demo = stageNotes(stage.id).bankPaddingDemo;
            if (!demo)
                continue;
            ++demos;
            QVERIFY2(std::any_of(stage.params.begin(), stage.params.end(),
                                 [&](const ParamSpec &p) { return p.name == demo->tileParam; }),
                     stage.key.c_str());
            QVERIFY(!demo->unpaddedLabel.empty() && !demo->paddedLabel.empty());
            QVERIFY(demo->note);
            QVERIFY(QString::fromStdString(demo->note(16)).contains(QStringLiteral("(16-way)")));
            QVERIFY(QString::fromStdString(demo->note(64)).contains(QStringLiteral("(32-way)")));
        }
        QCOMPARE(demos, 1); // smem_tiled, the guide's 32x32 +1 variant
        QVERIFY(stageNotes(StageId::SmemTiled).bankPaddingDemo);
    }

    // The coalescing note: the stage's own (naive), else its load scheme's (TMA: no lane loads A or
    // B), else none; a stage whose kernel shape is unknown gets only its own.
    void coalescingNoteFollowsStageThenScheme()
    {
        QVERIFY(QString::fromStdString(coalescingNote(StageId::Naive, nullptr))
                    .contains(QStringLiteral("reuse")));
        int tmaStages = 0;
        for (const StageInfo &stage : stages()) {
            const KernelShapeResult shape = kernelShape(stage.id, defaultParams(stage.id));
            if (!shape.shape)
                continue;
            const std::string note = coalescingNote(stage.id, &*shape.shape);
            if (shape.shape->loads == TileLoadScheme::TmaSwizzled128) {
                ++tmaStages;
                QVERIFY2(QString::fromStdString(note).contains(QStringLiteral("no lane loads A or B")),
                         stage.key.c_str());
            } else if (stageNotes(stage.id).coalescingNote.empty()) {
                QVERIFY2(note.empty(), stage.key.c_str());
            }
        }
        QVERIFY(tmaStages >= 1);
        // A TMA kernel whose stage has no entry (a second TMA stage) still gets the scheme's note.
        KernelShape tma;
        tma.loads = TileLoadScheme::TmaSwizzled128;
        QVERIFY(!coalescingNote(StageId::Coalesced, &tma).empty());
        QVERIFY(coalescingNote(StageId::Coalesced, nullptr).empty());
    }
};

QTEST_APPLESS_MAIN(TstStageNotes)
#include "tst_stage_notes.moc"
