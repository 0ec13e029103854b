// Where the roofline's texts go, in pixels and free of Qt widgets, so the rules can be tested on
// their own: a label never sits on a roof line, a dotted join, a
// marker or another label; beside its marker every other marker is 2.5 times as far as its own ("2 ◆ 3"
// read as step 3's label beside step 2's marker); where nothing beside its marker is free it sits
// farther out, nearer its own marker than any other, joined by a leader that passes through no
// marker but its own and crosses no line and no other label. A list of a crowd's runs sits beside the
// crowd with a leader from each line to the marker it names.
#pragma once

#include <QLineF>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <optional>

namespace gemmscope::roofline_labels {

struct Marker {
    QRectF rect; // what is drawn: a disc, a diamond, a ring, a ridge dot
    bool ridge = false;
    QPointF centre() const { return rect.center(); }
};

struct Request {
    QSizeF size;        // the text's box
    QList<int> own;     // the markers it names (indices in Scene::markers); the first is its anchor
    bool leader = true; // may sit away from its markers, joined by a leader
    // A ridge's label ("ridge 15.32 FLOP/B") says what it names: it must only not read as another
    // ridge's (a run's marker or the current settings' circle nearer it is no confusion).
    bool ridge = false;
    // A list: one line a place of the crowd, each joined to its markers by a leader of its own (a
    // list matched to its crowd by colour alone left a user guessing which diamond a line named).
    // Empty: one text naming all of `own` at once.
    struct Line {
        QList<int> own; // the markers the line names (one place: they lie on each other)
        double y = 0;   // the line's middle, in pixels from the box's top
    };
    QList<Line> lines = {};
};

struct Scene {
    QRectF bounds;         // the plot area labels stay in
    QList<Marker> markers; // every marker drawn
    QList<QLineF> lines;   // roofs and dotted joins: no label or leader crosses one
    QList<QRectF> fixed;   // texts placed already (the levels' names, notes)
};

struct Placement {
    bool placed = false;
    QRectF rect;                    // the text's box
    std::optional<QLineF> leader;   // from the edge of its markers to the box
    QList<QLineF> lineLeaders = {}; // a list's: one a line, from its markers' edge to the line
};

// Places the requests in order (the first gets the best place); one that finds no place that
// keeps every rule stays unplaced (its tooltip still names it).
QList<Placement> place(const Scene &scene, const QList<Request> &requests);

// The rules, for the placer and the tests.
// Distance from a point to a rect (0 inside).
double distanceTo(const QRectF &rect, const QPointF &point);
// Whether every marker not at one of `own`'s centres is farther from `rect` than the nearest of
// them (by `margin` pixels): the label reads as theirs.
bool nearestIsOwn(const QRectF &rect, const QList<QPointF> &own, const QList<Marker> &markers,
                  double margin = 1.0);
// The least distance between two segments (0 where they cross): how far apart two leaders run.
double segmentDistance(const QLineF &a, const QLineF &b);
// Whether a leader passes through a marker whose centre is none of `own`'s.
bool leaderHitsOtherMarker(const QLineF &leader, const QList<QPointF> &own, const QList<Marker> &markers);

} // namespace gemmscope::roofline_labels
