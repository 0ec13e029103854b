#include "roofline_label_scene.h"

#include "roofline_label_placer.h"
#include "text_box.h"

#include <QFont>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace gemmscope::roofline_scene {

namespace {

namespace rl = roofline_labels;

// Markers closer than this (pixels, centre to centre) cannot be told apart by where a label sits:
// they share one label that names each of them with its throughput, top to bottom as they lie.
constexpr double kLabelMergePx = 10;
// Markers this close (pixels) are one place: a ring around a marker is that marker's.
constexpr double kSamePlacePx = 0.75;

SwatchShape swatchShape(MarkRole role)
{
    switch (role) {
    case MarkRole::RunMeasured:
        return SwatchShape::Diamond;
    case MarkRole::Published:
        return SwatchShape::Square;
    default:
        return SwatchShape::Disc;
    }
}

bool crossesAny(const QList<QLineF> &lines, const QRectF &rect)
{
    return std::any_of(lines.cbegin(), lines.cend(), [&rect](const QLineF &line) {
        if (rect.contains(line.p1()) || rect.contains(line.p2()))
            return true;
        const QLineF edges[] = {{rect.topLeft(), rect.topRight()},
                                {rect.topRight(), rect.bottomRight()},
                                {rect.bottomRight(), rect.bottomLeft()},
                                {rect.bottomLeft(), rect.topLeft()}};
        return std::any_of(std::begin(edges), std::end(edges), [&line](const QLineF &edge) {
            return line.intersects(edge, nullptr) == QLineF::BoundedIntersection;
        });
    });
}

QRectF hung(const QPointF &anchor, const QSizeF &size, Qt::Alignment align)
{
    QPointF topLeft = anchor;
    if (align & Qt::AlignRight)
        topLeft.rx() -= size.width();
    if (align & Qt::AlignBottom)
        topLeft.ry() -= size.height();
    return QRectF(topLeft, size);
}

QList<QLineF> pixelLines(const PlotFrame &frame, const QList<Polyline> &polylines)
{
    QList<QLineF> lines;
    for (const Polyline &line : polylines)
        for (qsizetype i = 1; i < line.points.size(); ++i)
            lines << QLineF(frame.pixelOf(line.points[i - 1].x(), line.points[i - 1].y()),
                            frame.pixelOf(line.points[i].x(), line.points[i].y()));
    return lines;
}

// What one placing pass works with: the placer's scene and the texts asked for so far.
struct Pass {
    const Inputs &in;
    rl::Scene scene;
    QList<QRectF> markerRects;
    QList<PlacedText> texts; // one per request
    QList<rl::Request> requests;
    QList<bool> ridge; // per request
    QList<int> source; // per request: its ridge's or its first label's index

