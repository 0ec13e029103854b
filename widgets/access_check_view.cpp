#include "access_check_view.h"

#include <QPainter>
#include <QTextDocument>

#include "access_model.h"
#include "agreement_mark.h"
#include "help_text_color.h"
#include "jargon_text.h"
#include "load_scheme.h"
#include "mapping_model.h"
#include "plot_export.h"
#include "rich_text_label.h"
#include "runtime_series.h"
#include "stage_catalog.h"

#include <QJsonObject>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>
#include <cmath>

namespace gemmscope {

namespace {

QString number(double v)
{
    return QString::number(v, 'f', 2);
}

// `quiet`: the help text's colour (help_text_color.h), for the verdicts that say nothing was compared.
QString verdictHtml(AccessCheckView::Verdict v, const QColor &quiet)
{
    switch (v) {
    case AccessCheckView::Verdict::Agrees:
        return agreementMarkHtml(true);
    case AccessCheckView::Verdict::Differs:
        return agreementMarkHtml(false);
    case AccessCheckView::Verdict::AboveModel:
        // Blue: a known excess, told apart at a glance from the amber of "not comparable"
        // (in one colour the two read as one).
        return QStringLiteral("<span style='color:#0a58ca'>&#9650; above the model</span>");
    case AccessCheckView::Verdict::NotCompared:
        // Marked, in amber: the numbers differ for a reason the note gives, not unflagged.
        return QStringLiteral("<span style='color:#9a6700'>&#8800; not comparable</span>");
    case AccessCheckView::Verdict::NoAccess:
        return QStringLiteral("<span style='color:%1'>no such access</span>").arg(quiet.name());
    case AccessCheckView::Verdict::NotObservable:
        return QStringLiteral("<span style='color:%1'>not observable by these counters</span>")
            .arg(quiet.name());
    }
    return {};
}

} // namespace

AccessCheckView::AccessCheckView(QWidget *parent) : QWidget(parent)
{
    m_label = new RichTextLabel; // a table laid out once per width, not at each layout's question
    // Its rows count in sectors and wavefronts: what those are, as the glossary says it.
    // Its heading names the build: what that is too.
    m_label->setToolTip(QStringLiteral("<p><b>%1</b> %2</p><p><b>%3</b> %4</p><p>%5</p>")
                            .arg(tr("Sectors:"), jargon::sector().toHtmlEscaped(), tr("Wavefronts:"),
                                 jargon::wavefront().toHtmlEscaped(), jargon::normalBuild().toHtmlEscaped()));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_label);
    layout->addStretch(1);
    setRun(std::nullopt);
}

QString AccessCheckView::headline() const
{
    return m_headline;
}

void AccessCheckView::showMessage(const QString &text)
{
    m_headline = text;
    m_footnote.clear();
    m_rows.clear();
    render();
}

