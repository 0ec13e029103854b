#include "run_against_cublas_view.h"

#include "agreement_mark.h"
#include "help_text_color.h"
#include "rich_text_label.h"
#include "run_color.h"
#include "runtime_series.h"

#include <QCoreApplication>
#include <QLabel>
#include <QPainter>
#include <QTextDocument>
#include <QVBoxLayout>
#include <cmath>
#include <tuple>

namespace gemmscope {

namespace {

constexpr int kPairHeight = 30; // two bars of 11 px and the gap under them
constexpr int kPairBar = 11;
constexpr int kLongestPair = 520; // a readable length, not the whole width of a 1920 window

// The measured rows as paired bars, the run's over cuBLAS's, each pair scaled to its larger value:
// how far apart the two are reads at a glance. Each bar wears its run's colour in the Ladder and the
// roofline (run_color.h): the stage's, cuBLAS's grey.
class PairedBars : public QWidget {
public:
    void setRows(const QList<RunFactRow> &rows, const QString &runName, const QString &cublasName,
                 const QColor &runColor, const QColor &cublasColor)
    {
        m_runColor = runColor;
        // A cuBLAS run held against another of its stage would wear the same grey: its pair's
        // second bar a shade darker, so the two still tell apart.
        m_cublasColor = cublasColor == runColor ? cublasColor.darker(160) : cublasColor;
        m_rows.clear();
        for (const RunFactRow &row : rows)
            if (row.runValue && row.cublasValue && std::max(*row.runValue, *row.cublasValue) > 0)
                m_rows << row;
        m_runName = runName;
        m_cublasName = cublasName;
        setVisible(!m_rows.isEmpty());
        updateGeometry();
        update();
    }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int) const override
    {
        return m_rows.isEmpty() ? 0 : fontMetrics().height() + 8 + int(m_rows.size()) * kPairHeight;
    }
    QSize sizeHint() const override { return {480, heightForWidth(480)}; }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        const QFontMetrics fm = fontMetrics();
        const QColor text = palette().color(QPalette::WindowText);
        int labelWidth = 0, valueWidth = 0; // the values' room after the longest bar, whole
        for (const RunFactRow &row : m_rows) {
            labelWidth = std::max(labelWidth, fm.horizontalAdvance(row.quantity));
            valueWidth =
                std::max({valueWidth, fm.horizontalAdvance(row.run), fm.horizontalAdvance(row.cublas)});
        }
        labelWidth += 12;
        valueWidth += 8;
        const int barLeft = labelWidth;
        const int barRight = std::max(barLeft + 40, std::min(width() - valueWidth, barLeft + kLongestPair));

        // The legend: which colour is which run, and how the bars are scaled.
        int x = barLeft;
        for (const auto &[color, name] :
             {std::pair{m_runColor, m_runName}, std::pair{m_cublasColor, m_cublasName}}) {
            p.fillRect(QRect(x, (fm.height() - 10) / 2, 10, 10), color);
            p.setPen(text);
            p.drawText(QRect(x + 14, 0, fm.horizontalAdvance(name) + 2, fm.height()), Qt::AlignVCenter, name);
            x += 14 + fm.horizontalAdvance(name) + 20;
        }
        const QString scale =
            QCoreApplication::translate("RunAgainstCublasView", "each pair scaled to its larger value");
        p.setPen(helpTextColor(palette()));
        p.drawText(QRect(x, 0, std::max(0, width() - x), fm.height()), Qt::AlignVCenter,
                   fm.elidedText(scale, Qt::ElideRight, std::max(0, width() - x)));

        int y = fm.height() + 8;
        for (const RunFactRow &row : m_rows) {
            p.setPen(text);
            p.drawText(QRect(0, y - 3, labelWidth, kPairHeight), Qt::AlignLeft | Qt::AlignVCenter,
                       fm.elidedText(row.quantity, Qt::ElideRight, labelWidth));
            const double top = std::max(*row.runValue, *row.cublasValue);
            int by = y;
            for (const auto &[value, shown, color] :
                 {std::tuple{*row.runValue, row.run, m_runColor},
                  std::tuple{*row.cublasValue, row.cublas, m_cublasColor}}) {
                const int w = int(std::round(value / top * (barRight - barLeft)));
                if (w > 0)
                    p.fillRect(QRect(barLeft, by, w, kPairBar), color);
                p.setPen(text);
                p.drawText(QRect(barLeft + w + 4, by - 2, valueWidth + 40, kPairBar + 4),
                           Qt::AlignLeft | Qt::AlignVCenter, shown);
                by += kPairBar + 2;
            }
            y += kPairHeight;
        }
    }

private:
    QList<RunFactRow> m_rows;
    QString m_runName, m_cublasName;
    QColor m_runColor, m_cublasColor;
};

