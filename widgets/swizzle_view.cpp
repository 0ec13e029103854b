#include "swizzle_view.h"

#include "plot_theme.h"

#include <QMouseEvent>
#include <QPainter>

namespace gemmscope {

namespace {

constexpr double kSwizzleMargin = 10;
constexpr double kHeaderHeight = 126; // title, the two box lines, the shared-memory strip
constexpr double kFooterHeight = 62;  // the legend under the atoms
constexpr double kRowLabelWidth = 44;
constexpr double kGridTitleHeight = 34; // a grid's title and its slot labels

QString kib(long long bytes)
{
    return bytes % 1024 == 0 ? QStringLiteral("%1 KiB").arg(bytes / 1024)
                             : QStringLiteral("%1 KiB").arg(double(bytes) / 1024.0, 0, 'f', 1);
}

QColor operandColor(Operand op)
{
    return op == Operand::A ? QColor(0x1f, 0x77, 0xb4) : QColor(0xd6, 0x61, 0x0b);
}

} // namespace

SwizzleView::SwizzleView(QWidget *parent) : QWidget(parent)
{
    setMinimumSize(480, 540);
    setToolTip(tr("Click a cell to outline its k chunk in both atoms"));
}

void SwizzleView::setShape(const KernelShape &shape, const AccessContext &context)
{
    m_shape = shape;
    m_context = context;
    m_boxes = tmaBoxes(shape, context);
    update();
}

void SwizzleView::setHighlightedChunk(int chunk)
{
    chunk = std::clamp(chunk, 0, kSwizzleChunks - 1);
    if (chunk == m_chunk)
        return;
    m_chunk = chunk;
    update();
    emit highlightedChunkChanged(chunk);
}

QColor SwizzleView::chunkColor(int chunk)
{
    return QColor::fromHsv((chunk * 45) % 360, 110, 240);
}

QRectF SwizzleView::atomsArea(const QRectF &area) const
{
    const QRectF inner = area.adjusted(kSwizzleMargin, kSwizzleMargin, -kSwizzleMargin, -kSwizzleMargin);
    return QRectF(inner.left(), inner.top() + kHeaderHeight, inner.width(),
                  std::max(0.0, inner.height() - kHeaderHeight - kFooterHeight));
}

QRectF SwizzleView::cellRect(const QRectF &area, bool swizzled, int row, int slot) const
{
    const QRectF atoms = atomsArea(area);
    const double half = atoms.width() / 2;
    const double cell = std::max(4.0, std::min((half - kRowLabelWidth - 12) / kSwizzleChunks,
                                               (atoms.height() - kGridTitleHeight - 20) / kSwizzleAtomRows));
    const double left = atoms.left() + (swizzled ? 0 : half) + kRowLabelWidth;
    const double top = atoms.top() + kGridTitleHeight;
    return QRectF(left + slot * cell, top + row * cell, cell, cell);
}

int SwizzleView::chunkAt(const QPointF &pos) const
{
    const auto atom = swizzle128Atom();
    for (bool swizzled : {true, false})
        for (int r = 0; r < kSwizzleAtomRows; ++r)
            for (int slot = 0; slot < kSwizzleChunks; ++slot)
                if (cellRect(rect(), swizzled, r, slot).contains(pos))
                    return swizzled ? atom[std::size_t(r)][std::size_t(slot)] : slot;
    return -1;
}

void SwizzleView::mousePressEvent(QMouseEvent *event)
{
    const int chunk = chunkAt(event->position());
    if (chunk >= 0)
        setHighlightedChunk(chunk);
    QWidget::mousePressEvent(event);
}

void SwizzleView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    paint(p, rect());
}

