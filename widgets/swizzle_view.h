// What a TMA stage (TileLoadScheme::TmaSwizzled128, wgmma_tma_tf32) does instead of lane accesses:
// the two boxes the producer thread copies for one k tile (A: BM x 32 floats, BT: BN x 32) and
// where they land among the STAGES shared tiles, and the 128-byte swizzle of one 1024-byte atom
// (8 rows x 8 16-byte chunks): cells coloured by their k chunk, swizzled beside unswizzled, with
// one k chunk of the 8 rows outlined: the words the tensor core fetches together. Swizzled they
// sit in 8 different 16-byte slots (all 32 banks, conflict-free); unswizzled in one (8-way).
#pragma once

#include "access_model.h"

#include <QWidget>

namespace gemmscope {

class SwizzleView : public QWidget {
    Q_OBJECT

public:
    explicit SwizzleView(QWidget *parent = nullptr);

    void setShape(const KernelShape &shape, const AccessContext &context);
    const std::vector<TmaBox> &boxes() const { return m_boxes; }

    // The k chunk outlined in both atoms (0..7); a click on a cell picks that cell's chunk.
    void setHighlightedChunk(int chunk);
    int highlightedChunk() const { return m_chunk; }

    // Paints the whole diagram into `area` (the widget and exports share it).
    void paint(QPainter &p, const QRectF &area) const;
    // Where paint() puts cell (row, slot) of the swizzled (or plain) atom inside `area`.
    QRectF cellRect(const QRectF &area, bool swizzled, int row, int slot) const;
    // The k chunk of the cell under `pos` (widget coordinates), or -1.
    int chunkAt(const QPointF &pos) const;
    // The colour of k chunk q (the same in both atoms and the legend).
    static QColor chunkColor(int chunk);

signals:
    void highlightedChunkChanged(int chunk);

protected:
    void paintEvent(QPaintEvent *) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    QRectF atomsArea(const QRectF &area) const;
    void paintSharedStrip(QPainter &p, const QRectF &inner, const TmaBox &a, const TmaBox &bt) const;
    void paintAtom(QPainter &p, const QRectF &area, bool swizzled, const QFont &bold,
                   const QFont &small) const;
    KernelShape m_shape;
    AccessContext m_context;
    std::vector<TmaBox> m_boxes;
    int m_chunk = 0;
};

} // namespace gemmscope