QLabel *richLabel(const char *name)
{
    auto *label = new RichTextLabel; // rich text built here, every file-borne text escaped
    label->setObjectName(QLatin1String(name));
    return label;
}

} // namespace

RunAgainstCublasView::RunAgainstCublasView(QWidget *parent)
    : QWidget(parent), m_label(richLabel("runAgainstCublasText")), m_bars(new PairedBars),
      m_table(richLabel("runAgainstCublasTable"))
{
    setObjectName(QStringLiteral("runAgainstCublasView"));
    m_bars->setObjectName(QStringLiteral("runAgainstCublasBars"));
    // The sentence, the bars that show the distance, then the numbers with the model's column.
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_bars);
    layout->addWidget(m_table);
    refresh();
}

void RunAgainstCublasView::setTitle(const QString &title)
{
    m_title = title;
    refresh();
}

void RunAgainstCublasView::setRuns(const QList<RunRecord> &runs)
{
    m_runs = runs;
    m_cublas.rebuild(m_runs); // with the session, not at the first selection after it
    refresh();
}

void RunAgainstCublasView::takeRun(const QList<RunRecord> &runs, qsizetype index)
{
    m_runs = runs;
    // Only a cuBLAS run can change what the selected run is held against (the selected run's own
    // change comes as setSelectedRun): a sweep adding thousands of runs costs no scan each. A run
    // added before the last moves the rows the index holds.
    const bool cublas = isCublasRun(runs.at(index));
    if (cublas || index != runs.size() - 1)
        m_cublas.invalidate();
    if (m_run && cublas)
        refresh();
}

void RunAgainstCublasView::runAdded(const QList<RunRecord> &runs, qsizetype index)
{
    takeRun(runs, index);
}

void RunAgainstCublasView::runChanged(const QList<RunRecord> &runs, qsizetype index)
{
    takeRun(runs, index);
}

void RunAgainstCublasView::setSelectedRun(const QString &, const RunRecord *run)
{
    m_run = run ? std::optional<RunRecord>(*run) : std::nullopt;
    refresh();
}

void RunAgainstCublasView::refresh()
{
    const RunRecord *cublas =
        m_run ? m_cublas.nearest(*m_run, cublasStageFor(*m_run), m_runs, CublasIndex::Itself::Skipped)
              : nullptr;
    const QString label = m_run ? shortRunLabel(*m_run) : QString();
    m_facts = runAgainstCublas(m_run ? &*m_run : nullptr, cublas, label);
    const QString &runName = m_facts.runName;
    QString head;
    if (!m_title.isEmpty())
        head += QStringLiteral("<p><b>%1</b></p>").arg(m_title.toHtmlEscaped());
    head += QStringLiteral("<p>%1</p>").arg(m_facts.headline.toHtmlEscaped());
    m_label->setText(head);
    QString table;
    if (!m_facts.rows.isEmpty()) {
        table +=
            QStringLiteral("<table cellspacing='0' cellpadding='4' border='1' style='border-color:#bbb'>"
                           "<tr><th align='left'>%1</th><th>%2</th><th>%3</th><th align='left'>%4</th></tr>")
                .arg(tr("Quantity"), runName.toHtmlEscaped(), m_facts.cublasName.toHtmlEscaped(),
                     tr("The model expects"));
        for (const RunFactRow &row : m_facts.rows) {
            // Under the model's figure, whether the run's measurement agrees with it (the footnote
            // says by which rule), as the access table marks its rows.
            QString model = row.model.toHtmlEscaped();
            if (row.runAgreesWithModel)
                model += QStringLiteral("<br>%1").arg(agreementMarkHtml(*row.runAgreesWithModel));
            table += QStringLiteral(
                         "<tr><td>%1</td><td align='right'>%2</td><td align='right'>%3</td><td>%4</td></tr>")
                         .arg(row.quantity.toHtmlEscaped(), row.run.toHtmlEscaped(),
                              row.cublas.toHtmlEscaped(), model);
        }
        table += QStringLiteral("</table><p><small>%1</small></p>").arg(m_facts.footnote.toHtmlEscaped());
    }
    m_table->setText(table);
    static_cast<PairedBars *>(m_bars)->setRows(m_facts.rows, runName, m_facts.cublasName,
                                               m_run ? runColor(*m_run) : QColor(),
                                               cublas ? runColor(*cublas) : QColor());
    // Without a run the pane it sits in already says to select one: not twice.
    m_label->setVisible(m_run.has_value());
    m_table->setVisible(m_run.has_value() && !table.isEmpty());
    m_bars->setVisible(m_run.has_value() && !m_bars->isHidden());
}

QString RunAgainstCublasView::text() const
{
    QTextDocument doc;
    doc.setHtml(m_label->text() + m_table->text());
    return doc.toPlainText();
}

} // namespace gemmscope
