#include "bank_conflict_view.h"

#include "profile_digest.h"

#include "chart_interaction.h"
#include "help_text_color.h"
#include "load_scheme.h"
#include "plot_export.h"
#include "plot_theme.h"
#include "swizzle_view.h"

#include <QComboBox>
#include <QLabel>
#include <QPainter>
#include <QSet>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace gemmscope {

namespace {

class BankCanvas : public QWidget {
public:
    explicit BankCanvas(BankConflictView *view) : QWidget(view), m_view(view) { setMinimumSize(480, 240); }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        m_view->paintAccess(p, rect());
    }

private:
    BankConflictView *m_view;
};

} // namespace

QColor BankConflictView::conflictColor()
{
    return wrongResultColor();
}

BankConflictView::BankConflictView(QWidget *parent) : QWidget(parent)
{
    m_picker = new QComboBox(this);
    m_picker->setToolTip(tr("Which shared-memory access of the warp to show"));
    connect(m_picker, &QComboBox::currentIndexChanged, this, &BankConflictView::setCurrentIndex);
    m_canvas = new BankCanvas(this);
    new ChartInteraction(m_canvas, [this](const QPointF &pos) {
        return ChartInteraction::Hit{QString(), tooltipAt(pos)};
    });
    m_swizzle = new SwizzleView(this);
    m_swizzle->setObjectName(QStringLiteral("swizzleView"));
    m_swizzle->hide();
    // The outlined chunk and the bank diagram below follow each other.
    connect(m_swizzle, &SwizzleView::highlightedChunkChanged, this, [this](int chunk) {
        if (count() > chunk && m_accesses[std::size_t(chunk)].tensorCoreRead)
            setCurrentIndex(chunk);
    });
    // Entry kSwizzleChunks is chunk 0 read unswizzled: the atoms outline chunk 0 for it. The
    // blocker keeps the outline's own signal from moving the bank diagram back to entry 0.
    connect(this, &BankConflictView::currentIndexChanged, this, [this](int index) {
        if (!m_swizzle->isHidden() && index >= 0 && index <= kSwizzleChunks) {
            const QSignalBlocker quiet(m_swizzle);
            m_swizzle->setHighlightedChunk(index < kSwizzleChunks ? index : 0);
        }
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_swizzle);
    layout->addWidget(m_picker);
    layout->addWidget(m_canvas, 1);
    m_measured = new QLabel(this);
    m_measured->setObjectName(QStringLiteral("bankMeasured"));
    m_measured->setTextFormat(Qt::PlainText); // names and errors from the profile are data
    m_measured->setWordWrap(true);
    m_measured->hide();
    layout->addWidget(m_measured);
    connect(this, &BankConflictView::currentIndexChanged, this, [this] { updateMeasured(); });
}

void BankConflictView::setProfile(const protocol::ProfileEvent *profile)
{
    setProfileDigest(profile ? digestOf(*profile) : nullptr);
}

void BankConflictView::setProfileDigest(std::shared_ptr<const ProfileDigest> profile)
{
    m_profile = std::move(profile);
    updateMeasured();
}

QString BankConflictView::measuredText() const
{
    return m_measured->isHidden() ? QString() : m_measured->text();
}

void BankConflictView::updateMeasured()
{
    const SharedAccess *a = currentAccess();
    // The tensor core's descriptor reads (wgmma) bypass the LSU pipe the metrics count.
    if (!m_profile || !a || a->tensorCoreRead) {
        m_measured->hide();
        return;
    }
    m_measured->setText(
        measuredBesideModel(m_profile->event, m_profile->memory, MemorySpace::Shared,
                            a->kind == AccessKind::Load ? MemoryDirection::Load : MemoryDirection::Store,
                            a->operand == Operand::C ? std::nullopt : std::optional<Operand>(a->operand),
                            double(a->conflictDegree)));
    m_measured->show();
}

void BankConflictView::setAccesses(const std::vector<SharedAccess> &accesses)
{
    m_accesses = accesses;
    {
        const QSignalBlocker block(m_picker);
        m_picker->clear();
        for (const SharedAccess &a : m_accesses)
            m_picker->addItem(
                QStringLiteral("%1 (%2-way)").arg(QString::fromStdString(a.label)).arg(a.conflictDegree));
    }
    m_picker->setVisible(!m_accesses.empty()); // no empty selector over the empty state
    m_pairFirst = m_pairSecond = -1;
    m_current = -1;
    setCurrentIndex(m_accesses.empty() ? -1 : 0);
    m_canvas->update();
}

void BankConflictView::setStage(const KernelShape &shape, const AccessContext &context, int warp)
{
    // The stage's load scheme says what to list: the lanes' accesses, or (TMA) the tensor core's
    // k-chunk reads under the swizzle view.
    const BankPicture picture = loadSchemeOf(shape).bankPicture(shape, context, warp);
    m_swizzle->setVisible(picture.swizzleAtoms);
    if (picture.swizzleAtoms)
        m_swizzle->setShape(shape, context);
    setAccesses(picture.accesses);
    if (picture.comparePair)
        setComparePair(picture.comparePair->first, picture.comparePair->second);
    if (picture.swizzleAtoms)
        m_swizzle->setHighlightedChunk(0);
}

void BankConflictView::setCurrentIndex(int index)
{
    const int i = (index >= 0 && index < count()) ? index : (count() > 0 ? 0 : -1);
    if (i == m_current)
        return;
    m_current = i;
    {
        const QSignalBlocker block(m_picker);
        m_picker->setCurrentIndex(i);
    }
    m_canvas->update();
    emit currentIndexChanged(i);
}

const SharedAccess *BankConflictView::currentAccess() const
{
    return m_current >= 0 ? &m_accesses[std::size_t(m_current)] : nullptr;
}

QString BankConflictView::degreeText() const
{
    const SharedAccess *a = currentAccess();
    if (!a)
        return tr("This stage makes no shared-memory access: it reads A and B straight from global memory, "
                  "so there are no banks to conflict on. Choose a tiled stage (step 2 on) to see its tiles' "
                  "bank use.");
    if (a->conflictDegree <= 1)
        return tr("Conflict-free: 1 wavefront for one request");
    return tr("%1-way conflict: %1 wavefronts for one request").arg(a->conflictDegree);
}

namespace {

// Whether a bank is asked for more words than it serves in one wavefront: for ldmatrix, more
// than one word by one matrix (its 4 matrices take a wavefront each anyway).
std::array<bool, kSharedBanks> conflictedBanks(const SharedAccess &a)
{
    std::array<bool, kSharedBanks> conflicted{};
    for (int b = 0; b < kSharedBanks; ++b)
        conflicted[std::size_t(b)] = a.distinctWordsPerBank[std::size_t(b)] > 1;
    if (a.ldmatrixMatrices > 0) {
        conflicted.fill(false);
        const int lanesPerMatrix = kWarpSize / a.ldmatrixMatrices;
        for (int m = 0; m < a.ldmatrixMatrices; ++m) {
            std::array<QSet<long long>, kSharedBanks> words;
            for (int l = m * lanesPerMatrix; l < (m + 1) * lanesPerMatrix; ++l) {
                const LaneAccess &lane = a.lanes[std::size_t(l)];
                for (long long w = lane.address; lane.active && w < lane.address + lane.bytes / kFloatBytes;
                     ++w) {
                    words[std::size_t(w % kSharedBanks)].insert(w);
                    if (words[std::size_t(w % kSharedBanks)].size() > 1)
                        conflicted[std::size_t(w % kSharedBanks)] = true;
                }
            }
        }
    }
    return conflicted;
}

// The model is of the source's 4-byte reads; say so where the compiler may differ, so that a
// profiler's numbers for the release build (LDS.128) are not read as the model being wrong.
QString loadModelNote(const SharedAccess &a)
{
    return a.tensorCoreRead
               ? BankConflictView::tr(
                     "Not lanes: the 32 words the tensor core fetches for 4 k of 8 rows (box i = row i/4, "
                     "float i%4), read by wgmma through a descriptor, outside the LSU pipe.")
           : a.ldmatrixMatrices > 0
               ? BankConflictView::tr(
                     "ldmatrix.x4: lane l names a 16-byte row (box = its first word); lanes 8i..8i+7 are "
                     "matrix i, one matrix (128 bytes) per wavefront, so 4 wavefronts at best.")
               : BankConflictView::tr(
                     "As the source writes it (one 4-byte read per lane); the normal build may merge a "
                     "thread's neighbouring reads into 16-byte LDS.128, served differently.");
}

} // namespace

void BankConflictView::paintOne(QPainter &p, const QRectF &area, const SharedAccess &access,
                                bool withNote) const
{
    p.save();
    p.fillRect(area, palette().color(QPalette::Base));
    const QColor text = palette().color(QPalette::WindowText);
    p.setPen(text);
    const QRectF inner = area.adjusted(10, 10, -10, -10);
    const SharedAccess *a = &access;
    const QString degree = a->conflictDegree <= 1
                               ? tr("Conflict-free: 1 wavefront for one request")
                               : tr("%1-way conflict: %1 wavefronts for one request").arg(a->conflictDegree);
    p.drawText(QRectF(inner.left(), inner.top(), inner.width(), 20), Qt::AlignLeft | Qt::AlignVCenter,
               QString::fromStdString(a->label) + QStringLiteral(" — ") + degree);

    double lanesTop = inner.top() + 28;
    const QString loadNote = loadModelNote(*a);
    if (a->kind == AccessKind::Load) {
        QFont note = font();
        note.setPointSizeF(note.pointSizeF() * 0.8);
        p.setFont(note);
        p.setPen(helpTextColor(palette()));
        p.drawText(QRectF(inner.left(), inner.top() + 20, inner.width(), 16),
                   Qt::AlignLeft | Qt::AlignVCenter, loadNote);
        p.setFont(font());
        p.setPen(text);
        lanesTop += 14;
    }
    const double colW = inner.width() / kWarpSize;
    const QRectF lanes(inner.left(), lanesTop, inner.width(), 20);
    const double barsBottom = inner.bottom() - 20;
    const QRectF banks(inner.left(), barsBottom - std::max(60.0, inner.height() * 0.35), inner.width(), 0);
    const double barTop = banks.top();
    const int scale = std::max(8, a->conflictDegree);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    p.setFont(small);

    for (int l = 0; l < kWarpSize; ++l) {
        const QRectF box(lanes.left() + l * colW + 1, lanes.top(), colW - 2, lanes.height());
        const bool active = a->lanes[std::size_t(l)].active;
        p.fillRect(box, active ? warpColor(a->warp) : QColor(0xe6, 0xe6, 0xe6));
        if (colW >= 16) {
            p.setPen(active ? QColor(Qt::white) : text);
            p.drawText(box, Qt::AlignCenter, QString::number(l));
        }
    }
    const std::array<bool, kSharedBanks> conflicted = conflictedBanks(*a);
    // Lines lane -> bank; red where the bank serves more than one word.
    p.setRenderHint(QPainter::Antialiasing, true);
    for (int l = 0; l < kWarpSize; ++l) {
        const int bank = a->bankOfLane[std::size_t(l)];
        if (bank < 0)
            continue;
        const bool conflict = conflicted[std::size_t(bank)];
        QColor c = conflict ? conflictColor() : warpColor(a->warp);
        c.setAlpha(160);
        p.setPen(QPen(c, 1));
        p.drawLine(QPointF(lanes.left() + (l + 0.5) * colW, lanes.bottom()),
                   QPointF(banks.left() + (bank + 0.5) * colW, barTop));
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    // Bars: distinct words per bank.
    const double barSpace = barsBottom - barTop;
    for (int b = 0; b < kSharedBanks; ++b) {
        const int words = a->distinctWordsPerBank[std::size_t(b)];
        const double h = barSpace * std::clamp(double(words) / scale, 0.0, 1.0);
        const QRectF bar(banks.left() + b * colW + 1, barsBottom - h, colW - 2, h);
        p.fillRect(bar, conflicted[std::size_t(b)] ? conflictColor() : QColor(0x2c, 0xa0, 0x2c));
        p.setPen(QPen(palette().color(QPalette::Mid), 0));
        p.drawRect(QRectF(banks.left() + b * colW + 1, barTop, colW - 2, barSpace));
        p.setPen(text);
        if (colW >= 14)
            p.drawText(QRectF(banks.left() + b * colW, barsBottom + 2, colW, 16),
                       Qt::AlignHCenter | Qt::AlignTop, QString::number(b));
    }
    // The scale: a line at every word count up to the scale (1 word = one wavefront).
    p.setPen(QPen(palette().color(QPalette::Mid), 0, Qt::DotLine));
    for (int w = 1; w <= scale; w *= 2) {
        const double y = barsBottom - barSpace * double(w) / scale;
        p.drawLine(QPointF(banks.left(), y), QPointF(banks.right(), y));
    }
    p.setPen(text);
    p.drawText(
        QRectF(inner.left(), barTop - 18, inner.width(), 16), Qt::AlignLeft,
        a->ldmatrixMatrices > 0
            ? tr("banks: bar = distinct words asked of the bank by all 4 matrices (full height = %1); "
                 "red: one matrix asks it for 2 or more")
                  .arg(scale)
            : tr("banks: bar = distinct 4-byte words asked of the bank (full height = %1); the tallest "
                 "is the degree")
                  .arg(scale));
    if (withNote && !m_note.isEmpty()) {
        p.setFont(small);
        p.drawText(QRectF(inner.left(), barsBottom + 16, inner.width(), inner.bottom() - barsBottom),
                   Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_note);
    }
    p.restore();
}

void BankConflictView::paintAccess(QPainter &p, const QRectF &area) const
{
    const SharedAccess *a = currentAccess();
    if (!a) {
        p.save();
        p.fillRect(area, palette().color(QPalette::Base));
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(area.adjusted(10, 10, -10, -10), Qt::AlignCenter | Qt::TextWordWrap, degreeText());
        p.restore();
        return;
    }
    if (!showingPair()) {
        paintOne(p, area, *a, true);
        return;
    }
    // The pair side by side (stacked): unpadded above, padded below, on their own scales.
    const double noteHeight = m_note.isEmpty() ? 0 : 64;
    const double half = (area.height() - noteHeight) / 2;
    paintOne(p, QRectF(area.left(), area.top(), area.width(), half), m_accesses[std::size_t(m_pairFirst)],
             false);
    paintOne(p, QRectF(area.left(), area.top() + half, area.width(), half),
             m_accesses[std::size_t(m_pairSecond)], false);
    if (!m_note.isEmpty()) {
        p.save();
        QFont small = font();
        small.setPointSizeF(small.pointSizeF() * 0.8);
        p.setFont(small);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRectF(area.left() + 10, area.bottom() - noteHeight, area.width() - 20, noteHeight),
                   Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_note);
        p.restore();
    }
}

void BankConflictView::setComparePair(int first, int second)
{
    const bool valid = first >= 0 && second >= 0 && first < count() && second < count() && first != second;
    m_pairFirst = valid ? first : -1;
    m_pairSecond = valid ? second : -1;
    m_canvas->setMinimumHeight(showingPair() ? 480 : 240);
    m_canvas->update();
}

bool BankConflictView::showingPair() const
{
    return m_pairFirst >= 0 && (m_current == m_pairFirst || m_current == m_pairSecond);
}

QString BankConflictView::tooltipAt(const QPointF &pos) const
{
    const SharedAccess *a = currentAccess();
    if (!a)
        return {};
    const QRectF inner = QRectF(QPointF(0, 0), QSizeF(m_canvas->size())).adjusted(10, 10, -10, -10);
    const double colW = inner.width() / kWarpSize;
    const int column = int((pos.x() - inner.left()) / colW);
    if (column < 0 || column >= kWarpSize || pos.y() < inner.top() + 20)
        return {};
    const double lanesBottom = inner.top() + 28 + (a->kind == AccessKind::Load ? 14 : 0) + 20;
    if (pos.y() <= lanesBottom) {
        const LaneAccess &l = a->lanes[std::size_t(column)];
        if (!l.active)
            return tr("lane %1: inactive").arg(column);
        if (a->tensorCoreRead)
            return tr("word %1 of the tensor core's fetch (row %2, float %3 of the chunk) is word %4 of the "
                      "tile → bank %5 (%4 mod 32)")
                .arg(column)
                .arg(column / 4)
                .arg(column % 4)
                .arg(l.address)
                .arg(a->bankOfLane[std::size_t(column)]);
        return tr("lane %1 = thread %2 asks for word %3 → bank %4 (%3 mod 32)")
            .arg(column)
            .arg(l.thread)
            .arg(l.address)
            .arg(a->bankOfLane[std::size_t(column)]);
    }
    QStringList words, lanes;
    for (int l = 0; l < kWarpSize; ++l)
        if (a->bankOfLane[std::size_t(l)] == column) {
            lanes << QString::number(l);
            const QString w = QString::number(a->lanes[std::size_t(l)].address);
            if (!words.contains(w))
                words << w;
        }
    if (lanes.isEmpty())
        return tr("bank %1: no lane asks it for anything").arg(column);
    return tr("bank %1: %n distinct word(s) (%2) for lanes %3 — %n wavefront(s)", nullptr, int(words.size()))
        .arg(column)
        .arg(words.join(QStringLiteral(", ")), lanes.join(QStringLiteral(", ")));
}

int BankConflictView::barScale() const
{
    const SharedAccess *a = currentAccess();
    return std::max(8, a ? a->conflictDegree : 1);
}

double BankConflictView::barShare(int words) const
{
    return std::clamp(double(words) / barScale(), 0.0, 1.0);
}

void BankConflictView::setNote(const QString &note)
{
    m_note = note;
    m_canvas->update();
}

QString BankConflictView::printTitle() const
{
    QString title = tr("Bank conflicts");
    if (!m_caption.isEmpty())
        title += QStringLiteral(": ") + m_caption;
    if (const SharedAccess *a = currentAccess())
        title += QStringLiteral(" — ") + QString::fromStdString(a->label);
    return title;
}

std::optional<QString> BankConflictView::exportTo(const QString &path)
{
    // A TMA stage's view shows its copies and the swizzle above the bank diagram: so does the
    // export (isHidden, not isVisible: a view exported headless was never shown).
    const bool swizzle = !m_swizzle->isHidden();
    const double swizzleHeight = swizzle ? m_swizzle->minimumHeight() : 0;
    return exportPainted(
        path, QSize(1100, 560 + int(swizzleHeight)), printTitle(), [&](QPainter &p, const QRectF &page) {
            QRectF body = paintPrintTitle(p, page, printTitle());
            if (swizzle) {
                m_swizzle->paint(p, QRectF(body.topLeft(), QSizeF(body.width(), swizzleHeight)));
                body.setTop(body.top() + swizzleHeight);
            }
            paintAccess(p, body);
        });
}

} // namespace gemmscope
