#include "roofline_label_placer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace gemmscope::roofline_labels {

namespace {

constexpr double kSamePlacePx = 0.75; // a ring around a marker is that marker's
// A run's label level with another marker reads as that one's even where its own is a pixel or two
// nearer ("2 ◆ 3": step 3's label above its diamond, beside step 2's, at 1.5 times its own
// distance, and at twice it at 1440x900): others must be 2.5 times as far as its own.
constexpr double kOtherMarkerRatio = 2.5;
constexpr double kShortestLeaderPx = 5;

// Liang-Barsky: whether the segment passes through the rect (or ends in it).
bool crosses(const QLineF &segment, const QRectF &rect)
{
    if (rect.isEmpty())
        return false;
    // Most segments are nowhere near: their bounding boxes apart settles it.
    if (std::max(segment.x1(), segment.x2()) < rect.left() ||
        std::min(segment.x1(), segment.x2()) > rect.right() ||
        std::max(segment.y1(), segment.y2()) < rect.top() ||
        std::min(segment.y1(), segment.y2()) > rect.bottom())
        return false;
    const double dx = segment.dx(), dy = segment.dy();
    double t0 = 0, t1 = 1;
    const auto clip = [&](double p, double q) {
        if (p == 0)
            return q >= 0;
        const double t = q / p;
        if (p < 0) {
            if (t > t1)
                return false;
            t0 = std::max(t0, t);
        } else {
            if (t < t0)
                return false;
            t1 = std::min(t1, t);
        }
        return true;
    };
    const QPointF a = segment.p1();
    return clip(-dx, a.x() - rect.left()) && clip(dx, rect.right() - a.x()) &&
           clip(-dy, a.y() - rect.top()) && clip(dy, rect.bottom() - a.y()) && t0 <= t1;
}

// Squared distances: these run for every marker near every candidate place (hypot was a twentieth
// of a 10,000-run session's render).
double squaredDistanceTo(const QRectF &rect, const QPointF &point)
{
    const double dx = std::max({rect.left() - point.x(), 0.0, point.x() - rect.right()});
    const double dy = std::max({rect.top() - point.y(), 0.0, point.y() - rect.bottom()});
    return dx * dx + dy * dy;
}

bool isOwn(const QPointF &centre, const QList<QPointF> &own)
{
    return std::any_of(own.cbegin(), own.cend(), [&](const QPointF &o) {
        const QPointF d = o - centre;
        return QPointF::dotProduct(d, d) <= kSamePlacePx * kSamePlacePx;
    });
}

struct Candidate {
    QRectF rect;
    std::optional<QLineF> leader;
};

// The directions the farther places lie in, every 15 degrees from up-right (-45) clockwise: the
// same for every label, so worked out once.
const std::array<QPointF, 24> kRing = [] {
    std::array<QPointF, 24> ring;
    for (int step = 0; step < 24; ++step) {
        const double angle = (-45 + step * 15) * M_PI / 180;
        ring[step] = QPointF(std::cos(angle), std::sin(angle));
    }
    return ring;
}();

// The markers by 24 px cell, so a candidate place is checked against its neighbours only: a long
// session draws thousands of markers, and each label tries a thousand places. The cells are one
// flat array over the plot area (a hash of cells was a tenth of the placing).
class MarkerGrid {
public:
    // The cells cover the plot area and a margin around it; markers beyond (a point far off a
    // zoomed view) are kept aside and tested with every area.
    MarkerGrid(const QList<Marker> &markers, const QRectF &bounds) : m_markers(markers)
    {
        const QRectF covered = bounds.adjusted(-512, -512, 512, 512);
        m_x0 = cellOf(covered.left());
        m_y0 = cellOf(covered.top());
        m_columns = std::max(0, cellOf(covered.right()) - m_x0 + 1);
        m_rows = std::max(0, cellOf(covered.bottom()) - m_y0 + 1);
        m_cells.resize(std::size_t(m_columns) * std::size_t(m_rows));
        for (int i = 0; i < markers.size(); ++i) {
            if (!covered.contains(markers[i].rect)) {
                m_outside << i;
                continue;
            }
            forCells(markers[i].rect, [&](std::size_t cell) {
                m_cells[cell] << i;
                return false;
            });
        }
    }
    // Whether `test` holds for a marker whose rect may meet `area`.
    template <typename Test> bool any(const QRectF &area, Test test) const
    {
        const auto anyOf = [&](const QList<int> &indices) {
            return std::any_of(indices.cbegin(), indices.cend(), [&](int i) { return test(m_markers[i]); });
        };
        return anyOf(m_outside) || forCells(area, [&](std::size_t cell) { return anyOf(m_cells[cell]); });
    }

private:
    static constexpr double kCell = 24;
    static int cellOf(double pixel) { return int(std::clamp(std::floor(pixel / kCell), -1e6, 1e6)); }
    // Visits the index of each cell `area` meets (none beyond the area the cells cover).
    template <typename Visit> bool forCells(const QRectF &area, Visit visit) const
    {
        const int x0 = std::max(m_x0, cellOf(area.left())),
                  x1 = std::min(m_x0 + m_columns - 1, cellOf(area.right()));
        const int y0 = std::max(m_y0, cellOf(area.top())),
                  y1 = std::min(m_y0 + m_rows - 1, cellOf(area.bottom()));
        for (int x = x0; x <= x1; ++x)
            for (int y = y0; y <= y1; ++y)
                if (visit(std::size_t(x - m_x0) * std::size_t(m_rows) + std::size_t(y - m_y0)))
                    return true;
        return false;
    }
    const QList<Marker> &m_markers;
    int m_x0 = 0, m_y0 = 0, m_columns = 0, m_rows = 0;
    std::vector<QList<int>> m_cells;
    QList<int> m_outside;
};

} // namespace

