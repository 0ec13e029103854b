// The Source tab, offscreen: a stage's text is exactly the embedded file, the diff marks and tints
// what changed from the previous stage, and stages without a source say why in a sentence.
#include "code_heat_edit.h"
#include "kernel_sources.h"
#include "profile_hotspot_table.h"
#include "source_diff.h"
#include "stage_source_view.h"
#include "stall_breakdown_bar.h"
#include "support/profile_fixtures.h"
#include "support/view_shots.h"

#include <QDir>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRadioButton>
#include <QRegularExpression>
#include <QTextBlock>
#include <QtTest>

using namespace gemmscope;

namespace {

QString embedded(StageId id)
{
    const std::string_view text = embeddedKernelSource(stageInfo(id).sourceFile);
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QStringList linesOf(const QString &text)
{
    return text.split(QLatin1Char('\n'));
}

// The lines of the diff on screen that start with `prefix`, the prefix removed.
QStringList diffLinesMarked(const StageSourceView &view, QChar prefix)
{
    QStringList out;
    for (const QString &line : linesOf(view.shownText()))
        if (line.startsWith(prefix))
            out << line.mid(1);
    return out;
}

bool greenTinted(const QColor &c)
{
    return c.green() > c.red() + 20 && c.green() > c.blue() + 10;
}

bool redTinted(const QColor &c)
{
    return c.red() > c.green() + 20 && c.red() > c.blue() + 20;
}

} // namespace

class TstStageSourceView : public QObject {
    Q_OBJECT

private slots:

    // Without a profile the tab reads as before: no margin, no bar, no table, one line saying how
    // to get a profile.
    void noProfileIsAnEmptyState()
    {
        StageSourceView view;
        view.setStage(StageId::Coalesced);
        view.setNoProfileText(
            QStringLiteral("Profile this preset (Ctrl+Shift+P) to see its hot lines."));
        QCOMPARE(view.profileText(),
                 QStringLiteral("Profile this preset (Ctrl+Shift+P) to see its hot lines."));
        QVERIFY(view.breakdownBar()->isHidden());
        QVERIFY(view.hotLines()->isHidden());
        QVERIFY(view.editor()->lineHeat().isEmpty()); // no heat; the margin holds the line numbers alone
        QVERIFY(view.editor()->lineNumbers());
    }

    // With a profile of the stage: the sampled lines of the file on screen get a heat margin (the
    // hottest at full heat), the bar names the reasons, the table lists every line hottest first
    // and sorts; a click on a line of another file opens that file.
    void profileColumnsAppearAndSort()
    {
        StageSourceView view;
        view.setStage(StageId::Coalesced);
        const protocol::ProfileEvent profile = test::coalescedShapedProfile();
        view.setProfile(&profile);
        QVERIFY(view.hasProfile());
        QVERIFY(view.profileText().contains(QLatin1String("NVIDIA H200")));
        QVERIFY(!view.breakdownBar()->isHidden());
        QVERIFY(view.editor()->marginWidth() > 0);
        const auto &heat = view.editor()->lineHeat();
        QVERIFY(heat.contains(34)); // line 35, the inner product: the hottest line
        QCOMPARE(heat.value(34).heat, 1.0);
        // The gutter prints the names every view prints (stall_reasons.h), never CUPTI's words.
        QCOMPARE(heat.value(34).label, shareText(heat.value(34).share) + QStringLiteral(" ready"));
        QVERIFY(heat.contains(29) &&
                heat.value(29).label.endsWith(QLatin1String(" shared queue"))); // line 30
        QVERIFY(!heat.contains(17)); // cooperative_load.cuh:18 is not in this file
        QVERIFY(heat.value(29).tooltip.contains(QLatin1String("shared queue (CUPTI: mio_throttle)")));

        ProfileHotspotTable *table = view.hotLines();
        QVERIFY(!table->isHidden());
        QCOMPARE(table->rowCount(),
                 10); // coalesced.cuh 23 25 30 32 35 37 45, common.cuh 30, cooperative 18 22
        QCOMPARE(table->rowAt(0)->where, QStringLiteral("coalesced.cuh:35"));
        for (int r = 1; r < table->rowCount(); ++r)
            QVERIFY(table->rowAt(r - 1)->share >= table->rowAt(r)->share);
        table->sortByColumn(ProfileHotspotModel::Where, Qt::AscendingOrder);
        QCOMPARE(table->rowAt(0)->where, QStringLiteral("coalesced.cuh:23"));
        table->sortByColumn(ProfileHotspotModel::Share, Qt::AscendingOrder);
        QVERIFY(table->rowAt(0)->share <= table->rowAt(table->rowCount() - 1)->share);

        std::optional<HotspotRow> other;
        for (int r = 0; r < table->rowCount() && !other; ++r)
            if (table->rowAt(r)->file == QLatin1String("cooperative_load.cuh"))
                other = *table->rowAt(r);
        QVERIFY(other);
        const QString firstShown = table->rowAt(0)->where;
        emit table->rowActivated(*other);
        QCOMPARE(view.currentFile(), QStringLiteral("cooperative_load.cuh"));
        QCOMPARE(view.editor()->textCursor().blockNumber(), other->line - 1);
        QVERIFY(view.editor()->lineHeat().contains(other->line - 1)); // its heat follows the file
        QCOMPARE(table->rowAt(0)->where, firstShown);                 // the user's sort stays

        view.setMode(StageSourceView::Mode::Diff);
        QCOMPARE(view.editor()->marginWidth(), 0); // diff lines are not the compiled file's lines

        const QString png = test::renderShot(&view, QSize(1000, 640), QStringLiteral("source_view_profile"));
        QVERIFY(!png.isEmpty());
    }