namespace {

// Why a run cannot be compared with the model, in one sentence; empty when it can.
QString reasonWithoutComparison(const std::optional<RunRecord> &run)
{
    if (!run)
        return AccessCheckView::tr("Select a run to compare the access model with the hardware counters it "
                                   "measured (counters are on by default in the Measurement settings).");
    const StageInfo *stage = findStage(run->stage.key());
    if (!stage || stage->isLibrary)
        return AccessCheckView::tr("%1 has no access model: cuBLAS chooses its own kernels.")
            .arg(run->stageKey());
    if (!run->isOk())
        return AccessCheckView::tr("The run of stage %1 did not finish, so there are no counters to compare.")
            .arg(shortRunLabel(*run));
    if (const QString refusal = catalogRefusal(*run); !refusal.isEmpty()) // from a damaged file
        return AccessCheckView::tr("Stage %1 has no access model: %2").arg(shortRunLabel(*run), refusal);
    if (run->origin == QLatin1String("worklog"))
        return AccessCheckView::tr(
                   "The time of stage %1 is a number published in the worklog (measured on its author's T4): "
                   "there never were counters to compare. Run the same preset on this GPU "
                   "with Hardware counters on (Measurement settings) to compare the model "
                   "with what the hardware did.")
            .arg(shortRunLabel(*run));
    if (!run->counters)
        return AccessCheckView::tr(
                   "This run of stage %1 was made without hardware counters. Turn them on in the Measurement "
                   "settings and run it again.")
            .arg(shortRunLabel(*run));
    if (run->counters->hasError())
        return AccessCheckView::tr("This run of stage %1 could not read hardware counters: %2")
            .arg(shortRunLabel(*run), run->counters->error);
    if (!run->counters->access)
        return AccessCheckView::tr(
                   "This run of stage %1 was measured before GemmScope read access counters (it has the "
                   "roofline's only). Run it again to compare.")
            .arg(shortRunLabel(*run));
    return {};
}

struct Quantity {
    QString label;
    double model = 0;
    std::optional<double> measured;
    bool isCount = false, sharedRead = false, sharedStore = false;
    QString note = {};          // where the model's value comes from, when it is not the plain lane accesses
    bool notComparable = false; // the counter does not count what the model does: shown, not judged
};

// ldmatrix stages: on the H200 (docs/benchmarks.md) smsp__inst_executed_op_shared_ld
// read 1.40 x the kernel's LDSM + LDS (28 per warp and k-step, not 4 + 16), while the wavefronts
// matched the model within 0.2 %. The k loop's SASS also holds 144 `@!PT LDS RZ, [RZ]`
// placeholders ptxas puts among the cp.async copies (predicate never true: no data, no wavefront),
// which an issued-instruction counter counts: consistent with the 32 extra per warp and k tile,
// though not proven instruction by instruction. Ratios over that count are no bank check; the
// wavefront total is.
const char *const kLdmatrixCounting =
    "the instruction counter reads 1.40 x the LDSM + LDS issued (H200), likely ptxas's never-true "
    "\"@!PT LDS RZ, [RZ]\" placeholders beside the cp.async copies, so this is not the bank check: "
    "the wavefront total below is";

// How one quantity's model and measurement are judged, given whether the launch compares at all
// (every block full) and how the binary's shared reads relate to the source's.
struct Judgement {
    bool exact = false;
    bool readsMerged = false;        // fewer, wider shared reads than the source's
    std::optional<double> readsKept; // the share of the source's shared reads the binary issued
    const CounterNotes &notes;
    bool mergedSaid = false; // the merged reads' note given on a row already
};

AccessCheckView::Row judged(const Quantity &q, Judgement &j)
{
    AccessCheckView::Row row;
    row.quantity = q.label;
    row.model = q.model;
    row.measured = q.measured;
    row.isCount = q.isCount;
    row.note = q.note;
    if (q.model == 0 && (!row.measured || *row.measured == 0)) {
        row.verdict = AccessCheckView::Verdict::NoAccess;
    } else if (!row.measured && q.sharedStore && !j.notes.sharedStoresUncounted.empty()) {
        row.verdict = AccessCheckView::Verdict::NotObservable;
        row.note = QString::fromStdString(j.notes.sharedStoresUncounted);
    } else if (!row.measured) {
        row.verdict = AccessCheckView::Verdict::Differs;
        row.note = AccessCheckView::tr("the model expects this access; the kernel made none");
    } else if (!j.exact) {
        row.verdict = AccessCheckView::Verdict::NotCompared;
        row.note = AccessCheckView::tr("edge blocks: see above");
    } else if (q.notComparable) {
        row.verdict = AccessCheckView::Verdict::NotCompared;
    } else if (q.sharedRead && j.readsMerged && j.mergedSaid) {
        // Said once, on the first such row (not the same four lines twice).
        row.verdict = AccessCheckView::Verdict::NotCompared;
        row.note = AccessCheckView::tr("the same merged reads as above");
    } else if (q.sharedRead && j.readsMerged) {
        // Not the accesses the model describes: say how far from them the binary is.
        row.verdict = AccessCheckView::Verdict::NotCompared;
        j.mergedSaid = true;
        row.note =
            j.readsKept
                ? AccessCheckView::tr(
                      "the binary issued %1 % of the source's 4-byte reads: the compiler merged "
                      "them into wider loads (LDS.64/LDS.128); to compare, tick \"Shared reads as "
                      "written\" in the parameter panel's Measurement settings (Alt+0 shows the panel) and "
                      "run again")
                      .arg(*j.readsKept * 100, 0, 'f', 1)
                : AccessCheckView::tr(
                      "normal build: the compiler may merge reads into LDS.128; to compare, tick \"Shared "
                      "reads as written\" in the parameter panel's Measurement settings (Alt+0 shows the "
                      "panel) and run again");
    } else if (agreesWithModel(*row.measured, q.model)) {
        row.verdict = AccessCheckView::Verdict::Agrees;
    } else {
        row.verdict = AccessCheckView::Verdict::Differs;
        if (q.sharedStore && *row.measured > q.model) {
            // Measured on the H200 (docs/gpu-verification.md): every kernel's store wavefronts equal
            // the model at one block per SM; the excess comes with global-load traffic beside them.
            row.verdict = AccessCheckView::Verdict::AboveModel;
            row.note =
                AccessCheckView::tr("the addresses need %1 per instruction; the rest is L1 contention beside "
                                    "global loads, which this counter counts and the address model does not")
                    .arg(number(q.model));
        }
    }
    return row;
}

// The table's headline: the run by its stage's short name, as the charts and tables show it ("3"),
// not its id ("12e7-4"); where the tiles do not divide its size, why the ratios are not compared and at which
// size (`tiled`) they would be.
QString headlineOf(const RunRecord &run, bool exact, const KernelShape &kernel, const ProblemSize &tiled)
{
    // The stage as the tables name it ("Coalesced cooperative loads"), not its preset's key
    // ("worklog-3", "cublas_fp32"), which no other view shows.
    QStringList what{runStageTitleText(run)};
    if (const QString params = formatRunParams(run); !params.isEmpty())
        what << params;
    QString headline =
        AccessCheckView::tr("Stage %1: %2 at %3 on %4, %5")
            .arg(shortRunLabel(run), what.join(QStringLiteral(", ")), run.sizeText(), run.gpuName,
                 // In the parameter panel's words (the tooltip says what each is): "release build" was
                 // a word of the build system to a no-context reviewer.
                 run.scalarSharedReads ? AccessCheckView::tr("shared reads as written (scalar build)")
                                       : AccessCheckView::tr("normal build"));
    if (!exact)
        // Once for the table, with what would make the comparison possible.
        headline += AccessCheckView::tr(
                        ". The ratios are not compared: %1 is not a multiple of the %2 x %3 block "
                        "tile, so the counters include edge blocks whose bounds-checked lanes the model's "
                        "interior block does not have. Run at %4 (the tiles divide it) to compare.")
                        .arg(run.sizeText())
                        .arg(kernel.bm)
                        .arg(kernel.bn)
                        .arg(squareOrFullSizeText(tiled));
    return headline;
}

// What the model and the measurement are, and what agreeing means.
QString footnoteOf(bool exact)
{
    return AccessCheckView::
        tr("Model: one interior block, per warp instruction, from the stage's own addresses%1; the counts "
           "are "
           "that block's times the grid. Measured: CUPTI over one whole launch. Agreement: within %2\u00a0%.")
            .arg(exact ? QString()
                       : AccessCheckView::tr(" (the tiles do not divide this size, so edge blocks differ)"))
            .arg(AccessCheckView::kTolerance * 100, 0, 'f', 0);
}

// The whole launch's request and instruction counts, the source's beside the counters'.
void appendLaunchCounts(QList<Quantity> &quantities, const protocol::Counters &counters,
                        const KernelInstructionCounts &source, std::optional<double> readsIssued,
                        const KernelShape &kernel, bool transposes, const CounterNotes &notes)
{
    quantities.append({AccessCheckView::tr("Global load requests (whole launch)"), double(source.globalLoads),
                       counters.metric(QStringLiteral("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")),
                       true});
    quantities.append({AccessCheckView::tr("Global store requests"), double(source.globalStores),
                       counters.metric(QStringLiteral("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum")),
                       true});
    quantities.append({AccessCheckView::tr("Shared read instructions"), double(source.sharedLoads),
                       readsIssued, true, true});
    quantities.append({AccessCheckView::tr("Shared store instructions"), double(source.sharedStores),
                       counters.metric(QStringLiteral("smsp__inst_executed_op_shared_st.sum")), true});
    if (kernel.ldmatrixA) {
        quantities[quantities.size() - 2].note = AccessCheckView::tr(kLdmatrixCounting);
        quantities[quantities.size() - 2].notComparable = true;
    }
    if (transposes)
        for (int i = quantities.size() - 4; i < quantities.size(); ++i)
            quantities[i].note =
                !notes.kernelOwnSharedCount.empty() && i >= quantities.size() - 2
                    ? AccessCheckView::tr("the B transpose's %1; %2")
                          .arg(QLocale(QLocale::English).toString(source.transpose.sharedLoads),
                               QString::fromStdString(notes.kernelOwnSharedCount))
                    : AccessCheckView::tr("includes the B transpose's %1")
                          .arg(QLocale(QLocale::English).toString(source.transpose.globalLoads));
}

} // namespace

