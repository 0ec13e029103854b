// Thread layouts as objects (kernels/layout_scheme.h): every ThreadLayout has its registered object
// with a name of its own, each catalog shape asks the object of its own layout, and every layout's
// owners are a bijection over the block tile: each output has exactly one thread and one register of
// it, the one ownerOf and fragmentOwnerOf name and the one whose store loop (outputsOf) writes it.
#include "layout_scheme.h"

#include <QMap>
#include <QSet>
#include <QtTest>

#include <algorithm>
#include <set>
#include <utility>

using namespace gemmscope;

Q_DECLARE_METATYPE(gemmscope::KernelShape)

namespace {

// The distinct shapes of the catalog's stages, by layout: each stage at its defaults, its presets and
// the defaults with one parameter at either end the catalog accepts. The parameter sets each layout
// is checked at; shapes alike but for their stage are checked once.
QMap<int, QList<KernelShape>> catalogShapesByLayout()
{
    QMap<int, QList<KernelShape>> out;
    QSet<QString> seen;
    for (const StageInfo &stage : stages()) {
        std::vector<ParamValues> sets{defaultParams(stage.id)};
        for (const Preset &p : presets())
            if (p.stage == stage.id)
                sets.push_back(p.params);
        for (const ParamSpec &spec : stage.params)
            for (int v : spec.choices.empty() ? std::vector<int>{spec.min, spec.max} : spec.choices) {
                ParamValues p = defaultParams(stage.id);
                p[spec.name] = v;
                sets.push_back(p);
            }
        for (const ParamValues &params : sets) {
            const KernelShapeResult r = kernelShape(stage.id, params);
            if (!r.shape)
                continue;
            const KernelShape &s = *r.shape;
            const QString geometry = QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9")
                                         .arg(int(s.layout))
                                         .arg(s.bm)
                                         .arg(s.bn)
                                         .arg(s.tm)
                                         .arg(s.tn)
                                         .arg(s.blockX)
                                         .arg(s.blockY)
                                         .arg(s.wm)
                                         .arg(s.wn) +
                                     QStringLiteral(" %1 %2 %3")
                                         .arg(s.firstConsumerThread)
                                         .arg(s.consumerThreads)
                                         .arg(s.transposedD);
            if (!seen.contains(geometry)) {
                seen.insert(geometry);
                out[int(s.layout)].append(s);
            }
        }
    }
    return out;
}

QString describe(const KernelShape &s)
{
    return QStringLiteral("%1 (%2) BM=%3 BN=%4 TM=%5 TN=%6, %7x%8 threads")
               .arg(QString::fromStdString(s.stage.str()), QString::fromStdString(layoutSchemeOf(s).name()))
               .arg(s.bm)
               .arg(s.bn)
               .arg(s.tm)
               .arg(s.tn)
               .arg(s.blockX)
               .arg(s.blockY) +
           (s.transposedD ? QStringLiteral(", D transposed") : QString());
}

} // namespace

class TestThreadLayouts : public QObject {
    Q_OBJECT

private slots:
    void everyLayoutHasItsObject()
    {
        QSet<QString> names;
        for (int i = 0; i < kThreadLayoutCount; ++i) {
            const auto id = ThreadLayout(i);
            const LayoutScheme &layout = layoutScheme(id);
            // An unregistered value falls back to the contiguous layout's object: its id would differ.
            QVERIFY2(layout.id() == id, qPrintable(QStringLiteral("ThreadLayout %1 has no object of its own "
                                                                  "in kernels/thread_layouts/registry.cpp")
                                                       .arg(i)));
            QVERIFY(!layout.name().empty());
            names.insert(QString::fromStdString(layout.name()));
        }
        QCOMPARE(names.size(), kThreadLayoutCount); // one object each, not one for two values
    }

    // Each catalog shape asks the object of its own layout, and every layout is some stage's: a
    // layout no stage uses would have its owners checked by nothing below.
    void everyLayoutIsSomeStagesLayout()
    {
        const auto byLayout = catalogShapesByLayout();
        for (int i = 0; i < kThreadLayoutCount; ++i) {
            QVERIFY2(!byLayout.value(i).isEmpty(),
                     qPrintable(QStringLiteral("no catalog stage uses the %1 layout")
                                    .arg(QString::fromStdString(layoutScheme(ThreadLayout(i)).name()))));
            for (const KernelShape &s : byLayout.value(i))
                QCOMPARE(int(layoutSchemeOf(s).id()), i);
        }
    }

