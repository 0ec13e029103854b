// The TMA stage's diagrams: the swizzle view (boxes, shared-memory strip, swizzled and plain atoms)
// and the bank-conflict view it sits in for a TmaSwizzled128 shape, rendered offscreen. Checked
// by the pixels they draw, not just by their state: the outline of the highlighted chunk runs
// along the XOR diagonal in the swizzled atom and down one column in the plain one.
#include "bank_conflict_view.h"
#include "mapping_model.h"
#include "stage_catalog.h"
#include "swizzle_view.h"

#include <QComboBox>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;

namespace {

KernelShape tmaShape()
{
    const Preset *p = findPreset("tf32-wgmma-tma");
    return *kernelShape(p->stage, p->params).shape;
}

QImage render(const SwizzleView &view, QSize size)
{
    QImage img(size, QImage::Format_ARGB32);
    img.fill(Qt::white);
    QPainter p(&img);
    view.paint(p, QRectF(QPointF(0, 0), QSizeF(size)));
    return img;
}

// A cell's fill, sampled above its label and inside any outline.
QColor fillOf(const QImage &img, const QRectF &cell)
{
    return img.pixelColor(QPoint(int(cell.center().x()), int(cell.top() + 0.22 * cell.height())));
}

// The border strip of an outlined cell is the outline's (dark) colour.
bool outlined(const QImage &img, const QRectF &cell)
{
    const QColor edge = img.pixelColor(QPoint(int(cell.left() + 2), int(cell.center().y())));
    return edge.lightness() < 80;
}

} // namespace

class TestSwizzleView : public QObject {
    Q_OBJECT

private slots:
    void cellsShowTheXorPattern()
    {
        SwizzleView view;
        AccessContext ctx;
        ctx.size = ProblemSize{1536, 1536, 1536};
        ctx.kStep = 6; // stage 6 % 4 = 2
        view.setShape(tmaShape(), ctx);
        QCOMPARE(view.boxes().size(), std::size_t(2));
        QCOMPARE(view.boxes()[0].stage, 2);
        const QSize size(640, 560);
        view.resize(size);
        view.setHighlightedChunk(3);
        const QImage img = render(view, size);
        const QRectF area(QPointF(0, 0), QSizeF(size));
        for (int r = 0; r < 8; ++r)
            for (int slot = 0; slot < 8; ++slot) {
                // Swizzled: slot s of row r holds chunk s ^ r; plain: chunk s.
                const QRectF on = view.cellRect(area, true, r, slot),
                             off = view.cellRect(area, false, r, slot);
                QVERIFY(on.width() >= 20);
                QCOMPARE(fillOf(img, on).rgb(), SwizzleView::chunkColor(slot ^ r).rgb());
                QCOMPARE(fillOf(img, off).rgb(), SwizzleView::chunkColor(slot).rgb());
                // Chunk 3 outlined: at slot 3 ^ r swizzled (one per row, all 8 slots), slot 3 plain.
                QCOMPARE(outlined(img, on), slot == (3 ^ r));
                QCOMPARE(outlined(img, off), slot == 3);
            }
        // The two grids do not overlap, and they stay inside the view.
        QVERIFY(!view.cellRect(area, true, 7, 7).intersects(view.cellRect(area, false, 0, 0)));
        QVERIFY(area.contains(view.cellRect(area, false, 7, 7)));
        // The stage this k tile fills is drawn in its operand's colour: the A strip has four slots,
        // the third one (stage 2) coloured, the others grey.
        QVERIFY(img.pixelColor(QPoint(10 + int(620 * (2.5 / 4) * 256 / 384.0), 72 + 12)) !=
                QColor(0xe6, 0xe6, 0xe6));
        QCOMPARE(img.pixelColor(QPoint(10 + int(620 * (0.5 / 4) * 256 / 384.0), 72 + 12)),
                 QColor(0xe6, 0xe6, 0xe6));
    }

