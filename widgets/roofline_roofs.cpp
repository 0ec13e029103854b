#include "roofline_roofs.h"

#include "chart_text.h"
#include "roofline_math.h"

#include <algorithm>
#include <cmath>

namespace gemmscope::roofline_scene {

namespace {

// The roofs span far past any plausible view so panning never reaches their ends.
constexpr double kRoofMinIntensity = 1e-3;
constexpr double kRoofMaxIntensity = 1e5;
// The default view: from a naive kernel's intensity to far past every ridge.
constexpr double kViewMinIntensity = 0.1;
constexpr double kViewMaxIntensity = 2000;
constexpr double kViewMinTflops = 0.1;
constexpr double kRoofHeadroom = 1.3;  // the top of the view over the highest roof
constexpr double kLabelHeadroom = 1.4; // and with runs drawn, for their labels
// The view ends where the plot's width leaves the crowd's names their room (kNamesRoomPx) right of the
// rightmost run: a fixed factor of the run's intensity either ran the axis to 10,000 FLOP/B with every
// run under 400 (18 times), or at 1280x800 left the names no room (twice).
// The plot's width where none is known yet (about the Ladder workspace's at 1280x800).
constexpr double kDefaultPlotWidthPx = 360;

// The measured roofs are solid and dark (what this GPU did); the datasheet's thin, dashed and pale
// (what NVIDIA states): the two FP32 roofs lie almost on each other on an H200, and alike they read
// as one.
const QColor kMeasuredRoofColor(0x20, 0x20, 0x20);
const QColor kTf32RoofColor(0x94, 0x67, 0xbd);
const QColor kDatasheetFp32Color(0x8c, 0xa3, 0xbd);
const QColor kDatasheetTf32Color(0xbd, 0xa9, 0xd3);
const QColor kLoneDatasheetFp32Color(0x1f, 0x77, 0xb4);

QString upperKey(const std::string &key)
{
    return QString::fromStdString(key).toUpper();
}

struct Pen {
    QColor color;
    double width;
    Qt::PenStyle style = Qt::SolidLine;
};

RoofSpec roof(const QString &label, double peak, double bandwidth, const Pen &pen, bool measured,
              bool measuredShown, std::optional<MemoryLevel> level = std::nullopt,
              const QString &legendTitle = {})
{
    RoofSpec r;
    r.label = label;
    r.peakTflops = peak;
    r.bandwidthGBs = bandwidth;
    r.measured = measured;
    r.level = level;
    r.color = pen.color;
    r.penWidth = pen.width;
    r.penStyle = pen.style;
    r.ridgeDotSize = measured ? 6 : 4;
    const double ridge = roofline::ridgeIntensity(peak, bandwidth);
    // The legend entry: what the roof is on one line, its numbers on the next (the legend sits beside
    // the plot, where width is dear).
    QString name = label;
    name.replace(QStringLiteral(" tensor cores"), QString())
        .replace(QStringLiteral("TF32 tensor roof ("), QStringLiteral("TF32 ("))
        .replace(QStringLiteral("(the worklog's GPU)"), QStringLiteral("(worklog)"))
        .replace(QStringLiteral("measured on NVIDIA "), QStringLiteral("measured "))
        .replace(QStringLiteral(" (recorded)"), QStringLiteral(", recorded"));
    if (!legendTitle.isEmpty())
        name = legendTitle;
    r.legendName = QStringLiteral("%1\n%2, %3").arg(name, formatTflops(peak), formatBandwidth(bandwidth));
    if (!measured && measuredShown)
        r.legendName += QStringLiteral("\nridge %1").arg(formatRidge(ridge));
    // A datasheet ridge beside a measured one is named in the legend: two ridge labels a few pixels
    // apart (13.94 and 15.32 FLOP/B on an H200) crowded each other onto the roofs.
    r.ridgeLabelled = measured || !measuredShown;
    if (level) {
        // Its diagonal alone: right of the ridge it would lie on the compute roof drawn already. Its
        // name sits beside the line, short (the legend gives the bandwidth and the ridge).
        r.legendName = QStringLiteral("%1 roof (measured)\n%2, ridge %3")
                           .arg(levelName(*level), formatBandwidth(bandwidth), formatRidge(ridge));
        r.line.points = {{kRoofMinIntensity, roofline::roofAt(kRoofMinIntensity, peak, bandwidth)},
                         {ridge, peak}};
        r.ridgeText = levelName(*level);
    } else {
        r.line.points = {{kRoofMinIntensity, roofline::roofAt(kRoofMinIntensity, peak, bandwidth)},
                         {ridge, peak},
                         {kRoofMaxIntensity, peak}};
        r.ridgeText = QStringLiteral("ridge %1").arg(formatRidge(ridge));
    }
    return r;
}

double ceil125(double v)
{
    const double decade = std::pow(10.0, std::floor(std::log10(v)));
    for (const double m : {1.0, 2.0, 5.0})
        if (m * decade >= v * (1 - 1e-9))
            return m * decade;
    return 10 * decade;
}

} // namespace

double RoofSpec::ridgeIntensity() const
{
    return roofline::ridgeIntensity(peakTflops, bandwidthGBs);
}

QString levelName(MemoryLevel level)
{
    return level == MemoryLevel::L2 ? QStringLiteral("L2") : QStringLiteral("L1/shared");
}

QColor levelColor(MemoryLevel level)
{
    // Colours no stage and no other roof uses.
    return level == MemoryLevel::L2 ? QColor(0xd9, 0x5f, 0x02) : QColor(0x1b, 0x9e, 0x77);
}

QString tf32Instruction(const QString &kernel)
{
    for (const QString &known : {QStringLiteral("wgmma"), QStringLiteral("mma.sync")})
        if (kernel.startsWith(known + QLatin1Char('.')))
            return known;
    return kernel;
}

// Three significant digits, as the peaks and the ridges: a reader checks a ridge by dividing the two.
QString formatBandwidth(double gbPerS)
{
    const double tb = gbPerS / 1000;
    return QString::number(tb, 'f', tb < 10 ? 2 : (tb < 100 ? 1 : 0)) + QStringLiteral(" TB/s");
}

QString formatRidge(double ai)
{
    return QString::number(ai, 'f', ai < 10 ? 2 : (ai < 100 ? 1 : 0)) + QStringLiteral(" FLOP/B");
}

QList<RoofSpec> roofsFor(const Ceilings &c, const RoofOptions &o)
{
    QList<RoofSpec> roofs;
    const bool shown = o.measuredShown && c.fmaTflops > 0 && c.dramGBs > 0;
    if (shown)
        // Named as the TF32 roof is, by what measured it; the GPU and the date are in its tooltip.
        roofs << roof(QStringLiteral("FP32 measured on %1")
                          .arg(c.label.isEmpty() ? QStringLiteral("this GPU") : c.label),
                      c.fmaTflops, c.dramGBs, {kMeasuredRoofColor, 2}, true, shown, std::nullopt,
                      QStringLiteral("FP32 (FFMA, measured)"));
    // The TF32 roofs only where a TF32 run or stage is on the chart: at ~5x the FP32 peak they would
    // squeeze every CUDA-core run into the bottom of the plot. The measured one says what measured
    // it: wgmma on Hopper, mma.sync elsewhere.
    const bool tensorMeasured = shown && c.tf32Tflops > 0;
    if (o.tensorRoofs && tensorMeasured) {
        const QString instruction = tf32Instruction(c.tf32Kernel);
        roofs << roof(QStringLiteral("TF32 tensor roof (%1measured)")
                          .arg(instruction.isEmpty() ? QString() : instruction + QStringLiteral(", ")),
                      c.tf32Tflops, c.dramGBs, {kTf32RoofColor, 2}, true, shown);
    }
    if (const GpuSpec *spec = o.datasheet) {
        roofs << roof(
            upperKey(spec->key) + QStringLiteral(" datasheet FP32"), spec->fp32Tflops, spec->dramGBs,
            {shown ? kDatasheetFp32Color : kLoneDatasheetFp32Color, shown ? 1.2 : 1.5, Qt::DashLine}, false,
            shown);
        if (o.tensorRoofs && spec->tf32Tflops > 0)
            roofs << roof(upperKey(spec->key) + QStringLiteral(" datasheet TF32 tensor cores"),
                          spec->tf32Tflops, spec->dramGBs,
                          {shown ? kDatasheetTf32Color : kTf32RoofColor, shown ? 1.2 : 1.5,
                           shown ? Qt::DashLine : Qt::DashDotLine},
                          false, shown);
    }
    // Each level's bandwidth up to the highest compute roof measured here (the TF32 one where it is
    // drawn): what a kernel could reach if that level alone limited it.
    const double levelPeak =
        std::max(shown ? c.fmaTflops : 0.0, o.tensorRoofs && tensorMeasured ? c.tf32Tflops : 0.0);
    for (const auto &[level, drawn, bandwidth] :
         {std::tuple(MemoryLevel::L2, o.l2Drawn, c.l2GBs),
          std::tuple(MemoryLevel::L1Shared, o.l1SharedDrawn, c.sharedGBs)})
        if (levelPeak > 0 && drawn && bandwidth > 0)
            roofs << roof(QStringLiteral("%1 roof, measured").arg(levelName(level)), levelPeak, bandwidth,
                          {levelColor(level), 1.6}, true, shown, level);
    if (o.worklogOverlay)
        if (const GpuSpec *t4 = findGpu("t4"))
            roofs << roof(QStringLiteral("T4 datasheet FP32 (the worklog's GPU)"), t4->fp32Tflops,
                          t4->dramGBs, {kWorklogColor, 1, Qt::DashLine}, false, shown);
    return roofs;
}

Polyline clippedLine(const RoofSpec &r, double xMin, double xMax, double yMin)
{
    const double ridge = r.ridgeIntensity();
    const double start = std::max(xMin, yMin / roofline::bandwidthBound(1, r.bandwidthGBs));
    const QPointF first(start, roofline::roofAt(start, r.peakTflops, r.bandwidthGBs));
    if (r.level) { // a level's diagonal ends at its ridge
        const double end = std::min(ridge, xMax);
        if (end > start)
            return Polyline{{first, {end, roofline::roofAt(end, r.peakTflops, r.bandwidthGBs)}}};
        return {};
    }
    Polyline line{{first}};
    if (ridge > start && ridge < xMax)
        line.points << QPointF(ridge, r.peakTflops);
    line.points << QPointF(xMax, roofline::roofAt(xMax, r.peakTflops, r.bandwidthGBs));
    return line;
}

ViewRanges defaultView(const QList<RoofSpec> &roofs, const QList<ViewPoint> &points, double plotWidthPx)
{
    // Without runs, far past every ridge; with runs, as far as they and the ridges need.
    const bool runs = std::any_of(points.cbegin(), points.cend(), [](const ViewPoint &p) { return !p.live; });
    double xMin = kViewMinIntensity, xMax = runs ? 10 * xMin : kViewMaxIntensity, yMin = kViewMinTflops,
           yMax = 10;
    for (const RoofSpec &r : roofs) {
        xMax = std::max(xMax, 2 * r.ridgeIntensity());
        yMax = std::max(yMax, kRoofHeadroom * r.peakTflops);
    }
    double lowest = 0, leftmost = 0, rightmost = 0;
    for (const ViewPoint &p : points) {
        leftmost = leftmost > 0 ? std::min(leftmost, p.intensity) : p.intensity;
        if (p.live)
            xMax = std::max(xMax, 2 * p.intensity);
        else
            rightmost = std::max(rightmost, p.intensity);
        if (p.tflops > 0) {
            lowest = lowest > 0 ? std::min(lowest, p.tflops) : p.tflops;
            yMax = std::max(yMax, p.tflops * kRoofHeadroom);
        }
    }
    // With runs, room over the highest roof for the labels of the runs under it and its ridge's name.
    if (leftmost > 0)
        yMax *= kLabelHeadroom;
    // With runs, the view starts at the decade under the slowest one's half: a fast ladder gets the
    // height that 0.1-1 TFLOP/s would waste, to label its clusters.
    if (lowest > 0)
        yMin = std::min(std::max(yMin, std::pow(10.0, std::floor(std::log10(lowest / 2)))), lowest / 2);
    // And from the decade under both the leftmost run's half and a tenth of the lowest ridge (the
    // diagonal stays long enough to read).
    if (leftmost > 0) {
        double ridge = leftmost * 5;
        for (const RoofSpec &r : roofs)
            ridge = std::min(ridge, r.ridgeIntensity());
        const double want = std::min(leftmost / 2, ridge / 10);
        xMin = std::min(std::max(xMin, std::pow(10.0, std::floor(std::log10(want)))), leftmost / 2);
    }
    // Room right of the rightmost runs for their names: the fastest stages stand in a column there,
    // named by a list beside it. log(xMax / rightmost) is `share` of log(xMax / xMin).
    if (rightmost > 0) {
        const double width = plotWidthPx > 0 ? plotWidthPx : kDefaultPlotWidthPx;
        const double share = std::clamp(kNamesRoomPx / width, 0.05, 0.5);
        xMax =
            std::max(xMax, std::pow(10.0, (std::log10(rightmost) - share * std::log10(xMin)) / (1 - share)));
    }
    // The view ends on a 1-2-5 value, as its ticks run: an axis ending at "6000" or "900" read as odd.
    return {xMin, ceil125(xMax), yMin, ceil125(yMax)};
}

} // namespace gemmscope::roofline_scene
