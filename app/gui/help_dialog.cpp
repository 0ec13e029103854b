#include "help_dialog.h"

#include "glossary.h"

#include "window_action.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace gemmscope {

QString shortcutsHtml(const QList<QAction *> &actions)
{
    QString rows;
    QStringList seen;
    for (const QAction *a : actions) {
        if (a->shortcuts().isEmpty() || a->text().isEmpty())
            continue;
        QString name = a->text().remove(QLatin1Char('&')).remove(QStringLiteral("…"));
        if (seen.contains(name))
            continue;
        seen << name;
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText).toHtmlEscaped();
        rows += QStringLiteral("<tr><td style='padding-right:24px'>%1</td><td><b>%2</b></td></tr>")
                    .arg(name.toHtmlEscaped(), keys.join(QStringLiteral(", ")));
    }
    return QStringLiteral("<h3>%1</h3><table>%2</table><p>%3</p>")
        .arg(QObject::tr("Keyboard shortcuts"), rows,
             QObject::tr("In the charts: the wheel zooms, a drag pans, a double click resets; a click on a "
                         "bar, point or table row selects that run in every view."));
}

QString readingGuideHtml()
{
    return QObject::tr(
        "<h3>How to read this window</h3>"
        "<p>The window has five <b>workspaces</b>, one task each (Ctrl+1 to Ctrl+5, or the tabs over "
        "the pages). The selected run and the configured stage are shared by all of them.</p>"
        "<ul>"
        "<li><b>Ladder</b> (Ctrl+1): every run of the session. The runtime chart gives each run's median "
        "time, with the worklog's published T4 time beside it where it has one; cuBLAS on the same GPU "
        "is the baseline. The roofline places each run by arithmetic intensity (FLOP per byte of DRAM "
        "traffic) and throughput under the roofs measured on the GPU: a point under the slanted roof is "
        "limited by memory bandwidth, under the flat one by compute. The table below has every number; "
        "click a column to sort.</li>"
        "<li><b>Kernel</b> (Ctrl+2): the stage configured in the parameter panel, from the analytic "
        "model: which thread owns which outputs (<i>Tile map</i>), how each warp's loads fall into 32-byte "
        "sectors (<i>Coalescing</i>, with a compare mode), shared-memory bank conflicts, the CUDA source "
        "and its diff from the previous stage, and the compiled PTX and SASS.</li>"
        "<li><b>Counters</b> (Ctrl+3): for the selected run, <i>Measured vs model</i>: the hardware counters "
        "the runner read against what the access model predicts, with a verdict and its reason.</li>"
        "<li><b>Sweep</b> (Ctrl+4): a stage's whole parameter space on a heatmap, and TFLOP/s against "
        "problem size. The embedded example's sweeps are shown where no GPU is at hand.</li>"
        "<li><b>Editor</b> (Ctrl+5): your own kernel, copied from a stage (Kernel &gt; New from Stage…) "
        "or blank, with the headers it includes read-only beside it. Its parameter block is checked as you "
        "type; Compile (Ctrl+B) and Run (Ctrl+R) there act on the kernel you edit, and nothing compiles or "
        "runs until you press them. The kernels are autosaved.</li>"
        "</ul>"
        "<p>The <b>parameter panel</b> (Alt+0 shows or hides it) picks the stage, which of its presets "
        "(named tile parameters: the worklog's, the guide's, a tuned set) the sliders take, its tile "
        "parameters and the problem size; a value the stage refuses says why beside its field. "
        "<b>Run</b> (Ctrl+R) times them once at that size (one run) and needs a GPU; <b>Compile</b> "
        "(Ctrl+B) does not. <b>Profile</b> (Ctrl+P) samples where the "
        "configured stage's time goes (stall reasons per source line, memory metrics per instruction, "
        "the limiters) and profiles cuBLAS at the same size beside it; it needs a GPU too, and never "
        "changes a timed result. Every action that is off says why in its "
        "tooltip. <b>Export</b> (Ctrl+E) writes the view you clicked last as PNG, PDF or SVG, or the "
        "results as CSV or JSON; <b>Maximise</b> (Ctrl+M) shows that view alone (in the Ladder) or its "
        "workspace without the panel.</p>"
        "<p>Measured numbers come from the runner on your GPU; <i>published</i> ones are the worklog's "
        "own T4 figures, and <i>recorded</i> ones were measured earlier (on the GPU they name), like the "
        "embedded H200 example that ships with GemmScope.</p>"
        "<p>Every measured run says how steady the GPU was: the table's <b>SM clock</b> is the clock the "
        "SMs counted while it was timed, and <b>Trust</b> reads <i>steady</i>, <i>throttled</i> (samples "
        "left out because the clock fell, e.g. at the power cap) or <i>noisy</i> (the samples' noise "
        "stayed above the target); hover it for the reason; the charts add <i>(noisy)</i>, "
        "<i>(throttled)</i> or <i>(sustained)</i> to such a run's label. The panel's <b>Timing</b> (the "
        "timing regime) chooses between a burst from an idle GPU and a sustained run at steady load; % of "
        "cuBLAS compares runs of one regime only.</p>");
}

void showHelpDialog(QWidget *window, const QString &title, const QString &html)
{
    auto *dialog = new QDialog(window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    auto *text = new QTextBrowser;
    text->setHtml(html); // our own text, written here: markup on purpose
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog->resize(640, 560);
    dialog->show();
}

void addHelpActions(QWidget *window)
{
    QObject::connect(addWindowAction(window, "actionReadingGuide", QObject::tr("&How to Read This Window"),
                                     QKeySequence::HelpContents),
                     &QAction::triggered, window, [window] {
                         showHelpDialog(window, QObject::tr("How to read this window"), readingGuideHtml());
                     });
    QObject::connect(addWindowAction(window, "actionGlossary", QObject::tr("&Glossary")), &QAction::triggered,
                     window, [window] { showHelpDialog(window, QObject::tr("Glossary"), glossaryHtml()); });
    QObject::connect(addWindowAction(window, "actionShortcuts", QObject::tr("&Keyboard Shortcuts"),
                                     QKeySequence(QObject::tr("Ctrl+/"))),
                     &QAction::triggered, window, [window] {
                         showHelpDialog(window, QObject::tr("Keyboard shortcuts"),
                                        shortcutsHtml(window->actions()));
                     });
}

} // namespace gemmscope