void SwizzleView::paint(QPainter &p, const QRectF &area) const
{
    p.save();
    p.fillRect(area, palette().color(QPalette::Base));
    const QColor text = palette().color(QPalette::WindowText);
    const QRectF inner = area.adjusted(kSwizzleMargin, kSwizzleMargin, -kSwizzleMargin, -kSwizzleMargin);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setPen(text);
    if (m_boxes.size() != 2) {
        p.drawText(inner, Qt::AlignCenter | Qt::TextWordWrap,
                   tr("This stage's tiles are not copied by TMA: there are no boxes to show."));
        p.restore();
        return;
    }
    const TmaBox &a = m_boxes[0], &bt = m_boxes[1];
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QRectF(inner.left(), inner.top(), inner.width(), 20), Qt::AlignLeft | Qt::AlignVCenter,
               tr("k tile %1 → stage %2 of %3: two TMA copies, issued by one producer thread")
                   .arg(m_context.kStep)
                   .arg(a.stage)
                   .arg(m_shape.buffers));
    p.setFont(small);
    const auto fit = [&](const QString &line) {
        return p.fontMetrics().elidedText(line, Qt::ElideRight, int(inner.width()));
    };
    const auto boxLine = [&](const TmaBox &b) {
        return fit(
            tr("%1 box: rows %2–%3, k %4–%5 = %6 x %7 floats = %8 (%9 swizzle atoms of 1 KiB) → shared "
               "byte %10")
                .arg(QString::fromStdString(b.tensor))
                .arg(b.firstRow)
                .arg(b.firstRow + b.rows - 1)
                .arg(b.firstCol)
                .arg(b.firstCol + b.cols - 1)
                .arg(b.rows)
                .arg(b.cols)
                .arg(kib(b.bytes()))
                .arg(b.atoms())
                .arg(b.sharedByte));
    };
    p.drawText(QRectF(inner.left(), inner.top() + 22, inner.width(), 16), Qt::AlignLeft | Qt::AlignVCenter,
               boxLine(a));
    p.drawText(QRectF(inner.left(), inner.top() + 38, inner.width(), 16), Qt::AlignLeft | Qt::AlignVCenter,
               boxLine(bt));

    paintSharedStrip(p, inner, a, bt);

    // The two atoms.
    for (bool swizzled : {true, false})
        paintAtom(p, area, swizzled, bold, small);

    // Legend.
    p.setPen(text);
    p.setFont(small);
    const QRectF footer(inner.left(), inner.bottom() - kFooterHeight + 8, inner.width(), kFooterHeight - 8);
    p.drawText(footer, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
               tr("A row is 32 floats = 128 bytes = 8 slots of 16 bytes; slot s holds banks 4s to 4s+3 "
                  "(labelled b4s–4s+3 where there is room). Cell colour and label: the k chunk stored there "
                  "(k%1 = floats %1–%2 of the "
                  "row). The swizzle puts chunk q of row r in slot q XOR (r mod 8). Outlined: the chunk "
                  "the tensor core reads for one k step of 8 rows; click a cell to outline its chunk.")
                   .arg(4 * m_chunk)
                   .arg(4 * m_chunk + 3));
    p.restore();
}

