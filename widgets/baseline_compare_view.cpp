#include "baseline_compare_view.h"

#include "empty_state.h"
#include "help_text_color.h"
#include "run_against_cublas_view.h"
#include "run_record.h"

#include <QCoreApplication>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>
#include <cmath>

namespace gemmscope {

namespace {

constexpr int kRowHeight = 30; // two bars of 11 px and the gap under them
constexpr int kBarHeight = 11;
constexpr int kGroupGap = 10;
constexpr int kBoxMargin = 8;

QString valueText(const std::optional<double> &v)
{
    if (!v)
        return QStringLiteral("not measured");
    const double x = *v;
    return QString::number(x, 'f', std::abs(x) >= 9.95 || x == 0 ? 0 : 1) + QStringLiteral(" %");
}

// The ranked terms that cost the candidate time, one line each, at most five.
QString costLines(const CostRanking &costs)
{
    QStringList lines;
    for (const CostTerm &t : costs.terms) {
        if (t.ms <= 0 || lines.size() >= 5)
            break;
        const QString amount =
            costs.timesMeasured
                ? QStringLiteral("about %1 (%2 of its time)").arg(durationText(t.ms), shareText(t.share))
                : QStringLiteral("about %1 of its time").arg(shareText(t.share));
        QString line =
            QStringLiteral("%1. %2: %3 — %4").arg(lines.size() + 1).arg(t.name, amount, t.measured);
        if (!t.where.isEmpty())
            line += QStringLiteral(" — ") + t.where;
        lines << line;
    }
    if (lines.isEmpty())
        return {};
    return QCoreApplication::translate("BaselineCompareView", "Estimated cost in time, costliest first:") +
           QLatin1Char('\n') + lines.join(QLatin1Char('\n'));
}

bool sameShape(const protocol::ProfileEvent &a, const protocol::ProfileEvent &b)
{
    return a.size == b.size && (a.gpu.name.isEmpty() || b.gpu.name.isEmpty() || a.gpu.name == b.gpu.name);
}

} // namespace

BaselineCompareView::BaselineCompareView(QWidget *parent)
    : QWidget(parent), m_noProfileText(tr("Profile this preset to compare it with cuBLAS.")),
      m_empty(new EmptyState), m_facts(new RunAgainstCublasView), m_reference(makeReferenceNote()),
      m_headline(new QLabel), m_costs(new QLabel), m_notes(new QLabel)
{
    setObjectName(QStringLiteral("baselineCompareView"));
    m_headline->setObjectName(QStringLiteral("baselineHeadline"));
    m_headline->setTextFormat(Qt::PlainText); // names and sentences from files are data
    m_headline->setWordWrap(true);
    QFont bold = m_headline->font();
    bold.setBold(true);
    m_headline->setFont(bold);
    m_costs->setObjectName(QStringLiteral("baselineCosts"));
    m_costs->setTextFormat(Qt::PlainText);
    m_costs->setWordWrap(true);
    m_costs->setToolTip(
        tr("Each difference turned into time, as an estimate: the idle time of the unit cuBLAS keeps "
           "busiest (issue slots or a pipe) split by stall reason in proportion to the samples; extra "
           "instructions at one per busy issue cycle; shared-memory bank conflicts at one extra wavefront "
           "per SM per cycle. The terms overlap and do not add up to the difference in time."));
    m_notes->setObjectName(QStringLiteral("baselineNotes"));
    m_notes->setTextFormat(Qt::PlainText);
    m_notes->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(kBoxMargin, kBoxMargin, kBoxMargin, kBoxMargin);
    layout->addWidget(m_reference);
    layout->addWidget(m_empty);
    // What can be known without a profile, where the bars would be: the pane is not left blank.
    m_facts->setTitle(tr("What this session says without a profile"));
    layout->addWidget(m_facts);
    layout->addWidget(m_headline);
    layout->addWidget(m_costs);
    layout->addWidget(m_notes);
    layout->addStretch(1); // the bars are painted under the labels
    refresh();
}

void BaselineCompareView::setRuns(const QList<RunRecord> &runs)
{
    m_facts->setRuns(runs);
}

void BaselineCompareView::runsAboutToChange()
{
    m_facts->runsAboutToChange();
}

void BaselineCompareView::runAdded(const QList<RunRecord> &runs, qsizetype index)
{
    m_facts->runAdded(runs, index);
}

void BaselineCompareView::runChanged(const QList<RunRecord> &runs, qsizetype index)
{
    m_facts->runChanged(runs, index);
}

void BaselineCompareView::setSelectedRun(const QString &runId, const RunRecord *run)
{
    m_facts->setSelectedRun(runId, run);
    updateGeometry();
}

QColor BaselineCompareView::candidateColor()
{
    return QColor(0x1f, 0x77, 0xb4);
}

QColor BaselineCompareView::baselineColor()
{
    return QColor(0x7f, 0x7f, 0x7f);
}

void BaselineCompareView::setProfile(const protocol::ProfileEvent *profile, const QString &name)
{
    if (profile)
        m_profile = *profile;
    else
        m_profile.reset();
    m_name = name;
    refresh();
}

void BaselineCompareView::setBaseline(const protocol::ProfileEvent *baseline, const QString &name)
{
    if (baseline)
        m_baseline = *baseline;
    else
        m_baseline.reset();
    m_baselineName = name.isEmpty() ? QStringLiteral("cuBLAS") : name;
    refresh();
}

void BaselineCompareView::setNoProfileText(const QString &sentence)
{
    m_noProfileText = sentence;
    refresh();
}

void BaselineCompareView::setNoBaselineText(const QString &sentence)
{
    m_noBaselineText = sentence;
    refresh();
}

QString BaselineCompareView::headline() const
{
    return m_headline->text();
}

void BaselineCompareView::setReferenceNote(const QString &sentence)
{
    setReferenceNoteText(m_reference, sentence);
    updateGeometry();
    update();
}

QString BaselineCompareView::referenceNote() const
{
    return m_reference->isHidden() ? QString() : m_reference->text();
}

QString BaselineCompareView::costList() const
{
    return m_costs->isHidden() ? QString() : m_costs->text();
}

QString BaselineCompareView::notes() const
{
    return m_notes->isHidden() ? QString() : m_notes->text();
}

void BaselineCompareView::refresh()
{
    m_comparison = {};
    QStringList notes;
    if (!m_profile) {
        m_headline->setText(m_noProfileText);
    } else if (!m_baseline) {
        m_headline->setText(
            !m_noBaselineText.isEmpty()
                ? m_noBaselineText
                : tr("No %1 profile at %2 on %3 yet: profile %1 at this size to compare.")
                      .arg(m_baselineName, squareOrFullSizeText(m_profile->size),
                           m_profile->gpu.name.isEmpty() ? tr("this GPU") : m_profile->gpu.name));
    } else if (!sameShape(*m_profile, *m_baseline)) {
        m_headline->setText(
            tr("The %1 profile is of %2 on %3, this one of %4 on %5: only the same size on the same "
               "GPU compares. Profile %1 at %4.")
                .arg(m_baselineName, squareOrFullSizeText(m_baseline->size), m_baseline->gpu.name,
                     squareOrFullSizeText(m_profile->size), m_profile->gpu.name));
    } else {
        const QString name =
            m_name.isEmpty() ? (m_profile->stage.isEmpty() ? tr("this kernel") : m_profile->stage) : m_name;
        m_comparison = compareWithBaseline(*m_profile, *m_baseline, name, m_baselineName);
        QString head = m_comparison.largestDifference;
        if (m_comparison.rows.isEmpty())
            head = tr("Neither profile holds a limiter or a stall sample to compare.");
        else if (head.isEmpty())
            head = tr("%1 and %2 show no difference in what was measured.").arg(name, m_baselineName);
        m_headline->setText(head);
        if (!m_comparison.candidateNotes.isEmpty())
            notes << QStringLiteral("%1: %2").arg(name, m_comparison.candidateNotes);
        if (!m_comparison.baselineNotes.isEmpty())
            notes << QStringLiteral("%1: %2").arg(m_baselineName, m_comparison.baselineNotes);
    }
    m_costs->setText(costLines(m_comparison.costs));
    m_costs->setVisible(!m_comparison.rows.isEmpty() && !m_costs->text().isEmpty());
    m_notes->setText(notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!notes.isEmpty());
    // Nothing to compare: the sentence in the look every empty pane has (empty_state.h), not bold.
    const bool empty = m_comparison.rows.isEmpty();
    m_empty->setText(m_headline->text());
    m_empty->setVisible(empty);
    m_facts->setVisible(empty);
    m_headline->setVisible(!empty);
    updateGeometry();
    update();
}

int BaselineCompareView::labelsHeight(int width) const
{
    int h = 0;
    for (const QLabel *label : {m_reference, m_headline, m_costs, m_notes})
        if (!label->isHidden())
            h += label->heightForWidth(width) + 6;
    return h;
}

int BaselineCompareView::barsTop() const
{
    return kBoxMargin + labelsHeight(std::max(this->width(), 200) - 2 * kBoxMargin);
}

int BaselineCompareView::heightForWidth(int width) const
{
    const int w = std::max(width, 200) - 2 * kBoxMargin;
    if (m_comparison.rows.isEmpty()) {
        const int empty = m_empty->heightForWidth(w);
        return kBoxMargin + labelsHeight(w) + (empty > 0 ? empty : m_empty->sizeHint().height()) +
               std::max(0, m_facts->heightForWidth(w)) + kBoxMargin;
    }
    int h = kBoxMargin + labelsHeight(w);
    const int lineHeight = fontMetrics().height();
    h += lineHeight + 6; // the legend
    LimiterGroup group{};
    bool first = true;
    for (const LimiterRow &row : m_comparison.rows) {
        if (first || row.group != group)
            h += lineHeight + kGroupGap;
        group = row.group;
        first = false;
        h += kRowHeight;
    }
    return h + kBoxMargin;
}

QSize BaselineCompareView::sizeHint() const
{
    return {640, heightForWidth(640)};
}

void BaselineCompareView::paintEvent(QPaintEvent *)
{
    if (m_comparison.rows.isEmpty())
        return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm = fontMetrics();
    const QColor text = palette().color(QPalette::WindowText);
    const int left = kBoxMargin, right = width() - kBoxMargin;
    const int labelWidth = std::clamp((right - left) * 2 / 5, 120, 300);
    const int valueWidth = fm.horizontalAdvance(QStringLiteral("not measured")) + 8;
    const int barLeft = left + labelWidth + 8, barRight = std::max(barLeft + 40, right - valueWidth);
    int y = barsTop();

    // The legend: which colour is which kernel.
    const QString candidate = m_name.isEmpty() ? m_profile->stage : m_name;
    int x = barLeft;
    for (const auto &[color, label] :
         {std::pair{candidateColor(), candidate}, std::pair{baselineColor(), m_baselineName}}) {
        p.fillRect(QRect(x, y + (fm.height() - 10) / 2, 10, 10), color);
        p.setPen(text);
        const QString elided = fm.elidedText(label, Qt::ElideRight, 240);
        p.drawText(QRect(x + 14, y, fm.horizontalAdvance(elided) + 2, fm.height()), Qt::AlignVCenter, elided);
        x += 14 + fm.horizontalAdvance(elided) + 20;
    }
    y += fm.height() + 6;

    LimiterGroup group{};
    bool first = true;
    QFont bold = font();
    bold.setBold(true);
    for (const LimiterRow &row : m_comparison.rows) {
        if (first || row.group != group) {
            y += kGroupGap;
            p.setFont(bold);
            p.setPen(text);
            p.drawText(QRect(left, y, right - left, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                       limiterGroupTitle(row.group));
            p.setFont(font());
            y += fm.height();
        }
        group = row.group;
        first = false;
        // The scale is 0-100 %; a file's larger value fills the bar and says its number.
        p.setPen(text);
        p.drawText(QRect(left, y - 3, labelWidth, kRowHeight),
                   Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
                   fm.elidedText(row.label, Qt::ElideRight, labelWidth * 2));
        p.setPen(palette().color(QPalette::Mid));
        p.drawLine(barLeft, y, barLeft, y + 2 * kBarHeight + 2);
        int by = y;
        for (const auto &[value, color] :
             {std::pair{row.candidate, candidateColor()}, std::pair{row.baseline, baselineColor()}}) {
            const double share = value ? std::clamp(*value / 100.0, 0.0, 1.0) : 0.0;
            const int w = int(std::round(share * (barRight - barLeft)));
            if (w > 0)
                p.fillRect(QRect(barLeft, by, w, kBarHeight), color);
            p.setPen(value ? text : helpTextColor(palette()));
            QFont small = font();
            small.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.85));
            p.setFont(small);
            p.drawText(QRect(barLeft + w + 4, by - 2, valueWidth + 40, kBarHeight + 4),
                       Qt::AlignLeft | Qt::AlignVCenter, valueText(value));
            p.setFont(font());
            by += kBarHeight + 2;
        }
        y += kRowHeight;
    }
}

} // namespace gemmscope