double distanceTo(const QRectF &rect, const QPointF &point)
{
    const double dx = std::max({rect.left() - point.x(), 0.0, point.x() - rect.right()});
    const double dy = std::max({rect.top() - point.y(), 0.0, point.y() - rect.bottom()});
    return std::hypot(dx, dy);
}

bool nearestIsOwn(const QRectF &rect, const QList<QPointF> &own, const QList<Marker> &markers, double margin)
{
    double nearestOwn = std::numeric_limits<double>::infinity();
    for (const QPointF &o : own)
        nearestOwn = std::min(nearestOwn, distanceTo(rect, o));
    return std::none_of(markers.cbegin(), markers.cend(), [&](const Marker &m) {
        return !isOwn(m.centre(), own) && distanceTo(rect, m.centre()) < nearestOwn + margin;
    });
}

namespace {

bool leaderHitsMarker(const QLineF &leader, const QList<QPointF> &own, const Marker &m)
{
    // With a pixel of clearance: a leader grazing a marker reads as that marker's. A marker drawn
    // around the label's own (the current settings' circle on a ridge dot) cannot be left without
    // crossing it.
    const bool around =
        std::any_of(own.cbegin(), own.cend(), [&](const QPointF &o) { return m.rect.contains(o); });
    return !isOwn(m.centre(), own) && !around && crosses(leader, m.rect.adjusted(-1.5, -1.5, 1.5, 1.5));
}

} // namespace

bool leaderHitsOtherMarker(const QLineF &leader, const QList<QPointF> &own, const QList<Marker> &markers)
{
    return std::any_of(markers.cbegin(), markers.cend(),
                       [&](const Marker &m) { return leaderHitsMarker(leader, own, m); });
}