// One 128-byte swizzle atom, swizzled (as TMA stores it) or plain: its slots and rows, each cell in
// its k chunk's colour, the chunk the tensor core reads outlined, and what that read costs.
void SwizzleView::paintAtom(QPainter &p, const QRectF &area, bool swizzled, const QFont &bold,
                            const QFont &small) const
{
    const QColor text = palette().color(QPalette::WindowText);
    const auto atom = swizzle128Atom();
    const QRectF atoms = atomsArea(area);
    const QRectF first = cellRect(area, swizzled, 0, 0);
    const QRectF last = cellRect(area, swizzled, kSwizzleAtomRows - 1, kSwizzleChunks - 1);
    const double half = atoms.width() / 2;
    const double gridLeft = atoms.left() + (swizzled ? 0 : half);
    p.setFont(bold);
    p.setPen(text);
    p.drawText(QRectF(gridLeft, atoms.top(), half - 6, 16), Qt::AlignLeft | Qt::AlignVCenter,
               swizzled ? tr("Swizzled, as TMA stores it") : tr("Without the swizzle"));
    p.setFont(small);
    p.drawText(QRectF(gridLeft, atoms.top() + 16, kRowLabelWidth - 4, 16), Qt::AlignRight | Qt::AlignVCenter,
               tr("slot"));
    for (int slot = 0; slot < kSwizzleChunks; ++slot) {
        const QRectF c = cellRect(area, swizzled, 0, slot);
        p.drawText(QRectF(c.left(), atoms.top() + 16, c.width(), 16), Qt::AlignCenter,
                   c.width() >= 50 ? tr("b%1–%2").arg(4 * slot).arg(4 * slot + 3) : QString::number(slot));
    }
    for (int r = 0; r < kSwizzleAtomRows; ++r) {
        const QRectF c = cellRect(area, swizzled, r, 0);
        p.setPen(text);
        p.drawText(QRectF(gridLeft, c.top(), kRowLabelWidth - 4, c.height()),
                   Qt::AlignRight | Qt::AlignVCenter, tr("row %1").arg(r));
        for (int slot = 0; slot < kSwizzleChunks; ++slot) {
            const int chunk = swizzled ? atom[std::size_t(r)][std::size_t(slot)] : slot;
            const QRectF cell = cellRect(area, swizzled, r, slot);
            p.fillRect(cell, chunkColor(chunk));
            p.setPen(QPen(palette().color(QPalette::Mid), 1));
            p.drawRect(cell);
            p.setPen(QColor(0x20, 0x20, 0x20));
            if (cell.width() >= 22)
                p.drawText(cell, Qt::AlignCenter, tr("k%1").arg(4 * chunk));
        }
    }
    // The highlighted chunk of every row: what the tensor core fetches for these 4 k.
    p.setPen(QPen(text, 3));
    p.setBrush(Qt::NoBrush);
    for (int r = 0; r < kSwizzleAtomRows; ++r) {
        const int slot = swizzled ? swizzled128Chunk(r, m_chunk) : m_chunk;
        p.drawRect(cellRect(area, swizzled, r, slot).adjusted(1.5, 1.5, -1.5, -1.5));
    }
    const SharedAccess read = tensorCoreChunkRead(m_chunk, swizzled);
    p.setPen(read.conflictDegree <= 1 ? QColor(0x1a, 0x7f, 0x37) : wrongResultColor());
    p.setFont(small);
    p.drawText(QRectF(first.left() - kRowLabelWidth, last.bottom() + 2, half - 6, 32),
               Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
               swizzled ? tr("k%1–%2 of rows 0–7 in 8 different slots: all 32 banks once, 1 wavefront")
                              .arg(4 * m_chunk)
                              .arg(4 * m_chunk + 3)
                        : tr("k%1–%2 of rows 0–7 all in banks %3–%4: 8 words each, 8-way conflict")
                              .arg(4 * m_chunk)
                              .arg(4 * m_chunk + 3)
                              .arg(4 * m_chunk)
                              .arg(4 * m_chunk + 3));
}

// The block's shared tiles as one strip, in address order: STAGES A tiles, then STAGES BT tiles;
// the two this k tile fills are in their operand's colour, the rest grey.
void SwizzleView::paintSharedStrip(QPainter &p, const QRectF &inner, const TmaBox &a, const TmaBox &bt) const
{
    const QColor text = palette().color(QPalette::WindowText);
    const double stripTop = inner.top() + 62, stripHeight = 24;
    const long long total = (long long)m_shape.buffers * (a.bytes() + bt.bytes());
    const double scale = inner.width() / double(std::max(1LL, total));
    for (int part = 0; part < 2; ++part) {
        const TmaBox &b = part == 0 ? a : bt;
        for (int s = 0; s < m_shape.buffers; ++s) {
            const long long start = part == 0
                                        ? (long long)s * a.bytes()
                                        : (long long)m_shape.buffers * a.bytes() + (long long)s * bt.bytes();
            const QRectF slot(inner.left() + start * scale, stripTop, b.bytes() * scale, stripHeight);
            const bool filling = s == b.stage;
            p.fillRect(slot, filling ? operandColor(b.operand) : QColor(0xe6, 0xe6, 0xe6));
            p.setPen(QPen(palette().color(QPalette::Mid), 1));
            p.drawRect(slot);
            p.setPen(filling ? QColor(Qt::white) : text);
            if (slot.width() > 46)
                p.drawText(slot, Qt::AlignCenter,
                           QStringLiteral("%1 %2").arg(QString::fromStdString(b.tensor)).arg(s));
        }
    }
    p.setPen(text);
    p.drawText(QRectF(inner.left(), stripTop + stripHeight + 2, inner.width(), 16),
               Qt::AlignLeft | Qt::AlignTop,
               tr("Shared memory: %1 A tiles, then %1 BT tiles (%2); coloured: what this k tile fills")
                   .arg(m_shape.buffers)
                   .arg(kib(total)));
}

} // namespace gemmscope
