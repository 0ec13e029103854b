// Where the roofline's texts go, computed from what the chart draws without QCustomPlot: the ridges'
// names, the memory levels' names beside their lines, the note that counters are missing, and each
// run's short label (markers too close to tell apart share one list, a line a place, each line tied
// to its marker by a leader; markers on each other are one place, named together). The rules a
// single text keeps are roofline_label_placer.h's; this scene decides what is asked of it.
// Placing is the costliest part of a replot: a LabelScene keeps what it placed last and the data it
// placed it for (numbers, not their formatted text), so a replot that changed nothing places nothing.
#pragma once

#include "roofline_scene.h"

#include <QMargins>
#include <QStringList>
#include <optional>

namespace gemmscope::roofline_scene {

// A ridge's name at its dot ("ridge 15.32 FLOP/B"), or a memory level's name beside its diagonal.
struct RidgeText {
    QString text;
    double intensity = 0, tflops = 0; // the ridge: (peak / bandwidth, peak)
    bool labelled = true;             // false: the legend names it (a datasheet ridge beside a measured one)
    double levelBandwidth = 0;        // GB/s; > 0: a level's name, placed beside its line
    friend bool operator==(const RidgeText &, const RidgeText &) = default;
};

// A run's short label ("3", "5a,5b") at the run's shown marker; runs of one label on one spot share it.
struct PointLabel {
    MarkRole role = MarkRole::RunModel; // RunModel, RunMeasured or Published: the swatch it lists with
    double intensity = 0, tflops = 0;
    QStringList texts;
    QColor color; // its marker's fill
    friend bool operator==(const PointLabel &, const PointLabel &) = default;
};

// What the placement depends on, as data: equal keys place every text where it was.
struct CacheKey {
    PlotFrame frame;
    QString fontFamily;
    qsizetype markCount = 0; // every marker drawn
    QList<Mark> moving;      // the marks that move while no run changes: the live point, the selection's
    QList<PointLabel> labels;
    QList<RidgeText> ridges;
    QString note; // the counters note; empty: none
    friend bool operator==(const CacheKey &, const CacheKey &) = default;
};

// Everything the chart draws that a text must keep clear of.
struct Inputs {
    CacheKey key;
    QList<Mark> marks;     // every marker drawn, ridges' dots included
    QList<Polyline> roofs; // no text crosses a roof
    QList<Polyline> joins; // nor a dotted join (the levels' names may)
};

// Where one text goes. Hidden texts keep their defaults.
struct PlacedText {
    bool visible = false;
    QString text;
    QList<Swatch> swatches; // a list's lines, each after a copy of the marker it names
    int pointSize = 8;
    bool framed = false; // a list of several runs: one framed box, not labels of what it sits beside
    QMargins padding;
    Qt::Alignment align = Qt::AlignLeft | Qt::AlignTop; // how the box hangs from `anchor`
    QPointF anchor;
    QRectF rect;
    std::optional<QLineF> leader; // from its markers' edge to the box, where it sits away from them
    QList<QPointF> anchors;       // the marker centres it names
    QList<qsizetype> names;       // a run label's: the CacheKey::labels it names
    // A list's lines after its heading, each naming one place: the CacheKey::labels there (several
    // where their markers lie on each other), their marker centres and the line's leader to them.
    struct Line {
        QList<qsizetype> names;
        QList<QPointF> anchors;
        QLineF leader;
    };
    QList<Line> lines;
};

enum class NoteCorner { BottomRight, TopLeft };

struct Layout {
    QList<PlacedText> ridges; // one per CacheKey::ridges entry
    QList<PlacedText> labels; // one per CacheKey::labels entry (hidden: named in a neighbour's list)
    NoteCorner note = NoteCorner::BottomRight;
    QRectF noteRect;
    // Every visible text, in placing order (ridges, then runs' labels, then the levels' names).
    struct Entry {
        QString text;
        QRectF rect;
        QList<QPointF> anchors;
        std::optional<QLineF> leader;
        bool ridge = false;
        QList<PlacedText::Line> lines; // a list's: each line's places and leader
    };
    QList<Entry> placed;
    // Places where runs of different colours lie on each other: the marker drawn last hides the
    // others, so each is drawn there again, split into one slice a colour (left to right as the
    // text names them), and every run's colour shows.
    struct SharedPlace {
        QPointF centre; // pixels
        QList<QColor> colors;
        SwatchShape shape = SwatchShape::Diamond;
        friend bool operator==(const SharedPlace &, const SharedPlace &) = default;
    };
    QList<SharedPlace> shared;
    int unnamed = 0;        // runs no placed text names (hover still does)
    PlacedText unnamedNote; // says how many, in a free corner of the plot; hidden where none is free
};

// Markers whose centres are this close (pixels) lie on each other: the one drawn on top hides the
// other. One text names them together ("G32, G32+1"), as it names runs on the very same spot.
inline constexpr double kCoincidentPx = 1.5;
// A swatch's room at the left of each list line, in pixels.
inline constexpr int kSwatchRoom = 9;
// More places than this get no label of their own (hover names them): no plot holds more.
inline constexpr qsizetype kMaxPointLabels = 150;
// The plot area (pixels) at which the runs' lists are decided for every larger plot: about the
// Ladder workspace's at 1280x800, so that 1440x900 and 1920x1080 show the same labels.
inline constexpr QSize kStablePlot{340, 300};
// Beyond this many labels a plot is placed once, for its own size (each placing costs every label a
// thousand tries; a sweep's hundreds of places are named by hover anyway).
inline constexpr qsizetype kStableLabelsMax = 40;

class LabelScene {
public:
    // Whether the texts placed last were placed for this key (nothing they depend on changed).
    bool placedFor(const CacheKey &key) const { return m_key && *m_key == key; }
    void forget() { m_key.reset(); }
    // Places every text and remembers the key.
    const Layout &place(const Inputs &inputs);
    const Layout &layout() const { return m_layout; }

private:
    std::optional<CacheKey> m_key;
    Layout m_layout;
};

// The box of a note, a ridge's or a level's name at the chart's label font.
QSizeF textSize(const QString &fontFamily, int pointSize, const QString &text, const QMargins &padding = {});

} // namespace gemmscope::roofline_scene