    QList<int> markersAt(const QPointF &at) const
    {
        QList<int> found;
        for (int i = 0; i < scene.markers.size(); ++i)
            if (QLineF(scene.markers[i].centre(), at).length() <= kSamePlacePx)
                found << i;
        return found;
    }
    // Asks for a place for `text` naming the markers at `anchors`; false where none is there.
    bool request(PlacedText text, bool isRidge, bool leader, int from)
    {
        // A list of several runs is framed as one box: its lines are rows of a small table, not
        // labels of the markers they happen to sit beside.
        text.framed = text.text.contains(QLatin1Char('\n')) && !isRidge;
        const int swatchRoom = text.swatches.isEmpty() ? 0 : kSwatchRoom;
        text.padding = text.framed ? QMargins(2 + swatchRoom, 2, 3, 2) : QMargins(1, 0, 1, 0);
        QList<int> own;
        for (const QPointF &at : std::as_const(text.anchors))
            for (int m : markersAt(at))
                if (!own.contains(m))
                    own << m;
        if (own.isEmpty())
            return false;
        const QSizeF size = textSize(in.key.fontFamily, text.pointSize, text.text, text.padding);
        rl::Request asked{size, own, leader, isRidge, {}};
        // A list's lines are laid out evenly, as SwatchListText draws them.
        const double lineHeight = (size.height() - text.padding.top() - text.padding.bottom()) /
                                  double(std::max<qsizetype>(1, text.lines.size()));
        for (qsizetype k = 0; k < text.lines.size(); ++k) {
            rl::Request::Line line{{}, text.padding.top() + (double(k) + 0.5) * lineHeight};
            for (const QPointF &at : std::as_const(text.lines[k].anchors))
                for (int m : markersAt(at))
                    if (!line.own.contains(m))
                        line.own << m;
            if (line.own.isEmpty())
                return false;
            asked.lines << line;
        }
        requests << asked;
        texts << text;
        ridge << isRidge;
        source << from;
        return true;
    }
};

NoteCorner placeNote(const Inputs &in, const QList<QLineF> &lines, QRectF &rect)
{
    // The note sits in the plot's lower right, under the flat roof; where the chart is narrow its
    // lines reach left to the sloped roof at the bottom, and it moves to the upper left, above the
    // slope, where no run can be (nothing is above its roof at the model's AI).
    const QRect area = in.key.frame.area;
    const QSizeF size = textSize(in.key.fontFamily, 8, in.key.note);
    const QPointF bottomRight(area.left() + 0.99 * area.width(), area.top() + 0.99 * area.height());
    const QPointF topLeft(area.left() + 0.01 * area.width(), area.top() + 0.01 * area.height());
    rect = hung(bottomRight, size, Qt::AlignRight | Qt::AlignBottom);
    if (!crossesAny(lines, rect))
        return NoteCorner::BottomRight;
    const QRectF upper = hung(topLeft, size, Qt::AlignLeft | Qt::AlignTop);
    if (crossesAny(lines, upper))
        return NoteCorner::BottomRight; // neither is clear: where it was
    rect = upper;
    return NoteCorner::TopLeft;
}

// Each level's name just above and left of its diagonal (the side no run reaches), else just below
// and right of it, at the first height (from the view's middle outwards, in log scale) where it
// crosses no roof, marker or text; hidden where none is free (the legend names the line).
PlacedText placeLevel(const Inputs &in, const RidgeText &level, const QList<QLineF> &roofs,
                      QList<QRectF> &obstacles)
{
    const PlotFrame &f = in.key.frame;
    const QRectF bounds = QRectF(f.area).adjusted(2, 2, -2, -2);
    const auto clear = [&](const QRectF &rect) {
        const QRectF inner = rect.adjusted(1, 1, -1, -1);
        return bounds.contains(rect) &&
               std::none_of(obstacles.cbegin(), obstacles.cend(),
                            [&](const QRectF &o) { return o.intersects(inner); }) &&
               !crossesAny(roofs, inner);
    };
    PlacedText text;
    text.text = level.text;
    text.padding = QMargins(1, 0, 1, 0);
    const QSizeF size = textSize(in.key.fontFamily, 8, level.text, text.padding);
    const double top = std::log10(std::min(f.yUpper, level.tflops)), bottom = std::log10(f.yLower);
    for (double fraction : {0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9}) {
        const double value = std::pow(10.0, bottom + fraction * (top - bottom));
        const double key = value / (level.levelBandwidth * 1e-3);
        if (!f.xContains(key))
            continue;
        const QPointF at = f.pixelOf(key, value);
        for (const auto &[align, offset] : {std::pair(Qt::AlignRight | Qt::AlignBottom, QPointF(-2, -2)),
                                            std::pair(Qt::AlignLeft | Qt::AlignTop, QPointF(2, 2))}) {
            const QRectF rect = hung(at + offset, size, align);
            if (clear(rect)) {
                text.visible = true;
                text.align = align;
                text.anchor = at + offset;
                text.rect = rect;
                obstacles << rect;
                return text;
            }
        }
    }
    return text;
}

// The runs' labels grouped: markers too close to tell apart at this zoom share one label, each group
// within the merge distance of its first (the top one): a chain of close markers down a column is
// cut into small groups, not one list as tall as the column.
QList<QList<int>> clustersOf(const QList<QPointF> &at, const QRectF &plotArea)
{
    QList<int> clusterOf(at.size(), -1);
    QList<QList<int>> clusters;
    QList<int> byHeight(at.size());
    std::iota(byHeight.begin(), byHeight.end(), 0);
    std::stable_sort(byHeight.begin(), byHeight.end(), [&](int a, int b) { return at[a].y() < at[b].y(); });
    for (int i : byHeight) {
        if (!plotArea.contains(at[i]) || clusterOf[i] >= 0)
            continue;
        clusterOf[i] = int(clusters.size());
        QList<int> members{i};
        for (int j : byHeight)
            if (clusterOf[j] < 0 && plotArea.contains(at[j]) &&
                QLineF(at[i], at[j]).length() < kLabelMergePx) {
                clusterOf[j] = clusterOf[i];
                members << j;
            }
        clusters << members;
    }
    return clusters;
}

// The places of a group's members (top first): members whose markers lie on each other are one place.
QList<QList<int>> placesOf(const QList<int> &members, const QList<QPointF> &at)
{
    QList<QList<int>> places;
    for (int m : members) {
        const auto place = std::find_if(places.begin(), places.end(), [&](const QList<int> &p) {
            return QLineF(at[p.first()], at[m]).length() <= kCoincidentPx;
        });
        if (place != places.end())
            *place << m;
        else
            places << QList<int>{m};
    }
    return places;
}

// The names of runs on one place, together: "G32, G32+1" says the one marker seen is both (drawn
// split, a slice each run's colour: Layout::shared). Not "(same point)" after them: the crowd's list
// then found no room right of the crowd at 1280x800, and runs lost their labels.
QString namesOf(const QList<PointLabel> &labels, const QList<int> &place)
{
    QStringList names;
    for (int m : place)
        names << labels[m].texts;
    return names.join(QStringLiteral(", "));
}

// A group's text: the runs of one place ("3"; "G32, G32+1" where their markers lie on each other),
// or a list of a line a place, after a copy of its marker, each line joined to its marker by a leader
// of its own (top first). The leaders say which marker a line names: the throughputs the lines gave
// (matched by colour alone, they told the crowd's runs apart) made the list too wide for the room
// right of the crowd at 1280x800, where the crowd's list goes.
PlacedText groupText(const QList<PointLabel> &labels, const QList<int> &members, const QList<QPointF> &at)
{
    PlacedText text;
    const QList<QList<int>> places = placesOf(members, at);
    // A list of several places takes a point less: the Ladder workspace at 1280x800 leaves the plot
    // ~330 px for a column of thirteen stages, and at 8 pt the crowd's list was too wide for the room
    // right of it (kNamesRoomPx) at 1440x900. Its leaders say which line is which.
    text.pointSize = places.size() > 2 ? 7 : 8;
    if (places.size() == 1) {
        text.text = namesOf(labels, places.first());
        return text;
    }
    QStringList lines;
    for (const QList<int> &place : places) {
        PlacedText::Line line;
        for (int m : place) {
            line.names << m;
            line.anchors << at[m];
        }
        lines << namesOf(labels, place);
        text.swatches << Swatch{labels[place.first()].color, swatchShape(labels[place.first()].role)};
        text.lines << line;
    }
    text.text = lines.join(QLatin1Char('\n'));
    return text;
}

// Runs on one place are named by one text: groups holding markers that lie on each other are joined.
void joinCoincident(QList<QList<int>> &clusters, const QList<QPointF> &at)
{
    for (qsizetype a = 0; a < clusters.size(); ++a)
        for (qsizetype b = clusters.size() - 1; b > a; --b) {
            const bool onEachOther = std::any_of(clusters[a].cbegin(), clusters[a].cend(), [&](int i) {
                return std::any_of(clusters[b].cbegin(), clusters[b].cend(),
                                   [&](int j) { return QLineF(at[i], at[j]).length() <= kCoincidentPx; });
            });
            if (onEachOther)
                clusters[a] << clusters.takeAt(b);
        }
}

// Each unplaced group joins its nearest neighbour (if near, and the list stays short); false where
// none could.
bool mergeUnplaced(QList<QList<int>> &clusters, const QList<int> &unplaced, const QList<QPointF> &at)
{
    QList<int> gone;
    for (int u : unplaced) {
        if (gone.contains(u))
            continue;
        int nearest = -1;
        double nearestPx = 0;
        for (int c = 0; c < clusters.size(); ++c) {
            if (c == u || gone.contains(c))
                continue;
            for (int a : clusters[u])
                for (int b : clusters[c])
                    if (const double d = QLineF(at[a], at[b]).length(); nearest < 0 || d < nearestPx) {
                        nearest = c;
                        nearestPx = d;
                    }
        }
        if (nearest < 0 || nearestPx > 30 || clusters[nearest].size() + clusters[u].size() > 12)
            continue; // nothing near enough to be named with it, or a list too long to find room
        clusters[nearest] << clusters[u];
        gone << u;
    }
    std::sort(gone.begin(), gone.end(), std::greater<int>());
    for (int g : std::as_const(gone))
        clusters.removeAt(g);
    return !gone.isEmpty();
}

// The runs' labels after the ridges: the most crowded places first (they have the fewest free
// places around them); a place whose label finds no room joins its nearest neighbour's and all are
// placed again: one label naming both beats a run left unnamed.
QList<rl::Placement> placeRunLabels(Pass &pass, QList<int> &firstOfRequest, QList<QList<int>> &clusters)
{
    const Inputs &in = pass.in;
    const QList<PointLabel> &labels = in.key.labels;
    const QRectF plotArea(in.key.frame.area);
    QList<QPointF> at;
    for (const PointLabel &l : labels)
        at << in.key.frame.pixelOf(l.intensity, l.tflops);
    if (clusters.isEmpty())
        clusters = clustersOf(at, plotArea);
    joinCoincident(clusters, at);
    const Pass ridgesOnly = pass;
    QList<rl::Placement> placed;
    for (int attempt = 0;; ++attempt) {
        pass.texts = ridgesOnly.texts;
        pass.requests = ridgesOnly.requests;
        pass.ridge = ridgesOnly.ridge;
        pass.source = ridgesOnly.source;
        QList<int> clusterOfRequest;
        QList<int> order(clusters.size());
        std::iota(order.begin(), order.end(), 0);
        QList<int> crowd(clusters.size(), 0); // the labelled places within 40 px
        for (int c = 0; c < clusters.size(); ++c)
            for (const QPointF &other : std::as_const(at))
                crowd[c] += QLineF(other, at[clusters[c].first()]).length() < 40;
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return crowd[a] > crowd[b]; });
        for (int c : order) {
            QList<int> &members = clusters[c];
            std::sort(members.begin(), members.end(), [&](int a, int b) {
                return at[a].y() != at[b].y() ? at[a].y() < at[b].y() : at[a].x() < at[b].x();
            });
            PlacedText text = groupText(labels, members, at);
            for (int m : members) {
                text.anchors << at[m];
                text.names << m;
            }
            if (pass.request(text, false, true, members.first()))
                clusterOfRequest << c;
        }
        placed = rl::place(pass.scene, pass.requests);
        QList<int> unplaced;
        for (qsizetype i = ridgesOnly.requests.size(); i < pass.requests.size(); ++i)
            if (!placed[i].placed)
                unplaced << clusterOfRequest[i - ridgesOnly.requests.size()];
        // A long session (a sweep's hundreds of places) is placed once: each pass costs every label a
        // thousand tries, and its unplaced places are named by hover anyway.
        if (unplaced.isEmpty() || attempt >= (labels.size() > 40 ? 0 : 8) ||
            !mergeUnplaced(clusters, unplaced, at))
            break;
    }
    firstOfRequest = pass.source;
    return placed;
}

} // namespace