void AccessCheckView::setRun(const std::optional<RunRecord> &run)
{
    if (const QString reason = reasonWithoutComparison(run); !reason.isEmpty())
        return showMessage(reason);
    const protocol::Counters &counters = *run->counters;
    const protocol::AccessCounters &access = *counters.access;

    const KernelShapeResult shape = kernelShape(findStage(run->stage.key())->id, paramValuesOf(*run));
    if (!shape.shape)
        return showMessage(
            tr("No access model for these parameters: %1").arg(QString::fromStdString(shape.error)));

    // The model draws one interior block; when the tiles divide the problem every block is one,
    // otherwise the edge blocks (bounds-checked lanes) make the kernel-wide value differ a little.
    AccessContext context;
    context.size = ProblemSize{run->m, run->n, run->k};
    const bool exact = accessContextError(*shape.shape, context).empty();
    if (!exact)
        context.size = roundedUpToTiles(*shape.shape, context.size);
    // Where every block is full, the launch's own totals: the same ratios as one block for the
    // kernel alone, and they include the B transpose a wgmma stage runs in the same launch.
    const AccessSummary model =
        exact ? *summarizeLaunch(*shape.shape, context.size) : summarizeBlock(*shape.shape, context);
    const KernelShape &kernel = *shape.shape;
    // What the stage's load scheme says beside the numbers (TMA: copies and reads no counter sees).
    const CounterNotes notes = loadSchemeOf(kernel).counterNotes(kernel, context);
    const auto text = [](const std::string &s) { return QString::fromStdString(s); };
    const bool transposes = findStage(run->stage.key())->transposedB;

    // Whole-launch instruction counts (exact when every block is full) tell whether the binary
    // issues the source's 4-byte shared reads or fewer, wider ones the compiler merged them into.
    const std::optional<KernelInstructionCounts> counts =
        exact ? kernelInstructionCounts(*shape.shape, context.size) : std::nullopt;
    const KernelInstructionCounts source = counts.value_or(KernelInstructionCounts{});
    const std::optional<double> readsIssued =
        counters.metric(QStringLiteral("smsp__inst_executed_op_shared_ld.sum"));
    // The share of the source's shared reads the binary issued: 1 when it kept them as written.
    std::optional<double> readsKept;
    if (source.sharedLoads > 0 && readsIssued)
        readsKept = *readsIssued / double(source.sharedLoads);
    // The tensor-core stages' reads cannot be merged (ldmatrix already reads 16 bytes a lane; a
    // lane's B words are rows apart; the transpose's reads are a column of its tile): as written.
    const bool readsAsWritten =
        readsKept ? std::abs(*readsKept - 1.0) <= 0.01
                  : run->scalarSharedReads || kernel.ldmatrixA || notes.sharedReadsAsWritten;
    const bool readsMerged = !readsAsWritten && (!readsKept || *readsKept < 1.0); // fewer, wider reads

    QList<Quantity> quantities{
        {tr("Global loads: sectors per request"), model.globalLoads.perRequest(),
         access.globalLdSectorsPerRequest},
        {tr("Global stores: sectors per request"), model.storeC.perRequest(),
         access.globalStSectorsPerRequest},
        {tr("Shared reads: wavefronts per instruction"), model.sharedLoads.perRequest(),
         access.sharedLdWavefrontsPerRequest, false, true},
        {tr("Shared stores: wavefronts per instruction"), model.sharedStores.perRequest(),
         access.sharedStWavefrontsPerRequest, false, false, true},
    };
    if (notes.explainsPerRequest()) {
        for (int i = 0; i < 4; ++i)
            quantities[i].note = text(notes.perRequest[std::size_t(i)]);
    } else if (kernel.ldmatrixA) {
        // Per warp and k-step of 8: WM/16 ldmatrix.x4 of 4 wavefronts, 2 WN/8 B reads of 1.
        const int ldmatrix = kernel.wm / 16, bReads = 2 * (kernel.wn / 8);
        quantities[2].note = tr("%1 ldmatrix.x4 × 4 wavefronts + %2 32-bit B reads × 1 per warp k-step = "
                                "%3 / %4; %5")
                                 .arg(ldmatrix)
                                 .arg(bReads)
                                 .arg(4 * ldmatrix + bReads)
                                 .arg(ldmatrix + bReads)
                                 .arg(tr(kLdmatrixCounting));
        quantities[2].notComparable = true;
    }
    if (counts && readsIssued) // runs recorded before the counts were read have no rows for them
        appendLaunchCounts(quantities, counters, source, readsIssued, kernel, transposes, notes);
    // The bank behaviour as a total, where the per-instruction ratio cannot carry it (ldmatrix).
    if (kernel.ldmatrixA && exact)
        quantities.append(
            {tr("Shared read wavefronts (whole launch)"), double(model.sharedLoads.sectors),
             counters.metric(QStringLiteral("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")), true,
             false, false, tr("the bank check: ldmatrix.x4 and B reads conflict-free (padded rows)")});
    m_rows.clear();
    Judgement judgement{exact, readsMerged, readsKept, notes};
    for (const Quantity &q : quantities)
        m_rows.append(judged(q, judgement));
    // What the scheme does that no counter sees (TMA: its copies and the tensor core's reads): stated,
    // and said to be out of reach.
    for (const CounterNotes::Row &unobserved : notes.unobserved) {
        Row row;
        row.quantity = text(unobserved.quantity);
        row.modelText = text(unobserved.model);
        row.verdict = Verdict::NotObservable;
        row.note = text(unobserved.note);
        m_rows.append(row);
    }
    m_headline = headlineOf(*run, exact, kernel, context.size);
    m_footnote = footnoteOf(exact);
    render();
}

