// The thread-to-tile map of one block: every output of the BM x BN block tile coloured by the
// warp that stores it, the A and B tiles beside it coloured by the warp that loads each element.
// Hover names the thread; a click selects it and highlights its outputs and what it loads.
// Side-by-side mode draws the contiguous and the strided layout of the same parameters.
#pragma once

#include "mapping_model.h"
#include "mapping_tile_geometry.h"
#include "run_view.h"

#include <QImage>
#include <QWidget>
#include <optional>

class QCheckBox;

namespace gemmscope {

class TileMapView : public QWidget, public RunView {
    Q_OBJECT

public:
    explicit TileMapView(QWidget *parent = nullptr);

    void setShape(const KernelShape &shape);
    const KernelShape &shape() const { return m_shape; }

    // Contiguous (steps 2-6) next to strided (steps 7-8) for the same BM, BN, BK, TM, TN.
    // Only register-tiled shapes have both; for the others the flag draws the single map.
    void setSideBySide(bool on);
    bool sideBySide() const { return m_sideBySide; }

    int selectedThread() const { return m_selected; } // -1 when none
    void setSelectedThread(int tid);                  // -1 clears

    // What the view draws: one panel, or two in side-by-side mode, with their shapes.
    int panelCount() const;
    KernelShape panelShape(int panel) const;
    TilePanelGeometry panelGeometry(int panel) const;

    // The tooltip at a widget position ("thread (3,1) = tid 19, warp 0, lane 19"), empty off the tiles.
    QString toolTipAt(QPointF pos) const;
    // True when cells are too small to show every element and colours are sampled.
    bool isSampled() const;

    // PNG, SVG or PDF by the extension, from the print layout (fixed size, title, key; the whole
    // tile at zoom 1); an error sentence on failure.
    std::optional<QString> exportTo(const QString &path) override;
    QString viewName() const override { return tr("the tile map"); }
    static constexpr QSize kPrintSize{1000, 760};

    // Zoom (1 = the whole tile fits; wheel or +/-) and pan (drag), about a widget point.
    void setZoom(double zoom, QPointF about = {});
    double zoom() const { return m_zoom; }
    void resetZoom();
    // What the map is of, for print titles ("Step 2: shared-memory tiling, BM=32 ...").
    void setCaption(const QString &caption) { m_caption = caption; }
    QString printTitle() const;
    // The warps the key names (one swatch per warp of the block; per warpgroup for wgmma).
    int keyWarpCount() const;
    // Tensor-core layouts (mma.sync): the A and B tiles show which lane and register of the
    // m16n8k8 fragments holds each element instead of which warp copies it in. On by default.
    void setShowFragments(bool on);
    bool showFragments() const { return m_fragments; }
    bool fragmentsApply() const;
    // The label a cell shows once zoomed in far enough ("l5 c3"), empty where none: what the
    // tests read instead of pixels.
    QString cellLabel(Operand operand, TileCell cell) const;
    // The sentence under the map explaining what colours and labels mean.
    QString noteText() const;

    static QColor selectionColor();

    QSize sizeHint() const override { return {760, 560}; }
    QSize minimumSizeHint() const override { return {240, 200}; }

signals:
    void threadSelected(int tid);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    int panelAt(QPointF pos) const;
    std::optional<int> threadAtPos(QPointF pos) const;
    // One panel: its title, its tiles (tile_map_paint.cpp) and the note under them.
    void paintPanel(QPainter &p, int panel, const TilePanelGeometry &g) const;
    void paintPanelTitle(QPainter &p, int panel, const KernelShape &s, const TilePanelGeometry &g) const;
    void paintTiles(QPainter &p, const KernelShape &s, const TilePanelGeometry &g) const;
    void paintWarpOutlines(QPainter &p, const KernelShape &s, const TilePanelGeometry &g) const;
    void paintSelectedReads(QPainter &p, const KernelShape &s, const TilePanelGeometry &g) const;
    void paintTileNames(QPainter &p, const KernelShape &s, const TilePanelGeometry &g) const;
    void paintPanelNote(QPainter &p, const TilePanelGeometry &g) const;
    void paintKey(QPainter &p, const QRectF &key) const; // tile_map_key.cpp
    void paintAll(QPainter &p, const QRectF &area, bool print) const;
    TilePanelGeometry geometryIn(int panel, const QRectF &area, bool zoomed) const;
    // The panels' area in `area`: as tall as their tiles need, the key right under it (at 1920 the
    // key stood 300 px below a square map); `area` less the key's row where the tiles fill it.
    QRectF panelsArea(const QRectF &area) const;
    QRectF keyRect(const QRectF &area) const;
    double keyEnd(const QRectF &key) const; // where the swatches (and their notes) end
    // One warp's swatch: at most 28 px, narrower where the swatches and the notes after them would
    // pass the key's right edge (24 warps cut "(16 colours repeat)" at 1440x900).
    double swatchWidth(const QRectF &key) const;
    QFont keyFont() const;
    QString keyLabel() const;
    void placeButtons();
    QImage tileImage(const KernelShape &shape, Operand operand) const;

    KernelShape m_shape;
    bool m_sideBySide = false;
    int m_selected = -1;
    double m_zoom = 1;
    QPointF m_pan;      // pixels the zoomed tiles are moved by
    QPointF m_dragFrom; // where a pan started (left button), or null
    bool m_dragged = false;
    QString m_caption;
    // Switches are check boxes over the drawing: the box says whether each is on (a push button
    // with "☐" in its text read as a button, not a switch).
    ::QCheckBox *m_sideButton = nullptr;     // "Side by side: contiguous | strided"
    ::QCheckBox *m_fragmentButton = nullptr; // "A, B: fragments" for mma.sync layouts
    bool m_fragments = true;
    void paintFragments(QPainter &p, const KernelShape &s, const TilePanelGeometry &g) const;
};

} // namespace gemmscope