    void profileShotAtWindowSize()
    {
        StageSourceView view;
        view.setStage(StageId::Coalesced);
        const protocol::ProfileEvent profile = test::coalescedShapedProfile();
        view.setProfile(&profile);
        QVERIFY(!test::renderShot(&view, QSize(1000, 640), QStringLiteral("source_view_profile")).isEmpty());
        view.setProfile(nullptr);
        QVERIFY(
            !test::renderShot(&view, QSize(1000, 640), QStringLiteral("source_view_no_profile")).isEmpty());
    }

    // The recorded H200 profile of step 3 (worklog-3): the heat lands on coalesced.cuh's lines, the
    // hottest line of all is the B tile's fill in cooperative_load.cuh, waiting on global loads.
    void recordedProfileOfStep3()
    {
        StageSourceView view;
        view.setStage(StageId::Coalesced);
        const protocol::ProfileEvent profile =
            test::loadProfileFixture(QStringLiteral("profile-worklog-3.json"));
        view.setProfile(&profile);
        QCOMPARE(view.hotLines()->rowAt(0)->where, QStringLiteral("cooperative_load.cuh:22"));
        // The share first, then the reason in words (a narrow cell cuts words, never the number).
        const QString reasons = view.hotLines()->rowAt(0)->reasons;
        QVERIFY2(QRegularExpression(QStringLiteral("^\\d+(\\.\\d)? % global load")).match(reasons).hasMatch(),
                 qPrintable(reasons));
        QVERIFY(view.editor()->lineHeat().contains(34)); // coalesced.cuh:35, the inner product
        QCOMPARE(view.breakdownBar()->segments().first().key, QStringLiteral("long_scoreboard"));
        QVERIFY(!test::renderShot(&view, QSize(1000, 640), QStringLiteral("source_view_worklog3")).isEmpty());
        emit view.hotLines()->rowActivated(*view.hotLines()->rowAt(0));
        QCOMPARE(view.currentFile(), QStringLiteral("cooperative_load.cuh"));
        QVERIFY(!test::renderShot(&view, QSize(1000, 640), QStringLiteral("source_view_worklog3_cooperative"))
                     .isEmpty());
    }