void AccessCheckView::render()
{
    QString html = QStringLiteral("<p><b>%1</b></p>").arg(m_headline.toHtmlEscaped());
    if (!m_rows.isEmpty()) {
        html +=
            QStringLiteral("<table cellspacing='0' cellpadding='4' border='1' style='border-color:#bbb'>"
                           "<tr><th align='left'>%1</th><th>%2</th><th>%3</th><th align='left'>%4</th></tr>")
                .arg(tr("Quantity"), tr("Model"), tr("Measured"), tr("Agreement"));
        for (const Row &row : m_rows) {
            const auto format = [&row](double v) {
                return row.isCount ? QLocale(QLocale::English).toString(qlonglong(std::llround(v)))
                                   : number(v);
            };
            const QString measured = row.measured ? format(*row.measured) : QStringLiteral("—");
            const QString model = !row.modelText.isEmpty() ? row.modelText.toHtmlEscaped()
                                  : row.model > 0          ? format(row.model)
                                                           : QStringLiteral("—");
            QString verdict = verdictHtml(row.verdict, helpTextColor(palette()));
            if (!row.note.isEmpty())
                verdict += QStringLiteral("<br>%1").arg(row.note.toHtmlEscaped()); // as large as the figures
            html += QStringLiteral(
                        "<tr><td>%1</td><td align='right'>%2</td><td align='right'>%3</td><td>%4</td></tr>")
                        .arg(row.quantity.toHtmlEscaped(), model, measured, verdict);
        }
        html += QStringLiteral("</table><p><small>%1</small></p>").arg(m_footnote.toHtmlEscaped());
    }
    m_label->setText(html);
}

std::optional<QString> AccessCheckView::exportTo(const QString &path)
{
    // The print layout: a title, then the same table as on screen, laid out for the page width.
    const QString title = tr("Counters: the access model against the hardware");
    const QString html = m_label->text();
    return exportPainted(path, QSize(1000, 700), title, [&](QPainter &p, const QRectF &page) {
        const QRectF body = paintPrintTitle(p, page, title).adjusted(16, 0, -16, 0);
        QTextDocument doc;
        doc.setDefaultFont(font());
        doc.setHtml(html);
        doc.setTextWidth(body.width());
        p.save();
        p.translate(body.topLeft());
        doc.drawContents(&p, QRectF(QPointF(0, 0), body.size()));
        p.restore();
    });
}

} // namespace gemmscope