    void clickPicksTheChunk()
    {
        SwizzleView view;
        view.setShape(tmaShape(), AccessContext{});
        view.resize(640, 560);
        const QRectF cell = view.cellRect(view.rect(), true, 5, 1); // row 5, slot 1: chunk 1 ^ 5 = 4
        QCOMPARE(view.chunkAt(cell.center()), 4);
        QTest::mouseClick(&view, Qt::LeftButton, {}, cell.center().toPoint());
        QCOMPARE(view.highlightedChunk(), 4);
        QCOMPARE(view.chunkAt(QPointF(2, 2)), -1);
    }

    // In the bank-conflict view a TMA shape shows the swizzle view and the tensor core's k-chunk
    // reads (8 swizzled, conflict-free, then chunk 0 unswizzled, 8-way) instead of lane accesses;
    // a lane-access stage hides the swizzle view again.
    void bankViewShowsTheTensorCoreReads()
    {
        BankConflictView view;
        view.resize(640, 1100);
        view.show();
        view.setStage(tmaShape(), AccessContext{}, 0);
        QVERIFY(view.swizzleView()->isVisible());
        QCOMPARE(view.count(), 9);
        QCOMPARE(view.currentIndex(), 0);
        QVERIFY(view.currentAccess()->tensorCoreRead);
        view.setCurrentIndex(5);
        QCOMPARE(view.swizzleView()->highlightedChunk(), 5);
        QCOMPARE(view.currentAccess()->conflictDegree, 1);
        view.swizzleView()->setHighlightedChunk(2);
        QCOMPARE(view.currentIndex(), 2);
        view.setCurrentIndex(8);
        QCOMPARE(view.currentAccess()->conflictDegree, 8);
        QCOMPARE(view.swizzleView()->highlightedChunk(), 0); // the unswizzled read is chunk 0's
        QCOMPARE(view.currentIndex(), 8);
        QVERIFY(view.showingPair());
        QVERIFY(view.degreeText().contains(QStringLiteral("8-way")));
        // Rendered whole, nothing is empty: the swizzle view and the bank diagram both paint.
        const QImage whole = view.grab().toImage();
        QVERIFY(!whole.isNull());
        // The export shows what the view shows: the atoms' chunk colours above the bank diagram.
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("bank.png"));
        QVERIFY(!view.exportTo(png));
        const QImage exported(png);
        if (qEnvironmentVariableIsSet("GEMMSCOPE_TEST_IMAGES"))
            exported.save(qEnvironmentVariable("GEMMSCOPE_TEST_IMAGES") +
                          QStringLiteral("/bank_tma_export.png"));
        QVERIFY(exported.height() > exported.width() / 2 + 200); // taller than the plain 1100 x 560
        QSet<QRgb> chunkColours;
        for (int chunk = 0; chunk < kSwizzleChunks; ++chunk)
            chunkColours.insert(SwizzleView::chunkColor(chunk).rgb());
        QSet<QRgb> seen;
        for (int y = 0; y < exported.height(); y += 2)
            for (int x = 0; x < exported.width(); x += 2)
                if (const QRgb c = exported.pixelColor(x, y).rgb(); chunkColours.contains(c))
                    seen.insert(c);
        QCOMPARE(seen.size(), int(kSwizzleChunks));
        const Preset *mma = findPreset("tf32-mma");
        view.setStage(*kernelShape(mma->stage, mma->params).shape, AccessContext{}, 0);
        QVERIFY(!view.swizzleView()->isVisible());
        QVERIFY(view.count() > 0);
        // mma_tf32's A reads are ldmatrix.x4: conflict-free, 4 wavefronts each.
        bool sawLdmatrix = false;
        for (int i = 0; i < view.count(); ++i) {
            view.setCurrentIndex(i);
            if (view.currentAccess()->ldmatrixMatrices > 0) {
                sawLdmatrix = true;
                QCOMPARE(view.currentAccess()->conflictDegree, 4);
            }
        }
        QVERIFY(sawLdmatrix);
    }
};

QTEST_MAIN(TestSwizzleView)
#include "tst_swizzle_view.moc"