    void ownersAreABijection_data()
    {
        QTest::addColumn<KernelShape>("shape");
        const auto byLayout = catalogShapesByLayout();
        for (int i = 0; i < kThreadLayoutCount; ++i)
            for (const KernelShape &s : byLayout.value(i))
                QTest::newRow(qPrintable(describe(s))) << s;
    }

    void ownersAreABijection()
    {
        QFETCH(KernelShape, shape);
        const LayoutScheme &layout = layoutSchemeOf(shape);
        const std::size_t cells = std::size_t(shape.bm) * std::size_t(shape.bn);
        std::vector<int> writer(cells, -1);
        std::set<std::pair<int, int>> registers; // (thread, accumulator): one output each
        long long outputs = 0;
        for (int tid = 0; tid < shape.threads(); ++tid) {
            const std::vector<TileCell> mine = outputsOf(shape, tid);
            QVERIFY(mine.empty() || int(mine.size()) == shape.outputsPerThread());
            for (const TileCell &c : mine) {
                QVERIFY2(c.row >= 0 && c.row < shape.bm && c.col >= 0 && c.col < shape.bn,
                         qPrintable(QStringLiteral("thread %1 stores (%2, %3), outside the tile")
                                        .arg(tid)
                                        .arg(c.row)
                                        .arg(c.col)));
                int &w = writer[std::size_t(c.row) * std::size_t(shape.bn) + std::size_t(c.col)];
                QVERIFY2(w < 0, qPrintable(QStringLiteral("(%1, %2) stored by threads %3 and %4")
                                               .arg(c.row)
                                               .arg(c.col)
                                               .arg(w)
                                               .arg(tid)));
                w = tid;
                ++outputs;
            }
        }
        QCOMPARE(outputs, (long long)cells); // with no output stored twice: every output once
        for (int row = 0; row < shape.bm; ++row)
            for (int col = 0; col < shape.bn; ++col) {
                const int w = writer[std::size_t(row) * std::size_t(shape.bn) + std::size_t(col)];
                QCOMPARE(layout.ownerOf(shape, row, col).tid, w);
                const FragmentOwner f = layout.fragmentOwnerOf(shape, row, col);
                QCOMPARE(f.tid, w);
                QVERIFY(f.accumulator >= 0 && f.accumulator < shape.outputsPerThread());
                QVERIFY2(registers.insert({f.tid, f.accumulator}).second,
                         qPrintable(QStringLiteral("thread %1 holds two outputs in accumulator %2")
                                        .arg(f.tid)
                                        .arg(f.accumulator)));
            }
        QCOMPARE(ownerMap(shape), writer);
    }

    // What the views ask: the tensor-core layouts and only they have accumulator fragments and no
    // side-by-side counterpart; operand fragments place every A and B element; a colour unit is a
    // whole number of warps.
    void viewHooksAreConsistent()
    {
        for (int i = 0; i < kThreadLayoutCount; ++i) {
            const LayoutScheme &layout = layoutScheme(ThreadLayout(i));
            QVERIFY(!layout.tileMapNote(false).empty());
            QVERIFY(!layout.colourUnitName().empty());
            QVERIFY(layout.colourUnitThreads() >= kWarpSize && layout.colourUnitThreads() % kWarpSize == 0);
            QVERIFY(!layout.hasOperandFragments() || layout.tensorCore());
            QCOMPARE(layout.operandFragmentSlot(Operand::A, {0, 0}).has_value(),
                     layout.hasOperandFragments());
            QVERIFY(!layout.operandFragmentSlot(Operand::C, {0, 0}));
            QCOMPARE(layout.operandTileNote().empty(), !layout.operandsStayInSharedMemory());
        }
        QVERIFY(!layoutScheme(ThreadLayout::Contiguous).tensorCore());
        QVERIFY(layoutScheme(ThreadLayout::MmaFragments).hasOperandFragments());
        QVERIFY(layoutScheme(ThreadLayout::WgmmaWarpgroups).operandsStayInSharedMemory());
    }
};

QTEST_APPLESS_MAIN(TestThreadLayouts)
#include "tst_thread_layouts.moc"