namespace {

// Beside the markers: right, left, above, below, the corners; a little farther out next; slid along
// the markers' sides, for a column or a row of neighbours.
QList<Candidate> besideCandidates(const QRectF &ownBox, const QSizeF &size)
{
    QList<Candidate> beside;
    const QPointF c = ownBox.center();
    const double w = size.width(), h = size.height();
    for (double gap : {2.0, 5.0}) {
        const double left = ownBox.left() - gap - w, right = ownBox.right() + gap;
        const double top = ownBox.top() - gap - h, bottom = ownBox.bottom() + gap;
        for (const QPointF &topLeft :
             {QPointF(right, c.y() - h / 2), QPointF(left, c.y() - h / 2), QPointF(c.x() - w / 2, top),
              QPointF(c.x() - w / 2, bottom), QPointF(right, top + h / 2), QPointF(right, bottom - h / 2),
              QPointF(left, top + h / 2), QPointF(left, bottom - h / 2), QPointF(right - 2, top),
              QPointF(left + 2, top), QPointF(right - 2, bottom), QPointF(left + 2, bottom)})
            beside << Candidate{QRectF(topLeft, size), std::nullopt};
        for (double slide = 3; slide <= h; slide += 3)
            for (double sign : {-1.0, 1.0}) {
                beside << Candidate{QRectF(QPointF(right, c.y() - h / 2 + sign * slide), size), std::nullopt};
                beside << Candidate{QRectF(QPointF(left, c.y() - h / 2 + sign * slide), size), std::nullopt};
            }
        for (double slide = 4; slide <= w / 2; slide += 4)
            for (double sign : {-1.0, 1.0}) {
                beside << Candidate{QRectF(QPointF(c.x() - w / 2 + sign * slide, top), size), std::nullopt};
                beside << Candidate{QRectF(QPointF(c.x() - w / 2 + sign * slide, bottom), size),
                                    std::nullopt};
            }
    }
    return beside;
}

// A place `distance` px out from the markers in `direction`, joined by a leader from where the line
// leaves the markers' box; nullopt where it leaves the plot or the line never leaves the box.
std::optional<Candidate> ringCandidate(const QRectF &ownBox, const QSizeF &size, const QPointF &direction,
                                       double distance, const QRectF &bounds)
{
    const QPointF c = ownBox.center();
    const double w = size.width(), h = size.height();
    const QPointF centre = c + QPointF(direction.x() * (distance + ownBox.width() / 2 + w / 2),
                                       direction.y() * (distance + ownBox.height() / 2 + h / 2));
    const QRectF rect(centre - QPointF(w / 2, h / 2), size);
    if (!bounds.contains(rect))
        return std::nullopt; // never accepted (boxFree): not worth a leader
    const QPointF to(std::clamp(c.x(), rect.left(), rect.right()),
                     std::clamp(c.y(), rect.top(), rect.bottom()));
    QLineF leader(c, to);
    const double inside =
        std::min(std::abs(leader.dx()) > 1e-9 ? ownBox.width() / 2 / std::abs(leader.dx()) : 1e9,
                 std::abs(leader.dy()) > 1e-9 ? ownBox.height() / 2 / std::abs(leader.dy()) : 1e9);
    if (inside >= 1)
        return std::nullopt;
    leader.setP1(leader.pointAt(inside));
    // A leader too short to see says nothing: such a place is beside its markers and keeps their
    // rule (kOtherMarkerRatio).
    return Candidate{rect,
                     leader.length() >= kShortestLeaderPx ? std::optional<QLineF>(leader) : std::nullopt};
}

// Where a line's leader ends: on the edge of its markers, on the side it comes from.
QPointF leaderEnd(const QList<Marker> &markers, const QList<int> &lineOwn, const QPointF &from)
{
    QPointF centre;
    double radius = 0;
    for (int m : lineOwn)
        centre += markers[m].centre() / double(lineOwn.size());
    for (int m : lineOwn)
        radius = std::max(radius, std::max(markers[m].rect.width(), markers[m].rect.height()) / 2);
    const QLineF toBox(centre, from);
    return toBox.length() <= radius ? centre : toBox.pointAt(radius / toBox.length());
}

// The shortest gap (pixels) between a list and its crowd: its leaders must be seen.
constexpr double kListGapPx = 9;
// The least room between two leaders of one list: drawn 0.8 px wide, two that pass within a pixel
// of each other read as one line, or as crossing (in the tightest pile at 1440x900 they did).
constexpr double kLeaderClearancePx = 1.5;

double pointToSegment(const QPointF &p, const QLineF &segment)
{
    const QPointF d = segment.p2() - segment.p1();
    const double length2 = QPointF::dotProduct(d, d);
    const double t =
        length2 > 0 ? std::clamp(QPointF::dotProduct(p - segment.p1(), d) / length2, 0.0, 1.0) : 0.0;
    return QLineF(p, segment.p1() + t * d).length();
}

// A list beside its crowd, right of it first (the roofs are above and left of the runs), then left;
// as near as it fits, level with the crowd first, then slid up or down. Each line's leader runs
// from its markers' edge to the line's side of the box. Leaders of one list never cross; a leader
// passes through no marker but its own line's where any place allows (in a pile of markers a pixel
// apart, through its list's others where none does), crosses no line, label or other leader; and no
// marker other than the list's is nearer the box than the nearest of them.
template <typename BoxFree, typename LeaderFree>
std::optional<Placement> placeList(const Scene &scene, const MarkerGrid &grid, const Request &request,
                                   const QRectF &ownBox, const QList<QPointF> &own, const BoxFree &boxFree,
                                   const LeaderFree &leaderFree)
{
    const QSizeF size = request.size;
    double linesMiddle = 0;
    for (const Request::Line &line : request.lines)
        linesMiddle += line.y / double(request.lines.size());
    const double levelTop = ownBox.center().y() - linesMiddle;
    QList<QList<QPointF>> lineOwn;
    for (const Request::Line &line : request.lines) {
        lineOwn << QList<QPointF>{};
        for (int m : line.own)
            lineOwn.last() << scene.markers[m].centre();
    }
    const auto readsAsOwn = [&](const QRectF &rect) {
        double reach = std::numeric_limits<double>::infinity();
        for (const QPointF &o : own)
            reach = std::min(reach, distanceTo(rect, o));
        return !grid.any(rect.adjusted(-reach, -reach, reach, reach), [&](const Marker &m) {
            return squaredDistanceTo(rect, m.centre()) < reach * reach && !isOwn(m.centre(), own);
        });
    };
    const auto leadersFor = [&](const QRectF &rect, bool right, bool strict,
                                bool clear) -> std::optional<QList<QLineF>> {
        QList<QLineF> lineLeaders;
        for (qsizetype k = 0; k < request.lines.size(); ++k) {
            const QPointF start(right ? rect.left() : rect.right(), rect.top() + request.lines[k].y);
            const QLineF leader(leaderEnd(scene.markers, request.lines[k].own, start), start);
            if (leader.length() < kShortestLeaderPx || !leaderFree(leader))
                return std::nullopt;
            if (strict) {
                const QRectF span = QRectF(leader.p1(), leader.p2()).normalized().adjusted(-2, -2, 2, 2);
                if (grid.any(span, [&](const Marker &m) { return leaderHitsMarker(leader, lineOwn[k], m); }))
                    return std::nullopt;
            }
            for (const QLineF &other : std::as_const(lineLeaders))
                if (segmentDistance(other, leader) < (clear ? kLeaderClearancePx : 1e-9))
                    return std::nullopt;
            lineLeaders << leader;
        }
        return lineLeaders;
    };
    // Leaders clear of each other and of other markers first; then through the list's own pile;
    // then, in a pile too tight for any place to keep them apart, only not crossing.
    for (const auto &[strict, clear] :
         {std::pair{true, true}, std::pair{false, true}, std::pair{false, false}})
        for (double gap = kListGapPx; gap <= 120; gap += gap < 20 ? 3 : 8)
            for (double slide = 0; slide <= size.height(); slide += 4)
                for (const double sign : {1.0, -1.0}) {
                    if (slide == 0 && sign < 0)
                        continue;
                    for (const bool right : {true, false}) {
                        const QRectF rect(
                            QPointF(right ? ownBox.right() + gap : ownBox.left() - gap - size.width(),
                                    levelTop + sign * slide),
                            size);
                        if (!boxFree(rect) || !readsAsOwn(rect))
                            continue;
                        if (const std::optional<QList<QLineF>> lineLeaders =
                                leadersFor(rect, right, strict, clear))
                            return Placement{true, rect, std::nullopt, *lineLeaders};
                    }
                }
    return std::nullopt;
}

} // namespace

