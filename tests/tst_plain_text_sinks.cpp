// Text from files is data, never markup: the window opens a hostile session — run ids,
// host and GPU names, preset keys, error kinds and messages, sweep runs, the title and
// description all holding `<img src=...>`, `<b>` and `&amp;` — then shows every tab and selects
// every run, and walks every label, tooltip, tab tooltip, action, item-view tooltip and text
// document of the window. None may interpret the text as markup (an <img> pointing at a FIFO
// blocked the UI thread for good), and none may show it escaped twice ("&lt;img").
#include "app_resources.h"
#include "main_window.h"
#include "session.h"
#include "stage_catalog.h"
#include "support/small_sweep_spec.h"
#include "support/stored_ceilings.h"
#include "sweep_plan.h"

#include <QAbstractItemView>
#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextEdit>
#include <QtTest>

using namespace gemmscope;

namespace {

// The image points nowhere that exists: were it loaded, nothing would block; the check is the text.
const QString kImg = QStringLiteral("<img src=\"gs-hostile.png\">");
const QString kHostile = kImg + QStringLiteral("<b>gs-bold</b>&amp;gs-amp");

QString hostile(const QString &what)
{
    return what + kHostile;
}

RunRecord hostileRun(const QString &id, const QString &stage, const ProblemSize &size, RunStatus status)
{
    RunRecord r;
    r.runId = hostile(id);
    r.stage = stageIdOf(stage);
    r.presetKey = hostile(QStringLiteral("preset"));
    if (const StageInfo *s = findStage(stage.toStdString()); s && !s->isLibrary)
        for (const auto &[name, value] : defaultParams(s->id))
            r.params.insert(QString::fromStdString(name), value);
    r.m = size.m, r.n = size.n, r.k = size.k;
    r.status = status;
    r.origin = QStringLiteral("measured");
    r.gpuName = hostile(QStringLiteral("gpu"));
    r.gpuArch = QStringLiteral("sm_90");
    r.gpuUuid = hostile(QStringLiteral("uuid"));
    r.host = hostile(QStringLiteral("host"));
    r.occupancyLimiter = OccupancyLimiter::Unknown; // a file's hostile name decodes to this
    r.timestamp = QDateTime::currentDateTimeUtc();
    if (status == RunStatus::Ok) {
        r.medianMs = r.p20Ms = r.p80Ms = r.minMs = 2.0;
        r.count = 5;
        r.tflops = 2.0 * double(size.m) * double(size.n) * double(size.k) / (2.0 * 1e9);
        r.relError = 1e-7;
        r.tolerance = 1e-5;
        r.registers = 64;
    } else {
        r.errorKind = QStringLiteral("launch_error");
        r.errorMessage = hostile(QStringLiteral("message"));
    }
    return r;
}

SweepData hostileGridSweep()
{
    SweepData sweep;
    sweep.id = QStringLiteral("sweep-hostile-grid");
    sweep.spec = smallSweepSpec();
    sweep.created = QDateTime::currentDateTimeUtc();
    const SweepPlan plan = planSweep(sweep.spec);
    int n = 0;
    for (const SweepPoint &p : plan.points) {
        if (!p.valid())
            continue;
        ++n;
        RunRecord r = hostileRun(QStringLiteral("g%1").arg(n), QString::fromStdString(p.stage.str()), p.size,
                                 n % 3 == 0 ? RunStatus::Failed : RunStatus::Ok);
        r.params.clear();
        for (const auto &[name, value] : p.params)
            r.params.insert(QString::fromStdString(name), value);
        if (r.status == RunStatus::Failed)
            r.errorKind = QStringLiteral("out_of_resources");
        sweep.runs << r;
    }
    return sweep;
}

SweepData hostileSizeSweep()
{
    SweepData sweep;
    sweep.id = QStringLiteral("sweep-hostile-sizes");
    SweepSpec &spec = sweep.spec;
    spec.kind = SweepKind::Sizes;
    const Preset *preset = findPreset("worklog-8");
    spec.series = {{preset->stage, preset->params, preset->key}, {StageId::CublasFp32, {}, "cublas_fp32"}};
    spec.sizes = sizeSweepSizes(SizeShape::Square, 256, 2048, false);
    spec.stage = spec.series.front().stage;
    spec.size = spec.sizes.front();
    spec.budgetMs = 5;
    sweep.created = QDateTime::currentDateTimeUtc();
    int n = 0;
    for (const SweepPoint &p : planSweep(spec).points) {
        if (!p.valid())
            continue;
        ++n;
        RunRecord r = hostileRun(QStringLiteral("s%1").arg(n), QString::fromStdString(p.stage.str()), p.size,
                                 n == 2 ? RunStatus::Failed : RunStatus::Ok);
        r.params.clear();
        for (const auto &[name, value] : p.params)
            r.params.insert(QString::fromStdString(name), value);
        r.smCount = 132;
        sweep.runs << r;
    }
    return sweep;
}

SessionData hostileSession()
{
    SessionData data;
    data.title = hostile(QStringLiteral("title"));
    data.description = hostile(QStringLiteral("description"));
    data.created = QDateTime::currentDateTimeUtc();
    const ProblemSize size{1024, 1024, 1024};
    data.runs << hostileRun(QStringLiteral("cublas"), QStringLiteral("cublas_fp32"), size, RunStatus::Ok)
              << hostileRun(QStringLiteral("ok"), QStringLiteral("coalesced"), size, RunStatus::Ok)
              << hostileRun(QStringLiteral("final"), QStringLiteral("final"), size, RunStatus::Ok)
              << hostileRun(QStringLiteral("failed"), QStringLiteral("naive"), size, RunStatus::Failed);
    data.ceilings.insert(hostile(QStringLiteral("gpu")), test::storedCeilings(60.0, 4000.0, "measured"));
    data.sweeps << hostileGridSweep() << hostileSizeSweep();
    return data;
}

// One place text is shown: where, the text, and whether it is shown as rich text.
struct Sink {
    QString where;
    QString text;
    bool rich = false;
};

QString nameOf(const QObject *o)
{
    QString path;
    for (; o; o = o->parent())
        path = QStringLiteral("%1(%2)/").arg(QString::fromLatin1(o->metaObject()->className()),
                                             o->objectName()) +
               path;
    return path;
}

// QToolTip and QWhatsThis decide by Qt::mightBeRichText alone.
Sink autoDetected(const QString &where, const QString &text)
{
    return {where, text, Qt::mightBeRichText(text)};
}

void collect(QWidget *root, QList<Sink> &out)
{
    QList<QWidget *> widgets = root->findChildren<QWidget *>();
    widgets.prepend(root);
    for (QWidget *w : std::as_const(widgets)) {
        const QString where = nameOf(w);
        out << autoDetected(where + QStringLiteral(" toolTip"), w->toolTip())
            << autoDetected(where + QStringLiteral(" whatsThis"), w->whatsThis());
        if (auto *label = qobject_cast<QLabel *>(w)) {
            const Qt::TextFormat f = label->textFormat();
            out << Sink{where + QStringLiteral(" text"), label->text(),
                        f == Qt::RichText || (f == Qt::AutoText && Qt::mightBeRichText(label->text()))};
        }
        if (auto *bar = qobject_cast<QTabBar *>(w))
            for (int i = 0; i < bar->count(); ++i)
                out << autoDetected(where + QStringLiteral(" tab %1 toolTip").arg(i), bar->tabToolTip(i));
        if (auto *view = qobject_cast<QAbstractItemView *>(w); view && view->model()) {
            const QAbstractItemModel *m = view->model();
            for (int r = 0; r < std::min(m->rowCount(), 300); ++r)
                for (int c = 0; c < m->columnCount(); ++c)
                    out << autoDetected(where + QStringLiteral(" cell %1,%2 toolTip").arg(r).arg(c),
                                        m->index(r, c).data(Qt::ToolTipRole).toString());
            for (int c = 0; c < m->columnCount(); ++c)
                out << autoDetected(where + QStringLiteral(" header %1 toolTip").arg(c),
                                    m->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString());
        }
        if (auto *edit = qobject_cast<QTextEdit *>(w)) {
            // A document holds what it was given as rich text already parsed: an image or bold
            // text from a file means the file's markup was taken as markup.
            const QTextDocument *doc = edit->document();
            for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
                for (auto it = b.begin(); !it.atEnd(); ++it) {
                    const QTextFragment f = it.fragment();
                    const QString text = f.text();
                    if (f.charFormat().isImageFormat() &&
                        f.charFormat().toImageFormat().name().contains(QStringLiteral("gs-hostile")))
                        out << Sink{where + QStringLiteral(" document image"), kImg, true};
                    if (text.contains(QStringLiteral("gs-bold")) && !text.contains(QStringLiteral("<b>")))
                        out << Sink{where + QStringLiteral(" document bold"), kHostile, true};
                }
            out << Sink{where + QStringLiteral(" document"), doc->toPlainText(), false};
        }
    }
    for (QAction *a : root->findChildren<QAction *>())
        out << autoDetected(nameOf(a) + QStringLiteral(" toolTip"), a->toolTip())
            << Sink{nameOf(a) + QStringLiteral(" statusTip"), a->statusTip(), false};
}

// What a user reads: rich text rendered, plain text as it is.
QString readable(const Sink &s)
{
    if (!s.rich)
        return s.text;
    QTextDocument doc;
    doc.setHtml(s.text);
    return doc.toPlainText();
}

} // namespace