    // A part that failed says so in its own place; text from the file stays text; unusable counts
    // draw nothing and break nothing; another stage drops the profile.
    void errorsAndHostileValues()
    {
        StageSourceView view;
        view.setStage(StageId::Coalesced);
        protocol::ProfileEvent profile = test::coalescedShapedProfile();
        profile.stage = QStringLiteral("<h1>big</h1>");
        profile.stallsError = QStringLiteral("CUPTI could not sample: <b>ERR_NVGPUCTRPERM</b>.");
        profile.instructions[0].stalls.insert(QStringLiteral("wait"),
                                              std::numeric_limits<double>::quiet_NaN());
        profile.instructions[1].stalls.insert(QStringLiteral("wait"), -1e300);
        profile.instructions[2].line = -7;
        profile.instructions[3].file = QStringLiteral("<img src=x>");
        view.setProfile(&profile);
        QVERIFY(view.profileText().contains(QLatin1String("<h1>big</h1>")));
        QCOMPARE(view.findChild<QLabel *>(QStringLiteral("sourceProfileLabel"))->textFormat(), Qt::PlainText);
        QVERIFY(view.breakdownBar()->message().contains(QLatin1String("ERR_NVGPUCTRPERM")));
        QVERIFY(view.breakdownBar()->segments().isEmpty());
        QVERIFY(!test::renderShot(&view, QSize(900, 600), QStringLiteral("source_view_error")).isEmpty());

        view.setStage(StageId::Strided);
        QVERIFY(!view.hasProfile());
        QVERIFY(view.breakdownBar()->isHidden());
    }
    // The Source tab shows the included files too, and highlights the line of the instruction the
    // Coalescing view shows, in whichever file it is (step 3's loads live in cooperative_load.cuh).
    void includedFilesAndTheCurrentInstruction()
    {
        StageSourceView view;
        view.setStage(StageId::Coalesced);
        QVERIFY(view.files().contains(QStringLiteral("cooperative_load.cuh")));
        QVERIFY(view.files().contains(QStringLiteral("common.cuh")));
        QVERIFY(view.highlightAccess(Operand::B, AccessKind::Load));
        QCOMPARE(view.highlightedFile(), QStringLiteral("cooperative_load.cuh"));
        const QStringList lines = view.shownText().split(QLatin1Char('\n'));
        QVERIFY(lines.value(view.highlightedLine() - 1).contains(QStringLiteral("loadOrZero(B")));
        QVERIFY(view.highlightAccess(Operand::C, AccessKind::Store));
        QCOMPARE(view.highlightedFile(), QStringLiteral("coalesced.cuh"));
        QVERIFY(view.shownText()
                    .split(QLatin1Char('\n'))
                    .value(view.highlightedLine() - 1)
                    .contains(QStringLiteral("GEMMSCOPE_STORE_C(C[")));
        view.setStage(StageId::Naive);
        QVERIFY(view.highlightAccess(Operand::A, AccessKind::Load));
        QCOMPARE(view.highlightedFile(), QStringLiteral("naive.cuh"));
        view.setCurrentFile(QStringLiteral("common.cuh"));
        QCOMPARE(view.currentFile(), QStringLiteral("common.cuh"));
        QVERIFY(view.shownText().contains(QStringLiteral("loadOrZero")));
    }

    void sourceModeShowsTheEmbeddedFile_data()
    {
        QTest::addColumn<QString>("stage");
        for (const StageInfo &s : stages())
            if (!s.sourceFile.empty())
                QTest::newRow(s.key.c_str()) << QString::fromStdString(s.key);
    }
    void sourceModeShowsTheEmbeddedFile()
    {
        QFETCH(QString, stage);
        StageSourceView view;
        view.setStage(StageId(stage.toStdString()));
        const QString file = embedded(StageId(stage.toStdString()));
        QVERIFY(!file.isEmpty());
        QCOMPARE(view.shownText(), file);
        QVERIFY(view.message().isEmpty());
        QVERIFY(view.headerText().startsWith(
            QString::fromStdString(stageInfo(StageId(stage.toStdString())).sourceFile)));
    }

    void headerNamesTheIncludes()
    {
        StageSourceView view;
        view.setStage(StageId::Coalesced);
        QVERIFY(embedded(StageId::Coalesced).contains(QStringLiteral("#include \"cooperative_load.cuh\"")));
        QVERIFY2(view.headerText().contains(QStringLiteral("cooperative_load.cuh")),
                 qPrintable(view.headerText()));
    }

    // Strided against its previous stage: the lines it adds are marked "+" and tinted green, the
    // lines it drops "-" and red, and the diff gives the new file back.
    void diffModeMarksAndTintsChanges()
    {
        StageSourceView view;
        view.setStage(StageId::Strided);
        view.setMode(StageSourceView::Mode::Diff);
        QVERIFY(view.diffAvailable());
        const std::optional<StageId> previous = previousStageWithSource(StageId::Strided);
        QVERIFY(previous);
        const QStringList now = linesOf(embedded(StageId::Strided));
        const QStringList before = linesOf(embedded(*previous));

        const QStringList added = diffLinesMarked(view, QLatin1Char('+'));
        const QStringList removed = diffLinesMarked(view, QLatin1Char('-'));
        const QString strideLine = QStringLiteral("    constexpr int ROW_STRIDE = BM / TM; // = blockDim.y");
        QVERIFY(now.contains(strideLine) && !before.contains(strideLine));
        QVERIFY(added.contains(strideLine));
        for (const QString &line : added)
            QVERIFY2(now.contains(line), qPrintable(line));
        QVERIFY(!removed.isEmpty());
        for (const QString &line : removed)
            QVERIFY2(before.contains(line) && !now.contains(line), qPrintable(line));

        const QString header = view.headerText();
        QVERIFY2(header.contains(QStringLiteral("diff from %1 (%2)")
                                     .arg(QString::fromStdString(stageInfo(*previous).title),
                                          QString::fromStdString(stageInfo(*previous).sourceFile))),
                 qPrintable(header));

        auto *editor = view.findChild<QPlainTextEdit *>(QStringLiteral("sourceText"));
        QVERIFY(editor);
        int tintedAdded = 0, tintedRemoved = 0;
        for (QTextBlock b = editor->document()->begin(); b.isValid(); b = b.next()) {
            const QColor bg = b.blockFormat().background().color();
            if (b.text().startsWith(QLatin1Char('+')))
                tintedAdded += greenTinted(bg);
            else if (b.text().startsWith(QLatin1Char('-')))
                tintedRemoved += redTinted(bg);
            else
                QCOMPARE(b.blockFormat().background().style(), Qt::NoBrush);
        }
        QCOMPARE(tintedAdded, added.size());
        QCOMPARE(tintedRemoved, removed.size());
    }

