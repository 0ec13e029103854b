// The mapping diagrams, rendered offscreen: a selected thread's cells are really painted in the
// selection colour, clicks and tooltips name the owner, the animation steps deterministically,
// and the exports write real files.
#include "bank_conflict_view.h"
#include "coalescing_view.h"
#include "plot_theme.h"
#include "support/profile_fixtures.h"
#include "tensor_core_models.h"
#include "tile_map_view.h"

#include <QCheckBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;

namespace {

KernelShape shapeOf(StageId id, const ParamValues &params)
{
    const KernelShapeResult r = kernelShape(id, params);
    if (!r.shape)
        qFatal("no shape: %s", r.error.c_str());
    return *r.shape;
}

const ParamValues tiles64 = {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}};
const ParamValues tiles192 = {{"BM", 192}, {"BN", 192}, {"BK", 16}, {"TM", 12}, {"TN", 12}};

QImage rendered(QWidget &w)
{
    return w.grab().toImage().convertToFormat(QImage::Format_RGB32);
}

QColor pixelAt(const QImage &img, QPointF p)
{
    return img.pixelColor(p.toPoint());
}

// The lead's tensor-core shapes, from the catalog model helpers.
KernelShape mmaShape()
{
    return mmaWarpTileModel().mapping(
        {{"BM", 64}, {"BN", 64}, {"BK", 16}, {"WM", 32}, {"WN", 32}, {"STAGES", 3}});
}

KernelShape wgmmaShape()
{
    return wgmmaWarpgroupModel().mapping({{"BM", 128}, {"BN", 128}, {"BK", 32}, {"WM", 64}, {"STAGES", 4}});
}

} // namespace

class TestMappingViews : public QObject {
    Q_OBJECT

private slots:
    // With a profile of the configuration, the coalescing and bank views put the measured figure of
    // the shown instruction's class under the diagram, beside the model's.
    void measuredFigureBesideTheModel()
    {
        CoalescingView view;
        view.setShape(shapeOf(StageId::Coalesced, tiles64), AccessContext{});
        QVERIFY(view.measuredText().isEmpty());
        const protocol::ProfileEvent profile = test::coalescedShapedProfile();
        view.setProfile(&profile);
        // Frame 0 loads A. The profile's loads sit in loadOrZero (common.cuh:30), which names no
        // matrix; the tile store their register goes to does (cooperative_load.cuh:18, tileA).
        QCOMPARE(view.currentAccess()->operand, Operand::A);
        QCOMPARE(view.measuredText(),
                 QStringLiteral(
                     "Measured on NVIDIA H200 (global loads of A; common.cuh:30): 4.0 sectors per request "
                     "(ideal 4.0). The model: 4.0 for this instruction."));
        // Without that store every global load stands in, and the sentence says so.
        protocol::ProfileEvent unknown = profile;
        unknown.instructions[2].sass.clear();
        unknown.instructions[3].sass.clear();
        view.setProfile(&unknown);
        QCOMPARE(
            view.measuredText(),
            QStringLiteral("Measured on NVIDIA H200 (every global load: the source lines do not say which "
                           "matrix; common.cuh:30): 4.0 sectors per request (ideal 4.0). The model: 4.0 for "
                           "this instruction."));
        view.setProfile(&profile);
        while (view.currentAccess()->operand != Operand::C)
            view.step();
        // Step 3's C stores: 16 sectors per request in the model and in the (hand-made) profile.
        QCOMPARE(
            view.measuredText(),
            QStringLiteral("Measured on NVIDIA H200 (global stores of C; coalesced.cuh:45): 16.0 sectors per "
                           "request (ideal 4.0). The model: 16.0 for this instruction."));
        view.setProfile(nullptr);
        QVERIFY(view.measuredText().isEmpty());

        BankConflictView bank;
        bank.setStage(shapeOf(StageId::Coalesced, tiles64), AccessContext{}, 0);
        bank.setProfile(&profile);
        QVERIFY2(bank.measuredText().startsWith(QLatin1String("Measured on NVIDIA H200 (shared ")),
                 qPrintable(bank.measuredText()));
        QVERIFY(bank.measuredText().contains(QLatin1String("wavefronts per request")));
        protocol::ProfileEvent failed;
        failed.instructionsError = QStringLiteral("SASS metrics: <b>unsupported</b>.");
        bank.setProfile(&failed);
        QVERIFY(bank.measuredText().startsWith(
            QLatin1String("Measured: none (SASS metrics: <b>unsupported</b>.)")));
        QCOMPARE(bank.findChild<QLabel *>(QStringLiteral("bankMeasured"))->textFormat(), Qt::PlainText);
    }