class TestPlainTextSinks : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // journals and settings are not the user's
        initResources();
        QVERIFY(m_dir.isValid());
    }

    void noViewTakesFileTextAsMarkup()
    {
        const QString path = m_dir.filePath(QStringLiteral("hostile.json"));
        QString error;
        QVERIFY2(writeSessionFile(path, hostileSession(), &error), qPrintable(error));
        MainWindow window(MainWindow::Options{
            .startRunner = false, .restoreSettings = false, .autosavePath = {}, .autosave = false});
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.openSession(path, &error), qPrintable(error));
        QCoreApplication::processEvents();

        QList<Sink> sinks;
        const auto look = [&] {
            QCoreApplication::processEvents();
            collect(&window, sinks);
        };
        look();
        // Every tab of every tab widget (workspaces, the mapping pane, the sweep views' own).
        for (QTabWidget *tabs : window.findChildren<QTabWidget *>())
            for (int i = 0; i < tabs->count(); ++i) {
                tabs->setCurrentIndex(i);
                look();
            }
        // Every run selected in every table: the views that describe the selected run.
        for (QTableView *table : window.findChildren<QTableView *>()) {
            if (!table->model())
                continue;
            for (int r = 0; r < std::min(table->model()->rowCount(), 40); ++r) {
                table->selectRow(r);
                look();
            }
        }
        // Every sweep a sweep view can show.
        for (QComboBox *combo : window.findChildren<QComboBox *>()) {
            const QString parents = nameOf(combo);
            if (!parents.contains(QStringLiteral("SweepView")))
                continue;
            for (int i = 0; i < combo->count(); ++i) {
                combo->setCurrentIndex(i);
                look();
            }
        }

        QStringList interpreted, doubled;
        int showingHostileText = 0;
        for (const Sink &s : std::as_const(sinks)) {
            if (s.text.isEmpty())
                continue;
            if (s.rich && s.text.contains(kImg))
                interpreted << s.where + QStringLiteral(": ") + s.text.left(200);
            const QString shown = readable(s);
            if (shown.contains(QStringLiteral("&lt;img")) ||
                shown.contains(QStringLiteral("&amp;amp;gs-amp")))
                doubled << s.where + QStringLiteral(": ") + shown.left(200);
            if (shown.contains(QStringLiteral("gs-hostile")))
                ++showingHostileText;
        }
        qInfo("%lld sinks looked at, %d show text from the hostile session", qlonglong(sinks.size()),
              showingHostileText);
        QVERIFY2(showingHostileText > 20,
                 "the hostile text did not reach the views: the test would see nothing");
        interpreted.removeDuplicates();
        doubled.removeDuplicates();
        for (const QString &line : std::as_const(interpreted) + doubled) // QVERIFY2 cuts long messages
            qWarning("%s", qPrintable(line));
        QVERIFY2(
            interpreted.isEmpty(),
            qPrintable(QStringLiteral("File text taken as markup in %1 place(s):\n").arg(interpreted.size()) +
                       interpreted.join(QLatin1Char('\n'))));
        QVERIFY2(doubled.isEmpty(),
                 qPrintable(QStringLiteral("File text escaped twice in %1 place(s):\n").arg(doubled.size()) +
                            doubled.join(QLatin1Char('\n'))));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestPlainTextSinks)
#include "tst_plain_text_sinks.moc"
