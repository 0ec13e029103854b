// The machine-code view on recorded compiler output: SASS chosen when there is some, the hot
// loop's mix in the table and the summary, PTX instead (with the reason) when there is no SASS.
#include "code_heat_edit.h"
#include "machine_code_view.h"
#include "profile_analysis.h"
#include "profile_hotspot_table.h"
#include "stall_breakdown_bar.h"
#include "stall_reasons.h"
#include "support/profile_fixtures.h"
#include "support/test_data.h"
#include "support/view_shots.h"

#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QTest>
#include <QTextBlock>

using namespace gemmscope;

namespace {

// A profile of the recorded pipelined SASS: its instructions at their offsets with their own text,
// the hot loop's FFMAs hot (not selected, issuing), its LDS.128 waiting on the MIO queue, the rest
// cold. Hand-made on the real offsets, not a measurement.
protocol::ProfileEvent profileOfSass(const QString &sass, bool sameBinary = true)
{
    protocol::ProfileEvent p;
    p.stage = QStringLiteral("pipelined");
    p.size = {4096, 4096, 4096};
    p.gpu.name = QStringLiteral("NVIDIA H200");
    int n = 0;
    for (const QString &line : sass.split(QLatin1Char('\n'))) {
        const auto offset = sassLineOffset(line);
        if (!offset)
            continue;
        QString text = line.section(QStringLiteral("*/"), 1).section(QLatin1Char(';'), 0, 0).trimmed();
        const QString op = (text.startsWith(QLatin1Char('@')) ? text.section(QLatin1Char(' '), 1) : text)
                               .section(QLatin1Char(' '), 0, 0);
        QMap<QString, double> stalls;
        if (op == QLatin1String("FFMA"))
            stalls = {{"not_selected", 900.0 + (n % 7) * 40}, {"selected", 600}, {"wait", 150}};
        else if (op.startsWith(QLatin1String("LDS")))
            stalls = {{"mio_throttle", 2200}, {"short_scoreboard", 300}};
        else if (n % 5 == 0)
            stalls = {{"selected", 20}};
        if (!sameBinary)
            text = QStringLiteral("NOP");
        p.instructions.append(
            test::instruction(QStringLiteral("gemmscope::pipelined<128, 128, 16, 8, 16, 1>"), *offset, text,
                              QStringLiteral("pipelined.cuh"), 60, stalls));
        ++n;
    }
    return p;
}

// nvdisasm-style text of a profile's own instructions ("/*0240*/ LDS ... ;" under "//## File"
// lines): the recorded profile carries the SASS of the binary it sampled.
QString sassOfProfile(const protocol::ProfileEvent &p, const QString &function)
{
    QStringList lines{QStringLiteral("\t.text.kernel:")};
    QString file;
    int line = 0;
    for (const protocol::ProfileInstruction &i : p.instructions) {
        if (i.function != function)
            continue;
        if (i.file != file || i.line != line) {
            file = i.file;
            line = i.line;
            lines << QStringLiteral("\t//## File \"%1\", line %2").arg(file).arg(line);
        }
        lines << QStringLiteral("        /*%1*/                   %2 ;")
                     .arg(i.pc, 4, 16, QLatin1Char('0'))
                     .arg(i.sass);
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestMachineCodeView : public QObject {
    Q_OBJECT
private slots:
    // A profile of the shown configuration: the SASS lines get heat by offset, the bar and the
    // sortable table of hot instructions appear; without one they do not; another binary's
    // profile puts no heat on the lines (and says why) while its table stands.
    void profileHeatOnTheSass()
    {
        MachineCodeView view;
        QVERIFY(view.breakdownBar()->isHidden());
        QVERIFY(view.profileText().startsWith(QLatin1String("No profile")));
        const QString sass = test::readTestData("pipelined_128x128x16_8x16_sm90.sass");
        view.setMachineCode(QStringLiteral("gemmscope::pipelined<128, 128, 16, 8, 16, 1> for sm_90"),
                            test::readTestData("warptiled_64x64x8_4x4_sm90.ptx"), sass, {});
        QCOMPARE(view.editor()->marginWidth(), 0);
        const protocol::ProfileEvent profile = profileOfSass(sass);
        view.setProfile(&profile);
        QVERIFY(!view.breakdownBar()->isHidden());
        QCOMPARE(view.breakdownBar()->segments().first().key, QStringLiteral("not_selected"));
        const auto &heat = view.editor()->lineHeat();
        QVERIFY(heat.size() > 2000); // every FFMA and LDS of the kernel, at least
        const MachineCode *code = view.code();
        int ffmaHot = 0;
        for (auto it = heat.constBegin(); it != heat.constEnd(); ++it) {
            QVERIFY(code->lines[size_t(it.key())].isInstruction);
            ffmaHot += code->lines[size_t(it.key())].opcode == "FFMA" && it->heat > 0.5;
            // The SASS gutter in the one vocabulary (stall_reasons.h), CUPTI's names in the tooltip.
            const QString reason = it->label.section(QStringLiteral(" % "), 1);
            bool named = false;
            for (const QString &key : knownStallReasonKeys())
                named = named || stallReasonName(key) == reason;
            QVERIFY2(named, qPrintable(it->label));
            QVERIFY(it->tooltip.contains(QLatin1String("(CUPTI: ")));
        }
        QVERIFY(ffmaHot > 1000);
        ProfileHotspotTable *table = view.hotInstructions();
        QVERIFY(!table->isHidden());
        QCOMPARE(table->rowCount(), profile.instructions.size());
        QVERIFY(table->rowAt(0)->detail.startsWith(QLatin1String("LDS"))); // 2500 samples each: the hottest
        table->sortByColumn(ProfileHotspotModel::Where, Qt::AscendingOrder);
        QCOMPARE(table->rowAt(0)->pc, 0LL);
        emit table->rowActivated(*table->rowAt(5));
        QCOMPARE(sassLineOffset(view.editor()->textCursor().block().text()),
                 std::optional<long long>(table->rowAt(5)->pc));

        view.setLevel(CodeLevel::Ptx); // PTX has no offsets: no heat, and the line says where it is
        QCOMPARE(view.editor()->marginWidth(), 0);
        QVERIFY(view.profileText().contains(QLatin1String("shown on the SASS")));
        view.setLevel(CodeLevel::Sass);
        QVERIFY(!test::renderShot(&view, QSize(1000, 640), QStringLiteral("sass_view_profile")).isEmpty());

        const protocol::ProfileEvent other = profileOfSass(sass, false);
        view.setProfile(&other);
        QCOMPARE(view.editor()->marginWidth(), 0);
        QVERIFY(view.profileText().contains(QLatin1String("not the profiled binary")));
        QCOMPARE(view.hotInstructions()->rowCount(), other.instructions.size());

        view.setProfile(nullptr);
        QVERIFY(view.breakdownBar()->isHidden());
        QVERIFY(view.hotInstructions()->isHidden());
    }

    // The recorded H200 profile of step 3 on the SASS it sampled: every sampled instruction gets
    // its heat.
    void recordedProfileOfStep3()
    {
        const protocol::ProfileEvent p = test::loadProfileFixture(QStringLiteral("profile-worklog-3.json"));
        const QString function = mainFunction(p);
        MachineCodeView view;
        view.setMachineCode(function, QStringLiteral("// ptx"), sassOfProfile(p, function), {});
        view.setProfile(&p);
        int sampled = 0;
        for (const protocol::ProfileInstruction &i : p.instructions)
            sampled += i.samples() > 0;
        QCOMPARE(view.editor()->lineHeat().size(), sampled);
        QVERIFY(
            view.profileText().startsWith(QStringLiteral("Profile of coalesced at 4096³ on NVIDIA H200.")));
        QVERIFY(!test::renderShot(&view, QSize(1000, 640), QStringLiteral("sass_view_worklog3")).isEmpty());
    }

    // Without nvdisasm (a toolkit without it, as Debian's), the profile's own instructions stand in
    // for the SASS, so that the heat has lines: never the PTX beside SASS offsets.
    void withoutNvdisasmTheProfileListsTheSass()
    {
        const protocol::ProfileEvent p = test::loadProfileFixture(QStringLiteral("profile-worklog-3.json"));
        MachineCodeView view;
        const QString why = QStringLiteral("No SASS: nvdisasm is not installed with this CUDA Toolkit.");
        view.setMachineCode(QStringLiteral("k"), test::readTestData("warptiled_64x64x8_4x4_sm90.ptx"), {},
                            why);
        QCOMPARE(view.level(), CodeLevel::Ptx);
        view.setProfile(&p);
        QCOMPARE(view.level(), CodeLevel::Sass);
        // What this SASS is, never "No SASS" above a SASS listing (a new user read a contradiction).
        QVERIFY2(!view.sassNote().contains(QLatin1String("No SASS")) &&
                     view.sassNote().contains(QLatin1String("profile's record")) &&
                     view.sassNote().contains(QLatin1String("nvdisasm")),
                 qPrintable(view.sassNote()));
        // Without branch labels no loop is found: the summary says why, the loop column counts nothing.
        QVERIFY2(view.summaryText().contains(QLatin1String("no labels")), qPrintable(view.summaryText()));
        auto *mix = view.findChild<QTableWidget *>();
        QVERIFY(mix && mix->rowCount() > 0);
        for (int row = 0; row < mix->rowCount(); ++row)
            QCOMPARE(mix->item(row, 1)->text(), QStringLiteral("—"));
        int sampled = 0;
        for (const protocol::ProfileInstruction &i : p.instructions)
            sampled += i.samples() > 0;
        QCOMPARE(view.editor()->lineHeat().size(), sampled);
        QVERIFY(view.shownText().contains(QLatin1String("LDG.E")));
        QVERIFY(view.shownText().contains(QLatin1String("//## File \"coalesced.cuh\"")));
        QVERIFY(!view.profileText().contains(QLatin1String("PTX has no offsets")));
        QVERIFY(
            !test::renderShot(&view, QSize(1000, 640), QStringLiteral("sass_view_from_profile")).isEmpty());
        // No profile: the PTX again, with nvdisasm's reason.
        view.setProfile(nullptr);
        QCOMPARE(view.level(), CodeLevel::Ptx);
        QVERIFY(view.sassNote().contains(QLatin1String("The PTX is shown instead.")));
    }

    // A profile before any disassembly: the table stands alone; hostile values do not break it.
    void profileWithoutCodeAndHostileValues()
    {
        MachineCodeView view;
        protocol::ProfileEvent p = test::handMadeProfile();
        p.instructions[0].sass = QStringLiteral("<b>LDS</b> R1");
        p.stallsError = QStringLiteral("Sampling failed: CUPTI_ERROR_<i>X</i>.");
        view.setProfile(&p);
        QVERIFY(view.breakdownBar()->message().contains(QLatin1String("CUPTI_ERROR_<i>X</i>")));
        QCOMPARE(view.hotInstructions()->rowCount(), p.instructions.size()); // two kernels: all rows, named
        QVERIFY(
            !test::renderShot(&view, QSize(900, 600), QStringLiteral("sass_view_profile_only")).isEmpty());
    }

    void sassFirstWithTheHotLoopsMix()
    {
        MachineCodeView view;
        view.resize(800, 600);
        view.setMachineCode(QStringLiteral("gemmscope::pipelined<128, 128, 16, 8, 16, 1> for sm_90"),
                            test::readTestData("warptiled_64x64x8_4x4_sm90.ptx"),
                            test::readTestData("pipelined_128x128x16_8x16_sm90.sass"), {});
        QCOMPARE(view.level(), CodeLevel::Sass);
        QVERIFY(view.code());
        // The tuned kernel: 16 x 8 x 16 FFMAs and 16 x 6 float4 fragment reads per k-tile.
        QCOMPARE(view.mixCount(QStringLiteral("FFMA"), true), 2048);
        QCOMPARE(view.mixCount(QStringLiteral("LDS.128"), true), 96);
        QVERIFY2(view.summaryText().contains(QStringLiteral("21.3 FFMA per shared load")),
                 qPrintable(view.summaryText()));
        QVERIFY(view.summaryText().contains(QStringLiteral("100 % of them 128-bit")));
        QVERIFY(view.shownText().contains(QStringLiteral("FFMA")));
        QVERIFY(view.message().isEmpty());

        // The cursor on an instruction names its source line and offers it to the Source tab.
        QSignalSpy spy(&view, &MachineCodeView::sourceLineRequested);
        view.setLevel(CodeLevel::Ptx);
        QCOMPARE(view.level(), CodeLevel::Ptx);
        QCOMPARE(view.mixCount(QStringLiteral("FFMA"), true), 128); // the PTX fixture is warptiled 64x64
        QVERIFY(view.shownText().contains(QStringLiteral("fma.rn.f32")));
        QVERIFY(!spy.isEmpty()); // the view opens at the hot loop, on an instruction
        QCOMPARE(spy.last().at(0).toString(), QStringLiteral("warptiled.cuh"));
        QVERIFY(spy.last().at(1).toInt() > 0);
    }

    // Without SASS (no nvdisasm, or it failed) the pane is never empty: the PTX stands in, SASS
    // cannot be chosen, and a line says why and that the PTX is shown instead (choosing
    // SASS left an empty pane under a message promising the PTX).
    void withoutSassThePtxAndTheReason()
    {
        MachineCodeView view;
        const QString why = QStringLiteral("No SASS: nvdisasm is not installed with this CUDA Toolkit.");
        view.setMachineCode(QStringLiteral("k"), test::readTestData("warptiled_64x64x8_4x4_sm90.ptx"), {},
                            why);
        QCOMPARE(view.level(), CodeLevel::Ptx);
        QCOMPARE(view.mixCount(QStringLiteral("FFMA"), true), 128);
        QVERIFY(view.sassNote().startsWith(why));
        QVERIFY(view.sassNote().contains(QStringLiteral("The PTX is shown instead.")));
        view.setLevel(CodeLevel::Sass);
        QCOMPARE(view.level(), CodeLevel::Ptx);
        QVERIFY(view.code());
        QVERIFY(view.shownText().contains(QStringLiteral("fma.rn.f32")));
        QVERIFY(view.summaryText().contains(QStringLiteral("PTX hot loop")));
        auto *combo = view.findChild<QComboBox *>();
        QVERIFY(combo);
        auto *model = qobject_cast<QStandardItemModel *>(combo->model());
        QVERIFY(model && !model->item(1)->isEnabled());
        QCOMPARE(model->item(1)->toolTip(), view.sassNote());

        // nvdisasm failed: its sentence, and the same promise kept.
        view.setMachineCode(QStringLiteral("k"), test::readTestData("warptiled_64x64x8_4x4_sm90.ptx"), {},
                            QStringLiteral("No SASS: nvdisasm failed (bad cubin)."));
        QCOMPARE(view.sassNote(),
                 QStringLiteral("No SASS: nvdisasm failed (bad cubin). The PTX is shown instead."));
        QVERIFY(!view.shownText().isEmpty());

        // SASS again: chosen, the line gone.
        view.setMachineCode(QStringLiteral("k"), test::readTestData("warptiled_64x64x8_4x4_sm90.ptx"),
                            test::readTestData("pipelined_128x128x16_8x16_sm90.sass"), {});
        QCOMPARE(view.level(), CodeLevel::Sass);
        QVERIFY(view.sassNote().isEmpty());
        QVERIFY(model->item(1)->isEnabled());
    }

    // A tensor-core kernel's hot loop is summed up by what it is for (HGMMA) and what feeds it,
    // not by FFMA per shared load.
    void tensorCoreLoopSummary()
    {
        MachineCodeView view;
        view.setMachineCode(QStringLiteral("gemmscope::wgmma_tma_tf32<256, 128, 4> for sm_90a"),
                            test::readTestData("wgmma_tma_256x128x4_sm90a.ptx"), {},
                            QStringLiteral("No SASS here."));
        view.setLevel(CodeLevel::Ptx);
        QCOMPARE(view.mixCount(QStringLiteral("HGMMA"), true), 4);
        const QString summary = view.summaryText();
        QVERIFY2(summary.contains(QStringLiteral("4 HGMMA (wgmma)")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("0 other shared loads")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("mbarrier operations")), qPrintable(summary));
        QVERIFY2(!summary.contains(QStringLiteral("FFMA")), qPrintable(summary));
    }

    void messageInsteadOfCode()
    {
        MachineCodeView view;
        QVERIFY(!view.message().isEmpty()); // says what to do before anything was asked
        view.setMessage(QStringLiteral("cuBLAS has no source to disassemble."));
        QCOMPARE(view.message(), QStringLiteral("cuBLAS has no source to disassemble."));
        QVERIFY(!view.code());
    }

    // PTX on screen is named as PTX: the class table writes the PTX instruction
    // with the SASS class it becomes, the 128-bit share is "in the PTX" with a sentence on what the
    // compiler may merge, the grey shading has a key, the table is tall enough for every class,
    // and the line under the code waits for the user to choose an instruction.
    void ptxIsNamedAsPtx()
    {
        MachineCodeView view;
        QSignalSpy title(&view, &MachineCodeView::levelNameChanged);
        view.resize(1000, 800);
        view.show();
        view.setMachineCode(QStringLiteral("k"), test::readTestData("warptiled_64x64x8_4x4_sm90.ptx"), {},
                            QStringLiteral("No SASS: nvdisasm is not installed."));
        QCOMPARE(view.levelName(), QStringLiteral("PTX"));
        QCOMPARE(title.size(), 1);
        auto *mix = view.findChild<QTableWidget *>(QStringLiteral("sassMix"));
        QVERIFY(mix && mix->rowCount() > 3);
        QStringList names;
        for (int r = 0; r < mix->rowCount(); ++r) {
            names << mix->item(r, 0)->text();
            QVERIFY2(!mix->item(r, 0)->toolTip().isEmpty(), qPrintable(mix->item(r, 0)->text()));
        }
        QVERIFY2(names.contains(QStringLiteral("fma.rn.f32 (→ FFMA)")), qPrintable(names.join(", ")));
        QVERIFY(view.mixCount(QStringLiteral("FFMA"), true) > 0); // counted by class still
        QVERIFY2(view.summaryText().contains(QStringLiteral("128-bit in the PTX")),
                 qPrintable(view.summaryText()));
        // Every class row in view: the table is at least as tall as its rows.
        int rows = mix->horizontalHeader()->height();
        for (int r = 0; r < mix->rowCount(); ++r)
            rows += mix->rowHeight(r);
        QVERIFY2(mix->height() >= rows, qPrintable(QStringLiteral("%1 < %2").arg(mix->height()).arg(rows)));
        auto *key = view.findChild<QLabel *>(QStringLiteral("sassLoopKey"));
        QVERIFY(key && key->isVisible() && key->text().contains(QStringLiteral("hot loop")));
        // Opened at the hot loop by the view: no "selected" line yet; the user's click brings it.
        QVERIFY(view.lineInfo().isEmpty());
        int chosen = view.code()->innerLoop->last; // an instruction the view did not open at
        while (chosen > view.code()->innerLoop->first && !view.code()->lines[size_t(chosen)].isInstruction)
            --chosen;
        view.editor()->setTextCursor(QTextCursor(view.editor()->document()->findBlockByNumber(chosen)));
        QVERIFY2(view.lineInfo().startsWith(QStringLiteral("At the cursor")), qPrintable(view.lineInfo()));

        view.setMachineCode(QStringLiteral("k"), test::readTestData("warptiled_64x64x8_4x4_sm90.ptx"),
                            test::readTestData("pipelined_128x128x16_8x16_sm90.sass"), {});
        QCOMPARE(view.levelName(), QStringLiteral("SASS"));
        QVERIFY(view.summaryText().contains(QStringLiteral("% of them 128-bit)")));
    }
};

QTEST_MAIN(TestMachineCodeView)
#include "tst_machine_code_view.moc"