    void radioButtonsSwitchTheMode()
    {
        StageSourceView view;
        view.setStage(StageId::Final);
        auto *diff = view.findChild<QRadioButton *>(QStringLiteral("diffModeButton"));
        auto *source = view.findChild<QRadioButton *>(QStringLiteral("sourceModeButton"));
        QVERIFY(diff && source && diff->isEnabled());
        diff->click();
        QCOMPARE(view.mode(), StageSourceView::Mode::Diff);
        QVERIFY(view.shownText().contains(QStringLiteral("\n+")));
        source->click();
        QCOMPARE(view.mode(), StageSourceView::Mode::Source);
        QVERIFY(!view.shownText().contains(QStringLiteral("\n+")));
    }

    // Naive has nothing before it: diff mode shows its file and says why.
    void firstStageHasNoDiff()
    {
        StageSourceView view;
        view.setMode(StageSourceView::Mode::Diff);
        view.setStage(StageId::Naive);
        QVERIFY(!view.diffAvailable());
        QVERIFY(!view.findChild<QRadioButton *>(QStringLiteral("diffModeButton"))->isEnabled());
        QCOMPARE(view.shownText(), embedded(StageId::Naive));
        QVERIFY2(view.headerText().contains(QStringLiteral("first stage")), qPrintable(view.headerText()));
        view.setStage(StageId::SmemTiled); // the choice survives: the next stage diffs again
        QVERIFY(view.diffAvailable());
        QVERIFY(!diffLinesMarked(view, QLatin1Char('+')).isEmpty());
    }

    void cublasShowsASentence_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::newRow("FP32") << QStringLiteral("cublas_fp32");
        QTest::newRow("TF32") << QStringLiteral("cublas_tf32");
    }
    void cublasShowsASentence()
    {
        QFETCH(QString, stage);
        for (auto mode : {StageSourceView::Mode::Source, StageSourceView::Mode::Diff}) {
            StageSourceView view;
            view.setMode(mode);
            view.setStage(StageId::Coalesced);
            view.setStage(StageId(stage.toStdString())); // what the previous stage showed must go
            QVERIFY(view.shownText().isEmpty());
            QVERIFY2(view.message().contains(QStringLiteral("closed source")), qPrintable(view.message()));
            QVERIFY(view.message().contains(
                QString::fromStdString(stageInfo(StageId(stage.toStdString())).title)));
            QVERIFY(!view.diffAvailable());
        }
    }

    // Rendered offscreen, the diff really paints green and red rows. GEMMSCOPE_SNAPSHOT_DIR keeps
    // the picture (source-view.png) for a person to look at.
    void renderedDiffShowsTintedRows()
    {
        StageSourceView view;
        view.resize(900, 1100);
        view.setStage(StageId::Strided);
        view.setMode(StageSourceView::Mode::Diff);
        const QImage image = view.grab().toImage().convertToFormat(QImage::Format_RGB32);
        int greenRows = 0, redRows = 0;
        const int x = image.width() / 2;
        for (int y = 0; y < image.height(); ++y) {
            greenRows += greenTinted(image.pixelColor(x, y));
            redRows += redTinted(image.pixelColor(x, y));
        }
        QVERIFY2(greenRows > 10 && redRows > 10,
                 qPrintable(QStringLiteral("%1 %2").arg(greenRows).arg(redRows)));
        const QString dir = qEnvironmentVariable("GEMMSCOPE_SNAPSHOT_DIR");
        if (!dir.isEmpty())
            QVERIFY(image.save(QDir(dir).filePath(QStringLiteral("source-view.png"))));
    }
};

QTEST_MAIN(TstStageSourceView)
#include "tst_stage_source_view.moc"