    void selectedThreadCellsAreHighlighted_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<bool>("large");
        QTest::addColumn<int>("tid");
        QTest::newRow("step 2, thread 37") << QStringLiteral("coarsened") << false << 37;
        QTest::newRow("step 7, thread 100") << QStringLiteral("strided") << true << 100;
        QTest::newRow("step 6, thread 255") << QStringLiteral("coalesced") << true << 255;
    }
    void selectedThreadCellsAreHighlighted()
    {
        QFETCH(QString, stage);
        QFETCH(bool, large);
        QFETCH(int, tid);
        TileMapView view;
        view.resize(large ? 1400 : 700, large ? 1400 : 700);
        const KernelShape s = shapeOf(StageId(stage.toStdString()), large ? tiles192 : tiles64);
        view.setShape(s);
        QSignalSpy spy(&view, &TileMapView::threadSelected);
        view.setSelectedThread(tid);
        QCOMPARE(spy.count(), 1);
        QVERIFY(!view.isSampled());

        const QImage img = rendered(view);
        const TilePanelGeometry g = view.panelGeometry(0);
        for (const TileCell &c : outputsOf(s, tid))
            QCOMPARE(pixelAt(img, g.cellRect(Operand::C, c).center()), TileMapView::selectionColor());
        // A cell of another thread is not highlighted.
        const TileCell other = outputsOf(s, (tid + 1) % s.threads()).front();
        QVERIFY(pixelAt(img, g.cellRect(Operand::C, other).center()) != TileMapView::selectionColor());
        // What the thread loads is highlighted in the A and B tiles.
        const std::vector<TileLoad> loads = tileLoadsOf(s, tid);
        QVERIFY(!loads.empty());
        for (const TileLoad &l : loads)
            QCOMPARE(pixelAt(img, g.cellRect(l.operand, l.cell).center()), TileMapView::selectionColor());
    }

    void clickSelectsAndTooltipNamesTheOwner()
    {
        TileMapView view;
        view.resize(700, 700);
        const KernelShape s = shapeOf(StageId::Strided, tiles64);
        view.setShape(s);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // Strided 64/4: 16 threads in x, so output (1, 17) belongs to thread (1, 1) = tid 17.
        const QPointF at = view.panelGeometry(0).cellRect(Operand::C, {1, 17}).center();
        QCOMPARE(view.toolTipAt(at).section(QLatin1Char('\n'), 0, 0),
                 QStringLiteral("thread (1,1) = tid 17, warp 0, lane 17"));
        QSignalSpy spy(&view, &TileMapView::threadSelected);
        QTest::mouseClick(&view, Qt::LeftButton, {}, at.toPoint());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), 17);
        QCOMPARE(view.selectedThread(), 17);
    }

    void sideBySideShowsBothLayouts()
    {
        TileMapView view;
        view.resize(1400, 700);
        view.setShape(shapeOf(StageId::Coalesced, tiles64));
        view.setSideBySide(true);
        QCOMPARE(view.panelCount(), 2);
        view.setSelectedThread(1);
        const QImage img = rendered(view);
        // Thread 1 owns (0, 4) in the contiguous layout and (0, 1) in the strided one.
        QCOMPARE(pixelAt(img, view.panelGeometry(0).cellRect(Operand::C, {0, 4}).center()),
                 TileMapView::selectionColor());
        QCOMPARE(pixelAt(img, view.panelGeometry(1).cellRect(Operand::C, {0, 1}).center()),
                 TileMapView::selectionColor());
        QVERIFY(pixelAt(img, view.panelGeometry(1).cellRect(Operand::C, {0, 4}).center()) !=
                TileMapView::selectionColor());
        // The naive kernel has one layout only.
        view.setShape(shapeOf(StageId::Naive, {{"BX", 16}, {"BY", 16}}));
        QCOMPARE(view.panelCount(), 1);
    }

    // In a wide, tall view (the Kernel workspace at 1920x1080) the warp key and the side-by-side
    // switch sit right under the tiles, not at the widget's bottom 300 px below a square map;
    // the switch is on the key's row, clear of its swatches, as wide as the
    // tiles' right edge allows.
    void keyAndSwitchSitUnderTheTiles()
    {
        TileMapView view;
        view.resize(1150, 960);
        view.setShape(shapeOf(StageId::Coalesced, tiles64));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const TilePanelGeometry g = view.panelGeometry(0);
        QVERIFY2(g.c.right() - g.a.left() < view.width() - 200, "the tiles fill the width: nothing to test");
        auto *side = view.findChild<QCheckBox *>(QStringLiteral("sideBySideButton"));
        QVERIFY(side && side->isVisible());
        const QRect button = side->geometry();
        QVERIFY2(button.top() > g.c.bottom() && button.bottom() < g.c.bottom() + 70,
                 qPrintable(QStringLiteral("switch at y %1-%2, tiles end at %3")
                                .arg(button.top())
                                .arg(button.bottom())
                                .arg(g.c.bottom())));
        QVERIFY2(button.right() <= g.c.right() + 20, qPrintable(QString::number(button.right())));
        // The key is drawn on that row: a warp colour under the tiles' left part, nothing at the bottom.
        const QImage img = rendered(view);
        const int keyY = button.center().y();
        bool swatch = false;
        for (int x = int(g.a.left()); x < button.left() && !swatch; ++x)
            swatch = pixelAt(img, QPointF(x, keyY)) == warpColor(0);
        QVERIFY(swatch);
        // Side by side keeps both panels' tiles above the key.
        side->click();
        QCOMPARE(view.panelCount(), 2);
        QVERIFY(side->geometry().top() > view.panelGeometry(1).c.bottom());
    }

    // A pane wider than the square map needs (the Kernel workspace at 1920x1080): the tiles stand
    // in its middle, not at its left with the right half blank, and the key starts under them.
    void tilesAreCentredInAWidePane()
    {
        TileMapView view;
        view.resize(1500, 640);
        view.setShape(shapeOf(StageId::Coalesced, tiles64));
        for (const bool side : {false, true}) {
            view.setSideBySide(side);
            for (int panel = 0; panel < view.panelCount(); ++panel) {
                const TilePanelGeometry g = view.panelGeometry(panel);
                const double before = g.a.left() - g.bounds.left();
                const double after = g.bounds.right() - g.c.right();
                QVERIFY2(after > 100 || side, "the tiles fill the width: nothing to test");
                QVERIFY2(std::abs(before - after) < 40,
                         qPrintable(QStringLiteral("panel %1 of %2: %3 px left of the tiles, %4 px right")
                                        .arg(panel)
                                        .arg(view.panelCount())
                                        .arg(before)
                                        .arg(after)));
            }
        }
        view.setSideBySide(false);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const TilePanelGeometry g = view.panelGeometry(0);
        const QImage img = rendered(view);
        const int keyY =
            view.findChild<QCheckBox *>(QStringLiteral("sideBySideButton"))->geometry().center().y();
        bool swatchLeftOfTiles = false;
        for (int x = 0; x < int(g.a.left()) - 20 && !swatchLeftOfTiles; ++x)
            swatchLeftOfTiles = pixelAt(img, QPointF(x, keyY)) == warpColor(0);
        QVERIFY(!swatchLeftOfTiles);
    }

    void smallViewSamplesWithANote()
    {
        TileMapView view;
        view.resize(260, 220);
        view.setShape(shapeOf(StageId::Final, tiles192));
        QVERIFY(view.isSampled());
        QVERIFY(!rendered(view).isNull());
    }

    void tileMapExports_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("png") << "map.png";
        QTest::newRow("svg") << "map.svg";
    }
    void tileMapExports()
    {
        QFETCH(QString, file);
        QTemporaryDir dir;
        TileMapView view;
        view.resize(600, 500);
        view.setShape(shapeOf(StageId::Coarsened, tiles64));
        view.setSelectedThread(5);
        const QString path = dir.filePath(file);
        const auto error = view.exportTo(path);
        QVERIFY2(!error, error ? qPrintable(*error) : "");
        QVERIFY(QFileInfo(path).size() > 1000);
        QCOMPARE(view.selectedThread(), 5); // the view keeps its selection
    }

    // The export is the print layout, not the inspection state: the thread clicked on
    // screen (its outputs in the selection colour, the other warps faded) is left out, so the
    // export with a thread selected equals the export without one.
    void tileMapExportLeavesOutTheClickedThread()
    {
        QTemporaryDir dir;
        TileMapView view;
        view.resize(600, 500);
        view.setShape(shapeOf(StageId::Coarsened, tiles64));
        const QString plain = dir.filePath(QStringLiteral("plain.png"));
        QVERIFY(!view.exportTo(plain));
        view.setSelectedThread(5);
        const QString clicked = dir.filePath(QStringLiteral("clicked.png"));
        QVERIFY(!view.exportTo(clicked));
        const QImage a(plain), b(clicked);
        QVERIFY(!a.isNull() && a.size() == b.size());
        QVERIFY2(a == b, "the export shows the clicked thread");
        const QColor selection = TileMapView::selectionColor();
        int selectionPixels = 0;
        for (int y = 0; y < b.height(); y += 2)
            for (int x = 0; x < b.width(); x += 2)
                selectionPixels += QColor(b.pixel(x, y)) == selection;
        QVERIFY2(selectionPixels < 50, qPrintable(QString::number(selectionPixels)));
    }

    // 192x192 in a pane-sized view: too small for threads, so each warp's outputs are outlined
    // (white lines inside C); zooming in gives cells big enough to show every thread.
    void bigTileIsReadableAndZooms()
    {
        TileMapView view;
        view.resize(620, 360);
        view.setShape(shapeOf(StageId::Coalesced, tiles192));
        const QImage img = rendered(view);
        if (qEnvironmentVariableIsSet("GEMMSCOPE_TEST_IMAGES"))
            img.save(qEnvironmentVariable("GEMMSCOPE_TEST_IMAGES") + QStringLiteral("/tilemap192.png"));
        const TilePanelGeometry g = view.panelGeometry(0);
        QVERIFY(g.cell < 4);
        bool outline = false;
        const int x = int(g.c.center().x());
        for (int y = int(g.c.top()) + 2; y < int(g.c.bottom()) - 2 && !outline; ++y)
            outline = img.pixelColor(x, y).lightness() > 240;
        QVERIFY(outline);
        view.setZoom(8, g.c.topLeft());
        QVERIFY(view.panelGeometry(0).cell >= 8 * g.cell - 0.01);
        // The element under the zoom's anchor stays under it.
        QVERIFY(QLineF(view.panelGeometry(0).c.topLeft(), g.c.topLeft()).length() < 1);
        view.resetZoom();
        QCOMPARE(view.zoom(), 1.0);
    }

    void animationStepsDeterministically()
    {
        CoalescingView view;
        view.resize(960, 420);
        const KernelShape s = shapeOf(StageId::Coarsened, tiles64);
        view.setShape(s, AccessContext{});
        const std::vector<GlobalAccess> expected = globalAccesses(s, AccessContext{}, 0);
        QCOMPARE(view.frameCount(), int(expected.size()));
        QCOMPARE(view.currentFrame(), 0);
        view.step();
        view.step();
        QCOMPARE(view.currentFrame(), 2);
        QCOMPARE(view.currentAccess()->label, expected[2].label);
        QCOMPARE(view.runningRequests(), 3LL);
        QCOMPARE(view.runningSectors(),
                 (long long)(expected[0].sectorsPerRequest() + expected[1].sectorsPerRequest() +
                             expected[2].sectorsPerRequest()));
        // Stepping past the end stays on the last frame.
        for (int i = 0; i < 100; ++i)
            view.step();
        QCOMPARE(view.currentFrame(), view.frameCount() - 1);
        view.rewind();
        QCOMPARE(view.currentFrame(), 0);
    }

    void animationShowsTheWorklogPoints_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<bool>("large");
        QTest::addColumn<int>("operand");
        QTest::addColumn<QString>("efficiency");
        QTest::newRow("step 2 B loads use a quarter")
            << QStringLiteral("coarsened") << false << int(Operand::B) << "25%";
        QTest::newRow("step 3 loads fully used")
            << QStringLiteral("coalesced") << false << int(Operand::A) << "100%";
        QTest::newRow("step 6 stores scatter")
            << QStringLiteral("coalesced") << true << int(Operand::C) << "12.5%";
        QTest::newRow("step 7 stores contiguous")
            << QStringLiteral("strided") << true << int(Operand::C) << "100%";
    }
    void animationShowsTheWorklogPoints()
    {
        QFETCH(QString, stage);
        QFETCH(bool, large);
        QFETCH(int, operand);
        QFETCH(QString, efficiency);
        CoalescingView view;
        AccessContext ctx; // 1536 is a multiple of both 64 and 192
        ctx.size = ProblemSize{1536, 1536, 1536};
        view.setShape(shapeOf(StageId(stage.toStdString()), large ? tiles192 : tiles64), ctx);
        QVERIFY2(view.frameCount() > 0, qPrintable(view.errorText()));
        while (view.currentAccess()->operand != Operand(operand) &&
               view.currentFrame() + 1 < view.frameCount())
            view.step();
        QCOMPARE(int(view.currentAccess()->operand), operand);
        // The caption states the instruction's own efficiency first.
        QVERIFY2(view.summaryText().contains(QStringLiteral("fetched (") + efficiency + QLatin1Char(')')),
                 qPrintable(view.summaryText()));
    }

    void playAdvancesWithTheTimer()
    {
        CoalescingView view;
        view.setShape(shapeOf(StageId::Coalesced, tiles64), AccessContext{});
        view.setFramesPerSecond(50);
        view.play();
        QVERIFY(view.isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(view.currentFrame() >= 2, 2000);
        view.pause();
        QVERIFY(!view.isPlaying());
    }

    void exportsOneFramePerInstruction()
    {
        QTemporaryDir dir;
        CoalescingView view;
        view.setShape(shapeOf(StageId::Strided, tiles64), AccessContext{});
        const QString folder = dir.filePath(QStringLiteral("frames"));
        const auto error = view.exportFrames(folder);
        QVERIFY2(!error, error ? qPrintable(*error) : "");
        const QStringList files = QDir(folder).entryList({QStringLiteral("frame_*.png")}, QDir::Files);
        QCOMPARE(files.size(), view.frameCount());
        QImage first(QDir(folder).filePath(files.front()));
        QVERIFY(!first.isNull());
    }

    // Compare mode: step 2's B load against step 3's, reached with "jump to the instruction that
    // changed": two different sector counts for the same instruction.
    void compareModeShowsTheStridedAgainstTheCoalescedLoad()
    {
        const Preset *step2 = findPreset("worklog-2");
        QVERIFY(step2);
        CoalescingView view;
        view.setShape(*kernelShape(step2->stage, step2->params).shape, AccessContext{});
        view.setCaption(QString::fromStdString(step2->title));
        QVERIFY(view.setCompareWith(QStringLiteral("worklog-3")));
        QVERIFY(view.comparing());
        view.jumpToChange();
        const GlobalAccess *mine = view.currentAccess();
        const GlobalAccess *theirs = view.compareAccess(view.currentFrame());
        QVERIFY(mine && theirs);
        QCOMPARE(mine->operand, Operand::B);
        QCOMPARE(theirs->operand, Operand::B);
        QVERIFY2(
            mine->sectorsPerRequest() > theirs->sectorsPerRequest(),
            qPrintable(
                QStringLiteral("%1 vs %2").arg(mine->sectorsPerRequest()).arg(theirs->sectorsPerRequest())));
        QVERIFY(view.printTitle(view.currentFrame()).contains(QStringLiteral(" vs ")));
        if (qEnvironmentVariableIsSet("GEMMSCOPE_TEST_IMAGES"))
            QVERIFY(!view.exportTo(qEnvironmentVariable("GEMMSCOPE_TEST_IMAGES") +
                                   QStringLiteral("/compare.png")));
        // Hovering a lane names it, in either half.
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QWidget *canvas = view.canvas();
        QVERIFY(view.tooltipAt(QPointF(15, 10 + 28 + 11)).startsWith(QStringLiteral("lane 0")));
        QVERIFY(view.tooltipAt(QPointF(canvas->width() - 15, canvas->height() / 2 + 10 + 28 + 11))
                    .startsWith(QStringLiteral("lane 31")));
        // Without compare mode the same button finds the least efficient instruction.
        view.clearCompare();
        view.rewind();
        view.jumpToChange();
        QCOMPARE(view.currentFrame(), view.leastEfficientFrame());
        QCOMPARE(view.currentAccess()->operand, Operand::B);
        QTemporaryDir dir;
        QVERIFY(!view.exportTo(dir.filePath(QStringLiteral("frame.svg"))));
    }

    // The bank view's bars are on one scale: a 4-way conflict's tallest bar is four times a
    // conflict-free access's.
    void bankBarsScaleWithTheDegree()
    {
        BankConflictView view;
        view.setAccesses({columnAccess(1, 0), columnAccess(4, 0)}); // lanes 1 and 4 words apart
        view.setCurrentIndex(0);
        QCOMPARE(view.currentAccess()->conflictDegree, 1);
        const double oneWay = view.barShare(1);
        view.setCurrentIndex(1);
        QCOMPARE(view.currentAccess()->conflictDegree, 4);
        const double fourWay = view.barShare(4);
        QVERIFY(fourWay > oneWay);
        QCOMPARE(fourWay, 4 * view.barShare(1));
    }

    void invalidContextIsExplained()
    {
        CoalescingView view;
        AccessContext ctx;
        ctx.size = ProblemSize{1000, 1024, 1024};
        view.setShape(shapeOf(StageId::Strided, tiles64), ctx);
        QCOMPARE(view.frameCount(), 0);
        QVERIFY(view.errorText().contains(QStringLiteral("multiple")));
        QVERIFY(view.exportFrames(QDir::tempPath()).has_value());
    }

    void bankViewShowsTheGuidesPoint_data()
    {
        QTest::addColumn<int>("pad");
        QTest::addColumn<QString>("text");
        QTest::newRow("unpadded column") << 0 << "32-way conflict";
        QTest::newRow("padded column") << 1 << "Conflict-free";
    }
    void bankViewShowsTheGuidesPoint()
    {
        QFETCH(int, pad);
        QFETCH(QString, text);
        BankConflictView view;
        view.resize(900, 400);
        view.setAccesses({rowAccess(32, pad), columnAccess(32, pad)});
        QCOMPARE(view.count(), 2);
        QVERIFY(view.degreeText().startsWith(QStringLiteral("Conflict-free"))); // the row read
        view.setCurrentIndex(1);
        QVERIFY2(view.degreeText().startsWith(text), qPrintable(view.degreeText()));

        // The conflict colour appears in the rendering exactly when there is a conflict.
        const QImage img = rendered(view);
        bool sawConflict = false;
        for (int y = 0; y < img.height() && !sawConflict; y += 2)
            for (int x = 0; x < img.width() && !sawConflict; x += 2)
                sawConflict = img.pixelColor(x, y) == BankConflictView::conflictColor();
        QCOMPARE(sawConflict, pad == 0);
    }

    void bankViewForAStage()
    {
        QTemporaryDir dir;
        BankConflictView view;
        view.resize(900, 400);
        view.setStage(shapeOf(StageId::SmemTiled, {{"TILE", 32}, {"PAD", 1}}), AccessContext{}, 0);
        QVERIFY(view.count() > 0);
        for (int i = 0; i < view.count(); ++i) {
            view.setCurrentIndex(i);
            QCOMPARE(view.currentAccess()->conflictDegree, 1);
        }
        const QString path = dir.filePath(QStringLiteral("banks.svg"));
        QVERIFY(!view.exportTo(path));
        QVERIFY(QFileInfo(path).size() > 1000);
        view.setStage(shapeOf(StageId::Naive, {{"BX", 16}, {"BY", 16}}), AccessContext{}, 0);
        QCOMPARE(view.count(), 0);
        QVERIFY(view.degreeText().contains(QStringLiteral("no shared-memory access")));
    }

    void mmaFragmentOwnershipIsDrawn()
    {
        TileMapView view;
        view.resize(1000, 800);
        view.setShape(mmaShape()); // 2 x 2 warps of 32 x 32 warp tiles, 128 threads
        QCOMPARE(view.keyWarpCount(), 4);
        QVERIFY(view.findChild<QCheckBox *>(QStringLiteral("fragmentButton"))->isVisibleTo(&view));
        QVERIFY(!view.findChild<QCheckBox *>(QStringLiteral("sideBySideButton"))->isVisibleTo(&view));
        // Labels from the PTX tables: C (9, 5) of warp 0 is g 1 + 8, 2t + 1 with t 2: lane 6, c3;
        // A (9, 1) is a1 of lane 5; B (5, 1) is b1 of lane 5; C (40, 45) is warp 3, tile (0, 1), (8, 5):
        // g 0 + 8, 2t + 1 with t 2 -> lane 2, c3.
        QCOMPARE(view.cellLabel(Operand::C, {9, 5}), QStringLiteral("l6 c3"));
        QCOMPARE(view.cellLabel(Operand::C, {40, 45}), QStringLiteral("l2 c3"));
        QCOMPARE(view.cellLabel(Operand::A, {9, 1}), QStringLiteral("l5 a1"));
        QCOMPARE(view.cellLabel(Operand::B, {5, 1}), QStringLiteral("l5 b1"));
        QVERIFY(view.noteText().contains(QStringLiteral("lane 5, register c3")));

        QImage img = rendered(view);
        TilePanelGeometry g = view.panelGeometry(0);
        const auto at = [&](Operand op, TileCell c) { return pixelAt(img, g.cellRect(op, c).center()); };
        QCOMPARE(at(Operand::C, {0, 0}), warpColor(0));
        QCOMPARE(at(Operand::C, {0, 32}), warpColor(1));
        QCOMPARE(at(Operand::C, {63, 63}), warpColor(3));
        // A coloured by fragment register: rows 0-7 are a0 (cols 0-3), rows 8-15 a1.
        QCOMPARE(at(Operand::A, {0, 0}), at(Operand::A, {7, 3}));
        QVERIFY(at(Operand::A, {0, 0}) != at(Operand::A, {8, 0}));
        QVERIFY(at(Operand::A, {0, 0}) != at(Operand::A, {0, 4}));

        // Thread 5 (warp 0, lane 5): its a0 is A (1, 1) and rows 1 + 16 i of its warp rows; B's b0 is (1, 1).
        view.setSelectedThread(5);
        img = rendered(view);
        QCOMPARE(at(Operand::A, {1, 1}), TileMapView::selectionColor());
        QCOMPARE(at(Operand::A, {17, 5}), TileMapView::selectionColor()); // a2 of the second m16 tile
        QVERIFY(at(Operand::A, {0, 0}) != TileMapView::selectionColor());
        QVERIFY(at(Operand::A, {33, 1}) != TileMapView::selectionColor()); // warp row 1: other warps
        QCOMPARE(at(Operand::B, {1, 1}), TileMapView::selectionColor());
        QCOMPARE(at(Operand::B, {5, 9}), TileMapView::selectionColor()); // b1 of n8 tile 1
        QCOMPARE(at(Operand::C, {9, 3}), TileMapView::selectionColor()); // c3 of lane 5: (g + 8, 2t + 1)

        // Zoomed in, the labels are painted (the cell holds light text over the warp colour).
        view.setSelectedThread(-1);
        view.setZoom(4);
        g = view.panelGeometry(0);
        QVERIFY(g.cell >= 26);
        img = rendered(view);
        // C (32, 32), near the centre the zoom keeps in view: warp 3, lane 0, c0.
        QCOMPARE(view.cellLabel(Operand::C, {32, 32}), QStringLiteral("l0 c0"));
        const QRectF box = g.cellRect(Operand::C, {32, 32});
        QVERIFY(QRectF(view.rect()).contains(box));
        int text = 0;
        for (int x = int(box.left()) + 3; x < int(box.right()) - 3; ++x)
            for (int y = int(box.top()) + 3; y < int(box.bottom()) - 3; ++y)
                text += img.pixelColor(x, y) != warpColor(3);
        QVERIFY2(text > 10, "no label painted in the zoomed cell");

        const QString tip = view.toolTipAt(g.cellRect(Operand::C, {32, 33}).center());
        QVERIFY2(tip.contains(QStringLiteral("register c1 of m16n8 tile (0, 0)")), qPrintable(tip));

        // Off: A and B show the warps whose cp.async copies the element, and no fragment labels.
        view.setShowFragments(false);
        QVERIFY(view.cellLabel(Operand::A, {9, 1}).isEmpty());
        QCOMPARE(view.cellLabel(Operand::C, {9, 5}), QStringLiteral("l6 c3"));

        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("mma.png"));
        QVERIFY(!view.exportTo(file));
        QVERIFY(QFileInfo(file).size() > 1000);
    }

    void wgmmaWarpgroupsAreDrawn()
    {
        TileMapView view;
        view.resize(1000, 800);
        view.setShape(wgmmaShape()); // a producer warpgroup, then two consumers of 64 rows
        QCOMPARE(view.keyWarpCount(), 3);
        QVERIFY(!view.findChild<QCheckBox *>(QStringLiteral("fragmentButton"))->isVisibleTo(&view));
        // (70, 13): consumer 1 = warpgroup 2, slab row 6, column group 1: thread 26, d5.
        QCOMPARE(view.cellLabel(Operand::C, {70, 13}), QStringLiteral("t26 d5"));
        QVERIFY(view.cellLabel(Operand::A, {0, 0}).isEmpty());
        const QImage img = rendered(view);
        const TilePanelGeometry g = view.panelGeometry(0);
        QCOMPARE(pixelAt(img, g.cellRect(Operand::C, {0, 0}).center()), warpColor(1));
        QCOMPARE(pixelAt(img, g.cellRect(Operand::C, {127, 127}).center()), warpColor(2));
        const QString tip = view.toolTipAt(g.cellRect(Operand::C, {70, 13}).center());
        QVERIFY2(tip.contains(QStringLiteral("warpgroup 2, thread 26")) && tip.contains(QStringLiteral("d5")),
                 qPrintable(tip));
        const QString aTip = view.toolTipAt(g.cellRect(Operand::A, {3, 3}).center());
        QVERIFY2(aTip.contains(QStringLiteral("descriptor")), qPrintable(aTip));
    }

    // The catalog's wgmma_tf32 computes C transposed: warpgroup g owns 64 columns of C (all rows),
    // so the colours change across columns, not rows, and the labels follow the transposed table.
    void transposedWgmmaColoursColumns()
    {
        const StageInfo *stage = findStage("wgmma_tf32");
        QVERIFY(stage);
        const KernelShapeResult shape = kernelShape(stage->id, {{"BM", 64}, {"BN", 128}, {"STAGES", 3}});
        QVERIFY(shape.shape);
        TileMapView view;
        view.resize(1000, 800);
        view.setShape(*shape.shape);
        QCOMPARE(view.keyWarpCount(), 2);
        QCOMPARE(view.cellLabel(Operand::C, {9, 3}), QStringLiteral("t12 d5")); // D (3, 9)
        const QImage img = rendered(view);
        const TilePanelGeometry g = view.panelGeometry(0);
        QCOMPARE(pixelAt(img, g.cellRect(Operand::C, {63, 0}).center()), warpColor(0));
        QCOMPARE(pixelAt(img, g.cellRect(Operand::C, {0, 64}).center()), warpColor(1));
        if (qEnvironmentVariableIsSet("GEMMSCOPE_TEST_IMAGES"))
            img.save(qEnvironmentVariable("GEMMSCOPE_TEST_IMAGES") + QStringLiteral("/wgmma_tf32.png"));
    }
};

QTEST_MAIN(TestMappingViews)
#include "tst_mapping_views.moc"