QList<Placement> place(const Scene &scene, const QList<Request> &requests)
{
    QList<Placement> result(requests.size());
    const MarkerGrid grid(scene.markers, scene.bounds);
    QList<QRectF> labels = scene.fixed;
    QList<QLineF> leaders;
    const QRectF bounds = scene.bounds.adjusted(2, 2, -2, -2);

    for (qsizetype r = 0; r < requests.size(); ++r) {
        const Request &request = requests[r];
        if (request.own.isEmpty())
            continue;
        QList<QPointF> own;
        QRectF ownBox;
        for (int index : request.own) {
            own << scene.markers[index].centre();
            ownBox = ownBox.isNull() ? scene.markers[index].rect : ownBox.united(scene.markers[index].rect);
        }
        // Rings drawn around an own marker (the selection) are part of what the label names.
        for (const Marker &m : scene.markers)
            if (isOwn(m.centre(), own))
                ownBox = ownBox.united(m.rect);
        const QSizeF size = request.size;

        const auto boxFree = [&](const QRectF &rect) {
            const QRectF inner = rect.adjusted(1, 1, -1, -1);
            return bounds.contains(rect) &&
                   !grid.any(inner, [&](const Marker &m) { return m.rect.intersects(inner); }) &&
                   // Not even touching a line (its padding keeps the text a pixel off it).
                   std::none_of(scene.lines.cbegin(), scene.lines.cend(),
                                [&](const QLineF &line) { return crosses(line, rect); }) &&
                   std::none_of(labels.cbegin(), labels.cend(),
                                [&](const QRectF &l) { return l.adjusted(-1, -1, 1, 1).intersects(rect); }) &&
                   std::none_of(leaders.cbegin(), leaders.cend(),
                                [&](const QLineF &line) { return crosses(line, inner); });
        };
        const auto leaderFree = [&](const QLineF &leader) {
            const QRectF span = QRectF(leader.p1(), leader.p2()).normalized().adjusted(-2, -2, 2, 2);
            const bool hitsMarker =
                grid.any(span, [&](const Marker &m) { return leaderHitsMarker(leader, own, m); });
            return !hitsMarker &&
                   std::none_of(scene.lines.cbegin(), scene.lines.cend(),
                                [&](const QLineF &line) {
                                    return line.intersects(leader, nullptr) == QLineF::BoundedIntersection;
                                }) &&
                   std::none_of(
                       labels.cbegin(), labels.cend(),
                       [&](const QRectF &l) { return crosses(leader, l.adjusted(0.5, 0.5, -0.5, -0.5)); }) &&
                   std::none_of(leaders.cbegin(), leaders.cend(), [&](const QLineF &other) {
                       return other.intersects(leader, nullptr) == QLineF::BoundedIntersection;
                   });
        };

        if (!request.lines.isEmpty()) {
            if (const std::optional<Placement> list =
                    placeList(scene, grid, request, ownBox, own, boxFree, leaderFree)) {
                result[r] = *list;
                labels << list->rect;
                leaders << list->lineLeaders;
            }
            continue;
        }

        const QList<Candidate> beside = besideCandidates(ownBox, size);
        QList<Marker> rivals; // the markers a label must not read as naming
        if (request.ridge)    // other labels check the grid
            for (const Marker &m : scene.markers)
                if (m.ridge)
                    rivals << m;
        // Whether nothing drawn is hit, and whether the text reads as its own markers' (with
        // `margin` px to spare) — farther out, a leader says whose it is; still no other marker
        // nearer the text.
        const auto fits = [&](const Candidate &candidate) {
            return boxFree(candidate.rect) && (!candidate.leader || leaderFree(*candidate.leader));
        };
        // Beside its marker, with no leader, a label needs others 2.5 times as far (kOtherMarkerRatio).
        const auto readsAsOwn = [&](const Candidate &candidate, double margin) {
            if (request.ridge)
                return nearestIsOwn(candidate.rect, own, rivals, margin);
            // Only markers nearer than its own can break the rule: those in reach, from the grid.
            double reach = std::numeric_limits<double>::infinity();
            for (const QPointF &o : own)
                reach = std::min(reach, distanceTo(candidate.rect, o));
            reach = reach * (candidate.leader ? 1.0 : kOtherMarkerRatio) + margin;
            return !grid.any(candidate.rect.adjusted(-reach, -reach, reach, reach), [&](const Marker &m) {
                return squaredDistanceTo(candidate.rect, m.centre()) < reach * reach &&
                       !isOwn(m.centre(), own);
            });
        };
        // The first place that reads clearly as its own (beside, then farther out); failing that,
        // the first farther out that is a hair closer to another marker, where a leader joins it to
        // its own. One pass over the places serves both: the costly tests (what a place hits) are
        // the same for each. Beside its markers a label mostly fits, so the farther places are
        // only worked out when it does not.
        std::optional<Candidate> chosen, closer;
        for (const Candidate &candidate : std::as_const(beside))
            if (fits(candidate) && readsAsOwn(candidate, 1.0)) {
                chosen = candidate;
                break;
            }
        // Farther out on rings, up and right first (the sparse side: the roofs are above the runs
        // and the slow runs left), joined by a leader from the markers' edge.
        if (request.leader)
            for (double distance = 8; distance <= 260 && !chosen; distance += 6)
                for (const QPointF &direction : kRing) {
                    const std::optional<Candidate> ring =
                        ringCandidate(ownBox, size, direction, distance, bounds);
                    if (!ring)
                        continue;
                    const Candidate &candidate = *ring;
                    if (!fits(candidate))
                        continue;
                    if (readsAsOwn(candidate, 1.0)) {
                        chosen = candidate;
                        break;
                    }
                    if (!closer && readsAsOwn(candidate, 0.0))
                        closer = candidate;
                }
        if (!chosen)
            chosen = closer;
        if (!chosen)
            continue;
        result[r] = Placement{true, chosen->rect, chosen->leader};
        labels << chosen->rect;
        if (chosen->leader)
            leaders << *chosen->leader;
    }
    return result;
}

double segmentDistance(const QLineF &a, const QLineF &b)
{
    if (a.intersects(b, nullptr) == QLineF::BoundedIntersection)
        return 0;
    return std::min({pointToSegment(a.p1(), b), pointToSegment(a.p2(), b), pointToSegment(b.p1(), a),
                     pointToSegment(b.p2(), a)});
}

} // namespace gemmscope::roofline_labels