QSizeF textSize(const QString &fontFamily, int pointSize, const QString &text, const QMargins &padding)
{
    const QSizeF box = textBox(QFont(fontFamily, pointSize), text);
    return {box.width() + padding.left() + padding.right(), box.height() + padding.top() + padding.bottom()};
}

namespace {

// The places each placed text names where runs of several colours lie on each other.
void sharedPlaces(const Inputs &in, Layout &layout)
{
    const auto addPlace = [&](const QList<qsizetype> &names) {
        QList<QColor> colors;
        for (const qsizetype n : names)
            if (const QColor &c = in.key.labels[n].color; c.isValid() && !colors.contains(c))
                colors << c;
        if (colors.size() < 2)
            return;
        const PointLabel &first = in.key.labels[names.first()];
        layout.shared << Layout::SharedPlace{in.key.frame.pixelOf(first.intensity, first.tflops), colors,
                                             swatchShape(first.role)};
    };
    for (const PlacedText &text : std::as_const(layout.labels)) {
        if (!text.visible)
            continue;
        if (text.lines.isEmpty())
            addPlace(text.names);
        for (const PlacedText::Line &line : text.lines)
            if (line.names.size() > 1)
                addPlace(line.names);
    }
}

// One placing of every text; `clusters`: the runs' groups to start from (empty: those of this
// frame), and the groups the placing ended with.
Layout placeAll(const Inputs &in, QList<QList<int>> &clusters)
{
    Layout layout;
    layout.ridges.resize(in.key.ridges.size());
    layout.labels.resize(in.key.labels.size());
    const PlotFrame &f = in.key.frame;
    Pass pass{in, {}, {}, {}, {}, {}, {}};
    pass.scene.bounds = QRectF(f.area);
    QList<QPointF> ridgeDots;
    for (const Mark &m : in.marks)
        if (m.role == MarkRole::Ridge)
            ridgeDots << f.pixelOf(m.intensity, m.tflops);
    for (const Mark &m : in.marks) {
        const QPointF at = f.pixelOf(m.intensity, m.tflops);
        const QRectF rect(at - QPointF(m.radius, m.radius), QSizeF(2 * m.radius, 2 * m.radius));
        const bool ridge = std::any_of(ridgeDots.cbegin(), ridgeDots.cend(), [&](const QPointF &dot) {
            return QLineF(rect.center(), dot).length() <= kSamePlacePx;
        });
        pass.scene.markers << rl::Marker{rect, ridge};
        pass.markerRects << rect;
    }
    const QList<QLineF> roofs = pixelLines(f, in.roofs);
    pass.scene.lines = roofs + pixelLines(f, in.joins);
    QList<QRectF> obstacles = pass.markerRects;
    if (!in.key.note.isEmpty()) {
        layout.note = placeNote(in, pass.scene.lines, layout.noteRect);
        obstacles << layout.noteRect;
    }
    const qsizetype fixedFrom = pass.markerRects.size();
    // The levels' names first, beside their lines; then they are fixed texts, as the note.
    for (qsizetype i = 0; i < in.key.ridges.size(); ++i)
        if (in.key.ridges[i].levelBandwidth > 0)
            layout.ridges[i] = placeLevel(in, in.key.ridges[i], roofs, obstacles);
    pass.scene.fixed = obstacles.mid(fixedFrom);
    // The ridges named first: they sit where the roofs meet, with little room around.
    for (qsizetype i = 0; i < in.key.ridges.size(); ++i) {
        const RidgeText &ridge = in.key.ridges[i];
        if (ridge.levelBandwidth > 0 || !ridge.labelled)
            continue;
        PlacedText text;
        text.text = ridge.text;
        text.anchors = {f.pixelOf(ridge.intensity, ridge.tflops)};
        pass.request(text, true, true, int(i));
    }
    const qsizetype ridgeRequests = pass.requests.size();
    QList<int> sources;
    const QList<rl::Placement> placed = placeRunLabels(pass, sources, clusters);
    for (qsizetype i = 0; i < pass.requests.size(); ++i) {
        if (!placed[i].placed)
            continue;
        PlacedText text = pass.texts[i];
        text.visible = true;
        text.rect = placed[i].rect;
        text.anchor = placed[i].rect.topLeft();
        text.leader = placed[i].leader;
        for (qsizetype k = 0; k < text.lines.size() && k < placed[i].lineLeaders.size(); ++k)
            text.lines[k].leader = placed[i].lineLeaders[k];
        (i < ridgeRequests ? layout.ridges : layout.labels)[sources[i]] = text;
        layout.placed << Layout::Entry{text.text,   text.rect,     text.anchors,
                                       text.leader, pass.ridge[i], text.lines};
    }
    sharedPlaces(in, layout);
    for (const PlacedText &level : std::as_const(layout.ridges))
        if (level.visible && level.anchors.isEmpty())
            layout.placed << Layout::Entry{level.text, level.rect, {}, std::nullopt, true, {}};
    return layout;
}

// How many runs the placed texts leave unnamed.
int unnamedRuns(const Inputs &in, const Layout &layout)
{
    int unnamed = 0;
    for (qsizetype i = 0; i < in.key.labels.size(); ++i)
        if (!std::any_of(layout.labels.cbegin(), layout.labels.cend(),
                         [&](const PlacedText &t) { return t.visible && t.names.contains(i); }))
            unnamed += int(in.key.labels[i].texts.size());
    return unnamed;
}

// The note that some runs have no label, in the first corner of the plot where it covers no
// marker, line or text; none where no corner is free (the tooltips still name every run).
void placeUnnamedNote(const Inputs &in, Layout &layout)
{
    layout.unnamed = unnamedRuns(in, layout);
    if (layout.unnamed == 0)
        return;
    PlacedText &note = layout.unnamedNote;
    note.text = layout.unnamed == 1
                    ? QStringLiteral("1 run unlabelled: hover names it")
                    : QStringLiteral("%1 runs unlabelled: hover names them").arg(layout.unnamed);
    note.padding = QMargins(1, 0, 1, 0);
    const PlotFrame &f = in.key.frame;
    const QRectF area = QRectF(f.area).adjusted(3, 3, -3, -3);
    const QSizeF size = textSize(in.key.fontFamily, 8, note.text, note.padding);
    QList<QRectF> taken;
    for (const Mark &m : in.marks) {
        const QPointF at = f.pixelOf(m.intensity, m.tflops);
        taken << QRectF(at - QPointF(m.radius, m.radius), QSizeF(2 * m.radius, 2 * m.radius));
    }
    for (const Layout::Entry &e : std::as_const(layout.placed))
        taken << e.rect;
    if (!in.key.note.isEmpty())
        taken << layout.noteRect;
    QList<QLineF> lines = pixelLines(f, in.roofs) + pixelLines(f, in.joins);
    for (const Layout::Entry &e : std::as_const(layout.placed)) {
        if (e.leader)
            lines << *e.leader;
        for (const PlacedText::Line &line : e.lines)
            lines << line.leader;
    }
    for (const auto &[anchor, align] : {std::pair(area.bottomRight(), Qt::AlignRight | Qt::AlignBottom),
                                        std::pair(area.topLeft(), Qt::AlignLeft | Qt::AlignTop),
                                        std::pair(area.bottomLeft(), Qt::AlignLeft | Qt::AlignBottom),
                                        std::pair(area.topRight(), Qt::AlignRight | Qt::AlignTop)}) {
        const QRectF rect = hung(anchor, size, align);
        if (crossesAny(lines, rect) ||
            std::any_of(taken.cbegin(), taken.cend(), [&](const QRectF &t) { return t.intersects(rect); }))
            continue;
        note.visible = true;
        note.rect = rect;
        note.anchor = rect.topLeft();
        note.align = Qt::AlignLeft | Qt::AlignTop;
        return;
    }
}

// The frame the runs' groups are decided in: the smallest plot the Ladder workspace gives, with the
// room right of the rightmost run that the default view leaves the crowd's names at any width (its
// range follows the width: a wider plot's ends nearer the runs).
PlotFrame stableFrame(const CacheKey &key)
{
    PlotFrame frame = key.frame;
    frame.area.setSize(kStablePlot);
    double rightmost = 0;
    for (const PointLabel &l : key.labels)
        if (key.frame.xContains(l.intensity))
            rightmost = std::max(rightmost, l.intensity);
    if (rightmost <= frame.xLower)
        return frame;
    const double share = kNamesRoomPx / kStablePlot.width();
    frame.xUpper = std::pow(10.0, (std::log10(rightmost) - share * std::log10(frame.xLower)) / (1 - share));
    return frame;
}

} // namespace

const Layout &LabelScene::place(const Inputs &in)
{
    m_key = in.key;
    // Which runs share a list is decided at the smallest plot the Ladder workspace gives (where the
    // plot is at least that large): a larger window then shows the same labels and lists, not
    // others that its room happens to allow. Where that names fewer runs than placing for this
    // plot alone, the plot's own groups win: no run loses its label to the rule.
    const QSize area = in.key.frame.area.size();
    QList<QList<int>> own;
    Layout direct = placeAll(in, own);
    if (area.width() >= kStablePlot.width() && area.height() >= kStablePlot.height() &&
        in.key.labels.size() <= kStableLabelsMax) {
        Inputs reference = in;
        reference.key.frame = stableFrame(in.key);
        QList<QList<int>> groups;
        placeAll(reference, groups);
        QList<QList<int>> start = groups;
        Layout stable = placeAll(in, start);
        if (unnamedRuns(in, stable) <= unnamedRuns(in, direct))
            direct = stable;
    }
    m_layout = direct;
    placeUnnamedNote(in, m_layout);
    return m_layout;
}

} // namespace gemmscope::roofline_scene
